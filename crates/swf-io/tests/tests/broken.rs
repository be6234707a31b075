//! Malformed input, data-driven: `check(input, mode, expected)` renders
//! what the reader yields and what it skipped, one line each.

use swf_io::{Mode, SwfReader};

const OK: &str = "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1";

/// A valid data line for job `n`.
fn ok(n: u32) -> String {
    OK.replacen('1', &n.to_string(), 1)
}

/// Renders the reader's output: `record N` per record, `error MSG` per
/// error, then `skipped LINE: MSG` per skipped line.
fn render(input: &[u8], mode: Mode) -> Vec<String> {
    let mut reader = match SwfReader::new(input, "SDSC.swf", mode) {
        Ok(r) => r,
        Err(e) => return vec![format!("error {e}")],
    };
    let mut out: Vec<String> = reader
        .by_ref()
        .map(|item| match item {
            Ok(r) => format!("record {}", r.job.unwrap_or(-1)),
            Err(e) => format!("error {e}"),
        })
        .collect();
    assert!(reader.next().is_none(), "the iterator is fused");
    out.extend(
        reader
            .skipped()
            .iter()
            .map(|s| format!("skipped {}: {}", s.line, s.error)),
    );
    out
}

#[track_caller]
fn check(input: &str, mode: Mode, expected: &[&str]) {
    assert_eq!(render(input.as_bytes(), mode), expected, "input:\n{input}");
}

#[test]
fn field_count() {
    let input = format!(
        "; Version: 2.2\n{}\n",
        "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1"
    );
    check(
        &input,
        Mode::Strict,
        &[
            "error SDSC.swf:2: expected 18 fields, found 17; every SWF data line has 18 whitespace-separated fields",
        ],
    );
    check(
        &format!("{OK} 7\n"),
        Mode::Strict,
        &[
            "error SDSC.swf:1: expected 18 fields, found 19; every SWF data line has 18 whitespace-separated fields",
        ],
    );
    check(
        "x\n",
        Mode::Strict,
        &[
            "error SDSC.swf:1: expected 18 fields, found 1; every SWF data line has 18 whitespace-separated fields",
        ],
    );
}

#[test]
fn bad_field_names_file_line_field_and_text() {
    // Line 812, as in the house style's example: 811 good lines first.
    let mut input: String = (1..=811).map(|n| ok(n) + "\n").collect();
    input.push_str("812 0 5 10 abc -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n");
    let mut expected: Vec<String> = (1..=811).map(|n| format!("record {n}")).collect();
    expected.push(
        "error SDSC.swf:812: field 5 (allocated processors) is 'abc', expected an integer or -1"
            .into(),
    );
    assert_eq!(render(input.as_bytes(), Mode::Strict), expected);
}

#[test]
fn bad_fields() {
    let cases: &[(&str, &str)] = &[
        (
            "1 0 5 10 4 1.2.3 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1",
            "error SDSC.swf:1: field 6 (average CPU time) is '1.2.3', expected a number or -1",
        ),
        (
            "1 0 5 10 4 -1 inf 4 20 -1 1 3 2 -1 0 -1 -1 -1",
            "error SDSC.swf:1: field 7 (used memory) is 'inf', expected a number or -1",
        ),
        (
            "1 0 5 10 4.0 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1",
            "error SDSC.swf:1: field 5 (allocated processors) is '4.0', expected an integer or -1",
        ),
        (
            "1 0 5 99999999999999999999 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1",
            "error SDSC.swf:1: field 4 (run time) is '99999999999999999999', an integer beyond the \
             64-bit range (±9223372036854775807); expected an integer or -1",
        ),
        (
            "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 --1",
            "error SDSC.swf:1: field 18 (think time) is '--1', expected an integer or -1",
        ),
        (
            // The first bad field in field order is reported.
            "1 x 5 10 y -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1",
            "error SDSC.swf:1: field 2 (submit time) is 'x', expected an integer or -1",
        ),
        (
            "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "error SDSC.swf:1: field 18 (think time) is 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…', expected an integer or -1",
        ),
    ];
    for (line, expected) in cases {
        check(line, Mode::Strict, &[expected]);
    }
}

#[test]
fn strict_stops_at_the_first_bad_line() {
    let input = format!("{}\n{OK} extra\n{}\n1 2 3\n{}\n", ok(1), ok(3), ok(5));
    check(
        &input,
        Mode::Strict,
        &[
            "record 1",
            "error SDSC.swf:2: expected 18 fields, found 19; every SWF data line has 18 whitespace-separated fields",
        ],
    );
}

#[test]
fn lenient_skips_and_reports_which_lines() {
    let input = format!(
        "; Note: lenient\n{}\n{OK} extra\n{}\n1 2 3\n\n{}\n",
        ok(1),
        ok(3),
        ok(5)
    );
    check(
        &input,
        Mode::Lenient,
        &[
            "record 1",
            "record 3",
            "record 5",
            "skipped 3: SDSC.swf:3: expected 18 fields, found 19; every SWF data line has 18 whitespace-separated fields",
            "skipped 5: SDSC.swf:5: expected 18 fields, found 3; every SWF data line has 18 whitespace-separated fields",
        ],
    );
}

#[test]
fn tolerated_layout() {
    // Tabs, runs of blanks, CRLF, blank lines, indented comments, a late
    // comment and no final newline are all fine.
    let input = format!(
        "  ; Version: 2.2\r\n\r\n1\t0\t5 10  4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\r\n   \n; late\n{}",
        ok(2)
    );
    check(&input, Mode::Strict, &["record 1", "record 2"]);
    check("", Mode::Strict, &[]);
    check("; only a header\n", Mode::Strict, &[]);
}

/// A lone `\r` ends a line, like `\n` and `\r\n`: a classic Mac OS
/// (CR-only) file reads like its `\n` twin, and no `\r` hides a record
/// inside the comment or data line before it.
#[test]
fn every_line_end_is_a_line_end() {
    let unix = format!("; MaxProcs: 128\n; Note: x\n{}\n\n{}\n", ok(1), ok(2));
    let records = ["record 1", "record 2"];
    for end in ["\r", "\r\n"] {
        let text = unix.replace('\n', end);
        for mode in [Mode::Strict, Mode::Lenient] {
            check(&text, mode, &records);
            let reader = SwfReader::new(text.as_bytes(), "mac.swf", mode).unwrap();
            assert_eq!(reader.header().max_procs, Some(128));
            assert_eq!(reader.header().notes, ["x"]);
        }
        // The same read one byte at a time: `\r\n` split across two
        // reads is still one line end.
        let bytes = std::io::BufReader::with_capacity(1, text.as_bytes());
        let reader = SwfReader::new(bytes, "mac.swf", Mode::Strict).unwrap();
        assert_eq!(reader.filter(Result::is_ok).count(), 2, "{end:?}");
    }
    // A record after a lone `\r` in a header comment is a record.
    check(
        &format!("; MaxProcs: 128\r{}\n", ok(1)),
        Mode::Strict,
        &["record 1"],
    );
    // A lone `\r` inside a data line splits it: an error naming the
    // line, or two counted skips, never a silent loss.
    let split = format!(
        "{}\n1 0 5 10 4 -1 -1 4\r20 -1 1 3 2 -1 0 -1 -1 -1\n{}\n",
        ok(2),
        ok(3)
    );
    check(
        &split,
        Mode::Strict,
        &[
            "record 2",
            "error SDSC.swf:2: expected 18 fields, found 8; every SWF data line has 18 whitespace-separated fields",
        ],
    );
    check(
        &split,
        Mode::Lenient,
        &[
            "record 2",
            "record 3",
            "skipped 2: SDSC.swf:2: expected 18 fields, found 8; every SWF data line has 18 whitespace-separated fields",
            "skipped 3: SDSC.swf:3: expected 18 fields, found 10; every SWF data line has 18 whitespace-separated fields",
        ],
    );
}

#[test]
fn non_utf8_bytes() {
    let mut input = b"; Computer: \xff\xfe machine\n".to_vec();
    input.extend_from_slice(b"1 0 5 10 \xff -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n");
    assert_eq!(
        render(&input, Mode::Strict),
        [
            "error SDSC.swf:2: field 5 (allocated processors) is '\u{fffd}', expected an integer or -1"
        ]
    );
    let reader = SwfReader::new(&input[..], "x", Mode::Lenient).unwrap();
    assert_eq!(
        reader.header().computer.as_deref(),
        Some("\u{fffd}\u{fffd} machine")
    );
}

const BAD_HEADER: &str = "expected a whole integer (optionally followed by a blank and a note \
                          that does not start with a number); fix the header or read in lenient mode";

#[test]
fn bad_header_values() {
    check(
        "; MaxNodes: lots\n",
        Mode::Strict,
        &[&format!(
            "error SDSC.swf:1: header MaxNodes is 'lots', {BAD_HEADER}"
        )],
    );
    check(
        &format!("; MaxNodes: lots\n{OK}\n"),
        Mode::Lenient,
        &[
            "record 1",
            &format!("skipped 1: SDSC.swf:1: header MaxNodes is 'lots', {BAD_HEADER}"),
        ],
    );
}

/// A numeric header value is a whole integer, never read by its prefix:
/// `8.9`, `8e1` would be 8 processors and `0x10` a missing value (falling
/// back to `MaxNodes`) if it were. Every numeric keyword, both modes.
#[test]
fn numeric_header_values_are_whole_integers() {
    for keyword in [
        "MaxProcs",
        "MaxNodes",
        "MaxJobs",
        "MaxRecords",
        "UnixStartTime",
    ] {
        for value in ["8.9", "8e1", "0x10", "8abc", "8 16", "1,024"] {
            let text = format!("; Computer: x\n; {keyword}: {value}\n; MaxNodes: 4\n{OK}\n");
            let error = format!("SDSC.swf:2: header {keyword} is '{value}', {BAD_HEADER}");
            check(&text, Mode::Strict, &[&format!("error {error}")]);
            // Lenient: the line is skipped (and said so); the field stays
            // unset, so nothing reads a misread number.
            let mut reader = SwfReader::new(text.as_bytes(), "SDSC.swf", Mode::Lenient).unwrap();
            assert_eq!(reader.by_ref().count(), 1);
            assert_eq!(reader.skipped_count(), 1, "{keyword}: {value}");
            assert_eq!(reader.skipped()[0].error.to_string(), error);
            let h = reader.header();
            let typed = match keyword {
                "MaxProcs" => h.max_procs,
                "MaxNodes" => None,
                "MaxJobs" => h.max_jobs,
                "MaxRecords" => h.max_records,
                _ => h.unix_start_time.map(i64::unsigned_abs),
            };
            assert_eq!(typed, None, "{keyword}: {value}");
            // Line 3's `MaxNodes: 4` is the first usable one.
            assert_eq!(h.max_nodes, Some(4), "{keyword}: {value}");
        }
    }
    // What the Parallel Workloads Archive's logs write after a number.
    for value in [
        "338 (batch partition; 512 total)",
        "32 (dual CPU)",
        "400 (48 interactive, 352 batch, 6 service, 10 I/O)",
        "64   # as of 2003",
        "64 processors",
    ] {
        let text = format!("; MaxProcs: {value}\n{OK}\n");
        let reader = SwfReader::new(text.as_bytes(), "SDSC.swf", Mode::Strict).unwrap();
        let expected = value.split(' ').next().unwrap().parse::<u64>().unwrap();
        assert_eq!(reader.header().max_procs, Some(expected), "{value}");
    }
}

const LINE: &str = "1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";
const LINE2: &str = "2 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";

/// A numeric header keyword after the first record (two files joined
/// with `cat`) would be ignored: strict mode refuses it at its line,
/// lenient mode skips it; free comments and text keywords stay comments.
#[test]
fn a_numeric_header_keyword_after_the_first_record_is_malformed() {
    for late in ["; MaxProcs: 16", "  ;maxnodes:2", "; UnixStartTime: 5"] {
        let text = format!("; MaxProcs: 4\n\n{LINE}{late}\n{LINE2}");
        let r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Strict).unwrap();
        let e = r.into_trace().unwrap_err();
        assert_eq!(e.line(), Some(4), "{late}");
        assert!(
            e.to_string().starts_with("t.swf:4: header ")
                && e.to_string().contains("after the first record (line 3)"),
            "{e}"
        );
        let r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Lenient).unwrap();
        let t = r.into_trace().unwrap();
        assert_eq!(
            (t.records.len(), t.skipped_count, t.header.max_procs),
            (2, 1, Some(4))
        );
    }
    for free in [
        "; Note: late",
        "; Version: 2.2",
        "; see http://x",
        "; MaxProcs",
    ] {
        let text = format!("; MaxProcs: 4\n{LINE}{free}\n{LINE2}");
        let r = SwfReader::new(text.as_bytes(), "t.swf", Mode::Strict).unwrap();
        assert_eq!(r.into_trace().unwrap().records.len(), 2, "{free}");
    }
}

/// A control character inside a field is that field's fault, not a
/// miscount: `10<NUL>2` was reported as "expected 18 fields, found 17".
#[test]
fn a_control_character_inside_a_field_names_the_field() {
    for (from, to, shown) in [
        (" 10 4 ", " 10\u{0}4 ", "field 4 (run time) is '10\\u{0}4'"),
        (
            "1 0 5 ",
            "1 0\u{b}5 ",
            "field 2 (submit time) is '0\\u{b}5'",
        ),
        (
            " 4 -1 -1 4 ",
            " 4 -1\u{7f}-1 4 ",
            "field 6 (average CPU time) is '-1\\u{7f}-1'",
        ),
    ] {
        let line = LINE.replacen(from, to, 1);
        let r = SwfReader::new(line.as_bytes(), "t.swf", Mode::Strict).unwrap();
        let e = r.into_trace().unwrap_err().to_string();
        assert!(e.starts_with(&format!("t.swf:1: {shown}")), "{to:?}: {e}");
    }
}
