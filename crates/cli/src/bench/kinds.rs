//! The paper kinds' cases of `cargo xtask bench`: one unit of the work the
//! reproductions wait on per paper, taken from the committed configurations
//! and traces, run on one thread in a fresh release process.
//!
//! A case is one *cell* of an experiment (a run with the runs its kind
//! measures it against, as `--shard` runs it), chosen by its label: the
//! costliest cell where the figure's cells differ in cost. The time covers
//! preparing the cell's workload (the trace is read before the clock
//! starts) and simulating; the count is the cell's samples (one per run, or
//! one per interval for the adaptive kind), so the per-unit column is the
//! time per run, per round or per interval.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use experiments::{Provenance, RunOptions, Shard, cell_labels, run_shard};

use crate::experiment::read_experiment;
use crate::settings::Settings;

/// One kind's case: its row name, the configuration, the cell's label and
/// what one sample is.
pub struct KindCase {
    pub name: &'static str,
    pub config: &'static str,
    pub cell: &'static str,
    pub unit: &'static str,
    /// Upper bound on the median, seconds (three to five times this
    /// machine's measurement).
    pub floor: f64,
}

/// The cases, in the order printed.
pub const KIND_CASES: [KindCase; 4] = [
    KindCase {
        name: "pricing: libra+$ run, 5,000-job window",
        config: "configs/pricing/fig2.toml",
        cell: "libra+$ on SDSC-SP2 (last 5000 jobs) at arrival_delay = 0.1 (repetition 1)",
        unit: "run",
        floor: 0.2,
    },
    KindCase {
        name: "provisioning: one round (4 runs)",
        config: "configs/provisioning/fig5.toml",
        cell: "reference of arcb+earliest-partial on DAS2-fs1 (months 9-12) at interval_min = 15 \
               (repetition 1)",
        unit: "run",
        floor: 2.5,
    },
    KindCase {
        name: "adaptive: mdf-p+m at +50%, per interval",
        config: "configs/adaptive/fig4.toml",
        cell: "mdf-preemptive-moldable on SDSC-SP2 at load_increase = 50",
        unit: "interval",
        floor: 4.0,
    },
    KindCase {
        name: "utility: one PU run",
        config: "configs/utility/fig6.toml",
        cell: "pu on 4 VOs × 20 resources, 70 users × 20 jobs (repetition 1)",
        unit: "run",
        floor: 0.1,
    },
];

/// `bench-child cell <config> <label>`: runs the cell of the configuration
/// at `config` (relative to the repository) whose label is `label` (or
/// starts with it, for a cell whose runs share a reference); returns the
/// seconds and the samples measured.
pub fn run_cell(settings: &Settings, config: &str, label: &str) -> Result<(f64, usize)> {
    let path = settings.root.join(config);
    let loaded = read_experiment(settings, None, Path::new(&path), None)?;
    let labels = cell_labels(&loaded.experiment);
    let index = labels
        .iter()
        .position(|l| l == label || l.starts_with(&format!("{label} (+")))
        .ok_or_else(|| anyhow!("{config} has no cell '{label}'"))?;
    let count = u32::try_from(labels.len()).context("too many cells")?;
    let shard = Shard::new(u32::try_from(index)?, count).map_err(|e| anyhow!(e))?;
    let options = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    let provenance = Provenance {
        git_revision: String::new(),
        config_file: config.to_string(),
    };
    let start = Instant::now();
    let cells = run_shard(
        &loaded.experiment,
        &loaded.traces,
        &options,
        shard,
        &provenance,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let samples = cells
        .measured
        .iter()
        .flat_map(|c| &c.runs)
        .map(|(_, _, values)| values.values().next().map_or(0, Vec::len))
        .sum();
    Ok((seconds, samples))
}
