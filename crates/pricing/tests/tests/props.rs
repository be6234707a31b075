//! Property tests: the mechanisms' guarantees on random jobs, clusters and
//! settings. One `check_*` helper per invariant, shared by the cases.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use pricing::{
    Cluster, ClusterConfig, Committed, Decision, Demand, Flat, JobContext, JobControl, JobOutcome,
    JobSpec, Late, LibraDollar, LibraStatic, NodeLoad, PriceFunction, Quote, Rejection, Rejections,
    Spare, Submission, admit, libra_dollar_rate, simulate,
};
use profile::Time;

/// Slack for sums of shares computed in floating point.
const EPS: f64 = 1e-9;

#[derive(Clone, Debug)]
struct Setting {
    nodes: usize,
    control: JobControl,
    committed: Committed,
    /// 0: flat, 1: Libra, 2..: Libra+$ with β = 0.1, 0.5, 1.0.
    price: usize,
}

impl Setting {
    fn config(&self) -> ClusterConfig {
        let mut c = ClusterConfig::homogeneous(self.nodes, 168, 1.0);
        c.control = self.control;
        c.committed = self.committed;
        c
    }

    fn price(&self) -> Box<dyn PriceFunction> {
        match self.price {
            0 => Box::new(Flat),
            1 => Box::new(LibraStatic {
                gamma: 1.0,
                delta: 1.0,
            }),
            k => Box::new(LibraDollar {
                alpha: 1.0,
                beta: [0.1, 0.5, 1.0][(k - 2) % 3],
            }),
        }
    }
}

fn setting() -> impl Strategy<Value = Setting> {
    let spare = prop_oneof![
        Just(Spare::Equal),
        Just(Spare::Proportional),
        Just(Spare::Idle)
    ];
    let late = prop_oneof![Just(Late::Full), Just(Late::Zero)];
    let committed = prop_oneof![
        Just(Committed::Window),
        Just(Committed::Remaining),
        Just(Committed::Estimate)
    ];
    (1usize..=4, spare, late, committed, 0usize..5)
        .prop_filter("idle + zero is refused", |(_, s, l, _, _)| {
            !(*s == Spare::Idle && *l == Late::Zero)
        })
        .prop_map(|(nodes, spare, late, committed, price)| Setting {
            nodes,
            control: JobControl { spare, late },
            committed,
            price,
        })
}

/// Jobs for a cluster of `nodes` nodes; with `exact`, run time = estimate,
/// otherwise the estimate may under-estimate the run time.
fn jobs(nodes: usize, exact: bool) -> impl Strategy<Value = Vec<Submission>> {
    let job = (
        0i64..120,
        1i64..300,
        1..=nodes as u32,
        0i64..1200,
        0.3f64..4.0,
        0i64..300,
    );
    prop::collection::vec(job, 1..25).prop_map(move |v| {
        let mut at = 0;
        v.into_iter()
            .enumerate()
            .map(|(i, (gap, re, procs, slack, b, extra))| {
                at += gap;
                Submission {
                    id: i as u64,
                    arrival: Time(at),
                    spec: JobSpec::new(re, procs, re + slack, b * re as f64),
                    run_time: if exact { re } else { re + extra },
                }
            })
            .collect()
    })
}

/// Rates on every node sum to at most one processor; with exact estimates
/// the partitions do too.
fn check_shares(c: &Cluster, nodes: usize, exact: bool) -> Result<(), TestCaseError> {
    for j in 0..nodes {
        let tasks = c.node(j);
        let rate: f64 = tasks.iter().map(|t| t.rate).sum();
        prop_assert!(
            rate <= 1.0 + EPS,
            "node {j} at {}: rates sum to {rate}",
            c.now()
        );
        prop_assert!(tasks.iter().all(|t| t.rate >= 0.0 && t.partition >= 0.0));
        prop_assert!(tasks.iter().all(|t| t.cpu_done <= t.work));
        if exact {
            let share: f64 = tasks.iter().map(|t| t.partition).sum();
            prop_assert!(
                share <= 1.0 + EPS,
                "node {j} at {}: shares sum to {share}",
                c.now()
            );
        }
    }
    Ok(())
}

/// Replays `jobs` event by event, checking the shares after every step.
fn run_checked(
    s: &Setting,
    jobs: &[Submission],
    exact: bool,
) -> Result<Vec<JobOutcome>, TestCaseError> {
    let mut c = Cluster::new(s.config()).unwrap();
    let price = s.price();
    for job in jobs {
        while c.next_event().is_some_and(|t| t <= job.arrival) {
            c.step();
            check_shares(&c, s.nodes, exact)?;
        }
        c.submit(job.arrival, job.id, &job.spec, job.run_time, price.as_ref())
            .unwrap();
        check_shares(&c, s.nodes, exact)?;
    }
    while c.step().is_some() {
        check_shares(&c, s.nodes, exact)?;
    }
    Ok(c.outcomes())
}

/// Every accepted job pays no more than its budget and finishes, no sooner
/// than its run time allows; rejected jobs never run.
fn check_accounting(jobs: &[Submission], out: &[JobOutcome]) -> Result<(), TestCaseError> {
    prop_assert_eq!(jobs.len(), out.len());
    for (j, o) in jobs.iter().zip(out) {
        prop_assert_eq!(j.id, o.id);
        match &o.decision {
            Decision::Accept(a) => {
                prop_assert!(a.cost <= j.spec.qos_constraints.budget, "{o:?}");
                prop_assert_eq!(
                    a.nodes.len(),
                    j.spec.resource_requirements.processors as usize
                );
                let finish = o
                    .finish
                    .ok_or_else(|| TestCaseError::fail(format!("{o:?} never ends")))?;
                prop_assert!(
                    finish - j.arrival >= j.run_time,
                    "{o:?} ran faster than one processor"
                );
            }
            Decision::Reject(_) => prop_assert_eq!(o.finish, None),
        }
    }
    Ok(())
}

/// With exact estimates every accepted job meets its deadline.
fn check_deadlines(out: &[JobOutcome]) -> Result<(), TestCaseError> {
    for o in out.iter().filter(|o| o.cost().is_some()) {
        prop_assert!(o.met_deadline(), "accepted job missed its deadline: {o:?}");
        prop_assert!(o.met_qos());
    }
    Ok(())
}

/// Algorithm 1's answer is consistent with the snapshot it was given.
fn check_admission(
    job: &JobSpec,
    loads: &[NodeLoad],
    price: &dyn PriceFunction,
) -> Result<(), TestCaseError> {
    let context = JobContext::new(0, Time(0), job);
    let cost = |n: &NodeLoad| price.cost(&context, &n.quote);
    let need = job.resource_requirements.processors as usize;
    let capable = loads.iter().filter(|n| n.has_resources(job)).count();
    let in_time: Vec<&NodeLoad> = loads
        .iter()
        .filter(|n| n.has_resources(job) && n.meets_deadline(job) && cost(n).is_ok())
        .collect();
    let budget = job.qos_constraints.budget;
    let affordable = in_time
        .iter()
        .filter(|n| cost(n).unwrap() <= budget)
        .count();
    match admit(&context, loads, price).unwrap() {
        Decision::Accept(a) => {
            prop_assert!(capable >= need && in_time.len() >= need && affordable >= need);
            prop_assert_eq!(a.nodes.len(), need);
            let mut costs = Vec::new();
            for (k, &n) in a.nodes.iter().enumerate() {
                prop_assert!(!a.nodes[..k].contains(&n), "node {n} chosen twice");
                let load = in_time.iter().find(|l| l.node == n).ok_or_else(|| {
                    TestCaseError::fail(format!("node {n} does not meet the deadline"))
                })?;
                costs.push(cost(load).unwrap());
            }
            prop_assert!(costs.iter().all(|&c| c <= budget));
            prop_assert_eq!(a.cost, costs.iter().copied().fold(f64::MIN, f64::max));
        }
        Decision::Reject(Rejection::CannotMeetResources { capable: c, .. }) => {
            prop_assert!(c == capable && c < need);
        }
        Decision::Reject(Rejection::CannotMeetDeadline { in_time: t, .. }) => {
            prop_assert!(capable >= need && t == in_time.len() && t < need);
        }
        Decision::Reject(Rejection::CannotMeetBudget { affordable: a, .. }) => {
            prop_assert!(in_time.len() >= need && a == affordable && a < need);
        }
        Decision::Reject(other) => prop_assert!(false, "unexpected rejection {other:?}"),
    }
    Ok(())
}

/// The Libra+$ rate rises with committed load and falls with a longer
/// window for the same work, if there is any (with none committed or asked
/// it is the same for every window), and never drops below α·PBase.
fn check_price_monotone(
    d: Demand,
    extra_load: i64,
    extra_time: i64,
    beta: f64,
) -> Result<(), TestCaseError> {
    let rate = |d: Demand| libra_dollar_rate(1.0, beta, 1.0, d).unwrap();
    let base = rate(d);
    prop_assert!(base >= 1.0);
    let busier = Demand {
        committed: d.committed + extra_load,
        ..d
    };
    if busier.res_free() > 0 && extra_load > 0 {
        prop_assert!(rate(busier) > base, "{d:?} → {busier:?}");
    }
    let longer = Demand {
        res_max: d.res_max + extra_time,
        ..d
    };
    // `RESMax / (RESMax − work)` falls as `RESMax` grows only when there is
    // work: with nothing committed or asked it is 1 for every window.
    if extra_time > 0 && d.committed + d.requested > 0 {
        prop_assert!(rate(longer) < base, "{d:?} → {longer:?}");
    } else if extra_time > 0 {
        prop_assert_eq!(rate(longer), base, "{:?} → {:?}", d, longer);
    }
    Ok(())
}

fn node_load() -> impl Strategy<Value = NodeLoad> {
    (0u64..4, 0u64..4, 0.0f64..1.2, 1i64..2000, 0i64..2000).prop_map(
        |(mem, free, share, d, committed)| NodeLoad {
            node: 0,
            memory_mb: mem * 100,
            disk_mb: 0,
            free_memory_mb: free.min(mem) * 100,
            free_disk_mb: 0,
            share,
            quote: Quote {
                runtime_estimate: 0,
                deadline: d,
                base_price: 1.0,
                res_max: d,
                committed,
            },
        },
    )
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(200))]

    #[test]
    fn exact_estimates_meet_every_deadline(
        (s, jobs) in setting().prop_flat_map(|s| { let n = s.nodes; (Just(s), jobs(n, true)) })
    ) {
        let out = run_checked(&s, &jobs, true)?;
        check_accounting(&jobs, &out)?;
        check_deadlines(&out)?;
    }

    #[test]
    fn under_estimates_keep_rates_within_one_processor(
        (s, jobs) in setting().prop_flat_map(|s| { let n = s.nodes; (Just(s), jobs(n, false)) })
    ) {
        let out = run_checked(&s, &jobs, false)?;
        check_accounting(&jobs, &out)?;
    }

    #[test]
    fn replays_are_deterministic(
        (s, jobs) in setting().prop_flat_map(|s| { let n = s.nodes; (Just(s), jobs(n, false)) })
    ) {
        let price = s.price();
        let a = simulate(&s.config(), &jobs, price.as_ref()).unwrap();
        let b = simulate(&s.config(), &jobs, price.as_ref()).unwrap();
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a, run_checked(&s, &jobs, false)?);
    }

    #[test]
    fn admission_is_consistent_with_its_snapshot(
        loads in prop::collection::vec(node_load(), 0..8),
        re in 1i64..500, procs in 1u32..5, mem in 0u64..4, budget in 0.0f64..3000.0, price in 0usize..5,
    ) {
        let loads: Vec<NodeLoad> = loads
            .into_iter()
            .enumerate()
            .map(|(i, mut l)| {
                l.node = i;
                l.quote.runtime_estimate = re;
                l
            })
            .collect();
        let mut job = JobSpec::new(re, procs, 1, budget);
        job.resource_requirements.memory_mb = mem * 100;
        let s = Setting { nodes: 1, control: JobControl::default(), committed: Committed::Window, price };
        check_admission(&job, &loads, s.price().as_ref())?;
    }

    #[test]
    fn libra_dollar_price_is_monotone(
        res_max in 2i64..100_000, load in 0.0f64..1.0, asked in 0.0f64..1.0,
        extra_load in 0i64..1000, extra_time in 0i64..1000, beta in 0.01f64..2.0,
    ) {
        // Committed and requested shares of the window that leave some free.
        let committed = (load * (res_max - 1) as f64) as i64;
        let requested = (asked * (res_max - 1 - committed) as f64) as i64;
        let d = Demand { res_max, committed, requested };
        prop_assert!(d.res_free() > 0);
        check_price_monotone(d, extra_load, extra_time, beta)?;
    }
}

/// A longer seeded run on a loaded cluster: the same invariants, and every
/// path is taken (all three rejections, nodes shared by several jobs).
#[test]
fn a_long_seeded_run_exercises_every_path() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    let mut at = 0;
    let jobs: Vec<Submission> = (0..3000)
        .map(|i| {
            at += rng.random_range(0..40);
            let re = rng.random_range(1..2000);
            let d = (re as f64 * rng.random_range(1.0..6.0)) as i64 + 1;
            let mut spec = JobSpec::new(
                re,
                rng.random_range(1..=8),
                d,
                re as f64 * rng.random_range(0.5..3.0),
            );
            spec.resource_requirements.memory_mb = if i % 50 == 0 { 9000 } else { 100 };
            Submission {
                id: i,
                arrival: Time(at),
                spec,
                run_time: re,
            }
        })
        .collect();
    let s = Setting {
        nodes: 8,
        control: JobControl::default(),
        committed: Committed::Window,
        price: 3,
    };
    let mut config = s.config();
    for n in &mut config.nodes {
        n.memory_mb = 4096;
    }
    let mut c = Cluster::new(config).unwrap();
    let price = s.price();
    let mut most = 0;
    for job in &jobs {
        while c.next_event().is_some_and(|t| t <= job.arrival) {
            c.step();
            check_shares(&c, s.nodes, true).unwrap();
        }
        c.submit(job.arrival, job.id, &job.spec, job.run_time, price.as_ref())
            .unwrap();
        check_shares(&c, s.nodes, true).unwrap();
        most = most.max((0..s.nodes).map(|j| c.node(j).len()).max().unwrap_or(0));
    }
    c.run_to_completion().unwrap();
    let out = c.outcomes();
    check_accounting(&jobs, &out).unwrap();
    check_deadlines(&out).unwrap();
    let mut rejected = Rejections::default();
    for r in out.iter().filter_map(|o| o.decision.rejection()) {
        rejected.record(r);
    }
    let accepted = out.iter().filter(|o| o.cost().is_some()).count();
    assert_eq!(accepted + rejected.total(), out.len());
    let counts = [
        accepted,
        rejected.resources,
        rejected.deadline,
        rejected.budget,
    ];
    assert!(
        counts.iter().all(|&n| n > 0),
        "accepted and rejections: {counts:?}"
    );
    assert!(most >= 3, "at most {most} jobs shared a node");
}

/// The property's edge, which its random draws rarely reach (explore found
/// it at 20 times the gate's cases): with nothing committed or asked, the
/// Libra+$ rate is the same for every window; with one unit of work it
/// falls as the window grows.
#[test]
fn libra_dollar_price_without_work_is_the_same_for_every_window() {
    for res_max in [2, 3, 10, 99_999] {
        for extra_time in [1, 7, 999] {
            let idle = Demand {
                res_max,
                committed: 0,
                requested: 0,
            };
            check_price_monotone(idle, 0, extra_time, 0.01).unwrap();
            check_price_monotone(idle, 1, extra_time, 2.0).unwrap();
            let one = Demand {
                requested: 1,
                ..idle
            };
            check_price_monotone(one, 0, extra_time, 0.01).unwrap();
            let rate = |d: Demand| pricing::libra_dollar_rate(1.0, 0.1, 1.0, d).unwrap();
            assert_eq!(rate(idle), 1.1);
        }
    }
}
