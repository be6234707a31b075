//! The decision rates of `cargo xtask bench`: the stepping API
//! (`profile::Stepper`) driven from Rust by an agent that decides as a
//! built-in policy does, and the Python package's environment
//! (`crates/python/bench/steps_rate.py`) run by the Python named by
//! `USCHED_PYTHON` (default `python3`).

use std::process::Command;
use std::time::Instant;

use anyhow::{Result, bail};
use profile::testing::{easy_decision, fcfs_decision};
use profile::{Policy, SchedulerConfig, Stepper};

use super::Measure;
use super::names::STEPS;
use super::runner::Runner;
use crate::settings::Settings;

/// Floor of the Rust decision rate, decisions per second: about half of
/// this machine kind's measurement (2.5 M/s quiet, 1.6 M/s at a load
/// average of 5 on its 2 cores; 108,088 decisions on SDSC-SP2).
pub(super) const DECISIONS_FLOOR: f64 = 1.2e6;
/// Floor of the Python environment's rate, steps per second: about half of
/// this machine kind's measurement (0.79 M/s quiet, 0.48 M/s at a load
/// average of 5).
pub(super) const STEPS_FLOOR: f64 = 4.0e5;
/// Environment steps of one Python run.
const PYTHON_STEPS: usize = 200_000;
/// The Python script, from the repository root.
const SCRIPT: &str = "crates/python/bench/steps_rate.py";
/// The environment variable naming the Python to run it with.
const PYTHON_ENV: &str = "USCHED_PYTHON";

/// `bench-child step <policy> <path>`: steps `jobs` on `capacity`
/// processors with the agent deciding as `policy` (FCFS or EASY) does;
/// returns the seconds (building the stepper and every decision) and the
/// decisions. The schedule is then checked against the built-in policy's,
/// outside the clock.
pub(super) fn stepped(
    capacity: u32,
    policy: Policy,
    jobs: Vec<profile::Job>,
) -> Result<(f64, usize)> {
    let decide = match policy {
        Policy::Fcfs => fcfs_decision,
        p if p == Policy::EASY => easy_decision,
        other => bail!("bench-child step: no agent for {other:?} (fcfs or easy)"),
    };
    let config = SchedulerConfig::new(capacity, policy);
    let expected = profile::simulate(&config, &jobs)?;
    let start = Instant::now();
    let mut sim = Stepper::new(&config, jobs)?;
    let mut decisions = 0usize;
    while let Some(ctx) = sim.next_decision()? {
        decide(ctx)?;
        decisions += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    if sim.into_outcomes()? != expected {
        bail!("bench-child step: the agent's schedule differs from the built-in {policy:?}'s");
    }
    Ok((seconds, decisions))
}

/// Environment steps per second of the Python package on the trace at
/// `trace`, or why they were not measured (no such Python, or it cannot
/// import `usched`, `gymnasium` and `numpy`, or the script failed): a
/// skipped row, never an error.
pub(super) fn python_steps(
    runner: &mut Runner,
    settings: &Settings,
    trace: &str,
) -> Result<std::result::Result<Measure, String>> {
    let python = std::env::var(PYTHON_ENV).unwrap_or_else(|_| "python3".into());
    let script = settings.root.join(SCRIPT);
    if !script.is_file() {
        return Ok(Err(format!("no {SCRIPT}")));
    }
    let probe = Command::new(&python)
        .args(["-c", "import usched, gymnasium, numpy"])
        .output();
    match probe {
        Err(e) => return Ok(Err(format!("cannot run {python} ({e}); set {PYTHON_ENV}"))),
        Ok(o) if !o.status.success() => {
            let err = String::from_utf8_lossy(&o.stderr);
            let last = err.lines().last().unwrap_or("").trim();
            return Ok(Err(format!("{python}: {last}; set {PYTHON_ENV}")));
        }
        Ok(_) => {}
    }
    let steps = PYTHON_STEPS.to_string();
    let measured = runner.measure_command(STEPS, || {
        let mut cmd = Command::new(&python);
        cmd.arg(&script)
            .arg(trace)
            .arg(&steps)
            .current_dir(&settings.root)
            .env("OPENBLAS_NUM_THREADS", "1");
        cmd
    });
    Ok(measured.map_err(|e| format!("{SCRIPT} failed: {e:#}")))
}
