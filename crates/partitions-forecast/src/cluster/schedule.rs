//! The clock and the scheduling pass: events (ends, reserved starts, local
//! arrivals, reallocation checks) processed in time order, the waiting
//! queue, backfilling, pivots' reservations, and moving reservations
//! earlier when capacity frees up.

use profile::{Job, Time};

use super::{Charge, Cluster, Entry, Notice, Priority, Res, State};
use crate::error::ClusterError;
use crate::partition::Origin;

impl Cluster {
    /// The time of the cluster's next own event, if any.
    pub fn next_event(&self) -> Option<Time> {
        let local = self.arrivals.jobs.get(self.arrivals.next).map(|j| j.submit);
        let check = self
            .forecast
            .as_ref()
            .and_then(|f| f.checks.first().copied());
        Time::earliest(
            Time::earliest(self.queue.ends.peek_time(), self.queue.starts.peek_time()),
            Time::earliest(local, check),
        )
    }

    /// Processes every event up to and including `until`, then sets the
    /// clock to `until`.
    pub fn advance(&mut self, until: Time) -> Result<(), ClusterError> {
        if until < self.now {
            return Err(ClusterError::Past {
                at: until,
                now: self.now,
            });
        }
        while let Some(t) = self.next_event() {
            if t > until {
                break;
            }
            self.step(t);
        }
        self.now = until;
        Ok(())
    }

    /// Runs until no event is left (every job has ended, unless one can
    /// never be placed); returns the clock.
    pub fn drain(&mut self) -> Time {
        while let Some(t) = self.next_event() {
            self.step(t);
        }
        self.now
    }

    /// Submits a job at `now`; it is placed at once. A grid job's id must
    /// not be one already submitted, held or committed here
    /// ([`ClusterError::DuplicateId`]): notices name grid jobs by id. A
    /// local job's must not be another local job's, given here or with
    /// [`Cluster::with_local_jobs`] ([`ClusterError::DuplicateLocalId`]):
    /// records name jobs by id. The job's record is submitted at `now`, so
    /// a `now` past [`Time::LIMIT`] is refused ([`ClusterError::BadJob`]).
    pub fn submit(&mut self, now: Time, job: Job, origin: Origin) -> Result<(), ClusterError> {
        self.advance(now)?;
        let part = self.check_job(&job, origin)?;
        self.check_arrival(job.id)?;
        match origin {
            Origin::Grid => {
                if !self.grid_ids.insert(job.id) {
                    return Err(ClusterError::DuplicateId { id: job.id });
                }
            }
            Origin::Local => {
                self.arrivals.add_ids(std::iter::once(job.id))?;
                self.arrivals.submitted += 1;
            }
        }
        self.enqueue(job, origin, part);
        self.pass();
        Ok(())
    }

    /// Everything that happens at `t`: ends, local arrivals, a scheduling
    /// pass, then a reallocation check.
    fn step(&mut self, t: Time) {
        self.now = t;
        self.profiles.global.advance(t);
        for p in &mut self.profiles.parts {
            p.advance(t);
        }
        let mut released = false;
        while self.queue.ends.peek_time() == Some(t) {
            let (_, i) = self.queue.ends.pop().expect("peeked");
            released |= self.finish(i);
        }
        while self
            .arrivals
            .jobs
            .get(self.arrivals.next)
            .is_some_and(|j| j.submit == t)
        {
            let job = self.arrivals.jobs[self.arrivals.next].clone();
            self.arrivals.next += 1;
            let part = self
                .partition_of(&job, Origin::Local)
                .expect("local jobs were checked on entry");
            self.enqueue(job, Origin::Local, part);
        }
        if released {
            self.compress();
        }
        self.pass();
        let due = self
            .forecast
            .as_ref()
            .is_some_and(|f| f.checks.first() == Some(&t));
        if due {
            if let Some(f) = self.forecast.as_mut() {
                f.checks.remove(0);
            }
            self.reallocation_event();
        }
    }

    /// The first part of a job's queue key: 0, or 1 for a grid job when
    /// local jobs come first.
    pub(super) fn rank(&self, origin: Origin) -> u8 {
        match (self.layout.priority, origin) {
            (Priority::LocalFirst, Origin::Grid) => 1,
            _ => 0,
        }
    }

    /// Puts a submitted job in the waiting queue, without a reservation.
    fn enqueue(&mut self, job: Job, origin: Origin, part: usize) {
        self.touch();
        let procs = u64::from(job.procs);
        if origin == Origin::Local {
            self.accounts.local_demand += procs;
        }
        self.accounts.all_demand += procs;
        self.queue.seq += 1;
        let i = self.queue.entries.len();
        self.queue.entries.push(Entry {
            submit: self.now,
            key: (self.rank(origin), self.queue.seq),
            origin,
            part,
            state: State::Waiting(None),
            reserved_start: None,
            job,
        });
        self.insert_waiting(i);
    }

    /// Inserts job `i` in the waiting queue by its key.
    pub(super) fn insert_waiting(&mut self, i: usize) {
        let key = self.queue.entries[i].key;
        let entries = &self.queue.entries;
        let pos = self
            .queue
            .waiting
            .partition_point(|&w| entries[w].key <= key);
        self.queue.waiting.insert(pos, i);
    }

    /// Takes job `i` out of the waiting queue.
    fn remove_waiting(&mut self, i: usize) {
        if let Some(k) = self.queue.waiting.iter().position(|&w| w == i) {
            self.queue.waiting.remove(k);
        }
    }

    /// A running job ends now; returns whether it freed capacity early.
    fn finish(&mut self, i: usize) -> bool {
        let State::Running { start, end, charge } =
            std::mem::replace(&mut self.queue.entries[i].state, State::Aborted)
        else {
            unreachable!("only running jobs have end events");
        };
        self.queue.entries[i].state = State::Done { start, end };
        let (procs, est, origin, id) = {
            let e = &self.queue.entries[i];
            (e.job.procs, e.job.estimate, e.origin, e.job.id)
        };
        self.accounts.running_procs -= u64::from(procs);
        self.touch();
        if origin == Origin::Local {
            self.accounts.local_demand -= u64::from(procs);
            self.accounts.local_running -= u64::from(procs);
        } else {
            self.notices.push(Notice::Ended { id, start, end });
        }
        self.accounts.all_demand -= u64::from(procs);
        let predicted = start + est;
        if end < predicted {
            self.apply(&charge, end, predicted - end, false);
            true
        } else {
            false
        }
    }

    /// Starts waiting job `i` now with `charge` (not yet applied).
    fn start_now(&mut self, i: usize, charge: Charge) {
        let est = self.queue.entries[i].job.estimate;
        self.apply(&charge, self.now, est, true);
        self.run(i, charge);
    }

    /// Marks job `i` running from now (its rectangle is already in place).
    fn run(&mut self, i: usize, charge: Charge) {
        let now = self.now;
        if self.queue.entries[i].origin == Origin::Local {
            self.touch();
            self.accounts.local_running += u64::from(self.queue.entries[i].job.procs);
        }
        let e = &mut self.queue.entries[i];
        let end = now + e.job.run_time.min(e.job.estimate);
        e.state = State::Running {
            start: now,
            end,
            charge,
        };
        self.accounts.running_procs += u64::from(e.job.procs);
        if e.origin == Origin::Grid {
            self.notices.push(Notice::Started {
                id: e.job.id,
                at: now,
            });
        }
        self.queue.ends.push(end, i);
    }

    /// One scheduling pass at the current time.
    pub(super) fn pass(&mut self) {
        let now = self.now;
        // Reservations that have come.
        while let Some(t) = self.queue.starts.peek_time().filter(|&t| t <= now) {
            let (_, i) = self.queue.starts.pop().expect("peeked");
            let due =
                matches!(&self.queue.entries[i].state, State::Waiting(Some(r)) if r.start == t);
            if !due {
                continue; // stale: the job moved or started
            }
            let State::Waiting(Some(res)) =
                std::mem::replace(&mut self.queue.entries[i].state, State::Aborted)
            else {
                unreachable!("checked above");
            };
            if !res.fixed {
                self.queue.reserved[self.queue.entries[i].part] -= 1;
            }
            self.remove_waiting(i);
            self.run(i, res.charge);
        }
        // Backfilling and pivots, in queue order.
        let mut free_now = self.profiles.global.free_at(now);
        let mut k = 0;
        while k < self.queue.waiting.len() {
            if free_now == 0
                && (0..self.layout.pivots.len())
                    .all(|p| self.queue.reserved[p] >= self.layout.pivots[p])
            {
                break;
            }
            let i = self.queue.waiting[k];
            let e = &self.queue.entries[i];
            if !matches!(e.state, State::Waiting(None)) {
                k += 1;
                continue;
            }
            let (p, procs, est) = (e.part, e.job.procs, e.job.estimate);
            if procs <= free_now
                && let Some(charge) = self.charge_at(now, est, procs, p)
            {
                self.queue.waiting.remove(k);
                self.start_now(i, charge);
                free_now -= procs;
                continue;
            }
            if self.queue.reserved[p] < self.layout.pivots[p]
                && let Some((t, charge)) = self.earliest(now, est, procs, p)
            {
                debug_assert!(t > now, "a job that fits now was started above");
                self.apply(&charge, t, est, true);
                self.queue.entries[i].state = State::Waiting(Some(Res {
                    start: t,
                    charge,
                    fixed: false,
                }));
                self.queue.reserved[p] += 1;
                self.queue.starts.push(t, i);
            }
            k += 1;
        }
    }

    /// Moves every movable reservation, in queue order, to its earliest start.
    pub(super) fn compress(&mut self) {
        let now = self.now;
        for k in 0..self.queue.waiting.len() {
            let i = self.queue.waiting[k];
            let State::Waiting(Some(res)) = &self.queue.entries[i].state else {
                continue;
            };
            if res.fixed || res.start <= now {
                continue;
            }
            let (p, procs, est) = {
                let e = &self.queue.entries[i];
                (e.part, e.job.procs, e.job.estimate)
            };
            if self.profiles.global.max_free(now, res.start) < procs {
                continue;
            }
            let State::Waiting(Some(old)) =
                std::mem::replace(&mut self.queue.entries[i].state, State::Waiting(None))
            else {
                unreachable!("checked above");
            };
            self.apply(&old.charge, old.start, est, false);
            // After a resize the old charge may no longer be one the
            // partitions would give; the old place stays valid regardless
            // (its processors are there), so a job never moves later.
            let res = match self.earliest(now, est, procs, p) {
                Some((t, charge)) if t < old.start => {
                    self.queue.starts.push(t, i);
                    Res {
                        start: t,
                        charge,
                        fixed: false,
                    }
                }
                _ => old,
            };
            self.apply(&res.charge, res.start, est, true);
            self.queue.entries[i].state = State::Waiting(Some(res));
        }
    }
}
