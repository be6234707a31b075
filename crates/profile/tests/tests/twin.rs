//! A slow, obviously correct availability profile: one counter per second
//! over a bounded horizon. The fast [`profile::Profile`] is tested against it.

use profile::{FreeSlot, Time};

/// Free processors per second on `[origin, horizon)`; beyond the horizon the
/// machine is assumed idle (tests keep every reservation inside it).
#[derive(Clone, Debug)]
pub struct Twin {
    pub capacity: u32,
    pub origin: i64,
    pub free: Vec<u32>,
}

impl Twin {
    pub fn new(capacity: u32, horizon: usize) -> Twin {
        Twin {
            capacity,
            origin: 0,
            free: vec![capacity; horizon],
        }
    }

    fn horizon(&self) -> i64 {
        self.free.len() as i64
    }

    pub fn free_at(&self, t: i64) -> u32 {
        let t = t.max(self.origin);
        if t >= self.horizon() {
            self.capacity
        } else {
            self.free[t as usize]
        }
    }

    pub fn min_free(&self, s: i64, e: i64) -> u32 {
        let s = s.max(self.origin);
        (s..e)
            .map(|t| self.free_at(t))
            .min()
            .unwrap_or(self.capacity)
    }

    pub fn earliest_start(&self, after: i64, procs: u32, dur: i64) -> Option<i64> {
        if procs > self.capacity {
            return None;
        }
        let after = after.max(self.origin);
        (after..=self.horizon()).find(|&s| self.min_free(s, s + dur) >= procs)
    }

    /// Applies `delta` to `[s, s + d)`; `false` (and no change) if that would
    /// leave the range `[0, capacity]` anywhere.
    pub fn add(&mut self, s: i64, d: i64, delta: i64) -> bool {
        let e = (s + d).min(self.horizon());
        let s = s.max(self.origin);
        let ok = (s..e).all(|t| {
            let v = i64::from(self.free[t as usize]) + delta;
            (0..=i64::from(self.capacity)).contains(&v)
        });
        if ok {
            for t in s..e {
                self.free[t as usize] = (i64::from(self.free[t as usize]) + delta) as u32;
            }
        }
        ok
    }

    pub fn advance(&mut self, now: i64) {
        self.origin = self.origin.max(now);
    }

    /// Every maximal free rectangle over `[from, horizon)`, brute force.
    pub fn free_slots(&self, from: i64, horizon: i64) -> Vec<FreeSlot> {
        let from = from.max(self.origin);
        let mut slots = Vec::new();
        for s in from..horizon {
            for e in s + 1..=horizon {
                let p = self.min_free(s, e);
                if p == 0 {
                    continue;
                }
                let grows_left = s > from && self.free_at(s - 1) >= p;
                let grows_right = e < horizon && self.free_at(e) >= p;
                // Wider: every instant of [s, e) has more than p free.
                let grows_up = (s..e).all(|t| self.free_at(t) > p);
                if !grows_left && !grows_right && !grows_up {
                    slots.push(FreeSlot {
                        start: Time(s),
                        end: Time(e),
                        procs: p,
                    });
                }
            }
        }
        slots.sort_by_key(|s| (s.start, s.end, s.procs));
        slots
    }
}
