//! The public invariant suite for a user's own [`PriceFunction`],
//! [`Admission`] rule and [`BaselineScheduler`] (feature `testing`), in the
//! shape of `profile::testing`'s: a `check_*` function for one run, and a
//! [`Suite`] that runs it on the crate's edge cases and on workloads drawn
//! from the gate's fixed seed (`profile::testing::sample_workloads`, so
//! `cargo test` checks the same cases on every run), reporting the first
//! broken invariant as a [`Broken`] under one of the names of
//! [`invariant`]:
//!
//! * [`invariant::DETERMINISTIC`]: two runs, each with a fresh
//!   implementation from the closure, decided otherwise (the detail names
//!   the first job where they part);
//! * [`invariant::VALID`]: a baseline's schedule fails `profile::validate`
//!   (or drops a job that could still end by its deadline, or kills some
//!   jobs at their estimates and lets others outlive theirs), or a
//!   time-shared run's outcome is not one the cluster can give (an
//!   accepted job left unfinished, or finished faster than its run time);
//! * [`invariant::KEEPS_THE_CONTRACT`]: an answer the trait's documentation
//!   rules out: an allocation that is not `PROC_i` distinct nodes of the
//!   cluster with the job's memory and disk free at a finite cost `>= 0`
//!   within its budget (the cluster refuses it too, as an error of the run:
//!   the suite names it as the rule's), a cost that is not a finite number
//!   `>= 0`, or a baseline's outcomes that are not one per job in the
//!   jobs' order;
//! * [`invariant::RUNS_TO_THE_END`]: a run failed with an error on a
//!   workload the crate's built-in implementation runs.
//!
//! State kept inside one run is allowed (an [`Admission`] takes
//! `&mut self`): only state that outlives an instance breaks the suite.
//!
//! ```
//! use pricing::testing::Suite;
//! use pricing::{admit, Admission, Decision, JobContext, NodeLoad, PriceFunction, PricingError};
//!
//! /// Algorithm 1, counting the jobs it sees (state within a run is fine).
//! #[derive(Default)]
//! struct Counting(u64);
//!
//! impl Admission for Counting {
//!     fn admit(&mut self, job: &JobContext<'_>, nodes: &[NodeLoad], price: &dyn PriceFunction)
//!         -> Result<Decision, PricingError>
//!     {
//!         self.0 += 1;
//!         admit(job, nodes, price)
//!     }
//! }
//!
//! Suite::new(8).check_admission(Counting::default)?;
//! Suite::new(8).check_price(|| pricing::LibraDollar { alpha: 1.0, beta: 0.1 })?;
//! Suite::new(8).check_baseline(|| pricing::Baseline::SjfBf)?;
//! # Ok::<(), profile::testing::Broken>(())
//! ```

use std::cell::RefCell;

pub use profile::testing::{Broken, invariant};
use profile::{Job, Outcome, Overrun, Policy, SchedulerConfig, Time};

use crate::admission::check_allocation;
use crate::{
    Admission, Baseline, BaselineScheduler, ClusterConfig, Decision, DropRule, Flat, JobContext,
    JobOutcome, LibraAdmission, NodeLoad, PriceFunction, PricingError, QosJob, QosWorkload, Quote,
    RunConfig, Submission, simulate_with,
};

/// An admission rule that records the first answer its contract rules out.
struct WatchedAdmission<A> {
    inner: A,
    broken: Option<Broken>,
}

impl<A: Admission> Admission for WatchedAdmission<A> {
    fn admit(
        &mut self,
        job: &JobContext<'_>,
        nodes: &[NodeLoad],
        price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError> {
        let decision = self.inner.admit(job, nodes, price)?;
        if let Decision::Accept(a) = &decision
            && self.broken.is_none()
            && let Err(e) = check_allocation(
                job.id,
                job.resource_requirements,
                job.qos_constraints.budget,
                nodes,
                a,
            )
        {
            let reason = match e {
                PricingError::InvalidAllocation { reason, .. } => reason,
                other => other.to_string(),
            };
            self.broken = Some(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "job {} at {}: the admission rule accepted it with {reason}; an allocation must be PROC_i distinct nodes of the cluster, each with the job's memory and disk free, at a finite cost >= 0 within the job's budget",
                    job.id, job.arrival
                ),
            ));
        }
        Ok(decision)
    }
}

/// A pricing function that records the first cost its contract rules out.
struct WatchedPrice<P> {
    inner: P,
    broken: RefCell<Option<Broken>>,
}

impl<P: PriceFunction> PriceFunction for WatchedPrice<P> {
    fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        let cost = self.inner.cost(job, quote)?;
        let mut slot = self.broken.borrow_mut();
        if !(cost.is_finite() && cost >= 0.0) && slot.is_none() {
            *slot = Some(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "job {} at {}: a cost of {cost} for {quote:?}; a cost is a finite number >= 0, or an error naming the input that prevents one",
                    job.id, job.arrival
                ),
            ));
        }
        Ok(cost)
    }
}

type Run = Result<Vec<JobOutcome>, PricingError>;

/// The first difference between two runs of the same jobs, told by job.
fn first_difference(jobs: &[QosJob], a: &Run, b: &Run) -> Option<String> {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            let k = a.iter().zip(b).position(|(x, y)| x != y)?;
            let id = jobs.get(k).map_or(a[k].id, |j| j.id);
            Some(format!(
                "job {id}: run 1 {:?} (finished {:?}), run 2 {:?} (finished {:?})",
                a[k].decision, a[k].finish, b[k].decision, b[k].finish
            ))
        }
        (a, b) if a == b => None,
        (a, b) => Some(format!(
            "run 1 {}, run 2 {}",
            tell_run(a.as_ref().map(|o| o.len())),
            tell_run(b.as_ref().map(|o| o.len()))
        )),
    }
}

fn tell_run(r: Result<usize, &PricingError>) -> String {
    match r {
        Ok(n) => format!("ran {n} jobs"),
        Err(e) => format!("failed: {e}"),
    }
}

const FRESH: &str = "a fresh implementation decided otherwise on the same input; look for state kept between instances (a static), iteration over a HashMap or HashSet, or time and randomness";

/// Checks that every accepted job finished, no faster than its run time.
fn check_finished(jobs: &[QosJob], outcomes: &[JobOutcome]) -> Result<(), Broken> {
    for (j, o) in jobs.iter().zip(outcomes) {
        if o.decision.allocation().is_none() {
            continue;
        }
        match o.finish {
            None => {
                return Err(Broken::new(
                    invariant::VALID,
                    format!("job {} was accepted and never finished", j.id),
                ));
            }
            Some(f) if f - j.submit < j.run_time => {
                return Err(Broken::new(
                    invariant::VALID,
                    format!(
                        "job {} finished at {f}, sooner than its run time of {} s after its arrival {}",
                        j.id, j.run_time, j.submit
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The verdict on a watched implementation `run` twice: the first broken
/// contract it recorded, else a difference between the two runs, else the
/// first run's jobs checked ([`check_finished`]); a run that failed is
/// broken unless the built-in implementation fails on the same input too
/// (`reference_fails`: an input the cluster refuses).
fn judge(
    jobs: &[QosJob],
    run: impl Fn() -> (Run, Option<Broken>),
    reference_fails: impl FnOnce() -> bool,
) -> Result<(), Broken> {
    let (first, watched) = run();
    if let Some(b) = watched {
        return Err(b);
    }
    let (again, _) = run();
    if let Some(d) = first_difference(jobs, &first, &again) {
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!("{FRESH} ({d})"),
        ));
    }
    match first {
        Ok(outcomes) => check_finished(jobs, &outcomes),
        Err(_) if reference_fails() => Ok(()),
        Err(e) => Err(Broken::new(invariant::RUNS_TO_THE_END, e.to_string())),
    }
}

/// Checks one run of the admission rules `make` builds (it is called for
/// each run) on the time-shared `cluster`, pricing with `price`: every
/// allocation it accepts keeps the [`Admission`] contract, two runs with
/// fresh rules decide alike, every accepted job finishes, and the run ends
/// without an error unless Algorithm 1 ([`LibraAdmission`]) fails on the
/// same input too (an input the cluster refuses).
pub fn check_admission<A: Admission>(
    make: impl Fn() -> A,
    price: &dyn PriceFunction,
    cluster: &ClusterConfig,
    jobs: &[QosJob],
) -> Result<(), Broken> {
    let submissions: Vec<Submission> = jobs.iter().map(QosJob::submission).collect();
    let run = || {
        let mut watch = WatchedAdmission {
            inner: make(),
            broken: None,
        };
        let outcomes = simulate_with(cluster, &submissions, price, &mut watch);
        (outcomes, watch.broken)
    };
    judge(jobs, run, || {
        simulate_with(cluster, &submissions, price, LibraAdmission).is_err()
    })
}

/// Checks one run of the pricing functions `make` builds on the
/// time-shared `cluster` under Algorithm 1: every cost it returns is a
/// finite number `>= 0` (or an error), two runs with fresh functions decide
/// alike, every accepted job finishes, and the run ends without an error
/// unless the flat price ([`Flat`]) fails on the same input too.
pub fn check_price<P: PriceFunction>(
    make: impl Fn() -> P,
    cluster: &ClusterConfig,
    jobs: &[QosJob],
) -> Result<(), Broken> {
    let submissions: Vec<Submission> = jobs.iter().map(QosJob::submission).collect();
    let run = || {
        let price = WatchedPrice {
            inner: make(),
            broken: RefCell::new(None),
        };
        let outcomes = simulate_with(cluster, &submissions, &price, LibraAdmission);
        (outcomes, price.broken.into_inner())
    };
    judge(jobs, run, || {
        simulate_with(cluster, &submissions, &Flat, LibraAdmission).is_err()
    })
}

/// Checks one schedule of the baselines `make` builds on a machine of
/// `capacity` processors under `drop` (the jobs as [`backfill`](crate::backfill)
/// gives them): one outcome per job, in the jobs' order; a schedule
/// `profile::validate_under` accepts under one overrun rule (every job
/// that outlives its estimate killed at it, or none), with a job dropped
/// only once it can no longer end by the deadline `drop` gives it; the
/// same schedule from a fresh baseline; and no error unless the paper's
/// FCFS-BF fails on the same input too.
pub fn check_baseline<B: BaselineScheduler>(
    make: impl Fn() -> B,
    drop: DropRule,
    capacity: u32,
    jobs: &[QosJob],
) -> Result<(), Broken> {
    let profile_jobs: Vec<Job> = jobs.iter().map(|j| drop.profile_job(j)).collect();
    let name = make().name();
    let first = make().schedule(capacity, drop, &profile_jobs);
    let again = make().schedule(capacity, drop, &profile_jobs);
    if first != again {
        let d = match (&first, &again) {
            (Ok(a), Ok(b)) => {
                let k = a
                    .iter()
                    .zip(b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.len().min(b.len()));
                let tell =
                    |o: Option<&Outcome>| o.map_or("no outcome".to_string(), |o| format!("{o:?}"));
                let id = jobs
                    .get(k)
                    .map_or(String::from("past the last"), |j| j.id.to_string());
                format!(
                    "job {id}: run 1 {}, run 2 {}",
                    tell(a.get(k)),
                    tell(b.get(k))
                )
            }
            (a, b) => format!("run 1 {a:?}, run 2 {b:?}"),
        };
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!("baseline {name}: {FRESH} ({d})"),
        ));
    }
    let outcomes = match first {
        Ok(outcomes) => outcomes,
        Err(_)
            if Baseline::FcfsBf
                .schedule(capacity, drop, &profile_jobs)
                .is_err() =>
        {
            return Ok(());
        }
        Err(e) => {
            return Err(Broken::new(
                invariant::RUNS_TO_THE_END,
                format!("baseline {name}: {e}"),
            ));
        }
    };
    if outcomes.len() != jobs.len() {
        return Err(Broken::new(
            invariant::KEEPS_THE_CONTRACT,
            format!(
                "baseline {name} gave {} outcomes for {} jobs; a baseline gives one outcome per job, in the jobs' order",
                outcomes.len(),
                jobs.len()
            ),
        ));
    }
    if let Some((j, o)) = jobs.iter().zip(&outcomes).find(|(j, o)| j.id != o.id) {
        return Err(Broken::new(
            invariant::KEEPS_THE_CONTRACT,
            format!(
                "baseline {name} gave the outcome of job {} where job {}'s belongs; a baseline gives one outcome per job, in the jobs' order",
                o.id, j.id
            ),
        ));
    }
    // Either overrun rule, but one for the whole schedule; drops only as
    // the deadline `drop` gives each job allows.
    let under = |overrun| {
        let config = SchedulerConfig::new(capacity, Policy::Fcfs)
            .overrun(overrun)
            .drop_expired(true);
        profile::validate_under(&config, &profile_jobs, &outcomes)
    };
    under(Overrun::Continue)
        .or_else(|_| under(Overrun::Kill))
        .map_err(|v| Broken::new(invariant::VALID, format!("baseline {name}: {v}")))
}

/// The property suite for one pricing function, admission rule or
/// baseline: the `check_*` of this module on the edge cases of
/// [`Suite::workloads`] and on `cases` workloads drawn from the gate's
/// fixed seed, on a cluster of [`Suite::nodes`] single-processor nodes
/// with [`RunConfig::default`]'s settings (a baseline: on a machine of as
/// many processors, under both [`DropRule`]s). The first broken invariant
/// is returned, its detail prefixed with the workload it broke on.
#[derive(Clone, Debug)]
pub struct Suite {
    cases: u32,
    nodes: u32,
    max_jobs: usize,
}

impl Suite {
    /// `cases` generated workloads of up to 24 jobs on 4 nodes (times the
    /// scale of a `cargo xtask explore`).
    pub fn new(cases: u32) -> Suite {
        Suite {
            cases,
            nodes: 4,
            max_jobs: 24,
        }
    }

    /// The cluster's nodes (the baseline's processors), at least 1.
    pub fn nodes(mut self, nodes: u32) -> Self {
        self.nodes = nodes.max(1);
        self
    }

    /// The most jobs in a generated workload.
    pub fn max_jobs(mut self, max_jobs: usize) -> Self {
        self.max_jobs = max_jobs.max(1);
        self
    }

    /// The workloads the suite runs: the edge cases (no job; a job wider
    /// than the cluster; jobs arriving at once with a budget of 0, an exact
    /// and a generous one; a job that outruns its estimate and its
    /// deadline; a job at the edge of the time domain), then the generated
    /// ones (`profile`'s workloads with Table I's deadlines and budgets).
    pub fn workloads(&self) -> Vec<Vec<QosJob>> {
        let n = self.nodes;
        let job = |id, submit, procs, run_time, estimate, deadline, budget| QosJob {
            id,
            submit: Time(submit),
            procs,
            run_time,
            estimate,
            deadline,
            budget,
        };
        let lim = Time::LIMIT.secs();
        let mut all = vec![
            Vec::new(),
            vec![job(1, 0, n.saturating_add(1), 10, 10, 100, 1e6)],
            vec![
                job(1, 0, 1, 100, 100, 200, 0.0),
                job(2, 0, n, 100, 100, 100, 100.0 * f64::from(n)),
                job(3, 0, 1, 100, 100, 400, 1e9),
                job(4, 5, n.div_ceil(2), 50, 60, 1000, 1e9),
            ],
            vec![
                job(7, 10, 1, 500, 100, 150, 1e6),
                job(8, 20, 1, 1, 1, 1, 1.0),
            ],
            vec![job(9, lim - 10, 1, 5, 5, 10, 1e3)],
        ];
        let (seed, _) = profile::testing::seed_and_scale();
        let bursts = profile::testing::sample_bursts(n, profile::testing::BURST_JOBS, 2);
        for trace in profile::testing::sample_workloads(n, self.max_jobs, self.cases)
            .into_iter()
            .chain(bursts)
        {
            if let Ok(jobs) = QosWorkload::TABLE_I.jobs(&trace, seed) {
                all.push(jobs);
            }
        }
        all
    }

    fn each(&self, check: impl FnMut(&[QosJob]) -> Result<(), Broken>) -> Result<(), Broken> {
        profile::testing::check_each(&self.workloads(), "jobs", check)
    }

    fn cluster(&self) -> Result<ClusterConfig, Broken> {
        RunConfig::default()
            .cluster(self.nodes)
            .map_err(|e| Broken::new(invariant::RUNS_TO_THE_END, e.to_string()))
    }

    /// [`check_admission`] on every workload, pricing with Libra+$ (the
    /// paper's `α = 1`, `β = 0.1`).
    pub fn check_admission<A: Admission>(&self, make: impl Fn() -> A) -> Result<(), Broken> {
        let cluster = self.cluster()?;
        let price = RunConfig::default().price(crate::Policy::LibraDollar { beta: None });
        self.each(|jobs| check_admission(&make, price.as_ref(), &cluster, jobs))
    }

    /// [`check_price`] on every workload.
    pub fn check_price<P: PriceFunction>(&self, make: impl Fn() -> P) -> Result<(), Broken> {
        let cluster = self.cluster()?;
        self.each(|jobs| check_price(&make, &cluster, jobs))
    }

    /// [`check_baseline`] on every workload, under both drop rules.
    pub fn check_baseline<B: BaselineScheduler>(&self, make: impl Fn() -> B) -> Result<(), Broken> {
        self.each(|jobs| {
            [DropRule::Hopeless, DropRule::Lapsed]
                .into_iter()
                .try_for_each(|drop| check_baseline(&make, drop, self.nodes, jobs))
        })
    }
}
