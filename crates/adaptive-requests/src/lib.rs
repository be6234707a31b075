//! Adaptive resource allocation requests for a utility cluster, after Netto
//! & Buyya, "Impact of Adaptive Resource Allocation Requests in Utility
//! Cluster Computing Environments": the provider's side of a flexible SLA.
//!
//! **Implemented now**: the request [`Req`]`(R^min, R^max, f_mol, D, B, Sp)`
//! with its checks; the preemption parameters [`Preemption`] `Sp = (N, I, M)`;
//! the [`Moldability`] trait for `f_mol : R → T`, open to user functions
//! (any `Fn(u32) -> Option<i64>`, where `None` forbids a shape, so "R must be
//! a power of two" is one closure); and the paper's linear function of
//! Table 1, [`LinearFmol`], with Table 1's `R^min` rule [`table1_r_min`].
//!
//! **Planned** (issue 3): moldable placement over the scheduling event times
//! (Algorithm 1); splitting preemptive requests into at most `N`
//! non-overlapping subrequests at multiples of `I`, conserving the work; the
//! FIFO and Missing Deadline First schedulers with conservative backfilling
//! and hard deadlines; the price function `ω` of Algorithm 2 with price
//! profiles and the preemption incentive.
//!
//! Invariants: time is whole seconds; `1 <= R^min <= R^max`; every allowed
//! shape has a positive time; [`LinearFmol`] gives `T^min` at `R^max` and
//! `⌈T^max⌉` at `R^min`, never less time for fewer processors, and never less
//! work than at `R^max`. A request does not know when it was submitted: its
//! deadline `D` is relative. `adaptive-requests` knows nothing about traces,
//! workload files, gateways or pricing of other papers: it depends on
//! `profile` alone.
//!
//! ```
//! use adaptive_requests::{LinearFmol, Preemption, Req};
//!
//! // A trace job on 20 processors for an hour, shaped as in Table 1:
//! // R^min = 16, T^max = 4500 s, deadline 5 × T^min, splittable every 10%.
//! let f_mol = LinearFmol::table1(20, 3600)?;
//! let req = Req::linear(f_mol, 5 * 3600, 20.0, Some(Preemption::TABLE1))?;
//! let shapes: Vec<(u32, i64)> = req.shapes().collect();
//! assert_eq!(shapes.first(), Some(&(20, 3600)));
//! assert_eq!(shapes.last(), Some(&(16, 4500)));
//!
//! // A user's own f_mol: perfect speed-up, powers of two only.
//! let pow2 = |r: u32| r.is_power_of_two().then(|| 6400 / i64::from(r));
//! let req = Req::new(4, 40, pow2, 10_000, 5.0, None)?;
//! assert_eq!(req.shapes().map(|(r, _)| r).collect::<Vec<_>>(), [32, 16, 8, 4]);
//! # Ok::<(), adaptive_requests::ReqError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod fmol;
mod req;

pub use error::ReqError;
pub use fmol::{LinearFmol, Moldability, table1_r_min};
pub use req::{Preemption, Req};

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
