//! Writing SWF, and turning a simulated schedule into SWF records.

use std::io::{self, BufWriter, Write};

use profile::{Job, Outcome, Status};

use crate::header::SwfHeader;
use crate::record::{SwfRecord, write_record};

/// Writes `header` (see [`SwfHeader`] for how typed fields and `lines`
/// combine) and then one line per record, `-1` for `None`.
///
/// What [`SwfReader`](crate::SwfReader) reads back (in strict mode) is
/// equal to what was written, except that `Some(-1)` and non-finite
/// decimals come back as `None`, and a header line that disagrees with its
/// typed field comes back with the typed value. What would not read back
/// so is refused before anything is written, with an error of kind
/// [`io::ErrorKind::InvalidInput`] saying why: a typed header value the
/// reader refuses or takes differently (`max_procs` above
/// [`MAX_PROCS`](crate::MAX_PROCS), an empty `version`, a `#` comment or a
/// line break in a typed string), a header line the reader would parse
/// into another keyword or value (free text shaped like `Keyword: value`,
/// a keyword with a blank or a colon, padding) or refuse as too long, a
/// header line the strict reader refuses (a numeric keyword whose value is
/// not a number or out of range, or a second value for one quantity: what
/// a lenient read keeps; [`SwfHeader::without_unusable_lines`] leaves them
/// out), and two records with one job number (any but -1, negative ones
/// included). Output is buffered internally; pass
/// the writer unbuffered.
pub fn write_swf<W: Write>(w: W, header: &SwfHeader, records: &[SwfRecord]) -> io::Result<()> {
    if let Some(why) = header.unwritable().or_else(|| repeated_job(records)) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not written, as SWF would not read it back as given: {why}"),
        ));
    }
    let mut w = BufWriter::with_capacity(1 << 16, w);
    header.write(&mut w)?;
    for record in records {
        write_record(&mut w, record)?;
    }
    w.flush()
}

/// Two records with one job number (unknown ones, `None`, may repeat), as
/// a message naming both records (1-based, as data lines).
fn repeated_job(records: &[SwfRecord]) -> Option<String> {
    let known = records.iter().filter_map(|r| r.job);
    // `as u64` is one to one on i64.
    let r = profile::repeated_id(known.map(|j| j as u64))?;
    // Positions among the records with a known job number, back to records.
    let mut at = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.job.is_some())
        .map(|(i, _)| i + 1);
    let first = at.nth(r.first)?;
    let second = at.nth(r.second - r.first - 1)?;
    Some(format!(
        "records {first} and {second} both have job number {}",
        r.id as i64
    ))
}

/// A simulated schedule as SWF records, one per job, in job order, with
/// nothing known about the jobs beyond what [`Job`] holds.
///
/// `outcomes[i]` belongs to `jobs[i]` (as `profile::simulate` returns
/// them); extra entries in the longer slice are ignored. Fields: job number
/// = id, submit, requested processors = procs, requested time = estimate,
/// then what [`simulated_record`] sets; the other fields are -1. Ids above
/// `i64::MAX` are written as -1. [`schedule_records_from`] keeps the input's
/// fields instead.
pub fn schedule_records(jobs: &[Job], outcomes: &[Outcome]) -> Vec<SwfRecord> {
    schedule_records_from(&[], jobs, outcomes)
}

/// A simulated schedule as SWF records, one per job, in job order, each
/// the input record the job came from with only the simulated fields
/// changed (see [`simulated_record`]).
///
/// `input` holds the records the jobs were converted from with
/// [`to_jobs`](crate::to_jobs); [`find_records`](crate::find_records)
/// pairs them up. A job without a matching record is written as
/// [`schedule_records`] writes it. Records no job came from (unreplayable
/// ones, jobs a transform dropped) are left out.
pub fn schedule_records_from(
    input: &[SwfRecord],
    jobs: &[Job],
    outcomes: &[Outcome],
) -> Vec<SwfRecord> {
    let found = crate::find_records(input, jobs);
    jobs.iter()
        .zip(outcomes)
        .zip(found)
        .map(|((job, out), index)| {
            let base = index.map_or_else(|| bare_record(job, out), |i| input[i]);
            simulated_record(&base, job, out)
        })
        .collect()
}

/// The fields a [`Job`] knows, with the run time and status 1 (completed)
/// of a job that ran.
fn bare_record(job: &Job, out: &Outcome) -> SwfRecord {
    SwfRecord {
        job: i64::try_from(job.id).ok(),
        submit: Some(job.submit.0),
        run_time: Some(out.end.0.saturating_sub(out.start.0)),
        requested_procs: Some(i64::from(job.procs)),
        requested_time: Some(job.estimate),
        status: Some(1),
        ..SwfRecord::default()
    }
}

/// `input` (the job's own record) with the fields a simulation decides set
/// from `out`, every other field kept:
///
/// * field 3, wait = start − submit;
/// * a job killed at its estimate: field 4, run time = end − start, and
///   field 11, status 0 (failed);
/// * field 5, allocated processors = the job's size (where the input had a
///   positive count it is that count already; where it was -1 the size came
///   from field 8).
///
/// A job dropped before it started (deadline expired) gets wait, run time
/// and allocated processors -1 and status 5 (cancelled).
pub fn simulated_record(input: &SwfRecord, job: &Job, out: &Outcome) -> SwfRecord {
    let mut r = *input;
    match out.status {
        Status::Dropped => {
            r.wait = None;
            r.run_time = None;
            r.allocated_procs = None;
            r.status = Some(5);
        }
        // Completed or killed; a status `profile` adds later (`Status` is
        // non-exhaustive) is kept as a job that ran.
        _ => {
            r.wait = Some(out.start.0.saturating_sub(job.submit.0));
            r.allocated_procs = Some(i64::from(job.procs));
            if out.status == Status::Killed {
                r.run_time = Some(out.end.0.saturating_sub(out.start.0));
                r.status = Some(0);
            }
        }
    }
    r
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

    #[test]
    fn schedule_keeps_the_input_fields() {
        let input = |job: i64, alloc: Option<i64>, status: Option<i64>| SwfRecord {
            job: Some(job),
            submit: Some(job * 10),
            wait: Some(999),
            run_time: Some(100),
            allocated_procs: alloc,
            avg_cpu_time: Some(97.5),
            used_memory: Some(1024.0),
            requested_procs: Some(4),
            requested_time: Some(if job == 3 { 50 } else { 200 }),
            requested_memory: Some(2048.5),
            status,
            user: Some(job + 100),
            group: Some(3),
            executable: Some(17),
            queue: Some(2),
            partition: Some(1),
            preceding_job: Some(job - 1),
            think_time: Some(60),
        };
        let records = [
            input(1, Some(4), Some(1)),
            input(2, None, None),
            input(3, Some(4), Some(5)),
        ];
        let jobs = crate::to_jobs(&records, crate::Estimate::Requested).jobs;
        let outs = [
            Outcome {
                id: 1,
                start: Time(10),
                end: Time(110),
                status: Status::Completed,
            },
            Outcome {
                id: 2,
                start: Time(25),
                end: Time(125),
                status: Status::Completed,
            },
            Outcome {
                id: 3,
                start: Time(40),
                end: Time(90),
                status: Status::Killed,
            },
        ];
        let out = schedule_records_from(&records, &jobs, &outs);
        let expect = |i: usize, wait, run_time, alloc, status| SwfRecord {
            wait: Some(wait),
            run_time: Some(run_time),
            allocated_procs: Some(alloc),
            status,
            ..records[i]
        };
        assert_eq!(
            out,
            [
                expect(0, 0, 100, 4, Some(1)),
                // Field 5 filled from the size; status -1 stays -1.
                expect(1, 5, 100, 4, None),
                // Killed: run time and status from the simulation.
                expect(2, 10, 50, 4, Some(0)),
            ]
        );
        // Without input records, only what a Job knows.
        let bare = schedule_records_from(&[], &jobs, &outs);
        assert_eq!(bare, schedule_records(&jobs, &outs));
        assert_eq!((bare[0].user, bare[0].status), (None, Some(1)));
    }
}
