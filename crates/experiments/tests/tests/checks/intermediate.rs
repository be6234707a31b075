//! The library's checks of intermediate files, one corruption at a time:
//! a shard's cells for `merge` (`check_shard`), `data.csv` against
//! `samples.csv` (`check_results`) and `run.toml` (`check_run_toml`).

use experiments::{
    Experiment, MergeError, Provenance, Results, RunOptions, RunToml, Samples, Setting, Shard,
    ShardCells, Traces, Written, aggregate, check_results, check_run_inputs, check_run_toml,
    check_written, merge, parse_csv, run, run_shard, write_csv,
};

use super::BASE;

fn experiment() -> Experiment {
    let text = BASE.replace("seed = 5", "seed = 5\nrepetitions = 2");
    Experiment::parse(&text, "tiny.toml").unwrap()
}

fn provenance() -> Provenance {
    Provenance {
        git_revision: "r".into(),
        config_file: "tiny.toml".into(),
    }
}

/// The two shards of the experiment, named as files.
fn parts(e: &Experiment) -> Vec<ShardCells> {
    (0..2)
        .map(|i| {
            let shard = Shard::new(i, 2).unwrap();
            let mut part = run_shard(
                e,
                &Traces::new(),
                &RunOptions::default(),
                shard,
                &provenance(),
            )
            .unwrap();
            part.source = format!("shard-{i}-of-2.toml");
            part
        })
        .collect()
}

type Edit = (&'static str, fn(&mut Vec<ShardCells>), &'static str);

const EDITS: &[Edit] = &[
    (
        "a metric dropped",
        |p| {
            p[0].measured[0].runs[0].2.remove("killed");
        },
        "metric 'killed' is missing",
    ),
    (
        "an unknown metric",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("bogus".into(), vec![Some(1.0)]);
        },
        "unknown metric 'bogus'",
    ),
    (
        "a sample list of another length",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .get_mut("jobs")
                .unwrap()
                .push(Some(1.0));
        },
        "'jobs' has 2 sample(s)",
    ),
    (
        "a negative bounded slowdown",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("mean_bsld".into(), vec![Some(-1.0)]);
        },
        "metric 'mean_bsld', sample 1: -1 is not a finite number of at least 1",
    ),
    // Not a NaN: it is a sample without a value, which `run` takes from a
    // kind and `merge` too (user_kinds.rs,
    // `a_sample_without_a_value_merges_as_it_runs`).
    (
        "a utilisation above 100%",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("utilization".into(), vec![Some(101.0)]);
        },
        "from 0 to 100",
    ),
    (
        "a job count with a fraction",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("jobs".into(), vec![Some(200.5)]);
        },
        "metric 'jobs', sample 1: 200.5 is not a count (a whole number, at least 0)",
    ),
    (
        "a fraction of a killed job",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("killed".into(), vec![Some(0.25)]);
        },
        "metric 'killed', sample 1: 0.25 is not a count",
    ),
    (
        "a count of negative zero",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("jobs".into(), vec![Some(-0.0)]);
        },
        "metric 'jobs', sample 1: -0 is not a count",
    ),
    (
        "more jobs measured than simulated",
        |p| {
            p[0].measured[0].runs[0]
                .2
                .insert("measured".into(), vec![Some(999.0)]);
        },
        "run 0, sample 1: metric 'measured' is 999, more than metric 'jobs' (200)",
    ),
    (
        "more jobs killed than measured",
        |p| {
            let values = &mut p[0].measured[0].runs[0].2;
            values.insert("killed".into(), vec![Some(150.0)]);
            values.insert("measured".into(), vec![Some(100.0)]);
        },
        "metric 'killed' is 150, more than metric 'measured' (100)",
    ),
    // Every value in its domain, but too large to average: the point's
    // mean is not a number, and nothing is written.
    (
        "values whose mean overflows",
        |p| {
            for part in p.iter_mut() {
                for cell in &mut part.measured {
                    for run in &mut cell.runs {
                        run.2.insert("mean_bsld".into(), vec![Some(1.7e308)]);
                    }
                }
            }
        },
        "panel 'bsld', series 'fcfs', x 'gen': the mean of its 2 finite value(s) is inf",
    ),
    (
        "a cell out of range",
        |p| p[0].measured[0].index = usize::MAX,
        "cell 18446744073709551615",
    ),
    (
        "a cell of the other shard",
        |p| p[0].measured[0].index = 1,
        "belongs to shard 1/2",
    ),
    (
        "another cell's runs",
        |p| p[0].measured[0].runs[0].0 = 99,
        "runs [99",
    ),
    (
        "another cell label",
        |p| p[0].measured[0].label = "fcfs on another".into(),
        "label 'fcfs on another', the configuration gives",
    ),
    (
        "another run label",
        |p| p[0].measured[0].runs[0].1 = "x\ny".into(),
        "run 0: label 'x\\u{a}y', the configuration gives",
    ),
    // What every shard says about the workloads, edited alike in each (so
    // the shards agree), against the workloads prepared again.
    (
        "another record count",
        |p| p.iter_mut().for_each(|s| s.workloads[0].records += 1),
        "`records` is 201, these inputs give 200",
    ),
    (
        "another machine",
        |p| p.iter_mut().for_each(|s| s.workloads[0].capacity = 7),
        "`capacity` is 7, these inputs give",
    ),
    (
        "another generator seed",
        |p| p.iter_mut().for_each(|s| s.workloads[0].seed = Some(5)),
        "`seed` is \"5\", these inputs give",
    ),
    (
        "a workload fewer",
        |p| p.iter_mut().for_each(|s| s.workloads.clear()),
        "it describes 0 workload(s), the runs read 2",
    ),
    (
        "a note added",
        |p| p.iter_mut().for_each(|s| s.notes.push("made up".into())),
        "its notes on the workloads are 'made up', these inputs give none",
    ),
    (
        "a cell in two files with other values",
        |p| {
            let mut copy = p[0].clone();
            copy.source = "copy.toml".into();
            copy.measured[0].runs[0]
                .2
                .insert("mean_wait".into(), vec![Some(1.0)]);
            p.push(copy);
        },
        "copy.toml",
    ),
];

#[test]
fn every_corruption_of_a_shard_is_an_error_naming_the_file() {
    let e = experiment();
    let clean = parts(&e);
    let whole = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let merge = |parts: &[ShardCells]| {
        merge(
            &e,
            &Traces::new(),
            &RunOptions::default(),
            &provenance(),
            parts,
        )
    };
    assert_eq!(merge(&clean).unwrap().rows, whole.rows);
    for (name, edit, needle) in EDITS {
        let mut broken = clean.clone();
        edit(&mut broken);
        let err = merge(&broken).expect_err(name);
        let shown = err.to_string();
        assert!(
            shown.contains("shard-0-of-2.toml") && shown.contains(needle),
            "{name}: {shown}"
        );
        assert!(
            matches!(
                err,
                MergeError::Invalid { .. } | MergeError::Duplicate { .. }
            ),
            "{name}: {err:?}"
        );
    }
}

#[test]
fn every_corruption_of_results_is_an_error_naming_the_file() {
    let e = experiment();
    let results = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let (csv, samples) = (results.csv(), results.samples.csv());
    let run_toml = results.run_toml(&e, &provenance());
    let check = |csv: &str, samples: &str, run_toml: &str| {
        let rows = parse_csv(csv).unwrap();
        let samples = Samples::parse(samples, e.confidence()).unwrap();
        check_results(&e, &rows, &samples)
            .and_then(|()| RunToml::parse(run_toml))
            .and_then(|run_toml| {
                check_run_toml(&run_toml, &e)?;
                check_run_inputs(&run_toml, &e, &Traces::new(), &RunOptions::default())
            })
    };
    assert_eq!(check(&csv, &samples, &run_toml), Ok(()));
    let lines = |text: &str| -> Vec<String> { text.lines().map(str::to_string).collect() };
    let edit = |text: &str, i: usize, f: &dyn Fn(&str) -> String| {
        let mut l = lines(text);
        l[i] = f(&l[i]);
        l.join("\n") + "\n"
    };
    // The value column of a CSV line.
    let set_field = |line: &str, k: usize, v: &str| {
        let mut f: Vec<&str> = line.split(',').collect();
        f[k] = v;
        f.join(",")
    };
    let cases: Vec<(&str, String, String, String, &str)> = vec![
        (
            "a data.csv value",
            edit(&csv, 1, &|l| set_field(l, 3, "99999999")),
            samples.clone(),
            run_toml.clone(),
            "data.csv: row 1",
        ),
        (
            "a data.csv value NaN",
            edit(&csv, 1, &|l| set_field(l, 3, "NaN")),
            samples.clone(),
            run_toml.clone(),
            "data.csv: row 1 (panel 'bsld', series 'fcfs', x 'gen') is 'bsld,fcfs,gen,nan,",
        ),
        (
            "a data.csv value infinite",
            edit(&csv, 1, &|l| set_field(l, 3, "inf")),
            samples.clone(),
            run_toml.clone(),
            "data.csv: row 1 (panel 'bsld', series 'fcfs', x 'gen') is 'bsld,fcfs,gen,inf,",
        ),
        (
            "a data.csv interval NaN",
            edit(&csv, 1, &|l| {
                set_field(set_field(l, 4, "NaN").as_str(), 5, "NaN")
            }),
            samples.clone(),
            run_toml.clone(),
            "data.csv: row 1 (panel 'bsld', series 'fcfs', x 'gen') is 'bsld,fcfs,gen,502.142,nan,nan,",
        ),
        (
            "a data.csv row dropped",
            edit(&csv, 2, &|_| String::new()),
            samples.clone(),
            run_toml.clone(),
            "data.csv",
        ),
        (
            "a sample value",
            csv.clone(),
            edit(&samples, 1, &|l| set_field(l, 5, "1")),
            run_toml.clone(),
            "data.csv: row 1",
        ),
        (
            "a bounded slowdown below one",
            csv.clone(),
            edit(&samples, 1, &|l| set_field(l, 5, "0.5")),
            run_toml.clone(),
            "samples.csv",
        ),
        (
            "a repetition out of range",
            csv.clone(),
            edit(&samples, 1, &|l| set_field(l, 3, "3")),
            run_toml.clone(),
            "samples.csv",
        ),
        (
            "a unit twice",
            csv.clone(),
            edit(&samples, 2, &|l| set_field(l, 3, "1")),
            run_toml.clone(),
            "samples.csv",
        ),
        (
            "samples whose mean overflows, with the data.csv they give",
            {
                let huge = edit(&samples, 1, &|l| set_field(l, 5, "1.7e308"));
                let huge = edit(&huge, 2, &|l| set_field(l, 5, "1.7e308"));
                let units = Samples::parse(&huge, e.confidence()).unwrap();
                let csv = write_csv(&aggregate(&e, &units));
                assert!(csv.contains(",inf,"), "{csv}");
                csv
            },
            {
                let huge = edit(&samples, 1, &|l| set_field(l, 5, "1.7e308"));
                edit(&huge, 2, &|l| set_field(l, 5, "1.7e308"))
            },
            run_toml.clone(),
            "data.csv: row 1 (panel 'bsld', series 'fcfs', x 'gen'): the mean of its 2 finite \
             value(s) is inf",
        ),
        (
            "an infinite sample",
            csv.clone(),
            edit(&samples, 1, &|l| set_field(l, 5, "inf")),
            run_toml.clone(),
            "samples.csv: panel 'bsld', series 'fcfs', x 'gen', repetition 1, sample 1: inf is not",
        ),
        (
            "a hash edited",
            csv.clone(),
            samples.clone(),
            run_toml.replace(&e.config_sha256(), "0000"),
            "run.toml: provenance.config_sha256",
        ),
        (
            "the configuration edited",
            csv.clone(),
            samples.clone(),
            run_toml.replace("bsld_bound = 10", "bsld_bound = 11"),
            "run.toml: [config]",
        ),
        (
            "garbage",
            csv.clone(),
            samples.clone(),
            "x = 1\n[[[".into(),
            "run.toml: line 2: not a run.toml",
        ),
        (
            "seeds dropped",
            csv.clone(),
            samples.clone(),
            run_toml.replace("repetition_seeds = [", "repetition_seeds = [] # ["),
            "run.toml: provenance.repetition_seeds",
        ),
        (
            "a seed of another configuration",
            csv.clone(),
            samples.clone(),
            {
                // The same length, its first digit one less.
                let at = run_toml.find("repetition_seeds = [\"").unwrap() + 21;
                // Smaller, so still a 64-bit seed.
                let digit = ((run_toml.as_bytes()[at] - 1) as char).to_string();
                let mut edited = run_toml.clone();
                edited.replace_range(at..=at, &digit);
                edited
            },
            "run.toml: provenance.repetition_seeds[0] is \"",
        ),
        (
            "another machine size",
            csv.clone(),
            samples.clone(),
            run_toml.replace("capacity = 32", "capacity = 33"),
            "run.toml: workload 'gen (repetition 1)': `capacity` is 33, these inputs give 32",
        ),
        (
            "another job count",
            csv.clone(),
            samples.clone(),
            run_toml.replacen("jobs = 200", "jobs = 199", 1),
            "run.toml: workload 'gen (repetition 1)': `jobs` is 199, these inputs give 200",
        ),
        (
            "a stand-in claimed",
            csv.clone(),
            samples.clone(),
            run_toml.replacen("stand_in = false", "stand_in = true", 1),
            "run.toml: provenance.stand_in is true, its workloads say false",
        ),
    ];
    for (name, csv, samples, run_toml, needle) in cases {
        let err = check(&csv, &samples, &run_toml).expect_err(name);
        assert!(err.to_string().starts_with(needle), "{name}: {err}");
    }
}

/// What a run writes as figure.svg and summary.md is what `check_written`
/// draws again from samples.csv, in the setting it was written in, with
/// or without its claims; a line edited in either is named.
#[test]
fn rendered_files_are_drawn_again_from_the_samples() {
    let e = experiment();
    let results = run(&e, &Traces::new(), &RunOptions::default()).unwrap();
    let run_toml = RunToml::parse(&results.run_toml(&e, &provenance())).unwrap();
    let samples = Samples::parse(&results.samples.csv(), e.confidence()).unwrap();
    let rebuilt = Results::from_samples(
        &e,
        samples.clone(),
        results.workloads.clone(),
        results.notes.clone(),
    );
    assert_eq!(rebuilt.csv(), results.csv());
    assert_eq!(rebuilt.svg(), results.svg());
    let check = |summary: &str, figure: &str, settings: &[Setting]| {
        let written = Written {
            summary: Some(summary),
            figure: Some(figure),
            rows: None,
            settings,
        };
        check_written(
            &run_toml,
            &e,
            &Traces::new(),
            &RunOptions::default(),
            &samples,
            &written,
        )
    };
    let svg = results.svg();
    let paper = results.summary_in(&e, &Setting::Paper);
    let own = results.summary(&e);
    let no_claims = results.clone().without_claims().summary(&e);
    assert_ne!(own, no_claims);
    for summary in [&own, &no_claims] {
        assert_eq!(check(summary, &svg, &[Setting::Own]), Ok(()));
    }
    // A summary is checked in each setting it may have been written in.
    assert!(check(&paper, &svg, &[Setting::Own]).is_err());
    assert_eq!(check(&paper, &svg, &[Setting::Own, Setting::Paper]), Ok(()));
    // One character of a number changed, anywhere it is shown.
    let edit = |text: &str| -> (String, usize) {
        let at = text.rfind(|c: char| c.is_ascii_digit()).unwrap();
        let other = if text.as_bytes()[at] == b'1' {
            '2'
        } else {
            '1'
        };
        let edited = format!("{}{other}{}", &text[..at], &text[at + 1..]);
        (edited, text[..at].matches('\n').count() + 1)
    };
    let (summary, line) = edit(&own);
    let err = check(&summary, &svg, &[Setting::Own]).unwrap_err();
    assert_eq!(err.file, "summary.md");
    assert!(err.message.starts_with(&format!("line {line} ")), "{err}");
    let (figure, line) = edit(&svg);
    let err = check(&own, &figure, &[Setting::Own]).unwrap_err();
    assert_eq!(err.file, "figure.svg");
    assert!(err.message.starts_with(&format!("line {line} ")), "{err}");
    // A line cut off the end is named too.
    let cut = own.trim_end_matches('\n');
    let cut = &cut[..cut.rfind('\n').unwrap() + 1];
    assert!(check(cut, &svg, &[Setting::Own]).is_err());
}
