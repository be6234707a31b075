//! `kind = "backfilling"`: rigid jobs replayed under FCFS, EASY-k and
//! conservative backfilling (`profile`).
//!
//! ```toml
//! series = ["fcfs", "easy", "conservative"]   # any profile::Policy name
//! [params]
//! bsld_bound = 10            # seconds, the default
//! order = "arrival"          # or "shortest-estimate": the waiting queue's order
//! overrun = "kill"           # or "continue": a job past its estimate runs on
//! warmup = 0                 # jobs: the first N (submit order) are not measured
//! cooldown = 0               # jobs: the last N (submit order) are not measured
//! narrow_procs = 8           # processors: the widest "narrow" job
//! ```
//!
//! A series name is a policy name; `{ policy = "easy-k3" }` spelled out.
//! A scheduler registered by name
//! ([`Registry::with_policy`](crate::Registry::with_policy)) is named the
//! same way, replayed by `profile`'s event loop under the same queue order
//! and overrun rule, and checked by the same `profile::validate`.
//!
//! Every job is simulated; `warmup` and `cooldown` only leave the first and
//! last jobs out of the job metrics (waits, slowdowns, their percentiles
//! and classes, `killed`, `measured`). `jobs`, `utilization` and `makespan`
//! describe the whole schedule. Jobs of at most `narrow_procs` processors
//! are *narrow*, wider ones *wide* (8 is the split of Srinivasan et al.,
//! "Characterization of backfilling strategies for parallel job
//! scheduling", ICPP workshops 2002).

mod measures;

use profile::{Overrun, Policy, QueueOrder, ScheduleStats, SchedulerConfig};
use serde::{Deserialize, Serialize};

use crate::error::RunError;
use crate::kind::{Input, Kind, Metric, Param, ParamError, Schedule, Setup, overrides};
use crate::kinds::registered;
use crate::registry::{Policies, PolicyName};
use crate::workload::Workload;
use measures::{Measures, Window};

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
    /// Order of the waiting queue: `"arrival"` (first come, first served;
    /// the default) or `"shortest-estimate"` (shortest estimate first, ties
    /// in arrival order). `"earliest-deadline"` is refused: trace and
    /// Lublin99 jobs carry no deadline.
    pub order: QueueOrder,
    /// What happens to a job still running when its estimate runs out:
    /// `"kill"` (the default, as production batch systems do) or
    /// `"continue"` (it runs to completion; the scheduler extends its
    /// predicted end by its estimate again and re-plans around it).
    pub overrun: Overrun,
    /// Jobs (the first, in submit order) simulated but left out of the job
    /// metrics, so the empty machine's start does not count. Default 0.
    pub warmup: u64,
    /// Jobs (the last, in submit order) simulated but left out of the job
    /// metrics, so the draining end does not count. Default 0.
    pub cooldown: u64,
    /// Processors: a job of at most this many is narrow, a wider one wide
    /// (the `_narrow` and `_wide` metrics). Default 8.
    pub narrow_procs: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            policy: PolicyName::BuiltIn(Policy::Fcfs),
            bsld_bound: 10,
            order: QueueOrder::Arrival,
            overrun: Overrun::Kill,
            warmup: 0,
            cooldown: 0,
            narrow_procs: 8,
        }
    }
}

impl Params {
    /// The scheduler configuration of a run on `capacity` processors (the
    /// policy field serves the built-in policies only).
    fn config(&self, capacity: u32) -> SchedulerConfig {
        let policy = match self.policy {
            PolicyName::BuiltIn(p) => p,
            PolicyName::Registered(_) => Policy::Fcfs,
        };
        SchedulerConfig::new(capacity, policy)
            .order(self.order.clone())
            .overrun(self.overrun)
    }

    fn window(&self) -> Window {
        let jobs = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Window {
            warmup: jobs(self.warmup),
            cooldown: jobs(self.cooldown),
            narrow_procs: self.narrow_procs,
            bound: self.bsld_bound,
        }
    }
}

impl Kind for Backfilling {
    const NAME: &'static str = "backfilling";
    const ONE_SAMPLE: bool = true; // one machine (or grid) measured as a whole
    type Params = Params;
    type Sample = Measures;
    const AT_MOST: &'static [(&'static str, &'static str)] =
        &[("killed", "measured"), ("measured", "jobs")];
    const METRICS: &'static [Metric<Measures>] = &[
        Metric::new("mean_wait", "Mean wait", "mean wait (s)", |s| {
            Some(s.stats.mean_wait)
        }),
        Metric::new(
            "mean_bsld",
            "Mean bounded slowdown",
            "mean bounded slowdown",
            |s| Some(s.stats.mean_bounded_slowdown),
        ),
        Metric::new("utilization", "Utilisation", "utilisation (%)", |s| {
            Some(100.0 * s.stats.utilization)
        }),
        Metric::new("makespan", "Makespan", "makespan (s)", |s| {
            Some(s.stats.makespan as f64)
        }),
        Metric::new("killed", "Jobs killed at their estimate", "jobs", |s| {
            Some(s.stats.killed as f64)
        }),
        Metric::new("jobs", "Jobs simulated", "jobs", |s| {
            Some(s.stats.jobs as f64)
        }),
        Metric::new(
            "measured",
            "Jobs measured (after warm-up and cool-down)",
            "jobs",
            |s| Some(s.measured as f64),
        ),
        Metric::new("p50_wait", "Median wait", "median wait (s)", |s| {
            s.waits.percentile(50.0)
        }),
        Metric::new("p90_wait", "90th percentile of wait", "p90 wait (s)", |s| {
            s.waits.percentile(90.0)
        }),
        Metric::new("p99_wait", "99th percentile of wait", "p99 wait (s)", |s| {
            s.waits.percentile(99.0)
        }),
        Metric::new(
            "p50_bsld",
            "Median bounded slowdown",
            "median bounded slowdown",
            |s| s.bslds.percentile(50.0),
        ),
        Metric::new(
            "p90_bsld",
            "90th percentile of bounded slowdown",
            "p90 bounded slowdown",
            |s| s.bslds.percentile(90.0),
        ),
        Metric::new(
            "p99_bsld",
            "99th percentile of bounded slowdown",
            "p99 bounded slowdown",
            |s| s.bslds.percentile(99.0),
        ),
        Metric::new(
            "mean_wait_narrow",
            "Mean wait of narrow jobs",
            "mean wait, narrow jobs (s)",
            |s| s.narrow.mean_wait(),
        ),
        Metric::new(
            "mean_wait_wide",
            "Mean wait of wide jobs",
            "mean wait, wide jobs (s)",
            |s| s.wide.mean_wait(),
        ),
        Metric::new(
            "mean_bsld_narrow",
            "Mean bounded slowdown of narrow jobs",
            "mean bounded slowdown, narrow jobs",
            |s| s.narrow.mean_bsld(),
        ),
        Metric::new(
            "mean_bsld_wide",
            "Mean bounded slowdown of wide jobs",
            "mean bounded slowdown, wide jobs",
            |s| s.wide.mean_bsld(),
        ),
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
        Param::new(
            "order",
            "",
            "waiting-queue order: `arrival` (the default) or `shortest-estimate` (ties in arrival order)",
        ),
        Param::new(
            "overrun",
            "",
            "a job still running at its estimate: `kill` (the default) or `continue` (runs to completion)",
        ),
        Param::new(
            "warmup",
            "jobs",
            "the first N jobs (submit order) are simulated but left out of the job metrics",
        ),
        Param::new(
            "cooldown",
            "jobs",
            "the last N jobs (submit order) are simulated but left out of the job metrics",
        ),
        Param::new(
            "narrow_procs",
            "processors",
            "a job of at most this many processors is narrow (the `_narrow` metrics), a wider one wide",
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
                format!("is {}, expected at least 1 second", params.bsld_bound),
            ));
        }
        if matches!(params.order, QueueOrder::EarliestDeadline) {
            return Err(ParamError::key(
                "order",
                "earliest-deadline orders jobs by deadline, and the jobs of a backfilling \
                 workload have none (every order would be arrival); expected arrival or \
                 shortest-estimate",
            ));
        }
        Ok(())
    }

    fn run(
        params: &Params,
        input: &Input<'_>,
        _reference: Option<&[Measures]>,
    ) -> Result<Vec<Measures>, RunError> {
        let workload = input.workload()?;
        let window = params.window();
        if window.range(workload.jobs.len()).is_none() {
            return Err(RunError::field(
                "params.warmup",
                format!(
                    "params.warmup ({}) and params.cooldown ({}) leave none of the {} jobs of \
                     {} to measure",
                    params.warmup,
                    params.cooldown,
                    workload.jobs.len(),
                    workload.label
                ),
            ));
        }
        let config = params.config(workload.capacity);
        let outcomes = simulate(workload, &params.policy, input.policies, &config)?;
        let measures = window
            .measure(&workload.jobs, &outcomes, workload.capacity)
            .map_err(|violation| RunError::InvalidSchedule {
                policy: params.policy.name(),
                violation,
            })?;
        Ok(measures.into_iter().collect())
    }

    fn schedule(params: &Params, input: &Input<'_>) -> Result<Option<Schedule>, RunError> {
        let workload = input.workload()?;
        let config = params.config(workload.capacity);
        let outcomes = simulate(workload, &params.policy, input.policies, &config)?;
        Ok(Some(Schedule::new(
            params.policy.name(),
            workload.capacity,
            workload.jobs.clone(),
            outcomes,
        )))
    }
}

/// Simulates `workload` under `policy` with `config`'s queue order and
/// overrun rule, and checks the schedule with `profile::validate` (a
/// violation is an error).
fn simulate(
    workload: &Workload,
    policy: &PolicyName<Policy>,
    policies: &Policies,
    config: &SchedulerConfig,
) -> Result<Vec<profile::Outcome>, RunError> {
    let outcomes = match policy {
        PolicyName::BuiltIn(p) => {
            profile::simulate(config, &workload.jobs).map_err(|error| RunError::Simulation {
                policy: p.name(),
                error,
            })?
        }
        PolicyName::Registered(name) => registered::simulate(workload, name, policies, config)?,
    };
    profile::validate(workload.capacity, &workload.jobs, &outcomes).map_err(|violation| {
        RunError::InvalidSchedule {
            policy: policy.name(),
            violation,
        }
    })?;
    Ok(outcomes)
}

/// Replays a workload under one policy, checks the schedule with
/// `profile::validate` (a violation is an error) and computes the usual
/// metrics with bounded slowdown threshold `bound` seconds.
pub fn replay(
    workload: &Workload,
    policy: Policy,
    bound: i64,
) -> Result<(Vec<profile::Outcome>, profile::ScheduleStats), RunError> {
    replay_policy(
        workload,
        &PolicyName::BuiltIn(policy),
        &Policies::default(),
        bound,
    )
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
    let config = Params {
        policy: policy.clone(),
        ..Params::default()
    }
    .config(workload.capacity);
    let outcomes = simulate(workload, policy, policies, &config)?;
    let stats = ScheduleStats::compute(&workload.jobs, &outcomes, workload.capacity, bound)
        .map_err(|violation| RunError::InvalidSchedule {
            policy: policy.name(),
            violation,
        })?;
    Ok((outcomes, stats))
}

#[cfg(test)]
mod tests;
