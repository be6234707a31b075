//! `cargo xtask bench --against PATH`: the table of another `xtask` binary
//! measured side by side with this one, each case's runs alternating
//! (baseline, current, baseline, current, ...): both medians, the ratio
//! current / baseline and a verdict, then the goal ratios of both.

use crate::exit::say;
use std::path::Path;

use experiments::encode::terminal_path;

use super::report::{POLICY_GOALS, secs};
use super::runner::{Baseline, Pair, Runner};
use super::{Results, names};

/// A row is `ok` while current / baseline is at most this.
const WITHIN: f64 = 1.05;

/// The first line of `why`, at most 70 characters.
fn short(why: &str) -> String {
    let line = why.lines().next().unwrap_or("");
    let mut s: String = line.chars().take(70).collect();
    if line.chars().count() > 70 {
        s.push('…');
    }
    s
}

/// Prints the side-by-side table of `runner`'s cases against the baseline
/// at `baseline`.
pub(super) fn print(runner: &Runner, results: &Results, baseline: &Path) {
    say!(
        "\nside by side: baseline {} against current {}",
        terminal_path(baseline),
        terminal_path(runner.current().path())
    );
    say!(
        "each case: {} runs of each, alternating baseline, current, ...; medians; \
         verdict ok when current / baseline <= {WITHIN}",
        runner.runs()
    );
    // Wide enough for every row's name (the series' are long).
    let w = runner
        .pairs()
        .iter()
        .map(|p| p.name.chars().count())
        .chain([names::STEPS.len(), 40])
        .max()
        .unwrap_or(40);
    say!(
        "{:<w$} {:>10} {:>10} {:>8}  {:<7}  peak MB base / cur",
        "case",
        "baseline",
        "current",
        "cur/base",
        "verdict"
    );
    let (mut fine, mut slower, mut without) = (0, 0, 0);
    for p in runner.pairs() {
        let c = p.current;
        let why = match &p.baseline {
            Baseline::Measured(b) => {
                let ratio = c.seconds / b.seconds;
                let verdict = if ratio <= WITHIN {
                    fine += 1;
                    "ok"
                } else {
                    slower += 1;
                    "SLOWER"
                };
                let mut note = format!("{:.0} / {:.0}", b.peak_mb, c.peak_mb);
                if b.count != c.count {
                    note += &format!("  (count differs: {} / {})", b.count, c.count);
                }
                say!(
                    "{:<w$} {:>10} {:>10} {:>7.3}x  {verdict:<7}  {note}",
                    p.name,
                    secs(b.seconds),
                    secs(c.seconds),
                    ratio
                );
                continue;
            }
            Baseline::Cannot(why) => format!("the baseline cannot run it: {}", short(why)),
            Baseline::NotApplicable => {
                "not a case of the binary: the same program for both, measured once".into()
            }
        };
        without += 1;
        say!(
            "{:<w$} {:>10} {:>10} {:>8}  {:<7}  {why}",
            p.name,
            "–",
            secs(c.seconds),
            "–",
            "–",
        );
    }
    if let Err(why) = &results.python {
        say!("{:<w$} skipped for both: {}", names::STEPS, short(why));
    }
    say!("{fine} rows ok, {slower} SLOWER, {without} without a baseline");

    say!("\ngoals, both binaries (ratios within this session)");
    say!(
        "{:<w$} {:>10} {:>10} {:>8}  verdict (current)",
        "goal",
        "baseline",
        "current",
        "limit"
    );
    let find = |name: &str| runner.pairs().iter().find(|p| p.name == name);
    let mut traces = vec![("SDSC-SP2", names::SDSC)];
    if results.ctc.is_some() {
        traces.push(("CTC-SP2", names::CTC));
    }
    for (trace, rows) in traces {
        let [Some(f), Some(e), Some(c)] = rows.map(find) else {
            continue;
        };
        let pairs: [&Pair; 3] = [f, e, c];
        for (what, i, limit) in POLICY_GOALS {
            let base = match (&pairs[i].baseline, &pairs[0].baseline) {
                (Baseline::Measured(p), Baseline::Measured(f)) => {
                    format!("{:.2}x", p.seconds / f.seconds)
                }
                _ => "–".into(),
            };
            let cur = pairs[i].current.seconds / pairs[0].current.seconds;
            say!(
                "{:<w$} {base:>10} {:>10} {:>8}  {}",
                format!("{what}, {trace}"),
                format!("{cur:.2}x"),
                format!("<= {limit}x"),
                if cur <= limit { "met" } else { "MISSED" }
            );
        }
    }
}
