//! `Variant` names: `<policy>-<flexibility>`, read and written.

use adaptive_requests::{Policy, Variant, VariantError};

/// Every variant, in the paper's legend order.
pub fn all() -> Vec<Variant> {
    let mut out = Vec::new();
    for policy in [Policy::Fifo, Policy::Mdf] {
        for (preemptive, moldable) in [(false, false), (true, false), (false, true), (true, true)] {
            out.push(Variant {
                policy,
                preemptive,
                moldable,
            });
        }
    }
    out
}

/// `name` parses to `expected` (or fails with `Unknown { name }`), and a
/// parsed variant prints as `name`.
fn check(name: &str, expected: Option<Variant>) {
    let got = name.parse::<Variant>();
    match expected {
        Some(v) => {
            assert_eq!(got, Ok(v), "{name}");
            assert_eq!(v.to_string(), name);
        }
        None => {
            let err = got.expect_err(name);
            assert_eq!(
                err,
                VariantError::Unknown {
                    name: name.to_owned()
                }
            );
            assert!(
                err.to_string()
                    .starts_with(&format!("unknown series '{name}', expected <fifo|mdf>-"))
            );
        }
    }
}

#[test]
fn names() {
    let v = |policy, preemptive, moldable| {
        Some(Variant {
            policy,
            preemptive,
            moldable,
        })
    };
    check("fifo-rigid", v(Policy::Fifo, false, false));
    check("mdf-preemptive", v(Policy::Mdf, true, false));
    check("fifo-moldable", v(Policy::Fifo, false, true));
    check("mdf-preemptive-moldable", v(Policy::Mdf, true, true));
    check("lifo-rigid", None);
    check("mdf-flexible", None);
    check("mdf", None);
    check("mdf-", None);
    check("", None);
    check("MDF-rigid", None);
    check("mdf-moldable-preemptive", None);
    check("fifo-rigid ", None);
    assert_eq!(Variant::FIFO_RIGID, "fifo-rigid".parse().unwrap());
}

/// `Display` then `FromStr` gives the variant back, and the eight names
/// are distinct.
#[test]
fn from_str_round_trip() {
    let variants = all();
    let names: std::collections::BTreeSet<String> =
        variants.iter().map(Variant::to_string).collect();
    assert_eq!(names.len(), 8);
    for v in variants {
        let name = v.to_string();
        assert_eq!(name.parse::<Variant>(), Ok(v));
        assert_eq!(name, format!("{}-{}", v.policy.name(), v.flexibility()));
    }
}
