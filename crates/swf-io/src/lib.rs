//! Workload input and output for scheduling research: the Standard Workload
//! Format (SWF) of the Parallel Workloads Archive, the transforms papers
//! apply to a trace before replaying it, and the Lublin & Feitelson 1999
//! synthetic workload model.
//!
//! * [`SwfReader`] streams [`SwfRecord`]s (all 18 fields, `-1` as `None`)
//!   after parsing the [`SwfHeader`]; [`open`] and [`read_trace`] handle
//!   plain and gzipped files (detected by magic bytes). [`Mode::Strict`]
//!   stops at the first malformed line with an [`SwfError`] naming file,
//!   line, field and text; [`Mode::Lenient`] skips such lines, counts
//!   them and keeps the first few as [`SkippedLine`]s. [`Limits`] caps
//!   what a reader holds (line length, kept skipped lines).
//! * [`write_swf`] writes a header and records back, round-tripping with
//!   the reader; [`schedule_records_from`] turns a simulated schedule into
//!   SWF that keeps every field of the input records and changes only what
//!   the simulation decided ([`simulated_record`]); [`write_jobs_csv`]
//!   writes it as Batsim's `jobs.csv`, with processor ids.
//! * [`to_jobs`] converts records to replayable [`profile::Job`]s under an
//!   [`Estimate`] policy, counting what it drops; [`drop_shorter_than`],
//!   [`last_n`], [`rebase`], [`split_intervals`], [`scale_load`] and
//!   [`cap_procs`] reshape a workload; [`SwfHeader::machine_size`] reads
//!   the machine size from the header.
//! * [`lublin99`] generates the Lublin99 model deterministically from a
//!   seed.
//!
//! Invariants: swf-io never simulates (schedules come from `profile`); no
//! input makes it panic; a reader's memory is bounded by its [`Limits`]
//! whatever the input holds (records are the caller's to keep); values
//! outside the accepted ranges are errors or dropped and counted, never
//! clamped or wrapped; the same seed gives the same synthetic workload;
//! converted jobs come out in non-decreasing submit order, inside the time
//! domain of `profile` (submit in `[0, 2^40]` s, estimate in `[1, 2^40]`
//! s, run time in `[0, 2^40]` s).
//!
//! ```
//! use swf_io::{Estimate, Mode, SwfReader, to_jobs, write_swf};
//!
//! let text = "; Version: 2.2\n; MaxProcs: 128\n\
//!             1 0 10 100 4 -1 -1 4 300 -1 1 1 1 -1 1 -1 -1 -1\n\
//!             2 5 -1 -1 -1 -1 -1 8 60 -1 5 2 1 -1 1 -1 -1 -1\n";
//! let mut reader = SwfReader::new(text.as_bytes(), "demo.swf", Mode::Strict)?;
//! assert_eq!(reader.header().max_procs, Some(128));
//! let records = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
//! assert_eq!(records[1].run_time, None); // -1 in the file
//!
//! // Job 2 was cancelled before it ran: it cannot be replayed.
//! let conversion = to_jobs(&records, Estimate::Requested);
//! assert_eq!((conversion.jobs.len(), conversion.unreplayable), (1, 1));
//! assert_eq!(conversion.jobs[0].estimate, 300);
//!
//! // Writing and reading back gives the same records.
//! let mut out = Vec::new();
//! write_swf(&mut out, reader.header(), &records)?;
//! let again = SwfReader::new(&out[..], "again.swf", Mode::Strict)?;
//! assert_eq!(again.collect::<Result<Vec<_>, _>>()?, records);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod batsim;
mod error;
mod gamma;
mod header;
mod limits;
pub mod lublin99;
mod reader;
mod record;
mod transform;
mod unique;
mod writer;

pub use batsim::{JOBS_CSV_COLUMNS, write_jobs_csv};
pub use error::{SkippedLine, SwfError, TransformError};
pub use header::SwfHeader;
pub use limits::{
    KEPT_SKIPPED, Limits, MAX_BYTES, MAX_LINE_BYTES, MAX_LINES, MAX_PROCS, MAX_RECORDS,
};
pub use reader::{Mode, SwfReader, Trace, open, read_trace};
pub use record::{FIELD_NAMES, SwfRecord};
pub use transform::{
    Conversion, Estimate, cap_procs, drop_shorter_than, find_records, last_n, rebase, scale_load,
    split_intervals, to_jobs,
};
pub use writer::{schedule_records, schedule_records_from, simulated_record, write_swf};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
