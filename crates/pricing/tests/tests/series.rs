//! Series names: the grammar `fcfs-bf | sjf-bf | edf-bf | libra | libra+$ |
//! libra+$-b<β>`, as text and in a configuration file.

use pricing::{Baseline, Policy, Series};
use proptest::prelude::*;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Parses `input` and checks its policy (`None`: it must not parse), and
/// that the series keeps the name as written.
fn check(input: &str, expected: Option<Policy>) {
    match (input.parse::<Series>(), expected) {
        (Ok(s), Some(p)) => {
            assert_eq!(s.policy(), p, "{input}");
            assert_eq!((s.name(), s.to_string().as_str()), (input, input));
        }
        (Err(e), None) => {
            assert_eq!(e.text(), input);
            let message = e.to_string();
            assert!(message.starts_with(&format!("unknown policy '{input}'")));
            assert!(message.contains("libra+$-b<β> (e.g. libra+$-b0.5)"));
        }
        (got, want) => panic!("{input}: got {got:?}, expected {want:?}"),
    }
}

#[test]
fn names() {
    let dollar = |beta| Some(Policy::LibraDollar { beta });
    check("fcfs-bf", Some(Policy::Backfill(Baseline::FcfsBf)));
    check("sjf-bf", Some(Policy::Backfill(Baseline::SjfBf)));
    check("edf-bf", Some(Policy::Backfill(Baseline::EdfBf)));
    check("libra", Some(Policy::Libra));
    check("libra+$", dollar(None));
    check("libra+$-b0.5", dollar(Some(0.5)));
    check("libra+$-b1.0", dollar(Some(1.0)));
    check("libra+$-b0", dollar(Some(0.0)));
    check("libra+$-b1e-1", dollar(Some(0.1)));
    for bad in [
        "",
        "easy",
        "LIBRA",
        " libra",
        "libra+",
        "libra+$-b",
        "libra+$-b-1",
        "libra+$-bx",
        "libra+$-binf",
        "libra+$-bNaN",
        "libra+$b0.5",
        "libra$-b0.5",
    ] {
        check(bad, None);
    }
}

#[test]
fn the_parts_are_exposed() {
    let s: Series = "libra+$-b0.25".parse().unwrap();
    assert_eq!(s.policy().beta(), Ok(Some(0.25)));
    assert!(s.policy().is_time_shared());
    let s: Series = "sjf-bf".parse().unwrap();
    assert_eq!(s.policy().beta(), Ok(None));
    assert!(!s.policy().is_time_shared());
    assert_eq!(Policy::LibraDollar { beta: None }.beta(), Ok(None));
}

#[cfg(feature = "serde")]
#[derive(Debug, Serialize, Deserialize)]
struct Params {
    policies: Vec<Series>,
}

#[cfg(feature = "serde")]
#[test]
fn a_configuration_keeps_the_names_as_written() {
    let p: Params = toml::from_str(r#"policies = ["libra", "libra+$-b1.0", "fcfs-bf"]"#).unwrap();
    assert_eq!(
        p.policies[1].policy(),
        Policy::LibraDollar { beta: Some(1.0) }
    );
    let text = toml::to_string(&p).unwrap();
    assert_eq!(
        text.trim(),
        r#"policies = ["libra", "libra+$-b1.0", "fcfs-bf"]"#
    );
    let e = toml::from_str::<Params>(r#"policies = ["easy"]"#).unwrap_err();
    assert!(e.message().starts_with("unknown policy 'easy'"), "{e}");
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]
    /// A policy's canonical name parses back to the same policy.
    #[test]
    fn canonical_names_round_trip(beta in prop::option::of(0.0f64..1e9), kind in 0usize..5) {
        let policy = match kind {
            0..=2 => Policy::Backfill(Baseline::ALL[kind]),
            3 => Policy::Libra,
            _ => Policy::LibraDollar { beta },
        };
        let series = Series::from(policy);
        prop_assert_eq!(series.name(), policy.to_string());
        prop_assert_eq!(series.name().parse::<Series>().unwrap(), series);
    }

    /// `libra+$-b<x>` parses exactly when `x` is a finite number >= 0.
    #[test]
    fn a_beta_suffix_parses_when_it_is_a_factor(x in "[-+0-9.eE]{0,6}|inf|NaN") {
        let want = x.parse::<f64>().ok().filter(|b| b.is_finite() && *b >= 0.0);
        let got = format!("libra+$-b{x}").parse::<Series>().ok().and_then(|s| s.policy().beta().ok().flatten());
        prop_assert_eq!(got, want);
    }
}
