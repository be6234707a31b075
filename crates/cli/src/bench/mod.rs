//! `cargo xtask bench`: whole-trace speed and memory, in a release build.
//!
//! The parent builds `xtask` with `cargo build --release -p xtask` once,
//! then runs every measurement in a fresh child process of the built binary
//! itself (`<target>/release/xtask bench-child ...`, the target directory
//! as `cargo metadata` reports it, so `CARGO_TARGET_DIR` is honoured): no
//! `cargo run` per measurement, so neither cargo's start-up nor a rebuild
//! (the build script watches git's refs) is ever inside a measurement. Each
//! run starts cold and the child's peak resident memory (`VmHWM` in
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
//! round, the adaptive intervals of one series, a utility run); then the
//! decision rates (`bench/rates.rs`): decisions per second of the stepping
//! API (`profile::Stepper`) driven by an agent that decides as EASY does,
//! on SDSC-SP2, and environment steps per second of the Python package
//! (`crates/python/bench/steps_rate.py`, run by `USCHED_PYTHON`, default
//! `python3`; the row says skipped, and why, when that Python cannot import
//! `usched`). The series is streamed: jobs go from the generator into
//! `profile::simulate_stream` one at a time and outcomes are folded as they
//! come, so the time includes generation (the generator alone has a row)
//! and the peak memory is the simulation's, whatever the number of jobs. A
//! last block checks the ratio and scaling goals.
//!
//! `--against PATH` measures another `xtask` binary side by side with this
//! one (`bench/compare.rs`), for "within 5% of the code before or faster":
//! for every case the runs alternate, the other binary then this one, `--runs`
//! times each, so a change of load hits both alike; after the usual table
//! a second one gives per case both medians, current / baseline and a
//! verdict (`ok` at 1.05 or less, else `SLOWER`), then the goal ratios of
//! both. A case the other binary cannot run (an older `bench-child` without
//! it) says so in its row. The baseline runs in its own checkout (an older
//! binary finds its root where it was built, a newer one in its current
//! directory), on the same trace files. For the start of issue #25:
//!
//! ```text
//! git worktree add /work/before 6c82a50
//! (cd /work/before && CARGO_TARGET_DIR=/work/target-before cargo build --release -p xtask)
//! TRACES_DIR=/work/shared/traces cargo xtask bench --runs 3 --against /work/target-before/release/xtask
//! ```

mod child;
mod compare;
mod kinds;
mod rates;
mod report;
mod runner;

use crate::exit::say_err;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Result, bail};
use experiments::encode::terminal_path;

use crate::settings::Settings;
use crate::traces::{Found, TraceSettings, resolve};

pub use child::child;

use runner::{Program, Runner};

const TRACE: &str = "SDSC-SP2-1998-4.2-cln";
const CTC: &str = "CTC-SP2-1996-3.1-cln";
const BIG_PROCS: u32 = 128;
/// The Lublin99 series; [`HUGE`] joins it with `--ten-million`.
const SERIES: [usize; 2] = [100_000, 1_000_000];
const HUGE: usize = 10_000_000;
/// Jobs of the generator-alone row.
const BIG_JOBS_GEN: usize = 1_000_000;

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

/// The medians of several runs of one case.
fn medians(all: &[Measure]) -> Measure {
    Measure {
        seconds: median(all.iter().map(|m| m.seconds).collect()),
        count: all.first().map_or(f64::NAN, |m| m.count),
        peak_mb: median(all.iter().map(|m| m.peak_mb).collect()),
    }
}

/// What `cargo xtask bench` runs.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct BenchOptions {
    /// Runs per case.
    pub runs: usize,
    /// Add the 10M-job runs to the Lublin99 series.
    pub ten_million: bool,
    /// Another `xtask` binary to measure side by side (`--against`).
    pub against: Option<PathBuf>,
}

impl BenchOptions {
    /// `runs` runs per case, the 10M-job runs with `ten_million`, nothing
    /// measured side by side.
    pub fn new(runs: usize, ten_million: bool) -> BenchOptions {
        BenchOptions {
            runs,
            ten_million,
            against: None,
        }
    }
}

/// Runs `cargo xtask bench`; the 10M-job runs join with `ten_million`.
pub fn bench(settings: &Settings, runs: usize, ten_million: bool) -> Result<ExitCode> {
    bench_with(settings, &BenchOptions::new(runs, ten_million))
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

/// Everything one session measured with the binary under test.
struct Results {
    trace: PathBuf,
    parse: Measure,
    /// FCFS, EASY, conservative on SDSC-SP2.
    sdsc: [Measure; 3],
    /// The same on CTC-SP2, when found.
    ctc: Option<(PathBuf, [Measure; 3])>,
    generator: Measure,
    /// The Lublin99 sizes measured, smallest first.
    sizes: Vec<usize>,
    /// (policy, jobs, measure), EASY's then conservative's.
    series: Vec<(&'static str, usize, Measure)>,
    by_kind: Vec<(&'static kinds::KindCase, Measure)>,
    /// Decisions of the stepping API, an EASY agent on SDSC-SP2.
    decisions: Measure,
    /// Environment steps of the Python package, or why it was skipped.
    python: std::result::Result<Measure, String>,
}

/// The row names shared by the table and the side-by-side comparison.
mod names {
    pub const PARSE: &str = "parse .swf.gz (records)";
    /// The side-by-side names of the SDSC-SP2 rows (the table's are
    /// `FCFS`, `EASY` and `conservative`, which scripts read).
    pub const SDSC: [&str; 3] = ["FCFS, SDSC-SP2", "EASY, SDSC-SP2", "conservative, SDSC-SP2"];
    pub const CTC: [&str; 3] = ["FCFS, CTC-SP2", "EASY, CTC-SP2", "conservative, CTC-SP2"];
    pub const DECISIONS: &str = "decisions per second (Rust), EASY agent";
    pub const STEPS: &str = "environment steps per second (Python)";

    /// The row of the generator alone.
    pub fn generator(jobs: usize) -> String {
        format!("Lublin99 generator alone, {jobs} jobs")
    }

    /// The row of a policy's run of `jobs` Lublin99 jobs.
    pub fn series(policy: &str, jobs: usize) -> String {
        let name = if policy == "easy" { "EASY" } else { policy };
        format!("{name}, Lublin99 {jobs} jobs, {} procs", super::BIG_PROCS)
    }
}

/// The release binary `cargo build --release -p xtask` wrote:
/// `<target>/release/xtask`, the target directory as `cargo metadata`
/// reports it.
fn built_binary(cargo: &str, root: &Path) -> Result<PathBuf> {
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .output();
    let target = match out {
        Ok(o) if o.status.success() => {
            json_string(&String::from_utf8_lossy(&o.stdout), "target_directory")
        }
        _ => None,
    };
    let Some(target) = target.map(PathBuf::from) else {
        bail!("`cargo metadata` did not give the target directory");
    };
    let binary = target
        .join("release")
        .join(format!("xtask{}", std::env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        bail!(
            "no release binary at {} after `cargo build --release -p xtask`",
            terminal_path(&binary)
        );
    }
    Ok(binary)
}

/// The string value of the first `"key":"..."` in `json` (`cargo
/// metadata`'s output: one line, no spaces around the colon).
fn json_string(json: &str, key: &str) -> Option<String> {
    let start = json.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let mut out = String::new();
    let mut chars = json[start..].chars();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
}

/// Runs `cargo xtask bench` with `options`.
pub fn bench_with(settings: &Settings, options: &BenchOptions) -> Result<ExitCode> {
    if options.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let baseline = match &options.against {
        Some(p) => {
            let p = std::path::absolute(p).unwrap_or_else(|_| p.clone());
            if !p.is_file() {
                bail!("--against {}: no such file", terminal_path(&p));
            }
            Some(Program::baseline(p))
        }
        None => None,
    };
    // The benchmark needs the real file.
    let path = real_trace(TRACE, settings)?;
    // CTC-SP2 is not in the repository: a missing copy skips its rows.
    let ctc = real_trace(CTC, settings);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    say_err!("building xtask in release ...");
    let status = Command::new(&cargo)
        .args(["build", "--release", "--quiet", "-p", "xtask"])
        .current_dir(&settings.root)
        .status();
    if !matches!(status, Ok(s) if s.success()) {
        bail!("`cargo build --release -p xtask` failed");
    }
    let current = Program::current(built_binary(&cargo, &settings.root)?, &settings.root);
    let mut runner = Runner::new(current, baseline, options.runs);
    let results = measure_all(&mut runner, settings, options, path, ctc.ok())?;
    report::print(&results, options.runs);
    if let Some(baseline) = &options.against {
        compare::print(&runner, &results, baseline);
    }
    Ok(ExitCode::SUCCESS)
}

/// Measures every case, in the order printed.
fn measure_all(
    runner: &mut Runner,
    settings: &Settings,
    options: &BenchOptions,
    path: PathBuf,
    ctc: Option<PathBuf>,
) -> Result<Results> {
    let trace = path.display().to_string();
    let parse = runner.measure(names::PARSE, &["parse", &trace])?;
    let sdsc = runner.policies(names::SDSC, TRACE, &trace)?;
    let ctc = match ctc {
        Some(p) => {
            let m = runner.policies(names::CTC, CTC, &p.display().to_string())?;
            Some((p, m))
        }
        None => None,
    };
    let mut sizes = SERIES.to_vec();
    if options.ten_million {
        sizes.push(HUGE);
    }
    let big = BIG_JOBS_GEN.to_string();
    let generator = runner.measure(&names::generator(BIG_JOBS_GEN), &["lublin-gen", &big])?;
    let mut series = Vec::new();
    for policy in ["easy", "conservative"] {
        for &n in &sizes {
            let count = n.to_string();
            let m = runner.measure(&names::series(policy, n), &["lublin", policy, &count])?;
            series.push((policy, n, m));
        }
    }
    let mut by_kind = Vec::new();
    for case in &kinds::KIND_CASES {
        kinds::check_case(settings, case)?;
        let m = runner.measure(case.name, &["cell", case.config, case.cell])?;
        by_kind.push((case, m));
    }
    let decisions = runner.measure(names::DECISIONS, &["step", "easy", &trace, TRACE])?;
    let python = rates::python_steps(runner, settings, &trace)?;
    Ok(Results {
        trace: path,
        parse,
        sdsc,
        ctc,
        generator,
        sizes,
        series,
        by_kind,
        decisions,
        python,
    })
}

#[cfg(test)]
mod tests {
    use super::json_string;

    #[test]
    fn the_target_directory_is_read_from_cargo_metadata() {
        let json = r#"{"packages":[],"target_directory":"/a/b \"c\"\\d\u00e9","version":1}"#;
        assert_eq!(
            json_string(json, "target_directory").as_deref(),
            Some("/a/b \"c\"\\dé")
        );
        assert_eq!(json_string(json, "workspace_root"), None);
        assert_eq!(
            json_string(r#"{"target_directory":"/unterminated"#, "target_directory"),
            None
        );
    }
}
