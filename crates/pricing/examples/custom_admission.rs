//! A custom admission rule and a custom price on Libra's time-shared cluster.
//!
//! The rule turns away jobs that offer less than a floor per
//! processor-second of their estimate, with a reason of its own, and leaves
//! every other job to Libra's Algorithm 1. The price is Libra+$ with a night
//! discount: jobs arriving between midnight and 6 am pay 20 % less.
//!
//! Run with `cargo run -p usched-pricing --example custom_admission`.

use pricing::{
    Admission, ClusterConfig, Decision, JobContext, LibraDollar, NodeLoad, PriceFunction,
    PricingError, QosWorkload, Rejection, RunConfig, admit, simulate_with, time_shared_with,
};
use profile::{Job, Time};

/// Rejects a job offering less than `floor` dollars per processor-second;
/// Algorithm 1 decides the rest.
struct BudgetFloor {
    floor: f64,
    rejected: usize,
}

impl Admission for BudgetFloor {
    fn admit(
        &mut self,
        job: &JobContext<'_>,
        nodes: &[NodeLoad],
        price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError> {
        let processor_seconds = f64::from(job.processors()) * job.runtime_estimate() as f64;
        if job.qos_constraints.budget < self.floor * processor_seconds {
            self.rejected += 1;
            let reason = format!("budget below ${:.2} per processor-second", self.floor);
            return Ok(Decision::Reject(Rejection::Custom(reason)));
        }
        admit(job, nodes, price)
    }
}

/// Libra+$, 20 % off for jobs arriving between midnight and 6 am.
struct NightDiscount(LibraDollar);

impl PriceFunction for NightDiscount {
    fn cost(&self, job: &JobContext<'_>, quote: &pricing::Quote) -> Result<f64, PricingError> {
        let cost = self.0.cost(job, quote)?;
        let hour = job.arrival.secs().rem_euclid(86_400) / 3600;
        Ok(if hour < 6 { 0.8 * cost } else { cost })
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 120 jobs of 1 to 4 processors, one every 6 minutes over 12 hours, on 4
    // nodes; Table I's deadlines and budgets.
    let trace: Vec<Job> = (0..120)
        .map(|i| {
            Job::new(
                i,
                Time(360 * i as i64),
                1 + (i % 4) as u32,
                3600,
                1800 + 60 * (i % 7) as i64,
            )
        })
        .collect();
    let jobs = QosWorkload::TABLE_I.jobs(&trace, 7)?;
    let cluster: ClusterConfig = RunConfig::default().cluster(4)?;
    let price = NightDiscount(LibraDollar {
        alpha: 1.0,
        beta: 0.1,
    });

    let mut rule = BudgetFloor {
        floor: 1.0,
        rejected: 0,
    };
    let submissions: Vec<_> = jobs.iter().map(|j| j.submission()).collect();
    let outcomes = simulate_with(&cluster, &submissions, &price, &mut rule)?;

    let mut custom = 0;
    for (job, out) in jobs.iter().zip(&outcomes) {
        let per_processor_second = job.budget / (f64::from(job.procs) * job.estimate as f64);
        match &out.decision {
            Decision::Reject(r @ Rejection::Custom(_)) => {
                assert_eq!(r.reason(), "budget below $1.00 per processor-second");
                assert!(per_processor_second < 1.0);
                custom += 1;
            }
            Decision::Reject(_) => assert!(per_processor_second >= 1.0),
            Decision::Accept(a) => {
                assert!(per_processor_second >= 1.0);
                assert!(
                    a.cost <= job.budget,
                    "job {} pays {} > {}",
                    job.id,
                    a.cost,
                    job.budget
                );
            }
        }
    }
    assert!(custom > 0 && custom == rule.rejected);

    // The comparison's statistics count the rule's rejections apart.
    let stats = time_shared_with(
        &cluster,
        &price,
        BudgetFloor {
            floor: 1.0,
            rejected: 0,
        },
        &jobs,
    )?;
    assert_eq!(stats.rejected.custom, custom);
    assert_eq!(stats.metrics.accepted + stats.rejected.total(), jobs.len());
    println!(
        "{} jobs: {} accepted, {custom} below the floor, {} rejected by Algorithm 1; QoS {:.0}%",
        jobs.len(),
        stats.metrics.accepted,
        stats.rejected.total() - custom,
        100.0 * stats.metrics.qos_satisfaction(),
    );
    Ok(())
}
