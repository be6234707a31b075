//! The shared vocabulary of the toolkit: integer simulation [`Time`], a
//! deterministic [`EventQueue`], the availability [`Profile`] of a parallel
//! machine, and backfilling schedulers built on it.
//!
//! * [`Profile`] is Mu'alem and Feitelson's availability profile: free
//!   processors as a step function of future time, with earliest-start
//!   search, reservations, minimum free capacity over a window, the free time
//!   slots up to a horizon, and forgetting of the past.
//! * [`simulate`] replays rigid jobs under FCFS, EASY with `k` reservations, or
//!   conservative backfilling with schedule compression, in any queue order;
//!   [`simulate_stream`] replays a stream of any length in memory that
//!   follows the jobs in the system, reporting outcomes as jobs start.
//! * [`Scheduler`] is the decision point: one event loop calls it with a
//!   [`Context`] (queue, running jobs, profile, and actions that keep the
//!   profile exact); the built-in policies ([`builtin`]) implement it, and
//!   [`simulate_with`] runs any other. [`Stepper`] hands the decisions to an
//!   outside agent, one at a time; `testing` (feature) holds the invariant
//!   suite every scheduler should pass.
//! * [`validate`] checks any schedule: capacity never exceeded, no job starts
//!   before submission, every job runs its run time or is reported killed.
//! * [`first_fit`] gives a validated schedule concrete processor ids, as
//!   [`ProcSet`]s (Batsim's interval sets), for Gantt charts and `jobs.csv`.
//!
//! Invariants: time is an integer; equal-time events resolve in a fixed
//! order; the same input gives the same schedule, always. Every entry point
//! checks its input against the time domain (times within ±2^40 s of the
//! origin, durations up to 2^40 s; see [`Time`]) and answers out-of-range
//! values with an error naming the job and field: no input panics, wraps or
//! loops without end. [`Job::builder`] is the checked way to make a job.
//! Ids are distinct within a workload: outcomes, observers and checks name
//! jobs by id, so [`simulate`], [`Stepper`] and [`validate`] refuse a
//! repeated id, naming it and both positions ([`repeated_id`], the one
//! check every crate's entry points share).
//!
//! ```
//! use profile::{simulate, validate, Job, Policy, SchedulerConfig, Time};
//!
//! // A 4-processor machine: job 1 fills it for 10 s, job 2 waits for it,
//! // job 3 is short and narrow enough to backfill before job 2's reservation... but
//! // the machine is full, so it waits too; EASY starts it at 10 with job 2.
//! let job = |id, submit, procs, secs| {
//!     Job::builder(id)
//!         .submit(Time(submit))
//!         .procs(procs)
//!         .estimate(secs)
//!         .run_time(secs)
//!         .build()
//! };
//! let jobs = vec![job(1, 0, 4, 10)?, job(2, 1, 2, 5)?, job(3, 2, 2, 3)?];
//! let config = SchedulerConfig::new(4, Policy::EASY);
//! let outcomes = simulate(&config, &jobs)?;
//! assert_eq!(outcomes[1].start, Time(10));
//! assert_eq!(outcomes[2].start, Time(10));
//! validate(4, &jobs, &outcomes)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod alloc;
mod avail;
pub mod builtin;
mod config;
mod context;
mod engine;
mod hold;
mod ids;
#[cfg(any(test, feature = "testing"))]
mod invariants;
mod job;
mod runs;
mod sched;
mod scheduler;
mod shown;
mod stats;
mod step;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod time;
mod validate;

pub use alloc::{AllocError, ProcSet, ProcSetParseError, first_fit};
pub use avail::{FreeSlot, Profile, ProfileError};
pub use config::{
    JobOrdering, Overrun, Policy, PolicyParseError, QueueOrder, QueueOrderParseError,
    SchedulerConfig,
};
pub use context::{Context, Event, Running, Waiting};
pub use hold::HoldId;
pub use ids::{RepeatedId, repeated_id};
pub use job::{Job, JobBuilder, JobError, JobField, Outcome, Status};
pub use sched::{
    NoObserver, Observer, SimError, simulate, simulate_observed, simulate_stream,
    simulate_stream_with, simulate_with,
};
pub use scheduler::Scheduler;
pub use shown::ShortFloat;
pub use stats::ScheduleStats;
pub use step::Stepper;
pub use time::{EventQueue, MAX_DURATION, Time};
pub use validate::{Violation, validate, validate_under};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
