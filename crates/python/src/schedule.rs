//! Simulations from Python: a built-in policy in one call, or a scheduler
//! written in Python driving the stepping API decision by decision; either
//! way the schedule is checked by `profile::validate` and can be written
//! as SWF or as Batsim's `jobs.csv`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cli::output::Made;
use profile::{Event, Job, Outcome, ScheduleStats, SchedulerConfig, Time};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::convert::{
    error, int, int_arg, int_in, order, outcome_columns, overrun, policy, strict_u64,
};
use crate::owned::OnThread;
use crate::state;
use crate::workload::{Workload, state_bytes};

/// A waiting job as Python sees it: `(index, id, submit, procs, estimate,
/// reserved)`.
type QueuedRow = (usize, u64, i64, u32, i64, Option<i64>);

/// A running job as Python sees it: `(index, id, procs, start,
/// predicted_end)`.
type RunningRow = (usize, u64, u32, i64, i64);

/// A simulated schedule: the workload's jobs and their outcomes.
#[pyclass(frozen, module = "usched._usched")]
pub(crate) struct Schedule {
    jobs: Arc<experiments::Workload>,
    outcomes: Vec<Outcome>,
    /// The policy's name, or `python` for a scheduler written in Python.
    policy: String,
    bound: i64,
}

#[pymethods]
impl Schedule {
    /// The policy that made it.
    #[getter]
    fn policy(&self) -> &str {
        &self.policy
    }

    /// Per-job outcomes as columns: `id`, `submit`, `procs`, `run_time`,
    /// `estimate`, `start`, `end`, `wait`, `bsld`, `status`.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        outcome_columns(py, &self.jobs.jobs, &self.outcomes, self.bound)
    }

    /// Pickling (and `copy`): the schedule's state as bytes (see
    /// `state`), restored by `Schedule._from_state`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let bytes = state::pack_schedule(&self.jobs, &self.outcomes, &self.policy, self.bound)
            .map_err(|why| error(format!("this Schedule cannot be pickled: {why}")))?;
        let restore = py.get_type::<Schedule>().getattr("_from_state")?;
        Ok((restore, (PyBytes::new(py, &bytes),)))
    }

    /// A schedule from the state `__reduce__` gives, checked by
    /// `profile::validate` as every schedule is.
    #[staticmethod]
    fn _from_state(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Schedule> {
        let bytes = state_bytes("Schedule", state)?;
        let s = py
            .detach(|| state::unpack_schedule(&bytes))
            .map_err(|why| error(format!("the pickled Schedule cannot be restored: {why}")))?;
        Ok(Schedule {
            jobs: Arc::new(s.jobs),
            outcomes: s.outcomes,
            policy: s.policy,
            bound: s.bound,
        })
    }

    /// The schedule's statistics: `jobs`, `completed`, `killed`, `dropped`,
    /// `mean_wait`, `mean_bsld`, `utilization` (0 to 1), `makespan`.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = ScheduleStats::compute(
            &self.jobs.jobs,
            &self.outcomes,
            self.jobs.capacity,
            self.bound,
        )
        .map_err(error)?;
        let d = PyDict::new(py);
        d.set_item("jobs", s.jobs)?;
        d.set_item("completed", s.completed)?;
        d.set_item("killed", s.killed)?;
        d.set_item("dropped", s.dropped)?;
        d.set_item("mean_wait", s.mean_wait)?;
        d.set_item("mean_bsld", s.mean_bounded_slowdown)?;
        d.set_item("utilization", s.utilization)?;
        d.set_item("makespan", s.makespan)?;
        Ok(d)
    }

    /// Writes the schedule as SWF (submit, wait, run time, processors and
    /// requested time of every job; status 1 completed, 0 killed). `path`
    /// is a `str`, `bytes` or `os.PathLike`. An existing file there is
    /// replaced only if it is a schedule this package or the command line
    /// wrote, or with `force=True`.
    #[pyo3(signature = (path, *, force = false))]
    fn write_swf(&self, path: &Bound<'_, PyAny>, force: bool) -> PyResult<()> {
        let path = PathBuf::from(crate::convert::text_path("path", path)?);
        let records = swf_io::schedule_records(&self.jobs.jobs, &self.outcomes);
        let header = swf_io::SwfHeader::default();
        let text = cli::schedules::swf(
            header,
            &records,
            self.jobs.capacity,
            &[format!(
                "simulated schedule: {} on {}",
                self.policy, self.jobs.label
            )],
        )
        .map_err(error)?;
        write(&path, &text, Made::Schedule, force)
    }

    /// Writes the schedule as Batsim's `jobs.csv`, with processor
    /// allocations (first fit). The format carries no mark of the tool, so
    /// an existing file at `path` is replaced only with `force=True`.
    #[pyo3(signature = (path, *, force = false))]
    fn write_jobs_csv(&self, path: &Bound<'_, PyAny>, force: bool) -> PyResult<()> {
        let path = PathBuf::from(crate::convert::text_path("path", path)?);
        let allocation = profile::first_fit(self.jobs.capacity, &self.jobs.jobs, &self.outcomes)
            .map_err(error)?;
        let text = cli::schedules::jobs_csv(
            &self.jobs.label,
            &self.jobs.jobs,
            &self.outcomes,
            &allocation,
        )
        .map_err(error)?;
        write(&path, &text, Made::Unmarked, force)
    }

    fn __len__(&self) -> usize {
        self.outcomes.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Schedule({} on {:?}, {} jobs)",
            self.policy,
            self.jobs.label,
            self.outcomes.len()
        )
    }
}

/// Writes `text` to `path` atomically (a temporary file renamed over it),
/// as the command line writes its outputs: what is there is replaced only
/// if the tool wrote it as `made`, or with `force` (`check_replace`).
fn write(path: &Path, text: &str, made: Made, force: bool) -> PyResult<()> {
    cli::output::write_output(path, text.as_bytes(), "path", made, force).map_err(|e| {
        // The command line's hint names its flag; here it is a keyword.
        error(format!("{e:#}").replace("add --force", "pass force=True"))
    })
}

/// `bsld_bound` is a number of seconds (10 if `None`): 0 (or 1) means no
/// bound; a negative one is a `ValueError`, a `bool` a `TypeError`.
fn bound(bsld_bound: Option<&Bound<'_, PyAny>>) -> PyResult<i64> {
    match bsld_bound {
        None => Ok(10),
        Some(b) => Ok(int_in(
            "bsld_bound",
            b,
            0,
            profile::MAX_DURATION as u64,
            " seconds (0 or 1: no bound)",
        )? as i64),
    }
}

/// Simulates `workload` under a built-in policy.
#[pyfunction]
#[pyo3(signature = (workload, policy = "easy", *, order = "arrival", overrun = "kill", bsld_bound = None))]
pub(crate) fn simulate(
    py: Python<'_>,
    workload: &Workload,
    policy: &str,
    order: &str,
    overrun: &str,
    bsld_bound: Option<&Bound<'_, PyAny>>,
) -> PyResult<Schedule> {
    let bsld_bound = bound(bsld_bound)?;
    let config = SchedulerConfig::new(workload.jobs.capacity, self::policy(policy)?)
        .order(self::order(order)?)
        .overrun(self::overrun(overrun)?);
    let jobs = Arc::clone(&workload.jobs);
    let outcomes = py
        .detach(|| profile::simulate(&config, &jobs.jobs))
        .map_err(error)?;
    Ok(Schedule {
        jobs,
        outcomes,
        policy: policy.to_string(),
        bound: bsld_bound,
    })
}

/// The stepping API: a simulation that stops at every decision (after
/// every submission, termination, expired prediction or wake-up) and lets
/// Python decide what starts. `usched.simulate_with` drives it with a
/// scheduler function.
///
/// Its simulation stays on the thread that created it: used from another
/// thread it raises `RuntimeError` (see [`OnThread`]).
#[pyclass(module = "usched._usched")]
pub(crate) struct Stepper {
    inner: OnThread,
    jobs: Arc<experiments::Workload>,
    bound: i64,
}

impl Stepper {
    /// `f` of the running simulation.
    fn sim<R>(&self, f: impl FnOnce(&mut profile::Stepper) -> PyResult<R>) -> PyResult<R> {
        self.inner.with(|sim| match sim {
            Some(sim) => f(sim),
            None => Err(error("the simulation was finished")),
        })
    }

    /// `f` of the running simulation's context.
    fn context<R>(
        &self,
        f: impl FnOnce(&mut profile::Context<'static>) -> PyResult<R>,
    ) -> PyResult<R> {
        self.sim(|sim| f(sim.context_mut()))
    }
}

#[pymethods]
impl Stepper {
    /// Pickling is refused with a `TypeError` that says what to pickle
    /// instead.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::convert::not_picklable(
            "Stepper",
            "pickle its Workload, or the Schedule `finish` returns",
        ))
    }

    #[new]
    #[pyo3(signature = (workload, *, order = "arrival", overrun = "kill", bsld_bound = None))]
    fn new(
        workload: &Workload,
        order: &str,
        overrun: &str,
        bsld_bound: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let bsld_bound = bound(bsld_bound)?;
        // The policy is not used: the caller decides.
        let config = SchedulerConfig::new(workload.jobs.capacity, profile::Policy::Fcfs)
            .order(self::order(order)?)
            .overrun(self::overrun(overrun)?);
        let inner = profile::Stepper::new(&config, workload.jobs.jobs.clone()).map_err(error)?;
        Ok(Stepper {
            inner: OnThread::new(inner),
            jobs: Arc::clone(&workload.jobs),
            bound: bsld_bound,
        })
    }

    /// Runs to the next decision; `False` once nothing is left to happen.
    fn next_decision(&mut self) -> PyResult<bool> {
        self.sim(|sim| Ok(sim.next_decision().map_err(error)?.is_some()))
    }

    /// The current time (s).
    #[getter]
    fn now(&self) -> PyResult<i64> {
        self.sim(|sim| Ok(sim.context().now().0))
    }

    /// Processors free now.
    #[getter]
    fn free(&self) -> PyResult<u32> {
        self.sim(|sim| Ok(sim.context().free_now()))
    }

    /// Machine size.
    #[getter]
    fn capacity(&self) -> u32 {
        self.jobs.capacity
    }

    /// What woke the scheduler: `submitted`, `ended`, `extended` or `wake`.
    #[getter]
    fn event(&self) -> PyResult<&'static str> {
        self.sim(|sim| {
            Ok(match sim.context().event() {
                Event::Submitted => "submitted",
                Event::Ended => "ended",
                Event::Extended => "extended",
                Event::Wake => "wake",
                _ => "other",
            })
        })
    }

    /// The waiting jobs in queue order: `(index, id, submit, procs,
    /// estimate, reserved)`, `index` the job's position in the workload,
    /// `reserved` the start of its reservation or `None`.
    fn queue(&self) -> PyResult<Vec<QueuedRow>> {
        self.sim(|sim| Ok(sim.context().queue().map(queued_row).collect()))
    }

    /// Jobs waiting.
    #[getter]
    fn queue_len(&self) -> PyResult<usize> {
        self.sim(|sim| Ok(sim.context().queue_len()))
    }

    /// The waiting job at queue `position` as in [`queue`](Stepper::queue),
    /// or `None`: one job without building the whole queue.
    /// A negative `position` is a `ValueError`.
    fn waiting(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<QueuedRow>> {
        let position = int_arg("position", position, 0, u64::MAX)?;
        let position = usize::try_from(position).unwrap_or(usize::MAX);
        self.sim(|sim| Ok(sim.context().waiting(position).map(queued_row)))
    }

    /// The running jobs: `(index, id, procs, start, predicted_end)`.
    fn running(&self) -> PyResult<Vec<RunningRow>> {
        self.sim(|sim| {
            Ok(sim
                .context()
                .running()
                .map(|r| (r.index, r.job.id, r.job.procs, r.start.0, r.predicted_end.0))
                .collect())
        })
    }

    /// The earliest time from now at which `procs` processors are free for
    /// `duration` seconds, around the reservations held; `None` if never.
    fn earliest_start(
        &self,
        procs: &Bound<'_, PyAny>,
        duration: &Bound<'_, PyAny>,
    ) -> PyResult<Option<i64>> {
        let procs = int("procs", procs)?;
        let duration = int_arg("duration", duration, 0, profile::MAX_DURATION as u64)? as i64;
        self.sim(|sim| {
            let ctx = sim.context();
            Ok(ctx
                .profile()
                .earliest_start(ctx.now(), procs, duration)
                .map(|t| t.0))
        })
    }

    /// Starts the waiting job at queue position `position` now.
    fn start(&mut self, position: &Bound<'_, PyAny>) -> PyResult<()> {
        let position = strict_u64("position", position)?;
        self.context(|ctx| ctx.start(waiting_at(ctx, position)?).map_err(error))
    }

    /// Reserves processors for the job at `position` from time `at`.
    fn reserve(&mut self, position: &Bound<'_, PyAny>, at: &Bound<'_, PyAny>) -> PyResult<()> {
        let (position, at) = (strict_u64("position", position)?, int("at", at)?);
        self.context(|ctx| {
            let position = waiting_at(ctx, position)?;
            ctx.reserve(position, from_now(ctx, at)?).map_err(error)
        })
    }

    /// Reserves the earliest slot for the job at `position`; returns its start.
    fn reserve_earliest(&mut self, position: &Bound<'_, PyAny>) -> PyResult<i64> {
        let position = strict_u64("position", position)?;
        self.context(|ctx| {
            let position = waiting_at(ctx, position)?;
            Ok(ctx.reserve_earliest(position).map_err(error)?.0)
        })
    }

    /// Lifts the reservation of the job at `position`.
    fn unreserve(&mut self, position: &Bound<'_, PyAny>) -> PyResult<()> {
        let position = strict_u64("position", position)?;
        self.context(|ctx| ctx.unreserve(waiting_at(ctx, position)?).map_err(error))
    }

    /// Asks for a decision at time `at` (or none, with `None`), instead of
    /// any time asked for before. `at` is now or later: now asks for none
    /// (this is the decision at now), a time past `Time::LATEST` (2^52 s)
    /// means never; a time before now is a `UschedError`.
    #[pyo3(signature = (at))]
    fn wake_at(&mut self, at: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let at = at.map(|t| int("at", t)).transpose()?;
        self.context(|ctx| {
            let at = at.map(|t| from_now(ctx, t)).transpose()?;
            ctx.wake_at(at);
            Ok(())
        })
    }

    /// Runs to the end (no further decisions) and returns the schedule,
    /// checked by `profile::validate`. A job that this leaves waiting is a
    /// `UschedError` naming it; the Stepper then stays at the end, and
    /// `finish()` says so again.
    fn finish(&mut self) -> PyResult<Schedule> {
        // On to the end in place, so a job left waiting is named and
        // nothing is lost.
        let jobs = Arc::clone(&self.jobs);
        self.sim(|sim| {
            while sim.next_decision().map_err(error)?.is_some() {}
            match sim.outcomes().iter().position(Option::is_none) {
                None => Ok(()),
                Some(i) => {
                    let job = &jobs.jobs[i];
                    Err(error(format!(
                        "job {} (submitted at {} s, {} processors) was never started: finish() \
                         runs the rest of the simulation without decisions, and nothing else \
                         was left to happen; call next_decision() until it returns False, \
                         starting jobs at each decision, before finish()",
                        job.id, job.submit.0, job.procs
                    )))
                }
            }
        })?;
        let sim = self.inner.with(|sim| {
            sim.take()
                .ok_or_else(|| error("the simulation was finished"))
        })?;
        let outcomes = sim.into_outcomes().map_err(error)?;
        checked(&self.jobs.jobs, self.jobs.capacity, &outcomes)?;
        Ok(Schedule {
            jobs: Arc::clone(&self.jobs),
            outcomes,
            policy: "python".to_string(),
            bound: self.bound,
        })
    }
}

/// The queue position `given` ([`strict_u64`]'s answer) if a job waits
/// there, else a `UschedError` naming it and the positions that do: a
/// negative position or one past the end of the queue cannot be meant.
fn waiting_at(ctx: &profile::Context<'_>, given: Result<u64, String>) -> PyResult<usize> {
    let waiting = ctx.queue_len();
    match given {
        Ok(p) if p < waiting as u64 => Ok(p as usize),
        given => {
            let text = given.map_or_else(|text| text, |p| p.to_string());
            Err(error(match waiting {
                0 => format!("position is {text}, but no job waits"),
                1 => format!("position is {text}, but one job waits (position 0)"),
                n => format!(
                    "position is {text}, but {n} jobs wait (positions 0 to {})",
                    n - 1
                ),
            }))
        }
    }
}

/// The time `at` (s) if it is not before now, else a `UschedError` naming
/// it and now: a decision cannot act in the past.
fn from_now(ctx: &profile::Context<'_>, at: i64) -> PyResult<Time> {
    let now = ctx.now();
    if at < now.0 {
        return Err(error(format!(
            "at is {at}, before now ({}); give a time from now on",
            now.0
        )));
    }
    Ok(Time(at))
}

/// A waiting job as Python sees it.
fn queued_row(w: profile::Waiting<'_>) -> QueuedRow {
    (
        w.index,
        w.job.id,
        w.job.submit.0,
        w.job.procs,
        w.job.estimate,
        w.reserved.map(|t| t.0),
    )
}

/// The schedule `outcomes` of `jobs`, checked as any other.
fn checked(jobs: &[Job], capacity: u32, outcomes: &[Outcome]) -> PyResult<()> {
    profile::validate(capacity, jobs, outcomes)
        .map_err(|v| error(format!("the schedule is invalid: {v}")))
}
