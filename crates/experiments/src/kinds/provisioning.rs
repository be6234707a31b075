//! `kind = "provisioning"`: Assunção & Buyya's multiple-site provisioning
//! (issue 5). Five DAS-2 clusters run their local Lublin99 workloads under a
//! provider policy (`partitions-forecast`); an InterGrid gateway (`gateway`)
//! places the grid jobs of a trace on them. One series per
//! `<provider>+<gateway>` pair; every series of a repetition sees the same
//! local and grid jobs (common random numbers).
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

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use gateway::{Fate, GatewayConfig, GatewayPolicy, GridRun, Information};
use partitions_forecast::{
    Cluster, ClusterError, ForecastConfig, JobRecord, LoadMeasure, Notice, Origin, ProviderPolicy,
    ReservationError, ShareFrom,
};
use profile::{FreeSlot, Job, Outcome, Status, Time};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use swf_io::lublin99::Lublin99;

use crate::config::{Experiment, derive_seed};
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;

const DAY: i64 = 86_400;

/// The provisioning runner.
pub(crate) struct Provisioning;

/// The gateway half of a series name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GatewayKind {
    LeastLoad,
    EarliestAsk,
    EarliestPartial,
}

/// `<provider>+<gateway>`, e.g. `arcb+earliest-partial`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SeriesName {
    pub provider: ProviderPolicy,
    pub gateway: GatewayKind,
}

impl fmt::Display for SeriesName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = match self.gateway {
            GatewayKind::LeastLoad => "least-load",
            GatewayKind::EarliestAsk => "earliest-ask",
            GatewayKind::EarliestPartial => "earliest-partial",
        };
        write!(f, "{}+{g}", self.provider.name())
    }
}

impl FromStr for SeriesName {
    type Err = String;
    fn from_str(s: &str) -> Result<SeriesName, String> {
        let (p, g) = s.split_once('+').ok_or_else(|| {
            format!(
                "series '{s}' must look like '<provider>+<gateway>', e.g. 'arcb+earliest-partial'"
            )
        })?;
        let provider = p.parse()?;
        let gateway = match g {
            "least-load" => GatewayKind::LeastLoad,
            "earliest-ask" => GatewayKind::EarliestAsk,
            "earliest-partial" => GatewayKind::EarliestPartial,
            _ => {
                return Err(format!(
                    "unknown gateway policy '{g}' in '{s}', expected least-load, earliest-ask or earliest-partial"
                ));
            }
        };
        Ok(SeriesName { provider, gateway })
    }
}

impl<'de> Deserialize<'de> for SeriesName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for SeriesName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

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
    pub series: Vec<SeriesName>,
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
    pub base: SeriesName,
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
fn base() -> SeriesName {
    SeriesName {
        provider: ProviderPolicy::ArEb,
        gateway: GatewayKind::LeastLoad,
    }
}

impl Kind for Provisioning {
    const NAME: &'static str = "provisioning";
    const METRICS: &'static [Metric] = &[
        Metric {
            name: "messages",
            title: "Messages between gateway and providers",
            y_label: "messages",
        },
        Metric {
            name: "violations",
            title: "Violations",
            y_label: "violations",
        },
        Metric {
            name: "violations_pct",
            title: "Violations (% of grid jobs)",
            y_label: "violations (% of grid jobs)",
        },
        Metric {
            name: "grid_bsld",
            title: "Grid jobs: mean bounded slowdown",
            y_label: "mean bounded slowdown",
        },
        Metric {
            name: "local_bsld",
            title: "Local jobs: mean bounded slowdown",
            y_label: "mean bounded slowdown",
        },
        Metric {
            name: "grid_r",
            title: "Grid jobs: improvement ratio R",
            y_label: "average R",
        },
        Metric {
            name: "local_r",
            title: "Local jobs: improvement ratio R",
            y_label: "average R",
        },
        Metric {
            name: "late_starts",
            title: "Late starts (j_pst − j_gst > T)",
            y_label: "jobs",
        },
        Metric {
            name: "refusals",
            title: "Refused reservations",
            y_label: "reservations",
        },
        Metric {
            name: "rejected_pct",
            title: "Grid jobs rejected",
            y_label: "% of grid jobs",
        },
        Metric {
            name: "held_pct",
            title: "Grid jobs held at the gateway for want of a slot",
            y_label: "% of grid jobs",
        },
        Metric {
            name: "grid_jobs",
            title: "Grid jobs measured",
            y_label: "jobs",
        },
        Metric {
            name: "local_jobs",
            title: "Local jobs measured",
            y_label: "jobs",
        },
    ];
    const AXES: &'static [&'static str] = &["interval"];
    type Params = Params;

    fn series(params: &Params) -> Vec<String> {
        params.series.iter().map(SeriesName::to_string).collect()
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
        let scenario = Scenario::build(params, cell)?;
        let series = params.series[cell.series];
        let base = simulate(params, &scenario, params.base, interval, None)?;
        let deadlines = scenario.deadlines(params, &base, cell.seed);
        let run = if series == params.base && params.deadline_share == 0.0 {
            base.clone()
        } else {
            simulate(params, &scenario, series, interval, Some(&deadlines))?
        };
        Ok(run.metrics(&base, &scenario, params.bsld_bound))
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

/// The jobs of one repetition: the grid stream and each cluster's local stream.
struct Scenario {
    grid: Vec<Job>,
    local: Vec<Vec<Job>>,
    /// Jobs submitted earlier are not measured.
    warmup: Time,
    /// The last arrival of any workload: periodic messages stop here.
    last_arrival: Time,
}

impl Scenario {
    fn build(params: &Params, cell: &Cell<'_>) -> Result<Scenario, RunError> {
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
        let last_arrival = local
            .iter()
            .flatten()
            .chain(&grid)
            .map(|j| j.submit)
            .max()
            .unwrap_or(Time::ZERO);
        Ok(Scenario {
            grid,
            local,
            warmup: Time(params.warmup_days * DAY),
            last_arrival,
        })
    }

    /// Deadlines per Islam et al.: a random share of grid jobs gets
    /// `submit + stringency × (response time under the base policy)`.
    fn deadlines(&self, params: &Params, base: &Simulated, seed: u64) -> Vec<Option<Time>> {
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, "deadlines"));
        self.grid
            .iter()
            .zip(&base.grid)
            .map(|(job, outcome)| {
                let pick = rng.random_bool(params.deadline_share);
                let (_, end) = (*outcome)?;
                pick.then(|| {
                    job.submit + ((end - job.submit) as f64 * params.stringency).ceil() as i64
                })
            })
            .collect()
    }
}

/// A `partitions-forecast` cluster as the gateway's `Provider`.
struct Site {
    cluster: Cluster,
    /// The first internal error, reported after the run.
    error: Option<ClusterError>,
}

impl Site {
    fn keep(&mut self, r: Result<(), ClusterError>) {
        if let (Err(e), None) = (r, &self.error) {
            self.error = Some(e);
        }
    }
}

fn refusal(job: u64, e: ReservationError) -> gateway::Refusal {
    match e {
        ReservationError::SlotGone {
            job,
            start,
            procs,
            duration,
        } => gateway::Refusal::SlotGone {
            job,
            start,
            procs,
            duration,
        },
        ReservationError::UnknownHold { hold } => gateway::Refusal::UnknownHold {
            hold: gateway::HoldId(hold.0),
        },
        other => gateway::Refusal::Rejected {
            job,
            reason: other.to_string(),
        },
    }
}

impl gateway::Provider for Site {
    fn capacity(&self) -> u32 {
        self.cluster.capacity()
    }
    fn utilisation(&self, _now: Time) -> f64 {
        self.cluster.utilisation()
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        let r = self.cluster.advance(now);
        self.keep(r);
        self.cluster.free_slots(now, horizon)
    }
    fn publish(&mut self, now: Time, horizon: Time) -> Option<Vec<FreeSlot>> {
        match self.cluster.publish(now, horizon) {
            Ok(slots) => slots,
            Err(e) => {
                self.keep(Err(e));
                None
            }
        }
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), gateway::Refusal> {
        let id = job.id;
        self.cluster
            .submit(now, job, Origin::Grid)
            .map_err(|e| gateway::Refusal::Rejected {
                job: id,
                reason: e.to_string(),
            })
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<gateway::HoldId, gateway::Refusal> {
        self.cluster
            .request_reservation(now, job.clone(), start)
            .map(|h| gateway::HoldId(h.0))
            .map_err(|e| refusal(job.id, e))
    }
    fn commit(&mut self, now: Time, hold: gateway::HoldId) -> Result<(), gateway::Refusal> {
        self.cluster
            .commit(now, partitions_forecast::HoldId(hold.0))
            .map_err(|e| refusal(u64::MAX, e))
    }
    fn abort(&mut self, now: Time, hold: gateway::HoldId) -> Result<(), gateway::Refusal> {
        self.cluster
            .abort(now, partitions_forecast::HoldId(hold.0))
            .map_err(|e| refusal(u64::MAX, e))
    }
    fn next_event(&self) -> Option<Time> {
        self.cluster.next_event()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<gateway::Report>) {
        let r = self.cluster.advance(now);
        self.keep(r);
        reports.extend(self.cluster.take_notices().into_iter().map(|n| match n {
            Notice::Started { id, at } => gateway::Report::Started { job: id, at },
            Notice::Ended { id, end, .. } => gateway::Report::Ended { job: id, at: end },
            Notice::Published { slots, .. } => gateway::Report::Slots(slots),
        }));
    }
}

/// What one simulation produced.
#[derive(Clone)]
struct Simulated {
    /// Per grid job (input order): (start, end) if it ran.
    grid: Vec<Option<(Time, Time)>>,
    /// Per grid job: whether it waited at the gateway before being placed.
    held: Vec<bool>,
    /// Per cluster, per local job (stream order): (start, end).
    local: Vec<Vec<(Time, Time)>>,
    /// Per grid job: violations counted against it.
    violations: Vec<u32>,
    late: Vec<bool>,
    refusals: Vec<u32>,
    messages: u64,
}

/// Runs one `<provider>+<gateway>` pair on the scenario.
fn simulate(
    params: &Params,
    scenario: &Scenario,
    series: SeriesName,
    interval: i64,
    deadlines: Option<&[Option<Time>]>,
) -> Result<Simulated, RunError> {
    let fail = |message: String| RunError::Kind {
        message: format!("{series}: {message}"),
    };
    let forecast = ForecastConfig {
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
    };
    let mut sites = params
        .clusters
        .iter()
        .zip(&scenario.local)
        .map(|(&procs, jobs)| {
            let cluster = Cluster::new(series.provider.config(procs, &forecast), Time::ZERO)?
                .with_local_jobs(jobs.clone())?;
            Ok(Site {
                cluster,
                error: None,
            })
        })
        .collect::<Result<Vec<Site>, ClusterError>>()
        .map_err(|e| fail(e.to_string()))?;
    let policy = match series.gateway {
        GatewayKind::LeastLoad => GatewayPolicy::LeastLoaded,
        GatewayKind::EarliestAsk => GatewayPolicy::EarliestStart(Information::Ask),
        GatewayKind::EarliestPartial => {
            GatewayPolicy::EarliestStart(Information::Partial { interval })
        }
    };
    let mut config = GatewayConfig::new(policy)
        .timers_until(scenario.last_arrival)
        .measure_from(scenario.warmup)
        .track_allocations(params.track_allocations)
        .tolerance(params.tolerance_s)
        .horizon(params.horizon_s);
    config.report_every = params.report_every_s;
    let grid: Vec<Job> = match deadlines {
        Some(d) => scenario
            .grid
            .iter()
            .zip(d)
            .map(|(j, &deadline)| Job {
                deadline,
                ..j.clone()
            })
            .collect(),
        None => scenario.grid.clone(),
    };
    let result: GridRun =
        gateway::run(&config, &mut sites, &grid).map_err(|e| fail(e.to_string()))?;
    for site in &mut sites {
        site.cluster.drain();
        if let Some(e) = site.error.take() {
            return Err(fail(e.to_string()));
        }
    }
    // Every cluster's schedule must be valid before its numbers count.
    let mut local = Vec::with_capacity(sites.len());
    for (k, site) in sites.iter().enumerate() {
        let records = site.cluster.records();
        check_schedule(site.cluster.capacity(), &records)
            .map_err(|m| fail(format!("cluster {k}: {m}")))?;
        let ran: Vec<(Time, Time)> = records
            .iter()
            .filter(|r| r.origin == Origin::Local)
            .map(|r| {
                r.start
                    .zip(r.end)
                    .ok_or_else(|| fail(format!("cluster {k}: local job {} never ran", r.id)))
            })
            .collect::<Result<_, _>>()?;
        if ran.len() != scenario.local[k].len() {
            return Err(fail(format!(
                "cluster {k}: {} local jobs ran, {} were submitted",
                ran.len(),
                scenario.local[k].len()
            )));
        }
        local.push(ran);
    }
    let index: HashMap<u64, usize> = grid.iter().enumerate().map(|(i, j)| (j.id, i)).collect();
    let mut violations = vec![0; grid.len()];
    let mut late = vec![false; grid.len()];
    let mut refusals = vec![0; grid.len()];
    for v in result.violations.violations() {
        let (job, is_late) = match *v {
            gateway::Violation::LateStart { job, .. } => (job, true),
            gateway::Violation::ReservationRefused { job, .. } => (job, false),
        };
        if let Some(&i) = index.get(&job) {
            violations[i] += 1;
            if is_late {
                late[i] = true;
            } else {
                refusals[i] += 1;
            }
        }
    }
    let held = result
        .fates
        .iter()
        .zip(&grid)
        .map(|(f, j)| matches!(*f, Fate::Ran { placed, .. } if placed > j.submit))
        .collect();
    let grid_ran = result
        .fates
        .iter()
        .map(|f| match *f {
            Fate::Ran { start, end, .. } => Some((start, end)),
            Fate::Rejected { .. } => None,
        })
        .collect();
    Ok(Simulated {
        grid: grid_ran,
        held,
        local,
        violations,
        late,
        refusals,
        messages: result.measured.total(),
    })
}

/// `profile::validate` on one cluster's jobs (local and grid).
fn check_schedule(capacity: u32, records: &[JobRecord]) -> Result<(), String> {
    let mut jobs = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for r in records {
        let (Some(start), Some(end)) = (r.start, r.end) else {
            return Err(format!("{} job {} never ran", r.origin, r.id));
        };
        if let Some(reserved) = r.reserved_start
            && start != reserved
        {
            return Err(format!(
                "reservation of job {} for {reserved} started at {start}",
                r.id
            ));
        }
        jobs.push(Job::new(r.id, r.submit, r.procs, r.estimate, r.run_time));
        let status = if r.run_time > r.estimate {
            Status::Killed
        } else {
            Status::Completed
        };
        outcomes.push(Outcome {
            id: r.id,
            start,
            end,
            status,
        });
    }
    profile::validate(capacity, &jobs, &outcomes).map_err(|v| v.to_string())
}

fn bsld(submit: Time, (start, end): (Time, Time), bound: i64) -> f64 {
    let run = end - start;
    ((end - submit) as f64 / run.max(bound) as f64).max(1.0)
}

/// Lawson & Smirni's ratio, eq. 2.
fn ratio(base: f64, new: f64) -> f64 {
    (base - new) / base.min(new)
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        f64::NAN
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

impl Simulated {
    /// The values of `METRICS` for this run against `base`, over the jobs
    /// submitted after the warm-up.
    fn metrics(&self, base: &Simulated, scenario: &Scenario, bound: i64) -> Vec<f64> {
        let measured = |j: &Job| j.submit >= scenario.warmup;
        let (mut grid_s, mut grid_r) = (Vec::new(), Vec::new());
        let (mut n_grid, mut rejected, mut held) = (0usize, 0usize, 0usize);
        let (mut violations, mut late, mut refusals) = (0u64, 0u64, 0u64);
        for (i, job) in scenario
            .grid
            .iter()
            .enumerate()
            .filter(|(_, j)| measured(j))
        {
            n_grid += 1;
            violations += u64::from(self.violations[i]);
            late += u64::from(self.late[i]);
            refusals += u64::from(self.refusals[i]);
            held += usize::from(self.held[i]);
            let Some(ran) = self.grid[i] else {
                rejected += 1;
                continue;
            };
            let s = bsld(job.submit, ran, bound);
            grid_s.push(s);
            if let Some(b) = base.grid[i] {
                grid_r.push(ratio(bsld(job.submit, b, bound), s));
            }
        }
        let (mut local_s, mut local_r) = (Vec::new(), Vec::new());
        for (k, jobs) in scenario.local.iter().enumerate() {
            for (i, job) in jobs.iter().enumerate().filter(|(_, j)| measured(j)) {
                let s = bsld(job.submit, self.local[k][i], bound);
                local_s.push(s);
                local_r.push(ratio(bsld(job.submit, base.local[k][i], bound), s));
            }
        }
        let pct = |n: f64| {
            if n_grid == 0 {
                0.0
            } else {
                100.0 * n / n_grid as f64
            }
        };
        vec![
            self.messages as f64,
            violations as f64,
            pct(violations as f64),
            mean(&grid_s),
            mean(&local_s),
            mean(&grid_r),
            mean(&local_r),
            late as f64,
            refusals as f64,
            pct(rejected as f64),
            pct(held as f64),
            n_grid as f64,
            local_s.len() as f64,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_names_round_trip() {
        for s in [
            "arcb+earliest-ask",
            "arebmf+earliest-partial",
            "areb+least-load",
        ] {
            assert_eq!(s.parse::<SeriesName>().unwrap().to_string(), s);
        }
        assert!("arcb".parse::<SeriesName>().is_err());
        assert!("arcb+nearest".parse::<SeriesName>().is_err());
        assert!("arxx+least-load".parse::<SeriesName>().is_err());
    }

    #[test]
    fn month_boundaries() {
        assert_eq!(month_start_unix(1970, 1), 0);
        // 2003-09-01 00:00 UTC and 2004-01-01 00:00 UTC.
        assert_eq!(month_start_unix(2003, 9), 1_062_374_400);
        assert_eq!(month_start_unix(2004, 1), 1_072_915_200);
        assert_eq!(month_start_unix(2000, 3), 951_868_800);
    }

    /// A small grid: two clusters with Lublin99 local load, a Lublin99 grid
    /// stream, one day of warm-up.
    fn small() -> (Params, Scenario) {
        let params: Params = toml::from_str(
            r#"series = ["arcb+earliest-ask"]
               clusters = [16, 8]
               trace_start_unix = 0
               trace_year = 1970
               warmup_days = 1
               training_from_days = 0"#,
        )
        .unwrap();
        let lublin = |procs: u32, seed: u64| {
            Lublin99 {
                procs,
                duration: 5 * DAY,
                max_jobs: None,
                seed,
                two_class: false,
            }
            .jobs()
        };
        let grid: Vec<Job> = lublin(8, 3)
            .into_iter()
            .map(|j| Job {
                id: j.id + 1_000_000,
                ..j
            })
            .collect();
        let local = vec![lublin(16, 1), lublin(8, 2)];
        let last_arrival = local
            .iter()
            .flatten()
            .chain(&grid)
            .map(|j| j.submit)
            .max()
            .unwrap();
        (
            params,
            Scenario {
                grid,
                local,
                warmup: Time(DAY),
                last_arrival,
            },
        )
    }

    fn metric(values: &[f64], name: &str) -> f64 {
        values[Provisioning::METRICS
            .iter()
            .position(|m| m.name == name)
            .unwrap()]
    }

    #[test]
    fn the_base_against_itself_gives_r_zero_and_runs_are_deterministic() {
        let (params, scenario) = small();
        let a = simulate(&params, &scenario, params.base, 3600, None).unwrap();
        let b = simulate(&params, &scenario, params.base, 3600, None).unwrap();
        let (ma, mb) = (a.metrics(&a, &scenario, 10), b.metrics(&a, &scenario, 10));
        assert_eq!(ma, mb);
        assert_eq!(metric(&ma, "grid_r"), 0.0);
        assert_eq!(metric(&ma, "local_r"), 0.0);
        assert!(metric(&ma, "grid_jobs") > 50.0 && metric(&ma, "local_jobs") > 100.0);
    }

    #[test]
    fn ask_costs_two_messages_per_provider_and_one_submission_per_job_and_is_never_late() {
        let (params, scenario) = small();
        let series: SeriesName = "arcb+earliest-ask".parse().unwrap();
        let run = simulate(&params, &scenario, series, 3600, None).unwrap();
        let base = simulate(&params, &scenario, params.base, 3600, None).unwrap();
        let m = run.metrics(&base, &scenario, 10);
        let measured = scenario
            .grid
            .iter()
            .filter(|j| j.submit >= scenario.warmup)
            .count() as f64;
        assert_eq!(metric(&m, "messages"), measured * (2.0 * 2.0 + 1.0));
        assert_eq!(metric(&m, "violations"), 0.0);
        // Deadlines from the base run (stringency 5) are met by reservations.
        let deadlines = scenario.deadlines(
            &Params {
                deadline_share: 1.0,
                ..params.clone()
            },
            &base,
            9,
        );
        assert!(deadlines.iter().all(Option::is_some));
        let run = simulate(&params, &scenario, series, 3600, Some(&deadlines)).unwrap();
        for ((job, d), ran) in scenario.grid.iter().zip(&deadlines).zip(&run.grid) {
            if let (Some(d), Some((_, end))) = (d, ran) {
                assert!(end <= d, "job {} ends at {end}, deadline {d}", job.id);
            }
        }
    }

    #[test]
    fn ratio_is_symmetric_in_sign() {
        assert_eq!(ratio(4.0, 2.0), 1.0);
        assert_eq!(ratio(2.0, 4.0), -1.0);
        assert_eq!(ratio(3.0, 3.0), 0.0);
        assert_eq!(bsld(Time(0), (Time(90), Time(100)), 10), 10.0);
        assert_eq!(bsld(Time(0), (Time(0), Time(5)), 10), 1.0);
    }
}
