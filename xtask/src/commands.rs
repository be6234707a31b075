//! `list`, `reproduce`, `run` and `verify`.

use std::path::{Component, Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use experiments::{
    DocEntry, Experiment, Progress, Provenance, RunOptions, Traces, Verdict, check_claims,
    parse_csv,
};

use crate::Settings;
use crate::catalog::{self, Entry};
use crate::output;
use crate::traces::{load, resolve};

/// Reads and parses a configuration; errors name the file, line and column.
pub fn read_config(path: &Path, shown: &str) -> Result<Experiment> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {shown}"))?;
    Ok(Experiment::parse(&text, shown)?)
}

/// How a path is shown: relative to the repository root when inside it.
fn shown(settings: &Settings, path: &Path) -> String {
    path.strip_prefix(&settings.root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn catalog(settings: &Settings) -> Result<Vec<Entry>> {
    catalog::scan(&settings.root.join("configs"))
}

/// `cargo xtask list`.
pub fn list(settings: &Settings) -> Result<ExitCode> {
    let entries = catalog(settings)?;
    let width = entries.iter().map(|e| e.id.len()).max().unwrap_or(0);
    for e in &entries {
        match read_config(&e.path, &shown(settings, &e.path)) {
            Ok(x) => println!("{:width$}  {}  [{}]", e.id, x.title(), x.paper()),
            Err(err) => println!("{:width$}  (invalid configuration: {err:#})", e.id),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `git rev-parse HEAD` in the repository, or `unknown`.
fn git_revision(root: &Path) -> String {
    Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// Runs one configuration and writes its results; returns the number of
/// FAILed claims. `expected_id` is checked against the file's `id`.
pub fn run_one(settings: &Settings, path: &Path, expected_id: Option<&str>) -> Result<usize> {
    let start = Instant::now();
    let name = shown(settings, path);
    let experiment = read_config(path, &name)?;
    let id = experiment.id().to_string();
    if let Some(want) = expected_id.filter(|w| *w != id) {
        bail!("{name}: id is '{id}' but the file's place says '{want}'; make them agree");
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let mut traces = Traces::new();
    for t in experiment.traces() {
        let found = resolve(&t.name, base, &settings.traces)
            .with_context(|| format!("{id}: cannot find trace '{}'", t.name))?;
        let source = load(&found, t.lenient)
            .with_context(|| format!("{id}: cannot load trace '{}'", t.name))?;
        traces.insert(t.name, source);
    }
    eprintln!(
        "{id}: {} ({} threads)",
        experiment.title(),
        settings.threads
    );
    let progress = |p: &Progress<'_>| {
        eprintln!(
            "[{}/{}] {id}: {} ... {:.1} s",
            p.done, p.total, p.cell, p.seconds
        )
    };
    let options = RunOptions {
        threads: settings.threads,
        progress: Some(&progress),
    };
    let results =
        experiments::run(&experiment, &traces, &options).with_context(|| format!("{id} failed"))?;
    let provenance = Provenance {
        git_revision: git_revision(&settings.root),
        config_file: name,
    };
    let dir = settings.results.join(&id);
    output::write_dir(&dir, &results.files(&experiment, &provenance))?;
    println!("{}", results.summary(&experiment));
    eprintln!(
        "{id}: wrote {} in {:.1} s",
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    if results.stand_in() {
        eprintln!("{id}: WARNING: stand-in workload used; results are NOT comparable to the paper");
    }
    Ok(results.verdicts.iter().filter(|v| !v.pass).count())
}

/// Runs several experiments, going on after a failure; the status reflects all.
fn run_all(
    settings: &Settings,
    jobs: &[(PathBuf, Option<String>)],
    strict: bool,
) -> Result<ExitCode> {
    let start = Instant::now();
    let mut failed = Vec::new();
    let mut failed_claims = 0;
    for (path, id) in jobs {
        match run_one(settings, path, id.as_deref()) {
            Ok(n) => failed_claims += n,
            Err(e) => {
                eprintln!("error: {e:#}");
                failed.push(id.clone().unwrap_or_else(|| path.display().to_string()));
            }
        }
    }
    eprintln!("total wall time {:.1} s", start.elapsed().as_secs_f64());
    if !failed.is_empty() {
        bail!(
            "{} of {} experiments failed: {}",
            failed.len(),
            jobs.len(),
            failed.join(", ")
        );
    }
    claims_status(failed_claims, strict)
}

fn claims_status(failed_claims: usize, strict: bool) -> Result<ExitCode> {
    if failed_claims > 0 {
        eprintln!(
            "{failed_claims} claim(s) FAILed{}",
            if strict { " (--strict-claims)" } else { "" }
        );
        if strict {
            return Ok(ExitCode::from(2));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `cargo xtask reproduce <id>...`.
pub fn reproduce(settings: &Settings, ids: &[String], strict: bool) -> Result<ExitCode> {
    let entries = catalog(settings)?;
    let jobs: Vec<(PathBuf, Option<String>)> = catalog::select(ids, &entries)?
        .into_iter()
        .map(|e| (e.path.clone(), Some(e.id.clone())))
        .collect();
    run_all(settings, &jobs, strict)
}

/// `cargo xtask run <config.toml>...`.
pub fn run_configs(settings: &Settings, files: &[String], strict: bool) -> Result<ExitCode> {
    let jobs: Vec<(PathBuf, Option<String>)> =
        files.iter().map(|f| (PathBuf::from(f), None)).collect();
    run_all(settings, &jobs, strict)
}

/// Prints verdicts one per line.
pub fn print_verdicts(id: &str, verdicts: &[Verdict]) {
    println!("{id}:");
    for v in verdicts {
        let paper = v
            .paper_value
            .as_deref()
            .map(|p| format!(" (paper: {p})"))
            .unwrap_or_default();
        println!(
            "  {}  {}{paper}\n        ours: {}",
            v.label(),
            v.text,
            v.ours
        );
    }
}

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
/// regenerates the reproduction document from every result present.
pub fn verify(settings: &Settings, ids: &[String], doc: &Path, strict: bool) -> Result<ExitCode> {
    let entries = catalog(settings)?;
    let selected: Vec<&Entry> = if ids.is_empty() {
        entries.iter().collect()
    } else {
        catalog::select(ids, &entries)?
    };
    let doc_dir = doc.parent().unwrap_or(Path::new("."));
    let (mut docs, mut missing, mut failed_claims) = (Vec::new(), Vec::new(), 0);
    for e in &entries {
        let dir = settings.results.join(&e.id);
        let csv = dir.join("data.csv");
        let wanted = selected.contains(&e);
        if !csv.is_file() {
            if wanted && !ids.is_empty() {
                bail!(
                    "no results for {} in {}; run `cargo xtask reproduce {}` first",
                    e.id,
                    dir.display(),
                    e.id
                );
            }
            missing.push(e.id.clone());
            continue;
        }
        let experiment = read_config(&e.path, &shown(settings, &e.path))?;
        let text = std::fs::read_to_string(&csv)
            .with_context(|| format!("cannot read {}", csv.display()))?;
        let rows = parse_csv(&text).with_context(|| format!("{}", csv.display()))?;
        let verdicts = check_claims(experiment.claims(), &rows);
        if wanted {
            print_verdicts(&e.id, &verdicts);
            failed_claims += verdicts.iter().filter(|v| !v.pass).count();
        }
        // Results are git-ignored; a copy of the figure beside the document
        // keeps its link alive in a fresh clone.
        let mut figure = dir.join("figure.svg");
        if let Ok(svg) = std::fs::read(&figure) {
            figure = doc_dir
                .join("figures")
                .join(format!("{}.svg", e.id.replace('/', "-")));
            output::write_file(&figure, &svg)?;
        }
        docs.push(DocEntry {
            id: e.id.clone(),
            title: experiment.title().to_string(),
            paper: experiment.paper().to_string(),
            figure: relative(doc_dir, &figure),
            verdicts,
            stand_in: stand_in(&dir.join("run.toml")),
            notes: paper_notes(doc_dir, &e.id),
        });
    }
    output::write_file(
        doc,
        experiments::reproduction_doc(&docs, &missing).as_bytes(),
    )?;
    eprintln!("wrote {}", doc.display());
    claims_status(failed_claims, strict)
}

/// `<paper>.md` beside the document (docs/adaptive.md for adaptive/fig4),
/// if it exists, as a link relative to the document.
fn paper_notes(doc_dir: &Path, id: &str) -> Option<String> {
    let paper = id.split('/').next()?;
    let name = format!("{paper}.md");
    doc_dir.join(&name).is_file().then_some(name)
}

/// Whether a run.toml records a stand-in workload (unreadable counts as yes).
fn stand_in(run_toml: &Path) -> bool {
    let table = std::fs::read_to_string(run_toml)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok());
    let flag = table
        .as_ref()
        .and_then(|t| t.get("provenance"))
        .and_then(|p| p.get("stand_in"))
        .and_then(toml::Value::as_bool);
    flag.unwrap_or(true)
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
