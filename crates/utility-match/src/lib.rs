//! Utility-based matchmaking of jobs to resources and the decentralised
//! grid scheduler of Vasques & Veiga, "A Decentralized Utility-based Grid
//! Scheduling Algorithm" (SAC 2013): a job states each requirement as one or
//! more acceptable options, each with a utility, so a resource that only
//! partly fits still has a value for it; each virtual organisation's local
//! scheduler sends jobs to the resource of highest utility, local or remote,
//! without a central scheduler.
//!
//! * **Matchmaking.** [`Requirement`]s with weighted options ([`Want`] on an
//!   [`Attribute`], utility `α ∈ [0, 1]`, weight `β ∈ [0, 1]`), [`Resource`]s
//!   as attribute values, and the utility of one job on one resource behind
//!   the [`UtilityFunction`] trait: [`PartialUtility`] (eq. 1),
//!   [`BinaryUtility`] (each requirement met or not) and [`Matchmaking`]
//!   (all requirements met, or the resource is unusable); [`UtilityKind`]
//!   names them `pu`, `bu`, `mm`.
//! * **The local scheduler.** A [`Machine`] (static attributes, cores of one
//!   speed, an FCFS queue, unbounded unless given a capacity) reports a [`ResourceStatus`]; each site's
//!   [`StatusTable`] holds its own resources' status and the others' last
//!   [`StatusMessage`] (with its [`SiteSummary`]: average utilisation,
//!   least-loaded resource, resource with most memory). The
//!   [`ResourceManager`] decides when to send the table (Algorithm 1:
//!   periodically, on a load limit, on a job-count limit; [`UpdatePolicy`]);
//!   the [`JobScheduler`] makes Algorithm 2's [`Decision`]: assign to a
//!   local resource, forward to a remote one while the TTL lasts, wait, or
//!   fail.
//! * **The grid.** [`simulate`] runs [`GridJob`]s on sites of machines with
//!   message [`Delays`], giving a [`GridRun`] of [`JobRecord`]s that
//!   [`validate`] checks and [`SystemMetrics`] turns into the paper's
//!   metrics (eqs. 2–6). [`Scenario`] generates §4.2's workload from a seed.
//! * **One simulation as a table.** [`Settings`] holds the scheduler, the
//!   scenario and the grid's configuration as one flat table whose
//!   [`Default`] is the paper's setup under `pu`; [`Settings::scenario`],
//!   [`Settings::grid`] and [`Settings::check`] turn it into the types
//!   above. With the optional `serde` feature, [`Settings`],
//!   [`UtilityKind`] (`"pu"`, `"bu"`, `"mm"`) and the settings enums
//!   ([`LoadTrigger`], [`RemoteView`], [`TieBreak`], [`ExecEstimate`], in
//!   kebab case) are `Serialize` and `Deserialize`, with the keys of the
//!   toolkit's configurations; [`SystemMetrics::get`] reads a metric by
//!   the name those configurations use.
//!
//! Invariants: every utility lies in `[0, 1]`; for the same job and resource
//! partial ≥ binary ≥ matchmaking; a missing attribute meets no option; a job
//! with no requirement has utility 1 everywhere. In a simulation a job is
//! assigned only to a resource with room in the assigning site's view, is
//! forwarded at most `max_ttl` times, and ends exactly once (completed or
//! failed); the same input gives the same run. `utility-match` knows nothing
//! about traces, backfilling, gateways or pricing: among this project's
//! crates it depends on `profile` alone (for [`Time`](profile::Time) and the
//! event queue).
//!
//! Limits (the README's table): submit times in `[0, 2^40]` s, job lengths
//! up to [`MAX_LENGTH`] MI, delays and status periods up to 2^40 s,
//! `max_ttl` up to [`MAX_TTL`], at most [`MAX_VIEW_ENTRIES`] entries in the
//! sites' views and [`MAX_JOBS`] generated jobs, a run of at most
//! [`MAX_STATUS_PERIODS`] status periods; anything outside is a
//! [`GridError`] naming the setting or job.
//!
//! ```
//! use utility_match::{
//!     simulate, validate, Attribute, BinaryUtility, GridConfig, Matchmaking, PartialUtility,
//!     Requirement, Resource, Scenario, SystemMetrics, UtilityFunction, UtilityKind, Want,
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
//!
//! // A small version of §4.2's grid, scheduled by partial utility.
//! let scenario = Scenario { users: 8, jobs_per_user: 5, ..Scenario::paper() };
//! let w = scenario.generate(42)?;
//! let config = GridConfig::default();
//! let run = simulate(&config, &UtilityKind::Partial, &w.machines, &w.jobs)?;
//! validate(&w.machines, &w.jobs, &run, config.max_ttl)?;
//! let m = SystemMetrics::of(&run)?;
//! assert!((0.0..=1.0).contains(&m.success_ratio));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod error;
mod grid;
mod machine;
mod manager;
mod metrics;
mod model;
mod scenario;
mod scheduler;
mod settings;
#[cfg(feature = "testing")]
pub mod testing;
mod utility;

pub use error::{GridError, UtilityError, Violation};
pub use grid::{
    Delays, GridConfig, GridObserver, GridRun, JobRecord, JobStatus, MAX_LENGTH,
    MAX_STATUS_PERIODS, MAX_TTL, MAX_VIEW_ENTRIES, MachineUsage, NoObserver, simulate,
    simulate_observed, validate,
};
pub use machine::{
    Machine, RemoteView, ResourceId, ResourceStatus, SiteSummary, StatusMessage, StatusTable,
};
pub use manager::{LoadTrigger, LocalEvent, ResourceManager, UpdatePolicy};
pub use metrics::{SystemMetrics, UserMetrics, load_balance, user_metrics};
pub use model::{Attribute, Requirement, Resource, Value, Want};
pub use scenario::{
    GridWorkload, MAX_JOBS, MAX_OPTION_ENTRIES, MAX_OPTIONS, REQUIREMENT_TYPES, Scenario,
    draw_utility, stream,
};
pub use scheduler::{Decision, ExecEstimate, FailReason, GridJob, JobScheduler, TieBreak};
pub use settings::Settings;
pub use utility::{BinaryUtility, Matchmaking, PartialUtility, UtilityFunction, UtilityKind};

/// The README's examples, compiled and run as doctests so they stay true
/// (one runs the invariant suite: the `testing` feature).
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
