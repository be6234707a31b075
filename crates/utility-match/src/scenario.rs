//! The simulation scenario of §4.2: sites of generated resources, users
//! placed at random, Poisson arrivals, and four requirement types whose
//! options and utilities are drawn at random.

use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use profile::{ShortFloat, Time};

use crate::error::GridError;
use crate::grid::{MAX_LENGTH, MAX_VIEW_ENTRIES};
use crate::machine::Machine;
use crate::model::{Attribute, Requirement, Resource, Value, Want};
use crate::scheduler::GridJob;

/// The most jobs a scenario may generate (`users × jobs_per_user`): 100,000
/// (the paper's has 1,400). Also the most users.
pub const MAX_JOBS: usize = 100_000;

/// The most values one option list (`os`, `arch`, `speeds`, `exec_times`,
/// `cores`, `memory`) may hold: 1,000 (the paper's hold four).
pub const MAX_OPTIONS: usize = 1_000;

/// The most options all jobs' requirements may hold together (jobs × the
/// options each of the four requirement types may list, `max_options` or
/// its list's length if shorter): 10,000,000. Every job keeps its own.
pub const MAX_OPTION_ENTRIES: usize = 10_000_000;

/// A generated grid and its jobs.
#[derive(Clone, Debug, PartialEq)]
pub struct GridWorkload {
    /// The machines, site by site.
    pub machines: Vec<Vec<Machine>>,
    /// The jobs, by submission time (ids are positions).
    pub jobs: Vec<GridJob>,
}

/// The four requirement types of §4.2, in the paper's order; their weights
/// `β` in [`Scenario::weights`] follow this order.
pub const REQUIREMENT_TYPES: [Attribute; 4] = [
    Attribute::Os,
    Attribute::Arch,
    Attribute::ExecTime,
    Attribute::Speed,
];

/// The §4.2 scenario. Every option space is drawn from uniformly, for jobs
/// (each requirement lists 1 to `max_options` distinct options, at most as
/// many as the space holds) and for resources (one value per attribute).
///
/// The paper gives the counts (4 sites of 20 resources, 70 users, 20 jobs
/// each, Poisson arrivals of mean 2, four requirement types of up to four
/// options, utilities drawn per quarter interval); [`Scenario::paper`] fills
/// what it leaves open (option values, job lengths, the arrival time unit,
/// queue capacity) as the crate README records.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Sites (virtual organisations).
    pub sites: usize,
    /// Resources per site.
    pub resources_per_site: usize,
    /// Users, each placed at a site drawn uniformly.
    pub users: usize,
    /// Jobs each user submits.
    pub jobs_per_user: usize,
    /// Mean time between one user's submissions (exponential), seconds.
    pub mean_interarrival: f64,
    /// Most options per requirement.
    pub max_options: usize,
    /// Operating systems.
    pub os: Vec<String>,
    /// Architectures (word sizes).
    pub arch: Vec<i64>,
    /// Core speeds, MIPS; a job's option is a minimum speed.
    pub speeds: Vec<i64>,
    /// Execution-time options, seconds from submission to completion; a
    /// job's option is a maximum.
    pub exec_times: Vec<i64>,
    /// Cores per resource.
    pub cores: Vec<u32>,
    /// Memory per resource, MB (reported in the site summary).
    pub memory: Vec<i64>,
    /// Job length range, million instructions, both ends included.
    pub length: (i64, i64),
    /// Jobs a resource holds per core (running plus queued); `None` for
    /// unbounded queues, the paper's: §4.2 runs on "the GridSim toolkit",
    /// whose space-shared resources queue without a bound, and gives no
    /// capacity.
    pub jobs_per_core: Option<u32>,
    /// Weight `β` of each requirement type, in [`REQUIREMENT_TYPES`] order.
    pub weights: [f64; 4],
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario::paper()
    }
}

/// A random stream derived from `seed` for the component called `name`
/// (SplitMix64 over the name's bytes), so that components draw
/// independently and adding one never shifts another's numbers.
pub fn stream(seed: u64, name: &str) -> ChaCha8Rng {
    let mut x = seed ^ 0x9E37_79B9_7F4A_7C15;
    for b in name.bytes() {
        x = splitmix(x ^ u64::from(b));
    }
    ChaCha8Rng::seed_from_u64(splitmix(x))
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A utility as §4.2 draws it: one of the intervals [0, 0.25], [0.25, 0.5],
/// [0.5, 0.75], [0.75, 1] uniformly, then a uniform value in it.
pub fn draw_utility(rng: &mut impl Rng) -> f64 {
    let interval = rng.random_range(0..4u32);
    (f64::from(interval) + rng.random::<f64>()) / 4.0
}

fn pick<'v, T>(rng: &mut impl Rng, values: &'v [T]) -> &'v T {
    &values[rng.random_range(0..values.len())]
}

impl Scenario {
    /// §4.2 with the open values filled: 4 sites × 20 resources, 70 users ×
    /// 20 jobs, a mean of 2 minutes (120 s) between a user's submissions;
    /// operating systems Linux, MacOS, Solaris, Windows; 32 and 64 bits;
    /// 1,000 to 4,000 MIPS; 300 to 1,200 s execution-time options; 1, 2, 4
    /// or 8 cores; 1 to 8 GB; jobs of 200,000 to 1,000,000 MI; unbounded
    /// resource queues; every weight 1.
    pub fn paper() -> Scenario {
        Scenario {
            sites: 4,
            resources_per_site: 20,
            users: 70,
            jobs_per_user: 20,
            mean_interarrival: 120.0,
            max_options: 4,
            os: ["Linux", "MacOS", "Solaris", "Windows"]
                .map(String::from)
                .to_vec(),
            arch: vec![32, 64],
            speeds: vec![1000, 2000, 3000, 4000],
            exec_times: vec![300, 600, 900, 1200],
            cores: vec![1, 2, 4, 8],
            memory: vec![1024, 2048, 4096, 8192],
            length: (200_000, 1_000_000),
            jobs_per_core: None,
            weights: [1.0; 4],
        }
    }

    /// Checks every count, range and option space.
    pub fn check(&self) -> Result<(), GridError> {
        let bad = |name: &'static str, message: String| Err(GridError::Setting { name, message });
        for (name, n) in [
            ("sites", self.sites),
            ("resources_per_site", self.resources_per_site),
            // No users or no jobs: every user metric is a mean over nothing.
            ("users", self.users),
            ("jobs_per_user", self.jobs_per_user),
            ("max_options", self.max_options),
        ] {
            if n == 0 {
                return bad(name, "is 0, expected at least 1".into());
            }
        }
        if self.users > MAX_JOBS {
            return bad(
                "users",
                format!("is {}, expected at most {MAX_JOBS}", self.users),
            );
        }
        let jobs = self.users.checked_mul(self.jobs_per_user);
        if jobs.is_none_or(|n| n > MAX_JOBS) {
            return bad(
                "jobs_per_user",
                format!(
                    "gives {} users × {} jobs, expected at most {MAX_JOBS} jobs in all",
                    self.users, self.jobs_per_user
                ),
            );
        }
        let resources = self.sites.checked_mul(self.resources_per_site);
        let view = resources.and_then(|r| r.checked_mul(self.sites));
        if view.is_none_or(|n| n > MAX_VIEW_ENTRIES) {
            return bad(
                "resources_per_site",
                format!(
                    "gives {} sites each viewing {} × {} resources, more than \
                     {MAX_VIEW_ENTRIES} entries in all; give fewer sites or resources",
                    self.sites, self.sites, self.resources_per_site
                ),
            );
        }
        if !(self.mean_interarrival.is_finite() && self.mean_interarrival >= 0.0) {
            return bad(
                "mean_interarrival",
                format!(
                    "is {} s, expected a finite number of at least 0",
                    ShortFloat(self.mean_interarrival)
                ),
            );
        }
        let spaces = [
            ("os", self.os.len()),
            ("arch", self.arch.len()),
            ("speeds", self.speeds.len()),
            ("exec_times", self.exec_times.len()),
            ("cores", self.cores.len()),
            ("memory", self.memory.len()),
        ];
        if let Some((name, _)) = spaces.iter().find(|(_, n)| *n == 0) {
            return bad(name, "is empty, expected at least one option".into());
        }
        if let Some((name, n)) = spaces.iter().find(|(_, n)| *n > MAX_OPTIONS) {
            return bad(
                name,
                format!("holds {n} options, expected at most {MAX_OPTIONS}"),
            );
        }
        let per_job: usize = REQUIREMENT_TYPES
            .iter()
            .map(|a| self.space_len(a).min(self.max_options))
            .sum();
        // `jobs` is at most MAX_JOBS here, `per_job` at most 4 × MAX_OPTIONS.
        let entries = self.users * self.jobs_per_user * per_job;
        if entries > MAX_OPTION_ENTRIES {
            return bad(
                "max_options",
                format!(
                    "is {}: {} jobs could list {per_job} options each, {entries} in all, more \
                     than {MAX_OPTION_ENTRIES}; give fewer options or jobs",
                    self.max_options,
                    self.users * self.jobs_per_user
                ),
            );
        }
        if self.speeds.iter().any(|&s| s <= 0) {
            return bad("speeds", "must all be positive MIPS".into());
        }
        for (name, values, unit) in [
            ("arch", &self.arch, "word sizes"),
            ("exec_times", &self.exec_times, "seconds"),
            ("memory", &self.memory, "MB"),
        ] {
            if let Some(v) = values.iter().find(|&&v| v <= 0) {
                return bad(name, format!("holds {v}, expected positive {unit}"));
            }
        }
        if self.cores.contains(&0) {
            return bad("cores", "must all be at least 1".into());
        }
        if !(0 < self.length.0 && self.length.0 <= self.length.1 && self.length.1 <= MAX_LENGTH) {
            return bad(
                "length",
                format!("is {:?} MI, expected 0 < low <= high <= 2^40", self.length),
            );
        }
        if self.jobs_per_core == Some(0) {
            return bad(
                "jobs_per_core",
                "is 0, expected at least 1 (or none for unbounded queues)".into(),
            );
        }
        if let Some(w) = self.weights.iter().find(|w| !(0.0..=1.0).contains(*w)) {
            return bad(
                "weights",
                format!("holds {}, expected weights in [0, 1]", ShortFloat(*w)),
            );
        }
        Ok(())
    }

    /// The size of the option space of one requirement type.
    fn space_len(&self, attribute: &Attribute) -> usize {
        match attribute {
            Attribute::Os => self.os.len(),
            Attribute::Arch => self.arch.len(),
            Attribute::ExecTime => self.exec_times.len(),
            _ => self.speeds.len(),
        }
    }

    /// Option `i` of the space of one requirement type (made only for the
    /// options a job draws, not the whole space per job).
    fn option(&self, attribute: &Attribute, i: usize) -> Want {
        match attribute {
            Attribute::Os => Want::Is(Value::from(self.os[i].as_str())),
            Attribute::Arch => Want::Is(Value::Int(self.arch[i])),
            Attribute::ExecTime => Want::AtMost(self.exec_times[i]),
            _ => Want::AtLeast(self.speeds[i]),
        }
    }

    /// The requirements of one job: each type with 1 to `max_options`
    /// distinct options drawn uniformly, each with a [`draw_utility`].
    pub fn requirements(&self, rng: &mut impl Rng) -> Result<Vec<Requirement>, GridError> {
        REQUIREMENT_TYPES
            .iter()
            .zip(self.weights)
            .map(|(attribute, weight)| {
                let len = self.space_len(attribute);
                let most = self.max_options.min(len);
                let count = rng.random_range(1..=most);
                let options = sample(rng, len, count)
                    .into_iter()
                    .map(|i| (self.option(attribute, i), draw_utility(rng)))
                    .collect();
                Requirement::new(attribute.clone(), weight, options).map_err(|e| {
                    GridError::Setting {
                        name: "weights",
                        message: e.to_string(),
                    }
                })
            })
            .collect()
    }

    /// One resource drawn "using the job's requirements method": each
    /// attribute uniformly from its space.
    pub fn machine(&self, rng: &mut impl Rng) -> Result<Machine, GridError> {
        let attributes = Resource::new()
            .with(Attribute::Os, pick(rng, &self.os).as_str())
            .with(Attribute::Arch, *pick(rng, &self.arch))
            .with(Attribute::Memory, *pick(rng, &self.memory));
        let mips = *pick(rng, &self.speeds);
        let cores = *pick(rng, &self.cores);
        let m = Machine::new(cores, mips, attributes)?;
        Ok(match self.jobs_per_core {
            Some(k) => m.with_capacity(cores.saturating_mul(k)),
            None => m,
        })
    }

    /// The grid and jobs of one run. Machines, users' sites, arrivals,
    /// requirements and lengths each draw from their own stream of `seed`.
    ///
    /// Errors: a setting out of range ([`Scenario::check`]), or a
    /// `mean_interarrival` that drives a submit time past `Time::LIMIT`
    /// (2^40 s).
    pub fn generate(&self, seed: u64) -> Result<GridWorkload, GridError> {
        self.check()?;
        let mut rng = stream(seed, "machines");
        let machines = (0..self.sites)
            .map(|_| {
                (0..self.resources_per_site)
                    .map(|_| self.machine(&mut rng))
                    .collect()
            })
            .collect::<Result<Vec<Vec<Machine>>, GridError>>()?;
        let mut homes = stream(seed, "homes");
        let mut arrivals = stream(seed, "arrivals");
        let mut needs = stream(seed, "requirements");
        let mut lengths = stream(seed, "lengths");
        let mut jobs = Vec::with_capacity(self.users * self.jobs_per_user);
        for user in 0..self.users {
            let site = homes.random_range(0..self.sites);
            let mut t = 0.0f64;
            for _ in 0..self.jobs_per_user {
                // Exponential gaps: inverse transform of a uniform in (0, 1].
                t += -self.mean_interarrival * (1.0 - arrivals.random::<f64>()).ln();
                if t.round() > Time::LIMIT.0 as f64 {
                    return Err(GridError::Setting {
                        name: "mean_interarrival",
                        message: format!(
                            "is {} s, which puts user {user}'s submissions past 2^40 s \
                             (about 34,800 years); give a shorter mean",
                            ShortFloat(self.mean_interarrival)
                        ),
                    });
                }
                jobs.push(GridJob {
                    id: 0,
                    user,
                    site,
                    submit: Time(t.round() as i64),
                    length: lengths.random_range(self.length.0..=self.length.1),
                    requirements: self.requirements(&mut needs)?,
                });
            }
        }
        // By submission time; a stable sort keeps user order on ties.
        jobs.sort_by_key(|j| j.submit);
        for (id, j) in jobs.iter_mut().enumerate() {
            j.id = id;
        }
        Ok(GridWorkload { machines, jobs })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queues are unbounded unless `jobs_per_core` bounds them.
    #[test]
    fn queues_are_unbounded_by_default() {
        let unbounded = Scenario::paper().generate(3).unwrap();
        assert!(
            unbounded
                .machines
                .iter()
                .flatten()
                .all(|m| m.capacity().is_none())
        );
        let bounded = Scenario {
            jobs_per_core: Some(2),
            ..Scenario::paper()
        }
        .generate(3)
        .unwrap();
        for (b, u) in bounded
            .machines
            .iter()
            .flatten()
            .zip(unbounded.machines.iter().flatten())
        {
            assert_eq!(b.capacity(), Some(2 * b.cores()));
            assert_eq!((b.cores(), b.mips()), (u.cores(), u.mips()), "same grid");
        }
    }

    #[test]
    fn the_paper_scenario_has_the_paper_counts() {
        let w = Scenario::paper().generate(1).unwrap();
        assert_eq!(w.machines.len(), 4);
        assert!(w.machines.iter().all(|s| s.len() == 20));
        assert_eq!(w.jobs.len(), 1400);
        assert!(w.jobs.windows(2).all(|p| p[0].submit <= p[1].submit));
        assert!(w.jobs.iter().enumerate().all(|(i, j)| j.id == i));
        for j in &w.jobs {
            assert_eq!(j.requirements.len(), 4);
            for r in &j.requirements {
                let most = if *r.attribute() == Attribute::Arch {
                    2
                } else {
                    4
                };
                assert!((1..=most).contains(&r.options().len()), "{r:?}");
                let wants: Vec<_> = r.options().iter().map(|o| &o.0).collect();
                assert!(
                    wants
                        .iter()
                        .enumerate()
                        .all(|(i, w)| !wants[..i].contains(w)),
                    "distinct options"
                );
            }
        }
        // Mean gap of one user's submissions is about 120 s (20 jobs × 70 users).
        let mut last = vec![0i64; 70];
        let mut gaps = 0i64;
        for j in &w.jobs {
            gaps += j.submit.0 - last[j.user];
            last[j.user] = j.submit.0;
        }
        let mean = gaps as f64 / 1400.0;
        assert!((100.0..140.0).contains(&mean), "mean gap {mean}");
    }

    #[test]
    fn same_seed_same_workload_and_streams_are_independent() {
        let s = Scenario::paper();
        assert_eq!(s.generate(7).unwrap(), s.generate(7).unwrap());
        assert_ne!(s.generate(7).unwrap(), s.generate(8).unwrap());
        // Changing the job count leaves the machines as they were.
        let fewer = Scenario {
            jobs_per_user: 3,
            ..Scenario::paper()
        };
        assert_eq!(
            fewer.generate(7).unwrap().machines,
            s.generate(7).unwrap().machines
        );
    }

    #[test]
    fn utilities_fall_in_every_quarter() {
        let mut rng = stream(3, "test");
        let mut quarters = [0; 4];
        for _ in 0..4000 {
            let u = draw_utility(&mut rng);
            assert!((0.0..=1.0).contains(&u));
            quarters[((u * 4.0) as usize).min(3)] += 1;
        }
        assert!(
            quarters.iter().all(|&n| (800..1200).contains(&n)),
            "{quarters:?}"
        );
    }

    #[test]
    fn bad_settings_are_named() {
        let check = |s: Scenario, msg: &str| assert_eq!(s.check().unwrap_err().to_string(), msg);
        check(
            Scenario {
                sites: 0,
                ..Scenario::paper()
            },
            "sites: is 0, expected at least 1",
        );
        for (s, name) in [
            (
                Scenario {
                    users: 0,
                    ..Scenario::paper()
                },
                "users",
            ),
            (
                Scenario {
                    jobs_per_user: 0,
                    ..Scenario::paper()
                },
                "jobs_per_user",
            ),
        ] {
            check(s, &format!("{name}: is 0, expected at least 1"));
        }
        check(
            Scenario {
                os: vec![],
                ..Scenario::paper()
            },
            "os: is empty, expected at least one option",
        );
        check(
            Scenario {
                length: (5, 1),
                ..Scenario::paper()
            },
            "length: is (5, 1) MI, expected 0 < low <= high <= 2^40",
        );
        // Option lists and the options all jobs keep are bounded (memory
        // and time grew with them unchecked).
        check(
            Scenario {
                os: (0..=MAX_OPTIONS).map(|i| format!("os{i}")).collect(),
                ..Scenario::paper()
            },
            "os: holds 1001 options, expected at most 1000",
        );
        let many = Scenario {
            speeds: (1..=1000).collect(),
            exec_times: (1..=1000).collect(),
            max_options: 1000,
            users: 1000,
            jobs_per_user: 100,
            ..Scenario::paper()
        };
        check(
            many.clone(),
            "max_options: is 1000: 100000 jobs could list 2006 options each, 200600000 in all, \
             more than 10000000; give fewer options or jobs",
        );
        many.check().unwrap_err();
        assert!(
            Scenario {
                jobs_per_user: 4,
                ..many
            }
            .check()
            .is_ok()
        );
        check(
            Scenario {
                weights: [1.0, 2.0, 1.0, 1.0],
                ..Scenario::paper()
            },
            "weights: holds 2, expected weights in [0, 1]",
        );
    }
}
