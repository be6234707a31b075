//! Resolving an experiment's parameters: for every point of the sweep and
//! every series, the kind's typed parameters, built as data.
//!
//! A point's table is `[params]` with the sweep axis's value written in
//! (any key, dotted for nested tables); a series' table is its point's with
//! the series' overrides merged on top. Each table is deserialised into the
//! kind's `Params` and checked, so a bad value anywhere is found at parse
//! time, and the error names the file, line, key and value. Reference runs
//! (a kind's own, and the runs relative panels compare with) are resolved
//! the same way. A run's identity is its resolved parameters, so runs that
//! coincide (a reference that is also a plotted series) run once.

use std::ops::Range;

use crate::config::{Experiment, ReferenceSpec, x_label};
use crate::kind::{KindEntry, ParamError, Resolved, Setup};

/// A legend entry and the parameter overrides it stands for.
pub(crate) struct SeriesDef {
    pub name: String,
    pub overrides: toml::Table,
}

/// One resolved parameter set.
pub(crate) struct Resolution {
    pub params: Box<dyn Resolved>,
    /// The canonical text of the parameters: equal keys, equal runs.
    pub key: String,
    /// The table the parameters came from (references build on it).
    pub table: toml::Table,
}

/// Every parameter set an experiment runs.
pub(crate) struct Plan {
    pub series: Vec<SeriesDef>,
    /// `[params]` alone, with defaults (for notes and run.toml).
    pub base: Box<dyn Resolved>,
    /// `[point][series]`.
    pub cells: Vec<Vec<Resolution>>,
    /// `[point][series]`: the run a cell's kind measures it against.
    pub kind_refs: Vec<Vec<Option<Resolution>>>,
    /// `[panel][point][series]`: the run a relative panel compares with.
    pub panel_refs: Vec<Vec<Vec<Option<Resolution>>>>,
}

type Located = (Option<Range<usize>>, String);

impl Plan {
    /// A plan with no points, before resolution.
    pub fn empty(kind: &KindEntry) -> Result<Plan, String> {
        Ok(Plan {
            series: Vec::new(),
            base: (kind.resolve)(toml::Table::new())?,
            cells: Vec::new(),
            kind_refs: Vec::new(),
            panel_refs: Vec::new(),
        })
    }

    /// Resolves and checks every parameter set of `experiment`, whose
    /// document is `text`.
    pub fn resolve(experiment: &Experiment, text: &str) -> Result<Plan, Located> {
        let spec = &experiment.spec;
        let kind = experiment.kind;
        let base_table = spec
            .params
            .as_ref()
            .map(|p| p.get_ref().clone())
            .unwrap_or_default();
        let params_span = spec.params.as_ref().map(|p| p.span());
        let base = resolve(kind, base_table.clone()).map_err(|m| (params_span.clone(), m))?;
        let setup = Setup {
            axis: spec.sweep.axis.get_ref(),
            workloads: spec.workloads.len(),
            generated: spec.workloads.iter().all(|w| w.generated_by_kind.is_some()),
        };
        let axis = spec.sweep.axis.get_ref().as_str();
        let sets_param = axis != "workload" && axis != "load";

        let series = series_defs(experiment)?;
        if sets_param {
            for (def, entry) in series.iter().zip(&spec.series) {
                if get_path(&def.overrides, axis).is_some() {
                    return Err((
                        Some(entry.span()),
                        format!(
                            "series '{}' sets `{axis}`, the sweep axis: every point would be the same; \
                             drop it from the series or sweep another key",
                            def.name
                        ),
                    ));
                }
            }
        }

        // The point tables.
        let values = spec.sweep.values.as_ref();
        let values_span = values.map(|v| v.span());
        let points: Vec<(toml::Table, Option<&toml::Value>)> = if sets_param {
            values
                .map(|v| v.get_ref().as_slice())
                .unwrap_or_default()
                .iter()
                .map(|v| {
                    let mut t = base_table.clone();
                    set_path(&mut t, axis, v.clone());
                    (t, Some(v))
                })
                .collect()
        } else {
            vec![(base_table.clone(), None); experiment.x_values().len()]
        };
        let at_point = |value: Option<&toml::Value>| match value {
            Some(v) => format!(" at {axis} = {}", x_label(v)),
            None => String::new(),
        };
        // Where a check's complaint points: the key in [params] if it is
        // written there, else the sweep values or the series entry.
        let locate = |e: &ParamError,
                      def: &SeriesDef,
                      entry: Range<usize>,
                      fallback: Option<Range<usize>>| {
            match e.key.as_deref() {
                Some(k) if get_path(&def.overrides, k).is_some() => Some(entry),
                Some(k) if sets_param && k == axis => values_span.clone(),
                Some(k) => key_span(text, k).or(fallback),
                None => fallback,
            }
        };

        let mut cells = Vec::new();
        let mut kind_refs = Vec::new();
        for (table, value) in &points {
            let mut row = Vec::new();
            let mut refs = Vec::new();
            for (def, entry) in series.iter().zip(&spec.series) {
                let fallback = if value.is_some() {
                    values_span.clone()
                } else {
                    Some(entry.span())
                };
                let mut t = table.clone();
                merge(&mut t, &def.overrides);
                let cell = resolve(kind, t).map_err(|m| {
                    (
                        fallback.clone(),
                        format!("series '{}'{}: {m}", def.name, at_point(*value)),
                    )
                })?;
                cell.params.check(&setup).map_err(|e| {
                    (
                        locate(&e, def, entry.span(), fallback.clone()),
                        format!("series '{}'{}: {e}", def.name, at_point(*value)),
                    )
                })?;
                let reference = match cell.params.reference() {
                    Some(overrides) => {
                        let mut t = table.clone();
                        merge(&mut t, &overrides);
                        let r = resolve(kind, t).map_err(|m| {
                            (
                                params_span.clone(),
                                format!(
                                    "the reference run of series '{}'{}: {m}",
                                    def.name,
                                    at_point(*value)
                                ),
                            )
                        })?;
                        Some(r)
                    }
                    None => None,
                };
                row.push(cell);
                refs.push(reference);
            }
            cells.push(row);
            kind_refs.push(refs);
        }

        // The references of relative panels.
        let mut panel_refs = Vec::new();
        for panel in &spec.panels {
            let Some((reference, _)) = panel.reference() else {
                panel_refs.push(Vec::new());
                continue;
            };
            let span = Some(reference.span());
            let mut by_point = Vec::new();
            for (pi, (table, value)) in points.iter().enumerate() {
                let mut row = Vec::new();
                for (si, def) in series.iter().enumerate() {
                    let t = match reference.get_ref() {
                        ReferenceSpec::Series(name) => {
                            let overrides = match series.iter().find(|d| &d.name == name) {
                                Some(d) => d.overrides.clone(),
                                None => (kind.series)(name).map_err(|m| {
                                    (
                                        span.clone(),
                                        format!(
                                            "panel '{}': reference series '{name}': {m}",
                                            panel.id
                                        ),
                                    )
                                })?,
                            };
                            let mut t = table.clone();
                            merge(&mut t, &overrides);
                            t
                        }
                        ReferenceSpec::Params { params } => {
                            let mut t = cells[pi][si].table.clone();
                            merge(&mut t, params);
                            t
                        }
                    };
                    let r = resolve(kind, t).map_err(|m| {
                        (
                            span.clone(),
                            format!(
                                "panel '{}': the reference of series '{}'{}: {m}",
                                panel.id,
                                def.name,
                                at_point(*value)
                            ),
                        )
                    })?;
                    row.push(Some(r));
                }
                by_point.push(row);
            }
            panel_refs.push(by_point);
        }

        Ok(Plan {
            series,
            base: base.params,
            cells,
            kind_refs,
            panel_refs,
        })
    }
}

fn resolve(kind: &KindEntry, table: toml::Table) -> Result<Resolution, String> {
    let params = (kind.resolve)(table.clone())?;
    let key = toml::to_string(&params.identity()).unwrap_or_default();
    Ok(Resolution { params, key, table })
}

/// The series of the document, each with its overrides.
fn series_defs(experiment: &Experiment) -> Result<Vec<SeriesDef>, Located> {
    let kind = experiment.kind;
    let mut out: Vec<SeriesDef> = Vec::new();
    for entry in &experiment.spec.series {
        let here = Some(entry.span());
        let def = match entry.get_ref() {
            toml::Value::String(name) => SeriesDef {
                name: name.clone(),
                overrides: (kind.series)(name)
                    .map_err(|m| (here.clone(), format!("series '{name}': {m}")))?,
            },
            toml::Value::Table(t) => {
                if let Some(k) = t.keys().find(|k| *k != "name" && *k != "params") {
                    return Err((
                        here,
                        format!("unknown key `{k}` in a series, expected `name` and `params`"),
                    ));
                }
                let Some(toml::Value::String(name)) = t.get("name") else {
                    return Err((here, "a series table needs `name = \"...\"`".into()));
                };
                let overrides = match t.get("params") {
                    Some(toml::Value::Table(p)) => p.clone(),
                    Some(other) => {
                        return Err((
                            here,
                            format!("series '{name}': `params` is {other}, expected a table"),
                        ));
                    }
                    None => (kind.series)(name)
                        .map_err(|m| (here.clone(), format!("series '{name}': {m}")))?,
                };
                SeriesDef {
                    name: name.clone(),
                    overrides,
                }
            }
            other => {
                return Err((
                    here,
                    format!("a series is a name or a table {{ name, params }}, got {other}"),
                ));
            }
        };
        if out.iter().any(|d| d.name == def.name) {
            return Err((here, format!("series '{}' is listed twice", def.name)));
        }
        out.push(def);
    }
    Ok(out)
}

/// The value at dotted `path` in `table`.
fn get_path<'t>(table: &'t toml::Table, path: &str) -> Option<&'t toml::Value> {
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

/// The span of `params.<key>` (dotted) in the document, if it is written there.
fn key_span(text: &str, key: &str) -> Option<Range<usize>> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    let mut value = table.get("params")?;
    for part in key.split('.') {
        let toml::de::DeValue::Table(t) = value.get_ref() else {
            return None;
        };
        table = t;
        value = table.get(part)?;
    }
    Some(value.span())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn key_spans_point_into_params() {
        let text = "x = 1\n[params]\nbeta = 0.5\n[params.table1]\nrate = 2\n";
        let span = key_span(text, "beta").unwrap();
        assert_eq!(&text[span], "0.5");
        let span = key_span(text, "table1.rate").unwrap();
        assert_eq!(&text[span], "2");
        assert!(key_span(text, "gamma").is_none());
    }
}
