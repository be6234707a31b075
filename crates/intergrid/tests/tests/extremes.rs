//! Extreme values through `simulate` and `evaluate`: times near `i64::MIN`
//! and `i64::MAX` in jobs and warm-ups, clusters of 0 and `u32::MAX`
//! processors, huge and zero periods and horizons, NaN, infinite and huge
//! shares and stringencies, empty inputs. Every call returns its result or
//! a typed error, never panics. A run's own loops are bounded where they
//! live (`gateway::run` and `partitions_forecast::Cluster`, each tested with
//! a step budget); here the messages a run counts stay within a budget of
//! its jobs and timers. Then one regression test per input that once
//! panicked.

use intergrid::{Config, Evaluation, IntergridError, Scenario, Series, evaluate, simulate};
use partitions_forecast::ProviderPolicy;
use profile::{Job, MAX_DURATION, Time};
use proptest::prelude::*;

const LIMIT: i64 = Time::LIMIT.0;

fn seconds() -> impl Strategy<Value = i64> {
    prop::sample::select(vec![
        i64::MIN,
        -LIMIT - 1,
        -1,
        0,
        1,
        LIMIT,
        LIMIT + 1,
        MAX_DURATION + 1,
        i64::MAX - 7,
        i64::MAX,
    ])
}

fn float() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        f64::NAN,
        f64::INFINITY,
        -1e300,
        1e300,
        0.0,
        1e-300,
        0.5,
        1.0,
        5.0,
    ])
}

/// `x`, or now and then an extreme value.
fn or<T: std::fmt::Debug + Clone + 'static>(
    x: T,
    other: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop::option::weighted(0.12, other)
        .prop_map(move |o| o.unwrap_or_else(|| x.clone()))
        .boxed()
}

fn series() -> impl Strategy<Value = Series> {
    let names: Vec<String> = ProviderPolicy::ALL
        .iter()
        .flat_map(|p| {
            ["least-load", "earliest-ask", "earliest-partial"].map(|g| format!("{}+{g}", p.name()))
        })
        .collect();
    prop::sample::select(names).prop_map(|n| n.parse().unwrap())
}

/// Jobs of one stream, in submit order: mostly ordinary, now and then with
/// an extreme field.
fn stream(first: u64, procs: u32) -> impl Strategy<Value = Vec<Job>> {
    let ordinary = (Just(None), 1..=procs, 60i64..3000, 0i64..1200);
    let extreme = (
        seconds().prop_map(Some),
        prop::sample::select(vec![0, 1, u32::MAX]),
        seconds(),
        seconds(),
    );
    prop::collection::vec(prop_oneof![12 => ordinary, 1 => extreme], 0..6).prop_map(move |v| {
        let mut t = 0i64;
        v.into_iter()
            .enumerate()
            .map(|(i, (at, p, run, gap))| {
                t = at.unwrap_or(t.saturating_add(gap));
                Job::new(first + i as u64, Time(t), p, run.saturating_mul(2), run)
            })
            .collect()
    })
}

fn config() -> impl Strategy<Value = Config> {
    (
        or(
            vec![8u32, 4],
            prop::sample::select(vec![vec![], vec![0], vec![u32::MAX, 1]]),
        ),
        or(3600i64, seconds()),
        or(600i64, seconds()),
        prop::option::of(seconds()),
        or(3u32, prop::sample::select(vec![0, u32::MAX])),
        any::<(u32, bool)>(),
    )
        .prop_map(
            |(clusters, interval, report_every, horizon, checks, (tolerance, track))| {
                let mut c = Config::paper(clusters, interval);
                c.report_every = report_every;
                c.horizon = horizon;
                c.forecast.checks = checks;
                c.tolerance = tolerance;
                c.track_allocations = track;
                c
            },
        )
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(128))]

    /// Any platform, scenario, series and evaluation: metrics or a typed
    /// error; the messages a run counts stay within the budget of its jobs
    /// and timers.
    #[test]
    fn runs_and_evaluations_end_on_any_input(
        config in config(),
        grid in stream(1_000_000, 8),
        local in (stream(0, 8), stream(500_000, 4)),
        warmup in or(0i64, seconds()),
        series in series(),
        evaluation in (series(), or(0.5f64, float()), or(5.0f64, float()), any::<u64>(), or(10i64, seconds())),
    ) {
        let scenario = Scenario {
            grid,
            local: vec![local.0, local.1],
            warmup: Time(warmup),
        };
        match simulate(&config, &scenario, series, None) {
            Ok(run) => {
                prop_assert_eq!(run.grid().len(), scenario.grid.len());
                // Per grid job and attempt (10): a request and a reply per
                // cluster, a reservation's three messages and a refresh;
                // per timer tick a message per cluster.
                let clusters = config.clusters.len() as u64;
                let jobs = scenario.grid.len() as u64;
                let span = (scenario.last_arrival() - Time::ZERO).max(0);
                let every = config.report_every.min(config.interval()).max(1);
                let ticks = (span / every) as u64 + 1;
                let per_job = 10 * (2 * clusters + 4);
                let budget = (jobs + 1) * per_job * (ticks + 1) + ticks * clusters;
                prop_assert!(run.messages() <= budget, "{} messages", run.messages());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        let (base, share, stringency, deadline_seed, bsld_bound) = evaluation;
        let evaluation = Evaluation { base, deadline_share: share, stringency, deadline_seed, bsld_bound };
        if let Ok(m) = evaluate(&config, &scenario, series, &evaluation) {
            prop_assert!(m.grid_jobs <= scenario.grid.len());
            prop_assert!((0.0..=100.0).contains(&m.rejected_pct));
        }
    }
}

fn local(first: u64) -> Vec<Job> {
    (0..4)
        .map(|i| Job::new(first + i, Time(600 * i as i64), 2, 1200, 900))
        .collect()
}

fn scenario(grid: Vec<Job>) -> Scenario {
    Scenario {
        grid,
        local: vec![local(0), local(100)],
        warmup: Time::ZERO,
    }
}

fn arcb_ask() -> Series {
    "arcb+earliest-ask".parse().unwrap()
}

/// A stringency of 1e300 once pushed deadlines past `i64::MAX` (an
/// overflow); it is an error naming the stringency.
#[test]
fn a_huge_stringency_is_named() {
    let config = Config::paper(vec![8, 8], 3600);
    let grid = (0..4)
        .map(|i| Job::new(1000 + i, Time(300 * i as i64), 4, 900, 600))
        .collect();
    let evaluation = Evaluation {
        base: "areb+least-load".parse().unwrap(),
        deadline_share: 1.0,
        stringency: 1e300,
        deadline_seed: 7,
        bsld_bound: 10,
    };
    let err = evaluate(&config, &scenario(grid), arcb_ask(), &evaluation).unwrap_err();
    assert!(
        matches!(err, IntergridError::DeadlinePastLimit { job: 1000, .. }),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.contains("puts grid job 1000's deadline at 9223372036854775807 s, past 2^40 s"),
        "{message}"
    );
}

/// Jobs near the end of `i64` are refused by the cluster (local jobs) or
/// the gateway (grid jobs), not wrapped.
#[test]
fn jobs_at_the_end_of_i64_are_refused() {
    let config = Config::paper(vec![8, 8], 3600);
    let late_grid = vec![Job::new(1000, Time(i64::MAX - 7), 4, 900, 600)];
    assert!(matches!(
        simulate(&config, &scenario(late_grid), arcb_ask(), None),
        Err(IntergridError::Gateway { .. } | IntergridError::Cluster { .. })
    ));
    let mut s = scenario(vec![Job::new(1000, Time(0), 4, 900, 600)]);
    s.local[1].push(Job::new(200, Time(i64::MAX - 7), 2, 60, 60));
    assert!(matches!(
        simulate(&config, &s, arcb_ask(), None),
        Err(IntergridError::Cluster { cluster: 1, .. })
    ));
}

/// Clusters of `u32::MAX` processors keep no state per processor; periods
/// past 2^40 s are refused.
#[test]
fn huge_clusters_run_and_huge_periods_are_refused() {
    let grid = vec![Job::new(1000, Time(0), 4, 900, 600)];
    let config = Config::paper(vec![u32::MAX, 8], 3600);
    let run = simulate(&config, &scenario(grid.clone()), arcb_ask(), None).unwrap();
    assert_eq!(run.grid()[0], Some((Time(0), Time(600))));
    let mut config = Config::paper(vec![8, 8], 3600);
    config.report_every = i64::MAX;
    assert!(simulate(&config, &scenario(grid), arcb_ask(), None).is_err());
}

/// No grid jobs and no local jobs: an empty run, and an evaluation of
/// nothing.
#[test]
fn empty_scenarios_run() {
    let config = Config::paper(vec![8], 3600);
    let empty = Scenario {
        grid: Vec::new(),
        local: vec![Vec::new()],
        warmup: Time::ZERO,
    };
    for s in ["arebmf+earliest-partial", "arcb+least-load"] {
        let run = simulate(&config, &empty, s.parse().unwrap(), None).unwrap();
        assert!(run.grid().is_empty() && run.local()[0].is_empty());
    }
    let evaluation = Evaluation {
        base: arcb_ask(),
        deadline_share: 0.0,
        stringency: 5.0,
        deadline_seed: 1,
        bsld_bound: 10,
    };
    let m = evaluate(&config, &empty, arcb_ask(), &evaluation).unwrap();
    assert_eq!((m.grid_jobs, m.local_jobs), (0, 0));
}

/// A NaN, infinite or out-of-range field of `Config::pricing` once ran and
/// silently rejected every grid job as too expensive (revenue 0); it is an
/// error naming the field and the value.
#[test]
fn provider_pricing_out_of_range_is_named() {
    use intergrid::ProviderPricing;
    type Set = fn(&mut ProviderPricing, f64);
    let fields: [(&str, Set, &[f64]); 5] = [
        (
            "alpha",
            |p, v| p.alpha = v,
            &[f64::NAN, -1.0, f64::INFINITY],
        ),
        ("beta", |p, v| p.beta = v, &[f64::NAN, -0.1, f64::INFINITY]),
        (
            "base_price",
            |p, v| p.base_price = v,
            &[f64::NAN, 0.0, -1.0, f64::INFINITY],
        ),
        (
            "budget_factor",
            |p, v| p.budget_factor = v,
            &[f64::NAN, -1.0, f64::INFINITY],
        ),
        (
            "deadline_factor",
            |p, v| p.deadline_factor = v,
            &[f64::NAN, 0.5, -3.0, f64::INFINITY],
        ),
    ];
    let grid: Vec<Job> = (0..4)
        .map(|i| Job::new(1000 + i, Time(300 * i as i64), 4, 900, 600))
        .collect();
    for (name, set, values) in fields {
        for &v in values {
            let mut pricing = ProviderPricing::PAPER;
            set(&mut pricing, v);
            let config = Config {
                pricing: Some(pricing),
                ..Config::paper(vec![8, 8], 3600)
            };
            let err = simulate(&config, &scenario(grid.clone()), arcb_ask(), None).unwrap_err();
            assert!(
                matches!(err, IntergridError::Pricing { field, .. } if field == name),
                "{name} = {v}: {err}"
            );
            let message = err.to_string();
            assert!(message.contains(&format!("{name} is {v}")), "{message}");
        }
    }
    // The paper's settings and the edges of each range run.
    for pricing in [
        ProviderPricing::PAPER,
        ProviderPricing {
            alpha: 0.0,
            beta: 0.0,
            budget_factor: 0.0,
            deadline_factor: 1.0,
            ..ProviderPricing::PAPER
        },
    ] {
        assert_eq!(pricing.check(), Ok(()));
        let config = Config {
            pricing: Some(pricing),
            ..Config::paper(vec![8, 8], 3600)
        };
        simulate(&config, &scenario(grid.clone()), arcb_ask(), None).unwrap();
    }
}

/// Settings that pass each field's range but made every job fail at its
/// offer: budgets that overflow to infinity are refused at the check,
/// naming `budget_factor`; a deadline factor whose deadlines leave the time
/// domain gives deadlines of 2^40 s, so jobs are admitted as with none.
#[test]
fn provider_pricing_in_range_but_beyond_the_domain() {
    use intergrid::ProviderPricing;
    let huge_budget = ProviderPricing {
        budget_factor: 1e300,
        base_price: 1e10,
        ..ProviderPricing::PAPER
    };
    let err = huge_budget.check().unwrap_err();
    assert!(
        matches!(
            err,
            IntergridError::Pricing {
                field: "budget_factor",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("budget_factor is 1e300"), "{err}");
    let grid: Vec<Job> = (0..4)
        .map(|i| Job::new(1000 + i, Time(300 * i as i64), 4, 900, 600))
        .collect();
    let run = |deadline_factor| {
        let config = Config {
            pricing: Some(ProviderPricing {
                deadline_factor,
                budget_factor: 10.0,
                ..ProviderPricing::PAPER
            }),
            ..Config::paper(vec![8, 8], 3600)
        };
        simulate(&config, &scenario(grid.clone()), arcb_ask(), None).unwrap()
    };
    let far = run(1e30);
    assert_eq!(far.admission_rejections(), 0);
    assert!(far.grid().iter().all(Option::is_some));
    assert_eq!(far.grid(), run(1e6).grid());
}

/// A run measured on another scenario of as many jobs (other ids, other
/// submit times) gave numbers silently: slowdowns and R computed from one
/// scenario's starts and the other's submissions. It is an error naming
/// the first job that differs.
#[test]
fn a_run_of_another_scenario_of_the_same_shape_is_refused() {
    let config = Config::paper(vec![8, 8], 3600);
    let grid: Vec<Job> = (0..4)
        .map(|i| Job::new(1000 + i, Time(300 * i as i64), 4, 900, 600))
        .collect();
    let a = scenario(grid.clone());
    let run = simulate(&config, &a, arcb_ask(), None).unwrap();
    assert!(run.metrics(&run, &a, 10).is_ok());
    let mut later = a.clone();
    later.grid[2].submit = Time(700);
    let err = run.metrics(&run, &later, 10).unwrap_err();
    assert_eq!(
        err.to_string(),
        "grid job at position 2: a run simulated job 1002 submitted at 600s where the \
         scenario has job 1002 submitted at 700s; measure runs on the scenario they simulated"
    );
    let mut other = a.clone();
    other.local[1][3].id = 999;
    assert!(matches!(
        other.deadlines(&run, 0.5, 5.0, 1),
        Err(IntergridError::ForeignJob {
            cluster: Some(1),
            position: 3,
            found: (103, _),
            expected: (999, _),
        })
    ));
    let b = simulate(&config, &other, arcb_ask(), None).unwrap();
    assert!(matches!(
        b.metrics(&run, &other, 10),
        Err(IntergridError::ForeignJob { .. })
    ));
}

/// `bsld` with a bound below 1 s divided by 0 for a job that ran 0 s (NaN
/// or infinity, which a mean then spread); such a bound counts as 1 s.
#[test]
fn a_bounded_slowdown_is_finite_for_any_bound() {
    use intergrid::bsld;
    for bound in [i64::MIN, -1, 0, 1] {
        assert_eq!(bsld(Time(0), (Time(10), Time(10)), bound), 10.0, "{bound}");
        assert_eq!(bsld(Time(0), (Time(0), Time(0)), bound), 1.0, "{bound}");
        assert_eq!(bsld(Time(0), (Time(10), Time(4)), bound), 4.0, "{bound}");
    }
    assert_eq!(bsld(Time(0), (Time(10), Time(30)), 10), 1.5);
    assert_eq!(bsld(Time(0), (Time(10), Time(10)), 10), 1.0);
}

/// A repeated id is refused wherever it comes: two grid jobs (by the
/// gateway) or two local jobs of one cluster (by the cluster), each error
/// naming both positions. A grid job and a local job may share an id: records carry
/// the origin, and the provisioning kind's trace and generated local jobs
/// both number from 1.
#[test]
fn a_repeated_id_is_refused_in_the_grid_or_a_cluster_but_not_across_them() {
    let config = Config::paper(vec![8, 8], 3600);
    let grid = |ids: [u64; 2]| -> Vec<Job> {
        (ids.iter().enumerate())
            .map(|(i, &id)| Job::new(id, Time(300 * i as i64), 4, 900, 600))
            .collect()
    };
    let err = simulate(&config, &scenario(grid([7, 7])), arcb_ask(), None).unwrap_err();
    assert!(matches!(err, IntergridError::Gateway { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("grid jobs at positions 0 and 1 both have id 7"),
        "{err}"
    );
    let mut twice = scenario(grid([1000, 1001]));
    twice.local[1][2].id = 100;
    let err = simulate(&config, &twice, arcb_ask(), None).unwrap_err();
    assert!(
        matches!(
            err,
            IntergridError::Cluster {
                cluster: 1,
                error: partitions_forecast::ClusterError::DuplicateLocalId {
                    id: 100,
                    first: 0,
                    second: 2
                },
                ..
            }
        ),
        "{err}"
    );
    // Grid ids 1 and 2 are also local ids of cluster 0 (0 to 3).
    simulate(&config, &scenario(grid([1, 2])), arcb_ask(), None).unwrap();
}
