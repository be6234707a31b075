//! A float a user gave is echoed in a message as `profile::ShortFloat`
//! writes it: `-5e-324`, not 325 digits; `1.7976931348623157e308`, not
//! 309. Each error that quotes one, built with the extremes.

/// Floats whose `{}` form is hundreds of characters long.
const EXTREMES: [f64; 4] = [-5e-324, 5e-324, f64::MAX, -1e300];

/// The message is short and shows the value in scientific notation.
fn check(message: String, value: f64) {
    let short = profile::ShortFloat(value).to_string();
    assert!(
        message.len() < 300,
        "{} characters: {message}",
        message.len()
    );
    assert!(message.contains(&short), "{message}\nexpected {short}");
}

#[test]
fn errors_show_floats_short() {
    use partitions_forecast::{ForecastError, LoadForecast};
    for v in EXTREMES {
        // 5e-324 is a smoothing factor in (0, 1].
        match LoadForecast::with_smoothing(3, v) {
            Err(e) => check(e.to_string(), v),
            Ok(_) => assert!(v > 0.0 && v <= 1.0, "{v} taken"),
        }
        check(
            ForecastError::Load {
                interval: 0,
                value: v,
            }
            .to_string(),
            v,
        );
    }
}
