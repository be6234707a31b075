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
    use adaptive_requests::{ReqError, SchedError, Table1Error, Violation};
    for v in EXTREMES {
        check(ReqError::Budget { value: v }.to_string(), v);
        check(ReqError::PriceProfile { value: v }.to_string(), v);
        check(
            SchedError::Price {
                field: "rate",
                value: v,
                expected: "> 0",
            }
            .to_string(),
            v,
        );
        check(
            Table1Error::Share {
                field: "high_share",
                value: v,
            }
            .to_string(),
            v,
        );
        check(
            Table1Error::Share {
                field: "high_share",
                value: v,
            }
            .complaint(),
            v,
        );
        let price = Violation::Price {
            id: 1,
            price: v,
            expected: v,
            budget: v,
        };
        check(price.to_string(), v);
        let table1 = adaptive_requests::Table1 {
            high_profile: v,
            ..adaptive_requests::Table1::default()
        };
        if let Err(e) = table1.check() {
            check(e.to_string(), v);
        }
    }
}
