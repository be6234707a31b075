//! The provisioning kind's platform and jobs: `[params]` into
//! `intergrid`'s `Config` and `Scenario` (the grid months of the trace, one
//! Lublin99 stream per cluster from derived seeds).

use std::sync::{Arc, Mutex, PoisonError};

use intergrid::{Config, Scenario};
use partitions_forecast::ForecastConfig;
use profile::{Job, MAX_DURATION, Time};
use swf_io::lublin99::Lublin99;

use super::{AdmissionParams, DAY, Params};
use crate::error::RunError;
use crate::kind::Input;
use crate::seed::derive_seed;
use crate::workload::Workload;

/// The platform of `params`.
pub(super) fn config(params: &Params) -> Config {
    Config {
        clusters: params.clusters.clone(),
        forecast: ForecastConfig {
            window: params.forecast_window,
            smoothing: None,
            interval: (params.interval_min * 60.0).round() as i64,
            checks: params.reallocation_checks,
            train_from: Time(params.training_from_days * DAY),
            share_from: params.share_from,
            load: params.forecast_load,
        },
        report_every: params.report_every_s,
        tolerance: params.tolerance_s,
        horizon: params.horizon_s,
        track_allocations: params.track_allocations,
        pricing: params.admission.as_ref().map(pricing),
    }
}

/// The providers' pricing of `[params.admission]`.
fn pricing(a: &AdmissionParams) -> intergrid::ProviderPricing {
    intergrid::ProviderPricing {
        alpha: a.alpha,
        beta: a.beta,
        base_price: a.base_price,
        budget_factor: a.budget_factor,
        deadline_factor: a.deadline_factor,
    }
}

/// One type-less Lublin99 stream per cluster over `span` seconds, each from
/// its own seed derived from the repetition's `seed`, the largest job of
/// cluster `k` `largest[k]` processors.
///
/// The streams are a function of the clusters' largest jobs, `span` and
/// `seed` alone, and the runs of one repetition (the base and every series,
/// which the run graph lays out next to each other) all ask for the same:
/// the last few are kept ([`RECENT_LOCAL`]) and handed out again instead of
/// drawn again, the same jobs either way.
fn local_jobs(largest: &[u32], span: i64, seed: u64) -> Vec<Vec<Job>> {
    let key = LocalKey {
        largest: largest.to_vec(),
        span,
        seed,
    };
    let recent = || RECENT_LOCAL.lock().unwrap_or_else(PoisonError::into_inner);
    let kept = recent()
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, jobs)| Arc::clone(jobs));
    if let Some(jobs) = kept {
        return jobs.as_ref().clone();
    }
    let jobs: Vec<Vec<Job>> = key
        .largest
        .iter()
        .enumerate()
        .map(|(k, &procs)| {
            Lublin99 {
                procs,
                duration: span,
                max_jobs: None,
                seed: derive_seed(seed, &format!("local/{k}")),
                two_class: false,
                ..Default::default()
            }
            .jobs()
        })
        .collect();
    let mut recent = recent();
    if recent.len() == RECENT_LOCAL_KEPT {
        recent.remove(0);
    }
    recent.push((key, Arc::new(jobs.clone())));
    jobs
}

/// What a repetition's local streams are drawn from.
#[derive(PartialEq, Eq)]
struct LocalKey {
    /// Per cluster, its largest local job.
    largest: Vec<u32>,
    span: i64,
    seed: u64,
}

/// How many repetitions' local streams [`RECENT_LOCAL`] keeps (a few
/// megabytes each): enough for the runs of one repetition on every thread.
const RECENT_LOCAL_KEPT: usize = 4;

/// One repetition's local streams, one per cluster.
type LocalStreams = Arc<Vec<Vec<Job>>>;

/// The local streams drawn last, oldest first.
static RECENT_LOCAL: Mutex<Vec<(LocalKey, LocalStreams)>> = Mutex::new(Vec::new());

/// Seconds from 1970-01-01 to `year-month-01` 00:00 (proleptic Gregorian,
/// Hinnant's days-from-civil).
fn month_start_unix(year: i64, month: u32) -> i64 {
    let (y, m) = if month <= 2 {
        (year - 1, i64::from(month) + 9)
    } else {
        (year, i64::from(month) - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era.saturating_mul(146_097)
        .saturating_add(doe - 719_468)
        .saturating_mul(DAY)
}

/// The grid months of a trace: which months of which year its grid jobs
/// are taken from, and where the trace's time 0 lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GridMonths {
    /// The calendar year of the months.
    pub year: i64,
    /// The first and last month, 1 to 12, in order.
    pub months: [u32; 2],
    /// The Unix time of the trace's time 0.
    pub trace_start_unix: i64,
    /// The offset of the site's local time from UTC, in seconds.
    pub utc_offset_s: i64,
}

impl GridMonths {
    /// The months as trace times `[from, until)`: local midnight of the
    /// first month's first day to that of the month after the last.
    pub fn window(&self) -> (i64, i64) {
        let [first, last] = self.months;
        // Saturating: fields out of range (see `resolve`) give a window no
        // job falls in, never an overflow.
        let offset = self.trace_start_unix.saturating_add(self.utc_offset_s);
        let from = month_start_unix(self.year, first).saturating_sub(offset);
        let (ny, nm) = if last == 12 {
            (self.year.saturating_add(1), 1)
        } else {
            (self.year, last + 1)
        };
        (from, month_start_unix(ny, nm).saturating_sub(offset))
    }
}

/// The jobs of one repetition of a provisioning run, as the `provisioning`
/// kind draws them (and the Python package's `usched.papers`, through this
/// function): the jobs of `trace` submitted in `months`, time 0 at the
/// first month's local midnight, and one Lublin99 stream per cluster over
/// the same span from the repetition's `seed`, the largest job of cluster
/// `k` `local_max[k]` processors; a run measures from `warmup` on.
///
/// The error says that no grid job falls in the months.
pub fn provisioning_scenario(
    trace: &Workload,
    months: &GridMonths,
    local_max: &[u32],
    warmup: Time,
    seed: u64,
) -> Result<Scenario, String> {
    let (from, until) = months.window();
    let grid: Vec<Job> = trace
        .jobs
        .iter()
        .filter(|j| (from..until).contains(&j.submit.0))
        .map(|j| Job {
            submit: j.submit - from,
            deadline: None,
            ..j.clone()
        })
        .collect();
    if grid.is_empty() {
        let [first, last] = months.months;
        return Err(format!(
            "no grid job of '{}' falls in months {first} to {last}",
            trace.label
        ));
    }
    Ok(Scenario {
        grid,
        local: local_jobs(local_max, until - from, seed),
        warmup,
    })
}

/// The largest local job of each cluster of `params`.
fn local_max(params: &Params) -> Vec<u32> {
    params
        .clusters
        .iter()
        .map(|&procs| params.local_max_job.of(procs, params.procs_per_node))
        .collect()
}

/// The calendar of the grid months of `params` on `workload`
/// ([`GridMonths::resolve`]).
pub(super) fn grid_months(params: &Params, workload: &Workload) -> Result<GridMonths, String> {
    GridMonths::resolve(
        params.trace_start_unix,
        params.trace_year,
        params.grid_months,
        params.trace_utc_offset_s,
        workload,
    )
}

impl GridMonths {
    /// The calendar of `months` of `workload`, as the `provisioning` kind
    /// and the Python package resolve it: `trace_start_unix` if set, else
    /// the trace header's `UnixStartTime` ([`Workload::start_unix`]);
    /// `trace_year` if set, else the local calendar year of that start.
    /// The error names the workload and the field when neither gives the
    /// start (a header without `UnixStartTime`, a generated workload).
    pub fn resolve(
        trace_start_unix: Option<i64>,
        trace_year: Option<i64>,
        months: [u32; 2],
        utc_offset_s: i64,
        workload: &Workload,
    ) -> Result<GridMonths, String> {
        let start = trace_start_unix.or(workload.start_unix).ok_or_else(|| {
            format!(
                "params.trace_start_unix is unset and workload '{}' has no UnixStartTime in its \
                 trace header to take it from; set params.trace_start_unix to the trace's time 0 \
                 in seconds since 1970 (and params.trace_year if the year is not that start's)",
                workload.label
            )
        })?;
        // Times within the simulator's 2^40 s, a year of four digits and
        // an offset of at most a day, as the kind's check asks.
        let out = |key: &str, v: i64, lo: i64, hi: i64| {
            format!("params.{key} is {v}, expected {lo} to {hi}")
        };
        if !(-MAX_DURATION..=MAX_DURATION).contains(&start) {
            return Err(format!(
                "{} (the trace's time 0; workload '{}')",
                out("trace_start_unix", start, -MAX_DURATION, MAX_DURATION),
                workload.label
            ));
        }
        if !(-DAY..=DAY).contains(&utc_offset_s) {
            return Err(out("trace_utc_offset_s", utc_offset_s, -DAY, DAY));
        }
        if let Some(y) = trace_year.filter(|y| !(1..=9999).contains(y)) {
            return Err(out("trace_year", y, 1, 9999));
        }
        let year = trace_year.unwrap_or_else(|| year_of_unix(start + utc_offset_s));
        Ok(GridMonths {
            year,
            months,
            trace_start_unix: start,
            utc_offset_s,
        })
    }
}

/// The calendar year (proleptic Gregorian, UTC) of Unix time `t`.
fn year_of_unix(t: i64) -> i64 {
    let mut year = 1970 + t.div_euclid(365 * DAY + DAY / 4);
    while month_start_unix(year, 1) > t {
        year -= 1;
    }
    while month_start_unix(year + 1, 1) <= t {
        year += 1;
    }
    year
}

/// The jobs of one repetition of `params` ([`provisioning_scenario`]).
pub(super) fn scenario(params: &Params, input: &Input<'_>) -> Result<Scenario, RunError> {
    scenario_of(params, input.workload()?, input.seed)
}

/// The jobs of the repetition of `params` whose seed is `seed`, the grid
/// jobs from `workload` ([`provisioning_scenario`]).
pub(super) fn scenario_of(
    params: &Params,
    workload: &Workload,
    seed: u64,
) -> Result<Scenario, RunError> {
    let months = grid_months(params, workload)
        .map_err(|message| RunError::field("params.trace_start_unix", message))?;
    let warmup = Time(params.warmup_days * DAY);
    provisioning_scenario(workload, &months, &local_max(params), warmup, seed).map_err(|message| {
        RunError::field(
            "params.grid_months",
            format!("{message}; check params.grid_months and trace_start_unix"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headed(start_unix: Option<i64>) -> Workload {
        Workload {
            label: "w".into(),
            capacity: 8,
            jobs: Vec::new(),
            start_unix,
        }
    }

    #[test]
    fn the_trace_start_comes_from_the_config_else_the_header() {
        let p = Params::default();
        // DAS-2's header gives the values committed configs set: their results stand.
        let das2 = grid_months(&p, &headed(Some(1_041_377_305))).unwrap();
        assert_eq!((das2.trace_start_unix, das2.year), (1_041_377_305, 2003));
        // KTH-SP2's header (1996-09-23): its start and its year.
        let kth = grid_months(&p, &headed(Some(843_480_031))).unwrap();
        assert_eq!((kth.trace_start_unix, kth.year), (843_480_031, 1996));
        // A value set in the configuration wins over the header.
        let set = Params {
            trace_start_unix: Some(1_000),
            trace_year: Some(1999),
            ..Params::default()
        };
        let m = grid_months(&set, &headed(Some(843_480_031))).unwrap();
        assert_eq!((m.trace_start_unix, m.year), (1_000, 1999));
        // Neither: an error naming the workload and the field.
        let e = grid_months(&p, &headed(None)).unwrap_err();
        assert!(
            e.starts_with("params.trace_start_unix is unset and workload 'w' has no UnixStartTime"),
            "{e}"
        );
        assert_eq!(year_of_unix(-1), 1969);
        assert_eq!(year_of_unix(month_start_unix(2024, 1)), 2024);
        assert_eq!(year_of_unix(month_start_unix(2024, 1) - 1), 2023);
    }
    use crate::kinds::provisioning::LocalMax;

    /// The widest job of each cluster's local stream over 30 days.
    fn widest(params: &Params) -> Vec<u32> {
        local_jobs(&local_max(params), 30 * DAY, 2008)
            .iter()
            .map(|jobs| jobs.iter().map(|j| j.procs).max().unwrap_or(0))
            .collect()
    }

    /// §5.1: "the maximum number of CPUs used by the generated jobs is set
    /// to the number of nodes in the clusters": 72 and 32 on DAS-2's
    /// dual-processor clusters of 144 and 64 processors, by default.
    #[test]
    fn the_largest_local_job_is_a_clusters_nodes() {
        let nodes = Params::default();
        assert_eq!(nodes.local_max_job, LocalMax::Nodes);
        let limits: Vec<u32> = nodes
            .clusters
            .iter()
            .map(|&c| nodes.local_max_job.of(c, nodes.procs_per_node))
            .collect();
        assert_eq!(limits, [72, 32, 32, 32, 32]);
        let by_nodes = widest(&nodes);
        let by_procs = widest(&Params {
            local_max_job: LocalMax::Processors,
            ..Params::default()
        });
        for (k, ((&n, &p), &c)) in by_nodes
            .iter()
            .zip(&by_procs)
            .zip(&nodes.clusters)
            .enumerate()
        {
            assert!(n <= c / 2 && n > c / 4, "cluster {k}: widest {n} of {c}");
            assert!(p <= c && p > c / 2, "cluster {k}: widest {p} of {c}");
        }
    }
}
