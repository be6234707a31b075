//! The gateway of multiple-site provisioning, after Assunção & Buyya,
//! "Performance Analysis of Multiple Site Resource Provisioning: Effects of
//! the Precision of Availability Information": an InterGrid gateway that
//! places grid jobs on resource providers from the availability information
//! they give it, and keeps score of what that costs and where it went wrong.
//!
//! **Implemented now**: the [`Provider`] trait, the only way the gateway
//! talks to a provider (utilisation, free time slots, job submission, and a
//! two-phase advance reservation: request, commit or abort, with typed
//! [`Refusal`]s); the violation rule [`is_late`] (`j_pst − j_gst > T`, with
//! the paper's `T` = [`PAPER_TOLERANCE`] = 20 s) and the [`ViolationLog`]
//! that also records refused reservations; and the [`MessageCounter`] of
//! every [`Message`] between gateway and providers.
//!
//! **Planned** (issue 5): the gateway policies: least-loaded resource from
//! utilisation reported every 10 minutes; earliest start with `ask` (slots
//! requested for every job) and with `partial` (slots published every
//! interval); advance reservations for deadline-constrained jobs, where a
//! refused reservation makes the provider refresh its slots at the gateway;
//! every message counted and every violation recorded along the way.
//!
//! Invariants: time is whole seconds; a start late by exactly the tolerance,
//! or early, is not a violation; a refused reservation always is; the
//! message total is the sum of the per-kind counts. `gateway` knows nothing
//! about how providers schedule (partitions, forecasts, backfilling), nor
//! about traces or experiments: it depends on `profile` alone, and
//! `experiments` adapts the providers to [`Provider`].
//!
//! ```
//! use gateway::{is_late, Message, MessageCounter, ViolationLog, PAPER_TOLERANCE};
//! use profile::Time;
//!
//! // Planned at 1000 s from the published slots; the provider starts it at 1020 s.
//! assert!(!is_late(Time(1000), Time(1020), PAPER_TOLERANCE));
//! assert!(is_late(Time(1000), Time(1021), PAPER_TOLERANCE));
//!
//! let mut violations = ViolationLog::new(PAPER_TOLERANCE);
//! violations.check_start(7, Time(1000), Time(1300));
//! violations.reservation_refused(8, Time(1100));
//! assert_eq!(violations.count(), 2);
//!
//! // `ask`: one request and one reply per job scheduled.
//! let mut messages = MessageCounter::new();
//! for _job in 0..3 {
//!     messages.record(Message::SlotRequest);
//!     messages.record(Message::SlotReply);
//! }
//! assert_eq!(messages.total(), 6);
//! ```
#![deny(missing_docs)]

mod messages;
mod provider;
mod violation;

pub use messages::{Message, MessageCounter};
pub use provider::{HoldId, Provider, Refusal};
pub use violation::{PAPER_TOLERANCE, Violation, ViolationLog, is_late};

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
