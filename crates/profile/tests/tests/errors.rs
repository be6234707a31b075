//! Errors leave a run as it was: a refused action changes nothing, an
//! error of the loop halts it (every later step and action returns the
//! same error), and a scheduler that keeps asking to wake cannot keep a
//! run from ending. Found by an outside client driving the public API.

use profile::testing::{Guarantee, Suite, check_scheduler, fcfs_decision};
use profile::{
    Context, Job, MAX_DURATION, NoObserver, Overrun, Policy, Scheduler, SchedulerConfig, SimError,
    Stepper, Time, simulate_with,
};

/// 4,095 jobs of the longest duration back to back on one processor, then
/// a 2 s job: the next job starts 2 s after `LATEST - MAX_DURATION`.
fn to_the_end() -> Vec<Job> {
    let d = MAX_DURATION;
    let mut jobs: Vec<Job> = (0..4095).map(|i| Job::new(i, Time(0), 1, d, d)).collect();
    jobs.push(Job::new(9998, Time(0), 1, 2, 2));
    jobs
}

/// Tries to start the head and, refused, leaves it (a common pattern:
/// "try; if refused, wait"), remembering every refusal.
#[derive(Default)]
struct TryStart {
    refused: Vec<SimError>,
}

impl Scheduler for TryStart {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        while ctx.queue_len() > 0 {
            let (waiting, free) = (ctx.queue_len(), ctx.free_now());
            let profile = ctx.profile().clone();
            if let Err(e) = ctx.start(0) {
                // Nothing changed.
                assert_eq!((ctx.queue_len(), ctx.free_now()), (waiting, free), "{e}");
                assert_eq!(ctx.profile(), &profile, "{e}");
                self.refused.push(e);
                break;
            }
        }
        Ok(())
    }
}

#[test]
fn a_start_refused_for_its_run_time_changes_nothing() {
    // The last job's estimate ends before LATEST, its run time after.
    let mut jobs = to_the_end();
    jobs.push(Job::new(9999, Time(0), 1, MAX_DURATION / 2, MAX_DURATION));
    let config = SchedulerConfig::new(1, Policy::Fcfs).overrun(Overrun::Continue);
    let mut s = TryStart::default();
    let r = simulate_with(&config, &mut s, &jobs, &mut NoObserver);
    let last = s.refused.last();
    assert!(
        matches!(last, Some(SimError::BeyondLatest { id: 9999, .. })),
        "{last:?}"
    );
    // Left waiting, it is reported as never started: no job is lost.
    assert!(
        matches!(r, Err(SimError::NeverStarted { id: 9999, .. })),
        "{r:?}"
    );
    // Under kill at the estimate, the same job runs to its estimate.
    let config = SchedulerConfig::new(1, Policy::Fcfs);
    let mut s = TryStart::default();
    let out = simulate_with(&config, &mut s, &jobs, &mut NoObserver).unwrap();
    let beyond = s
        .refused
        .iter()
        .find(|e| !matches!(e, SimError::NoRoom { .. }));
    assert_eq!(beyond, None);
    profile::validate(1, &jobs, &out).unwrap();
}

#[test]
fn after_an_extension_past_latest_the_stepper_stays_halted() {
    // The last long job's first extension would end past LATEST; another
    // job waits behind it.
    let mut jobs = to_the_end();
    jobs.push(Job::new(
        9999,
        Time(0),
        1,
        MAX_DURATION / 2 + 1,
        MAX_DURATION - 2,
    ));
    jobs.push(Job::new(10000, Time(0), 1, 10, 10));
    let config = SchedulerConfig::new(1, Policy::Fcfs).overrun(Overrun::Continue);
    let mut sim = Stepper::new(&config, jobs).unwrap();
    let first = loop {
        match sim.next_decision() {
            Ok(Some(ctx)) => fcfs_decision(ctx).unwrap(),
            Ok(None) => panic!("the run ended without an error"),
            Err(e) => break e,
        }
    };
    assert!(
        matches!(first, SimError::BeyondLatest { id: 9999, .. }),
        "{first}"
    );
    // A caller that goes on: every step and every action returns it.
    for _ in 0..3 {
        assert_eq!(sim.next_decision().err(), Some(first.clone()));
        assert_eq!(sim.context_mut().start(0), Err(first.clone()));
        assert_eq!(sim.context_mut().reserve_earliest(0), Err(first.clone()));
    }
    assert_eq!(sim.into_outcomes(), Err(first));
}

/// Asks to wake a second later at every decision and starts nothing.
struct WakeForever;

impl Scheduler for WakeForever {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        ctx.wake_at(Some(ctx.now() + 1));
        Ok(())
    }
}

#[test]
fn a_scheduler_that_keeps_asking_to_wake_ends_the_run() {
    let jobs = vec![Job::new(1, Time(0), 1, 10, 10)];
    let config = SchedulerConfig::new(1, Policy::Fcfs);
    let r = simulate_with(&config, &mut WakeForever, &jobs, &mut NoObserver);
    let limit = SchedulerConfig::WAKE_UPS_IN_A_ROW;
    assert_eq!(
        r,
        Err(SimError::WakeUps {
            at: Time(limit as i64 + 1),
            waiting: 1
        })
    );
    assert!(
        r.unwrap_err()
            .to_string()
            .contains("more than 10000000 times in a row"),
    );
}

/// Conservative written the obvious way: every job without a reservation
/// gets the earliest one in `schedule`, not in `submitted`.
struct ReserveInSchedule;

impl Scheduler for ReserveInSchedule {
    fn extended(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        for k in 0..ctx.queue_len() {
            ctx.reserve_earliest(k)?;
        }
        Ok(())
    }

    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        for k in 0..ctx.queue_len() {
            if ctx.waiting(k).is_some_and(|w| w.reserved.is_none()) {
                ctx.reserve_earliest(k)?;
            }
        }
        let now = ctx.now();
        let mut k = 0;
        while let Some(w) = ctx.waiting(k) {
            if w.reserved == Some(now) {
                ctx.start(k)?;
            } else {
                k += 1;
            }
        }
        let next = ctx.queue().filter_map(|w| w.reserved).min();
        ctx.wake_at(next);
        Ok(())
    }
}

#[test]
fn a_job_dropped_on_arrival_needs_no_reservation() {
    // Its deadline is too close when it arrives: the loop drops it before
    // any decision.
    let jobs = vec![Job::new(1, Time(0), 1, 10, 10).with_deadline(Time(5))];
    let config = SchedulerConfig::new(4, Policy::Fcfs).drop_expired(true);
    let arrival = [Guarantee::ReservesOnArrival];
    check_scheduler(|| ReserveInSchedule, &config, &jobs, &arrival).unwrap();
    let promises = [
        Guarantee::ReservesOnArrival,
        Guarantee::KeepsFirstReservation,
    ];
    Suite::new(64)
        .guarantee(promises[0])
        .guarantee(promises[1])
        .run(|| ReserveInSchedule);
}
