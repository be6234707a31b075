//! The provider's scheduler: resource partitions with pivots over one
//! availability profile, advance reservations, free time slots, and the
//! forecast policy of Algorithm 1.
//!
//! This file holds [`Cluster`], the parts its state is made of, its
//! constructor and its simple queries; each other file holds one concern's
//! `impl Cluster`:
//!
//! * `config`: what a cluster is built from ([`ClusterConfig`],
//!   [`ForecastConfig`] and their options);
//! * `records`: what it reports ([`JobRecord`], [`Commitment`],
//!   [`PartitionState`], [`Notice`]);
//! * `schedule`: the clock, its events and the scheduling pass (backfilling,
//!   pivots, moving reservations earlier);
//! * `placement`: where a job fits and which partitions it is charged to;
//! * `partitions`: which partition takes a job, resizing, pivot counts;
//! * `reserve`: the two-phase advance reservations;
//! * `publish`: free time slots and Algorithm 1 (`getFreeTimeSlots`,
//!   `reallocationEvent`, the local-load integral it observes).

mod config;
mod partitions;
mod placement;
mod publish;
mod records;
mod reserve;
mod schedule;

pub use config::{ClusterConfig, ForecastConfig, LoadMeasure, MAX_CHECKS, Priority, ShareFrom};
pub use publish::resize_slots;
pub use records::{Commitment, CommitmentKind, JobRecord, Notice, PartitionState};

use std::collections::{HashMap, HashSet};

use profile::{EventQueue, Job, Profile, Time};

use crate::error::ClusterError;
use crate::forecast::LoadForecast;
use crate::partition::{Origin, PartitionSpec};
use crate::policy::Partitioning;

/// A resource provider's cluster scheduler (Assunção & Buyya, §4).
///
/// Processors are split into partitions, each with its own predicate, size
/// and number of pivots. All jobs live on one availability profile (running
/// jobs, held and committed advance reservations, and waiting jobs that
/// hold a reservation); each partition also keeps the processors charged to
/// it, so a job takes its own partition's idle processors first and borrows
/// the rest from others only where they are idle and not held for the
/// others' pivots. A job's charge is fixed for its whole window.
///
/// At every scheduling pass the waiting queue (arrival order, or local
/// first) is scanned: a job whose reservation has come starts; a job that
/// fits now starts (backfilling); a job that cannot start gets a reservation
/// at its earliest start if its partition holds fewer reserved jobs than its
/// pivots. Reservations persist until the job starts and move only earlier
/// (when a job ends before its estimate, a hold is aborted or partitions are
/// resized). With one pivot this is EASY backfilling, with
/// [`UNLIMITED`](crate::UNLIMITED) pivots conservative backfilling.
///
/// Time only moves forward: every call takes `now` and first processes the
/// cluster's own events up to it (ends, reserved starts, local arrivals,
/// reallocation checks).
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The clock.
    now: Time,
    /// How the processors are split.
    layout: Layout,
    /// What is promised, over time.
    profiles: Profiles,
    /// Every job and the waiting queue.
    queue: Queue,
    /// Local jobs yet to arrive.
    arrivals: Arrivals,
    /// Processors busy and asked for, and the local-load integral.
    accounts: Accounts,
    /// Notices not yet taken.
    notices: Vec<Notice>,
    /// The ids of the grid jobs submitted, held or committed: a notice
    /// names its job by id alone, so each grid job has its own.
    grid_ids: HashSet<u64>,
    /// Algorithm 1's state, for a cluster with a forecast.
    forecast: Option<ForecastState>,
}

/// How the processors are split: the configuration, with partition sizes
/// and pivot counts as they stand now.
#[derive(Clone, Debug)]
struct Layout {
    /// Processors in the cluster.
    cap: u32,
    /// The partitions as configured (sizes and pivots at the start).
    specs: Vec<PartitionSpec>,
    /// Processors each partition owns now.
    sizes: Vec<u32>,
    /// Each partition's pivot count now.
    pivots: Vec<u32>,
    /// Whether each partition lends its idle processors.
    lends: Vec<bool>,
    /// Waiting-queue order.
    priority: Priority,
    /// Whether jobs may borrow from lending partitions.
    borrowing: bool,
}

/// What the cluster has promised: one availability profile for the whole
/// cluster and, per partition, one of the processors charged to it.
#[derive(Clone, Debug)]
struct Profiles {
    /// Every running job, hold, reservation and waiting job's reservation.
    global: Profile,
    /// The same rectangles, split by the partition each processor is charged to.
    parts: Vec<Profile>,
}

/// Every job the cluster has seen, and the order they wait in.
#[derive(Clone, Debug)]
struct Queue {
    /// Jobs and holds, indexed by arrival (a [`HoldId`](crate::HoldId) is an index).
    entries: Vec<Entry>,
    /// Indices of waiting jobs, sorted by their queue keys.
    waiting: Vec<usize>,
    /// Per partition: waiting jobs holding a movable reservation.
    reserved: Vec<u32>,
    /// When running jobs end.
    ends: EventQueue<usize>,
    /// When reservations start (stale entries are skipped).
    starts: EventQueue<usize>,
    /// The last arrival sequence number given out.
    seq: u64,
}

/// The stream of local jobs given by [`Cluster::with_local_jobs`].
#[derive(Clone, Debug)]
struct Arrivals {
    /// Sorted by submit time.
    jobs: Vec<Job>,
    /// The first job not yet arrived.
    next: usize,
    /// Local jobs given one at a time ([`Cluster::submit`] with
    /// [`Origin::Local`]).
    submitted: usize,
    /// Each local id and the position of its job among every local job
    /// given, kept once a local job has been given one at a time (before
    /// that, the ids of `jobs` are checked as a list).
    ids: Option<HashMap<u64, usize>>,
}

impl Arrivals {
    /// Local jobs given so far, by either call.
    fn given(&self) -> usize {
        self.jobs.len() + self.submitted
    }

    /// Records local ids given after those before, in order, or the first
    /// that repeats one. Only once a local job has been given one at a
    /// time: before, [`Cluster::with_local_jobs`] checks its list as a
    /// whole, and this builds the map from it.
    fn add_ids(&mut self, ids: impl Iterator<Item = u64>) -> Result<(), ClusterError> {
        let given = self.given();
        let known = self.ids.get_or_insert_with(|| {
            // Only `jobs` so far, whose ids were checked distinct.
            self.jobs
                .iter()
                .enumerate()
                .map(|(k, j)| (j.id, k))
                .collect()
        });
        for (k, id) in ids.enumerate() {
            if let Some(&first) = known.get(&id) {
                return Err(ClusterError::DuplicateLocalId {
                    id,
                    first,
                    second: given + k,
                });
            }
            known.insert(id, given + k);
        }
        Ok(())
    }
}

/// Processor counts kept up to date as jobs come, start and end, and the
/// integral of the local load over time that Algorithm 1 observes.
#[derive(Clone, Debug)]
struct Accounts {
    /// Processors of running jobs.
    running_procs: u64,
    /// Processors of local jobs waiting or running.
    local_demand: u64,
    /// Processors of running local jobs.
    local_running: u64,
    /// Processors of jobs waiting or running, local or grid.
    all_demand: u64,
    /// Integral of the local load (processor-seconds) up to `integral_time`.
    integral: u128,
    /// How far the integral has been taken.
    integral_time: Time,
}

/// Algorithm 1's state: the forecast, the partitions it resizes, and when
/// it last published and resized.
#[derive(Clone, Debug)]
struct ForecastState {
    config: ForecastConfig,
    forecast: LoadForecast,
    /// The local partition's index.
    local: usize,
    /// The grid partition's index.
    grid: usize,
    /// The configured pivot counts, restored after each publication.
    base_pivots: Vec<u32>,
    /// The last publication and the integral then.
    last_publish: Option<(Time, u128)>,
    /// The last resizing and the integral then.
    last_resize: (Time, u128),
    /// The forecast in force.
    current: f64,
    /// The horizon of the last publication.
    horizon: Time,
    /// Reallocation checks still due this interval.
    checks: Vec<Time>,
}

/// Processors taken from each partition by one job: `(partition, procs)`.
/// Most jobs take from one partition, held without an allocation.
#[derive(Clone, Debug)]
enum Charge {
    One([(usize, u32); 1]),
    Many(Vec<(usize, u32)>),
}

impl std::ops::Deref for Charge {
    type Target = [(usize, u32)];

    fn deref(&self) -> &Self::Target {
        match self {
            Charge::One(one) => one,
            Charge::Many(many) => many,
        }
    }
}

/// A place on the profile for a job.
#[derive(Clone, Debug)]
struct Res {
    start: Time,
    charge: Charge,
    /// An advance reservation: never moved.
    fixed: bool,
}

#[derive(Clone, Debug)]
enum State {
    Waiting(Option<Res>),
    Held(Res),
    Running {
        start: Time,
        end: Time,
        charge: Charge,
    },
    Done {
        start: Time,
        end: Time,
    },
    Aborted,
}

#[derive(Clone, Debug)]
struct Entry {
    job: Job,
    origin: Origin,
    part: usize,
    /// Queue position key: (priority rank, arrival sequence).
    key: (u8, u64),
    state: State,
    reserved_start: Option<Time>,
    submit: Time,
}

impl Cluster {
    /// An idle cluster of `capacity` processors set up by the provider
    /// policy `policy` ([`Partitioning::config`], with Algorithm 1's
    /// settings `forecast` for the policies that use them), whose clock
    /// starts at `origin`: [`Cluster::new`] on the configuration.
    ///
    /// What is the caller's to get right is checked first, as by
    /// [`Cluster::new`]: `origin` within ±2^40 s, `capacity` at least 1.
    /// Then the configuration the policy returned must have `capacity`
    /// processors and be one [`Cluster::new`] accepts; otherwise the error
    /// is [`ClusterError::Partitioning`], naming the method, the capacity
    /// asked for and what is wrong (a size, a pivot count, the forecast
    /// settings it passed on, ...).
    pub fn under<P: Partitioning + ?Sized>(
        policy: &P,
        capacity: u32,
        forecast: &ForecastConfig,
        origin: Time,
    ) -> Result<Cluster, ClusterError> {
        check_origin(origin)?;
        if capacity == 0 {
            return Err(ClusterError::NoCapacity);
        }
        let config = policy.config(capacity, forecast);
        let answer = |error| ClusterError::Partitioning {
            capacity,
            error: Box::new(error),
        };
        // A policy sets up the cluster it was asked for: one of another
        // size would be simulated in its place, silently.
        if config.capacity != capacity {
            return Err(answer(ClusterError::OutOfRange {
                name: "the configured capacity (processors)",
                value: i64::from(config.capacity),
                min: i64::from(capacity),
                max: i64::from(capacity),
            }));
        }
        Cluster::new(config, origin).map_err(answer)
    }

    /// An idle cluster whose clock starts at `origin` (within ±2^40 s,
    /// `Time::LIMIT`).
    pub fn new(config: ClusterConfig, origin: Time) -> Result<Cluster, ClusterError> {
        check_origin(origin)?;
        config.check()?;
        let cap = config.capacity;
        let forecast = match config.forecast {
            None => None,
            Some(fc) => Some(Cluster::forecast_state(
                fc,
                &config.partitions,
                config.borrowing,
                origin,
            )?),
        };
        let n = config.partitions.len();
        Ok(Cluster {
            now: origin,
            layout: Layout {
                cap,
                sizes: config.partitions.iter().map(|p| p.size).collect(),
                pivots: config.partitions.iter().map(|p| p.pivots).collect(),
                lends: config.partitions.iter().map(|p| p.lends).collect(),
                specs: config.partitions,
                priority: config.priority,
                borrowing: config.borrowing,
            },
            profiles: Profiles {
                global: Profile::new(cap, origin),
                parts: (0..n).map(|_| Profile::new(cap, origin)).collect(),
            },
            queue: Queue {
                entries: Vec::new(),
                waiting: Vec::new(),
                reserved: vec![0; n],
                ends: EventQueue::new(),
                starts: EventQueue::new(),
                seq: 0,
            },
            arrivals: Arrivals {
                jobs: Vec::new(),
                next: 0,
                submitted: 0,
                ids: None,
            },
            accounts: Accounts {
                running_procs: 0,
                local_demand: 0,
                local_running: 0,
                all_demand: 0,
                integral: 0,
                integral_time: origin,
            },
            notices: Vec::new(),
            grid_ids: HashSet::new(),
            forecast,
        })
    }

    /// The same cluster fed by a stream of local jobs (sorted by submit
    /// time, none before the clock), which arrive as the clock passes their
    /// submit times. Every local job has its own id, among these and the
    /// local jobs given before, here or one at a time with
    /// [`Cluster::submit`] ([`ClusterError::DuplicateLocalId`]).
    pub fn with_local_jobs(mut self, jobs: Vec<Job>) -> Result<Cluster, ClusterError> {
        for (index, w) in jobs.windows(2).enumerate() {
            if w[1].submit < w[0].submit {
                return Err(ClusterError::Unsorted { index: index + 1 });
            }
        }
        let first = self.arrivals.jobs.last().map_or(self.now, |j| j.submit);
        if let Some(j) = jobs.first().filter(|j| j.submit < first) {
            return Err(ClusterError::Past {
                at: j.submit,
                now: first,
            });
        }
        for job in &jobs {
            self.check_job(job, Origin::Local)?;
        }
        if self.arrivals.ids.is_some() {
            // Local jobs were given one at a time too: their ids are kept.
            self.arrivals.add_ids(jobs.iter().map(|j| j.id))?;
        } else {
            let ids = self.arrivals.jobs.iter().chain(&jobs).map(|j| j.id);
            if let Some(r) = profile::repeated_id(ids) {
                return Err(ClusterError::DuplicateLocalId {
                    id: r.id,
                    first: r.first,
                    second: r.second,
                });
            }
        }
        // Every local job becomes an entry: room for them once, not by
        // doubling (which copies the entries each time).
        self.queue.entries.reserve(jobs.len());
        self.arrivals.jobs.extend(jobs);
        Ok(self)
    }

    /// Processors in the cluster.
    pub fn capacity(&self) -> u32 {
        self.layout.cap
    }

    /// The cluster's clock.
    pub fn now(&self) -> Time {
        self.now
    }

    /// The load forecast in force (Algorithm 1), if the cluster has one.
    pub fn forecast(&self) -> Option<f64> {
        self.forecast.as_ref().map(|f| f.current)
    }

    /// The availability profile: free processors over future time.
    pub fn profile(&self) -> &Profile {
        &self.profiles.global
    }

    /// Share of processors running jobs now, in `[0, 1]` (what the provider
    /// reports for the least-loaded policy).
    pub fn utilisation(&self) -> f64 {
        self.accounts.running_procs as f64 / f64::from(self.layout.cap)
    }

    /// Jobs waiting (submitted, not started).
    pub fn waiting(&self) -> usize {
        self.queue.waiting.len()
    }
}

/// `origin` as a cluster's clock: within ±2^40 s (`Time::LIMIT`).
fn check_origin(origin: Time) -> Result<(), ClusterError> {
    if origin.in_domain() {
        return Ok(());
    }
    Err(ClusterError::OutOfRange {
        name: "the clock's origin (s)",
        value: origin.secs(),
        min: -Time::LIMIT.secs(),
        max: Time::LIMIT.secs(),
    })
}
