//! Criterion benches: profile operations on seeded random workloads, and
//! whole-trace runs of FCFS, EASY and conservative backfilling on SDSC-SP2
//! (from `TRACES_DIR` or ../shared/traces; skipped with a note if absent).

use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use profile::{Job, Policy, Profile, SchedulerConfig, Time, simulate};

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

/// SDSC-SP2 as jobs (requested time as estimate, falling back to run time),
/// read with a minimal SWF scan so this crate needs none of ours.
fn sdsc_sp2() -> Option<Vec<Job>> {
    let dir = std::env::var_os("TRACES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces")
        });
    let path = dir.join("SDSC-SP2-1998-4.2-cln.swf.gz");
    let file = std::fs::File::open(&path).ok()?;
    let reader = BufReader::new(flate2::read::MultiGzDecoder::new(file));
    let mut jobs = Vec::new();
    for line in reader.lines() {
        let line = line.ok()?;
        if line.trim_start().starts_with(';') || line.trim().is_empty() {
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
    Some(jobs)
}

fn whole_trace(c: &mut Criterion) {
    let Some(jobs) = sdsc_sp2() else {
        eprintln!("note: SDSC-SP2 trace not found; whole-trace benches skipped (set TRACES_DIR)");
        return;
    };
    let mut g = c.benchmark_group("sdsc_sp2");
    g.sample_size(10);
    g.throughput(Throughput::Elements(jobs.len() as u64));
    for policy in [Policy::Fcfs, Policy::EASY, Policy::Conservative] {
        let config = SchedulerConfig::new(128, policy);
        g.bench_function(policy.name(), |b| {
            b.iter(|| black_box(simulate(&config, &jobs).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, profile_ops, whole_trace);
criterion_main!(benches);
