//! The market environment's numeric options and price factors, checked
//! when it is built: each a real number (never a `bool` or a string: a
//! `TypeError` naming it, by [`crate::convert::real`]) within its range
//! (an error naming it, its value and the range).

use profile::ShortFloat;
use pyo3::prelude::*;

use crate::convert::{error, real, shown, type_error};
use crate::market_env::MAX_COEFFICIENT;
use crate::market_rule::DEFAULT_FACTORS;

/// The options `alpha`, `beta`, `weight`, `arrival_delay`, `high_urgency`
/// and `inaccuracy`.
pub(crate) struct Numbers {
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
    pub(crate) weight: f64,
    pub(crate) arrival_delay: f64,
    pub(crate) high_urgency: f64,
    pub(crate) inaccuracy: f64,
}

impl Numbers {
    /// The options in [`Numbers`]' order, `None` for the default.
    pub(crate) fn new(given: [Option<&Bound<'_, PyAny>>; 6]) -> PyResult<Numbers> {
        const NAMES: [&str; 6] = [
            "alpha",
            "beta",
            "weight",
            "arrival_delay",
            "high_urgency",
            "inaccuracy",
        ];
        let mut v = [1.0, 0.1, 0.5, 0.5, 20.0, 0.0];
        for ((value, name), given) in v.iter_mut().zip(NAMES).zip(given) {
            if let Some(g) = given {
                *value = real(name, g)?;
            }
        }
        let [alpha, beta, weight, arrival_delay, high_urgency, inaccuracy] = v;
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v.is_finite() && (0.0..=MAX_COEFFICIENT).contains(&v)) {
                return Err(error(format!(
                    "{name} is {}, expected a number from 0 to {} (larger values make costs \
                     overflow)",
                    ShortFloat(v),
                    ShortFloat(MAX_COEFFICIENT)
                )));
            }
        }
        if !(0.0..=1.0).contains(&weight) {
            return Err(error(format!(
                "weight is {}, expected a number in [0, 1] (1: profitability alone, \
                 0: QoS satisfaction alone)",
                ShortFloat(weight)
            )));
        }
        if !(arrival_delay.is_finite() && arrival_delay > 0.0) {
            return Err(error(format!(
                "arrival_delay is {}, expected a positive factor",
                ShortFloat(arrival_delay)
            )));
        }
        if !(0.0..=100.0).contains(&high_urgency) {
            return Err(error(format!(
                "high_urgency is {}, expected a percentage in [0, 100]",
                ShortFloat(high_urgency)
            )));
        }
        if !(0.0..100.0).contains(&inaccuracy) {
            return Err(error(format!(
                "inaccuracy is {}, expected a percentage in [0, 100)",
                ShortFloat(inaccuracy)
            )));
        }
        Ok(Numbers {
            alpha,
            beta,
            weight,
            arrival_delay,
            high_urgency,
            inaccuracy,
        })
    }
}

/// The price factors a sequence of real numbers (not a string) gives. A
/// dict or a set is refused: its order, which decides which action is
/// which factor, is not the caller's to give.
fn numbers(factors: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let not_a_sequence = || -> PyResult<PyErr> {
        Ok(type_error(format!(
            "factors is {}, expected a sequence of real numbers",
            shown(factors)
        )))
    };
    if factors.is_instance_of::<pyo3::types::PyString>()
        || factors.is_instance_of::<pyo3::types::PyBytes>()
        || factors.is_instance_of::<pyo3::types::PyDict>()
        || factors.is_instance_of::<pyo3::types::PySet>()
        || factors.is_instance_of::<pyo3::types::PyFrozenSet>()
    {
        return Err(not_a_sequence()?);
    }
    let Ok(items) = factors.try_iter() else {
        return Err(not_a_sequence()?);
    };
    items
        .enumerate()
        .map(|(i, f)| real(&format!("factors[{i}]"), &f?))
        .collect()
}

/// `action` (`admit` or `price`) and the price mode's `factors`: whether
/// the agent prices, and the factors it offers (1 alone when it admits).
pub(crate) fn factors_of(
    action: &str,
    factors: Option<&Bound<'_, PyAny>>,
) -> PyResult<(bool, Vec<f64>)> {
    match (action, factors) {
        ("admit", None) => Ok((false, vec![1.0])),
        ("admit", Some(_)) => Err(error(
            "factors are the price mode's: give action=\"price\" with them",
        )),
        ("price", factors) => {
            let factors = match factors {
                Some(f) => numbers(f)?,
                None => DEFAULT_FACTORS.to_vec(),
            };
            if factors.is_empty() {
                return Err(error(
                    "factors is empty, expected at least one price factor",
                ));
            }
            if let Some(f) = factors
                .iter()
                .find(|f| !(f.is_finite() && **f > 0.0 && **f <= MAX_COEFFICIENT))
            {
                return Err(error(format!(
                    "factors has {}, expected numbers > 0 and at most {} (larger factors make \
                     costs overflow)",
                    ShortFloat(*f),
                    ShortFloat(MAX_COEFFICIENT)
                )));
            }
            Ok((true, factors))
        }
        (other, _) => Err(error(format!(
            "action is '{other}', expected admit (Discrete(2): reject, admit) or price \
             (Discrete(1 + len(factors)): reject, admit at a factor)"
        ))),
    }
}
