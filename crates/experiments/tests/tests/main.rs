//! Integration tests of the experiment pipeline (one binary, several modules).

/// A small, valid experiment on a generated workload; tests edit it.
const BASE: &str = r#"version = 2
id = "test/tiny"
title = "Tiny"
paper = "test"
kind = "backfilling"
seed = 5
series = ["fcfs", "easy", "conservative"]

[[workloads]]
label = "gen"
lublin99 = { procs = 32, jobs = 200 }

[sweep]
axis = "workload"
label = "workload"

[params]
bsld_bound = 10

[[panels]]
id = "bsld"
metric = "mean_bsld"

[[claims]]
text = "EASY beats FCFS"
check.below = { panel = "bsld", series = "easy", than = "fcfs" }
"#;

mod config {
    use experiments::Experiment;

    use super::BASE;

    /// Replaces `from` by `to` in the base config and expects an error at
    /// `line` whose message contains `needle`.
    fn check(from: &str, to: &str, line: usize, needle: &str) {
        assert!(BASE.contains(from), "{from:?} is not in the base config");
        let text = BASE.replacen(from, to, 1);
        let err = Experiment::parse(&text, "configs/x/y.toml")
            .expect_err(&format!("{to:?} should be rejected"));
        let shown = err.to_string();
        assert!(
            shown.starts_with(&format!("configs/x/y.toml:{line}:")),
            "{shown}"
        );
        assert!(shown.contains(needle), "{shown}");
        assert_eq!(err.line(), Some(line));
    }

    #[test]
    fn base_is_valid() {
        let e = Experiment::parse(BASE, "base.toml").unwrap();
        assert_eq!(e.id(), "test/tiny");
        assert_eq!(e.series(), ["fcfs", "easy", "conservative"]);
        assert!(e.traces().is_empty());
    }

    /// Checks without a `Spanned` value of their own point at their key
    /// and name the field and what it may be.
    #[test]
    fn validation_errors_name_the_field_and_its_allowed_values() {
        let series = "series = [\"fcfs\", \"easy\", \"conservative\"]";
        check(
            "seed = 5",
            "seed = 5\nrepetitions = 0",
            7,
            "`repetitions` is 0, expected a whole number from 1 to 100",
        );
        check(
            "seed = 5",
            "seed = 5\nconfidence = 0.5",
            7,
            "`confidence` is 0.5, expected 0.90 or 0.95",
        );
        check(
            "seed = 5",
            "seed = 5\nconfidence = nan",
            7,
            "`confidence` is NaN, expected 0.90 or 0.95",
        );
        check(
            series,
            "series = []",
            7,
            "`series` is empty, expected at least one series: a name (<policy>: fcfs",
        );
        check(
            series,
            "series = [\"fcfs\", \"easy-k0\"]",
            7,
            "N in easy-k<N> is '0', expected a whole number from 1 to 4294967295",
        );
        check(
            "[[workloads]]\nlabel = \"gen\"\nlublin99 = { procs = 32, jobs = 200 }",
            "workloads = []",
            9,
            "`workloads` is empty, expected at least one [[workloads]] table",
        );
        check(
            "kind = \"backfilling\"\n",
            "",
            1,
            "missing field `kind`, expected one of: adaptive, backfilling",
        );
        check(
            "metric = \"mean_bsld\"",
            "metric = \"mean_bsld\"\ngain_over = \"nope\"",
            23,
            "panel 'bsld': the reference of series 'fcfs': params.policy: unknown policy 'nope'",
        );
        // `panels = []` must come before the tables.
        let text = BASE
            .replacen("[[panels]]\nid = \"bsld\"\nmetric = \"mean_bsld\"\n", "", 1)
            .replacen("seed = 5", "seed = 5\npanels = []", 1);
        let err = Experiment::parse(&text, "configs/x/y.toml").unwrap_err();
        assert!(
            err.to_string().starts_with(
                "configs/x/y.toml:7:10: `panels` is empty, expected at least one [[panels]] table"
            ),
            "{err}"
        );
    }

    /// A claim whose verdict is fixed before any run (a series against
    /// itself, a rise from an x value to the same one), that names a series
    /// twice or has no text, or that holds two predicates or an x value of
    /// another type, is refused at its `check` (the text at its `text`),
    /// saying what to change.
    #[test]
    fn claims_that_check_nothing_are_refused_at_their_check() {
        let check_line = "check.below = { panel = \"bsld\", series = \"easy\", than = \"fcfs\" }";
        check(
            "text = \"EASY beats FCFS\"",
            "text = \" \"",
            25,
            "claim `text` is only white space",
        );
        check(
            "than = \"fcfs\"",
            "than = \"easy\"",
            26,
            "claim compares series 'easy' with itself",
        );
        check(
            check_line,
            "check.ratio = { panel = \"bsld\", series = \"fcfs\", than = \"fcfs\", lo = 1, hi = 2 }",
            26,
            "claim compares series 'fcfs' with itself",
        );
        check(
            check_line,
            "check.rise = { panel = \"bsld\", series = \"easy\", from = \"gen\", to = \"gen\", lo = 0, hi = 1 }",
            26,
            "claim rises from x = gen to the same x",
        );
        check(
            check_line,
            "check.ordering = { panel = \"bsld\", highest_first = [\"fcfs\", \"easy\", \"fcfs\"] }",
            26,
            "ordering names series 'fcfs' twice",
        );
        check(
            "than = \"fcfs\" }",
            "than = \"fcfs\", at = true }",
            26,
            "expected an x value: a category name in quotes, or a number",
        );
        check(
            check_line,
            "check = { below = { panel = \"bsld\", series = \"easy\", than = \"fcfs\" }, above = { panel = \"bsld\", series = \"fcfs\", than = \"easy\" } }",
            26,
            "`check` holds two predicates, `above` and `below`",
        );
        check(check_line, "check = {}", 26, "`check` holds no predicate");
        // A trend over the one workload of the axis always FAILs.
        check(
            check_line,
            "check.monotone = { panel = \"bsld\", series = \"easy\", direction = \"increasing\" }",
            26,
            "a monotone claim needs a trend over at least two x values, and the sweep has 1",
        );
    }

    /// `[reading]` belongs to a paper's sensitivity runs, and every one
    /// has one, naming a figure of its own paper.
    #[test]
    fn a_reading_is_a_sensitivity_runs_and_varies_a_figure_of_its_paper() {
        let reading = "\n[reading]\nvaries = \"test/tiny\"\nname = \"n\"\nsupport = \"s\"\n";
        let with = |id: &str, reading: &str| {
            format!(
                "{}{reading}",
                BASE.replacen("id = \"test/tiny\"", &format!("id = \"{id}\""), 1)
            )
        };
        let err = |text: String| {
            Experiment::parse(&text, "configs/x/y.toml")
                .expect_err("should be rejected")
                .to_string()
        };
        let shown = err(with("test/tiny", reading));
        assert!(shown.starts_with("configs/x/y.toml:28:"), "{shown}");
        assert!(
            shown.contains("[reading] is for a paper's sensitivity runs"),
            "{shown}"
        );
        let shown = err(with("test/sensitivity/r", ""));
        assert!(shown.starts_with("configs/x/y.toml:2:"), "{shown}");
        assert!(shown.contains("needs a [reading] table"), "{shown}");
        for varies in ["other/fig5", "test", "test/a/b", "test/-x", ""] {
            let shown = err(with(
                "test/sensitivity/r",
                &reading.replace("test/tiny", varies),
            ));
            assert!(shown.starts_with("configs/x/y.toml:29:"), "{shown}");
            assert!(
                shown.contains("expected the id of a figure of the same paper: 'test/<name>'"),
                "{shown}"
            );
        }
        let shown = err(with(
            "test/sensitivity/r",
            &reading.replace("\"s\"", "\"  \""),
        ));
        assert!(shown.starts_with("configs/x/y.toml:31:"), "{shown}");
        assert!(shown.contains("reading `support` is empty"), "{shown}");
        Experiment::parse(&with("test/sensitivity/r", reading), "configs/x/y.toml").unwrap();
    }

    /// A missing required key is named with its place, type and meaning.
    #[test]
    fn a_missing_required_key_says_what_to_add() {
        let no_panels = BASE.split("[[panels]]").next().unwrap().to_string();
        let err = Experiment::parse(&no_panels, "configs/x/y.toml").unwrap_err();
        assert!(
            err.to_string()
                .contains("missing field `panels`; add a `[[panels]]` table: "),
            "{err}"
        );
        check(
            "seed = 5\n",
            "",
            1,
            "missing field `seed`; add `seed = ...` at the top level (integer): base seed",
        );
        let text = BASE.replacen("metric = \"mean_bsld\"\n", "", 1);
        let err = Experiment::parse(&text, "configs/x/y.toml").unwrap_err();
        assert!(
            err.to_string()
                .contains("missing field `metric`; add `metric = ...` in each [[panels]] (string)"),
            "{err}"
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        check(
            "seed = 5",
            "seed = 5\ncolour = 1",
            7,
            "unknown field `colour`",
        );
        check("seed = 5", "seed = -5", 6, "expected u64");
        check(
            "kind = \"backfilling\"",
            "kind = \"backfill\"",
            5,
            "unknown kind 'backfill', expected one of:",
        );
        check(
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            "series = [\"fcfs\", \"easy-kx\"]",
            7,
            "series 'easy-kx': params.policy: unknown policy 'easy-kx'",
        );
        check(
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            "series = [\"fcfs\", \"easy\", \"fcfs\"]",
            7,
            "series 'fcfs' is listed twice",
        );
        check(
            "bsld_bound = 10",
            "bsld_bound = 10\nbound = 3",
            19,
            "unknown field `bound`",
        );
        check(
            "bsld_bound = 10",
            "bsld_bound = 0",
            18,
            "params.bsld_bound: is 0, expected at least 1 second",
        );
        check(
            "lublin99 = { procs = 32, jobs = 200 }",
            "lublin99 = { procs = 32, jobs = 200, size = 1 }",
            11,
            "unknown field `size`",
        );
        check(
            "lublin99 = { procs = 32, jobs = 200 }",
            "lublin99 = { procs = 32, jobs = 200 }\nestimate = \"guess\"",
            12,
            "unknown variant `guess`",
        );
        check(
            "lublin99 = { procs = 32, jobs = 200 }",
            "lublin99 = { procs = 32, jobs = 200 }\ntransforms = [{ keep = 3 }]",
            12,
            "unknown variant `keep`",
        );
        check(
            "lublin99 = { procs = 32, jobs = 200 }",
            "trace = \"x\"\nlublin99 = { procs = 32, jobs = 200 }",
            10,
            "exactly one of `trace` or `lublin99`",
        );
        check(
            "axis = \"workload\"",
            "axis = \"deadline\"",
            14,
            "axis 'deadline' needs `values",
        );
        check(
            "axis = \"workload\"",
            "axis = \"load\"",
            14,
            "needs `values",
        );
        check(
            "metric = \"mean_bsld\"",
            "metric = \"profit\"",
            22,
            "unknown metric 'profit'",
        );
        check(
            "than = \"fcfs\"",
            "than = \"sjf\"",
            26,
            "unknown series 'sjf'",
        );
        check(
            "panel = \"bsld\"",
            "panel = \"wait\"",
            26,
            "unknown panel 'wait'",
        );
        check(
            "check.below",
            "check.beneath",
            26,
            "unknown variant `beneath`",
        );
        // A panel id given twice is placed at the second id, not its metric.
        check(
            "metric = \"mean_bsld\"\n",
            "metric = \"mean_bsld\"\n\n[[panels]]\nid = \"bsld\"\nmetric = \"mean_wait\"\n",
            25,
            "panel id 'bsld' is used twice",
        );
        // One machine-size cap for generated workloads, as for traces.
        check(
            "lublin99 = { procs = 32, jobs = 200 }",
            "lublin99 = { procs = 10000001, jobs = 200 }",
            11,
            "lublin99 `procs` is 10000001, expected 1 to 10000000",
        );
        // A claim at an x the sweep lacks is skipped with a note (honest.rs).
        check(
            "id = \"test/tiny\"",
            "id = \"../tiny\"",
            2,
            "must look like",
        );
        // Hidden names: the tool's own (`.usched-staging` beside results,
        // `.usched-results` inside them) and any other.
        // And no part that a command line would read as an option
        // (`reproduce -x/y` in a job script).
        for id in [
            ".usched-staging/x",
            "test/.usched-results",
            "test/.hidden",
            "-x/y",
            "--out/y",
            "test/-tiny",
            "test/sensitivity/-r",
        ] {
            check(
                "id = \"test/tiny\"",
                &format!("id = \"{id}\""),
                2,
                "no part starting with '.' or '-'",
            );
        }
    }

    /// A name holding a character some output would write escaped (so it
    /// would not read back, or would read like another name) is refused
    /// where it is written, whatever field it is: the class of the bidi,
    /// C1, DEL and TAB names that broke `verify` on untouched results.
    #[test]
    fn names_that_an_output_would_escape_are_refused_where_written() {
        let bad = [
            "\\u202e", "\\u2066", "\\u200f", "\\u061c", "\\u0085", "\\u007f", "\\t", "\\n",
            "\\u001b", "\\u0000", "\\uffff",
        ];
        for c in bad {
            let name = format!("\"a{c}b\"");
            check(
                "label = \"gen\"",
                &format!("label = {name}"),
                10,
                "workload label 'a\\u{",
            );
            check(
                "id = \"bsld\"",
                &format!("id = {name}"),
                21,
                "panel id 'a\\u{",
            );
            check(
                "series = [\"fcfs\", \"easy\", \"conservative\"]",
                &format!(
                    "series = [\"fcfs\", {{ name = {name}, params = {{ policy = \"easy\" }} }}]"
                ),
                7,
                "series 'a\\u{",
            );
            check(
                "axis = \"workload\"",
                &format!("axis = \"workload.estimate\"\nvalues = [\"actual\", {name}]"),
                15,
                "sweep.values value 'a\\u{",
            );
        }
        check("id = \"bsld\"", "id = \"\"", 21, "panel id '' is empty");
        // The message says which character, where, and why.
        check(
            "label = \"gen\"",
            "label = \"g\\u202en\"",
            10,
            "holds U+202E (a bidirectional control) at character 2",
        );
        // What a name may hold stays accepted: markup, quotes, formulas, é.
        // The text `\u{202e}` is a name like any other, and no longer
        // what a bidi control would be written as.
        let text = BASE.replacen(
            "\"conservative\"]",
            "{ name = \"=g<\\\"é\\\\u{202e}|\", params = { policy = \"conservative\" } }]",
            1,
        );
        let e = Experiment::parse(&text, "ok.toml").unwrap();
        assert_eq!(e.series()[2], "=g<\"é\\u{202e}|");
    }

    #[test]
    fn any_parameter_is_a_sweep_axis_and_bad_values_are_named() {
        let sweep = |values: &str| {
            BASE.replacen(
                "axis = \"workload\"",
                &format!("axis = \"bsld_bound\"\nvalues = {values}"),
                1,
            )
        };
        let e = Experiment::parse(&sweep("[10, 60]"), "s.toml").unwrap();
        assert!(e.resolved_toml().contains("bsld_bound"));
        let check_sweep = |values: &str, needle: &str| {
            let err = Experiment::parse(&sweep(values), "s.toml").unwrap_err();
            let shown = err.to_string();
            assert!(shown.starts_with("s.toml:15:"), "{shown}");
            assert!(shown.contains(needle), "{shown}");
        };
        check_sweep(
            "[10, 0]",
            "series 'fcfs' at bsld_bound = 0: params.bsld_bound: is 0, expected at least 1 second",
        );
        check_sweep("[10, \"x\"]", "at bsld_bound = x: invalid type: string");
        check_sweep("[10, 10]", "value 10 is listed twice");
        let err = Experiment::parse(
            &BASE.replacen("axis = \"workload\"", "axis = \"colour\"\nvalues = [1]", 1),
            "s.toml",
        )
        .unwrap_err();
        assert!(err.to_string().contains("unknown field `colour`"), "{err}");
    }

    #[test]
    fn series_tables_override_any_parameter() {
        let text = BASE.replacen(
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            "series = [\"fcfs\", { name = \"easy-60\", params = { policy = \"easy\", bsld_bound = 60 } }]",
            1,
        )
        .replacen("series = \"easy\", than", "series = \"easy-60\", than", 1);
        let e = Experiment::parse(&text, "t.toml").unwrap();
        assert_eq!(e.series(), ["fcfs", "easy-60"]);
        let err = Experiment::parse(
            &text.replacen("bsld_bound = 60", "bsld_bond = 60", 1),
            "t.toml",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("t.toml:7:"), "{err}");
        assert!(
            err.to_string().contains("unknown field `bsld_bond`"),
            "{err}"
        );
    }

    #[test]
    fn old_formats_get_their_migration_named() {
        let err = Experiment::parse(&BASE.replacen("version = 2\n", "", 1), "o.toml").unwrap_err();
        assert!(err.to_string().starts_with("o.toml:1:"), "{err}");
        assert!(err.to_string().contains("missing `version = 2`"), "{err}");
        let err = Experiment::parse(&BASE.replacen("version = 2", "version = 1", 1), "o.toml")
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("config version 1 is not supported"),
            "{err}"
        );
        let err = Experiment::parse(
            &BASE.replacen("bsld_bound = 10", "policies = [\"fcfs\"]", 1),
            "o.toml",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("o.toml:18:"), "{err}");
        assert!(
            err.to_string()
                .contains("params.policies was replaced: list the policies as top-level `series"),
            "{err}"
        );
    }

    #[test]
    fn error_shows_the_offending_line() {
        let err = Experiment::parse(&BASE.replacen("seed = 5", "seed = \"five\"", 1), "f.toml")
            .unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains("6 | seed = \"five\""), "{shown}");
        assert!(
            shown.lines().last().unwrap().trim_end().ends_with('^'),
            "{shown}"
        );
    }
}

mod claims {
    use experiments::{Claim, Row, Samples};

    fn rows() -> Vec<Row> {
        let data = [
            ("bsld", "fcfs", "A", 100.0),
            ("bsld", "easy", "A", 40.0),
            ("bsld", "cons", "A", 30.0),
            ("bsld", "fcfs", "B", 50.0),
            ("bsld", "easy", "B", 55.0),
            ("bsld", "cons", "B", 20.0),
            ("load", "easy", "0.5", 1.0),
            ("load", "easy", "1", 2.0),
            ("load", "easy", "0.75", 1.5),
            ("load", "flat", "0.5", 3.0),
            ("load", "flat", "0.75", 3.0),
            ("load", "flat", "1", 3.0),
        ];
        data.iter()
            .map(|&(panel, series, x, y)| Row {
                panel: panel.into(),
                series: series.into(),
                x: x.into(),
                y,
                ci: None,
                runs: 1,
            })
            .collect()
    }

    /// Checks the predicate written after `check.` against the rows.
    fn check(predicate: &str, pass: bool, ours: &str) {
        let claim: Claim = toml::from_str(&format!(
            "text = \"t\"\npaper_value = \"p\"\ncheck.{predicate}"
        ))
        .unwrap();
        let v = claim.check(&rows(), &Samples::default());
        assert_eq!(v.passed(), pass, "{predicate}: {}", v.ours);
        assert!(v.ours.contains(ours), "{predicate}: {}", v.ours);
        assert_eq!(v.paper_value.as_deref(), Some("p"));
    }

    #[test]
    fn above_and_below() {
        check(
            r#"above = { panel = "bsld", series = "fcfs", than = "easy", at = "A" }"#,
            true,
            "fcfs 100 vs easy 40 (difference 60) at A",
        );
        check(
            r#"above = { panel = "bsld", series = "fcfs", than = "easy" }"#,
            false,
            "fcfs 50 vs easy 55 (difference -5) at B",
        );
        check(
            r#"above = { panel = "bsld", series = "fcfs", than = "cons" }"#,
            true,
            "at A; fcfs 50 vs cons 20 (difference 30) at B",
        );
        check(
            r#"above = { panel = "bsld", series = "fcfs", than = "cons", margin = 40 }"#,
            false,
            "at B",
        );
        check(
            r#"below = { panel = "bsld", series = "cons", than = "fcfs" }"#,
            true,
            "cons 30 vs fcfs 100",
        );
        check(
            r#"below = { panel = "bsld", series = "easy", than = "fcfs" }"#,
            false,
            "easy 55 vs fcfs 50 (difference 5) at B",
        );
    }

    #[test]
    fn within_and_ratio() {
        check(
            r#"within = { panel = "bsld", series = "easy", at = "A", lo = 35, hi = 45 }"#,
            true,
            "easy 40 at A",
        );
        check(
            r#"within = { panel = "bsld", series = "easy", lo = 35, hi = 45 }"#,
            false,
            "easy 55 at B",
        );
        check(
            r#"ratio = { panel = "bsld", series = "cons", than = "fcfs", at = "A", lo = 0.25, hi = 0.35 }"#,
            true,
            "cons/fcfs = 0.300",
        );
        check(
            r#"ratio = { panel = "bsld", series = "cons", than = "fcfs", lo = 0.25, hi = 0.35 }"#,
            false,
            "cons/fcfs = 0.400 at B",
        );
    }

    #[test]
    fn monotone_sorts_numeric_x() {
        check(
            r#"monotone = { panel = "load", series = "easy", direction = "increasing" }"#,
            true,
            "easy: 1 → 1.50 → 2",
        );
        check(
            r#"monotone = { panel = "load", series = "easy", direction = "decreasing" }"#,
            false,
            "easy:",
        );
        check(
            r#"monotone = { panel = "load", series = "flat", direction = "increasing" }"#,
            true,
            "3 → 3 → 3",
        );
        check(
            r#"monotone = { panel = "load", series = "flat", direction = "increasing", strict = true }"#,
            false,
            "flat",
        );
    }

    #[test]
    fn ordering() {
        check(
            r#"ordering = { panel = "bsld", at = "A", highest_first = ["fcfs", "easy", "cons"] }"#,
            true,
            "fcfs 100 > [60] easy 40 > [10] cons 30 at A",
        );
        check(
            r#"ordering = { panel = "bsld", highest_first = ["fcfs", "easy", "cons"] }"#,
            false,
            "fcfs 50 ≤ [-5] easy 55 > [35] cons 20 at B",
        );
        check(
            r#"ordering = { panel = "bsld", highest_first = ["easy", "cons"] }"#,
            true,
            "at B",
        );
    }

    #[test]
    fn rise_compares_two_x_values_of_one_series() {
        check(
            r#"rise = { panel = "load", series = "easy", from = 0.5, to = 1.0, lo = 0.5, hi = 1.5 }"#,
            true,
            "easy 1 at 0.5 → 2 at 1 (+1)",
        );
        check(
            r#"rise = { panel = "load", series = "easy", from = 1.0, to = 0.75, lo = 0, hi = 100 }"#,
            false,
            "easy 2 at 1 → 1.50 at 0.75 (-0.500)",
        );
    }

    #[test]
    fn missing_data_fails_and_says_what_is_missing() {
        check(
            r#"above = { panel = "bsld", series = "sjf", than = "easy" }"#,
            false,
            "no value for series 'sjf' at x = A in panel 'bsld'",
        );
        check(
            r#"within = { panel = "nope", series = "easy", lo = 0, hi = 1 }"#,
            false,
            "panel 'nope' has no rows",
        );
    }
}

mod outputs {
    use experiments::{
        CSV_HEADER, Experiment, Figure, PanelInfo, Row, RunOptions, Traces, parse_csv, run,
        write_csv,
    };

    use super::BASE;

    fn rows() -> Vec<Row> {
        vec![
            Row {
                panel: "p".into(),
                series: "a".into(),
                x: "1".into(),
                y: 1.0 / 3.0,
                ci: Some((0.1, 0.5)),
                runs: 3,
            },
            Row {
                panel: "p".into(),
                series: "b".into(),
                x: "1".into(),
                y: 2.0,
                ci: None,
                runs: 1,
            },
            Row {
                panel: "p".into(),
                series: "a".into(),
                x: "2".into(),
                y: 12345.678,
                ci: None,
                runs: 1,
            },
        ]
    }

    #[test]
    fn csv_is_deterministic_and_round_trips() {
        let text = write_csv(&rows());
        assert_eq!(text, write_csv(&rows()));
        assert_eq!(
            text,
            format!("{CSV_HEADER}\np,a,1,0.333333,0.1,0.5,3\np,b,1,2,,,1\np,a,2,12345.7,,,1\n")
        );
        let back = parse_csv(&text).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[1], rows()[1]);
        assert!(parse_csv("panel,series\n").is_err());
        assert!(
            parse_csv(&format!("{CSV_HEADER}\np,a,1,x,,,1\n"))
                .unwrap_err()
                .to_string()
                .contains("line 2: y is 'x'")
        );
    }

    #[test]
    fn svg_is_deterministic_and_labelled() {
        for categorical in [false, true] {
            let fig = Figure {
                title: "T & <t>".into(),
                x_label: "load (%)".into(),
                categorical,
                log_x: false,
                series: vec!["a".into(), "b".into()],
                panels: vec![PanelInfo {
                    id: "p".into(),
                    title: "P".into(),
                    y_label: "wait (s)".into(),
                    log_y: false,
                }],
                confidence: 0.95,
                repetitions: 3,
                notice: None,
            };
            let svg = fig.render(&rows());
            assert_eq!(svg, fig.render(&rows()));
            assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
            for needle in [
                "T &amp; &lt;t&gt;",
                "load (%)",
                "wait (s)",
                ">a</text>",
                ">b</text>",
            ] {
                assert!(svg.contains(needle), "{needle} missing");
            }
            assert_eq!(svg.contains("<polyline"), !categorical);
            assert!(svg.contains("<rect x="));
        }
    }

    #[test]
    fn same_config_gives_identical_outputs_whatever_the_threads() {
        let text = BASE.replace("seed = 5", "seed = 5\nrepetitions = 3");
        let e = Experiment::parse(&text, "t.toml").unwrap();
        let prov = experiments::Provenance {
            git_revision: "abc".into(),
            config_file: "t.toml".into(),
        };
        let one = run(
            &e,
            &Traces::new(),
            &RunOptions {
                threads: 1,
                progress: None,
                cache: None,
            },
        )
        .unwrap()
        .files(&e, &prov);
        let two = run(
            &e,
            &Traces::new(),
            &RunOptions {
                threads: 2,
                progress: None,
                cache: None,
            },
        )
        .unwrap()
        .files(&e, &prov);
        assert_eq!(one, two);
        let csv = &one[0].1;
        assert_eq!(csv.lines().count(), 4);
        assert!(csv.lines().nth(1).unwrap().ends_with(",3"), "{csv}");
    }
}

mod pipeline {
    use experiments::{
        Experiment, KNOWN_TRACES, RunError, RunOptions, Source, Traces, known_trace, run,
    };
    use swf_io::{SwfHeader, SwfRecord, Trace};

    use super::BASE;

    fn record(job: i64, submit: i64, run: i64, procs: i64, req: i64) -> SwfRecord {
        SwfRecord {
            job: Some(job),
            submit: Some(submit),
            run_time: Some(run),
            allocated_procs: Some(procs),
            requested_time: Some(req),
            ..SwfRecord::default()
        }
    }

    /// A hand-made four-processor trace with one unreplayable record.
    fn tiny_trace() -> Source {
        tiny_trace_with(SwfHeader {
            max_procs: Some(4),
            ..SwfHeader::default()
        })
    }

    /// The tiny trace's records under another header.
    fn tiny_trace_with(header: SwfHeader) -> Source {
        let records = vec![
            record(1, 0, 100, 4, 100),
            record(2, 1, 50, 2, 60),
            record(3, 2, 10, 2, 20),
            SwfRecord {
                job: Some(4),
                submit: Some(3),
                ..SwfRecord::default()
            },
            record(5, 4, 10, 1, 10),
        ];
        Source::trace(
            "tiny.swf".into(),
            "00".into(),
            Trace {
                source: "tiny.swf".into(),
                header,
                records,
                skipped: vec![],
                skipped_count: 0,
            },
            None,
        )
    }

    fn traced(config: &str) -> Experiment {
        let text = BASE.replace("lublin99 = { procs = 32, jobs = 200 }", config);
        Experiment::parse(&text, "t.toml").unwrap()
    }

    #[test]
    fn end_to_end_on_a_hand_made_trace() {
        let e = traced("trace = \"tiny\"");
        assert_eq!(e.traces().len(), 1);
        let mut traces = Traces::new();
        traces.insert("tiny".into(), tiny_trace());
        let r = run(&e, &traces, &RunOptions::default()).unwrap();
        assert_eq!(r.workloads[0].unreplayable, 1);
        assert_eq!(r.workloads[0].jobs, 4);
        assert_eq!(r.workloads[0].capacity, 4);
        assert!(!r.stand_in());
        let summary = r.summary(&e);
        assert!(
            summary.contains("| gen | tiny.swf | `00` | 4 | 5 | 1 |"),
            "{summary}"
        );
        assert_eq!(r.verdicts.len(), 1);
        assert!(summary.contains(r.verdicts[0].label()));
    }

    #[test]
    fn a_trace_without_a_machine_size_needs_procs() {
        for header in [
            SwfHeader::default(),
            SwfHeader {
                max_procs: Some(0),
                ..SwfHeader::default()
            },
        ] {
            let mut traces = Traces::new();
            traces.insert("tiny".into(), tiny_trace_with(header));
            let e = run(&traced("trace = \"tiny\""), &traces, &RunOptions::default())
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(
                    "workload 'gen': tiny.swf gives no machine size (header MaxProcs and \
                     MaxNodes missing, -1 or 0); add `procs = N` to the workload"
                ),
                "{e}"
            );
            let given = traced("trace = \"tiny\"\nprocs = 2");
            let r = run(&given, &traces, &RunOptions::default()).unwrap();
            assert_eq!(r.workloads[0].capacity, 2);
            assert_eq!(r.workloads[0].too_wide, 1);
        }
        // `procs` replaces a header's size too, and must be in range.
        let mut traces = Traces::new();
        traces.insert("tiny".into(), tiny_trace());
        let given = traced("trace = \"tiny\"\nprocs = 8");
        let r = run(&given, &traces, &RunOptions::default()).unwrap();
        assert_eq!(r.workloads[0].capacity, 8);
        // Both refused when the configuration is read, at the line of `procs`.
        let parse = |config: &str| {
            let text = BASE.replace("lublin99 = { procs = 32, jobs = 200 }", config);
            Experiment::parse(&text, "t.toml").unwrap_err()
        };
        let e = parse("trace = \"tiny\"\nprocs = 0");
        assert!(
            e.to_string().starts_with(
                "t.toml:12:9: workload 'gen': `procs` is 0, expected 1 to 10000000 processors"
            ),
            "{e}"
        );
        let e = parse("lublin99 = { procs = 32, jobs = 200 }\nprocs = 8");
        assert_eq!(e.line(), Some(12));
        assert!(
            e.to_string().contains("a lublin99 workload has its own"),
            "{e}"
        );
    }

    #[test]
    fn missing_trace_is_an_error() {
        let e = traced("trace = \"nowhere\"");
        assert_eq!(
            run(&e, &Traces::new(), &RunOptions::default()).unwrap_err(),
            RunError::MissingTrace {
                name: "nowhere".into()
            }
        );
    }

    #[test]
    fn stand_in_is_announced_everywhere() {
        let known = known_trace("KTH-SP2-1996-2.1-cln.swf.gz").unwrap();
        assert_eq!(known.procs, 100);
        assert_eq!(KNOWN_TRACES.len(), 8);
        let e = traced("trace = \"KTH-SP2-1996-2.1-cln\"\ntransforms = [{ last_n = 300 }]");
        let mut traces = Traces::new();
        traces.insert("KTH-SP2-1996-2.1-cln".into(), Source::stand_in(known));
        let r = run(&e, &traces, &RunOptions::default()).unwrap();
        assert!(r.stand_in());
        assert_eq!(r.workloads[0].capacity, 100);
        assert_eq!(r.workloads[0].jobs, 300);
        let prov = experiments::Provenance {
            git_revision: "unknown".into(),
            config_file: "t.toml".into(),
        };
        assert!(r.summary(&e).contains("NOT comparable to a paper"));
        let svg = r.svg();
        assert!(
            svg.contains("STAND-IN WORKLOAD: gen replaced by a synthetic"),
            "{svg}"
        );
        let run_toml = r.run_toml(&e, &prov);
        assert!(
            run_toml.contains("stand_in = true") && run_toml.contains("NOT comparable"),
            "{run_toml}"
        );
    }

    #[test]
    fn load_sweep_with_repetitions_has_confidence_intervals() {
        let text = BASE
            .replace("seed = 5", "seed = 5\nrepetitions = 2")
            .replace("axis = \"workload\"", "axis = \"load\"\nvalues = [0.5, 1]");
        let e = Experiment::parse(&text, "t.toml").unwrap();
        let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
        assert_eq!(r.rows.len(), 6);
        assert!(r.rows.iter().all(|row| row.ci.is_some() && row.runs == 2));
        assert_eq!(r.rows[0].x, "0.5");
        assert_eq!(r.seeds.len(), 2);
    }
}

mod every_config {
    use std::path::{Path, PathBuf};

    use experiments::Experiment;

    fn tomls(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                tomls(&path, out);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }

    /// Every committed config parses, and every point of every series (and
    /// every reference run) resolves and passes its kind's checks: parsing
    /// does all of that, so a config that parses cannot fail on a parameter.
    #[test]
    fn every_config_parses() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
        let mut files = Vec::new();
        tomls(&root, &mut files);
        assert!(files.len() >= 19, "found only {} configs", files.len());
        let mut kinds = std::collections::BTreeSet::new();
        let mut parsed = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let shown = file.strip_prefix(&root).unwrap().display().to_string();
            let e = Experiment::parse(&text, &shown).unwrap_or_else(|e| panic!("{e}"));
            let dir = file.parent().unwrap();
            let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
            let stem = file.file_stem().unwrap().to_string_lossy();
            let want = match name(dir).as_str() {
                "examples" => None,
                // configs/<paper>/sensitivity/<name>.toml
                "sensitivity" => Some(format!(
                    "{}/sensitivity/{stem}",
                    name(dir.parent().unwrap())
                )),
                d => Some(format!("{d}/{stem}")),
            };
            if let Some(want) = want {
                assert_eq!(e.id(), want, "{shown}: id and path disagree");
                // A paper's claim naming a missing x is a typo, not a drop.
                assert!(
                    e.skipped_claims().is_empty(),
                    "{shown}: {:?}",
                    e.skipped_claims()
                );
            }
            assert!(!e.series().is_empty());
            kinds.insert(e.kind().to_string());
            parsed.push(e);
        }
        for kind in experiments::Registry::builtin().kinds() {
            assert!(kinds.contains(kind), "no config uses kind '{kind}'");
        }
        check_sensitivity_runs(&parsed);
    }

    /// The claims of a config as (text, paper value).
    fn claims(e: &Experiment) -> Vec<(String, Option<String>)> {
        e.claims()
            .iter()
            .map(|c| (c.text.clone(), c.paper_value.clone()))
            .collect()
    }

    /// A sensitivity run varies one paper figure: it checks the same claims
    /// as some figure of its paper, on the same seed.
    fn check_sensitivity_runs(all: &[Experiment]) {
        let mut found = 0;
        for e in all {
            let Some((paper, _)) = e.id().split_once("/sensitivity/") else {
                continue;
            };
            found += 1;
            let figure = all.iter().find(|f| {
                f.id().split('/').count() == 2
                    && f.id().starts_with(&format!("{paper}/"))
                    && claims(f) == claims(e)
                    && f.seed() == e.seed()
            });
            assert!(
                figure.is_some(),
                "{}: no figure of {paper} has the same claims and seed",
                e.id()
            );
        }
        assert!(found > 0, "no sensitivity runs found");
    }
}

mod utility_kind {
    use experiments::{Experiment, Results, RunOptions, Traces, run};
    use utility_match::{Settings, SystemMetrics, simulate};

    const FIGS: [(&str, &str); 4] = [
        (
            "fig3",
            include_str!("../../../../configs/utility/fig3.toml"),
        ),
        (
            "fig4",
            include_str!("../../../../configs/utility/fig4.toml"),
        ),
        (
            "fig5",
            include_str!("../../../../configs/utility/fig5.toml"),
        ),
        (
            "fig6",
            include_str!("../../../../configs/utility/fig6.toml"),
        ),
    ];

    /// A figure's configuration shrunk to a few users and repetitions.
    fn small(text: &str) -> String {
        text.replace("users = 70", "users = 6")
            .replace("repetitions = 10", "repetitions = 3")
    }

    fn parse_err(text: &str) -> String {
        Experiment::parse(text, "f.toml").unwrap_err().to_string()
    }

    fn results(e: &Experiment, threads: usize) -> Results {
        let options = RunOptions {
            threads,
            ..RunOptions::default()
        };
        run(e, &Traces::new(), &options).unwrap()
    }

    #[test]
    fn the_paper_configurations_parse_with_every_default_written_out() {
        for (name, text) in FIGS {
            let e = Experiment::parse(text, name).unwrap();
            assert_eq!(e.series(), ["pu", "bu", "mm"], "{name}");
            assert!(!e.claims().is_empty(), "{name} checks the paper's claims");
            // The written-out values are the crate's defaults.
            let written: Settings = toml::from_str::<toml::Table>(text).unwrap()["params"]
                .clone()
                .try_into()
                .unwrap();
            assert_eq!(written, Settings::default(), "{name}");
        }
    }

    #[test]
    fn a_small_grid_runs_end_to_end_and_reproducibly() {
        let e = Experiment::parse(&small(FIGS[1].1), "fig4").unwrap();
        let a = results(&e, 2);
        // 3 panels × 1 x × 3 schedulers.
        assert_eq!(a.rows.len(), 9);
        assert!(a.rows.iter().all(|r| r.runs == 3 && r.ci.is_some()));
        let b = results(&e, 1);
        assert_eq!(
            a.csv(),
            b.csv(),
            "same seeds, same numbers, any thread count"
        );
        let u = |s: &str| {
            a.rows
                .iter()
                .find(|r| r.panel == "utility" && r.series == s)
                .unwrap()
                .y
        };
        assert!((0.0..=1.0).contains(&u("pu")) && (0.0..=1.0).contains(&u("mm")));
        // A FAILed claim's explanation is shown under the claims, and only
        // then, in the paper's setting.
        let summary = a.summary_in(&e, &experiments::Setting::Paper);
        for v in &a.verdicts {
            let shown = v
                .explanation
                .as_ref()
                .is_some_and(|x| summary.contains(&experiments::encode::markdown(x)));
            assert_eq!(shown, !v.passed() && v.explanation.is_some(), "{}", v.text);
        }
        assert!(summary.contains("90% confidence intervals"));
        assert!(summary.contains("the grid scenario of §4.2"));
    }

    #[test]
    fn ninety_percent_intervals_are_narrower() {
        let text = small(FIGS[0].1);
        let e90 = Experiment::parse(&text, "fig3").unwrap();
        let e95 = Experiment::parse(
            &text.replace("confidence = 0.90", "confidence = 0.95"),
            "fig3",
        )
        .unwrap();
        let width = |e: &Experiment| {
            let r = results(e, 2);
            let row = r
                .rows
                .iter()
                .find(|r| r.panel == "success" && r.series == "mm")
                .unwrap()
                .clone();
            row.ci.map(|(lo, hi)| hi - lo).unwrap()
        };
        let (w90, w95) = (width(&e90), width(&e95));
        assert!(w90 < w95 || w95 == 0.0, "90% {w90} vs 95% {w95}");
    }

    #[test]
    fn any_setting_is_a_sweep_axis_with_integer_values_for_integer_keys() {
        let sweep = |axis: &str, values: &str| {
            small(FIGS[0].1)
                .replace(
                    "axis = \"workload\"\n",
                    &format!("axis = \"{axis}\"\nvalues = {values}\n"),
                )
                .replace("max_ttl = 3\n", "")
                .replace("mean_interarrival = 120", "")
        };
        let e = Experiment::parse(&sweep("max_ttl", "[0, 3]"), "ttl").unwrap();
        let r = results(&e, 2);
        let xs: Vec<&str> = r.rows.iter().map(|row| row.x.as_str()).collect();
        assert_eq!(xs[..6], ["0", "0", "0", "3", "3", "3"]);
        // Without forwarding a job whose best resource is remote fails, so
        // no scheduler serves more than with three forwards.
        let success = |series: &str, x: &str| {
            r.rows
                .iter()
                .find(|row| row.panel == "success" && row.series == series && row.x == x)
                .unwrap()
                .y
        };
        for s in ["pu", "bu", "mm"] {
            assert!(success(s, "0") <= success(s, "3"), "{s}");
        }
        let e = parse_err(&sweep("max_ttl", "[0, 1.5]"));
        assert!(e.contains("series 'pu' at max_ttl = 1.5"), "{e}");
        assert!(e.contains("expected u32"), "{e}");
        let e = parse_err(&sweep("max_ttl", "[3, 65]"));
        assert!(
            e.contains("params.max_ttl: is 65, expected at most 64"),
            "{e}"
        );
        Experiment::parse(&sweep("mean_interarrival", "[60, 120.5]"), "f").unwrap();
    }

    #[test]
    fn bad_parameters_are_named() {
        let base = FIGS[0].1;
        let series = r#"series = ["pu", "bu", "mm"]"#;
        let e = parse_err(&base.replace(series, r#"series = ["pu", "pu"]"#));
        assert!(e.contains("series 'pu' is listed twice"), "{e}");
        let e = parse_err(&base.replace(series, r#"series = ["xx"]"#));
        assert!(
            e.contains("unknown scheduler 'xx', expected pu, bu or mm"),
            "{e}"
        );
        let e = parse_err(&base.replace("[params]\n", "[params]\nschedulers = [\"pu\"]\n"));
        assert!(
            e.contains(
                "params.schedulers was replaced: list the schedulers as top-level `series = [...]`"
            ),
            "{e}"
        );
        let e = parse_err(&base.replace(
            "axis = \"workload\"\n",
            "axis = \"load\"\nvalues = [1, 2]\n",
        ));
        assert!(e.contains("sweep `mean_interarrival` instead"), "{e}");
        let e = parse_err(&base.replace(
            "generated_by_kind = ",
            "lublin99 = { procs = 8, jobs = 10 }\n# ",
        ));
        assert!(e.contains("generates its own jobs"), "{e}");
        let e = parse_err(&base.replace("delay = 1\n", "delay = 1\ndelays = [[0, 1], [1, 0]]\n"));
        assert!(
            e.contains("params.delays: must have 4 rows of 4 delays"),
            "{e}"
        );
        let e = parse_err(&base.replace("delay = 1\n", "delay = -1\n"));
        assert!(
            e.contains("params.delay: is -1 s, expected 0 to 2^40 s"),
            "{e}"
        );
        let e = parse_err(&base.replace("max_ttl = 3", "max_ttl = 65"));
        assert!(
            e.contains("params.max_ttl: is 65, expected at most 64"),
            "{e}"
        );
        let e = parse_err(&base.replace("max_ttl = 3", "max_tll = 3"));
        assert!(e.contains("unknown field `max_tll`"), "{e}");
        let e = parse_err(&base.replace("status_period = 60", "status_period = 0"));
        assert!(
            e.contains("params.status_period: is 0 s, expected at least 1 s"),
            "{e}"
        );
        let e = parse_err(&base.replace("speeds = [1000, 2000, 3000, 4000]", "speeds = []"));
        assert!(e.contains("params.speeds: is empty"), "{e}");
        let e = parse_err(&base.replace(
            "tie_break = \"local-least-loaded\"",
            "tie_break = \"random\"",
        ));
        assert!(e.contains("unknown variant `random`"), "{e}");
    }

    #[test]
    fn every_metric_is_one_the_crate_reports() {
        let p = Settings {
            users: 3,
            jobs_per_user: 2,
            ..Settings::default()
        };
        let w = p.scenario().generate(1).unwrap();
        let run = simulate(&p.grid(), &p.scheduler, &w.machines, &w.jobs).unwrap();
        let reported: Vec<&str> = SystemMetrics::of(&run)
            .unwrap()
            .named()
            .iter()
            .map(|(name, _)| *name)
            .collect();
        // An unknown metric's error lists the kind's metrics.
        let e = parse_err(
            &FIGS[0]
                .1
                .replace("metric = \"success_ratio\"", "metric = \"nope\""),
        );
        let listed = e.split("expected one of: ").nth(1).unwrap_or_default();
        let listed: Vec<&str> = listed
            .lines()
            .next()
            .unwrap_or_default()
            .split(", ")
            .collect();
        assert_eq!(listed, reported, "every metric, none left out");
    }

    /// A batch sharing runs through a cache writes what each experiment
    /// writes on its own, simulates each shared run once, and keeps
    /// nothing once every registered experiment has run.
    #[test]
    fn shared_runs_change_no_result() {
        let experiments: Vec<Experiment> = FIGS
            .iter()
            .map(|(name, text)| Experiment::parse(&small(text), name).unwrap())
            .collect();
        let alone: Vec<Results> = experiments.iter().map(|e| results(e, 2)).collect();
        let cache = experiments::RunCache::new();
        let traces = Traces::new();
        for e in &experiments {
            cache.register(e, &traces).unwrap();
        }
        for (e, alone) in experiments.iter().zip(&alone) {
            let options = RunOptions {
                threads: 2,
                cache: Some(&cache),
                ..RunOptions::default()
            };
            let shared = run(e, &traces, &options).unwrap();
            assert_eq!(shared.rows, alone.rows, "{}", e.id());
            assert_eq!(shared.summary(e), alone.summary(e), "{}", e.id());
        }
        // The four figures run the same three schedulers on the same grids.
        let per_figure = 3 * 3;
        assert_eq!(cache.shared(), 3 * per_figure);
        assert_eq!(cache.kept(), 0, "nothing is kept after its last use");
        // Shards: each shard's cache holds only its own cells' runs, and the
        // merged shards are the experiments run alone.
        let provenance = experiments::Provenance {
            git_revision: "r".into(),
            config_file: "f.toml".into(),
        };
        let mut parts: Vec<Vec<experiments::ShardCells>> = vec![Vec::new(); experiments.len()];
        for i in 0..2 {
            let shard = experiments::Shard::new(i, 2).unwrap();
            let cache = experiments::RunCache::new();
            for e in &experiments {
                cache.register_shard(e, &traces, shard).unwrap();
            }
            for (k, e) in experiments.iter().enumerate() {
                let options = RunOptions {
                    cache: Some(&cache),
                    ..RunOptions::default()
                };
                let part = experiments::run_shard(e, &traces, &options, shard, &provenance);
                parts[k].push(part.unwrap());
            }
            assert!(
                cache.shared() > 0,
                "shard {i} shares the figures' common runs"
            );
            assert_eq!(cache.kept(), 0);
        }
        for ((e, alone), parts) in experiments.iter().zip(&alone).zip(&parts) {
            let merged =
                experiments::merge(e, &traces, &RunOptions::default(), &provenance, parts).unwrap();
            assert_eq!(merged.rows, alone.rows, "{}", e.id());
        }
        // An experiment that was never registered shares nothing.
        let lone = experiments::RunCache::new();
        let options = RunOptions {
            cache: Some(&lone),
            ..RunOptions::default()
        };
        run(&experiments[0], &traces, &options).unwrap();
        assert_eq!((lone.shared(), lone.kept()), (0, 0));
    }
}

#[path = "kinds/adaptive.rs"]
mod adaptive_kind;

#[path = "kinds/provisioning.rs"]
mod provisioning_kind;

#[path = "kinds/pricing.rs"]
mod pricing_kind;

#[path = "svg/figure.rs"]
mod figure_svg;

/// A paper's words only in its setting, equal values, skipped claims, log_x.
mod honest;

#[path = "workload/filters.rs"]
mod workload_filters;

#[path = "workload/lublin.rs"]
mod workload_lublin;

#[path = "claims/intervals.rs"]
mod claim_intervals;

#[path = "encoding/hostile.rs"]
mod hostile_outputs;

#[path = "checks/intermediate.rs"]
mod intermediate_checks;

mod sweeps;

/// A study's errors at the key at fault; x labels that stay distinct.
mod study_errors;

/// A user's kind checked where it enters: registration and measured values.
mod user_kinds;

/// The schema described: `configs/README.md` and every shipped key.
mod describe;

/// Errors found only at run time name the file, line and field.
#[path = "workload/run_errors.rs"]
mod workload_run_errors;

/// `Registry::check_params`: one run's `[params]` checked as a config's.
#[path = "kinds/check_params.rs"]
mod check_params;
