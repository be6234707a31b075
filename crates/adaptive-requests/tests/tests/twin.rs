//! The obviously correct twins: Algorithm 1 exactly as the paper prints it,
//! over a machine kept as a plain list of rectangles, and FIFO and MDF (full
//! rescheduling from scratch on every arrival) built on it.
//!
//! The event times are the instants where the free capacity changes (and
//! now): a start or completion time where it does not change can never give
//! an earlier completion than the change point before it.

use adaptive_requests::{BudgetRule, Moldability, PriceFunction, Req, within_budget};
use profile::Time;

/// A machine as a list of busy rectangles `(start, end, procs)`.
#[derive(Clone, Debug)]
pub struct Machine {
    pub capacity: u32,
    pub busy: Vec<(i64, i64, u32)>,
}

impl Machine {
    pub fn new(capacity: u32) -> Self {
        Machine {
            capacity,
            busy: Vec::new(),
        }
    }

    fn used_at(&self, t: i64) -> u32 {
        self.busy
            .iter()
            .filter(|&&(s, e, _)| s <= t && t < e)
            .map(|b| b.2)
            .sum()
    }

    fn free_at(&self, t: i64) -> u32 {
        self.capacity.saturating_sub(self.used_at(t))
    }

    /// Whether `procs` are free over `[s, e)`: checked at `s` and at every
    /// rectangle start inside the window.
    pub fn fits(&self, s: i64, e: i64, procs: u32) -> bool {
        std::iter::once(s)
            .chain(self.busy.iter().map(|b| b.0).filter(|&t| s < t && t < e))
            .all(|t| self.free_at(t) >= procs)
    }

    /// Now, and every later instant where the free capacity changes.
    fn event_times(&self, now: i64) -> Vec<i64> {
        let mut ts: Vec<i64> = self
            .busy
            .iter()
            .flat_map(|b| [b.0, b.1])
            .filter(|&t| t > now && self.free_at(t - 1) != self.free_at(t))
            .collect();
        ts.push(now);
        ts.sort_unstable();
        ts.dedup();
        ts
    }

    /// Algorithm 1, line by line: for every event time, `R` from `R^max`
    /// down until a placement is found; keep the earliest completion (ties:
    /// earliest start, then more processors). A placement must meet the
    /// deadline and the budget. The event times are now, the instants where
    /// the free capacity changes, and for each shape the earliest start
    /// whose completion its budget affords.
    pub fn algorithm1<F: Moldability>(
        &self,
        now: i64,
        submit: i64,
        req: &Req<F>,
        price: &PriceFunction,
        rule: BudgetRule,
    ) -> Option<(i64, u32, i64)> {
        let due = submit + req.deadline();
        let ok = |start: i64, r: u32, t: i64| {
            let end = start + t;
            let affordable = rule == BudgetRule::Cap
                || within_budget(
                    price.price(req, Time(submit), Time(end), i64::from(r) * t),
                    req.budget(),
                );
            end <= due && affordable && self.fits(start, end, r)
        };
        let mut times = self.event_times(now);
        for (r, t) in req.shapes() {
            times.extend(self.affordable_start(now, submit, req, price, rule, r, t));
        }
        times.sort_unstable();
        times.dedup();
        let mut best: Option<(i64, u32, i64)> = None;
        for et in times {
            if let Some((r, t)) = req.shapes().find(|&(r, t)| ok(et, r, t)) {
                let key = |p: (i64, u32, i64)| (p.0 + p.2, p.0, std::cmp::Reverse(p.1));
                if best.is_none_or(|b| key((et, r, t)) < key(b)) {
                    best = Some((et, r, t));
                }
            }
        }
        // The brute-force definition: the earliest completion over every
        // integer start and shape. It must agree (Table 1 shapes get slower
        // with fewer processors).
        let horizon = due.max(now);
        let brute = (now..=horizon)
            .flat_map(|s| req.shapes().map(move |(r, t)| (s, r, t)))
            .filter(|&(s, r, t)| ok(s, r, t))
            .min_by_key(|&(s, r, t)| (s + t, s, std::cmp::Reverse(r)));
        assert_eq!(best, brute, "Algorithm 1 and brute force disagree");
        best
    }

    /// The earliest start at or after `now` at which shape `(r, t)` is
    /// within the budget, by scanning every second up to the deadline.
    #[allow(clippy::too_many_arguments)]
    fn affordable_start<F: Moldability>(
        &self,
        now: i64,
        submit: i64,
        req: &Req<F>,
        price: &PriceFunction,
        rule: BudgetRule,
        r: u32,
        t: i64,
    ) -> Option<i64> {
        if rule == BudgetRule::Cap {
            return None;
        }
        let due = submit + req.deadline();
        (now..=due - t).find(|&s| {
            within_budget(
                price.price(req, Time(submit), Time(s + t), i64::from(r) * t),
                req.budget(),
            )
        })
    }
}

/// A submitted request in the twins' terms.
pub struct Sub<'a, F> {
    pub submit: i64,
    pub req: &'a Req<F>,
}

/// FIFO: each request placed once, on arrival.
pub fn fifo<F: Moldability>(
    capacity: u32,
    subs: &[Sub<'_, F>],
    price: &PriceFunction,
    rule: BudgetRule,
) -> Vec<Option<(i64, u32, i64)>> {
    let mut m = Machine::new(capacity);
    subs.iter()
        .map(|s| {
            let p = m.algorithm1(s.submit, s.submit, s.req, price, rule);
            if let Some((st, r, t)) = p {
                m.busy.push((st, st + t, r));
            }
            p
        })
        .collect()
}

/// MDF with full rescheduling: on every arrival, the requests that have not
/// started and the new one, by (deadline − T at R^max, arrival), are placed
/// again from scratch; if one fails, the new request is rejected and the
/// previous schedule kept.
pub fn mdf<F: Moldability>(
    capacity: u32,
    subs: &[Sub<'_, F>],
    price: &PriceFunction,
    rule: BudgetRule,
) -> Vec<Option<(i64, u32, i64)>> {
    let mut placed: Vec<Option<(i64, u32, i64)>> = Vec::new();
    for (n, s) in subs.iter().enumerate() {
        let now = s.submit;
        let key = |i: usize| {
            let sub = &subs[i];
            let widest = sub.req.shapes().next().map_or(0, |x| x.1);
            (sub.submit + sub.req.deadline() - widest, i)
        };
        let mut m = Machine::new(capacity);
        let mut waiting = vec![n];
        for (i, p) in placed.iter().enumerate() {
            match p {
                Some((st, r, t)) if *st <= now => m.busy.push((*st, st + t, *r)),
                Some(_) => waiting.push(i),
                None => {}
            }
        }
        waiting.sort_by_key(|&i| key(i));
        let mut fresh = Vec::new();
        for &i in &waiting {
            match m.algorithm1(now, subs[i].submit, subs[i].req, price, rule) {
                Some((st, r, t)) => {
                    m.busy.push((st, st + t, r));
                    fresh.push((i, (st, r, t)));
                }
                None => {
                    fresh.clear();
                    break;
                }
            }
        }
        placed.push(None);
        for (i, p) in fresh {
            placed[i] = Some(p);
        }
    }
    placed
}
