//! The framework's error of a run: why one simulation, or an experiment
//! made of them, could not run. Every layer above reports through it.

use std::fmt;

use profile::{SimError, Violation};

use crate::encode::terminal_name;

/// Why an experiment could not run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The caller did not supply a trace the configuration names.
    MissingTrace {
        /// The name in the configuration.
        name: String,
    },
    /// Nothing is left of a workload after conversion and transforms.
    EmptyWorkload {
        /// The workload's label.
        label: String,
    },
    /// The simulator rejected its input.
    Simulation {
        /// The policy.
        policy: String,
        /// The simulator's error.
        error: SimError,
    },
    /// A simulated schedule broke the machine's rules (a bug in a scheduler).
    InvalidSchedule {
        /// The policy.
        policy: String,
        /// What `profile::validate` found.
        violation: Violation,
    },
    /// A kind-specific failure.
    Kind {
        /// What went wrong.
        message: String,
    },
    /// An error inside one run, with the run's description.
    InRun {
        /// `easy on SDSC-SP2`, say.
        run: String,
        /// The error.
        error: Box<RunError>,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::MissingTrace { name } => write!(
                f,
                "trace '{}' was not supplied; resolve every trace the configuration names",
                terminal_name(name)
            ),
            RunError::EmptyWorkload { label } => {
                write!(
                    f,
                    "workload '{}' has no jobs left after conversion and transforms; check its trace and transforms",
                    terminal_name(label)
                )
            }
            RunError::Simulation { policy, error } => write!(f, "{policy}: {error}"),
            RunError::InvalidSchedule { policy, violation } => {
                write!(
                    f,
                    "{policy} produced an invalid schedule ({violation}); this is a scheduler bug, please report it"
                )
            }
            RunError::Kind { message } => f.write_str(message),
            RunError::InRun { run, error } => write!(f, "{}: {error}", terminal_name(run)),
        }
    }
}

impl std::error::Error for RunError {}
