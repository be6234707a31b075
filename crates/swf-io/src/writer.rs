//! Writing SWF, and turning a simulated schedule into SWF records.

use std::io::{self, BufWriter, Write};

use profile::{Job, Outcome, Status};

use crate::header::SwfHeader;
use crate::record::{SwfRecord, write_record};

/// Writes `header` (see [`SwfHeader`] for how typed fields and `lines`
/// combine) and then one line per record, `-1` for `None`.
///
/// What [`SwfReader`](crate::SwfReader) reads back is equal to what was
/// written, except that `Some(-1)` and non-finite decimals come back as
/// `None`. Output is buffered internally; pass the writer unbuffered.
pub fn write_swf<W: Write>(w: W, header: &SwfHeader, records: &[SwfRecord]) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, w);
    header.write(&mut w)?;
    for record in records {
        write_record(&mut w, record)?;
    }
    w.flush()
}

/// A simulated schedule as SWF records, one per job, in job order.
///
/// `outcomes[i]` belongs to `jobs[i]` (as `profile::simulate` returns
/// them); extra entries in the longer slice are ignored. Fields: job number
/// = id, submit, wait = start − submit, run time = end − start, allocated
/// and requested processors = procs, requested time = estimate, status 1
/// (completed) or 0 (killed). A dropped job never ran: wait, run time and
/// allocated processors are -1 and status is 5 (cancelled). The other
/// fields are -1. Ids above `i64::MAX` are written as -1.
pub fn schedule_records(jobs: &[Job], outcomes: &[Outcome]) -> Vec<SwfRecord> {
    jobs.iter()
        .zip(outcomes)
        .map(|(job, out)| {
            let ran = out.status != Status::Dropped;
            SwfRecord {
                job: i64::try_from(job.id).ok(),
                submit: Some(job.submit.0),
                wait: ran.then(|| out.start.0.saturating_sub(job.submit.0)),
                run_time: ran.then(|| out.end.0.saturating_sub(out.start.0)),
                allocated_procs: ran.then_some(i64::from(job.procs)),
                requested_procs: Some(i64::from(job.procs)),
                requested_time: Some(job.estimate),
                status: Some(match out.status {
                    Status::Completed => 1,
                    Status::Killed => 0,
                    Status::Dropped => 5,
                }),
                ..SwfRecord::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile::Time;

    #[test]
    fn schedule_as_swf() {
        let jobs = [
            Job::new(7, Time(10), 4, 100, 50),
            Job::new(8, Time(20), 2, 30, 60),
            Job::new(9, Time(30), 1, 5, 5),
        ];
        let outs = [
            Outcome {
                id: 7,
                start: Time(15),
                end: Time(65),
                status: Status::Completed,
            },
            Outcome {
                id: 8,
                start: Time(65),
                end: Time(95),
                status: Status::Killed,
            },
            Outcome {
                id: 9,
                start: Time(40),
                end: Time(40),
                status: Status::Dropped,
            },
        ];
        let recs = schedule_records(&jobs, &outs);
        let summary: Vec<_> = recs
            .iter()
            .map(|r| {
                (
                    r.job,
                    r.submit,
                    r.wait,
                    r.run_time,
                    r.allocated_procs,
                    r.requested_time,
                    r.status,
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    Some(7),
                    Some(10),
                    Some(5),
                    Some(50),
                    Some(4),
                    Some(100),
                    Some(1)
                ),
                (
                    Some(8),
                    Some(20),
                    Some(45),
                    Some(30),
                    Some(2),
                    Some(30),
                    Some(0)
                ),
                (Some(9), Some(30), None, None, None, Some(5), Some(5)),
            ]
        );
        assert_eq!(recs[2].requested_procs, Some(1));
    }
}
