//! One run of one policy of the paper's comparison (§VII) over a QoS
//! workload, and what it measured.
//!
//! [`run_policy`] runs a [`Policy`] with the settings of a [`RunConfig`]:
//! the backfilling baselines through [`backfill`], Libra and Libra+$ on a
//! time-shared cluster of one node per processor through [`time_shared`].
//! Both report [`RunStats`]: the paper's [`Metrics`] (eq. 7 and 8), the
//! rejections by reason and the accepted jobs that missed their deadline.

use crate::admission::Rejection;
use crate::baseline::{DropRule, backfill};
use crate::cluster::{ClusterConfig, Committed, MAX_NODES, Submission, simulate};
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

/// Jobs rejected, by the reason of Algorithm 1.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rejections {
    /// [`Rejection::CannotMeetResources`].
    pub resources: usize,
    /// [`Rejection::CannotMeetDeadline`]; for a backfilling baseline, the
    /// jobs it dropped.
    pub deadline: usize,
    /// [`Rejection::CannotMeetBudget`].
    pub budget: usize,
}

impl Rejections {
    /// Counts one rejection under its reason.
    pub fn record(&mut self, rejection: &Rejection) {
        match rejection {
            Rejection::CannotMeetResources { .. } => self.resources += 1,
            Rejection::CannotMeetDeadline { .. } => self.deadline += 1,
            Rejection::CannotMeetBudget { .. } => self.budget += 1,
        }
    }

    /// All rejections.
    pub fn total(&self) -> usize {
        self.resources + self.deadline + self.budget
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
/// this crate, checked on every accepted job.
pub fn time_shared(
    cluster: &ClusterConfig,
    price: &dyn PriceFunction,
    jobs: &[QosJob],
) -> Result<RunStats, PolicyError> {
    jobs.iter().try_for_each(QosJob::check)?;
    let submissions: Vec<Submission> = jobs.iter().map(QosJob::submission).collect();
    let outcomes = simulate(cluster, &submissions, price)?;
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
    Ok(stats)
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
    let stats = match policy {
        Policy::Backfill(baseline) => {
            backfill(baseline, config.drop, capacity, config.base_price, jobs)
        }
        Policy::Libra | Policy::LibraDollar { .. } => time_shared(
            &config.cluster(capacity)?,
            config.price(policy).as_ref(),
            jobs,
        ),
    }?;
    // Sums of huge budgets or costs can overflow: refuse the run rather
    // than report a profitability that is not a number.
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
                budget: 2
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
        let cost = |p: Policy| config.price(p).cost(&quote).unwrap();
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
