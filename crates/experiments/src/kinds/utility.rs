//! `kind = "utility"`: Vasques & Veiga's decentralised grid: four virtual
//! organisations whose local schedulers place jobs by partial utility
//! (`pu`), binary utility (`bu`) or matchmaking (`mm`), forwarding them
//! between sites (`utility-match`).
//!
//! ```toml
//! series = ["pu", "bu", "mm"]   # the scheduler of each series
//! [params]                      # utility_match::Settings, every key optional
//! users = 70
//! max_ttl = 3
//! ```
//!
//! One run is one scheduler on one generated grid: `[params]` is
//! `utility_match::Settings`, whose documentation lists every key with its
//! default (the paper's values): `scheduler` (what a series name sets),
//! §4.2's scenario (`sites`, `users`, `mean_interarrival`, `os`, `speeds`,
//! `jobs_per_core`, `weights`, ...) and the local schedulers of Algorithms
//! 1 and 2 (`max_ttl`, `delay` or `delays`, `status_period`, `l_max`,
//! `n_max`, `load_trigger`, `remote_view`, `tie_break`, `local_fallback`,
//! `exec_estimate`). A series name is a scheduler's name: `"pu"` is
//! `{ scheduler = "pu" }`.
//!
//! The kind generates its own workload (§4.2) from the repetition's seed,
//! so every series of a repetition sees the same grid and jobs (common
//! random numbers). Its experiments name one `[[workloads]]` entry with
//! `generated_by_kind`; a sweep sets any parameter (an integer value for an
//! integer key such as `max_ttl`). The generic `load` axis cannot scale a
//! workload the kind makes: sweep `mean_interarrival` instead. A sample is
//! one run's `utility_match::SystemMetrics`.

use utility_match::{GridError, Settings, SystemMetrics, UtilityKind, simulate, validate};

use crate::error::RunError;
use crate::kind::{Input, Kind, Metric, Param, ParamError, Setup, Workloads, overrides};

/// The utility-scheduling runner.
pub(crate) struct Utility;

/// A setting `utility-match` rejects, as an error on its key.
/// A mean over users, `None` (left out, never 0) where undefined (NaN: a
/// run without jobs).
fn defined(v: f64) -> Option<f64> {
    (!v.is_nan()).then_some(v)
}

fn param_error(e: GridError) -> ParamError {
    match e {
        GridError::Setting { name, message } => ParamError::key(name, message),
        other => ParamError::general(other.to_string()),
    }
}

impl Kind for Utility {
    const NAME: &'static str = "utility";
    const ONE_SAMPLE: bool = true; // one machine (or grid) measured as a whole
    const WORKLOADS: Workloads = Workloads::Generated;
    /// Every key optional, with the paper's default.
    type Params = Settings;
    type Sample = SystemMetrics;
    const METRICS: &'static [Metric<SystemMetrics>] = &[
        Metric::new(
            "success_ratio",
            "User success ratio (eq. 2)",
            "completed / submitted jobs",
            |s| defined(s.success_ratio),
        ),
        Metric::new(
            "user_utility",
            "User utility (mean over jobs, failed = 0)",
            "utility",
            |s| defined(s.utility),
        ),
        Metric::new(
            "user_utility_eq3",
            "User utility, eq. 3 as printed",
            "1 − sqrt(Σ utility) / jobs",
            |s| defined(s.utility_eq3),
        ),
        Metric::new(
            "served_utility",
            "Utility of the jobs that ran",
            "utility",
            |s| s.served_utility,
        ),
        Metric::new(
            "decided_utility",
            "Utility computed by the scheduler",
            "utility",
            |s| defined(s.decided_utility),
        ),
        Metric::new(
            "submission_time",
            "Submission time (eq. 4)",
            "t_assign − t_submit (s)",
            |s| s.submission_time,
        ),
        Metric::new(
            "execution_time",
            "Execution time (eq. 5)",
            "t_executed − t_assign (s)",
            |s| s.execution_time,
        ),
        Metric::new(
            "load_balance",
            "System load balance (eq. 6)",
            "1 − σ/μ of utilisation",
            |s| Some(s.load_balance),
        ),
        Metric::new("forwards_per_job", "Forwards per job", "forwards", |s| {
            Some(s.forwards_per_job)
        }),
        Metric::new(
            "messages_per_job",
            "Status messages per job",
            "messages",
            |s| Some(s.messages_per_job),
        ),
        Metric::new(
            "rejected",
            "Jobs failed for want of an acceptable resource",
            "jobs",
            |s| Some(s.rejected as f64),
        ),
        Metric::new(
            "expired",
            "Jobs failed when their TTL ran out",
            "jobs",
            |s| Some(s.expired as f64),
        ),
    ];
    const RENAMED: &'static [(&'static str, &'static str)] = &[(
        "schedulers",
        "list the schedulers as top-level `series = [...]`",
    )];
    const PARAMS: &'static [Param] = &[
        Param::new(
            "scheduler",
            "",
            "the local schedulers' utility function (each series sets it): `pu` (partial), `bu` (binary) or `mm` (matchmaking)",
        ),
        Param::new("sites", "sites", "virtual organisations"),
        Param::new("resources_per_site", "resources", "per site"),
        Param::new("users", "users", "each placed at a site drawn uniformly"),
        Param::new("jobs_per_user", "jobs", "each user submits"),
        Param::new(
            "mean_interarrival",
            "s",
            "mean time between one user's submissions (exponential); sweep it to change the load",
        ),
        Param::new("max_options", "options", "most options per requirement"),
        Param::new("os", "", "operating systems"),
        Param::new("arch", "bits", "architectures (word sizes)"),
        Param::new(
            "speeds",
            "MIPS",
            "core speeds; a job's option is a minimum speed",
        ),
        Param::new(
            "exec_times",
            "s",
            "execution-time options, from submission to completion; a job's option is a maximum",
        ),
        Param::new("cores", "cores", "per resource"),
        Param::new(
            "memory",
            "MB",
            "per resource (reported in the site summary)",
        ),
        Param::new(
            "length",
            "million instructions",
            "job length range `[low, high]`, both included",
        ),
        Param::new(
            "jobs_per_core",
            "jobs",
            "a resource holds per core (running plus queued); 0 for unbounded queues (the paper's)",
        ),
        Param::new(
            "weights",
            "",
            "weight β of each requirement type, in order: OS, architecture, execution time, speed",
        ),
        Param::new(
            "max_ttl",
            "forwards",
            "how many times a job may be forwarded, at most 64",
        ),
        Param::new(
            "delay",
            "s",
            "message delay between any two sites, unless `delays` is given",
        ),
        Param::new(
            "delays",
            "s",
            "`delays[from][to]`, one row per site; absent for `delay` between every two sites",
        ),
        Param::new("status_period", "s", "between periodic status messages"),
        Param::new(
            "l_max",
            "utilisation, 0 to 1",
            "the load limit lMax that makes a status message due",
        ),
        Param::new(
            "n_max",
            "jobs",
            "more jobs than this submitted to one resource since the last message make one due",
        ),
        Param::new(
            "load_trigger",
            "",
            "how lMax is read: `above` (as printed: load > lMax) or `drift` (moved by more than lMax)",
        ),
        Param::new(
            "remote_view",
            "",
            "what a site learns from the others' messages: `full` tables or a `summary`",
        ),
        Param::new(
            "tie_break",
            "",
            "how equal utilities are ordered: `table-order`, `local-first` or `local-least-loaded`",
        ),
        Param::new(
            "local_fallback",
            "",
            "whether a job whose TTL ran out goes to the best local resource instead of failing",
        ),
        Param::new(
            "exec_estimate",
            "",
            "how the execution-time requirement is read: `turnaround` (load-aware) or `run-time`",
        ),
    ];
    const SERIES: &'static str = "pu | bu | mm (the scheduler's utility function)";

    fn series(name: &str) -> Result<toml::Table, String> {
        let kind: UtilityKind = name.parse()?;
        Ok(overrides([("scheduler", kind.name().into())]))
    }

    fn check(params: &Settings, setup: &Setup<'_>) -> Result<(), ParamError> {
        if setup.load {
            return Err(ParamError::general(
                "the utility kind generates its own workload, which a swept `load` cannot \
                 scale: sweep `mean_interarrival` instead",
            ));
        }
        params.check().map_err(param_error)
    }

    fn run(
        params: &Settings,
        input: &Input<'_>,
        _reference: Option<&[SystemMetrics]>,
    ) -> Result<Vec<SystemMetrics>, RunError> {
        let err = |message: String| RunError::Kind { message };
        let kind = params.scheduler;
        let w = params
            .scenario()
            .generate(input.seed)
            .map_err(|e| match &e {
                // A setting's name is its key in `[params]`.
                utility_match::GridError::Setting { name, .. } => {
                    RunError::field(format!("params.{name}"), format!("params.{e}"))
                }
                _ => err(format!("params.{e}")),
            })?;
        let config = params.grid();
        let run = simulate(&config, &kind, &w.machines, &w.jobs)
            .map_err(|e| err(format!("{kind}: {e}")))?;
        validate(&w.machines, &w.jobs, &run, config.max_ttl).map_err(|v| {
            err(format!(
                "{kind} produced an invalid run ({v}); this is a scheduler bug, please report it"
            ))
        })?;
        let metrics = SystemMetrics::of(&run).map_err(|e| err(format!("{kind}: {e}")))?;
        Ok(vec![metrics])
    }
}
