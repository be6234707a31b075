//! A provisioning policy of one's own, run through the gateway: start a job
//! now on the provider with the most free processors (spreading the load),
//! else at the earliest start anywhere. Compared with the built-in
//! `earliest-ask` on the same providers and jobs.
//!
//! Run with `cargo run -p usched-gateway --example own_provisioning`.

use std::cmp::Reverse;

use gateway::{
    Candidate, Choice, EarliestAsk, Fate, GatewayConfig, GatewayError, GridRun, HoldId,
    Information, Provider, Provisioning, Refusal, Rejection, Report, earliest, run,
};
use profile::{FreeSlot, Job, Profile, Time};

/// The policy: the most processors free now among the providers where the
/// job can start now (the lowest index among equals).
#[derive(Clone)]
struct MostFree;

impl Provisioning for MostFree {
    fn slot_information(&self) -> Option<Information> {
        Some(Information::Ask) // fresh slots from every provider, for every job
    }

    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        let free_now = |c: &Candidate<'_>| {
            let slots = c.slots?;
            (slots.earliest_start(now, job.procs, job.estimate) == Some(now))
                .then(|| slots.free_at(now))
        };
        let best = candidates
            .iter()
            .filter_map(|c| Some((free_now(c)?, Reverse(c.provider))))
            .max();
        match best {
            Some((_, Reverse(provider))) if job.deadline.is_none() => Choice::Submit {
                provider,
                planned: Some(now),
            },
            _ => earliest(now, job, candidates), // the built-in choice
        }
    }
}

/// The smallest provider that keeps its promises: every job gets the
/// earliest start that fits when it arrives (conservative backfilling).
struct Backfilling {
    profile: Profile,
    holds: Vec<Option<(Job, Time)>>,
    events: Vec<(Time, Report)>,
}

impl Backfilling {
    fn new(capacity: u32) -> Backfilling {
        let (holds, events) = (Vec::new(), Vec::new());
        let profile = Profile::new(capacity, Time::ZERO);
        Backfilling {
            profile,
            holds,
            events,
        }
    }

    fn book(&mut self, job: &Job, start: Time) {
        let end = start + job.run_time.min(job.estimate);
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

impl Provider for Backfilling {
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
        let refuse = || Refusal::Rejected {
            job: job.id,
            reason: "too wide".into(),
        };
        let start = self
            .profile
            .earliest_start(now, job.procs, job.estimate)
            .ok_or_else(refuse)?;
        self.profile
            .reserve(start, job.estimate, job.procs)
            .expect("a free slot");
        self.book(&job, start);
        Ok(())
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        if start < now || self.profile.min_free(start, start + job.estimate) < job.procs {
            let (procs, duration) = (job.procs, job.estimate);
            return Err(Refusal::SlotGone {
                job: job.id,
                start,
                procs,
                duration,
            });
        }
        self.profile
            .reserve(start, job.estimate, job.procs)
            .expect("checked free");
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
            .expect("held");
        Ok(())
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

/// `policy` over two providers of 8 and 16 processors.
fn play<Q: Provisioning + Clone>(policy: Q, jobs: &[Job]) -> Result<GridRun, GatewayError> {
    let mut providers = [Backfilling::new(8), Backfilling::new(16)];
    run(&GatewayConfig::new(policy), &mut providers, jobs)
}

/// The provider each job ran on (`None`: rejected).
fn placements(result: &GridRun) -> Vec<Option<usize>> {
    let provider = |fate: &Fate| match fate {
        Fate::Ran { provider, .. } => Some(*provider),
        Fate::Rejected { .. } => None,
    };
    result.fates.iter().map(provider).collect()
}

fn main() -> Result<(), GatewayError> {
    // Six jobs of 4 processors for an hour, 10 s apart, then one too wide for any provider.
    let mut jobs: Vec<Job> = (0..6)
        .map(|i| Job::new(i + 1, Time(10 * i as i64), 4, 3600, 3600))
        .collect();
    jobs.push(Job::new(7, Time(60), 32, 600, 600));

    let mine = play(MostFree, &jobs)?;
    let builtin = play(EarliestAsk, &jobs)?;
    for result in [&mine, &builtin] {
        // Every job ran (at once: there is room for all six) or was rejected with a reason.
        for (job, fate) in jobs.iter().zip(&result.fates) {
            match fate {
                Fate::Ran { start, .. } => assert_eq!(*start, job.submit, "job {}", job.id),
                Fate::Rejected { reason, .. } => {
                    assert_eq!((job.id, reason), (7, &Rejection::TooWide))
                }
            }
        }
        assert_eq!(
            result.violations.count(),
            0,
            "conservative providers keep the plan"
        );
    }
    // Earliest start fills provider 0 first; the policy spreads the jobs out.
    assert_eq!(
        placements(&builtin),
        [Some(0), Some(0), Some(1), Some(1), Some(1), Some(1), None]
    );
    assert_eq!(
        placements(&mine),
        [Some(1), Some(1), Some(0), Some(1), Some(0), Some(1), None]
    );
    // The same information gathered: a request and a reply per provider, and a submission, per job.
    assert_eq!(mine.messages, builtin.messages);
    println!(
        "most-free: {:?}\nearliest-ask: {:?}",
        placements(&mine),
        placements(&builtin)
    );
    Ok(())
}
