//! The crate's error types.

use std::fmt;

use profile::{JobError, Time};

/// Why a forecast could not be built or fed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ForecastError {
    /// The window holds no interval.
    Window {
        /// The window length given.
        value: usize,
    },
    /// The smoothing factor is outside `(0, 1]`.
    Smoothing {
        /// The factor given.
        value: f64,
    },
    /// An observed load is negative, infinite or NaN.
    Load {
        /// The interval (0-based, counted from the first observation) of the bad value.
        interval: u64,
        /// The load given.
        value: f64,
    },
}

impl fmt::Display for ForecastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForecastError::Window { value } => {
                write!(
                    f,
                    "forecast window is {value} intervals, expected at least 1"
                )
            }
            ForecastError::Smoothing { value } => {
                write!(
                    f,
                    "smoothing factor is {}, expected a number in (0, 1]",
                    profile::ShortFloat(*value)
                )
            }
            ForecastError::Load { interval, value } => {
                write!(
                    f,
                    "load of interval {interval} is {}, expected a finite number >= 0",
                    profile::ShortFloat(*value)
                )
            }
        }
    }
}

impl std::error::Error for ForecastError {}

/// A cluster configuration that cannot be used, or a job or call the
/// cluster cannot accept.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ClusterError {
    /// The cluster has no processors.
    NoCapacity,
    /// The configuration lists no partition.
    NoPartition,
    /// The partition sizes do not add up to the capacity.
    Sizes {
        /// Sum of the sizes.
        sum: u64,
        /// The cluster's capacity.
        capacity: u32,
    },
    /// A partition has no pivot.
    Pivots {
        /// The partition's name.
        partition: String,
    },
    /// The forecast policy needs exactly one local and one grid partition,
    /// both lending, with borrowing on.
    ForecastPartitions,
    /// A forecast parameter is out of range.
    Forecast {
        /// What is wrong.
        error: ForecastError,
    },
    /// The reallocation period is not positive.
    Reallocation {
        /// The period given, in seconds.
        every: i64,
    },
    /// A job cannot run on this cluster.
    BadJob {
        /// The job's id.
        id: u64,
        /// Why.
        reason: String,
    },
    /// A grid job's id is that of a grid job already submitted, held or
    /// committed on this cluster: notices name grid jobs by id, so each has
    /// its own.
    DuplicateId {
        /// The id given twice.
        id: u64,
    },
    /// No partition's predicate accepts the job.
    NoPartitionFor {
        /// The job's id.
        id: u64,
    },
    /// A call came with a time earlier than the cluster's clock.
    Past {
        /// The time given.
        at: Time,
        /// The cluster's clock.
        now: Time,
    },
    /// Two local jobs carry the same id: a cluster's records name jobs by
    /// id, so each local job has its own. Positions count every local job
    /// the cluster was given, in order, over all calls of
    /// [`Cluster::with_local_jobs`](crate::Cluster::with_local_jobs) and
    /// [`Cluster::submit`](crate::Cluster::submit) with a local job. (A
    /// local job and a grid job may share an id: records carry the
    /// [`Origin`](crate::Origin), and the two come from different sources.)
    DuplicateLocalId {
        /// The id both carry.
        id: u64,
        /// Position of the first local job with it.
        first: usize,
        /// Position of the second local job with it.
        second: usize,
    },
    /// Local jobs must be given in submit order.
    Unsorted {
        /// Position of the first job out of order.
        index: usize,
    },
    /// A job's times or durations lie outside the time domain (`profile`'s
    /// [`Job::check`](profile::Job::check): times within ±2^40 s,
    /// durations up to 2^40 s).
    Job {
        /// What `Job::check` found.
        error: JobError,
    },
    /// The configuration a [`Partitioning`](crate::Partitioning) policy
    /// returned from `config` for a cluster of `capacity` processors
    /// cannot be used ([`Cluster::under`](crate::Cluster::under)): `error`
    /// says why (another capacity, sizes that do not add up, a partition
    /// with no pivot, forecast settings out of range, ...).
    Partitioning {
        /// The processors the policy was asked to set up.
        capacity: u32,
        /// What is wrong with its configuration.
        error: Box<ClusterError>,
    },
    /// A number outside its accepted range: the clock's origin (a time
    /// within ±2^40 s), the publication interval (1 s to 2^40 s), the
    /// reallocation checks per interval (1 to [`MAX_CHECKS`](crate::MAX_CHECKS)).
    OutOfRange {
        /// The setting's name.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The least accepted value.
        min: i64,
        /// The greatest accepted value.
        max: i64,
    },
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::NoCapacity => f.write_str("the cluster has 0 processors; give it at least 1"),
            ClusterError::NoPartition => f.write_str("the cluster has no partition; give it at least one"),
            ClusterError::Sizes { sum, capacity } => write!(
                f,
                "partition sizes add up to {sum} processors but the cluster has {capacity}; make them add up"
            ),
            ClusterError::Pivots { partition } => {
                write!(f, "partition '{partition}' has 0 pivots; give it at least 1")
            }
            ClusterError::ForecastPartitions => f.write_str(
                "the forecast policy needs exactly one local and one grid partition (Predicate::Origin), both lending, with borrowing on",
            ),
            ClusterError::Forecast { error } => write!(f, "forecast: {error}"),
            ClusterError::Reallocation { every } => write!(
                f,
                "the reallocation period is {every} s; give a positive number of seconds"
            ),
            ClusterError::BadJob { id, reason } => write!(f, "job {id} cannot run here: {reason}"),
            ClusterError::DuplicateId { id } => write!(
                f,
                "grid job {id} was handed to this cluster before; give every grid job its own id"
            ),
            ClusterError::NoPartitionFor { id } => write!(
                f,
                "no partition accepts job {id}; add a partition with Predicate::Any as the last one"
            ),
            ClusterError::Past { at, now } => write!(
                f,
                "time {at} is before the cluster's clock {now}; calls must come in time order"
            ),
            ClusterError::DuplicateLocalId { id, first, second } => write!(
                f,
                "local jobs at positions {first} and {second} both have id {id}; give every local job its own id"
            ),
            ClusterError::Unsorted { index } => write!(
                f,
                "local job at position {index} is submitted before its predecessor; sort local jobs by submit time"
            ),
            ClusterError::Job { error } => write!(f, "{error}"),
            ClusterError::Partitioning { capacity, error } => write!(
                f,
                "the configuration Partitioning::config returned for {capacity} processors \
                 cannot be used: {error}"
            ),
            ClusterError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name} is {value}, outside [{min}, {max}]"),
        }
    }
}

impl std::error::Error for ClusterError {}

/// A tentative hold on a cluster's processors (defined in `profile`, shared
/// with the gateway).
pub use profile::HoldId;

/// Why a reservation request, commit or abort was turned down.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReservationError {
    /// The processors are not free over the window: the requester's view was stale.
    SlotGone {
        /// The job.
        job: u64,
        /// The start asked for.
        start: Time,
        /// Processors asked for.
        procs: u32,
        /// Seconds asked for (the estimate).
        duration: i64,
    },
    /// The start asked for is already past.
    InThePast {
        /// The job.
        job: u64,
        /// The start asked for.
        start: Time,
        /// The cluster's clock.
        now: Time,
    },
    /// Started at the start asked for, the job would end (by its
    /// estimate) after [`Time::LATEST`]: no schedule holds it.
    BeyondLatest {
        /// The job.
        job: u64,
        /// The start asked for.
        start: Time,
    },
    /// The hold does not exist (never granted, already committed or aborted).
    UnknownHold {
        /// The hold named.
        hold: HoldId,
    },
    /// The job itself cannot run here (too wide, no partition, bad times).
    Job {
        /// Why.
        error: ClusterError,
    },
}

impl fmt::Display for ReservationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReservationError::SlotGone {
                job,
                start,
                procs,
                duration,
            } => write!(
                f,
                "reservation for job {job} refused: {procs} processors for {duration} s from {start} are not free; ask for fresh free time slots"
            ),
            ReservationError::InThePast { job, start, now } => write!(
                f,
                "reservation for job {job} refused: start {start} is before now ({now}); ask for a start at or after now"
            ),
            ReservationError::BeyondLatest { job, start } => write!(
                f,
                "reservation for job {job} refused: from {start} it would end after the latest instant a schedule can hold ({}); ask for an earlier start",
                Time::LATEST
            ),
            ReservationError::UnknownHold { hold } => write!(
                f,
                "hold {} is unknown: it was never granted, or was committed or aborted",
                hold.0
            ),
            ReservationError::Job { error } => write!(f, "reservation refused: {error}"),
        }
    }
}

impl std::error::Error for ReservationError {}
