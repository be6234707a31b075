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
use swf_io::Estimate;
use toml::Spanned;

use crate::claims::Claim;
use crate::kind::KindEntry;
use crate::kinds;
use crate::plan::{self, Limits, Plan};

/// The config format this version reads (`version = 2`).
pub const CONFIG_VERSION: u32 = 2;

/// A parsed, validated experiment: the common schema, its kind, and the
/// typed parameters of every point of every series.
pub struct Experiment {
    pub(crate) spec: RawSpec,
    pub(crate) kind: &'static KindEntry,
    pub(crate) plan: Plan,
    pub(crate) file: String,
}

/// The document with its `[params]` table as written.
pub(crate) type RawSpec = Spec<Option<Spanned<toml::Table>>>;

/// The whole TOML document, generic over the kind's parameter table.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec<P> {
    /// The config format (see [`CONFIG_VERSION`]).
    pub version: Spanned<u32>,
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
    /// The legend entries: a short name the kind expands (`"easy"`), or
    /// `{ name = "...", params = { ... } }` with explicit overrides.
    pub series: Vec<Spanned<toml::Value>>,
    /// For kinds that measure several units per run: each run's samples of
    /// a metric are sorted and the `trim` highest and `trim` lowest left
    /// out (all kept when there are not more than `2·trim`). Absent: every
    /// sample counts, in the order the kind measured them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trim: Option<usize>,
    /// The kind's own parameters: the values every series starts from.
    #[serde(default)]
    pub params: P,
    /// One sub-plot per panel.
    pub panels: Vec<PanelSpec>,
    /// Machine-checked statements from the paper.
    #[serde(default)]
    pub claims: Vec<Claim>,
    /// For a sensitivity run: the reading of the paper it tries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
}

/// What a sensitivity run tries: another reading of a vague passage, run
/// as a variant of one of the paper's figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    /// The figure it varies (`adaptive/fig5`).
    pub varies: String,
    /// The reading, in a few words.
    pub name: String,
    /// The paper's text that supports it (quoted, with where it is).
    pub support: String,
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
    /// Which SWF field becomes the scheduler's run-time estimate:
    /// `"requested"` (the default), `"actual"` or `{ under_estimate = f }`.
    #[serde(default)]
    pub estimate: Estimate,
    /// Skip malformed trace lines (counted) instead of failing.
    #[serde(default)]
    pub lenient: bool,
    /// The machine size in processors for a trace whose header gives none
    /// (`MaxProcs` and `MaxNodes` missing, -1 or 0), or to replace the
    /// header's; 1 to `swf_io::MAX_PROCS`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub procs: Option<u32>,
    /// Applied in order after conversion to jobs.
    #[serde(default)]
    pub transforms: Vec<Transform>,
}

/// A Lublin99 generator.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Lublin99Spec {
    /// Machine size in processors.
    pub procs: u32,
    /// Number of jobs to generate.
    pub jobs: usize,
    /// Batch and interactive classes (the reference program's default).
    pub two_class: bool,
}

impl Default for Lublin99Spec {
    /// No machine and no jobs (both must be given), two classes.
    fn default() -> Self {
        Lublin99Spec {
            procs: 0,
            jobs: 0,
            two_class: true,
        }
    }
}

pub(crate) use crate::transform::Transform;

/// The x axis of every panel.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SweepSpec {
    /// `workload` (categorical: one x per workload), `load` (scale the
    /// load of every workload by each value) or any key of `[params]`
    /// (dotted for nested tables: `table1.preemptive_share`).
    pub axis: Spanned<String>,
    /// The x values: numbers, strings or booleans.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Spanned<Vec<toml::Value>>>,
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
    /// Plot `100 · (metric − reference) / reference` per sample, against
    /// the reference's run at the same point and repetition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gain_over: Option<Spanned<ReferenceSpec>>,
    /// Plot `100 · (reference − metric) / reference` likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduction_over: Option<Spanned<ReferenceSpec>>,
}

/// The run a relative panel compares with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum ReferenceSpec {
    /// A series: one of the experiment's, or any short name of the kind.
    Series(String),
    /// The same series with these parameters overridden.
    Params {
        /// The overrides.
        params: toml::Table,
    },
}

impl PanelSpec {
    /// The reference of a relative panel, and whether the panel plots a
    /// reduction (rather than a gain).
    pub(crate) fn reference(&self) -> Option<(&Spanned<ReferenceSpec>, bool)> {
        match (&self.gain_over, &self.reduction_over) {
            (Some(r), _) => Some((r, false)),
            (None, Some(r)) => Some((r, true)),
            (None, None) => None,
        }
    }
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

/// The longest part of an `id` between slashes, in bytes: results and cells
/// folders are named after the parts, and a file name holds at most 255
/// bytes on common file systems; the margin leaves room for the tool's
/// staging names.
pub(crate) const MAX_ID_PART: usize = 200;

/// The first pass: the format version and the kind.
#[derive(Deserialize)]
struct Head {
    version: Option<Spanned<toml::Value>>,
    kind: Option<Spanned<String>>,
}

impl Experiment {
    /// Parses and validates an experiment from TOML `text`; `file` names it
    /// in error messages (`configs/baseline/backfilling.toml:12:3: ...`).
    /// Every point of every series is resolved and checked here, so a run
    /// never meets a bad parameter. The default [`Limits`] apply.
    pub fn parse(text: &str, file: &str) -> Result<Experiment, ConfigError> {
        Experiment::parse_with(text, file, &Limits::DEFAULT)
    }

    /// [`Experiment::parse`] under the caps `limits`.
    pub fn parse_with(text: &str, file: &str, limits: &Limits) -> Result<Experiment, ConfigError> {
        let at = |span: Option<Range<usize>>, message: String| {
            ConfigError::at(file, text, span, message)
        };
        let toml_err = |e: toml::de::Error| at(e.span(), e.message().trim().to_string());
        let head: Head = toml::from_str(text).map_err(toml_err)?;
        match &head.version {
            None => {
                return Err(at(
                    Some(0..0),
                    format!(
                        "missing `version = {CONFIG_VERSION}` at the top: this is a version 1 config \
                         (series listed inside [params]); see CHANGELOG.md for the migration"
                    ),
                ));
            }
            Some(v) if v.get_ref().as_integer() != Some(i64::from(CONFIG_VERSION)) => {
                return Err(at(
                    Some(v.span()),
                    format!(
                        "config version {} is not supported, expected {CONFIG_VERSION} (CHANGELOG.md lists the changes)",
                        v.get_ref()
                    ),
                ));
            }
            Some(_) => {}
        }
        let Some(kind_name) = head.kind else {
            return Err(at(None, "missing field `kind`".into()));
        };
        let entry = kinds::lookup(kind_name.get_ref()).ok_or_else(|| {
            at(
                Some(kind_name.span()),
                format!(
                    "unknown kind '{}', expected one of: {}",
                    kind_name.get_ref(),
                    kinds::names().join(", ")
                ),
            )
        })?;
        // Keys of earlier versions get their replacement named.
        if let Ok(table) = toml::de::DeTable::parse(text)
            && let Some(params) = table.get_ref().get("params")
            && let toml::de::DeValue::Table(params) = params.get_ref()
        {
            for (old, new) in entry.renamed {
                if let Some((k, _)) = params.get_key_value(*old) {
                    return Err(at(
                        Some(k.span()),
                        format!(
                            "params.{old} was replaced: {new} (CHANGELOG.md has the migration)"
                        ),
                    ));
                }
            }
        }
        let spec: RawSpec = toml::from_str(text).map_err(toml_err)?;
        // The base table, typed, so its errors point into the document.
        (entry.parse_document)(text).map_err(toml_err)?;
        let mut experiment = Experiment {
            spec,
            kind: entry,
            plan: Plan::empty(entry).map_err(|m| at(None, m))?,
            file: file.to_string(),
        };
        // Sizes first, so nothing grows with them before.
        plan::check_caps(&experiment, text, limits).map_err(|(span, message)| at(span, message))?;
        experiment
            .validate_common()
            .map_err(|(span, message)| at(span, message))?;
        experiment.plan =
            Plan::resolve(&experiment, text).map_err(|(span, message)| at(span, message))?;
        experiment
            .validate_references()
            .map_err(|(span, message)| at(span, message))?;
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

    /// The series names (legend entries).
    pub fn series(&self) -> Vec<String> {
        self.plan.series.iter().map(|s| s.name.clone()).collect()
    }

    /// The reading a sensitivity run tries, if this is one.
    pub fn reading(&self) -> Option<&Reading> {
        self.spec.reading.as_ref()
    }

    /// The confidence level of intervals (0.95 unless the config sets
    /// `confidence`).
    pub fn confidence(&self) -> f64 {
        self.spec.confidence.unwrap_or(0.95)
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

    /// The configuration as TOML, with every default of `[params]` filled in.
    pub fn resolved_toml(&self) -> String {
        toml::to_string(&self.resolved_spec())
            .unwrap_or_else(|e| format!("# cannot serialise the configuration: {e}\n"))
    }

    /// SHA-256 of [`Experiment::resolved_toml`]: what identifies the
    /// configuration a run used (`run.toml`, the cells of a sharded run).
    pub fn config_sha256(&self) -> String {
        crate::sha256_hex(self.resolved_toml().as_bytes())
    }

    /// The document with `[params]` resolved (every default filled in).
    pub(crate) fn resolved_spec(&self) -> Spec<toml::Table> {
        let s = &self.spec;
        Spec {
            version: s.version.clone(),
            id: s.id.clone(),
            title: s.title.clone(),
            paper: s.paper.clone(),
            kind: s.kind.clone(),
            seed: s.seed,
            repetitions: s.repetitions,
            confidence: s.confidence,
            workloads: s.workloads.clone(),
            sweep: s.sweep.clone(),
            series: s.series.clone(),
            trim: s.trim,
            params: self.plan.base.to_toml(),
            panels: s.panels.clone(),
            claims: s.claims.clone(),
            reading: s.reading.clone(),
        }
    }

    /// Cross-field checks: every reference resolves. Errors carry a span.
    fn validate_common(&self) -> Result<(), (Option<Range<usize>>, String)> {
        let s = &self.spec;
        let parts: Vec<&str> = s.id.get_ref().split('/').collect();
        let safe = |p: &&str| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        };
        // A paper's sensitivity runs live in configs/<paper>/sensitivity/.
        let shape = parts.len() == 2 || (parts.len() == 3 && parts[1] == "sensitivity");
        if !shape || !parts.iter().all(safe) {
            return Err((
                Some(s.id.span()),
                format!(
                    "id '{}' must look like '<paper>/<figure>' or '<paper>/sensitivity/<name>' \
                     (letters, digits, '-', '_', '.')",
                    s.id.get_ref()
                ),
            ));
        }
        if let Some(long) = parts.iter().find(|p| p.len() > MAX_ID_PART) {
            return Err((
                Some(s.id.span()),
                format!(
                    "id part '{}…' is {} bytes, above the limit of {MAX_ID_PART} (results and \
                     cells directories are named after it); shorten the id",
                    &long[..32],
                    long.len()
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
            Transform::check_list(&w.transforms)
                .map_err(|m| (here.clone(), format!("workload '{label}': {m}")))?;
            if let Estimate::UnderEstimate(f) = w.estimate
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
        match (axis.as_str(), &s.sweep.values) {
            ("workload", Some(_)) => {
                return Err((
                    axis_span,
                    "the workload axis takes its x values from [[workloads]]; remove `values`"
                        .into(),
                ));
            }
            ("workload", None) => {}
            (other, None) => {
                return Err((axis_span, format!("axis '{other}' needs `values = [...]`")));
            }
            (other, Some(values)) => {
                let here = Some(values.span());
                if values.get_ref().is_empty() {
                    return Err((here, format!("axis '{other}' needs at least one value")));
                }
                for v in values.get_ref() {
                    let ok = match v {
                        toml::Value::Float(f) => f.is_finite(),
                        toml::Value::Integer(_)
                        | toml::Value::String(_)
                        | toml::Value::Boolean(_) => true,
                        _ => false,
                    };
                    if !ok {
                        return Err((
                            here,
                            format!(
                                "axis '{other}': value {v} is not a finite number, a string or a boolean"
                            ),
                        ));
                    }
                    if other == "load"
                        && !v
                            .as_float()
                            .or(v.as_integer().map(|i| i as f64))
                            .is_some_and(|f| f > 0.0)
                    {
                        return Err((
                            here,
                            format!("load factors must be positive numbers, got {v}"),
                        ));
                    }
                }
                let xs = self.x_values();
                if let Some((i, dup)) = xs.iter().enumerate().find(|(i, x)| xs[..*i].contains(x)) {
                    let _ = i;
                    return Err((here, format!("axis '{other}': value {dup} is listed twice")));
                }
            }
        }
        if s.series.is_empty() {
            return Err((
                None,
                "give at least one series: `series = [\"name\", ...]`".into(),
            ));
        }
        if s.panels.is_empty() {
            return Err((None, "give at least one [[panels]] table".into()));
        }
        let metrics = (self.kind.metrics)();
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
            if let (Some(g), Some(_)) = (&p.gain_over, &p.reduction_over) {
                return Err((
                    Some(g.span()),
                    format!(
                        "panel '{}': give `gain_over` or `reduction_over`, not both",
                        p.id
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks that need the resolved series: claims name real series,
    /// panels and x values.
    fn validate_references(&self) -> Result<(), (Option<Range<usize>>, String)> {
        let s = &self.spec;
        let series = self.series();
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
                .as_ref()
                .map(|v| v.get_ref().iter().map(x_label).collect())
                .unwrap_or_default()
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

/// How an x value is written in data.csv and matched by claims.
pub(crate) fn x_label(v: &toml::Value) -> String {
    match v {
        toml::Value::Integer(i) => crate::csv::fmt_num(*i as f64),
        toml::Value::Float(f) => crate::csv::fmt_num(*f),
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
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
