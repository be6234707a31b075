//! The resource provider's side of multiple-site provisioning, after
//! Assunção & Buyya, "Performance Analysis of Multiple Site Resource
//! Provisioning: Effects of the Precision of Availability Information":
//! how a cluster splits its processors into partitions, schedules its local
//! and grid jobs, takes advance reservations, publishes free time slots to
//! a grid gateway, and forecasts its own load.
//!
//! * [`Cluster`] is an event-driven cluster scheduler over `profile`'s
//!   availability profile. Its processors are split into partitions
//!   ([`PartitionSpec`]): each with a predicate choosing its jobs
//!   ([`Predicate`]: Lawson & Smirni's run-time classes of eq. 1,
//!   [`RunTimeClass`], or local versus grid jobs, [`Origin`]), a size, and a
//!   number of pivots (1 = EASY, [`UNLIMITED`] = conservative backfilling),
//!   with an optional priority order ([`Priority`]) and borrowing of idle
//!   processors that never delays another partition's pivot.
//! * [`Cluster::free_slots`] exports the free time slots of the profile up
//!   to a horizon (Fig. 2a); [`resize_slots`] keeps a share of their
//!   processors.
//! * Advance reservations follow a two-phase protocol:
//!   [`Cluster::request_reservation`] holds the processors (or refuses with
//!   [`ReservationError::SlotGone`]), [`Cluster::commit`] turns the hold into
//!   a reservation that starts exactly on time, [`Cluster::abort`] frees it.
//! * [`LoadForecast`] is a weighted exponential moving average over a window
//!   of intervals (25 in the paper); with a [`ForecastConfig`],
//!   [`Cluster::publish`] runs Algorithm 1's `getFreeTimeSlots` and the
//!   cluster runs its `reallocationEvent`s.
//! * [`Partitioning`] is the provider policy, this crate's extension point:
//!   how a provider sets its cluster up (partitions, queue order, borrowing,
//!   forecast). The paper's policies implement it: [`ArCb`], [`ArEb`],
//!   [`ArCbM`], [`ArEbM`] and [`ArEbMf`]; [`ProviderPolicy`] names them for
//!   configurations, and [`Cluster::under`] builds a cluster from any
//!   policy.
//!
//! Invariants: time is whole seconds and only moves forward; no instant has
//! more processors busy or held than the cluster has; a committed
//! reservation starts exactly at its reserved start; a job uses another
//! partition's processors only where they are idle and not held for that
//! partition's pivots; a forecast lies between the smallest and largest load
//! in its window and its memory never grows past the window; bad input is
//! an error, never a panic. `partitions-forecast` knows nothing about
//! gateways, traces or experiments: it depends on `profile` alone.
//!
//! Limits (the README's table): a clock origin within ±2^40 s
//! (`profile::Time::LIMIT`), jobs that pass `profile::Job::check`, a
//! publication interval of 1 s to 2^40 s, at most [`MAX_CHECKS`]
//! reallocation checks per interval; anything outside is a
//! [`ClusterError`]. Capacity and forecast window take any value without
//! allocating for it.
//!
//! ```
//! use partitions_forecast::{Cluster, ClusterConfig, Origin, ProviderPolicy, ForecastConfig, UNLIMITED};
//! use profile::{Job, Time};
//!
//! // A conservative-backfilling provider (ArCb) of 8 processors.
//! let config = ProviderPolicy::ArCb.config(8, &ForecastConfig::paper(3600));
//! let mut cluster = Cluster::new(config, Time(0))?;
//! cluster.submit(Time(0), Job::new(1, Time(0), 6, 100, 100), Origin::Local)?;
//!
//! // The free time slots it would publish: 2 processors now, 8 from 100 s.
//! let slots = cluster.free_slots(Time(0), Time::MAX);
//! assert_eq!((slots[0].procs, slots[1].start, slots[1].procs), (2, Time(100), 8));
//!
//! // A gateway reserves 4 processors from 100 s for a grid job, in two phases.
//! let hold = cluster.request_reservation(Time(10), Job::new(7, Time(10), 4, 50, 50), Time(100))?;
//! cluster.commit(Time(10), hold)?;
//! cluster.drain();
//! let grid = cluster.records().into_iter().find(|r| r.id == 7).unwrap();
//! assert_eq!(grid.start, Some(Time(100)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod cluster;
mod error;
mod forecast;
mod partition;
mod policy;
#[cfg(feature = "testing")]
pub mod testing;

pub use cluster::{
    Cluster, ClusterConfig, Commitment, CommitmentKind, ForecastConfig, JobRecord, LoadMeasure,
    MAX_CHECKS, Notice, PartitionState, Priority, ShareFrom, resize_slots,
};
pub use error::{ClusterError, ForecastError, HoldId, ReservationError};
pub use forecast::LoadForecast;
pub use partition::{Origin, PartitionSpec, Predicate, RunTimeClass, UNLIMITED, equal_sizes};
pub use policy::{ArCb, ArCbM, ArEb, ArEbM, ArEbMf, Partitioning, ProviderPolicy};

/// The README's examples, compiled and run as doctests so they stay true
/// (one runs the invariant suite: the `testing` feature).
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
