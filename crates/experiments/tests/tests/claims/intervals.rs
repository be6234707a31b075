//! Three-way verdicts: a claim is judged on the interval of what it
//! compares, paired by repetition and sample.

use experiments::{Claim, Outcome, Row, Samples, Unit};

/// Points `(series, x, units)` of panel `p`, with rows of their means.
fn data(points: &[(&str, &str, &[f64])]) -> (Vec<Row>, Samples) {
    let mut samples = Samples::new(0.95);
    let rows = points
        .iter()
        .map(|&(series, x, values)| {
            for (r, &value) in values.iter().enumerate() {
                let unit = Unit {
                    repetition: r as u32,
                    sample: 0,
                    value,
                };
                samples.push("p", series, x, unit);
            }
            Row {
                panel: "p".into(),
                series: series.into(),
                x: x.into(),
                y: values.iter().sum::<f64>() / values.len() as f64,
                ci: None,
                runs: values.len() as u32,
            }
        })
        .collect();
    (rows, samples)
}

fn verdict(predicate: &str, points: &[(&str, &str, &[f64])]) -> (Outcome, String) {
    let claim: Claim = toml::from_str(&format!("text = \"t\"\ncheck.{predicate}")).unwrap();
    let (rows, samples) = data(points);
    let v = claim.check(&rows, &samples);
    (v.outcome, v.ours)
}

const A_ABOVE_B: &str = r#"above = { panel = "p", series = "a", than = "b" }"#;

#[test]
fn a_paired_difference_decides_where_the_means_alone_cannot() {
    // a is above b in every run by about 1, while both vary a lot.
    let a: &[f64] = &[10.0, 20.0, 30.0, 40.0, 50.0];
    let b: &[f64] = &[9.0, 18.9, 29.1, 39.0, 48.8];
    let (o, ours) = verdict(A_ABOVE_B, &[("a", "x", a), ("b", "x", b)]);
    assert_eq!(o, Outcome::Pass, "{ours}");
    assert!(ours.contains("(difference 1.04 ["), "{ours}");
    // The other way round it clearly FAILs.
    let (o, _) = verdict(
        r#"below = { panel = "p", series = "a", than = "b" }"#,
        &[("a", "x", a), ("b", "x", b)],
    );
    assert_eq!(o, Outcome::Fail);
}

#[test]
fn an_interval_across_the_bound_is_inconclusive() {
    let a: &[f64] = &[10.0, 12.0, 9.0, 11.0];
    let b: &[f64] = &[11.0, 10.0, 10.0, 10.5];
    let (o, ours) = verdict(A_ABOVE_B, &[("a", "x", a), ("b", "x", b)]);
    assert_eq!(o, Outcome::Inconclusive, "{ours}");
    // A single run has no interval: the values decide.
    let (o, ours) = verdict(A_ABOVE_B, &[("a", "x", &[10.5]), ("b", "x", &[10.0])]);
    assert_eq!(o, Outcome::Pass, "{ours}");
    assert!(!ours.contains('['), "no interval for one run: {ours}");
}

#[test]
fn within_needs_the_whole_interval_inside() {
    let w = r#"within = { panel = "p", series = "a", lo = 0, hi = 10 }"#;
    assert_eq!(verdict(w, &[("a", "x", &[4.0, 5.0, 6.0])]).0, Outcome::Pass);
    assert_eq!(
        verdict(w, &[("a", "x", &[8.0, 10.0, 12.0])]).0,
        Outcome::Inconclusive
    );
    assert_eq!(
        verdict(w, &[("a", "x", &[20.0, 21.0, 22.0])]).0,
        Outcome::Fail
    );
}

#[test]
fn trends_and_rises_use_paired_steps() {
    let up = r#"monotone = { panel = "p", series = "a", direction = "increasing", strict = true }"#;
    let pts: &[(&str, &str, &[f64])] = &[
        ("a", "1", &[1.0, 5.0, 9.0]),
        ("a", "2", &[2.0, 6.0, 10.0]),
        ("a", "3", &[2.5, 6.6, 10.4]),
    ];
    assert_eq!(verdict(up, pts).0, Outcome::Pass);
    let rise = r#"rise = { panel = "p", series = "a", from = 1, to = 3, lo = 1, hi = 2 }"#;
    let (o, ours) = verdict(rise, pts);
    assert_eq!(o, Outcome::Pass, "{ours}");
    // rises_more: the rise of a exceeds that of b, run by run.
    let more = r#"rises_more = { panel = "p", series = "a", than = "b", from = 1, to = 3 }"#;
    let pts: &[(&str, &str, &[f64])] = &[
        ("a", "1", &[1.0, 5.0, 9.0]),
        ("a", "3", &[3.0, 7.1, 11.0]),
        ("b", "1", &[0.0, 4.0, 8.0]),
        ("b", "3", &[1.0, 5.0, 9.1]),
    ];
    let (o, ours) = verdict(more, pts);
    assert_eq!(o, Outcome::Pass, "{ours}");
    assert!(ours.contains("rise from 1 to 3: a 2.03 ["), "{ours}");
}

#[test]
fn an_ordering_marks_the_gaps_it_cannot_tell() {
    let ord = r#"ordering = { panel = "p", highest_first = ["a", "b", "c"] }"#;
    let pts: &[(&str, &str, &[f64])] = &[
        ("a", "x", &[10.0, 11.0, 12.0]),
        ("b", "x", &[5.0, 7.0, 4.0]),
        ("c", "x", &[5.5, 6.0, 4.5]),
    ];
    let (o, ours) = verdict(ord, pts);
    assert_eq!(o, Outcome::Inconclusive, "{ours}");
    assert!(ours.contains(" > [") && ours.contains(" ≈ ["), "{ours}");
}
