//! A user's moldability function that answers otherwise at submission than
//! when its request was built (`Req::new` checked every shape then): the
//! scheduler once accepted placements of zero or negative duration from
//! it, and MDF's rank overflowed on a time of `i64::MIN`. Submission now
//! checks the shapes it schedules from, with the request's id.
//! And `PriceFunction::full_price` of a negative amount of work.

use std::cell::Cell;

use adaptive_requests::{
    Mdf, Policy, PriceFunction, Req, ReqError, RequestOrder, SchedError, Scheduler, SchedulerConfig,
};
use profile::Time;

/// `f_mol` of 100 s on any count for its first `honest` calls, then `bad`.
fn turns(honest: u32, bad: Option<i64>) -> impl Fn(u32) -> Option<i64> + Clone {
    let calls = Cell::new(0u32);
    move |_| {
        calls.set(calls.get() + 1);
        if calls.get() > honest { bad } else { Some(100) }
    }
}

#[test]
fn shapes_are_checked_again_at_submission() {
    let cases: [(Option<i64>, SchedError); 5] = [
        (Some(-5), shape(4, -5)),
        (Some(0), shape(4, 0)),
        (Some(i64::MIN), shape(4, i64::MIN)),
        (
            Some(1 << 41),
            request(ReqError::TooLong {
                name: "f_mol(R)",
                value: 1 << 41,
            }),
        ),
        (None, request(ReqError::NoShape { r_min: 1, r_max: 4 })),
    ];
    for (bad, want) in cases {
        // Req::new asks f_mol about R = 1..=4: four honest answers.
        let req = Req::new(1, 4, turns(4, bad), 1000, 1e9, None).unwrap();
        for policy in [Policy::Fifo, Policy::Mdf] {
            let mut s = Scheduler::new(SchedulerConfig::new(8, policy)).unwrap();
            let got = s.submit(9, Time(0), req.clone());
            assert_eq!(got, Err(want.clone()), "{bad:?} under {policy:?}");
            assert!(s.outcomes().is_empty() && s.waiting() == 0);
        }
    }
    let err = request(ReqError::ShapeTime { procs: 4, time: 0 });
    assert!(
        err.to_string()
            .starts_with("request 9 at submission: f_mol(4) is 0 s"),
        "{err}"
    );
}

fn request(error: ReqError) -> SchedError {
    SchedError::Request { id: 9, error }
}

fn shape(procs: u32, time: i64) -> SchedError {
    request(ReqError::ShapeTime { procs, time })
}

/// MDF's rank negated the widest shape's time: `i64::MIN` overflowed.
#[test]
fn mdf_rank_takes_any_answer() {
    let req = Req::new(1, 4, turns(4, Some(i64::MIN)), 1000, 1e9, None).unwrap();
    assert_eq!(Mdf.rank(1, Time(0), &req), i64::MAX);
    let honest = Req::new(1, 4, turns(u32::MAX, None), 1000, 1e9, None).unwrap();
    assert_eq!(Mdf.rank(1, Time(50), &honest), 950);
}

/// `full_price` of a negative amount of work was a negative price.
#[test]
fn a_full_price_needs_work_of_at_least_0() {
    let omega = PriceFunction::TABLE1;
    for work in [-1, -100, i64::MIN] {
        assert_eq!(
            omega.full_price(work, 1.0),
            Err(ReqError::Duration {
                name: "processor-seconds",
                value: work
            })
        );
    }
    assert_eq!(omega.full_price(0, 1.0), Ok(0.0));
    assert_eq!(omega.full_price(3600, 1.0), Ok(1.0));
}
