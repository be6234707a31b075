//! A parsed experiment: the schema's document resolved against a
//! [`Registry`] into its kind, its policies and the typed parameters of
//! every point of every series.
//!
//! Parsing happens in two passes. The first reads only `kind`; the second
//! deserialises the whole document as [`Spec<P>`](crate::config::Spec)
//! where `P` is that kind's typed parameter table (see [`crate::kind`]), so
//! the kind's own keys are checked with the same precision as the common
//! ones.

use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::claim::{Claim, Names};
use crate::config::*;
use crate::config::{Facet, faceted};
use crate::encode::{list_shown, terminal_name};
use crate::kind::KindEntry;
use crate::limits::{self, Limits};
use crate::plan::Plan;
use crate::registry::{Policies, Registry};
use crate::seed::derive_seed;

/// A parsed, validated experiment: the common schema, its kind, and the
/// typed parameters of every point of every series.
pub struct Experiment {
    pub(crate) spec: RawSpec,
    pub(crate) kind: KindEntry,
    pub(crate) policies: Policies,
    pub(crate) plan: Plan,
    pub(crate) file: String,
    /// The configuration's text, to place errors found at run time
    /// ([`RunError::Located`](crate::RunError::Located)).
    pub(crate) text: String,
    /// Notes on claims left out (see [`Experiment::skipped_claims`]).
    pub(crate) skipped_claims: Vec<String>,
    /// Those claims, each with its place in the configuration's list: the
    /// resolved configuration (run.toml) keeps them, so a later `verify`
    /// of the results leaves them out, and says so, again.
    pub(crate) left_out: Vec<(usize, Claim)>,
}

/// The first pass: the format version and the kind.
#[derive(Deserialize)]
struct Head {
    version: Option<Spanned<toml::Value>>,
    kind: Option<Spanned<String>>,
}

impl Experiment {
    /// Parses and validates an experiment from TOML `text` against the
    /// papers' kinds ([`Registry::builtin`]); `file` names it in error
    /// messages (`configs/baseline/backfilling.toml:12:3: ...`). See
    /// [`Registry::parse`] for an experiment of a user's kind or policy.
    pub fn parse(text: &str, file: &str) -> Result<Experiment, ConfigError> {
        Registry::builtin().parse(text, file)
    }

    /// The registered policies this experiment's runs can name.
    pub fn policies(&self) -> &Policies {
        &self.policies
    }
}

impl Registry {
    /// Parses and validates an experiment from TOML `text` against this
    /// registry's kinds and policies; `file` names it in error messages
    /// (`configs/baseline/backfilling.toml:12:3: ...`). Every point of
    /// every series is resolved and checked here, so a run never meets a
    /// bad parameter. The default [`Limits`] apply.
    pub fn parse(&self, text: &str, file: &str) -> Result<Experiment, ConfigError> {
        self.parse_with(text, file, &Limits::DEFAULT)
    }

    /// [`Registry::parse`] under the caps `limits`.
    pub fn parse_with(
        &self,
        text: &str,
        file: &str,
        limits: &Limits,
    ) -> Result<Experiment, ConfigError> {
        let at = |span: Option<Range<usize>>, message: String| {
            ConfigError::at(file, text, span, message)
        };
        let toml_err = |e: toml::de::Error| {
            let message = crate::locate::with_field(text, e.span(), e.message().trim().into());
            // A missing required key gets its place, type and meaning.
            let at_top = e.span().is_none_or(|s| s.start == 0);
            match crate::schema_doc::missing_key_help(&message, at_top) {
                Some(help) => at(e.span(), format!("{message}; {help}")),
                None => at(e.span(), message),
            }
        };
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
            return Err(at(
                Some(0..0),
                format!(
                    "missing field `kind`, expected one of: {}",
                    self.kinds().join(", ")
                ),
            ));
        };
        let entry = *self.kind(kind_name.get_ref()).ok_or_else(|| {
            at(
                Some(kind_name.span()),
                format!(
                    "unknown kind '{}', expected one of: {}",
                    terminal_name(kind_name.get_ref()),
                    self.kinds().join(", ")
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
            policies: self.policies().clone(),
            plan: Plan::empty(&entry).map_err(|m| at(None, m))?,
            file: file.to_string(),
            text: text.to_string(),
            skipped_claims: Vec::new(),
            left_out: Vec::new(),
        };
        // Sizes first, so nothing grows with them before.
        limits::check_caps(&experiment, text, limits)
            .map_err(|(span, message)| at(span, message))?;
        check_names(&experiment.spec, text).map_err(|(span, message)| at(span, message))?;
        check_texts(&experiment.spec, text).map_err(|(span, message)| at(span, message))?;
        experiment
            .validate_common(text)
            .map_err(|(span, message)| at(span, message))?;
        experiment.plan =
            Plan::resolve(&experiment, text).map_err(|(span, message)| at(span, message))?;
        // Generated workloads as the runs see them: a sweep, a grid or a
        // series may make more of them than `[[workloads]]` writes.
        let plan = &experiment.plan;
        let written = experiment.spec.workloads.len();
        // A variant is made where the first cell that sees it says: a
        // point's swept workload field, else its series' `workload`.
        let place = |i: usize| {
            if i < written {
                return Some(experiment.spec.workloads[i].label.span());
            }
            plan.point_variants.iter().enumerate().find_map(|(p, row)| {
                let s = row.iter().position(|ws| ws.contains(&i))?;
                let point = &plan.points[p];
                if point.workload.is_empty() {
                    Some(experiment.spec.series[s].span())
                } else {
                    point.span.clone()
                }
            })
        };
        limits::check_generated(&experiment, &plan.variants, limits, &place)
            .map_err(|(span, message)| at(span, message))?;
        experiment
            .validate_references()
            .map_err(|(span, message)| at(span, message))?;
        experiment
            .check_panel_ids(text)
            .map_err(|(span, message)| at(span, message))?;
        Ok(experiment)
    }
}

impl Experiment {
    /// `<group>/<name>` (`<paper>/<figure>` for a paper's figure).
    pub fn id(&self) -> &str {
        self.spec.id.get_ref()
    }

    /// The one-line title.
    pub fn title(&self) -> &str {
        &self.spec.title
    }

    /// The paper citation, if the configuration gives one.
    pub fn paper(&self) -> Option<&str> {
        self.spec.paper.as_deref()
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
        // The workloads and the variants series make of them (a series may
        // name another trace).
        let workloads = if self.plan.variants.is_empty() {
            &self.spec.workloads
        } else {
            &self.plan.variants
        };
        for w in workloads {
            if let Some(name) = &w.trace {
                match out.iter_mut().find(|t| &t.name == name) {
                    Some(t) => {
                        t.lenient |= w.lenient;
                        t.stand_in |= w.stand_in;
                    }
                    None => out.push(TraceRef {
                        name: name.clone(),
                        lenient: w.lenient,
                        stand_in: w.stand_in,
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
        crate::encode::toml_document(
            &toml::to_string(&self.resolved_spec())
                .unwrap_or_else(|e| format!("# cannot serialise the configuration: {e}\n")),
        )
    }

    /// SHA-256 of [`Experiment::resolved_toml`]: what identifies the
    /// configuration a run used (`run.toml`, the cells of a sharded run).
    pub fn config_sha256(&self) -> String {
        crate::digest::sha256_hex(self.resolved_toml().as_bytes())
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
            claims: self.all_claims(),
            reading: s.reading.clone(),
        }
    }

    /// Cross-field checks: every reference resolves. Errors carry a span:
    /// a [`Spanned`] value's, or their key's in the document `text`.
    fn validate_common(&self, text: &str) -> Result<(), (Option<Range<usize>>, String)> {
        let s = &self.spec;
        let key = |k: &str| crate::config::value_span(text, &[k]);
        let parts: Vec<&str> = s.id.get_ref().split('/').collect();
        // A paper's sensitivity runs live in configs/<paper>/sensitivity/.
        let shape = parts.len() == 2 || (parts.len() == 3 && parts[1] == "sensitivity");
        if !shape || !parts.iter().all(|p| id_part(p)) {
            return Err((
                Some(s.id.span()),
                format!(
                    "id '{}' must look like '<group>/<name>' (a paper's figure, or your own: \
                     'study/load-sweep') or '<paper>/sensitivity/<name>' (letters, digits, '-', \
                     '_', '.', no part starting with '.' or '-'); results go to <out>/<group>/<name>/",
                    terminal_name(s.id.get_ref())
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
        check_reading(s, &parts, text)?;
        if s.sweep.log_x {
            let values = s.sweep.values.as_ref();
            let bad = values.and_then(|v| {
                v.get_ref()
                    .iter()
                    .enumerate()
                    .find(|(_, x)| !matches!(x.as_float().or(x.as_integer().map(|i| i as f64)), Some(f) if f > 0.0))
            });
            if self.is_categorical() || values.is_none() || bad.is_some() {
                // At the value at fault, else the values, else the axis.
                let at = bad
                    .and_then(|(i, _)| crate::config::element_span(text, &["sweep", "values"], i));
                let bad = bad.map(|(_, b)| b);
                return Err((
                    at.or(values.map(Spanned::span))
                        .or(Some(s.sweep.axis.span())),
                    format!(
                        "sweep.log_x needs a numeric sweep of positive values{}; drop log_x or \
                         sweep other values",
                        bad.map_or(String::new(), |b| format!(", not {b}"))
                    ),
                ));
            }
        }
        if let Some(trim) = s.trim
            && self.kind.one_sample
        {
            return Err((
                key("trim"),
                format!(
                    "`trim = {trim}` leaves out the highest and lowest samples of each run, and \
                     kind '{}' measures one sample per run, so it would change nothing; remove \
                     `trim` (each repetition is one run: see `repetitions`)",
                    s.kind
                ),
            ));
        }
        if let Some(c) = s.confidence.filter(|c| *c != 0.90 && *c != 0.95) {
            return Err((
                key("confidence"),
                format!(
                    "`confidence` is {}, expected 0.90 or 0.95 (absent: 0.95)",
                    profile::ShortFloat(c)
                ),
            ));
        }
        // Like `trim`: an option that could change nothing is refused.
        if let Some(c) = s.confidence
            && self.kind.one_sample
            && s.repetitions < 2
        {
            return Err((
                key("confidence"),
                format!(
                    "`confidence = {c}` sets the level of the intervals around each point, and \
                     kind '{}' measures one sample per run, so with `repetitions = {}` a point \
                     has one value and no interval; set `repetitions` to 2 or more, or remove \
                     `confidence`",
                    s.kind, s.repetitions
                ),
            ));
        }
        if s.workloads.is_empty() {
            return Err((
                key("workloads"),
                "`workloads` is empty, expected at least one [[workloads]] table".into(),
            ));
        }
        for (i, w) in s.workloads.iter().enumerate() {
            let label = w.label.get_ref();
            let shown = terminal_name(label);
            let here = Some(w.label.span());
            // An error about one field points at that field.
            let index = i.to_string();
            let field = |path: &[&str]| {
                let full: Vec<&str> = ["workloads", index.as_str()]
                    .into_iter()
                    .chain(path.iter().copied())
                    .collect();
                crate::config::value_span(text, &full).or(here.clone())
            };
            if s.workloads[..i].iter().any(|o| o.label.get_ref() == label) {
                return Err((
                    here,
                    format!("workload label '{shown}' is used twice; labels must be unique"),
                ));
            }
            crate::workload_checks::check(w).map_err(|f| {
                let at = if f.field.is_empty() {
                    here.clone()
                } else {
                    let path: Vec<&str> = f.field.iter().map(String::as_str).collect();
                    field(&path)
                };
                (at, format!("workload '{shown}': {}", f.message))
            })?;
        }
        crate::sweep::check_axis(self, text)?;
        if s.series.is_empty() {
            return Err((
                key("series"),
                format!(
                    "`series` is empty, expected at least one series: a name{} or a table \
                     {{ name, params, workload }}",
                    if self.kind.series_grammar.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", self.kind.series_grammar)
                    }
                ),
            ));
        }
        if s.panels.is_empty() {
            return Err((
                key("panels"),
                "`panels` is empty, expected at least one [[panels]] table".into(),
            ));
        }
        let metrics = (self.kind.metrics)();
        let mut ids = std::collections::HashSet::with_capacity(s.panels.len());
        for (i, p) in s.panels.iter().enumerate() {
            if !ids.insert(p.id.as_str()) {
                return Err((
                    crate::config::value_span(text, &["panels", &i.to_string(), "id"])
                        .or(Some(p.metric.span())),
                    format!("panel id '{}' is used twice", terminal_name(&p.id)),
                ));
            }
            if !metrics.iter().any(|m| m.name == p.metric.get_ref()) {
                let names: Vec<&str> = metrics.iter().map(|m| m.name).collect();
                return Err((
                    Some(p.metric.span()),
                    format!(
                        "unknown metric '{}' for kind '{}', expected one of: {}",
                        terminal_name(p.metric.get_ref()),
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
    /// A claim naming an x value the sweep does not have (values dropped
    /// from a copied configuration) is left out with a note
    /// ([`Experiment::skipped_claims`]); its other references are checked.
    fn validate_references(&mut self) -> Result<(), (Option<Range<usize>>, String)> {
        let s = &self.spec;
        let (ids, names, xs) = (self.panel_ids(), self.series(), self.x_values());
        let (panels, series, sweep) = (Names::new(&ids), Names::new(&names), Names::new(&xs));
        let mut skipped = Vec::new();
        for (i, c) in s.claims.iter().enumerate() {
            let missing = c.missing_xs(&sweep);
            c.validate(&panels, &series, &sweep, &missing)
                .map_err(|(key, m)| {
                    let index = i.to_string();
                    let path: Vec<&str> = ["claims", &index, "check", c.predicate()]
                        .into_iter()
                        .chain(key.iter().map(String::as_str))
                        .collect();
                    (value_span(&self.text, &path).or(Some(c.span())), m)
                })?;
            if !missing.is_empty() {
                // No line: the note is in summary.md, which must not change
                // with the layout of the file (`verify` reads the copy in
                // run.toml).
                skipped.push((
                    i,
                    format!(
                        "Claim \"{}\" was not checked: it names x = {}, which the sweep does not have (it has {}).",
                        c.text,
                        list_shown(&missing),
                        sweep.shown()
                    ),
                ));
            }
        }
        for (i, _) in skipped.iter().rev() {
            let claim = self.spec.claims.remove(*i);
            self.left_out.insert(0, (*i, claim));
        }
        self.skipped_claims = skipped.into_iter().map(|(_, note)| note).collect();
        Ok(())
    }

    /// Every claim of the configuration, those left out in their places.
    fn all_claims(&self) -> Vec<Claim> {
        let mut all = self.spec.claims.clone();
        for (i, claim) in &self.left_out {
            all.insert(*i, claim.clone());
        }
        all
    }

    /// The facets of the figure, in order: each a copy of every panel, for
    /// one workload (`[sweep] workloads = "panels"`) and one grid value
    /// (`[sweep.grid]`), workload by workload, grid values within;
    /// `[None]` without either.
    pub(crate) fn facets(&self) -> Vec<Option<usize>> {
        let (workloads, grid) = self.facet_counts();
        if workloads.is_none() && grid.is_none() {
            return vec![None];
        }
        (0..workloads.unwrap_or(1) * grid.unwrap_or(1))
            .map(Some)
            .collect()
    }

    /// The number of workload facets and of grid facets, when there are.
    fn facet_counts(&self) -> (Option<usize>, Option<usize>) {
        let sweep = &self.spec.sweep;
        let workloads = (sweep.workloads.as_ref().map(|f| *f.get_ref()) == Some(Facet::Panels))
            .then_some(self.spec.workloads.len());
        let grid = sweep.grid.as_ref().map(|g| g.values.get_ref().len());
        (workloads, grid)
    }

    /// The workload (index in `[[workloads]]`) and grid value (index in
    /// `[sweep.grid] values`) of `facet`.
    pub(crate) fn facet_parts(&self, facet: Option<usize>) -> (Option<usize>, Option<usize>) {
        let Some(f) = facet else {
            return (None, None);
        };
        let (workloads, grid) = self.facet_counts();
        let per_workload = grid.unwrap_or(1);
        (
            workloads.map(|_| f / per_workload),
            grid.map(|_| f % per_workload),
        )
    }

    /// The id of panel `panel` for facet `facet`, as in data.csv:
    /// `<panel>@<workload label>@<grid value>` (each part when there is).
    pub(crate) fn panel_id(&self, panel: &str, facet: Option<usize>) -> String {
        let (workload, grid) = self.facet_parts(facet);
        let mut id = panel.to_string();
        if let Some(w) = workload {
            id = faceted(&id, self.spec.workloads[w].label.get_ref());
        }
        if let (Some(g), Some(spec)) = (grid, &self.spec.sweep.grid) {
            id = faceted(&id, &x_label(&spec.values.get_ref()[g]));
        }
        id
    }

    /// No two panels share a composed id (`<panel>@<label>@<grid value>`):
    /// panel `b` on workload `A@B` and panel `b@A` on `B` would.
    fn check_panel_ids(&self, text: &str) -> Result<(), (Option<Range<usize>>, String)> {
        let mut seen = std::collections::HashMap::new();
        let shown = |i: usize, f: Option<usize>| {
            let p = terminal_name(&self.spec.panels[i].id);
            match self.facet_title(f) {
                Some(on) => format!("panel '{p}' ({})", terminal_name(&on)),
                None => format!("panel '{p}'"),
            }
        };
        for f in self.facets() {
            for (i, p) in self.spec.panels.iter().enumerate() {
                let id = self.panel_id(&p.id, f);
                if let Some((j, g)) = seen.insert(id.clone(), (i, f)) {
                    let span = crate::config::value_span(text, &["panels", &i.to_string(), "id"]);
                    return Err((
                        span,
                        format!(
                            "{} and {} both have the id '{}'; rename one (a `@` in a panel id, \
                             a workload label or a grid value can repeat a composed id)",
                            shown(j, g),
                            shown(i, f),
                            terminal_name(&id)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// What a facet's panels show, for their titles: the workload's label
    /// and `<grid label> = <value>`.
    pub(crate) fn facet_title(&self, facet: Option<usize>) -> Option<String> {
        let (workload, grid) = self.facet_parts(facet);
        let mut parts = Vec::new();
        if let Some(w) = workload {
            parts.push(self.spec.workloads[w].label.get_ref().clone());
        }
        if let (Some(g), Some(spec)) = (grid, &self.spec.sweep.grid) {
            parts.push(format!(
                "{} = {}",
                spec.label,
                x_label(&spec.values.get_ref()[g])
            ));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Every panel id of data.csv, in order: each panel, or with facets
    /// each panel of each workload.
    pub(crate) fn panel_ids(&self) -> Vec<String> {
        self.facets()
            .into_iter()
            .flat_map(|f| {
                self.spec
                    .panels
                    .iter()
                    .map(move |p| self.panel_id(&p.id, f))
            })
            .collect()
    }

    /// The claims left out because they name an x value the sweep does not
    /// have: one note each, for summary.md.
    pub fn skipped_claims(&self) -> &[String] {
        &self.skipped_claims
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each place costs a parse of the whole document, so names and texts
    /// are placed only for an error: with a place found for each of them,
    /// 20,000 panels took minutes before any check failed.
    #[test]
    fn a_valid_document_is_parsed_as_often_whatever_its_number_of_names() {
        let parses = |n: usize| {
            let series: Vec<String> = (0..n)
                .map(|i| format!("{{ name = \"s{i}\", params = {{ policy = \"easy\" }} }}"))
                .collect();
            let mut text = format!(
                "version = 2\nid = \"t/n\"\ntitle = \"t\"\nkind = \"backfilling\"\nseed = 1\n\
                 series = [{}]\n[[workloads]]\nlabel = \"w\"\nlublin99 = {{ procs = 8, jobs = 9 }}\n\
                 [sweep]\naxis = \"workload\"\nlabel = \"x\"\n",
                series.join(", ")
            );
            for i in 0..n {
                text +=
                    &format!("[[panels]]\nid = \"p{i}\"\nmetric = \"mean_bsld\"\ntitle = \"t\"\n");
            }
            crate::config::PARSES.with(|p| p.set(0));
            Experiment::parse(&text, "n.toml").unwrap();
            crate::config::PARSES.with(|p| p.get())
        };
        assert_eq!(parses(2), parses(40));
    }
}
