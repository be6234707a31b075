//! Per-job schedules as files, SWF and Batsim's `jobs.csv`: what
//! `simulate --schedule-out/--jobs-csv` writes for one trace, and what
//! `run --schedules` writes for every cell of an experiment (into
//! `<results>/<id>/schedules/`).

use anyhow::{Context, Result};
use experiments::{RunSchedule, encode};
use profile::{Job, Outcome, ProcSet};
use swf_io::{SwfHeader, SwfRecord};

/// The directory inside an experiment's results that `run --schedules` fills.
pub const DIR: &str = "schedules";

/// A note line for an SWF header: one line, no control characters.
fn note(s: &str) -> String {
    encode::terminal(&s.replace(['\n', '\r'], " "))
}

/// A schedule as SWF text: `records` under `header`, with the record count
/// and (where the header gives none) the machine size filled in and
/// `notes` appended to the header's.
pub fn swf(
    header: SwfHeader,
    records: &[SwfRecord],
    capacity: u32,
    notes: &[String],
) -> Result<String> {
    // A lenient read keeps header lines the strict reader refuses (an
    // unusable or second `MaxProcs`); the schedule says it left them out.
    let (mut header, dropped) = header.without_unusable_lines();
    for (k, v) in dropped {
        header
            .notes
            .push(note(&format!("header line left out, unusable: {k}: {v}")));
    }
    header.max_records = Some(records.len() as u64);
    if header.max_procs.is_none() && header.max_nodes.is_none() {
        header.max_procs = Some(u64::from(capacity));
    }
    header.notes.extend(notes.iter().map(|n| note(n)));
    let mut bytes = Vec::new();
    swf_io::write_swf(&mut bytes, &header, records).context("cannot format the schedule as SWF")?;
    String::from_utf8(bytes).context("the SWF schedule is not UTF-8")
}

/// A schedule as Batsim's `jobs.csv`, with each job's processors
/// (`allocation[i]` for `jobs[i]`, as [`profile::first_fit`] gives them).
pub fn jobs_csv(
    workload: &str,
    jobs: &[Job],
    outcomes: &[Outcome],
    allocation: &[ProcSet],
) -> Result<String> {
    let mut bytes = Vec::new();
    swf_io::write_jobs_csv(&mut bytes, &note(workload), jobs, outcomes, allocation)
        .context("cannot format the schedule as jobs.csv")?;
    String::from_utf8(bytes).context("the jobs.csv schedule is not UTF-8")
}

/// The files `run --schedules` adds to an experiment's results: for every
/// cell's run, `schedules/<run>.swf` and `schedules/<run>.jobs.csv`, the
/// run's description encoded as a file name ([`encode::file_name`]).
pub fn files(id: &str, schedules: &[RunSchedule]) -> Result<Vec<(String, String)>> {
    if schedules.is_empty() {
        return Ok(Vec::new());
    }
    // The output layer makes a directory of a name ending in `/`.
    let mut files = vec![(format!("{DIR}/"), String::new())];
    for s in schedules {
        let schedule = &s.schedule;
        let (jobs, outcomes) = (&schedule.jobs, &schedule.outcomes);
        let name = format!("{DIR}/{}", encode::file_name(&s.run));
        let records = swf_io::schedule_records(jobs, outcomes);
        let notes = [
            format!("simulated schedule of {id}: {}", s.run),
            format!(
                "policy {} on {} ({} processors), series {}, x {}, repetition {}",
                schedule.policy,
                s.workload,
                schedule.capacity,
                s.series,
                s.x,
                s.repetition + 1
            ),
            "jobs as simulated (after the configuration's transforms): fields 1, 2, 8 and 9 \
             from the job, fields 3, 4, 5 and 11 set by the simulation, every other field -1"
                .to_string(),
        ];
        let swf_text = swf(SwfHeader::default(), &records, schedule.capacity, &notes)
            .with_context(|| s.run.clone())?;
        files.push((format!("{name}.swf"), swf_text));
        let allocation = profile::first_fit(schedule.capacity, jobs, outcomes)
            .with_context(|| format!("{}: cannot give the schedule processor ids", s.run))?;
        let csv =
            jobs_csv(&s.workload, jobs, outcomes, &allocation).with_context(|| s.run.clone())?;
        files.push((format!("{name}.jobs.csv"), csv));
    }
    Ok(files)
}
