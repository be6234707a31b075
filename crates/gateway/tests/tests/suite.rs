//! The public invariant suite (`gateway::testing`): the built-in policies
//! and the reference provider pass it, and a broken policy or provider of
//! each kind is reported under the invariant it breaks.

use std::sync::atomic::{AtomicU64, Ordering};

use gateway::testing::{Conservative, Suite, invariant};
use gateway::{
    Candidate, Choice, EarliestAsk, EarliestPartial, GatewayPolicy, HoldId, Information, LeastLoad,
    Provider, Provisioning, Refusal, Rejection, Report,
};
use profile::{FreeSlot, Job, Time};

const CASES: u32 = 12;

#[test]
fn the_built_in_policies_pass() {
    let s = Suite::new(CASES);
    s.check_provisioning(|| LeastLoad).unwrap();
    s.check_provisioning(|| EarliestAsk).unwrap();
    s.check_provisioning(|| EarliestPartial { interval: 600 })
        .unwrap();
    s.check_provisioning(|| GatewayPolicy::LeastLoaded).unwrap();
}

#[test]
fn the_reference_provider_passes() {
    Suite::new(CASES).check_provider(Conservative::new).unwrap();
}

/// Least load, but the provider alternates with every instance built: state
/// kept outside the instance.
#[derive(Clone)]
struct Alternating(u64);

static BUILT: AtomicU64 = AtomicU64::new(0);

impl Provisioning for Alternating {
    fn choose(&mut self, _: Time, _: &Job, candidates: &[Candidate<'_>]) -> Choice {
        let c = &candidates[(self.0 as usize) % candidates.len()];
        Choice::Submit {
            provider: c.provider,
            planned: None,
        }
    }
}

/// Rejects with a reason only the gateway may give.
#[derive(Clone)]
struct FalseReason;

impl Provisioning for FalseReason {
    fn choose(&mut self, _: Time, _: &Job, _: &[Candidate<'_>]) -> Choice {
        Choice::Reject(Rejection::TooWide)
    }
}

/// Reserves in the past.
#[derive(Clone)]
struct Backdated;

impl Provisioning for Backdated {
    fn slot_information(&self) -> Option<Information> {
        Some(Information::Ask)
    }
    fn choose(&mut self, now: Time, _: &Job, candidates: &[Candidate<'_>]) -> Choice {
        Choice::Reserve {
            provider: candidates[0].provider,
            start: now - 1,
        }
    }
}

#[test]
fn a_broken_policy_is_named() {
    let s = Suite::new(CASES);
    let b = s
        .check_provisioning(|| Alternating(BUILT.fetch_add(1, Ordering::Relaxed)))
        .unwrap_err();
    assert_eq!(b.invariant, invariant::DETERMINISTIC, "{b}");
    assert!(b.detail.contains("job "), "{b}");
    let b = s.check_provisioning(|| FalseReason).unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    let b = s.check_provisioning(|| Backdated).unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(b.detail.contains("Reserve"), "{b}");
}

/// How a [`Bent`] provider breaks the reference provider's promises.
#[derive(Clone, Copy)]
enum Twist {
    /// Every end is reported a second early: not the start plus the run
    /// time (nor the kill at the estimate).
    EndsEarly,
    /// It reports the next event it already passed: it never moves on.
    Stalls,
    /// It schedules on four times the processors it says it has.
    Overbooks,
}

/// The reference provider with one [`Twist`].
struct Bent {
    inner: Conservative,
    capacity: u32,
    twist: Twist,
}

impl Bent {
    fn new(capacity: u32, twist: Twist) -> Bent {
        let real = match twist {
            Twist::Overbooks => 4 * capacity,
            _ => capacity,
        };
        Bent {
            inner: Conservative::new(real),
            capacity,
            twist,
        }
    }
}

impl Provider for Bent {
    fn capacity(&self) -> u32 {
        self.capacity
    }
    fn utilisation(&self, now: Time) -> f64 {
        self.inner.utilisation(now)
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.inner.free_slots(now, horizon)
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
        match self.twist {
            Twist::Stalls => {}
            Twist::Overbooks => self.inner.advance(now, reports),
            Twist::EndsEarly => {
                let mut mine = Vec::new();
                self.inner.advance(now, &mut mine);
                reports.extend(mine.into_iter().map(|r| match r {
                    Report::Ended { job, at } => Report::Ended { job, at: at - 1 },
                    other => other,
                }));
            }
        }
    }
}

#[test]
fn a_broken_provider_is_named() {
    let s = Suite::new(CASES);
    for (twist, broken) in [
        (Twist::EndsEarly, invariant::KEEPS_THE_CONTRACT),
        (Twist::Stalls, invariant::KEEPS_THE_CONTRACT),
        (Twist::Overbooks, invariant::VALID),
    ] {
        let b = s.check_provider(|c| Bent::new(c, twist)).unwrap_err();
        assert_eq!(b.invariant, broken, "{b}");
    }
}

/// A policy run on providers that overbook is caught too: the schedule is
/// checked against what each provider says it has, whoever chose.
#[test]
fn an_overbooked_schedule_is_not_valid() {
    let b = gateway::testing::check_provisioning(
        || LeastLoad,
        || vec![Bent::new(2, Twist::Overbooks)],
        &[
            Job::new(1, Time(0), 2, 100, 100),
            Job::new(2, Time(0), 2, 100, 100),
        ],
    )
    .unwrap_err();
    assert_eq!(b.invariant, invariant::VALID, "{b}");
    assert!(
        b.detail.contains("provider 0 of 2 processors") && b.detail.contains("busy"),
        "{b}"
    );
}

#[test]
fn the_workloads_are_fixed() {
    let s = Suite::new(CASES);
    assert_eq!(s.workloads(), s.workloads());
    // The edge cases, then as many generated ones as the gate (or an
    // exploration's scale) asks for, then two bursts (long queues, many
    // jobs at one instant).
    let generated = profile::testing::proptest_config(CASES).cases as usize;
    let bursts = profile::testing::proptest_config(2).cases as usize;
    assert_eq!(s.workloads().len(), 3 + generated + bursts);
    assert!(s.workloads().iter().any(|w| w.len() > 60));
}

/// The reference provider refuses what no cluster of the model runs, as
/// `partitions_forecast::Cluster` does, instead of booking it.
#[test]
fn the_reference_provider_refuses_unrunnable_jobs() {
    let mut p = Conservative::new(4);
    for job in [
        Job::new(1, Time(0), 1, 0, 0),
        Job::new(2, Time(0), 1, 10, -1),
        Job::new(3, Time(0), 1, i64::MIN, i64::MIN),
    ] {
        let refused = p.submit(Time(0), job.clone()).unwrap_err();
        assert!(
            matches!(refused, Refusal::Rejected { job: id, .. } if id == job.id),
            "{refused:?}"
        );
        assert!(p.request_reservation(Time(0), &job, Time(5)).is_err());
    }
    assert_eq!(p.next_event(), None);
}

/// The suite's workloads give every job its own id: a report names the job
/// by id, and `profile::validate` refuses a repeat.
#[test]
fn the_suites_workloads_have_distinct_ids() {
    let workloads = Suite::new(64).workloads();
    assert!(workloads.len() > 2);
    for (k, w) in workloads.iter().enumerate() {
        let repeat = profile::repeated_id(w.iter().map(|j| j.id));
        assert_eq!(repeat, None, "workload {k}");
    }
}
