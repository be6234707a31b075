//! Workloads from Python: a Parallel Workloads Archive trace by name (found
//! as the command line finds it), a file's path, or a generated Lublin99
//! workload (`lublin99:procs=..,jobs=..,seed=..`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cli::traces::{TraceSettings, load as load_found, resolve};
use experiments::{Source, Workload as Jobs, WorkloadFacts, workload_from};
use numpy::{PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::convert::{
    error, estimate as parse_estimate, int, int_arg, job_columns, text_path, type_error,
    value_error,
};
use crate::state;

/// A workload: its jobs (in submit order, none wider than the machine),
/// the machine and where it came from.
#[pyclass(frozen, module = "usched._usched")]
pub(crate) struct Workload {
    pub(crate) jobs: Arc<Jobs>,
    pub(crate) facts: WorkloadFacts,
    /// The trace's records, every one in file order (the scheduling
    /// environment reads them as SchedGym does); `None` for a stand-in.
    pub(crate) records: Option<Arc<Vec<swf_io::SwfRecord>>>,
    /// The `estimate` it was loaded with (the scheduling environment
    /// follows it unless told otherwise).
    pub(crate) estimate: swf_io::Estimate,
}

#[pymethods]
impl Workload {
    /// Display name.
    #[getter]
    fn name(&self) -> &str {
        &self.jobs.label
    }

    /// Machine size in processors.
    #[getter]
    fn capacity(&self) -> u32 {
        self.jobs.capacity
    }

    /// Number of jobs.
    fn __len__(&self) -> usize {
        self.jobs.jobs.len()
    }

    /// SHA-256 of the trace's SWF text, if it is a trace.
    #[getter]
    fn sha256(&self) -> Option<&str> {
        self.facts.sha256.as_deref()
    }

    /// What was read and dropped, as in `summary.md`.
    fn facts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let f = &self.facts;
        let d = PyDict::new(py);
        d.set_item("source", &f.source)?;
        d.set_item("sha256", f.sha256.as_deref())?;
        d.set_item("stand_in", f.stand_in)?;
        d.set_item("records", f.records)?;
        d.set_item("unreplayable", f.unreplayable)?;
        d.set_item("too_wide", f.too_wide)?;
        d.set_item("no_estimate", f.no_estimate)?;
        d.set_item("jobs", f.jobs)?;
        d.set_item("note", f.note.as_deref())?;
        Ok(d)
    }

    /// The jobs as columns: `id`, `submit`, `procs`, `run_time`, `estimate`.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        job_columns(py, &self.jobs.jobs)
    }

    /// Pickling (and `copy`): the workload's state as bytes (see
    /// `state`), restored by `Workload._from_state`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let bytes = state::pack_workload(
            &self.jobs,
            &self.facts,
            self.records.as_deref().map(Vec::as_slice),
            self.estimate,
        )
        .map_err(|why| error(format!("this Workload cannot be pickled: {why}")))?;
        let restore = py.get_type::<Workload>().getattr("_from_state")?;
        Ok((restore, (PyBytes::new(py, &bytes),)))
    }

    /// A workload from the state `__reduce__` gives, checked as a trace is
    /// (a damaged or forged state is a `UschedError` saying what is
    /// wrong).
    #[staticmethod]
    fn _from_state(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Workload> {
        let bytes = state_bytes("Workload", state)?;
        let s = py
            .detach(|| state::unpack_workload(&bytes))
            .map_err(|why| error(format!("the pickled Workload cannot be restored: {why}")))?;
        Ok(Workload {
            jobs: Arc::new(s.jobs),
            facts: s.facts,
            records: s.records.map(Arc::new),
            estimate: s.estimate,
        })
    }

    /// A workload of the jobs given as columns (`usched.from_columns`
    /// converts and names them): each job checked as `load` checks a
    /// trace's, then taken in submit order (equal submit times keep the
    /// order given). Errors name the column or the position and the job.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)] // keyword arguments in Python
    #[pyo3(signature = (*, id, submit, procs, run_time, estimate, capacity, name))]
    fn _from_columns(
        py: Python<'_>,
        id: PyReadonlyArray1<'_, u64>,
        submit: PyReadonlyArray1<'_, i64>,
        procs: PyReadonlyArray1<'_, i64>,
        run_time: PyReadonlyArray1<'_, i64>,
        estimate: Option<PyReadonlyArray1<'_, i64>>,
        capacity: &Bound<'_, PyAny>,
        name: &str,
    ) -> PyResult<Workload> {
        let capacity = int_arg("capacity", capacity, 1, swf_io::MAX_PROCS.into())? as u32;
        experiments::encode::check_name(name).map_err(|why| error(format!("name: {why}")))?;
        let n = submit.len();
        let lengths = [
            ("id", id.len()),
            ("procs", procs.len()),
            ("run_time", run_time.len()),
            ("estimate", estimate.as_ref().map_or(n, |e| e.len())),
        ];
        if let Some((column, len)) = lengths.into_iter().find(|&(_, len)| len != n) {
            return Err(error(format!(
                "{column} has {len} values and submit {n}; give one value per job in every column"
            )));
        }
        let owned = |a: &PyReadonlyArray1<'_, i64>| a.to_vec().map_err(error);
        let (ids, submits) = (id.to_vec().map_err(error)?, owned(&submit)?);
        let (widths, runs) = (owned(&procs)?, owned(&run_time)?);
        let estimates = estimate.as_ref().map(owned).transpose()?;
        let given = estimates.is_some();
        let jobs = py.detach(move || {
            let mut jobs = Vec::with_capacity(n);
            for i in 0..n {
                let procs = widths[i];
                let job = profile::Job {
                    id: ids[i],
                    submit: profile::Time(submits[i]),
                    procs: u32::try_from(procs).unwrap_or(0),
                    // Without estimates, the run time (at least 1 s).
                    estimate: estimates.as_ref().map_or(runs[i].max(1), |e| e[i]),
                    run_time: runs[i],
                    deadline: None,
                };
                jobs.push(state::checked_job(i, job, procs.into(), capacity, None)?);
            }
            state::distinct_ids(&jobs)?;
            // Stable: equal submit times keep the order given.
            jobs.sort_by_key(|j| j.submit);
            Ok::<_, String>(jobs)
        });
        let jobs = jobs.map_err(error)?;
        let facts = experiments::WorkloadFacts {
            label: name.to_string(),
            variant: None,
            repetition: None,
            source: "columns given in Python (usched.from_columns)".to_string(),
            sha256: None,
            file_sha256: None,
            stand_in: false,
            generated_by_kind: false,
            seed: None,
            capacity,
            records: n,
            skipped_lines: Vec::new(),
            skipped: 0,
            unreplayable: 0,
            no_estimate: if given { 0 } else { n },
            too_wide: 0,
            transformed_away: 0,
            jobs: n,
            note: None,
        };
        Ok(Workload {
            jobs: Arc::new(Jobs {
                label: name.to_string(),
                capacity,
                jobs,
                start_unix: None,
            }),
            facts,
            records: None,
            estimate: if given {
                swf_io::Estimate::Requested
            } else {
                swf_io::Estimate::Actual
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Workload({:?}, {} jobs on {} processors)",
            self.jobs.label,
            self.jobs.jobs.len(),
            self.jobs.capacity
        )
    }
}

/// The bytes of a pickled `kind`'s state, or a `TypeError`.
pub(crate) fn state_bytes(kind: &str, state: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    match state.cast::<PyBytes>() {
        Ok(b) => Ok(b.as_bytes().to_vec()),
        Err(_) => Err(type_error(format!(
            "the state of a {kind} is bytes (as pickling gives it), not {}",
            crate::convert::shown(state)
        ))),
    }
}

/// Where traces are looked for: as the command line does, from the
/// repository at `root` (or found from the current directory), else
/// `TRACES_DIR`, the cache (`TRACES_CACHE`, default
/// `~/.cache/usched/traces`) and a download. A `root` given that is no
/// repository is an error, never ignored.
fn trace_settings(root: Option<&str>, stand_in: bool) -> anyhow::Result<TraceSettings> {
    let root = match cli::root::discover(root.map(Path::new)) {
        Ok(found) => Some(found),
        Err(e) if root.is_some() => return Err(anyhow::anyhow!(python_root_error(e))),
        Err(_) => None,
    };
    let mut settings = match &root {
        Some(root) => TraceSettings::from_env(root),
        None => {
            let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
            let home = var("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| var("HOME").map(|h| Path::new(&h).join(".cache")))
                .unwrap_or_else(|| PathBuf::from("."));
            TraceSettings {
                traces_dir: var("TRACES_DIR").map(PathBuf::from),
                repo_traces: None,
                cache: var("TRACES_CACHE")
                    .map_or_else(|| home.join("usched").join("traces"), PathBuf::from),
                mirror: var("TRACES_MIRROR"),
                no_stand_in: true,
            }
        }
    };
    settings.no_stand_in = !stand_in;
    Ok(settings)
}

/// A root error as Python users read it: the argument is `root=`, not
/// the command line's `--root`.
pub(crate) fn python_root_error(e: cli::root::RootError) -> String {
    match e {
        cli::root::RootError::NotARoot {
            given_by: "--root",
            path,
            lacks,
        } => cli::root::RootError::NotARoot {
            given_by: "root",
            path,
            lacks,
        }
        .to_string(),
        e => e.to_string(),
    }
}

/// Reads a workload: a trace name, a path to a `.swf`/`.swf.gz` file, or
/// `lublin99:procs=..,jobs=..,seed=..[,load=..][,estimates=..]`.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // keyword arguments in Python
#[pyo3(signature = (trace, *, estimate = "requested", lenient = false, procs = None, root = None, stand_in = false, seed = None))]
pub(crate) fn load(
    py: Python<'_>,
    trace: &Bound<'_, PyAny>,
    estimate: &str,
    lenient: bool,
    procs: Option<&Bound<'_, PyAny>>,
    root: Option<&Bound<'_, PyAny>>,
    stand_in: bool,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Workload> {
    let procs = procs
        .map(|p| int_arg("procs", p, 1, swf_io::MAX_PROCS.into()).map(|p| p as u32))
        .transpose()?;
    let given_seed = seed.is_some();
    let seed: u64 = seed.map_or(Ok(1), |s| int("seed", s))?;
    let estimate = parse_estimate(estimate)?;
    let trace = text_path("trace", trace)?;
    // `seed` seeds a stand-in for a trace found nowhere; a generated
    // workload's seed is part of its spec, and taking this one silently
    // would draw the same jobs for every value.
    if given_seed && trace.starts_with(cli::generated::PREFIX) {
        return Err(value_error(format!(
            "seed is the seed of a stand-in for a missing trace; a {}... workload takes its \
             seed in the spec ({}...,seed=N)",
            cli::generated::PREFIX,
            cli::generated::PREFIX
        )));
    }
    let root = root.map(|r| text_path("root", r)).transpose()?;
    py.detach(move || {
        let source = match cli::generated::source(&trace) {
            Some(source) => source.map_err(error)?,
            None => {
                let settings = trace_settings(root.as_deref(), stand_in).map_err(error)?;
                carried(&trace, &settings).map_err(error)?;
                let found = resolve(&trace, Path::new("."), &settings).map_err(error)?;
                load_found(&found, lenient).map_err(error)?
            }
        };
        let source = with_procs(source, procs)?;
        let file_name = if trace.starts_with(cli::generated::PREFIX) {
            "lublin99"
        } else {
            Path::new(&trace)
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or(&trace)
        };
        let name = experiments::known_trace(file_name).map_or_else(
            || {
                file_name
                    .trim_end_matches(".gz")
                    .trim_end_matches(".swf")
                    .to_string()
            },
            |k| k.name.to_string(),
        );
        if let (Source::Trace { file, .. }, None) = (&source, source.machine_size()) {
            return Err(error(format!(
                "{file}: the header gives no machine size (MaxProcs and MaxNodes are missing, \
                 -1 or 0); give it with procs=N"
            )));
        }
        let records = match &source {
            Source::Trace { trace, .. } => Some(Arc::new(trace.records.clone())),
            _ => None,
        };
        let (jobs, facts) = workload_from(
            &source,
            &name,
            estimate,
            experiments::derive_seed(seed, &format!("stand-in/{name}")),
        );
        Ok(Workload {
            jobs: Arc::new(jobs),
            facts,
            records,
            estimate,
        })
    })
}

/// The log the package carries: the default workload of
/// `usched/BatchScheduling-v0`, the repository's committed copy.
const CARRIED: (&str, &[u8]) = (
    "SDSC-SP2-1998-4.2-cln",
    include_bytes!("../../../traces/SDSC-SP2-1998-4.2-cln.swf.gz"),
);

/// Puts the carried log into the trace cache when `trace` names it and
/// neither `TRACES_DIR`, the repository nor the cache has it, so that it
/// is found offline; the lookup then verifies it by checksum as any copy.
fn carried(trace: &str, settings: &TraceSettings) -> anyhow::Result<()> {
    let (name, bytes) = CARRIED;
    if trace != name {
        return Ok(());
    }
    let file = format!("{name}.swf.gz");
    let dirs = [
        settings.traces_dir.as_deref(),
        settings.repo_traces.as_deref(),
        Some(settings.cache.as_path()),
    ];
    let present = dirs
        .into_iter()
        .flatten()
        .any(|d| d.join(&file).is_file() || d.join(format!("{name}.swf")).is_file());
    if !present {
        cli::output::write_file(&settings.cache.join(file), bytes)?;
    }
    Ok(())
}

/// The source with the machine size `procs` written into a trace's header.
/// `procs` was checked by `load`: 1 to `swf_io::MAX_PROCS`.
fn with_procs(mut source: Source, procs: Option<u32>) -> PyResult<Source> {
    match (&mut source, procs) {
        (Source::Trace { trace, .. }, Some(procs)) => trace.header.max_procs = Some(procs.into()),
        (Source::StandIn { known }, Some(_)) => {
            return Err(error(format!(
                "procs sets the machine of a trace file, but {} was not found and a stand-in \
                 on its {}-processor machine replaces it",
                known.file_name(),
                known.procs
            )));
        }
        _ => {}
    }
    Ok(source)
}
