//! The user-level job submission specification (§IV, eq. 1 and 2):
//! `job_i([JobDetails][ResourceRequirements][QoSConstraints][QoSOptimization])`.
//!
//! With the `serde` feature each segment is a serde type with
//! `deny_unknown_fields`, so a misspelt
//! parameter is an error rather than silently ignored. New segments are added
//! through the `X` parameter of [`JobSpec`], flattened beside the four basic
//! ones (a workflow application adds a data-dependency segment, say); the
//! default [`NoExtension`] accepts no other segment.

#[cfg(feature = "serde")]
use std::collections::BTreeMap;

#[cfg(feature = "serde")]
use serde::de::IgnoredAny;

use profile::MAX_DURATION;

use crate::error::{PricingError, amount, at_most, factor};

/// *JobDetails*: what the job is. With the `serde` feature a segment read
/// is checked as [`JobSpec::check`] checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(remote = "Self", deny_unknown_fields))]
pub struct JobDetails {
    /// `RE_i`: estimated seconds to complete the job on one node of the
    /// cluster's reference rating, with the node's full processor.
    pub runtime_estimate: i64,
}

/// *ResourceRequirements*: what each allocated node must provide. With the
/// `serde` feature a segment read is checked as [`JobSpec::check`] checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(remote = "Self", deny_unknown_fields))]
pub struct ResourceRequirements {
    /// `PROC_i`: processors (one per node) the job runs on.
    pub processors: u32,
    /// `MEM_i`: local memory needed on each node, in MB.
    #[cfg_attr(feature = "serde", serde(default))]
    pub memory_mb: u64,
    /// `DISK_i`: local disk needed on each node, in MB.
    #[cfg_attr(feature = "serde", serde(default))]
    pub disk_mb: u64,
}

/// *QoSConstraints*: what the cluster must fulfil. With the `serde` feature
/// a segment read is checked as [`JobSpec::check`] checks it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(remote = "Self", deny_unknown_fields))]
pub struct QoSConstraints {
    /// `D_i`: seconds from arrival by which the job must finish.
    pub deadline: i64,
    /// `B_i`: the most the user pays for the job finished by its deadline.
    pub budget: f64,
}

/// A QoS characteristic the user wants optimised.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Objective {
    /// `FT_i`: finish as early as possible within the budget.
    FinishTime,
    /// `C_i`: pay as little as possible within the deadline.
    Cost,
}

/// *QoSOptimization*: which characteristics to optimise, in priority order.
/// The paper's mechanisms (and this crate's admission control) ignore it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct QoSOptimization {
    /// The objectives, most important first.
    #[cfg_attr(feature = "serde", serde(default))]
    pub optimize: Vec<Objective>,
}

/// The extension of a plain [`JobSpec`]: no further segment is accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct NoExtension {}

/// A job submission: the four basic segments plus the extension segments `X`.
///
/// In TOML each segment is a table (with the `serde` feature); each segment
/// read is checked as [`JobSpec::check`] checks it, so a specification read
/// holds valid values:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// let spec: pricing::JobSpec = toml::from_str(r#"
///     [job_details]
///     runtime_estimate = 3600
///
///     [resource_requirements]
///     processors = 4
///     memory_mb = 512
///
///     [qos_constraints]
///     deadline = 7200
///     budget = 9000.0
///
///     [qos_optimization]
///     optimize = ["cost"]
/// "#)?;
/// spec.check()?;
/// assert_eq!(spec.resource_requirements.processors, 4);
/// assert_eq!(spec.resource_requirements.disk_mb, 0); // not asked for
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Another application model adds its own segment through `X`:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Default, Serialize, Deserialize)]
/// #[serde(deny_unknown_fields)]
/// struct Workflow {
///     data_dependency: Vec<u64>,
/// }
///
/// let spec: pricing::JobSpec<Workflow> = toml::from_str(r#"
///     data_dependency = [17, 18]
///     [job_details]
///     runtime_estimate = 60
///     [resource_requirements]
///     processors = 1
///     [qos_constraints]
///     deadline = 600
///     budget = 120.0
/// "#)?;
/// assert_eq!(spec.extension.data_dependency, [17, 18]);
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "RawJobSpec<X>",
        bound(deserialize = "X: serde::Deserialize<'de>")
    )
)]
pub struct JobSpec<X = NoExtension> {
    /// *JobDetails*.
    pub job_details: JobDetails,
    /// *ResourceRequirements*.
    pub resource_requirements: ResourceRequirements,
    /// *QoSConstraints*.
    pub qos_constraints: QoSConstraints,
    /// *QoSOptimization*, if the user gave one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub qos_optimization: Option<QoSOptimization>,
    /// Further segments.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub extension: X,
}

/// A [`JobSpec`] as read, with whatever segments nobody claimed.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "X: serde::Deserialize<'de>"))]
struct RawJobSpec<X> {
    job_details: JobDetails,
    resource_requirements: ResourceRequirements,
    qos_constraints: QoSConstraints,
    #[serde(default)]
    qos_optimization: Option<QoSOptimization>,
    #[serde(flatten)]
    extension: X,
    #[serde(flatten)]
    unknown: BTreeMap<String, IgnoredAny>,
}

#[cfg(feature = "serde")]
impl<X> TryFrom<RawJobSpec<X>> for JobSpec<X> {
    type Error = String;

    fn try_from(raw: RawJobSpec<X>) -> Result<Self, String> {
        if let Some(name) = raw.unknown.keys().next() {
            return Err(format!(
                "unknown segment `{name}`, expected job_details, resource_requirements, \
                 qos_constraints, qos_optimization or a segment of the extension type"
            ));
        }
        Ok(JobSpec {
            job_details: raw.job_details,
            resource_requirements: raw.resource_requirements,
            qos_constraints: raw.qos_constraints,
            qos_optimization: raw.qos_optimization,
            extension: raw.extension,
        })
    }
}

impl JobSpec {
    /// The simplified specification the paper's mechanisms use (§VI-A):
    /// `RE_i`, `PROC_i`, `D_i` and `B_i`, no memory or disk, no optimisation.
    pub fn new(runtime_estimate: i64, processors: u32, deadline: i64, budget: f64) -> JobSpec {
        JobSpec {
            job_details: JobDetails { runtime_estimate },
            resource_requirements: ResourceRequirements {
                processors,
                memory_mb: 0,
                disk_mb: 0,
            },
            qos_constraints: QoSConstraints { deadline, budget },
            qos_optimization: None,
            extension: NoExtension {},
        }
    }
}

impl<X> JobSpec<X> {
    /// Checks the values: an estimate and a deadline of at least one second
    /// and at most `profile::MAX_DURATION` (2^40 s), at least one processor,
    /// a finite budget `>= 0`. (Formerly `validate`: that verb now only
    /// names checking a schedule.)
    pub fn check(&self) -> Result<(), PricingError> {
        check_segments(
            &self.job_details,
            &self.resource_requirements,
            &self.qos_constraints,
        )
    }
}

/// [`JobSpec::check`] over the segments it reads.
pub(crate) fn check_segments(
    details: &JobDetails,
    resources: &ResourceRequirements,
    qos: &QoSConstraints,
) -> Result<(), PricingError> {
    details.check()?;
    resources.check()?;
    qos.check()
}

/// `Ok` for a duration in `[1, 2^40]` s, else an error naming it.
fn seconds(name: &'static str, value: i64) -> Result<i64, PricingError> {
    amount(name, value, 1, "a positive number of seconds")?;
    at_most(
        name,
        value,
        MAX_DURATION,
        "at most 2^40 s (about 34,800 years)",
    )
}

impl JobDetails {
    fn check(&self) -> Result<(), PricingError> {
        seconds("runtime estimate", self.runtime_estimate).map(drop)
    }
}

impl ResourceRequirements {
    fn check(&self) -> Result<(), PricingError> {
        amount("processors", i64::from(self.processors), 1, "at least 1").map(drop)
    }
}

impl QoSConstraints {
    fn check(&self) -> Result<(), PricingError> {
        seconds("deadline", self.deadline)?;
        factor("budget", self.budget).map(drop)
    }
}

#[cfg(feature = "serde")]
checked_serde!(JobDetails, JobDetails::check);
#[cfg(feature = "serde")]
checked_serde!(ResourceRequirements, ResourceRequirements::check);
#[cfg(feature = "serde")]
checked_serde!(QoSConstraints, QoSConstraints::check);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_is_the_simplified_specification() {
        let spec = JobSpec::new(60, 2, 600, 100.0);
        assert_eq!(spec.job_details.runtime_estimate, 60);
        assert_eq!(spec.resource_requirements.memory_mb, 0);
        assert_eq!(spec.qos_optimization, None);
        assert_eq!(spec.check(), Ok(()));
    }

    #[test]
    fn check_names_the_field() {
        let check = |spec: JobSpec, msg: &str| {
            assert_eq!(spec.check().unwrap_err().to_string(), msg);
        };
        check(
            JobSpec::new(0, 1, 10, 1.0),
            "runtime estimate is 0, expected a positive number of seconds",
        );
        check(
            JobSpec::new(5, 0, 10, 1.0),
            "processors is 0, expected at least 1",
        );
        check(
            JobSpec::new(5, 1, -3, 1.0),
            "deadline is -3, expected a positive number of seconds",
        );
        check(
            JobSpec::new(5, 1, 10, f64::NAN),
            "budget is NaN, expected a finite number >= 0",
        );
        check(
            JobSpec::new(i64::MAX, 1, 10, 1.0),
            "runtime estimate is 9223372036854775807, expected at most 2^40 s (about 34,800 years)",
        );
        check(
            JobSpec::new(5, 1, (1 << 40) + 1, 1.0),
            "deadline is 1099511627777, expected at most 2^40 s (about 34,800 years)",
        );
    }
}
