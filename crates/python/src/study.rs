//! Experiments from Python: a configuration file run as `cargo xtask run`
//! runs it (the same parsing, traces, runs and outputs, nothing written to
//! disk), its outputs returned as text for the Python layer to parse.

use std::path::{Path, PathBuf};

use cli::progress::Verbosity;
use cli::settings::Settings;
use experiments::RunOptions;
use pyo3::prelude::*;

use crate::convert::{error, int_arg, text_path};

/// The repository `root` names, or the one found from the current
/// directory (as the command line finds it).
fn settings(
    root: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    stand_in: bool,
) -> PyResult<Settings> {
    let threads = threads
        .map(|t| int_arg("threads", t, 1, u32::MAX.into()))
        .transpose()?;
    let root = root.map(|r| text_path("root", r)).transpose()?;
    let root = cli::root::discover(root.as_deref().map(Path::new))
        .map_err(|e| error(crate::workload::python_root_error(e)))?;
    let mut settings = Settings::new(root);
    settings.verbosity = Verbosity::Quiet;
    settings.traces.no_stand_in = !stand_in;
    if let Some(t) = threads {
        settings.threads = t as usize;
    }
    Ok(settings)
}

/// Runs the configuration at `path`; returns its id and its output files
/// (`data.csv`, `samples.csv`, `summary.md`, `figure.svg`, `run.toml`)
/// as `(name, text)` pairs.
#[pyfunction]
#[pyo3(signature = (path, *, threads = None, root = None, stand_in = false))]
pub(crate) fn run_config(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    root: Option<&Bound<'_, PyAny>>,
    stand_in: bool,
) -> PyResult<(String, Vec<(String, String)>)> {
    // `usched.run`'s name for it.
    let path = text_path("config", path)?;
    let settings = settings(root, threads, stand_in)?;
    let path = PathBuf::from(path);
    py.detach(move || {
        let loaded =
            cli::experiment::read_experiment(&settings, None, &path, None).map_err(error)?;
        let options = RunOptions {
            threads: settings.threads,
            ..RunOptions::default()
        };
        let results =
            experiments::run(&loaded.experiment, &loaded.traces, &options).map_err(error)?;
        let provenance = cli::experiment::provenance(&loaded.name);
        let setting = cli::results::setting(&settings, &loaded.experiment, results.stand_in());
        let files = results
            .files_in(&loaded.experiment, &provenance, &setting)
            .into_iter()
            .map(|(name, text)| (name.to_string(), text))
            .collect();
        Ok((loaded.id, files))
    })
}

/// The path of the committed configuration of experiment `id`
/// (`configs/<id>.toml` under the repository root).
#[pyfunction]
#[pyo3(signature = (id, *, root = None))]
pub(crate) fn config_of(id: &str, root: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let settings = settings(root, None, false)?;
    let entries = settings.catalog().map_err(error)?;
    entries
        .iter()
        .find(|e| e.id == id)
        .map(|e| e.path.display().to_string())
        .ok_or_else(|| {
            let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
            error(format!(
                "unknown experiment '{id}'; the configs hold: {}",
                ids.join(", ")
            ))
        })
}
