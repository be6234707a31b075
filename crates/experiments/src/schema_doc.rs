//! The common schema described: every key of an experiment configuration
//! outside `[params]`, with its type, default and meaning, every workload
//! transform and every claim predicate with an example. It sits next to the
//! types it describes (`crate::config`, `crate::transform`, `crate::claim`),
//! and tests compare it with what serde accepts (the field lists of
//! `deny_unknown_fields` errors), so a new key without a line here fails a
//! test. `cargo xtask describe` renders it (`crate::describe`).

/// One key of the common schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyDoc {
    /// The key within its table (dotted for an inline table: `lublin99.procs`).
    pub key: &'static str,
    /// The TOML type.
    pub ty: &'static str,
    /// The default, as TOML; `required` for a key that must be given.
    pub default: &'static str,
    /// One line: what it sets.
    pub doc: &'static str,
}

const fn k(
    key: &'static str,
    ty: &'static str,
    default: &'static str,
    doc: &'static str,
) -> KeyDoc {
    KeyDoc {
        key,
        ty,
        default,
        doc,
    }
}

/// A table of the schema: its heading, a paragraph and its keys.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TableDoc {
    /// The table as written in TOML (`[[workloads]]`); empty for the top level.
    pub table: &'static str,
    /// The key path prefix of its keys (`workloads`), empty at the top level.
    pub path: &'static str,
    /// What the table is.
    pub intro: &'static str,
    /// Its keys.
    pub keys: &'static [KeyDoc],
}

/// The top level of a configuration.
const TOP: &[KeyDoc] = &[
    k("version", "integer", "required", "the config format: `2`"),
    k(
        "id",
        "string",
        "required",
        "`<paper>/<figure>` (`baseline/backfilling`), `<paper>/sensitivity/<name>`, or any `<group>/<name>` for a study of your own (`study/load-sweep`): letters, digits, `-`, `_` and `.`, no part starting with `.` or `-`; the results folder is named after it",
    ),
    k(
        "title",
        "string",
        "required",
        "one line, on the figure and in summaries",
    ),
    k(
        "paper",
        "string",
        "none (a study of your own)",
        "citation of the paper (or literature) the figure reproduces; without it summary.md presents a study (`Study: <title>`)",
    ),
    k(
        "kind",
        "string",
        "required",
        "the runner: one of the kinds below (`backfilling`, ...)",
    ),
    k(
        "seed",
        "integer",
        "required",
        "base seed; every random component derives its own stream from it",
    ),
    k(
        "repetitions",
        "integer",
        "`1`",
        "independent repetitions per point (different derived seeds); intervals need 2 or more",
    ),
    k(
        "confidence",
        "float",
        "`0.95`",
        "confidence level of the intervals around each point: `0.95` or `0.90`; an error where no point can have an interval (one repetition of a kind that measures one sample per run)",
    ),
    k(
        "series",
        "array",
        "required",
        "the legend entries: a short name the kind expands (`\"easy\"`, see each kind's series), or `{ name = \"...\", params = { ... }, workload = { ... } }` with explicit `[params]` overrides and overrides of any workload field but `label` (`workload = { estimate = \"actual\" }`: the series' runs see that variant of every workload)",
    ),
    k(
        "trim",
        "integer",
        "none (every sample counts)",
        "for kinds that measure several units per run (`adaptive`: its intervals): the `trim` highest and `trim` lowest samples of each run are left out (all kept when there are not more than `2·trim`); an error for a kind that measures one sample per run (`backfilling`, `pricing`, `provisioning`, `utility`), where it would change nothing",
    ),
    k(
        "params",
        "table",
        "the kind's defaults",
        "the kind's own parameters, the values every series starts from (see each kind below)",
    ),
    k(
        "workloads",
        "array of tables",
        "required",
        "`[[workloads]]`: the input workloads, in plotting order",
    ),
    k(
        "sweep",
        "table",
        "required",
        "`[sweep]`: the x axis of every panel",
    ),
    k(
        "panels",
        "array of tables",
        "required",
        "`[[panels]]`: one sub-plot each",
    ),
    k(
        "claims",
        "array of tables",
        "`[]`",
        "`[[claims]]`: machine-checked statements, each a verdict PASS, FAIL or INCONCLUSIVE",
    ),
    k(
        "reading",
        "table",
        "none",
        "`[reading]`: the reading of the paper a sensitivity run tries; required in a sensitivity run (id `<paper>/sensitivity/<name>`), refused elsewhere",
    ),
];

/// `[[workloads]]`.
const WORKLOADS: &[KeyDoc] = &[
    k(
        "label",
        "string",
        "required",
        "display name (the x category when the axis is `workload`)",
    ),
    k(
        "trace",
        "string",
        "none",
        "a Parallel Workloads Archive trace name (`SDSC-SP2-1998-4.2-cln`) or a path to a `.swf`/`.swf.gz` file; give one of `trace`, `lublin99`, `generated_by_kind`",
    ),
    k(
        "lublin99",
        "table",
        "none",
        "a synthetic Lublin99 workload instead of a trace: `{ procs = 128, jobs = 5000 }`",
    ),
    k(
        "lublin99.procs",
        "integer",
        "required",
        "machine size in processors",
    ),
    k(
        "lublin99.jobs",
        "integer",
        "required",
        "number of jobs to generate",
    ),
    k(
        "lublin99.two_class",
        "boolean",
        "`true`",
        "batch and interactive classes (the reference program's default)",
    ),
    k(
        "lublin99.load",
        "number",
        "none (the model's own arrivals)",
        "scale the arrivals to this offered load (sum of run x size over procs x span); not with `arrival_rate`",
    ),
    k(
        "lublin99.arrival_rate",
        "number",
        "none",
        "scale the arrivals to this many jobs per hour; not with `load`",
    ),
    k(
        "lublin99.estimates",
        "string",
        "`\"none\"` (requested equals exact)",
        "requested times: `\"f:F\"` (run x U[1, F]) or `\"modal:F\"` (the same, rounded up to a round value)",
    ),
    k(
        "generated_by_kind",
        "string",
        "none",
        "neither a trace nor Lublin99: the kind generates its jobs itself from its `[params]` (`utility`, say); the text describes them in summaries",
    ),
    k(
        "estimate",
        "string or table",
        "`\"requested\"`",
        "the run-time estimate the scheduler sees: `\"requested\"` (SWF field 9; the run time where missing), `\"actual\"` (exact) or `{ under_estimate = 0.2 }` (80 % of the run time); the `pricing` kind reads no workload's estimates (its own are the run times less `inaccuracy`): there an estimate other than `\"requested\"` or `\"actual\"`, a Lublin99 estimate model or a series or sweep setting `estimate` is an error",
    ),
    k(
        "lenient",
        "boolean",
        "`false`",
        "skip malformed trace lines (counted in the summary) instead of failing; a trace's only (an error on a Lublin99 or generated workload, as `stand_in` is)",
    ),
    k(
        "stand_in",
        "boolean",
        "`false`",
        "when the trace is found nowhere, use a seeded Lublin99 stand-in (announced in the output) instead of failing; `--stand-in` asks the same for every trace",
    ),
    k(
        "procs",
        "integer",
        "the trace header's",
        "machine size in processors, for a trace whose header gives none or to replace the header's",
    ),
    k(
        "transforms",
        "array of tables",
        "`[]`",
        "one-key tables applied in order: filters first, then the others (see Workload transforms); not on a `generated_by_kind` workload (nor `estimate`)",
    ),
];

/// Workload transforms, one-key tables in `transforms = [...]`.
const TRANSFORMS: &[KeyDoc] = &[
    k(
        "keep_status",
        "array of integers",
        "filter",
        "keeps the records whose status (field 11) is listed: 1 completed, 0 failed, 5 cancelled, 2–4 partial executions, -1 missing",
    ),
    k(
        "min_procs",
        "integer",
        "filter",
        "keeps the records of at least `N` processors, read as a job is replayed: field 5 (allocated) if positive, else field 8 (requested)",
    ),
    k(
        "max_procs",
        "integer",
        "filter",
        "keeps the records of at most `N` processors (read as for `min_procs`)",
    ),
    k(
        "min_requested_time",
        "integer (s)",
        "filter",
        "keeps the records whose requested time (field 9) is at least `S` seconds",
    ),
    k(
        "max_requested_time",
        "integer (s)",
        "filter",
        "keeps the records whose requested time (field 9) is at most `S` seconds",
    ),
    k(
        "job_ids",
        "[first, last]",
        "filter",
        "keeps the records whose job number (field 1) lies in `first..=last`",
    ),
    k(
        "drop_shorter_than",
        "integer (s)",
        "job transform",
        "drops jobs that ran for fewer than `S` seconds",
    ),
    k(
        "last_n",
        "integer",
        "job transform",
        "keeps the last `N` jobs",
    ),
    k(
        "scale_load",
        "float",
        "job transform",
        "multiplies the offered load by `F` (inter-arrival times divided by `F`)",
    ),
];

/// `[sweep]`.
const SWEEP: &[KeyDoc] = &[
    k(
        "axis",
        "string",
        "required",
        "`workload` (one x per workload), `load` (scale every workload's load by each value), `workload.<field>` (any workload field but `label`, on every workload: `workload.estimate`, `workload.lublin99.load`) or any key of `[params]`, dotted for nested tables (`table1.preemptive_share`)",
    ),
    k(
        "values",
        "array",
        "required unless `axis = \"workload\"`",
        "the x values: numbers, strings or booleans, each listed once; data.csv, panel ids and claims write a number as it reads back exactly (`0.1234567` stays `0.1234567`, `0.5` is `0.5`)",
    ),
    k("label", "string", "required", "axis label with unit"),
    k(
        "workloads",
        "string",
        "none (a numeric axis takes one workload)",
        "several workloads on a numeric axis: `\"panels\"` (a copy of every panel per workload, ids `<panel>@<label>`) or `\"series\"` (a line per workload, names `<series>@<label>`); claims name those ids",
    ),
    k(
        "log_x",
        "boolean",
        "`false`",
        "a logarithmic x axis (numeric sweeps of positive values), ticked at the swept values (or at powers of ten when there are many)",
    ),
    k(
        "with",
        "table",
        "none",
        "a coupled sweep: keys that move with the axis, each a list with one value per x value (`with = { sites = [2, 4, 8] }`); keys as for `axis`; summary.md lists them per x",
    ),
    k(
        "grid",
        "table",
        "none",
        "a second dimension: every x value at every grid value, a copy of every panel per grid value (ids `<panel>@<value>`, titles `<label> = <value>`): `grid = { axis = \"workload.estimate\", values = [\"requested\", \"actual\"], label = \"estimates\" }`",
    ),
    k(
        "grid.axis",
        "string",
        "required",
        "the key the grid sets: `load`, `workload.<field>` or a `[params]` key (not the axis nor a `with` key)",
    ),
    k(
        "grid.values",
        "array",
        "required",
        "its values: numbers, strings or booleans",
    ),
    k(
        "grid.label",
        "string",
        "required",
        "what the values are, with unit",
    ),
];

/// `[[panels]]`.
const PANELS: &[KeyDoc] = &[
    k(
        "id",
        "string",
        "required",
        "short name, used in data.csv and by claims",
    ),
    k(
        "metric",
        "string",
        "required",
        "a metric of the kind (see each kind's metrics)",
    ),
    k("title", "string", "the metric's title", "sub-plot title"),
    k(
        "y_label",
        "string",
        "the metric's; `gain (%)` or `reduction (%)` on a relative panel",
        "y-axis label with unit",
    ),
    k(
        "log_y",
        "boolean",
        "`false`",
        "logarithmic y axis (values at or below zero sit on the axis)",
    ),
    k(
        "gain_over",
        "string or table",
        "none",
        "a relative panel: plots `100 · (metric − reference) / reference` per sample, against the reference's run at the same point and repetition; the reference is a series name (`\"fifo-rigid\"`) or `{ params = { ... } }` (the same series with these overrides)",
    ),
    k(
        "reduction_over",
        "string or table",
        "none",
        "a relative panel: plots `100 · (reference − metric) / reference`, the reference written as for `gain_over`",
    ),
];

/// `[[claims]]`, apart from the predicate.
const CLAIMS: &[KeyDoc] = &[
    k(
        "text",
        "string",
        "required",
        "the statement, in the paper's words (not empty)",
    ),
    k(
        "paper_value",
        "string",
        "none",
        "the paper's number, where it gives one",
    ),
    k(
        "check",
        "table",
        "required",
        "the predicate: `check.<predicate> = { ... }`, one of the predicates below",
    ),
    k(
        "explanation",
        "string",
        "none",
        "why our result differs, found after a search for bugs; shown under the claims when the verdict is FAIL",
    ),
    k(
        "cause",
        "table",
        "none",
        "why the claim does not PASS, by category: exactly one of `cause.paper`, `cause.data`, `cause.reading`",
    ),
    k(
        "cause.paper",
        "string",
        "none",
        "the paper contradicts itself or its other figures: the quote",
    ),
    k(
        "cause.data",
        "string",
        "none",
        "data nobody can get: what is missing",
    ),
    k(
        "cause.reading",
        "string",
        "none",
        "a reading of a vague text: the id of the sensitivity run that tries the other reading (`adaptive/sensitivity/sp-20pct`)",
    ),
];

/// `[reading]`.
const READING: &[KeyDoc] = &[
    k(
        "varies",
        "string",
        "required",
        "the figure of the same paper it varies (`adaptive/fig5`)",
    ),
    k("name", "string", "required", "the reading, in a few words"),
    k(
        "support",
        "string",
        "required",
        "the paper's text that supports it (quoted, with where it is)",
    ),
];

/// The tables of the common schema, in the order a configuration has them.
pub(crate) const TABLES: &[TableDoc] = &[
    TableDoc {
        table: "",
        path: "",
        intro: "The top level of every configuration.",
        keys: TOP,
    },
    TableDoc {
        table: "[[workloads]]",
        path: "workloads",
        intro: "Where a workload's jobs come from, and how they are transformed. Each workload is a trace, a Lublin99 generator or `generated_by_kind`.",
        keys: WORKLOADS,
    },
    TableDoc {
        table: "[sweep]",
        path: "sweep",
        intro: "The x axis of every panel.",
        keys: SWEEP,
    },
    TableDoc {
        table: "[[panels]]",
        path: "panels",
        intro: "One sub-plot per panel; a relative panel (`gain_over` or `reduction_over`) plots a metric against a reference run.",
        keys: PANELS,
    },
    TableDoc {
        table: "[[claims]]",
        path: "claims",
        intro: "A statement and the predicate that checks it on the results. A predicate without `at` holds at every x; the verdict is PASS when the whole confidence interval of the compared quantity is on the right side, FAIL when it is wholly on the wrong side, INCONCLUSIVE otherwise.",
        keys: CLAIMS,
    },
    TableDoc {
        table: "[reading]",
        path: "reading",
        intro: "Only in a sensitivity run (`configs/<paper>/sensitivity/`, id `<paper>/sensitivity/<name>`), and required there: the other reading of a vague passage it tries.",
        keys: READING,
    },
];

/// What to add for a required key serde found missing: `missing field
/// `seed`` at the top level (`at_top`) or in a table becomes the key's
/// place, type and meaning, when the schema names one key so (a name in
/// several tables, outside the top level, gets no guess).
pub(crate) fn missing_key_help(message: &str, at_top: bool) -> Option<String> {
    let name = message.strip_prefix("missing field `")?.split('`').next()?;
    let found: Vec<(&TableDoc, &KeyDoc)> = TABLES
        .iter()
        .filter(|t| at_top == t.table.is_empty())
        .flat_map(|t| t.keys.iter().map(move |k| (t, k)))
        .filter(|(_, k)| k.key == name)
        .collect();
    let [(table, key)] = found[..] else {
        return None;
    };
    let place = if table.table.is_empty() {
        "at the top level".to_owned()
    } else {
        format!("in each {}", table.table)
    };
    let add = match key.ty {
        "array of tables" => format!("add a `[[{}{name}]]` table", prefix(table)),
        "table" => format!("add a `[{}{name}]` table", prefix(table)),
        ty => format!("add `{name} = ...` {place} ({ty})"),
    };
    Some(format!(
        "{add}: {} (`cargo xtask describe` lists every key)",
        key.doc
    ))
}

/// The dotted path before a key of `table` (`workloads.`), empty at the top.
fn prefix(table: &TableDoc) -> String {
    if table.path.is_empty() {
        String::new()
    } else {
        format!("{}.", table.path)
    }
}

/// The transforms' paragraph and keys.
pub(crate) const TRANSFORMS_DOC: TableDoc = TableDoc {
    table: "transforms",
    path: "workloads.transforms",
    intro: "A workload's `transforms` is a list of one-key tables, e.g. `transforms = [{ job_ids = [68497, 73496] }, { drop_shorter_than = 60 }]`. *Filters* read fields of the SWF records, so they act on the trace before its records become jobs: what they remove counts as \"transformed away\" in the summary, and only the records they keep can count as unreplayable; a record whose field is missing (-1) fails a bound on that field. Filters must come before every other transform (a filter after `last_n` is an error); the *job transforms* act on the replayable jobs in the order written. To select a window of the log first, use `job_ids`; `last_n` counts replayable jobs.",
    keys: TRANSFORMS,
};

/// One claim predicate: its name, when it holds, its keys and an example.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PredicateDoc {
    /// `check.<name>`.
    pub name: &'static str,
    /// When it holds.
    pub holds: &'static str,
    /// Its keys, optional ones in brackets.
    pub keys: &'static str,
    /// A whole `check.<name> = { ... }` line.
    pub example: &'static str,
}

/// Every predicate a claim can check.
pub(crate) const PREDICATES: &[PredicateDoc] = &[
    PredicateDoc {
        name: "above",
        holds: "`series` exceeds `than` by more than `margin` (at `at`, or at every x)",
        keys: "panel, series, than, [at], [margin = 0]",
        example: "check.above = { panel = \"qos\", series = \"libra+$\", than = \"libra\", at = 0.5 }",
    },
    PredicateDoc {
        name: "below",
        holds: "`series` is below `than` by more than `margin` (at `at`, or at every x)",
        keys: "panel, series, than, [at], [margin = 0]",
        example: "check.below = { panel = \"bsld\", series = \"easy\", than = \"fcfs\" }",
    },
    PredicateDoc {
        name: "within",
        holds: "`series` lies in `[lo, hi]` (at `at`, or at every x)",
        keys: "panel, series, [at], lo, hi",
        example: "check.within = { panel = \"util\", series = \"easy\", at = \"SDSC-SP2\", lo = 60, hi = 80 }",
    },
    PredicateDoc {
        name: "ratio",
        holds: "`series / than` lies in `[lo, hi]` (at `at`, or at every x)",
        keys: "panel, series, than, [at], lo, hi",
        example: "check.ratio = { panel = \"wait\", series = \"conservative\", than = \"easy\", lo = 0.9, hi = 1.5 }",
    },
    PredicateDoc {
        name: "monotone",
        holds: "`series` rises (`increasing`) or falls (`decreasing`) from each x to the next; `strict` refuses flat steps",
        keys: "panel, series, direction, [strict = false]",
        example: "check.monotone = { panel = \"profit\", series = \"libra+$\", direction = \"increasing\" }",
    },
    PredicateDoc {
        name: "ordering",
        holds: "the series are in this order, highest first (at `at`, or at every x)",
        keys: "panel, [at], highest_first",
        example: "check.ordering = { panel = \"qos\", at = 0.5, highest_first = [\"libra+$\", \"libra\", \"edf-bf\"] }",
    },
    PredicateDoc {
        name: "rise",
        holds: "the change of `series` from x = `from` to x = `to` lies in `[lo, hi]`",
        keys: "panel, series, from, to, lo, hi",
        example: "check.rise = { panel = \"wait\", series = \"easy\", from = 0.5, to = 0.9, lo = 0, hi = 1e9 }",
    },
    PredicateDoc {
        name: "rises_more",
        holds: "`series` rises more than `than` from x = `from` to x = `to`, by more than `margin`",
        keys: "panel, series, than, from, to, [margin = 0]",
        example: "check.rises_more = { panel = \"wait\", series = \"fcfs\", than = \"easy\", from = 0.5, to = 0.9 }",
    },
];

/// The field names of a predicate's key list: `panel, [at], [margin = 0]`
/// gives `panel`, `at`, `margin`.
pub(crate) fn predicate_fields(keys: &str) -> impl Iterator<Item = &str> {
    keys.split(',').map(|f| {
        let f = f.trim().trim_start_matches('[').trim_end_matches(']');
        f.split('=').next().unwrap_or(f).trim()
    })
}

/// The opening of `configs/README.md`: what the folders hold.
pub(crate) const FOLDERS: &[(&str, &str, &str)] = &[
    (
        "`<paper>/figN.toml`",
        "a figure of one of the four papers (`adaptive`, `pricing`, `provisioning`, `utility`) or the `baseline`",
        "`cargo xtask reproduce <paper>/figN`, `<paper>`, `figN` or `all`",
    ),
    (
        "`<paper>/sensitivity/<name>.toml`",
        "a paper figure with one documented alternative reading of the text changed (`id = \"<paper>/sensitivity/<name>\"`); same seed and claims as the figure, and a top comment quoting the text behind the reading",
        "`cargo xtask run configs/<paper>/sensitivity/<name>.toml`",
    ),
    (
        "`examples/`",
        "configurations that show the format, not figures of a paper",
        "`cargo xtask reproduce examples/<name>`",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Claim;
    use crate::config::Spec;

    /// The names serde lists in its error for an unknown key or variant
    /// `zzz` in `text` (the fields of a `deny_unknown_fields` struct, the
    /// variants of an enum): generated by the derive, so they are the code's.
    fn serde_names(text: &str) -> Vec<String> {
        let e = match toml::from_str::<Spec<toml::Table>>(text) {
            Ok(_) => panic!("{text}: parsed"),
            Err(e) => e.message().to_string(),
        };
        let (_, expected) = e
            .split_once("expected")
            .unwrap_or_else(|| panic!("{text}: {e}"));
        assert!(e.contains("`zzz`"), "{text}: {e}");
        expected
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    fn keys_of(table: &TableDoc, prefix: &str) -> Vec<String> {
        table
            .keys
            .iter()
            .filter_map(|k| match prefix {
                "" => (!k.key.contains('.')).then(|| k.key.to_string()),
                p => k.key.strip_prefix(&format!("{p}.")).map(str::to_string),
            })
            .collect()
    }

    fn table(path: &str) -> &'static TableDoc {
        TABLES.iter().find(|t| t.path == path).unwrap()
    }

    fn check(text: &str, documented: Vec<String>) {
        let mut want = serde_names(text);
        let mut got = documented;
        want.sort();
        got.sort();
        assert_eq!(got, want, "documented keys vs what serde reads, for {text}");
    }

    /// Each table's documented keys are exactly the fields serde reads.
    #[test]
    fn every_field_of_the_schema_is_documented() {
        check("zzz = 1", keys_of(table(""), ""));
        check("[[workloads]]\nzzz = 1", keys_of(table("workloads"), ""));
        check(
            "[[workloads]]\nlublin99 = { zzz = 1 }",
            keys_of(table("workloads"), "lublin99"),
        );
        check(
            "[[workloads]]\ntransforms = [{ zzz = 1 }]",
            TRANSFORMS.iter().map(|k| k.key.to_string()).collect(),
        );
        check("[sweep]\nzzz = 1", keys_of(table("sweep"), ""));
        check(
            "[sweep]\ngrid = { zzz = 1 }",
            keys_of(table("sweep"), "grid"),
        );
        check("[[panels]]\nzzz = 1", keys_of(table("panels"), ""));
        check("[[claims]]\nzzz = 1", keys_of(table("claims"), ""));
        check(
            "[[claims]]\ncause.zzz = 'x'",
            keys_of(table("claims"), "cause"),
        );
        check(
            "[[claims]]\ncheck.zzz = {}",
            PREDICATES.iter().map(|p| p.name.to_string()).collect(),
        );
        for p in PREDICATES {
            check(
                &format!("[[claims]]\ncheck.{} = {{ zzz = 1 }}", p.name),
                predicate_fields(p.keys).map(str::to_string).collect(),
            );
        }
        check("[reading]\nzzz = 1", keys_of(table("reading"), ""));
    }

    #[test]
    fn predicate_fields_strip_brackets_and_defaults() {
        let fields: Vec<&str> = predicate_fields("panel, [at], [margin = 0]").collect();
        assert_eq!(fields, ["panel", "at", "margin"]);
    }

    /// Every predicate's example is a claim the schema reads.
    #[test]
    fn every_predicate_example_parses() {
        for p in PREDICATES {
            let text = format!("text = 'x'\n{}", p.example);
            let claim: Claim = toml::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let back = toml::Table::try_from(&claim).unwrap();
            assert!(back["check"].get(p.name).is_some(), "{text}");
        }
    }
}
