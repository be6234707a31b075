//! The stepping API: an agent deciding as a built-in policy does gets that
//! policy's schedule exactly, on the same event loop.

use proptest::prelude::*;

use profile::testing::Suite;

use profile::testing::{easy_decision, fcfs_decision};
use profile::{Context, Outcome, Policy, SimError, Stepper, simulate};

fn stepped(
    config: &profile::SchedulerConfig,
    jobs: &[profile::Job],
    decide: fn(&mut Context<'_>) -> Result<(), SimError>,
) -> Result<Vec<Outcome>, SimError> {
    let mut sim = Stepper::new(config, jobs.to_vec())?;
    while let Some(ctx) = sim.next_decision()? {
        decide(ctx)?;
    }
    assert!(sim.is_done());
    sim.into_outcomes()
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(800))]

    #[test]
    fn an_agent_deciding_as_easy_gets_easys_schedule((mut config, jobs) in Suite::new(0).cases()) {
        config.policy = Policy::EASY;
        prop_assert_eq!(stepped(&config, &jobs, easy_decision), simulate(&config, &jobs));
    }

    #[test]
    fn an_agent_deciding_as_fcfs_gets_fcfss_schedule((mut config, jobs) in Suite::new(0).cases()) {
        config.policy = Policy::Fcfs;
        prop_assert_eq!(stepped(&config, &jobs, fcfs_decision), simulate(&config, &jobs));
    }
}

#[test]
fn outcomes_are_visible_as_they_are_decided() {
    use profile::{Job, SchedulerConfig, Time};
    let jobs = vec![
        Job::new(7, Time(0), 2, 10, 4),
        Job::new(8, Time(1), 2, 5, 5),
    ];
    let mut sim = Stepper::new(&SchedulerConfig::new(2, Policy::Fcfs), jobs).unwrap();
    let ctx = sim.next_decision().unwrap().expect("the first arrival");
    assert_eq!(
        (ctx.now(), ctx.event()),
        (Time(0), profile::Event::Submitted)
    );
    ctx.start(0).unwrap();
    assert_eq!(sim.outcomes()[0].map(|o| o.end), Some(Time(4)));
    assert!(sim.outcomes()[1].is_none());
    let ctx = sim.next_decision().unwrap().expect("the second arrival");
    assert_eq!(ctx.running().count(), 1);
    assert!(matches!(ctx.start(0), Err(SimError::NoRoom { id: 8, .. })));
    assert!(matches!(
        ctx.start(5),
        Err(SimError::NotWaiting {
            position: 5,
            waiting: 1
        })
    ));
    let ctx = sim.next_decision().unwrap().expect("the first end");
    assert_eq!(ctx.event(), profile::Event::Ended);
    ctx.start(0).unwrap();
    let out = sim.into_outcomes().unwrap();
    assert_eq!((out[1].start, out[1].end), (Time(4), Time(9)));
}
