//! Adaptive resource allocation requests for a utility cluster, after Netto
//! & Buyya, "Impact of Adaptive Resource Allocation Requests in Utility
//! Cluster Computing Environments": the provider's side of a flexible SLA.
//!
//! * The request [`Req`]`(R^min, R^max, f_mol, D, B, Sp)` with a price
//!   profile; [`Preemption`] is `Sp = (N, I, M)`; [`Moldability`] is
//!   `f_mol : R → T`, open to user functions (any `Fn(u32) -> Option<i64>`,
//!   where `None` forbids a shape, so "R must be a power of two" is one
//!   closure); [`LinearFmol`] is the paper's Table 1 function.
//! * [`Scheduler`]: on-line FIFO or Missing Deadline First ([`Policy`];
//!   the order is the extension point, [`RequestOrder`], with [`Fifo`] and
//!   [`Mdf`] its implementations) with
//!   conservative backfilling and hard deadlines. Moldable requests are
//!   placed by Algorithm 1 (the earliest completion over the scheduling
//!   event times, trying `R` from `R^max` down); preemptive requests are
//!   split into subrequests that fill the free fragments of the queue.
//!   MDF reschedules every waiting request, in slack order, on each arrival,
//!   and rejects the newcomer rather than make an accepted request late.
//! * [`PriceFunction`] is `ω` of Algorithm 2 (price falls with completion
//!   time by up to 60%, times the price profile, with an incentive for
//!   preemptive requests); [`BudgetRule`] says how `B` binds.
//! * [`validate`] checks any schedule: no over-commitment, every SLA met,
//!   every subrequest well formed.
//! * The paper's experiment, as a library: a [`Variant`] is a policy with a
//!   request flexibility, named `<policy>-<flexibility>` (`fifo-rigid`,
//!   `mdf-preemptive-moldable`, ...); [`Table1`] (its [`Default`] is the
//!   paper's Table 1) turns the [`profile::Job`]s of one interval into
//!   requests with [`Table1::requests`], drawing from two seeded ChaCha8
//!   streams ([`RequestSeeds`]) so that every variant sees the same draws;
//!   [`IntervalStats::of`] measures the schedule (profit, response time,
//!   rejections, molding, splitting, utilisation).
//!
//! The optional `serde` feature derives `Serialize`/`Deserialize` for
//! [`Table1`] (every field defaults, unknown fields are errors), [`Variant`]
//! (by name) and [`Policy`], [`BudgetRule`], [`Fallback`] and
//! [`Rescheduling`] (by lower-case name: `mdf`, `limit`, `reject`, `full`).
//!
//! Invariants: time is whole seconds; `1 <= R^min <= R^max`; every accepted
//! request completes by its deadline within its budget, on allowed shapes,
//! its subrequests never overlapping, at most `N` of them at multiples of
//! `I`, together running exactly its work; an accepted request is never
//! dropped or made late by a later rescheduling. A request's deadline `D` is
//! relative to its submission. [`Table1::requests`] draws the same requests
//! for every variant from the same seeds. `adaptive-requests` knows nothing
//! about trace files, workload configs, how seeds are derived or other
//! papers' policies: among this workspace's crates it depends on `profile`
//! alone (plus `rand`/`rand_chacha`, and `serde` if asked for).
//!
//! Limits (the README's table): submit times in `[-2^40, 2^40]` s
//! (`profile::Time::LIMIT`), `T^min`, `D` and every `f_mol(R)` in
//! `[1, 2^40]` s (`profile::MAX_DURATION`), `R^max` at most
//! [`MAX_PROCESSORS`], rates and price profiles at most `10^12`; anything
//! outside is a typed error ([`SchedError`], [`ReqError`]).
//!
//! ```
//! use adaptive_requests::{
//!     Decision, LinearFmol, Policy, PriceFunction, Preemption, Req, Scheduler, SchedulerConfig,
//! };
//! use profile::Time;
//!
//! // A trace job on 20 processors for an hour, shaped as in Table 1:
//! // R^min = 16, T^max = 4500 s, deadline 5 × T^min, splittable every 10%.
//! let f_mol = LinearFmol::table1(20, 3600)?;
//! let budget = PriceFunction::TABLE1.full_price(20 * 3600, 1.0)?;
//! let req = Req::linear(f_mol, 5 * 3600, budget, Some(Preemption::TABLE1))?;
//! let shapes: Vec<(u32, i64)> = req.shapes().collect();
//! assert_eq!(shapes.first(), Some(&(20, 3600)));
//! assert_eq!(shapes.last(), Some(&(16, 4500)));
//!
//! // On an idle 32-processor machine it runs at once, unsplit, on R^max.
//! let mut mdf = Scheduler::new(SchedulerConfig::new(32, Policy::Mdf))?;
//! let Decision::Accepted(p) = mdf.submit(7, Time(0), req)? else { panic!("rejected") };
//! assert_eq!((p.start(), p.completion(), p.parts()[0].procs), (Time(0), Time(3600), 20));
//! assert_eq!(mdf.outcomes()[0].price, budget);
//!
//! // A user's own f_mol: perfect speed-up, powers of two only.
//! let pow2 = |r: u32| r.is_power_of_two().then(|| 6400 / i64::from(r));
//! let req = Req::new(4, 40, pow2, 10_000, 5.0, None)?;
//! assert_eq!(req.shapes().map(|(r, _)| r).collect::<Vec<_>>(), [32, 16, 8, 4]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod error;
mod fmol;
mod place;
mod price;
mod req;
mod sched;
mod share;
mod split;
mod stats;
mod table1;
#[cfg(feature = "testing")]
pub mod testing;
mod validate;
mod variant;

pub use error::{ReqError, SchedError, Table1Error, VariantError};
pub use fmol::{LinearFmol, MAX_PROCESSORS, Moldability, r_min_share, table1_r_min};
pub use place::{Part, Placement, place};
pub use price::{BudgetRule, PriceFunction, within_budget};
pub use req::{Preemption, Req};
pub use sched::{
    Decision, Fallback, Fifo, Mdf, Policy, Request, RequestOrder, RequestOutcome, Rescheduling,
    Scheduler, SchedulerConfig, schedule,
};
pub use share::share_duration;
pub use stats::IntervalStats;
pub use table1::{RequestSeeds, Table1};
pub use validate::{Violation, validate};
pub use variant::Variant;

/// The README's examples, compiled and run as doctests so they stay true
/// (one runs the invariant suite: the `testing` feature).
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
