//! `kind = "utility"`: Vasques & Veiga's decentralised grid (issue 6): four
//! virtual organisations whose local schedulers place jobs by partial
//! utility (`pu`), binary utility (`bu`) or matchmaking (`mm`), forwarding
//! them between sites; one series per scheduler, every series on the same
//! generated grids and jobs (common random numbers per repetition).
//!
//! The kind generates its own workload (§4.2), so its experiments name one
//! `[[workloads]]` entry with `generated_by_kind`: its label is the single x
//! category, and the bars of a figure are the schedulers. Numeric sweeps:
//! the generic `load` axis multiplies the arrival rate (divides
//! `mean_interarrival`); the axes `mean_interarrival`, `delay`, `max_ttl`,
//! `status_period`, `jobs_per_core` and `users` set that parameter to x.
//!
//! ```toml
//! [params]
//! schedulers = ["pu", "bu", "mm"]
//! # §4.2 (defaults shown): the grid and its jobs
//! sites = 4
//! resources_per_site = 20
//! users = 70
//! jobs_per_user = 20
//! mean_interarrival = 120      # s: "Poisson, mean 2", read in minutes
//! max_options = 4
//! os = ["Linux", "MacOS", "Solaris", "Windows"]
//! arch = [32, 64]
//! speeds = [1000, 2000, 3000, 4000]        # MIPS per core
//! exec_times = [300, 600, 900, 1200]        # s, submission to completion
//! cores = [1, 2, 4, 8]
//! memory = [1024, 2048, 4096, 8192]         # MB
//! length = [200000, 1000000]                # MI, uniform
//! jobs_per_core = 2                         # 0: unbounded resource queues
//! weights = [1.0, 1.0, 1.0, 1.0]            # β of os, arch, exec time, speed
//! # The local schedulers (Algorithms 1 and 2)
//! max_ttl = 3
//! delay = 1                                 # s between two sites
//! # delays = [[0, 1, ...], ...]             # or one row per site
//! status_period = 60                        # s
//! l_max = 0.8
//! n_max = 4
//! load_trigger = "above"                    # or "drift"
//! remote_view = "full"                      # or "summary"
//! tie_break = "local-least-loaded"          # or "local-first", "table-order"
//! local_fallback = false
//! exec_estimate = "turnaround"              # or "run-time"
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utility_match::{
    Delays, ExecEstimate, GridConfig, LoadTrigger, RemoteView, Scenario, SystemMetrics, TieBreak,
    UpdatePolicy, UtilityKind, simulate, validate,
};

use crate::config::Experiment;
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;

/// The utility-scheduling runner.
pub(crate) struct Utility;

/// A scheduler written by name in TOML (`"pu"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SchedulerName(pub UtilityKind);

impl<'de> Deserialize<'de> for SchedulerName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map(SchedulerName)
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for SchedulerName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

/// Algorithm 1's reading of `lMax`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TriggerName {
    /// `load > lMax`, as printed.
    #[default]
    Above,
    /// A change of more than `lMax` since the last message.
    Drift,
}

/// What a site learns from the others' messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ViewName {
    /// Whole tables.
    #[default]
    Full,
    /// The summary's resources only.
    Summary,
}

/// Order among equal utilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TieName {
    /// Table order.
    TableOrder,
    /// Local first.
    LocalFirst,
    /// Local first, then least loaded.
    #[default]
    LocalLeastLoaded,
}

/// How the execution-time requirement is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ExecName {
    /// Estimated submission-to-completion time, load-aware.
    #[default]
    Turnaround,
    /// Run time on the resource alone.
    RunTime,
}

/// `[params]` of a utility experiment; every field but `schedulers` has
/// the default of [`Scenario::paper`] and [`GridConfig::default`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Params {
    /// One series per scheduler, in legend order.
    pub schedulers: Vec<SchedulerName>,
    #[serde(default = "d::sites")]
    pub sites: usize,
    #[serde(default = "d::resources_per_site")]
    pub resources_per_site: usize,
    #[serde(default = "d::users")]
    pub users: usize,
    #[serde(default = "d::jobs_per_user")]
    pub jobs_per_user: usize,
    /// Seconds between one user's submissions, on average.
    #[serde(default = "d::mean_interarrival")]
    pub mean_interarrival: f64,
    #[serde(default = "d::max_options")]
    pub max_options: usize,
    #[serde(default = "d::os")]
    pub os: Vec<String>,
    #[serde(default = "d::arch")]
    pub arch: Vec<i64>,
    #[serde(default = "d::speeds")]
    pub speeds: Vec<i64>,
    #[serde(default = "d::exec_times")]
    pub exec_times: Vec<i64>,
    #[serde(default = "d::cores")]
    pub cores: Vec<u32>,
    #[serde(default = "d::memory")]
    pub memory: Vec<i64>,
    /// `[low, high]` million instructions.
    #[serde(default = "d::length")]
    pub length: [i64; 2],
    /// Jobs a resource holds per core; 0 for unbounded queues.
    #[serde(default = "d::jobs_per_core")]
    pub jobs_per_core: u32,
    #[serde(default = "d::weights")]
    pub weights: [f64; 4],
    #[serde(default = "d::max_ttl")]
    pub max_ttl: u32,
    /// Seconds between any two sites (unless `delays` is given).
    #[serde(default = "d::delay")]
    pub delay: i64,
    /// `delays[from][to]` seconds, one row per site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delays: Option<Vec<Vec<i64>>>,
    #[serde(default = "d::status_period")]
    pub status_period: i64,
    #[serde(default = "d::l_max")]
    pub l_max: f64,
    #[serde(default = "d::n_max")]
    pub n_max: u32,
    #[serde(default)]
    pub load_trigger: TriggerName,
    #[serde(default)]
    pub remote_view: ViewName,
    #[serde(default)]
    pub tie_break: TieName,
    #[serde(default)]
    pub local_fallback: bool,
    #[serde(default)]
    pub exec_estimate: ExecName,
}

/// Defaults, from the crate's.
mod d {
    use utility_match::{GridConfig, Scenario};

    fn s() -> Scenario {
        Scenario::paper()
    }
    fn g() -> GridConfig {
        GridConfig::default()
    }
    pub fn sites() -> usize {
        s().sites
    }
    pub fn resources_per_site() -> usize {
        s().resources_per_site
    }
    pub fn users() -> usize {
        s().users
    }
    pub fn jobs_per_user() -> usize {
        s().jobs_per_user
    }
    pub fn mean_interarrival() -> f64 {
        s().mean_interarrival
    }
    pub fn max_options() -> usize {
        s().max_options
    }
    pub fn os() -> Vec<String> {
        s().os
    }
    pub fn arch() -> Vec<i64> {
        s().arch
    }
    pub fn speeds() -> Vec<i64> {
        s().speeds
    }
    pub fn exec_times() -> Vec<i64> {
        s().exec_times
    }
    pub fn cores() -> Vec<u32> {
        s().cores
    }
    pub fn memory() -> Vec<i64> {
        s().memory
    }
    pub fn length() -> [i64; 2] {
        let (lo, hi) = s().length;
        [lo, hi]
    }
    pub fn jobs_per_core() -> u32 {
        s().jobs_per_core.unwrap_or(0)
    }
    pub fn weights() -> [f64; 4] {
        s().weights
    }
    pub fn max_ttl() -> u32 {
        g().max_ttl
    }
    pub fn delay() -> i64 {
        match g().delays {
            utility_match::Delays::Uniform(d) => d,
            utility_match::Delays::Matrix(_) => 0,
        }
    }
    pub fn status_period() -> i64 {
        g().updates.period
    }
    pub fn l_max() -> f64 {
        g().updates.l_max
    }
    pub fn n_max() -> u32 {
        g().updates.n_max
    }
}

/// The numeric axes of the kind; each sets the parameter of its name.
const AXES: &[&str] = &[
    "mean_interarrival",
    "delay",
    "max_ttl",
    "status_period",
    "jobs_per_core",
    "users",
];

impl Params {
    /// The parameters at `x` on `axis` (unchanged on the workload axis).
    fn at(&self, axis: &str, x: Option<f64>) -> Result<Params, String> {
        let mut p = self.clone();
        let Some(x) = x else { return Ok(p) };
        let whole = || {
            if x.fract() == 0.0 && x >= 0.0 && x <= f64::from(u32::MAX) {
                Ok(x as u32)
            } else {
                Err(format!(
                    "axis '{axis}' takes whole non-negative numbers, got {x}"
                ))
            }
        };
        match axis {
            "load" if x > 0.0 => p.mean_interarrival /= x,
            "mean_interarrival" => p.mean_interarrival = x,
            "delay" => p.delay = i64::from(whole()?),
            "max_ttl" => p.max_ttl = whole()?,
            "status_period" => p.status_period = i64::from(whole()?),
            "jobs_per_core" => p.jobs_per_core = whole()?,
            "users" => p.users = whole()? as usize,
            _ => {
                return Err(format!(
                    "axis '{axis}' at {x} is not one of the utility kind's"
                ));
            }
        }
        Ok(p)
    }

    /// The §4.2 scenario these parameters describe.
    fn scenario(&self) -> Scenario {
        Scenario {
            sites: self.sites,
            resources_per_site: self.resources_per_site,
            users: self.users,
            jobs_per_user: self.jobs_per_user,
            mean_interarrival: self.mean_interarrival,
            max_options: self.max_options,
            os: self.os.clone(),
            arch: self.arch.clone(),
            speeds: self.speeds.clone(),
            exec_times: self.exec_times.clone(),
            cores: self.cores.clone(),
            memory: self.memory.clone(),
            length: (self.length[0], self.length[1]),
            jobs_per_core: (self.jobs_per_core > 0).then_some(self.jobs_per_core),
            weights: self.weights,
        }
    }

    fn grid(&self) -> GridConfig {
        GridConfig {
            max_ttl: self.max_ttl,
            delays: match &self.delays {
                Some(m) => Delays::Matrix(m.clone()),
                None => Delays::Uniform(self.delay),
            },
            updates: UpdatePolicy {
                period: self.status_period,
                l_max: self.l_max,
                n_max: self.n_max,
                load_trigger: match self.load_trigger {
                    TriggerName::Above => LoadTrigger::Above,
                    TriggerName::Drift => LoadTrigger::Drift,
                },
            },
            remote_view: match self.remote_view {
                ViewName::Full => RemoteView::Full,
                ViewName::Summary => RemoteView::Summary,
            },
            tie_break: match self.tie_break {
                TieName::TableOrder => TieBreak::TableOrder,
                TieName::LocalFirst => TieBreak::LocalFirst,
                TieName::LocalLeastLoaded => TieBreak::LocalLeastLoaded,
            },
            local_fallback: self.local_fallback,
            exec_estimate: match self.exec_estimate {
                ExecName::Turnaround => ExecEstimate::Turnaround,
                ExecName::RunTime => ExecEstimate::RunTime,
            },
        }
    }
}

impl Kind for Utility {
    const NAME: &'static str = "utility";
    const AXES: &'static [&'static str] = AXES;
    const METRICS: &'static [Metric] = &[
        Metric {
            name: "success_ratio",
            title: "User success ratio (eq. 2)",
            y_label: "completed / submitted jobs",
        },
        Metric {
            name: "user_utility",
            title: "User utility (mean over jobs, failed = 0)",
            y_label: "utility",
        },
        Metric {
            name: "user_utility_eq3",
            title: "User utility, eq. 3 as printed",
            y_label: "1 − sqrt(Σ utility) / jobs",
        },
        Metric {
            name: "served_utility",
            title: "Utility of the jobs that ran",
            y_label: "utility",
        },
        Metric {
            name: "decided_utility",
            title: "Utility computed by the scheduler",
            y_label: "utility",
        },
        Metric {
            name: "submission_time",
            title: "Submission time (eq. 4)",
            y_label: "t_assign − t_submit (s)",
        },
        Metric {
            name: "execution_time",
            title: "Execution time (eq. 5)",
            y_label: "t_executed − t_assign (s)",
        },
        Metric {
            name: "load_balance",
            title: "System load balance (eq. 6)",
            y_label: "1 − σ/μ of utilisation",
        },
        Metric {
            name: "forwards_per_job",
            title: "Forwards per job",
            y_label: "forwards",
        },
        Metric {
            name: "messages_per_job",
            title: "Status messages per job",
            y_label: "messages",
        },
        Metric {
            name: "rejected",
            title: "Jobs failed for want of an acceptable resource",
            y_label: "jobs",
        },
        Metric {
            name: "expired",
            title: "Jobs failed when their TTL ran out",
            y_label: "jobs",
        },
    ];
    type Params = Params;

    fn series(params: &Params) -> Vec<String> {
        params
            .schedulers
            .iter()
            .map(|s| s.0.name().to_string())
            .collect()
    }

    fn check(params: &Params, experiment: &Experiment) -> Result<(), String> {
        let axis = experiment.spec.sweep.axis.get_ref();
        let xs: Vec<Option<f64>> = if experiment.is_categorical() {
            vec![None]
        } else {
            experiment
                .spec
                .sweep
                .values
                .iter()
                .map(|v| Some(*v))
                .collect()
        };
        for x in xs {
            check_params(&params.at(axis, x)?)?;
        }
        Ok(())
    }

    fn run(params: &Params, cell: &Cell<'_>) -> Result<Vec<f64>, RunError> {
        let err = |message: String| RunError::Kind { message };
        let params = params.at(cell.axis, cell.x).map_err(err)?;
        let kind = params.schedulers[cell.series].0;
        let w = params
            .scenario()
            .generate(cell.seed)
            .map_err(|e| err(format!("params.{e}")))?;
        let config = params.grid();
        let run = simulate(&config, &kind, &w.machines, &w.jobs)
            .map_err(|e| err(format!("{kind}: {e}")))?;
        validate(&w.machines, &w.jobs, &run, config.max_ttl).map_err(|v| {
            err(format!(
                "{kind} produced an invalid run ({v}); this is a scheduler bug, please report it"
            ))
        })?;
        let m = SystemMetrics::of(&run);
        Ok(vec![
            m.success_ratio,
            m.utility,
            m.utility_eq3,
            m.served_utility,
            m.decided_utility,
            m.submission_time,
            m.execution_time,
            m.load_balance,
            m.forwards_per_job,
            m.messages_per_job,
            m.rejected as f64,
            m.expired as f64,
        ])
    }
}

/// The checks of one point's parameters.
fn check_params(params: &Params) -> Result<(), String> {
    params
        .scenario()
        .check()
        .map_err(|e| format!("params.{e}"))?;
    params
        .grid()
        .updates
        .check()
        .map_err(|e| format!("params.{e}"))?;
    if params.max_ttl > 64 {
        return Err(format!(
            "params.max_ttl is {}, expected at most 64",
            params.max_ttl
        ));
    }
    if let Some(m) = &params.delays
        && (m.len() != params.sites || m.iter().any(|r| r.len() != params.sites))
    {
        return Err(format!(
            "params.delays must have {0} rows of {0} delays, one per site",
            params.sites
        ));
    }
    if params.delay < 0 || params.delays.iter().flatten().flatten().any(|d| *d < 0) {
        return Err("params.delay and params.delays must be at least 0 s".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Experiment, RunOptions, Traces, run};

    const FIGS: [(&str, &str); 4] = [
        ("fig3", include_str!("../../../configs/utility/fig3.toml")),
        ("fig4", include_str!("../../../configs/utility/fig4.toml")),
        ("fig5", include_str!("../../../configs/utility/fig5.toml")),
        ("fig6", include_str!("../../../configs/utility/fig6.toml")),
    ];

    /// A figure's configuration shrunk to a few users and repetitions.
    fn small(text: &str) -> String {
        text.replace("users = 70", "users = 6")
            .replace("repetitions = 10", "repetitions = 3")
    }

    #[test]
    fn the_paper_configurations_parse_with_every_default_written_out() {
        for (name, text) in FIGS {
            let e = Experiment::parse(text, name).unwrap();
            assert_eq!(e.series(), ["pu", "bu", "mm"], "{name}");
            assert!(!e.claims().is_empty(), "{name} checks the paper's claims");
            // The written-out values are the crate's defaults.
            let written: Params = toml::from_str::<toml::Table>(text).unwrap()["params"]
                .clone()
                .try_into()
                .unwrap();
            let defaults: Params = toml::from_str(r#"schedulers = ["pu", "bu", "mm"]"#).unwrap();
            assert_eq!(
                toml::to_string(&written).unwrap(),
                toml::to_string(&defaults).unwrap(),
                "{name}"
            );
        }
    }

    #[test]
    fn a_small_grid_runs_end_to_end_and_reproducibly() {
        let e = Experiment::parse(&small(FIGS[1].1), "fig4").unwrap();
        let options = RunOptions {
            threads: 2,
            ..RunOptions::default()
        };
        let a = run(&e, &Traces::new(), &options).unwrap();
        // 3 panels × 1 x × 3 schedulers.
        assert_eq!(a.rows.len(), 9);
        assert!(a.rows.iter().all(|r| r.runs == 3 && r.ci.is_some()));
        let one = RunOptions {
            threads: 1,
            ..RunOptions::default()
        };
        let b = run(&e, &Traces::new(), &one).unwrap();
        assert_eq!(
            a.csv(),
            b.csv(),
            "same seeds, same numbers, any thread count"
        );
        let u = |s: &str| {
            a.rows
                .iter()
                .find(|r| r.panel == "utility" && r.series == s)
                .unwrap()
                .y
        };
        assert!((0.0..=1.0).contains(&u("pu")) && (0.0..=1.0).contains(&u("mm")));
        // A FAILed claim's explanation is shown under the claims, and only then.
        let summary = a.summary(&e);
        for v in &a.verdicts {
            let shown = v
                .explanation
                .as_ref()
                .is_some_and(|x| summary.contains(x.as_str()));
            assert_eq!(shown, !v.pass && v.explanation.is_some(), "{}", v.text);
        }
        assert!(summary.contains("90% confidence intervals"));
        assert!(summary.contains("the grid scenario of §4.2"));
    }

    #[test]
    fn ninety_percent_intervals_are_narrower() {
        let text = small(FIGS[0].1);
        let e90 = Experiment::parse(&text, "fig3").unwrap();
        let e95 = Experiment::parse(
            &text.replace("confidence = 0.90", "confidence = 0.95"),
            "fig3",
        )
        .unwrap();
        let width = |e: &Experiment| {
            let r = run(e, &Traces::new(), &RunOptions::default()).unwrap();
            let row = r
                .rows
                .iter()
                .find(|r| r.panel == "success" && r.series == "mm")
                .unwrap()
                .clone();
            row.ci.map(|(lo, hi)| hi - lo).unwrap()
        };
        let (w90, w95) = (width(&e90), width(&e95));
        assert!(w90 < w95 || w95 == 0.0, "90% {w90} vs 95% {w95}");
    }

    #[test]
    fn bad_parameters_are_named() {
        let base = FIGS[0].1;
        let err = |text: String| Experiment::parse(&text, "f.toml").unwrap_err().to_string();
        let e = err(base.replace(
            r#"schedulers = ["pu", "bu", "mm"]"#,
            r#"schedulers = ["pu", "pu"]"#,
        ));
        assert!(e.contains("series 'pu' is listed twice"), "{e}");
        let e = err(base.replace(
            r#"schedulers = ["pu", "bu", "mm"]"#,
            r#"schedulers = ["xx"]"#,
        ));
        assert!(
            e.contains("unknown scheduler 'xx', expected pu, bu or mm"),
            "{e}"
        );
        let e = err(base.replace("delay = 1\n", "delay = 1\ndelays = [[0, 1], [1, 0]]\n"));
        assert!(
            e.contains("params.delays must have 4 rows of 4 delays"),
            "{e}"
        );
        let e = err(base.replace("status_period = 60", "status_period = 0"));
        assert!(
            e.contains("params.status_period: is 0 s, expected at least 1 s"),
            "{e}"
        );
        let e = err(base.replace("speeds = [1000, 2000, 3000, 4000]", "speeds = []"));
        assert!(e.contains("params.speeds: is empty"), "{e}");
        let e = err(base.replace(
            "tie_break = \"local-least-loaded\"",
            "tie_break = \"random\"",
        ));
        assert!(e.contains("unknown variant `random`"), "{e}");
    }

    #[test]
    fn numeric_axes_set_their_parameter() {
        let p: Params = toml::from_str(r#"schedulers = ["pu"]"#).unwrap();
        assert_eq!(p.at("workload", None).unwrap().mean_interarrival, 120.0);
        assert_eq!(p.at("load", Some(2.0)).unwrap().mean_interarrival, 60.0);
        assert_eq!(
            p.at("mean_interarrival", Some(30.0))
                .unwrap()
                .mean_interarrival,
            30.0
        );
        assert_eq!(p.at("delay", Some(5.0)).unwrap().delay, 5);
        assert_eq!(p.at("max_ttl", Some(0.0)).unwrap().max_ttl, 0);
        assert_eq!(
            p.at("jobs_per_core", Some(0.0))
                .unwrap()
                .scenario()
                .jobs_per_core,
            None
        );
        assert_eq!(p.at("users", Some(7.0)).unwrap().users, 7);
        assert_eq!(
            p.at("max_ttl", Some(1.5)).unwrap_err(),
            "axis 'max_ttl' takes whole non-negative numbers, got 1.5"
        );
    }
}
