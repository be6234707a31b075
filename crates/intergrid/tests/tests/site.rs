//! The provider adapter and the refusal mapping.

use gateway::{HoldId, Provider, Refusal, Report};
use intergrid::{Site, refusal};
use partitions_forecast::{Cluster, ForecastConfig, Origin, ProviderPolicy, ReservationError};
use profile::{Job, Time};

fn arcb(procs: u32, local: Vec<Job>) -> Site {
    let config = ProviderPolicy::ArCb.config(procs, &ForecastConfig::paper(3600));
    Site::new(
        Cluster::new(config, Time(0))
            .unwrap()
            .with_local_jobs(local)
            .unwrap(),
    )
}

#[test]
fn refusals_keep_their_meaning_and_the_rest_are_rejections() {
    let gone = ReservationError::SlotGone {
        job: 7,
        start: Time(100),
        procs: 4,
        duration: 50,
    };
    assert_eq!(
        refusal(7, gone),
        Refusal::SlotGone {
            job: 7,
            start: Time(100),
            procs: 4,
            duration: 50
        }
    );
    assert_eq!(
        refusal(
            7,
            ReservationError::UnknownHold {
                hold: partitions_forecast::HoldId(3)
            }
        ),
        Refusal::UnknownHold { hold: HoldId(3) }
    );
    let past = ReservationError::InThePast {
        job: 7,
        start: Time(5),
        now: Time(10),
    };
    assert_eq!(
        refusal(7, past.clone()),
        Refusal::Rejected {
            job: 7,
            reason: past.to_string()
        }
    );
}

#[test]
fn a_site_is_a_provider_with_two_phase_reservations() {
    let mut site = arcb(8, vec![Job::new(1, Time(0), 6, 100, 100)]);
    assert_eq!(site.capacity(), 8);
    // The local job arrives at 0: 2 processors free now, all 8 from 100 s.
    let slots = site.free_slots(Time(0), Time::MAX);
    assert_eq!(
        (slots[0].procs, slots[1].start, slots[1].procs),
        (2, Time(100), 8)
    );
    let grid = Job::new(7, Time(10), 4, 50, 50);
    let hold = site
        .request_reservation(Time(10), &grid, Time(100))
        .unwrap();
    site.commit(Time(10), hold).unwrap();
    // The hold is spent: committing it again is an unknown hold.
    assert_eq!(
        site.commit(Time(10), hold),
        Err(Refusal::UnknownHold { hold })
    );
    // Eight processors at 50 s are taken by the local job.
    let wide = Job::new(8, Time(20), 8, 30, 30);
    assert!(matches!(
        site.request_reservation(Time(20), &wide, Time(50)),
        Err(Refusal::SlotGone { job: 8, .. })
    ));
    // Too wide for the cluster: a rejection that names the job.
    let huge = Job::new(9, Time(20), 16, 30, 30);
    assert!(matches!(
        site.submit(Time(20), huge),
        Err(Refusal::Rejected { job: 9, .. })
    ));
    let mut reports = Vec::new();
    while let Some(t) = site.next_event() {
        site.advance(t, &mut reports);
    }
    assert!(reports.contains(&Report::Started {
        job: 7,
        at: Time(100)
    }));
    assert!(reports.contains(&Report::Ended {
        job: 7,
        at: Time(150)
    }));
    let cluster = site.finish().unwrap();
    let records = cluster.records();
    let grid = records.iter().find(|r| r.id == 7).unwrap();
    assert_eq!(
        (grid.origin, grid.reserved_start, grid.start),
        (Origin::Grid, Some(Time(100)), Some(Time(100)))
    );
    intergrid::validate(cluster.capacity(), &records).unwrap();
}

/// Pricing reads one node per processor: a provider of `u32::MAX`
/// processors once made every decision ask for 32 GiB and abort. Past
/// `pricing::MAX_NODES` a priced provider refuses the job, and
/// `simulate` refuses the configuration naming the cluster.
#[test]
fn pricing_a_provider_past_the_node_limit_is_refused() {
    use intergrid::{Config, IntergridError, Priced, ProviderPricing, Scenario, simulate};
    let job = Job::new(1000, Time(0), 4, 900, 600);
    let mut priced =
        Priced::libra_dollar(arcb(u32::MAX, Vec::new()), ProviderPricing::PAPER).unwrap();
    let refused = priced.submit(Time(0), job.clone()).unwrap_err();
    assert!(
        matches!(&refused, Refusal::Rejected { job: 1000, reason } if reason.contains("4294967295 processors, more than the 1000000 nodes")),
        "{refused:?}"
    );
    assert_eq!(priced.rejected(), 1);
    let scenario = Scenario {
        grid: vec![job],
        local: vec![Vec::new(), Vec::new()],
        warmup: Time(0),
    };
    for procs in [u32::MAX, 1_000_001] {
        let config = Config {
            pricing: Some(ProviderPricing::PAPER),
            ..Config::paper(vec![8, procs], 3600)
        };
        let err = simulate(
            &config,
            &scenario,
            "arcb+earliest-ask".parse().unwrap(),
            None,
        )
        .unwrap_err();
        assert!(
            matches!(err, IntergridError::PricedClusterTooLarge { cluster: 1, procs: p, max: 1_000_000 } if p == procs),
            "{err}"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("cluster 1 has {procs} processors"))
        );
    }
    // At the limit it runs.
    let config = Config {
        pricing: Some(ProviderPricing::PAPER),
        ..Config::paper(vec![8, 1_000_000], 3600)
    };
    assert!(
        simulate(
            &config,
            &scenario,
            "arcb+earliest-ask".parse().unwrap(),
            None
        )
        .is_ok()
    );
}

/// An admission rule of one's own that accepts at a cost of its own.
struct Charge(f64);

impl pricing::Admission for Charge {
    fn admit(
        &mut self,
        _: &pricing::JobContext<'_>,
        _: &[pricing::NodeLoad],
        _: &dyn pricing::PriceFunction,
    ) -> Result<pricing::Decision, pricing::PricingError> {
        Ok(pricing::Decision::Accept(pricing::Allocation {
            nodes: vec![0],
            cost: self.0,
        }))
    }
}

/// A user's admission rule accepting at a NaN, infinite or negative cost
/// made the provider's revenue NaN, infinite or negative, silently; the
/// job is refused with the cost named, and the revenue stays a number.
#[test]
fn an_admission_rule_accepting_at_an_impossible_cost_is_refused() {
    use intergrid::{Priced, ProviderPricing};
    use pricing::LibraDollar;
    let price = LibraDollar {
        alpha: 1.0,
        beta: 0.1,
    };
    for cost in [f64::NAN, f64::INFINITY, -1.0] {
        let mut priced = Priced::new(
            arcb(8, Vec::new()),
            Charge(cost),
            price,
            ProviderPricing::PAPER,
        )
        .unwrap();
        let job = Job::new(1000, Time(0), 4, 900, 600);
        let refused = priced.submit(Time(0), job.clone()).unwrap_err();
        assert!(
            matches!(&refused, Refusal::Rejected { job: 1000, reason }
                if reason.contains(&format!("accepted job 1000 at a cost of {cost}, not a finite number"))),
            "{refused:?}"
        );
        assert!(priced.request_reservation(Time(0), &job, Time(10)).is_err());
        assert_eq!((priced.revenue(), priced.rejected()), (0.0, 2));
    }
    let mut priced = Priced::new(
        arcb(8, Vec::new()),
        Charge(5.0),
        price,
        ProviderPricing::PAPER,
    )
    .unwrap();
    priced
        .submit(Time(0), Job::new(1000, Time(0), 4, 900, 600))
        .unwrap();
    assert_eq!(priced.revenue(), 5.0);
}

/// `Priced::new` took any pricing, and only `simulate` checked it: a
/// provider built by hand with a NaN weight rejected every grid job as too
/// expensive, silently. The constructor now refuses it, naming the field.
#[test]
fn a_priced_provider_refuses_unusable_pricing_where_it_is_built() {
    use intergrid::{IntergridError, Priced, ProviderPricing};
    use pricing::{LibraAdmission, LibraDollar};
    let price = LibraDollar {
        alpha: 1.0,
        beta: 0.1,
    };
    let bad = [
        (
            "alpha",
            ProviderPricing {
                alpha: f64::NAN,
                ..ProviderPricing::PAPER
            },
        ),
        (
            "beta",
            ProviderPricing {
                beta: -0.1,
                ..ProviderPricing::PAPER
            },
        ),
        (
            "base_price",
            ProviderPricing {
                base_price: 0.0,
                ..ProviderPricing::PAPER
            },
        ),
        (
            "budget_factor",
            ProviderPricing {
                budget_factor: f64::INFINITY,
                ..ProviderPricing::PAPER
            },
        ),
        (
            "deadline_factor",
            ProviderPricing {
                deadline_factor: 0.5,
                ..ProviderPricing::PAPER
            },
        ),
    ];
    for (name, pricing) in bad {
        let err = Priced::new(arcb(8, Vec::new()), LibraAdmission, price, pricing).unwrap_err();
        assert!(
            matches!(err, IntergridError::Pricing { field, .. } if field == name),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("provider pricing: {name} is ")),
            "{err}"
        );
        let err = Priced::libra_dollar(arcb(8, Vec::new()), pricing).unwrap_err();
        assert!(
            matches!(err, IntergridError::Pricing { field, .. } if field == name),
            "{err:?}"
        );
    }
    Priced::new(
        arcb(8, Vec::new()),
        LibraAdmission,
        price,
        ProviderPricing::PAPER,
    )
    .unwrap();
}
