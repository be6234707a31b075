//! Errors about parameters out of range echo the float a user gave as
//! `profile::ShortFloat` writes it (`-5e-324`, not 325 digits).

use profile::testing::{LONG_FLOATS, assert_short_float};

#[test]
fn errors_show_floats_short() {
    for v in LONG_FLOATS {
        let e = pricing::PricingError::OutOfRange {
            name: "alpha",
            value: v,
            expected: ">= 0",
        };
        assert_short_float(&e.to_string(), v);
    }
}
