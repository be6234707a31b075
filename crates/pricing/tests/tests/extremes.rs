//! Extreme values through the public entry points: times near `i64::MIN`
//! and `i64::MAX`, zero and huge processor counts, NaN, infinite and huge
//! floats, empty inputs. Every call returns a value or a typed error, never
//! panics, and every run ends within a step budget counted on the
//! cluster's own events (`Cluster::step`). Then one regression test per
//! input that once hung or aborted.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::common;
use pricing::{
    Baseline, Cluster, ClusterConfig, Committed, Demand, DropRule, Flat, JobContext, JobControl,
    JobSpec, Late, LibraDollar, LibraStatic, MAX_NODES, NodeLoad, Policy, PriceFunction,
    PricingError, QosJob, QosWorkload, Quote, RunConfig, Spare, Submission, UrgencyModel, admit,
    backfill, partition, rates, run_policy, simulate,
};
use profile::{Job, MAX_DURATION, Time};

const LIMIT: i64 = Time::LIMIT.0;

/// Node events allowed per task (a job's share of one node) on the cluster:
/// its arrival, its estimate used up, its deadline, its end, and a rounding
/// step after each. (Over 4,000 cases of the property below, the most seen
/// was 2.4 per task.)
const EVENTS_PER_TASK: usize = 8;

/// Times and durations: the edges of `i64` and of the time domain, and
/// ordinary values.
pub(crate) fn seconds() -> impl Strategy<Value = i64> {
    prop_oneof![
        1 => prop::sample::select(vec![
            i64::MIN,
            i64::MIN + 1,
            -LIMIT - 1,
            -LIMIT,
            -1,
            0,
            1,
            LIMIT,
            LIMIT + 1,
            i64::MAX - 801,
            i64::MAX - 7,
            i64::MAX,
        ]),
        1 => any::<i64>(),
        6 => 1i64..5000,
    ]
}

/// Floats: NaN, the infinities, huge and tiny magnitudes, and ordinary values.
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => prop::sample::select(vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            -1e300,
            f64::MAX,
            0.0,
            -0.0,
            1e-300,
            f64::MIN_POSITIVE,
        ]),
        1 => any::<f64>(),
        6 => 0.0f64..10.0,
    ]
}

/// Processor and node counts: none, a few, the cap and past it, `u32::MAX`.
pub(crate) fn count() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => prop::sample::select(vec![0, 1, 2, MAX_NODES as u32, MAX_NODES as u32 + 1, u32::MAX]),
        6 => 1u32..3,
    ]
}

pub(crate) fn rating() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => prop::sample::select(vec![0, 1, u32::MAX]),
        2 => 1u32..400,
        6 => Just(168),
    ]
}

/// Budgets and prices: the extreme floats, or ordinary amounts of money.
pub(crate) fn money() -> impl Strategy<Value = f64> {
    prop_oneof![1 => float(), 3 => 0.0f64..1e7]
}

pub(crate) fn control() -> impl Strategy<Value = (JobControl, Committed)> {
    let spare = prop::sample::select(vec![Spare::Proportional, Spare::Equal, Spare::Idle]);
    let late = prop::sample::select(vec![Late::Full, Late::Zero]);
    let committed = prop::sample::select(vec![
        Committed::Estimate,
        Committed::Remaining,
        Committed::Window,
    ]);
    (spare, late, committed).prop_map(|(spare, late, c)| (JobControl { spare, late }, c))
}

pub(crate) fn submission() -> impl Strategy<Value = Submission> {
    (
        (seconds(), seconds(), count(), seconds()),
        (any::<bool>(), money(), seconds()),
    )
        .prop_map(
            |((arrival, estimate, procs, slack), (relative, budget, run_time))| {
                // Often a deadline the estimate fits in, so jobs get admitted.
                let deadline = if relative {
                    estimate.saturating_add(slack)
                } else {
                    slack
                };
                Submission {
                    id: arrival as u64,
                    arrival: Time(arrival),
                    spec: JobSpec::new(estimate, procs.min(8), deadline, budget),
                    run_time,
                }
            },
        )
}

pub(crate) fn qos_job() -> impl Strategy<Value = QosJob> {
    (seconds(), count(), seconds(), seconds(), seconds(), money()).prop_map(
        |(submit, procs, run_time, estimate, deadline, budget)| QosJob {
            id: submit as u64,
            submit: Time(submit),
            procs: procs.min(8),
            run_time,
            estimate,
            deadline,
            budget,
        },
    )
}

fn price(alpha: f64, beta: f64) -> Vec<Box<dyn PriceFunction>> {
    vec![
        Box::new(Flat),
        Box::new(LibraStatic {
            gamma: alpha,
            delta: beta,
        }),
        Box::new(LibraDollar { alpha, beta }),
    ]
}

/// Replays `jobs` on a cluster event by event, counting node events against
/// the budget; returns the first error, if any.
fn replay_within_budget(
    config: &ClusterConfig,
    jobs: &[Submission],
    price: &dyn PriceFunction,
) -> Result<Option<PricingError>, TestCaseError> {
    let mut c = match Cluster::new(config.clone()) {
        Ok(c) => c,
        Err(e) => return Ok(Some(e)),
    };
    let mut tasks = 0;
    let mut steps = 0;
    let mut first_error = None;
    for s in jobs {
        match c.submit(s.arrival, s.id, &s.spec, s.run_time, price) {
            Ok(d) => tasks += d.allocation().map_or(0, |a| a.nodes.len()),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let budget = EVENTS_PER_TASK * (tasks + 1);
    while c.step().is_some() {
        steps += 1;

        prop_assert!(
            steps <= budget,
            "{steps} node events for {tasks} tasks: over the budget"
        );
    }
    if let Err(e) = c.run_to_completion() {
        first_error.get_or_insert(e);
    }
    Ok(first_error)
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    /// `Cluster` and `simulate` on extreme jobs, clusters and prices: an
    /// error or a finished run, in a bounded number of events; `simulate`
    /// fails exactly when replaying the same jobs meets an error.
    #[test]
    fn the_cluster_ends_on_any_input(
        nodes in 1usize..5,
        ratings in prop::collection::vec(rating(), 4),
        reference in rating(),
        (control, committed) in control(),
        jobs in prop::collection::vec(submission(), 0..10),
        alpha in float(),
        beta in float(),
        sorted in any::<bool>(),
    ) {
        let mut jobs = jobs;
        if sorted {
            jobs.sort_by_key(|s| s.arrival);
        }
        let mut config = ClusterConfig::homogeneous(nodes, reference, 1.0);
        for (n, r) in config.nodes.iter_mut().zip(&ratings) {
            n.rating = *r;
        }
        config.control = control;
        config.committed = committed;
        for p in price(alpha, beta) {
            let replayed = replay_within_budget(&config, &jobs, p.as_ref())?;
            let simulated = simulate(&config, &jobs, p.as_ref());
            prop_assert_eq!(replayed.is_some(), simulated.is_err(), "{:?}", simulated);
            if let Ok(out) = simulated {
                prop_assert_eq!(out.len(), jobs.len());
                for o in out.iter().filter(|o| o.cost().is_some()) {
                    prop_assert!(o.finish.is_some_and(|f| f <= Time::LATEST), "{o:?}");
                }
            }
        }
    }

    /// Every policy of the comparison, through `run_policy`, on extreme jobs,
    /// machine sizes and settings: statistics that add up, or an error.
    #[test]
    fn every_policy_ends_on_any_input(
        jobs in prop::collection::vec(qos_job(), 0..6),
        capacity in count(),
        rating in rating(),
        alpha in float(),
        beta in float(),
        base_price in float(),
        (control, committed) in control(),
        lapsed in any::<bool>(),
    ) {
        let mut jobs = jobs;
        jobs.sort_by_key(|j| j.submit);
        let config = RunConfig {
            alpha,
            beta,
            gamma: alpha,
            delta: beta,
            base_price,
            rating,
            control,
            committed,
            drop: if lapsed { DropRule::Lapsed } else { DropRule::Hopeless },
        };
        let policies = Baseline::ALL
            .into_iter()
            .map(Policy::Backfill)
            .chain([Policy::Libra, Policy::LibraDollar { beta: None }]);
        for policy in policies {
            if let Ok(stats) = run_policy(policy, &config, capacity, &jobs) {
                let m = stats.metrics;
                prop_assert_eq!(m.submitted, jobs.len());
                prop_assert_eq!(m.accepted + stats.rejected.total(), jobs.len());
                prop_assert!(m.qos_met <= m.accepted);
                prop_assert!(jobs.iter().all(|j| j.check().is_ok()));
            }
        }
        // The baselines directly, with the same jobs and any machine size.
        for b in Baseline::ALL {
            let _ = backfill(b, config.drop, capacity, base_price, &jobs);
        }
    }

    /// The QoS workload model on extreme trace jobs and model settings:
    /// jobs that pass `QosJob::check`, or an error.
    #[test]
    fn the_workload_model_checks_what_it_makes(
        trace in prop::collection::vec((seconds(), count(), seconds(), seconds()), 0..6),
        floats in prop::collection::vec(float(), 8),
        seed in any::<u64>(),
    ) {
        let trace: Vec<Job> = trace
            .into_iter()
            .enumerate()
            .map(|(i, (submit, procs, estimate, run))| {
                Job::new(i as u64, Time(submit), procs, estimate, run)
            })
            .collect();
        let w = QosWorkload {
            urgency: UrgencyModel {
                high_fraction: floats[0],
                deadline_low_mean: floats[1],
                deadline_ratio: floats[2],
                budget_low_mean: floats[3],
                budget_ratio: floats[4],
                spread: floats[5],
            },
            inaccuracy: floats[6],
            base_price: floats[7],
        };
        if let Ok(jobs) = w.jobs(&trace, seed) {
            prop_assert_eq!(jobs.len(), trace.len());
            for j in &jobs {
                prop_assert_eq!(j.check(), Ok(()));
            }
        }
    }

    /// Algorithm 1 and the pricing functions on extreme snapshots.
    #[test]
    fn admission_and_prices_never_panic(
        loads in prop::collection::vec(
            (float(), seconds(), seconds(), float(), seconds(), seconds(), any::<u64>()),
            0..5,
        ),
        job in submission(),
        alpha in float(),
        beta in float(),
        wall in seconds(),
    ) {
        let loads: Vec<NodeLoad> = loads
            .into_iter()
            .enumerate()
            .map(|(node, (share, re, d, base, res_max, committed, mem))| NodeLoad {
                node,
                memory_mb: mem,
                disk_mb: mem,
                free_memory_mb: mem / 2,
                free_disk_mb: mem,
                share,
                quote: Quote {
                    runtime_estimate: re,
                    deadline: d,
                    base_price: base,
                    res_max,
                    committed,
                },
            })
            .collect();
        for p in price(alpha, beta) {
            let context = JobContext::new(job.id, job.arrival, &job.spec);
            let _ = admit(&context, &loads, p.as_ref());
            for l in &loads {
                if let Ok(c) = p.cost(&context, &l.quote) {
                    prop_assert!(c.is_finite(), "{:?}", l.quote);
                }
                let d: Demand = l.quote.demand();
                let _ = d.res_free();
            }
        }
        let q = loads.first().map_or(0.0, |l| l.share);
        for late in [Late::Full, Late::Zero] {
            let p = partition(q, alpha, job.spec.qos_constraints.deadline, wall, late);
            prop_assert!(p.is_nan() || (0.0..=1.0).contains(&p) || q.is_infinite());
        }
        for spare in [Spare::Proportional, Spare::Equal, Spare::Idle] {
            let shares: Vec<f64> = loads.iter().map(|l| l.share).collect();
            if let Ok(r) = rates(&shares, spare) {
                prop_assert_eq!(r.len(), shares.len());
            }
        }
    }
}

fn qos(id: u64, submit: i64) -> QosJob {
    QosJob {
        id,
        submit: Time(submit),
        procs: 1,
        run_time: 100,
        estimate: 100,
        deadline: 1000,
        budget: 1e9,
    }
}

fn every_policy() -> Vec<Policy> {
    Baseline::ALL
        .into_iter()
        .map(Policy::Backfill)
        .chain([Policy::Libra, Policy::LibraDollar { beta: None }])
        .collect()
}

/// `pricing::simulate` with one job at `i64::MAX - 7` once never ended
/// (`now + dt` wrapped in `Cluster::step`); now the arrival is refused.
#[test]
fn a_job_at_the_end_of_i64_is_refused() {
    let config = ClusterConfig::homogeneous(1, 168, 1.0);
    let job = Submission {
        id: 1,
        arrival: Time(i64::MAX - 7),
        spec: JobSpec::new(100, 1, 1000, 1e9),
        run_time: 100,
    };
    let err = simulate(&config, &[job], &Flat).unwrap_err();
    assert_eq!(
        err,
        PricingError::OutOfDomain {
            job: Some(1),
            name: "arrival",
            value: i64::MAX - 7,
            min: -LIMIT,
            max: LIMIT,
        }
    );
    assert_eq!(
        err.to_string(),
        "job 1: arrival is 9223372036854775800 s, outside [-1099511627776, 1099511627776]; \
         times must lie within 2^40 s (about 34,800 years) of the origin and durations be at \
         most 2^40 s"
    );
}

/// A three-line trace with submits 0, 9223372036854775800 and ...801 once
/// made the pricing experiment loop for ever; every policy now names the job.
#[test]
fn submits_near_the_end_of_i64_are_an_error_under_every_policy() {
    let jobs = [
        qos(1, 0),
        qos(2, 9_223_372_036_854_775_800),
        qos(3, 9_223_372_036_854_775_801),
    ];
    for policy in every_policy() {
        let err = run_policy(policy, &RunConfig::default(), 128, &jobs).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("job 2: submit time is 9223372036854775800 s"),
            "{policy}: {err}"
        );
    }
}

/// `arrival_delay = 1e14` multiplies submit times by 1e14; the model now
/// refuses the first job it pushes out of the time domain.
#[test]
fn arrivals_scaled_out_of_the_domain_are_an_error() {
    let trace: Vec<Job> = (0..3)
        .map(|i| Job::new(i, Time(((600 * i) as f64 * 1e14) as i64), 4, 3600, 3000))
        .collect();
    let err = QosWorkload::TABLE_I.jobs(&trace, 1).unwrap_err();
    assert!(
        matches!(
            err,
            PricingError::OutOfDomain {
                job: Some(1),
                name: "submit time",
                ..
            }
        ),
        "{err}"
    );
}

/// A machine of 4294967295 processors once made the time-shared policies
/// allocate 137 GB of nodes; now they refuse it before allocating. The
/// baselines keep no state per processor and run.
#[test]
fn a_huge_machine_is_refused_by_the_node_level_model_only() {
    let jobs = [qos(1, 0), qos(2, 60)];
    for policy in [Policy::Libra, Policy::LibraDollar { beta: None }] {
        let err = run_policy(policy, &RunConfig::default(), u32::MAX, &jobs).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the time-shared cluster would have 4294967295 nodes (one per processor), more \
             than the 1000000 this model accepts; give a smaller machine"
        );
    }
    let stats = run_policy(
        Policy::Backfill(Baseline::FcfsBf),
        &RunConfig::default(),
        u32::MAX,
        &jobs,
    )
    .unwrap();
    assert_eq!(stats.metrics.qos_met, 2);
    let too_many = ClusterConfig::homogeneous(MAX_NODES + 1, 168, 1.0);
    assert!(matches!(
        Cluster::new(too_many),
        Err(PricingError::TooManyNodes {
            nodes: 1_000_001,
            ..
        })
    ));
}

/// The largest time-shared machine accepted, `MAX_NODES` nodes, runs.
#[test]
fn the_largest_time_shared_machine_runs() {
    let jobs = [qos(1, 0), qos(2, 60), qos(3, 120)];
    let stats = run_policy(
        Policy::LibraDollar { beta: None },
        &RunConfig::default(),
        MAX_NODES as u32,
        &jobs,
    )
    .unwrap();
    assert_eq!(stats.metrics.qos_met, 3);
}

/// Durations past 2^40 s, also once translated to a slow node, are refused.
#[test]
fn durations_past_the_limit_are_refused() {
    let mut c = Cluster::new(ClusterConfig::homogeneous(1, 168, 1.0)).unwrap();
    let spec = JobSpec::new(MAX_DURATION, 1, MAX_DURATION, 1e9);
    assert!(
        c.submit(Time(0), 1, &spec, MAX_DURATION + 1, &Flat)
            .is_err()
    );
    assert!(c.submit(Time(0), 2, &spec, MAX_DURATION, &Flat).is_ok());
    // A node of rating 1 runs a reference second in 168 s.
    let mut config = ClusterConfig::homogeneous(2, 168, 1.0);
    config.nodes[1].rating = 1;
    let mut c = Cluster::new(config).unwrap();
    let err = c
        .submit(
            Time(0),
            3,
            &JobSpec::new(MAX_DURATION / 100, 1, 10, 1.0),
            1,
            &Flat,
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            PricingError::OutOfDomain {
                name: "runtime estimate on the slowest node",
                ..
            }
        ),
        "{err}"
    );
}

/// More work on one node than it can finish by `Time::LATEST` (2^52 s):
/// 4097 jobs of 2^40 s sharing one processor. The cluster stops there with
/// an error instead of saturating at `i64::MAX` and stepping for ever.
#[test]
fn work_past_the_end_of_time_stops_the_cluster() {
    let mut config = ClusterConfig::homogeneous(1, 168, 1.0);
    config.control = JobControl {
        spare: Spare::Proportional,
        late: Late::Zero,
    };
    // Each job claims the processor for its one-second estimate, then runs
    // late beside the others at partition 0.
    let jobs: Vec<Submission> = (0..4097)
        .map(|i| Submission {
            id: i,
            arrival: Time(2 * i as i64),
            spec: JobSpec::new(1, 1, 1, 1e9),
            run_time: MAX_DURATION,
        })
        .collect();
    let err = simulate(&config, &jobs, &Flat).unwrap_err();
    assert!(matches!(err, PricingError::BeyondLatest { .. }), "{err}");
    let mut c = Cluster::new(config).unwrap();
    for j in &jobs {
        c.submit(j.arrival, j.id, &j.spec, j.run_time, &Flat)
            .unwrap();
    }
    assert!(c.run_to_completion().is_err());
    assert!(c.beyond_latest().is_some());
    assert_eq!(c.step(), None);
    assert!(
        c.submit(Time(1 << 40), 9999, &JobSpec::new(1, 1, 1, 1.0), 1, &Flat)
            .is_err()
    );
}

/// Empty inputs are valid and measure nothing.
#[test]
fn empty_inputs_are_valid() {
    for policy in every_policy() {
        let stats = run_policy(policy, &RunConfig::default(), 4, &[]).unwrap();
        assert_eq!((stats.metrics.submitted, stats.rejected.total()), (0, 0));
    }
    assert!(QosWorkload::TABLE_I.jobs(&[], 1).unwrap().is_empty());
    assert!(
        simulate(&ClusterConfig::homogeneous(1, 1, 1.0), &[], &Flat)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        admit(
            &JobContext::new(1, Time(0), &JobSpec::new(1, 1, 1, 1.0)),
            &[],
            &Flat
        )
        .unwrap()
        .rejection()
        .map(|r| r.reason()),
        Some("cannot_meet_resources")
    );
    assert_eq!(partition(1.0, 0.0, i64::MIN, i64::MAX, Late::Full), 1.0);
}

/// `UrgencyModel::draw` once returned infinite factors (a spread of 1e308,
/// or a class mean `means` refuses) and panicked on `usize::MAX` draws.
#[test]
fn urgency_draws_are_finite_or_refused() {
    let model = |change: fn(&mut UrgencyModel)| {
        let mut m = UrgencyModel::TABLE_I;
        change(&mut m);
        m
    };
    let err = model(|m| m.spread = 1e308).draw(100, 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a drawn deadline factor would not be a finite number with spread = 1e308; give a \
         smaller spread"
    );
    let err = model(|m| (m.deadline_low_mean, m.deadline_ratio) = (1e300, 1e10))
        .draw(100, 1)
        .unwrap_err();
    assert!(
        matches!(
            err,
            PricingError::NotFinite {
                field: "deadline high:low ratio",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        UrgencyModel::TABLE_I.draw(usize::MAX, 1).unwrap_err(),
        PricingError::InvalidAmount {
            name: "jobs to draw",
            value: i64::MAX,
            expected: "a count whose draws fit in memory",
        }
    );
    // Large but finite spreads and means still draw.
    let draws = model(|m| m.spread = 1e10).draw(100, 1).unwrap();
    assert!(draws.iter().all(|d| d.deadline_factor.is_finite()));
}

/// `rates` of partitions whose sum overflows once gave every job a rate of
/// 0 (each scaled by an infinite sum); it is refused, naming the sum.
#[test]
fn rates_of_partitions_whose_sum_overflows_are_refused() {
    for spare in [Spare::Proportional, Spare::Equal, Spare::Idle] {
        assert_eq!(
            rates(&[1e308, 1e308], spare),
            Err(PricingError::InvalidFactor {
                name: "sum of the partitions",
                value: f64::INFINITY,
            })
        );
        assert_eq!(
            rates(&[1e308, 1.0], spare),
            Ok(vec![1.0, 1.0 / (1e308 + 1.0)])
        );
        assert_eq!(rates(&[2.0, 2.0], spare), Ok(vec![0.5, 0.5]));
    }
}

/// A user's pricing function that quotes `self.0` for every node.
struct Quotes(f64);

impl PriceFunction for Quotes {
    fn cost(&self, _: &JobContext<'_>, _: &Quote) -> Result<f64, PricingError> {
        Ok(self.0)
    }
}

/// An idle node quoting an hour's job in a two-hour window.
fn idle_node(node: usize) -> NodeLoad {
    common::idle_node(node, 3600, 7200)
}

/// `admit` once accepted a negative cost from a user's pricing function
/// (and the cluster then blamed the admission rule), and allocated a node
/// the caller's snapshot listed twice, twice.
#[test]
fn admit_refuses_a_negative_quote_and_a_node_listed_twice() {
    let spec = JobSpec::new(3600, 2, 7200, 6000.0);
    let job = JobContext::new(1, Time(0), &spec);
    let two = [idle_node(0), idle_node(1)];
    let err = admit(&job, &two, &Quotes(-5.0)).unwrap_err();
    assert_eq!(
        err,
        PricingError::NegativeCost {
            node: 0,
            cost: -5.0
        }
    );
    assert_eq!(
        err.to_string(),
        "the pricing function (PriceFunction::cost) quoted node 0 a cost of -5, expected a \
         number >= 0; fix the pricing function"
    );
    let mut c = Cluster::new(ClusterConfig::homogeneous(2, 100, 1.0)).unwrap();
    let quoted = c.submit(Time(0), 1, &spec, 3600, &Quotes(-5.0));
    assert_eq!(quoted.unwrap_err(), err);
    let free = admit(&job, &two, &Quotes(0.0)).unwrap();
    assert_eq!(
        free.allocation().map(|a| (a.nodes.clone(), a.cost)),
        Some((vec![0, 1], 0.0))
    );

    let err = admit(&job, &[idle_node(0), idle_node(0)], &Flat).unwrap_err();
    assert_eq!(
        err.to_string(),
        "node index listed twice in the snapshot is 0, expected each node once"
    );
    // Listed twice but not allocated twice: a narrower job still fits.
    let one = JobSpec::new(3600, 1, 7200, 6000.0);
    let narrow = JobContext::new(2, Time(0), &one);
    let d = admit(&narrow, &[idle_node(1), idle_node(1)], &Flat).unwrap();
    assert_eq!(d.allocation().map(|a| a.nodes.clone()), Some(vec![1]));
}
