//! Numbers as every output writes them: deterministic, locale-free text.

/// From this magnitude on, numbers are written with an exponent (`1e21`,
/// `1.5e300`): written out, 1e300 is 301 digits in a CSV cell, a table or
/// an axis label.
const EXPONENT_FROM: f64 = 1e21;

/// `v` (at least [`EXPONENT_FROM`] in magnitude) with `digits` significant
/// digits and an exponent, trailing zeros of the mantissa removed: `1e300`,
/// `-1.5e21`.
fn with_exponent(v: f64, digits: usize) -> String {
    let s = format!("{v:.prec$e}", prec = digits - 1);
    match s.split_once('e') {
        Some((mantissa, exp)) if mantissa.contains('.') => {
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{mantissa}e{exp}")
        }
        _ => s,
    }
}

/// Formats a number deterministically: integers without a fraction, other
/// values with six significant digits and trailing zeros removed; from
/// 1e21 in magnitude with an exponent (`1.5e300`).
pub fn fmt_num(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return "0".into();
    }
    if v.abs() >= EXPONENT_FROM {
        return with_exponent(v, 6);
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{v:.0}");
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (5 - magnitude).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// A number that names a value (an x value of a sweep, a grid value, a
/// claim's `at`): [`fmt_num`]'s text when it reads back as the same
/// number, else the shortest text that does, so two different values
/// never share a label. That text has an exponent from 1e21 in magnitude
/// and below 1e-6 (`1.2345678e25`, `1.5e-300`), none in between
/// (`0.1234567`).
pub fn fmt_exact(v: f64) -> String {
    let short = fmt_num(v);
    if !v.is_finite() || short.parse::<f64>() == Ok(v) {
        short
    } else if v.abs() >= EXPONENT_FROM || v.abs() < 1e-6 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A short, deterministic rendering for tables: 4 significant digits at
/// most, no exponent below 1e21 in magnitude.
pub fn fmt_short(v: f64) -> String {
    if !v.is_finite() {
        return fmt_num(v);
    }
    let a = v.abs();
    if a >= EXPONENT_FROM {
        return with_exponent(v, 4);
    }
    let s = if a >= 100.0 || (v == v.trunc() && a < 1e15) {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    };
    if s.trim_start_matches(['-', '0', '.']).is_empty() {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_and_tiny_numbers_are_short_and_exact_labels_read_back() {
        for (v, num, short) in [
            (1e300, "1e300", "1e300"),
            (-1.5e21, "-1.5e21", "-1.5e21"),
            (1.23456789e25, "1.23457e25", "1.235e25"),
            (1e20, "100000000000000000000", "100000000000000000000"),
            (f64::MAX, "1.79769e308", "1.798e308"),
        ] {
            assert_eq!(fmt_num(v), num, "{v}");
            assert_eq!(fmt_short(v), short, "{v}");
        }
        for (v, label) in [
            (1e300, "1e300"),
            (1.23456789e25, "1.23456789e25"),
            (f64::MAX, "1.7976931348623157e308"),
            (1.5e-300, "1.5e-300"),
            (-1.234567891e-20, "-1.234567891e-20"),
            (1.5e-7, "0.00000015"),
            (0.1234567, "0.1234567"),
        ] {
            assert_eq!(fmt_exact(v), label, "{v}");
            assert_eq!(label.parse::<f64>(), Ok(v), "{label}");
        }
    }
}
