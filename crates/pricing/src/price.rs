//! The pricing functions: Libra's static cost, the Libra+$ pricing rate
//! (eq. 3 to 6 of Yeo & Buyya), a flat base price, and the trait over them.

use crate::context::JobContext;
use crate::error::{PricingError, amount, factor, finite};

/// Demand for one resource on one node over a job's window `[AT_i, DT_i]`
/// (arrival to deadline), in whole units of that resource.
///
/// For processor time (eq. 6) the units are seconds of processor time:
/// `res_max` is what the node can deliver in the window, `committed` the
/// run-time estimates of the accepted jobs running there in the window, and
/// `requested` the job's own run-time estimate `RE_i`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Demand {
    /// `RESMax_j`: units the node offers over the window.
    pub res_max: i64,
    /// `Σ RES_k`: units committed to accepted jobs over the window.
    pub committed: i64,
    /// `RES_i`: units the job asks for.
    pub requested: i64,
}

impl Demand {
    /// `RESFree_ij = RESMax_j − Σ RES_k − RES_i` (eq. 5; eq. 6 for processor
    /// time). May be zero or negative: then the node cannot take the job.
    pub fn res_free(&self) -> i64 {
        self.res_max
            .saturating_sub(self.committed)
            .saturating_sub(self.requested)
    }

    fn check(&self) -> Result<i64, PricingError> {
        amount("RESMax", self.res_max, 1, "a positive number of units")?;
        amount(
            "committed units",
            self.committed,
            0,
            "a number of units >= 0",
        )?;
        amount(
            "requested units",
            self.requested,
            0,
            "a number of units >= 0",
        )?;
        let free = self.res_free();
        if free <= 0 {
            return Err(PricingError::NoFreeCapacity {
                res_max: self.res_max,
                committed: self.committed,
                requested: self.requested,
            });
        }
        Ok(free)
    }
}

/// Libra's static cost `C_i = γ·RE_i + δ·RE_i / D_i` (Sherwani et al., as
/// restated by Yeo & Buyya §VII-B): longer jobs pay more, and a more relaxed
/// deadline pays less, whatever the cluster's load.
///
/// `runtime_estimate` (`RE_i`) and `deadline` (`D_i`, the time allowed from
/// arrival) are in seconds; the paper's experiments use `γ = δ = 1`.
///
/// ```
/// // A one-hour job with a two-hour deadline: 3600 + 3600/7200.
/// assert_eq!(pricing::libra_static_cost(1.0, 1.0, 3600, 7200)?, 3600.5);
/// # Ok::<(), pricing::PricingError>(())
/// ```
pub fn libra_static_cost(
    gamma: f64,
    delta: f64,
    runtime_estimate: i64,
    deadline: i64,
) -> Result<f64, PricingError> {
    let gamma = factor("γ", gamma)?;
    let delta = factor("δ", delta)?;
    let re = amount(
        "runtime estimate",
        runtime_estimate,
        0,
        "a number of seconds >= 0",
    )? as f64;
    let d = amount("deadline", deadline, 1, "a positive number of seconds")? as f64;
    let cost = gamma * re + delta * re / d;
    let (field, given) = if (gamma * re).is_finite() {
        ("δ", delta)
    } else {
        ("γ", gamma)
    };
    finite("Libra's static cost", field, given, cost)
}

/// The utilisation pricing rate `PUtil_ij = RESMax_j / RESFree_ij · PBase_j`
/// (eq. 4): the scarcer the resource over the job's window, the dearer.
///
/// Fails with [`PricingError::NoFreeCapacity`] when `RESFree <= 0`: the
/// paper's admission control checks capacity before pricing, so a price is
/// only defined for a node that can take the job.
pub fn utilisation_rate(base_price: f64, demand: Demand) -> Result<f64, PricingError> {
    let base = factor("PBase", base_price)?;
    let free = demand.check()?;
    finite(
        "PUtil",
        "PBase",
        base,
        demand.res_max as f64 / free as f64 * base,
    )
}

/// The Libra+$ pricing rate per unit of resource,
/// `P_ij = α·PBase_j + β·PUtil_ij` (eq. 3), with `PUtil_ij` from
/// [`utilisation_rate`]. The paper's defaults are `α = 1`, `β = 0.1`.
pub fn libra_dollar_rate(
    alpha: f64,
    beta: f64,
    base_price: f64,
    demand: Demand,
) -> Result<f64, PricingError> {
    let alpha = factor("α", alpha)?;
    let beta = factor("β", beta)?;
    let base = factor("PBase", base_price)?;
    let rate = alpha * base + beta * utilisation_rate(base, demand)?;
    let (field, given) = if (alpha * base).is_finite() {
        ("β", beta)
    } else {
        ("α", alpha)
    };
    finite("P_ij", field, given, rate)
}

/// What a pricing function needs to quote job `i` on node `j` for processor
/// time, the single resource of the paper's experiments (eq. 6).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Quote {
    /// `RE_i`: the job's run-time estimate on this node, in seconds.
    pub runtime_estimate: i64,
    /// `D_i`: seconds from the job's arrival to its deadline.
    pub deadline: i64,
    /// `PBase_j`: the node's base price per second of processor time.
    pub base_price: f64,
    /// `RESMax_j`: seconds of processor time the node offers over the window
    /// (for one dedicated processor: `D_i`).
    pub res_max: i64,
    /// `Σ RE_k`: seconds already committed to accepted jobs in the window.
    pub committed: i64,
}

impl Quote {
    /// The demand this quote puts on the node: the job asks for `RE_i` units.
    pub fn demand(&self) -> Demand {
        Demand {
            res_max: self.res_max,
            committed: self.committed,
            requested: self.runtime_estimate,
        }
    }
}

/// A pricing function: the cost `C_ij` of running a job on a node, the
/// amount Algorithm 1 compares with the job's budget.
///
/// It sees the job ([`JobContext`]: identifier, arrival, the whole
/// specification) and the node's [`Quote`] for it. The implementations here
/// read the quote alone; they return a finite cost or an error
/// ([`PricingError::NotFinite`] when the inputs are finite but too large
/// for the arithmetic). [`admit`](crate::admit) refuses a non-finite or
/// negative cost from any implementation ([`PricingError::NonFiniteCost`],
/// [`PricingError::NegativeCost`]).
///
/// A price of your own, say a surcharge on wide jobs:
///
/// ```
/// use pricing::{JobContext, JobSpec, LibraDollar, PriceFunction, PricingError, Quote};
/// use profile::Time;
///
/// struct WideSurcharge(LibraDollar);
///
/// impl PriceFunction for WideSurcharge {
///     fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
///         let base = self.0.cost(job, quote)?;
///         Ok(if job.processors() > 8 { 1.5 * base } else { base })
///     }
/// }
///
/// let quote = Quote { runtime_estimate: 10, deadline: 7200, base_price: 1.0, res_max: 200, committed: 90 };
/// let price = WideSurcharge(LibraDollar { alpha: 1.0, beta: 0.1 });
/// let narrow = JobSpec::new(10, 2, 7200, 100.0);
/// let wide = JobSpec::new(10, 16, 7200, 100.0);
/// assert_eq!(price.cost(&JobContext::new(1, Time(0), &narrow), &quote)?, 12.0);
/// assert_eq!(price.cost(&JobContext::new(2, Time(0), &wide), &quote)?, 18.0);
/// # Ok::<(), PricingError>(())
/// ```
pub trait PriceFunction {
    /// The cost of `job` on the quoted node: a finite number, or an error
    /// naming the input that prevents one.
    fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError>;
}

impl<P: PriceFunction + ?Sized> PriceFunction for &P {
    fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        (**self).cost(job, quote)
    }
}

impl<P: PriceFunction + ?Sized> PriceFunction for Box<P> {
    fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        (**self).cost(job, quote)
    }
}

/// A flat price: `C = RE_i · PBase_j`. This is how the paper charges the
/// backfilling baselines (FCFS-BF, SJF-BF, EDF-BF) when a deadline is met.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Flat;

impl PriceFunction for Flat {
    fn cost(&self, _job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        let re = amount(
            "runtime estimate",
            quote.runtime_estimate,
            0,
            "a number of seconds >= 0",
        )?;
        let base = factor("PBase", quote.base_price)?;
        finite("cost", "PBase", base, re as f64 * base)
    }
}

/// Libra's static cost, see [`libra_static_cost`]. The base price and the
/// node's load play no part in it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LibraStatic {
    /// `γ`: weight of the run-time component.
    pub gamma: f64,
    /// `δ`: weight of the deadline incentive `RE/D`.
    pub delta: f64,
}

impl PriceFunction for LibraStatic {
    fn cost(&self, _job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        libra_static_cost(
            self.gamma,
            self.delta,
            quote.runtime_estimate,
            quote.deadline,
        )
    }
}

/// Libra+$: `C_ij = RE_i · P_ij` with `P_ij` from [`libra_dollar_rate`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LibraDollar {
    /// `α`: weight of the static component.
    pub alpha: f64,
    /// `β`: weight of the dynamic (utilisation) component.
    pub beta: f64,
}

impl PriceFunction for LibraDollar {
    fn cost(&self, _job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        let rate = libra_dollar_rate(self.alpha, self.beta, quote.base_price, quote.demand())?;
        finite(
            "cost",
            "PBase",
            quote.base_price,
            quote.runtime_estimate as f64 * rate,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demand(res_max: i64, committed: i64, requested: i64) -> Demand {
        Demand {
            res_max,
            committed,
            requested,
        }
    }

    /// Yeo & Buyya §V-B: 100 free units per hour, 90 committed, the job
    /// asks for 10, base price $1: $2 per unit for a 2-hour deadline and
    /// $1.25 per unit for a 5-hour deadline.
    #[test]
    fn paper_worked_example() {
        assert_eq!(utilisation_rate(1.0, demand(200, 90, 10)), Ok(2.0));
        assert_eq!(utilisation_rate(1.0, demand(500, 90, 10)), Ok(1.25));
        // Folded into eq. 3 with the paper's α = 1, β = 0.1.
        assert_eq!(
            libra_dollar_rate(1.0, 0.1, 1.0, demand(200, 90, 10)),
            Ok(1.2)
        );
        assert_eq!(
            libra_dollar_rate(1.0, 0.1, 1.0, demand(500, 90, 10)),
            Ok(1.125)
        );
    }

    #[test]
    fn res_free_is_eq_5() {
        assert_eq!(demand(200, 90, 10).res_free(), 100);
        assert_eq!(demand(100, 90, 10).res_free(), 0);
        assert_eq!(demand(100, 95, 10).res_free(), -5);
    }

    #[test]
    fn rate_rises_with_committed_load() {
        let rates: Vec<f64> = (0..100)
            .map(|committed| libra_dollar_rate(1.0, 0.1, 1.0, demand(200, committed, 10)).unwrap())
            .collect();
        assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
    }

    #[test]
    fn rate_falls_with_a_longer_deadline_for_the_same_work() {
        // One processor: RESMax grows with the deadline, the work stays put.
        let rates: Vec<f64> = (2..=24)
            .map(|hours| {
                libra_dollar_rate(1.0, 0.1, 1.0, demand(hours * 3600, 1800, 1800)).unwrap()
            })
            .collect();
        assert!(rates.windows(2).all(|w| w[0] > w[1]), "{rates:?}");
        // And it never drops below the static part α·PBase.
        assert!(rates.iter().all(|&r| r > 1.0));
    }

    #[test]
    fn no_price_without_free_capacity() {
        for d in [demand(100, 90, 10), demand(100, 95, 10)] {
            let err = utilisation_rate(1.0, d).unwrap_err();
            assert_eq!(
                err,
                PricingError::NoFreeCapacity {
                    res_max: 100,
                    committed: d.committed,
                    requested: 10
                }
            );
            assert!(
                err.to_string().starts_with("no free capacity: RESMax 100"),
                "{err}"
            );
        }
    }

    #[test]
    fn invalid_inputs_are_errors_not_panics() {
        let d = demand(200, 90, 10);
        let check = |r: Result<f64, PricingError>, msg: &str| {
            assert_eq!(r.unwrap_err().to_string(), msg);
        };
        check(
            libra_dollar_rate(-1.0, 0.1, 1.0, d),
            "α is -1, expected a finite number >= 0",
        );
        check(
            libra_dollar_rate(1.0, f64::NAN, 1.0, d),
            "β is NaN, expected a finite number >= 0",
        );
        check(
            utilisation_rate(f64::INFINITY, d),
            "PBase is inf, expected a finite number >= 0",
        );
        check(
            utilisation_rate(1.0, demand(0, 0, 0)),
            "RESMax is 0, expected a positive number of units",
        );
        check(
            utilisation_rate(1.0, demand(10, -1, 0)),
            "committed units is -1, expected a number of units >= 0",
        );
        check(
            libra_static_cost(1.0, 1.0, 60, 0),
            "deadline is 0, expected a positive number of seconds",
        );
        check(
            libra_static_cost(1.0, 1.0, -5, 60),
            "runtime estimate is -5, expected a number of seconds >= 0",
        );
    }

    #[test]
    fn libra_static_cost_rewards_relaxed_deadlines() {
        let tight = libra_static_cost(1.0, 1.0, 3600, 3600).unwrap();
        let relaxed = libra_static_cost(1.0, 1.0, 3600, 4 * 3600).unwrap();
        assert_eq!(tight, 3601.0);
        assert_eq!(relaxed, 3600.25);
        // γ alone prices the run time; δ alone the deadline incentive.
        assert_eq!(libra_static_cost(2.0, 0.0, 100, 50).unwrap(), 200.0);
        assert_eq!(libra_static_cost(0.0, 3.0, 100, 50).unwrap(), 6.0);
    }

    #[test]
    fn the_trait_prices_processor_time() {
        let spec = crate::JobSpec::new(10, 1, 7200, 100.0);
        let job = JobContext::new(1, profile::Time(0), &spec);
        let quote = Quote {
            runtime_estimate: 10,
            deadline: 7200,
            base_price: 1.0,
            res_max: 200,
            committed: 90,
        };
        assert_eq!(Flat.cost(&job, &quote), Ok(10.0));
        assert_eq!(
            LibraStatic {
                gamma: 1.0,
                delta: 1.0
            }
            .cost(&job, &quote),
            Ok(10.0 + 10.0 / 7200.0)
        );
        // RE × P with P = 1 + 0.1 × 2 from the worked example.
        assert_eq!(
            LibraDollar {
                alpha: 1.0,
                beta: 0.1
            }
            .cost(&job, &quote),
            Ok(12.0)
        );
        // With β = 0 Libra+$ is the flat price.
        assert_eq!(
            LibraDollar {
                alpha: 1.0,
                beta: 0.0
            }
            .cost(&job, &quote),
            Flat.cost(&job, &quote)
        );
        let functions: [&dyn PriceFunction; 3] = [
            &Flat,
            &LibraStatic {
                gamma: 1.0,
                delta: 1.0,
            },
            &LibraDollar {
                alpha: 1.0,
                beta: 0.1,
            },
        ];
        assert!(
            functions
                .iter()
                .all(|f| f.cost(&job, &quote).unwrap() > 0.0)
        );
    }
}
