//! The edges of the time domain: each input that once panicked, hung or
//! produced a wrapped schedule, and what it gives now.

use profile::{
    Job, JobError, JobField, MAX_DURATION, Outcome, Overrun, Policy, Profile, ScheduleStats,
    SchedulerConfig, SimError, Status, Time, Violation, simulate, validate,
};

const POLICIES: [Policy; 3] = [Policy::Fcfs, Policy::EASY, Policy::Conservative];

/// Runs `jobs` under every policy on `capacity` processors and checks that
/// each run is refused because job `index`'s `field` is out of range.
fn check_invalid(capacity: u32, jobs: &[Job], index: usize, field: JobField) {
    let id = jobs[index].id;
    for policy in POLICIES {
        let err = simulate(&SchedulerConfig::new(capacity, policy), jobs).unwrap_err();
        match &err {
            SimError::InvalidJob {
                index: i,
                error:
                    JobError::OutOfRange {
                        id: got, field: f, ..
                    },
            } => assert_eq!((*i, *got, *f), (index, id, field), "{err}"),
            other => panic!("{policy:?}: expected job {id}'s {field} refused, got {other}"),
        }
        let text = err.to_string();
        assert!(
            text.contains(&format!("job {id}")) && text.contains(field.name()),
            "{text}"
        );
    }
}

#[test]
fn requested_time_i64_max_is_refused_not_a_panic() {
    // A trace job with requested time 9223372036854775807 panicked EASY
    // ("width checked"), conservative ("width was checked") and FCFS
    // ("every job ends exactly once"): its reservation saturated to "never".
    let jobs = [
        Job::new(1, Time(0), 2, i64::MAX, 100),
        Job::new(2, Time(10), 4, 100, 100),
        Job::new(3, Time(20), 1, 100, 100),
    ];
    check_invalid(4, &jobs, 0, JobField::Estimate);
    // The same with the run time, and just past the accepted maximum.
    let jobs = [Job::new(1, Time(0), 2, 100, MAX_DURATION + 1)];
    check_invalid(4, &jobs, 0, JobField::RunTime);
    let jobs = [Job::new(1, Time(0), 2, MAX_DURATION + 1, 100)];
    check_invalid(4, &jobs, 0, JobField::Estimate);
}

#[test]
fn submit_times_near_i64_max_are_refused() {
    // Submits 0, 9223372036854775800 and ...801 wrapped `now + dt`.
    let jobs = [
        Job::new(1, Time(0), 1, 100, 100),
        Job::new(2, Time(9_223_372_036_854_775_800), 1, 100, 100),
        Job::new(3, Time(9_223_372_036_854_775_801), 1, 100, 100),
    ];
    check_invalid(4, &jobs, 1, JobField::Submit);
    let jobs = [Job::new(1, Time(i64::MAX - 7), 1, 1, 1)];
    check_invalid(4, &jobs, 0, JobField::Submit);
    let jobs = [Job::new(1, Time(i64::MIN), 1, 1, 1)];
    check_invalid(4, &jobs, 0, JobField::Submit);
    let late = [Job::new(1, Time(0), 1, 1, 1).with_deadline(Time(i64::MAX))];
    check_invalid(4, &late, 0, JobField::Deadline);
}

#[test]
fn the_edges_of_the_domain_simulate_exactly() {
    // The extreme accepted values: submit at ±LIMIT, durations of MAX_DURATION.
    let lim = Time::LIMIT.secs();
    let jobs = [
        Job::new(1, Time(-lim), 4, MAX_DURATION, MAX_DURATION),
        Job::new(2, Time(lim), 4, MAX_DURATION, MAX_DURATION),
        Job::new(3, Time(lim), 1, 1, 0),
    ];
    for policy in POLICIES {
        for overrun in [Overrun::Kill, Overrun::Continue] {
            let config = SchedulerConfig::new(4, policy).overrun(overrun);
            let out = simulate(&config, &jobs).unwrap();
            validate(4, &jobs, &out).unwrap();
            assert_eq!(out[0].end, Time(-lim + MAX_DURATION));
            // Job 1 ends at 0, so job 2 starts on arrival and runs 2^40 s;
            // job 3 waits for it (FCFS, and no hole to backfill into).
            assert_eq!((out[1].start, out[1].end), (Time(lim), Time(2 * lim)));
            assert_eq!(out[2].start, Time(2 * lim), "{policy:?}");
        }
    }
}

#[test]
fn time_arithmetic_never_wraps_or_panics() {
    // `Time + i64` overflowed in debug builds; it saturates at "never" now.
    assert_eq!(Time(i64::MAX - 7) + 100, Time::NEVER);
    assert_eq!(Time(i64::MIN) - 1, Time(i64::MIN));
    assert_eq!(Time::NEVER - Time(i64::MIN), i64::MAX);
    // The profile keeps working with extreme arguments.
    let mut p = Profile::new(u32::MAX, Time(i64::MIN));
    p.reserve(Time(i64::MAX - 1), i64::MAX, u32::MAX).unwrap();
    assert!(p.release(Time(0), 10, u32::MAX).is_err());
    // [MIN, MAX - 1) is free and longer than any i64 duration.
    assert_eq!(
        p.earliest_start(Time(i64::MIN), 1, i64::MAX),
        Some(Time(i64::MIN))
    );
    assert_eq!(p.earliest_start(Time(i64::MAX - 1), 1, 1), None);
    assert_eq!(p.earliest_start(Time(0), 1, 5), Some(Time(0)));
}

fn outcome(id: u64, start: i64, end: i64) -> Outcome {
    Outcome {
        id,
        start: Time(start),
        end: Time(end),
        status: Status::Completed,
    }
}

#[test]
fn validate_catches_wrapped_schedules() {
    // Submit 9223372036854775800 with run time 100 gave a schedule whose end
    // wrapped to i64::MIN + 92; the subtraction wrapped back and passed.
    let start: i64 = 9_223_372_036_854_775_800;
    let wrapped = start.wrapping_add(100);
    let job = [Job::new(1, Time(start), 1, 100, 100)];
    let out = [outcome(1, start, wrapped)];
    assert!(matches!(
        validate(4, &job, &out),
        Err(Violation::InvalidJob { index: 0, .. })
    ));
    // An in-domain job whose outcome wrapped is caught by its times.
    let job = [Job::new(1, Time(0), 1, 100, 100)];
    let out = [outcome(1, i64::MAX - 50, (i64::MAX - 50).wrapping_add(100))];
    let err = validate(4, &job, &out).unwrap_err();
    assert!(
        matches!(err, Violation::TimeOutOfRange { id: 1, .. }),
        "{err}"
    );
    // Beyond the latest schedulable instant, unwrapped, is refused too.
    let late = Time::LATEST.secs() + 1;
    let out = [outcome(1, late, late + 100)];
    assert!(matches!(
        validate(4, &job, &out),
        Err(Violation::TimeOutOfRange { .. })
    ));
    // The statistics of such a schedule do not panic either.
    let s = ScheduleStats::compute(&job, &out, 4, 10).unwrap();
    assert_eq!(s.completed, 1);
}

#[test]
fn workloads_past_the_latest_instant_are_refused() {
    // 4097 jobs of 2^40 s each that must run one after the other: the last
    // would end at 4097 * 2^40 s > LATEST = 2^52 s.
    let jobs: Vec<Job> = (0..4097u64)
        .map(|i| Job::new(i, Time(0), 2, MAX_DURATION, MAX_DURATION))
        .collect();
    for policy in POLICIES {
        let err = simulate(&SchedulerConfig::new(2, policy), &jobs).unwrap_err();
        assert!(
            matches!(err, SimError::BeyondLatest { index: 4096, id: 4096, end }
                if end == Time(4097 * MAX_DURATION)),
            "{policy:?}: {err}"
        );
        // One job fewer fits exactly.
        let out = simulate(&SchedulerConfig::new(2, policy), &jobs[..4096]).unwrap();
        assert_eq!(out[4095].end, Time::LATEST);
        validate(2, &jobs[..4096], &out).unwrap();
    }
}

#[test]
fn prediction_extensions_are_budgeted() {
    // Under overrun 'continue' a job with estimate 1 s and run time 2^40 s
    // would be re-planned 2^40 times: the run is refused up front.
    let jobs = [Job::new(7, Time(0), 1, 1, MAX_DURATION)];
    let config = SchedulerConfig::new(4, Policy::EASY).overrun(Overrun::Continue);
    let err = simulate(&config, &jobs).unwrap_err();
    assert!(
        matches!(
            err,
            SimError::TooManyExtensions {
                index: 0,
                id: 7,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("job 7"), "{err}");
    // Killing at the estimate needs no extension: the same job runs.
    let kill = SchedulerConfig::new(4, Policy::EASY);
    assert_eq!(simulate(&kill, &jobs).unwrap()[0].end, Time(1));
    // The budget is exact: the grace alone (no per-job allowance) admits
    // EXTENSION_GRACE extensions, and one more is refused.
    let grace = SchedulerConfig::EXTENSION_GRACE as i64;
    for policy in POLICIES {
        let config = SchedulerConfig::new(4, policy)
            .overrun(Overrun::Continue)
            .extensions_per_job(0);
        let fits = [Job::new(1, Time(0), 1, 1, grace)];
        let out = simulate(&config, &fits).unwrap();
        assert_eq!(out[0].end, Time(grace));
        let over = [Job::new(1, Time(0), 1, 1, grace + 1)];
        assert!(matches!(
            simulate(&config, &over),
            Err(SimError::TooManyExtensions {
                needed, allowed, ..
            }) if needed == allowed + 1
        ));
    }
}

#[test]
fn the_builder_is_the_checked_entry() {
    let job = Job::builder(1)
        .submit(Time(5))
        .procs(2)
        .estimate(10)
        .run_time(3)
        .deadline(Time(100))
        .build()
        .unwrap();
    assert_eq!(job, Job::new(1, Time(5), 2, 10, 3).with_deadline(Time(100)));
    let cases: &[(Job, JobField)] = &[
        (Job::new(1, Time(0), 0, 1, 1), JobField::Procs),
        (Job::new(1, Time(0), 1, 0, 1), JobField::Estimate),
        (Job::new(1, Time(0), 1, 1, -1), JobField::RunTime),
        (
            Job::new(1, Time(Time::LIMIT.secs() + 1), 1, 1, 1),
            JobField::Submit,
        ),
    ];
    for (job, field) in cases {
        let built = Job::builder(job.id)
            .submit(job.submit)
            .procs(job.procs)
            .estimate(job.estimate)
            .run_time(job.run_time)
            .build();
        assert!(
            matches!(built, Err(JobError::OutOfRange { field: f, .. }) if f == *field),
            "{built:?}"
        );
        assert_eq!(built.unwrap_err(), job.check().unwrap_err());
    }
}

/// A scheduler that asks to wake a second later after every decision, and
/// a Stepper-free loop: once no job waits, runs or is still to come the
/// run ends (it stepped one wake-up at a time towards `Time::LATEST`,
/// 2^52 s, and never returned), with FCFS's schedule and no more steps.
#[test]
fn a_scheduler_that_always_asks_to_wake_lets_the_run_end() {
    use profile::{Context, Observer, Scheduler, simulate_with};
    struct Insomniac;
    impl Scheduler for Insomniac {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            profile::testing::fcfs_decision(ctx)?;
            ctx.wake_at(Some(ctx.now() + 1));
            Ok(())
        }
    }
    #[derive(Default)]
    struct Last(Option<Time>, usize);
    impl Observer for Last {
        fn step(&mut self, now: Time) {
            self.0 = Some(now);
            self.1 += 1;
        }
    }
    let jobs = [
        Job::new(1, Time(0), 2, 10, 10),
        Job::new(2, Time(5), 2, 10, 10),
    ];
    let config = SchedulerConfig::new(2, Policy::Fcfs);
    let mut last = Last::default();
    let got = simulate_with(&config, &mut Insomniac, &jobs, &mut last).unwrap();
    assert_eq!(got, simulate(&config, &jobs).unwrap());
    // Wake-ups every second while a job waits or runs, the last at the end
    // of job 2 (20 s); none after it.
    assert_eq!(last.0, Some(Time(20)));
    assert_eq!(last.1, 21);
}
