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
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::kind::{Cell, Kind, Metric, ParamError, Setup, overrides};
use crate::run::{RunError, replay};

/// The backfilling runner.
pub(crate) struct Backfilling;

/// `[params]` of a backfilling experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Params {
    /// The scheduling policy (each series sets it).
    pub policy: PolicyName,
    /// Bounded-slowdown threshold in seconds.
    pub bsld_bound: i64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            policy: PolicyName(Policy::Fcfs),
            bsld_bound: 10,
        }
    }
}

/// A policy written by name in TOML (`"easy-k3"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PolicyName(pub Policy);

impl<'de> Deserialize<'de> for PolicyName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map(PolicyName).map_err(serde::de::Error::custom)
    }
}

impl Serialize for PolicyName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.name())
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
        let policy: Policy = name.parse()?;
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
        let (_, stats) = replay(cell.workload()?, params.policy.0, params.bsld_bound)?;
        Ok(vec![stats])
    }
}
