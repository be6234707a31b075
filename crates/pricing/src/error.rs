//! The crate's error type.

use std::fmt;

/// Why a price or cost could not be computed.
///
/// Every variant carries the offending values so the message can say what to
/// fix. Prices are never computed from invalid input: there is no panic path.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PricingError {
    /// `RESFree = RESMax − committed − requested` is not positive (eq. 5/6):
    /// the node cannot take the job, so it has no price for it.
    NoFreeCapacity {
        /// `RESMax_j`: units the node offers over the job's window.
        res_max: i64,
        /// `Σ RES_k`: units already committed to accepted jobs in the window.
        committed: i64,
        /// `RES_i`: units the job asks for.
        requested: i64,
    },
    /// A factor or price is negative, infinite or NaN.
    InvalidFactor {
        /// The parameter's name as the paper writes it (`α`, `β`, `PBase`, ...).
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An amount of time or resource is out of range.
    InvalidAmount {
        /// The parameter's name (`deadline`, `runtime estimate`, ...).
        name: &'static str,
        /// The value given.
        value: i64,
        /// What is accepted, in words.
        expected: &'static str,
    },
    /// A job was submitted with an arrival time before the cluster's clock.
    ArrivalInPast {
        /// The job's identifier.
        id: u64,
        /// Its arrival time, in seconds.
        arrival: i64,
        /// The cluster's clock, in seconds.
        now: i64,
    },
    /// The cluster was asked about a time it has already passed.
    BeforeClock {
        /// The time asked about, in seconds.
        at: i64,
        /// The cluster's clock, in seconds.
        now: i64,
    },
    /// A job-control setting that cannot work.
    InvalidControl {
        /// Why, and what to choose instead.
        reason: &'static str,
    },
}

impl fmt::Display for PricingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PricingError::NoFreeCapacity {
                res_max,
                committed,
                requested,
            } => write!(
                f,
                "no free capacity: RESMax {res_max} - committed {committed} - requested \
                 {requested} = {} (eq. 5), so the node cannot be priced for this job; \
                 reject the job on this node before pricing it",
                res_max
                    .saturating_sub(*committed)
                    .saturating_sub(*requested)
            ),
            PricingError::InvalidFactor { name, value } => {
                write!(f, "{name} is {value}, expected a finite number >= 0")
            }
            PricingError::InvalidAmount {
                name,
                value,
                expected,
            } => {
                write!(f, "{name} is {value}, expected {expected}")
            }
            PricingError::ArrivalInPast { id, arrival, now } => write!(
                f,
                "job {id} arrives at {arrival} s, before the cluster's clock ({now} s); \
                 submit jobs in arrival order"
            ),
            PricingError::BeforeClock { at, now } => write!(
                f,
                "time {at} s is before the cluster's clock ({now} s); a cluster only moves forward"
            ),
            PricingError::InvalidControl { reason } => write!(f, "invalid job control: {reason}"),
        }
    }
}

impl std::error::Error for PricingError {}

/// `Ok(value)` if `value` is finite and non-negative.
pub(crate) fn factor(name: &'static str, value: f64) -> Result<f64, PricingError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(PricingError::InvalidFactor { name, value })
    }
}

/// `Ok(value)` if `value >= min`.
pub(crate) fn amount(
    name: &'static str,
    value: i64,
    min: i64,
    expected: &'static str,
) -> Result<i64, PricingError> {
    if value >= min {
        Ok(value)
    } else {
        Err(PricingError::InvalidAmount {
            name,
            value,
            expected,
        })
    }
}
