//! Where a job fits: charges on the availability profile and on the
//! partitions' profiles, own processors first and borrowed ones where
//! they are idle and not held for another partition's pivots.

use profile::Time;

use super::{Charge, Cluster};

impl Cluster {
    /// Reserves (`take`) or releases a charge over `[start, start + dur)`.
    pub(super) fn apply(&mut self, charge: &Charge, start: Time, dur: i64, take: bool) {
        let total: u32 = charge.iter().map(|c| c.1).sum();
        let r = if take {
            self.profiles.global.reserve(start, dur, total)
        } else {
            self.profiles.global.release(start, dur, total)
        };
        r.expect("charges are placed only where the processors are free, and released once");
        for &(q, n) in charge.iter() {
            let r = if take {
                self.profiles.parts[q].reserve(start, dur, n)
            } else {
                self.profiles.parts[q].release(start, dur, n)
            };
            r.expect("partition charges mirror the global profile");
        }
    }

    /// Idle processors of partition `q` over the window, net of what is
    /// charged to it (0 if it is over its size).
    fn own_free(&self, q: usize, start: Time, end: Time) -> u32 {
        self.profiles.parts[q]
            .min_free(start, end)
            .saturating_sub(self.layout.cap - self.layout.sizes[q])
    }

    /// How a job of partition `p` would be charged if placed over
    /// `[start, start + dur)`, or `None` if it does not fit there.
    pub(super) fn charge_at(&self, start: Time, dur: i64, procs: u32, p: usize) -> Option<Charge> {
        let end = start.saturating_add(dur);
        if self.profiles.global.min_free(start, end) < procs {
            return None;
        }
        if self.profiles.parts.len() == 1 {
            return Some(Charge::One([(0, procs)]));
        }
        let own = self.own_free(p, start, end);
        if own >= procs {
            return Some(Charge::One([(p, procs)]));
        }
        if !self.layout.borrowing {
            return None;
        }
        let mut others: Vec<(u32, usize)> = (0..self.profiles.parts.len())
            .filter(|&q| q != p && self.layout.lends[q])
            .map(|q| (self.own_free(q, start, end), q))
            .collect();
        others.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut charge = Vec::with_capacity(self.profiles.parts.len());
        if own > 0 {
            charge.push((p, own));
        }
        let mut rest = procs - own;
        for (free, q) in others {
            if rest == 0 {
                break;
            }
            let take = free.min(rest);
            if take > 0 {
                charge.push((q, take));
                rest -= take;
            }
        }
        (rest == 0).then_some(Charge::Many(charge))
    }

    /// The first step boundary of any profile strictly after `t`.
    fn next_boundary(&self, t: Time) -> Option<Time> {
        std::iter::once(&self.profiles.global)
            .chain(&self.profiles.parts)
            .filter_map(|p| {
                let steps = p.steps();
                let k = steps.partition_point(|s| s.0 <= t);
                steps.get(k).map(|s| s.0)
            })
            .min()
    }

    /// The earliest start at or after `after` where a job of partition `p`
    /// can be charged, with its charge.
    pub(super) fn earliest(
        &self,
        after: Time,
        dur: i64,
        procs: u32,
        p: usize,
    ) -> Option<(Time, Charge)> {
        let mut t = after.max(self.now);
        loop {
            t = self.profiles.global.earliest_start(t, procs, dur)?;
            if let Some(charge) = self.charge_at(t, dur, procs, p) {
                return Some((t, charge));
            }
            t = self.next_boundary(t)?;
        }
    }
}
