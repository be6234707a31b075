//! `kind = "backfilling"`: rigid jobs replayed under FCFS, EASY-k and
//! conservative backfilling (`profile`).
//!
//! ```toml
//! series = ["fcfs", "easy", "conservative"]   # any profile::Policy name
//! [params]
//! bsld_bound = 10                              # seconds, the default
//! ```
//!
//! A series name is a policy name; `{ policy = "easy-k3" }` spelled out.

use profile::{Policy, ScheduleStats};
use serde::{Deserialize, Serialize};

use crate::kind::{Cell, Kind, Metric, ParamError, Setup, overrides};
use crate::run::{RunError, replay};

/// The backfilling runner.
pub(crate) struct Backfilling;

/// `[params]` of a backfilling experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Params {
    /// The scheduling policy (each series sets it), written by name
    /// (`"easy-k3"`).
    pub policy: Policy,
    /// Bounded-slowdown threshold in seconds.
    pub bsld_bound: i64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            policy: Policy::Fcfs,
            bsld_bound: 10,
        }
    }
}

impl Kind for Backfilling {
    const NAME: &'static str = "backfilling";
    type Params = Params;
    type Sample = ScheduleStats;
    const METRICS: &'static [Metric<ScheduleStats>] = &[
        Metric::new("mean_wait", "Mean wait", "mean wait (s)", |s| {
            Some(s.mean_wait)
        }),
        Metric::new(
            "mean_bsld",
            "Mean bounded slowdown",
            "mean bounded slowdown",
            |s| Some(s.mean_bounded_slowdown),
        ),
        Metric::new("utilization", "Utilisation", "utilisation (%)", |s| {
            Some(100.0 * s.utilization)
        }),
        Metric::new("makespan", "Makespan", "makespan (s)", |s| {
            Some(s.makespan as f64)
        }),
        Metric::new("killed", "Jobs killed at their estimate", "jobs", |s| {
            Some(s.killed as f64)
        }),
        Metric::new("jobs", "Jobs simulated", "jobs", |s| Some(s.jobs as f64)),
    ];
    const RENAMED: &'static [(&'static str, &'static str)] = &[(
        "policies",
        "list the policies as top-level `series = [...]`",
    )];

    fn series(name: &str) -> Result<toml::Table, String> {
        let policy = name.parse::<Policy>().map_err(|e| e.to_string())?;
        Ok(overrides([("policy", policy.name().into())]))
    }

    fn check(params: &Params, setup: &Setup<'_>) -> Result<(), ParamError> {
        if params.bsld_bound < 1 {
            return Err(ParamError::key(
                "bsld_bound",
                format!("{} is below 1 second", params.bsld_bound),
            ));
        }
        if !setup.categorical() && setup.workloads != 1 {
            return Err(ParamError::general(
                "a backfilling sweep over a numeric axis takes exactly one workload",
            ));
        }
        Ok(())
    }

    fn run(
        params: &Params,
        cell: &Cell<'_>,
        _reference: Option<&[ScheduleStats]>,
    ) -> Result<Vec<ScheduleStats>, RunError> {
        let (_, stats) = replay(cell.workload()?, params.policy, params.bsld_bound)?;
        Ok(vec![stats])
    }
}
