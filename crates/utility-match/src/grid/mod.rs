//! The decentralised grid: one local scheduler per site (Resource Manager
//! and Job Scheduler), machines with FCFS queues, forwarded jobs and status
//! messages that take time to arrive; an event-driven simulation of it.

mod check;

use std::collections::VecDeque;
use std::rc::Rc;

use profile::{EventQueue, MAX_DURATION, Time};

use self::check::check_inputs;
pub use self::check::validate;
use crate::error::GridError;
use crate::machine::{Machine, RemoteView, ResourceId, ResourceStatus, StatusMessage};
use crate::manager::{LocalEvent, ResourceManager, UpdatePolicy};
use crate::model::Attribute;
use crate::scheduler::{Decision, ExecEstimate, FailReason, GridJob, JobScheduler, TieBreak};
use crate::utility::{PartialUtility, UtilityFunction};

/// The most status periods a run may span: 1,000,000. Every period each
/// site sends its table to every other, so the cap bounds a run's events
/// whatever its jobs' lengths; the paper's setup spans about a hundred.
/// A run that would pass it stops with [`GridError::Setting`] naming
/// `status_period`.
pub const MAX_STATUS_PERIODS: i64 = 1_000_000;

/// The most forwards a job may make ([`GridConfig::max_ttl`]): 64.
pub const MAX_TTL: u32 = 64;

/// The most entries of the sites' resource views: `sites × resources`,
/// 100,000 (the paper's grid has 4 × 80 = 320). Each site keeps the status
/// and attributes of every resource of the grid, about a kilobyte each, so
/// a grid's memory grows with this product, not with its input.
pub const MAX_VIEW_ENTRIES: usize = 100_000;

/// The longest job accepted, in million instructions: 2^40 (a job then runs
/// at most 2^40 s on any machine).
pub const MAX_LENGTH: i64 = MAX_DURATION;

/// Message delays between sites, in seconds (a job forwarded, or a status
/// message, from one site to another). Within a site there is no delay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delays {
    /// The same delay between every two sites.
    Uniform(i64),
    /// `delay[from][to]`; the diagonal is ignored.
    Matrix(Vec<Vec<i64>>),
}

impl Delays {
    /// Seconds from `from` to `to` (0 within a site).
    pub fn between(&self, from: usize, to: usize) -> i64 {
        if from == to {
            return 0;
        }
        match self {
            Delays::Uniform(d) => *d,
            Delays::Matrix(m) => m[from][to],
        }
    }

    fn check(&self, sites: usize) -> Result<(), GridError> {
        let bad = |message: String| {
            Err(GridError::Setting {
                name: "delay",
                message,
            })
        };
        let out = |d: &i64| !(0..=MAX_DURATION).contains(d);
        match self {
            Delays::Uniform(d) if out(d) => bad(format!("is {d} s, expected 0 to 2^40 s")),
            Delays::Uniform(_) => Ok(()),
            Delays::Matrix(m) => {
                if m.len() != sites || m.iter().any(|row| row.len() != sites) {
                    return bad(format!(
                        "the matrix must be {sites} × {sites}, one row and column per site"
                    ));
                }
                match m.iter().flatten().find(|d| out(d)) {
                    Some(d) => bad(format!("holds {d} s, expected delays of 0 to 2^40 s")),
                    None => Ok(()),
                }
            }
        }
    }

    fn max(&self) -> i64 {
        match self {
            Delays::Uniform(d) => *d,
            Delays::Matrix(m) => m.iter().flatten().copied().max().unwrap_or(0),
        }
    }
}

/// How the grid's local schedulers work.
#[derive(Clone, Debug, PartialEq)]
pub struct GridConfig {
    /// How many times a job may be forwarded (`MAX_TTL`), at most
    /// [`MAX_TTL`](crate::MAX_TTL).
    pub max_ttl: u32,
    /// Message delays between sites.
    pub delays: Delays,
    /// When a site sends its resource table (Algorithm 1).
    pub updates: UpdatePolicy,
    /// What a site learns from the others' messages.
    pub remote_view: RemoteView,
    /// How equal utilities are ordered.
    pub tie_break: TieBreak,
    /// Whether a job whose TTL ran out goes to the best local resource
    /// instead of failing when the best one is remote
    /// ([`JobScheduler::with_local_fallback`]).
    pub local_fallback: bool,
    /// How the execution-time requirement is read.
    pub exec_estimate: ExecEstimate,
}

impl Default for GridConfig {
    /// `MAX_TTL` = 3, 1 s between sites, [`UpdatePolicy::default`], full
    /// tables, local and least-loaded first on ties, no local fallback
    /// (Algorithm 2 as printed), execution time read as the estimated
    /// turnaround.
    fn default() -> GridConfig {
        GridConfig {
            max_ttl: 3,
            delays: Delays::Uniform(1),
            updates: UpdatePolicy::default(),
            remote_view: RemoteView::Full,
            tie_break: TieBreak::LocalLeastLoaded,
            local_fallback: false,
            exec_estimate: ExecEstimate::Turnaround,
        }
    }
}

/// How a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobStatus {
    /// It ran to completion.
    Completed,
    /// It was given up.
    Failed(FailReason),
}

/// What happened to one job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobRecord {
    /// The job's id.
    pub id: usize,
    /// Its user.
    pub user: usize,
    /// Its user's site.
    pub site: usize,
    /// Submission time.
    pub submit: Time,
    /// When a site assigned it to one of its resources (`t_assign`).
    pub assigned: Option<Time>,
    /// When it started on a core.
    pub start: Option<Time>,
    /// When it completed (`t_executed`).
    pub end: Option<Time>,
    /// Where it ran.
    pub resource: Option<ResourceId>,
    /// How many times it was forwarded.
    pub forwards: u32,
    /// How it ended.
    pub status: JobStatus,
    /// The utility the assigning site computed with the scheduler's own
    /// function (0 if it never ran).
    pub decided_utility: f64,
    /// The utility the user got: partial utility (eq. 1) of all the job's
    /// options on the machine it ran on, with its actual time from
    /// submission to completion as the execution time (0 if it never ran).
    pub achieved_utility: f64,
}

/// Work done by one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineUsage {
    /// The machine.
    pub id: ResourceId,
    /// Its cores.
    pub cores: u32,
    /// Core-seconds of work it ran.
    pub busy: i64,
    /// Jobs it ran.
    pub jobs: u32,
}

/// Everything a simulated run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRun {
    /// One record per job, by id.
    pub jobs: Vec<JobRecord>,
    /// One entry per machine, site by site.
    pub machines: Vec<MachineUsage>,
    /// Status messages delivered or in flight (one per receiving site).
    pub status_messages: u64,
    /// Job forwards between sites.
    pub forwards: u64,
    /// First submission.
    pub first_submit: Time,
    /// Last completion (the first submission if nothing ran).
    pub last_end: Time,
}

/// Hooks into a simulation, for tests and tracing. Every method has an
/// empty default.
pub trait GridObserver {
    /// `job` was assigned at `now` to `resource`, whose status in the
    /// assigning site's view was `view` just before.
    fn assigned(
        &mut self,
        _now: Time,
        _job: &GridJob,
        _resource: ResourceId,
        _view: &ResourceStatus,
        _machine: &Machine,
    ) {
    }
    /// `job` was forwarded at `now` from `from` towards `to`, with `ttl`
    /// forwards left before this one.
    fn forwarded(&mut self, _now: Time, _job: &GridJob, _from: usize, _to: ResourceId, _ttl: u32) {}
    /// `job` was given up at `now`.
    fn failed(&mut self, _now: Time, _job: &GridJob, _reason: FailReason) {}
    /// `job` completed at `now` on `resource`.
    fn completed(&mut self, _now: Time, _job: &GridJob, _resource: ResourceId) {}
}

/// An observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl GridObserver for NoObserver {}

enum Event {
    Submit(usize),
    Arrive {
        job: usize,
        ttl: u32,
        target: ResourceId,
    },
    Complete {
        resource: ResourceId,
        job: usize,
    },
    Status {
        to: usize,
        message: Rc<StatusMessage>,
    },
    Tick(usize),
}

#[derive(Default)]
struct MachineState {
    running: Vec<(usize, Time)>,
    queue: VecDeque<usize>,
    busy: i64,
    jobs: u32,
}

struct Site {
    scheduler: JobScheduler,
    manager: ResourceManager,
    waiting: VecDeque<(usize, u32)>,
}

struct Sim<'a, F: ?Sized, O> {
    config: &'a GridConfig,
    utility: &'a F,
    machines: &'a [Vec<Machine>],
    jobs: &'a [GridJob],
    observer: &'a mut O,
    events: EventQueue<Event>,
    sites: Vec<Site>,
    state: Vec<Vec<MachineState>>,
    records: Vec<JobRecord>,
    unfinished: usize,
    in_flight: usize,
    progress_at: Time,
    first_submit: Time,
    last_submit: Time,
    status_messages: u64,
    forwards: u64,
}

/// Simulates `jobs` on the grid `machines` (site by site), every site's
/// local scheduler choosing resources with `utility`.
///
/// ```
/// use profile::Time;
/// use utility_match::{
///     simulate, Attribute, GridConfig, GridJob, JobStatus, Machine, PartialUtility,
///     Requirement, Resource, Want,
/// };
///
/// let mac = Machine::new(2, 1000, Resource::new().with(Attribute::Os, "MacOS"))?;
/// let linux = Machine::new(2, 1000, Resource::new().with(Attribute::Os, "Linux"))?;
/// let wants_mac = vec![Requirement::new(Attribute::Os, 1.0, vec![
///     (Want::Is("MacOS".into()), 1.0),
///     (Want::Is("Linux".into()), 0.5),
/// ])?];
/// let job = GridJob { id: 0, user: 0, site: 0, submit: Time(0), length: 60_000, requirements: wants_mac };
/// // Site 0 has the Linux machine; the job goes to the MacOS machine of site 1.
/// let run = simulate(&GridConfig::default(), &PartialUtility, &[vec![linux], vec![mac]], &[job])?;
/// let r = &run.jobs[0];
/// assert_eq!(r.status, JobStatus::Completed);
/// assert_eq!((r.forwards, r.assigned, r.end), (1, Some(Time(1)), Some(Time(61))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn simulate<F: UtilityFunction + ?Sized>(
    config: &GridConfig,
    utility: &F,
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
) -> Result<GridRun, GridError> {
    simulate_observed(config, utility, machines, jobs, &mut NoObserver)
}

/// [`simulate`] with an observer.
pub fn simulate_observed<F: UtilityFunction + ?Sized, O: GridObserver>(
    config: &GridConfig,
    utility: &F,
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
    observer: &mut O,
) -> Result<GridRun, GridError> {
    check_inputs(config, machines, jobs)?;
    let mut sim = Sim::new(config, utility, machines, jobs, observer);
    sim.run()?;
    Ok(sim.finish())
}

impl<'a, F: UtilityFunction + ?Sized, O: GridObserver> Sim<'a, F, O> {
    fn new(
        config: &'a GridConfig,
        utility: &'a F,
        machines: &'a [Vec<Machine>],
        jobs: &'a [GridJob],
        observer: &'a mut O,
    ) -> Self {
        let sites = (0..machines.len())
            .map(|s| Site {
                scheduler: JobScheduler::new(s, machines, config.tie_break)
                    .with_local_fallback(config.local_fallback)
                    .with_exec_estimate(config.exec_estimate),
                manager: ResourceManager::new(s, machines[s].len(), config.updates),
                waiting: VecDeque::new(),
            })
            .collect();
        let records = jobs
            .iter()
            .map(|j| JobRecord {
                id: j.id,
                user: j.user,
                site: j.site,
                submit: j.submit,
                assigned: None,
                start: None,
                end: None,
                resource: None,
                forwards: 0,
                status: JobStatus::Failed(FailReason::NoAcceptableResource),
                decided_utility: 0.0,
                achieved_utility: 0.0,
            })
            .collect();
        let mut events = EventQueue::new();
        for j in jobs {
            events.push(j.submit, Event::Submit(j.id));
        }
        let first = jobs.iter().map(|j| j.submit).min().unwrap_or(Time::ZERO);
        if !jobs.is_empty() {
            for s in 0..machines.len() {
                events.push(first + config.updates.period, Event::Tick(s));
            }
        }
        Sim {
            config,
            utility,
            machines,
            jobs,
            observer,
            events,
            sites,
            state: machines
                .iter()
                .map(|v| v.iter().map(|_| MachineState::default()).collect())
                .collect(),
            records,
            unfinished: jobs.len(),
            in_flight: 0,
            progress_at: first,
            first_submit: first,
            last_submit: jobs.iter().map(|j| j.submit).max().unwrap_or(Time::ZERO),
            status_messages: 0,
            forwards: 0,
        }
    }

    fn run(&mut self) -> Result<(), GridError> {
        while let Some((now, event)) = self.events.pop() {
            match event {
                Event::Submit(job) => {
                    self.handle(job, self.jobs[job].site, self.config.max_ttl, None, now)?;
                }
                Event::Arrive { job, ttl, target } => {
                    self.in_flight -= 1;
                    // Algorithm 2: a job from a remote site loses one TTL on arrival.
                    self.handle(job, target.site, ttl.saturating_sub(1), Some(target), now)?;
                }
                Event::Complete { resource, job } => self.complete(resource, job, now)?,
                Event::Status { to, message } => {
                    self.sites[to]
                        .scheduler
                        .table_mut()
                        .apply(&message, self.config.remote_view);
                    // A waiting job waits for room: news of none changes nothing for it.
                    let from = &self.machines[message.from];
                    if message
                        .statuses
                        .iter()
                        .zip(from)
                        .any(|(s, m)| m.has_room(s))
                    {
                        self.retry(to, now)?;
                    }
                }
                Event::Tick(site) => {
                    if self.unfinished == 0 {
                        continue;
                    }
                    self.send_status(site, now);
                    let idle = self.state.iter().flatten().all(|m| m.running.is_empty())
                        && self.in_flight == 0
                        && now > self.last_submit;
                    let period = self.config.updates.period;
                    let patience = 2 * (period + self.config.delays.max());
                    if idle && now - self.progress_at > patience {
                        return Err(GridError::Stalled {
                            at: now.0,
                            unfinished: self.unfinished,
                        });
                    }
                    if (now - self.first_submit) / period >= MAX_STATUS_PERIODS {
                        return Err(GridError::Setting {
                            name: "status_period",
                            message: format!(
                                "is {period} s, and the run is still going at {} s, past \
                                 {MAX_STATUS_PERIODS} periods; give a longer status_period",
                                now.0
                            ),
                        });
                    }
                    self.events
                        .push(now + self.config.updates.period, Event::Tick(site));
                }
            }
        }
        Ok(())
    }

    /// One pass of the Job Scheduler of `site` over `job`; the error of a
    /// utility function that answers outside `[0, 1]`.
    fn handle(
        &mut self,
        job: usize,
        site: usize,
        ttl: u32,
        target: Option<ResourceId>,
        now: Time,
    ) -> Result<(), GridError> {
        let (jobs, machines) = (self.jobs, self.machines);
        let j = &jobs[job];
        let decision =
            self.sites[site]
                .scheduler
                .decide_in(self.utility, machines, j, ttl, target, now)?;
        match decision {
            Decision::Assign { resource, utility } => {
                self.progress_at = now;
                let view = self.sites[site]
                    .scheduler
                    .table()
                    .get(resource)
                    .map(|e| e.0)
                    .unwrap_or_default();
                let m = &machines[resource.site][resource.index];
                self.observer.assigned(now, j, resource, &view, m);
                let r = &mut self.records[job];
                r.assigned = Some(now);
                r.resource = Some(resource);
                r.decided_utility = utility;
                self.state[resource.site][resource.index]
                    .queue
                    .push_back(job);
                self.start_queued(resource, now);
                self.local_change(resource, LocalEvent::Submit, now);
            }
            Decision::Forward { resource, .. } => {
                self.progress_at = now;
                self.observer.forwarded(now, j, site, resource, ttl);
                self.records[job].forwards += 1;
                self.forwards += 1;
                self.in_flight += 1;
                let at = now + self.config.delays.between(site, resource.site);
                self.events.push(
                    at,
                    Event::Arrive {
                        job,
                        ttl,
                        target: resource,
                    },
                );
            }
            Decision::Wait => self.sites[site].waiting.push_back((job, ttl)),
            Decision::Fail(reason) => {
                self.progress_at = now;
                self.observer.failed(now, j, reason);
                self.records[job].status = JobStatus::Failed(reason);
                self.unfinished -= 1;
            }
        }
        Ok(())
    }

    /// Starts queued jobs on free cores of `resource`, in FCFS order.
    fn start_queued(&mut self, resource: ResourceId, now: Time) {
        let m = &self.machines[resource.site][resource.index];
        let st = &mut self.state[resource.site][resource.index];
        while st.running.len() < m.cores() as usize {
            let Some(job) = st.queue.pop_front() else {
                break;
            };
            let run = m.run_time(self.jobs[job].length);
            st.running.push((job, now + run));
            st.busy = st.busy.saturating_add(run);
            st.jobs += 1;
            self.records[job].start = Some(now);
            self.events
                .push(now + run, Event::Complete { resource, job });
        }
    }

    fn complete(&mut self, resource: ResourceId, job: usize, now: Time) -> Result<(), GridError> {
        self.progress_at = now;
        let st = &mut self.state[resource.site][resource.index];
        st.running.retain(|&(j, _)| j != job);
        let j = &self.jobs[job];
        let m = &self.machines[resource.site][resource.index];
        let mut attrs = m.attributes().clone();
        attrs.set(Attribute::ExecTime, now - j.submit);
        let r = &mut self.records[job];
        r.end = Some(now);
        r.status = JobStatus::Completed;
        r.achieved_utility = PartialUtility
            .utility(&j.requirements, &attrs)
            .clamp(0.0, 1.0);
        self.unfinished -= 1;
        self.observer.completed(now, j, resource);
        self.start_queued(resource, now);
        self.local_change(resource, LocalEvent::Complete, now);
        self.retry(resource.site, now)
    }

    /// The status of a machine at `now`.
    fn status(&self, resource: ResourceId, now: Time) -> ResourceStatus {
        let st = &self.state[resource.site][resource.index];
        let m = &self.machines[resource.site][resource.index];
        let remaining = st
            .running
            .iter()
            .map(|&(_, end)| end - now)
            .fold(0, i64::saturating_add);
        let queued = st
            .queue
            .iter()
            .map(|&j| m.run_time(self.jobs[j].length))
            .fold(0, i64::saturating_add);
        ResourceStatus {
            present: (st.running.len() + st.queue.len()) as u32,
            running: st.running.len() as u32,
            backlog: remaining.saturating_add(queued),
        }
    }

    /// Algorithm 1 on a local submission or completion: update the table,
    /// and send the table if a limit is passed.
    fn local_change(&mut self, resource: ResourceId, event: LocalEvent, now: Time) {
        let status = self.status(resource, now);
        let site = resource.site;
        self.sites[site]
            .scheduler
            .table_mut()
            .update_local(resource.index, status, now);
        let utilisation = self.utilisation(site, now);
        if self.sites[site]
            .manager
            .on_change(resource.index, event, utilisation)
        {
            self.send_status(site, now);
        }
    }

    fn utilisation(&self, site: usize, now: Time) -> f64 {
        let ms = &self.machines[site];
        let sum: f64 = (0..ms.len())
            .map(|index| ms[index].occupation(&self.status(ResourceId { site, index }, now)))
            .sum();
        sum / ms.len() as f64
    }

    fn send_status(&mut self, site: usize, now: Time) {
        let statuses = (0..self.machines[site].len())
            .map(|index| self.status(ResourceId { site, index }, now))
            .collect();
        let message = Rc::new(self.sites[site].manager.message(
            now,
            &self.machines[site],
            statuses,
        ));
        for to in (0..self.sites.len()).filter(|&to| to != site) {
            self.status_messages += 1;
            let at = now + self.config.delays.between(site, to);
            self.events.push(
                at,
                Event::Status {
                    to,
                    message: Rc::clone(&message),
                },
            );
        }
    }

    /// Decides again on the jobs waiting at `site`, in arrival order, while
    /// some resource in the site's view has room (a job waits for room, so
    /// without any it would wait again).
    fn retry(&mut self, site: usize, now: Time) -> Result<(), GridError> {
        let mut waiting = std::mem::take(&mut self.sites[site].waiting);
        while let Some((job, ttl)) = waiting.pop_front() {
            if !self.room_in_view(site) {
                waiting.push_front((job, ttl));
                break;
            }
            self.handle(job, site, ttl, None, now)?;
        }
        // Jobs that waited again are behind the ones not retried.
        let again = std::mem::replace(&mut self.sites[site].waiting, waiting);
        self.sites[site].waiting.extend(again);
        Ok(())
    }

    /// Whether any resource in the view of `site` can take a job.
    fn room_in_view(&self, site: usize) -> bool {
        let machines = self.machines;
        self.sites[site]
            .scheduler
            .table()
            .known()
            .any(|(id, status)| machines[id.site][id.index].has_room(&status))
    }

    fn finish(self) -> GridRun {
        let machines = self
            .state
            .iter()
            .enumerate()
            .flat_map(|(site, v)| {
                v.iter()
                    .enumerate()
                    .map(move |(index, st)| (ResourceId { site, index }, st))
            })
            .map(|(id, st)| MachineUsage {
                id,
                cores: self.machines[id.site][id.index].cores(),
                busy: st.busy,
                jobs: st.jobs,
            })
            .collect();
        let first_submit = self
            .jobs
            .iter()
            .map(|j| j.submit)
            .min()
            .unwrap_or(Time::ZERO);
        let last_end = self
            .records
            .iter()
            .filter_map(|r| r.end)
            .max()
            .unwrap_or(first_submit);
        GridRun {
            jobs: self.records,
            machines,
            status_messages: self.status_messages,
            forwards: self.forwards,
            first_submit,
            last_end,
        }
    }
}
