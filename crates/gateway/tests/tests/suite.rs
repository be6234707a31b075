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

/// The reference provider, but every end reported a second early: not
/// the start plus the run time (nor the kill at the estimate).
struct EndsEarly(Conservative);

impl Provider for EndsEarly {
    fn capacity(&self) -> u32 {
        self.0.capacity()
    }
    fn utilisation(&self, now: Time) -> f64 {
        self.0.utilisation(now)
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.0.free_slots(now, horizon)
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        self.0.submit(now, job)
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        self.0.request_reservation(now, job, start)
    }
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.0.commit(now, hold)
    }
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.0.abort(now, hold)
    }
    fn next_event(&self) -> Option<Time> {
        self.0.next_event()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        let mut mine = Vec::new();
        self.0.advance(now, &mut mine);
        reports.extend(mine.into_iter().map(|r| match r {
            Report::Ended { job, at } => Report::Ended { job, at: at - 1 },
            other => other,
        }));
    }
}

/// Reports the next event it already passed: it never moves on.
struct Stalls(Conservative);

impl Provider for Stalls {
    fn capacity(&self) -> u32 {
        self.0.capacity()
    }
    fn utilisation(&self, now: Time) -> f64 {
        self.0.utilisation(now)
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.0.free_slots(now, horizon)
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        self.0.submit(now, job)
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        self.0.request_reservation(now, job, start)
    }
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.0.commit(now, hold)
    }
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.0.abort(now, hold)
    }
    fn next_event(&self) -> Option<Time> {
        self.0.next_event()
    }
    fn advance(&mut self, _now: Time, _reports: &mut Vec<Report>) {}
}

#[test]
fn a_broken_provider_is_named() {
    let s = Suite::new(CASES);
    let b = s
        .check_provider(|c| EndsEarly(Conservative::new(c)))
        .unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    let b = s
        .check_provider(|c| Stalls(Conservative::new(c)))
        .unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
}

#[test]
fn the_workloads_are_fixed() {
    let s = Suite::new(CASES);
    assert_eq!(s.workloads(), s.workloads());
    assert_eq!(s.workloads().len(), 3 + CASES as usize);
}
