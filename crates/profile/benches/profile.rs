//! Criterion benches: profile operations on seeded random workloads, and
//! whole-trace runs of FCFS, EASY and conservative backfilling on SDSC-SP2
//! and CTC-SP2 (from `TRACES_DIR` or ../shared/traces; skipped with a note if
//! absent).

use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use profile::{Job, NoObserver, Policy, Profile, SchedulerConfig, Time, simulate, simulate_stream};

/// A profile with `n` random reservations on a 128-processor machine.
fn busy_profile(n: usize, seed: u64) -> Profile {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Profile::new(128, Time(0));
    for _ in 0..n {
        let procs = rng.random_range(1..=64);
        let dur = rng.random_range(60..36_000);
        let after = Time(rng.random_range(0..100_000));
        let start = p.earliest_start(after, procs, dur).unwrap();
        p.reserve(start, dur, procs).unwrap();
    }
    p
}

fn profile_ops(c: &mut Criterion) {
    let mut g = c.benchmark_group("profile");
    for n in [16usize, 256, 2048] {
        let p = busy_profile(n, 7);
        g.bench_with_input(BenchmarkId::new("earliest_start", n), &p, |b, p| {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            b.iter(|| {
                let procs = rng.random_range(1..=128);
                let dur = rng.random_range(60..36_000);
                black_box(p.earliest_start(Time(0), procs, dur))
            })
        });
        g.bench_with_input(BenchmarkId::new("reserve_release", n), &p, |b, p| {
            let mut p = p.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            b.iter(|| {
                let procs = rng.random_range(1..=32);
                let dur = rng.random_range(60..36_000);
                let s = p
                    .earliest_start(Time(rng.random_range(0..100_000)), procs, dur)
                    .unwrap();
                p.reserve(s, dur, procs).unwrap();
                p.release(s, dur, procs).unwrap();
            })
        });
        g.bench_with_input(BenchmarkId::new("free_slots", n), &p, |b, p| {
            b.iter(|| black_box(p.free_slots(Time(0), Time::MAX)))
        });
    }
    g.finish();
}

/// A trace from `TRACES_DIR` (or ../shared/traces) as its machine size
/// (`MaxProcs`) and jobs (requested time as estimate, falling back to run
/// time; jobs wider than the machine dropped), read with a minimal SWF scan
/// so this crate needs none of ours. `None` if the file is missing.
fn trace(file: &str) -> Option<(u32, Vec<Job>)> {
    let dir = std::env::var_os("TRACES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces")
        });
    let file = std::fs::File::open(dir.join(file)).ok()?;
    let reader = BufReader::new(flate2::read::MultiGzDecoder::new(file));
    let mut capacity = None;
    let mut jobs = Vec::new();
    for line in reader.lines() {
        let line = line.ok()?;
        if let Some(header) = line.trim_start().strip_prefix(';') {
            if let Some(v) = header.trim().strip_prefix("MaxProcs:") {
                capacity = v.trim().parse::<u32>().ok();
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<i64> = line
            .split_whitespace()
            .map(|x| x.parse::<f64>().unwrap() as i64)
            .collect();
        let (submit, run, alloc, req_procs, req_time) = (f[1], f[3], f[4], f[7], f[8]);
        let procs = if alloc > 0 { alloc } else { req_procs };
        if run < 0 || procs <= 0 {
            continue;
        }
        let estimate = if req_time > 0 { req_time } else { run.max(1) };
        jobs.push(Job::new(
            f[0] as u64,
            Time(submit),
            procs as u32,
            estimate,
            run,
        ));
    }
    let capacity = capacity?;
    jobs.retain(|j| j.procs <= capacity);
    Some((capacity, jobs))
}

/// FCFS, EASY and conservative over whole traces: SDSC-SP2 and CTC-SP2
/// (the costliest to compress), each skipped with a note if absent.
fn whole_trace(c: &mut Criterion) {
    for (group, file) in [
        ("sdsc_sp2", "SDSC-SP2-1998-4.2-cln.swf.gz"),
        ("ctc_sp2", "CTC-SP2-1996-3.1-cln.swf.gz"),
    ] {
        let Some((capacity, jobs)) = trace(file) else {
            eprintln!("note: {file} not found; its whole-trace benches skipped (set TRACES_DIR)");
            continue;
        };
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        g.throughput(Throughput::Elements(jobs.len() as u64));
        for policy in [Policy::Fcfs, Policy::EASY, Policy::Conservative] {
            let config = SchedulerConfig::new(capacity, policy);
            g.bench_function(policy.name(), |b| {
                b.iter(|| black_box(simulate(&config, &jobs).unwrap()))
            });
        }
        g.finish();
    }
}

/// `n` synthetic jobs for a 128-processor machine from a seeded stream, one
/// at a time: sizes of 1 to 64 (powers of two), run times log-uniform over
/// 1 min to 10 h, estimates up to three times the run time, exponential
/// interarrival times for a load of about 0.75. (The Lublin99 series is in
/// `cargo xtask bench`; this crate may not use the generator in `swf-io`.)
fn synthetic(n: usize, seed: u64) -> impl Iterator<Item = Job> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut submit = 0.0f64;
    (0..n).map(move |i| {
        submit += -1059.0 * (1.0 - rng.random::<f64>()).ln();
        let procs = 1u32 << rng.random_range(0..7);
        let run = (60.0 * 600f64.powf(rng.random::<f64>())) as i64;
        let estimate = (run as f64 * rng.random_range(1.0..3.0)) as i64;
        Job::new(i as u64, Time(submit as i64), procs, estimate, run)
    })
}

/// Cost per job against the length of the workload: EASY and conservative
/// over 100k and 1M streamed jobs (`simulate_stream`, outcomes folded as
/// they come). Throughput is in jobs, so per-job times compare directly.
fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("scaling");
    g.sample_size(10);
    for n in [100_000usize, 1_000_000] {
        g.throughput(Throughput::Elements(n as u64));
        for policy in [Policy::EASY, Policy::Conservative] {
            let config = SchedulerConfig::new(128, policy);
            g.bench_with_input(BenchmarkId::new(policy.name(), n), &n, |b, &n| {
                b.iter(|| {
                    let mut last = Time::ZERO;
                    let count =
                        simulate_stream(&config, synthetic(n, 11), &mut NoObserver, |_, o| {
                            last = last.max(o.end)
                        })
                        .unwrap();
                    black_box((count, last))
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, profile_ops, whole_trace, scaling);
criterion_main!(benches);
