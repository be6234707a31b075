//! Whole runs on a small seeded grid: simulation, deadlines and metrics.

use intergrid::{
    Config, Evaluation, GatewayKind, IntergridError, Metrics, Run, Scenario, Series, bsld,
    evaluate, ratio, simulate,
};
use partitions_forecast::ProviderPolicy;
use profile::Time;

use crate::{DAY, small};

fn series(name: &str) -> Series {
    name.parse().unwrap()
}

fn base() -> Series {
    series("areb+least-load")
}

fn setup() -> (Config, Scenario) {
    let (clusters, scenario) = small();
    (Config::paper(clusters, 3600), scenario)
}

fn run(config: &Config, scenario: &Scenario, s: Series) -> Run {
    simulate(config, scenario, s, None).unwrap()
}

fn measured_grid(scenario: &Scenario) -> usize {
    scenario
        .grid
        .iter()
        .filter(|j| j.submit >= scenario.warmup)
        .count()
}

#[test]
fn the_base_against_itself_gives_r_zero_and_runs_are_deterministic() {
    let (config, scenario) = setup();
    let a = run(&config, &scenario, base());
    let b = run(&config, &scenario, base());
    assert_eq!(a, b);
    let (ma, mb) = (
        a.metrics(&a, &scenario, 10).unwrap(),
        b.metrics(&a, &scenario, 10).unwrap(),
    );
    assert_eq!(ma, mb);
    assert_eq!((ma.grid_r, ma.local_r), (0.0, 0.0));
    assert_eq!(ma.grid_jobs, measured_grid(&scenario));
    assert!(ma.grid_jobs > 50 && ma.local_jobs > 100, "{ma:?}");
    // least-load plans no start: nothing can be late.
    assert_eq!(ma.late_starts, 0);
}

#[test]
fn ask_costs_two_messages_per_provider_and_one_submission_per_job_and_is_never_late() {
    let (config, scenario) = setup();
    let ask = series("arcb+earliest-ask");
    let run_ask = run(&config, &scenario, ask);
    let b = run(&config, &scenario, base());
    let m = run_ask.metrics(&b, &scenario, 10).unwrap();
    let measured = measured_grid(&scenario) as u64;
    assert_eq!(m.messages, measured * (2 * 2 + 1));
    assert_eq!(m.violations, 0);
    // Deadlines from the base run (stringency 5) are met by reservations.
    let deadlines = scenario.deadlines(&b, 1.0, 5.0, 9).unwrap();
    for (d, ran) in deadlines.iter().zip(b.grid()) {
        assert_eq!(d.is_some(), ran.is_some());
    }
    let with = simulate(&config, &scenario, ask, Some(&deadlines)).unwrap();
    let mut met = 0;
    for ((job, d), ran) in scenario.grid.iter().zip(&deadlines).zip(with.grid()) {
        if let (Some(d), Some((_, end))) = (d, ran) {
            assert!(end <= d, "job {} ends at {end}, deadline {d}", job.id);
            met += 1;
        }
    }
    assert!(met > 50, "only {met} jobs with deadlines ran");
    assert_eq!(with.violations().iter().sum::<u32>(), 0);
}

#[test]
fn every_series_runs_to_a_valid_schedule_with_every_job_accounted_for() {
    let (config, scenario) = setup();
    let b = run(&config, &scenario, base());
    for provider in ProviderPolicy::ALL {
        for gateway in GatewayKind::ALL {
            let s = Series { provider, gateway };
            let r = run(&config, &scenario, s);
            assert_eq!(r.grid().len(), scenario.grid.len(), "{s}");
            assert_eq!(r.held().len(), scenario.grid.len(), "{s}");
            for (ran, jobs) in r.local().iter().zip(&scenario.local) {
                assert_eq!(ran.len(), jobs.len(), "{s}");
            }
            for (job, ran) in scenario.grid.iter().zip(r.grid()) {
                if let Some((start, end)) = *ran {
                    assert!(start >= job.submit && end > start, "{s}: job {}", job.id);
                }
            }
            for ((v, late), refused) in r.violations().iter().zip(r.late()).zip(r.refusals()) {
                assert_eq!(*v, u32::from(*late) + refused, "{s}");
            }
            let m = r.metrics(&b, &scenario, 10).unwrap();
            assert_eq!(m.grid_jobs, measured_grid(&scenario), "{s}");
            assert!(m.local_bsld >= 1.0 && m.local_r.is_finite(), "{s}: {m:?}");
            assert!((0.0..=100.0).contains(&m.rejected_pct), "{s}: {m:?}");
            assert!((0.0..=100.0).contains(&m.held_pct), "{s}: {m:?}");
            if gateway == GatewayKind::LeastLoad {
                assert_eq!(m.late_starts, 0, "{s}");
            }
        }
    }
}

#[test]
fn deadlines_follow_the_share_the_stringency_and_the_seed() {
    let (config, scenario) = setup();
    let b = run(&config, &scenario, base());
    let none = scenario.deadlines(&b, 0.0, 5.0, 1).unwrap();
    assert!(none.iter().all(Option::is_none));
    let half = scenario.deadlines(&b, 0.5, 2.0, 1).unwrap();
    assert_eq!(half, scenario.deadlines(&b, 0.5, 2.0, 1).unwrap());
    assert_ne!(half, scenario.deadlines(&b, 0.5, 2.0, 2).unwrap());
    let picked = half.iter().flatten().count();
    let n = scenario.grid.len();
    assert!(picked > n / 4 && picked < 3 * n / 4, "{picked} of {n}");
    for ((job, d), ran) in scenario.grid.iter().zip(&half).zip(b.grid()) {
        if let (Some(d), Some((_, end))) = (d, ran) {
            assert_eq!(*d, job.submit + 2 * (*end - job.submit));
        }
    }
    // Another factor picks the same jobs.
    let loose = scenario.deadlines(&b, 0.5, 5.0, 1).unwrap();
    assert!(
        half.iter()
            .zip(&loose)
            .all(|(a, b)| a.is_some() == b.is_some())
    );
}

#[test]
fn evaluate_is_base_then_deadlines_then_the_series_then_metrics() {
    let (config, scenario) = setup();
    let evaluation = Evaluation {
        base: base(),
        deadline_share: 0.3,
        stringency: 5.0,
        deadline_seed: 11,
        bsld_bound: 10,
    };
    let s = series("arebmf+earliest-partial");
    let b = run(&config, &scenario, base());
    let deadlines = scenario.deadlines(&b, 0.3, 5.0, 11).unwrap();
    let r = simulate(&config, &scenario, s, Some(&deadlines)).unwrap();
    let by_hand = r.metrics(&b, &scenario, 10).unwrap();
    assert_eq!(
        evaluate(&config, &scenario, s, &evaluation).unwrap(),
        by_hand
    );
    // The base without deadlines is measured against itself: R = 0.
    let itself = Evaluation {
        deadline_share: 0.0,
        ..evaluation
    };
    let m: Metrics = evaluate(&config, &scenario, base(), &itself).unwrap();
    assert_eq!(m, b.metrics(&b, &scenario, 10).unwrap());
    assert_eq!((m.grid_r, m.local_r), (0.0, 0.0));
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let (config, scenario) = setup();
    let b = run(&config, &scenario, base());
    let one_cluster = Config {
        clusters: vec![16],
        ..config.clone()
    };
    assert_eq!(
        simulate(&one_cluster, &scenario, base(), None),
        Err(IntergridError::ClusterCount {
            clusters: 1,
            local: 2
        })
    );
    let zero = Config {
        clusters: vec![16, 0],
        ..config.clone()
    };
    assert!(matches!(
        simulate(&zero, &scenario, base(), None),
        Err(IntergridError::Cluster { cluster: 1, .. })
    ));
    assert!(matches!(
        simulate(&config, &scenario, base(), Some(&[None])),
        Err(IntergridError::ForeignRun {
            what: "grid jobs",
            found: 1,
            ..
        })
    ));
    let too_wide = Scenario {
        grid: vec![profile::Job::new(1_000_000, Time(0), 32, 60, 60)],
        ..scenario.clone()
    };
    let wide = simulate(&config, &too_wide, base(), None).unwrap();
    assert_eq!(wide.grid(), [None]);
    let unsorted = Scenario {
        grid: scenario.grid.iter().rev().cloned().collect(),
        ..scenario.clone()
    };
    assert!(matches!(
        simulate(&config, &unsorted, base(), None),
        Err(IntergridError::Gateway { .. })
    ));
    for share in [-0.1, 1.5, f64::NAN] {
        assert!(matches!(
            scenario.deadlines(&b, share, 5.0, 1),
            Err(IntergridError::DeadlineShare { .. })
        ));
    }
    for stringency in [0.0, -1.0, f64::INFINITY] {
        assert!(matches!(
            scenario.deadlines(&b, 0.5, stringency, 1),
            Err(IntergridError::Stringency { .. })
        ));
    }
    assert_eq!(
        b.metrics(&b, &scenario, 0),
        Err(IntergridError::BsldBound { bound: 0 })
    );
    assert!(matches!(
        wide.metrics(&b, &scenario, 10),
        Err(IntergridError::ForeignRun { .. })
    ));
    assert!(matches!(
        scenario.deadlines(&wide, 0.5, 5.0, 1),
        Err(IntergridError::ForeignRun { .. })
    ));
    let message = simulate(&one_cluster, &scenario, base(), None)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "1 clusters but 2 local workloads; give one local workload per cluster"
    );
}

#[test]
fn ratio_is_symmetric_in_sign_and_bsld_is_bounded() {
    assert_eq!(ratio(4.0, 2.0), 1.0);
    assert_eq!(ratio(2.0, 4.0), -1.0);
    assert_eq!(ratio(3.0, 3.0), 0.0);
    assert_eq!(bsld(Time(0), (Time(90), Time(100)), 10), 10.0);
    assert_eq!(bsld(Time(0), (Time(0), Time(5)), 10), 1.0);
    assert_eq!(bsld(Time(DAY), (Time(DAY + 60), Time(DAY + 120)), 10), 2.0);
}
