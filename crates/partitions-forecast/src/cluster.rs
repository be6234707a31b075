//! The provider's scheduler: resource partitions with pivots over one
//! availability profile, advance reservations, free time slots, and the
//! forecast policy of Algorithm 1.

use profile::{EventQueue, FreeSlot, Job, Profile, Time};

use crate::error::{ClusterError, HoldId, ReservationError};
use crate::forecast::LoadForecast;
use crate::partition::{Origin, PartitionSpec, Predicate, UNLIMITED};

/// The order of the waiting queue when the scheduler backfills.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Priority {
    /// Arrival order.
    #[default]
    Arrival,
    /// Local jobs before grid jobs, each in arrival order (the priority
    /// scheduling of ArEbM, which favours the provider's own users).
    LocalFirst,
}

/// Where Algorithm 1 takes the load that decides the share offered to the grid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ShareFrom {
    /// `percToProvide = max(0, 1 − forecast)`: the share expected to be
    /// free over the next interval, as the paper's prose says.
    #[default]
    Forecast,
    /// `percToProvide = max(0, 1 − actualLoad)`, line 8 as printed (with
    /// `max` for the printed `min`).
    Actual,
}

/// What the forecast policy calls the local load of a period.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum LoadMeasure {
    /// The share of processors running local jobs, averaged over the
    /// period: what local users took of the resources.
    #[default]
    Utilisation,
    /// The processors local jobs ask for, running or waiting, as a share of
    /// the cluster (capped at 1), averaged over the period: the backlog too.
    Demand,
}

/// The forecast-based policy of Algorithm 1 (ArEbMf).
#[derive(Clone, Debug, PartialEq)]
pub struct ForecastConfig {
    /// Intervals in the moving-average window (25 in the paper).
    pub window: usize,
    /// Smoothing factor; `None` for `2 / (window + 1)`.
    pub smoothing: Option<f64>,
    /// The publication interval in seconds: `getFreeTimeSlots` is expected
    /// this often, and reallocation checks fall inside it.
    pub interval: i64,
    /// Reallocation checks per interval, evenly spaced (at least 1).
    pub checks: u32,
    /// Loads observed before this time are not recorded (warm-up; the
    /// paper trains the forecast on the second week).
    pub train_from: Time,
    /// Which load decides the share offered.
    pub share_from: ShareFrom,
    /// How the local load of a period is measured (forecast and
    /// reallocation checks).
    pub load: LoadMeasure,
}

impl ForecastConfig {
    /// The paper's window (25 intervals), default smoothing, three checks
    /// per interval, training from time 0, share from the forecast.
    pub fn paper(interval: i64) -> ForecastConfig {
        ForecastConfig {
            window: LoadForecast::PAPER_WINDOW,
            smoothing: None,
            interval,
            checks: 3,
            train_from: Time::ZERO,
            share_from: ShareFrom::Forecast,
            load: LoadMeasure::Utilisation,
        }
    }
}

/// Everything a [`Cluster`] needs besides its jobs.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterConfig {
    /// Processors in the cluster.
    pub capacity: u32,
    /// The partitions; a job goes to the first whose predicate accepts it.
    pub partitions: Vec<PartitionSpec>,
    /// Waiting-queue order.
    pub priority: Priority,
    /// Whether a job may use idle processors of other partitions (never
    /// at the expense of their pivots).
    pub borrowing: bool,
    /// Algorithm 1, for a cluster with one local and one grid partition.
    pub forecast: Option<ForecastConfig>,
}

impl ClusterConfig {
    /// One partition of the whole cluster with `pivots` pivots
    /// (1 = EASY, [`UNLIMITED`] = conservative), arrival order.
    pub fn single(capacity: u32, pivots: u32) -> ClusterConfig {
        ClusterConfig {
            capacity,
            partitions: vec![PartitionSpec::new("all", Predicate::Any, capacity, pivots)],
            priority: Priority::Arrival,
            borrowing: true,
            forecast: None,
        }
    }
}

/// Something a cluster tells its caller: grid jobs starting and ending,
/// and free time slots it publishes unasked (Algorithm 1, line 25).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A grid job started.
    Started {
        /// The job's id.
        id: u64,
        /// When.
        at: Time,
    },
    /// A grid job ended.
    Ended {
        /// The job's id.
        id: u64,
        /// When it started.
        start: Time,
        /// When it ended.
        end: Time,
    },
    /// Free time slots published after a reallocation event.
    Published {
        /// When.
        at: Time,
        /// The slots.
        slots: Vec<FreeSlot>,
    },
}

/// What happened to one job on the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRecord {
    /// The job's id.
    pub id: u64,
    /// Local or grid.
    pub origin: Origin,
    /// Index of its partition.
    pub partition: usize,
    /// When it was submitted (for an advance reservation, when it was committed).
    pub submit: Time,
    /// Processors.
    pub procs: u32,
    /// Estimate in seconds.
    pub estimate: i64,
    /// Run time in seconds.
    pub run_time: i64,
    /// The committed advance-reservation start, if the job came as one.
    pub reserved_start: Option<Time>,
    /// When it started, once it has.
    pub start: Option<Time>,
    /// When it ended, once it has.
    pub end: Option<Time>,
}

/// What a processor rectangle on the profile is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CommitmentKind {
    /// A running job, up to its estimate.
    Running,
    /// A waiting job's reservation (a pivot, or any job under conservative backfilling).
    Reserved,
    /// A tentative hold (phase one of an advance reservation).
    Held,
    /// A committed advance reservation not yet started.
    AdvanceReservation,
}

/// Processors the cluster has promised over a window: the rectangles its
/// availability profile is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// The job's id.
    pub id: u64,
    /// Local or grid.
    pub origin: Origin,
    /// Index of the job's partition.
    pub partition: usize,
    /// What it is.
    pub kind: CommitmentKind,
    /// First instant.
    pub start: Time,
    /// End (exclusive): start plus the estimate.
    pub end: Time,
    /// Processors.
    pub procs: u32,
}

/// One partition's current state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionState {
    /// Its name.
    pub name: String,
    /// Processors it owns now.
    pub size: u32,
    /// Its pivot count now.
    pub pivots: u32,
    /// Jobs waiting in it.
    pub waiting: usize,
    /// Waiting jobs of it holding a reservation (advance reservations excluded).
    pub reserved: u32,
}

/// Processors taken from each partition by one job: `(partition, procs)`.
type Charge = Vec<(usize, u32)>;

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

#[derive(Clone, Debug)]
struct ForecastState {
    config: ForecastConfig,
    forecast: LoadForecast,
    local: usize,
    grid: usize,
    base_pivots: Vec<u32>,
    last_publish: Option<(Time, u128)>,
    last_resize: (Time, u128),
    current: f64,
    horizon: Time,
    checks: Vec<Time>,
}

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
/// resized). With one pivot this is EASY backfilling, with [`UNLIMITED`]
/// pivots conservative backfilling.
///
/// Time only moves forward: every call takes `now` and first processes the
/// cluster's own events up to it (ends, reserved starts, local arrivals,
/// reallocation checks).
#[derive(Clone, Debug)]
pub struct Cluster {
    cap: u32,
    specs: Vec<PartitionSpec>,
    sizes: Vec<u32>,
    pivots: Vec<u32>,
    lends: Vec<bool>,
    priority: Priority,
    borrowing: bool,
    now: Time,
    global: Profile,
    parts: Vec<Profile>,
    entries: Vec<Entry>,
    waiting: Vec<usize>,
    reserved: Vec<u32>,
    ends: EventQueue<usize>,
    starts: EventQueue<usize>,
    local: Vec<Job>,
    next_local: usize,
    seq: u64,
    running_procs: u64,
    notices: Vec<Notice>,
    forecast: Option<ForecastState>,
    local_demand: u64,
    local_running: u64,
    all_demand: u64,
    integral: u128,
    integral_time: Time,
}

impl Cluster {
    /// An idle cluster whose clock starts at `origin`.
    pub fn new(config: ClusterConfig, origin: Time) -> Result<Cluster, ClusterError> {
        let cap = config.capacity;
        if cap == 0 {
            return Err(ClusterError::NoCapacity);
        }
        if config.partitions.is_empty() {
            return Err(ClusterError::NoPartition);
        }
        let sum: u64 = config.partitions.iter().map(|p| u64::from(p.size)).sum();
        if sum != u64::from(cap) {
            return Err(ClusterError::Sizes { sum, capacity: cap });
        }
        if let Some(p) = config.partitions.iter().find(|p| p.pivots == 0) {
            return Err(ClusterError::Pivots {
                partition: p.name.clone(),
            });
        }
        let forecast = match config.forecast {
            None => None,
            Some(fc) => Some(ForecastState::new(
                fc,
                &config.partitions,
                config.borrowing,
                origin,
            )?),
        };
        let n = config.partitions.len();
        Ok(Cluster {
            cap,
            sizes: config.partitions.iter().map(|p| p.size).collect(),
            pivots: config.partitions.iter().map(|p| p.pivots).collect(),
            lends: config.partitions.iter().map(|p| p.lends).collect(),
            specs: config.partitions,
            priority: config.priority,
            borrowing: config.borrowing,
            now: origin,
            global: Profile::new(cap, origin),
            parts: (0..n).map(|_| Profile::new(cap, origin)).collect(),
            entries: Vec::new(),
            waiting: Vec::new(),
            reserved: vec![0; n],
            ends: EventQueue::new(),
            starts: EventQueue::new(),
            local: Vec::new(),
            next_local: 0,
            seq: 0,
            running_procs: 0,
            notices: Vec::new(),
            forecast,
            local_demand: 0,
            local_running: 0,
            all_demand: 0,
            integral: 0,
            integral_time: origin,
        })
    }

    /// The same cluster fed by a stream of local jobs (sorted by submit
    /// time), which arrive as the clock passes their submit times.
    pub fn with_local_jobs(mut self, jobs: Vec<Job>) -> Result<Cluster, ClusterError> {
        for (index, w) in jobs.windows(2).enumerate() {
            if w[1].submit < w[0].submit {
                return Err(ClusterError::Unsorted { index: index + 1 });
            }
        }
        for job in &jobs {
            self.check_job(job, Origin::Local)?;
        }
        self.local.extend(jobs);
        Ok(self)
    }

    /// Processors in the cluster.
    pub fn capacity(&self) -> u32 {
        self.cap
    }

    /// The cluster's clock.
    pub fn now(&self) -> Time {
        self.now
    }

    /// The partitions as they stand.
    pub fn partitions(&self) -> Vec<PartitionState> {
        (0..self.specs.len())
            .map(|p| PartitionState {
                name: self.specs[p].name.clone(),
                size: self.sizes[p],
                pivots: self.pivots[p],
                waiting: self
                    .waiting
                    .iter()
                    .filter(|&&i| self.entries[i].part == p)
                    .count(),
                reserved: self.reserved[p],
            })
            .collect()
    }

    /// The load forecast in force (Algorithm 1), if the cluster has one.
    pub fn forecast(&self) -> Option<f64> {
        self.forecast.as_ref().map(|f| f.current)
    }

    /// The availability profile: free processors over future time.
    pub fn profile(&self) -> &Profile {
        &self.global
    }

    /// Share of processors running jobs now, in `[0, 1]` (what the provider
    /// reports for the least-loaded policy).
    pub fn utilisation(&self) -> f64 {
        self.running_procs as f64 / f64::from(self.cap)
    }

    /// Jobs waiting (submitted, not started).
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The time of the cluster's next own event, if any.
    pub fn next_event(&self) -> Option<Time> {
        let local = self.local.get(self.next_local).map(|j| j.submit);
        let check = self
            .forecast
            .as_ref()
            .and_then(|f| f.checks.first().copied());
        [self.ends.peek_time(), self.starts.peek_time(), local, check]
            .into_iter()
            .flatten()
            .min()
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

    /// Takes the notices gathered so far.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Every submitted job and committed reservation, in the order they came.
    pub fn records(&self) -> Vec<JobRecord> {
        self.entries
            .iter()
            .filter(|e| !matches!(e.state, State::Held(_) | State::Aborted))
            .map(|e| {
                let (start, end) = match e.state {
                    State::Running { start, .. } => (Some(start), None),
                    State::Done { start, end } => (Some(start), Some(end)),
                    _ => (None, None),
                };
                JobRecord {
                    id: e.job.id,
                    origin: e.origin,
                    partition: e.part,
                    submit: e.submit,
                    procs: e.job.procs,
                    estimate: e.job.estimate,
                    run_time: e.job.run_time,
                    reserved_start: e.reserved_start,
                    start,
                    end,
                }
            })
            .collect()
    }

    /// Every rectangle of processors the cluster has promised from now on:
    /// running jobs up to their estimates, waiting jobs' reservations,
    /// holds and committed advance reservations.
    pub fn commitments(&self) -> Vec<Commitment> {
        self.entries
            .iter()
            .filter_map(|e| {
                let (kind, start) = match &e.state {
                    State::Running { start, .. } => (CommitmentKind::Running, *start),
                    State::Waiting(Some(r)) if r.fixed => {
                        (CommitmentKind::AdvanceReservation, r.start)
                    }
                    State::Waiting(Some(r)) => (CommitmentKind::Reserved, r.start),
                    State::Held(r) => (CommitmentKind::Held, r.start),
                    _ => return None,
                };
                Some(Commitment {
                    id: e.job.id,
                    origin: e.origin,
                    partition: e.part,
                    kind,
                    start,
                    end: start.saturating_add(e.job.estimate),
                    procs: e.job.procs,
                })
            })
            .collect()
    }

    /// The maximal free time slots from `from` (at least now) up to
    /// `horizon` ([`Time::MAX`] for none), as conservative backfilling
    /// exports them (Fig. 2a).
    pub fn free_slots(&self, from: Time, horizon: Time) -> Vec<FreeSlot> {
        self.global.free_slots(from.max(self.now), horizon)
    }

    /// Submits a job at `now`; it is placed at once.
    pub fn submit(&mut self, now: Time, job: Job, origin: Origin) -> Result<(), ClusterError> {
        self.advance(now)?;
        let part = self.check_job(&job, origin)?;
        self.enqueue(job, origin, part);
        self.pass();
        Ok(())
    }

    /// Phase one of an advance reservation: holds the job's processors over
    /// `[start, start + estimate)`, or refuses if they are not free there.
    /// The hold lasts until [`commit`](Self::commit) or
    /// [`abort`](Self::abort); it does not expire on its own.
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
        if start < self.now {
            return Err(ReservationError::InThePast {
                job: job.id,
                start,
                now: self.now,
            });
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
        let i = self.entries.len();
        self.entries.push(Entry {
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
    /// job starts exactly at the reserved start).
    pub fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), ReservationError> {
        self.advance(now)
            .map_err(|error| ReservationError::Job { error })?;
        let i = self.held(hold)?;
        let State::Held(res) = std::mem::replace(&mut self.entries[i].state, State::Aborted) else {
            return Err(ReservationError::UnknownHold { hold });
        };
        if res.start < self.now {
            // The hold outlived its start: it can no longer be honoured.
            let job = &self.entries[i].job;
            let (id, est) = (job.id, job.estimate);
            self.apply(&res.charge, res.start, est, false);
            self.compress();
            self.pass();
            return Err(ReservationError::InThePast {
                job: id,
                start: res.start,
                now: self.now,
            });
        }
        let start = res.start;
        self.seq += 1;
        let key = (self.rank(Origin::Grid), self.seq);
        let e = &mut self.entries[i];
        e.submit = self.now;
        e.state = State::Waiting(Some(res));
        e.key = key;
        let procs = u64::from(e.job.procs);
        self.touch();
        self.all_demand += procs;
        self.insert_waiting(i);
        self.starts.push(start, i);
        self.pass();
        Ok(())
    }

    /// Phase two, the other way: releases the hold.
    pub fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), ReservationError> {
        self.advance(now)
            .map_err(|error| ReservationError::Job { error })?;
        let i = self.held(hold)?;
        let State::Held(res) = std::mem::replace(&mut self.entries[i].state, State::Aborted) else {
            return Err(ReservationError::UnknownHold { hold });
        };
        let est = self.entries[i].job.estimate;
        self.apply(&res.charge, res.start, est, false);
        self.compress();
        self.pass();
        Ok(())
    }

    /// Sets a partition's number of pivots (1 = EASY, [`UNLIMITED`] =
    /// conservative) and reschedules. Jobs already holding a reservation keep it.
    pub fn set_pivots(
        &mut self,
        now: Time,
        partition: usize,
        pivots: u32,
    ) -> Result<(), ClusterError> {
        self.advance(now)?;
        let Some(slot) = self.pivots.get_mut(partition) else {
            return Err(ClusterError::NoPartition);
        };
        if pivots == 0 {
            return Err(ClusterError::Pivots {
                partition: self.specs[partition].name.clone(),
            });
        }
        *slot = pivots;
        self.pass();
        Ok(())
    }

    /// Resizes the partitions (sizes in partition order, adding up to the
    /// capacity) and reschedules. Jobs keep the processors they were charged.
    pub fn resize(&mut self, now: Time, sizes: &[u32]) -> Result<(), ClusterError> {
        self.advance(now)?;
        let sum: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
        if sizes.len() != self.sizes.len() || sum != u64::from(self.cap) {
            return Err(ClusterError::Sizes {
                sum,
                capacity: self.cap,
            });
        }
        let stranded = self.entries.iter().find(|e| {
            matches!(e.state, State::Waiting(None)) && e.job.procs > self.reachable(e.part, sizes)
        });
        if let Some(e) = stranded {
            return Err(ClusterError::BadJob {
                id: e.job.id,
                reason: format!(
                    "it waits for {} processors, which partition '{}' could no longer gather after the resize",
                    e.job.procs, self.specs[e.part].name
                ),
            });
        }
        self.sizes.copy_from_slice(sizes);
        self.compress();
        self.pass();
        Ok(())
    }

    /// Algorithm 1, `getFreeTimeSlots`: for a cluster with a forecast, makes
    /// every partition conservative and schedules (lines 3–4), returns to
    /// its base pivots (line 5), observes the local load of the interval
    /// just ended, forecasts the next (lines 6–7), offers the share
    /// `percToProvide = max(0, 1 − load)` (line 8) by resizing the grid
    /// partition to it and the free time slots to that share of their
    /// processors (lines 9–10), and returns them if the share is positive
    /// (lines 11–12), scheduling the reallocation checks of the interval.
    ///
    /// Without a forecast it returns the free time slots as they stand.
    pub fn publish(
        &mut self,
        now: Time,
        horizon: Time,
    ) -> Result<Option<Vec<FreeSlot>>, ClusterError> {
        self.advance(now)?;
        let Some(fs) = &self.forecast else {
            return Ok(Some(self.free_slots(now, horizon)));
        };
        let (local, grid) = (fs.local, fs.grid);
        // Lines 3–5.
        let base = fs.base_pivots.clone();
        self.pivots.iter_mut().for_each(|p| *p = UNLIMITED);
        self.pass();
        self.pivots.copy_from_slice(&base);
        // Lines 6–7.
        self.touch();
        let actual = (self.all_demand as f64 / f64::from(self.cap)).min(1.0);
        let instant_local = self.local_level() as f64 / f64::from(self.cap);
        let (integral, cap) = (self.integral, self.cap);
        let fs = self.forecast.as_mut().expect("checked above");
        if let Some((t0, i0)) = fs.last_publish
            && now > t0
            && t0 >= fs.config.train_from
        {
            let load = (integral - i0) as f64 / (f64::from(cap) * (now - t0) as f64);
            fs.forecast
                .observe(load)
                .expect("a load is a finite non-negative ratio");
        }
        fs.last_publish = Some((now, integral));
        let forecast = fs.forecast.forecast().unwrap_or(instant_local);
        fs.current = forecast;
        fs.horizon = horizon;
        // Line 8, with max for the printed min.
        let load = match fs.config.share_from {
            ShareFrom::Forecast => forecast,
            ShareFrom::Actual => actual,
        };
        let perc = (1.0 - load).clamp(0.0, 1.0);
        let grid_size = ((perc * f64::from(cap)).round() as u32).min(cap);
        let interval = fs.config.interval;
        let checks = fs.config.checks;
        fs.checks = if perc > 0.0 {
            (1..=i64::from(checks))
                .map(|k| now + interval * k / (i64::from(checks) + 1))
                .filter(|&t| t > now)
                .collect()
        } else {
            Vec::new()
        };
        self.resize_two(local, grid, cap - grid_size);
        // Lines 9–12.
        if perc <= 0.0 {
            return Ok(None);
        }
        let slots = resize_slots(&self.free_slots(now, horizon), perc);
        Ok(Some(slots))
    }

    // ----- internals -----

    fn rank(&self, origin: Origin) -> u8 {
        match (self.priority, origin) {
            (Priority::LocalFirst, Origin::Grid) => 1,
            _ => 0,
        }
    }

    fn held(&self, hold: HoldId) -> Result<usize, ReservationError> {
        usize::try_from(hold.0)
            .ok()
            .filter(|&i| matches!(self.entries.get(i).map(|e| &e.state), Some(State::Held(_))))
            .ok_or(ReservationError::UnknownHold { hold })
    }

    /// The first partition whose predicate accepts the job.
    fn partition_of(&self, job: &Job, origin: Origin) -> Option<usize> {
        self.specs
            .iter()
            .position(|p| p.predicate.accepts(job, origin))
    }

    fn check_job(&self, job: &Job, origin: Origin) -> Result<usize, ClusterError> {
        let bad = |reason: String| ClusterError::BadJob { id: job.id, reason };
        if job.procs == 0 || job.procs > self.cap {
            return Err(bad(format!(
                "it asks for {} processors and the cluster has {}",
                job.procs, self.cap
            )));
        }
        if job.estimate < 1 || job.run_time < 0 {
            return Err(bad(format!(
                "estimate {} s and run time {} s; the estimate must be at least 1 s and the run time at least 0 s",
                job.estimate, job.run_time
            )));
        }
        let part = self
            .partition_of(job, origin)
            .ok_or(ClusterError::NoPartitionFor { id: job.id })?;
        let reachable = self.reachable(part, &self.sizes);
        if job.procs > reachable {
            return Err(bad(format!(
                "it asks for {} processors and partition '{}' can gather {} (its own and what others lend)",
                job.procs, self.specs[part].name, reachable
            )));
        }
        Ok(part)
    }

    /// Processors a job of partition `p` can ever gather under `sizes`:
    /// its own, and those of lending partitions if borrowing is on.
    fn reachable(&self, p: usize, sizes: &[u32]) -> u32 {
        let lent: u32 = if self.borrowing {
            (0..sizes.len())
                .filter(|&q| q != p && self.lends[q])
                .map(|q| sizes[q])
                .sum()
        } else {
            0
        };
        sizes[p] + lent
    }

    /// The local load now, in processors, as the forecast measures it.
    fn local_level(&self) -> u64 {
        match self.forecast.as_ref().map(|f| f.config.load) {
            Some(LoadMeasure::Demand) => self.local_demand.min(u64::from(self.cap)),
            _ => self.local_running,
        }
    }

    /// Adds the integral of the local load up to now.
    fn touch(&mut self) {
        let dt = (self.now - self.integral_time).max(0) as u128;
        self.integral += u128::from(self.local_level()) * dt;
        self.integral_time = self.now;
    }

    fn enqueue(&mut self, job: Job, origin: Origin, part: usize) {
        self.touch();
        let procs = u64::from(job.procs);
        if origin == Origin::Local {
            self.local_demand += procs;
        }
        self.all_demand += procs;
        self.seq += 1;
        let i = self.entries.len();
        self.entries.push(Entry {
            submit: self.now,
            key: (self.rank(origin), self.seq),
            origin,
            part,
            state: State::Waiting(None),
            reserved_start: None,
            job,
        });
        self.insert_waiting(i);
    }

    fn insert_waiting(&mut self, i: usize) {
        let key = self.entries[i].key;
        let entries = &self.entries;
        let pos = self.waiting.partition_point(|&w| entries[w].key <= key);
        self.waiting.insert(pos, i);
    }

    fn remove_waiting(&mut self, i: usize) {
        if let Some(k) = self.waiting.iter().position(|&w| w == i) {
            self.waiting.remove(k);
        }
    }

    /// Everything that happens at `t`: ends, local arrivals, a scheduling
    /// pass, then a reallocation check.
    fn step(&mut self, t: Time) {
        self.now = t;
        self.global.advance(t);
        for p in &mut self.parts {
            p.advance(t);
        }
        let mut released = false;
        while self.ends.peek_time() == Some(t) {
            let (_, i) = self.ends.pop().expect("peeked");
            released |= self.finish(i);
        }
        while self
            .local
            .get(self.next_local)
            .is_some_and(|j| j.submit == t)
        {
            let job = self.local[self.next_local].clone();
            self.next_local += 1;
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

    /// Algorithm 1, `reallocationEvent`.
    fn reallocation_event(&mut self) {
        self.touch();
        let (integral, cap, now) = (self.integral, self.cap, self.now);
        let Some(fs) = self.forecast.as_mut() else {
            return;
        };
        let (t0, i0) = fs.last_resize;
        if now <= t0 {
            return;
        }
        let local_load = (integral - i0) as f64 / (f64::from(cap) * (now - t0) as f64);
        if local_load <= fs.current {
            return; // line 27: the next check is already scheduled
        }
        // Lines 20–25: resize to the load since the last resizing, local
        // partition conservative and schedule, grid partition conservative
        // and schedule, publish.
        fs.checks.clear();
        let (local, grid, horizon) = (fs.local, fs.grid, fs.horizon);
        let local_size = ((local_load * f64::from(cap)).ceil() as u32).min(cap);
        self.resize_two(local, grid, local_size);
        self.pivots[local] = UNLIMITED;
        self.pass();
        self.pivots[grid] = UNLIMITED;
        self.pass();
        let slots = self.free_slots(now, horizon);
        self.notices.push(Notice::Published { at: now, slots });
    }

    fn resize_two(&mut self, local: usize, grid: usize, local_size: u32) {
        self.touch();
        self.sizes[local] = local_size;
        self.sizes[grid] = self.cap - local_size;
        let integral = self.integral;
        if let Some(fs) = self.forecast.as_mut() {
            fs.last_resize = (self.now, integral);
        }
        self.compress();
        self.pass();
    }

    /// A running job ends now; returns whether it freed capacity early.
    fn finish(&mut self, i: usize) -> bool {
        let State::Running { start, end, charge } =
            std::mem::replace(&mut self.entries[i].state, State::Aborted)
        else {
            unreachable!("only running jobs have end events");
        };
        self.entries[i].state = State::Done { start, end };
        let (procs, est, origin, id) = {
            let e = &self.entries[i];
            (e.job.procs, e.job.estimate, e.origin, e.job.id)
        };
        self.running_procs -= u64::from(procs);
        self.touch();
        if origin == Origin::Local {
            self.local_demand -= u64::from(procs);
            self.local_running -= u64::from(procs);
        } else {
            self.notices.push(Notice::Ended { id, start, end });
        }
        self.all_demand -= u64::from(procs);
        let predicted = start + est;
        if end < predicted {
            self.apply(&charge, end, predicted - end, false);
            true
        } else {
            false
        }
    }

    /// Reserves (`take`) or releases a charge over `[start, start + dur)`.
    fn apply(&mut self, charge: &Charge, start: Time, dur: i64, take: bool) {
        let total: u32 = charge.iter().map(|c| c.1).sum();
        let r = if take {
            self.global.reserve(start, dur, total)
        } else {
            self.global.release(start, dur, total)
        };
        r.expect("charges are placed only where the processors are free, and released once");
        for &(q, n) in charge {
            let r = if take {
                self.parts[q].reserve(start, dur, n)
            } else {
                self.parts[q].release(start, dur, n)
            };
            r.expect("partition charges mirror the global profile");
        }
    }

    /// Idle processors of partition `q` over the window, net of what is
    /// charged to it (0 if it is over its size).
    fn own_free(&self, q: usize, start: Time, end: Time) -> u32 {
        self.parts[q]
            .min_free(start, end)
            .saturating_sub(self.cap - self.sizes[q])
    }

    /// How a job of partition `p` would be charged if placed over
    /// `[start, start + dur)`, or `None` if it does not fit there.
    fn charge_at(&self, start: Time, dur: i64, procs: u32, p: usize) -> Option<Charge> {
        let end = start.saturating_add(dur);
        if self.global.min_free(start, end) < procs {
            return None;
        }
        if self.parts.len() == 1 {
            return Some(vec![(0, procs)]);
        }
        let own = self.own_free(p, start, end);
        if own >= procs {
            return Some(vec![(p, procs)]);
        }
        if !self.borrowing {
            return None;
        }
        let mut others: Vec<(u32, usize)> = (0..self.parts.len())
            .filter(|&q| q != p && self.lends[q])
            .map(|q| (self.own_free(q, start, end), q))
            .collect();
        others.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut charge = Vec::with_capacity(self.parts.len());
        if own > 0 {
            charge.push((p, own));
        }
        let mut rest = procs - own;
        for (free, q) in others {
            if rest == 0 {
                break;
            }
            let take = free.min(rest);
            if take > 0 {
                charge.push((q, take));
                rest -= take;
            }
        }
        (rest == 0).then_some(charge)
    }

    /// The first step boundary of any profile strictly after `t`.
    fn next_boundary(&self, t: Time) -> Option<Time> {
        std::iter::once(&self.global)
            .chain(&self.parts)
            .filter_map(|p| {
                let steps = p.steps();
                let k = steps.partition_point(|s| s.0 <= t);
                steps.get(k).map(|s| s.0)
            })
            .min()
    }

    /// The earliest start at or after `after` where a job of partition `p`
    /// can be charged, with its charge.
    fn earliest(&self, after: Time, dur: i64, procs: u32, p: usize) -> Option<(Time, Charge)> {
        let mut t = after.max(self.now);
        loop {
            t = self.global.earliest_start(t, procs, dur)?;
            if let Some(charge) = self.charge_at(t, dur, procs, p) {
                return Some((t, charge));
            }
            t = self.next_boundary(t)?;
        }
    }

    /// Starts waiting job `i` now with `charge` (not yet applied).
    fn start_now(&mut self, i: usize, charge: Charge) {
        let est = self.entries[i].job.estimate;
        self.apply(&charge, self.now, est, true);
        self.run(i, charge);
    }

    /// Marks job `i` running from now (its rectangle is already in place).
    fn run(&mut self, i: usize, charge: Charge) {
        let now = self.now;
        if self.entries[i].origin == Origin::Local {
            self.touch();
            self.local_running += u64::from(self.entries[i].job.procs);
        }
        let e = &mut self.entries[i];
        let end = now + e.job.run_time.min(e.job.estimate);
        e.state = State::Running {
            start: now,
            end,
            charge,
        };
        self.running_procs += u64::from(e.job.procs);
        if e.origin == Origin::Grid {
            self.notices.push(Notice::Started {
                id: e.job.id,
                at: now,
            });
        }
        self.ends.push(end, i);
    }

    /// One scheduling pass at the current time.
    fn pass(&mut self) {
        let now = self.now;
        // Reservations that have come.
        while let Some(t) = self.starts.peek_time().filter(|&t| t <= now) {
            let (_, i) = self.starts.pop().expect("peeked");
            let due = matches!(&self.entries[i].state, State::Waiting(Some(r)) if r.start == t);
            if !due {
                continue; // stale: the job moved or started
            }
            let State::Waiting(Some(res)) =
                std::mem::replace(&mut self.entries[i].state, State::Aborted)
            else {
                unreachable!("checked above");
            };
            if !res.fixed {
                self.reserved[self.entries[i].part] -= 1;
            }
            self.remove_waiting(i);
            self.run(i, res.charge);
        }
        // Backfilling and pivots, in queue order.
        let mut free_now = self.global.free_at(now);
        let mut k = 0;
        while k < self.waiting.len() {
            if free_now == 0 && (0..self.pivots.len()).all(|p| self.reserved[p] >= self.pivots[p]) {
                break;
            }
            let i = self.waiting[k];
            let e = &self.entries[i];
            if !matches!(e.state, State::Waiting(None)) {
                k += 1;
                continue;
            }
            let (p, procs, est) = (e.part, e.job.procs, e.job.estimate);
            if procs <= free_now
                && let Some(charge) = self.charge_at(now, est, procs, p)
            {
                self.waiting.remove(k);
                self.start_now(i, charge);
                free_now -= procs;
                continue;
            }
            if self.reserved[p] < self.pivots[p]
                && let Some((t, charge)) = self.earliest(now, est, procs, p)
            {
                debug_assert!(t > now, "a job that fits now was started above");
                self.apply(&charge, t, est, true);
                self.entries[i].state = State::Waiting(Some(Res {
                    start: t,
                    charge,
                    fixed: false,
                }));
                self.reserved[p] += 1;
                self.starts.push(t, i);
            }
            k += 1;
        }
    }

    /// Moves every movable reservation, in queue order, to its earliest start.
    fn compress(&mut self) {
        let now = self.now;
        for k in 0..self.waiting.len() {
            let i = self.waiting[k];
            let State::Waiting(Some(res)) = &self.entries[i].state else {
                continue;
            };
            if res.fixed || res.start <= now {
                continue;
            }
            let (p, procs, est) = {
                let e = &self.entries[i];
                (e.part, e.job.procs, e.job.estimate)
            };
            if self.global.max_free(now, res.start) < procs {
                continue;
            }
            let State::Waiting(Some(old)) =
                std::mem::replace(&mut self.entries[i].state, State::Waiting(None))
            else {
                unreachable!("checked above");
            };
            self.apply(&old.charge, old.start, est, false);
            // After a resize the old charge may no longer be one the
            // partitions would give; the old place stays valid regardless
            // (its processors are there), so a job never moves later.
            let res = match self.earliest(now, est, procs, p) {
                Some((t, charge)) if t < old.start => {
                    self.starts.push(t, i);
                    Res {
                        start: t,
                        charge,
                        fixed: false,
                    }
                }
                _ => old,
            };
            self.apply(&res.charge, res.start, est, true);
            self.entries[i].state = State::Waiting(Some(res));
        }
    }
}

impl ForecastState {
    fn new(
        config: ForecastConfig,
        parts: &[PartitionSpec],
        borrowing: bool,
        origin: Time,
    ) -> Result<ForecastState, ClusterError> {
        let forecast = match config.smoothing {
            None => LoadForecast::new(config.window),
            Some(a) => LoadForecast::with_smoothing(config.window, a),
        }
        .map_err(|error| ClusterError::Forecast { error })?;
        if config.interval < 1 || config.checks == 0 {
            return Err(ClusterError::Reallocation {
                every: config.interval / (i64::from(config.checks) + 1),
            });
        }
        let find = |o: Origin| {
            let all: Vec<usize> = parts
                .iter()
                .enumerate()
                .filter(|(_, p)| p.predicate == Predicate::Origin(o))
                .map(|(i, _)| i)
                .collect();
            match all[..] {
                [i] => Ok(i),
                _ => Err(ClusterError::ForecastPartitions),
            }
        };
        let (local, grid) = (find(Origin::Local)?, find(Origin::Grid)?);
        if parts.len() != 2 || !parts.iter().all(|p| p.lends) || !borrowing {
            return Err(ClusterError::ForecastPartitions);
        }
        Ok(ForecastState {
            config,
            forecast,
            local,
            grid,
            base_pivots: parts.iter().map(|p| p.pivots).collect(),
            last_publish: None,
            last_resize: (origin, 0),
            current: 0.0,
            horizon: Time::MAX,
            checks: Vec::new(),
        })
    }
}

/// Free time slots resized to a share of their processors (Algorithm 1,
/// line 10): each slot keeps `floor(procs × share)` processors; slots left
/// with none are dropped.
pub fn resize_slots(slots: &[FreeSlot], share: f64) -> Vec<FreeSlot> {
    let share = if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        0.0
    };
    slots
        .iter()
        .filter_map(|s| {
            // The tolerance keeps 10 × (1 − 0.8) = 1.9999999999999996 at 2.
            let procs = (f64::from(s.procs) * share + 1e-9).floor() as u32;
            (procs > 0).then_some(FreeSlot { procs, ..*s })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::RunTimeClass;

    fn job(id: u64, submit: i64, procs: u32, dur: i64) -> Job {
        Job::new(id, Time(submit), procs, dur, dur)
    }

    fn starts(c: &Cluster) -> Vec<(u64, Option<Time>)> {
        c.records().iter().map(|r| (r.id, r.start)).collect()
    }

    #[test]
    fn easy_and_conservative_backfill_only_what_delays_no_reservation() {
        // 10 processors. Job 1 holds 6 over [0, 100). Job 2 (8 procs) must
        // wait for 100 and becomes the pivot. Job 3 (4 procs, 100 s) fits
        // now but would overlap job 2's [100, 200) where only 2 are left:
        // it waits, and goes at 200 under both policies. Job 4 (4 procs,
        // 50 s) ends before 100: it backfills at once.
        for pivots in [1, UNLIMITED] {
            let mut c = Cluster::new(ClusterConfig::single(10, pivots), Time(0)).unwrap();
            c.submit(Time(0), job(1, 0, 6, 100), Origin::Local).unwrap();
            c.submit(Time(1), job(2, 1, 8, 100), Origin::Local).unwrap();
            c.submit(Time(2), job(3, 2, 4, 100), Origin::Local).unwrap();
            c.submit(Time(3), job(4, 3, 4, 50), Origin::Local).unwrap();
            let reserved = c.partitions()[0].reserved;
            assert_eq!(reserved, if pivots == 1 { 1 } else { 2 });
            c.drain();
            let s = starts(&c);
            assert_eq!(
                s,
                vec![
                    (1, Some(Time(0))),
                    (2, Some(Time(100))),
                    (3, Some(Time(200))),
                    (4, Some(Time(3)))
                ],
                "pivots {pivots}"
            );
        }
    }

    #[test]
    fn conservative_reserves_every_waiting_job_and_easy_only_the_pivot() {
        // 4 processors. Job 1 holds 2 over [0, 100); job 2 (4 procs, 10 s)
        // is the pivot at 100; job 3 (4 procs, 10 s) and job 4 (2 procs,
        // 200 s) cannot start before. Conservative reserves job 3 at 110
        // and job 4 after it at 120. EASY reserves job 3 once job 2 has
        // started (at 110), then job 4 once job 3 has (at 120).
        let mut easy = Cluster::new(ClusterConfig::single(4, 1), Time(0)).unwrap();
        let mut cons = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
        for c in [&mut easy, &mut cons] {
            c.submit(Time(0), job(1, 0, 2, 100), Origin::Local).unwrap();
            c.submit(Time(1), job(2, 1, 4, 10), Origin::Local).unwrap();
            c.submit(Time(2), job(3, 2, 4, 10), Origin::Local).unwrap();
            c.submit(Time(3), job(4, 3, 2, 200), Origin::Local).unwrap();
        }
        assert_eq!(easy.partitions()[0].reserved, 1);
        assert_eq!(cons.partitions()[0].reserved, 3);
        let expected = vec![
            (1, Some(Time(0))),
            (2, Some(Time(100))),
            (3, Some(Time(110))),
            (4, Some(Time(120))),
        ];
        for c in [&mut easy, &mut cons] {
            c.drain();
            assert_eq!(starts(c), expected);
        }
    }

    #[test]
    fn a_committed_reservation_starts_exactly_on_time() {
        let mut c = Cluster::new(ClusterConfig::single(8, UNLIMITED), Time(0)).unwrap();
        c.submit(Time(0), job(1, 0, 8, 100), Origin::Local).unwrap();
        let hold = c
            .request_reservation(Time(10), job(7, 10, 4, 50), Time(300))
            .unwrap();
        // A hold already blocks the processors.
        assert_eq!(c.profile().free_at(Time(320)), 4);
        c.commit(Time(10), hold).unwrap();
        assert_eq!(
            c.commit(Time(10), hold),
            Err(ReservationError::UnknownHold { hold })
        );
        // A local job wanting all 8 for 250 s goes after the reservation.
        c.submit(Time(20), job(2, 20, 8, 250), Origin::Local)
            .unwrap();
        c.drain();
        let recs = c.records();
        assert_eq!(recs[1].id, 7);
        assert_eq!(recs[1].start, Some(Time(300)));
        assert_eq!(recs[1].reserved_start, Some(Time(300)));
        assert_eq!(recs[2].start, Some(Time(350)));
        let notices = c.take_notices();
        assert!(notices.contains(&Notice::Started {
            id: 7,
            at: Time(300)
        }));
    }

    #[test]
    fn a_reservation_is_refused_when_the_slot_is_gone_and_an_abort_frees_it() {
        let mut c = Cluster::new(ClusterConfig::single(8, UNLIMITED), Time(0)).unwrap();
        c.submit(Time(0), job(1, 0, 6, 100), Origin::Local).unwrap();
        let err = c
            .request_reservation(Time(0), job(9, 0, 4, 10), Time(50))
            .unwrap_err();
        assert!(
            matches!(err, ReservationError::SlotGone { job: 9, .. }),
            "{err}"
        );
        assert!(matches!(
            c.request_reservation(Time(5), job(9, 0, 4, 10), Time(4)),
            Err(ReservationError::InThePast { .. })
        ));
        let hold = c
            .request_reservation(Time(5), job(9, 5, 4, 10), Time(100))
            .unwrap();
        c.submit(Time(6), job(2, 6, 8, 10), Origin::Local).unwrap();
        // Job 2 had to go after the hold (110); aborting moves it to 100.
        c.abort(Time(7), hold).unwrap();
        c.drain();
        assert_eq!(starts(&c), vec![(1, Some(Time(0))), (2, Some(Time(100)))]);
    }

    #[test]
    fn partitions_borrow_idle_processors_without_delaying_other_pivots() {
        // 12 processors in three run-time partitions of 4, EASY.
        let config = ClusterConfig {
            capacity: 12,
            partitions: RunTimeClass::ALL
                .iter()
                .map(|&c| PartitionSpec::new(format!("{c:?}"), Predicate::RunTime(c), 4, 1))
                .collect(),
            priority: Priority::Arrival,
            borrowing: true,
            forecast: None,
        };
        let mut c = Cluster::new(config, Time(0)).unwrap();
        // A long job takes 8: its own 4 plus 4 borrowed.
        c.submit(Time(0), job(1, 0, 8, 20_000), Origin::Local)
            .unwrap();
        assert_eq!(c.records()[0].start, Some(Time(0)));
        // A medium job wanting 6 cannot start (4 free) and becomes the medium pivot.
        c.submit(Time(1), job(2, 1, 6, 5000), Origin::Local)
            .unwrap();
        assert_eq!(c.partitions()[1].reserved, 1);
        // A short job of 4 borrows the medium partition's idle processors:
        // it ends long before the medium pivot needs them at 20000.
        c.submit(Time(2), job(3, 2, 4, 500), Origin::Local).unwrap();
        assert_eq!(c.records()[2].start, Some(Time(2)));
        c.drain();
        assert_eq!(c.records()[1].start, Some(Time(20_000)));
    }

    #[test]
    fn resized_slots_keep_a_share() {
        let slots = [
            FreeSlot {
                start: Time(0),
                end: Time(10),
                procs: 10,
            },
            FreeSlot {
                start: Time(0),
                end: Time::MAX,
                procs: 1,
            },
        ];
        assert_eq!(
            resize_slots(&slots, 0.35),
            vec![FreeSlot {
                start: Time(0),
                end: Time(10),
                procs: 3
            }]
        );
        assert!(resize_slots(&slots, 0.0).is_empty());
    }

    #[test]
    fn bad_configurations_are_errors() {
        let mut config = ClusterConfig::single(8, 1);
        config.partitions[0].size = 7;
        assert_eq!(
            Cluster::new(config, Time(0)).unwrap_err(),
            ClusterError::Sizes {
                sum: 7,
                capacity: 8
            }
        );
        let mut config = ClusterConfig::single(8, 1);
        config.partitions[0].pivots = 0;
        assert!(Cluster::new(config, Time(0)).is_err());
        let mut config = ClusterConfig::single(8, 1);
        config.forecast = Some(ForecastConfig::paper(3600));
        assert_eq!(
            Cluster::new(config, Time(0)).unwrap_err(),
            ClusterError::ForecastPartitions
        );
        let mut c = Cluster::new(ClusterConfig::single(8, 1), Time(0)).unwrap();
        assert!(c.submit(Time(0), job(1, 0, 9, 10), Origin::Local).is_err());
        c.advance(Time(10)).unwrap();
        assert!(matches!(
            c.submit(Time(5), job(2, 5, 1, 10), Origin::Local),
            Err(ClusterError::Past { .. })
        ));
    }
}
