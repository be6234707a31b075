//! Yeo & Buyya's Libra+$ (the `pricing` crate): one policy over a trace
//! given deadlines and budgets, as the `pricing` kind runs it (arrivals
//! compressed by `arrival_delay`, the QoS draws from the repetition's
//! `pricing/qos` stream, `run_policy` on the workload's machine).

use std::cell::RefCell;
use std::sync::Arc;

use pricing::{
    BaselineFate, BaselineScheduler, DropRule, JobOutcome, Policy, PolicyError, QosJob, RunStats,
    Series, Submission, Urgency, run_baseline, run_policy,
};
use profile::{Job, Outcome, Time};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{Output, Table, kind_check, maybe_time, refuse_bools, repetition_seed, tables};
use crate::convert::error;
use crate::workload::Workload;

/// A baseline that keeps the outcomes it returns, so that one run gives
/// both the crate's statistics and the jobs' fates.
struct Recorder<B> {
    inner: B,
    outcomes: RefCell<Vec<Outcome>>,
}

impl<B: BaselineScheduler> BaselineScheduler for Recorder<B> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn schedule(
        &self,
        capacity: u32,
        drop: DropRule,
        jobs: &[Job],
    ) -> Result<Vec<Outcome>, PolicyError> {
        let outcomes = self.inner.schedule(capacity, drop, jobs)?;
        self.outcomes.replace(outcomes.clone());
        Ok(outcomes)
    }
}

/// One job's fate: accepted (started, for a backfilling baseline) or
/// rejected with a reason, when it started and finished, what it was
/// charged, and whether it met its deadline and its QoS.
struct Fate {
    reason: String,
    start: Option<Time>,
    finish: Option<Time>,
    cost: Option<f64>,
    met_deadline: bool,
    met_qos: bool,
}

impl Fate {
    /// A job on the time-shared cluster: it starts on arrival if accepted.
    fn time_shared(o: &JobOutcome) -> Fate {
        Fate {
            reason: o
                .decision
                .rejection()
                .map_or_else(String::new, |r| r.reason().to_string()),
            start: o.cost().map(|_| o.arrival),
            finish: o.finish,
            cost: o.cost(),
            met_deadline: o.met_deadline(),
            met_qos: o.met_qos(),
        }
    }

    /// A job of a backfilling baseline, as `pricing::backfill` counts it: a
    /// dropped job under `cannot_meet_deadline`; a started one charged
    /// `RE · PBase` (`Flat`), earned if it ends in time.
    fn backfilled(j: &QosJob, o: &Outcome, base_price: f64) -> Result<Fate, PolicyError> {
        let fate = BaselineFate::of(j, o, base_price)?;
        Ok(Fate {
            reason: if fate.started {
                String::new()
            } else {
                "cannot_meet_deadline".into()
            },
            start: fate.started.then_some(o.start),
            finish: fate.started.then_some(o.end),
            cost: fate.started.then_some(fate.cost),
            met_deadline: fate.on_time,
            met_qos: fate.met_qos,
        })
    }
}

/// One run: the jobs, their urgency classes, their fates and the crate's
/// statistics.
struct Ran {
    jobs: Vec<QosJob>,
    urgency: Vec<Urgency>,
    fates: Vec<Fate>,
    stats: RunStats,
}

fn run(
    workload: &experiments::Workload,
    series: &Series,
    params: toml::Table,
    seed: u64,
) -> Result<Ran, String> {
    let setup = experiments::pricing_setup(params, workload, seed).map_err(|e| e.to_string())?;
    let (jobs, urgency) = (setup.jobs, setup.urgency);
    let failed = |e: PolicyError| format!("{}: {e}", series.name());
    let (capacity, config) = (workload.capacity, &setup.config);
    let policy = series.policy();
    let (stats, fates) = match policy {
        Policy::Backfill(baseline) => {
            // `run_policy`'s own path for a baseline, recording the outcomes.
            let recorder = Recorder {
                inner: baseline,
                outcomes: RefCell::new(Vec::new()),
            };
            let stats = run_baseline(&recorder, config, capacity, &jobs).map_err(failed)?;
            let fates = jobs
                .iter()
                .zip(recorder.outcomes.borrow().iter())
                .map(|(j, o)| Fate::backfilled(j, o, config.base_price))
                .collect::<Result<Vec<_>, _>>()
                .map_err(failed)?;
            (stats, fates)
        }
        _ => {
            let stats = run_policy(policy, config, capacity, &jobs).map_err(failed)?;
            // The same run once more, for the jobs' outcomes.
            let cluster = config.cluster(capacity).map_err(|e| failed(e.into()))?;
            let submissions: Vec<Submission> = jobs.iter().map(QosJob::submission).collect();
            let outcomes = pricing::simulate(&cluster, &submissions, config.price(policy).as_ref())
                .map_err(|e| failed(e.into()))?;
            (stats, outcomes.iter().map(Fate::time_shared).collect())
        }
    };
    Ok(Ran {
        jobs,
        urgency,
        fates,
        stats,
    })
}

/// Runs `policy` (a `pricing::Series` name: `fcfs-bf`, `sjf-bf`, `edf-bf`,
/// `libra`, `libra+$` or `libra+$-b<β>`) over `workload` with the pricing
/// kind's `options`, as repetition `repetition` of a configuration with
/// seed `seed`. Tables: `jobs`. Summary: `RunStats`.
#[pyfunction]
#[pyo3(signature = (workload, policy, options, *, seed, repetition))]
pub(crate) fn paper_pricing<'py>(
    py: Python<'py>,
    workload: &Workload,
    policy: &str,
    options: &Bound<'py, PyDict>,
    seed: &Bound<'py, PyAny>,
    repetition: &Bound<'py, PyAny>,
) -> PyResult<Output<'py>> {
    let series: Series = policy.parse().map_err(|e| error(format!("policy: {e}")))?;
    refuse_bools(options, &[])?;
    let params = kind_check("pricing", Some(policy), options, &[])?;
    let jobs = Arc::clone(&workload.jobs);
    let rep = repetition_seed(seed, repetition)?;
    let ran = py
        .detach(move || run(&jobs, &series, params, rep))
        .map_err(error)?;
    let (jobs, fates) = (&ran.jobs, &ran.fates);
    let mut t = Table::new(py);
    t.int("id", jobs.iter().map(|j| j.id as i64))?;
    t.int("submit", jobs.iter().map(|j| j.submit.0))?;
    t.int("procs", jobs.iter().map(|j| i64::from(j.procs)))?;
    t.int("run_time", jobs.iter().map(|j| j.run_time))?;
    t.int("estimate", jobs.iter().map(|j| j.estimate))?;
    t.int("deadline", jobs.iter().map(|j| j.deadline))?;
    t.float("budget", jobs.iter().map(|j| j.budget))?;
    t.text(
        "urgency",
        ran.urgency.iter().map(|u| match u {
            Urgency::High => "high",
            Urgency::Low => "low",
        }),
    )?;
    t.flag("accepted", fates.iter().map(|f| f.reason.is_empty()))?;
    t.text("reason", fates.iter().map(|f| f.reason.as_str()))?;
    t.float("start", fates.iter().map(|f| maybe_time(f.start)))?;
    t.float("finish", fates.iter().map(|f| maybe_time(f.finish)))?;
    t.float("cost", fates.iter().map(|f| f.cost.unwrap_or(f64::NAN)))?;
    t.flag("met_deadline", fates.iter().map(|f| f.met_deadline))?;
    t.flag("met_qos", fates.iter().map(|f| f.met_qos))?;
    let s = &ran.stats;
    let m = &s.metrics;
    let summary = PyDict::new(py);
    summary.set_item("submitted", m.submitted)?;
    summary.set_item("accepted", m.accepted)?;
    summary.set_item("qos_met", m.qos_met)?;
    summary.set_item("earned", m.earned)?;
    summary.set_item("budgets", m.budgets)?;
    summary.set_item("qos_satisfaction", m.qos_satisfaction())?;
    summary.set_item("profitability", m.profitability().map_err(error)?)?;
    summary.set_item("rejected_resources", s.rejected.resources)?;
    summary.set_item("rejected_deadline", s.rejected.deadline)?;
    summary.set_item("rejected_budget", s.rejected.budget)?;
    summary.set_item("rejected_custom", s.rejected.custom)?;
    summary.set_item("late", s.late)?;
    Ok((tables(py, [("jobs", t)])?, summary))
}
