//! What a figure shows, as data: its title, axes, series and panels,
//! derived from an experiment before anything runs; `crate::svg` draws it.

use serde::Serialize;

use crate::config::ReferenceSpec;
use crate::experiment::Experiment;
use crate::workload::WorkloadFacts;

/// How an experiment's figure is drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// Title line (the experiment's title).
    pub title: String,
    /// x-axis label with unit.
    pub x_label: String,
    /// Grouped bars (categorical x) instead of lines.
    pub categorical: bool,
    /// A logarithmic x axis (`log_x = true` in `[sweep]`; numeric x only).
    pub log_x: bool,
    /// Legend entries in order (colours, markers and dashes follow this order).
    pub series: Vec<String>,
    /// Sub-plots in order.
    pub panels: Vec<PanelInfo>,
    /// Confidence level of the whiskers: 0.95 or 0.90.
    pub confidence: f64,
    /// Independent runs (repetitions) per point; a run may give several
    /// samples, which the caption then counts instead.
    pub repetitions: u32,
    /// A warning drawn as a banner across the figure, e.g. that a stand-in
    /// workload replaced a missing trace.
    pub notice: Option<String>,
}

/// One sub-plot's labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PanelInfo {
    /// Panel id (the `panel` column of data.csv).
    pub id: String,
    /// Sub-plot title.
    pub title: String,
    /// y-axis label with unit.
    pub y_label: String,
    /// Logarithmic y axis.
    pub log_y: bool,
}

impl Figure {
    /// The figure an experiment's panels and sweep describe; `workloads`
    /// (the facts of the run) mark a figure drawn from a stand-in workload.
    pub(crate) fn of(experiment: &Experiment, workloads: &[WorkloadFacts]) -> Figure {
        let spec = &experiment.spec;
        let metrics = (experiment.kind.metrics)();
        let panels = experiment
            .facets()
            .into_iter()
            .flat_map(|f| spec.panels.iter().map(move |p| (p, f)))
            .map(|(p, facet)| {
                let m = metrics.iter().find(|m| m.name == p.metric.get_ref());
                let on = |title: String| match experiment.facet_title(facet) {
                    Some(what) => format!("{title} ({what})"),
                    None => title,
                };
                PanelInfo {
                    id: experiment.panel_id(&p.id, facet),
                    title: p
                        .title
                        .clone()
                        .or_else(|| {
                            let title = m.map(|m| m.title.to_string())?;
                            Some(match p.reference() {
                                None => title,
                                Some((r, reduction)) => {
                                    let what = if reduction { "reduction" } else { "gain" };
                                    let of = match r.get_ref() {
                                        ReferenceSpec::Series(s) => s.clone(),
                                        ReferenceSpec::Params { params } => {
                                            params.to_string().trim().replace('\n', ", ")
                                        }
                                    };
                                    format!("{title}: {what} over {of} (%)")
                                }
                            })
                        })
                        .map(on)
                        .unwrap_or_default(),
                    // A relative panel plots a percentage, not the metric.
                    y_label: p
                        .y_label
                        .clone()
                        .or_else(|| match p.reference() {
                            None => m.map(|m| m.y_label.to_string()),
                            Some((_, true)) => Some("reduction (%)".to_string()),
                            Some((_, false)) => Some("gain (%)".to_string()),
                        })
                        .unwrap_or_default(),
                    log_y: p.log_y,
                }
            })
            .collect();
        Figure {
            title: spec.title.clone(),
            x_label: spec.sweep.label.clone(),
            categorical: draws_categories(experiment),
            log_x: spec.sweep.log_x,
            series: experiment.series(),
            panels,
            confidence: spec.confidence.unwrap_or(0.95),
            repetitions: spec.repetitions,
            notice: stand_in_notice(workloads),
        }
    }
}

/// Whether the figure draws its x values as categories (bars): on the
/// workload axis, and on any axis with a value that is not a number
/// (`order = ["arrival", "shortest-estimate"]`, a swept trace's name, a
/// boolean), which has no place on a numeric axis.
fn draws_categories(experiment: &Experiment) -> bool {
    experiment.is_categorical()
        || experiment.spec.sweep.values.as_ref().is_some_and(|v| {
            v.get_ref()
                .iter()
                .any(|v| !(v.is_integer() || v.is_float()))
        })
}

/// The banner text when a stand-in replaced a trace: which workloads.
fn stand_in_notice(workloads: &[WorkloadFacts]) -> Option<String> {
    let mut labels: Vec<String> = Vec::new();
    for w in workloads.iter().filter(|w| w.stand_in) {
        let shown = w.shown_label();
        if !labels.contains(&shown) {
            labels.push(shown);
        }
    }
    (!labels.is_empty()).then(|| {
        format!(
            "STAND-IN WORKLOAD: {} replaced by a synthetic workload; NOT the trace's results, nor comparable to a paper",
            labels.join(", ")
        )
    })
}
