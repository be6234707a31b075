//! Claims: a paper's statement plus a machine-checkable predicate over the
//! rows of `data.csv`.
//!
//! ```toml
//! [[claims]]
//! text = "EASY backfilling gives lower bounded slowdown than FCFS"
//! paper_value = "lower on every trace"
//! check.below = { panel = "bsld", series = "easy", than = "fcfs" }
//! ```
//!
//! Predicates (`at` names one x value; without it the predicate must hold at
//! every x of the panel):
//! * `above`/`below = { panel, series, than, at?, margin? }`: `series` is
//!   above (below) `than` by more than `margin` (default 0).
//! * `within = { panel, series, at?, lo, hi }`: the value lies in `[lo, hi]`.
//! * `ratio = { panel, series, than, at?, lo, hi }`: `series / than` lies in `[lo, hi]`.
//! * `monotone = { panel, series, direction = "increasing" | "decreasing", strict? }`
//!   along x (numeric x sorted by value, categories in plotting order).
//! * `ordering = { panel, at?, highest_first = [series, ...] }`: strictly decreasing.
//! * `rise = { panel, series, from, to, lo, hi }`: the change of `series`
//!   from x = `from` to x = `to`, `y(to) − y(from)`, lies in `[lo, hi]`.
//! * `rises_more = { panel, series, than, from, to, margin? }`: the change
//!   of `series` from `from` to `to` exceeds that of `than` by more than
//!   `margin`.
//!
//! Verdicts respect uncertainty. Each predicate is a set of inequalities
//! on linear combinations of points (a difference of two series, a value
//! minus a bound, a change along x); each combination is estimated from the
//! points' units ([`Samples`]), paired by repetition and sample where the
//! points share them, with a confidence interval at the experiment's level.
//! An inequality PASSes when its interval lies on the claimed side, FAILs
//! when it lies on the other side, and is INCONCLUSIVE when it straddles
//! the bound; a claim is the worst of its inequalities (FAIL, then
//! INCONCLUSIVE). A point with a single unit has no interval: its verdict
//! is PASS or FAIL by the values, and says "single run".
//!
//! A claim that does not PASS names its `cause` in the configuration:
//! `cause.paper` (the paper is inconsistent: quote it), `cause.data` (what
//! is unavailable) or `cause.reading` (the sensitivity run of the reading
//! at stake), with prose in `explanation`.

use std::fmt::Write as _;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::csv::{Row, fmt_num};
use crate::samples::{Estimate, Samples, Unit, combine};

/// A statement from a paper and the predicate that checks it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The paper's words.
    pub text: String,
    /// The paper's number, where it gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper_value: Option<String>,
    /// Why our result differs, found after a search for bugs; shown under
    /// the claims when the verdict is FAIL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// Why the claim does not PASS, by category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    check: Spanned<Check>,
}

/// Why a claim does not PASS: a category with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Cause {
    /// The paper contradicts itself or its other figures: the quote.
    Paper(String),
    /// Data nobody can get: what is missing.
    Data(String),
    /// A reading of a vague text: the id of the sensitivity run that tries
    /// the other reading (e.g. `adaptive/sensitivity/sp-20pct`).
    Reading(String),
}

impl Cause {
    /// `paper inconsistent`, `data unavailable` or `reading`.
    pub fn category(&self) -> &'static str {
        match self {
            Cause::Paper(_) => "paper inconsistent",
            Cause::Data(_) => "data unavailable",
            Cause::Reading(_) => "reading",
        }
    }

    /// The quote, the missing data, or the sensitivity run's id.
    pub fn detail(&self) -> &str {
        match self {
            Cause::Paper(s) | Cause::Data(s) | Cause::Reading(s) => s,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Check {
    Above(Compare),
    Below(Compare),
    Within(Within),
    Ratio(Ratio),
    Monotone(Monotone),
    Ordering(Ordering),
    Rise(Rise),
    RisesMore(RisesMore),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Compare {
    panel: String,
    series: String,
    than: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<XKey>,
    #[serde(default)]
    margin: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Within {
    panel: String,
    series: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<XKey>,
    lo: f64,
    hi: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ratio {
    panel: String,
    series: String,
    than: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<XKey>,
    lo: f64,
    hi: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Monotone {
    panel: String,
    series: String,
    direction: Direction,
    #[serde(default)]
    strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Direction {
    Increasing,
    Decreasing,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ordering {
    panel: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<XKey>,
    highest_first: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Rise {
    panel: String,
    series: String,
    from: XKey,
    to: XKey,
    lo: f64,
    hi: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RisesMore {
    panel: String,
    series: String,
    than: String,
    from: XKey,
    to: XKey,
    #[serde(default)]
    margin: f64,
}

/// An x value in a claim: a category name or a number.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum XKey {
    Text(String),
    Number(f64),
}

impl XKey {
    fn key(&self) -> String {
        match self {
            XKey::Text(s) => s.clone(),
            XKey::Number(v) => fmt_num(*v),
        }
    }
}

/// PASS, FAIL or INCONCLUSIVE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Every interval lies on the claimed side.
    Pass,
    /// An interval straddles its bound (none lies on the wrong side).
    Inconclusive,
    /// An interval lies on the wrong side.
    Fail,
}

impl Outcome {
    /// `PASS`, `INCONCLUSIVE` or `FAIL`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Inconclusive => "INCONCLUSIVE",
            Outcome::Fail => "FAIL",
        }
    }
}

/// The outcome of checking one claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The paper's words.
    pub text: String,
    /// The paper's number, if given.
    pub paper_value: Option<String>,
    /// Our numbers, in words, each inequality's estimate with its interval
    /// in brackets.
    pub ours: String,
    /// The verdict.
    pub outcome: Outcome,
    /// The claim's explanation of a verdict other than PASS, if it gives one.
    pub explanation: Option<String>,
    /// The claim's cause of a verdict other than PASS, if it gives one.
    pub cause: Option<Cause>,
}

impl Verdict {
    /// `PASS`, `INCONCLUSIVE` or `FAIL`.
    pub fn label(&self) -> &'static str {
        self.outcome.label()
    }

    /// Whether the claim PASSes (INCONCLUSIVE does not).
    pub fn passed(&self) -> bool {
        self.outcome == Outcome::Pass
    }
}

/// One inequality: `estimate > 0` (strict) or `≥ 0`.
fn judge(e: &Estimate, strict: bool) -> Outcome {
    let (lo, hi) = e.ci.unwrap_or((e.mean, e.mean));
    let right = if strict { lo > 0.0 } else { lo >= 0.0 };
    let wrong = if strict { hi <= 0.0 } else { hi < 0.0 };
    if e.mean.is_nan() || wrong {
        Outcome::Fail
    } else if right {
        Outcome::Pass
    } else {
        Outcome::Inconclusive
    }
}

/// `v [lo, hi]`, or `v` without an interval.
fn with_ci(e: &Estimate) -> String {
    match e.ci {
        Some((lo, hi)) => format!("{} [{}, {}]", short(e.mean), short(lo), short(hi)),
        None => short(e.mean),
    }
}

/// Rows of one panel, looked up by series and x, with their units.
struct Panel<'a> {
    name: &'a str,
    rows: Vec<&'a Row>,
    samples: &'a Samples,
}

impl<'a> Panel<'a> {
    fn new(rows: &'a [Row], samples: &'a Samples, name: &'a str) -> Self {
        Panel {
            name,
            rows: rows.iter().filter(|r| r.panel == name).collect(),
            samples,
        }
    }

    /// The units of a point: from the samples, or the row's mean as a
    /// single unit when the samples do not have it.
    fn units(&self, series: &str, x: &str) -> Result<Vec<Unit>, String> {
        let y = self.y(series, x)?;
        let units = self.samples.get(self.name, series, x);
        Ok(if units.is_empty() {
            vec![Unit {
                repetition: 0,
                sample: 0,
                value: y,
            }]
        } else {
            units.to_vec()
        })
    }

    /// `Σ c · point` over `(c, series, x)` terms.
    fn combine(&self, terms: &[(f64, &str, &str)]) -> Result<Estimate, String> {
        let units = terms
            .iter()
            .map(|(_, s, x)| self.units(s, x))
            .collect::<Result<Vec<_>, String>>()?;
        let terms: Vec<(f64, &[Unit])> = terms
            .iter()
            .zip(&units)
            .map(|((c, _, _), u)| (*c, u.as_slice()))
            .collect();
        Ok(combine(&terms, self.samples.level))
    }

    fn y(&self, series: &str, x: &str) -> Result<f64, String> {
        self.rows
            .iter()
            .find(|r| r.series == series && r.x == x)
            .map(|r| r.y)
            .ok_or_else(|| {
                format!(
                    "no value for series '{series}' at x = {x} in panel '{}'",
                    self.name
                )
            })
    }

    /// The x values of the panel in plotting order (numeric ones sorted).
    fn xs(&self) -> Vec<&'a str> {
        let mut xs: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !xs.contains(&r.x.as_str()) {
                xs.push(&r.x);
            }
        }
        let nums: Option<Vec<f64>> = xs.iter().map(|x| x.parse::<f64>().ok()).collect();
        if let Some(nums) = nums {
            let mut pairs: Vec<(f64, &str)> = nums.into_iter().zip(xs).collect();
            pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
            xs = pairs.into_iter().map(|p| p.1).collect();
        }
        xs
    }

    /// Checks `test` at `at`, or at every x; joins the descriptions.
    fn each_x(
        &self,
        at: &Option<XKey>,
        test: impl Fn(&str) -> Result<(Outcome, String), String>,
    ) -> Result<(Outcome, String), String> {
        let xs = match at {
            Some(k) => vec![k.key()],
            None => self.xs().into_iter().map(str::to_string).collect(),
        };
        if xs.is_empty() {
            return Err(format!("panel '{}' has no rows", self.name));
        }
        let mut outcome = Outcome::Pass;
        let mut parts = Vec::new();
        for x in &xs {
            let (o, text) = test(x)?;
            outcome = outcome.max(o);
            parts.push(format!("{text} at {x}"));
        }
        Ok((outcome, parts.join("; ")))
    }
}

fn short(v: f64) -> String {
    crate::report::fmt_short(v)
}

impl Claim {
    /// Evaluates the claim on `rows` and their `samples` (see the module
    /// documentation). Missing data is a FAIL that says what is missing.
    pub fn check(&self, rows: &[Row], samples: &Samples) -> Verdict {
        let (outcome, ours) = match self.evaluate(rows, samples) {
            Ok(r) => r,
            Err(missing) => (Outcome::Fail, missing),
        };
        Verdict {
            text: self.text.clone(),
            paper_value: self.paper_value.clone(),
            ours,
            outcome,
            explanation: self.explanation.clone(),
            cause: self.cause.clone(),
        }
    }

    fn evaluate(&self, rows: &[Row], samples: &Samples) -> Result<(Outcome, String), String> {
        match self.check.get_ref() {
            Check::Above(c) | Check::Below(c) => {
                let above = matches!(self.check.get_ref(), Check::Above(_));
                let p = Panel::new(rows, samples, &c.panel);
                p.each_x(&c.at, |x| {
                    let (a, b) = (p.y(&c.series, x)?, p.y(&c.than, x)?);
                    let diff = p.combine(&[(1.0, &c.series, x), (-1.0, &c.than, x)])?;
                    let signed = if above {
                        diff.shift(c.margin)
                    } else {
                        Estimate {
                            mean: -diff.mean,
                            ci: diff.ci.map(|(lo, hi)| (-hi, -lo)),
                            ..diff
                        }
                        .shift(c.margin)
                    };
                    Ok((
                        judge(&signed, true),
                        format!(
                            "{} {} vs {} {} (difference {})",
                            c.series,
                            short(a),
                            c.than,
                            short(b),
                            with_ci(&diff)
                        ),
                    ))
                })
            }
            Check::Within(w) => {
                let p = Panel::new(rows, samples, &w.panel);
                p.each_x(&w.at, |x| {
                    let v = p.combine(&[(1.0, &w.series, x)])?;
                    let above_lo = v.shift(w.lo);
                    let below_hi = Estimate {
                        mean: w.hi - v.mean,
                        ci: v.ci.map(|(lo, hi)| (w.hi - hi, w.hi - lo)),
                        ..v
                    };
                    let o = judge(&above_lo, false).max(judge(&below_hi, false));
                    Ok((o, format!("{} {}", w.series, with_ci(&v))))
                })
            }
            Check::Ratio(r) => {
                let p = Panel::new(rows, samples, &r.panel);
                p.each_x(&r.at, |x| {
                    let (a, b) = (p.y(&r.series, x)?, p.y(&r.than, x)?);
                    let ratio = a / b;
                    // lo ≤ a/b ≤ hi, for b > 0: a − lo·b ≥ 0 and hi·b − a ≥ 0.
                    let o = if b > 0.0 {
                        let low = p.combine(&[(1.0, &r.series, x), (-r.lo, &r.than, x)])?;
                        let high = p.combine(&[(r.hi, &r.than, x), (-1.0, &r.series, x)])?;
                        judge(&low, false).max(judge(&high, false))
                    } else {
                        Outcome::Fail
                    };
                    Ok((o, format!("{}/{} = {}", r.series, r.than, fmt_ratio(ratio))))
                })
            }
            Check::Monotone(m) => {
                let p = Panel::new(rows, samples, &m.panel);
                let xs = p.xs();
                let ys = xs
                    .iter()
                    .map(|x| p.y(&m.series, x))
                    .collect::<Result<Vec<f64>, String>>()?;
                if ys.len() < 2 {
                    return Err(format!(
                        "panel '{}' needs at least two x values for a trend",
                        m.panel
                    ));
                }
                let sign = match m.direction {
                    Direction::Increasing => 1.0,
                    Direction::Decreasing => -1.0,
                };
                let mut outcome = Outcome::Pass;
                let mut steps = Vec::new();
                for w in xs.windows(2) {
                    let step = p.combine(&[(sign, &m.series, w[1]), (-sign, &m.series, w[0])])?;
                    outcome = outcome.max(judge(&step, m.strict));
                    steps.push(with_ci(&step));
                }
                let trend: Vec<String> = ys.iter().map(|v| short(*v)).collect();
                let word = match m.direction {
                    Direction::Increasing => "rises",
                    Direction::Decreasing => "falls",
                };
                Ok((
                    outcome,
                    format!(
                        "{}: {} ({word} {})",
                        m.series,
                        trend.join(" → "),
                        steps.join(", ")
                    ),
                ))
            }
            Check::Ordering(o) => {
                let p = Panel::new(rows, samples, &o.panel);
                p.each_x(&o.at, |x| {
                    let ys = o
                        .highest_first
                        .iter()
                        .map(|s| p.y(s, x))
                        .collect::<Result<Vec<f64>, String>>()?;
                    let mut outcome = Outcome::Pass;
                    let mut text = String::new();
                    for (i, (s, y)) in o.highest_first.iter().zip(&ys).enumerate() {
                        if i > 0 {
                            let prev = &o.highest_first[i - 1];
                            let gap = p.combine(&[(1.0, prev, x), (-1.0, s, x)])?;
                            let j = judge(&gap, true);
                            outcome = outcome.max(j);
                            let sep = match j {
                                Outcome::Pass => ">",
                                Outcome::Inconclusive => "≈",
                                Outcome::Fail => "≤",
                            };
                            let _ = write!(text, " {sep} [{}] ", with_ci(&gap));
                        }
                        let _ = write!(text, "{s} {}", short(*y));
                    }
                    Ok((outcome, text))
                })
            }
            Check::Rise(r) => {
                let p = Panel::new(rows, samples, &r.panel);
                let (from, to) = (r.from.key(), r.to.key());
                let (a, b) = (p.y(&r.series, &from)?, p.y(&r.series, &to)?);
                let change = p.combine(&[(1.0, &r.series, &to), (-1.0, &r.series, &from)])?;
                let above_lo = change.shift(r.lo);
                let below_hi = Estimate {
                    mean: r.hi - change.mean,
                    ci: change.ci.map(|(lo, hi)| (r.hi - hi, r.hi - lo)),
                    ..change
                };
                let sign = if change.mean >= 0.0 { "+" } else { "" };
                Ok((
                    judge(&above_lo, false).max(judge(&below_hi, false)),
                    format!(
                        "{} {} at {from} → {} at {to} ({sign}{})",
                        r.series,
                        short(a),
                        short(b),
                        with_ci(&change)
                    ),
                ))
            }
            Check::RisesMore(r) => {
                let p = Panel::new(rows, samples, &r.panel);
                let (from, to) = (r.from.key(), r.to.key());
                let rise = |s: &str| p.combine(&[(1.0, s, &to), (-1.0, s, &from)]);
                let (a, b) = (rise(&r.series)?, rise(&r.than)?);
                let gap = p.combine(&[
                    (1.0, &r.series, &to),
                    (-1.0, &r.series, &from),
                    (-1.0, &r.than, &to),
                    (1.0, &r.than, &from),
                ])?;
                Ok((
                    judge(&gap.shift(r.margin), true),
                    format!(
                        "rise from {from} to {to}: {} {} vs {} {} (difference {})",
                        r.series,
                        with_ci(&a),
                        r.than,
                        with_ci(&b),
                        with_ci(&gap)
                    ),
                ))
            }
        }
    }

    /// Where the predicate is in the configuration file.
    pub(crate) fn span(&self) -> Range<usize> {
        self.check.span()
    }

    /// Checks that the claim refers to existing panels, series and x values.
    pub(crate) fn validate(
        &self,
        panels: &[&str],
        series: &[String],
        xs: &[String],
    ) -> Result<(), String> {
        let panel = |p: &str| {
            if panels.contains(&p) {
                Ok(())
            } else {
                Err(format!(
                    "claim refers to unknown panel '{p}', expected one of: {}",
                    panels.join(", ")
                ))
            }
        };
        let one = |s: &str| {
            if series.iter().any(|t| t == s) {
                Ok(())
            } else {
                Err(format!(
                    "claim refers to unknown series '{s}', expected one of: {}",
                    series.join(", ")
                ))
            }
        };
        let at = |a: &Option<XKey>| match a {
            Some(k) if !xs.contains(&k.key()) => Err(format!(
                "claim refers to x = {}, expected one of: {}",
                k.key(),
                xs.join(", ")
            )),
            _ => Ok(()),
        };
        let range = |lo: f64, hi: f64| {
            if lo.is_finite() && hi.is_finite() && lo <= hi {
                Ok(())
            } else {
                Err(format!("claim range [{lo}, {hi}] is empty or not finite"))
            }
        };
        match self.check.get_ref() {
            Check::Above(c) | Check::Below(c) => {
                if !(c.margin.is_finite() && c.margin >= 0.0) {
                    return Err(format!("margin {} must be a non-negative number", c.margin));
                }
                panel(&c.panel)
                    .and(one(&c.series))
                    .and(one(&c.than))
                    .and(at(&c.at))
            }
            Check::Within(w) => panel(&w.panel)
                .and(one(&w.series))
                .and(at(&w.at))
                .and(range(w.lo, w.hi)),
            Check::Ratio(r) => panel(&r.panel)
                .and(one(&r.series))
                .and(one(&r.than))
                .and(at(&r.at))
                .and(range(r.lo, r.hi)),
            Check::Monotone(m) => panel(&m.panel).and(one(&m.series)),
            Check::Ordering(o) => {
                if o.highest_first.len() < 2 {
                    return Err("an ordering needs at least two series".into());
                }
                panel(&o.panel).and(at(&o.at))?;
                o.highest_first.iter().try_for_each(|s| one(s))
            }
            Check::Rise(r) => panel(&r.panel)
                .and(one(&r.series))
                .and(at(&Some(r.from.clone())))
                .and(at(&Some(r.to.clone())))
                .and(range(r.lo, r.hi)),
            Check::RisesMore(r) => {
                if !(r.margin.is_finite() && r.margin >= 0.0) {
                    return Err(format!("margin {} must be a non-negative number", r.margin));
                }
                panel(&r.panel)
                    .and(one(&r.series))
                    .and(one(&r.than))
                    .and(at(&Some(r.from.clone())))
                    .and(at(&Some(r.to.clone())))
            }
        }
    }
}

fn fmt_ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.3}")
    } else {
        fmt_num(r)
    }
}

/// Checks every claim of an experiment against rows and their samples.
pub fn check_claims(claims: &[Claim], rows: &[Row], samples: &Samples) -> Vec<Verdict> {
    claims.iter().map(|c| c.check(rows, samples)).collect()
}
