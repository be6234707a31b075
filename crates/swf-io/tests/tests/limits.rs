//! Bounded resources and the edges of the accepted ranges: one regression
//! test per hostile input (a line without end, millions of bad lines, a
//! byte order mark, machine sizes out of range, times past the domain).

use std::io::{self, BufReader, Read};

use profile::{MAX_DURATION, Time};
use swf_io::{
    Estimate, KEPT_SKIPPED, Limits, MAX_LINE_BYTES, MAX_PROCS, Mode, SwfError, SwfReader, to_jobs,
};

const OK: &str = "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";
/// A second record (job numbers are unique).
const OK2: &str = "2 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";

/// The buffer a reader may hold for one line, allocated: the cap plus the
/// `\n`, rounded up by `Vec`'s doubling.
fn buffer_bound(limits: Limits) -> usize {
    (limits.max_line_bytes + 1).next_power_of_two().max(256)
}

/// `n` bytes of `a` and no newline, made as they are read (nothing the
/// size of the line is ever allocated by the test).
fn endless_line(n: u64) -> io::Take<io::Repeat> {
    io::repeat(b'a').take(n)
}

#[test]
fn a_line_past_the_cap_is_an_error_naming_it_and_never_buffered() {
    // 20 MB of one line, between two good lines, through a small buffer.
    let input = OK
        .as_bytes()
        .chain(endless_line(20_000_000))
        .chain(&b"\n"[..])
        .chain(OK2.as_bytes());
    let mut strict = SwfReader::new(
        BufReader::with_capacity(4096, input),
        "long.swf",
        Mode::Strict,
    )
    .unwrap();
    assert!(strict.next().unwrap().is_ok());
    let e = strict.next().unwrap().unwrap_err();
    assert_eq!(
        e.to_string(),
        "long.swf:2: line longer than 65536 bytes (SWF lines are under 200 bytes); check that \
         this is an SWF file"
    );
    assert!(matches!(
        e,
        SwfError::LineTooLong {
            line: 2,
            limit: MAX_LINE_BYTES,
            ..
        }
    ));
    assert!(strict.next().is_none());
    assert!(strict.buffer_capacity() <= buffer_bound(Limits::default()));

    let input = OK
        .as_bytes()
        .chain(endless_line(20_000_000))
        .chain(&b"\n"[..])
        .chain(OK2.as_bytes());
    let mut lenient = SwfReader::new(
        BufReader::with_capacity(4096, input),
        "long.swf",
        Mode::Lenient,
    )
    .unwrap();
    assert_eq!(lenient.by_ref().filter(Result::is_ok).count(), 2);
    assert_eq!(lenient.skipped_count(), 1);
    assert_eq!(lenient.skipped()[0].line, 2);
    assert!(lenient.buffer_capacity() <= buffer_bound(Limits::default()));
}

#[test]
fn the_line_cap_is_exact_and_adjustable() {
    let limits = Limits {
        max_line_bytes: OK.len() - 1,
        ..Limits::default()
    };
    // Exactly the cap (without the line end) is fine, also without a final
    // `\n`, with `\r\n` and with a lone `\r`: no line end counts.
    let (crlf, cr) = (OK.replace('\n', "\r\n"), OK.replace('\n', "\r"));
    for text in [OK, OK.trim_end(), &crlf, &cr] {
        let r = SwfReader::with_limits(text.as_bytes(), "t", Mode::Strict, limits).unwrap();
        assert_eq!(r.filter(Result::is_ok).count(), 1, "{text:?}");
    }
    let text = format!("{OK}{}", OK.replace('\n', " \r\n"));
    let mut r = SwfReader::with_limits(text.as_bytes(), "t", Mode::Strict, limits).unwrap();
    assert!(r.next().unwrap().is_ok());
    assert!(matches!(
        r.next(),
        Some(Err(SwfError::LineTooLong { line: 2, .. }))
    ));
    // A header line past the cap: an error when the reader is made.
    let long_header = format!("; Note: {}\n{OK}", "n".repeat(OK.len()));
    let e = SwfReader::with_limits(long_header.as_bytes(), "t", Mode::Strict, limits).unwrap_err();
    assert_eq!(e.line(), Some(1));
    let r = SwfReader::with_limits(long_header.as_bytes(), "t", Mode::Lenient, limits).unwrap();
    assert_eq!(r.skipped_count(), 1);
    assert!(r.header().notes.is_empty());
    assert_eq!(r.count(), 1);
}

#[test]
fn a_file_that_is_one_endless_line_ends_with_an_error_or_nothing() {
    // Without any newline; the lenient reader reads it all, buffering
    // only the cap; the strict one stops at the cap.
    let e = SwfReader::new(
        BufReader::new(endless_line(5_000_000)),
        "one.swf",
        Mode::Strict,
    )
    .unwrap_err();
    assert_eq!(e.line(), Some(1));
    let mut r = SwfReader::new(
        BufReader::new(endless_line(5_000_000)),
        "one.swf",
        Mode::Lenient,
    )
    .unwrap();
    assert!(r.next().is_none());
    assert_eq!(r.skipped_count(), 1);
    assert!(r.buffer_capacity() <= buffer_bound(Limits::default()));
}

/// `n` lines of `x`, made as they are read.
#[derive(Debug)]
struct BadLines(u64);

impl Read for BadLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let lines = (buf.len() / 2).min(usize::try_from(self.0).unwrap_or(usize::MAX));
        for pair in buf[..2 * lines].chunks_exact_mut(2) {
            pair.copy_from_slice(b"x\n");
        }
        self.0 -= lines as u64;
        Ok(2 * lines)
    }
}

#[test]
fn lenient_mode_keeps_the_first_few_skipped_lines_and_counts_the_rest() {
    let n = 2_000_000;
    let mut r = SwfReader::new(
        BufReader::new(OK.as_bytes().chain(BadLines(n)).chain(OK2.as_bytes())),
        "bad.swf",
        Mode::Lenient,
    )
    .unwrap();
    assert_eq!(r.by_ref().filter(Result::is_ok).count(), 2);
    assert_eq!(r.skipped_count(), n);
    assert_eq!(r.skipped().len(), KEPT_SKIPPED);
    let lines: Vec<u64> = r.skipped().iter().map(|s| s.line).collect();
    assert_eq!(lines, (2..2 + KEPT_SKIPPED as u64).collect::<Vec<_>>());
    assert_eq!(
        r.skipped()[0].error.to_string(),
        "bad.swf:2: expected 18 fields, found 1; every SWF data line has 18 whitespace-separated \
         fields"
    );
    // The same through `into_trace`, with another number kept.
    let limits = Limits {
        kept_skipped: 3,
        ..Limits::default()
    };
    let input = BufReader::new(BadLines(1000).chain(OK.as_bytes()));
    let trace = SwfReader::with_limits(input, "b", Mode::Lenient, limits)
        .unwrap()
        .into_trace()
        .unwrap();
    assert_eq!((trace.records.len(), trace.skipped.len()), (1, 3));
    assert_eq!(trace.skipped_count, 1000);
}

#[test]
fn a_byte_order_mark_is_skipped_at_the_start_only() {
    for text in [
        format!("\u{feff}; MaxProcs: 4\n{OK}"),
        format!("\u{feff}{OK}"),
        format!("\u{feff}\n{OK}"),
    ] {
        let r = SwfReader::new(text.as_bytes(), "bom.swf", Mode::Strict).unwrap();
        assert!(r.header().max_procs.is_none_or(|p| p == 4));
        assert_eq!(r.filter(Result::is_ok).count(), 1, "{text:?}");
    }
    // A mark split over reads is still found.
    let text = format!("\u{feff}; MaxProcs: 4\n{OK}");
    let r = SwfReader::new(
        BufReader::with_capacity(1, text.as_bytes()),
        "bom.swf",
        Mode::Strict,
    )
    .unwrap();
    assert_eq!(r.header().max_procs, Some(4));
    // Anywhere else it is data, and not a number.
    let text = format!("{OK}\u{feff}{OK}");
    let mut r = SwfReader::new(text.as_bytes(), "bom.swf", Mode::Strict).unwrap();
    assert!(r.next().unwrap().is_ok());
    assert_eq!(
        r.next().unwrap().unwrap_err().to_string(),
        "bom.swf:2: field 1 (job number) is '\u{feff}1', expected an integer or -1"
    );
}

#[track_caller]
fn check_header(text: &str, strict: Result<Option<u32>, &str>, lenient_skipped: u64) {
    let input = format!("; Version: 2.2\n{text}\n{OK}");
    match SwfReader::new(input.as_bytes(), "h.swf", Mode::Strict) {
        Ok(r) => assert_eq!(Ok(r.header().machine_size()), strict, "{text}"),
        Err(e) => assert_eq!(Err(e.to_string().as_str()), strict, "{text}"),
    }
    let r = SwfReader::new(input.as_bytes(), "h.swf", Mode::Lenient).unwrap();
    assert_eq!(r.skipped_count(), lenient_skipped, "{text}");
    if lenient_skipped > 0 {
        assert_eq!(r.header().machine_size(), None, "never clamped: {text}");
    }
}

#[test]
fn machine_sizes_out_of_range_are_errors_naming_the_line() {
    let out = |v: &str, k: &str| {
        format!(
            "h.swf:2: header {k} is {v}, out of range (expected 0 to 10000000, or -1 for \
             unknown); fix the header or read in lenient mode"
        )
    };
    check_header("; MaxProcs: 128", Ok(Some(128)), 0);
    check_header(&format!("; MaxProcs: {MAX_PROCS}"), Ok(Some(MAX_PROCS)), 0);
    // 0, -1 or missing: no size; the caller must give one.
    check_header("; MaxProcs: 0", Ok(None), 0);
    check_header("; MaxProcs: -1", Ok(None), 0);
    check_header("; Computer: x", Ok(None), 0);
    // MaxNodes stands in for a missing or zero MaxProcs.
    check_header("; MaxProcs: 0\n; MaxNodes: 338 (batch)", Ok(Some(338)), 0);
    for v in [
        "4294967295",
        "4294967296",
        "99999999999999",
        "10000001",
        "-5",
    ] {
        check_header(&format!("; MaxProcs: {v}"), Err(&out(v, "MaxProcs")), 1);
        check_header(&format!("; MaxNodes: {v}"), Err(&out(v, "MaxNodes")), 1);
    }
    let huge = "9".repeat(50);
    check_header(
        &format!("; MaxProcs: {huge}"),
        Err(&out(&format!("{}…", &huge[..40]), "MaxProcs")),
        1,
    );
    check_header(
        "; UnixStartTime: 99999999999999999999",
        Err(
            "h.swf:2: header UnixStartTime is 99999999999999999999, out of range (expected an \
             integer that fits in 64 bits); fix the header or read in lenient mode",
        ),
        1,
    );
}

/// Reads `text` strictly and converts it, returning (jobs, unreplayable,
/// out of range).
fn convert(text: &str, estimate: Estimate) -> (usize, usize, usize) {
    let records = SwfReader::new(text.as_bytes(), "t", Mode::Strict)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let c = to_jobs(&records, estimate);
    for j in &c.jobs {
        assert!(j.check().is_ok(), "{j:?} is outside the time domain");
    }
    (c.jobs.len(), c.unreplayable, c.out_of_range)
}

#[test]
fn extreme_integers_are_dropped_and_counted_never_clamped() {
    let max = i64::MAX;
    let limit = Time::LIMIT.secs();
    let line = |submit: i64, run: i64, procs: i64, req: i64| {
        format!("1 {submit} 0 {run} {procs} -1 -1 {procs} {req} -1 1 1 1 -1 1 -1 -1 -1\n")
    };
    let cases = [
        // (line, estimate, (kept, unreplayable, out of range))
        (line(0, 10, 1, 20), Estimate::Requested, (1, 0, 0)),
        (line(max, 10, 1, 20), Estimate::Requested, (0, 1, 1)),
        (
            line(9_223_372_036_854_775_800, 100, 1, 100),
            Estimate::Actual,
            (0, 1, 1),
        ),
        (line(limit, 10, 1, 20), Estimate::Requested, (1, 0, 0)),
        (line(limit + 1, 10, 1, 20), Estimate::Requested, (0, 1, 1)),
        (line(0, max, 1, 20), Estimate::Actual, (0, 1, 1)),
        (line(0, MAX_DURATION, 1, 20), Estimate::Actual, (1, 0, 0)),
        (line(0, 10, 1, max), Estimate::Requested, (0, 1, 1)),
        (line(0, 10, 1, max), Estimate::Actual, (1, 0, 0)),
        (line(0, 10, max, 20), Estimate::Requested, (0, 1, 1)),
        (
            line(0, 10, 1, 20),
            Estimate::UnderEstimate(-1e300),
            (0, 1, 1),
        ),
        // Negative values are unreplayable, as -1 is.
        (line(-5, 10, 1, 20), Estimate::Requested, (0, 1, 0)),
        (line(i64::MIN, 10, 1, 20), Estimate::Requested, (0, 1, 0)),
        (line(0, -7, 1, 20), Estimate::Requested, (0, 1, 0)),
        (line(0, 10, -3, 20), Estimate::Requested, (0, 1, 0)),
        // A negative requested time falls back to the run time.
        (line(0, 10, 1, -9), Estimate::Requested, (1, 0, 0)),
    ];
    for (text, estimate, expected) in cases {
        assert_eq!(convert(&text, estimate), expected, "{text} {estimate:?}");
    }
}

#[test]
fn an_empty_trace_converts_to_no_jobs_and_says_why() {
    // No data at all, only bad lines, only unreplayable records: no job.
    // The caller turns this into an error (see `simulate` and the
    // experiments' empty-workload error); the counts say why.
    assert_eq!(convert("; MaxProcs: 4\n", Estimate::Requested), (0, 0, 0));
    let r = SwfReader::new(&b"x\ny\n"[..], "t", Mode::Lenient).unwrap();
    let trace = r.into_trace().unwrap();
    assert_eq!((trace.records.len(), trace.skipped_count), (0, 2));
    let text = "1 -1 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n";
    assert_eq!(convert(text, Estimate::Requested), (0, 1, 0));
}

#[test]
fn a_header_past_its_cap_is_an_error_in_both_modes() {
    // The reader keeps the header whole: a bomb of comment lines must stop
    // at the cap, not grow without bound (or take quadratic time).
    let text = format!("; MaxProcs: 4\n{}{OK}", "; a: b\n".repeat(20));
    for mode in [Mode::Strict, Mode::Lenient] {
        let limits = Limits {
            max_header_bytes: 60,
            ..Limits::default()
        };
        let e = SwfReader::with_limits(text.as_bytes(), "t", mode, limits)
            .and_then(SwfReader::into_trace)
            .unwrap_err();
        assert_eq!(e.line(), Some(9), "{e}");
        assert!(
            e.to_string().starts_with(
                "t:9: more than 60 header bytes, the reader's cap on one trace \
                 (`Limits::max_header_bytes`)"
            ),
            "{e}"
        );
    }
    // Many distinct keywords under the default cap read in linear time.
    let keywords: String = (0..40_000).map(|i| format!("; K{i}: v\n")).collect();
    let t = SwfReader::new(
        format!("; MaxProcs: 4\n{keywords}{OK}").as_bytes(),
        "t",
        Mode::Strict,
    )
    .and_then(SwfReader::into_trace)
    .unwrap();
    assert_eq!(t.header.lines.len(), 40_001);
}
