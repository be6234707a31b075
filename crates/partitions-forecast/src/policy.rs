//! The provider policies of the paper, as cluster configurations: the
//! [`Partitioning`] trait, its implementations and the [`ProviderPolicy`]
//! names.

use std::fmt;
use std::str::FromStr;

use crate::cluster::{ClusterConfig, ForecastConfig, Priority};
use crate::partition::{Origin, PartitionSpec, Predicate, RunTimeClass, UNLIMITED, equal_sizes};

/// A resource provider policy of Assunção & Buyya (every one supports
/// advance reservations, the "Ar" of the names), by name, for
/// configurations. It implements [`Partitioning`] by running [`ArCb`],
/// [`ArEb`], [`ArCbM`], [`ArEbM`] or [`ArEbMf`]; a policy of one's own is a
/// [`Partitioning`] implementation given to
/// [`Cluster::under`](crate::Cluster::under) instead.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ProviderPolicy {
    /// Conservative backfilling, one partition.
    ArCb,
    /// EASY backfilling, one partition.
    ArEb,
    /// Conservative backfilling over Lawson & Smirni's three run-time
    /// partitions (eq. 1), equal shares, borrowing, no priorities.
    ArCbM,
    /// Lawson & Smirni's multiple-queue EASY backfilling: three run-time
    /// partitions, one pivot each, equal shares, borrowing, and priority
    /// to local jobs when backfilling.
    ArEbM,
    /// The forecast policy of Algorithm 1: a local and a grid partition,
    /// one pivot each, resized every interval from the load forecast.
    ArEbMf,
}

impl ProviderPolicy {
    /// Every policy, in the paper's order.
    pub const ALL: [ProviderPolicy; 5] = [
        ProviderPolicy::ArCb,
        ProviderPolicy::ArEb,
        ProviderPolicy::ArCbM,
        ProviderPolicy::ArEbM,
        ProviderPolicy::ArEbMf,
    ];

    /// The lower-case name used in series names (`arcbm`).
    pub fn name(self) -> &'static str {
        match self {
            ProviderPolicy::ArCb => "arcb",
            ProviderPolicy::ArEb => "areb",
            ProviderPolicy::ArCbM => "arcbm",
            ProviderPolicy::ArEbM => "arebm",
            ProviderPolicy::ArEbMf => "arebmf",
        }
    }

    /// The configuration of a cluster of `capacity` processors under this
    /// policy; `forecast` is used by [`ProviderPolicy::ArEbMf`] only. The
    /// same as [`Partitioning::config`], without the trait in scope.
    pub fn config(self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        Partitioning::config(&self, capacity, forecast)
    }
}

/// A provider policy, the extension point of this crate: how a provider
/// sets up its cluster of `capacity` processors, that is how it splits them
/// into partitions (each with its predicate and pivots), in which order it
/// backfills, whether partitions lend idle processors, and whether
/// Algorithm 1 resizes them from a load forecast.
///
/// [`Cluster::under`](crate::Cluster::under) builds a cluster from a policy
/// (as `intergrid` does for every site). The paper's policies implement it:
/// [`ArCb`], [`ArEb`], [`ArCbM`], [`ArEbM`] and [`ArEbMf`];
/// [`ProviderPolicy`] names them for configurations.
///
/// ```
/// use partitions_forecast::{
///     Cluster, ClusterConfig, ForecastConfig, Origin, PartitionSpec, Partitioning, Predicate,
///     Priority, UNLIMITED,
/// };
/// use profile::Time;
///
/// /// A quarter of the processors kept for grid jobs, conservative backfilling.
/// struct GridQuarter;
///
/// impl Partitioning for GridQuarter {
///     fn config(&self, capacity: u32, _: &ForecastConfig) -> ClusterConfig {
///         let grid = capacity / 4;
///         ClusterConfig {
///             capacity,
///             partitions: vec![
///                 PartitionSpec::new("local", Predicate::Origin(Origin::Local), capacity - grid, UNLIMITED),
///                 PartitionSpec::new("grid", Predicate::Origin(Origin::Grid), grid, UNLIMITED),
///             ],
///             priority: Priority::Arrival,
///             borrowing: true,
///             forecast: None,
///         }
///     }
/// }
///
/// let cluster = Cluster::under(&GridQuarter, 64, &ForecastConfig::paper(3600), Time(0))?;
/// assert_eq!(cluster.partitions()[1].size, 16);
/// # Ok::<(), partitions_forecast::ClusterError>(())
/// ```
pub trait Partitioning {
    /// The configuration of a cluster of `capacity` processors; `forecast`
    /// holds the settings of Algorithm 1, for the policies that use it.
    fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig;
}

/// Lawson & Smirni's three run-time partitions (eq. 1), equal shares,
/// `pivots` pivots each.
fn run_time_partitions(capacity: u32, pivots: u32) -> Vec<PartitionSpec> {
    RunTimeClass::ALL
        .iter()
        .zip(equal_sizes(capacity, 3))
        .map(|(&class, size)| {
            let name = match class {
                RunTimeClass::Short => "short",
                RunTimeClass::Medium => "medium",
                RunTimeClass::Long => "long",
            };
            PartitionSpec::new(name, Predicate::RunTime(class), size, pivots)
        })
        .collect()
}

/// Several partitions with borrowing on.
fn partitioned(
    capacity: u32,
    partitions: Vec<PartitionSpec>,
    priority: Priority,
    forecast: Option<ForecastConfig>,
) -> ClusterConfig {
    ClusterConfig {
        capacity,
        partitions,
        priority,
        borrowing: true,
        forecast,
    }
}

/// ArCb: conservative backfilling, one partition.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArCb;

impl Partitioning for ArCb {
    fn config(&self, capacity: u32, _: &ForecastConfig) -> ClusterConfig {
        ClusterConfig::single(capacity, UNLIMITED)
    }
}

/// ArEb: EASY backfilling, one partition.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArEb;

impl Partitioning for ArEb {
    fn config(&self, capacity: u32, _: &ForecastConfig) -> ClusterConfig {
        ClusterConfig::single(capacity, 1)
    }
}

/// ArCbM: conservative backfilling over Lawson & Smirni's three run-time
/// partitions (eq. 1), equal shares, borrowing, no priorities.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArCbM;

impl Partitioning for ArCbM {
    fn config(&self, capacity: u32, _: &ForecastConfig) -> ClusterConfig {
        let parts = run_time_partitions(capacity, UNLIMITED);
        partitioned(capacity, parts, Priority::Arrival, None)
    }
}

/// ArEbM: Lawson & Smirni's multiple-queue EASY backfilling: three run-time
/// partitions, one pivot each, equal shares, borrowing, and priority to
/// local jobs when backfilling.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArEbM;

impl Partitioning for ArEbM {
    fn config(&self, capacity: u32, _: &ForecastConfig) -> ClusterConfig {
        let parts = run_time_partitions(capacity, 1);
        partitioned(capacity, parts, Priority::LocalFirst, None)
    }
}

/// ArEbMf: the forecast policy of Algorithm 1: a local and a grid
/// partition, one pivot each, resized every interval from the load
/// forecast (`forecast`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArEbMf;

impl Partitioning for ArEbMf {
    fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        let sizes = equal_sizes(capacity, 2);
        let parts = vec![
            PartitionSpec::new("local", Predicate::Origin(Origin::Local), sizes[0], 1),
            PartitionSpec::new("grid", Predicate::Origin(Origin::Grid), sizes[1], 1),
        ];
        partitioned(capacity, parts, Priority::Arrival, Some(forecast.clone()))
    }
}

impl Partitioning for ProviderPolicy {
    fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        match self {
            ProviderPolicy::ArCb => ArCb.config(capacity, forecast),
            ProviderPolicy::ArEb => ArEb.config(capacity, forecast),
            ProviderPolicy::ArCbM => ArCbM.config(capacity, forecast),
            ProviderPolicy::ArEbM => ArEbM.config(capacity, forecast),
            ProviderPolicy::ArEbMf => ArEbMf.config(capacity, forecast),
        }
    }
}

impl fmt::Display for ProviderPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProviderPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<ProviderPolicy, String> {
        let lower = s.to_ascii_lowercase();
        ProviderPolicy::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| {
                format!("unknown provider policy '{s}', expected one of: arcb, areb, arcbm, arebm, arebmf")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use profile::Time;

    #[test]
    fn every_policy_builds_a_valid_cluster() {
        let fc = ForecastConfig::paper(7200);
        for p in ProviderPolicy::ALL {
            let config = p.config(64, &fc);
            assert_eq!(
                config.partitions.iter().map(|s| s.size).sum::<u32>(),
                64,
                "{p}"
            );
            Cluster::new(config, Time(0)).unwrap();
            assert_eq!(p.name().parse::<ProviderPolicy>(), Ok(p));
        }
        assert_eq!("ArEbMf".parse(), Ok(ProviderPolicy::ArEbMf));
        assert!("arx".parse::<ProviderPolicy>().is_err());
        assert_eq!(
            ProviderPolicy::ArCbM.config(64, &fc).partitions[0].pivots,
            UNLIMITED
        );
        assert_eq!(
            ProviderPolicy::ArEbM.config(64, &fc).priority,
            Priority::LocalFirst
        );
    }

    #[test]
    fn each_name_runs_its_policy() {
        let fc = ForecastConfig::paper(7200);
        let policies: [&dyn Partitioning; 5] = [&ArCb, &ArEb, &ArCbM, &ArEbM, &ArEbMf];
        for (name, policy) in ProviderPolicy::ALL.into_iter().zip(policies) {
            for capacity in [1, 7, 64] {
                assert_eq!(
                    name.config(capacity, &fc),
                    policy.config(capacity, &fc),
                    "{name}"
                );
            }
        }
        assert!(ArEbMf.config(8, &fc).forecast.is_some());
        assert!(ArEb.config(8, &fc).forecast.is_none());
    }
}
