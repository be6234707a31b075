//! The decentralised grid: one local scheduler per site (Resource Manager
//! and Job Scheduler), machines with FCFS queues, forwarded jobs and status
//! messages that take time to arrive; an event-driven simulation of it.

use std::collections::VecDeque;
use std::rc::Rc;

use profile::{EventQueue, Time};

use crate::error::{GridError, GridViolation};
use crate::machine::{Machine, RemoteView, ResourceId, ResourceStatus, StatusMessage};
use crate::manager::{LocalEvent, ResourceManager, UpdatePolicy};
use crate::model::Attribute;
use crate::scheduler::{Decision, ExecEstimate, FailReason, GridJob, JobScheduler, TieBreak};
use crate::utility::{PartialUtility, UtilityFunction};

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
        match self {
            Delays::Uniform(d) if *d < 0 => bad(format!("is {d} s, expected at least 0")),
            Delays::Uniform(_) => Ok(()),
            Delays::Matrix(m) => {
                if m.len() != sites || m.iter().any(|row| row.len() != sites) {
                    return bad(format!(
                        "the matrix must be {sites} × {sites}, one row and column per site"
                    ));
                }
                match m.iter().flatten().find(|d| **d < 0) {
                    Some(d) => bad(format!("holds {d} s, expected delays of at least 0")),
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
    /// How many times a job may be forwarded (`MAX_TTL`).
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

fn check_inputs(
    config: &GridConfig,
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
) -> Result<(), GridError> {
    if machines.is_empty() {
        return Err(GridError::Setting {
            name: "sites",
            message: "the grid has no site, expected at least 1".into(),
        });
    }
    if let Some(site) = machines.iter().position(Vec::is_empty) {
        return Err(GridError::Setting {
            name: "resources",
            message: format!("site {site} has no resource, expected at least 1"),
        });
    }
    config.updates.check()?;
    config.delays.check(machines.len())?;
    for (i, j) in jobs.iter().enumerate() {
        let bad = |message: String| Err(GridError::Job { job: j.id, message });
        if j.id != i {
            return bad(format!(
                "is at position {i} of the job list; ids must be positions"
            ));
        }
        if j.site >= machines.len() {
            return bad(format!(
                "is submitted at site {} but the grid has {} sites",
                j.site,
                machines.len()
            ));
        }
        if j.length <= 0 {
            return bad(format!(
                "has length {} MI, expected a positive number",
                j.length
            ));
        }
        if j.submit < Time::ZERO {
            return bad(format!(
                "is submitted at {} s, expected a time of at least 0",
                j.submit.0
            ));
        }
    }
    Ok(())
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
            last_submit: jobs.iter().map(|j| j.submit).max().unwrap_or(Time::ZERO),
            status_messages: 0,
            forwards: 0,
        }
    }

    fn run(&mut self) -> Result<(), GridError> {
        while let Some((now, event)) = self.events.pop() {
            match event {
                Event::Submit(job) => {
                    self.handle(job, self.jobs[job].site, self.config.max_ttl, None, now)
                }
                Event::Arrive { job, ttl, target } => {
                    self.in_flight -= 1;
                    // Algorithm 2: a job from a remote site loses one TTL on arrival.
                    self.handle(job, target.site, ttl.saturating_sub(1), Some(target), now);
                }
                Event::Complete { resource, job } => self.complete(resource, job, now),
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
                        self.retry(to, now);
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
                    let patience = 2 * (self.config.updates.period + self.config.delays.max());
                    if idle && now - self.progress_at > patience {
                        return Err(GridError::Stalled {
                            at: now.0,
                            unfinished: self.unfinished,
                        });
                    }
                    self.events
                        .push(now + self.config.updates.period, Event::Tick(site));
                }
            }
        }
        Ok(())
    }

    /// One pass of the Job Scheduler of `site` over `job`.
    fn handle(&mut self, job: usize, site: usize, ttl: u32, target: Option<ResourceId>, now: Time) {
        let (jobs, machines) = (self.jobs, self.machines);
        let j = &jobs[job];
        let decision =
            self.sites[site]
                .scheduler
                .decide(self.utility, machines, j, ttl, target, now);
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
            st.busy += run;
            st.jobs += 1;
            self.records[job].start = Some(now);
            self.events
                .push(now + run, Event::Complete { resource, job });
        }
    }

    fn complete(&mut self, resource: ResourceId, job: usize, now: Time) {
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
        self.retry(resource.site, now);
    }

    /// The status of a machine at `now`.
    fn status(&self, resource: ResourceId, now: Time) -> ResourceStatus {
        let st = &self.state[resource.site][resource.index];
        let m = &self.machines[resource.site][resource.index];
        let remaining: i64 = st.running.iter().map(|&(_, end)| end - now).sum();
        let queued: i64 = st
            .queue
            .iter()
            .map(|&j| m.run_time(self.jobs[j].length))
            .sum();
        ResourceStatus {
            present: (st.running.len() + st.queue.len()) as u32,
            running: st.running.len() as u32,
            backlog: remaining + queued,
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
    fn retry(&mut self, site: usize, now: Time) {
        let mut waiting = std::mem::take(&mut self.sites[site].waiting);
        while let Some((job, ttl)) = waiting.pop_front() {
            if !self.room_in_view(site) {
                waiting.push_front((job, ttl));
                break;
            }
            self.handle(job, site, ttl, None, now);
        }
        // Jobs that waited again are behind the ones not retried.
        let again = std::mem::replace(&mut self.sites[site].waiting, waiting);
        self.sites[site].waiting.extend(again);
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

/// Checks a run against its input: one record per job, in order; a
/// completed job was assigned after its submission, started after its
/// assignment and ran exactly its run time on the machine it was assigned
/// to; a failed job never ran; no job was forwarded more than `max_ttl`
/// times; no machine ever ran more jobs than it has cores.
pub fn validate(
    machines: &[Vec<Machine>],
    jobs: &[GridJob],
    run: &GridRun,
    max_ttl: u32,
) -> Result<(), GridViolation> {
    if run.jobs.len() != jobs.len() {
        return Err(GridViolation::Records {
            jobs: jobs.len(),
            records: run.jobs.len(),
        });
    }
    let mut spans: Vec<Vec<Vec<(Time, i32)>>> =
        machines.iter().map(|v| vec![Vec::new(); v.len()]).collect();
    for (j, r) in jobs.iter().zip(&run.jobs) {
        let bad = |message: String| Err(GridViolation::Job { job: j.id, message });
        if r.id != j.id || r.user != j.user || r.site != j.site || r.submit != j.submit {
            return bad("its record does not match the job (id, user, site or submission)".into());
        }
        if r.forwards > max_ttl {
            return bad(format!(
                "was forwarded {} times, more than the TTL {max_ttl}",
                r.forwards
            ));
        }
        match r.status {
            JobStatus::Completed => {
                let (Some(a), Some(s), Some(e), Some(res)) =
                    (r.assigned, r.start, r.end, r.resource)
                else {
                    return bad("completed without an assignment, start, end and resource".into());
                };
                let Some(m) = machines.get(res.site).and_then(|v| v.get(res.index)) else {
                    return bad(format!(
                        "ran on machine {} of site {}, which does not exist",
                        res.index, res.site
                    ));
                };
                if !(j.submit <= a && a <= s) {
                    return bad(format!(
                        "submitted at {}, assigned at {}, started at {}: out of order",
                        j.submit.0, a.0, s.0
                    ));
                }
                if e - s != m.run_time(j.length) {
                    return bad(format!(
                        "ran {} s, expected its run time {} s",
                        e - s,
                        m.run_time(j.length)
                    ));
                }
                spans[res.site][res.index].push((s, 1));
                spans[res.site][res.index].push((e, -1));
            }
            JobStatus::Failed(_) => {
                if r.start.is_some() || r.end.is_some() {
                    return bad("failed but has a start or an end".into());
                }
            }
        }
    }
    for (site, v) in spans.iter_mut().enumerate() {
        for (index, events) in v.iter_mut().enumerate() {
            // Ends before starts at the same instant: a core freed at t can be reused at t.
            events.sort_by_key(|&(t, d)| (t, d));
            let cores = machines[site][index].cores();
            let mut running = 0i32;
            for &(t, d) in events.iter() {
                running += d;
                if running > cores as i32 {
                    return Err(GridViolation::Overcommitted {
                        site,
                        index,
                        at: t.0,
                        running: running as u32,
                        cores,
                    });
                }
            }
        }
    }
    Ok(())
}
