//! The reader's resource caps and the ranges of values it accepts.
//!
//! Memory of a reader is bounded whatever the input holds: one line buffer
//! of at most [`Limits::max_line_bytes`] (+1) bytes, and at most
//! [`Limits::kept_skipped`] skipped lines kept with their errors in lenient
//! mode (the rest are only counted), and a header of at most
//! [`Limits::max_header_bytes`] bytes of comment text. Records themselves are the caller's to
//! keep, so [`read_trace`](crate::read_trace) holds memory proportional to
//! the valid records only, and at most [`Limits::max_records`] of them.
//! Time is bounded too: at most [`Limits::max_lines`] lines and
//! [`Limits::max_bytes`] bytes are read.

/// The longest physical line accepted by default, in bytes, not counting
/// its `\n`: 64 KiB. An SWF data line is under 200 bytes and header lines
/// are short notes, so a longer line means the file is not SWF.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How many skipped lines lenient mode keeps, with their errors, by
/// default; every further one is only counted.
pub const KEPT_SKIPPED: usize = 20;

/// The largest machine accepted, in processors (or nodes): 10,000,000.
/// It applies to the header's `MaxProcs` and `MaxNodes`: a larger value is
/// an error naming the header line, never clamped (see
/// [`SwfHeader::machine_size`](crate::SwfHeader::machine_size)); a caller
/// that takes the machine size from its user should hold it to the same
/// range. Today's traces have at most a few thousand processors; models
/// that keep per-processor state allocate in proportion to this.
pub const MAX_PROCS: u32 = 10_000_000;

/// The most data records one reader yields by default: 10,000,000. The
/// largest logs of the Parallel Workloads Archive hold a few million jobs;
/// a reader's caller keeps its records, a few hundred bytes each once
/// converted, so this bounds a trace's memory at a few GB.
pub const MAX_RECORDS: u64 = 10_000_000;

/// The most physical lines (data, comments and blank lines) one reader
/// reads by default: 50,000,000, five per record of [`MAX_RECORDS`]. It
/// bounds the time a file of blank lines or comments can take.
pub const MAX_LINES: u64 = 50_000_000;

/// The most bytes one reader reads by default, after decompression:
/// 4 GiB, four times the text of [`MAX_RECORDS`] records at the usual
/// 100 bytes a line. It bounds the time a file of long comments can take.
pub const MAX_BYTES: u64 = 4 << 30;

/// The most bytes of header comment lines one reader keeps by default:
/// 1 MiB. The header is kept whole ([`SwfHeader::lines`](crate::SwfHeader::lines)),
/// and the archive's headers are a few KB, so a longer one means the file is
/// not an SWF log (or is a decompression bomb of comments).
pub const MAX_HEADER_BYTES: u64 = 1 << 20;

/// The caps of one reader. [`Limits::default`] gives the documented
/// defaults ([`MAX_LINE_BYTES`], [`KEPT_SKIPPED`]); a caller with unusual
/// files can raise them per reader with
/// [`SwfReader::with_limits`](crate::SwfReader::with_limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limits {
    /// The longest accepted line in bytes, not counting its line end
    /// (`\n`, `\r\n` or a lone `\r`). A longer
    /// line is an error (strict) or skipped (lenient); the reader never
    /// buffers more than this plus one byte of it.
    pub max_line_bytes: usize,
    /// Skipped lines kept with their errors in lenient mode; the rest are
    /// only counted ([`SwfReader::skipped_count`](crate::SwfReader::skipped_count)).
    pub kept_skipped: usize,
    /// The most data records the reader yields; one more is an error
    /// ([`SwfError::TooLarge`](crate::SwfError::TooLarge)) in both modes.
    pub max_records: u64,
    /// The most physical lines the reader reads (every kind of line).
    pub max_lines: u64,
    /// The most bytes the reader reads, after decompression.
    pub max_bytes: u64,
    /// The most bytes of header comment lines (without their line ends)
    /// the reader keeps; one more is an error
    /// ([`SwfError::TooLarge`](crate::SwfError::TooLarge)) in both modes.
    pub max_header_bytes: u64,
}

impl Limits {
    /// The documented defaults, usable in constants
    /// (`Limits { kept_skipped: 100, ..Limits::DEFAULT }`).
    pub const DEFAULT: Limits = Limits {
        max_line_bytes: MAX_LINE_BYTES,
        kept_skipped: KEPT_SKIPPED,
        max_records: MAX_RECORDS,
        max_lines: MAX_LINES,
        max_bytes: MAX_BYTES,
        max_header_bytes: MAX_HEADER_BYTES,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
