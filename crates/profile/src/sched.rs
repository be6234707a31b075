//! The backfilling simulator: FCFS, EASY with k reservations, conservative.
//!
//! Event handling at one instant follows pyss, the Feitelson lab's reference
//! simulator: expired predictions first (only with [`Overrun::Continue`]),
//! then every submission at that instant (each followed by a scheduling
//! pass), then every termination (each followed by a scheduling pass).

use std::fmt;

use crate::runs::{Earlier, Runs};
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
    let mut outcomes = vec![None; jobs.len()];
    simulate_stream(config, jobs.iter().cloned(), observer, |index, outcome| {
        outcomes[index] = Some(outcome);
    })?;
    Ok(outcomes
        .into_iter()
        .map(|o| o.expect("every job ends exactly once"))
        .collect())
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
    if config.capacity == 0 {
        return Err(SimError::NoCapacity);
    }
    let mut input = Input::new(jobs.into_iter());
    let first = input.next(config)?;
    let origin = first.as_ref().map_or(Time::ZERO, |j| j.submit);
    let mut sim = Sim {
        config,
        observer,
        on_outcome,
        profile: Profile::new(config.capacity, origin),
        runs: Runs::default(),
        protected: Vec::new(),
        live: Vec::new(),
        vacant: Vec::new(),
        queue: Vec::new(),
        ends: EventQueue::new(),
        overruns: EventQueue::new(),
        next_start: None,
        now: origin,
    };
    sim.run(first, &mut input)?;
    Ok(input.read)
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
    if config.capacity == 0 {
        return Err(SimError::NoCapacity);
    }
    let mut input = Input::new(jobs.iter().cloned());
    while input.next(config)?.is_some() {}
    Ok(())
}

/// The jobs still to be read, and what checking them needs to know about
/// the ones read before.
struct Input<I> {
    jobs: I,
    /// Jobs read so far: the next one's position.
    read: usize,
    /// The submit time of the last job read.
    last: Time,
    /// Under [`Overrun::Continue`], the extensions the jobs read so far need.
    extensions: u64,
}

impl<I: Iterator<Item = Job>> Input<I> {
    fn new(jobs: I) -> Self {
        Input {
            jobs,
            read: 0,
            last: Time(i64::MIN),
            extensions: 0,
        }
    }

    /// The next job, checked against the model's domain, the machine, the
    /// submit order and the extension budget; `None` at the end.
    fn next(&mut self, config: &SchedulerConfig) -> Result<Option<Job>, SimError> {
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

/// A job in the system (waiting or running), in a slot of [`Sim::live`].
/// Slots are reused as jobs leave, so the slots in use stay few and close
/// together however long the input.
#[derive(Clone, Debug)]
struct Live {
    job: Job,
    /// Its position in the input.
    index: usize,
    /// Conservative, waiting: its reserved start.
    reserved: Time,
    /// Running: when the scheduler believes it will end (start + estimate,
    /// possibly extended).
    predicted_end: Option<Time>,
}

/// EASY: the first protected reservation of a pass, held aside from the
/// profile (see `Sim::fits_now`).
#[derive(Copy, Clone, Debug)]
struct Held {
    start: Time,
    duration: i64,
    procs: u32,
    /// Processors free at `start`, this reservation aside: kept up to date as
    /// the pass starts jobs.
    free: u32,
}

struct Sim<'a, F> {
    config: &'a SchedulerConfig,
    observer: &'a mut dyn Observer,
    on_outcome: F,
    /// Running jobs by predicted end (EASY, FCFS) or running jobs plus every
    /// waiting job's reservation (conservative).
    profile: Profile,
    /// Conservative: the runs of free capacity a compression pass has
    /// looked at since the profile last changed.
    runs: Runs,
    /// EASY: the reservations `(start, duration, procs)` of the protected
    /// jobs entered in the profile during one pass.
    protected: Vec<(Time, i64, u32)>,
    /// The jobs in the system, by slot; a slot is reused once its job ends.
    live: Vec<Live>,
    /// Free slots of `live`.
    vacant: Vec<usize>,
    /// Waiting jobs (slots) in queue order.
    queue: Vec<usize>,
    /// Ends of running jobs (their slots).
    ends: EventQueue<usize>,
    /// Expiring predictions: slot and input position (a job may end, and its
    /// slot be reused, before its last prediction expires).
    overruns: EventQueue<(usize, usize)>,
    /// Conservative: the earliest reserved start after now among waiting jobs.
    next_start: Option<Time>,
    now: Time,
}

impl<F: FnMut(usize, Outcome)> Sim<'_, F> {
    fn run<I: Iterator<Item = Job>>(
        &mut self,
        mut next: Option<Job>,
        input: &mut Input<I>,
    ) -> Result<(), SimError> {
        loop {
            let t_sub = next.as_ref().map(|j| j.submit);
            let t_over = self.overruns.peek_time();
            let t_end = self.ends.peek_time();
            let t_start = self.next_start;
            // Tie order at one instant: prediction over, submission,
            // termination, start.
            let earliest = Time::earliest(
                Time::earliest(t_over, t_sub),
                Time::earliest(t_end, t_start),
            );
            let Some(t) = earliest else { break };
            self.now = t;
            self.observer.step(t);
            self.profile.advance(t);
            if t_over == Some(t) {
                // Every expired prediction at this instant before any decision:
                // the scheduler must not hand out processors still in use.
                while self.overruns.peek_time() == Some(t) {
                    let (_, (slot, index)) = self.overruns.pop().expect("peeked");
                    self.prediction_over(slot, index)?;
                }
            } else if t_sub == Some(t) {
                let job = next.take().expect("peeked");
                self.submit(job, input.read - 1)?;
                next = input.next(self.config)?;
            } else if t_end == Some(t) {
                let (_, slot) = self.ends.pop().expect("peeked");
                self.terminate(slot)?;
            }
            // Otherwise a reserved start is due: the pass below starts it.
            self.schedule()?;
        }
        Ok(())
    }

    /// `start + duration` for the job in `slot`, or [`SimError::BeyondLatest`]
    /// if that passes [`Time::LATEST`]. Every time the simulation stores is at
    /// most `LATEST` and every duration at most `MAX_DURATION`, so the sum is
    /// exact.
    #[inline]
    fn end_of(&self, slot: usize, start: Time, duration: i64) -> Result<Time, SimError> {
        let end = Time(start.0 + duration);
        if end > Time::LATEST {
            return Err(self.beyond_latest(slot, end));
        }
        Ok(end)
    }

    #[cold]
    #[inline(never)]
    fn beyond_latest(&self, slot: usize, end: Time) -> SimError {
        let live = &self.live[slot];
        SimError::BeyondLatest {
            index: live.index,
            id: live.job.id,
            end,
        }
    }

    fn submit(&mut self, job: Job, index: usize) -> Result<(), SimError> {
        let pos = match self.config.order {
            QueueOrder::Arrival => self.queue.len(),
            ref order => {
                // After every waiting job that is not strictly behind `job`.
                let live = &self.live;
                self.queue
                    .partition_point(|&w| order.compare(&live[w].job, &job).is_le())
            }
        };
        let live = Live {
            job,
            index,
            reserved: Time::MAX,
            predicted_end: None,
        };
        let slot = match self.vacant.pop() {
            Some(slot) => {
                self.live[slot] = live;
                slot
            }
            None => {
                self.live.push(live);
                self.live.len() - 1
            }
        };
        self.queue.insert(pos, slot);
        if self.config.policy == Policy::Conservative {
            self.live[slot].reserved = self.place(slot)?;
        }
        Ok(())
    }

    /// Frees the slot of a job that ended or was dropped.
    fn leave(&mut self, slot: usize) {
        self.live[slot].predicted_end = None;
        self.vacant.push(slot);
    }

    fn terminate(&mut self, slot: usize) -> Result<(), SimError> {
        let live = &self.live[slot];
        let predicted_end = live.predicted_end.expect("only running jobs end");
        let procs = live.job.procs;
        self.leave(slot);
        if predicted_end > self.now {
            // Ended before the scheduler expected: free the unused tail.
            self.profile
                .release(self.now, predicted_end - self.now, procs)
                .expect("a running job's tail is reserved");
            if self.config.policy == Policy::Conservative {
                self.compress(false)?;
            }
        }
        Ok(())
    }

    /// Overrun::Continue: the job outlived its prediction; extend it.
    fn prediction_over(&mut self, slot: usize, index: usize) -> Result<(), SimError> {
        let live = &self.live[slot];
        if live.index != index || live.predicted_end.is_none() {
            // It has ended (and its slot may hold another job).
            return Ok(());
        }
        let (estimate, procs) = (live.job.estimate, live.job.procs);
        let new_end = self.end_of(slot, self.now, estimate)?;
        self.live[slot].predicted_end = Some(new_end);
        self.overruns.push(new_end, (slot, index));
        let conservative = self.config.policy == Policy::Conservative;
        if conservative {
            // Lift every reservation, extend the job, then re-place all.
            for &w in &self.queue {
                let live = &self.live[w];
                self.profile
                    .release(live.reserved, live.job.estimate, live.job.procs)
                    .expect("reserved");
            }
        }
        self.profile
            .reserve(self.now, estimate, procs)
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
        self.runs.clear(&self.profile, now);
        for k in 0..self.queue.len() {
            let w = self.queue[k];
            if lifted {
                self.live[w].reserved = self.place(w)?;
                continue;
            }
            let live = &self.live[w];
            let (old, procs, estimate) = (live.reserved, live.job.procs, live.job.estimate);
            if old <= now {
                continue;
            }
            // Lifting and re-placing the reservation, without doing either.
            // It can only move if `procs` are free somewhere before `old`;
            // only then is it (re-)placed, possibly where it was.
            let start = match self.runs.earlier_start(&self.profile, procs, estimate, old) {
                Earlier::NoRoom => continue,
                Earlier::Stays => old,
                Earlier::At(start) => {
                    // Ends before `old + estimate`, which is within LATEST.
                    self.profile.shift_earlier(old, start, estimate, procs);
                    // The runs found so far were those of the old profile.
                    self.runs.clear(&self.profile, now);
                    self.live[w].reserved = start;
                    start
                }
            };
            self.observer.reserved(now, self.live[w].index, start);
        }
        Ok(())
    }

    /// Conservative: reserve the waiting job in `slot` at its earliest slot
    /// and report it.
    fn place(&mut self, slot: usize) -> Result<Time, SimError> {
        let live = &self.live[slot];
        let (procs, estimate, index) = (live.job.procs, live.job.estimate, live.index);
        // Some: the width was checked and every reservation ends by LATEST.
        let start = self
            .profile
            .earliest_start(self.now, procs, estimate)
            .expect("width was checked");
        self.end_of(slot, start, estimate)?;
        self.profile
            .reserve(start, estimate, procs)
            .expect("earliest slot is free");
        self.observer.reserved(self.now, index, start);
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
        let before = self.queue.len();
        let mut k = 0;
        while k < self.queue.len() {
            let w = self.queue[k];
            let live = &self.live[w];
            let job = &live.job;
            if job.deadline.is_some_and(|d| now + job.estimate > d) {
                let (id, index, reserved) = (job.id, live.index, live.reserved);
                let (estimate, procs) = (job.estimate, job.procs);
                self.queue.remove(k);
                if self.config.policy == Policy::Conservative {
                    self.profile
                        .release(reserved, estimate, procs)
                        .expect("reserved");
                }
                self.leave(w);
                (self.on_outcome)(
                    index,
                    Outcome {
                        id,
                        start: now,
                        end: now,
                        status: Status::Dropped,
                    },
                );
            } else {
                k += 1;
            }
        }
        if self.config.policy == Policy::Conservative && self.queue.len() < before {
            self.compress(false)?;
        }
        Ok(())
    }

    /// Starts the waiting job in `slot` now; its profile reservation must
    /// already be in place (and the caller takes it off the queue).
    #[inline]
    fn start(&mut self, slot: usize) -> Result<(), SimError> {
        let live = &self.live[slot];
        let now = self.now;
        let (id, index) = (live.job.id, live.index);
        let (estimate, run_time) = (live.job.estimate, live.job.run_time);
        let killed = self.config.overrun == Overrun::Kill && run_time > estimate;
        let end = self.end_of(slot, now, if killed { estimate } else { run_time })?;
        let predicted_end = self.end_of(slot, now, estimate)?;
        self.live[slot].predicted_end = Some(predicted_end);
        self.ends.push(end, slot);
        if self.config.overrun == Overrun::Continue && run_time > estimate {
            self.overruns.push(predicted_end, (slot, index));
        }
        let status = if killed {
            Status::Killed
        } else {
            Status::Completed
        };
        (self.on_outcome)(
            index,
            Outcome {
                id,
                start: now,
                end,
                status,
            },
        );
        self.observer.started(now, index);
        Ok(())
    }

    /// Whether `procs` processors are free over `[now, now + estimate)`
    /// beside the `held` reservation (FCFS and EASY).
    ///
    /// These passes keep in the profile only running jobs, each from its
    /// start (or its latest extension) on, plus, under EASY with `k >= 2`,
    /// the protected reservations of the pass. Without the latter, every
    /// reservation starts at or before now, so the free count never falls
    /// after now: the count now decides, and where the held reservation
    /// overlaps, the count at its start.
    /// `free_now` is the profile's free count now.
    #[inline]
    fn fits_now(&self, procs: u32, estimate: i64, free_now: u32, held: Option<&Held>) -> bool {
        let now = self.now;
        let window = held.map(|h| (h.start, h.duration, h.procs));
        if !self.protected.is_empty() {
            return self.profile.fits(now, procs, estimate, window);
        }
        debug_assert_eq!(free_now, self.profile.free_at(now));
        let fits = procs <= free_now
            && held.is_none_or(|h| {
                now + estimate <= h.start
                    || procs
                        .checked_add(h.procs)
                        .is_some_and(|need| h.free >= need)
            });
        debug_assert_eq!(fits, self.profile.fits(now, procs, estimate, window));
        fits
    }

    fn fcfs_pass(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let mut started = 0;
        for k in 0..self.queue.len() {
            let w = self.queue[k];
            let job = &self.live[w].job;
            let (procs, estimate) = (job.procs, job.estimate);
            if !self.fits_now(procs, estimate, self.profile.free_at(now), None) {
                break;
            }
            self.end_of(w, now, estimate)?;
            self.profile
                .reserve(now, estimate, procs)
                .expect("fits now");
            self.start(w)?;
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
        // The protected jobs' reservations hold for this pass only: the first
        // is held aside (`fits_now` counts it), any further ones go into the
        // profile, with the first, and are lifted at the end of the pass.
        // Either way, what fits now is what fits beside all of them.
        debug_assert!(self.protected.is_empty());
        let mut held = None;
        let mut k = 0;
        while k < self.queue.len() && free_now > 0 {
            let w = self.queue[k];
            let job = &self.live[w].job;
            let (procs, estimate) = (job.procs, job.estimate);
            if self.fits_now(procs, estimate, free_now, held.as_ref()) {
                self.end_of(w, now, estimate)?;
                self.profile
                    .reserve(now, estimate, procs)
                    .expect("fits now");
                free_now -= procs;
                if let Some(h) = held.as_mut().filter(|h| now + estimate > h.start) {
                    h.free -= procs;
                }
                self.queue.remove(k);
                self.start(w)?;
                continue;
            }
            let protected = self.protected.len() + usize::from(held.is_some());
            if (protected as u64) < u64::from(reservations) {
                if let Some(h) = held.take() {
                    self.profile
                        .reserve(h.start, h.duration, h.procs)
                        .expect("earliest slot is free");
                    self.protected.push((h.start, h.duration, h.procs));
                }
                // Some: the width was checked and every reservation ends by LATEST.
                let start = self
                    .profile
                    .earliest_start(now, procs, estimate)
                    .expect("width checked");
                self.end_of(w, start, estimate)?;
                if self.protected.is_empty() {
                    held = Some(Held {
                        start,
                        duration: estimate,
                        procs,
                        free: self.profile.free_at(start),
                    });
                } else {
                    self.profile
                        .reserve(start, estimate, procs)
                        .expect("earliest slot is free");
                    self.protected.push((start, estimate, procs));
                }
                self.observer.reserved(now, self.live[w].index, start);
            }
            k += 1;
        }
        for (start, duration, procs) in self.protected.drain(..) {
            self.profile
                .release(start, duration, procs)
                .expect("reserved in this pass");
        }
        Ok(())
    }

    /// Starts every job whose reservation is due and notes the next one.
    fn conservative_pass(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let mut next = None;
        let mut k = 0;
        while k < self.queue.len() {
            let w = self.queue[k];
            let at = self.live[w].reserved;
            if at <= now {
                self.queue.remove(k);
                self.start(w)?;
            } else {
                next = Some(next.map_or(at, |n: Time| n.min(at)));
                k += 1;
            }
        }
        self.next_start = next;
        Ok(())
    }
}
