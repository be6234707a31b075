//! What a [`Cluster`](crate::Cluster) is built from: its partitions,
//! queue order and borrowing, and the options of Algorithm 1.

use profile::Time;

use crate::forecast::LoadForecast;
use crate::partition::{PartitionSpec, Predicate};

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
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
}

/// Everything a [`Cluster`](crate::Cluster) needs besides its jobs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
}
