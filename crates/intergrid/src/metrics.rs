//! What a run is worth against a base run: slowdowns, the improvement
//! ratio R, violations and messages.

use profile::{Job, Time};

use crate::error::IntergridError;
use crate::series::Series;
use crate::simulate::{Config, Run, Scenario, simulate, simulate_with};
use gateway::Provisioning;
use partitions_forecast::Partitioning;

/// The numbers of one run over the jobs submitted after the warm-up.
/// Means of nothing are NaN; shares of no grid job are 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Messages between the gateway and the providers after the warm-up.
    pub messages: u64,
    /// Violations counted against measured grid jobs.
    pub violations: u64,
    /// Violations per 100 measured grid jobs.
    pub violations_pct: f64,
    /// Mean bounded slowdown of the measured grid jobs that ran.
    pub grid_bsld: f64,
    /// Mean bounded slowdown of the measured local jobs.
    pub local_bsld: f64,
    /// Mean improvement ratio R (eq. 2) of the grid jobs that ran in both runs.
    pub grid_r: f64,
    /// Mean improvement ratio R (eq. 2) of the local jobs.
    pub local_r: f64,
    /// Measured grid jobs that started later than planned by more than T.
    pub late_starts: u64,
    /// Reservations of measured grid jobs the providers refused.
    pub refusals: u64,
    /// Share of measured grid jobs the gateway rejected, in percent.
    pub rejected_pct: f64,
    /// Share of measured grid jobs that waited at the gateway, in percent.
    pub held_pct: f64,
    /// Grid jobs measured.
    pub grid_jobs: usize,
    /// Local jobs measured.
    pub local_jobs: usize,
    /// What accepted grid jobs paid the providers (0 without
    /// `Config::pricing`).
    pub revenue: f64,
}

/// Bounded slowdown of a job submitted at `submit` that ran over
/// `(start, end)`: `max(1, response / max(run, bound))` (differences of
/// times saturate, and a `bound` below 1 s counts as 1 s, so any times and
/// bound give a finite number of at least 1).
pub fn bsld(submit: Time, (start, end): (Time, Time), bound: i64) -> f64 {
    let run = end - start;
    ((end - submit) as f64 / run.max(bound).max(1) as f64).max(1.0)
}

/// Lawson & Smirni's improvement ratio (eq. 2 of the paper) of a value
/// against its base: `(base − new) / min(base, new)`, positive when `new`
/// is smaller, and of the same size either way round.
///
/// Eq. 2 is meant for positive values (waits, slowdowns); where one of
/// them is 0 it is infinite, and NaN where both are (or one is NaN), as
/// IEEE arithmetic gives it: the ratio is undefined there, and the value
/// says so rather than a number that looks measured.
pub fn ratio(base: f64, new: f64) -> f64 {
    (base - new) / base.min(new)
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        f64::NAN
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

impl Run {
    /// This run's [`Metrics`] against `base` (both runs of `scenario`),
    /// with slowdowns bounded at `bound` seconds.
    pub fn metrics(
        &self,
        base: &Run,
        scenario: &Scenario,
        bound: i64,
    ) -> Result<Metrics, IntergridError> {
        if bound < 1 {
            return Err(IntergridError::BsldBound { bound });
        }
        self.fits(scenario)?;
        base.fits(scenario)?;
        let measured = |j: &Job| j.submit >= scenario.warmup;
        let (mut grid_s, mut grid_r) = (Vec::new(), Vec::new());
        let (mut n_grid, mut rejected, mut held) = (0usize, 0usize, 0usize);
        let (mut violations, mut late, mut refusals) = (0u64, 0u64, 0u64);
        for (i, job) in scenario
            .grid
            .iter()
            .enumerate()
            .filter(|(_, j)| measured(j))
        {
            n_grid += 1;
            violations += u64::from(self.violations[i]);
            late += u64::from(self.late[i]);
            refusals += u64::from(self.refusals[i]);
            held += usize::from(self.held[i]);
            let Some(ran) = self.grid[i] else {
                rejected += 1;
                continue;
            };
            let s = bsld(job.submit, ran, bound);
            grid_s.push(s);
            if let Some(b) = base.grid[i] {
                grid_r.push(ratio(bsld(job.submit, b, bound), s));
            }
        }
        let (mut local_s, mut local_r) = (Vec::new(), Vec::new());
        for (k, jobs) in scenario.local.iter().enumerate() {
            for (i, job) in jobs.iter().enumerate().filter(|(_, j)| measured(j)) {
                let s = bsld(job.submit, self.local[k][i], bound);
                local_s.push(s);
                local_r.push(ratio(bsld(job.submit, base.local[k][i], bound), s));
            }
        }
        let pct = |n: f64| {
            if n_grid == 0 {
                0.0
            } else {
                100.0 * n / n_grid as f64
            }
        };
        Ok(Metrics {
            messages: self.messages,
            violations,
            violations_pct: pct(violations as f64),
            grid_bsld: mean(&grid_s),
            local_bsld: mean(&local_s),
            grid_r: mean(&grid_r),
            local_r: mean(&local_r),
            late_starts: late,
            refusals,
            rejected_pct: pct(rejected as f64),
            held_pct: pct(held as f64),
            grid_jobs: n_grid,
            local_jobs: local_s.len(),
            revenue: self.revenue,
        })
    }
}

/// How a series is measured: against a base series whose run sets the
/// deadlines and the reference of the ratio R.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    /// The base of deadlines and of the ratio R.
    pub base: Series,
    /// Share of grid jobs given a deadline, in `[0, 1]`.
    pub deadline_share: f64,
    /// Deadline = submit + stringency × response time under the base.
    pub stringency: f64,
    /// Seed of the deadline draws (see [`Scenario::deadlines`]).
    pub deadline_seed: u64,
    /// Bounded-slowdown bound in seconds.
    pub bsld_bound: i64,
}

/// The paper's measurement of `series` on `scenario`: the base series runs
/// without deadlines, a share of grid jobs gets deadlines from its response
/// times, then `series` runs with them and is measured against the base.
/// When `series` is the base and no job gets a deadline, the base run is
/// measured against itself (R = 0) without a second simulation.
pub fn evaluate(
    config: &Config,
    scenario: &Scenario,
    series: Series,
    evaluation: &Evaluation,
) -> Result<Metrics, IntergridError> {
    let (base, deadlines) = base_and_deadlines(config, scenario, evaluation)?;
    let other = if series == evaluation.base && evaluation.deadline_share == 0.0 {
        None
    } else {
        Some(simulate(config, scenario, series, Some(&deadlines))?)
    };
    other
        .as_ref()
        .unwrap_or(&base)
        .metrics(&base, scenario, evaluation.bsld_bound)
}

/// [`evaluate`] for a series of one's own ([`simulate_with`]'s
/// `partitioning`, `provisioning` and `name`): the base series runs without
/// deadlines, a share of grid jobs gets deadlines from its response times,
/// then the series of one's own runs with them and is measured against the
/// base, R and all.
pub fn evaluate_with<P: Partitioning + ?Sized, Q: Provisioning + Clone>(
    config: &Config,
    scenario: &Scenario,
    name: &str,
    partitioning: &P,
    provisioning: Q,
    evaluation: &Evaluation,
) -> Result<Metrics, IntergridError> {
    let (base, deadlines) = base_and_deadlines(config, scenario, evaluation)?;
    let run = simulate_with(
        config,
        scenario,
        name,
        partitioning,
        provisioning,
        Some(&deadlines),
    )?;
    run.metrics(&base, scenario, evaluation.bsld_bound)
}

/// The base series' run without deadlines, and the deadlines it gives a
/// share of the grid jobs.
fn base_and_deadlines(
    config: &Config,
    scenario: &Scenario,
    evaluation: &Evaluation,
) -> Result<(Run, Vec<Option<Time>>), IntergridError> {
    let none = vec![None; scenario.grid.len()];
    let base = simulate(config, scenario, evaluation.base, Some(&none))?;
    let deadlines = scenario.deadlines(
        &base,
        evaluation.deadline_share,
        evaluation.stringency,
        evaluation.deadline_seed,
    )?;
    Ok((base, deadlines))
}
