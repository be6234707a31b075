//! Assunção & Buyya's multiple-site provisioning (`intergrid` over
//! `gateway` and `partitions-forecast`): one round of a provider and
//! gateway policy, as the `provisioning` kind runs it (the grid months of
//! the trace, one Lublin99 stream per cluster from the repetition's
//! `local/<k>` seeds, the base run, deadlines from the repetition's
//! `deadlines` stream, the run measured against the base).

use std::sync::Arc;

use experiments::ProvisioningRound;
use profile::{Job, Time};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{Output, Table, kind_check, maybe_time, refuse_bools, repetition_seed, tables};
use crate::convert::error;
use crate::workload::Workload;

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

fn grid_table<'py>(py: Python<'py>, r: &ProvisioningRound) -> PyResult<Table<'py>> {
    let jobs = &r.scenario.grid;
    let ran = r.run.grid();
    let measured = |j: &Job| j.submit >= r.scenario.warmup;
    let slow: Vec<(f64, f64)> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| slowdowns(j, ran[i], r.base.grid()[i], r.bsld_bound))
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

fn local_table<'py>(py: Python<'py>, r: &ProvisioningRound) -> PyResult<Table<'py>> {
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
        .map(|&(_, j, ran, base)| slowdowns(j, Some(ran), Some(base), r.bsld_bound))
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
    refuse_bools(options, &["track_allocations"])?;
    // The series is the kind's `policy`, checked with the rest.
    let options = options.copy()?;
    options.set_item("policy", policy)?;
    let params = kind_check("provisioning", None, &options, &[])?;
    let trace = Arc::clone(&workload.jobs);
    let rep = repetition_seed(seed, repetition)?;
    let r = py
        .detach(move || experiments::provisioning_round(params, &trace, rep))
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
    let grid = grid_table(py, &r)?;
    let local = local_table(py, &r)?;
    Ok((tables(py, [("jobs", grid), ("local", local)])?, summary))
}
