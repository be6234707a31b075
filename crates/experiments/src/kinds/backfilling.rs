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
//! A scheduler registered by name
//! ([`Registry::with_policy`](crate::Registry::with_policy)) is named the
//! same way and replayed by `profile`'s event loop, checked by the same
//! `profile::validate`.

use profile::{Policy, ScheduleStats};
use serde::{Deserialize, Serialize};

use crate::error::RunError;
use crate::kind::{Input, Kind, Metric, Param, ParamError, Setup, overrides};
use crate::kinds::registered;
use crate::registry::{Policies, PolicyName};
use crate::workload::Workload;

/// The backfilling runner.
pub(crate) struct Backfilling;

/// `[params]` of a backfilling experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Params {
    /// The scheduling policy (each series sets it), written by name
    /// (`"easy-k3"`, or a registered policy's name).
    pub policy: PolicyName<Policy>,
    /// Bounded-slowdown threshold in seconds.
    pub bsld_bound: i64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            policy: PolicyName::BuiltIn(Policy::Fcfs),
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
    const PARAMS: &'static [Param] = &[
        Param::new(
            "policy",
            "",
            "the scheduling policy (each series sets it): `fcfs`, `easy`, `easy-k<N>` (EASY protecting the first N waiting jobs), `easy-kinf`, `conservative`, or a registered policy's name",
        ),
        Param::new(
            "bsld_bound",
            "s",
            "bounded-slowdown threshold: a job's slowdown is (wait + run) / max(run, bound), at least 1",
        ),
    ];
    const SERIES: &'static str =
        "<policy>: fcfs | easy | easy-k<N> | easy-kinf | conservative | a registered policy";

    fn series(name: &str) -> Result<toml::Table, String> {
        // A built-in name canonically; any other is checked against the
        // registered policies with the parameters.
        let Ok(policy) = name.parse::<PolicyName<Policy>>();
        Ok(overrides([("policy", policy.name().into())]))
    }

    fn check(params: &Params, setup: &Setup<'_>) -> Result<(), ParamError> {
        params
            .policy
            .check(setup.policies)
            .map_err(|m| ParamError::key("policy", m))?;
        if params.bsld_bound < 1 {
            return Err(ParamError::key(
                "bsld_bound",
                format!("{} is below 1 second", params.bsld_bound),
            ));
        }
        Ok(())
    }

    fn run(
        params: &Params,
        input: &Input<'_>,
        _reference: Option<&[ScheduleStats]>,
    ) -> Result<Vec<ScheduleStats>, RunError> {
        let workload = input.workload()?;
        let (_, stats) =
            replay_policy(workload, &params.policy, input.policies, params.bsld_bound)?;
        Ok(vec![stats])
    }
}

/// Replays a workload under one policy, checks the schedule with
/// `profile::validate` (a violation is an error) and computes the usual
/// metrics with bounded slowdown threshold `bound` seconds.
pub fn replay(
    workload: &Workload,
    policy: Policy,
    bound: i64,
) -> Result<(Vec<profile::Outcome>, profile::ScheduleStats), RunError> {
    let config = profile::SchedulerConfig::new(workload.capacity, policy);
    let outcomes =
        profile::simulate(&config, &workload.jobs).map_err(|error| RunError::Simulation {
            policy: policy.name(),
            error,
        })?;
    profile::validate(workload.capacity, &workload.jobs, &outcomes).map_err(|violation| {
        RunError::InvalidSchedule {
            policy: policy.name(),
            violation,
        }
    })?;
    let stats =
        profile::ScheduleStats::compute(&workload.jobs, &outcomes, workload.capacity, bound);
    Ok((outcomes, stats))
}

/// [`replay`] under the policy a configuration names: a built-in one, or a
/// scheduler registered in `policies` (run by `profile`'s event loop and
/// checked by the same `profile::validate`). What a kind of a user's calls
/// to replay a workload under a policy by name.
pub fn replay_policy(
    workload: &Workload,
    policy: &PolicyName<Policy>,
    policies: &Policies,
    bound: i64,
) -> Result<(Vec<profile::Outcome>, ScheduleStats), RunError> {
    match policy {
        PolicyName::BuiltIn(policy) => replay(workload, *policy, bound),
        PolicyName::Registered(name) => registered::replay(workload, name, policies, bound),
    }
}
