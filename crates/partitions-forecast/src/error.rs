//! The crate's error type.

use std::fmt;

/// Why a forecast could not be built or fed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ForecastError {
    /// The window holds no interval.
    Window {
        /// The window length given.
        value: usize,
    },
    /// The smoothing factor is outside `(0, 1]`.
    Smoothing {
        /// The factor given.
        value: f64,
    },
    /// An observed load is negative, infinite or NaN.
    Load {
        /// The interval (0-based, counted from the first observation) of the bad value.
        interval: u64,
        /// The load given.
        value: f64,
    },
}

impl fmt::Display for ForecastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForecastError::Window { value } => {
                write!(
                    f,
                    "forecast window is {value} intervals, expected at least 1"
                )
            }
            ForecastError::Smoothing { value } => {
                write!(
                    f,
                    "smoothing factor is {value}, expected a number in (0, 1]"
                )
            }
            ForecastError::Load { interval, value } => {
                write!(
                    f,
                    "load of interval {interval} is {value}, expected a finite number >= 0"
                )
            }
        }
    }
}

impl std::error::Error for ForecastError {}
