//! A configuration read and its traces resolved, ready to run
//! ([`read_experiment`]), and the provenance its results record.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use experiments::encode::terminal_name;
use experiments::{Experiment, Provenance, Traces};

use crate::config::read_config;
use crate::progress::Reporter;
use crate::settings::Settings;
use crate::traces::{Found, load, resolve};

/// A configuration read and its traces resolved, ready to run.
pub struct Loaded {
    /// The configuration.
    pub experiment: Experiment,
    /// Its id.
    pub id: String,
    /// The file as run.toml names it (relative to the repository if inside it).
    pub name: String,
    /// The traces it names.
    pub traces: Traces,
    /// The files read (the configuration, trace files), never to be written.
    pub inputs: Vec<PathBuf>,
}

/// Reads the configuration at `path` and resolves its traces. `expected_id`
/// is checked against the file's `id`. With `report` given (the batch's
/// reporter and the experiment's place in it), the experiment is announced
/// on it and trace resolution suspends its progress display.
pub fn read_experiment(
    settings: &Settings,
    report: Option<(&Reporter, usize)>,
    path: &Path,
    expected_id: Option<&str>,
) -> Result<Loaded> {
    let name = settings.shown(path);
    let experiment = read_config(&settings.registry, path, &name)?;
    let id = experiment.id().to_string();
    if let Some(want) = expected_id.filter(|w| *w != id) {
        bail!(
            "{}: id is '{id}' but the file's place says '{want}'; make them agree",
            terminal_name(&name)
        );
    }
    if let Some((report, index)) = report {
        report.start(index, &id, experiment.title(), settings.threads);
    }
    let mut inputs = vec![path.to_path_buf()];
    let traces = resolve_traces(
        settings,
        report.map(|r| r.0),
        &experiment,
        path,
        &mut inputs,
    )?;
    Ok(Loaded {
        experiment,
        id,
        name,
        traces,
        inputs,
    })
}

/// Finds and reads the traces `experiment` names, relative to the
/// directory of its configuration file `path`, adding the files read to
/// `inputs`. With `report` given, resolution suspends its progress display
/// (it prints its own warnings: downloads, stand-ins).
pub fn resolve_traces(
    settings: &Settings,
    report: Option<&Reporter>,
    experiment: &Experiment,
    path: &Path,
    inputs: &mut Vec<PathBuf>,
) -> Result<Traces> {
    let id = experiment.id();
    let base = path.parent().unwrap_or(Path::new("."));
    let mut resolve_all = || -> Result<Traces> {
        let mut traces = Traces::new();
        for t in experiment.traces() {
            // A workload's `stand_in = true` allows one for its trace.
            let mut trace_settings = settings.traces.clone();
            trace_settings.no_stand_in &= !t.stand_in;
            // Placed at the configuration's line that names the trace; the
            // cause (a line of the SWF file, a missing file) follows.
            let placed = |what: &str, e: anyhow::Error| {
                let name = terminal_name(&t.name);
                anyhow::Error::new(
                    experiment.at_trace(&t.name, format!("{id}: {what} '{name}': {e:#}")),
                )
            };
            let found = resolve(&t.name, base, &trace_settings)
                .map_err(|e| placed("cannot find trace", e))?;
            if let Found::File { path, .. } = &found {
                inputs.push(path.clone());
            }
            let source = load(&found, t.lenient).map_err(|e| placed("cannot load trace", e))?;
            traces.insert(t.name, source);
        }
        Ok(traces)
    };
    match report {
        Some(report) => report.suspend(resolve_all),
        None => resolve_all(),
    }
}

/// The provenance `run.toml` records for a configuration shown as `name`.
pub fn provenance(name: &str) -> Provenance {
    Provenance {
        git_revision: crate::identity::REVISION.to_string(),
        config_file: name.to_string(),
    }
}

/// The error of running an experiment: one placed in its configuration
/// file ([`experiments::RunError::Located`]) as it is, since it starts with
/// the file, line and column; any other with `what` (`"<id> failed"`) in
/// front.
pub fn run_failed(error: experiments::RunError, what: impl FnOnce() -> String) -> anyhow::Error {
    match error {
        experiments::RunError::Located { .. } => anyhow::Error::new(error),
        other => anyhow::Error::new(other).context(what()),
    }
}
