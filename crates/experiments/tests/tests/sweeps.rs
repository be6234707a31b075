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
