//! Extreme values through the public entry points (`Settings`,
//! `Scenario::generate`, `simulate`): times near `i64::MAX`, zero and huge
//! counts (sites, resources, users, jobs, cores, TTLs), huge lengths,
//! speeds and delays, NaN, infinite and huge floats, empty inputs. Every
//! call returns a value or a typed error, never panics; a run that is
//! returned passes `validate`, and its events (the observer's hooks and the
//! status messages) stay within a budget of its jobs and status periods.
//! Then one regression test per input that once panicked or could run for
//! ever.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use profile::{MAX_DURATION, Time};
use utility_match::{
    Attribute, Delays, FailReason, GridConfig, GridError, GridJob, GridObserver, MAX_JOBS,
    MAX_LENGTH, MAX_STATUS_PERIODS, MAX_TTL, MAX_VIEW_ENTRIES, Machine, PartialUtility,
    Requirement, Resource, ResourceId, ResourceStatus, Scenario, Settings, SystemMetrics,
    UtilityKind, Want, simulate, simulate_observed, validate,
};

const LIMIT: i64 = Time::LIMIT.0;

fn seconds() -> impl Strategy<Value = i64> {
    prop::sample::select(vec![
        i64::MIN,
        -1,
        0,
        1,
        LIMIT,
        LIMIT + 1,
        MAX_DURATION + 1,
        i64::MAX - 7,
        i64::MAX,
    ])
}

fn float() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e300,
        -1e300,
        0.0,
        1e-300,
        0.5,
        2.0,
    ])
}

fn count() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![0, 1, 2, 1000, MAX_JOBS + 1, usize::MAX])
}

/// `x`, or now and then an extreme value.
fn or<T: std::fmt::Debug + Clone + 'static>(
    x: T,
    other: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop::option::weighted(0.12, other)
        .prop_map(move |o| o.unwrap_or_else(|| x.clone()))
        .boxed()
}

/// A small version of the paper's settings, each field now and then
/// replaced by an extreme value.
pub(crate) fn settings() -> impl Strategy<Value = Settings> {
    (
        (
            or(2usize, count()),
            or(3usize, count()),
            or(6usize, count()),
            or(4usize, count()),
            or(120.0f64, float()),
            or(4usize, count()),
        ),
        (
            or(vec![1000i64, 2000], seconds().prop_map(|s| vec![s])),
            or(
                vec![1u32, 2],
                prop::sample::select(vec![vec![0], vec![u32::MAX]]),
            ),
            or(
                [200_000i64, 1_000_000],
                (seconds(), seconds()).prop_map(|(a, b)| [a, b]),
            ),
            or(2u32, prop::sample::select(vec![0, 1, u32::MAX])),
            or([1.0f64; 4], float().prop_map(|w| [w; 4])),
        ),
        (
            or(
                3u32,
                prop::sample::select(vec![0, MAX_TTL, MAX_TTL + 1, u32::MAX]),
            ),
            or(1i64, seconds()),
            or(60i64, seconds()),
            or(0.8f64, float()),
            or(4u32, prop::sample::select(vec![0, u32::MAX])),
            prop::sample::select(vec![
                UtilityKind::Partial,
                UtilityKind::Binary,
                UtilityKind::Matchmaking,
            ]),
        ),
    )
        .prop_map(
            |(
                (sites, resources_per_site, users, jobs_per_user, mean_interarrival, max_options),
                (speeds, cores, length, jobs_per_core, weights),
                (max_ttl, delay, status_period, l_max, n_max, scheduler),
            )| Settings {
                scheduler,
                sites,
                resources_per_site,
                users,
                jobs_per_user,
                mean_interarrival,
                max_options,
                speeds,
                cores,
                length,
                jobs_per_core,
                weights,
                max_ttl,
                delay,
                status_period,
                l_max,
                n_max,
                ..Settings::default()
            },
        )
}

/// Counts the scheduling decisions a run makes.
#[derive(Default)]
struct Count(usize);

impl GridObserver for Count {
    fn assigned(&mut self, _: Time, _: &GridJob, _: ResourceId, _: &ResourceStatus, _: &Machine) {
        self.0 += 1;
    }
    fn forwarded(&mut self, _: Time, _: &GridJob, _: usize, _: ResourceId, _: u32) {
        self.0 += 1;
    }
    fn failed(&mut self, _: Time, _: &GridJob, _: FailReason) {
        self.0 += 1;
    }
    fn completed(&mut self, _: Time, _: &GridJob, _: ResourceId) {
        self.0 += 1;
    }
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(128))]

    /// Any settings: an error naming the key, or a grid whose run passes
    /// `validate` within the event budget.
    #[test]
    fn settings_generate_and_simulate_on_any_input(
        settings in settings(),
        seed in any::<u64>(),
    ) {
        if let Err(e) = settings.check() {
            prop_assert!(matches!(e, GridError::Setting { .. }), "{e}");
            return Ok(());
        }
        let w = match settings.scenario().generate(seed) {
            Ok(w) => w,
            Err(GridError::Setting { name: "mean_interarrival", .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        let config = settings.grid();
        let mut count = Count::default();
        let kind = settings.scheduler;
        let run = simulate_observed(&config, &kind, &w.machines, &w.jobs, &mut count);
        match run {
            Ok(run) => {
                prop_assert_eq!(validate(&w.machines, &w.jobs, &run, config.max_ttl), Ok(()));
                let m = SystemMetrics::of(&run).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert!((0.0..=1.0).contains(&m.success_ratio));
                let jobs = w.jobs.len();
                // An assignment, a completion or failure, and a forward per
                // TTL for every job.
                prop_assert!(count.0 <= jobs * (config.max_ttl as usize + 2), "{} decisions", count.0);
                // Per site and status period a message to every other site,
                // and one after every local submission and completion.
                // The run ticks while a job is unfinished, and a job that
                // never runs ends when its last hop fails: after its
                // submission and at most `max_ttl + 1` delays, which may be
                // after the last completion.
                let sites_n = w.machines.len();
                let max_delay = (0..sites_n)
                    .flat_map(|a| (0..sites_n).map(move |b| (a, b)))
                    .map(|(a, b)| config.delays.between(a, b))
                    .max()
                    .unwrap_or(0);
                let last_submit = w.jobs.iter().map(|j| j.submit).max().unwrap_or(run.first_submit);
                let hops = i64::from(config.max_ttl) + 1;
                let end = run.last_end.max(last_submit + max_delay.saturating_mul(hops));
                let span = (end - run.first_submit).max(0) / settings.status_period;
                let sites = settings.sites as u64;
                let budget = (sites - 1) * (2 * jobs as u64 + sites * (span as u64 + 2));
                prop_assert!(run.status_messages <= budget, "{} messages", run.status_messages);
            }
            Err(GridError::Setting { name: "status_period", .. }) => {}
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }

    /// Hand-built grids with extreme machines, jobs, delays and TTLs.
    #[test]
    fn simulate_on_any_grid(
        machines in prop::collection::vec(
            prop::collection::vec((prop::sample::select(vec![1u32, 4, u32::MAX]), seconds()), 1..3),
            1..3,
        ),
        jobs in prop::collection::vec((0usize..3, seconds(), seconds()), 0..6),
        max_ttl in prop::sample::select(vec![0, 3, MAX_TTL, MAX_TTL + 1, u32::MAX]),
        delay in seconds(),
        matrix in any::<bool>(),
    ) {
        let os = |k: usize| if k.is_multiple_of(2) { "Linux" } else { "MacOS" };
        let machines: Result<Vec<Vec<Machine>>, GridError> = machines
            .into_iter()
            .map(|site| {
                site.into_iter()
                    .enumerate()
                    .map(|(k, (cores, mips))| {
                        Machine::new(cores, mips.max(1), Resource::new().with(Attribute::Os, os(k)))
                    })
                    .collect()
            })
            .collect();
        let machines = machines.map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut sorted = jobs.clone();
        sorted.sort_by_key(|j| j.1);
        let jobs: Vec<GridJob> = sorted
            .into_iter()
            .enumerate()
            .map(|(id, (site, submit, length))| GridJob {
                id,
                user: id % 2,
                site: site % machines.len(),
                submit: Time(submit),
                length,
                requirements: vec![Requirement::new(
                    Attribute::Os,
                    1.0,
                    vec![(Want::Is("Linux".into()), 1.0), (Want::Is("MacOS".into()), 0.5)],
                )
                .unwrap()],
            })
            .collect();
        let n = machines.len();
        let config = GridConfig {
            max_ttl,
            delays: if matrix { Delays::Matrix(vec![vec![delay; n]; n]) } else { Delays::Uniform(delay) },
            ..GridConfig::default()
        };
        match simulate(&config, &PartialUtility, &machines, &jobs) {
            Ok(run) => {
                prop_assert_eq!(validate(&machines, &jobs, &run, max_ttl), Ok(()));
                prop_assert!(jobs.iter().all(|j| (0..=LIMIT).contains(&j.submit.0)));
            }
            Err(GridError::Setting { .. } | GridError::Job { .. }) => {}
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }
}

fn setting_error(result: Result<impl Sized, GridError>) -> (&'static str, String) {
    match result {
        Err(GridError::Setting { name, message }) => (name, message),
        Err(e) => panic!("expected a setting error, got {e}"),
        Ok(_) => panic!("expected a setting error"),
    }
}

/// A mean inter-arrival time of 1e300 s once put submit times at
/// `i64::MAX`, where the first status period overflowed; it is an error
/// naming the key.
#[test]
fn a_huge_mean_interarrival_is_named() {
    let s = Scenario {
        mean_interarrival: 1e300,
        ..Scenario::paper()
    };
    let (name, _) = setting_error(s.generate(1));
    assert_eq!(name, "mean_interarrival");
    // The largest means that keep every submission in the domain still run.
    let s = Scenario {
        users: 2,
        jobs_per_user: 3,
        mean_interarrival: 1e9,
        ..Scenario::paper()
    };
    let w = s.generate(1).unwrap();
    assert!(w.jobs.iter().all(|j| j.submit > Time(1_000_000)));
    // Years apart: status messages every 2^20 s keep the run within
    // `MAX_STATUS_PERIODS`.
    let mut config = GridConfig::default();
    config.updates.period = 1 << 20;
    let run = simulate(&config, &PartialUtility, &w.machines, &w.jobs).unwrap();
    assert_eq!(validate(&w.machines, &w.jobs, &run, config.max_ttl), Ok(()));
}

/// Counts whose product overflows, or whose grid would not fit in memory,
/// are refused before anything is allocated.
#[test]
fn huge_counts_are_refused_before_allocating() {
    let s = Scenario {
        users: 2,
        jobs_per_user: usize::MAX,
        ..Scenario::paper()
    };
    assert_eq!(setting_error(s.generate(1)).0, "jobs_per_user");
    let s = Scenario {
        users: usize::MAX,
        jobs_per_user: 1,
        ..Scenario::paper()
    };
    assert_eq!(setting_error(s.generate(1)).0, "users");
    let s = Scenario {
        sites: 1 << 40,
        resources_per_site: 1 << 40,
        ..Scenario::paper()
    };
    assert_eq!(setting_error(s.generate(1)).0, "resources_per_site");
    // A hand-built grid of 400 sites of one machine: 160,000 view entries.
    let m = Machine::new(1, 1000, Resource::new()).unwrap();
    let wide = vec![vec![m]; 400];
    let (name, message) = setting_error(simulate(
        &GridConfig::default(),
        &PartialUtility,
        &wide,
        &[],
    ));
    assert_eq!(name, "sites");
    assert!(message.contains(&MAX_VIEW_ENTRIES.to_string()), "{message}");
}

/// A job of `i64::MAX` instructions once overflowed its run time; jobs
/// beyond 2^40 MI, submit times beyond 2^40 s and TTLs beyond 64 are
/// refused.
#[test]
fn jobs_and_ttls_out_of_range_are_refused() {
    let m = || vec![vec![Machine::new(2, 1000, Resource::new()).unwrap()]];
    let job = |submit: i64, length: i64| GridJob {
        id: 0,
        user: 0,
        site: 0,
        submit: Time(submit),
        length,
        requirements: Vec::new(),
    };
    let mut slow = GridConfig::default();
    slow.updates.period = 1 << 21;
    let run = |j: GridJob| simulate(&slow, &PartialUtility, &m(), &[j]);
    assert!(matches!(run(job(0, i64::MAX)), Err(GridError::Job { .. })));
    assert!(matches!(
        run(job(i64::MAX - 7, 1)),
        Err(GridError::Job { .. })
    ));
    // The largest accepted: submitted at 2^40 s, 2^40 MI long.
    let end = run(job(LIMIT, MAX_LENGTH)).unwrap().jobs[0].end.unwrap();
    assert_eq!(end, Time(LIMIT + MAX_LENGTH / 1000 + 1));
    let config = GridConfig {
        max_ttl: u32::MAX,
        ..GridConfig::default()
    };
    assert_eq!(
        setting_error(simulate(&config, &PartialUtility, &m(), &[job(0, 1)])).0,
        "max_ttl"
    );
    assert_eq!(
        Machine::new(1, 1, Resource::new())
            .unwrap()
            .run_time(i64::MAX),
        i64::MAX
    );
}

/// A job that runs 2^40 s with a status every second would take 2^40
/// periods; the run stops at `MAX_STATUS_PERIODS` with an error naming
/// `status_period`.
#[test]
fn runs_longer_than_the_status_periods_cap_stop() {
    let machines = vec![
        vec![Machine::new(1, 1, Resource::new()).unwrap()],
        vec![Machine::new(1, 1, Resource::new()).unwrap()],
    ];
    let job = GridJob {
        id: 0,
        user: 0,
        site: 0,
        submit: Time(0),
        length: MAX_LENGTH,
        requirements: Vec::new(),
    };
    let mut config = GridConfig::default();
    config.updates.period = 1;
    let (name, message) = setting_error(simulate(
        &config,
        &PartialUtility,
        &machines,
        std::slice::from_ref(&job),
    ));
    assert_eq!(name, "status_period");
    assert!(
        message.contains(&format!("past {MAX_STATUS_PERIODS} periods")),
        "{message}"
    );
    // With a period of 2^20 s the same run spans 2^20 periods... still too
    // many; 2^21 s is fine.
    config.updates.period = 1 << 21;
    let run = simulate(&config, &PartialUtility, &machines, &[job]).unwrap();
    assert_eq!(run.jobs[0].end, Some(Time(MAX_LENGTH)));
}

/// A machine of `u32::MAX` cores once failed `validate` (its core count
/// read as -1); it validates now.
#[test]
fn a_machine_of_u32_max_cores_validates() {
    let machines = vec![vec![Machine::new(u32::MAX, 1000, Resource::new()).unwrap()]];
    let jobs: Vec<GridJob> = (0..3)
        .map(|id| GridJob {
            id,
            user: 0,
            site: 0,
            submit: Time(0),
            length: 60_000,
            requirements: Vec::new(),
        })
        .collect();
    let config = GridConfig::default();
    let run = simulate(&config, &PartialUtility, &machines, &jobs).unwrap();
    assert_eq!(validate(&machines, &jobs, &run, config.max_ttl), Ok(()));
}

/// No jobs: a scenario without users is refused; a run without jobs is
/// empty, its user means undefined (NaN), never 0.
#[test]
fn no_jobs_is_an_empty_run() {
    let s = Scenario {
        users: 0,
        ..Scenario::paper()
    };
    assert_eq!(setting_error(s.generate(1)).0, "users");
    let w = Scenario::paper().generate(1).unwrap();
    let w = utility_match::GridWorkload {
        jobs: Vec::new(),
        ..w
    };
    let run = simulate(
        &GridConfig::default(),
        &PartialUtility,
        &w.machines,
        &w.jobs,
    )
    .unwrap();
    assert_eq!((run.jobs.len(), run.status_messages), (0, 0));
    assert!(SystemMetrics::of(&run).unwrap().success_ratio.is_nan());
}
