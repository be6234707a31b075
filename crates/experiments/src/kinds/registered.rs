//! Policies registered by name
//! ([`Registry::with_policy`](crate::Registry::with_policy)), run where a
//! kind names a backfilling policy: replayed on their own (`backfilling`)
//! and as a pricing baseline (`pricing`).

use pricing::{PolicyError, ProfileBaseline, QosJob, RunConfig, RunStats, run_baseline};
use profile::{Policy, SchedulerConfig};

use crate::error::RunError;
use crate::registry::Policies;
use crate::workload::Workload;

/// The error for a name no policy is registered under.
fn unregistered(name: &str, policies: &Policies) -> RunError {
    RunError::Kind {
        message: policies.unknown(&format!("unknown policy '{name}'")),
    }
}

/// The outcomes of the scheduler registered as `name` on `workload`, run
/// by `profile`'s event loop under `config` (its queue order and overrun
/// rule; the policy field configures the built-in schedulers only). The
/// caller checks them with `profile::validate`.
pub(crate) fn simulate(
    workload: &Workload,
    name: &str,
    policies: &Policies,
    config: &SchedulerConfig,
) -> Result<Vec<profile::Outcome>, RunError> {
    let mut scheduler = policies
        .scheduler(name)
        .ok_or_else(|| unregistered(name, policies))?;
    profile::simulate_with(
        config,
        &mut scheduler,
        &workload.jobs,
        &mut profile::NoObserver,
    )
    .map_err(|error| RunError::Simulation {
        policy: name.to_string(),
        error,
    })
}

/// The scheduler registered as `name`, run as a pricing baseline: on the
/// space-shared machine, jobs running on past their estimates and waiting
/// jobs dropped by the configuration's drop rule, as the paper's baselines
/// run (`pricing::Baseline`).
pub(crate) fn baseline(
    name: &str,
    policies: &Policies,
    config: &RunConfig,
    capacity: u32,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    let Some(make) = policies.factory(name) else {
        return Err(PolicyError::Baseline {
            name: name.to_string(),
            message: unregistered(name, policies).to_string(),
        });
    };
    let scheduler = SchedulerConfig::new(capacity, Policy::Fcfs)
        .overrun(profile::Overrun::Continue)
        .drop_expired(true);
    let baseline = ProfileBaseline::new(name, scheduler, move || make());
    run_baseline(&baseline, config, capacity, jobs)
}
