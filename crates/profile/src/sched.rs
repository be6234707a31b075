//! The backfilling simulator: FCFS, EASY with k reservations, conservative.
//!
//! Event handling at one instant follows pyss, the Feitelson lab's reference
//! simulator: expired predictions first (only with [`Overrun::Continue`]),
//! then every submission at that instant (each followed by a scheduling
//! pass), then every termination (each followed by a scheduling pass).

use std::fmt;

use crate::builtin::{Conservative, Easy, Fcfs};
use crate::context::Sink;
use crate::engine::Engine;
use crate::scheduler::Scheduler;
use crate::{Job, JobError, Outcome, Overrun, Policy, SchedulerConfig, Time};

/// Why a simulation could not run. Input is checked before anything runs,
/// except [`SimError::BeyondLatest`], which a run finds on its way.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SimError {
    /// The machine has no processors.
    NoCapacity,
    /// Jobs must be given in non-decreasing submit order.
    Unsorted {
        /// Position of the first job submitted before its predecessor.
        index: usize,
        /// Its id.
        id: u64,
    },
    /// Two jobs carry the same id: outcomes, an [`Observer`]'s reports and
    /// a user's analysis name jobs by id, so each job has its own.
    DuplicateId {
        /// The id both carry.
        id: u64,
        /// Position of the first job with it.
        first: usize,
        /// Position of the second job with it.
        second: usize,
    },
    /// A job asks for more processors than the machine has.
    BadWidth {
        /// Position in the input.
        index: usize,
        /// Its id.
        id: u64,
        /// Processors asked for.
        procs: u32,
        /// Machine size.
        capacity: u32,
    },
    /// A job's field lies outside the model's domain (see [`Job::check`]):
    /// a time beyond ±2^40 s, an estimate below 1 s, a negative run time, a
    /// duration beyond 2^40 s, or no processors.
    InvalidJob {
        /// Position in the input.
        index: usize,
        /// What is wrong, with the job's id and the field.
        error: JobError,
    },
    /// With [`Overrun::Continue`], the jobs up to this one would need more
    /// prediction extensions than [`SchedulerConfig::extensions_per_job`] allows.
    TooManyExtensions {
        /// Position in the input.
        index: usize,
        /// Its id.
        id: u64,
        /// Its estimate.
        estimate: i64,
        /// Its run time.
        run_time: i64,
        /// Extensions the jobs up to and including this one need.
        needed: u64,
        /// Extensions allowed for that many jobs.
        allowed: u64,
    },
    /// A job would end (or be reserved to end) after [`Time::LATEST`]: the
    /// workload holds more work than a schedule can represent.
    BeyondLatest {
        /// Position in the input.
        index: usize,
        /// Its id.
        id: u64,
        /// The end it would get.
        end: Time,
    },
    /// A scheduler tried to start or reserve a job where its processors are
    /// not free for its estimate (or before now).
    NoRoom {
        /// Position in the input.
        index: usize,
        /// Its id.
        id: u64,
        /// Processors it asks for.
        procs: u32,
        /// Where it was to start.
        at: Time,
    },
    /// A scheduler named a queue position past the end of the queue.
    NotWaiting {
        /// The position named.
        position: usize,
        /// Jobs waiting.
        waiting: usize,
    },
    /// The run ended with this job still waiting: the scheduler never
    /// started it although nothing else was left to happen.
    NeverStarted {
        /// Position in the input.
        index: usize,
        /// Its id.
        id: u64,
    },
    /// The scheduler asked to wake more than
    /// [`SchedulerConfig::WAKE_UPS_IN_A_ROW`] times in a row with nothing
    /// else happening between: the run would not end.
    WakeUps {
        /// The last wake-up.
        at: Time,
        /// Jobs waiting then.
        waiting: usize,
    },
    /// The scheduler ended the run itself, for the reason given: a
    /// scheduler (or a wrapper around one, such as the invariant suite's
    /// watch over a scheduler under test) that finds it cannot or should
    /// not go on returns this from any of its hooks
    /// ([`Scheduler::schedule`] and the ones before it), and the run ends
    /// with it. The loop itself never returns it.
    Stopped {
        /// Why, in the scheduler's words.
        reason: String,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SimError::NoCapacity => write!(f, "the machine has 0 processors; give it at least 1"),
            SimError::Unsorted { index, id } => write!(
                f,
                "job {id} (position {index}) is submitted before the job preceding it; sort jobs by submit time"
            ),
            SimError::DuplicateId { id, first, second } => write!(
                f,
                "jobs at positions {first} and {second} both have id {id}; give every job its own id"
            ),
            SimError::BadWidth {
                index,
                id,
                procs,
                capacity,
            } => write!(
                f,
                "job {id} (position {index}) asks for {procs} processors but the machine has {capacity}; drop or cap such jobs first"
            ),
            SimError::InvalidJob { index, ref error } => write!(f, "position {index}: {error}"),
            SimError::TooManyExtensions {
                index,
                id,
                estimate,
                run_time,
                needed,
                allowed,
            } => write!(
                f,
                "job {id} (position {index}) runs {run_time} s on an estimate of {estimate} s: under overrun 'continue' the jobs up to it need {needed} prediction extensions, more than the {allowed} allowed; give better estimates, kill at the estimate, or raise extensions_per_job"
            ),
            SimError::BeyondLatest { index, id, end } => write!(
                f,
                "job {id} (position {index}) would end at {end}, after the latest instant a schedule can hold ({}); the workload is too long to simulate: split it",
                Time::LATEST
            ),
            SimError::NoRoom {
                index,
                id,
                procs,
                at,
            } => write!(
                f,
                "the scheduler tried to run job {id} (position {index}) from {at}, but its {procs} processors are not free then for its estimate; check the profile before starting or reserving"
            ),
            SimError::NotWaiting { position, waiting } => write!(
                f,
                "the scheduler named queue position {position}, but only {waiting} jobs wait"
            ),
            SimError::NeverStarted { index, id } => write!(
                f,
                "job {id} (position {index}) was never started: the scheduler left it waiting when nothing else was left to happen"
            ),
            SimError::WakeUps { at, waiting } => write!(
                f,
                "the scheduler asked to wake more than {} times in a row with nothing else happening, the last at {at} with {waiting} jobs waiting: the run would never end; ask for a wake-up (Context::wake_at) only for an instant where a decision can change",
                SchedulerConfig::WAKE_UPS_IN_A_ROW
            ),
            SimError::Stopped { ref reason } => {
                write!(f, "the scheduler stopped the run: {reason}")
            }
        }
    }
}

impl std::error::Error for SimError {}

/// Watches a simulation's decisions (for tests and instrumentation).
/// `job` is the position in the input slice.
pub trait Observer {
    /// `job` was given (or re-given) a reservation starting at `start`.
    fn reserved(&mut self, _now: Time, _job: usize, _start: Time) {}
    /// `job` started at `now`.
    fn started(&mut self, _now: Time, _job: usize) {}
    /// One step of the event loop ran at `now`: a submission, a
    /// termination, the expired predictions of one instant, or a due
    /// reservation, or a wake-up, each followed by a scheduling pass. A run
    /// of `n` jobs takes at most `3n + x + m` steps besides its wake-ups,
    /// where `x` is the number of prediction extensions and `m <= n` the
    /// number of jobs that outrun their estimate (both zero unless
    /// [`Overrun::Continue`]); the wake-ups a scheduler asks for are at
    /// most [`SchedulerConfig::WAKE_UPS_IN_A_ROW`] in a row between two of
    /// those steps.
    fn step(&mut self, _now: Time) {}
}

/// An [`Observer`] that ignores everything.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoObserver;
impl Observer for NoObserver {}

/// Replays `jobs` (sorted by submit time) on the configured machine under
/// its [`Policy`](crate::Policy) and returns one [`Outcome`] per job, in
/// input order.
///
/// Every job must pass [`Job::check`] and fit the machine, and with
/// [`Overrun::Continue`] the workload must stay within the extension budget
/// ([`SchedulerConfig::extensions_per_job`]); otherwise the result is a
/// [`SimError`] naming the first offending job, before anything runs; then
/// two jobs with one id are refused with [`SimError::DuplicateId`], naming
/// the id and both positions. A workload whose schedule would pass
/// [`Time::LATEST`] is refused with [`SimError::BeyondLatest`]. No input
/// panics.
pub fn simulate(config: &SchedulerConfig, jobs: &[Job]) -> Result<Vec<Outcome>, SimError> {
    simulate_observed(config, jobs, &mut NoObserver)
}

/// [`simulate`], reporting reservations and starts to `observer`.
pub fn simulate_observed(
    config: &SchedulerConfig,
    jobs: &[Job],
    observer: &mut dyn Observer,
) -> Result<Vec<Outcome>, SimError> {
    match config.policy {
        Policy::Fcfs => simulate_with(config, &mut Fcfs, jobs, observer),
        Policy::Easy { reservations } => {
            simulate_with(config, &mut Easy::new(reservations), jobs, observer)
        }
        Policy::Conservative => simulate_with(config, &mut Conservative::new(), jobs, observer),
    }
}

/// [`simulate_observed`] over a stream: jobs are read one at a time as the
/// simulation reaches their submit time, and `on_outcome(position, outcome)`
/// is called once per job as soon as its outcome is decided (when it starts,
/// or is dropped), so outcomes come in start order, not input order.
/// Returns the number of jobs replayed.
///
/// Memory follows the jobs in the system (waiting or running), never the
/// length of the stream: a workload of any length can be replayed from a
/// generator or a file without being collected.
///
/// The same checks as [`simulate`] apply, to each job as it is read, so an
/// invalid job ends the run with its [`SimError`] after the outcomes of
/// earlier jobs were reported. The schedule is the one [`simulate`] makes.
///
/// One check is left out: a stream's ids are not checked for repeats
/// ([`SimError::DuplicateId`]), which would need every id read so far and
/// so break the memory bound above. Outcomes name jobs by position here;
/// a caller that keys them by id and cannot vouch for its ids checks them
/// itself ([`repeated_id`](crate::repeated_id)).
pub fn simulate_stream<I, F>(
    config: &SchedulerConfig,
    jobs: I,
    observer: &mut dyn Observer,
    on_outcome: F,
) -> Result<usize, SimError>
where
    I: IntoIterator<Item = Job>,
    F: FnMut(usize, Outcome),
{
    match config.policy {
        Policy::Fcfs => simulate_stream_with(config, &mut Fcfs, jobs, observer, on_outcome),
        Policy::Easy { reservations } => simulate_stream_with(
            config,
            &mut Easy::new(reservations),
            jobs,
            observer,
            on_outcome,
        ),
        Policy::Conservative => {
            simulate_stream_with(config, &mut Conservative::new(), jobs, observer, on_outcome)
        }
    }
}

/// [`simulate_observed`] with any [`Scheduler`] deciding: the machine,
/// queue order, overrun handling and dropping come from `config`, the
/// decisions from `scheduler` (`config.policy` is not used). The same checks
/// apply, and the scheduler's actions are refused (with
/// [`SimError::NoRoom`] or [`SimError::NotWaiting`], ending the run) where
/// the machine does not allow them, so the schedule is always valid.
pub fn simulate_with<S: Scheduler + ?Sized>(
    config: &SchedulerConfig,
    scheduler: &mut S,
    jobs: &[Job],
    observer: &mut dyn Observer,
) -> Result<Vec<Outcome>, SimError> {
    check_input(config, jobs)?;
    let mut engine = Engine::new(
        config,
        jobs.iter().cloned(),
        observer,
        Sink::Keep(vec![None; jobs.len()]),
    )?;
    engine.run(scheduler)?;
    engine.into_outcomes()
}

/// [`simulate_stream`] with any [`Scheduler`] deciding (see
/// [`simulate_with`]).
pub fn simulate_stream_with<S, I, F>(
    config: &SchedulerConfig,
    scheduler: &mut S,
    jobs: I,
    observer: &mut dyn Observer,
    mut on_outcome: F,
) -> Result<usize, SimError>
where
    S: Scheduler + ?Sized,
    I: IntoIterator<Item = Job>,
    F: FnMut(usize, Outcome),
{
    let mut engine = Engine::new(
        config,
        jobs.into_iter(),
        observer,
        Sink::Call(&mut on_outcome),
    )?;
    engine.run(scheduler)?;
    match engine.ctx.queue_len() {
        0 => Ok(engine.read()),
        _ => Err(engine.ctx.unfinished()),
    }
}

/// Prediction extensions a job gets under [`Overrun::Continue`]: one each
/// time its prediction expires while it still runs, i.e. `⌊run / estimate⌋`
/// when it outruns its estimate (`estimate >= 1` was checked).
fn extensions(job: &Job) -> u64 {
    if job.run_time > job.estimate {
        (job.run_time / job.estimate).unsigned_abs()
    } else {
        0
    }
}

pub(crate) fn check_input(config: &SchedulerConfig, jobs: &[Job]) -> Result<(), SimError> {
    if config.capacity == 0 {
        return Err(SimError::NoCapacity);
    }
    let mut input = Input::new(jobs.iter().cloned());
    while input.next(config)?.is_some() {}
    match crate::repeated_id(jobs.iter().map(|j| j.id)) {
        Some(r) => Err(SimError::DuplicateId {
            id: r.id,
            first: r.first,
            second: r.second,
        }),
        None => Ok(()),
    }
}

/// The jobs still to be read, and what checking them needs to know about
/// the ones read before.
pub(crate) struct Input<I> {
    jobs: I,
    /// Jobs read so far: the next one's position.
    pub(crate) read: usize,
    /// The submit time of the last job read.
    last: Time,
    /// Under [`Overrun::Continue`], the extensions the jobs read so far need.
    extensions: u64,
}

impl<I: Iterator<Item = Job>> Input<I> {
    pub(crate) fn new(jobs: I) -> Self {
        Input {
            jobs,
            read: 0,
            last: Time(i64::MIN),
            extensions: 0,
        }
    }

    /// The next job, checked against the model's domain, the machine, the
    /// submit order and the extension budget; `None` at the end.
    pub(crate) fn next(&mut self, config: &SchedulerConfig) -> Result<Option<Job>, SimError> {
        let Some(j) = self.jobs.next() else {
            return Ok(None);
        };
        let index = self.read;
        j.check()
            .map_err(|error| SimError::InvalidJob { index, error })?;
        if j.submit < self.last {
            return Err(SimError::Unsorted { index, id: j.id });
        }
        if j.procs > config.capacity {
            return Err(SimError::BadWidth {
                index,
                id: j.id,
                procs: j.procs,
                capacity: config.capacity,
            });
        }
        if config.overrun == Overrun::Continue {
            let needed = self.extensions.saturating_add(extensions(&j));
            let allowed = u64::from(config.extensions_per_job)
                .saturating_mul(index as u64 + 1)
                .saturating_add(SchedulerConfig::EXTENSION_GRACE);
            if needed > allowed {
                return Err(SimError::TooManyExtensions {
                    index,
                    id: j.id,
                    estimate: j.estimate,
                    run_time: j.run_time,
                    needed,
                    allowed,
                });
            }
            self.extensions = needed;
        }
        self.last = j.submit;
        self.read += 1;
        Ok(Some(j))
    }
}
