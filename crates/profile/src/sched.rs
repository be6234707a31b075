//! The backfilling simulator: FCFS, EASY with k reservations, conservative.
//!
//! Event handling at one instant follows pyss, the Feitelson lab's reference
//! simulator: expired predictions first (only with [`Overrun::Continue`]),
//! then every submission at that instant (each followed by a scheduling
//! pass), then every termination (each followed by a scheduling pass).

use std::fmt;

use crate::{
    EventQueue, Job, JobError, Outcome, Overrun, Policy, Profile, QueueOrder, SchedulerConfig,
    Status, Time,
};

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
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SimError::NoCapacity => write!(f, "the machine has 0 processors; give it at least 1"),
            SimError::Unsorted { index, id } => write!(
                f,
                "job {id} (position {index}) is submitted before the job preceding it; sort jobs by submit time"
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
    /// reservation, each followed by a scheduling pass. A run of `n` jobs
    /// takes at most `3n + x + m` steps, where `x` is the number of
    /// prediction extensions and `m <= n` the number of jobs that outrun
    /// their estimate (both zero unless [`Overrun::Continue`]).
    fn step(&mut self, _now: Time) {}
}

/// An [`Observer`] that ignores everything.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoObserver;
impl Observer for NoObserver {}

/// Replays `jobs` (sorted by submit time) on the configured machine and
/// returns one [`Outcome`] per job, in input order.
///
/// Every job must pass [`Job::check`] and fit the machine, and with
/// [`Overrun::Continue`] the workload must stay within the extension budget
/// ([`SchedulerConfig::extensions_per_job`]); otherwise the result is a
/// [`SimError`] naming the first offending job, before anything runs. A
/// workload whose schedule would pass [`Time::LATEST`] is refused with
/// [`SimError::BeyondLatest`]. No input panics.
pub fn simulate(config: &SchedulerConfig, jobs: &[Job]) -> Result<Vec<Outcome>, SimError> {
    simulate_observed(config, jobs, &mut NoObserver)
}

/// [`simulate`], reporting reservations and starts to `observer`.
pub fn simulate_observed(
    config: &SchedulerConfig,
    jobs: &[Job],
    observer: &mut dyn Observer,
) -> Result<Vec<Outcome>, SimError> {
    check_input(config, jobs)?;
    let mut sim = Sim::new(config, jobs, observer);
    sim.run()?;
    Ok(sim
        .outcomes
        .into_iter()
        .map(|o| o.expect("every job ends exactly once"))
        .collect())
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

fn check_input(config: &SchedulerConfig, jobs: &[Job]) -> Result<(), SimError> {
    let capacity = config.capacity;
    if capacity == 0 {
        return Err(SimError::NoCapacity);
    }
    let continues = config.overrun == Overrun::Continue;
    let mut needed: u64 = 0;
    let mut last = Time(i64::MIN);
    for (index, j) in jobs.iter().enumerate() {
        j.check()
            .map_err(|error| SimError::InvalidJob { index, error })?;
        if j.submit < last {
            return Err(SimError::Unsorted { index, id: j.id });
        }
        last = j.submit;
        if j.procs > capacity {
            return Err(SimError::BadWidth {
                index,
                id: j.id,
                procs: j.procs,
                capacity,
            });
        }
        if continues {
            needed = needed.saturating_add(extensions(j));
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
        }
    }
    Ok(())
}

/// A running job's scheduler-visible state.
#[derive(Copy, Clone, Debug)]
struct Running {
    /// When the scheduler believes it will end (start + estimate, possibly extended).
    predicted_end: Time,
}

struct Sim<'a> {
    config: &'a SchedulerConfig,
    jobs: &'a [Job],
    observer: &'a mut dyn Observer,
    /// Running jobs by predicted end (EASY, FCFS) or running jobs plus every
    /// waiting job's reservation (conservative).
    profile: Profile,
    /// Scratch copy for EASY passes.
    scratch: Profile,
    /// Waiting jobs (input positions) in queue order.
    queue: Vec<usize>,
    /// Conservative: each waiting job's reserved start.
    reserved: Vec<Time>,
    running: Vec<Option<Running>>,
    ends: EventQueue<usize>,
    overruns: EventQueue<usize>,
    /// Conservative: the earliest reserved start after now among waiting jobs.
    next_start: Option<Time>,
    outcomes: Vec<Option<Outcome>>,
    now: Time,
}

impl<'a> Sim<'a> {
    fn new(config: &'a SchedulerConfig, jobs: &'a [Job], observer: &'a mut dyn Observer) -> Self {
        let origin = jobs.first().map_or(Time::ZERO, |j| j.submit);
        let profile = Profile::new(config.capacity, origin);
        let conservative = config.policy == Policy::Conservative;
        Sim {
            config,
            jobs,
            observer,
            scratch: profile.clone(),
            profile,
            queue: Vec::new(),
            reserved: if conservative {
                vec![Time::MAX; jobs.len()]
            } else {
                Vec::new()
            },
            running: vec![None; jobs.len()],
            ends: EventQueue::new(),
            overruns: EventQueue::new(),
            next_start: None,
            outcomes: vec![None; jobs.len()],
            now: origin,
        }
    }

    fn run(&mut self) -> Result<(), SimError> {
        let mut next = 0;
        loop {
            let t_sub = self.jobs.get(next).map(|j| j.submit);
            let t_over = self.overruns.peek_time();
            let t_end = self.ends.peek_time();
            let t_start = self.next_start;
            // Tie order at one instant: prediction over, submission,
            // termination, start.
            let earliest = [t_over, t_sub, t_end, t_start].into_iter().flatten().min();
            let Some(t) = earliest else { break };
            self.now = t;
            self.observer.step(t);
            self.profile.advance(t);
            if t_over == Some(t) {
                // Every expired prediction at this instant before any decision:
                // the scheduler must not hand out processors still in use.
                while self.overruns.peek_time() == Some(t) {
                    let (_, j) = self.overruns.pop().expect("peeked");
                    self.prediction_over(j)?;
                }
            } else if t_sub == Some(t) {
                self.submit(next)?;
                next += 1;
            } else if t_end == Some(t) {
                let (_, j) = self.ends.pop().expect("peeked");
                self.terminate(j)?;
            }
            // Otherwise a reserved start is due: the pass below starts it.
            self.schedule()?;
        }
        Ok(())
    }

    /// `start + duration` for job `j`, or [`SimError::BeyondLatest`] if that
    /// passes [`Time::LATEST`]. Every time the simulation stores is at most
    /// `LATEST` and every duration at most `MAX_DURATION`, so the sum is exact.
    #[inline]
    fn end_of(&self, j: usize, start: Time, duration: i64) -> Result<Time, SimError> {
        let end = Time(start.0 + duration);
        if end > Time::LATEST {
            return Err(self.beyond_latest(j, end));
        }
        Ok(end)
    }

    #[cold]
    #[inline(never)]
    fn beyond_latest(&self, j: usize, end: Time) -> SimError {
        SimError::BeyondLatest {
            index: j,
            id: self.jobs[j].id,
            end,
        }
    }

    fn submit(&mut self, j: usize) -> Result<(), SimError> {
        let job = &self.jobs[j];
        let pos = match self.config.order {
            QueueOrder::Arrival => self.queue.len(),
            ref order => {
                // After every waiting job that is not strictly behind `job`.
                let jobs = self.jobs;
                self.queue
                    .partition_point(|&w| order.compare(&jobs[w], job).is_le())
            }
        };
        self.queue.insert(pos, j);
        if self.config.policy == Policy::Conservative {
            let start = self.place(j)?;
            self.reserved[j] = start;
        }
        Ok(())
    }

    fn terminate(&mut self, j: usize) -> Result<(), SimError> {
        let run = self.running[j].take().expect("only running jobs end");
        let job = &self.jobs[j];
        if run.predicted_end > self.now {
            // Ended before the scheduler expected: free the unused tail.
            self.profile
                .release(self.now, run.predicted_end - self.now, job.procs)
                .expect("a running job's tail is reserved");
            if self.config.policy == Policy::Conservative {
                self.compress(false)?;
            }
        }
        Ok(())
    }

    /// Overrun::Continue: the job outlived its prediction; extend it.
    fn prediction_over(&mut self, j: usize) -> Result<(), SimError> {
        let job = &self.jobs[j];
        if self.running[j].is_none() {
            return Ok(());
        }
        let new_end = self.end_of(j, self.now, job.estimate)?;
        if let Some(run) = self.running[j].as_mut() {
            run.predicted_end = new_end;
        }
        self.overruns.push(new_end, j);
        let conservative = self.config.policy == Policy::Conservative;
        if conservative {
            // Lift every reservation, extend the job, then re-place all.
            for &w in &self.queue {
                let job = &self.jobs[w];
                self.profile
                    .release(self.reserved[w], job.estimate, job.procs)
                    .expect("reserved");
            }
        }
        self.profile
            .reserve(self.now, job.estimate, job.procs)
            .expect("running job fits");
        if conservative {
            self.compress(true)?;
        }
        Ok(())
    }

    /// Conservative: re-place every waiting job, in queue order, at its
    /// earliest slot. With `lifted`, the reservations were already removed.
    fn compress(&mut self, lifted: bool) -> Result<(), SimError> {
        let now = self.now;
        for k in 0..self.queue.len() {
            let w = self.queue[k];
            let job = &self.jobs[w];
            let old = self.reserved[w];
            if !lifted {
                if old <= now {
                    continue;
                }
                // It can only move if `procs` are free somewhere before `old`
                // (its own reservation does not cover [now, old)).
                if self.profile.max_free(now, old) < job.procs {
                    continue;
                }
                self.profile
                    .release(old, job.estimate, job.procs)
                    .expect("reserved");
            }
            let start = self.place(w)?;
            debug_assert!(lifted || start <= old, "compression never postpones");
            self.reserved[w] = start;
        }
        Ok(())
    }

    /// Conservative: reserve job `j` at its earliest slot and report it.
    fn place(&mut self, j: usize) -> Result<Time, SimError> {
        let job = &self.jobs[j];
        // Some: the width was checked and every reservation ends by LATEST.
        let start = self
            .profile
            .earliest_start(self.now, job.procs, job.estimate)
            .expect("width was checked");
        self.end_of(j, start, job.estimate)?;
        self.profile
            .reserve(start, job.estimate, job.procs)
            .expect("earliest slot is free");
        self.observer.reserved(self.now, j, start);
        Ok(start)
    }

    fn schedule(&mut self) -> Result<(), SimError> {
        if self.config.drop_expired {
            self.drop_expired()?;
        }
        match self.config.policy {
            Policy::Fcfs => self.fcfs_pass(),
            Policy::Easy { reservations } => self.easy_pass(reservations),
            Policy::Conservative => self.conservative_pass(),
        }
    }

    fn drop_expired(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let jobs = self.jobs;
        let before = self.queue.len();
        let mut k = 0;
        while k < self.queue.len() {
            let w = self.queue[k];
            let job = &jobs[w];
            if job.deadline.is_some_and(|d| now + job.estimate > d) {
                self.queue.remove(k);
                if self.config.policy == Policy::Conservative {
                    self.profile
                        .release(self.reserved[w], job.estimate, job.procs)
                        .expect("reserved");
                }
                self.outcomes[w] = Some(Outcome {
                    id: job.id,
                    start: now,
                    end: now,
                    status: Status::Dropped,
                });
            } else {
                k += 1;
            }
        }
        if self.config.policy == Policy::Conservative && self.queue.len() < before {
            self.compress(false)?;
        }
        Ok(())
    }

    /// Starts job `j` now; its profile reservation must already be in place.
    #[inline]
    fn start(&mut self, j: usize) -> Result<(), SimError> {
        let job = &self.jobs[j];
        let now = self.now;
        let killed = self.config.overrun == Overrun::Kill && job.run_time > job.estimate;
        let end = self.end_of(j, now, if killed { job.estimate } else { job.run_time })?;
        let predicted_end = self.end_of(j, now, job.estimate)?;
        self.running[j] = Some(Running { predicted_end });
        self.ends.push(end, j);
        if self.config.overrun == Overrun::Continue && job.run_time > job.estimate {
            self.overruns.push(predicted_end, j);
        }
        let status = if killed {
            Status::Killed
        } else {
            Status::Completed
        };
        self.outcomes[j] = Some(Outcome {
            id: job.id,
            start: now,
            end,
            status,
        });
        self.observer.started(now, j);
        Ok(())
    }

    fn fcfs_pass(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let mut started = 0;
        for k in 0..self.queue.len() {
            let j = self.queue[k];
            let job = &self.jobs[j];
            if self.profile.earliest_start(now, job.procs, job.estimate) != Some(now) {
                break;
            }
            self.end_of(j, now, job.estimate)?;
            self.profile
                .reserve(now, job.estimate, job.procs)
                .expect("fits now");
            self.start(j)?;
            started += 1;
        }
        self.queue.drain(..started);
        Ok(())
    }

    fn easy_pass(&mut self, reservations: u32) -> Result<(), SimError> {
        let now = self.now;
        let mut free_now = self.profile.free_at(now);
        if self.queue.is_empty() || free_now == 0 {
            return Ok(());
        }
        self.scratch.clone_from(&self.profile);
        let mut protected = 0u32;
        let mut k = 0;
        while k < self.queue.len() && free_now > 0 {
            let j = self.queue[k];
            let job = &self.jobs[j];
            let fits_now = job.procs <= free_now
                && self.scratch.earliest_start(now, job.procs, job.estimate) == Some(now);
            if fits_now {
                self.end_of(j, now, job.estimate)?;
                self.scratch
                    .reserve(now, job.estimate, job.procs)
                    .expect("fits now");
                self.profile
                    .reserve(now, job.estimate, job.procs)
                    .expect("fits now");
                free_now -= job.procs;
                self.queue.remove(k);
                self.start(j)?;
                continue;
            }
            if protected < reservations {
                // Some: the width was checked and every reservation ends by LATEST.
                let start = self
                    .scratch
                    .earliest_start(now, job.procs, job.estimate)
                    .expect("width checked");
                self.end_of(j, start, job.estimate)?;
                self.scratch
                    .reserve(start, job.estimate, job.procs)
                    .expect("earliest slot is free");
                self.observer.reserved(now, j, start);
                protected += 1;
            }
            k += 1;
        }
        Ok(())
    }

    /// Starts every job whose reservation is due and notes the next one.
    fn conservative_pass(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let mut next = None;
        let mut k = 0;
        while k < self.queue.len() {
            let j = self.queue[k];
            let at = self.reserved[j];
            if at <= now {
                self.queue.remove(k);
                self.start(j)?;
            } else {
                next = Some(next.map_or(at, |n: Time| n.min(at)));
                k += 1;
            }
        }
        self.next_start = next;
        Ok(())
    }
}
