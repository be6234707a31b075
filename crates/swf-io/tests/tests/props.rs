//! Property tests: no input panics the reader or the transforms, and none
//! makes them hold more than their caps; the writer and the reader
//! round-trip; generated workloads keep their invariants.

use profile::Job;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use swf_io::lublin99::Lublin99;
use swf_io::{
    Estimate, Limits, MAX_PROCS, Mode, SwfHeader, SwfReader, SwfRecord, cap_procs,
    drop_shorter_than, last_n, rebase, scale_load, split_intervals, to_jobs, write_swf,
};

/// Small caps, so that short generated inputs reach them.
const SMALL: Limits = Limits {
    max_line_bytes: 120,
    kept_skipped: 3,
    ..Limits::DEFAULT
};

/// Reading `input` in both modes, with the default and with small caps,
/// never panics, and the output is sane: strict yields at most one error,
/// last; lenient yields none (in-memory input has no I/O errors); kept
/// skipped lines are at most the cap, increase and exist; the line buffer
/// stays within its bound.
fn check_reader_invariants(input: &[u8]) -> Result<(), TestCaseError> {
    for limits in [Limits::default(), SMALL] {
        check_reader_with(input, limits)?;
    }
    Ok(())
}

fn check_reader_with(input: &[u8], limits: Limits) -> Result<(), TestCaseError> {
    // Lines end at `\n`, `\r\n` or a lone `\r` (plus one for the text
    // after the last line end, as `split` counts).
    let lone_crs = input
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && input.get(i + 1) != Some(&b'\n'))
        .count();
    let physical_lines = (input.split(|&b| b == b'\n').count() + lone_crs) as u64;
    let buffer_bound = (limits.max_line_bytes + 1).next_power_of_two().max(256);
    match SwfReader::with_limits(input, "p.swf", Mode::Strict, limits) {
        Ok(mut reader) => {
            let items: Vec<_> = reader.by_ref().collect();
            let errors = items.iter().filter(|i| i.is_err()).count();
            prop_assert!(errors <= 1);
            if errors == 1 {
                prop_assert!(items.last().unwrap().is_err());
            }
            prop_assert_eq!(reader.skipped_count(), 0);
            prop_assert!(reader.buffer_capacity() <= buffer_bound);
        }
        Err(e) => prop_assert!(e.line().is_some_and(|l| l <= physical_lines)),
    }
    let mut reader = SwfReader::with_limits(input, "p.swf", Mode::Lenient, limits)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let records = reader
        .by_ref()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(reader.buffer_capacity() <= buffer_bound);
    let skipped: Vec<u64> = reader.skipped().iter().map(|s| s.line).collect();
    prop_assert!(skipped.len() <= limits.kept_skipped);
    prop_assert!(reader.skipped_count() >= skipped.len() as u64);
    prop_assert!(
        skipped.len() == limits.kept_skipped || reader.skipped_count() == skipped.len() as u64
    );
    prop_assert!(skipped.windows(2).all(|w| w[0] < w[1]), "{skipped:?}");
    prop_assert!(skipped.iter().all(|&l| l >= 1 && l <= physical_lines));
    prop_assert!(records.len() as u64 + reader.skipped_count() <= physical_lines);
    for s in reader.skipped() {
        let message = s.error.to_string();
        prop_assert!(
            message.starts_with(&format!("p.swf:{}: ", s.line)),
            "{message}"
        );
    }
    if let Some(size) = reader.header().machine_size() {
        prop_assert!((1..=MAX_PROCS).contains(&size));
    }
    check_transforms(&records)?;
    Ok(())
}

/// Converting `records` under every estimate, then every transform with
/// ordinary and extreme arguments, never panics; every job stays in the
/// time domain (`Job::check`), and the counts add up.
fn check_transforms(records: &[SwfRecord]) -> Result<(), TestCaseError> {
    let estimates = [
        Estimate::Requested,
        Estimate::Actual,
        Estimate::UnderEstimate(0.2),
        Estimate::UnderEstimate(-1e300),
        Estimate::UnderEstimate(1e300),
        Estimate::UnderEstimate(f64::NAN),
    ];
    for estimate in estimates {
        let c = to_jobs(records, estimate);
        prop_assert_eq!(c.jobs.len() + c.unreplayable, records.len());
        prop_assert!(c.out_of_range <= c.unreplayable);
        check_jobs(&c.jobs)?;
        check_jobs(&drop_shorter_than(c.jobs.clone(), i64::MAX).0)?;
        check_jobs(&drop_shorter_than(c.jobs.clone(), i64::MIN).0)?;
        check_jobs(&last_n(c.jobs.clone(), usize::MAX))?;
        check_jobs(&last_n(c.jobs.clone(), 1))?;
        check_jobs(&rebase(c.jobs.clone()))?;
        check_jobs(&cap_procs(c.jobs.clone(), 1).0)?;
        for days in [0, 1, u32::MAX] {
            for window in split_intervals(&c.jobs, days) {
                check_jobs(&window)?;
            }
        }
        for factor in [1e-300, 1e-6, 0.5, 1.0, 3.0, 1e14, 1e300, f64::NAN, -1.0] {
            match scale_load(c.jobs.clone(), factor) {
                Ok(jobs) => {
                    prop_assert_eq!(jobs.len(), c.jobs.len());
                    check_jobs(&jobs)?;
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }
    Ok(())
}

/// Every job is in the time domain, and submit times do not decrease.
fn check_jobs(jobs: &[Job]) -> Result<(), TestCaseError> {
    for j in jobs {
        prop_assert!(j.check().is_ok(), "{:?}: {:?}", j, j.check());
    }
    prop_assert!(jobs.windows(2).all(|w| w[0].submit <= w[1].submit));
    Ok(())
}

/// An SWF-shaped field: the edges of `i64` and of the time domain, small
/// and negative values, numbers too long for `i64`, signs, decimals.
fn extreme_field() -> impl Strategy<Value = String> {
    let limit = profile::Time::LIMIT.secs();
    prop_oneof![
        12 => prop::sample::select(vec![
            i64::MIN, i64::MIN + 1, -limit - 1, -limit, -2, -1, 0, 1, 2, 1 << 31,
            i64::from(u32::MAX), i64::from(u32::MAX) + 1, i64::from(MAX_PROCS) + 1,
            limit - 1, limit, limit + 1, i64::MAX - 7, i64::MAX - 1, i64::MAX,
        ]).prop_map(|v| v.to_string()),
        12 => (0i64..100_000).prop_map(|v| v.to_string()),
        4 => any::<i64>().prop_map(|v| v.to_string()),
        1 => prop::sample::select(vec![
            "9223372036854775808", "-9223372036854775809", "99999999999999999999999",
            "+7", "-0", "1e300", "1.5", "-1.0", "NaN",
        ]).prop_map(str::to_owned),
    ]
}

/// SWF-shaped text: a header with any machine size, then data lines of 18
/// extreme fields (now and then 17 or 19).
fn extreme_trace() -> impl Strategy<Value = String> {
    let fields = prop_oneof![8 => vec(extreme_field(), 18), 1 => vec(extreme_field(), 17..=19)];
    let line = fields.prop_map(|f| f.join(" "));
    (extreme_field(), vec(line, 0..12))
        .prop_map(|(procs, lines)| format!("; MaxProcs: {procs}\n{}\n", lines.join("\n")))
}

/// An integer field: `None` or any value but -1 (which means `None`).
fn int() -> impl Strategy<Value = Option<i64>> {
    prop_oneof![1 => Just(None), 4 => any::<i64>().prop_filter("-1 is None", |v| *v != -1).prop_map(Some)]
}

/// A decimal field: `None` or any finite value but -1.
fn float() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        1 => Just(None),
        2 => (0u32..100_000, 0u32..100).prop_map(|(a, b)| Some(f64::from(a) + f64::from(b) / 100.0)),
        2 => any::<f64>().prop_filter("finite, not -1", |v| v.is_finite() && *v != -1.0).prop_map(Some),
    ]
}

prop_compose! {
    fn record()(a in vec(int(), 15), f in vec(float(), 3)) -> SwfRecord {
        SwfRecord {
            job: a[0], submit: a[1], wait: a[2], run_time: a[3], allocated_procs: a[4],
            avg_cpu_time: f[0], used_memory: f[1],
            requested_procs: a[5], requested_time: a[6], requested_memory: f[2],
            status: a[7], user: a[8], group: a[9], executable: a[10], queue: a[11],
            partition: a[12], preceding_job: a[13], think_time: a[14],
        }
    }
}

/// Header text: printable, no `#` (a comment in typed values), no line
/// breaks, trimmed.
fn text() -> impl Strategy<Value = String> {
    "[ -\"$-~]{0,24}".prop_map(|s| s.trim().to_owned())
}

fn opt_text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(text().prop_filter("empty is None", |s| !s.is_empty()))
}

fn opt_u64() -> impl Strategy<Value = Option<u64>> {
    proptest::option::of(any::<u64>())
}

/// A machine size the reader accepts.
fn opt_size() -> impl Strategy<Value = Option<u64>> {
    proptest::option::of(0..=u64::from(MAX_PROCS))
}

prop_compose! {
    fn typed_header()(
        version in opt_text(), computer in opt_text(), installation in opt_text(),
        max_jobs in opt_u64(), max_records in opt_u64(), max_nodes in opt_size(), max_procs in opt_size(),
        unix_start_time in proptest::option::of(any::<i64>().prop_filter("-1 is None", |v| *v != -1)),
        time_zone_string in opt_text(), notes in vec(text(), 0..4),
    ) -> SwfHeader {
        SwfHeader {
            version, computer, installation, max_jobs, max_records, max_nodes, max_procs,
            unix_start_time, time_zone_string, notes, lines: Vec::new(),
        }
    }
}

/// Header lines: keywords (some of them the typed ones) with any value,
/// and free-text comments (no `:`, which would make them keyword lines).
fn header_lines() -> impl Strategy<Value = Vec<(String, String)>> {
    let keyword = prop_oneof![
        Just("MaxProcs".to_owned()),
        Just("MaxNodes".to_owned()),
        Just("Note".to_owned()),
        Just("TimeZoneString".to_owned()),
        Just("UnixStartTime".to_owned()),
        "[A-Za-z][A-Za-z0-9_]{0,12}",
    ];
    let line = prop_oneof![
        (keyword, "[ -~]{0,24}").prop_map(|(k, v)| (k, v.trim().to_owned())),
        "[ -9;-~]{0,24}".prop_map(|v| (String::new(), v.trim().to_owned())),
    ];
    vec(line, 0..12)
}

/// Short text of every kind a header may be given: typed keywords,
/// colons, `#`, blanks at either end, line breaks, controls, non-ASCII.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "MaxProcs",
            "maxprocs",
            "Version",
            "Note",
            "Computer",
            "Max Procs",
            "A:B",
            "",
            " ",
            "x # y",
            "#x",
            "64",
            "99999999999",
            "-1",
            "http://x",
            "a\nb",
            "a\rb",
        ])
        .prop_map(str::to_owned),
        "[ -~\t\u{7f}\u{85}\u{2028}é]{0,12}",
    ]
}

fn round_trip(
    header: &SwfHeader,
    records: &[SwfRecord],
    mode: Mode,
) -> Result<(SwfHeader, Vec<SwfRecord>), TestCaseError> {
    let mut out = Vec::new();
    write_swf(&mut out, header, records).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let reader =
        SwfReader::new(&out[..], "rt.swf", mode).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let header = reader.header().clone();
    let records = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    Ok((header, records))
}

fn check_generated(g: &Lublin99) -> Result<(), TestCaseError> {
    let recs = g.generate();
    prop_assert!(recs.len() <= g.max_jobs.unwrap_or(usize::MAX));
    prop_assert!(recs.windows(2).all(|w| w[0].submit <= w[1].submit));
    for (i, r) in recs.iter().enumerate() {
        prop_assert_eq!(r.job, Some(i as i64 + 1));
        let submit = r.submit.unwrap();
        prop_assert!(submit >= 0 && submit < g.duration);
        let size = r.allocated_procs.unwrap();
        prop_assert!(
            size >= 1 && size <= i64::from(g.procs),
            "size {} on {} procs",
            size,
            g.procs
        );
        prop_assert!((1..=162_754).contains(&r.run_time.unwrap()));
        prop_assert!(r.queue == Some(0) || (g.two_class && r.queue == Some(1)));
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    #[test]
    fn arbitrary_text_never_panics(lines in vec(".{0,60}", 0..12)) {
        check_reader_invariants(lines.join("\n").as_bytes())?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..400)) {
        check_reader_invariants(&bytes)?;
    }

    #[test]
    fn extreme_integers_never_panic_nor_leave_the_time_domain(text in extreme_trace()) {
        check_reader_invariants(text.as_bytes())?;
    }

    #[test]
    fn mutated_valid_lines_never_panic(
        records in vec(record(), 1..6),
        edits in vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(&b"0123456789-+.eE \t;:#\nx\xff"[..])), 1..8),
    ) {
        let mut bytes = b"; Version: 2.2\n; MaxProcs: 8 # note\n".to_vec();
        let mut data = Vec::new();
        write_swf(&mut data, &SwfHeader::default(), &records).unwrap();
        bytes.extend_from_slice(&data);
        for (at, op, byte) in edits {
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ => { bytes.remove(i); }
            }
            if bytes.is_empty() { break; }
        }
        check_reader_invariants(&bytes)?;
    }

    #[test]
    fn records_round_trip(records in vec(record(), 0..20)) {
        let (_, back) = round_trip(&SwfHeader::default(), &records, Mode::Strict)?;
        prop_assert_eq!(back, records);
    }

    #[test]
    fn typed_header_fields_round_trip(header in typed_header(), records in vec(record(), 0..3)) {
        let (back, recs) = round_trip(&header, &records, Mode::Strict)?;
        prop_assert_eq!(recs, records);
        prop_assert_eq!(SwfHeader { lines: Vec::new(), ..back.clone() }, header);
        // And once written from lines, the header is a fixed point.
        let (again, _) = round_trip(&back, &[], Mode::Strict)?;
        prop_assert_eq!(again, back);
    }

    #[test]
    fn machine_sizes_past_the_cap_are_refused_not_clamped(
        size in (u64::from(MAX_PROCS) + 1)..,
        keyword in prop::sample::select(vec!["MaxProcs", "MaxNodes"]),
    ) {
        let text = format!("; Version: 2.2\n; {keyword}: {size}\n");
        let e = SwfReader::new(text.as_bytes(), "h.swf", Mode::Strict).unwrap_err();
        prop_assert_eq!(e.line(), Some(2));
        let r = SwfReader::new(text.as_bytes(), "h.swf", Mode::Lenient).unwrap();
        prop_assert_eq!(r.header().machine_size(), None);
        prop_assert_eq!(r.skipped_count(), 1);
    }

    #[test]
    fn header_lines_round_trip(lines in header_lines()) {
        let mut header = SwfHeader::default();
        for (k, v) in &lines {
            header.push_line(k, v);
        }
        // A typed keyword may have a value the strict reader refuses (a
        // lenient read keeps the line): the writer refuses such a header,
        // and writes it without those lines, which read back strictly.
        let (kept, dropped) = header.without_unusable_lines();
        let written = write_swf(&mut Vec::new(), &header, &[]);
        prop_assert_eq!(written.is_ok(), dropped.is_empty(), "{:?}", written);
        if let Err(e) = written {
            prop_assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        }
        let (back, _) = round_trip(&kept, &[], Mode::Strict)?;
        prop_assert_eq!(back, kept);
    }

    /// Hostile header lines (any keyword and value: colons, `#`, blanks,
    /// line breaks, control and non-ASCII characters, typed keywords with
    /// any value) and typed strings: what the writer takes reads back as
    /// given, and what it refuses is refused as invalid input, before a
    /// byte is written.
    #[test]
    fn the_writer_writes_only_what_reads_back(
        lines in vec((hostile_text(), hostile_text()), 0..6),
        computer in proptest::option::of(hostile_text()),
        job_numbers in vec(proptest::option::of(0i64..4), 0..4),
    ) {
        let mut header = SwfHeader::default();
        for (k, v) in &lines {
            header.push_line(k, v);
        }
        // A typed field no line gives is written as a line of its own.
        let typed_only = header.computer.is_none() && computer.is_some();
        if typed_only {
            header.computer = computer;
        }
        let records: Vec<SwfRecord> = job_numbers
            .iter()
            .map(|&job| SwfRecord { job, ..SwfRecord::default() })
            .collect();
        let mut out = Vec::new();
        match write_swf(&mut out, &header, &records) {
            Ok(()) => {
                let (mut back, recs) = round_trip(&header, &records, Mode::Lenient)?;
                if typed_only {
                    prop_assert_eq!(back.lines.first().map(|l| l.0.as_str()), Some("Computer"));
                    back.lines.remove(0);
                }
                prop_assert_eq!(back, header);
                prop_assert_eq!(recs, records);
            }
            Err(e) => {
                prop_assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{}", e);
                prop_assert!(out.is_empty());
            }
        }
    }

    #[test]
    fn generated_workloads_keep_their_invariants(
        procs in 1u32..5000, seed in any::<u64>(), two_class in any::<bool>(),
        max_jobs in 0usize..300, days in 1i64..30,
    ) {
        check_generated(&Lublin99 { procs, duration: days * 86_400, max_jobs: Some(max_jobs), seed, two_class, ..Default::default() })?;
    }
}
