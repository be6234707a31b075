//! The event loop every scheduler runs on.
//!
//! The loop owns what every policy must get right: events in pyss's order
//! (expired predictions, then each submission, then each termination, each
//! followed by a decision), early release of a job's unused tail, killing or
//! extending a job at its estimate, dropping expired jobs, streaming. The
//! scheduler only decides, through the [`Context`].

use crate::context::{Context, Event, Sink};
use crate::sched::{Input, Observer, SimError};
use crate::scheduler::Scheduler;
use crate::{Job, Outcome, SchedulerConfig, Time};

/// The event loop: the context, the jobs still to come, and the next one.
pub(crate) struct Engine<'a, I> {
    pub(crate) ctx: Context<'a>,
    input: Input<I>,
    next: Option<Job>,
    /// Decisions on wake-ups alone since the last other event.
    wake_ups: u64,
}

impl<'a, I: Iterator<Item = Job>> Engine<'a, I> {
    /// Reads the first job (the origin of time is its submit time).
    pub(crate) fn new(
        config: &SchedulerConfig,
        jobs: I,
        observer: &'a mut dyn Observer,
        sink: Sink<'a>,
    ) -> Result<Self, SimError> {
        if config.capacity == 0 {
            return Err(SimError::NoCapacity);
        }
        let mut input = Input::new(jobs);
        let next = input.next(config)?;
        let origin = next.as_ref().map_or(Time::ZERO, |j| j.submit);
        Ok(Engine {
            ctx: Context::new(config.clone(), origin, observer, sink),
            input,
            next,
            wake_ups: 0,
        })
    }

    /// Jobs read so far.
    pub(crate) fn read(&self) -> usize {
        self.input.read
    }

    /// Handles the next event, calling the scheduler's hooks, and drops
    /// expired jobs; returns `false` when nothing is left to happen. The
    /// caller then lets the scheduler decide. An error halts the run: the
    /// context refuses every action with it from then on.
    #[inline]
    pub(crate) fn next_event<S: Scheduler + ?Sized>(
        &mut self,
        scheduler: &mut S,
    ) -> Result<bool, SimError> {
        let result = self.event(scheduler);
        if let Err(e) = &result {
            self.halt(e);
        }
        result
    }

    #[cold]
    #[inline(never)]
    fn halt(&mut self, e: &SimError) {
        self.ctx.halted = Some(Box::new(e.clone()));
    }

    #[inline(always)]
    fn event<S: Scheduler + ?Sized>(&mut self, scheduler: &mut S) -> Result<bool, SimError> {
        let ctx = &mut self.ctx;
        let t_sub = self.next.as_ref().map(|j| j.submit);
        let t_over = ctx.overruns.peek_time();
        let t_end = ctx.ends.peek_time();
        let t_wake = ctx.wake;
        // Tie order at one instant: prediction over, submission,
        // termination, wake-up.
        let earliest = Time::earliest(Time::earliest(t_over, t_sub), Time::earliest(t_end, t_wake));
        let Some(t) = earliest else {
            return Ok(false);
        };
        if t_wake == Some(t) {
            ctx.wake = None;
            // A wake-up with no job waiting, running or still to come can
            // decide nothing: the run is over (a scheduler that asks to wake
            // forever would otherwise step one wake-up at a time to
            // `Time::LATEST`).
            if t_sub.is_none() && t_over.is_none() && t_end.is_none() && ctx.queue_len() == 0 {
                return Ok(false);
            }
        }
        ctx.now = t;
        ctx.observer.step(t);
        ctx.profile.advance(t);
        if t_over == Some(t) {
            self.wake_ups = 0;
            // Every expired prediction at this instant before any decision:
            // the scheduler must not hand out processors still in use.
            ctx.event = Event::Extended;
            while let Some((at, &(slot, index))) = ctx.overruns.peek()
                && at == t
            {
                // It leaves the queue only once handled: a prediction that
                // cannot be extended stays, and every later step returns
                // the same error.
                if ctx.prediction_over(slot, index)? {
                    scheduler.extended(ctx)?;
                }
            }
        } else if t_sub == Some(t) {
            self.wake_ups = 0;
            ctx.event = Event::Submitted;
            let job = self.next.take().expect("peeked");
            let position = ctx.enqueue(job, self.input.read - 1);
            scheduler.submitted(ctx, position)?;
            self.next = self.input.next(&ctx.config)?;
        } else if t_end == Some(t) {
            self.wake_ups = 0;
            ctx.event = Event::Ended;
            let (_, slot) = ctx.ends.pop().expect("peeked");
            if ctx.terminate(slot) {
                scheduler.freed(ctx)?;
            }
        } else {
            ctx.event = Event::Wake;
            self.wake_ups += 1;
            if self.wake_ups > SchedulerConfig::WAKE_UPS_IN_A_ROW {
                return Err(SimError::WakeUps {
                    at: t,
                    waiting: ctx.queue_len(),
                });
            }
        }
        if ctx.config.drop_expired && ctx.drop_expired() {
            scheduler.freed(ctx)?;
        }
        Ok(true)
    }

    /// One outcome per job, in input order, once the run has ended (a job
    /// left waiting is [`SimError::NeverStarted`]); kept outcomes only.
    pub(crate) fn into_outcomes(mut self) -> Result<Vec<Outcome>, SimError> {
        if self.ctx.queue_len() > 0 {
            return Err(self.ctx.unfinished());
        }
        match std::mem::replace(&mut self.ctx.sink, Sink::Keep(Vec::new())) {
            Sink::Keep(table) => Ok(table
                .into_iter()
                .map(|o| o.expect("every job ends exactly once"))
                .collect()),
            Sink::Call(_) => unreachable!("outcomes were handed to the caller"),
        }
    }

    /// Runs to the end with `scheduler` deciding at every event.
    pub(crate) fn run<S: Scheduler + ?Sized>(&mut self, scheduler: &mut S) -> Result<(), SimError> {
        while self.next_event(scheduler)? {
            scheduler.schedule(&mut self.ctx)?;
        }
        Ok(())
    }
}
