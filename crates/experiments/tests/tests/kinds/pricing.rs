//! The `pricing` kind: short series names, any key swept, named errors.

use experiments::{Experiment, RunOptions, Traces, run};

/// A small pricing experiment on a generated workload; tests edit it.
const PRICING: &str = r#"version = 2
id = "test/pricing"
title = "Tiny pricing"
paper = "test"
kind = "pricing"
seed = 3
series = ["libra", "libra+$-b1.0", { name = "spelled", params = { policy = "libra+$", beta = 1.0 } }]

[[workloads]]
label = "gen"
lublin99 = { procs = 32, jobs = 150 }

[sweep]
axis = "spread"
values = [0.1, 0.5]
label = "spread"

[params]
high_urgency = 20.0

[[panels]]
id = "profit"
metric = "profit"
"#;

/// Replaces `from` by `to` in the pricing config and expects an error
/// at `line` whose message contains `needle`.
fn check(from: &str, to: &str, line: usize, needle: &str) {
    assert!(PRICING.contains(from), "{from:?} is not in the config");
    let text = PRICING.replacen(from, to, 1);
    let err = Experiment::parse(&text, "p.toml").expect_err(&format!("{to:?} should be rejected"));
    let shown = err.to_string();
    assert!(shown.starts_with(&format!("p.toml:{line}:")), "{shown}");
    assert!(shown.contains(needle), "{shown}");
}

#[test]
fn a_short_name_is_the_policy_with_its_beta_and_keeps_its_legend() {
    let e = Experiment::parse(PRICING, "p.toml").unwrap();
    assert_eq!(e.series(), ["libra", "libra+$-b1.0", "spelled"]);
    let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let ys = |series: &str| -> Vec<f64> {
        r.rows
            .iter()
            .filter(|row| row.series == series)
            .map(|row| row.y)
            .collect()
    };
    assert_eq!(ys("libra+$-b1.0").len(), 2);
    assert_eq!(ys("libra+$-b1.0"), ys("spelled"));
    assert_ne!(ys("libra+$-b1.0"), ys("libra"));
    // The swept spread reaches the QoS model.
    let libra = ys("libra");
    assert_ne!(libra[0], libra[1]);
}

#[test]
fn bad_values_and_old_keys_are_named() {
    check(
        "high_urgency = 20.0",
        "high_urgency = 120.0",
        19,
        "params.high_urgency: is 120, expected a percentage in [0, 100]",
    );
    check(
        "values = [0.1, 0.5]",
        "values = [0.1, -0.5]",
        15,
        "series 'libra' at spread = -0.5: params.spread: is -0.5",
    );
    check(
        "axis = \"spread\"",
        "axis = \"beta\"",
        7,
        "series 'libra+$-b1.0' sets `beta`, which the sweep sets",
    );
    check(
        "policy = \"libra+$\", beta = 1.0",
        "policy = \"libra+$-b0.5\"",
        7, // the series that sets the key, not the sweep
        "series 'spelled' at spread = 0.1: params.policy: 'libra+$-b0.5' fixes beta; write policy = \"libra+$\" and beta = 0.5",
    );
    check(
        "series = [\"libra\"",
        "series = [\"libra+$-b-1\"",
        7,
        "series 'libra+$-b-1'",
    );
    check(
        "high_urgency = 20.0",
        "policies = [\"libra\"]",
        19,
        "params.policies was replaced: list the policies as top-level `series",
    );
    check(
        "high_urgency = 20.0",
        "spare = \"idle\"\nlate = \"zero\"",
        20,
        "params.late",
    );
}

/// A deadline or budget the QoS model draws out of range (from
/// `deadline_low_mean = 1e300`, say) failed the run with an error naming
/// no file, line or parameter. It is placed at the parameter that draws
/// it out of range (the one that, at its default, would not), naming
/// every parameter that draws it.
#[test]
fn a_deadline_or_budget_drawn_out_of_range_names_its_parameters() {
    for (key, value, needle) in [
        (
            "deadline_low_mean",
            "1e300",
            "params deadline_low_mean, deadline_ratio and spread draw it",
        ),
        (
            "budget_low_mean",
            "1e307",
            "params budget_low_mean, budget_ratio, spread and base_price draw it",
        ),
        // The key at fault, where another key draws the same value.
        (
            "deadline_ratio",
            "1e300",
            "draw it, and deadline_ratio is the one that draws it out of range",
        ),
        (
            "budget_ratio",
            "1e308",
            "draw it, and budget_ratio is the one that draws it out of range",
        ),
        (
            "base_price",
            "1e306",
            "draw it, and base_price is the one that draws it out of range",
        ),
        // The class mean itself overflows (1e308 × the ratio of 4).
        (
            "budget_low_mean",
            "1e308",
            "budget class mean would not be a finite number",
        ),
    ] {
        let text = PRICING.replacen(
            "high_urgency = 20.0",
            &format!("high_urgency = 20.0\n{key} = {value}"),
            1,
        );
        let e = Experiment::parse(&text, "p.toml").unwrap();
        let err = run(&e, &Traces::new(), &RunOptions::default()).unwrap_err();
        let shown = err.to_string();
        let line = text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
        assert!(shown.starts_with(&format!("p.toml:{line}:")), "{shown}");
        assert!(shown.contains(needle), "{shown}");
    }
}
