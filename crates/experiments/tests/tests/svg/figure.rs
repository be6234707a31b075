//! `figure.svg` through the public API: captions, bar tick labels, dodged
//! and dashed lines, value labels clear of whiskers, the stand-in banner.
//! (Axis fitting, wrapping and marker shapes are unit-tested in
//! `src/svg/`.)

use experiments::{Figure, PanelInfo, Row};

fn row(panel: &str, series: &str, x: &str, y: f64, ci: Option<(f64, f64)>, runs: u32) -> Row {
    Row {
        panel: panel.into(),
        series: series.into(),
        x: x.into(),
        y,
        ci,
        runs,
    }
}

fn figure(categorical: bool, series: &[&str]) -> Figure {
    Figure {
        title: "Profit gain according to cluster load".into(),
        x_label: "policy".into(),
        categorical,
        log_x: false,
        series: series.iter().map(|s| s.to_string()).collect(),
        panels: vec![PanelInfo {
            id: "p".into(),
            title: "(a) Grid jobs".into(),
            y_label: "average R".into(),
            log_y: false,
        }],
        confidence: 0.95,
        repetitions: 10,
        notice: None,
    }
}

/// The text of every `<text>` element, in order.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.to_string()))
        .collect()
}

#[test]
fn caption_says_what_the_whiskers_are() {
    let check = |fig: &Figure, rows: &[Row], expected: &[&str]| {
        // Drawn in italics under the title, wrapped to the width: the drawn
        // lines, regrouped, are the caption lines.
        let svg = fig.render(rows);
        let drawn: Vec<String> = svg
            .lines()
            .filter(|l| l.contains("font-style=\"italic\""))
            .flat_map(texts)
            .collect();
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for part in drawn {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&part);
            if expected.get(lines.len()) == Some(&line.as_str()) {
                lines.push(std::mem::take(&mut line));
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        assert_eq!(lines, expected);
    };
    let fig = figure(false, &["a", "b"]);
    let ten = [
        row("p", "a", "1", 1.0, Some((0.5, 1.5)), 10),
        row("p", "b", "1", 2.0, Some((1.5, 2.5)), 10),
    ];
    check(
        &fig,
        &ten,
        &["whiskers: 95% confidence interval of the mean over 10 runs"],
    );
    let adaptive = Figure {
        confidence: 0.90,
        repetitions: 1,
        ..fig.clone()
    };
    let samples = [row("p", "a", "1", 1.0, Some((0.5, 1.5)), 41)];
    check(
        &adaptive,
        &samples,
        &["whiskers: 90% confidence interval of the mean over 41 samples (one run per point)"],
    );
    // One run per point: no whiskers, and the caption says so.
    let single = [row("p", "a", "1", 1.0, None, 1)];
    check(&fig, &single, &["one run per point: no whiskers"]);
    assert!(!fig.render(&single).contains("stroke-width=\"1.2\""));
    // A bar chart with one category names it in the caption.
    let bars = figure(true, &["a", "b"]);
    let one_cat = [
        row("p", "a", "DAS-2, slots every 2 h", 1.0, Some((0.5, 1.5)), 5),
        row("p", "b", "DAS-2, slots every 2 h", 2.0, Some((1.5, 2.5)), 5),
    ];
    let five = Figure {
        repetitions: 5,
        ..bars
    };
    check(
        &five,
        &one_cat,
        &[
            "workload: DAS-2, slots every 2 h",
            "whiskers: 95% confidence interval of the mean over 5 runs",
        ],
    );
}

#[test]
fn bar_charts_have_one_tick_label_per_category() {
    let fig = figure(true, &["fcfs", "easy", "conservative"]);
    let mut rows = Vec::new();
    for (x, base) in [("SDSC-SP2", 10.0), ("KTH-SP2", 20.0)] {
        for (i, s) in fig.series.iter().enumerate() {
            rows.push(row("p", s, x, base + i as f64, None, 1));
        }
    }
    let svg = fig.render(&rows);
    let t = texts(&svg);
    for cat in ["SDSC-SP2", "KTH-SP2"] {
        assert_eq!(t.iter().filter(|s| *s == cat).count(), 1, "{cat}: {t:?}");
    }
    // Legend entries only: the bars are not labelled by series.
    assert_eq!(t.iter().filter(|s| *s == "easy").count(), 1);
    // A single category: one label per bar, by series, plus the legend.
    let single: Vec<Row> = rows.iter().filter(|r| r.x == "KTH-SP2").cloned().collect();
    let t = texts(&fig.render(&single));
    for s in &fig.series {
        assert_eq!(t.iter().filter(|x| *x == s).count(), 2, "{s}: {t:?}");
    }
    assert!(!t.iter().any(|x| x == "KTH-SP2"), "{t:?}");
    assert!(t.iter().any(|x| x == "workload: KTH-SP2"), "{t:?}");
    // Long series names under narrow bars are rotated, and the figure
    // grows to hold them.
    let long = figure(
        true,
        &[
            "arcb+least-load",
            "arcbm+least-load",
            "arebm+least-load",
            "arcbm+earliest-partial",
        ],
    );
    let rows: Vec<Row> = long
        .series
        .iter()
        .map(|s| row("p", s, "DAS-2", 1.0, None, 1))
        .collect();
    let svg = long.render(&rows);
    assert!(svg.contains("rotate(-35"), "{svg}");
    let height = |svg: &str| -> f64 {
        let h = svg.split("height=\"").nth(1).unwrap();
        h[..h.find('"').unwrap()].parse().unwrap()
    };
    assert!(height(&svg) > height(&fig.render(&single)));
}

#[test]
fn coincident_series_are_dodged_and_dashed() {
    let names: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
    // Coincident series (the same values) are dodged apart and drawn
    // with different dash patterns.
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let fig = figure(false, &refs);
    let rows: Vec<Row> = names
        .iter()
        .flat_map(|s| ["0", "50"].map(|x| row("p", s, x, 5.0, Some((4.0, 6.0)), 10)))
        .collect();
    let svg = fig.render(&rows);
    let lines: Vec<&str> = svg.lines().filter(|l| l.starts_with("<polyline")).collect();
    assert_eq!(lines.len(), 8);
    let mut points: Vec<&str> = lines.iter().map(|l| l.split('"').nth(1).unwrap()).collect();
    points.sort();
    points.dedup();
    assert_eq!(
        points.len(),
        8,
        "coincident lines are not dodged: {points:?}"
    );
    let dashed = lines
        .iter()
        .filter(|l| l.contains("stroke-dasharray"))
        .count();
    assert_eq!(dashed, 6);
}

#[test]
fn value_labels_stay_clear_of_whisker_caps() {
    let fig = figure(true, &["a", "b"]);
    let rows = [
        row("p", "a", "c", 10.0, Some((5.0, 15.0)), 10),
        row("p", "b", "c", -2.0, Some((-6.0, 2.0)), 10),
    ];
    let svg = fig.render(&rows);
    // Every value label's baseline is at least 6 px beyond the whisker
    // end on its side.
    let caps: Vec<f64> = svg
        .lines()
        .filter(|l| l.contains(r#"stroke-width="1.2""#))
        .flat_map(|l| {
            let d = l.split("d=\"").nth(1).unwrap();
            let d = &d[..d.find('"').unwrap()];
            d.split(['M', 'L', ' '])
                .filter_map(|p| p.split_once(',').map(|(_, y)| y.parse::<f64>().unwrap()))
                .collect::<Vec<f64>>()
        })
        .collect();
    let labels: Vec<f64> = svg
        .lines()
        .filter(|l| l.starts_with("<text") && l.contains(r#"font-size="10""#))
        .map(|l| {
            let y = l.split("y=\"").nth(1).unwrap();
            y[..y.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(labels.len(), 2, "{svg}");
    for y in labels {
        for c in &caps {
            assert!(
                y <= c - 6.0 || y - 7.5 >= c + 5.9,
                "label at {y} sits on a cap at {c}"
            );
        }
    }
}

#[test]
fn stand_in_is_a_banner_and_titles_carry_no_ids() {
    let mut fig = figure(false, &["a"]);
    let rows = [row("p", "a", "1", 1.0, None, 1)];
    assert!(!fig.render(&rows).contains("STAND-IN"));
    fig.notice = Some("STAND-IN WORKLOAD: not comparable to the paper".into());
    let svg = fig.render(&rows);
    assert!(
        texts(&svg)
            .iter()
            .any(|t| t.starts_with("STAND-IN WORKLOAD"))
    );
    assert!(svg.contains(r##"stroke="#b00020""##));
    assert_eq!(
        texts(&svg)[0],
        "Profit gain according to cluster load",
        "the title is the experiment's title"
    );
}
