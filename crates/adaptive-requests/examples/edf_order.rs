//! A request order of one's own: Earliest Deadline First.
//!
//! Like MDF, every arrival places the waiting requests again, but in the
//! order of their absolute deadlines alone (MDF subtracts the run time).
//! The scheduler does the rest (placement, deadlines, budgets, prices), and
//! `validate` checks the schedule as it checks the built-in orders'.
//!
//! Run with `cargo run -p usched-adaptive-requests --example edf_order`.

use adaptive_requests::{
    Fifo, Mdf, Moldability, Req, ReqError, Request, RequestOrder, SchedulerConfig, schedule,
    validate,
};
use profile::Time;

/// Earliest Deadline First.
#[derive(Copy, Clone, Debug)]
struct Edf;

impl RequestOrder for Edf {
    fn reschedules(&self) -> bool {
        true
    }

    fn rank<F: Moldability>(&self, _id: u64, submit: Time, req: &Req<F>) -> i64 {
        submit.saturating_add(req.deadline()).secs()
    }
}

/// A rigid request: `procs` processors for `secs` seconds, due `deadline`
/// seconds after submission, with a generous budget.
fn rigid(procs: u32, secs: i64, deadline: i64) -> Result<Req<impl Moldability + Clone>, ReqError> {
    Req::new(procs, procs, move |_| Some(secs), deadline, 1e6, None)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let requests = vec![
        // Runs at once, 0..3600.
        Request {
            id: 1,
            submit: Time(0),
            req: rigid(16, 3600, 36_000)?,
        },
        // Waits for request 1: 3600..7200, with hours to spare.
        Request {
            id: 2,
            submit: Time(10),
            req: rigid(16, 3600, 36_000)?,
        },
        // Due at 7220: it makes it only if request 2 steps back.
        Request {
            id: 3,
            submit: Time(20),
            req: rigid(16, 1800, 7200)?,
        },
    ];

    let edf = SchedulerConfig::new(16, Edf);
    let outcomes = schedule(edf, &requests)?;
    validate(&edf, &requests, &outcomes)?;
    let completion = |i: usize| outcomes[i].placement.as_ref().map(|p| p.completion());
    assert_eq!(completion(2), Some(Time(5400)));
    assert_eq!(completion(1), Some(Time(9000)));

    // FIFO never moves request 2, so request 3 cannot meet its deadline.
    let fifo = SchedulerConfig::new(16, Fifo);
    let fifo_outcomes = schedule(fifo, &requests)?;
    validate(&fifo, &requests, &fifo_outcomes)?;
    assert!(fifo_outcomes[2].placement.is_none());

    // On these requests MDF's slack order is EDF's order: the same schedule.
    assert_eq!(
        schedule(SchedulerConfig::new(16, Mdf), &requests)?,
        outcomes
    );

    println!("EDF accepted all 3 requests; FIFO rejected request 3");
    Ok(())
}
