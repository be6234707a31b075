//! `kind = "adaptive"`: Netto & Buyya's adaptive resource allocation
//! requests (`adaptive-requests`) on a trace split into intervals, shaped per
//! the paper's Table 1. One run is one variant: a scheduler and a request
//! flexibility.
//!
//! ```toml
//! series = ["fifo-rigid", "mdf-moldable", "mdf-preemptive-moldable"]
//! trim = 4                  # the best and worst intervals left out of every point
//! [params]
//! interval_days = 15        # the trace is cut into consecutive intervals
//! load_increase = 0         # % more submissions per unit of time
//! incentive = 0             # % off the price of preemptive requests
//! budget = "limit"          # or "cap"
//! mdf_fallback = "reject"   # or "append"
//! mdf_rescheduling = "full" # or "incremental"
//! [params.table1]           # every Table 1 number, with the paper's defaults
//! [[panels]]
//! metric = "profit"
//! gain_over = "fifo-rigid"  # relative metrics are panels, interval by interval
//! ```
//!
//! A series `<policy>-<flexibility>` (see [`Variant`]) stands for
//! `{ policy = "fifo" | "mdf", preemptive = .., moldable = .. }`; the
//! flexibility is `rigid`, `preemptive`, `moldable` or
//! `preemptive-moldable`. The random draws (which requests may be split,
//! which pay the high price profile) are per interval and per job, from
//! streams derived from the repetition seed, so every variant and every load
//! sees the same requests. The incentive changes the price of preemptive
//! requests only, so it leaves the other variants' runs as they are.
//!
//! Each interval is one sample ([`IntervalStats`]): the pipeline pairs the
//! intervals of a run with those of its reference for relative panels,
//! trims them and averages them with a confidence interval.

use std::sync::Arc;

use adaptive_requests::{
    BudgetRule, Fallback, IntervalStats, Policy, Rescheduling, Table1, Variant,
};
use profile::ShortFloat;
use serde::{Deserialize, Serialize};

use crate::error::RunError;
use crate::kind::{Input, Kind, Metric, PAPER_ONLY, Param, ParamError, Setup, overrides};
use crate::workload::Workload;

mod canonical;
pub(crate) mod intervals;
mod params;
mod schedules;

/// The adaptive-requests runner.
pub(crate) struct Adaptive;

/// `[params]` of an adaptive experiment: one variant and its setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Params {
    /// The scheduler (each series sets it).
    pub policy: Policy,
    /// Whether requests drawn as preemptive may be split.
    pub preemptive: bool,
    /// Whether requests are moldable.
    pub moldable: bool,
    /// Length of the intervals the trace is cut into, in days.
    pub interval_days: u32,
    /// Percent more submissions per unit of time.
    pub load_increase: f64,
    /// Percent of the price preemptive requests do not pay.
    pub incentive: f64,
    /// How budgets bind.
    pub budget: BudgetRule,
    /// What MDF does when rescheduling with a new request fails.
    pub mdf_fallback: Fallback,
    /// How MDF reschedules.
    pub mdf_rescheduling: Rescheduling,
    /// Table 1: how trace jobs become requests (`T^min` is the job's
    /// estimate: its run time with `estimate = "actual"`).
    pub table1: Table1,
}

impl Default for Params {
    fn default() -> Self {
        let Variant {
            policy,
            preemptive,
            moldable,
        } = Variant::FIFO_RIGID;
        Params {
            policy,
            preemptive,
            moldable,
            interval_days: 15,
            load_increase: 0.0,
            incentive: 0.0,
            budget: BudgetRule::default(),
            mdf_fallback: Fallback::default(),
            mdf_rescheduling: Rescheduling::default(),
            table1: Table1::default(),
        }
    }
}

impl Params {
    /// The scheduler and request flexibility of this run.
    fn variant(&self) -> Variant {
        Variant {
            policy: self.policy,
            preemptive: self.preemptive,
            moldable: self.moldable,
        }
    }
}

/// `100 · part / whole`, if there is a whole.
fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// `Err` at `key` unless `ok`.
fn ensure(ok: bool, key: &str, message: impl FnOnce() -> String) -> Result<(), ParamError> {
    if ok {
        Ok(())
    } else {
        Err(ParamError::key(key, message()))
    }
}

impl Kind for Adaptive {
    const NAME: &'static str = "adaptive";
    type Params = Params;
    type Sample = IntervalStats;
    const AT_MOST: &'static [(&'static str, &'static str)] = &[("rejected", "requests")];
    const METRICS: &'static [Metric<IntervalStats>] = &[
        Metric::new(
            "molded",
            "Accepted moldable requests that used fewer than R^max processors",
            "requests (%)",
            |s| share(s.molded, s.moldable_accepted),
        ),
        Metric::new(
            "modification",
            "Average modification of the molded requests (0% at R^max, 100% at R^min)",
            "modification (%)",
            |s| (s.molded > 0).then(|| s.modification_sum / s.molded as f64),
        ),
        Metric::new(
            "modification_all",
            "Average modification of all accepted moldable requests (0% at R^max, 100% at R^min)",
            "modification (%)",
            |s| (s.moldable_accepted > 0).then(|| s.modification_sum / s.moldable_accepted as f64),
        ),
        Metric::new(
            "profit",
            "Provider profit per interval",
            "profit ($)",
            |s| Some(s.profit),
        ),
        Metric::new(
            "response",
            "Average response time of accepted requests",
            "response time (s)",
            IntervalStats::response,
        ),
        Metric::new(
            "rejected",
            "Rejected requests per interval",
            "requests",
            |s| Some(s.rejected() as f64),
        ),
        Metric::new("rejected_share", "Rejected requests", "requests (%)", |s| {
            share(s.rejected(), s.requests)
        }),
        Metric::new("utilisation", "Utilisation", "utilisation (%)", |s| {
            (s.span > 0).then(|| 100.0 * s.busy / s.span as f64)
        }),
        Metric::new(
            "split",
            "Accepted preemptive requests that were split",
            "requests (%)",
            |s| share(s.split, s.preemptive_accepted),
        ),
        Metric::new("requests", "Requests per interval", "requests", |s| {
            Some(s.requests as f64)
        }),
    ];
    const RENAMED: &'static [(&'static str, &'static str)] = &[
        (
            "series",
            "list the variants as top-level `series = [...]` (`mdf-preemptive-moldable`, ...)",
        ),
        (
            "baseline",
            "relative metrics are panels on a plain metric: `gain_over = \"fifo-rigid\"` \
             (profit) or `reduction_over = \"fifo-rigid\"` (response, rejected)",
        ),
        ("trim", "write `trim = N` at the top level"),
    ];
    const PARAMS: &'static [Param] = params::PARAMS;
    const SERIES: &'static str = "<policy>-<flexibility>: policy fifo | mdf, flexibility rigid | preemptive | moldable | preemptive-moldable (e.g. mdf-preemptive-moldable)";

    fn series(name: &str) -> Result<toml::Table, String> {
        let v = name.parse::<Variant>().map_err(|e| e.to_string())?;
        Ok(overrides([
            ("policy", v.policy.name().into()),
            ("preemptive", v.preemptive.into()),
            ("moldable", v.moldable.into()),
        ]))
    }

    /// What a run of the variant does not read (`canonical.rs`).
    fn canonical(params: &mut Params) {
        canonical::reset_unread(params);
    }

    fn check(params: &Params, setup: &Setup<'_>) -> Result<(), ParamError> {
        ensure(params.interval_days > 0, "interval_days", || {
            "is 0, expected at least 1 day".into()
        })?;
        let incentive = params.incentive;
        ensure((0.0..=100.0).contains(&incentive), "incentive", || {
            format!(
                "is {}, expected a percentage in [0, 100]",
                ShortFloat(incentive)
            )
        })?;
        let load = params.load_increase;
        ensure(load.is_finite() && load > -100.0, "load_increase", || {
            format!("is {}, expected a percentage above -100", ShortFloat(load))
        })?;
        // Table 1's ranges are the library's own (`Table1::check`), named by
        // their key here, where the configuration is read.
        params.table1.check().map_err(|e| match e.field() {
            Some(field) => ParamError::key(&format!("table1.{field}"), e.complaint()),
            None => ParamError::key("table1", e.to_string()),
        })?;
        if setup.load {
            return Err(ParamError::general(
                "the adaptive kind compresses inter-arrival times within each interval: \
                 sweep `load_increase` (in %) instead of `load`",
            ));
        }
        Ok(())
    }

    /// Every interval scheduled and measured (`schedules.rs`, which also
    /// shares one schedule between runs that differ only in the incentive).
    fn run(
        params: &Params,
        input: &Input<'_>,
        _reference: Option<&[IntervalStats]>,
    ) -> Result<Vec<IntervalStats>, RunError> {
        schedules::run(params, input)
    }

    fn notes(params: &Params, workloads: &[Arc<Workload>]) -> Vec<String> {
        workloads
            .iter()
            .map(|w| {
                let sizes: Vec<f64> = swf_io::split_intervals(&w.jobs, params.interval_days)
                    .iter()
                    .map(|i| i.len() as f64)
                    .collect();
                let n = sizes.len().max(1) as f64;
                let mean = sizes.iter().sum::<f64>() / n;
                let sd = (sizes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
                // What the paper reports follows the marker, so a study of
                // one's own is not shown the paper's numbers as its own.
                format!(
                    "{}: {} requests in {} intervals of {} days, {mean:.0} ± {sd:.0} per \
                     interval.{PAPER_ONLY}48 files hold 11244 requests, 244 ± 68 each.",
                    w.label,
                    w.jobs.len(),
                    sizes.len(),
                    params.interval_days
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series name stands for the variant's parts, and the parts read back
    /// as the same variant.
    #[test]
    fn series_expand_to_parts() {
        for name in [
            "fifo-rigid",
            "mdf-preemptive",
            "fifo-moldable",
            "mdf-preemptive-moldable",
        ] {
            let params: Params = toml::Value::Table(Adaptive::series(name).unwrap())
                .try_into()
                .unwrap();
            assert_eq!(params.variant().to_string(), name);
        }
        assert!(Adaptive::series("mdf-flexible").is_err());
        assert_eq!(Params::default().variant(), Variant::FIFO_RIGID);
    }
}
