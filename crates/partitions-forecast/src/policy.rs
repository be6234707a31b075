//! The provider policies of the paper, as cluster configurations.

use std::fmt;
use std::str::FromStr;

use crate::cluster::{ClusterConfig, ForecastConfig, Priority};
use crate::partition::{Origin, PartitionSpec, Predicate, RunTimeClass, UNLIMITED, equal_sizes};

/// A resource provider policy of Assunção & Buyya (every one supports
/// advance reservations, the "Ar" of the names).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// policy; `forecast` is used by [`ProviderPolicy::ArEbMf`] only.
    pub fn config(self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        let run_time = |pivots: u32| -> Vec<PartitionSpec> {
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
        };
        let (partitions, priority, forecast) = match self {
            ProviderPolicy::ArCb => return ClusterConfig::single(capacity, UNLIMITED),
            ProviderPolicy::ArEb => return ClusterConfig::single(capacity, 1),
            ProviderPolicy::ArCbM => (run_time(UNLIMITED), Priority::Arrival, None),
            ProviderPolicy::ArEbM => (run_time(1), Priority::LocalFirst, None),
            ProviderPolicy::ArEbMf => {
                let sizes = equal_sizes(capacity, 2);
                (
                    vec![
                        PartitionSpec::new("local", Predicate::Origin(Origin::Local), sizes[0], 1),
                        PartitionSpec::new("grid", Predicate::Origin(Origin::Grid), sizes[1], 1),
                    ],
                    Priority::Arrival,
                    Some(forecast.clone()),
                )
            }
        };
        ClusterConfig {
            capacity,
            partitions,
            priority,
            borrowing: true,
            forecast,
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
}
