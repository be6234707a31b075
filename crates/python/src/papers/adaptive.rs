//! Netto & Buyya's adaptive resource allocation requests (the
//! `adaptive-requests` crate): one variant over a trace cut into intervals,
//! as the `adaptive` kind runs it (each interval rebased, its arrivals
//! compressed by `load_increase`, its requests shaped by Table 1 from the
//! repetition's `adaptive/preemptive/<i>` and `adaptive/price-profile/<i>`
//! streams, scheduled and validated).

use std::sync::Arc;

use adaptive_requests::{IntervalStats, Request, RequestOutcome, Variant};
use experiments::AdaptiveInterval;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{Output, Table, kind_check, refuse_bools, repetition_seed, tables};
use crate::convert::error;
use crate::workload::Workload;

/// Table 1's options, each with its key in the kind's `[params]`.
const TABLE1: [(&str, &str); 13] = [
    ("r_min_percent", "table1.r_min_percent"),
    ("rigid_up_to", "table1.rigid_up_to"),
    ("preemptive_share", "table1.preemptive_share"),
    ("preemptive_min_run", "table1.preemptive_min_run"),
    ("sp_parts", "table1.sp_parts"),
    ("sp_percent", "table1.sp_percent"),
    ("sp_mold_each", "table1.sp_mold_each"),
    ("high_share", "table1.high_share"),
    ("high_profile", "table1.high_profile"),
    ("deadline_factor", "table1.deadline_factor"),
    ("low_extra", "table1.low_extra"),
    ("rate", "table1.rate"),
    ("max_discount", "table1.max_discount"),
];

/// The columns of every `IntervalStats` field, one row per interval.
fn interval_table<'py>(py: Python<'py>, intervals: &[AdaptiveInterval]) -> PyResult<Table<'py>> {
    let stats: Vec<&IntervalStats> = intervals.iter().map(|i| &i.stats).collect();
    let mut t = Table::new(py);
    let n = |f: fn(&IntervalStats) -> usize| stats.iter().map(move |s| f(s) as i64);
    let x = |f: fn(&IntervalStats) -> f64| stats.iter().map(move |s| f(s));
    t.int("interval", (0..intervals.len()).map(|i| i as i64))?;
    t.int("requests", n(|s| s.requests))?;
    t.int("accepted", n(|s| s.accepted))?;
    t.int("rejected", n(IntervalStats::rejected))?;
    t.float("profit", x(|s| s.profit))?;
    t.float("response_sum", x(|s| s.response_sum))?;
    t.int("moldable_accepted", n(|s| s.moldable_accepted))?;
    t.int("molded", n(|s| s.molded))?;
    t.float("modification_sum", x(|s| s.modification_sum))?;
    t.int("preemptive_accepted", n(|s| s.preemptive_accepted))?;
    t.int("split", n(|s| s.split))?;
    t.float("busy", x(|s| s.busy))?;
    t.int("span", stats.iter().map(|s| s.span))?;
    Ok(t)
}

/// The columns of every request, one row per request, interval by interval.
fn request_table<'py>(py: Python<'py>, intervals: &[AdaptiveInterval]) -> PyResult<Table<'py>> {
    let rows: Vec<(usize, &Request, &RequestOutcome)> = intervals
        .iter()
        .enumerate()
        .flat_map(|(i, iv)| {
            iv.requests
                .iter()
                .zip(&iv.outcomes)
                .map(move |(r, o)| (i, r, o))
        })
        .collect();
    let placed = |f: fn(&adaptive_requests::Placement) -> f64| {
        rows.iter()
            .map(move |(_, _, o)| o.placement.as_ref().map_or(f64::NAN, f))
    };
    let mut t = Table::new(py);
    t.int("interval", rows.iter().map(|(i, _, _)| *i as i64))?;
    t.int("id", rows.iter().map(|(_, r, _)| r.id as i64))?;
    t.int("submit", rows.iter().map(|(_, r, _)| r.submit.0))?;
    t.int(
        "r_min",
        rows.iter().map(|(_, r, _)| i64::from(r.req.r_min())),
    )?;
    t.int(
        "r_max",
        rows.iter().map(|(_, r, _)| i64::from(r.req.r_max())),
    )?;
    t.int("t_min", rows.iter().map(|(_, r, _)| r.req.t_min()))?;
    t.int("deadline", rows.iter().map(|(_, r, _)| r.req.deadline()))?;
    t.float("budget", rows.iter().map(|(_, r, _)| r.req.budget()))?;
    t.float(
        "price_profile",
        rows.iter().map(|(_, r, _)| r.req.price_profile()),
    )?;
    t.flag("moldable", rows.iter().map(|(_, r, _)| r.req.is_moldable()))?;
    t.flag(
        "preemptive",
        rows.iter().map(|(_, r, _)| r.req.is_preemptive()),
    )?;
    t.flag(
        "accepted",
        rows.iter().map(|(_, _, o)| o.placement.is_some()),
    )?;
    t.float("start", placed(|p| p.start().0 as f64))?;
    t.float("completion", placed(|p| p.completion().0 as f64))?;
    t.int(
        "parts",
        rows.iter()
            .map(|(_, _, o)| o.placement.as_ref().map_or(0, |p| p.parts().len() as i64)),
    )?;
    t.flag(
        "molded",
        rows.iter().map(|(_, r, o)| {
            o.placement
                .as_ref()
                .is_some_and(|p| p.parts().iter().any(|q| q.procs < r.req.r_max()))
        }),
    )?;
    t.flag(
        "split",
        rows.iter()
            .map(|(_, _, o)| o.placement.as_ref().is_some_and(|p| p.is_split())),
    )?;
    t.float("proc_seconds", placed(|p| p.proc_seconds() as f64))?;
    t.float("price", rows.iter().map(|(_, _, o)| o.price))?;
    t.float(
        "response",
        rows.iter()
            .map(|(_, _, o)| o.response().map_or(f64::NAN, |r| r as f64)),
    )?;
    Ok(t)
}

/// Runs `variant` (`<policy>-<flexibility>`: `fifo-rigid`,
/// `mdf-preemptive-moldable`, ...) over `workload` with the adaptive kind's
/// `options`, as repetition `repetition` of a configuration with seed
/// `seed`. Tables: `jobs` (one row per request) and `intervals` (one
/// `IntervalStats` per interval). Summary: the `IntervalStats` fields
/// summed over the intervals, `intervals`, `rejected` and `response`.
#[pyfunction]
#[pyo3(signature = (workload, variant, options, *, seed, repetition))]
pub(crate) fn paper_adaptive<'py>(
    py: Python<'py>,
    workload: &Workload,
    variant: &str,
    options: &Bound<'py, PyDict>,
    seed: &Bound<'py, PyAny>,
    repetition: &Bound<'py, PyAny>,
) -> PyResult<Output<'py>> {
    // Named here, so that the error says `variant`; the kind sets its parts.
    variant
        .parse::<Variant>()
        .map_err(|e| error(format!("variant: {e}")))?;
    refuse_bools(options, &["sp_mold_each"])?;
    let params = kind_check("adaptive", Some(variant), options, &TABLE1)?;
    let jobs = Arc::clone(&workload.jobs);
    let rep = repetition_seed(seed, repetition)?;
    let intervals = py
        .detach(move || experiments::adaptive_intervals(params, &jobs, rep))
        .map_err(error)?;
    let summary = PyDict::new(py);
    let sum_n =
        |f: fn(&IntervalStats) -> usize| intervals.iter().map(|i| f(&i.stats)).sum::<usize>();
    let sum_x = |f: fn(&IntervalStats) -> f64| intervals.iter().fold(0.0, |a, i| a + f(&i.stats));
    let (requests, accepted) = (sum_n(|s| s.requests), sum_n(|s| s.accepted));
    let response_sum = sum_x(|s| s.response_sum);
    summary.set_item("intervals", intervals.len())?;
    summary.set_item("requests", requests)?;
    summary.set_item("accepted", accepted)?;
    summary.set_item("rejected", requests - accepted)?;
    summary.set_item("profit", sum_x(|s| s.profit))?;
    summary.set_item("response_sum", response_sum)?;
    summary.set_item(
        "response",
        if accepted > 0 {
            response_sum / accepted as f64
        } else {
            f64::NAN
        },
    )?;
    summary.set_item("moldable_accepted", sum_n(|s| s.moldable_accepted))?;
    summary.set_item("molded", sum_n(|s| s.molded))?;
    summary.set_item("modification_sum", sum_x(|s| s.modification_sum))?;
    summary.set_item("preemptive_accepted", sum_n(|s| s.preemptive_accepted))?;
    summary.set_item("split", sum_n(|s| s.split))?;
    summary.set_item("busy", sum_x(|s| s.busy))?;
    summary.set_item("span", intervals.iter().map(|i| i.stats.span).sum::<i64>())?;
    let jobs = request_table(py, &intervals)?;
    let per_interval = interval_table(py, &intervals)?;
    Ok((
        tables(py, [("jobs", jobs), ("intervals", per_interval)])?,
        summary,
    ))
}
