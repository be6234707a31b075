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

use crate::config::{Facet, ReferenceSpec, WorkloadSpec, faceted};
use crate::encode::terminal_name;
use crate::experiment::Experiment;
use crate::kind::{KindEntry, ParamError, Resolved, Setup, Workloads};
use crate::sweep::{self, PointSpec, PointVariants, Target, get_path, merge, target};

/// A legend entry and the parameter overrides it stands for.
pub(crate) struct SeriesDef {
    pub name: String,
    pub overrides: toml::Table,
    /// Fields of every workload this series changes (`workload = { estimate
    /// = "actual" }`): its runs see those variants of the workloads.
    pub workload: toml::Table,
    /// With `[sweep] workloads = "series"`: the one workload (index in
    /// `[[workloads]]`) this copy of a series runs on.
    pub only: Option<usize>,
    /// Its entry in the document's `series` list (where run-time errors
    /// in the values it sets are placed).
    pub entry: usize,
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
    /// Every workload a run can see: `[[workloads]]` in order, then the
    /// variants series' `workload` overrides make of them.
    pub variants: Vec<WorkloadSpec>,
    /// The sweep's points: every x value at every grid value.
    pub points: Vec<PointSpec>,
    /// `[point][series][workload]`: the variant (index in `variants`)
    /// series `s` sees at point `p` in place of workload `w`.
    pub point_variants: PointVariants,
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
            variants: Vec::new(),
            points: Vec::new(),
            point_variants: Vec::new(),
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
        let kind = &experiment.kind;
        let base_table = spec
            .params
            .as_ref()
            .map(|p| p.get_ref().clone())
            .unwrap_or_default();
        let params_span = spec.params.as_ref().map(|p| p.span());
        let base = resolve(kind, base_table.clone()).map_err(|m| (params_span.clone(), m))?;
        let facet = spec.sweep.workloads.as_ref();
        if let Some(f) = facet
            && (experiment.is_categorical() || spec.workloads.len() < 2)
        {
            return Err((
                Some(f.span()),
                "`workloads` in [sweep] makes several workloads facets of a numeric axis: \
                 it needs a numeric axis and at least two [[workloads]]"
                    .into(),
            ));
        }
        sweep::validate(experiment, text)?;
        let setup = Setup {
            axis: spec.sweep.axis.get_ref(),
            // Each workload a facet: a run sees one.
            workloads: if facet.is_some() {
                1
            } else {
                spec.workloads.len()
            },
            generated: spec.workloads.iter().all(|w| w.generated_by_kind.is_some()),
            load: sweep::sets_load(experiment),
            policies: &experiment.policies,
        };
        let swept = sweep::swept_keys(experiment);
        let places = |key: &str| sweep::places(experiment, text, key);
        check_workloads(experiment, &setup, text)?;
        // A load no run reads: generated workloads have no arrivals to scale.
        if let Some(load) = swept.iter().find(|k| target(k) == Target::Load)
            && setup.generated
        {
            // The kind's own words about the load, where it has them (what
            // to sweep instead): its complaint that goes with the load.
            let without = Setup {
                load: false,
                ..setup
            };
            let why = match (base.params.check(&setup), base.params.check(&without)) {
                (Err(e), Ok(())) if e.key.is_none() => e.message,
                _ => format!(
                    "kind '{}' generates its own workloads from [params], which a swept `load` \
                     cannot scale: remove `load` from the sweep and sweep one of the kind's \
                     [params] instead",
                    kind.name
                ),
            };
            return Err((places(load).0, why));
        }

        let defs = series_defs(experiment)?;
        // With `workloads = "series"`, a copy of each series per workload.
        let mut series = Vec::new();
        let mut entries = Vec::new();
        for (def, entry) in defs.into_iter().zip(&spec.series) {
            match facet.map(|f| *f.get_ref()) {
                Some(Facet::Series) => {
                    for (wi, w) in spec.workloads.iter().enumerate() {
                        series.push(SeriesDef {
                            name: faceted(&def.name, w.label.get_ref()),
                            overrides: def.overrides.clone(),
                            workload: def.workload.clone(),
                            only: Some(wi),
                            entry: def.entry,
                        });
                        entries.push(entry);
                    }
                }
                _ => {
                    series.push(def);
                    entries.push(entry);
                }
            }
        }
        // A composed name (`<series>@<label>`) must not repeat another:
        // series `x` on workload `A@B` and `x@A` on `B` are both `x@A@B`.
        for (i, def) in series.iter().enumerate() {
            if let Some(other) = series[..i].iter().find(|d| d.name == def.name) {
                let shown = |d: &SeriesDef| {
                    let label = d.only.map_or("", |w| spec.workloads[w].label.get_ref());
                    let name = d.name.strip_suffix(label).and_then(|n| n.strip_suffix('@'));
                    format!(
                        "series '{}' on workload '{}'",
                        terminal_name(name.unwrap_or(&d.name)),
                        terminal_name(label)
                    )
                };
                return Err((
                    Some(entries[i].span()),
                    format!(
                        "with `workloads = \"series\"`, {} and {} are both named '{}'; rename one \
                         (a `@` in a series name or a workload label can repeat a composed name)",
                        shown(other),
                        shown(def),
                        terminal_name(&def.name)
                    ),
                ));
            }
        }
        for (def, entry) in series.iter().zip(entries.iter().copied()) {
            let set = swept.iter().find(|k| match target(k) {
                Target::Param(p) => get_path(&def.overrides, p).is_some(),
                Target::Workload(f) => get_path(&def.workload, f).is_some(),
                Target::Load => false,
            });
            if let Some(key) = set {
                return Err((
                    Some(entry.span()),
                    format!(
                        "series '{}' sets `{key}`, which the sweep sets: every point would be the \
                         same; drop it from the series or sweep another key",
                        def.name
                    ),
                ));
            }
        }

        // The points, and the workloads each point's series see.
        let points = sweep::points(experiment, &base_table);
        // A workload field its runs would not read is refused, never ignored.
        for (i, w) in spec.workloads.iter().enumerate() {
            if let Some((field, m)) = w.unread_field(kind.name, kind.estimates) {
                let shown = crate::encode::terminal_name(w.label.get_ref());
                let index = i.to_string();
                let path: Vec<&str> = ["workloads", index.as_str()]
                    .into_iter()
                    .chain(field.split('.'))
                    .collect();
                let at = crate::config::value_span(text, &path).or(Some(w.label.span()));
                return Err((at, format!("workload '{shown}': {m}")));
            }
        }
        let (variants, point_variants) = sweep::variants(
            &spec.workloads,
            &points,
            &series,
            &entries,
            kind,
            &places,
            &|f, p, s| experiment.field_span(f, Some(p), Some(s)),
        )?;
        let swept_param = |k: &str| {
            swept
                .iter()
                .any(|s| matches!(target(s), Target::Param(p) if p == k))
        };
        // Where swept `[params]` key `key` takes its value at `point`: that
        // value in the axis's values, its `with` list or the grid's.
        let value_at = |key: &str, point: &PointSpec| {
            let parts: Vec<&str> = std::iter::once("params").chain(key.split('.')).collect();
            experiment.swept_span(&parts, point).or(places(key).1)
        };
        // Where a check's complaint points: the key in [params] if it is
        // written there, else the point's sweep value or the series entry.
        let locate = |e: &ParamError,
                      def: &SeriesDef,
                      entry: Range<usize>,
                      point: &PointSpec,
                      fallback: Option<Range<usize>>| {
            match e.key.as_deref() {
                Some(k) if get_path(&def.overrides, k).is_some() => Some(entry),
                Some(k) if swept_param(k) => value_at(k, point).or(fallback),
                Some(k) => key_span(text, k).or(fallback),
                None => fallback,
            }
        };

        let mut cells = Vec::new();
        let mut kind_refs = Vec::new();
        let sets_params = swept.iter().any(|k| matches!(target(k), Target::Param(_)));
        for point in &points {
            let (table, at) = (&point.table, &point.at);
            let mut row = Vec::new();
            let mut refs = Vec::new();
            for (def, entry) in series.iter().zip(entries.iter().copied()) {
                let fallback = if sets_params {
                    point.span.clone()
                } else {
                    Some(entry.span())
                };
                let mut t = table.clone();
                merge(&mut t, &def.overrides);
                let cell = resolve(kind, t).map_err(|m| {
                    let value = |key: &str| value_at(key, point);
                    let blamed = blame(kind, &base_table, table, &swept, &places, &value);
                    let here = match blamed {
                        Blame::Key(span) => span,
                        Blame::Series => Some(entry.span()),
                    };
                    // A swept key that is no parameter (a misspelt `load`,
                    // say): serde lists only the parameters.
                    let unknown = m
                        .strip_prefix("unknown field `")
                        .and_then(|r| r.split('`').next());
                    let hint = if unknown.is_some_and(|k| swept.contains(&k)) {
                        "; a swept key is `load`, `workload.<field>` (on the axis, also \
                         `workload`) or one of these [params] keys"
                    } else {
                        ""
                    };
                    (
                        here.or(fallback.clone()),
                        format!("series '{}'{at}: {m}{hint}", def.name),
                    )
                })?;
                cell.params.check(&setup).map_err(|e| {
                    (
                        locate(&e, def, entry.span(), point, fallback.clone()),
                        format!("series '{}'{}: {e}", def.name, at),
                    )
                })?;
                let reference = match cell.params.reference() {
                    Some(overrides) => {
                        // Resolved and checked as a series' run is; an error
                        // naming a parameter points where that parameter
                        // is written (the whole [params] table otherwise).
                        let fault = |e: ParamError| {
                            let fallback = params_span.clone().or(fallback.clone());
                            (
                                locate(&e, def, entry.span(), point, fallback),
                                format!("the reference run of series '{}'{at}: {e}", def.name),
                            )
                        };
                        let mut t = table.clone();
                        merge(&mut t, &overrides);
                        let r = resolve(kind, t).map_err(|m| {
                            fault(match reference_blame(kind, table, &overrides) {
                                Some(k) => ParamError::key(&k, m),
                                None => ParamError::general(m),
                            })
                        })?;
                        r.params.check(&setup).map_err(fault)?;
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
        for (index, panel) in spec.panels.iter().enumerate() {
            let Some((reference, _)) = panel.reference() else {
                panel_refs.push(Vec::new());
                continue;
            };
            let span = Some(reference.span());
            // A key of `gain_over = { params = { ... } }` at fault: its value.
            let index = index.to_string();
            let which = if panel.gain_over.is_some() {
                "gain_over"
            } else {
                "reduction_over"
            };
            let key_at = |key: Option<&str>| {
                let (ReferenceSpec::Params { params }, Some(k)) = (reference.get_ref(), key) else {
                    return span.clone();
                };
                get_path(params, k)?;
                let path: Vec<&str> = ["panels", &index, which, "params"]
                    .into_iter()
                    .chain(k.split('.'))
                    .collect();
                crate::config::value_span(text, &path).or(span.clone())
            };
            let mut by_point = Vec::new();
            for (pi, point) in points.iter().enumerate() {
                let (table, at) = (&point.table, &point.at);
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
                        let e = match reference.get_ref() {
                            ReferenceSpec::Params { params } => {
                                reference_blame(kind, &cells[pi][si].table, params).map_or_else(
                                    || ParamError::general(&m),
                                    |k| ParamError::key(&k, &m),
                                )
                            }
                            ReferenceSpec::Series(_) => ParamError::general(&m),
                        };
                        (
                            key_at(e.key.as_deref()),
                            format!(
                                "panel '{}': the reference of series '{}'{}: {e}",
                                panel.id, def.name, at
                            ),
                        )
                    })?;
                    // Checked as a series is: an unknown policy fails here, at its place.
                    r.params.check(&setup).map_err(|e| {
                        (
                            key_at(e.key.as_deref()),
                            format!(
                                "panel '{}': the reference of series '{}'{}: {e}",
                                panel.id, def.name, at
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
            variants,
            points,
            point_variants,
            base: base.params,
            cells,
            kind_refs,
            panel_refs,
        })
    }
}

/// That the experiment's workloads are what its kind takes
/// ([`Kind::WORKLOADS`](crate::Kind::WORKLOADS)); an error points at the
/// workload at fault (the first that is not generated, the second of a
/// kind that takes one), or at the axis that cannot take several.
fn check_workloads(experiment: &Experiment, setup: &Setup<'_>, text: &str) -> Result<(), Located> {
    let kind = &experiment.kind;
    let workloads = &experiment.spec.workloads;
    let name = kind.name;
    let label = |i: usize| workloads.get(i).map(|w| w.label.span());
    match kind.workloads {
        Workloads::PerPoint if !setup.categorical() && setup.workloads != 1 => Err((
            Some(experiment.spec.sweep.axis.span()),
            format!(
                "kind '{name}' simulates one workload per run: a sweep over a numeric axis takes \
                 exactly one workload, got {}; compare workloads with axis = \"workload\"",
                setup.workloads
            ),
        )),
        Workloads::One if setup.workloads != 1 => Err((
            label(1),
            format!(
                "kind '{name}' takes exactly one workload, got {}",
                setup.workloads
            ),
        )),
        Workloads::Generated if !setup.generated => {
            let i = workloads
                .iter()
                .position(|w| w.generated_by_kind.is_none())
                .unwrap_or(0);
            let index = i.to_string();
            let source = ["trace", "lublin99"]
                .into_iter()
                .find_map(|k| crate::config::key_span(text, &["workloads", &index, k]));
            Err((
                source.or(label(i)),
                format!(
                    "kind '{name}' generates its own jobs: give its workloads `generated_by_kind` \
                     instead of a trace or a generator"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// What a cell's parameters that do not resolve are due to.
enum Blame {
    /// A swept key: its name when the kind has no such key, else its values.
    Key(Option<Range<usize>>),
    /// The series' overrides (the point alone resolves).
    Series,
}

/// Why a cell's table (`point` with a series' overrides) does not
/// resolve: the series' overrides when the point alone resolves; else
/// each swept `[params]` key is tried alone on `base`, and the first that
/// fails is to blame, at its name when the kind has no such key, at the
/// point's value of it (`value_at`) otherwise.
fn blame(
    kind: &KindEntry,
    base: &toml::Table,
    point: &toml::Table,
    swept: &[&str],
    places: &dyn Fn(&str) -> (sweep::Span, sweep::Span),
    value_at: &dyn Fn(&str) -> sweep::Span,
) -> Blame {
    if (kind.resolve)(point.clone()).is_ok() {
        return Blame::Series;
    }
    for key in swept {
        let (Target::Param(k), Some(value)) = (target(key), get_path(point, key)) else {
            continue;
        };
        let mut t = base.clone();
        crate::sweep::set_path(&mut t, k, value.clone());
        if let Err(m) = (kind.resolve)(t) {
            let name = places(key).0;
            // serde's words for a key the parameters do not have.
            let unknown = m.starts_with("unknown field");
            return Blame::Key(if unknown {
                name
            } else {
                value_at(key).or(name)
            });
        }
    }
    Blame::Key(None)
}

/// The key of a kind's reference overrides `overrides` that keeps the
/// point's table `point` from resolving: the first that fails alone.
fn reference_blame(
    kind: &KindEntry,
    point: &toml::Table,
    overrides: &toml::Table,
) -> Option<String> {
    overrides.iter().find_map(|(k, v)| {
        let mut t = point.clone();
        merge(&mut t, &toml::Table::from_iter([(k.clone(), v.clone())]));
        (kind.resolve)(t).is_err().then(|| k.clone())
    })
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
    for (index, entry) in experiment.spec.series.iter().enumerate() {
        let here = Some(entry.span());
        let def = match entry.get_ref() {
            toml::Value::String(name) => SeriesDef {
                name: name.clone(),
                overrides: (kind.series)(name)
                    .map_err(|m| (here.clone(), format!("series '{name}': {m}")))?,
                workload: toml::Table::new(),
                only: None,
                entry: index,
            },
            toml::Value::Table(t) => {
                if let Some(k) = t
                    .keys()
                    .find(|k| !["name", "params", "workload"].contains(&k.as_str()))
                {
                    return Err((
                        here,
                        format!(
                            "unknown key `{k}` in a series, expected `name`, `params` and `workload`"
                        ),
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
                let workload = match t.get("workload") {
                    Some(toml::Value::Table(w)) => w.clone(),
                    Some(other) => {
                        return Err((
                            here,
                            format!("series '{name}': `workload` is {other}, expected a table"),
                        ));
                    }
                    None => toml::Table::new(),
                };
                SeriesDef {
                    name: name.clone(),
                    overrides,
                    workload,
                    only: None,
                    entry: index,
                }
            }
            other => {
                return Err((
                    here,
                    format!(
                        "a series is a name or a table {{ name, params, workload }}, got {other}"
                    ),
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

/// The span of `params.<key>` (dotted) in the document, if it is written there.
fn key_span(text: &str, key: &str) -> Option<Range<usize>> {
    let path: Vec<&str> = std::iter::once("params").chain(key.split('.')).collect();
    crate::config::value_span(text, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

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
