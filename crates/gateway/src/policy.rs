//! The gateway's provisioning policy: where a grid job goes.

use profile::{Job, Time};

use crate::run::{GatewayPolicy, Information, Rejection};
use crate::view::SlotView;

/// A provider the gateway may send a job to, as the gateway knows it when
/// it decides: what [`Provisioning::choose`] sees of each provider wide
/// enough for the job.
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Candidate<'a> {
    /// The provider's index in the slice given to [`run`](crate::run).
    pub provider: usize,
    /// Its processors (at least the job's).
    pub capacity: u32,
    /// The utilisation it last reported, in `[0, 1]`; `0.0` before its
    /// first report, and never updated unless the policy asks for
    /// [`Provisioning::utilisation_reports`].
    pub utilisation: f64,
    /// The gateway's copy of its free time slots, asked for or published
    /// (reduced by the gateway's own placements when it tracks them);
    /// `None` while it has never described them.
    pub slots: Option<&'a SlotView>,
}

impl<'a> Candidate<'a> {
    /// A candidate, for calling a policy outside a run (tests, say).
    pub fn new(
        provider: usize,
        capacity: u32,
        utilisation: f64,
        slots: Option<&'a SlotView>,
    ) -> Candidate<'a> {
        Candidate {
            provider,
            capacity,
            utilisation,
            slots,
        }
    }
}

/// What the gateway does with a grid job, as a [`Provisioning`] policy
/// decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Choice {
    /// Hand the job to `provider`'s own scheduler now. With a `planned`
    /// start (`j_gst`) a later actual start is checked against it (a late
    /// start beyond the tolerance is a violation), and the gateway books
    /// the placement in its copy of the provider's slots.
    Submit {
        /// The chosen candidate's [`Candidate::provider`].
        provider: usize,
        /// The start the gateway expects, if it planned one.
        planned: Option<Time>,
    },
    /// Reserve the job's processors on `provider` from `start` in advance
    /// (request, then commit). A refusal is a violation; the provider then
    /// refreshes its slots at the gateway and the policy is asked again, up
    /// to [`GatewayConfig::max_attempts`](crate::GatewayConfig::max_attempts)
    /// times.
    Reserve {
        /// The chosen candidate's [`Candidate::provider`].
        provider: usize,
        /// The reserved start.
        start: Time,
    },
    /// Keep the job at the gateway: it is offered again when fresh slots
    /// arrive (a publication) or, under [`Information::Ask`], every
    /// [`GatewayConfig::retry_every`](crate::GatewayConfig::retry_every)
    /// seconds; it is rejected ([`Rejection::NoInformation`]) when neither
    /// can happen any more.
    Wait,
    /// Give up on the job.
    Reject(Rejection),
}

/// The gateway's provisioning policy: the extension point of the gateway.
///
/// [`run`](crate::run) owns the event loop (arrivals, the providers' own
/// events, periodic reports and publications, retries, two-phase
/// reservations, message counting and violations); at each decision it asks
/// the policy, with the job and every provider wide enough for it, what to
/// do ([`Choice`]). The policy also says which information the gateway
/// gathers for it, and so which messages the run costs.
///
/// The paper's policies are implementations: [`LeastLoad`], [`EarliestAsk`]
/// and [`EarliestPartial`]; [`GatewayPolicy`] names them in configurations
/// and runs them the same way; a policy of one's own goes to
/// [`GatewayConfig::new`](crate::GatewayConfig::new) like them.
pub trait Provisioning {
    /// Whether providers report their utilisation every
    /// [`GatewayConfig::report_every`](crate::GatewayConfig::report_every)
    /// seconds (one message per provider each time). Default: no.
    fn utilisation_reports(&self) -> bool {
        false
    }

    /// How the gateway learns the providers' free time slots, if at all:
    /// asked for before every decision ([`Information::Ask`], a request and
    /// a reply per candidate) or published periodically
    /// ([`Information::Partial`]). Default: never.
    fn slot_information(&self) -> Option<Information> {
        None
    }

    /// Decides what to do with `job` at `now`, given the providers wide
    /// enough for it (at least one, in index order). A [`Choice`] naming a
    /// provider that is not among `candidates` ends the run with
    /// [`GatewayError::Choice`](crate::GatewayError::Choice); a rejection
    /// gives the policy's own reason, [`Rejection::DeadlineUnreachable`] or
    /// [`Rejection::Custom`] (the other reasons are the gateway's findings:
    /// [`GatewayError::RejectReason`](crate::GatewayError::RejectReason)).
    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice;
}

/// `least-load`: to the provider that last reported the lowest utilisation
/// (the lowest index among equals), submitted at once with no planned
/// start; jobs with deadlines get no reservation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeastLoad;

impl Provisioning for LeastLoad {
    fn utilisation_reports(&self) -> bool {
        true
    }

    fn choose(&mut self, _now: Time, _job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        match candidates.iter().min_by(|a, b| {
            a.utilisation
                .total_cmp(&b.utilisation)
                .then(a.provider.cmp(&b.provider))
        }) {
            Some(c) => Choice::Submit {
                provider: c.provider,
                planned: None,
            },
            None => Choice::Reject(Rejection::TooWide),
        }
    }
}

/// `earliest-ask`: the gateway asks every candidate for its free time
/// slots for every job and picks the earliest start ([`earliest`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EarliestAsk;

impl Provisioning for EarliestAsk {
    fn slot_information(&self) -> Option<Information> {
        Some(Information::Ask)
    }

    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        earliest(now, job, candidates)
    }
}

/// `earliest-partial`: providers publish their free time slots every
/// `interval` seconds and the gateway picks the earliest start on its copy
/// ([`earliest`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "crate::run::serde_raw::EarliestPartial")
)]
pub struct EarliestPartial {
    /// Seconds between publications (1 to 2^40; [`run`](crate::run)
    /// refuses other values, and with the `serde` feature they are not read).
    pub interval: i64,
}

impl Provisioning for EarliestPartial {
    fn slot_information(&self) -> Option<Information> {
        Some(Information::Partial {
            interval: self.interval,
        })
    }

    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        earliest(now, job, candidates)
    }
}

/// The choice of both `earliest` policies: the candidate whose slots give
/// the earliest start (the lowest index among equals) that still lets the
/// job finish by its deadline. A job without a deadline is submitted there
/// with that start planned; a job with one gets an advance reservation. With
/// no such start, a job with a deadline is rejected
/// ([`Rejection::DeadlineUnreachable`]) and one without waits.
pub fn earliest(now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
    let latest = job.deadline.map(|d| d - job.estimate);
    let best = candidates
        .iter()
        .filter_map(|c| {
            let s = c.slots?.earliest_start(now, job.procs, job.estimate)?;
            latest.is_none_or(|l| s <= l).then_some((s, c.provider))
        })
        .min();
    match (best, job.deadline) {
        (Some((start, provider)), None) => Choice::Submit {
            provider,
            planned: Some(start),
        },
        (Some((start, provider)), Some(_)) => Choice::Reserve { provider, start },
        (None, Some(_)) => Choice::Reject(Rejection::DeadlineUnreachable),
        (None, None) => Choice::Wait,
    }
}

impl Provisioning for GatewayPolicy {
    fn utilisation_reports(&self) -> bool {
        match *self {
            GatewayPolicy::LeastLoaded => LeastLoad.utilisation_reports(),
            GatewayPolicy::EarliestStart(_) => false,
        }
    }

    fn slot_information(&self) -> Option<Information> {
        match *self {
            GatewayPolicy::LeastLoaded => None,
            GatewayPolicy::EarliestStart(info) => Some(info),
        }
    }

    fn choose(&mut self, now: Time, job: &Job, candidates: &[Candidate<'_>]) -> Choice {
        match *self {
            GatewayPolicy::LeastLoaded => LeastLoad.choose(now, job, candidates),
            GatewayPolicy::EarliestStart(Information::Ask) => {
                EarliestAsk.choose(now, job, candidates)
            }
            GatewayPolicy::EarliestStart(Information::Partial { interval }) => {
                EarliestPartial { interval }.choose(now, job, candidates)
            }
        }
    }
}
