//! An experiment's results as plain data: measured runs aggregated into
//! plotted points (panel × x × series over repetitions, relative panels
//! against their reference runs) and claims checked.

use crate::claims::{Verdict, check_claims};
use crate::csv::Row;
use crate::encode::terminal_name;
use crate::error::RunError;
use crate::experiment::Experiment;
use crate::figure::Figure;
use crate::graph::Layout;
use crate::kind::gain;
use crate::run::{Measured, RunOptions};
use crate::samples::{Samples, Unit};
use crate::stats::{mean_ci_at, not_finite, trimmed};
use crate::workload::{Traces, WorkloadFacts};

/// Where a run came from, as recorded in `run.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// `git rev-parse HEAD`, or `unknown`.
    pub git_revision: String,
    /// The configuration file.
    pub config_file: String,
}

/// Everything an experiment produced.
#[derive(Debug, Clone)]
pub struct Results {
    /// The plotted points, in panel, x, series order.
    pub rows: Vec<Row>,
    /// The units behind every point (`samples.csv`).
    pub samples: Samples,
    /// One verdict per claim (none once [`Results::without_claims`]).
    pub verdicts: Vec<Verdict>,
    /// Whether the claims were checked: `false` after
    /// [`Results::without_claims`] (`--no-claims`), when `summary.md` has
    /// no claims section.
    pub claims_checked: bool,
    /// One entry per workload the runs read, in the plan's order: each
    /// `[[workloads]]` entry a run reads as written, then each variant a
    /// sweep or a series makes of one (see [`WorkloadFacts::variant`]);
    /// each at its first x and repetition, and one drawn anew for each
    /// repetition once per repetition.
    pub workloads: Vec<WorkloadFacts>,
    /// The derived seed of each repetition.
    pub seeds: Vec<u64>,
    /// How the figure is drawn.
    pub figure: Figure,
    /// What the kind says about its workloads, for the summary.
    pub notes: Vec<String>,
}

impl Layout<'_> {
    /// Aggregates measurements into the experiment's results: panel × x ×
    /// series over repetitions, relative panels against their reference
    /// runs, claims checked. Every cell must have been measured. A point
    /// that is not a finite number although its values are (see
    /// [`RunError::NotFinite`]) is an error.
    pub(crate) fn assemble(&self, measured: Measured) -> Result<Results, RunError> {
        let experiment = self.experiment;
        let spec = &experiment.spec;
        let series = experiment.series();
        let nodes = &self.graph.nodes;
        let value_of = |n: usize, metric: &str| -> Vec<Option<f64>> {
            debug_assert!(measured.runs.contains_key(&n), "run {n} was not measured");
            measured
                .runs
                .get(&n)
                .and_then(|m| m.get(metric))
                .cloned()
                .unwrap_or_default()
        };
        let metrics = (experiment.kind.metrics)();
        let mut rows = Vec::new();
        let mut samples = Samples::new(spec.confidence.unwrap_or(0.95));
        for (qi, panel, facet) in experiment.facets().into_iter().flat_map(|f| {
            spec.panels
                .iter()
                .enumerate()
                .map(move |(qi, p)| (qi, p, f))
        }) {
            let panel_id = experiment.panel_id(&panel.id, facet);
            let metric = metrics
                .iter()
                .find(|m| m.name == panel.metric.get_ref())
                .unwrap_or(&metrics[0])
                .name;
            let relative = panel.reference().map(|(_, reduction)| reduction);
            for (pi, p) in self.points.iter().enumerate() {
                if p.facet != facet {
                    continue;
                }
                for (si, s) in series.iter().enumerate() {
                    let mut ys = Vec::new();
                    for rep in 0..spec.repetitions as usize {
                        let n = self.cell_nodes[pi][si][rep];
                        let values = value_of(n, metric);
                        let values: Vec<(u32, f64)> = match relative {
                            None => values
                                .into_iter()
                                .enumerate()
                                .filter_map(|(i, v)| Some((i as u32, v?)))
                                .collect(),
                            Some(reduction) => {
                                let r = self.panel_nodes[qi][pi][si][rep];
                                let base = value_of(r, metric);
                                // Samples are paired one to one: a count
                                // that differs would pair other units.
                                if values.len() != base.len() {
                                    let message = format!(
                                        "panel '{}' compares each sample with the same sample \
                                         of the run it is measured against ('{}'), but this \
                                         run has {} sample(s) and that one {}; runs compared \
                                         sample by sample measure the same units",
                                        terminal_name(&panel_id),
                                        terminal_name(&nodes[r].label),
                                        values.len(),
                                        base.len()
                                    );
                                    return Err(self.in_run(RunError::Kind { message }, n));
                                }
                                values
                                    .iter()
                                    .zip(&base)
                                    .enumerate()
                                    .filter_map(|(i, (v, b))| Some((i as u32, gain((*v)?, (*b)?)?)))
                                    .map(|(i, g)| (i, if reduction { -g } else { g }))
                                    .collect()
                            }
                        };
                        for (sample, value) in trimmed(values, spec.trim) {
                            if !value.is_nan() {
                                let unit = Unit {
                                    repetition: rep as u32,
                                    sample,
                                    value,
                                };
                                samples.push(&panel_id, s, &p.x, unit);
                            }
                            ys.push(value);
                        }
                    }
                    let (y, ci) = mean_ci_at(&ys, spec.confidence.unwrap_or(0.95));
                    if let Some(message) = not_finite(&ys, y, ci) {
                        return Err(RunError::NotFinite {
                            panel: panel_id.clone(),
                            series: s.clone(),
                            x: p.x.clone(),
                            message,
                        });
                    }
                    rows.push(Row {
                        panel: panel_id.clone(),
                        series: s.clone(),
                        x: p.x.clone(),
                        y,
                        ci,
                        runs: u32::try_from(ys.len()).unwrap_or(u32::MAX),
                    });
                }
            }
        }
        debug_assert!(nodes.len() >= measured.runs.len());
        let verdicts = check_claims(&spec.claims, &rows, &samples);
        let figure = Figure::of(experiment, &measured.workloads);
        Ok(Results {
            rows,
            samples,
            verdicts,
            claims_checked: true,
            workloads: measured.workloads,
            seeds: self.seeds.clone(),
            figure,
            notes: measured.notes,
        })
    }
}

impl Results {
    /// These results with the claims left unchecked: no verdicts, and no
    /// claims section in `summary.md` (a study's own run that does not
    /// want a paper's claims judged, `--no-claims`). Every other output is
    /// unchanged; `run.toml` still records the configuration as written.
    #[must_use]
    pub fn without_claims(mut self) -> Results {
        self.verdicts.clear();
        self.claims_checked = false;
        self
    }
}

/// Runs `experiment` on the supplied traces.
pub fn run(
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
) -> Result<Results, RunError> {
    let layout = Layout::new(experiment);
    let measured = layout.simulate(traces, options, &|_| true)?;
    layout.assemble(measured)
}
