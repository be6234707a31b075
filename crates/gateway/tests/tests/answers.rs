//! Answers of a user's policy or provider that `run` cannot honour: a
//! [`Provisioning::choose`] naming a provider outside the candidates or a
//! start in the past, and a [`Provider::utilisation`] that is no share in
//! `[0, 1]`. Each ends the run with a typed error naming the trait's
//! method and the value, where once it was played out as a wrong schedule.

use gateway::{
    Candidate, Choice, GatewayConfig, GatewayError, GatewayPolicy, HoldId, Provider, Provisioning,
    Refusal, Rejection, Report, run,
};
use profile::{FreeSlot, Job, Time};

use crate::twin::Twin;

/// A policy that answers `answer(now)` for every job.
#[derive(Clone)]
struct Answers(fn(Time) -> Choice);

impl Provisioning for Answers {
    fn choose(&mut self, now: Time, _: &Job, _: &[Candidate<'_>]) -> Choice {
        (self.0)(now)
    }
}

fn jobs() -> Vec<Job> {
    vec![Job::new(1, Time(100), 2, 50, 50)]
}

fn run_with(answer: fn(Time) -> Choice) -> Result<gateway::GridRun, GatewayError> {
    let mut providers = vec![Twin::new(4, Vec::new()), Twin::new(1, Vec::new())];
    run(
        &GatewayConfig::new(Answers(answer)),
        &mut providers,
        &jobs(),
    )
}

/// A reserved start before now was sent to the provider, refused as past
/// (a violation charged to the provider) and asked again until the job was
/// rejected; a planned start before now made the job count as late.
#[test]
fn a_choice_in_the_past_is_refused() {
    let err = run_with(|now| Choice::Reserve {
        provider: 0,
        start: now - 1,
    })
    .unwrap_err();
    assert_eq!(
        err,
        GatewayError::ChoiceInThePast {
            job: 1,
            what: "Choice::Reserve start",
            at: Time(99),
            now: Time(100),
        }
    );
    assert_eq!(
        err.to_string(),
        "the provisioning policy (Provisioning::choose) answered a Choice::Reserve start of 99s \
         for grid job 1 at 100s, which is in the past; answer a start at or after now"
    );
    let err = run_with(|_| Choice::Submit {
        provider: 0,
        planned: Some(Time(-5)),
    })
    .unwrap_err();
    assert!(
        matches!(
            err,
            GatewayError::ChoiceInThePast {
                what: "Choice::Submit planned start",
                at: Time(-5),
                ..
            }
        ),
        "{err:?}"
    );
    // Now itself is a start the policy may answer.
    let ok = run_with(|now| Choice::Submit {
        provider: 0,
        planned: Some(now),
    })
    .unwrap();
    assert_eq!(ok.violations.count(), 0);
    run_with(|now| Choice::Reserve {
        provider: 0,
        start: now,
    })
    .unwrap();
}

/// A start from which the job would end after `Time::LATEST` (up to the
/// end of `i64`) is the policy's mistake, refused before any provider sees
/// it.
#[test]
fn a_choice_beyond_latest_is_refused() {
    for at in [Time::LATEST - 49, Time::LATEST, Time(i64::MAX - 100)] {
        let answer: fn(Time) -> Choice = match at {
            t if t == Time::LATEST - 49 => |_| Choice::Reserve {
                provider: 0,
                start: Time::LATEST - 49,
            },
            t if t == Time::LATEST => |_| Choice::Submit {
                provider: 0,
                planned: Some(Time::LATEST),
            },
            _ => |_| Choice::Reserve {
                provider: 0,
                start: Time(i64::MAX - 100),
            },
        };
        let err = run_with(answer).unwrap_err();
        assert!(
            matches!(err, GatewayError::ChoiceBeyondLatest { job: 1, at: a, .. } if a == at),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("after the latest instant"),
            "{err}"
        );
    }
}

/// A rejection whose reason is the gateway's own finding is refused (the
/// record would give a false reason); the policy's reasons are honoured.
#[test]
fn a_rejection_with_the_gateways_reason_is_refused() {
    let reasons: [fn(Time) -> Choice; 4] = [
        |_| Choice::Reject(Rejection::TooWide),
        |_| Choice::Reject(Rejection::RefusedTooOften),
        |_| Choice::Reject(Rejection::Refused("full".into())),
        |_| Choice::Reject(Rejection::NoInformation),
    ];
    for answer in reasons {
        let reason = match answer(Time(0)) {
            Choice::Reject(r) => r,
            _ => unreachable!(),
        };
        let err = run_with(answer).unwrap_err();
        assert_eq!(
            err,
            GatewayError::RejectReason {
                job: 1,
                reason: reason.clone()
            }
        );
        assert!(!reason.policy_may_answer());
    }
    assert_eq!(
        run_with(|_| Choice::Reject(Rejection::TooWide))
            .unwrap_err()
            .to_string(),
        "the provisioning policy (Provisioning::choose) rejected grid job 1 with \
         Rejection::TooWide (\"no provider has that many processors\"), a reason only the \
         gateway finds; reject with Rejection::DeadlineUnreachable or Rejection::Custom(your reason)"
    );
    let own: [fn(Time) -> Choice; 2] = [
        |_| Choice::Reject(Rejection::DeadlineUnreachable),
        |_| Choice::Reject(Rejection::Custom("too costly".into())),
    ];
    for answer in own {
        let Choice::Reject(want) = answer(Time(0)) else {
            unreachable!()
        };
        let done = run_with(answer).unwrap();
        let fates: Vec<_> = done.fates.iter().collect();
        assert_eq!(fates.len(), 1, "{fates:?}");
        assert!(
            matches!(fates[0], gateway::Fate::Rejected { reason, .. } if *reason == want),
            "{fates:?}"
        );
    }
    assert_eq!(
        Rejection::Custom("too costly".into()).to_string(),
        "rejected by the provisioning policy: too costly"
    );
}

/// A provider index outside the candidates: none such, or too narrow.
#[test]
fn a_choice_outside_the_candidates_is_refused() {
    for provider in [1, 2, usize::MAX] {
        let mut providers = vec![Twin::new(4, Vec::new()), Twin::new(1, Vec::new())];
        let config = GatewayConfig::new(Answers(match provider {
            1 => |_| Choice::Submit {
                provider: 1,
                planned: None,
            },
            2 => |_| Choice::Submit {
                provider: 2,
                planned: None,
            },
            _ => |now| Choice::Reserve {
                provider: usize::MAX,
                start: now,
            },
        }));
        let err = run(&config, &mut providers, &jobs()).unwrap_err();
        assert_eq!(err, GatewayError::Choice { job: 1, provider });
        assert!(err.to_string().contains("Provisioning::choose"), "{err}");
    }
}

/// A provider whose utilisation is `self.1`.
struct Reports(Twin, f64);

impl Provider for Reports {
    fn capacity(&self) -> u32 {
        self.0.capacity()
    }
    fn utilisation(&self, _: Time) -> f64 {
        self.1
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.0.free_slots(now, horizon)
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        self.0.submit(now, job)
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        self.0.request_reservation(now, job, start)
    }
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.0.commit(now, hold)
    }
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.0.abort(now, hold)
    }
    fn next_event(&self) -> Option<Time> {
        self.0.next_event()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        self.0.advance(now, reports);
    }
}

/// A NaN utilisation made least-load send every job to whichever provider
/// came first; a negative one drew every job to that provider.
#[test]
fn a_utilisation_outside_0_to_1_is_refused() {
    let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
    for value in [f64::NAN, -0.5, 1.5, f64::INFINITY] {
        let mut providers = vec![
            Reports(Twin::new(4, Vec::new()), 0.25),
            Reports(Twin::new(4, Vec::new()), value),
        ];
        let err = run(&config, &mut providers, &jobs()).unwrap_err();
        match err {
            GatewayError::Utilisation {
                provider: 1,
                now: Time(0),
                value: v,
            } => assert!(v.to_bits() == value.to_bits()),
            _ => panic!("{err:?}"),
        }
        assert!(err.to_string().starts_with(&format!(
            "provider 1 (Provider::utilisation) reported a utilisation of {value} at 0s"
        )));
    }
    for value in [0.0, 1.0] {
        let mut providers = vec![Reports(Twin::new(4, Vec::new()), value)];
        run(&config, &mut providers, &jobs()).unwrap();
    }
}
