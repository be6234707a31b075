//! The crate's errors: bad series names, bad inputs, and runs that broke a
//! rule (a bug in a provider or in the gateway, never silently counted).

use std::fmt;

use gateway::GatewayError;
use partitions_forecast::{ClusterError, Origin, ProviderPolicy};
use profile::{ShortFloat, Time};

use crate::series::GatewayKind;

/// Why a series name, a scenario or a run was refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum IntergridError {
    /// A series name without the `+` between provider and gateway.
    MalformedSeries {
        /// The name as given.
        series: String,
    },
    /// The provider half of a series name is no [`ProviderPolicy`].
    UnknownProvider {
        /// The provider half as given.
        name: String,
    },
    /// The gateway half of a series name is no [`GatewayKind`].
    UnknownGateway {
        /// The whole name as given.
        series: String,
        /// The gateway half as given.
        name: String,
    },
    /// The configuration and the scenario disagree on the number of clusters.
    ClusterCount {
        /// Clusters in the configuration.
        clusters: usize,
        /// Local workloads in the scenario.
        local: usize,
    },
    /// A cluster refused its configuration or its local jobs, or failed
    /// inside the run.
    Cluster {
        /// The series simulated, by name (`arcb+earliest-ask`, or the name
        /// given to [`simulate_with`](crate::simulate_with)).
        series: String,
        /// The cluster's index.
        cluster: usize,
        /// The cluster's error.
        error: ClusterError,
    },
    /// The gateway refused its input.
    Gateway {
        /// The series simulated, by name (`arcb+earliest-ask`, or the name
        /// given to [`simulate_with`](crate::simulate_with)).
        series: String,
        /// The gateway's error.
        error: GatewayError,
    },
    /// A cluster's schedule broke the machine's rules (a bug in a provider).
    InvalidSchedule {
        /// The series simulated, by name (`arcb+earliest-ask`, or the name
        /// given to [`simulate_with`](crate::simulate_with)).
        series: String,
        /// The cluster's index.
        cluster: usize,
        /// What [`validate`](crate::validate) found.
        error: Violation,
    },
    /// Fewer local jobs ran on a cluster than it was given.
    LocalJobsLost {
        /// The series simulated, by name (`arcb+earliest-ask`, or the name
        /// given to [`simulate_with`](crate::simulate_with)).
        series: String,
        /// The cluster's index.
        cluster: usize,
        /// Local jobs that ran.
        ran: usize,
        /// Local jobs submitted.
        submitted: usize,
    },
    /// A deadline share outside `[0, 1]`.
    DeadlineShare {
        /// The share given.
        share: f64,
    },
    /// A deadline stringency that is not a positive finite factor.
    Stringency {
        /// The factor given.
        stringency: f64,
    },
    /// A stringency that puts a grid job's deadline past `Time::LIMIT`
    /// (2^40 s), outside the time domain.
    DeadlinePastLimit {
        /// The grid job.
        job: u64,
        /// The stringency given.
        stringency: f64,
        /// The deadline it gives, in seconds (saturated at `i64::MAX`).
        deadline: i64,
    },
    /// A bounded-slowdown bound below one second.
    BsldBound {
        /// The bound given, in seconds.
        bound: i64,
    },
    /// A [`ProviderPricing`](crate::ProviderPricing) field that is not a
    /// finite number in its range (a NaN weight once rejected every grid
    /// job as too expensive, silently).
    Pricing {
        /// The field: `alpha`, `beta`, `base_price`, `budget_factor` or
        /// `deadline_factor`.
        field: &'static str,
        /// The value given.
        value: f64,
        /// What the field takes.
        expected: &'static str,
    },
    /// A run measured on a scenario of as many jobs as the one it
    /// simulated, but not the same jobs: the first job whose id or submit
    /// time differs.
    ForeignJob {
        /// The job's cluster, `None` for a grid job.
        cluster: Option<usize>,
        /// Its position in that stream (from 0).
        position: usize,
        /// (id, submit) in the run.
        found: (u64, Time),
        /// (id, submit) in the scenario.
        expected: (u64, Time),
    },
    /// A cluster too large for [`Config::pricing`](crate::Config::pricing):
    /// the admission rule reads one node per processor, at most
    /// `pricing::MAX_NODES` of them (a cluster of `u32::MAX` processors
    /// once asked for 32 GiB per decision and aborted).
    PricedClusterTooLarge {
        /// The cluster's index.
        cluster: usize,
        /// Its processors.
        procs: u32,
        /// The most the pricing takes.
        max: usize,
    },
    /// A run measured on a scenario it was not simulated on.
    ForeignRun {
        /// What differs: `"grid jobs"`, `"clusters"` or `"local jobs on a cluster"`.
        what: &'static str,
        /// The scenario's number.
        expected: usize,
        /// The run's number.
        found: usize,
    },
}

impl fmt::Display for IntergridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntergridError::MalformedSeries { series } => write!(
                f,
                "series '{series}' must look like '<provider>+<gateway>', e.g. 'arcb+earliest-partial'"
            ),
            IntergridError::UnknownProvider { name } => {
                let names: Vec<&str> = ProviderPolicy::ALL.iter().map(|p| p.name()).collect();
                write!(
                    f,
                    "unknown provider policy '{name}', expected one of: {}",
                    names.join(", ")
                )
            }
            IntergridError::UnknownGateway { series, name } => {
                let [a, b, c] = GatewayKind::ALL.map(GatewayKind::name);
                write!(
                    f,
                    "unknown gateway policy '{name}' in '{series}', expected {a}, {b} or {c}"
                )
            }
            IntergridError::ClusterCount { clusters, local } => write!(
                f,
                "{clusters} clusters but {local} local workloads; give one local workload per cluster"
            ),
            IntergridError::Cluster {
                series,
                cluster,
                error,
            } => write!(f, "{series}: cluster {cluster}: {error}"),
            IntergridError::Gateway { series, error } => write!(f, "{series}: {error}"),
            IntergridError::InvalidSchedule {
                series,
                cluster,
                error,
            } => write!(f, "{series}: cluster {cluster}: {error}"),
            IntergridError::LocalJobsLost {
                series,
                cluster,
                ran,
                submitted,
            } => write!(
                f,
                "{series}: cluster {cluster}: {ran} local jobs ran, {submitted} were submitted"
            ),
            IntergridError::DeadlineShare { share } => {
                write!(
                    f,
                    "deadline share is {}, expected a share in [0, 1]",
                    ShortFloat(*share)
                )
            }
            IntergridError::Stringency { stringency } => write!(
                f,
                "deadline stringency is {}, expected a positive factor",
                ShortFloat(*stringency)
            ),
            IntergridError::DeadlinePastLimit {
                job,
                stringency,
                deadline,
            } => write!(
                f,
                "deadline stringency {} puts grid job {job}'s deadline at {deadline} s, \
                 past 2^40 s (about 34,800 years); give a smaller stringency",
                ShortFloat(*stringency)
            ),
            IntergridError::BsldBound { bound } => write!(
                f,
                "bounded-slowdown bound is {bound} s, expected at least 1 s"
            ),
            IntergridError::Pricing {
                field,
                value,
                expected,
            } => write!(
                f,
                "provider pricing: {field} is {}, expected {expected}",
                ShortFloat(*value)
            ),
            IntergridError::ForeignJob {
                cluster,
                position,
                found,
                expected,
            } => {
                match cluster {
                    None => write!(f, "grid job at position {position}")?,
                    Some(k) => write!(f, "cluster {k}'s local job at position {position}")?,
                }
                write!(
                    f,
                    ": a run simulated job {} submitted at {} where the scenario has job {} \
                     submitted at {}; measure runs on the scenario they simulated",
                    found.0, found.1, expected.0, expected.1
                )
            }
            IntergridError::PricedClusterTooLarge {
                cluster,
                procs,
                max,
            } => write!(
                f,
                "cluster {cluster} has {procs} processors; provider pricing prices one node per \
                 processor and takes at most {max}"
            ),
            IntergridError::ForeignRun {
                what,
                expected,
                found,
            } => write!(
                f,
                "a run has {found} {what} where the scenario has {expected}; measure runs on the scenario they simulated"
            ),
        }
    }
}

impl std::error::Error for IntergridError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IntergridError::Cluster { error, .. } => Some(error),
            IntergridError::Gateway { error, .. } => Some(error),
            IntergridError::InvalidSchedule { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// How a cluster's finished schedule breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// A job never started or never ended.
    NeverRan {
        /// Local or grid.
        origin: Origin,
        /// The job's id.
        job: u64,
    },
    /// A committed reservation started at another time than reserved.
    ReservationMoved {
        /// The job's id.
        job: u64,
        /// The reserved start.
        reserved: Time,
        /// The actual start.
        start: Time,
    },
    /// `profile::validate` found a broken rule (too many processors busy,
    /// a start before submission, a wrong end...).
    Invalid {
        /// What it found.
        violation: profile::Violation,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NeverRan { origin, job } => write!(f, "{origin} job {job} never ran"),
            Violation::ReservationMoved {
                job,
                reserved,
                start,
            } => write!(
                f,
                "reservation of job {job} for {reserved} started at {start}"
            ),
            Violation::Invalid { violation } => write!(f, "{violation}"),
        }
    }
}

impl std::error::Error for Violation {}
