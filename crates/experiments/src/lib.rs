//! The experiment pipeline: typed TOML configurations in, simulated
//! schedules, plotted points, figures and checked claims out.
//!
//! An [`Experiment`] is one figure of a paper: workloads (traces with
//! transforms, or a generator), an x axis, the series of a *kind* (the
//! runner, e.g. `backfilling`, with its own typed `[params]` table), seeds
//! and repetitions, panels (one metric each) and claims. [`run`] expands it
//! into independent cells (x × series × repetition), runs them in parallel,
//! and aggregates them into [`Row`]s; [`Results`] renders `data.csv`,
//! `figure.svg`, `summary.md` and `run.toml`, and [`Claim::check`] turns
//! each claim into a PASS/FAIL [`Verdict`].
//!
//! Invariants: this crate never touches the file system or the network (the
//! caller reads traces and writes outputs); the same configuration and
//! traces give byte-identical outputs, whatever the thread count; every
//! simulated schedule passes `profile::validate` before its metrics count.
//!
//! ```
//! use experiments::{run, Experiment, RunOptions, Traces};
//!
//! let config = r#"
//! version = 2
//! id = "demo/fig1"
//! title = "FCFS and EASY on a small synthetic workload"
//! paper = "Mu'alem and Feitelson, IEEE TPDS 12(6), 2001"
//! kind = "backfilling"
//! seed = 7
//! series = ["fcfs", "easy"]
//!
//! [[workloads]]
//! label = "Lublin99"
//! lublin99 = { procs = 64, jobs = 300 }
//!
//! [sweep]
//! axis = "workload"
//! label = "workload"
//!
//! [[panels]]
//! id = "bsld"
//! metric = "mean_bsld"
//!
//! [[claims]]
//! text = "EASY gives lower bounded slowdown than FCFS"
//! check.below = { panel = "bsld", series = "easy", than = "fcfs" }
//! "#;
//! let experiment = Experiment::parse(config, "demo.toml")?;
//! let results = run(&experiment, &Traces::new(), &RunOptions::default())?;
//! assert_eq!(results.rows.len(), 2); // one panel × one x × two series
//! assert!(results.csv().starts_with("panel,series,x,y,ci_lo,ci_hi,runs\n"));
//! println!("{}: {}", results.verdicts[0].label(), results.verdicts[0].ours);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod cache;
mod cells;
mod check;
mod claim;
mod claims;
mod config;
mod csv;
mod describe;
mod digest;
mod domain;
pub mod encode;
mod error;
mod experiment;
mod figure;
mod graph;
mod kind;
mod kinds;
mod limits;
mod locate;
mod numfmt;
mod par;
mod plan;
mod registry;
mod report;
mod results;
mod run;
mod samples;
mod schedule_svg;
mod schema_doc;
mod seed;
mod stats;
mod svg;
mod sweep;
mod transform;
mod workload;
mod workload_checks;
mod written;

pub use cache::RunCache;
pub use cells::{
    CELLS_VERSION, CellRecord, CellsError, MergeError, RunValues, ShardCells, cell_labels,
    cell_runs, merge, run_shard,
};
pub use check::{
    ResultsError, RunToml, aggregate, check_results, check_run_inputs, check_run_toml,
    workload_facts, written_rows,
};
pub use claim::{Cause, Claim};
pub use claims::{Outcome, Verdict, check_claims};
pub use config::{CONFIG_VERSION, ConfigError, Reading, TraceRef};
pub use csv::{CSV_HEADER, CsvError, Row, parse_csv, write_csv};
pub use describe::{DescribeStyle, describe, documented_keys};
pub use digest::{is_sha256_hex, sha256_hex};
pub use error::RunError;
pub use experiment::Experiment;
pub use figure::{Figure, PanelInfo};
pub use graph::Shard;
pub use kind::{
    CanonicalError, Input, Kind, Metric, PAPER_ONLY, Param, ParamError, ParamReset, Schedule,
    Setup, Workloads, check_canonical, overrides,
};
pub use kinds::{
    AdaptiveInterval, GridMonths, PricingSetup, ProvisioningRound, adaptive_intervals,
    pricing_setup, provisioning_round, provisioning_scenario, replay, replay_policy,
};
pub use limits::Limits;
pub use numfmt::{fmt_exact, fmt_num, fmt_short};
pub use registry::{Policies, PolicyName, Registry, RegistryError};
pub use report::{DocEntry, Setting, reproduction_doc, tally};
pub use results::{Provenance, Results, run};
pub use run::{Progress, RunOptions, RunSchedule, schedules};
pub use samples::{SAMPLES_HEADER, Samples, Unit};
pub use schedule_svg::ScheduleView;
pub use seed::derive_seed;
pub use workload::{
    KNOWN_TRACES, KnownTrace, Source, Traces, Workload, WorkloadFacts, known_trace, workload_from,
};
pub use written::{Written, check_written};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
