//! One adaptive run: every interval of the trace made into requests,
//! scheduled and measured; and the schedules shared between runs that
//! differ only in the incentive.
//!
//! The incentive is a share off the price of requests with `Sp` (those of a
//! preemptive variant). It enters their schedule only through the budget
//! test of a placement, and
//! `SchedulerConfig::same_at_every_incentive` says when it cannot change
//! it (a non-moldable request's placements all hold the work its budget
//! pays for in full; a moldable one's may not). Table 1's requests do not
//! depend on the incentive (`Table1::requests` reads only `ω`'s full
//! price). So when every interval passes, a run at another incentive
//! (`adaptive/fig7` sweeps nine) takes the same placements and prices them
//! again with `SchedulerConfig::charge`, the price the scheduler records,
//! instead of scheduling again; the prices are then checked by `validate`
//! as the scheduler's are. The last few runs' schedules are kept
//! ([`RECENT`]), keyed by everything they are a function of but the
//! incentive: the parameters, the repetition's seed and the workload (the
//! same `Arc` the pipeline hands every run of a point and repetition).

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use adaptive_requests::{
    IntervalStats, Request, RequestOutcome, RequestSeeds, SchedulerConfig, schedule, validate,
};

use super::Params;
use crate::error::RunError;
use crate::kind::Input;
use crate::seed::derive_seed;
use crate::workload::Workload;

/// One interval's requests and what became of them.
pub(super) struct Interval {
    pub requests: Vec<Request>,
    pub outcomes: Vec<RequestOutcome>,
}

/// Every interval of one run, scheduled at `incentive`.
pub(super) struct Scheduled {
    incentive: f64,
    pub intervals: Vec<Interval>,
    /// Whether every interval's placements are the same at every incentive.
    shareable: bool,
}

/// What a run's schedules are a function of, the incentive left out.
struct Key {
    /// The parameters with the incentive at 0.
    params: Params,
    seed: u64,
    /// Held, so that no other workload can take its address while kept.
    workload: Arc<Workload>,
}

impl Key {
    fn is(&self, other: &Key) -> bool {
        self.seed == other.seed
            && Arc::ptr_eq(&self.workload, &other.workload)
            && self.params == other.params
    }
}

/// A run's schedules once made: `None` if they cannot be shared.
type Slot = Arc<OnceLock<Option<Arc<Scheduled>>>>;

/// How many runs' schedules [`RECENT`] keeps (a few megabytes each).
const RECENT_KEPT: usize = 2;

/// The schedules of the last runs of preemptive variants, oldest first. A
/// run that finds its key here while another thread is still scheduling
/// waits for that schedule rather than make it again.
static RECENT: Mutex<Vec<(Key, Slot)>> = Mutex::new(Vec::new());

/// Simulates one run of `params` on the workload of `input`: one sample
/// per interval.
pub(super) fn run(params: &Params, input: &Input<'_>) -> Result<Vec<IntervalStats>, RunError> {
    let workload = input.workload()?;
    let config = config(params, workload.capacity)?;
    let scheduled = match input.workloads.first() {
        Some(shared) if params.preemptive => recent(params, input.seed, shared, config)?,
        _ => Arc::new(schedule_all(params, input.seed, workload, config)?),
    };
    scheduled
        .intervals
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if scheduled.incentive == params.incentive {
                return Ok(IntervalStats::of(
                    workload.capacity,
                    &s.requests,
                    &s.outcomes,
                ));
            }
            let outcomes: Vec<RequestOutcome> = (s.requests.iter().zip(&s.outcomes))
                .map(|(r, o)| RequestOutcome {
                    price: o.placement.as_ref().map_or(0.0, |p| config.charge(r, p)),
                    ..o.clone()
                })
                .collect();
            checked(params, &config, i, &s.requests, &outcomes)?;
            Ok(IntervalStats::of(workload.capacity, &s.requests, &outcomes))
        })
        .collect()
}

/// The scheduler of `params` on a machine of `capacity` processors, its
/// price function Table 1's at the incentive.
pub(super) fn config(params: &Params, capacity: u32) -> Result<SchedulerConfig, RunError> {
    let omega = params
        .table1
        .price_function(params.incentive / 100.0)
        .map_err(|e| kind_error(format!("params: {e}")))?;
    Ok(SchedulerConfig::new(capacity, params.policy)
        .price(omega)
        .budget(params.budget)
        .fallback(params.mdf_fallback)
        .rescheduling(params.mdf_rescheduling))
}

/// The schedules of `params` on `workload`: kept ones made at another
/// incentive if they can be shared, else made now (and kept if they can).
fn recent(
    params: &Params,
    seed: u64,
    workload: &Arc<Workload>,
    config: SchedulerConfig,
) -> Result<Arc<Scheduled>, RunError> {
    let key = Key {
        params: Params {
            incentive: 0.0,
            ..params.clone()
        },
        seed,
        workload: Arc::clone(workload),
    };
    let slot: Slot = {
        let mut recent = RECENT.lock().unwrap_or_else(PoisonError::into_inner);
        match recent.iter().find(|(k, _)| k.is(&key)) {
            Some((_, slot)) => Arc::clone(slot),
            None => {
                if recent.len() == RECENT_KEPT {
                    recent.remove(0);
                }
                let slot = Slot::default();
                recent.push((key, Arc::clone(&slot)));
                slot
            }
        }
    };
    let make = || schedule_all(params, seed, workload, config).map(Arc::new);
    let mut made = None;
    let kept = slot.get_or_init(|| {
        let result = make();
        let keep = result.as_ref().ok().filter(|s| s.shareable).cloned();
        made = Some(result);
        keep
    });
    match (made, kept) {
        (Some(result), _) => result,
        (None, Some(scheduled)) => Ok(Arc::clone(scheduled)),
        // Made by another run, and not to be shared.
        (None, None) => make(),
    }
}

/// Every interval of `workload` under `params`, scheduled by `config`.
pub(super) fn schedule_all(
    params: &Params,
    seed: u64,
    workload: &Workload,
    config: SchedulerConfig,
) -> Result<Scheduled, RunError> {
    let variant = params.variant();
    let factor = 1.0 + params.load_increase / 100.0;
    let intervals = swf_io::split_intervals(&workload.jobs, params.interval_days)
        .into_iter()
        .enumerate()
        .map(|(i, jobs)| {
            // Placed at the swept value or the key ([`RunError::Field`]).
            let jobs = swf_io::scale_load(jobs, factor).map_err(|e| {
                RunError::field(
                    "params.load_increase",
                    format!("params.load_increase = {:?}: {e}", params.load_increase),
                )
            })?;
            let requests = params
                .table1
                .requests(variant, &jobs, &config.price, request_seeds(seed, i))
                .map_err(|e| kind_error(e.to_string()))?;
            let outcomes = schedule(config, &requests)
                .map_err(|e| kind_error(format!("interval {i}: {e}")))?;
            checked(params, &config, i, &requests, &outcomes)?;
            Ok(Interval { requests, outcomes })
        })
        .collect::<Result<Vec<Interval>, RunError>>()?;
    let shareable = (intervals.iter()).all(|s| config.same_at_every_incentive(&s.requests));
    Ok(Scheduled {
        incentive: params.incentive,
        intervals,
        shareable,
    })
}

/// That the outcomes of interval `i` are a valid schedule at `config`'s
/// prices.
fn checked(
    params: &Params,
    config: &SchedulerConfig,
    i: usize,
    requests: &[Request],
    outcomes: &[RequestOutcome],
) -> Result<(), RunError> {
    validate(config, requests, outcomes).map_err(|e| {
        kind_error(format!(
            "{} produced an invalid schedule in interval {i} ({e}); \
             this is a scheduler bug, please report it",
            params.variant()
        ))
    })
}

fn kind_error(message: String) -> RunError {
    RunError::Kind { message }
}

/// The seeds of interval `interval`'s draws (which requests may be split,
/// which pay the high price profile), derived from the repetition seed: the
/// same for every variant and load.
fn request_seeds(seed: u64, interval: usize) -> RequestSeeds {
    RequestSeeds {
        preemptive: derive_seed(seed, &format!("adaptive/preemptive/{interval}")),
        price_profile: derive_seed(seed, &format!("adaptive/price-profile/{interval}")),
    }
}

#[cfg(test)]
mod tests {
    use profile::{Job, Time};

    use super::*;
    use crate::kind::Kind;
    use crate::kinds::adaptive::Adaptive;
    use crate::registry::Policies;

    /// 45 days of jobs of 1 to 24 processors, many of an hour or more, on
    /// 32 processors: three busy 15-day intervals.
    fn workload() -> Arc<Workload> {
        let jobs = (0..1500u64)
            .map(|i| {
                let run = 600 + (i as i64 * 7919 % 13) * 900;
                Job::new(i, Time(i as i64 * 2600), 1 + (i * 7 % 24) as u32, run, run)
            })
            .collect();
        Arc::new(Workload {
            label: "hand".into(),
            capacity: 32,
            jobs,
            start_unix: None,
        })
    }

    fn params(series: &str, incentive: f64) -> Params {
        let mut p: Params = toml::Value::Table(Adaptive::series(series).unwrap())
            .try_into()
            .unwrap();
        (p.incentive, p.load_increase) = (incentive, 50.0);
        p
    }

    fn config(p: &Params, w: &Workload) -> SchedulerConfig {
        super::config(p, w.capacity).unwrap()
    }

    /// The samples of scheduling every interval at `p`'s own incentive.
    fn alone(p: &Params, w: &Workload) -> Vec<IntervalStats> {
        let s = schedule_all(p, 9, w, config(p, w)).unwrap();
        (s.intervals.iter())
            .map(|i| IntervalStats::of(w.capacity, &i.requests, &i.outcomes))
            .collect()
    }

    /// Runs at several incentives of a non-moldable preemptive variant take
    /// the first one's placements, priced again: the samples of scheduling
    /// each alone, bit for bit. A moldable one schedules each incentive.
    #[test]
    fn the_incentive_reprices_one_schedule() {
        let w = workload();
        let ws = [Arc::clone(&w)];
        let policies = Policies::default();
        let input = Input::new(&ws, 9, &policies);
        let first = params("mdf-preemptive", 0.0);
        let kept = recent(&first, 9, &w, config(&first, &w)).unwrap();
        assert!(kept.shareable);
        let changed = |a: &[IntervalStats], b: &[IntervalStats]| {
            a.iter()
                .zip(b)
                .filter(|(x, y)| x.profit != y.profit)
                .count()
        };
        for incentive in [0.0, 15.0, 40.0, 100.0] {
            let p = params("mdf-preemptive", incentive);
            let again = recent(&p, 9, &w, config(&p, &w)).unwrap();
            assert!(Arc::ptr_eq(&again, &kept), "incentive {incentive}");
            let samples = run(&p, &input).unwrap();
            assert_eq!(format!("{samples:?}"), format!("{:?}", alone(&p, &w)));
            assert!(samples.iter().any(|s| s.split > 0));
            if incentive > 0.0 {
                assert_eq!(changed(&samples, &alone(&first, &w)), samples.len());
            }
        }
        let moldable = params("mdf-preemptive-moldable", 30.0);
        let made = recent(&moldable, 9, &w, config(&moldable, &w)).unwrap();
        assert!(!made.shareable);
        let samples = run(&moldable, &input).unwrap();
        assert_eq!(
            format!("{samples:?}"),
            format!("{:?}", alone(&moldable, &w))
        );
    }

    /// Each interval has its own streams: another interval draws other
    /// price profiles from the same repetition seed.
    #[test]
    fn intervals_draw_differently() {
        let jobs: Vec<Job> = (0..400u64)
            .map(|i| Job::new(i, Time(i as i64), 16, 7200, 7200))
            .collect();
        let omega = adaptive_requests::PriceFunction::TABLE1;
        let profiles = |interval: usize| -> Vec<f64> {
            adaptive_requests::Table1::default()
                .requests(
                    "mdf-preemptive-moldable".parse().unwrap(),
                    &jobs,
                    &omega,
                    request_seeds(7, interval),
                )
                .unwrap()
                .iter()
                .map(|r| r.req.price_profile())
                .collect()
        };
        assert_eq!(profiles(3), profiles(3));
        assert_ne!(profiles(3), profiles(4));
        let (a, b) = (request_seeds(7, 3), request_seeds(7, 4));
        assert_ne!(a.preemptive, a.price_profile, "two streams per interval");
        assert_ne!(a, b);
    }
}
