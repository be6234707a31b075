//! Each knob of the backfilling kind: it parses, its default is today's
//! behaviour, and it changes what a run measures.

use std::sync::Arc;

use profile::{Job, Overrun, Policy, QueueOrder, Status, Time};

use super::{Backfilling, Params, replay};
use crate::kind::{Input, Kind, Setup};
use crate::registry::{Policies, PolicyName, Registry};
use crate::workload::Workload;

fn params(toml: &str) -> Result<Params, String> {
    toml::from_str(toml).map_err(|e| e.message().trim().to_string())
}

fn workload(capacity: u32, jobs: Vec<Job>) -> Arc<Workload> {
    Arc::new(Workload {
        label: "hand".into(),
        capacity,
        jobs,
        start_unix: None,
    })
}

fn measure(p: &Params, w: &Arc<Workload>, policies: &Policies) -> super::Measures {
    let ws = [w.clone()];
    let mut samples = Backfilling::run(p, &Input::new(&ws, 1, policies), None).unwrap();
    assert_eq!(samples.len(), 1);
    samples.remove(0)
}

/// The schedule's start of job `id`.
fn start(p: &Params, w: &Arc<Workload>, policies: &Policies, id: u64) -> i64 {
    let ws = [w.clone()];
    let s = Backfilling::schedule(p, &Input::new(&ws, 1, policies))
        .unwrap()
        .unwrap();
    let i = s.jobs.iter().position(|j| j.id == id).unwrap();
    s.outcomes[i].start.0
}

#[test]
fn knobs_parse_by_name_and_default_to_todays_behaviour() {
    let d = params("").unwrap();
    assert!(matches!(d.order, QueueOrder::Arrival));
    assert_eq!(d.overrun, Overrun::Kill);
    assert_eq!((d.warmup, d.cooldown, d.narrow_procs), (0, 0, 8));
    let p = params(
        "order = \"shortest-estimate\"\noverrun = \"continue\"\nwarmup = 5\ncooldown = 7\n\
         narrow_procs = 1",
    )
    .unwrap();
    assert!(matches!(p.order, QueueOrder::ShortestEstimate));
    assert_eq!(p.overrun, Overrun::Continue);
    assert_eq!((p.warmup, p.cooldown, p.narrow_procs), (5, 7, 1));
    let written = toml::to_string(&p).unwrap();
    assert!(
        written.contains("order = \"shortest-estimate\""),
        "{written}"
    );
    assert!(written.contains("overrun = \"continue\""), "{written}");
    let e = params("order = \"sjf\"").unwrap_err();
    assert!(
        e.contains(
            "unknown queue order 'sjf', expected arrival, shortest-estimate or earliest-deadline"
        ),
        "{e}"
    );
    let e = params("overrun = \"stop\"").unwrap_err();
    assert!(
        e.contains("unknown variant `stop`, expected `kill` or `continue`"),
        "{e}"
    );
    let e = params("warmup = -1").unwrap_err();
    assert!(!e.is_empty());
    // Earliest deadline: no workload of this kind has deadlines.
    let policies = Policies::default();
    let setup = Setup {
        axis: "workload",
        workloads: 1,
        generated: false,
        load: false,
        policies: &policies,
    };
    let edf = params("order = \"earliest-deadline\"").unwrap();
    let e = Backfilling::check(&edf, &setup).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("order"));
    assert!(e.message.contains("have none"), "{e}");
    assert!(Backfilling::check(&d, &setup).is_ok());
}

/// A Lublin99-like hand workload on 16 processors with estimates twice the
/// run times, and one job that overruns its estimate.
fn mixed() -> Arc<Workload> {
    let mut jobs: Vec<Job> = (0..40u64)
        .map(|i| {
            let procs = [1, 4, 9, 16][(i % 4) as usize];
            let run = 50 + 37 * (i as i64 % 7);
            Job::new(i + 1, Time(10 * i as i64), procs, 2 * run, run)
        })
        .collect();
    jobs[3].run_time = 3 * jobs[3].estimate;
    workload(16, jobs)
}

#[test]
fn defaults_measure_what_replay_measures() {
    let w = mixed();
    for policy in [Policy::Fcfs, Policy::EASY, Policy::Conservative] {
        let p = Params {
            policy: PolicyName::BuiltIn(policy),
            ..Params::default()
        };
        let m = measure(&p, &w, &Policies::default());
        let (_, stats) = replay(&w, policy, 10).unwrap();
        assert_eq!(m.stats, stats, "{policy}");
        assert_eq!(m.measured, 40);
        assert_eq!(m.narrow.ran + m.wide.ran, 40);
    }
}

#[test]
fn overrun_continue_kills_no_job() {
    let w = mixed();
    let kill = params("policy = \"easy\"").unwrap();
    let cont = params("policy = \"easy\"\noverrun = \"continue\"").unwrap();
    let policies = Policies::default();
    assert_eq!(measure(&kill, &w, &policies).stats.killed, 1);
    let m = measure(&cont, &w, &policies);
    assert_eq!((m.stats.killed, m.stats.completed), (0, 40));
}

#[test]
fn shortest_estimate_first_reorders_the_queue() {
    // Job 1 holds the machine; jobs 2 (long) and 3 (short) wait for it.
    let w = workload(
        4,
        vec![
            Job::new(1, Time(0), 4, 100, 100),
            Job::new(2, Time(1), 4, 50, 50),
            Job::new(3, Time(2), 4, 10, 10),
        ],
    );
    let policies = Policies::default();
    let fcfs = params("policy = \"easy\"").unwrap();
    let sjf = params("policy = \"easy\"\norder = \"shortest-estimate\"").unwrap();
    assert_eq!(
        (
            start(&fcfs, &w, &policies, 2),
            start(&fcfs, &w, &policies, 3)
        ),
        (100, 150)
    );
    assert_eq!(
        (start(&sjf, &w, &policies, 2), start(&sjf, &w, &policies, 3)),
        (110, 100)
    );
}

#[test]
fn warmup_and_cooldown_leave_jobs_out_of_the_job_metrics_only() {
    let w = mixed();
    let policies = Policies::default();
    let all = measure(&params("policy = \"easy\"").unwrap(), &w, &policies);
    let p = params("policy = \"easy\"\nwarmup = 5\ncooldown = 10").unwrap();
    let part = measure(&p, &w, &policies);
    assert_eq!(part.measured, 25);
    assert_eq!(part.narrow.ran + part.wide.ran, 25);
    // The whole schedule is simulated and described alike.
    assert_eq!(
        (part.stats.jobs, part.stats.makespan),
        (all.stats.jobs, all.stats.makespan)
    );
    assert_eq!(part.stats.utilization, all.stats.utilization);
    // The overrunning job is the 4th: left out by the warm-up.
    assert_eq!((all.stats.killed, part.stats.killed), (1, 0));
    assert_ne!(part.stats.mean_wait, all.stats.mean_wait);
    // Nothing left to measure is an error naming both keys.
    let none = params("warmup = 30\ncooldown = 10").unwrap();
    let ws = [w.clone()];
    let e = Backfilling::run(&none, &Input::new(&ws, 1, &policies), None).unwrap_err();
    assert!(
        e.to_string()
            .contains("params.warmup (30) and params.cooldown (10) leave none of the 40 jobs"),
        "{e}"
    );
}

#[test]
fn narrow_procs_splits_the_classes() {
    let w = mixed();
    let policies = Policies::default();
    for (split, narrow) in [(0, 0), (1, 10), (8, 20), (9, 30), (16, 40)] {
        let p = params(&format!("policy = \"easy\"\nnarrow_procs = {split}")).unwrap();
        let m = measure(&p, &w, &policies);
        assert_eq!((m.narrow.ran, m.wide.ran), (narrow, 40 - narrow), "{split}");
        assert_eq!(m.narrow.mean_wait().is_some(), narrow > 0);
        assert_eq!(m.wide.mean_wait().is_some(), narrow < 40);
    }
}

#[test]
fn registered_policies_run_under_the_same_knobs() {
    let registry = Registry::new().with_policy("my-easy", || profile::builtin::Easy::new(1));
    let policies = registry.policies();
    let w = mixed();
    for knobs in [
        "",
        "overrun = \"continue\"",
        "order = \"shortest-estimate\"",
    ] {
        let built_in = params(&format!("policy = \"easy\"\n{knobs}")).unwrap();
        let mine = params(&format!("policy = \"my-easy\"\n{knobs}")).unwrap();
        let ws = [w.clone()];
        let input = Input::new(&ws, 1, policies);
        let a = Backfilling::schedule(&built_in, &input).unwrap().unwrap();
        let b = Backfilling::schedule(&mine, &input).unwrap().unwrap();
        assert_eq!(a.outcomes, b.outcomes, "{knobs}");
        assert_eq!(b.policy, "my-easy");
        let killed = b
            .outcomes
            .iter()
            .filter(|o| o.status == Status::Killed)
            .count();
        assert_eq!(
            killed,
            usize::from(!knobs.starts_with("overrun")),
            "{knobs}"
        );
    }
    // The SJF order changes the registered policy's schedule too.
    let ws = [w.clone()];
    let input = Input::new(&ws, 1, policies);
    let fifo = Backfilling::schedule(&params("policy = \"my-easy\"").unwrap(), &input);
    let sjf = Backfilling::schedule(
        &params("policy = \"my-easy\"\norder = \"shortest-estimate\"").unwrap(),
        &input,
    );
    assert_ne!(
        fifo.unwrap().unwrap().outcomes,
        sjf.unwrap().unwrap().outcomes
    );
}
