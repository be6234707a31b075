//! With the `serde` feature: the names configs use, both ways.

use std::collections::BTreeMap;

use adaptive_requests::{BudgetRule, Fallback, Policy, Rescheduling, Table1, Variant};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `value = <toml>` reads as `expected` and writes back as `toml`.
fn check<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(toml: &str, expected: T) {
    let read: BTreeMap<String, T> = toml::from_str(&format!("value = {toml}")).unwrap();
    assert_eq!(read["value"], expected, "{toml}");
    let written = toml::to_string(&read).unwrap();
    assert_eq!(written.trim(), format!("value = {toml}"));
}

/// `value = <toml>` does not read as a `T`, with `message` in the error.
fn check_err<T: DeserializeOwned + std::fmt::Debug>(toml: &str, message: &str) {
    let err = toml::from_str::<BTreeMap<String, T>>(&format!("value = {toml}")).unwrap_err();
    assert!(err.to_string().contains(message), "{err}");
}

#[test]
fn rule_names() {
    check("\"limit\"", BudgetRule::Limit);
    check("\"cap\"", BudgetRule::Cap);
    check("\"reject\"", Fallback::Reject);
    check("\"append\"", Fallback::Append);
    check("\"full\"", Rescheduling::Full);
    check("\"incremental\"", Rescheduling::Incremental);
    check("\"fifo\"", Policy::Fifo);
    check("\"mdf\"", Policy::Mdf);
    check_err::<BudgetRule>("\"Limit\"", "unknown variant `Limit`");
    check_err::<Fallback>("\"drop\"", "expected `reject` or `append`");
}

#[test]
fn variant_names() {
    for v in super::variant::all() {
        check(&format!("\"{v}\""), v);
    }
    check(
        "[\"fifo-rigid\", \"mdf-moldable\"]",
        vec![Variant::FIFO_RIGID, "mdf-moldable".parse().unwrap()],
    );
    check_err::<Variant>("\"mdf-flexible\"", "unknown series 'mdf-flexible'");
    check_err::<Variant>("3", "string");
}

#[test]
fn table1_defaults_and_unknown_fields() {
    assert_eq!(toml::from_str::<Table1>("").unwrap(), Table1::default());
    let t: Table1 = toml::from_str("high_share = 0.5\nsp_mold_each = false").unwrap();
    assert_eq!(
        t,
        Table1 {
            high_share: 0.5,
            sp_mold_each: false,
            ..Table1::default()
        }
    );
    let back: Table1 = toml::from_str(&toml::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
    let err = toml::from_str::<Table1>("high_shares = 0.5").unwrap_err();
    assert!(
        err.to_string().contains("unknown field `high_shares`"),
        "{err}"
    );
}

/// Every field out of range is named by `Table1::check` (a table read is
/// checked by its reader, which knows the key's place in the file).
#[test]
fn table1_check_names_every_field() {
    for (text, expect) in [
        (
            "preemptive_share = 1.5",
            "Table 1 preemptive_share is 1.5, expected a share in [0, 1]",
        ),
        ("high_share = nan", "Table 1 high_share is NaN"),
        (
            "r_min_percent = 101",
            "Table 1 r_min_percent is 101, expected a percentage in 0..=100",
        ),
        (
            "sp_percent = 0",
            "Table 1 sp_percent is 0, expected a percentage in 1..=100",
        ),
        ("sp_parts = 0", "Table 1 sp_parts is 0, expected at least 1"),
        (
            "preemptive_min_run = -1",
            "Table 1 preemptive_min_run is -1, expected 0 to 2^40 s",
        ),
        ("low_extra = -86400", "Table 1 low_extra is -86400"),
        (
            "high_profile = 0.0",
            "Table 1 high_profile is 0, expected a multiplier in (0, 1e12]",
        ),
        ("high_profile = inf", "Table 1 high_profile is inf"),
        (
            "deadline_factor = 0",
            "Table 1 deadline_factor is 0, expected at least 1",
        ),
        (
            "rate = -1.0",
            "Table 1 rate is -1, expected a number in [0, 1e12]",
        ),
        (
            "max_discount = 2.0",
            "Table 1 max_discount is 2, expected a fraction in [0, 1]",
        ),
    ] {
        let table: Table1 = toml::from_str(text).unwrap();
        let err = table.check().unwrap_err();
        assert!(err.to_string().starts_with(expect), "{text}: {err}");
    }
    // 0% is the smallest `R^min` (one processor), which configurations use.
    let table: Table1 = toml::from_str("r_min_percent = 0").unwrap();
    assert_eq!(table.check(), Ok(()));
}
