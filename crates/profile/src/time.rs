//! Integer simulation time and the deterministic event queue.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A point in simulated time, in whole seconds since the start of the workload.
///
/// Durations are plain `i64` seconds: `Time + i64 = Time`, `Time - Time = i64`.
/// Time is never a float, so equal instants compare equal without epsilons.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub i64);

impl Time {
    /// The origin of simulated time.
    pub const ZERO: Time = Time(0);
    /// A time later than any event; used as "never" and as an open horizon.
    pub const MAX: Time = Time(i64::MAX);

    /// The time in seconds.
    #[inline]
    pub const fn secs(self) -> i64 {
        self.0
    }

    /// `self + d`, saturating at [`Time::MAX`].
    #[inline]
    pub const fn saturating_add(self, d: i64) -> Time {
        Time(self.0.saturating_add(d))
    }
}

impl Add<i64> for Time {
    type Output = Time;
    #[inline]
    fn add(self, rhs: i64) -> Time {
        Time(self.0 + rhs)
    }
}

impl AddAssign<i64> for Time {
    #[inline]
    fn add_assign(&mut self, rhs: i64) {
        self.0 += rhs;
    }
}

impl Sub<i64> for Time {
    type Output = Time;
    #[inline]
    fn sub(self, rhs: i64) -> Time {
        Time(self.0 - rhs)
    }
}

impl SubAssign<i64> for Time {
    #[inline]
    fn sub_assign(&mut self, rhs: i64) {
        self.0 -= rhs;
    }
}

impl Sub<Time> for Time {
    type Output = i64;
    #[inline]
    fn sub(self, rhs: Time) -> i64 {
        self.0 - rhs.0
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
}
