//! `cargo xtask verify`: re-checks the claims of existing results and
//! writes the reproduction document (and the sensitivity tables).

use crate::exit::say_err;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use experiments::encode::{terminal_name, terminal_path};
use experiments::{DocEntry, Experiment, RunOptions, RunToml, Samples, check_claims, parse_csv};

use crate::catalog::{self, Entry};
use crate::config::{read_config, recorded_config};
use crate::experiment::resolve_traces;
use crate::progress::Verbosity;
use crate::results::{claims_status, print_verdicts, recover_results};
use crate::settings::Settings;
use crate::{files, output, sensitivity};

/// `path` relative to the directory `from` (both made absolute first).
fn relative(from: &Path, path: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (from, path) = (abs(from), abs(path));
    let a: Vec<Component<'_>> = from.components().collect();
    let b: Vec<Component<'_>> = path.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// `cargo xtask verify [id]...`: re-checks claims from existing results and
/// writes the reproduction document from every result present.
///
/// The document `doc` (default `docs/REPRODUCTION.md`) is rewritten only when
/// every paper figure of the catalog has results, so partial results never
/// shrink it; otherwise the partial document goes to
/// `<results>/REPRODUCTION.md`, and a line says so. Neither the document
/// nor a figure copied beside it replaces a file the tool did not write,
/// unless `force`.
pub fn verify(
    settings: &Settings,
    ids: &[String],
    doc: Option<&Path>,
    strict: bool,
    force: bool,
) -> Result<ExitCode> {
    // A misspelt --out is no empty set of results: it would verify nothing
    // and still write a document saying so.
    if !settings.results.is_dir() {
        bail!(
            "{} is not a directory of results; give --out the directory `cargo xtask \
             reproduce` or `run` wrote to",
            terminal_path(&settings.results)
        );
    }
    recover_results(settings);
    let entries = settings.catalog()?;
    // Ids of results of your own configurations (`cargo xtask run`) are
    // accepted beside the catalog's.
    let own = own_results(&settings.results, &entries);
    let (own_ids, catalog_ids): (Vec<String>, Vec<String>) = ids
        .iter()
        .cloned()
        .partition(|id| own.iter().any(|(o, _)| o == id));
    let csv_of = |e: &Entry| settings.results.join(&e.id).join("data.csv");
    // No id and no result of the papers': the studies of one's own are
    // checked, and no papers' document (it would list nothing) is written.
    let no_papers = ids.is_empty() && !entries.iter().any(|e| csv_of(e).is_file());
    if no_papers && own.is_empty() {
        bail!(
            "{} holds no results: neither of the papers' experiments nor of studies of your own \
             (folders <group>/<name>/ with data.csv and run.toml); run `cargo xtask reproduce` \
             or `cargo xtask run` first, or give --out the directory they wrote to",
            terminal_path(&settings.results)
        );
    }
    // Ids of own studies alone: their results are checked, and the papers'
    // results, document and sensitivity tables are left alone.
    let only_own = (!ids.is_empty() && catalog_ids.is_empty()) || no_papers;
    let selected: Vec<&Entry> = if ids.is_empty() {
        entries.iter().collect()
    } else if catalog_ids.is_empty() {
        Vec::new()
    } else {
        catalog::select(&catalog_ids, &entries, false).map_err(|e| {
            // An unknown id may be a misspelt study of one's own: name those
            // present too, not only the catalog's.
            if own.is_empty() {
                e
            } else {
                let mine: Vec<String> = own.iter().map(|(id, _)| terminal_name(id)).collect();
                anyhow::anyhow!(
                    "{e}; or a study of your own with results in {}: {}",
                    terminal_path(&settings.results),
                    mine.join(", ")
                )
            }
        })?
    };
    // Ids that name no paper figure (examples, sensitivity runs, own
    // studies): those results alone are checked, as for own studies, and
    // no document or sensitivity table is written.
    let only_named = !only_own && !ids.is_empty() && selected.iter().all(|e| !e.is_figure());
    let figures = entries.iter().filter(|e| e.is_figure()).count();
    let absent: Vec<&str> = entries
        .iter()
        .filter(|e| e.is_figure() && !csv_of(e).is_file())
        .map(|e| e.id.as_str())
        .collect();
    let complete = absent.is_empty();
    let target = doc.map_or_else(
        || settings.root.join("docs").join("REPRODUCTION.md"),
        Path::to_path_buf,
    );
    let doc = if complete {
        target.clone()
    } else {
        settings.results.join("REPRODUCTION.md")
    };
    let inputs: Vec<PathBuf> = entries
        .iter()
        .flat_map(|e| [e.path.clone(), csv_of(e)])
        .collect();
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    if !only_own && !only_named {
        output::refuse_input_file(&doc, "--doc", &inputs)?;
        output::check_replace(&doc, "--doc", output::Made::Document, force)?;
    }
    let doc_dir = doc.parent().unwrap_or(Path::new("."));
    // The papers' notes live beside the full document.
    let notes_dir = target.parent().unwrap_or(Path::new("."));
    let (mut docs, mut missing, mut failed_claims) = (Vec::new(), Vec::new(), 0);
    let mut sensitivity_runs = Vec::new();
    let mut corrupt = Vec::new();
    let mut figure_verdicts = std::collections::BTreeMap::new();
    // The papers' entries: none when only own studies were named, the
    // named ones when they name no figure.
    let papers: Vec<&Entry> = if only_own {
        Vec::new()
    } else if only_named {
        selected.clone()
    } else {
        entries.iter().collect()
    };
    for e in papers {
        let dir = settings.results.join(&e.id);
        let csv = csv_of(e);
        let wanted = selected.contains(&e);
        if !csv.is_file() {
            if wanted && !ids.is_empty() {
                bail!(
                    "no results for {} in {}; run `cargo xtask reproduce -- {}` first",
                    e.id,
                    terminal_path(&dir),
                    crate::script::quote(&e.id)
                );
            }
            if e.is_figure() {
                missing.push(e.id.clone());
            }
            continue;
        }
        let experiment = read_config(&settings.registry, &e.path, &settings.shown(&e.path))?;
        let read = ResultsFiles::read(&dir)?;
        let checked = match read.run_toml(&dir) {
            Ok(run_toml) => {
                checked_results(settings, &dir, &read, run_toml, &experiment, &e.id, &e.path)?
            }
            Err(why) => Err(why),
        };
        let Checked {
            rows,
            samples,
            run_toml,
        } = match checked {
            Ok(checked) => checked,
            Err(why) => {
                corrupt.push(why);
                continue;
            }
        };
        let verdicts = check_claims(experiment.claims(), &rows, &samples);
        if wanted {
            print_verdicts(&e.id, &verdicts);
            failed_claims += verdicts.iter().filter(|v| !v.passed()).count();
            failed_claims += skipped_claims(&e.id, &experiment);
        }
        if !e.is_figure() {
            if e.is_sensitivity() {
                sensitivity_runs.push((e.id.clone(), experiment, verdicts));
            }
            continue;
        }
        for v in verdicts.iter().filter(|v| !v.passed() && v.cause.is_none()) {
            report_warning(&format!(
                "{}: claim \"{}\" is {} without a cause (give it cause.paper, cause.data or \
                 cause.reading in {})",
                e.id,
                v.text.replace(['\n', '\r'], " "),
                v.label(),
                terminal_name(&settings.shown(&e.path))
            ));
        }
        figure_verdicts.insert(e.id.clone(), verdicts.clone());
        let mut figure = dir.join("figure.svg");
        // Results are git-ignored; a copy of the figure beside the full
        // document keeps its link alive in a fresh clone. The partial
        // document lives among the results and links to them.
        if complete && let Some(svg) = &read.figure {
            figure = doc_dir
                .join("figures")
                .join(format!("{}.svg", e.id.replace('/', "-")));
            output::check_replace(
                &figure,
                "a figure beside --doc",
                output::Made::Picture,
                force,
            )?;
            output::write_output(
                &figure,
                svg,
                "a figure beside --doc",
                output::Made::Picture,
                force,
            )?;
        }
        docs.push(DocEntry {
            id: e.id.clone(),
            title: experiment.title().to_string(),
            paper: experiment.paper().map(str::to_string),
            figure: relative(doc_dir, &figure),
            verdicts,
            stand_in: run_toml.stand_in().unwrap_or(true),
            notes: paper_notes(notes_dir, doc_dir, &e.id),
        });
    }
    // Results of configurations outside configs/ (`cargo xtask run`): checked
    // against the configuration their run.toml records, never skipped silently.
    {
        let wanted = own
            .into_iter()
            .filter(|(id, _)| ids.is_empty() || own_ids.contains(id));
        for (id, dir) in wanted {
            let read = ResultsFiles::read(&dir)?;
            let run_toml = match read.run_toml(&dir) {
                Ok(run_toml) => run_toml,
                Err(why) => {
                    corrupt.push(why);
                    continue;
                }
            };
            let experiment = match recorded_config(&settings.registry, &run_toml, &dir) {
                Ok(experiment) => experiment,
                Err(why) => {
                    corrupt.push(format!("{}/run.toml: {why:#}", terminal_path(&dir)));
                    continue;
                }
            };
            let config_path = recorded_path(settings, &run_toml);
            match checked_results(
                settings,
                &dir,
                &read,
                run_toml,
                &experiment,
                &id,
                &config_path,
            )? {
                Ok(Checked { rows, samples, .. }) => {
                    let verdicts = check_claims(experiment.claims(), &rows, &samples);
                    print_verdicts(&id, &verdicts);
                    failed_claims += verdicts.iter().filter(|v| !v.passed()).count();
                    failed_claims += skipped_claims(&id, &experiment);
                }
                Err(why) => corrupt.push(why),
            }
        }
    }
    if !corrupt.is_empty() {
        for c in &corrupt {
            report_error(c);
        }
        bail!(
            "{} experiment(s) have results that do not check out (above); nothing written",
            corrupt.len()
        );
    }
    if only_named {
        if settings.verbosity > Verbosity::Quiet {
            say_err!(
                "checked the results named only (no paper figure among them), so no \
                 reproduction document or sensitivity table was written"
            );
        }
        return claims_status(failed_claims, strict);
    }
    if only_own {
        if no_papers && settings.verbosity > Verbosity::Quiet {
            say_err!(
                "{} holds results of studies of your own only (checked above) and none of the \
                 papers' experiments, so no reproduction document was written",
                terminal_path(&settings.results)
            );
        }
        return claims_status(failed_claims, strict);
    }
    output::write_output(
        &doc,
        experiments::reproduction_doc(&docs, &missing).as_bytes(),
        "--doc",
        output::Made::Document,
        force,
    )?;
    sensitivity::write_tables(
        settings,
        &entries,
        &sensitivity_runs,
        &figure_verdicts,
        notes_dir,
    )?;
    if settings.verbosity > Verbosity::Quiet {
        if complete {
            say_err!("wrote {}", terminal_name(&settings.shown(&doc)));
        } else {
            say_err!(
                "results for {} of {figures} paper figures in {} (missing: {}); {} is \
                 regenerated only from a complete set and was left unchanged; wrote the \
                 partial document to {}",
                figures - absent.len(),
                terminal_path(&settings.results),
                absent.join(", "),
                terminal_name(&settings.shown(&target)),
                terminal_path(&doc)
            );
        }
    }
    claims_status(failed_claims, strict)
}

/// `bytes` as text, if they are UTF-8.
fn utf8(bytes: Option<&[u8]>) -> Option<&str> {
    bytes.and_then(|b| std::str::from_utf8(b).ok())
}

/// Prints one of several errors (the last one ends the command).
fn report_error(message: &str) {
    say_err!("error: {message}");
}

/// Prints a warning quoting configurations or files.
/// Warns of every claim of `experiment` left out (at an x value its sweep
/// does not have) and returns how many: they do not pass.
fn skipped_claims(id: &str, experiment: &Experiment) -> usize {
    for note in experiment.skipped_claims() {
        report_warning(&format!("{id}: {note}"));
    }
    experiment.skipped_claims().len()
}

fn report_warning(message: &str) {
    say_err!("warning: {message}");
}

/// `<paper>.md` in `notes_dir` (docs/adaptive.md for adaptive/fig4), if it
/// exists, as a link relative to the document's directory `doc_dir`.
/// One results directory's files, each read once: what is parsed and
/// checked, what the manifest's checksums are compared with and the figure
/// copied beside the document are these bytes, so a file changed while
/// `verify` runs cannot pass one check as one text and another as another.
struct ResultsFiles {
    /// `data.csv`.
    data: String,
    /// `samples.csv`, if present.
    samples: Option<String>,
    /// `run.toml`, if present.
    run: Option<String>,
    /// `figure.svg`, if it could be read.
    figure: Option<Vec<u8>>,
    /// `summary.md`, if it could be read.
    summary: Option<Vec<u8>>,
}

impl ResultsFiles {
    fn read(dir: &Path) -> Result<ResultsFiles> {
        Ok(ResultsFiles {
            data: files::read_to_string(&dir.join("data.csv"), files::RESULTS)?,
            samples: files::read_if_exists(&dir.join("samples.csv"), files::RESULTS)?,
            run: files::read_if_exists(&dir.join("run.toml"), files::RESULTS)?,
            figure: files::read(&dir.join("figure.svg"), files::RESULTS).ok(),
            summary: files::read(&dir.join("summary.md"), files::RESULTS).ok(),
        })
    }

    /// `run.toml` parsed (a missing one as empty, which its check refuses);
    /// the error names the file and line.
    fn run_toml(&self, dir: &Path) -> std::result::Result<RunToml, String> {
        RunToml::parse(self.run.as_deref().unwrap_or_default())
            .map_err(|e| format!("{}/{e}", terminal_path(dir)))
    }

    /// The files read, by name, as the manifest lists them.
    fn contents(&self) -> Vec<(&'static str, &[u8])> {
        let mut read = vec![("data.csv", self.data.as_bytes())];
        read.extend(self.samples.as_ref().map(|t| ("samples.csv", t.as_bytes())));
        read.extend(self.run.as_ref().map(|t| ("run.toml", t.as_bytes())));
        read.extend(self.figure.as_deref().map(|b| ("figure.svg", b)));
        read.extend(self.summary.as_deref().map(|b| ("summary.md", b)));
        read
    }
}

/// Results that check out, as read.
struct Checked {
    /// The rows the pipeline makes of `samples` (data.csv's, which hold
    /// them to 6 significant digits, unrounded): claims show their values.
    rows: Vec<experiments::Row>,
    samples: Samples,
    run_toml: RunToml,
}

/// The results in `dir`, read once as `read` (with its `run.toml` parsed
/// as `run_toml`), checked against `experiment` before they are trusted:
/// data.csv must be what samples.csv gives, run.toml must record this
/// configuration and what it makes of the traces (found as a run finds
/// them, relative to `config_path`'s directory; a trace that cannot be
/// found or read fails the check), and the directory must
/// hold what the tool wrote. `Ok(Err(why))` names the file at fault.
fn checked_results(
    settings: &Settings,
    dir: &Path,
    read: &ResultsFiles,
    run_toml: RunToml,
    experiment: &Experiment,
    id: &str,
    config_path: &Path,
) -> Result<std::result::Result<Checked, String>> {
    let rows = parse_csv(&read.data).with_context(|| terminal_path(&dir.join("data.csv")))?;
    let samples_file = dir.join("samples.csv");
    let samples = match &read.samples {
        Some(text) => Samples::parse(text, experiment.confidence())
            .with_context(|| terminal_path(&samples_file))?,
        None => {
            // Without it data.csv cannot be checked (or is of a version
            // older than samples.csv).
            return Ok(Err(format!(
                "{}: missing, so data.csv cannot be checked; run `cargo xtask reproduce -- {}`",
                terminal_path(&samples_file),
                crate::script::quote(id),
            )));
        }
    };
    // A trace that cannot be found or read leaves the workloads unchecked:
    // that is a failure to verify, never a pass.
    let mut unchecked = None;
    let checked = experiments::check_results(experiment, &rows, &samples)
        .and_then(|()| experiments::check_run_toml(&run_toml, experiment))
        .and_then(|()| {
            // Results of a stand-in are checked against the same stand-in.
            let mut settings = settings.clone();
            settings.traces.no_stand_in &= !run_toml.stand_in().unwrap_or(true);
            let traces =
                match resolve_traces(&settings, None, experiment, config_path, &mut Vec::new()) {
                    Ok(traces) => traces,
                    Err(why) => {
                        unchecked = Some(why);
                        return Ok(());
                    }
                };
            let options = RunOptions {
                threads: settings.threads,
                ..RunOptions::default()
            };
            // What summary.md and figure.svg show must be what the data
            // say: drawn again and compared (a file that is not text is
            // the manifest's to report).
            let stand_in = run_toml.stand_in().unwrap_or(true);
            let written_for = crate::results::possible_settings(&settings, experiment, stand_in);
            let written = experiments::Written {
                summary: utf8(read.summary.as_deref()),
                figure: utf8(read.figure.as_deref()),
                rows: Some(&rows),
                settings: &written_for,
            };
            experiments::check_written(&run_toml, experiment, &traces, &options, &samples, &written)
        });
    Ok(match (checked, unchecked) {
        // The error starts with the file's name: the path before it names it whole.
        (Err(e), _) => Err(format!("{}/{e}", terminal_path(dir))),
        (Ok(()), Some(why)) => Err(format!(
            "{}/run.toml: the workloads it records cannot be checked against their traces, so \
             these results are not verified: {why:#}",
            terminal_path(dir)
        )),
        // The data hold; the rest (summary.md, figure.svg, which a full
        // document copies) must be what the tool wrote beside them, and
        // the files checked above the bytes it wrote.
        (Ok(()), None) => output::results_intact(dir, &read.contents())?
            .map_err(|why| format!("{why}; the results were edited, run the experiment again"))
            .map(|()| Checked {
                rows: experiments::written_rows(experiment, &rows, &samples),
                samples,
                run_toml,
            }),
    })
}

/// Results directories under `results` (`<paper>/<figure>` or
/// `<paper>/sensitivity/<name>`, holding a run.toml) of experiments that are
/// not among `entries`, with their ids.
fn own_results(results: &Path, entries: &[Entry]) -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    let subdirs = |dir: &Path| -> Vec<(String, PathBuf)> {
        let Ok(read) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut v: Vec<(String, PathBuf)> = read
            .flatten()
            .filter(|d| d.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|d| Some((d.file_name().into_string().ok()?, d.path())))
            .filter(|(name, _)| !name.starts_with('.'))
            .collect();
        v.sort();
        v
    };
    for (paper, p) in subdirs(results) {
        for (figure, f) in subdirs(&p) {
            let mut candidates = vec![(format!("{paper}/{figure}"), f.clone())];
            if figure == "sensitivity" {
                candidates = subdirs(&f)
                    .into_iter()
                    .map(|(name, d)| (format!("{paper}/sensitivity/{name}"), d))
                    .collect();
            }
            for (id, dir) in candidates {
                let known = entries.iter().any(|e| e.id == id);
                if !known && dir.join("run.toml").exists() && dir.join("data.csv").exists() {
                    found.push((id, dir));
                }
            }
        }
    }
    found
}

fn paper_notes(notes_dir: &Path, doc_dir: &Path, id: &str) -> Option<String> {
    let paper = id.split('/').next()?;
    let notes = notes_dir.join(format!("{paper}.md"));
    notes.is_file().then(|| relative(doc_dir, &notes))
}

/// The configuration file `run_toml` names (`config_file`: as the run
/// showed it, relative to the repository root when inside it, else as
/// given), for finding the traces its configuration names relative to it:
/// the first of the root's and the current directory's that exists.
fn recorded_path(settings: &Settings, run_toml: &RunToml) -> PathBuf {
    let file = PathBuf::from(run_toml.config_file().unwrap_or_default());
    let in_root = settings.root.join(&file);
    if !in_root.is_file() && file.is_file() {
        return file;
    }
    in_root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(Path::new("/r/docs"), Path::new("/r/results/a/b/figure.svg")),
            "../results/a/b/figure.svg"
        );
        assert_eq!(relative(Path::new("/r"), Path::new("/r/x.svg")), "x.svg");
    }
}
