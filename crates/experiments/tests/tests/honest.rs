//! Honest outputs for a user's own study (issue #22): a paper's words
//! (explanations, causes, "Reproduces:") only in the paper's setting, equal
//! values reported as equal, claims naming a dropped x skipped with a note,
//! and `log_x` refused where it cannot apply.

use experiments::{Claim, Experiment, Row, RunOptions, Samples, Setting, Traces, run};

use super::BASE;

/// BASE with a load sweep and a claim that FAILs (EASY is not worse than
/// FCFS), carrying an explanation and a cause written for "the paper".
fn with_explained_claim() -> Experiment {
    let text = BASE
        .replace(
            "axis = \"workload\"",
            "axis = \"load\"\nvalues = [0.5, 1.0]",
        )
        .replace(
            "check.below = { panel = \"bsld\", series = \"easy\", than = \"fcfs\" }",
            "explanation = \"On SDSC-SP2 EASY gives 13.0% vs 12.7% over 40 runs.\"\n\
             cause.data = \"the paper's own trace\"\n\
             check.above = { panel = \"bsld\", series = \"easy\", than = \"fcfs\" }",
        );
    Experiment::parse(&text, "t.toml").unwrap()
}

#[test]
fn a_papers_words_are_printed_only_in_its_setting() {
    let e = with_explained_claim();
    let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    assert!(!r.verdicts[0].passed());
    let paper = r.summary_in(&e, &Setting::Paper);
    assert!(paper.contains("Reproduces: test"), "{paper}");
    assert!(paper.contains("13.0% vs 12.7%"), "{paper}");
    assert!(paper.contains("the paper's own trace"), "{paper}");
    for (setting, written_for) in [
        (
            Setting::Own,
            "another setting (the configuration this claim was copied from)",
        ),
        (
            Setting::Copied("test/tiny on SDSC-SP2-1998-4.2-cln".into()),
            "test/tiny on SDSC-SP2-1998-4.2-cln",
        ),
    ] {
        let own = r.summary_in(&e, &setting);
        assert!(!own.contains("Reproduces:"), "{own}");
        assert!(own.contains("Study: Tiny"), "{own}");
        assert!(!own.contains("13.0%"), "{own}");
        assert!(!own.contains("the paper's own trace"), "{own}");
        assert!(
            own.contains(&format!(
                "an explanation was written for {written_for}; it may not apply here"
            )),
            "{own}"
        );
        assert!(own.contains("a cause was written for"), "{own}");
    }
    // The library's default is the honest one.
    assert_eq!(r.summary(&e), r.summary_in(&e, &Setting::Own));
}

#[test]
fn paper_is_optional_and_a_study_id_is_accepted() {
    let text = BASE
        .replace("paper = \"test\"\n", "")
        .replace("id = \"test/tiny\"", "id = \"study/utility-status-period\"");
    let e = Experiment::parse(&text, "t.toml").unwrap();
    assert_eq!(e.paper(), None);
    let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let s = r.summary_in(&e, &Setting::Paper);
    assert!(
        s.contains("Study: Tiny") && !s.contains("Reproduces"),
        "{s}"
    );
}

fn rows(a: f64, b: f64) -> Vec<Row> {
    [("a", a), ("b", b)]
        .iter()
        .map(|&(series, y)| Row {
            panel: "p".into(),
            series: series.into(),
            x: "1".into(),
            y,
            ci: None,
            runs: 1,
        })
        .collect()
}

#[test]
fn an_exactly_zero_difference_is_equal() {
    let claim =
        |check: &str| -> Claim { toml::from_str(&format!("text = \"t\"\ncheck.{check}")).unwrap() };
    for check in [
        r#"above = { panel = "p", series = "a", than = "b" }"#,
        r#"below = { panel = "p", series = "a", than = "b" }"#,
    ] {
        let v = claim(check).check(&rows(5.0, 5.0), &Samples::default());
        assert_eq!(v.label(), "FAIL", "{check}: {}", v.ours);
        assert!(v.ours.contains("equal"), "{}", v.ours);
    }
    let v = claim(r#"within = { panel = "p", series = "a", lo = 5.0, hi = 6.0 }"#)
        .check(&rows(5.0, 5.0), &Samples::default());
    assert!(v.passed(), "{}", v.ours);
    let v = claim(r#"ratio = { panel = "p", series = "a", than = "b", lo = 0.9, hi = 1.1 }"#)
        .check(&rows(5.0, 5.0), &Samples::default());
    assert!(v.passed(), "{}", v.ours);
}

#[test]
fn a_claim_at_a_dropped_x_is_skipped_with_a_note() {
    let text = BASE
        .replace(
            "axis = \"workload\"",
            "axis = \"load\"\nvalues = [0.5, 1.0]",
        )
        .replace("than = \"fcfs\" }", "than = \"fcfs\", at = 0.25 }");
    let e = Experiment::parse(&text, "t.toml").unwrap();
    assert!(e.claims().is_empty());
    assert_eq!(e.skipped_claims().len(), 1);
    let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let s = r.summary(&e);
    assert!(
        s.contains(
            "was not checked: it names x = 0.25, which the sweep does not have (it has 0.5, 1)"
        ),
        "{s}"
    );
    // A wrong series is still an error.
    let bad = text.replace("series = \"easy\"", "series = \"nope\"");
    let err = Experiment::parse(&bad, "t.toml").unwrap_err().to_string();
    assert!(err.contains("unknown series 'nope'"), "{err}");
}

#[test]
fn log_x_needs_positive_numeric_values() {
    let swept = |values: &str| {
        BASE.replace(
            "axis = \"workload\"",
            &format!("axis = \"load\"\nvalues = {values}\nlog_x = true"),
        )
    };
    let e = Experiment::parse(&swept("[0.25, 0.5, 1.0, 2.0]"), "t.toml").unwrap();
    let r = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let svg = r.svg();
    // Ticks at the swept values, evenly spaced on the log axis.
    for label in [">0.25<", ">0.5<", ">1<", ">2<"] {
        assert!(svg.contains(label), "{label}: {svg}");
    }
    let err = Experiment::parse(&swept("[0, 1.0]"), "t.toml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("t.toml:") && err.contains("log_x needs"),
        "{err}"
    );
    let err = Experiment::parse(
        &BASE.replace("axis = \"workload\"", "axis = \"workload\"\nlog_x = true"),
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("log_x needs a numeric sweep"), "{err}");
}
