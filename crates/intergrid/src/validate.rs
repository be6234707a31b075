//! The check every cluster's schedule passes before its numbers count.

use partitions_forecast::JobRecord;
use profile::{Job, Outcome, Status};

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
        let (Some(start), Some(end)) = (r.start, r.end) else {
            return Err(Violation::NeverRan {
                origin: r.origin,
                job: r.id,
            });
        };
        if let Some(reserved) = r.reserved_start
            && start != reserved
        {
            return Err(Violation::ReservationMoved {
                job: r.id,
                reserved,
                start,
            });
        }
        jobs.push(Job::new(r.id, r.submit, r.procs, r.estimate, r.run_time));
        let status = if r.run_time > r.estimate {
            Status::Killed
        } else {
            Status::Completed
        };
        outcomes.push(Outcome {
            id: r.id,
            start,
            end,
            status,
        });
    }
    profile::validate(capacity, &jobs, &outcomes)
        .map_err(|violation| Violation::Invalid { violation })
}
