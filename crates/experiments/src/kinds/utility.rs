//! `kind = "utility"`: Vasques & Veiga's decentralised grid: four virtual
//! organisations whose local schedulers place jobs by partial utility
//! (`pu`), binary utility (`bu`) or matchmaking (`mm`), forwarding them
//! between sites; one series per scheduler, every series on the same
//! generated grids and jobs (common random numbers per repetition).
//!
//! The kind generates its own workload (§4.2), so its experiments name one
//! `[[workloads]]` entry with `generated_by_kind`: its label is the single x
//! category, and the bars of a figure are the schedulers. Numeric sweeps:
//! the generic `load` axis multiplies the arrival rate (divides
//! `mean_interarrival`); the axes `mean_interarrival`, `delay`, `max_ttl`,
//! `status_period`, `jobs_per_core` and `users` set that parameter to x.
//!
//! `[params]` is `utility_match::Settings`, whose documentation lists every
//! key with its default (the paper's values): `schedulers` (the series, in
//! legend order), §4.2's scenario (`sites`, `users`, `mean_interarrival`,
//! `os`, `speeds`, `jobs_per_core`, `weights`, ...) and the local
//! schedulers of Algorithms 1 and 2 (`max_ttl`, `delay` or `delays`,
//! `status_period`, `l_max`, `n_max`, `load_trigger`, `remote_view`,
//! `tie_break`, `local_fallback`, `exec_estimate`). The metrics are
//! `utility_match::SystemMetrics`, read by name.

use utility_match::{Settings, SystemMetrics, simulate, validate};

use crate::config::Experiment;
use crate::kind::{Cell, Kind, Metric};
use crate::run::RunError;

/// The utility-scheduling runner.
pub(crate) struct Utility;

/// The numeric axes of the kind; each sets the parameter of its name.
const AXES: &[&str] = &[
    "mean_interarrival",
    "delay",
    "max_ttl",
    "status_period",
    "jobs_per_core",
    "users",
];

/// The parameters at `x` on `axis` (unchanged on the workload axis).
fn at(params: &Settings, axis: &str, x: Option<f64>) -> Result<Settings, String> {
    let mut p = params.clone();
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
    /// Every key optional, with the paper's default.
    type Params = Settings;

    fn series(params: &Settings) -> Vec<String> {
        params.schedulers.iter().map(|s| s.to_string()).collect()
    }

    fn check(params: &Settings, experiment: &Experiment) -> Result<(), String> {
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
            at(params, axis, x)?
                .check()
                .map_err(|e| format!("params.{e}"))?;
        }
        Ok(())
    }

    fn run(params: &Settings, cell: &Cell<'_>) -> Result<Vec<f64>, RunError> {
        let err = |message: String| RunError::Kind { message };
        let params = at(params, cell.axis, cell.x).map_err(err)?;
        let kind = params.schedulers[cell.series];
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
        Self::METRICS
            .iter()
            .map(|metric| {
                m.get(metric.name).ok_or_else(|| {
                    err(format!("utility-match reports no metric '{}'", metric.name))
                })
            })
            .collect()
    }
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
            let written: Settings = toml::from_str::<toml::Table>(text).unwrap()["params"]
                .clone()
                .try_into()
                .unwrap();
            assert_eq!(written, Settings::default(), "{name}");
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
            e.contains("params.delays: must have 4 rows of 4 delays"),
            "{e}"
        );
        let e = err(base.replace("delay = 1\n", "delay = -1\n"));
        assert!(
            e.contains("params.delay: is -1 s, expected at least 0 s"),
            "{e}"
        );
        let e = err(base.replace("max_ttl = 3", "max_ttl = 65"));
        assert!(
            e.contains("params.max_ttl: is 65, expected at most 64"),
            "{e}"
        );
        let e = err(base.replace("max_ttl = 3", "max_tll = 3"));
        assert!(e.contains("unknown field `max_tll`"), "{e}");
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
    fn every_metric_is_one_the_crate_reports() {
        let p = Settings {
            users: 3,
            jobs_per_user: 2,
            ..Settings::default()
        };
        let w = p.scenario().generate(1).unwrap();
        let run = simulate(&p.grid(), &p.schedulers[0], &w.machines, &w.jobs).unwrap();
        let m = SystemMetrics::of(&run);
        let names: Vec<&str> = Utility::METRICS.iter().map(|metric| metric.name).collect();
        let reported: Vec<&str> = m.named().iter().map(|(name, _)| *name).collect();
        assert_eq!(names, reported, "every metric, none left out");
    }

    #[test]
    fn numeric_axes_set_their_parameter() {
        let p: Settings = toml::from_str(r#"schedulers = ["pu"]"#).unwrap();
        assert_eq!(at(&p, "workload", None).unwrap().mean_interarrival, 120.0);
        assert_eq!(at(&p, "load", Some(2.0)).unwrap().mean_interarrival, 60.0);
        assert_eq!(
            at(&p, "mean_interarrival", Some(30.0))
                .unwrap()
                .mean_interarrival,
            30.0
        );
        assert_eq!(at(&p, "delay", Some(5.0)).unwrap().delay, 5);
        assert_eq!(at(&p, "max_ttl", Some(0.0)).unwrap().max_ttl, 0);
        assert_eq!(
            at(&p, "jobs_per_core", Some(0.0))
                .unwrap()
                .scenario()
                .jobs_per_core,
            None
        );
        assert_eq!(at(&p, "users", Some(7.0)).unwrap().users, 7);
        assert_eq!(
            at(&p, "max_ttl", Some(1.5)).unwrap_err(),
            "axis 'max_ttl' takes whole non-negative numbers, got 1.5"
        );
    }
}
