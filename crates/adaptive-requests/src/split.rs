//! Splitting a preemptive request into subrequests that fill the free
//! fragments of the queue.
//!
//! The paper fixes what a split may look like (`Sp = (N, I, M)`: at most `N`
//! subrequests, split only at multiples of `I` percent of the work, molded
//! one by one if `M`) but not how the scheduler chooses one. Ours is a greedy
//! fill with a safety net:
//!
//! 1. The unsplit placement of Algorithm 1 is the first candidate.
//! 2. From `now`, take the earliest event time at which some shape can run
//!    at least the next piece (`I` percent) of the work and end before the
//!    best completion so far; there, run as many pieces as fit (ties: more
//!    processors). That is the next subrequest; the cursor moves to its end.
//! 3. After each subrequest, place the rest of the work as one subrequest
//!    with Algorithm 1 from the cursor: prefix plus rest is a candidate.
//! 4. Repeat until the work is done or `N − 1` subrequests are placed, and
//!    keep the candidate with the earliest completion (ties: fewer
//!    subrequests), subject to the deadline and the budget.
//!
//! So a split placement is never later than the unsplit one, and the
//! fragments before the first slot where the whole request fits are used
//! whenever that finishes the request earlier. With `M = false` the whole
//! procedure runs once per shape, every subrequest on that shape.

use profile::Time;

use crate::place::{Part, Placement, Target, best_whole, first_fragment};
use crate::req::Preemption;

/// The best placement of a preemptive request found by the greedy fill.
pub(crate) fn place_split(
    steps: &[(Time, u32)],
    now: Time,
    target: &Target<'_>,
    sp: &Preemption,
) -> Option<Placement> {
    place_split_from(steps, now, target, sp).0
}

/// [`place_split`], and the earliest start among the placements the fill
/// computed from `now` itself: the unsplit placement and each group's
/// first fragment (`Time::MAX` if there are none). Every later search
/// starts where one of those ends, so it does not depend on `now`.
///
/// If Algorithm 1 finds the earliest-completion placement (the shapes'
/// durations never decrease as `R` falls), the fill gives the same
/// placement from any later `now` up to that start while the free capacity
/// from `now` on is the same: no window starting at the later `now` can run
/// where the window starting at the beginning of its step (or at the
/// earlier `now`) could not, and that one ends sooner; and the price never
/// rises with the completion time, so the shapes the budget rules out at
/// the later `now` have the same earliest affordable start.
pub(crate) fn place_split_from(
    steps: &[(Time, u32)],
    now: Time,
    target: &Target<'_>,
    sp: &Preemption,
) -> (Option<Placement>, Time) {
    let due = target.terms.due();
    let mut best: Option<Placement> =
        best_whole(steps, now, target, (0, 100), 0, due).map(Placement::single);
    let mut from_now = best.as_ref().map_or(Time::MAX, Placement::start);
    let limit_parts = sp.part_limit();
    if limit_parts < 2 {
        return (best, from_now);
    }
    let bounds = sp.boundaries();
    let last = bounds.len() - 1;
    let groups: Vec<&[(u32, i64)]> = if sp.mold_each {
        vec![target.shapes]
    } else {
        target.shapes.chunks(1).collect()
    };
    let mut prefix: Vec<Part> = Vec::with_capacity(limit_parts);
    for shapes in groups {
        let group = Target {
            shapes,
            terms: target.terms,
            tariff: target.tariff,
        };
        prefix.clear();
        let (mut cursor, mut at, mut work) = (now, 0usize, 0i64);
        while prefix.len() + 1 < limit_parts {
            let limit = best.as_ref().map_or(due, |b| b.completion() - 1).min(due);
            let Some(part) = first_fragment(steps, cursor, shapes, &bounds, at, limit) else {
                break;
            };
            if prefix.is_empty() {
                from_now = from_now.min(part.start);
            }
            at = bounds.iter().position(|&b| b == part.to).unwrap_or(last);
            cursor = part.end();
            work = work.saturating_add(part.proc_seconds());
            prefix.push(part);
            if at == last {
                if target.tariff.admits(target.terms, cursor, work) {
                    best = Placement::new(prefix.clone());
                }
                break;
            }
            let limit = best.as_ref().map_or(due, |b| b.completion() - 1).min(due);
            if let Some(rest) = best_whole(steps, cursor, &group, (bounds[at], 100), work, limit) {
                let mut parts = prefix.clone();
                parts.push(rest);
                best = Placement::new(parts);
            }
        }
    }
    (best, from_now)
}

#[cfg(test)]
mod tests {
    use profile::Profile;

    use super::*;
    use crate::price::{BudgetRule, PriceFunction, Tariff, Terms};

    const TARIFF: Tariff = Tariff {
        omega: PriceFunction::TABLE1,
        rule: BudgetRule::Limit,
    };

    fn terms(deadline: i64) -> Terms {
        Terms {
            submit: Time(0),
            t_min: 100,
            deadline,
            price_profile: 1.0,
            preemptive: true,
            budget: f64::MAX,
        }
    }

    /// 4 processors: free on [0, 50), busy on [50, 100) and [120, 200), free
    /// in between and after.
    fn fragmented() -> Profile {
        let mut p = Profile::new(4, Time(0));
        p.reserve(Time(50), 50, 4).unwrap();
        p.reserve(Time(120), 80, 4).unwrap();
        p
    }

    #[test]
    fn fills_fragments_before_the_first_whole_slot() {
        let p = fragmented();
        let t = terms(10_000);
        let shapes = [(4, 100)];
        let target = Target {
            shapes: &shapes,
            terms: &t,
            tariff: &TARIFF,
        };
        // Unsplit: starts at 200, ends at 300. Split every 10%: 50 s (5 pieces)
        // before 50, 20 s (2 pieces) in [100, 120), the last 30 s at 200.
        let sp = Preemption {
            max_parts: Some(10),
            split_percent: 10,
            mold_each: true,
        };
        let placed = place_split(p.steps(), Time(0), &target, &sp).unwrap();
        let parts: Vec<(i64, i64, u32, u32)> = placed
            .parts()
            .iter()
            .map(|q| (q.start.0, q.end().0, q.from, q.to))
            .collect();
        assert_eq!(
            parts,
            vec![(0, 50, 0, 50), (100, 120, 50, 70), (200, 230, 70, 100)]
        );
        // At most two subrequests: the first fragment, then the rest at 200.
        let sp = Preemption {
            max_parts: Some(2),
            ..sp
        };
        let placed = place_split(p.steps(), Time(0), &target, &sp).unwrap();
        assert_eq!(placed.parts().len(), 2);
        assert_eq!(placed.completion(), Time(250));
        // Splitting only at 30%, 60%, 90%: 30 s before 50, then [100,120) is
        // too short for a 30 s piece, so the remaining 70 s start at 200.
        let sp = Preemption {
            max_parts: None,
            split_percent: 30,
            mold_each: true,
        };
        let placed = place_split(p.steps(), Time(0), &target, &sp).unwrap();
        assert_eq!(placed.completion(), Time(270));
        assert_eq!(placed.parts()[0].to, 30);
    }

    #[test]
    fn never_later_than_unsplit() {
        // Everything free: the unsplit placement wins (ties keep one part).
        let p = Profile::new(4, Time(0));
        let t = terms(10_000);
        let shapes = [(4, 100)];
        let target = Target {
            shapes: &shapes,
            terms: &t,
            tariff: &TARIFF,
        };
        let placed = place_split(p.steps(), Time(0), &target, &Preemption::TABLE1).unwrap();
        assert!(!placed.is_split());
        assert_eq!(placed.completion(), Time(100));
    }

    #[test]
    fn same_shape_without_mold_each() {
        // 4 processors, 2 free on [0, 50), 4 free from 100 on.
        let mut p = Profile::new(4, Time(0));
        p.reserve(Time(0), 50, 2).unwrap();
        p.reserve(Time(50), 50, 4).unwrap();
        let t = terms(10_000);
        // 4 processors for 100 s or 2 for 200 s.
        let shapes = [(4, 100), (2, 200)];
        let target = Target {
            shapes: &shapes,
            terms: &t,
            tariff: &TARIFF,
        };
        let each = Preemption {
            max_parts: Some(10),
            split_percent: 10,
            mold_each: true,
        };
        let placed = place_split(p.steps(), Time(0), &target, &each).unwrap();
        // 20% on 2 processors (40 s) before 50, the other 80% on 4 from 100.
        assert_eq!(placed.completion(), Time(180));
        assert_eq!(
            placed.parts().iter().map(|q| q.procs).collect::<Vec<_>>(),
            vec![2, 4]
        );
        let same = Preemption {
            mold_each: false,
            ..each
        };
        let placed = place_split(p.steps(), Time(0), &target, &same).unwrap();
        assert!(
            placed
                .parts()
                .iter()
                .all(|q| q.procs == placed.parts()[0].procs)
        );
        assert_eq!(placed.completion(), Time(200));
    }
}
