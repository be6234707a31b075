//! Axes: round ("nice") ticks, linear ranges fitted to the data, decade
//! ticks of log axes, and the [`Scale`] from data to pixels.

/// Padding of a fitted axis beyond the data, as a fraction of the data range.
const PAD: f64 = 0.05;
/// Padding on the value-label side of bars.
const LABEL_PAD: f64 = 0.09;

/// The narrowest range [`fit`] spreads, relative to its ends' magnitude:
/// round ticks closer than this do not stay distinct in an `f64`.
const RESOLUTION: f64 = 1e-12;

/// The most decimals a tick label shows (an `f64` holds about 17
/// significant digits).
const MAX_DECIMALS: usize = 17;

/// The smallest round step (1, 2 or 5 times a power of ten) that cuts
/// `range` into at most six intervals.
fn nice_step(range: f64) -> f64 {
    let raw = range / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag)
}

/// A linear axis fitted to data in `[lo, hi]`: the range plus `pad_lo` and
/// `pad_hi` (fractions of the range) on either side, widened to the next
/// round tick only when that tick is near (within 0.3 of a step) and on the
/// same side of zero as the data. Returns the axis ends and the round ticks
/// (three to seven) between them.
pub(super) fn fit(lo: f64, hi: f64, pad_lo: f64, pad_hi: f64) -> (f64, f64, Vec<f64>) {
    // A range too narrow for round ticks at this magnitude (two values a
    // few ulps apart: steps would round to nothing) is drawn as one value.
    let (lo, hi) = if hi > lo && hi - lo > RESOLUTION * lo.abs().max(hi.abs()) {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        let d = lo.abs() * 0.1;
        (lo - d, hi + d)
    };
    let span = hi - lo;
    let (mut d0, mut d1) = (lo - pad_lo * span, hi + pad_hi * span);
    let step = nice_step(d1 - d0);
    // The tolerance keeps 0.6 / 0.2 = 2.9999999999999996 from moving a tick.
    let below = (d0 / step + 1e-9).floor() * step;
    if d0 - below <= 0.3 * step && !(lo >= 0.0 && below < 0.0) {
        d0 = below;
    }
    let above = (d1 / step - 1e-9).ceil() * step;
    if above - d1 <= 0.3 * step && !(hi <= 0.0 && above > 0.0) {
        d1 = above;
    }
    let first = (d0 / step - 1e-9).ceil() as i64;
    let last = (d1 / step + 1e-9).floor() as i64;
    let ticks = (first..=last).map(|i| i as f64 * step).collect();
    (d0, d1, ticks)
}

/// Tick labels with as many decimals as the step needs, and k/M suffixes.
pub(super) fn tick_labels(ticks: &[f64]) -> Vec<String> {
    let max = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    let (div, suffix) = if max >= 1e6 {
        (1e6, "M")
    } else if max >= 1e4 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let step = if ticks.len() > 1 {
        (ticks[1] - ticks[0]) / div
    } else {
        1.0
    };
    // Ticks that are not distinct (or not finite) are shown as they are.
    let decimals = (step > 0.0 && step.is_finite())
        .then(|| ((-step.log10().floor()).max(0.0) as usize).min(MAX_DECIMALS));
    ticks
        .iter()
        .map(|t| match decimals {
            Some(_) if t.abs() < step * div * 1e-9 => "0".into(),
            Some(decimals) => format!("{:.decimals$}{suffix}", t / div),
            None => format!("{}{suffix}", t / div),
        })
        .collect()
}

/// A logarithmic x axis over the positive values `xs`: its ends in
/// decades (`log10`) and its labelled ticks. A geometric sweep of up to
/// [`MAX_VALUE_TICKS`] values is labelled at the swept values themselves
/// (so 15, 30, ..., 3840 each get a tick); more values get a tick per
/// power of ten, and the ends where fewer than two powers fall inside.
pub(super) fn log_x_axis(xs: &[f64]) -> (f64, f64, Vec<(f64, String)>) {
    let mut values: Vec<f64> = xs.iter().copied().filter(|v| *v > 0.0).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
        return (0.0, 1.0, vec![(1.0, "1".into())]);
    };
    let (mut d0, mut d1) = (lo.log10(), hi.log10());
    if d1 - d0 < 1e-9 {
        d0 -= 0.5;
        d1 += 0.5;
    }
    let ticks = if values.len() <= MAX_VALUE_TICKS {
        values
            .iter()
            .map(|v| (*v, crate::numfmt::fmt_exact(*v)))
            .collect()
    } else {
        let mut t: Vec<(f64, String)> = (d0.ceil() as i32..=d1.floor() as i32)
            .map(|k| (10f64.powi(k), decade_label(k)))
            .collect();
        if t.len() < 2 {
            t = vec![
                (lo, crate::numfmt::fmt_exact(lo)),
                (hi, crate::numfmt::fmt_exact(hi)),
            ];
        }
        t
    };
    (d0, d1, ticks)
}

/// The most swept values a log x axis labels one by one.
pub(super) const MAX_VALUE_TICKS: usize = 12;

/// A power of ten as a label: 0.01, 1, 100, 10k, 1M.
fn decade_label(k: i32) -> String {
    match k {
        k if k >= 6 => format!("{}M", 10f64.powi(k - 6)),
        k if k >= 4 => format!("{}k", 10f64.powi(k - 3)),
        k if k >= 0 => format!("{}", 10f64.powi(k)),
        k => format!("{:.*}", (-k) as usize, 10f64.powi(k)),
    }
}

/// The y scale of a panel and its labelled ticks: by decades when `log`
/// (and some value is positive), else linear and fitted to the values;
/// `bars` include zero and leave room for value labels.
pub(super) fn y_axis(
    values: &[f64],
    log: bool,
    bars: bool,
    bottom: f64,
    top: f64,
) -> (Scale, Vec<(f64, String)>) {
    if log {
        let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
        let lo = positive.iter().fold(f64::INFINITY, |m, v| m.min(*v));
        let hi = positive.iter().fold(f64::NEG_INFINITY, |m, v| m.max(*v));
        if lo.is_finite() {
            let (k0, mut k1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
            if k1 == k0 {
                k1 += 1;
            }
            let scale = Scale {
                d0: f64::from(k0),
                d1: f64::from(k1),
                p0: bottom,
                p1: top,
                log: true,
            };
            return (
                scale,
                (k0..=k1)
                    .map(|k| (10f64.powi(k), decade_label(k)))
                    .collect(),
            );
        }
    }
    let mut lo = values.iter().fold(f64::INFINITY, |m, v| m.min(*v));
    let mut hi = values.iter().fold(f64::NEG_INFINITY, |m, v| m.max(*v));
    let (pad_lo, pad_hi) = if bars {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
        let side = |away: bool| if away { LABEL_PAD } else { 0.0 };
        (side(lo < 0.0), side(hi > 0.0))
    } else {
        (PAD, PAD)
    };
    let (d0, d1, t) = fit(lo, hi, pad_lo, pad_hi);
    let scale = Scale {
        d0,
        d1,
        p0: bottom,
        p1: top,
        log: false,
    };
    (scale, t.iter().copied().zip(tick_labels(&t)).collect())
}

/// A linear map from data to pixels.
#[derive(Clone, Copy)]
pub(super) struct Scale {
    pub(super) d0: f64,
    pub(super) d1: f64,
    pub(super) p0: f64,
    pub(super) p1: f64,
    /// `d0` and `d1` are decades; values at or below zero sit on the axis.
    pub(super) log: bool,
}

impl Scale {
    pub(super) fn at(&self, v: f64) -> f64 {
        let v = if self.log {
            if v > 0.0 {
                v.log10().max(self.d0)
            } else {
                self.d0
            }
        } else {
            v
        };
        self.p0 + (v - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)
    }

    /// Where bars start: zero, or the bottom of a log axis.
    pub(super) fn base(&self) -> f64 {
        if self.log { self.p0 } else { self.at(0.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        // The axis ends at the data unless a tick is near.
        assert_eq!(
            fit(0.0, 9.3, 0.0, 0.0),
            (0.0, 9.3, vec![0.0, 2.0, 4.0, 6.0, 8.0])
        );
        assert_eq!(fit(0.0, 9.5, 0.0, 0.0).1, 10.0);
        let unit = fit(0.0, 1.0, 0.0, 0.0).2;
        assert_eq!(unit, vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]);
        assert_eq!(
            tick_labels(&unit),
            vec!["0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        assert_eq!(
            tick_labels(&fit(0.0, 25000.0, 0.0, 0.0).2),
            vec!["0", "5k", "10k", "15k", "20k", "25k"]
        );
        assert_eq!(
            tick_labels(&fit(0.0, 1.6e6, 0.0, 0.0).2),
            vec!["0", "0.5M", "1.0M", "1.5M"]
        );
        let labels: Vec<String> = (-2..=7).map(decade_label).collect();
        assert_eq!(
            labels,
            [
                "0.01", "0.1", "1", "10", "100", "1000", "10k", "100k", "1M", "10M"
            ]
        );
        // A single value gets a range around it; zero gets [0, 1].
        let (d0, d1, _) = fit(5.0, 5.0, 0.0, 0.0);
        assert!(d0 < 5.0 && d1 > 5.0, "{d0} {d1}");
        assert_eq!(fit(0.0, 0.0, 0.0, 0.0).2, unit);
        assert_eq!(fit(0.6, 1.2, 0.0, 0.0).2.first(), Some(&0.6000000000000001));
        // Labels of ticks that cross zero by a rounding error say 0.
        assert_eq!(tick_labels(&[-0.1, 1e-17, 0.1]), vec!["-0.1", "0", "0.1"]);
        // Ticks that are not distinct, or a step past f64's digits.
        assert_eq!(tick_labels(&[0.5, 0.5]), vec!["0.5", "0.5"]);
        assert_eq!(tick_labels(&[1e-300, 2e-300]).len(), 2);
    }

    /// The fitted axis: ends (lo, hi) and ticks of data in [lo, hi].
    fn check_fit(lo: f64, hi: f64, bars: bool, ends: (f64, f64), ticks: &[f64]) {
        let (scale, t) = y_axis(&[lo, hi], false, bars, 100.0, 0.0);
        let got: Vec<f64> = t.iter().map(|(v, _)| *v).collect();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6 * (1.0 + b.abs());
        assert!(
            close(scale.d0, ends.0) && close(scale.d1, ends.1),
            "[{lo}, {hi}] bars={bars}: axis [{}, {}], expected {ends:?}",
            scale.d0,
            scale.d1
        );
        assert_eq!(got.len(), ticks.len(), "{got:?}");
        for (g, w) in got.iter().zip(ticks) {
            assert!(close(*g, *w), "{got:?} != {ticks:?}");
        }
    }

    #[test]
    fn axis_ranges_fit_the_data() {
        // Two values a few ulps apart (a sweep over 0.5 and the next f64;
        // 2^52 and 2^52 + 1): drawn as one value, with distinct ticks and
        // labels (this once panicked on the labels' decimals).
        for (lo, hi) in [
            (0.5, 0.5000000000000001),
            (4503599627370496.0, 4503599627370497.0),
        ] {
            let (d0, d1, ticks) = fit(lo, hi, 0.0, 0.0);
            assert!(d0 < lo && hi < d1, "{d0} {d1}");
            assert!(ticks.windows(2).all(|w| w[0] < w[1]), "{ticks:?}");
            let labels = tick_labels(&ticks);
            let mut distinct = labels.clone();
            distinct.dedup();
            assert_eq!(distinct, labels);
        }
        // Bars of a ratio whose lowest whisker dips to -1.5: the axis stops
        // just below it instead of running to -10, and shows no negative tick.
        check_fit(
            -1.5,
            38.2,
            true,
            (-5.073, 41.773),
            &[0.0, 10.0, 20.0, 30.0, 40.0],
        );
        // Positive bars start at zero and get room above for value labels.
        check_fit(
            1.0,
            9.4,
            true,
            (0.0, 10.246),
            &[0.0, 2.0, 4.0, 6.0, 8.0, 10.0],
        );
        // Lines fit the data, without zero: profit between 35k and 51k.
        check_fit(
            35_000.0,
            51_000.0,
            false,
            (34_200.0, 51_800.0),
            &[35e3, 40e3, 45e3, 50e3],
        );
        // Non-negative lines that touch zero pad below it, but no tick is negative.
        let (scale, t) = y_axis(&[0.0, 22.5], false, false, 100.0, 0.0);
        assert!(scale.d0 < 0.0 && scale.d0 > -2.0, "{}", scale.d0);
        assert!(t.iter().all(|(v, _)| *v >= 0.0), "{t:?}");
        // All-negative bars end at zero.
        check_fit(
            -8.0,
            -2.0,
            true,
            (-8.72, 0.0),
            &[-8.0, -6.0, -4.0, -2.0, 0.0],
        );
    }
}
