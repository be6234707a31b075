//! Placements and Algorithm 1: the earliest-completion placement of a
//! (moldable) request over the availability profile.

use std::cell::Cell;

use profile::{Profile, Time};

use crate::error::ReqError;
use crate::fmol::Moldability;
use crate::price::{BudgetRule, PriceFunction, Tariff, Terms};
use crate::req::{Preemption, Req, checked_shapes};
use crate::share::{push_share_durations, share_of};
use crate::split::{place_split, place_split_from};

/// One (sub)request as placed: `procs` processors over
/// `[start, start + duration)`, running the share `[from, to)` (in percent)
/// of the request's work.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    /// When it starts.
    pub start: Time,
    /// Processors it holds, `R^min <= procs <= R^max`.
    pub procs: u32,
    /// Seconds it holds them: [`share_duration`](crate::share_duration)`(f_mol(procs), from, to)`.
    pub duration: i64,
    /// First percent of the work it runs.
    pub from: u32,
    /// The percent of the work done when it ends.
    pub to: u32,
}

impl Part {
    /// When it ends (exclusive).
    pub fn end(&self) -> Time {
        self.start.saturating_add(self.duration)
    }

    /// Processor-seconds it holds.
    pub fn proc_seconds(&self) -> i64 {
        i64::from(self.procs).saturating_mul(self.duration)
    }
}

/// Where and how an accepted request runs: one part, or (for a preemptive
/// request) several subrequests in time order that never overlap.
#[derive(Clone)]
pub struct Placement {
    parts: Parts,
}

/// A placement's parts: one held inline (most placements, made and
/// dropped at every rescheduling, then allocate nothing), or several.
#[derive(Clone)]
enum Parts {
    One(Part),
    Many(Vec<Part>),
}

// Equality, hashing and `Debug` are those of the parts, as when they were
// always a `Vec`.
impl PartialEq for Placement {
    fn eq(&self, other: &Placement) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for Placement {}

impl std::hash::Hash for Placement {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.parts().hash(state);
    }
}

impl std::fmt::Debug for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Placement")
            .field("parts", &self.parts())
            .finish()
    }
}

impl Placement {
    /// A placement from its parts, in time order. `None` if `parts` is empty.
    pub fn new(parts: Vec<Part>) -> Option<Placement> {
        match parts[..] {
            [] => None,
            [one] => Some(Placement::single(one)),
            _ => Some(Placement {
                parts: Parts::Many(parts),
            }),
        }
    }

    pub(crate) fn single(part: Part) -> Placement {
        Placement {
            parts: Parts::One(part),
        }
    }

    /// The parts in time order.
    pub fn parts(&self) -> &[Part] {
        match &self.parts {
            Parts::One(part) => std::slice::from_ref(part),
            Parts::Many(parts) => parts,
        }
    }

    /// When the first part starts.
    pub fn start(&self) -> Time {
        self.parts()[0].start
    }

    /// The completion time `T_c`: when the last part ends.
    pub fn completion(&self) -> Time {
        let parts = self.parts();
        parts[parts.len() - 1].end()
    }

    /// Processor-seconds over all parts (`Duration · R` of Algorithm 2),
    /// saturating at `i64::MAX`.
    pub fn proc_seconds(&self) -> i64 {
        self.parts()
            .iter()
            .map(Part::proc_seconds)
            .fold(0, i64::saturating_add)
    }

    /// Whether the request was split into several subrequests.
    pub fn is_split(&self) -> bool {
        self.parts().len() > 1
    }
}

/// What the search needs to know about the request it places.
pub(crate) struct Target<'a> {
    /// The allowed shapes `(R, f_mol(R))`, `R` descending.
    pub shapes: &'a [(u32, i64)],
    pub terms: &'a Terms,
    pub tariff: &'a Tariff,
}

impl Target<'_> {
    fn r_floor(&self) -> u32 {
        self.shapes.iter().map(|s| s.0).min().unwrap_or(u32::MAX)
    }
}

/// Index of the step containing `t` (the first step for earlier instants).
pub(crate) fn step_index(steps: &[(Time, u32)], t: Time) -> usize {
    steps.partition_point(|s| s.0 <= t).saturating_sub(1)
}

/// A shape `(R, duration)` of a share, and a field for its first
/// affordable start ([`best_whole`] fills it).
type ShareShape = (u32, i64, Option<Time>);

/// The durations of the share `[from, to)` on each shape (the third field
/// `None`), and whether they never decrease along the shapes (then a
/// blocked window blocks every later shape too).
fn share_durations<'b>(
    shapes: &[(u32, i64)],
    from: u32,
    to: u32,
    buffer: &'b mut Vec<ShareShape>,
) -> (&'b mut [ShareShape], bool) {
    buffer.extend(
        shapes
            .iter()
            .map(|&(r, t)| (r, share_of(t, from, to), None)),
    );
    let ascending = buffer.windows(2).all(|w| w[0].1 <= w[1].1);
    (buffer, ascending)
}

/// Reuses a thread's buffer for the per-call table of a search (no
/// allocation per call); the searches do not nest, each has its own.
fn with_buffer<T, R>(
    key: &'static std::thread::LocalKey<Cell<Vec<T>>>,
    f: impl FnOnce(&mut Vec<T>) -> R,
) -> R {
    key.with(|cell| {
        let mut buffer = cell.take();
        buffer.clear();
        let r = f(&mut buffer);
        cell.set(buffer);
        r
    })
}

thread_local! {
    static SHARE_DURATIONS: Cell<Vec<ShareShape>> = const { Cell::new(Vec::new()) };
    static FRAGMENT_DURATIONS: Cell<Vec<i64>> = const { Cell::new(Vec::new()) };
}

/// Algorithm 1 for the share `[from, to)` of a request: over the scheduling
/// event times at or after `lo`, try `R` from `R^max` down and take, at each
/// event time, the first shape that fits, meets the deadline and is
/// admissible under the budget; keep the earliest completion (ties: the
/// earliest start, then more processors). Parts ending after `max_end` are
/// not considered. `prefix_work` is the processor-time of subrequests
/// already placed, which the budget check adds.
///
/// The event times are `lo` and every later instant where the free capacity
/// changes (the starts and completions of scheduled requests, less those
/// where nothing changes, which can never win), plus, for a shape whose
/// price at the earliest completion exceeds the budget, the earliest start
/// whose completion it can afford. For `f_mol` non-increasing in `R` the
/// result is the earliest-completion placement over every start at or after
/// `lo`, so it depends only on the free capacity, never on how the profile
/// stores it.
///
/// The scan over event times prunes what cannot win: it stops once the
/// shortest shape starting at the event time cannot end by the best so far,
/// skips event times with fewer free processors than `R^min`, and jumps over
/// event times whose every window would cross a step with fewer than
/// `R^min` free processors.
pub(crate) fn best_whole(
    steps: &[(Time, u32)],
    lo: Time,
    target: &Target<'_>,
    share: (u32, u32),
    prefix_work: i64,
    max_end: Time,
) -> Option<Part> {
    with_buffer(&SHARE_DURATIONS, |buffer| {
        best_whole_with(buffer, steps, lo, target, share, prefix_work, max_end)
    })
}

/// [`best_whole`] with a buffer for the share durations.
fn best_whole_with(
    buffer: &mut Vec<ShareShape>,
    steps: &[(Time, u32)],
    lo: Time,
    target: &Target<'_>,
    share: (u32, u32),
    prefix_work: i64,
    max_end: Time,
) -> Option<Part> {
    let (from, to) = share;
    let (durs, ascending) = share_durations(target.shapes, from, to, buffer);
    let d_min = durs.iter().map(|s| s.1).min()?;
    let r_floor = target.r_floor();
    let max_end = max_end.min(target.terms.due());
    let work_of = |r: u32, d: i64| prefix_work.saturating_add(i64::from(r).saturating_mul(d));
    let part = |start: Time, procs: u32, duration: i64| Part {
        start,
        procs,
        duration,
        from,
        to,
    };
    let mut best: Option<Part> = None;
    // Each shape's first affordable start, the third field of its entry in
    // `durs`: `lo` if the budget affords the shape at `lo`, else the
    // earliest affordable start found below, or `None` if there is none at
    // any start the scan tries. The price never rises with the completion
    // time, so a window of the shape is within the budget exactly when it
    // starts there or later: the scan compares with it instead of pricing
    // every window it tries (debug builds check that both agree).
    for (r, d, first) in durs.iter_mut() {
        let (r, d) = (*r, *d);
        *first = Some(lo);
        let end = lo.saturating_add(d);
        if end > max_end || target.tariff.admits(target.terms, end, work_of(r, d)) {
            continue;
        }
        // A start ending after the best so far cannot beat it, so the
        // search stops there: the affordable start it finds is the same
        // whenever it could win (the price never rises with the completion
        // time, so the earliest affordable start does not depend on where
        // the search stops). Every window the scan tries ends by then.
        let reach = best.map_or(max_end, |b| b.end().min(max_end));
        let Some(start) = affordable_start(target, lo, d, work_of(r, d), reach) else {
            *first = None;
            continue;
        };
        *first = Some(start);
        let c = part(start, r, d);
        if least_free(steps, start, c.end()) >= r && better(&c, best.as_ref()) {
            best = Some(c);
        }
    }
    // The earliest known step, at or after the current event time, with
    // fewer than R^min free processors: (its time, its index).
    let mut block: Option<(Time, usize)> = None;
    let mut i = step_index(steps, lo);
    while i < steps.len() {
        let t0 = steps[i].0.max(lo);
        let limit = best.map_or(max_end, |b| b.end()).min(max_end);
        if t0.saturating_add(d_min) > limit {
            break;
        }
        if let Some((bt, bi)) = block {
            if bt <= t0 {
                block = None;
            } else if t0.saturating_add(d_min) > bt {
                i = bi + 1;
                block = None;
                continue;
            }
        }
        if steps[i].1 < r_floor {
            i += 1;
            continue;
        }
        // Sweep forward from t0 keeping the least free capacity seen.
        let mut least = u32::MAX;
        let mut j = i;
        let mut reach = t0;
        for &(r, d, first) in durs.iter() {
            let end = t0.saturating_add(d);
            if end > limit {
                if ascending {
                    break;
                }
                continue;
            }
            if end < reach {
                // Shorter than the last window: sweep again.
                least = u32::MAX;
                j = i;
            }
            // The sweep stops at the first step with fewer than `r` free:
            // the window fails, and a longer one would sweep on from there
            // (`least` is always the least over `steps[i..j]`).
            if least >= r {
                while j < steps.len() && steps[j].0 < end {
                    let free = steps[j].1;
                    j += 1;
                    if free < least {
                        least = free;
                        if free < r {
                            if free < r_floor && block.is_none() {
                                block = Some((steps[j - 1].0, j - 1));
                            }
                            break;
                        }
                    }
                }
            }
            reach = end;
            if least < r {
                if least < r_floor && ascending {
                    break;
                }
                continue;
            }
            let admissible = first.is_some_and(|first| t0 >= first);
            debug_assert_eq!(
                admissible,
                target.tariff.admits(target.terms, end, work_of(r, d))
            );
            if admissible {
                let c = part(t0, r, d);
                if better(&c, best.as_ref()) {
                    best = Some(c);
                }
                break;
            }
        }
        i += 1;
    }
    best
}

/// Whether `c` beats `best`: earlier completion, then earlier start, then
/// more processors.
fn better(c: &Part, best: Option<&Part>) -> bool {
    best.is_none_or(|b| {
        (c.end(), c.start, std::cmp::Reverse(c.procs))
            < (b.end(), b.start, std::cmp::Reverse(b.procs))
    })
}

/// The least free capacity over `[start, end)`.
fn least_free(steps: &[(Time, u32)], start: Time, end: Time) -> u32 {
    let i = step_index(steps, start);
    steps[i..]
        .iter()
        .take_while(|s| s.0 < end || s.0 <= start)
        .map(|s| s.1)
        .min()
        .unwrap_or(0)
}

/// The earliest start after `lo` at which a part of `duration` whose request
/// then holds `work` processor-seconds in all is within the budget, ending
/// by `max_end`. The price never rises with the completion time, so a
/// binary search finds it.
fn affordable_start(
    target: &Target<'_>,
    lo: Time,
    duration: i64,
    work: i64,
    max_end: Time,
) -> Option<Time> {
    let ok = |start: i64| {
        target
            .tariff
            .admits(target.terms, Time(start).saturating_add(duration), work)
    };
    let (mut bad, mut good) = (lo.0, max_end.0.saturating_sub(duration));
    if good <= bad || !ok(good) {
        return None;
    }
    #[cfg(debug_assertions)]
    let bracket = (bad, good);
    // The price function solved for the completion narrows the search, most
    // often to the answer: its guess and a neighbour are tested, and
    // whatever they show is a bracket the bisection below would also keep
    // (`bad` refused or `lo`, `good` accepted). Without the guess it takes
    // about 17 prices.
    let guess = target
        .tariff
        .first_admitted_completion(target.terms, work)
        .map(|completion| completion - duration as f64)
        .filter(|&start| start > bad as f64 && start < good as f64);
    if let Some(guess) = guess {
        let g = (guess as i64).clamp(bad + 1, good);
        if ok(g) {
            good = g;
            if g - 1 > bad && !ok(g - 1) {
                bad = g - 1;
            }
        } else {
            bad = g;
            if g + 1 < good && ok(g + 1) {
                good = g + 1;
            }
        }
    }
    let found = bisect(&ok, bad, good);
    #[cfg(debug_assertions)]
    debug_assert_eq!(
        found,
        bisect(&ok, bracket.0, bracket.1),
        "the guess moved the affordable start"
    );
    Some(Time(found))
}

/// The first accepted start in `(bad, good]`, given that `ok` refuses
/// `bad` (or `bad` is the lower end of the range) and accepts `good`, and
/// never refuses a later start than one it accepts.
fn bisect(ok: &impl Fn(i64) -> bool, mut bad: i64, mut good: i64) -> i64 {
    // In i128: `good - bad` may pass i64 for extreme `lo` and `max_end`.
    while i128::from(good) - i128::from(bad) > 1 {
        let mid = (i128::from(bad) + (i128::from(good) - i128::from(bad)) / 2) as i64;
        if ok(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

/// The splitter's step: the earliest event time at or after `lo` at which
/// some shape can run at least the next piece of the work (from boundary
/// `bounds[at]`), ending by `limit`; there, the part running the most
/// pieces (ties: the larger `R`).
pub(crate) fn first_fragment(
    steps: &[(Time, u32)],
    lo: Time,
    shapes: &[(u32, i64)],
    bounds: &[u32],
    at: usize,
    limit: Time,
) -> Option<Part> {
    with_buffer(&FRAGMENT_DURATIONS, |buffer| {
        first_fragment_with(buffer, steps, lo, shapes, bounds, at, limit)
    })
}

/// [`first_fragment`] with a buffer for the share durations.
fn first_fragment_with(
    buffer: &mut Vec<i64>,
    steps: &[(Time, u32)],
    lo: Time,
    shapes: &[(u32, i64)],
    bounds: &[u32],
    at: usize,
    limit: Time,
) -> Option<Part> {
    let from = bounds[at];
    let next = *bounds.get(at + 1)?;
    let d_min = shapes.iter().map(|&(_, t)| share_of(t, from, next)).min()?;
    let r_floor = shapes.iter().map(|s| s.0).min()?;
    // The duration of every share from `from` on each shape, computed once:
    // `durations[shape · ends.len() + k]` runs to `ends[k]`.
    let ends = &bounds[at + 1..];
    buffer.reserve(shapes.len() * ends.len());
    for &(_, t) in shapes {
        push_share_durations(buffer, t, from, ends);
    }
    let durations: &[i64] = buffer;
    let mut i = step_index(steps, lo);
    while i < steps.len() {
        let t0 = steps[i].0.max(lo);
        if t0.saturating_add(d_min) > limit {
            return None;
        }
        if steps[i].1 >= r_floor {
            let mut chosen: Option<Part> = None;
            for (&(r, _), durations) in shapes.iter().zip(durations.chunks(ends.len())) {
                let mut j = i;
                let mut blocked = false;
                for (&to, &d) in ends.iter().zip(durations) {
                    let end = t0.saturating_add(d);
                    if end > limit {
                        break;
                    }
                    // Up to the first step with fewer than `r` free, which
                    // blocks this window and every longer one.
                    while j < steps.len() && steps[j].0 < end {
                        if steps[j].1 < r {
                            blocked = true;
                            break;
                        }
                        j += 1;
                    }
                    if blocked {
                        break;
                    }
                    if chosen.is_none_or(|c| to > c.to) {
                        chosen = Some(Part {
                            start: t0,
                            procs: r,
                            duration: d,
                            from,
                            to,
                        });
                    }
                }
            }
            if chosen.is_some() {
                return chosen;
            }
        }
        i += 1;
    }
    None
}

/// The placement a scheduler gives `req`, submitted at `submit`, in
/// `profile` from `now` on: Algorithm 1 for a request that cannot be split,
/// the splitter (which never does worse than Algorithm 1) for a preemptive
/// one. `Ok(None)` if no placement completes by the deadline within the
/// budget.
///
/// The profile is not changed; reserve the parts to commit the placement.
///
/// ```
/// use adaptive_requests::{place, BudgetRule, LinearFmol, PriceFunction, Req};
/// use profile::{Profile, Time};
///
/// // 20 processors, 4 of them busy until 2000 s.
/// let mut p = Profile::new(20, Time(0));
/// p.reserve(Time(0), 2000, 4)?;
/// // 20 processors for 1000 s, or 16 for 1250 s (Table 1).
/// let req = Req::linear(LinearFmol::table1(20, 1000)?, 5000, 1e9, None)?;
/// let placed = place(&p, Time(0), Time(0), &req, &PriceFunction::TABLE1, BudgetRule::Limit)?.unwrap();
/// assert_eq!((placed.start(), placed.parts()[0].procs, placed.completion()), (Time(0), 16, Time(1250)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ReqError::Time`] for a `now` or `submit` outside `[-2^40, 2^40]` s,
/// and what [`Req::new`] would refuse in `req`'s `f_mol` now
/// ([`ReqError::ShapeTime`], [`ReqError::TooLong`], [`ReqError::NoShape`]):
/// a user's function may answer otherwise than when the request was built,
/// and the placement is made from this answer (as
/// [`Scheduler::submit`](crate::Scheduler::submit) checks it).
pub fn place<F: Moldability>(
    profile: &Profile,
    now: Time,
    submit: Time,
    req: &Req<F>,
    price: &PriceFunction,
    budget: BudgetRule,
) -> Result<Option<Placement>, ReqError> {
    for (name, time) in [("now", now), ("submit", submit)] {
        if !time.in_domain() {
            return Err(ReqError::Time { name, time });
        }
    }
    let shapes = checked_shapes(req)?;
    let terms = Terms::of(req, submit);
    let tariff = Tariff {
        omega: *price,
        rule: budget,
    };
    let target = Target {
        shapes: &shapes,
        terms: &terms,
        tariff: &tariff,
    };
    Ok(place_target(
        profile.steps(),
        now.max(submit),
        &target,
        req.preemption(),
    ))
}

/// [`place`] on a prepared target.
pub(crate) fn place_target(
    steps: &[(Time, u32)],
    now: Time,
    target: &Target<'_>,
    sp: Option<Preemption>,
) -> Option<Placement> {
    match sp {
        Some(sp) if sp.part_limit() > 1 => place_split(steps, now, target, &sp),
        _ => best_whole(steps, now, target, (0, 100), 0, target.terms.due()).map(Placement::single),
    }
}

/// [`place_target`], and for a split request the latest `now` up to which
/// the same call gives the same placement while the free capacity from
/// `now` on stays as it is ([`place_split_from`]); `None` for a request
/// placed whole, or whose shapes do not all take at least as long with
/// fewer processors (Algorithm 1 then takes the widest shape that fits,
/// not necessarily the earliest completion, and the bound is not proven).
pub(crate) fn place_target_from(
    steps: &[(Time, u32)],
    now: Time,
    target: &Target<'_>,
    sp: Option<Preemption>,
) -> (Option<Placement>, Option<Time>) {
    match sp {
        Some(sp) if sp.part_limit() > 1 => {
            let (placed, from_now) = place_split_from(steps, now, target, &sp);
            let slower = target.shapes.windows(2).all(|w| w[0].1 <= w[1].1);
            (placed, slower.then_some(from_now))
        }
        _ => (place_target(steps, now, target, sp), None),
    }
}

/// Whether every part of `placement` fits in `profile` as it is.
pub(crate) fn fits(profile: &Profile, placement: &Placement) -> bool {
    placement
        .parts()
        .iter()
        .all(|p| profile.min_free(p.start, p.end()) >= p.procs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(submit: i64, t_min: i64, deadline: i64) -> Terms {
        Terms {
            submit: Time(submit),
            t_min,
            deadline,
            price_profile: 1.0,
            preemptive: false,
            budget: f64::MAX,
        }
    }

    const TARIFF: Tariff = Tariff {
        omega: PriceFunction::TABLE1,
        rule: BudgetRule::Limit,
    };

    #[test]
    fn molds_to_finish_earlier() {
        // 10 processors; 6 busy until 100, then 10 free.
        let mut p = Profile::new(10, Time(0));
        p.reserve(Time(0), 100, 6).unwrap();
        let shapes = [(8, 100), (4, 200)];
        let t = terms(0, 100, 10_000);
        let target = Target {
            shapes: &shapes,
            terms: &t,
            tariff: &TARIFF,
        };
        // R = 8 starts at 100 and ends at 200; R = 4 starts now and ends at 200 too:
        // the tie goes to the earlier event time.
        let part = best_whole(p.steps(), Time(0), &target, (0, 100), 0, Time::MAX).unwrap();
        assert_eq!(
            (part.start, part.procs, part.end()),
            (Time(0), 4, Time(200))
        );
        // With a longer narrow shape, the wide one wins.
        let shapes = [(8, 100), (4, 250)];
        let target = Target {
            shapes: &shapes,
            terms: &t,
            tariff: &TARIFF,
        };
        let part = best_whole(p.steps(), Time(0), &target, (0, 100), 0, Time::MAX).unwrap();
        assert_eq!(
            (part.start, part.procs, part.end()),
            (Time(100), 8, Time(200))
        );
        // A deadline of 199 rules both out.
        let t = terms(0, 100, 199);
        let target = Target {
            shapes: &shapes,
            terms: &t,
            tariff: &TARIFF,
        };
        assert_eq!(
            best_whole(p.steps(), Time(0), &target, (0, 100), 0, Time::MAX),
            None
        );
    }

    #[test]
    fn fragment_takes_the_most_pieces_at_the_earliest_time() {
        // 4 processors, free on [0, 30), busy [30, 100), free after.
        let mut p = Profile::new(4, Time(0));
        p.reserve(Time(30), 70, 4).unwrap();
        let bounds = [0, 25, 50, 75, 100];
        // 100 s on 4 processors: 25 s per piece, one piece fits before 30.
        let part = first_fragment(p.steps(), Time(0), &[(4, 100)], &bounds, 0, Time::MAX).unwrap();
        assert_eq!((part.start, part.to, part.duration), (Time(0), 25, 25));
        // From the second piece on, nothing fits until 100; then all three.
        let part = first_fragment(p.steps(), Time(25), &[(4, 100)], &bounds, 1, Time::MAX).unwrap();
        assert_eq!((part.start, part.from, part.to), (Time(100), 25, 100));
        // Ending by 150 leaves room for two pieces, by 124 for none.
        let part = first_fragment(p.steps(), Time(25), &[(4, 100)], &bounds, 1, Time(150)).unwrap();
        assert_eq!((part.start, part.from, part.to), (Time(100), 25, 75));
        assert_eq!(
            first_fragment(p.steps(), Time(25), &[(4, 100)], &bounds, 1, Time(124)),
            None
        );
    }
}
