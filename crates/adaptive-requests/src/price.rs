//! The price function `ω` of Algorithm 2 and how budgets bind.

use profile::Time;

use crate::error::{ReqError, SchedError};
use crate::fmol::Moldability;
use crate::req::{Req, checked_profile};

/// Seconds in an hour: prices are quoted per processor-hour.
const HOUR: f64 = 3600.0;

/// Relative slack when a price is compared with a budget, so that two
/// floating-point computations of the same amount compare equal.
const BUDGET_TOLERANCE: f64 = 1e-9;

/// The largest rate ($ per processor-hour) and price profile accepted:
/// 10^12. With both at most this, `ω` of any `i64` of processor-seconds is
/// a finite number (at most about 3·10^39 $), never infinite or NaN.
pub(crate) const LARGEST_FACTOR: f64 = 1e12;

/// The price function `ω(Req, T_s, Duration, R)` of Netto & Buyya's
/// Algorithm 2, generalised to a request placed as several subrequests.
///
/// For a request submitted at `s` with `T^min` and relative deadline `D`,
/// completing at `T_c` after using `W` processor-seconds in all:
///
/// ```text
/// late  = (T_c − s − T^min) / (D − T^min)        clamped to [0, 1]; 0 if D = T^min
/// P     = W − ⌊late · W · max_discount⌋          in processor-seconds
/// P     = P · price_profile
/// P     = P − P · incentive                      only for preemptive requests
/// price = P · rate / 3600                        in $
/// ```
///
/// So a request finishing as early as it possibly could (`T^min` after its
/// submission) pays its full work at the base rate times its profile, and
/// one finishing exactly at its deadline gets `max_discount` (60% in the
/// paper) off. `W` is `Duration · R` summed over the subrequests; a molded
/// request pays for the processor-time it really holds.
///
/// ```
/// use adaptive_requests::{LinearFmol, PriceFunction, Req};
/// use profile::Time;
///
/// // 20 processors for an hour, deadline 5 hours, price profile 3.
/// let req = Req::linear(LinearFmol::table1(20, 3600)?, 5 * 3600, 60.0, None)?
///     .with_price_profile(3.0)?;
/// let omega = PriceFunction::TABLE1;
/// // As early as possible: 20 processor-hours × $1 × 3.
/// assert_eq!(omega.price(&req, Time(0), Time(3600), 20 * 3600), 60.0);
/// // At the deadline: 60% off.
/// assert!((omega.price(&req, Time(0), Time(5 * 3600), 20 * 3600) - 24.0).abs() < 1e-9);
/// assert_eq!(omega.full_price(20 * 3600, 3.0)?, 60.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PriceFunction {
    rate: f64,
    max_discount: f64,
    incentive: f64,
}

impl PriceFunction {
    /// Table 1 and Algorithm 2: $1 per processor-hour, up to 60% off for a
    /// late completion, no incentive for preemptive requests.
    pub const TABLE1: PriceFunction = PriceFunction {
        rate: 1.0,
        max_discount: 0.6,
        incentive: 0.0,
    };

    /// A price function: `rate` in $ per processor-hour (in `[0, 10^12]`),
    /// `max_discount` and `incentive` as fractions in `[0, 1]`.
    pub fn new(rate: f64, max_discount: f64, incentive: f64) -> Result<Self, SchedError> {
        let check = |field: &'static str, value: f64, ok: bool, expected: &'static str| {
            if ok {
                Ok(())
            } else {
                Err(SchedError::Price {
                    field,
                    value,
                    expected,
                })
            }
        };
        check(
            "rate",
            rate,
            (0.0..=LARGEST_FACTOR).contains(&rate),
            "a number in [0, 1e12] ($ per processor-hour)",
        )?;
        let unit = |v: f64| (0.0..=1.0).contains(&v);
        check(
            "max_discount",
            max_discount,
            unit(max_discount),
            "a fraction in [0, 1]",
        )?;
        check(
            "incentive",
            incentive,
            unit(incentive),
            "a fraction in [0, 1]",
        )?;
        Ok(PriceFunction {
            rate,
            max_discount,
            incentive,
        })
    }

    /// The same function with another incentive for preemptive requests.
    pub fn with_incentive(self, incentive: f64) -> Result<Self, SchedError> {
        PriceFunction::new(self.rate, self.max_discount, incentive)
    }

    /// $ per processor-hour.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The largest share taken off for a late completion.
    pub fn max_discount(&self) -> f64 {
        self.max_discount
    }

    /// The share preemptive requests do not pay.
    pub fn incentive(&self) -> f64 {
        self.incentive
    }

    /// The undiscounted price of `proc_seconds` for a user of `price_profile`:
    /// Table 1's budget is `full_price(R^max · T^min, profile)`. Finite:
    /// with the profile and the rate at most 10^12, the price of any `i64`
    /// of processor-seconds is at most about 3·10^39 $.
    ///
    /// # Errors
    ///
    /// [`ReqError::PriceProfile`] for a profile outside `(0, 10^12]` (NaN
    /// and the infinities included), as [`Req::with_price_profile`] refuses,
    /// and [`ReqError::Duration`] naming `processor-seconds` for a negative
    /// amount of work (which would have a negative price).
    pub fn full_price(&self, proc_seconds: i64, price_profile: f64) -> Result<f64, ReqError> {
        let profile = checked_profile(price_profile)?;
        if proc_seconds < 0 {
            return Err(ReqError::Duration {
                name: "processor-seconds",
                value: proc_seconds,
            });
        }
        Ok(proc_seconds as f64 * profile * self.rate / HOUR)
    }

    /// `ω`: the price of `req`, submitted at `submit`, completing at
    /// `completion` after using `proc_seconds` processor-seconds. Finite for
    /// every input: the request and the function are checked when built,
    /// the lateness is clamped to `[0, 1]` and the work is an `i64`.
    pub fn price<F: Moldability>(
        &self,
        req: &Req<F>,
        submit: Time,
        completion: Time,
        proc_seconds: i64,
    ) -> f64 {
        self.charge(&Terms::of(req, submit), completion, proc_seconds)
    }

    #[inline]
    pub(crate) fn charge(&self, terms: &Terms, completion: Time, proc_seconds: i64) -> f64 {
        // In i128, so that no completion, submission or T^min can overflow;
        // the same numbers as in i64 wherever that does not.
        let slack = i128::from(terms.deadline) - i128::from(terms.t_min);
        let late = if slack > 0 {
            let taken = i128::from(completion.0) - i128::from(terms.submit.0);
            let over = taken - i128::from(terms.t_min);
            // Converted from i64 where the numbers fit (the same f64: both
            // conversions round to nearest), which is much cheaper.
            let ratio = match (i64::try_from(over), i64::try_from(slack)) {
                (Ok(over), Ok(slack)) => over as f64 / slack as f64,
                _ => wide_ratio(over, slack),
            };
            ratio.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let work = proc_seconds as f64;
        // No discount on time: `floor(0 · work · d)` is ±0, which leaves `work` as it is.
        let discount = if late == 0.0 {
            0.0
        } else {
            floor(late * work * self.max_discount)
        };
        let mut p = (work - discount) * terms.price_profile;
        if terms.preemptive {
            p -= p * self.incentive;
        }
        p * self.rate / HOUR
    }
}

/// `x.floor()`, without the library call the default x86-64 target cannot
/// inline (Algorithm 1 prices every candidate window): a positive `x`
/// below 2^63 truncates to the same integer; everything else (zeros of
/// either sign, negatives, NaN, infinities, huge values) goes to `floor`.
#[inline]
fn floor(x: f64) -> f64 {
    const TWO_63: f64 = (1u64 << 63) as f64;
    if x > 0.0 && x < TWO_63 {
        (x as i64) as f64
    } else {
        floor_rare(x)
    }
}

/// `x.floor()` out of line: the call and what it saves stay off the common
/// path of [`PriceFunction::charge`].
#[cold]
#[inline(never)]
fn floor_rare(x: f64) -> f64 {
    x.floor()
}

/// `over / slack` for numbers beyond `i64` (out of line, as [`floor_rare`]).
#[cold]
#[inline(never)]
fn wide_ratio(over: i128, slack: i128) -> f64 {
    over as f64 / slack as f64
}

impl Default for PriceFunction {
    fn default() -> Self {
        PriceFunction::TABLE1
    }
}

/// How the budget `B` binds. With the `serde` feature it is written by
/// name: `limit` or `cap`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum BudgetRule {
    /// A placement whose price exceeds `B` is not acceptable: the request is
    /// placed elsewhere (later, or on another shape) or rejected. The price
    /// charged is always `ω`.
    #[default]
    Limit,
    /// The provider charges `min(ω, B)`, so the budget never excludes a placement.
    Cap,
}

/// Whether `price` is within `budget` (up to floating-point rounding).
pub fn within_budget(price: f64, budget: f64) -> bool {
    price <= budget + BUDGET_TOLERANCE * budget.abs().max(1.0)
}

/// What pricing needs to know about one submitted request, computed once.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Terms {
    pub submit: Time,
    pub t_min: i64,
    /// `D`, relative to submission.
    pub deadline: i64,
    pub price_profile: f64,
    pub preemptive: bool,
    pub budget: f64,
}

impl Terms {
    pub(crate) fn of<F: Moldability>(req: &Req<F>, submit: Time) -> Terms {
        Terms {
            submit,
            t_min: req.t_min(),
            deadline: req.deadline(),
            price_profile: req.price_profile(),
            preemptive: req.is_preemptive(),
            budget: req.budget(),
        }
    }

    /// The absolute deadline.
    pub(crate) fn due(&self) -> Time {
        self.submit.saturating_add(self.deadline)
    }
}

/// A price function with its budget rule: what the scheduler charges and
/// which placements it may use.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Tariff {
    pub omega: PriceFunction,
    pub rule: BudgetRule,
}

impl Tariff {
    /// The amount charged for completing at `completion` with `work` processor-seconds.
    pub(crate) fn charged(&self, terms: &Terms, completion: Time, work: i64) -> f64 {
        let p = self.omega.charge(terms, completion, work);
        match self.rule {
            BudgetRule::Limit => p,
            BudgetRule::Cap => p.min(terms.budget),
        }
    }

    /// An estimate of the earliest completion [`admits`](Tariff::admits)
    /// accepts for `work`, solved from the price function in floating
    /// point: only a guess, which a search must verify (it may be off by a
    /// few seconds, or outside the range searched). `None` where there is
    /// nothing to solve (no budget limit, no slack, a zero rate or
    /// discount) or no discount is needed.
    pub(crate) fn first_admitted_completion(&self, terms: &Terms, work: i64) -> Option<f64> {
        if self.rule == BudgetRule::Cap {
            return None;
        }
        let omega = &self.omega;
        let slack = (terms.deadline - terms.t_min) as f64;
        let paid = terms.price_profile
            * if terms.preemptive {
                1.0 - omega.incentive
            } else {
                1.0
            }
            * omega.rate
            / HOUR;
        let budget = terms.budget + BUDGET_TOLERANCE * terms.budget.abs().max(1.0);
        let work = work as f64;
        // The discount needed, in whole processor-seconds, and the lateness
        // that gives it (NaN for a zero rate or discount: no use either).
        let discount = (work - budget / paid).ceil();
        let late = discount / (work * omega.max_discount);
        (late > 0.0 && slack > 0.0)
            .then(|| terms.submit.0 as f64 + terms.t_min as f64 + (late * slack).ceil())
    }

    /// Whether such a completion is acceptable under the budget.
    pub(crate) fn admits(&self, terms: &Terms, completion: Time, work: i64) -> bool {
        match self.rule {
            BudgetRule::Cap => true,
            BudgetRule::Limit => {
                within_budget(self.omega.charge(terms, completion, work), terms.budget)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LinearFmol, Preemption};

    fn req(r_max: u32, t_min: i64, deadline: i64, profile: f64, sp: bool) -> Req {
        let f = LinearFmol::table1(r_max, t_min).unwrap();
        let omega = PriceFunction::TABLE1;
        let budget = omega.full_price(i64::from(r_max) * t_min, profile).unwrap();
        Req::linear(f, deadline, budget, sp.then_some(Preemption::TABLE1))
            .unwrap()
            .with_price_profile(profile)
            .unwrap()
    }

    /// Algorithm 2 by hand: 20 processors, T^min = 1 h, D = 5 h.
    #[test]
    fn algorithm_2_by_hand() {
        let r = req(20, 3600, 5 * 3600, 1.0, false);
        let omega = PriceFunction::TABLE1;
        let check = |completion: i64, work: i64, expected: f64| {
            let p = omega.price(&r, Time(100), Time(100 + completion), work);
            assert!(
                (p - expected).abs() < 1e-9,
                "completion {completion}: {p} vs {expected}"
            );
        };
        check(3600, 72_000, 20.0);
        // A quarter of the way to the deadline: 15% off.
        check(3600 + 3600, 72_000, 20.0 * 0.85);
        // The floor is taken in processor-seconds: 1 s late of 14 400 s slack.
        // 72 000 · 0.6 / 14 400 = 3 processor-seconds off.
        check(3601, 72_000, (72_000.0 - 3.0) / 3600.0);
        // Past the deadline the discount stays at 60%.
        check(10 * 3600, 72_000, 8.0);
        // Molded onto 16 processors for 4500 s: same work at the ends of the line.
        check(
            4500,
            72_000,
            (72_000.0 - (900.0 / 14_400.0 * 72_000.0 * 0.6_f64).floor()) / 3600.0,
        );
    }

    #[test]
    fn floor_is_floor_bit_for_bit() {
        let mut values: Vec<f64> = profile::testing::EDGE_F64.to_vec();
        values.extend([0.3, 0.5, 0.999_999_999, 1.0, 1.5, 2.5, 1e15 + 0.5]);
        let two = |e: u32| (1u64 << e) as f64;
        values.extend([two(52) - 0.5, two(53) + 2.0, 1e18, 9.2e18, two(63) - 1024.0]);
        values.extend([two(63), 1e19, -0.5, -1.5, -1e18]);
        for x in values {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "{x:e}");
        }
    }

    #[test]
    fn profile_and_incentive() {
        let omega = PriceFunction::TABLE1.with_incentive(0.25).unwrap();
        let rigid = req(20, 3600, 5 * 3600, 3.0, false);
        let split = req(20, 3600, 5 * 3600, 3.0, true);
        assert_eq!(omega.price(&rigid, Time(0), Time(3600), 72_000), 60.0);
        assert_eq!(omega.price(&split, Time(0), Time(3600), 72_000), 45.0);
    }

    #[test]
    fn deadline_equal_to_t_min_means_no_discount() {
        let r = req(4, 600, 600, 1.0, false);
        let p = PriceFunction::TABLE1.price(&r, Time(0), Time(600), 2400);
        assert_eq!(p, 2400.0 / 3600.0);
    }

    #[test]
    fn budget_rules() {
        let r = req(20, 3600, 5 * 3600, 1.0, false);
        let terms = Terms::of(&r, Time(0));
        // 1% more work than the budget pays for, finishing on time.
        let work = 72_720;
        let limit = Tariff {
            omega: PriceFunction::TABLE1,
            rule: BudgetRule::Limit,
        };
        let cap = Tariff {
            omega: PriceFunction::TABLE1,
            rule: BudgetRule::Cap,
        };
        assert!(!limit.admits(&terms, Time(3600), work));
        assert!(cap.admits(&terms, Time(3600), work));
        assert_eq!(cap.charged(&terms, Time(3600), work), r.budget());
        assert!(limit.charged(&terms, Time(3600), work) > r.budget());
        // Later, the discount brings it within budget.
        assert!(limit.admits(&terms, Time(3 * 3600), work));
        assert!(within_budget(20.0, 20.0));
        assert!(!within_budget(20.001, 20.0));
    }

    #[test]
    fn bad_parameters_are_errors() {
        let e = PriceFunction::new(1.0, 1.5, 0.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "price function max_discount is 1.5, expected a fraction in [0, 1]"
        );
        assert!(PriceFunction::new(f64::NAN, 0.6, 0.0).is_err());
        assert!(PriceFunction::TABLE1.with_incentive(-0.1).is_err());
    }
}
