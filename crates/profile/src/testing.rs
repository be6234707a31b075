//! Settings for property tests that make a test run deterministic, and the
//! public invariant suite for any [`Scheduler`](crate::Scheduler)
//! ([`Suite`], [`check_scheduler`], [`Guarantee`]).
//!
//! Enabled by the `testing` feature (and in this crate's own tests). Every
//! property suite of the workspace takes its [`ProptestConfig`] from
//! [`proptest_config`], so `cargo test` generates the same cases from the
//! same seed on every run and every machine: the gate fails only when the
//! code changed. A user's own property suites can do the same.
//!
//! Exploration is a separate, explicit run: `cargo xtask explore` sets
//! [`EXPLORE_SEED_VAR`] to a fresh seed (and [`EXPLORE_SCALE_VAR`] to a case
//! multiplier) and runs the same suites. A failure it finds is written by
//! proptest into the suite's `proptest-regressions/` file, which is committed
//! with the fix, so the gate replays that case from then on. [`Suite::run`]
//! is no `proptest!` suite and has no such file: its panic gives the seed
//! and the smallest failing case as a call of [`check_scheduler`], which a
//! test of one's own then replays on every run.
//!
//! The suites (this crate's and the paper crates') set no time limit: a
//! limit would make a verdict depend on the machine's speed, and the gate
//! must give the same result everywhere. A run that keeps asking to wake
//! and decides nothing is ended by count ([`MAX_WAKE_UPS`]), but an
//! implementation that loops forever inside one of its own calls keeps the
//! suite from returning; run the suite under your test runner's timeout
//! (`cargo nextest`'s `slow-timeout`, say) to catch that.

use std::ops::Range;

pub use crate::invariants::{
    Broken, Guarantee, MAX_WAKE_UPS, Suite, burst_workload, check_scheduler, edge_workload,
    edge_workload_within, workload,
};

use proptest::prelude::{Strategy, any, prop, prop_oneof};
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, RngSeed};

/// Floats whose `{}` form runs to hundreds of characters (`5e-324` has
/// 325 digits, `f64::MAX` 309): a message that echoes a float a user gave
/// shows it as [`ShortFloat`](crate::ShortFloat) does, and a test can build
/// each error with these.
pub const LONG_FLOATS: [f64; 4] = [-5e-324, 5e-324, f64::MAX, -1e300];

/// Panics unless `message` is under 300 characters and shows `value` as
/// [`ShortFloat`](crate::ShortFloat) writes it (`-5e-324`, not 325 digits).
#[track_caller]
pub fn assert_short_float(message: &str, value: f64) {
    let short = crate::ShortFloat(value).to_string();
    assert!(
        message.len() < 300,
        "{} characters: {message}",
        message.len()
    );
    assert!(message.contains(&short), "{message}\nexpected {short}");
}

/// The seed of every property suite when no exploration is asked for.
pub const GATE_SEED: u64 = 0x7573_6368_6564_0019;

/// Environment variable: a `u64` seed that replaces [`GATE_SEED`].
pub const EXPLORE_SEED_VAR: &str = "USCHED_EXPLORE_SEED";

/// Environment variable: a factor (1 to 1000) on every suite's case count,
/// read only together with [`EXPLORE_SEED_VAR`].
pub const EXPLORE_SCALE_VAR: &str = "USCHED_EXPLORE_SCALE";

/// The largest accepted [`EXPLORE_SCALE_VAR`].
pub const MAX_EXPLORE_SCALE: u32 = 1000;

/// The seed and case multiplier in force: `(GATE_SEED, 1)` unless
/// [`EXPLORE_SEED_VAR`] is set.
///
/// # Panics
/// If either variable is set to something that is not a number in range:
/// a mistyped exploration must not silently run the gate's cases.
pub fn seed_and_scale() -> (u64, u32) {
    let Some(seed) = std::env::var_os(EXPLORE_SEED_VAR) else {
        return (GATE_SEED, 1);
    };
    let seed = seed
        .to_str()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            panic!("{EXPLORE_SEED_VAR}={seed:?} is not a seed (an integer from 0 to 2^64 - 1)")
        });
    let scale = match std::env::var_os(EXPLORE_SCALE_VAR) {
        None => 1,
        Some(v) => v
            .to_str()
            .and_then(|s| s.trim().parse::<u32>().ok())
            .filter(|s| (1..=MAX_EXPLORE_SCALE).contains(s))
            .unwrap_or_else(|| {
                panic!("{EXPLORE_SCALE_VAR}={v:?} is not a factor from 1 to {MAX_EXPLORE_SCALE}")
            }),
    };
    (seed, scale)
}

/// A proptest configuration with `cases` cases from a fixed seed (the gate),
/// or from the exploration seed with the case count multiplied.
///
/// Regression files are kept as proptest keeps them (`proptest-regressions/`
/// beside the suite) and replayed before the generated cases.
pub fn proptest_config(cases: u32) -> ProptestConfig {
    let (seed, scale) = seed_and_scale();
    ProptestConfig {
        cases: cases.saturating_mul(scale),
        rng_seed: RngSeed::Fixed(seed),
        rng_algorithm: RngAlgorithm::ChaCha,
        ..ProptestConfig::default()
    }
}

/// The names [`Broken::invariant`] takes for the invariants every suite of
/// the workspace checks, one word for one meaning: `profile`'s
/// [`check_scheduler`] and the paper crates' `testing` suites (a price, an
/// admission rule, a baseline, a request order, a utility function, a
/// provisioning policy, a provider, a partitioning) report a broken
/// invariant of these kinds under these names, and name their own
/// promises (a [`Guarantee`], say) in their own words.
pub mod invariant {
    /// Two runs on the same input, each with a fresh implementation, made
    /// different decisions: the detail names the first (job, request,
    /// decision) where they part. State kept between instances (a
    /// `static`), iteration over a `HashMap`, time or randomness.
    pub const DETERMINISTIC: &str = "deterministic";
    /// The result of a run fails the crate's own validation of it (a
    /// schedule `profile::validate` refuses, say): the detail is the
    /// validation's message.
    pub const VALID: &str = "valid schedule";
    /// A run on an input the crate's built-in implementation runs failed
    /// with an error: the detail is the error.
    pub const RUNS_TO_THE_END: &str = "runs to the end";
    /// An answer breaks what the trait's documentation asks of every
    /// implementation (an allocation above the job's budget, a cost that is
    /// not a finite number `>= 0`, an outcome for another job): the detail
    /// names the answer, the input it was given and the rule.
    pub const KEEPS_THE_CONTRACT: &str = "keeps the trait's contract";
}

/// `count` workloads from [`workload`]`(capacity, max_len)`, drawn from the
/// gate's fixed seed (or the exploration seed, and then `count` times the
/// exploration's scale, see [`seed_and_scale`]): the same on every run and
/// every machine, for suites that are not proptest suites (the paper
/// crates' `testing` modules turn them into their own jobs and requests).
///
/// ```
/// let a = profile::testing::sample_workloads(8, 20, 5);
/// let (_, scale) = profile::testing::seed_and_scale(); // 1 in the gate
/// assert_eq!(a.len(), 5 * scale as usize);
/// assert_eq!(a, profile::testing::sample_workloads(8, 20, 5));
/// ```
pub fn sample_workloads(capacity: u32, max_len: usize, count: u32) -> Vec<Vec<crate::Job>> {
    sample(workload(capacity, max_len), count)
}

/// The most jobs in each of the bursts the paper crates' suites add to
/// their generated workloads ([`sample_bursts`]): 120, so they try more
/// jobs than their generated workloads hold, and dozens at one instant.
pub const BURST_JOBS: usize = 120;

/// `count` bursts from [`burst_workload`]`(capacity, ⌈max_len / 2⌉,
/// max_len)`, drawn as [`sample_workloads`] draws: long queues and many
/// jobs at one instant, for the paper crates' suites.
///
/// ```
/// let bursts = profile::testing::sample_bursts(8, 100, 2);
/// assert!(bursts.iter().all(|b| (50..=100).contains(&b.len())));
/// assert!(bursts.iter().all(|b| b.iter().all(|j| j.submit.secs() <= 1)));
/// ```
pub fn sample_bursts(capacity: u32, max_len: usize, count: u32) -> Vec<Vec<crate::Job>> {
    sample(
        burst_workload(capacity, max_len.div_ceil(2), max_len),
        count,
    )
}

fn sample(strategy: impl Strategy<Value = Vec<crate::Job>>, count: u32) -> Vec<Vec<crate::Job>> {
    use proptest::strategy::ValueTree;
    let config = proptest_config(count);
    let mut runner = proptest::test_runner::TestRunner::new(config.clone());
    (0..config.cases)
        .filter_map(|_| Some(strategy.new_tree(&mut runner).ok()?.current()))
        .collect()
}

/// `check` on each of `workloads` in turn: the first broken invariant,
/// its detail prefixed with the workload's number (from 1) and size in
/// `unit` (`workload 3 (12 jobs): ...`). A panic in `check` (in the
/// implementation under test, say) is the invariant
/// [`invariant::RUNS_TO_THE_END`] broken on that workload, with the
/// panic's message, so it is named like any other. The paper crates'
/// suites run their checks through it.
///
/// ```
/// use profile::testing::{Broken, check_each};
/// let workloads = vec![vec![1, 2], vec![3, 4, 5]];
/// let b = check_each(&workloads, "jobs", |w| match w.len() {
///     3 => Err(Broken::new("short", "three is too many")),
///     _ => Ok(()),
/// })
/// .unwrap_err();
/// assert_eq!(b.to_string(), "short: workload 2 (3 jobs): three is too many");
/// // A panic is named like any broken invariant.
/// let b = check_each(&workloads, "jobs", |w| {
///     assert!(w.len() < 3, "no room for {}", w.len());
///     Ok(())
/// })
/// .unwrap_err();
/// assert_eq!(
///     b.to_string(),
///     "runs to the end: workload 2 (3 jobs): the implementation panicked: no room for 3"
/// );
/// ```
pub fn check_each<W>(
    workloads: &[Vec<W>],
    unit: &str,
    mut check: impl FnMut(&[W]) -> Result<(), Broken>,
) -> Result<(), Broken> {
    for (k, w) in workloads.iter().enumerate() {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(w)))
            .unwrap_or_else(|panic| {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic without a message");
                Err(Broken::new(
                    invariant::RUNS_TO_THE_END,
                    format!("the implementation panicked: {message}"),
                ))
            })
            .map_err(|b| b.within(format_args!("workload {} ({} {unit})", k + 1, w.len())))?;
    }
    Ok(())
}

/// The special and edge values of `f64` that break arithmetic: NaN of both
/// signs, the infinities, the largest and smallest normal and subnormal
/// values, signed zeros and a few large magnitudes.
pub const EDGE_F64: [f64; 18] = [
    f64::NAN,
    -f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    -f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    2.5e-310,
    0.0,
    -0.0,
    1.0,
    1e12,
    1e300,
    -1e300,
    -1.0,
];

/// Hostile floats for a property test of a function taking an `f64`: an
/// [`EDGE_F64`] value (2 in 6), any bit pattern (1 in 6), or an ordinary
/// value from `ordinary` (3 in 6), so the edges are tried often and the
/// paths past the input checks are reached too.
pub fn hostile_f64(ordinary: Range<f64>) -> impl Strategy<Value = f64> {
    prop_oneof![
        2 => prop::sample::select(EDGE_F64.to_vec()),
        1 => any::<f64>(),
        3 => ordinary,
    ]
}

/// An agent for the stepping API ([`Stepper`](crate::Stepper)) that decides
/// as [`Fcfs`](crate::builtin::Fcfs) does, through the public view only:
/// start the head while it fits.
pub fn fcfs_decision(ctx: &mut crate::Context<'_>) -> Result<(), crate::SimError> {
    while ctx
        .waiting(0)
        .is_some_and(|w| w.job.procs <= ctx.free_now())
    {
        ctx.start(0)?;
    }
    Ok(())
}

/// An agent for the stepping API that decides as EASY with one
/// reservation does, through the public view only: reserve the first job
/// that cannot start, start every other job that fits beside it, lift the
/// reservation when the decision is over (the built-in EASY's schedule,
/// decision for decision).
pub fn easy_decision(ctx: &mut crate::Context<'_>) -> Result<(), crate::SimError> {
    let now = ctx.now();
    let mut head = None;
    let mut k = 0;
    while let Some(w) = ctx.waiting(k) {
        if ctx
            .profile()
            .earliest_start(now, w.job.procs, w.job.estimate)
            == Some(now)
        {
            ctx.start(k)?;
            continue;
        }
        if head.is_none() {
            ctx.reserve_earliest(k)?;
            head = Some(k);
        }
        k += 1;
    }
    if let Some(k) = head {
        ctx.unreserve(k)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_is_fixed() {
        if std::env::var_os(EXPLORE_SEED_VAR).is_none() {
            let c = proptest_config(17);
            assert_eq!(c.cases, 17);
            assert_eq!(c.rng_seed, RngSeed::Fixed(GATE_SEED));
        }
    }
}
