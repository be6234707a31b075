//! `cargo xtask bench`: whole-trace speed and memory, in a release build.
//!
//! The parent builds `xtask` with `--release` and runs every measurement in
//! a fresh child process (`cargo run --release -p xtask -- bench-child ...`),
//! so each run starts cold and the child's peak resident memory (`VmHWM` in
//! `/proc/self/status`) belongs to that case alone. It prints the median of
//! `--runs` runs (default 5) per case next to the project's floors, and the
//! ratio of each policy to FCFS measured in the same session.
//!
//! The million-job workload is streamed from the generator into jobs (see
//! `lublin_jobs`), so the peak memory reported is the simulation's.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use experiments::{Source, workload_from};
use profile::{Policy, SchedulerConfig};
use swf_io::Estimate;

use crate::Settings;
use crate::traces::{Found, TraceSettings, resolve};

const TRACE: &str = "SDSC-SP2-1998-4.2-cln";
const BIG_JOBS: usize = 1_000_000;
const BIG_PROCS: u32 = 128;

/// One child's report.
#[derive(Debug, Clone, Copy, Default)]
struct Measure {
    seconds: f64,
    count: f64,
    peak_mb: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Runs `cargo xtask bench`.
pub fn bench(settings: &Settings, runs: usize) -> Result<ExitCode> {
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    // The benchmark needs the real file.
    let strict = TraceSettings {
        no_stand_in: true,
        ..settings.traces.clone()
    };
    let Found::File { path, .. } = resolve(TRACE, &settings.root, &strict)? else {
        bail!("bench needs the real {TRACE} trace; set TRACES_DIR");
    };
    let path = std::path::absolute(&path).unwrap_or(path);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("building xtask in release ...");
    let status = Command::new(&cargo)
        .args(["build", "--release", "--quiet", "-p", "xtask"])
        .current_dir(&settings.root)
        .status();
    if !matches!(status, Ok(s) if s.success()) {
        bail!("`cargo build --release -p xtask` failed");
    }
    let trace = path.display().to_string();
    let big = BIG_JOBS.to_string();
    let cases: [(&str, Vec<&str>); 5] = [
        ("parse", vec!["parse", &trace]),
        ("fcfs", vec!["sim", "fcfs", &trace]),
        ("easy", vec!["sim", "easy", &trace]),
        ("conservative", vec!["sim", "conservative", &trace]),
        ("big", vec!["lublin", &big]),
    ];
    let mut medians = Vec::new();
    for (name, case) in &cases {
        let mut all = Vec::new();
        for i in 0..runs {
            let m = run_child(&cargo, &settings.root, case)?;
            eprintln!("[{}/{runs}] {name}: {:.3} s", i + 1, m.seconds);
            all.push(m);
        }
        medians.push(Measure {
            seconds: median(all.iter().map(|m| m.seconds).collect()),
            count: all[0].count,
            peak_mb: median(all.iter().map(|m| m.peak_mb).collect()),
        });
    }
    let [parse, fcfs, easy, cons, big] =
        [medians[0], medians[1], medians[2], medians[3], medians[4]];
    let ok = |v: f64, floor: f64| if v < floor { "ok" } else { "SLOW" };
    let rate = |m: Measure| format!("{:.0}k/s", m.count / m.seconds / 1e3);
    println!("cargo xtask bench: medians of {runs} runs, each in a fresh release process");
    println!(
        "trace {} ({} jobs replayed, requested time as estimate)\n",
        path.display(),
        fcfs.count
    );
    println!(
        "{:<40} {:>10} {:>12} {:>10}  verdict  vs FCFS",
        "case", "median", "rate", "floor"
    );
    let row = |case: &str, v: String, rate: String, floor: String, verdict: &str, ratio: String| {
        println!("{case:<40} {v:>10} {rate:>12} {floor:>10}  {verdict:<7}  {ratio}");
    };
    let secs = |s: f64| format!("{s:.3} s");
    let vs = |m: Measure| format!("{:.1}x", m.seconds / fcfs.seconds);
    row(
        "parse .swf.gz (records)",
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
        vs(easy),
    );
    row(
        "conservative",
        secs(cons.seconds),
        rate(cons),
        "< 1 s".into(),
        ok(cons.seconds, 1.0),
        vs(cons),
    );
    row(
        &format!("EASY, Lublin99 {BIG_JOBS} jobs, {BIG_PROCS} procs"),
        secs(big.seconds),
        rate(big),
        "< 20 s".into(),
        ok(big.seconds, 20.0),
        String::new(),
    );
    row(
        "  peak memory (VmHWM)",
        format!("{:.0} MB", big.peak_mb),
        String::new(),
        "< 300 MB".into(),
        ok(big.peak_mb, 300.0),
        String::new(),
    );
    Ok(ExitCode::SUCCESS)
}

fn run_child(cargo: &str, root: &Path, case: &[&str]) -> Result<Measure> {
    let out = Command::new(cargo)
        .args([
            "run",
            "--release",
            "--quiet",
            "-p",
            "xtask",
            "--",
            "bench-child",
        ])
        .args(case)
        .current_dir(root)
        .output()
        .context("cannot start the benchmark child")?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "benchmark child {case:?} failed: {}{}",
            text,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let field = |k: &str| -> Result<f64> {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(k).and_then(|v| v.strip_prefix('=')))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow!("benchmark child printed '{}', missing {k}", text.trim()))
    };
    Ok(Measure {
        seconds: field("seconds")?,
        count: field("count")?,
        peak_mb: field("peak_kb")? / 1024.0,
    })
}

/// Peak resident memory of this process in kB.
fn vm_hwm_kb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("VmHWM:")
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
        })
        .unwrap_or(f64::NAN)
}

/// `bench-child <case> ...`: one measurement, printed as `key=value` pairs.
pub fn child(args: &[String]) -> Result<ExitCode> {
    let arg = |i: usize| {
        args.get(i)
            .map(String::as_str)
            .ok_or_else(|| anyhow!("bench-child: missing argument {i}"))
    };
    let (seconds, count) = match arg(0)? {
        "parse" => {
            let start = Instant::now();
            let trace = swf_io::read_trace(Path::new(arg(1)?), swf_io::Mode::Strict)?;
            (start.elapsed().as_secs_f64(), trace.records.len())
        }
        "sim" => {
            let policy: Policy = arg(1)?.parse().map_err(|e: String| anyhow!(e))?;
            let path = PathBuf::from(arg(2)?);
            let trace = swf_io::read_trace(&path, swf_io::Mode::Strict)?;
            let source = Source::trace(arg(2)?.to_string(), String::new(), trace, None);
            let (w, _) = workload_from(&source, TRACE, Estimate::Requested, 0);
            timed_simulation(w.capacity, policy, &w.jobs)?
        }
        "lublin" => {
            let jobs = lublin_jobs(arg(1)?.parse()?);
            timed_simulation(BIG_PROCS, Policy::EASY, &jobs)?
        }
        other => bail!("bench-child: unknown case '{other}'"),
    };
    println!("seconds={seconds} count={count} peak_kb={}", vm_hwm_kb());
    Ok(ExitCode::SUCCESS)
}

/// `n` Lublin99 jobs (two-class model, seed 1), streamed from the
/// generator straight into jobs so no record buffer inflates peak memory.
fn lublin_jobs(n: usize) -> Vec<profile::Job> {
    swf_io::lublin99::Lublin99 {
        procs: BIG_PROCS,
        duration: i64::MAX,
        max_jobs: Some(n),
        seed: 1,
        two_class: true,
    }
    .jobs()
}

fn timed_simulation(capacity: u32, policy: Policy, jobs: &[profile::Job]) -> Result<(f64, usize)> {
    let start = Instant::now();
    let outcomes = profile::simulate(&SchedulerConfig::new(capacity, policy), jobs)?;
    let seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(&outcomes);
    Ok((seconds, jobs.len()))
}
