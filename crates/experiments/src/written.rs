//! The rendered outputs of a results directory checked against what the
//! tool writes for its data: `figure.svg` and `summary.md` drawn again
//! from `samples.csv` and the workloads prepared again, compared byte for
//! byte. A results directory's manifest proves only that its files are
//! the ones written with it; this proves that what they show is what the
//! data say, so a figure or summary edited along with its manifest does
//! not pass `verify`.

use crate::check::{ResultsError, RunToml, aggregate, inputs_checked, written_rows};
use crate::claims::check_claims;
use crate::csv::Row;
use crate::encode::terminal;
use crate::experiment::Experiment;
use crate::figure::Figure;
use crate::graph::Layout;
use crate::report::Setting;
use crate::results::Results;
use crate::run::RunOptions;
use crate::samples::Samples;
use crate::workload::{Traces, WorkloadFacts};

/// The rendered files of one results directory, as read, and the
/// settings `summary.md`'s words may have been written for.
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    /// `summary.md`; `None` leaves it unchecked (a file that cannot be read
    /// is the manifest's to report).
    pub summary: Option<&'a str>,
    /// `figure.svg`; `None` leaves it unchecked, as for `summary`.
    pub figure: Option<&'a str>,
    /// `data.csv`'s rows, checked by [`check_results`](crate::check_results):
    /// a point without a mean (NaN) is drawn as it gives it (see
    /// [`written_rows`](crate::written_rows)); `None` draws every point
    /// from the samples.
    pub rows: Option<&'a [Row]>,
    /// The settings to try, the likeliest first ([`Setting::Paper`] for
    /// the committed configuration of a paper, and so on): a summary
    /// passes when it is the one the tool writes in any of them, with or
    /// without its claims section (`--no-claims`).
    pub settings: &'a [Setting],
}

/// Checks `written` against what the tool writes for `samples` and the
/// workloads `experiment` makes of `traces`, after checking those
/// workloads against `run_toml` as [`check_run_inputs`] does (the same
/// error when they differ).
///
/// The results are drawn again: the rows [`aggregate`] makes of `samples`
/// (what [`check_results`] proves `data.csv` holds), their claims'
/// verdicts, the workloads prepared again and the seeds the
/// configuration derives. A line of `figure.svg` or `summary.md` that
/// differs is an error naming the file and the line.
///
/// [`check_run_inputs`]: crate::check_run_inputs
/// [`check_results`]: crate::check_results
pub fn check_written(
    run_toml: &RunToml,
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
    samples: &Samples,
    written: &Written<'_>,
) -> Result<(), ResultsError> {
    let (workloads, notes) = inputs_checked(run_toml, experiment, traces, options)?;
    let mut results = Results::from_samples(experiment, samples.clone(), workloads, notes);
    // A point without a mean: as data.csv gives it.
    if let Some(rows) = written.rows {
        results.rows = written_rows(experiment, rows, samples);
        results.verdicts = check_claims(experiment.claims(), &results.rows, samples);
    }
    if let Some(figure) = written.figure {
        same("figure.svg", figure, &results.svg())?;
    }
    let Some(summary) = written.summary else {
        return Ok(());
    };
    let unchecked = results.clone().without_claims();
    let mut first = None;
    for setting in written.settings {
        for results in [&results, &unchecked] {
            let want = results.summary_in(experiment, setting);
            if want == summary {
                return Ok(());
            }
            first.get_or_insert(want);
        }
    }
    match first {
        Some(want) => same("summary.md", summary, &want),
        None => Ok(()),
    }
}

impl Results {
    /// The results of `experiment` whose units are `samples`, on the
    /// workloads `workloads` with the kind's `notes` on them (what
    /// [`workload_facts`](crate::workload_facts) answers): the rows
    /// [`aggregate`] makes of the samples, their claims checked, the
    /// figure and the seeds the configuration gives. For samples a run
    /// measured, these are the results that run returned, so their files
    /// are the bytes it wrote, but for a point without a mean, whose run
    /// count only data.csv holds ([`written_rows`](crate::written_rows)).
    pub fn from_samples(
        experiment: &Experiment,
        samples: Samples,
        workloads: Vec<WorkloadFacts>,
        notes: Vec<String>,
    ) -> Results {
        let rows = aggregate(experiment, &samples);
        Results {
            verdicts: check_claims(experiment.claims(), &rows, &samples),
            rows,
            samples,
            claims_checked: true,
            figure: Figure::of(experiment, &workloads),
            workloads,
            seeds: Layout::new(experiment).seeds,
            notes,
        }
    }
}

/// `found` must be `want`; the error names `file`'s first line that differs.
fn same(file: &'static str, found: &str, want: &str) -> Result<(), ResultsError> {
    if found == want {
        return Ok(());
    }
    let (mut found_lines, mut want_lines) = (found.split('\n'), want.split('\n'));
    let mut line = 1;
    let (have, should) = loop {
        match (found_lines.next(), want_lines.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (a, b) => break (a, b),
        }
    };
    let shown = |l: Option<&str>| {
        l.map_or_else(
            || "nothing (the file ends)".to_string(),
            |l| {
                let cut: String = l.chars().take(160).collect();
                let more = if cut.len() < l.len() { "…" } else { "" };
                format!("`{}{more}`", terminal(&cut))
            },
        )
    };
    Err(ResultsError {
        file,
        message: format!(
            "line {line} is not what the tool writes for these data (samples.csv and the \
             workloads prepared again): it has {}, the data give {}",
            shown(have),
            shown(should)
        ),
    })
}
