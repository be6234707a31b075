//! `cargo xtask simulate`: one trace, one policy, the usual metrics.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use experiments::{Source, derive_seed, known_trace, replay, workload_from};
use profile::Policy;
use swf_io::Estimate;

use crate::traces::{load, resolve};
use crate::{Settings, output};

/// The bounded-slowdown threshold, seconds.
const BOUND: i64 = 10;

/// Parses `requested`, `actual` or `under-estimate:F`.
pub fn parse_estimate(s: &str) -> Result<Estimate> {
    match s {
        "requested" => Ok(Estimate::Requested),
        "actual" => Ok(Estimate::Actual),
        _ => s
            .strip_prefix("under-estimate:")
            .and_then(|f| f.parse::<f64>().ok())
            .filter(|f| f.is_finite())
            .map(Estimate::UnderEstimate)
            .ok_or_else(|| {
                anyhow!(
                    "--estimate is '{s}', expected requested, actual or under-estimate:<fraction>"
                )
            }),
    }
}

/// What `cargo xtask simulate` was asked for (the command line parses
/// into this; the command runs from it).
#[derive(Debug, Clone)]
pub struct SimulateOptions {
    /// A trace name or a path to a `.swf`/`.swf.gz` file.
    pub trace: String,
    /// The scheduling policy.
    pub policy: Policy,
    /// The estimate as written (`requested`, `actual`, `under-estimate:F`).
    pub estimate: String,
    /// Skip (and count) malformed trace lines.
    pub lenient: bool,
    /// Seed of a stand-in workload.
    pub seed: u64,
    /// Write the simulated schedule as SWF.
    pub schedule_out: Option<PathBuf>,
    /// Write the simulated schedule as Batsim's `jobs.csv`.
    pub jobs_csv: Option<PathBuf>,
    /// Write a Gantt chart (processors by time) as SVG.
    pub gantt: Option<PathBuf>,
    /// Write utilisation and queue length over time as SVG.
    pub timeline: Option<PathBuf>,
    /// Restrict the pictures to `[start, end)` seconds of the trace's submit-time scale.
    pub window: Option<(i64, i64)>,
}

/// Runs the command.
pub fn simulate(settings: &Settings, opts: &SimulateOptions) -> Result<ExitCode> {
    let start = Instant::now();
    let trace = opts.trace.as_str();
    let policy = opts.policy;
    let estimate = parse_estimate(&opts.estimate)?;
    let seed = opts.seed;
    let found = resolve(trace, Path::new("."), &settings.traces)?;
    let source = load(&found, opts.lenient)?;
    let name = known_trace(trace).map_or(trace, |k| k.name);
    let (workload, facts) = workload_from(
        &source,
        name,
        estimate,
        derive_seed(seed, &format!("stand-in/{name}")),
    );
    let sim_start = Instant::now();
    let (outcomes, stats) = replay(&workload, policy, BOUND)?;
    let sim_secs = sim_start.elapsed().as_secs_f64();

    let sha = facts
        .sha256
        .as_deref()
        .map(|s| format!(" (sha256 {s})"))
        .unwrap_or_default();
    println!("trace                  {}{sha}", facts.source);
    if facts.stand_in {
        println!("                       STAND-IN: NOT comparable to published results");
    }
    println!("machine                {} processors", facts.capacity);
    println!(
        "policy                 {} (estimate: {})",
        policy.name(),
        opts.estimate
    );
    println!(
        "jobs simulated         {} ({} records dropped as unreplayable, {} wider than the machine, {} without a requested time)",
        stats.jobs, facts.unreplayable, facts.too_wide, facts.no_estimate
    );
    println!("mean wait              {:.1} s", stats.mean_wait);
    println!(
        "mean bounded slowdown  {:.2} ({BOUND} s bound)",
        stats.mean_bounded_slowdown
    );
    println!("utilisation            {:.1} %", 100.0 * stats.utilization);
    println!("killed at estimate     {}", stats.killed);
    println!(
        "wall time              {sim_secs:.3} s simulation, {:.3} s in all",
        start.elapsed().as_secs_f64()
    );

    if let Some(out) = &opts.schedule_out {
        let records = swf_io::schedule_records(&workload.jobs, &outcomes);
        let mut header = match &source {
            Source::Trace { trace, .. } => trace.header.clone(),
            _ => swf_io::SwfHeader::default(),
        };
        header.max_records = Some(records.len() as u64);
        header.notes.push(format!(
            "simulated schedule: {} on {}",
            policy.name(),
            facts.source
        ));
        let mut bytes = Vec::new();
        swf_io::write_swf(&mut bytes, &header, &records)
            .context("cannot format the schedule as SWF")?;
        output::write_file(out, &bytes)?;
        println!(
            "schedule               {} ({} records)",
            out.display(),
            records.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
