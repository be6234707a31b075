//! The public invariant suite (`utility_match::testing`): every built-in
//! utility passes it, and a broken utility function of each kind is
//! reported under the invariant it breaks.

use std::sync::atomic::{AtomicU64, Ordering};

use utility_match::testing::{Suite, invariant};
use utility_match::{
    BinaryUtility, Matchmaking, PartialUtility, Requirement, Resource, UtilityFunction, UtilityKind,
};

const CASES: u32 = 12;

#[test]
fn the_built_in_utilities_pass() {
    Suite::new(CASES).check_utility(|| PartialUtility).unwrap();
    Suite::new(CASES).check_utility(|| BinaryUtility).unwrap();
    Suite::new(CASES).check_utility(|| Matchmaking).unwrap();
    for kind in UtilityKind::ALL {
        Suite::new(CASES).check_utility(|| kind).unwrap();
    }
}

/// Partial utility, halved on every other call of any instance.
struct Flickers;

static CALLS: AtomicU64 = AtomicU64::new(0);

impl UtilityFunction for Flickers {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        let u = PartialUtility.utility(requirements, resource);
        if CALLS.fetch_add(1, Ordering::Relaxed).is_multiple_of(2) {
            u
        } else {
            u / 2.0
        }
    }
}

/// Partial utility doubled: above 1 where a resource fits well.
struct Doubled;

impl UtilityFunction for Doubled {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        2.0 * PartialUtility.utility(requirements, resource)
    }
}

#[test]
fn a_broken_utility_is_named() {
    let b = Suite::new(CASES).check_utility(|| Flickers).unwrap_err();
    assert_eq!(b.invariant, invariant::DETERMINISTIC, "{b}");
    assert!(b.detail.contains("job "), "{b}");
    let b = Suite::new(CASES).check_utility(|| Doubled).unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(b.detail.contains("in [0, 1]"), "{b}");
}

#[test]
fn the_grids_are_fixed() {
    let s = Suite::new(CASES);
    assert_eq!(s.workloads(), s.workloads());
    let generated = profile::testing::proptest_config(CASES).cases as usize;
    assert_eq!(s.workloads().len(), 3 + generated);
}
