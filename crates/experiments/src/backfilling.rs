//! `kind = "backfilling"`: rigid jobs replayed under FCFS, EASY-k and
//! conservative backfilling; one series per policy.
//!
//! ```toml
//! [params]
//! policies = ["fcfs", "easy", "conservative"]   # any profile::Policy name
//! bsld_bound = 10                                # seconds, the default
//! ```

use profile::Policy;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::config::Experiment;
use crate::kind::{Cell, Kind, Metric};
use crate::run::{RunError, replay};

/// The backfilling runner.
pub(crate) struct Backfilling;

/// `[params]` of a backfilling experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Params {
    /// One series per policy, in legend order.
    pub policies: Vec<PolicyName>,
    /// Bounded-slowdown threshold in seconds.
    #[serde(default = "ten")]
    pub bsld_bound: i64,
}

fn ten() -> i64 {
    10
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
    const METRICS: &'static [Metric] = &[
        Metric {
            name: "mean_wait",
            title: "Mean wait",
            y_label: "mean wait (s)",
        },
        Metric {
            name: "mean_bsld",
            title: "Mean bounded slowdown",
            y_label: "mean bounded slowdown",
        },
        Metric {
            name: "utilization",
            title: "Utilisation",
            y_label: "utilisation (%)",
        },
        Metric {
            name: "makespan",
            title: "Makespan",
            y_label: "makespan (s)",
        },
        Metric {
            name: "killed",
            title: "Jobs killed at their estimate",
            y_label: "jobs",
        },
        Metric {
            name: "jobs",
            title: "Jobs simulated",
            y_label: "jobs",
        },
    ];
    type Params = Params;

    fn series(params: &Params) -> Vec<String> {
        params.policies.iter().map(|p| p.0.name()).collect()
    }

    fn check(params: &Params, experiment: &Experiment) -> Result<(), String> {
        if params.bsld_bound < 1 {
            return Err(format!(
                "params.bsld_bound is {}, expected at least 1 second",
                params.bsld_bound
            ));
        }
        if !experiment.is_categorical() && experiment.spec.workloads.len() != 1 {
            return Err(
                "a backfilling sweep over a numeric axis takes exactly one workload".into(),
            );
        }
        Ok(())
    }

    fn run(params: &Params, cell: &Cell<'_>) -> Result<Vec<f64>, RunError> {
        let workload = cell.workload()?;
        let policy = params.policies[cell.series].0;
        let (_, s) = replay(workload, policy, params.bsld_bound)?;
        Ok(vec![
            s.mean_wait,
            s.mean_bounded_slowdown,
            100.0 * s.utilization,
            s.makespan as f64,
            s.killed as f64,
            s.jobs as f64,
        ])
    }
}
