//! Extreme values through the public entry points (`Table1::requests`,
//! `schedule`, `PriceFunction`, `Req::new`, `place`): times near `i64::MIN`
//! and `i64::MAX`, zero and huge processor counts, NaN, infinite and huge
//! floats, empty inputs. Every call returns a value or a typed error, never
//! panics; a schedule that is returned passes `validate`. The scheduler has no
//! event loop: each submission scans the profile's steps and the request's
//! shapes (at most `MAX_PROCESSORS`) a bounded number of times, so the
//! step budget is structural; the tests bound what drives it (requests,
//! shapes) and check it ends. Then one regression test per input that once
//! hung or aborted.

use adaptive_requests::{
    BudgetRule, Fallback, IntervalStats, LinearFmol, MAX_PROCESSORS, Policy, PriceFunction, Req,
    ReqError, RequestSeeds, Rescheduling, SchedError, SchedulerConfig, Table1, Table1Error,
    Variant, place, schedule, validate,
};
use profile::{Job, MAX_DURATION, Profile, Time};
use proptest::prelude::*;

const LIMIT: i64 = Time::LIMIT.0;

/// Times and durations: the edges of `i64` and of the time domain, and
/// ordinary values.
pub(crate) fn seconds() -> impl Strategy<Value = i64> {
    prop_oneof![
        1 => prop::sample::select(vec![
            i64::MIN,
            i64::MIN + 1,
            -LIMIT - 1,
            -LIMIT,
            -1,
            0,
            1,
            LIMIT,
            LIMIT + 1,
            i64::MAX - 7,
            i64::MAX,
        ]),
        1 => any::<i64>(),
        6 => 1i64..20_000,
    ]
}

/// Floats: NaN, the infinities, huge and tiny magnitudes, and ordinary shares.
pub(crate) fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => prop::sample::select(vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            -1e300,
            0.0,
            -0.0,
            1e-300,
            1.0,
        ]),
        1 => any::<f64>(),
        6 => 0.0f64..1.0,
    ]
}

/// Processor counts: none, a few, the cap and past it, `u32::MAX`.
pub(crate) fn procs() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => prop::sample::select(vec![0, 1, MAX_PROCESSORS, MAX_PROCESSORS + 1, u32::MAX]),
        6 => 1u32..40,
    ]
}

/// `x`, or (now and then) `other`.
pub(crate) fn or<T: std::fmt::Debug + Clone + 'static>(
    x: T,
    other: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop::option::weighted(0.15, other)
        .prop_map(move |o| o.unwrap_or_else(|| x.clone()))
        .boxed()
}

/// Table 1, each field now and then replaced by an extreme value.
pub(crate) fn table1() -> impl Strategy<Value = Table1> {
    let d = Table1::default();
    (
        (
            or(d.r_min_percent, procs()),
            or(d.rigid_up_to, procs()),
            or(d.preemptive_share, float()),
            or(d.preemptive_min_run, seconds()),
            or(d.sp_parts, procs()),
            or(d.sp_percent, procs()),
            any::<bool>(),
        ),
        (
            or(d.high_share, float()),
            or(d.high_profile, float()),
            or(d.deadline_factor, seconds()),
            or(d.low_extra, seconds()),
            or(d.rate, float()),
            or(d.max_discount, float()),
        ),
    )
        .prop_map(
            |(
                (
                    r_min_percent,
                    rigid_up_to,
                    preemptive_share,
                    preemptive_min_run,
                    sp_parts,
                    sp_percent,
                    sp_mold_each,
                ),
                (high_share, high_profile, deadline_factor, low_extra, rate, max_discount),
            )| Table1 {
                r_min_percent,
                rigid_up_to,
                preemptive_share,
                preemptive_min_run,
                sp_parts,
                sp_percent,
                sp_mold_each,
                high_share,
                high_profile,
                deadline_factor,
                low_extra,
                rate,
                max_discount,
            },
        )
}

pub(crate) fn variant() -> impl Strategy<Value = Variant> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(mdf, preemptive, moldable)| Variant {
        policy: if mdf { Policy::Mdf } else { Policy::Fifo },
        preemptive,
        moldable,
    })
}

/// Trace jobs: mostly ordinary (in submit order), now and then one with
/// extreme fields, submitted at an extreme time.
pub(crate) fn jobs() -> impl Strategy<Value = Vec<Job>> {
    let ordinary = (Just(None), 1u32..40, 1i64..20_000, 0i64..900);
    let extreme = (seconds().prop_map(Some), procs(), seconds(), Just(0i64));
    let job = prop_oneof![9 => ordinary, 1 => extreme];
    prop::collection::vec(job, 0..12).prop_map(|v| {
        let mut t = 0i64;
        v.into_iter()
            .enumerate()
            .map(|(i, (at, procs, estimate, gap))| {
                t = at.unwrap_or(t.saturating_add(gap));
                Job::new(i as u64, Time(t), procs, estimate, estimate)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    /// Table 1 turns any trace jobs into requests or names the bad one; any
    /// machine schedules the requests or says why not; a schedule passes
    /// `validate` and can be measured.
    #[test]
    fn table1_and_the_schedulers_end_on_any_input(
        table in table1(),
        variant in variant(),
        jobs in jobs(),
        capacity in or(64, procs()),
        incentive in or(0.0, float()),
        seeds in (any::<u64>(), any::<u64>()),
        rules in (any::<bool>(), any::<bool>(), any::<bool>()),
    ) {
        let Ok(omega) = table.price_function(incentive) else { return Ok(()); };
        let seeds = RequestSeeds { preemptive: seeds.0, price_profile: seeds.1 };
        let requests = match table.requests(variant, &jobs, &omega, seeds) {
            Ok(r) => r,
            Err(Table1Error::Share { .. } | Table1Error::Field { .. }) => {
                prop_assert!(table.check().is_err());
                return Ok(());
            }
            Err(Table1Error::Job { id, .. }) => {
                prop_assert!(jobs.iter().any(|j| j.id == id));
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        prop_assert_eq!(requests.len(), jobs.len());
        let config = SchedulerConfig::new(capacity, variant.policy)
            .price(omega)
            .budget(if rules.0 { BudgetRule::Cap } else { BudgetRule::Limit })
            .fallback(if rules.1 { Fallback::Append } else { Fallback::Reject })
            .rescheduling(if rules.2 { Rescheduling::Incremental } else { Rescheduling::Full });
        match schedule(config, &requests) {
            Ok(outcomes) => {
                prop_assert_eq!(outcomes.len(), requests.len());
                prop_assert_eq!(validate(&config, &requests, &outcomes), Ok(()));
                let stats = IntervalStats::of(capacity, &requests, &outcomes);
                prop_assert!(stats.accepted <= stats.requests);
                prop_assert!(stats.profit.is_finite());
            }
            Err(SchedError::NoCapacity) => prop_assert_eq!(capacity, 0),
            Err(SchedError::SubmitTime { submit, .. }) => prop_assert!(!submit.in_domain()),
            Err(SchedError::OutOfOrder { .. }) => {}
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }

    /// `ω` exists only for valid parameters and is a finite price for any
    /// valid request, submission, completion and work.
    #[test]
    fn prices_are_finite_or_refused(
        (rate, max_discount, incentive) in (float(), float(), float()),
        (r_max, t_min, deadline, budget) in (procs(), seconds(), seconds(), float()),
        (submit, completion, work) in (seconds(), seconds(), seconds()),
    ) {
        let Ok(omega) = PriceFunction::new(rate, max_discount, incentive) else {
            return Ok(());
        };
        let Ok(req) = LinearFmol::table1(r_max, t_min)
            .and_then(|f| Req::linear(f, deadline, budget, None))
        else {
            return Ok(());
        };
        let price = omega.price(&req, Time(submit), Time(completion), work);
        prop_assert!(price.is_finite(), "{price}");
        // Finite, or refused for negative work.
        let full = omega.full_price(work, req.price_profile());
        prop_assert!(full.as_ref().is_ok_and(|p| p.is_finite()) || work < 0, "{full:?}");
    }

    /// `Req::new` with a user's `f_mol` over any processor range, and `place`
    /// at any instant: a request or an error, a placement or none.
    #[test]
    fn requests_and_placements_on_any_input(
        (r_min, r_max) in (procs(), procs()),
        (time, deadline, budget) in (seconds(), seconds(), float()),
        (now, submit) in (seconds(), seconds()),
        busy in prop::collection::vec((seconds(), seconds(), procs()), 0..4),
    ) {
        let f = move |r: u32| (!r.is_multiple_of(3)).then_some(time);
        let Ok(req) = Req::new(r_min, r_max, f, deadline, budget, None) else {
            return Ok(());
        };
        prop_assert!(req.r_max() <= MAX_PROCESSORS);
        prop_assert!(req.shapes().all(|(_, t)| (1..=MAX_DURATION).contains(&t)));
        let mut profile = Profile::new(64, Time(-LIMIT));
        for (start, duration, n) in busy {
            let _ = profile.reserve(Time(start), duration, n);
        }
        for rule in [BudgetRule::Limit, BudgetRule::Cap] {
            let placed = place(
                &profile,
                Time(now),
                Time(submit),
                &req,
                &PriceFunction::TABLE1,
                rule,
            );
            let in_domain = Time(now).in_domain() && Time(submit).in_domain();
            match placed {
                Ok(Some(p)) => {
                    prop_assert!(in_domain);
                    prop_assert!(p.completion() <= Time(submit).saturating_add(deadline));
                    prop_assert!(p.start() >= Time(now).max(Time(submit)));
                }
                Ok(None) => prop_assert!(in_domain),
                Err(e) => prop_assert!(
                    !in_domain && matches!(e, ReqError::Time { .. }),
                    "{e}"
                ),
            }
        }
    }
}

fn request(procs: u32, estimate: i64) -> Job {
    Job::new(1, Time(0), procs, estimate, estimate)
}

const SEEDS: RequestSeeds = RequestSeeds {
    preemptive: 1,
    price_profile: 2,
};

/// A trace job on 4294967295 processors once made `Req::new` try four
/// billion shapes and the scheduler store them (64 GB); it is refused.
#[test]
fn a_request_for_u32_max_processors_is_refused() {
    let t = Table1::default();
    let variant: Variant = "mdf-preemptive-moldable".parse().unwrap();
    let err = t
        .requests(
            variant,
            &[request(u32::MAX, 3600)],
            &PriceFunction::TABLE1,
            SEEDS,
        )
        .unwrap_err();
    assert_eq!(
        err,
        Table1Error::Job {
            id: 1,
            error: ReqError::TooManyProcessors {
                r_max: u32::MAX,
                max: MAX_PROCESSORS
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "job 1: R^max is 4294967295 processors, expected at most 1000000; give a smaller request"
    );
    let all = |_: u32| Some(60);
    assert!(matches!(
        Req::new(1, u32::MAX, all, 600, 1.0, None),
        Err(ReqError::TooManyProcessors { .. })
    ));
}

/// The largest request accepted, a moldable one on 1,000,000 processors
/// (200,001 shapes), is placed on an idle machine of that size.
#[test]
fn the_largest_request_is_scheduled() {
    let t = Table1::default();
    let variant: Variant = "mdf-moldable".parse().unwrap();
    let jobs = [request(MAX_PROCESSORS, 3600)];
    let requests = t
        .requests(variant, &jobs, &PriceFunction::TABLE1, SEEDS)
        .unwrap();
    assert_eq!(requests[0].req.shapes().count(), 200_001);
    let config = SchedulerConfig::new(MAX_PROCESSORS, Policy::Mdf);
    let out = schedule(config, &requests).unwrap();
    assert_eq!(
        out[0].placement.as_ref().map(|p| p.completion()),
        Some(Time(3600))
    );
}

/// Submit times near the end of `i64` are refused, not wrapped.
#[test]
fn a_submission_at_the_end_of_i64_is_refused() {
    let t = Table1::default();
    let jobs = [Job::new(7, Time(i64::MAX - 7), 4, 600, 600)];
    let requests = t
        .requests(Variant::FIFO_RIGID, &jobs, &PriceFunction::TABLE1, SEEDS)
        .unwrap();
    let err = schedule(SchedulerConfig::new(8, Policy::Fifo), &requests).unwrap_err();
    assert_eq!(
        err,
        SchedError::SubmitTime {
            id: 7,
            submit: Time(i64::MAX - 7)
        }
    );
}

/// Durations past 2^40 s are refused: an estimate, a deadline stretched by
/// the deadline factor, a shape of a user's `f_mol`.
#[test]
fn durations_past_the_limit_are_refused() {
    let t = Table1::default();
    let too_long = |estimate: i64| {
        t.requests(
            Variant::FIFO_RIGID,
            &[request(4, estimate)],
            &PriceFunction::TABLE1,
            SEEDS,
        )
        .unwrap_err()
    };
    assert!(matches!(
        too_long(MAX_DURATION + 1),
        Table1Error::Job {
            error: ReqError::TooLong { name: "T^min", .. },
            ..
        }
    ));
    // T^min fits, but D = 5·T^min does not.
    assert!(matches!(
        too_long(MAX_DURATION / 2),
        Table1Error::Job {
            error: ReqError::TooLong {
                name: "deadline",
                ..
            },
            ..
        }
    ));
    let slow = |_: u32| Some(MAX_DURATION + 1);
    assert_eq!(
        Req::new(1, 2, slow, 60, 1.0, None)
            .err()
            .unwrap()
            .to_string(),
        "f_mol(R) is 1099511627777 s, expected at most 2^40 s (about 34,800 years)"
    );
}

/// No jobs: no requests, an empty schedule, empty stats.
#[test]
fn empty_inputs_are_valid() {
    let t = Table1::default();
    let requests = t
        .requests(Variant::FIFO_RIGID, &[], &PriceFunction::TABLE1, SEEDS)
        .unwrap();
    let config = SchedulerConfig::new(1, Policy::Mdf);
    let out = schedule(config, &requests).unwrap();
    assert!(out.is_empty());
    assert_eq!(validate(&config, &requests, &out), Ok(()));
    assert_eq!(IntervalStats::of(1, &requests, &out).span, 0);
}
