//! Workloads: from a trace (or a generator) to the jobs one simulation
//! replays, with the facts a summary reports (records dropped, checksums).
//!
//! This module never touches the file system: the caller resolves and reads
//! traces and hands them over as [`Source`]s.

use std::collections::BTreeMap;

use profile::Job;
use serde::{Deserialize, Serialize};
use swf_io::lublin99::{Arrivals, Lublin99};
use swf_io::{Estimate, SwfRecord, Trace};

use crate::config::{Transform, WorkloadSpec};
use crate::error::RunError;

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
    /// SHA-256 of the decompressed SWF text, lower-case hex. This is what
    /// a copy is verified against, so a recompressed `.swf.gz` or a plain
    /// `.swf` with the same text is accepted.
    pub content_sha256: &'static str,
    /// SHA-256 of the `.swf.gz` this project keeps (the archive's own gzip
    /// stream, except `DAS2-fs1-2003-1`, compressed here with `gzip -9 -n`);
    /// provenance only, never used to accept or refuse a copy.
    pub file_sha256: &'static str,
    /// The header's `UnixStartTime`: submit time 0 of the log.
    pub start_unix: i64,
    /// The last submit time in the log (seconds after `start_unix`): a
    /// stand-in covers the same span.
    pub last_submit: i64,
}

impl KnownTrace {
    /// The file name in the archive and in caches.
    pub fn file_name(&self) -> String {
        format!("{}.swf.gz", self.name)
    }

    /// Days from the log's start to its last submission, rounded up.
    pub fn span_days(&self) -> i64 {
        (self.last_submit + 86_399) / 86_400
    }
}

/// The traces this project uses, with the checksums and header facts of
/// the files in `traces/` (and `shared/traces/SOURCES.md`).
pub const KNOWN_TRACES: &[KnownTrace] = &[
    KnownTrace {
        name: "SDSC-SP2-1998-4.2-cln",
        archive_dir: "l_sdsc_sp2",
        procs: 128,
        jobs: 59_715,
        content_sha256: "2bb635f4b5793f52bd49ccb8fd913d95f9c5be6346925162cadcaf0117e28cf2",
        file_sha256: "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
        start_unix: 893_466_664,
        last_submit: 63_582_293,
    },
    KnownTrace {
        name: "DAS2-fs1-2003-1",
        archive_dir: "l_das2",
        procs: 64,
        jobs: 40_315,
        content_sha256: "9ca5b9e94026112e9025f8ff78b55a78ca59b5f04771c5973d9ddd7729ac0211",
        file_sha256: "f5a195674b25767355b8ecfa94d71da872ff08925255d225fdb30881e5819440",
        start_unix: 1_041_377_305,
        last_submit: 31_077_267,
    },
    KnownTrace {
        name: "CTC-SP2-1996-3.1-cln",
        archive_dir: "l_ctc_sp2",
        procs: 338,
        jobs: 77_222,
        content_sha256: "8e33a9b597e1ddda2d2164347bac08c9444e1a2620a7947df52f0a1622ec4cde",
        file_sha256: "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
        start_unix: 835_823_160,
        last_submit: 29_299_062,
    },
    KnownTrace {
        name: "KTH-SP2-1996-2.1-cln",
        archive_dir: "l_kth_sp2",
        procs: 100,
        jobs: 28_476,
        content_sha256: "fba36494c4e4257f72182e8b629ebb0bcb054b3b82851ef957445bd627adcc87",
        file_sha256: "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
        start_unix: 843_480_031,
        last_submit: 29_363_618,
    },
    KnownTrace {
        name: "LANL-CM5-1994-4.1-cln",
        archive_dir: "l_lanl_cm5",
        procs: 1024,
        jobs: 122_060,
        content_sha256: "4766a62dabcc7403ec0a55534aff297203e692ddbf6637bd40100a3800f6354a",
        file_sha256: "71ff3dfa301b3ee1bd30ebc63c5363b5e8ec488e75f1f9398aa46d485ef23c3c",
        start_unix: 781_275_672,
        last_submit: 62_288_828,
    },
    KnownTrace {
        name: "SDSC-BLUE-2000-4.2-cln",
        archive_dir: "l_sdsc_blue",
        procs: 1152,
        jobs: 243_306,
        content_sha256: "13892839f430583231a14bb811fd50a31b5b529eb37faacdbbefb71e73390e3e",
        file_sha256: "9aab21f3cfa108f3ecefa52391b384d996dcf4216f920186f47a734646b2c658",
        start_unix: 956_700_003,
        last_submit: 84_590_739,
    },
    KnownTrace {
        name: "HPC2N-2002-2.2-cln",
        archive_dir: "l_hpc2n",
        procs: 240,
        jobs: 202_871,
        content_sha256: "77b8993c73ae438385f6c0015708251f52dc316267b03ac19a406fbea2802afa",
        file_sha256: "3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64",
        start_unix: 1_027_839_845,
        last_submit: 109_583_573,
    },
    KnownTrace {
        name: "SDSC-Par-1996-3.1-cln",
        archive_dir: "l_sdsc_par",
        procs: 400,
        jobs: 32_135,
        content_sha256: "fcb46fa6462b7ac460963025749f604f28b2e813101edd082a720842e80a7aa8",
        file_sha256: "cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7",
        start_unix: 820_090_437,
        last_submit: 32_014_059,
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
        /// SHA-256 of the SWF text (after decompression), lower-case hex:
        /// the same for a `.swf` and any `.swf.gz` of it.
        sha256: String,
        /// SHA-256 of the file's own bytes, if the caller computed it
        /// (provenance: which compressed copy was read).
        file_sha256: Option<String>,
        /// The parsed trace.
        trace: Box<Trace>,
        /// A warning to carry into the outputs (e.g. a checksum that differs
        /// from the archive's).
        note: Option<String>,
    },
    /// The trace could not be found: a seeded Lublin99 workload of the same
    /// machine size, over the same span of time, takes its place. Results
    /// are NOT comparable to the paper.
    StandIn {
        /// The trace it replaces.
        known: &'static KnownTrace,
    },
}

impl Source {
    /// A parsed trace with the checksum of its SWF text.
    pub fn trace(file: String, sha256: String, trace: Trace, note: Option<String>) -> Source {
        Source::Trace {
            file,
            sha256,
            file_sha256: None,
            trace: Box::new(trace),
            note,
        }
    }

    /// Records the checksum of the file's own bytes (kept for provenance in
    /// `run.toml`); a stand-in is returned unchanged.
    pub fn with_file_sha256(mut self, sha256: String) -> Source {
        if let Source::Trace { file_sha256, .. } = &mut self {
            *file_sha256 = Some(sha256);
        }
        self
    }

    /// A Lublin99 stand-in for a known trace.
    pub fn stand_in(known: &'static KnownTrace) -> Source {
        Source::StandIn { known }
    }

    /// Whether this is a stand-in.
    pub fn is_stand_in(&self) -> bool {
        matches!(self, Source::StandIn { .. })
    }

    /// The machine size in processors the source gives: a trace header's
    /// `MaxProcs`, else its `MaxNodes` (`None` if both are missing, -1 or
    /// 0); a stand-in's known machine.
    pub fn machine_size(&self) -> Option<u32> {
        match self {
            Source::Trace { trace, .. } => trace.header.machine_size(),
            Source::StandIn { known } => Some(known.procs),
        }
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
    /// The Unix time of submit time 0, if the source gives it (a trace
    /// header's `UnixStartTime`; a stand-in's, the log's).
    pub start_unix: Option<i64>,
}

/// What a summary says about a workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkloadFacts {
    /// Display name.
    pub label: String,
    /// What a sweep or a series changed in the configuration's entry
    /// `label` to make this workload (`trace = "SDSC-SP2-1998-4.2-cln"`,
    /// `estimate = "actual"`), if it is such a variant; none for a workload
    /// as `[[workloads]]` gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The repetition (from 1) a generated workload was drawn for, when
    /// every repetition draws its own (a Lublin99 workload of an
    /// experiment with several repetitions); none otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetition: Option<u32>,
    /// The trace file, or a description of the generator.
    pub source: String,
    /// SHA-256 of the trace's SWF text (decompressed), if it is a trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// SHA-256 of the trace file's own bytes (compressed or not), if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_sha256: Option<String>,
    /// Whether a generated stand-in replaced a missing trace.
    pub stand_in: bool,
    /// The kind generates its own jobs from its `[params]`: the trace
    /// counts below do not apply.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub generated_by_kind: bool,
    /// The seed of a generated workload (written as a string: TOML integers
    /// stop at `i64::MAX`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seed::seed_as_string",
        deserialize_with = "crate::seed::seed_from_string"
    )]
    pub seed: Option<u64>,
    /// Machine size in processors.
    pub capacity: u32,
    /// Records read (data lines).
    pub records: usize,
    /// Line numbers of the first malformed lines skipped in lenient mode
    /// (at most `swf_io::KEPT_SKIPPED`).
    pub skipped_lines: Vec<u64>,
    /// Malformed lines skipped in lenient mode, in all.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: u64,
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

impl WorkloadFacts {
    /// The workload's name as outputs show it: its label, followed by what
    /// its variant changed (`log (trace = "SDSC-SP2-1998-4.2-cln")`).
    /// A workload drawn anew for each repetition says which
    /// (`gen (repetition 2)`).
    pub fn shown_label(&self) -> String {
        Self::shown(&self.label, self.variant.as_deref(), self.repetition)
    }

    /// [`shown_label`](Self::shown_label) of the fields a run.toml records
    /// (`label`, `variant`, `repetition`), read back without the rest.
    pub fn shown(label: &str, variant: Option<&str>, repetition: Option<u32>) -> String {
        let rep = repetition.map(|r| format!("repetition {r}"));
        match (variant, rep) {
            (Some(changes), Some(rep)) => format!("{label} ({changes}; {rep})"),
            (Some(changes), None) => format!("{label} ({changes})"),
            (None, Some(rep)) => format!("{label} ({rep})"),
            (None, None) => label.to_owned(),
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The raw input of a workload: records plus their provenance.
pub(crate) enum Origin<'a> {
    /// A trace read by the caller.
    Read(&'a Source),
    /// A Lublin99 workload generated here.
    Generated {
        procs: u32,
        jobs: usize,
        two_class: bool,
        arrivals: swf_io::lublin99::Arrivals,
        estimates: swf_io::lublin99::Estimates,
    },
    /// No jobs: the kind generates its own (described by the text).
    ByKind(&'a str),
}

/// The note of a generated workload without an estimate model replayed
/// with requested estimates.
pub(crate) const NO_ESTIMATES: &str = "no estimates: requested equals exact (the Lublin99 model has no requested times; give \
     `estimates = \"f:3\"` or `\"modal:3\"` for an estimate model)";

/// Turns a source into a workload of jobs, dropping unreplayable records and
/// jobs wider than the machine (both counted). `seed` feeds generators.
///
/// The machine size is the header's MaxProcs, else MaxNodes (see
/// `swf_io::SwfHeader::machine_size`), else the widest job; a caller that
/// wants an error instead checks [`Source::machine_size`] first.
pub fn workload_from(
    source: &Source,
    label: &str,
    estimate: Estimate,
    seed: u64,
) -> (Workload, WorkloadFacts) {
    convert(&Origin::Read(source), label, estimate, seed, None, &[])
}

/// The records of a stand-in for `known`: the two-class Lublin99 model on
/// the same machine, with arrivals over the same span as the real log
/// (submit times from 0, the log's `UnixStartTime`, to its last submission).
/// Covering the span, rather than the log's job count, keeps every
/// calendar window of the real log populated: kinds that cut a window by
/// date (months 9 to 12 of `DAS2-fs1-2003-1`, say) find jobs in it.
fn stand_in_records(known: &KnownTrace, seed: u64) -> Vec<SwfRecord> {
    Lublin99 {
        procs: known.procs,
        duration: known.last_submit + 1,
        max_jobs: None,
        seed,
        two_class: true,
        ..Default::default()
    }
    .generate()
}

/// `procs`, if given, replaces the machine size of a read source. The
/// `filters` (see [`Transform`]; any other transform in it is ignored)
/// select records before conversion, and what they remove is counted in
/// `transformed_away`.
pub(crate) fn convert(
    input: &Origin<'_>,
    label: &str,
    estimate: Estimate,
    seed: u64,
    procs: Option<u32>,
    filters: &[Transform],
) -> (Workload, WorkloadFacts) {
    let generated;
    let mut start_unix = None;
    let mut facts = WorkloadFacts {
        label: label.to_string(),
        variant: None,
        repetition: None,
        source: String::new(),
        sha256: None,
        file_sha256: None,
        stand_in: false,
        generated_by_kind: false,
        seed: None,
        capacity: 0,
        records: 0,
        skipped_lines: Vec::new(),
        skipped: 0,
        unreplayable: 0,
        no_estimate: 0,
        too_wide: 0,
        transformed_away: 0,
        jobs: 0,
        note: None,
    };
    let (records, size): (&[SwfRecord], Option<u64>) = match *input {
        Origin::Read(Source::Trace {
            file,
            sha256,
            file_sha256,
            trace,
            note,
        }) => {
            facts.source = file.clone();
            facts.sha256 = Some(sha256.clone());
            facts.file_sha256.clone_from(file_sha256);
            facts.note = note.clone();
            facts.skipped_lines = trace.skipped.iter().map(|s| s.line).collect();
            facts.skipped = trace.skipped_count;
            start_unix = trace.header.unix_start_time;
            (
                &trace.records,
                procs.or(trace.header.machine_size()).map(u64::from),
            )
        }
        Origin::Read(Source::StandIn { known }) => {
            generated = stand_in_records(known, seed);
            start_unix = Some(known.start_unix);
            facts.source = format!(
                "Lublin99 stand-in for {} ({} procs, {} jobs over its {} days)",
                known.name,
                known.procs,
                generated.len(),
                known.span_days()
            );
            facts.stand_in = true;
            facts.seed = Some(seed);
            facts.note = Some(format!(
                "{} was not found; a seeded Lublin99 workload of {} procs over the log's {} days ({} jobs) replaced it",
                known.file_name(),
                known.procs,
                known.span_days(),
                generated.len()
            ));
            (&generated, Some(u64::from(procs.unwrap_or(known.procs))))
        }
        Origin::Generated {
            procs,
            jobs,
            two_class,
            arrivals,
            estimates,
        } => {
            generated = Lublin99 {
                procs,
                duration: i64::MAX,
                max_jobs: Some(jobs),
                seed,
                two_class,
                arrivals,
                estimates,
            }
            .generate();
            // Every field above changes the jobs drawn, so the text names
            // each that is not its default (the defaults' text unchanged).
            let mut extra = String::new();
            if !two_class {
                extra.push_str(", one class (two_class = false)");
            }
            match arrivals {
                Arrivals::Model => {}
                Arrivals::Load(l) => extra.push_str(&format!(", load {l}")),
                Arrivals::Rate(r) => extra.push_str(&format!(", {r} jobs per hour")),
            }
            if !estimates.is_none() {
                extra.push_str(&format!(", estimates {estimates}"));
            }
            facts.source = format!("Lublin99 generator ({procs} procs, {jobs} jobs{extra})");
            facts.seed = Some(seed);
            if estimates.is_none() && matches!(estimate, Estimate::Requested) {
                facts.note = Some(NO_ESTIMATES.to_string());
            }
            (&generated, Some(u64::from(procs)))
        }
        Origin::ByKind(text) => {
            facts.source = text.to_string();
            facts.generated_by_kind = true;
            (&[], None)
        }
    };
    facts.records = records.len();
    let kept: Vec<SwfRecord>;
    let records = if filters.iter().any(Transform::is_filter) {
        kept = records
            .iter()
            .filter(|r| filters.iter().all(|f| keeps(f, r)))
            .copied()
            .collect();
        facts.transformed_away = records.len() - kept.len();
        &kept[..]
    } else {
        records
    };
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
            start_unix,
        },
        facts,
    )
}

/// Whether record `r` passes the filter `t` (every other transform passes
/// every record). A missing field (-1) fails a bound on it.
fn keeps(t: &Transform, r: &SwfRecord) -> bool {
    let size = || {
        [r.allocated_procs, r.requested_procs]
            .into_iter()
            .flatten()
            .find(|&p| p >= 1)
    };
    match t {
        Transform::KeepStatus(list) => list.contains(&r.status.unwrap_or(-1)),
        Transform::MinProcs(n) => size().is_some_and(|p| p >= i64::from(*n)),
        Transform::MaxProcs(n) => size().is_some_and(|p| p <= i64::from(*n)),
        Transform::MinRequestedTime(s) => r.requested_time.is_some_and(|t| t >= *s),
        Transform::MaxRequestedTime(s) => r.requested_time.is_some_and(|t| (0..=*s).contains(&t)),
        Transform::JobIds([first, last]) => r.job.is_some_and(|j| (*first..=*last).contains(&j)),
        Transform::DropShorterThan(_) | Transform::LastN(_) | Transform::ScaleLoad(_) => true,
    }
}

/// Builds one workload of an experiment: conversion (after the record
/// filters), the other transforms, then the load factor of a `load` sweep.
/// `at` is where the workload is written (`workloads.0`): errors caused by
/// one of its values are [`RunError::Field`]s below it.
pub(crate) fn prepare(
    spec: &WorkloadSpec,
    at: &str,
    input: &Origin<'_>,
    load: Option<f64>,
    seed: u64,
) -> Result<(Workload, WorkloadFacts), RunError> {
    let label = spec.label.get_ref();
    let field_error = |field: &str, message: String| {
        RunError::field(
            format!("{at}.{field}"),
            format!(
                "workload '{}': {message}",
                crate::encode::terminal_name(label)
            ),
        )
    };
    let procs_error = |message: String| field_error("procs", message);
    match (spec.procs, input) {
        (Some(p), Origin::Read(_)) if !(1..=swf_io::MAX_PROCS).contains(&p) => {
            return Err(procs_error(format!(
                "procs = {p} is out of range; give 1 to {}",
                swf_io::MAX_PROCS
            )));
        }
        (Some(_), Origin::Read(_)) | (None, _) => {}
        (Some(_), _) => {
            return Err(procs_error(
                "`procs` sets the machine of a trace; a lublin99 workload has its own `procs`"
                    .into(),
            ));
        }
    }
    let (mut w, mut facts) = convert(
        input,
        label,
        spec.estimate,
        seed,
        spec.procs,
        &spec.transforms,
    );
    if let Origin::Generated {
        arrivals,
        estimates,
        ..
    } = input
        && facts.unreplayable > 0
    {
        // The model alone stays far inside the simulator's range; rescaled
        // arrivals or an estimate factor pushed these jobs out of it.
        return Err(field_error(
            "lublin99",
            format!(
                "the lublin99 generator (arrivals {arrivals:?}, estimates {estimates}) made {} \
                 of its jobs unreplayable: times past the simulator's limit of 2^40 s; give a \
                 larger load or arrival rate, or a smaller estimate factor",
                facts.unreplayable
            ),
        ));
    }
    // The load or rate asked of the generator is what its jobs have (record
    // filters, applied before conversion, may change it on purpose).
    if let Origin::Generated {
        procs, arrivals, ..
    } = *input
        && !spec.transforms.iter().any(Transform::is_filter)
    {
        let model = Lublin99 {
            procs,
            arrivals,
            ..Lublin99::default()
        };
        let jobs = w
            .jobs
            .iter()
            .map(|j| (Some(j.submit.0), j.run_time as f64 * f64::from(j.procs)));
        model
            .check_arrivals_of(jobs)
            .map_err(|e| field_error("lublin99", e.message))?;
    }
    let before = w.jobs.len();
    for (j, t) in spec.transforms.iter().enumerate() {
        if t.is_filter() {
            continue;
        }
        let jobs = std::mem::take(&mut w.jobs);
        w.jobs = match *t {
            Transform::DropShorterThan(secs) => swf_io::drop_shorter_than(jobs, secs).0,
            Transform::LastN(n) => swf_io::last_n(jobs, n),
            Transform::ScaleLoad(f) => swf_io::scale_load(jobs, f).map_err(|e| {
                field_error(
                    &format!("transforms.{j}"),
                    format!("transform scale_load = {}: {e}", profile::ShortFloat(f)),
                )
            })?,
            // Applied to the records by `convert`.
            _ => jobs,
        };
    }
    if let Some(f) = load {
        w.jobs = swf_io::scale_load(std::mem::take(&mut w.jobs), f).map_err(|e| {
            RunError::field(
                "load",
                format!(
                    "workload '{}': sweep value load = {f:?}: {e}",
                    crate::encode::terminal_name(label)
                ),
            )
        })?;
    }
    facts.transformed_away += before - w.jobs.len();
    facts.jobs = w.jobs.len();
    if w.jobs.is_empty() && !matches!(input, Origin::ByKind(_)) {
        return Err(RunError::EmptyWorkload { label: w.label });
    }
    // Checked after emptiness, which is the first thing to fix.
    if let (None, Origin::Read(source @ Source::Trace { file, .. })) = (spec.procs, input)
        && source.machine_size().is_none()
    {
        return Err(field_error(
            "trace",
            format!(
                "{} gives no machine size (header MaxProcs and MaxNodes missing, -1 or 0); \
             add `procs = N` to the workload",
                crate::encode::terminal_name(file)
            ),
        ));
    }
    Ok((w, facts))
}

#[cfg(test)]
mod tests;
