//! Errors that only the run can find (a value that is valid on its own
//! but leaves no jobs of this trace, or moves them out of range) are
//! placed in the configuration like the parser's: file, line, column of
//! the value that caused them, and the line itself.

use experiments::{Experiment, RunError, RunOptions, Traces, run};

use super::BASE;

/// Runs `text` and returns the located error's (line, column, message).
fn located(text: &str) -> (usize, usize, String) {
    let e = Experiment::parse(text, "f.toml").unwrap_or_else(|e| panic!("{e}"));
    match run(&e, &Traces::new(), &RunOptions::default()) {
        Err(RunError::Located { error }) => {
            let message = error.to_string();
            assert!(message.starts_with("f.toml:"), "{message}");
            let experiments::ConfigError::Invalid { line, column, .. } = error else {
                unreachable!("one variant")
            };
            (line.unwrap(), column.unwrap(), message)
        }
        other => panic!("expected a located error, got {other:?}"),
    }
}

/// The 1-based line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn a_transform_that_leaves_no_jobs_points_at_the_transforms() {
    let text = BASE.replace(
        "lublin99 = { procs = 32, jobs = 200 }",
        "lublin99 = { procs = 32, jobs = 200 }\ntransforms = [{ drop_shorter_than = 1000000000 }]",
    );
    let (line, column, message) = located(&text);
    assert_eq!(line, line_of(&text, "transforms = "), "{message}");
    assert_eq!(column, "transforms = ".len() + 1, "{message}");
    assert!(
        message.contains("workload 'gen' has no jobs left"),
        "{message}"
    );
    // The line itself is shown under the message.
    assert!(
        message.contains("| transforms = [{ drop_shorter_than"),
        "{message}"
    );
}

#[test]
fn a_load_factor_out_of_range_points_at_its_transform() {
    let text = BASE.replace(
        "lublin99 = { procs = 32, jobs = 200 }",
        "lublin99 = { procs = 32, jobs = 200 }\n\
         transforms = [{ last_n = 100 }, { scale_load = 1e-300 }]",
    );
    let (line, column, message) = located(&text);
    assert_eq!(line, line_of(&text, "scale_load"), "{message}");
    // The second transform, not the first.
    let at = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("{ scale_load")
        .unwrap();
    assert_eq!(column, at + 1, "{message}");
    assert!(
        message.contains("transform scale_load = 1e-300"),
        "{message}"
    );
}

#[test]
fn a_kind_parameter_found_wrong_at_run_time_points_at_the_parameter() {
    let text = BASE.replace("bsld_bound = 10", "bsld_bound = 10\nwarmup = 1000");
    let (line, _, message) = located(&text);
    assert_eq!(line, line_of(&text, "warmup = 1000"), "{message}");
    // The run is named, and the field.
    assert!(
        message.contains("fcfs on gen: params.warmup (1000)"),
        "{message}"
    );
}

/// `BASE` swept over `sweep` (the claims, which need the workload axis,
/// left out).
fn swept(sweep: &str) -> String {
    BASE.replace("axis = \"workload\"\nlabel = \"workload\"", sweep)
        .replace("[[claims]]\ntext = \"EASY beats FCFS\"\n", "")
        .replace(
            "check.below = { panel = \"bsld\", series = \"easy\", than = \"fcfs\" }\n",
            "",
        )
}

/// The 1-based column of the last `needle` on `line` of `text`.
fn column_of(text: &str, line: usize, needle: &str) -> usize {
    text.lines().nth(line - 1).unwrap().rfind(needle).unwrap() + 1
}

#[test]
fn a_swept_value_points_at_its_element_of_the_sweep() {
    // The axis itself.
    let text = swept("axis = \"warmup\"\nvalues = [0, 1000]\nlabel = \"warm-up\"");
    let (line, column, message) = located(&text);
    assert_eq!(line, line_of(&text, "values = [0, 1000]"), "{message}");
    assert_eq!(column, column_of(&text, line, "1000"), "{message}");
    assert!(message.contains("at warmup = 1000"), "{message}");
    // A key moving with the axis.
    let text = swept(
        "axis = \"bsld_bound\"\nvalues = [10, 20]\nlabel = \"bound\"\n\
         with = { warmup = [0, 1000] }",
    );
    let (line, column, message) = located(&text);
    assert_eq!(line, line_of(&text, "with = "), "{message}");
    assert_eq!(column, column_of(&text, line, "1000"), "{message}");
    // The grid's axis.
    let text = swept(
        "axis = \"bsld_bound\"\nvalues = [10, 20]\nlabel = \"bound\"\n\
         [sweep.grid]\naxis = \"warmup\"\nvalues = [0, 1000]\nlabel = \"warm-up\"",
    );
    let (line, column, message) = located(&text);
    assert_eq!(line, line_of(&text, "values = [0, 1000]"), "{message}");
    assert_eq!(column, column_of(&text, line, "1000"), "{message}");
    assert!(message.contains("warmup = 1000"), "{message}");
}

#[test]
fn a_value_a_series_sets_points_at_that_series_entry() {
    // The series' own `params` (nested and dotted), not `[params]`.
    for (series, needle) in [
        (
            "{ name = \"late\", params = { policy = \"easy\", warmup = 1000 } }",
            "warmup = 1000",
        ),
        (
            "{ name = \"late\", params = { policy = \"easy\", \"warmup\" = 1000 } }",
            "\"warmup\" = 1000",
        ),
    ] {
        let text = BASE
            .replace(
                "series = [\"fcfs\", \"easy\", \"conservative\"]",
                &format!("series = [\"fcfs\",\n  {series},\n]"),
            )
            .replace(
                "series = \"easy\", than = \"fcfs\"",
                "series = \"late\", than = \"fcfs\"",
            );
        let (line, column, message) = located(&text);
        assert_eq!(line, line_of(&text, needle), "{message}");
        assert_eq!(column, column_of(&text, line, "1000"), "{message}");
        assert!(
            message.contains("late on gen: params.warmup (1000)"),
            "{message}"
        );
    }
    // A value the series does not set stays at `[params]`.
    let text = BASE
        .replace(
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            "series = [\"fcfs\", { name = \"mine\", params = { policy = \"easy\" } }]",
        )
        .replace(
            "series = \"easy\", than = \"fcfs\"",
            "series = \"mine\", than = \"fcfs\"",
        )
        .replace("bsld_bound = 10", "bsld_bound = 10\nwarmup = 1000");
    let (line, _, message) = located(&text);
    assert_eq!(line, line_of(&text, "warmup = 1000"), "{message}");
}
