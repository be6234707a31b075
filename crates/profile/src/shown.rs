//! Values echoed in messages: [`ShortFloat`].

use std::fmt;

/// A float for a message: as `{}` writes it when that is short (`0.5`,
/// `2`, `NaN`), else in scientific notation (`1e-300`,
/// `1.7976931348623157e308`). `{}` writes `f64::MAX` with 309 digits and
/// `1e-300` with 300 zeros; a value a user's code or file gave, echoed in
/// an error, stays readable. The crates of the workspace echo floats with it.
///
/// ```
/// use profile::ShortFloat;
/// assert_eq!(ShortFloat(0.5).to_string(), "0.5");
/// assert_eq!(ShortFloat(-1e-300).to_string(), "-1e-300");
/// assert_eq!(ShortFloat(f64::MAX).to_string(), "1.7976931348623157e308");
/// assert_eq!(ShortFloat(f64::NAN).to_string(), "NaN");
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ShortFloat(pub f64);

impl fmt::Display for ShortFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.abs();
        if a == 0.0 || !a.is_finite() || (1e-4..1e15).contains(&a) {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}
