//! Errors about smoothing factors and observed loads echo the float a user gave as
//! `profile::ShortFloat` writes it (`-5e-324`, not 325 digits).

use profile::testing::{LONG_FLOATS, assert_short_float};

#[test]
fn errors_show_floats_short() {
    use partitions_forecast::{ForecastError, LoadForecast};
    for v in LONG_FLOATS {
        // 5e-324 is a smoothing factor in (0, 1].
        match LoadForecast::with_smoothing(3, v) {
            Err(e) => assert_short_float(&e.to_string(), v),
            Ok(_) => assert!(v > 0.0 && v <= 1.0, "{v} taken"),
        }
        assert_short_float(
            &ForecastError::Load {
                interval: 0,
                value: v,
            }
            .to_string(),
            v,
        );
    }
}
