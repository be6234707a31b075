//! From SWF records to replayable jobs, and the workload transforms the
//! scheduling papers apply before a replay.
//!
//! Every transform keeps the relative order of the jobs it keeps. Time
//! arithmetic saturates, so no input panics.

use std::collections::BTreeMap;

use profile::{Job, Time};

use crate::record::SwfRecord;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Which run-time estimate a converted job gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Estimate {
    /// The user's requested time (field 9). Where it is missing (-1) or not
    /// positive, the actual run time is used and counted in
    /// [`Conversion::no_estimate`].
    Requested,
    /// The actual run time: perfect estimates.
    Actual,
    /// `max(1, round(run × (1 − x)))`: every job underestimated by the
    /// fraction `x` (so `x` = 0.2 gives 80 % of the run time). Such jobs are
    /// killed at their estimate by a scheduler that enforces estimates.
    UnderEstimate(f64),
}

/// The result of [`to_jobs`]: the replayable jobs and what was left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conversion {
    /// Replayable jobs, in non-decreasing submit order.
    pub jobs: Vec<Job>,
    /// Records dropped because they cannot be replayed.
    pub unreplayable: usize,
    /// Jobs (among those kept) whose estimate fell back to the run time
    /// under [`Estimate::Requested`].
    pub no_estimate: usize,
}

/// Converts SWF records to jobs a scheduler can replay.
///
/// * A record is unreplayable, dropped and counted, when its submit time
///   or run time is -1 or negative, or when neither field 5 (allocated)
///   nor field 8 (requested processors) is a positive count that fits in
///   `u32`.
/// * Size is field 5 if positive, else field 8.
/// * The id is field 1, or the record's index in `records` if field 1 is
///   -1 or negative.
/// * The estimate follows `estimate` and is always at least 1; the run
///   time is at least 0.
/// * The jobs are stably sorted by submit time (SWF files already are).
pub fn to_jobs(records: &[SwfRecord], estimate: Estimate) -> Conversion {
    let mut out = Conversion {
        jobs: Vec::with_capacity(records.len()),
        ..Conversion::default()
    };
    for (index, r) in records.iter().enumerate() {
        let procs = [r.allocated_procs, r.requested_procs]
            .into_iter()
            .flatten()
            .find(|&p| p >= 1)
            .and_then(|p| u32::try_from(p).ok());
        let (Some(procs), Some(submit), Some(run)) = (
            procs,
            r.submit.filter(|&s| s >= 0),
            r.run_time.filter(|&t| t >= 0),
        ) else {
            out.unreplayable += 1;
            continue;
        };
        let id = r
            .job
            .and_then(|j| u64::try_from(j).ok())
            .unwrap_or(index as u64);
        let est = match estimate {
            Estimate::Requested => match r.requested_time {
                Some(t) if t >= 1 => t,
                _ => {
                    out.no_estimate += 1;
                    run
                }
            },
            Estimate::Actual => run,
            // `as` saturates, and maps NaN to 0.
            Estimate::UnderEstimate(x) => (run as f64 * (1.0 - x)).round() as i64,
        };
        out.jobs
            .push(Job::new(id, Time(submit), procs, est.max(1), run));
    }
    out.jobs.sort_by_key(|j| j.submit);
    out
}

/// Drops the jobs whose run time is shorter than `secs` seconds (the
/// "ignore jobs under a minute" filter); returns the rest and how many were
/// dropped.
pub fn drop_shorter_than(mut jobs: Vec<Job>, secs: i64) -> (Vec<Job>, usize) {
    let before = jobs.len();
    jobs.retain(|j| j.run_time >= secs);
    let dropped = before - jobs.len();
    (jobs, dropped)
}

/// The last `n` jobs (all of them if there are fewer), in their order.
pub fn last_n(mut jobs: Vec<Job>, n: usize) -> Vec<Job> {
    let skip = jobs.len().saturating_sub(n);
    jobs.split_off(skip)
}

/// Shifts every submit time (and deadline) so the earliest submit is
/// `Time(0)`.
pub fn rebase(mut jobs: Vec<Job>) -> Vec<Job> {
    let Some(origin) = jobs.iter().map(|j| j.submit.0).min() else {
        return jobs;
    };
    for j in &mut jobs {
        j.submit = Time(j.submit.0.saturating_sub(origin));
        if let Some(d) = &mut j.deadline {
            d.0 = d.0.saturating_sub(origin);
        }
    }
    jobs
}

/// Splits a workload into consecutive windows of `days` days, counted from
/// the earliest submit time: window `k` holds the jobs submitted in
/// `[first + k·days, first + (k+1)·days)`.
///
/// Each window is [`rebase`]d, so its first job is submitted at `Time(0)`.
/// Windows without jobs are left out, so the result's index is not the
/// window number. `days == 0` returns the whole workload as one window.
pub fn split_intervals(jobs: &[Job], days: u32) -> Vec<Vec<Job>> {
    let Some(origin) = jobs.iter().map(|j| j.submit.0).min() else {
        return Vec::new();
    };
    let len = i64::from(days) * DAY;
    if len == 0 {
        return vec![rebase(jobs.to_vec())];
    }
    let mut windows: BTreeMap<i64, Vec<Job>> = BTreeMap::new();
    for j in jobs {
        windows
            .entry(j.submit.0.saturating_sub(origin) / len)
            .or_default()
            .push(j.clone());
    }
    windows.into_values().map(rebase).collect()
}

/// Multiplies the submission rate by `factor`: every inter-arrival gap is
/// divided by `factor` (`factor` 2 doubles the offered load).
///
/// New submit times are computed from the cumulative offset to the earliest
/// submit, `first + round((submit − first) / factor)`, rather than by
/// rounding each gap, so rounding error does not accumulate and the order
/// of jobs is kept. Deadlines move with their job. A factor of 1.0 returns
/// the jobs unchanged, and so (as it has no meaning) does a factor that is
/// not finite and positive.
pub fn scale_load(mut jobs: Vec<Job>, factor: f64) -> Vec<Job> {
    if !(factor.is_finite() && factor > 0.0) {
        return jobs;
    }
    let Some(origin) = jobs.iter().map(|j| j.submit.0).min() else {
        return jobs;
    };
    for j in &mut jobs {
        let offset = j.submit.0.saturating_sub(origin);
        // `as` saturates on overflow.
        let scaled = (offset as f64 / factor).round() as i64;
        j.submit = Time(origin.saturating_add(scaled));
        if let Some(d) = &mut j.deadline {
            d.0 = d.0.saturating_add(scaled.saturating_sub(offset));
        }
    }
    jobs
}

/// Drops the jobs wider than a machine of `capacity` processors; returns
/// the rest and how many were dropped.
pub fn cap_procs(mut jobs: Vec<Job>, capacity: u32) -> (Vec<Job>, usize) {
    let before = jobs.len();
    jobs.retain(|j| j.procs <= capacity);
    let dropped = before - jobs.len();
    (jobs, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extreme_times_do_not_panic() {
        let jobs = vec![
            Job::new(1, Time(i64::MIN), 1, 1, 1),
            Job::new(2, Time(i64::MAX), 1, 1, 1),
        ];
        assert_eq!(rebase(jobs.clone())[1].submit, Time(i64::MAX));
        assert_eq!(split_intervals(&jobs, 1).len(), 2);
        let scaled = scale_load(jobs.clone(), 0.5);
        assert!(scaled[0].submit <= scaled[1].submit);
        assert_eq!(scale_load(jobs.clone(), f64::NAN), jobs);
        let r = SwfRecord {
            submit: Some(0),
            run_time: Some(i64::MAX),
            allocated_procs: Some(1),
            ..Default::default()
        };
        let c = to_jobs(&[r], Estimate::UnderEstimate(-1e300));
        assert_eq!(c.jobs[0].estimate, i64::MAX);
        let c = to_jobs(&[r], Estimate::UnderEstimate(f64::NAN));
        assert_eq!(c.jobs[0].estimate, 1);
    }
}
