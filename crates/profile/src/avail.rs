//! The availability profile: free processors as a step function of time.

use std::fmt;

use crate::Time;

/// The length of `[from, to)` for `from <= to`, exact over all of `i64`
/// (it may exceed `i64::MAX`); as cheap as a plain subtraction.
#[inline]
fn span(from: Time, to: Time) -> u64 {
    debug_assert!(from <= to);
    to.0.wrapping_sub(from.0) as u64
}

/// A free time slot: `procs` processors free over `[start, end)`.
///
/// [`Profile::free_slots`] returns the maximal such rectangles, so every free
/// (processor, instant) pair below the horizon lies in at least one slot and
/// no slot can grow in time or width without covering busy capacity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FreeSlot {
    /// First free instant.
    pub start: Time,
    /// End of the slot (exclusive); the horizon if the slot reaches it.
    pub end: Time,
    /// Processors free over the whole slot.
    pub procs: u32,
}

/// A reservation or release that the profile cannot honour.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProfileError {
    /// Reserving `procs` over the window would take free capacity below zero.
    Overcommit {
        /// Start of the offending window.
        start: Time,
        /// End of the offending window.
        end: Time,
        /// Processors asked for.
        procs: u32,
        /// The least free capacity in the window.
        free: u32,
    },
    /// Steps given to [`Profile::from_steps`] that describe no profile.
    InvalidSteps {
        /// The index of the first offending step (0 when there is none).
        index: usize,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// Releasing would raise free capacity above the machine size.
    OverRelease {
        /// Start of the offending window.
        start: Time,
        /// End of the offending window.
        end: Time,
        /// Processors released.
        procs: u32,
        /// Machine size.
        capacity: u32,
    },
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::Overcommit {
                start,
                end,
                procs,
                free,
            } => write!(
                f,
                "cannot reserve {procs} processors over [{start}, {end}): only {free} free there"
            ),
            ProfileError::InvalidSteps { index, problem } => {
                write!(f, "step {index} of the profile: {problem}")
            }
            ProfileError::OverRelease {
                start,
                end,
                procs,
                capacity,
            } => write!(
                f,
                "cannot release {procs} processors over [{start}, {end}): that would exceed the {capacity} processors of the machine; release only what was reserved"
            ),
        }
    }
}

impl std::error::Error for ProfileError {}

/// Free processors of a machine of `capacity` processors as a step function
/// of future time (Mu'alem & Feitelson's availability profile).
///
/// Stored as a sorted vector of steps `(t_i, free_i)`: `free_i` processors are
/// free on `[t_i, t_{i+1})` and the last step extends forever. Adjacent steps
/// always differ in `free`, and the first step starts at the profile's
/// origin, which [`advance`](Profile::advance) moves forward so memory follows
/// the number of future events, never the length of the trace.
///
/// ```
/// use profile::{Profile, Time};
///
/// let mut p = Profile::new(8, Time(0));
/// p.reserve(Time(0), 100, 6)?;          // a running job
/// p.reserve(Time(100), 50, 8)?;         // a reservation for a wide job
/// assert_eq!(p.earliest_start(Time(0), 2, 100), Some(Time(0)));
/// assert_eq!(p.earliest_start(Time(0), 4, 10), Some(Time(150)));
/// assert_eq!(p.min_free(Time(0), Time(200)), 0);
/// # Ok::<(), profile::ProfileError>(())
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Profile {
    capacity: u32,
    steps: Vec<(Time, u32)>,
}

impl Clone for Profile {
    fn clone(&self) -> Self {
        Profile {
            capacity: self.capacity,
            steps: self.steps.clone(),
        }
    }

    /// Reuses `self`'s allocation (a derived `Clone` would allocate anew).
    fn clone_from(&mut self, source: &Self) {
        self.capacity = source.capacity;
        self.steps.clone_from(&source.steps);
    }
}

impl Profile {
    /// An idle machine of `capacity` processors, starting at `origin`.
    pub fn new(capacity: u32, origin: Time) -> Profile {
        Profile {
            capacity,
            steps: vec![(origin, capacity)],
        }
    }

    /// The profile of a machine of `capacity` processors with `free_i`
    /// processors free from each `t_i` of `steps` to the next (the last
    /// forever), starting at the first: what reserving `capacity − free_i`
    /// over each step of an idle profile makes, without the searches and
    /// insertions. Equal neighbours are merged. An error names the first
    /// step that is wrong: none at all, a time not after the previous
    /// step's, or more than `capacity` processors free.
    ///
    /// ```
    /// use profile::{Profile, ProfileError, Time};
    ///
    /// let p = Profile::from_steps(8, &[(Time(0), 2), (Time(10), 2), (Time(20), 8)])?;
    /// assert_eq!(p.steps(), &[(Time(0), 2), (Time(20), 8)]);
    /// let mut q = Profile::new(8, Time(0));
    /// q.reserve(Time(0), 20, 6)?;
    /// assert_eq!(p, q);
    /// let late = Profile::from_steps(8, &[(Time(5), 8), (Time(5), 2)]);
    /// assert!(matches!(late, Err(ProfileError::InvalidSteps { index: 1, .. })));
    /// # Ok::<(), profile::ProfileError>(())
    /// ```
    pub fn from_steps(capacity: u32, steps: &[(Time, u32)]) -> Result<Profile, ProfileError> {
        let invalid = |index, problem| Err(ProfileError::InvalidSteps { index, problem });
        if steps.is_empty() {
            return invalid(0, "there is none; a profile has at least one step");
        }
        if let Some(k) = steps.windows(2).position(|w| w[0].0 >= w[1].0) {
            return invalid(k + 1, "its time is not after the previous step's");
        }
        if let Some(k) = steps.iter().position(|s| s.1 > capacity) {
            return invalid(k, "it has more processors free than the machine has");
        }
        let mut merged: Vec<(Time, u32)> = Vec::with_capacity(steps.len());
        for &step in steps {
            match merged.last() {
                Some(last) if last.1 == step.1 => {}
                _ => merged.push(step),
            }
        }
        Ok(Profile {
            capacity,
            steps: merged,
        })
    }

    /// Machine size.
    #[inline]
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The earliest instant the profile still describes.
    #[inline]
    pub fn origin(&self) -> Time {
        self.steps[0].0
    }

    /// Number of steps stored (a measure of memory use).
    #[inline]
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the profile has a single step (nothing reserved beyond its origin,
    /// or everything reserved forever).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.steps.len() == 1
    }

    /// The steps `(t_i, free_i)` in time order.
    pub fn steps(&self) -> &[(Time, u32)] {
        &self.steps
    }

    /// Index of the step containing `t` (clamped to the origin).
    #[inline]
    pub(crate) fn index_of(&self, t: Time) -> usize {
        // Schedulers ask about their present, the origin, most of the time.
        if t <= self.steps[0].0 {
            return 0;
        }
        self.steps.partition_point(|s| s.0 <= t).saturating_sub(1)
    }

    #[inline]
    fn step_end(&self, i: usize) -> Time {
        self.steps.get(i + 1).map_or(Time::MAX, |s| s.0)
    }

    /// Free processors at instant `t` (at the origin for earlier instants).
    #[inline]
    pub fn free_at(&self, t: Time) -> u32 {
        self.steps[self.index_of(t)].1
    }

    /// The earliest `s >= after` (and `>=` the origin) such that `procs`
    /// processors are free over `[s, s + duration)`, or `None` if `procs`
    /// exceeds what is ever free.
    pub fn earliest_start(&self, after: Time, procs: u32, duration: i64) -> Option<Time> {
        let after = after.max(self.origin());
        if procs == 0 || duration <= 0 {
            return Some(after);
        }
        if procs > self.capacity {
            return None;
        }
        let steps = &self.steps;
        let mut i = self.index_of(after);
        let mut cand = after;
        loop {
            let (_, free) = steps[i];
            let end = self.step_end(i);
            if free < procs {
                if end == Time::MAX {
                    return None;
                }
                cand = end;
            } else if end == Time::MAX || span(cand, end) >= duration.unsigned_abs() {
                return Some(cand);
            }
            i += 1;
        }
    }

    /// [`earliest_start`](Profile::earliest_start)`(after, procs, _)` and
    /// the processors free then, in a profile whose free count never falls
    /// from `after` on (one holding only running jobs, each from its start
    /// on): the first instant with `procs` free, whatever the duration,
    /// found by bisection; `None` if `procs` exceeds the capacity.
    pub(crate) fn earliest_start_rising(&self, after: Time, procs: u32) -> Option<(Time, u32)> {
        let after = after.max(self.origin());
        let first = self.index_of(after);
        let steps = &self.steps[first..];
        debug_assert!(steps.windows(2).all(|w| w[0].1 <= w[1].1));
        let i = steps.partition_point(|s| s.1 < procs);
        let &(t, free) = steps.get(i)?;
        Some((t.max(after), free))
    }

    /// The least free capacity over `[start, end)` (`capacity` if the window is empty).
    pub fn min_free(&self, start: Time, end: Time) -> u32 {
        let start = start.max(self.origin());
        if end <= start {
            return self.capacity;
        }
        let first = self.index_of(start);
        self.steps[first..]
            .iter()
            .take_while(|s| s.0 < end)
            .map(|s| s.1)
            .min()
            .unwrap_or(self.capacity)
    }

    /// The largest free capacity over `[start, end)` (0 if the window is empty).
    pub fn max_free(&self, start: Time, end: Time) -> u32 {
        let start = start.max(self.origin());
        if end <= start {
            return 0;
        }
        let first = self.index_of(start);
        self.steps[first..]
            .iter()
            .take_while(|s| s.0 < end)
            .map(|s| s.1)
            .max()
            .unwrap_or(0)
    }

    /// The indices `a..b` of the steps that overlap `[start, end)`
    /// (`origin <= start < end`): one binary search, then a walk.
    fn window(&self, start: Time, end: Time) -> (usize, usize) {
        let a = self.index_of(start);
        let after = &self.steps[a + 1..];
        let b = a + 1 + after.iter().position(|s| s.0 >= end).unwrap_or(after.len());
        (a, b)
    }

    /// Applies `f` to the free count over `[start, end)`, whose steps are
    /// `a..b` (from [`window`](Profile::window)); `f` must change every
    /// count. Splits the first and last step where the window cuts them and
    /// merges equal neighbours, so adjacent steps keep differing.
    fn apply(&mut self, (a, b): (usize, usize), start: Time, end: Time, f: impl Fn(u32) -> u32) {
        let steps = &mut self.steps;
        // The end first, so the indices below `b` stay valid.
        if end != Time::MAX {
            if steps.get(b).is_some_and(|s| s.0 == end) {
                if f(steps[b - 1].1) == steps[b].1 {
                    steps.remove(b);
                }
            } else {
                steps.insert(b, (end, steps[b - 1].1));
            }
        }
        if steps[a].0 < start {
            let cut = (start, f(steps[a].1));
            for s in &mut steps[a + 1..b] {
                s.1 = f(s.1);
            }
            steps.insert(a + 1, cut);
        } else {
            for s in &mut steps[a..b] {
                s.1 = f(s.1);
            }
            if a > 0 && steps[a - 1].1 == steps[a].1 {
                steps.remove(a);
            }
        }
    }

    /// Whether `procs` processors are free over all of `[start, start + duration)`
    /// (`start` at or after the origin), stopping at the first step that is
    /// too full. With `held`, a reservation `(start, duration, procs)` not
    /// entered in the profile counts as if it were.
    pub(crate) fn fits(
        &self,
        start: Time,
        procs: u32,
        duration: i64,
        held: Option<(Time, i64, u32)>,
    ) -> bool {
        let end = start.saturating_add(duration);
        // The held window first: where the two overlap, a job fits less often.
        if let Some((h_start, h_duration, h_procs)) = held {
            let (from, to) = (
                start.max(h_start),
                end.min(h_start.saturating_add(h_duration)),
            );
            let fits_beside = from >= to
                || procs
                    .checked_add(h_procs)
                    .is_some_and(|need| self.all_free(from, to, need));
            if !fits_beside {
                return false;
            }
        }
        self.all_free(start, end, procs)
    }

    /// Whether every step over `[from, to)` (`from` at or after the origin)
    /// has `procs` free.
    #[inline]
    fn all_free(&self, from: Time, to: Time, procs: u32) -> bool {
        self.steps[self.index_of(from)..]
            .iter()
            .take_while(|s| s.0 < to)
            .all(|s| s.1 >= procs)
    }

    /// Moves a reservation of `procs` processors from `[from, from + duration)`
    /// to `[to, to + duration)`, for `to < from` where
    /// [`Runs::earlier_start`](crate::runs::Runs::earlier_start) found room: the same profile
    /// as releasing one and reserving the other, touching only the parts of
    /// the two windows that do not overlap.
    pub(crate) fn shift_earlier(&mut self, from: Time, to: Time, duration: i64, procs: u32) {
        debug_assert!(self.origin() <= to && to < from && duration > 0);
        let to_end = to.saturating_add(duration);
        let from_end = from.saturating_add(duration);
        debug_assert!(self.min_free(to, to_end.min(from)) >= procs);
        let (take, give) = (to_end.min(from), to_end.max(from));
        self.apply(self.window(to, take), to, take, |f| f - procs);
        self.apply(self.window(give, from_end), give, from_end, |f| f + procs);
    }

    /// Clips a rectangle to the described future; `None` if nothing of it
    /// remains (or it has no processors), so there is nothing to change.
    fn clip(&self, start: Time, duration: i64, procs: u32) -> Option<(Time, Time)> {
        let end = start.saturating_add(duration);
        let start = start.max(self.origin());
        (end > start && procs > 0).then_some((start, end))
    }

    /// Takes `procs` processors over `[start, start + duration)`. The part of
    /// the window before the origin is ignored (it is history).
    pub fn reserve(&mut self, start: Time, duration: i64, procs: u32) -> Result<(), ProfileError> {
        let Some((start, end)) = self.clip(start, duration, procs) else {
            return Ok(());
        };
        let window = self.window(start, end);
        let free = self.steps[window.0..window.1]
            .iter()
            .map(|s| s.1)
            .min()
            .unwrap_or(self.capacity);
        if free < procs {
            return Err(ProfileError::Overcommit {
                start,
                end,
                procs,
                free,
            });
        }
        self.apply(window, start, end, |f| f - procs);
        Ok(())
    }

    /// Gives back `procs` processors over `[start, start + duration)` (the part
    /// before the origin is ignored).
    pub fn release(&mut self, start: Time, duration: i64, procs: u32) -> Result<(), ProfileError> {
        let Some((start, end)) = self.clip(start, duration, procs) else {
            return Ok(());
        };
        let window = self.window(start, end);
        let most = self.steps[window.0..window.1]
            .iter()
            .map(|s| s.1)
            .max()
            .unwrap_or(0);
        if u64::from(most) + u64::from(procs) > u64::from(self.capacity) {
            return Err(ProfileError::OverRelease {
                start,
                end,
                procs,
                capacity: self.capacity,
            });
        }
        self.apply(window, start, end, |f| f + procs);
        Ok(())
    }

    /// Forgets everything before `now`: the step containing `now` becomes the
    /// first and starts at `now`. Earlier instants can no longer be queried.
    pub fn advance(&mut self, now: Time) {
        if now <= self.origin() {
            return;
        }
        let i = self.index_of(now);
        if i > 0 {
            self.steps.drain(..i);
        }
        self.steps[0].0 = now;
    }

    /// The maximal free rectangles over `[from, horizon)`, sorted by start,
    /// then end, then width. A slot's end is the instant a reservation cuts
    /// it or the horizon (pass [`Time::MAX`] for an unlimited horizon: the
    /// last slot then ends at `Time::MAX`).
    ///
    /// This is the availability information a provider publishes to a grid
    /// gateway under conservative backfilling (Assunção & Buyya, Fig. 2a).
    pub fn free_slots(&self, from: Time, horizon: Time) -> Vec<FreeSlot> {
        let from = from.max(self.origin());
        if horizon <= from {
            return Vec::new();
        }
        // Segments of the step function clipped to [from, horizon).
        let first = self.index_of(from);
        // Every buffer sized once (the segments are at most the steps).
        let mut segs: Vec<(Time, Time, u32)> = Vec::with_capacity(self.steps.len() - first);
        segs.extend(
            self.steps[first..]
                .iter()
                .enumerate()
                .map(|(k, &(t, f))| (t.max(from), self.step_end(first + k).min(horizon), f))
                .take_while(|&(s, _, _)| s < horizon),
        );
        let n = segs.len();
        // For each segment k: the run of neighbours with free >= free_k gives
        // the slot [left_k, right_k) of width free_k (largest-rectangle style).
        let mut left = vec![0usize; n];
        let mut dup = vec![false; n];
        let mut stack: Vec<usize> = Vec::with_capacity(n);
        for k in 0..n {
            while let Some(&top) = stack.last() {
                if segs[top].2 > segs[k].2 {
                    stack.pop();
                } else {
                    break;
                }
            }
            // The nearest earlier segment with free <= free_k: if equal, the
            // run is the same and this slot duplicates that one.
            match stack.last() {
                Some(&p) if segs[p].2 == segs[k].2 => {
                    dup[k] = true;
                    left[k] = left[p];
                }
                Some(&p) => left[k] = p + 1,
                None => left[k] = 0,
            }
            stack.push(k);
        }
        let mut right = vec![n; n];
        stack.clear();
        for k in (0..n).rev() {
            while let Some(&top) = stack.last() {
                if segs[top].2 >= segs[k].2 {
                    stack.pop();
                } else {
                    break;
                }
            }
            right[k] = stack.last().copied().unwrap_or(n);
            stack.push(k);
        }
        let mut slots: Vec<FreeSlot> = Vec::with_capacity(n);
        slots.extend(
            (0..n)
                .filter(|&k| segs[k].2 > 0 && !dup[k])
                .map(|k| FreeSlot {
                    start: segs[left[k]].0,
                    end: segs[right[k] - 1].1,
                    procs: segs[k].2,
                }),
        );
        // The key is the whole slot, so an unstable sort gives the same
        // order as a stable one.
        slots.sort_unstable_by_key(|s| (s.start, s.end, s.procs));
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(cap: u32, rects: &[(i64, i64, u32)]) -> Profile {
        let mut p = Profile::new(cap, Time(0));
        for &(s, d, n) in rects {
            p.reserve(Time(s), d, n).unwrap();
        }
        p
    }

    #[test]
    fn from_steps_names_the_first_wrong_step() {
        let wrong = |steps: &[(Time, u32)]| match Profile::from_steps(8, steps) {
            Err(ProfileError::InvalidSteps { index, problem }) => (index, problem),
            other => panic!("{steps:?} gave {other:?}"),
        };
        assert_eq!(wrong(&[]).0, 0);
        let (index, problem) = wrong(&[(Time(0), 8), (Time(9), 2), (Time(9), 4)]);
        assert_eq!(index, 2, "{problem}");
        let (index, problem) = wrong(&[(Time(0), 8), (Time(9), 9)]);
        assert_eq!(index, 1, "{problem}");
        let e = Profile::from_steps(8, &[(Time(0), 9)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "step 0 of the profile: it has more processors free than the machine has"
        );
        let p = profile(8, &[(0, 9, 6), (9, 11, 8)]);
        assert_eq!(Profile::from_steps(8, p.steps()), Ok(p));
    }

    #[test]
    fn reserve_and_release_restore_the_idle_profile() {
        let mut p = profile(10, &[(0, 10, 4), (5, 10, 6)]);
        assert_eq!(
            p.steps(),
            &[(Time(0), 6), (Time(5), 0), (Time(10), 4), (Time(15), 10)]
        );
        p.release(Time(5), 10, 6).unwrap();
        p.release(Time(0), 10, 4).unwrap();
        assert_eq!(p, Profile::new(10, Time(0)));
    }

    #[test]
    fn overcommit_and_overrelease_are_errors() {
        let mut p = profile(4, &[(0, 10, 3)]);
        assert!(matches!(
            p.reserve(Time(5), 10, 2),
            Err(ProfileError::Overcommit { free: 1, .. })
        ));
        assert!(matches!(
            p.release(Time(8), 5, 2),
            Err(ProfileError::OverRelease { .. })
        ));
    }

    #[test]
    fn earliest_start_skips_gaps_too_short() {
        // 0..10: 2 free; 10..12: 8 free; 12..20: 2 free; 20..: 8 free.
        let p = profile(8, &[(0, 10, 6), (12, 8, 6)]);
        assert_eq!(p.earliest_start(Time(0), 4, 2), Some(Time(10)));
        assert_eq!(p.earliest_start(Time(0), 4, 3), Some(Time(20)));
        assert_eq!(p.earliest_start(Time(11), 4, 1), Some(Time(11)));
        assert_eq!(p.earliest_start(Time(0), 2, 1000), Some(Time(0)));
        assert_eq!(p.earliest_start(Time(0), 9, 1), None);
    }

    #[test]
    fn advance_forgets_the_past() {
        let mut p = profile(8, &[(0, 10, 6), (12, 8, 6)]);
        p.advance(Time(15));
        assert_eq!(p.steps(), &[(Time(15), 2), (Time(20), 8)]);
        assert_eq!(p.free_at(Time(3)), 2);
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::proptest_config(2000))]

        /// The slots come in (start, end, procs) order, each once, whatever
        /// the profile, window start and horizon.
        #[test]
        fn free_slots_come_sorted(
            rects in proptest::collection::vec((0..40i64, 1..30i64, 1..=8u32), 0..10),
            from in 0..60i64,
            horizon in proptest::option::of(0..90i64),
        ) {
            let mut p = Profile::new(8, Time(0));
            for (s, d, n) in rects {
                let s = p.earliest_start(Time(s), n, d).unwrap();
                p.reserve(s, d, n).unwrap();
            }
            let slots = p.free_slots(Time(from), horizon.map_or(Time::MAX, Time));
            let mut sorted = slots.clone();
            sorted.sort_by_key(|s| (s.start, s.end, s.procs));
            sorted.dedup();
            proptest::prop_assert_eq!(slots, sorted);
        }

        /// A reservation held aside counts in `fits` as if it were entered.
        #[test]
        fn fits_beside_a_held_reservation_as_if_it_were_entered(
            rects in proptest::collection::vec((0..40i64, 1..30i64, 1..=8u32), 0..8),
            held in (0..40i64, 1..30i64, 1..=8u32),
            job in (0..40i64, 1..=8u32, 1..30i64),
        ) {
            let mut p = Profile::new(8, Time(0));
            for (s, d, n) in rects {
                let s = p.earliest_start(Time(s), n, d).unwrap();
                p.reserve(s, d, n).unwrap();
            }
            let (s, d, n) = held;
            let held = (p.earliest_start(Time(s), n, d).unwrap(), d, n);
            let mut entered = p.clone();
            entered.reserve(held.0, held.1, held.2).unwrap();
            let (start, procs, duration) = (Time(job.0), job.1, job.2);
            proptest::prop_assert_eq!(
                p.fits(start, procs, duration, Some(held)),
                entered.fits(start, procs, duration, None)
            );
            proptest::prop_assert_eq!(
                entered.fits(start, procs, duration, None),
                entered.min_free(start, start + duration) >= procs
            );
        }
    }

    #[test]
    fn free_slots_are_maximal_rectangles() {
        // free: [0,5) 10, [5,8) 4, [8,..) 10 on a 10-proc machine.
        let p = profile(10, &[(5, 3, 6)]);
        let slots = p.free_slots(Time(0), Time(20));
        assert_eq!(
            slots,
            vec![
                FreeSlot {
                    start: Time(0),
                    end: Time(5),
                    procs: 10
                },
                FreeSlot {
                    start: Time(0),
                    end: Time(20),
                    procs: 4
                },
                FreeSlot {
                    start: Time(8),
                    end: Time(20),
                    procs: 10
                },
            ]
        );
        assert!(p.free_slots(Time(0), Time(0)).is_empty());
    }
}
