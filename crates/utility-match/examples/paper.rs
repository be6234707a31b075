//! §4.2 of Vasques & Veiga: the three schedulers on the same generated grids.
//!
//! `cargo run --release -p usched-utility-match --example paper [runs]`

use std::time::Instant;

use utility_match::{GridConfig, Scenario, SystemMetrics, UtilityKind, simulate, validate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: u64 = std::env::args().nth(1).map_or(Ok(10), |s| s.parse())?;
    let scenario = Scenario::paper();
    let config = GridConfig::default();
    println!(
        "scheduler  success  utility  eq.3   own    submit(s)  exec(s)  balance  fwd/job  msg/job  rejected  expired"
    );
    for kind in UtilityKind::ALL {
        let start = Instant::now();
        let mut sum = [0.0f64; 11];
        for seed in 0..runs {
            let w = scenario.generate(seed)?;
            let run = simulate(&config, &kind, &w.machines, &w.jobs)?;
            validate(&w.machines, &w.jobs, &run, config.max_ttl)?;
            let m = SystemMetrics::of(&run)?;
            let v = [
                m.success_ratio,
                m.utility,
                m.utility_eq3,
                m.decided_utility,
                m.submission_time.unwrap_or(f64::NAN),
                m.execution_time.unwrap_or(f64::NAN),
                m.load_balance,
                m.forwards_per_job,
                m.messages_per_job,
                m.rejected as f64,
                m.expired as f64,
            ];
            sum.iter_mut().zip(v).for_each(|(s, v)| *s += v);
        }
        let n = runs as f64;
        let a: Vec<f64> = sum.iter().map(|s| s / n).collect();
        println!(
            "{:<10} {:>7.4}  {:>7.4}  {:.3}  {:.3}  {:>9.1}  {:>7.1}  {:>7.3}  {:>7.3}  {:>7.1}  {:>8.1}  {:>7.1}   ({:.2?})",
            kind.name(),
            a[0],
            a[1],
            a[2],
            a[3],
            a[4],
            a[5],
            a[6],
            a[7],
            a[8],
            a[9],
            a[10],
            start.elapsed()
        );
    }
    Ok(())
}
