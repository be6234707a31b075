//! Scheduler configuration: policy, queue order, overrun handling.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use crate::Job;

/// Which backfilling policy runs the waiting queue.
///
/// It displays as, and parses from, its short name ([`Policy::name`]):
/// `fcfs`, `easy`, `easy-k3`, `easy-kinf`, `conservative`. With the `serde`
/// feature it is written and read as that name too.
///
/// ```
/// use profile::Policy;
///
/// let policy: Policy = "easy-k3".parse()?;
/// assert_eq!(policy, Policy::Easy { reservations: 3 });
/// assert_eq!(policy.to_string(), "easy-k3");
/// let error = "easy-k0".parse::<Policy>().unwrap_err();
/// assert_eq!(error.name, "easy-k0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// No backfilling: jobs start strictly in queue order.
    Fcfs,
    /// EASY backfilling with `reservations` protected queue heads: at every
    /// event the first `reservations` jobs that cannot start get a reservation
    /// and any other job may start now if it delays none of them.
    /// `1` is classic EASY; [`Policy::UNLIMITED`] protects every waiting job.
    Easy {
        /// Number of protected jobs (at least 1).
        reservations: u32,
    },
    /// Conservative backfilling: every job gets a reservation on arrival that
    /// is never postponed; when a job ends before its estimate the schedule is
    /// compressed (every waiting job, in queue order, moves to its earliest slot).
    Conservative,
}

impl Policy {
    /// Classic EASY (one reservation).
    pub const EASY: Policy = Policy::Easy { reservations: 1 };
    /// A reservation count meaning "every waiting job".
    pub const UNLIMITED: u32 = u32::MAX;

    /// Short lower-case name: `fcfs`, `easy`, `easy-k3`, `easy-kinf`, `conservative`.
    pub fn name(&self) -> String {
        match *self {
            Policy::Fcfs => "fcfs".into(),
            Policy::Easy { reservations: 1 } => "easy".into(),
            Policy::Easy {
                reservations: Policy::UNLIMITED,
            } => "easy-kinf".into(),
            Policy::Easy { reservations } => format!("easy-k{reservations}"),
            Policy::Conservative => "conservative".into(),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A string that names no [`Policy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyParseError {
    /// The string given.
    pub name: String,
}

impl fmt::Display for PolicyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `easy-k<N>` with an N out of range (or not a number) says the range.
        if let Some(n) = self.name.strip_prefix("easy-k") {
            return write!(
                f,
                "unknown policy '{}': N in easy-k<N> is '{n}', expected a whole number from 1 \
                 to {} (or easy-kinf: every waiting job); the other policies are fcfs, easy and \
                 conservative",
                self.name,
                Policy::UNLIMITED
            );
        }
        write!(
            f,
            "unknown policy '{}', expected fcfs, easy, easy-k<N> (N from 1 to {}), easy-kinf or \
             conservative",
            self.name,
            Policy::UNLIMITED
        )
    }
}

impl std::error::Error for PolicyParseError {}

impl std::str::FromStr for Policy {
    type Err = PolicyParseError;

    /// Parses a short name ([`Policy::name`]); `easy-k<N>` needs `N >= 1`.
    fn from_str(s: &str) -> Result<Policy, PolicyParseError> {
        match s {
            "fcfs" => Ok(Policy::Fcfs),
            "easy" => Ok(Policy::EASY),
            "conservative" => Ok(Policy::Conservative),
            "easy-kinf" => Ok(Policy::Easy {
                reservations: Policy::UNLIMITED,
            }),
            _ => s
                .strip_prefix("easy-k")
                .and_then(|k| k.parse::<u32>().ok())
                .filter(|&k| k >= 1)
                .map(|reservations| Policy::Easy { reservations })
                .ok_or_else(|| PolicyParseError {
                    name: s.to_string(),
                }),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Policy {
    /// Writes the short name ([`Policy::name`]).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Policy {
    /// Reads a short name, failing with the message of `PolicyParseError` (`Policy::from_str`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Policy, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A user-supplied queue priority: `Less` means "ahead in the queue".
pub type JobOrdering = Arc<dyn Fn(&Job, &Job) -> Ordering + Send + Sync>;

/// The order of the waiting queue. Ties always fall back to arrival order.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum QueueOrder {
    /// First come, first served.
    #[default]
    Arrival,
    /// Shortest estimate first (SJF).
    ShortestEstimate,
    /// Earliest deadline first (jobs without a deadline last).
    EarliestDeadline,
    /// A custom comparison.
    Custom(JobOrdering),
}

impl fmt::Debug for QueueOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueueOrder::Arrival => f.write_str("Arrival"),
            QueueOrder::ShortestEstimate => f.write_str("ShortestEstimate"),
            QueueOrder::EarliestDeadline => f.write_str("EarliestDeadline"),
            QueueOrder::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl QueueOrder {
    /// Compares two jobs by this order alone: `Less` means `a` goes ahead
    /// of `b`. It does not apply the arrival tie-break the scheduler adds
    /// (jobs equal here wait in arrival order), so [`QueueOrder::Arrival`]
    /// finds every pair `Equal`.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use profile::{Job, QueueOrder, Time};
    ///
    /// let long = Job::new(1, Time(0), 1, 3600, 3600);
    /// let short = Job::new(2, Time(5), 1, 60, 60);
    /// assert_eq!(QueueOrder::ShortestEstimate.compare(&short, &long), Ordering::Less);
    /// assert_eq!(QueueOrder::Arrival.compare(&short, &long), Ordering::Equal);
    /// ```
    pub fn compare(&self, a: &Job, b: &Job) -> Ordering {
        match self {
            QueueOrder::Arrival => Ordering::Equal,
            QueueOrder::ShortestEstimate => a.estimate.cmp(&b.estimate),
            QueueOrder::EarliestDeadline => match (a.deadline, b.deadline) {
                (Some(x), Some(y)) => x.cmp(&y),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
            QueueOrder::Custom(f) => f(a, b),
        }
    }
}

impl QueueOrder {
    /// The names [`QueueOrder`] parses from, in declaration order.
    pub const NAMES: [&'static str; 3] = ["arrival", "shortest-estimate", "earliest-deadline"];

    /// Short lower-case name: `arrival`, `shortest-estimate`,
    /// `earliest-deadline`, or `custom` for [`QueueOrder::Custom`] (which
    /// does not parse back).
    pub fn name(&self) -> &'static str {
        match self {
            QueueOrder::Arrival => "arrival",
            QueueOrder::ShortestEstimate => "shortest-estimate",
            QueueOrder::EarliestDeadline => "earliest-deadline",
            QueueOrder::Custom(_) => "custom",
        }
    }
}

impl fmt::Display for QueueOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no [`QueueOrder`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueOrderParseError {
    /// The string given.
    pub name: String,
}

impl fmt::Display for QueueOrderParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown queue order '{}', expected arrival, shortest-estimate or earliest-deadline",
            self.name
        )
    }
}

impl std::error::Error for QueueOrderParseError {}

impl std::str::FromStr for QueueOrder {
    type Err = QueueOrderParseError;

    /// Parses a short name ([`QueueOrder::name`]); `custom` is not one.
    ///
    /// ```
    /// use profile::QueueOrder;
    ///
    /// let order: QueueOrder = "shortest-estimate".parse()?;
    /// assert_eq!(order.name(), "shortest-estimate");
    /// assert!("custom".parse::<QueueOrder>().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn from_str(s: &str) -> Result<QueueOrder, QueueOrderParseError> {
        match s {
            "arrival" => Ok(QueueOrder::Arrival),
            "shortest-estimate" => Ok(QueueOrder::ShortestEstimate),
            "earliest-deadline" => Ok(QueueOrder::EarliestDeadline),
            _ => Err(QueueOrderParseError {
                name: s.to_string(),
            }),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for QueueOrder {
    /// Writes the short name ([`QueueOrder::name`]); a custom order is an
    /// error (it has no name to read back).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            QueueOrder::Custom(_) => Err(serde::ser::Error::custom(
                "a custom queue order has no name to write",
            )),
            order => s.serialize_str(order.name()),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for QueueOrder {
    /// Reads a short name, failing with the message of `QueueOrderParseError`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<QueueOrder, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// What happens to a job that is still running when its estimate runs out.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Overrun {
    /// Kill it at the estimate, as production batch systems do.
    #[default]
    Kill,
    /// Let it run to completion. When the estimate expires the scheduler's
    /// prediction of its end is extended by its original estimate again
    /// (repeatedly), and the waiting jobs are re-planned around it.
    Continue,
}

/// Everything a [`simulate`](crate::simulate) run needs besides the jobs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SchedulerConfig {
    /// Processors in the machine.
    pub capacity: u32,
    /// The backfilling policy.
    pub policy: Policy,
    /// Waiting-queue order.
    pub order: QueueOrder,
    /// Overrun handling.
    pub overrun: Overrun,
    /// Remove a waiting job (status [`Dropped`](crate::Status::Dropped)) as
    /// soon as `now + estimate > deadline`, i.e. it can no longer finish in time.
    pub drop_expired: bool,
    /// With [`Overrun::Continue`], the prediction extensions allowed per job
    /// on average (default [`SchedulerConfig::EXTENSIONS_PER_JOB`]). A job
    /// whose run time is `r` times its estimate is extended `⌊r⌋` times,
    /// each a scheduling event; [`simulate`](crate::simulate) refuses a
    /// workload whose first `k` jobs need more than
    /// `extensions_per_job × k + EXTENSION_GRACE` extensions, so the events
    /// of a run stay proportional to its jobs.
    pub extensions_per_job: u32,
}

impl SchedulerConfig {
    /// Default of [`SchedulerConfig::extensions_per_job`].
    pub const EXTENSIONS_PER_JOB: u32 = 64;
    /// Prediction extensions allowed on top of `extensions_per_job × jobs`,
    /// so a few badly estimated jobs in a small workload still run: 2^20.
    pub const EXTENSION_GRACE: u64 = 1 << 20;
    /// The most decisions on wake-ups alone ([`Context::wake_at`](crate::Context::wake_at),
    /// no other event at that instant) a run takes in a row, with no
    /// arrival, end or extension between them: 10,000,000. One more ends
    /// the run with [`SimError::WakeUps`](crate::SimError::WakeUps), so a
    /// scheduler that keeps asking to wake while nothing else happens
    /// cannot keep a run from ending. The invariant suite holds a
    /// scheduler under test to far fewer
    /// ([`MAX_WAKE_UPS`](crate::testing::MAX_WAKE_UPS)).
    pub const WAKE_UPS_IN_A_ROW: u64 = 10_000_000;

    /// A machine of `capacity` processors under `policy`, arrival order,
    /// kill at estimate, no dropping.
    pub fn new(capacity: u32, policy: Policy) -> SchedulerConfig {
        SchedulerConfig {
            capacity,
            policy,
            order: QueueOrder::Arrival,
            overrun: Overrun::Kill,
            drop_expired: false,
            extensions_per_job: SchedulerConfig::EXTENSIONS_PER_JOB,
        }
    }

    /// Sets the queue order.
    pub fn order(mut self, order: QueueOrder) -> Self {
        self.order = order;
        self
    }

    /// Sets overrun handling.
    pub fn overrun(mut self, overrun: Overrun) -> Self {
        self.overrun = overrun;
        self
    }

    /// Sets whether expired waiting jobs are dropped.
    pub fn drop_expired(mut self, drop: bool) -> Self {
        self.drop_expired = drop;
        self
    }

    /// Sets the prediction extensions allowed per job under [`Overrun::Continue`].
    pub fn extensions_per_job(mut self, per_job: u32) -> Self {
        self.extensions_per_job = per_job;
        self
    }
}

/// With the `serde` feature: the names and shapes written, both ways.
#[cfg(all(test, feature = "serde"))]
mod serde_names {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use crate::{
        FreeSlot, Job, Outcome, Overrun, Policy, ProcSet, QueueOrder, ScheduleStats, Status, Time,
    };

    /// `value = <toml>` reads as `expected` and writes back as `toml`.
    fn check<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(
        toml: &str,
        expected: T,
    ) {
        let read: BTreeMap<String, T> = toml::from_str(&format!("value = {toml}")).unwrap();
        assert_eq!(read["value"], expected, "{toml}");
        let written = toml::to_string(&read).unwrap();
        assert_eq!(written.trim(), format!("value = {toml}"));
    }

    /// `value` survives writing and reading back.
    fn round_trip<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(value: T) {
        let map = BTreeMap::from([("value".to_string(), value)]);
        let text = toml::to_string(&map).unwrap();
        let back: BTreeMap<String, T> = toml::from_str(&text).unwrap();
        assert_eq!(back, map, "{text}");
    }

    /// `value = <toml>` does not read as a `T`, with `message` in the error.
    fn check_err<T: DeserializeOwned + std::fmt::Debug>(toml: &str, message: &str) {
        let err = toml::from_str::<BTreeMap<String, T>>(&format!("value = {toml}")).unwrap_err();
        assert!(err.to_string().contains(message), "{err}");
    }

    #[test]
    fn policies_by_name() {
        check("\"fcfs\"", Policy::Fcfs);
        check("\"easy\"", Policy::EASY);
        check("\"easy-k3\"", Policy::Easy { reservations: 3 });
        check(
            "\"easy-kinf\"",
            Policy::Easy {
                reservations: Policy::UNLIMITED,
            },
        );
        check("\"conservative\"", Policy::Conservative);
        check_err::<Policy>(
            "\"easy-k0\"",
            "unknown policy 'easy-k0': N in easy-k<N> is '0', expected a whole number from 1 to \
             4294967295 (or easy-kinf: every waiting job)",
        );
        check_err::<Policy>(
            "\"easy-k4294967296\"",
            "N in easy-k<N> is '4294967296', expected a whole number from 1 to 4294967295",
        );
        check_err::<Policy>(
            "\"easy-kx\"",
            "N in easy-k<N> is 'x', expected a whole number from 1 to 4294967295",
        );
        check_err::<Policy>(
            "\"sjf\"",
            "unknown policy 'sjf', expected fcfs, easy, easy-k<N> (N from 1 to 4294967295), \
             easy-kinf or conservative",
        );
    }

    #[test]
    fn statuses_overruns_and_times() {
        check("\"completed\"", Status::Completed);
        check("\"killed\"", Status::Killed);
        check("\"dropped\"", Status::Dropped);
        check("\"kill\"", Overrun::Kill);
        check("\"continue\"", Overrun::Continue);
        for name in QueueOrder::NAMES {
            let read: BTreeMap<String, QueueOrder> =
                toml::from_str(&format!("value = \"{name}\"")).unwrap();
            assert_eq!(read["value"].name(), name);
            assert_eq!(
                toml::to_string(&read).unwrap().trim(),
                format!("value = \"{name}\"")
            );
        }
        check_err::<QueueOrder>(
            "\"sjf\"",
            "unknown queue order 'sjf', expected arrival, shortest-estimate or earliest-deadline",
        );
        check("-42", Time(-42));
        check_err::<Status>("\"Completed\"", "unknown variant `Completed`");
    }

    #[test]
    fn proc_sets_as_interval_strings() {
        let mut set = ProcSet::new();
        set.insert_range(0, 3);
        set.insert_range(8, 8);
        check("\"0-3 8\"", set.clone());
        let read: BTreeMap<String, ProcSet> = toml::from_str("value = \"8 2-3 0-1\"").unwrap();
        assert_eq!(read["value"], set);
        check_err::<ProcSet>("\"3-1\"", "'3-1' is not a processor interval");
    }

    #[test]
    fn records_round_trip() {
        let mut job = Job::new(7, Time(60), 16, 3600, 1800);
        round_trip(job.clone());
        job.deadline = Some(Time(9000));
        round_trip(job);
        let read: BTreeMap<String, Job> = toml::from_str(
            "value = { id = 1, submit = 0, procs = 2, estimate = 10, run_time = 5 }",
        )
        .unwrap();
        assert_eq!(read["value"], Job::new(1, Time(0), 2, 10, 5));
        // Reading checks what `Job::check` checks, naming the field.
        for (fields, message) in [
            ("procs = 0, estimate = 10", "job 1: procs is 0 processors"),
            ("procs = 2, estimate = 0", "job 1: estimate is 0 s"),
            ("procs = 2, estimate = -5", "job 1: estimate is -5 s"),
        ] {
            check_err::<Job>(
                &format!("{{ id = 1, submit = 0, {fields}, run_time = 5 }}"),
                message,
            );
        }
        check_err::<Job>(
            "{ id = 2, submit = 1099511627777, procs = 1, estimate = 1, run_time = 0 }",
            "job 2: submit is 1099511627777 s",
        );
        check_err::<Job>(
            "{ id = 3, submit = 0, procs = 1, estimate = 1, run_time = -1, deadline = 0 }",
            "job 3: run_time is -1 s",
        );
        round_trip(Outcome {
            id: 7,
            start: Time(100),
            end: Time(1900),
            status: Status::Killed,
        });
        round_trip(FreeSlot {
            start: Time(0),
            end: Time(50),
            procs: 3,
        });
        let jobs = [Job::new(1, Time(0), 2, 10, 10)];
        let outcomes = [Outcome {
            id: 1,
            start: Time(0),
            end: Time(10),
            status: Status::Completed,
        }];
        round_trip(ScheduleStats::compute(&jobs, &outcomes, 4, 10).unwrap());
    }
}
