//! The paper's backfilling baselines (§VII-B): FCFS-BF, SJF-BF and EDF-BF,
//! EASY backfilling on the machine space-shared, with "generous admission
//! control" and a flat charge.
//!
//! Every job enters the queue; a waiting job the baseline can no longer use
//! is dropped by the [`DropRule`]; a running job is never stopped, and a job
//! that outlives its estimate runs on (the paper kills no job). A job that
//! ends by its deadline pays `RE_i · PBase` ([`Flat`]), and counts for Job
//! QoS Satisfaction if that is within its budget: there is no budget test
//! before it starts. The schedule is checked with `profile::validate` before
//! it is counted.
//!
//! The scheduler is an extension point, the [`BaselineScheduler`] trait: it
//! receives the jobs as `profile` jobs and returns their `profile` outcomes.
//! The paper's three ([`Baseline`]) are its implementations, simulated by
//! `profile`'s EASY; so is any `profile::SchedulerConfig` (any built-in
//! policy and queue order), and a user's own scheduler plugs in the same way.

use std::fmt;
use std::sync::Arc;

use profile::{Job, Outcome, Overrun, Policy as EasyPolicy, QueueOrder, SchedulerConfig, Status};

use crate::context::JobContext;
use crate::error::{PolicyError, PricingError};
use crate::price::{Flat, PriceFunction, Quote};
use crate::qos::Metrics;
use crate::run::RunStats;
use crate::spec::JobSpec;
use crate::workload::QosJob;

/// A scheduler of the space-shared machine, for [`backfill`]: the
/// extension point behind the paper's baselines.
///
/// [`backfill`] hands it the jobs as `profile` jobs (id, submit time,
/// processors, estimate `RE_i`, run time, and a deadline the [`DropRule`]
/// sets, see [`BaselineScheduler::schedule`]) and counts the outcomes it
/// returns: a job with status `Dropped` is the baselines' rejection, any
/// other has started, and is late if it ends after its deadline. The
/// schedule must pass `profile::validate` on the machine's capacity.
///
/// Implemented by [`Baseline`] (the paper's FCFS-BF, SJF-BF, EDF-BF), by
/// `profile::SchedulerConfig` (any built-in policy and queue order, as
/// configured), by [`ProfileBaseline`] (any `profile::Scheduler`, a user's
/// own included), and through `&T` and `Box<T>`. A scheduler of one's own
/// needs a few lines:
///
/// ```
/// use pricing::{backfill, BaselineScheduler, DropRule, PolicyError, QosJob};
/// use profile::{Job, Outcome, Policy, QueueOrder, SchedulerConfig};
///
/// /// Conservative backfilling, largest job first, giving up on hopeless jobs.
/// struct LargestFirst;
///
/// impl BaselineScheduler for LargestFirst {
///     fn name(&self) -> String {
///         "largest-first".into()
///     }
///     fn schedule(&self, capacity: u32, _drop: DropRule, jobs: &[Job])
///         -> Result<Vec<Outcome>, PolicyError>
///     {
///         let order = QueueOrder::Custom(std::sync::Arc::new(|a: &Job, b: &Job| b.procs.cmp(&a.procs)));
///         let config = SchedulerConfig::new(capacity, Policy::Conservative).order(order).drop_expired(true);
///         Ok(profile::simulate(&config, jobs)?)
///     }
/// }
///
/// let job = |id, procs| QosJob {
///     id, submit: profile::Time(0), procs, run_time: 100, estimate: 100, deadline: 1000, budget: 500.0,
/// };
/// let stats = backfill(LargestFirst, DropRule::Hopeless, 4, 1.0, &[job(0, 1), job(1, 4)])?;
/// assert_eq!(stats.metrics.qos_met, 2);
/// # Ok::<(), PolicyError>(())
/// ```
pub trait BaselineScheduler {
    /// The scheduler's name, for outputs and errors (`fcfs-bf`, say).
    fn name(&self) -> String;

    /// Schedules `jobs` (in submit order) on a machine of `capacity`
    /// processors: one outcome per job, in the same order.
    ///
    /// Each job's deadline is the one `drop` gives it: under
    /// [`DropRule::Hopeless`] the job's `DT_i`, so that a scheduler that
    /// drops a waiting job when `now + estimate > deadline` (`profile`'s
    /// `drop_expired`) drops it as soon as it can no longer end in time;
    /// under [`DropRule::Lapsed`] `DT_i + RE_i`, so the same test drops it
    /// only once `DT_i` has passed (the true deadline is then
    /// `deadline − estimate`). A scheduler that orders by deadline and
    /// honours [`DropRule::Lapsed`] orders by the true one, as
    /// [`Baseline::EdfBf`] does.
    ///
    /// # Errors
    ///
    /// What the scheduler refuses: `profile`'s [`SimError`](profile::SimError)
    /// converts into [`PolicyError::Simulation`] with `?`; any other
    /// failure is [`PolicyError::Baseline`].
    fn schedule(
        &self,
        capacity: u32,
        drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError>;
}

impl<B: BaselineScheduler + ?Sized> BaselineScheduler for &B {
    fn name(&self) -> String {
        (**self).name()
    }

    fn schedule(
        &self,
        capacity: u32,
        drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError> {
        (**self).schedule(capacity, drop, jobs)
    }
}

impl<B: BaselineScheduler + ?Sized> BaselineScheduler for Box<B> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn schedule(
        &self,
        capacity: u32,
        drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError> {
        (**self).schedule(capacity, drop, jobs)
    }
}

/// The paper's baselines: EASY with one reservation and the baseline's
/// queue order, a job that outlives its estimate runs on, a waiting job is
/// dropped once the [`DropRule`] says it is hopeless.
impl BaselineScheduler for Baseline {
    fn name(&self) -> String {
        Baseline::name(*self).to_string()
    }

    fn schedule(
        &self,
        capacity: u32,
        drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError> {
        let config = SchedulerConfig::new(capacity, EasyPolicy::EASY)
            .order(drop.queue(*self))
            .overrun(Overrun::Continue)
            .drop_expired(true);
        Ok(profile::simulate(&config, jobs)?)
    }
}

/// Any `profile` configuration, as configured (its policy, queue order,
/// overrun handling and `drop_expired`), on the machine of `capacity`
/// processors [`backfill`] gives, whatever its own `capacity`. The drop
/// rule reaches it only through the jobs' deadlines.
impl BaselineScheduler for SchedulerConfig {
    fn name(&self) -> String {
        format!("{:?} {:?}", self.policy, self.order)
    }

    fn schedule(
        &self,
        capacity: u32,
        _drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError> {
        let mut config = self.clone();
        config.capacity = capacity;
        Ok(profile::simulate(&config, jobs)?)
    }
}

/// Any `profile` [`Scheduler`](profile::Scheduler) as a baseline, a user's
/// own policy included: `make` builds a fresh scheduler for each schedule,
/// which runs on `profile`'s event loop under `config` (its queue order,
/// overrun handling and `drop_expired`; its capacity and policy are not
/// used) on the machine [`backfill`] gives.
///
/// ```
/// use pricing::{backfill, Baseline, DropRule, ProfileBaseline, QosJob};
/// use profile::{builtin::Easy, Overrun, Policy, SchedulerConfig};
///
/// let job = |id, submit, procs, run_time| QosJob {
///     id, submit: profile::Time(submit), procs, run_time, estimate: run_time,
///     deadline: 10 * run_time, budget: 500.0,
/// };
/// let jobs = [job(0, 0, 4, 100), job(1, 1, 4, 50), job(2, 2, 2, 20)];
/// // The built-in EASY through the trait is the paper's FCFS-BF.
/// let config = SchedulerConfig::new(4, Policy::EASY)
///     .overrun(Overrun::Continue)
///     .drop_expired(true);
/// let easy = ProfileBaseline::new("easy", config, || Easy::new(1));
/// let ours = backfill(&easy, DropRule::Hopeless, 4, 1.0, &jobs)?;
/// let paper = backfill(Baseline::FcfsBf, DropRule::Hopeless, 4, 1.0, &jobs)?;
/// assert_eq!(ours, paper);
/// # Ok::<(), pricing::PolicyError>(())
/// ```
pub struct ProfileBaseline<F> {
    name: String,
    config: SchedulerConfig,
    make: F,
}

impl<F, S> ProfileBaseline<F>
where
    F: Fn() -> S,
    S: profile::Scheduler,
{
    /// A baseline named `name` that runs the schedulers `make` builds under `config`.
    pub fn new(name: impl Into<String>, config: SchedulerConfig, make: F) -> Self {
        ProfileBaseline {
            name: name.into(),
            config,
            make,
        }
    }
}

impl<F> std::fmt::Debug for ProfileBaseline<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProfileBaseline")
            .field("name", &self.name)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<F, S> BaselineScheduler for ProfileBaseline<F>
where
    F: Fn() -> S,
    S: profile::Scheduler,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn schedule(
        &self,
        capacity: u32,
        _drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError> {
        let mut config = self.config.clone();
        config.capacity = capacity;
        let mut scheduler = (self.make)();
        Ok(profile::simulate_with(
            &config,
            &mut scheduler,
            jobs,
            &mut profile::NoObserver,
        )?)
    }
}

/// A backfilling baseline of the paper: EASY with one reservation and this
/// queue order. Its [`BaselineScheduler`] implementation runs it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// `fcfs-bf`: arrival order.
    FcfsBf,
    /// `sjf-bf`: shortest estimate first.
    SjfBf,
    /// `edf-bf`: earliest deadline first.
    EdfBf,
}

impl Baseline {
    /// All three, in the paper's legend order.
    pub const ALL: [Baseline; 3] = [Baseline::FcfsBf, Baseline::SjfBf, Baseline::EdfBf];

    /// The series name: `fcfs-bf`, `sjf-bf` or `edf-bf`.
    pub fn name(self) -> &'static str {
        match self {
            Baseline::FcfsBf => "fcfs-bf",
            Baseline::SjfBf => "sjf-bf",
            Baseline::EdfBf => "edf-bf",
        }
    }
}

impl fmt::Display for Baseline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Baseline::name(*self))
    }
}

/// When a backfilling baseline gives up on a waiting job: the paper's "not
/// to run any waiting jobs that have exceeded their deadlines", read two
/// ways.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DropRule {
    /// As soon as it can no longer finish by its deadline (`now + RE > DT`):
    /// `profile`'s `drop_expired`. The default.
    #[default]
    Hopeless,
    /// Only once its deadline has passed (`now > DT`), the paper's words
    /// read literally: a job that cannot make it may still be started, and
    /// wastes processors.
    Lapsed,
}

impl fmt::Display for DropRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DropRule::Hopeless => "hopeless",
            DropRule::Lapsed => "lapsed",
        })
    }
}

impl DropRule {
    /// `job` as `profile` schedules it. `drop_expired` drops a waiting job
    /// when `now + estimate > deadline`; for [`DropRule::Lapsed`] the
    /// deadline it is given is moved later by the estimate, so the test
    /// becomes `now > DT`.
    pub(crate) fn profile_job(self, job: &QosJob) -> Job {
        let shift = match self {
            DropRule::Hopeless => 0,
            DropRule::Lapsed => job.estimate,
        };
        Job::new(job.id, job.submit, job.procs, job.estimate, job.run_time)
            .with_deadline(job.deadline_time().saturating_add(shift))
    }

    /// The queue order of `baseline`; EDF orders by the true deadline
    /// whatever the shift of [`DropRule::profile_job`].
    fn queue(self, baseline: Baseline) -> QueueOrder {
        match (baseline, self) {
            (Baseline::FcfsBf, _) => QueueOrder::Arrival,
            (Baseline::SjfBf, _) => QueueOrder::ShortestEstimate,
            (Baseline::EdfBf, DropRule::Hopeless) => QueueOrder::EarliestDeadline,
            (Baseline::EdfBf, DropRule::Lapsed) => {
                QueueOrder::Custom(Arc::new(|a: &Job, b: &Job| {
                    let true_deadline =
                        |j: &Job| j.deadline.map(|d| d.0.saturating_sub(j.estimate));
                    true_deadline(a).cmp(&true_deadline(b))
                }))
            }
        }
    }
}

/// Runs `baseline` (one of the paper's [`Baseline`]s, a
/// `profile::SchedulerConfig`, or any [`BaselineScheduler`]) with `drop` on
/// a space-shared machine of `capacity` processors, charging
/// `RE_i · base_price` to each job that ends by its deadline.
///
/// In the result a dropped job is the baselines' only rejection, counted
/// under [`Rejections::deadline`](crate::Rejections::deadline); a started
/// job counts as accepted, and as late if it ends after its deadline.
///
/// Every job is checked first ([`QosJob::check`]; an id given twice is
/// [`PricingError::DuplicateId`]); `profile` refuses the
/// rest of what it cannot schedule (a machine of 0 processors, a deadline
/// moved by [`DropRule::Lapsed`] past `Time::LIMIT`) with
/// [`PolicyError::Simulation`]. A scheduler that returns other than one
/// outcome per job, or a schedule that breaks the machine's rules, is
/// [`PolicyError::InvalidSchedule`].
///
/// ```
/// use pricing::{backfill, Baseline, DropRule, QosJob};
/// use profile::Time;
///
/// // Three jobs that each need the whole 2-processor machine; jobs 1 and 2
/// // arrive while job 0 runs.
/// let job = |id, submit, run_time, deadline| QosJob {
///     id, submit: Time(submit), procs: 2, run_time, estimate: run_time, deadline, budget: 500.0,
/// };
/// let jobs = [job(0, 0, 50, 1000), job(1, 10, 100, 300), job(2, 20, 100, 150)];
/// // FCFS starts job 1 at 50; job 2 could then end at 250 > 170: dropped.
/// let fcfs = backfill(Baseline::FcfsBf, DropRule::Hopeless, 2, 1.0, &jobs)?;
/// assert_eq!((fcfs.metrics.qos_met, fcfs.rejected.deadline), (2, 1));
/// // EDF starts job 2 first, and job 1 still ends by 310.
/// let edf = backfill(Baseline::EdfBf, DropRule::Hopeless, 2, 1.0, &jobs)?;
/// assert_eq!((edf.metrics.qos_met, edf.metrics.earned), (3, 250.0));
/// # Ok::<(), pricing::PolicyError>(())
/// ```
pub fn backfill<B: BaselineScheduler>(
    baseline: B,
    drop: DropRule,
    capacity: u32,
    base_price: f64,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    jobs.iter().try_for_each(QosJob::check)?;
    if let Some(profile::RepeatedId { id, first, second }) =
        profile::repeated_id(jobs.iter().map(|j| j.id))
    {
        return Err(PricingError::DuplicateId { id, first, second }.into());
    }
    let profile_jobs: Vec<Job> = jobs.iter().map(|j| drop.profile_job(j)).collect();
    let outcomes = baseline.schedule(capacity, drop, &profile_jobs)?;
    profile::validate(capacity, &profile_jobs, &outcomes)
        .map_err(|violation| PolicyError::InvalidSchedule { violation })?;
    let mut stats = RunStats {
        metrics: Metrics::default(),
        ..RunStats::default()
    };
    for (j, o) in jobs.iter().zip(&outcomes) {
        let fate = BaselineFate::of(j, o, base_price)?;
        stats
            .metrics
            .record(j.budget, fate.started, fate.met_qos.then_some(fate.cost));
        stats.late += usize::from(fate.started && !fate.on_time);
        stats.rejected.deadline += usize::from(!fate.started);
    }
    Ok(stats)
}

/// What a backfilling baseline's schedule means for one job, as
/// [`backfill`] counts it: started or dropped, on time or late, its charge
/// `RE_i · base_price` ([`Flat`]), and whether it met its QoS (on time and
/// within budget).
///
/// ```
/// use pricing::{BaselineFate, QosJob};
/// use profile::{Outcome, Status, Time};
///
/// let job = QosJob {
///     id: 7, submit: Time(0), procs: 2, run_time: 50, estimate: 60, deadline: 100, budget: 90.0,
/// };
/// let ran = Outcome { id: 7, start: Time(10), end: Time(60), status: Status::Completed };
/// let fate = BaselineFate::of(&job, &ran, 1.5)?;
/// assert!(fate.started && fate.on_time && fate.met_qos);
/// assert_eq!(fate.cost, 90.0); // 60 s estimated at 1.5 per second
/// # Ok::<(), pricing::PolicyError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BaselineFate {
    /// The job started (a baseline's only rejection is dropping it).
    pub started: bool,
    /// It started and ended by its deadline (`submit + deadline`).
    pub on_time: bool,
    /// What it is charged, `RE_i · base_price`: earned only if it meets its
    /// QoS.
    pub cost: f64,
    /// On time and charged no more than its budget.
    pub met_qos: bool,
}

impl BaselineFate {
    /// The fate of `job` given its `outcome` in a baseline's schedule, at
    /// `base_price` per second of estimate.
    ///
    /// # Errors
    ///
    /// [`PolicyError::InvalidSchedule`] if `outcome` is not one `job` can
    /// have on its own (another job's id, a start before its submission,
    /// a duration that is neither its run time nor its estimate, times out
    /// of range: `profile::validate` of the one job), and
    /// [`PolicyError::Cost`] if it cannot be priced at `base_price`.
    pub fn of(job: &QosJob, outcome: &Outcome, base_price: f64) -> Result<Self, PolicyError> {
        let alone = Job::new(job.id, job.submit, job.procs, job.estimate, job.run_time);
        profile::validate(job.procs.max(1), &[alone], std::slice::from_ref(outcome))
            .map_err(|violation| PolicyError::InvalidSchedule { violation })?;
        let started = outcome.status != Status::Dropped;
        let on_time = started && outcome.end <= job.deadline_time();
        let quote = Quote {
            runtime_estimate: job.estimate,
            deadline: job.deadline,
            base_price,
            res_max: job.deadline,
            committed: 0,
        };
        let spec = JobSpec::new(job.estimate, job.procs, job.deadline, job.budget);
        let cost = Flat
            .cost(&JobContext::new(job.id, job.submit, &spec), &quote)
            .map_err(|error| PolicyError::Cost { job: job.id, error })?;
        Ok(BaselineFate {
            started,
            on_time,
            cost,
            met_qos: on_time && cost <= job.budget,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile::Time;

    fn job(id: u64, estimate: i64, deadline: i64) -> QosJob {
        QosJob {
            id,
            submit: Time(0),
            procs: 1,
            run_time: estimate,
            estimate,
            deadline,
            budget: 1.0,
        }
    }

    #[test]
    fn lapsed_moves_the_deadline_profile_sees_by_the_estimate() {
        let j = job(1, 30, 100);
        assert_eq!(DropRule::Hopeless.profile_job(&j).deadline, Some(Time(100)));
        assert_eq!(DropRule::Lapsed.profile_job(&j).deadline, Some(Time(130)));
    }

    #[test]
    fn lapsed_edf_orders_by_the_true_deadline() {
        // True deadlines 100 and 110; shifted by the estimates, 190 and 120.
        let (a, b) = (job(1, 90, 100), job(2, 10, 110));
        let (pa, pb) = (
            DropRule::Lapsed.profile_job(&a),
            DropRule::Lapsed.profile_job(&b),
        );
        let QueueOrder::Custom(cmp) = DropRule::Lapsed.queue(Baseline::EdfBf) else {
            panic!("lapsed EDF needs its own order");
        };
        assert_eq!(cmp(&pa, &pb), std::cmp::Ordering::Less);
        assert!(matches!(
            DropRule::Hopeless.queue(Baseline::EdfBf),
            QueueOrder::EarliestDeadline
        ));
    }

    #[test]
    fn names() {
        let names: Vec<String> = Baseline::ALL.iter().map(|b| b.to_string()).collect();
        assert_eq!(names, ["fcfs-bf", "sjf-bf", "edf-bf"]);
        assert_eq!(DropRule::default().to_string(), "hopeless");
        assert_eq!(DropRule::Lapsed.to_string(), "lapsed");
    }
}
