//! Extreme values through the public entry points (`Cluster::new`,
//! `with_local_jobs`, `advance` and the calls a gateway makes): times near
//! `i64::MIN` and `i64::MAX`, zero and huge processor counts, huge windows
//! and check counts, NaN and infinite smoothing factors, empty inputs.
//! Every call returns a value or a typed error, never panics, and the
//! cluster's own events (`next_event`) run out within a budget counted per
//! job and per reallocation check. Then one regression test per input that
//! once panicked or could exhaust memory.

use partitions_forecast::{
    Cluster, ClusterConfig, ClusterError, ForecastConfig, LoadForecast, LoadMeasure, MAX_CHECKS,
    Origin, ProviderPolicy, ReservationError, ShareFrom,
};
use profile::{Job, MAX_DURATION, Time};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const LIMIT: i64 = Time::LIMIT.0;

/// Times and durations: the edges of `i64` and of the time domain, and
/// ordinary values.
fn seconds() -> impl Strategy<Value = i64> {
    prop_oneof![
        1 => prop::sample::select(vec![
            i64::MIN,
            -LIMIT - 1,
            -LIMIT,
            -1,
            0,
            1,
            LIMIT,
            LIMIT + 1,
            MAX_DURATION + 1,
            i64::MAX - 7,
            i64::MAX,
        ]),
        1 => any::<i64>(),
        6 => 1i64..3000,
    ]
}

fn procs() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => prop::sample::select(vec![0, 1, u32::MAX - 1, u32::MAX]),
        6 => 1u32..24,
    ]
}

fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => prop::sample::select(vec![f64::NAN, f64::INFINITY, -1e300, 1e300, 0.0, 1e-300]),
        3 => 0.01f64..1.0,
    ]
}

/// A job: mostly ordinary, one in `1 + ordinary` with extreme fields.
fn job(ordinary: u32) -> impl Strategy<Value = (u32, i64, i64)> {
    prop_oneof![
        ordinary => (1u32..24, 1i64..3000, 0i64..3000),
        1 => (procs(), seconds(), seconds()),
    ]
}

fn forecast() -> impl Strategy<Value = ForecastConfig> {
    (
        prop_oneof![3 => Just(25usize), 1 => prop::sample::select(vec![0, 1, usize::MAX])],
        prop::option::of(float()),
        prop_oneof![3 => 60i64..3600, 1 => seconds()],
        prop_oneof![3 => 1u32..5, 1 => prop::sample::select(vec![0, MAX_CHECKS, MAX_CHECKS + 1, u32::MAX])],
        seconds(),
        any::<(bool, bool)>(),
    )
        .prop_map(|(window, smoothing, interval, checks, train, (actual, demand))| ForecastConfig {
            window,
            smoothing,
            interval,
            checks,
            train_from: Time(train),
            share_from: if actual { ShareFrom::Actual } else { ShareFrom::Forecast },
            load: if demand { LoadMeasure::Demand } else { LoadMeasure::Utilisation },
        })
}

#[derive(Clone, Debug)]
enum Op {
    /// Move the clock by this much (or to it, when extreme), then submit.
    Submit(i64, bool, (u32, i64, i64)),
    /// Ask to reserve `(procs, estimate)` this far ahead; commit or abort.
    Reserve(i64, (u32, i64, i64), i64, bool),
    /// Publish with this horizon.
    Publish(i64, i64),
    /// Just move the clock.
    Advance(i64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (seconds(), any::<bool>(), job(6)).prop_map(|(d, g, j)| Op::Submit(d, g, j)),
        2 => (seconds(), job(6), seconds(), any::<bool>()).prop_map(|(d, j, s, c)| Op::Reserve(d, j, s, c)),
        1 => (seconds(), seconds()).prop_map(|(d, h)| Op::Publish(d, h)),
        1 => seconds().prop_map(Op::Advance),
    ]
}

/// An ordinary job's width fitted to the machine; extreme widths kept.
fn fit(p: u32, capacity: u32) -> u32 {
    if (1..24).contains(&p) && capacity > 0 {
        1 + (p - 1) % capacity
    } else {
        p
    }
}

/// Where an operation moves the clock: ordinary steps are offsets from now,
/// extreme values are absolute times (often before now or far past the
/// domain).
fn clock(now: Time, d: i64) -> Time {
    if (1..3000).contains(&d) {
        now + d
    } else {
        Time(d)
    }
}

/// Runs the cluster's own events up to `until`, one instant at a time,
/// counting the instants in `instants`.
fn run_until(c: &mut Cluster, until: Time, instants: &mut usize) -> Result<(), TestCaseError> {
    while let Some(t) = c.next_event().filter(|&t| t <= until) {
        prop_assert!(t >= c.now(), "event at {t} before the clock {}", c.now());
        c.advance(t)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        *instants += 1;
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    /// Any provider policy, machine size, forecast setting, clock origin,
    /// local and grid jobs, reservations and publications: values or typed
    /// errors, and every event runs out within the budget.
    #[test]
    fn the_cluster_ends_on_any_input(
        policy in prop::sample::select(ProviderPolicy::ALL.to_vec()),
        capacity in procs(),
        forecast in forecast(),
        origin in prop_oneof![3 => Just(0i64), 1 => seconds()],
        local in prop::collection::vec((0i64..2000, job(30)), 0..10),
        ops in prop::collection::vec(op(), 0..12),
    ) {
        let config = policy.config(capacity, &forecast);
        let Ok(cluster) = Cluster::new(config, Time(origin)) else { return Ok(()); };
        let mut t = Time(origin);
        let local: Vec<Job> = local
            .into_iter()
            .enumerate()
            .map(|(i, (gap, (p, e, r)))| {
                t += gap;
                Job::new(i as u64, t, fit(p, capacity), e, r)
            })
            .collect();
        let mut c = match cluster.with_local_jobs(local.clone()) {
            Ok(c) => c,
            Err(ClusterError::Job { .. } | ClusterError::BadJob { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        let mut jobs = local.len();
        let mut publications = 0;
        let mut instants = 0;
        for (k, op) in ops.into_iter().enumerate() {
            let id = 1000 + k as u64;
            let now = c.now();
            let (Op::Submit(d, ..) | Op::Reserve(d, ..) | Op::Publish(d, _) | Op::Advance(d)) = op;
            run_until(&mut c, clock(now, d), &mut instants)?;
            match op {
                Op::Submit(d, grid, (p, e, r)) => {
                    let at = clock(now, d);
                    let origin = if grid { Origin::Grid } else { Origin::Local };
                    if c.submit(at, Job::new(id, at, fit(p, capacity), e, r), origin).is_ok() {
                        jobs += 1;
                    }
                }
                Op::Reserve(d, (p, e, r), s, commit) => {
                    let at = clock(now, d);
                    let start = clock(at, s);
                    let job = Job::new(id, at, fit(p, capacity), e, r);
                    if let Ok(hold) = c.request_reservation(at, job, start) {
                        jobs += 1;
                        let done = if commit { c.commit(at, hold) } else { c.abort(at, hold) };
                        match done {
                            Ok(()) | Err(ReservationError::InThePast { .. }) => {}
                            Err(e) => return Err(TestCaseError::fail(e.to_string())),
                        }
                    }
                }
                Op::Publish(d, h) => {
                    if c.publish(clock(now, d), Time(h)).is_ok() {
                        publications += 1;
                    }
                }
                Op::Advance(d) => {
                    let at = clock(now, d);
                    match c.advance(at) {
                        Ok(()) => prop_assert_eq!(c.now(), at),
                        Err(ClusterError::Past { .. }) => prop_assert!(at < now),
                        Err(e) => return Err(TestCaseError::fail(e.to_string())),
                    }
                }
            }
        }
        run_until(&mut c, Time::NEVER, &mut instants)?;
        // Per job an arrival, a start and an end, and a start event for every
        // time a reservation moved earlier (at most once per job at each end
        // before its estimate, abort or resize); a check per reallocation.
        let checks = publications * (forecast.checks.min(MAX_CHECKS) as usize + 1);
        let budget = (jobs + 1) * (jobs + publications + 3) + checks;
        prop_assert!(instants <= budget, "{instants} instants, over the budget {budget}");
        prop_assert_eq!(c.next_event(), None);
        prop_assert_eq!(c.drain(), c.now());
        for r in c.records() {
            if let (Some(s), Some(e)) = (r.start, r.end) {
                prop_assert!(s <= e && r.submit <= s, "{r:?}");
            }
        }
    }

    /// The forecast takes any window and smoothing, or refuses them; its
    /// memory follows what it has observed.
    #[test]
    fn forecasts_take_any_setting(
        window in prop_oneof![1usize..40, Just(usize::MAX), Just(0)],
        smoothing in float(),
        loads in prop::collection::vec(float(), 0..60),
    ) {
        let Ok(mut f) = LoadForecast::with_smoothing(window, smoothing) else { return Ok(()); };
        for (i, x) in loads.iter().enumerate() {
            let _ = f.observe(*x);
            prop_assert!(f.len() <= window.min(i + 1));
        }
        if let Some(x) = f.forecast() {
            prop_assert!(x.is_finite() && x >= 0.0);
        }
    }
}

/// An origin or a job near the end of `i64` is refused, not wrapped.
#[test]
fn times_near_the_end_of_i64_are_refused() {
    let config = ClusterConfig::single(8, 1);
    assert_eq!(
        Cluster::new(config.clone(), Time(i64::MAX - 7))
            .unwrap_err()
            .to_string(),
        "the clock's origin (s) is 9223372036854775800, outside [-1099511627776, 1099511627776]"
    );
    let jobs = vec![
        Job::new(1, Time(0), 4, 100, 100),
        Job::new(2, Time(i64::MAX - 7), 4, 100, 100),
    ];
    let err = Cluster::new(config.clone(), Time(0))
        .unwrap()
        .with_local_jobs(jobs)
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("job 2: submit is 9223372036854775800 s"),
        "{err}"
    );
    let mut c = Cluster::new(config, Time(0)).unwrap();
    let late = Job::new(3, Time(0), 4, MAX_DURATION + 1, 1);
    assert!(matches!(
        c.submit(Time(0), late, Origin::Grid),
        Err(ClusterError::Job { .. })
    ));
    // The clock itself may run anywhere forward: far past the domain it
    // only saturates, at worst at "never".
    c.submit(
        Time(0),
        Job::new(4, Time(0), 8, MAX_DURATION, MAX_DURATION),
        Origin::Local,
    )
    .unwrap();
    c.advance(Time::NEVER).unwrap();
    assert_eq!(c.records()[0].end, Some(Time(MAX_DURATION)));
}

/// Local jobs submitted before the clock's origin would make the clock run
/// backwards; they are refused.
#[test]
fn local_jobs_before_the_origin_are_refused() {
    let c = Cluster::new(ClusterConfig::single(8, 1), Time(100)).unwrap();
    let err = c
        .with_local_jobs(vec![Job::new(1, Time(50), 1, 10, 10)])
        .unwrap_err();
    assert_eq!(
        err,
        ClusterError::Past {
            at: Time(50),
            now: Time(100)
        }
    );
}

/// A forecast window of `usize::MAX` once asked for a buffer of 2^64
/// loads (a panic); the window is now a bound, not an allocation. The
/// reallocation checks per interval and the interval are bounded.
#[test]
fn forecast_settings_cannot_exhaust_memory() {
    let mut f = LoadForecast::new(usize::MAX).unwrap();
    f.observe(0.5).unwrap();
    assert_eq!((f.len(), f.forecast()), (1, Some(0.5)));
    let build = |change: fn(&mut ForecastConfig)| {
        let mut fc = ForecastConfig::paper(3600);
        change(&mut fc);
        Cluster::new(ProviderPolicy::ArEbMf.config(8, &fc), Time(0)).map(|_| ())
    };
    assert_eq!(build(|fc| fc.window = usize::MAX), Ok(()));
    assert_eq!(
        build(|fc| fc.checks = u32::MAX).unwrap_err().to_string(),
        "the reallocation checks per interval is 4294967295, outside [1, 10000]"
    );
    assert_eq!(
        build(|fc| fc.interval = i64::MAX).unwrap_err().to_string(),
        "the publication interval (s) is 9223372036854775807, outside [1, 1099511627776]"
    );
    assert_eq!(build(|fc| fc.checks = MAX_CHECKS), Ok(()));
}

/// The largest machine a `u32` can describe keeps no state per processor.
#[test]
fn a_machine_of_u32_max_processors_runs() {
    for policy in ProviderPolicy::ALL {
        let config = policy.config(u32::MAX, &ForecastConfig::paper(3600));
        let mut c = Cluster::new(config, Time(0)).unwrap();
        c.submit(
            Time(0),
            Job::new(1, Time(0), u32::MAX / 4, 60, 60),
            Origin::Grid,
        )
        .unwrap();
        c.publish(Time(0), Time::NEVER).unwrap();
        c.drain();
        assert_eq!(c.records()[0].end, Some(Time(60)), "{policy}");
    }
}

/// Nothing to do: no events, and draining returns the clock.
#[test]
fn an_empty_cluster_has_no_events() {
    let mut c = Cluster::new(ClusterConfig::single(1, 1), Time(-LIMIT))
        .unwrap()
        .with_local_jobs(Vec::new())
        .unwrap();
    assert_eq!(c.next_event(), None);
    assert_eq!(c.drain(), Time(-LIMIT));
    assert!(c.records().is_empty());
}
