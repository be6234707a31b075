//! The integration tests of intergrid, one binary with a module per area:
//! series names, the provider adapter, the schedule check, and whole runs
//! on small seeded grids.

mod extremes;
mod messages;
mod own_series;
mod runs;
mod schedule;
mod series;
mod site;

use intergrid::Scenario;
use profile::{Job, Time};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const DAY: i64 = 86_400;

/// `days` of rigid jobs on a machine of `procs` processors, ids from
/// `first`, from a seeded stream: Poisson arrivals (mean gap 50 min), widths
/// up to the machine, run times up to 2 h (a load near 0.6 on its own
/// machine), estimates from exact to 3× the run time, and one job in ten
/// underestimated (killed at its estimate).
pub fn jobs(procs: u32, days: i64, first: u64, seed: u64) -> Vec<Job> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut t = 0i64;
    loop {
        let u: f64 = rng.random_range(f64::EPSILON..1.0);
        t += (-3000.0 * u.ln()).ceil() as i64;
        if t >= days * DAY {
            return out;
        }
        let width = rng.random_range(1..=procs);
        let run_time = rng.random_range(60..=2 * 3600);
        let estimate = if rng.random_bool(0.1) {
            (run_time / 2).max(1)
        } else {
            run_time * rng.random_range(1..=3)
        };
        out.push(Job::new(
            first + out.len() as u64,
            Time(t),
            width,
            estimate,
            run_time,
        ));
    }
}

/// Two clusters (16 and 8 processors) with local load, a grid stream of
/// jobs up to 8 wide, five days, one day of warm-up.
pub fn small() -> (Vec<u32>, Scenario) {
    let scenario = Scenario {
        grid: jobs(8, 5, 1_000_000, 3),
        local: vec![jobs(16, 5, 0, 1), jobs(8, 5, 500_000, 2)],
        warmup: Time(DAY),
    };
    (vec![16, 8], scenario)
}
