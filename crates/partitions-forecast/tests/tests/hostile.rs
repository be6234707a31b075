//! Answers a caller or a user's policy gives that the cluster cannot honour:
//! a [`Partitioning`] that sets up a cluster of another size, and a resize
//! that leaves a local job yet to arrive without the processors it asks
//! for. Each is refused with a typed error naming the value, never run.

use partitions_forecast::{
    Cluster, ClusterConfig, ClusterError, ForecastConfig, Origin, PartitionSpec, Partitioning,
    Predicate, Priority, ProviderPolicy,
};
use profile::{Job, Time};

/// A policy that sets up a cluster of `self.0` processors whatever it is asked.
struct FixedSize(u32);

impl Partitioning for FixedSize {
    fn config(&self, _capacity: u32, _: &ForecastConfig) -> ClusterConfig {
        ClusterConfig::single(self.0, 1)
    }
}

/// `Cluster::under` once built whatever the policy returned: asked for 8
/// processors, it simulated 1000 (or 1) and said nothing.
#[test]
fn a_policy_must_set_up_the_capacity_it_was_asked_for() {
    let fc = ForecastConfig::paper(3600);
    for (asked, given) in [(8, 1000), (8, 1), (1, u32::MAX), (u32::MAX, 0)] {
        let err = Cluster::under(&FixedSize(given), asked, &fc, Time(0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "the policy's configured capacity (processors) is {given}, outside [{asked}, {asked}]"
            )
        );
    }
    let c = Cluster::under(&FixedSize(8), 8, &fc, Time(0)).unwrap();
    assert_eq!(c.capacity(), 8);
    for policy in ProviderPolicy::ALL {
        assert_eq!(
            Cluster::under(&policy, 64, &fc, Time(0))
                .unwrap()
                .capacity(),
            64
        );
    }
}

/// A local partition of 4 and a grid partition of 4, no borrowing, and a
/// local job of 4 processors arriving at 100.
fn two_partitions() -> Cluster {
    let config = ClusterConfig {
        capacity: 8,
        partitions: vec![
            PartitionSpec::new("local", Predicate::Origin(Origin::Local), 4, 1),
            PartitionSpec::new("grid", Predicate::Origin(Origin::Grid), 4, 1),
        ],
        priority: Priority::Arrival,
        borrowing: false,
        forecast: None,
    };
    Cluster::new(config, Time(0))
        .unwrap()
        .with_local_jobs(vec![Job::new(7, Time(100), 4, 10, 10)])
        .unwrap()
}

/// `resize` checked the jobs waiting, not the local jobs yet to arrive: one
/// of them arrived to a partition too small for it and waited for ever,
/// with no event left and no error.
#[test]
fn a_resize_may_not_strand_a_local_job_yet_to_arrive() {
    let mut c = two_partitions();
    let err = c.resize(Time(0), &[1, 7]).unwrap_err();
    assert_eq!(
        err,
        ClusterError::BadJob {
            id: 7,
            reason: "it arrives at 100s for 4 processors, which partition 'local' could no longer \
                     gather after the resize"
                .into(),
        }
    );
    // Nothing changed: the job runs as before.
    assert_eq!(c.partitions()[0].size, 4);
    c.drain();
    assert_eq!(c.records()[0].end, Some(Time(110)));

    // A resize that leaves it room, and one after it has arrived, are fine.
    let mut c = two_partitions();
    c.resize(Time(0), &[5, 3]).unwrap();
    c.drain();
    assert_eq!(c.records()[0].end, Some(Time(110)));
    let mut c = two_partitions();
    c.advance(Time(200)).unwrap();
    c.resize(Time(200), &[1, 7]).unwrap();
}
