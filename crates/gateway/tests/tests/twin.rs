//! A small provider for the tests: conservative backfilling on one
//! availability profile (every job gets the earliest start that fits when
//! it arrives, and keeps it), local jobs from its own stream, advance
//! reservations, and a count of every call the gateway makes.

use std::cell::Cell;
use std::collections::BTreeMap;

use gateway::{HoldId, Provider, Refusal, Report};
use profile::{EventQueue, FreeSlot, Job, Profile, Time};

/// How many times the gateway called each method.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Calls {
    pub free_slots: u64,
    pub published: u64,
    pub submit: u64,
    pub request: u64,
    pub refused: u64,
    pub commit: u64,
    pub abort: u64,
    pub unsolicited: u64,
}

#[derive(Clone, Debug)]
pub struct Twin {
    pub capacity: u32,
    profile: Profile,
    local: Vec<Job>,
    next_local: usize,
    starts: EventQueue<(u64, bool, i64, u32)>,
    ends: EventQueue<(u64, bool, u32)>,
    holds: BTreeMap<u64, (Job, Time)>,
    next_hold: u64,
    busy: u32,
    /// Publish only every other time (the rest: `None`).
    pub skip_publications: bool,
    published_once: bool,
    /// Publish slots unasked whenever a local job arrives.
    pub chatty: bool,
    pub calls: Calls,
    /// Utilisation reports asked for (`utilisation` takes `&self`).
    pub utilisation_calls: Cell<u64>,
    /// Grid jobs: (id, start, end) as run.
    pub ran: Vec<(u64, Time, Time)>,
    /// Grid jobs started: how many times each id was reported ended.
    pub ended: BTreeMap<u64, u32>,
}

impl Twin {
    pub fn new(capacity: u32, local: Vec<Job>) -> Twin {
        Twin {
            capacity,
            profile: Profile::new(capacity, Time::ZERO),
            local,
            next_local: 0,
            starts: EventQueue::new(),
            ends: EventQueue::new(),
            holds: BTreeMap::new(),
            next_hold: 0,
            busy: 0,
            skip_publications: false,
            published_once: false,
            chatty: false,
            calls: Calls::default(),
            utilisation_calls: Cell::new(0),
            ran: Vec::new(),
            ended: BTreeMap::new(),
        }
    }

    /// Reserves `job` at its earliest start (conservative backfilling).
    fn place(&mut self, now: Time, job: &Job, grid: bool) {
        let start = self
            .profile
            .earliest_start(now, job.procs, job.estimate)
            .expect("jobs fit the machine");
        self.book(job, start, grid);
    }

    fn book(&mut self, job: &Job, start: Time, grid: bool) {
        self.profile
            .reserve(start, job.estimate, job.procs)
            .expect("placed where free");
        let run = job.run_time.min(job.estimate);
        self.starts.push(start, (job.id, grid, run, job.procs));
    }
}

impl Provider for Twin {
    fn capacity(&self) -> u32 {
        self.capacity
    }
    fn utilisation(&self, _now: Time) -> f64 {
        self.utilisation_calls.set(self.utilisation_calls.get() + 1);
        f64::from(self.busy) / f64::from(self.capacity)
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.calls.free_slots += 1;
        self.profile.free_slots(now, horizon)
    }
    fn publish(&mut self, now: Time, horizon: Time) -> Option<Vec<FreeSlot>> {
        self.published_once = !self.published_once;
        if self.skip_publications && !self.published_once {
            return None;
        }
        self.calls.published += 1;
        Some(self.profile.free_slots(now, horizon))
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        self.calls.submit += 1;
        if job.procs > self.capacity {
            return Err(Refusal::Rejected {
                job: job.id,
                reason: "too wide".into(),
            });
        }
        gateway::testing::runnable(&job)?;
        self.place(now, &job, true);
        Ok(())
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        self.calls.request += 1;
        gateway::testing::runnable(job)?;
        let fits = start >= now && self.profile.min_free(start, start + job.estimate) >= job.procs;
        if !fits {
            self.calls.refused += 1;
            return Err(Refusal::SlotGone {
                job: job.id,
                start,
                procs: job.procs,
                duration: job.estimate,
            });
        }
        self.profile
            .reserve(start, job.estimate, job.procs)
            .expect("checked");
        self.next_hold += 1;
        self.holds.insert(self.next_hold, (job.clone(), start));
        Ok(HoldId(self.next_hold))
    }
    fn commit(&mut self, _now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.calls.commit += 1;
        let (job, start) = self
            .holds
            .remove(&hold.0)
            .ok_or(Refusal::UnknownHold { hold })?;
        let run = job.run_time.min(job.estimate);
        self.starts.push(start, (job.id, true, run, job.procs));
        Ok(())
    }
    fn abort(&mut self, _now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.calls.abort += 1;
        let (job, start) = self
            .holds
            .remove(&hold.0)
            .ok_or(Refusal::UnknownHold { hold })?;
        self.profile
            .release(start, job.estimate, job.procs)
            .expect("held");
        Ok(())
    }
    fn next_event(&self) -> Option<Time> {
        let local = self.local.get(self.next_local).map(|j| j.submit);
        [self.starts.peek_time(), self.ends.peek_time(), local]
            .into_iter()
            .flatten()
            .min()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        while let Some(t) = self.next_event().filter(|&t| t <= now) {
            while self.ends.peek_time() == Some(t) {
                let (_, (id, grid, procs)) = self.ends.pop().expect("peeked");
                self.busy -= procs;
                if grid {
                    *self.ended.entry(id).or_default() += 1;
                    reports.push(Report::Ended { job: id, at: t });
                }
            }
            while self
                .local
                .get(self.next_local)
                .is_some_and(|j| j.submit == t)
            {
                let job = self.local[self.next_local].clone();
                self.next_local += 1;
                self.place(t, &job, false);
                if self.chatty {
                    self.calls.unsolicited += 1;
                    reports.push(Report::Slots(self.profile.free_slots(t, Time::MAX)));
                }
            }
            while self.starts.peek_time() == Some(t) {
                let (_, (id, grid, run, procs)) = self.starts.pop().expect("peeked");
                self.busy += procs;
                self.ends.push(t + run, (id, grid, procs));
                if grid {
                    self.ran.push((id, t, t + run));
                    reports.push(Report::Started { job: id, at: t });
                }
            }
        }
        self.profile.advance(now);
    }
}
