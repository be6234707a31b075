//! The machine as a decision sees it, and the actions a scheduler may take:
//! the [`Context`] the event loop hands to a [`Scheduler`](crate::Scheduler).
//! Each action keeps the [`Profile`] true to the running jobs and the
//! reservations held, so no decision can overcommit the machine.

use std::fmt;
use std::ops::Index;

use crate::EventQueue;
use crate::sched::{Observer, SimError};
use crate::{Job, Outcome, Overrun, Profile, QueueOrder, SchedulerConfig, Status, Time};

/// What led to a decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Event {
    /// A job arrived (it is in the queue).
    Submitted,
    /// A running job ended.
    Ended,
    /// Running jobs outlived their estimates and their predictions were
    /// extended; every reservation was lifted.
    Extended,
    /// The instant asked for with [`Context::wake_at`] came.
    Wake,
}

/// A waiting job as a scheduler sees it.
#[derive(Copy, Clone, Debug)]
pub struct Waiting<'c> {
    /// Its position in the input (the index of its [`Outcome`]).
    pub index: usize,
    /// The job.
    pub job: &'c Job,
    /// The start of the reservation it holds, if any.
    pub reserved: Option<Time>,
}

/// A running job as a scheduler sees it.
#[derive(Copy, Clone, Debug)]
pub struct Running<'c> {
    /// Its position in the input.
    pub index: usize,
    /// The job.
    pub job: &'c Job,
    /// When it started.
    pub start: Time,
    /// When the scheduler may expect it to end: start + estimate, or later
    /// after extensions. It may end earlier (the profile frees the rest then).
    pub predicted_end: Time,
}

/// A job in the system (waiting or running), in a slot of the context's `live` table.
/// Slots are reused as jobs leave, so the slots in use stay few and close
/// together however long the input.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    pub(crate) job: Job,
    /// Its position in the input.
    pub(crate) index: usize,
    /// Waiting: the start of the reservation it holds ([`Time::MAX`]: none).
    pub(crate) reserved: Time,
    /// Running: when it started.
    pub(crate) start: Time,
    /// Running: when the scheduler believes it will end (start + estimate,
    /// possibly extended).
    pub(crate) predicted_end: Option<Time>,
}

impl Live {
    /// This waiting job as a scheduler sees it.
    fn waiting(&self) -> Waiting<'_> {
        Waiting {
            index: self.index,
            job: &self.job,
            reserved: (self.reserved != Time::MAX).then_some(self.reserved),
        }
    }
}

/// The waiting queue: slots in queue order, after `head` (jobs leaving the
/// front only move `head`, so FCFS never shifts a long queue; the space
/// before `head` is reclaimed once it is half the vector, in place).
#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    slots: Vec<usize>,
    head: usize,
}

impl Queue {
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.head
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub(crate) fn get(&self, position: usize) -> Option<usize> {
        self.slots.get(self.head + position).copied()
    }

    #[inline]
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, usize> {
        self.as_slice().iter()
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[usize] {
        &self.slots[self.head..]
    }

    /// Removes and returns the slot at `position` (which must exist).
    #[inline]
    pub(crate) fn remove(&mut self, position: usize) -> usize {
        if position == 0 {
            let slot = self.slots[self.head];
            self.drain_front(1);
            slot
        } else {
            self.slots.remove(self.head + position)
        }
    }

    /// Removes the first `n` slots.
    #[inline]
    pub(crate) fn drain_front(&mut self, n: usize) {
        self.head += n;
        debug_assert!(self.head <= self.slots.len());
        if self.head == self.slots.len() {
            self.slots.clear();
            self.head = 0;
        } else if self.head >= 64 && 2 * self.head >= self.slots.len() {
            self.slots.drain(..self.head);
            self.head = 0;
        }
    }

    #[inline]
    fn insert(&mut self, position: usize, slot: usize) {
        if position == self.len() {
            self.slots.push(slot);
        } else {
            self.slots.insert(self.head + position, slot);
        }
    }

    fn partition_point(&self, pred: impl FnMut(&usize) -> bool) -> usize {
        self.slots[self.head..].partition_point(pred)
    }
}

impl Index<usize> for Queue {
    type Output = usize;

    #[inline]
    fn index(&self, position: usize) -> &usize {
        &self.slots[self.head + position]
    }
}

/// Where outcomes go as they are decided.
pub(crate) enum Sink<'a> {
    /// To a caller's function.
    Call(&'a mut dyn FnMut(usize, Outcome)),
    /// Into a table by input position (the stepping API).
    Keep(Vec<Option<Outcome>>),
}

/// The machine as one decision sees it, and the actions a scheduler may take.
///
/// Reading: [`now`](Context::now), the waiting [`queue`](Context::queue) (in
/// the configured [`QueueOrder`]; arrival order by default), the
/// [`running`](Context::running) jobs, and the availability
/// [`profile`](Context::profile): every running job from its start to its
/// predicted end, plus every reservation held.
///
/// Acting: [`start`](Context::start) a waiting job now,
/// [`reserve`](Context::reserve) or [`unreserve`](Context::unreserve)
/// processors for one later, [`wake_at`](Context::wake_at) an instant with no
/// event. Each action keeps the profile exact and refuses, with
/// [`SimError::NoRoom`], what the free processors do not allow.
pub struct Context<'a> {
    pub(crate) config: SchedulerConfig,
    pub(crate) observer: &'a mut dyn Observer,
    pub(crate) sink: Sink<'a>,
    pub(crate) profile: Profile,
    pub(crate) live: Vec<Live>,
    /// Free slots of `live`.
    pub(crate) vacant: Vec<usize>,
    /// Waiting jobs (slots) in queue order.
    pub(crate) queue: Queue,
    /// Ends of running jobs (their slots).
    pub(crate) ends: EventQueue<usize>,
    /// Expiring predictions: slot and input position (a job may end, and its
    /// slot be reused, before its last prediction expires).
    pub(crate) overruns: EventQueue<(usize, usize)>,
    /// The next instant the scheduler asked to decide at.
    pub(crate) wake: Option<Time>,
    pub(crate) now: Time,
    pub(crate) event: Event,
    /// The error the loop stopped with, if it did: every action is refused
    /// with it from then on.
    pub(crate) halted: Option<Box<SimError>>,
    /// Waiting jobs holding a reservation: the built-in policies' shortcuts
    /// that assume only running jobs in the profile hold while it is 0.
    pub(crate) held: usize,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("now", &self.now)
            .field("event", &self.event)
            .field("waiting", &self.queue.len())
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}

impl<'a> Context<'a> {
    pub(crate) fn new(
        config: SchedulerConfig,
        origin: Time,
        observer: &'a mut dyn Observer,
        sink: Sink<'a>,
    ) -> Self {
        Context {
            profile: Profile::new(config.capacity, origin),
            config,
            observer,
            sink,
            live: Vec::new(),
            vacant: Vec::new(),
            queue: Queue::default(),
            ends: EventQueue::new(),
            overruns: EventQueue::new(),
            wake: None,
            now: origin,
            event: Event::Submitted,
            halted: None,
            held: 0,
        }
    }

    /// The current instant.
    #[inline]
    pub fn now(&self) -> Time {
        self.now
    }

    /// What led to this decision.
    pub fn event(&self) -> Event {
        self.event
    }

    /// Processors in the machine.
    pub fn capacity(&self) -> u32 {
        self.config.capacity
    }

    /// The run's configuration (machine, queue order, overrun handling).
    pub fn config(&self) -> &SchedulerConfig {
        &self.config
    }

    /// Free processors over time: running jobs to their predicted ends, and
    /// every reservation held.
    #[inline]
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Processors free now.
    #[inline]
    pub fn free_now(&self) -> u32 {
        self.profile.free_at(self.now)
    }

    /// Waiting jobs.
    #[inline]
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// The waiting job at queue position `position` (`0` is the head), or
    /// `None` past the end of the queue.
    #[inline]
    pub fn waiting(&self, position: usize) -> Option<Waiting<'_>> {
        Some(self.live[self.queue.get(position)?].waiting())
    }

    /// The waiting jobs in queue order.
    pub fn queue(&self) -> impl ExactSizeIterator<Item = Waiting<'_>> + '_ {
        self.queue
            .iter()
            .map(move |&slot| self.live[slot].waiting())
    }

    /// The running jobs, in no particular order.
    ///
    /// Events at one instant are handled one at a time, each followed by a
    /// decision: a job whose end falls at now may still be listed (its
    /// `predicted_end` is now) while its processors are already free in the
    /// [`profile`](Context::profile) and in [`free_now`](Context::free_now).
    /// A scheduler that adds up what comes free later (EASY's shadow time
    /// computed by hand) skips such jobs, or counts their processors twice.
    pub fn running(&self) -> impl Iterator<Item = Running<'_>> + '_ {
        self.live.iter().filter_map(|live| {
            live.predicted_end.map(|predicted_end| Running {
                index: live.index,
                job: &live.job,
                start: live.start,
                predicted_end,
            })
        })
    }

    /// The slot of the waiting job at `position`, or an error naming it;
    /// once the loop has stopped with an error, that error (every action
    /// asks for a slot first, so none acts on a half-done event).
    #[inline]
    fn slot_at(&self, position: usize) -> Result<usize, SimError> {
        if let Some(e) = &self.halted {
            return Err(e.as_ref().clone());
        }
        self.queue.get(position).ok_or(SimError::NotWaiting {
            position,
            waiting: self.queue.len(),
        })
    }

    /// Starts the waiting job at `position` now. It leaves the queue (the
    /// jobs behind it move up one place) and its outcome is decided: it ends
    /// at its run time, or at its estimate if it would outrun it under
    /// [`Overrun::Kill`]. A reservation it holds becomes its run.
    ///
    /// Refused with [`SimError::NoRoom`] unless its processors are free from
    /// now to its estimate (beside every other reservation), and with
    /// [`SimError::NotWaiting`] past the end of the queue; nothing changes then.
    pub fn start(&mut self, position: usize) -> Result<(), SimError> {
        let slot = self.slot_at(position)?;
        let live = &self.live[slot];
        let (now, reserved) = (self.now, live.reserved);
        let (estimate, procs) = (live.job.estimate, live.job.procs);
        // Both ends checked before anything changes.
        let ends = self.launch_ends(slot, now)?;
        if reserved != now {
            if reserved != Time::MAX {
                self.profile
                    .release(reserved, estimate, procs)
                    .expect("reserved");
            }
            if self.profile.reserve(now, estimate, procs).is_err() {
                if reserved != Time::MAX {
                    self.profile
                        .reserve(reserved, estimate, procs)
                        .expect("was reserved");
                }
                return Err(self.no_room(slot, now));
            }
        }
        self.queue.remove(position);
        self.launch(slot, ends);
        Ok(())
    }

    /// Starts the waiting job at `position`, which holds no reservation, now,
    /// its processors known to be free from now to its estimate.
    #[inline]
    pub(crate) fn start_unreserved(&mut self, position: usize) -> Result<(), SimError> {
        let slot = self.queue[position];
        let job = &self.live[slot].job;
        let (estimate, procs) = (job.estimate, job.procs);
        debug_assert_eq!(self.live[slot].reserved, Time::MAX);
        let ends = self.launch_ends(slot, self.now)?;
        self.profile
            .reserve(self.now, estimate, procs)
            .expect("the caller checked that it fits");
        self.queue.remove(position);
        self.launch(slot, ends);
        Ok(())
    }

    /// Starts the waiting job at `position` now, its processors already taken
    /// from now to its estimate (by the caller or by its reservation).
    #[inline]
    pub(crate) fn start_reserved(&mut self, position: usize) -> Result<(), SimError> {
        let ends = self.launch_ends(self.queue[position], self.now)?;
        let slot = self.queue.remove(position);
        self.launch(slot, ends);
        Ok(())
    }

    /// Holds processors for the waiting job at `position` from `at` for its
    /// estimate, moving any reservation it held, and reports it to the
    /// [`Observer`]. A reservation is kept until the job starts, is dropped,
    /// or is lifted ([`Context::unreserve`], or a prediction extension).
    ///
    /// Refused with [`SimError::NoRoom`] if the processors are not free then
    /// (or `at` is before now), with [`SimError::BeyondLatest`] if it would
    /// end after [`Time::LATEST`]; nothing changes then.
    pub fn reserve(&mut self, position: usize, at: Time) -> Result<(), SimError> {
        let slot = self.slot_at(position)?;
        let live = &self.live[slot];
        let (old, estimate, procs) = (live.reserved, live.job.estimate, live.job.procs);
        if at < self.now {
            return Err(self.no_room(slot, at));
        }
        self.end_of(slot, at, estimate)?;
        if old != Time::MAX {
            self.profile
                .release(old, estimate, procs)
                .expect("reserved");
        }
        if self.profile.reserve(at, estimate, procs).is_err() {
            if old != Time::MAX {
                self.profile
                    .reserve(old, estimate, procs)
                    .expect("was reserved");
            }
            return Err(self.no_room(slot, at));
        }
        self.held += usize::from(old == Time::MAX);
        self.live[slot].reserved = at;
        self.report_reserved(slot, at);
        Ok(())
    }

    /// Reserves the waiting job at `position` at the earliest instant from
    /// now its processors are free for its estimate, and returns it. A
    /// reservation it held is lifted first (so it may stay or move earlier).
    pub fn reserve_earliest(&mut self, position: usize) -> Result<Time, SimError> {
        let slot = self.slot_at(position)?;
        self.lift(slot);
        let at = self.place_earliest(slot)?;
        self.held += 1;
        self.live[slot].reserved = at;
        self.report_reserved(slot, at);
        Ok(at)
    }

    /// Holds the earliest slot of the waiting job in `slot` in the profile
    /// and returns its start, without recording it as the job's reservation
    /// ([`Context::reserve_earliest`] records it; EASY's protection lasts
    /// one decision and is lifted by the policy itself).
    pub(crate) fn place_earliest(&mut self, slot: usize) -> Result<Time, SimError> {
        let (estimate, procs) = (self.live[slot].job.estimate, self.live[slot].job.procs);
        // Some: every job fits the machine and every reservation ends by LATEST.
        let at = self
            .profile
            .earliest_start(self.now, procs, estimate)
            .expect("width was checked");
        self.end_of(slot, at, estimate)?;
        self.profile
            .reserve(at, estimate, procs)
            .expect("earliest slot is free");
        Ok(at)
    }

    /// Lifts the reservation of the waiting job at `position`, if it holds one.
    pub fn unreserve(&mut self, position: usize) -> Result<(), SimError> {
        let slot = self.slot_at(position)?;
        self.lift(slot);
        Ok(())
    }

    /// Asks for a decision at `at` (if no event comes first) instead of any
    /// instant asked for before; `None` cancels it. Instants not after now
    /// are ignored, and so are those after [`Time::LATEST`] (no job can
    /// start there and end in time; [`Time::NEVER`] means never). Once no
    /// job waits, runs or is still to come, the run ends whatever wake-up
    /// was asked for: it could decide nothing.
    pub fn wake_at(&mut self, at: Option<Time>) {
        self.wake = at.filter(|&t| t > self.now && t <= Time::LATEST);
    }

    /// Reports a promise that is not held in the profile (EASY's first
    /// protected job) to the observer.
    #[inline]
    pub(crate) fn promise(&mut self, position: usize, at: Time) {
        self.report_reserved(self.queue[position], at);
    }

    /// Moves the reservation of the waiting job in `slot` earlier, to `to`,
    /// where [`Runs::earlier_start`](crate::runs::Runs::earlier_start) found room.
    pub(crate) fn shift_earlier(&mut self, slot: usize, to: Time) {
        let live = &mut self.live[slot];
        let (from, estimate, procs) = (live.reserved, live.job.estimate, live.job.procs);
        debug_assert!(from != Time::MAX && to < from);
        live.reserved = to;
        self.profile.shift_earlier(from, to, estimate, procs);
    }

    #[inline]
    pub(crate) fn report_reserved(&mut self, slot: usize, at: Time) {
        self.observer.reserved(self.now, self.live[slot].index, at);
    }

    fn lift(&mut self, slot: usize) {
        let live = &mut self.live[slot];
        if live.reserved != Time::MAX {
            let (at, estimate, procs) = (live.reserved, live.job.estimate, live.job.procs);
            live.reserved = Time::MAX;
            self.held -= 1;
            self.profile.release(at, estimate, procs).expect("reserved");
        }
    }

    /// `start + duration` for the job in `slot`, or [`SimError::BeyondLatest`]
    /// if that passes [`Time::LATEST`]. Every time the simulation stores is at
    /// most `LATEST` and every duration at most `MAX_DURATION`, so the sum is
    /// exact.
    #[inline]
    pub(crate) fn end_of(&self, slot: usize, start: Time, duration: i64) -> Result<Time, SimError> {
        // Saturating: a start near `Time::NEVER` is refused, never wrapped.
        let end = start + duration;
        if end > Time::LATEST {
            return Err(self.beyond_latest(slot, end));
        }
        Ok(end)
    }

    #[cold]
    #[inline(never)]
    fn beyond_latest(&self, slot: usize, end: Time) -> SimError {
        let live = &self.live[slot];
        SimError::BeyondLatest {
            index: live.index,
            id: live.job.id,
            end,
        }
    }

    /// The error for the head of a queue left waiting at the end of a run.
    #[cold]
    pub(crate) fn unfinished(&self) -> SimError {
        let live = &self.live[self.queue[0]];
        SimError::NeverStarted {
            index: live.index,
            id: live.job.id,
        }
    }

    #[cold]
    #[inline(never)]
    fn no_room(&self, slot: usize, at: Time) -> SimError {
        let live = &self.live[slot];
        SimError::NoRoom {
            index: live.index,
            id: live.job.id,
            procs: live.job.procs,
            at,
        }
    }

    /// Where the job in `slot` would end if it started at `start`: its end
    /// (its run time, or its estimate if [`Overrun::Kill`] cuts it short)
    /// and its predicted end, or [`SimError::BeyondLatest`] if either
    /// passes [`Time::LATEST`]. Every start checks this before it changes
    /// anything, so a refused start leaves the run as it was.
    #[inline(always)]
    pub(crate) fn launch_ends(&self, slot: usize, start: Time) -> Result<(Time, Time), SimError> {
        let job = &self.live[slot].job;
        let (estimate, run_time) = (job.estimate, job.run_time);
        let killed = self.config.overrun == Overrun::Kill && run_time > estimate;
        let end = self.end_of(slot, start, if killed { estimate } else { run_time })?;
        Ok((end, self.end_of(slot, start, estimate)?))
    }

    /// Runs the job in `slot` (off the queue, its processors taken from now
    /// to its estimate) and reports its outcome; `ends` are its
    /// [`launch_ends`](Context::launch_ends) at now.
    #[inline(always)]
    pub(crate) fn launch(&mut self, slot: usize, (end, predicted_end): (Time, Time)) {
        let now = self.now;
        let live = &self.live[slot];
        let (id, index) = (live.job.id, live.index);
        let (estimate, run_time) = (live.job.estimate, live.job.run_time);
        let killed = self.config.overrun == Overrun::Kill && run_time > estimate;
        let live = &mut self.live[slot];
        self.held -= usize::from(live.reserved != Time::MAX);
        live.reserved = Time::MAX;
        live.start = now;
        live.predicted_end = Some(predicted_end);
        self.ends.push(end, slot);
        if self.config.overrun == Overrun::Continue && run_time > estimate {
            self.overruns.push(predicted_end, (slot, index));
        }
        let status = if killed {
            Status::Killed
        } else {
            Status::Completed
        };
        self.emit(
            index,
            Outcome {
                id,
                start: now,
                end,
                status,
            },
        );
        self.observer.started(now, index);
    }

    #[inline]
    fn emit(&mut self, index: usize, outcome: Outcome) {
        match &mut self.sink {
            Sink::Call(f) => f(index, outcome),
            Sink::Keep(table) => table[index] = Some(outcome),
        }
    }

    #[inline(always)]
    pub(crate) fn enqueue(&mut self, job: Job, index: usize) -> usize {
        let pos = match self.config.order {
            QueueOrder::Arrival => self.queue.len(),
            ref order => {
                // After every waiting job that is not strictly behind `job`.
                let live = &self.live;
                self.queue
                    .partition_point(|&w| order.compare(&live[w].job, &job).is_le())
            }
        };
        let live = Live {
            job,
            index,
            reserved: Time::MAX,
            start: Time::MAX,
            predicted_end: None,
        };
        let slot = match self.vacant.pop() {
            Some(slot) => {
                self.live[slot] = live;
                slot
            }
            None => {
                self.live.push(live);
                self.live.len() - 1
            }
        };
        self.queue.insert(pos, slot);
        pos
    }

    /// Frees the slot of a job that ended or was dropped.
    fn leave(&mut self, slot: usize) {
        self.live[slot].predicted_end = None;
        self.vacant.push(slot);
    }

    /// A job ended; returns whether it ended before its predicted end (the
    /// unused tail is freed then).
    #[inline(always)]
    pub(crate) fn terminate(&mut self, slot: usize) -> bool {
        let live = &self.live[slot];
        let predicted_end = live.predicted_end.expect("only running jobs end");
        let procs = live.job.procs;
        self.leave(slot);
        if predicted_end > self.now {
            self.profile
                .release(self.now, predicted_end - self.now, procs)
                .expect("a running job's tail is reserved");
            return true;
        }
        false
    }

    /// [`Overrun::Continue`]: the job outlived its prediction, the earliest
    /// in the queue of expired predictions; take that off the queue and
    /// extend the job. Returns whether it did (it may have ended already).
    /// An extension past [`Time::LATEST`] is refused before anything
    /// changes, the prediction left in the queue.
    pub(crate) fn prediction_over(&mut self, slot: usize, index: usize) -> Result<bool, SimError> {
        let live = &self.live[slot];
        if live.index != index || live.predicted_end.is_none() {
            // It has ended (and its slot may hold another job).
            self.overruns.pop();
            return Ok(false);
        }
        let (estimate, procs) = (live.job.estimate, live.job.procs);
        let new_end = self.end_of(slot, self.now, estimate)?;
        self.overruns.pop();
        self.live[slot].predicted_end = Some(new_end);
        self.overruns.push(new_end, (slot, index));
        // Lift every reservation, then extend the job: it runs, whatever was
        // promised to others.
        for k in 0..self.queue.len() {
            self.lift(self.queue[k]);
        }
        self.profile
            .reserve(self.now, estimate, procs)
            .expect("running job fits");
        Ok(true)
    }

    /// Drops every waiting job that can no longer finish by its deadline;
    /// returns whether one held a reservation.
    pub(crate) fn drop_expired(&mut self) -> bool {
        let now = self.now;
        let mut freed = false;
        let mut k = 0;
        while k < self.queue.len() {
            let w = self.queue[k];
            let job = &self.live[w].job;
            if job.deadline.is_some_and(|d| now + job.estimate > d) {
                let (id, index) = (job.id, self.live[w].index);
                freed |= self.live[w].reserved != Time::MAX;
                self.lift(w);
                self.queue.remove(k);
                self.leave(w);
                self.emit(
                    index,
                    Outcome {
                        id,
                        start: now,
                        end: now,
                        status: Status::Dropped,
                    },
                );
            } else {
                k += 1;
            }
        }
        freed
    }
}
