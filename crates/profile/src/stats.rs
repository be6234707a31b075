//! Summary metrics of a simulated schedule.

use crate::{Job, Outcome, Status, Violation};

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
    ///
    /// The pairing is checked as [`validate`](crate::validate) checks it:
    /// [`Violation::Length`] if the slices differ in length,
    /// [`Violation::WrongId`] if outcome `i` names another job than job
    /// `i`, and [`Violation::OverCapacity`] if a job ran on a machine of
    /// `capacity` 0 (its utilisation would be infinite). The rest of the
    /// schedule is not validated: call `validate` for that (on a schedule
    /// it accepts, `utilization` lies in [0, 1]).
    ///
    /// ```
    /// use profile::{simulate, Job, Policy, ScheduleStats, SchedulerConfig, Time, Violation};
    ///
    /// let jobs = [Job::new(1, Time(0), 2, 10, 10), Job::new(2, Time(0), 2, 10, 10)];
    /// let outcomes = simulate(&SchedulerConfig::new(4, Policy::Fcfs), &jobs)?;
    /// assert_eq!(ScheduleStats::compute(&jobs, &outcomes, 4, 10)?.utilization, 1.0);
    /// assert_eq!(
    ///     ScheduleStats::compute(&jobs, &outcomes[..1], 4, 10),
    ///     Err(Violation::Length { jobs: 2, outcomes: 1 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compute(
        jobs: &[Job],
        outcomes: &[Outcome],
        capacity: u32,
        bound: i64,
    ) -> Result<ScheduleStats, Violation> {
        if jobs.len() != outcomes.len() {
            return Err(Violation::Length {
                jobs: jobs.len(),
                outcomes: outcomes.len(),
            });
        }
        let mut s = ScheduleStats {
            jobs: jobs.len(),
            ..ScheduleStats::default()
        };
        let (mut wait, mut bsld, mut busy) = (0.0, 0.0, 0.0);
        let first = jobs.iter().map(|j| j.submit).min();
        let mut last_end = first;
        for (index, (job, out)) in jobs.iter().zip(outcomes).enumerate() {
            if job.id != out.id {
                return Err(Violation::WrongId { index });
            }
            if capacity == 0 && out.status != Status::Dropped && job.procs > 0 {
                return Err(Violation::OverCapacity {
                    at: out.start,
                    busy: u64::from(job.procs),
                    capacity,
                });
            }
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
        Ok(s)
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
        let s = ScheduleStats::compute(&jobs, &outs, 4, 10).unwrap();
        assert_eq!(s.mean_wait, 5.0);
        // Job 2: response 14 over max(4, 10) = 1.4; job 1: 1.0.
        assert!((s.mean_bounded_slowdown - 1.2).abs() < 1e-12);
        assert_eq!(s.makespan, 14);
        assert!((s.utilization - 28.0 / 56.0).abs() < 1e-12);
    }

    /// Outcomes that do not pair with the jobs, and a machine of no
    /// processors, are the errors `validate` gives, never wrong metrics.
    #[test]
    fn unpaired_outcomes_and_no_capacity_are_errors() {
        let jobs = [
            Job::new(1, Time(0), 2, 10, 10),
            Job::new(2, Time(0), 2, 10, 10),
            Job::new(3, Time(5), 4, 10, 10),
        ];
        let outs =
            crate::simulate(&crate::SchedulerConfig::new(4, crate::Policy::Fcfs), &jobs).unwrap();
        assert!(ScheduleStats::compute(&jobs, &outs, 4, 10).is_ok());
        for n in [0, 1, 2] {
            let expected = Err(Violation::Length {
                jobs: 3,
                outcomes: n,
            });
            assert_eq!(ScheduleStats::compute(&jobs, &outs[..n], 4, 10), expected);
            assert_eq!(crate::validate(4, &jobs, &outs[..n]), expected.map(|_| ()));
        }
        let extra = [&outs[..], &outs[..1]].concat();
        assert!(matches!(
            ScheduleStats::compute(&jobs, &extra, 4, 10),
            Err(Violation::Length {
                jobs: 3,
                outcomes: 4
            })
        ));
        let swapped = [outs[1], outs[0], outs[2]];
        assert_eq!(
            ScheduleStats::compute(&jobs, &swapped, 4, 10),
            Err(Violation::WrongId { index: 0 })
        );
        assert_eq!(
            ScheduleStats::compute(&jobs, &outs, 0, 10),
            Err(Violation::OverCapacity {
                at: outs[0].start,
                busy: 2,
                capacity: 0
            })
        );
        // Nothing ran: no capacity is used, and none is needed.
        let none: [Job; 0] = [];
        let s = ScheduleStats::compute(&none, &[], 0, 10).unwrap();
        assert_eq!((s.jobs, s.utilization), (0, 0.0));
    }
}
