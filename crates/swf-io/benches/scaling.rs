//! Criterion benches: the Lublin99 scaling series. EASY and conservative
//! backfilling on 100,000 and 1,000,000 generated jobs (two-class model,
//! seed 1, 128 processors, run time as estimate), streamed from the
//! generator into `profile::simulate_stream` job by job, so the time per
//! job should not grow with the length. `cargo xtask bench` runs the same
//! series in fresh processes, with peak memory, and 10,000,000 jobs with
//! `--ten-million`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use profile::{NoObserver, Policy, SchedulerConfig, Time, simulate_stream};
use swf_io::lublin99::Lublin99;

const PROCS: u32 = 128;

fn generator(n: usize) -> Lublin99 {
    Lublin99 {
        procs: PROCS,
        duration: i64::MAX,
        max_jobs: Some(n),
        seed: 1,
        two_class: true,
        ..Default::default()
    }
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("lublin99_streamed");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for policy in [Policy::EASY, Policy::Conservative] {
        for n in [100_000usize, 1_000_000] {
            g.throughput(Throughput::Elements(n as u64));
            g.bench_with_input(BenchmarkId::new(policy.name(), n), &n, |b, &n| {
                let config = SchedulerConfig::new(PROCS, policy);
                b.iter(|| {
                    let mut last_end = Time::ZERO;
                    let count = simulate_stream(
                        &config,
                        generator(n).iter_jobs(),
                        &mut NoObserver,
                        |_, outcome| last_end = last_end.max(outcome.end),
                    )
                    .unwrap();
                    black_box((count, last_end))
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);
