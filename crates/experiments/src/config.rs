//! The experiment schema, as data: one TOML file per figure, read with
//! `deny_unknown_fields` everywhere, so every unknown key or bad value is an
//! error that names the file, line and column. Parsing and checking it
//! against a registry is [`crate::experiment`]'s.

use std::ops::Range;

use serde::{Deserialize, Serialize};
use swf_io::Estimate;
use toml::Spanned;

use crate::claim::Claim;
pub use crate::error::ConfigError;

/// The config format this version reads (`version = 2`).
pub const CONFIG_VERSION: u32 = 2;

/// The document with its `[params]` table as written.
pub(crate) type RawSpec = Spec<Option<Spanned<toml::Table>>>;

/// The whole TOML document, generic over the kind's parameter table.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec<P> {
    /// The config format (see [`CONFIG_VERSION`]).
    pub version: Spanned<u32>,
    /// `<group>/<name>`, e.g. `baseline/backfilling` (a paper's figure)
    /// or `study/utility-status-period` (a user's own study).
    pub id: Spanned<String>,
    /// One-line title, used on the figure and in summaries.
    pub title: String,
    /// Citation of the paper (or "baseline" literature) the figure
    /// reproduces; optional for a user's own study.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<String>,
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
    /// When the trace is found nowhere, use a seeded Lublin99 stand-in of
    /// its machine size instead of failing (as `--stand-in` does for every
    /// trace). Absent: a missing trace is an error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
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
    /// Rescale arrivals to this offered load (`Σ run × size / (procs ×
    /// span)`); absent for the model's own arrivals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// Rescale arrivals to this many jobs per hour; absent for the model's
    /// own. Not with `load`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrival_rate: Option<f64>,
    /// The estimate model writing requested times: `"none"` (the default:
    /// requested equals exact, and the summary says so), `"f:F"` or
    /// `"modal:F"` (see `swf_io::lublin99::Estimates`).
    #[serde(skip_serializing_if = "swf_io::lublin99::Estimates::is_none")]
    pub estimates: swf_io::lublin99::Estimates,
}

impl WorkloadSpec {
    /// A field of this workload its runs would not read (its path in the
    /// workload's table, dotted: `lublin99.estimates`) and why: a
    /// trace's fields (`transforms`, `estimate`, `lenient`, `stand_in`) on
    /// a workload the kind generates, `lenient` and `stand_in` on a Lublin99
    /// workload, or estimates for a kind that makes its own (`estimates`
    /// false: [`Kind::ESTIMATES`](crate::Kind::ESTIMATES)). Refused, never
    /// ignored.
    pub(crate) fn unread_field(&self, kind: &str, estimates: bool) -> Option<(String, String)> {
        let generated = self.generated_by_kind.is_some();
        if generated && !self.transforms.is_empty() {
            return Some((
                "transforms".into(),
                "`transforms` act on the jobs of a trace or a lublin99 workload; this one is \
                 `generated_by_kind` (the kind makes its jobs from [params]): remove them"
                    .into(),
            ));
        }
        if generated && self.estimate != Estimate::default() {
            return Some((
                "estimate".into(),
                "`estimate` picks a trace's estimates; this workload is `generated_by_kind` \
                 (the kind makes its jobs from [params]): remove it"
                    .into(),
            ));
        }
        let trace_only = [("lenient", self.lenient), ("stand_in", self.stand_in)];
        if let Some((key, _)) = trace_only.iter().find(|(_, set)| *set)
            && self.trace.is_none()
        {
            return Some((
                key.to_string(),
                format!(
                    "`{key}` applies to a trace file; this workload has none ({}): remove it",
                    if generated {
                        "`generated_by_kind`"
                    } else {
                        "`lublin99`"
                    }
                ),
            ));
        }
        if !estimates {
            let model = self
                .lublin99
                .as_ref()
                .is_some_and(|g| !g.estimates.is_none());
            if model || matches!(self.estimate, Estimate::UnderEstimate(_)) {
                let field = if model {
                    "lublin99.estimates"
                } else {
                    "estimate"
                };
                return Some((
                    field.into(),
                    format!(
                        "kind '{kind}' makes its own run-time estimates from [params] and reads \
                         no workload's: remove `{field}`"
                    ),
                ));
            }
        }
        None
    }
}

impl Lublin99Spec {
    /// The arrivals this spec asks for, or what is wrong with them.
    pub(crate) fn arrivals(&self) -> Result<swf_io::lublin99::Arrivals, String> {
        use swf_io::lublin99::Arrivals;
        let positive = |key: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(v)
            } else {
                Err(format!(
                    "lublin99 {key} is {v}, expected a finite number above 0"
                ))
            }
        };
        match (self.load, self.arrival_rate) {
            (None, None) => Ok(Arrivals::Model),
            (Some(l), None) => positive("load", l).map(Arrivals::Load),
            (None, Some(r)) => positive("arrival_rate", r).map(Arrivals::Rate),
            (Some(_), Some(_)) => Err("lublin99: give `load` or `arrival_rate`, not both".into()),
        }
    }
}

impl Default for Lublin99Spec {
    /// No machine and no jobs (both must be given), two classes.
    fn default() -> Self {
        Lublin99Spec {
            procs: 0,
            jobs: 0,
            two_class: true,
            load: None,
            arrival_rate: None,
            estimates: swf_io::lublin99::Estimates::None,
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
    /// With several workloads on a numeric axis: each workload its own
    /// panels (`"panels"`: panel ids `<panel>@<workload label>`) or its own
    /// lines (`"series"`: series names `<series>@<workload label>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workloads: Option<Spanned<Facet>>,
    /// A logarithmic x axis (numeric sweeps of positive values only),
    /// ticked at the swept values (or at powers of ten when there are many).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log_x: bool,
    /// Keys that move with the axis (a coupled sweep): each key (a
    /// `[params]` key, `load` or `workload.<field>`) takes the value at the
    /// same position in its list, one per x value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<Spanned<toml::Table>>,
    /// A second dimension: every x value at every grid value, a copy of
    /// every panel per grid value (ids `<panel>@<value>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridSpec>,
}

/// `[sweep.grid]`: the sweep's second dimension.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GridSpec {
    /// `load`, `workload.<field>` or any key of `[params]`.
    pub axis: Spanned<String>,
    /// Its values: numbers, strings or booleans.
    pub values: Spanned<Vec<toml::Value>>,
    /// What the values are, with unit (panel titles say `<label> = <value>`).
    pub label: String,
}

/// How several workloads share a numeric axis (`[sweep] workloads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Facet {
    /// A copy of every panel per workload.
    Panels,
    /// A copy of every series per workload.
    Series,
}

/// The name of `name` (a panel id or a series name) for workload `label`
/// when the workloads are facets.
pub(crate) fn faceted(name: &str, label: &str) -> String {
    format!("{name}@{label}")
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

/// The run a relative panel compares with: a string or a table holding
/// `params` only (any other key is refused, not ignored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged, try_from = "toml::Value")]
pub(crate) enum ReferenceSpec {
    /// A series: one of the experiment's, or any short name of the kind.
    Series(String),
    /// The same series with these parameters overridden.
    Params {
        /// The overrides.
        params: toml::Table,
    },
}

impl TryFrom<toml::Value> for ReferenceSpec {
    type Error = String;
    fn try_from(value: toml::Value) -> Result<Self, String> {
        const WHAT: &str = "a reference is a series' name or `{ params = { ... } }` (the panel's series with \
             these parameters, on the same workloads)";
        match value {
            toml::Value::String(name) => Ok(ReferenceSpec::Series(name)),
            toml::Value::Table(mut t) => {
                if let Some(key) = t.keys().find(|k| *k != "params") {
                    let key = crate::encode::terminal_name(key);
                    return Err(format!("unknown key `{key}`: {WHAT}"));
                }
                match t.remove("params") {
                    Some(toml::Value::Table(params)) => Ok(ReferenceSpec::Params { params }),
                    Some(other) => Err(format!(
                        "`params` is {}, not a table: {WHAT}",
                        other.type_str()
                    )),
                    None => Err(format!("missing `params`: {WHAT}")),
                }
            }
            other => Err(format!("{} is not a reference: {WHAT}", other.type_str())),
        }
    }
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

/// The span of the value at `path` in the document `text`, if it is
/// written there: keys from the top (`["confidence"]`,
/// `["params", "table1", "rate"]`), a number indexing an array
/// (`["workloads", "1", "transforms", "0"]`). Every validation error that
/// has no [`Spanned`] value of its own points at its key's value through
/// this, so it names the file, line and column like the parser's errors.
pub(crate) fn value_span(text: &str, path: &[&str]) -> Option<Range<usize>> {
    #[cfg(test)]
    PARSES.with(|n| n.set(n.get() + 1));
    let doc = toml::de::DeTable::parse(text).ok()?;
    let (first, rest) = path.split_first()?;
    let mut value = doc.get_ref().get(*first)?;
    for part in rest {
        value = match value.get_ref() {
            toml::de::DeValue::Table(t) => t.get(*part)?,
            toml::de::DeValue::Array(a) => a.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value.span())
}

/// Where element `i` of the list at `path` is written in the document
/// `text`, if it is.
pub(crate) fn element_span(text: &str, path: &[&str], i: usize) -> Option<Range<usize>> {
    let index = i.to_string();
    let full: Vec<&str> = path.iter().copied().chain([index.as_str()]).collect();
    value_span(text, &full)
}

/// The span of the key (not its value) at `path` (as for [`value_span`]),
/// if the document writes it: where an error about the key's name points
/// (an axis `with` key no run can set, say).
pub(crate) fn key_span(text: &str, path: &[&str]) -> Option<Range<usize>> {
    #[cfg(test)]
    PARSES.with(|n| n.set(n.get() + 1));
    let doc = toml::de::DeTable::parse(text).ok()?;
    let (last, parents) = path.split_last()?;
    let mut table = doc.get_ref();
    let mut array: Option<&toml::de::DeArray<'_>> = None;
    for part in parents {
        let value = match array.take() {
            Some(a) => a.get(part.parse::<usize>().ok()?)?,
            None => table.get(*part)?,
        };
        match value.get_ref() {
            toml::de::DeValue::Table(t) => table = t,
            toml::de::DeValue::Array(a) => array = Some(a),
            _ => return None,
        }
    }
    if array.is_some() {
        return None;
    }
    table.get_key_value(*last).map(|(k, _)| k.span())
}

/// That every name the document gives is one every output writes as it is
/// ([`encode::check_name`](crate::encode::check_name)): workload labels,
/// panel ids, series names, and the string values of the sweep and its
/// grid (x values in data.csv, parts of panel ids). The error points at
/// the name and says which field it is.
pub(crate) fn check_names(
    spec: &RawSpec,
    text: &str,
) -> Result<(), (Option<Range<usize>>, String)> {
    // `span` finds the place only for an error: each call parses the
    // document again, and a study may give thousands of names.
    let check = |field: &str, name: &str, span: &dyn Fn() -> Option<Range<usize>>| {
        let blank = !name.is_empty() && name.trim().is_empty();
        let checked = if blank {
            Err("is only white space, which reads as no name at all; give it a name".into())
        } else {
            crate::encode::check_name(name)
        };
        checked.map_err(|why| {
            let shown = crate::encode::terminal_name(name);
            (span(), format!("{field} '{shown}' {why}"))
        })
    };
    for w in &spec.workloads {
        check("workload label", w.label.get_ref(), &|| {
            Some(w.label.span())
        })?;
    }
    for (i, p) in spec.panels.iter().enumerate() {
        let span = || value_span(text, &["panels", &i.to_string(), "id"]);
        check("panel id", &p.id, &span)?;
    }
    for (i, entry) in spec.series.iter().enumerate() {
        let name = match entry.get_ref() {
            toml::Value::String(name) => name,
            toml::Value::Table(t) => match t.get("name") {
                Some(toml::Value::String(name)) => name,
                // Not a name: the series' own check says what it is.
                _ => continue,
            },
            _ => continue,
        };
        let span = || {
            let at = value_span(text, &["series", &i.to_string(), "name"]);
            at.or(Some(entry.span()))
        };
        check("series", name, &span)?;
    }
    let grid = spec.sweep.grid.as_ref().map(|g| &g.values);
    let axes = [
        (
            "sweep.values",
            spec.sweep.values.as_ref(),
            &["sweep", "values"][..],
        ),
        ("sweep.grid.values", grid, &["sweep", "grid", "values"][..]),
    ];
    for (field, values, path) in axes {
        let Some(values) = values else { continue };
        for (i, v) in values.get_ref().iter().enumerate() {
            if let toml::Value::String(x) = v {
                let span = || element_span(text, path, i).or(Some(values.span()));
                check(&format!("{field} value"), x, &span)?;
            }
        }
    }
    Ok(())
}

/// That no text the document gives its readers is empty or only white
/// space (a figure or sub-plot without a title, an axis without a name, a
/// claim without words): the title, the citation, the sweep's and its
/// grid's labels, each panel's title and y label, each claim's text,
/// paper value, explanation and cause, and the description of a workload
/// the kind generates. Optional texts may be left out (a panel's title
/// then is its metric's); written, they say something. The error points
/// at the text and says which field it is.
pub(crate) fn check_texts(
    spec: &RawSpec,
    text: &str,
) -> Result<(), (Option<Range<usize>>, String)> {
    // (path of the value, the field as a message names it, what to do)
    let mut texts: Vec<(Vec<String>, String, String, &str)> = Vec::new();
    let mut add = |path: &[&str], field: String, value: Option<&str>, what: &'static str| {
        if let Some(v) = value {
            let path = path.iter().map(|p| p.to_string()).collect();
            texts.push((path, field, v.to_string(), what));
        }
    };
    let title = Some(spec.title.as_str());
    add(
        &["title"],
        "`title`".into(),
        title,
        "give the study a title",
    );
    let paper = spec.paper.as_deref();
    add(
        &["paper"],
        "`paper`".into(),
        paper,
        "give the citation, or remove `paper`",
    );
    let label = Some(spec.sweep.label.as_str());
    add(
        &["sweep", "label"],
        "sweep `label`".into(),
        label,
        "name the x axis, with its unit",
    );
    if let Some(g) = &spec.sweep.grid {
        let (field, label) = ("sweep.grid `label`".into(), Some(g.label.as_str()));
        add(
            &["sweep", "grid", "label"],
            field,
            label,
            "say what the grid values are",
        );
    }
    for (i, w) in spec.workloads.iter().enumerate() {
        let field = format!(
            "workload '{}': `generated_by_kind`",
            crate::encode::terminal_name(w.label.get_ref())
        );
        let path = ["workloads", &i.to_string(), "generated_by_kind"];
        let what = "describe the jobs the kind makes, for the summary";
        add(&path, field, w.generated_by_kind.as_deref(), what);
    }
    for (i, p) in spec.panels.iter().enumerate() {
        let (i, id) = (i.to_string(), crate::encode::terminal_name(&p.id));
        let what = "write one, or remove the key for the metric's";
        let field = |key: &str| format!("panel '{id}': `{key}`");
        add(
            &["panels", &i, "title"],
            field("title"),
            p.title.as_deref(),
            what,
        );
        add(
            &["panels", &i, "y_label"],
            field("y_label"),
            p.y_label.as_deref(),
            what,
        );
    }
    for (i, c) in spec.claims.iter().enumerate() {
        let i = i.to_string();
        let field = |key: &str| format!("claim `{key}`");
        let words = "give the paper's words the claim checks";
        add(&["claims", &i, "text"], field("text"), Some(&c.text), words);
        let what = "write it, or remove the key";
        let value = c.paper_value.as_deref();
        add(
            &["claims", &i, "paper_value"],
            field("paper_value"),
            value,
            what,
        );
        let value = c.explanation.as_deref();
        add(
            &["claims", &i, "explanation"],
            field("explanation"),
            value,
            what,
        );
        if let Some(cause) = &c.cause {
            let key = match cause {
                crate::claim::Cause::Paper(_) => "paper",
                crate::claim::Cause::Data(_) => "data",
                crate::claim::Cause::Reading(_) => "reading",
            };
            let what = "give the quote, the missing data or the sensitivity run's id";
            let path = ["claims", &i, "cause", key];
            add(
                &path,
                field(&format!("cause.{key}")),
                Some(cause.detail()),
                what,
            );
        }
    }
    for (path, field, value, what) in texts {
        if value.trim().is_empty() {
            let parts: Vec<&str> = path.iter().map(String::as_str).collect();
            let shown = if value.is_empty() {
                "empty"
            } else {
                "only white space"
            };
            return Err((
                value_span(text, &parts),
                format!("{field} is {shown}; {what}"),
            ));
        }
    }
    Ok(())
}

/// A part of an `id` between slashes may be used as it is: letters,
/// digits, `-`, `_` and `.`. Not hidden: `.usched-staging` and
/// `.usched-results` are the tool's own names beside and inside results
/// (and `.`, `..`). Not an option: an id is an argument of `reproduce` (in
/// the job scripts of `slurm`, say), and `-x/y` would read as a flag.
pub(crate) fn id_part(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with(['.', '-'])
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// A sensitivity run, and only one, tries a reading of a figure of its own
/// paper: the sensitivity table joins the two by `varies`. `parts` are the
/// id's parts between slashes, already checked for shape.
pub(crate) fn check_reading(
    s: &RawSpec,
    parts: &[&str],
    text: &str,
) -> Result<(), (Option<Range<usize>>, String)> {
    let key = |k: &str| value_span(text, &[k]);
    let sensitivity = parts.len() == 3;
    match (&s.reading, sensitivity) {
        (None, true) => {
            return Err((
                Some(s.id.span()),
                format!(
                    "id '{}' is a sensitivity run's, which needs a [reading] table \
                     (`varies`, `name`, `support`: the figure it varies, the reading it \
                     tries, the paper's text for it); add one, or give the id the shape \
                     '<group>/<name>'",
                    s.id.get_ref()
                ),
            ));
        }
        (Some(_), false) => {
            return Err((
                key("reading"),
                format!(
                    "[reading] is for a paper's sensitivity runs, whose id is \
                     '<paper>/sensitivity/<name>', and '{}' is not one; remove it, or \
                     give the id that shape",
                    s.id.get_ref()
                ),
            ));
        }
        (Some(r), true) => {
            let field = |f: &str| value_span(text, &["reading", f]).or(key("reading"));
            let figure: Vec<&str> = r.varies.split('/').collect();
            if figure.len() != 2 || figure[0] != parts[0] || !id_part(figure[1]) {
                return Err((
                    field("varies"),
                    format!(
                        "reading `varies` is '{}', expected the id of a figure of the same \
                         paper: '{}/<name>' (`{}/fig5`, say)",
                        crate::encode::terminal_name(&r.varies),
                        parts[0],
                        parts[0]
                    ),
                ));
            }
            for (f, v) in [("name", &r.name), ("support", &r.support)] {
                if v.trim().is_empty() {
                    return Err((
                        field(f),
                        format!("reading `{f}` is empty; say what the run tries and why"),
                    ));
                }
            }
        }
        (None, false) => {}
    }
    Ok(())
}

/// The longest part of an `id` between slashes, in bytes: results and cells
/// folders are named after the parts, and a file name holds at most 255
/// bytes on common file systems; the margin leaves room for the tool's
/// staging names.
pub(crate) const MAX_ID_PART: usize = 200;

/// How an x value is written in data.csv and matched by claims.
pub(crate) fn x_label(v: &toml::Value) -> String {
    match v {
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => crate::numfmt::fmt_exact(*f),
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
    /// Whether any workload asks for a stand-in when it is missing
    /// (`stand_in = true`).
    pub stand_in: bool,
}

#[cfg(test)]
thread_local! {
    /// The documents [`value_span`] and [`key_span`] parsed on this thread.
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_points_at_line_and_column() {
        let text = "a = 1\nbb = 2\n";
        let e = ConfigError::at("f.toml", text, Some(9..11), "bad".into());
        assert_eq!(e.line(), Some(2));
        assert!(e.to_string().starts_with("f.toml:2:4: bad"), "{e}");
    }

    #[test]
    fn value_spans_follow_dotted_paths() {
        let text = "confidence = 0.5\nseries = []\n[params]\nbeta = 0.5\n[params.t]\nrate = 2\n";
        let at = |path: &[&str]| value_span(text, path).map(|s| &text[s]);
        assert_eq!(at(&["confidence"]), Some("0.5"));
        assert_eq!(at(&["series"]), Some("[]"));
        assert_eq!(at(&["params", "t", "rate"]), Some("2"));
        assert_eq!(at(&["params", "gamma"]), None);
        assert_eq!(at(&["confidence", "x"]), None);
        assert_eq!(value_span("not = [toml", &["not"]), None);
        let text = "[[w]]\nt = [1, { s = 2 }]\n[[w]]\nlabel = \"b\"\n";
        let at = |path: &[&str]| value_span(text, path).map(|s| &text[s]);
        assert_eq!(at(&["w", "0", "t", "1", "s"]), Some("2"));
        assert_eq!(at(&["w", "1", "label"]), Some("\"b\""));
        assert_eq!(at(&["w", "2"]), None);
        assert_eq!(at(&["w", "x"]), None);
    }
}
