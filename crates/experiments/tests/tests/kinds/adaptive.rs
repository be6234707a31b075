//! The `adaptive` kind: its checks, its relative panels and its sweeps, on a
//! small generated workload.

use experiments::{Experiment, Row, RunOptions, Traces, run};

/// Two variants on a small generated workload cut into one-day intervals,
/// swept over the incentive, with both kinds of relative panel.
const SMALL: &str = r#"version = 2
id = "test/adaptive"
title = "Adaptive"
paper = "test"
kind = "adaptive"
seed = 3
series = ["fifo-rigid", "mdf-preemptive"]
trim = 1

[[workloads]]
label = "gen"
lublin99 = { procs = 32, jobs = 400 }

[sweep]
axis = "incentive"
values = [0, 40]
label = "incentive (%)"

[params]
interval_days = 1
load_increase = 20

[params.table1]
preemptive_share = 1

[[panels]]
id = "profit"
metric = "profit"

[[panels]]
id = "gain"
metric = "profit"
gain_over = "fifo-rigid"

[[panels]]
id = "change"
metric = "profit"
gain_over = { params = { incentive = 0 } }
"#;

/// Replaces `from` by `to` in [`SMALL`] and expects an error at `line`
/// whose message contains `needle`.
fn check(from: &str, to: &str, line: usize, needle: &str) {
    assert!(SMALL.contains(from), "{from:?} is not in the config");
    let err = Experiment::parse(&SMALL.replacen(from, to, 1), "a.toml")
        .expect_err(&format!("{to:?} should be rejected"));
    let shown = err.to_string();
    assert!(shown.starts_with(&format!("a.toml:{line}:")), "{shown}");
    assert!(shown.contains(needle), "{shown}");
}

/// The rows of `text`, run on every core.
fn rows(text: &str) -> Vec<Row> {
    let e = Experiment::parse(text, "a.toml").unwrap();
    run(&e, &Traces::new(), &RunOptions::default())
        .unwrap()
        .rows
}

fn y(rows: &[Row], panel: &str, series: &str, x: &str) -> f64 {
    rows.iter()
        .find(|r| r.panel == panel && r.series == series && r.x == x)
        .unwrap_or_else(|| panic!("no row {panel}/{series}/{x}"))
        .y
}

#[test]
fn old_keys_name_their_replacement() {
    check(
        "interval_days = 1",
        "baseline = \"fifo-rigid\"",
        20,
        "params.baseline was replaced: relative metrics are panels",
    );
    check(
        "interval_days = 1",
        "trim = 4",
        20,
        "`trim = N` at the top level",
    );
    check(
        "interval_days = 1",
        "series = [\"mdf-rigid\"]",
        20,
        "top-level `series = [...]`",
    );
}

#[test]
fn checks_point_at_the_key() {
    check(
        "preemptive_share = 1",
        "preemptive_share = 1.5",
        24,
        "params.table1.preemptive_share: is 1.5, expected a share in [0, 1]",
    );
    // A range only the library's `Table1::check` knows, at parse time too.
    check(
        "preemptive_share = 1",
        "preemptive_share = 1\nlow_extra = 2000000000000",
        25,
        "params.table1.low_extra: is 2000000000000, expected 0 to 2^40 s",
    );
    check(
        "load_increase = 20",
        "load_increase = -100",
        21,
        "params.load_increase: is -100",
    );
    check(
        "interval_days = 1",
        "interval_days = 0",
        20,
        "at least 1 day",
    );
    check(
        "values = [0, 40]",
        "values = [0, 140]",
        16,
        "at incentive = 140: params.incentive: is 140, expected a percentage in [0, 100]",
    );
    check(
        "axis = \"incentive\"\nvalues = [0, 40]",
        "axis = \"load\"\nvalues = [1, 2]",
        7,
        "sweep `load_increase` (in %) instead of `load`",
    );
    check(
        "series = [\"fifo-rigid\", \"mdf-preemptive\"]",
        "series = [\"fifo-rigid\", \"mdf-flexible\"]",
        7,
        "series 'mdf-flexible'",
    );
    let two = SMALL.replacen(
        "[sweep]",
        "[[workloads]]\nlabel = \"gen2\"\nlublin99 = { procs = 32, jobs = 50 }\n\n[sweep]",
        1,
    );
    let err = Experiment::parse(&two, "a.toml").unwrap_err().to_string();
    assert!(err.contains("exactly one workload"), "{err}");
}

/// Relative panels pair intervals with the reference's; the incentive only
/// changes the prices of preemptive requests.
#[test]
fn relative_panels_and_incentive() {
    let rows = rows(SMALL);
    for x in ["0", "40"] {
        assert_eq!(y(&rows, "gain", "fifo-rigid", x), 0.0);
        assert_eq!(y(&rows, "change", "fifo-rigid", x), 0.0);
    }
    assert_eq!(y(&rows, "change", "mdf-preemptive", "0"), 0.0);
    let rigid = |x| y(&rows, "profit", "fifo-rigid", x);
    assert_eq!(
        rigid("0"),
        rigid("40"),
        "no preemptive request, no incentive"
    );
    let flexible = |x| y(&rows, "profit", "mdf-preemptive", x);
    assert!(
        flexible("40") < flexible("0"),
        "40% off the preemptive requests"
    );
    assert!(y(&rows, "change", "mdf-preemptive", "40") < 0.0);
    let gain = |x| y(&rows, "gain", "mdf-preemptive", x);
    assert!(gain("40") < gain("0"));
}

/// A nested Table 1 key is a sweep axis like any other, and every variant
/// sees the same draws: rigid requests ignore the preemptive share.
#[test]
fn table1_keys_sweep() {
    let text = SMALL
        .replacen(
            "axis = \"incentive\"",
            "axis = \"table1.preemptive_share\"",
            1,
        )
        .replacen("values = [0, 40]", "values = [0.2, 0.8]", 1)
        .replacen("[params.table1]\npreemptive_share = 1\n", "", 1);
    let rows = rows(&text);
    let profit = |s, x| y(&rows, "profit", s, x);
    assert_eq!(profit("fifo-rigid", "0.2"), profit("fifo-rigid", "0.8"));
    assert_ne!(
        profit("mdf-preemptive", "0.2"),
        profit("mdf-preemptive", "0.8")
    );
}

/// A `load_increase` that moves submit times past the simulator's range
/// (a factor of 1e-12 at -99.9999999999 %) failed the run with an error
/// naming no file or line; it is placed at the value, naming the key.
#[test]
fn a_load_increase_no_run_can_hold_is_placed_at_its_value() {
    let text = SMALL.replacen("load_increase = 20", "load_increase = -99.9999999999", 1);
    let e = Experiment::parse(&text, "a.toml").unwrap();
    let err = run(&e, &Traces::new(), &RunOptions::default()).unwrap_err();
    let shown = err.to_string();
    let line = text
        .lines()
        .position(|l| l.starts_with("load_increase"))
        .unwrap()
        + 1;
    assert!(shown.starts_with(&format!("a.toml:{line}:")), "{shown}");
    assert!(
        shown.contains("params.load_increase = -99.9999999999: a load factor"),
        "{shown}"
    );
}
