//! Advance reservations in two phases: a hold on the processors, then a
//! commit (the job starts exactly at its reserved start) or an abort.

use profile::{Job, Time};

use super::{Cluster, Entry, Res, State};
use crate::error::{ClusterError, HoldId, ReservationError};
use crate::partition::Origin;

impl Cluster {
    /// Phase one of an advance reservation: holds the job's processors over
    /// `[start, start + estimate)`, or refuses if they are not free there,
    /// or if the job's id is that of a grid job already submitted, held or
    /// committed here ([`ClusterError::DuplicateId`](crate::ClusterError::DuplicateId)
    /// inside [`ReservationError::Job`]). The hold lasts until
    /// [`commit`](Self::commit) or [`abort`](Self::abort); it does not
    /// expire on its own. An aborted hold's id may be asked for again. A
    /// start from which the job would end after [`Time::LATEST`] is
    /// refused ([`ReservationError::BeyondLatest`]), and so is a request
    /// made after [`Time::LIMIT`] (the job's record would be submitted
    /// then; [`ClusterError::BadJob`](crate::ClusterError::BadJob)).
    pub fn request_reservation(
        &mut self,
        now: Time,
        job: Job,
        start: Time,
    ) -> Result<HoldId, ReservationError> {
        self.advance(now)
            .map_err(|error| ReservationError::Job { error })?;
        let part = self
            .check_job(&job, Origin::Grid)
            .map_err(|error| ReservationError::Job { error })?;
        self.check_arrival(job.id)
            .map_err(|error| ReservationError::Job { error })?;
        if self.grid_ids.contains(&job.id) {
            return Err(ReservationError::Job {
                error: ClusterError::DuplicateId { id: job.id },
            });
        }
        if start < self.now {
            return Err(ReservationError::InThePast {
                job: job.id,
                start,
                now: self.now,
            });
        }
        // Saturating: a start near `Time::NEVER` is refused, never wrapped.
        if start + job.estimate > Time::LATEST {
            return Err(ReservationError::BeyondLatest { job: job.id, start });
        }
        let Some(charge) = self.charge_at(start, job.estimate, job.procs, part) else {
            return Err(ReservationError::SlotGone {
                job: job.id,
                start,
                procs: job.procs,
                duration: job.estimate,
            });
        };
        self.apply(&charge, start, job.estimate, true);
        self.grid_ids.insert(job.id);
        let i = self.queue.entries.len();
        self.queue.entries.push(Entry {
            submit: now,
            key: (0, 0),
            origin: Origin::Grid,
            part,
            state: State::Held(Res {
                start,
                charge,
                fixed: true,
            }),
            reserved_start: Some(start),
            job,
        });
        Ok(HoldId(i as u64))
    }

    /// Phase two: the hold becomes a reservation the cluster honours (the
    /// job starts exactly at the reserved start, and is recorded as
    /// submitted now). Refused, and the hold released, when its start has
    /// passed ([`ReservationError::InThePast`]) or when now is past
    /// [`Time::LIMIT`], after which no job is submitted
    /// ([`ClusterError::BadJob`](crate::ClusterError::BadJob) inside
    /// [`ReservationError::Job`]).
    pub fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), ReservationError> {
        self.advance(now)
            .map_err(|error| ReservationError::Job { error })?;
        let i = self.held(hold)?;
        let State::Held(res) = std::mem::replace(&mut self.queue.entries[i].state, State::Aborted)
        else {
            return Err(ReservationError::UnknownHold { hold });
        };
        let (id, est) = (
            self.queue.entries[i].job.id,
            self.queue.entries[i].job.estimate,
        );
        // The hold outlived its start, or the job would be submitted (at
        // its commit) after `Time::LIMIT`: it cannot be honoured, and its
        // processors are released.
        let refused = if res.start < self.now {
            Some(ReservationError::InThePast {
                job: id,
                start: res.start,
                now: self.now,
            })
        } else {
            self.check_arrival(id)
                .err()
                .map(|error| ReservationError::Job { error })
        };
        if let Some(refused) = refused {
            self.grid_ids.remove(&id);
            self.apply(&res.charge, res.start, est, false);
            self.compress();
            self.pass();
            return Err(refused);
        }
        let start = res.start;
        self.queue.seq += 1;
        let key = (self.rank(Origin::Grid), self.queue.seq);
        let e = &mut self.queue.entries[i];
        e.submit = self.now;
        e.state = State::Waiting(Some(res));
        e.key = key;
        let procs = u64::from(e.job.procs);
        self.touch();
        self.accounts.all_demand += procs;
        self.insert_waiting(i);
        self.queue.starts.push(start, i);
        self.pass();
        Ok(())
    }

    /// Phase two, the other way: releases the hold.
    pub fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), ReservationError> {
        self.advance(now)
            .map_err(|error| ReservationError::Job { error })?;
        let i = self.held(hold)?;
        let State::Held(res) = std::mem::replace(&mut self.queue.entries[i].state, State::Aborted)
        else {
            return Err(ReservationError::UnknownHold { hold });
        };
        let job = &self.queue.entries[i].job;
        let (id, est) = (job.id, job.estimate);
        self.grid_ids.remove(&id);
        self.apply(&res.charge, res.start, est, false);
        self.compress();
        self.pass();
        Ok(())
    }

    /// The entry of a hold neither committed nor aborted.
    fn held(&self, hold: HoldId) -> Result<usize, ReservationError> {
        usize::try_from(hold.0)
            .ok()
            .filter(|&i| {
                matches!(
                    self.queue.entries.get(i).map(|e| &e.state),
                    Some(State::Held(_))
                )
            })
            .ok_or(ReservationError::UnknownHold { hold })
    }
}
