//! The suite's reference provider: conservative backfilling on one
//! availability profile.

use profile::{FreeSlot, Job, Profile, Time};

use crate::{HoldId, Provider, Refusal, Report};

/// The smallest provider that keeps its promises, for the suite and for a
/// user's own tests of a policy: every job handed over gets the earliest
/// start that fits at that moment (conservative backfilling), a reservation
/// holds exactly its window, and a job runs its run time or is killed at
/// its estimate; no local jobs. A job with an estimate under 1 s or a
/// negative run time is refused ([`Refusal::Rejected`]), as the model's
/// clusters refuse it.
#[derive(Clone, Debug)]
pub struct Conservative {
    profile: Profile,
    holds: Vec<Option<(Job, Time)>>,
    events: Vec<(Time, Report)>,
}

impl Conservative {
    /// An idle provider of `capacity` processors (at least 1).
    pub fn new(capacity: u32) -> Conservative {
        Conservative {
            profile: Profile::new(capacity.max(1), Time::ZERO),
            holds: Vec::new(),
            events: Vec::new(),
        }
    }

    fn book(&mut self, job: &Job, start: Time) {
        let end = start.saturating_add(job.run_time.min(job.estimate).max(0));
        self.events.push((
            start,
            Report::Started {
                job: job.id,
                at: start,
            },
        ));
        self.events.push((
            end,
            Report::Ended {
                job: job.id,
                at: end,
            },
        ));
    }
}

/// `Ok` if a cluster of the model can run `job`; else the refusal
/// `partitions_forecast::Cluster` gives it ([`Refusal::Rejected`]): an
/// estimate under 1 s or a negative run time. The gateway hands over
/// whatever the grid submits and leaves that judgement to the provider;
/// [`Conservative`] calls this first, and a provider of one's own may too.
pub fn runnable(job: &Job) -> Result<(), Refusal> {
    if job.estimate < 1 || job.run_time < 0 {
        return Err(Refusal::Rejected {
            job: job.id,
            reason: format!(
                "estimate {} s and run time {} s; the estimate must be at least 1 s and the run time at least 0 s",
                job.estimate, job.run_time
            ),
        });
    }
    Ok(())
}

impl Provider for Conservative {
    fn capacity(&self) -> u32 {
        self.profile.capacity()
    }

    fn utilisation(&self, now: Time) -> f64 {
        1.0 - f64::from(self.profile.free_at(now)) / f64::from(self.capacity())
    }

    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.profile.free_slots(now, horizon)
    }

    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        runnable(&job)?;
        let refuse = |reason: &str| Refusal::Rejected {
            job: job.id,
            reason: reason.into(),
        };
        let start = self
            .profile
            .earliest_start(now, job.procs, job.estimate)
            .ok_or_else(|| refuse("no room"))?;
        self.profile
            .reserve(start, job.estimate, job.procs)
            .map_err(|e| refuse(&e.to_string()))?;
        self.book(&job, start);
        Ok(())
    }

    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        runnable(job)?;
        let gone = || Refusal::SlotGone {
            job: job.id,
            start,
            procs: job.procs,
            duration: job.estimate,
        };
        if start < now
            || self
                .profile
                .min_free(start, start.saturating_add(job.estimate))
                < job.procs
        {
            return Err(gone());
        }
        self.profile
            .reserve(start, job.estimate, job.procs)
            .map_err(|_| gone())?;
        self.holds.push(Some((job.clone(), start)));
        Ok(HoldId(self.holds.len() as u64 - 1))
    }

    fn commit(&mut self, _now: Time, hold: HoldId) -> Result<(), Refusal> {
        let held = self.holds.get_mut(hold.0 as usize).and_then(Option::take);
        let (job, start) = held.ok_or(Refusal::UnknownHold { hold })?;
        self.book(&job, start);
        Ok(())
    }

    fn abort(&mut self, _now: Time, hold: HoldId) -> Result<(), Refusal> {
        let held = self.holds.get_mut(hold.0 as usize).and_then(Option::take);
        let (job, start) = held.ok_or(Refusal::UnknownHold { hold })?;
        self.profile
            .release(start, job.estimate, job.procs)
            .map_err(|e| Refusal::Rejected {
                job: job.id,
                reason: e.to_string(),
            })
    }

    fn next_event(&self) -> Option<Time> {
        self.events.iter().map(|&(t, _)| t).min()
    }

    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        self.events.sort_by_key(|&(t, _)| t); // stable: a start before its end
        let due = self.events.partition_point(|&(t, _)| t <= now);
        reports.extend(self.events.drain(..due).map(|(_, report)| report));
    }
}
