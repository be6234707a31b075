//! Moldability functions `f_mol : R → T`.

use profile::MAX_DURATION;

use crate::error::ReqError;

/// The most processors a request may ask for (`R^max`): 1,000,000.
///
/// A request's shapes `R^min..=R^max` are each tried by the scheduler and
/// stored with the request, so time and memory grow with `R^max`; the cap
/// is far beyond the largest machine of the Parallel Workloads Archive logs
/// the toolkit uses (SDSC Blue Horizon, 1,152 processors). [`Req::new`] and
/// [`LinearFmol::new`] refuse more with [`ReqError::TooManyProcessors`].
///
/// [`Req::new`]: crate::Req::new
pub const MAX_PROCESSORS: u32 = 1_000_000;

/// A moldability function `f_mol : R → T` (Netto & Buyya §3.1): the usage
/// time, in whole seconds, of the request when it runs on `procs` processors.
///
/// `None` means the shape is not allowed, which expresses restrictions such
/// as "R must be a power of two". A rigid request returns one time for its
/// single processor count. Any `Fn(u32) -> Option<i64>` is a moldability
/// function, so users can plug in speed-up models of their own.
pub trait Moldability {
    /// The usage time on `procs` processors, or `None` if that shape is not allowed.
    fn time_for(&self, procs: u32) -> Option<i64>;
}

impl<F: Fn(u32) -> Option<i64>> Moldability for F {
    fn time_for(&self, procs: u32) -> Option<i64> {
        self(procs)
    }
}

/// The linear moldability function of the paper's Table 1:
/// `f_mol(R) = k − c·R` with `T^max = T^min·R^max/R^min`,
/// `c = (T^max − T^min)/(R^max − R^min)` and `k = T^min + R^max·c`
/// (`c = 0`, `k = T^min` when `R^max = R^min`).
///
/// Substituting gives `f_mol(R) = T^min·(R^max + R^min − R)/R^min`, which is
/// evaluated exactly in integers and rounded up to whole seconds, so
/// `f_mol(R^max) = T^min` and `f_mol(R^min) = ⌈T^max⌉`. The work `R·f_mol(R)`
/// is the same at both ends; in between the line lies above the
/// constant-work hyperbola, so molding never makes a request cheaper in
/// processor-seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinearFmol {
    r_min: u32,
    r_max: u32,
    t_min: i64,
}

impl LinearFmol {
    /// The linear function through `(R^max, T^min)` and `(R^min, T^max)`:
    /// `1 <= R^min <= R^max <= MAX_PROCESSORS`, `1 <= T^min <= 2^40` s.
    pub fn new(r_min: u32, r_max: u32, t_min: i64) -> Result<LinearFmol, ReqError> {
        if r_min == 0 || r_min > r_max {
            return Err(ReqError::ProcessorRange { r_min, r_max });
        }
        if r_max > MAX_PROCESSORS {
            return Err(ReqError::TooManyProcessors {
                r_max,
                max: MAX_PROCESSORS,
            });
        }
        if t_min <= 0 {
            return Err(ReqError::Duration {
                name: "T^min",
                value: t_min,
            });
        }
        if t_min > MAX_DURATION {
            return Err(ReqError::TooLong {
                name: "T^min",
                value: t_min,
            });
        }
        Ok(LinearFmol {
            r_min,
            r_max,
            t_min,
        })
    }

    /// Table 1's request shape from a trace job: `R^max` = its processors,
    /// `T^min` = its run time, `R^min` = [`table1_r_min`]`(R^max)`.
    pub fn table1(r_max: u32, t_min: i64) -> Result<LinearFmol, ReqError> {
        LinearFmol::new(table1_r_min(r_max), r_max, t_min)
    }

    /// `R^min`.
    pub fn r_min(&self) -> u32 {
        self.r_min
    }

    /// `R^max`.
    pub fn r_max(&self) -> u32 {
        self.r_max
    }

    /// `T^min = f_mol(R^max)`.
    pub fn t_min(&self) -> i64 {
        self.t_min
    }

    /// `T^max = f_mol(R^min) = ⌈T^min·R^max/R^min⌉`.
    pub fn t_max(&self) -> i64 {
        self.eval(self.r_min)
    }

    fn eval(&self, procs: u32) -> i64 {
        let num = i128::from(self.t_min)
            * (i128::from(self.r_max) + i128::from(self.r_min) - i128::from(procs));
        let den = i128::from(self.r_min);
        // Ceiling division of non-negative numbers; the result is at most
        // T^min·R^max/R^min <= T^min·u32::MAX, which fits i64 only when T^min
        // is modest, so saturate rather than wrap.
        i64::try_from((num + den - 1) / den).unwrap_or(i64::MAX)
    }
}

impl Moldability for LinearFmol {
    fn time_for(&self, procs: u32) -> Option<i64> {
        (self.r_min..=self.r_max)
            .contains(&procs)
            .then(|| self.eval(procs))
    }
}

/// Table 1's `R^min`: 80% of `R^max`, rounded up to a whole processor, except
/// that requests for up to 10 processors are not molded (`R^min = R^max`).
///
/// The paper does not say how 80% is rounded; rounding up keeps `R^min` at
/// least 80% of `R^max` (docs/DESIGN-CHOICES.md).
pub fn table1_r_min(r_max: u32) -> u32 {
    r_min_share(r_max, 80, 10)
}

/// `R^min` as a share of `R^max`: `⌈percent·R^max/100⌉` (at least 1, at most
/// `R^max`), except that requests for up to `rigid_up_to` processors are not
/// molded (`R^min = R^max`). `r_min_share(r, 80, 10)` is [`table1_r_min`].
pub fn r_min_share(r_max: u32, percent: u32, rigid_up_to: u32) -> u32 {
    if r_max <= rigid_up_to {
        r_max
    } else {
        let r = (u64::from(r_max) * u64::from(percent.min(100))).div_ceil(100);
        // At most R^max, so it fits in u32.
        (r.max(1) as u32).min(r_max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_of_the_line() {
        let f = LinearFmol::new(80, 100, 3600).unwrap();
        assert_eq!(f.time_for(100), Some(3600));
        assert_eq!(f.time_for(80), Some(4500));
        assert_eq!(f.t_max(), 4500);
        // Constant work at both ends: 100 × 3600 = 80 × 4500.
        assert_eq!(100 * 3600, 80 * f.t_max());
        // Outside R^min..=R^max there is no shape.
        assert_eq!(f.time_for(79), None);
        assert_eq!(f.time_for(101), None);
        assert_eq!(f.time_for(0), None);
    }

    /// Our closed form agrees with Table 1's `k − c·R` evaluated in reals.
    #[test]
    fn matches_table_1_formulas() {
        for r_max in 1..=160u32 {
            for t_min in [1i64, 7, 60, 61, 3599, 86_400] {
                let f = LinearFmol::table1(r_max, t_min).unwrap();
                let (r_min, r_maxf, tmin) = (f.r_min() as f64, r_max as f64, t_min as f64);
                let t_max = tmin * r_maxf / r_min;
                let c = if f.r_min() == r_max {
                    0.0
                } else {
                    (t_max - tmin) / (r_maxf - r_min)
                };
                let k = if f.r_min() == r_max {
                    tmin
                } else {
                    tmin + r_maxf * c
                };
                for r in f.r_min()..=r_max {
                    let exact = k - c * r as f64;
                    let ours = f.time_for(r).unwrap() as f64;
                    assert!(
                        ours >= exact - 1e-6 && ours < exact + 1.0 - 1e-9,
                        "r_max {r_max} t_min {t_min} R {r}: ours {ours}, table 1 {exact}"
                    );
                }
            }
        }
    }

    #[test]
    fn fewer_processors_never_take_less_time() {
        let f = LinearFmol::table1(128, 5000).unwrap();
        let times: Vec<i64> = (f.r_min()..=f.r_max())
            .map(|r| f.time_for(r).unwrap())
            .collect();
        assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
        // And molding never saves work (the line lies above the hyperbola).
        let work = |r: u32| i64::from(r) * f.time_for(r).unwrap();
        assert!((f.r_min()..=f.r_max()).all(|r| work(r) >= work(f.r_max())));
    }

    #[test]
    fn table1_r_min_rule() {
        let check =
            |r_max: u32, r_min: u32| assert_eq!(table1_r_min(r_max), r_min, "R^max {r_max}");
        check(1, 1);
        check(8, 8);
        check(10, 10);
        check(11, 9); // 8.8 rounds up
        check(16, 13); // 12.8
        check(20, 16); // exactly 80%
        check(128, 103); // 102.4
        assert_eq!(r_min_share(128, 50, 10), 64);
        assert_eq!(r_min_share(128, 0, 10), 1);
        assert_eq!(r_min_share(12, 80, 16), 12);
        assert_eq!(r_min_share(12, 100, 0), 12);
    }

    #[test]
    fn rigid_when_r_min_equals_r_max() {
        let f = LinearFmol::table1(8, 600).unwrap();
        assert_eq!(
            (f.r_min(), f.r_max(), f.t_min(), f.t_max()),
            (8, 8, 600, 600)
        );
        assert_eq!(f.time_for(7), None);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert_eq!(
            LinearFmol::new(0, 4, 10),
            Err(ReqError::ProcessorRange { r_min: 0, r_max: 4 })
        );
        assert_eq!(
            LinearFmol::new(5, 4, 10),
            Err(ReqError::ProcessorRange { r_min: 5, r_max: 4 })
        );
        let err = LinearFmol::new(2, 4, 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "T^min is 0 s, expected a positive number of seconds"
        );
    }

    #[test]
    fn huge_inputs_are_refused_and_the_largest_accepted_saturate() {
        assert_eq!(
            LinearFmol::new(1, u32::MAX, 1),
            Err(ReqError::TooManyProcessors {
                r_max: u32::MAX,
                max: MAX_PROCESSORS
            })
        );
        assert_eq!(
            LinearFmol::new(1, 2, i64::MAX),
            Err(ReqError::TooLong {
                name: "T^min",
                value: i64::MAX
            })
        );
        // At the largest accepted values T^max = T^min·R^max/R^min is far
        // past 2^40 s (still inside i64); `Req::new` refuses that shape.
        let f = LinearFmol::new(1, MAX_PROCESSORS, MAX_DURATION).unwrap();
        assert_eq!(f.time_for(MAX_PROCESSORS), Some(MAX_DURATION));
        assert_eq!(f.t_max(), MAX_DURATION * i64::from(MAX_PROCESSORS));
    }
}
