use super::*;

const DAY: i64 = 86_400;

fn check_stand_in_span(name: &str) {
    let known = known_trace(name).unwrap();
    let records = stand_in_records(known, 11);
    let submits: Vec<i64> = records.iter().filter_map(|r| r.submit).collect();
    assert_eq!(
        submits.len(),
        records.len(),
        "{name}: every record has a submit time"
    );
    let (first, last) = (submits[0], submits[submits.len() - 1]);
    assert!((0..DAY).contains(&first), "{name}: first submit {first}");
    assert!(
        last <= known.last_submit && last > known.last_submit - 5 * DAY,
        "{name}: last submit {last}, the log's is {}",
        known.last_submit
    );
    let (workload, facts) = workload_from(&Source::stand_in(known), name, Estimate::Actual, 11);
    assert!(facts.stand_in && facts.sha256.is_none());
    assert_eq!(workload.capacity, known.procs);
    assert_eq!(facts.records, records.len());
    assert!(
        facts.source.contains(&format!(
            "{} jobs over its {} days",
            records.len(),
            known.span_days()
        )),
        "{}",
        facts.source
    );
}

#[test]
fn a_stand_in_covers_the_span_of_the_log_it_replaces() {
    // Lublin99 at 64 processors makes 40,315 jobs in about 241 days; the
    // DAS-2 log's 40,315 run for 359, and months 9 to 12 must not be empty.
    check_stand_in_span("DAS2-fs1-2003-1");
    check_stand_in_span("KTH-SP2-1996-2.1-cln");
    check_stand_in_span("SDSC-SP2-1998-4.2-cln");
}

#[test]
fn the_known_trace_table_is_consistent() {
    for k in KNOWN_TRACES {
        for sha in [k.content_sha256, k.file_sha256] {
            assert!(crate::is_sha256_hex(sha), "{}", k.name);
        }
        assert_ne!(k.content_sha256, k.file_sha256, "{}", k.name);
        assert!(
            k.start_unix > 0 && k.last_submit > 0 && k.procs > 0,
            "{}",
            k.name
        );
        assert_eq!(known_trace(&k.file_name()), Some(k));
        assert_eq!(known_trace(&format!("{}.swf", k.name)), Some(k));
    }
}

/// The job numbers of `records` that pass every filter of `filters`.
fn kept(records: &[SwfRecord], filters: &[Transform]) -> Vec<i64> {
    records
        .iter()
        .filter(|r| filters.iter().all(|f| keeps(f, r)))
        .filter_map(|r| r.job)
        .collect()
}

#[test]
fn filters_read_the_swf_fields() {
    let r = |job, status, alloc, req, req_time| SwfRecord {
        job: Some(job),
        status,
        allocated_procs: alloc,
        requested_procs: req,
        requested_time: req_time,
        ..SwfRecord::default()
    };
    let records = [
        r(1, Some(1), Some(4), Some(8), Some(100)),
        r(2, Some(0), None, Some(8), Some(200)),
        r(3, Some(5), Some(0), Some(16), None),
        r(4, None, None, None, Some(3600)),
    ];
    let check = |filters: &[Transform], want: &[i64]| {
        assert_eq!(kept(&records, filters), want, "{filters:?}");
    };
    check(&[], &[1, 2, 3, 4]);
    check(&[Transform::KeepStatus(vec![1])], &[1]);
    check(&[Transform::KeepStatus(vec![0, -1])], &[2, 4]);
    // Field 5 when positive, else field 8; no size fails both bounds.
    check(&[Transform::MinProcs(8)], &[2, 3]);
    check(&[Transform::MaxProcs(8)], &[1, 2]);
    check(&[Transform::MinRequestedTime(200)], &[2, 4]);
    check(&[Transform::MaxRequestedTime(200)], &[1, 2]);
    check(&[Transform::JobIds([2, 3])], &[2, 3]);
    check(
        &[Transform::JobIds([1, 3]), Transform::MaxRequestedTime(150)],
        &[1],
    );
    // Job transforms pass every record.
    check(
        &[Transform::LastN(1), Transform::ScaleLoad(2.0)],
        &[1, 2, 3, 4],
    );
}

#[test]
fn a_trace_source_reports_both_checksums() {
    let text = "; MaxProcs: 4\n1 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n";
    let trace = swf_io::SwfReader::new(text.as_bytes(), "t.swf", swf_io::Mode::Strict)
        .unwrap()
        .into_trace()
        .unwrap();
    let source = Source::trace("t.swf.gz".into(), "c".repeat(64), trace, None)
        .with_file_sha256("f".repeat(64));
    let (_, facts) = workload_from(&source, "t", Estimate::Requested, 1);
    assert_eq!(facts.sha256, Some("c".repeat(64)));
    assert_eq!(facts.file_sha256, Some("f".repeat(64)));
    assert!(!facts.stand_in);
}
