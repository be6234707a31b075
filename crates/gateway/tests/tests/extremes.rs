//! Extreme values through `run`: times near `i64::MIN` and `i64::MAX` in
//! jobs and settings, zero and huge periods, attempts and processor counts,
//! empty inputs, and a provider that breaks its contract. Every run returns
//! its result or a typed error, never panics, and its loop turns (one
//! `Provider::advance` per provider and turn, counted by a wrapper) stay
//! within a budget of the jobs' and the timers' events. Then one regression
//! test per input that once panicked or could loop for ever.

use gateway::{
    Fate, GatewayConfig, GatewayError, GatewayPolicy, HoldId, Information, MAX_ATTEMPTS, MAX_TICKS,
    Provider, Refusal, Report, ReportProblem, run,
};
use profile::{FreeSlot, Job, MAX_DURATION, Time};
use proptest::prelude::*;

use crate::twin::Twin;

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
        6 => 1i64..2000,
    ]
}

/// `x`, or now and then an extreme value.
fn or<T: std::fmt::Debug + Clone + 'static>(
    x: T,
    other: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop::option::weighted(0.15, other)
        .prop_map(move |o| o.unwrap_or_else(|| x.clone()))
        .boxed()
}

/// A provider that counts the loop's turns: `run` advances every provider
/// once per turn.
struct Counted {
    inner: Twin,
    turns: usize,
}

impl Provider for Counted {
    fn capacity(&self) -> u32 {
        self.inner.capacity()
    }
    fn utilisation(&self, now: Time) -> f64 {
        self.inner.utilisation(now)
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.inner.free_slots(now, horizon)
    }
    fn publish(&mut self, now: Time, horizon: Time) -> Option<Vec<FreeSlot>> {
        self.inner.publish(now, horizon)
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        self.inner.submit(now, job)
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        self.inner.request_reservation(now, job, start)
    }
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.inner.commit(now, hold)
    }
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.inner.abort(now, hold)
    }
    fn next_event(&self) -> Option<Time> {
        self.inner.next_event()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        self.turns += 1;
        self.inner.advance(now, reports);
    }
}

fn policy() -> impl Strategy<Value = GatewayPolicy> {
    prop_oneof![
        Just(GatewayPolicy::LeastLoaded),
        Just(GatewayPolicy::EarliestStart(Information::Ask)),
        or(600i64, seconds())
            .prop_map(|interval| GatewayPolicy::EarliestStart(Information::Partial { interval })),
    ]
}

fn config() -> impl Strategy<Value = GatewayConfig> {
    (
        policy(),
        (or(600i64, seconds()), or(600i64, seconds())),
        (prop::option::of(seconds()), any::<u32>(), any::<bool>()),
        or(
            10u32,
            prop::sample::select(vec![0, 1, MAX_ATTEMPTS, MAX_ATTEMPTS + 1, u32::MAX]),
        ),
        (or(0i64, seconds()), prop::option::of(seconds()), seconds()),
    )
        .prop_map(
            |(
                policy,
                (report, retry),
                (horizon, tolerance, track),
                attempts,
                (start, until, from),
            )| {
                let mut c = GatewayConfig::new(policy)
                    .horizon(horizon)
                    .tolerance(tolerance)
                    .track_allocations(track)
                    .measure_from(Time(from));
                c.report_every = report;
                c.retry_every = retry;
                c.max_attempts = attempts;
                c.start = Time(start);
                c.timers_until = until.map(Time);
                c
            },
        )
}

/// Grid jobs in submit order: mostly ordinary (some with deadlines), now
/// and then one with extreme fields.
fn grid_jobs() -> impl Strategy<Value = Vec<Job>> {
    let ordinary = (
        Just(None),
        1u32..10,
        1i64..300,
        0i64..300,
        prop::option::of(1i64..1000),
    );
    let extreme = (
        seconds().prop_map(Some),
        prop::sample::select(vec![0, 1, u32::MAX]),
        seconds(),
        seconds(),
        prop::option::of(seconds()),
    );
    prop::collection::vec(prop_oneof![9 => ordinary, 1 => extreme], 0..10).prop_map(|v| {
        let mut t = 0i64;
        v.into_iter()
            .enumerate()
            .map(|(i, (at, procs, estimate, run, deadline))| {
                t = at.unwrap_or(t.saturating_add(estimate % 60));
                let job = Job::new(1000 + i as u64, Time(t), procs, estimate, run);
                match deadline {
                    Some(d) if at.is_none() => job.with_deadline(Time(t) + estimate + d),
                    Some(d) => job.with_deadline(Time(d)),
                    None => job,
                }
            })
            .collect()
    })
}

/// A provider's capacity and its local jobs: (gap, processors, estimate).
type ProviderSpec = (u32, Vec<(i64, u32, i64)>);

/// Providers with local jobs that fit them.
fn providers() -> impl Strategy<Value = Vec<ProviderSpec>> {
    prop::collection::vec(
        (
            prop_oneof![6 => 1u32..16, 1 => Just(u32::MAX)],
            prop::collection::vec((0i64..200, 1u32..16, 1i64..300), 0..6),
        ),
        0..3,
    )
}

/// How often the timers the policy uses fire between `start` and `until`.
fn ticks(config: &GatewayConfig, until: Time) -> usize {
    let span = (until - config.start).max(0);
    let every = match config.policy {
        GatewayPolicy::LeastLoaded => config.report_every,
        GatewayPolicy::EarliestStart(Information::Ask) => config.retry_every,
        GatewayPolicy::EarliestStart(Information::Partial { interval }) => interval,
        other => unreachable!("no such policy in these tests: {other:?}"),
    };
    (span / every.max(1) + 1) as usize
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    /// Any settings, providers and grid jobs: a fate per job or a typed
    /// error, within the turn budget.
    #[test]
    fn the_gateway_ends_on_any_input(
        config in config(),
        jobs in grid_jobs(),
        providers in providers(),
    ) {
        let mut local_jobs = 0;
        let mut ps: Vec<Counted> = providers
            .into_iter()
            .enumerate()
            .map(|(k, (cap, local))| {
                let mut t = 0;
                let local: Vec<Job> = local
                    .into_iter()
                    .enumerate()
                    .map(|(i, (gap, procs, est))| {
                        t += gap;
                        Job::new((k * 100 + i) as u64, Time(t), procs.min(cap), est, est / 2)
                    })
                    .collect();
                local_jobs += local.len();
                Counted { inner: Twin::new(cap, local), turns: 0 }
            })
            .collect();
        match run(&config, &mut ps, &jobs) {
            Ok(result) => {
                prop_assert_eq!(result.fates.len(), jobs.len());
                // The gateway checks every report: whatever the provider
                // does, a job runs after it was placed and ends after it
                // starts.
                for (f, j) in result.fates.iter().zip(&jobs) {
                    if let Fate::Ran { placed, start, end, .. } = *f {
                        prop_assert!(j.submit <= placed && placed <= start && start <= end, "{f:?}");
                    }
                }
                let until = config
                    .timers_until
                    .or(jobs.last().map(|j| j.submit))
                    .unwrap_or(config.start);
                // Per job: its arrival, a start and an end, a turn after
                // gateway calls at one instant; the timers' ticks.
                let budget = 4 * (jobs.len() + local_jobs + 1) + ticks(&config, until);
                let turns = ps[0].turns;
                prop_assert!(ps.iter().all(|p| p.turns == turns));
                prop_assert!(turns <= budget, "{turns} turns, over the budget {budget}");
            }
            Err(GatewayError::NoProviders) => prop_assert!(ps.is_empty()),
            Err(GatewayError::Unsorted { .. } | GatewayError::Job { .. }) => {}
            Err(GatewayError::Period { value, .. }) => {
                prop_assert!(!(1..=MAX_DURATION).contains(&value));
            }
            Err(GatewayError::Setting { .. }) => {}
            // Negative run times and estimates are the provider's to judge;
            // the test provider runs them backwards, and the gateway refuses
            // the end it then reports before the start.
            Err(GatewayError::Report {
                job,
                problem: ReportProblem::EndBeforeStart { .. },
                ..
            }) => {
                let j = jobs.iter().find(|j| j.id == job).expect("a grid job");
                prop_assert!(j.run_time.min(j.estimate) < 0, "{j:?}");
            }
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }
}

fn twin(capacity: u32) -> Vec<Twin> {
    vec![Twin::new(capacity, Vec::new())]
}

/// A grid job submitted near the end of `i64` is refused before the run.
#[test]
fn a_job_at_the_end_of_i64_is_refused() {
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Ask));
    let jobs = [
        Job::new(1, Time(0), 1, 60, 60),
        Job::new(2, Time(i64::MAX - 7), 1, 60, 60),
    ];
    let err = run(&config, &mut twin(4), &jobs).unwrap_err();
    assert_eq!(
        err.to_string(),
        "grid job 2: submit is 9223372036854775800 s, outside [-1099511627776, 1099511627776]; \
         times must lie within 2^40 s (about 34,800 years) of the origin and durations be at \
         most 2^40 s"
    );
    let far = [Job::new(3, Time(0), 1, 60, 60).with_deadline(Time::NEVER)];
    assert!(matches!(
        run(&config, &mut twin(4), &far),
        Err(GatewayError::Job {
            field: "deadline",
            ..
        })
    ));
}

/// Timers firing every second from -2^40 s to 2^40 s would take 2^41 turns:
/// refused before the run. So are periods past 2^40 s and more attempts
/// than `MAX_ATTEMPTS`.
#[test]
fn timers_and_attempts_are_bounded() {
    let mut config = GatewayConfig::new(GatewayPolicy::LeastLoaded).timers_until(Time(LIMIT));
    config.start = Time(-LIMIT);
    config.report_every = 1;
    let err = run(&config, &mut twin(4), &[]).unwrap_err();
    assert_eq!(
        err,
        GatewayError::Setting {
            name: "report_every",
            value: 1,
            min: 2 * LIMIT / MAX_TICKS + 1,
            max: MAX_DURATION,
        }
    );
    config.report_every = 2 * LIMIT / MAX_TICKS + 1;
    assert!(run(&config, &mut twin(4), &[]).is_ok());
    config.report_every = i64::MAX;
    assert_eq!(
        run(&config, &mut twin(4), &[]).unwrap_err().to_string(),
        "report_every is 9223372036854775807 s; give a number of seconds from 1 to 2^40"
    );
    let mut config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Ask));
    config.max_attempts = u32::MAX;
    assert!(matches!(
        run(&config, &mut twin(4), &[]),
        Err(GatewayError::Setting {
            name: "max_attempts",
            ..
        })
    ));
}

/// A horizon of 0 s or less describes no slot at all, so every provider
/// looked full for ever and a run went on with nothing placed: refused,
/// as is one past 2^40 s.
#[test]
fn the_horizon_is_at_least_one_second() {
    for h in [i64::MIN, -5, 0, MAX_DURATION + 1] {
        let mut config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
        config.horizon = Some(h);
        assert_eq!(
            run(&config, &mut twin(4), &[]),
            Err(GatewayError::Setting {
                name: "horizon",
                value: h,
                min: 1,
                max: MAX_DURATION,
            }),
            "{h}"
        );
    }
    for h in [1, MAX_DURATION] {
        let mut config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
        config.horizon = Some(h);
        assert!(run(&config, &mut twin(4), &[]).is_ok(), "{h}");
    }
}

/// A provider whose next event never moves once made the loop turn for
/// ever at one instant; it is now an error.
#[test]
fn a_provider_stuck_in_time_is_an_error() {
    struct Stuck;
    impl Provider for Stuck {
        fn capacity(&self) -> u32 {
            4
        }
        fn utilisation(&self, _: Time) -> f64 {
            0.0
        }
        fn free_slots(&mut self, _: Time, _: Time) -> Vec<FreeSlot> {
            Vec::new()
        }
        fn submit(&mut self, _: Time, _: Job) -> Result<(), Refusal> {
            Ok(())
        }
        crate::no_reservations!("never");
        fn next_event(&self) -> Option<Time> {
            Some(Time(5))
        }
    }
    let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
    let err = run(&config, &mut [Stuck], &[Job::new(1, Time(0), 1, 60, 60)]).unwrap_err();
    assert_eq!(
        err,
        GatewayError::ProviderClock {
            provider: 0,
            now: Time(5),
            event: Time(5)
        }
    );
}

/// Wide machines and empty inputs.
#[test]
fn huge_machines_and_empty_inputs() {
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Ask));
    let jobs = [Job::new(1, Time(0), u32::MAX, 60, 60)];
    let result = run(&config, &mut twin(u32::MAX), &jobs).unwrap();
    assert!(matches!(result.fates[0], Fate::Ran { start: Time(0), .. }));
    let result = run(&config, &mut twin(4), &jobs).unwrap();
    assert!(matches!(result.fates[0], Fate::Rejected { .. }));
    assert!(run(&config, &mut twin(4), &[]).unwrap().fates.is_empty());
    let none: &mut [Twin] = &mut [];
    assert_eq!(run(&config, none, &jobs), Err(GatewayError::NoProviders));
}
