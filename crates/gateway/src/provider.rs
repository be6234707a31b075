//! What the gateway needs from a resource provider.

use std::fmt;

use profile::{FreeSlot, Job, Time};

/// A tentative hold on a provider's processors (defined in `profile`, shared
/// with the clusters that serve the gateway).
pub use profile::HoldId;

/// Why a provider turned a request down.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The slot the gateway asked for is no longer free: its information was stale.
    SlotGone {
        /// The job the reservation was for.
        job: u64,
        /// The start the gateway asked for.
        start: Time,
        /// Processors asked for.
        procs: u32,
        /// Seconds asked for.
        duration: i64,
    },
    /// The hold does not exist (never granted, already committed or aborted).
    UnknownHold {
        /// The hold named.
        hold: HoldId,
    },
    /// The provider cannot take the job at all (too wide, bad times, ...).
    Rejected {
        /// The job.
        job: u64,
        /// The provider's reason.
        reason: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::SlotGone {
                job,
                start,
                procs,
                duration,
            } => write!(
                f,
                "reservation for job {job} refused: {procs} processors for {duration} s from \
                 {start} are no longer free; refresh the provider's slots and plan again"
            ),
            Refusal::UnknownHold { hold } => {
                write!(
                    f,
                    "hold {} is unknown: it was never granted, or was committed or aborted",
                    hold.0
                )
            }
            Refusal::Rejected { job, reason } => write!(f, "job {job} rejected: {reason}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Something a provider tells the gateway unasked, while time passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A grid job started.
    Started {
        /// The job's id.
        job: u64,
        /// When.
        at: Time,
    },
    /// A grid job ended.
    Ended {
        /// The job's id.
        job: u64,
        /// When.
        at: Time,
    },
    /// Fresh free time slots, published on the provider's own initiative
    /// (a reallocation event of Algorithm 1, say).
    Slots(Vec<FreeSlot>),
}

/// A resource provider as the gateway sees it.
///
/// The gateway talks to providers only through this trait, so it depends on
/// nothing but `profile`; a simulation adapts its cluster schedulers to it.
/// Each call stands for messages between gateway and provider, which
/// [`run`](crate::run) counts with a [`MessageCounter`](crate::MessageCounter).
///
/// Providers with their own life (local jobs, running jobs ending) expose it
/// through [`next_event`](Provider::next_event) and
/// [`advance`](Provider::advance); the gateway calls `advance(t)` before it
/// acts at `t`, so every other call sees the provider's state at `t`.
pub trait Provider {
    /// Processors in the provider's cluster; wider jobs are never sent to it.
    fn capacity(&self) -> u32;

    /// Share of the provider's processors in use at `now`, in `[0, 1]`:
    /// what it reports for the least-loaded policy.
    fn utilisation(&self, now: Time) -> f64;

    /// The free time slots from `now` up to `horizon` (`Time::MAX` for the
    /// paper's unlimited horizon), exactly as they stand: the answer to a
    /// request, or the refresh after a refused reservation.
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot>;

    /// The slots the provider publishes at a periodic publication, or
    /// `None` if it publishes nothing this time. By default, its free slots.
    fn publish(&mut self, now: Time, horizon: Time) -> Option<Vec<FreeSlot>> {
        Some(self.free_slots(now, horizon))
    }

    /// Hands a best-effort grid job to the provider's own scheduler.
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal>;

    /// Phase one of an advance reservation: hold the job's processors for its
    /// estimate from `start`, or refuse when the slot is gone.
    fn request_reservation(&mut self, now: Time, job: &Job, start: Time)
    -> Result<HoldId, Refusal>;

    /// Phase two: turns the hold into a reservation the provider honours.
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal>;

    /// Phase two, the other way: releases the hold.
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal>;

    /// The time of the provider's next own event, if it has any. The
    /// answer may change only through a `&mut` call on the provider:
    /// [`run`](crate::run) keeps it until it makes one.
    fn next_event(&self) -> Option<Time> {
        None
    }

    /// Lets the provider process its own events up to and including `now`,
    /// appending what the gateway must hear (grid jobs starting and ending,
    /// unsolicited slots) to `reports`. Afterwards
    /// [`next_event`](Provider::next_event) must be later than `now` (or
    /// `None`); [`run`](crate::run) stops with an error otherwise.
    ///
    /// Report only grid jobs the gateway handed to this provider: each
    /// start once, at or after the hand-over, then its end once, at the
    /// start plus the job's run time, or plus its estimate if the run time
    /// is longer (the model kills a job at its estimate: its reservation
    /// and the slots published around it end there), neither later than
    /// `now`. [`run`](crate::run)
    /// checks every report against its own record and stops with
    /// [`GatewayError::Report`](crate::GatewayError::Report) otherwise.
    fn advance(&mut self, _now: Time, _reports: &mut Vec<Report>) {}

    /// Whether [`advance`](Provider::advance) to `now` may do anything: by
    /// default, always. A provider may answer `false` only when advancing
    /// would append no report and change nothing its later answers depend
    /// on (typically: no event of its own at or before `now` and no report
    /// held back); [`run`](crate::run) then leaves it as it is, which saves
    /// the call at every event of the other providers.
    fn due(&self, _now: Time) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Message, MessageCounter, ViolationLog};

    /// A provider with `free` idle processors from time 0 on, forever, that
    /// runs submitted jobs at once when they fit.
    struct Toy {
        capacity: u32,
        free: u32,
        holds: Vec<(HoldId, u32)>,
        next: u64,
    }

    impl Provider for Toy {
        fn capacity(&self) -> u32 {
            self.capacity
        }
        fn utilisation(&self, _now: Time) -> f64 {
            f64::from(self.capacity - self.free) / f64::from(self.capacity)
        }
        fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
            if self.free == 0 || horizon <= now {
                return Vec::new();
            }
            vec![FreeSlot {
                start: now,
                end: horizon,
                procs: self.free,
            }]
        }
        fn submit(&mut self, _now: Time, job: Job) -> Result<(), Refusal> {
            self.free = self.free.saturating_sub(job.procs);
            Ok(())
        }
        fn request_reservation(
            &mut self,
            _now: Time,
            job: &Job,
            start: Time,
        ) -> Result<HoldId, Refusal> {
            if job.procs > self.free {
                return Err(Refusal::SlotGone {
                    job: job.id,
                    start,
                    procs: job.procs,
                    duration: job.estimate,
                });
            }
            self.free -= job.procs;
            self.next += 1;
            self.holds.push((HoldId(self.next), job.procs));
            Ok(HoldId(self.next))
        }
        fn commit(&mut self, _now: Time, hold: HoldId) -> Result<(), Refusal> {
            let i = self
                .holds
                .iter()
                .position(|h| h.0 == hold)
                .ok_or(Refusal::UnknownHold { hold })?;
            self.holds.remove(i);
            Ok(())
        }
        fn abort(&mut self, _now: Time, hold: HoldId) -> Result<(), Refusal> {
            let i = self
                .holds
                .iter()
                .position(|h| h.0 == hold)
                .ok_or(Refusal::UnknownHold { hold })?;
            self.free += self.holds.remove(i).1;
            Ok(())
        }
    }

    /// The trait is usable as an object, and a two-phase reservation with
    /// a refusal plays out as the paper describes: counted messages, and the
    /// refusal recorded as a violation.
    #[test]
    fn two_phase_reservation_through_a_trait_object() {
        let mut providers: Vec<Box<dyn Provider>> = vec![Box::new(Toy {
            capacity: 8,
            free: 8,
            holds: vec![],
            next: 0,
        })];
        let mut messages = MessageCounter::new();
        let mut violations = ViolationLog::default();
        let p = &mut providers[0];
        let now = Time(0);

        let slots = p.publish(now, Time::MAX).unwrap();
        messages.record(Message::SlotPublication);
        assert_eq!(
            slots,
            vec![FreeSlot {
                start: now,
                end: Time::MAX,
                procs: 8
            }]
        );

        let big = Job::new(1, now, 6, 100, 100);
        messages.record(Message::ReservationRequest);
        let hold = p.request_reservation(now, &big, now).unwrap();
        messages.record(Message::ReservationReply);
        messages.record(Message::Commit);
        p.commit(now, hold).unwrap();
        assert_eq!(p.utilisation(now), 0.75);
        assert_eq!(p.next_event(), None);

        // The gateway's slots are stale now: a second 6-processor job is refused.
        let second = Job::new(2, now, 6, 100, 100);
        messages.record(Message::ReservationRequest);
        let refusal = p.request_reservation(now, &second, now).unwrap_err();
        messages.record(Message::ReservationReply);
        violations.reservation_refused(second.id, now);
        assert!(
            refusal
                .to_string()
                .starts_with("reservation for job 2 refused"),
            "{refusal}"
        );

        // Committed holds cannot be aborted afterwards.
        assert_eq!(p.abort(now, hold), Err(Refusal::UnknownHold { hold }));
        assert_eq!(messages.total(), 6);
        assert_eq!(violations.count(), 1);
    }
}
