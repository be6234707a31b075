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
    BudgetRule, Fallback, LinearFmol, Policy, Preemption, PriceFunction, Req, Request,
    RequestOutcome, Rescheduling, SchedulerConfig, r_min_share, schedule, verify,
};
use profile::Job;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
    pub budget: BudgetName,
    /// What MDF does when rescheduling with a new request fails.
    #[serde(default)]
    pub mdf_fallback: FallbackName,
    /// How MDF reschedules.
    #[serde(default)]
    pub mdf_rescheduling: ReschedulingName,
    /// Table 1: how trace jobs become requests.
    #[serde(default)]
    pub table1: Table1,
}

fn fifo_rigid() -> Variant {
    Variant {
        policy: Policy::Fifo,
        preemptive: false,
        moldable: false,
    }
}

fn fifteen() -> u32 {
    15
}

fn four() -> usize {
    4
}

/// Table 1 of the paper: how a trace job (`R^max` = its processors,
/// `T^min` = its run time) becomes an adaptive request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Table1 {
    /// `R^min` as a percentage of `R^max` (rounded up).
    pub r_min_percent: u32,
    /// Requests for up to this many processors are not moldable.
    pub rigid_up_to: u32,
    /// Share of the requests drawn as preemptive.
    pub preemptive_share: f64,
    /// Requests shorter than this (seconds) are never split.
    pub preemptive_min_run: i64,
    /// `N` of `Sp`.
    pub sp_parts: u32,
    /// `I` of `Sp`, in percent of the work.
    pub sp_percent: u32,
    /// `M` of `Sp`.
    pub sp_mold_each: bool,
    /// Share of the requests in the high price profile.
    pub high_share: f64,
    /// The high price profile (the low one is 1).
    pub high_profile: f64,
    /// `D = T^min · deadline_factor` (+ `low_extra` for the low profile).
    pub deadline_factor: i64,
    /// Seconds added to the deadline of low-profile requests.
    pub low_extra: i64,
    /// $ per processor-hour.
    pub rate: f64,
    /// Largest share of the price a late completion takes off.
    pub max_discount: f64,
}

impl Default for Table1 {
    fn default() -> Self {
        Table1 {
            r_min_percent: 80,
            rigid_up_to: 10,
            preemptive_share: 0.2,
            preemptive_min_run: 3600,
            sp_parts: 10,
            sp_percent: 10,
            sp_mold_each: true,
            high_share: 0.2,
            high_profile: 3.0,
            deadline_factor: 5,
            low_extra: 3 * 86_400,
            rate: 1.0,
            max_discount: 0.6,
        }
    }
}

/// A scheduler with a request flexibility: `mdf-preemptive-moldable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    pub policy: Policy,
    pub preemptive: bool,
    pub moldable: bool,
}

impl Variant {
    fn name(&self) -> String {
        let flex = match (self.preemptive, self.moldable) {
            (false, false) => "rigid",
            (true, false) => "preemptive",
            (false, true) => "moldable",
            (true, true) => "preemptive-moldable",
        };
        format!("{}-{flex}", self.policy.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "unknown series '{s}', expected <fifo|mdf>-<rigid|preemptive|moldable|preemptive-moldable>, e.g. 'mdf-moldable'"
            )
        };
        let (policy, flex) = s.split_once('-').ok_or_else(bad)?;
        let policy = match policy {
            "fifo" => Policy::Fifo,
            "mdf" => Policy::Mdf,
            _ => return Err(bad()),
        };
        let (preemptive, moldable) = match flex {
            "rigid" => (false, false),
            "preemptive" => (true, false),
            "moldable" => (false, true),
            "preemptive-moldable" => (true, true),
            _ => return Err(bad()),
        };
        Ok(Variant {
            policy,
            preemptive,
            moldable,
        })
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// Declares a unit-variant enum written in TOML by lower-case name.
macro_rules! named_enum {
    ($name:ident => $target:ty { $($variant:ident => $value:expr),+ $(,)? }) => {
        #[doc = concat!("[`", stringify!($target), "`] written by name in TOML.")]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub(crate) enum $name {
            #[default]
            $($variant),+
        }

        impl $name {
            fn get(self) -> $target {
                match self {
                    $($name::$variant => $value),+
                }
            }
        }
    };
}

named_enum!(BudgetName => BudgetRule { Limit => BudgetRule::Limit, Cap => BudgetRule::Cap });
named_enum!(FallbackName => Fallback { Reject => Fallback::Reject, Append => Fallback::Append });
named_enum!(ReschedulingName => Rescheduling { Full => Rescheduling::Full, Incremental => Rescheduling::Incremental });

/// What one interval's simulation yields.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct IntervalStats {
    requests: usize,
    accepted: usize,
    profit: f64,
    response_sum: f64,
    moldable_accepted: usize,
    molded: usize,
    /// Sum over accepted moldable requests of how far they were molded (%).
    modification_sum: f64,
    preemptive_accepted: usize,
    split: usize,
    busy: f64,
    span: i64,
}

impl IntervalStats {
    fn rejected(&self) -> usize {
        self.requests - self.accepted
    }

    fn response(&self) -> Option<f64> {
        (self.accepted > 0).then(|| self.response_sum / self.accepted as f64)
    }
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
        params.series.iter().map(Variant::name).collect()
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
            variant.name(),
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
        let omega = PriceFunction::new(p.table1.rate, p.table1.max_discount, incentive / 100.0)
            .map_err(|e| RunError::Kind {
                message: format!("params: {e}"),
            })?;
        let config = SchedulerConfig::new(self.workload.capacity, variant.policy)
            .price(omega)
            .budget(p.budget.get())
            .fallback(p.mdf_fallback.get())
            .rescheduling(p.mdf_rescheduling.get());
        let intervals = swf_io::split_intervals(&self.workload.jobs, p.interval_days);
        intervals
            .iter()
            .enumerate()
            .map(|(i, jobs)| {
                let jobs = swf_io::scale_load(jobs.clone(), 1.0 + self.load / 100.0);
                let requests = requests(&p.table1, variant, &jobs, &omega, self.seed, i)?;
                let outcomes = schedule(config, &requests).map_err(|e| RunError::Kind { message: format!("interval {i}: {e}") })?;
                verify(&config, &requests, &outcomes).map_err(|e| RunError::Kind {
                    message: format!("{} produced an invalid schedule in interval {i} ({e}); this is a scheduler bug, please report it", variant.name()),
                })?;
                Ok(stats(self.workload.capacity, &requests, &outcomes))
            })
            .collect()
    }
}

/// Table 1: the requests of one interval for `variant`. The draws depend on
/// the interval and the job's position only, never on the variant or load.
fn requests(
    t: &Table1,
    variant: Variant,
    jobs: &[Job],
    omega: &PriceFunction,
    seed: u64,
    interval: usize,
) -> Result<Vec<Request>, RunError> {
    let mut split_rng = ChaCha8Rng::seed_from_u64(derive_seed(
        seed,
        &format!("adaptive/preemptive/{interval}"),
    ));
    let mut profile_rng = ChaCha8Rng::seed_from_u64(derive_seed(
        seed,
        &format!("adaptive/price-profile/{interval}"),
    ));
    let sp = Preemption {
        max_parts: Some(t.sp_parts),
        split_percent: t.sp_percent,
        mold_each: t.sp_mold_each,
    };
    jobs.iter()
        .map(|j| {
            // T^min is the job's estimate: its run time with `estimate = "actual"`.
            let t_min = j.estimate.max(1);
            let splittable =
                split_rng.random_bool(t.preemptive_share) && t_min >= t.preemptive_min_run;
            let high = profile_rng.random_bool(t.high_share);
            let profile = if high { t.high_profile } else { 1.0 };
            let r_max = j.procs;
            let r_min = if variant.moldable {
                r_min_share(r_max, t.r_min_percent, t.rigid_up_to)
            } else {
                r_max
            };
            let deadline = t_min
                .saturating_mul(t.deadline_factor)
                .saturating_add(if high { 0 } else { t.low_extra });
            let budget = omega.full_price(i64::from(r_max).saturating_mul(t_min), profile);
            let sp = (variant.preemptive && splittable).then_some(sp);
            let bad = |e: adaptive_requests::ReqError| RunError::Kind {
                message: format!("job {}: {e}", j.id),
            };
            let req = LinearFmol::new(r_min, r_max, t_min)
                .and_then(|f| Req::linear(f, deadline, budget, sp))
                .and_then(|r| r.with_price_profile(profile))
                .map_err(bad)?;
            Ok(Request {
                id: j.id,
                submit: j.submit,
                req,
            })
        })
        .collect()
}

/// The metrics' raw material from one interval's outcomes.
fn stats(capacity: u32, requests: &[Request], outcomes: &[RequestOutcome]) -> IntervalStats {
    let mut s = IntervalStats {
        requests: requests.len(),
        ..IntervalStats::default()
    };
    let first = requests.iter().map(|r| r.submit).min();
    let mut last = first;
    for (r, o) in requests.iter().zip(outcomes) {
        let Some(p) = &o.placement else { continue };
        s.accepted += 1;
        s.profit += o.price;
        s.response_sum += (p.completion() - r.submit) as f64;
        s.busy += p.proc_seconds() as f64;
        last = last.max(Some(p.completion()));
        if r.req.is_moldable() {
            s.moldable_accepted += 1;
            let (r_min, r_max) = (f64::from(r.req.r_min()), f64::from(r.req.r_max()));
            // How far from R^max towards R^min, weighted by each part's share of the work.
            let degree: f64 = p
                .parts()
                .iter()
                .map(|q| f64::from(q.to - q.from) * (r_max - f64::from(q.procs)) / (r_max - r_min))
                .sum();
            if p.parts().iter().any(|q| q.procs < r.req.r_max()) {
                s.molded += 1;
                s.modification_sum += degree;
            }
        }
        if r.req.is_preemptive() {
            s.preemptive_accepted += 1;
            s.split += usize::from(p.is_split());
        }
    }
    if let (Some(first), Some(last)) = (first, last) {
        s.span = (last - first) * i64::from(capacity);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_names_round_trip() {
        for name in [
            "fifo-rigid",
            "mdf-preemptive",
            "fifo-moldable",
            "mdf-preemptive-moldable",
        ] {
            assert_eq!(name.parse::<Variant>().unwrap().name(), name);
        }
        assert!("lifo-rigid".parse::<Variant>().is_err());
        assert!("mdf-flexible".parse::<Variant>().is_err());
    }

    #[test]
    fn trimming_drops_both_tails() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(trimmed(v.clone(), 4), vec![5.0, 6.0]);
        assert_eq!(trimmed(v[..8].to_vec(), 4).len(), 8, "too few to trim");
        assert!(trimmed(Vec::new(), 4)[0].is_nan());
    }

    /// Table 1 by hand, and the same draws for every variant.
    #[test]
    fn table1_requests() {
        let t = Table1::default();
        let omega = PriceFunction::TABLE1;
        let jobs: Vec<Job> = (0..4000u64)
            .map(|i| {
                Job::new(
                    i,
                    profile::Time(i as i64),
                    1 + (i % 40) as u32,
                    60 + (i as i64 % 7) * 1000,
                    1,
                )
            })
            .collect();
        let all = |v: &str| requests(&t, v.parse().unwrap(), &jobs, &omega, 7, 3).unwrap();
        let (rigid, flexible) = (all("fifo-rigid"), all("mdf-preemptive-moldable"));
        let (mut high, mut split, mut long) = (0, 0, 0);
        for ((j, r), f) in jobs.iter().zip(&rigid).zip(&flexible) {
            assert_eq!((r.req.r_min(), r.req.r_max()), (j.procs, j.procs));
            assert!(r.req.preemption().is_none());
            assert_eq!(f.req.r_min(), adaptive_requests::table1_r_min(j.procs));
            assert_eq!(f.req.t_min(), j.estimate);
            // Same price profile and deadline in every variant.
            assert_eq!(r.req.price_profile(), f.req.price_profile());
            assert_eq!(r.req.deadline(), f.req.deadline());
            let is_high = f.req.price_profile() == 3.0;
            let extra = if is_high { 0 } else { 3 * 86_400 };
            assert_eq!(f.req.deadline(), 5 * j.estimate + extra);
            let budget = omega.full_price(i64::from(j.procs) * j.estimate, f.req.price_profile());
            assert_eq!(f.req.budget(), budget);
            high += usize::from(is_high);
            long += usize::from(j.estimate >= 3600);
            if f.req.is_preemptive() {
                assert!(j.estimate >= 3600, "short requests are never split");
                assert_eq!(f.req.preemption(), Some(Preemption::TABLE1));
                split += 1;
            }
        }
        let share = |n: usize, of: usize| n as f64 / of as f64;
        assert!((share(high, jobs.len()) - 0.2).abs() < 0.03, "{high}");
        assert!((share(split, long) - 0.2).abs() < 0.03, "{split} of {long}");
        // Another interval draws differently.
        let other = requests(
            &t,
            "mdf-preemptive-moldable".parse().unwrap(),
            &jobs,
            &omega,
            7,
            4,
        )
        .unwrap();
        assert_ne!(
            other
                .iter()
                .map(|r| r.req.price_profile())
                .collect::<Vec<_>>(),
            flexible
                .iter()
                .map(|r| r.req.price_profile())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn relative_metrics() {
        assert_eq!(gain(114.0, 100.0), Some(14.0));
        assert_eq!(reduction(80.0, 100.0), Some(20.0));
        assert_eq!(gain(1.0, 0.0), None);
    }
}
