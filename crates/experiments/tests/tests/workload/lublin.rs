//! Lublin99 workloads in configs: arrivals rescaled to a load or a rate,
//! an estimate model, and the summary saying when there is none.

use experiments::{Experiment, RunOptions, Traces, run};

use super::BASE;

/// The base experiment with the generator written as `lublin99`.
fn experiment(lublin99: &str) -> Experiment {
    let text = BASE.replace("lublin99 = { procs = 32, jobs = 200 }", lublin99);
    Experiment::parse(&text, "f.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn summary(lublin99: &str) -> String {
    let e = experiment(lublin99);
    let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    r.summary(&e)
}

#[test]
fn without_an_estimate_model_the_summary_says_requested_equals_exact() {
    let plain = summary("lublin99 = { procs = 32, jobs = 200 }");
    assert!(
        plain.contains("no estimates: requested equals exact"),
        "{plain}"
    );
    let modelled = summary(r#"lublin99 = { procs = 32, jobs = 200, estimates = "f:3" }"#);
    assert!(!modelled.contains("no estimates"), "{modelled}");
    assert!(modelled.contains("200 jobs, estimates f:3"), "{modelled}");
}

#[test]
fn load_and_arrival_rate_are_workload_keys() {
    let loaded = summary("lublin99 = { procs = 32, jobs = 200, load = 0.9 }");
    assert!(loaded.contains("200 jobs, load 0.9"), "{loaded}");
    let rate = summary("lublin99 = { procs = 32, jobs = 200, arrival_rate = 30 }");
    assert!(rate.contains("30 jobs per hour"), "{rate}");
}

#[test]
fn bad_generator_keys_name_the_line_and_the_field() {
    let parse = |g: &str| {
        let text = BASE.replace("lublin99 = { procs = 32, jobs = 200 }", g);
        Experiment::parse(&text, "f.toml")
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let both = parse("lublin99 = { procs = 32, jobs = 200, load = 0.5, arrival_rate = 3 }");
    assert!(
        both.contains("f.toml") && both.contains("not both"),
        "{both}"
    );
    let zero = parse("lublin99 = { procs = 32, jobs = 200, load = 0.0 }");
    assert!(zero.contains("load is 0"), "{zero}");
    let model = parse(r#"lublin99 = { procs = 32, jobs = 200, estimates = "guess" }"#);
    assert!(
        model.contains("f.toml:11:50") && model.contains("unknown estimate model 'guess'"),
        "{model}"
    );
}
