//! A user's own policy on the shared event loop: EASY backfilling whose
//! queue head goes in arrival order and whose backfilling goes
//! shortest-job-first, checked by the public invariant suite, then compared
//! with the built-in EASY.
//!
//! `cargo run -p usched-profile --example easy_sjf`

use profile::testing::{Guarantee, Suite};
use profile::{
    Context, Job, Policy, QueueOrder, ScheduleStats, Scheduler, SchedulerConfig, SimError, Time,
    simulate, simulate_with, validate,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// EASY with a pluggable backfilling order: `sjf` picks the shortest
/// estimate first, otherwise the earliest arrival (the classic EASY).
struct EasySjf {
    sjf: bool,
}

impl Scheduler for EasySjf {
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        let now = ctx.now();
        // Whether the job at position `k` can start now, beside every reservation.
        let fits = |ctx: &Context<'_>, k: usize| {
            let job = ctx.waiting(k).expect("a queued position").job;
            ctx.profile().earliest_start(now, job.procs, job.estimate) == Some(now)
        };
        // The head starts while it fits; the first that does not is protected.
        while ctx.queue_len() > 0 && fits(ctx, 0) {
            ctx.start(0)?;
        }
        if ctx.queue_len() == 0 {
            return Ok(());
        }
        ctx.reserve_earliest(0)?;
        // Backfill beside that reservation, best candidate first. A job that
        // does not fit now never will in this decision: the machine only fills.
        loop {
            let key = |k: usize| {
                let job = ctx.waiting(k).expect("a queued position").job;
                (if self.sjf { job.estimate } else { 0 }, k)
            };
            let best = (1..ctx.queue_len())
                .filter(|&k| fits(ctx, k))
                .min_by_key(|&k| key(k));
            let Some(k) = best else { break };
            ctx.start(k)?;
        }
        // The reservation holds for this decision only.
        ctx.unreserve(0)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. The public invariant suite: valid, deterministic, streamable, and the
    //    head's reservation never delayed (arrival-order queue, kill at estimate).
    Suite::new(200).run(|| EasySjf { sjf: true });
    Suite::new(200)
        .orders(vec![QueueOrder::Arrival])
        .guarantee(Guarantee::KeepsFirstReservation)
        .run(|| EasySjf { sjf: true });
    println!("EASY-SJF passes the invariant suite");

    // 2. A workload of 2,000 jobs on 128 processors, at a load near 1.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut t = 0;
    let jobs: Vec<Job> = (0..2000)
        .map(|i| {
            t += rng.random_range(0..2400);
            let estimate = rng.random_range(60..36_000);
            let run_time = rng.random_range(1..=estimate);
            Job::new(i, Time(t), rng.random_range(1..=32), estimate, run_time)
        })
        .collect();
    let config = SchedulerConfig::new(128, Policy::EASY);
    let fifo = simulate_with(
        &config,
        &mut EasySjf { sjf: false },
        &jobs,
        &mut profile::NoObserver,
    )?;
    let sjf = simulate_with(
        &config,
        &mut EasySjf { sjf: true },
        &jobs,
        &mut profile::NoObserver,
    )?;
    validate(128, &jobs, &sjf)?;

    // 3. With arrival-order backfilling it is the built-in EASY, start for start.
    assert_eq!(fifo, simulate(&config, &jobs)?);
    let stats = |outs| ScheduleStats::compute(&jobs, outs, 128, 10);
    let (a, b) = (stats(&fifo)?, stats(&sjf)?);
    println!(
        "mean wait: EASY {:.0} s, EASY-SJF {:.0} s",
        a.mean_wait, b.mean_wait
    );
    Ok(())
}
