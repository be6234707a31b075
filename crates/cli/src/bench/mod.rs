//! `cargo xtask bench`: whole-trace speed and memory, in a release build.
//!
//! The parent builds `xtask` with `--release` and runs every measurement in
//! a fresh child process (`cargo run --release -p xtask -- bench-child ...`),
//! so each run starts cold and the child's peak resident memory (`VmHWM` in
//! `/proc/self/status`) belongs to that case alone. It prints the median of
//! `--runs` runs (default 5) per case next to the project's floors, and the
//! ratio of each policy to FCFS measured in the same session.
//!
//! The cases, in the order printed: SDSC-SP2 (parse, FCFS, EASY,
//! conservative; these rows keep their names, scripts read them), the same
//! three policies on CTC-SP2 (a row says so if the trace cannot be found),
//! the Lublin99 scaling series: EASY and conservative on 100k and 1M
//! generated jobs, and on 10M with `--ten-million`; then one case per paper
//! kind (`bench/kinds.rs`: a pricing run on the 5,000-job window, a provisioning
//! round, the adaptive intervals of one series, a utility run). The series is
//! streamed: jobs go from the generator into `profile::simulate_stream` one
//! at a time and outcomes are folded as they come, so the time includes
//! generation (the generator alone has a row) and the peak memory is the
//! simulation's, whatever the number of jobs. A last block checks the
//! ratio and scaling goals.

mod kinds;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use experiments::{Source, workload_from};
use profile::{NoObserver, Policy, SchedulerConfig};
use swf_io::Estimate;
use swf_io::lublin99::Lublin99;

use crate::settings::Settings;
use crate::traces::{Found, TraceSettings, resolve};

const TRACE: &str = "SDSC-SP2-1998-4.2-cln";
const CTC: &str = "CTC-SP2-1996-3.1-cln";
const BIG_PROCS: u32 = 128;
/// The Lublin99 series; [`HUGE`] joins it with `--ten-million`.
const SERIES: [usize; 2] = [100_000, 1_000_000];
const HUGE: usize = 10_000_000;
/// Jobs of the generator-alone row.
const BIG_JOBS_GEN: usize = 1_000_000;
/// Goals: policy time over FCFS time on the same trace, in the same session.
const EASY_OVER_FCFS: f64 = 1.5;
const CONSERVATIVE_OVER_FCFS: f64 = 3.0;
/// Goal: the largest per-job time of a policy's series over its smallest.
const PER_JOB_SPREAD: f64 = 2.0;
/// Goal: peak memory of any streamed run, MB.
const STREAM_PEAK_MB: f64 = 200.0;

/// One child's report.
#[derive(Debug, Clone, Copy, Default)]
struct Measure {
    seconds: f64,
    count: f64,
    peak_mb: f64,
}

impl Measure {
    fn per_job_us(&self) -> f64 {
        self.seconds / self.count * 1e6
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// What `cargo xtask bench` runs.
#[derive(Debug, Clone, Copy)]
pub struct BenchOptions {
    /// Runs per case.
    pub runs: usize,
    /// Add the 10M-job runs to the Lublin99 series.
    pub ten_million: bool,
}

/// Runs `cargo xtask bench`; the 10M-job runs join with `ten_million`.
pub fn bench(settings: &Settings, runs: usize, ten_million: bool) -> Result<ExitCode> {
    bench_with(settings, BenchOptions { runs, ten_million })
}

/// Measures every case of `cargo xtask bench` in fresh release processes.
struct Runner<'a> {
    cargo: String,
    root: &'a Path,
    runs: usize,
}

impl Runner<'_> {
    /// The medians of `runs` runs of one case.
    fn measure(&self, name: &str, case: &[&str]) -> Result<Measure> {
        let mut all = Vec::new();
        for i in 0..self.runs {
            let m = run_child(&self.cargo, self.root, case)?;
            eprintln!("[{}/{}] {name}: {:.3} s", i + 1, self.runs, m.seconds);
            all.push(m);
        }
        Ok(Measure {
            seconds: median(all.iter().map(|m| m.seconds).collect()),
            count: all[0].count,
            peak_mb: median(all.iter().map(|m| m.peak_mb).collect()),
        })
    }

    /// FCFS, EASY and conservative on the trace at `path`.
    fn policies(&self, label: &str, path: &str) -> Result<[Measure; 3]> {
        let mut out = [Measure::default(); 3];
        for (m, policy) in out.iter_mut().zip(["fcfs", "easy", "conservative"]) {
            *m = self.measure(&format!("{policy}, {label}"), &["sim", policy, path, label])?;
        }
        Ok(out)
    }
}

/// The path of a known trace, never a stand-in.
fn real_trace(name: &str, settings: &Settings) -> Result<PathBuf> {
    let strict = TraceSettings {
        no_stand_in: true,
        ..settings.traces.clone()
    };
    let Found::File { path, .. } = resolve(name, &settings.root, &strict)? else {
        bail!("bench needs the real {name} trace; set TRACES_DIR");
    };
    Ok(std::path::absolute(&path).unwrap_or(path))
}

/// Prints one row of the table.
fn row(case: &str, v: String, rate: String, floor: String, verdict: &str, ratio: String) {
    println!("{case:<40} {v:>10} {rate:>12} {floor:>10}  {verdict:<7}  {ratio}");
}

fn ok(v: f64, floor: f64) -> &'static str {
    if v < floor { "ok" } else { "SLOW" }
}

fn rate(m: Measure) -> String {
    format!("{:.0}k/s", m.count / m.seconds / 1e3)
}

fn secs(s: f64) -> String {
    format!("{s:.3} s")
}

/// Runs `cargo xtask bench` with `options`.
pub fn bench_with(settings: &Settings, options: BenchOptions) -> Result<ExitCode> {
    if options.runs == 0 {
        bail!("--runs must be at least 1");
    }
    // The benchmark needs the real file.
    let path = real_trace(TRACE, settings)?;
    // CTC-SP2 is not in the repository: a missing copy skips its rows.
    let ctc = real_trace(CTC, settings);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("building xtask in release ...");
    let status = Command::new(&cargo)
        .args(["build", "--release", "--quiet", "-p", "xtask"])
        .current_dir(&settings.root)
        .status();
    if !matches!(status, Ok(s) if s.success()) {
        bail!("`cargo build --release -p xtask` failed");
    }
    let runner = Runner {
        cargo,
        root: &settings.root,
        runs: options.runs,
    };
    let trace = path.display().to_string();
    let parse = runner.measure("parse", &["parse", &trace])?;
    let [fcfs, easy, cons] = runner.policies(TRACE, &trace)?;
    let ctc = match &ctc {
        Ok(p) => Some((p, runner.policies(CTC, &p.display().to_string())?)),
        Err(_) => None,
    };
    let mut sizes = SERIES.to_vec();
    if options.ten_million {
        sizes.push(HUGE);
    }
    let big = BIG_JOBS_GEN.to_string();
    let generator = runner.measure("Lublin99 generator", &["lublin-gen", &big])?;
    let mut series = Vec::new();
    for policy in ["easy", "conservative"] {
        for &n in &sizes {
            let count = n.to_string();
            let m = runner.measure(
                &format!("{policy}, Lublin99 {n} jobs"),
                &["lublin", policy, &count],
            )?;
            series.push((policy, n, m));
        }
    }
    let mut by_kind = Vec::new();
    for case in &kinds::KIND_CASES {
        let m = runner.measure(case.name, &["cell", case.config, case.cell])?;
        by_kind.push((case, m));
    }

    println!(
        "cargo xtask bench: medians of {} runs, each in a fresh release process",
        options.runs
    );
    println!(
        "trace {} ({} jobs replayed, requested time as estimate)\n",
        path.display(),
        fcfs.count
    );
    println!(
        "{:<40} {:>10} {:>12} {:>10}  verdict  vs FCFS",
        "case", "median", "rate", "floor"
    );
    let vs = |m: Measure, base: Measure| format!("{:.1}x", m.seconds / base.seconds);
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

    println!();
    match &ctc {
        Some((p, [c_fcfs, c_easy, c_cons])) => {
            println!(
                "trace {} ({} jobs replayed, requested time as estimate)",
                p.display(),
                c_fcfs.count
            );
            for (name, m) in [
                ("FCFS, CTC-SP2", c_fcfs),
                ("EASY, CTC-SP2", c_easy),
                ("conservative, CTC-SP2", c_cons),
            ] {
                row(
                    name,
                    secs(m.seconds),
                    rate(*m),
                    "–".into(),
                    "",
                    vs(*m, *c_fcfs),
                );
            }
        }
        None => println!("skipped: CTC-SP2 not found (set TRACES_DIR)"),
    }

    println!(
        "\nLublin99 two-class, seed 1, {BIG_PROCS} procs, run time as estimate: streamed, \
         generated and simulated job by job (times include the generator)"
    );
    row(
        &format!("Lublin99 generator alone, {BIG_JOBS_GEN} jobs"),
        secs(generator.seconds),
        rate(generator),
        "–".into(),
        "",
        String::new(),
    );
    for &(policy, n, m) in &series {
        let name = if policy == "easy" { "EASY" } else { policy };
        // 20 s per million jobs: the former floor of the 1M EASY row.
        let floor = 20.0 * n as f64 / 1e6;
        row(
            &format!("{name}, Lublin99 {n} jobs, {BIG_PROCS} procs"),
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

    println!(
        "\none unit of each paper's experiments: a cell of a committed configuration \
         (workload prepared and simulated), one thread"
    );
    for (case, m) in &by_kind {
        row(
            case.name,
            secs(m.seconds),
            format!("{:.1} ms/{}", m.seconds / m.count * 1e3, case.unit),
            format!("< {} s", case.floor),
            ok(m.seconds, case.floor),
            String::new(),
        );
    }

    println!("\ngoals (ratios within this session)");
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
    goal(
        "EASY / FCFS, SDSC-SP2",
        easy.seconds / fcfs.seconds,
        EASY_OVER_FCFS,
    );
    goal(
        "conservative / FCFS, SDSC-SP2",
        cons.seconds / fcfs.seconds,
        CONSERVATIVE_OVER_FCFS,
    );
    if let Some((_, [c_fcfs, c_easy, c_cons])) = &ctc {
        goal(
            "EASY / FCFS, CTC-SP2",
            c_easy.seconds / c_fcfs.seconds,
            EASY_OVER_FCFS,
        );
        goal(
            "conservative / FCFS, CTC-SP2",
            c_cons.seconds / c_fcfs.seconds,
            CONSERVATIVE_OVER_FCFS,
        );
    }
    for policy in ["easy", "conservative"] {
        let per_job: Vec<f64> = series
            .iter()
            .filter(|s| s.0 == policy)
            .map(|s| s.2.per_job_us())
            .collect();
        let most = per_job.iter().copied().fold(f64::MIN, f64::max);
        let least = per_job.iter().copied().fold(f64::MAX, f64::min);
        let last = sizes.last().copied().unwrap_or_default();
        goal(
            &format!("{policy}: per-job time, Lublin99 {}..{last}", sizes[0]),
            most / least,
            PER_JOB_SPREAD,
        );
    }
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
///
/// Cases: `parse <path>`; `sim <policy> <path> [label]`;
/// `lublin <policy> <jobs>` (streamed); `lublin-gen <jobs>` (the generator
/// alone); `cell <config> <label>` (one cell of an experiment).
pub fn child(settings: &Settings, args: &[String]) -> Result<ExitCode> {
    let arg = |i: usize| {
        args.get(i)
            .map(String::as_str)
            .ok_or_else(|| anyhow!("bench-child: missing argument {i}"))
    };
    let policy = |i: usize| -> Result<Policy> { arg(i)?.parse::<Policy>().map_err(|e| anyhow!(e)) };
    let (seconds, count) = match arg(0)? {
        "parse" => {
            let start = Instant::now();
            let trace = swf_io::read_trace(Path::new(arg(1)?), swf_io::Mode::Strict)?;
            (start.elapsed().as_secs_f64(), trace.records.len())
        }
        "sim" => {
            let policy = policy(1)?;
            let path = PathBuf::from(arg(2)?);
            let label = args.get(3).map_or(TRACE, String::as_str);
            let trace = swf_io::read_trace(&path, swf_io::Mode::Strict)?;
            let source = Source::trace(arg(2)?.to_string(), String::new(), trace, None);
            let (w, _) = workload_from(&source, label, Estimate::Requested, 0);
            timed_simulation(w.capacity, policy, &w.jobs)?
        }
        "lublin" => streamed_lublin(policy(1)?, arg(2)?.parse()?)?,
        "lublin-gen" => {
            let start = Instant::now();
            let count = lublin(arg(1)?.parse()?)
                .iter_jobs()
                .map(std::hint::black_box)
                .count();
            (start.elapsed().as_secs_f64(), count)
        }
        "cell" => kinds::run_cell(settings, arg(1)?, arg(2)?)?,
        other => bail!("bench-child: unknown case '{other}'"),
    };
    println!("seconds={seconds} count={count} peak_kb={}", vm_hwm_kb());
    Ok(ExitCode::SUCCESS)
}

/// `n` Lublin99 jobs (two-class model, seed 1) on [`BIG_PROCS`] processors.
fn lublin(n: usize) -> Lublin99 {
    Lublin99 {
        procs: BIG_PROCS,
        duration: i64::MAX,
        max_jobs: Some(n),
        seed: 1,
        two_class: true,
        ..Default::default()
    }
}

/// Generates and replays `n` Lublin99 jobs one at a time, folding the
/// outcomes as they come: nothing of the size of the workload is kept.
fn streamed_lublin(policy: Policy, n: usize) -> Result<(f64, usize)> {
    let config = SchedulerConfig::new(BIG_PROCS, policy);
    let start = Instant::now();
    let mut last_end = profile::Time::ZERO;
    let count = profile::simulate_stream(
        &config,
        lublin(n).iter_jobs(),
        &mut NoObserver,
        |_, outcome| last_end = last_end.max(outcome.end),
    )?;
    let seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(last_end);
    Ok((seconds, count))
}

fn timed_simulation(capacity: u32, policy: Policy, jobs: &[profile::Job]) -> Result<(f64, usize)> {
    let start = Instant::now();
    let outcomes = profile::simulate(&SchedulerConfig::new(capacity, policy), jobs)?;
    let seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(&outcomes);
    Ok((seconds, jobs.len()))
}
