//! Pricing and admission for a utility-driven cluster resource manager
//! (RMS), after Yeo & Buyya, "Pricing for Utility-driven Resource Management
//! and Allocation in Clusters" (Libra+$), with Libra's static cost (Sherwani
//! et al.) as the reference it improves on.
//!
//! The crate owns the four mechanisms of the paper's architecture:
//!
//! * **The job submission specification** (§IV): [`JobSpec`] with the
//!   segments [`JobDetails`], [`ResourceRequirements`], [`QoSConstraints`]
//!   and [`QoSOptimization`] (serde types with the `serde` feature) that
//!   other segments extend; [`JobContext`] is a job as the mechanisms see
//!   it (identifier, arrival, specification).
//! * **Pricing** (§V): the [`PriceFunction`] trait (the job and a node's
//!   [`Quote`] in, a cost out) with [`Flat`]
//!   (`RE·PBase`), [`LibraStatic`] (`γ·RE + δ·RE/D`) and [`LibraDollar`]
//!   (`RE·P_ij`, `P_ij = α·PBase_j + β·PUtil_ij`, eq. 3), and the pure
//!   functions behind them ([`utilisation_rate`], eq. 4, over the
//!   [`Demand`] on a node in the job's window, `RESFree`, eq. 5/6).
//! * **Admission control and node selection** (Algorithm 1): the
//!   [`Admission`] trait, implemented by [`LibraAdmission`], i.e. [`admit`]
//!   over a snapshot of the nodes ([`NodeLoad`]), returning a [`Decision`]:
//!   an [`Allocation`] or one of the three typed [`Rejection`]s; a user's
//!   rule rejects with [`Rejection::Custom`] and its own reason.
//! * **Job control** (Algorithm 2): [`partition`] and the node's [`rates`]
//!   on time-shared nodes, with the paper's open cases named in
//!   [`JobControl`].
//!
//! [`Cluster`] puts them together: a time-shared cluster that admits
//! arriving jobs (with Algorithm 1, or any [`Admission`] rule given to
//! [`Cluster::with_admission`]) and runs them to completion ([`simulate`]
//! and [`simulate_with`] replay a list).
//! [`UrgencyModel`] draws deadlines and budgets as the paper's experiments
//! do, and [`Metrics`] computes Job QoS Satisfaction and Cluster
//! Profitability (eq. 7 and 8).
//!
//! The paper's comparison (§VII) is here too, over any list of jobs:
//!
//! * **Workload** — [`QosWorkload`] turns `profile` jobs into [`QosJob`]s
//!   with an estimate (runtime inaccuracy), a deadline and a budget.
//! * **Baselines** — [`backfill`] runs a [`BaselineScheduler`] on the
//!   machine space-shared: the paper's FCFS-BF, SJF-BF or EDF-BF
//!   ([`Baseline`], EASY backfilling), any `profile::SchedulerConfig`, or a
//!   user's scheduler; a waiting job is dropped by a [`DropRule`], a job that
//!   ends in time pays a flat charge.
//! * **Policies and series** — a [`Series`] parses the names `fcfs-bf`,
//!   `sjf-bf`, `edf-bf`, `libra`, `libra+$` and `libra+$-b<β>` into a
//!   [`Policy`]; [`run_policy`] runs one with the shared settings of a
//!   [`RunConfig`] (Libra and Libra+$ through [`time_shared`]; a user's
//!   baseline through [`run_baseline`], a user's admission rule through
//!   [`time_shared_with`]) and returns
//!   [`RunStats`]: the [`Metrics`], the [`Rejections`] by type and the late
//!   jobs, or a [`PolicyError`].
//!
//! Invariants: a price exists only where the node has free capacity
//! (`RESFree > 0`), otherwise the answer is [`PricingError::NoFreeCapacity`];
//! the Libra+$ rate rises with committed load and falls with a longer
//! deadline for the same work (if there is any: with nothing committed or
//! asked, `PUtil` is 1 whatever the deadline), and never drops below
//! `α·PBase`; an accepted
//! job's cost is within its budget; the rates on a node never sum to more
//! than one processor; with exact estimates every accepted job meets its
//! deadline; a backfilling baseline never starts a job that cannot end by its
//! deadline under [`DropRule::Hopeless`], so with exact estimates none is
//! late; bad input is an error, never a panic. Money is `f64`; time is
//! integer seconds. `pricing` knows nothing about gateways, traces,
//! workload files or experiment configurations: it depends on `profile`
//! alone.
//!
//! Limits (the README's table): times in `[-2^40, 2^40]` s
//! (`profile::Time::LIMIT`), durations in `[1, 2^40]` s
//! (`profile::MAX_DURATION`), at most [`MAX_NODES`] nodes on a time-shared
//! cluster, simulated time up to `Time::LATEST` (2^52 s); anything outside
//! is a typed error ([`PricingError::OutOfDomain`],
//! [`PricingError::TooManyNodes`], [`PricingError::BeyondLatest`]), checked
//! before any allocation, and every run ends.
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
//!
//! A whole run: three jobs on a two-node time-shared cluster under Libra+$.
//!
//! ```
//! use pricing::{simulate, ClusterConfig, JobSpec, LibraDollar, Metrics, Submission};
//! use profile::Time;
//!
//! let job = |id, at, re, procs, d, b| Submission {
//!     id, arrival: Time(at), spec: JobSpec::new(re, procs, d, b), run_time: re,
//! };
//! let jobs = [
//!     job(1, 0, 3600, 2, 7200, 10_000.0),
//!     job(2, 60, 3600, 1, 4000, 10_000.0), // needs 0.9 of a node: no room
//!     job(3, 120, 600, 1, 6000, 700.0),    // fits, but costs more than $700
//! ];
//! let config = ClusterConfig::homogeneous(2, 168, 1.0);
//! let out = simulate(&config, &jobs, &LibraDollar { alpha: 1.0, beta: 0.1 })?;
//! let reasons: Vec<_> = out.iter().map(|o| o.decision.rejection().map(|r| r.reason())).collect();
//! assert_eq!(reasons, [None, Some("cannot_meet_deadline"), Some("cannot_meet_budget")]);
//! let m = Metrics::of(&out);
//! assert_eq!(m.qos_met, 1);
//! assert!(m.profitability()? > 0.0);
//! # Ok::<(), pricing::PricingError>(())
//! ```
#![deny(missing_docs)]

/// `Serialize` and `Deserialize` for `$t`, which derives them with
/// `serde(remote = "Self")`: deserialising goes through the derived code and
/// then `$check`, so a value read from a configuration holds the same
/// invariants as one the constructors and checks accept, and the error is
/// the check's (naming the field and the reason).
#[cfg(feature = "serde")]
macro_rules! checked_serde {
    ($t:ty, $check:expr) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$t>::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = <$t>::deserialize(d)?;
                let check: fn(&$t) -> Result<(), $crate::PricingError> = $check;
                check(&value).map_err(serde::de::Error::custom)?;
                Ok(value)
            }
        }
    };
}

mod admission;
mod baseline;
mod cluster;
mod config;
mod context;
mod control;
mod error;
mod price;
mod qos;
mod run;
mod series;
mod spec;
#[cfg(feature = "testing")]
pub mod testing;
mod workload;

pub use admission::{Admission, Allocation, Decision, LibraAdmission, NodeLoad, Rejection, admit};
pub use baseline::{
    Baseline, BaselineFate, BaselineScheduler, DropRule, ProfileBaseline, backfill,
};
pub use cluster::{Cluster, JobOutcome, Submission, TaskView, simulate, simulate_with};
pub use config::{ClusterConfig, Committed, MAX_NODES, NodeSpec};
pub use context::JobContext;
pub use control::{JobControl, Late, Spare, partition, rates};
pub use error::{ParseSeriesError, PolicyError, PricingError};
pub use price::{
    Demand, Flat, LibraDollar, LibraStatic, PriceFunction, Quote, libra_dollar_rate,
    libra_static_cost, utilisation_rate,
};
pub use qos::{Metrics, QosDraw, Urgency, UrgencyModel};
pub use run::{
    Rejections, RunConfig, RunStats, run_baseline, run_policy, time_shared, time_shared_with,
};
pub use series::{Policy, Series};
pub use spec::{
    JobDetails, JobSpec, NoExtension, Objective, QoSConstraints, QoSOptimization,
    ResourceRequirements,
};
pub use workload::{QosJob, QosWorkload};

/// The README's examples, compiled and run as doctests so they stay true
/// (one reads a file, so they need the `serde` feature; one runs the
/// invariant suite, the `testing` feature).
#[cfg(all(doctest, feature = "serde", feature = "testing"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
