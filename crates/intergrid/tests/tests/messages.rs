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
    use intergrid::IntergridError;
    for v in EXTREMES {
        check(IntergridError::DeadlineShare { share: v }.to_string(), v);
        check(IntergridError::Stringency { stringency: v }.to_string(), v);
        let past = IntergridError::DeadlinePastLimit {
            job: 1,
            stringency: v,
            deadline: i64::MAX,
        };
        check(past.to_string(), v);
        let pricing = IntergridError::Pricing {
            field: "alpha",
            value: v,
            expected: ">= 0",
        };
        check(pricing.to_string(), v);
    }
}
