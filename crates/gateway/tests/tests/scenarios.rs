//! Hand-checked runs of each gateway policy on `Twin` providers.

use gateway::{
    Fate, GatewayConfig, GatewayError, GatewayPolicy, Information, Message, ProvisioningViolation,
    Rejection, run,
};
use profile::{Job, Time};

use crate::twin::Twin;

fn job(id: u64, submit: i64, procs: u32, dur: i64) -> Job {
    Job::new(id, Time(submit), procs, dur, dur)
}

fn start_of(f: &Fate) -> Option<(usize, Time)> {
    match *f {
        Fate::Ran {
            provider, start, ..
        } => Some((provider, start)),
        Fate::Rejected { .. } => None,
    }
}

#[test]
fn least_load_follows_the_last_reports() {
    // Provider 0 is busy with a local job from 0 to 1000; provider 1 is idle.
    let mut providers = vec![
        Twin::new(8, vec![job(100, 0, 8, 1000)]),
        Twin::new(8, vec![]),
    ];
    // Job 1 arrives at 0, before... the report at 0 comes after the local
    // job started at 0: provider 1 is less loaded. Job 2 arrives at 700,
    // after the report at 600; provider 1 is busy with job 1 (0..900) and
    // provider 0 with its local job: both at 100%, ties go to provider 0.
    let grid = [job(1, 0, 8, 900), job(2, 700, 2, 10)];
    let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
    let r = run(&config, &mut providers, &grid).unwrap();
    assert_eq!(start_of(&r.fates[0]), Some((1, Time(0))));
    assert_eq!(start_of(&r.fates[1]), Some((0, Time(1000))));
    // Reports at 0 and 600 (timers stop at the last arrival, 700), two
    // providers each, plus two submissions.
    assert_eq!(r.messages.count(Message::UtilisationReport), 4);
    assert_eq!(r.messages.count(Message::JobSubmission), 2);
    assert_eq!(r.messages.total(), 6);
    assert_eq!(providers[0].utilisation_calls.get(), 2);
    // Least-load plans no start: no violation can be recorded.
    assert_eq!(r.violations.count(), 0);
}

#[test]
fn ask_plans_on_fresh_slots_and_is_never_late() {
    let mut providers = vec![
        Twin::new(8, vec![job(100, 0, 6, 500)]),
        Twin::new(4, vec![job(101, 0, 4, 100)]),
    ];
    let grid = [job(1, 10, 4, 50), job(2, 20, 2, 50), job(3, 30, 8, 10)];
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Ask));
    let r = run(&config, &mut providers, &grid).unwrap();
    // Job 1 (4 procs): provider 0 has 2 free until 500, provider 1 is free
    // from 100: provider 1 at 100. Job 2 (2 procs): provider 0 at once.
    // Job 3 (8 procs) fits only provider 0, after its local job: 500.
    assert_eq!(start_of(&r.fates[0]), Some((1, Time(100))));
    assert_eq!(start_of(&r.fates[1]), Some((0, Time(20))));
    assert_eq!(start_of(&r.fates[2]), Some((0, Time(500))));
    assert_eq!(r.violations.count(), 0);
    // Per job: a request and a reply per capable provider, and a submission.
    assert_eq!(r.messages.count(Message::SlotRequest), 2 + 2 + 1);
    assert_eq!(r.messages.count(Message::SlotReply), 5);
    assert_eq!(r.messages.count(Message::JobSubmission), 3);
}

#[test]
fn stale_slots_make_late_starts_beyond_the_tolerance_violations() {
    // One provider of 4. Slots published at 0 (all free). A local job takes
    // all 4 from 10 to 110. Grid jobs planned from the stale slots at 20,
    // 30 and 40 start at 110, 111... no: job 1 (4 procs) at 110; the
    // gateway booked it at 20 in its copy, so it planned job 2 (4 procs)
    // at 30 (after job 1's 10 s), job 3 at 40.
    let mut providers = vec![Twin::new(4, vec![job(100, 10, 4, 100)])];
    let grid = [job(1, 20, 4, 10), job(2, 30, 4, 10), job(3, 125, 4, 10)];
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Partial {
        interval: 100,
    }))
    .timers_until(Time(200));
    let r = run(&config, &mut providers, &grid).unwrap();
    assert_eq!(start_of(&r.fates[0]), Some((0, Time(110))));
    assert_eq!(start_of(&r.fates[1]), Some((0, Time(120))));
    // Job 3 is planned from the slots of 100 (free from 120 on... the
    // provider had jobs 1 and 2 reserved then): 130, and starts at 130.
    assert_eq!(start_of(&r.fates[2]), Some((0, Time(130))));
    let late: Vec<u64> = r
        .violations
        .violations()
        .iter()
        .map(ProvisioningViolation::job)
        .collect();
    assert_eq!(late, vec![1, 2], "90 s late each; job 3 on time");
    // Publications at 0, 100 and 200, and three submissions.
    assert_eq!(r.messages.count(Message::SlotPublication), 3);
    assert_eq!(r.messages.total(), 6);
}

#[test]
fn a_refused_reservation_is_a_violation_and_refreshes_the_slots() {
    // Slots published at 0 say all 4 free; a local job takes them over
    // [10, 110). A deadline job at 20 asks for 20..30: refused, the provider
    // refreshes its slots, the gateway asks again for 110..120 and commits.
    let mut providers = vec![Twin::new(4, vec![job(100, 10, 4, 100)])];
    let grid = [job(1, 20, 4, 10).with_deadline(Time(500))];
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Partial {
        interval: 1000,
    }));
    let r = run(&config, &mut providers, &grid).unwrap();
    match r.fates[0] {
        Fate::Ran {
            planned,
            reserved,
            start,
            ..
        } => {
            assert!(reserved);
            assert_eq!((planned, start), (Some(Time(110)), Time(110)));
        }
        ref other => panic!("{other:?}"),
    }
    assert_eq!(
        r.violations.violations(),
        &[ProvisioningViolation::ReservationRefused {
            job: 1,
            at: Time(20)
        }]
    );
    assert_eq!(r.messages.count(Message::ReservationRequest), 2);
    assert_eq!(r.messages.count(Message::ReservationReply), 2);
    assert_eq!(r.messages.count(Message::Commit), 1);
    // The periodic publication at 0 and the refresh after the refusal.
    assert_eq!(r.messages.count(Message::SlotPublication), 2);
    assert_eq!(providers[0].calls.refused, 1);
}

#[test]
fn jobs_that_cannot_run_are_rejected_with_a_reason() {
    let mut providers = vec![Twin::new(4, vec![job(100, 0, 4, 1000)])];
    let grid = [
        job(1, 5, 8, 10),                           // wider than any provider
        job(2, 6, 4, 100).with_deadline(Time(500)), // the slot after 1000 is too late
        job(3, 7, 2, 10),
    ];
    for policy in [
        GatewayPolicy::EarliestStart(Information::Ask),
        GatewayPolicy::EarliestStart(Information::Partial { interval: 60 }),
    ] {
        let mut ps = providers.clone();
        let r = run(&GatewayConfig::new(policy), &mut ps, &grid).unwrap();
        assert!(
            matches!(
                r.fates[0],
                Fate::Rejected {
                    reason: Rejection::TooWide,
                    ..
                }
            ),
            "{policy:?}"
        );
        assert!(
            matches!(
                r.fates[1],
                Fate::Rejected {
                    reason: Rejection::DeadlineUnreachable,
                    ..
                }
            ),
            "{policy:?}"
        );
        assert_eq!(start_of(&r.fates[2]), Some((0, Time(1000))));
    }
    let r = run(
        &GatewayConfig::new(GatewayPolicy::LeastLoaded),
        &mut providers,
        &grid[..1],
    )
    .unwrap();
    assert_eq!(
        r.fates[0],
        Fate::Rejected {
            reason: Rejection::TooWide,
            at: Time(5)
        }
    );
}

#[test]
fn bad_input_is_an_error() {
    let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
    let none: &mut [Twin] = &mut [];
    assert_eq!(run(&config, none, &[]), Err(GatewayError::NoProviders));
    let mut ps = vec![Twin::new(4, vec![])];
    assert_eq!(
        run(&config, &mut ps, &[job(1, 5, 1, 1), job(2, 4, 1, 1)]),
        Err(GatewayError::Unsorted { index: 1 })
    );
    assert_eq!(
        run(&config, &mut ps, &[job(1, 5, 1, 1), job(1, 6, 1, 1)]),
        Err(GatewayError::DuplicateId {
            id: 1,
            first: 0,
            second: 1
        })
    );
    let partial = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Partial {
        interval: 0,
    }));
    let err = run(&partial, &mut ps, &[]).unwrap_err();
    assert!(
        err.to_string().contains("publication interval is 0 s"),
        "{err}"
    );
}
