//! A user's scheduler that wraps a built-in policy and makes reservations
//! of its own (public actions), or leaves some jobs unreserved, or asks
//! for no wake-up: the built-ins' shortcuts assume only their own state in
//! the context, and must not return a schedule the machine cannot run,
//! corrupt the profile or panic when it holds the user's reservations.

use profile::builtin::{Conservative, Easy, Fcfs};
use profile::*;

/// Reserves every job whose id is a multiple of 3 on arrival at its
/// earliest start, starts such jobs when due, and leaves the rest to `S`.
struct Vip<S>(S);

impl<S: Scheduler> Scheduler for Vip<S> {
    fn submitted(&mut self, ctx: &mut Context<'_>, p: usize) -> Result<(), SimError> {
        if ctx.waiting(p).unwrap().job.id.is_multiple_of(3) {
            ctx.reserve_earliest(p)?;
        }
        self.0.submitted(ctx, p)
    }
    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.0.freed(ctx)
    }
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        let now = ctx.now();
        let (mut k, mut next) = (0, None::<Time>);
        while let Some(w) = ctx.waiting(k) {
            match w.reserved {
                Some(r) if r <= now => ctx.start(k)?,
                Some(r) => {
                    next = Some(next.map_or(r, |n| n.min(r)));
                    k += 1;
                }
                None => k += 1,
            }
        }
        self.0.schedule(ctx)?;
        if let Some(n) = next {
            // The inner policy's wake-up, or this one's if sooner.
            ctx.wake_at(Some(n));
        }
        Ok(())
    }
}

/// Conservative that reserves only odd ids and asks for no wake-up of its
/// own after the inner decision (a reservation may then pass unstarted).
struct Sparse(Conservative);

impl Scheduler for Sparse {
    fn submitted(&mut self, ctx: &mut Context<'_>, p: usize) -> Result<(), SimError> {
        if !ctx.waiting(p).unwrap().job.id.is_multiple_of(2) {
            self.0.submitted(ctx, p)?;
        }
        Ok(())
    }
    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.0.freed(ctx)
    }
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.0.schedule(ctx)?;
        for k in 0..ctx.queue_len() {
            if ctx.waiting(k).unwrap().reserved.is_none() {
                ctx.reserve_earliest(k)?;
            }
        }
        // Every other decision forgets the wake-up the policy asked for.
        if ctx.now().0.rem_euclid(2) == 0 {
            ctx.wake_at(None);
        }
        Ok(())
    }
}

/// A seeded workload of `n` jobs on 16 processors, some ending early.
fn workload(seed: u64, n: u64) -> Vec<Job> {
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % m
    };
    let mut submit = 0;
    (1..=n)
        .map(|id| {
            submit += next(20) as i64;
            let estimate = 1 + next(60) as i64;
            let run = 1 + next(estimate as u64) as i64;
            Job::new(id, Time(submit), 1 + next(16) as u32, estimate, run)
        })
        .collect()
}

fn check(name: &str, s: &mut dyn Scheduler, policy: Policy, jobs: &[Job]) {
    let config = SchedulerConfig::new(16, policy);
    match simulate_with(&config, s, jobs, &mut NoObserver) {
        Ok(out) => assert_eq!(validate(16, jobs, &out), Ok(()), "{name}"),
        // A refusal is fine if it is one of the clear errors, never a panic
        // or a schedule the machine cannot run.
        Err(e) => panic!("{name}: {e}"),
    }
}

#[test]
fn built_ins_wrapped_with_reservations_of_the_users_give_valid_schedules() {
    for seed in 0..40 {
        let jobs = workload(seed, 150);
        check("vip fcfs", &mut Vip(Fcfs), Policy::Fcfs, &jobs);
        for k in [1, 3] {
            check("vip easy", &mut Vip(Easy::new(k)), Policy::Fcfs, &jobs);
        }
        check(
            "vip conservative",
            &mut Vip(Conservative::new()),
            Policy::Conservative,
            &jobs,
        );
        check(
            "sparse",
            &mut Sparse(Conservative::new()),
            Policy::Conservative,
            &jobs,
        );
    }
}

#[test]
fn a_reservation_passed_unstarted_is_not_taken_as_held() {
    // Job 2 is reserved at 6 by the wrapper, which then asks for no
    // decision: at 20 its reservation is history, and starting it as if
    // its processors were held ran 6 on a machine of 4.
    struct Late(Conservative);
    impl Scheduler for Late {
        fn submitted(&mut self, ctx: &mut Context<'_>, p: usize) -> Result<(), SimError> {
            if ctx.waiting(p).unwrap().job.id == 2 {
                let at = Time(ctx.now().0 + 5);
                return ctx.reserve(p, at);
            }
            self.0.submitted(ctx, p)
        }
        fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
            self.0.schedule(ctx)?;
            ctx.wake_at(None);
            Ok(())
        }
    }
    let jobs = [
        Job::new(1, Time(0), 1, 100, 100),
        Job::new(2, Time(1), 2, 10, 10),
        Job::new(3, Time(20), 3, 10, 10),
    ];
    let config = SchedulerConfig::new(4, Policy::Conservative);
    let out = simulate_with(
        &config,
        &mut Late(Conservative::new()),
        &jobs,
        &mut NoObserver,
    )
    .unwrap();
    assert_eq!(validate(4, &jobs, &out), Ok(()));
}
