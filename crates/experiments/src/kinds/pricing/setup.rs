//! One run of the `pricing` kind set up outside the pipeline: the jobs
//! with their deadlines and budgets and the policies' settings, by the
//! kind's own code (for front ends that run a policy themselves, such as
//! the Python package's `usched.papers.pricing`, which records each job's
//! fate).

use ::pricing::{QosJob, RunConfig, Urgency};

use super::{Pricing, qos, run_config};
use crate::error::RunError;
use crate::kinds::run_params;
use crate::workload::Workload;

/// What one run of the `pricing` kind runs on: its jobs, their urgency
/// classes, and the policies' settings.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PricingSetup {
    /// The workload's jobs with arrivals compressed by `arrival_delay`,
    /// deadlines and budgets drawn from the repetition's `pricing/qos`
    /// stream.
    pub jobs: Vec<QosJob>,
    /// Each job's urgency class, from the same draw.
    pub urgency: Vec<Urgency>,
    /// The settings every policy of the run shares (`pricing::run_policy`'s).
    pub config: RunConfig,
}

/// Sets up one run of the `pricing` kind on `workload`: `params` is one
/// run's `[params]` (every key optional, the kind's defaults; the policy as
/// [`Registry::series_params`](crate::Registry::series_params) sets it),
/// checked as a configuration's are; `seed` is the repetition's seed. A
/// policy run by `pricing::run_policy` on these jobs and settings, on the
/// workload's machine, gives the statistics `cargo xtask run` reports for
/// that run.
///
/// The error names the parameter at fault (`params.<key>`), also for a
/// deadline or budget the QoS model draws out of range.
pub fn pricing_setup(
    params: toml::Table,
    workload: &Workload,
    seed: u64,
) -> Result<PricingSetup, RunError> {
    let params = run_params::<Pricing>(params)?;
    let jobs = qos::qos_jobs(&params, workload, seed)?;
    let urgency = qos::urgency(&params, jobs.len(), seed)?;
    Ok(PricingSetup {
        jobs,
        urgency,
        config: run_config(&params),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ::pricing::Series;
    use swf_io::lublin99::Lublin99;

    use super::*;
    use crate::kind::{Input, Kind};
    use crate::registry::{Policies, Registry};

    /// A policy run on the setup gives the statistics of the kind's run.
    #[test]
    fn a_policy_on_the_setup_gives_the_kinds_statistics() {
        let w = Arc::new(Workload {
            label: "l".into(),
            capacity: 64,
            jobs: Lublin99 {
                procs: 64,
                max_jobs: Some(400),
                seed: 3,
                ..Default::default()
            }
            .jobs(),
            start_unix: None,
        });
        let policies = Policies::default();
        let ws = [Arc::clone(&w)];
        let input = Input::new(&ws, 5, &policies);
        for name in ["libra", "libra+$", "libra+$-b0.5", "edf-bf"] {
            let table = Registry::builtin().series_params("pricing", name).unwrap();
            let setup = pricing_setup(table.clone(), &w, 5).unwrap();
            let series: Series = name.parse().unwrap();
            let got =
                ::pricing::run_policy(series.policy(), &setup.config, w.capacity, &setup.jobs)
                    .unwrap();
            let params: <Pricing as Kind>::Params = toml::Value::Table(table).try_into().unwrap();
            let want = Pricing::run(&params, &input, None).unwrap();
            assert_eq!(format!("{got:?}"), format!("{:?}", want[0]), "{name}");
            assert_eq!(setup.urgency.len(), setup.jobs.len());
            assert!(setup.urgency.contains(&Urgency::High), "{name}");
            assert!(setup.urgency.contains(&Urgency::Low), "{name}");
        }
    }

    /// A value out of the kind's range is refused at its key.
    #[test]
    fn a_value_out_of_range_is_named() {
        let w = Workload {
            label: "l".into(),
            capacity: 8,
            jobs: Vec::new(),
            start_unix: None,
        };
        let table: toml::Table = "alpha = -1.0".parse().unwrap();
        let e = pricing_setup(table, &w, 1).unwrap_err();
        assert!(e.to_string().starts_with("params.alpha is -1"), "{e}");
    }
}
