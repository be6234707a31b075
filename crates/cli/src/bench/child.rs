//! `bench-child`: one measurement in a fresh process, printed as
//! `seconds=... count=... peak_kb=...`.

use crate::exit::say;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use experiments::{Source, workload_from};
use profile::{NoObserver, Policy, SchedulerConfig};
use swf_io::Estimate;
use swf_io::lublin99::Lublin99;

use super::{BIG_PROCS, TRACE, kinds, rates};
use crate::settings::Settings;

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
/// alone); `cell <config> <label>` (one cell of an experiment);
/// `step <fcfs|easy> <path> [label]` (the stepping API driven by an agent
/// that decides as the policy does; the count is the decisions).
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
            let (capacity, jobs) = trace_jobs(arg(2)?, args.get(3))?;
            timed_simulation(capacity, policy(1)?, &jobs)?
        }
        "step" => {
            let (capacity, jobs) = trace_jobs(arg(2)?, args.get(3))?;
            rates::stepped(capacity, policy(1)?, jobs)?
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
    say!("seconds={seconds} count={count} peak_kb={}", vm_hwm_kb());
    Ok(ExitCode::SUCCESS)
}

/// The machine size and jobs of the trace at `path` (its workload named
/// `label`, default SDSC-SP2's), requested time as the estimate.
fn trace_jobs(path: &str, label: Option<&String>) -> Result<(u32, Vec<profile::Job>)> {
    let label = label.map_or(TRACE, String::as_str);
    let trace = swf_io::read_trace(&PathBuf::from(path), swf_io::Mode::Strict)?;
    let source = Source::trace(path.to_string(), String::new(), trace, None);
    let (w, _) = workload_from(&source, label, Estimate::Requested, 0);
    Ok((w.capacity, w.jobs))
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
