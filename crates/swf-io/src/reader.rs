//! The streaming reader, file opening with gzip detection, and whole-trace reading.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

use crate::error::{SkippedLine, SwfError, excerpt};
use crate::header::SwfHeader;
use crate::record::{SwfRecord, parse_line};

/// How the reader treats a malformed line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The first malformed line is an error and ends the stream.
    Strict,
    /// Malformed lines are skipped and recorded in
    /// [`SwfReader::skipped`]; only I/O errors are reported.
    Lenient,
}

/// A streaming SWF reader: the header is read when the reader is made,
/// then records come one at a time from the iterator.
///
/// * Strict mode yields the first error, then `None`.
/// * Lenient mode never yields an error for a bad line; it records the line
///   in [`skipped`](Self::skipped) and goes on. It yields an I/O error (then
///   `None`) if reading fails.
/// * Blank lines are ignored anywhere; `;` comment lines after the first
///   data line are ignored too (the header is the comment block at the top).
/// * Line numbers in errors are 1-based physical line numbers.
///
/// The line buffer is reused, and fields are parsed from bytes without
/// allocating, so reading costs little beyond decompression.
#[derive(Debug)]
pub struct SwfReader<R> {
    reader: R,
    source: String,
    mode: Mode,
    header: SwfHeader,
    skipped: Vec<SkippedLine>,
    buf: Vec<u8>,
    line: u64,
    /// `buf` holds a data line (line number `line`) not yet parsed.
    pending: bool,
    done: bool,
}

/// What kind of line `buf` holds.
enum Kind {
    Blank,
    Comment,
    Data,
}

fn kind(line: &[u8]) -> Kind {
    match line.iter().find(|c| !c.is_ascii_whitespace()) {
        None => Kind::Blank,
        Some(b';') => Kind::Comment,
        Some(_) => Kind::Data,
    }
}

impl<R: BufRead> SwfReader<R> {
    /// Reads the header from `reader`. `source` names the input in error
    /// messages (usually the file name).
    ///
    /// In strict mode a numeric header keyword with an unusable value
    /// (`MaxProcs: many`) is an error; in lenient mode it is recorded in
    /// [`skipped`](Self::skipped) and the typed field stays `None`.
    pub fn new(reader: R, source: impl Into<String>, mode: Mode) -> Result<Self, SwfError> {
        let mut r = SwfReader {
            reader,
            source: source.into(),
            mode,
            header: SwfHeader::default(),
            skipped: Vec::new(),
            buf: Vec::with_capacity(256),
            line: 0,
            pending: false,
            done: false,
        };
        loop {
            if !r.read_line()? {
                r.done = true;
                break;
            }
            match kind(&r.buf) {
                Kind::Blank => {}
                Kind::Data => {
                    r.pending = true;
                    break;
                }
                Kind::Comment => r.header_line()?,
            }
        }
        Ok(r)
    }

    /// The header read when the reader was made.
    pub fn header(&self) -> &SwfHeader {
        &self.header
    }

    /// Lines skipped so far (lenient mode only; strict mode never skips).
    pub fn skipped(&self) -> &[SkippedLine] {
        &self.skipped
    }

    /// The name used for the input in error messages.
    pub fn source_name(&self) -> &str {
        &self.source
    }

    /// Reads every remaining record into a [`Trace`]. In strict mode the
    /// first bad line is an error; in both modes an I/O error is.
    pub fn into_trace(mut self) -> Result<Trace, SwfError> {
        let mut records = Vec::new();
        for record in self.by_ref() {
            records.push(record?);
        }
        Ok(Trace {
            source: self.source,
            header: self.header,
            records,
            skipped: self.skipped,
        })
    }

    /// Reads the next physical line into `buf`; `false` at the end.
    fn read_line(&mut self) -> Result<bool, SwfError> {
        self.buf.clear();
        match self.reader.read_until(b'\n', &mut self.buf) {
            Ok(0) => Ok(false),
            Ok(_) => {
                self.line += 1;
                Ok(true)
            }
            Err(error) => {
                self.done = true;
                Err(SwfError::Io {
                    source_name: self.source.clone(),
                    error,
                })
            }
        }
    }

    /// Adds the comment line in `buf` to the header.
    fn header_line(&mut self) -> Result<(), SwfError> {
        let text = String::from_utf8_lossy(&self.buf);
        let content = text.trim_start().strip_prefix(';').unwrap_or_default();
        let (keyword, ok) = self.header.push_comment(content);
        if ok {
            return Ok(());
        }
        let value = content.split_once(':').map_or("", |(_, v)| v.trim());
        let error = SwfError::BadHeader {
            source_name: self.source.clone(),
            line: self.line,
            keyword,
            text: excerpt(value.as_bytes()),
        };
        match self.mode {
            Mode::Strict => Err(error),
            Mode::Lenient => {
                self.skipped.push(SkippedLine {
                    line: self.line,
                    error,
                });
                Ok(())
            }
        }
    }
}

impl<R: BufRead> Iterator for SwfReader<R> {
    type Item = Result<SwfRecord, SwfError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if !self.pending {
                match self.read_line() {
                    Ok(true) => {}
                    Ok(false) => {
                        self.done = true;
                        return None;
                    }
                    Err(e) => return Some(Err(e)),
                }
                if !matches!(kind(&self.buf), Kind::Data) {
                    continue;
                }
            }
            self.pending = false;
            match parse_line(&self.buf, &self.source, self.line) {
                Ok(record) => return Some(Ok(record)),
                Err(error) => match self.mode {
                    Mode::Strict => {
                        self.done = true;
                        return Some(Err(error));
                    }
                    Mode::Lenient => self.skipped.push(SkippedLine {
                        line: self.line,
                        error,
                    }),
                },
            }
        }
    }
}

impl<R: BufRead> std::iter::FusedIterator for SwfReader<R> {}

/// A whole SWF file in memory.
#[derive(Debug)]
pub struct Trace {
    /// The name used in messages (the path as given).
    pub source: String,
    /// The header.
    pub header: SwfHeader,
    /// Every record, in file order.
    pub records: Vec<SwfRecord>,
    /// Lines skipped in lenient mode (empty in strict mode).
    pub skipped: Vec<SkippedLine>,
}

/// Opens an SWF file, plain or gzip-compressed, and reads its header.
///
/// Compression is detected from the gzip magic bytes (`1f 8b`), whatever
/// the file is called. Multi-member gzip files are read whole. Messages
/// name the path as given.
pub fn open(path: &Path, mode: Mode) -> Result<SwfReader<Box<dyn BufRead + Send>>, SwfError> {
    let source = path.display().to_string();
    let io_err = |error| SwfError::Io {
        source_name: source.clone(),
        error,
    };
    let mut file = File::open(path).map_err(io_err)?;
    let mut magic = [0u8; 2];
    let mut got = 0;
    while got < magic.len() {
        match file.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_err(e)),
        }
    }
    let head = io::Cursor::new(magic[..got].to_vec());
    let raw = head.chain(file);
    const CAPACITY: usize = 1 << 16;
    let reader: Box<dyn BufRead + Send> = if magic[..got] == [0x1f, 0x8b] {
        Box::new(BufReader::with_capacity(CAPACITY, MultiGzDecoder::new(raw)))
    } else {
        Box::new(BufReader::with_capacity(CAPACITY, raw))
    };
    SwfReader::new(reader, source, mode)
}

/// Reads a whole SWF file (plain or gzipped) into memory.
pub fn read_trace(path: &Path, mode: Mode) -> Result<Trace, SwfError> {
    open(path, mode)?.into_trace()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";

    #[test]
    fn header_then_records_with_blank_and_late_comment_lines() {
        let text = format!("; Version: 2.2\n\n; MaxProcs: 4\n{LINE}\n; late comment\n{LINE}");
        let mut r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Strict).unwrap();
        assert_eq!(r.header().max_procs, Some(4));
        assert_eq!(r.header().lines.len(), 2);
        assert_eq!(r.by_ref().filter(Result::is_ok).count(), 2);
        assert!(r.next().is_none());
    }

    #[test]
    fn empty_and_header_only_inputs() {
        assert_eq!(
            SwfReader::new(&b""[..], "e", Mode::Strict).unwrap().count(),
            0
        );
        let r = SwfReader::new(&b"; Computer: x"[..], "e", Mode::Strict).unwrap();
        assert_eq!(r.header().computer.as_deref(), Some("x"));
        assert_eq!(r.count(), 0);
    }

    #[test]
    fn bad_numeric_header() {
        let text = "; MaxProcs: many\n";
        let e = SwfReader::new(text.as_bytes(), "h.swf", Mode::Strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "h.swf:1: header MaxProcs is 'many', expected an integer (optionally followed by a \
             note); fix the header or read in lenient mode"
        );
        let r = SwfReader::new(text.as_bytes(), "h.swf", Mode::Lenient).unwrap();
        assert_eq!(r.header().max_procs, None);
        assert_eq!(r.skipped().len(), 1);
        assert_eq!(r.skipped()[0].line, 1);
    }

    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }

    #[test]
    fn io_errors_end_the_stream_in_both_modes() {
        let data = format!("{LINE}{LINE}");
        for mode in [Mode::Strict, Mode::Lenient] {
            let input = BufReader::with_capacity(8, data.as_bytes().chain(Failing));
            let mut r = SwfReader::new(input, "f.swf", mode).unwrap();
            let items: Vec<_> = r.by_ref().collect();
            assert_eq!(items.len(), 3, "two records then the error");
            assert!(matches!(items[2], Err(SwfError::Io { .. })));
            assert!(r.next().is_none());
            assert!(
                items[2]
                    .as_ref()
                    .unwrap_err()
                    .to_string()
                    .starts_with("f.swf: disk on fire; check")
            );
        }
    }
}
