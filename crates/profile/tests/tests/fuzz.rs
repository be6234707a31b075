//! Fuzz-style property tests: extreme integers (the ends of `i64` and `u32`,
//! zero, the domain limits and their neighbours) through the job builder,
//! `simulate` under every policy, `validate`, `ScheduleStats` and the
//! profile. Every case must end without a panic, with `Ok` and a valid
//! schedule or with an error that matches the input, and within a step
//! budget: at most `3n + x + m` event-loop steps for `n` jobs, `x`
//! prediction extensions and `m` jobs that outrun their estimate (the count
//! is asserted, not the wall time).

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use profile::{
    Job, MAX_DURATION, Observer, Outcome, Overrun, Policy, Profile, QueueOrder, ScheduleStats,
    SchedulerConfig, SimError, Status, Time, Violation, simulate_observed, validate,
};

const LIM: i64 = Time::LIMIT.secs();
const LATEST: i64 = Time::LATEST.secs();

/// The values where range checks and arithmetic break: the ends of `i64`,
/// zero and one, and every limit of the domain with its neighbours.
const EDGES: [i64; 21] = [
    i64::MIN,
    i64::MIN + 1,
    -LATEST,
    -LIM - 1,
    -LIM,
    -LIM + 1,
    -1,
    0,
    1,
    2,
    LIM - 1,
    LIM,
    LIM + 1,
    MAX_DURATION - 1,
    MAX_DURATION,
    MAX_DURATION + 1,
    LATEST - 1,
    LATEST,
    LATEST + 1,
    i64::MAX - 1,
    i64::MAX,
];

/// Any `i64`, biased towards the edges.
fn extreme_i64() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        2 => any::<i64>(),
        3 => prop::sample::select(&EDGES[..]),
        2 => -50i64..50,
    ]
}

/// Times inside the domain: at its edges or near 0.
fn time() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        3 => prop::sample::select(vec![-LIM, -LIM + 1, -1, 0, 1, LIM - 1, LIM]),
        4 => 0i64..500,
    ]
}

/// Durations inside the domain: at its edges or short.
fn duration() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        2 => prop::sample::select(vec![0, 1, 2, MAX_DURATION - 1, MAX_DURATION]),
        4 => 0i64..200,
    ]
}

fn extreme_u32() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![
        1 => any::<u32>(),
        2 => prop::sample::select(vec![0, 1, 2, u32::MAX - 1, u32::MAX]),
        4 => 1u32..12,
    ]
}

/// A job from the given field strategies, made with the unchecked `new`.
fn job_from(
    time: impl Strategy<Value = i64> + Clone,
    procs: impl Strategy<Value = u32>,
    duration: impl Strategy<Value = i64> + Clone,
) -> impl Strategy<Value = Job> {
    (
        any::<u64>(),
        time.clone(),
        procs,
        duration.clone(),
        duration,
        prop::option::weighted(0.3, time),
    )
        .prop_map(|(id, submit, procs, estimate, run_time, deadline)| {
            let job = Job::new(id, Time(submit), procs, estimate, run_time);
            match deadline {
                Some(d) => job.with_deadline(Time(d)),
                None => job,
            }
        })
}

/// Mostly jobs inside the domain (with an estimate of 0, a width beyond
/// the machine's now and then), one in ten with any `i64` or `u32` anywhere.
fn job() -> impl Strategy<Value = Job> {
    prop_oneof![
        9 => job_from(time(), prop_oneof![9 => 1u32..4, 1 => extreme_u32()], duration()),
        1 => job_from(extreme_i64(), extreme_u32(), extreme_i64()),
    ]
}

/// Up to 24 jobs, usually sorted by submit time (as `simulate` requires).
fn workload() -> impl Strategy<Value = Vec<Job>> {
    (prop::collection::vec(job(), 0..24), 0..4u8).prop_map(|(mut jobs, keep_order)| {
        if keep_order > 0 {
            jobs.sort_by_key(|j| j.submit);
        }
        jobs
    })
}

fn config() -> impl Strategy<Value = SchedulerConfig> {
    let policy = prop_oneof![
        Just(Policy::Fcfs),
        Just(Policy::EASY),
        Just(Policy::Easy { reservations: 2 }),
        Just(Policy::Easy {
            reservations: Policy::UNLIMITED
        }),
        Just(Policy::Conservative),
    ];
    let order = prop_oneof![
        Just(QueueOrder::Arrival),
        Just(QueueOrder::ShortestEstimate),
        Just(QueueOrder::EarliestDeadline),
    ];
    let capacity = prop_oneof![prop::sample::select(vec![0, 1, 2, u32::MAX]), 1u32..12];
    (
        capacity,
        policy,
        order,
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(vec![0u32, 1, SchedulerConfig::EXTENSIONS_PER_JOB]),
    )
        .prop_map(|(capacity, policy, order, cont, drop, per_job)| {
            let overrun = if cont {
                Overrun::Continue
            } else {
                Overrun::Kill
            };
            SchedulerConfig::new(capacity, policy)
                .order(order)
                .overrun(overrun)
                .drop_expired(drop)
                .extensions_per_job(per_job)
        })
}

/// A machine of at least one processor and up to 24 sorted jobs with every
/// field clamped into the domain (so the edges stay common).
fn in_domain() -> impl Strategy<Value = (SchedulerConfig, Vec<Job>)> {
    config().prop_flat_map(|mut config| {
        config.capacity = config.capacity.max(1);
        let capacity = config.capacity;
        let jobs = prop::collection::vec(job(), 1..24).prop_map(move |jobs| {
            let mut jobs: Vec<Job> = jobs
                .into_iter()
                .map(|mut j| {
                    j.submit = Time(j.submit.secs().clamp(-LIM, LIM));
                    j.procs = j.procs.clamp(1, capacity);
                    j.estimate = j.estimate.clamp(1, MAX_DURATION);
                    j.run_time = j.run_time.clamp(0, MAX_DURATION);
                    j.deadline = j.deadline.map(|d| Time(d.secs().clamp(-LIM, LIM)));
                    j
                })
                .collect();
            jobs.sort_by_key(|j| j.submit);
            jobs
        });
        (Just(config), jobs)
    })
}

/// Counts event-loop steps.
#[derive(Default)]
pub struct Steps(pub u64);

impl Observer for Steps {
    fn step(&mut self, _now: Time) {
        self.0 += 1;
    }
}

/// The jobs that outrun their estimate under `config`, and the prediction
/// extensions they need in all.
fn overruns(config: &SchedulerConfig, jobs: &[Job]) -> (u64, u64) {
    if config.overrun != Overrun::Continue {
        return (0, 0);
    }
    jobs.iter()
        .filter(|j| j.run_time > j.estimate && j.estimate >= 1)
        .fold((0, 0), |(m, x), j| {
            (m + 1, x + (j.run_time / j.estimate) as u64)
        })
}

/// `simulate` ends within its step budget with a valid schedule, or with
/// the error the input calls for.
fn check_simulate(config: &SchedulerConfig, jobs: &[Job]) -> Result<(), TestCaseError> {
    let mut steps = Steps::default();
    let result = simulate_observed(config, jobs, &mut steps);
    let n = jobs.len() as u64;
    match result {
        Ok(out) => {
            prop_assert_eq!(out.len(), jobs.len());
            prop_assert!(jobs.iter().all(|j| j.check().is_ok()));
            if let Err(v) = validate(config.capacity, jobs, &out) {
                return Err(TestCaseError::fail(format!("invalid schedule: {v}")));
            }
            let (m, x) = overruns(config, jobs);
            let budget = 3 * n + x + m;
            prop_assert!(steps.0 <= budget, "{} steps > {}", steps.0, budget);
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            // Nothing runs before the input is checked, except for a
            // schedule found to pass LATEST on the way.
            let ran = matches!(e, SimError::BeyondLatest { .. });
            prop_assert!(ran || steps.0 == 0, "{} steps before {}", steps.0, e);
            match e {
                SimError::NoCapacity => prop_assert_eq!(config.capacity, 0),
                SimError::InvalidJob { index, error } => {
                    prop_assert_eq!(jobs[index].check(), Err(error));
                    prop_assert!(jobs[..index].iter().all(|j| j.check().is_ok()));
                }
                SimError::Unsorted { index, id } => {
                    prop_assert_eq!(jobs[index].id, id);
                    prop_assert!(jobs[index].submit < jobs[index - 1].submit);
                }
                SimError::BadWidth {
                    index,
                    procs,
                    capacity,
                    ..
                } => {
                    prop_assert_eq!(jobs[index].procs, procs);
                    prop_assert!(procs > capacity);
                }
                SimError::TooManyExtensions {
                    index,
                    needed,
                    allowed,
                    ..
                } => {
                    prop_assert_eq!(config.overrun, Overrun::Continue);
                    prop_assert_eq!(needed, overruns(config, &jobs[..=index]).1);
                    prop_assert!(needed > allowed);
                }
                SimError::BeyondLatest { index, end, .. } => {
                    prop_assert!(end > Time::LATEST && index < jobs.len());
                }
                SimError::DuplicateId { id, first, second } => {
                    // Every job passed its own checks; the repeat is the
                    // first one met in order.
                    prop_assert!(first < second);
                    prop_assert_eq!((jobs[first].id, jobs[second].id), (id, id));
                    prop_assert!(jobs.iter().all(|j| j.check().is_ok()));
                    let earlier = |k: usize| jobs[..k].iter().any(|j| j.id == jobs[k].id);
                    prop_assert!(!(0..second).any(earlier));
                }
                other => return Err(TestCaseError::fail(format!("unknown error {other}"))),
            }
        }
    }
    Ok(())
}

/// `validate` and `ScheduleStats` take any outcomes without panicking, and
/// `validate` accepts only in-domain jobs with representable, exact times.
fn check_validate(capacity: u32, jobs: &[Job], outs: &[Outcome]) -> Result<(), TestCaseError> {
    let stats = ScheduleStats::compute(jobs, outs, capacity, 10);
    if jobs.len() != outs.len() {
        prop_assert!(matches!(stats, Err(Violation::Length { .. })), "{stats:?}");
    }
    if validate(capacity, jobs, outs).is_ok() {
        // What validate accepts, the statistics take, with a utilisation
        // in [0, 1].
        let stats = stats.map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!((0.0..=1.0 + 1e-9).contains(&stats.utilization), "{stats:?}");
        prop_assert_eq!(jobs.len(), outs.len());
        for (j, o) in jobs.iter().zip(outs) {
            prop_assert!(j.check().is_ok());
            prop_assert!(o.start >= j.submit && o.start <= Time::LATEST);
            prop_assert!(o.end >= o.start && o.end <= Time::LATEST);
            let ran = o.end.secs().checked_sub(o.start.secs());
            let want = match o.status {
                Status::Completed => Some(j.run_time),
                Status::Killed => Some(j.estimate),
                Status::Dropped => Some(0),
                other => panic!("no rule for status {other:?}"),
            };
            prop_assert_eq!(ran, want);
        }
    }
    Ok(())
}

/// Up to 8 jobs and one outcome per job with any start, length and status.
fn arbitrary_schedule() -> impl Strategy<Value = (Vec<Job>, Vec<Outcome>)> {
    prop::collection::vec(job(), 0..8).prop_flat_map(|jobs| {
        let n = jobs.len();
        let ids: Vec<u64> = jobs.iter().map(|j| j.id).collect();
        let status = prop::sample::select(vec![Status::Completed, Status::Killed, Status::Dropped]);
        let outs = prop::collection::vec((extreme_i64(), extreme_i64(), status), n..=n).prop_map(
            move |raw| {
                raw.into_iter()
                    .zip(&ids)
                    .map(|((start, len, status), &id)| Outcome {
                        id,
                        start: Time(start),
                        end: Time(start) + len,
                        status,
                    })
                    .collect()
            },
        );
        (Just(jobs), outs)
    })
}

/// One operation on a profile, with extreme arguments.
#[derive(Clone, Debug)]
enum Op {
    Reserve(i64, i64, u32),
    Release(i64, i64, u32),
    Advance(i64),
    Earliest(i64, u32, i64),
    Window(i64, i64),
    Slots(i64, i64),
}

fn op() -> impl Strategy<Value = Op> {
    let (t, d, p) = (extreme_i64, extreme_i64, extreme_u32);
    prop_oneof![
        3 => (t(), d(), p()).prop_map(|(s, d, p)| Op::Reserve(s, d, p)),
        2 => (t(), d(), p()).prop_map(|(s, d, p)| Op::Release(s, d, p)),
        1 => t().prop_map(Op::Advance),
        2 => (t(), p(), d()).prop_map(|(a, p, d)| Op::Earliest(a, p, d)),
        1 => (t(), t()).prop_map(|(a, b)| Op::Window(a, b)),
        1 => (t(), t()).prop_map(|(a, b)| Op::Slots(a, b)),
    ]
}

/// Every profile operation ends without a panic and keeps the profile's
/// structure: strictly increasing step times, adjacent steps that differ,
/// free counts within the capacity.
fn check_profile(capacity: u32, origin: i64, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut p = Profile::new(capacity, Time(origin));
    for op in ops {
        match *op {
            Op::Reserve(s, d, n) => {
                let _ = p.reserve(Time(s), d, n);
            }
            Op::Release(s, d, n) => {
                let _ = p.release(Time(s), d, n);
            }
            Op::Advance(t) => p.advance(Time(t)),
            Op::Earliest(a, n, d) => {
                if let Some(s) = p.earliest_start(Time(a), n, d) {
                    prop_assert!(s >= Time(a).max(p.origin()));
                    if n <= capacity && d > 0 {
                        prop_assert!(p.min_free(s, s + d) >= n, "{:?} at {}", op, s);
                    }
                }
            }
            Op::Window(a, b) => {
                prop_assert!(p.min_free(Time(a), Time(b)) <= capacity);
                prop_assert!(p.max_free(Time(a), Time(b)) <= capacity);
            }
            Op::Slots(a, b) => {
                for slot in p.free_slots(Time(a), Time(b)) {
                    prop_assert!(slot.start < slot.end && slot.procs <= capacity);
                }
            }
        }
        let steps = p.steps();
        for w in steps.windows(2) {
            prop_assert!(w[0].0 < w[1].0 && w[0].1 != w[1].1, "{:?}", steps);
        }
        prop_assert!(steps.iter().all(|s| s.1 <= capacity));
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(2000))]

    #[test]
    fn simulate_ends_within_its_step_budget(jobs in workload(), config in config()) {
        check_simulate(&config, &jobs)?;
    }

    #[test]
    fn simulate_on_in_domain_edges_gives_valid_schedules((config, jobs) in in_domain()) {
        check_simulate(&config, &jobs)?;
        // In the domain, only the extension budget can refuse a workload
        // this small (24 jobs of at most 2^40 s end far before LATEST).
        if let Err(e) = profile::simulate(&config, &jobs) {
            prop_assert!(matches!(e, SimError::TooManyExtensions { .. }), "{}", e);
        }
    }

    #[test]
    fn the_builder_agrees_with_check(job in job()) {
        let mut b = Job::builder(job.id)
            .submit(job.submit)
            .procs(job.procs)
            .estimate(job.estimate)
            .run_time(job.run_time);
        if let Some(d) = job.deadline {
            b = b.deadline(d);
        }
        match b.build() {
            Ok(built) => {
                prop_assert_eq!(&built, &job);
                prop_assert!(job.check().is_ok());
            }
            Err(e) => prop_assert_eq!(job.check(), Err(e)),
        }
    }

    #[test]
    fn validate_and_stats_take_any_outcomes((jobs, outs) in arbitrary_schedule(), capacity in extreme_u32()) {
        check_validate(capacity, &jobs, &outs)?;
    }

    #[test]
    fn validate_catches_any_shifted_end(
        (config, jobs) in in_domain(),
        k in any::<prop::sample::Index>(),
        delta in extreme_i64(),
        both in any::<bool>(),
    ) {
        let Ok(mut outs) = profile::simulate(&config, &jobs) else {
            return Ok(());
        };
        let o = &mut outs[k.index(jobs.len())];
        // Wrapping, as an unchecked `+` in a release build would.
        o.end = Time(o.end.secs().wrapping_add(delta));
        if both {
            o.start = Time(o.start.secs().wrapping_add(delta));
        } else {
            prop_assert!(delta == 0 || validate(config.capacity, &jobs, &outs).is_err());
        }
        check_validate(config.capacity, &jobs, &outs)?;
    }

    #[test]
    fn profile_operations_take_extreme_arguments(
        capacity in extreme_u32(),
        origin in extreme_i64(),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        check_profile(capacity, origin, &ops)?;
    }
}
