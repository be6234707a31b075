//! The on-line schedulers: FIFO and Missing Deadline First, both with
//! conservative backfilling and hard deadlines.

use std::collections::HashMap;

use profile::{Profile, Time};

use crate::error::SchedError;
use crate::fmol::{LinearFmol, Moldability};
use crate::place::{Placement, Target, fits, place_target_from};
use crate::price::{BudgetRule, PriceFunction, Tariff, Terms};
use crate::req::{Req, checked_shapes};

/// Which scheduler, by name: the paper's request orders for configurations.
/// It implements [`RequestOrder`] by running [`Fifo`] or [`Mdf`]; an order
/// of one's own is a [`RequestOrder`] given to [`SchedulerConfig::new`]
/// instead. With the `serde` feature it is written by name: `fifo` or `mdf`
/// (as [`Policy::name`] gives it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum Policy {
    /// First in, first out with conservative backfilling: each request is
    /// placed on arrival (Algorithm 1, or the splitter for a preemptive
    /// request) at its earliest completion, and never moves afterwards.
    Fifo,
    /// Missing Deadline First: on every arrival the requests still waiting
    /// and the new one are sorted by slack (deadline − now − `T` at `R^max`,
    /// least first) and placed again in that order; started requests stay.
    Mdf,
}

impl Policy {
    /// `fifo` or `mdf`.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Fifo => "fifo",
            Policy::Mdf => "mdf",
        }
    }
}

/// The order in which the scheduler considers requests: the extension point
/// of adaptive-requests.
///
/// The [`Scheduler`] owns placement (Algorithm 1 for moldable requests, the
/// splitter for preemptive ones), deadlines, budgets and prices; the order
/// says whether an arrival places the waiting requests again and, if so, in
/// which order. Every order keeps the scheduler's promise: an accepted
/// request is never made late or dropped (a failed rescheduling is undone,
/// and [`Fallback`] says what happens to the newcomer).
///
/// The paper's orders are implementations: [`Fifo`] and [`Mdf`]; [`Policy`]
/// names them for configurations. `crates/adaptive-requests/examples/`
/// has a user's order.
pub trait RequestOrder {
    /// Whether each arrival places every waiting request (accepted, not yet
    /// started) again, together with the new one, in [`rank`] order (as
    /// [`Mdf`]); otherwise the new request is placed into the schedule as it
    /// stands and nothing ever moves (as [`Fifo`]).
    ///
    /// [`rank`]: RequestOrder::rank
    fn reschedules(&self) -> bool;

    /// The request's place in the order, computed once when it is submitted
    /// at `submit`: lower ranks are placed first, equal ranks in submission
    /// order. A rank must not depend on anything but its arguments (the
    /// scheduler's [`Rescheduling::Full`] relies on a waiting request's rank
    /// never changing).
    fn rank<F: Moldability>(&self, id: u64, submit: Time, req: &Req<F>) -> i64;
}

/// First in, first out with conservative backfilling: each request is
/// placed on arrival at its earliest completion and never moves afterwards.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fifo;

impl RequestOrder for Fifo {
    fn reschedules(&self) -> bool {
        false
    }

    /// The submission time (never used to move anything: FIFO does not
    /// reschedule).
    fn rank<F: Moldability>(&self, _id: u64, submit: Time, _req: &Req<F>) -> i64 {
        submit.secs()
    }
}

/// Missing Deadline First: on every arrival the waiting requests and the new
/// one are placed again, least slack first. The slack at a common `now` is
/// `deadline − now − T` at `R^max`, so the rank is the absolute deadline
/// minus the time at `R^max` (saturating at the ends of the time domain).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mdf;

impl RequestOrder for Mdf {
    fn reschedules(&self) -> bool {
        true
    }

    fn rank<F: Moldability>(&self, _id: u64, submit: Time, req: &Req<F>) -> i64 {
        let widest = req.shapes().next().map_or(0, |s| s.1);
        submit
            .saturating_add(req.deadline())
            .saturating_add(widest.saturating_neg())
            .secs()
    }
}

impl RequestOrder for Policy {
    fn reschedules(&self) -> bool {
        match self {
            Policy::Fifo => Fifo.reschedules(),
            Policy::Mdf => Mdf.reschedules(),
        }
    }

    fn rank<F: Moldability>(&self, id: u64, submit: Time, req: &Req<F>) -> i64 {
        match self {
            Policy::Fifo => Fifo.rank(id, submit, req),
            Policy::Mdf => Mdf.rank(id, submit, req),
        }
    }
}

/// What MDF does when placing every waiting request again, together with
/// the new one, leaves one of them without a feasible placement. With the
/// `serde` feature it is written by name: `reject` or `append`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum Fallback {
    /// Reject the new request and keep the previous schedule.
    #[default]
    Reject,
    /// Keep the previous schedule and place the new request into it as FIFO
    /// would (after everything already accepted); reject it only if that fails.
    Append,
}

/// How MDF places the waiting requests again on an arrival. With the `serde`
/// feature it is written by name: `full` or `incremental`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum Rescheduling {
    /// Every waiting request is placed again from scratch, in slack order:
    /// the paper's MDF.
    ///
    /// While the schedule is the one this mode made (no
    /// [`Fallback::Append`] since), the requests before the new one in the
    /// slack order that Algorithm 1 places are not actually placed again
    /// as long as no request before them has moved: each would land where
    /// it is. Its placement was made in the same order on the same free
    /// capacity, only from an earlier `now`, and still starts after the
    /// current one; Algorithm 1's placement is the earliest completion
    /// over every start, so a search from the later `now` finds it again.
    /// A request the splitter places is placed again: its greedy fill may
    /// find a different placement from a later `now` (it no longer starts
    /// from a fragment that has passed), and if it moves, every request
    /// after it is placed again too. Except when its last fill is known to
    /// hold: nothing before it in the order has moved since, no request
    /// after it has started (a started request stays in the profile, where
    /// the fill did not see it), its shapes take no less time with fewer processors, and
    /// the unsplit placement and the first fragment of each fill computed
    /// from the earlier `now` all start at or after the current one (the
    /// fill from the later `now` then computes the same placements; see
    /// `place_split_from`). Debug builds ask the splitter again and compare.
    /// The `mdf_prefix_kept_is_the_full_rescheduling` test checks the result
    /// against placing every request again.
    #[default]
    Full,
    /// From the new request's place in the slack order on: the requests
    /// before it, and those after it that still fit where they were while
    /// no request before them moved, keep their placements. For requests
    /// placed by Algorithm 1 (with `f_mol` non-increasing in `R`) this is
    /// exactly the schedule of `Full` (their best placement in a more
    /// crowded profile, if still free, is still the best) at a fraction of
    /// the cost; the splitter's greedy choices can differ now and then.
    Incremental,
}

/// How a [`Scheduler`] works: machine size, request order `O` (by default a
/// built-in, [`Policy`]), pricing and the rules the paper leaves open.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SchedulerConfig<O = Policy> {
    /// Processors of the machine.
    pub capacity: u32,
    /// The request order: FIFO, MDF, or any [`RequestOrder`].
    pub policy: O,
    /// The price function `ω`.
    pub price: PriceFunction,
    /// How budgets bind.
    pub budget: BudgetRule,
    /// What a rescheduling order (MDF) does when rescheduling fails.
    pub fallback: Fallback,
    /// How a rescheduling order (MDF) reschedules.
    pub rescheduling: Rescheduling,
}

impl<O> SchedulerConfig<O> {
    /// A machine of `capacity` processors under `policy`, with Table 1's
    /// prices, budgets as limits, and MDF rejecting on a failed rescheduling.
    pub fn new(capacity: u32, policy: O) -> Self {
        SchedulerConfig {
            capacity,
            policy,
            price: PriceFunction::TABLE1,
            budget: BudgetRule::Limit,
            fallback: Fallback::Reject,
            rescheduling: Rescheduling::Full,
        }
    }

    /// With another price function.
    pub fn price(mut self, price: PriceFunction) -> Self {
        self.price = price;
        self
    }

    /// With another budget rule.
    pub fn budget(mut self, rule: BudgetRule) -> Self {
        self.budget = rule;
        self
    }

    /// With another MDF fallback.
    pub fn fallback(mut self, fallback: Fallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// With another MDF rescheduling mode.
    pub fn rescheduling(mut self, mode: Rescheduling) -> Self {
        self.rescheduling = mode;
        self
    }

    pub(crate) fn tariff(&self) -> Tariff {
        Tariff {
            omega: self.price,
            rule: self.budget,
        }
    }

    /// What the scheduler charges `request` for `placement`: `ω` of the
    /// placement, capped at the budget under [`BudgetRule::Cap`] (the
    /// [`RequestOutcome::price`] of an accepted request).
    pub fn charge<F: Moldability>(&self, request: &Request<F>, placement: &Placement) -> f64 {
        let terms = Terms::of(&request.req, request.submit);
        self.tariff()
            .charged(&terms, placement.completion(), placement.proc_seconds())
    }

    /// Whether [`schedule`] gives `requests` the same placements (and
    /// rejections) under every incentive of the price function, so that
    /// only the preemptive requests' prices differ: re-price the outcomes
    /// with [`SchedulerConfig::charge`] instead of scheduling again.
    ///
    /// The incentive enters a schedule only through the budget test of a
    /// placement of a request with `Sp` (the only requests it applies to),
    /// under [`BudgetRule::Limit`]; under [`BudgetRule::Cap`] no budget
    /// excludes a placement. Under `Limit` it is true when every request
    /// with `Sp` has one shape `(R, T)` and a budget of at least `ω`'s full
    /// price of `R·T` processor-seconds at its price profile (Table 1's
    /// budget on a request that is not moldable): every placement the
    /// scheduler tests for it, whole or split, runs on that shape and holds
    /// `R·T` processor-seconds (subrequests split `T` at percentages whose
    /// [`share_duration`](crate::share_duration)s add up to `T`), so it
    /// costs at most that full price at no incentive, and an incentive only
    /// lowers the price: every budget test passes, whatever the incentive.
    pub fn same_at_every_incentive<F: Moldability>(&self, requests: &[Request<F>]) -> bool {
        self.budget == BudgetRule::Cap
            || requests.iter().all(|r| {
                if !r.req.is_preemptive() {
                    return true;
                }
                let mut shapes = r.req.shapes();
                let (Some((procs, time)), None) = (shapes.next(), shapes.next()) else {
                    return false;
                };
                let work = i64::from(procs).saturating_mul(time);
                self.price
                    .full_price(work, r.req.price_profile())
                    .is_ok_and(|full| full <= r.req.budget())
            })
    }
}

/// A request as submitted: who, when, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Request<F = LinearFmol> {
    /// The caller's identifier, echoed in the outcome.
    pub id: u64,
    /// Submission time.
    pub submit: Time,
    /// The adaptive request.
    pub req: Req<F>,
}

/// The answer to a submission.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Accepted, with its placement as of now (MDF may move it later, never
    /// past its deadline or budget).
    Accepted(Placement),
    /// Rejected: no placement meets its deadline and budget.
    Rejected,
}

/// The fate of one submitted request once the run is over.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestOutcome {
    /// The request's id.
    pub id: u64,
    /// Its submission time.
    pub submit: Time,
    /// Where it ran, or `None` if it was rejected.
    pub placement: Option<Placement>,
    /// What it paid ($): `ω` of its final placement (capped at the budget
    /// under [`BudgetRule::Cap`]); 0 if rejected.
    pub price: f64,
}

impl RequestOutcome {
    /// Completion minus submission, if accepted.
    pub fn response(&self) -> Option<i64> {
        self.placement
            .as_ref()
            .map(|p| p.completion() - self.submit)
    }
}

struct Entry<F> {
    id: u64,
    req: Req<F>,
    terms: Terms,
    shapes: Vec<(u32, i64)>,
    /// The request's [`RequestOrder::rank`]: deadline − T at the widest
    /// shape under MDF.
    key: i64,
    placement: Option<Placement>,
    /// For a placement the splitter gave (`place_target_from`): the latest
    /// `now` at which it would give it again on the same free capacity.
    reuse_until: Option<Time>,
}

/// An on-line scheduler of adaptive requests on one machine.
///
/// Submit requests in time order; each is accepted with a placement that
/// completes by its deadline within its budget, or rejected. Under MDF the
/// waiting requests are rescheduled on every arrival, but an accepted
/// request always keeps a feasible placement.
///
/// ```
/// use adaptive_requests::{Decision, LinearFmol, Policy, Req, Scheduler, SchedulerConfig};
/// use profile::Time;
///
/// let mut s = Scheduler::new(SchedulerConfig::new(16, Policy::Mdf))?;
/// let wide = Req::linear(LinearFmol::table1(16, 3600)?, 10 * 3600, 16.0, None)?;
/// assert!(matches!(s.submit(1, Time(0), wide)?, Decision::Accepted(_)));
/// // A 12-processor request (R^min = 10) with a tight deadline must wait
/// // for the first one.
/// let tight = Req::linear(LinearFmol::table1(12, 600)?, 1800, 2.0, None)?;
/// assert_eq!(s.submit(2, Time(60), tight)?, Decision::Rejected);
/// let outcomes = s.outcomes();
/// assert_eq!(outcomes[0].placement.as_ref().map(|p| p.completion()), Some(Time(3600)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Scheduler<F = LinearFmol, O = Policy> {
    config: SchedulerConfig<O>,
    tariff: Tariff,
    profile: Profile,
    entries: Vec<Entry<F>>,
    /// Accepted requests that have not started, in the order's order (rank,
    /// arrival).
    waiting: Vec<usize>,
    /// Whether every waiting request is where placing them all again in
    /// MDF order would put it (false after a [`Fallback::Append`]).
    settled: bool,
    /// The profile before a rescheduling, to return to if it fails (kept
    /// to reuse its allocation).
    backup: Profile,
    now: Time,
    /// The ids submitted so far, each with its position in the order
    /// submitted: each request has its own.
    ids: HashMap<u64, usize>,
}

impl<F: Moldability, O: RequestOrder> Scheduler<F, O> {
    /// An idle machine at time 0.
    pub fn new(config: SchedulerConfig<O>) -> Result<Self, SchedError> {
        if config.capacity == 0 {
            return Err(SchedError::NoCapacity);
        }
        Ok(Scheduler {
            tariff: config.tariff(),
            profile: Profile::new(config.capacity, Time(i64::MIN)),
            entries: Vec::new(),
            waiting: Vec::new(),
            settled: true,
            backup: Profile::new(config.capacity, Time(i64::MIN)),
            now: Time(i64::MIN),
            ids: HashMap::new(),
            config,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &SchedulerConfig<O> {
        &self.config
    }

    /// The time of the latest submission.
    pub fn now(&self) -> Time {
        self.now
    }

    /// The free processors from now on, with every accepted request reserved.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Accepted requests that have not started yet.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Submits request `id` at time `submit` (not before the previous one,
    /// and in `[-Time::LIMIT, Time::LIMIT]`, ±2^40 s).
    pub fn submit(&mut self, id: u64, submit: Time, req: Req<F>) -> Result<Decision, SchedError> {
        if !submit.in_domain() {
            return Err(SchedError::SubmitTime { id, submit });
        }
        if submit < self.now {
            return Err(SchedError::OutOfOrder {
                id,
                submit,
                now: self.now,
            });
        }
        if let Some(&first) = self.ids.get(&id) {
            return Err(SchedError::DuplicateId {
                id,
                first,
                second: self.ids.len(),
            });
        }
        // `f_mol` was checked when the request was built; a user's function
        // may answer otherwise now, and the shapes are taken from this answer.
        let shapes = checked_shapes(&req).map_err(|error| SchedError::Request { id, error })?;
        self.ids.insert(id, self.ids.len());
        let t_min = shapes.iter().map(|&(_, t)| t).min().unwrap_or(1);
        self.now = submit;
        let now = submit;
        let waits = |e: &Entry<F>| e.placement.as_ref().is_some_and(|p| p.start() > now);
        // A request that starts stays in the profile where the requests
        // before it in the order were placed without it: their splitter
        // answers no longer hold.
        if let Some(k) = self.waiting.iter().rposition(|&e| !waits(&self.entries[e])) {
            for &e in &self.waiting[..k] {
                self.entries[e].reuse_until = None;
            }
        }
        let entries = &self.entries;
        self.waiting.retain(|&e| waits(&entries[e]));
        self.profile.advance(now);
        let terms = Terms {
            t_min,
            ..Terms::of(&req, submit)
        };
        let key = self.config.policy.rank(id, submit, &req);
        let index = self.entries.len();
        self.entries.push(Entry {
            id,
            req,
            terms,
            shapes,
            key,
            placement: None,
            reuse_until: None,
        });
        let placed = if self.config.policy.reschedules() {
            match self.reschedule(index)? {
                Some(p) => Some(p),
                None if self.config.fallback == Fallback::Append => self.append(index)?,
                None => None,
            }
        } else {
            self.append(index)?
        };
        Ok(match placed {
            Some(p) => Decision::Accepted(p),
            None => Decision::Rejected,
        })
    }

    /// Places request `index` into the current schedule without moving
    /// anything; records it as waiting (in MDF order) if accepted.
    fn append(&mut self, index: usize) -> Result<Option<Placement>, SchedError> {
        let Some(p) = self.place(index).0 else {
            return Ok(None);
        };
        self.reserve(&p)?;
        self.entries[index].placement = Some(p.clone());
        // Placed over later requests' reservations too: not reusable.
        self.entries[index].reuse_until = None;
        let at = self.position(index);
        // Placed after everything, not in its MDF place.
        self.settled &= at == self.waiting.len();
        self.waiting.insert(at, index);
        Ok(Some(p))
    }

    /// Where request `index` goes in the MDF order of the waiting queue.
    fn position(&self, index: usize) -> usize {
        let key = (self.entries[index].key, index);
        self.waiting
            .partition_point(|&e| (self.entries[e].key, e) < key)
    }

    /// MDF on the arrival of request `index`: the new request and the waiting
    /// requests from its place in the slack order on (all of them under
    /// [`Rescheduling::Full`]) are placed again in order. Commits and returns
    /// the new request's placement, or leaves everything as it was and
    /// returns `None` if some request finds no feasible placement.
    fn reschedule(&mut self, index: usize) -> Result<Option<Placement>, SchedError> {
        let at = self.position(index);
        let full = self.config.rescheduling == Rescheduling::Full;
        let first = match self.config.rescheduling {
            Rescheduling::Full if !self.settled => 0,
            // See `Rescheduling::Full`: up to the first request the splitter
            // places, the requests before `at` would land where they are.
            Rescheduling::Full => self.waiting[..at]
                .iter()
                .position(|&e| self.splits(e))
                .unwrap_or(at),
            Rescheduling::Incremental => at,
        };
        let mut order: Vec<usize> = self.waiting[first..].to_vec();
        order.insert(at - first, index);
        self.backup.clone_from(&self.profile);
        for &e in &order {
            if let Some(p) = &self.entries[e].placement {
                release(&mut self.profile, p)?;
            }
        }
        // Whether a request before the current one in the order has moved
        // (under `Full`, the new request counts as moved): until then, a
        // request whose placement still fits keeps it, unless `Full` must
        // ask the splitter again.
        let mut moved = full && first == 0 && !self.settled;
        let mut fresh: Vec<(Placement, Option<Time>)> = Vec::with_capacity(order.len());
        for &e in &order {
            let old = self.entries[e].placement.as_ref();
            let splits = self.splits(e);
            let keep = !(moved || full && splits);
            // Under `Full` the splitter is asked again, unless nothing before
            // the request moved since it last answered (so the free capacity
            // it sees from now on is the same) and its answer is known to
            // hold from now (`place_target_from`).
            let until = self.entries[e].reuse_until;
            let reuse = full && splits && !moved && until.is_some_and(|t| self.now <= t);
            let kept = old
                .filter(|p| (keep || reuse) && fits(&self.profile, p))
                .cloned();
            let (p, until) = match kept {
                Some(p) => {
                    debug_assert!(
                        !reuse || self.place(e) == (Some(p.clone()), until),
                        "request {}: the splitter answers otherwise than the answer reused",
                        self.entries[e].id
                    );
                    (p, if reuse { until } else { None })
                }
                None => match self.place(e) {
                    (Some(p), until) => {
                        moved |= old.is_none_or(|o| *o != p) && (full || old.is_some());
                        (p, until)
                    }
                    (None, _) => {
                        std::mem::swap(&mut self.profile, &mut self.backup);
                        return Ok(None);
                    }
                },
            };
            self.reserve(&p)?;
            fresh.push((p, until));
        }
        for (&e, (p, until)) in order.iter().zip(fresh) {
            self.entries[e].placement = Some(p);
            self.entries[e].reuse_until = until;
        }
        self.waiting.insert(at, index);
        self.settled |= first == 0;
        Ok(self.entries[index].placement.clone())
    }

    /// Whether request `index` is placed by the splitter.
    fn splits(&self, index: usize) -> bool {
        self.entries[index]
            .req
            .preemption()
            .is_some_and(|sp| sp.part_limit() > 1)
    }

    /// The best placement of request `index` in the current profile from
    /// now: the splitter for preemptive requests, Algorithm 1 otherwise;
    /// with how long it holds (`place_target_from`).
    fn place(&self, index: usize) -> (Option<Placement>, Option<Time>) {
        let e = &self.entries[index];
        let target = Target {
            shapes: &e.shapes,
            terms: &e.terms,
            tariff: &self.tariff,
        };
        place_target_from(self.profile.steps(), self.now, &target, e.req.preemption())
    }

    fn reserve(&mut self, p: &Placement) -> Result<(), SchedError> {
        for part in p.parts() {
            self.profile
                .reserve(part.start, part.duration, part.procs)
                .map_err(|error| SchedError::Internal { error })?;
        }
        Ok(())
    }

    /// Every submitted request, in submission order, with its final placement
    /// and price.
    pub fn outcomes(&self) -> Vec<RequestOutcome> {
        self.entries
            .iter()
            .map(|e| RequestOutcome {
                id: e.id,
                submit: e.terms.submit,
                price: e.placement.as_ref().map_or(0.0, |p| {
                    self.tariff
                        .charged(&e.terms, p.completion(), p.proc_seconds())
                }),
                placement: e.placement.clone(),
            })
            .collect()
    }

    /// The submitted requests, in submission order.
    pub fn requests(&self) -> impl Iterator<Item = (u64, Time, &Req<F>)> + '_ {
        self.entries.iter().map(|e| (e.id, e.terms.submit, &e.req))
    }
}

fn release(profile: &mut Profile, p: &Placement) -> Result<(), SchedError> {
    for part in p.parts() {
        profile
            .release(part.start, part.duration, part.procs)
            .map_err(|error| SchedError::Internal { error })?;
    }
    Ok(())
}

/// Runs `requests` (in submission order) through a scheduler and returns
/// every outcome, in the same order.
pub fn schedule<F: Moldability + Clone, O: RequestOrder>(
    config: SchedulerConfig<O>,
    requests: &[Request<F>],
) -> Result<Vec<RequestOutcome>, SchedError> {
    let mut s = Scheduler::new(config)?;
    for r in requests {
        s.submit(r.id, r.submit, r.req.clone())?;
    }
    Ok(s.outcomes())
}
