//! The crate's error type and the record of lines skipped in lenient mode.

use std::fmt;

use profile::ShortFloat;

/// Everything that can go wrong while reading an SWF file.
///
/// Every variant names the source (usually the file name) and, where there
/// is one, the 1-based physical line number, so `Display` reads like a
/// compiler message: `SDSC.swf:812: field 5 (allocated processors) is 'abc',
/// expected an integer or -1`. `Display` writes the source's control
/// characters (a line feed in a file name, say) as `\u{a}`, so the message
/// stays on its lines; [`SwfError::source_name`] returns it as given.
#[derive(Debug)]
#[non_exhaustive]
pub enum SwfError {
    /// The file could not be opened, read or decompressed.
    Io {
        /// The file name or other label given to the reader.
        source_name: String,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A data line does not have exactly 18 fields.
    FieldCount {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// How many whitespace-separated fields the line has.
        found: usize,
    },
    /// A data field is not a number.
    BadField {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// 1-based field number (1 to 18).
        field: usize,
        /// The field's name, e.g. `allocated processors`.
        name: &'static str,
        /// The offending text (cut to at most 40 characters).
        text: String,
    },
    /// A header keyword that carries a number (`MaxProcs`, `UnixStartTime`,
    /// ...) has a value that is not a whole integer optionally followed by
    /// a note (`MaxProcs: many`, `8.9`, `8e1`, `0x10`, `8 16`). Only strict mode
    /// reports this; lenient mode records it in the skipped lines and
    /// leaves the typed header field `None`.
    BadHeader {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// The header keyword, e.g. `MaxProcs`.
        keyword: String,
        /// The offending value (cut to at most 40 characters).
        text: String,
    },
    /// A header keyword carries a number outside the range it accepts
    /// (`MaxProcs: 99999999999999`, `MaxProcs: -5`). The value is never
    /// clamped: strict mode reports this; lenient mode records it in the
    /// skipped lines and leaves the typed header field `None`.
    HeaderOutOfRange {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// The header keyword, e.g. `MaxProcs`.
        keyword: String,
        /// The offending value (cut to at most 40 characters).
        text: String,
        /// The accepted range, e.g. `0 to 10000000, or -1 for unknown`.
        expected: String,
    },
    /// A physical line is longer than the reader's cap
    /// ([`Limits::max_line_bytes`](crate::Limits::max_line_bytes)); the
    /// reader buffered no more than the cap of it.
    LineTooLong {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// The cap in bytes.
        limit: usize,
    },
    /// A job number (field 1) that an earlier data line already has; SWF
    /// job numbers count jobs, so each appears once (-1, unknown, may
    /// repeat).
    DuplicateJob {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// The job number.
        job: i64,
        /// The line that has it first.
        first_line: u64,
    },
    /// A numeric header keyword (`MaxProcs`, `UnixStartTime`, ...) that an
    /// earlier line gave another value: which one the log means is
    /// unknown. Lenient mode keeps the first and skips this line.
    ConflictingHeader {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// The header keyword, e.g. `MaxProcs`.
        keyword: String,
        /// This line's value (cut to at most 40 characters).
        text: String,
        /// The line that gives the keyword first.
        first_line: u64,
        /// The first line's value.
        first: String,
    },
    /// A numeric header keyword (`MaxProcs`, `MaxNodes`, `UnixStartTime`,
    /// `MaxJobs`, `MaxRecords`) on a comment line after the first record:
    /// header lines come first, so its value would be ignored (two files
    /// joined with `cat` give one). Strict mode only; lenient mode skips
    /// the line.
    LateHeader {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number.
        line: u64,
        /// The header keyword, as written.
        keyword: String,
        /// The line of the first record.
        first_record_line: u64,
    },
    /// The input is larger than one of the reader's caps on the whole
    /// input ([`Limits::max_records`](crate::Limits::max_records),
    /// [`Limits::max_lines`](crate::Limits::max_lines),
    /// [`Limits::max_bytes`](crate::Limits::max_bytes),
    /// [`Limits::max_header_bytes`](crate::Limits::max_header_bytes)); an error in both
    /// modes, since skipping cannot bound it.
    TooLarge {
        /// The file name or other label given to the reader.
        source_name: String,
        /// 1-based physical line number where the cap was passed.
        line: u64,
        /// What is counted: `records`, `lines`, `bytes` or `header bytes`.
        what: &'static str,
        /// The cap.
        limit: u64,
    },
}

impl SwfError {
    /// The 1-based line number the error refers to, if any.
    pub fn line(&self) -> Option<u64> {
        match self {
            SwfError::Io { .. } => None,
            SwfError::FieldCount { line, .. }
            | SwfError::BadField { line, .. }
            | SwfError::BadHeader { line, .. }
            | SwfError::HeaderOutOfRange { line, .. }
            | SwfError::LineTooLong { line, .. }
            | SwfError::DuplicateJob { line, .. }
            | SwfError::ConflictingHeader { line, .. }
            | SwfError::LateHeader { line, .. }
            | SwfError::TooLarge { line, .. } => Some(*line),
        }
    }

    /// The file name or label the error refers to.
    pub fn source_name(&self) -> &str {
        match self {
            SwfError::Io { source_name, .. }
            | SwfError::FieldCount { source_name, .. }
            | SwfError::BadField { source_name, .. }
            | SwfError::BadHeader { source_name, .. }
            | SwfError::HeaderOutOfRange { source_name, .. }
            | SwfError::LineTooLong { source_name, .. }
            | SwfError::DuplicateJob { source_name, .. }
            | SwfError::ConflictingHeader { source_name, .. }
            | SwfError::LateHeader { source_name, .. }
            | SwfError::TooLarge { source_name, .. } => source_name,
        }
    }
}

impl fmt::Display for SwfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = visible(self.source_name());
        match self {
            SwfError::Io { error, .. } => {
                // The hint fits the failure; an error with a message of its
                // own (a reader's cap, say) carries its own advice.
                let hint = match error.kind() {
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
                        "; check that the file exists and is readable"
                    }
                    std::io::ErrorKind::InvalidData
                    | std::io::ErrorKind::InvalidInput
                    | std::io::ErrorKind::UnexpectedEof => {
                        "; if the file is gzipped, check that it is complete and not corrupt"
                    }
                    _ => "",
                };
                write!(f, "{file}: {error}{hint}")
            }
            SwfError::FieldCount { line, found, .. } => write!(
                f,
                "{file}:{line}: expected 18 fields, found {found}; every SWF data \
                 line has 18 whitespace-separated fields"
            ),
            SwfError::BadField {
                line,
                field,
                name,
                text,
                ..
            } => {
                let decimal = crate::record::is_decimal_field(*field);
                let expected = if decimal {
                    "a number or -1"
                } else {
                    "an integer or -1"
                };
                // A number too large for the field's type is out of range,
                // not "not a number".
                let why = if out_of_range(text, decimal) {
                    if decimal {
                        ", a number beyond the 64-bit floating-point range; expected"
                    } else {
                        ", an integer beyond the 64-bit range (±9223372036854775807); expected"
                    }
                } else {
                    ", expected"
                };
                write!(
                    f,
                    "{file}:{line}: field {field} ({name}) is '{}'{why} {expected}",
                    visible(text)
                )
            }
            SwfError::BadHeader {
                line,
                keyword,
                text,
                ..
            } => write!(
                f,
                "{file}:{line}: header {} is '{}', expected a whole integer \
                 (optionally followed by a blank and a note that does not start with a \
                 number); fix the header or read in lenient mode",
                visible(keyword),
                visible(text)
            ),
            SwfError::HeaderOutOfRange {
                line,
                keyword,
                text,
                expected,
                ..
            } => write!(
                f,
                "{file}:{line}: header {} is {}, out of range (expected \
                 {expected}); fix the header or read in lenient mode",
                visible(keyword),
                visible(text)
            ),
            SwfError::LineTooLong { line, limit, .. } => write!(
                f,
                "{file}:{line}: line longer than {limit} bytes (SWF lines are under \
                 200 bytes); check that this is an SWF file"
            ),
            SwfError::DuplicateJob {
                line,
                job,
                first_line,
                ..
            } => write!(
                f,
                "{file}:{line}: field 1 (job number) is {job}, which line {first_line} \
                 already has; SWF job numbers are unique (fix the file, or read in lenient \
                 mode to skip the repeats)"
            ),
            SwfError::ConflictingHeader {
                line,
                keyword,
                text,
                first_line,
                first,
                ..
            } => write!(
                f,
                "{file}:{line}: header {} is {}, but line {first_line} gives it as {}; keep \
                 one (or read in lenient mode, which keeps line {first_line}'s)",
                visible(keyword),
                visible(text),
                visible(first)
            ),
            SwfError::LateHeader {
                line,
                keyword,
                first_record_line,
                ..
            } => write!(
                f,
                "{file}:{line}: header {} comes after the first record (line \
                 {first_record_line}); header lines come first, so its value would be ignored: \
                 move it to the header, or read in lenient mode, which skips it",
                visible(keyword)
            ),
            SwfError::TooLarge {
                line, what, limit, ..
            } => write!(
                f,
                "{file}:{line}: more than {limit} {what}, the reader's cap on one \
                 trace (`Limits::max_{}`)",
                what.replace(' ', "_")
            ),
        }
    }
}

/// No error has a source: the message of an [`SwfError::Io`] already holds
/// its I/O error's, and a chain printed whole (`anyhow`'s `{:#}`) would
/// repeat it. Match the variant for the error itself.
impl std::error::Error for SwfError {}

/// A line that lenient mode skipped, with the error strict mode would have
/// reported for it.
#[derive(Debug)]
pub struct SkippedLine {
    /// 1-based physical line number.
    pub line: u64,
    /// Why the line was skipped.
    pub error: SwfError,
}

impl fmt::Display for SkippedLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipped: {}", self.error)
    }
}

/// A source name as messages show it: control characters (a line feed, a
/// tab, an escape) and the bidirectional controls written `\u{a}`, so a
/// name cannot start a line of its own or reorder the message. The same
/// notation as `experiments::encode::terminal_name`; this crate depends on
/// no crate of the command line, so it has its own.
fn visible(name: &str) -> String {
    use fmt::Write as _;
    let bidi = |c: char| {
        matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
    };
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_control() || bidi(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else if c == '\\' {
            // Doubled, so the text `\u{a}` never reads like a line feed.
            out.push_str("\\\\");
        } else {
            out.push(c);
        }
    }
    out
}

/// Cuts `bytes` to a short, printable excerpt for an error message.
/// Whether a field's text (as [`excerpt`] cut it) is a well-formed number
/// too large for its type: an integer past `i64`, or a decimal whose value
/// is infinite.
fn out_of_range(text: &str, decimal: bool) -> bool {
    let cut = text.strip_suffix('…');
    let digits = cut.unwrap_or(text);
    let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(digits);
    let integer = !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit());
    if !decimal {
        // A field of only digits that does not parse overflowed (a cut
        // excerpt had more than 40 characters of them).
        return integer && (cut.is_some() || digits.parse::<i64>().is_err());
    }
    // `inf` and `infinity` parse as infinite too, but are not numbers here.
    let numeric = digits
        .bytes()
        .all(|b| matches!(b, b'0'..=b'9' | b'.' | b'+' | b'-' | b'e' | b'E'));
    integer && cut.is_some()
        || cut.is_none() && numeric && digits.parse::<f64>().is_ok_and(f64::is_infinite)
}

pub(crate) fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(bytes);
    if text.chars().count() <= MAX {
        text.into_owned()
    } else {
        let mut cut: String = text.chars().take(MAX).collect();
        cut.push('…');
        cut
    }
}

/// Why a workload transform refused its input: it never clamps a time or
/// lets it wrap, so a transform whose result would leave the time domain
/// of [`profile`] (submit times and deadlines in `[-Time::LIMIT,
/// Time::LIMIT]` = ±2^40 s) returns this instead.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TransformError {
    /// A load factor that is not a finite positive number.
    Factor {
        /// The factor as given.
        factor: f64,
    },
    /// A job given to the transform already lies outside the time domain.
    InputOutOfDomain {
        /// The job's id.
        job: u64,
        /// `submit time` or `deadline`.
        field: &'static str,
        /// The value, seconds.
        seconds: i64,
    },
    /// Scaling the load by `factor` would move a job outside the time
    /// domain.
    ScaledOutOfDomain {
        /// The job's id.
        job: u64,
        /// `submit time` or `deadline`.
        field: &'static str,
        /// The load factor.
        factor: f64,
        /// Where the time would land, seconds (as a float: it may not fit
        /// an integer).
        seconds: f64,
    },
}

impl fmt::Display for TransformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = profile::Time::LIMIT.secs();
        match self {
            TransformError::Factor { factor } => write!(
                f,
                "load factor {} is not a finite positive number; give a factor > 0 \
                 (1 keeps the load, 2 doubles it)",
                ShortFloat(*factor)
            ),
            TransformError::InputOutOfDomain {
                job,
                field,
                seconds,
            } => write!(
                f,
                "job {job}: {field} {seconds} s is outside the accepted range of ±{limit} s \
                 (2^40 s)"
            ),
            TransformError::ScaledOutOfDomain {
                job,
                field,
                factor,
                seconds,
            } => write!(
                f,
                "a load factor of {} moves job {job}'s {field} to {seconds:.4e} s, \
                 outside the accepted range of ±{limit} s (2^40 s); use a factor closer to 1",
                ShortFloat(*factor)
            ),
        }
    }
}

impl std::error::Error for TransformError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_show_control_characters_in_the_source_name() {
        let error = SwfError::FieldCount {
            source_name: "x\nerror: faked.swf\t\u{1b}\u{202e}".to_string(),
            line: 3,
            found: 2,
        };
        let shown = error.to_string();
        assert!(
            shown.starts_with(r"x\u{a}error: faked.swf\u{9}\u{1b}\u{202e}:3: expected 18 fields"),
            "{shown}"
        );
        assert!(!shown.contains(['\n', '\t']), "{shown}");
        assert_eq!(error.source_name(), "x\nerror: faked.swf\t\u{1b}\u{202e}");
        assert_eq!(visible("traces/KTH-SP2 (é).swf"), "traces/KTH-SP2 (é).swf");
    }

    #[test]
    fn a_number_too_large_for_its_field_is_out_of_range_not_a_non_number() {
        let line = |fields: &[(usize, &str)]| {
            let mut all = vec!["1", "0", "5", "10", "4", "-1", "-1", "4", "20"];
            all.extend(["-1", "1", "3", "2", "-1", "0", "-1", "-1", "-1"]);
            for &(i, text) in fields {
                all[i] = text;
            }
            let line = all.join(" ");
            crate::record::parse_fields(line.as_bytes())
                .unwrap_err()
                .to_swf(line.as_bytes(), "t.swf", 2)
                .to_string()
        };
        let beyond = "an integer beyond the 64-bit range";
        for (fields, has, lacks) in [
            (vec![(3, "9223372036854775808")], beyond, "no"),
            (vec![(3, "-9223372036854775809")], beyond, "no"),
            (vec![(3, &"9".repeat(60)[..])], beyond, "no"),
            (
                vec![(3, "12x")],
                "is '12x', expected an integer or -1",
                beyond,
            ),
            (
                vec![(3, "1.5")],
                "is '1.5', expected an integer or -1",
                beyond,
            ),
            (
                vec![(5, "1e400")],
                "a number beyond the 64-bit floating-point range",
                "no",
            ),
            (
                vec![(5, "inf")],
                "is 'inf', expected a number or -1",
                "beyond",
            ),
            (
                vec![(5, "1e3x")],
                "is '1e3x', expected a number or -1",
                "beyond",
            ),
        ] {
            let shown = line(&fields);
            assert!(shown.starts_with("t.swf:2: field "), "{shown}");
            assert!(shown.contains(has), "{shown}");
            assert!(!shown.contains(lacks), "{shown}");
        }
        // i64::MIN itself is read (it is in range).
        let ok = "1 0 5 -9223372036854775808 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1";
        assert!(crate::record::parse_fields(ok.as_bytes()).is_ok());
    }
}
