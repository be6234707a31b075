//! What a run produced: each grid job's [`Fate`] (and why the gateway gave
//! up on one, [`Rejection`]), and the run's [`GridRun`].

use std::fmt;

use profile::Time;

use crate::messages::MessageCounter;
use crate::violation::ViolationLog;

/// Why the gateway gave up on a grid job.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Rejection {
    /// No provider has that many processors.
    TooWide,
    /// No slot the gateway knows of lets the job finish by its deadline.
    DeadlineUnreachable,
    /// Every reservation attempt was refused.
    RefusedTooOften,
    /// The provider would not take the job.
    Refused(String),
    /// The job was still waiting for slots when information stopped coming.
    NoInformation,
    /// The provisioning policy's own reason: a user's
    /// [`Provisioning::choose`](crate::Provisioning::choose) rejects with it
    /// when no other variant says why.
    Custom(String),
}

impl Rejection {
    /// Whether a provisioning policy may answer this reason
    /// ([`Choice::Reject`](crate::Choice::Reject)): `DeadlineUnreachable`
    /// and `Custom`. The others are the gateway's own findings (no provider
    /// wide enough, every attempt refused, a provider's refusal, no slot
    /// offered before information stopped), and a policy answering one
    /// would put a false reason in the record.
    pub fn policy_may_answer(&self) -> bool {
        matches!(self, Rejection::DeadlineUnreachable | Rejection::Custom(_))
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::TooWide => f.write_str("no provider has that many processors"),
            Rejection::DeadlineUnreachable => f.write_str("no known slot meets the deadline"),
            Rejection::RefusedTooOften => f.write_str("every reservation attempt was refused"),
            Rejection::Refused(why) => write!(f, "refused by the provider: {why}"),
            Rejection::NoInformation => f.write_str("no slot was ever offered"),
            Rejection::Custom(why) => write!(f, "rejected by the provisioning policy: {why}"),
        }
    }
}

/// What became of one grid job: it ran, or it was rejected with a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Fate {
    /// It ran.
    Ran {
        /// Index of the provider.
        provider: usize,
        /// When it was handed over (submitted or reserved).
        placed: Time,
        /// The start the gateway planned from the slots (`j_gst`), if any.
        planned: Option<Time>,
        /// Whether it ran under an advance reservation.
        reserved: bool,
        /// Its actual start (`j_pst`).
        start: Time,
        /// Its end.
        end: Time,
    },
    /// It never ran.
    Rejected {
        /// Why.
        reason: Rejection,
        /// When the gateway gave up.
        at: Time,
    },
}

/// Everything a gateway run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRun {
    /// One fate per grid job, in input order.
    pub fates: Vec<Fate>,
    /// Every message exchanged.
    pub messages: MessageCounter,
    /// The messages exchanged from `measure_from` to when the timers stop.
    pub measured: MessageCounter,
    /// Every violation.
    pub violations: ViolationLog,
}
