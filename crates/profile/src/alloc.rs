//! Concrete processor ids for a schedule: first-fit allocation and the
//! interval sets Batsim writes.
//!
//! The schedulers of this crate only count processors. Tools that draw a
//! schedule (Gantt charts) or read Batsim's `jobs.csv` need to know which
//! processors each job held; [`first_fit`] decides that after the fact.

use std::fmt;
use std::str::FromStr;

use crate::{Job, Outcome, Status, Time};

/// A set of processor ids, kept as sorted, disjoint, non-adjacent closed
/// intervals `(first, last)`.
///
/// It displays as Batsim's canonical interval-set string (`0-3 8 10-11`)
/// and parses any Batsim interval-set string, canonical or not
/// (`"5 2-2 1-3"` is `{1, 2, 3, 5}`). With the `serde` feature it is
/// written and read as that string as well.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProcSet {
    intervals: Vec<(u32, u32)>,
}

impl ProcSet {
    /// The empty set.
    pub fn new() -> ProcSet {
        ProcSet::default()
    }

    /// The closed intervals `(first, last)`, ascending, disjoint and
    /// non-adjacent.
    pub fn intervals(&self) -> &[(u32, u32)] {
        &self.intervals
    }

    /// Number of processors in the set.
    pub fn len(&self) -> u64 {
        self.intervals
            .iter()
            .map(|&(a, b)| u64::from(b - a) + 1)
            .sum()
    }

    /// Whether the set holds no processor.
    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// Whether processor `p` is in the set.
    pub fn contains(&self, p: u32) -> bool {
        let i = self.intervals.partition_point(|&(_, last)| last < p);
        self.intervals.get(i).is_some_and(|&(first, _)| first <= p)
    }

    /// The ids in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.intervals.iter().flat_map(|&(a, b)| a..=b)
    }

    /// Adds the closed interval `[first, last]` (nothing if `first > last`).
    pub fn insert_range(&mut self, first: u32, last: u32) {
        if first > last {
            return;
        }
        // Fast path: appending at the end, as allocation in id order does.
        match self.intervals.last_mut() {
            None => return self.intervals.push((first, last)),
            Some(end) if end.1 < first => {
                if end.1.checked_add(1) == Some(first) {
                    end.1 = last;
                } else {
                    self.intervals.push((first, last));
                }
                return;
            }
            Some(_) => {}
        }
        // Elsewhere: the intervals it touches or adjoins (those from the
        // first ending at or after `first - 1` to the last starting at or
        // before `last + 1`) become one, in place.
        let (lo, hi) = (u64::from(first), u64::from(last));
        let from = self
            .intervals
            .partition_point(|&(_, b)| u64::from(b) + 1 < lo);
        let to = self
            .intervals
            .partition_point(|&(a, _)| u64::from(a) <= hi + 1);
        if from == to {
            self.intervals.insert(from, (first, last));
        } else {
            let merged = (
                first.min(self.intervals[from].0),
                last.max(self.intervals[to - 1].1),
            );
            self.intervals[from] = merged;
            self.intervals.drain(from + 1..to);
        }
    }

    /// The set of the intervals `(first, last)` given, in any order, each
    /// with `first <= last` (others are ignored): sorted and merged once.
    fn from_intervals(mut intervals: Vec<(u32, u32)>) -> ProcSet {
        intervals.retain(|&(a, b)| a <= b);
        intervals.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(intervals.len());
        for (a, b) in intervals {
            match merged.last_mut() {
                Some(m) if u64::from(a) <= u64::from(m.1) + 1 => m.1 = m.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        ProcSet { intervals: merged }
    }
}

impl fmt::Display for ProcSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(a, b)) in self.intervals.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if a == b {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{b}")?;
            }
        }
        Ok(())
    }
}

/// A string that is not a Batsim interval set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcSetParseError {
    /// The offending piece (one interval).
    pub piece: String,
}

impl fmt::Display for ProcSetParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a processor interval, expected 'a' or 'a-b' with a <= b",
            self.piece
        )
    }
}

impl std::error::Error for ProcSetParseError {}

impl FromStr for ProcSet {
    type Err = ProcSetParseError;

    /// Parses intervals separated by blanks, each `a` or `a-b`; the empty
    /// string is the empty set.
    fn from_str(s: &str) -> Result<ProcSet, ProcSetParseError> {
        // Collected, then sorted and merged once: pieces in any order parse
        // in `O(n log n)`.
        let mut intervals = Vec::new();
        for piece in s.split_ascii_whitespace() {
            let bad = || ProcSetParseError {
                piece: piece.to_string(),
            };
            let (a, b) = match piece.split_once('-') {
                Some((a, b)) => (a, b),
                None => (piece, piece),
            };
            let a: u32 = a.parse().map_err(|_| bad())?;
            let b: u32 = b.parse().map_err(|_| bad())?;
            if a > b {
                return Err(bad());
            }
            intervals.push((a, b));
        }
        Ok(ProcSet::from_intervals(intervals))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ProcSet {
    /// Writes the canonical interval-set string.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ProcSet {
    /// Reads any interval-set string, failing with
    /// [`ProcSetParseError`]'s message.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ProcSet, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a schedule cannot be given processors.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AllocError {
    /// The numbers of jobs and outcomes differ.
    Length {
        /// Jobs given.
        jobs: usize,
        /// Outcomes given.
        outcomes: usize,
    },
    /// An outcome's id differs from its job's.
    WrongId {
        /// Position.
        index: usize,
    },
    /// A job starts when fewer processors are free than it needs: the
    /// schedule exceeds the machine.
    NoRoom {
        /// The job's id.
        id: u64,
        /// Its start.
        at: Time,
        /// Processors it needs.
        procs: u32,
        /// Processors free then.
        free: u32,
    },
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocError::Length { jobs, outcomes } => write!(
                f,
                "{jobs} jobs but {outcomes} outcomes; give one outcome per job"
            ),
            AllocError::WrongId { index } => write!(
                f,
                "outcome {index} belongs to another job; keep outcomes in job order"
            ),
            AllocError::NoRoom {
                id,
                at,
                procs,
                free,
            } => write!(
                f,
                "job {id} starts at {at} on {procs} processors but only {free} are free; \
                 validate the schedule first"
            ),
        }
    }
}

impl std::error::Error for AllocError {}

/// The free processors of a machine, one bit per id (1 = free). Words are
/// added as allocation reaches them, so memory follows the highest id ever
/// used, not the machine size.
#[derive(Clone)]
struct FreeSet {
    words: Vec<u64>,
    capacity: u32,
    free: u32,
}

impl FreeSet {
    fn new(capacity: u32) -> FreeSet {
        FreeSet {
            words: Vec::new(),
            capacity,
            free: capacity,
        }
    }

    /// Word `w` with every id below the capacity free.
    fn fresh_word(&self, w: usize) -> u64 {
        let first = w as u64 * 64;
        match u64::from(self.capacity).saturating_sub(first) {
            n if n >= 64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// `n` free ids taken out of the set: the first block of `n`
    /// contiguous free ids if there is one, else the `n` lowest free ids;
    /// `None` (and no change) if fewer than `n` are free.
    fn take(&mut self, n: u32) -> Option<ProcSet> {
        if n > self.free {
            return None;
        }
        if n == 0 {
            return Some(ProcSet::new());
        }
        self.free -= n;
        if let Some(first) = self.find_block(n) {
            for id in first..first + u64::from(n) {
                self.clear(id);
            }
            let first = u32::try_from(first).unwrap_or(u32::MAX);
            let mut set = ProcSet::new();
            set.insert_range(first, first + (n - 1));
            return Some(set);
        }
        let mut set = ProcSet::new();
        let mut left = n;
        let mut w = 0;
        // Terminates: `free` counts the free ids below the capacity, and
        // fresh words hold the ones not yet reached.
        while left > 0 {
            if w == self.words.len() {
                let fresh = self.fresh_word(w);
                self.words.push(fresh);
            }
            let word = &mut self.words[w];
            while left > 0 && *word != 0 {
                let bit = word.trailing_zeros();
                *word &= *word - 1;
                // Below the capacity, so it fits in u32.
                let id = u32::try_from(w as u64 * 64 + u64::from(bit)).unwrap_or(u32::MAX);
                set.insert_range(id, id);
                left -= 1;
            }
            w += 1;
        }
        Some(set)
    }

    /// The first id of the lowest block of `n` (at least 1) contiguous free
    /// ids, if any.
    fn find_block(&self, n: u32) -> Option<u64> {
        let n = u64::from(n);
        let (mut start, mut run) = (0u64, 0u64);
        for (w, &word) in self.words.iter().enumerate() {
            let base = w as u64 * 64;
            match word {
                0 => run = 0,
                u64::MAX => {
                    if run == 0 {
                        start = base;
                    }
                    run += 64;
                }
                _ => {
                    for bit in 0..64 {
                        if (word >> bit) & 1 == 0 {
                            run = 0;
                            continue;
                        }
                        if run == 0 {
                            start = base + bit;
                        }
                        run += 1;
                        if run >= n {
                            return Some(start);
                        }
                    }
                }
            }
            if run >= n {
                return Some(start);
            }
        }
        // Ids past the words are free up to the capacity.
        let base = self.words.len() as u64 * 64;
        if run == 0 {
            start = base;
        }
        let fresh = u64::from(self.capacity).saturating_sub(base);
        (run + fresh >= n).then_some(start)
    }

    /// Marks `id` (below the capacity) busy, adding fresh words as needed.
    fn clear(&mut self, id: u64) {
        let w = (id / 64) as usize;
        while self.words.len() <= w {
            let fresh = self.fresh_word(self.words.len());
            self.words.push(fresh);
        }
        self.words[w] &= !(1u64 << (id % 64));
    }

    fn give(&mut self, set: &ProcSet) {
        for p in set.iter() {
            self.words[(p / 64) as usize] |= 1u64 << (p % 64);
        }
        self.free += u32::try_from(set.len()).unwrap_or(u32::MAX);
    }
}

/// First-fit processor allocation of a schedule on a machine with
/// processors `0..capacity`: at each job's start, the job takes the first
/// (lowest) block of contiguous free processors large enough for it, the
/// one-dimensional first fit of contiguous allocation; when the free
/// processors are too fragmented for any block to fit, it takes the
/// lowest-numbered free ones instead (the "take first resources" rule of
/// Batsim's SWF-to-`jobs.csv` tool). It gives them back at its end.
///
/// Contiguity first keeps Gantt charts more readable: on SDSC-SP2 under
/// EASY, taking the lowest free ids splits 38 % of the jobs into several
/// intervals, this rule 24 % (the schedulers count processors and ignore
/// contiguity, so some splitting is unavoidable).
///
/// Ends are processed before starts at the same instant (a processor
/// freed at `t` is usable at `t`, as in [`validate`](crate::validate)), and
/// jobs starting at the same instant are served in job order. The result
/// has one set per job: empty for a dropped job; for a job that ran zero
/// seconds, the processors it would have taken, held for no time. Such a
/// job overlaps only the jobs running across its instant, not those
/// starting then: if fewer processors are free when its turn comes, it
/// takes its first fit among the free ones and those of the jobs started
/// at that instant before it; if even these are too few (schedulers start
/// such jobs on a full machine, and [`validate`](crate::validate) counts
/// them on no processor), processors 0 to size − 1.
///
/// Expects a schedule that passes [`validate`](crate::validate); any
/// schedule that does gets a consistent allocation (no processor held by
/// two jobs whose runs overlap), except a zero-second job started while
/// the jobs running across its instant leave it too few processors.
/// Returns an error, never panics, otherwise.
pub fn first_fit(
    capacity: u32,
    jobs: &[Job],
    outcomes: &[Outcome],
) -> Result<Vec<ProcSet>, AllocError> {
    if jobs.len() != outcomes.len() {
        return Err(AllocError::Length {
            jobs: jobs.len(),
            outcomes: outcomes.len(),
        });
    }
    // (time, 0 = end / 1 = start, job index): ends before starts.
    let mut events: Vec<(Time, u8, usize)> = Vec::with_capacity(2 * jobs.len());
    for (index, (job, out)) in jobs.iter().zip(outcomes).enumerate() {
        if job.id != out.id {
            return Err(AllocError::WrongId { index });
        }
        if out.status == Status::Dropped {
            continue;
        }
        events.push((out.start, 1, index));
        if out.end > out.start {
            events.push((out.end, 0, index));
        }
    }
    events.sort_unstable();
    let mut free = FreeSet::new(capacity);
    let mut alloc = vec![ProcSet::new(); jobs.len()];
    // Jobs of positive length started at `now`: they do not overlap a
    // zero-second job starting at `now`, so their ids are open to it.
    let mut now = None;
    let mut started_now: Vec<usize> = Vec::new();
    for (at, kind, index) in events {
        let job = &jobs[index];
        if kind == 0 {
            free.give(&alloc[index]);
            continue;
        }
        if now != Some(at) {
            now = Some(at);
            started_now.clear();
        }
        if outcomes[index].end <= at {
            alloc[index] = zero_length(&mut free, &alloc, &started_now, job.procs);
            continue;
        }
        alloc[index] = free.take(job.procs).ok_or(AllocError::NoRoom {
            id: job.id,
            at,
            procs: job.procs,
            free: free.free,
        })?;
        started_now.push(index);
    }
    Ok(alloc)
}

/// The ids of a job of `procs` processors that starts and ends at the
/// current instant, `free` being the ids free then and `started_now` the
/// jobs of positive length already started then.
///
/// Such a job is held for no time and overlaps only the jobs running
/// across the instant, so it takes, in order of preference: the ids first
/// fit gives it among the free ones (nothing changes for the jobs after
/// it); else the ids first fit gives it among those no job running across
/// the instant holds (the free ones and those of the jobs just started,
/// which a scheduler that started it before them saw free); else, on a
/// machine too full even for that (schedulers start such jobs when no
/// processor is free), processors 0 to `procs` − 1.
fn zero_length(
    free: &mut FreeSet,
    alloc: &[ProcSet],
    started_now: &[usize],
    procs: u32,
) -> ProcSet {
    if let Some(set) = free.take(procs) {
        free.give(&set);
        return set;
    }
    if !started_now.is_empty() {
        let mut open = free.clone();
        for &i in started_now {
            open.give(&alloc[i]);
        }
        if let Some(set) = open.take(procs) {
            return set;
        }
    }
    let mut all = ProcSet::new();
    all.insert_range(0, procs.saturating_sub(1));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn out(id: u64, start: i64, end: i64, status: Status) -> Outcome {
        Outcome {
            id,
            start: Time(start),
            end: Time(end),
            status,
        }
    }

    fn check_text(text: &str, canonical: &str, len: u64) {
        let set: ProcSet = text.parse().unwrap();
        assert_eq!(set.to_string(), canonical, "{text}");
        assert_eq!(set.len(), len, "{text}");
        assert_eq!(set.iter().count() as u64, len, "{text}");
    }

    #[test]
    fn interval_set_strings() {
        check_text("", "", 0);
        check_text("0-3 8 10-11", "0-3 8 10-11", 7);
        check_text("5 2-2 7 1-3", "1-3 5 7", 5);
        check_text("1-2 1-3 5 7", "1-3 5 7", 5);
        check_text("1-3 4-5", "1-5", 5);
        check_text("4294967295 0", "0 4294967295", 2);
        for bad in ["3-1", "a", "1-", "-1", "1--2", "1,2"] {
            assert!(bad.parse::<ProcSet>().is_err(), "{bad}");
        }
        let set: ProcSet = "1-3 7".parse().unwrap();
        assert!(set.contains(1) && set.contains(3) && set.contains(7));
        assert!(!set.contains(0) && !set.contains(4) && !set.contains(8));
    }

    proptest! {
        #![proptest_config(crate::testing::proptest_config(500))]

        /// Ranges inserted in any order, and the same ranges parsed from
        /// text in that order, give the set of their ids, canonical.
        #[test]
        fn ranges_in_any_order_give_their_set(
            ranges in prop::collection::vec((0u32..64, 0u32..6), 0..24),
            top in prop::bool::ANY,
        ) {
            // Near the top of u32 too, where `last + 1` would overflow.
            let base = if top { u32::MAX - 70 } else { 0 };
            let ranges: Vec<(u32, u32)> =
                ranges.iter().map(|&(a, n)| (base + a, base + a + n)).collect();
            let mut set = ProcSet::new();
            let mut model = std::collections::BTreeSet::new();
            for &(a, b) in &ranges {
                set.insert_range(a, b);
                model.extend(a..=b);
            }
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), model.iter().copied().collect::<Vec<_>>());
            let text: Vec<String> = ranges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
            let parsed: ProcSet = text.join(" ").parse().unwrap();
            prop_assert_eq!(&parsed, &set);
            // Canonical: sorted, disjoint, not adjacent.
            prop_assert!(set.intervals.windows(2).all(|w| u64::from(w[0].1) + 1 < u64::from(w[1].0)));
        }
    }

    #[test]
    fn pieces_out_of_order_parse_in_n_log_n() {
        // 200,000 single ids, largest first: each insert in turn used to
        // sort the whole list again.
        let text: Vec<String> = (0..200_000u32).rev().map(|i| (2 * i).to_string()).collect();
        let set: ProcSet = text.join(" ").parse().unwrap();
        assert_eq!(set.len(), 200_000);
        assert_eq!(set.intervals.first(), Some(&(0, 0)));
    }

    #[test]
    fn contiguous_block_first_then_lowest_ids() {
        // 8 processors. Job 1 takes 0-3, job 2 takes 4-5; at 10 job 1 ends
        // and job 3 (5 procs) finds no block of 5 free (0-3 and 6-7): it
        // takes the lowest ids, 0-3 and 6. Job 4 (zero seconds) takes 7.
        // At 15 job 3 ends; job 6 (3 procs) takes block 0-2, job 7 (2
        // procs) the first block after it, 3-4? No: 3 only is free before
        // busy 4-5, so 6-7.
        let jobs = [
            Job::new(1, Time(0), 4, 10, 10),
            Job::new(2, Time(0), 2, 20, 20),
            Job::new(3, Time(1), 5, 5, 5),
            Job::new(4, Time(1), 1, 5, 0),
            Job::new(5, Time(2), 8, 5, 5),
            Job::new(6, Time(3), 3, 5, 5),
            Job::new(7, Time(3), 2, 5, 5),
        ];
        let outs = [
            out(1, 0, 10, Status::Completed),
            out(2, 0, 20, Status::Completed),
            out(3, 10, 15, Status::Completed),
            out(4, 10, 10, Status::Completed),
            out(5, 2, 2, Status::Dropped),
            out(6, 15, 20, Status::Completed),
            out(7, 15, 20, Status::Completed),
        ];
        let alloc = first_fit(8, &jobs, &outs).unwrap();
        let text: Vec<String> = alloc.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["0-3", "4-5", "0-3 6", "7", "", "0-2", "6-7"]);
    }

    #[test]
    fn blocks_across_words_and_past_the_touched_ones() {
        // 200 processors: 0-69 busy, 70-129 busy; 130-199 never touched.
        let jobs = [
            Job::new(1, Time(0), 70, 10, 10),
            Job::new(2, Time(0), 60, 20, 20),
            Job::new(3, Time(0), 70, 20, 20),
            Job::new(4, Time(10), 65, 5, 5),
        ];
        let outs = [
            out(1, 0, 10, Status::Completed),
            out(2, 0, 20, Status::Completed),
            out(3, 0, 20, Status::Completed),
            out(4, 10, 15, Status::Completed),
        ];
        let alloc = first_fit(200, &jobs, &outs).unwrap();
        let text: Vec<String> = alloc.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["0-69", "70-129", "130-199", "0-64"]);
        let wide = [
            Job::new(1, Time(0), 130, 10, 10),
            Job::new(2, Time(0), 60, 10, 10),
        ];
        let outs = [
            out(1, 0, 10, Status::Completed),
            out(2, 0, 10, Status::Completed),
        ];
        let alloc = first_fit(1000, &wide, &outs).unwrap();
        assert_eq!(alloc[1].to_string(), "130-189");
    }

    #[test]
    fn ends_free_processors_for_starts_at_the_same_instant() {
        let jobs = [
            Job::new(1, Time(0), 4, 10, 10),
            Job::new(2, Time(0), 4, 10, 10),
        ];
        let outs = [
            out(1, 0, 10, Status::Completed),
            out(2, 10, 20, Status::Killed),
        ];
        let alloc = first_fit(4, &jobs, &outs).unwrap();
        assert_eq!(alloc[0], alloc[1]);
    }

    #[test]
    fn errors_instead_of_panics() {
        let jobs = [
            Job::new(1, Time(0), 3, 10, 10),
            Job::new(2, Time(0), 2, 10, 10),
        ];
        let outs = [
            out(1, 0, 10, Status::Completed),
            out(2, 5, 15, Status::Completed),
        ];
        assert_eq!(
            first_fit(4, &jobs, &outs),
            Err(AllocError::NoRoom {
                id: 2,
                at: Time(5),
                procs: 2,
                free: 1
            })
        );
        assert!(matches!(
            first_fit(4, &jobs, &outs[..1]),
            Err(AllocError::Length { .. })
        ));
        let swapped = [outs[1], outs[0]];
        assert_eq!(
            first_fit(8, &jobs, &swapped),
            Err(AllocError::WrongId { index: 0 })
        );
        assert!(first_fit(0, &jobs, &outs).is_err());
        assert_eq!(
            first_fit(u32::MAX, &jobs[..1], &outs[..1]).unwrap()[0].to_string(),
            "0-2"
        );
    }

    #[test]
    fn zero_second_jobs_avoid_the_jobs_running_across_their_instant() {
        // 4 processors. Job 1 holds 0-1 over [0, 10). At 5, job 2 takes
        // 2-3 and job 3 (zero seconds, 2 procs) finds none free: it takes
        // job 2's ids, as job 2 starts at 5 and so does not overlap it,
        // never job 1's. Job 4 (zero seconds, 3 procs) cannot avoid job
        // 1 and takes 0-2.
        let jobs = [
            Job::new(1, Time(0), 2, 10, 10),
            Job::new(2, Time(0), 2, 10, 10),
            Job::new(3, Time(0), 2, 1, 0),
            Job::new(4, Time(0), 3, 1, 0),
        ];
        let outs = [
            out(1, 0, 10, Status::Completed),
            out(2, 5, 15, Status::Completed),
            out(3, 5, 5, Status::Completed),
            out(4, 5, 5, Status::Completed),
        ];
        crate::validate(4, &jobs, &outs).unwrap();
        let alloc = first_fit(4, &jobs, &outs).unwrap();
        let text: Vec<String> = alloc.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["0-1", "2-3", "2-3", "0-2"]);
    }

    /// The allocation is consistent: each job that ran holds exactly its
    /// size in ids below the capacity, and two jobs whose runs overlap in
    /// time share no processor (brute force over all pairs).
    fn check_invariants(
        capacity: u32,
        jobs: &[Job],
        outs: &[Outcome],
        alloc: &[ProcSet],
    ) -> Result<(), TestCaseError> {
        prop_assert_eq!(alloc.len(), jobs.len());
        for ((job, out), set) in jobs.iter().zip(outs).zip(alloc) {
            if out.status == Status::Dropped {
                prop_assert!(set.is_empty());
                continue;
            }
            prop_assert_eq!(set.len(), u64::from(job.procs), "job {}", job.id);
            prop_assert!(set.iter().all(|p| p < capacity));
        }
        for i in 0..jobs.len() {
            for j in i + 1..jobs.len() {
                let (a, b) = (&outs[i], &outs[j]);
                if a.start < b.end && b.start < a.end {
                    prop_assert!(
                        alloc[i].iter().all(|p| !alloc[j].contains(p)),
                        "jobs {} and {} share processors",
                        a.id,
                        b.id
                    );
                }
            }
        }
        Ok(())
    }

    fn arb_jobs(capacity: u32) -> impl Strategy<Value = Vec<Job>> {
        prop::collection::vec((0i64..50, 1..=capacity, 1i64..100, 0i64..120), 1..80).prop_map(
            |specs| {
                let mut submit = 0;
                specs
                    .into_iter()
                    .enumerate()
                    .map(|(i, (gap, procs, est, run))| {
                        submit += gap;
                        Job::new(i as u64, Time(submit), procs, est, run)
                    })
                    .collect()
            },
        )
    }

    proptest! {
        #![proptest_config(crate::testing::proptest_config(256))]
        #[test]
        fn simulated_schedules_get_consistent_allocations(
            capacity in 1u32..130,
            seed_jobs in arb_jobs(130),
            policy in prop_oneof![
                Just(crate::Policy::Fcfs),
                Just(crate::Policy::EASY),
                Just(crate::Policy::Conservative),
            ],
        ) {
            let jobs: Vec<Job> = seed_jobs
                .into_iter()
                .map(|mut j| {
                    j.procs = j.procs.min(capacity);
                    j
                })
                .collect();
            let config = crate::SchedulerConfig::new(capacity, policy);
            let outs = crate::simulate(&config, &jobs).unwrap();
            crate::validate(capacity, &jobs, &outs).unwrap();
            let alloc = first_fit(capacity, &jobs, &outs).unwrap();
            check_invariants(capacity, &jobs, &outs, &alloc)?;
        }
    }
}
