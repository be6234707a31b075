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
