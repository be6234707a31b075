//! MDF with full rescheduling against a transcription of its definition:
//! on every arrival, every waiting request and the new one are placed
//! again from scratch in slack order; if one finds no placement, the new
//! request is rejected and the previous schedule stays. The scheduler
//! keeps the requests before the new one where they are instead
//! (`Rescheduling::Full`'s documentation argues why that is the same);
//! this checks it, with preemptive, moldable and rigid requests mixed.

use adaptive_requests::{
    BudgetRule, Fallback, Placement, Policy, Preemption, PriceFunction, Request, SchedulerConfig,
    place, schedule,
};
use profile::{Profile, Time};
use proptest::prelude::*;

use crate::props::{Spec, build, spec, workload};

/// The paper's MDF, placing every waiting request again on each arrival;
/// with `append`, a new request that fails so is placed into the previous
/// schedule as FIFO would (`Fallback::Append`).
fn mdf_by_definition(
    capacity: u32,
    requests: &[Request],
    omega: &PriceFunction,
    rule: BudgetRule,
    append: bool,
) -> Vec<Option<Placement>> {
    let mut placed: Vec<Option<Placement>> = vec![None; requests.len()];
    // Slack order: deadline minus the time at the widest shape, then arrival.
    let key = |i: usize| {
        let r = &requests[i];
        let widest = r.req.shapes().next().map_or(0, |s| s.1);
        (r.submit.0 + r.req.deadline() - widest, i)
    };
    for (n, arrival) in requests.iter().enumerate() {
        let now = arrival.submit;
        let started = |p: &Placement| p.start() <= now;
        let mut profile = Profile::new(capacity, Time(i64::MIN));
        for p in placed[..n].iter().flatten().filter(|p| started(p)) {
            for q in p.parts() {
                profile.reserve(q.start, q.duration, q.procs).unwrap();
            }
        }
        let mut order: Vec<usize> = (0..n)
            .filter(|&i| placed[i].as_ref().is_some_and(|p| !started(p)))
            .chain([n])
            .collect();
        order.sort_by_key(|&i| key(i));
        let mut fresh = Vec::with_capacity(order.len());
        for &i in &order {
            let r = &requests[i];
            let Some(p) = place(&profile, now, r.submit, &r.req, omega, rule).unwrap() else {
                break;
            };
            for q in p.parts() {
                profile.reserve(q.start, q.duration, q.procs).unwrap();
            }
            fresh.push(p);
        }
        if fresh.len() == order.len() {
            for (i, p) in order.into_iter().zip(fresh) {
                placed[i] = Some(p);
            }
        } else if append {
            let mut profile = Profile::new(capacity, Time(i64::MIN));
            for p in placed[..n].iter().flatten() {
                for q in p.parts() {
                    profile.reserve(q.start, q.duration, q.procs).unwrap();
                }
            }
            placed[n] = place(&profile, now, now, &arrival.req, omega, rule).unwrap();
        }
    }
    placed
}

/// Long queues of splittable requests: arrivals every few seconds, most
/// of them preemptive, on machines of 4 to 16 processors.
fn crowded() -> impl Strategy<Value = (u32, Vec<Spec>)> {
    (4u32..=16).prop_flat_map(|cap| {
        let busy =
            (spec(cap), 0i64..8, proptest::bool::weighted(0.8)).prop_map(|(s, gap, split)| Spec {
                gap,
                sp: if split {
                    s.sp.or(Some(Preemption::TABLE1))
                } else {
                    None
                },
                ..s
            });
        (Just(cap), prop::collection::vec(busy, 20..=60))
    })
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(512))]

    #[test]
    fn mdf_prefix_kept_is_the_full_rescheduling_on_crowded_queues(
        (cap, specs) in crowded(),
        append in any::<bool>(),
    ) {
        let omega = PriceFunction::TABLE1.with_incentive(0.25).unwrap();
        let requests = build(&specs, true);
        let fallback = if append { Fallback::Append } else { Fallback::Reject };
        let config = SchedulerConfig::new(cap, Policy::Mdf).price(omega).fallback(fallback);
        let got: Vec<Option<Placement>> = schedule(config, &requests)
            .unwrap()
            .into_iter()
            .map(|o| o.placement)
            .collect();
        let rule = BudgetRule::Limit;
        prop_assert_eq!(got, mdf_by_definition(cap, &requests, &omega, rule, append));
    }

    #[test]
    fn mdf_prefix_kept_is_the_full_rescheduling(
        (cap, specs) in workload(40),
        preemptive in any::<bool>(),
        cap_budget in any::<bool>(),
        append in any::<bool>(),
    ) {
        let rule = if cap_budget { BudgetRule::Cap } else { BudgetRule::Limit };
        let omega = PriceFunction::TABLE1.with_incentive(0.25).unwrap();
        let requests = build(&specs, preemptive);
        let fallback = if append { Fallback::Append } else { Fallback::Reject };
        let config = SchedulerConfig::new(cap, Policy::Mdf)
            .price(omega)
            .budget(rule)
            .fallback(fallback);
        let got: Vec<Option<Placement>> = schedule(config, &requests)
            .unwrap()
            .into_iter()
            .map(|o| o.placement)
            .collect();
        prop_assert_eq!(got, mdf_by_definition(cap, &requests, &omega, rule, append));
    }
}
