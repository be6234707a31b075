//! Rigid parallel jobs and what happened to them in a schedule.

use std::fmt;

use crate::{MAX_DURATION, Time};

/// A rigid parallel job as a backfilling scheduler sees it.
///
/// `estimate` drives reservations and backfilling decisions; `run_time` is
/// what the job really needs. Both are seconds. A job whose `run_time`
/// exceeds its `estimate` is killed at the estimate unless the scheduler is
/// configured with [`Overrun::Continue`](crate::Overrun::Continue).
///
/// With the `serde` feature a job is written and read field by field
/// (`deadline` may be left out); reading checks the values as
/// [`Job::check`] does (a job outside the model's domain is not read, and
/// the error names the job, the field and the value).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "serde_raw::Job"))]
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
    #[cfg_attr(feature = "serde", serde(default))]
    pub deadline: Option<Time>,
}

impl Job {
    /// A job without a deadline, unchecked: any values are stored as given.
    ///
    /// [`Job::builder`] is the checked entry; [`simulate`](crate::simulate)
    /// and [`validate`](crate::validate) check jobs made here too, with
    /// [`Job::check`], and refuse out-of-range ones with an error.
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

    /// The checked entry: a builder with named fields whose
    /// [`build`](JobBuilder::build) returns an error for a missing field or
    /// a value outside the model's domain (see [`Job::check`]).
    ///
    /// ```
    /// use profile::{Job, JobError, JobField, Time};
    ///
    /// let job = Job::builder(7)
    ///     .submit(Time(60))
    ///     .procs(16)
    ///     .estimate(3600)
    ///     .run_time(1800)
    ///     .build()?;
    /// assert_eq!(job, Job::new(7, Time(60), 16, 3600, 1800));
    ///
    /// let zero = Job::builder(8).submit(Time(0)).procs(0).estimate(1).run_time(1).build();
    /// assert!(matches!(zero, Err(JobError::OutOfRange { field: JobField::Procs, .. })));
    /// # Ok::<(), JobError>(())
    /// ```
    pub fn builder(id: u64) -> JobBuilder {
        JobBuilder {
            id,
            submit: None,
            procs: None,
            estimate: None,
            run_time: None,
            deadline: None,
        }
    }

    /// The same job with a deadline.
    pub fn with_deadline(mut self, deadline: Time) -> Job {
        self.deadline = Some(deadline);
        self
    }

    /// Checks that every field lies in the model's domain: submit time and
    /// deadline in `[-LIMIT, LIMIT]` ([`Time::LIMIT`] = 2^40 s), at least one
    /// processor, an estimate in `[1, MAX_DURATION]` and a run time in
    /// `[0, MAX_DURATION]` ([`MAX_DURATION`] = 2^40 s). The first field out
    /// of range, in declaration order, is reported.
    pub fn check(&self) -> Result<(), JobError> {
        let range = |field, value: i64, min: i64, max: i64| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(JobError::OutOfRange {
                    id: self.id,
                    field,
                    value,
                    min,
                    max,
                })
            }
        };
        let limit = Time::LIMIT.secs();
        range(JobField::Submit, self.submit.secs(), -limit, limit)?;
        range(
            JobField::Procs,
            i64::from(self.procs),
            1,
            i64::from(u32::MAX),
        )?;
        range(JobField::Estimate, self.estimate, 1, MAX_DURATION)?;
        range(JobField::RunTime, self.run_time, 0, MAX_DURATION)?;
        if let Some(d) = self.deadline {
            range(JobField::Deadline, d.secs(), -limit, limit)?;
        }
        Ok(())
    }
}

/// The serde mirror of [`Job`]: read as plain data, then checked.
#[cfg(feature = "serde")]
mod serde_raw {
    use crate::Time;

    /// [`super::Job`] before its check.
    #[derive(serde::Deserialize)]
    pub struct Job {
        id: u64,
        submit: Time,
        procs: u32,
        estimate: i64,
        run_time: i64,
        #[serde(default)]
        deadline: Option<Time>,
    }

    impl TryFrom<Job> for super::Job {
        type Error = super::JobError;
        fn try_from(raw: Job) -> Result<Self, super::JobError> {
            let job = super::Job {
                id: raw.id,
                submit: raw.submit,
                procs: raw.procs,
                estimate: raw.estimate,
                run_time: raw.run_time,
                deadline: raw.deadline,
            };
            job.check()?;
            Ok(job)
        }
    }
}

/// Builds a [`Job`] from named fields; see [`Job::builder`]. Submit time,
/// processors, estimate and run time must be set; the deadline is optional.
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until `build` is called"]
pub struct JobBuilder {
    id: u64,
    submit: Option<Time>,
    procs: Option<u32>,
    estimate: Option<i64>,
    run_time: Option<i64>,
    deadline: Option<Time>,
}

impl JobBuilder {
    /// When the job enters the waiting queue.
    pub fn submit(mut self, submit: Time) -> Self {
        self.submit = Some(submit);
        self
    }

    /// Processors used for the whole run (at least 1).
    pub fn procs(mut self, procs: u32) -> Self {
        self.procs = Some(procs);
        self
    }

    /// The run-time estimate in seconds (at least 1).
    pub fn estimate(mut self, estimate: i64) -> Self {
        self.estimate = Some(estimate);
        self
    }

    /// The actual run time in seconds (at least 0).
    pub fn run_time(mut self, run_time: i64) -> Self {
        self.run_time = Some(run_time);
        self
    }

    /// An optional deadline.
    pub fn deadline(mut self, deadline: Time) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The job, or the first missing or out-of-range field (see [`Job::check`]).
    pub fn build(self) -> Result<Job, JobError> {
        let id = self.id;
        let missing = |field| JobError::Missing { id, field };
        let job = Job {
            id,
            submit: self.submit.ok_or(missing(JobField::Submit))?,
            procs: self.procs.ok_or(missing(JobField::Procs))?,
            estimate: self.estimate.ok_or(missing(JobField::Estimate))?,
            run_time: self.run_time.ok_or(missing(JobField::RunTime))?,
            deadline: self.deadline,
        };
        job.check()?;
        Ok(job)
    }
}

/// A field of a [`Job`], as errors name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JobField {
    /// [`Job::submit`].
    Submit,
    /// [`Job::procs`].
    Procs,
    /// [`Job::estimate`].
    Estimate,
    /// [`Job::run_time`].
    RunTime,
    /// [`Job::deadline`].
    Deadline,
}

impl JobField {
    /// The field's name in the code: `submit`, `procs`, `estimate`,
    /// `run_time`, `deadline`.
    pub fn name(self) -> &'static str {
        match self {
            JobField::Submit => "submit",
            JobField::Procs => "procs",
            JobField::Estimate => "estimate",
            JobField::RunTime => "run_time",
            JobField::Deadline => "deadline",
        }
    }
}

impl fmt::Display for JobField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a [`Job`] is not in the model's domain.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JobError {
    /// [`JobBuilder::build`] was called without setting a required field.
    Missing {
        /// The job's id.
        id: u64,
        /// The field not set.
        field: JobField,
    },
    /// A field lies outside its accepted range `[min, max]`.
    OutOfRange {
        /// The job's id.
        id: u64,
        /// The offending field.
        field: JobField,
        /// Its value (seconds, or processors).
        value: i64,
        /// The least accepted value.
        min: i64,
        /// The greatest accepted value.
        max: i64,
    },
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            JobError::Missing { id, field } => {
                write!(
                    f,
                    "job {id}: {field} is not set; call .{field}(..) before .build()"
                )
            }
            JobError::OutOfRange {
                id,
                field,
                value,
                min,
                max,
            } => {
                let (unit, what) = match field {
                    JobField::Procs => (" processors", "a job needs at least 1 processor"),
                    JobField::Submit | JobField::Deadline => (
                        " s",
                        "times must lie within 2^40 s (about 34,800 years) of the origin; rebase the workload or drop the job",
                    ),
                    JobField::Estimate => (
                        " s",
                        "the estimate must be at least 1 s and at most 2^40 s (about 34,800 years)",
                    ),
                    JobField::RunTime => (
                        " s",
                        "the run time must be at least 0 s and at most 2^40 s (about 34,800 years)",
                    ),
                };
                write!(
                    f,
                    "job {id}: {field} is {value}{unit}, outside [{min}, {max}]; {what}"
                )
            }
        }
    }
}

impl std::error::Error for JobError {}

/// How a job left the system. With the `serde` feature it is written as
/// `completed`, `killed` or `dropped`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// The outcome of `job` run over `[start, end)` on a machine that kills
    /// a job at its estimate (the papers' model): [`Status::Killed`] if its
    /// run time is longer than its estimate, [`Status::Completed`]
    /// otherwise. The end is taken as given; [`validate`](crate::validate)
    /// checks that it is the one the status implies.
    ///
    /// ```
    /// use profile::{Job, Outcome, Status, Time};
    ///
    /// let job = Job::new(7, Time(0), 2, 60, 90);
    /// let out = Outcome::ran(&job, Time(10), Time(70));
    /// assert_eq!(out.status, Status::Killed);
    /// assert!(profile::validate(4, &[job], &[out]).is_ok());
    /// ```
    pub fn ran(job: &Job, start: Time, end: Time) -> Outcome {
        let status = if job.run_time > job.estimate {
            Status::Killed
        } else {
            Status::Completed
        };
        Outcome {
            id: job.id,
            start,
            end,
            status,
        }
    }

    /// Seconds spent waiting in the queue.
    pub fn wait(&self, job: &Job) -> i64 {
        self.start - job.submit
    }

    /// Bounded slowdown with the given bound on the run time (10 s is usual):
    /// `max(1, (wait + run) / max(run, bound))`.
    ///
    /// The bound is a number of seconds of at least 1; a smaller one counts
    /// as 1, so the result is always a finite number of at least 1 (with a
    /// bound of 0 a job that ran 0 s gave NaN or infinity).
    pub fn bounded_slowdown(&self, job: &Job, bound: i64) -> f64 {
        let run = self.end - self.start;
        let response = self.end - job.submit;
        (response as f64 / run.max(bound).max(1) as f64).max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bound below 1 s counts as 1 s: no division by 0, whatever the times.
    #[test]
    fn bounded_slowdown_is_a_finite_number_for_any_bound() {
        let job = Job::new(1, Time(0), 1, 10, 0);
        let at = |start, end| Outcome {
            id: 1,
            start: Time(start),
            end: Time(end),
            status: Status::Completed,
        };
        for bound in [i64::MIN, -5, 0, 1] {
            assert_eq!(at(10, 10).bounded_slowdown(&job, bound), 10.0, "{bound}");
            assert_eq!(at(0, 0).bounded_slowdown(&job, bound), 1.0, "{bound}");
            assert_eq!(at(10, 5).bounded_slowdown(&job, bound), 5.0, "{bound}");
        }
        assert_eq!(at(10, 10).bounded_slowdown(&job, 10), 1.0);
        assert_eq!(at(10, 30).bounded_slowdown(&job, 10), 1.5);
    }

    /// `build()` of a builder with every field set from `(submit, procs, estimate, run)`.
    fn build(submit: i64, procs: u32, estimate: i64, run_time: i64) -> Result<Job, JobError> {
        Job::builder(1)
            .submit(Time(submit))
            .procs(procs)
            .estimate(estimate)
            .run_time(run_time)
            .build()
    }

    /// The field `build` rejects, or `None` if it accepts.
    fn rejected(submit: i64, procs: u32, estimate: i64, run_time: i64) -> Option<JobField> {
        match build(submit, procs, estimate, run_time) {
            Ok(job) => {
                assert_eq!(job, Job::new(1, Time(submit), procs, estimate, run_time));
                None
            }
            Err(JobError::OutOfRange { field, .. }) => Some(field),
            Err(e) => panic!("unexpected {e}"),
        }
    }

    /// `(submit, procs, estimate, run time)`.
    type Fields = (i64, u32, i64, i64);

    #[test]
    fn build_accepts_the_domain_and_rejects_its_outside() {
        let (lim, dur) = (Time::LIMIT.secs(), MAX_DURATION);
        let cases: &[(Fields, Option<JobField>)] = &[
            ((0, 1, 1, 0), None),
            ((lim, u32::MAX, dur, dur), None),
            ((-lim, 1, 1, 0), None),
            ((lim + 1, 1, 1, 0), Some(JobField::Submit)),
            ((-lim - 1, 1, 1, 0), Some(JobField::Submit)),
            ((i64::MAX, 1, 1, 0), Some(JobField::Submit)),
            ((i64::MIN, 1, 1, 0), Some(JobField::Submit)),
            ((0, 0, 1, 0), Some(JobField::Procs)),
            ((0, 1, 0, 0), Some(JobField::Estimate)),
            ((0, 1, -1, 0), Some(JobField::Estimate)),
            ((0, 1, dur + 1, 0), Some(JobField::Estimate)),
            ((0, 1, i64::MAX, 0), Some(JobField::Estimate)),
            ((0, 1, 1, -1), Some(JobField::RunTime)),
            ((0, 1, 1, dur + 1), Some(JobField::RunTime)),
            ((0, 1, 1, i64::MIN), Some(JobField::RunTime)),
        ];
        for &((s, p, e, r), want) in cases {
            assert_eq!(rejected(s, p, e, r), want, "({s}, {p}, {e}, {r})");
        }
    }

    #[test]
    fn build_names_missing_fields_and_bad_deadlines() {
        let err = Job::builder(3).submit(Time(0)).procs(1).run_time(5).build();
        assert_eq!(
            err,
            Err(JobError::Missing {
                id: 3,
                field: JobField::Estimate
            })
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "job 3: estimate is not set; call .estimate(..) before .build()"
        );
        let late = Job::builder(4)
            .submit(Time(0))
            .procs(1)
            .estimate(1)
            .run_time(1)
            .deadline(Time(i64::MAX))
            .build()
            .unwrap_err();
        assert!(matches!(
            late,
            JobError::OutOfRange {
                id: 4,
                field: JobField::Deadline,
                ..
            }
        ));
        assert_eq!(
            late.to_string(),
            "job 4: deadline is 9223372036854775807 s, outside [-1099511627776, 1099511627776]; \
             times must lie within 2^40 s (about 34,800 years) of the origin; rebase the workload or drop the job"
        );
    }
}
