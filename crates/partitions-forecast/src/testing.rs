//! The public invariant suite for a user's own [`Partitioning`] (feature
//! `testing`), in the shape of `profile::testing` and the other paper
//! crates' suites: [`check_partitioning`] for one run, and a [`Suite`]
//! that runs it on edge cases and on workloads drawn from the gate's fixed
//! seed (`profile::testing::sample_workloads`, the same on every run),
//! reporting the first broken invariant as a [`Broken`] under one of the
//! names of [`invariant`]:
//!
//! * [`invariant::DETERMINISTIC`]: two fresh policies configured the
//!   cluster otherwise, or their clusters ran the same jobs otherwise (the
//!   detail names the first job whose record differs);
//! * [`invariant::VALID`]: a job never ran, or the schedule fails
//!   `profile::validate` (each job running its run time, or killed at its
//!   estimate);
//! * [`invariant::KEEPS_THE_CONTRACT`]: a configuration
//!   [`Cluster::under`] refuses ([`ClusterError::Partitioning`]: another
//!   capacity than the one asked for, a partition or forecast setting
//!   [`Cluster::new`] refuses);
//! * [`invariant::RUNS_TO_THE_END`]: a run failed with an error where the
//!   built-in [`ArCb`] runs.
//!
//! ```
//! use partitions_forecast::testing::Suite;
//! use partitions_forecast::{ClusterConfig, ForecastConfig, Partitioning, ProviderPolicy};
//!
//! /// ArEb on machines of 16 processors or more, ArCb below.
//! struct BySize;
//!
//! impl Partitioning for BySize {
//!     fn config(&self, capacity: u32, forecast: &ForecastConfig) -> ClusterConfig {
//!         let p = if capacity >= 16 { ProviderPolicy::ArEb } else { ProviderPolicy::ArCb };
//!         p.config(capacity, forecast)
//!     }
//! }
//!
//! Suite::new(4).check_partitioning(|| BySize)?;
//! # Ok::<(), profile::testing::Broken>(())
//! ```

pub use profile::testing::{Broken, invariant};
use profile::{Job, Time};

use crate::{ArCb, Cluster, ClusterError, ForecastConfig, JobRecord, Partitioning};

fn play<P: Partitioning>(
    policy: &P,
    capacity: u32,
    forecast: &ForecastConfig,
    jobs: &[Job],
) -> Result<Vec<JobRecord>, ClusterError> {
    let origin = jobs
        .first()
        .map_or(Time::ZERO, |j| j.submit.min(Time::ZERO));
    let mut cluster =
        Cluster::under(policy, capacity, forecast, origin)?.with_local_jobs(jobs.to_vec())?;
    cluster.drain();
    Ok(cluster.records())
}

/// Checks the policies `make` builds (it is called for each run) on a
/// cluster of `capacity` processors with the forecast settings `forecast`,
/// running `jobs` as local jobs to the end: [`Cluster::under`] accepts the
/// configuration, two fresh policies configure and run alike, every job
/// runs and the schedule is valid, and the run ends without an error
/// unless [`ArCb`] fails on the same input too.
pub fn check_partitioning<P: Partitioning>(
    make: impl Fn() -> P,
    capacity: u32,
    forecast: &ForecastConfig,
    jobs: &[Job],
) -> Result<(), Broken> {
    let (a, b) = (make(), make());
    let (ca, cb) = (a.config(capacity, forecast), b.config(capacity, forecast));
    if ca != cb {
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!(
                "two fresh policies configured a cluster of {capacity} processors otherwise: {ca:?}, then {cb:?}; look for state kept between instances (a static), or time and randomness"
            ),
        ));
    }
    let first = play(&a, capacity, forecast, jobs);
    let again = play(&b, capacity, forecast, jobs);
    if first != again {
        let d = match (&first, &again) {
            (Ok(x), Ok(y)) => match x.iter().zip(y).find(|(p, q)| p != q) {
                Some((p, q)) => format!("job {}: run 1 {p:?}, run 2 {q:?}", p.id),
                None => format!("{} records, then {}", x.len(), y.len()),
            },
            (x, y) => format!("run 1 {:?}, run 2 {:?}", x.as_ref().err(), y.as_ref().err()),
        };
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!("two fresh policies' clusters ran the same jobs otherwise ({d})"),
        ));
    }
    let records = match first {
        Ok(records) => records,
        Err(e @ ClusterError::Partitioning { .. }) => {
            return Err(Broken::new(invariant::KEEPS_THE_CONTRACT, e.to_string()));
        }
        Err(_) if play(&ArCb, capacity, forecast, jobs).is_err() => return Ok(()),
        Err(e) => return Err(Broken::new(invariant::RUNS_TO_THE_END, e.to_string())),
    };
    let mut ran = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for r in &records {
        let Some((job, outcome)) = r.ran() else {
            return Err(Broken::new(
                invariant::VALID,
                format!("job {} never ran", r.id),
            ));
        };
        ran.push(job);
        outcomes.push(outcome);
    }
    profile::validate(capacity, &ran, &outcomes)
        .map_err(|v| Broken::new(invariant::VALID, v.to_string()))
}

/// The property suite for one partitioning: [`check_partitioning`] on the
/// workloads of [`Suite::workloads`], on clusters of 1, 8 and 32
/// processors (the jobs narrowed to the cluster), with the paper's
/// forecast settings (an interval of one hour). The first broken invariant
/// is returned, its detail prefixed with the workload it broke on.
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

    /// The workloads the suite runs: the edge cases (no job; jobs at once,
    /// short and long, one outliving its estimate), then `profile`'s
    /// generated workloads.
    pub fn workloads(&self) -> Vec<Vec<Job>> {
        let job =
            |id, submit, procs, estimate, run| Job::new(id, Time(submit), procs, estimate, run);
        let mut all = vec![
            Vec::new(),
            vec![
                job(1, 0, 32, 3600, 3600),
                job(2, 0, 1, 60, 120),
                job(3, 0, 16, 7200, 10),
                job(4, 1, 8, 1, 0),
            ],
        ];
        all.extend(profile::testing::sample_workloads(32, 20, self.cases));
        all.extend(profile::testing::sample_bursts(
            32,
            profile::testing::BURST_JOBS,
            2,
        ));
        all
    }

    /// [`check_partitioning`] on every workload and cluster size.
    pub fn check_partitioning<P: Partitioning>(&self, make: impl Fn() -> P) -> Result<(), Broken> {
        let forecast = ForecastConfig::paper(3600);
        for (k, jobs) in self.workloads().iter().enumerate() {
            for capacity in [1, 8, 32] {
                let narrowed: Vec<Job> = jobs
                    .iter()
                    .map(|j| Job {
                        procs: j.procs.min(capacity),
                        ..j.clone()
                    })
                    .collect();
                check_partitioning(&make, capacity, &forecast, &narrowed).map_err(|b| {
                    b.within(format_args!(
                        "workload {} ({} jobs) on {capacity} processors",
                        k + 1,
                        jobs.len()
                    ))
                })?;
            }
        }
        Ok(())
    }
}
