//! Property tests: the profile against its brute-force twin, and the
//! schedulers' invariants on random workloads.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use profile::builtin::{BuiltIn, Conservative, Easy, Fcfs};
use profile::testing::{Guarantee, Suite};
use profile::{NoObserver, Overrun, Policy, Profile, QueueOrder, Time, simulate, simulate_with};

use crate::twin::Twin;

const CAP: u32 = 8;
const HORIZON: i64 = 64;

#[derive(Clone, Debug)]
enum Op {
    Reserve {
        start: i64,
        dur: i64,
        procs: u32,
    },
    /// Release the k-th live reservation (modulo their number).
    ReleaseLive {
        k: usize,
    },
    /// Release an arbitrary rectangle (usually an error).
    ReleaseAny {
        start: i64,
        dur: i64,
        procs: u32,
    },
    Advance {
        by: i64,
    },
    Earliest {
        after: i64,
        dur: i64,
        procs: u32,
    },
    MinFree {
        start: i64,
        len: i64,
    },
    Slots {
        from: i64,
        len: i64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let rect = (0..HORIZON / 2, 1..HORIZON / 2, 1..=CAP);
    prop_oneof![
        4 => rect.clone().prop_map(|(start, dur, procs)| Op::Reserve { start, dur, procs }),
        2 => any::<usize>().prop_map(|k| Op::ReleaseLive { k }),
        1 => rect.clone().prop_map(|(start, dur, procs)| Op::ReleaseAny { start, dur, procs }),
        1 => (0..4i64).prop_map(|by| Op::Advance { by }),
        3 => (0..HORIZON / 2, 1..HORIZON / 2, 1..=CAP + 1)
            .prop_map(|(after, dur, procs)| Op::Earliest { after, dur, procs }),
        1 => (0..HORIZON, 0..HORIZON / 2).prop_map(|(start, len)| Op::MinFree { start, len }),
        1 => (0..HORIZON / 2, 0..HORIZON / 2).prop_map(|(from, len)| Op::Slots { from, len }),
    ]
}

/// The structural invariants of the fast profile.
fn check_profile_invariants(p: &Profile) -> Result<(), TestCaseError> {
    let steps = p.steps();
    prop_assert!(!steps.is_empty());
    for w in steps.windows(2) {
        prop_assert!(w[0].0 < w[1].0, "step times strictly increase: {steps:?}");
        prop_assert!(w[0].1 != w[1].1, "adjacent steps differ: {steps:?}");
    }
    prop_assert!(steps.iter().all(|s| s.1 <= p.capacity()));
    Ok(())
}

fn check_against_twin(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut fast = Profile::new(CAP, Time(0));
    let mut twin = Twin::new(CAP, HORIZON as usize);
    let mut live: Vec<(i64, i64, u32)> = Vec::new();
    for op in ops {
        match *op {
            Op::Reserve { start, dur, procs } => {
                let ok = twin.add(start, dur, -i64::from(procs));
                prop_assert_eq!(
                    fast.reserve(Time(start), dur, procs).is_ok(),
                    ok,
                    "{:?}",
                    op
                );
                if ok {
                    live.push((start, dur, procs));
                }
            }
            Op::ReleaseLive { k } => {
                if !live.is_empty() {
                    let (start, dur, procs) = live.swap_remove(k % live.len());
                    prop_assert!(twin.add(start, dur, i64::from(procs)));
                    prop_assert!(fast.release(Time(start), dur, procs).is_ok(), "{:?}", op);
                }
            }
            Op::ReleaseAny { start, dur, procs } => {
                let ok = twin.add(start, dur, i64::from(procs));
                prop_assert_eq!(
                    fast.release(Time(start), dur, procs).is_ok(),
                    ok,
                    "{:?}",
                    op
                );
                if ok {
                    // The released area is no longer reserved by anyone we track:
                    // forget live reservations rather than double-release them.
                    live.clear();
                }
            }
            Op::Advance { by } => {
                let now = twin.origin + by;
                twin.advance(now);
                fast.advance(Time(now));
                prop_assert_eq!(fast.origin(), Time(now));
            }
            Op::Earliest { after, dur, procs } => {
                let got = fast
                    .earliest_start(Time(after), procs, dur)
                    .map(|t| t.secs());
                prop_assert_eq!(got, twin.earliest_start(after, procs, dur), "{:?}", op);
                if let Some(s) = got {
                    // Feasible, and nothing earlier is.
                    prop_assert!(twin.min_free(s, s + dur) >= procs);
                    for t in after.max(twin.origin)..s {
                        prop_assert!(twin.min_free(t, t + dur) < procs);
                    }
                }
            }
            Op::MinFree { start, len } => {
                let got = fast.min_free(Time(start), Time(start + len));
                prop_assert_eq!(got, twin.min_free(start, start + len), "{:?}", op);
            }
            Op::Slots { from, len } => {
                let got = fast.free_slots(Time(from), Time(from + len));
                prop_assert_eq!(got, twin.free_slots(from, from + len), "{:?}", op);
            }
        }
        check_profile_invariants(&fast)?;
        for t in twin.origin..HORIZON {
            prop_assert_eq!(
                fast.free_at(Time(t)),
                twin.free_at(t),
                "free at {} after {:?}",
                t,
                op
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(3000))]

    #[test]
    fn profile_matches_brute_force_twin(ops in prop::collection::vec(op(), 1..60)) {
        check_against_twin(&ops)?;
    }
}

// ---------------------------------------------------------------------------
// Schedulers: the built-in policies through the public invariant suite
// (`profile::testing`), the one a user runs on their own scheduler.

const CASES: u32 = 1500;

#[test]
fn fcfs_passes_the_invariant_suite_and_keeps_arrival_order() {
    Suite::new(CASES)
        .guarantee(Guarantee::ArrivalOrder)
        .guarantee(Guarantee::StartsHeadWhenItFits)
        .guarantee(Guarantee::HeadStartsByEarliest)
        .run(|| Fcfs);
}

#[test]
fn easy_passes_the_invariant_suite() {
    Suite::new(CASES)
        .guarantee(Guarantee::StartsHeadWhenItFits)
        .guarantee(Guarantee::HeadStartsByEarliest)
        .run(|| Easy::new(1));
}

#[test]
fn easy_never_delays_the_head_reservation() {
    Suite::new(CASES / 2)
        .orders(vec![QueueOrder::Arrival])
        .overruns(vec![Overrun::Kill])
        .guarantee(Guarantee::KeepsFirstReservation)
        .run(|| Easy::new(1));
}

#[test]
fn easy_with_more_reservations_passes_the_invariant_suite() {
    for k in [0, 2, 3, Policy::UNLIMITED] {
        let suite = Suite::new(CASES / 3).guarantee(Guarantee::StartsHeadWhenItFits);
        // Without a reservation (k = 0) nothing protects the head.
        let suite = if k > 0 {
            suite.guarantee(Guarantee::HeadStartsByEarliest)
        } else {
            suite
        };
        suite.run(|| Easy::new(k));
    }
}

#[test]
fn conservative_passes_the_invariant_suite_and_keeps_its_arrival_reservations() {
    Suite::new(CASES)
        .guarantee(Guarantee::KeepsFirstReservation)
        .guarantee(Guarantee::ReservesOnArrival)
        .run(Conservative::new);
}

/// `simulate` runs what the configuration's `Policy` names: the schedule of
/// the built-in scheduler run through `simulate_with`.
#[test]
fn simulate_runs_the_policy_it_names() {
    let mut runner = proptest::test_runner::TestRunner::new(profile::testing::proptest_config(300));
    let policies = [
        Policy::Fcfs,
        Policy::EASY,
        Policy::Easy { reservations: 3 },
        Policy::Conservative,
    ];
    runner
        .run(
            &(Suite::new(0).cases(), 0..4usize),
            |((mut config, jobs), p)| {
                config.policy = policies[p];
                let want = simulate_with(
                    &config,
                    &mut BuiltIn::new(policies[p]),
                    &jobs,
                    &mut NoObserver,
                );
                prop_assert_eq!(simulate(&config, &jobs), want);
                Ok(())
            },
        )
        .unwrap();
}

/// The suite fails a scheduler that breaks what it checks.
#[test]
fn the_suite_catches_broken_schedulers() {
    use profile::{Context, Scheduler, SimError};
    fn fails(run: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let err = std::panic::catch_unwind(run).expect_err("the suite passed a broken scheduler");
        err.downcast_ref::<String>().cloned().unwrap_or_default()
    }
    // EASY backfills: it does not keep arrival order.
    let msg = fails(|| {
        Suite::new(300)
            .guarantee(Guarantee::ArrivalOrder)
            .run(|| Easy::new(1))
    });
    assert!(msg.contains("arrival order"), "{msg}");
    // A scheduler that starts nothing leaves jobs waiting.
    struct Idle;
    impl Scheduler for Idle {
        fn schedule(&mut self, _: &mut Context<'_>) -> Result<(), SimError> {
            Ok(())
        }
    }
    let msg = fails(|| Suite::new(50).run(|| Idle));
    assert!(msg.contains("never started"), "{msg}");
    // Reserving the head, then lifting it and starting whatever fits: the
    // head's promise is broken.
    struct Forgetful;
    impl Scheduler for Forgetful {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            if ctx.queue_len() > 0 && ctx.waiting(0).is_some_and(|w| w.reserved.is_none()) {
                ctx.reserve_earliest(0)?;
            }
            ctx.unreserve(0).ok();
            let mut k = 0;
            while let Some(w) = ctx.waiting(k) {
                if ctx
                    .profile()
                    .earliest_start(ctx.now(), w.job.procs, w.job.estimate)
                    == Some(ctx.now())
                {
                    ctx.start(k)?;
                } else {
                    k += 1;
                }
            }
            Ok(())
        }
    }
    let msg = fails(|| {
        Suite::new(300)
            .guarantee(Guarantee::KeepsFirstReservation)
            .run(|| Forgetful)
    });
    assert!(msg.contains("first reservation"), "{msg}");
    // An error the workload does not call for is the scheduler's failure,
    // whatever its variant: here one the input check gives elsewhere.
    struct GivesUp;
    impl Scheduler for GivesUp {
        fn schedule(&mut self, _: &mut Context<'_>) -> Result<(), SimError> {
            Err(SimError::NoCapacity)
        }
    }
    let msg = fails(|| Suite::new(50).run(|| GivesUp));
    assert!(msg.contains("runs to the end: the machine has 0"), "{msg}");
    // A scheduler may end its own run: the run returns its reason, and the
    // suite counts it as a failure to run to the end.
    struct Quits(Time);
    impl Scheduler for Quits {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            if ctx.queue_len() > 0 && ctx.now() >= self.0 {
                return Err(SimError::Stopped {
                    reason: format!("asked to stop at {}", ctx.now()),
                });
            }
            Ok(())
        }
    }
    let jobs = [
        profile::Job::new(1, Time(0), 1, 10, 10),
        profile::Job::new(2, Time(7), 1, 10, 10),
    ];
    let config = profile::SchedulerConfig::new(1, profile::Policy::Fcfs);
    let err = profile::simulate_with(
        &config,
        &mut Quits(Time(5)),
        &jobs,
        &mut profile::NoObserver,
    )
    .expect_err("the run was stopped");
    assert_eq!(
        err.to_string(),
        "the scheduler stopped the run: asked to stop at 7s"
    );
    let msg = fails(|| Suite::new(50).run(|| Quits(Time(-(1 << 41)))));
    assert!(msg.contains("the scheduler stopped the run"), "{msg}");
    // Reserving past Time::LATEST on workloads that come nowhere near it,
    // at Time::NEVER too (the end saturates, never wraps).
    struct Parks(Time);
    impl Scheduler for Parks {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            if ctx.queue_len() > 0 {
                ctx.reserve(0, self.0)?;
            }
            Ok(())
        }
    }
    for at in [Time::LATEST, Time::NEVER] {
        let msg = fails(move || Suite::new(50).run(move || Parks(at)));
        assert!(
            msg.contains("runs to the end") && msg.contains("after the latest instant"),
            "{msg}"
        );
    }
}

/// The suite fails, naming the job, the instant and the decision, what a
/// scheduler that passes every schedule check can still get wrong: idling
/// with the head able to start, asking to wake forever with nothing to
/// decide, breaking its order only after a prediction extension, adding
/// widths that overflow on a large machine, and deciding differently on the
/// same input.
#[test]
fn the_suite_catches_idling_endless_wake_ups_and_nondeterminism() {
    use profile::testing::MAX_WAKE_UPS;
    use profile::{Context, Event, Scheduler, SimError};
    use std::sync::atomic::{AtomicUsize, Ordering};
    fn fails(run: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let err = std::panic::catch_unwind(run).expect_err("the suite passed a broken scheduler");
        err.downcast_ref::<String>().cloned().unwrap_or_default()
    }
    fn fcfs(ctx: &mut Context<'_>) -> Result<(), SimError> {
        profile::testing::fcfs_decision(ctx)
    }
    // Starts the second waiting job now if it fits, ahead of the head.
    fn second_jumps_if_it_fits(ctx: &mut Context<'_>) -> Result<(), SimError> {
        let now = ctx.now();
        if let Some(w) = ctx.waiting(1)
            && ctx
                .profile()
                .earliest_start(now, w.job.procs, w.job.estimate)
                == Some(now)
        {
            ctx.start(1)?;
        }
        Ok(())
    }
    // FCFS that does not decide when a job ends: it waits for the earliest
    // predicted end instead. Its starts keep arrival order and fit the
    // machine; the head waits while it fits.
    struct Lazy;
    impl Scheduler for Lazy {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            if ctx.event() != Event::Ended {
                fcfs(ctx)?;
            }
            let now = ctx.now();
            let next = ctx
                .running()
                .map(|r| r.predicted_end)
                .filter(|&t| t > now)
                .min();
            if ctx.queue_len() > 0 {
                ctx.wake_at(next.or(Some(now + 1)));
            }
            Ok(())
        }
    }
    let lazy = || {
        Suite::new(300)
            .guarantee(Guarantee::ArrivalOrder)
            .guarantee(Guarantee::StartsHeadWhenItFits)
            .run(|| Lazy)
    };
    let msg = fails(lazy);
    assert!(
        msg.contains("starts the head when it fits: at ") && msg.contains("was left waiting"),
        "{msg}"
    );
    // Without the guarantee it passes: idling is not invalid in itself.
    Suite::new(300)
        .guarantee(Guarantee::ArrivalOrder)
        .run(|| Lazy);
    // A scheduler that never starts a job and asks to be woken a second
    // later, every time: with a job waiting the run would go on to
    // Time::LATEST, one wake-up at a time. (With nothing waiting, running or
    // to come, the loop itself ends the run: limits.rs.)
    struct Insomniac;
    impl Scheduler for Insomniac {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            ctx.wake_at(Some(ctx.now() + 1));
            Ok(())
        }
    }
    let one = [profile::Job::new(1, profile::Time(0), 1, 10, 10)];
    let config = profile::SchedulerConfig::new(4, profile::Policy::Fcfs);
    let msg = profile::testing::check_scheduler(|| Insomniac, &config, &one, &[])
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains(&format!(
            "ends: more than {MAX_WAKE_UPS} decisions in a row on wake-ups alone"
        )) && msg.contains("1 jobs waiting and 0 running"),
        "{msg}"
    );
    // A scheduler that polls every second while a job runs wakes more than
    // MAX_WAKE_UPS times in all, but never that often in a row with no
    // arrival or end between: it ends, and passes.
    struct Poller;
    impl Scheduler for Poller {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            fcfs(ctx)?;
            if ctx.running().count() > 0 {
                ctx.wake_at(Some(ctx.now() + 1));
            }
            Ok(())
        }
    }
    let stretch = MAX_WAKE_UPS as i64 * 3 / 4;
    let spaced: Vec<profile::Job> = (0..3)
        .map(|k| profile::Job::new(k, profile::Time(k as i64 * stretch), 1, stretch, stretch))
        .collect();
    let config = profile::SchedulerConfig::new(4, profile::Policy::Fcfs);
    assert_eq!(
        profile::testing::check_scheduler(|| Poller, &config, &spaced, &[]),
        Ok(())
    );
    // A scheduler that supports machines of up to 1,000 processors (state
    // kept per processor) fails on the largest machine by default, and
    // passes with its limit given.
    struct Small;
    impl Scheduler for Small {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            assert!(
                ctx.capacity() <= 1000,
                "machine too large for this scheduler"
            );
            fcfs(ctx)
        }
    }
    let msg = fails(|| Suite::new(200).run(|| Small));
    assert!(msg.contains("machine too large"), "{msg}");
    Suite::new(200).largest_machine(1000).run(|| Small);
    // FCFS but for the decisions after a prediction extension (only under
    // Overrun::Continue), where the second job jumps the head when it fits.
    struct JumpsAfterExtension;
    impl Scheduler for JumpsAfterExtension {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            if ctx.event() == Event::Extended {
                second_jumps_if_it_fits(ctx)?;
            }
            fcfs(ctx)
        }
    }
    let msg = fails(|| {
        Suite::new(300)
            .guarantee(Guarantee::ArrivalOrder)
            .run(|| JumpsAfterExtension)
    });
    assert!(
        msg.contains("arrival order: job ") && msg.contains(".overrun(profile::Overrun::Continue)"),
        "{msg}"
    );
    // FCFS that adds widths in `u32`: right on 8 processors, an overflow on
    // a machine of u32::MAX processors (a panic in a debug build, a wrong
    // "fits" and a refused start in a release build).
    struct Narrow;
    impl Scheduler for Narrow {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            while let Some(w) = ctx.waiting(0) {
                let busy: u32 = ctx.running().map(|r| r.job.procs).sum();
                if busy + w.job.procs > ctx.capacity() {
                    break;
                }
                ctx.start(0)?;
            }
            Ok(())
        }
    }
    let msg = fails(|| Suite::new(300).run(|| Narrow));
    assert!(
        msg.contains("overflow") || msg.contains("not free then"),
        "{msg}"
    );
    assert!(msg.contains("SchedulerConfig::new(4294967295, "), "{msg}");
    // FCFS whose every other fresh instance lets the second job jump when
    // it fits (state kept between runs, as a static or a HashMap's order).
    static MADE: AtomicUsize = AtomicUsize::new(0);
    struct Moody(bool);
    impl Scheduler for Moody {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            if self.0 {
                second_jumps_if_it_fits(ctx)?;
            }
            fcfs(ctx)
        }
    }
    let msg =
        fails(|| Suite::new(300).run(|| Moody(MADE.fetch_add(1, Ordering::Relaxed) % 2 == 1)));
    assert!(
        msg.contains(
            "deterministic: a fresh scheduler decided otherwise on the same input (event "
        ) && msg.contains("run 1, ")
            && msg.contains("run 2, "),
        "{msg}"
    );
}

/// `Time::NEVER` means never: a wake-up asked for there (or anywhere past
/// `Time::LATEST`) brings no decision.
#[test]
fn a_wake_up_at_never_is_no_wake_up() {
    use profile::{Context, Job, Scheduler, SchedulerConfig, SimError};
    struct Sleeper(Time);
    impl Scheduler for Sleeper {
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            self.0 = self.0.max(ctx.now());
            ctx.wake_at(Some(Time::NEVER));
            Ok(())
        }
    }
    let mut sleeper = Sleeper(Time(0));
    let jobs = [Job::new(1, Time(0), 1, 10, 10)];
    let config = SchedulerConfig::new(4, Policy::Fcfs);
    let run = simulate_with(&config, &mut sleeper, &jobs, &mut NoObserver);
    assert!(
        matches!(run, Err(SimError::NeverStarted { id: 1, .. })),
        "{run:?}"
    );
    assert_eq!(sleeper.0, Time(0));
}
