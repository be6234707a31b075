//! A researcher's study gets an error at the key that is wrong: `trim` on
//! a kind that measures one sample per run, a swept key no run reads or
//! the kind does not have, a workload field; and sweep values that
//! differ keep different x labels.

use experiments::{Experiment, fmt_exact};

/// A utility study: `{sweep}` is the `[sweep]` body, `{top}` more
/// top-level keys, `{workload}` the workload's source.
fn utility(top: &str, workload: &str, sweep: &str) -> String {
    format!(
        "version = 2\nid = \"study/u\"\ntitle = \"t\"\nkind = \"utility\"\nseed = 1\n\
         series = [\"pu\"]\n{top}\n[[workloads]]\nlabel = \"g\"\n{workload}\n\n[params]\n\
         users = 4\n\n[[panels]]\nid = \"s\"\nmetric = \"success_ratio\"\n\n[sweep]\n\
         label = \"x\"\n{sweep}\n"
    )
}
const GENERATED: &str = "generated_by_kind = \"the grid\"";

/// The error of `text`, which must start at `u.toml:<line>:` and hold `needle`.
fn refused_at(text: &str, line: usize, needle: &str) {
    let err = Experiment::parse(text, "u.toml").expect_err(needle);
    let shown = err.to_string();
    assert_eq!(err.line(), Some(line), "{needle}: {shown}\n{text}");
    assert!(shown.starts_with(&format!("u.toml:{line}:")), "{shown}");
    assert!(shown.contains(needle), "wanted {needle:?} in {shown}");
}

/// The line of the first line of `text` that starts with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{prefix} in {text}"))
        + 1
}

#[test]
fn trim_and_a_lone_confidence_are_refused_at_their_line_for_kinds_of_one_sample_per_run() {
    // Each built-in kind that measures one sample per run, with a config
    // that is valid without `trim`.
    let backfilling = "version = 2\nid = \"study/b\"\ntitle = \"t\"\nkind = \"backfilling\"\n\
         seed = 1\nseries = [\"easy\"]\ntrim = 1\n\n[[workloads]]\nlabel = \"l\"\n\
         lublin99 = { procs = 32, jobs = 100 }\n\n[sweep]\naxis = \"workload\"\nlabel = \"x\"\n\n\
         [[panels]]\nid = \"w\"\nmetric = \"mean_wait\"\n";
    let pricing = backfilling
        .replace("\"backfilling\"", "\"pricing\"")
        .replace("[\"easy\"]", "[\"libra\"]")
        .replace("\"mean_wait\"", "\"qos\"");
    let provisioning = backfilling
        .replace("\"backfilling\"", "\"provisioning\"")
        .replace("[\"easy\"]", "[\"arcb+least-load\"]")
        .replace("\"mean_wait\"", "\"messages\"");
    let one_utility = utility("trim = 1", GENERATED, "axis = \"max_ttl\"\nvalues = [1, 2]");
    for (kind, text) in [
        ("backfilling", backfilling.to_string()),
        ("pricing", pricing),
        ("provisioning", provisioning),
        ("utility", one_utility),
    ] {
        let without = text.replace("trim = 1\n", "");
        Experiment::parse(&without, "u.toml").unwrap_or_else(|e| panic!("{kind}: {e}"));
        refused_at(
            &text,
            line_of(&text, "trim"),
            &format!(
                "`trim = 1` leaves out the highest and lowest samples of each run, and kind \
                 '{kind}' measures one sample per run, so it would change nothing; remove `trim`"
            ),
        );
    }
    // `confidence` where no point can have an interval: one repetition.
    let text = utility(
        "confidence = 0.90",
        GENERATED,
        "axis = \"max_ttl\"\nvalues = [1, 2]",
    );
    refused_at(
        &text,
        line_of(&text, "confidence"),
        "`confidence = 0.9` sets the level of the intervals around each point, and kind \
         'utility' measures one sample per run, so with `repetitions = 1` a point has one value \
         and no interval; set `repetitions` to 2 or more, or remove `confidence`",
    );
    let two = text.replace("confidence = 0.90", "confidence = 0.90\nrepetitions = 2");
    Experiment::parse(&two, "u.toml").unwrap();
    // A kind that measures several samples per run keeps it.
    let fig4 = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/adaptive/fig4.toml"
    ))
    .unwrap();
    assert!(fig4.contains("\ntrim = 4"));
    Experiment::parse(&fig4, "fig4.toml").unwrap();
}

#[test]
fn errors_about_a_swept_key_point_at_that_key() {
    let valid = utility("", GENERATED, "axis = \"max_ttl\"\nvalues = [1, 2]");
    Experiment::parse(&valid, "u.toml").unwrap();
    let generates = "the utility kind generates its own workload, which a swept `load` cannot \
                     scale: sweep `mean_interarrival` instead";
    let unknown = "unknown field `max_tll`";
    // (sweep body, the line's prefix the error must be at, message)
    let cases = [
        // An axis the kind does not have: at the axis, not at the series.
        ("axis = \"load\"\nvalues = [0.5, 1.0]", "axis", generates),
        // A misspelt axis: at the axis, not at its values.
        ("axis = \"max_tll\"\nvalues = [1, 2]", "axis", unknown),
        // The same in `with` and in the grid: at the key.
        (
            "axis = \"max_ttl\"\nvalues = [1, 2]\nwith = {\n  sites = [2, 3],\n  max_tll = [1, 2] }",
            "  max_tll",
            unknown,
        ),
        (
            "axis = \"max_ttl\"\nvalues = [1, 2]\nwith = {\n  sites = [2, 3],\n  load = [1, 2] }",
            "  load",
            generates,
        ),
        (
            "axis = \"max_ttl\"\nvalues = [1, 2]\n\n[sweep.grid]\naxis = \"max_tll\"\nvalues = [1]\nlabel = \"g\"",
            "axis = \"max_tll\"",
            unknown,
        ),
        // The axis's key again in `with`: at the `with` key, not the axis.
        (
            "axis = \"max_ttl\"\nvalues = [1, 2]\nwith = {\n  sites = [2, 3],\n  max_ttl = [1, 2] }",
            "  max_ttl",
            "`max_ttl` is swept twice",
        ),
        // A bad value: at the values of the key it belongs to.
        (
            "axis = \"max_ttl\"\nvalues = [1, 2]\nwith = {\n  sites = [2, 3],\n  users = [\"many\", 4] }",
            "  users",
            "invalid type: string \"many\"",
        ),
        (
            "axis = \"max_ttl\"\nvalues = [1, 2]\n\n[sweep.grid]\naxis = \"sites\"\nvalues = [\"two\"]\nlabel = \"g\"",
            "values = [\"two\"]",
            "invalid type: string \"two\"",
        ),
    ];
    for (sweep, prefix, needle) in cases {
        let text = utility("", GENERATED, sweep);
        refused_at(&text, line_of(&text, prefix), needle);
    }
    // A workload the kind cannot take: at its source, not at the axis.
    let text = utility(
        "",
        "lublin99 = { procs = 8, jobs = 10 }",
        "axis = \"max_ttl\"\nvalues = [1, 2]",
    );
    refused_at(
        &text,
        line_of(&text, "lublin99"),
        "kind 'utility' generates its own jobs",
    );
}

#[test]
fn errors_about_a_workload_field_point_at_that_field() {
    let backfilling = |fields: &str| {
        format!(
            "version = 2\nid = \"study/b\"\ntitle = \"t\"\nkind = \"backfilling\"\nseed = 1\n\
             series = [\"easy\"]\n\n[[workloads]]\nlabel = \"l\"\n\
             lublin99 = {{ procs = 32, jobs = 100 }}\n{fields}\n\n[sweep]\naxis = \"workload\"\n\
             label = \"x\"\n\n[[panels]]\nid = \"w\"\nmetric = \"mean_wait\"\n"
        )
    };
    for (fields, prefix, needle) in [
        ("procs = 64", "procs", "`procs` sets the machine of a trace"),
        (
            "estimate = { under_estimate = 2.0 }",
            "estimate",
            "under_estimate is 2, expected a fraction in [0, 1)",
        ),
        (
            "transforms = [{ last_n = 10 }, { min_procs = 2 }]",
            "transforms",
            "workload 'l': ",
        ),
        (
            "lenient = true",
            "lenient",
            "`lenient` applies to a trace file",
        ),
    ] {
        let text = backfilling(fields);
        refused_at(&text, line_of(&text, prefix), needle);
    }
    let text = backfilling("").replace("jobs = 100", "jobs = 0");
    refused_at(
        &text,
        line_of(&text, "lublin99"),
        "lublin99 needs procs and jobs of at least 1",
    );
}

#[test]
fn sweep_values_that_differ_keep_different_labels() {
    // Six significant digits merged these; every committed config's
    // labels read back exactly and stay as they were.
    assert_eq!(fmt_exact(0.1234567), "0.1234567");
    assert_eq!(fmt_exact(0.1234568), "0.1234568");
    assert_eq!(fmt_exact(1000001.5), "1000001.5");
    assert_eq!(fmt_exact(1000002.5), "1000002.5");
    for (v, label) in [
        (0.5, "0.5"),
        (0.9, "0.9"),
        (1e-7, "0.0000001"),
        (3840.0, "3840"),
    ] {
        assert_eq!(fmt_exact(v), label);
        assert_eq!(fmt_exact(v), experiments::fmt_num(v));
    }
    for (values, at, missed) in [
        ("[0.1234567, 0.1234568]", "0.1234568", "0.123457"),
        ("[1000001.5, 1000002.5]", "1000002.5", "1000002"),
        (
            "[9007199254740993, 9007199254740992]",
            "9007199254740993",
            "9007199254740994",
        ),
    ] {
        let text = utility(
            "",
            GENERATED,
            &format!("axis = \"mean_interarrival\"\nvalues = {values}"),
        ) + &format!(
            "\n[[claims]]\ntext = \"c\"\ncheck.within = {{ panel = \"s\", series = \"pu\", \
             at = {at}, lo = 0, hi = 1 }}\n"
        );
        let e = Experiment::parse(&text, "u.toml").unwrap_or_else(|e| panic!("{values}: {e}"));
        assert!(
            e.skipped_claims().is_empty(),
            "{values}: {:?}",
            e.skipped_claims()
        );
        // A claim at a value the sweep does not have names the labels.
        let text = text.replace(&format!("at = {at}"), &format!("at = {missed}"));
        let e = Experiment::parse(&text, "u.toml").unwrap();
        let note = e.skipped_claims().join("\n");
        let labels = values.trim_matches(['[', ']']);
        assert!(note.contains(&format!("(it has {labels})")), "{note}");
    }
}

/// The line of the last line of `text` that starts with `prefix`: a key
/// of a claim's predicate, below any key of the same name above it.
fn last_line_of(text: &str, prefix: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .rposition(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{prefix} in {text}"))
        + 1
}

/// A backfilling study that writes every text a reader sees: the title,
/// the citation, both axis labels, a panel's title and y label, and a
/// claim's text, paper value, explanation and cause, each on a line of
/// its own.
const TEXTS: &str = r#"version = 2
id = "study/texts"
title = "T"
paper = "P"
kind = "backfilling"
seed = 1
series = ["fcfs", "easy"]

[[workloads]]
label = "l"
lublin99 = { procs = 32, jobs = 100 }

[sweep]
axis = "bsld_bound"
values = [10, 60]
label = "x"

[sweep.grid]
axis = "narrow_procs"
values = [4, 8]
label = "g"

[[panels]]
id = "bsld"
metric = "mean_bsld"
title = "t"
y_label = "y"

[[claims]]
text = "c"
paper_value = "v"
explanation = "e"
cause = { data = "d" }

[claims.check.below]
panel = "bsld@4"
series = "easy"
than = "fcfs"
at = 10
"#;

#[test]
fn empty_texts_shown_to_readers_are_refused_at_their_line() {
    Experiment::parse(TEXTS, "u.toml").unwrap();
    // (the line as written, the field as the message names it)
    let cases = [
        ("title = \"T\"", "`title`"),
        ("paper = \"P\"", "`paper`"),
        ("label = \"x\"", "sweep `label`"),
        ("label = \"g\"", "sweep.grid `label`"),
        ("title = \"t\"", "panel 'bsld': `title`"),
        ("y_label = \"y\"", "panel 'bsld': `y_label`"),
        ("text = \"c\"", "claim `text`"),
        ("paper_value = \"v\"", "claim `paper_value`"),
        ("explanation = \"e\"", "claim `explanation`"),
        ("cause = { data = \"d\" }", "claim `cause.data`"),
    ];
    for (line, field) in cases {
        let key = line.split(" = ").next().unwrap();
        for (blank, shown) in [("", "empty"), (" \t ", "only white space")] {
            let value = if key == "cause" {
                format!("{{ data = \"{blank}\" }}")
            } else {
                format!("\"{blank}\"")
            };
            let text = TEXTS.replacen(line, &format!("{key} = {value}"), 1);
            refused_at(
                &text,
                line_of(TEXTS, line),
                &format!("{field} is {shown}; "),
            );
        }
    }
    // A workload the kind generates: its description is its summary's.
    let text = utility(
        "",
        "generated_by_kind = \"  \"",
        "axis = \"max_ttl\"\nvalues = [1, 2]",
    );
    refused_at(
        &text,
        line_of(&text, "generated_by_kind"),
        "workload 'g': `generated_by_kind` is only white space; describe the jobs",
    );
    // Names (series, panel ids, workload labels, string x values) likewise.
    for (from, to, prefix, needle) in [
        (
            "label = \"l\"",
            "label = \" \"",
            "label = \" \"",
            "workload label ' ' is only white space",
        ),
        (
            "id = \"bsld\"",
            "id = \"  \"",
            "id = \"  \"",
            "panel id '  ' is only white space",
        ),
        (
            "\"fcfs\", \"easy\"]",
            "\"fcfs\", \" \"]",
            "series",
            "series ' ' is only white space",
        ),
    ] {
        let text = TEXTS.replacen(from, to, 1);
        refused_at(&text, line_of(&text, prefix), needle);
    }
}

/// An error about a claim points at the key at fault in its predicate,
/// not at the start of `check`: each key of the predicate is on a line of
/// its own in [`TEXTS`], and on one line the column says which key.
#[test]
fn errors_about_a_claim_point_at_the_key_at_fault() {
    // (replaced, by, the line's prefix the error is at, message)
    let cases = [
        (
            "panel = \"bsld@4\"",
            "panel = \"nope\"",
            "panel",
            "unknown panel 'nope'",
        ),
        (
            "series = \"easy\"\nthan",
            "series = \"sjf\"\nthan",
            "series",
            "unknown series 'sjf'",
        ),
        (
            "than = \"fcfs\"",
            "than = \"easy\"",
            "than",
            "compares series 'easy' with itself",
        ),
        (
            "than = \"fcfs\"",
            "than = \"x\"",
            "than",
            "unknown series 'x'",
        ),
        (
            "at = 10",
            "at = 10\nmargin = -1.0",
            "margin",
            "margin -1 must be",
        ),
    ];
    for (from, to, prefix, needle) in cases {
        assert!(TEXTS.contains(from), "{from}");
        let text = TEXTS.replacen(from, to, 1);
        refused_at(&text, last_line_of(&text, prefix), needle);
    }
    // Other predicates, each key in its place.
    let predicate = |table: &str| {
        let start = TEXTS.find("[claims.check.below]").unwrap();
        format!("{}{table}\n", &TEXTS[..start])
    };
    let cases = [
        (
            "[claims.check.within]\npanel = \"bsld@4\"\nseries = \"easy\"\nlo = 1.0\nhi = nan",
            "hi",
            "claim range [1, NaN] is empty or not finite",
        ),
        (
            "[claims.check.ratio]\npanel = \"bsld@4\"\nseries = \"easy\"\nthan = \"fcfs\"\nlo = inf\nhi = 2.0",
            "lo",
            "claim range [inf, 2] is empty or not finite",
        ),
        (
            "[claims.check.within]\npanel = \"bsld@4\"\nseries = \"easy\"\nlo = 3.0\nhi = 2.0",
            "hi",
            "claim range [3, 2] is empty or not finite",
        ),
        (
            "[claims.check.ordering]\npanel = \"bsld@4\"\nhighest_first = [\n  \"fcfs\",\n  \"easy\",\n  \"fcfs\",\n]",
            "  \"fcfs\",",
            "ordering names series 'fcfs' twice",
        ),
        (
            "[claims.check.ordering]\npanel = \"bsld@4\"\nhighest_first = [\n  \"fcfs\",\n  \"nope\",\n]",
            "  \"nope\"",
            "unknown series 'nope'",
        ),
        (
            "[claims.check.ordering]\npanel = \"bsld@4\"\nhighest_first = [\"fcfs\"]",
            "highest_first",
            "an ordering needs at least two series",
        ),
        (
            "[claims.check.rise]\npanel = \"bsld@4\"\nseries = \"easy\"\nfrom = 10\nto = 10\nlo = 0\nhi = 1",
            "to",
            "claim rises from x = 10 to the same x",
        ),
        (
            "[claims.check.rises_more]\npanel = \"bsld@4\"\nseries = \"easy\"\nthan = \"easy\"\nfrom = 10\nto = 60",
            "than",
            "claim compares series 'easy' with itself",
        ),
    ];
    for (table, prefix, needle) in cases {
        let text = predicate(table);
        refused_at(&text, last_line_of(&text, prefix), needle);
    }
    // On one line, the column is the value's at fault.
    let one_line = "check.below = { panel = \"bsld@4\", series = \"easy\", than = \"nope\" }";
    let start = TEXTS.find("[claims.check.below]").unwrap();
    let text = format!("{}{one_line}\n", &TEXTS[..start]);
    let err = Experiment::parse(&text, "u.toml").unwrap_err();
    let line = line_of(&text, "check.below");
    let column = one_line.find("\"nope\"").unwrap() + 1;
    assert!(
        err.to_string().starts_with(&format!(
            "u.toml:{line}:{column}: claim refers to unknown series 'nope'"
        )),
        "{err}"
    );
}

/// An error about one value of a list (the axis's `values`, a `with`
/// list, the grid's `values`) pointed at the list's opening bracket; on a
/// list written one value a line, that is lines away. It points at the
/// value at fault.
#[test]
fn errors_about_one_swept_value_point_at_that_value() {
    let list = |values: &[&str]| format!("[\n  {},\n]", values.join(",\n  "));
    let axis = |key: &str, values: &[&str], more: &str| {
        TEXTS.replacen(
            "axis = \"bsld_bound\"\nvalues = [10, 60]",
            &format!("axis = \"{key}\"\nvalues = {}{more}", list(values)),
            1,
        )
    };
    let cases = [
        (
            axis("bsld_bound", &["10", "nan", "60"], ""),
            "  nan",
            "axis 'bsld_bound': value nan is not a finite number, a string or a boolean",
        ),
        (
            axis("bsld_bound", &["10", "60", "10.0"], ""),
            "  10.0",
            "axis 'bsld_bound': value 10 is listed twice",
        ),
        (
            axis("load", &["0.5", "-1.0"], ""),
            "  -1.0",
            "load factors must be positive numbers, got -1.0",
        ),
        (
            axis("load", &["0.5", "-5e-324"], ""),
            "  -5e-324",
            "load factors must be positive numbers, got -5e-324",
        ),
        (
            axis("bsld_bound", &["10", "0", "60"], "\nlog_x = true"),
            "  0",
            "sweep.log_x needs a numeric sweep of positive values, not 0",
        ),
        (
            axis(
                "bsld_bound",
                &["10", "60"],
                &format!("\nwith = {{ warmup = {} }}", list(&["0", "inf"])),
            ),
            "  inf",
            "`with.warmup`: value inf is not a finite number",
        ),
        (
            TEXTS.replacen(
                "values = [4, 8]",
                &format!("values = {}", list(&["4", "8", "4"])),
                1,
            ),
            "  4",
            "grid value 4 is listed twice",
        ),
        // A value the kind's parameters do not take, or its check refuses:
        // at the value of the point whose run it would be.
        (
            axis("bsld_bound", &["10", "\"a\"", "60"], ""),
            "  \"a\"",
            "series 'fcfs' at bsld_bound = a, narrow_procs = 4: invalid type: string \"a\"",
        ),
        (
            axis("bsld_bound", &["10", "-10", "60"], ""),
            "  -10",
            "params.bsld_bound: is -10, expected at least 1 second",
        ),
        (
            axis(
                "bsld_bound",
                &["10", "60"],
                &format!("\nwith = {{ warmup = {} }}", list(&["0", "\"x\""])),
            ),
            "  \"x\"",
            "invalid type: string \"x\", expected u64",
        ),
    ];
    for (text, prefix, needle) in cases {
        refused_at(&text, last_line_of(&text, prefix), needle);
    }
}

/// A relative panel's reference that does not resolve, or that its kind
/// refuses, pointed at the whole `gain_over` table; the error names the
/// parameter and points at its value there.
#[test]
fn errors_about_a_panels_reference_point_at_the_parameter() {
    for (params, prefix, needle) in [
        (
            "cooldown = 0\nwarmup = -1",
            "warmup",
            "params.warmup: invalid value: integer `-1`",
        ),
        (
            "cooldown = 0\npolicy = \"nope\"",
            "policy",
            "params.policy: unknown policy 'nope'",
        ),
    ] {
        let text = TEXTS.replacen(
            "y_label = \"y\"\n",
            &format!("y_label = \"y\"\n\n[panels.gain_over.params]\n{params}\n"),
            1,
        );
        refused_at(
            &text,
            line_of(&text, prefix),
            "panel 'bsld': the reference of series",
        );
        refused_at(&text, line_of(&text, prefix), needle);
    }
}

/// A claim naming an unknown panel, series or x value lists what there is,
/// but a study may have 20,000 panels or a sweep of 100,000 values: the
/// error lists the first 20 and how many more there are.
#[test]
fn an_unknown_name_among_many_lists_the_first_twenty() {
    let study = |series: usize, panels: usize, values: usize, claim: &str| {
        let series: Vec<String> = (0..series)
            .map(|i| format!("{{ name = \"s{i}\", params = {{ policy = \"easy\" }} }}"))
            .collect();
        let values: Vec<String> = (0..values).map(|v| (v + 1).to_string()).collect();
        let mut text = format!(
            "version = 2\nid = \"t/n\"\ntitle = \"t\"\nkind = \"backfilling\"\nseed = 1\n\
             series = [{}]\n[[workloads]]\nlabel = \"w\"\nlublin99 = {{ procs = 8, jobs = 9 }}\n\
             [sweep]\naxis = \"bsld_bound\"\nlabel = \"x\"\nvalues = [{}]\n",
            series.join(", "),
            values.join(", ")
        );
        for i in 0..panels {
            text += &format!("[[panels]]\nid = \"p{i}\"\nmetric = \"mean_bsld\"\n");
        }
        text += &format!("[[claims]]\ntext = \"c\"\ncheck.within = {{ {claim} }}\n");
        Experiment::parse(&text, "n.toml")
    };
    let refused = |series, panels, claim| {
        study(series, panels, 2, claim)
            .expect_err(claim)
            .to_string()
    };
    for (err, first, last, absent, needle) in [
        (
            refused(2, 50, "panel = \"nope\", series = \"s0\", lo = 0, hi = 1"),
            "expected one of: p0, p1, ",
            "p19, and 30 more",
            "p20",
            "unknown panel 'nope'",
        ),
        (
            refused(45, 1, "panel = \"p0\", series = \"nope\", lo = 0, hi = 1"),
            "expected one of: s0, s1, ",
            "s19, and 25 more",
            "s20",
            "unknown series 'nope'",
        ),
    ] {
        assert!(err.contains(needle), "{err}");
        assert!(err.contains(first), "{err}");
        assert!(err.contains(last), "{err}");
        assert!(!err.contains(absent), "{err}");
    }
    // An x value the sweep lacks leaves the claim out, with a note.
    let e = study(
        2,
        1,
        45,
        "panel = \"p0\", series = \"s0\", at = 999, lo = 0, hi = 1",
    )
    .unwrap();
    let note = &e.skipped_claims()[0];
    assert!(note.contains("names x = 999"), "{note}");
    assert!(note.contains("(it has 1, 2, "), "{note}");
    assert!(note.contains("20, and 25 more)"), "{note}");
    assert!(!note.contains("21"), "{note}");
}

/// A backfilling study on workload `{workload}` with `[sweep]` body `{sweep}`.
fn backfilling(workload: &str, sweep: &str) -> String {
    format!(
        "version = 2\nid = \"study/b\"\ntitle = \"t\"\nkind = \"backfilling\"\nseed = 1\n\
         series = [\"fcfs\"]\n\n[[workloads]]\nlabel = \"w\"\n{workload}\n\n[[panels]]\n\
         id = \"p\"\nmetric = \"mean_wait\"\n\n[sweep]\nlabel = \"x\"\n{sweep}\n"
    )
}

/// A value that reaches a workload by a sweep, a grid, a `with` key or a
/// series is held to the checks the same value written in the entry
/// passes, and the error points at that value; a sweep that replaces the
/// entry's source says so.
#[test]
fn a_swept_workload_value_is_held_to_the_entrys_checks() {
    let lublin = "lublin99 = { procs = 32, jobs = 100 }";
    // The axis: a load of 0, at its element.
    let text = backfilling(
        lublin,
        "axis = \"workload.lublin99.load\"\nvalues = [0.5,\n  0]",
    );
    refused_at(
        &text,
        line_of(&text, "  0]"),
        "workload 'w': lublin99 load is 0, expected a finite number above 0",
    );
    // A `with` key: no jobs, at the list that sets it.
    let text = backfilling(
        lublin,
        "axis = \"workload.lublin99.load\"\nvalues = [0.5, 0.7]\n\
         with = { \"workload.lublin99.jobs\" = [10, 0] }",
    );
    refused_at(
        &text,
        line_of(&text, "with"),
        "lublin99 needs procs and jobs of at least 1, got 32 and 0",
    );
    // The grid: an estimate model the parser refuses, at its element,
    // naming the field.
    let text = backfilling(
        lublin,
        "axis = \"workload.lublin99.load\"\nvalues = [0.5]\n\
         grid = { axis = \"workload.lublin99.estimates\", label = \"e\", values = [\"f:2\",\n  \"f:0.5\"] }",
    );
    refused_at(
        &text,
        line_of(&text, "  \"f:0.5\""),
        "`lublin99.estimates`: ",
    );
    // A sweep that makes a trace's entry a Lublin99 workload of only the
    // keys it sets: refused at the sweep, saying the source was replaced.
    let text = backfilling(
        "trace = \"KTH-SP2-1996-2.1-cln\"",
        "axis = \"workload.lublin99.load\"\nvalues = [0.5]",
    );
    refused_at(
        &text,
        line_of(&text, "values"),
        "the entry's `trace` was replaced by the `lublin99` set here",
    );
    // Two sources at once: a swept trace on a Lublin99 entry whose grid
    // sets a Lublin99 field.
    let text = backfilling(
        lublin,
        "axis = \"workload.trace\"\nvalues = [\"KTH-SP2-1996-2.1-cln\"]\n\
         grid = { axis = \"workload.lublin99.estimates\", label = \"e\", values = [\"f:2\"] }",
    );
    refused_at(
        &text,
        line_of(&text, "values"),
        "give exactly one of `trace` or `lublin99`",
    );
    // A series that sets an under-estimate out of range, at the series.
    let text = backfilling(lublin, "axis = \"workload.lublin99.load\"\nvalues = [0.5]")
        .replace(
            "series = [\"fcfs\"]",
            "series = [\n  { name = \"u\", params = { policy = \"fcfs\" }, workload = { estimate = { under_estimate = 2.0 } } }]",
        );
    refused_at(
        &text,
        line_of(&text, "  { name"),
        "under_estimate is 2, expected a fraction in [0, 1)",
    );
}

/// Mistakes in a sweep's key or a workload's transforms are refused at the
/// key or the element, in words about the configuration.
#[test]
fn sweep_keys_and_transforms_are_refused_at_their_place() {
    let lublin = "lublin99 = { procs = 32, jobs = 100 }";
    // A misspelt axis: serde lists the parameters; the message says what
    // else a swept key may be.
    let text = backfilling(lublin, "axis = \"lod\"\nvalues = [0.5]");
    refused_at(
        &text,
        line_of(&text, "axis"),
        "a swept key is `load`, `workload.<field>` (on the axis, also `workload`)",
    );
    // `values` on the workload axis: at `values`.
    let text = backfilling(lublin, "axis = \"workload\"\nvalues = [\"w\"]");
    refused_at(&text, line_of(&text, "values"), "remove `values`");
    // A transform table of two keys, and one out of range: at the element.
    let sweep = "axis = \"load\"\nvalues = [0.5]";
    let two =
        format!("{lublin}\ntransforms = [{{ last_n = 5 }},\n  {{ last_n = 5, first_n = 2 }}]");
    let text = backfilling(&two, sweep);
    refused_at(
        &text,
        line_of(&text, "  { last_n"),
        "`workloads.0.transforms.1`: expected a table of exactly one key",
    );
    let range = format!("{lublin}\ntransforms = [{{ last_n = 5 }},\n  {{ job_ids = [9, 3] }}]");
    let text = backfilling(&range, sweep);
    refused_at(
        &text,
        line_of(&text, "  { job_ids"),
        "transform job_ids = [9, 3]",
    );
}
