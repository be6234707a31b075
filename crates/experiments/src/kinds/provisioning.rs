//! `kind = "provisioning"`: Assunção & Buyya's multiple-site provisioning.
//! Five DAS-2 clusters run their local Lublin99 workloads under a provider
//! policy; an InterGrid gateway places the grid jobs of a trace on them. A
//! run is one `<provider>+<gateway>` policy; every run of a repetition sees
//! the same local and grid jobs (common random numbers).
//!
//! Every run is measured against the base series (`base`, ArEb +
//! least-load by default): the pipeline runs the base once per point and
//! repetition (its [`Kind::reference`]); a share of grid jobs gets deadlines
//! from the base's response times, and the improvement ratio R compares
//! with the base's slowdowns. The simulation, deadlines and metrics are
//! `intergrid`'s; this file only turns `[params]` into its `Config` and
//! `Scenario` (the grid months of the trace, one Lublin99 stream per
//! cluster, derived seeds) and its `Metrics` into the named metrics below.
//!
//! The experiment names one `[[workloads]]` entry, the grid trace. Any
//! parameter can be the sweep axis (`interval_min`, `deadline_share`, ...);
//! the defaults (documented on [`Params`]) are the paper's setup on the
//! DAS2-fs1-2003-1 trace.
//!
//! ```toml
//! series = ["arcb+earliest-ask", "arcb+earliest-partial"]  # each sets `policy`
//! [params]
//! local_max_job = "nodes"              # largest local job: a cluster's nodes, or "processors"
//! procs_per_node = 2                   # DAS-2's dual-processor nodes
//! interval_min = 120                   # slot publication interval, minutes
//! deadline_share = 0.2                 # grid jobs with a deadline
//! stringency = 5.0                     # deadline = submit + 5 × base response
//! base = "areb+least-load"             # for deadlines and the ratio R
//! ```

use std::sync::Arc;

use intergrid::{Metrics, Run, Series};
use partitions_forecast::{LoadMeasure, ShareFrom};
use serde::{Deserialize, Serialize};

use crate::error::RunError;
use crate::kind::{Input, Kind, Metric, Param, ParamError, Setup, Workloads, overrides};

const DAY: i64 = 86_400;

mod canonical;
mod check;
mod params;
pub(crate) mod round;
pub(crate) mod setup;
use round::{kind_error, measured, simulate};
use setup::{config, scenario};

/// The provisioning runner.
pub(crate) struct Provisioning;

/// The largest job of a cluster's local Lublin99 workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum LocalMax {
    /// The cluster's nodes: "the maximum number of CPUs used by the
    /// generated jobs is set to the number of nodes in the clusters" (§5.1).
    Nodes,
    /// The cluster's processors (the reading before the paper's nodes).
    Processors,
}

impl LocalMax {
    /// The largest local job on a cluster of `procs` processors.
    pub(crate) fn of(self, procs: u32, procs_per_node: u32) -> u32 {
        match self {
            LocalMax::Nodes => procs / procs_per_node.max(1),
            LocalMax::Processors => procs,
        }
    }
}

/// `[params]` of a provisioning experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Params {
    /// The provider and gateway policies of this run (each series sets it).
    pub policy: Series,
    /// The base of deadlines and of the improvement ratio R.
    pub base: Series,
    /// Processors per cluster.
    pub clusters: Vec<u32>,
    /// Processors per node of every cluster (DAS-2's nodes are
    /// dual-processor).
    pub procs_per_node: u32,
    /// The largest local job of a cluster, the machine size its Lublin99
    /// model is configured with: its number of nodes (`clusters /
    /// procs_per_node`, the paper's) or of processors.
    pub local_max_job: LocalMax,
    /// First and last month (1–12) of the grid trace to replay.
    pub grid_months: [u32; 2],
    /// The trace's UnixStartTime (its time 0); unset, the header's (an
    /// error without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_start_unix: Option<i64>,
    /// The calendar year the trace starts in; unset, the local year of the
    /// trace's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_year: Option<i64>,
    /// The trace's offset from UTC in seconds (month boundaries are local midnights).
    pub trace_utc_offset_s: i64,
    /// Slot publication interval in minutes (also the forecast's interval).
    pub interval_min: f64,
    /// Seconds between utilisation reports (least-load).
    pub report_every_s: i64,
    /// Jobs submitted in the first days are not measured.
    pub warmup_days: i64,
    /// The forecast observes loads from this day on.
    pub training_from_days: i64,
    /// Share of grid jobs given a deadline.
    pub deadline_share: f64,
    /// Deadline = submit + stringency × response time under the base policy.
    pub stringency: f64,
    /// Violation tolerance T in seconds.
    pub tolerance_s: u32,
    /// Bounded-slowdown bound in seconds.
    pub bsld_bound: i64,
    /// Slot horizon in seconds; absent for unlimited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizon_s: Option<i64>,
    /// Forecast window in intervals.
    pub forecast_window: usize,
    /// Reallocation checks per interval (ArEbMf).
    pub reallocation_checks: u32,
    /// Which load sets the share ArEbMf offers.
    pub share_from: ShareFrom,
    /// How ArEbMf measures the local load it forecasts.
    pub forecast_load: LoadMeasure,
    /// Whether the gateway books its own placements in its copy of the slots.
    pub track_allocations: bool,
    /// Libra+$ pricing and admission at the providers (absent: all admitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admission: Option<AdmissionParams>,
}

/// `[params.admission]`: Libra+$ at the providers (`intergrid::Priced`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct AdmissionParams {
    /// The admission rule and price: `"libra+$"` (Algorithm 1 with the
    /// Libra+$ price), the only one so far.
    pub policy: String,
    /// Libra+$'s `α` (static price weight).
    pub alpha: f64,
    /// Libra+$'s `β` (utilisation price weight).
    pub beta: f64,
    /// Price per second of processor time.
    pub base_price: f64,
    /// A grid job's budget in units of estimate × base price.
    pub budget_factor: f64,
    /// The deadline of a grid job without one, in estimates.
    pub deadline_factor: f64,
}

impl Default for AdmissionParams {
    /// Libra+$ with `intergrid::ProviderPricing::PAPER`.
    fn default() -> Self {
        let p = intergrid::ProviderPricing::PAPER;
        AdmissionParams {
            policy: "libra+$".into(),
            alpha: p.alpha,
            beta: p.beta,
            base_price: p.base_price,
            budget_factor: p.budget_factor,
            deadline_factor: p.deadline_factor,
        }
    }
}

/// ArEb + least-load, the paper's base.
const BASE: Series = Series {
    provider: partitions_forecast::ProviderPolicy::ArEb,
    gateway: intergrid::GatewayKind::LeastLoad,
};

impl Default for Params {
    fn default() -> Self {
        Params {
            policy: BASE,
            base: BASE,
            clusters: vec![144, 64, 64, 64, 64],
            procs_per_node: 2,
            local_max_job: LocalMax::Nodes,
            grid_months: [9, 12],
            trace_start_unix: None,
            trace_year: None,
            trace_utc_offset_s: 3600,
            interval_min: 120.0,
            report_every_s: 600,
            warmup_days: 14,
            training_from_days: 7,
            deadline_share: 0.0,
            stringency: 5.0,
            tolerance_s: 20,
            bsld_bound: 10,
            horizon_s: None,
            forecast_window: 25,
            reallocation_checks: 3,
            share_from: ShareFrom::Forecast,
            forecast_load: LoadMeasure::Utilisation,
            track_allocations: true,
            admission: None,
        }
    }
}

/// What one run measured, and the run itself for the runs measured against
/// it (a base run's grid-job outcomes set their deadlines and ratios).
#[derive(Debug, Clone)]
pub(crate) struct Sample {
    /// The simulated run.
    pub run: Arc<Run>,
    /// Its metrics against the base run (a base run against itself).
    pub metrics: Metrics,
}

/// Metrics named after the fields of a sample's [`Metrics`] they read.
macro_rules! metrics {
    ($($field:ident: $title:literal, $y_label:literal;)*) => {
        &[$(Metric::new(stringify!($field), $title, $y_label, |s| Some(s.metrics.$field as f64))),*]
    };
}

impl Kind for Provisioning {
    const NAME: &'static str = "provisioning";
    const ONE_SAMPLE: bool = true; // one machine (or grid) measured as a whole
    const WORKLOADS: Workloads = Workloads::One;
    type Params = Params;
    type Sample = Sample;
    const METRICS: &'static [Metric<Sample>] = metrics! {
        messages: "Messages between gateway and providers", "messages";
        violations: "Violations", "violations";
        violations_pct: "Violations (% of grid jobs)", "violations (% of grid jobs)";
        grid_bsld: "Grid jobs: mean bounded slowdown", "mean bounded slowdown";
        local_bsld: "Local jobs: mean bounded slowdown", "mean bounded slowdown";
        grid_r: "Grid jobs: improvement ratio R", "average R";
        local_r: "Local jobs: improvement ratio R", "average R";
        late_starts: "Late starts (j_pst − j_gst > T)", "jobs";
        refusals: "Refused reservations", "reservations";
        rejected_pct: "Grid jobs rejected", "% of grid jobs";
        held_pct: "Grid jobs held at the gateway for want of a slot", "% of grid jobs";
        grid_jobs: "Grid jobs measured", "jobs";
        local_jobs: "Local jobs measured", "jobs";
        revenue: "Revenue of the providers' admission (0 without `admission`)", "price units";
    };
    const RENAMED: &'static [(&'static str, &'static str)] = &[(
        "series",
        "list the policies as top-level `series = [...]` (each sets `policy`)",
    )];
    const PARAMS: &'static [Param] = params::PARAMS;
    const SERIES: &'static str = "<provider>+<gateway>: provider ArCb | ArEb | ArCbM | ArEbM | ArEbMf (any case), gateway least-load | earliest-ask | earliest-partial (e.g. arcb+earliest-ask)";

    fn series(name: &str) -> Result<toml::Table, String> {
        let series = name.parse::<Series>().map_err(|e| e.to_string())?;
        Ok(overrides([("policy", series.to_string().into())]))
    }

    /// What a run of the policy does not read (`canonical.rs`).
    fn canonical(params: &mut Params) {
        canonical::reset_unread(params);
    }

    fn check(p: &Params, _setup: &Setup<'_>) -> Result<(), ParamError> {
        check::check(p)
    }

    /// This run's parameters with the base's policy and without deadlines:
    /// the base runs on the same platform, and runs that differ only in
    /// their deadlines share one base run.
    fn reference(params: &Params) -> Option<toml::Table> {
        let base = Params {
            policy: params.base,
            deadline_share: 0.0,
            stringency: Params::default().stringency,
            ..params.clone()
        };
        // Cannot fail: every field of `Params` is a TOML value.
        toml::Table::try_from(base).ok()
    }

    /// Without `reference`, the run is a base run: no deadlines, measured
    /// against itself. With it, a share of grid jobs gets deadlines from the
    /// base run, and the run is measured against the base; the base series
    /// without deadlines is the base run itself, not simulated again.
    fn run(
        params: &Params,
        input: &Input<'_>,
        reference: Option<&[Sample]>,
    ) -> Result<Vec<Sample>, RunError> {
        let config = config(params);
        let scenario = scenario(params, input)?;
        let (run, base) = match reference {
            None => {
                let run = simulate(&config, &scenario, params.policy, None)?;
                (run.clone(), run)
            }
            Some([base]) => {
                let (_, run) = measured(&config, &scenario, params, &base.run, input.seed)?;
                (run, base.run.clone())
            }
            Some(other) => {
                return Err(RunError::Kind {
                    message: format!("expected one base run, got {}", other.len()),
                });
            }
        };
        let metrics = run
            .metrics(&base, &scenario, params.bsld_bound)
            .map_err(kind_error)?;
        Ok(vec![Sample { run, metrics }])
    }
}
