//! The values a metric can take, derived in one place from the metric
//! definitions of the kinds (their y-axis labels carry the unit), so every
//! reader of intermediate files checks the same ranges.
//!
//! - a bounded slowdown is at least 1 (it is `max(1, ...)` per job);
//! - a percentage (`%` in the label) lies in `[0, 100]`;
//! - a duration (`(s)`) is at least 0;
//! - a count (`jobs`, `requests`, `messages`, `violations`, `reservations`,
//!   `forwards`) is at least 0;
//! - a `_ratio` metric lies in `[0, 1]`;
//! - anything else (money, utility, improvement ratios) is any finite
//!   number.
//!
//! Values are always finite. A gain over a reference (a panel with
//! `gain_over` or `reduction_over`) is any finite number.

use std::fmt;

use crate::kind::MetricInfo;

/// The range of a metric's values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Domain {
    /// Any finite number.
    Finite,
    /// A finite number at least this.
    AtLeast(f64),
    /// A finite number in `[lo, hi]`.
    Range(f64, f64),
}

/// Units whose values count things.
const COUNTS: &[&str] = &[
    "jobs",
    "requests",
    "messages",
    "violations",
    "reservations",
    "forwards",
];

impl Domain {
    /// The domain of a metric, from its name and y-axis label.
    pub fn of(metric: &MetricInfo) -> Domain {
        let label = metric.y_label;
        if label.contains("bounded slowdown") {
            Domain::AtLeast(1.0)
        } else if label.contains('%') {
            Domain::Range(0.0, 100.0)
        } else if label.ends_with("(s)") || COUNTS.contains(&label) {
            Domain::AtLeast(0.0)
        } else if metric.name.ends_with("_ratio") {
            Domain::Range(0.0, 1.0)
        } else {
            Domain::Finite
        }
    }

    /// Whether `v` is in the domain.
    pub fn contains(self, v: f64) -> bool {
        v.is_finite()
            && match self {
                Domain::Finite => true,
                Domain::AtLeast(lo) => v >= lo,
                Domain::Range(lo, hi) => (lo..=hi).contains(&v),
            }
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Domain::Finite => write!(f, "a finite number"),
            Domain::AtLeast(lo) => write!(f, "a finite number of at least {lo}"),
            Domain::Range(lo, hi) => write!(f, "a finite number from {lo} to {hi}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every metric of every kind, with the domain derived for it: a new
    /// metric shows up here, so its range is a decision, not an accident.
    #[test]
    fn every_metric_has_the_domain_its_unit_implies() {
        let mut seen = Vec::new();
        let registry = crate::registry::Registry::builtin();
        for name in registry.kinds() {
            let kind = registry.kind(name).unwrap();
            for m in (kind.metrics)() {
                seen.push(format!("{}.{}: {}", kind.name, m.name, Domain::of(&m)));
            }
        }
        let text = seen.join("\n");
        for expected in [
            "backfilling.mean_bsld: a finite number of at least 1",
            "backfilling.utilization: a finite number from 0 to 100",
            "backfilling.mean_wait: a finite number of at least 0",
            "backfilling.jobs: a finite number of at least 0",
            "provisioning.grid_bsld: a finite number of at least 1",
            "provisioning.grid_r: a finite number",
            "pricing.qos: a finite number from 0 to 100",
            "utility.success_ratio: a finite number from 0 to 1",
            "utility.user_utility: a finite number",
            "adaptive.profit: a finite number",
        ] {
            assert!(text.contains(expected), "{expected}\n{text}");
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(!Domain::Finite.contains(v));
        }
        assert!(!Domain::AtLeast(1.0).contains(0.5));
        assert!(Domain::Range(0.0, 100.0).contains(100.0));
        assert!(!Domain::Range(0.0, 100.0).contains(-0.1));
    }
}
