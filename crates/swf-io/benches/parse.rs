//! Parsing a gzipped SWF trace: the SDSC-SP2 log (59,715 records) from
//! `TRACES_DIR` or `shared/traces`, or, if that is absent, a seeded Lublin99
//! trace of 60,000 jobs written to a temporary file.
//!
//! Baseline in the same run: decompressing the file without parsing, so
//! the ratio shows what the parser adds to gzip. Target: the whole parse
//! under 0.3 s in release.

use std::hint::black_box;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use swf_io::lublin99::Lublin99;
use swf_io::{Mode, read_trace, write_swf};

/// The trace to parse and whether it is the real SDSC-SP2 log.
fn input() -> (PathBuf, bool) {
    let dir = std::env::var_os("TRACES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces"));
    let sdsc = dir.join("SDSC-SP2-1998-4.2-cln.swf.gz");
    if sdsc.is_file() {
        return (sdsc, true);
    }
    let g = Lublin99 {
        procs: 128,
        duration: i64::MAX,
        max_jobs: Some(60_000),
        seed: 1998,
        two_class: true,
        ..Default::default()
    };
    let path = std::env::temp_dir().join(format!(
        "swf-io-bench-lublin99-{}.swf.gz",
        std::process::id()
    ));
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    write_swf(&mut enc, &g.header(), &g.generate()).expect("writing to memory cannot fail");
    let gz = enc.finish().expect("compressing in memory cannot fail");
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(&gz))
        .expect("cannot write the temporary trace");
    (path, false)
}

fn parse(c: &mut Criterion) {
    let (path, real) = input();
    let label = if real { "SDSC-SP2" } else { "lublin99-60k" };
    let records = read_trace(&path, Mode::Strict)
        .expect("the bench input parses")
        .records
        .len();
    eprintln!("parsing {} ({records} records)", path.display());
    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    group.bench_function(format!("{label}/gunzip-only (baseline)"), |b| {
        b.iter(|| {
            let mut text = Vec::new();
            let file = std::fs::File::open(&path).expect("input exists");
            MultiGzDecoder::new(std::io::BufReader::new(file))
                .read_to_end(&mut text)
                .expect("valid gzip");
            black_box(text.len())
        })
    });
    group.bench_function(format!("{label}/read_trace"), |b| {
        b.iter(|| {
            black_box(
                read_trace(&path, Mode::Strict)
                    .expect("parses")
                    .records
                    .len(),
            )
        })
    });
    group.bench_function(format!("{label}/stream (no Vec)"), |b| {
        b.iter(|| {
            let reader = swf_io::open(&path, Mode::Strict).expect("opens");
            black_box(
                reader
                    .filter_map(Result::ok)
                    .map(|r| r.run_time.unwrap_or(0))
                    .sum::<i64>(),
            )
        })
    });
    group.finish();
    if !real {
        let _ = std::fs::remove_file(&path);
    }
}

criterion_group!(benches, parse);
criterion_main!(benches);
