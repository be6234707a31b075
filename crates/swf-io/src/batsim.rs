//! A simulated schedule as Batsim's `jobs.csv`, the per-job output that
//! Batsim writes and evalys and Batsim's tools read.

use std::io::{self, BufWriter, Write};

use profile::{Job, Outcome, ProcSet, Status};

/// The columns of Batsim's `jobs.csv`, in Batsim's order.
pub const JOBS_CSV_COLUMNS: [&str; 17] = [
    "job_id",
    "workload_name",
    "profile",
    "submission_time",
    "requested_number_of_resources",
    "requested_time",
    "success",
    "final_state",
    "starting_time",
    "execution_time",
    "finish_time",
    "waiting_time",
    "turnaround_time",
    "stretch",
    "allocated_resources",
    "consumed_energy",
    "metadata",
];

/// Writes a schedule as Batsim's `jobs.csv`: a header of
/// [`JOBS_CSV_COLUMNS`], then one row per job in job order.
///
/// `outcomes[i]` and `allocation[i]` belong to `jobs[i]` (an allocation
/// from [`profile::first_fit`], say; a missing entry is written as no
/// processors). Values follow Batsim's documentation of the file:
///
/// * `job_id` is the job's id; `workload_name` is `workload`; `profile` is
///   the job's actual run time in seconds (the delay profile Batsim's SWF
///   converter would give it);
/// * `requested_time` is the estimate (Batsim's walltime);
/// * `success` is 1 and `final_state` `COMPLETED_SUCCESSFULLY` for a job
///   that ran its run time; 0 and `COMPLETED_WALLTIME_REACHED` for one
///   killed at its estimate; 0 and `REJECTED` for one dropped before it
///   started, whose time columns and allocation are empty as in Batsim;
/// * times are whole seconds, written as integers (Batsim writes the same
///   values with six decimals); `stretch` = turnaround / execution time
///   with six decimals, `inf` (or `nan`) when the job ran zero seconds, as
///   Batsim prints such quotients;
/// * `allocated_resources` is Batsim's interval-set string (`0-3 8 10-11`);
/// * `consumed_energy` is -1 (no energy model, Batsim's value without its
///   energy plugin) and `metadata` is empty.
///
/// A `workload` with a comma, quote or line break is quoted as CSV
/// requires. Output is buffered internally; pass the writer unbuffered.
pub fn write_jobs_csv<W: Write>(
    w: W,
    workload: &str,
    jobs: &[Job],
    outcomes: &[Outcome],
    allocation: &[ProcSet],
) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, w);
    writeln!(w, "{}", JOBS_CSV_COLUMNS.join(","))?;
    let workload = csv_field(workload);
    let none = ProcSet::new();
    for (i, (job, out)) in jobs.iter().zip(outcomes).enumerate() {
        let (success, state) = match out.status {
            Status::Completed => (1, "COMPLETED_SUCCESSFULLY"),
            Status::Killed => (0, "COMPLETED_WALLTIME_REACHED"),
            Status::Dropped => (0, "REJECTED"),
            // A status `profile` adds later (`Status` is non-exhaustive):
            // the job ran and did not complete normally.
            _ => (0, "COMPLETED_KILLED"),
        };
        write!(
            w,
            "{},{workload},{},{},{},{},{success},{state},",
            job.id, job.run_time, job.submit.0, job.procs, job.estimate
        )?;
        if out.status == Status::Dropped {
            writeln!(w, ",,,,,,,,")?;
            continue;
        }
        let execution = out.end.0.saturating_sub(out.start.0);
        let waiting = out.start.0.saturating_sub(job.submit.0);
        let turnaround = out.end.0.saturating_sub(job.submit.0);
        let stretch = match (turnaround, execution) {
            (0, 0) => "nan".to_string(),
            (_, 0) => "inf".to_string(),
            _ => format!("{:.6}", turnaround as f64 / execution as f64),
        };
        writeln!(
            w,
            "{},{execution},{},{waiting},{turnaround},{stretch},{},-1,",
            out.start.0,
            out.end.0,
            allocation.get(i).unwrap_or(&none)
        )?;
    }
    w.flush()
}

/// A CSV field, quoted if it holds a comma, a quote or a line break.
/// The workload's name as a CSV text field: control and bidirectional
/// characters made visible (`\u{1b}`), quoted as RFC 4180 requires, and a
/// `'` before text a spreadsheet would run as a formula (`=`, `+`, `-`,
/// `@`, TAB, CR first). These are the rules of the pipeline's
/// `experiments::encode::csv_text`, which this crate cannot depend on; a
/// test there checks that the two agree.
fn csv_field(s: &str) -> String {
    let bidi = |c: char| {
        matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
    };
    let mut clean = String::with_capacity(s.len());
    for c in s.chars() {
        if (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || bidi(c) {
            clean.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            clean.push(c);
        }
    }
    let formula = clean
        .trim_start_matches('\'')
        .starts_with(['=', '+', '-', '@', '\t', '\r']);
    if formula {
        format!("\"'{}\"", clean.replace('"', "\"\""))
    } else if clean.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", clean.replace('"', "\"\""))
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile::Time;

    #[test]
    fn rows_as_batsim_writes_them() {
        let jobs = [
            Job::new(7, Time(10), 4, 100, 50),
            Job::new(8, Time(20), 3, 30, 60),
            Job::new(9, Time(30), 1, 5, 5),
            Job::new(10, Time(40), 1, 5, 0),
        ];
        let out = |id, start, end, status| Outcome {
            id,
            start: Time(start),
            end: Time(end),
            status,
        };
        let outs = [
            out(7, 15, 65, Status::Completed),
            out(8, 65, 95, Status::Killed),
            out(9, 40, 40, Status::Dropped),
            out(10, 40, 40, Status::Completed),
        ];
        let alloc: Vec<ProcSet> = ["0-3", "0-1 5", "", "0"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let mut bytes = Vec::new();
        write_jobs_csv(&mut bytes, "a,\"b\"", &jobs, &outs, &alloc).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], JOBS_CSV_COLUMNS.join(","));
        assert_eq!(
            &lines[1..],
            [
                "7,\"a,\"\"b\"\"\",50,10,4,100,1,COMPLETED_SUCCESSFULLY,15,50,65,5,55,1.100000,0-3,-1,",
                "8,\"a,\"\"b\"\"\",60,20,3,30,0,COMPLETED_WALLTIME_REACHED,65,30,95,45,75,2.500000,0-1 5,-1,",
                "9,\"a,\"\"b\"\"\",5,30,1,5,0,REJECTED,,,,,,,,,",
                "10,\"a,\"\"b\"\"\",0,40,1,5,1,COMPLETED_SUCCESSFULLY,40,0,40,0,0,nan,0,-1,",
            ]
        );
        for line in &lines[1..] {
            // 17 columns (the quoted name holds one extra comma).
            assert_eq!(line.matches(',').count(), 16 + 1, "{line}");
        }
    }
}
