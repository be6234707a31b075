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
use experiments::{Provenance, RunOptions, Shard, cell_labels, cell_runs, run_shard};

use crate::experiment::read_experiment;
use crate::settings::Settings;

/// One kind's case: its row name, the configuration, the cell's label and
/// what one sample is.
pub struct KindCase {
    pub name: &'static str,
    pub config: &'static str,
    pub cell: &'static str,
    /// The runs the cell holds (the reference and those measured against
    /// it): checked by a test, so that a change in how runs are shared
    /// cannot silently change what the row measures.
    pub runs: usize,
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
        runs: 1,
        unit: "run",
        floor: 0.2,
    },
    KindCase {
        // Figure 4's cell: its base run and six series on one round's
        // jobs. (Figure 5's base run is the same at every interval since
        // runs are identified by what they read, so its cells now hold the
        // base and the series of all five intervals.)
        name: "provisioning: one round (7 runs)",
        config: "configs/provisioning/fig4.toml",
        cell: "reference of arcb+least-load on DAS-2, slots every 2 h (repetition 1)",
        runs: 7,
        unit: "run",
        floor: 2.5,
    },
    KindCase {
        name: "adaptive: mdf-p+m at +50%, per interval",
        config: "configs/adaptive/fig4.toml",
        cell: "mdf-preemptive-moldable on SDSC-SP2 at load_increase = 50",
        runs: 1,
        unit: "interval",
        floor: 4.0,
    },
    KindCase {
        name: "utility: one PU run",
        config: "configs/utility/fig6.toml",
        cell: "pu on 4 VOs × 20 resources, 70 users × 20 jobs (repetition 1)",
        runs: 1,
        unit: "run",
        floor: 0.1,
    },
];

/// The index of the cell labelled `label` (or `label` followed by the
/// runs sharing its reference) among an experiment's cell `labels`.
fn cell_index(labels: &[String], label: &str) -> Option<usize> {
    labels
        .iter()
        .position(|l| l == label || l.starts_with(&format!("{label} (+")))
}

/// That `case` names a cell of its configuration holding the runs it
/// declares: a change in how runs are shared must not silently change what
/// the row measures.
pub fn check_case(settings: &Settings, case: &KindCase) -> Result<()> {
    let path = settings.root.join(case.config);
    let experiment = crate::config::read_config(&settings.registry, &path, case.config)?;
    let index = cell_index(&cell_labels(&experiment), case.cell);
    match index.map(|i| cell_runs(&experiment)[i]) {
        Some(runs) if runs == case.runs => Ok(()),
        Some(runs) => Err(anyhow!(
            "bench row '{}': the cell '{}' of {} holds {runs} runs, not {}; choose a cell that \
             measures what the row says",
            case.name,
            case.cell,
            case.config,
            case.runs
        )),
        None => Err(anyhow!(
            "bench row '{}': {} has no cell '{}'",
            case.name,
            case.config,
            case.cell
        )),
    }
}

/// `bench-child cell <config> <label>`: runs the cell of the configuration
/// at `config` (relative to the repository) whose label is `label` (or
/// starts with it, for a cell whose runs share a reference); returns the
/// seconds and the samples measured.
pub fn run_cell(settings: &Settings, config: &str, label: &str) -> Result<(f64, usize)> {
    let path = settings.root.join(config);
    let loaded = read_experiment(settings, None, Path::new(&path), None)?;
    let labels = cell_labels(&loaded.experiment);
    let index =
        cell_index(&labels, label).ok_or_else(|| anyhow!("{config} has no cell '{label}'"))?;
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

#[cfg(test)]
mod tests {
    use super::{KIND_CASES, cell_index, check_case};
    use crate::settings::Settings;

    #[test]
    fn every_kind_case_names_a_cell_of_its_configuration_with_its_runs() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let settings = Settings::new(root);
        for case in &KIND_CASES {
            check_case(&settings, case).unwrap();
        }
    }

    #[test]
    fn a_cell_is_found_by_its_label() {
        let labels = [
            "a".to_string(),
            "b (+6 run(s) sharing its reference)".to_string(),
        ];
        assert_eq!(cell_index(&labels, "a"), Some(0));
        assert_eq!(cell_index(&labels, "b"), Some(1));
        assert_eq!(cell_index(&labels, "c"), None);
    }
}
