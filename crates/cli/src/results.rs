//! Running one experiment and writing its results directory atomically,
//! printing its summary and verdicts, and the exit status the claims give.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use experiments::{Experiment, Progress, Provenance, Results, RunCache, RunOptions, Verdict};

use crate::exit::EXIT_CLAIM_FAILED;
use crate::experiment::{Loaded, provenance, read_experiment};
use crate::output;
use crate::progress::{self, Reporter};
use crate::schedules;
use crate::settings::Settings;

/// Repairs results that interrupted runs left behind (see [`output`]):
/// restores a results directory a killed run had moved aside, deletes
/// temporary files of dead processes.
pub fn recover_results(settings: &Settings) {
    match output::recover_tree(&settings.results, 1) {
        Ok(recovered) => {
            for path in &recovered.restored {
                eprintln!(
                    "warning: restored {} from a run that was interrupted while replacing it",
                    path.display()
                );
            }
        }
        Err(e) => eprintln!("warning: cannot tidy {}: {e:#}", settings.results.display()),
    }
}

/// Runs one configuration and writes its results; returns the number of
/// FAILed claims. `expected_id` is checked against the file's `id`;
/// `index` is the experiment's place in the batch `report` shows.
pub fn run_one(
    settings: &Settings,
    report: &Reporter,
    index: usize,
    path: &Path,
    expected_id: Option<&str>,
) -> Result<usize> {
    let start = Instant::now();
    let loaded = read_experiment(settings, Some((report, index)), path, expected_id)?;
    run_loaded(settings, report, loaded, None, start)
}

/// Runs a loaded configuration (sharing runs through `cache` if given) and
/// writes its results; returns the number of FAILed claims.
pub fn run_loaded(
    settings: &Settings,
    report: &Reporter,
    loaded: Loaded,
    cache: Option<&RunCache>,
    start: Instant,
) -> Result<usize> {
    let Loaded {
        experiment,
        id,
        name,
        traces,
        inputs,
    } = loaded;
    let dir = settings.results.join(&id);
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    output::refuse_input_dir(&dir, &inputs).with_context(|| id.clone())?;
    output::check_name_lengths(&dir, "--out")?;
    // A link or a file where the results go is refused before any work
    // (what a directory holds is checked when it is replaced).
    if std::fs::symlink_metadata(&dir).is_ok_and(|m| !m.is_dir()) {
        output::check_dir_target(&dir, &[])?;
    }
    let progress = |p: &Progress<'_>| report.run(p);
    let options = RunOptions {
        threads: settings.threads,
        progress: Some(&progress),
        cache,
    };
    let mut results =
        experiments::run(&experiment, &traces, &options).with_context(|| format!("{id} failed"))?;
    if settings.no_claims {
        results = results.without_claims();
    }
    let provenance = provenance(&name);
    let schedules = if settings.schedules {
        let runs = experiments::schedules(&experiment, &traces, &options)
            .with_context(|| format!("{id}: schedules failed"))?;
        if runs.is_empty() {
            report.warn(&format!(
                "{id}: --schedules: kind '{}' gives no per-job schedule",
                experiment.kind()
            ));
        }
        schedules::files(&id, &runs).with_context(|| id.clone())?
    } else {
        Vec::new()
    };
    write_results_with(
        settings,
        report,
        &experiment,
        &results,
        &provenance,
        schedules,
        start,
    )
}

/// Writes an experiment's results into `<results>/<id>/`, prints its
/// summary, and returns the number of FAILed claims.
pub fn write_results(
    settings: &Settings,
    report: &Reporter,
    experiment: &Experiment,
    results: &Results,
    provenance: &Provenance,
    start: Instant,
) -> Result<usize> {
    write_results_with(
        settings,
        report,
        experiment,
        results,
        provenance,
        Vec::new(),
        start,
    )
}

/// [`write_results`] with `extra` files (name inside the results
/// directory, contents) written beside the usual ones.
fn write_results_with(
    settings: &Settings,
    report: &Reporter,
    experiment: &Experiment,
    results: &Results,
    provenance: &Provenance,
    extra: Vec<(String, String)>,
    start: Instant,
) -> Result<usize> {
    let id = experiment.id();
    let dir = settings.results.join(id);
    let mut files: Vec<(&str, String)> = results.files(experiment, provenance);
    let (names, texts): (Vec<String>, Vec<String>) = extra.into_iter().unzip();
    for (name, text) in names.iter().zip(texts) {
        output::check_name_lengths(&dir.join(name), "--schedules")?;
        files.push((name.as_str(), text));
    }
    output::write_dir(&dir, &files)?;
    // The report is Markdown, already encoded; the terminal pass is the
    // last line of defence for stdout.
    let report_text = experiments::encode::terminal(&results.summary(experiment));
    report.suspend(|| println!("{report_text}"));
    report.info(&format!(
        "{id}: wrote {} in {}",
        dir.display(),
        progress::human(start.elapsed().as_secs_f64())
    ));
    if results.stand_in() {
        report.warn(&format!(
            "{id}: WARNING: stand-in workload used; results are NOT comparable to the paper"
        ));
    }
    Ok(results.verdicts.iter().filter(|v| !v.passed()).count())
}

/// The exit status of a command whose claims `failed_claims` did not pass:
/// success, or [`EXIT_CLAIM_FAILED`] under `--strict-claims` (`strict`).
pub fn claims_status(failed_claims: usize, strict: bool) -> Result<ExitCode> {
    if failed_claims > 0 {
        eprintln!(
            "{failed_claims} claim(s) did not PASS (FAIL or INCONCLUSIVE){}",
            if strict {
                " (--strict-claims: exit status 3)"
            } else {
                ""
            }
        );
        if strict {
            return Ok(ExitCode::from(EXIT_CLAIM_FAILED));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints verdicts one per line.
pub fn print_verdicts(id: &str, verdicts: &[Verdict]) {
    // Claim text and values come from configurations: one line each, no
    // control characters.
    let line = |s: &str| experiments::encode::terminal(&s.replace(['\n', '\r'], " "));
    println!("{}:", line(id));
    for v in verdicts {
        let paper = v
            .paper_value
            .as_deref()
            .map(|p| format!(" (paper: {})", line(p)))
            .unwrap_or_default();
        println!(
            "  {}  {}{paper}\n        ours: {}",
            v.label(),
            line(&v.text),
            line(&v.ours)
        );
    }
}
