//! `cargo xtask reproduce` and `cargo xtask run`: experiments whole, or one
//! shard of each (`--shard I/N --cells DIR`, assembled later by `merge`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use experiments::encode::terminal_path;
use experiments::{Progress, RunCache, RunOptions, Shard};

use crate::batch::{Preloaded, run_all, run_batch};
use crate::cells::{Identity, check_shard_target, claim_dir, shard_file};
use crate::cli::RunFlags;
use crate::experiment::{Loaded, provenance, run_failed};
use crate::output;
use crate::progress::{self, Reporter};
use crate::settings::Settings;

/// `reproduce` and `run`: the experiments `jobs` (config file, expected id)
/// whole, or one shard of each; `strict` is `--strict-claims`.
pub fn run_jobs(
    settings: &Settings,
    jobs: &[(PathBuf, Option<String>)],
    run: &RunFlags,
    strict: bool,
) -> Result<ExitCode> {
    match (run.shard, &run.cells) {
        (Some(shard), Some(cells)) => run_shards(settings, jobs, shard, cells),
        _ => {
            // Refused before any work when it already lies in results
            // (and again when written, for results this run makes).
            if let Some(file) = &run.combined {
                let configs: Vec<&Path> = jobs.iter().map(|(path, _)| path.as_path()).collect();
                output::refuse_input_file(file, "--combined", &configs)?;
                output::refuse_in_out_folder(file, "--combined", &settings.results)?;
                output::check_outside_results(file).context("--combined")?;
                output::check_replace(file, "--combined", output::Made::Combined, run.force)?;
            }
            let status = run_all(settings, jobs, strict);
            if let Some(file) = &run.combined {
                // Nor over a trace the runs read (a configuration names
                // its trace files only once loaded).
                let traces = crate::traces::files_read();
                let traces: Vec<&Path> = traces.iter().map(PathBuf::as_path).collect();
                output::refuse_input_file(file, "--combined", &traces)?;
                crate::results::write_combined(settings, file, run.force)?;
            }
            status
        }
    }
}

/// Runs shard `shard` of one loaded configuration (the file at `path`) and
/// writes its cells, sharing runs through `cache` if given; returns 0
/// (claims are checked by `merge`).
fn run_shard_one(
    settings: &Settings,
    report: &Reporter,
    loaded: Loaded,
    path: &Path,
    (shard, cells): (Shard, &Path),
    cache: Option<&RunCache>,
) -> Result<usize> {
    let start = Instant::now();
    let Loaded {
        experiment,
        id,
        name,
        traces,
        ..
    } = loaded;
    let identity = Identity::of(&experiment, path, &name);
    let dir = claim_dir(cells, &identity, &experiment, path)?;
    check_shard_target(&dir, shard, path)?;
    let progress = |p: &Progress<'_>| report.run(p);
    let options = RunOptions {
        threads: settings.threads,
        progress: Some(&progress),
        cache,
    };
    let measured =
        experiments::run_shard(&experiment, &traces, &options, shard, &provenance(&name))
            .map_err(|e| run_failed(e, || format!("{id} (shard {shard}) failed")))?;
    let file = shard_file(&dir, shard);
    output::write_file(&file, measured.to_toml().as_bytes())?;
    report.info(&format!(
        "{id}: shard {shard}: {} of {} cells, wrote {} in {}",
        measured.measured.len(),
        measured.cells,
        terminal_path(&file),
        progress::human(start.elapsed().as_secs_f64())
    ));
    Ok(0)
}

/// `reproduce|run ... --shard I/N --cells DIR`.
pub fn run_shards(
    settings: &Settings,
    jobs: &[(PathBuf, Option<String>)],
    shard: Shard,
    cells: &Path,
) -> Result<ExitCode> {
    // The runs the experiments' cells of this shard share are simulated once.
    let batch = Preloaded::read(settings, jobs, |cache, l| {
        cache.register_shard(&l.experiment, &l.traces, shard)
    });
    let status = run_batch(settings, jobs, false, |report, index, path, _| {
        let loaded = batch.take(settings, report, index)?;
        run_shard_one(
            settings,
            report,
            loaded,
            path,
            (shard, cells),
            Some(&batch.cache),
        )
    });
    batch.report_shared(settings);
    status
}
