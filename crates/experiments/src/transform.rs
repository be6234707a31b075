//! Workload transforms: filters on SWF records, then changes to jobs.

use serde::{Deserialize, Serialize};

/// A workload transform, written as a one-key table: `{ last_n = 10000 }`.
///
/// The *filters* (`keep_status`, `min_procs`, `max_procs`,
/// `min_requested_time`, `max_requested_time`, `job_ids`) read SWF fields,
/// so they select trace records before the records become jobs: a record
/// they remove counts as transformed away, and only the records they keep
/// can count as unreplayable. A record whose field is missing (-1) fails a
/// bound on that field. Filters come before every other transform in the
/// list; the others act on the replayable jobs, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Transform {
    /// Drop jobs that ran for fewer seconds than this.
    DropShorterThan(i64),
    /// Keep only the last `n` jobs.
    LastN(usize),
    /// Multiply the offered load (compress inter-arrival times).
    ScaleLoad(f64),
    /// Filter: keep the records whose status (SWF field 11) is one of
    /// these; -1 is a missing status, 1 a completed job.
    KeepStatus(Vec<i64>),
    /// Filter: keep the records of at least this many processors (field 5
    /// if positive, else field 8: the size a job is replayed with).
    MinProcs(u32),
    /// Filter: keep the records of at most this many processors (as
    /// `MinProcs` reads them).
    MaxProcs(u32),
    /// Filter: keep the records whose requested time (field 9) is at least
    /// this many seconds.
    MinRequestedTime(i64),
    /// Filter: keep the records whose requested time (field 9) is at most
    /// this many seconds.
    MaxRequestedTime(i64),
    /// Filter: keep the records whose job number (field 1) lies in
    /// `[first, last]`, both included.
    JobIds([i64; 2]),
}

impl Transform {
    /// Whether this is a filter on SWF records (see [`Transform`]).
    pub(crate) fn is_filter(&self) -> bool {
        !matches!(
            self,
            Transform::DropShorterThan(_) | Transform::LastN(_) | Transform::ScaleLoad(_)
        )
    }

    /// The key it is written with, for messages.
    fn key(&self) -> &'static str {
        match self {
            Transform::DropShorterThan(_) => "drop_shorter_than",
            Transform::LastN(_) => "last_n",
            Transform::ScaleLoad(_) => "scale_load",
            Transform::KeepStatus(_) => "keep_status",
            Transform::MinProcs(_) => "min_procs",
            Transform::MaxProcs(_) => "max_procs",
            Transform::MinRequestedTime(_) => "min_requested_time",
            Transform::MaxRequestedTime(_) => "max_requested_time",
            Transform::JobIds(_) => "job_ids",
        }
    }

    /// What is wrong with this transform's value, if anything.
    fn problem(&self) -> Option<String> {
        let expected = match self {
            Transform::ScaleLoad(f) if !(f.is_finite() && *f > 0.0) => "a positive factor",
            Transform::LastN(0) => "at least 1 job",
            Transform::DropShorterThan(s) if *s < 0 => "seconds >= 0",
            Transform::KeepStatus(list) if list.is_empty() => {
                "at least one status: [1] keeps the completed jobs"
            }
            Transform::KeepStatus(list) if list.iter().any(|s| !(-1..=5).contains(s)) => {
                "SWF statuses: -1 (missing), 0 (failed), 1 (completed), 2 to 4 (partial), 5 (cancelled)"
            }
            Transform::MinProcs(0) | Transform::MaxProcs(0) => "at least 1 processor",
            Transform::MinRequestedTime(s) | Transform::MaxRequestedTime(s) if *s < 0 => {
                "seconds >= 0"
            }
            Transform::JobIds([first, last]) if !(0 <= *first && first <= last) => {
                "[first, last] job numbers with 0 <= first <= last"
            }
            _ => return None,
        };
        Some(format!(
            "{} = {} is out of range, expected {expected}",
            self.key(),
            self.value()
        ))
    }

    /// The value as written in TOML.
    fn value(&self) -> String {
        let list = |v: &[i64]| {
            let items: Vec<String> = v.iter().map(i64::to_string).collect();
            format!("[{}]", items.join(", "))
        };
        match self {
            Transform::DropShorterThan(v)
            | Transform::MinRequestedTime(v)
            | Transform::MaxRequestedTime(v) => v.to_string(),
            Transform::LastN(n) => n.to_string(),
            Transform::ScaleLoad(f) => format!("{f:?}"),
            Transform::KeepStatus(v) => list(v),
            Transform::MinProcs(n) | Transform::MaxProcs(n) => n.to_string(),
            Transform::JobIds(range) => list(range),
        }
    }

    /// Checks one workload's transforms: every value in range, and the
    /// filters before every other transform. The error gives the position
    /// of the transform at fault.
    pub(crate) fn check_each(transforms: &[Transform]) -> Result<(), (usize, String)> {
        if let Some((i, problem)) = transforms
            .iter()
            .enumerate()
            .find_map(|(i, t)| Some((i, t.problem()?)))
        {
            return Err((i, format!("transform {problem}")));
        }
        if let Some(first_job) = transforms.iter().position(|t| !t.is_filter())
            && let Some(k) = transforms[first_job..]
                .iter()
                .position(Transform::is_filter)
        {
            return Err((
                first_job + k,
                format!(
                    "transform {} filters trace records, so it must come before {}: \
                     move the filters to the front of `transforms`",
                    transforms[first_job + k].key(),
                    transforms[first_job].key()
                ),
            ));
        }
        Ok(())
    }
}
