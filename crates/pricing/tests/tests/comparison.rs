//! The paper's comparison: QoS workloads, every policy through
//! `run_policy`, a case worked by hand, and the invariants of the run
//! statistics on random workloads (one `check_*` helper per invariant).

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use pricing::{
    Baseline, DropRule, Policy, PolicyError, QosJob, QosWorkload, RunConfig, RunStats, Series,
    UrgencyModel, run_policy,
};
use profile::{Job, Time};

const POLICIES: [Policy; 6] = [
    Policy::Backfill(Baseline::FcfsBf),
    Policy::Backfill(Baseline::SjfBf),
    Policy::Backfill(Baseline::EdfBf),
    Policy::Libra,
    Policy::LibraDollar { beta: None },
    Policy::LibraDollar { beta: Some(1.0) },
];

fn job(id: u64, submit: i64, procs: u32, r: i64, deadline: i64, budget: f64) -> QosJob {
    QosJob {
        id,
        submit: Time(submit),
        procs,
        run_time: r,
        estimate: r,
        deadline,
        budget,
    }
}

/// Three jobs on a 2-processor machine, worked by hand (see the comments).
#[test]
fn every_machine_by_hand() {
    let jobs = [
        job(1, 0, 2, 100, 150, 300.0),
        job(2, 10, 1, 50, 60, 40.0),
        job(3, 20, 1, 30, 200, 100.0),
    ];
    let config = RunConfig::default();
    let run = |p: Policy| run_policy(p, &config, 2, &jobs).unwrap();
    // FCFS-BF: job 1 runs [0, 100]; job 2 waits and is dropped at 100
    // (100 + 50 > 70); job 3 runs [100, 130]. Both pay RE · $1.
    let bf = run(Policy::Backfill(Baseline::FcfsBf));
    let m = bf.metrics;
    assert_eq!(
        (m.qos_met, m.accepted, bf.rejected.deadline, bf.late),
        (2, 2, 1, 0)
    );
    assert_eq!((m.earned, m.budgets), (130.0, 440.0));
    // Libra: job 1 takes 2/3 of both nodes (cost 100 + 100/150); at 10 it
    // needs 90/140 and job 2's 50/60 does not fit; at 20 job 3's 0.15 fits
    // beside 80/130 (cost 30 + 30/200). Sharing node 0 in proportion to
    // 0.615 : 0.15, job 1 ends at 120 and job 3 at 131.
    let libra = run(Policy::Libra);
    let m = libra.metrics;
    assert_eq!(
        (m.qos_met, m.accepted, libra.rejected.total(), libra.late),
        (2, 2, 1, 0)
    );
    assert_eq!(libra.rejected.deadline, 1);
    let earned = 100.0 + 100.0 / 150.0 + 30.0 + 30.0 / 200.0;
    assert!((m.earned - earned).abs() < 1e-9, "{}", m.earned);
    // Libra+$ with β = 1 on an idle node: RESFree = 150 − 100 = 50,
    // P = 1 + 150/50 = 4, cost 400 > 300. Job 2: P = 1 + 60/10 = 7, cost
    // 350 > 40. Job 3: P = 1 + 200/170, cost 65.3.
    let dollar = run(Policy::LibraDollar { beta: Some(1.0) });
    assert_eq!(
        (dollar.rejected.budget, dollar.metrics.qos_met),
        (2, 1),
        "jobs 1 and 2 are priced out"
    );
    // With the config's β = 0.1 job 1 costs 100 · (1 + 0.1 · 150/50) = 130
    // and fits; job 2 has no room, as under Libra; job 3 costs
    // 30 · (1 + 0.1 · 200/70) = 38.6 beside job 1's estimate of 100.
    let dollar = run(Policy::LibraDollar { beta: None });
    let r = dollar.rejected;
    assert_eq!(
        (dollar.metrics.accepted, r.resources, r.deadline, r.budget),
        (2, 0, 1, 0)
    );
}

#[test]
fn the_series_grammar_drives_the_runs() {
    let trace: Vec<Job> = (0..30)
        .map(|i| Job::new(i, Time(i as i64 * 200), 1 + (i % 3) as u32, 900, 800))
        .collect();
    let jobs = QosWorkload::TABLE_I.jobs(&trace, 5).unwrap();
    let config = RunConfig::default();
    for name in [
        "fcfs-bf",
        "sjf-bf",
        "edf-bf",
        "libra",
        "libra+$",
        "libra+$-b0.1",
    ] {
        let series: Series = name.parse().unwrap();
        let a = run_policy(series.policy(), &config, 4, &jobs).unwrap();
        assert_eq!(a.metrics.submitted, 30, "{name}");
    }
    // `libra+$` takes the config's β; `libra+$-b0.1` fixes the same one.
    let by_name = |n: &str| {
        let s: Series = n.parse().unwrap();
        run_policy(s.policy(), &config, 4, &jobs).unwrap()
    };
    assert_eq!(by_name("libra+$"), by_name("libra+$-b0.1"));
    let high = RunConfig {
        beta: 5.0,
        ..config
    };
    let fixed: Series = "libra+$-b0.1".parse().unwrap();
    assert_eq!(
        run_policy(fixed.policy(), &high, 4, &jobs).unwrap(),
        by_name("libra+$")
    );
}

#[test]
fn invalid_settings_are_errors() {
    let jobs = [job(1, 0, 1, 10, 100, 100.0)];
    let zero_rating = RunConfig {
        rating: 0,
        ..RunConfig::default()
    };
    assert!(matches!(
        run_policy(Policy::Libra, &zero_rating, 2, &jobs),
        Err(PolicyError::Pricing { .. })
    ));
    let out_of_order = [job(1, 50, 1, 10, 100, 100.0), job(2, 0, 1, 10, 100, 100.0)];
    for p in POLICIES {
        assert!(
            run_policy(p, &RunConfig::default(), 2, &out_of_order).is_err(),
            "{p}"
        );
    }
}

/// A random QoS workload for a machine of `capacity` processors: exact
/// estimates if `exact`, otherwise any estimate of at least one second.
fn workload(capacity: u32, exact: bool) -> impl Strategy<Value = Vec<QosJob>> {
    let row = (
        0i64..80,
        1..=capacity,
        1i64..400,
        0.05f64..3.0,
        1i64..1500,
        0.0f64..1500.0,
    );
    prop::collection::vec(row, 0..30).prop_map(move |rows| {
        let mut at = 0;
        rows.into_iter()
            .enumerate()
            .map(|(i, (gap, procs, r, est, deadline, budget))| {
                at += gap;
                QosJob {
                    id: i as u64,
                    submit: Time(at),
                    procs,
                    run_time: r,
                    estimate: if exact {
                        r
                    } else {
                        ((r as f64 * est) as i64).max(1)
                    },
                    deadline,
                    budget,
                }
            })
            .collect()
    })
}

fn config() -> impl Strategy<Value = RunConfig> {
    let drop = prop_oneof![Just(DropRule::Hopeless), Just(DropRule::Lapsed)];
    (0.0f64..2.0, drop).prop_map(|(beta, drop)| RunConfig {
        beta,
        drop,
        ..RunConfig::default()
    })
}

/// Every submitted job is accepted or rejected once; QoS-met and late jobs
/// are disjoint sets of accepted ones; the earnings are within the budgets
/// and every percentage is one.
fn check_accounting(policy: Policy, jobs: &[QosJob], s: &RunStats) -> Result<(), TestCaseError> {
    let m = &s.metrics;
    prop_assert_eq!(m.submitted, jobs.len());
    prop_assert_eq!(m.accepted + s.rejected.total(), jobs.len());
    prop_assert!(m.qos_met + s.late <= m.accepted, "{s:?}");
    let budgets: f64 = jobs.iter().map(|j| j.budget).sum();
    prop_assert_eq!(m.budgets, budgets);
    prop_assert!(
        m.earned >= 0.0 && m.earned <= budgets * (1.0 + 1e-12),
        "{s:?}"
    );
    for k in [m.accepted, m.qos_met, s.late, s.rejected.total()] {
        prop_assert!((0.0..=100.0).contains(&s.percent(k)));
    }
    if !policy.is_time_shared() {
        // The baselines admit generously: a drop is their only rejection.
        prop_assert_eq!((s.rejected.resources, s.rejected.budget), (0, 0));
    }
    Ok(())
}

/// With exact estimates no accepted job is late: Libra and Libra+$ admit
/// only what fits by its deadline, and a baseline under the `hopeless` rule
/// never starts a job that cannot end in time.
fn check_on_time(policy: Policy, drop: DropRule, s: &RunStats) -> Result<(), TestCaseError> {
    if policy.is_time_shared() || drop == DropRule::Hopeless {
        prop_assert_eq!(s.late, 0, "{} {}: {:?}", policy, drop, s);
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(150))]

    #[test]
    fn exact_estimates(
        (capacity, jobs) in (1u32..6).prop_flat_map(|c| (Just(c), workload(c, true))),
        config in config(),
    ) {
        for p in POLICIES {
            let s = run_policy(p, &config, capacity, &jobs).unwrap();
            check_accounting(p, &jobs, &s)?;
            check_on_time(p, config.drop, &s)?;
        }
    }

    #[test]
    fn any_estimates(
        (capacity, jobs) in (1u32..6).prop_flat_map(|c| (Just(c), workload(c, false))),
        config in config(),
    ) {
        for p in POLICIES {
            let s = run_policy(p, &config, capacity, &jobs).unwrap();
            check_accounting(p, &jobs, &s)?;
            prop_assert_eq!(s, run_policy(p, &config, capacity, &jobs).unwrap());
        }
    }

    /// A QoS workload keeps each job's identity, never over-estimates, and
    /// draws deadlines and budgets that the inaccuracy does not move.
    #[test]
    fn qos_workloads(
        rows in prop::collection::vec((0i64..10_000, 1u32..64, 0i64..50_000), 0..50),
        inaccuracy in 0.0f64..99.9,
        high in 0.0f64..=1.0,
        seed in any::<u64>(),
    ) {
        let trace: Vec<Job> = rows
            .iter()
            .enumerate()
            .map(|(i, &(submit, procs, r))| Job::new(i as u64, Time(submit), procs, r.max(1), r))
            .collect();
        let exact = QosWorkload {
            urgency: UrgencyModel { high_fraction: high, ..UrgencyModel::TABLE_I },
            ..QosWorkload::TABLE_I
        };
        let under = QosWorkload { inaccuracy, ..exact };
        let (a, b) = (exact.jobs(&trace, seed).unwrap(), under.jobs(&trace, seed).unwrap());
        prop_assert_eq!(a.len(), trace.len());
        for ((t, a), b) in trace.iter().zip(&a).zip(&b) {
            prop_assert_eq!((a.id, a.submit, a.procs), (t.id, t.submit, t.procs));
            prop_assert_eq!(a.run_time, t.run_time.max(1));
            prop_assert_eq!(a.estimate, a.run_time);
            prop_assert!(b.estimate >= 1 && b.estimate <= b.run_time, "{b:?}");
            prop_assert!(a.deadline >= 1 && a.budget > 0.0, "{a:?}");
            prop_assert_eq!((a.deadline, a.budget), (b.deadline, b.budget));
        }
    }
}
