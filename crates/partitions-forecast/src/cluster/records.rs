//! What a cluster reports: its jobs, its commitments, its partitions and
//! the notices it gathers for its caller.

use profile::{FreeSlot, Job, Outcome, Time};

use super::{Cluster, State};
use crate::partition::Origin;

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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

impl JobRecord {
    /// The job and its outcome as `profile` states them, once it has
    /// started and ended (`None` before): killed if its run time is longer
    /// than its estimate (the model kills a job at its estimate), completed
    /// otherwise. For `profile::validate` over a cluster's records.
    pub fn ran(&self) -> Option<(Job, Outcome)> {
        let (start, end) = (self.start?, self.end?);
        let job = Job::new(
            self.id,
            self.submit,
            self.procs,
            self.estimate,
            self.run_time,
        );
        let outcome = Outcome::ran(&job, start, end);
        Some((job, outcome))
    }
}

/// What a processor rectangle on the profile is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

impl Cluster {
    /// The partitions as they stand.
    pub fn partitions(&self) -> Vec<PartitionState> {
        (0..self.layout.specs.len())
            .map(|p| PartitionState {
                name: self.layout.specs[p].name.clone(),
                size: self.layout.sizes[p],
                pivots: self.layout.pivots[p],
                waiting: self
                    .queue
                    .waiting
                    .iter()
                    .filter(|&&i| self.queue.entries[i].part == p)
                    .count(),
                reserved: self.queue.reserved[p],
            })
            .collect()
    }

    /// Takes the notices gathered so far.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Whether notices are waiting to be taken.
    pub fn has_notices(&self) -> bool {
        !self.notices.is_empty()
    }

    /// Every submitted job and committed reservation, in the order they came.
    pub fn records(&self) -> Vec<JobRecord> {
        // Sized once for every entry (most are records) instead of grown by
        // doubling, which copies the records each time.
        let mut records = Vec::with_capacity(self.queue.entries.len());
        records.extend(
            self.queue
                .entries
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
                }),
        );
        records
    }

    /// Every rectangle of processors the cluster has promised from now on:
    /// running jobs up to their estimates, waiting jobs' reservations,
    /// holds and committed advance reservations.
    pub fn commitments(&self) -> Vec<Commitment> {
        self.queue
            .entries
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
}
