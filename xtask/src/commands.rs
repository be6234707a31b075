//! `list`, `reproduce`, `run` and `verify`.

use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use experiments::{
    DocEntry, Experiment, Limits, Progress, Provenance, Results, RunCache, RunOptions, Samples,
    Traces, Verdict, check_claims, parse_csv,
};

use crate::Settings;
use crate::catalog::{self, Entry};
use crate::cli::EXIT_CLAIM_FAILED;
use crate::progress::{self, Reporter, Verbosity};
use crate::traces::{Found, load, resolve};
use crate::{files, output};

/// Reads and parses a configuration under the caps of [`limits`]; errors
/// name the file, line and column.
pub fn read_config(path: &Path, shown: &str) -> Result<Experiment> {
    let limits = limits()?;
    let text = files::read_to_string(path, files::CONFIG)
        .with_context(|| format!("cannot read {shown}"))?;
    Ok(experiments::Registry::builtin().parse_with(&text, shown, &limits)?)
}

/// The caps on a configuration: the defaults of [`Limits`], each
/// overridden by `USCHED_MAX_<KEY>` if set (`USCHED_MAX_RUNS=20000`).
pub fn limits() -> Result<Limits> {
    let mut limits = Limits::default();
    for key in Limits::KEYS {
        let var = format!("USCHED_MAX_{}", key.to_uppercase());
        let Some(value) = std::env::var_os(&var) else {
            continue;
        };
        let value = value
            .to_str()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|v| *v > 0)
            .ok_or_else(|| {
                anyhow!(
                    "{var} is '{}', expected a positive integer",
                    value.to_string_lossy()
                )
            })?;
        limits.set(key, value).map_err(|e| anyhow!("{var}: {e}"))?;
    }
    Ok(limits)
}

/// Runs `f`, turning a panic into an error, so one experiment's bug does
/// not stop the others (the panic's message and place were printed on
/// stderr when it happened).
pub fn isolated<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Err(anyhow!(
                "internal error (a panic: {message}); this is a bug, please report it with the \
                 input that caused it"
            ))
        }
    }
}

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

/// How a path is shown: relative to the repository root when inside it.
pub fn shown(settings: &Settings, path: &Path) -> String {
    path.strip_prefix(&settings.root)
        .unwrap_or(path)
        .display()
        .to_string()
}

pub fn catalog(settings: &Settings) -> Result<Vec<Entry>> {
    catalog::scan(&settings.root.join("configs"))
}

/// `cargo xtask list`.
pub fn list(settings: &Settings) -> Result<ExitCode> {
    let entries = catalog(settings)?;
    let width = entries.iter().map(|e| e.id.len()).max().unwrap_or(0);
    for e in &entries {
        match read_config(&e.path, &shown(settings, &e.path)) {
            Ok(x) => {
                let line = format!("{:width$}  {}  [{}]", e.id, x.title(), x.paper());
                println!("{}", crate::progress::one_line(&line));
            }
            Err(err) => {
                let line = format!("{:width$}  (invalid configuration: {err:#})", e.id);
                println!("{}", crate::progress::one_line(&line));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

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

/// Reads the configuration at `path` and resolves its traces, announcing
/// the experiment on `report`. `expected_id` is checked against the file's
/// `id`; `index` is the experiment's place in the batch `report` shows.
pub fn load_experiment(
    settings: &Settings,
    report: &Reporter,
    index: usize,
    path: &Path,
    expected_id: Option<&str>,
) -> Result<Loaded> {
    read_experiment(settings, Some((report, index)), path, expected_id)
}

/// [`load_experiment`], announcing the experiment on `report` (as number
/// `index` of the batch) only if given.
pub fn read_experiment(
    settings: &Settings,
    report: Option<(&Reporter, usize)>,
    path: &Path,
    expected_id: Option<&str>,
) -> Result<Loaded> {
    let name = shown(settings, path);
    let experiment = read_config(path, &name)?;
    let id = experiment.id().to_string();
    if let Some(want) = expected_id.filter(|w| *w != id) {
        bail!("{name}: id is '{id}' but the file's place says '{want}'; make them agree");
    }
    if let Some((report, index)) = report {
        report.start(index, &id, experiment.title(), settings.threads);
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let mut inputs = vec![path.to_path_buf()];
    // Resolution prints its own warnings (downloads, stand-ins).
    let mut resolve_all = || -> Result<Traces> {
        let mut traces = Traces::new();
        for t in experiment.traces() {
            let found = resolve(&t.name, base, &settings.traces)
                .with_context(|| format!("{id}: cannot find trace '{}'", t.name))?;
            if let Found::File { path, .. } = &found {
                inputs.push(path.clone());
            }
            let source = load(&found, t.lenient)
                .with_context(|| format!("{id}: cannot load trace '{}'", t.name))?;
            traces.insert(t.name, source);
        }
        Ok(traces)
    };
    let traces = match report {
        Some((report, _)) => report.suspend(resolve_all)?,
        None => resolve_all()?,
    };
    Ok(Loaded {
        experiment,
        id,
        name,
        traces,
        inputs,
    })
}

/// The provenance `run.toml` records for a configuration shown as `name`.
pub fn provenance(name: &str) -> Provenance {
    Provenance {
        git_revision: crate::identity::REVISION.to_string(),
        config_file: name.to_string(),
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
    let loaded = load_experiment(settings, report, index, path, expected_id)?;
    run_loaded(settings, report, loaded, None, start)
}

/// Runs a loaded configuration (sharing runs through `cache` if given) and
/// writes its results; returns the number of FAILed claims.
fn run_loaded(
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
    let progress = |p: &Progress<'_>| report.cell(p);
    let options = RunOptions {
        threads: settings.threads,
        progress: Some(&progress),
        cache,
    };
    let results =
        experiments::run(&experiment, &traces, &options).with_context(|| format!("{id} failed"))?;
    let provenance = provenance(&name);
    write_results(settings, report, &experiment, &results, &provenance, start)
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
    let id = experiment.id();
    let dir = settings.results.join(id);
    output::write_dir(&dir, &results.files(experiment, provenance))?;
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

    /// Says how many runs were shared (unless `-q`).
    pub fn report_shared(&self, settings: &Settings) {
        if !matches!(settings.verbosity, Verbosity::Quiet) {
            eprintln!(
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
                report.warn(&format!("error: {e:#}"));
                let name = id.clone().unwrap_or_else(|| path.display().to_string());
                let message = format!("{e:#}");
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
        bail!(
            "{} of {} experiments failed (the others ran and wrote their results):\n{}",
            failed.len(),
            jobs.len(),
            list.join("\n")
        );
    }
    claims_status(failed_claims, strict)
}

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

/// The experiments `ids` select (as for `cargo xtask reproduce`), as
/// `(config file, id)` jobs for [`run_batch`].
pub fn select(
    settings: &Settings,
    ids: &[String],
    sensitivity: bool,
) -> Result<Vec<(PathBuf, Option<String>)>> {
    let entries = catalog(settings)?;
    Ok(catalog::select(ids, &entries, sensitivity)?
        .into_iter()
        .map(|e| (e.path.clone(), Some(e.id.clone())))
        .collect())
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
/// `<results>/REPRODUCTION.md`, and a line says so.
pub fn verify(
    settings: &Settings,
    ids: &[String],
    doc: Option<&Path>,
    strict: bool,
) -> Result<ExitCode> {
    recover_results(settings);
    let entries = catalog(settings)?;
    let selected: Vec<&Entry> = if ids.is_empty() {
        entries.iter().collect()
    } else {
        catalog::select(ids, &entries, false)?
    };
    let csv_of = |e: &Entry| settings.results.join(&e.id).join("data.csv");
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
    output::refuse_input_file(&doc, "--doc", &inputs)?;
    let doc_dir = doc.parent().unwrap_or(Path::new("."));
    // The papers' notes live beside the full document.
    let notes_dir = target.parent().unwrap_or(Path::new("."));
    let (mut docs, mut missing, mut failed_claims) = (Vec::new(), Vec::new(), 0);
    let mut sensitivity_runs = Vec::new();
    let mut corrupt = Vec::new();
    let mut figure_verdicts = std::collections::BTreeMap::new();
    for e in &entries {
        let dir = settings.results.join(&e.id);
        let csv = csv_of(e);
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
            if e.is_figure() {
                missing.push(e.id.clone());
            }
            continue;
        }
        let experiment = read_config(&e.path, &shown(settings, &e.path))?;
        let (rows, samples) = match checked_results(&dir, &experiment, &e.id)? {
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
                shown(settings, &e.path)
            ));
        }
        figure_verdicts.insert(e.id.clone(), verdicts.clone());
        let mut figure = dir.join("figure.svg");
        // Results are git-ignored; a copy of the figure beside the full
        // document keeps its link alive in a fresh clone. The partial
        // document lives among the results and links to them.
        if complete && let Ok(svg) = files::read(&figure, files::RESULTS) {
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
            notes: paper_notes(notes_dir, doc_dir, &e.id),
        });
    }
    // Results of configurations outside configs/ (`cargo xtask run`): checked
    // against the configuration their run.toml records, never skipped silently.
    if ids.is_empty() {
        for (id, dir) in own_results(&settings.results, &entries) {
            let experiment = match recorded_config(&dir) {
                Ok(experiment) => experiment,
                Err(why) => {
                    corrupt.push(format!("{}/run.toml: {why:#}", dir.display()));
                    continue;
                }
            };
            match checked_results(&dir, &experiment, &id)? {
                Ok((rows, samples)) => {
                    let verdicts = check_claims(experiment.claims(), &rows, &samples);
                    print_verdicts(&id, &verdicts);
                    failed_claims += verdicts.iter().filter(|v| !v.passed()).count();
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
    output::write_file(
        &doc,
        experiments::reproduction_doc(&docs, &missing).as_bytes(),
    )?;
    crate::sensitivity::write_tables(
        settings,
        &entries,
        &sensitivity_runs,
        &figure_verdicts,
        notes_dir,
    )?;
    if settings.verbosity > Verbosity::Quiet {
        if complete {
            eprintln!("wrote {}", shown(settings, &doc));
        } else {
            eprintln!(
                "results for {} of {figures} paper figures in {} (missing: {}); {} is \
                 regenerated only from a complete set and was left unchanged; wrote the \
                 partial document to {}",
                figures - absent.len(),
                settings.results.display(),
                absent.join(", "),
                shown(settings, &target),
                doc.display()
            );
        }
    }
    claims_status(failed_claims, strict)
}

/// Prints one of several errors (the last one ends the command).
fn report_error(message: &str) {
    eprintln!("error: {}", experiments::encode::terminal(message));
}

/// Prints a warning quoting configurations or files.
fn report_warning(message: &str) {
    eprintln!("warning: {}", experiments::encode::terminal(message));
}

/// `<paper>.md` in `notes_dir` (docs/adaptive.md for adaptive/fig4), if it
/// exists, as a link relative to the document's directory `doc_dir`.
/// The results in `dir` checked against `experiment` before they are
/// trusted: data.csv must be what samples.csv gives, run.toml must record
/// this configuration. `Ok(Err(why))` names the file at fault.
fn checked_results(
    dir: &Path,
    experiment: &Experiment,
    id: &str,
) -> Result<std::result::Result<(Vec<experiments::Row>, Samples), String>> {
    let csv = dir.join("data.csv");
    let text = files::read_to_string(&csv, files::RESULTS)?;
    let rows = parse_csv(&text).with_context(|| format!("{}", csv.display()))?;
    let samples_file = dir.join("samples.csv");
    let samples = match files::read_if_exists(&samples_file, files::RESULTS)? {
        Some(text) => Samples::parse(&text, experiment.confidence())
            .with_context(|| format!("{}", samples_file.display()))?,
        None => {
            // Without it data.csv cannot be checked (or is of a version
            // older than samples.csv).
            return Ok(Err(format!(
                "{}: missing, so data.csv cannot be checked; run `cargo xtask reproduce {id}`",
                samples_file.display(),
            )));
        }
    };
    let run_text =
        files::read_if_exists(&dir.join("run.toml"), files::RESULTS)?.unwrap_or_default();
    let checked = experiments::check_results(experiment, &rows, &samples)
        .and_then(|()| experiments::check_run_toml(&run_text, experiment));
    Ok(match checked {
        // The error starts with the file's name: the path before it names it whole.
        Err(e) => Err(format!("{}/{e}", dir.display())),
        Ok(()) => Ok((rows, samples)),
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

/// The configuration a results directory's run.toml records (its `[config]`
/// table), for results of a file outside configs/.
fn recorded_config(dir: &Path) -> Result<Experiment> {
    let path = dir.join("run.toml");
    let text = files::read_to_string(&path, files::RESULTS)?;
    let table: toml::Table = text.parse().context("does not parse as TOML")?;
    let config = table
        .get("config")
        .and_then(toml::Value::as_table)
        .context("has no [config] table")?;
    let shown = format!("{} [config]", path.display());
    Ok(experiments::Registry::builtin().parse_with(&config.to_string(), &shown, &limits()?)?)
}

fn paper_notes(notes_dir: &Path, doc_dir: &Path, id: &str) -> Option<String> {
    let paper = id.split('/').next()?;
    let notes = notes_dir.join(format!("{paper}.md"));
    notes.is_file().then(|| relative(doc_dir, &notes))
}

/// Whether a run.toml records a stand-in workload (unreadable counts as yes).
fn stand_in(run_toml: &Path) -> bool {
    let table = files::read_to_string(run_toml, files::RESULTS)
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
