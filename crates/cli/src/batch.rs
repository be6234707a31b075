//! Batches of experiments: each isolated from the others' errors and
//! panics, runs several experiments share simulated once ([`Preloaded`]).

use crate::exit::say_err;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use experiments::RunCache;
use experiments::encode::{terminal_name, terminal_path};

use crate::experiment::{Loaded, read_experiment};
use crate::isolate::isolated;
use crate::progress::{self, Reporter, Verbosity};
use crate::results::{claims_status, recover_results, run_loaded, run_one};
use crate::settings::Settings;

/// Runs several experiments, going on after a failure; the status reflects all.
pub fn run_all(
    settings: &Settings,
    jobs: &[(PathBuf, Option<String>)],
    strict: bool,
) -> Result<ExitCode> {
    recover_results(settings);
    if jobs.len() < 2 {
        return run_batch(settings, jobs, strict, |report, index, path, id| {
            run_one(settings, report, index, path, id)
        });
    }
    let batch = Preloaded::read(settings, jobs, |cache, l| {
        cache.register(&l.experiment, &l.traces)
    });
    batch.check_ids(jobs)?;
    let status = run_batch(settings, jobs, strict, |report, index, _, _| {
        let start = Instant::now();
        let loaded = batch.take(settings, report, index)?;
        run_loaded(settings, report, loaded, Some(&batch.cache), start)
    });
    batch.report_shared(settings);
    status
}

/// A batch's configurations and traces, read before anything runs, and the
/// cache their runs were announced to: a run several experiments share
/// (equal kind, parameters, workload, seeds: `experiments::RunCache`) is
/// simulated once and handed to the others; the outputs are the same as
/// with each experiment run on its own.
pub struct Preloaded {
    /// The cache the batch's runs were registered with.
    pub cache: RunCache,
    loaded: Vec<Mutex<Option<Result<Loaded>>>>,
}

impl Preloaded {
    /// Reads every job's configuration and traces, registering each with
    /// `register`; a job that cannot be read keeps its error for its turn.
    pub fn read(
        settings: &Settings,
        jobs: &[(PathBuf, Option<String>)],
        register: impl Fn(&RunCache, &Loaded) -> Result<(), experiments::RunError>,
    ) -> Preloaded {
        let cache = RunCache::new();
        let loaded = jobs
            .iter()
            .map(|(path, id)| {
                let loaded = isolated(|| read_experiment(settings, None, path, id.as_deref()));
                if let Ok(l) = &loaded {
                    // A trace it cannot find fails its run, which says so.
                    let _ = register(&cache, l);
                }
                Mutex::new(Some(loaded))
            })
            .collect();
        Preloaded { cache, loaded }
    }

    /// Job `index`'s configuration, announced on `report` as it starts.
    pub fn take(&self, settings: &Settings, report: &Reporter, index: usize) -> Result<Loaded> {
        let taken = self.loaded[index]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let loaded = taken.ok_or_else(|| anyhow!("experiment {index} was run twice"))??;
        report.start(
            index,
            &loaded.id,
            loaded.experiment.title(),
            settings.threads,
        );
        Ok(loaded)
    }

    /// Refuses, before anything runs, two experiments whose results would
    /// go to one directory (the same id) or one inside the other's
    /// (`study/sensitivity` and `study/sensitivity/x`): the later one would
    /// replace the earlier one's results, or be refused after its runs.
    pub fn check_ids(&self, jobs: &[(PathBuf, Option<String>)]) -> Result<()> {
        let mut seen: Vec<(String, &Path)> = Vec::new();
        for (slot, (path, _)) in self.loaded.iter().zip(jobs) {
            let guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(Ok(loaded)) = guard.as_ref() else {
                continue;
            };
            let id = &loaded.id;
            let under = |a: &str, b: &str| a.starts_with(&format!("{b}/"));
            for (other, other_path) in &seen {
                let (a, b) = (terminal_path(other_path), terminal_path(path));
                if other == id {
                    bail!(
                        "{a} and {b} both have id '{id}': the second would replace the first's \
                         results; give one of them another id"
                    );
                }
                if under(id, other) || under(other, id) {
                    bail!(
                        "{a} (id '{other}') and {b} (id '{id}'): one's results would go inside \
                         the other's, which each run replaces whole; choose ids that do not nest"
                    );
                }
            }
            seen.push((id.clone(), path));
        }
        Ok(())
    }

    /// Says how many runs were shared (unless `-q`).
    pub fn report_shared(&self, settings: &Settings) {
        if !matches!(settings.verbosity, Verbosity::Quiet) {
            say_err!(
                "{} run(s) were shared between experiments instead of simulated again",
                self.cache.shared()
            );
        }
    }
}

/// The loop of `reproduce` and `run`, with `run` running one experiment
/// (`index`, config path, expected id) and returning its number of FAILed
/// claims. An error or a panic in one experiment is reported as that
/// experiment's error and the batch goes on; at the end, an error lists
/// every experiment that failed (exit status 1), else the claims decide.
pub fn run_batch(
    settings: &Settings,
    jobs: &[(PathBuf, Option<String>)],
    strict: bool,
    run: impl Fn(&Reporter, usize, &Path, Option<&str>) -> Result<usize>,
) -> Result<ExitCode> {
    let start = Instant::now();
    let report = Reporter::new(settings.verbosity, jobs.len());
    let mut failed = Vec::new();
    let mut failed_claims = 0;
    for (index, (path, id)) in jobs.iter().enumerate() {
        match isolated(|| run(&report, index, path, id.as_deref())) {
            Ok(n) => failed_claims += n,
            Err(e) => {
                let message = format!("{e:#}");
                let name = id
                    .as_deref()
                    .map_or_else(|| terminal_path(path), terminal_name);
                if jobs.len() == 1 {
                    // One experiment: its error is the command's, printed
                    // once, whole, at the end, naming the experiment; an
                    // error placed in its file names it already, as shown
                    // (relative to the repository, else absolute).
                    report.finish();
                    let shown = terminal_name(&settings.shown(path));
                    if message.starts_with(&name) || message.starts_with(&format!("{shown}:")) {
                        bail!("{message}");
                    }
                    bail!("{name}: {message}");
                }
                // Several: each error as it happens, and a summary at the end.
                report.warn(&format!("error: {message}"));
                let first_line = message.lines().next().unwrap_or("");
                // Errors usually start with the experiment's id already.
                let first_line = first_line
                    .strip_prefix(&format!("{name}: "))
                    .unwrap_or(first_line)
                    .to_string();
                failed.push((name, first_line));
            }
        }
    }
    report.finish();
    report.info(&format!(
        "{} experiment(s), total wall time {}",
        jobs.len(),
        progress::human(start.elapsed().as_secs_f64())
    ));
    if !failed.is_empty() {
        let list: Vec<String> = failed
            .iter()
            .map(|(name, why)| format!("  {name}: {why}"))
            .collect();
        let others = match jobs.len() - failed.len() {
            0 => " (none ran to the end)".to_string(),
            1 => " (the other ran and wrote its results)".to_string(),
            _ => " (the others ran and wrote their results)".to_string(),
        };
        let what = format!("{} of {} experiments failed", failed.len(), jobs.len());
        bail!("{what}{others}:\n{}", list.join("\n"));
    }
    claims_status(failed_claims, strict)
}
