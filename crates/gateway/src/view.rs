//! The gateway's picture of one provider, rebuilt from published slots.

use profile::{FreeSlot, Profile, Time};

/// What the gateway believes a provider has free: the step function
/// `free(t) = max { procs of a published slot covering t }`, which is exactly
/// the provider's availability at publication time when the slots are the
/// maximal free rectangles of its profile.
///
/// The gateway plans on it with [`earliest_start`](SlotView::earliest_start)
/// and, when it tracks its own allocations, takes what it placed out of it
/// with [`take`](SlotView::take) until the provider publishes again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotView {
    free: Profile,
    published: Time,
}

impl SlotView {
    /// The view of a provider of `capacity` processors that published
    /// `slots` at `now`. Nothing is free outside the slots.
    pub fn from_slots(capacity: u32, now: Time, slots: &[FreeSlot]) -> SlotView {
        // Sweep: at each boundary, the widest slot covering it. A slot's
        // end lies after its start, so whatever the order of the changes at
        // one instant, every slot ending there was counted before: the
        // widest open slot after all of them does not depend on that order.
        let mut edges: Vec<(Time, u32, bool)> = Vec::with_capacity(2 * slots.len());
        for s in slots {
            let (start, end) = (s.start.max(now), s.end);
            if end <= start || s.procs == 0 {
                continue;
            }
            let procs = s.procs.min(capacity);
            edges.push((start, procs, true));
            if end < Time::MAX {
                edges.push((end, procs, false));
            }
        }
        edges.sort_unstable_by_key(|e| e.0);
        // `open[i]`: slots of the `i`-th width open, widths indexed by
        // their value on a machine of up to 1024 processors, else by their
        // rank among the slots' widths (the same order, a bounded array);
        // index 0 is none. `widest`: the widest open, found again
        // downwards when its last slot closes.
        let ranks: Option<Vec<u32>> = (capacity > 1024).then(|| {
            let mut widths: Vec<u32> = edges.iter().map(|e| e.1).collect();
            widths.sort_unstable();
            widths.dedup();
            widths
        });
        let index = |procs: u32| match &ranks {
            None => procs as usize,
            Some(widths) => widths.partition_point(|&w| w < procs) + 1,
        };
        let width = |i: usize| match &ranks {
            None => i as u32,
            Some(widths) => i.checked_sub(1).map_or(0, |r| widths[r]),
        };
        let mut open = vec![0usize; ranks.as_ref().map_or(capacity as usize, Vec::len) + 1];
        let mut widest = 0usize;
        let mut steps: Vec<(Time, u32)> = Vec::with_capacity(edges.len() + 1);
        steps.push((now, 0));
        let mut k = 0;
        while k < edges.len() {
            let t = edges[k].0;
            while let Some(&(_, procs, add)) = edges.get(k).filter(|e| e.0 == t) {
                let i = index(procs);
                if add {
                    open[i] += 1;
                    widest = widest.max(i);
                } else if open[i] > 0 {
                    open[i] -= 1;
                    while widest > 0 && open[widest] == 0 {
                        widest -= 1;
                    }
                }
                k += 1;
            }
            let free = width(widest);
            match steps.last_mut() {
                Some(last) if last.0 == t => last.1 = free,
                _ => steps.push((t, free)),
            }
        }
        // Each step's busy processors reserved over it in an idle profile:
        // the steps themselves, built at once, unless a reservation would
        // stop short of its step's end (times beyond ±2^62 s), where the
        // reservations are made one by one.
        let segment = |k: usize| {
            let (t, free) = steps[k];
            let end = steps.get(k + 1).map_or(Time::MAX, |s| s.0);
            let dur = if end == Time::MAX { i64::MAX } else { end - t };
            (t, end, dur, capacity - free)
        };
        let whole = (0..steps.len()).all(|k| {
            let (t, end, dur, busy) = segment(k);
            busy == 0 || t.saturating_add(dur) == end
        });
        let profile = match Profile::from_steps(capacity, &steps) {
            Ok(profile) if whole => profile,
            _ => {
                let mut profile = Profile::new(capacity, now);
                for k in 0..steps.len() {
                    let (t, end, dur, busy) = segment(k);
                    if busy > 0 && end > t {
                        profile
                            .reserve(t, dur, busy)
                            .expect("disjoint segments of an idle profile");
                    }
                }
                profile
            }
        };
        SlotView {
            free: profile,
            published: now,
        }
    }

    /// When the information was published.
    pub fn published(&self) -> Time {
        self.published
    }

    /// Processors believed free at `t`.
    pub fn free_at(&self, t: Time) -> u32 {
        self.free.free_at(t)
    }

    /// The earliest start at or after `after` where `procs` processors are
    /// believed free for `duration` seconds.
    pub fn earliest_start(&self, after: Time, procs: u32, duration: i64) -> Option<Time> {
        self.free.earliest_start(after, procs, duration)
    }

    /// Takes a placement the gateway made out of the view; returns whether
    /// it fitted (it always does when planned with `earliest_start` on this view).
    pub fn take(&mut self, start: Time, duration: i64, procs: u32) -> bool {
        self.free.reserve(start, duration, procs).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_rebuilds_the_profile_its_slots_came_from() {
        let mut p = Profile::new(10, Time(0));
        p.reserve(Time(0), 50, 6).unwrap();
        p.reserve(Time(80), 40, 9).unwrap();
        let slots = p.free_slots(Time(0), Time::MAX);
        let view = SlotView::from_slots(10, Time(0), &slots);
        for t in [0, 49, 50, 79, 80, 119, 120, 10_000] {
            assert_eq!(view.free_at(Time(t)), p.free_at(Time(t)), "t = {t}");
        }
        assert_eq!(view.earliest_start(Time(0), 5, 20), Some(Time(50)));
        assert_eq!(view.earliest_start(Time(0), 5, 40), Some(Time(120)));
    }

    #[test]
    fn a_view_of_a_wide_machine_ranks_the_widths() {
        // Over 1024 processors the sweep indexes widths by rank.
        for capacity in [1000, 5000, u32::MAX] {
            let mut p = Profile::new(capacity, Time(0));
            p.reserve(Time(0), 50, capacity / 2).unwrap();
            p.reserve(Time(30), 40, capacity / 3).unwrap();
            p.reserve(Time(200), 10, capacity).unwrap();
            let slots = p.free_slots(Time(0), Time::MAX);
            let view = SlotView::from_slots(capacity, Time(0), &slots);
            for t in [0, 29, 30, 49, 50, 69, 70, 199, 200, 209, 210, 10_000] {
                assert_eq!(view.free_at(Time(t)), p.free_at(Time(t)), "t = {t}");
            }
        }
    }

    #[test]
    fn the_view_is_the_profile_reservations_make() {
        // Slots from several profiles, published at several instants,
        // negative ones included: the view built at once equals reserving
        // each step's busy processors one by one.
        let rects = [(0, 50, 6), (80, 40, 9), (30, 500, 2), (700, 20, 10)];
        for origin in [-1000, 0, 25] {
            let mut p = Profile::new(10, Time(origin));
            for &(s, d, n) in &rects {
                let s = p.earliest_start(Time(s), n, d).unwrap();
                p.reserve(s, d, n).unwrap();
            }
            for now in [origin, 0, 60, 90, 800] {
                for horizon in [Time::MAX, Time(400)] {
                    let slots = p.free_slots(Time(now), horizon);
                    let view = SlotView::from_slots(10, Time(now), &slots);
                    let mut made = Profile::new(10, Time(now));
                    let steps = view.free.steps().to_vec();
                    for (k, &(t, free)) in steps.iter().enumerate() {
                        let end = steps.get(k + 1).map_or(Time::MAX, |s| s.0);
                        let dur = if end == Time::MAX { i64::MAX } else { end - t };
                        made.reserve(t, dur, 10 - free).unwrap();
                    }
                    assert_eq!(view.free, made, "origin {origin}, now {now}");
                }
            }
        }
    }

    #[test]
    fn nothing_is_free_outside_the_slots_and_taking_updates_the_view() {
        let slots = [FreeSlot {
            start: Time(100),
            end: Time(200),
            procs: 4,
        }];
        let mut view = SlotView::from_slots(8, Time(10), &slots);
        assert_eq!(view.free_at(Time(50)), 0);
        assert_eq!(view.earliest_start(Time(10), 4, 100), Some(Time(100)));
        assert_eq!(view.earliest_start(Time(10), 4, 101), None);
        assert!(view.take(Time(100), 50, 3));
        assert_eq!(view.earliest_start(Time(10), 2, 10), Some(Time(150)));
        assert!(!view.take(Time(100), 10, 4));
        assert_eq!(view.published(), Time(10));
    }
}
