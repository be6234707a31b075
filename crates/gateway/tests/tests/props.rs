//! Property tests: random grids of `Twin` providers with local load, random
//! grid jobs (some with deadlines), every gateway policy.
//!
//! One `check_*` helper per invariant:
//! * every grid job ends exactly once: it ran (once, on a provider wide
//!   enough, after its submission) or was rejected with a reason;
//! * the message counts equal the messages sent (the calls the providers saw);
//! * violations are exactly the late starts and the refused reservations;
//! * fresh information is never wrong: with `ask` nothing is late.

use std::collections::BTreeMap;

use gateway::{
    Fate, GatewayConfig, GatewayPolicy, GridRun, Information, Message, ProvisioningViolation,
    is_late, run,
};
use profile::{Job, Time};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::twin::Twin;

fn jobs(max_procs: u32, n: usize, first_id: u64) -> impl Strategy<Value = Vec<Job>> {
    prop::collection::vec(
        (
            0i64..60,
            1..=max_procs,
            1i64..150,
            0i64..150,
            prop::option::of(1.0f64..6.0),
        ),
        0..n,
    )
    .prop_map(move |v| {
        let mut t = 0;
        v.into_iter()
            .enumerate()
            .map(|(i, (gap, procs, est, run, stringency))| {
                t += gap;
                let job = Job::new(first_id + i as u64, Time(t), procs, est, run.min(est));
                match stringency {
                    Some(s) => job.with_deadline(Time(t + (est as f64 * s) as i64)),
                    None => job,
                }
            })
            .collect()
    })
}

fn policy() -> impl Strategy<Value = GatewayPolicy> {
    prop_oneof![
        Just(GatewayPolicy::LeastLoaded),
        Just(GatewayPolicy::EarliestStart(Information::Ask)),
        (1i64..200)
            .prop_map(|interval| GatewayPolicy::EarliestStart(Information::Partial { interval })),
    ]
}

type Grid = (Vec<Twin>, Vec<Job>, GatewayConfig);

fn grid() -> impl Strategy<Value = Grid> {
    (
        prop::collection::vec((1u32..12, any::<bool>(), any::<bool>()), 1..4),
        policy(),
        any::<bool>(),
        0u32..30,
    )
        .prop_flat_map(|(sites, policy, track, tolerance)| {
            let widest = sites.iter().map(|s| s.0).max().unwrap_or(1);
            let locals: Vec<_> = sites
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    jobs(s.0, 25, 1000 * (k as u64 + 1)).prop_map(|v| {
                        v.into_iter()
                            .map(|j| Job {
                                deadline: None,
                                ..j
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            (
                Just(sites),
                locals,
                jobs(widest + 1, 30, 1),
                Just((policy, track, tolerance)),
            )
        })
        .prop_map(|(sites, locals, grid, (policy, track, tolerance))| {
            let providers = sites
                .iter()
                .zip(locals)
                .map(|(&(cap, skip, chatty), local)| {
                    let mut t = Twin::new(cap, local);
                    t.skip_publications = skip;
                    t.chatty = chatty;
                    t
                })
                .collect();
            let config = GatewayConfig::new(policy)
                .track_allocations(track)
                .tolerance(tolerance);
            (providers, grid, config)
        })
}

/// Every grid job has exactly one fate, consistent with what the provider did.
fn check_every_job_ends_once(
    providers: &[Twin],
    jobs: &[Job],
    r: &GridRun,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.fates.len(), jobs.len());
    let mut ran: BTreeMap<u64, (usize, Time, Time)> = BTreeMap::new();
    for (k, p) in providers.iter().enumerate() {
        for &(id, s, e) in &p.ran {
            prop_assert!(ran.insert(id, (k, s, e)).is_none(), "job {id} ran twice");
            prop_assert_eq!(p.ended.get(&id).copied(), Some(1), "job {} ended once", id);
        }
    }
    for (job, fate) in jobs.iter().zip(&r.fates) {
        match *fate {
            Fate::Ran {
                provider,
                placed,
                start,
                end,
                reserved,
                planned,
            } => {
                prop_assert_eq!(ran.get(&job.id).copied(), Some((provider, start, end)));
                prop_assert!(providers[provider].capacity >= job.procs);
                prop_assert!(placed >= job.submit && start >= placed);
                prop_assert_eq!(end - start, job.run_time.min(job.estimate));
                if reserved {
                    prop_assert_eq!(planned, Some(start), "a reservation is honoured");
                    let deadline = job.deadline.expect("only deadline jobs are reserved");
                    prop_assert!(
                        start + job.estimate <= deadline,
                        "job {} misses its deadline",
                        job.id
                    );
                }
            }
            Fate::Rejected { at, .. } => {
                prop_assert!(!ran.contains_key(&job.id), "rejected job {} ran", job.id);
                prop_assert!(at >= job.submit);
            }
        }
    }
    Ok(())
}

/// The message counts equal the calls the providers received.
fn check_messages_equal_calls(providers: &[Twin], r: &GridRun) -> Result<(), TestCaseError> {
    let m = &r.messages;
    let sum = |f: &dyn Fn(&Twin) -> u64| providers.iter().map(f).sum::<u64>();
    prop_assert_eq!(
        m.count(Message::UtilisationReport),
        sum(&|p| p.utilisation_calls.get())
    );
    prop_assert_eq!(m.count(Message::SlotRequest), m.count(Message::SlotReply));
    prop_assert_eq!(
        m.count(Message::SlotReply) + m.count(Message::SlotPublication),
        sum(&|p| p.calls.free_slots + p.calls.published + p.calls.unsolicited)
    );
    prop_assert_eq!(m.count(Message::JobSubmission), sum(&|p| p.calls.submit));
    prop_assert_eq!(
        m.count(Message::ReservationRequest),
        sum(&|p| p.calls.request)
    );
    prop_assert_eq!(
        m.count(Message::ReservationReply),
        sum(&|p| p.calls.request)
    );
    prop_assert_eq!(m.count(Message::Commit), sum(&|p| p.calls.commit));
    prop_assert_eq!(m.count(Message::Abort), sum(&|p| p.calls.abort));
    prop_assert_eq!(m.total(), m.by_kind().map(|(_, n)| n).sum::<u64>());
    prop_assert!(r.measured.total() <= m.total());
    Ok(())
}

/// Violations are exactly the late starts and the refusals.
fn check_violations(
    providers: &[Twin],
    jobs: &[Job],
    r: &GridRun,
    tolerance: u32,
) -> Result<(), TestCaseError> {
    let late: Vec<u64> = jobs
        .iter()
        .zip(&r.fates)
        .filter(|(_, f)| matches!(**f, Fate::Ran { planned: Some(p), start, .. } if is_late(p, start, tolerance)))
        .map(|(j, _)| j.id)
        .collect();
    let mut logged_late: Vec<u64> = Vec::new();
    let mut refused = 0;
    for v in r.violations.violations() {
        match *v {
            ProvisioningViolation::LateStart { job, .. } => logged_late.push(job),
            ProvisioningViolation::ReservationRefused { .. } => refused += 1,
            other => prop_assert!(false, "unexpected violation {other:?}"),
        }
    }
    logged_late.sort_unstable();
    let mut late = late;
    late.sort_unstable();
    prop_assert_eq!(logged_late, late);
    prop_assert_eq!(
        refused,
        providers.iter().map(|p| p.calls.refused).sum::<u64>()
    );
    Ok(())
}

/// With slots asked for at every job, plans are exact on a conservative provider.
fn check_fresh_information_is_exact(
    config: &GatewayConfig,
    r: &GridRun,
) -> Result<(), TestCaseError> {
    if config.policy == GatewayPolicy::EarliestStart(Information::Ask) {
        prop_assert_eq!(r.violations.count(), 0, "{:?}", r.violations.violations());
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(300))]

    #[test]
    fn gateway_invariants_hold((mut providers, jobs, config) in grid()) {
        let r = run(&config, &mut providers, &jobs).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_every_job_ends_once(&providers, &jobs, &r)?;
        check_messages_equal_calls(&providers, &r)?;
        check_violations(&providers, &jobs, &r, config.tolerance)?;
        check_fresh_information_is_exact(&config, &r)?;
    }
}
