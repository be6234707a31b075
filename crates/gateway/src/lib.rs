//! The gateway of multiple-site provisioning, after Assunção & Buyya,
//! "Performance Analysis of Multiple Site Resource Provisioning: Effects of
//! the Precision of Availability Information": an InterGrid gateway that
//! places grid jobs on resource providers from the availability information
//! they give it, and keeps score of what that costs and where it went wrong.
//!
//! * [`Provider`] is the only way the gateway talks to a provider:
//!   utilisation, free time slots (asked for, or published), job
//!   submission, a two-phase advance reservation (request, commit or abort,
//!   with typed [`Refusal`]s), and the provider's own events ([`Report`]s of
//!   grid jobs starting and ending, slots published unasked).
//! * [`Provisioning`] is the gateway's policy, its extension point: which
//!   information the gateway gathers and, for each grid job, which
//!   [`Choice`] it makes among the [`Candidate`] providers. The paper's
//!   policies implement it: [`LeastLoad`] (utilisation reported every 10
//!   minutes), [`EarliestAsk`] (slots requested for every job) and
//!   [`EarliestPartial`] (slots published every interval);
//!   [`GatewayPolicy`] names them for configurations.
//! * [`run`] plays a policy out over grid jobs and providers. A job with a
//!   deadline gets an advance reservation under the `earliest` policies; a
//!   refused reservation is a violation and makes the provider refresh its
//!   slots at the gateway, after which the policy is asked again.
//! * [`SlotView`] is the gateway's picture of a provider, rebuilt from the
//!   published slots (and, optionally, reduced by the gateway's own
//!   placements until the next publication).
//! * [`MessageCounter`] counts every [`Message`]; [`ViolationLog`] records
//!   every violation: a start later than planned by more than the
//!   tolerance ([`is_late`], `j_pst − j_gst > T`, [`PAPER_TOLERANCE`] = 20 s),
//!   or a refused reservation.
//!
//! Invariants: time is whole seconds; a start late by exactly the
//! tolerance, or early, is not a violation; a refused reservation always
//! is; every message sent is counted once; every grid job ends exactly once
//! ([`Fate::Ran`] or [`Fate::Rejected`] with a reason). `gateway` knows
//! nothing about how providers schedule (partitions, forecasts,
//! backfilling), nor about traces or experiments: it depends on `profile`
//! alone, and callers adapt their providers to [`Provider`].
//!
//! Limits (the README's table): grid jobs' times within ±2^40 s
//! (`profile::Time::LIMIT`) and durations at most 2^40 s, periods of 1 s to
//! 2^40 s, at most [`MAX_TICKS`] firings of a periodic timer and
//! [`MAX_ATTEMPTS`] reservation attempts; anything outside is a
//! [`GatewayError`] before the run starts, and every run ends (providers'
//! own events alone turn its loop at most [`MAX_QUIET_TURNS`] times in a
//! row).
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
//! // `ask`: one request and one reply per provider and job scheduled.
//! let mut messages = MessageCounter::new();
//! for _job in 0..3 {
//!     messages.record(Message::SlotRequest);
//!     messages.record(Message::SlotReply);
//! }
//! assert_eq!(messages.total(), 6);
//! ```
//!
//! A whole run, with a provider that has 8 idle processors and runs what it
//! is given at once:
//!
//! ```
//! use gateway::{run, Fate, GatewayConfig, GatewayPolicy, HoldId, Information, Provider, Refusal, Report};
//! use profile::{FreeSlot, Job, Time};
//!
//! #[derive(Default)]
//! struct Idle { started: Vec<(u64, Time, i64)> }
//!
//! impl Provider for Idle {
//!     fn capacity(&self) -> u32 { 8 }
//!     fn utilisation(&self, _now: Time) -> f64 { 0.0 }
//!     fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
//!         vec![FreeSlot { start: now, end: horizon, procs: 8 }]
//!     }
//!     fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
//!         self.started.push((job.id, now, job.run_time));
//!         Ok(())
//!     }
//!     fn request_reservation(&mut self, _: Time, job: &Job, _: Time) -> Result<HoldId, Refusal> {
//!         Err(Refusal::Rejected { job: job.id, reason: "no reservations".into() })
//!     }
//!     fn commit(&mut self, _: Time, hold: HoldId) -> Result<(), Refusal> { Err(Refusal::UnknownHold { hold }) }
//!     fn abort(&mut self, _: Time, hold: HoldId) -> Result<(), Refusal> { Err(Refusal::UnknownHold { hold }) }
//!     fn next_event(&self) -> Option<Time> {
//!         self.started.iter().map(|&(_, s, r)| s + r).min()
//!     }
//!     fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
//!         for &(job, s, r) in &self.started {
//!             if s + r <= now {
//!                 reports.push(Report::Started { job, at: s });
//!                 reports.push(Report::Ended { job, at: s + r });
//!             }
//!         }
//!         self.started.retain(|&(_, s, r)| s + r > now);
//!     }
//! }
//!
//! let jobs = vec![Job::new(1, Time(0), 4, 60, 60), Job::new(2, Time(30), 4, 60, 60)];
//! let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Ask));
//! let mut providers = vec![Idle::default()];
//! let result = run(&config, &mut providers, &jobs)?;
//! assert!(matches!(result.fates[1], Fate::Ran { start: Time(30), end: Time(90), .. }));
//! // Per job: a request, a reply and a submission.
//! assert_eq!(result.messages.total(), 6);
//! assert_eq!(result.violations.count(), 0);
//! # Ok::<(), gateway::GatewayError>(())
//! ```
#![deny(missing_docs)]

mod messages;
mod policy;
mod provider;
mod run;
#[cfg(feature = "testing")]
pub mod testing;
mod view;
mod violation;

pub use messages::{Message, MessageCounter};
pub use policy::{
    Candidate, Choice, EarliestAsk, EarliestPartial, LeastLoad, Provisioning, earliest,
};
pub use provider::{HoldId, Provider, Refusal, Report};
pub use run::{
    Fate, GatewayConfig, GatewayError, GatewayPolicy, GridRun, Information, MAX_ATTEMPTS,
    MAX_QUIET_TURNS, MAX_TICKS, Rejection, ReportProblem, run,
};
pub use view::SlotView;
pub use violation::{PAPER_TOLERANCE, ProvisioningViolation, ViolationLog, is_late};

/// The README's examples, compiled and run as doctests so they stay true
/// (one runs the invariant suite: the `testing` feature).
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
