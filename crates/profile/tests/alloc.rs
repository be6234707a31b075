//! The stepping API allocates nothing per decision in the steady state,
//! counted by dhat's heap profiler (its own test binary: it replaces the
//! global allocator).

use profile::{Job, SchedulerConfig, Stepper, Time};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use profile::testing::easy_decision;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// `n` random jobs on a 64-processor machine, then the same `n` again once
/// the first have surely ended: the second half replays the first's pattern,
/// so every buffer has grown to what it needs before it starts.
fn twice(n: usize) -> Vec<Job> {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let mut t = 0;
    let first: Vec<Job> = (0..n)
        .map(|i| {
            t += rng.random_range(0..60);
            let estimate = rng.random_range(1..3600);
            let run = rng.random_range(0..=estimate + 100);
            Job::new(i as u64, Time(t), rng.random_range(1..=64), estimate, run)
        })
        .collect();
    let shift = t + 10_000_000;
    let second = first.iter().map(|j| Job {
        id: j.id + n as u64,
        submit: Time(j.submit.secs() + shift),
        ..j.clone()
    });
    first.iter().cloned().chain(second).collect()
}

#[test]
fn stepping_allocates_nothing_per_decision_once_warm() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let n = 4000;
    let jobs = twice(n);
    let split = jobs[n].submit;
    let mut sim = Stepper::new(&SchedulerConfig::new(64, profile::Policy::EASY), jobs).unwrap();
    let mut before = None;
    let mut decisions = 0u64;
    while let Some(ctx) = sim.next_decision().unwrap() {
        if before.is_none() && ctx.now() >= split {
            before = Some(dhat::HeapStats::get());
        }
        easy_decision(ctx).unwrap();
        decisions += 1;
    }
    let before = before.expect("the second half ran");
    let after = dhat::HeapStats::get();
    assert!(decisions >= 4 * n as u64, "{decisions} decisions");
    dhat::assert_eq!(after.total_blocks - before.total_blocks, 0);
    let out = sim.into_outcomes().unwrap();
    assert_eq!(out.len(), 2 * n);
}
