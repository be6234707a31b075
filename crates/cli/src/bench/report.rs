//! The table of `cargo xtask bench`: every case's median next to its floor,
//! then the goals (ratios within the session).

use super::rates::{DECISIONS_FLOOR, STEPS_FLOOR};
use super::{BIG_JOBS_GEN, BIG_PROCS, Measure, Results, names};
use crate::exit::say;
use experiments::encode::terminal_path;

/// Goals: policy time over FCFS time on the same trace, in the same session.
pub(super) const EASY_OVER_FCFS: f64 = 1.5;
pub(super) const CONSERVATIVE_OVER_FCFS: f64 = 3.0;
/// Goal: the largest per-job time of a policy's series over its smallest.
const PER_JOB_SPREAD: f64 = 2.0;
/// Goal: peak memory of any streamed run, MB.
const STREAM_PEAK_MB: f64 = 200.0;

/// Prints one row of the table.
pub(super) fn row(
    case: &str,
    v: String,
    rate: String,
    floor: String,
    verdict: &str,
    ratio: String,
) {
    say!("{case:<40} {v:>10} {rate:>12} {floor:>10}  {verdict:<7}  {ratio}");
}

fn ok(v: f64, floor: f64) -> &'static str {
    if v < floor { "ok" } else { "SLOW" }
}

fn rate(m: Measure) -> String {
    format!("{:.0}k/s", m.count / m.seconds / 1e3)
}

pub(super) fn secs(s: f64) -> String {
    format!("{s:.3} s")
}

/// A rate row with a floor on the rate (per second).
fn rate_row(name: &str, m: Measure, floor: f64, what: &str) {
    let per_second = m.count / m.seconds;
    row(
        name,
        secs(m.seconds),
        rate(m),
        format!("> {:.0}k/s", floor / 1e3),
        if per_second > floor { "ok" } else { "SLOW" },
        format!("{:.0} {what}", m.count),
    );
}

/// The goals that compare a policy with FCFS on one trace: (row, policy's
/// index in [FCFS, EASY, conservative], limit).
pub(super) const POLICY_GOALS: [(&str, usize, f64); 2] = [
    ("EASY / FCFS", 1, EASY_OVER_FCFS),
    ("conservative / FCFS", 2, CONSERVATIVE_OVER_FCFS),
];

/// Prints the table of `results`, medians of `runs` runs.
pub(super) fn print(r: &Results, runs: usize) {
    let [fcfs, easy, cons] = r.sdsc;
    say!("cargo xtask bench: medians of {runs} runs, each in a fresh release process");
    say!(
        "trace {} ({} jobs replayed, requested time as estimate)\n",
        terminal_path(&r.trace),
        fcfs.count
    );
    say!(
        "{:<40} {:>10} {:>12} {:>10}  verdict  vs FCFS",
        "case",
        "median",
        "rate",
        "floor"
    );
    let vs = |m: Measure, base: Measure| format!("{:.1}x", m.seconds / base.seconds);
    let parse = r.parse;
    row(
        names::PARSE,
        secs(parse.seconds),
        rate(parse),
        "< 0.3 s".into(),
        ok(parse.seconds, 0.3),
        String::new(),
    );
    row(
        "FCFS",
        secs(fcfs.seconds),
        rate(fcfs),
        "–".into(),
        "",
        "1.0x".into(),
    );
    row(
        "EASY",
        secs(easy.seconds),
        rate(easy),
        "< 0.3 s".into(),
        ok(easy.seconds, 0.3),
        vs(easy, fcfs),
    );
    row(
        "conservative",
        secs(cons.seconds),
        rate(cons),
        "< 1 s".into(),
        ok(cons.seconds, 1.0),
        vs(cons, fcfs),
    );

    say!();
    match &r.ctc {
        Some((p, ms)) => {
            say!(
                "trace {} ({} jobs replayed, requested time as estimate)",
                terminal_path(p),
                ms[0].count
            );
            for (name, m) in names::CTC.into_iter().zip(ms) {
                row(
                    name,
                    secs(m.seconds),
                    rate(*m),
                    "–".into(),
                    "",
                    vs(*m, ms[0]),
                );
            }
        }
        None => say!("skipped: CTC-SP2 not found (set TRACES_DIR)"),
    }

    say!(
        "\nLublin99 two-class, seed 1, {BIG_PROCS} procs, run time as estimate: streamed, \
         generated and simulated job by job (times include the generator)"
    );
    row(
        &names::generator(BIG_JOBS_GEN),
        secs(r.generator.seconds),
        rate(r.generator),
        "–".into(),
        "",
        String::new(),
    );
    for &(policy, n, m) in &r.series {
        // 20 s per million jobs: the former floor of the 1M EASY row.
        let floor = 20.0 * n as f64 / 1e6;
        row(
            &names::series(policy, n),
            secs(m.seconds),
            rate(m),
            format!("< {floor:.0} s"),
            ok(m.seconds, floor),
            format!("{:.2} us/job", m.per_job_us()),
        );
        row(
            "  peak memory (VmHWM)",
            format!("{:.0} MB", m.peak_mb),
            String::new(),
            format!("< {STREAM_PEAK_MB:.0} MB"),
            ok(m.peak_mb, STREAM_PEAK_MB),
            String::new(),
        );
    }

    say!(
        "\none unit of each paper's experiments: a cell of a committed configuration \
         (workload prepared and simulated), one thread"
    );
    for (case, m) in &r.by_kind {
        row(
            case.name,
            secs(m.seconds),
            format!("{:.1} ms/{}", m.seconds / m.count * 1e3, case.unit),
            format!("< {} s", case.floor),
            ok(m.seconds, case.floor),
            String::new(),
        );
    }

    say!(
        "\ndecision rates: the stepping API (profile::Stepper) with an agent deciding as EASY \
         does, on SDSC-SP2; usched/BatchScheduling-v0 (defaults, random valid actions) on \
         SDSC-SP2, from Python"
    );
    rate_row(names::DECISIONS, r.decisions, DECISIONS_FLOOR, "decisions");
    match &r.python {
        Ok(m) => rate_row(names::STEPS, *m, STEPS_FLOOR, "steps"),
        Err(why) => say!("{:<40} skipped: {why}", names::STEPS),
    }

    say!("\ngoals (ratios within this session)");
    let goal = |name: &str, v: f64, limit: f64| {
        row(
            name,
            format!("{v:.2}x"),
            String::new(),
            format!("<= {limit}x"),
            if v <= limit { "met" } else { "MISSED" },
            String::new(),
        );
    };
    let mut traces = vec![("SDSC-SP2", r.sdsc)];
    if let Some((_, ms)) = &r.ctc {
        traces.push(("CTC-SP2", *ms));
    }
    for (trace, ms) in &traces {
        for (what, i, limit) in POLICY_GOALS {
            goal(
                &format!("{what}, {trace}"),
                ms[i].seconds / ms[0].seconds,
                limit,
            );
        }
    }
    for policy in ["easy", "conservative"] {
        let per_job: Vec<f64> = r
            .series
            .iter()
            .filter(|s| s.0 == policy)
            .map(|s| s.2.per_job_us())
            .collect();
        let most = per_job.iter().copied().fold(f64::MIN, f64::max);
        let least = per_job.iter().copied().fold(f64::MAX, f64::min);
        let last = r.sizes.last().copied().unwrap_or_default();
        goal(
            &format!("{policy}: per-job time, Lublin99 {}..{last}", r.sizes[0]),
            most / least,
            PER_JOB_SPREAD,
        );
    }
}
