//! Errors about budgets, price profiles, price functions, Table 1 and
//! price violations echo the float a user gave as
//! `profile::ShortFloat` writes it (`-5e-324`, not 325 digits).

use profile::testing::{LONG_FLOATS, assert_short_float};

#[test]
fn errors_show_floats_short() {
    use adaptive_requests::{ReqError, SchedError, Table1Error, Violation};
    for v in LONG_FLOATS {
        assert_short_float(&ReqError::Budget { value: v }.to_string(), v);
        assert_short_float(&ReqError::PriceProfile { value: v }.to_string(), v);
        assert_short_float(
            &SchedError::Price {
                field: "rate",
                value: v,
                expected: "> 0",
            }
            .to_string(),
            v,
        );
        assert_short_float(
            &Table1Error::Share {
                field: "high_share",
                value: v,
            }
            .to_string(),
            v,
        );
        assert_short_float(
            &Table1Error::Share {
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
        assert_short_float(&price.to_string(), v);
        let table1 = adaptive_requests::Table1 {
            high_profile: v,
            ..adaptive_requests::Table1::default()
        };
        if let Err(e) = table1.check() {
            assert_short_float(&e.to_string(), v);
        }
    }
}
