//! Vasques & Veiga's decentralised utility scheduling (the `utility-match`
//! crate): one scheduler on the generated grid of §4.2, as the `utility`
//! kind runs it (`utility_match::Settings`, the grid and jobs generated from
//! the repetition's seed, the run validated and measured).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use utility_match::{FailReason, GridRun, JobStatus, Settings, SystemMetrics, simulate, validate};

use super::{Output, Table, kind_check, maybe_time, refuse_bools, repetition_seed, tables};
use crate::convert::error;

/// `Settings` from `options` (the `utility` kind's `[params]`; `scheduler`
/// among them), checked as the other papers' options are: a bool where no
/// flag is expected, or a value of another type, is a `TypeError` naming
/// the option, and the kind's checks (`Settings::check`) name it too.
fn settings(options: &Bound<'_, PyDict>) -> PyResult<Settings> {
    refuse_bools(options, &["local_fallback"])?;
    let table = kind_check("utility", None, options, &[])?;
    toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| error(e.message().trim()))
}

/// One run of `settings` from `seed`: the crate's run and its metrics.
fn run(settings: &Settings, seed: u64) -> Result<(GridRun, SystemMetrics), String> {
    let kind = settings.scheduler;
    let w = settings
        .scenario()
        .generate(seed)
        .map_err(|e| e.to_string())?;
    let config = settings.grid();
    let run = simulate(&config, &kind, &w.machines, &w.jobs).map_err(|e| format!("{kind}: {e}"))?;
    validate(&w.machines, &w.jobs, &run, config.max_ttl).map_err(|v| {
        format!("{kind} produced an invalid run ({v}); this is a scheduler bug, please report it")
    })?;
    let metrics = SystemMetrics::of(&run).map_err(|e| format!("{kind}: {e}"))?;
    Ok((run, metrics))
}

/// A job's status as a word.
fn status(s: JobStatus) -> &'static str {
    match s {
        JobStatus::Completed => "completed",
        JobStatus::Failed(FailReason::NoAcceptableResource) => "no_acceptable_resource",
        JobStatus::Failed(FailReason::TtlExpired) => "ttl_expired",
        JobStatus::Failed(_) => "failed",
    }
}

/// Runs the generated grid of `options` (`utility_match::Settings`' keys,
/// the `utility` kind's `[params]`) as repetition `repetition` of a
/// configuration with seed `seed`. Tables: `jobs` (one row per job) and
/// `machines` (one row per resource). Summary: `SystemMetrics::named` and
/// `users`.
#[pyfunction]
#[pyo3(signature = (options, *, seed, repetition))]
pub(crate) fn paper_utility<'py>(
    py: Python<'py>,
    options: &Bound<'py, PyDict>,
    seed: &Bound<'py, PyAny>,
    repetition: &Bound<'py, PyAny>,
) -> PyResult<Output<'py>> {
    let settings = settings(options)?;
    let rep = repetition_seed(seed, repetition)?;
    let (run, metrics) = py.detach(move || run(&settings, rep)).map_err(error)?;
    let jobs = &run.jobs;
    let mut t = Table::new(py);
    t.int("id", jobs.iter().map(|j| j.id as i64))?;
    t.int("user", jobs.iter().map(|j| j.user as i64))?;
    t.int("site", jobs.iter().map(|j| j.site as i64))?;
    t.int("submit", jobs.iter().map(|j| j.submit.0))?;
    t.float("assigned", jobs.iter().map(|j| maybe_time(j.assigned)))?;
    t.float("start", jobs.iter().map(|j| maybe_time(j.start)))?;
    t.float("end", jobs.iter().map(|j| maybe_time(j.end)))?;
    t.int(
        "resource_site",
        jobs.iter()
            .map(|j| j.resource.map_or(-1, |r| r.site as i64)),
    )?;
    t.int(
        "resource_index",
        jobs.iter()
            .map(|j| j.resource.map_or(-1, |r| r.index as i64)),
    )?;
    t.int("forwards", jobs.iter().map(|j| i64::from(j.forwards)))?;
    t.text("status", jobs.iter().map(|j| status(j.status)))?;
    t.float("decided_utility", jobs.iter().map(|j| j.decided_utility))?;
    t.float("achieved_utility", jobs.iter().map(|j| j.achieved_utility))?;
    let machines = &run.machines;
    let mut m = Table::new(py);
    m.int("site", machines.iter().map(|x| x.id.site as i64))?;
    m.int("index", machines.iter().map(|x| x.id.index as i64))?;
    m.int("cores", machines.iter().map(|x| i64::from(x.cores)))?;
    m.int("busy", machines.iter().map(|x| x.busy))?;
    m.int("jobs", machines.iter().map(|x| i64::from(x.jobs)))?;
    let summary = PyDict::new(py);
    summary.set_item("users", metrics.users)?;
    for (name, value) in metrics.named() {
        summary.set_item(name, value)?;
    }
    // The counts as integers.
    summary.set_item("rejected", metrics.rejected)?;
    summary.set_item("expired", metrics.expired)?;
    Ok((tables(py, [("jobs", t), ("machines", m)])?, summary))
}
