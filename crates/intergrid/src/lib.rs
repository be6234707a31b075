//! Multiple-site provisioning played out, after Assunção & Buyya,
//! "Performance Analysis of Multiple Site Resource Provisioning: Effects of
//! the Precision of Availability Information" (HiPC 2008): clusters of
//! `partitions-forecast` run their local jobs under a provider policy, the
//! `gateway` places grid jobs on them, and the run is measured against a
//! base run.
//!
//! This crate owns the composition of the two policy crates, which know
//! nothing of each other:
//!
//! * [`Site`] adapts a [`partitions_forecast::Cluster`] to
//!   [`gateway::Provider`]; [`refusal`] maps the cluster's reservation
//!   errors to the gateway's refusals.
//! * [`Series`] names one curve of the paper's figures, a provider policy
//!   and a gateway policy ([`GatewayKind`]): `arcb+earliest-partial`,
//!   `arebmf+least-load`, ... (`FromStr` and `Display` round-trip; with the
//!   `serde` feature it is a string in configs).
//! * [`simulate`] runs a [`Scenario`] (grid jobs, local jobs per cluster,
//!   a warm-up) on a platform ([`Config`]) under one series and returns a
//!   [`Run`]: every job's start and end, violations, messages.
//!   [`validate`] is the check every cluster's schedule passes first.
//!   [`simulate_with`] and [`evaluate_with`] do the same for a series of
//!   one's own: any [`partitions_forecast::Partitioning`] at the clusters
//!   and any [`gateway::Provisioning`] at the gateway, measured as the
//!   paper's series are.
//! * [`Priced`] puts another paper's policy at the providers: Libra+$
//!   pricing and admission (`pricing`, Yeo & Buyya) in front of each
//!   cluster, through [`gateway::Provider`] and [`pricing::Admission`];
//!   [`Config::pricing`] turns it on ([`ProviderPricing`]), and a run's
//!   [`Run::revenue`] is what the accepted grid jobs paid.
//! * [`Scenario::deadlines`] gives a share of grid jobs deadlines from
//!   their response times in a base run; [`Run::metrics`] measures a run
//!   against a base run ([`Metrics`]: bounded slowdowns, the improvement
//!   ratio R of eq. 2 via [`ratio`], violations, messages, rejections);
//!   [`evaluate`] does all three the paper's way ([`Evaluation`]).
//!
//! Invariants: time is whole seconds; the same config, scenario, series and
//! seed give the same run, bit for bit; no run is measured unless every
//! cluster's schedule is valid (capacity never exceeded, every job ran,
//! every reservation started exactly on time) and every local job ran; a
//! run measured against itself has R = 0; bad input is an
//! [`IntergridError`], never a panic. `intergrid` knows nothing about
//! traces, workload models or experiment configs: callers bring the jobs.
//! It depends on `profile`, `gateway`, `partitions-forecast` and `pricing`
//! only; `pricing` stays free of gateways and `gateway` of prices.
//!
//! Limits: the clusters take what `partitions-forecast` accepts and the
//! gateway what `gateway` accepts (their README tables); a deadline
//! stringency that puts a deadline past 2^40 s is
//! [`IntergridError::DeadlinePastLimit`].
//!
//! ```
//! use intergrid::{Config, Evaluation, Scenario, Series, evaluate, simulate};
//! use profile::{Job, Time};
//!
//! // Two clusters of 8 processors, each with a few local jobs; grid jobs
//! // get ids of their own.
//! let local = |first: u64| -> Vec<Job> {
//!     (0..6).map(|i| Job::new(first + i, Time(600 * i as i64), 4, 1800, 1200)).collect()
//! };
//! let grid: Vec<Job> = (0..8)
//!     .map(|i| Job::new(1000 + i, Time(300 + 450 * i as i64), 6, 900, 600))
//!     .collect();
//! let scenario = Scenario { grid, local: vec![local(0), local(100)], warmup: Time(0) };
//! let config = Config::paper(vec![8, 8], 3600);
//!
//! let series: Series = "arcb+earliest-ask".parse()?;
//! assert_eq!(series.to_string(), "arcb+earliest-ask");
//! let run = simulate(&config, &scenario, series, None)?;
//! // `ask`: a request and a reply per provider, and a submission, per job.
//! assert_eq!(run.messages(), 8 * (2 * 2 + 1));
//! // Conservative backfilling keeps its promises: no violation.
//! assert!(run.violations().iter().all(|&v| v == 0));
//!
//! // Against ArEb + least-load, with half of the grid jobs on a deadline.
//! let evaluation = Evaluation {
//!     base: "areb+least-load".parse()?,
//!     deadline_share: 0.5,
//!     stringency: 5.0,
//!     deadline_seed: 7,
//!     bsld_bound: 10,
//! };
//! let m = evaluate(&config, &scenario, series, &evaluation)?;
//! assert_eq!((m.grid_jobs, m.local_jobs), (8, 12));
//! assert!(m.grid_bsld >= 1.0 && m.grid_r.is_finite());
//! # Ok::<(), intergrid::IntergridError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod metrics;
mod priced;
mod series;
mod simulate;
mod site;
mod validate;

pub use error::{IntergridError, Violation};
pub use metrics::{Evaluation, Metrics, bsld, evaluate, evaluate_with, ratio};
pub use priced::{Priced, ProviderPricing};
pub use series::{GatewayKind, Series};
pub use simulate::{Config, Run, Scenario, simulate, simulate_with};
pub use site::{Site, refusal};
pub use validate::validate;

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
