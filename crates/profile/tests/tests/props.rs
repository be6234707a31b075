//! Property tests: the profile against its brute-force twin, and the
//! schedulers' invariants on random workloads.

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use profile::{
    Job, Observer, Overrun, Policy, Profile, QueueOrder, SchedulerConfig, Status, Time, simulate,
    simulate_observed, simulate_stream, validate,
};

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
// Schedulers.

/// Random jobs on a `CAP`-processor machine, sorted by submit time.
fn jobs(max_len: usize) -> impl Strategy<Value = Vec<Job>> {
    prop::collection::vec((0..40i64, 1..=CAP, 1..30i64, 0..40i64, 0..4u8), 1..max_len).prop_map(
        |raw| {
            let mut t = 0;
            raw.into_iter()
                .enumerate()
                .map(|(i, (gap, procs, est, run, dl))| {
                    t += gap / 4; // many equal submit times
                    let job = Job::new(i as u64, Time(t), procs, est, run);
                    if dl == 0 {
                        job
                    } else {
                        job.with_deadline(Time(t + est * i64::from(dl) * 2))
                    }
                })
                .collect()
        },
    )
}

fn policy() -> impl Strategy<Value = Policy> {
    prop_oneof![
        Just(Policy::Fcfs),
        Just(Policy::EASY),
        (2..4u32).prop_map(|k| Policy::Easy { reservations: k }),
        Just(Policy::Easy {
            reservations: Policy::UNLIMITED
        }),
        Just(Policy::Conservative),
    ]
}

fn order() -> impl Strategy<Value = QueueOrder> {
    prop_oneof![
        Just(QueueOrder::Arrival),
        Just(QueueOrder::ShortestEstimate),
        Just(QueueOrder::EarliestDeadline)
    ]
}

/// Records the first reservation each job gets, and its start.
#[derive(Default)]
struct FirstReservation {
    first: HashMap<usize, Time>,
}

impl Observer for FirstReservation {
    fn reserved(&mut self, _now: Time, job: usize, start: Time) {
        self.first.entry(job).or_insert(start);
    }
}

/// Every schedule is valid and the run is deterministic.
fn check_valid(config: &SchedulerConfig, jobs: &[Job]) -> Result<(), TestCaseError> {
    let out = simulate(config, jobs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    if let Err(v) = validate(config.capacity, jobs, &out) {
        return Err(TestCaseError::fail(format!("{v}")));
    }
    if !config.drop_expired {
        prop_assert!(out.iter().all(|o| o.status != Status::Dropped));
    }
    prop_assert_eq!(&out, &simulate(config, jobs).unwrap(), "deterministic");
    Ok(())
}

/// No job starts later than a reservation it was promised: every job's first
/// reservation under conservative, the head's under EASY (k = 1, arrival order).
fn check_reservations_kept(config: &SchedulerConfig, jobs: &[Job]) -> Result<(), TestCaseError> {
    let mut obs = FirstReservation::default();
    let out = simulate_observed(config, jobs, &mut obs).unwrap();
    for (&j, &promised) in &obs.first {
        prop_assert!(
            out[j].start <= promised,
            "job {} promised {} started {} under {}",
            j,
            promised,
            out[j].start,
            config.policy.name()
        );
    }
    if config.policy == Policy::Conservative {
        prop_assert_eq!(
            obs.first.len(),
            jobs.len(),
            "every job gets a reservation on arrival"
        );
    }
    Ok(())
}

/// Every call an observer gets, in order.
#[derive(Default, PartialEq, Debug)]
struct Calls(Vec<(u8, Time, usize, Time)>);

impl Observer for Calls {
    fn reserved(&mut self, now: Time, job: usize, start: Time) {
        self.0.push((0, now, job, start));
    }
    fn started(&mut self, now: Time, job: usize) {
        self.0.push((1, now, job, now));
    }
    fn step(&mut self, now: Time) {
        self.0.push((2, now, 0, now));
    }
}

/// The streamed run makes the schedule of the slice run, with the same
/// observer calls, and reports each job's outcome once, as its start comes.
fn check_stream_matches(config: &SchedulerConfig, jobs: &[Job]) -> Result<(), TestCaseError> {
    let mut want_calls = Calls::default();
    let want = simulate_observed(config, jobs, &mut want_calls).unwrap();
    let mut calls = Calls::default();
    let mut got = Vec::new();
    let count = simulate_stream(
        config,
        jobs.iter().cloned(),
        &mut calls,
        |index, outcome| got.push((index, outcome)),
    )
    .unwrap();
    prop_assert_eq!(count, jobs.len());
    prop_assert_eq!(calls, want_calls);
    prop_assert!(got.windows(2).all(|w| w[0].1.start <= w[1].1.start));
    let mut by_index = vec![None; jobs.len()];
    for (index, outcome) in got {
        prop_assert!(by_index[index].is_none(), "job {} reported twice", index);
        by_index[index] = Some(outcome);
    }
    prop_assert_eq!(by_index, want.into_iter().map(Some).collect::<Vec<_>>());
    Ok(())
}

/// FCFS in arrival order starts jobs in arrival order.
fn check_fcfs_order(jobs: &[Job]) -> Result<(), TestCaseError> {
    let out = simulate(&SchedulerConfig::new(CAP, Policy::Fcfs), jobs).unwrap();
    for w in out.windows(2) {
        prop_assert!(w[0].start <= w[1].start, "{:?} then {:?}", w[0], w[1]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(1500))]

    #[test]
    fn schedules_are_valid(
        jobs in jobs(40), policy in policy(), order in order(),
        cont in any::<bool>(), drop in any::<bool>(),
    ) {
        let overrun = if cont { Overrun::Continue } else { Overrun::Kill };
        let config = SchedulerConfig::new(CAP, policy).order(order).overrun(overrun).drop_expired(drop);
        check_valid(&config, &jobs)?;
    }

    #[test]
    fn streamed_runs_schedule_as_slice_runs(
        jobs in jobs(40), policy in policy(), order in order(),
        cont in any::<bool>(), drop in any::<bool>(),
    ) {
        let overrun = if cont { Overrun::Continue } else { Overrun::Kill };
        let config = SchedulerConfig::new(CAP, policy).order(order).overrun(overrun).drop_expired(drop);
        check_stream_matches(&config, &jobs)?;
    }

    #[test]
    fn conservative_never_starts_after_its_arrival_reservation(jobs in jobs(40), order in order()) {
        check_reservations_kept(&SchedulerConfig::new(CAP, Policy::Conservative).order(order), &jobs)?;
    }

    #[test]
    fn easy_never_delays_the_head_reservation(jobs in jobs(40)) {
        check_reservations_kept(&SchedulerConfig::new(CAP, Policy::EASY), &jobs)?;
    }

    #[test]
    fn fcfs_starts_in_arrival_order(jobs in jobs(40)) {
        check_fcfs_order(&jobs)?;
    }
}
