//! The public invariant suite (`utility_match::testing`): every built-in
//! utility passes it, and a broken utility function of each kind is
//! reported under the invariant it breaks.

use std::cell::Cell;
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

/// Partial utility, halved by every other instance: each run is
/// consistent, but two fresh instances make different runs.
struct Flickers {
    halve: bool,
}

static INSTANCES: AtomicU64 = AtomicU64::new(0);

impl Flickers {
    fn new() -> Flickers {
        let n = INSTANCES.fetch_add(1, Ordering::Relaxed);
        Flickers {
            halve: n.is_multiple_of(2),
        }
    }
}

impl UtilityFunction for Flickers {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        let u = PartialUtility.utility(requirements, resource);
        if self.halve { u / 2.0 } else { u }
    }
}

/// Partial utility, lower on each call: state kept between calls, so the
/// same job on the same resource is worth less the second time it is
/// asked about (yet every fresh instance makes the same run).
struct Tiring {
    calls: Cell<u32>,
}

impl UtilityFunction for Tiring {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        let n = self.calls.get();
        self.calls.set(n + 1);
        PartialUtility.utility(requirements, resource) / f64::from(n + 1)
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
    let b = Suite::new(CASES).check_utility(Flickers::new).unwrap_err();
    assert_eq!(b.invariant, invariant::DETERMINISTIC, "{b}");
    assert!(b.detail.contains("job "), "{b}");
    let b = Suite::new(CASES)
        .check_utility(|| Tiring {
            calls: Cell::new(0),
        })
        .unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(
        b.detail
            .contains("a function of the requirements and the resource"),
        "{b}"
    );
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

/// Half, then nothing, then half again: an answer that alternates with the
/// calls made, whatever the inputs.
struct Alternating {
    calls: Cell<u32>,
}

impl UtilityFunction for Alternating {
    fn utility(&self, _: &[Requirement], _: &Resource) -> f64 {
        let n = self.calls.get();
        self.calls.set(n + 1);
        if n.is_multiple_of(2) { 0.5 } else { 0.0 }
    }
}

/// State kept between calls is caught on any grid, even one where the run
/// never asks the same question twice (one job, one resource): the suite
/// asks each question twice in a row. Before, it was caught only where a
/// run happened to repeat a question, which some seeds never do.
#[test]
fn a_drifting_utility_is_caught_without_a_repeated_question() {
    let one = utility_match::Scenario {
        sites: 1,
        resources_per_site: 1,
        users: 1,
        jobs_per_user: 1,
        ..utility_match::Scenario::paper()
    };
    for seed in 0..8 {
        let w = one.generate(seed).unwrap();
        assert_eq!(w.jobs.len(), 1);
        let b = utility_match::testing::check_utility(
            || Alternating {
                calls: Cell::new(0),
            },
            &utility_match::GridConfig::default(),
            &w.machines,
            &w.jobs,
        )
        .unwrap_err();
        assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
        assert!(b.detail.contains("when asked again at once"), "{b}");
    }
}
