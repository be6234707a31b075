//! The public invariant suite for a user's own [`Provisioning`] policy and
//! [`Provider`] (feature `testing`), in the shape of `profile::testing`
//! and the other paper crates' suites: [`check_provisioning`] and
//! [`check_provider`] for one run, and a [`Suite`] that runs them on edge
//! cases and on workloads drawn from the gate's fixed seed
//! (`profile::testing::sample_workloads`, the same on every run),
//! reporting the first broken invariant as a [`Broken`] under one of the
//! names of [`invariant`]:
//!
//! * [`invariant::DETERMINISTIC`]: two runs, each with fresh
//!   implementations from the closure, made different runs (the detail
//!   names the first job whose fate differs);
//! * [`invariant::VALID`]: a job that ran is recorded starting before it
//!   was handed over, or handed over before its submission, or a
//!   provider's jobs fail `profile::validate` on the capacity it stated
//!   (more processors busy than it has, a job wider than it, a run of
//!   neither the run time nor the estimate);
//! * [`invariant::KEEPS_THE_CONTRACT`]: a policy's [`Choice`] that names a
//!   provider not among the candidates, a start in the past, or a
//!   rejection reason only the gateway may give, or a policy whose
//!   [`Provisioning::slot_information`] or
//!   [`Provisioning::utilisation_reports`] changes its answer (the run
//!   refuses most of these as [`GatewayError`]s: the suite names them as
//!   the policy's); a provider's report the gateway refuses
//!   ([`GatewayError::Report`]: an end other than the start plus the run
//!   time, or the kill at the estimate, say), or an event time that does
//!   not move on ([`GatewayError::ProviderClock`]), a job it took and never
//!   started or ended ([`GatewayError::Stuck`], also once it keeps
//!   waking without doing so), or events that lead nowhere
//!   ([`GatewayError::Quiet`]);
//! * [`invariant::RUNS_TO_THE_END`]: a run failed with an error where the
//!   built-in policy ([`LeastLoad`]) or the reference provider
//!   ([`Conservative`]) runs.
//!
//! ```
//! use gateway::testing::Suite;
//! use gateway::{Candidate, Choice, Information, Provisioning};
//! use profile::{Job, Time};
//!
//! /// The earliest start over the providers' answers, written outside.
//! #[derive(Clone)]
//! struct Earliest;
//!
//! impl Provisioning for Earliest {
//!     fn slot_information(&self) -> Option<Information> {
//!         Some(Information::Ask)
//!     }
//!     fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
//!         gateway::earliest(now, job, candidates)
//!     }
//! }
//!
//! Suite::new(4).check_provisioning(|| Earliest)?;
//! Suite::new(4).check_provider(gateway::testing::Conservative::new)?;
//! # Ok::<(), profile::testing::Broken>(())
//! ```

mod conservative;

use std::cell::RefCell;
use std::rc::Rc;

pub use conservative::{Conservative, runnable};
pub use profile::testing::{Broken, invariant};
use profile::{Job, Outcome, Time};

use crate::run::check_choice;
use crate::{
    Candidate, Choice, EarliestAsk, Fate, GatewayConfig, GatewayError, GridRun, Information,
    LeastLoad, Provider, Provisioning, run,
};

type Slot = Rc<RefCell<Option<Broken>>>;

/// A policy's first answers: (utilisation reports, slot information).
type Settings = Rc<RefCell<Option<(bool, Option<Information>)>>>;

/// A policy that records the first answer its contract rules out.
#[derive(Clone)]
struct Watched<Q> {
    inner: Q,
    answers: Settings,
    broken: Slot,
}

impl<Q> Watched<Q> {
    fn record(&self, b: Broken) {
        let mut slot = self.broken.borrow_mut();
        if slot.is_none() {
            *slot = Some(b);
        }
    }

    fn settings(&self, reports: bool, information: Option<Information>) {
        let mut first = self.answers.borrow_mut();
        match *first {
            Some(f) if f != (reports, information) => self.record(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "the policy's information changed from {f:?} to {:?} (utilisation reports, slot information); a policy gathers one kind of information for the whole run",
                    (reports, information)
                ),
            )),
            _ => *first = Some((reports, information)),
        }
    }
}

impl<Q: Provisioning> Provisioning for Watched<Q> {
    fn utilisation_reports(&self) -> bool {
        let r = self.inner.utilisation_reports();
        self.settings(r, self.inner.slot_information());
        r
    }

    fn slot_information(&self) -> Option<Information> {
        let i = self.inner.slot_information();
        self.settings(self.inner.utilisation_reports(), i);
        i
    }

    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        let choice = self.inner.choose(now, job, candidates);
        let named = match choice {
            Choice::Submit { provider, .. } | Choice::Reserve { provider, .. } => Some(provider),
            _ => None,
        };
        let problem = if let Some(p) = named.filter(|p| candidates.iter().all(|c| c.provider != *p))
        {
            Some(format!(
                "it chose provider {p}, not among the candidates {:?}",
                candidates.iter().map(|c| c.provider).collect::<Vec<_>>()
            ))
        } else {
            check_choice(&choice, job, now).err().map(|e| e.to_string())
        };
        if let Some(problem) = problem {
            self.record(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!("job {} at {now}: {choice:?}: {problem}", job.id),
            ));
        }
        choice
    }
}

type Run = Result<GridRun, GatewayError>;

fn first_difference(jobs: &[Job], a: &Run, b: &Run) -> Option<String> {
    match (a, b) {
        (Ok(a), Ok(b)) if a == b => None,
        (Ok(a), Ok(b)) => Some(
            match a.fates.iter().zip(&b.fates).position(|(x, y)| x != y) {
                Some(k) => format!(
                    "job {}: run 1 {:?}, run 2 {:?}",
                    jobs.get(k).map_or(0, |j| j.id),
                    a.fates[k],
                    b.fates[k]
                ),
                None => format!(
                    "the same fates, other messages or violations: run 1 {:?}, run 2 {:?}",
                    a.messages, b.messages
                ),
            },
        ),
        (a, b) if a == b => None,
        (a, b) => Some(format!(
            "run 1 {:?}, run 2 {:?}",
            a.as_ref().err(),
            b.as_ref().err()
        )),
    }
}

const FRESH: &str = "look for state kept between instances (a static), iteration over a HashMap or HashSet, or time and randomness";

/// The run's schedule is one the providers could hold: every job that ran
/// started at or after its hand-over, handed over at or after its
/// submission, and on each provider (of the capacity it stated before the
/// run) the jobs it ran pass `profile::validate`: none wider than the
/// provider, never more processors busy than it has, each running its run
/// time or killed at its estimate.
fn check_fates(jobs: &[Job], run: &GridRun, capacities: &[u32]) -> Result<(), Broken> {
    let mut on: Vec<(Vec<Job>, Vec<Outcome>)> = vec![Default::default(); capacities.len()];
    for (job, fate) in jobs.iter().zip(&run.fates) {
        let Fate::Ran {
            provider,
            placed,
            start,
            end,
            ..
        } = *fate
        else {
            continue;
        };
        if start < placed || placed < job.submit {
            return Err(Broken::new(
                invariant::VALID,
                format!(
                    "job {} submitted at {} was handed over at {placed} and started at {start}",
                    job.id, job.submit
                ),
            ));
        }
        let Some((ran, outcomes)) = on.get_mut(provider) else {
            return Err(Broken::new(
                invariant::VALID,
                format!(
                    "job {} ran on provider {provider}, but the run had {} providers",
                    job.id,
                    capacities.len()
                ),
            ));
        };
        ran.push(job.clone());
        outcomes.push(Outcome::ran(job, start, end));
    }
    for (provider, ((ran, outcomes), &capacity)) in on.iter().zip(capacities).enumerate() {
        profile::validate(capacity, ran, outcomes).map_err(|v| {
            Broken::new(
                invariant::VALID,
                format!("provider {provider} of {capacity} processors: {v}"),
            )
        })?;
    }
    Ok(())
}

/// What each provider says it has, before a run.
fn capacities<P: Provider>(providers: &[P]) -> Vec<u32> {
    providers.iter().map(|p| p.capacity()).collect()
}

/// Checks one run of the policies `make` builds (it is called for each
/// run) on the providers `providers` builds (fresh for each run) over
/// `jobs`: every choice keeps the [`Provisioning`] contract, a fresh policy
/// makes the same run, the schedule is valid on every provider, and
/// the run ends without an error unless [`LeastLoad`] fails on the same
/// input too.
pub fn check_provisioning<Q: Provisioning + Clone, P: Provider>(
    make: impl Fn() -> Q,
    providers: impl Fn() -> Vec<P>,
    jobs: &[Job],
) -> Result<(), Broken> {
    let play = || {
        let slot: Slot = Rc::default();
        let policy = Watched {
            inner: make(),
            answers: Rc::default(),
            broken: slot.clone(),
        };
        let mut on = providers();
        let capacities = capacities(&on);
        let result = run(&GatewayConfig::new(policy), &mut on, jobs);
        let b = slot.borrow_mut().take();
        (result, b, capacities)
    };
    let (first, watched, capacities) = play();
    if let Some(b) = watched {
        return Err(b);
    }
    let (again, _, _) = play();
    if let Some(d) = first_difference(jobs, &first, &again) {
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!("a fresh policy made another run of the same jobs ({d}); {FRESH}"),
        ));
    }
    match first {
        Ok(result) => check_fates(jobs, &result, &capacities),
        Err(_) if run(&GatewayConfig::new(LeastLoad), &mut providers(), jobs).is_err() => Ok(()),
        Err(e) => Err(Broken::new(invariant::RUNS_TO_THE_END, e.to_string())),
    }
}

/// Checks runs of the providers `make` builds (a provider of the given
/// number of processors; fresh for each run) over `jobs`, two of them (8
/// and 16 processors) under each built-in policy: every report the gateway
/// checks is one the provider may make, fresh providers make the same run,
/// the schedule is valid on every provider, and every run ends
/// without an error unless [`Conservative`] providers fail on the same
/// input too.
pub fn check_provider<P: Provider>(make: impl Fn(u32) -> P, jobs: &[Job]) -> Result<(), Broken> {
    let mine = || vec![make(8), make(16)];
    let reference = || vec![Conservative::new(8), Conservative::new(16)];
    let policies = [
        crate::GatewayPolicy::LeastLoaded,
        crate::GatewayPolicy::EarliestStart(
            EarliestAsk.slot_information().unwrap_or(Information::Ask),
        ),
        crate::GatewayPolicy::EarliestStart(Information::Partial { interval: 600 }),
    ];
    for policy in policies {
        let config = GatewayConfig::new(policy);
        let mut on = mine();
        let capacities = capacities(&on);
        let first = run(&config, &mut on, jobs);
        let again = run(&config, &mut mine(), jobs);
        if let Some(d) = first_difference(jobs, &first, &again) {
            return Err(Broken::new(
                invariant::DETERMINISTIC,
                format!(
                    "under {policy:?}, fresh providers made another run of the same jobs ({d}); {FRESH}"
                ),
            ));
        }
        match first {
            Ok(result) => check_fates(jobs, &result, &capacities)?,
            Err(
                e @ (GatewayError::Report { .. }
                | GatewayError::ProviderClock { .. }
                | GatewayError::Stuck { .. }
                | GatewayError::Quiet { .. }
                | GatewayError::Utilisation { .. }),
            ) => {
                return Err(Broken::new(
                    invariant::KEEPS_THE_CONTRACT,
                    format!("under {policy:?}: {e}"),
                ));
            }
            Err(_) if run(&config, &mut reference(), jobs).is_err() => {}
            Err(e) => {
                return Err(Broken::new(
                    invariant::RUNS_TO_THE_END,
                    format!("under {policy:?}: {e}"),
                ));
            }
        }
    }
    Ok(())
}

/// The property suite for one provisioning policy or provider: the
/// `check_*` of this module on [`Suite::workloads`] (a policy on two
/// [`Conservative`] providers of 8 and 16 processors). The first broken
/// invariant is returned, its detail prefixed with the workload it broke
/// on.
#[derive(Clone, Debug)]
pub struct Suite {
    cases: u32,
}

impl Suite {
    /// `cases` generated workloads of up to 20 jobs (times the scale of a
    /// `cargo xtask explore`), after the edge cases.
    pub fn new(cases: u32) -> Suite {
        Suite { cases }
    }

    /// The workloads the suite runs: the edge cases (no job; a job wider
    /// than every provider; jobs at once, one outliving its estimate, one
    /// with a deadline it cannot meet), then `profile`'s generated
    /// workloads (deadlines on three jobs in four, run times past the
    /// estimate).
    pub fn workloads(&self) -> Vec<Vec<Job>> {
        let job =
            |id, submit, procs, estimate, run| Job::new(id, Time(submit), procs, estimate, run);
        let mut all = vec![
            Vec::new(),
            vec![job(1, 0, 32, 60, 60)],
            vec![
                job(1, 0, 8, 100, 150),
                job(2, 0, 16, 50, 10),
                job(3, 0, 4, 100, 100).with_deadline(Time(50)),
                job(4, 5, 1, 1, 0),
            ],
        ];
        all.extend(profile::testing::sample_workloads(16, 20, self.cases));
        all.extend(profile::testing::sample_bursts(
            16,
            profile::testing::BURST_JOBS,
            2,
        ));
        all
    }

    fn each(&self, check: impl FnMut(&[Job]) -> Result<(), Broken>) -> Result<(), Broken> {
        profile::testing::check_each(&self.workloads(), "jobs", check)
    }

    /// [`check_provisioning`] on every workload, on two [`Conservative`]
    /// providers of 8 and 16 processors.
    pub fn check_provisioning<Q: Provisioning + Clone>(
        &self,
        make: impl Fn() -> Q,
    ) -> Result<(), Broken> {
        let providers = || vec![Conservative::new(8), Conservative::new(16)];
        self.each(|jobs| check_provisioning(&make, providers, jobs))
    }

    /// [`check_provider`] on every workload.
    pub fn check_provider<P: Provider>(&self, make: impl Fn(u32) -> P) -> Result<(), Broken> {
        self.each(|jobs| check_provider(&make, jobs))
    }
}
