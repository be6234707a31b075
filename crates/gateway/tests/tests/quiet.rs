//! A provider that keeps giving itself events without starting or ending
//! what it took cannot keep a run from ending: after `MAX_QUIET_TURNS`
//! turns of providers' own events in a row, `run` names the job it took
//! (`Stuck`), or, holding none, ends with `Quiet`. Found by an outside
//! client driving the public API.

use gateway::{
    GatewayConfig, GatewayError, GatewayPolicy, Information, MAX_QUIET_TURNS, Provider, Refusal,
    Report, run,
};
use profile::{FreeSlot, Job, Time};

/// Takes every job, never starts one, and wants to be advanced a second
/// after every call (from the start, if `ticking`).
struct Ticking {
    now: Time,
    ticking: bool,
}

impl Provider for Ticking {
    fn capacity(&self) -> u32 {
        8
    }
    fn utilisation(&self, _: Time) -> f64 {
        0.0
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        vec![FreeSlot {
            start: now,
            end: horizon,
            procs: 8,
        }]
    }
    fn submit(&mut self, now: Time, _: Job) -> Result<(), Refusal> {
        self.now = now;
        self.ticking = true;
        Ok(())
    }
    crate::no_reservations!("no reservations");
    fn next_event(&self) -> Option<Time> {
        self.ticking.then_some(self.now + 1)
    }
    fn advance(&mut self, now: Time, _: &mut Vec<Report>) {
        self.now = now;
    }
}

#[test]
fn a_provider_ticking_on_a_job_it_never_starts_is_named() {
    let jobs = vec![Job::new(1, Time(0), 1, 60, 60)];
    let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
    let mut providers = [Ticking {
        now: Time(0),
        ticking: false,
    }];
    let r = run(&config, &mut providers, &jobs);
    assert_eq!(
        r,
        Err(GatewayError::Stuck {
            job: 1,
            provider: 0
        })
    );
}

#[test]
fn a_provider_ticking_with_nothing_to_do_ends_the_run() {
    // The only grid job comes long after the provider starts ticking, and
    // the policy has no timer (it asks for slots when a job comes).
    let jobs = vec![Job::new(1, Time(1 << 32), 1, 60, 60)];
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Ask));
    let mut providers = [Ticking {
        now: Time(0),
        ticking: true,
    }];
    let r = run(&config, &mut providers, &jobs);
    let last = Time(MAX_QUIET_TURNS as i64 + 1);
    assert_eq!(
        r,
        Err(GatewayError::Quiet {
            provider: 0,
            now: last
        })
    );
    let message = r.unwrap_err().to_string();
    assert!(
        message.contains("more than 10000000 times in a row"),
        "{message}"
    );
}

/// The provider suite names such a provider as breaking its contract, and
/// ends (it used to step one second at a time towards the end of `i64`).
#[test]
fn the_provider_suite_names_a_provider_that_ticks_on_a_job() {
    let jobs = vec![Job::new(1, Time(0), 1, 60, 60)];
    let broken = gateway::testing::check_provider(
        |_| Ticking {
            now: Time(0),
            ticking: false,
        },
        &jobs,
    )
    .unwrap_err();
    assert_eq!(
        broken.invariant,
        gateway::testing::invariant::KEEPS_THE_CONTRACT
    );
    assert!(
        broken.detail.contains("accepted job 1 but never ran it"),
        "{broken}"
    );
}
