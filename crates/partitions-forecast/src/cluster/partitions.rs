//! The partitions: which one takes a job, what a job can gather, and
//! changing their sizes and pivot counts.

use profile::{Job, Time};

use super::{Cluster, State};
use crate::error::ClusterError;
use crate::partition::Origin;

impl Cluster {
    /// Sets a partition's number of pivots (1 = EASY,
    /// [`UNLIMITED`](crate::UNLIMITED) = conservative) and reschedules. Jobs
    /// already holding a reservation keep it.
    pub fn set_pivots(
        &mut self,
        now: Time,
        partition: usize,
        pivots: u32,
    ) -> Result<(), ClusterError> {
        self.advance(now)?;
        let Some(slot) = self.layout.pivots.get_mut(partition) else {
            return Err(ClusterError::NoPartition);
        };
        if pivots == 0 {
            return Err(ClusterError::Pivots {
                partition: self.layout.specs[partition].name.clone(),
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
        if sizes.len() != self.layout.sizes.len() || sum != u64::from(self.layout.cap) {
            return Err(ClusterError::Sizes {
                sum,
                capacity: self.layout.cap,
            });
        }
        let stranded = self.queue.entries.iter().find(|e| {
            matches!(e.state, State::Waiting(None)) && e.job.procs > self.reachable(e.part, sizes)
        });
        if let Some(e) = stranded {
            return Err(ClusterError::BadJob {
                id: e.job.id,
                reason: format!(
                    "it waits for {} processors, which partition '{}' could no longer gather after the resize",
                    e.job.procs, self.layout.specs[e.part].name
                ),
            });
        }
        // Local jobs yet to arrive were checked against the sizes of their
        // time: one the new sizes strand would wait for ever.
        let pending = &self.arrivals.jobs[self.arrivals.next..];
        let stranded = pending.iter().find_map(|job| {
            let part = self.partition_of(job, Origin::Local)?;
            (job.procs > self.reachable(part, sizes)).then_some((job, part))
        });
        if let Some((job, part)) = stranded {
            return Err(ClusterError::BadJob {
                id: job.id,
                reason: format!(
                    "it arrives at {} for {} processors, which partition '{}' could no longer gather after the resize",
                    job.submit, job.procs, self.layout.specs[part].name
                ),
            });
        }
        self.layout.sizes.copy_from_slice(sizes);
        self.compress();
        self.pass();
        Ok(())
    }

    /// The first partition whose predicate accepts the job.
    pub(super) fn partition_of(&self, job: &Job, origin: Origin) -> Option<usize> {
        self.layout
            .specs
            .iter()
            .position(|p| p.predicate.accepts(job, origin))
    }

    /// Checks that a job can ever run here and returns its partition.
    pub(super) fn check_job(&self, job: &Job, origin: Origin) -> Result<usize, ClusterError> {
        let bad = |reason: String| ClusterError::BadJob { id: job.id, reason };
        if job.procs == 0 || job.procs > self.layout.cap {
            return Err(bad(format!(
                "it asks for {} processors and the cluster has {}",
                job.procs, self.layout.cap
            )));
        }
        if job.estimate < 1 || job.run_time < 0 {
            return Err(bad(format!(
                "estimate {} s and run time {} s; the estimate must be at least 1 s and the run time at least 0 s",
                job.estimate, job.run_time
            )));
        }
        job.check().map_err(|error| ClusterError::Job { error })?;
        let part = self
            .partition_of(job, origin)
            .ok_or(ClusterError::NoPartitionFor { id: job.id })?;
        let reachable = self.reachable(part, &self.layout.sizes);
        if job.procs > reachable {
            return Err(bad(format!(
                "it asks for {} processors and partition '{}' can gather {} (its own and what others lend)",
                job.procs, self.layout.specs[part].name, reachable
            )));
        }
        Ok(part)
    }

    /// Refuses job `id` handed over now, if now is past [`Time::LIMIT`]: its
    /// record's submit time would be now (a job enters a cluster's queue
    /// when it is handed over or committed), and no schedule holds a job
    /// submitted after `LIMIT` ([`Job::check`]).
    pub(super) fn check_arrival(&self, id: u64) -> Result<(), ClusterError> {
        if self.now > Time::LIMIT {
            return Err(ClusterError::BadJob {
                id,
                reason: format!(
                    "it arrives at {} s, after {} s (2^40 s, Time::LIMIT), past which no job is submitted",
                    self.now.secs(),
                    Time::LIMIT.secs()
                ),
            });
        }
        Ok(())
    }

    /// Processors a job of partition `p` can ever gather under `sizes`:
    /// its own, and those of lending partitions if borrowing is on.
    fn reachable(&self, p: usize, sizes: &[u32]) -> u32 {
        let lent: u32 = if self.layout.borrowing {
            (0..sizes.len())
                .filter(|&q| q != p && self.layout.lends[q])
                .map(|q| sizes[q])
                .sum()
        } else {
            0
        };
        sizes[p] + lent
    }
}
