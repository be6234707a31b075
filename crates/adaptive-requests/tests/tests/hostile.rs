//! A user's moldability function that answers otherwise at submission than
//! when its request was built (`Req::new` checked every shape then): the
//! scheduler once accepted placements of zero or negative duration from
//! it, and MDF's rank overflowed on a time of `i64::MIN`. Submission now
//! checks the shapes it schedules from, with the request's id.
//! `place`, the same search as a free function, placed from such answers
//! too (a part of -5 s); it checks them as submission does. And
//! `PriceFunction::full_price` of a negative amount of work, and
//! `share_duration` of a share that is none.

use std::cell::Cell;

use adaptive_requests::{
    BudgetRule, Mdf, Policy, PriceFunction, Req, ReqError, RequestOrder, SchedError, Scheduler,
    SchedulerConfig, place, share_duration,
};
use profile::{Profile, Time};

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

/// `place` checks the shapes it places from, as submission does, and its
/// times' domain.
#[test]
fn place_checks_the_answers_it_places_from() {
    let profile = Profile::new(8, Time(0));
    let omega = PriceFunction::TABLE1;
    let at = |req: &Req<_>, now, submit| {
        place(
            &profile,
            Time(now),
            Time(submit),
            req,
            &omega,
            BudgetRule::Limit,
        )
    };
    for (bad, want) in [
        (Some(-5), ReqError::ShapeTime { procs: 4, time: -5 }),
        (Some(0), ReqError::ShapeTime { procs: 4, time: 0 }),
        (
            Some(1 << 41),
            ReqError::TooLong {
                name: "f_mol(R)",
                value: 1 << 41,
            },
        ),
        (None, ReqError::NoShape { r_min: 1, r_max: 4 }),
    ] {
        let req = Req::new(1, 4, turns(4, bad), 1000, 1e9, None).unwrap();
        assert_eq!(at(&req, 0, 0), Err(want), "{bad:?}");
    }
    let honest = Req::new(1, 4, turns(u32::MAX, None), 1000, 1e9, None).unwrap();
    let placed = at(&honest, 0, 0).unwrap().unwrap();
    assert_eq!(
        (placed.parts()[0].procs, placed.completion()),
        (4, Time(100))
    );
    let beyond = Time::LIMIT.0 + 1;
    for (now, submit, name) in [(beyond, 0, "now"), (0, -beyond, "submit")] {
        let err = at(&honest, now, submit).unwrap_err();
        assert_eq!(
            err,
            ReqError::Time {
                name,
                time: Time(if name == "now" { now } else { submit })
            }
        );
        assert!(err.to_string().starts_with(&format!("{name} is ")), "{err}");
    }
}

/// A share is `[from, to)` with `0 <= from <= to <= 100` of a usage time in
/// `[1, 2^40]` s; anything else was a number (`share_duration(100, 50, 10)`
/// was -40).
#[test]
fn a_share_duration_needs_a_share_of_a_usage_time() {
    assert_eq!(
        share_duration(100, 50, 10),
        Err(ReqError::Share { from: 50, to: 10 })
    );
    assert_eq!(
        share_duration(100, 0, 300),
        Err(ReqError::Share { from: 0, to: 300 })
    );
    assert_eq!(
        share_duration(-100, 0, 50),
        Err(ReqError::Duration {
            name: "time",
            value: -100
        })
    );
    assert_eq!(
        share_duration(0, 0, 50),
        Err(ReqError::Duration {
            name: "time",
            value: 0
        })
    );
    assert_eq!(
        share_duration(i64::MAX, 0, 50),
        Err(ReqError::TooLong {
            name: "time",
            value: i64::MAX
        })
    );
    assert_eq!(share_duration(100, 50, 50), Ok(0));
    assert_eq!(share_duration(95, 10, 20), Ok(9));
    assert_eq!(share_duration(1 << 40, 0, 100), Ok(1 << 40));
    let err = share_duration(100, 50, 10).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the share [50, 10) % is not a share of the work, expected 0 <= from <= to <= 100"
    );
}
