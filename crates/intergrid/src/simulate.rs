//! One scenario under one series: the clusters, the gateway, and what
//! happened to every job.

use std::collections::HashMap;

use gateway::{Fate, GatewayConfig, PAPER_TOLERANCE, Provisioning};
use partitions_forecast::{Cluster, ForecastConfig, Origin, Partitioning};
use profile::{Job, Time};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::IntergridError;
use crate::priced::{Priced, ProviderPricing};
use crate::series::Series;
use crate::site::Site;
use crate::validate::validate;

/// The platform and the knobs of a run, shared by every series.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Processors per cluster, one entry per cluster.
    pub clusters: Vec<u32>,
    /// The forecast policy's settings (used by ArEbMf only). Its `interval`
    /// is also the publication interval of `earliest-partial`.
    pub forecast: ForecastConfig,
    /// Seconds between utilisation reports (`least-load`).
    pub report_every: i64,
    /// Violation tolerance T in seconds.
    pub tolerance: u32,
    /// How far ahead the free time slots reach, in seconds; `None` for no limit.
    pub horizon: Option<i64>,
    /// Whether the gateway books its own placements in its copy of the
    /// slots until the next publication.
    pub track_allocations: bool,
    /// Libra+$ pricing and admission of grid jobs at every provider
    /// ([`Priced`]); `None` (the paper's) admits every grid job.
    pub pricing: Option<ProviderPricing>,
}

impl Config {
    /// The paper's settings for these clusters and a publication interval
    /// in seconds: utilisation reports every 10 minutes, tolerance 20 s,
    /// slots without horizon, the gateway booking its own placements, and
    /// the forecast of [`ForecastConfig::paper`].
    pub fn paper(clusters: Vec<u32>, interval: i64) -> Config {
        Config {
            clusters,
            forecast: ForecastConfig::paper(interval),
            report_every: 600,
            tolerance: PAPER_TOLERANCE,
            horizon: None,
            track_allocations: true,
            pricing: None,
        }
    }

    /// The publication interval in seconds.
    pub fn interval(&self) -> i64 {
        self.forecast.interval
    }
}

/// The jobs of one repetition: the grid stream and each cluster's local
/// stream. Every series of a repetition runs the same scenario (common
/// random numbers).
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Grid jobs, sorted by submit time, each with its own id (the gateway
    /// refuses a repeat). A grid job may share an id with a local job:
    /// records carry the origin, and the provisioning kind's trace and
    /// generated local jobs both number their jobs from 1.
    pub grid: Vec<Job>,
    /// Local jobs per cluster, in the order of [`Config::clusters`], each
    /// with its own id within its cluster (the cluster refuses a repeat,
    /// `partitions_forecast::ClusterError::DuplicateLocalId`).
    pub local: Vec<Vec<Job>>,
    /// Jobs submitted before this time are simulated but not measured, and
    /// messages sent before it are not counted.
    pub warmup: Time,
}

impl Scenario {
    /// The last submission of any job: periodic messages (utilisation
    /// reports, publications) stop here.
    pub fn last_arrival(&self) -> Time {
        self.local
            .iter()
            .flatten()
            .chain(&self.grid)
            .map(|j| j.submit)
            .max()
            .unwrap_or(Time::ZERO)
    }

    /// Deadlines after Islam et al.: each grid job, with probability
    /// `share`, gets `submit + ⌈stringency × response time under base⌉`;
    /// a job `base` rejected gets none. The draws come from
    /// `ChaCha8Rng::seed_from_u64(seed)`, one per grid job in order whether
    /// or not it ran, so the same seed picks the same jobs under any base.
    /// A deadline past `Time::LIMIT` (2^40 s) is an error naming the
    /// stringency ([`IntergridError::DeadlinePastLimit`]).
    pub fn deadlines(
        &self,
        base: &Run,
        share: f64,
        stringency: f64,
        seed: u64,
    ) -> Result<Vec<Option<Time>>, IntergridError> {
        if !(0.0..=1.0).contains(&share) {
            return Err(IntergridError::DeadlineShare { share });
        }
        if !(stringency.is_finite() && stringency > 0.0) {
            return Err(IntergridError::Stringency { stringency });
        }
        base.fits(self)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        self.grid
            .iter()
            .zip(&base.grid)
            .map(|(job, outcome)| {
                let pick = rng.random_bool(share);
                let Some((_, end)) = *outcome else {
                    return Ok(None);
                };
                if !pick {
                    return Ok(None);
                }
                // A float cast and `Time + i64` saturate: no wrap, however large.
                let d = job.submit + ((end - job.submit) as f64 * stringency).ceil() as i64;
                if d > Time::LIMIT {
                    return Err(IntergridError::DeadlinePastLimit {
                        job: job.id,
                        stringency,
                        deadline: d.secs(),
                    });
                }
                Ok(Some(d))
            })
            .collect()
    }
}

/// What one simulation produced, job by job.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Per grid job (scenario order): (start, end) if it ran.
    pub(crate) grid: Vec<Option<(Time, Time)>>,
    /// Per grid job: whether it waited at the gateway before being placed.
    pub(crate) held: Vec<bool>,
    /// Per cluster, per local job (scenario order): (start, end).
    pub(crate) local: Vec<Vec<(Time, Time)>>,
    /// Per grid job: violations counted against it.
    pub(crate) violations: Vec<u32>,
    /// Per grid job: whether it started later than planned by more than T.
    pub(crate) late: Vec<bool>,
    /// Per grid job: reservations refused.
    pub(crate) refusals: Vec<u32>,
    /// Messages sent after the warm-up.
    pub(crate) messages: u64,
    /// What the providers' admission charged accepted grid jobs.
    pub(crate) revenue: f64,
    /// Grid-job offers the providers' admission rejected.
    pub(crate) admission_rejections: u64,
    /// Every job simulated, as (id, submit): the grid jobs, then each
    /// cluster's local jobs, in scenario order, so a run is measured only
    /// on the scenario it simulated.
    pub(crate) jobs: Vec<(u64, Time)>,
}

impl Run {
    /// Per grid job, in scenario order: its (start, end), or `None` if the
    /// gateway rejected it.
    pub fn grid(&self) -> &[Option<(Time, Time)>] {
        &self.grid
    }

    /// Per grid job: whether it waited at the gateway for want of a slot.
    pub fn held(&self) -> &[bool] {
        &self.held
    }

    /// Per cluster, per local job in scenario order: its (start, end).
    pub fn local(&self) -> &[Vec<(Time, Time)>] {
        &self.local
    }

    /// Per grid job: the violations counted against it (late starts and
    /// refused reservations).
    pub fn violations(&self) -> &[u32] {
        &self.violations
    }

    /// Per grid job: whether it started later than planned by more than the
    /// tolerance.
    pub fn late(&self) -> &[bool] {
        &self.late
    }

    /// Per grid job: its refused reservations.
    pub fn refusals(&self) -> &[u32] {
        &self.refusals
    }

    /// Messages between the gateway and the providers after the warm-up.
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// What accepted grid jobs paid the providers under
    /// [`Config::pricing`] (0 without it).
    pub fn revenue(&self) -> f64 {
        self.revenue
    }

    /// Offers of grid jobs the providers' admission rejected (a job may be
    /// offered to several providers).
    pub fn admission_rejections(&self) -> u64 {
        self.admission_rejections
    }

    /// Whether this run has one entry per job of `scenario`.
    pub(crate) fn fits(&self, scenario: &Scenario) -> Result<(), IntergridError> {
        let foreign = |what, expected, found| IntergridError::ForeignRun {
            what,
            expected,
            found,
        };
        if self.grid.len() != scenario.grid.len() {
            return Err(foreign("grid jobs", scenario.grid.len(), self.grid.len()));
        }
        if self.local.len() != scenario.local.len() {
            return Err(foreign("clusters", scenario.local.len(), self.local.len()));
        }
        for (ran, jobs) in self.local.iter().zip(&scenario.local) {
            if ran.len() != jobs.len() {
                return Err(foreign("local jobs on a cluster", jobs.len(), ran.len()));
            }
        }
        // As many jobs, but the same jobs? Ids and submit times, in order,
        // stream by stream (the grid's, then each cluster's).
        let streams = std::iter::once((None, &scenario.grid))
            .chain(scenario.local.iter().enumerate().map(|(k, v)| (Some(k), v)));
        let mut offset = 0;
        for (cluster, jobs) in streams {
            let Some(ran) = self.jobs.get(offset..offset + jobs.len()) else {
                let total = offset + jobs.len();
                return Err(foreign("jobs", total, self.jobs.len()));
            };
            if let Some(position) = (ran.iter().zip(jobs)).position(|(r, j)| *r != (j.id, j.submit))
            {
                let j = &jobs[position];
                return Err(IntergridError::ForeignJob {
                    cluster,
                    position,
                    found: ran[position],
                    expected: (j.id, j.submit),
                });
            }
            offset += jobs.len();
        }
        Ok(())
    }
}

/// Every job of `scenario` as (id, submit): the grid jobs, then each
/// cluster's local jobs ([`Run::jobs`]), in a vector sized once.
fn scenario_job_list(scenario: &Scenario) -> Vec<(u64, Time)> {
    let n = scenario.grid.len() + scenario.local.iter().map(Vec::len).sum::<usize>();
    let mut jobs = Vec::with_capacity(n);
    for stream in std::iter::once(&scenario.grid).chain(&scenario.local) {
        jobs.extend(stream.iter().map(|j| (j.id, j.submit)));
    }
    jobs
}

/// Runs `scenario` with every cluster under `series.provider` and the
/// gateway under `series.gateway`. With `deadlines` (one per grid job), each
/// grid job's deadline is replaced; without, the jobs keep their own.
///
/// Every cluster's schedule passes [`validate`] and every local job
/// must have run before the run counts; anything else is an error, and so
/// is a [`Config::pricing`] that [`ProviderPricing::check`] refuses, or
/// one over a cluster of more than `pricing::MAX_NODES` processors.
pub fn simulate(
    config: &Config,
    scenario: &Scenario,
    series: Series,
    deadlines: Option<&[Option<Time>]>,
) -> Result<Run, IntergridError> {
    simulate_with(
        config,
        scenario,
        &series.to_string(),
        &series.provider,
        series.gateway.policy(config.interval()),
        deadlines,
    )
}

/// [`simulate`] for a series of one's own: every cluster set up by
/// `partitioning` (a [`Partitioning`] of one's own, or a built-in
/// [`ProviderPolicy`](partitions_forecast::ProviderPolicy)), the gateway
/// playing `provisioning` (a [`Provisioning`] of one's own, or a built-in
/// [`GatewayPolicy`](gateway::GatewayPolicy)), the run named `name` in
/// errors. The same checks, the same [`Run`]: [`Run::metrics`] and
/// [`Scenario::deadlines`] take it as they take a built-in series' run
/// ([`evaluate_with`](crate::evaluate_with) does all three).
///
/// ```
/// use gateway::{GatewayPolicy, Information};
/// use intergrid::{Config, Scenario, simulate, simulate_with};
/// use partitions_forecast::ProviderPolicy;
/// use profile::{Job, Time};
///
/// let local = |first: u64| -> Vec<Job> {
///     (0..4).map(|i| Job::new(first + i, Time(600 * i as i64), 4, 1800, 1200)).collect()
/// };
/// let grid: Vec<Job> = (0..6).map(|i| Job::new(1000 + i, Time(300 * i as i64), 6, 900, 600)).collect();
/// let scenario = Scenario { grid, local: vec![local(0), local(100)], warmup: Time(0) };
/// let config = Config::paper(vec![8, 8], 3600);
/// // The built-in pair, spelt out: the run of the series it names.
/// let ours = simulate_with(
///     &config,
///     &scenario,
///     "mine",
///     &ProviderPolicy::ArCb,
///     GatewayPolicy::EarliestStart(Information::Ask),
///     None,
/// )?;
/// assert_eq!(ours, simulate(&config, &scenario, "arcb+earliest-ask".parse()?, None)?);
/// # Ok::<(), intergrid::IntergridError>(())
/// ```
pub fn simulate_with<P: Partitioning + ?Sized, Q: Provisioning + Clone>(
    config: &Config,
    scenario: &Scenario,
    name: &str,
    partitioning: &P,
    provisioning: Q,
    deadlines: Option<&[Option<Time>]>,
) -> Result<Run, IntergridError> {
    if config.clusters.len() != scenario.local.len() {
        return Err(IntergridError::ClusterCount {
            clusters: config.clusters.len(),
            local: scenario.local.len(),
        });
    }
    if let Some(pricing) = &config.pricing {
        pricing.check()?;
        if let Some((cluster, &procs)) = (config.clusters.iter().enumerate())
            .find(|(_, p)| usize::try_from(**p).map_or(true, |p| p > pricing::MAX_NODES))
        {
            return Err(IntergridError::PricedClusterTooLarge {
                cluster,
                procs,
                max: pricing::MAX_NODES,
            });
        }
    }
    if let Some(d) = deadlines
        && d.len() != scenario.grid.len()
    {
        return Err(IntergridError::ForeignRun {
            what: "grid jobs",
            expected: scenario.grid.len(),
            found: d.len(),
        });
    }
    let series = || name.to_owned();
    let cluster_error = |cluster, error| IntergridError::Cluster {
        series: series(),
        cluster,
        error,
    };
    let mut sites = config
        .clusters
        .iter()
        .zip(&scenario.local)
        .enumerate()
        .map(|(k, (&procs, jobs))| {
            Cluster::under(partitioning, procs, &config.forecast, Time::ZERO)
                .and_then(|c| c.with_local_jobs(jobs.clone()))
                .map(Site::new)
                .map_err(|e| cluster_error(k, e))
        })
        .collect::<Result<Vec<Site>, _>>()?;
    let mut gateway_config = GatewayConfig::new(provisioning)
        .timers_until(scenario.last_arrival())
        .measure_from(scenario.warmup)
        .track_allocations(config.track_allocations)
        .tolerance(config.tolerance)
        .horizon(config.horizon);
    gateway_config.report_every = config.report_every;
    let grid: Vec<Job> = match deadlines {
        Some(d) => scenario
            .grid
            .iter()
            .zip(d)
            .map(|(j, &deadline)| Job {
                deadline,
                ..j.clone()
            })
            .collect(),
        None => scenario.grid.clone(),
    };
    let gateway_error = |error| IntergridError::Gateway {
        series: series(),
        error,
    };
    let (result, sites, revenue, admission_rejections) = match config.pricing {
        None => {
            let result = gateway::run(&gateway_config, &mut sites, &grid).map_err(gateway_error)?;
            (result, sites, 0.0, 0)
        }
        Some(pricing) => {
            let mut priced: Vec<Priced<Site>> = sites
                .into_iter()
                .map(|s| Priced::libra_dollar(s, pricing))
                .collect::<Result<_, _>>()?;
            let result =
                gateway::run(&gateway_config, &mut priced, &grid).map_err(gateway_error)?;
            let revenue = priced.iter().map(Priced::revenue).sum();
            let rejected = priced.iter().map(Priced::rejected).sum();
            let sites = priced.into_iter().map(Priced::into_inner).collect();
            (result, sites, revenue, rejected)
        }
    };
    // Every cluster's schedule must be valid before its numbers count.
    let mut local = Vec::with_capacity(sites.len());
    for (k, site) in sites.into_iter().enumerate() {
        let cluster = site.finish().map_err(|e| cluster_error(k, e))?;
        let records = cluster.records();
        validate(cluster.capacity(), &records).map_err(|error| {
            IntergridError::InvalidSchedule {
                series: series(),
                cluster: k,
                error,
            }
        })?;
        let ran: Vec<(Time, Time)> = records
            .iter()
            .filter(|r| r.origin == Origin::Local)
            .filter_map(|r| r.start.zip(r.end))
            .collect();
        if ran.len() != scenario.local[k].len() {
            return Err(IntergridError::LocalJobsLost {
                series: series(),
                cluster: k,
                ran: ran.len(),
                submitted: scenario.local[k].len(),
            });
        }
        local.push(ran);
    }
    let index: HashMap<u64, usize> = grid.iter().enumerate().map(|(i, j)| (j.id, i)).collect();
    let mut violations = vec![0; grid.len()];
    let mut late = vec![false; grid.len()];
    let mut refusals = vec![0; grid.len()];
    for v in result.violations.violations() {
        if let Some(&i) = index.get(&v.job()) {
            violations[i] += 1;
            match v {
                gateway::ProvisioningViolation::LateStart { .. } => late[i] = true,
                gateway::ProvisioningViolation::ReservationRefused { .. } => refusals[i] += 1,
                // A kind of violation this crate does not know yet counts
                // only in the total.
                _ => {}
            }
        }
    }
    let held = result
        .fates
        .iter()
        .zip(&grid)
        .map(|(f, j)| matches!(*f, Fate::Ran { placed, .. } if placed > j.submit))
        .collect();
    let grid_ran = result
        .fates
        .iter()
        .map(|f| match *f {
            Fate::Ran { start, end, .. } => Some((start, end)),
            Fate::Rejected { .. } => None,
        })
        .collect();
    Ok(Run {
        grid: grid_ran,
        held,
        local,
        violations,
        late,
        refusals,
        messages: result.measured.total(),
        revenue,
        admission_rejections,
        jobs: scenario_job_list(scenario),
    })
}
