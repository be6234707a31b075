//! The crate's error type and the record of lines skipped in lenient mode.

use std::fmt;

/// Everything that can go wrong while reading an SWF file.
///
/// Every variant names the source (usually the file name) and, where there
/// is one, the 1-based physical line number, so `Display` reads like a
/// compiler message: `SDSC.swf:812: field 5 (allocated processors) is 'abc',
/// expected an integer or -1`.
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
    /// ...) has a value that does not start with one. Only strict mode
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
}

impl SwfError {
    /// The 1-based line number the error refers to, if any.
    pub fn line(&self) -> Option<u64> {
        match self {
            SwfError::Io { .. } => None,
            SwfError::FieldCount { line, .. }
            | SwfError::BadField { line, .. }
            | SwfError::BadHeader { line, .. } => Some(*line),
        }
    }

    /// The file name or label the error refers to.
    pub fn source_name(&self) -> &str {
        match self {
            SwfError::Io { source_name, .. }
            | SwfError::FieldCount { source_name, .. }
            | SwfError::BadField { source_name, .. }
            | SwfError::BadHeader { source_name, .. } => source_name,
        }
    }
}

impl fmt::Display for SwfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwfError::Io { source_name, error } => write!(
                f,
                "{source_name}: {error}; check that the file exists, is readable and, \
                 if gzipped, is complete"
            ),
            SwfError::FieldCount {
                source_name,
                line,
                found,
            } => write!(
                f,
                "{source_name}:{line}: expected 18 fields, found {found}; every SWF data \
                 line has 18 whitespace-separated fields"
            ),
            SwfError::BadField {
                source_name,
                line,
                field,
                name,
                text,
            } => {
                let expected = if crate::record::is_decimal_field(*field) {
                    "a number or -1"
                } else {
                    "an integer or -1"
                };
                write!(
                    f,
                    "{source_name}:{line}: field {field} ({name}) is '{text}', expected {expected}"
                )
            }
            SwfError::BadHeader {
                source_name,
                line,
                keyword,
                text,
            } => write!(
                f,
                "{source_name}:{line}: header {keyword} is '{text}', expected an integer \
                 (optionally followed by a note); fix the header or read in lenient mode"
            ),
        }
    }
}

impl std::error::Error for SwfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SwfError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

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

/// Cuts `bytes` to a short, printable excerpt for an error message.
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
