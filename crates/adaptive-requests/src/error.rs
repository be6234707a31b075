//! The crate's error type.

use std::fmt;

use profile::{ProfileError, ShortFloat, Time};

/// Why a request or a moldability function is not well formed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReqError {
    /// `R^min` is zero or larger than `R^max`.
    ProcessorRange {
        /// The `R^min` given.
        r_min: u32,
        /// The `R^max` given.
        r_max: u32,
    },
    /// A duration is not positive.
    Duration {
        /// Which duration (`T^min`, `deadline`, ...).
        name: &'static str,
        /// The value given, in seconds.
        value: i64,
    },
    /// A duration is longer than `profile::MAX_DURATION` (2^40 s).
    TooLong {
        /// Which duration (`T^min`, `deadline`, `f_mol(R)`, ...).
        name: &'static str,
        /// The value given, in seconds.
        value: i64,
    },
    /// `R^max` is above [`MAX_PROCESSORS`](crate::MAX_PROCESSORS).
    TooManyProcessors {
        /// The `R^max` given.
        r_max: u32,
        /// The most accepted.
        max: u32,
    },
    /// The budget is negative, infinite or NaN.
    Budget {
        /// The value given.
        value: f64,
    },
    /// A field of `Sp = (N, I, M)` is out of range.
    Preemption {
        /// Which field.
        field: &'static str,
        /// The value given.
        value: u32,
        /// What is accepted, in words.
        expected: &'static str,
    },
    /// The price profile is not a multiplier in `(0, 10^12]`.
    PriceProfile {
        /// The value given.
        value: f64,
    },
    /// `f_mol` gives a non-positive usage time for an allowed processor count.
    ShapeTime {
        /// The processor count.
        procs: u32,
        /// The time `f_mol` gave for it.
        time: i64,
    },
    /// A share `[from, to)` of the work that is not one: `from > to`, or
    /// `to` above 100 %.
    Share {
        /// The first percent given.
        from: u32,
        /// The last percent given.
        to: u32,
    },
    /// A time outside `[-Time::LIMIT, Time::LIMIT]` (±2^40 s).
    Time {
        /// Which time (`now`, `submit`).
        name: &'static str,
        /// The value given.
        time: Time,
    },
    /// `f_mol` allows no processor count in `R^min..=R^max`.
    NoShape {
        /// The request's `R^min`.
        r_min: u32,
        /// The request's `R^max`.
        r_max: u32,
    },
}

impl fmt::Display for ReqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReqError::ProcessorRange { r_min, r_max } => {
                write!(
                    f,
                    "R^min is {r_min} and R^max is {r_max}, expected 1 <= R^min <= R^max"
                )
            }
            ReqError::Duration { name, value } => {
                write!(
                    f,
                    "{name} is {value} s, expected a positive number of seconds"
                )
            }
            ReqError::TooLong { name, value } => write!(
                f,
                "{name} is {value} s, expected at most 2^40 s (about 34,800 years)"
            ),
            ReqError::TooManyProcessors { r_max, max } => write!(
                f,
                "R^max is {r_max} processors, expected at most {max}; give a smaller request"
            ),
            ReqError::Budget { value } => {
                write!(
                    f,
                    "budget is {}, expected a finite number >= 0",
                    ShortFloat(*value)
                )
            }
            ReqError::Preemption {
                field,
                value,
                expected,
            } => {
                write!(f, "Sp field {field} is {value}, expected {expected}")
            }
            ReqError::PriceProfile { value } => {
                write!(
                    f,
                    "price profile is {}, expected a multiplier in (0, 1e12]",
                    ShortFloat(*value)
                )
            }
            ReqError::ShapeTime { procs, time } => write!(
                f,
                "f_mol({procs}) is {time} s, expected a positive time for every allowed processor count"
            ),
            ReqError::Share { from, to } => write!(
                f,
                "the share [{from}, {to}) % is not a share of the work, expected 0 <= from <= to <= 100"
            ),
            ReqError::Time { name, time } => write!(
                f,
                "{name} is {time}, outside [-2^40 s, 2^40 s]; times must lie within 2^40 s \
                 (about 34,800 years) of the origin"
            ),
            ReqError::NoShape { r_min, r_max } => write!(
                f,
                "f_mol allows no processor count in {r_min}..={r_max}; widen the range or the function"
            ),
        }
    }
}

impl std::error::Error for ReqError {}

/// Why a scheduler cannot be built or cannot take a request.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SchedError {
    /// A parameter of the price function is out of range.
    Price {
        /// Which parameter.
        field: &'static str,
        /// The value given.
        value: f64,
        /// What is accepted, in words.
        expected: &'static str,
    },
    /// The machine has no processors.
    NoCapacity,
    /// A request's submit time lies outside `[-Time::LIMIT, Time::LIMIT]`
    /// (±2^40 s).
    SubmitTime {
        /// The request's id.
        id: u64,
        /// Its submit time.
        submit: Time,
    },
    /// A request was submitted before the previous one: an on-line scheduler
    /// sees requests in time order.
    OutOfOrder {
        /// The request's id.
        id: u64,
        /// Its submit time.
        submit: Time,
        /// The time of the previous submission.
        now: Time,
    },
    /// A request's id was submitted before: an outcome is found by its
    /// request's id, so each request has its own. Positions count the
    /// requests the scheduler took, in the order submitted.
    DuplicateId {
        /// The id both carry.
        id: u64,
        /// Position of the first request with it.
        first: usize,
        /// Position of the second request with it.
        second: usize,
    },
    /// A request's `f_mol` answers at submission otherwise than when the
    /// request was built: a time outside `[1, 2^40]` s, or no allowed shape.
    Request {
        /// The request's id.
        id: u64,
        /// What is wrong with its shapes now.
        error: ReqError,
    },
    /// The scheduler tried to reserve or release capacity the profile does
    /// not have: a bug in this crate.
    Internal {
        /// What the profile said.
        error: ProfileError,
    },
}

impl fmt::Display for SchedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchedError::Price {
                field,
                value,
                expected,
            } => write!(
                f,
                "price function {field} is {}, expected {expected}",
                ShortFloat(*value)
            ),
            SchedError::SubmitTime { id, submit } => write!(
                f,
                "request {id} is submitted at {submit}, outside [-2^40 s, 2^40 s]; times must \
                 lie within 2^40 s (about 34,800 years) of the origin"
            ),
            SchedError::NoCapacity => {
                write!(f, "the machine has 0 processors, expected at least 1")
            }
            SchedError::OutOfOrder { id, submit, now } => write!(
                f,
                "request {id} is submitted at {submit}, before the previous submission at {now}; submit requests in time order"
            ),
            SchedError::DuplicateId { id, first, second } => write!(
                f,
                "requests at positions {first} and {second} both have id {id}; give every request its own id"
            ),
            SchedError::Request { id, error } => write!(
                f,
                "request {id} at submission: {error} (f_mol must give the answers it gave when \
                 the request was built)"
            ),
            SchedError::Internal { error } => write!(
                f,
                "internal error ({error}); this is a bug in adaptive-requests, please report it"
            ),
        }
    }
}

impl std::error::Error for SchedError {}

/// Why a name is not a [`Variant`](crate::Variant).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VariantError {
    /// The name is not `<policy>-<flexibility>` with a known policy and
    /// flexibility.
    Unknown {
        /// The name given.
        name: String,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Unknown { name } => write!(
                f,
                "unknown series '{name}', expected <fifo|mdf>-<rigid|preemptive|moldable|preemptive-moldable>, e.g. 'mdf-moldable'"
            ),
        }
    }
}

impl std::error::Error for VariantError {}

/// Why [`Table1::requests`](crate::Table1::requests) cannot build the
/// requests of an interval.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Table1Error {
    /// A share the draws use is outside `[0, 1]` (or NaN).
    Share {
        /// Which field of [`Table1`](crate::Table1).
        field: &'static str,
        /// The value given.
        value: f64,
    },
    /// Another field of [`Table1`](crate::Table1) is out of its range.
    Field {
        /// Which field.
        field: &'static str,
        /// The value given, as written.
        value: String,
        /// What is accepted, in words.
        expected: &'static str,
    },
    /// A job does not give a valid request.
    Job {
        /// The job's id.
        id: u64,
        /// What is wrong with its request.
        error: ReqError,
    },
}

impl fmt::Display for Table1Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Table1Error::Share { field, value } => {
                write!(
                    f,
                    "Table 1 {field} is {}, expected a share in [0, 1]",
                    ShortFloat(*value)
                )
            }
            Table1Error::Field {
                field,
                value,
                expected,
            } => write!(f, "Table 1 {field} is {value}, expected {expected}"),
            Table1Error::Job { id, error } => write!(f, "job {id}: {error}"),
        }
    }
}

impl Table1Error {
    /// The field of [`Table1`](crate::Table1) this error is about, if it
    /// is about one (not for [`Table1Error::Job`]).
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Table1Error::Share { field, .. } | Table1Error::Field { field, .. } => Some(field),
            Table1Error::Job { .. } => None,
        }
    }

    /// What is wrong, after the name of its field: `is 1.5, expected a
    /// share in [0, 1]`, for a caller that names the field its own way
    /// (`params.table1.high_share`, a Python option). The whole message
    /// for [`Table1Error::Job`].
    pub fn complaint(&self) -> String {
        match self {
            Table1Error::Share { value, .. } => {
                format!("is {}, expected a share in [0, 1]", ShortFloat(*value))
            }
            Table1Error::Field {
                value, expected, ..
            } => format!("is {value}, expected {expected}"),
            Table1Error::Job { .. } => self.to_string(),
        }
    }
}

impl std::error::Error for Table1Error {}
