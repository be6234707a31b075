//! The job a pricing function or an admission rule decides about: who it
//! is, when it arrived, and its whole submission specification.

use std::any::Any;

use profile::Time;

use crate::error::PricingError;
use crate::spec::{
    JobDetails, JobSpec, QoSConstraints, QoSOptimization, ResourceRequirements, check_segments,
};

/// Job `i` as a [`PriceFunction`](crate::PriceFunction) and an
/// [`Admission`](crate::Admission) rule see it: its identifier, its arrival
/// `AT_i` and the segments of its [`JobSpec`], the extension segments
/// included (typed, through [`JobContext::extension`]).
///
/// The built-in pricing functions and Libra's admission read only the
/// [`Quote`](crate::Quote) and the specification's `RE_i`, `PROC_i`,
/// memory, disk and `B_i`, as before; the identity and arrival are there
/// for a user's rule (a per-user quota, a price by time of day, ...).
///
/// ```
/// use pricing::{JobContext, JobSpec};
/// use profile::Time;
///
/// let spec = JobSpec::new(3600, 4, 7200, 9000.0);
/// let job = JobContext::new(17, Time(600), &spec);
/// assert_eq!((job.id, job.processors(), job.qos_constraints.budget), (17, 4, 9000.0));
/// assert_eq!(job.deadline_time(), Time(7800)); // DT = AT + D
/// assert!(job.extension::<pricing::NoExtension>().is_some());
/// ```
#[derive(Copy, Clone, Debug)]
pub struct JobContext<'a> {
    /// The caller's identifier of the job.
    pub id: u64,
    /// `AT_i`: when the job arrived (the time of the decision).
    pub arrival: Time,
    /// *JobDetails*: `RE_i`.
    pub job_details: &'a JobDetails,
    /// *ResourceRequirements*: `PROC_i`, memory and disk per node.
    pub resource_requirements: &'a ResourceRequirements,
    /// *QoSConstraints*: `D_i` and `B_i` (the budget is read here: a
    /// float as given, finite once [`JobContext::check`] has passed).
    pub qos_constraints: &'a QoSConstraints,
    /// *QoSOptimization*, if the user gave one.
    pub qos_optimization: Option<&'a QoSOptimization>,
    /// The specification's extension segments (its `X`), to be read back
    /// with [`JobContext::extension`].
    pub segments: &'a dyn Any,
}

impl<'a> JobContext<'a> {
    /// Job `id`, arriving at `arrival` with specification `spec`.
    pub fn new<X: Any>(id: u64, arrival: Time, spec: &'a JobSpec<X>) -> JobContext<'a> {
        JobContext {
            id,
            arrival,
            job_details: &spec.job_details,
            resource_requirements: &spec.resource_requirements,
            qos_constraints: &spec.qos_constraints,
            qos_optimization: spec.qos_optimization.as_ref(),
            segments: &spec.extension,
        }
    }

    /// Checks the specification's values, as [`JobSpec::check`] does.
    pub fn check(&self) -> Result<(), PricingError> {
        check_segments(
            self.job_details,
            self.resource_requirements,
            self.qos_constraints,
        )
    }

    /// `RE_i`: the run-time estimate on a reference node, in seconds.
    pub fn runtime_estimate(&self) -> i64 {
        self.job_details.runtime_estimate
    }

    /// `PROC_i`: the processors (one per node) the job asks for.
    pub fn processors(&self) -> u32 {
        self.resource_requirements.processors
    }

    /// `D_i`: seconds from arrival to the deadline.
    pub fn deadline(&self) -> i64 {
        self.qos_constraints.deadline
    }

    /// `DT_i = AT_i + D_i`, the absolute deadline (saturating).
    pub fn deadline_time(&self) -> Time {
        self.arrival.saturating_add(self.qos_constraints.deadline)
    }

    /// The extension segments, if the specification's `X` is `T`.
    pub fn extension<T: Any>(&self) -> Option<&'a T> {
        self.segments.downcast_ref::<T>()
    }
}
