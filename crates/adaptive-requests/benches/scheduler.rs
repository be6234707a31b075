//! FIFO and MDF on one synthetic 15-day interval shaped as in Table 1:
//! 840 requests on 128 processors at about 85% offered load, from a seeded
//! ChaCha stream. Compare FIFO with MDF (full and incremental rescheduling),
//! rigid with preemptive-moldable requests, in the same run.

use adaptive_requests::{
    LinearFmol, Policy, Preemption, PriceFunction, Req, Request, Rescheduling, SchedulerConfig,
    schedule, table1_r_min,
};
use criterion::{Criterion, criterion_group, criterion_main};
use profile::Time;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn interval(flexible: bool) -> Vec<Request> {
    let mut rng = ChaCha8Rng::seed_from_u64(2007);
    let omega = PriceFunction::TABLE1;
    let mut submit = 0i64;
    (0..840u64)
        .map(|id| {
            submit += rng.random_range(0..3085);
            let r_max = 1u32 << rng.random_range(0..7u32);
            let t_min = rng.random_range(60..20_000i64);
            let high = rng.random_bool(0.2);
            let profile = if high { 3.0 } else { 1.0 };
            let split = flexible && t_min >= 3600 && rng.random_bool(0.2);
            let r_min = if flexible { table1_r_min(r_max) } else { r_max };
            let f = LinearFmol::new(r_min, r_max, t_min).unwrap();
            let deadline = 5 * t_min + if high { 0 } else { 3 * 86_400 };
            let budget = omega.full_price(i64::from(r_max) * t_min, profile).unwrap();
            let req = Req::linear(f, deadline, budget, split.then_some(Preemption::TABLE1))
                .unwrap()
                .with_price_profile(profile)
                .unwrap();
            Request {
                id,
                submit: Time(submit),
                req,
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("interval");
    g.sample_size(20);
    for (label, flexible) in [("rigid", false), ("preemptive-moldable", true)] {
        let requests = interval(flexible);
        let configs = [
            ("fifo", SchedulerConfig::new(128, Policy::Fifo)),
            ("mdf-full", SchedulerConfig::new(128, Policy::Mdf)),
            (
                "mdf-incremental",
                SchedulerConfig::new(128, Policy::Mdf).rescheduling(Rescheduling::Incremental),
            ),
        ];
        for (name, config) in configs {
            g.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| schedule(config, &requests).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
