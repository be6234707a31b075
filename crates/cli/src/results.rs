//! Running one experiment and writing its results directory atomically,
//! printing its summary and verdicts, and the exit status the claims give.

use crate::exit::{say, say_err};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use experiments::encode::{terminal_name, terminal_path};
use experiments::{
    Experiment, Progress, Provenance, Results, RunCache, RunOptions, Setting, Verdict,
};

use crate::catalog::Entry;
use crate::config::read_config;
use crate::exit::EXIT_CLAIM_FAILED;
use crate::experiment::{Loaded, provenance, read_experiment, run_failed};
use crate::output;
use crate::progress::{self, Reporter, Verbosity};
use crate::schedules;
use crate::settings::Settings;

/// Repairs results that interrupted runs left behind (see [`output`]):
/// restores a results directory a killed run had moved aside, deletes
/// temporary files of dead processes.
pub fn recover_results(settings: &Settings) {
    match output::recover_tree(&settings.results, 1) {
        Ok(recovered) => {
            for path in &recovered.restored {
                say_err!(
                    "warning: restored {} from a run that was interrupted while replacing it",
                    terminal_path(path)
                );
            }
        }
        Err(e) => say_err!(
            "warning: cannot tidy {}: {e:#}",
            terminal_path(&settings.results)
        ),
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
    output::check_no_links_below(&settings.results, &dir)?;
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    output::refuse_input_dir(&dir, &inputs).with_context(|| id.clone())?;
    output::check_name_lengths(&dir, "--out")?;
    output::check_outside_results(&dir)?;
    // A link or a file where the results go is refused before any work
    // (what a directory holds is checked when it is replaced).
    if std::fs::symlink_metadata(&dir).is_ok_and(|m| !m.is_dir()) {
        output::check_dir_target(&dir, &[])?;
    }
    // Results of another configuration are refused before any work.
    check_replacement(settings, &dir, &experiment, None)?;
    let progress = |p: &Progress<'_>| report.run(p);
    let options = RunOptions {
        threads: settings.threads,
        progress: Some(&progress),
        cache,
    };
    let mut results = experiments::run(&experiment, &traces, &options)
        .map_err(|e| run_failed(e, || format!("{id} failed")))?;
    if settings.no_claims {
        results = results.without_claims();
    }
    let provenance = provenance(&name);
    let schedules = if settings.schedules {
        let runs = experiments::schedules(&experiment, &traces, &options)
            .map_err(|e| run_failed(e, || format!("{id}: schedules failed")))?;
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
    output::check_no_links_below(&settings.results, &dir)?;
    WRITTEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(id.to_string());
    if let Some(note) = check_replacement(settings, &dir, experiment, Some(&results.workloads))? {
        report.info(&note);
    }
    let setting = setting(settings, experiment, results.stand_in());
    let mut files: Vec<(&str, String)> = results.files_in(experiment, provenance, &setting);
    let (names, texts): (Vec<String>, Vec<String>) = extra.into_iter().unzip();
    for (name, text) in names.iter().zip(texts) {
        output::check_name_lengths(&dir.join(name), "--schedules")?;
        files.push((name.as_str(), text));
    }
    output::write_dir(&dir, &files)?;
    // The report is Markdown, already encoded; the terminal pass is the
    // last line of defence for stdout.
    let report_text = experiments::encode::terminal(&results.summary_in(experiment, &setting));
    report.suspend(|| say!("{report_text}"));
    report.info(&format!(
        "{id}: wrote {} in {}",
        terminal_path(&dir),
        progress::human(start.elapsed().as_secs_f64())
    ));
    if results.stand_in() {
        report.warn(&format!(
            "{id}: WARNING: stand-in workload used; results come from a synthetic workload, NOT from the trace (nor comparable to a paper)"
        ));
    }
    // A claim at an x value the sweep does not have was left out: said
    // here too, and counted as not passing (`--strict-claims` fails on it).
    let skipped = if settings.no_claims {
        0
    } else {
        for note in experiment.skipped_claims() {
            report.warn(&format!("{id}: warning: {note}"));
        }
        experiment.skipped_claims().len()
    };
    Ok(results.verdicts.iter().filter(|v| !v.passed()).count() + skipped)
}

/// Whether the words a paper's configuration carries (its claims'
/// explanations and causes, "Reproduces:", a kind's paper statistics)
/// apply to a run of `experiment` whose results came from a stand-in or
/// not (`stand_in`): only when it is the committed configuration of a
/// paper's figure or sensitivity run, unmodified. That is, `configs/<id>.toml`
/// exists, resolves to the same configuration (same config sha256: same
/// workloads, traces, sweep, series and claims), git does not report the
/// file changed (when the repository is a git work tree), and no workload
/// is a stand-in. Known traces are verified by checksum when found, so the
/// same name means the same data.
pub fn setting(settings: &Settings, experiment: &Experiment, stand_in: bool) -> Setting {
    let Some((entry, committed)) = committed_config(settings, experiment) else {
        return Setting::Own;
    };
    if stand_in
        || committed.config_sha256() != experiment.config_sha256()
        || modified_in_git(&settings.root, &entry.path)
    {
        return copied(&committed);
    }
    Setting::Paper
}

/// Every setting results of `experiment` may have been written in, the
/// one [`setting`] gives now first: whether the committed file was
/// modified when they were written is not recorded, so `verify` accepts a
/// summary written in any of them (the numbers are the same in all).
pub fn possible_settings(
    settings: &Settings,
    experiment: &Experiment,
    stand_in: bool,
) -> Vec<Setting> {
    let mut all = vec![setting(settings, experiment, stand_in)];
    let committed = committed_config(settings, experiment).map(|(_, c)| copied(&c));
    for s in [Some(Setting::Paper), Some(Setting::Own), committed]
        .into_iter()
        .flatten()
    {
        if !all.contains(&s) {
            all.push(s);
        }
    }
    all
}

/// The catalog's entry of a paper figure or sensitivity run with
/// `experiment`'s id, and its committed configuration, if there is one.
fn committed_config(settings: &Settings, experiment: &Experiment) -> Option<(Entry, Experiment)> {
    let entries = settings.catalog().ok()?;
    let entry = entries
        .into_iter()
        .find(|e| e.id == experiment.id() && (e.is_figure() || e.is_sensitivity()))?;
    let committed = read_config(
        &settings.registry,
        &entry.path,
        &settings.shown(&entry.path),
    )
    .ok()?;
    Some((entry, committed))
}

/// [`Setting::Copied`] of the committed configuration `committed`.
fn copied(committed: &Experiment) -> Setting {
    let traces: Vec<String> = committed.traces().into_iter().map(|t| t.name).collect();
    Setting::Copied(if traces.is_empty() {
        format!("{} on its own generated workload", committed.id())
    } else {
        format!("{} on {}", committed.id(), traces.join(", "))
    })
}

/// Whether git says `path` differs from the committed `HEAD` (false when
/// git or the repository is not there).
fn modified_in_git(root: &Path, path: &Path) -> bool {
    std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["diff", "--quiet", "HEAD", "--"])
        .arg(path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.code() == Some(1))
}

/// What a workload's data is, as run.toml records it: its label and its
/// SWF text's sha256, or the seed it was generated from.
fn data_of(label: &str, sha256: Option<&str>, seed: Option<String>, stand_in: bool) -> String {
    match (sha256, seed) {
        (Some(sha), _) => format!("'{label}' sha256 {sha}"),
        (None, Some(seed)) if stand_in => format!("'{label}' a stand-in, seed {seed}"),
        (None, Some(seed)) => format!("'{label}' generated, seed {seed}"),
        (None, None) => format!("'{label}' generated by the kind"),
    }
}

/// Whether the results already in `dir` may be replaced by this run of
/// `experiment` (on `workloads`, once known): an error naming both when
/// they were computed from another configuration (config sha256) or on
/// other data (trace checksums, stand-in seeds), unless `--replace`; else
/// the note to print when they are replaced (`None` when there are none).
pub fn check_replacement(
    settings: &Settings,
    dir: &Path,
    experiment: &Experiment,
    workloads: Option<&[experiments::WorkloadFacts]>,
) -> Result<Option<String>> {
    let run_toml = dir.join("run.toml");
    if std::fs::symlink_metadata(&run_toml).is_err() {
        return Ok(None);
    }
    let id = experiment.id();
    let old: Option<toml::Table> = crate::files::read_to_string(&run_toml, crate::files::RESULTS)
        .ok()
        .and_then(|t| t.parse().ok());
    let Some(prov) = old
        .as_ref()
        .and_then(|t| t.get("provenance"))
        .and_then(toml::Value::as_table)
    else {
        return if settings.replace {
            Ok(Some(format!(
                "{id}: replaced unreadable results in {}",
                terminal_path(dir)
            )))
        } else {
            anyhow::bail!(
                "{id}: {} holds results whose run.toml cannot be read; nothing written. Pass \
                 --replace to replace them, or choose another --out",
                terminal_path(dir)
            )
        };
    };
    let text = |k: &str| prov.get(k).and_then(toml::Value::as_str).unwrap_or("?");
    let (old_sha, old_file) = (text("config_sha256"), text("config_file"));
    let new_sha = experiment.config_sha256();
    let mut differences = Vec::new();
    if old_sha != new_sha {
        // What run.toml holds is user text too: each part on one line.
        differences.push(format!(
            "another configuration: config sha256 {} (from {}) there, {new_sha} (from {}) here",
            terminal_name(old_sha),
            terminal_name(old_file),
            terminal_name(experiment.file())
        ));
    }
    if let Some(workloads) = workloads {
        let old_data: Vec<String> = prov
            .get("workloads")
            .and_then(toml::Value::as_array)
            .map(|ws| {
                ws.iter()
                    .filter_map(toml::Value::as_table)
                    .map(|w| {
                        let label = w.get("label").and_then(toml::Value::as_str).unwrap_or("?");
                        let variant = w.get("variant").and_then(toml::Value::as_str);
                        let repetition = w
                            .get("repetition")
                            .and_then(toml::Value::as_integer)
                            .and_then(|r| u32::try_from(r).ok());
                        let shown = experiments::WorkloadFacts::shown(label, variant, repetition);
                        data_of(
                            &shown,
                            w.get("sha256").and_then(toml::Value::as_str),
                            w.get("seed").map(|s| match s {
                                toml::Value::String(s) => s.clone(),
                                other => other.to_string(),
                            }),
                            w.get("stand_in").and_then(toml::Value::as_bool) == Some(true),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let new_data: Vec<String> = workloads
            .iter()
            .map(|w| {
                data_of(
                    &w.shown_label(),
                    w.sha256.as_deref(),
                    w.seed.map(|s| s.to_string()),
                    w.stand_in,
                )
            })
            .collect();
        if old_data != new_data {
            differences.push(format!(
                "other data: {} there, {} here",
                terminal_name(&old_data.join(", ")),
                terminal_name(&new_data.join(", "))
            ));
        }
    }
    if differences.is_empty() {
        return Ok(Some(format!(
            "{id}: replaced the results of the same configuration and data in {}",
            terminal_path(dir)
        )));
    }
    if settings.replace {
        return Ok(Some(format!(
            "{id}: --replace: replaced results in {} computed from {}",
            terminal_path(dir),
            differences.join("; and ")
        )));
    }
    anyhow::bail!(
        "{id}: {} holds results computed from {}; nothing written. Pass --replace to replace \
         them, or choose another --out",
        terminal_path(dir),
        differences.join("; and ")
    )
}

/// The ids whose results this process wrote, in order (for `--combined`).
static WRITTEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The records of a CSV text (a quoted field may hold a line break).
fn csv_records(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '\n' if !quoted => {
                out.push(text[start..i].trim_end_matches('\r'));
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// `--combined FILE`: the data.csv of every experiment this process wrote
/// (in the order they ran), one table with an `experiment` column first;
/// an existing file is replaced only if the tool wrote it, or `force`.
pub fn write_combined(settings: &Settings, file: &Path, force: bool) -> Result<()> {
    let ids = WRITTEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let mut out = format!("experiment,{}\n", experiments::CSV_HEADER);
    for id in &ids {
        let path = settings.results.join(id).join("data.csv");
        let text = crate::files::read_to_string(&path, crate::files::RESULTS)
            .with_context(|| format!("--combined: cannot read {}", terminal_path(&path)))?;
        for record in csv_records(&text).into_iter().skip(1) {
            if !record.is_empty() {
                out.push_str(&experiments::encode::csv_text(id));
                out.push(',');
                out.push_str(record);
                out.push('\n');
            }
        }
    }
    output::write_output(
        file,
        out.as_bytes(),
        "--combined",
        output::Made::Combined,
        force,
    )
    .with_context(|| format!("--combined: cannot write {}", terminal_path(file)))?;
    if settings.verbosity > Verbosity::Quiet {
        say_err!(
            "wrote {} ({} experiment(s), an `experiment` column first)",
            terminal_path(file),
            ids.len()
        );
    }
    Ok(())
}

/// The exit status of a command whose claims `failed_claims` did not pass:
/// success, or [`EXIT_CLAIM_FAILED`] under `--strict-claims` (`strict`).
pub fn claims_status(failed_claims: usize, strict: bool) -> Result<ExitCode> {
    if failed_claims > 0 {
        say_err!(
            "{failed_claims} claim(s) did not PASS (FAIL, INCONCLUSIVE, or not checked: at an x \
             value the sweep does not have){}",
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
    say!("{}:", line(id));
    for v in verdicts {
        let paper = v
            .paper_value
            .as_deref()
            .map(|p| format!(" (paper: {})", line(p)))
            .unwrap_or_default();
        say!(
            "  {}  {}{paper}\n        ours: {}",
            v.label(),
            line(&v.text),
            line(&v.ours)
        );
    }
}
