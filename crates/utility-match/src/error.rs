//! The crate's error type.

use std::fmt;

use profile::ShortFloat;

use crate::Attribute;

/// Why a requirement is not well formed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum UtilityError {
    /// A requirement lists no acceptable option.
    NoOptions {
        /// The attribute the requirement is about.
        attribute: Attribute,
    },
    /// An option's utility `α` is outside `[0, 1]`.
    OptionUtility {
        /// The attribute the requirement is about.
        attribute: Attribute,
        /// The option's position in the requirement (0-based).
        option: usize,
        /// The utility given.
        value: f64,
    },
    /// A requirement's weight `β` is outside `[0, 1]`.
    Weight {
        /// The attribute the requirement is about.
        attribute: Attribute,
        /// The weight given.
        value: f64,
    },
}

impl fmt::Display for UtilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UtilityError::NoOptions { attribute } => {
                write!(
                    f,
                    "requirement on {attribute} lists no option, expected at least one"
                )
            }
            UtilityError::OptionUtility {
                attribute,
                option,
                value,
            } => write!(
                f,
                "requirement on {attribute}, option {option}: utility is {}, expected a number in [0, 1]",
                ShortFloat(*value)
            ),
            UtilityError::Weight { attribute, value } => {
                write!(
                    f,
                    "requirement on {attribute}: weight is {}, expected a number in [0, 1]",
                    ShortFloat(*value)
                )
            }
        }
    }
}

impl std::error::Error for UtilityError {}

/// Why a grid, a scenario or a simulated run cannot be used.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum GridError {
    /// A machine has no core or a non-positive speed.
    Machine {
        /// The machine's site (virtual organisation).
        site: usize,
        /// The machine's index in its site.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A job refers to something that does not exist or is out of range.
    Job {
        /// The job's id.
        job: usize,
        /// What is wrong.
        message: String,
    },
    /// A setting of the simulation or of a scenario is out of range.
    Setting {
        /// The setting's name, as in the configuration (`status_period`, say).
        name: &'static str,
        /// What is wrong and what to give instead.
        message: String,
    },
    /// A machine of a run (`GridRun::machines`) has a field out of range:
    /// a machine of 0 cores has no utilisation.
    Usage {
        /// The machine's site.
        site: usize,
        /// The machine's index in its site.
        index: usize,
        /// The field (`cores`).
        field: &'static str,
        /// The value given.
        value: i64,
    },
    /// A metric of a run would not be a finite number: the run's job
    /// records hold a NaN, infinite or negative utility, say. No metric is
    /// ever NaN or infinite.
    NotFinite {
        /// The metric, as [`SystemMetrics::named`](crate::SystemMetrics::named)
        /// names it (`user_utility`, `load_balance`, ...).
        metric: &'static str,
        /// Its value.
        value: f64,
    },
    /// A [`UtilityFunction`](crate::UtilityFunction) answered outside
    /// `[0, 1]` (NaN included), against its contract: the job and the
    /// resource it was evaluating are named.
    Utility {
        /// The job's id.
        job: usize,
        /// The resource's site.
        site: usize,
        /// The resource's index in its site.
        index: usize,
        /// What the function returned.
        value: f64,
    },
    /// The simulation stopped making progress with jobs unfinished: nothing
    /// runs, nothing is in flight, and status messages change nothing (a
    /// scheduler bug; please report it).
    Stalled {
        /// Simulated time, seconds.
        at: i64,
        /// Jobs neither completed nor failed.
        unfinished: usize,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Machine {
                site,
                index,
                message,
            } => write!(f, "machine {index} of site {site}: {message}"),
            GridError::Job { job, message } => write!(f, "job {job}: {message}"),
            GridError::Setting { name, message } => write!(f, "{name}: {message}"),
            GridError::Utility {
                job,
                site,
                index,
                value,
            } => write!(
                f,
                "UtilityFunction::utility returned {} for job {job} on machine {index} of \
                 site {site}, expected a number in [0, 1]; fix the utility function",
                ShortFloat(*value)
            ),
            GridError::Usage {
                site,
                index,
                field,
                value,
            } => write!(
                f,
                "the run's machine {index} of site {site}: {field} is {value}, expected at least 1"
            ),
            GridError::NotFinite { metric, value } => write!(
                f,
                "metric {metric} would be {value}, not a finite number; the run's job records \
                 hold a NaN, infinite or negative utility"
            ),
            GridError::Stalled { at, unfinished } => write!(
                f,
                "the grid stalled at {at} s with {unfinished} jobs unfinished and nothing running; this is a scheduler bug, please report it"
            ),
        }
    }
}

impl std::error::Error for GridError {}

/// A simulated run that breaks the grid's rules (a scheduler bug); found by
/// [`validate`](crate::validate).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// The run does not report every submitted job exactly once, in order.
    Records {
        /// Jobs submitted.
        jobs: usize,
        /// Records in the run.
        records: usize,
    },
    /// A job's record is inconsistent with the job or the machine.
    Job {
        /// The job's id.
        job: usize,
        /// What is inconsistent.
        message: String,
    },
    /// A total of the run (a machine's usage, the forwards, the span from
    /// the first submission to the last end) that its job records
    /// contradict: the metrics are computed from these totals.
    Totals {
        /// The total: `machines`, `forwards`, `first_submit` or `last_end`.
        field: &'static str,
        /// What the records give and what the run says.
        message: String,
    },
    /// A machine ran more jobs at once than it has cores.
    Overcommitted {
        /// The machine's site.
        site: usize,
        /// The machine's index in its site.
        index: usize,
        /// When.
        at: i64,
        /// Jobs running then.
        running: u32,
        /// Its cores.
        cores: u32,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Records { jobs, records } => {
                write!(
                    f,
                    "{jobs} jobs were submitted but the run has {records} records"
                )
            }
            Violation::Job { job, message } => write!(f, "job {job}: {message}"),
            Violation::Totals { field, message } => write!(f, "the run's {field}: {message}"),
            Violation::Overcommitted {
                site,
                index,
                at,
                running,
                cores,
            } => write!(
                f,
                "machine {index} of site {site} runs {running} jobs at {at} s but has {cores} cores"
            ),
        }
    }
}

impl std::error::Error for Violation {}
