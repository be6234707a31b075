//! The adaptive request `Req(R^min, R^max, f_mol, D, B, Sp)`.

use profile::MAX_DURATION;

use crate::error::ReqError;
use crate::fmol::{LinearFmol, MAX_PROCESSORS, Moldability};
use crate::price::LARGEST_FACTOR;

/// `Sp = (N, I, M)`: how a preemptive request may be split into subrequests.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Preemption {
    /// `N`: the most subrequests the request may become; `None` is `N = ∞`.
    pub max_parts: Option<u32>,
    /// `I`: splits may fall only at multiples of this share of the work, in
    /// percent (`10` means every 10% of the execution).
    pub split_percent: u32,
    /// `M`: whether each subrequest may be molded on its own.
    pub mold_each: bool,
}

impl Preemption {
    /// Table 1's `Sp = (10, 10%, true)`.
    pub const TABLE1: Preemption = Preemption {
        max_parts: Some(10),
        split_percent: 10,
        mold_each: true,
    };

    /// The points, in percent of the work, where the request may be split:
    /// `I, 2I, ...` strictly below 100.
    pub fn split_points(&self) -> impl Iterator<Item = u32> + use<> {
        let step = self.split_percent.max(1);
        (1..).map(move |k| k * step).take_while(|&p| p < 100)
    }

    /// The boundaries of the smallest pieces, in percent of the work:
    /// `0, I, 2I, ..., 100`. A subrequest covers the work between two of them.
    pub fn boundaries(&self) -> Vec<u32> {
        let mut bounds = Vec::with_capacity(self.pieces() + 1);
        bounds.push(0);
        bounds.extend(self.split_points());
        bounds.push(100);
        bounds
    }

    /// How many smallest pieces the work has: one more than there are split
    /// points (the multiples of `I` below 100), counted without listing them.
    fn pieces(&self) -> usize {
        let step = self.split_percent.max(1);
        99 / step as usize + 1
    }

    /// The most subrequests the request can become: `N`, and never more
    /// than there are pieces between split points.
    pub fn part_limit(&self) -> usize {
        let pieces = self.pieces();
        self.max_parts.map_or(pieces, |n| pieces.min(n as usize))
    }

    fn check(&self) -> Result<(), ReqError> {
        if !(1..=100).contains(&self.split_percent) {
            return Err(ReqError::Preemption {
                field: "I (split interval, %)",
                value: self.split_percent,
                expected: "a percentage in 1..=100",
            });
        }
        if self.max_parts == Some(0) {
            return Err(ReqError::Preemption {
                field: "N (maximum subrequests)",
                value: 0,
                expected: "at least 1, or unlimited",
            });
        }
        Ok(())
    }
}

/// An adaptive resource allocation request `Req(R^min, R^max, f_mol, D, B, Sp)`
/// (Netto & Buyya §3.1).
///
/// The usage time is not a field: it is `f_mol(R)` for the `R` the scheduler
/// picks in `R^min..=R^max`. `D` is the deadline counted from submission (the
/// longest the user accepts from submission to completion) and `B` the most
/// the user pays. A request without `Sp` cannot be split.
///
/// Construction checks that `1 <= R^min <= R^max <= MAX_PROCESSORS`, that
/// `0 < D <= 2^40` s (`profile::MAX_DURATION`), that `B` is finite and
/// non-negative, that `Sp` is in range, and that `f_mol` allows at least one
/// shape in the range, with a time in `[1, 2^40]` s for every allowed shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Req<F = LinearFmol> {
    r_min: u32,
    r_max: u32,
    f_mol: F,
    deadline: i64,
    budget: f64,
    sp: Option<Preemption>,
    price_profile: f64,
}

impl Req<LinearFmol> {
    /// A request whose processor range is that of its linear `f_mol`.
    pub fn linear(
        f_mol: LinearFmol,
        deadline: i64,
        budget: f64,
        sp: Option<Preemption>,
    ) -> Result<Self, ReqError> {
        Req::new(f_mol.r_min(), f_mol.r_max(), f_mol, deadline, budget, sp)
    }
}

impl<F: Moldability> Req<F> {
    /// A request, checked as described on [`Req`].
    pub fn new(
        r_min: u32,
        r_max: u32,
        f_mol: F,
        deadline: i64,
        budget: f64,
        sp: Option<Preemption>,
    ) -> Result<Self, ReqError> {
        if r_min == 0 || r_min > r_max {
            return Err(ReqError::ProcessorRange { r_min, r_max });
        }
        if r_max > MAX_PROCESSORS {
            return Err(ReqError::TooManyProcessors {
                r_max,
                max: MAX_PROCESSORS,
            });
        }
        if deadline <= 0 {
            return Err(ReqError::Duration {
                name: "deadline",
                value: deadline,
            });
        }
        if deadline > MAX_DURATION {
            return Err(ReqError::TooLong {
                name: "deadline",
                value: deadline,
            });
        }
        if !(budget.is_finite() && budget >= 0.0) {
            return Err(ReqError::Budget { value: budget });
        }
        if let Some(sp) = &sp {
            sp.check()?;
        }
        let req = Req {
            r_min,
            r_max,
            f_mol,
            deadline,
            budget,
            sp,
            price_profile: 1.0,
        };
        let mut any = false;
        for procs in r_min..=r_max {
            if let Some(time) = req.f_mol.time_for(procs) {
                check_shape(procs, time)?;
                any = true;
            }
        }
        if !any {
            return Err(ReqError::NoShape { r_min, r_max });
        }
        Ok(req)
    }

    /// `R^min`.
    pub fn r_min(&self) -> u32 {
        self.r_min
    }

    /// `R^max`.
    pub fn r_max(&self) -> u32 {
        self.r_max
    }

    /// `f_mol`.
    pub fn f_mol(&self) -> &F {
        &self.f_mol
    }

    /// `D`: seconds from submission by which the request must complete.
    pub fn deadline(&self) -> i64 {
        self.deadline
    }

    /// `B`: the most the user pays.
    pub fn budget(&self) -> f64 {
        self.budget
    }

    /// `Sp`, if the request may be split.
    pub fn preemption(&self) -> Option<Preemption> {
        self.sp
    }

    /// The same request in another price profile (the multiplier of the
    /// price function, 1 by default; Table 1 uses 1 and 3), in `(0, 10^12]`.
    pub fn with_price_profile(mut self, profile: f64) -> Result<Self, ReqError> {
        self.price_profile = checked_profile(profile)?;
        Ok(self)
    }

    /// The price profile: how much more than the base price this user pays.
    pub fn price_profile(&self) -> f64 {
        self.price_profile
    }

    /// `T^min`: the shortest usage time over the allowed shapes (`f_mol(R^max)`
    /// for a function that never gets slower with more processors).
    pub fn t_min(&self) -> i64 {
        self.shapes().map(|(_, t)| t).min().unwrap_or(i64::MAX)
    }

    /// The usage time on `procs` processors: `f_mol(procs)` if `procs` lies in
    /// `R^min..=R^max` and `f_mol` allows it, else `None`.
    pub fn time_for(&self, procs: u32) -> Option<i64> {
        if (self.r_min..=self.r_max).contains(&procs) {
            self.f_mol.time_for(procs)
        } else {
            None
        }
    }

    /// The allowed shapes `(R, f_mol(R))` from `R^max` down to `R^min`, the
    /// order in which Algorithm 1 tries them.
    pub fn shapes(&self) -> impl Iterator<Item = (u32, i64)> + '_ {
        (self.r_min..=self.r_max)
            .rev()
            .filter_map(|r| self.time_for(r).map(|t| (r, t)))
    }

    /// Whether the scheduler has more than one shape to choose from.
    pub fn is_moldable(&self) -> bool {
        self.shapes().nth(1).is_some()
    }

    /// Whether the request may be split into subrequests (it has `Sp`).
    pub fn is_preemptive(&self) -> bool {
        self.sp.is_some()
    }
}

/// The shapes `(R, f_mol(R))` `req`'s `f_mol` allows now, `R` descending,
/// each checked ([`check_shape`]), at least one: `f_mol` was checked when
/// the request was built, but a user's function may answer otherwise later,
/// and whoever schedules from the answer checks it.
pub(crate) fn checked_shapes<F: Moldability>(req: &Req<F>) -> Result<Vec<(u32, i64)>, ReqError> {
    let shapes: Vec<(u32, i64)> = req.shapes().collect();
    if shapes.is_empty() {
        return Err(ReqError::NoShape {
            r_min: req.r_min(),
            r_max: req.r_max(),
        });
    }
    for &(procs, time) in &shapes {
        check_shape(procs, time)?;
    }
    Ok(shapes)
}

/// `Ok(())` if `f_mol(procs) = time` is a usage time in `[1, 2^40]` s.
pub(crate) fn check_shape(procs: u32, time: i64) -> Result<(), ReqError> {
    if time <= 0 {
        return Err(ReqError::ShapeTime { procs, time });
    }
    if time > MAX_DURATION {
        return Err(ReqError::TooLong {
            name: "f_mol(R)",
            value: time,
        });
    }
    Ok(())
}

/// `Ok(profile)` if it is a price profile in `(0, 10^12]`.
pub(crate) fn checked_profile(profile: f64) -> Result<f64, ReqError> {
    if profile > 0.0 && profile <= LARGEST_FACTOR {
        Ok(profile)
    } else {
        Err(ReqError::PriceProfile { value: profile })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linear(r_max: u32, t_min: i64) -> LinearFmol {
        LinearFmol::table1(r_max, t_min).unwrap()
    }

    #[test]
    fn table1_request() {
        let req = Req::linear(
            linear(20, 3600),
            5 * 3600 + 3 * 86_400,
            20.0,
            Some(Preemption::TABLE1),
        )
        .unwrap();
        assert_eq!((req.r_min(), req.r_max()), (16, 20));
        assert_eq!(req.time_for(20), Some(3600));
        assert_eq!(req.time_for(16), Some(4500));
        assert_eq!(req.time_for(15), None);
        assert!(req.is_moldable());
        assert!(req.is_preemptive());
        let shapes: Vec<u32> = req.shapes().map(|(r, _)| r).collect();
        assert_eq!(shapes, vec![20, 19, 18, 17, 16]);
    }

    #[test]
    fn small_requests_are_rigid() {
        let req = Req::linear(linear(10, 60), 300, 1.0, None).unwrap();
        assert!(!req.is_moldable());
        assert!(!req.is_preemptive());
        assert_eq!(req.shapes().collect::<Vec<_>>(), vec![(10, 60)]);
    }

    #[test]
    fn user_functions_and_restrictions() {
        // Perfect speed-up of 6400 processor-seconds, powers of two only.
        let pow2 = |r: u32| r.is_power_of_two().then(|| 6400 / i64::from(r));
        let req = Req::new(3, 40, pow2, 10_000, 5.0, None).unwrap();
        assert_eq!(
            req.shapes().collect::<Vec<_>>(),
            vec![(32, 200), (16, 400), (8, 800), (4, 1600)]
        );
        assert_eq!(
            req.time_for(64),
            None,
            "outside R^max even though f_mol allows it"
        );
        // No power of two between 5 and 7.
        assert_eq!(
            Req::new(5, 7, pow2, 100, 1.0, None).err(),
            Some(ReqError::NoShape { r_min: 5, r_max: 7 })
        );
    }

    #[test]
    fn split_points() {
        let points: Vec<u32> = Preemption::TABLE1.split_points().collect();
        assert_eq!(points, vec![10, 20, 30, 40, 50, 60, 70, 80, 90]);
        let fifths = Preemption {
            max_parts: Some(2),
            split_percent: 20,
            mold_each: true,
        };
        assert_eq!(
            fifths.split_points().collect::<Vec<_>>(),
            vec![20, 40, 60, 80]
        );
        let odd = Preemption {
            max_parts: None,
            split_percent: 30,
            mold_each: false,
        };
        assert_eq!(odd.split_points().collect::<Vec<_>>(), vec![30, 60, 90]);
        let whole = Preemption {
            max_parts: None,
            split_percent: 100,
            mold_each: false,
        };
        assert_eq!(whole.split_points().count(), 0);
        assert_eq!(whole.boundaries(), vec![0, 100]);
        assert_eq!(whole.part_limit(), 1);
        assert_eq!(odd.boundaries(), vec![0, 30, 60, 90, 100]);
        assert_eq!(odd.part_limit(), 4);
        assert_eq!(fifths.part_limit(), 2);
        assert_eq!(Preemption::TABLE1.part_limit(), 10);
        // The pieces counted without listing them are the pieces listed.
        for split_percent in 0..=250 {
            let sp = Preemption {
                max_parts: None,
                split_percent,
                mold_each: true,
            };
            assert_eq!(
                sp.pieces(),
                sp.boundaries().len() - 1,
                "I = {split_percent}"
            );
        }
    }

    #[test]
    fn invalid_requests_are_errors() {
        let f = linear(20, 3600);
        let check =
            |r: Result<Req, ReqError>, msg: &str| assert_eq!(r.unwrap_err().to_string(), msg);
        check(
            Req::new(0, 20, f, 10, 1.0, None),
            "R^min is 0 and R^max is 20, expected 1 <= R^min <= R^max",
        );
        check(
            Req::new(21, 20, f, 10, 1.0, None),
            "R^min is 21 and R^max is 20, expected 1 <= R^min <= R^max",
        );
        check(
            Req::linear(f, 0, 1.0, None),
            "deadline is 0 s, expected a positive number of seconds",
        );
        check(
            Req::linear(f, 10, -1.0, None),
            "budget is -1, expected a finite number >= 0",
        );
        check(
            Req::linear(f, 10, f64::NAN, None),
            "budget is NaN, expected a finite number >= 0",
        );
        let sp = Preemption {
            max_parts: Some(0),
            ..Preemption::TABLE1
        };
        check(
            Req::linear(f, 10, 1.0, Some(sp)),
            "Sp field N (maximum subrequests) is 0, expected at least 1, or unlimited",
        );
        let sp = Preemption {
            split_percent: 0,
            ..Preemption::TABLE1
        };
        check(
            Req::linear(f, 10, 1.0, Some(sp)),
            "Sp field I (split interval, %) is 0, expected a percentage in 1..=100",
        );
        check(
            Req::linear(f, 10, 1.0, None).and_then(|r| r.with_price_profile(0.0)),
            "price profile is 0, expected a multiplier in (0, 1e12]",
        );
        let zero_time = |_: u32| Some(0);
        assert_eq!(
            Req::new(1, 2, zero_time, 10, 1.0, None).err(),
            Some(ReqError::ShapeTime { procs: 1, time: 0 })
        );
    }
}
