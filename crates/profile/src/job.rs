//! Rigid parallel jobs and what happened to them in a schedule.

use crate::Time;

/// A rigid parallel job as a backfilling scheduler sees it.
///
/// `estimate` drives reservations and backfilling decisions; `run_time` is
/// what the job really needs. Both are seconds. A job whose `run_time`
/// exceeds its `estimate` is killed at the estimate unless the scheduler is
/// configured with [`Overrun::Continue`](crate::Overrun::Continue).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    /// Caller's identifier (an SWF job number, say); echoed in [`Outcome`].
    pub id: u64,
    /// When the job enters the waiting queue.
    pub submit: Time,
    /// Processors used for the whole run; at least 1.
    pub procs: u32,
    /// The user's run-time estimate in seconds; at least 1.
    pub estimate: i64,
    /// The actual run time in seconds; at least 0.
    pub run_time: i64,
    /// Optional deadline, used by [`QueueOrder::EarliestDeadline`](crate::QueueOrder)
    /// and by `drop_expired`.
    pub deadline: Option<Time>,
}

impl Job {
    /// A job without a deadline.
    pub fn new(id: u64, submit: Time, procs: u32, estimate: i64, run_time: i64) -> Job {
        Job {
            id,
            submit,
            procs,
            estimate,
            run_time,
            deadline: None,
        }
    }

    /// The same job with a deadline.
    pub fn with_deadline(mut self, deadline: Time) -> Job {
        self.deadline = Some(deadline);
        self
    }
}

/// How a job left the system.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Ran its full run time.
    Completed,
    /// Ran until its estimate and was killed there (run time > estimate).
    Killed,
    /// Never started: it was removed from the queue when its deadline could
    /// no longer be met (only with `drop_expired`). `start == end ==` drop time.
    Dropped,
}

/// The simulated fate of one job: the `i`-th outcome belongs to the `i`-th input job.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The job's `id`.
    pub id: u64,
    /// When it started (drop time for dropped jobs).
    pub start: Time,
    /// When it ended.
    pub end: Time,
    /// Completed, killed or dropped.
    pub status: Status,
}

impl Outcome {
    /// Seconds spent waiting in the queue.
    pub fn wait(&self, job: &Job) -> i64 {
        self.start - job.submit
    }

    /// Bounded slowdown with the given bound on the run time (10 s is usual):
    /// `max(1, (wait + run) / max(run, bound))`.
    pub fn bounded_slowdown(&self, job: &Job, bound: i64) -> f64 {
        let run = self.end - self.start;
        let response = self.end - job.submit;
        (response as f64 / run.max(bound) as f64).max(1.0)
    }
}
