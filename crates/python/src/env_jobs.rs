//! The jobs of the scheduling environment, read from a trace as SchedGym
//! reads it, with what the observation needs of each computed once; and
//! the allocation-free stable sort the environment orders its queue with.

/// Waits are normalised by 12 hours (SchedGym's `MAX_WAIT_TIME`).
pub(crate) const MAX_WAIT: f64 = 12.0 * 3600.0;
/// The largest normalised value (SchedGym keeps features below 1).
pub(crate) const TOP: f64 = 1.0 - 1e-5;

/// One job as the environment sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EnvJob {
    pub(crate) submit: i64,
    pub(crate) run: i64,
    /// The requested time: what the agent sees and backfilling trusts
    /// (−1 where the trace gives neither it nor a run time).
    pub(crate) request: i64,
    pub(crate) procs: u32,
    /// Requested memory, user, group and executable (−1: missing).
    pub(crate) extra: [i64; 4],
    /// SchedGym's F1 and F2 scores (they order ties when more jobs wait
    /// than rows show), computed once.
    pub(crate) f1: f64,
    pub(crate) f2: f64,
    /// The observation's features that do not change while the job waits
    /// (requested time, processors and the four extras), computed once: a
    /// row is the wait, these, and whether the job fits now.
    pub(crate) fixed: [f32; 6],
    /// The job's rank in each order the queue is sorted by (see
    /// [`ranked`]): submit time, the SJF key, processors and submit time.
    pub(crate) ranks: [u32; 3],
}

impl EnvJob {
    /// Fills in the scores from the other fields.
    pub(crate) fn scored(mut self) -> EnvJob {
        let log = |x: i64| {
            if x > 0 {
                (x as f64).log10()
            } else {
                0.1f64.log10()
            }
        };
        self.f1 = log(self.request) * f64::from(self.procs) + 870.0 * log(self.submit);
        let submit = if self.submit > 0 {
            (self.submit as f64).log10()
        } else if self.submit == 0 {
            f64::NEG_INFINITY
        } else {
            f64::NAN
        };
        self.f2 = (self.request as f64).sqrt() * f64::from(self.procs) + 25600.0 * submit;
        self
    }

    /// Fills in [`EnvJob::fixed`]: features 1 to 6 of the job's row,
    /// normalised by the trace's maxima `max` and the machine's `capacity`.
    pub(crate) fn fixed_features(mut self, max: &[f64; 5], capacity: u32) -> EnvJob {
        let f = &mut self.fixed;
        // Non-negative for the Box (SchedGym lets −1 through).
        f[0] = norm(self.request as f64, max[0]).max(0.0) as f32;
        f[1] = norm(f64::from(self.procs), f64::from(capacity)) as f32;
        for (k, &e) in self.extra.iter().enumerate() {
            f[2 + k] = if e == -1 || max[1 + k] <= 0.0 {
                1.0
            } else {
                norm(e as f64, max[1 + k]).max(0.0) as f32
            };
        }
        self
    }
}

/// Sorts `queue` stably by `rank` (a job's rank in some order, see
/// [`EnvJob::ranks`]), as `sort_by_key` does, without its allocation: an
/// unstable sort of `rank << 32 | position` in `keys`, so ties keep their
/// order; `copy` holds the queue meanwhile.
pub(crate) fn sort_stably(
    queue: &mut Vec<usize>,
    keys: &mut Vec<u64>,
    copy: &mut Vec<usize>,
    rank: impl Fn(usize) -> u32,
) {
    keys.clear();
    keys.extend(
        queue
            .iter()
            .enumerate()
            .map(|(pos, &j)| (u64::from(rank(j)) << 32) | pos as u64),
    );
    keys.sort_unstable();
    copy.clear();
    copy.extend_from_slice(queue);
    queue.clear();
    queue.extend(keys.iter().map(|&k| copy[(k & 0xffff_ffff) as usize]));
}

/// The orders the environment sorts its queue by (SchedGym's): submit
/// time; the SJF key (requested time, submit) with ties by F2 then F1;
/// processors then submit time.
fn compare(order: usize, a: &EnvJob, b: &EnvJob) -> std::cmp::Ordering {
    match order {
        0 => a.submit.cmp(&b.submit),
        1 => (a.request, a.submit)
            .cmp(&(b.request, b.submit))
            .then(a.f2.total_cmp(&b.f2))
            .then(a.f1.total_cmp(&b.f1)),
        _ => (a.procs, a.submit).cmp(&(b.procs, b.submit)),
    }
}

/// Fills in every job's [`EnvJob::ranks`]: its dense rank (equal keys,
/// equal ranks) in each of the three orders, over the whole job list.
pub(crate) fn ranked(mut jobs: Vec<EnvJob>) -> Vec<EnvJob> {
    let mut by: Vec<usize> = (0..jobs.len()).collect();
    for order in 0..3 {
        by.sort_by(|&a, &b| compare(order, &jobs[a], &jobs[b]));
        let mut rank = 0u32;
        for w in 0..by.len() {
            if w > 0 && compare(order, &jobs[by[w - 1]], &jobs[by[w]]).is_ne() {
                rank += 1;
            }
            jobs[by[w]].ranks[order] = rank;
        }
    }
    jobs
}

/// `value / max`, kept below 1 (SchedGym's normalisation).
pub(crate) fn norm(value: f64, max: f64) -> f64 {
    (value / max).min(TOP)
}

/// Jobs with their job numbers, and the maxima of [`schedgym_jobs`].
pub(crate) type SchedGymJobs = (Vec<(i64, EnvJob)>, [f64; 5]);

/// The jobs as SchedGym reads a trace, and the maxima it normalises by
/// (over every record, before repairs): run time, then the four extras.
/// `load`'s range checks hold here too: a record is dropped, as `load`
/// drops it, when a time it would replay with lies outside the
/// simulator's domain (a submit time beyond ±2^40 s, a run or requested
/// time above 2^40 s) or when it is wider than the machine of `capacity`
/// processors (SchedGym's count, the larger of the allocated and
/// requested ones). So no arithmetic on its times can overflow.
pub(crate) fn schedgym_jobs(records: &[swf_io::SwfRecord], capacity: u32) -> SchedGymJobs {
    let mut max = [0f64; 5];
    let mut jobs = Vec::new();
    for r in records {
        let v = |x: Option<i64>| x.unwrap_or(-1);
        let raw_run = v(r.run_time);
        let extra = [
            r.requested_memory.map_or(-1, |m| m as i64),
            v(r.user),
            v(r.group),
            v(r.executable),
        ];
        max[0] = max[0].max(raw_run as f64);
        for (m, e) in max[1..].iter_mut().zip(extra) {
            *m = m.max(e as f64);
        }
        let request = match v(r.requested_time) {
            -1 => raw_run,
            t => t,
        };
        let run = if raw_run < 0 { 10 } else { raw_run };
        if run <= 0 {
            continue;
        }
        let procs = v(r.allocated_procs).max(v(r.requested_procs)).max(0);
        let submit = v(r.submit);
        let limit = profile::Time::LIMIT.secs();
        if procs > i64::from(capacity)
            || !(-limit..=limit).contains(&submit)
            || run > profile::MAX_DURATION
            || request > profile::MAX_DURATION
        {
            continue;
        }
        jobs.push((
            v(r.job),
            EnvJob {
                submit,
                run,
                request,
                procs: u32::try_from(procs).unwrap_or(capacity),
                extra,
                f1: 0.0,
                f2: 0.0,
                fixed: [0.0; 6],
                ranks: [0; 3],
            },
        ));
    }
    jobs.sort_by_key(|(id, _)| *id);
    (jobs, max)
}
