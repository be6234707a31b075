//! Sharded runs: an experiment's cells split over processes (or the tasks
//! of a Slurm job array), their raw measurements written in a versioned
//! text format, and merged back into the same results as one run.
//!
//! A *cell* is one simulation together with the runs its kind measures it
//! against (see [`crate::run`]); cells are numbered by the configuration
//! alone. [`Shard`] `I/N` owns the cells whose number is `I` modulo `N`.
//! [`run_shard`] measures a shard's cells: for every run, the value of
//! every metric in every sample, nothing derived (gains over reference
//! series, means, intervals and claims are [`merge`]'s). Merging every
//! shard gives [`Results`] equal to [`run`](crate::run()), so the written
//! files are byte-identical whatever the number of shards and whatever
//! order they finished in: aggregation reads the same `f64` values in the
//! same order (values are written in Rust's shortest round-trip form).
//!
//! The format (`format = "usched-cells"`, [`CELLS_VERSION`]) is TOML:
//!
//! ```toml
//! format = "usched-cells"
//! version = 2
//! cells_sha256 = "…"                    # of this text without this line
//! experiment = "baseline/backfilling"   # the configuration's id
//! config_file = "configs/baseline/backfilling.toml"
//! config_sha256 = "…"                   # of the resolved configuration
//! git_revision = "…"
//! shard = 1                             # this file: shard 1 of 3
//! shards = 3
//! cells = 6                             # cells in the whole experiment
//! notes = []                            # the kind's notes on its workloads
//!
//! [[workloads]]                         # what summary.md says about them
//! label = "SDSC-SP2"
//! # …
//!
//! [[cell]]
//! index = 1
//! label = "easy on SDSC-SP2"
//!
//! [[cell.run]]
//! run = 1                               # the run's number in the experiment
//! label = "easy on SDSC-SP2"
//! values = { mean_bsld = "24.86", mean_wait = "5843.1" } # one per sample, "_" for none
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::encode::terminal_name;
use crate::error::RunError;
use crate::experiment::Experiment;
use crate::graph::{Layout, Shard};
use crate::results::{Provenance, Results};
use crate::run::{Measured, RunOptions};
use crate::workload::{Traces, WorkloadFacts};

/// The version of the cells format this build writes and reads.
pub const CELLS_VERSION: u32 = 2;

/// The `format` value of a cells file.
const FORMAT: &str = "usched-cells";

/// One run's measurements: metric name → one value per sample.
pub type RunValues = BTreeMap<String, Vec<Option<f64>>>;

/// One measured cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellRecord {
    /// The cell's number in the experiment.
    pub index: usize,
    /// What the cell runs.
    pub label: String,
    /// `(run number, label, values)` of each run of the cell.
    pub runs: Vec<(usize, String, RunValues)>,
}

/// What one shard measured, with what identifies the run it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardCells {
    /// The experiment's id.
    pub experiment: String,
    /// The configuration file, as `run.toml` names it.
    pub config_file: String,
    /// [`Experiment::config_sha256`] of the configuration that ran.
    pub config_sha256: String,
    /// The code's revision.
    pub git_revision: String,
    /// Which shard this is.
    pub shard: Shard,
    /// Cells in the whole experiment.
    pub cells: usize,
    /// The kind's notes on its workloads.
    pub notes: Vec<String>,
    /// The workloads' facts.
    pub workloads: Vec<WorkloadFacts>,
    /// The cells this shard measured, by number.
    pub measured: Vec<CellRecord>,
    /// Where the measurements come from, for errors: the file
    /// [`ShardCells::parse`] read, or `shard I/N` for a shard measured in
    /// this process.
    pub source: String,
}

/// A cells file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellsError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CellsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", terminal_name(&self.file), self.message)
    }
}

impl std::error::Error for CellsError {}

/// Why shards cannot be merged.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MergeError {
    /// A shard comes from another configuration, revision or experiment.
    Foreign {
        /// The shard (as `I/N`).
        shard: String,
        /// What differs: `configuration`, `revision`, ...
        what: &'static str,
        /// This merge's value.
        expected: String,
        /// The shard's value.
        found: String,
    },
    /// Two shards measured the same cell differently.
    Disagree {
        /// What differs.
        what: String,
    },
    /// A shard file holds what this configuration cannot have produced: a
    /// cell out of range or of another shard, a missing or unknown metric,
    /// a sample count that differs between metrics, a value outside its
    /// metric's domain.
    Invalid {
        /// The file (or shard) at fault.
        file: String,
        /// The cell, when one is to blame.
        cell: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// Two files hold the same cell with different values.
    Duplicate {
        /// The cell's number.
        cell: usize,
        /// What the cell runs.
        label: String,
        /// The file read first.
        first: String,
        /// The file read second.
        second: String,
    },
    /// The workloads could not be prepared again to check what the shards
    /// say about them (a trace that no longer converts, say).
    Inputs(RunError),
    /// Cells nobody measured: `(cell number, label)`.
    Missing {
        /// In cell order.
        cells: Vec<(usize, String)>,
        /// Cells in the experiment.
        total: usize,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Foreign {
                shard,
                what,
                expected,
                found,
            } => write!(
                f,
                "shard {shard} was run with another {what} ({found}, this merge has {expected}); \
                 re-run it, or merge with the {what} it ran with"
            ),
            MergeError::Disagree { what } => write!(
                f,
                "shards disagree: {what}; they were not run on the same inputs"
            ),
            MergeError::Invalid {
                file,
                cell: Some(cell),
                message,
            } => write!(f, "{}: cell {cell}: {message}", terminal_name(file)),
            MergeError::Invalid {
                file,
                cell: None,
                message,
            } => write!(f, "{}: {message}", terminal_name(file)),
            MergeError::Duplicate {
                cell,
                label,
                first,
                second,
            } if first == second => write!(
                f,
                "cell {cell} ({label}) is in {first} twice, with other values: the file was \
                 edited; delete it and re-run its shard"
            ),
            MergeError::Duplicate {
                cell,
                label,
                first,
                second,
            } => write!(
                f,
                "cell {cell} ({label}) is in {first} and in {second} with other values; they \
                 were not run on the same inputs: delete the one that is not of this \
                 configuration and re-run its shard"
            ),
            MergeError::Inputs(e) => write!(
                f,
                "cannot prepare the workloads again to check the shards' account of them: {e}"
            ),
            MergeError::Missing { cells, total } => {
                write!(f, "{} of {total} cells were not measured:", cells.len())?;
                for (i, label) in cells {
                    write!(f, "\n  cell {i}: {label}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// The number of cells of `experiment` and their labels, in order.
pub fn cell_labels(experiment: &Experiment) -> Vec<String> {
    let layout = Layout::new(experiment);
    (0..layout.cells.len())
        .map(|c| layout.cell_label(c))
        .collect()
}

/// The number of runs of each cell of `experiment` (its reference and the
/// runs measured against it), in the order of [`cell_labels`].
pub fn cell_runs(experiment: &Experiment) -> Vec<usize> {
    Layout::new(experiment).cells.iter().map(Vec::len).collect()
}

/// Runs the cells of `shard` and returns their measurements.
pub fn run_shard(
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
    shard: Shard,
    provenance: &Provenance,
) -> Result<ShardCells, RunError> {
    let layout = Layout::new(experiment);
    let mut measured = layout.simulate(traces, options, &|c| shard.owns(c))?;
    let cells = (0..layout.cells.len())
        .filter(|&c| shard.owns(c))
        .map(|c| CellRecord {
            index: c,
            label: layout.cell_label(c),
            runs: layout
                .run_labels(c)
                .map(|(n, label)| {
                    let values = measured.runs.remove(&n).unwrap_or_default();
                    (n, label.to_string(), values)
                })
                .collect(),
        })
        .collect();
    Ok(ShardCells {
        experiment: experiment.id().to_string(),
        config_file: provenance.config_file.clone(),
        config_sha256: experiment.config_sha256(),
        git_revision: provenance.git_revision.clone(),
        shard,
        cells: layout.cells.len(),
        notes: measured.notes,
        workloads: measured.workloads,
        measured: cells,
        source: format!("shard {shard}"),
    })
}

/// Assembles the results of `experiment` from the measurements of its
/// shards (any number, in any order, overlapping or not). Every shard must
/// come from this configuration and `provenance`'s revision; every cell
/// must be measured; a cell measured twice must have the same values.
/// Each shard's cells are checked before use (`crate::check`): numbers in
/// range and of the shard, the configuration's labels, exactly the kind's
/// metrics with one value per sample each, every value in its metric's
/// domain. What the shards say about their workloads (the facts and notes
/// the results record) must be what `experiment` makes of `traces`: the
/// workloads are prepared again here (no run is simulated), with
/// `options.threads` threads.
pub fn merge(
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
    provenance: &Provenance,
    parts: &[ShardCells],
) -> Result<Results, MergeError> {
    let layout = Layout::new(experiment);
    let config = experiment.config_sha256();
    let mut cells: BTreeMap<usize, (&CellRecord, &str)> = BTreeMap::new();
    let mut facts: Option<(&[WorkloadFacts], &[String])> = None;
    for part in parts {
        let foreign = |what, expected: &str, found: &str| {
            (expected != found).then(|| MergeError::Foreign {
                shard: format!("{} ({})", part.shard, part.source),
                what,
                expected: expected.to_string(),
                found: found.to_string(),
            })
        };
        let checks = [
            foreign("experiment", experiment.id(), &part.experiment),
            foreign("configuration (sha256)", &config, &part.config_sha256),
            foreign(
                "code revision",
                &provenance.git_revision,
                &part.git_revision,
            ),
            foreign(
                "cell count",
                &layout.cells.len().to_string(),
                &part.cells.to_string(),
            ),
        ];
        if let Some(e) = checks.into_iter().flatten().next() {
            return Err(e);
        }
        match facts {
            None => facts = Some((&part.workloads, &part.notes)),
            Some((w, n)) => {
                if w != part.workloads.as_slice() || n != part.notes.as_slice() {
                    // Which one is wrong: the file whose account differs
                    // from the workloads themselves, if they can be made.
                    if let Ok(inputs) = crate::check::workload_facts(experiment, traces, options) {
                        check_facts(&inputs, parts)?;
                    }
                    return Err(MergeError::Disagree {
                        what: format!(
                            "shard {} ({}) saw other workloads than an earlier shard",
                            part.shard, part.source
                        ),
                    });
                }
            }
        }
        crate::check::check_shard(experiment, &layout, part)?;
        for cell in &part.measured {
            // The same cell twice (shards of two counts in one directory)
            // is fine when the values are the same, bit for bit.
            if let Some((earlier, file)) = cells.insert(cell.index, (cell, &part.source))
                && !same_values(earlier, cell)
            {
                return Err(MergeError::Duplicate {
                    cell: cell.index,
                    label: layout.cell_label(cell.index),
                    first: file.to_string(),
                    second: part.source.clone(),
                });
            }
        }
    }
    let missing: Vec<(usize, String)> = (0..layout.cells.len())
        .filter(|c| !cells.contains_key(c))
        .map(|c| (c, layout.cell_label(c)))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            cells: missing,
            total: layout.cells.len(),
        });
    }
    // Every cell is here: check what the shards say about the workloads
    // against the workloads themselves.
    let inputs =
        crate::check::workload_facts(experiment, traces, options).map_err(MergeError::Inputs)?;
    check_facts(&inputs, parts)?;
    let (workloads, notes) = facts.unwrap_or_default();
    let measured = Measured {
        runs: cells
            .values()
            .flat_map(|(c, _)| c.runs.iter().map(|(n, _, v)| (*n, v.clone())))
            .collect(),
        workloads: workloads.to_vec(),
        notes: notes.to_vec(),
    };
    layout.assemble(measured).map_err(|e| MergeError::Invalid {
        file: parts
            .iter()
            .map(|p| p.source.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        cell: None,
        message: format!("{e}; re-run the shards"),
    })
}

/// Refuses the first of `parts` whose workload facts or notes differ from
/// `inputs`, naming its file and the first difference.
fn check_facts(
    inputs: &(Vec<WorkloadFacts>, Vec<String>),
    parts: &[ShardCells],
) -> Result<(), MergeError> {
    for part in parts {
        if let Some(message) = facts_difference(inputs, part) {
            return Err(MergeError::Invalid {
                file: part.source.clone(),
                cell: None,
                message: format!(
                    "{message}; the cells are not of these inputs (the configuration on these \
                     traces): re-run the shard"
                ),
            });
        }
    }
    Ok(())
}

/// How `part`'s workload facts and notes differ from the expected ones (the first
/// difference: a workload's field, or the notes), if they do.
fn facts_difference(
    (workloads, notes): &(Vec<WorkloadFacts>, Vec<String>),
    part: &ShardCells,
) -> Option<String> {
    if let Some(why) = crate::check::workloads_difference(workloads, &part.workloads) {
        return Some(why);
    }
    (*notes != part.notes).then(|| {
        let shown = |n: &[String]| match n {
            [] => "none".to_string(),
            n => format!("'{}'", terminal_name(&n.join("; "))),
        };
        format!(
            "its notes on the workloads are {}, these inputs give {}",
            shown(&part.notes),
            shown(notes)
        )
    })
}

/// Whether two records of a cell hold the same values (bit for bit; NaN
/// equals NaN).
fn same_values(a: &CellRecord, b: &CellRecord) -> bool {
    a.runs.len() == b.runs.len()
        && a.runs
            .iter()
            .zip(&b.runs)
            .all(|((na, _, va), (nb, _, vb))| {
                na == nb
                    && va.len() == vb.len()
                    && va.iter().zip(vb).all(|((ka, xa), (kb, xb))| {
                        ka == kb
                            && xa.len() == xb.len()
                            && xa
                                .iter()
                                .zip(xb)
                                .all(|(x, y)| x.map(f64::to_bits) == y.map(f64::to_bits))
                    })
            })
}

/// The file form of [`ShardCells`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    /// The SHA-256 of the file's text without this line: a measurement
    /// edited by hand is refused, not merged.
    cells_sha256: String,
    experiment: String,
    config_file: String,
    config_sha256: String,
    git_revision: String,
    shard: u32,
    shards: u32,
    cells: usize,
    notes: Vec<String>,
    workloads: Vec<WorkloadFacts>,
    #[serde(default)]
    cell: Vec<FileCell>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCell {
    index: usize,
    label: String,
    run: Vec<FileRun>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRun {
    run: usize,
    label: String,
    values: BTreeMap<String, String>,
}

/// `"1.5 _ 2"`: one value per sample, `_` for a sample without one.
fn encode(values: &[Option<f64>]) -> String {
    let parts: Vec<String> = values
        .iter()
        .map(|v| v.map_or_else(|| "_".to_string(), |x| x.to_string()))
        .collect();
    parts.join(" ")
}

fn decode(text: &str) -> Result<Vec<Option<f64>>, String> {
    text.split_whitespace()
        .map(|t| match t {
            "_" => Ok(None),
            _ => t
                .parse::<f64>()
                .map(Some)
                .map_err(|_| format!("'{t}' is not a number (or _ for none)")),
        })
        .collect()
}

impl ShardCells {
    /// The file's text (TOML, see the module documentation).
    pub fn to_toml(&self) -> String {
        let file = File {
            format: FORMAT.to_string(),
            version: CELLS_VERSION,
            cells_sha256: String::new(),
            experiment: self.experiment.clone(),
            config_file: self.config_file.clone(),
            config_sha256: self.config_sha256.clone(),
            git_revision: self.git_revision.clone(),
            shard: self.shard.index,
            shards: self.shard.count,
            cells: self.cells,
            notes: self.notes.clone(),
            workloads: self.workloads.clone(),
            cell: self
                .measured
                .iter()
                .map(|c| FileCell {
                    index: c.index,
                    label: c.label.clone(),
                    run: c
                        .runs
                        .iter()
                        .map(|(n, label, values)| FileRun {
                            run: *n,
                            label: label.clone(),
                            values: values.iter().map(|(k, v)| (k.clone(), encode(v))).collect(),
                        })
                        .collect(),
                })
                .collect(),
        };
        let body = toml::to_string(&file).unwrap_or_else(|e| format!("# cannot serialise: {e}\n"));
        let body = crate::encode::toml_document(&body);
        let text = format!(
            "# Raw measurements of shard {} of {} (docs/SCALE-OUT.md); `cargo xtask merge` reads them.\n{body}",
            self.shard, self.experiment
        );
        // The checksum of the text without its own line, put on that line.
        let empty = "\ncells_sha256 = \"\"\n";
        let digest = crate::digest::sha256_hex(text.replacen(empty, "\n", 1).as_bytes());
        text.replacen(empty, &format!("\ncells_sha256 = \"{digest}\"\n"), 1)
    }

    /// Reads a cells file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<ShardCells, CellsError> {
        let error = |message: String| CellsError {
            file: file.to_string(),
            message,
        };
        // The format and version first, so an old or foreign file gets a
        // message about that rather than about a field.
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let at = e.span().map_or_else(String::new, |s| {
                format!(" (line {})", text[..s.start].matches('\n').count() + 1)
            });
            error(format!("not a cells file{at}: {}", e.message().trim()))
        })?;
        // What a key holds, as it is written in the file (or that it is missing).
        let shown = |key: &str| {
            table
                .get(key)
                .map_or_else(|| format!("no {key}"), |v| format!("{key} = {v}"))
        };
        match table.get("format").and_then(toml::Value::as_str) {
            Some(FORMAT) => {}
            _ => {
                return Err(error(format!(
                    "not a cells file ({}, expected format = \"{FORMAT}\")",
                    shown("format")
                )));
            }
        }
        match table.get("version").and_then(toml::Value::as_integer) {
            Some(v) if v == i64::from(CELLS_VERSION) => {}
            _ => {
                return Err(error(format!(
                    "cells format version: {}; this build reads version {CELLS_VERSION}: \
                     re-run the shards with this build",
                    shown("version")
                )));
            }
        }
        let f: File = toml::from_str(text).map_err(|e: toml::de::Error| {
            // The line, and the key written on it where there is one: a
            // value of the wrong type names the field it is in.
            let line = e
                .span()
                .map(|s| {
                    let number = text[..s.start].matches('\n').count() + 1;
                    let start = text[..s.start].rfind('\n').map_or(0, |i| i + 1);
                    let key = text[start..]
                        .lines()
                        .next()
                        .and_then(|l| l.split_once('='))
                        .map(|(k, _)| k.trim())
                        .filter(|k| !k.is_empty() && !k.starts_with(['[', '#']));
                    match key {
                        Some(k) => {
                            format!("line {number}, `{}`: ", crate::encode::terminal_name(k))
                        }
                        None => format!("line {number}: "),
                    }
                })
                .unwrap_or_default();
            error(format!("{line}{}", e.message().trim()))
        })?;
        // Written by the tool and unchanged since: the checksum of the text
        // without its own line (any edit, a measurement's included).
        let sum = table.get("cells_sha256").and_then(toml::Value::as_str);
        let line = sum.map(|d| format!("\ncells_sha256 = \"{d}\"\n"));
        let unchanged = line.as_ref().is_some_and(|l| {
            text.matches(l.as_str()).count() == 1
                && sum
                    == Some(
                        crate::digest::sha256_hex(text.replacen(l, "\n", 1).as_bytes()).as_str(),
                    )
        });
        if !unchanged {
            return Err(error(
                "the file was changed after its shard wrote it (its cells_sha256 does not match \
                 its text): re-run the shard into a fresh --cells directory, or restore the file"
                    .to_owned(),
            ));
        }
        let shard = Shard::new(f.shard, f.shards).map_err(error)?;
        let measured = f
            .cell
            .into_iter()
            .map(|c| {
                let runs = c
                    .run
                    .into_iter()
                    .map(|r| {
                        let values = r
                            .values
                            .into_iter()
                            .map(|(k, v)| {
                                decode(&v).map(|v| (k.clone(), v)).map_err(|e| {
                                    error(format!("cell {}, run {}, {k}: {e}", c.index, r.run))
                                })
                            })
                            .collect::<Result<RunValues, CellsError>>()?;
                        Ok((r.run, r.label, values))
                    })
                    .collect::<Result<Vec<_>, CellsError>>()?;
                Ok(CellRecord {
                    index: c.index,
                    label: c.label,
                    runs,
                })
            })
            .collect::<Result<Vec<_>, CellsError>>()?;
        Ok(ShardCells {
            experiment: f.experiment,
            config_file: f.config_file,
            config_sha256: f.config_sha256,
            git_revision: f.git_revision,
            shard,
            cells: f.cells,
            notes: f.notes,
            workloads: f.workloads,
            measured,
            source: file.to_string(),
        })
    }
}

#[cfg(test)]
mod tests;
