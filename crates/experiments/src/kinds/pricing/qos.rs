//! The `pricing` kind's QoS draw: the jobs of a workload with deadlines
//! and budgets, and the model's errors placed at the `[params]` key that
//! draws the value at fault.

use ::pricing::{PricingError, QosJob, QosWorkload, Urgency, UrgencyModel};

use super::Params;
use crate::error::RunError;
use crate::seed::derive_seed;
use crate::workload::Workload;

/// The jobs of `workload` as one run sees them: arrivals compressed by the
/// arrival delay factor, deadlines and budgets drawn from the repetition's
/// `pricing/qos` stream.
pub(super) fn qos_jobs(
    params: &Params,
    workload: &Workload,
    seed: u64,
) -> Result<Vec<QosJob>, RunError> {
    let jobs =
        swf_io::scale_load(workload.jobs.clone(), 1.0 / params.arrival_delay).map_err(|e| {
            RunError::field(
                "params.arrival_delay",
                format!("params.arrival_delay = {:?}: {e}", params.arrival_delay),
            )
        })?;
    let draw = |p: &Params| qos_model(p).jobs(&jobs, derive_seed(seed, "pricing/qos"));
    draw(params).map_err(|e| placed(e, |key| draw(&at_default(params, key)).is_ok()))
}

/// Each job's urgency class in the draw [`qos_jobs`] makes for `jobs`
/// jobs (the same stream, so the same classes).
pub(super) fn urgency(params: &Params, jobs: usize, seed: u64) -> Result<Vec<Urgency>, RunError> {
    let draws = qos_model(params)
        .urgency
        .draw(jobs, derive_seed(seed, "pricing/qos"))
        .map_err(|e| RunError::Kind {
            message: format!("the QoS model: {e}"),
        })?;
    Ok(draws.into_iter().map(|d| d.urgency).collect())
}

/// The QoS model `params` give.
fn qos_model(params: &Params) -> QosWorkload {
    QosWorkload {
        urgency: UrgencyModel {
            high_fraction: params.high_urgency / 100.0,
            deadline_low_mean: params.deadline_low_mean,
            deadline_ratio: params.deadline_ratio,
            budget_low_mean: params.budget_low_mean,
            budget_ratio: params.budget_ratio,
            spread: params.spread,
        },
        inaccuracy: params.inaccuracy,
        base_price: params.base_price,
    }
}

/// The keys that draw a deadline.
const DEADLINE: [&str; 3] = ["deadline_low_mean", "deadline_ratio", "spread"];
/// The keys that draw a budget.
const BUDGET: [&str; 4] = ["budget_low_mean", "budget_ratio", "spread", "base_price"];

/// A deadline or budget the QoS model drew out of range comes from the
/// `[params]` that draw it. The error is placed at the first of them that,
/// back at its default, lets the draw succeed (`fixes`); where none does
/// alone, at the first. The message names them all. Any other error of
/// the model is the kind's.
fn placed(e: PricingError, fixes: impl Fn(&str) -> bool) -> RunError {
    use PricingError::{InvalidFactor, NotFinite, OutOfDomain};
    let what = match &e {
        OutOfDomain { name, .. } | InvalidFactor { name, .. } => *name,
        NotFinite { quantity, .. } => *quantity,
        _ => "",
    };
    let keys: &[&str] = if what.contains("deadline") {
        &DEADLINE
    } else if what.contains("budget") {
        &BUDGET
    } else {
        return RunError::Kind {
            message: format!("the QoS model: {e}"),
        };
    };
    let named = match keys {
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    match keys.iter().find(|k| fixes(k)) {
        Some(key) => RunError::field(
            format!("params.{key}"),
            format!(
                "the QoS model: {e}; params {named} draw it, and {key} is the one that \
                 draws it out of range: give it a smaller value"
            ),
        ),
        None => RunError::field(
            format!("params.{}", keys[0]),
            format!("the QoS model: {e}; params {named} draw it: give smaller values"),
        ),
    }
}

/// `params` with `key` (one of the QoS model's keys) at its default.
fn at_default(params: &Params, key: &str) -> Params {
    let d = Params::default();
    let mut p = params.clone();
    match key {
        "deadline_low_mean" => p.deadline_low_mean = d.deadline_low_mean,
        "deadline_ratio" => p.deadline_ratio = d.deadline_ratio,
        "budget_low_mean" => p.budget_low_mean = d.budget_low_mean,
        "budget_ratio" => p.budget_ratio = d.budget_ratio,
        "spread" => p.spread = d.spread,
        "base_price" => p.base_price = d.base_price,
        _ => {}
    }
    p
}
