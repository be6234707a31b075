//! Errors found at run time, placed in the configuration file: a
//! [`RunError::Field`] (a kind's parameter, a transform, a load factor that
//! only fails on the trace's jobs) becomes a [`RunError::Located`] that
//! names the file, line and column of the value, as the parser's errors
//! do.

use std::ops::Range;

use crate::config::{WorkloadSpec, value_span};
use crate::encode::terminal_name;
use crate::error::{ConfigError, RunError};
use crate::experiment::Experiment;
use crate::sweep::{self, PointSpec, Target};

impl Experiment {
    /// `error` of run `run` (`easy on SDSC-SP2`, if the error belongs to
    /// one) at sweep point `point`: a [`RunError::Field`] (or an empty
    /// workload) placed in the file, with the run's name in front of its
    /// message; any other error inside `run` wrapped in
    /// [`RunError::InRun`]. `series`, the entry of the `series` list the
    /// run's values come from, places a parameter or workload field that
    /// entry sets at its own value there.
    pub(crate) fn locate(
        &self,
        error: RunError,
        point: Option<&PointSpec>,
        run: Option<&str>,
        series: Option<usize>,
    ) -> RunError {
        let placed = |field: &str, message: String| {
            let message = match run {
                Some(run) => format!("{}: {message}", terminal_name(run)),
                None => message,
            };
            RunError::Located {
                error: ConfigError::at(
                    &self.file,
                    &self.text,
                    self.field_span(field, point, series),
                    message,
                ),
            }
        };
        match error {
            RunError::Field { field, message } => placed(&field, message),
            // At its `transforms`, or (not written) its table's header.
            RunError::EmptyWorkload { ref label } => {
                let field = format!("{}.transforms", self.workload_field(label));
                placed(&field, error.to_string())
            }
            // A kind's own wrapping of a field error: the inner run's name
            // stays in the message.
            RunError::InRun { run: inner, error } if is_placeable(&error) => {
                let inner = match run {
                    Some(run) => format!("{run}: {inner}"),
                    None => inner,
                };
                self.locate(*error, point, Some(&inner), series)
            }
            other => match run {
                Some(run) => RunError::InRun {
                    run: run.to_string(),
                    error: Box::new(other),
                },
                None => other,
            },
        }
    }

    /// `message` placed at the value that names trace `name` in the
    /// configuration file: the first workload's `trace = ...`, else the
    /// first series entry's `workload = { trace = ... }`. For an error met
    /// finding or reading the trace (a line of the SWF file the parser
    /// refuses), so that it names the configuration's line as well as the
    /// trace's.
    ///
    /// ```
    /// use experiments::Experiment;
    ///
    /// let text = r#"version = 2
    /// id = "t/x"
    /// title = "X"
    /// paper = "none"
    /// kind = "backfilling"
    /// seed = 1
    /// series = ["fcfs"]
    /// [[workloads]]
    /// label = "w"
    /// trace = "mine.swf"
    /// [sweep]
    /// axis = "workload"
    /// label = "workload"
    /// [[panels]]
    /// id = "b"
    /// metric = "mean_bsld"
    /// "#;
    /// let experiment = Experiment::parse(text, "x.toml").unwrap();
    /// let e = experiment.at_trace("mine.swf", "mine.swf:3: field 4 is 'x'");
    /// assert!(e.to_string().starts_with("x.toml:10:9: mine.swf:3: "), "{e}");
    /// ```
    pub fn at_trace(&self, name: &str, message: impl Into<String>) -> ConfigError {
        let in_workloads = self
            .spec
            .workloads
            .iter()
            .position(|w| w.trace.as_deref() == Some(name))
            .and_then(|i| value_span(&self.text, &["workloads", &i.to_string(), "trace"]));
        let in_series = || {
            self.spec.series.iter().enumerate().find_map(|(i, entry)| {
                let named = entry
                    .get_ref()
                    .get("workload")
                    .and_then(|w| w.get("trace"))
                    .and_then(toml::Value::as_str)
                    == Some(name);
                let path = ["series", &i.to_string(), "workload", "trace"];
                named.then(|| value_span(&self.text, &path)).flatten()
            })
        };
        ConfigError::at(
            &self.file,
            &self.text,
            in_workloads
                .or_else(in_series)
                .or_else(|| self.swept_trace_span(name)),
            message.into(),
        )
    }

    /// Where the sweep names trace `name` (a value of `workload.trace` as
    /// the axis, a `with` key or the grid's axis): the value itself, else
    /// the list it is in.
    fn swept_trace_span(&self, name: &str) -> Option<Range<usize>> {
        const KEY: &str = "workload.trace";
        let sweep = &self.spec.sweep;
        let named = |values: &[toml::Value]| values.iter().position(|v| v.as_str() == Some(name));
        let (path, index): (Vec<&str>, Option<usize>) =
            if !self.is_categorical() && sweep.axis.get_ref() == KEY {
                let values = sweep.values.as_ref().map(|v| v.get_ref().as_slice());
                (vec!["sweep", "values"], values.and_then(named))
            } else if let Some(with) = sweep
                .with
                .as_ref()
                .filter(|w| w.get_ref().contains_key(KEY))
            {
                let values = with.get_ref().get(KEY).and_then(toml::Value::as_array);
                (vec!["sweep", "with", KEY], values.and_then(|v| named(v)))
            } else if let Some(grid) = sweep.grid.as_ref().filter(|g| g.axis.get_ref() == KEY) {
                (
                    vec!["sweep", "grid", "values"],
                    named(grid.values.get_ref()),
                )
            } else {
                return None;
            };
        index
            .and_then(|i| crate::config::element_span(&self.text, &path, i))
            .or_else(|| sweep::places(self, &self.text, KEY).1)
    }

    /// `workloads.<i>`: where the workload labelled `label` is written
    /// (a series' variant of a workload keeps its label, and is placed at
    /// the workload it was made from).
    pub(crate) fn workload_field(&self, label: &str) -> String {
        match self
            .spec
            .workloads
            .iter()
            .position(|w: &WorkloadSpec| w.label.get_ref() == label)
        {
            Some(i) => format!("workloads.{i}"),
            None => "workloads".to_string(),
        }
    }

    /// Where the value at the dotted path `field` is written: a swept key
    /// at its point's value in the sweep; a value the run's `series` entry
    /// sets at that entry's value; else the value, or the nearest table
    /// above it that the file holds.
    pub(crate) fn field_span(
        &self,
        field: &str,
        point: Option<&PointSpec>,
        series: Option<usize>,
    ) -> Option<Range<usize>> {
        let parts: Vec<&str> = field.split('.').collect();
        if let Some(span) = point.and_then(|p| self.swept_span(&parts, p)) {
            return Some(span);
        }
        if let Some(span) = series.and_then(|s| self.series_span(&parts, s)) {
            return Some(span);
        }
        (1..=parts.len())
            .rev()
            .find_map(|n| value_span(&self.text, &parts[..n]))
    }

    /// Where `point` takes the value at path `parts`, if the sweep sets
    /// it: its element of `[sweep] values`, of its `with` key's list or of
    /// `[sweep.grid] values`, else where the point's values are written.
    pub(crate) fn swept_span(&self, parts: &[&str], point: &PointSpec) -> Option<Range<usize>> {
        let sweep = &self.spec.sweep;
        let (x, g) = (point.x.to_string(), point.grid.map(|g| g.to_string()));
        let element: Option<Vec<&str>> =
            if !self.is_categorical() && sets(sweep.axis.get_ref(), parts) {
                Some(vec!["sweep", "values", &x])
            } else if let Some(key) = sweep
                .with
                .as_ref()
                .and_then(|w| w.get_ref().keys().find(|k| sets(k, parts)))
            {
                Some(vec!["sweep", "with", key, &x])
            } else if let (Some(grid), Some(g)) = (&sweep.grid, &g)
                && sets(grid.axis.get_ref(), parts)
            {
                Some(vec!["sweep", "grid", "values", g])
            } else {
                None
            };
        let element = element?;
        value_span(&self.text, &element).or_else(|| point.span.clone())
    }

    /// Where entry `series` of the `series` list sets the value at path
    /// `parts`, if it does: `params.<key>` in its `params` (nested, or as
    /// one dotted key), a workload's field in its `workload`.
    fn series_span(&self, parts: &[&str], series: usize) -> Option<Range<usize>> {
        let entry = series.to_string();
        let (table, rest) = match parts {
            ["params", rest @ ..] if !rest.is_empty() => ("params", rest),
            ["workloads", _, rest @ ..] if !rest.is_empty() => ("workload", rest),
            _ => return None,
        };
        let mut nested = vec!["series", entry.as_str(), table];
        nested.extend_from_slice(rest);
        let dotted = rest.join(".");
        value_span(&self.text, &nested)
            .or_else(|| value_span(&self.text, &["series", &entry, table, &dotted]))
    }
}

/// Whether swept key `key` sets the value at path `parts`.
fn sets(key: &str, parts: &[&str]) -> bool {
    match (sweep::target(key), parts) {
        (Target::Load, ["load"]) => true,
        (Target::Param(k), ["params", rest @ ..]) => k == rest.join("."),
        (Target::Workload(f), ["workloads", _, rest @ ..]) => f == rest.join("."),
        _ => false,
    }
}

/// Whether [`Experiment::locate`] can place `error` in the file.
fn is_placeable(error: &RunError) -> bool {
    match error {
        RunError::Field { .. } | RunError::EmptyWorkload { .. } => true,
        RunError::InRun { error, .. } => is_placeable(error),
        _ => false,
    }
}

/// The dotted path of the innermost key whose value holds byte `at` of the
/// document `text` (`params.cooldown`, `workloads.1.trace`), if the
/// document parses and some key's value holds it: the field an error the
/// parser placed there is about.
pub(crate) fn key_path_at(text: &str, at: usize) -> Option<String> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let mut path = Vec::new();
    in_table(doc.get_ref(), at, &mut path).then(|| path.join("."))
}

/// Whether a value in `table` (at any depth: a table's own span may be its
/// header alone) holds byte `at`; if so, `path` ends with its keys.
fn in_table(table: &toml::de::DeTable<'_>, at: usize, path: &mut Vec<String>) -> bool {
    table.iter().any(|(key, value)| {
        let key = key.get_ref();
        let bare = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let segment = if bare {
            key.to_string()
        } else {
            toml::Value::String(key.to_string()).to_string()
        };
        descend(value, segment, at, path)
    })
}

/// Whether `value`, reached by `segment`, holds byte `at`: if so `path`
/// ends with `segment` and what lies under it, else it is as it was.
fn descend(
    value: &toml::Spanned<toml::de::DeValue<'_>>,
    segment: String,
    at: usize,
    path: &mut Vec<String>,
) -> bool {
    path.push(segment);
    let found = in_value(value, at, path);
    if !found {
        path.pop();
    }
    found
}

fn in_value(
    value: &toml::Spanned<toml::de::DeValue<'_>>,
    at: usize,
    path: &mut Vec<String>,
) -> bool {
    use toml::de::DeValue;
    match value.get_ref() {
        DeValue::Table(t) => in_table(t, at, path) || value.span().contains(&at),
        DeValue::Array(items) => {
            let inner = items
                .iter()
                .enumerate()
                .any(|(i, item)| descend(item, i.to_string(), at, path));
            inner || value.span().contains(&at)
        }
        _ => value.span().contains(&at),
    }
}

/// `message`, an error the TOML parser placed at `span` of `text`, with the
/// field it is about in front when the message names none (`invalid
/// value: integer `-1`, expected u64` becomes ``params.cooldown`: ...`),
/// and an integer past TOML's range said so.
pub(crate) fn with_field(text: &str, span: Option<Range<usize>>, message: String) -> String {
    let message = match message
        .strip_prefix("invalid type: integer `")
        .and_then(|m| m.strip_suffix("` as i128, expected any valid TOML value"))
    {
        Some(n) => format!(
            "integer `{n}` is outside TOML's integers ({} to {})",
            i64::MIN,
            i64::MAX
        ),
        None => message,
    };
    // serde's words for a table that should name one choice (a transform,
    // say) and names several or none.
    let message = match message.strip_prefix("wanted exactly 1 element, ") {
        Some(found) => format!(
            "expected a table of exactly one key (one choice, such as one transform, per \
             table), found {}",
            found
                .replace(" element", " key")
                .replace("more than 1 key", "more than one key")
        ),
        None => message,
    };
    let about_a_value = [
        "invalid type",
        "invalid value",
        "invalid length",
        "integer `",
        "expected a table of exactly one key",
    ]
    .iter()
    .any(|p| message.starts_with(p));
    match span
        .filter(|_| about_a_value)
        .and_then(|s| key_path_at(text, s.start))
    {
        Some(path) => format!("`{}`: {message}", terminal_name(&path)),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"version = 2
id = "t/locate"
title = "t"
kind = "backfilling"
seed = 1
series = ["fcfs"]

[[workloads]]
label = "a"
lublin99 = { procs = 8, jobs = 10 }

[[workloads]]
label = "b"
lublin99 = { procs = 8, jobs = 10 }
transforms = [{ last_n = 5 }]

[sweep]
axis = "workload"
label = "w"

[params]
bsld_bound = 10

[[panels]]
id = "p"
metric = "mean_wait"
"#;

    /// The (line, column, message) `error` is placed at.
    fn place(error: RunError, run: Option<&str>) -> (usize, usize, String) {
        let e = Experiment::parse(TEXT, "t.toml").unwrap_or_else(|e| panic!("{e}"));
        match e.locate(error, None, run, None) {
            RunError::Located {
                error:
                    ConfigError::Invalid {
                        line: Some(l),
                        column: Some(c),
                        message,
                        ..
                    },
            } => (l, c, message),
            other => panic!("not placed: {other:?}"),
        }
    }

    #[test]
    fn a_field_is_placed_at_its_value_else_at_the_nearest_table_written() {
        let (l, c, m) = place(
            RunError::field("params.bsld_bound", "bad"),
            Some("fcfs on a"),
        );
        assert_eq!((l, c, m.as_str()), (22, 14, "fcfs on a: bad"));
        // Not written: the place is the `[params]` header.
        let (l, _, _) = place(RunError::field("params.warmup", "bad"), None);
        assert_eq!(l, 21);
        // Indices into arrays of tables and arrays.
        let (l, c, _) = place(RunError::field("workloads.1.transforms.0", "bad"), None);
        assert_eq!((l, c), (15, 15));
    }

    #[test]
    fn an_empty_workload_is_placed_at_its_transforms_or_its_table() {
        let empty = |label: &str| RunError::EmptyWorkload {
            label: label.into(),
        };
        assert_eq!(place(empty("b"), None).0, 15);
        // Without transforms: its `[[workloads]]` header.
        assert_eq!(place(empty("a"), None).0, 8);
    }

    #[test]
    fn other_errors_stay_what_they_were_inside_their_run() {
        let e = Experiment::parse(TEXT, "t.toml").unwrap();
        let kind = RunError::Kind {
            message: "no".into(),
        };
        assert_eq!(
            e.locate(kind.clone(), None, Some("fcfs on a"), None),
            RunError::InRun {
                run: "fcfs on a".into(),
                error: Box::new(kind.clone()),
            }
        );
        assert_eq!(e.locate(kind.clone(), None, None, None), kind);
        // A kind's own wrapping of a field error keeps both run names.
        let nested = RunError::InRun {
            run: "inner".into(),
            error: Box::new(RunError::field("params.bsld_bound", "bad")),
        };
        assert_eq!(place(nested, Some("outer")).2, "outer: inner: bad");
    }

    #[test]
    fn a_parser_error_names_the_field_it_is_about() {
        let text = "a = 1\n[params]\ncooldown = -1\n\"odd.key\" = [1, 2]\n\
                    [[workloads]]\nt = { x = 3 }\n";
        let at = |needle: &str| text.find(needle).unwrap();
        assert_eq!(
            key_path_at(text, at("-1")).as_deref(),
            Some("params.cooldown")
        );
        assert_eq!(
            key_path_at(text, at("2]")).as_deref(),
            Some("params.\"odd.key\".1")
        );
        assert_eq!(
            key_path_at(text, at("3 }")).as_deref(),
            Some("workloads.0.t.x")
        );
        assert_eq!(key_path_at(text, at("1\n")).as_deref(), Some("a"));
        let span = Some(at("-1")..at("-1") + 2);
        assert_eq!(
            with_field(
                text,
                span.clone(),
                "invalid value: integer `-1`, expected u64".into()
            ),
            "`params.cooldown`: invalid value: integer `-1`, expected u64"
        );
        // A message that names its field already is left as it is.
        assert_eq!(
            with_field(text, span, "unknown field `x`, expected `y`".into()),
            "unknown field `x`, expected `y`"
        );
        let big = "n = 18446744073709551616\n";
        assert_eq!(
            with_field(
                big,
                Some(4..24),
                "invalid type: integer `18446744073709551616` as i128, expected any valid TOML value"
                    .into()
            ),
            "`n`: integer `18446744073709551616` is outside TOML's integers \
             (-9223372036854775808 to 9223372036854775807)"
        );
    }
}
