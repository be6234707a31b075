//! Compression's question, answered without changing the profile: could a
//! waiting job's reservation move earlier, and where to?

use crate::{Profile, Time};

/// The answer of [`Runs::earlier_start`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Earlier {
    /// No instant before the reservation has `procs` free.
    NoRoom,
    /// Some instant has, but no window fits: the reservation stays.
    Stays,
    /// The earliest start, before the reservation's.
    At(Time),
}

/// The runs of free capacity of one profile, per width, for a compression
/// pass: the jobs it looks at share widths, and between two moves the
/// profile does not change, so each width's runs are found once, and only
/// as far as a question needs them.
///
/// It answers for the profile it was last [`clear`](Runs::clear)ed with;
/// clear it whenever that profile changes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Runs {
    from: Time,
    /// The index of the step holding `from`.
    first: usize,
    /// The widths asked about since the last clear (`..used`), and spare
    /// ones whose vectors are kept for reuse.
    widths: Vec<WidthRuns>,
    used: usize,
}

/// The runs of steps with at least `procs` free found so far.
#[derive(Clone, Debug, Default)]
struct WidthRuns {
    procs: u32,
    /// `(start, end)` in time order, the first clipped to `from`; the last
    /// ends at [`Time::MAX`] if it reaches the last step.
    runs: Vec<(Time, Time)>,
    /// The step where the search for the next run resumes.
    next: usize,
    /// Every run is in `runs`.
    done: bool,
}

impl WidthRuns {
    /// Finds the next run if it starts before `at`; `false` if there is no
    /// such run (a later `at` may still find one).
    fn find(&mut self, steps: &[(Time, u32)], from: Time, first: usize, at: Time) -> bool {
        let procs = self.procs;
        // Skip the steps without room, up to `at`.
        let Some(k) = steps[self.next..]
            .iter()
            .position(|s| s.1 >= procs || s.0 >= at)
        else {
            self.done = true;
            return false;
        };
        let run = self.next + k;
        self.next = run;
        let start = if run == first { from } else { steps[run].0 };
        if start >= at {
            return false;
        }
        // Then the steps with room.
        match steps[run + 1..].iter().position(|s| s.1 < procs) {
            Some(len) => {
                self.next = run + 1 + len;
                self.runs.push((start, steps[self.next].0));
            }
            None => {
                self.runs.push((start, Time::MAX));
                self.done = true;
            }
        }
        true
    }
}

impl Runs {
    /// Forgets everything: the next questions are about `profile` as it is
    /// now, from `from` (at or after its origin) on.
    pub(crate) fn clear(&mut self, profile: &Profile, from: Time) {
        self.from = from;
        self.first = profile.index_of(from);
        self.used = 0;
    }

    /// Where a reservation of `procs` processors over `[at, at + duration)`,
    /// already in `profile`, could move if it were lifted and placed again
    /// at its earliest start after `from` (`from < at`).
    ///
    /// Lifting it frees at least `procs` processors everywhere in
    /// `[at, at + duration)`, so a start `s < at` fits exactly when `procs`
    /// are free (reservation still in place) over `[s, min(s + duration, at))`:
    /// in a run of steps with room that either lasts `duration` or reaches
    /// `at`. The same answer as [`Profile::release`] followed by
    /// [`Profile::earliest_start`], with nothing lifted or re-reserved.
    pub(crate) fn earlier_start(
        &mut self,
        profile: &Profile,
        procs: u32,
        duration: i64,
        at: Time,
    ) -> Earlier {
        debug_assert!(profile.origin() <= self.from && self.from < at);
        debug_assert!(procs > 0 && duration > 0);
        let (from, first) = (self.from, self.first);
        let width = match self.widths[..self.used]
            .iter()
            .position(|w| w.procs == procs)
        {
            Some(i) => &mut self.widths[i],
            None => {
                if self.used == self.widths.len() {
                    self.widths.push(WidthRuns::default());
                }
                let w = &mut self.widths[self.used];
                self.used += 1;
                w.procs = procs;
                w.runs.clear();
                w.next = first;
                w.done = false;
                w
            }
        };
        let steps = profile.steps();
        let mut room = false;
        let mut k = 0;
        loop {
            if k == width.runs.len() && (width.done || !width.find(steps, from, first, at)) {
                break;
            }
            let (start, end) = width.runs[k];
            if start >= at {
                break;
            }
            room = true;
            if end >= at || end - start >= duration {
                return Earlier::At(start);
            }
            k += 1;
        }
        if room {
            Earlier::Stays
        } else {
            Earlier::NoRoom
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;

    use super::*;

    const CAP: u32 = 8;

    /// What compression did before [`Runs`]: lift the reservation, place the
    /// job at its earliest start, and tell from `max_free` whether it was
    /// re-placed at all.
    fn lifted(p: &Profile, from: Time, procs: u32, duration: i64, at: Time) -> Earlier {
        let mut q = p.clone();
        q.release(at, duration, procs).unwrap();
        match q.earliest_start(from, procs, duration) {
            Some(s) if s < at => Earlier::At(s),
            _ if p.max_free(from, at) >= procs => Earlier::Stays,
            _ => Earlier::NoRoom,
        }
    }

    /// Places `rects` (start, duration, procs) at their earliest starts, then
    /// compresses `jobs` (procs, duration) placed after them, in order, from
    /// `from`: every answer of [`Runs`] must be the lifted one, and every
    /// move the same profile as a release and a reserve.
    fn check_compression(
        rects: &[(i64, i64, u32)],
        jobs: &[(u32, i64)],
        from: i64,
    ) -> Result<(), TestCaseError> {
        let mut p = Profile::new(CAP, Time(0));
        let rects: Vec<(Time, i64, u32)> = rects
            .iter()
            .map(|&(s, d, n)| {
                let s = p.earliest_start(Time(s), n, d).unwrap();
                p.reserve(s, d, n).unwrap();
                (s, d, n)
            })
            .collect();
        let mut placed: Vec<(Time, u32, i64)> = jobs
            .iter()
            .map(|&(n, d)| {
                let s = p.earliest_start(Time(0), n, d).unwrap();
                p.reserve(s, d, n).unwrap();
                (s, n, d)
            })
            .collect();
        // Free the first rectangle as a job ending early would.
        if let Some(&(s, d, n)) = rects.first() {
            p.release(s, d, n).unwrap();
        }
        let from = Time(from);
        p.advance(from);
        let mut runs = Runs::default();
        runs.clear(&p, from);
        for job in &mut placed {
            let (at, procs, duration) = *job;
            if at <= from {
                continue;
            }
            let want = lifted(&p, from, procs, duration, at);
            prop_assert_eq!(runs.earlier_start(&p, procs, duration, at), want);
            if let Earlier::At(s) = want {
                let mut q = p.clone();
                q.release(at, duration, procs).unwrap();
                q.reserve(s, duration, procs).unwrap();
                p.shift_earlier(at, s, duration, procs);
                prop_assert_eq!(&p, &q);
                runs.clear(&p, from);
                job.0 = s;
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(crate::testing::proptest_config(2000))]

        #[test]
        fn runs_answer_as_lifting_and_placing_again(
            rects in prop::collection::vec((0..40i64, 1..30i64, 1..=CAP), 0..8),
            jobs in prop::collection::vec((1..=CAP, 1..30i64), 1..12),
            from in 0..20i64,
        ) {
            check_compression(&rects, &jobs, from)?;
        }
    }

    #[test]
    fn a_run_reaching_the_reservation_holds_a_job_longer_than_it() {
        // 8 procs: 2 free on [0, 10), 8 free on [10, 20), the job's own
        // reservation of 4 procs on [20, 50).
        let mut p = Profile::new(8, Time(0));
        p.reserve(Time(0), 10, 6).unwrap();
        p.reserve(Time(20), 30, 4).unwrap();
        let mut runs = Runs::default();
        runs.clear(&p, Time(0));
        assert_eq!(
            runs.earlier_start(&p, 4, 30, Time(20)),
            Earlier::At(Time(10))
        );
        // 6 procs never fit before 10, and the run from 10 ends before a
        // whole 30 s window yet reaches the reservation: it moves to 10.
        assert_eq!(
            runs.earlier_start(&p, 6, 30, Time(20)),
            Earlier::At(Time(10))
        );
        assert_eq!(runs.earlier_start(&p, 6, 30, Time(5)), Earlier::NoRoom);
        assert_eq!(
            runs.earlier_start(&p, 2, 30, Time(20)),
            Earlier::At(Time(0))
        );
    }
}
