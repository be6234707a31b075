//! Provisioning violations.

use profile::Time;

/// The paper's tolerance `T`: a job may start up to 20 s after the gateway's
/// planned start without a violation.
pub const PAPER_TOLERANCE: u32 = 20;

/// Whether a job that the gateway planned to start at `planned` (`j_gst`) and
/// the provider started at `actual` (`j_pst`) is a violation:
/// `j_pst − j_gst > T`. Starting early, or late by exactly `T`, is not.
pub fn is_late(planned: Time, actual: Time, tolerance: u32) -> bool {
    actual.secs().saturating_sub(planned.secs()) > i64::from(tolerance)
}

/// One provisioning violation of the paper: a grid job that started later
/// than the gateway planned, or a reservation the provider refused. It is
/// counted in a [`ViolationLog`]; unlike the `Violation` of the other crates
/// (the error of a schedule check, `validate`) it is no error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ProvisioningViolation {
    /// The job started more than the tolerance after the gateway's plan.
    LateStart {
        /// The job.
        job: u64,
        /// The start the gateway planned from the provider's slots.
        planned: Time,
        /// The start the provider's scheduler gave it.
        actual: Time,
    },
    /// The provider could not accept the gateway's reservation.
    ReservationRefused {
        /// The job.
        job: u64,
        /// When the refusal happened.
        at: Time,
    },
}

impl ProvisioningViolation {
    /// The grid job the violation is about.
    pub fn job(&self) -> u64 {
        match *self {
            ProvisioningViolation::LateStart { job, .. }
            | ProvisioningViolation::ReservationRefused { job, .. } => job,
        }
    }
}

/// The violations of one run, checked against a tolerance.
///
/// Counts events: a job whose reservation is refused and which later starts
/// late counts twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViolationLog {
    tolerance: u32,
    violations: Vec<ProvisioningViolation>,
}

impl Default for ViolationLog {
    fn default() -> Self {
        ViolationLog::new(PAPER_TOLERANCE)
    }
}

impl ViolationLog {
    /// An empty log with tolerance `tolerance` seconds.
    pub fn new(tolerance: u32) -> ViolationLog {
        ViolationLog {
            tolerance,
            violations: Vec::new(),
        }
    }

    /// The tolerance in seconds.
    pub fn tolerance(&self) -> u32 {
        self.tolerance
    }

    /// Checks a job's actual start against the gateway's plan; records and
    /// returns `true` if it is a violation.
    pub fn check_start(&mut self, job: u64, planned: Time, actual: Time) -> bool {
        let late = is_late(planned, actual, self.tolerance);
        if late {
            self.violations.push(ProvisioningViolation::LateStart {
                job,
                planned,
                actual,
            });
        }
        late
    }

    /// Records a refused reservation, always a violation.
    pub fn reservation_refused(&mut self, job: u64, at: Time) {
        self.violations
            .push(ProvisioningViolation::ReservationRefused { job, at });
    }

    /// Violations so far.
    pub fn count(&self) -> usize {
        self.violations.len()
    }

    /// Violations as a percentage of `jobs` grid jobs (0 when `jobs` is 0).
    pub fn percent_of(&self, jobs: usize) -> f64 {
        if jobs == 0 {
            0.0
        } else {
            100.0 * self.count() as f64 / jobs as f64
        }
    }

    /// Every violation, in the order recorded.
    pub fn violations(&self) -> &[ProvisioningViolation] {
        &self.violations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_is_strictly_more_than_the_tolerance() {
        let check = |planned: i64, actual: i64, late: bool| {
            assert_eq!(
                is_late(Time(planned), Time(actual), PAPER_TOLERANCE),
                late,
                "{planned} -> {actual}"
            );
        };
        check(100, 100, false);
        check(100, 50, false); // early is fine
        check(100, 119, false);
        check(100, 120, false); // exactly T late
        check(100, 121, true);
        check(100, 10_000, true);
        // Extremes do not overflow.
        check(i64::MIN, i64::MAX, true);
        check(i64::MAX, i64::MIN, false);
        assert!(is_late(Time(0), Time(1), 0));
        assert!(!is_late(Time(0), Time(0), 0));
    }

    #[test]
    fn the_log_records_late_starts_and_refusals() {
        let mut log = ViolationLog::default();
        assert_eq!(log.tolerance(), 20);
        assert!(!log.check_start(1, Time(0), Time(20)));
        assert!(log.check_start(2, Time(0), Time(21)));
        log.reservation_refused(3, Time(50));
        assert_eq!(log.count(), 2);
        assert_eq!(
            log.violations(),
            &[
                ProvisioningViolation::LateStart {
                    job: 2,
                    planned: Time(0),
                    actual: Time(21)
                },
                ProvisioningViolation::ReservationRefused {
                    job: 3,
                    at: Time(50)
                },
            ]
        );
        assert_eq!(log.percent_of(400), 0.5);
        assert_eq!(log.percent_of(0), 0.0);
    }
}
