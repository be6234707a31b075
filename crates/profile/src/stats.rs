//! Summary metrics of a simulated schedule.

use crate::{Job, Outcome, Status};

/// Aggregate metrics of one schedule, over the jobs that ran (completed or killed).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ScheduleStats {
    /// Jobs in the input.
    pub jobs: usize,
    /// Jobs that ran their full run time.
    pub completed: usize,
    /// Jobs killed at their estimate.
    pub killed: usize,
    /// Jobs dropped from the queue without running.
    pub dropped: usize,
    /// Mean wait in seconds over jobs that ran.
    pub mean_wait: f64,
    /// Mean bounded slowdown over jobs that ran.
    pub mean_bounded_slowdown: f64,
    /// Busy processor-seconds over `capacity × (last end − first submit)`, in [0, 1].
    pub utilization: f64,
    /// Seconds from the first submission to the last end.
    pub makespan: i64,
}

impl ScheduleStats {
    /// Computes the metrics; `bound` is the bounded-slowdown threshold in
    /// seconds (10 is the usual choice). Outcome `i` belongs to job `i`.
    pub fn compute(jobs: &[Job], outcomes: &[Outcome], capacity: u32, bound: i64) -> ScheduleStats {
        let mut s = ScheduleStats {
            jobs: jobs.len(),
            ..ScheduleStats::default()
        };
        let (mut wait, mut bsld, mut busy) = (0.0, 0.0, 0.0);
        let first = jobs.iter().map(|j| j.submit).min();
        let mut last_end = first;
        for (job, out) in jobs.iter().zip(outcomes) {
            match out.status {
                Status::Completed => s.completed += 1,
                Status::Killed => s.killed += 1,
                Status::Dropped => {
                    s.dropped += 1;
                    continue;
                }
            }
            wait += out.wait(job) as f64;
            bsld += out.bounded_slowdown(job, bound);
            busy += job.procs as f64 * (out.end - out.start) as f64;
            last_end = last_end.max(Some(out.end));
        }
        let ran = (s.completed + s.killed) as f64;
        if ran > 0.0 {
            s.mean_wait = wait / ran;
            s.mean_bounded_slowdown = bsld / ran;
        }
        if let (Some(first), Some(last)) = (first, last_end) {
            s.makespan = last - first;
            if s.makespan > 0 {
                s.utilization = busy / (capacity as f64 * s.makespan as f64);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Time;

    #[test]
    fn hand_computed_metrics() {
        let jobs = [
            Job::new(1, Time(0), 2, 10, 10),
            Job::new(2, Time(0), 2, 10, 4),
        ];
        let outs = [
            Outcome {
                id: 1,
                start: Time(0),
                end: Time(10),
                status: Status::Completed,
            },
            Outcome {
                id: 2,
                start: Time(10),
                end: Time(14),
                status: Status::Completed,
            },
        ];
        let s = ScheduleStats::compute(&jobs, &outs, 4, 10);
        assert_eq!(s.mean_wait, 5.0);
        // Job 2: response 14 over max(4, 10) = 1.4; job 1: 1.0.
        assert!((s.mean_bounded_slowdown - 1.2).abs() < 1e-12);
        assert_eq!(s.makespan, 14);
        assert!((s.utilization - 28.0 / 56.0).abs() < 1e-12);
    }
}
