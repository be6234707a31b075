//! What the public invariant suite can tell apart: schedulers with one
//! realistic bug each that it once passed, and correct but unusual ones it
//! once failed (an outside audit of `profile::testing`, fixed by class).

use std::panic::{AssertUnwindSafe, catch_unwind};

use profile::testing::{Guarantee, MAX_WAKE_UPS, Suite, check_scheduler, fcfs_decision};
use profile::{Context, Job, Policy, QueueOrder, Scheduler, SchedulerConfig, SimError, Time};

/// The suite's panic message, or `None` if it passed.
fn verdict(run: impl FnOnce()) -> Option<String> {
    catch_unwind(AssertUnwindSafe(run)).err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    })
}

fn fits(ctx: &Context<'_>, k: usize) -> bool {
    let w = ctx.waiting(k).expect("queued");
    ctx.profile()
        .earliest_start(ctx.now(), w.job.procs, w.job.estimate)
        == Some(ctx.now())
}

fn start_heads(ctx: &mut Context<'_>) -> Result<(), SimError> {
    while ctx.queue_len() > 0 && fits(ctx, 0) {
        ctx.start(0)?;
    }
    Ok(())
}

/// EASY written the textbook way, reporting no reservation: the shadow
/// time from the running jobs' predicted ends, and the extra processors
/// there. `head_counted: false` is the classic bug of leaving the head's own
/// processors in the extra ones, so a long backfilled job delays the head.
struct TextbookEasy {
    head_counted: bool,
}

impl Scheduler for TextbookEasy {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        start_heads(ctx)?;
        let Some(head) = ctx.waiting(0) else {
            return Ok(());
        };
        let (now, need) = (ctx.now(), u64::from(head.job.procs));
        // A job ending now whose end is not handled yet is free already.
        let mut ends: Vec<(Time, u64)> = ctx
            .running()
            .filter(|r| r.predicted_end > now)
            .map(|r| (r.predicted_end, u64::from(r.job.procs)))
            .collect();
        ends.sort_unstable();
        let (mut free, mut shadow) = (u64::from(ctx.free_now()), now);
        for (end, procs) in ends {
            if free >= need {
                break;
            }
            free += procs;
            shadow = end;
        }
        let mut extra = if self.head_counted { free - need } else { free };
        let mut k = 1;
        while k < ctx.queue_len() {
            let w = ctx.waiting(k).expect("queued");
            let (procs, ends_before) = (u64::from(w.job.procs), now + w.job.estimate <= shadow);
            if fits(ctx, k) && (ends_before || procs <= extra) {
                if !ends_before {
                    extra -= procs;
                }
                ctx.start(k)?;
            } else {
                k += 1;
            }
        }
        Ok(())
    }
}

#[test]
fn an_easy_that_reports_no_reservation_is_held_to_its_shadow_time() {
    // 4 processors: job 2 waits at the head for job 1's end at 10 s; the
    // buggy extra count backfills job 3 (100 s) beside job 1, delaying it.
    let jobs = [
        Job::new(1, Time(0), 2, 10, 10),
        Job::new(2, Time(0), 4, 10, 10),
        Job::new(3, Time(1), 2, 100, 100),
    ];
    let config = SchedulerConfig::new(4, Policy::Fcfs);
    let old = [
        Guarantee::KeepsFirstReservation,
        Guarantee::StartsHeadWhenItFits,
    ];
    let buggy = || TextbookEasy {
        head_counted: false,
    };
    // What the suite could say before: nothing reported, nothing to check.
    assert_eq!(check_scheduler(buggy, &config, &jobs, &old), Ok(()));
    let err = check_scheduler(buggy, &config, &jobs, &[Guarantee::HeadStartsByEarliest])
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "head starts by its earliest start: job 2 waited at the head of the queue at 0s, when \
         its 4 processors were free for its estimate of 10 s from 10s beside the running jobs \
         and every other reservation, and started at 101s"
    );
    // The generated cases find it too, and the correct one passes them.
    let suite = || {
        Suite::new(400)
            .orders(vec![QueueOrder::Arrival])
            .guarantee(Guarantee::HeadStartsByEarliest)
            .guarantee(Guarantee::StartsHeadWhenItFits)
    };
    let msg = verdict(|| suite().run(buggy)).expect("the buggy EASY is caught");
    assert!(
        msg.contains("head starts by its earliest start: job "),
        "{msg}"
    );
    suite().run(|| TextbookEasy { head_counted: true });
}

/// EASY through the public actions that reserves the head one second later
/// than it could start.
struct LateEasy;

impl Scheduler for LateEasy {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        start_heads(ctx)?;
        let Some(head) = ctx.waiting(0) else {
            return Ok(());
        };
        let (procs, estimate) = (head.job.procs, head.job.estimate);
        let earliest = ctx.profile().earliest_start(ctx.now(), procs, estimate);
        let late = earliest.map(|t| t + 1);
        if late.is_none_or(|t| ctx.reserve(0, t).is_err()) {
            ctx.reserve_earliest(0)?;
        }
        let mut k = 1;
        while k < ctx.queue_len() {
            if fits(ctx, k) {
                ctx.start(k)?;
            } else {
                k += 1;
            }
        }
        ctx.unreserve(0)
    }
}

#[test]
fn an_easy_that_reserves_the_head_late_is_caught() {
    let jobs = [
        Job::new(1, Time(0), 2, 10, 10),
        Job::new(2, Time(1), 4, 10, 10),
        Job::new(3, Time(2), 2, 9, 9),
    ];
    let config = SchedulerConfig::new(4, Policy::Fcfs);
    // It keeps the reservation it reported: the old check passes it.
    assert_eq!(
        check_scheduler(
            || LateEasy,
            &config,
            &jobs,
            &[Guarantee::KeepsFirstReservation]
        ),
        Ok(())
    );
    let err = check_scheduler(
        || LateEasy,
        &config,
        &jobs,
        &[Guarantee::HeadStartsByEarliest],
    )
    .unwrap_err();
    assert!(err.to_string().contains("from 10s"), "{err}");
    assert!(err.to_string().ends_with("and started at 11s"), "{err}");
}

/// Conservative backfilling without compression that starts a job fitting
/// at its arrival without reserving it first: correct.
struct StartsOnArrival;

impl Scheduler for StartsOnArrival {
    fn submitted(&mut self, ctx: &mut Context<'_>, position: usize) -> Result<(), SimError> {
        if !fits(ctx, position) {
            ctx.reserve_earliest(position)?;
        }
        Ok(())
    }

    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        let now = ctx.now();
        let mut k = 0;
        while k < ctx.queue_len() {
            match ctx.waiting(k).expect("queued").reserved {
                Some(at) if at <= now => ctx.start(k)?,
                None if fits(ctx, k) => ctx.start(k)?,
                None => {
                    ctx.reserve_earliest(k)?;
                    k += 1;
                }
                Some(_) => k += 1,
            }
        }
        let next = ctx.queue().filter_map(|w| w.reserved).min();
        ctx.wake_at(next);
        Ok(())
    }
}

#[test]
fn a_job_started_at_its_arrival_needs_no_reservation() {
    let one = [Job::new(0, Time(0), 1, 1, 1)];
    let config = SchedulerConfig::new(4, Policy::Fcfs);
    assert_eq!(
        check_scheduler(
            || StartsOnArrival,
            &config,
            &one,
            &[Guarantee::ReservesOnArrival]
        ),
        Ok(())
    );
    Suite::new(400)
        .guarantee(Guarantee::ReservesOnArrival)
        .guarantee(Guarantee::KeepsFirstReservation)
        .run(|| StartsOnArrival);
}

/// FCFS that also wakes itself every minute while a job waits.
struct Polls;

impl Scheduler for Polls {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        fcfs_decision(ctx)?;
        if ctx.queue_len() > 0 {
            ctx.wake_at(Some(ctx.now() + 60));
        }
        Ok(())
    }
}

#[test]
fn a_polling_scheduler_passes_with_the_durations_its_period_allows() {
    let msg = verdict(|| Suite::new(300).run(|| Polls)).expect("2^40 s jobs outlast the bound");
    assert!(msg.contains("ends: more than"), "{msg}");
    Suite::new(300)
        .longest_duration(60 * MAX_WAKE_UPS as i64 / 2)
        .guarantee(Guarantee::ArrivalOrder)
        .guarantee(Guarantee::HeadStartsByEarliest)
        .run(|| Polls);
}

/// FCFS with a fixed window of 64 waiting jobs: it panics on a longer queue.
struct WindowOf64;

impl Scheduler for WindowOf64 {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        let mut window = [0usize; 64];
        for (slot, w) in window.iter_mut().zip(ctx.queue()) {
            *slot = w.index;
        }
        assert!(ctx.queue_len() <= window.len(), "window of 64 overflowed");
        fcfs_decision(ctx)
    }
}

#[test]
fn bursts_give_long_queues_and_failures_replay_as_code() {
    let msg = verdict(|| Suite::new(200).run(|| WindowOf64)).expect("a burst fills the window");
    assert!(msg.contains("window of 64 overflowed"), "{msg}");
    // The seed, and the case as a call of check_scheduler to paste.
    assert!(msg.contains("\nseed "), "{msg}");
    assert!(
        msg.contains("let config = profile::SchedulerConfig::new(8, profile::Policy::Fcfs)"),
        "{msg}"
    );
    assert!(
        msg.contains("profile::Job::new(64, profile::Time("),
        "{msg}"
    );
    assert!(
        msg.contains(
            "profile::testing::check_scheduler(|| /* your scheduler */, &config, &jobs, &[])"
        ),
        "{msg}"
    );
    // Without bursts, 40 jobs at most never fill it.
    Suite::new(200).burst_jobs(0).run(|| WindowOf64);
}
