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
            violation.map_ids(|k| {
                let record = usize::try_from(k).ok().and_then(|k| records.get(k));
                record.map_or(k, |r| r.id)
            })
        } else {
            violation
        },
    })
}
