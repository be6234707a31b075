//! Hand-computed grids: forwarding and its delay, stale views re-checked on
//! arrival, the TTL, waiting for room, matchmaking's rejections, and the
//! Resource Manager's messages.

use profile::Time;
use utility_match::{
    Attribute, Delays, FailReason, GridConfig, GridJob, GridRun, JobStatus, LoadTrigger, Machine,
    PartialUtility, Requirement, Resource, ResourceId, SystemMetrics, UpdatePolicy,
    UtilityFunction, UtilityKind, Want, simulate, validate,
};

fn machine(os: &str, cores: u32, mips: i64, capacity: u32) -> Machine {
    Machine::new(cores, mips, Resource::new().with(Attribute::Os, os))
        .unwrap()
        .with_capacity(capacity)
}

/// MacOS preferred (1), Linux accepted (0.5); 2,000 MIPS preferred (1),
/// 1,000 accepted (0.5).
fn wants_fast_mac() -> Vec<Requirement> {
    vec![
        Requirement::new(
            Attribute::Os,
            1.0,
            vec![
                (Want::Is("MacOS".into()), 1.0),
                (Want::Is("Linux".into()), 0.5),
            ],
        )
        .unwrap(),
        Requirement::new(
            Attribute::Speed,
            1.0,
            vec![(Want::AtLeast(2000), 1.0), (Want::AtLeast(1000), 0.5)],
        )
        .unwrap(),
    ]
}

fn job(
    id: usize,
    site: usize,
    submit: i64,
    length: i64,
    requirements: Vec<Requirement>,
) -> GridJob {
    GridJob {
        id,
        user: id,
        site,
        submit: Time(submit),
        length,
        requirements,
    }
}

/// Periodic messages only, rarely.
fn quiet(max_ttl: u32, delay: i64) -> GridConfig {
    GridConfig {
        max_ttl,
        delays: Delays::Uniform(delay),
        updates: UpdatePolicy {
            period: 1000,
            l_max: 1.0,
            n_max: 100,
            load_trigger: LoadTrigger::Above,
        },
        ..GridConfig::default()
    }
}

fn run(config: &GridConfig, kind: UtilityKind, grid: &[Vec<Machine>], jobs: &[GridJob]) -> GridRun {
    let run = simulate(config, &kind, grid, jobs).unwrap();
    validate(grid, jobs, &run, config.max_ttl).unwrap();
    run
}

fn at(site: usize, index: usize) -> Option<ResourceId> {
    Some(ResourceId { site, index })
}

#[test]
fn a_forwarded_job_is_assigned_after_the_delay() {
    let grid = vec![
        vec![machine("Linux", 1, 1000, 1)],
        vec![machine("MacOS", 1, 2000, 1)],
    ];
    let jobs = vec![job(0, 0, 10, 100_000, wants_fast_mac())];
    let r = &run(&quiet(3, 5), UtilityKind::Partial, &grid, &jobs).jobs[0];
    assert_eq!((r.forwards, r.resource), (1, at(1, 0)));
    // Assigned 5 s after submission, runs ⌈100,000 / 2,000⌉ = 50 s.
    assert_eq!(
        (r.assigned, r.start, r.end),
        (Some(Time(15)), Some(Time(15)), Some(Time(65)))
    );
    assert_eq!(r.decided_utility, 1.0);
}

#[test]
fn a_stale_view_is_rechecked_on_arrival_and_the_target_site_reevaluates() {
    // Site 1: a fast and a slow MacOS machine, one job each. Site 0 sends two
    // jobs at once to the fast one (its view is idle); the second finds it
    // full and site 1 gives it its slow machine.
    let grid = vec![
        vec![machine("Linux", 1, 1000, 1)],
        vec![machine("MacOS", 1, 2000, 1), machine("MacOS", 1, 1000, 1)],
    ];
    let jobs = vec![
        job(0, 0, 0, 100_000, wants_fast_mac()),
        job(1, 0, 0, 100_000, wants_fast_mac()),
    ];
    let out = run(&quiet(3, 2), UtilityKind::Partial, &grid, &jobs);
    let (a, b) = (&out.jobs[0], &out.jobs[1]);
    assert_eq!(
        (a.resource, a.assigned, a.end),
        (at(1, 0), Some(Time(2)), Some(Time(52)))
    );
    assert_eq!(
        (b.resource, b.assigned, b.end),
        (at(1, 1), Some(Time(2)), Some(Time(102)))
    );
    assert_eq!((a.forwards, b.forwards), (1, 1));
    assert_eq!(b.decided_utility, 0.75);
}

#[test]
fn the_ttl_bounds_forwarding() {
    // Site 0 has nothing acceptable; site 1 one fast MacOS slot; site 2 a
    // slow MacOS machine. The second job bounces off site 1: with a TTL of 1
    // it fails there, with 2 it reaches site 2.
    let grid = vec![
        vec![machine("Windows", 1, 1000, 1)],
        vec![machine("MacOS", 1, 2000, 1)],
        vec![machine("MacOS", 1, 1000, 1)],
    ];
    let jobs = vec![
        job(0, 0, 0, 100_000, wants_fast_mac()),
        job(1, 0, 0, 100_000, wants_fast_mac()),
    ];
    let one = run(&quiet(1, 3), UtilityKind::Partial, &grid, &jobs);
    assert_eq!(one.jobs[0].status, JobStatus::Completed);
    assert_eq!(
        one.jobs[1].status,
        JobStatus::Failed(FailReason::TtlExpired)
    );
    assert_eq!((one.jobs[1].forwards, one.jobs[1].start), (1, None));
    let two = run(&quiet(2, 3), UtilityKind::Partial, &grid, &jobs);
    let b = &two.jobs[1];
    assert_eq!(
        (b.status, b.forwards, b.resource, b.assigned),
        (JobStatus::Completed, 2, at(2, 0), Some(Time(6)))
    );
    // With no TTL at all, nothing leaves site 0, and both jobs fail.
    let zero = run(&quiet(0, 3), UtilityKind::Partial, &grid, &jobs);
    assert!(
        zero.jobs
            .iter()
            .all(|r| r.status == JobStatus::Failed(FailReason::TtlExpired) && r.forwards == 0)
    );
}

#[test]
fn the_local_fallback_keeps_an_expired_job_at_a_worse_local_resource() {
    let grid = vec![
        vec![machine("Linux", 1, 1000, 1)],
        vec![machine("MacOS", 1, 2000, 1)],
    ];
    let jobs = vec![job(0, 0, 0, 100_000, wants_fast_mac())];
    let config = GridConfig {
        local_fallback: true,
        ..quiet(0, 1)
    };
    let r = &run(&config, UtilityKind::Partial, &grid, &jobs).jobs[0];
    assert_eq!(
        (r.status, r.resource, r.forwards),
        (JobStatus::Completed, at(0, 0), 0)
    );
}

#[test]
fn a_job_waits_for_room_and_is_assigned_when_a_core_frees() {
    let grid = vec![vec![machine("MacOS", 1, 2000, 1)]];
    let jobs = vec![
        job(0, 0, 0, 100_000, wants_fast_mac()),
        job(1, 0, 5, 40_000, wants_fast_mac()),
    ];
    let out = run(&quiet(3, 1), UtilityKind::Partial, &grid, &jobs);
    let b = &out.jobs[1];
    assert_eq!(
        (b.assigned, b.start, b.end),
        (Some(Time(50)), Some(Time(50)), Some(Time(70)))
    );
    let m = SystemMetrics::of(&out).unwrap();
    // Submission times 0 and 45; execution times 50 and 20.
    assert_eq!(
        (m.submission_time, m.execution_time),
        (Some(22.5), Some(35.0))
    );
}

#[test]
fn a_resource_queue_holds_jobs_up_to_its_capacity() {
    let grid = vec![vec![machine("MacOS", 1, 2000, 2)]];
    let jobs = vec![
        job(0, 0, 0, 100_000, wants_fast_mac()),
        job(1, 0, 5, 40_000, wants_fast_mac()),
    ];
    let b = &run(&quiet(3, 1), UtilityKind::Partial, &grid, &jobs).jobs[1];
    // Assigned on submission, queued behind the first job.
    assert_eq!(
        (b.assigned, b.start, b.end),
        (Some(Time(5)), Some(Time(50)), Some(Time(70)))
    );
}

#[test]
fn matchmaking_rejects_what_partial_utility_places() {
    let grid = vec![vec![machine("Linux", 2, 2000, 2)]];
    let jobs = vec![job(0, 0, 0, 10_000, wants_fast_mac())];
    let mm = run(&quiet(3, 1), UtilityKind::Matchmaking, &grid, &jobs);
    assert_eq!(
        mm.jobs[0].status,
        JobStatus::Failed(FailReason::NoAcceptableResource)
    );
    let bu = run(&quiet(3, 1), UtilityKind::Binary, &grid, &jobs);
    assert_eq!(
        (bu.jobs[0].status, bu.jobs[0].decided_utility),
        (JobStatus::Completed, 0.5)
    );
    let pu = run(&quiet(3, 1), UtilityKind::Partial, &grid, &jobs);
    assert_eq!(pu.jobs[0].decided_utility, 0.75);
    let m = [&mm, &bu, &pu].map(|r| SystemMetrics::of(r).unwrap().success_ratio);
    assert_eq!(m, [0.0, 1.0, 1.0]);
}

#[test]
fn achieved_utility_uses_the_actual_turnaround() {
    // Wants completion within 60 s (1) or 200 s (0.5); the job waits 50 s
    // behind another, then runs 50 s: 100 s from submission.
    let deadline = Requirement::new(
        Attribute::ExecTime,
        1.0,
        vec![(Want::AtMost(60), 1.0), (Want::AtMost(200), 0.5)],
    )
    .unwrap();
    let grid = vec![vec![machine("MacOS", 1, 2000, 2)]];
    let jobs = vec![
        job(0, 0, 0, 100_000, vec![deadline.clone()]),
        job(1, 0, 0, 100_000, vec![deadline.clone()]),
    ];
    let out = run(&quiet(3, 1), UtilityKind::Partial, &grid, &jobs);
    assert_eq!(out.jobs[0].achieved_utility, 1.0);
    assert_eq!(out.jobs[1].achieved_utility, 0.5);
    // The scheduler estimated the same: the first job's 50 s backlog.
    assert_eq!(out.jobs[1].decided_utility, 0.5);
    let attrs = grid[0][0]
        .attributes()
        .clone()
        .with(Attribute::ExecTime, 100);
    assert_eq!(PartialUtility.utility(&[deadline], &attrs), 0.5);
}

#[test]
fn status_messages_follow_the_update_policy() {
    let grid = vec![
        vec![machine("MacOS", 2, 1000, 2)],
        vec![machine("Linux", 2, 1000, 2)],
    ];
    let mac = || {
        vec![Requirement::new(Attribute::Os, 1.0, vec![(Want::Is("MacOS".into()), 1.0)]).unwrap()]
    };
    let jobs = vec![job(0, 0, 0, 100_000, mac())];
    // Periodic only: both sites send at 30, 60 and 90; the job ends at 100.
    let mut config = quiet(3, 1);
    config.updates.period = 30;
    assert_eq!(
        run(&config, UtilityKind::Partial, &grid, &jobs).status_messages,
        6
    );
    // nMax = 0: every submission to a resource also sends one.
    config.updates.n_max = 0;
    assert_eq!(
        run(&config, UtilityKind::Partial, &grid, &jobs).status_messages,
        7
    );
    // lMax = 0.4 as printed: utilisation 0.5 after the submission sends one,
    // 0 after the completion does not.
    config.updates.n_max = 100;
    config.updates.l_max = 0.4;
    assert_eq!(
        run(&config, UtilityKind::Partial, &grid, &jobs).status_messages,
        7
    );
}

#[test]
fn a_message_changes_where_the_next_job_goes() {
    // Site 0 has a slow MacOS; site 1 a fast one, one slot. With a tiny
    // period, site 0 learns that site 1's machine is busy before its second
    // job and keeps it; with a long period it forwards it into a full
    // machine, and site 1 sends it back (TTL 3).
    let grid = vec![
        vec![machine("MacOS", 1, 1000, 1)],
        vec![machine("MacOS", 1, 2000, 1)],
    ];
    let jobs = vec![
        job(0, 0, 0, 100_000, wants_fast_mac()),
        job(1, 0, 10, 100_000, wants_fast_mac()),
    ];
    let mut config = quiet(3, 1);
    config.updates.period = 2;
    let fresh = run(&config, UtilityKind::Partial, &grid, &jobs);
    assert_eq!(
        (fresh.jobs[1].resource, fresh.jobs[1].forwards),
        (at(0, 0), 0)
    );
    let stale = run(&quiet(3, 1), UtilityKind::Partial, &grid, &jobs);
    assert_eq!(
        (stale.jobs[1].resource, stale.jobs[1].forwards),
        (at(0, 0), 2)
    );
    assert_eq!(stale.jobs[1].assigned, Some(Time(12)));
}

#[test]
fn bad_inputs_are_errors() {
    let grid = vec![vec![machine("MacOS", 1, 1000, 1)]];
    let config = GridConfig::default();
    let err = |jobs: &[GridJob], grid: &[Vec<Machine>], c: &GridConfig| {
        simulate(c, &PartialUtility, grid, jobs)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(&[job(1, 0, 0, 1, vec![])], &grid, &config),
        "job 1: is at position 0 of the job list; ids must be positions"
    );
    assert_eq!(
        err(&[job(0, 3, 0, 1, vec![])], &grid, &config),
        "job 0: is submitted at site 3 but the grid has 1 sites"
    );
    assert_eq!(
        err(&[job(0, 0, 0, 0, vec![])], &grid, &config),
        "job 0: has length 0 MI, expected 1 to 2^40 MI"
    );
    assert_eq!(
        err(&[], &[], &config),
        "sites: the grid has no site, expected at least 1"
    );
    let c = GridConfig {
        delays: Delays::Matrix(vec![vec![0, 1]]),
        ..GridConfig::default()
    };
    assert_eq!(
        err(&[], &grid, &c),
        "delay: the matrix must be 1 × 1, one row and column per site"
    );
    let c = GridConfig {
        delays: Delays::Uniform(-1),
        ..GridConfig::default()
    };
    assert_eq!(err(&[], &grid, &c), "delay: is -1 s, expected 0 to 2^40 s");
}
