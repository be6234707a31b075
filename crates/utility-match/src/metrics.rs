//! The paper's performance metrics (§4.1, eqs. 2–6), per user and for the
//! system (the mean over users).

use std::collections::BTreeMap;

use crate::error::GridError;
use crate::grid::{GridRun, JobRecord, JobStatus};
use crate::scheduler::FailReason;

/// One user's metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct UserMetrics {
    /// The user.
    pub user: usize,
    /// Jobs the user submitted.
    pub jobs: usize,
    /// Eq. 2: completed jobs over submitted jobs.
    pub success_ratio: f64,
    /// The mean utility the user got over all submitted jobs, a job that
    /// never ran counting 0 ("the average utility value of the resources
    /// used by the user's jobs").
    pub utility: f64,
    /// Eq. 3 as printed: `1 − sqrt(Σ_j utility_j) / n_jobs`, over the same
    /// utilities. It falls as the utilities rise.
    pub utility_eq3: f64,
    /// The mean over jobs that ran of the utility they got.
    pub served_utility: Option<f64>,
    /// The mean over submitted jobs of the utility the scheduler computed
    /// with its own function when it assigned them (0 for a job that never ran).
    pub decided_utility: f64,
    /// Eq. 4: mean `t_assign − t_submit` over the jobs that were assigned
    /// (seconds); `None` if none was.
    pub submission_time: Option<f64>,
    /// Eq. 5: mean `t_executed − t_assign` over the jobs that completed
    /// (seconds); `None` if none did.
    pub execution_time: Option<f64>,
}

/// The system's metrics: each user metric averaged over users (over the
/// users it is defined for), plus load balance and message counts.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemMetrics {
    /// Users with at least one job.
    pub users: usize,
    /// Mean of eq. 2. This and the other means over users are NaN
    /// (undefined, never 0) in a run without jobs.
    pub success_ratio: f64,
    /// Mean of the users' mean utility.
    pub utility: f64,
    /// Mean of eq. 3 as printed.
    pub utility_eq3: f64,
    /// Mean of the users' mean utility over their jobs that ran; `None`
    /// (undefined, never 0) if no job ran.
    pub served_utility: Option<f64>,
    /// Mean of the users' mean scheduler-computed utility.
    pub decided_utility: f64,
    /// `system_submit_time`: mean of eq. 4, seconds; `None` if no job was
    /// assigned.
    pub submission_time: Option<f64>,
    /// `system_exec_time`: mean of eq. 5, seconds; `None` if no job
    /// completed.
    pub execution_time: Option<f64>,
    /// Eq. 6: `1 − std_dev_load / avg_load` over the machines.
    pub load_balance: f64,
    /// Job forwards per submitted job.
    pub forwards_per_job: f64,
    /// Status messages per submitted job.
    pub messages_per_job: f64,
    /// Jobs that failed for want of an acceptable resource.
    pub rejected: usize,
    /// Jobs that failed because their TTL ran out.
    pub expired: usize,
}

fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

impl UserMetrics {
    /// The metrics of `user` from their job records.
    pub fn of(user: usize, records: &[&JobRecord]) -> UserMetrics {
        let n = records.len().max(1) as f64;
        let completed = records.iter().filter(|r| r.status == JobStatus::Completed);
        let got = |r: &&&JobRecord| {
            if r.status == JobStatus::Completed {
                r.achieved_utility
            } else {
                0.0
            }
        };
        let total: f64 = records.iter().map(|r| got(&r)).sum();
        UserMetrics {
            user,
            jobs: records.len(),
            success_ratio: completed.clone().count() as f64 / n,
            utility: total / n,
            utility_eq3: 1.0 - total.sqrt() / n,
            served_utility: mean(completed.clone().map(|r| r.achieved_utility)),
            decided_utility: records.iter().map(|r| r.decided_utility).sum::<f64>() / n,
            submission_time: mean(
                records
                    .iter()
                    .filter_map(|r| Some((r.assigned? - r.submit) as f64)),
            ),
            execution_time: mean(completed.filter_map(|r| Some((r.end? - r.assigned?) as f64))),
        }
    }
}

/// Every user's metrics, by user id.
pub fn user_metrics(run: &GridRun) -> Vec<UserMetrics> {
    let mut by_user: BTreeMap<usize, Vec<&JobRecord>> = BTreeMap::new();
    for r in &run.jobs {
        by_user.entry(r.user).or_default().push(r);
    }
    by_user
        .into_iter()
        .map(|(u, rs)| UserMetrics::of(u, &rs))
        .collect()
}

/// Eq. 6: `1 − σ/μ` of the machines' utilisations (core-seconds of work
/// over core-seconds available from the first submission to the last
/// completion), with `σ` the population standard deviation. 1 when nothing
/// ran (no load, nothing unbalanced). Always finite.
///
/// # Errors
///
/// [`GridError::Usage`] for a machine of 0 cores in `run` (a simulated run
/// has none), and [`GridError::NotFinite`] should the result not be finite.
pub fn load_balance(run: &GridRun) -> Result<f64, GridError> {
    if let Some(m) = run.machines.iter().find(|m| m.cores == 0) {
        return Err(GridError::Usage {
            site: m.id.site,
            index: m.id.index,
            field: "cores",
            value: 0,
        });
    }
    let balance = balance(run);
    if balance.is_finite() {
        Ok(balance)
    } else {
        Err(GridError::NotFinite {
            metric: "load_balance",
            value: balance,
        })
    }
}

/// [`load_balance`] of a run whose machines have cores.
fn balance(run: &GridRun) -> f64 {
    let span = (run.last_end - run.first_submit).max(1) as f64;
    let loads: Vec<f64> = run
        .machines
        .iter()
        .map(|m| m.busy as f64 / (f64::from(m.cores) * span))
        .collect();
    let avg = mean(loads.iter().copied()).unwrap_or(0.0);
    if avg <= 0.0 {
        return 1.0;
    }
    let var = loads.iter().map(|l| (l - avg).powi(2)).sum::<f64>() / loads.len() as f64;
    1.0 - var.sqrt() / avg
}

/// The metrics that are means over users: undefined (NaN, or `None`) in a
/// run without jobs.
const USER_MEANS: [&str; 7] = [
    "success_ratio",
    "user_utility",
    "user_utility_eq3",
    "served_utility",
    "decided_utility",
    "submission_time",
    "execution_time",
];

impl SystemMetrics {
    /// Every metric by name, as a number (the counts converted), in the
    /// order of the fields; `utility` is called `user_utility` and
    /// `utility_eq3` `user_utility_eq3`. Finite for every `SystemMetrics`
    /// that [`SystemMetrics::of`] returns (it refuses the others), but for
    /// an undefined metric (`None`: a mean over no job), which is NaN,
    /// never 0.
    pub fn named(&self) -> [(&'static str, f64); 12] {
        [
            ("success_ratio", self.success_ratio),
            ("user_utility", self.utility),
            ("user_utility_eq3", self.utility_eq3),
            ("served_utility", self.served_utility.unwrap_or(f64::NAN)),
            ("decided_utility", self.decided_utility),
            ("submission_time", self.submission_time.unwrap_or(f64::NAN)),
            ("execution_time", self.execution_time.unwrap_or(f64::NAN)),
            ("load_balance", self.load_balance),
            ("forwards_per_job", self.forwards_per_job),
            ("messages_per_job", self.messages_per_job),
            ("rejected", self.rejected as f64),
            ("expired", self.expired as f64),
        ]
    }

    /// The metric called `name` (one of [`SystemMetrics::named`]'s), or
    /// `None` for a name it does not have.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.named()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The system metrics of a run: every one finite.
    ///
    /// # Errors
    ///
    /// [`load_balance`]'s, and [`GridError::NotFinite`] naming the first
    /// metric that would be NaN or infinite (a hand-made run whose records
    /// hold such utilities; a simulated run never does).
    pub fn of(run: &GridRun) -> Result<SystemMetrics, GridError> {
        let users = user_metrics(run);
        let jobs = run.jobs.len().max(1) as f64;
        let failed = |why: FailReason| {
            run.jobs
                .iter()
                .filter(|r| r.status == JobStatus::Failed(why))
                .count()
        };
        let m = SystemMetrics {
            users: users.len(),
            // A run without jobs has no user means: NaN (undefined), never 0.
            success_ratio: mean(users.iter().map(|u| u.success_ratio)).unwrap_or(f64::NAN),
            utility: mean(users.iter().map(|u| u.utility)).unwrap_or(f64::NAN),
            utility_eq3: mean(users.iter().map(|u| u.utility_eq3)).unwrap_or(f64::NAN),
            served_utility: mean(users.iter().filter_map(|u| u.served_utility)),
            decided_utility: mean(users.iter().map(|u| u.decided_utility)).unwrap_or(f64::NAN),
            submission_time: mean(users.iter().filter_map(|u| u.submission_time)),
            execution_time: mean(users.iter().filter_map(|u| u.execution_time)),
            load_balance: load_balance(run)?,
            forwards_per_job: run.forwards as f64 / jobs,
            messages_per_job: run.status_messages as f64 / jobs,
            rejected: failed(FailReason::NoAcceptableResource),
            expired: failed(FailReason::TtlExpired),
        };
        let undefined = |name: &str| {
            (m.users == 0 && USER_MEANS.contains(&name))
                || (name == "served_utility" && m.served_utility.is_none())
                || (name == "submission_time" && m.submission_time.is_none())
                || (name == "execution_time" && m.execution_time.is_none())
        };
        match m
            .named()
            .into_iter()
            .find(|(name, v)| !v.is_finite() && !undefined(name))
        {
            Some((metric, value)) => Err(GridError::NotFinite { metric, value }),
            None => Ok(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::MachineUsage;
    use crate::machine::ResourceId;
    use profile::Time;

    fn record(
        user: usize,
        submit: i64,
        assigned: Option<i64>,
        end: Option<i64>,
        u: f64,
    ) -> JobRecord {
        JobRecord {
            id: 0,
            user,
            site: 0,
            submit: Time(submit),
            assigned: assigned.map(Time),
            start: assigned.map(Time),
            end: end.map(Time),
            resource: assigned.map(|_| ResourceId { site: 0, index: 0 }),
            forwards: 0,
            status: if end.is_some() {
                JobStatus::Completed
            } else {
                JobStatus::Failed(FailReason::NoAcceptableResource)
            },
            decided_utility: if end.is_some() { u } else { 0.0 },
            achieved_utility: u,
        }
    }

    #[test]
    fn hand_computed_user_metrics() {
        let rs = [
            record(0, 0, Some(2), Some(12), 0.64),
            record(0, 5, Some(5), Some(25), 0.36),
            record(0, 9, None, None, 0.9),
        ];
        let refs: Vec<&JobRecord> = rs.iter().collect();
        let m = UserMetrics::of(0, &refs);
        assert_eq!(m.jobs, 3);
        assert!((m.success_ratio - 2.0 / 3.0).abs() < 1e-12);
        // The failed job counts 0 even though its record carries a value.
        assert!((m.utility - 1.0 / 3.0).abs() < 1e-12);
        assert!(
            (m.utility_eq3 - (1.0 - 1.0 / 3.0)).abs() < 1e-12,
            "1 − sqrt(1)/3"
        );
        assert!((m.served_utility.unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(m.submission_time, Some(1.0));
        assert_eq!(m.execution_time, Some(15.0));
    }

    #[test]
    fn system_metrics_average_users_and_balance_machines() {
        let run = GridRun {
            jobs: vec![
                record(0, 0, Some(0), Some(10), 1.0),
                record(1, 0, Some(4), Some(10), 0.5),
            ],
            machines: vec![
                MachineUsage {
                    id: ResourceId { site: 0, index: 0 },
                    cores: 1,
                    busy: 10,
                    jobs: 1,
                },
                MachineUsage {
                    id: ResourceId { site: 0, index: 1 },
                    cores: 2,
                    busy: 0,
                    jobs: 0,
                },
            ],
            status_messages: 6,
            forwards: 1,
            first_submit: Time(0),
            last_end: Time(10),
        };
        let s = SystemMetrics::of(&run).unwrap();
        assert_eq!(s.users, 2);
        assert_eq!(s.success_ratio, 1.0);
        assert_eq!(s.utility, 0.75);
        assert_eq!(s.submission_time, Some(2.0));
        assert_eq!(s.execution_time, Some(8.0));
        // Loads 1 and 0: mean 0.5, σ 0.5.
        assert_eq!(s.load_balance, 0.0);
        assert_eq!((s.forwards_per_job, s.messages_per_job), (0.5, 3.0));
        let idle = GridRun {
            jobs: vec![],
            machines: vec![],
            ..run
        };
        assert_eq!(load_balance(&idle), Ok(1.0));
        // No jobs: the user means are over nothing, NaN, never 0.
        let none = SystemMetrics::of(&idle).unwrap();
        assert!(none.success_ratio.is_nan() && none.utility.is_nan());
        assert_eq!(none.served_utility, None);
    }

    #[test]
    fn every_metric_by_name() {
        let m = SystemMetrics {
            users: 9,
            success_ratio: 0.1,
            utility: 0.2,
            utility_eq3: 0.3,
            served_utility: Some(0.4),
            decided_utility: 0.5,
            submission_time: Some(6.0),
            execution_time: Some(7.0),
            load_balance: 0.8,
            forwards_per_job: 0.9,
            messages_per_job: 1.1,
            rejected: 12,
            expired: 13,
        };
        let want = [
            ("success_ratio", 0.1),
            ("user_utility", 0.2),
            ("user_utility_eq3", 0.3),
            ("served_utility", 0.4),
            ("decided_utility", 0.5),
            ("submission_time", 6.0),
            ("execution_time", 7.0),
            ("load_balance", 0.8),
            ("forwards_per_job", 0.9),
            ("messages_per_job", 1.1),
            ("rejected", 12.0),
            ("expired", 13.0),
        ];
        assert_eq!(m.named(), want);
        for (name, value) in want {
            assert_eq!(m.get(name), Some(value), "{name}");
        }
        assert_eq!(
            m.get("utility"),
            None,
            "the field's name is not the metric's"
        );
        assert_eq!(m.get("users"), None);
    }
}
