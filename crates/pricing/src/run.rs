//! One run of one policy of the paper's comparison (§VII) over a QoS
//! workload, and what it measured.
//!
//! [`run_policy`] runs a [`Policy`] with the settings of a [`RunConfig`]:
//! the backfilling baselines through [`backfill`], Libra and Libra+$ on a
//! time-shared cluster of one node per processor through [`time_shared`].
//! Both report [`RunStats`]: the paper's [`Metrics`] (eq. 7 and 8), the
//! rejections by reason and the accepted jobs that missed their deadline.

use crate::admission::{Admission, LibraAdmission, Rejection};
use crate::baseline::{BaselineScheduler, DropRule, backfill};
use crate::cluster::{Submission, simulate_with};
use crate::config::{ClusterConfig, Committed, MAX_NODES};
use crate::control::JobControl;
use crate::error::{PolicyError, PricingError};
use crate::price::{Flat, LibraDollar, LibraStatic, PriceFunction};
use crate::qos::Metrics;
use crate::series::Policy;
use crate::workload::QosJob;

/// The settings the policies of a comparison share; [`Default`] gives
/// Table I's values.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// Libra+$'s static factor `α`.
    pub alpha: f64,
    /// Libra+$'s dynamic factor `β`, for a [`Policy::LibraDollar`] that
    /// does not fix its own.
    pub beta: f64,
    /// Libra's `γ`.
    pub gamma: f64,
    /// Libra's `δ`.
    pub delta: f64,
    /// `PBase`, $ per second of processor time on any node.
    pub base_price: f64,
    /// SPEC rating of every node, and of the jobs' run times.
    pub rating: u32,
    /// Algorithm 2's open cases on the time-shared nodes.
    pub control: JobControl,
    /// How eq. 6 counts committed processor time.
    pub committed: Committed,
    /// When the backfilling baselines drop a waiting job.
    pub drop: DropRule,
}

impl Default for RunConfig {
    /// `α = 1`, `β = 0.1`, `γ = δ = 1`, `PBase = $1`, SDSC SP2 nodes (SPEC
    /// 168), and the default readings of the open cases.
    fn default() -> Self {
        RunConfig {
            alpha: 1.0,
            beta: 0.1,
            gamma: 1.0,
            delta: 1.0,
            base_price: 1.0,
            rating: 168,
            control: JobControl::default(),
            committed: Committed::default(),
            drop: DropRule::default(),
        }
    }
}

impl RunConfig {
    /// The time-shared cluster: `nodes` identical single-processor nodes,
    /// or [`PricingError::TooManyNodes`] (before anything is allocated) for
    /// more than [`MAX_NODES`].
    pub fn cluster(&self, nodes: u32) -> Result<ClusterConfig, PricingError> {
        let count = nodes as usize;
        if count > MAX_NODES {
            return Err(PricingError::TooManyNodes {
                nodes: u64::from(nodes),
                max: MAX_NODES,
            });
        }
        let mut c = ClusterConfig::homogeneous(count, self.rating, self.base_price);
        c.control = self.control;
        c.committed = self.committed;
        Ok(c)
    }

    /// The pricing function of `policy`: [`Flat`] for a backfilling
    /// baseline, Libra's static cost, or Libra+$ with the policy's own `β`
    /// if it fixes one and [`RunConfig::beta`] otherwise.
    pub fn price(&self, policy: Policy) -> Box<dyn PriceFunction> {
        match policy {
            Policy::Backfill(_) => Box::new(Flat),
            Policy::Libra => Box::new(LibraStatic {
                gamma: self.gamma,
                delta: self.delta,
            }),
            Policy::LibraDollar { beta } => Box::new(LibraDollar {
                alpha: self.alpha,
                beta: beta.unwrap_or(self.beta),
            }),
        }
    }
}

/// Jobs rejected, by the reason of Algorithm 1, and those a user's
/// [`Admission`] rule rejected for reasons of its own.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rejections {
    /// [`Rejection::CannotMeetResources`].
    pub resources: usize,
    /// [`Rejection::CannotMeetDeadline`]; for a backfilling baseline, the
    /// jobs it dropped.
    pub deadline: usize,
    /// [`Rejection::CannotMeetBudget`].
    pub budget: usize,
    /// [`Rejection::Custom`]: a user's admission rule said no (the reasons
    /// are in the jobs' outcomes).
    pub custom: usize,
}

impl Rejections {
    /// Counts one rejection under its reason.
    pub fn record(&mut self, rejection: &Rejection) {
        match rejection {
            Rejection::CannotMeetResources { .. } => self.resources += 1,
            Rejection::CannotMeetDeadline { .. } => self.deadline += 1,
            Rejection::CannotMeetBudget { .. } => self.budget += 1,
            Rejection::Custom(_) => self.custom += 1,
        }
    }

    /// All rejections.
    pub fn total(&self) -> usize {
        self.resources + self.deadline + self.budget + self.custom
    }
}

/// What one run of a policy measured.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Jobs submitted and accepted, Job QoS Satisfaction and Cluster
    /// Profitability.
    pub metrics: Metrics,
    /// The jobs not accepted, by reason.
    pub rejected: Rejections,
    /// Accepted jobs that finished after their deadline.
    pub late: usize,
}

impl RunStats {
    /// `count` as a percentage of the submitted jobs (`100 · count / n`);
    /// 0 without jobs.
    pub fn percent(&self, count: usize) -> f64 {
        100.0 * count as f64 / self.metrics.submitted.max(1) as f64
    }
}

/// Libra or Libra+$ (whatever `price` is) on the time-shared cluster
/// `cluster`: the jobs arrive in order, Algorithm 1 admits them, Algorithm 2
/// runs them. An accepted job is late if it ends after its deadline.
///
/// # Errors
///
/// [`PolicyError::Pricing`] for an invalid cluster, a job outside the
/// time domain ([`QosJob::check`]), jobs out of arrival order, or a job
/// that would run past `profile::Time::LATEST`;
/// [`PolicyError::Unfinished`] and [`PolicyError::TooFast`] would be bugs in
/// this crate, checked on every accepted job; a run whose summed budgets or
/// costs overflow ([`Metrics::profitability`]'s error), so the metrics of
/// every run it returns are finite.
pub fn time_shared(
    cluster: &ClusterConfig,
    price: &dyn PriceFunction,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    time_shared_with(cluster, price, LibraAdmission, jobs)
}

/// [`time_shared`] with the admission rule `admission` instead of
/// Algorithm 1: a user's [`Admission`] on the same cluster, with its
/// [`Rejection::Custom`]s counted under [`Rejections::custom`].
///
/// # Errors
///
/// As [`time_shared`], and the admission rule's errors
/// ([`PolicyError::Pricing`]).
pub fn time_shared_with<A: Admission>(
    cluster: &ClusterConfig,
    price: &dyn PriceFunction,
    admission: A,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    jobs.iter().try_for_each(QosJob::check)?;
    let submissions: Vec<Submission> = jobs.iter().map(QosJob::submission).collect();
    let outcomes = simulate_with(cluster, &submissions, price, admission)?;
    let mut stats = RunStats {
        metrics: Metrics::of(&outcomes),
        ..RunStats::default()
    };
    for (j, o) in jobs.iter().zip(&outcomes) {
        if let Some(r) = o.decision.rejection() {
            stats.rejected.record(r);
            continue;
        }
        let finish = o.finish.ok_or(PolicyError::Unfinished { job: j.id })?;
        if finish - j.submit < j.run_time {
            return Err(PolicyError::TooFast {
                job: j.id,
                run_time: j.run_time,
                took: finish - j.submit,
            });
        }
        stats.late += usize::from(!o.met_deadline());
    }
    finite(stats)
}

/// Runs `policy` over `jobs` on a machine of `capacity` processors with the
/// settings of `config`: a backfilling baseline space-shares it
/// ([`backfill`]), Libra and Libra+$ time-share it as `capacity`
/// single-processor nodes ([`time_shared`]; at most [`MAX_NODES`]).
///
/// Every job is checked first ([`QosJob::check`]); any error is returned,
/// never a panic, and every run ends. A run whose summed budgets or costs
/// overflow is refused ([`Metrics::profitability`]'s error), so the
/// metrics of every run it returns are finite.
///
/// ```
/// use pricing::{run_policy, QosWorkload, RunConfig, Series};
/// use profile::{Job, Time};
///
/// let trace: Vec<Job> = (0..40).map(|i| Job::new(i, Time(i as i64 * 300), 1 + (i % 4) as u32, 2000, 1800)).collect();
/// let jobs = QosWorkload::TABLE_I.jobs(&trace, 1)?;
/// for name in ["fcfs-bf", "libra", "libra+$", "libra+$-b1.0"] {
///     let series: Series = name.parse()?;
///     let stats = run_policy(series.policy(), &RunConfig::default(), 4, &jobs)?;
///     let m = stats.metrics;
///     assert_eq!(m.submitted, 40);
///     assert_eq!(m.accepted + stats.rejected.total(), 40);
///     assert!(m.qos_met <= m.accepted && (0.0..=1.0).contains(&m.profitability()?));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_policy(
    policy: Policy,
    config: &RunConfig,
    capacity: u32,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    match policy {
        Policy::Backfill(baseline) => run_baseline(baseline, config, capacity, jobs),
        Policy::Libra | Policy::LibraDollar { .. } => time_shared(
            &config.cluster(capacity)?,
            config.price(policy).as_ref(),
            jobs,
        ),
    }
}

/// Runs the baseline `baseline` (one of the paper's [`Baseline`](crate::Baseline)s,
/// a `profile::SchedulerConfig`, or a user's [`BaselineScheduler`]) over
/// `jobs` on a space-shared machine of `capacity` processors, with the drop
/// rule and base price of `config`: what [`run_policy`] does for
/// [`Policy::Backfill`], for any scheduler.
///
/// # Errors
///
/// As [`backfill`], and a run whose summed budgets or costs overflow
/// ([`Metrics::profitability`]'s error).
///
/// ```
/// use pricing::{run_baseline, run_policy, Baseline, Policy, QosWorkload, RunConfig};
/// use profile::{Job, Policy as Easy, QueueOrder, SchedulerConfig, Time};
///
/// let trace: Vec<Job> = (0..40).map(|i| Job::new(i, Time(i as i64 * 300), 1 + (i % 4) as u32, 2000, 1800)).collect();
/// let jobs = QosWorkload::TABLE_I.jobs(&trace, 1)?;
/// let config = RunConfig::default();
/// // Conservative backfilling in deadline order, as profile configures it.
/// let conservative = SchedulerConfig::new(4, Easy::Conservative)
///     .order(QueueOrder::EarliestDeadline)
///     .drop_expired(true);
/// let stats = run_baseline(&conservative, &config, 4, &jobs)?;
/// assert_eq!(stats.metrics.accepted + stats.rejected.total(), 40);
/// // The paper's EDF-BF, by name or by the enum: the same run.
/// assert_eq!(
///     run_baseline(Baseline::EdfBf, &config, 4, &jobs)?,
///     run_policy(Policy::Backfill(Baseline::EdfBf), &config, 4, &jobs)?,
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_baseline<B: BaselineScheduler>(
    baseline: B,
    config: &RunConfig,
    capacity: u32,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    finite(backfill(
        baseline,
        config.drop,
        capacity,
        config.base_price,
        jobs,
    )?)
}

/// `stats` if its profitability is a number: sums of huge budgets or costs
/// can overflow, and such a run is refused rather than reported.
fn finite(stats: RunStats) -> Result<RunStats, PolicyError> {
    stats.metrics.profitability()?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::price::Quote;

    #[test]
    fn rejections_are_counted_by_type() {
        let mut r = Rejections::default();
        r.record(&Rejection::CannotMeetResources {
            capable: 0,
            processors: 1,
        });
        r.record(&Rejection::CannotMeetBudget {
            affordable: 1,
            processors: 2,
        });
        r.record(&Rejection::CannotMeetBudget {
            affordable: 0,
            processors: 2,
        });
        assert_eq!(
            r,
            Rejections {
                resources: 1,
                deadline: 0,
                budget: 2,
                custom: 0,
            }
        );
        assert_eq!(r.total(), 3);
    }

    #[test]
    fn percent_of_submitted() {
        let mut s = RunStats::default();
        assert_eq!(s.percent(0), 0.0);
        s.metrics.submitted = 8;
        assert_eq!(s.percent(2), 25.0);
    }

    #[test]
    fn a_series_beta_overrides_the_config() {
        let config = RunConfig::default();
        let quote = Quote {
            runtime_estimate: 10,
            deadline: 100,
            base_price: 1.0,
            res_max: 100,
            committed: 40,
        };
        // P = 1 + β · 100/50.
        let spec = crate::JobSpec::new(10, 1, 100, 100.0);
        let job = crate::JobContext::new(1, profile::Time(0), &spec);
        let cost = |p: Policy| config.price(p).cost(&job, &quote).unwrap();
        assert!((cost(Policy::LibraDollar { beta: None }) - 12.0).abs() < 1e-12);
        assert!((cost(Policy::LibraDollar { beta: Some(1.0) }) - 30.0).abs() < 1e-12);
        assert!((cost(Policy::Libra) - 10.1).abs() < 1e-12);
        assert_eq!(cost(Policy::Backfill(crate::Baseline::SjfBf)), 10.0);
    }

    #[test]
    fn the_cluster_has_one_node_per_processor() {
        let config = RunConfig {
            committed: Committed::Window,
            ..RunConfig::default()
        };
        let c = config.cluster(3).unwrap();
        assert_eq!((c.nodes.len(), c.reference_rating), (3, 168));
        assert_eq!(c.committed, Committed::Window);
        // More than MAX_NODES is refused before anything is allocated.
        assert_eq!(
            config.cluster(u32::MAX),
            Err(PricingError::TooManyNodes {
                nodes: u64::from(u32::MAX),
                max: MAX_NODES
            })
        );
    }
}
