//! The text outputs of a run (`summary.md`, `run.toml`) and the project's
//! `docs/REPRODUCTION.md`.

use std::fmt::Write as _;

use serde::Serialize;

use crate::claim::Cause;
use crate::claims::{Outcome, Verdict};
use crate::csv::{PanelRows, Row, write_csv, xs_in_order};
use crate::encode;
use crate::experiment::Experiment;
use crate::kind::PAPER_ONLY;
use crate::numfmt::fmt_short;
use crate::results::{Provenance, Results};
use crate::samples::Samples;
use crate::workload::WorkloadFacts;

/// Whom an experiment's words from a paper apply to: its claims'
/// `explanation` and `cause`, `Reproduces: <paper>` and a kind's paper
/// statistics were written for one setting (the committed paper
/// configuration, on its traces). They are printed as written only there.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Setting {
    /// The committed paper configuration, unmodified, on its traces (no
    /// stand-in): everything is printed as written.
    Paper,
    /// Anything else (a user's own study, a copied or edited paper
    /// configuration, a stand-in): the summary opens with "Study:", a
    /// claim's explanation and cause are not shown as if they applied, and
    /// a kind's paper statistics are left out.
    #[default]
    Own,
    /// Like [`Setting::Own`], for a configuration that shares its id with a
    /// committed paper configuration it differs from: what that one was
    /// written for (`"<id> on <traces>"`), named where explanations are left out.
    Copied(String),
}

impl Setting {
    /// Whether words written for the paper's setting apply.
    pub fn is_paper(&self) -> bool {
        matches!(self, Setting::Paper)
    }

    /// What the explanations were written for, in a sentence's middle.
    fn written_for(&self) -> String {
        match self {
            Setting::Copied(what) => md(what),
            _ => "another setting (the configuration this claim was copied from)".into(),
        }
    }
}

/// User text as Markdown ([`encode::markdown`]).
fn md(s: &str) -> String {
    encode::markdown(s)
}

/// A name (series, workload label, x value) as it is: backticks too.
fn name(s: &str) -> String {
    encode::markdown_plain(s)
}

/// A table whose cells are Markdown already: user text in them went
/// through [`md`], so none holds a `|` or a line break.
fn table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    for r in rows {
        let _ = writeln!(out, "| {} |", r.join(" | "));
    }
}

/// The cause cell of a verdict: `–` for a PASS.
fn cause_cell(v: &Verdict, notes: Option<&str>, setting: &Setting) -> String {
    if v.passed() {
        return "–".into();
    }
    if !setting.is_paper() && v.cause.is_some() {
        return format!(
            "(a cause was written for {}; not shown, it may not apply here)",
            setting.written_for()
        );
    }
    match &v.cause {
        None => "(none given)".into(),
        Some(c @ Cause::Reading(id)) => match notes {
            Some(link) => format!(
                "{}: [{}]({}#sensitivity)",
                c.category(),
                md(id),
                encode::markdown_url(link)
            ),
            None => format!("{}: {}", c.category(), md(id)),
        },
        Some(c) => format!("{}: {}", c.category(), md(c.detail())),
    }
}

/// `3 PASS, 1 INCONCLUSIVE, 2 FAIL`.
pub fn tally(verdicts: &[Verdict]) -> String {
    let count = |o: Outcome| verdicts.iter().filter(|v| v.outcome == o).count();
    format!(
        "{} PASS, {} INCONCLUSIVE, {} FAIL",
        count(Outcome::Pass),
        count(Outcome::Inconclusive),
        count(Outcome::Fail)
    )
}

fn claims_table(out: &mut String, verdicts: &[Verdict], notes: Option<&str>, setting: &Setting) {
    let header = ["#", "claim", "paper value", "our value", "verdict", "cause"].map(String::from);
    let rows: Vec<Vec<String>> = verdicts
        .iter()
        .enumerate()
        .map(|(i, v)| {
            vec![
                (i + 1).to_string(),
                md(&v.text),
                v.paper_value.as_deref().map_or_else(|| "–".into(), md),
                encode::markdown_plain(&v.ours),
                format!("**{}**", v.label()),
                cause_cell(v, notes, setting),
            ]
        })
        .collect();
    table(out, &header, &rows);
    let _ = writeln!(
        out,
        "
{} of {} claims.",
        tally(verdicts),
        verdicts.len()
    );
    fail_explanations(out, verdicts, setting);
}

/// The explanations the configuration gives for the claims that do not
/// PASS (nothing when there are none).
fn fail_explanations(out: &mut String, verdicts: &[Verdict], setting: &Setting) {
    let failed: Vec<(usize, &Verdict, &String)> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.explanation
                .as_ref()
                .filter(|_| !v.passed())
                .map(|e| (i, v, e))
        })
        .collect();
    if failed.is_empty() {
        return;
    }
    if !setting.is_paper() {
        let numbers: Vec<String> = failed.iter().map(|(i, _, _)| (i + 1).to_string()).collect();
        let _ = writeln!(
            out,
            "\nClaim(s) {}: an explanation was written for {}; it may not apply here, so it is \
             not shown.",
            numbers.join(", "),
            setting.written_for()
        );
        return;
    }
    let _ = writeln!(out, "\nWhy claims do not PASS (after a search for bugs):\n");
    for (i, v, e) in failed {
        let _ = writeln!(
            out,
            "- Claim {} (\"{}\", {}): {}",
            i + 1,
            md(&v.text),
            v.label(),
            md(e)
        );
    }
}

/// What the brackets of a results' claim values are.
fn brackets(samples: &Samples) -> String {
    let level = (100.0 * samples.level).round();
    let (reps, per_run) = samples.shape();
    let units = samples.max_units();
    if units < 2 {
        return "Each point is a single run: claims are judged on the values, without \
                intervals (PASS or FAIL)."
            .to_string();
    }
    let shape = if per_run > 1 {
        format!(" ({reps} repetition(s) × up to {per_run} samples per run)")
    } else {
        String::new()
    };
    format!(
        "Brackets in claim values are {level}% confidence intervals over up to {units} runs \
         per point{shape}, of the paired differences (same repetition and sample) where a \
         claim compares points. A claim PASSes when every interval lies on its side, FAILs when \
         one lies on the other side, and is INCONCLUSIVE otherwise."
    )
}

fn stand_in_warning(out: &mut String, facts: &[WorkloadFacts]) {
    for f in facts.iter().filter(|f| f.stand_in) {
        let _ = writeln!(
            out,
            "> **WARNING: stand-in workload.** {}. Every number for '{}' below comes from a synthetic workload, NOT from the trace it stands in for (and NOT comparable to a paper).\n",
            md(f.note
                .as_deref()
                .unwrap_or("a trace was replaced by a synthetic workload")),
            name(&f.shown_label())
        );
    }
}

impl Results {
    /// `data.csv`.
    pub fn csv(&self) -> String {
        write_csv(&self.rows)
    }

    /// `figure.svg`.
    pub fn svg(&self) -> String {
        self.figure.render(&self.rows)
    }

    /// Whether any workload is a generated stand-in for a missing trace.
    pub fn stand_in(&self) -> bool {
        self.workloads.iter().any(|w| w.stand_in)
    }

    /// The results table of one panel: x down, series across, `mean [lo, hi]`.
    fn panel_table(&self, out: &mut String, mine: &[&Row]) {
        // Each (x, series) point: the first row that has it.
        let xs = xs_in_order(mine);
        let mut points = std::collections::HashMap::with_capacity(mine.len());
        for r in mine {
            points
                .entry((r.x.as_str(), r.series.as_str()))
                .or_insert(*r);
        }
        let mut header = vec![md(&self.figure.x_label)];
        header.extend(self.figure.series.iter().map(|s| name(s)));
        let rows: Vec<Vec<String>> = xs
            .iter()
            .map(|x| {
                let mut line = vec![name(x)];
                for s in &self.figure.series {
                    let v = points.get(&(*x, s.as_str())).copied();
                    line.push(match v {
                        Some(Row {
                            y,
                            ci: Some((lo, hi)),
                            ..
                        }) => format!("{} [{}, {}]", fmt_short(*y), fmt_short(*lo), fmt_short(*hi)),
                        Some(r) => fmt_short(r.y),
                        None => "–".into(),
                    });
                }
                line
            })
            .collect();
        table(out, &header, &rows);
    }

    /// What `[sweep] with` sets at each x, as a table: a run at x differs
    /// from its neighbours in these keys too, which neither the figure nor
    /// data.csv shows.
    fn moved_with_the_axis(&self, out: &mut String, experiment: &Experiment) {
        let Some(with) = &experiment.spec.sweep.with else {
            return;
        };
        let _ = writeln!(out, "Set with the x axis (`[sweep] with`):\n");
        let mut header = vec![md(&self.figure.x_label)];
        header.extend(with.get_ref().keys().map(|k| encode::markdown_code(k)));
        let rows: Vec<Vec<String>> = experiment
            .x_values()
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let at = |v: &toml::Value| {
                    v.as_array()
                        .and_then(|a| a.get(i))
                        .map_or_else(|| "–".to_string(), |v| md(&crate::config::x_label(v)))
                };
                std::iter::once(name(x))
                    .chain(with.get_ref().values().map(at))
                    .collect()
            })
            .collect();
        table(out, &header, &rows);
        out.push('\n');
    }

    /// `summary.md` of a user's own study ([`Setting::Own`]); see
    /// [`Results::summary_in`].
    pub fn summary(&self, experiment: &Experiment) -> String {
        self.summary_in(experiment, &Setting::Own)
    }

    /// `summary.md`: workload facts, one table per panel, claim verdicts;
    /// words written for a paper only in its `setting`.
    pub fn summary_in(&self, experiment: &Experiment, setting: &Setting) -> String {
        let spec = &experiment.spec;
        let mut out = String::new();
        let _ = writeln!(out, "# {}: {}\n", md(spec.id.get_ref()), md(&spec.title));
        match (&spec.paper, setting.is_paper()) {
            (Some(paper), true) => {
                let _ = writeln!(out, "Reproduces: {}\n", md(paper));
            }
            (paper, _) => {
                let _ = writeln!(out, "Study: {}\n", md(&spec.title));
                if let Some(paper) = paper {
                    let _ = writeln!(
                        out,
                        "The configuration cites: {} (this is not the committed reproduction of it).\n",
                        md(paper)
                    );
                }
            }
        }
        let reps = spec.repetitions;
        let units = self.samples.max_units();
        let ci = if units > 1 {
            let level = (100.0 * self.samples.level).round();
            format!(
                "; brackets give {level}% confidence intervals of the mean over up to {units} runs"
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "Kind {}, seed {}, {reps} repetition(s) per point{ci}.\n",
            encode::markdown_code_outside_table(&spec.kind),
            spec.seed
        );
        stand_in_warning(&mut out, &self.workloads);
        self.moved_with_the_axis(&mut out, experiment);
        let _ = writeln!(out, "## Workloads\n");
        let header = [
            "workload",
            "source",
            "sha256",
            "procs",
            "records",
            "unreplayable (dropped)",
            "no estimate",
            "too wide (dropped)",
            "transformed away",
            "jobs simulated",
        ]
        .map(String::from);
        let rows: Vec<Vec<String>> = self
            .workloads
            .iter()
            .map(|f| {
                vec![
                    name(&f.shown_label()),
                    md(&f.source),
                    f.sha256.as_deref().map_or_else(
                        || {
                            f.seed
                                .map_or("–".into(), |s| format!("generated, seed {s}"))
                        },
                        encode::markdown_code,
                    ),
                ]
                .into_iter()
                .chain(
                    [
                        f.capacity as usize,
                        f.records,
                        f.unreplayable,
                        f.no_estimate,
                        f.too_wide,
                        f.transformed_away,
                        f.jobs,
                    ]
                    .map(|n| {
                        if f.generated_by_kind {
                            "–".to_string()
                        } else {
                            n.to_string()
                        }
                    }),
                )
                .collect()
            })
            .collect();
        table(&mut out, &header, &rows);
        for f in &self.workloads {
            if f.skipped > 0 {
                let _ = writeln!(
                    out,
                    "\n{}: {} malformed lines skipped (lenient mode): {}.",
                    name(&f.shown_label()),
                    f.skipped,
                    line_list(&f.skipped_lines, f.skipped)
                );
            }
            if let (Some(note), false) = (&f.note, f.stand_in) {
                let _ = writeln!(out, "\n{}: {}.", name(&f.shown_label()), md(note));
            }
        }
        for n in &self.notes {
            let n = match n.find(PAPER_ONLY) {
                Some(at) if !setting.is_paper() => &n[..at],
                _ => n.as_str(),
            };
            let _ = writeln!(out, "\n{}", md(n));
        }
        let _ = writeln!(out, "\n## Results\n");
        let by_panel = PanelRows::new(&self.rows);
        for p in &self.figure.panels {
            let _ = writeln!(
                out,
                "### {} (panel {}, {})\n",
                md(&p.title),
                encode::markdown_code_outside_table(&p.id),
                md(&p.y_label)
            );
            self.panel_table(&mut out, by_panel.of(&p.id));
            out.push('\n');
        }
        // A point without a mean says why, once.
        let undefined = self.rows.iter().filter(|r| r.y.is_nan()).count();
        if undefined > 0 {
            let _ = writeln!(
                out,
                "{undefined} point(s) show `nan`: a sample behind each has no value for its \
                 metric (a metric the run leaves undefined, or a gain or reduction over a \
                 reference whose value is 0), so the point has no mean; samples.csv lists the \
                 samples that have one.\n"
            );
        }
        // So does an interval of no width over several runs.
        let flat = self
            .rows
            .iter()
            .filter(|r| r.runs > 1 && r.ci.is_some_and(|(lo, hi)| lo == hi))
            .count();
        if flat > 0 {
            let _ = writeln!(
                out,
                "{flat} point(s) show an interval of no width (`[a, a]`): every run behind \
                 each gave the same value (a series the repetitions do not change, or a metric \
                 that is the same in every run), so the interval tells nothing of a spread.\n"
            );
        }
        if !self.claims_checked {
            out.truncate(out.trim_end().len());
            out.push('\n');
            return out;
        }
        let _ = writeln!(out, "## Claims\n");
        for note in experiment.skipped_claims() {
            let _ = writeln!(out, "{}\n", md(note));
        }
        if self.verdicts.is_empty() {
            let _ = writeln!(out, "No claims.");
        } else {
            let _ = writeln!(out, "{}\n", brackets(&self.samples));
            claims_table(&mut out, &self.verdicts, None, setting);
        }
        out
    }

    /// `run.toml`: provenance, then the resolved configuration.
    pub fn run_toml(&self, experiment: &Experiment, provenance: &Provenance) -> String {
        #[derive(Serialize)]
        struct Prov<'a> {
            git_revision: &'a str,
            config_file: &'a str,
            config_sha256: String,
            seed: u64,
            /// Strings: derived seeds use all 64 bits, TOML integers only 63.
            repetition_seeds: Vec<String>,
            stand_in: bool,
            workloads: &'a [WorkloadFacts],
        }
        #[derive(Serialize)]
        struct Doc<'a> {
            provenance: Prov<'a>,
            config: crate::config::Spec<toml::Table>,
        }
        let doc = Doc {
            provenance: Prov {
                git_revision: &provenance.git_revision,
                config_file: &provenance.config_file,
                config_sha256: experiment.config_sha256(),
                seed: experiment.spec.seed,
                repetition_seeds: self.seeds.iter().map(u64::to_string).collect(),
                stand_in: self.stand_in(),
                workloads: &self.workloads,
            },
            config: experiment.resolved_spec(),
        };
        let body = toml::to_string(&doc).unwrap_or_else(|e| format!("# cannot serialise: {e}\n"));
        // Paths and the configuration's text may hold bidirectional or
        // control characters: written as TOML escapes.
        let body = crate::encode::toml_document(&body);
        let warning = if self.stand_in() {
            "# WARNING: a stand-in workload replaced a missing trace; NOT comparable to the trace or a paper.\n"
        } else {
            ""
        };
        format!(
            "# Provenance and resolved configuration of {}.\n{warning}{body}",
            experiment.spec.id.get_ref()
        )
    }

    /// Every output file of a run of a user's own study: `(name, contents)`;
    /// see [`Results::files_in`].
    pub fn files(
        &self,
        experiment: &Experiment,
        provenance: &Provenance,
    ) -> Vec<(&'static str, String)> {
        self.files_in(experiment, provenance, &Setting::Own)
    }

    /// Every output file of a run in `setting`: `(name, contents)`.
    pub fn files_in(
        &self,
        experiment: &Experiment,
        provenance: &Provenance,
        setting: &Setting,
    ) -> Vec<(&'static str, String)> {
        vec![
            ("data.csv", self.csv()),
            ("samples.csv", self.samples.csv()),
            ("figure.svg", self.svg()),
            ("summary.md", self.summary_in(experiment, setting)),
            ("run.toml", self.run_toml(experiment, provenance)),
        ]
    }
}

/// One experiment's section of `docs/REPRODUCTION.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct DocEntry {
    /// Experiment id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Paper citation, if the configuration gives one.
    pub paper: Option<String>,
    /// Link to the figure, relative to the document.
    pub figure: String,
    /// Claim verdicts.
    pub verdicts: Vec<Verdict>,
    /// Whether the results came from a stand-in workload.
    pub stand_in: bool,
    /// Link to the paper's notes (modelling choices, why claims FAIL),
    /// relative to the document, if there are any.
    pub notes: Option<String>,
}

/// Renders `docs/REPRODUCTION.md` from the experiments that have results.
pub fn reproduction_doc(entries: &[DocEntry], missing: &[String]) -> String {
    let mut out = String::from("# Reproduction status\n\n");
    out.push_str(
        "Generated by `cargo xtask verify` from the results present; do not edit by hand. ",
    );
    out.push_str("Each claim is a machine-checked predicate over the experiment's `data.csv`.\n\n");
    let all: Vec<Verdict> = entries.iter().flat_map(|e| e.verdicts.clone()).collect();
    let _ = writeln!(
        out,
        "Verdicts respect uncertainty: a claim PASSes when the confidence interval of what it \
         compares lies on its side, FAILs when it lies on the other side, and is INCONCLUSIVE when \
         it straddles (each experiment's summary.md says what its intervals are). Every claim that \
         does not PASS names a cause: *paper inconsistent* (quoted), *data unavailable*, or a \
         *reading* of vague text, with the sensitivity run that tries the other reading.\n"
    );
    let _ = writeln!(out, "All claims: {} of {}.\n", tally(&all), all.len());
    let header = ["experiment", "PASS", "INCONCLUSIVE", "FAIL", "workloads"].map(String::from);
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|e| {
            let count = |o: Outcome| e.verdicts.iter().filter(|v| v.outcome == o).count();
            let kind = if e.stand_in {
                "STAND-IN (not comparable)"
            } else {
                "as specified (no stand-in)"
            };
            vec![
                format!("[{}](#{})", md(&e.id), anchor(&e.id, &e.title)),
                count(Outcome::Pass).to_string(),
                count(Outcome::Inconclusive).to_string(),
                count(Outcome::Fail).to_string(),
                kind.into(),
            ]
        })
        .collect();
    table(&mut out, &header, &rows);
    if !missing.is_empty() {
        let missing: Vec<String> = missing.iter().map(|m| md(m)).collect();
        let _ = writeln!(out, "\nNot yet run: {}.", missing.join(", "));
    }
    for e in entries {
        let _ = writeln!(out, "\n## {}: {}\n", md(&e.id), md(&e.title));
        let _ = writeln!(
            out,
            "Paper: {}. Figure: [{}]({}).\n",
            md(e.paper.as_deref().unwrap_or("–")),
            md(e.figure.rsplit('/').next().unwrap_or("figure.svg")),
            encode::markdown_url(&e.figure)
        );
        if e.stand_in {
            let _ = writeln!(
                out,
                "> **WARNING:** these results come from a stand-in workload and are NOT comparable to the paper.\n"
            );
        }
        if let Some(notes) = &e.notes {
            let _ = writeln!(
                out,
                "Modelling choices, and why any claim FAILs: [{}]({}).\n",
                md(notes.rsplit('/').next().unwrap_or(notes)),
                encode::markdown_url(notes)
            );
        }
        let header = ["claim", "paper value", "our value", "verdict", "cause"].map(String::from);
        let rows: Vec<Vec<String>> = e
            .verdicts
            .iter()
            .map(|v| {
                vec![
                    md(&v.text),
                    v.paper_value.as_deref().map_or_else(|| "–".into(), md),
                    encode::markdown_plain(&v.ours),
                    format!("**{}**", v.label()),
                    cause_cell(v, e.notes.as_deref(), &Setting::Paper),
                ]
            })
            .collect();
        table(&mut out, &header, &rows);
        fail_explanations(&mut out, &e.verdicts, &Setting::Paper);
    }
    out
}

/// GitHub's heading anchor for `## id: title`.
fn anchor(id: &str, title: &str) -> String {
    format!("{id}: {title}")
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

/// "lines 3, 7, 9", or the first 20 and a count of the rest.
/// The first skipped `lines` (of `total`), with how many more there are.
fn line_list(lines: &[u64], total: u64) -> String {
    const SHOWN: usize = 20;
    let shown: Vec<String> = lines.iter().take(SHOWN).map(u64::to_string).collect();
    let more = total.saturating_sub(shown.len() as u64);
    let word = if total == 1 { "line" } else { "lines" };
    if more > 0 {
        format!("{word} {} and {more} more", shown.join(", "))
    } else {
        format!("{word} {}", shown.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers() {
        for (v, s) in [
            (12345.67, "12346"),
            (42.0, "42"),
            (3.14559, "3.15"),
            (12.34, "12.3"),
            (0.01234, "0.012"),
            (-0.0001, "0.000"),
        ] {
            assert_eq!(fmt_short(v), s);
        }
    }

    #[test]
    fn anchors() {
        assert_eq!(
            anchor("baseline/backfilling", "FCFS, EASY"),
            "baselinebackfilling-fcfs-easy"
        );
    }
}
