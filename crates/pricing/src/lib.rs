//! Pricing for a utility-driven cluster resource manager, after Yeo & Buyya,
//! "Pricing for Utility-driven Resource Management and Allocation in
//! Clusters" (Libra+$), with Libra's static cost (Sherwani et al.) as the
//! reference it improves on.
//!
//! **Implemented now**: the pricing functions as pure functions over integer
//! amounts of one resource: Libra's static cost [`libra_static_cost`]
//! (`γ·RE + δ·RE/D`); the Libra+$ rate [`libra_dollar_rate`]
//! (`P = α·PBase + β·PUtil`, eq. 3) with [`utilisation_rate`]
//! (`PUtil = RESMax/RESFree · PBase`, eq. 4) over the [`Demand`] a job puts
//! on a node in its window from arrival to deadline (`RESFree`, eq. 5/6);
//! and the [`PriceFunction`] trait with [`Flat`], [`LibraStatic`] and
//! [`LibraDollar`] that turns a [`Quote`] into the cost Algorithm 1 compares
//! with a budget.
//!
//! **Planned** (issue 4): the user-level job submission specification as
//! extensible segments (JobDetails, ResourceRequirements, QoSConstraints,
//! QoSOptimization); economy-based admission control and node selection
//! (Algorithm 1) with its three rejection reasons as typed outcomes; the
//! proportional-share job control of Algorithm 2 on time-shared nodes.
//!
//! Invariants: a price exists only where the node has free capacity
//! (`RESFree > 0`), otherwise the answer is [`PricingError::NoFreeCapacity`];
//! the Libra+$ rate rises with committed load and falls with a longer
//! deadline for the same work, and never drops below `α·PBase`; bad input is
//! an error, never a panic. Money is `f64`; time and resource amounts are
//! integers. `pricing` knows nothing about gateways, traces, workload files
//! or experiments: it depends on `profile` alone.
//!
//! The paper's worked example (§V-B): a job needs 10 units of memory on a
//! node with 100 free units per hour of deadline, 90 of them committed, at
//! $1 per unit. A 2-hour deadline costs $2 per unit of utilisation price, a
//! 5-hour deadline $1.25:
//!
//! ```
//! use pricing::{libra_dollar_rate, utilisation_rate, Demand};
//!
//! let two_hours = Demand { res_max: 200, committed: 90, requested: 10 };
//! let five_hours = Demand { res_max: 500, committed: 90, requested: 10 };
//! assert_eq!(utilisation_rate(1.0, two_hours)?, 2.0);
//! assert_eq!(utilisation_rate(1.0, five_hours)?, 1.25);
//!
//! // Libra+$ with the paper's α = 1, β = 0.1.
//! assert_eq!(libra_dollar_rate(1.0, 0.1, 1.0, five_hours)?, 1.125);
//! # Ok::<(), pricing::PricingError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod price;

pub use error::PricingError;
pub use price::{
    Demand, Flat, LibraDollar, LibraStatic, PriceFunction, Quote, libra_dollar_rate,
    libra_static_cost, utilisation_rate,
};

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
