//! The `pricing` kind's errors from the QoS model, placed at the
//! `[params]` that draw the value at fault.

use ::pricing::PricingError;

use crate::error::RunError;

/// A deadline or budget the QoS model drew out of range comes from the
/// `[params]` that draw it: the error is placed at the first of them and
/// names them all. Any other error of the model is the kind's.
pub(super) fn placed(e: PricingError) -> RunError {
    use PricingError::{InvalidFactor, NotFinite, OutOfDomain};
    let what = match &e {
        OutOfDomain { name, .. } | InvalidFactor { name, .. } => *name,
        NotFinite { quantity, .. } => *quantity,
        _ => "",
    };
    let keys = if what.contains("deadline") {
        Some("deadline_low_mean, deadline_ratio and spread")
    } else if what.contains("budget") {
        Some("budget_low_mean, budget_ratio, spread and base_price")
    } else {
        None
    };
    match keys {
        Some(keys) => RunError::field(
            format!("params.{}", keys.split(',').next().unwrap_or(keys)),
            format!("the QoS model: {e}; params {keys} draw it: give smaller values"),
        ),
        None => RunError::Kind {
            message: format!("the QoS model: {e}"),
        },
    }
}
