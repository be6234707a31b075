//! The values a metric can take, derived in one place from the metric
//! definitions of the kinds (their y-axis labels carry the unit), so every
//! reader of intermediate files checks the same ranges.
//!
//! - a bounded slowdown is at least 1 (it is `max(1, ...)` per job);
//! - a percentage (`%` in the label) lies in `[0, 100]`;
//! - a duration (`(s)`) is at least 0;
//! - a count (`jobs`, `requests`, `messages`, `violations`, `reservations`,
//!   `forwards`) is a whole number, at least 0 (and not `-0`: a count is
//!   written as an integer's `f64`, which is never negative zero); a rate
//!   in such a unit (`_per_` in the name: `forwards_per_job`) is any
//!   number of at least 0;
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
    /// A whole number, at least 0, not `-0`: how many of something.
    Count,
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
        } else if COUNTS.contains(&label) && !metric.name.contains("_per_") {
            Domain::Count
        } else if COUNTS.contains(&label) || label.ends_with("(s)") {
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
                Domain::Count => v >= 0.0 && v.fract() == 0.0 && v.is_sign_positive(),
            }
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Domain::Finite => write!(f, "a finite number"),
            Domain::AtLeast(lo) => write!(f, "a finite number of at least {lo}"),
            Domain::Range(lo, hi) => write!(f, "a finite number from {lo} to {hi}"),
            Domain::Count => write!(f, "a count (a whole number, at least 0)"),
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
            "backfilling.jobs: a count (a whole number, at least 0)",
            "backfilling.killed: a count (a whole number, at least 0)",
            "backfilling.measured: a count (a whole number, at least 0)",
            "pricing.jobs: a count (a whole number, at least 0)",
            "provisioning.messages: a count (a whole number, at least 0)",
            "provisioning.late_starts: a count (a whole number, at least 0)",
            "provisioning.grid_jobs: a count (a whole number, at least 0)",
            "adaptive.requests: a count (a whole number, at least 0)",
            "adaptive.rejected: a count (a whole number, at least 0)",
            "utility.rejected: a count (a whole number, at least 0)",
            "utility.forwards_per_job: a finite number of at least 0",
            "utility.messages_per_job: a finite number of at least 0",
            "provisioning.grid_bsld: a finite number of at least 1",
            "provisioning.grid_r: a finite number",
            "pricing.qos: a finite number from 0 to 100",
            "utility.success_ratio: a finite number from 0 to 1",
            "utility.user_utility: a finite number",
            "adaptive.profit: a finite number",
        ] {
            assert!(text.contains(expected), "{expected}\n{text}");
        }
        // A kind's `AT_MOST` pairs name two of its count metrics.
        for name in registry.kinds() {
            let kind = registry.kind(name).unwrap();
            let metrics = (kind.metrics)();
            for (a, b) in kind.at_most {
                for m in [a, b] {
                    let m = metrics.iter().find(|x| x.name == *m);
                    assert_eq!(m.map(Domain::of), Some(Domain::Count), "{name}: {a} ≤ {b}");
                }
            }
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(!Domain::Finite.contains(v));
        }
        assert!(!Domain::AtLeast(1.0).contains(0.5));
        assert!(Domain::Range(0.0, 100.0).contains(100.0));
        assert!(!Domain::Range(0.0, 100.0).contains(-0.1));
        for v in [0.0, 1.0, 300.0, 9.007_199_254_740_992e15] {
            assert!(Domain::Count.contains(v), "{v}");
        }
        for v in [-0.0, 300.5, 0.25, -1.0, 1e-300, f64::INFINITY, f64::NAN] {
            assert!(!Domain::Count.contains(v), "{v}");
        }
    }
}
