//! Intermediate files checked against what the configuration implies,
//! before anything is computed from them.
//!
//! A file that parses is not yet a file to trust: a shard's cells must be
//! cells of this configuration, each run must hold exactly the kind's
//! metrics, one value per sample for every metric, each value in its
//! metric's [`Domain`]; and `data.csv` must be what the pipeline makes of
//! `samples.csv` (the same rows, in the configuration's order, with the
//! same means and intervals to the byte). [`check_shard`] serves `merge`,
//! [`check_results`] serves `cargo xtask verify`.

use std::collections::BTreeSet;
use std::fmt;

use crate::cells::{MergeError, ShardCells};
use crate::csv::{Row, write_csv};
use crate::domain::Domain;
use crate::encode::terminal_name;
use crate::error::RunError;
use crate::experiment::Experiment;
use crate::graph::Layout;
use crate::run::RunOptions;
use crate::samples::Samples;
use crate::stats::{mean_ci_at, not_finite};
use crate::workload::{Traces, WorkloadFacts};

/// Checks one shard's cells against the configuration's layout: the cell
/// numbers exist and belong to the shard, the runs are the cell's, the
/// cell and its runs carry the configuration's labels, every run has
/// exactly the kind's metrics, as many values for each, each value in
/// its metric's domain, and no count above the count it is part of
/// ([`Kind::AT_MOST`](crate::Kind::AT_MOST)). The error names the file
/// and the cell.
pub(crate) fn check_shard(
    experiment: &Experiment,
    layout: &Layout<'_>,
    part: &ShardCells,
) -> Result<(), MergeError> {
    let metrics = (experiment.kind.metrics)();
    let names: Vec<&str> = metrics.iter().map(|m| m.name).collect();
    let total = layout.cells.len();
    for cell in &part.measured {
        let err = |message: String| MergeError::Invalid {
            file: part.source.clone(),
            cell: Some(cell.index),
            message,
        };
        if cell.index >= total {
            return Err(err(format!(
                "the configuration has {total} cells (0 to {}); this file is not of this \
                 configuration, re-run its shard",
                total.saturating_sub(1)
            )));
        }
        if !part.shard.owns(cell.index) {
            return Err(err(format!(
                "the cell belongs to shard {}, not to this file's shard {}; re-run the shard",
                crate::graph::Shard::of(cell.index, part.shard.count),
                part.shard
            )));
        }
        let want: Vec<usize> = layout.run_labels(cell.index).map(|(n, _)| n).collect();
        let have: Vec<usize> = cell.runs.iter().map(|r| r.0).collect();
        if want != have {
            return Err(err(format!(
                "runs {have:?}, the configuration gives {want:?}; re-run the shard"
            )));
        }
        // The labels are the configuration's too: another one means another
        // configuration or an edited file.
        let label = layout.cell_label(cell.index);
        if cell.label != label {
            return Err(err(format!(
                "label '{}', the configuration gives '{}'; re-run the shard",
                terminal_name(&cell.label),
                terminal_name(&label)
            )));
        }
        for ((n, have, _), (_, want)) in cell.runs.iter().zip(layout.run_labels(cell.index)) {
            if have != want {
                return Err(err(format!(
                    "run {n}: label '{}', the configuration gives '{}'; re-run the shard",
                    terminal_name(have),
                    terminal_name(want)
                )));
            }
        }
        for (n, _, values) in &cell.runs {
            if let Some(m) = names.iter().find(|m| !values.contains_key(**m)) {
                return Err(err(format!(
                    "run {n}: metric '{m}' is missing; re-run the shard"
                )));
            }
            if let Some(k) = values.keys().find(|k| !names.contains(&k.as_str())) {
                return Err(err(format!(
                    "run {n}: unknown metric '{k}' (kind {} measures {}); re-run the shard",
                    experiment.kind.name,
                    names.join(", ")
                )));
            }
            let first = names.first().map_or(0, |m| values[*m].len());
            if let Some((k, v)) = values.iter().find(|(_, v)| v.len() != first) {
                return Err(err(format!(
                    "run {n}: metric '{k}' has {} sample(s), '{}' has {first}; every metric \
                     has one value per sample, re-run the shard",
                    v.len(),
                    names[0]
                )));
            }
            for m in &metrics {
                let domain = Domain::of(m);
                for (i, v) in values[m.name].iter().enumerate() {
                    // A NaN stands for a sample without a value, as `run`
                    // takes it from a kind (see `run::out_of_domain`).
                    if let Some(v) = v.filter(|v| !v.is_nan() && !domain.contains(*v)) {
                        return Err(err(format!(
                            "run {n}, metric '{}', sample {}: {v} is not {domain}; re-run the shard",
                            m.name,
                            i + 1
                        )));
                    }
                }
            }
            // A count of a subset is at most the count of the whole.
            for (a, b) in experiment.kind.at_most {
                let (Some(xa), Some(xb)) = (values.get(*a), values.get(*b)) else {
                    continue;
                };
                for (i, (va, vb)) in xa.iter().zip(xb).enumerate() {
                    if let (Some(va), Some(vb)) = (va, vb)
                        && va > vb
                    {
                        return Err(err(format!(
                            "run {n}, sample {}: metric '{a}' is {va}, more than metric \
                             '{b}' ({vb}), which counts a whole it is part of; re-run the shard",
                            i + 1
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Results files that disagree with each other or with the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResultsError {
    /// The file at fault: `data.csv` or `samples.csv`.
    pub file: &'static str,
    /// What is wrong, naming the row or point.
    pub message: String,
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}; the results were edited or are of another configuration, run the \
             experiment again",
            self.file, self.message
        )
    }
}

impl std::error::Error for ResultsError {}

/// The points of `data.csv` in order (panel × x × series), each with the
/// domain of its values.
fn data_points(experiment: &Experiment) -> Vec<(String, String, String, Domain)> {
    let layout = Layout::new(experiment);
    let series = experiment.series();
    let metrics = (experiment.kind.metrics)();
    let mut keys = Vec::new();
    for facet in experiment.facets() {
        for panel in &experiment.spec.panels {
            let domain = match panel.reference() {
                Some(_) => Domain::Finite,
                None => metrics
                    .iter()
                    .find(|m| m.name == panel.metric.get_ref())
                    .map_or(Domain::Finite, Domain::of),
            };
            let id = experiment.panel_id(&panel.id, facet);
            for p in layout.points.iter().filter(|p| p.facet == facet) {
                for s in &series {
                    keys.push((id.clone(), s.clone(), p.x.clone(), domain));
                }
            }
        }
    }
    keys
}

/// `row` with the mean, interval and run count of `units`, as the
/// pipeline computes them.
fn aggregate_point(row: Row, units: &[crate::samples::Unit], level: f64) -> Row {
    let values: Vec<f64> = units.iter().map(|u| u.value).collect();
    let (y, ci) = mean_ci_at(&values, level);
    Row {
        y,
        ci,
        runs: u32::try_from(values.len()).unwrap_or(u32::MAX),
        ..row
    }
}

/// The rows of `data.csv` the pipeline makes of `samples` for
/// `experiment`: one per point (panel × x × series, in that order), the
/// mean of the point's units with its interval at the experiment's
/// confidence level. [`check_results`] compares a `data.csv` with this;
/// tests use it to write consistent results without running anything.
pub fn aggregate(experiment: &Experiment, samples: &Samples) -> Vec<Row> {
    data_points(experiment)
        .into_iter()
        .map(|(panel, series, x, _)| {
            let units = samples.get(&panel, &series, &x);
            let row = Row {
                panel,
                series,
                x,
                y: 0.0,
                ci: None,
                runs: 0,
            };
            aggregate_point(row, units, experiment.confidence())
        })
        .collect()
}

/// The rows a run wrote, as `samples.csv` and the `data.csv` rows `rows`
/// (checked by [`check_results`]) tell them: [`aggregate`]'s, but where a
/// point is NaN because a sample had no value (such a sample is not in
/// samples.csv, so only data.csv holds the point's run count), the row as
/// data.csv gives it.
pub fn written_rows(experiment: &Experiment, rows: &[Row], samples: &Samples) -> Vec<Row> {
    aggregate(experiment, samples)
        .into_iter()
        .zip(rows)
        .map(|(mine, given)| {
            if without_mean(given, mine.runs as usize) {
                given.clone()
            } else {
                mine
            }
        })
        .collect()
}

/// Whether `row` is a point without a mean: NaN (and its interval, if
/// any) because more samples ran than the `units` with a value that
/// samples.csv keeps.
fn without_mean(row: &Row, units: usize) -> bool {
    let nan_ci = row.ci.is_none_or(|(lo, hi)| lo.is_nan() && hi.is_nan());
    row.y.is_nan() && nan_ci && row.runs as usize > units
}

/// Checks an experiment's `data.csv` rows and `samples.csv` against each
/// other and the configuration: `data.csv` has exactly the configuration's
/// points (panel × x × series, in order); every unit of `samples.csv`
/// belongs to one of them, has a repetition in range, appears once and
/// lies in its metric's domain (any finite number for a gain over a
/// reference); and each row is what the pipeline computes from the units:
/// the same mean, interval and run count, byte for byte as written, and
/// finite (only a point with a sample without a value is NaN).
pub fn check_results(
    experiment: &Experiment,
    rows: &[Row],
    samples: &Samples,
) -> Result<(), ResultsError> {
    let data = |message: String| ResultsError {
        file: "data.csv",
        message,
    };
    let units_err = |message: String| ResultsError {
        file: "samples.csv",
        message,
    };
    let spec = &experiment.spec;
    let points = data_points(experiment);
    let keys: Vec<(&str, &str, &str, Domain)> = points
        .iter()
        .map(|(p, s, x, d)| (p.as_str(), s.as_str(), x.as_str(), *d))
        .collect();
    let show = |(p, s, x): (&str, &str, &str)| format!("panel '{p}', series '{s}', x '{x}'");
    if rows.len() != keys.len() {
        return Err(data(format!(
            "{} rows, the configuration gives {} (panels × x values × series)",
            rows.len(),
            keys.len()
        )));
    }
    for (i, (row, &(p, s, x, _))) in rows.iter().zip(&keys).enumerate() {
        if (row.panel.as_str(), row.series.as_str(), row.x.as_str()) != (p, s, x) {
            return Err(data(format!(
                "row {} is {}, the configuration gives {} there",
                i + 1,
                show((&row.panel, &row.series, &row.x)),
                show((p, s, x))
            )));
        }
    }
    let known: BTreeSet<(&str, &str, &str)> = keys.iter().map(|k| (k.0, k.1, k.2)).collect();
    for ((p, s, x), units) in samples.points() {
        let key = (p.as_str(), s.as_str(), x.as_str());
        if !known.contains(&key) {
            return Err(units_err(format!(
                "{} is not a point of the configuration",
                show(key)
            )));
        }
        let mut seen = BTreeSet::new();
        for u in units {
            if u.repetition >= spec.repetitions {
                return Err(units_err(format!(
                    "{}: repetition {} is out of range (the configuration has {})",
                    show(key),
                    u.repetition + 1,
                    spec.repetitions
                )));
            }
            if !seen.insert((u.repetition, u.sample)) {
                return Err(units_err(format!(
                    "{}: repetition {}, sample {} appears twice",
                    show(key),
                    u.repetition + 1,
                    u.sample + 1
                )));
            }
        }
    }
    let level = experiment.confidence();
    for (i, (row, &(p, s, x, domain))) in rows.iter().zip(&keys).enumerate() {
        let units = samples.get(p, s, x);
        if let Some(u) = units.iter().find(|u| !domain.contains(u.value)) {
            return Err(units_err(format!(
                "{}, repetition {}, sample {}: {} is not {domain}",
                show((p, s, x)),
                u.repetition + 1,
                u.sample + 1,
                u.value
            )));
        }
        // Units whose value is NaN are not kept, and make the mean NaN
        // (and its interval, if any).
        if without_mean(row, units.len()) {
            continue;
        }
        let expected = aggregate_point(row.clone(), units, level);
        let values: Vec<f64> = units.iter().map(|u| u.value).collect();
        // What the units give must be a number; the row itself is then
        // compared line for line (a NaN or infinity written over a finite
        // point is a row unlike its units, not values too large to average).
        if let Some(why) = not_finite(&values, expected.y, expected.ci) {
            return Err(data(format!("row {} ({}): {why}", i + 1, show((p, s, x)))));
        }
        let line = |r: &Row| {
            write_csv(std::slice::from_ref(r))
                .lines()
                .nth(1)
                .map(str::to_string)
        };
        if line(row) != line(&expected) {
            return Err(data(format!(
                "row {} ({}) is '{}', its {} unit(s) in samples.csv give '{}'",
                i + 1,
                show((p, s, x)),
                line(row).unwrap_or_default(),
                units.len(),
                line(&expected).unwrap_or_default()
            )));
        }
    }
    Ok(())
}

/// A results directory's `run.toml`, parsed once: what
/// [`check_run_toml`] and [`check_run_inputs`] check and what a caller
/// reads from it (the configuration it records, the stand-in flag) are the
/// same text, whatever happens to the file after it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct RunToml {
    table: toml::Table,
}

impl RunToml {
    /// Parses the text of a `run.toml`; the error names the line of a
    /// syntax error.
    pub fn parse(text: &str) -> Result<RunToml, ResultsError> {
        let table = text.parse::<toml::Table>().map_err(|e| {
            let at = e.span().map_or_else(String::new, |span| {
                let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                format!("line {line}: ")
            });
            ResultsError {
                file: "run.toml",
                message: format!("{at}not a run.toml ({})", e.message().trim()),
            }
        })?;
        Ok(RunToml { table })
    }

    /// The whole document.
    pub fn table(&self) -> &toml::Table {
        &self.table
    }

    /// `[provenance]`, if it is a table.
    fn provenance(&self) -> Option<&toml::Table> {
        self.table.get("provenance").and_then(toml::Value::as_table)
    }

    /// `[config]`: the configuration the results were made from, resolved.
    pub fn config(&self) -> Option<&toml::Table> {
        self.table.get("config").and_then(toml::Value::as_table)
    }

    /// `provenance.config_file`: the configuration's file as the run named it.
    pub fn config_file(&self) -> Option<&str> {
        self.provenance()?.get("config_file")?.as_str()
    }

    /// `provenance.stand_in`: whether a stand-in replaced a trace.
    pub fn stand_in(&self) -> Option<bool> {
        self.provenance()?.get("stand_in")?.as_bool()
    }
}

/// Checks an experiment's `run.toml` (as [`Results::run_toml`] writes it,
/// parsed with [`RunToml::parse`]) against the configuration:
/// `[provenance]` has every field, with the configuration's SHA-256, seed
/// and the seed it derives for each repetition; and `[config]` is the
/// configuration, value for value.
///
/// [`Results::run_toml`]: crate::Results::run_toml
pub fn check_run_toml(run_toml: &RunToml, experiment: &Experiment) -> Result<(), ResultsError> {
    let err = |message: String| ResultsError {
        file: "run.toml",
        message,
    };
    let table = run_toml.table();
    let provenance = table
        .get("provenance")
        .and_then(toml::Value::as_table)
        .ok_or_else(|| err("no [provenance] table".into()))?;
    let field = |key: &str, kind: &str, ok: fn(&toml::Value) -> bool| {
        provenance
            .get(key)
            .filter(|v| ok(v))
            .ok_or_else(|| err(format!("provenance.{key} is missing or not {kind}")))
    };
    field("git_revision", "a string", toml::Value::is_str)?;
    field("config_file", "a string", toml::Value::is_str)?;
    field("stand_in", "a boolean", toml::Value::is_bool)?;
    field("workloads", "an array", toml::Value::is_array)?;
    let sha = field("config_sha256", "a string", toml::Value::is_str)?;
    let want = experiment.config_sha256();
    if sha.as_str() != Some(want.as_str()) {
        return Err(err(format!(
            "provenance.config_sha256 is {sha}, the configuration's is \"{want}\""
        )));
    }
    let seed = field("seed", "an integer", toml::Value::is_integer)?;
    if u64::try_from(seed.as_integer().unwrap_or(-1)).ok() != Some(experiment.spec.seed) {
        return Err(err(format!(
            "provenance.seed is {seed}, the configuration's is {}",
            experiment.spec.seed
        )));
    }
    let seeds = field("repetition_seeds", "an array", toml::Value::is_array)?;
    let seeds = seeds.as_array().map_or(&[][..], Vec::as_slice);
    let reps = experiment.spec.repetitions as usize;
    if seeds.len() != reps
        || !seeds
            .iter()
            .all(|s| s.as_str().is_some_and(|s| s.parse::<u64>().is_ok()))
    {
        return Err(err(format!(
            "provenance.repetition_seeds has {} entries, the configuration has {reps} \
             repetitions (one seed each, as a decimal string)",
            seeds.len()
        )));
    }
    // Each is derived from the configuration's seed (no layout needed).
    if let Some((i, have, want)) = seeds
        .iter()
        .enumerate()
        .map(|(i, have)| (i, have, experiment.repetition_seed(i as u32)))
        .find(|(_, have, want)| have.as_str() != Some(want.to_string().as_str()))
    {
        return Err(err(format!(
            "provenance.repetition_seeds[{i}] is {have}, the configuration's seed derives \
             \"{want}\""
        )));
    }
    let config = table
        .get("config")
        .and_then(toml::Value::as_table)
        .ok_or_else(|| err("no [config] table".into()))?;
    let resolved: Option<toml::Table> = experiment.resolved_toml().parse().ok();
    if resolved.as_ref() != Some(config) {
        return Err(err(
            "[config] is not the configuration (its values were edited, or it is of another \
             configuration)"
                .into(),
        ));
    }
    Ok(())
}

/// How the workload facts `found` (a shard's, or `run.toml`'s) differ from
/// `expected` (the workloads prepared again): the first workload and field
/// that differ, as the files write them, if any.
pub(crate) fn workloads_difference(
    expected: &[WorkloadFacts],
    found: &[WorkloadFacts],
) -> Option<String> {
    if expected.len() != found.len() {
        return Some(format!(
            "it describes {} workload(s), the runs read {}",
            found.len(),
            expected.len()
        ));
    }
    let (want, have) = expected.iter().zip(found).find(|(w, h)| w != h)?;
    let table = |w: &WorkloadFacts| match toml::Value::try_from(w) {
        Ok(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    let (want_t, have_t) = (table(want), table(have));
    let keys: BTreeSet<&String> = want_t.keys().chain(have_t.keys()).collect();
    let shown = |v: Option<&toml::Value>| {
        terminal_name(&v.map_or_else(|| "absent".to_string(), toml::Value::to_string))
    };
    let field = keys
        .into_iter()
        .find(|k| want_t.get(*k) != have_t.get(*k))
        .map_or_else(
            || "its facts differ".to_string(),
            |k| {
                format!(
                    "`{k}` is {}, these inputs give {}",
                    shown(have_t.get(k)),
                    shown(want_t.get(k))
                )
            },
        );
    Some(format!(
        "workload '{}': {field}",
        terminal_name(&want.shown_label())
    ))
}

/// What `experiment` makes of `traces`: the facts of each workload (as
/// `run.toml` and the cells files record them) and the kind's notes on
/// them (as `summary.md` shows them). The workloads are prepared with
/// `options.threads` threads; no run is simulated.
pub fn workload_facts(
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
) -> Result<(Vec<WorkloadFacts>, Vec<String>), RunError> {
    let inputs = Layout::new(experiment).simulate(traces, options, &|_| false)?;
    Ok((inputs.workloads, inputs.notes))
}

/// Checks what an experiment's `run.toml` says about its inputs against
/// the inputs themselves: `[[provenance.workloads]]` (source, checksums,
/// seed, machine size, counts) and `provenance.stand_in` must be what
/// `experiment` makes of `traces`, the workloads prepared again with
/// `options.threads` threads (no run is simulated). A trace edited or
/// replaced since the run, or an edited `run.toml`, is an error naming
/// the workload and the field. Call it after [`check_run_toml`].
pub fn check_run_inputs(
    run_toml: &RunToml,
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
) -> Result<(), ResultsError> {
    inputs_checked(run_toml, experiment, traces, options).map(|_| ())
}

/// [`check_run_inputs`], answering with the workloads prepared again and
/// the kind's notes on them when they are what `run.toml` records.
pub(crate) fn inputs_checked(
    run_toml: &RunToml,
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
) -> Result<(Vec<WorkloadFacts>, Vec<String>), ResultsError> {
    #[derive(serde::Deserialize)]
    struct Doc {
        provenance: Prov,
    }
    #[derive(serde::Deserialize)]
    struct Prov {
        stand_in: bool,
        workloads: Vec<WorkloadFacts>,
    }
    let err = |message: String| ResultsError {
        file: "run.toml",
        message,
    };
    let doc: Doc = toml::Value::Table(run_toml.table().clone())
        .try_into()
        .map_err(|e: toml::de::Error| {
            err(format!(
                "provenance.workloads is not a list of workloads ({})",
                e.message().trim()
            ))
        })?;
    let (workloads, notes) = workload_facts(experiment, traces, options).map_err(|e| {
        err(format!(
            "cannot prepare the workloads again to check it: {e}"
        ))
    })?;
    if let Some(why) = workloads_difference(&workloads, &doc.provenance.workloads) {
        return Err(err(format!(
            "{why} (the configuration on these traces); a trace replaced since the run \
             changes it too"
        )));
    }
    let stand_in = workloads.iter().any(|w| w.stand_in);
    if doc.provenance.stand_in != stand_in {
        return Err(err(format!(
            "provenance.stand_in is {}, its workloads say {stand_in}",
            doc.provenance.stand_in
        )));
    }
    Ok((workloads, notes))
}
