//! One run of the `adaptive` kind outside the pipeline, interval by
//! interval, by the kind's own code (for front ends that build a run
//! themselves, such as the Python package's `usched.papers.adaptive`).

use adaptive_requests::{IntervalStats, Request, RequestOutcome};

use super::Adaptive;
use super::schedules::{config, schedule_all};
use crate::error::RunError;
use crate::kinds::run_params;
use crate::workload::Workload;

/// One interval of an adaptive run: its requests (Table 1's, from the
/// interval's jobs), what became of them, and the kind's measure of it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AdaptiveInterval {
    /// The interval's requests, in submission order.
    pub requests: Vec<Request>,
    /// Each request's outcome, in the same order.
    pub outcomes: Vec<RequestOutcome>,
    /// The interval's statistics (one sample of the kind's metrics).
    pub stats: IntervalStats,
}

/// Runs the `adaptive` kind on `workload`: `params` is one run's
/// `[params]` (every key optional, the kind's defaults; the variant's
/// `policy`, `preemptive` and `moldable` as
/// [`Registry::series_params`](crate::Registry::series_params) sets them),
/// checked as a configuration's are; `seed` is the repetition's seed. The
/// trace is cut into intervals, each interval's arrivals compressed by
/// `load_increase`, its requests shaped by Table 1 from the repetition's
/// streams, scheduled and validated, as the kind's runs are, so the stats
/// equal the samples `cargo xtask run` reports for that run.
///
/// The error names the parameter at fault (`params.<key>`) or says why the
/// run failed.
pub fn adaptive_intervals(
    params: toml::Table,
    workload: &Workload,
    seed: u64,
) -> Result<Vec<AdaptiveInterval>, RunError> {
    let params = run_params::<Adaptive>(params)?;
    let config = config(&params, workload.capacity)?;
    let scheduled = schedule_all(&params, seed, workload, config)?;
    Ok(scheduled
        .intervals
        .into_iter()
        .map(|i| AdaptiveInterval {
            stats: IntervalStats::of(workload.capacity, &i.requests, &i.outcomes),
            requests: i.requests,
            outcomes: i.outcomes,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use profile::{Job, Time};

    use super::*;
    use crate::kind::{Input, Kind};
    use crate::registry::{Policies, Registry};

    /// The intervals' stats are the samples the kind's run gives.
    #[test]
    fn the_intervals_are_the_kinds_samples() {
        let jobs = (0..600u64)
            .map(|i| {
                let run = 600 + (i as i64 * 7919 % 13) * 900;
                Job::new(i, Time(i as i64 * 2600), 1 + (i * 7 % 24) as u32, run, run)
            })
            .collect();
        let w = Arc::new(Workload {
            label: "hand".into(),
            capacity: 32,
            jobs,
            start_unix: None,
        });
        let mut table = Registry::builtin()
            .series_params("adaptive", "mdf-preemptive-moldable")
            .unwrap();
        table.insert("interval_days".into(), 5.into());
        table.insert("load_increase".into(), 50.0.into());
        let got = adaptive_intervals(table.clone(), &w, 9).unwrap();
        let params: <Adaptive as Kind>::Params = toml::Value::Table(table).try_into().unwrap();
        let policies = Policies::default();
        let ws = [Arc::clone(&w)];
        let want = Adaptive::run(&params, &Input::new(&ws, 9, &policies), None).unwrap();
        assert!(got.len() > 1, "{} intervals", got.len());
        let stats: Vec<&IntervalStats> = got.iter().map(|i| &i.stats).collect();
        assert_eq!(
            format!("{stats:?}"),
            format!("{:?}", want.iter().collect::<Vec<_>>())
        );
        for i in &got {
            assert_eq!(i.requests.len(), i.outcomes.len());
            assert_eq!(i.stats.requests, i.requests.len());
        }
    }

    /// A value out of the kind's range is refused at its key.
    #[test]
    fn a_value_out_of_range_is_named() {
        let w = Workload {
            label: "hand".into(),
            capacity: 32,
            jobs: Vec::new(),
            start_unix: None,
        };
        let table: toml::Table = "interval_days = 0".parse().unwrap();
        let e = adaptive_intervals(table, &w, 1).unwrap_err();
        assert!(
            e.to_string().starts_with("params.interval_days is 0"),
            "{e}"
        );
    }
}
