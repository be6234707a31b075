//! One round of the `provisioning` kind outside the pipeline: the base run,
//! the deadlines it sets and the run measured against it, from one run's
//! `[params]`, by the kind's own code (for front ends that build a run
//! themselves, such as the Python package's `usched.papers.provisioning`).

use std::sync::Arc;

use intergrid::{Config, IntergridError, Metrics, Run, Scenario, Series};
use profile::Time;

use super::setup::{config, scenario_of};
use super::{Params, Provisioning};
use crate::error::RunError;
use crate::kinds::run_params;
use crate::seed::derive_seed;
use crate::workload::Workload;

/// One round of a provisioning run: what the kind's base run and measured
/// run give for one repetition, with the jobs and deadlines they ran.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ProvisioningRound {
    /// The grid and local jobs of the repetition.
    pub scenario: Scenario,
    /// Each grid job's deadline (from the base run's response times).
    pub deadlines: Vec<Option<Time>>,
    /// The run of `params.policy`.
    pub run: Arc<Run>,
    /// The run of `params.base`, without deadlines.
    pub base: Arc<Run>,
    /// The run's metrics against the base.
    pub metrics: Metrics,
    /// `params.bsld_bound`, the bounded-slowdown threshold of the metrics.
    pub bsld_bound: i64,
}

/// Runs one round of the `provisioning` kind: `params` is one run's
/// `[params]` (every key optional, the kind's defaults; `policy` the
/// measured series), checked as a configuration's are
/// ([`Registry::check_params`](crate::Registry::check_params)); `workload` is the grid trace and `seed`
/// the repetition's seed (what [`crate::Experiment`] derives for a
/// repetition). The metrics equal the ones `cargo xtask run` reports for
/// that run, since the kind runs the same code.
///
/// The error names the parameter at fault (`params.<key>`) or says why the
/// run failed (no grid job in the months, a simulation error).
pub fn provisioning_round(
    params: toml::Table,
    workload: &Workload,
    seed: u64,
) -> Result<ProvisioningRound, RunError> {
    let params: Params = run_params::<Provisioning>(params)?;
    let config = config(&params);
    let scenario = scenario_of(&params, workload, seed)?;
    let base = simulate(&config, &scenario, params.base, None)?;
    let (deadlines, run) = measured(&config, &scenario, &params, &base, seed)?;
    let metrics = run
        .metrics(&base, &scenario, params.bsld_bound)
        .map_err(kind_error)?;
    Ok(ProvisioningRound {
        scenario,
        deadlines,
        run,
        base,
        metrics,
        bsld_bound: params.bsld_bound,
    })
}

/// The run of `policy` on `scenario`, its grid jobs' deadlines
/// `deadlines` (none without).
pub(super) fn simulate(
    config: &Config,
    scenario: &Scenario,
    policy: Series,
    deadlines: Option<&[Option<Time>]>,
) -> Result<Arc<Run>, RunError> {
    let none;
    let deadlines = match deadlines {
        Some(d) => d,
        None => {
            none = vec![None; scenario.grid.len()];
            &none
        }
    };
    intergrid::simulate(config, scenario, policy, Some(deadlines))
        .map(Arc::new)
        .map_err(kind_error)
}

/// The deadlines the base run `base` sets (a share of grid jobs, from the
/// repetition's `deadlines` stream) and the run of `params.policy` under
/// them: the base run itself for the base series without deadlines, not
/// simulated again.
pub(super) fn measured(
    config: &Config,
    scenario: &Scenario,
    params: &Params,
    base: &Arc<Run>,
    seed: u64,
) -> Result<(Vec<Option<Time>>, Arc<Run>), RunError> {
    let deadlines = scenario
        .deadlines(
            base,
            params.deadline_share,
            params.stringency,
            derive_seed(seed, "deadlines"),
        )
        .map_err(kind_error)?;
    let run = if params.policy == params.base && params.deadline_share == 0.0 {
        Arc::clone(base)
    } else {
        simulate(config, scenario, params.policy, Some(&deadlines))?
    };
    Ok((deadlines, run))
}

/// An `intergrid` error as the kind's.
pub(super) fn kind_error(e: IntergridError) -> RunError {
    RunError::Kind {
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{Input, Kind};
    use crate::registry::Policies;
    use swf_io::lublin99::Lublin99;

    /// A round gives what the kind's base run and measured run give.
    #[test]
    fn a_round_is_the_kinds_base_and_measured_run() {
        let jobs = Lublin99 {
            procs: 32,
            max_jobs: Some(300),
            seed: 7,
            ..Default::default()
        }
        .jobs();
        let workload = Arc::new(Workload {
            label: "grid".into(),
            capacity: 32,
            jobs,
            start_unix: Some(0),
        });
        let table: toml::Table = r#"
            policy = "arcb+earliest-partial"
            clusters = [32, 32]
            grid_months = [1, 1]
            trace_year = 1970
            trace_utc_offset_s = 0
            warmup_days = 0
            training_from_days = 0
            deadline_share = 0.5
        "#
        .parse()
        .unwrap();
        let seed = 11;
        let round = provisioning_round(table.clone(), &workload, seed).unwrap();

        let params: Params = toml::Value::Table(table).try_into().unwrap();
        let base_params: Params = toml::Value::Table(Provisioning::reference(&params).unwrap())
            .try_into()
            .unwrap();
        let policies = Policies::default();
        let workloads = [Arc::clone(&workload)];
        let input = Input::new(&workloads, seed, &policies);
        let base = Provisioning::run(&base_params, &input, None).unwrap();
        let measured = Provisioning::run(&params, &input, Some(&base)).unwrap();
        assert_eq!(
            format!("{:?}", round.metrics),
            format!("{:?}", measured[0].metrics)
        );
        assert!(round.metrics.grid_jobs > 0, "{:?}", round.metrics);
        assert!(round.deadlines.iter().any(Option::is_some));
        assert_eq!(round.deadlines.len(), round.scenario.grid.len());
    }

    /// A value out of the kind's range is refused at its key, before a run.
    #[test]
    fn a_value_out_of_range_is_named() {
        let workload = Workload {
            label: "grid".into(),
            capacity: 32,
            jobs: Vec::new(),
            start_unix: Some(0),
        };
        let table: toml::Table = "horizon_s = 0".parse().unwrap();
        let e = provisioning_round(table, &workload, 1).unwrap_err();
        assert!(
            e.to_string().starts_with("params.horizon_s is 0, expected"),
            "{e}"
        );
    }
}
