//! `Registry::check_params`: a front end that builds a kind's runs itself
//! (the Python package) checks one run's `[params]` with the kind's own
//! ranges, and gets the key at fault and the kind's words.

use experiments::{Experiment, Registry};

fn table(text: &str) -> toml::Table {
    text.parse().expect("a TOML table")
}

/// The error `check_params` gives, as (key, message).
fn refused(kind: &str, params: &str) -> (Option<String>, String) {
    let e = Registry::builtin()
        .check_params(kind, table(params))
        .expect_err(params);
    (e.key, e.message)
}

#[test]
fn the_defaults_pass_for_every_kind() {
    let registry = Registry::builtin();
    for kind in registry.kinds() {
        assert_eq!(
            registry.check_params(kind, toml::Table::new()),
            Ok(()),
            "{kind}"
        );
    }
}

#[test]
fn a_value_out_of_the_kinds_range_names_its_key() {
    for (kind, params, key) in [
        (
            "provisioning",
            "report_every_s = 1099511627777",
            "report_every_s",
        ),
        ("provisioning", "warmup_days = 100000000", "warmup_days"),
        ("provisioning", "bsld_bound = 0", "bsld_bound"),
        ("provisioning", "trace_year = 0", "trace_year"),
        // Read only by some policies, or passed on to a library that
        // checks it only when it is used: refused whatever the series.
        ("provisioning", "horizon_s = -5", "horizon_s"),
        ("provisioning", "horizon_s = 0", "horizon_s"),
        (
            "provisioning",
            "reallocation_checks = 20000",
            "reallocation_checks",
        ),
        (
            "provisioning",
            "admission = { beta = -1.0 }",
            "admission.beta",
        ),
        ("pricing", "alpha = -1.0", "alpha"),
        ("pricing", "high_urgency = 101.0", "high_urgency"),
        ("adaptive", "incentive = 101.0", "incentive"),
        ("adaptive", "table1 = { sp_parts = 0 }", "table1.sp_parts"),
        ("backfilling", "bsld_bound = 0", "bsld_bound"),
        ("utility", "users = 0", "users"),
    ] {
        let (got, message) = refused(kind, params);
        assert_eq!(got.as_deref(), Some(key), "{kind}: {params}: {message}");
        assert!(message.starts_with("is "), "{kind}: {params}: {message}");
    }
}

#[test]
fn more_clusters_than_a_run_can_hold_are_refused() {
    let clusters = vec!["2"; 501].join(", ");
    let (key, message) = refused("provisioning", &format!("clusters = [{clusters}]"));
    assert_eq!(key.as_deref(), Some("clusters"));
    assert!(message.contains("at most 500"), "{message}");
}

#[test]
fn a_value_of_the_wrong_type_or_an_unknown_key_is_named() {
    let (key, message) = refused("provisioning", "clusters = [32, -1]\nstringency = 5.0");
    assert_eq!(key.as_deref(), Some("clusters"), "{message}");
    // Inside a table: the entry at fault, not the table.
    let (key, message) = refused("adaptive", "table1 = { rate = 1.0, sp_parts = 2.5 }");
    assert_eq!(key.as_deref(), Some("table1.sp_parts"), "{message}");
    assert!(message.starts_with("invalid type"), "{message}");
    let (key, message) = refused("provisioning", "admission = { nope = 1 }");
    assert_eq!(key.as_deref(), Some("admission.nope"), "{message}");
    let (key, message) = refused("pricing", "alpha = 1.0\nnot_a_key = 3");
    assert_eq!(key.as_deref(), Some("not_a_key"), "{message}");
    let (key, message) = refused("no-such-kind", "");
    assert_eq!(key, None);
    assert!(message.contains("provisioning"), "{message}");
}

/// The same words as the configuration's error, which places them.
#[test]
fn the_words_are_the_configurations() {
    let config = r#"version = 2
id = "test/check-params"
title = "Check params"
paper = "test"
kind = "provisioning"
seed = 1
series = ["areb+least-load"]

[[workloads]]
label = "grid"
lublin99 = { procs = 32, jobs = 50 }

[sweep]
axis = "interval_min"
values = [60]
label = "interval"

[params]
clusters = [32]
report_every_s = 1099511627777

[[panels]]
id = "r"
metric = "grid_r"
"#;
    let e = Experiment::parse(config, "check.toml")
        .expect_err("refused")
        .to_string();
    let (_, message) = refused(
        "provisioning",
        "clusters = [32]\nreport_every_s = 1099511627777",
    );
    assert!(e.contains(&message), "{e}\nlacks\n{message}");
}
