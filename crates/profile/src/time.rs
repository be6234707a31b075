//! Integer simulation time and the deterministic event queue.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// The longest duration (estimate or run time) a job may carry: 2^40 s,
/// about 34,800 years. See [`Time::LIMIT`] for the whole time domain.
pub const MAX_DURATION: i64 = 1 << 40;

/// A point in simulated time, in whole seconds since the start of the workload.
///
/// Durations are plain `i64` seconds: `Time + i64 = Time`, `Time - Time = i64`.
/// Time is never a float, so equal instants compare equal without epsilons.
///
/// # The time domain
/// * Input: every time a job carries (submit, deadline) lies in
///   `[-LIMIT, LIMIT]` = ±2^40 s (about ±34,800 years, a thousand times the
///   Unix times of the Parallel Workloads Archive logs), every duration in
///   `[0, MAX_DURATION]` = `[0, 2^40]` s. [`Job::check`](crate::Job::check)
///   and [`Job::builder`](crate::Job::builder) enforce it, and
///   [`simulate`](crate::simulate) and [`validate`](crate::validate) refuse
///   anything outside it with an error.
/// * Schedules: a simulated start, end or reservation never passes
///   [`Time::LATEST`] = 2^52 s; a workload that would need more is refused
///   ([`SimError::BeyondLatest`](crate::SimError::BeyondLatest)).
/// * [`Time::NEVER`] (= [`Time::MAX`] = `i64::MAX`) means "never" or "no
///   horizon". It lies strictly outside both ranges above, so no input and
///   no simulated instant can produce it.
///
/// The operators saturate at `i64::MIN` and [`Time::NEVER`]: a sum that
/// would leave `i64` becomes "never" instead of wrapping or panicking.
/// Inside the domain every sum of a time and a few durations is far below
/// 2^62, so saturation never happens there; use [`Time::checked_add`] to
/// detect it.
///
/// With the `serde` feature a time is written as its plain number of seconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Time(pub i64);

impl Time {
    /// The origin of simulated time.
    pub const ZERO: Time = Time(0);
    /// The bound of input times: job submit times and deadlines lie in
    /// `[-LIMIT, LIMIT]`, with `LIMIT` = 2^40 s (1,099,511,627,776 s).
    pub const LIMIT: Time = Time(1 << 40);
    /// The latest instant of a simulated schedule: 2^52 s (about 143 million
    /// years). Starts, ends and reservations never pass it.
    pub const LATEST: Time = Time(1 << 52);
    /// "Never" (and "no horizon"): later than any instant input or a
    /// simulation can produce.
    pub const NEVER: Time = Time(i64::MAX);
    /// The same value as [`Time::NEVER`], under its older name.
    pub const MAX: Time = Time::NEVER;

    /// The earlier of two optional instants, `None` being "no event": what
    /// `[a, b].into_iter().flatten().min()` gives, without the array
    /// iterator, which event loops that take it at every step pay dearly
    /// for (a third of a provisioning run once).
    ///
    /// ```
    /// use profile::Time;
    /// assert_eq!(Time::earliest(Some(Time(5)), Some(Time(3))), Some(Time(3)));
    /// assert_eq!(Time::earliest(None, Some(Time(3))), Some(Time(3)));
    /// assert_eq!(Time::earliest(None, None), None);
    /// ```
    #[inline]
    pub fn earliest(a: Option<Time>, b: Option<Time>) -> Option<Time> {
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, None) => a,
            (None, b) => b,
        }
    }

    /// The time in seconds.
    #[inline]
    pub const fn secs(self) -> i64 {
        self.0
    }

    /// Whether `self` lies in the input domain `[-LIMIT, LIMIT]`.
    #[inline]
    pub const fn in_domain(self) -> bool {
        -Time::LIMIT.0 <= self.0 && self.0 <= Time::LIMIT.0
    }

    /// `self + d`, saturating at `i64::MIN` and [`Time::NEVER`] (the same as `+`).
    #[inline]
    pub const fn saturating_add(self, d: i64) -> Time {
        Time(self.0.saturating_add(d))
    }

    /// `self + d`, or `None` if that leaves `i64`.
    #[inline]
    pub const fn checked_add(self, d: i64) -> Option<Time> {
        match self.0.checked_add(d) {
            Some(t) => Some(Time(t)),
            None => None,
        }
    }
}

impl Add<i64> for Time {
    type Output = Time;
    /// Saturating: never wraps, never panics.
    #[inline]
    fn add(self, rhs: i64) -> Time {
        Time(self.0.saturating_add(rhs))
    }
}

impl AddAssign<i64> for Time {
    #[inline]
    fn add_assign(&mut self, rhs: i64) {
        *self = *self + rhs;
    }
}

impl Sub<i64> for Time {
    type Output = Time;
    /// Saturating: never wraps, never panics.
    #[inline]
    fn sub(self, rhs: i64) -> Time {
        Time(self.0.saturating_sub(rhs))
    }
}

impl SubAssign<i64> for Time {
    #[inline]
    fn sub_assign(&mut self, rhs: i64) {
        *self = *self - rhs;
    }
}

impl Sub<Time> for Time {
    type Output = i64;
    /// The seconds from `rhs` to `self`, saturating at the bounds of `i64`.
    #[inline]
    fn sub(self, rhs: Time) -> i64 {
        self.0.saturating_sub(rhs.0)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s", self.0)
    }
}

/// A deterministic priority queue of events ordered by `(time, sequence number)`.
///
/// Events at the same time come out in the order they were pushed, so a
/// simulation that pushes in a deterministic order replays identically.
#[derive(Debug, Clone)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<(Time, u64, Slot<E>)>>,
    seq: u64,
}

/// Wrapper that keeps the payload out of the ordering.
#[derive(Debug, Clone)]
struct Slot<E>(E);

impl<E> PartialEq for Slot<E> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<E> Eq for Slot<E> {}
impl<E> PartialOrd for Slot<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Slot<E> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }

    /// Schedules `event` at `time`; returns its sequence number.
    pub fn push(&mut self, time: Time, event: E) -> u64 {
        let seq = self.seq;
        self.seq += 1;
        self.heap.push(Reverse((time, seq, Slot(event))));
        seq
    }

    /// Removes and returns the earliest event (ties: first pushed first).
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.heap.pop().map(|Reverse((t, _, Slot(e)))| (t, e))
    }

    /// The earliest event and its time, if any, left in the queue.
    pub fn peek(&self) -> Option<(Time, &E)> {
        self.heap.peek().map(|Reverse((t, _, Slot(e)))| (*t, e))
    }

    /// The time of the earliest event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|Reverse((t, _, _))| *t)
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_in_push_order() {
        let mut q = EventQueue::new();
        q.push(Time(5), 'b');
        q.push(Time(1), 'a');
        q.push(Time(5), 'c');
        q.push(Time(5), 'd');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
    }

    #[test]
    fn time_arithmetic() {
        assert_eq!(Time(10) + 5, Time(15));
        assert_eq!(Time(10) - Time(4), 6);
        assert_eq!(Time::MAX.saturating_add(1), Time::MAX);
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        assert_eq!(Time(i64::MAX - 7) + 100, Time::NEVER);
        assert_eq!(Time(i64::MIN + 1) - 5, Time(i64::MIN));
        assert_eq!(Time(i64::MIN) + i64::MIN, Time(i64::MIN));
        assert_eq!(Time::NEVER - Time(i64::MIN), i64::MAX);
        assert_eq!(Time(i64::MIN) - Time::NEVER, i64::MIN);
        let mut t = Time(i64::MAX - 1);
        t += 10;
        assert_eq!(t, Time::NEVER);
        t -= i64::MIN;
        assert_eq!(t, Time::NEVER);
        assert_eq!(Time(i64::MAX - 7).checked_add(100), None);
        assert_eq!(Time(5).checked_add(-10), Some(Time(-5)));
    }

    #[test]
    fn the_domain_is_strictly_inside_never() {
        assert!(Time::LIMIT.in_domain() && Time(-Time::LIMIT.0).in_domain());
        assert!(!Time(Time::LIMIT.0 + 1).in_domain());
        assert!(!Time(-Time::LIMIT.0 - 1).in_domain());
        // The latest schedule instant plus any duration stays far below "never".
        assert!(Time::LATEST > Time::LIMIT + MAX_DURATION);
        assert!(
            (Time::LATEST + MAX_DURATION)
                .checked_add(MAX_DURATION)
                .unwrap()
                < Time::NEVER
        );
        assert_eq!(Time::MAX, Time::NEVER);
    }
}
