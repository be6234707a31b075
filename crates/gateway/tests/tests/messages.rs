//! Errors about a provider's utilisation echo the float a user gave as
//! `profile::ShortFloat` writes it (`-5e-324`, not 325 digits).

use profile::testing::{LONG_FLOATS, assert_short_float};

#[test]
fn errors_show_floats_short() {
    for v in LONG_FLOATS {
        let e = gateway::GatewayError::Utilisation {
            provider: 0,
            now: profile::Time(0),
            value: v,
        };
        assert_short_float(&e.to_string(), v);
    }
}
