//! The schedule check every cluster passes before its numbers count.

use intergrid::{Violation, validate};
use partitions_forecast::{JobRecord, Origin};
use profile::Time;

fn record(id: u64, procs: u32, start: Option<i64>, end: Option<i64>) -> JobRecord {
    JobRecord {
        id,
        origin: Origin::Local,
        partition: 0,
        submit: Time(0),
        procs,
        estimate: 100,
        run_time: 100,
        reserved_start: None,
        start: start.map(Time),
        end: end.map(Time),
    }
}

fn check(capacity: u32, records: &[JobRecord], expected: Result<(), Violation>) {
    assert_eq!(validate(capacity, records), expected, "{records:?}");
}

#[test]
fn good_schedules_pass_and_broken_ones_say_why() {
    let a = record(1, 4, Some(0), Some(100));
    let b = record(2, 4, Some(0), Some(100));
    check(8, &[a.clone(), b.clone()], Ok(()));
    // Back to back on the whole machine.
    let c = record(3, 8, Some(100), Some(200));
    check(8, &[a.clone(), b.clone(), c], Ok(()));
    check(
        8,
        &[a.clone(), record(4, 4, Some(0), None)],
        Err(Violation::NeverRan {
            origin: Origin::Local,
            job: 4,
        }),
    );
    let moved = JobRecord {
        origin: Origin::Grid,
        reserved_start: Some(Time(50)),
        ..record(5, 2, Some(60), Some(160))
    };
    check(
        8,
        &[moved],
        Err(Violation::ReservationMoved {
            job: 5,
            reserved: Time(50),
            start: Time(60),
        }),
    );
    let over = validate(6, &[a, b]).unwrap_err();
    assert!(
        matches!(
            over,
            Violation::Invalid {
                violation: profile::Violation::OverCapacity { capacity: 6, .. }
            }
        ),
        "{over:?}"
    );
    // A job cut short without being killed at its estimate.
    let short = record(6, 1, Some(0), Some(50));
    assert!(matches!(
        validate(8, &[short]),
        Err(Violation::Invalid {
            violation: profile::Violation::WrongDuration { id: 6, .. }
        })
    ));
    let never = Violation::NeverRan {
        origin: Origin::Grid,
        job: 9,
    };
    assert_eq!(never.to_string(), "grid job 9 never ran");
}
