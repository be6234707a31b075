//! A QoS workload (§VII-B): jobs with what they really run, what their
//! users estimate, and the deadline and budget of their urgency class.
//!
//! Workload records carry no deadlines or budgets. [`QosWorkload`] gives
//! each job the constraints of an [`UrgencyModel`] draw and an estimate
//! that under-estimates the run time by a fixed percentage; the result,
//! a [`QosJob`], is what every policy of the comparison sees: the
//! time-shared cluster as a [`Submission`], the backfilling baselines as a
//! `profile` job.

use profile::{Job, MAX_DURATION, Time};

use crate::cluster::Submission;
use crate::error::{PricingError, amount, factor, in_domain};
use crate::qos::{QosDraw, UrgencyModel};
use crate::spec::JobSpec;

/// One job of a QoS workload.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QosJob {
    /// Caller's identifier.
    pub id: u64,
    /// `AT_i`: when the job is submitted.
    pub submit: Time,
    /// `PROC_i`: processors (nodes) it needs.
    pub procs: u32,
    /// `R_i`: what it really runs, in seconds; at least one.
    pub run_time: i64,
    /// `RE_i`: the user's estimate, in seconds; at least one.
    pub estimate: i64,
    /// `D_i`: seconds from submission to the deadline.
    pub deadline: i64,
    /// `B_i`: what the user is willing to pay.
    pub budget: f64,
}

impl QosJob {
    /// `DT_i = AT_i + D_i`, the absolute deadline.
    pub fn deadline_time(&self) -> Time {
        self.submit.saturating_add(self.deadline)
    }

    /// Checks that the job lies in the time domain every policy accepts:
    /// `AT_i` and `DT_i` in `[-Time::LIMIT, Time::LIMIT]` (±2^40 s);
    /// `R_i`, `RE_i` and `D_i` in `[1, MAX_DURATION]` (2^40 s); at least
    /// one processor; a finite budget `>= 0`.
    ///
    /// ```
    /// use pricing::{PricingError, QosJob};
    /// use profile::Time;
    ///
    /// let job = QosJob { id: 7, submit: Time(0), procs: 1, run_time: 60, estimate: 60, deadline: 600, budget: 1.0 };
    /// assert_eq!(job.check(), Ok(()));
    /// let late = QosJob { submit: Time(i64::MAX - 7), ..job };
    /// assert!(matches!(late.check(), Err(PricingError::OutOfDomain { job: Some(7), name: "submit time", .. })));
    /// ```
    pub fn check(&self) -> Result<(), PricingError> {
        let id = Some(self.id);
        let limit = Time::LIMIT.secs();
        in_domain(id, "submit time", self.submit.secs(), -limit, limit)?;
        amount("processors", i64::from(self.procs), 1, "at least 1")?;
        in_domain(id, "run time", self.run_time, 1, MAX_DURATION)?;
        in_domain(id, "runtime estimate", self.estimate, 1, MAX_DURATION)?;
        in_domain(id, "relative deadline", self.deadline, 1, MAX_DURATION)?;
        in_domain(id, "deadline", self.deadline_time().secs(), -limit, limit)?;
        factor("budget", self.budget)?;
        Ok(())
    }

    /// The job as submitted to a time-shared [`Cluster`](crate::Cluster):
    /// `RE_i`, `PROC_i`, `D_i` and `B_i`, and the run time `R_i`.
    pub fn submission(&self) -> Submission {
        Submission {
            id: self.id,
            arrival: self.submit,
            spec: JobSpec::new(self.estimate, self.procs, self.deadline, self.budget),
            run_time: self.run_time,
        }
    }
}

/// How the jobs of a workload get their estimates, deadlines and budgets.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QosWorkload {
    /// The two urgency classes the deadlines and budgets are drawn from.
    pub urgency: UrgencyModel,
    /// Runtime under-estimation in percent, in `[0, 100)`:
    /// `RE_i = max(1, round(R_i · (1 − inaccuracy/100)))`. The paper's
    /// inaccuracy is "with respect to the real runtime" and only
    /// under-estimates.
    pub inaccuracy: f64,
    /// `PBase`, in $ per second of processor time: budgets are drawn
    /// relative to `f(R_i) = R_i · PBase`.
    pub base_price: f64,
}

impl QosWorkload {
    /// Table I: its urgency classes, exact estimates, $1 per second.
    pub const TABLE_I: QosWorkload = QosWorkload {
        urgency: UrgencyModel::TABLE_I,
        inaccuracy: 0.0,
        base_price: 1.0,
    };

    fn check(&self) -> Result<(), PricingError> {
        if !(0.0..100.0).contains(&self.inaccuracy) {
            return Err(PricingError::OutOfRange {
                name: "inaccuracy",
                value: self.inaccuracy,
                expected: "a percentage in [0, 100)",
            });
        }
        factor("PBase", self.base_price)?;
        Ok(())
    }

    /// `job` with the constraints of `draw`. A run time below one second
    /// counts as one (a deadline of `d · 0` could not be met); the deadline
    /// and budget follow the real run time, so the inaccuracy moves the
    /// estimate alone.
    pub fn job(&self, job: &Job, draw: &QosDraw) -> QosJob {
        let run_time = job.run_time.max(1);
        let estimate = ((run_time as f64 * (1.0 - self.inaccuracy / 100.0)).round() as i64).max(1);
        let c = draw.constraints(run_time, self.base_price);
        QosJob {
            id: job.id,
            submit: job.submit,
            procs: job.procs,
            run_time,
            estimate,
            deadline: c.deadline,
            budget: c.budget,
        }
    }

    /// The jobs of a workload, in order, each with its draw from `seed`
    /// ([`UrgencyModel::draw`]): the same seed gives every policy, and
    /// every inaccuracy, the same deadlines and budgets.
    ///
    /// Every job made is checked ([`QosJob::check`]): a trace job whose
    /// submit time or run time lies outside the time domain, or whose drawn
    /// deadline or budget would, is an error naming it.
    ///
    /// ```
    /// use pricing::QosWorkload;
    /// use profile::{Job, Time};
    ///
    /// let trace = [Job::new(1, Time(0), 4, 3600, 3000), Job::new(2, Time(60), 1, 60, 0)];
    /// let w = QosWorkload { inaccuracy: 10.0, ..QosWorkload::TABLE_I };
    /// let jobs = w.jobs(&trace, 7)?;
    /// assert_eq!((jobs[0].run_time, jobs[0].estimate), (3000, 2700));
    /// assert_eq!((jobs[1].run_time, jobs[1].estimate), (1, 1)); // 0 s counts as 1 s
    /// assert!(jobs.iter().all(|j| j.deadline >= 1 && j.budget > 0.0));
    /// # Ok::<(), pricing::PricingError>(())
    /// ```
    pub fn jobs(&self, jobs: &[Job], seed: u64) -> Result<Vec<QosJob>, PricingError> {
        self.check()?;
        let draws = self.urgency.draw(jobs.len(), seed)?;
        jobs.iter()
            .zip(&draws)
            .map(|(j, d)| {
                let q = self.job(j, d);
                q.check()?;
                Ok(q)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qos::Urgency;

    const DRAW: QosDraw = QosDraw {
        urgency: Urgency::High,
        deadline_factor: 2.0,
        budget_factor: 8.0,
    };

    #[test]
    fn inaccuracy_moves_the_estimate_alone() {
        let trace = Job::new(1, Time(5), 2, 1000, 1000);
        let exact = QosWorkload::TABLE_I.job(&trace, &DRAW);
        let under = QosWorkload {
            inaccuracy: 30.0,
            ..QosWorkload::TABLE_I
        }
        .job(&trace, &DRAW);
        assert_eq!((exact.estimate, under.estimate), (1000, 700));
        assert_eq!((under.deadline, under.budget), (2000, 8000.0));
        assert_eq!(
            (under.deadline, under.budget),
            (exact.deadline, exact.budget)
        );
        assert_eq!(under.deadline_time(), Time(2005));
    }

    #[test]
    fn the_submission_carries_the_constraints() {
        let j = QosWorkload::TABLE_I.job(&Job::new(3, Time(9), 4, 50, 40), &DRAW);
        let s = j.submission();
        assert_eq!((s.id, s.arrival, s.run_time), (3, Time(9), 40));
        assert_eq!(s.spec.job_details.runtime_estimate, 40);
        assert_eq!(s.spec.resource_requirements.processors, 4);
        assert_eq!(
            (
                s.spec.qos_constraints.deadline,
                s.spec.qos_constraints.budget
            ),
            (80, 320.0)
        );
    }

    #[test]
    fn invalid_settings_are_errors() {
        let trace = [Job::new(1, Time(0), 1, 10, 10)];
        for inaccuracy in [-1.0, 100.0, f64::NAN] {
            let w = QosWorkload {
                inaccuracy,
                ..QosWorkload::TABLE_I
            };
            assert!(
                matches!(w.jobs(&trace, 1), Err(PricingError::OutOfRange { .. })),
                "{inaccuracy}"
            );
        }
        let w = QosWorkload {
            base_price: -1.0,
            ..QosWorkload::TABLE_I
        };
        assert!(w.jobs(&trace, 1).is_err());
    }
}
