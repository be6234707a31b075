//! Several workloads on a numeric axis (a panel or a line each) and series
//! that change the workloads (`workload = { ... }`).

use experiments::{Experiment, RunOptions, Traces, run};

/// Two generated workloads on a load axis, EASY with two estimate models.
fn config(facet: &str) -> String {
    format!(
        r#"version = 2
id = "test/sweeps"
title = "Sweeps"
paper = "test"
kind = "backfilling"
seed = 9
repetitions = 2
series = [
    {{ name = "easy", params = {{ policy = "easy" }} }},
    {{ name = "easy, halved", params = {{ policy = "easy" }}, workload = {{ estimate = {{ under_estimate = 0.5 }} }} }},
]

[[workloads]]
label = "small"
lublin99 = {{ procs = 32, jobs = 150 }}

[[workloads]]
label = "large"
lublin99 = {{ procs = 64, jobs = 150 }}

[sweep]
axis = "load"
values = [0.5, 0.9]
label = "load"
{facet}

[[panels]]
id = "wait"
metric = "mean_wait"
"#
    )
}

fn options(threads: usize) -> RunOptions<'static> {
    RunOptions {
        threads,
        ..RunOptions::default()
    }
}

#[test]
fn workloads_as_panels_give_a_panel_per_workload() {
    let e = Experiment::parse(&config("workloads = \"panels\""), "s.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(2)).unwrap();
    let panels: Vec<&str> = r.rows.iter().map(|r| r.panel.as_str()).collect();
    assert_eq!(panels.len(), 2 * 2 * 2, "panels x loads x series");
    assert_eq!(&panels[..4], ["wait@small"; 4]);
    assert_eq!(&panels[4..], ["wait@large"; 4]);
    let ids: Vec<&str> = r.figure.panels.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["wait@small", "wait@large"]);
    assert!(r.figure.panels[1].title.ends_with("(large)"));
    // The same bytes on one thread.
    let one = run(&e, &Traces::new(), &options(1)).unwrap();
    assert_eq!(one.csv(), r.csv());
}

#[test]
fn workloads_as_series_give_a_line_per_workload() {
    let e = Experiment::parse(&config("workloads = \"series\""), "s.toml").unwrap();
    assert_eq!(
        e.series(),
        [
            "easy@small",
            "easy@large",
            "easy, halved@small",
            "easy, halved@large"
        ]
    );
    let r = run(&e, &Traces::new(), &options(2)).unwrap();
    assert_eq!(r.rows.len(), 2 * 4);
}

#[test]
fn a_series_workload_override_changes_what_its_runs_see() {
    let e = Experiment::parse(&config("workloads = \"panels\""), "s.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(2)).unwrap();
    let y = |series: &str, panel: &str| {
        r.rows
            .iter()
            .filter(|r| r.series == series && r.panel == panel)
            .map(|r| r.y)
            .collect::<Vec<_>>()
    };
    // Halved estimates kill jobs early and change every wait.
    assert_ne!(y("easy", "wait@small"), y("easy, halved", "wait@small"));
    assert_ne!(y("easy", "wait@large"), y("easy, halved", "wait@large"));
}

#[test]
fn a_numeric_axis_over_several_workloads_needs_facets() {
    let err = Experiment::parse(&config(""), "s.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("exactly one workload"), "{err}");
    let categorical = config("workloads = \"panels\"").replace(
        "axis = \"load\"\nvalues = [0.5, 0.9]",
        "axis = \"workload\"",
    );
    let err = Experiment::parse(&categorical, "s.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("needs a numeric axis"), "{err}");
    let rename = config("workloads = \"panels\"").replace(
        "workload = { estimate = { under_estimate = 0.5 } }",
        "workload = { label = \"x\" }",
    );
    let err = Experiment::parse(&rename, "s.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot rename a workload"), "{err}");
    let unknown = config("workloads = \"panels\"").replace(
        "workload = { estimate = { under_estimate = 0.5 } }",
        "workload = { estimat = \"actual\" }",
    );
    let err = Experiment::parse(&unknown, "s.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `estimat`"), "{err}");
}

#[test]
fn claims_address_faceted_panels() {
    let text = config("workloads = \"panels\"")
        + "\n[[claims]]\ntext = \"waits grow with load\"\n\
           check.monotone = { panel = \"wait@large\", series = \"easy\", direction = \"increasing\" }\n";
    let e = Experiment::parse(&text, "s.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(2)).unwrap();
    assert_eq!(r.verdicts.len(), 1);
    let bad = text.replace("wait@large", "wait@huge");
    let err = Experiment::parse(&bad, "s.toml").unwrap_err().to_string();
    assert!(err.contains("unknown panel 'wait@huge'"), "{err}");
}

/// A workload field no run reads is an error naming it, at the workload,
/// the series or the sweep that sets it, never ignored: a trace's fields on
/// a workload the kind generates or on a Lublin99 one, and estimates for
/// the pricing kind, which makes its own from `inaccuracy`.
#[test]
fn workload_fields_no_run_reads_are_refused_where_they_are_set() {
    let pricing = |series: &str, workload: &str, sweep: &str| {
        format!(
            "version = 2\nid = \"test/unread\"\ntitle = \"t\"\nkind = \"pricing\"\nseed = 1\n\
             series = [{series}]\n\n[[workloads]]\nlabel = \"gen\"\n{workload}\n\n[sweep]\n\
             {sweep}\nlabel = \"x\"\n\n[[panels]]\nid = \"qos\"\nmetric = \"qos\"\n"
        )
    };
    let generated = |extra: &str| {
        format!(
            "version = 2\nid = \"test/unread\"\ntitle = \"t\"\nkind = \"utility\"\nseed = 1\n\
             series = [\"pu\"]\n\n[[workloads]]\nlabel = \"gen\"\n\
             generated_by_kind = \"the grid\"\n{extra}\n\n[sweep]\naxis = \"workload\"\n\
             label = \"x\"\n\n[[panels]]\nid = \"s\"\nmetric = \"success_ratio\"\n"
        )
    };
    let lublin = "lublin99 = { procs = 32, jobs = 100 }";
    let by_workload = "axis = \"workload\"";
    let refused = |text: String, line: usize, needle: &str| {
        let err = Experiment::parse(&text, "u.toml").expect_err(needle);
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("u.toml:{line}:")), "{shown}");
        assert!(shown.contains(needle), "{shown}");
    };
    for (extra, needle) in [
        (
            "transforms = [{ last_n = 10 }]",
            "`transforms` act on the jobs of a trace",
        ),
        (
            "estimate = \"actual\"",
            "`estimate` picks a trace's estimates",
        ),
        ("lenient = true", "`lenient` applies to a trace file"),
        ("stand_in = true", "`stand_in` applies to a trace file"),
    ] {
        // At the field's own line, not the label's.
        refused(generated(extra), 11, needle);
    }
    let own = "kind 'pricing' makes its own run-time estimates from [params]";
    refused(
        pricing(
            "\"edf-bf\"",
            &format!("{lublin}\nstand_in = true"),
            by_workload,
        ),
        11,
        "`stand_in` applies to a trace file; this workload has none (`lublin99`)",
    );
    refused(
        pricing(
            "\"edf-bf\"",
            &format!("{lublin}\nestimate = {{ under_estimate = 0.5 }}"),
            by_workload,
        ),
        11,
        own,
    );
    refused(
        pricing(
            "\"edf-bf\"",
            "lublin99 = { procs = 32, jobs = 100, estimates = \"f:3\" }",
            by_workload,
        ),
        10,
        "remove `lublin99.estimates`",
    );
    refused(
        pricing(
            "\"edf-bf\", { name = \"req\", params = { policy = \"edf-bf\" }, workload = { estimate = \"requested\" } }",
            lublin,
            by_workload,
        ),
        6,
        own,
    );
    refused(
        pricing(
            "\"edf-bf\"",
            lublin,
            "axis = \"workload.estimate\"\nvalues = [\"requested\", \"actual\"]",
        ),
        // The swept key is what no run reads: at the axis.
        13,
        own,
    );
    // What the runs read stays accepted: pricing's `estimate = "actual"`
    // (its figures write it), a trace's `lenient`, a backfilling series'
    // estimate (the configs above).
    let ok = pricing(
        "\"edf-bf\"",
        &format!("{lublin}\nestimate = \"actual\""),
        by_workload,
    );
    Experiment::parse(&ok, "u.toml").unwrap();
    Experiment::parse(&config("workloads = \"panels\""), "s.toml").unwrap();
    Experiment::parse(&generated(""), "u.toml").unwrap();
}

/// The facts of a run (`run.toml`, summary.md's Workloads table) name
/// every workload its runs read: a variant a series or the sweep makes of
/// an entry is listed with what it changes, and an entry every run reads
/// only through variants is not listed.
#[test]
fn the_facts_name_every_workload_the_runs_read() {
    let e = Experiment::parse(&config("workloads = \"panels\""), "s.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(2)).unwrap();
    let shown: Vec<String> = r.workloads.iter().map(|w| w.shown_label()).collect();
    // Each repetition draws its own Lublin99 workload: a row each.
    assert_eq!(
        shown,
        [
            "small (repetition 1)",
            "small (repetition 2)",
            "large (repetition 1)",
            "large (repetition 2)",
            "small (estimate.under_estimate = 0.5; repetition 1)",
            "small (estimate.under_estimate = 0.5; repetition 2)",
            "large (estimate.under_estimate = 0.5; repetition 1)",
            "large (estimate.under_estimate = 0.5; repetition 2)",
        ]
    );
    assert_ne!(r.workloads[0].seed, r.workloads[1].seed);
    assert_eq!(r.workloads[0].seed, r.workloads[4].seed);
    let summary = r.summary(&e);
    assert!(
        summary.contains("| large (estimate.under\\_estimate = 0.5; repetition 2) | Lublin99"),
        "{summary}"
    );

    // A sweep over traces: the entry's own trace is never read.
    let text =
        traced("[sweep]\naxis = \"workload.trace\"\nvalues = [\"b\", \"c\"]\nlabel = \"trace\"\n");
    let e = Experiment::parse(&text, "t.toml").unwrap();
    let r = run(&e, &three_traces(), &options(2)).unwrap();
    let facts: Vec<(String, Option<&str>)> = r
        .workloads
        .iter()
        .map(|w| (w.shown_label(), w.sha256.as_deref()))
        .collect();
    assert_eq!(
        facts,
        [
            ("log (trace = \"b\")".to_string(), Some("bb")),
            ("log (trace = \"c\")".to_string(), Some("cc")),
        ]
    );
    let run_toml = r.run_toml(
        &e,
        &experiments::Provenance {
            git_revision: "r".into(),
            config_file: "t.toml".into(),
        },
    );
    assert!(run_toml.contains("variant = 'trace = \"c\"'"), "{run_toml}");
    assert!(!run_toml.contains("\"aa\""), "{run_toml}");
}

/// A swept trace that cannot be found or read is placed at the value that
/// names it, whether the axis, a `with` key or the grid sweeps the trace.
#[test]
fn a_swept_trace_is_placed_at_its_value() {
    for (sweep, line) in [
        (
            "[sweep]\naxis = \"workload.trace\"\nvalues = [\"b\",\n  \"missing\"]\nlabel = \"trace\"\n",
            15,
        ),
        (
            "[sweep]\naxis = \"bsld_bound\"\nvalues = [10, 20]\nlabel = \"x\"\n\
             with = { \"workload.trace\" = [\"b\",\n  \"missing\"] }\n",
            17,
        ),
        (
            "[sweep]\naxis = \"workload\"\nlabel = \"w\"\n\
             grid = { axis = \"workload.trace\", values = [\"b\",\n  \"missing\"], label = \"t\" }\n",
            16,
        ),
    ] {
        let e = Experiment::parse(&traced(sweep), "t.toml").unwrap();
        let err = e.at_trace("missing", "cannot find trace 'missing'");
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("t.toml:{line}:3: ")), "{shown}");
    }
}

/// A backfilling study of the workload `log` on trace `a`, with `sweep`.
fn traced(sweep: &str) -> String {
    format!(
        "version = 2\nid = \"test/traced\"\ntitle = \"t\"\nkind = \"backfilling\"\nseed = 1\n\
         series = [\"easy\"]\n\n[[workloads]]\nlabel = \"log\"\ntrace = \"a\"\n\n{sweep}\n\
         [[panels]]\nid = \"wait\"\nmetric = \"mean_wait\"\n"
    )
}

/// Traces `a`, `b` and `c` (checksums `aa`, `bb`, `cc`) of a few jobs each.
fn three_traces() -> Traces {
    let mut traces = Traces::new();
    for (i, name) in ["a", "b", "c"].into_iter().enumerate() {
        let records = (0..4i64)
            .map(|j| swf_io::SwfRecord {
                job: Some(j + 1),
                submit: Some(j * 10),
                run_time: Some(5 + i as i64),
                allocated_procs: Some(1 + j % 2),
                requested_time: Some(20),
                ..swf_io::SwfRecord::default()
            })
            .collect();
        let trace = swf_io::Trace {
            source: format!("{name}.swf"),
            header: swf_io::SwfHeader {
                max_procs: Some(2),
                ..swf_io::SwfHeader::default()
            },
            records,
            skipped: vec![],
            skipped_count: 0,
        };
        let sha = name.repeat(2);
        traces.insert(
            name.into(),
            experiments::Source::trace(format!("{name}.swf"), sha, trace, None),
        );
    }
    traces
}

/// A name composed for a facet (`<series>@<label>`, `<panel>@<label>`,
/// `<panel>@<grid value>`) that repeats another is refused where the
/// second is written: two runs would share one name in every output.
#[test]
fn composed_names_that_repeat_are_refused() {
    let text = |facet: &str, series: &str, panels: &str| {
        format!(
            "version = 2\nid = \"test/at\"\ntitle = \"t\"\nkind = \"backfilling\"\nseed = 1\n\
             series = [{series}]\n\n[[workloads]]\nlabel = \"A@B\"\n\
             lublin99 = {{ procs = 16, jobs = 20 }}\n\n[[workloads]]\nlabel = \"B\"\n\
             lublin99 = {{ procs = 16, jobs = 20 }}\n\n[sweep]\naxis = \"load\"\n\
             values = [0.5, 1.0]\nlabel = \"load\"\nworkloads = \"{facet}\"\n{panels}"
        )
    };
    let one_panel = "\n[[panels]]\nid = \"b\"\nmetric = \"mean_bsld\"\n";
    let err = Experiment::parse(
        &text(
            "series",
            "\"x\", { name = \"x@A\", params = { policy = \"conservative\" } }",
            one_panel,
        ),
        "c.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("c.toml:6:"), "{err}");
    assert!(
        err.contains(
            "series 'x' on workload 'A@B' and series 'x@A' on workload 'B' are both named 'x@A@B'"
        ),
        "{err}"
    );
    let two_panels = "\n[[panels]]\nid = \"b\"\nmetric = \"mean_bsld\"\n\n\
                      [[panels]]\nid = \"b@A\"\nmetric = \"mean_wait\"\n";
    let err = Experiment::parse(&text("panels", "\"easy\"", two_panels), "c.toml")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("c.toml:27:"), "{err}");
    assert!(
        err.contains("panel 'b' (A@B) and panel 'b@A' (B) both have the id 'b@A@B'"),
        "{err}"
    );
    // Without the clash both parse.
    Experiment::parse(&text("series", "\"easy\", \"fcfs\"", one_panel), "c.toml").unwrap();
    Experiment::parse(&text("panels", "\"easy\"", one_panel), "c.toml").unwrap();
}

/// A relative panel's reference is a series' name or `{ params = ... }`;
/// any other key is refused where it is written, never ignored, and its
/// axis reads as the percentage it plots unless `y_label` says otherwise.
#[test]
fn a_relative_panel_takes_only_what_it_applies() {
    let with = |reference: &str| {
        traced("[sweep]\naxis = \"workload\"\nlabel = \"w\"\n").replace(
            "metric = \"mean_wait\"\n",
            &format!("metric = \"mean_wait\"\nreduction_over = {reference}\n"),
        )
    };
    for (reference, needle) in [
        (
            "{ params = { policy = \"fcfs\" }, workload = { estimate = \"actual\" } }",
            "unknown key `workload`",
        ),
        ("{ params = 3 }", "`params` is integer, not a table"),
        ("{}", "missing `params`"),
        ("5", "integer is not a reference"),
    ] {
        let err = Experiment::parse(&with(reference), "r.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("r.toml:19:"), "{reference}: {err}");
        assert!(err.contains(needle), "{reference}: {err}");
    }
    for reference in ["\"fcfs\"", "{ params = { policy = \"fcfs\" } }"] {
        let e = Experiment::parse(&with(reference), "r.toml").unwrap();
        let r = run(&e, &three_traces(), &options(1)).unwrap();
        assert_eq!(r.figure.panels[0].y_label, "reduction (%)");
    }
}

/// What `[sweep] with` sets at each x is in summary.md: the figure and
/// data.csv show only the axis.
#[test]
fn summary_shows_what_moves_with_the_axis() {
    let text = traced(
        "[sweep]\naxis = \"load\"\nvalues = [0.5, 1.0]\nlabel = \"load\"\n\
         with = { bsld_bound = [10, 60] }\n",
    );
    let e = Experiment::parse(&text, "w.toml").unwrap();
    let r = run(&e, &three_traces(), &options(1)).unwrap();
    let summary = r.summary(&e);
    assert!(
        summary.contains("| load | `bsld_bound` |\n| --- | --- |\n| 0.5 | 10 |\n| 1 | 60 |"),
        "{summary}"
    );
}

/// An axis whose values are not numbers (a queue order, a trace's name, a
/// boolean) is drawn as categories, one group of bars per value: a
/// numeric axis has no place for them, and they were dropped from the
/// figure, leaving it empty. A Lublin99 workload of one class says so.
#[test]
fn a_text_axis_is_drawn_as_categories() {
    let text = config("")
        .replace(
            "axis = \"load\"\nvalues = [0.5, 0.9]\nlabel = \"load\"",
            "axis = \"order\"\nvalues = [\"arrival\", \"shortest-estimate\"]\nlabel = \"queue order\"",
        )
        .replace("repetitions = 2\n", "")
        .replace(
            "lublin99 = {{ procs = 32, jobs = 150 }}".replace("{{", "{").replace("}}", "}").as_str(),
            "lublin99 = { procs = 32, jobs = 150, two_class = false }",
        )
        .replace(
            "[[workloads]]\nlabel = \"large\"\nlublin99 = { procs = 64, jobs = 150 }\n",
            "",
        );
    let e = Experiment::parse(&text, "t.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(1)).unwrap();
    let svg = r.svg();
    let texts: Vec<&str> = svg
        .split("<text ")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0))
        .collect();
    for category in ["arrival", "shortest-estimate"] {
        assert_eq!(
            texts.iter().filter(|t| **t == category).count(),
            1,
            "{category}: {texts:?}"
        );
    }
    // Two series × two categories: four bars, beside the legend's two
    // swatches.
    assert_eq!(svg.matches("<rect x=").count(), 2 + 4, "{svg}");
    assert_eq!(
        r.workloads[0].source,
        "Lublin99 generator (32 procs, 150 jobs, one class (two_class = false))"
    );
}

/// A point without a mean (here a gain over a reference run that kills no
/// job: 0 has no gain) says why in summary.md.
#[test]
fn a_point_without_a_mean_says_why() {
    let text = r#"version = 2
id = "test/zero"
title = "Zero"
kind = "backfilling"
seed = 1
series = ["easy", { name = "cont", params = { policy = "easy", overrun = "continue" } }]

[[workloads]]
label = "gen"
lublin99 = { procs = 32, jobs = 100 }

[sweep]
axis = "workload"
label = "workload"

[[panels]]
id = "k"
metric = "killed"
gain_over = "cont"
"#;
    let e = Experiment::parse(text, "t.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(1)).unwrap();
    assert!(r.rows.iter().all(|row| row.y.is_nan()), "{:?}", r.rows);
    let summary = r.summary(&e);
    assert!(
        summary.contains("2 point(s) show `nan`: a sample behind each has no value"),
        "{summary}"
    );
    // `verify`'s checks take these files as written: the units without a
    // value are in no file but data.csv's run count.
    let provenance = experiments::Provenance {
        git_revision: "r".into(),
        config_file: "t.toml".into(),
    };
    let run_toml = experiments::RunToml::parse(&r.run_toml(&e, &provenance)).unwrap();
    let rows = experiments::parse_csv(&r.csv()).unwrap();
    let samples = experiments::Samples::parse(&r.samples.csv(), e.confidence()).unwrap();
    experiments::check_results(&e, &rows, &samples).unwrap();
    let svg = r.svg();
    let written = experiments::Written {
        summary: Some(&summary),
        figure: Some(&svg),
        rows: Some(&rows),
        settings: &[experiments::Setting::Own],
    };
    let check = |w: &experiments::Written<'_>| {
        experiments::check_written(&run_toml, &e, &Traces::new(), &options(1), &samples, w)
    };
    assert_eq!(check(&written), Ok(()));
    // Drawn from the samples alone, the point would have no run.
    assert!(
        check(&experiments::Written {
            rows: None,
            ..written
        })
        .is_err()
    );
}

/// Points whose runs all gave one value show `[a, a]`; the summary says
/// why, once, and not for a point with one run.
#[test]
fn an_interval_of_no_width_says_why() {
    let text = r#"version = 2
id = "test/flat"
title = "Flat"
kind = "backfilling"
seed = 1
repetitions = 3
series = ["easy", "fcfs"]

[[workloads]]
label = "gen"
lublin99 = { procs = 32, jobs = 100 }

[sweep]
axis = "workload"
label = "workload"

[[panels]]
id = "k"
metric = "killed"
"#;
    let e = Experiment::parse(text, "t.toml").unwrap();
    let r = run(&e, &Traces::new(), &options(1)).unwrap();
    // The run time is the estimate: no job is killed in any run.
    assert!(
        r.rows
            .iter()
            .all(|row| row.y == 0.0 && row.runs == 3 && row.ci == Some((0.0, 0.0))),
        "{:?}",
        r.rows
    );
    let summary = r.summary(&e);
    assert_eq!(
        summary
            .matches("2 point(s) show an interval of no width (`[a, a]`): every run behind each gave the same value")
            .count(),
        1,
        "{summary}"
    );
    // One repetition: no interval, no note.
    let one = Experiment::parse(
        &text.replace("repetitions = 3", "repetitions = 1"),
        "t.toml",
    )
    .unwrap();
    let summary = run(&one, &Traces::new(), &options(1))
        .unwrap()
        .summary(&one);
    assert!(!summary.contains("interval of no width"), "{summary}");
}
