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
//! Series (`pricing::Series`): `fcfs-bf`, `sjf-bf`, `edf-bf` (EASY with
//! that queue order, on the machine space-shared), `libra` (Libra's static
//! cost), `libra+$` (β from `beta`, or the x value on the `beta` axis) and
//! `libra+$-b<β>` (a fixed β). Libra and Libra+$ run on the same machine
//! time-shared, one node per processor. Numeric axes: `arrival_delay`,
//! `beta`, `high_urgency`, `inaccuracy`; each replaces the parameter of its
//! name. The policies, the QoS workload and the measurements are the
//! `pricing` crate's (`run_policy`, `QosWorkload`, `RunStats`); this module
//! maps `[params]` and the x value onto them.
//!
//! The deadlines and budgets are drawn per repetition from a stream derived
//! from the repetition seed, so every series and every x value sees the same
//! jobs (common random numbers).

use std::sync::Arc;

use ::pricing::{
    Committed, DropRule, JobControl, Late, PolicyError, QosJob, QosWorkload, RunConfig, Series,
    Spare, UrgencyModel, run_policy,
};
use serde::{Deserialize, Serialize};

use crate::config::{Experiment, derive_seed};
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;
use crate::workload::Workload;

/// The pricing runner.
pub(crate) struct Pricing;

/// `[params]` of a pricing experiment; defaults are the paper's Table I.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Params {
    /// One series per policy, in legend order.
    pub policies: Vec<Series>,
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

/// The jobs of `workload` as one cell sees them: arrivals compressed by
/// the arrival delay factor, deadlines and budgets drawn from the
/// repetition's `pricing/qos` stream.
fn qos_jobs(
    params: &Params,
    s: &Settings,
    workload: &Workload,
    seed: u64,
) -> Result<Vec<QosJob>, RunError> {
    let qos = QosWorkload {
        urgency: UrgencyModel {
            high_fraction: s.high_urgency / 100.0,
            deadline_low_mean: params.deadline_low_mean,
            deadline_ratio: params.deadline_ratio,
            budget_low_mean: params.budget_low_mean,
            budget_ratio: params.budget_ratio,
            spread: params.spread,
        },
        inaccuracy: s.inaccuracy,
        base_price: params.base_price,
    };
    let jobs = swf_io::scale_load(workload.jobs.clone(), 1.0 / s.arrival_delay);
    qos.jobs(&jobs, derive_seed(seed, "pricing/qos"))
        .map_err(|e| RunError::Kind {
            message: format!("the QoS model: {e}"),
        })
}

/// The policies' shared settings in one cell.
fn run_config(params: &Params, s: &Settings) -> RunConfig {
    RunConfig {
        alpha: params.alpha,
        beta: s.beta,
        gamma: params.gamma,
        delta: params.delta,
        base_price: params.base_price,
        rating: params.rating,
        control: JobControl {
            spare: params.spare,
            late: params.late,
        },
        committed: params.committed,
        drop: params.drop,
    }
}

/// A failed run of series `name` as the pipeline reports it.
fn run_error(name: &str, e: PolicyError) -> RunError {
    match e {
        PolicyError::Simulation { error } => RunError::Simulation {
            policy: name.into(),
            error,
        },
        PolicyError::InvalidSchedule { violation } => RunError::InvalidSchedule {
            policy: name.into(),
            violation,
        },
        e => RunError::Kind {
            message: format!("{name}: {e}"),
        },
    }
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
        params.policies.iter().map(Series::to_string).collect()
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
        let series = &params.policies[cell.series];
        let m = run_policy(
            series.policy(),
            &run_config(params, &s),
            workload.capacity,
            &jobs,
        )
        .map_err(|e| run_error(series.name(), e))?;
        Ok(vec![
            100.0 * m.metrics.qos_satisfaction(),
            100.0 * m.metrics.profitability(),
            m.percent(m.metrics.accepted),
            m.percent(m.rejected.resources),
            m.percent(m.rejected.deadline),
            m.percent(m.rejected.budget),
            m.percent(m.late),
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
    use profile::{Job, Time};

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
    fn the_beta_axis_reaches_the_run_config() {
        let p = params();
        let c = run_config(&p, &Settings::of(&p, "beta", Some(0.7)));
        assert_eq!((c.alpha, c.beta, c.rating), (1.0, 0.7, 168));
        assert_eq!(run_config(&p, &Settings::of(&p, "beta", None)).beta, 0.1);
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
}
