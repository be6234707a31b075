//! The stepping API: the event loop of [`simulate_with`](crate::simulate_with)
//! turned inside out, so an outside agent (a reinforcement-learning policy, a
//! scheduler in another language) makes the decisions one at a time.

use crate::context::{Context, Sink};
use crate::engine::Engine;
use crate::sched::{SimError, check_input};
use crate::scheduler::Scheduler;
use crate::{Job, Outcome, SchedulerConfig};

/// A simulation that stops at every decision and lets its caller decide.
///
/// ```
/// use profile::{Job, Policy, SchedulerConfig, Stepper, Time};
///
/// let jobs = vec![Job::new(1, Time(0), 4, 10, 10), Job::new(2, Time(1), 2, 5, 5)];
/// let mut sim = Stepper::new(&SchedulerConfig::new(4, Policy::Fcfs), jobs)?;
/// // An agent that starts the head whenever it fits: FCFS.
/// while let Some(ctx) = sim.next_decision()? {
///     while ctx.waiting(0).is_some_and(|w| w.job.procs <= ctx.free_now()) {
///         ctx.start(0)?;
///     }
/// }
/// let outcomes = sim.into_outcomes()?;
/// assert_eq!(outcomes[1].start, Time(10));
/// # Ok::<(), profile::SimError>(())
/// ```
///
/// It is the loop [`simulate_with`](crate::simulate_with) runs, with the
/// same events in the same order and the same checks: an agent that decides
/// as a built-in policy does gets that policy's schedule, exactly. A decision
/// comes after every event (a submission, a termination, the expired
/// predictions of one instant, a wake-up asked for), also when nothing can
/// start; [`Context::event`] says which. Reservations an agent holds are
/// lifted when a running job's prediction is extended
/// ([`Event::Extended`](crate::Event::Extended)).
///
/// Once built, stepping allocates nothing per decision in the steady state:
/// the queue, the profile and the event heaps reuse their storage.
pub struct Stepper {
    engine: Engine<'static, std::vec::IntoIter<Job>>,
    jobs: usize,
    done: bool,
}

/// The scheduler of a [`Stepper`]: no hooks, and its decisions are the
/// caller's.
struct Agent;

impl Scheduler for Agent {
    fn schedule(&mut self, _ctx: &mut Context<'_>) -> Result<(), SimError> {
        Ok(())
    }
}

impl std::fmt::Debug for Stepper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stepper")
            .field("jobs", &self.jobs)
            .field("done", &self.done)
            .field("context", &self.engine.ctx)
            .finish()
    }
}

impl Stepper {
    /// A simulation of `jobs` (sorted by submit time) on the configured
    /// machine, queue order and overrun handling (`config.policy` is not
    /// used: the caller decides). The jobs are checked as by
    /// [`simulate`](crate::simulate), before anything runs.
    pub fn new(config: &SchedulerConfig, jobs: Vec<Job>) -> Result<Stepper, SimError> {
        check_input(config, &jobs)?;
        let count = jobs.len();
        let engine = Engine::new(
            config,
            jobs.into_iter(),
            // A zero-sized observer: leaking it allocates nothing.
            Box::leak(Box::new(crate::NoObserver)),
            Sink::Keep(vec![None; count]),
        )?;
        Ok(Stepper {
            engine,
            jobs: count,
            done: false,
        })
    }

    /// Runs to the next decision and returns its [`Context`]: see the queue
    /// and the machine, then start jobs or hold reservations through it.
    /// `None` once nothing is left to happen.
    ///
    /// An error (a prediction extension past [`Time::LATEST`](crate::Time::LATEST))
    /// halts the run as the event found it: every later call, every action
    /// through the context and [`into_outcomes`](Stepper::into_outcomes)
    /// return the same error.
    pub fn next_decision(&mut self) -> Result<Option<&mut Context<'static>>, SimError> {
        if let Some(e) = &self.engine.ctx.halted {
            return Err(e.as_ref().clone());
        }
        if self.done {
            return Ok(None);
        }
        if self.engine.next_event(&mut Agent)? {
            Ok(Some(&mut self.engine.ctx))
        } else {
            self.done = true;
            Ok(None)
        }
    }

    /// The state at the last decision.
    pub fn context(&self) -> &Context<'static> {
        &self.engine.ctx
    }

    /// The state at the last decision, to decide through (as the context
    /// [`next_decision`](Stepper::next_decision) returns): for a caller
    /// that cannot keep that borrow between calls, a binding to another
    /// language say.
    pub fn context_mut(&mut self) -> &mut Context<'static> {
        &mut self.engine.ctx
    }

    /// Whether the run has ended (no event is left).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Jobs in the run.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// The outcomes decided so far, by input position (`None`: waiting or
    /// not yet submitted).
    pub fn outcomes(&self) -> &[Option<Outcome>] {
        match &self.engine.ctx.sink {
            Sink::Keep(table) => table,
            Sink::Call(_) => &[],
        }
    }

    /// Runs out the remaining events without deciding anything more, and
    /// returns one [`Outcome`] per job, in input order; a job the agent left
    /// waiting is [`SimError::NeverStarted`].
    pub fn into_outcomes(mut self) -> Result<Vec<Outcome>, SimError> {
        while self.next_decision()?.is_some() {}
        self.engine.into_outcomes()
    }
}
