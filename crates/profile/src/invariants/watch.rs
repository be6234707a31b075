//! The scheduler under test, watched at every decision: the checks that
//! need the [`Context`] as a decision leaves it, and the end of a run that
//! would otherwise never end.

use super::{Broken, broken};
use crate::context::{Context, Event};
use crate::sched::SimError;
use crate::scheduler::Scheduler;
use crate::{Profile, Time};

/// The most decisions on a wake-up alone ([`Event::Wake`], no other event
/// at that instant) in a row, with no arrival or end between them, a run of
/// the invariant suite may take; more is a broken
/// invariant ("ends"): a scheduler that keeps asking to wake and never
/// starts the job it holds (or polls every second for one that cannot
/// start for days) would keep the run, and the suite, from ending. (With
/// no job waiting, running or to come, the loop ends the run itself.)
pub const MAX_WAKE_UPS: u64 = 100_000;

/// A scheduler that runs `inner` and checks each decision.
pub(super) struct Watch<S> {
    inner: S,
    /// Check [`Guarantee::StartsHeadWhenItFits`](super::Guarantee::StartsHeadWhenItFits).
    head_fits: bool,
    /// Record [`Watch::head_bounds`] (for
    /// [`Guarantee::HeadStartsByEarliest`](super::Guarantee::HeadStartsByEarliest)).
    bound_heads: bool,
    wake_ups: u64,
    /// Scratch for the head's profile without its own reservation.
    scratch: Option<Profile>,
    /// Per input position: the decision instant and the earliest start the
    /// job had there at the head of the queue (the least over every
    /// decision that left it waiting at the head).
    pub(super) head_bounds: Vec<Option<(Time, Time)>>,
    /// The first check that broke; the run was ended then.
    pub(super) broken: Option<Broken>,
}

impl<S: Scheduler> Watch<S> {
    pub(super) fn new(inner: S, head_fits: bool, bound_heads: bool) -> Self {
        Watch {
            inner,
            head_fits,
            bound_heads,
            wake_ups: 0,
            scratch: None,
            head_bounds: Vec::new(),
            broken: None,
        }
    }

    /// Records the first broken check and ends the run with it.
    fn trip(&mut self, b: Broken) -> SimError {
        let reason = format!("the invariant suite found a broken invariant ({b})");
        self.broken.get_or_insert(b);
        SimError::Stopped { reason }
    }

    /// The earliest start of the head of the queue as a decision leaves
    /// it: its processors free for its estimate beside every running job
    /// and every other reservation (its own lifted first).
    fn head_earliest(&mut self, ctx: &Context<'_>) -> Option<Time> {
        let w = ctx.waiting(0)?;
        let (procs, estimate) = (w.job.procs, w.job.estimate);
        let profile = match w.reserved {
            None => ctx.profile(),
            Some(at) => {
                let p = self.scratch.get_or_insert_with(|| ctx.profile().clone());
                p.clone_from(ctx.profile());
                p.release(at, estimate, procs).ok()?;
                p
            }
        };
        profile.earliest_start(ctx.now(), procs, estimate)
    }

    /// Records `earliest`, the head's earliest start as a decision leaves
    /// it.
    fn bound_head(&mut self, ctx: &Context<'_>, earliest: Time) {
        let Some(index) = ctx.waiting(0).map(|w| w.index) else {
            return;
        };
        if self.head_bounds.len() <= index {
            self.head_bounds.resize(index + 1, None);
        }
        let bound = &mut self.head_bounds[index];
        if bound.is_none_or(|(_, b)| earliest < b) {
            *bound = Some((ctx.now(), earliest));
        }
    }

    /// The head of the queue as a decision leaves it, if it could start now
    /// (`earliest`, its earliest start, is now): its processors free from
    /// now for its estimate (its own reservation lifted first).
    fn head_could_start(ctx: &Context<'_>, earliest: Time) -> Option<String> {
        let now = ctx.now();
        if earliest != now {
            return None;
        }
        let w = ctx.waiting(0)?;
        let (procs, estimate) = (w.job.procs, w.job.estimate);
        let held = match w.reserved {
            Some(at) => format!(", holding a reservation from {at}"),
            None => String::new(),
        };
        Some(format!(
            "at {now} job {} (position {}), at the head of the queue{held}, was left waiting although its {procs} processors were free for its estimate of {estimate} s",
            w.job.id, w.index
        ))
    }
}

impl<S: Scheduler> Scheduler for Watch<S> {
    fn submitted(&mut self, ctx: &mut Context<'_>, position: usize) -> Result<(), SimError> {
        self.inner.submitted(ctx, position)
    }

    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.inner.freed(ctx)
    }

    fn extended(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.inner.extended(ctx)
    }

    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        // Counted since the last arrival or end: a long run of a scheduler
        // that wakes for a reason is not held to the bound as a whole.
        if ctx.event() != Event::Wake {
            self.wake_ups = 0;
        } else {
            self.wake_ups += 1;
            if self.wake_ups > MAX_WAKE_UPS {
                let (now, waiting) = (ctx.now(), ctx.queue_len());
                let running = ctx.running().count();
                return Err(self.trip(broken(
                    "ends",
                    format!(
                        "more than {MAX_WAKE_UPS} decisions in a row on wake-ups alone, the last at {now} with {waiting} jobs waiting and {running} running: the scheduler keeps asking to wake (Context::wake_at) and deciding nothing, so the run never ends; ask for a wake-up only for an instant where a decision can change"
                    ),
                )));
            }
        }
        self.inner.schedule(ctx)?;
        if !(self.bound_heads || self.head_fits) {
            return Ok(());
        }
        // Worked out once for both checks: with a reservation it costs a
        // copy of the profile.
        let Some(earliest) = self.head_earliest(ctx) else {
            return Ok(());
        };
        if self.bound_heads {
            self.bound_head(ctx, earliest);
        }
        if self.head_fits
            && let Some(detail) = Self::head_could_start(ctx, earliest)
        {
            return Err(self.trip(broken("starts the head when it fits", detail)));
        }
        Ok(())
    }
}
