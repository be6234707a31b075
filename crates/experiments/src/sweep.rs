//! The sweep's points and the workloads each point's runs see.
//!
//! A point is one x value of the axis at one value of the grid
//! (`[sweep.grid]`, the second dimension), with the keys that move with the
//! axis (`[sweep] with`, a coupled sweep) written in. Every swept key is a
//! `[params]` key (dotted for nested tables), `load` (every workload scaled
//! to that offered load) or `workload.<field>` (any field of every
//! workload but its label: `workload.estimate`, `workload.trace`,
//! `workload.lublin99.load`). Points are numbered grid value by grid value,
//! x within: point `g × (x values) + x`.
//!
//! A run sees a variant of each workload: the workload with its point's
//! `workload.<field>` values and then its series' `workload = { ... }`
//! overrides merged in. Equal variants are one workload, prepared once.

use std::ops::Range;

use toml::Spanned;

use crate::config::{WorkloadSpec, x_label};
use crate::experiment::Experiment;
use crate::kind::KindEntry;
use crate::plan::SeriesDef;

type Located = (Option<Range<usize>>, String);

/// `[point][series][workload]`: the variant (index) a series sees at a
/// point in place of a workload.
pub(crate) type PointVariants = Vec<Vec<Vec<usize>>>;

/// One point of the sweep.
pub(crate) struct PointSpec {
    /// `[params]` with every swept parameter key written in.
    pub table: toml::Table,
    /// The workload fields the point sets (`workload.<field>` keys), as a
    /// table to merge into each workload's.
    pub workload: toml::Table,
    /// The offered load every workload is scaled to, when the sweep sets
    /// `load`.
    pub load: Option<f64>,
    /// Its x value (index in the experiment's x values).
    pub x: usize,
    /// Its grid value (index in `[sweep.grid] values`).
    pub grid: Option<usize>,
    /// Where it is, for messages and run labels: ` at <axis> = <x>` and
    /// `, <grid axis> = <value>` (empty on the workload axis without a
    /// grid).
    pub at: String,
    /// Where its values are written (for errors about them).
    pub span: Option<Range<usize>>,
}

/// Where a swept key's value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target<'k> {
    /// The offered load of every workload.
    Load,
    /// A field of every workload (`workload.<field>`; the field, dotted).
    Workload(&'k str),
    /// A key of `[params]` (dotted).
    Param(&'k str),
}

/// Where `key`'s values go.
pub(crate) fn target(key: &str) -> Target<'_> {
    if key == "load" {
        Target::Load
    } else if let Some(field) = key.strip_prefix("workload.") {
        Target::Workload(field)
    } else {
        Target::Param(key)
    }
}

/// Every key the sweep sets at its points: the axis (unless it is the
/// workload axis), the keys moving with it and the grid's axis.
pub(crate) fn swept_keys(experiment: &Experiment) -> Vec<&str> {
    let sweep = &experiment.spec.sweep;
    let mut keys = Vec::new();
    if !experiment.is_categorical() {
        keys.push(sweep.axis.get_ref().as_str());
    }
    if let Some(with) = &sweep.with {
        keys.extend(with.get_ref().keys().map(String::as_str));
    }
    if let Some(grid) = &sweep.grid {
        keys.push(grid.axis.get_ref().as_str());
    }
    keys
}

/// Where swept `key` is written in the document `text`: its name (the
/// axis, a `with` key or the grid's axis) and its values (the axis's
/// `values`, the `with` key's list or the grid's `values`). An error about
/// the key itself points at the first, one about a value at the second.
pub(crate) fn places(experiment: &Experiment, text: &str, key: &str) -> (Span, Span) {
    let sweep = &experiment.spec.sweep;
    if !experiment.is_categorical() && sweep.axis.get_ref() == key {
        return (
            Some(sweep.axis.span()),
            sweep.values.as_ref().map(Spanned::span),
        );
    }
    if let Some(with) = &sweep.with
        && with.get_ref().contains_key(key)
    {
        let path = ["sweep", "with", key];
        let name = crate::config::key_span(text, &path).or(Some(with.span()));
        let values = crate::config::value_span(text, &path).or(Some(with.span()));
        return (name, values);
    }
    if let Some(grid) = &sweep.grid
        && grid.axis.get_ref() == key
    {
        return (Some(grid.axis.span()), Some(grid.values.span()));
    }
    (Some(sweep.axis.span()), None)
}

/// A place in the document, if there is one.
pub(crate) type Span = Option<Range<usize>>;

/// Whether the sweep scales the load anywhere (axis, `with` or grid).
pub(crate) fn sets_load(experiment: &Experiment) -> bool {
    swept_keys(experiment)
        .into_iter()
        .any(|k| target(k) == Target::Load)
}

/// The number of grid values (1 without a grid).
pub(crate) fn grid_len(experiment: &Experiment) -> usize {
    experiment
        .spec
        .sweep
        .grid
        .as_ref()
        .map_or(1, |g| g.values.get_ref().len())
}

/// That `[sweep] with` and `[sweep.grid]` are well formed: keys the sweep
/// can set, one value per x value in each `with` list, values that are
/// finite numbers, strings or booleans, positive loads, and no key set
/// twice.
pub(crate) fn validate(experiment: &Experiment, text: &str) -> Result<(), Located> {
    let sweep = &experiment.spec.sweep;
    let xs = experiment.x_values().len();
    let mut seen: Vec<&str> = Vec::new();
    let check_key = |seen: &[&str], key: &str, span: Option<Range<usize>>| -> Result<(), Located> {
        let problem = match target(key) {
            _ if key == "workload" => Some(
                "`workload` is the categorical axis; sweep a workload field as `workload.<field>`"
                    .to_string(),
            ),
            Target::Workload("") => Some("name the field: `workload.<field>`".into()),
            Target::Workload(f) if f == "label" || f.starts_with("label.") => {
                Some("a sweep cannot rename workloads (`workload.label`)".into())
            }
            _ if seen.contains(&key) => Some(format!(
                "`{key}` is swept twice (axis, `with` and grid set different keys)"
            )),
            _ if target(key) == Target::Load && seen.iter().any(|s| target(s) == Target::Load) => {
                Some("the load is swept twice".into())
            }
            _ => None,
        };
        match problem {
            Some(m) => Err((span, m)),
            None => Ok(()),
        }
    };
    // The axis is held to what `with` and the grid are (a label swept on
    // the axis renamed nothing and changed the generator's seed).
    if !experiment.is_categorical() {
        check_key(&seen, sweep.axis.get_ref(), Some(sweep.axis.span()))?;
        seen.push(sweep.axis.get_ref());
    }
    if let Some(with) = &sweep.with {
        for (key, list) in with.get_ref() {
            // Its own place, not the axis's when both name one key.
            let path = ["sweep", "with", key.as_str()];
            let name = crate::config::key_span(text, &path).or(Some(with.span()));
            let span = crate::config::value_span(text, &path).or(Some(with.span()));
            check_key(&seen, key, name)?;
            seen.push(key);
            let Some(values) = list.as_array() else {
                return Err((
                    span,
                    format!(
                        "`with.{key}` is {list}, expected a list of {xs} values, one per x value"
                    ),
                ));
            };
            if values.len() != xs {
                return Err((
                    span,
                    format!(
                        "`with.{key}` has {} values, expected {xs}, one per x value (keys in `with` move together with the axis)",
                        values.len()
                    ),
                ));
            }
            check_values(&format!("with.{key}"), key, values, &span, text, &path)?;
        }
    }
    if let Some(grid) = &sweep.grid {
        let key = grid.axis.get_ref().as_str();
        check_key(&seen, key, Some(grid.axis.span()))?;
        let span = Some(grid.values.span());
        let values = grid.values.get_ref();
        if values.is_empty() {
            return Err((span, "the grid needs at least one value".into()));
        }
        let path = ["sweep", "grid", "values"];
        check_values("grid.values", key, values, &span, text, &path)?;
        let labels: Vec<String> = values.iter().map(x_label).collect();
        if let Some((i, dup)) = labels
            .iter()
            .enumerate()
            .find(|(i, l)| labels[..*i].contains(l))
        {
            return Err((
                crate::config::element_span(text, &path, i).or(span),
                format!("grid value {dup} is listed twice"),
            ));
        }
    }
    Ok(())
}

/// That `values` of `key` (written at `name`, the list at `span` and at
/// `path` in the document `text`) are scalars, and loads positive numbers.
/// An error points at the value at fault.
fn check_values(
    name: &str,
    key: &str,
    values: &[toml::Value],
    span: &Option<Range<usize>>,
    text: &str,
    path: &[&str],
) -> Result<(), Located> {
    let at = |i| crate::config::element_span(text, path, i).or(span.clone());
    check_scalars(
        &format!("`{name}`"),
        target(key) == Target::Load,
        values,
        at,
    )
}

/// That each of `values` (shown as `shown`; `at(i)` places the `i`-th) is
/// a finite number, a string or a boolean, and a positive number if they
/// are `load` factors.
fn check_scalars(
    shown: &str,
    load: bool,
    values: &[toml::Value],
    at: impl Fn(usize) -> Option<Range<usize>>,
) -> Result<(), Located> {
    for (i, v) in values.iter().enumerate() {
        let ok = match v {
            toml::Value::Float(f) => f.is_finite(),
            toml::Value::Integer(_) | toml::Value::String(_) | toml::Value::Boolean(_) => true,
            _ => false,
        };
        if !ok {
            return Err((
                at(i),
                format!("{shown}: value {v} is not a finite number, a string or a boolean"),
            ));
        }
        if load && number(v).is_none_or(|f| f <= 0.0) {
            return Err((
                at(i),
                format!(
                    "{shown}: load factors must be positive numbers, got {}",
                    toml_shown(v)
                ),
            ));
        }
    }
    Ok(())
}

/// That the axis's `values` are what the axis takes (none on the workload
/// axis; else at least one, each a finite number, a string or a boolean,
/// loads positive, no x label twice). An error about one value points at
/// that value.
pub(crate) fn check_axis(experiment: &Experiment, text: &str) -> Result<(), Located> {
    let sweep = &experiment.spec.sweep;
    let axis = sweep.axis.get_ref();
    let axis_span = Some(sweep.axis.span());
    let shown = crate::encode::terminal_name(axis);
    let values = match (axis.as_str(), &sweep.values) {
        ("workload", Some(values)) => {
            return Err((
                Some(values.span()),
                "the workload axis takes its x values from [[workloads]]; remove `values`".into(),
            ));
        }
        ("workload", None) => return Ok(()),
        (_, None) => return Err((axis_span, format!("axis '{shown}' needs `values = [...]`"))),
        (_, Some(values)) => values,
    };
    let list = Some(values.span());
    let path = ["sweep", "values"];
    let at = |i: usize| crate::config::element_span(text, &path, i).or(list.clone());
    if values.get_ref().is_empty() {
        return Err((list, format!("axis '{shown}' needs at least one value")));
    }
    check_scalars(
        &format!("axis '{shown}'"),
        axis == "load",
        values.get_ref(),
        at,
    )?;
    let xs = experiment.x_values();
    if let Some((i, dup)) = xs.iter().enumerate().find(|(i, x)| xs[..*i].contains(x)) {
        return Err((
            at(i),
            format!("axis '{shown}': value {dup} is listed twice"),
        ));
    }
    Ok(())
}

/// `v` as its TOML text (`-1.0`), but a float whose text runs to hundreds
/// of digits as `profile::ShortFloat` shows it (`-5e-324`).
fn toml_shown(v: &toml::Value) -> String {
    match v {
        toml::Value::Float(f) if profile::ShortFloat(*f).to_string().contains('e') => {
            profile::ShortFloat(*f).to_string()
        }
        _ => v.to_string(),
    }
}

fn number(v: &toml::Value) -> Option<f64> {
    v.as_float().or(v.as_integer().map(|i| i as f64))
}

/// Every point of the sweep, grid value by grid value, on `[params]`
/// table `base`.
pub(crate) fn points(experiment: &Experiment, base: &toml::Table) -> Vec<PointSpec> {
    let sweep = &experiment.spec.sweep;
    let xs = experiment.x_values();
    let axis = sweep.axis.get_ref().as_str();
    let values = sweep.values.as_ref().map(|v| v.get_ref().as_slice());
    let grid = sweep.grid.as_ref();
    let grid_values: Vec<Option<usize>> = match grid {
        Some(g) => (0..g.values.get_ref().len()).map(Some).collect(),
        None => vec![None],
    };
    let mut out = Vec::new();
    for g in grid_values {
        for (x, label) in xs.iter().enumerate() {
            let mut point = PointSpec {
                table: base.clone(),
                workload: toml::Table::new(),
                load: None,
                x,
                grid: g,
                at: String::new(),
                span: sweep
                    .values
                    .as_ref()
                    .map(Spanned::span)
                    .or(Some(sweep.axis.span())),
            };
            if !experiment.is_categorical() {
                if let Some(v) = values.and_then(|vs| vs.get(x)) {
                    point.set(axis, v);
                }
                point.at = format!(" at {axis} = {label}");
            }
            if let Some(with) = &sweep.with {
                for (key, list) in with.get_ref() {
                    if let Some(v) = list.as_array().and_then(|vs| vs.get(x)) {
                        point.set(key, v);
                    }
                }
            }
            if let (Some(g), Some(grid)) = (g, grid) {
                let v = &grid.values.get_ref()[g];
                point.set(grid.axis.get_ref(), v);
                let sep = if point.at.is_empty() { " at" } else { "," };
                point.at += &format!("{sep} {} = {}", grid.axis.get_ref(), x_label(v));
            }
            out.push(point);
        }
    }
    out
}

impl PointSpec {
    /// Writes `value` of swept `key` into the point.
    fn set(&mut self, key: &str, value: &toml::Value) {
        match target(key) {
            Target::Load => self.load = number(value),
            Target::Workload(field) => set_path(&mut self.workload, field, value.clone()),
            Target::Param(k) => set_path(&mut self.table, k, value.clone()),
        }
    }
}

/// The workloads runs can see: `workloads` themselves, then each variant
/// the points' `workload.<field>` values and the series' `workload`
/// overrides make of them (each once); and `[point][series][workload]`,
/// the variant (index) series `s` sees at point `p` in place of workload
/// `w`. `entries` are the series' places in the document.
pub(crate) fn variants(
    workloads: &[WorkloadSpec],
    points: &[PointSpec],
    defs: &[SeriesDef],
    entries: &[&Spanned<toml::Value>],
    kind: &KindEntry,
    places: &dyn Fn(&str) -> (Span, Span),
    field_at: &dyn Fn(&str, &PointSpec, usize) -> Span,
) -> Result<(Vec<WorkloadSpec>, PointVariants), Located> {
    let mut variants: Vec<WorkloadSpec> = workloads.to_vec();
    let mut texts: Vec<String> = variants.iter().map(workload_text).collect();
    let mut out = Vec::new();
    for point in points {
        let mut per_series = Vec::new();
        for (si, (def, entry)) in defs.iter().zip(entries).enumerate() {
            if def.workload.is_empty() && point.workload.is_empty() {
                per_series.push((0..workloads.len()).collect());
                continue;
            }
            // A complaint about the series' overrides points at the series,
            // one about the point's values at the values of the swept
            // workload field (the axis's, a `with` key's or the grid's).
            let swept_field = |field: &str| places(&format!("workload.{field}"));
            let first_field = point.workload.keys().next().map(String::as_str);
            let here = if def.workload.is_empty() {
                first_field
                    .and_then(|f| swept_field(f).1)
                    .or(point.span.clone())
            } else {
                Some(entry.span())
            };
            if def.workload.contains_key("label") {
                return Err((
                    here,
                    format!(
                        "series '{}': a series cannot rename a workload (`label`)",
                        def.name
                    ),
                ));
            }
            let mut mine = Vec::new();
            for (wi, w) in workloads.iter().enumerate() {
                // Where the value at `path` inside this workload comes from:
                // the point's sweep value, the series, or the entry.
                // A value the entry does not write and nothing here sets (a
                // key left out of a replaced source) is blamed on `here`.
                let entry_table = toml::Table::try_from(w).unwrap_or_default();
                let at_field = |path: &str| {
                    let set = |t: &toml::Table| get_path(t, path).is_some();
                    if set(&point.workload) || set(&def.workload) || set(&entry_table) {
                        field_at(&format!("workloads.{wi}.{path}"), point, si).or(here.clone())
                    } else {
                        here.clone()
                    }
                };
                let name = |w: &WorkloadSpec| {
                    format!(
                        "series '{}'{}: workload '{}'",
                        crate::encode::terminal_name(&def.name),
                        point.at,
                        crate::encode::terminal_name(w.label.get_ref())
                    )
                };
                let mut table =
                    toml::Table::try_from(w).map_err(|e| (here.clone(), e.to_string()))?;
                for overrides in [&point.workload, &def.workload] {
                    overlay(&mut table, overrides);
                }
                // Through text: the entry's spans belong to a document.
                let text = toml::to_string(&table).map_err(|e| (here.clone(), e.to_string()))?;
                let variant: WorkloadSpec =
                    toml::from_str(&text).map_err(|e: toml::de::Error| {
                        // At the value the parser refused, named.
                        let path = e
                            .span()
                            .and_then(|span| crate::locate::key_path_at(&text, span.start));
                        let at = path.as_deref().map_or(here.clone(), at_field);
                        let field = path.map_or_else(String::new, |p| format!("`{p}`: "));
                        (at, format!("{}: {field}{}", name(w), e.message().trim()))
                    })?;
                let estimate_set = [&point.workload, &def.workload]
                    .iter()
                    .any(|o| o.contains_key("estimate"));
                let unread = if estimate_set && !kind.estimates {
                    Some((
                        "estimate".to_string(),
                        format!(
                            "kind '{}' makes its own run-time estimates from [params] and reads \
                             no workload's: set `estimate` in no series and sweep no \
                             `workload.estimate`",
                            kind.name
                        ),
                    ))
                } else {
                    variant.unread_field(kind.name, kind.estimates)
                };
                if let Some((field, m)) = unread {
                    // A field the sweep sets: at the swept key, whose name
                    // is what no run reads; one a series sets: at the series.
                    let swept = get_path(&point.workload, &field).is_some()
                        && get_path(&def.workload, &field).is_none();
                    let at = if swept {
                        swept_field(&field).0.or(here)
                    } else {
                        here
                    };
                    return Err((
                        at,
                        format!(
                            "series '{}'{}: workload '{}': {m}",
                            crate::encode::terminal_name(&def.name),
                            point.at,
                            crate::encode::terminal_name(w.label.get_ref())
                        ),
                    ));
                }
                // Held to what the same values written in the entry are.
                if let Err(f) = crate::workload_checks::check(&variant) {
                    let at = if f.field.is_empty() {
                        here.clone()
                    } else {
                        at_field(&f.field.join("."))
                    };
                    let (was, is) = (source_key(w), source_key(&variant));
                    let replaced = if was == is {
                        String::new()
                    } else {
                        format!(
                            " (the entry's `{was}` was replaced by the `{is}` set here: a \
                             workload's source is replaced whole, so give every key it needs)"
                        )
                    };
                    return Err((at, format!("{}: {}{replaced}", name(w), f.message)));
                }
                let text = workload_text(&variant);
                let index = match texts.iter().position(|t| *t == text) {
                    Some(i) => i,
                    None => {
                        variants.push(variant);
                        texts.push(text);
                        variants.len() - 1
                    }
                };
                mine.push(index);
            }
            per_series.push(mine);
        }
        out.push(per_series);
    }
    Ok((variants, out))
}

/// The key that names `w`'s source (`trace`, `lublin99` or
/// `generated_by_kind`; the first given, `trace` if none is).
fn source_key(w: &WorkloadSpec) -> &'static str {
    if w.trace.is_some() {
        "trace"
    } else if w.lublin99.is_some() {
        "lublin99"
    } else if w.generated_by_kind.is_some() {
        "generated_by_kind"
    } else {
        "trace"
    }
}

/// Merges workload `overrides` into a workload's `table`; a new source
/// (`trace`, `lublin99` or `generated_by_kind`) replaces the old one.
fn overlay(table: &mut toml::Table, overrides: &toml::Table) {
    const SOURCES: [&str; 3] = ["trace", "lublin99", "generated_by_kind"];
    if SOURCES.iter().any(|k| overrides.contains_key(*k))
        && !SOURCES
            .iter()
            .filter(|k| overrides.contains_key(**k))
            .all(|k| table.contains_key(*k))
    {
        for k in SOURCES {
            table.remove(k);
        }
    }
    merge(table, overrides);
}

/// What `variant` changes in its configuration entry `base`: each key
/// whose value differs or is new, dotted and as TOML writes it
/// (`lublin99.load = 0.7`, `trace = "SDSC-SP2-1998-4.2-cln"`), joined by
/// `, `; none when the two are one entry.
pub(crate) fn variant_changes(base: &WorkloadSpec, variant: &WorkloadSpec) -> Option<String> {
    let table = |w: &WorkloadSpec| toml::Table::try_from(w).unwrap_or_default();
    let mut changes = Vec::new();
    changed_keys(&table(base), &table(variant), "", &mut changes);
    (!changes.is_empty()).then(|| changes.join(", "))
}

fn changed_keys(base: &toml::Table, variant: &toml::Table, prefix: &str, out: &mut Vec<String>) {
    for (k, v) in variant {
        let key = format!("{prefix}{k}");
        match (base.get(k), v) {
            (Some(b), _) if b == v => {}
            (Some(toml::Value::Table(b)), toml::Value::Table(t)) => {
                changed_keys(b, t, &format!("{key}."), out);
            }
            (_, toml::Value::Table(t)) => {
                changed_keys(&toml::Table::new(), t, &format!("{key}."), out);
            }
            _ => out.push(format!("{key} = {}", toml_shown(v))),
        }
    }
}

/// A workload entry as text, to tell variants apart.
fn workload_text(w: &WorkloadSpec) -> String {
    toml::to_string(w).unwrap_or_default()
}

/// The value at dotted `path` in `table`.
pub(crate) fn get_path<'t>(table: &'t toml::Table, path: &str) -> Option<&'t toml::Value> {
    let mut parts = path.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = value.as_table()?.get(part)?;
    }
    Some(value)
}

/// Writes `value` at dotted `path`, creating tables on the way.
pub(crate) fn set_path(table: &mut toml::Table, path: &str, value: toml::Value) {
    match path.split_once('.') {
        None => {
            table.insert(path.to_string(), value);
        }
        Some((head, rest)) => {
            let entry = table
                .entry(head.to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            if !entry.is_table() {
                *entry = toml::Value::Table(toml::Table::new());
            }
            if let toml::Value::Table(t) = entry {
                set_path(t, rest, value);
            }
        }
    }
}

/// Merges `overrides` into `table`: nested tables key by key, anything
/// else replaced.
pub(crate) fn merge(table: &mut toml::Table, overrides: &toml::Table) {
    for (k, v) in overrides {
        match (table.get_mut(k), v) {
            (Some(toml::Value::Table(t)), toml::Value::Table(o)) => merge(t, o),
            _ => {
                table.insert(k.clone(), v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert_eq!(target("load"), Target::Load);
        assert_eq!(target("workload.estimate"), Target::Workload("estimate"));
        assert_eq!(
            target("workload.lublin99.load"),
            Target::Workload("lublin99.load")
        );
        assert_eq!(target("table1.x"), Target::Param("table1.x"));
    }

    #[test]
    fn a_new_source_replaces_the_old_one() {
        let mut t: toml::Table = toml::from_str("label = 'a'\ntrace = 'X'").unwrap();
        overlay(
            &mut t,
            &toml::from_str("lublin99 = { procs = 4, jobs = 2 }").unwrap(),
        );
        assert!(!t.contains_key("trace"));
        assert!(t.contains_key("lublin99"));
        // A field of the same source merges into it.
        let mut t: toml::Table =
            toml::from_str("label = 'a'\nlublin99 = { procs = 4, jobs = 2 }").unwrap();
        overlay(
            &mut t,
            &toml::from_str("lublin99 = { load = 0.5 }").unwrap(),
        );
        assert_eq!(
            t["lublin99"].as_table().unwrap().len(),
            3,
            "procs, jobs and load"
        );
    }

    #[test]
    fn dotted_paths_and_merge() {
        let mut t = toml::Table::new();
        set_path(&mut t, "a.b", toml::Value::Integer(1));
        set_path(&mut t, "c", toml::Value::Boolean(true));
        assert_eq!(get_path(&t, "a.b"), Some(&toml::Value::Integer(1)));
        let o: toml::Table = toml::from_str("a = { d = 2 }\nc = false").unwrap();
        merge(&mut t, &o);
        assert_eq!(get_path(&t, "a.b"), Some(&toml::Value::Integer(1)));
        assert_eq!(get_path(&t, "a.d"), Some(&toml::Value::Integer(2)));
        assert_eq!(get_path(&t, "c"), Some(&toml::Value::Boolean(false)));
    }
}
