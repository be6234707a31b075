//! What one backfilling run measures beyond `profile::ScheduleStats`:
//! percentiles of wait and bounded slowdown, and means by job width, over
//! the jobs left after the warm-up and cool-down exclusion.

use profile::{Job, Outcome, ScheduleStats, Status, Violation};

/// The sample of one backfilling run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measures {
    /// Job metrics (means, `killed`) over the measured jobs; schedule
    /// metrics (`jobs`, `utilization`, `makespan`) over the whole run.
    pub stats: ScheduleStats,
    /// Jobs measured: those outside the warm-up and cool-down.
    pub measured: usize,
    /// Waits in seconds of the measured jobs that ran, ascending.
    pub waits: Quantiles,
    /// Bounded slowdowns of the measured jobs that ran, ascending.
    pub bslds: Quantiles,
    /// Measured jobs of at most `narrow_procs` processors.
    pub narrow: Class,
    /// Measured jobs of more than `narrow_procs` processors.
    pub wide: Class,
}

/// Percentiles of a set of values.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Quantiles {
    /// The values, ascending.
    sorted: Vec<f64>,
}

impl Quantiles {
    fn new(mut values: Vec<f64>) -> Self {
        values.sort_by(f64::total_cmp);
        Quantiles { sorted: values }
    }

    /// The `p`-th percentile (`p` in [0, 100]) by linear interpolation
    /// between the closest ranks, as `numpy.percentile` computes it by
    /// default (type 7 of Hyndman and Fan): rank `h = (n − 1)·p/100`, value
    /// `v[⌊h⌋] + (h − ⌊h⌋)·(v[⌊h⌋ + 1] − v[⌊h⌋])`. `None` without values.
    pub fn percentile(&self, p: f64) -> Option<f64> {
        let v = &self.sorted;
        let last = v.len().checked_sub(1)?;
        let h = last as f64 * p / 100.0;
        let lo = (h.floor() as usize).min(last);
        let hi = (lo + 1).min(last);
        Some(v[lo] + (h - lo as f64) * (v[hi] - v[lo]))
    }
}

/// Mean wait and bounded slowdown of one width class.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Class {
    /// Jobs of the class that ran.
    pub ran: usize,
    wait: f64,
    bsld: f64,
}

impl Class {
    fn add(&mut self, wait: f64, bsld: f64) {
        self.ran += 1;
        self.wait += wait;
        self.bsld += bsld;
    }

    /// Mean wait in seconds; `None` for a class without a job that ran.
    pub fn mean_wait(&self) -> Option<f64> {
        (self.ran > 0).then(|| self.wait / self.ran as f64)
    }

    /// Mean bounded slowdown; `None` for a class without a job that ran.
    pub fn mean_bsld(&self) -> Option<f64> {
        (self.ran > 0).then(|| self.bsld / self.ran as f64)
    }
}

/// Which jobs count and how they are split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    /// The first jobs (in submit order) left out.
    pub warmup: usize,
    /// The last jobs (in submit order) left out.
    pub cooldown: usize,
    /// The widest narrow job, processors.
    pub narrow_procs: u32,
    /// Bounded-slowdown threshold, seconds.
    pub bound: i64,
}

impl Window {
    /// The measured range of `n` jobs; `None` when the exclusion leaves none.
    pub fn range(&self, n: usize) -> Option<std::ops::Range<usize>> {
        let end = n.checked_sub(self.cooldown)?;
        (self.warmup < end).then_some(self.warmup..end)
    }

    /// Everything one run measures. `jobs` are in submit order, and
    /// `outcomes[i]` belongs to `jobs[i]`; `capacity` is the machine's size.
    /// `None` when the exclusion leaves no job; the error of
    /// [`ScheduleStats::compute`] when the outcomes do not pair with the jobs.
    pub fn measure(
        &self,
        jobs: &[Job],
        outcomes: &[Outcome],
        capacity: u32,
    ) -> Result<Option<Measures>, Violation> {
        let whole = ScheduleStats::compute(jobs, outcomes, capacity, self.bound)?;
        let Some(range) = self.range(jobs.len()) else {
            return Ok(None);
        };
        let stats = if range.len() == jobs.len() {
            whole
        } else {
            let part = ScheduleStats::compute(
                &jobs[range.clone()],
                &outcomes[range.clone()],
                capacity,
                self.bound,
            )?;
            let mut stats = whole;
            stats.completed = part.completed;
            stats.killed = part.killed;
            stats.dropped = part.dropped;
            stats.mean_wait = part.mean_wait;
            stats.mean_bounded_slowdown = part.mean_bounded_slowdown;
            stats
        };
        let (mut waits, mut bslds) = (Vec::new(), Vec::new());
        let (mut narrow, mut wide) = (Class::default(), Class::default());
        for (job, out) in jobs[range.clone()].iter().zip(&outcomes[range.clone()]) {
            if out.status == Status::Dropped {
                continue;
            }
            let (wait, bsld) = (out.wait(job) as f64, out.bounded_slowdown(job, self.bound));
            waits.push(wait);
            bslds.push(bsld);
            let class = if job.procs <= self.narrow_procs {
                &mut narrow
            } else {
                &mut wide
            };
            class.add(wait, bsld);
        }
        Ok(Some(Measures {
            stats,
            measured: range.len(),
            waits: Quantiles::new(waits),
            bslds: Quantiles::new(bslds),
            narrow,
            wide,
        }))
    }
}

#[cfg(test)]
mod tests {
    use profile::Time;

    use super::*;

    fn check(values: &[f64], p: f64, expected: Option<f64>) {
        assert_eq!(
            Quantiles::new(values.to_vec()).percentile(p),
            expected,
            "{values:?} p{p}"
        );
    }

    #[test]
    fn percentiles_interpolate_as_numpy_does() {
        check(&[], 50.0, None);
        check(&[7.0], 99.0, Some(7.0));
        check(&[4.0, 1.0, 3.0, 2.0], 50.0, Some(2.5));
        check(&[1.0, 2.0, 3.0, 4.0], 0.0, Some(1.0));
        check(&[1.0, 2.0, 3.0, 4.0], 100.0, Some(4.0));
        // numpy.percentile([0, 10, 20, ..., 100], 90) = 90; p99 of 0..=100 is 99.
        let tens: Vec<f64> = (0..=10).map(|i| f64::from(i) * 10.0).collect();
        check(&tens, 90.0, Some(90.0));
        let hundred: Vec<f64> = (0..=100).map(f64::from).collect();
        check(&hundred, 99.0, Some(99.0));
        check(&[0.0, 10.0], 25.0, Some(2.5));
    }

    fn run(id: u64, submit: i64, procs: u32, start: i64, run: i64) -> (Job, Outcome) {
        (
            Job::new(id, Time(submit), procs, run, run),
            Outcome {
                id,
                start: Time(start),
                end: Time(start + run),
                status: Status::Completed,
            },
        )
    }

    #[test]
    fn the_window_excludes_the_first_and_last_jobs_and_splits_by_width() {
        let (jobs, outcomes): (Vec<Job>, Vec<Outcome>) = [
            run(1, 0, 1, 100, 50),
            run(2, 0, 8, 10, 50),
            run(3, 0, 9, 20, 50),
            run(4, 0, 64, 1000, 50),
        ]
        .into_iter()
        .unzip();
        let window = Window {
            warmup: 1,
            cooldown: 1,
            narrow_procs: 8,
            bound: 10,
        };
        let m = window.measure(&jobs, &outcomes, 64).unwrap().unwrap();
        assert_eq!(m.measured, 2);
        assert_eq!(m.stats.mean_wait, 15.0);
        assert_eq!(m.stats.jobs, 4);
        assert_eq!(m.stats.makespan, 1050);
        assert_eq!(
            (m.narrow.mean_wait(), m.wide.mean_wait()),
            (Some(10.0), Some(20.0))
        );
        assert_eq!(m.waits.percentile(50.0), Some(15.0));
        let all = Window {
            warmup: 0,
            cooldown: 0,
            ..window
        };
        let m = all.measure(&jobs, &outcomes, 64).unwrap().unwrap();
        assert_eq!(
            m.stats,
            ScheduleStats::compute(&jobs, &outcomes, 64, 10).unwrap()
        );
        assert_eq!(m.narrow.ran, 2);
        assert!(
            Window {
                warmup: 2,
                cooldown: 2,
                ..window
            }
            .measure(&jobs, &outcomes, 64)
            .unwrap()
            .is_none()
        );
    }
}
