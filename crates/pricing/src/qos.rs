//! The paper's QoS workload model and its two user-centric metrics.
//!
//! Traces record no deadlines or budgets, so §VII-B (after Irwin et al.)
//! draws them per job from two urgency classes: a *high urgency* job has a
//! low `D_i/R_i` and a high `B_i/f(R_i)`, a *low urgency* job the reverse.
//! Within a class each factor is normally distributed; the *high:low ratio*
//! is the ratio of the class means. [`UrgencyModel`] draws the classes and
//! factors; [`QosDraw::constraints`] turns them into `D_i` and `B_i`.
//!
//! [`Metrics`] computes Job QoS Satisfaction (eq. 7) and Cluster
//! Profitability (eq. 8).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use crate::cluster::JobOutcome;
use crate::error::{PricingError, factor, finite};
use crate::spec::QoSConstraints;

/// A job's urgency class.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Urgency {
    /// Short deadline, large budget.
    High,
    /// Long deadline, small budget.
    Low,
}

/// The two-class QoS model of §VII-B and Table I.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct UrgencyModel {
    /// Fraction of high-urgency jobs, in `[0, 1]`; exactly
    /// `round(fraction · n)` of `n` jobs are high urgency, in random order.
    pub high_fraction: f64,
    /// Mean of the low `D_i/R_i` value (the high-urgency class).
    pub deadline_low_mean: f64,
    /// Ratio of the high `D_i/R_i` mean (low-urgency class) to the low one.
    pub deadline_ratio: f64,
    /// Mean of the low `B_i/f(R_i)` value (the low-urgency class).
    pub budget_low_mean: f64,
    /// Ratio of the high `B_i/f(R_i)` mean (high-urgency class) to the low one.
    pub budget_ratio: f64,
    /// Standard deviation of a factor as a fraction of its class mean (the
    /// paper does not give it). Draws are conditioned on a positive factor.
    pub spread: f64,
}

impl UrgencyModel {
    /// Table I: 20 % high urgency, low means 2, high:low ratios 4, with a
    /// spread (coefficient of variation) of 0.25, our choice.
    pub const TABLE_I: UrgencyModel = UrgencyModel {
        high_fraction: 0.2,
        deadline_low_mean: 2.0,
        deadline_ratio: 4.0,
        budget_low_mean: 2.0,
        budget_ratio: 4.0,
        spread: 0.25,
    };

    fn check(&self) -> Result<(), PricingError> {
        let f = factor("high-urgency fraction", self.high_fraction)?;
        if f > 1.0 {
            return Err(PricingError::InvalidFactor {
                name: "high-urgency fraction (at most 1)",
                value: f,
            });
        }
        factor("deadline low mean", self.deadline_low_mean)?;
        factor("deadline high:low ratio", self.deadline_ratio)?;
        factor("budget low mean", self.budget_low_mean)?;
        factor("budget high:low ratio", self.budget_ratio)?;
        factor("spread", self.spread)?;
        Ok(())
    }

    /// The class means `(D_i/R_i, B_i/f(R_i))` of `urgency`: finite.
    ///
    /// # Errors
    ///
    /// [`PricingError::InvalidFactor`] for a field that is negative,
    /// infinite or NaN (or a high-urgency fraction above 1), and
    /// [`PricingError::NotFinite`] naming the ratio whose product with the
    /// low mean overflows.
    pub fn means(&self, urgency: Urgency) -> Result<(f64, f64), PricingError> {
        self.check()?;
        let (d, b) = self.class_means(urgency);
        finite(
            "deadline class mean",
            "deadline high:low ratio",
            self.deadline_ratio,
            d,
        )?;
        finite(
            "budget class mean",
            "budget high:low ratio",
            self.budget_ratio,
            b,
        )?;
        Ok((d, b))
    }

    /// [`UrgencyModel::means`] of a checked model, unchecked.
    fn class_means(&self, urgency: Urgency) -> (f64, f64) {
        match urgency {
            Urgency::High => (
                self.deadline_low_mean,
                self.budget_low_mean * self.budget_ratio,
            ),
            Urgency::Low => (
                self.deadline_low_mean * self.deadline_ratio,
                self.budget_low_mean,
            ),
        }
    }

    /// Draws the class and factors of `n` jobs from `seed`.
    ///
    /// Three independent ChaCha8 streams of the seed feed the class order,
    /// the deadline factors and the budget factors, so the draws are common
    /// random numbers across settings: with the same seed, a job's
    /// standardised factors do not depend on the fraction or the means, and
    /// the high-urgency jobs at a fraction include those at any smaller one.
    ///
    /// Errors: a field or class mean [`UrgencyModel::means`] refuses, a count
    /// `n` whose draws do not fit in memory ([`PricingError::InvalidAmount`]
    /// naming `jobs to draw`), and [`PricingError::NotFinite`] naming `spread`
    /// when a drawn factor overflows: every factor returned is finite.
    ///
    /// ```
    /// use pricing::{Urgency, UrgencyModel};
    /// let draws = UrgencyModel::TABLE_I.draw(1000, 7)?;
    /// let high = draws.iter().filter(|d| d.urgency == Urgency::High).count();
    /// assert_eq!(high, 200);
    /// assert!(draws.iter().all(|d| d.deadline_factor > 0.0 && d.budget_factor > 0.0));
    /// # Ok::<(), pricing::PricingError>(())
    /// ```
    pub fn draw(&self, n: usize, seed: u64) -> Result<Vec<QosDraw>, PricingError> {
        // The model, and both classes' means finite (`means` checks both).
        self.means(Urgency::High)?;
        self.means(Urgency::Low)?;
        // Room for every draw first: a count no memory holds is an error,
        // not an abort half-way.
        let too_many = || PricingError::InvalidAmount {
            name: "jobs to draw",
            value: i64::try_from(n).unwrap_or(i64::MAX),
            expected: "a count whose draws fit in memory",
        };
        let mut keys: Vec<f64> = Vec::new();
        let mut ranked: Vec<usize> = Vec::new();
        let mut out: Vec<QosDraw> = Vec::new();
        keys.try_reserve_exact(n).map_err(|_| too_many())?;
        ranked.try_reserve_exact(n).map_err(|_| too_many())?;
        out.try_reserve_exact(n).map_err(|_| too_many())?;
        let stream = |k: u64| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(k);
            rng
        };
        let mut order = stream(0);
        keys.extend((0..n).map(|_| order.random::<f64>()));
        ranked.extend(0..n);
        ranked.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]).then(a.cmp(&b)));
        let high = ((self.high_fraction * n as f64).round() as usize).min(n);
        let mut urgency = vec![Urgency::Low; n];
        for &i in &ranked[..high] {
            urgency[i] = Urgency::High;
        }
        // Standard normal draws conditioned on `1 + spread · z > 0`.
        let spread = self.spread;
        let positive = |rng: &mut ChaCha8Rng| loop {
            let z: f64 = rng.sample(StandardNormal);
            if 1.0 + spread * z > 0.0 {
                return 1.0 + spread * z;
            }
        };
        let (mut deadlines, mut budgets) = (stream(1), stream(2));
        out.extend(urgency.into_iter().map(|u| {
            let (d, b) = self.class_means(u);
            QosDraw {
                urgency: u,
                deadline_factor: d * positive(&mut deadlines),
                budget_factor: b * positive(&mut budgets),
            }
        }));
        // A factor is its class mean times `1 + spread · z`: a huge spread
        // (or a mean near `f64::MAX`) overflows it. Checked after the draws;
        // a spread of 0 always gives the finite means.
        for d in &out {
            finite(
                "a drawn deadline factor",
                "spread",
                self.spread,
                d.deadline_factor,
            )?;
            finite(
                "a drawn budget factor",
                "spread",
                self.spread,
                d.budget_factor,
            )?;
        }
        Ok(out)
    }
}

/// One job's draw from the [`UrgencyModel`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QosDraw {
    /// The class.
    pub urgency: Urgency,
    /// `D_i / R_i`.
    pub deadline_factor: f64,
    /// `B_i / f(R_i)`.
    pub budget_factor: f64,
}

impl QosDraw {
    /// The constraints of a job that really runs `run_time` seconds:
    /// `D_i = max(1, round(deadline_factor · R_i))` and
    /// `B_i = budget_factor · f(R_i)` with `f(R_i) = R_i · PBase`, the cost
    /// of the job's run time at the base price (our reading of `f`). A run
    /// time below one second counts as one.
    ///
    /// ```
    /// use pricing::{QosDraw, Urgency};
    /// let d = QosDraw { urgency: Urgency::Low, deadline_factor: 8.0, budget_factor: 2.0 };
    /// let c = d.constraints(3600, 1.0);
    /// assert_eq!((c.deadline, c.budget), (28_800, 7200.0));
    /// ```
    pub fn constraints(&self, run_time: i64, base_price: f64) -> QoSConstraints {
        let r = run_time.max(1) as f64;
        QoSConstraints {
            deadline: ((self.deadline_factor * r).round() as i64).max(1),
            budget: self.budget_factor * r * base_price,
        }
    }
}

/// The paper's user-centric metrics over a set of submitted jobs.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    /// `n`: jobs submitted.
    pub submitted: usize,
    /// `n_accept`: jobs accepted by the admission control.
    pub accepted: usize,
    /// `n_QoS`: accepted jobs that met their deadline and budget.
    pub qos_met: usize,
    /// `Σ C_i` over the `n_QoS` jobs.
    pub earned: f64,
    /// `Σ B_i` over all submitted jobs.
    pub budgets: f64,
}

impl Metrics {
    /// Counts one submitted job with budget `budget`; `accepted` says whether
    /// it was admitted and `qos_cost` is `Some(C_i)` if it met its QoS.
    pub fn record(&mut self, budget: f64, accepted: bool, qos_cost: Option<f64>) {
        self.submitted += 1;
        self.budgets += budget;
        self.accepted += usize::from(accepted);
        if let Some(c) = qos_cost {
            self.qos_met += 1;
            self.earned += c;
        }
    }

    /// The metrics of a time-shared run.
    pub fn of(outcomes: &[JobOutcome]) -> Metrics {
        let mut m = Metrics::default();
        for o in outcomes {
            let cost = o.cost().filter(|_| o.met_qos());
            m.record(o.budget, o.cost().is_some(), cost);
        }
        m
    }

    /// Job QoS Satisfaction, `n_QoS / n` (eq. 7), in `[0, 1]`; 0 without jobs.
    pub fn qos_satisfaction(&self) -> f64 {
        if self.submitted == 0 {
            0.0
        } else {
            self.qos_met as f64 / self.submitted as f64
        }
    }

    /// Cluster Profitability, `Σ C_i / Σ B_i` (eq. 8); 0 without budgets.
    ///
    /// # Errors
    ///
    /// [`PricingError::InvalidFactor`] (named `earned` or `budgets`) for a
    /// sum that is negative, infinite or NaN, as a sum of huge budgets or
    /// costs overflows to, and [`PricingError::NotFinite`] for a ratio that
    /// overflows (a tiny `budgets`): the result is always finite.
    pub fn profitability(&self) -> Result<f64, PricingError> {
        let earned = factor("earned", self.earned)?;
        let budgets = factor("budgets", self.budgets)?;
        if budgets > 0.0 {
            finite("profitability", "budgets", budgets, earned / budgets)
        } else {
            Ok(0.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_means_follow_table_i() {
        let m = UrgencyModel::TABLE_I;
        assert_eq!(m.means(Urgency::High), Ok((2.0, 8.0)));
        assert_eq!(m.means(Urgency::Low), Ok((8.0, 2.0)));
    }

    #[test]
    fn draws_are_reproducible_and_nested() {
        let m = UrgencyModel::TABLE_I;
        assert_eq!(m.draw(500, 3).unwrap(), m.draw(500, 3).unwrap());
        assert_ne!(m.draw(500, 3).unwrap(), m.draw(500, 4).unwrap());
        let at = |f: f64| {
            UrgencyModel {
                high_fraction: f,
                ..m
            }
            .draw(500, 3)
            .unwrap()
        };
        let (low, high) = (at(0.2), at(0.6));
        for (a, b) in low.iter().zip(&high) {
            if a.urgency == Urgency::High {
                assert_eq!(b.urgency, Urgency::High);
                assert_eq!(a, b);
            }
        }
        assert!(at(0.0).iter().all(|d| d.urgency == Urgency::Low));
        assert!(at(1.0).iter().all(|d| d.urgency == Urgency::High));
    }

    #[test]
    fn sample_means_are_near_the_class_means() {
        let draws = UrgencyModel::TABLE_I.draw(20_000, 11).unwrap();
        let mean = |u: Urgency, f: fn(&QosDraw) -> f64| {
            let v: Vec<f64> = draws.iter().filter(|d| d.urgency == u).map(f).collect();
            v.iter().sum::<f64>() / v.len() as f64
        };
        let close = |a: f64, b: f64| (a - b).abs() < 0.02 * b;
        assert!(close(mean(Urgency::High, |d| d.deadline_factor), 2.0));
        assert!(close(mean(Urgency::High, |d| d.budget_factor), 8.0));
        assert!(close(mean(Urgency::Low, |d| d.deadline_factor), 8.0));
        assert!(close(mean(Urgency::Low, |d| d.budget_factor), 2.0));
    }

    #[test]
    fn invalid_models_are_errors() {
        let bad = UrgencyModel {
            high_fraction: 1.5,
            ..UrgencyModel::TABLE_I
        };
        assert!(bad.draw(10, 1).is_err());
        let bad = UrgencyModel {
            spread: -0.1,
            ..UrgencyModel::TABLE_I
        };
        assert!(bad.draw(10, 1).is_err());
    }

    #[test]
    fn metrics_are_eq_7_and_8() {
        let mut m = Metrics::default();
        m.record(100.0, true, Some(60.0));
        m.record(100.0, true, None);
        m.record(200.0, false, None);
        assert_eq!(m.qos_satisfaction(), 1.0 / 3.0);
        assert_eq!(m.profitability(), Ok(60.0 / 400.0));
        assert_eq!(m.accepted, 2);
        assert_eq!(Metrics::default().profitability(), Ok(0.0));
        assert_eq!(Metrics::default().qos_satisfaction(), 0.0);
    }
}
