//! What a [`Cluster`](crate::Cluster) is built from: its partitions,
//! queue order and borrowing, and the options of Algorithm 1.

use profile::{MAX_DURATION, Time};

use crate::error::ClusterError;
use crate::forecast::LoadForecast;
use crate::partition::{Origin, PartitionSpec, Predicate};

/// The order of the waiting queue when the scheduler backfills.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Priority {
    /// Arrival order.
    #[default]
    Arrival,
    /// Local jobs before grid jobs, each in arrival order (the priority
    /// scheduling of ArEbM, which favours the provider's own users).
    LocalFirst,
}

/// Where Algorithm 1 takes the load that decides the share offered to the grid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShareFrom {
    /// `percToProvide = max(0, 1 − forecast)`: the share expected to be
    /// free over the next interval, as the paper's prose says.
    #[default]
    Forecast,
    /// `percToProvide = max(0, 1 − actualLoad)`, line 8 as printed (with
    /// `max` for the printed `min`).
    Actual,
}

/// What the forecast policy calls the local load of a period.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LoadMeasure {
    /// The share of processors running local jobs, averaged over the
    /// period: what local users took of the resources.
    #[default]
    Utilisation,
    /// The processors local jobs ask for, running or waiting, as a share of
    /// the cluster (capped at 1), averaged over the period: the backlog too.
    Demand,
}

/// The most reallocation checks per publication interval
/// ([`ForecastConfig::checks`]): 10,000. Each is an event of the cluster and
/// the checks of an interval are kept as a list, so the cap bounds both;
/// the paper's setting is 3.
pub const MAX_CHECKS: u32 = 10_000;

/// The forecast-based policy of Algorithm 1 (ArEbMf).
///
/// [`ForecastConfig::check`] says whether the settings can be used; a
/// cluster checks them when it is built, and with the `serde` feature a
/// configuration that fails the check is not read (the error names the
/// field).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "serde_raw::ForecastConfig"))]
pub struct ForecastConfig {
    /// Intervals in the moving-average window (25 in the paper).
    pub window: usize,
    /// Smoothing factor; `None` for `2 / (window + 1)`.
    pub smoothing: Option<f64>,
    /// The publication interval in seconds (1 to 2^40): `getFreeTimeSlots`
    /// is expected this often, and reallocation checks fall inside it.
    pub interval: i64,
    /// Reallocation checks per interval, evenly spaced (1 to [`MAX_CHECKS`]).
    pub checks: u32,
    /// Loads observed before this time are not recorded (warm-up; the
    /// paper trains the forecast on the second week).
    pub train_from: Time,
    /// Which load decides the share offered.
    pub share_from: ShareFrom,
    /// How the local load of a period is measured (forecast and
    /// reallocation checks).
    pub load: LoadMeasure,
}

impl ForecastConfig {
    /// The paper's window (25 intervals), default smoothing, three checks
    /// per interval, training from time 0, share from the forecast.
    pub fn paper(interval: i64) -> ForecastConfig {
        ForecastConfig {
            window: LoadForecast::PAPER_WINDOW,
            smoothing: None,
            interval,
            checks: 3,
            train_from: Time::ZERO,
            share_from: ShareFrom::Forecast,
            load: LoadMeasure::Utilisation,
        }
    }

    /// That the settings can be used: a `window` of at least 1 interval, a
    /// `smoothing` factor in `(0, 1]` if given, an `interval` of 1 s to
    /// 2^40 s and 1 to [`MAX_CHECKS`] `checks`. The error is the one
    /// [`Cluster::new`](crate::Cluster::new) gives.
    pub fn check(&self) -> Result<(), ClusterError> {
        self.problem().map_or(Ok(()), |(_, error)| Err(error))
    }

    /// The first unusable setting: its field and the error.
    fn problem(&self) -> Option<(&'static str, ClusterError)> {
        let forecast = match self.smoothing {
            None => LoadForecast::new(self.window),
            Some(a) => LoadForecast::with_smoothing(self.window, a),
        };
        if let Err(error) = forecast {
            let field = if self.window == 0 {
                "window"
            } else {
                "smoothing"
            };
            return Some((field, ClusterError::Forecast { error }));
        }
        if self.interval < 1 || self.checks == 0 {
            let field = if self.interval < 1 {
                "interval"
            } else {
                "checks"
            };
            let every = self.interval / (i64::from(self.checks) + 1);
            return Some((field, ClusterError::Reallocation { every }));
        }
        if self.interval > MAX_DURATION {
            let error = ClusterError::OutOfRange {
                name: "the publication interval (s)",
                value: self.interval,
                min: 1,
                max: MAX_DURATION,
            };
            return Some(("interval", error));
        }
        if self.checks > MAX_CHECKS {
            let error = ClusterError::OutOfRange {
                name: "the reallocation checks per interval",
                value: i64::from(self.checks),
                min: 1,
                max: i64::from(MAX_CHECKS),
            };
            return Some(("checks", error));
        }
        None
    }
}

/// Everything a [`Cluster`](crate::Cluster) needs besides its jobs.
///
/// [`ClusterConfig::check`] says whether a cluster can be built from it
/// ([`Cluster::new`](crate::Cluster::new) checks the same); with the
/// `serde` feature a configuration that fails the check is not read (the
/// error names the field).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "serde_raw::ClusterConfig"))]
pub struct ClusterConfig {
    /// Processors in the cluster.
    pub capacity: u32,
    /// The partitions; a job goes to the first whose predicate accepts it.
    pub partitions: Vec<PartitionSpec>,
    /// Waiting-queue order.
    pub priority: Priority,
    /// Whether a job may use idle processors of other partitions (never
    /// at the expense of their pivots).
    pub borrowing: bool,
    /// Algorithm 1, for a cluster with one local and one grid partition.
    pub forecast: Option<ForecastConfig>,
}

impl ClusterConfig {
    /// One partition of the whole cluster with `pivots` pivots
    /// (1 = EASY, [`UNLIMITED`](crate::UNLIMITED) = conservative), arrival order.
    pub fn single(capacity: u32, pivots: u32) -> ClusterConfig {
        ClusterConfig {
            capacity,
            partitions: vec![PartitionSpec::new("all", Predicate::Any, capacity, pivots)],
            priority: Priority::Arrival,
            borrowing: true,
            forecast: None,
        }
    }

    /// That a cluster can be built from this configuration: at least one
    /// processor and one partition, partition sizes adding up to the
    /// capacity, at least one pivot each, and with a `forecast`, usable
    /// settings ([`ForecastConfig::check`]) and exactly one local and one
    /// grid partition, both lending, with borrowing on. The error is the
    /// one [`Cluster::new`](crate::Cluster::new) gives.
    pub fn check(&self) -> Result<(), ClusterError> {
        self.problem().map_or(Ok(()), |(_, error)| Err(error))
    }

    /// The first unusable setting: where it is (a field, or a partition's
    /// field) and the error.
    fn problem(&self) -> Option<(String, ClusterError)> {
        if self.capacity == 0 {
            return Some(("capacity".into(), ClusterError::NoCapacity));
        }
        if self.partitions.is_empty() {
            return Some(("partitions".into(), ClusterError::NoPartition));
        }
        let sum: u64 = self.partitions.iter().map(|p| u64::from(p.size)).sum();
        if sum != u64::from(self.capacity) {
            let capacity = self.capacity;
            return Some(("partitions".into(), ClusterError::Sizes { sum, capacity }));
        }
        if let Some((i, p)) = self
            .partitions
            .iter()
            .enumerate()
            .find(|(_, p)| p.pivots == 0)
        {
            let partition = p.name.clone();
            let error = ClusterError::Pivots { partition };
            return Some((format!("partitions[{i}].pivots"), error));
        }
        let forecast = self.forecast.as_ref()?;
        if let Some((field, error)) = forecast.problem() {
            return Some((format!("forecast.{field}"), error));
        }
        forecast_partitions(&self.partitions, self.borrowing)
            .err()
            .map(|error| ("forecast".into(), error))
    }
}

/// The local and the grid partition Algorithm 1 resizes: exactly one of
/// each (by [`Predicate::Origin`]) and no other, both lending, with
/// borrowing on; [`ClusterError::ForecastPartitions`] otherwise.
pub(super) fn forecast_partitions(
    parts: &[PartitionSpec],
    borrowing: bool,
) -> Result<(usize, usize), ClusterError> {
    let find = |o: Origin| {
        let mut all = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.predicate == Predicate::Origin(o))
            .map(|(i, _)| i);
        match (all.next(), all.next()) {
            (Some(i), None) => Ok(i),
            _ => Err(ClusterError::ForecastPartitions),
        }
    };
    let (local, grid) = (find(Origin::Local)?, find(Origin::Grid)?);
    if parts.len() != 2 || !parts.iter().all(|p| p.lends) || !borrowing {
        return Err(ClusterError::ForecastPartitions);
    }
    Ok((local, grid))
}

/// The serde mirrors of the checked configurations: read as plain data,
/// then checked (`TryFrom`), so a configuration file cannot hold what
/// [`Cluster::new`](crate::Cluster::new) would refuse.
#[cfg(feature = "serde")]
mod serde_raw {
    use profile::Time;

    use super::{LoadMeasure, Priority, ShareFrom};
    use crate::partition::PartitionSpec;

    /// [`super::ForecastConfig`] before its check.
    #[derive(serde::Deserialize)]
    pub struct ForecastConfig {
        window: usize,
        smoothing: Option<f64>,
        interval: i64,
        checks: u32,
        train_from: Time,
        share_from: ShareFrom,
        load: LoadMeasure,
    }

    impl TryFrom<ForecastConfig> for super::ForecastConfig {
        type Error = String;
        fn try_from(raw: ForecastConfig) -> Result<Self, String> {
            let config = super::ForecastConfig {
                window: raw.window,
                smoothing: raw.smoothing,
                interval: raw.interval,
                checks: raw.checks,
                train_from: raw.train_from,
                share_from: raw.share_from,
                load: raw.load,
            };
            match config.problem() {
                None => Ok(config),
                Some((field, error)) => Err(format!("`{field}`: {error}")),
            }
        }
    }

    /// [`super::ClusterConfig`] before its check.
    #[derive(serde::Deserialize)]
    pub struct ClusterConfig {
        capacity: u32,
        partitions: Vec<PartitionSpec>,
        priority: Priority,
        borrowing: bool,
        forecast: Option<super::ForecastConfig>,
    }

    impl TryFrom<ClusterConfig> for super::ClusterConfig {
        type Error = String;
        fn try_from(raw: ClusterConfig) -> Result<Self, String> {
            let config = super::ClusterConfig {
                capacity: raw.capacity,
                partitions: raw.partitions,
                priority: raw.priority,
                borrowing: raw.borrowing,
                forecast: raw.forecast,
            };
            match config.problem() {
                None => Ok(config),
                Some((field, error)) => Err(format!("`{field}`: {error}")),
            }
        }
    }
}
