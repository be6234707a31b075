//! A `partitions-forecast` cluster as the gateway's provider.

use gateway::{HoldId, Provider, Refusal, Report};
use partitions_forecast::{Cluster, ClusterError, Notice, Origin, ReservationError};
use profile::{FreeSlot, Job, Time};

/// A [`Cluster`] seen by the gateway through its [`Provider`] trait.
///
/// Grid jobs enter the cluster as [`Origin::Grid`]. Every call the gateway
/// makes first moves the cluster's clock where the trait needs it; an
/// internal error of the cluster (which the trait cannot return) is kept,
/// and [`Site::finish`] reports the first one after the run.
#[derive(Debug)]
pub struct Site {
    cluster: Cluster,
    /// The first internal error, reported after the run.
    error: Option<ClusterError>,
}

impl Site {
    /// Wraps a cluster (with its local jobs already given).
    pub fn new(cluster: Cluster) -> Site {
        Site {
            cluster,
            error: None,
        }
    }

    /// The cluster, as far as the run has moved it.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// Runs the cluster until nothing is left to do and gives it back, or
    /// the first internal error it met during the run.
    pub fn finish(mut self) -> Result<Cluster, ClusterError> {
        self.cluster.drain();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.cluster),
        }
    }

    fn keep(&mut self, r: Result<(), ClusterError>) {
        if let (Err(e), None) = (r, &self.error) {
            self.error = Some(e);
        }
    }
}

/// The gateway's [`Refusal`] for a cluster's [`ReservationError`] about
/// `job`: a slot taken in the meantime and an unknown hold keep their
/// meaning; anything else is a rejection with the cluster's reason.
pub fn refusal(job: u64, e: ReservationError) -> Refusal {
    match e {
        ReservationError::SlotGone {
            job,
            start,
            procs,
            duration,
        } => Refusal::SlotGone {
            job,
            start,
            procs,
            duration,
        },
        ReservationError::UnknownHold { hold } => Refusal::UnknownHold { hold },
        other => Refusal::Rejected {
            job,
            reason: other.to_string(),
        },
    }
}

/// A commit or abort names a hold, not a job: its rejections carry this id.
const NO_JOB: u64 = u64::MAX;

impl Provider for Site {
    fn capacity(&self) -> u32 {
        self.cluster.capacity()
    }
    fn utilisation(&self, _now: Time) -> f64 {
        self.cluster.utilisation()
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        let r = self.cluster.advance(now);
        self.keep(r);
        self.cluster.free_slots(now, horizon)
    }
    fn publish(&mut self, now: Time, horizon: Time) -> Option<Vec<FreeSlot>> {
        match self.cluster.publish(now, horizon) {
            Ok(slots) => slots,
            Err(e) => {
                self.keep(Err(e));
                None
            }
        }
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        let id = job.id;
        self.cluster
            .submit(now, job, Origin::Grid)
            .map_err(|e| Refusal::Rejected {
                job: id,
                reason: e.to_string(),
            })
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        self.cluster
            .request_reservation(now, job.clone(), start)
            .map_err(|e| refusal(job.id, e))
    }
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.cluster
            .commit(now, hold)
            .map_err(|e| refusal(NO_JOB, e))
    }
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.cluster
            .abort(now, hold)
            .map_err(|e| refusal(NO_JOB, e))
    }
    fn next_event(&self) -> Option<Time> {
        self.cluster.next_event()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        let r = self.cluster.advance(now);
        self.keep(r);
        reports.extend(self.cluster.take_notices().into_iter().map(|n| match n {
            Notice::Started { id, at } => Report::Started { job: id, at },
            Notice::Ended { id, end, .. } => Report::Ended { job: id, at: end },
            Notice::Published { slots, .. } => Report::Slots(slots),
        }));
    }
    /// With no event of the cluster's own by `now`, no notice waiting and
    /// `now` not before its clock, advancing would only move its clock,
    /// and every call that reads the clock moves it first.
    fn due(&self, now: Time) -> bool {
        self.cluster.next_event().is_some_and(|t| t <= now)
            || self.cluster.has_notices()
            || now < self.cluster.now()
    }
}
