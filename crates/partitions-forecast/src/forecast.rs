//! The load forecast: a weighted exponential moving average over a window.

use std::collections::VecDeque;

use crate::error::ForecastError;

/// A load forecast by weighted exponential moving average over the last
/// `window` intervals (Assunção & Buyya §5.1, after Hanke & Reitsch; the
/// paper uses a window of 25 intervals).
///
/// With the observations `x_0` (newest) to `x_{n-1}` (oldest, `n <= window`)
/// and smoothing factor `a`, the forecast for the next interval is
///
/// `Σ w_i·x_i / Σ w_i` with `w_i = (1 − a)^i`,
///
/// so the newest interval weighs most and anything older than the window
/// weighs nothing. The paper does not give `a`; [`LoadForecast::new`] uses the
/// usual `a = 2/(window + 1)` (docs/DESIGN-CHOICES.md), and
/// [`LoadForecast::with_smoothing`] takes any `a` in `(0, 1]`.
///
/// Memory is bounded by the window, not by the length of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadForecast {
    window: usize,
    smoothing: f64,
    /// Newest first.
    history: VecDeque<f64>,
    observed: u64,
}

impl LoadForecast {
    /// The paper's window: 25 intervals.
    pub const PAPER_WINDOW: usize = 25;

    /// A forecast over `window` intervals with smoothing `2/(window + 1)`.
    pub fn new(window: usize) -> Result<LoadForecast, ForecastError> {
        LoadForecast::with_smoothing(window, 2.0 / (window as f64 + 1.0))
    }

    /// A forecast over `window` intervals with smoothing factor `a` in `(0, 1]`
    /// (`a = 1` forecasts the last observation).
    pub fn with_smoothing(window: usize, smoothing: f64) -> Result<LoadForecast, ForecastError> {
        if window == 0 {
            return Err(ForecastError::Window { value: window });
        }
        if !(smoothing > 0.0 && smoothing <= 1.0) {
            return Err(ForecastError::Smoothing { value: smoothing });
        }
        Ok(LoadForecast {
            window,
            smoothing,
            // Grown as loads are observed: memory follows the observations,
            // up to the window, whatever window is asked for.
            history: VecDeque::new(),
            observed: 0,
        })
    }

    /// The window length in intervals.
    pub fn window(&self) -> usize {
        self.window
    }

    /// The smoothing factor `a`.
    pub fn smoothing(&self) -> f64 {
        self.smoothing
    }

    /// Number of observations currently in the window.
    pub fn len(&self) -> usize {
        self.history.len()
    }

    /// Whether nothing has been observed yet.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// Records the load of the interval just ended (for instance the share
    /// of processors busy, or processor-seconds demanded). The oldest
    /// observation leaves the window when it is full.
    pub fn observe(&mut self, load: f64) -> Result<(), ForecastError> {
        if !(load.is_finite() && load >= 0.0) {
            return Err(ForecastError::Load {
                interval: self.observed,
                value: load,
            });
        }
        if self.history.len() == self.window {
            self.history.pop_back();
        }
        self.history.push_front(load);
        self.observed += 1;
        Ok(())
    }

    /// The forecast load of the next interval; `None` before any observation.
    /// It lies between the smallest and the largest load in the window, so
    /// it is finite for every load [`observe`](Self::observe) accepts (a sum
    /// of large loads that would overflow is computed scaled).
    pub fn forecast(&self) -> Option<f64> {
        if self.history.is_empty() {
            return None;
        }
        let mean = self.weighted_mean(1.0);
        if mean.is_finite() {
            return Some(mean);
        }
        // The weighted sum of large (finite) loads overflowed: the mean of
        // the loads scaled by the largest is at most 1, so the mean itself
        // is at most the largest load, finite.
        let largest = self.history.iter().copied().fold(0.0, f64::max);
        Some(largest * self.weighted_mean(largest))
    }

    /// `Σ w_i·(x_i / scale) / Σ w_i` over the window (see the type's docs).
    fn weighted_mean(&self, scale: f64) -> f64 {
        let keep = 1.0 - self.smoothing;
        let (mut weight, mut sum, mut total) = (1.0, 0.0, 0.0);
        for &x in &self.history {
            sum += weight * (x / scale);
            total += weight;
            weight *= keep;
        }
        sum / total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed() {
        // a = 0.5: weights 1, 1/2, 1/4 for the newest three.
        let mut f = LoadForecast::with_smoothing(3, 0.5).unwrap();
        assert_eq!(f.forecast(), None);
        f.observe(1.0).unwrap();
        assert_eq!(f.forecast(), Some(1.0));
        f.observe(2.0).unwrap();
        f.observe(4.0).unwrap();
        // (4 + 2/2 + 1/4) / (1 + 1/2 + 1/4) = 5.25 / 1.75
        assert_eq!(f.forecast(), Some(3.0));
        // The 1 leaves the window: (8 + 4/2 + 2/4) / 1.75
        f.observe(8.0).unwrap();
        assert_eq!(f.len(), 3);
        assert_eq!(f.forecast(), Some(6.0));
    }

    #[test]
    fn paper_window_and_default_smoothing() {
        let f = LoadForecast::new(LoadForecast::PAPER_WINDOW).unwrap();
        assert_eq!(f.window(), 25);
        assert!((f.smoothing() - 2.0 / 26.0).abs() < 1e-15);
    }

    #[test]
    fn constant_load_forecasts_itself_and_memory_stays_bounded() {
        let mut f = LoadForecast::new(25).unwrap();
        for _ in 0..1000 {
            f.observe(0.7).unwrap();
        }
        assert_eq!(f.len(), 25);
        assert!((f.forecast().unwrap() - 0.7).abs() < 1e-12);
    }

    #[test]
    fn forecast_stays_within_the_window_and_follows_the_newest() {
        let mut f = LoadForecast::new(5).unwrap();
        let loads = [0.1, 0.9, 0.3, 0.5, 0.2, 0.8, 0.4, 1.0, 0.0, 0.6];
        for (i, &x) in loads.iter().enumerate() {
            f.observe(x).unwrap();
            let window = &loads[i.saturating_sub(4)..=i];
            let lo = window.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = window.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let got = f.forecast().unwrap();
            assert!(
                lo - 1e-12 <= got && got <= hi + 1e-12,
                "step {i}: {got} outside [{lo}, {hi}]"
            );
        }
        // A step up: the forecast moves more than halfway towards the newest
        // value, because the newest weighs most.
        let mut f = LoadForecast::new(5).unwrap();
        for x in [0.0, 0.0, 0.0, 0.0, 1.0] {
            f.observe(x).unwrap();
        }
        assert!(
            f.forecast().unwrap() > 1.0 / 5.0,
            "more than the plain mean"
        );
    }

    #[test]
    fn smoothing_one_forecasts_the_last_observation() {
        let mut f = LoadForecast::with_smoothing(25, 1.0).unwrap();
        for x in [0.2, 0.9, 0.4] {
            f.observe(x).unwrap();
        }
        assert_eq!(f.forecast(), Some(0.4));
    }

    /// Every finite load is accepted, so the forecast of the largest ones
    /// is finite too: their weighted sum would overflow, the mean does not.
    #[test]
    fn the_largest_loads_forecast_a_finite_load() {
        for (window, a) in [(25, 2.0 / 26.0), (25, 1.0), (1000, 1e-9)] {
            let mut f = LoadForecast::with_smoothing(window, a).unwrap();
            for _ in 0..window {
                f.observe(1e308).unwrap();
            }
            let got = f.forecast().unwrap();
            assert!((got - 1e308).abs() <= 1e308 * 1e-12, "{window}, {a}: {got}");
            f.observe(f64::MAX).unwrap();
            f.observe(0.0).unwrap();
            let got = f.forecast().unwrap();
            assert!(got.is_finite() && (0.0..=f64::MAX).contains(&got), "{got}");
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(
            LoadForecast::new(0),
            Err(ForecastError::Window { value: 0 })
        );
        for a in [0.0, -0.1, 1.5, f64::NAN] {
            assert!(LoadForecast::with_smoothing(3, a).is_err(), "{a}");
        }
        let mut f = LoadForecast::new(3).unwrap();
        f.observe(0.5).unwrap();
        let err = f.observe(f64::NAN).unwrap_err();
        assert_eq!(
            err.to_string(),
            "load of interval 1 is NaN, expected a finite number >= 0"
        );
        assert!(f.observe(-1.0).is_err());
        assert_eq!(f.len(), 1, "rejected loads are not recorded");
    }
}
