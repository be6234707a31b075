//! The `provisioning` kind's `[params]` keys, documented for `cargo xtask describe`
//! and `configs/README.md`: key, unit, one line (types and defaults come
//! from `Params::default()`; a test checks that every key has a line).

use crate::kind::Param;

/// Every `[params]` key of the `provisioning` kind.
pub(super) const PARAMS: &[Param] = &[
    Param::new(
        "policy",
        "",
        "the provider and gateway policies of this run, `<provider>+<gateway>` (each series sets it)",
    ),
    Param::new(
        "base",
        "",
        "the series deadlines and the improvement ratio R are measured against",
    ),
    Param::new(
        "clusters",
        "processors",
        "per cluster, one entry each (DAS-2's five; at most 500 clusters)",
    ),
    Param::new(
        "procs_per_node",
        "processors",
        "per node of every cluster (DAS-2's nodes are dual-processor)",
    ),
    Param::new(
        "local_max_job",
        "",
        "the largest local Lublin99 job of a cluster: `nodes` (the paper's) or `processors`",
    ),
    Param::new(
        "grid_months",
        "months, 1 to 12",
        "first and last month of the grid trace to replay",
    ),
    Param::new(
        "trace_start_unix",
        "s since 1970",
        "the trace's UnixStartTime (its time 0), within ±2^40 s; unset, the trace header's (an error if it has none)",
    ),
    Param::new(
        "trace_year",
        "year",
        "the calendar year the trace starts in, 1 to 9999; unset, the local year of the trace's start",
    ),
    Param::new(
        "trace_utc_offset_s",
        "s",
        "the trace's offset from UTC, at most a day either way (month boundaries are local midnights)",
    ),
    Param::new(
        "interval_min",
        "min",
        "slot publication interval (also the forecast's interval)",
    ),
    Param::new(
        "report_every_s",
        "s",
        "between utilisation reports (least-load)",
    ),
    Param::new(
        "warmup_days",
        "days",
        "jobs submitted in the first days are not measured",
    ),
    Param::new(
        "training_from_days",
        "days",
        "the forecast observes loads from this day on",
    ),
    Param::new(
        "deadline_share",
        "share, 0 to 1",
        "of grid jobs given a deadline",
    ),
    Param::new(
        "stringency",
        "× base response time",
        "deadline = submit + stringency × the job's response time under the base series",
    ),
    Param::new("tolerance_s", "s", "violation tolerance T"),
    Param::new("bsld_bound", "s", "bounded-slowdown threshold"),
    Param::new(
        "horizon_s",
        "s",
        "slot horizon, 1 s to 2^40 s; absent for unlimited",
    ),
    Param::new(
        "forecast_window",
        "intervals",
        "in the forecast's moving-average window",
    ),
    Param::new(
        "reallocation_checks",
        "per interval",
        "reallocation checks (ArEbMf), 1 to 10,000",
    ),
    Param::new(
        "share_from",
        "",
        "which load sets the share ArEbMf offers: `forecast` or `actual`",
    ),
    Param::new(
        "forecast_load",
        "",
        "how ArEbMf measures the local load it forecasts: `utilisation` or `demand`",
    ),
    Param::new(
        "track_allocations",
        "",
        "whether the gateway books its own placements in its copy of the slots",
    ),
    Param::new(
        "admission",
        "",
        "Libra+$ pricing and admission of grid jobs at the providers: a table of `policy` (`libra+$`), `alpha`, `beta`, `base_price` (price units/s), `budget_factor` (estimate x base price) and `deadline_factor` (estimates); absent, every grid job is admitted",
    ),
];
