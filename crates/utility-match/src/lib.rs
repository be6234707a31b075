//! Utility-based matchmaking of jobs to resources, after Vasques & Veiga,
//! "A Decentralized Utility-based Grid Scheduling Algorithm": a job states
//! each requirement as one or more acceptable options, each with a utility,
//! so a resource that only partly fits still has a value for it.
//!
//! **Implemented now**: [`Requirement`]s with weighted options ([`Want`] on
//! an [`Attribute`], utility `α ∈ [0, 1]`, weight `β ∈ [0, 1]`), [`Resource`]s
//! as attribute values, and the utility of one job on one resource behind the
//! [`UtilityFunction`] trait: [`PartialUtility`] (eq. 1), [`BinaryUtility`]
//! (each requirement met or not) and [`Matchmaking`] (all requirements met,
//! or the resource is unusable).
//!
//! **Planned** (issue 6): the local scheduler of each virtual organisation:
//! the Resource Manager (Algorithm 1: a status table of local and remote
//! resources, with status sent periodically, when load or the job count
//! exceeds a limit) and the Job Scheduler (Algorithm 2: local jobs go to the
//! resource of highest utility, local or remote; a remote job is re-checked
//! on arrival and re-evaluated or forwarded until its TTL runs out); the
//! summary one site sends the others (average utilisation, least-loaded
//! resource, resource with most memory).
//!
//! Invariants: every utility lies in `[0, 1]`; for the same job and resource
//! partial ≥ binary ≥ matchmaking; a missing attribute meets no option; a job
//! with no requirement has utility 1 everywhere. `utility-match` knows
//! nothing about traces, clusters' backfilling, gateways or pricing: it
//! depends on `profile` alone.
//!
//! ```
//! use utility_match::{
//!     Attribute, BinaryUtility, Matchmaking, PartialUtility, Requirement, Resource,
//!     UtilityFunction, Want,
//! };
//!
//! // The paper's example: MacOS is worth 1 to the user, Linux 0.5.
//! let job = vec![
//!     Requirement::new(Attribute::Os, 1.0, vec![
//!         (Want::Is("MacOS".into()), 1.0),
//!         (Want::Is("Linux".into()), 0.5),
//!     ])?,
//!     Requirement::new(Attribute::Cores, 1.0, vec![(Want::AtLeast(4), 1.0)])?,
//! ];
//! let linux_box = Resource::new().with(Attribute::Os, "Linux").with(Attribute::Cores, 8);
//!
//! assert_eq!(PartialUtility.utility(&job, &linux_box), 0.75); // (0.5 + 1) / 2
//! assert_eq!(BinaryUtility.utility(&job, &linux_box), 0.5); // (0 + 1) / 2
//! assert_eq!(Matchmaking.utility(&job, &linux_box), 0.0); // MacOS is not met
//! # Ok::<(), utility_match::UtilityError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod model;
mod utility;

pub use error::UtilityError;
pub use model::{Attribute, Requirement, Resource, Value, Want};
pub use utility::{BinaryUtility, Matchmaking, PartialUtility, UtilityFunction};

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
