//! The public invariant suite (`adaptive_requests::testing`): the built-in
//! orders and moldability functions pass it, a broken implementation of
//! each kind is reported under the invariant it breaks; and a request id
//! given twice is refused by the scheduler and by `validate`.

use std::sync::atomic::{AtomicU64, Ordering};

use adaptive_requests::testing::{Suite, invariant};
use adaptive_requests::{
    Fifo, LinearFmol, Mdf, Moldability, Policy, Req, Request, RequestOrder, SchedError,
    SchedulerConfig, Violation, schedule, validate,
};
use profile::Time;

const CASES: u32 = 12;

#[test]
fn the_built_in_orders_pass() {
    Suite::new(CASES).check_order(|| Fifo).unwrap();
    Suite::new(CASES).check_order(|| Mdf).unwrap();
    Suite::new(CASES).check_order(|| Policy::Mdf).unwrap();
}

#[test]
fn the_linear_moldability_passes() {
    Suite::new(CASES)
        .check_moldability(|req: &Req<LinearFmol>| *req.f_mol())
        .unwrap();
}

/// Earliest deadline first, rescheduling or not by the number of
/// instances built so far: state that outlives an instance.
struct Flip(u64);

static BUILT: AtomicU64 = AtomicU64::new(0);

impl RequestOrder for Flip {
    fn reschedules(&self) -> bool {
        self.0 % 3 == 1
    }
    fn rank<F: Moldability>(&self, _id: u64, submit: Time, req: &Req<F>) -> i64 {
        submit.saturating_add(req.deadline()).secs()
    }
}

/// A rank that counts the ranks given: it depends on more than its arguments.
struct Counting;

static RANKED: AtomicU64 = AtomicU64::new(0);

impl RequestOrder for Counting {
    fn reschedules(&self) -> bool {
        true
    }
    fn rank<F: Moldability>(&self, _id: u64, _submit: Time, _req: &Req<F>) -> i64 {
        RANKED.fetch_add(1, Ordering::Relaxed) as i64
    }
}

#[test]
fn a_broken_order_is_named() {
    let b = Suite::new(CASES)
        .check_order(|| Flip(BUILT.fetch_add(1, Ordering::Relaxed) + 1))
        .unwrap_err();
    assert_eq!(b.invariant, invariant::DETERMINISTIC, "{b}");
    assert!(b.detail.contains("request "), "{b}");
    let b = Suite::new(CASES).check_order(|| Counting).unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(b.detail.contains("rank"), "{b}");
}

/// The request's linear f_mol, but a second's longer on every other call.
#[derive(Clone)]
struct Wobbly(LinearFmol);

static ASKED: AtomicU64 = AtomicU64::new(0);

impl Moldability for Wobbly {
    fn time_for(&self, procs: u32) -> Option<i64> {
        let t = self.0.time_for(procs)?;
        Some(t + (ASKED.fetch_add(1, Ordering::Relaxed) % 2) as i64)
    }
}

/// The request's linear f_mol, twice as slow: more requests miss their
/// deadlines and are rejected, which is a different schedule, not a broken one.
#[derive(Clone)]
struct Slower(LinearFmol);

impl Moldability for Slower {
    fn time_for(&self, procs: u32) -> Option<i64> {
        self.0.time_for(procs).map(|t| 2 * t)
    }
}

#[test]
fn a_broken_moldability_is_named() {
    let b = Suite::new(CASES)
        .check_moldability(|req: &Req<LinearFmol>| Wobbly(*req.f_mol()))
        .unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(b.detail.contains("f_mol("), "{b}");
    Suite::new(CASES)
        .check_moldability(|req: &Req<LinearFmol>| Slower(*req.f_mol()))
        .unwrap();
}

/// A function `Req::new` refuses for every request (it allows no shape)
/// would leave the suite nothing to check: it is reported, not passed.
#[test]
fn a_moldability_refused_for_every_request_is_named() {
    let b = Suite::new(CASES)
        .check_moldability(|_: &Req<LinearFmol>| |_: u32| None::<i64>)
        .unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(b.detail.contains("nothing was checked"), "{b}");
    // Refused for some requests only (odd processor counts): checked on the rest.
    Suite::new(CASES)
        .check_moldability(|req: &Req<LinearFmol>| {
            let f = *req.f_mol();
            move |p: u32| p.is_multiple_of(2).then(|| f.time_for(p)).flatten()
        })
        .unwrap();
}

fn rigid(id: u64, submit: i64) -> Request {
    Request {
        id,
        submit: Time(submit),
        req: Req::linear(LinearFmol::new(2, 2, 60).unwrap(), 600, 1e9, None).unwrap(),
    }
}

#[test]
fn a_request_id_given_twice_is_refused() {
    let twice = [rigid(1, 0), rigid(2, 5), rigid(1, 10)];
    let config = SchedulerConfig::new(4, Policy::Fifo);
    assert_eq!(
        schedule(config, &twice),
        Err(SchedError::DuplicateId {
            id: 1,
            first: 0,
            second: 2
        })
    );
    // Outcomes of distinct requests, presented for requests with one id twice.
    let distinct = [rigid(1, 0), rigid(2, 5), rigid(3, 10)];
    let mut outcomes = schedule(config, &distinct).unwrap();
    outcomes[2].id = 1;
    assert_eq!(
        validate(&config, &twice, &outcomes),
        Err(Violation::DuplicateId {
            id: 1,
            first: 0,
            second: 2
        })
    );
    let message = validate(&config, &twice, &outcomes)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("give every request its own id"),
        "{message}"
    );
}

#[test]
fn the_workloads_are_fixed() {
    let s = Suite::new(CASES);
    assert_eq!(s.workloads(), s.workloads());
    assert!(s.workloads().len() > CASES as usize);
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
