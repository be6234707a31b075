//! Why a run could not take place: [`GatewayError`], and what is
//! impossible about a provider's report, [`ReportProblem`].

use std::fmt;

use profile::Time;

/// A run that could not take place.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum GatewayError {
    /// No provider was given.
    NoProviders,
    /// Grid jobs must come in submit order.
    Unsorted {
        /// Position of the first job out of order.
        index: usize,
    },
    /// Two grid jobs share an id (reports name jobs by id).
    DuplicateId {
        /// The id both carry.
        id: u64,
        /// Position of the first grid job with it.
        first: usize,
        /// Position of the second grid job with it.
        second: usize,
    },
    /// A period is not a number of seconds from 1 to 2^40.
    Period {
        /// Which one.
        name: &'static str,
        /// Its value in seconds.
        value: i64,
    },
    /// A provider never started or ended a job it accepted: the run ended
    /// with the job unfinished, or the provider kept giving itself events
    /// ([`MAX_QUIET_TURNS`](super::MAX_QUIET_TURNS) turns in a row) without
    /// ending it.
    Stuck {
        /// The job's id.
        job: u64,
        /// The provider's index.
        provider: usize,
    },
    /// Providers' own events alone turned the loop more than
    /// [`MAX_QUIET_TURNS`](super::MAX_QUIET_TURNS) times in a row, with no
    /// report, grid arrival or timer reaching the gateway, and no job
    /// handed to a provider left unfinished: the run would not end.
    Quiet {
        /// The provider with the earliest next event then.
        provider: usize,
        /// The last turn.
        now: Time,
    },
    /// A setting outside its accepted range: a time of the timers outside
    /// ±2^40 s, more than [`MAX_ATTEMPTS`](super::MAX_ATTEMPTS) reservation attempts.
    Setting {
        /// Which one.
        name: &'static str,
        /// Its value.
        value: i64,
        /// The least accepted value.
        min: i64,
        /// The greatest accepted value.
        max: i64,
    },
    /// A grid job outside the time domain: its submit time or deadline
    /// outside ±2^40 s (`Time::LIMIT`), its estimate or run time longer
    /// than 2^40 s (`profile::MAX_DURATION`).
    Job {
        /// The job's id.
        id: u64,
        /// Which field.
        field: &'static str,
        /// Its value, in seconds.
        value: i64,
        /// The least accepted value.
        min: i64,
        /// The greatest accepted value.
        max: i64,
    },
    /// The provisioning policy chose a provider that is not among the job's
    /// candidates (no such provider, or one too narrow for the job).
    Choice {
        /// The job's id.
        job: u64,
        /// The provider chosen.
        provider: usize,
    },
    /// The provisioning policy's [`Provisioning::choose`](crate::Provisioning::choose)
    /// answered a reserved or planned start before the gateway's clock.
    ChoiceInThePast {
        /// The job's id.
        job: u64,
        /// Which time: `Choice::Reserve start` or `Choice::Submit planned start`.
        what: &'static str,
        /// The time answered.
        at: Time,
        /// The gateway's clock.
        now: Time,
    },
    /// The provisioning policy's [`Provisioning::choose`](crate::Provisioning::choose)
    /// answered a start from which the job, for its estimate, would end
    /// after [`Time::LATEST`]: no schedule holds it.
    ChoiceBeyondLatest {
        /// The job's id.
        job: u64,
        /// Which time: `Choice::Reserve start` or `Choice::Submit planned start`.
        what: &'static str,
        /// The time answered.
        at: Time,
    },
    /// The provisioning policy's [`Provisioning::choose`](crate::Provisioning::choose)
    /// rejected a job with a reason only the gateway finds
    /// ([`Rejection::policy_may_answer`](crate::Rejection::policy_may_answer)
    /// is false): `TooWide` although it was given candidates wide enough,
    /// `RefusedTooOften`, `Refused` or `NoInformation`.
    RejectReason {
        /// The job's id.
        job: u64,
        /// The reason answered.
        reason: super::Rejection,
    },
    /// A provider's [`Provider::utilisation`](crate::Provider::utilisation)
    /// was not a share in `[0, 1]` (NaN, negative or above 1).
    Utilisation {
        /// The provider's index.
        provider: usize,
        /// When it was asked.
        now: Time,
        /// What it answered.
        value: f64,
    },
    /// A provider still had an event at or before the gateway's clock after
    /// being advanced to it: it breaks the [`Provider`](crate::Provider) contract, and the
    /// run could not move on.
    ProviderClock {
        /// The provider's index.
        provider: usize,
        /// The gateway's clock.
        now: Time,
        /// The event the provider still reports.
        event: Time,
    },
    /// A provider reported a start or an end of a grid job that the
    /// gateway's own record of the run rules out (a job it never handed to
    /// that provider, an end before the start, a second start, ...): the
    /// provider breaks the [`Provider`](crate::Provider) contract, and
    /// taking the report would give a wrong [`Fate`](crate::Fate).
    Report {
        /// The reporting provider's index.
        provider: usize,
        /// The job id the report names.
        job: u64,
        /// Whether it reported a start (`true`) or an end.
        started: bool,
        /// The instant reported.
        at: Time,
        /// The gateway's clock when the report came.
        now: Time,
        /// What is impossible about it.
        problem: ReportProblem,
    },
}

/// What rules out a provider's [`Report`](crate::Report) of a start or an
/// end ([`GatewayError::Report`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReportProblem {
    /// The job is not a grid job of this run.
    UnknownJob,
    /// The gateway never handed the job to this provider: it handed it to
    /// `sent_to`, or (`None`) to no provider.
    NotSent {
        /// The provider the job was handed to, if any.
        sent_to: Option<usize>,
    },
    /// The job was already reported started, at `first`.
    AlreadyStarted {
        /// The start reported first.
        first: Time,
    },
    /// The job was already reported ended, at `first`.
    AlreadyEnded {
        /// The end reported first.
        first: Time,
    },
    /// An end with no start reported before it.
    EndWithoutStart,
    /// A start before the gateway handed the job over, at `placed`.
    BeforeHandOver {
        /// When the job was handed over (submitted or reserved).
        placed: Time,
    },
    /// An end before the job's reported start.
    EndBeforeStart {
        /// The reported start.
        start: Time,
    },
    /// An instant after the gateway's clock: the provider was advanced
    /// only up to the clock.
    InTheFuture,
    /// An end that is not the job's reported start plus its run time, or
    /// plus its estimate when the run time is longer: in the model a job
    /// runs its run time, and one that outlives its estimate is killed
    /// there (its reservation, and the slots the provider published, end
    /// at the estimate).
    WrongEnd {
        /// The reported start.
        start: Time,
        /// The end the start gives: `start + min(run time, estimate)`.
        expected: Time,
    },
}

impl fmt::Display for ReportProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportProblem::UnknownJob => f.write_str("no grid job has that id"),
            ReportProblem::NotSent { sent_to: Some(k) } => {
                write!(f, "the job was handed to provider {k}, not to this one")
            }
            ReportProblem::NotSent { sent_to: None } => {
                f.write_str("the job was never handed to any provider")
            }
            ReportProblem::AlreadyStarted { first } => {
                write!(f, "the job was already reported started at {first}")
            }
            ReportProblem::AlreadyEnded { first } => {
                write!(f, "the job was already reported ended at {first}")
            }
            ReportProblem::EndWithoutStart => f.write_str("no start was reported before it"),
            ReportProblem::BeforeHandOver { placed } => {
                write!(f, "that is before the job was handed over at {placed}")
            }
            ReportProblem::EndBeforeStart { start } => {
                write!(f, "that is before its reported start at {start}")
            }
            ReportProblem::InTheFuture => {
                f.write_str("that is after the gateway's clock, which the provider was advanced to")
            }
            ReportProblem::WrongEnd { start, expected } => write!(
                f,
                "it started at {start}, so it ends at {expected}: its run time after the start, \
                 or its estimate if the run time is longer (the job is killed there)"
            ),
        }
    }
}

impl fmt::Display for GatewayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GatewayError::NoProviders => {
                f.write_str("no provider given; give the gateway at least one")
            }
            GatewayError::Unsorted { index } => write!(
                f,
                "grid job at position {index} is submitted before its predecessor; sort grid jobs by submit time"
            ),
            GatewayError::DuplicateId { id, first, second } => write!(
                f,
                "grid jobs at positions {first} and {second} both have id {id}; give every grid job its own id"
            ),
            GatewayError::Period { name, value } => {
                write!(
                    f,
                    "{name} is {value} s; give a number of seconds from 1 to 2^40"
                )
            }
            GatewayError::Stuck { job, provider } => write!(
                f,
                "provider {provider} accepted job {job} but never ran it to its end; the provider's scheduler is faulty"
            ),
            GatewayError::Quiet { provider, now } => write!(
                f,
                "providers' own events turned the gateway's loop more than {} times in a row up to {now}, with no report, arrival or timer between them (provider {provider} next): the run would never end; a provider's next event should come only where it has something to do",
                super::MAX_QUIET_TURNS
            ),
            GatewayError::Setting {
                name,
                value,
                min,
                max,
            } => write!(f, "{name} is {value}, outside [{min}, {max}]"),
            GatewayError::Job {
                id,
                field,
                value,
                min,
                max,
            } => write!(
                f,
                "grid job {id}: {field} is {value} s, outside [{min}, {max}]; times must lie \
                 within 2^40 s (about 34,800 years) of the origin and durations be at most 2^40 s"
            ),
            GatewayError::Choice { job, provider } => write!(
                f,
                "the provisioning policy (Provisioning::choose) chose provider {provider} for \
                 grid job {job}, which is not among its candidates; choose one of the candidates \
                 it was given"
            ),
            GatewayError::ChoiceInThePast { job, what, at, now } => write!(
                f,
                "the provisioning policy (Provisioning::choose) answered a {what} of {at} for \
                 grid job {job} at {now}, which is in the past; answer a start at or after now"
            ),
            GatewayError::ChoiceBeyondLatest { job, what, at } => write!(
                f,
                "the provisioning policy (Provisioning::choose) answered a {what} of {at} for \
                 grid job {job}, from which the job would end after the latest instant a \
                 schedule can hold ({}); answer a start at most its estimate before it",
                Time::LATEST
            ),
            GatewayError::RejectReason { job, reason } => write!(
                f,
                "the provisioning policy (Provisioning::choose) rejected grid job {job} with \
                 Rejection::{reason:?} (\"{reason}\"), a reason only the gateway finds; reject \
                 with Rejection::DeadlineUnreachable or Rejection::Custom(your reason)"
            ),
            GatewayError::Utilisation {
                provider,
                now,
                value,
            } => write!(
                f,
                "provider {provider} (Provider::utilisation) reported a utilisation of {} at \
                 {now}, expected a share in [0, 1]; the provider's report is faulty",
                profile::ShortFloat(*value)
            ),
            GatewayError::ProviderClock {
                provider,
                now,
                event,
            } => write!(
                f,
                "provider {provider} still has an event at {event} after being advanced to {now}; \
                 the provider's scheduler is faulty"
            ),
            GatewayError::Report {
                provider,
                job,
                started,
                at,
                now,
                problem,
            } => write!(
                f,
                "provider {provider} reported grid job {job} {what} at {at} (gateway clock {now}), \
                 which is impossible: {problem}; the provider's reports are faulty",
                what = if *started { "started" } else { "ended" }
            ),
        }
    }
}

impl std::error::Error for GatewayError {}
