//! Reports a provider makes up: `run` checks every `Report::Started` and
//! `Report::Ended` against its own record and refuses an impossible one
//! with `GatewayError::Report`, naming the provider, the job and what is
//! impossible. Data-driven: `check(scripts, expected)` runs two scripted
//! providers (provider 0 gets every job) over the same three grid jobs.

use gateway::{
    Fate, GatewayConfig, GatewayError, GatewayPolicy, Provider, Refusal, Report, ReportProblem, run,
};
use profile::{FreeSlot, Job, Time};

/// A provider that replays a script of `(when, report)`: each report is
/// appended when the provider is advanced to `when`, whatever it was given.
struct Scripted {
    utilisation: f64,
    script: Vec<(i64, Report)>,
    next: usize,
}

impl Provider for Scripted {
    fn capacity(&self) -> u32 {
        4
    }
    fn utilisation(&self, _: Time) -> f64 {
        self.utilisation
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        vec![FreeSlot {
            start: now,
            end: horizon,
            procs: 4,
        }]
    }
    fn submit(&mut self, _: Time, _: Job) -> Result<(), Refusal> {
        Ok(())
    }
    crate::no_reservations!("no reservations");
    fn next_event(&self) -> Option<Time> {
        self.script.get(self.next).map(|&(t, _)| Time(t))
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        while let Some((t, report)) = self.script.get(self.next)
            && Time(*t) <= now
        {
            reports.push(report.clone());
            self.next += 1;
        }
    }
}

fn started(job: u64, at: i64) -> Report {
    Report::Started { job, at: Time(at) }
}

fn ended(job: u64, at: i64) -> Report {
    Report::Ended { job, at: Time(at) }
}

/// Job 1 arrives at 0, job 2 at 10 (both to provider 0, the less loaded);
/// job 3 is too wide for any provider, so it is never handed over.
fn jobs() -> Vec<Job> {
    vec![
        Job::new(1, Time(0), 2, 60, 60),
        Job::new(2, Time(10), 2, 60, 60),
        Job::new(3, Time(20), 8, 60, 60),
    ]
}

/// What provider 0 truly does: job 1 runs 0..60, job 2 runs 10..70,
/// reported late (when each ends), as a lazy provider may.
fn honest() -> Vec<(i64, Report)> {
    vec![
        (60, started(1, 0)),
        (60, ended(1, 60)),
        (70, started(2, 10)),
        (70, ended(2, 70)),
    ]
}

fn play(zero: Vec<(i64, Report)>, one: Vec<(i64, Report)>) -> Result<Vec<Fate>, GatewayError> {
    let mut providers = [
        Scripted {
            utilisation: 0.0,
            script: zero,
            next: 0,
        },
        Scripted {
            utilisation: 1.0,
            script: one,
            next: 0,
        },
    ];
    let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
    run(&config, &mut providers, &jobs()).map(|r| r.fates)
}

/// Runs the scripts and expects the run to stop with a report error.
#[track_caller]
fn check(
    zero: Vec<(i64, Report)>,
    one: Vec<(i64, Report)>,
    (provider, job, is_start, at, now): (usize, u64, bool, i64, i64),
    problem: ReportProblem,
) {
    let expected = GatewayError::Report {
        provider,
        job,
        started: is_start,
        at: Time(at),
        now: Time(now),
        problem,
    };
    assert_eq!(play(zero, one), Err(expected));
}

#[test]
fn honest_reports_give_the_fates_they_report() {
    let fates = play(honest(), vec![]).unwrap();
    let ran = |placed, start, end| Fate::Ran {
        provider: 0,
        placed: Time(placed),
        planned: None,
        reserved: false,
        start: Time(start),
        end: Time(end),
    };
    assert_eq!(fates[..2], [ran(0, 0, 60), ran(10, 10, 70)]);
    assert!(matches!(fates[2], Fate::Rejected { .. }));
}

/// The audit's reproducer: a provider that never got job 1 reports it
/// started at 50 and ended at -7. It was credited to provider 0 as
/// `Ran { start: 50, end: -7 }`.
#[test]
fn a_report_from_a_provider_that_never_got_the_job_is_an_error() {
    let one = vec![(50, started(1, 50)), (50, ended(1, -7))];
    check(
        honest(),
        one,
        (1, 1, true, 50, 50),
        ReportProblem::NotSent { sent_to: Some(0) },
    );
    let err = play(honest(), vec![(50, started(1, 50))]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "provider 1 reported grid job 1 started at 50s (gateway clock 50s), which is \
         impossible: the job was handed to provider 0, not to this one; the provider's \
         reports are faulty"
    );
}

#[test]
fn impossible_orders_and_times_are_errors() {
    // An end with no start.
    check(
        vec![(30, ended(1, 30))],
        vec![],
        (0, 1, false, 30, 30),
        ReportProblem::EndWithoutStart,
    );
    // An end before the start.
    check(
        vec![(60, started(1, 50)), (60, ended(1, -7))],
        vec![],
        (0, 1, false, -7, 60),
        ReportProblem::EndBeforeStart { start: Time(50) },
    );
    // Two starts, two ends.
    check(
        vec![(5, started(1, 0)), (6, started(1, 6))],
        vec![],
        (0, 1, true, 6, 6),
        ReportProblem::AlreadyStarted { first: Time(0) },
    );
    check(
        vec![(60, started(1, 0)), (60, ended(1, 60)), (61, ended(1, 61))],
        vec![],
        (0, 1, false, 61, 61),
        ReportProblem::AlreadyEnded { first: Time(60) },
    );
    // A second start after the end.
    check(
        vec![
            (60, started(1, 0)),
            (60, ended(1, 60)),
            (61, started(1, 61)),
        ],
        vec![],
        (0, 1, true, 61, 61),
        ReportProblem::AlreadyStarted { first: Time(0) },
    );
    // Job 2 is handed over at 10: a start at 5 is before that.
    check(
        vec![(20, started(2, 5))],
        vec![],
        (0, 2, true, 5, 20),
        ReportProblem::BeforeHandOver { placed: Time(10) },
    );
    // An instant after the clock the provider was advanced to.
    check(
        vec![(5, started(1, 100))],
        vec![],
        (0, 1, true, 100, 5),
        ReportProblem::InTheFuture,
    );
    check(
        vec![(5, started(1, 0)), (6, ended(1, 600))],
        vec![],
        (0, 1, false, 600, 6),
        ReportProblem::InTheFuture,
    );
}

#[test]
fn reports_of_jobs_never_handed_over_are_errors() {
    // Job 3 is too wide: rejected, handed to no provider.
    check(
        vec![(30, started(3, 30))],
        vec![],
        (0, 3, true, 30, 30),
        ReportProblem::NotSent { sent_to: None },
    );
    // No grid job has id 99 (a provider reports only grid jobs).
    check(
        vec![(30, ended(99, 30))],
        vec![],
        (0, 99, false, 30, 30),
        ReportProblem::UnknownJob,
    );
    // Job 2 reported by provider 0 before the gateway handed it over.
    check(
        vec![(5, started(2, 5))],
        vec![],
        (0, 2, true, 5, 5),
        ReportProblem::NotSent { sent_to: None },
    );
}

/// The class: an end that is not the start plus the run time (or the
/// estimate, where the job is killed) is refused, early or late.
#[test]
fn an_end_other_than_start_plus_run_time_is_an_error() {
    for at in [59, 61] {
        check(
            vec![(70, started(1, 0)), (70, ended(1, at))],
            vec![],
            (0, 1, false, at, 70),
            ReportProblem::WrongEnd {
                start: Time(0),
                expected: Time(60),
            },
        );
    }
    let err = play(vec![(70, started(1, 5)), (70, ended(1, 70))], vec![]).unwrap_err();
    assert!(
        err.to_string()
            .contains("it started at 5s, so it ends at 65s"),
        "{err}"
    );
}

/// A job that outlives its estimate is killed there: its end is the start
/// plus the estimate, and the start plus the run time is refused.
#[test]
fn a_job_past_its_estimate_ends_at_the_kill() {
    let jobs = [Job::new(1, Time(0), 2, 60, 100)];
    let play_one = |script: Vec<(i64, Report)>| {
        let mut providers = [Scripted {
            utilisation: 0.0,
            script,
            next: 0,
        }];
        let config = GatewayConfig::new(GatewayPolicy::LeastLoaded);
        run(&config, &mut providers, &jobs).map(|r| r.fates)
    };
    let fates = play_one(vec![(60, started(1, 0)), (60, ended(1, 60))]).unwrap();
    assert!(matches!(fates[0], Fate::Ran { end: Time(60), .. }));
    let err = play_one(vec![(100, started(1, 0)), (100, ended(1, 100))]).unwrap_err();
    assert!(matches!(
        err,
        GatewayError::Report {
            problem: ReportProblem::WrongEnd {
                expected: Time(60),
                ..
            },
            ..
        }
    ));
}
