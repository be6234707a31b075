//! What `simulate` runs from ([`SimulateOptions`]), shared by the command
//! line that parses into it and the command that runs it.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use profile::Policy;
use swf_io::Estimate;

/// Parses `requested`, `actual` or `under-estimate:F`.
pub fn parse_estimate(s: &str) -> Result<Estimate> {
    match s {
        "requested" => Ok(Estimate::Requested),
        "actual" => Ok(Estimate::Actual),
        _ => s
            .strip_prefix("under-estimate:")
            .and_then(|f| f.parse::<f64>().ok())
            // The same range a config's `under_estimate` accepts.
            .filter(|f| f.is_finite() && (0.0..1.0).contains(f))
            .map(Estimate::UnderEstimate)
            .ok_or_else(|| {
                anyhow!(
                    "--estimate is '{s}', expected requested, actual or under-estimate:<fraction in [0, 1)>"
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
    /// The machine size in processors, for a trace whose header gives none
    /// (or to replace the header's).
    pub procs: Option<u32>,
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
    /// Replace existing output files even if the tool did not write them.
    pub force: bool,
}
