//! `kind = "pricing"`: Yeo & Buyya's Libra+$ (the `pricing` crate) against
//! Libra and three EASY-backfilling baselines, on a trace given deadlines
//! and budgets by the paper's two urgency classes.
//!
//! ```toml
//! series = ["fcfs-bf", "sjf-bf", "edf-bf", "libra", "libra+$", "libra+$-b0.5"]
//! [params]
//! policy = "libra+$"     # set by each series: fcfs-bf | sjf-bf | edf-bf | libra | libra+$
//! alpha = 1.0            # Libra+$ static factor α
//! beta = 0.1             # Libra+$ dynamic factor β
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
//! A series name is a `pricing::Series`: `fcfs-bf`, `sjf-bf`, `edf-bf` (EASY
//! with that queue order, on the machine space-shared), `libra` (Libra's
//! static cost) and `libra+$` each set `policy`; `libra+$-b<β>` stands for
//! `{ policy = "libra+$", beta = <β> }`. Libra and Libra+$ run on the same
//! machine time-shared, one node per processor. Any key can be swept. The
//! policies, the QoS workload and the measurements are the `pricing`
//! crate's (`run_policy`, `QosWorkload`, `RunStats`).
//!
//! The deadlines and budgets are drawn per repetition from a stream derived
//! from the repetition seed, so every series and every x value sees the same
//! jobs (common random numbers).

use ::pricing::{
    Committed, DropRule, JobControl, Late, Policy, PolicyError, RunConfig, RunStats, Series, Spare,
    UrgencyModel, run_policy,
};
use profile::ShortFloat;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use crate::error::RunError;
use crate::kind::{Input, Kind, Metric, Param, ParamError, Setup, overrides};
use crate::kinds::registered;
use crate::registry::PolicyName;
use crate::workload::Workload;

mod canonical;
mod notes;
mod params;
mod qos;
pub(crate) mod setup;

/// The pricing runner.
pub(crate) struct Pricing;

/// `[params]` of a pricing experiment; defaults are the paper's Table I.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Params {
    /// The policy (each series sets it); a name without a fixed β, or a
    /// registered policy's name (run as a backfilling baseline).
    pub policy: PolicyName<Series>,
    /// Libra+$'s static factor α.
    pub alpha: f64,
    /// Libra+$'s dynamic factor β.
    pub beta: f64,
    /// Libra's γ.
    pub gamma: f64,
    /// Libra's δ.
    pub delta: f64,
    /// `PBase`, $ per second of processor time on any node.
    pub base_price: f64,
    /// Inter-arrival times of the trace are multiplied by this.
    pub arrival_delay: f64,
    /// % of high-urgency jobs.
    pub high_urgency: f64,
    /// % runtime under-estimation.
    pub inaccuracy: f64,
    /// Mean of the low `D/R` value (the high-urgency class).
    pub deadline_low_mean: f64,
    /// High:low ratio of the `D/R` means.
    pub deadline_ratio: f64,
    /// Mean of the low `B/f(R)` value (the low-urgency class).
    pub budget_low_mean: f64,
    /// High:low ratio of the `B/f(R)` means.
    pub budget_ratio: f64,
    /// Standard deviation of a factor as a fraction of its class mean.
    pub spread: f64,
    /// SPEC rating of every node (and of the trace's run times).
    pub rating: u32,
    /// Algorithm 2: unclaimed processor time.
    pub spare: Spare,
    /// Algorithm 2: a late job's partition.
    pub late: Late,
    /// Eq. 6: the committed processor time.
    pub committed: Committed,
    /// The backfilling baselines' drop rule.
    pub drop: DropRule,
}

impl Default for Params {
    /// Table I with the paper's arrival delay 0.5, 20 % high urgency.
    fn default() -> Self {
        let run = RunConfig::default();
        let urgency = UrgencyModel::TABLE_I;
        Params {
            policy: PolicyName::BuiltIn(Series::from(Policy::LibraDollar { beta: None })),
            alpha: run.alpha,
            beta: run.beta,
            gamma: run.gamma,
            delta: run.delta,
            base_price: run.base_price,
            arrival_delay: 0.5,
            high_urgency: 20.0,
            inaccuracy: 0.0,
            deadline_low_mean: urgency.deadline_low_mean,
            deadline_ratio: urgency.deadline_ratio,
            budget_low_mean: urgency.budget_low_mean,
            budget_ratio: urgency.budget_ratio,
            spread: urgency.spread,
            rating: run.rating,
            spare: run.control.spare,
            late: run.control.late,
            committed: run.committed,
            drop: run.drop,
        }
    }
}

/// The policies' shared settings.
fn run_config(params: &Params) -> RunConfig {
    RunConfig {
        alpha: params.alpha,
        beta: params.beta,
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

/// A failed run of policy `name` as the pipeline reports it.
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

/// `Err` naming `key` unless `ok`.
fn require(ok: bool, key: &str, value: f64, expected: &str) -> Result<(), ParamError> {
    if ok {
        Ok(())
    } else {
        Err(ParamError::key(
            key,
            format!("is {}, expected {expected}", ShortFloat(value)),
        ))
    }
}

impl Kind for Pricing {
    const NAME: &'static str = "pricing";
    const ONE_SAMPLE: bool = true; // one machine (or grid) measured as a whole
    const ESTIMATES: bool = false; // run times less `inaccuracy` (`QosWorkload`)
    type Params = Params;
    type Sample = RunStats;
    const METRICS: &'static [Metric<RunStats>] = &[
        Metric::new(
            "qos",
            "Job QoS Satisfaction",
            "Job QoS Satisfaction (%)",
            |s| Some(100.0 * s.metrics.qos_satisfaction()),
        ),
        Metric::new(
            "profit",
            "Cluster Profitability",
            "Cluster Profitability (%)",
            |s| s.metrics.profitability().ok().map(|p| 100.0 * p),
        ),
        Metric::new(
            "accepted",
            "Jobs accepted (started, for backfilling)",
            "jobs accepted (% of submitted)",
            |s| Some(s.percent(s.metrics.accepted)),
        ),
        Metric::new(
            "rejected_resources",
            "Rejected: cannot meet resources",
            "jobs (% of submitted)",
            |s| Some(s.percent(s.rejected.resources)),
        ),
        Metric::new(
            "rejected_deadline",
            "Rejected: cannot meet deadline (dropped, for backfilling)",
            "jobs (% of submitted)",
            |s| Some(s.percent(s.rejected.deadline)),
        ),
        Metric::new(
            "rejected_budget",
            "Rejected: cannot meet budget",
            "jobs (% of submitted)",
            |s| Some(s.percent(s.rejected.budget)),
        ),
        Metric::new(
            "late",
            "Accepted jobs that missed their deadline",
            "jobs (% of submitted)",
            |s| Some(s.percent(s.late)),
        ),
        Metric::new("jobs", "Jobs submitted", "jobs", |s| {
            Some(s.metrics.submitted as f64)
        }),
    ];
    const RENAMED: &'static [(&'static str, &'static str)] = &[(
        "policies",
        "list the policies as top-level `series = [...]`",
    )];
    const PARAMS: &'static [Param] = params::PARAMS;
    const SERIES: &'static str = "fcfs-bf | sjf-bf | edf-bf | libra | libra+$ | libra+$-b<beta> (libra+$ with beta fixed) | a registered policy";

    fn series(name: &str) -> Result<toml::Table, String> {
        let series = match name.parse::<PolicyName<Series>>() {
            Ok(PolicyName::BuiltIn(series)) => series,
            // Checked against the registered policies with the parameters.
            _ => return Ok(overrides([("policy", name.into())])),
        };
        let policy = series.policy();
        Ok(match policy.beta().map_err(|e| e.to_string())? {
            Some(beta) => overrides([
                (
                    "policy",
                    Policy::LibraDollar { beta: None }.to_string().into(),
                ),
                ("beta", beta.into()),
            ]),
            None => overrides([("policy", policy.to_string().into())]),
        })
    }

    /// What a run of the policy does not read (`canonical.rs`).
    fn canonical(params: &mut Params) {
        canonical::reset_unread(params);
    }

    fn check(params: &Params, setup: &Setup<'_>) -> Result<(), ParamError> {
        params
            .policy
            .check(setup.policies)
            .map_err(|m| ParamError::key("policy", m))?;
        let fixed = match &params.policy {
            PolicyName::BuiltIn(series) => {
                (series.policy().beta()).map_err(|e| ParamError::key("policy", e.to_string()))?
            }
            PolicyName::Registered(_) => None,
        };
        if let Some(beta) = fixed {
            return Err(ParamError::key(
                "policy",
                format!(
                    "'{}' fixes beta; write policy = \"libra+$\" and beta = {beta}",
                    params.policy.name()
                ),
            ));
        }
        for (key, v) in [
            ("alpha", params.alpha),
            ("beta", params.beta),
            ("gamma", params.gamma),
            ("delta", params.delta),
            ("base_price", params.base_price),
            ("deadline_low_mean", params.deadline_low_mean),
            ("deadline_ratio", params.deadline_ratio),
            ("budget_low_mean", params.budget_low_mean),
            ("budget_ratio", params.budget_ratio),
            ("spread", params.spread),
        ] {
            require(v.is_finite() && v >= 0.0, key, v, "a finite number >= 0")?;
        }
        let delay = params.arrival_delay;
        require(
            delay.is_finite() && delay > 0.0,
            "arrival_delay",
            delay,
            "a positive factor",
        )?;
        let high = params.high_urgency;
        require(
            (0.0..=100.0).contains(&high),
            "high_urgency",
            high,
            "a percentage in [0, 100]",
        )?;
        let inaccuracy = params.inaccuracy;
        require(
            (0.0..100.0).contains(&inaccuracy),
            "inaccuracy",
            inaccuracy,
            "a percentage in [0, 100)",
        )?;
        if params.rating == 0 {
            return Err(ParamError::key(
                "rating",
                "is 0, expected a positive SPEC rating",
            ));
        }
        if params.spare == Spare::Idle && params.late == Late::Zero {
            return Err(ParamError::key(
                "late",
                "\"zero\" with spare = \"idle\" leaves a job with partition 0 stopped for ever; \
                 choose another spare or late setting",
            ));
        }
        Ok(())
    }

    fn run(
        params: &Params,
        input: &Input<'_>,
        _reference: Option<&[RunStats]>,
    ) -> Result<Vec<RunStats>, RunError> {
        let workload = input.workload()?;
        let jobs = qos::qos_jobs(params, workload, input.seed)?;
        let stats = match &params.policy {
            PolicyName::BuiltIn(series) => run_policy(
                series.policy(),
                &run_config(params),
                workload.capacity,
                &jobs,
            )
            .map_err(|e| run_error(series.name(), e))?,
            PolicyName::Registered(name) => registered::baseline(
                name,
                input.policies,
                &run_config(params),
                workload.capacity,
                &jobs,
            )
            .map_err(|e| run_error(name, e))?,
        };
        Ok(vec![stats])
    }

    fn notes(_params: &Params, workloads: &[Arc<Workload>]) -> Vec<String> {
        workloads
            .iter()
            .map(|w| notes::workload_statistics(w))
            .collect()
    }
}
