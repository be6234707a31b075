//! Reading the real Parallel Workloads Archive traces in `shared/traces`.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use swf_io::{
    Estimate, Mode, SwfHeader, SwfReader, SwfRecord, Trace, open, read_trace, to_jobs, write_swf,
};

use crate::{TempFile, traces_dir};

fn load(name: &str) -> Option<Trace> {
    let path = traces_dir()?.join(name);
    Some(read_trace(&path, Mode::Strict).unwrap_or_else(|e| panic!("{e}")))
}

fn count(trace: &Trace, pred: impl Fn(&swf_io::SwfRecord) -> bool) -> usize {
    trace.records.iter().filter(|r| pred(r)).count()
}

#[test]
fn every_trace_reads_completely_in_submit_order() {
    let Some(dir) = traces_dir() else { return };
    // (file, data lines, header MaxRecords, MaxProcs, UnixStartTime, TimeZoneString).
    // Three cleaned files kept the MaxRecords of the uncleaned log, so for
    // them the data lines (counted with zcat | grep -vc '^;') are fewer.
    let expected = [
        (
            "SDSC-SP2-1998-4.2-cln.swf.gz",
            59_715,
            59_715,
            128,
            893_466_664,
            "US/Pacific",
        ),
        (
            "DAS2-fs1-2003-1.swf.gz",
            40_315,
            40_315,
            64,
            1_041_377_305,
            "Europe/Amsterdam",
        ),
        (
            "CTC-SP2-1996-3.1-cln.swf.gz",
            77_222,
            79_302,
            338,
            835_823_160,
            "US/Eastern",
        ),
        (
            "KTH-SP2-1996-2.1-cln.swf.gz",
            28_476,
            28_476,
            100,
            843_480_031,
            "Europe/Stockholm",
        ),
        (
            "LANL-CM5-1994-4.1-cln.swf.gz",
            122_060,
            201_387,
            1024,
            781_275_672,
            "US/Mountain",
        ),
        (
            "SDSC-BLUE-2000-4.2-cln.swf.gz",
            243_306,
            243_306,
            1152,
            956_700_003,
            "US/Pacific",
        ),
        (
            "HPC2N-2002-2.2-cln.swf.gz",
            202_871,
            202_871,
            240,
            1_027_839_845,
            "Europe/Stockholm",
        ),
        (
            "SDSC-Par-1996-3.1-cln.swf.gz",
            32_135,
            38_719,
            400,
            820_090_437,
            "US/Pacific",
        ),
    ];
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".swf.gz"))
        .collect();
    files.sort();
    assert!(
        files.iter().any(|f| f.starts_with("SDSC-SP2")),
        "traces present: {files:?}"
    );
    for name in &files {
        let t = read_trace(&dir.join(name), Mode::Strict).unwrap_or_else(|e| panic!("{e}"));
        let h = &t.header;
        assert!(t.skipped.is_empty());
        assert_eq!(t.skipped_count, 0);
        // Every value lies inside the accepted ranges: the edges of the
        // time domain and the machine-size cap drop nothing from a real log.
        assert_eq!(
            h.machine_size().map(u64::from),
            h.max_procs,
            "{name}: machine size"
        );
        for estimate in [Estimate::Requested, Estimate::Actual] {
            assert_eq!(to_jobs(&t.records, estimate).out_of_range, 0, "{name}");
        }
        assert!(
            t.records.windows(2).all(|w| w[0].submit <= w[1].submit),
            "{name}: submit order"
        );
        let widest = t
            .records
            .iter()
            .filter_map(|r| r.allocated_procs)
            .max()
            .unwrap();
        assert!(
            widest <= h.max_procs.unwrap() as i64,
            "{name}: widest job {widest}"
        );
        assert!(h.max_jobs.unwrap() >= t.records.len() as u64, "{name}");
        let Some(&(_, records, max_records, procs, start, tz)) =
            expected.iter().find(|e| e.0 == name)
        else {
            // A trace added later: its data lines should match its header.
            assert_eq!(h.max_records, Some(t.records.len() as u64), "{name}");
            continue;
        };
        assert_eq!(t.records.len(), records, "{name}");
        assert_eq!(h.max_records, Some(max_records), "{name}");
        assert_eq!(h.max_procs, Some(procs), "{name}");
        assert_eq!(h.unix_start_time, Some(start), "{name}");
        assert_eq!(h.time_zone_string.as_deref(), Some(tz), "{name}");
        assert_eq!(h.version.as_deref(), Some("2.2"), "{name}");
    }
}

#[test]
fn sdsc_sp2_header_and_counts() {
    let Some(t) = load("SDSC-SP2-1998-4.2-cln.swf.gz") else {
        return;
    };
    let h = &t.header;
    assert_eq!(h.computer.as_deref(), Some("IBM SP2"));
    assert_eq!(h.installation.as_deref(), Some("SDSC"));
    assert_eq!((h.max_jobs, h.max_records), (Some(73_496), Some(59_715)));
    assert_eq!((h.max_nodes, h.max_procs), (Some(128), Some(128)));
    assert_eq!(h.unix_start_time, Some(893_466_664));
    assert_eq!(h.time_zone_string.as_deref(), Some("US/Pacific"));
    assert!(
        h.notes.iter().any(|n| n.contains("CLEANED")),
        "{:?}",
        h.notes
    );
    assert!(
        h.lines
            .iter()
            .any(|(k, v)| k.is_empty() && v == "http://www.cs.huji.ac.il/labs/parallel/workload/")
    );
    assert!(
        h.lines
            .iter()
            .any(|(k, v)| k == "Queue" && v.starts_with('0') && v.ends_with("interactive")),
        "{:?}",
        h.lines
    );

    assert_eq!(t.records.len(), 59_715);
    assert_eq!(count(&t, |r| r.run_time.is_none()), 5_671);
    assert_eq!(count(&t, |r| r.allocated_procs.is_none()), 5_669);
    assert_eq!(count(&t, |r| r.status == Some(1)), 43_117);
    assert_eq!(count(&t, |r| r.status == Some(5)), 16_598);
    assert_eq!(count(&t, |r| r.requested_procs.is_none()), 0);
    assert_eq!(count(&t, |r| r.requested_time.is_none()), 66);
    assert!(
        count(&t, |r| r.avg_cpu_time.is_some_and(|c| c.fract() != 0.0)) > 0,
        "decimal CPU times"
    );

    // The replay rules, counted independently.
    let unreplayable = count(&t, |r| {
        r.run_time.is_none()
            || (r.allocated_procs.is_none() && r.requested_procs.is_none())
            || r.submit.is_none()
    });
    let c = to_jobs(&t.records, Estimate::Requested);
    assert_eq!(c.unreplayable, unreplayable);
    assert_eq!(c.jobs.len() + c.unreplayable, 59_715);
    let kept_without_estimate = count(&t, |r| r.run_time.is_some() && r.requested_time.is_none());
    assert_eq!(c.no_estimate, kept_without_estimate);
    assert!(
        c.jobs
            .iter()
            .all(|j| j.procs >= 1 && j.procs <= 128 && j.estimate >= 1 && j.run_time >= 0)
    );
}

#[test]
fn das2_padded_keywords() {
    let Some(t) = load("DAS2-fs1-2003-1.swf.gz") else {
        return;
    };
    let h = &t.header;
    assert_eq!(h.version.as_deref(), Some("2.2"));
    assert_eq!(h.computer.as_deref(), Some("Pentium-III Linux cluster"));
    assert_eq!(
        h.installation.as_deref(),
        Some("DAS2 - Leiden University (fs1)")
    );
    assert_eq!(
        h.time_zone_string.as_deref(),
        Some("Europe/Amsterdam"),
        "comment after the value is dropped"
    );
    assert_eq!((h.max_nodes, h.max_procs), (Some(32), Some(64)));
    assert_eq!(h.unix_start_time, Some(1_041_377_305));
    let tz = h.lines.iter().find(|(k, _)| k == "TimeZone").unwrap();
    assert!(
        tz.1.starts_with("3600") && tz.1.contains("# DEPRECATED"),
        "lines keep the raw value: {tz:?}"
    );
    assert_eq!(
        count(&t, |r| r.run_time.is_none()
            && r.allocated_procs.is_none()
            && r.requested_procs.is_none()
            && r.requested_time.is_none()),
        959
    );
    let status = |s| count(&t, |r| r.status == Some(s));
    assert_eq!((status(1), status(0), status(5)), (34_808, 1_554, 3_953));
}

#[test]
fn ctc_max_nodes_with_a_note_and_no_requested_procs() {
    let Some(t) = load("CTC-SP2-1996-3.1-cln.swf.gz") else {
        return;
    };
    assert_eq!(t.header.max_nodes, Some(338));
    assert!(t.records.iter().all(|r| r.requested_procs.is_none()));
    // Size falls back to field 5, which is present.
    let c = to_jobs(&t.records, Estimate::Actual);
    assert!(c.jobs.len() > 70_000);
}

#[test]
fn sdsc_sp2_round_trips_through_the_writer() {
    let Some(t) = load("SDSC-SP2-1998-4.2-cln.swf.gz") else {
        return;
    };
    let mut out = Vec::new();
    write_swf(&mut out, &t.header, &t.records).unwrap();
    let reader = SwfReader::new(&out[..], "copy", Mode::Strict).unwrap();
    assert_eq!(reader.header(), &t.header);
    let records: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
    assert!(records == t.records, "records differ after a round trip");
}

#[test]
fn gzip_is_detected_by_content_not_name() {
    let text = "; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 0 -1 -1 -1\n";
    let gz_named_plain = TempFile::new("plain.swf.gz");
    std::fs::write(&gz_named_plain.0, text).unwrap();
    let plain_named_gz = TempFile::new("gzipped.swf");
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    enc.write_all(text.as_bytes()).unwrap();
    std::fs::write(&plain_named_gz.0, enc.finish().unwrap()).unwrap();
    for path in [&gz_named_plain.0, &plain_named_gz.0] {
        let t = read_trace(path, Mode::Strict).unwrap();
        assert_eq!(t.header.max_procs, Some(8));
        assert_eq!(t.records.len(), 1);
        assert_eq!(t.records[0].run_time, Some(10));
    }
    // An empty file is an empty trace, not an error.
    let empty = TempFile::new("empty.swf");
    std::fs::write(&empty.0, "").unwrap();
    assert_eq!(open(&empty.0, Mode::Strict).unwrap().count(), 0);
}

#[test]
fn missing_and_corrupt_files_are_io_errors() {
    let missing = std::path::Path::new("/nonexistent/SDSC.swf");
    let e = read_trace(missing, Mode::Lenient).unwrap_err();
    assert!(matches!(e, swf_io::SwfError::Io { .. }));
    assert!(e.to_string().starts_with("/nonexistent/SDSC.swf: "), "{e}");
    assert!(
        e.to_string()
            .ends_with("; check that the file exists and is readable"),
        "{e}"
    );
    // The message holds the I/O error's; printed as a chain it is not repeated.
    assert!(std::error::Error::source(&e).is_none());

    let cut = TempFile::new("truncated.swf.gz");
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    for i in 0..2000 {
        writeln!(enc, "{i} {i} 0 10 2 -1 -1 2 20 -1 1 1 1 -1 0 -1 -1 -1").unwrap();
    }
    let gz = enc.finish().unwrap();
    std::fs::write(&cut.0, &gz[..gz.len() / 2]).unwrap();
    let e = read_trace(&cut.0, Mode::Lenient).unwrap_err();
    assert!(matches!(e, swf_io::SwfError::Io { .. }), "{e}");
    assert!(
        e.to_string()
            .ends_with("; if the file is gzipped, check that it is complete and not corrupt"),
        "{e}"
    );
}

/// Headers and records the reader would not read back as given are refused
/// by the writer, each with what would change; found by an outside client.
#[test]
fn the_writer_refuses_what_would_not_read_back() {
    let record = |job| SwfRecord {
        job: Some(job),
        ..SwfRecord::default()
    };
    let with = |f: fn(&mut SwfHeader)| {
        let mut h = SwfHeader::default();
        f(&mut h);
        h
    };
    let cases: Vec<(SwfHeader, Vec<SwfRecord>, &str)> = vec![
        (
            with(|h| h.max_procs = Some(20_000_000)),
            vec![record(1)],
            "the typed MaxProcs \"20000000\" would read back as unusable",
        ),
        (
            with(|h| h.lines.push((String::new(), "MaxProcs: 64".into()))),
            vec![],
            "header line 1 (keyword \"\", value \"MaxProcs: 64\") would read back as keyword \"MaxProcs\", value \"64\"",
        ),
        (
            with(|h| h.lines.push(("Max Procs".into(), "5".into()))),
            vec![],
            "header line 1 (keyword \"Max Procs\", value \"5\") would read back as keyword \"\", value \"Max Procs: 5\"",
        ),
        (
            with(|h| h.lines.push(("A:B".into(), "c".into()))),
            vec![],
            "would read back as keyword \"A\", value \"B: c\"",
        ),
        (
            with(|h| h.version = Some(String::new())),
            vec![],
            "the typed Version \"\" would read back as no value",
        ),
        (
            with(|h| h.computer = Some("Cray\nT3E".into())),
            vec![],
            "the typed Computer \"Cray T3E\" would read back",
        ),
        (
            SwfHeader::default(),
            vec![record(7), SwfRecord::default(), record(3), record(7)],
            "records 1 and 4 both have job number 7",
        ),
    ];
    for (header, records, why) in cases {
        let mut out = Vec::new();
        let e = write_swf(&mut out, &header, &records).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
        assert!(e.to_string().contains(why), "{e}\nexpected: {why}");
        assert!(out.is_empty());
    }
}
