//! The statistics of aggregation: trimmed samples, means and Student-t
//! confidence intervals.

/// A run's samples of one metric as the point averages them, each with its
/// sample number: with `trim`, sorted by value (stably) and without the
/// `trim` highest and lowest (all kept if there are not more than
/// `2·trim`); `[(0, NaN)]` if there are none.
pub(crate) fn trimmed(mut values: Vec<(u32, f64)>, trim: Option<usize>) -> Vec<(u32, f64)> {
    if values.is_empty() {
        return vec![(0, f64::NAN)];
    }
    if let Some(trim) = trim
        && values.len() > trim.saturating_mul(2)
    {
        values.sort_by(|a, b| a.1.total_cmp(&b.1));
        values.truncate(values.len() - trim);
        values.drain(..trim);
    }
    values
}

/// Two-sided 95% Student-t quantiles for 1..=30 degrees of freedom.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// Two-sided 90% Student-t quantiles for 1..=30 degrees of freedom.
const T90: [f64; 30] = [
    6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782, 1.771,
    1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706,
    1.703, 1.701, 1.699, 1.697,
];

/// The mean and, for two or more values, its 95% confidence interval
/// (Student t; beyond 30 degrees of freedom the df = 30 quantile, which is
/// slightly conservative).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn mean_ci(ys: &[f64]) -> (f64, Option<(f64, f64)>) {
    mean_ci_at(ys, 0.95)
}

/// The two-sided Student-t quantile for `df` degrees of freedom (at
/// least one) at confidence `level`: 0.90, else 0.95; beyond thirty degrees
/// of freedom, the quantile of thirty.
pub(crate) fn t_quantile(df: usize, level: f64) -> f64 {
    let table = if level == 0.90 { &T90 } else { &T95 };
    table[df.clamp(1, table.len()) - 1]
}

/// [`mean_ci`] at confidence `level`: 0.90, else 0.95.
pub(crate) fn mean_ci_at(ys: &[f64], level: f64) -> (f64, Option<(f64, f64)>) {
    let n = ys.len();
    let mean = ys.iter().sum::<f64>() / n.max(1) as f64;
    if n < 2 {
        return (mean, None);
    }
    let table = if level == 0.90 { &T90 } else { &T95 };
    let var = ys.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = table[(n - 2).min(table.len() - 1)] * (var / n as f64).sqrt();
    (mean, Some((mean - half, mean + half)))
}

/// Why the point written from `ys` (its mean `y` and interval `ci`, as
/// [`mean_ci_at`] gives them) would not be a number: a value that is
/// infinite (a gain over a tiny reference), or a mean or interval end
/// that is not finite although every value is (values too large to add
/// up). A NaN value stands for a sample without one and makes the point
/// NaN by design, so it is no fault here.
pub(crate) fn not_finite(ys: &[f64], y: f64, ci: Option<(f64, f64)>) -> Option<String> {
    if let Some(v) = ys.iter().find(|v| v.is_infinite()) {
        return Some(format!("a value of the point is {v}"));
    }
    if ys.iter().any(|v| v.is_nan()) {
        return None;
    }
    let n = ys.len();
    if !y.is_finite() {
        return Some(format!(
            "the mean of its {n} finite value(s) is {y}: they are too large to average"
        ));
    }
    match ci {
        Some((lo, hi)) if !(lo.is_finite() && hi.is_finite()) => Some(format!(
            "the interval of its {n} finite value(s) is [{lo}, {hi}]: they are too large or \
             too spread to bound"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `trim = 18446744073709551615` (usize::MAX) overflowed `2·trim` and
    /// panicked; it keeps every sample, as any trim of half the samples
    /// or more does.
    #[test]
    fn a_trim_past_the_samples_keeps_them_all() {
        let values = vec![(1, 3.0), (2, 1.0), (3, 2.0)];
        assert_eq!(trimmed(values.clone(), Some(usize::MAX)), values);
        assert_eq!(trimmed(values.clone(), Some(1)), [(3, 2.0)]);
    }

    #[test]
    fn confidence_interval() {
        assert_eq!(mean_ci(&[4.0]), (4.0, None));
        let (m, ci) = mean_ci(&[1.0, 2.0, 3.0]);
        assert_eq!(m, 2.0);
        let (lo, hi) = ci.unwrap();
        // s = 1, n = 3: half-width 4.303 / sqrt(3).
        assert!(
            (hi - 2.0 - 4.303 / 3f64.sqrt()).abs() < 1e-12 && (2.0 - lo - (hi - 2.0)).abs() < 1e-12
        );
    }

    #[test]
    fn a_point_of_finite_values_is_finite_or_an_error() {
        let check = |ys: &[f64]| {
            let (y, ci) = mean_ci(ys);
            not_finite(ys, y, ci)
        };
        assert_eq!(check(&[1.0, 2.0, 3.0]), None);
        assert_eq!(check(&[1.7e308]), None);
        // A sample without a value: NaN by design.
        assert_eq!(check(&[1.0, f64::NAN]), None);
        let e = check(&[1.7e308, 1.7e308]).unwrap();
        assert!(
            e.contains("the mean of its 2 finite value(s) is inf"),
            "{e}"
        );
        let e = check(&[1.7e308, -1.7e308]).unwrap();
        assert!(
            e.contains("the interval of its 2 finite value(s) is [-inf, inf]"),
            "{e}"
        );
        let e = check(&[1.0, f64::INFINITY]).unwrap();
        assert!(e.contains("a value of the point is inf"), "{e}");
        let e = check(&[f64::NEG_INFINITY, f64::NAN]).unwrap();
        assert!(e.contains("is -inf"), "{e}");
    }
}
