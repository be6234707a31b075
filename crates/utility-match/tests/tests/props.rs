//! Property tests: utilities are bounded and ordered; the Job Scheduler
//! picks the best resource with room in its view; every simulated run keeps
//! the grid's rules and is reproducible.

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::Rng;

use profile::Time;
use utility_match::{
    Attribute, BinaryUtility, Decision, Delays, ExecEstimate, FailReason, GridConfig, GridJob,
    GridObserver, JobScheduler, JobStatus, LoadTrigger, Machine, Matchmaking, PartialUtility,
    RemoteView, Requirement, Resource, ResourceId, ResourceStatus, Scenario, SystemMetrics,
    TieBreak, UpdatePolicy, UtilityFunction, UtilityKind, Value, Want, draw_utility, simulate,
    simulate_observed, stream, user_metrics, validate,
};

const OSES: [&str; 3] = ["Linux", "MacOS", "Windows"];

// ---------------------------------------------------------------- utilities

fn want(attribute: &Attribute, k: u32) -> Want {
    match attribute {
        Attribute::Os => Want::Is(Value::from(OSES[k as usize % 3])),
        Attribute::Arch => Want::Is(Value::Int([32, 64][k as usize % 2])),
        Attribute::ExecTime => Want::AtMost(100 * i64::from(1 + k % 4)),
        _ => Want::AtLeast(1000 * i64::from(1 + k % 4)),
    }
}

const ATTRS: [Attribute; 4] = [
    Attribute::Os,
    Attribute::Arch,
    Attribute::ExecTime,
    Attribute::Speed,
];

fn requirement() -> impl Strategy<Value = Requirement> {
    (
        0..4usize,
        prop::collection::vec((0..12u32, 0.0..=1.0f64), 1..5),
        0.0..=1.0f64,
    )
        .prop_map(|(a, opts, weight)| {
            let attribute = ATTRS[a].clone();
            let options = opts
                .into_iter()
                .map(|(k, u)| (want(&attribute, k), u))
                .collect();
            Requirement::new(attribute, weight, options).unwrap()
        })
}

fn resource() -> impl Strategy<Value = Resource> {
    (0..4usize, 0..3usize, 0..4i64, 0..8i64, 0..5i64).prop_map(
        |(os, arch, speed, exec, missing)| {
            let mut r = Resource::new()
                .with(Attribute::Arch, [32i64, 64, 16][arch])
                .with(Attribute::Speed, 1000 * (1 + speed))
                .with(Attribute::ExecTime, 50 * (1 + exec));
            if os < 3 {
                r.set(Attribute::Os, OSES[os]);
            }
            // Sometimes an attribute is missing altogether: it meets nothing.
            if missing == 0 {
                r = Resource::new().with(Attribute::Os, "Linux");
            }
            r
        },
    )
}

/// Every utility lies in [0, 1] and partial ≥ binary ≥ matchmaking.
fn check_bounded_and_ordered(reqs: &[Requirement], res: &Resource) -> Result<(), TestCaseError> {
    let pu = PartialUtility.utility(reqs, res);
    let bu = BinaryUtility.utility(reqs, res);
    let mm = Matchmaking.utility(reqs, res);
    for u in [pu, bu, mm] {
        prop_assert!((0.0..=1.0).contains(&u), "utility {u} out of [0, 1]");
    }
    prop_assert!(pu >= bu && bu >= mm, "pu {pu} bu {bu} mm {mm}");
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(2000))]

    #[test]
    fn utilities_are_bounded_and_ordered(reqs in prop::collection::vec(requirement(), 0..6), res in resource()) {
        check_bounded_and_ordered(&reqs, &res)?;
    }

    #[test]
    fn drawn_utilities_lie_in_the_unit_interval(seed in any::<u64>()) {
        let mut rng = stream(seed, "utility");
        for _ in 0..16 {
            let u = draw_utility(&mut rng);
            prop_assert!((0.0..=1.0).contains(&u));
        }
    }
}

// ---------------------------------------------------------------- small grids

/// A small random grid and jobs, built from a seed.
#[derive(Clone, Debug)]
struct Case {
    sites: usize,
    per_site: usize,
    jobs: usize,
    seed: u64,
    bounded: bool,
    config: GridConfig,
    kind: UtilityKind,
}

fn config() -> impl Strategy<Value = GridConfig> {
    (
        0..4u32,
        0..6i64,
        1..60i64,
        0..4u32,
        0..3usize,
        any::<bool>(),
        any::<bool>(),
        0..3usize,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                max_ttl,
                delay,
                period,
                n_max,
                l,
                drift,
                summary,
                tie,
                local_fallback,
                static_exec,
            )| GridConfig {
                max_ttl,
                delays: Delays::Uniform(delay),
                updates: UpdatePolicy {
                    period,
                    l_max: [0.0, 0.5, 1.0][l],
                    n_max,
                    load_trigger: if drift {
                        LoadTrigger::Drift
                    } else {
                        LoadTrigger::Above
                    },
                },
                remote_view: if summary {
                    RemoteView::Summary
                } else {
                    RemoteView::Full
                },
                tie_break: [
                    TieBreak::TableOrder,
                    TieBreak::LocalFirst,
                    TieBreak::LocalLeastLoaded,
                ][tie],
                local_fallback,
                exec_estimate: if static_exec {
                    ExecEstimate::RunTime
                } else {
                    ExecEstimate::Turnaround
                },
            },
        )
}

fn case() -> impl Strategy<Value = Case> {
    (
        1..4usize,
        1..4usize,
        0..25usize,
        any::<u64>(),
        any::<bool>(),
        config(),
        0..3usize,
    )
        .prop_map(|(sites, per_site, jobs, seed, bounded, config, k)| Case {
            sites,
            per_site,
            jobs,
            seed,
            bounded,
            config,
            kind: UtilityKind::ALL[k],
        })
}

impl Case {
    fn build(&self) -> (Vec<Vec<Machine>>, Vec<GridJob>) {
        let mut rng = stream(self.seed, "case");
        let machines = (0..self.sites)
            .map(|_| {
                (0..self.per_site)
                    .map(|_| {
                        let cores = rng.random_range(1..=2u32);
                        let attrs = Resource::new()
                            .with(Attribute::Os, OSES[rng.random_range(0..3)])
                            .with(Attribute::Arch, [32i64, 64][rng.random_range(0..2)]);
                        let m =
                            Machine::new(cores, 1000 * rng.random_range(1..=4i64), attrs).unwrap();
                        if self.bounded {
                            m.with_capacity(cores * rng.random_range(1..=2u32))
                        } else {
                            m
                        }
                    })
                    .collect()
            })
            .collect();
        let mut jobs: Vec<GridJob> = (0..self.jobs)
            .map(|i| {
                let mut requirements = Vec::new();
                for a in &ATTRS {
                    if rng.random_bool(0.7) {
                        let options = (0..rng.random_range(1..=3))
                            .map(|_| (want(a, rng.random_range(0..12)), draw_utility(&mut rng)))
                            .collect();
                        requirements.push(Requirement::new(a.clone(), 1.0, options).unwrap());
                    }
                }
                GridJob {
                    id: i,
                    user: rng.random_range(0..4),
                    site: rng.random_range(0..self.sites),
                    submit: Time(rng.random_range(0..200)),
                    length: rng.random_range(1_000..400_000),
                    requirements,
                }
            })
            .collect();
        jobs.sort_by_key(|j| j.submit);
        for (i, j) in jobs.iter_mut().enumerate() {
            j.id = i;
        }
        (machines, jobs)
    }
}

/// Records what a run did, for the checks below.
#[derive(Default)]
struct Recorder {
    /// Assignments to a resource whose view had no room: (job, resource, present, capacity).
    no_room: Vec<(usize, ResourceId, u32, u32)>,
    /// Forwards made with no TTL left.
    forwards_without_ttl: Vec<usize>,
    /// Terminal events per job.
    ends: HashMap<usize, u32>,
    forwards: HashMap<usize, u32>,
}

impl GridObserver for Recorder {
    fn assigned(
        &mut self,
        _now: Time,
        job: &GridJob,
        resource: ResourceId,
        view: &ResourceStatus,
        machine: &Machine,
    ) {
        if let Some(c) = machine.capacity().filter(|&c| view.present >= c) {
            self.no_room.push((job.id, resource, view.present, c));
        }
    }
    fn forwarded(&mut self, _now: Time, job: &GridJob, _from: usize, _to: ResourceId, ttl: u32) {
        if ttl == 0 {
            self.forwards_without_ttl.push(job.id);
        }
        *self.forwards.entry(job.id).or_default() += 1;
    }
    fn failed(&mut self, _now: Time, job: &GridJob, _reason: FailReason) {
        *self.ends.entry(job.id).or_default() += 1;
    }
    fn completed(&mut self, _now: Time, job: &GridJob, _resource: ResourceId) {
        *self.ends.entry(job.id).or_default() += 1;
    }
}

/// No job is assigned to a resource lacking capacity in the assigning site's view.
fn check_room_in_view(rec: &Recorder) -> Result<(), TestCaseError> {
    prop_assert!(
        rec.no_room.is_empty(),
        "assigned without room (job, resource, present, capacity): {:?}",
        rec.no_room
    );
    Ok(())
}

/// A job is forwarded at most TTL times, and never with no TTL left.
fn check_ttl(
    rec: &Recorder,
    run: &utility_match::GridRun,
    max_ttl: u32,
) -> Result<(), TestCaseError> {
    prop_assert!(
        rec.forwards_without_ttl.is_empty(),
        "forwarded with TTL 0: {:?}",
        rec.forwards_without_ttl
    );
    for r in &run.jobs {
        prop_assert!(
            r.forwards <= max_ttl,
            "job {} forwarded {} times, TTL {max_ttl}",
            r.id,
            r.forwards
        );
        prop_assert_eq!(r.forwards, rec.forwards.get(&r.id).copied().unwrap_or(0));
    }
    Ok(())
}

/// Every submitted job ends exactly once, completed or failed, as its record says.
fn check_ends_once(
    rec: &Recorder,
    run: &utility_match::GridRun,
    jobs: &[GridJob],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(run.jobs.len(), jobs.len());
    for r in &run.jobs {
        prop_assert_eq!(
            rec.ends.get(&r.id).copied(),
            Some(1),
            "job {} ended {:?} times",
            r.id,
            rec.ends.get(&r.id)
        );
        match r.status {
            JobStatus::Completed => prop_assert!(r.end.is_some()),
            JobStatus::Failed(_) => prop_assert!(r.start.is_none() && r.assigned.is_none()),
        }
    }
    Ok(())
}

/// The metrics stay in their ranges.
fn check_metrics(run: &utility_match::GridRun) -> Result<(), TestCaseError> {
    let m = SystemMetrics::of(run).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for (name, v) in [
        ("success", m.success_ratio),
        ("utility", m.utility),
        ("served", m.served_utility.unwrap_or(0.0)),
        ("decided", m.decided_utility),
    ] {
        // Without jobs the means over users are undefined: NaN, never 0.
        prop_assert!(
            (0.0..=1.0).contains(&v) || (m.users == 0 && v.is_nan()),
            "{name} = {v}"
        );
    }
    prop_assert!(
        m.load_balance <= 1.0
            && m.submission_time.is_none_or(|t| t >= 0.0)
            && m.execution_time.is_none_or(|t| t >= 0.0)
    );
    for u in user_metrics(run) {
        prop_assert!(
            u.utility_eq3 <= 1.0
                && u.utility_eq3 >= 1.0 - (u.jobs as f64).sqrt() / u.jobs as f64 - 1e-12
        );
    }
    Ok(())
}

fn check_run(c: &Case) -> Result<(), TestCaseError> {
    let (machines, jobs) = c.build();
    let mut rec = Recorder::default();
    let run = simulate_observed(&c.config, &c.kind, &machines, &jobs, &mut rec)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    if let Err(v) = validate(&machines, &jobs, &run, c.config.max_ttl) {
        return Err(TestCaseError::fail(format!("invalid run: {v}")));
    }
    check_room_in_view(&rec)?;
    check_ttl(&rec, &run, c.config.max_ttl)?;
    check_ends_once(&rec, &run, &jobs)?;
    check_metrics(&run)?;
    // Same input, same run.
    let again = simulate(&c.config, &c.kind, &machines, &jobs)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&run, &again);
    Ok(())
}

/// One decision of the Job Scheduler on a random table is Algorithm 2's:
/// the chosen resource has room in the view and the highest utility among
/// those that do; it waits only if every resource of positive utility is
/// full; it fails for want of a resource only if none has a positive
/// utility, and for the TTL only when the best is remote and no TTL is left.
fn check_decision(c: &Case, statuses: &[(u32, u32)], ttl: u32) -> Result<(), TestCaseError> {
    let (machines, jobs) = c.build();
    let Some(job) = jobs.first() else {
        return Ok(());
    };
    let site = job.site;
    let mut js = JobScheduler::new(site, &machines, c.config.tie_break)
        .with_local_fallback(c.config.local_fallback)
        .with_exec_estimate(c.config.exec_estimate);
    let mut k = 0;
    for (s, v) in machines.iter().enumerate() {
        let mut msg_statuses = Vec::new();
        for (i, m) in v.iter().enumerate() {
            let (present, extra) = statuses[k % statuses.len()];
            k += 1;
            let present = present % (m.capacity().unwrap_or(4) + 1);
            let st = ResourceStatus {
                present,
                running: present.min(m.cores()),
                backlog: i64::from(present) * 100 + i64::from(extra),
            };
            if s == site {
                js.table_mut().update_local(i, st, Time(0));
            }
            msg_statuses.push(st);
        }
        if s != site {
            let summary = utility_match::SiteSummary::of(s, v, &msg_statuses);
            js.table_mut().apply(
                &utility_match::StatusMessage {
                    from: s,
                    sent: Time(0),
                    statuses: msg_statuses,
                    summary,
                },
                c.config.remote_view,
            );
        }
    }
    let now = job.submit;
    let known: Vec<(ResourceId, ResourceStatus)> = js.table().known().collect();
    let scored: Vec<(ResourceId, f64, bool)> = known
        .iter()
        .map(|&(id, st)| {
            (
                id,
                js.utility_of(&c.kind, &machines, job, id, &st, now)
                    .unwrap(),
                machines[id.site][id.index].has_room(&st),
            )
        })
        .collect();
    let best = scored
        .iter()
        .filter(|s| s.2 && s.1 > 0.0)
        .map(|s| s.1)
        .fold(f64::NEG_INFINITY, f64::max);
    let acceptable = scored.iter().any(|s| s.1 > 0.0);
    match js.decide(&c.kind, &machines, job, ttl, None, now).unwrap() {
        Decision::Assign { resource, utility } | Decision::Forward { resource, utility } => {
            let s = scored.iter().find(|s| s.0 == resource).copied();
            prop_assert!(
                s.is_some_and(|s| s.2),
                "chosen {resource:?} has no room in the view"
            );
            if utility < best {
                // Only the local fallback takes less than the best: the best
                // is remote, no TTL is left, and this is the best local one.
                let best_local = scored
                    .iter()
                    .filter(|s| s.2 && s.1 > 0.0 && s.0.site == site)
                    .map(|s| s.1)
                    .fold(f64::NEG_INFINITY, f64::max);
                prop_assert!(c.config.local_fallback && ttl == 0 && resource.site == site);
                prop_assert_eq!(utility, best_local);
            } else {
                prop_assert_eq!(utility, best);
            }
        }
        Decision::Wait => prop_assert!(acceptable && best == f64::NEG_INFINITY),
        Decision::Fail(FailReason::NoAcceptableResource) => prop_assert!(!acceptable),
        Decision::Fail(FailReason::TtlExpired) => {
            prop_assert_eq!(ttl, 0);
            prop_assert!(
                !c.config.local_fallback
                    || !scored.iter().any(|s| s.2 && s.1 > 0.0 && s.0.site == site)
            );
            prop_assert!(
                scored
                    .iter()
                    .any(|s| s.2 && s.1 == best && s.0.site != site)
            );
        }
        Decision::Fail(other) => prop_assert!(false, "unexpected failure {other:?}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(400))]

    #[test]
    fn simulated_runs_keep_the_grid_rules(c in case()) {
        check_run(&c)?;
    }

    #[test]
    fn decisions_pick_the_best_resource_with_room(c in case(), statuses in prop::collection::vec((0..5u32, 0..300u32), 1..12), ttl in 0..3u32) {
        check_decision(&c, &statuses, ttl)?;
    }
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(12))]

    /// The paper's scenario, shrunk in users, keeps the rules under every scheduler.
    #[test]
    fn paper_scenarios_keep_the_grid_rules(seed in any::<u64>(), k in 0..3usize, users in 1..30usize) {
        let w = Scenario { users, ..Scenario::paper() }.generate(seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let config = GridConfig::default();
        let kind = UtilityKind::ALL[k];
        let mut rec = Recorder::default();
        let run = simulate_observed(&config, &kind, &w.machines, &w.jobs, &mut rec).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Err(v) = validate(&w.machines, &w.jobs, &run, config.max_ttl) {
            return Err(TestCaseError::fail(format!("invalid run: {v}")));
        }
        check_room_in_view(&rec)?;
        check_ttl(&rec, &run, config.max_ttl)?;
        check_ends_once(&rec, &run, &w.jobs)?;
        check_metrics(&run)?;
    }
}
