//! The crate's error type.

use std::fmt;

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
                "requirement on {attribute}, option {option}: utility is {value}, expected a number in [0, 1]"
            ),
            UtilityError::Weight { attribute, value } => {
                write!(
                    f,
                    "requirement on {attribute}: weight is {value}, expected a number in [0, 1]"
                )
            }
        }
    }
}

impl std::error::Error for UtilityError {}
