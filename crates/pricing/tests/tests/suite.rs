//! The public invariant suite (`pricing::testing`): every built-in price,
//! admission rule and baseline passes it, and a broken implementation of
//! each kind is reported under the invariant it breaks.

use std::sync::atomic::{AtomicU64, Ordering};

use pricing::testing::{Broken, Suite, invariant};
use pricing::{
    Admission, Allocation, Baseline, BaselineScheduler, Decision, DropRule, Flat, JobContext,
    LibraAdmission, LibraDollar, LibraStatic, NodeLoad, PolicyError, PriceFunction, PricingError,
    ProfileBaseline, QosJob, Quote, admit,
};
use profile::{Job, Outcome, Policy, QueueOrder, SchedulerConfig, Status, Time};

const CASES: u32 = 24;

fn suite() -> Suite {
    Suite::new(CASES)
}

#[test]
fn the_built_in_prices_pass() {
    suite().check_price(|| Flat).unwrap();
    suite()
        .check_price(|| LibraStatic {
            gamma: 1.0,
            delta: 1.0,
        })
        .unwrap();
    for beta in [0.0, 0.1, 1.0] {
        suite()
            .check_price(|| LibraDollar { alpha: 1.0, beta })
            .unwrap();
    }
}

#[test]
fn the_built_in_admission_passes() {
    suite().check_admission(|| LibraAdmission).unwrap();
    suite().nodes(1).check_admission(|| LibraAdmission).unwrap();
}

#[test]
fn the_built_in_baselines_pass() {
    for b in Baseline::ALL {
        suite().check_baseline(|| b).unwrap();
    }
    let conservative = SchedulerConfig::new(4, Policy::Conservative)
        .order(QueueOrder::EarliestDeadline)
        .drop_expired(true);
    suite().check_baseline(|| conservative.clone()).unwrap();
    suite()
        .check_baseline(|| {
            ProfileBaseline::new(
                "easy",
                SchedulerConfig::new(4, Policy::EASY).drop_expired(true),
                || profile::builtin::Easy::new(1),
            )
        })
        .unwrap();
}

fn invariant_of(r: Result<(), Broken>) -> &'static str {
    r.expect_err("the suite must report the broken implementation")
        .invariant
}

/// Algorithm 1, but every job after the first ever seen (in any instance)
/// is rejected: state that outlives an instance.
struct RemembersAcrossInstances;

static ADMITTED: AtomicU64 = AtomicU64::new(0);

impl Admission for RemembersAcrossInstances {
    fn admit(
        &mut self,
        job: &JobContext<'_>,
        nodes: &[NodeLoad],
        price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError> {
        if ADMITTED.fetch_add(1, Ordering::Relaxed) > 0 {
            return Ok(Decision::Reject(pricing::Rejection::Custom("seen".into())));
        }
        admit(job, nodes, price)
    }
}

/// Accepts every job on its first `PROC_i` nodes at a cost above its budget.
struct AboveBudget;

impl Admission for AboveBudget {
    fn admit(
        &mut self,
        job: &JobContext<'_>,
        nodes: &[NodeLoad],
        _price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError> {
        if job.processors() as usize > nodes.len() {
            return Ok(Decision::Reject(pricing::Rejection::Custom("wide".into())));
        }
        Ok(Decision::Accept(Allocation {
            nodes: (0..job.processors() as usize).collect(),
            cost: job.qos_constraints.budget + 1.0,
        }))
    }
}

/// Refuses valid input with an error.
struct Fails;

impl Admission for Fails {
    fn admit(
        &mut self,
        job: &JobContext<'_>,
        _nodes: &[NodeLoad],
        _price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError> {
        Err(PricingError::InvalidAllocation {
            job: job.id,
            reason: "no".into(),
        })
    }
}

#[test]
fn a_broken_admission_rule_is_named() {
    ADMITTED.store(0, Ordering::Relaxed);
    assert_eq!(
        invariant_of(suite().check_admission(|| RemembersAcrossInstances)),
        invariant::DETERMINISTIC
    );
    let b = suite().check_admission(|| AboveBudget).unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT);
    assert!(b.detail.contains("above its budget"), "{b}");
    assert_eq!(
        invariant_of(suite().check_admission(|| Fails)),
        invariant::RUNS_TO_THE_END
    );
}

/// A flat price that rises with every quote any instance has given.
struct Inflating;

static QUOTED: AtomicU64 = AtomicU64::new(0);

impl PriceFunction for Inflating {
    fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        let n = QUOTED.fetch_add(1, Ordering::Relaxed);
        Ok(Flat.cost(job, quote)? + n as f64)
    }
}

/// A price that pays the user: a negative cost.
struct Negative;

impl PriceFunction for Negative {
    fn cost(&self, _job: &JobContext<'_>, _quote: &Quote) -> Result<f64, PricingError> {
        Ok(-1.0)
    }
}

#[test]
fn a_broken_price_is_named() {
    assert_eq!(
        invariant_of(suite().check_price(|| Inflating)),
        invariant::DETERMINISTIC
    );
    assert_eq!(
        invariant_of(suite().check_price(|| Negative)),
        invariant::KEEPS_THE_CONTRACT
    );
}

/// A baseline that gives each job the outcome `1` makes of it alone.
#[derive(Clone, Copy)]
struct PerJob(&'static str, fn(&Job) -> Outcome);

impl BaselineScheduler for PerJob {
    fn name(&self) -> String {
        self.0.into()
    }
    fn schedule(&self, _: u32, _: DropRule, jobs: &[Job]) -> Result<Vec<Outcome>, PolicyError> {
        Ok(jobs.iter().map(self.1).collect())
    }
}

/// Runs each job at its submission, whatever the machine: over capacity as
/// soon as two wide jobs overlap.
const OVERCOMMITS: PerJob = PerJob("overcommits", |j| Outcome {
    id: j.id,
    start: j.submit,
    end: j.submit + j.run_time,
    status: Status::Completed,
});

/// Drops every job on arrival: no capacity is used, so `profile::validate`
/// alone accepts it, but a job may be dropped only once it can no longer
/// end by its deadline.
const DROPS_EVERYTHING: PerJob = PerJob("drops-everything", |j| Outcome {
    id: j.id,
    start: j.submit,
    end: j.submit,
    status: Status::Dropped,
});

/// FCFS-BF with the outcomes reversed.
struct Reversed;

impl BaselineScheduler for Reversed {
    fn name(&self) -> String {
        "reversed".into()
    }
    fn schedule(&self, c: u32, d: DropRule, jobs: &[Job]) -> Result<Vec<Outcome>, PolicyError> {
        let mut o = Baseline::FcfsBf.schedule(c, d, jobs)?;
        o.reverse();
        Ok(o)
    }
}

/// FCFS-BF and SJF-BF on alternate calls, over all instances.
struct SwitchesAfterOneRun;

static SCHEDULED: AtomicU64 = AtomicU64::new(0);

impl BaselineScheduler for SwitchesAfterOneRun {
    fn name(&self) -> String {
        "switches".into()
    }
    fn schedule(&self, c: u32, d: DropRule, jobs: &[Job]) -> Result<Vec<Outcome>, PolicyError> {
        if SCHEDULED.fetch_add(1, Ordering::Relaxed).is_multiple_of(2) {
            Baseline::FcfsBf.schedule(c, d, jobs)
        } else {
            Baseline::SjfBf.schedule(c, d, jobs)
        }
    }
}

/// FCFS-BF that kills the first job to outlive its estimate and lets the
/// others run on: one overrun rule for some jobs, the other for the rest.
struct KillsOnce;

impl BaselineScheduler for KillsOnce {
    fn name(&self) -> String {
        "kills-once".into()
    }
    fn schedule(&self, c: u32, d: DropRule, jobs: &[Job]) -> Result<Vec<Outcome>, PolicyError> {
        let mut o = Baseline::FcfsBf.schedule(c, d, jobs)?;
        let over = jobs.iter().zip(&mut o).find(|(j, o)| {
            o.status == Status::Completed && j.run_time > j.estimate && j.estimate > 0
        });
        if let Some((j, o)) = over {
            // Ends earlier: still within capacity.
            o.end = o.start + j.estimate;
            o.status = Status::Killed;
        }
        Ok(o)
    }
}

#[test]
fn a_broken_baseline_is_named() {
    assert_eq!(
        invariant_of(suite().check_baseline(|| DROPS_EVERYTHING)),
        invariant::VALID
    );
    let job = QosJob {
        id: 3,
        submit: Time(0),
        procs: 2,
        run_time: 100,
        estimate: 100,
        deadline: 500,
        budget: 1e3,
    };
    for drop in [DropRule::Hopeless, DropRule::Lapsed] {
        let b = pricing::testing::check_baseline(|| DROPS_EVERYTHING, drop, 4, &[job]).unwrap_err();
        assert_eq!(b.invariant, invariant::VALID, "{b}");
        assert!(b.detail.contains("could still end by its deadline"), "{b}");
    }
    // Two jobs that outlive their estimates: one killed, one run on.
    let over = |id| QosJob {
        run_time: 200,
        deadline: 10_000,
        id,
        ..job
    };
    let b =
        pricing::testing::check_baseline(|| KillsOnce, DropRule::Hopeless, 4, &[over(1), over(2)])
            .unwrap_err();
    assert_eq!(b.invariant, invariant::VALID, "{b}");
    assert!(b.detail.contains("job 2"), "{b}");
    assert_eq!(
        invariant_of(suite().check_baseline(|| OVERCOMMITS)),
        invariant::VALID
    );
    assert_eq!(
        invariant_of(suite().check_baseline(|| Reversed)),
        invariant::KEEPS_THE_CONTRACT
    );
    let b = suite().check_baseline(|| SwitchesAfterOneRun).unwrap_err();
    assert_eq!(b.invariant, invariant::DETERMINISTIC);
    assert!(b.detail.contains("job "), "{b}");
}

/// FCFS-BF on a machine one processor larger than it was given, once the
/// workload holds more jobs than a generated one: over capacity only on
/// long inputs.
struct OvercommitsLongInputs;

impl BaselineScheduler for OvercommitsLongInputs {
    fn name(&self) -> String {
        "overcommits-long-inputs".into()
    }
    fn schedule(&self, c: u32, d: DropRule, jobs: &[Job]) -> Result<Vec<Outcome>, PolicyError> {
        let c = if jobs.len() > 24 { c + 1 } else { c };
        Baseline::FcfsBf.schedule(c, d, jobs)
    }
}

/// A baseline that cannot take more than three jobs at one instant.
struct NoBursts;

impl BaselineScheduler for NoBursts {
    fn name(&self) -> String {
        "no-bursts".into()
    }
    fn schedule(&self, c: u32, d: DropRule, jobs: &[Job]) -> Result<Vec<Outcome>, PolicyError> {
        let burst = jobs.windows(4).any(|w| w[0].submit == w[3].submit);
        assert!(!burst, "more than three jobs at one instant");
        Baseline::FcfsBf.schedule(c, d, jobs)
    }
}

/// The generated workloads hold at most 24 jobs and few at one instant;
/// the bursts the suite adds catch what breaks only beyond.
#[test]
fn bursts_catch_what_breaks_on_long_inputs() {
    assert_eq!(
        invariant_of(suite().check_baseline(|| OvercommitsLongInputs)),
        invariant::VALID
    );
    // Its panic is a broken invariant naming the workload, as any other.
    let b = suite().check_baseline(|| NoBursts).unwrap_err();
    assert_eq!(b.invariant, invariant::RUNS_TO_THE_END, "{b}");
    assert!(
        b.detail.starts_with("workload ")
            && b.detail
                .contains("the implementation panicked: more than three jobs at one instant"),
        "{b}"
    );
}

#[test]
fn the_workloads_are_fixed() {
    assert_eq!(suite().workloads(), suite().workloads());
    assert!(suite().workloads().len() > 5 + CASES as usize / 2);
    assert!(suite().workloads().iter().any(|w| w.len() > 60));
}

/// The class: an id given twice is refused wherever jobs are run, by the
/// cluster (so `simulate` and the time-shared runs) and by `backfill`.
#[test]
fn a_job_id_given_twice_is_refused() {
    use pricing::{ClusterConfig, JobSpec, PolicyError, QosJob, Submission, simulate};
    use profile::Time;

    let job = |id, at| Submission {
        id,
        arrival: Time(at),
        spec: JobSpec::new(60, 1, 600, 1e3),
        run_time: 60,
    };
    let config = ClusterConfig::homogeneous(2, 168, 1.0);
    assert_eq!(
        simulate(&config, &[job(1, 0), job(2, 5), job(1, 10)], &Flat),
        Err(PricingError::DuplicateId {
            id: 1,
            first: 0,
            second: 2
        })
    );
    assert!(simulate(&config, &[job(1, 0), job(2, 5), job(3, 10)], &Flat).is_ok());
    let q = |id, submit| QosJob {
        id,
        submit: Time(submit),
        procs: 1,
        run_time: 60,
        estimate: 60,
        deadline: 600,
        budget: 1e3,
    };
    let twice = [q(1, 0), q(1, 5)];
    let err = pricing::backfill(Baseline::FcfsBf, DropRule::Hopeless, 2, 1.0, &twice).unwrap_err();
    assert_eq!(
        err,
        PolicyError::Pricing {
            error: PricingError::DuplicateId {
                id: 1,
                first: 0,
                second: 1
            }
        }
    );
    assert!(
        err.to_string().contains("give every job its own id"),
        "{err}"
    );
}

/// The suite's workloads give every job its own id: a report names the job
/// by id, and `profile::validate` refuses a repeat.
#[test]
fn the_suites_workloads_have_distinct_ids() {
    let workloads = Suite::new(64).workloads();
    assert!(workloads.len() > 2);
    for (k, w) in workloads.iter().enumerate() {
        let repeat = profile::repeated_id(w.iter().map(|j| j.id));
        assert_eq!(repeat, None, "workload {k}");
    }
}
