//! The decision point every scheduling policy implements.

use crate::context::Context;
use crate::sched::SimError;

/// A scheduling policy on the shared event loop.
///
/// The loop calls [`Scheduler::schedule`] once per event (a submission, a
/// termination, the expired predictions of one instant, or a wake-up the
/// scheduler asked for with [`Context::wake_at`]). The hooks before it let a
/// policy that keeps reservations across decisions (conservative
/// backfilling) maintain them; a policy that decides afresh each time
/// (FCFS, EASY) needs only `schedule`.
///
/// The built-in policies are [`Fcfs`](crate::builtin::Fcfs),
/// [`Easy`](crate::builtin::Easy) and
/// [`Conservative`](crate::builtin::Conservative); [`Policy`](crate::Policy)
/// constructs them. Run any scheduler with
/// [`simulate_with`](crate::simulate_with) and check it with the invariant
/// suite in `profile::testing` (feature `testing`).
pub trait Scheduler {
    /// The waiting job at queue position `position` has just arrived. Runs
    /// before expired jobs are dropped and before [`Scheduler::schedule`].
    fn submitted(&mut self, _ctx: &mut Context<'_>, _position: usize) -> Result<(), SimError> {
        Ok(())
    }

    /// Capacity came free before the profile expected it: a job ended before
    /// its estimate, or waiting jobs holding reservations were dropped.
    fn freed(&mut self, _ctx: &mut Context<'_>) -> Result<(), SimError> {
        Ok(())
    }

    /// A running job outlived its estimate ([`Overrun::Continue`](crate::Overrun::Continue)) and its
    /// predicted end was extended. Every reservation was lifted first (it may
    /// no longer fit); the scheduler places again the ones it wants.
    fn extended(&mut self, _ctx: &mut Context<'_>) -> Result<(), SimError> {
        Ok(())
    }

    /// A decision: start waiting jobs now ([`Context::start`]), hold or move
    /// reservations ([`Context::reserve`]), ask for a later decision
    /// ([`Context::wake_at`]).
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError>;
}

impl<S: Scheduler + ?Sized> Scheduler for &mut S {
    fn submitted(&mut self, ctx: &mut Context<'_>, position: usize) -> Result<(), SimError> {
        (**self).submitted(ctx, position)
    }
    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        (**self).freed(ctx)
    }
    fn extended(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        (**self).extended(ctx)
    }
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        (**self).schedule(ctx)
    }
}

impl<S: Scheduler + ?Sized> Scheduler for Box<S> {
    fn submitted(&mut self, ctx: &mut Context<'_>, position: usize) -> Result<(), SimError> {
        (**self).submitted(ctx, position)
    }
    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        (**self).freed(ctx)
    }
    fn extended(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        (**self).extended(ctx)
    }
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        (**self).schedule(ctx)
    }
}
