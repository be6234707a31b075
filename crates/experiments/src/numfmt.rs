//! Numbers as every output writes them: deterministic, locale-free text.

/// Formats a number deterministically: integers without a fraction, other
/// values with six significant digits and trailing zeros removed.
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
/// number, else the shortest text that does (Rust's `Display`, no
/// exponent), so two different values never share a label.
pub fn fmt_exact(v: f64) -> String {
    let short = fmt_num(v);
    if !v.is_finite() || short.parse::<f64>() == Ok(v) {
        short
    } else {
        format!("{v}")
    }
}

/// A short, deterministic rendering for tables: 4 significant digits at
/// most, no exponent.
pub fn fmt_short(v: f64) -> String {
    if !v.is_finite() {
        return fmt_num(v);
    }
    let a = v.abs();
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
