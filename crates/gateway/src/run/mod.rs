//! The gateway's policies and the simulation loop that plays them out.

mod check;
mod error;
mod outcome;
#[cfg(feature = "serde")]
pub(crate) mod serde_raw;

use std::collections::HashMap;

use profile::{Job, Time};

pub(crate) use self::check::check_choice;
use self::check::{check_job, check_settings, check_ticks, check_utilisation};
pub use self::error::{GatewayError, ReportProblem};
pub use self::outcome::{Fate, GridRun, Rejection};
use crate::messages::{Message, MessageCounter};
use crate::policy::{Candidate, Choice, Provisioning};
use crate::provider::{Provider, Report};
use crate::view::SlotView;
use crate::violation::{PAPER_TOLERANCE, ViolationLog};

/// How the gateway learns the providers' free time slots.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "serde", serde(try_from = "serde_raw::Information"))]
pub enum Information {
    /// `ask`: it requests the slots of every provider for every job it schedules.
    Ask,
    /// `partial`: every provider publishes its slots every `interval` seconds
    /// (1 to 2^40; [`run`] refuses other values, and with the `serde`
    /// feature they are not read).
    Partial {
        /// Seconds between publications.
        interval: i64,
    },
}

/// Where the gateway sends a grid job: the paper's policies by name, for
/// configurations. It implements [`Provisioning`] by running
/// [`LeastLoad`](crate::LeastLoad), [`EarliestAsk`](crate::EarliestAsk) or
/// [`EarliestPartial`](crate::EarliestPartial); a policy of one's own is a
/// [`Provisioning`] implementation given to [`GatewayConfig::new`] instead.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum GatewayPolicy {
    /// `least-load`: to the provider that last reported the lowest
    /// utilisation (reports every [`GatewayConfig::report_every`] seconds).
    LeastLoaded,
    /// `earliest`: to the provider whose slots give the earliest start;
    /// a job with a deadline gets an advance reservation there.
    EarliestStart(Information),
}

impl GatewayPolicy {
    /// `least-load`, `earliest-ask` or `earliest-partial`.
    pub fn name(&self) -> &'static str {
        match self {
            GatewayPolicy::LeastLoaded => "least-load",
            GatewayPolicy::EarliestStart(Information::Ask) => "earliest-ask",
            GatewayPolicy::EarliestStart(Information::Partial { .. }) => "earliest-partial",
        }
    }
}

/// The most times a periodic message may fire in one run: 10,000,000 per
/// timer (utilisation reports, publications, retries). With reports every
/// 10 minutes that is 190 years of simulated time; the paper's four months
/// need about 17,500. [`run`] refuses a configuration whose timers would fire
/// more often, before it starts ([`GatewayError::Period`]).
pub const MAX_TICKS: i64 = 10_000_000;

/// The most turns of [`run`]'s loop in a row that only providers' own
/// events cause, with no report, grid arrival or timer reaching the gateway
/// between them: 10,000,000. One more ends the run: with
/// [`GatewayError::Stuck`] naming the first job a provider took and has not
/// ended, else with [`GatewayError::Quiet`]. A provider that keeps giving
/// itself events without ever starting or ending what it took would
/// otherwise keep the run from ending.
pub const MAX_QUIET_TURNS: u64 = 10_000_000;

/// The most reservation attempts per job ([`GatewayConfig::max_attempts`]):
/// 1,000 (the paper's setting is 10).
pub const MAX_ATTEMPTS: u32 = 1_000;

/// Everything [`run`] needs besides providers and jobs: the provisioning
/// policy `Q` (by default a built-in, [`GatewayPolicy`]) and the settings.
///
/// [`run`] checks the settings before it starts; with the `serde` feature
/// a configuration whose settings it would refuse is not read (the error
/// names the setting).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "serde_raw::GatewayConfig<Q>",
        bound(deserialize = "Q: serde::Deserialize<'de> + Provisioning")
    )
)]
pub struct GatewayConfig<Q = GatewayPolicy> {
    /// The provisioning policy; [`run`] plays out a clone of it.
    pub policy: Q,
    /// Seconds between utilisation reports (least-load; 600 in the paper).
    pub report_every: i64,
    /// How far ahead providers describe their slots, in seconds (1 s to
    /// 2^40 s); `None` for the paper's unlimited horizon.
    pub horizon: Option<i64>,
    /// The violation tolerance `T` in seconds (20 in the paper).
    pub tolerance: u32,
    /// Whether the gateway takes its own placements out of a provider's
    /// published slots until the provider publishes again.
    pub track_allocations: bool,
    /// Reservation attempts per deadline-constrained job before it is
    /// rejected, at most [`MAX_ATTEMPTS`].
    pub max_attempts: u32,
    /// Seconds between retries of jobs waiting at the gateway for slots
    /// (`ask` only; under `partial` they are retried at each publication).
    pub retry_every: i64,
    /// When the first report and publication happen (within ±2^40 s).
    pub start: Time,
    /// Periodic reports and publications stop after this time (within
    /// ±2^40 s); `None` for the last grid arrival.
    pub timers_until: Option<Time>,
    /// Messages before this time are left out of [`GridRun::measured`].
    pub measure_from: Time,
}

impl<Q> GatewayConfig<Q> {
    /// The paper's settings for `policy`: reports every 10 minutes,
    /// unlimited horizon, `T = 20 s`, own allocations tracked.
    pub fn new(policy: Q) -> GatewayConfig<Q> {
        GatewayConfig {
            policy,
            report_every: 600,
            horizon: None,
            tolerance: PAPER_TOLERANCE,
            track_allocations: true,
            max_attempts: 10,
            retry_every: 600,
            start: Time::ZERO,
            timers_until: None,
            measure_from: Time::ZERO,
        }
    }

    /// Sets when periodic reports and publications stop.
    pub fn timers_until(mut self, t: Time) -> Self {
        self.timers_until = Some(t);
        self
    }

    /// Sets when message counting for [`GridRun::measured`] starts.
    pub fn measure_from(mut self, t: Time) -> Self {
        self.measure_from = t;
        self
    }

    /// Sets whether the gateway tracks its own allocations.
    pub fn track_allocations(mut self, on: bool) -> Self {
        self.track_allocations = on;
        self
    }

    /// Sets the violation tolerance in seconds.
    pub fn tolerance(mut self, secs: u32) -> Self {
        self.tolerance = secs;
        self
    }

    /// Sets the slot horizon in seconds (`None`: unlimited).
    pub fn horizon(mut self, secs: Option<i64>) -> Self {
        self.horizon = secs;
        self
    }
}

/// The gateway's bookkeeping of one job.
#[derive(Clone, Debug, Default)]
struct Track {
    provider: Option<usize>,
    placed: Time,
    planned: Option<Time>,
    reserved: bool,
    start: Option<Time>,
    end: Option<Time>,
    rejected: Option<(Rejection, Time)>,
}

struct Gateway<'a, Q> {
    config: &'a GatewayConfig<Q>,
    jobs: &'a [Job],
    index: HashMap<u64, usize>,
    track: Vec<Track>,
    views: Vec<Option<SlotView>>,
    utilisation: Vec<f64>,
    queue: Vec<usize>,
    messages: MessageCounter,
    measured: MessageCounter,
    violations: ViolationLog,
    timers_until: Time,
    unsettled: usize,
    /// The providers wide enough for the job being scheduled, in order (a
    /// buffer kept from job to job).
    capable: Vec<usize>,
}

impl<Q: Provisioning> Gateway<'_, Q> {
    fn count(&mut self, now: Time, m: Message) {
        self.messages.record(m);
        if now >= self.config.measure_from && now <= self.timers_until {
            self.measured.record(m);
        }
    }

    fn horizon(&self, now: Time) -> Time {
        self.config
            .horizon
            .map_or(Time::MAX, |h| now.saturating_add(h))
    }

    /// The error for a run that providers' own events alone turned more
    /// than [`MAX_QUIET_TURNS`] times in a row, up to `now`: the first job
    /// a provider took and has not ended, else the provider whose events
    /// came first (`nexts`, their next events as last read).
    #[cold]
    fn quiet(&self, now: Time, nexts: &[Option<Time>]) -> GatewayError {
        let held = self
            .track
            .iter()
            .enumerate()
            .find(|(j, t)| t.provider.is_some() && t.end.is_none() && !self.settled(*j));
        match held {
            Some((j, t)) => GatewayError::Stuck {
                job: self.jobs[j].id,
                provider: t.provider.unwrap_or(usize::MAX),
            },
            None => GatewayError::Quiet {
                provider: (0..nexts.len())
                    .min_by_key(|&k| nexts[k].unwrap_or(Time::MAX))
                    .unwrap_or(0),
                now,
            },
        }
    }

    fn reject(&mut self, j: usize, reason: Rejection, now: Time) {
        if !self.settled(j) {
            self.unsettled -= 1;
        }
        self.track[j].rejected = Some((reason, now));
    }

    fn refresh<P: Provider>(&mut self, now: Time, k: usize, p: &mut P, m: Message) {
        let slots = p.free_slots(now, self.horizon(now));
        self.views[k] = Some(SlotView::from_slots(p.capacity(), now, &slots));
        self.count(now, m);
    }

    /// Takes provider `k`'s reports at `now`, each checked against the
    /// gateway's record first ([`GatewayError::Report`]); returns whether
    /// they held fresh slots.
    fn handle<P: Provider>(
        &mut self,
        now: Time,
        k: usize,
        p: &P,
        reports: Vec<Report>,
    ) -> Result<bool, GatewayError> {
        let mut fresh = false;
        for r in reports {
            match r {
                Report::Started { job, at } => {
                    let j = self.check_report(now, k, job, at, true)?;
                    self.track[j].start = Some(at);
                    if let Some(planned) = self.track[j].planned {
                        self.violations.check_start(job, planned, at);
                    }
                }
                Report::Ended { job, at } => {
                    let j = self.check_report(now, k, job, at, false)?;
                    if !self.settled(j) {
                        self.unsettled -= 1;
                    }
                    self.track[j].end = Some(at);
                }
                Report::Slots(slots) => {
                    self.views[k] = Some(SlotView::from_slots(p.capacity(), now, &slots));
                    self.count(now, Message::SlotPublication);
                    fresh = true;
                }
            }
        }
        Ok(fresh)
    }

    /// The index of grid job `job` if provider `k` may report it `started`
    /// (else ended) at `at` when the clock is `now`: the gateway handed the
    /// job to `k`, a start comes once, at or after the hand-over, an end
    /// once, after a start, at the start plus the job's run time (its
    /// estimate if the run time is longer: the kill), and neither after `now`.
    fn check_report(
        &self,
        now: Time,
        k: usize,
        job: u64,
        at: Time,
        started: bool,
    ) -> Result<usize, GatewayError> {
        let error = |problem| GatewayError::Report {
            provider: k,
            job,
            started,
            at,
            now,
            problem,
        };
        let &j = self
            .index
            .get(&job)
            .ok_or_else(|| error(ReportProblem::UnknownJob))?;
        let t = &self.track[j];
        let problem = if t.provider != Some(k) {
            Some(ReportProblem::NotSent {
                sent_to: t.provider,
            })
        } else if at > now {
            Some(ReportProblem::InTheFuture)
        } else if started {
            match t.start {
                Some(first) => Some(ReportProblem::AlreadyStarted { first }),
                None if at < t.placed => Some(ReportProblem::BeforeHandOver { placed: t.placed }),
                None => None,
            }
        } else {
            match (t.start, t.end) {
                (_, Some(first)) => Some(ReportProblem::AlreadyEnded { first }),
                (None, None) => Some(ReportProblem::EndWithoutStart),
                (Some(start), None) if at < start => Some(ReportProblem::EndBeforeStart { start }),
                (Some(start), None) => {
                    // A job runs its run time; one that outlives its
                    // estimate is killed there (its reservation and the
                    // published slots end at the estimate). Both lie in
                    // [.., 2^40] s and the start within the run's clock: no overflow.
                    let job = &self.jobs[j];
                    let expected = start.saturating_add(job.run_time.min(job.estimate).max(0));
                    (at != expected).then_some(ReportProblem::WrongEnd { start, expected })
                }
            }
        };
        match problem {
            Some(problem) => Err(error(problem)),
            None => Ok(j),
        }
    }

    /// Tries to place job `j` now as `policy` chooses; returns `false` if
    /// it must wait at the gateway.
    fn schedule<P: Provider>(
        &mut self,
        policy: &mut Q,
        now: Time,
        j: usize,
        providers: &mut [P],
    ) -> Result<bool, GatewayError> {
        let procs = self.jobs[j].procs;
        self.capable.clear();
        self.capable
            .extend((0..providers.len()).filter(|&k| providers[k].capacity() >= procs));
        if self.capable.is_empty() {
            self.reject(j, Rejection::TooWide, now);
            return Ok(true);
        }
        let ask = policy.slot_information() == Some(Information::Ask);
        for _attempt in 0..self.config.max_attempts.max(1) {
            if ask {
                // By position: `refresh` borrows the gateway mutably.
                for i in 0..self.capable.len() {
                    let k = self.capable[i];
                    self.count(now, Message::SlotRequest);
                    self.refresh(now, k, &mut providers[k], Message::SlotReply);
                }
            }
            let job = &self.jobs[j];
            let candidates: Vec<Candidate<'_>> = self
                .capable
                .iter()
                .map(|&k| Candidate {
                    provider: k,
                    capacity: providers[k].capacity(),
                    utilisation: self.utilisation[k],
                    slots: self.views[k].as_ref(),
                })
                .collect();
            let choice = policy.choose(now, job, &candidates);
            drop(candidates);
            let chosen = match choice {
                Choice::Submit { provider, .. } | Choice::Reserve { provider, .. } => {
                    Some(provider)
                }
                Choice::Wait | Choice::Reject(_) => None,
            };
            if let Some(provider) = chosen
                && self.capable.binary_search(&provider).is_err()
            {
                return Err(GatewayError::Choice {
                    job: job.id,
                    provider,
                });
            }
            check_choice(&choice, job, now)?;
            let (k, start) = match choice {
                Choice::Wait => return Ok(false),
                Choice::Reject(reason) => {
                    self.reject(j, reason, now);
                    return Ok(true);
                }
                Choice::Submit { provider, planned } => {
                    self.hand_over(now, j, provider, planned, providers);
                    return Ok(true);
                }
                Choice::Reserve { provider, start } => (provider, start),
            };
            // Two-phase advance reservation.
            self.count(now, Message::ReservationRequest);
            let asked = providers[k].request_reservation(now, job, start);
            self.count(now, Message::ReservationReply);
            let granted = match asked {
                Ok(hold) => {
                    self.count(now, Message::Commit);
                    providers[k].commit(now, hold).is_ok()
                }
                Err(_) => false,
            };
            if granted {
                let t = &mut self.track[j];
                (t.provider, t.placed, t.planned, t.reserved) = (Some(k), now, Some(start), true);
                self.take(k, start, j);
                return Ok(true);
            }
            // Refused: a violation, and the provider refreshes its slots here.
            self.violations.reservation_refused(job.id, now);
            self.refresh(now, k, &mut providers[k], Message::SlotPublication);
        }
        self.reject(j, Rejection::RefusedTooOften, now);
        Ok(true)
    }

    fn take(&mut self, k: usize, start: Time, j: usize) {
        if self.config.track_allocations {
            let job = &self.jobs[j];
            if let Some(v) = self.views[k].as_mut() {
                v.take(start, job.estimate, job.procs);
            }
        }
    }

    /// Submits best-effort job `j` to provider `k`.
    fn hand_over<P: Provider>(
        &mut self,
        now: Time,
        j: usize,
        k: usize,
        planned: Option<Time>,
        providers: &mut [P],
    ) {
        self.count(now, Message::JobSubmission);
        match providers[k].submit(now, self.jobs[j].clone()) {
            Ok(()) => {
                let t = &mut self.track[j];
                (t.provider, t.placed, t.planned) = (Some(k), now, planned);
                if let Some(s) = planned {
                    self.take(k, s, j);
                }
            }
            Err(refusal) => self.reject(j, Rejection::Refused(refusal.to_string()), now),
        }
    }

    fn retry<P: Provider>(
        &mut self,
        policy: &mut Q,
        now: Time,
        providers: &mut [P],
    ) -> Result<(), GatewayError> {
        let waiting = std::mem::take(&mut self.queue);
        for j in waiting {
            if !self.schedule(policy, now, j, providers)? {
                self.queue.push(j);
            }
        }
        Ok(())
    }

    fn settled(&self, j: usize) -> bool {
        let t = &self.track[j];
        t.rejected.is_some() || t.end.is_some()
    }
}

/// Plays the gateway's policy out (a clone of `config.policy`, so the same
/// config and inputs give the same run, whatever state the policy keeps):
/// grid `jobs` (sorted by submit time, with
/// a deadline for the deadline-constrained ones) arrive and are placed on
/// `providers`, which run their own events meanwhile. Returns when every
/// grid job has ended or been rejected and the periodic reports and
/// publications have stopped (at [`GatewayConfig::timers_until`]);
/// providers may still have local work to finish.
///
/// Message accounting: a utilisation report, a slot request, a slot reply,
/// a slot publication (periodic, unasked, or the refresh after a refused
/// reservation), a reservation request, its reply, a commit and a job
/// submission are one message each.
///
/// The run always ends: grid jobs arrive once each, every periodic timer
/// fires at most [`MAX_TICKS`] times (checked before the run), a job is
/// tried at most [`MAX_ATTEMPTS`] times per scheduling, and the gateway's
/// clock only moves forward, to the next event of a job, a timer or a
/// provider (a provider that keeps an event at or before the clock after
/// [`Provider::advance`] is an error, [`GatewayError::ProviderClock`]);
/// providers' own events alone turn the loop at most [`MAX_QUIET_TURNS`]
/// times in a row.
///
/// Reports are checked against the gateway's own record, never taken on
/// trust: a start or end of a job the gateway did not hand to that
/// provider, a second start or end, an end without or before its start, a
/// start before the hand-over, or an instant after the gateway's clock is
/// an error, [`GatewayError::Report`], naming the provider, the job and
/// what is impossible.
pub fn run<P: Provider, Q: Provisioning + Clone>(
    config: &GatewayConfig<Q>,
    providers: &mut [P],
    jobs: &[Job],
) -> Result<GridRun, GatewayError> {
    if providers.is_empty() {
        return Err(GatewayError::NoProviders);
    }
    check_settings(config)?;
    if let Some(index) = (1..jobs.len()).find(|&i| jobs[i].submit < jobs[i - 1].submit) {
        return Err(GatewayError::Unsorted { index });
    }
    jobs.iter().try_for_each(check_job)?;
    check_ticks(config, jobs)?;
    let mut index = HashMap::with_capacity(jobs.len());
    for (j, job) in jobs.iter().enumerate() {
        if let Some(first) = index.insert(job.id, j) {
            return Err(GatewayError::DuplicateId {
                id: job.id,
                first,
                second: j,
            });
        }
    }
    let last_arrival = jobs.last().map_or(config.start, |j| j.submit);
    let n = providers.len();
    let mut g = Gateway {
        config,
        jobs,
        index,
        track: vec![Track::default(); jobs.len()],
        views: vec![None; n],
        utilisation: vec![0.0; n],
        queue: Vec::new(),
        messages: MessageCounter::new(),
        measured: MessageCounter::new(),
        violations: ViolationLog::new(config.tolerance),
        timers_until: config.timers_until.unwrap_or(last_arrival),
        unsettled: jobs.len(),
        capable: Vec::with_capacity(n),
    };
    let mut policy = config.policy.clone();
    let mut next_report = policy.utilisation_reports().then_some(config.start);
    let (mut next_publish, every_publish) = match policy.slot_information() {
        Some(Information::Partial { interval }) => (Some(config.start), interval),
        _ => (None, 0),
    };
    let ask = policy.slot_information() == Some(Information::Ask);
    let mut next_retry: Option<Time> = None;
    let mut next_job = 0;
    let mut reports = Vec::new();
    // Each provider's next event as last read. A provider's answer changes
    // only through a `&mut` call on it, so a read stays good until the
    // gateway makes one: advancing a provider reads it again at once;
    // publications and scheduling (which may ask any provider for slots,
    // reservations or submissions) mark every read stale.
    let mut nexts: Vec<Option<Time>> = Vec::with_capacity(n);
    let mut stale = true;
    let until = g.timers_until;
    let within = |t: Time| (t <= until).then_some(t);
    let mut quiet: u64 = 0;
    loop {
        // Done when every grid job is settled and the periodic messages,
        // which cost the same whatever the jobs do, have run their course.
        if next_job == jobs.len()
            && g.unsettled == 0
            && next_report.is_none()
            && next_publish.is_none()
        {
            break;
        }
        if stale {
            nexts.clear();
            nexts.extend(providers.iter().map(|p| p.next_event()));
            stale = false;
        }
        let t_providers = nexts.iter().flatten().min().copied();
        let t_job = jobs.get(next_job).map(|j| j.submit);
        let timers = Time::earliest(next_report, Time::earliest(next_publish, next_retry));
        let Some(now) = Time::earliest(Time::earliest(t_providers, t_job), timers) else {
            break;
        };
        let mut fresh = false;
        let mut heard = false;
        for (k, p) in providers.iter_mut().enumerate() {
            let due = p.due(now);
            if due {
                p.advance(now, &mut reports);
            }
            // A provider not advanced was not touched since its next event
            // was read (handling another provider's reports reads only
            // that one): the same event.
            let next = if due { p.next_event() } else { nexts[k] };
            nexts[k] = next;
            if let Some(event) = next.filter(|&t| t <= now) {
                return Err(GatewayError::ProviderClock {
                    provider: k,
                    now,
                    event,
                });
            }
            if !reports.is_empty() {
                heard = true;
                fresh |= g.handle(now, k, p, std::mem::take(&mut reports))?;
            }
        }
        if heard || timers == Some(now) || t_job == Some(now) {
            quiet = 0;
        } else {
            quiet += 1;
            if quiet > MAX_QUIET_TURNS {
                return Err(g.quiet(now, &nexts));
            }
        }
        if next_report == Some(now) {
            for (k, p) in providers.iter().enumerate() {
                g.utilisation[k] = check_utilisation(k, now, p.utilisation(now))?;
                g.count(now, Message::UtilisationReport);
            }
            next_report = within(now + config.report_every);
        }
        if next_publish == Some(now) {
            stale = true;
            for (k, p) in providers.iter_mut().enumerate() {
                let horizon = g.horizon(now);
                if let Some(slots) = p.publish(now, horizon) {
                    g.views[k] = Some(SlotView::from_slots(p.capacity(), now, &slots));
                    g.count(now, Message::SlotPublication);
                    fresh = true;
                }
            }
            next_publish = within(now + every_publish);
        }
        if fresh || next_retry == Some(now) {
            stale = true;
            g.retry(&mut policy, now, providers)?;
        }
        while jobs.get(next_job).is_some_and(|j| j.submit == now) {
            stale = true;
            if !g.schedule(&mut policy, now, next_job, providers)? {
                g.queue.push(next_job);
            }
            next_job += 1;
        }
        next_retry = if ask && !g.queue.is_empty() {
            within(now + config.retry_every)
        } else {
            None
        };
        if next_job == jobs.len()
            && next_retry.is_none()
            && next_publish.is_none()
            && !g.queue.is_empty()
        {
            for j in std::mem::take(&mut g.queue) {
                g.reject(j, Rejection::NoInformation, now);
            }
        }
    }
    let mut fates = Vec::with_capacity(jobs.len());
    for (j, t) in g.track.iter().enumerate() {
        let fate = match (&t.rejected, t.provider, t.start, t.end) {
            (Some((reason, at)), _, _, _) => Fate::Rejected {
                reason: reason.clone(),
                at: *at,
            },
            (None, Some(provider), Some(start), Some(end)) => Fate::Ran {
                provider,
                placed: t.placed,
                planned: t.planned,
                reserved: t.reserved,
                start,
                end,
            },
            (None, provider, _, _) => {
                return Err(GatewayError::Stuck {
                    job: jobs[j].id,
                    provider: provider.unwrap_or(usize::MAX),
                });
            }
        };
        fates.push(fate);
    }
    Ok(GridRun {
        fates,
        messages: g.messages,
        measured: g.measured,
        violations: g.violations,
    })
}
