//! Algorithm 1 step by step: getFreeTimeSlots and reallocationEvent on a
//! 10-processor ArEbMf cluster whose forecast is the last observed load
//! (window 2, smoothing 1), so every number can be checked by hand.

use partitions_forecast::{
    Cluster, ForecastConfig, LoadMeasure, Notice, Origin, ProviderPolicy, ShareFrom, UNLIMITED,
};
use profile::{FreeSlot, Job, Time};

fn config(share_from: ShareFrom, train_from: i64) -> ForecastConfig {
    ForecastConfig {
        window: 2,
        smoothing: Some(1.0),
        interval: 100,
        checks: 1,
        train_from: Time(train_from),
        share_from,
        load: LoadMeasure::Utilisation,
    }
}

fn cluster(fc: &ForecastConfig) -> Cluster {
    Cluster::new(ProviderPolicy::ArEbMf.config(10, fc), Time(0)).unwrap()
}

fn local(id: u64, submit: i64, procs: u32, dur: i64) -> Job {
    Job::new(id, Time(submit), procs, dur, dur)
}

fn sizes(c: &Cluster) -> Vec<u32> {
    c.partitions().iter().map(|p| p.size).collect()
}

fn pivots(c: &Cluster) -> Vec<u32> {
    c.partitions().iter().map(|p| p.pivots).collect()
}

#[test]
fn get_free_time_slots_and_reallocation_event_by_hand() {
    let fc = config(ShareFrom::Forecast, 0);
    let mut c = cluster(&fc);
    c.submit(Time(0), local(1, 0, 6, 200), Origin::Local)
        .unwrap();

    // t = 0: nothing observed yet, so the forecast is the local load now
    // (6 of 10 busy): the grid is offered 40%, and the slots (4 free until
    // 200, 10 from 200) keep 40% of their processors.
    let slots = c
        .publish(Time(0), Time::MAX)
        .unwrap()
        .expect("a positive share is published");
    assert_eq!(c.forecast(), Some(0.6));
    assert_eq!(sizes(&c), vec![6, 4]);
    assert_eq!(
        slots,
        vec![
            FreeSlot {
                start: Time(0),
                end: Time::MAX,
                procs: 1
            },
            FreeSlot {
                start: Time(200),
                end: Time::MAX,
                procs: 4
            },
        ]
    );
    // The check at 50 finds the local load (0.6) not above the forecast.
    c.advance(Time(99)).unwrap();
    assert!(c.take_notices().is_empty());
    assert_eq!(pivots(&c), vec![1, 1]);

    // t = 100: the interval's local load was 0.6, the forecast stays 0.6.
    assert!(c.publish(Time(100), Time::MAX).unwrap().is_some());
    assert_eq!(c.forecast(), Some(0.6));
    // A local job of 4 borrows the grid partition's idle processors.
    c.submit(Time(100), local(2, 100, 4, 100), Origin::Local)
        .unwrap();
    assert_eq!(c.records()[1].start, Some(Time(100)));

    // The check at 150 sees a local load of 1.0 since the resize at 100:
    // an under-estimation. The local partition grows to all 10 processors,
    // both partitions turn conservative, and the slots are published.
    c.advance(Time(150)).unwrap();
    assert_eq!(sizes(&c), vec![10, 0]);
    assert_eq!(pivots(&c), vec![UNLIMITED, UNLIMITED]);
    let notices = c.take_notices();
    assert_eq!(
        notices,
        vec![Notice::Published {
            at: Time(150),
            slots: vec![FreeSlot {
                start: Time(200),
                end: Time::MAX,
                procs: 10
            }],
        }]
    );

    // t = 200: back to one pivot each (line 5); the interval's load was
    // 1.0, so nothing is offered and nothing is published (line 11).
    assert_eq!(c.publish(Time(200), Time::MAX).unwrap(), None);
    assert_eq!(c.forecast(), Some(1.0));
    assert_eq!(pivots(&c), vec![1, 1]);
    assert_eq!(sizes(&c), vec![10, 0]);
    // No check is scheduled in an interval where nothing was offered.
    assert_eq!(c.next_event(), None);
}

#[test]
fn loads_before_the_training_period_are_not_observed() {
    let fc = config(ShareFrom::Forecast, 150);
    let mut c = cluster(&fc);
    c.submit(Time(0), local(1, 0, 10, 100), Origin::Local)
        .unwrap();
    c.publish(Time(0), Time::MAX).unwrap();
    assert_eq!(c.forecast(), Some(1.0), "falls back to the load now");
    // At 100 the job has ended: the interval [0, 100) is not observed
    // (training starts at 150), so the forecast falls back to the load now.
    c.publish(Time(100), Time::MAX).unwrap();
    assert_eq!(c.forecast(), Some(0.0));
    c.publish(Time(200), Time::MAX).unwrap();
    assert_eq!(c.forecast(), Some(0.0), "[100, 200) starts before 150");
    c.submit(Time(200), local(2, 200, 5, 100), Origin::Local)
        .unwrap();
    c.publish(Time(300), Time::MAX).unwrap();
    assert_eq!(c.forecast(), Some(0.5), "[200, 300) is observed");
}

#[test]
fn line_8_as_printed_uses_the_actual_load_of_waiting_and_running_jobs() {
    let fc = config(ShareFrom::Actual, 0);
    let mut c = cluster(&fc);
    c.submit(Time(0), local(1, 0, 6, 200), Origin::Local)
        .unwrap();
    // Running and waiting jobs of both origins count.
    c.submit(Time(0), local(2, 0, 2, 200), Origin::Grid)
        .unwrap();
    let slots = c.publish(Time(0), Time::MAX).unwrap().unwrap();
    // actualLoad = 8/10: 20% offered, the grid partition is 2, and of the
    // slots (2 free until 200, 10 from 200) only 20% of the second is left.
    assert_eq!(sizes(&c), vec![8, 2]);
    assert_eq!(
        slots,
        vec![FreeSlot {
            start: Time(200),
            end: Time::MAX,
            procs: 2
        }]
    );
}
