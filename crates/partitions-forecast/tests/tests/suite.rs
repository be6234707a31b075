//! The public invariant suite (`partitions_forecast::testing`): every
//! built-in policy passes it, and a broken partitioning of each kind is
//! reported under the invariant it breaks.

use std::sync::atomic::{AtomicU32, Ordering};

use partitions_forecast::testing::{Suite, invariant};
use partitions_forecast::{ClusterConfig, ForecastConfig, Partitioning, ProviderPolicy};

const CASES: u32 = 10;

#[test]
fn the_built_in_policies_pass() {
    for p in ProviderPolicy::ALL {
        Suite::new(CASES).check_partitioning(|| p).unwrap();
    }
}

/// ArCb with one pivot more for every instance built: state kept outside
/// the instance.
struct MorePivots(u32);

static BUILT: AtomicU32 = AtomicU32::new(0);

impl Partitioning for MorePivots {
    fn config(&self, capacity: u32, _: &ForecastConfig) -> ClusterConfig {
        ClusterConfig::single(capacity, 1 + self.0 % 4)
    }
}

/// A cluster of twice the processors asked for.
struct Doubles;

impl Partitioning for Doubles {
    fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        ProviderPolicy::ArCb.config(capacity.saturating_mul(2), forecast)
    }
}

#[test]
fn a_broken_partitioning_is_named() {
    let b = Suite::new(CASES)
        .check_partitioning(|| MorePivots(BUILT.fetch_add(1, Ordering::Relaxed)))
        .unwrap_err();
    assert_eq!(b.invariant, invariant::DETERMINISTIC, "{b}");
    let b = Suite::new(CASES)
        .check_partitioning(|| Doubles)
        .unwrap_err();
    assert_eq!(b.invariant, invariant::KEEPS_THE_CONTRACT, "{b}");
    assert!(b.detail.contains("capacity"), "{b}");
}

#[test]
fn the_workloads_are_fixed() {
    let s = Suite::new(CASES);
    assert_eq!(s.workloads(), s.workloads());
    let generated = profile::testing::proptest_config(CASES).cases as usize;
    let bursts = profile::testing::proptest_config(2).cases as usize;
    assert_eq!(s.workloads().len(), 2 + generated + bursts);
    assert!(s.workloads().iter().any(|w| w.len() > 60));
}

/// The suite's workloads give every job its own id: a report names the job
/// by id, and `profile::validate` refuses a repeat.
#[test]
fn the_suites_workloads_have_distinct_ids() {
    let workloads = Suite::new(64).workloads();
    assert!(workloads.len() > 2);
    for (k, w) in workloads.iter().enumerate() {
        let repeat = profile::repeated_id(w.iter().map(|j| j.id));
        assert_eq!(repeat, None, "workload {k}");
    }
}
