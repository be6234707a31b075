//! The built-in policies, as [`Scheduler`]s: FCFS, EASY with `k`
//! reservations, conservative backfilling with schedule compression.
//! [`Policy`] names them; [`simulate`](crate::simulate) runs the one a
//! configuration names.

use crate::context::Context;
use crate::runs::{Earlier, Runs};
use crate::sched::SimError;
use crate::scheduler::Scheduler;
use crate::{Job, Policy, QueueOrder, Time};

/// No backfilling: jobs start strictly in queue order.
#[derive(Copy, Clone, Debug, Default)]
pub struct Fcfs;

/// Starts the queue's jobs in order, through the public [`Context::start`],
/// while they fit: what a built-in policy does when a waiting job holds a
/// reservation it did not make (a wrapping scheduler's), where its
/// shortcuts, which assume only running jobs in the profile, do not hold.
/// The reservations in the profile are respected, and a job's own becomes
/// its run. From queue position `k`; returns the position of the first
/// job that does not fit (the queue's length if every one started).
fn start_in_order(ctx: &mut Context<'_>, k: usize) -> Result<usize, SimError> {
    while k < ctx.queue.len() {
        match ctx.start(k) {
            Ok(()) => {}
            Err(SimError::NoRoom { .. }) => return Ok(k),
            Err(e) => return Err(e),
        }
    }
    Ok(k)
}

impl Scheduler for Fcfs {
    #[inline]
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        if ctx.held > 0 {
            return start_in_order(ctx, 0).map(|_| ());
        }
        let now = ctx.now;
        // The started jobs leave the queue together at the end: FCFS queues
        // grow long, and one drain costs what one removal would.
        let mut started = 0;
        while let Some(slot) = ctx.queue.get(started) {
            let job = &ctx.live[slot].job;
            let (procs, estimate) = (job.procs, job.estimate);
            // Only running jobs are in the profile, each from its start on,
            // so the free count never falls after now: the count now decides.
            if procs > ctx.profile.free_at(now) {
                break;
            }
            debug_assert!(ctx.profile.fits(now, procs, estimate, None));
            let ends = match ctx.launch_ends(slot, now) {
                Ok(ends) => ends,
                Err(e) => {
                    // The jobs started so far leave the queue: an error
                    // leaves a consistent run.
                    ctx.queue.drain_front(started);
                    return Err(e);
                }
            };
            ctx.profile.reserve(now, estimate, procs).expect("fits now");
            ctx.launch(slot, ends);
            started += 1;
        }
        ctx.queue.drain_front(started);
        Ok(())
    }
}

/// EASY backfilling with `reservations` protected queue heads: at every
/// decision the first `reservations` jobs that cannot start get a
/// reservation for this decision, and any other job may start now if it
/// delays none of them.
#[derive(Clone, Debug)]
pub struct Easy {
    reservations: u32,
    /// The reservations `(start, duration, procs)` of the protected jobs
    /// entered in the profile during one decision (the second on).
    protected: Vec<(Time, i64, u32)>,
    /// With one reservation and arrival order: what the last decision
    /// left, so the next need not test again the jobs it found not to fit.
    last: Option<Pass>,
}

/// The end of a decision of EASY with one reservation (in arrival order):
/// the head held at `start` with `held_free` processors free beside it,
/// `free` processors free now, and every job of queue positions
/// `1..resume` tested and found not to fit.
///
/// A later decision with the same head, as few processors free now and a
/// reservation no later, with no more free beside it, would find the same
/// jobs not to fit (ending before the reservation only gets harder as time
/// passes): it resumes at `resume`.
#[derive(Copy, Clone, Debug)]
struct Pass {
    /// The head's input position.
    head: usize,
    /// The input position of the job at `resume - 1`: the jobs before it
    /// are the ones tested if it is still there.
    before: usize,
    resume: usize,
    free: u32,
    start: Time,
    held_free: u32,
}

impl Easy {
    /// EASY protecting `reservations` jobs ([`Policy::UNLIMITED`] protects
    /// every waiting job; `0` none, which is greedy backfilling).
    pub fn new(reservations: u32) -> Easy {
        Easy {
            reservations,
            protected: Vec::new(),
            last: None,
        }
    }

    /// The number of protected jobs.
    pub fn reservations(&self) -> u32 {
        self.reservations
    }
}

impl Default for Easy {
    fn default() -> Self {
        Easy::new(1)
    }
}

/// EASY: the first protected reservation of a decision, held aside from the
/// profile (see [`fits_rising`]).
#[derive(Copy, Clone, Debug)]
struct Held {
    start: Time,
    duration: i64,
    procs: u32,
    /// Processors free at `start`, this reservation aside: kept up to date as
    /// the decision starts jobs.
    free: u32,
}

impl Easy {
    /// The first protected job's reservation and the processors free at its
    /// start: with no reservation in the profile, only running jobs, the
    /// free count never falls after now, so the first instant with `procs`
    /// free is the earliest start, whatever the estimate.
    #[inline]
    fn head_start(ctx: &Context<'_>, procs: u32, estimate: i64) -> (Time, u32) {
        // Some: every job fits the machine.
        let (start, free) = ctx
            .profile
            .earliest_start_rising(ctx.now, procs)
            .expect("width checked");
        debug_assert_eq!(
            Some(start),
            ctx.profile.earliest_start(ctx.now, procs, estimate)
        );
        debug_assert_eq!(free, ctx.profile.free_at(start));
        (start, free)
    }

    /// Where a decision with one reservation may resume the last one's
    /// scan (see [`Pass`]): the head's reservation, made and promised, and
    /// the queue position to test from; `None` if it must start afresh.
    fn resume(
        &self,
        ctx: &mut Context<'_>,
        free_now: u32,
    ) -> Result<Option<(Held, usize)>, SimError> {
        let Some(last) = self.last else {
            return Ok(None);
        };
        let same = |ctx: &Context<'_>, position: usize, index: usize| {
            ctx.queue
                .get(position)
                .is_some_and(|slot| ctx.live[slot].index == index)
        };
        // The head failed with at least `last.free` free: it fails again.
        if free_now > last.free
            || !same(ctx, 0, last.head)
            || !same(ctx, last.resume - 1, last.before)
        {
            return Ok(None);
        }
        let slot = ctx.queue[0];
        let (procs, estimate) = (ctx.live[slot].job.procs, ctx.live[slot].job.estimate);
        debug_assert!(!ctx.profile.fits(ctx.now, procs, estimate, None));
        let (start, free) = Easy::head_start(ctx, procs, estimate);
        ctx.end_of(slot, start, estimate)?;
        let held = Held {
            start,
            duration: estimate,
            procs,
            free,
        };
        ctx.promise(0, start);
        let resume = if start <= last.start && held.free <= last.held_free {
            last.resume
        } else {
            1
        };
        Ok(Some((held, resume)))
    }
}

/// [`Easy`]'s scan: from queue position `k`, the next job that `fits`
/// now (`Some(true)`), or, if `protect`, the first that does not
/// (`Some(false)`); `None` past the end. Also returns the position reached.
#[inline]
fn scan(
    ctx: &Context<'_>,
    k: usize,
    protect: bool,
    fits: impl Fn(&Job) -> bool,
) -> (Option<bool>, usize) {
    let queue = &ctx.queue.as_slice()[k..];
    for (i, &slot) in queue.iter().enumerate() {
        if fits(&ctx.live[slot].job) {
            return (Some(true), k + i);
        }
        if protect {
            return (Some(false), k + i);
        }
    }
    (None, k + queue.len())
}

/// Whether a job fits now beside the `held` reservation, with nothing but
/// running jobs in the profile, each from its start (or its latest
/// extension) on: the free count never falls after now, so the count now
/// decides, and where the held reservation overlaps, what is free beside
/// it at its start. Two comparisons against bounds computed once.
#[inline]
fn fits_rising<'a>(
    ctx: &'a Context<'_>,
    free_now: u32,
    held: Option<&'a Held>,
) -> impl Fn(&Job) -> bool + 'a {
    debug_assert_eq!(free_now, ctx.profile.free_at(ctx.now));
    // A job fits beside the held reservation if it ends by its start, or
    // if `procs` more fit beside it there.
    let (room, beside) = held.map_or((i64::MAX, i64::MAX), |h| {
        (
            h.start.0 - ctx.now.0,
            i64::from(h.free) - i64::from(h.procs),
        )
    });
    move |job| {
        let fits =
            job.procs <= free_now && (job.estimate <= room || i64::from(job.procs) <= beside);
        debug_assert_eq!(
            fits,
            ctx.profile.fits(
                ctx.now,
                job.procs,
                job.estimate,
                held.map(|h| (h.start, h.duration, h.procs))
            )
        );
        fits
    }
}

impl Easy {
    /// Reserves the waiting job at queue position `k` at its earliest start
    /// in the profile, for this decision (lifted at its end), and promises
    /// it to the observer.
    #[inline]
    fn protect(&mut self, ctx: &mut Context<'_>, k: usize) -> Result<(), SimError> {
        let slot = ctx.queue[k];
        let start = ctx.place_earliest(slot)?;
        let (procs, estimate) = (ctx.live[slot].job.procs, ctx.live[slot].job.estimate);
        self.protected.push((start, estimate, procs));
        ctx.promise(k, start);
        Ok(())
    }

    /// EASY through the public actions, for a decision where a waiting job
    /// holds a reservation the policy did not make (see [`start_in_order`]):
    /// each job that fits beside every reservation starts; the first
    /// `reservations` that do not, and hold none of their own, get one for
    /// this decision, lifted at its end.
    fn schedule_held(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.last = None;
        let (mut k, mut protected) = (0, 0u64);
        let result = loop {
            k = match start_in_order(ctx, k) {
                Ok(k) if k < ctx.queue.len() => k,
                other => break other.map(|_| ()),
            };
            let unreserved = ctx.live[ctx.queue[k]].reserved == Time::MAX;
            if unreserved && protected < u64::from(self.reservations) {
                if let Err(e) = self.protect(ctx, k) {
                    break Err(e);
                }
                protected += 1;
            }
            k += 1;
        };
        for (start, duration, procs) in self.protected.drain(..) {
            ctx.profile
                .release(start, duration, procs)
                .expect("reserved in this decision");
        }
        result
    }
}

impl Scheduler for Easy {
    #[inline]
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        if ctx.held > 0 {
            return self.schedule_held(ctx);
        }
        let now = ctx.now;
        let mut free_now = ctx.free_now();
        if ctx.queue.is_empty() || free_now == 0 {
            return Ok(());
        }
        let one = self.reservations == 1 && matches!(ctx.config.order, QueueOrder::Arrival);
        // The protected jobs' reservations hold for this decision only: the
        // first is held aside (`fits_rising` counts it), any further ones go
        // into the profile, with the first, and are lifted at the end.
        // Either way, what fits now is what fits beside all of them.
        debug_assert!(self.protected.is_empty());
        let mut held = None;
        let mut k = 0;
        if one && let Some((h, resume)) = self.resume(ctx, free_now)? {
            held = Some(h);
            k = resume;
        }
        while free_now > 0 {
            // Scan on, in one read-only pass, past the jobs that neither fit
            // nor get a reservation, to the next that does either.
            let protected = (self.protected.len() + usize::from(held.is_some())) as u64;
            let protect = protected < u64::from(self.reservations);
            let (fits, at) = if self.protected.is_empty() {
                scan(ctx, k, protect, fits_rising(ctx, free_now, held.as_ref()))
            } else {
                // Every protected reservation is in the profile, none aside.
                debug_assert!(held.is_none());
                scan(ctx, k, protect, |job| {
                    ctx.profile.fits(now, job.procs, job.estimate, None)
                })
            };
            k = at;
            let Some(fits) = fits else { break };
            let job = &ctx.live[ctx.queue[k]].job;
            let (procs, estimate) = (job.procs, job.estimate);
            if fits {
                ctx.start_unreserved(k)?;
                free_now -= procs;
                if let Some(h) = held.as_mut().filter(|h| now + estimate > h.start) {
                    h.free -= procs;
                }
                continue;
            }
            {
                if let Some(h) = held.take() {
                    ctx.profile
                        .reserve(h.start, h.duration, h.procs)
                        .expect("earliest slot is free");
                    self.protected.push((h.start, h.duration, h.procs));
                }
                if self.protected.is_empty() {
                    let (start, free) = Easy::head_start(ctx, procs, estimate);
                    ctx.end_of(ctx.queue[k], start, estimate)?;
                    held = Some(Held {
                        start,
                        duration: estimate,
                        procs,
                        free,
                    });
                    ctx.promise(k, start);
                } else {
                    self.protect(ctx, k)?;
                }
            }
            k += 1;
        }
        self.last = match held {
            Some(h) if one => Some(Pass {
                head: ctx.live[ctx.queue[0]].index,
                before: ctx.live[ctx.queue[k - 1]].index,
                resume: k,
                free: free_now,
                start: h.start,
                held_free: h.free,
            }),
            _ => None,
        };
        for (start, duration, procs) in self.protected.drain(..) {
            ctx.profile
                .release(start, duration, procs)
                .expect("reserved in this decision");
        }
        Ok(())
    }
}

/// Conservative backfilling: every job gets a reservation on arrival that is
/// never postponed; when capacity comes free early the schedule is
/// compressed (every waiting job, in queue order, moves to its earliest
/// slot if that is earlier).
#[derive(Clone, Debug, Default)]
pub struct Conservative {
    /// The runs of free capacity a compression has looked at since the
    /// profile last changed.
    runs: Runs,
}

impl Conservative {
    /// Conservative backfilling.
    pub fn new() -> Conservative {
        Conservative::default()
    }

    /// Moves every waiting job, in queue order, to its earliest slot if that
    /// is earlier than its reservation.
    fn compress(&mut self, ctx: &mut Context<'_>) {
        let now = ctx.now;
        self.runs.clear(&ctx.profile, now);
        for k in 0..ctx.queue.len() {
            let w = ctx.queue[k];
            let live = &ctx.live[w];
            let (old, procs, estimate) = (live.reserved, live.job.procs, live.job.estimate);
            // Due, or holding no reservation (a wrapping scheduler's
            // choice): nothing to move.
            if old <= now || old == Time::MAX {
                continue;
            }
            // Lifting and re-placing the reservation, without doing either.
            // It can only move if `procs` are free somewhere before `old`;
            // only then is it (re-)placed, possibly where it was.
            let start = match self.runs.earlier_start(&ctx.profile, procs, estimate, old) {
                Earlier::NoRoom => continue,
                Earlier::Stays => old,
                Earlier::At(start) => {
                    // Ends before `old + estimate`, which is within LATEST.
                    ctx.shift_earlier(w, start);
                    // The runs found so far were those of the old profile.
                    self.runs.clear(&ctx.profile, now);
                    start
                }
            };
            ctx.report_reserved(w, start);
        }
    }
}

impl Scheduler for Conservative {
    fn submitted(&mut self, ctx: &mut Context<'_>, position: usize) -> Result<(), SimError> {
        ctx.reserve_earliest(position).map(|_| ())
    }

    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        self.compress(ctx);
        Ok(())
    }

    fn extended(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        for k in 0..ctx.queue.len() {
            ctx.reserve_earliest(k)?;
        }
        Ok(())
    }

    /// Starts every job whose reservation is due and asks to decide again
    /// when the next one is.
    #[inline]
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        let now = ctx.now;
        let mut next = None;
        let mut k = 0;
        loop {
            // Scan on to the next due job, noting the reserved starts passed.
            let due = {
                let (queue, live) = (ctx.queue.as_slice(), &ctx.live);
                while k < queue.len() && live[queue[k]].reserved > now {
                    let at = live[queue[k]].reserved;
                    next = Some(next.map_or(at, |n: Time| n.min(at)));
                    k += 1;
                }
                k < queue.len()
            };
            if !due {
                break;
            }
            if ctx.live[ctx.queue[k]].reserved == now {
                ctx.start_reserved(k)?;
            } else {
                // A reservation left in the past (a wrapping scheduler that
                // asked for no decision then) is no longer in the profile:
                // the job starts if it fits now, or is reserved again.
                match ctx.start(k) {
                    Ok(()) => {}
                    Err(SimError::NoRoom { .. }) => {
                        let at = ctx.reserve_earliest(k)?;
                        next = Some(next.map_or(at, |n: Time| n.min(at)));
                        k += 1;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        ctx.wake_at(next);
        Ok(())
    }
}

/// One of the built-in policies, chosen at run time: what [`Policy`] names.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum BuiltIn {
    /// [`Fcfs`].
    Fcfs(Fcfs),
    /// [`Easy`].
    Easy(Easy),
    /// [`Conservative`].
    Conservative(Conservative),
}

impl BuiltIn {
    /// The scheduler `policy` names.
    pub fn new(policy: Policy) -> BuiltIn {
        match policy {
            Policy::Fcfs => BuiltIn::Fcfs(Fcfs),
            Policy::Easy { reservations } => BuiltIn::Easy(Easy::new(reservations)),
            Policy::Conservative => BuiltIn::Conservative(Conservative::new()),
        }
    }
}

impl From<Policy> for BuiltIn {
    fn from(policy: Policy) -> BuiltIn {
        BuiltIn::new(policy)
    }
}

impl Scheduler for BuiltIn {
    fn submitted(&mut self, ctx: &mut Context<'_>, position: usize) -> Result<(), SimError> {
        match self {
            BuiltIn::Fcfs(s) => s.submitted(ctx, position),
            BuiltIn::Easy(s) => s.submitted(ctx, position),
            BuiltIn::Conservative(s) => s.submitted(ctx, position),
        }
    }
    fn freed(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        match self {
            BuiltIn::Fcfs(s) => s.freed(ctx),
            BuiltIn::Easy(s) => s.freed(ctx),
            BuiltIn::Conservative(s) => s.freed(ctx),
        }
    }
    fn extended(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        match self {
            BuiltIn::Fcfs(s) => s.extended(ctx),
            BuiltIn::Easy(s) => s.extended(ctx),
            BuiltIn::Conservative(s) => s.extended(ctx),
        }
    }
    fn schedule(&mut self, ctx: &mut Context<'_>) -> Result<(), SimError> {
        match self {
            BuiltIn::Fcfs(s) => s.schedule(ctx),
            BuiltIn::Easy(s) => s.schedule(ctx),
            BuiltIn::Conservative(s) => s.schedule(ctx),
        }
    }
}
