//! Workloads: from a trace (or a generator) to the jobs one simulation
//! replays, with the facts a summary reports (records dropped, checksums).
//!
//! This module never touches the file system: the caller resolves and reads
//! traces and hands them over as [`Source`]s.

use std::collections::BTreeMap;

use profile::Job;
use serde::Serialize;
use swf_io::lublin99::Lublin99;
use swf_io::{Estimate, SwfRecord, Trace};

use crate::config::{Transform, WorkloadSpec};
use crate::run::RunError;

/// A trace the Parallel Workloads Archive publishes, as we know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownTrace {
    /// Canonical name, without `.swf.gz`.
    pub name: &'static str,
    /// The archive's directory for it (`l_sdsc_sp2`).
    pub archive_dir: &'static str,
    /// Machine size in processors (the header's MaxProcs).
    pub procs: u32,
    /// Data lines in the file.
    pub jobs: usize,
    /// SHA-256 of the archive's `.swf.gz`, lower-case hex.
    pub sha256: &'static str,
}

impl KnownTrace {
    /// The file name in the archive and in caches.
    pub fn file_name(&self) -> String {
        format!("{}.swf.gz", self.name)
    }
}

/// The traces this project uses, with the checksums of `shared/traces/SOURCES.md`.
pub const KNOWN_TRACES: &[KnownTrace] = &[
    KnownTrace {
        name: "SDSC-SP2-1998-4.2-cln",
        archive_dir: "l_sdsc_sp2",
        procs: 128,
        jobs: 59_715,
        sha256: "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
    },
    KnownTrace {
        name: "DAS2-fs1-2003-1",
        archive_dir: "l_das2",
        procs: 64,
        jobs: 40_315,
        sha256: "f5a195674b25767355b8ecfa94d71da872ff08925255d225fdb30881e5819440",
    },
    KnownTrace {
        name: "CTC-SP2-1996-3.1-cln",
        archive_dir: "l_ctc_sp2",
        procs: 338,
        jobs: 77_222,
        sha256: "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
    },
    KnownTrace {
        name: "KTH-SP2-1996-2.1-cln",
        archive_dir: "l_kth_sp2",
        procs: 100,
        jobs: 28_476,
        sha256: "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
    },
    KnownTrace {
        name: "LANL-CM5-1994-4.1-cln",
        archive_dir: "l_lanl_cm5",
        procs: 1024,
        jobs: 122_060,
        sha256: "71ff3dfa301b3ee1bd30ebc63c5363b5e8ec488e75f1f9398aa46d485ef23c3c",
    },
    KnownTrace {
        name: "SDSC-BLUE-2000-4.2-cln",
        archive_dir: "l_sdsc_blue",
        procs: 1152,
        jobs: 243_306,
        sha256: "9aab21f3cfa108f3ecefa52391b384d996dcf4216f920186f47a734646b2c658",
    },
    KnownTrace {
        name: "HPC2N-2002-2.2-cln",
        archive_dir: "l_hpc2n",
        procs: 240,
        jobs: 202_871,
        sha256: "3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64",
    },
    KnownTrace {
        name: "SDSC-Par-1996-3.1-cln",
        archive_dir: "l_sdsc_par",
        procs: 400,
        jobs: 32_135,
        sha256: "cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7",
    },
];

/// Looks a trace up by name (with or without `.swf`/`.swf.gz`).
pub fn known_trace(name: &str) -> Option<&'static KnownTrace> {
    let name = name.trim_end_matches(".gz").trim_end_matches(".swf");
    KNOWN_TRACES.iter().find(|t| t.name == name)
}

/// A trace as the caller found it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Source {
    /// A parsed SWF file.
    Trace {
        /// The file name (no directories), as reported in outputs.
        file: String,
        /// SHA-256 of the file's bytes, lower-case hex.
        sha256: String,
        /// The parsed trace.
        trace: Box<Trace>,
        /// A warning to carry into the outputs (e.g. a checksum that differs
        /// from the archive's).
        note: Option<String>,
    },
    /// The trace could not be found: a seeded Lublin99 workload of the same
    /// machine size and job count takes its place. Results are NOT
    /// comparable to the paper.
    StandIn {
        /// The trace it replaces.
        known: &'static KnownTrace,
    },
}

impl Source {
    /// A parsed trace with its checksum.
    pub fn trace(file: String, sha256: String, trace: Trace, note: Option<String>) -> Source {
        Source::Trace {
            file,
            sha256,
            trace: Box::new(trace),
            note,
        }
    }

    /// A Lublin99 stand-in for a known trace.
    pub fn stand_in(known: &'static KnownTrace) -> Source {
        Source::StandIn { known }
    }

    /// Whether this is a stand-in.
    pub fn is_stand_in(&self) -> bool {
        matches!(self, Source::StandIn { .. })
    }
}

/// Sources by trace name, as written in the configuration.
pub type Traces = BTreeMap<String, Source>;

/// The jobs one simulation replays on a machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Display name.
    pub label: String,
    /// Machine size in processors.
    pub capacity: u32,
    /// Jobs in non-decreasing submit order, none wider than the machine.
    pub jobs: Vec<Job>,
}

/// What a summary says about a workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkloadFacts {
    /// Display name.
    pub label: String,
    /// The trace file, or a description of the generator.
    pub source: String,
    /// SHA-256 of the trace file, if it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Whether a generated stand-in replaced a missing trace.
    pub stand_in: bool,
    /// The kind generates its own jobs from its `[params]`: the trace
    /// counts below do not apply.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub generated_by_kind: bool,
    /// The seed of a generated workload (written as a string: TOML integers
    /// stop at `i64::MAX`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::report::seed_as_string"
    )]
    pub seed: Option<u64>,
    /// Machine size in processors.
    pub capacity: u32,
    /// Records read (data lines).
    pub records: usize,
    /// Line numbers of malformed lines skipped in lenient mode.
    pub skipped_lines: Vec<u64>,
    /// Records dropped as unreplayable (no size, run time or submit time).
    pub unreplayable: usize,
    /// Jobs whose requested time was missing (estimate = run time).
    pub no_estimate: usize,
    /// Jobs dropped for being wider than the machine.
    pub too_wide: usize,
    /// Jobs dropped by the configured transforms.
    pub transformed_away: usize,
    /// Jobs simulated.
    pub jobs: usize,
    /// Warnings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The raw input of a workload: records plus their provenance.
pub(crate) enum Input<'a> {
    /// A trace read by the caller.
    Read(&'a Source),
    /// A Lublin99 workload generated here.
    Generated {
        procs: u32,
        jobs: usize,
        two_class: bool,
    },
    /// No jobs: the kind generates its own (described by the text).
    ByKind(&'a str),
}

/// Turns a source into a workload of jobs, dropping unreplayable records and
/// jobs wider than the machine (both counted). `seed` feeds generators.
///
/// The machine size is the header's MaxProcs, else MaxNodes, else the widest job.
pub fn workload_from(
    source: &Source,
    label: &str,
    estimate: Estimate,
    seed: u64,
) -> (Workload, WorkloadFacts) {
    convert(&Input::Read(source), label, estimate, seed)
}

fn generate(procs: u32, jobs: usize, two_class: bool, seed: u64) -> Vec<SwfRecord> {
    Lublin99 {
        procs,
        duration: i64::MAX,
        max_jobs: Some(jobs),
        seed,
        two_class,
    }
    .generate()
}

pub(crate) fn convert(
    input: &Input<'_>,
    label: &str,
    estimate: Estimate,
    seed: u64,
) -> (Workload, WorkloadFacts) {
    let generated;
    let mut facts = WorkloadFacts {
        label: label.to_string(),
        source: String::new(),
        sha256: None,
        stand_in: false,
        generated_by_kind: false,
        seed: None,
        capacity: 0,
        records: 0,
        skipped_lines: Vec::new(),
        unreplayable: 0,
        no_estimate: 0,
        too_wide: 0,
        transformed_away: 0,
        jobs: 0,
        note: None,
    };
    let (records, size): (&[SwfRecord], Option<u64>) = match *input {
        Input::Read(Source::Trace {
            file,
            sha256,
            trace,
            note,
        }) => {
            facts.source = file.clone();
            facts.sha256 = Some(sha256.clone());
            facts.note = note.clone();
            facts.skipped_lines = trace.skipped.iter().map(|s| s.line).collect();
            (
                &trace.records,
                trace.header.max_procs.or(trace.header.max_nodes),
            )
        }
        Input::Read(Source::StandIn { known }) => {
            generated = generate(known.procs, known.jobs, true, seed);
            facts.source = format!(
                "Lublin99 stand-in for {} ({} procs, {} jobs)",
                known.name, known.procs, known.jobs
            );
            facts.stand_in = true;
            facts.seed = Some(seed);
            facts.note = Some(format!(
                "{} was not found; a seeded Lublin99 workload of {} procs and {} jobs replaced it",
                known.file_name(),
                known.procs,
                known.jobs
            ));
            (&generated, Some(u64::from(known.procs)))
        }
        Input::Generated {
            procs,
            jobs,
            two_class,
        } => {
            generated = generate(procs, jobs, two_class, seed);
            facts.source = format!("Lublin99 generator ({procs} procs, {jobs} jobs)");
            facts.seed = Some(seed);
            (&generated, Some(u64::from(procs)))
        }
        Input::ByKind(text) => {
            facts.source = text.to_string();
            facts.generated_by_kind = true;
            (&[], None)
        }
    };
    facts.records = records.len();
    let conversion = swf_io::to_jobs(records, estimate);
    facts.unreplayable = conversion.unreplayable;
    facts.no_estimate = conversion.no_estimate;
    let widest = conversion.jobs.iter().map(|j| j.procs).max().unwrap_or(1);
    let capacity = size
        .map_or(widest, |s| u32::try_from(s).unwrap_or(u32::MAX))
        .max(1);
    let (jobs, too_wide) = swf_io::cap_procs(conversion.jobs, capacity);
    facts.too_wide = too_wide;
    facts.capacity = capacity;
    facts.jobs = jobs.len();
    (
        Workload {
            label: label.to_string(),
            capacity,
            jobs,
        },
        facts,
    )
}

/// Builds one workload of an experiment: conversion, transforms, then the
/// load factor of a `load` sweep.
pub(crate) fn prepare(
    spec: &WorkloadSpec,
    input: &Input<'_>,
    load: Option<f64>,
    seed: u64,
) -> Result<(Workload, WorkloadFacts), RunError> {
    let (mut w, mut facts) = convert(input, spec.label.get_ref(), spec.estimate.to_swf(), seed);
    let before = w.jobs.len();
    for t in &spec.transforms {
        let jobs = std::mem::take(&mut w.jobs);
        w.jobs = match *t {
            Transform::DropShorterThan(secs) => swf_io::drop_shorter_than(jobs, secs).0,
            Transform::LastN(n) => swf_io::last_n(jobs, n),
            Transform::ScaleLoad(f) => swf_io::scale_load(jobs, f),
        };
    }
    if let Some(f) = load {
        w.jobs = swf_io::scale_load(std::mem::take(&mut w.jobs), f);
    }
    facts.transformed_away = before - w.jobs.len();
    facts.jobs = w.jobs.len();
    if w.jobs.is_empty() && !matches!(input, Input::ByKind(_)) {
        return Err(RunError::EmptyWorkload { label: w.label });
    }
    Ok((w, facts))
}
