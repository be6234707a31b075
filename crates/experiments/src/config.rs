//! The experiment schema: one TOML file per figure, parsed with
//! `deny_unknown_fields` everywhere, so every unknown key or bad value is an
//! error that names the file, line and column.
//!
//! Parsing happens in two passes. The first reads only `kind`; the second
//! deserialises the whole document as [`Spec<P>`] where `P` is that kind's
//! typed parameter table (see [`crate::kind`]), so the kind's own keys are
//! checked with the same precision as the common ones.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::claims::Claim;
use crate::kind::{self, ErasedSpec};

/// A parsed, validated experiment: the common schema plus the typed
/// parameters of its kind.
pub struct Experiment {
    pub(crate) spec: ErasedSpec,
    pub(crate) file: String,
}

/// The whole TOML document, generic over the kind's parameter table.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec<P> {
    /// `<paper>/<figure>`, e.g. `baseline/backfilling`.
    pub id: Spanned<String>,
    /// One-line title, used on the figure and in summaries.
    pub title: String,
    /// Citation of the paper (or "baseline" literature) the figure reproduces.
    pub paper: String,
    /// Which runner executes this experiment.
    pub kind: String,
    /// Base seed; every random component derives its own stream from it.
    pub seed: u64,
    /// Independent repetitions per point (different derived seeds).
    #[serde(default = "one")]
    pub repetitions: u32,
    /// Confidence level of the intervals around each point: 0.95 when
    /// absent, or 0.90 (a paper that reports 90% intervals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// Input workloads, in plotting order.
    pub workloads: Vec<WorkloadSpec>,
    /// The x axis.
    pub sweep: SweepSpec,
    /// The kind's own parameters.
    pub params: P,
    /// One sub-plot per panel.
    pub panels: Vec<PanelSpec>,
    /// Machine-checked statements from the paper.
    #[serde(default)]
    pub claims: Vec<Claim>,
}

fn one() -> u32 {
    1
}

/// Where a workload's jobs come from, and how they are transformed.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WorkloadSpec {
    /// Display name (the x category when the axis is `workload`).
    pub label: Spanned<String>,
    /// A Parallel Workloads Archive trace name (`SDSC-SP2-1998-4.2-cln`) or
    /// a path to a `.swf`/`.swf.gz` file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
    /// A synthetic Lublin99 workload instead of a trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lublin99: Option<Lublin99Spec>,
    /// Neither: the kind generates its jobs itself from its `[params]`
    /// (the `utility` kind's grid scenario, say); the text describes them
    /// in summaries, and the kind's cells get an empty workload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_by_kind: Option<String>,
    /// Which SWF field becomes the scheduler's run-time estimate.
    #[serde(default)]
    pub estimate: EstimateSpec,
    /// Skip malformed trace lines (counted) instead of failing.
    #[serde(default)]
    pub lenient: bool,
    /// Applied in order after conversion to jobs.
    #[serde(default)]
    pub transforms: Vec<Transform>,
}

/// A Lublin99 generator.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Lublin99Spec {
    /// Machine size in processors.
    pub procs: u32,
    /// Number of jobs to generate.
    pub jobs: usize,
    /// Batch and interactive classes (the reference program's default).
    #[serde(default = "yes")]
    pub two_class: bool,
}

fn yes() -> bool {
    true
}

/// The scheduler's run-time estimate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EstimateSpec {
    /// The user's requested time (SWF field 9).
    #[default]
    Requested,
    /// The actual run time (perfect estimates).
    Actual,
    /// Every job underestimated by the fraction `f` (0.2 gives 80 % of the run time).
    UnderEstimate(f64),
}

impl EstimateSpec {
    pub(crate) fn to_swf(self) -> swf_io::Estimate {
        match self {
            EstimateSpec::Requested => swf_io::Estimate::Requested,
            EstimateSpec::Actual => swf_io::Estimate::Actual,
            EstimateSpec::UnderEstimate(f) => swf_io::Estimate::UnderEstimate(f),
        }
    }
}

/// A workload transform, written as a one-key table: `{ last_n = 10000 }`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Transform {
    /// Drop jobs that ran for fewer seconds than this.
    DropShorterThan(i64),
    /// Keep only the last `n` jobs.
    LastN(usize),
    /// Multiply the offered load (compress inter-arrival times).
    ScaleLoad(f64),
}

/// The x axis of every panel.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SweepSpec {
    /// `workload` (categorical: one x per workload), `load` (numeric: scale
    /// the load of every workload by each value) or an axis of the kind.
    pub axis: Spanned<String>,
    /// The x values of a numeric axis.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<f64>,
    /// Axis label with unit.
    pub label: String,
}

/// One sub-plot.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PanelSpec {
    /// Short name used in data.csv and claims.
    pub id: String,
    /// A metric of the kind.
    pub metric: Spanned<String>,
    /// Sub-plot title; defaults to the metric's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// y-axis label with unit; defaults to the metric's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_label: Option<String>,
    /// Logarithmic y axis (values at or below zero sit on the axis).
    #[serde(default)]
    pub log_y: bool,
}

/// A configuration file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// Syntax errors, unknown keys, bad values and inconsistent references.
    Invalid {
        /// The file as given.
        file: String,
        /// 1-based line, when the problem has a place.
        line: Option<usize>,
        /// 1-based column.
        column: Option<usize>,
        /// What is wrong and what to do.
        message: String,
        /// The offending source line, if any.
        source_line: Option<String>,
    },
}

impl ConfigError {
    pub(crate) fn at(file: &str, text: &str, span: Option<Range<usize>>, message: String) -> Self {
        let place = span.map(|span| {
            let start = span.start.min(text.len());
            let before = &text[..start];
            let line = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = text[line_start..start].chars().count() + 1;
            let source_line = text[line_start..].lines().next().unwrap_or("").to_string();
            (line, column, source_line)
        });
        ConfigError::Invalid {
            file: file.to_string(),
            line: place.as_ref().map(|p| p.0),
            column: place.as_ref().map(|p| p.1),
            source_line: place.map(|p| p.2),
            message,
        }
    }

    /// The line the error points at, if any.
    pub fn line(&self) -> Option<usize> {
        match self {
            ConfigError::Invalid { line, .. } => *line,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ConfigError::Invalid {
            file,
            line,
            column,
            message,
            source_line,
        } = self;
        match (line, column) {
            (Some(l), Some(c)) => write!(f, "{file}:{l}:{c}: {message}")?,
            _ => write!(f, "{file}: {message}")?,
        }
        if let (Some(l), Some(c), Some(src)) = (line, column, source_line) {
            let width = l.to_string().len();
            write!(
                f,
                "\n{:width$} |\n{l} | {src}\n{:width$} | {:>c$}",
                "", "", "^"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// The first pass: just the kind.
#[derive(Deserialize)]
struct KindOnly {
    kind: Spanned<String>,
}

impl Experiment {
    /// Parses and validates an experiment from TOML `text`; `file` names it
    /// in error messages (`configs/baseline/backfilling.toml:12:3: ...`).
    pub fn parse(text: &str, file: &str) -> Result<Experiment, ConfigError> {
        let toml_err =
            |e: toml::de::Error| ConfigError::at(file, text, e.span(), e.message().to_string());
        let head: KindOnly = toml::from_str(text).map_err(toml_err)?;
        let entry = kind::lookup(head.kind.get_ref()).ok_or_else(|| {
            ConfigError::at(
                file,
                text,
                Some(head.kind.span()),
                format!(
                    "unknown kind '{}', expected one of: {}",
                    head.kind.get_ref(),
                    kind::names().join(", ")
                ),
            )
        })?;
        let spec = (entry.parse)(text).map_err(toml_err)?;
        let experiment = Experiment {
            spec,
            file: file.to_string(),
        };
        experiment
            .validate()
            .map_err(|(span, message)| ConfigError::at(file, text, span, message))?;
        Ok(experiment)
    }

    /// `<paper>/<figure>`.
    pub fn id(&self) -> &str {
        self.spec.id.get_ref()
    }

    /// The one-line title.
    pub fn title(&self) -> &str {
        &self.spec.title
    }

    /// The paper citation.
    pub fn paper(&self) -> &str {
        &self.spec.paper
    }

    /// The runner's name.
    pub fn kind(&self) -> &str {
        &self.spec.kind
    }

    /// The file the experiment was read from, as given to [`Experiment::parse`].
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The claims to check.
    pub fn claims(&self) -> &[Claim] {
        &self.spec.claims
    }

    /// Every trace the workloads name, in order and without repeats, with
    /// whether it is to be read leniently.
    pub fn traces(&self) -> Vec<TraceRef> {
        let mut out: Vec<TraceRef> = Vec::new();
        for w in &self.spec.workloads {
            if let Some(name) = &w.trace {
                match out.iter_mut().find(|t| &t.name == name) {
                    Some(t) => t.lenient |= w.lenient,
                    None => out.push(TraceRef {
                        name: name.clone(),
                        lenient: w.lenient,
                    }),
                }
            }
        }
        out
    }

    /// The series names (legend entries) of the kind.
    pub fn series(&self) -> Vec<String> {
        self.spec.params.series()
    }

    /// The base seed.
    pub fn seed(&self) -> u64 {
        self.spec.seed
    }

    /// The derived seed of repetition `rep`: the same for every series at one
    /// point (common random numbers), different across repetitions.
    pub fn repetition_seed(&self, rep: u32) -> u64 {
        derive_seed(self.spec.seed, &format!("repetition/{rep}"))
    }

    /// The configuration as TOML, with every default filled in.
    pub fn resolved_toml(&self) -> String {
        toml::to_string(&self.spec)
            .unwrap_or_else(|e| format!("# cannot serialise the configuration: {e}\n"))
    }

    /// Cross-field checks: every reference resolves. Errors carry a span.
    fn validate(&self) -> Result<(), (Option<Range<usize>>, String)> {
        let s = &self.spec;
        let parts: Vec<&str> = s.id.get_ref().split('/').collect();
        let safe = |p: &&str| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        };
        if parts.len() != 2 || !parts.iter().all(safe) {
            return Err((
                Some(s.id.span()),
                format!(
                    "id '{}' must look like '<paper>/<figure>' (letters, digits, '-', '_', '.')",
                    s.id.get_ref()
                ),
            ));
        }
        if s.repetitions == 0 {
            return Err((None, "repetitions must be at least 1".into()));
        }
        if let Some(c) = s.confidence.filter(|c| *c != 0.90 && *c != 0.95) {
            return Err((None, format!("confidence is {c}, expected 0.90 or 0.95")));
        }
        if s.workloads.is_empty() {
            return Err((None, "give at least one [[workloads]] table".into()));
        }
        for (i, w) in s.workloads.iter().enumerate() {
            let label = w.label.get_ref();
            let here = Some(w.label.span());
            let sources = [
                w.trace.is_some(),
                w.lublin99.is_some(),
                w.generated_by_kind.is_some(),
            ];
            if sources.iter().filter(|s| **s).count() != 1 {
                return Err((
                    here,
                    format!(
                        "workload '{label}': give exactly one of `trace` or `lublin99` (or `generated_by_kind` for a kind that makes its own jobs)"
                    ),
                ));
            }
            if s.workloads[..i].iter().any(|o| o.label.get_ref() == label) {
                return Err((
                    here,
                    format!("workload label '{label}' is used twice; labels must be unique"),
                ));
            }
            if let Some(g) = w.lublin99.as_ref().filter(|g| g.procs == 0 || g.jobs == 0) {
                return Err((
                    here,
                    format!(
                        "workload '{label}': lublin99 needs procs and jobs of at least 1, got {} and {}",
                        g.procs, g.jobs
                    ),
                ));
            }
            for t in &w.transforms {
                let bad = match *t {
                    Transform::ScaleLoad(f) => !(f.is_finite() && f > 0.0),
                    Transform::LastN(n) => n == 0,
                    Transform::DropShorterThan(secs) => secs < 0,
                };
                if bad {
                    return Err((
                        here,
                        format!("workload '{label}': transform {t:?} is out of range"),
                    ));
                }
            }
            if let EstimateSpec::UnderEstimate(f) = w.estimate
                && !(f.is_finite() && (0.0..1.0).contains(&f))
            {
                return Err((
                    here,
                    format!(
                        "workload '{label}': under_estimate is {f}, expected a fraction in [0, 1)"
                    ),
                ));
            }
        }
        let axis = s.sweep.axis.get_ref();
        let axis_span = Some(s.sweep.axis.span());
        let axes = s.params.axes();
        match axis.as_str() {
            "workload" if !s.sweep.values.is_empty() => {
                return Err((
                    axis_span,
                    "the workload axis takes its x values from [[workloads]]; remove `values`"
                        .into(),
                ));
            }
            "workload" => {}
            other if other == "load" || axes.contains(&other) => {
                if s.sweep.values.is_empty() || s.sweep.values.iter().any(|v| !v.is_finite()) {
                    return Err((
                        axis_span,
                        format!("axis '{other}' needs finite `values = [...]`"),
                    ));
                }
                if other == "load" && s.sweep.values.iter().any(|v| *v <= 0.0) {
                    return Err((axis_span, "load factors must be positive".into()));
                }
            }
            other => {
                let mut known = vec!["workload", "load"];
                known.extend(axes);
                return Err((
                    axis_span,
                    format!(
                        "unknown axis '{other}', expected one of: {}",
                        known.join(", ")
                    ),
                ));
            }
        }
        let series = s.params.series();
        if series.is_empty() {
            return Err((None, "the kind's parameters define no series".into()));
        }
        s.params.check(self).map_err(|m| (None, m))?;
        if s.panels.is_empty() {
            return Err((None, "give at least one [[panels]] table".into()));
        }
        let metrics = s.params.metrics();
        for (i, p) in s.panels.iter().enumerate() {
            if s.panels[..i].iter().any(|o| o.id == p.id) {
                return Err((
                    Some(p.metric.span()),
                    format!("panel id '{}' is used twice", p.id),
                ));
            }
            if !metrics.iter().any(|m| m.name == p.metric.get_ref()) {
                let names: Vec<&str> = metrics.iter().map(|m| m.name).collect();
                return Err((
                    Some(p.metric.span()),
                    format!(
                        "unknown metric '{}' for kind '{}', expected one of: {}",
                        p.metric.get_ref(),
                        s.kind,
                        names.join(", ")
                    ),
                ));
            }
        }
        let panels: Vec<&str> = s.panels.iter().map(|p| p.id.as_str()).collect();
        let xs = self.x_values();
        for c in &s.claims {
            c.validate(&panels, &series, &xs)
                .map_err(|m| (Some(c.span()), m))?;
        }
        Ok(())
    }

    /// The x values in plotting order, as they appear in data.csv.
    pub(crate) fn x_values(&self) -> Vec<String> {
        if self.is_categorical() {
            self.spec
                .workloads
                .iter()
                .map(|w| w.label.get_ref().clone())
                .collect()
        } else {
            self.spec
                .sweep
                .values
                .iter()
                .map(|v| crate::csv::fmt_num(*v))
                .collect()
        }
    }

    /// Whether the x axis is the categorical workload axis.
    pub(crate) fn is_categorical(&self) -> bool {
        self.spec.sweep.axis.get_ref() == "workload"
    }
}

impl fmt::Debug for Experiment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Experiment")
            .field("id", self.spec.id.get_ref())
            .field("kind", &self.spec.kind)
            .field("file", &self.file)
            .finish()
    }
}

impl<P> Spec<P> {
    /// The same document with its parameters mapped (typed to erased).
    pub(crate) fn map_params<Q>(self, f: impl FnOnce(P) -> Q) -> Spec<Q> {
        Spec {
            id: self.id,
            title: self.title,
            paper: self.paper,
            kind: self.kind,
            seed: self.seed,
            repetitions: self.repetitions,
            confidence: self.confidence,
            workloads: self.workloads,
            sweep: self.sweep,
            params: f(self.params),
            panels: self.panels,
            claims: self.claims,
        }
    }
}

/// A trace named by a workload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRef {
    /// The trace name or path exactly as written in the configuration.
    pub name: String,
    /// Whether any workload reads it leniently.
    pub lenient: bool,
}

/// Derives an independent seed for the component called `name` from `base`
/// (SplitMix64 over the bytes), so adding a component never shifts another's stream.
pub fn derive_seed(base: u64, name: &str) -> u64 {
    let mut x = base ^ 0x9E37_79B9_7F4A_7C15;
    for b in name.bytes() {
        x = splitmix(x ^ u64::from(b));
    }
    splitmix(x)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_by_name_and_base() {
        assert_ne!(derive_seed(1, "a"), derive_seed(1, "b"));
        assert_ne!(derive_seed(1, "a"), derive_seed(2, "a"));
        assert_eq!(derive_seed(7, "workload/x"), derive_seed(7, "workload/x"));
    }

    #[test]
    fn error_points_at_line_and_column() {
        let text = "a = 1\nbb = 2\n";
        let e = ConfigError::at("f.toml", text, Some(9..11), "bad".into());
        assert_eq!(e.line(), Some(2));
        assert!(e.to_string().starts_with("f.toml:2:4: bad"), "{e}");
    }
}
