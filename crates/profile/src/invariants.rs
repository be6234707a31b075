//! The invariant suite every [`Scheduler`] must pass, as public API: the
//! workload strategies and the checks the built-in policies are tested with,
//! for a user's own scheduler (feature `testing`; re-exported from
//! [`testing`](crate::testing)).

use std::collections::HashMap;
use std::fmt;

use proptest::prelude::{Just, Strategy, prop, prop_oneof};
use proptest::test_runner::{TestCaseError, TestError, TestRunner};

use crate::sched::{Observer, SimError, check_input, simulate_stream_with, simulate_with};
use crate::scheduler::Scheduler;
use crate::{
    Job, MAX_DURATION, Outcome, Overrun, QueueOrder, SchedulerConfig, Status, Time, validate_under,
};

mod watch;

pub use watch::MAX_WAKE_UPS;
use watch::Watch;

/// A promise a policy makes beyond the invariants every scheduler keeps.
/// Checked by [`check_scheduler`] in every run, except
/// [`Guarantee::KeepsFirstReservation`] and
/// [`Guarantee::HeadStartsByEarliest`], checked under [`Overrun::Kill`]
/// only (a prediction extension lifts every reservation, so no promise of a
/// start survives it), and [`Guarantee::ArrivalOrder`] and
/// [`Guarantee::HeadStartsByEarliest`], checked under
/// [`QueueOrder::Arrival`] only.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Guarantee {
    /// Under [`QueueOrder::Arrival`], jobs start in input order (FCFS).
    ArrivalOrder,
    /// No job starts later than the first reservation it was given
    /// (conservative: its reservation on arrival, under every queue order;
    /// EASY: the head's reservation is never delayed, under
    /// [`QueueOrder::Arrival`] only, since another order may put a later
    /// job before the head: declare it with `Suite::orders(vec![QueueOrder::Arrival])`).
    /// A policy that reports no reservation is not held to anything by it:
    /// see [`Guarantee::HeadStartsByEarliest`].
    KeepsFirstReservation,
    /// Every job gets a reservation when it arrives (conservative), by the
    /// end of the decisions at its arrival instant; a job started at its
    /// arrival instant, or one the loop drops there
    /// ([`SchedulerConfig::drop_expired`](crate::SchedulerConfig::drop_expired))
    /// before the decision that follows it, need not have one.
    ReservesOnArrival,
    /// No decision leaves the head of the queue waiting while it could
    /// start now: its processors free from now for its estimate, beside
    /// every running job and every other reservation (FCFS and EASY start
    /// the head as soon as it fits). Checked after every decision.
    /// Conservative does not promise it: its compression moves
    /// reservations up only when capacity comes free early, once, in
    /// queue order, so a head whose reservation was not moved up may wait
    /// for it with its processors free.
    StartsHeadWhenItFits,
    /// A job left waiting at the head of the queue by a decision starts no
    /// later than the earliest instant its processors are free for its
    /// estimate beside the running jobs and every other reservation, as
    /// that decision leaves them: FCFS, and EASY's shadow time, which no
    /// backfilled job delays. Unlike [`Guarantee::KeepsFirstReservation`]
    /// it needs no reservation reported: the suite works the instant out
    /// itself, so an EASY that computes its shadow time wrongly, or
    /// reserves the head later than it could start, is caught. Checked
    /// under [`QueueOrder::Arrival`] and [`Overrun::Kill`] only (another
    /// order may put a later job before the head; an overrun delays it).
    /// Conservative does not promise it (see
    /// [`Guarantee::StartsHeadWhenItFits`]).
    HeadStartsByEarliest,
}

/// An invariant a run broke, with what showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The invariant, in a few words.
    pub invariant: &'static str,
    /// What showed it.
    pub detail: String,
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.invariant, self.detail)
    }
}

impl std::error::Error for Broken {}

impl Broken {
    /// A broken `invariant`: one of the names of
    /// [`testing::invariant`](crate::testing::invariant), or a suite's own
    /// promise in its own words, with what showed it.
    pub fn new(invariant: &'static str, detail: impl Into<String>) -> Broken {
        Broken {
            invariant,
            detail: detail.into(),
        }
    }

    /// The same broken invariant, its detail prefixed with where it broke
    /// (`workload 3 (12 jobs): ...`).
    pub fn within(self, place: impl fmt::Display) -> Broken {
        Broken {
            invariant: self.invariant,
            detail: format!("{place}: {}", self.detail),
        }
    }
}

fn broken(invariant: &'static str, detail: impl Into<String>) -> Broken {
    Broken::new(invariant, detail)
}

/// Every observer call, in order.
#[derive(Default, PartialEq, Debug)]
struct Calls {
    calls: Vec<(u8, Time, usize, Time)>,
}

impl Observer for Calls {
    fn reserved(&mut self, now: Time, job: usize, start: Time) {
        self.calls.push((0, now, job, start));
    }
    fn started(&mut self, now: Time, job: usize) {
        self.calls.push((1, now, job, now));
    }
    fn step(&mut self, now: Time) {
        self.calls.push((2, now, 0, now));
    }
}

/// The first observer call where two runs part, told with the jobs' ids:
/// `None` if they made the same calls.
fn first_difference(
    jobs: &[Job],
    (a_name, a): (&str, &Calls),
    (b_name, b): (&str, &Calls),
) -> Option<String> {
    let k = a.calls.iter().zip(&b.calls).position(|(x, y)| x != y);
    let k =
        k.or_else(|| (a.calls.len() != b.calls.len()).then(|| a.calls.len().min(b.calls.len())))?;
    let tell = |calls: &Calls| match calls.calls.get(k) {
        None => "the run was over".to_string(),
        Some(&(kind, now, job, start)) => {
            let id = jobs
                .get(job)
                .map_or(format!("at position {job}"), |j| j.id.to_string());
            match kind {
                0 => format!("at {now} reserved job {id} from {start}"),
                1 => format!("at {now} started job {id}"),
                _ => format!("a step of the loop at {now}"),
            }
        }
    };
    Some(format!(
        "event {} of the run: {a_name}, {}; {b_name}, {}",
        k + 1,
        tell(a),
        tell(b)
    ))
}

/// Checks one run of a scheduler (`make` builds a fresh one; it is called
/// several times) on `jobs` under `config`:
///
/// * the schedule is valid ([`validate_under`]): capacity is never
///   exceeded, no job starts before it is submitted, every job runs its run
///   time or is killed at its estimate as `config.overrun` says; no job is
///   dropped unless `config.drop_expired` and its deadline can no longer
///   be met;
/// * the run is deterministic: a fresh scheduler makes the same schedule,
///   with the same decisions in the same order (a difference is told by
///   the first event where the runs part);
/// * a streamed run ([`simulate_stream_with`]) makes the schedule of the
///   slice run, with the same decisions, reporting each job's outcome
///   once, in start order;
/// * the run ends: at most [`MAX_WAKE_UPS`] decisions in a row on wake-ups alone;
/// * the `guarantees` the policy declares
///   ([`Guarantee::StartsHeadWhenItFits`] after every decision).
///
/// A workload the loop refuses before anything runs (an invalid job, jobs
/// out of submit order, a job wider than the machine, too many prediction
/// extensions, a machine of no processors) passes if every run refuses it
/// alike. So does a run that would pass [`Time::LATEST`] on a workload that
/// could: one whose last submit plus every job's estimate and run time
/// passes it. Any other error is a broken invariant: a refused action
/// ([`SimError::NoRoom`], [`SimError::NotWaiting`]), a run the scheduler
/// stopped ([`SimError::Stopped`]), a job left waiting
/// ([`SimError::NeverStarted`]), an input error the input does not have,
/// or a time past [`Time::LATEST`] that only the scheduler's choices reach.
pub fn check_scheduler<S: Scheduler>(
    make: impl Fn() -> S,
    config: &SchedulerConfig,
    jobs: &[Job],
    guarantees: &[Guarantee],
) -> Result<(), Broken> {
    let head_fits = guarantees.contains(&Guarantee::StartsHeadWhenItFits);
    let bound_heads = guarantees.contains(&Guarantee::HeadStartsByEarliest)
        && matches!(config.order, QueueOrder::Arrival)
        && config.overrun == Overrun::Kill;
    let watched = || Watch::new(make(), head_fits, bound_heads);
    let mut calls = Calls::default();
    let mut watch = watched();
    let first = simulate_with(config, &mut watch, jobs, &mut calls);
    if let Some(b) = watch.broken {
        return Err(b);
    }
    let head_bounds = std::mem::take(&mut watch.head_bounds);
    let mut calls_again = Calls::default();
    let mut watch = watched();
    let again = simulate_with(config, &mut watch, jobs, &mut calls_again);
    if first != again || calls != calls_again {
        let detail = match first_difference(jobs, ("run 1", &calls), ("run 2", &calls_again)) {
            Some(d) => format!(
                "a fresh scheduler decided otherwise on the same input ({d}); look for iteration over a HashMap or HashSet, state kept between runs (a static), or time and randomness"
            ),
            None => format!("two runs differ: {first:?} then {again:?}"),
        };
        return Err(broken(crate::testing::invariant::DETERMINISTIC, detail));
    }
    if let Some(b) = watch.broken {
        return Err(b);
    }
    let mut streamed = Calls::default();
    let mut got: Vec<(usize, Outcome)> = Vec::new();
    let mut watch = watched();
    let count = simulate_stream_with(
        config,
        &mut watch,
        jobs.iter().cloned(),
        &mut streamed,
        |index, outcome| got.push((index, outcome)),
    );
    if let Some(b) = watch.broken {
        return Err(b);
    }
    let outcomes = match first {
        Ok(outcomes) => outcomes,
        // The workload itself is refused (alike by every run, checked
        // above): not the scheduler's doing.
        Err(_) if check_input(config, jobs).is_err() => return Ok(()),
        Err(SimError::BeyondLatest { .. }) if may_pass_latest(jobs) => return Ok(()),
        Err(e) => {
            return Err(broken(
                crate::testing::invariant::RUNS_TO_THE_END,
                e.to_string(),
            ));
        }
    };
    if let Some(d) = first_difference(jobs, ("over the slice", &calls), ("streamed", &streamed)) {
        return Err(broken(
            "stream equals batch",
            format!(
                "the streamed run decided otherwise than the run over the slice ({d}); a scheduler must decide alike whether the jobs come as a slice or as a stream (and alike on every run: look for state kept between runs, a static or a global counter, too)"
            ),
        ));
    }
    check_stream(&outcomes, count, &got)?;
    validate_under(config, jobs, &outcomes)
        .map_err(|v| broken(crate::testing::invariant::VALID, v.to_string()))?;
    if !config.drop_expired
        && let Some(o) = outcomes.iter().find(|o| o.status == Status::Dropped)
    {
        return Err(broken(
            "drops only when asked",
            format!("job {} was dropped", o.id),
        ));
    }
    check_guarantees(config, jobs, &outcomes, &calls, guarantees)?;
    check_head_bounds(jobs, &outcomes, &head_bounds)
}

/// [`Guarantee::HeadStartsByEarliest`] on the bounds the watch recorded
/// (none unless it applies), the first job in input order that broke it.
fn check_head_bounds(
    jobs: &[Job],
    outcomes: &[Outcome],
    bounds: &[Option<(Time, Time)>],
) -> Result<(), Broken> {
    for ((job, o), bound) in jobs.iter().zip(outcomes).zip(bounds) {
        if let Some((at, earliest)) = *bound
            && o.status != Status::Dropped
            && o.start > earliest
        {
            return Err(broken(
                "head starts by its earliest start",
                format!(
                    "job {} waited at the head of the queue at {at}, when its {} processors were free for its estimate of {} s from {earliest} beside the running jobs and every other reservation, and started at {}",
                    job.id, job.procs, job.estimate, o.start
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a schedule of `jobs` that never idles a job needlessly could
/// pass [`Time::LATEST`]: their last submit plus, for every job, its
/// estimate and its run time (a bound on every reserved or run duration,
/// predictions extended under [`Overrun::Continue`](crate::Overrun) included).
fn may_pass_latest(jobs: &[Job]) -> bool {
    let last = jobs.last().map_or(0, |j| j.submit.0);
    let work = jobs.iter().fold(0i64, |sum, j| {
        sum.saturating_add(j.estimate.max(0))
            .saturating_add(j.run_time.max(0))
    });
    last.saturating_add(work) > Time::LATEST.0
}

fn check_stream(
    want: &[Outcome],
    count: Result<usize, SimError>,
    got: &[(usize, Outcome)],
) -> Result<(), Broken> {
    const WHAT: &str = "stream equals batch";
    match count {
        Ok(n) if n == want.len() => {}
        other => return Err(broken(WHAT, format!("the streamed run gave {other:?}"))),
    }
    if let Some(w) = got.windows(2).find(|w| w[0].1.start > w[1].1.start) {
        return Err(broken(
            WHAT,
            format!(
                "outcome of job {} reported before an earlier start",
                w[0].1.id
            ),
        ));
    }
    let mut by_index = vec![None; want.len()];
    for &(index, outcome) in got {
        if by_index[index].replace(outcome).is_some() {
            return Err(broken(WHAT, format!("position {index} reported twice")));
        }
    }
    for (index, (g, w)) in by_index.iter().zip(want).enumerate() {
        if g.as_ref() != Some(w) {
            return Err(broken(
                WHAT,
                format!("position {index}: streamed {g:?}, batch {w:?}"),
            ));
        }
    }
    Ok(())
}

fn check_guarantees(
    config: &SchedulerConfig,
    jobs: &[Job],
    outcomes: &[Outcome],
    calls: &Calls,
    guarantees: &[Guarantee],
) -> Result<(), Broken> {
    let mut first: HashMap<usize, (Time, Time)> = HashMap::new();
    for &(kind, now, job, start) in &calls.calls {
        if kind == 0 {
            first.entry(job).or_insert((now, start));
        }
    }
    for guarantee in guarantees {
        match guarantee {
            Guarantee::ArrivalOrder => {
                if matches!(config.order, QueueOrder::Arrival) {
                    let ran = outcomes.iter().filter(|o| o.status != Status::Dropped);
                    let mut last: Option<&Outcome> = None;
                    for o in ran {
                        if let Some(p) = last.filter(|p| p.start > o.start) {
                            return Err(broken(
                                "arrival order",
                                format!(
                                    "job {} started at {} after job {} at {}",
                                    p.id, p.start, o.id, o.start
                                ),
                            ));
                        }
                        last = Some(o);
                    }
                }
            }
            // A prediction extension lifts every reservation: under
            // `Overrun::Continue` no promise survives it.
            Guarantee::KeepsFirstReservation if config.overrun == Overrun::Kill => {
                // In input order: the first job that broke it, the same on
                // every run (a HashMap's order is not).
                for (o, &(at, promised)) in outcomes
                    .iter()
                    .enumerate()
                    .filter_map(|(j, o)| Some((o, first.get(&j)?)))
                {
                    if o.status != Status::Dropped && o.start > promised {
                        return Err(broken(
                            "keeps its first reservation",
                            format!(
                                "job {} was promised at {at} a start at {promised}, and started at {}",
                                o.id, o.start
                            ),
                        ));
                    }
                }
            }
            Guarantee::KeepsFirstReservation => {}
            // Checked at every decision, by the watch; and on the bounds
            // it recorded, after the run.
            Guarantee::StartsHeadWhenItFits | Guarantee::HeadStartsByEarliest => {}
            Guarantee::ReservesOnArrival => {
                for (j, job) in jobs.iter().enumerate() {
                    // The loop drops an expired job before the decision
                    // that follows its arrival (`drop_expired`): a job
                    // dropped at its arrival may never have been seen.
                    // A job started at its arrival instant holds its
                    // processors from then on: that is the reservation.
                    let settled_on_arrival = outcomes.get(j).is_some_and(|o| o.start == job.submit);
                    if settled_on_arrival {
                        continue;
                    }
                    if first.get(&j).is_none_or(|&(at, _)| at != job.submit) {
                        return Err(broken(
                            "reserves on arrival",
                            format!(
                                "job {} got no reservation at its arrival {}",
                                job.id, job.submit
                            ),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Random workloads for a `capacity`-processor machine: 1 to `max_len` jobs
/// sorted by submit time, many submitted at the same instant, widths up to
/// the machine, estimates 1–29 s, run times 0–39 s (so jobs end early, on
/// time and late), a deadline on three jobs in four.
pub fn workload(capacity: u32, max_len: usize) -> impl Strategy<Value = Vec<Job>> {
    let capacity = capacity.max(1);
    prop::collection::vec(
        (0..40i64, 1..=capacity, 1..30i64, 0..40i64, 0..4u8),
        1..max_len.max(2),
    )
    .prop_map(|raw| {
        let mut t = 0;
        raw.into_iter()
            .enumerate()
            .map(|(i, (gap, procs, est, run, dl))| {
                t += gap / 4; // many equal submit times
                let job = Job::new(i as u64, Time(t), procs, est, run);
                if dl == 0 {
                    job
                } else {
                    job.with_deadline(Time(t + est * i64::from(dl) * 2))
                }
            })
            .collect()
    })
}

/// Workloads at the edges of the time domain: submit times and deadlines at
/// `±`[`Time::LIMIT`] or near 0, estimates and run times of 1 s up to
/// [`MAX_DURATION`], widths of 1 up to the machine; sorted by submit time.
pub fn edge_workload(capacity: u32, max_len: usize) -> impl Strategy<Value = Vec<Job>> {
    edge_workload_within(capacity, max_len, MAX_DURATION)
}

/// [`edge_workload`] with estimates and run times of at most `longest`
/// seconds (at least 2): see [`Suite::longest_duration`].
pub fn edge_workload_within(
    capacity: u32,
    max_len: usize,
    longest: i64,
) -> impl Strategy<Value = Vec<Job>> {
    let capacity = capacity.max(1);
    let lim = Time::LIMIT.secs();
    let longest = longest.clamp(2, MAX_DURATION);
    let time = prop_oneof![
        3 => prop::sample::select(vec![-lim, -lim + 1, -1, 0, 1, lim - 1, lim]),
        4 => 0i64..500,
    ];
    let duration = prop_oneof![
        2 => prop::sample::select(vec![1, 2, longest - 1, longest]),
        4 => 1i64..200.min(longest),
    ];
    let job = (
        time.clone(),
        1..=capacity,
        duration.clone(),
        prop_oneof![1 => Just(0i64), 5 => duration],
        prop::option::weighted(0.3, time),
    );
    prop::collection::vec(job, 1..max_len.max(2)).prop_map(|raw| {
        let mut jobs: Vec<Job> = raw
            .into_iter()
            .enumerate()
            .map(|(i, (submit, procs, estimate, run_time, deadline))| {
                let job = Job::new(i as u64, Time(submit), procs, estimate, run_time);
                match deadline {
                    Some(d) => job.with_deadline(Time(d)),
                    None => job,
                }
            })
            .collect();
        jobs.sort_by_key(|j| j.submit);
        jobs
    })
}

/// Bursts: `min_len` to `max_len` jobs (at least 1) submitted at one
/// instant, or at two a second apart, the first holding most of them:
/// a long queue from the first decision, many jobs of one instant in one
/// decision. Widths up to the machine, estimates 1–29 s, run times 0–39 s,
/// a deadline on one job in two.
pub fn burst_workload(
    capacity: u32,
    min_len: usize,
    max_len: usize,
) -> impl Strategy<Value = Vec<Job>> {
    let capacity = capacity.max(1);
    let max_len = max_len.max(1);
    let job = (1..=capacity, 1..30i64, 0..40i64, 0..2u8, 0..8u8);
    prop::collection::vec(job, min_len.clamp(1, max_len)..=max_len)
        .prop_map(|raw| {
            raw.into_iter()
                .enumerate()
                .map(|(i, (procs, est, run, dl, late))| {
                    let t = Time(i64::from(late == 0));
                    let job = Job::new(i as u64, t, procs, est, run);
                    if dl == 0 {
                        job.with_deadline(t + est * 3)
                    } else {
                        job
                    }
                })
                .collect::<Vec<Job>>()
        })
        .prop_map(|mut jobs| {
            jobs.sort_by_key(|j| j.submit);
            jobs
        })
}

/// The property suite for one scheduler: [`check_scheduler`] on generated
/// workloads ([`workload`]; [`edge_workload`] one case in five, on machines of
/// 1, the configured and `u32::MAX` processors; [`burst_workload`] one
/// case in five, of up to [`Suite::burst_jobs`] jobs) under
/// every combination of the configured queue orders, overrun handling and
/// dropping, from the gate's fixed seed ([`proptest_config`](crate::testing::proptest_config)).
///
/// A failure panics with the invariant, the seed, and the smallest failing
/// case as Rust (a `SchedulerConfig` and the jobs) to paste into a test
/// of [`check_scheduler`], which then replays it on every run. What two
/// runs in one process share (a `static`, a global counter) is the same
/// in both, so the determinism check cannot see it; neither can a suite
/// in one process see what differs between processes (a hasher's random
/// keys): keep such state out of a scheduler.
///
/// ```
/// use profile::builtin::Easy;
/// use profile::testing::{Guarantee, Suite};
///
/// // The built-in EASY, on every queue order; and its promise, in arrival order.
/// Suite::new(64).run(|| Easy::new(1));
/// Suite::new(64)
///     .orders(vec![profile::QueueOrder::Arrival])
///     .guarantee(Guarantee::KeepsFirstReservation)
///     .run(|| Easy::new(1));
/// ```
#[derive(Clone, Debug)]
pub struct Suite {
    cases: u32,
    capacity: u32,
    largest: u32,
    max_jobs: usize,
    burst_jobs: usize,
    longest: i64,
    orders: Vec<QueueOrder>,
    overruns: Vec<Overrun>,
    drop_expired: Vec<bool>,
    guarantees: Vec<Guarantee>,
}

impl Suite {
    /// `cases` generated cases on an 8-processor machine, up to 40 jobs
    /// each (bursts up to 300); arrival, shortest-estimate and
    /// earliest-deadline order; kill and continue at the estimate; with and
    /// without dropping; no guarantees beyond the invariants.
    pub fn new(cases: u32) -> Suite {
        Suite {
            cases,
            capacity: 8,
            largest: u32::MAX,
            max_jobs: 40,
            burst_jobs: 300,
            longest: MAX_DURATION,
            orders: vec![
                QueueOrder::Arrival,
                QueueOrder::ShortestEstimate,
                QueueOrder::EarliestDeadline,
            ],
            overruns: vec![Overrun::Kill, Overrun::Continue],
            drop_expired: vec![false, true],
            guarantees: Vec::new(),
        }
    }

    /// The machine's processors (at least 1). The edge cases (one in four)
    /// also run on machines of 1 and of [`Suite::largest_machine`]
    /// processors.
    pub fn capacity(mut self, capacity: u32) -> Self {
        self.capacity = capacity.max(1);
        self
    }

    /// The largest machine the edge cases run on: `u32::MAX` processors by
    /// default, the model's limit, where a sum of widths in `u32` overflows.
    /// A scheduler that supports only smaller machines (one that keeps
    /// state per processor, say) lowers it to its own limit; it is never
    /// below [`Suite::capacity`].
    pub fn largest_machine(mut self, processors: u32) -> Self {
        self.largest = processors.max(1);
        self
    }

    /// The most jobs in a case (bursts aside: [`Suite::burst_jobs`]).
    pub fn max_jobs(mut self, max_jobs: usize) -> Self {
        self.max_jobs = max_jobs.max(1);
        self
    }

    /// The most jobs in a burst case ([`burst_workload`]: 300 by default,
    /// so queues of more than 256 jobs are tried); 0 leaves bursts out.
    pub fn burst_jobs(mut self, jobs: usize) -> Self {
        self.burst_jobs = jobs;
        self
    }

    /// The longest estimate and run time of the edge cases:
    /// [`MAX_DURATION`] by default. A scheduler that wakes itself every
    /// `p` seconds while jobs wait (polling) takes a decision per `p`
    /// seconds of a job it waits for, and more than [`MAX_WAKE_UPS`] of
    /// them in a row end the run as broken ("ends"): such a scheduler sets
    /// this below `p × MAX_WAKE_UPS` (at least 2 s).
    pub fn longest_duration(mut self, seconds: i64) -> Self {
        self.longest = seconds.clamp(2, MAX_DURATION);
        self
    }

    /// The queue orders to run under (none: arrival only).
    pub fn orders(mut self, orders: Vec<QueueOrder>) -> Self {
        self.orders = orders;
        self
    }

    /// The overrun handling to run under (none: kill only).
    pub fn overruns(mut self, overruns: Vec<Overrun>) -> Self {
        self.overruns = overruns;
        self
    }

    /// Whether to run with expired jobs dropped, without, or both (none: without).
    pub fn drop_expired(mut self, drop_expired: Vec<bool>) -> Self {
        self.drop_expired = drop_expired;
        self
    }

    /// Adds a guarantee the scheduler declares.
    pub fn guarantee(mut self, guarantee: Guarantee) -> Self {
        self.guarantees.push(guarantee);
        self
    }

    /// The configurations and workloads the suite generates.
    pub fn cases(&self) -> impl Strategy<Value = (SchedulerConfig, Vec<Job>)> + use<> {
        fn pick<T: Clone + fmt::Debug + 'static>(v: &[T], fallback: T) -> prop::sample::Select<T> {
            prop::sample::select(if v.is_empty() {
                vec![fallback]
            } else {
                v.to_vec()
            })
        }
        let capacity = self.capacity;
        let settings = (
            pick(&self.orders, QueueOrder::Arrival),
            pick(&self.overruns, Overrun::Kill),
            pick(&self.drop_expired, false),
        );
        // The edge cases run on the smallest and the largest machine too:
        // a sum of widths in `u32`, a share of the machine rounded to 0, a
        // loop over processors, pass on 8 processors and fail there.
        let mut machines = vec![1, capacity, self.largest.max(capacity)];
        machines.dedup();
        let edge_len = self.max_jobs.min(24);
        let longest = self.longest;
        let burst = self.burst_jobs;
        let jobs = prop_oneof![
            3 => workload(capacity, self.max_jobs).prop_map(move |jobs| (capacity, jobs)),
            1 => prop::sample::select(machines).prop_flat_map(move |machine| {
                edge_workload_within(machine, edge_len, longest)
                    .prop_map(move |jobs| (machine, jobs))
            }),
            u32::from(burst > 0) => burst_workload(capacity, 1, burst)
                .prop_map(move |jobs| (capacity, jobs)),
        ];
        (settings, jobs).prop_map(|((order, overrun, drop), (machine, jobs))| {
            let config = SchedulerConfig::new(machine, crate::Policy::Fcfs)
                .order(order)
                .overrun(overrun)
                .drop_expired(drop);
            (config, jobs)
        })
    }

    /// Runs the suite on schedulers `make` builds; panics with the
    /// invariant broken, the seed, and the smallest failing case as Rust.
    pub fn run<S: Scheduler>(&self, make: impl Fn() -> S) {
        let mut config = crate::testing::proptest_config(self.cases);
        // Outside the `proptest!` macro there is no source file to keep
        // failures beside; the panic gives the failing case as code instead.
        config.failure_persistence = None;
        let mut runner = TestRunner::new(config);
        let result = runner.run(&self.cases(), |(config, jobs)| {
            check_scheduler(&make, &config, &jobs, &self.guarantees)
                .map_err(|b| TestCaseError::fail(b.to_string()))
        });
        match result {
            Ok(()) => {}
            Err(TestError::Fail(reason, (config, jobs))) => {
                let (seed, scale) = crate::testing::seed_and_scale();
                panic!(
                    "a scheduler broke the invariant suite: {reason}\n\
                     seed {seed} (case scale {scale}); the smallest failing case, to replay \
                     in a test:\n\n{}",
                    rust_case(&config, &jobs, &self.guarantees)
                );
            }
            Err(e) => panic!("a scheduler broke the invariant suite: {e}"),
        }
    }
}

/// A case as Rust: the call of [`check_scheduler`] that replays it.
fn rust_case(config: &SchedulerConfig, jobs: &[Job], guarantees: &[Guarantee]) -> String {
    use fmt::Write as _;
    let order = match config.order {
        QueueOrder::Arrival => "Arrival",
        QueueOrder::ShortestEstimate => "ShortestEstimate",
        QueueOrder::EarliestDeadline => "EarliestDeadline",
        QueueOrder::Custom(_) => "Arrival /* a custom order */",
    };
    let mut out = format!(
        "let config = profile::SchedulerConfig::new({}, profile::Policy::Fcfs)\n    \
         .order(profile::QueueOrder::{order})\n    \
         .overrun(profile::Overrun::{:?})\n    \
         .drop_expired({});\nlet jobs = vec![\n",
        config.capacity, config.overrun, config.drop_expired
    );
    for j in jobs {
        let _ = write!(
            out,
            "    profile::Job::new({}, profile::Time({}), {}, {}, {})",
            j.id, j.submit.0, j.procs, j.estimate, j.run_time
        );
        if let Some(d) = j.deadline {
            let _ = write!(out, ".with_deadline(profile::Time({}))", d.0);
        }
        out.push_str(",\n");
    }
    let guarantees: Vec<String> = guarantees
        .iter()
        .map(|g| format!("profile::testing::Guarantee::{g:?}"))
        .collect();
    let _ = write!(
        out,
        "];\nprofile::testing::check_scheduler(|| /* your scheduler */, &config, &jobs, &[{}])\n    \
         .unwrap();",
        guarantees.join(", ")
    );
    out
}
