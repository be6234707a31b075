//! Assunção & Buyya's multiple-site provisioning (`intergrid` over
//! `gateway` and `partitions-forecast`): one round of a provider and
//! gateway policy, as the `provisioning` kind runs it (the grid months of
//! the trace, one Lublin99 stream per cluster from the repetition's
//! `local/<k>` seeds, the base run, deadlines from the repetition's
//! `deadlines` stream, the run measured against the base).

use std::collections::HashMap;
use std::sync::Arc;

use experiments::GridMonths;
use intergrid::{Config, Metrics, ProviderPricing, Run, Scenario, Series};
use partitions_forecast::{ForecastConfig, LoadMeasure, ShareFrom};
use profile::{Job, Time};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{
    Output, Table, choice, count, kind_check, maybe_time, repetition_seed, strict_options, tables,
};
use crate::convert::error;
use crate::workload::Workload;

const DAY: i64 = 86_400;

/// The provisioning kind's `[params]` (without `policy`), by the same
/// names; `admission` is the `[params.admission]` table or `None`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Options {
    base: String,
    clusters: Vec<i64>,
    procs_per_node: i64,
    local_max_job: String,
    grid_months: (i64, i64),
    trace_start_unix: Option<i64>,
    trace_year: Option<i64>,
    trace_utc_offset_s: i64,
    interval_min: f64,
    report_every_s: i64,
    warmup_days: i64,
    training_from_days: i64,
    deadline_share: f64,
    stringency: f64,
    tolerance_s: i64,
    bsld_bound: i64,
    horizon_s: Option<i64>,
    forecast_window: i64,
    reallocation_checks: i64,
    share_from: String,
    forecast_load: String,
    track_allocations: bool,
    admission: Option<HashMap<String, Py<PyAny>>>,
}

/// The options as the crates take them; their ranges are checked by the
/// kind's own check (`kind_check`).
struct Setting {
    base: Series,
    /// The largest local job of each cluster.
    local_max: Vec<u32>,
    /// The grid months (resolved against the trace by [`GridMonths::resolve`]).
    months: [u32; 2],
    trace_start_unix: Option<i64>,
    trace_year: Option<i64>,
    utc_offset_s: i64,
    warmup: Time,
    deadline_share: f64,
    stringency: f64,
    bsld_bound: i64,
    config: Config,
}

/// `[params.admission]`: Libra+$ at the providers, every key optional with
/// `ProviderPricing::PAPER`'s value.
fn admission(py: Python<'_>, table: &HashMap<String, Py<PyAny>>) -> PyResult<ProviderPricing> {
    let mut p = ProviderPricing::PAPER;
    let mut keys: Vec<&String> = table.keys().collect();
    keys.sort();
    for key in keys {
        let value = table[key].bind(py);
        // The ranges are the kind's (`kind_check`).
        let number = || -> PyResult<f64> {
            value
                .extract()
                .map_err(|_| error(format!("admission.{key} is {value}, expected a number")))
        };
        match key.as_str() {
            "policy" => {}
            "alpha" => p.alpha = number()?,
            "beta" => p.beta = number()?,
            "base_price" => p.base_price = number()?,
            "budget_factor" => p.budget_factor = number()?,
            "deadline_factor" => p.deadline_factor = number()?,
            other => {
                return Err(error(format!(
                    "admission has no key '{other}'; expected policy, alpha, beta, base_price, \
                     budget_factor or deadline_factor"
                )));
            }
        }
    }
    Ok(p)
}

impl Options {
    fn setting(&self, py: Python<'_>) -> PyResult<Setting> {
        let base: Series = self.base.parse().map_err(|e| error(format!("base: {e}")))?;
        let clusters = self
            .clusters
            .iter()
            .map(|&c| count("clusters", c, 1))
            .collect::<PyResult<Vec<u32>>>()?;
        let per_node = count("procs_per_node", self.procs_per_node, 1)?;
        let by_nodes = match self.local_max_job.as_str() {
            "nodes" => true,
            "processors" => false,
            other => {
                return Err(error(format!(
                    "local_max_job is '{other}', expected nodes or processors"
                )));
            }
        };
        let (first, last) = self.grid_months;
        let share_from: ShareFrom = choice("share_from", &self.share_from)?;
        let load: LoadMeasure = choice("forecast_load", &self.forecast_load)?;
        let pricing = match &self.admission {
            Some(table) => Some(admission(py, table)?),
            None => None,
        };
        let config = Config {
            clusters: clusters.clone(),
            forecast: ForecastConfig {
                window: usize::try_from(self.forecast_window).unwrap_or(usize::MAX),
                smoothing: None,
                interval: (self.interval_min * 60.0).round() as i64,
                checks: count("reallocation_checks", self.reallocation_checks, 1)?,
                train_from: Time(self.training_from_days.saturating_mul(DAY)),
                share_from,
                load,
            },
            report_every: self.report_every_s,
            tolerance: count("tolerance_s", self.tolerance_s, 0)?,
            horizon: self.horizon_s,
            track_allocations: self.track_allocations,
            pricing,
        };
        Ok(Setting {
            base,
            local_max: clusters
                .iter()
                .map(|&c| if by_nodes { c / per_node } else { c })
                .collect(),
            // Months 1 to 12 (`kind_check`).
            months: [first as u32, last as u32],
            trace_start_unix: self.trace_start_unix,
            trace_year: self.trace_year,
            utc_offset_s: self.trace_utc_offset_s,
            warmup: Time(self.warmup_days.saturating_mul(DAY)),
            deadline_share: self.deadline_share,
            stringency: self.stringency,
            bsld_bound: self.bsld_bound,
            config,
        })
    }
}

/// One round: the scenario, the deadlines, the run, its base and metrics.
struct Round {
    scenario: Scenario,
    deadlines: Vec<Option<Time>>,
    run: Arc<Run>,
    base: Arc<Run>,
    metrics: Metrics,
}

fn round(
    trace: &experiments::Workload,
    policy: Series,
    s: &Setting,
    seed: u64,
) -> Result<Round, String> {
    // As the kind: unset, the start and year come from the trace header.
    let months = GridMonths::resolve(
        s.trace_start_unix,
        s.trace_year,
        s.months,
        s.utc_offset_s,
        trace,
    )?;
    let scenario = experiments::provisioning_scenario(trace, &months, &s.local_max, s.warmup, seed)
        .map_err(|e| format!("{e}; check grid_months and trace_start_unix"))?;
    let text = |e: intergrid::IntergridError| e.to_string();
    let none = vec![None; scenario.grid.len()];
    let base =
        Arc::new(intergrid::simulate(&s.config, &scenario, s.base, Some(&none)).map_err(text)?);
    let deadlines = scenario
        .deadlines(
            &base,
            s.deadline_share,
            s.stringency,
            experiments::derive_seed(seed, "deadlines"),
        )
        .map_err(text)?;
    let run = if policy == s.base && s.deadline_share == 0.0 {
        Arc::clone(&base)
    } else {
        Arc::new(intergrid::simulate(&s.config, &scenario, policy, Some(&deadlines)).map_err(text)?)
    };
    let metrics = run.metrics(&base, &scenario, s.bsld_bound).map_err(text)?;
    Ok(Round {
        scenario,
        deadlines,
        run,
        base,
        metrics,
    })
}

/// Bounded slowdown of `job` over `ran`, and its ratio R against `base`.
fn slowdowns(
    job: &Job,
    ran: Option<(Time, Time)>,
    base: Option<(Time, Time)>,
    bound: i64,
) -> (f64, f64) {
    let Some(ran) = ran else {
        return (f64::NAN, f64::NAN);
    };
    let s = intergrid::bsld(job.submit, ran, bound);
    let r = base.map_or(f64::NAN, |b| {
        intergrid::ratio(intergrid::bsld(job.submit, b, bound), s)
    });
    (s, r)
}

fn grid_table<'py>(py: Python<'py>, r: &Round, bound: i64) -> PyResult<Table<'py>> {
    let jobs = &r.scenario.grid;
    let ran = r.run.grid();
    let measured = |j: &Job| j.submit >= r.scenario.warmup;
    let slow: Vec<(f64, f64)> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| slowdowns(j, ran[i], r.base.grid()[i], bound))
        .collect();
    let mut t = Table::new(py);
    t.int("id", jobs.iter().map(|j| j.id as i64))?;
    t.int("submit", jobs.iter().map(|j| j.submit.0))?;
    t.int("procs", jobs.iter().map(|j| i64::from(j.procs)))?;
    t.int("run_time", jobs.iter().map(|j| j.run_time))?;
    t.int("estimate", jobs.iter().map(|j| j.estimate))?;
    t.float("deadline", r.deadlines.iter().map(|&d| maybe_time(d)))?;
    t.flag("measured", jobs.iter().map(measured))?;
    t.flag("rejected", ran.iter().map(Option::is_none))?;
    t.float("start", ran.iter().map(|x| maybe_time(x.map(|(s, _)| s))))?;
    t.float("end", ran.iter().map(|x| maybe_time(x.map(|(_, e)| e))))?;
    t.flag("held", r.run.held().iter().copied())?;
    t.int(
        "violations",
        r.run.violations().iter().map(|&v| i64::from(v)),
    )?;
    t.flag("late", r.run.late().iter().copied())?;
    t.int("refusals", r.run.refusals().iter().map(|&v| i64::from(v)))?;
    t.float("bsld", slow.iter().map(|s| s.0))?;
    t.float("r", slow.iter().map(|s| s.1))?;
    Ok(t)
}

/// A local job as a row: its cluster, the job, and its (start, end) in the
/// run and in the base run.
type LocalRow<'a> = (usize, &'a Job, (Time, Time), (Time, Time));

fn local_table<'py>(py: Python<'py>, r: &Round, bound: i64) -> PyResult<Table<'py>> {
    let rows: Vec<LocalRow<'_>> = r
        .scenario
        .local
        .iter()
        .enumerate()
        .flat_map(|(k, jobs)| {
            jobs.iter()
                .enumerate()
                .map(move |(i, j)| (k, j, r.run.local()[k][i], r.base.local()[k][i]))
        })
        .collect();
    let slow: Vec<(f64, f64)> = rows
        .iter()
        .map(|&(_, j, ran, base)| slowdowns(j, Some(ran), Some(base), bound))
        .collect();
    let mut t = Table::new(py);
    t.int("cluster", rows.iter().map(|r| r.0 as i64))?;
    t.int("id", rows.iter().map(|r| r.1.id as i64))?;
    t.int("submit", rows.iter().map(|r| r.1.submit.0))?;
    t.int("procs", rows.iter().map(|r| i64::from(r.1.procs)))?;
    t.int("run_time", rows.iter().map(|r| r.1.run_time))?;
    t.flag(
        "measured",
        rows.iter().map(|x| x.1.submit >= r.scenario.warmup),
    )?;
    t.int("start", rows.iter().map(|r| r.2.0.0))?;
    t.int("end", rows.iter().map(|r| r.2.1.0))?;
    t.float("bsld", slow.iter().map(|s| s.0))?;
    t.float("r", slow.iter().map(|s| s.1))?;
    Ok(t)
}

/// Runs `policy` (`<provider>+<gateway>`: `arcb+earliest-partial`, ...)
/// with `workload` as the grid trace and the provisioning kind's `options`,
/// as repetition `repetition` of a configuration with seed `seed`. Tables:
/// `jobs` (one row per grid job) and `local` (one row per local job).
/// Summary: `intergrid::Metrics` and `admission_rejections`.
#[pyfunction]
#[pyo3(signature = (workload, policy, options, *, seed, repetition))]
pub(crate) fn paper_provisioning<'py>(
    py: Python<'py>,
    workload: &Workload,
    policy: &str,
    options: &Bound<'py, PyDict>,
    seed: &Bound<'py, PyAny>,
    repetition: &Bound<'py, PyAny>,
) -> PyResult<Output<'py>> {
    let policy: Series = policy.parse().map_err(|e| error(format!("policy: {e}")))?;
    let setting = strict_options::<Options>(options, &["track_allocations"])?.setting(py)?;
    kind_check("provisioning", options, &[])?;
    let trace = Arc::clone(&workload.jobs);
    let rep = repetition_seed(seed, repetition)?;
    let bound = setting.bsld_bound;
    let r = py
        .detach(move || round(&trace, policy, &setting, rep))
        .map_err(error)?;
    let m = &r.metrics;
    let summary = PyDict::new(py);
    summary.set_item("messages", m.messages)?;
    summary.set_item("violations", m.violations)?;
    summary.set_item("violations_pct", m.violations_pct)?;
    summary.set_item("grid_bsld", m.grid_bsld)?;
    summary.set_item("local_bsld", m.local_bsld)?;
    summary.set_item("grid_r", m.grid_r)?;
    summary.set_item("local_r", m.local_r)?;
    summary.set_item("late_starts", m.late_starts)?;
    summary.set_item("refusals", m.refusals)?;
    summary.set_item("rejected_pct", m.rejected_pct)?;
    summary.set_item("held_pct", m.held_pct)?;
    summary.set_item("grid_jobs", m.grid_jobs)?;
    summary.set_item("local_jobs", m.local_jobs)?;
    summary.set_item("revenue", m.revenue)?;
    summary.set_item("admission_rejections", r.run.admission_rejections())?;
    let grid = grid_table(py, &r, bound)?;
    let local = local_table(py, &r, bound)?;
    Ok((tables(py, [("jobs", grid), ("local", local)])?, summary))
}
