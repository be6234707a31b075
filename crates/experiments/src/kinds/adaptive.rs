//! `kind = "adaptive"`: Netto & Buyya's adaptive resource allocation
//! requests (`adaptive-requests`) on a trace split into intervals, shaped per
//! the paper's Table 1; one series per scheduler and request flexibility.
//!
//! ```toml
//! [params]
//! series = ["fifo-rigid", "mdf-moldable", "mdf-preemptive-moldable"]
//! baseline = "fifo-rigid"   # relative metrics compare with this, interval by interval
//! interval_days = 15        # the trace is cut into consecutive intervals
//! trim = 4                  # the best and worst intervals left out of every point
//! load_increase = 0         # % more submissions, unless it is the sweep axis
//! incentive = 0             # % off for preemptive requests, unless it is the axis
//! budget = "limit"          # or "cap"
//! mdf_fallback = "reject"   # or "append"
//! mdf_rescheduling = "full" # or "incremental"
//! [params.table1]           # every Table 1 number, with the paper's defaults
//! ```
//!
//! A series is `<policy>-<flexibility>`: policy `fifo` or `mdf`,
//! flexibility `rigid`, `preemptive`, `moldable` or `preemptive-moldable`.
//! The random draws (which requests may be split, which pay profile 3) are
//! per interval and per job, from streams derived from the repetition seed,
//! so every series and every load sees the same requests.
//!
//! Each interval is one sample: a cell returns, per metric, the interval
//! values left after dropping the `trim` highest and `trim` lowest, and the
//! pipeline averages them with a 95% confidence interval. Relative metrics
//! (gains over the baseline, change versus no incentive) are computed per
//! interval before trimming. Simulations are memoised in-process by their
//! full inputs, so the baseline is simulated once per load, and figures that
//! share series (fig4–fig6, fig8–fig9) share runs within one `xtask` call.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use adaptive_requests::{
    BudgetRule, Fallback, IntervalStats, RequestSeeds, Rescheduling, SchedulerConfig, Table1,
    Variant, schedule, verify,
};
use serde::{Deserialize, Serialize};

use crate::config::{Experiment, derive_seed};
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;
use crate::workload::Workload;

/// The adaptive-requests runner.
pub(crate) struct Adaptive;

/// `[params]` of an adaptive experiment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Params {
    /// One series per variant, in legend order.
    pub series: Vec<Variant>,
    /// The variant relative metrics compare with.
    #[serde(default = "fifo_rigid")]
    pub baseline: Variant,
    /// Length of the intervals the trace is cut into, in days.
    #[serde(default = "fifteen")]
    pub interval_days: u32,
    /// How many of the best and of the worst intervals every point leaves out.
    #[serde(default = "four")]
    pub trim: usize,
    /// Percent more submissions per unit of time (when not the sweep axis).
    #[serde(default)]
    pub load_increase: f64,
    /// Percent of the price preemptive requests do not pay (when not the axis).
    #[serde(default)]
    pub incentive: f64,
    /// How budgets bind.
    #[serde(default)]
    pub budget: BudgetRule,
    /// What MDF does when rescheduling with a new request fails.
    #[serde(default)]
    pub mdf_fallback: Fallback,
    /// How MDF reschedules.
    #[serde(default)]
    pub mdf_rescheduling: Rescheduling,
    /// Table 1: how trace jobs become requests (`T^min` is the job's
    /// estimate: its run time with `estimate = "actual"`).
    #[serde(default)]
    pub table1: Table1,
}

fn fifo_rigid() -> Variant {
    Variant::FIFO_RIGID
}

fn fifteen() -> u32 {
    15
}

fn four() -> usize {
    4
}

/// `(series − base) / base` in percent, if the base is positive.
fn gain(series: f64, base: f64) -> Option<f64> {
    (base > 0.0).then(|| 100.0 * (series - base) / base)
}

/// `(base − series) / base` in percent, if the base is positive.
fn reduction(series: f64, base: f64) -> Option<f64> {
    gain(series, base).map(|g| -g)
}

fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// A metric: its description and its value in one interval, given the
/// series' stats, the baseline's and the same series' at incentive 0.
struct MetricDef {
    metric: Metric,
    value: fn(&IntervalStats, &IntervalStats, &IntervalStats) -> Option<f64>,
}

const fn def(
    name: &'static str,
    title: &'static str,
    y_label: &'static str,
    value: fn(&IntervalStats, &IntervalStats, &IntervalStats) -> Option<f64>,
) -> MetricDef {
    MetricDef {
        metric: Metric {
            name,
            title,
            y_label,
        },
        value,
    }
}

const DEFS: &[MetricDef] = &[
    def(
        "profit_gain",
        "Profit gain over the baseline",
        "profit gain (%)",
        |s, b, _| gain(s.profit, b.profit),
    ),
    def(
        "response_reduction",
        "Reduction of the average response time versus the baseline",
        "response time reduction (%)",
        |s, b, _| reduction(s.response()?, b.response()?),
    ),
    def(
        "rejection_reduction",
        "Reduction of rejected requests versus the baseline",
        "rejections reduction (%)",
        |s, b, _| reduction(s.rejected() as f64, b.rejected() as f64),
    ),
    def(
        "incentive_change",
        "Profit change versus no incentive",
        "profit change (%)",
        |s, _, z| gain(s.profit, z.profit),
    ),
    def(
        "molded",
        "Accepted moldable requests that used fewer than R^max processors",
        "requests (%)",
        |s, _, _| share(s.molded, s.moldable_accepted),
    ),
    def(
        "modification",
        "Average modification of the molded requests (0% at R^max, 100% at R^min)",
        "modification (%)",
        |s, _, _| (s.molded > 0).then(|| s.modification_sum / s.molded as f64),
    ),
    def(
        "modification_all",
        "Average modification of all accepted moldable requests (0% at R^max, 100% at R^min)",
        "modification (%)",
        |s, _, _| {
            (s.moldable_accepted > 0).then(|| s.modification_sum / s.moldable_accepted as f64)
        },
    ),
    def(
        "profit",
        "Provider profit per interval",
        "profit ($)",
        |s, _, _| Some(s.profit),
    ),
    def(
        "response",
        "Average response time of accepted requests",
        "response time (s)",
        |s, _, _| s.response(),
    ),
    def(
        "rejected",
        "Rejected requests per interval",
        "requests",
        |s, _, _| Some(s.rejected() as f64),
    ),
    def(
        "rejected_share",
        "Rejected requests",
        "requests (%)",
        |s, _, _| share(s.rejected(), s.requests),
    ),
    def(
        "utilisation",
        "Utilisation",
        "utilisation (%)",
        |s, _, _| (s.span > 0).then(|| 100.0 * s.busy / s.span as f64),
    ),
    def(
        "split",
        "Accepted preemptive requests that were split",
        "requests (%)",
        |s, _, _| share(s.split, s.preemptive_accepted),
    ),
    def(
        "requests",
        "Requests per interval",
        "requests",
        |s, _, _| Some(s.requests as f64),
    ),
];

const METRICS: [Metric; 14] = {
    let mut out = [DEFS[0].metric; 14];
    let mut i = 0;
    while i < DEFS.len() {
        out[i] = DEFS[i].metric;
        i += 1;
    }
    out
};

impl Kind for Adaptive {
    const NAME: &'static str = "adaptive";
    const METRICS: &'static [Metric] = &METRICS;
    const AXES: &'static [&'static str] = &["load_increase", "incentive"];
    type Params = Params;

    fn series(params: &Params) -> Vec<String> {
        params.series.iter().map(Variant::to_string).collect()
    }

    fn check(params: &Params, experiment: &Experiment) -> Result<(), String> {
        if params.interval_days == 0 {
            return Err("params.interval_days is 0, expected at least 1 day".into());
        }
        let t = &params.table1;
        let unit = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(format!(
                    "params.table1.{name} is {v}, expected a share in [0, 1]"
                ))
            }
        };
        unit("preemptive_share", t.preemptive_share)?;
        unit("high_share", t.high_share)?;
        unit("max_discount", t.max_discount)?;
        let positive = t.high_profile.is_finite() && t.high_profile > 0.0;
        let priced = t.rate.is_finite() && t.rate >= 0.0;
        if !(positive && priced) {
            return Err(
                "params.table1.high_profile must be > 0 and params.table1.rate >= 0".into(),
            );
        }
        if t.sp_parts == 0 || !(1..=100).contains(&t.sp_percent) {
            return Err(
                "params.table1.sp_parts must be at least 1 and sp_percent in 1..=100".into(),
            );
        }
        if t.deadline_factor < 1 || t.low_extra < 0 || t.r_min_percent > 100 {
            return Err("params.table1: deadline_factor >= 1, low_extra >= 0 and r_min_percent <= 100 expected".into());
        }
        let axis = experiment.spec.sweep.axis.get_ref().as_str();
        let xs = if axis == "workload" {
            Vec::new()
        } else {
            experiment.spec.sweep.values.clone()
        };
        let incentives = if axis == "incentive" {
            xs.clone()
        } else {
            vec![params.incentive]
        };
        let loads = if axis == "load_increase" {
            xs
        } else {
            vec![params.load_increase]
        };
        if incentives.iter().any(|v| !(0.0..=100.0).contains(v)) {
            return Err("incentives are percentages in [0, 100]".into());
        }
        if loads.iter().any(|v| !(v.is_finite() && *v > -100.0)) {
            return Err("load increases are percentages above -100".into());
        }
        match axis {
            "load" => Err("the adaptive kind compresses inter-arrival times within each interval: sweep `load_increase` (in %) instead of `load`".into()),
            "workload" => Ok(()),
            _ if experiment.spec.workloads.len() != 1 => Err("an adaptive sweep over a numeric axis takes exactly one workload".into()),
            _ => Ok(()),
        }
    }

    fn notes(params: &Params, workloads: &[Arc<Workload>]) -> Vec<String> {
        workloads
            .iter()
            .map(|w| {
                let sizes: Vec<f64> = swf_io::split_intervals(&w.jobs, params.interval_days)
                    .iter()
                    .map(|i| i.len() as f64)
                    .collect();
                let n = sizes.len().max(1) as f64;
                let mean = sizes.iter().sum::<f64>() / n;
                let sd = (sizes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
                format!(
                    "{}: {} requests in {} intervals of {} days, {mean:.0} ± {sd:.0} per interval \
                     (the paper: 11244 requests in 48 files, 244 ± 68 each)",
                    w.label,
                    w.jobs.len(),
                    sizes.len(),
                    params.interval_days
                )
            })
            .collect()
    }

    fn run(params: &Params, cell: &Cell<'_>) -> Result<Vec<f64>, RunError> {
        Ok(Self::run_samples(params, cell)?
            .iter()
            .map(|s| s.iter().sum::<f64>() / s.len().max(1) as f64)
            .collect())
    }

    fn run_samples(params: &Params, cell: &Cell<'_>) -> Result<Vec<Vec<f64>>, RunError> {
        let workload = cell.workload()?;
        let (load, incentive) = match (cell.axis, cell.x) {
            ("load_increase", Some(x)) => (x, params.incentive),
            ("incentive", Some(x)) => (params.load_increase, x),
            _ => (params.load_increase, params.incentive),
        };
        let variant = params.series[cell.series];
        let runs = Runs {
            params,
            workload,
            seed: cell.seed,
            fingerprint: fingerprint(workload),
            load,
        };
        let series = runs.get(variant, incentive)?;
        let base = runs.get(params.baseline, incentive)?;
        let no_incentive = runs.get(variant, 0.0)?;
        Ok(DEFS
            .iter()
            .map(|d| {
                let values: Vec<f64> = series
                    .iter()
                    .zip(base.iter())
                    .zip(no_incentive.iter())
                    .filter_map(|((s, b), z)| (d.value)(s, b, z))
                    .collect();
                trimmed(values, params.trim)
            })
            .collect())
    }
}

/// The values left after dropping the `trim` highest and `trim` lowest (all
/// of them if there are not more than `2·trim`); `[NaN]` if there are none.
fn trimmed(mut values: Vec<f64>, trim: usize) -> Vec<f64> {
    if values.is_empty() {
        return vec![f64::NAN];
    }
    if values.len() > 2 * trim {
        values.sort_by(f64::total_cmp);
        values.truncate(values.len() - trim);
        values.drain(..trim);
    }
    values
}

/// A hash of what a workload's simulation depends on.
fn fingerprint(w: &Workload) -> u64 {
    let mut h = DefaultHasher::new();
    w.capacity.hash(&mut h);
    for j in &w.jobs {
        (j.id, j.submit.0, j.procs, j.estimate, j.run_time).hash(&mut h);
    }
    h.finish()
}

type Memo = Arc<OnceLock<Result<Arc<Vec<IntervalStats>>, RunError>>>;

/// Simulations already run in this process, by their full inputs.
static MEMO: Mutex<BTreeMap<String, Memo>> = Mutex::new(BTreeMap::new());

/// The simulations of one cell's workload, load and seed.
struct Runs<'a> {
    params: &'a Params,
    workload: &'a Workload,
    seed: u64,
    fingerprint: u64,
    load: f64,
}

impl Runs<'_> {
    /// The per-interval stats of `variant` at `incentive` (%), simulated once
    /// per process.
    fn get(&self, variant: Variant, incentive: f64) -> Result<Arc<Vec<IntervalStats>>, RunError> {
        // The incentive only changes the prices of preemptive requests.
        let incentive = if variant.preemptive { incentive } else { 0.0 };
        let p = self.params;
        let key = format!(
            "{:x}/{}/{:?}/{:?}/{}/{}/{:?}/{:?}/{:?}/{:?}",
            self.fingerprint,
            variant,
            self.load,
            incentive,
            self.seed,
            p.interval_days,
            p.budget,
            p.mdf_fallback,
            p.mdf_rescheduling,
            p.table1
        );
        let memo = {
            let mut map = MEMO.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            map.entry(key).or_default().clone()
        };
        memo.get_or_init(|| self.simulate(variant, incentive).map(Arc::new))
            .clone()
    }

    fn simulate(&self, variant: Variant, incentive: f64) -> Result<Vec<IntervalStats>, RunError> {
        let p = self.params;
        let omega = p
            .table1
            .price_function(incentive / 100.0)
            .map_err(|e| RunError::Kind {
                message: format!("params: {e}"),
            })?;
        let config = SchedulerConfig::new(self.workload.capacity, variant.policy)
            .price(omega)
            .budget(p.budget)
            .fallback(p.mdf_fallback)
            .rescheduling(p.mdf_rescheduling);
        let intervals = swf_io::split_intervals(&self.workload.jobs, p.interval_days);
        intervals
            .iter()
            .enumerate()
            .map(|(i, jobs)| {
                let jobs = swf_io::scale_load(jobs.clone(), 1.0 + self.load / 100.0);
                let requests = p
                    .table1
                    .requests(variant, &jobs, &omega, request_seeds(self.seed, i))
                    .map_err(|e| RunError::Kind { message: e.to_string() })?;
                let outcomes = schedule(config, &requests).map_err(|e| RunError::Kind { message: format!("interval {i}: {e}") })?;
                verify(&config, &requests, &outcomes).map_err(|e| RunError::Kind {
                    message: format!("{variant} produced an invalid schedule in interval {i} ({e}); this is a scheduler bug, please report it"),
                })?;
                Ok(IntervalStats::of(self.workload.capacity, &requests, &outcomes))
            })
            .collect()
    }
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
    use super::*;

    #[test]
    fn trimming_drops_both_tails() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(trimmed(v.clone(), 4), vec![5.0, 6.0]);
        assert_eq!(trimmed(v[..8].to_vec(), 4).len(), 8, "too few to trim");
        assert!(trimmed(Vec::new(), 4)[0].is_nan());
    }

    /// Each interval has its own streams: another interval draws other
    /// price profiles from the same repetition seed.
    #[test]
    fn intervals_draw_differently() {
        let jobs: Vec<profile::Job> = (0..400u64)
            .map(|i| profile::Job::new(i, profile::Time(i as i64), 16, 7200, 7200))
            .collect();
        let omega = adaptive_requests::PriceFunction::TABLE1;
        let profiles = |interval: usize| -> Vec<f64> {
            Table1::default()
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

    #[test]
    fn relative_metrics() {
        assert_eq!(gain(114.0, 100.0), Some(14.0));
        assert_eq!(reduction(80.0, 100.0), Some(20.0));
        assert_eq!(gain(1.0, 0.0), None);
    }
}
