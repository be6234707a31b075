//! A user's kind at the boundary where its code enters the pipeline: what
//! it declares is checked when it is registered, and the numbers its runs
//! measure are checked against each metric's domain before they are
//! aggregated, with errors naming the kind, the metric, the sample and
//! the value.

use experiments::{
    Input, Kind, Metric, Registry, RunError, RunOptions, Schedule, Traces, Workloads, run,
};
use serde::{Deserialize, Serialize};

/// The values every run of [`Measures`] returns, one sample.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Values {
    wait: f64,
    share: f64,
    jobs: f64,
    killed: f64,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            wait: 10.0,
            share: 50.0,
            jobs: 4.0,
            killed: 1.0,
        }
    }
}

/// A kind that measures what its parameters say: a duration, a
/// percentage, a count and a count of a subset of it.
struct Measures;

impl Kind for Measures {
    const NAME: &'static str = "measures";
    type Params = Values;
    type Sample = Values;
    const METRICS: &'static [Metric<Values>] = &[
        Metric::new("wait", "Wait", "wait (s)", |v| Some(v.wait)),
        Metric::new("share", "Share", "share (%)", |v| Some(v.share)),
        Metric::new("jobs", "Jobs", "jobs", |v| Some(v.jobs)),
        Metric::new("killed", "Killed", "jobs", |v| Some(v.killed)),
    ];
    const AT_MOST: &'static [(&'static str, &'static str)] = &[("killed", "jobs")];
    const WORKLOADS: Workloads = Workloads::Generated;

    /// `wait=-5`: that parameter set to that value.
    fn series(name: &str) -> Result<toml::Table, String> {
        let (key, value) = name.split_once('=').ok_or("expected key=value")?;
        let value: f64 = value.parse().map_err(|_| "expected a number")?;
        Ok(toml::Table::from_iter([(key.to_string(), value.into())]))
    }

    fn run(p: &Values, _: &Input<'_>, _: Option<&[Values]>) -> Result<Vec<Values>, RunError> {
        Ok(vec![p.clone()])
    }
}

fn config(series: &str) -> String {
    format!(
        r#"version = 2
id = "study/measures"
title = "Measures"
kind = "measures"
seed = 5
series = ["{series}"]

[[workloads]]
label = "gen"
generated_by_kind = "nothing"

[sweep]
axis = "workload"
label = "workload"

[[panels]]
id = "wait"
metric = "wait"
"#
    )
}

fn run_series(series: &str) -> Result<experiments::Results, RunError> {
    let registry = Registry::new().with::<Measures>();
    let e = registry.parse(&config(series), "m.toml").unwrap();
    let options = RunOptions {
        threads: 1,
        ..Default::default()
    };
    run(&e, &Traces::new(), &options)
}

/// A value outside its metric's domain (a negative duration, a share past
/// 100 %, a fractional count, an infinite value), in a metric a panel
/// shows or not, was aggregated as it was: a negative wait went into
/// data.csv, which `verify` and `merge` then refused. It is refused where
/// the kind returns it, naming the kind, the metric, the sample and the
/// value; and so is a count of a subset above its whole (`AT_MOST`).
#[test]
fn values_outside_their_domain_are_refused_naming_the_metric() {
    for (series, needle) in [
        (
            "wait=-5",
            "kind 'measures' measured metric 'wait' = -5 in sample 1, which is not a finite \
             number of at least 0",
        ),
        ("wait=inf", "metric 'wait' = inf in sample 1"),
        (
            "share=150",
            "metric 'share' = 150 in sample 1, which is not a finite number from 0 to 100",
        ),
        (
            "jobs=2.5",
            "metric 'jobs' = 2.5 in sample 1, which is not a count",
        ),
        ("killed=-1", "metric 'killed' = -1"),
        (
            "killed=9",
            "metric 'killed' = 9 in sample 1, more than metric 'jobs' (4)",
        ),
    ] {
        let err = run_series(series).unwrap_err().to_string();
        assert!(err.contains(needle), "{series}: {err}");
        assert!(err.contains("this is a bug in the kind"), "{series}: {err}");
    }
    // In their domains, the values are the results; a NaN stands for a
    // sample without a value, as it does for the papers' kinds.
    let ok = run_series("wait=0").unwrap();
    assert_eq!(ok.rows[0].y, 0.0);
    assert!(run_series("wait=nan").unwrap().rows[0].y.is_nan());
}

/// Sharded or not, the same bytes: a NaN (a sample without a value) that
/// `run` takes was refused by `merge` as outside its metric's domain, so a
/// sharded run of the same configuration failed where the whole run
/// succeeded (the provisioning kind's means over no measured job are NaN).
#[test]
fn a_sample_without_a_value_merges_as_it_runs() {
    use experiments::{Provenance, Shard, ShardCells, merge, run_shard};
    let registry = Registry::new().with::<Measures>();
    let e = registry.parse(&config("wait=nan"), "m.toml").unwrap();
    let options = RunOptions {
        threads: 1,
        ..Default::default()
    };
    let provenance = Provenance {
        git_revision: "r".into(),
        config_file: "m.toml".into(),
    };
    let whole = run(&e, &Traces::new(), &options).unwrap();
    let shard = run_shard(&e, &Traces::new(), &options, Shard::ALL, &provenance).unwrap();
    let read = ShardCells::parse(&shard.to_toml(), "cells.toml").unwrap();
    let merged = merge(&e, &Traces::new(), &options, &provenance, &[read])
        .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(merged.files(&e, &provenance), whole.files(&e, &provenance));
}

macro_rules! kind {
    ($t:ident, $name:expr, $metrics:expr, $at_most:expr) => {
        struct $t;
        impl Kind for $t {
            const NAME: &'static str = $name;
            type Params = ();
            type Sample = f64;
            const METRICS: &'static [Metric<f64>] = $metrics;
            const AT_MOST: &'static [(&'static str, &'static str)] = $at_most;
            fn series(_: &str) -> Result<toml::Table, String> {
                Ok(toml::Table::new())
            }
            fn run(_: &(), _: &Input<'_>, _: Option<&[f64]>) -> Result<Vec<f64>, RunError> {
                Ok(vec![1.0])
            }
        }
    };
}

const WAIT: Metric<f64> = Metric::new("wait", "Wait", "wait (s)", |v| Some(*v));
kind!(
    TwoWaits,
    "two-waits",
    &[
        WAIT,
        Metric::new("wait", "Twice", "wait (s)", |v| Some(2.0 * *v))
    ],
    &[]
);
kind!(Unnamed, "", &[WAIT], &[]);
kind!(Escape, "k\u{1b}[31m", &[WAIT], &[]);
kind!(
    BadMetric,
    "bad-metric",
    &[Metric::new("a\nb", "A", "x", |v| Some(*v))],
    &[]
);
kind!(NoMetrics, "no-metrics", &[], &[]);
kind!(AtMostUnknown, "at-most", &[WAIT], &[("killed", "wait")]);
kind!(Fine, "fine", &[WAIT], &[]);

/// What a kind declares is checked when it is registered: two metrics of
/// one name once made a panel show the second's values under the first's
/// title, silently; an empty or escaped name, no metrics or an `AT_MOST`
/// pair naming no metric left a kind no configuration could use, with
/// errors that did not say why. `try_with` names the kind and the fault;
/// `with` panics with the same message.
#[test]
fn a_kind_is_checked_when_it_is_registered() {
    let cases = [
        (
            Registry::new().try_with::<TwoWaits>(),
            "kind 'two-waits' cannot be registered: it has metric 'wait' twice",
        ),
        (
            Registry::new().try_with::<Unnamed>(),
            "kind '' cannot be registered: its NAME is empty",
        ),
        (
            Registry::new().try_with::<Escape>(),
            "its NAME holds U+001B (a control character)",
        ),
        (
            Registry::new().try_with::<BadMetric>(),
            "kind 'bad-metric' cannot be registered: the name of metric 1 holds U+000A",
        ),
        (
            Registry::new().try_with::<NoMetrics>(),
            "kind 'no-metrics' cannot be registered: it has no METRICS",
        ),
        (
            Registry::new().try_with::<AtMostUnknown>(),
            "AT_MOST pair ('killed', 'wait') names metric 'killed'",
        ),
        (
            Registry::new().with::<Fine>().try_with::<Fine>(),
            "kind 'fine' cannot be registered: a kind of this name is registered already",
        ),
    ];
    for (result, needle) in cases {
        let err = result.map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(needle), "{needle}: {err}");
    }
    // The refused kind is named, and the registry comes back as it was.
    let err = Registry::builtin()
        .with::<Fine>()
        .try_with::<NoMetrics>()
        .unwrap_err();
    assert_eq!(
        (err.name(), err.reason().starts_with("it has no METRICS")),
        ("no-metrics", true)
    );
    assert!(matches!(err, experiments::RegistryError::Kind { .. }));
    let kinds = err.into_registry().kinds();
    assert_eq!(kinds, [Registry::builtin().kinds(), vec!["fine"]].concat());
    let panic = std::panic::catch_unwind(|| Registry::new().with::<TwoWaits>()).unwrap_err();
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("metric 'wait' twice"), "{message}");
    assert!(Registry::builtin().try_with::<Fine>().is_ok());
}

/// A kind that gives the schedule its `fault` parameter asks for: two
/// jobs of 2 processors, submitted at 0 and 5, on a machine of 2.
struct Scheduled;

#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Fault {
    fault: String,
}

impl Kind for Scheduled {
    const NAME: &'static str = "scheduled";
    type Params = Fault;
    type Sample = f64;
    const METRICS: &'static [Metric<f64>] = &[WAIT];
    const WORKLOADS: Workloads = Workloads::Generated;

    fn series(name: &str) -> Result<toml::Table, String> {
        Ok(toml::Table::from_iter([("fault".to_string(), name.into())]))
    }

    fn run(_: &Fault, _: &Input<'_>, _: Option<&[f64]>) -> Result<Vec<f64>, RunError> {
        Ok(vec![1.0])
    }

    fn schedule(p: &Fault, _: &Input<'_>) -> Result<Option<Schedule>, RunError> {
        use profile::{Job, Outcome, Status, Time};
        let jobs = vec![
            Job::new(1, Time(0), 2, 10, 10),
            Job::new(2, Time(5), 2, 10, 10),
        ];
        let ran = |id, start: i64| Outcome {
            id,
            start: Time(start),
            end: Time(start + 10),
            status: Status::Completed,
        };
        let outcomes = match p.fault.as_str() {
            "missing" => vec![ran(1, 0)],
            "twice" => vec![ran(1, 0), ran(1, 10)],
            "early" => vec![ran(1, 0), ran(2, 2)],
            "overlap" => vec![ran(1, 0), ran(2, 5)],
            _ => vec![ran(1, 0), ran(2, 10)],
        };
        Ok(Some(Schedule::new("mine", 2, jobs, outcomes)))
    }
}

/// A kind's per-job schedule (`run --schedules`, the SWF and jobs.csv
/// files, the Gantt pictures) was taken as it came: an outcome missing,
/// a job run twice, a start before submission or more processors busy
/// than the machine has went into the files. It is checked as a
/// simulated schedule is, and refused naming the run and the fault.
#[test]
fn a_kinds_impossible_schedule_is_refused() {
    let registry = Registry::new().with::<Scheduled>();
    let schedules = |fault: &str| {
        let text = config("x")
            .replace("\"measures\"", "\"scheduled\"")
            .replace("series = [\"x\"]", &format!("series = [\"{fault}\"]"));
        let e = registry.parse(&text, "s.toml").unwrap();
        let options = RunOptions {
            threads: 1,
            ..Default::default()
        };
        experiments::schedules(&e, &Traces::new(), &options)
    };
    for (fault, needle) in [
        (
            "missing",
            "mine produced an invalid schedule (2 jobs but 1 outcomes",
        ),
        ("twice", "outcome 1 belongs to another job"),
        ("early", "job 2 starts at 2"),
        ("overlap", "4 processors busy at 5s on a machine of 2"),
    ] {
        let err = schedules(fault).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{fault} on gen")),
            "{fault}: {err}"
        );
        assert!(err.contains(needle), "{fault}: {err}");
    }
    let ok = schedules("none").unwrap();
    assert_eq!(ok[0].schedule.outcomes.len(), 2);
}

/// A kind whose runs measure `n` units, each worth `v`.
struct Units;

#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Count {
    n: u32,
    v: f64,
}

impl Kind for Units {
    const NAME: &'static str = "units";
    type Params = Count;
    type Sample = f64;
    const METRICS: &'static [Metric<f64>] =
        &[Metric::new("profit", "Profit", "profit ($)", |v| Some(*v))];
    const WORKLOADS: Workloads = Workloads::Generated;

    /// `n3v2`: three units worth 2 each.
    fn series(name: &str) -> Result<toml::Table, String> {
        let (n, v) = name
            .strip_prefix('n')
            .and_then(|s| s.split_once('v'))
            .ok_or("expected n<count>v<value>")?;
        let n: i64 = n.parse().map_err(|_| "bad count")?;
        let v: f64 = v.parse().map_err(|_| "bad value")?;
        Ok(toml::Table::from_iter([
            ("n".to_string(), n.into()),
            ("v".to_string(), v.into()),
        ]))
    }

    fn run(p: &Count, _: &Input<'_>, _: Option<&[f64]>) -> Result<Vec<f64>, RunError> {
        Ok(vec![p.v; p.n as usize])
    }
}

/// A gain panel pairs each sample of a run with the same sample of the
/// run it is measured against; when the two runs had different numbers of
/// samples, the extra ones were dropped silently and the rest paired with
/// other units. It is an error naming the panel, both runs and the counts.
#[test]
fn a_gain_over_a_run_with_other_samples_is_refused() {
    let registry = Registry::new().with::<Units>();
    let gain = |series: &str, base: &str| {
        let text = config("x")
            .replace("\"measures\"", "\"units\"")
            .replace("series = [\"x\"]", &format!("series = [\"{series}\"]"))
            .replace(
                "metric = \"wait\"\n",
                &format!("metric = \"profit\"\ngain_over = \"{base}\"\n"),
            );
        let e = registry.parse(&text, "u.toml").unwrap();
        let options = RunOptions {
            threads: 1,
            ..Default::default()
        };
        run(&e, &Traces::new(), &options)
    };
    let err = gain("n3v2", "n2v1").unwrap_err().to_string();
    assert!(
        err.starts_with("n3v2 on gen: panel 'wait' compares each sample"),
        "{err}"
    );
    assert!(
        err.contains(
            "('wait reference of n3v2 on gen'), but this run has 3 sample(s) and that one 2"
        ),
        "{err}"
    );
    // As many samples: a gain of 100 % in each.
    let ok = gain("n2v2", "n2v1").unwrap();
    assert_eq!(ok.rows[0].y, 100.0);
}

/// A policy name that outputs write escaped (a control or bidirectional
/// character) was registered, so a configuration naming it could not read
/// back as written; `try_with_policy` refuses it, as it does an empty, a
/// repeated or a built-in name, naming the policy.
#[test]
fn a_policy_name_is_checked_when_it_is_registered() {
    let fcfs = || profile::builtin::Fcfs;
    for (name, needle) in [
        (
            "my\u{202e}easy",
            "its name holds U+202E (a bidirectional control)",
        ),
        ("my\teasy", "its name holds U+0009 (a control character)"),
        ("  ", "a policy name cannot be empty"),
        ("easy", "is a built-in policy's name"),
    ] {
        let err = Registry::builtin()
            .try_with_policy(name, fcfs)
            .map(|_| ())
            .unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains(needle), "{name:?}: {shown}");
        assert!(matches!(err, experiments::RegistryError::Policy { .. }));
    }
    let err = Registry::new()
        .with_policy("mine", fcfs)
        .try_with_policy("mine", fcfs)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "policy 'mine' cannot be registered: a policy of this name is registered already"
    );
    // The registry comes back with the first "mine", ready for another name.
    let registry = err.into_registry().with_policy("yours", fcfs);
    assert_eq!(registry.policies().names(), ["mine", "yours"]);
    assert!(Registry::builtin().try_with_policy("my-easy", fcfs).is_ok());
}

/// `level × gain`, less the same run's at gain 1 when `relative`; `note`
/// is never read.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Levels {
    level: f64,
    gain: f64,
    relative: bool,
    note: String,
}

impl Default for Levels {
    fn default() -> Self {
        Levels {
            level: 1.0,
            gain: 1.0,
            relative: false,
            note: String::new(),
        }
    }
}

macro_rules! levels_kind {
    ($t:ident, $name:expr, |$p:ident| $canonical:block) => {
        struct $t;
        impl Kind for $t {
            const NAME: &'static str = $name;
            type Params = Levels;
            type Sample = f64;
            const METRICS: &'static [Metric<f64>] =
                &[Metric::new("value", "Value", "value", |v| Some(*v))];
            fn series(_: &str) -> Result<toml::Table, String> {
                Ok(toml::Table::new())
            }
            fn canonical($p: &mut Levels) $canonical
            fn reference(p: &Levels) -> Option<toml::Table> {
                p.relative.then(|| {
                    toml::Table::from_iter([
                        ("gain".to_string(), 1.0.into()),
                        ("relative".to_string(), false.into()),
                    ])
                })
            }
            fn run(p: &Levels, _: &Input<'_>, base: Option<&[f64]>) -> Result<Vec<f64>, RunError> {
                Ok(vec![p.level * p.gain - base.map_or(0.0, |b| b[0])])
            }
        }
    };
}

levels_kind!(Careful, "careful", |p| { p.note = String::new() });
levels_kind!(Careless, "careless", |p| {
    p.note = String::new();
    p.gain = 1.0;
});
levels_kind!(SignBlind, "sign-blind", |p| {
    if p.level == 0.0 {
        p.gain = 1.0;
    }
});

/// `check_canonical` runs a kind with its parameters as written and as
/// `canonical` makes them, and its reference run likewise: a canonical
/// that resets what a run reads (two runs would share one result, with
/// nothing to show it) fails, naming the kind, the run, the parameters
/// reset and the first sample that differs, to the bit (0 and -0 differ).
#[test]
fn a_canonical_that_resets_what_a_run_reads_is_caught() {
    use experiments::{CanonicalError, Policies, check_canonical};
    let policies = Policies::default();
    let input = Input::new(&[], 1, &policies);
    let levels = |level: f64, gain: f64, relative: bool| Levels {
        level,
        gain,
        relative,
        note: "unread".into(),
    };
    for relative in [false, true] {
        check_canonical::<Careful>(&levels(2.0, 3.0, relative), &input).unwrap();
    }
    // Parameters canonical leaves as they are need no run to pass.
    check_canonical::<Careless>(&Levels::default(), &input).unwrap();
    let err = check_canonical::<Careless>(&levels(2.0, 3.0, false), &input).unwrap_err();
    assert!(matches!(err, CanonicalError::Differs { .. }), "{err}");
    let shown = err.to_string();
    for needle in [
        "kind 'careless': Kind::canonical resets a parameter the run reads",
        "with gain = 3.0 (canonical 1.0), note = \"unread\" (canonical \"\")",
        "metric 'value' of sample 1 is 6.0 as written, 2.0 as canonical",
    ] {
        assert!(shown.contains(needle), "{needle}: {shown}");
    }
    // The reference run (gain 1) is unharmed; the run measured against it is not.
    let err = check_canonical::<Careless>(&levels(2.0, 3.0, true), &input).unwrap_err();
    assert!(
        err.to_string()
            .contains("is 4.0 as written, 0.0 as canonical"),
        "{err}"
    );
    // Bit for bit: 0 × -1 is -0, and 0 × 1 is 0.
    let err = check_canonical::<SignBlind>(&levels(0.0, -1.0, false), &input).unwrap_err();
    assert!(
        err.to_string()
            .contains("is -0.0 as written, 0.0 as canonical"),
        "{err}"
    );
    // A NaN is the same value as a NaN.
    check_canonical::<SignBlind>(&levels(0.0, f64::NAN, false), &input)
        .expect_err("0 × NaN is NaN, 0 × 1 is 0");
    check_canonical::<Careful>(&levels(f64::NAN, 3.0, false), &input).unwrap();
}

/// [`Measures`] with a reference run: `jobs = 7` measures against a run
/// whose `wait` does not resolve, `jobs = 8` against one whose `wait`
/// its own check refuses.
struct Referenced;

impl Kind for Referenced {
    const NAME: &'static str = "referenced";
    type Params = Values;
    type Sample = Values;
    const METRICS: &'static [Metric<Values>] = Measures::METRICS;
    const WORKLOADS: Workloads = Workloads::Generated;

    fn series(name: &str) -> Result<toml::Table, String> {
        Measures::series(name)
    }

    fn check(p: &Values, _: &experiments::Setup<'_>) -> Result<(), experiments::ParamError> {
        if p.wait < 0.0 {
            return Err(experiments::ParamError::key(
                "wait",
                format!("is {}, expected at least 0", p.wait),
            ));
        }
        Ok(())
    }

    fn reference(p: &Values) -> Option<toml::Table> {
        let wait: toml::Value = if p.jobs == 7.0 {
            "soon".into()
        } else if p.jobs == 8.0 {
            (-1.0).into()
        } else {
            return None;
        };
        Some(toml::Table::from_iter([("wait".to_string(), wait)]))
    }

    fn run(p: &Values, _: &Input<'_>, _: Option<&[Values]>) -> Result<Vec<Values>, RunError> {
        Ok(vec![p.clone()])
    }
}

/// A kind's reference run whose parameters do not resolve was placed at
/// the whole `[params]` table, and one its kind's own check refuses was
/// not checked at all (the run met the bad value). Both are refused at
/// parse time where the parameter at fault is written, naming it.
#[test]
fn a_kinds_reference_run_is_checked_and_its_errors_point_at_the_parameter() {
    let registry = Registry::new().with::<Referenced>();
    let text = |series: &str| {
        format!(
            "{}\n[params]\nshare = 10.0\nwait = 3.0\n",
            config(series).replace("\"measures\"", "\"referenced\"")
        )
    };
    registry.parse(&text("jobs=6"), "r.toml").unwrap();
    let wait_line = text("x").lines().position(|l| l == "wait = 3.0").unwrap() + 1;
    for (series, needle) in [
        (
            "jobs=7",
            "the reference run of series 'jobs=7': params.wait: invalid type: string \"soon\", \
             expected f64",
        ),
        (
            "jobs=8",
            "the reference run of series 'jobs=8': params.wait: is -1, expected at least 0",
        ),
    ] {
        let err = registry.parse(&text(series), "r.toml").unwrap_err();
        let shown = err.to_string();
        assert_eq!(err.line(), Some(wait_line), "{shown}");
        assert!(shown.contains(needle), "{shown}");
    }
}

/// A kind whose run panics when its `panic` parameter is set, and whose
/// metric has no value in the runs of an odd seed: `value` otherwise.
struct Fragile;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct FragileParams {
    panic: f64,
    value: f64,
}

impl Kind for Fragile {
    const NAME: &'static str = "fragile";
    type Params = FragileParams;
    type Sample = Option<f64>;
    const METRICS: &'static [Metric<Option<f64>>] = &[Metric::new("v", "V", "v", |v| *v)];
    const WORKLOADS: Workloads = Workloads::Generated;

    fn series(name: &str) -> Result<toml::Table, String> {
        let (key, value) = name.split_once('=').ok_or("expected key=value")?;
        let value: f64 = value.parse().map_err(|_| "expected a number")?;
        Ok(toml::Table::from_iter([(key.to_string(), value.into())]))
    }

    fn run(
        p: &FragileParams,
        input: &Input<'_>,
        _: Option<&[Option<f64>]>,
    ) -> Result<Vec<Option<f64>>, RunError> {
        if p.panic != 0.0 {
            panic!("boom in the kind's own code");
        }
        Ok(vec![input.seed.is_multiple_of(2).then_some(p.value)])
    }
}

fn fragile(
    series: &[&str],
    claims: &str,
    threads: usize,
) -> Result<experiments::Results, RunError> {
    let registry = Registry::new().with::<Fragile>();
    let series: Vec<String> = series.iter().map(|s| format!("\"{s}\"")).collect();
    let text = format!(
        "version = 2\nid = \"study/fragile\"\ntitle = \"Fragile\"\nkind = \"fragile\"\nseed = 5\n\
         repetitions = 8\nseries = [{}]\n\n[[workloads]]\nlabel = \"gen\"\n\
         generated_by_kind = \"nothing\"\n\n[sweep]\naxis = \"workload\"\nlabel = \"workload\"\n\n\
         [[panels]]\nid = \"v\"\nmetric = \"v\"\n{claims}",
        series.join(", ")
    );
    let e = registry.parse(&text, "f.toml").unwrap();
    let options = RunOptions {
        threads,
        ..Default::default()
    };
    run(&e, &Traces::new(), &options)
}

/// A panic in a kind's run was raised again as it was, killing the
/// process without a word of which run: it is now the run's error, named
/// as the others are, on any thread count.
#[test]
fn a_kind_that_panics_is_an_error_naming_its_run() {
    for threads in [1, 2] {
        let e = fragile(&["panic=1"], "", threads).unwrap_err().to_string();
        assert!(
            e.contains(
                "the kind's run panicked (boom in the kind's own code); this is a bug in the kind"
            ),
            "{e}"
        );
        assert!(e.contains("panic=1"), "the run is named: {e}");
    }
}

/// A point with a sample without a value has no mean (`nan`), and no claim
/// over it passes, though samples.csv holds the samples that have one (a
/// comparison of two such points once PASSed on those alone).
#[test]
fn a_claim_over_a_point_without_a_mean_does_not_pass() {
    let claim = "\n[[claims]]\ntext = \"v=1 below v=2\"\n\
                 check.below = { panel = \"v\", series = \"value=1\", than = \"value=2\" }\n";
    let r = fragile(&["value=1", "value=2"], claim, 1).unwrap();
    assert!(r.rows.iter().all(|row| row.y.is_nan()), "{:?}", r.rows);
    assert_eq!(r.verdicts.len(), 1);
    assert_eq!(r.verdicts[0].label(), "FAIL", "{:?}", r.verdicts[0]);
    assert!(r.verdicts[0].ours.contains("nan"), "{}", r.verdicts[0].ours);
}
