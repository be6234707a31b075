//! The NaN class (issue #19): every public function of `adaptive-requests`
//! that returns a float returns a finite one, or its input is refused with
//! a typed error naming the field.
//!
//! One property test per function, named `finite_<function>`, over hostile
//! inputs: NaN, the infinities, `f64::MAX` and `MIN`, `MIN_POSITIVE`,
//! subnormals, `-0.0`, the edges of `i64` and `u32`. `xtask`'s
//! `tests/float_api.rs` lists the functions with the test that covers each
//! and fails when a new float-returning `pub fn` has no test here.

use adaptive_requests::{
    BudgetRule, IntervalStats, LinearFmol, PriceFunction, Req, ReqError, RequestSeeds, SchedError,
    SchedulerConfig, schedule,
};
use profile::Time;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::extremes::{jobs, or, procs, seconds, table1, variant};

/// Hostile floats: every special value and edge, any bit pattern, and
/// ordinary values (`profile::testing::hostile_f64`).
fn hostile() -> impl Strategy<Value = f64> {
    profile::testing::hostile_f64(0.0..4.0)
}

/// `PriceFunction::new` on hostile parameters: a function whose
/// parameters are finite, or an error naming the parameter refused.
fn omega(
    rate: f64,
    max_discount: f64,
    incentive: f64,
) -> Result<Option<PriceFunction>, TestCaseError> {
    match PriceFunction::new(rate, max_discount, incentive) {
        Ok(o) => {
            prop_assert!(o.rate().is_finite());
            prop_assert!(o.max_discount().is_finite());
            prop_assert!(o.incentive().is_finite());
            Ok(Some(o))
        }
        Err(SchedError::Price { field, value, .. }) => {
            let given = match field {
                "rate" => rate,
                "max_discount" => max_discount,
                "incentive" => incentive,
                other => return Err(TestCaseError::fail(format!("unknown field {other}"))),
            };
            prop_assert_eq!(value.to_bits(), given.to_bits());
            Ok(None)
        }
        Err(e) => Err(TestCaseError::fail(format!("untyped refusal: {e:?}"))),
    }
}

/// A linear request with a hostile budget and price profile: one whose
/// floats are finite, or an error naming the field.
fn request(
    r_max: u32,
    t_min: i64,
    deadline: i64,
    budget: f64,
    profile: f64,
) -> Result<Option<Req<LinearFmol>>, TestCaseError> {
    let Ok(f) = LinearFmol::table1(r_max, t_min) else {
        return Ok(None);
    };
    match Req::linear(f, deadline, budget, None).and_then(|r| r.with_price_profile(profile)) {
        Ok(r) => {
            prop_assert!(r.budget().is_finite());
            prop_assert!(r.price_profile().is_finite());
            Ok(Some(r))
        }
        Err(ReqError::Budget { value }) => {
            prop_assert_eq!(value.to_bits(), budget.to_bits());
            Ok(None)
        }
        Err(ReqError::PriceProfile { value }) => {
            prop_assert_eq!(value.to_bits(), profile.to_bits());
            Ok(None)
        }
        Err(ReqError::Duration { .. } | ReqError::TooLong { .. }) => Ok(None),
        Err(e) => Err(TestCaseError::fail(format!("unexpected: {e:?}"))),
    }
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    #[test]
    fn finite_rate(rate in hostile()) {
        omega(rate, 0.6, 0.0)?;
    }

    #[test]
    fn finite_max_discount(max_discount in hostile()) {
        omega(1.0, max_discount, 0.0)?;
    }

    #[test]
    fn finite_incentive(incentive in hostile(), rate in hostile()) {
        omega(rate, 0.6, incentive)?;
        if let Ok(o) = PriceFunction::TABLE1.with_incentive(incentive) {
            prop_assert!(o.incentive().is_finite());
        }
    }

    #[test]
    fn finite_full_price(
        (rate, max_discount) in (hostile(), hostile()),
        work in seconds(),
        profile in hostile(),
    ) {
        for o in [omega(rate, max_discount, 0.0)?, Some(PriceFunction::TABLE1)].into_iter().flatten() {
            match o.full_price(work, profile) {
                Ok(p) => prop_assert!(p.is_finite(), "{p}"),
                Err(ReqError::PriceProfile { value }) => {
                    prop_assert_eq!(value.to_bits(), profile.to_bits());
                }
                Err(ReqError::Duration { name: "processor-seconds", value }) => {
                    prop_assert!(value == work && work < 0);
                }
                Err(e) => return Err(TestCaseError::fail(format!("unexpected: {e:?}"))),
            }
        }
    }

    #[test]
    fn finite_price(
        (rate, max_discount, incentive) in (hostile(), hostile(), hostile()),
        (r_max, t_min, deadline) in (procs(), seconds(), seconds()),
        (budget, profile) in (hostile(), hostile()),
        (submit, completion, work) in (seconds(), seconds(), seconds()),
    ) {
        let Some(req) = request(r_max, t_min, deadline, budget, profile)? else {
            return Ok(());
        };
        for o in [omega(rate, max_discount, incentive)?, Some(PriceFunction::TABLE1)].into_iter().flatten() {
            let p = o.price(&req, Time(submit), Time(completion), work);
            prop_assert!(p.is_finite(), "{p}");
        }
    }

    #[test]
    fn finite_budget(
        (r_max, t_min, deadline) in (procs(), seconds(), seconds()),
        budget in hostile(),
    ) {
        request(r_max, t_min, deadline, budget, 1.0)?;
    }

    #[test]
    fn finite_price_profile(
        (r_max, t_min, deadline) in (procs(), seconds(), seconds()),
        profile in hostile(),
    ) {
        request(r_max, t_min, deadline, 1.0, profile)?;
    }

    /// The mean response of every schedule of Table 1 requests built from
    /// hostile trace jobs and settings.
    #[test]
    fn finite_response(
        table in table1(),
        variant in variant(),
        jobs in jobs(),
        capacity in or(64, procs()),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        prop_assert_eq!(IntervalStats::default().response(), None);
        let Ok(omega) = table.price_function(0.0) else { return Ok(()); };
        let seeds = RequestSeeds { preemptive: seeds.0, price_profile: seeds.1 };
        let Ok(requests) = table.requests(variant, &jobs, &omega, seeds) else {
            return Ok(());
        };
        let config = SchedulerConfig::new(capacity, variant.policy).price(omega);
        if let Ok(outcomes) = schedule(config, &requests) {
            let stats = IntervalStats::of(capacity, &requests, &outcomes);
            prop_assert!(stats.response().is_none_or(f64::is_finite), "{stats:?}");
        }
    }

    /// What the scheduler charges each accepted request of a schedule of
    /// Table 1 requests built from hostile trace jobs and settings, at a
    /// hostile incentive, under either budget rule: finite, and the price
    /// the scheduler recorded.
    #[test]
    fn finite_charge(
        table in table1(),
        variant in variant(),
        jobs in jobs(),
        capacity in or(64, procs()),
        (incentive, cap) in (hostile(), any::<bool>()),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        let Ok(omega) = table.price_function(incentive) else { return Ok(()); };
        let seeds = RequestSeeds { preemptive: seeds.0, price_profile: seeds.1 };
        let Ok(requests) = table.requests(variant, &jobs, &omega, seeds) else {
            return Ok(());
        };
        let rule = if cap { BudgetRule::Cap } else { BudgetRule::Limit };
        let config = SchedulerConfig::new(capacity, variant.policy).price(omega).budget(rule);
        if let Ok(outcomes) = schedule(config, &requests) {
            for (r, o) in requests.iter().zip(&outcomes) {
                if let Some(p) = &o.placement {
                    let charged = config.charge(r, p);
                    prop_assert!(charged.is_finite(), "{charged}");
                    prop_assert_eq!(charged.to_bits(), o.price.to_bits());
                }
            }
        }
    }
}
