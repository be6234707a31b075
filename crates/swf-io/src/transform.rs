//! From SWF records to replayable jobs, and the workload transforms the
//! scheduling papers apply before a replay.
//!
//! Every transform keeps the relative order of the jobs it keeps. No input
//! panics: times that would leave the time domain of [`profile`] are
//! dropped and counted ([`to_jobs`]) or refused ([`scale_load`]), never
//! clamped or wrapped.

use std::collections::{BTreeMap, HashMap, VecDeque};

use profile::{Job, MAX_DURATION, Time};

use crate::error::TransformError;
use crate::record::SwfRecord;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Which run-time estimate a converted job gets.
///
/// With the `serde` feature it is written `"requested"`, `"actual"` or
/// `{ under_estimate = 0.2 }` (in TOML).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Estimate {
    /// The user's requested time (field 9), the default. Where it is
    /// missing (-1) or not positive, the actual run time is used and
    /// counted in [`Conversion::no_estimate`].
    #[default]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Conversion {
    /// Replayable jobs, in non-decreasing submit order.
    pub jobs: Vec<Job>,
    /// Records dropped because they cannot be replayed, those counted in
    /// [`out_of_range`](Self::out_of_range) included.
    pub unreplayable: usize,
    /// Of the unreplayable records, those dropped because a value lies
    /// outside the accepted domain (a submit time above 2^40 s, a run time
    /// or estimate above 2^40 s, a processor count above `u32`).
    pub out_of_range: usize,
    /// Jobs (among those kept) whose estimate fell back to the run time
    /// under [`Estimate::Requested`].
    pub no_estimate: usize,
}

/// Converts SWF records to jobs a scheduler can replay.
///
/// * A record is unreplayable, dropped and counted, when its submit time
///   or run time is -1 or negative, or when neither field 5 (allocated)
///   nor field 8 (requested processors) is a positive count.
/// * It is also dropped, and counted in both [`Conversion::unreplayable`]
///   and [`Conversion::out_of_range`], when a value it would replay with
///   lies outside the time domain of [`profile`]: a submit time above
///   [`Time::LIMIT`] (2^40 s), a run time or an estimate above
///   [`MAX_DURATION`] (2^40 s), a processor count above `u32::MAX`. No
///   value is clamped.
/// * Size is field 5 if positive, else field 8.
/// * The id is field 1. A record whose field 1 is -1 or negative (unknown)
///   gets one past the largest known job number plus its index in
///   `records`: its index when no number is known, and
///   never the number of another job, so every job keeps its own id.
/// * The estimate follows `estimate` and is at least 1 (an
///   under-estimate that rounds to 0 becomes 1); the run time is at least 0.
/// * The jobs are stably sorted by submit time (SWF files already are).
pub fn to_jobs(records: &[SwfRecord], estimate: Estimate) -> Conversion {
    let mut out = Conversion {
        jobs: Vec::with_capacity(records.len()),
        ..Conversion::default()
    };
    let base = unknown_base(records);
    for (index, r) in records.iter().enumerate() {
        match convert(r, index, base, estimate) {
            Converted::Job { job, no_estimate } => {
                out.no_estimate += usize::from(no_estimate);
                out.jobs.push(job);
            }
            Converted::Unreplayable { out_of_range } => {
                out.unreplayable += 1;
                out.out_of_range += usize::from(out_of_range);
            }
        }
    }
    out.jobs.sort_by_key(|j| j.submit);
    out
}

/// What [`to_jobs`] makes of one record.
enum Converted {
    /// A replayable job; `no_estimate` if its estimate fell back to the run
    /// time.
    Job { job: Job, no_estimate: bool },
    /// Dropped; `out_of_range` if a value lies outside the accepted domain.
    Unreplayable { out_of_range: bool },
}

/// The job [`to_jobs`] makes of record `r` at `index`, by its rules, an
/// unknown job number given `base + index` as its id.
#[inline]
fn convert(r: &SwfRecord, index: usize, base: u64, estimate: Estimate) -> Converted {
    let procs = [r.allocated_procs, r.requested_procs]
        .into_iter()
        .flatten()
        .find(|&p| p >= 1);
    let (Some(procs), Some(submit), Some(run)) = (
        procs,
        r.submit.filter(|&s| s >= 0),
        r.run_time.filter(|&t| t >= 0),
    ) else {
        return Converted::Unreplayable {
            out_of_range: false,
        };
    };
    let mut no_estimate = false;
    let est = match estimate {
        Estimate::Requested => match r.requested_time {
            Some(t) if t >= 1 => t,
            _ => {
                no_estimate = true;
                run
            }
        },
        Estimate::Actual => run,
        // `as` saturates, and maps NaN to 0.
        Estimate::UnderEstimate(x) => (run as f64 * (1.0 - x)).round() as i64,
    }
    .max(1);
    let (Ok(procs), true, true, true) = (
        u32::try_from(procs),
        submit <= Time::LIMIT.secs(),
        run <= MAX_DURATION,
        est <= MAX_DURATION,
    ) else {
        return Converted::Unreplayable { out_of_range: true };
    };
    let id = job_id(r, index, base);
    Converted::Job {
        job: Job::new(id, Time(submit), procs, est, run),
        no_estimate,
    }
}

/// The job [`to_jobs`] makes of the record at `index` of a workload whose
/// records all carry a job number (a generated one), or `None` if it drops
/// it: one record at a time, without collecting.
#[inline]
pub(crate) fn to_job(record: &SwfRecord, index: usize, estimate: Estimate) -> Option<Job> {
    match convert(record, index, 0, estimate) {
        Converted::Job { job, .. } => Some(job),
        Converted::Unreplayable { .. } => None,
    }
}

/// The id [`to_jobs`] gives the record at `index`: field 1, or `base +
/// index` if field 1 is -1 or negative (saturating; `base` is
/// [`unknown_base`]'s).
fn job_id(r: &SwfRecord, index: usize, base: u64) -> u64 {
    r.job
        .and_then(|j| u64::try_from(j).ok())
        .unwrap_or_else(|| base.saturating_add(index as u64))
}

/// Where the ids of records without a job number start: one past the
/// largest job number of `records`, 0 if none has one. An id made from it
/// and an index is never another record's job number.
fn unknown_base(records: &[SwfRecord]) -> u64 {
    records
        .iter()
        .filter_map(|r| r.job.and_then(|j| u64::try_from(j).ok()))
        .max()
        .map_or(0, |m| m.saturating_add(1))
}

/// For each job, the index in `records` of the record [`to_jobs`] made it
/// from, so a schedule can be written back with every field of its input.
///
/// A job matches the first record not yet matched with the same id (as
/// `to_jobs` assigns it) and the same submit time. `None` means no record
/// matches: a generated job, or one a transform moved ([`rebase`],
/// [`scale_load`]). Jobs that transforms dropped or reordered do not
/// disturb the others. Linear in `records.len() + jobs.len()`.
pub fn find_records(records: &[SwfRecord], jobs: &[Job]) -> Vec<Option<usize>> {
    let mut by_key: HashMap<(u64, i64), VecDeque<usize>> = HashMap::new();
    let base = unknown_base(records);
    for (index, r) in records.iter().enumerate() {
        if let Some(submit) = r.submit {
            by_key
                .entry((job_id(r, index, base), submit))
                .or_default()
                .push_back(index);
        }
    }
    jobs.iter()
        .map(|j| by_key.get_mut(&(j.id, j.submit.0))?.pop_front())
        .collect()
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
/// the jobs unchanged.
///
/// # Errors
/// A `factor` that is not finite and positive; a job whose submit time or
/// deadline lies outside `[-Time::LIMIT, Time::LIMIT]` (±2^40 s), before
/// or after scaling (a factor of 1e-300 spreads any two distinct submit
/// times beyond it). Nothing is clamped.
pub fn scale_load(mut jobs: Vec<Job>, factor: f64) -> Result<Vec<Job>, TransformError> {
    if !(factor.is_finite() && factor > 0.0) {
        return Err(TransformError::Factor { factor });
    }
    for j in &jobs {
        let times = [("submit time", Some(j.submit)), ("deadline", j.deadline)];
        if let Some((field, Some(t))) = times
            .into_iter()
            .find(|(_, t)| t.is_some_and(|t| !t.in_domain()))
        {
            return Err(TransformError::InputOutOfDomain {
                job: j.id,
                field,
                seconds: t.secs(),
            });
        }
    }
    let Some(origin) = jobs.iter().map(|j| j.submit.0).min() else {
        return Ok(jobs);
    };
    let limit = Time::LIMIT.secs() as f64;
    // Every time is within ±2^40 here, so offsets are at most 2^41 and the
    // sums below are exact in `i64` once the `f64` bound holds.
    let moved = |j: &Job, field: &'static str, t: i64, scaled: f64| {
        let new = t as f64 + scaled;
        if new.abs() <= limit {
            Ok(t + scaled as i64)
        } else {
            Err(TransformError::ScaledOutOfDomain {
                job: j.id,
                field,
                factor,
                seconds: new,
            })
        }
    };
    let mut moves = Vec::with_capacity(jobs.len());
    for j in &jobs {
        let offset = j.submit.0 - origin;
        let scaled = (offset as f64 / factor).round();
        let submit = moved(j, "submit time", origin, scaled)?;
        let deadline = match j.deadline {
            Some(d) => Some(moved(j, "deadline", d.0, scaled - offset as f64)?),
            None => None,
        };
        moves.push((submit, deadline));
    }
    for (j, (submit, deadline)) in jobs.iter_mut().zip(moves) {
        j.submit = Time(submit);
        j.deadline = deadline.map(Time);
    }
    Ok(jobs)
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
        assert_eq!(
            scale_load(jobs.clone(), 0.5),
            Err(TransformError::InputOutOfDomain {
                job: 1,
                field: "submit time",
                seconds: i64::MIN
            })
        );
        assert!(matches!(
            scale_load(jobs, f64::NAN),
            Err(TransformError::Factor { .. })
        ));
    }

    #[test]
    fn out_of_domain_records_are_dropped_and_counted() {
        let rec = |submit: i64, run: i64, procs: i64, requested: i64| SwfRecord {
            submit: Some(submit),
            run_time: Some(run),
            allocated_procs: Some(procs),
            requested_time: Some(requested),
            ..Default::default()
        };
        let (big, max) = (Time::LIMIT.secs() + 1, i64::MAX);
        // (record, estimate, kept, out of range)
        let cases = [
            (rec(0, 10, 1, 20), Estimate::Requested, 1, 0),
            (rec(big, 10, 1, 20), Estimate::Actual, 0, 1),
            (rec(big - 1, 10, 1, 20), Estimate::Actual, 1, 0),
            (rec(0, max, 1, 20), Estimate::Actual, 0, 1),
            (rec(0, 10, 1, max), Estimate::Requested, 0, 1),
            // The requested time does not matter when it is not used.
            (rec(0, 10, 1, max), Estimate::Actual, 1, 0),
            (rec(0, 10, 1 << 40, 20), Estimate::Actual, 0, 1),
            (rec(-5, 10, 1, 20), Estimate::Actual, 0, 0),
            (rec(0, 10, 1, 20), Estimate::UnderEstimate(-1e300), 0, 1),
        ];
        for (r, estimate, kept, out_of_range) in cases {
            let c = to_jobs(&[r], estimate);
            assert_eq!(
                (c.jobs.len(), c.unreplayable, c.out_of_range),
                (kept, 1 - kept, out_of_range),
                "{r:?} {estimate:?}"
            );
        }
        // NaN maps to 0, and estimates are at least 1.
        let c = to_jobs(&[rec(0, 10, 1, 20)], Estimate::UnderEstimate(f64::NAN));
        assert_eq!(c.jobs[0].estimate, 1);
    }

    #[test]
    fn scale_load_stays_in_the_time_domain() {
        let limit = Time::LIMIT.secs();
        let jobs = vec![
            Job::new(1, Time(0), 1, 1, 1),
            Job::new(2, Time(1000), 1, 1, 1).with_deadline(Time(2000)),
        ];
        let scaled = scale_load(jobs.clone(), 2.0).unwrap();
        assert_eq!(scaled[1].submit, Time(500));
        assert_eq!(scaled[1].deadline, Some(Time(1500)));
        assert_eq!(scale_load(jobs.clone(), 1.0).unwrap(), jobs);
        for factor in [1e-300, 1e-10] {
            let e = scale_load(jobs.clone(), factor).unwrap_err();
            assert!(
                matches!(
                    e,
                    TransformError::ScaledOutOfDomain {
                        job: 2,
                        field: "submit time",
                        ..
                    }
                ),
                "{e:?}"
            );
        }
        // 1e14 squeezes everything onto the first submit: in the domain.
        let squeezed = scale_load(jobs.clone(), 1e14).unwrap();
        assert!(squeezed.iter().all(|j| j.submit == Time(0)));
        assert_eq!(squeezed[1].deadline, Some(Time(1000)));
        // A deadline pushed past the edge is refused too.
        let edge = vec![
            Job::new(1, Time(0), 1, 1, 1),
            Job::new(2, Time(10), 1, 1, 1).with_deadline(Time(limit - 5)),
        ];
        assert!(matches!(
            scale_load(edge, 0.5),
            Err(TransformError::ScaledOutOfDomain {
                field: "deadline",
                ..
            })
        ));
        for factor in [0.0, -1.0, f64::INFINITY, f64::NAN] {
            assert!(matches!(
                scale_load(jobs.clone(), factor),
                Err(TransformError::Factor { .. })
            ));
        }
        assert_eq!(scale_load(Vec::new(), 1e-300), Ok(Vec::new()));
    }

    #[test]
    fn records_found_by_id_and_submit() {
        let rec = |job: Option<i64>, submit: i64, run: Option<i64>| SwfRecord {
            job,
            submit: Some(submit),
            run_time: run,
            allocated_procs: Some(1),
            ..Default::default()
        };
        let records = [
            rec(Some(10), 5, Some(1)),
            rec(Some(11), 3, None),    // unreplayable
            rec(None, 7, Some(1)),     // id = 13 (past 12) + index 2
            rec(Some(10), 5, Some(2)), // repeated id and submit
            rec(Some(12), 1, Some(1)),
        ];
        let jobs = to_jobs(&records, Estimate::Actual).jobs;
        assert_eq!(
            jobs.iter().map(|j| j.id).collect::<Vec<_>>(),
            [12, 10, 10, 15]
        );
        assert_eq!(
            find_records(&records, &jobs),
            [Some(4), Some(0), Some(3), Some(2)]
        );
        // A moved job matches nothing; the others still match.
        let moved = rebase(jobs.clone());
        assert!(find_records(&records, &moved).iter().all(Option::is_none));
        assert_eq!(
            find_records(&records, &jobs[1..]),
            [Some(0), Some(3), Some(2)]
        );
    }

    /// A record without a job number never takes another job's number: its
    /// index would (`[1, -1]` gave two jobs of id 1, which `profile`'s
    /// entry points refuse), so it counts on from past the largest number.
    #[test]
    fn an_unknown_job_number_never_takes_another_jobs() {
        let rec = |job: Option<i64>, submit: i64| SwfRecord {
            job,
            submit: Some(submit),
            run_time: Some(10),
            allocated_procs: Some(1),
            ..Default::default()
        };
        let ids = |records: &[SwfRecord]| -> Vec<u64> {
            to_jobs(records, Estimate::Actual)
                .jobs
                .iter()
                .map(|j| j.id)
                .collect()
        };
        let mixed = [
            rec(Some(1), 0),
            rec(None, 1),
            rec(Some(-1), 2),
            rec(Some(0), 3),
        ];
        assert_eq!(ids(&mixed), [1, 3, 4, 0]);
        let jobs = to_jobs(&mixed, Estimate::Actual).jobs;
        assert_eq!(profile::repeated_id(jobs.iter().map(|j| j.id)), None);
        assert_eq!(
            find_records(&mixed, &jobs),
            [Some(0), Some(1), Some(2), Some(3)]
        );
        // No number known: the index, as before.
        assert_eq!(ids(&[rec(None, 0), rec(None, 1)]), [0, 1]);
        // The largest number possible: the unknown ones past it, distinct.
        let top = [rec(Some(i64::MAX), 0), rec(None, 1), rec(None, 2)];
        let got = ids(&top);
        assert_eq!(got[0], i64::MAX as u64);
        assert_eq!(profile::repeated_id(got.into_iter()), None);
    }
}
