//! The checks around a run: its inputs before it starts, and the run
//! against its input once it is done.

use profile::{ShortFloat, Time};

use super::{GridConfig, GridRun, JobStatus, MAX_LENGTH, MAX_TTL, MAX_VIEW_ENTRIES};
use crate::ResourceId;
use crate::error::{GridError, Violation};
use crate::machine::Machine;
use crate::scheduler::GridJob;

/// Checks the grid's settings and the jobs before a run starts.
pub(super) fn check_inputs(
    config: &GridConfig,
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
) -> Result<(), GridError> {
    if machines.is_empty() {
        return Err(GridError::Setting {
            name: "sites",
            message: "the grid has no site, expected at least 1".into(),
        });
    }
    if let Some(site) = machines.iter().position(Vec::is_empty) {
        return Err(GridError::Setting {
            name: "resources",
            message: format!("site {site} has no resource, expected at least 1"),
        });
    }
    config.updates.check()?;
    config.delays.check(machines.len())?;
    if config.max_ttl > MAX_TTL {
        return Err(GridError::Setting {
            name: "max_ttl",
            message: format!("is {}, expected at most {MAX_TTL}", config.max_ttl),
        });
    }
    let resources: usize = machines.iter().map(Vec::len).sum();
    if machines.len().saturating_mul(resources) > MAX_VIEW_ENTRIES {
        return Err(GridError::Setting {
            name: "sites",
            message: format!(
                "{} sites each keep a view of all {resources} resources, more than \
                 {MAX_VIEW_ENTRIES} entries in all; give fewer sites or resources",
                machines.len()
            ),
        });
    }
    for (i, j) in jobs.iter().enumerate() {
        let bad = |message: String| Err(GridError::Job { job: j.id, message });
        if j.id != i {
            return bad(format!(
                "is at position {i} of the job list; ids must be positions"
            ));
        }
        if j.site >= machines.len() {
            return bad(format!(
                "is submitted at site {} but the grid has {} sites",
                j.site,
                machines.len()
            ));
        }
        if j.length <= 0 || j.length > MAX_LENGTH {
            return bad(format!("has length {} MI, expected 1 to 2^40 MI", j.length));
        }
        if j.submit < Time::ZERO || j.submit > Time::LIMIT {
            return bad(format!(
                "is submitted at {} s, expected a time from 0 to 2^40 s",
                j.submit.0
            ));
        }
    }
    Ok(())
}

/// Checks a run against its input: one record per job, in order; its
/// utilities in `[0, 1]` (never NaN); a
/// completed job was assigned after its submission, started after its
/// assignment and ran exactly its run time on the machine it was assigned
/// to; a failed job never ran and has utilities of 0; no job was forwarded more than `max_ttl`
/// times; no machine ever ran more jobs than it has cores; and the run's
/// totals are its records': each machine's usage (its cores, the jobs it
/// ran and their run time), the forwards, the first submission and the
/// last end. (The count of status messages is no sum over the records
/// and is not checked.)
pub fn validate(
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
    run: &GridRun,
    max_ttl: u32,
) -> Result<(), Violation> {
    if run.jobs.len() != jobs.len() {
        return Err(Violation::Records {
            jobs: jobs.len(),
            records: run.jobs.len(),
        });
    }
    let mut spans: Vec<Vec<Vec<(Time, i32)>>> =
        machines.iter().map(|v| vec![Vec::new(); v.len()]).collect();
    for (j, r) in jobs.iter().zip(&run.jobs) {
        let bad = |message: String| Err(Violation::Job { job: j.id, message });
        if r.id != j.id || r.user != j.user || r.site != j.site || r.submit != j.submit {
            return bad("its record does not match the job (id, user, site or submission)".into());
        }
        // Utilities are in [0, 1] (NaN is none), and 0 for a job that never
        // ran: `SystemMetrics::of` averages them.
        for (name, u) in [
            ("decided utility", r.decided_utility),
            ("achieved utility", r.achieved_utility),
        ] {
            if !(0.0..=1.0).contains(&u) {
                return bad(format!(
                    "its {name} is {}, expected a number in [0, 1]",
                    ShortFloat(u)
                ));
            }
            if matches!(r.status, JobStatus::Failed(_)) && u != 0.0 {
                return bad(format!(
                    "failed but its {name} is {}, expected 0 for a job that never ran",
                    ShortFloat(u)
                ));
            }
        }
        if r.forwards > max_ttl {
            return bad(format!(
                "was forwarded {} times, more than the TTL {max_ttl}",
                r.forwards
            ));
        }
        match r.status {
            JobStatus::Completed => {
                let (Some(a), Some(s), Some(e), Some(res)) =
                    (r.assigned, r.start, r.end, r.resource)
                else {
                    return bad("completed without an assignment, start, end and resource".into());
                };
                let Some(m) = machines.get(res.site).and_then(|v| v.get(res.index)) else {
                    return bad(format!(
                        "ran on machine {} of site {}, which does not exist",
                        res.index, res.site
                    ));
                };
                if !(j.submit <= a && a <= s) {
                    return bad(format!(
                        "submitted at {}, assigned at {}, started at {}: out of order",
                        j.submit.0, a.0, s.0
                    ));
                }
                if e - s != m.run_time(j.length) {
                    return bad(format!(
                        "ran {} s, expected its run time {} s",
                        e - s,
                        m.run_time(j.length)
                    ));
                }
                spans[res.site][res.index].push((s, 1));
                spans[res.site][res.index].push((e, -1));
            }
            JobStatus::Failed(_) => {
                if r.start.is_some() || r.end.is_some() {
                    return bad("failed but has a start or an end".into());
                }
            }
        }
    }
    check_totals(machines, jobs, run)?;
    for (site, v) in spans.iter_mut().enumerate() {
        for (index, events) in v.iter_mut().enumerate() {
            // Ends before starts at the same instant: a core freed at t can be reused at t.
            events.sort_by_key(|&(t, d)| (t, d));
            let cores = machines[site][index].cores();
            let mut running = 0i64;
            for &(t, d) in events.iter() {
                running += i64::from(d);
                if running > i64::from(cores) {
                    return Err(Violation::Overcommitted {
                        site,
                        index,
                        at: t.0,
                        running: running as u32,
                        cores,
                    });
                }
            }
        }
    }
    Ok(())
}

/// The run's totals against its records (already checked one by one).
fn check_totals(
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
    run: &GridRun,
) -> Result<(), Violation> {
    let bad = |field, message: String| Err(Violation::Totals { field, message });
    // Per site, per machine: (cores, run time, jobs) from the records.
    let mut usage: Vec<Vec<(u32, i64, u32)>> = machines
        .iter()
        .map(|v| v.iter().map(|m| (m.cores(), 0, 0)).collect())
        .collect();
    for (j, r) in jobs.iter().zip(&run.jobs) {
        if let (JobStatus::Completed, Some(res)) = (r.status, r.resource) {
            let u = &mut usage[res.site][res.index];
            u.1 =
                u.1.saturating_add(machines[res.site][res.index].run_time(j.length));
            u.2 += 1;
        }
    }
    let count: usize = usage.iter().map(Vec::len).sum();
    if run.machines.len() != count {
        return bad(
            "machines",
            format!(
                "{} entries, expected one per machine, {count}",
                run.machines.len(),
            ),
        );
    }
    let records = usage.iter().enumerate().flat_map(|(site, v)| {
        v.iter()
            .enumerate()
            .map(move |(index, &u)| (ResourceId { site, index }, u))
    });
    for (m, (id, (cores, busy, count))) in run.machines.iter().zip(records) {
        if (m.id, m.cores, m.busy, m.jobs) != (id, cores, busy, count) {
            return bad(
                "machines",
                format!(
                    "machine {} of site {} is reported as machine {} of site {} with {} cores, \
                     {} s busy and {} jobs; its records give {cores} cores, {busy} s and \
                     {count} jobs",
                    id.index, id.site, m.id.index, m.id.site, m.cores, m.busy, m.jobs
                ),
            );
        }
    }
    let forwards: u64 = run.jobs.iter().map(|r| u64::from(r.forwards)).sum();
    if run.forwards != forwards {
        return bad(
            "forwards",
            format!(
                "{} forwards reported, the records give {forwards}",
                run.forwards
            ),
        );
    }
    let first = jobs.iter().map(|j| j.submit).min().unwrap_or(Time::ZERO);
    if run.first_submit != first {
        return bad(
            "first_submit",
            format!(
                "{} s reported, the first job was submitted at {} s",
                run.first_submit.0, first.0
            ),
        );
    }
    let last = run.jobs.iter().filter_map(|r| r.end).max().unwrap_or(first);
    if run.last_end != last {
        return bad(
            "last_end",
            format!(
                "{} s reported, the records give {} s",
                run.last_end.0, last.0
            ),
        );
    }
    Ok(())
}
