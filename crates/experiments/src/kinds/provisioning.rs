//! `kind = "provisioning"`: Assunção & Buyya's multiple-site provisioning.
//! Five DAS-2 clusters run their local Lublin99 workloads under a provider
//! policy; an InterGrid gateway places the grid jobs of a trace on them. One
//! series per `<provider>+<gateway>` pair; every series of a repetition sees
//! the same local and grid jobs (common random numbers).
//!
//! The simulation, deadlines and metrics are `intergrid`'s; this file only
//! turns `[params]` into its `Config`, `Scenario` and `Evaluation` (the grid
//! months of the trace, one Lublin99 stream per cluster, derived seeds) and
//! its `Metrics` into the named metrics below.
//!
//! The kind generates the local workloads itself (one Lublin99 stream per
//! cluster and repetition); the experiment names one `[[workloads]]` entry,
//! the grid trace. On the `interval` axis x is the publication interval in
//! minutes; on the categorical `workload` axis the interval is
//! `params.interval_min` and the bars of a figure are the series.
//!
//! ```toml
//! [params]
//! series = ["arcb+earliest-ask", "arcb+earliest-partial"]
//! clusters = [144, 64, 64, 64, 64]     # processors (DAS-2)
//! grid_months = [9, 12]                # months of the grid trace, inclusive
//! trace_start_unix = 1041377305        # the trace's UnixStartTime
//! trace_year = 2003                    # the calendar year it starts in
//! trace_utc_offset_s = 3600            # its time zone (CET, no DST)
//! interval_min = 120                   # publication interval off the interval axis
//! report_every_s = 600                 # least-load utilisation reports
//! warmup_days = 14                     # jobs submitted earlier are not measured
//! training_from_days = 7               # the forecast learns from here
//! deadline_share = 0.2                 # grid jobs with a deadline
//! stringency = 5.0                     # deadline = submit + 5 × base response
//! tolerance_s = 20                     # violation tolerance T
//! bsld_bound = 10                      # bounded slowdown bound, s
//! # horizon_s = 86400                  # slot horizon; absent = unlimited
//! forecast_window = 25                 # intervals
//! reallocation_checks = 3              # per interval
//! share_from = "forecast"              # or "actual" (Algorithm 1 line 8 as printed)
//! forecast_load = "utilisation"        # or "demand" (running + waiting local jobs)
//! track_allocations = true             # the gateway books its own placements
//! base = "areb+least-load"             # for deadlines and the ratio R
//! ```

use intergrid::{Config, Evaluation, GatewayKind, Metrics, Scenario, Series};
use partitions_forecast::{ForecastConfig, LoadMeasure, ProviderPolicy, ShareFrom};
use profile::{Job, Time};
use serde::{Deserialize, Serialize};
use swf_io::lublin99::Lublin99;

use crate::config::{Experiment, derive_seed};
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;

const DAY: i64 = 86_400;

/// The provisioning runner.
pub(crate) struct Provisioning;

/// Algorithm 1's share source, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ShareName {
    #[default]
    Forecast,
    Actual,
}

/// The forecast's load measure, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum LoadName {
    #[default]
    Utilisation,
    Demand,
}

/// `[params]` of a provisioning experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Params {
    /// One series per `<provider>+<gateway>` pair, in legend order.
    pub series: Vec<Series>,
    /// Processors per cluster.
    #[serde(default = "das2")]
    pub clusters: Vec<u32>,
    /// First and last month (1–12) of the grid trace to replay.
    #[serde(default = "months")]
    pub grid_months: [u32; 2],
    /// The trace's UnixStartTime (its time 0).
    pub trace_start_unix: i64,
    /// The calendar year the trace starts in.
    pub trace_year: i64,
    /// The trace's offset from UTC in seconds (month boundaries are local midnights).
    #[serde(default)]
    pub trace_utc_offset_s: i64,
    /// Publication interval in minutes when the x axis is not `interval`.
    #[serde(default = "two_hours")]
    pub interval_min: f64,
    /// Seconds between utilisation reports (least-load).
    #[serde(default = "ten_minutes")]
    pub report_every_s: i64,
    /// Jobs submitted in the first days are not measured.
    #[serde(default = "fourteen")]
    pub warmup_days: i64,
    /// The forecast observes loads from this day on.
    #[serde(default = "seven")]
    pub training_from_days: i64,
    /// Share of grid jobs given a deadline.
    #[serde(default)]
    pub deadline_share: f64,
    /// Deadline = submit + stringency × response time under the base policy.
    #[serde(default = "five")]
    pub stringency: f64,
    /// Violation tolerance T in seconds.
    #[serde(default = "twenty")]
    pub tolerance_s: u32,
    /// Bounded-slowdown bound in seconds.
    #[serde(default = "ten")]
    pub bsld_bound: i64,
    /// Slot horizon in seconds; absent for unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon_s: Option<i64>,
    /// Forecast window in intervals.
    #[serde(default = "twenty_five")]
    pub forecast_window: usize,
    /// Reallocation checks per interval (ArEbMf).
    #[serde(default = "three")]
    pub reallocation_checks: u32,
    /// Which load sets the share ArEbMf offers.
    #[serde(default)]
    pub share_from: ShareName,
    /// How ArEbMf measures the local load it forecasts.
    #[serde(default)]
    pub forecast_load: LoadName,
    /// Whether the gateway books its own placements in its copy of the slots.
    #[serde(default = "yes")]
    pub track_allocations: bool,
    /// The base of deadlines and of the improvement ratio R.
    #[serde(default = "base")]
    pub base: Series,
}

fn das2() -> Vec<u32> {
    vec![144, 64, 64, 64, 64]
}
fn months() -> [u32; 2] {
    [9, 12]
}
fn two_hours() -> f64 {
    120.0
}
fn ten_minutes() -> i64 {
    600
}
fn fourteen() -> i64 {
    14
}
fn seven() -> i64 {
    7
}
fn five() -> f64 {
    5.0
}
fn twenty() -> u32 {
    20
}
fn ten() -> i64 {
    10
}
fn twenty_five() -> usize {
    25
}
fn three() -> u32 {
    3
}
fn yes() -> bool {
    true
}
fn base() -> Series {
    Series {
        provider: ProviderPolicy::ArEb,
        gateway: GatewayKind::LeastLoad,
    }
}

/// A metric of `METRICS` and how to read it off a run's [`Metrics`].
struct MetricDef {
    metric: Metric,
    value: fn(&Metrics) -> f64,
}

const fn def(
    name: &'static str,
    title: &'static str,
    y_label: &'static str,
    value: fn(&Metrics) -> f64,
) -> MetricDef {
    MetricDef {
        metric: Metric {
            name,
            title,
            y_label,
        },
        value,
    }
}

const DEFS: &[MetricDef] = &[
    def(
        "messages",
        "Messages between gateway and providers",
        "messages",
        |m| m.messages as f64,
    ),
    def("violations", "Violations", "violations", |m| {
        m.violations as f64
    }),
    def(
        "violations_pct",
        "Violations (% of grid jobs)",
        "violations (% of grid jobs)",
        |m| m.violations_pct,
    ),
    def(
        "grid_bsld",
        "Grid jobs: mean bounded slowdown",
        "mean bounded slowdown",
        |m| m.grid_bsld,
    ),
    def(
        "local_bsld",
        "Local jobs: mean bounded slowdown",
        "mean bounded slowdown",
        |m| m.local_bsld,
    ),
    def(
        "grid_r",
        "Grid jobs: improvement ratio R",
        "average R",
        |m| m.grid_r,
    ),
    def(
        "local_r",
        "Local jobs: improvement ratio R",
        "average R",
        |m| m.local_r,
    ),
    def(
        "late_starts",
        "Late starts (j_pst − j_gst > T)",
        "jobs",
        |m| m.late_starts as f64,
    ),
    def("refusals", "Refused reservations", "reservations", |m| {
        m.refusals as f64
    }),
    def(
        "rejected_pct",
        "Grid jobs rejected",
        "% of grid jobs",
        |m| m.rejected_pct,
    ),
    def(
        "held_pct",
        "Grid jobs held at the gateway for want of a slot",
        "% of grid jobs",
        |m| m.held_pct,
    ),
    def("grid_jobs", "Grid jobs measured", "jobs", |m| {
        m.grid_jobs as f64
    }),
    def("local_jobs", "Local jobs measured", "jobs", |m| {
        m.local_jobs as f64
    }),
];

const METRICS: [Metric; DEFS.len()] = {
    let mut out = [DEFS[0].metric; DEFS.len()];
    let mut i = 0;
    while i < DEFS.len() {
        out[i] = DEFS[i].metric;
        i += 1;
    }
    out
};

impl Kind for Provisioning {
    const NAME: &'static str = "provisioning";
    const METRICS: &'static [Metric] = &METRICS;
    const AXES: &'static [&'static str] = &["interval"];
    type Params = Params;

    fn series(params: &Params) -> Vec<String> {
        params.series.iter().map(Series::to_string).collect()
    }

    fn check(params: &Params, experiment: &Experiment) -> Result<(), String> {
        if experiment.spec.workloads.len() != 1 {
            return Err("a provisioning experiment takes exactly one workload: the grid trace (local workloads are generated)".into());
        }
        if params.clusters.is_empty() || params.clusters.contains(&0) {
            return Err(
                "params.clusters needs at least one cluster, each with at least 1 processor".into(),
            );
        }
        let [first, last] = params.grid_months;
        if !(1..=12).contains(&first) || !(first..=12).contains(&last) {
            return Err(format!(
                "params.grid_months is [{first}, {last}], expected two months 1-12 in order"
            ));
        }
        if !(0.0..=1.0).contains(&params.deadline_share) {
            return Err(format!(
                "params.deadline_share is {}, expected a share in [0, 1]",
                params.deadline_share
            ));
        }
        if !(params.stringency.is_finite() && params.stringency >= 1.0) {
            return Err(format!(
                "params.stringency is {}, expected a factor of at least 1",
                params.stringency
            ));
        }
        let positive = [
            ("params.report_every_s", params.report_every_s),
            ("params.bsld_bound", params.bsld_bound),
            ("params.warmup_days", params.warmup_days + 1),
            ("params.training_from_days", params.training_from_days + 1),
        ];
        if let Some((name, v)) = positive.iter().find(|(_, v)| *v < 1) {
            return Err(format!("{name} is {v}, expected a positive number"));
        }
        let intervals: Vec<f64> = if experiment.spec.sweep.axis.get_ref() == "interval" {
            experiment.spec.sweep.values.clone()
        } else {
            vec![params.interval_min]
        };
        if let Some(v) = intervals
            .iter()
            .find(|v| !(v.is_finite() && **v * 60.0 >= 1.0))
        {
            return Err(format!(
                "publication interval {v} min is not a positive number of seconds"
            ));
        }
        if params.forecast_window == 0 || params.reallocation_checks == 0 {
            return Err(
                "params.forecast_window and params.reallocation_checks must be at least 1".into(),
            );
        }
        Ok(())
    }

    fn run(params: &Params, cell: &Cell<'_>) -> Result<Vec<f64>, RunError> {
        let minutes = match (cell.axis, cell.x) {
            ("interval", Some(x)) => x,
            _ => params.interval_min,
        };
        let interval = (minutes * 60.0).round() as i64;
        let scenario = scenario(params, cell)?;
        let evaluation = Evaluation {
            base: params.base,
            deadline_share: params.deadline_share,
            stringency: params.stringency,
            deadline_seed: derive_seed(cell.seed, "deadlines"),
            bsld_bound: params.bsld_bound,
        };
        let series = params.series[cell.series];
        let metrics =
            intergrid::evaluate(&config(params, interval), &scenario, series, &evaluation)
                .map_err(|e| RunError::Kind {
                    message: e.to_string(),
                })?;
        Ok(DEFS.iter().map(|d| (d.value)(&metrics)).collect())
    }
}

/// The platform of `params` with slots published every `interval` seconds.
fn config(params: &Params, interval: i64) -> Config {
    Config {
        clusters: params.clusters.clone(),
        forecast: ForecastConfig {
            window: params.forecast_window,
            smoothing: None,
            interval,
            checks: params.reallocation_checks,
            train_from: Time(params.training_from_days * DAY),
            share_from: match params.share_from {
                ShareName::Forecast => ShareFrom::Forecast,
                ShareName::Actual => ShareFrom::Actual,
            },
            load: match params.forecast_load {
                LoadName::Utilisation => LoadMeasure::Utilisation,
                LoadName::Demand => LoadMeasure::Demand,
            },
        },
        report_every: params.report_every_s,
        tolerance: params.tolerance_s,
        horizon: params.horizon_s,
        track_allocations: params.track_allocations,
    }
}

/// Seconds from 1970-01-01 to `year-month-01` 00:00 (proleptic Gregorian,
/// Hinnant's days-from-civil).
fn month_start_unix(year: i64, month: u32) -> i64 {
    let (y, m) = if month <= 2 {
        (year - 1, i64::from(month) + 9)
    } else {
        (year, i64::from(month) - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146_097 + doe - 719_468) * DAY
}

/// The jobs of one repetition: the grid trace's jobs in `params.grid_months`
/// (time 0 at the first month's local midnight) and one Lublin99 stream per
/// cluster over the same span, from the repetition's seed.
fn scenario(params: &Params, cell: &Cell<'_>) -> Result<Scenario, RunError> {
    let trace = cell.workload()?;
    let [first, last] = params.grid_months;
    let offset = params.trace_start_unix + params.trace_utc_offset_s;
    let from = month_start_unix(params.trace_year, first) - offset;
    let (ny, nm) = if last == 12 {
        (params.trace_year + 1, 1)
    } else {
        (params.trace_year, last + 1)
    };
    let until = month_start_unix(ny, nm) - offset;
    let grid: Vec<Job> = trace
        .jobs
        .iter()
        .filter(|j| (from..until).contains(&j.submit.0))
        .map(|j| Job {
            submit: j.submit - from,
            deadline: None,
            ..j.clone()
        })
        .collect();
    if grid.is_empty() {
        return Err(RunError::Kind {
            message: format!(
                "no grid job of '{}' falls in months {first} to {last}; check params.grid_months and trace_start_unix",
                trace.label
            ),
        });
    }
    let local: Vec<Vec<Job>> = params
        .clusters
        .iter()
        .enumerate()
        .map(|(k, &procs)| {
            Lublin99 {
                procs,
                duration: until - from,
                max_jobs: None,
                seed: derive_seed(cell.seed, &format!("local/{k}")),
                two_class: false,
            }
            .jobs()
        })
        .collect();
    Ok(Scenario {
        grid,
        local,
        warmup: Time(params.warmup_days * DAY),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_boundaries() {
        assert_eq!(month_start_unix(1970, 1), 0);
        // 2003-09-01 00:00 UTC and 2004-01-01 00:00 UTC.
        assert_eq!(month_start_unix(2003, 9), 1_062_374_400);
        assert_eq!(month_start_unix(2004, 1), 1_072_915_200);
        assert_eq!(month_start_unix(2000, 3), 951_868_800);
    }

    fn params(extra: &str) -> Params {
        toml::from_str(&format!(
            "series = [\"arcb+earliest-ask\"]\ntrace_start_unix = 0\ntrace_year = 1970\n{extra}"
        ))
        .unwrap()
    }

    #[test]
    fn defaults_and_names_reach_the_platform() {
        let p = params("");
        assert_eq!(p.base.to_string(), "areb+least-load");
        let c = config(&p, 7200);
        assert_eq!(c.clusters, [144, 64, 64, 64, 64]);
        assert_eq!(c.interval(), 7200);
        assert_eq!(c.forecast.train_from, Time(7 * DAY));
        assert_eq!(
            (c.forecast.share_from, c.forecast.load),
            (ShareFrom::Forecast, LoadMeasure::Utilisation)
        );
        assert_eq!((c.report_every, c.tolerance, c.horizon), (600, 20, None));
        let p = params(
            "share_from = \"actual\"\nforecast_load = \"demand\"\nhorizon_s = 86400\nbase = \"ArCb+earliest-partial\"",
        );
        let c = config(&p, 60);
        assert_eq!(
            (c.forecast.share_from, c.forecast.load, c.horizon),
            (ShareFrom::Actual, LoadMeasure::Demand, Some(86_400))
        );
        assert_eq!(p.base.to_string(), "arcb+earliest-partial");
        let bad = toml::from_str::<Params>(
            "series = [\"arcb+nearest\"]\ntrace_start_unix = 0\ntrace_year = 1970",
        );
        let message = bad.unwrap_err().to_string();
        assert!(
            message.contains("unknown gateway policy 'nearest'"),
            "{message}"
        );
    }

    #[test]
    fn every_metric_has_a_distinct_name() {
        let mut names: Vec<&str> = METRICS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DEFS.len());
    }
}
