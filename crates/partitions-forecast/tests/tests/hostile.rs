//! Answers a caller or a user's policy gives that the cluster cannot honour:
//! a [`Partitioning`] that sets up a cluster of another size or one
//! [`Cluster::new`] refuses (each named as the policy's answer), and a resize
//! that leaves a local job yet to arrive without the processors it asks
//! for. Each is refused with a typed error naming the value, never run.

use partitions_forecast::{
    Cluster, ClusterConfig, ClusterError, ForecastConfig, Origin, PartitionSpec, Partitioning,
    Predicate, Priority, ProviderPolicy, UNLIMITED,
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
                "the configuration Partitioning::config returned for {asked} processors cannot \
                 be used: the configured capacity (processors) is {given}, outside [{asked}, {asked}]"
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

/// A policy that answers whatever `self.0` makes of the capacity asked for.
struct Answers(fn(u32, &ForecastConfig) -> ClusterConfig);

impl Partitioning for Answers {
    fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        (self.0)(capacity, forecast)
    }
}

/// Two partitions of `a` and `b` processors (local, then grid), one pivot
/// each, borrowing on.
fn two(capacity: u32, a: u32, b: u32, forecast: Option<ForecastConfig>) -> ClusterConfig {
    ClusterConfig {
        capacity,
        partitions: vec![
            PartitionSpec::new("local", Predicate::Origin(Origin::Local), a, 1),
            PartitionSpec::new("grid", Predicate::Origin(Origin::Grid), b, 1),
        ],
        priority: Priority::Arrival,
        borrowing: true,
        forecast,
    }
}

/// Every way a policy's configuration can be unusable is refused as the
/// policy's answer, with what `Cluster::new` says of it; the caller's own
/// mistakes (an origin out of range, no processors) are not blamed on it.
#[test]
fn a_policy_answer_cluster_new_refuses_names_the_policy() {
    let fc = ForecastConfig::paper(3600);
    let check = |answer: fn(u32, &ForecastConfig) -> ClusterConfig, inner: ClusterError| {
        let err = Cluster::under(&Answers(answer), 8, &fc, Time(0)).unwrap_err();
        assert_eq!(
            err,
            ClusterError::Partitioning {
                capacity: 8,
                error: Box::new(inner.clone()),
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "the configuration Partitioning::config returned for 8 processors cannot be \
                 used: {inner}"
            )
        );
    };
    // Sizes that do not add up to the capacity.
    check(
        |c, _| two(c, 3, 3, None),
        ClusterError::Sizes {
            sum: 6,
            capacity: 8,
        },
    );
    check(
        |c, _| two(c, u32::MAX, 9, None),
        ClusterError::Sizes {
            sum: u64::from(u32::MAX) + 9,
            capacity: 8,
        },
    );
    // No partition; a partition with no pivot.
    check(
        |c, _| ClusterConfig {
            partitions: Vec::new(),
            ..ClusterConfig::single(c, 1)
        },
        ClusterError::NoPartition,
    );
    check(
        |c, _| ClusterConfig::single(c, 0),
        ClusterError::Pivots {
            partition: "all".into(),
        },
    );
    // Algorithm 1 on partitions it cannot resize, or with broken settings.
    check(
        |c, fc| ClusterConfig {
            forecast: Some(fc.clone()),
            ..ClusterConfig::single(c, UNLIMITED)
        },
        ClusterError::ForecastPartitions,
    );
    check(
        |c, fc| {
            two(
                c,
                4,
                4,
                Some(ForecastConfig {
                    window: 0,
                    ..fc.clone()
                }),
            )
        },
        ClusterError::Forecast {
            error: partitions_forecast::ForecastError::Window { value: 0 },
        },
    );
    // The same configurations with the right sizes are fine.
    Cluster::under(
        &Answers(|c, fc| two(c, 4, 4, Some(fc.clone()))),
        8,
        &fc,
        Time(0),
    )
    .unwrap();

    // The caller's mistakes are the caller's, whatever the policy.
    let err = Cluster::under(&ProviderPolicy::ArCb, 0, &fc, Time(0)).unwrap_err();
    assert_eq!(err, ClusterError::NoCapacity);
    let err = Cluster::under(&ProviderPolicy::ArCb, 8, &fc, Time(i64::MAX)).unwrap_err();
    assert!(
        matches!(
            err,
            ClusterError::OutOfRange {
                name: "the clock's origin (s)",
                ..
            }
        ),
        "{err}"
    );
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
