//! The streaming reader, file opening with gzip detection, and whole-trace reading.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

use crate::error::{SkippedLine, SwfError, excerpt};
use crate::header::{SwfHeader, ValueError};
use crate::limits::Limits;
use crate::record::{SwfRecord, parse_fields};
use crate::unique::JobNumbers;

/// How the reader treats a malformed line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Mode {
    /// The first malformed line is an error and ends the stream.
    Strict,
    /// Malformed lines are skipped and counted; the first few are kept
    /// with their errors in [`SwfReader::skipped`]. Only I/O errors are
    /// reported.
    Lenient,
}

/// A streaming SWF reader: the header is read when the reader is made,
/// then records come one at a time from the iterator.
///
/// * Strict mode yields the first error, then `None`.
/// * Lenient mode never yields an error for a bad line; it counts the line
///   ([`skipped_count`](Self::skipped_count)), keeps the first
///   [`Limits::kept_skipped`] of them with their errors
///   ([`skipped`](Self::skipped)) and goes on. It yields an I/O error
///   (then `None`) if reading fails.
/// * Blank lines are ignored anywhere; `;` comment lines after the first
///   record are ignored too (the header is the comment block at the top; in
///   lenient mode a malformed line before the first record is skipped and
///   does not end it).
/// * A UTF-8 byte order mark at the start of the input is skipped.
/// * A line longer than [`Limits::max_line_bytes`] is malformed; the reader
///   never buffers more than that of it, so memory stays bounded whatever
///   the input holds.
/// * A line ends at `\n`, `\r\n` or a lone `\r` (classic Mac OS line
///   ends), as most text tools read them: a lone `\r` never hides the
///   rest of a file, or a record, inside a comment line. A lone `\r` in
///   the middle of a data line therefore splits it into two malformed
///   lines (an error, or two skipped lines), never a silent loss.
/// * Line numbers in errors are 1-based, counting lines as above.
///
/// The line buffer is reused, and fields are parsed from bytes without
/// allocating, so reading costs little beyond decompression.
#[derive(Debug)]
pub struct SwfReader<R> {
    reader: R,
    source: String,
    mode: Mode,
    limits: Limits,
    header: SwfHeader,
    skipped: Vec<SkippedLine>,
    skipped_count: u64,
    buf: Vec<u8>,
    line: u64,
    /// `buf` holds a line (line number `line`) not yet handled.
    pending: Option<Line>,
    /// The line of the first record (0 before it is read).
    first_record_line: u64,
    done: bool,
    /// Bytes read so far (after decompression).
    bytes: u64,
    /// Records yielded so far.
    records: u64,
    /// The job numbers seen, to refuse a repeat.
    jobs: JobNumbers,
    /// Each header keyword's first line (keyword in lower case), to name
    /// it when a later line contradicts it.
    keyword_lines: std::collections::HashMap<String, u64>,
    /// Bytes of header comment lines kept so far.
    header_bytes: u64,
}

/// What [`SwfReader::read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// A whole line is in `buf`.
    Whole,
    /// The line is longer than the cap; `buf` holds its start only.
    TooLong,
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

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<R: BufRead> SwfReader<R> {
    /// Reads the header from `reader` with the default [`Limits`].
    /// `source` names the input in error messages (usually the file name).
    ///
    /// In strict mode a numeric header keyword with an unusable value
    /// (`MaxProcs: many`, `MaxProcs: 99999999999999`) is an error naming
    /// the line; in lenient mode it is skipped (counted, the first few
    /// kept) and the typed field stays `None`. A value is never clamped.
    pub fn new(reader: R, source: impl Into<String>, mode: Mode) -> Result<Self, SwfError> {
        SwfReader::with_limits(reader, source, mode, Limits::default())
    }

    /// [`new`](Self::new) with other caps than the defaults.
    pub fn with_limits(
        reader: R,
        source: impl Into<String>,
        mode: Mode,
        limits: Limits,
    ) -> Result<Self, SwfError> {
        let mut r = SwfReader {
            reader,
            source: source.into(),
            mode,
            limits,
            header: SwfHeader::default(),
            skipped: Vec::new(),
            skipped_count: 0,
            buf: Vec::with_capacity(256),
            line: 0,
            pending: None,
            first_record_line: 0,
            done: false,
            bytes: 0,
            records: 0,
            jobs: JobNumbers::default(),
            keyword_lines: std::collections::HashMap::new(),
            header_bytes: 0,
        };
        loop {
            let Some(line) = r.read_line()? else {
                r.done = true;
                break;
            };
            if line == Line::TooLong {
                r.malformed(Self::too_long)?;
                continue;
            }
            match kind(&r.buf) {
                Kind::Blank => {}
                Kind::Data => {
                    // Lenient mode skips a malformed line before the first
                    // record without ending the header: the comment lines
                    // after it are still the header, not late comments.
                    if r.mode == Mode::Lenient
                        && let Err(e) = parse_fields(&r.buf)
                    {
                        r.malformed(|r| e.to_swf(&r.buf, &r.source, r.line))?;
                        continue;
                    }
                    r.pending = Some(line);
                    r.first_record_line = r.line;
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

    /// The first skipped lines (lenient mode only; strict mode never
    /// skips), at most [`Limits::kept_skipped`] of them, in file order.
    pub fn skipped(&self) -> &[SkippedLine] {
        &self.skipped
    }

    /// How many lines were skipped so far, kept or not.
    pub fn skipped_count(&self) -> u64 {
        self.skipped_count
    }

    /// The reader's caps.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The bytes the line buffer holds allocated: at most about twice
    /// [`Limits::max_line_bytes`], whatever the input (for memory
    /// accounting and tests).
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
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
            skipped_count: self.skipped_count,
        })
    }

    /// Reads the next line into `buf`, without its line end (`\n`, `\r\n`
    /// or a lone `\r`), keeping at most `max_line_bytes + 1` bytes of it;
    /// `None` at the end of the input. The rest of a longer line is skipped
    /// without being buffered, except in strict mode, where the line ends
    /// the stream.
    fn read_line(&mut self) -> Result<Option<Line>, SwfError> {
        self.buf.clear();
        let cap = self.limits.max_line_bytes;
        let keep = cap.saturating_add(1);
        let skip_rest = self.mode == Mode::Lenient;
        match read_line_into(&mut self.reader, &mut self.buf, keep, skip_rest) {
            Ok(0) => return Ok(None),
            Ok(n) => self.bytes = self.bytes.saturating_add(n),
            Err(error) => return Err(self.io_error(error)),
        }
        let too_long = self.buf.len() > cap;
        self.line += 1;
        if self.line > self.limits.max_lines {
            return Err(self.too_large("lines", self.limits.max_lines));
        }
        if self.bytes > self.limits.max_bytes {
            return Err(self.too_large("bytes", self.limits.max_bytes));
        }
        if self.line == 1 && self.buf.starts_with(BOM) {
            // The mark counts towards the first line's cap, as bytes of the file.
            self.buf.drain(..BOM.len());
        }
        Ok(Some(if too_long { Line::TooLong } else { Line::Whole }))
    }

    /// Ends the stream with an I/O error.
    fn io_error(&mut self, error: io::Error) -> SwfError {
        self.done = true;
        SwfError::Io {
            source_name: self.source.clone(),
            error,
        }
    }

    /// Ends the stream: the input passed the cap on `what`.
    fn too_large(&mut self, what: &'static str, limit: u64) -> SwfError {
        self.done = true;
        SwfError::TooLarge {
            source_name: self.source.clone(),
            line: self.line,
            what,
            limit,
        }
    }

    /// The error for the too-long line just read.
    fn too_long(&self) -> SwfError {
        SwfError::LineTooLong {
            source_name: self.source.clone(),
            line: self.line,
            limit: self.limits.max_line_bytes,
        }
    }

    /// Handles a malformed line: strict mode returns the error, lenient
    /// mode counts the line and keeps the first few. `error` is only made
    /// for a line that is kept or reported.
    fn malformed(&mut self, error: impl FnOnce(&Self) -> SwfError) -> Result<(), SwfError> {
        match self.mode {
            Mode::Strict => {
                self.done = true;
                Err(error(self))
            }
            Mode::Lenient => {
                self.skipped_count += 1;
                if self.skipped.len() < self.limits.kept_skipped {
                    self.skipped.push(SkippedLine {
                        line: self.line,
                        error: error(self),
                    });
                }
                Ok(())
            }
        }
    }

    /// Handles the blank or comment line in `buf`, after the first record:
    /// a free comment is dropped, a numeric header keyword is malformed
    /// (its value would be silently ignored).
    fn late_comment(&mut self) -> Result<(), SwfError> {
        if !matches!(kind(&self.buf), Kind::Comment) {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&self.buf);
        let content = comment_content(&text);
        let Some(keyword) = SwfHeader::numeric_keyword(content).map(str::to_owned) else {
            return Ok(());
        };
        let first_record_line = self.first_record_line;
        self.malformed(|r| SwfError::LateHeader {
            source_name: r.source.clone(),
            line: r.line,
            keyword,
            first_record_line,
        })
    }

    /// Adds the comment line in `buf` to the header.
    fn header_line(&mut self) -> Result<(), SwfError> {
        self.header_bytes = self.header_bytes.saturating_add(self.buf.len() as u64);
        if self.header_bytes > self.limits.max_header_bytes {
            return Err(self.too_large("header bytes", self.limits.max_header_bytes));
        }
        let text = String::from_utf8_lossy(&self.buf);
        let content = comment_content(&text);
        let before = SwfHeader::numeric_keyword(content).and_then(|k| self.header.typed_value(k));
        let (keyword, result) = self.header.push_comment(content);
        // The line whose value the header keeps: where the typed value was
        // last set (an unknown `-1` or `0` before it sets nothing).
        let lower = keyword.to_ascii_lowercase();
        if self.header.typed_value(&keyword) != before {
            self.keyword_lines.insert(lower.clone(), self.line);
        }
        let first_line = self.keyword_lines.get(&lower).copied().unwrap_or(self.line);
        let Err(problem) = result else {
            return Ok(());
        };
        let text = excerpt(
            content
                .split_once(':')
                .map_or("", |(_, v)| v.trim())
                .as_bytes(),
        );
        let (source_name, line) = (self.source.clone(), self.line);
        let error = match problem {
            ValueError::NotANumber => SwfError::BadHeader {
                source_name,
                line,
                keyword,
                text,
            },
            ValueError::OutOfRange(expected) => SwfError::HeaderOutOfRange {
                source_name,
                line,
                keyword,
                text,
                expected: expected.to_owned(),
            },
            ValueError::Conflict(first) => SwfError::ConflictingHeader {
                source_name,
                line,
                keyword,
                text,
                first_line,
                first,
            },
        };
        self.malformed(|_| error)
    }
}

/// The text after the `;` of a comment line.
fn comment_content(line: &str) -> &str {
    line.trim_start().strip_prefix(';').unwrap_or_default()
}

/// Reads one line of `reader` into `buf` without its line end. A line
/// ends at `\n`, at `\r\n` or at a lone `\r` (classic Mac OS files), so
/// no line ending hides a record inside the line before it. At most `keep`
/// bytes go into `buf`; once `buf` is full the rest of the line is read
/// and dropped if `skip_rest`, else reading stops there. Returns the bytes
/// consumed, 0 at the end of the input.
fn read_line_into<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    keep: usize,
    skip_rest: bool,
) -> io::Result<u64> {
    let mut consumed = 0u64;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(consumed);
        }
        let end = available.iter().position(|&c| c == b'\n' || c == b'\r');
        let text = &available[..end.unwrap_or(available.len())];
        let room = keep.saturating_sub(buf.len());
        let kept = text.len().min(room);
        buf.extend_from_slice(&text[..kept]);
        if buf.len() >= keep && !skip_rest {
            // Too long, and strict: the line ends the stream anyway.
            reader.consume(kept);
            return Ok(consumed + kept as u64);
        }
        let lone_cr_possible = end.is_some_and(|i| available[i] == b'\r');
        let used = end.map_or(available.len(), |i| i + 1);
        reader.consume(used);
        consumed += used as u64;
        if end.is_none() {
            continue;
        }
        if lone_cr_possible {
            // `\r\n` is one line end, even split across two reads.
            loop {
                match reader.fill_buf() {
                    Ok(next) => {
                        if next.first() == Some(&b'\n') {
                            reader.consume(1);
                            consumed += 1;
                        }
                        break;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        return Ok(consumed);
    }
}

impl<R: BufRead> Iterator for SwfReader<R> {
    type Item = Result<SwfRecord, SwfError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let line = match self.pending.take() {
                Some(line) => line,
                None => match self.read_line() {
                    Ok(Some(Line::TooLong)) => Line::TooLong,
                    Ok(Some(Line::Whole)) if matches!(kind(&self.buf), Kind::Data) => Line::Whole,
                    Ok(Some(Line::Whole)) => {
                        if let Err(e) = self.late_comment() {
                            return Some(Err(e));
                        }
                        continue;
                    }
                    Ok(None) => {
                        self.done = true;
                        return None;
                    }
                    Err(e) => return Some(Err(e)),
                },
            };
            let result = match line {
                Line::TooLong => self.malformed(Self::too_long),
                Line::Whole => match parse_fields(&self.buf) {
                    Ok(record) => match self.jobs.insert(record.job, self.line) {
                        Ok(()) => {
                            self.records += 1;
                            if self.records > self.limits.max_records {
                                return Some(Err(
                                    self.too_large("records", self.limits.max_records)
                                ));
                            }
                            return Some(Ok(record));
                        }
                        Err(first_line) => self.malformed(|r| SwfError::DuplicateJob {
                            source_name: r.source.clone(),
                            line: r.line,
                            job: record.job.unwrap_or(-1),
                            first_line,
                        }),
                    },
                    Err(e) => self.malformed(|r| e.to_swf(&r.buf, &r.source, r.line)),
                },
            };
            if let Err(e) = result {
                return Some(Err(e));
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
    /// The first lines skipped in lenient mode (at most
    /// [`Limits::kept_skipped`]; empty in strict mode).
    pub skipped: Vec<SkippedLine>,
    /// How many lines lenient mode skipped in all.
    pub skipped_count: u64,
}

/// Opens an SWF file, plain or gzip-compressed, and reads its header.
///
/// Compression is detected from the gzip magic bytes (`1f 8b`), whatever
/// the file is called. Multi-member gzip files are read whole. Messages
/// name the path as given (its control characters made visible).
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
    const LINE2: &str = "2 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";

    /// In lenient mode a malformed line above the header's comments is
    /// skipped, and the header after it is still read: `MaxProcs` is not
    /// lost as a late comment.
    #[test]
    fn a_malformed_line_before_the_first_record_does_not_end_the_header() {
        let text = format!("1 2 x\n; MaxProcs: 128\n{LINE}\n; MaxProcs: 4\n{LINE2}");
        let mut r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Lenient).unwrap();
        assert_eq!(r.header().max_procs, Some(128));
        assert_eq!(r.skipped_count(), 1);
        assert_eq!(r.skipped()[0].line, 1);
        assert_eq!(r.by_ref().filter(Result::is_ok).count(), 2);
        assert_eq!(r.header().max_procs, Some(128));
        // Strict mode refuses the line, as before.
        let mut r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Strict).unwrap();
        assert!(r.next().unwrap().is_err());
    }

    #[test]
    fn header_then_records_with_blank_and_late_comment_lines() {
        let text = format!("; Version: 2.2\n\n; MaxProcs: 4\n{LINE}\n; late comment\n{LINE2}");
        let mut r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Strict).unwrap();
        assert_eq!(r.header().max_procs, Some(4));
        assert_eq!(r.header().lines.len(), 2);
        assert_eq!(r.by_ref().filter(Result::is_ok).count(), 2);
        assert!(r.next().is_none());
    }

    /// `n` data lines numbered from `first`, in the given order.
    fn lines(numbers: &[i64]) -> String {
        numbers
            .iter()
            .map(|j| format!("{j} 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n"))
            .collect()
    }

    #[test]
    fn a_repeated_job_number_is_an_error_naming_both_lines_or_skipped() {
        for order in [&[1, 2, 3, 2][..], &[3, 1, 2, 1]] {
            let text = format!("; MaxProcs: 4\n{}", lines(order));
            let r = SwfReader::new(text.as_bytes(), "d.swf", Mode::Strict).unwrap();
            let e = r.into_trace().unwrap_err();
            let first = 2 + order.iter().position(|&j| j == order[3]).unwrap();
            assert_eq!(
                e.to_string(),
                format!(
                    "d.swf:5: field 1 (job number) is {}, which line {first} already has; SWF \
                     job numbers are unique (fix the file, or read in lenient mode to skip \
                     the repeats)",
                    order[3]
                )
            );
            let r = SwfReader::new(text.as_bytes(), "d.swf", Mode::Lenient).unwrap();
            let t = r.into_trace().unwrap();
            assert_eq!(t.records.len(), 3);
            assert_eq!((t.skipped_count, t.skipped[0].line), (1, 5));
        }
        // Unknown numbers repeat freely.
        let text = lines(&[-1, -1, -1]);
        let t = SwfReader::new(text.as_bytes(), "u", Mode::Strict)
            .unwrap()
            .into_trace()
            .unwrap();
        assert_eq!(t.records.len(), 3);
    }

    #[test]
    fn a_numeric_header_keyword_given_two_values_is_an_error_naming_both_lines() {
        let read = |text: &str, mode| {
            SwfReader::new(text.as_bytes(), "h.swf", mode).and_then(SwfReader::into_trace)
        };
        let text = format!(
            "; MaxProcs: 128\n; Note: x\n; maxprocs: 64\n{}",
            lines(&[1])
        );
        let e = read(&text, Mode::Strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "h.swf:3: header maxprocs is 64, but line 1 gives it as 128; keep one (or read in \
             lenient mode, which keeps line 1's)"
        );
        assert_eq!(e.line(), Some(3));
        let t = read(&text, Mode::Lenient).unwrap();
        assert_eq!((t.header.max_procs, t.skipped_count), (Some(128), 1));
        // The line named is the one whose value is kept, not the first to
        // name the keyword with an unknown or unusable value.
        for first in ["MaxProcs: -1", "MaxProcs: 0", "MaxProcs:", "MaxProcs: many"] {
            let text = format!(
                "; {first}\n; MaxProcs: 128\n; MaxProcs: 64\n{}",
                lines(&[1])
            );
            let t = read(&text, Mode::Lenient).unwrap();
            let e: Vec<String> = t.skipped.iter().map(|s| s.error.to_string()).collect();
            let e = e.join("\n");
            assert!(
                e.contains("h.swf:3: header MaxProcs is 64, but line 2 gives it as 128"),
                "{first}: {e}"
            );
        }
        // The same value again, an unknown (-1) one, a text keyword or a
        // note repeated: nothing to choose between.
        for extra in [
            "MaxProcs: 128 (again)",
            "MaxProcs: -1",
            "MaxProcs: 0",
            "Computer: other",
            "Note: y",
        ] {
            let text = format!(
                "; MaxProcs: 128\n; Computer: IBM SP2\n; {extra}\n{}",
                lines(&[1])
            );
            let t = read(&text, Mode::Strict).unwrap_or_else(|e| panic!("{extra}: {e}"));
            assert_eq!(t.header.max_procs, Some(128), "{extra}");
        }
        // 0 is unknown as -1 is: a size given after it is the size.
        for unknown in ["-1", "0"] {
            for key in ["MaxProcs", "MaxNodes"] {
                let text = format!("; {key}: {unknown}\n; {key}: 8\n{}", lines(&[1]));
                let t =
                    read(&text, Mode::Strict).unwrap_or_else(|e| panic!("{key} {unknown}: {e}"));
                assert_eq!(t.header.machine_size(), Some(8), "{key} {unknown}");
            }
        }
    }

    #[test]
    fn the_caps_on_a_whole_input_hold_in_both_modes() {
        let text = format!("; c\n\n{}", lines(&[1, 2, 3, 4]));
        let cases = [
            (
                Limits {
                    max_records: 3,
                    ..Limits::default()
                },
                "t:6: more than 3 records",
            ),
            (
                Limits {
                    max_lines: 4,
                    ..Limits::default()
                },
                "t:5: more than 4 lines",
            ),
            (
                Limits {
                    max_bytes: 60,
                    ..Limits::default()
                },
                "t:4: more than 60 bytes",
            ),
        ];
        for (limits, message) in cases {
            for mode in [Mode::Strict, Mode::Lenient] {
                let e = SwfReader::with_limits(text.as_bytes(), "t", mode, limits)
                    .and_then(SwfReader::into_trace)
                    .unwrap_err();
                assert!(e.to_string().starts_with(message), "{e}");
            }
        }
        let exact = Limits {
            max_records: 4,
            max_lines: 6,
            max_bytes: text.len() as u64,
            ..Limits::default()
        };
        let t = SwfReader::with_limits(text.as_bytes(), "t", Mode::Strict, exact)
            .and_then(SwfReader::into_trace)
            .unwrap();
        assert_eq!(t.records.len(), 4);
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
            "h.swf:1: header MaxProcs is 'many', expected a whole integer (optionally followed \
             by a blank and a note that does not start with a number); fix the header or read \
             in lenient mode"
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
        let data = format!("{LINE}{LINE2}");
        for mode in [Mode::Strict, Mode::Lenient] {
            let input = BufReader::with_capacity(8, data.as_bytes().chain(Failing));
            let mut r = SwfReader::new(input, "f.swf", mode).unwrap();
            let items: Vec<_> = r.by_ref().collect();
            assert_eq!(items.len(), 3, "two records then the error");
            assert!(matches!(items[2], Err(SwfError::Io { .. })));
            assert!(r.next().is_none());
            // An error of its own words gets no hint that would not fit it.
            assert_eq!(
                items[2].as_ref().unwrap_err().to_string(),
                "f.swf: disk on fire"
            );
        }
    }
}
