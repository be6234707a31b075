//! The check every cluster's schedule passes before its numbers count.

use partitions_forecast::JobRecord;

use crate::error::Violation;

/// Checks one cluster's finished schedule, local and grid jobs together:
/// every job ran, every reservation started exactly at its reserved start,
/// and `profile::validate` holds (never more processors busy than
/// `capacity`, no start before submission, each job ends after its run time
/// or is killed at its estimate).
pub fn validate(capacity: u32, records: &[JobRecord]) -> Result<(), Violation> {
    let mut jobs = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for r in records {
        let Some((job, outcome)) = r.ran() else {
            return Err(Violation::NeverRan {
                origin: r.origin,
                job: r.id,
            });
        };
        if let Some(reserved) = r.reserved_start
            && outcome.start != reserved
        {
            return Err(Violation::ReservationMoved {
                job: r.id,
                reserved,
                start: outcome.start,
            });
        }
        jobs.push(job);
        outcomes.push(outcome);
    }
    // A local job and a grid job may share an id (the cluster keeps each
    // origin's ids apart), which `profile::validate` refuses: then the
    // jobs are checked under their positions as ids, and a violation names
    // the job by its own id again.
    let shared = profile::repeated_id(jobs.iter().map(|j| j.id)).is_some();
    if shared {
        for (k, (job, outcome)) in jobs.iter_mut().zip(&mut outcomes).enumerate() {
            job.id = k as u64;
            outcome.id = k as u64;
        }
    }
    profile::validate(capacity, &jobs, &outcomes).map_err(|violation| Violation::Invalid {
        violation: if shared {
            own_ids(violation, records)
        } else {
            violation
        },
    })
}

/// `violation`, found with positions as ids, naming its job by the id of
/// its record again.
fn own_ids(violation: profile::Violation, records: &[JobRecord]) -> profile::Violation {
    use profile::Violation as V;
    let id = |position: u64| {
        usize::try_from(position)
            .ok()
            .and_then(|k| records.get(k))
            .map_or(position, |r| r.id)
    };
    match violation {
        V::TooWide {
            index,
            procs,
            capacity,
            ..
        } => V::TooWide {
            index,
            id: id(index as u64),
            procs,
            capacity,
        },
        V::TimeOutOfRange { id: k, start, end } => V::TimeOutOfRange {
            id: id(k),
            start,
            end,
        },
        V::EarlyStart {
            id: k,
            submit,
            start,
        } => V::EarlyStart {
            id: id(k),
            submit,
            start,
        },
        V::WrongDuration {
            id: k,
            ran,
            run_time,
            estimate,
            status,
        } => V::WrongDuration {
            id: id(k),
            ran,
            run_time,
            estimate,
            status,
        },
        V::Status {
            id: k,
            status,
            rule,
        } => V::Status {
            id: id(k),
            status,
            rule,
        },
        // The rest name no job by id (capacity, lengths), or cannot arise
        // here (the cluster checked each job, and ids are positions).
        other => other,
    }
}
