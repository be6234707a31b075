//! `kind = "pricing"`: Yeo & Buyya's Libra+$ (the `pricing` crate) against
//! Libra and three EASY-backfilling baselines, on a trace given deadlines
//! and budgets by the paper's two urgency classes; one series per policy.
//!
//! ```toml
//! [params]
//! policies = ["fcfs-bf", "sjf-bf", "edf-bf", "libra", "libra+$", "libra+$-b0.5"]
//! alpha = 1.0            # Libra+$ static factor α
//! beta = 0.1             # Libra+$ dynamic factor β of the series `libra+$`
//! gamma = 1.0            # Libra's γ
//! delta = 1.0            # Libra's δ
//! base_price = 1.0       # PBase, $ per processor-second; f(R) = R · PBase
//! arrival_delay = 0.5    # inter-arrival times × this factor
//! high_urgency = 20.0    # % of high-urgency jobs
//! inaccuracy = 0.0       # % runtime under-estimation: RE = R · (1 − x/100)
//! deadline_low_mean = 2.0
//! deadline_ratio = 4.0   # high:low ratio of the D/R means
//! budget_low_mean = 2.0
//! budget_ratio = 4.0     # high:low ratio of the B/f(R) means
//! spread = 0.25          # σ / mean within a class
//! rating = 168           # SPEC rating of every node
//! spare = "proportional" # Algorithm 2's unclaimed time: proportional | equal | idle
//! late = "full"          # a late job's partition: full | zero
//! committed = "estimate" # eq. 6's committed time: estimate | remaining | window
//! drop = "hopeless"      # backfilling drops a waiting job: hopeless | lapsed
//! ```
//!
//! Series: `fcfs-bf`, `sjf-bf`, `edf-bf` (EASY with that queue order, on
//! the machine space-shared), `libra` (Libra's static cost), `libra+$` (β
//! from `beta`, or the x value on the `beta` axis) and `libra+$-b<β>`
//! (a fixed β). Libra and Libra+$ run on the same machine time-shared, one
//! node per processor. Numeric axes: `arrival_delay`, `beta`,
//! `high_urgency`, `inaccuracy`; each replaces the parameter of its name.
//!
//! The deadlines and budgets are drawn per repetition from a stream derived
//! from the repetition seed, so every series and every x value sees the same
//! jobs (common random numbers).

use std::fmt;
use std::sync::Arc;

use ::pricing::{
    ClusterConfig, Committed, Flat, JobControl, JobSpec, Late, LibraDollar, LibraStatic, Metrics,
    NodeSpec, PriceFunction, Quote, Spare, Submission, UrgencyModel,
};
use profile::{Job, Overrun, Policy, QueueOrder, SchedulerConfig, Status, Time};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::config::{Experiment, derive_seed};
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;
use crate::workload::Workload;

/// The pricing runner.
pub(crate) struct Pricing;

/// A series: a policy written by name in TOML.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PolicyName {
    name: String,
    policy: PolicyKind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum PolicyKind {
    /// EASY backfilling, space-shared, with this queue order.
    Backfill(Order),
    /// Libra: proportional share, static cost.
    Libra,
    /// Libra+$ with this β, or `params.beta` (and the `beta` axis) if `None`.
    LibraDollar(Option<f64>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Fcfs,
    Sjf,
    Edf,
}

impl std::str::FromStr for PolicyName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let policy = match s {
            "fcfs-bf" => PolicyKind::Backfill(Order::Fcfs),
            "sjf-bf" => PolicyKind::Backfill(Order::Sjf),
            "edf-bf" => PolicyKind::Backfill(Order::Edf),
            "libra" => PolicyKind::Libra,
            "libra+$" => PolicyKind::LibraDollar(None),
            _ => {
                let beta = s
                    .strip_prefix("libra+$-b")
                    .and_then(|b| b.parse::<f64>().ok())
                    .filter(|b| b.is_finite() && *b >= 0.0)
                    .ok_or_else(|| {
                        format!(
                            "unknown policy '{s}', expected fcfs-bf, sjf-bf, edf-bf, libra, \
                             libra+$ or libra+$-b<β> (e.g. libra+$-b0.5)"
                        )
                    })?;
                PolicyKind::LibraDollar(Some(beta))
            }
        };
        Ok(PolicyName {
            name: s.to_string(),
            policy,
        })
    }
}

impl<'de> Deserialize<'de> for PolicyName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for PolicyName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

/// When a backfilling baseline gives up on a waiting job.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DropRule {
    /// As soon as it can no longer finish by its deadline (`now + RE > DT`):
    /// `profile`'s `drop_expired`.
    #[default]
    Hopeless,
    /// Only once its deadline has passed (`now > DT`), the paper's words
    /// read literally: a job that cannot make it may still be started.
    Lapsed,
}

impl fmt::Display for DropRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DropRule::Hopeless => "hopeless",
            DropRule::Lapsed => "lapsed",
        })
    }
}

/// `[params]` of a pricing experiment; defaults are the paper's Table I.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Params {
    /// One series per policy, in legend order.
    pub policies: Vec<PolicyName>,
    /// Libra+$'s static factor α.
    #[serde(default = "one")]
    pub alpha: f64,
    /// Libra+$'s dynamic factor β for the series `libra+$`.
    #[serde(default = "tenth")]
    pub beta: f64,
    /// Libra's γ.
    #[serde(default = "one")]
    pub gamma: f64,
    /// Libra's δ.
    #[serde(default = "one")]
    pub delta: f64,
    /// `PBase`, $ per second of processor time on any node.
    #[serde(default = "one")]
    pub base_price: f64,
    /// Inter-arrival times of the trace are multiplied by this.
    #[serde(default = "half")]
    pub arrival_delay: f64,
    /// % of high-urgency jobs.
    #[serde(default = "twenty")]
    pub high_urgency: f64,
    /// % runtime under-estimation.
    #[serde(default)]
    pub inaccuracy: f64,
    /// Mean of the low `D/R` value (the high-urgency class).
    #[serde(default = "two")]
    pub deadline_low_mean: f64,
    /// High:low ratio of the `D/R` means.
    #[serde(default = "four")]
    pub deadline_ratio: f64,
    /// Mean of the low `B/f(R)` value (the low-urgency class).
    #[serde(default = "two")]
    pub budget_low_mean: f64,
    /// High:low ratio of the `B/f(R)` means.
    #[serde(default = "four")]
    pub budget_ratio: f64,
    /// Standard deviation of a factor as a fraction of its class mean.
    #[serde(default = "quarter")]
    pub spread: f64,
    /// SPEC rating of every node (and of the trace's run times).
    #[serde(default = "sp2_rating")]
    pub rating: u32,
    /// Algorithm 2: unclaimed processor time.
    #[serde(default)]
    pub spare: Spare,
    /// Algorithm 2: a late job's partition.
    #[serde(default)]
    pub late: Late,
    /// Eq. 6: the committed processor time.
    #[serde(default)]
    pub committed: Committed,
    /// The backfilling baselines' drop rule.
    #[serde(default)]
    pub drop: DropRule,
}

fn one() -> f64 {
    1.0
}
fn tenth() -> f64 {
    0.1
}
fn half() -> f64 {
    0.5
}
fn twenty() -> f64 {
    20.0
}
fn two() -> f64 {
    2.0
}
fn four() -> f64 {
    4.0
}
fn quarter() -> f64 {
    0.25
}
fn sp2_rating() -> u32 {
    168
}

/// The settings of one cell: the parameters with the x value applied.
#[derive(Debug, Clone, Copy)]
struct Settings {
    arrival_delay: f64,
    beta: f64,
    high_urgency: f64,
    inaccuracy: f64,
}

impl Settings {
    fn of(params: &Params, axis: &str, x: Option<f64>) -> Settings {
        let mut s = Settings {
            arrival_delay: params.arrival_delay,
            beta: params.beta,
            high_urgency: params.high_urgency,
            inaccuracy: params.inaccuracy,
        };
        if let Some(x) = x {
            match axis {
                "arrival_delay" => s.arrival_delay = x,
                "beta" => s.beta = x,
                "high_urgency" => s.high_urgency = x,
                "inaccuracy" => s.inaccuracy = x,
                _ => {}
            }
        }
        s
    }

    /// Why these settings cannot run, if they cannot.
    fn problem(&self) -> Option<String> {
        let bad = |name: &str, v: f64, want: &str| Some(format!("{name} is {v}, expected {want}"));
        if !(self.arrival_delay.is_finite() && self.arrival_delay > 0.0) {
            return bad("arrival_delay", self.arrival_delay, "a positive factor");
        }
        if !(self.beta.is_finite() && self.beta >= 0.0) {
            return bad("beta", self.beta, "a finite number >= 0");
        }
        if !(0.0..=100.0).contains(&self.high_urgency) {
            return bad(
                "high_urgency",
                self.high_urgency,
                "a percentage in [0, 100]",
            );
        }
        if !(0.0..100.0).contains(&self.inaccuracy) {
            return bad("inaccuracy", self.inaccuracy, "a percentage in [0, 100)");
        }
        None
    }
}

/// One job of a cell: the trace job with its QoS.
#[derive(Debug, Clone, Copy)]
struct QosJob {
    id: u64,
    submit: Time,
    procs: u32,
    /// `R_i`, at least one second.
    run_time: i64,
    /// `RE_i`.
    estimate: i64,
    /// `D_i`.
    deadline: i64,
    /// `B_i`.
    budget: f64,
}

impl QosJob {
    fn deadline_time(&self) -> Time {
        self.submit.saturating_add(self.deadline)
    }
}

/// The jobs of `workload` as one cell sees them.
fn qos_jobs(
    params: &Params,
    s: &Settings,
    workload: &Workload,
    seed: u64,
) -> Result<Vec<QosJob>, RunError> {
    let model = UrgencyModel {
        high_fraction: s.high_urgency / 100.0,
        deadline_low_mean: params.deadline_low_mean,
        deadline_ratio: params.deadline_ratio,
        budget_low_mean: params.budget_low_mean,
        budget_ratio: params.budget_ratio,
        spread: params.spread,
    };
    let draws = model
        .draw(workload.jobs.len(), derive_seed(seed, "pricing/qos"))
        .map_err(|e| RunError::Kind {
            message: format!("the QoS model: {e}"),
        })?;
    let jobs = swf_io::scale_load(workload.jobs.clone(), 1.0 / s.arrival_delay);
    Ok(jobs
        .iter()
        .zip(draws)
        .map(|(j, q)| {
            let run_time = j.run_time.max(1);
            let estimate = ((run_time as f64 * (1.0 - s.inaccuracy / 100.0)).round() as i64).max(1);
            let c = q.constraints(run_time, params.base_price);
            QosJob {
                id: j.id,
                submit: j.submit,
                procs: j.procs,
                run_time,
                estimate,
                deadline: c.deadline,
                budget: c.budget,
            }
        })
        .collect())
}

/// What one run measured.
struct Measured {
    metrics: Metrics,
    rejected: [usize; 3],
    late: usize,
}

/// EASY backfilling on the space-shared machine; a job that ends by its
/// deadline pays `RE · PBase`.
fn backfill(
    params: &Params,
    order: Order,
    capacity: u32,
    jobs: &[QosJob],
) -> Result<Measured, RunError> {
    let name = match order {
        Order::Fcfs => "fcfs-bf",
        Order::Sjf => "sjf-bf",
        Order::Edf => "edf-bf",
    };
    // `drop_expired` drops a waiting job when `now + estimate > deadline`;
    // for the `lapsed` rule the deadline it sees is moved by the estimate,
    // and EDF orders by the true deadline.
    let shift = |j: &QosJob| match params.drop {
        DropRule::Hopeless => 0,
        DropRule::Lapsed => j.estimate,
    };
    let profile_jobs: Vec<Job> = jobs
        .iter()
        .map(|j| {
            Job::new(j.id, j.submit, j.procs, j.estimate, j.run_time)
                .with_deadline(j.deadline_time().saturating_add(shift(j)))
        })
        .collect();
    let queue = match (order, params.drop) {
        (Order::Fcfs, _) => QueueOrder::Arrival,
        (Order::Sjf, _) => QueueOrder::ShortestEstimate,
        (Order::Edf, DropRule::Hopeless) => QueueOrder::EarliestDeadline,
        (Order::Edf, DropRule::Lapsed) => QueueOrder::Custom(Arc::new(|a: &Job, b: &Job| {
            let true_deadline = |j: &Job| j.deadline.map(|d| d.0.saturating_sub(j.estimate));
            true_deadline(a).cmp(&true_deadline(b))
        })),
    };
    let config = SchedulerConfig::new(capacity, Policy::EASY)
        .order(queue)
        .overrun(Overrun::Continue)
        .drop_expired(true);
    let outcomes =
        profile::simulate(&config, &profile_jobs).map_err(|error| RunError::Simulation {
            policy: name.into(),
            error,
        })?;
    profile::validate(capacity, &profile_jobs, &outcomes).map_err(|violation| {
        RunError::InvalidSchedule {
            policy: name.into(),
            violation,
        }
    })?;
    let mut m = Measured {
        metrics: Metrics::default(),
        rejected: [0; 3],
        late: 0,
    };
    for (j, o) in jobs.iter().zip(&outcomes) {
        let started = o.status != Status::Dropped;
        let on_time = started && o.end <= j.deadline_time();
        let quote = Quote {
            runtime_estimate: j.estimate,
            deadline: j.deadline,
            base_price: params.base_price,
            res_max: j.deadline,
            committed: 0,
        };
        let cost = Flat.cost(&quote).map_err(|e| RunError::Kind {
            message: format!("{name}: job {}: {e}", j.id),
        })?;
        let qos = (on_time && cost <= j.budget).then_some(cost);
        m.metrics.record(j.budget, started, qos);
        m.late += usize::from(started && !on_time);
        // A dropped job is the baselines' only rejection: its deadline.
        m.rejected[1] += usize::from(!started);
    }
    Ok(m)
}

/// Libra or Libra+$ on the time-shared machine.
fn time_shared(
    params: &Params,
    name: &str,
    price: &dyn PriceFunction,
    capacity: u32,
    jobs: &[QosJob],
) -> Result<Measured, RunError> {
    let config = ClusterConfig {
        nodes: vec![NodeSpec::new(params.rating, params.base_price); capacity as usize],
        reference_rating: params.rating,
        control: JobControl {
            spare: params.spare,
            late: params.late,
        },
        committed: params.committed,
    };
    let submissions: Vec<Submission> = jobs
        .iter()
        .map(|j| Submission {
            id: j.id,
            arrival: j.submit,
            spec: JobSpec::new(j.estimate, j.procs, j.deadline, j.budget),
            run_time: j.run_time,
        })
        .collect();
    let outcomes =
        ::pricing::simulate(&config, &submissions, price).map_err(|e| RunError::Kind {
            message: format!("{name}: {e}"),
        })?;
    let mut m = Measured {
        metrics: Metrics::of(&outcomes),
        rejected: [0; 3],
        late: 0,
    };
    for (j, o) in jobs.iter().zip(&outcomes) {
        if let Some(r) = o.decision.rejection() {
            let k = match r.reason() {
                "cannot_meet_resources" => 0,
                "cannot_meet_deadline" => 1,
                _ => 2,
            };
            m.rejected[k] += 1;
            continue;
        }
        let finish = o.finish.ok_or_else(|| RunError::Kind {
            message: format!(
                "{name}: accepted job {} never finished; this is a bug in `pricing`",
                j.id
            ),
        })?;
        if finish - j.submit < j.run_time {
            return Err(RunError::Kind {
                message: format!(
                    "{name}: job {} ran {} s of work in {} s; this is a bug in `pricing`",
                    j.id,
                    j.run_time,
                    finish - j.submit
                ),
            });
        }
        m.late += usize::from(!o.met_deadline());
    }
    Ok(m)
}

impl Kind for Pricing {
    const NAME: &'static str = "pricing";
    const METRICS: &'static [Metric] = &[
        Metric {
            name: "qos",
            title: "Job QoS Satisfaction",
            y_label: "Job QoS Satisfaction (%)",
        },
        Metric {
            name: "profit",
            title: "Cluster Profitability",
            y_label: "Cluster Profitability (%)",
        },
        Metric {
            name: "accepted",
            title: "Jobs accepted (started, for backfilling)",
            y_label: "jobs accepted (% of submitted)",
        },
        Metric {
            name: "rejected_resources",
            title: "Rejected: cannot meet resources",
            y_label: "jobs (% of submitted)",
        },
        Metric {
            name: "rejected_deadline",
            title: "Rejected: cannot meet deadline (dropped, for backfilling)",
            y_label: "jobs (% of submitted)",
        },
        Metric {
            name: "rejected_budget",
            title: "Rejected: cannot meet budget",
            y_label: "jobs (% of submitted)",
        },
        Metric {
            name: "late",
            title: "Accepted jobs that missed their deadline",
            y_label: "jobs (% of submitted)",
        },
        Metric {
            name: "jobs",
            title: "Jobs submitted",
            y_label: "jobs",
        },
    ];
    const AXES: &'static [&'static str] = &["arrival_delay", "beta", "high_urgency", "inaccuracy"];
    type Params = Params;

    fn series(params: &Params) -> Vec<String> {
        params.policies.iter().map(|p| p.name.clone()).collect()
    }

    fn notes(_params: &Params, workloads: &[Arc<Workload>]) -> Vec<String> {
        workloads.iter().map(|w| workload_statistics(w)).collect()
    }

    fn check(params: &Params, experiment: &Experiment) -> Result<(), String> {
        for (name, v) in [
            ("alpha", params.alpha),
            ("gamma", params.gamma),
            ("delta", params.delta),
            ("base_price", params.base_price),
            ("deadline_low_mean", params.deadline_low_mean),
            ("deadline_ratio", params.deadline_ratio),
            ("budget_low_mean", params.budget_low_mean),
            ("budget_ratio", params.budget_ratio),
            ("spread", params.spread),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "params.{name} is {v}, expected a finite number >= 0"
                ));
            }
        }
        if params.rating == 0 {
            return Err("params.rating is 0, expected a positive SPEC rating".into());
        }
        if params.spare == Spare::Idle && params.late == Late::Zero {
            return Err(
                "params.spare = \"idle\" with params.late = \"zero\" leaves a job with partition 0 \
                 stopped for ever; choose another spare or late setting"
                    .into(),
            );
        }
        let axis = experiment.spec.sweep.axis.get_ref().as_str();
        let xs: Vec<Option<f64>> = if Self::AXES.contains(&axis) {
            experiment
                .spec
                .sweep
                .values
                .iter()
                .map(|&v| Some(v))
                .collect()
        } else {
            vec![None]
        };
        for x in xs {
            if let Some(p) = Settings::of(params, axis, x).problem() {
                return Err(format!("params.{p}"));
            }
        }
        Ok(())
    }

    fn run(params: &Params, cell: &Cell<'_>) -> Result<Vec<f64>, RunError> {
        let workload = cell.workload()?;
        let s = Settings::of(params, cell.axis, cell.x);
        if let Some(p) = s.problem() {
            return Err(RunError::Kind { message: p });
        }
        let jobs = qos_jobs(params, &s, workload, cell.seed)?;
        let policy = &params.policies[cell.series];
        let capacity = workload.capacity;
        let m = match policy.policy {
            PolicyKind::Backfill(order) => backfill(params, order, capacity, &jobs)?,
            PolicyKind::Libra => {
                let price = LibraStatic {
                    gamma: params.gamma,
                    delta: params.delta,
                };
                time_shared(params, &policy.name, &price, capacity, &jobs)?
            }
            PolicyKind::LibraDollar(beta) => {
                let price = LibraDollar {
                    alpha: params.alpha,
                    beta: beta.unwrap_or(s.beta),
                };
                time_shared(params, &policy.name, &price, capacity, &jobs)?
            }
        };
        let n = m.metrics.submitted.max(1) as f64;
        let pct = |k: usize| 100.0 * k as f64 / n;
        Ok(vec![
            100.0 * m.metrics.qos_satisfaction(),
            100.0 * m.metrics.profitability(),
            pct(m.metrics.accepted),
            pct(m.rejected[0]),
            pct(m.rejected[1]),
            pct(m.rejected[2]),
            pct(m.late),
            m.metrics.submitted as f64,
        ])
    }
}

/// Mean processors, inter-arrival time and run time of a workload, for the
/// summary (the paper reports 17, 1969 s and 8671 s for its 5000 jobs).
fn workload_statistics(workload: &Workload) -> String {
    let jobs = &workload.jobs;
    let n = jobs.len().max(1) as f64;
    let procs = jobs.iter().map(|j| f64::from(j.procs)).sum::<f64>() / n;
    let run = jobs.iter().map(|j| j.run_time as f64).sum::<f64>() / n;
    let gaps = match (jobs.first(), jobs.last()) {
        (Some(a), Some(b)) if jobs.len() > 1 => {
            (b.submit - a.submit) as f64 / (jobs.len() - 1) as f64
        }
        _ => 0.0,
    };
    format!(
        "{}: {} jobs on {} processors; mean {procs:.1} processors, mean inter-arrival time {gaps:.0} s \
         (before the arrival delay factor), mean run time {run:.0} s. The paper's 5000 jobs: 17 \
         processors, 1969 s and 8671 s.",
        workload.label,
        jobs.len(),
        workload.capacity
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names() {
        let p: PolicyName = "libra+$-b0.5".parse().unwrap();
        assert_eq!(p.policy, PolicyKind::LibraDollar(Some(0.5)));
        assert_eq!(p.name, "libra+$-b0.5");
        let p: PolicyName = "libra+$".parse().unwrap();
        assert_eq!(p.policy, PolicyKind::LibraDollar(None));
        assert_eq!(
            "edf-bf".parse::<PolicyName>().unwrap().policy,
            PolicyKind::Backfill(Order::Edf)
        );
        for bad in ["easy", "libra+$-b", "libra+$-b-1", "libra+$-bx"] {
            assert!(bad.parse::<PolicyName>().is_err(), "{bad}");
        }
    }

    fn params() -> Params {
        toml::from_str("policies = [\"libra\"]").unwrap()
    }

    #[test]
    fn defaults_are_table_i() {
        let p = params();
        assert_eq!(
            (
                p.alpha,
                p.beta,
                p.arrival_delay,
                p.high_urgency,
                p.inaccuracy
            ),
            (1.0, 0.1, 0.5, 20.0, 0.0)
        );
        assert_eq!(
            (
                p.deadline_low_mean,
                p.deadline_ratio,
                p.budget_low_mean,
                p.budget_ratio
            ),
            (2.0, 4.0, 2.0, 4.0)
        );
        assert_eq!(
            (p.spare, p.late, p.committed, p.drop),
            (
                Spare::Proportional,
                Late::Full,
                Committed::Estimate,
                DropRule::Hopeless
            )
        );
    }

    #[test]
    fn the_axis_replaces_its_parameter() {
        let p = params();
        let s = Settings::of(&p, "inaccuracy", Some(30.0));
        assert_eq!((s.inaccuracy, s.arrival_delay), (30.0, 0.5));
        let s = Settings::of(&p, "arrival_delay", Some(0.1));
        assert_eq!((s.arrival_delay, s.beta), (0.1, 0.1));
        assert!(
            Settings::of(&p, "inaccuracy", Some(100.0))
                .problem()
                .is_some()
        );
        assert!(
            Settings::of(&p, "high_urgency", Some(101.0))
                .problem()
                .is_some()
        );
    }

    #[test]
    fn arrivals_are_compressed_and_zero_run_times_count_as_one_second() {
        let workload = Workload {
            label: "w".into(),
            capacity: 2,
            jobs: vec![
                Job::new(1, Time(0), 2, 100, 100),
                Job::new(2, Time(100), 1, 50, 50),
                Job::new(3, Time(200), 1, 10, 0),
            ],
        };
        let p = params();
        let q = qos_jobs(
            &p,
            &Settings::of(&p, "arrival_delay", Some(0.1)),
            &workload,
            7,
        )
        .unwrap();
        assert_eq!(
            q.iter().map(|j| j.submit.0).collect::<Vec<_>>(),
            [0, 10, 20]
        );
        assert_eq!((q[2].run_time, q[2].estimate), (1, 1));
    }

    /// Three jobs on a 2-processor machine, worked by hand (see the comments).
    #[test]
    fn both_machines_by_hand() {
        let job = |id, submit, procs, r, deadline, budget| QosJob {
            id,
            submit: Time(submit),
            procs,
            run_time: r,
            estimate: r,
            deadline,
            budget,
        };
        let jobs = [
            job(1, 0, 2, 100, 150, 300.0),
            job(2, 10, 1, 50, 60, 40.0),
            job(3, 20, 1, 30, 200, 100.0),
        ];
        let p = params();
        // FCFS-BF: job 1 runs [0, 100]; job 2 waits and is dropped at 100
        // (100 + 50 > 70); job 3 runs [100, 130]. Both pay RE · $1.
        let bf = backfill(&p, Order::Fcfs, 2, &jobs).unwrap();
        assert_eq!(
            (
                bf.metrics.qos_met,
                bf.metrics.accepted,
                bf.rejected[1],
                bf.late
            ),
            (2, 2, 1, 0)
        );
        assert_eq!(bf.metrics.earned, 130.0);
        assert_eq!(bf.metrics.budgets, 440.0);
        // Libra: job 1 takes 2/3 of both nodes (cost 100 + 100/150); at 10
        // it needs 90/140 and job 2's 50/60 does not fit; at 20 job 3's 0.15
        // fits beside 80/130 (cost 30 + 30/200). Sharing node 0 in
        // proportion to 0.615 : 0.15, job 1 ends at 120 and job 3 at 131.
        let libra = LibraStatic {
            gamma: 1.0,
            delta: 1.0,
        };
        let ts = time_shared(&p, "libra", &libra, 2, &jobs).unwrap();
        assert_eq!(
            (
                ts.metrics.qos_met,
                ts.metrics.accepted,
                ts.rejected,
                ts.late
            ),
            (2, 2, [0, 1, 0], 0)
        );
        let earned = 100.0 + 100.0 / 150.0 + 30.0 + 30.0 / 200.0;
        assert!(
            (ts.metrics.earned - earned).abs() < 1e-9,
            "{}",
            ts.metrics.earned
        );
        // Libra+$ with β = 1 on an idle node: RESFree = 150 − 100 = 50,
        // P = 1 + 150/50 = 4, cost 400 > 300.
        let dollar = LibraDollar {
            alpha: 1.0,
            beta: 1.0,
        };
        let ts = time_shared(&p, "libra+$", &dollar, 2, &jobs).unwrap();
        // Job 2: P = 1 + 60/10 = 7, cost 350 > 40. Job 3: P = 1 + 200/170, cost 65.3.
        assert_eq!(
            (ts.rejected[2], ts.metrics.qos_met),
            (2, 1),
            "jobs 1 and 2 are priced out"
        );
    }

    #[test]
    fn under_estimates_shrink_the_estimate_only() {
        let workload = Workload {
            label: "w".into(),
            capacity: 4,
            jobs: vec![Job::new(1, Time(0), 1, 1000, 1000)],
        };
        let p = params();
        let s = Settings::of(&p, "inaccuracy", Some(30.0));
        let q = qos_jobs(&p, &s, &workload, 1).unwrap();
        let exact = qos_jobs(&p, &Settings::of(&p, "inaccuracy", Some(0.0)), &workload, 1).unwrap();
        assert_eq!((q[0].estimate, q[0].run_time), (700, 1000));
        // Deadline and budget come from the real run time, so they do not move.
        assert_eq!(
            (q[0].deadline, q[0].budget),
            (exact[0].deadline, exact[0].budget)
        );
    }
}
