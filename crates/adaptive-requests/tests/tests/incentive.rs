//! The incentive and the schedule: when `same_at_every_incentive` says the
//! placements do not depend on it, scheduling again at another incentive
//! gives the same placements, priced as `SchedulerConfig::charge` says.

use adaptive_requests::{
    BudgetRule, LinearFmol, Placement, Policy, Preemption, PriceFunction, Req, Request,
    RequestSeeds, SchedulerConfig, Table1, schedule,
};
use profile::{Job, Time};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::props::{Spec, build, workload};

const INCENTIVES: [f64; 4] = [0.0, 0.1, 0.25, 1.0];

fn at(config: SchedulerConfig, incentive: f64) -> SchedulerConfig {
    config.price(config.price.with_incentive(incentive).unwrap())
}

fn placements(config: SchedulerConfig, requests: &[Request]) -> Vec<Option<Placement>> {
    let outcomes = schedule(config, requests).unwrap();
    outcomes.into_iter().map(|o| o.placement).collect()
}

/// Every outcome's price is `charge` of its placement (0 if rejected); if
/// the config says so, every incentive gives the same placements.
fn check(config: SchedulerConfig, requests: &[Request]) -> Result<bool, TestCaseError> {
    let same = config.same_at_every_incentive(requests);
    let first = placements(at(config, INCENTIVES[0]), requests);
    for incentive in INCENTIVES {
        let config = at(config, incentive);
        prop_assert_eq!(config.same_at_every_incentive(requests), same);
        let outcomes = schedule(config, requests).unwrap();
        for (r, o) in requests.iter().zip(&outcomes) {
            let charged = o.placement.as_ref().map_or(0.0, |p| config.charge(r, p));
            prop_assert_eq!(o.price.to_bits(), charged.to_bits());
        }
        if same {
            let now: Vec<Option<Placement>> = outcomes.into_iter().map(|o| o.placement).collect();
            prop_assert_eq!(&now, &first, "incentive {}", incentive);
        }
    }
    Ok(same)
}

/// 600 jobs of 1 to 40 processors, from one minute to about 3 hours,
/// arriving faster than a 64-processor machine runs them.
fn jobs() -> Vec<Job> {
    (0..600u64)
        .map(|i| {
            let run = 60 + (i as i64 * 7919 % 11) * 1000;
            Job::new(i, Time(i as i64 * 400), 1 + (i * 13 % 40) as u32, run, run)
        })
        .collect()
}

/// Table 1's requests for a variant that is preemptive but not moldable
/// keep their schedule at every incentive, under either budget rule and
/// either order; a moldable one under `Limit` is not promised it.
#[test]
fn table1_preemptive_requests_keep_their_schedule() {
    let seeds = RequestSeeds {
        preemptive: 3,
        price_profile: 4,
    };
    let table = Table1::default();
    let omega = PriceFunction::TABLE1;
    for policy in [Policy::Fifo, Policy::Mdf] {
        for budget in [BudgetRule::Limit, BudgetRule::Cap] {
            let config = SchedulerConfig::new(64, policy).budget(budget);
            let variant = format!("{}-preemptive", policy.name());
            let requests = table
                .requests(variant.parse().unwrap(), &jobs(), &omega, seeds)
                .unwrap();
            assert!(requests.iter().any(|r| r.req.is_preemptive()));
            assert!(check(config, &requests).unwrap(), "{variant} {budget:?}");
            let variant = format!("{variant}-moldable");
            let requests = table
                .requests(variant.parse().unwrap(), &jobs(), &omega, seeds)
                .unwrap();
            let same = check(config, &requests).unwrap();
            assert_eq!(same, budget == BudgetRule::Cap, "{variant} {budget:?}");
        }
    }
}

/// Why a moldable preemptive request is left out: between `R^min` and
/// `R^max` a shape holds more processor-seconds than its budget pays for
/// on time, and an incentive can make it affordable.
#[test]
fn an_incentive_can_move_a_molded_request() {
    let f = LinearFmol::new(16, 20, 1000).unwrap();
    let budget = PriceFunction::TABLE1.full_price(20 * 1000, 1.0).unwrap();
    let req = Req::linear(f, 100 * 1000, budget, Some(Preemption::TABLE1)).unwrap();
    let requests = vec![Request {
        id: 1,
        submit: Time(0),
        req,
    }];
    let config = SchedulerConfig::new(18, Policy::Fifo);
    assert!(!config.same_at_every_incentive(&requests));
    let end = |incentive| {
        placements(at(config, incentive), &requests)[0]
            .as_ref()
            .map(Placement::completion)
    };
    // 16 processors for 1250 s fit the budget; 18 for 1125 s only with 25% off.
    assert_eq!(end(0.0), Some(Time(1250)));
    assert_eq!(end(0.25), Some(Time(1125)));
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(128))]

    #[test]
    fn same_at_every_incentive_holds((cap, specs) in workload(20), rigid in any::<bool>()) {
        // Rigid requests with tight budgets meet the condition under `Limit`.
        let specs: Vec<Spec> = specs
            .into_iter()
            .map(|s| if rigid { Spec { r_min_percent: 100, ..s } } else { s })
            .collect();
        let requests = build(&specs, true);
        for policy in [Policy::Fifo, Policy::Mdf] {
            for budget in [BudgetRule::Limit, BudgetRule::Cap] {
                let same = check(SchedulerConfig::new(cap, policy).budget(budget), &requests)?;
                prop_assert!(same || budget == BudgetRule::Limit && !rigid);
            }
        }
    }
}
