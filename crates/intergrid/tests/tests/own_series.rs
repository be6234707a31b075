//! A series of one's own, measured as the paper's are: `simulate` and
//! `evaluate` once took only the built-in pairs (closed enums), so a user's
//! `Partitioning` or `Provisioning` could run through `gateway::run` but
//! got no deadlines from a base run, no ratio R and no validated run.

use std::cell::Cell;
use std::rc::Rc;

use gateway::{Candidate, Choice, EarliestAsk, GatewayPolicy, Information, Provisioning};
use intergrid::{Config, Evaluation, IntergridError, evaluate, evaluate_with, simulate_with};
use partitions_forecast::{ClusterConfig, ForecastConfig, Partitioning, ProviderPolicy};
use profile::{Job, Time};

use crate::small;

/// ArCb at every cluster, counting the clusters it set up.
struct CountedArCb(Cell<u32>);

impl Partitioning for CountedArCb {
    fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
        self.0.set(self.0.get() + 1);
        ProviderPolicy::ArCb.config(capacity, forecast)
    }
}

/// `earliest-ask`, counting its decisions.
#[derive(Clone)]
struct CountedAsk(Rc<Cell<u64>>);

impl Provisioning for CountedAsk {
    fn slot_information(&self) -> Option<Information> {
        EarliestAsk.slot_information()
    }
    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        self.0.set(self.0.get() + 1);
        EarliestAsk.choose(now, job, candidates)
    }
}

#[test]
fn a_series_of_ones_own_is_measured_as_the_papers_are() {
    let (clusters, scenario) = small();
    let config = Config::paper(clusters, 3600);
    let evaluation = Evaluation {
        base: "areb+least-load".parse().unwrap(),
        deadline_share: 0.3,
        stringency: 5.0,
        deadline_seed: 11,
        bsld_bound: 10,
    };
    let (partitioning, decisions) = (CountedArCb(Cell::new(0)), Rc::new(Cell::new(0)));
    let ours = evaluate_with(
        &config,
        &scenario,
        "counted-arcb+counted-ask",
        &partitioning,
        CountedAsk(decisions.clone()),
        &evaluation,
    )
    .unwrap();
    // The user's policies decided: every cluster, every grid job at least once.
    assert_eq!(partitioning.0.get(), 2);
    assert!(decisions.get() >= scenario.grid.len() as u64);
    // And they are the paper's arcb+earliest-ask: the same measurement.
    let paper = evaluate(
        &config,
        &scenario,
        "arcb+earliest-ask".parse().unwrap(),
        &evaluation,
    )
    .unwrap();
    assert_eq!(ours, paper);
    assert!(ours.grid_r.is_finite() && ours.grid_jobs > 0);
}

/// A policy that picks a provider the gateway did not offer.
#[derive(Clone)]
struct Wrong;

impl Provisioning for Wrong {
    fn choose(&mut self, _: Time, _: &Job, candidates: &[Candidate<'_>]) -> Choice {
        Choice::Submit {
            provider: candidates.len() + 7,
            planned: None,
        }
    }
}

#[test]
fn errors_name_the_series_of_ones_own() {
    let (clusters, scenario) = small();
    let config = Config::paper(clusters, 3600);
    let err = intergrid::simulate_with(
        &config,
        &scenario,
        "arcb+wrong",
        &ProviderPolicy::ArCb,
        Wrong,
        None,
    )
    .unwrap_err();
    assert!(
        matches!(&err, IntergridError::Gateway { series, .. } if series == "arcb+wrong"),
        "{err}"
    );
    assert!(err.to_string().starts_with("arcb+wrong: "), "{err}");
    // The built-in pair given as policies runs as its name does.
    let spelt = simulate_with(
        &config,
        &scenario,
        "spelt",
        &ProviderPolicy::ArEb,
        GatewayPolicy::LeastLoaded,
        None,
    )
    .unwrap();
    let named =
        intergrid::simulate(&config, &scenario, "areb+least-load".parse().unwrap(), None).unwrap();
    assert_eq!(spelt, named);
}
