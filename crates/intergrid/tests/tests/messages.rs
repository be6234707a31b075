//! Errors about deadline shares, stringencies and provider pricing echo the float a user gave as
//! `profile::ShortFloat` writes it (`-5e-324`, not 325 digits).

use profile::testing::{LONG_FLOATS, assert_short_float};

#[test]
fn errors_show_floats_short() {
    use intergrid::IntergridError;
    for v in LONG_FLOATS {
        assert_short_float(&IntergridError::DeadlineShare { share: v }.to_string(), v);
        assert_short_float(&IntergridError::Stringency { stringency: v }.to_string(), v);
        let past = IntergridError::DeadlinePastLimit {
            job: 1,
            stringency: v,
            deadline: i64::MAX,
        };
        assert_short_float(&past.to_string(), v);
        let pricing = IntergridError::Pricing {
            field: "alpha",
            value: v,
            expected: ">= 0",
        };
        assert_short_float(&pricing.to_string(), v);
    }
}
