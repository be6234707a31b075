//! The backfilling simulator: FCFS, EASY with k reservations, conservative.
//!
//! Event handling at one instant follows pyss, the Feitelson lab's reference
//! simulator: expired predictions first (only with [`Overrun::Continue`]),
//! then every submission at that instant (each followed by a scheduling
//! pass), then every termination (each followed by a scheduling pass).

use std::fmt;

use crate::{
    EventQueue, Job, Outcome, Overrun, Policy, Profile, QueueOrder, SchedulerConfig, Status, Time,
};

/// Why a simulation could not run. Input is checked before anything runs.
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
    /// A job asks for no processors or for more than the machine has.
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
    /// A job's estimate is below one second or its run time is negative.
    BadDuration {
        /// Position in the input.
        index: usize,
        /// Its id.
        id: u64,
        /// The estimate.
        estimate: i64,
        /// The run time.
        run_time: i64,
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
            SimError::BadDuration {
                index,
                id,
                estimate,
                run_time,
            } => write!(
                f,
                "job {id} (position {index}) has estimate {estimate} s and run time {run_time} s; the estimate must be at least 1 s and the run time at least 0 s"
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
}

/// An [`Observer`] that ignores everything.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoObserver;
impl Observer for NoObserver {}

/// Replays `jobs` (sorted by submit time) on the configured machine and
/// returns one [`Outcome`] per job, in input order.
pub fn simulate(config: &SchedulerConfig, jobs: &[Job]) -> Result<Vec<Outcome>, SimError> {
    simulate_observed(config, jobs, &mut NoObserver)
}

/// [`simulate`], reporting reservations and starts to `observer`.
pub fn simulate_observed(
    config: &SchedulerConfig,
    jobs: &[Job],
    observer: &mut dyn Observer,
) -> Result<Vec<Outcome>, SimError> {
    check_input(config.capacity, jobs)?;
    let mut sim = Sim::new(config, jobs, observer);
    sim.run();
    Ok(sim
        .outcomes
        .into_iter()
        .map(|o| o.expect("every job ends exactly once"))
        .collect())
}

fn check_input(capacity: u32, jobs: &[Job]) -> Result<(), SimError> {
    if capacity == 0 {
        return Err(SimError::NoCapacity);
    }
    let mut last = Time(i64::MIN);
    for (index, j) in jobs.iter().enumerate() {
        if j.submit < last {
            return Err(SimError::Unsorted { index, id: j.id });
        }
        last = j.submit;
        if j.procs == 0 || j.procs > capacity {
            return Err(SimError::BadWidth {
                index,
                id: j.id,
                procs: j.procs,
                capacity,
            });
        }
        if j.estimate < 1 || j.run_time < 0 {
            return Err(SimError::BadDuration {
                index,
                id: j.id,
                estimate: j.estimate,
                run_time: j.run_time,
            });
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

    fn run(&mut self) {
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
            self.profile.advance(t);
            if t_over == Some(t) {
                // Every expired prediction at this instant before any decision:
                // the scheduler must not hand out processors still in use.
                while self.overruns.peek_time() == Some(t) {
                    let (_, j) = self.overruns.pop().expect("peeked");
                    self.prediction_over(j);
                }
            } else if t_sub == Some(t) {
                self.submit(next);
                next += 1;
            } else if t_end == Some(t) {
                let (_, j) = self.ends.pop().expect("peeked");
                self.terminate(j);
            }
            // Otherwise a reserved start is due: the pass below starts it.
            self.schedule();
        }
    }

    fn submit(&mut self, j: usize) {
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
            let start = self.place(j);
            self.reserved[j] = start;
        }
    }

    fn terminate(&mut self, j: usize) {
        let run = self.running[j].take().expect("only running jobs end");
        let job = &self.jobs[j];
        if run.predicted_end > self.now {
            // Ended before the scheduler expected: free the unused tail.
            self.profile
                .release(self.now, run.predicted_end - self.now, job.procs)
                .expect("a running job's tail is reserved");
            if self.config.policy == Policy::Conservative {
                self.compress(false);
            }
        }
    }

    /// Overrun::Continue: the job outlived its prediction; extend it.
    fn prediction_over(&mut self, j: usize) {
        let job = &self.jobs[j];
        let Some(run) = self.running[j].as_mut() else {
            return;
        };
        let new_end = self.now + job.estimate;
        run.predicted_end = new_end;
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
            self.compress(true);
        }
    }

    /// Conservative: re-place every waiting job, in queue order, at its
    /// earliest slot. With `lifted`, the reservations were already removed.
    fn compress(&mut self, lifted: bool) {
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
            let start = self.place(w);
            debug_assert!(lifted || start <= old, "compression never postpones");
            self.reserved[w] = start;
        }
    }

    /// Conservative: reserve job `j` at its earliest slot and report it.
    fn place(&mut self, j: usize) -> Time {
        let job = &self.jobs[j];
        let start = self
            .profile
            .earliest_start(self.now, job.procs, job.estimate)
            .expect("width was checked");
        self.profile
            .reserve(start, job.estimate, job.procs)
            .expect("earliest slot is free");
        self.observer.reserved(self.now, j, start);
        start
    }

    fn schedule(&mut self) {
        if self.config.drop_expired {
            self.drop_expired();
        }
        match self.config.policy {
            Policy::Fcfs => self.fcfs_pass(),
            Policy::Easy { reservations } => self.easy_pass(reservations),
            Policy::Conservative => self.conservative_pass(),
        }
    }

    fn drop_expired(&mut self) {
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
            self.compress(false);
        }
    }

    /// Starts job `j` now; its profile reservation must already be in place.
    fn start(&mut self, j: usize) {
        let job = &self.jobs[j];
        let now = self.now;
        let killed = self.config.overrun == Overrun::Kill && job.run_time > job.estimate;
        let end = now + if killed { job.estimate } else { job.run_time };
        let predicted_end = now + job.estimate;
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
    }

    fn fcfs_pass(&mut self) {
        let now = self.now;
        let mut started = 0;
        for k in 0..self.queue.len() {
            let j = self.queue[k];
            let job = &self.jobs[j];
            if self.profile.earliest_start(now, job.procs, job.estimate) != Some(now) {
                break;
            }
            self.profile
                .reserve(now, job.estimate, job.procs)
                .expect("fits now");
            self.start(j);
            started += 1;
        }
        self.queue.drain(..started);
    }

    fn easy_pass(&mut self, reservations: u32) {
        let now = self.now;
        let mut free_now = self.profile.free_at(now);
        if self.queue.is_empty() || free_now == 0 {
            return;
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
                self.scratch
                    .reserve(now, job.estimate, job.procs)
                    .expect("fits now");
                self.profile
                    .reserve(now, job.estimate, job.procs)
                    .expect("fits now");
                free_now -= job.procs;
                self.queue.remove(k);
                self.start(j);
                continue;
            }
            if protected < reservations {
                let start = self
                    .scratch
                    .earliest_start(now, job.procs, job.estimate)
                    .expect("width checked");
                self.scratch
                    .reserve(start, job.estimate, job.procs)
                    .expect("earliest slot is free");
                self.observer.reserved(now, j, start);
                protected += 1;
            }
            k += 1;
        }
    }

    /// Starts every job whose reservation is due and notes the next one.
    fn conservative_pass(&mut self) {
        let now = self.now;
        let mut next = None;
        let mut k = 0;
        while k < self.queue.len() {
            let j = self.queue[k];
            let at = self.reserved[j];
            if at <= now {
                self.queue.remove(k);
                self.start(j);
            } else {
                next = Some(next.map_or(at, |n: Time| n.min(at)));
                k += 1;
            }
        }
        self.next_start = next;
    }
}
