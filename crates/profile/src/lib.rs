//! The shared vocabulary of the toolkit: integer simulation [`Time`], a
//! deterministic [`EventQueue`], the availability [`Profile`] of a parallel
//! machine, and backfilling schedulers built on it.
//!
//! * [`Profile`] is Mu'alem and Feitelson's availability profile: free
//!   processors as a step function of future time, with earliest-start
//!   search, reservations, minimum free capacity over a window, the free time
//!   slots up to a horizon, and forgetting of the past.
//! * [`simulate`] replays rigid jobs under FCFS, EASY with `k` reservations, or
//!   conservative backfilling with schedule compression, in any queue order.
//! * [`validate`] checks any schedule: capacity never exceeded, no job starts
//!   before submission, every job runs its run time or is reported killed.
//!
//! Invariants: time is an integer; equal-time events resolve in a fixed
//! order; the same input gives the same schedule, always.
//!
//! ```
//! use profile::{simulate, validate, Job, Policy, SchedulerConfig, Time};
//!
//! // A 4-processor machine: job 1 fills it for 10 s, job 2 waits for it,
//! // job 3 is short and narrow enough to backfill before job 2's reservation... but
//! // the machine is full, so it waits too; EASY starts it at 10 with job 2.
//! let jobs = vec![
//!     Job::new(1, Time(0), 4, 10, 10),
//!     Job::new(2, Time(1), 2, 5, 5),
//!     Job::new(3, Time(2), 2, 3, 3),
//! ];
//! let config = SchedulerConfig::new(4, Policy::EASY);
//! let outcomes = simulate(&config, &jobs)?;
//! assert_eq!(outcomes[1].start, Time(10));
//! assert_eq!(outcomes[2].start, Time(10));
//! validate(4, &jobs, &outcomes)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod avail;
mod config;
mod job;
mod sched;
mod stats;
mod time;
mod validate;

pub use avail::{FreeSlot, Profile, ProfileError};
pub use config::{JobOrdering, Overrun, Policy, QueueOrder, SchedulerConfig};
pub use job::{Job, Outcome, Status};
pub use sched::{NoObserver, Observer, SimError, simulate, simulate_observed};
pub use stats::ScheduleStats;
pub use time::{EventQueue, Time};
pub use validate::{Violation, validate};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
