//! The `provisioning` kind's check of its `[params]` ([`Kind::check`](crate::kind::Kind::check)):
//! every value within what a run can hold, an error at the key at fault.

use partitions_forecast::MAX_CHECKS;
use profile::{MAX_DURATION, ShortFloat};

use super::{DAY, Params};
use crate::kind::ParamError;

/// The most clusters a run may have.
const MAX_CLUSTERS: usize = 500;

/// Every parameter of `p` within its range, or the first that is not.
pub(super) fn check(p: &Params) -> Result<(), ParamError> {
    let bad = |key: &str, message: String| Err(ParamError::key(key, message));
    if p.clusters.is_empty() || p.clusters.contains(&0) {
        let expected = "expected at least one cluster, each of at least 1 processor";
        return bad("clusters", format!("is {:?}, {expected}", p.clusters));
    }
    // Each cluster draws its own Lublin99 stream over the grid months:
    // 200 clusters took a minute and 1.6 GB for two runs.
    if p.clusters.len() > MAX_CLUSTERS {
        return bad(
            "clusters",
            format!(
                "lists {} clusters, expected at most {MAX_CLUSTERS} (a hundred times the \
                 paper's five; each draws its own local workload over the grid months, \
                 200 clusters take about a minute and 1.6 GB)",
                p.clusters.len()
            ),
        );
    }
    // Calendar and trace times: a run's times stay within the
    // simulator's 2^40 s, so no sum or product of them overflows.
    let calendar = [
        (
            "trace_start_unix",
            p.trace_start_unix,
            -MAX_DURATION,
            MAX_DURATION,
        ),
        ("trace_year", p.trace_year, 1, 9999),
        ("trace_utc_offset_s", Some(p.trace_utc_offset_s), -DAY, DAY),
    ];
    for (key, v, lo, hi) in calendar {
        if let Some(v) = v.filter(|v| !(lo..=hi).contains(v)) {
            return bad(key, format!("is {v}, expected {lo} to {hi}"));
        }
    }
    if p.procs_per_node == 0 || p.clusters.iter().any(|c| c % p.procs_per_node != 0) {
        return bad(
            "procs_per_node",
            format!(
                "is {}, expected at least 1 and a divisor of every cluster's processors {:?}",
                p.procs_per_node, p.clusters
            ),
        );
    }
    if let Some(a) = &p.admission {
        if a.policy != "libra+$" {
            return bad(
                "admission.policy",
                format!("is '{}', expected \"libra+$\"", a.policy),
            );
        }
        let checks = [
            ("admission.alpha", a.alpha, 0.0),
            ("admission.beta", a.beta, 0.0),
            ("admission.base_price", a.base_price, f64::MIN_POSITIVE),
            ("admission.budget_factor", a.budget_factor, 0.0),
            ("admission.deadline_factor", a.deadline_factor, 1.0),
        ];
        if let Some((key, v, lo)) = checks.iter().find(|(_, v, lo)| !(v.is_finite() && v >= lo)) {
            return bad(
                key,
                format!(
                    "is {}, expected a finite value of at least {}",
                    ShortFloat(*v),
                    ShortFloat(*lo)
                ),
            );
        }
    }
    let [first, last] = p.grid_months;
    if !(1..=12).contains(&first) || !(first..=12).contains(&last) {
        let expected = "expected two months 1-12 in order";
        return bad("grid_months", format!("is [{first}, {last}], {expected}"));
    }
    if !(p.interval_min.is_finite()
        && p.interval_min * 60.0 >= 1.0
        && p.interval_min * 60.0 <= MAX_DURATION as f64)
    {
        let expected = "expected at least one second and at most 2^40 s";
        return bad(
            "interval_min",
            format!("is {}, {expected}", ShortFloat(p.interval_min)),
        );
    }
    // Each value in [min, max]; `top` is no upper bound. Durations
    // within the simulator's 2^40 s.
    let top = f64::MAX;
    let (max_s, max_days) = (MAX_DURATION as f64, (MAX_DURATION / DAY) as f64);
    let ranges = [
        ("deadline_share", p.deadline_share, 0.0, 1.0),
        ("stringency", p.stringency, 1.0, top),
        ("report_every_s", p.report_every_s as f64, 1.0, max_s),
        ("bsld_bound", p.bsld_bound as f64, 1.0, max_s),
        ("warmup_days", p.warmup_days as f64, 0.0, max_days),
        (
            "training_from_days",
            p.training_from_days as f64,
            0.0,
            max_days,
        ),
        ("forecast_window", p.forecast_window as f64, 1.0, top),
        (
            "reallocation_checks",
            p.reallocation_checks.into(),
            1.0,
            MAX_CHECKS.into(),
        ),
        // Absent: unlimited. 0 s or less would describe no slot at all.
        (
            "horizon_s",
            p.horizon_s.map_or(1.0, |h| h as f64),
            1.0,
            max_s,
        ),
    ];
    match ranges.iter().find(|(_, v, lo, hi)| !(lo..=hi).contains(&v)) {
        None => Ok(()),
        Some((key, v, lo, hi)) if *hi < top => bad(
            key,
            format!("is {}, expected a value in [{lo}, {hi}]", ShortFloat(*v)),
        ),
        Some((key, v, lo, _)) => bad(
            key,
            format!("is {}, expected at least {lo}", ShortFloat(*v)),
        ),
    }
}
