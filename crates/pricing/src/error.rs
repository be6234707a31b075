//! The crate's error types: [`PricingError`] for the mechanisms,
//! [`PolicyError`] for a whole policy run, [`ParseSeriesError`] for a series
//! name.

use std::fmt;

use profile::{ShortFloat, SimError, Violation};

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
    /// A job's identifier was submitted before: an outcome is its job's by
    /// identifier, so each job has its own. Positions count the jobs in
    /// the order given: a list's, or the submissions a cluster took.
    DuplicateId {
        /// The identifier both carry.
        id: u64,
        /// Position of the first job with it.
        first: usize,
        /// Position of the second job with it.
        second: usize,
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
    /// A number outside the range its meaning allows (a percentage above
    /// 100, say).
    OutOfRange {
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What is accepted, in words.
        expected: &'static str,
    },
    /// A time or duration outside the time domain (see the crate docs,
    /// "Limits"): times in `[-2^40, 2^40]` s (`profile::Time::LIMIT`),
    /// durations in `[min, 2^40]` s (`profile::MAX_DURATION`).
    OutOfDomain {
        /// The job, if the value belongs to one.
        job: Option<u64>,
        /// The value's name (`arrival`, `deadline`, ...).
        name: &'static str,
        /// The value given, in seconds.
        value: i64,
        /// The least accepted value.
        min: i64,
        /// The greatest accepted value.
        max: i64,
    },
    /// A time-shared cluster with more nodes than [`MAX_NODES`](crate::MAX_NODES).
    TooManyNodes {
        /// The nodes asked for.
        nodes: u64,
        /// The most accepted.
        max: usize,
    },
    /// A result would not be a finite number: an input, finite on its own,
    /// is too large for the arithmetic (a base price of `f64::MAX` times
    /// a utilisation ratio above 1, say). Nothing non-finite is ever
    /// returned.
    NotFinite {
        /// What was being computed (`PUtil`, `P_ij`, `cost`, ...).
        quantity: &'static str,
        /// The input held responsible, by the name the paper gives it
        /// (`PBase`, `α`, `γ`, ...).
        field: &'static str,
        /// Its value.
        value: f64,
    },
    /// A user's [`PriceFunction`](crate::PriceFunction) quoted a node a
    /// cost that is NaN or infinite; [`admit`](crate::admit) refuses it.
    NonFiniteCost {
        /// The node quoted.
        node: usize,
        /// The cost returned.
        cost: f64,
    },
    /// A user's [`PriceFunction`](crate::PriceFunction) quoted a node a
    /// negative cost; [`admit`](crate::admit) refuses it.
    NegativeCost {
        /// The node quoted.
        node: usize,
        /// The cost returned.
        cost: f64,
    },
    /// An [`Admission`](crate::Admission) rule accepted a job with an
    /// allocation the cluster cannot run: not `PROC_i` distinct nodes of the
    /// cluster (each with the job's memory and disk free), or a cost that is
    /// negative, NaN, infinite or above the job's budget.
    InvalidAllocation {
        /// The job.
        job: u64,
        /// What is wrong with the allocation.
        reason: String,
    },
    /// A job on the time-shared cluster would still be running at
    /// `profile::Time::LATEST` (2^52 s), the end of simulated time; the
    /// cluster stops there rather than wrap or saturate.
    BeyondLatest {
        /// The job.
        job: u64,
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
                write!(
                    f,
                    "{name} is {}, expected a finite number >= 0",
                    ShortFloat(*value)
                )
            }
            PricingError::InvalidAmount {
                name,
                value,
                expected,
            } => {
                write!(f, "{name} is {value}, expected {expected}")
            }
            PricingError::DuplicateId { id, first, second } => write!(
                f,
                "jobs at positions {first} and {second} both have id {id}; give every job its own id"
            ),
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
            PricingError::OutOfRange {
                name,
                value,
                expected,
            } => write!(f, "{name} is {}, expected {expected}", ShortFloat(*value)),
            PricingError::OutOfDomain {
                job,
                name,
                value,
                min,
                max,
            } => {
                if let Some(id) = job {
                    write!(f, "job {id}: ")?;
                }
                write!(
                    f,
                    "{name} is {value} s, outside [{min}, {max}]; times must lie within 2^40 s \
                     (about 34,800 years) of the origin and durations be at most 2^40 s"
                )
            }
            PricingError::TooManyNodes { nodes, max } => write!(
                f,
                "the time-shared cluster would have {nodes} nodes (one per processor), more than \
                 the {max} this model accepts; give a smaller machine"
            ),
            PricingError::NotFinite {
                quantity,
                field,
                value,
            } => write!(
                f,
                "{quantity} would not be a finite number with {field} = {value:e}; give a smaller \
                 {field}"
            ),
            PricingError::NonFiniteCost { node, cost } => write!(
                f,
                "the pricing function (PriceFunction::cost) quoted node {node} a cost of {cost}, \
                 not a finite number; fix the pricing function"
            ),
            PricingError::NegativeCost { node, cost } => write!(
                f,
                "the pricing function (PriceFunction::cost) quoted node {node} a cost of {}, \
                 expected a number >= 0; fix the pricing function",
                ShortFloat(*cost)
            ),
            PricingError::InvalidAllocation { job, reason } => write!(
                f,
                "job {job}: the admission rule (Admission::admit) accepted it with {reason}; fix \
                 the admission rule"
            ),
            PricingError::BeyondLatest { job } => write!(
                f,
                "job {job} would still run at 2^52 s, the end of simulated time; the workload \
                 holds more work than one node can finish by then"
            ),
        }
    }
}

impl std::error::Error for PricingError {}

/// Why a policy run ([`run_policy`](crate::run_policy),
/// [`backfill`](crate::backfill), [`time_shared`](crate::time_shared))
/// failed.
///
/// `Pricing`, `Cost`, `Simulation` and `Baseline` are bad input or a
/// scheduler refusing it; `InvalidSchedule` is a bug in a baseline
/// scheduler (the paper's or a user's); `Unfinished` and `TooFast` would be
/// bugs in this crate, reported rather than counted.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PolicyError {
    /// The pricing mechanisms refused their input (an invalid factor or
    /// cluster, jobs out of arrival order, ...).
    Pricing {
        /// What they said.
        error: PricingError,
    },
    /// A backfilling baseline could not price a job with [`Flat`](crate::Flat).
    Cost {
        /// The job's identifier.
        job: u64,
        /// Why.
        error: PricingError,
    },
    /// The backfilling simulator (`profile`) refused its input.
    Simulation {
        /// What it said.
        error: SimError,
    },
    /// A user's [`BaselineScheduler`](crate::BaselineScheduler) failed.
    Baseline {
        /// The scheduler's name.
        name: String,
        /// Why, in its words.
        message: String,
    },
    /// A backfilling schedule broke the machine's rules (`profile::validate`).
    InvalidSchedule {
        /// What the validation found.
        violation: Violation,
    },
    /// An accepted job never finished on the time-shared cluster.
    Unfinished {
        /// The job's identifier.
        job: u64,
    },
    /// An accepted job finished sooner than its work allows on one processor.
    TooFast {
        /// The job's identifier.
        job: u64,
        /// Its run time, in seconds.
        run_time: i64,
        /// Seconds from its arrival to its finish.
        took: i64,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::Pricing { error } => write!(f, "{error}"),
            PolicyError::Cost { job, error } => write!(f, "job {job}: {error}"),
            PolicyError::Simulation { error } => write!(f, "{error}"),
            PolicyError::Baseline { name, message } => write!(f, "baseline {name}: {message}"),
            PolicyError::InvalidSchedule { violation } => write!(
                f,
                "invalid schedule ({violation}); this is a bug in the scheduler, please report it"
            ),
            PolicyError::Unfinished { job } => write!(
                f,
                "accepted job {job} never finished; this is a bug in `pricing`"
            ),
            PolicyError::TooFast {
                job,
                run_time,
                took,
            } => write!(
                f,
                "job {job} ran {run_time} s of work in {took} s; this is a bug in `pricing`"
            ),
        }
    }
}

impl std::error::Error for PolicyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PolicyError::Pricing { error } | PolicyError::Cost { error, .. } => Some(error),
            PolicyError::Simulation { error } => Some(error),
            PolicyError::InvalidSchedule { violation } => Some(violation),
            PolicyError::Baseline { .. }
            | PolicyError::Unfinished { .. }
            | PolicyError::TooFast { .. } => None,
        }
    }
}

impl From<PricingError> for PolicyError {
    fn from(error: PricingError) -> Self {
        PolicyError::Pricing { error }
    }
}

impl From<SimError> for PolicyError {
    fn from(error: SimError) -> Self {
        PolicyError::Simulation { error }
    }
}

/// A series name that is not one of `fcfs-bf`, `sjf-bf`, `edf-bf`, `libra`,
/// `libra+$` or `libra+$-b<β>` (see [`Series`](crate::Series)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSeriesError {
    pub(crate) text: String,
}

impl ParseSeriesError {
    /// The text that did not parse.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseSeriesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown policy '{}', expected fcfs-bf, sjf-bf, edf-bf, libra, libra+$ or \
             libra+$-b<β> (e.g. libra+$-b0.5)",
            self.text
        )
    }
}

impl std::error::Error for ParseSeriesError {}

/// `Ok(value)` if `value` is finite and non-negative.
pub(crate) fn factor(name: &'static str, value: f64) -> Result<f64, PricingError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(PricingError::InvalidFactor { name, value })
    }
}

/// `Ok(value)` if `value` is finite, else [`PricingError::NotFinite`]
/// blaming `field`, whose value is `given`.
pub(crate) fn finite(
    quantity: &'static str,
    field: &'static str,
    given: f64,
    value: f64,
) -> Result<f64, PricingError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PricingError::NotFinite {
            quantity,
            field,
            value: given,
        })
    }
}

/// `Ok(value)` if `min <= value <= max`, else [`PricingError::OutOfDomain`].
pub(crate) fn in_domain(
    job: Option<u64>,
    name: &'static str,
    value: i64,
    min: i64,
    max: i64,
) -> Result<i64, PricingError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(PricingError::OutOfDomain {
            job,
            name,
            value,
            min,
            max,
        })
    }
}

/// `Ok(value)` if `value <= max`.
pub(crate) fn at_most(
    name: &'static str,
    value: i64,
    max: i64,
    expected: &'static str,
) -> Result<i64, PricingError> {
    if value <= max {
        Ok(value)
    } else {
        Err(PricingError::InvalidAmount {
            name,
            value,
            expected,
        })
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
