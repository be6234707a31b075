//! The schedule validator every crate's tests can call.

use std::fmt;

use crate::{Job, JobError, Outcome, Overrun, SchedulerConfig, Status, Time};

/// A way a schedule breaks the rules of a space-shared machine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// The numbers of jobs and outcomes differ.
    Length {
        /// Jobs given.
        jobs: usize,
        /// Outcomes given.
        outcomes: usize,
    },
    /// A job lies outside the model's domain (see [`Job::check`]).
    InvalidJob {
        /// Position.
        index: usize,
        /// What is wrong, with the job's id and the field.
        error: JobError,
    },
    /// Two jobs carry the same id: outcomes are matched to jobs by id (see
    /// [`Violation::WrongId`]), so with a repeated id two jobs' outcomes
    /// could be swapped unseen, and a report by id would be ambiguous.
    DuplicateId {
        /// The id both carry.
        id: u64,
        /// Position of the first job with it.
        first: usize,
        /// Position of the second job with it.
        second: usize,
    },
    /// A job asks for more processors than the machine has: no schedule
    /// can hold it, whether it runs, runs 0 s or is dropped.
    TooWide {
        /// Position.
        index: usize,
        /// The job's id.
        id: u64,
        /// Processors it asks for.
        procs: u32,
        /// Machine size.
        capacity: u32,
    },
    /// An outcome's start or end lies outside the instants a schedule can
    /// hold, `[-LIMIT, LATEST]` ([`Time::LIMIT`], [`Time::LATEST`]).
    TimeOutOfRange {
        /// The job's id.
        id: u64,
        /// Its start.
        start: Time,
        /// Its end.
        end: Time,
    },
    /// An outcome's id differs from its job's.
    WrongId {
        /// Position.
        index: usize,
    },
    /// A job started before it was submitted.
    EarlyStart {
        /// The job's id.
        id: u64,
        /// Its submit time.
        submit: Time,
        /// Its start.
        start: Time,
    },
    /// A job ran for a time that is neither its run time nor, if killed, its estimate.
    WrongDuration {
        /// The job's id.
        id: u64,
        /// Seconds it ran.
        ran: i64,
        /// Its run time.
        run_time: i64,
        /// Its estimate.
        estimate: i64,
        /// Its reported status.
        status: Status,
    },
    /// A job's status is not one the run's configuration allows (see
    /// [`validate_under`]).
    Status {
        /// The job's id.
        id: u64,
        /// Its reported status.
        status: Status,
        /// The rule it breaks.
        rule: String,
    },
    /// More processors were busy than the machine has.
    OverCapacity {
        /// When it happened.
        at: Time,
        /// Processors busy.
        busy: u64,
        /// Machine size.
        capacity: u32,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Length { jobs, outcomes } => {
                write!(
                    f,
                    "{jobs} jobs but {outcomes} outcomes; give one outcome per job"
                )
            }
            Violation::InvalidJob { index, error } => write!(f, "position {index}: {error}"),
            Violation::DuplicateId { id, first, second } => write!(
                f,
                "jobs at positions {first} and {second} both have id {id}; give every job its own id"
            ),
            Violation::TooWide {
                index,
                id,
                procs,
                capacity,
            } => write!(
                f,
                "job {id} (position {index}) asks for {procs} processors but the machine has {capacity}; no schedule can hold it"
            ),
            Violation::TimeOutOfRange { id, start, end } => write!(
                f,
                "job {id} runs from {start} to {end}, outside the instants a schedule can hold ([{}, {}])",
                Time(-Time::LIMIT.secs()),
                Time::LATEST
            ),
            Violation::WrongId { index } => {
                write!(
                    f,
                    "outcome {index} belongs to another job; keep outcomes in job order"
                )
            }
            Violation::EarlyStart { id, submit, start } => {
                write!(
                    f,
                    "job {id} starts at {start}, before its submission at {submit}"
                )
            }
            Violation::WrongDuration {
                id,
                ran,
                run_time,
                estimate,
                status,
            } => write!(
                f,
                "job {id} ran {ran} s with status {status:?}, but its run time is {run_time} s and its estimate {estimate} s"
            ),
            Violation::Status { id, status, rule } => {
                write!(f, "job {id} is {status:?}, but {rule}")
            }
            Violation::OverCapacity { at, busy, capacity } => {
                write!(
                    f,
                    "{busy} processors busy at {at} on a machine of {capacity}"
                )
            }
        }
    }
}

impl std::error::Error for Violation {}

impl Violation {
    /// The same violation with every job id it names replaced by `f(id)`.
    ///
    /// For a schedule whose entries may share an id by design (the parts of
    /// one request, jobs of two origins on one machine), which [`validate`]
    /// refuses ([`Violation::DuplicateId`]): validate the entries under
    /// their positions as ids, then name the job again with
    /// `map_ids(|position| own_id_of(position))`. The id inside
    /// [`Violation::InvalidJob`]'s [`JobError`] is kept (check each entry
    /// with [`Job::check`] first where that matters).
    pub fn map_ids(self, f: impl Fn(u64) -> u64) -> Violation {
        match self {
            Violation::DuplicateId { id, first, second } => Violation::DuplicateId {
                id: f(id),
                first,
                second,
            },
            Violation::TooWide {
                index,
                id,
                procs,
                capacity,
            } => Violation::TooWide {
                index,
                id: f(id),
                procs,
                capacity,
            },
            Violation::TimeOutOfRange { id, start, end } => Violation::TimeOutOfRange {
                id: f(id),
                start,
                end,
            },
            Violation::EarlyStart { id, submit, start } => Violation::EarlyStart {
                id: f(id),
                submit,
                start,
            },
            Violation::WrongDuration {
                id,
                ran,
                run_time,
                estimate,
                status,
            } => Violation::WrongDuration {
                id: f(id),
                ran,
                run_time,
                estimate,
                status,
            },
            Violation::Status { id, status, rule } => Violation::Status {
                id: f(id),
                status,
                rule,
            },
            other @ (Violation::Length { .. }
            | Violation::InvalidJob { .. }
            | Violation::WrongId { .. }
            | Violation::OverCapacity { .. }) => other,
        }
    }
}

/// Checks a schedule: no job is wider than the machine, capacity is never
/// exceeded, no job starts before it is submitted, and every job that ran either ran its full run time
/// ([`Status::Completed`]) or was killed at its estimate ([`Status::Killed`],
/// only when the run time exceeds the estimate). Dropped jobs use no capacity.
///
/// Every job must pass [`Job::check`] and every start and end must lie in
/// `[-LIMIT, LATEST]`; `end = start + run time` is checked exactly, without
/// wrapping. Ids are distinct ([`Violation::DuplicateId`], naming the id
/// and both positions, checked after each job's own checks); for entries
/// that share an id by design see [`Violation::map_ids`]. No input panics.
pub fn validate(capacity: u32, jobs: &[Job], outcomes: &[Outcome]) -> Result<(), Violation> {
    if jobs.len() != outcomes.len() {
        return Err(Violation::Length {
            jobs: jobs.len(),
            outcomes: outcomes.len(),
        });
    }
    let mut deltas: Vec<(Time, i64)> = Vec::with_capacity(2 * jobs.len());
    for (index, (job, out)) in jobs.iter().zip(outcomes).enumerate() {
        job.check()
            .map_err(|error| Violation::InvalidJob { index, error })?;
        if job.procs > capacity {
            return Err(Violation::TooWide {
                index,
                id: job.id,
                procs: job.procs,
                capacity,
            });
        }
        if job.id != out.id {
            return Err(Violation::WrongId { index });
        }
        if out.start < job.submit {
            return Err(Violation::EarlyStart {
                id: job.id,
                submit: job.submit,
                start: out.start,
            });
        }
        let schedulable = -Time::LIMIT.secs()..=Time::LATEST.secs();
        if !schedulable.contains(&out.start.secs()) || !schedulable.contains(&out.end.secs()) {
            return Err(Violation::TimeOutOfRange {
                id: job.id,
                start: out.start,
                end: out.end,
            });
        }
        // Both ends lie within 2^53 of each other: the difference is exact.
        let ran = out.end.secs() - out.start.secs();
        let ok = match out.status {
            Status::Completed => ran == job.run_time,
            Status::Killed => ran == job.estimate && job.run_time > job.estimate,
            Status::Dropped => ran == 0,
        };
        if !ok {
            return Err(Violation::WrongDuration {
                id: job.id,
                ran,
                run_time: job.run_time,
                estimate: job.estimate,
                status: out.status,
            });
        }
        if out.status != Status::Dropped && ran > 0 {
            deltas.push((out.start, i64::from(job.procs)));
            deltas.push((out.end, -i64::from(job.procs)));
        }
    }
    if let Some(r) = crate::repeated_id(jobs.iter().map(|j| j.id)) {
        return Err(Violation::DuplicateId {
            id: r.id,
            first: r.first,
            second: r.second,
        });
    }
    over_capacity(capacity, &mut deltas, true)
}

/// [`validate`] on `config.capacity` processors, and every status as the
/// configuration allows it: under [`Overrun::Kill`] a job that outruns its
/// estimate is killed at it (never completed past it), under
/// [`Overrun::Continue`] no job is killed; a job is dropped only with
/// `config.drop_expired`, only if it has a deadline, and only when it can no
/// longer meet it (drop instant + estimate after the deadline).
///
/// For a schedule made outside [`simulate`](crate::simulate) (another
/// simulator, a scheduler of one's own) that claims a configuration:
/// `validate` alone accepts a job run past its estimate, which is right
/// under one overrun rule and wrong under the other.
pub fn validate_under(
    config: &SchedulerConfig,
    jobs: &[Job],
    outcomes: &[Outcome],
) -> Result<(), Violation> {
    validate(config.capacity, jobs, outcomes)?;
    for (job, out) in jobs.iter().zip(outcomes) {
        let rule = match (out.status, config.overrun) {
            (Status::Killed, Overrun::Continue) => {
                Some("under overrun 'continue' no job is killed: it runs its run time".to_string())
            }
            (Status::Completed, Overrun::Kill) if job.run_time > job.estimate => Some(format!(
                "it ran its run time of {} s past its estimate of {} s, and under overrun 'kill' it is killed at its estimate",
                job.run_time, job.estimate
            )),
            (Status::Dropped, _) if !config.drop_expired => {
                Some("dropping expired jobs is off in this configuration".to_string())
            }
            (Status::Dropped, _) => match job.deadline {
                None => Some("it has no deadline, so it never expires".to_string()),
                // `start` and `estimate` lie in the model's domain: no overflow.
                Some(d) if out.start + job.estimate <= d => Some(format!(
                    "at {} it could still end by its deadline {d} (estimate {} s)",
                    out.start, job.estimate
                )),
                Some(_) => None,
            },
            _ => None,
        };
        if let Some(rule) = rule {
            return Err(Violation::Status {
                id: job.id,
                status: out.status,
                rule,
            });
        }
    }
    Ok(())
}

/// The first instant, in time order, at which the busy processors exceed
/// `capacity`, given each start and end as `(instant, +procs or −procs)`;
/// ends come before starts at the same instant (a processor freed at `t` is
/// usable at `t`), and among equal instants the deltas go in ascending
/// order.
///
/// When the instants span less than 2^31 s (every trace does) each delta is
/// packed into one `u64` whose order is the pairs' order, which sorts about
/// twice as fast as the pairs; the error is the same either way. Without
/// `pack` the pairs are sorted as they are.
fn over_capacity(capacity: u32, deltas: &mut [(Time, i64)], pack: bool) -> Result<(), Violation> {
    // A delta is ±procs with procs < 2^32: `d + 2^32` takes 33 bits.
    const DELTA_BITS: u32 = 33;
    let first = deltas.iter().map(|d| d.0).min();
    let last = deltas.iter().map(|d| d.0).max();
    let packable = pack
        && match (first, last) {
            (Some(a), Some(b)) => b.secs() - a.secs() < 1 << (64 - DELTA_BITS),
            _ => true,
        };
    let scan = |sorted: &mut dyn Iterator<Item = (Time, i64)>| {
        let mut busy: i64 = 0;
        for (at, d) in sorted {
            busy += d;
            if busy > i64::from(capacity) {
                return Err(Violation::OverCapacity {
                    at,
                    busy: busy as u64,
                    capacity,
                });
            }
        }
        Ok(())
    };
    match first {
        Some(origin) if packable => {
            let pack = |(at, d): (Time, i64)| {
                ((at.secs() - origin.secs()) as u64) << DELTA_BITS | (d + (1 << 32)) as u64
            };
            let unpack = |key: u64| {
                (
                    Time(origin.secs() + (key >> DELTA_BITS) as i64),
                    (key & ((1 << DELTA_BITS) - 1)) as i64 - (1 << 32),
                )
            };
            let mut keys: Vec<u64> = deltas.iter().map(|&d| pack(d)).collect();
            keys.sort_unstable();
            scan(&mut keys.into_iter().map(unpack))
        }
        _ => {
            deltas.sort_unstable();
            scan(&mut deltas.iter().copied())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(id: u64, start: i64, end: i64, status: Status) -> Outcome {
        Outcome {
            id,
            start: Time(start),
            end: Time(end),
            status,
        }
    }

    #[test]
    fn catches_each_violation() {
        let jobs = [
            Job::new(1, Time(0), 3, 10, 10),
            Job::new(2, Time(5), 2, 5, 8),
        ];
        let good = [
            out(1, 0, 10, Status::Completed),
            out(2, 10, 15, Status::Killed),
        ];
        assert_eq!(validate(4, &jobs, &good), Ok(()));
        let over = [
            out(1, 0, 10, Status::Completed),
            out(2, 9, 14, Status::Killed),
        ];
        assert!(matches!(
            validate(4, &jobs, &over),
            Err(Violation::OverCapacity { .. })
        ));
        let early = [
            out(1, 0, 10, Status::Completed),
            out(2, 4, 9, Status::Killed),
        ];
        assert!(matches!(
            validate(8, &jobs, &early),
            Err(Violation::EarlyStart { id: 2, .. })
        ));
        let short = [
            out(1, 0, 9, Status::Completed),
            out(2, 10, 15, Status::Killed),
        ];
        assert!(matches!(
            validate(4, &jobs, &short),
            Err(Violation::WrongDuration { id: 1, .. })
        ));
        assert!(matches!(
            validate(4, &jobs, &good[..1]),
            Err(Violation::Length { .. })
        ));
    }

    /// A status the configuration does not allow: completed past the
    /// estimate under kill, killed under continue, dropped when dropping is
    /// off, without a deadline, or while the deadline could still be met.
    #[test]
    fn validate_under_checks_each_status_against_the_configuration() {
        use crate::Policy;
        let kill = SchedulerConfig::new(4, Policy::Fcfs);
        let cont = kill.clone().overrun(Overrun::Continue);
        let drops = kill.clone().drop_expired(true);
        let over = [Job::new(1, Time(0), 1, 5, 8)];
        let past = [out(1, 0, 8, Status::Completed)];
        let killed = [out(1, 0, 5, Status::Killed)];
        assert_eq!(validate(4, &over, &past), Ok(()));
        assert_eq!(validate_under(&cont, &over, &past), Ok(()));
        assert_eq!(validate_under(&kill, &over, &killed), Ok(()));
        let msg = |c: &SchedulerConfig, jobs: &[Job], outs: &[Outcome]| {
            validate_under(c, jobs, outs).unwrap_err().to_string()
        };
        assert_eq!(
            msg(&kill, &over, &past),
            "job 1 is Completed, but it ran its run time of 8 s past its estimate of 5 s, and under overrun 'kill' it is killed at its estimate"
        );
        assert!(msg(&cont, &over, &killed).contains("under overrun 'continue' no job is killed"));
        let dl = [Job::new(2, Time(0), 1, 5, 5).with_deadline(Time(10))];
        let at = |t| [out(2, t, t, Status::Dropped)];
        assert_eq!(validate_under(&drops, &dl, &at(6)), Ok(()));
        assert!(msg(&kill, &dl, &at(6)).contains("dropping expired jobs is off"));
        assert_eq!(
            msg(&drops, &dl, &at(5)),
            "job 2 is Dropped, but at 5s it could still end by its deadline 10s (estimate 5 s)"
        );
        let none = [Job::new(3, Time(0), 1, 5, 5)];
        assert!(msg(&drops, &none, &[out(3, 0, 0, Status::Dropped)]).contains("no deadline"));
    }

    /// A job wider than the machine is refused however it ends: a run of
    /// 0 s and a drop use no processor time, so the capacity scan alone
    /// never sees it (nor a machine of 0 processors).
    #[test]
    fn a_job_wider_than_the_machine_is_refused_however_it_ends() {
        for (capacity, status, run_time, end) in [
            (4, Status::Completed, 0, 0),
            (4, Status::Dropped, 10, 0),
            (0, Status::Completed, 0, 0),
            (4, Status::Completed, 10, 10),
        ] {
            let jobs = [
                Job::new(1, Time(0), 1, 10, 10),
                Job::new(2, Time(0), 5, 10, run_time),
            ];
            let outs = [out(1, 0, 10, Status::Completed), out(2, 0, end, status)];
            let v = validate(capacity, &jobs, &outs).unwrap_err();
            let want = if capacity == 0 { (0, 1, 1) } else { (1, 2, 5) };
            assert_eq!(
                v,
                Violation::TooWide {
                    index: want.0,
                    id: want.1,
                    procs: want.2,
                    capacity
                }
            );
        }
        let v = validate(
            4,
            &[Job::new(7, Time(0), 5, 10, 0)],
            &[out(7, 0, 0, Status::Completed)],
        );
        assert_eq!(
            v.unwrap_err().to_string(),
            "job 7 (position 0) asks for 5 processors but the machine has 4; no schedule can hold it"
        );
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::proptest_config(2000))]

        /// Packed keys find the same first violation, with the same numbers,
        /// as the pairs: close instants (packed), and instants spread over
        /// the whole schedulable range (the pairs' path), with equal instants,
        /// the widest jobs and capacities the busy count crosses.
        #[test]
        fn packed_keys_find_what_the_pairs_find(
            jobs in proptest::collection::vec((0..50i64, 1..40i64, 1..=6u32), 0..40),
            wide in proptest::option::of(proptest::bool::ANY),
            spread in proptest::bool::ANY,
            capacity in 0..30u32,
        ) {
            let scale = if spread { Time::LATEST.secs() / 100 } else { 1 };
            let mut deltas = Vec::new();
            for (start, ran, procs) in jobs {
                let procs = match wide {
                    Some(true) => u32::MAX - procs,
                    _ => procs,
                };
                let (start, end) = (Time(start * scale), Time((start + ran) * scale));
                deltas.push((start, i64::from(procs)));
                deltas.push((end, -i64::from(procs)));
            }
            // The pairs sorted as they are: the check as it was before the keys.
            let expected = over_capacity(capacity, &mut deltas.clone(), false);
            proptest::prop_assert_eq!(over_capacity(capacity, &mut deltas, true), expected);
        }
    }
}
