//! The Lublin99 generator through the public API: determinism, header,
//! SWF output. (The distribution statistics are unit tests in
//! `src/lublin99.rs`, where the gamma CDF is at hand.)

use swf_io::lublin99::{Arrivals, Lublin99, Params};
use swf_io::{Estimate, Mode, SwfReader, to_jobs, write_swf};

fn model(seed: u64, two_class: bool) -> Lublin99 {
    Lublin99 {
        procs: 128,
        duration: 14 * 86_400,
        max_jobs: None,
        seed,
        two_class,
        ..Default::default()
    }
}

#[test]
fn same_seed_same_records_different_seed_different() {
    for two_class in [false, true] {
        let a = model(42, two_class).generate();
        assert!(a.len() > 500, "two weeks of arrivals: {}", a.len());
        assert_eq!(a, model(42, two_class).generate());
        assert_ne!(a, model(43, two_class).generate());
    }
}

#[test]
fn max_jobs_cuts_the_same_sequence() {
    let all = model(9, true).generate();
    let first = Lublin99 {
        max_jobs: Some(100),
        ..model(9, true)
    }
    .generate();
    assert_eq!(first[..], all[..100]);
}

#[test]
fn header_and_swf_output() {
    let g = model(5, false);
    let records = g.generate();
    let header = g.header();
    assert_eq!(header.max_records, Some(records.len() as u64));
    assert_eq!(header.max_jobs, Some(records.len() as u64));
    assert_eq!((header.max_nodes, header.max_procs), (Some(128), Some(128)));
    assert!(
        header
            .lines
            .iter()
            .any(|(k, v)| k == "MaxRuntime" && v == "162754")
    );
    assert!(header.notes[0].contains("seed 5"), "{:?}", header.notes);
    // `model` bounds the duration only: it is named in seconds, the jobs
    // as unbounded; a bound of `i64::MAX` is no bound and says so.
    assert!(
        header.notes[0].contains(", duration 1209600 s, max jobs unbounded"),
        "{:?}",
        header.notes
    );
    let counted = Lublin99 {
        duration: i64::MAX,
        max_jobs: Some(3),
        ..model(5, false)
    }
    .header();
    assert!(
        counted.notes[0].contains(", duration unbounded, max jobs 3"),
        "{:?}",
        counted.notes
    );
    let mut out = Vec::new();
    write_swf(&mut out, &header, &records).unwrap();
    let reader = SwfReader::new(&out[..], "lublin.swf", Mode::Strict).unwrap();
    assert_eq!(reader.header(), &header);
    assert_eq!(reader.collect::<Result<Vec<_>, _>>().unwrap(), records);
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("; Version: 2\n; Acknowledge: Uri Lublin, Hebrew University\n"),
        "{text:.200}"
    );
}

#[test]
fn jobs_use_the_run_time_as_estimate() {
    let g = model(3, true);
    let jobs = g.jobs();
    let records = g.generate();
    assert_eq!(jobs.len(), records.len());
    for (j, r) in jobs.iter().zip(&records) {
        assert_eq!(
            (Some(j.id as i64), Some(j.submit.0), Some(j.run_time)),
            (r.job, r.submit, r.run_time)
        );
        assert_eq!(j.estimate, j.run_time);
        assert_eq!(Some(i64::from(j.procs)), r.allocated_procs);
    }
}

/// The jobs made one record at a time are `to_jobs`' of the whole
/// workload, for the model's arrivals and for rescaled ones.
#[test]
fn jobs_one_at_a_time_are_those_of_the_records() {
    for g in [
        model(5, false),
        model(6, true),
        Lublin99 {
            arrivals: Arrivals::Load(0.9),
            ..model(7, false)
        },
    ] {
        let jobs = g.jobs();
        assert!(jobs.len() > 500, "{}", jobs.len());
        assert_eq!(jobs, to_jobs(&g.generate(), Estimate::Actual).jobs);
    }
}

#[test]
fn params_scale_with_the_machine() {
    let p = Params::typeless(128);
    assert_eq!((p.u_hi, p.u_med, p.u_low), (7.0, 4.5, 0.8));
    let p = Params::typeless(1024);
    assert_eq!((p.u_hi, p.u_med), (10.0, 7.5));
    let (b, i) = (Params::batch(128), Params::interactive(128));
    assert_eq!((b.u_hi, b.u_med), (7.0, 5.0));
    assert_eq!((i.u_hi, i.u_med), (5.5, 3.0));
    let w = p.daily_weights();
    assert!((w.iter().sum::<f64>() / 48.0 - 1.0).abs() < 1e-12);
}

#[test]
fn a_load_or_rate_too_small_to_reach_is_refused_never_ignored() {
    // 1e-300 spreads the submit times past the limit; a subnormal load or
    // rate overflows the rescaling factor itself, and once left the
    // model's arrivals in place as if it held.
    for arrivals in [
        Arrivals::Load(1e-300),
        Arrivals::Load(1e-310),
        Arrivals::Load(5e-324),
        Arrivals::Rate(5e-324),
    ] {
        let g = Lublin99 {
            arrivals,
            max_jobs: Some(50),
            ..model(3, false)
        };
        let err = g.check_records(&g.generate()).unwrap_err();
        assert!(
            err.message.contains("past the simulator's limit"),
            "{arrivals:?}: {}",
            err.message
        );
    }
}

#[test]
fn a_spec_names_at_most_the_readers_largest_machine() {
    let max = swf_io::MAX_PROCS;
    assert!(format!("procs={max},jobs=3").parse::<Lublin99>().is_ok());
    for procs in [u64::from(max) + 1, u64::from(u32::MAX)] {
        let e = format!("procs={procs},jobs=3")
            .parse::<Lublin99>()
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("from 1 to {max}")), "{e}");
    }
}
