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
//! is PASS or FAIL by the values, and says "single run". A difference that
//! is exactly 0 in every run is reported as equal: `above`/`below` FAIL
//! ("equal"), a range holding the value PASSes.
//!
//! A claim that does not PASS names its `cause` in the configuration:
//! `cause.paper` (the paper is inconsistent: quote it), `cause.data` (what
//! is unavailable) or `cause.reading` (the sensitivity run of the reading
//! at stake), with prose in `explanation`.

use std::fmt::Write as _;

use crate::claim::*;
use crate::csv::{PanelRows, Row, xs_in_order};
use crate::numfmt::fmt_num;
use crate::samples::{Estimate, Samples, Unit, combine};

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

/// Whether a difference is exactly zero in every unit (mean 0, interval
/// `[0, 0]` or none): the two sides are equal.
fn exactly_zero(e: &Estimate) -> bool {
    e.mean == 0.0 && e.ci.is_none_or(|(lo, hi)| lo == 0.0 && hi == 0.0)
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
    rows: &'a [&'a Row],
    samples: &'a Samples,
}

impl<'a> Panel<'a> {
    fn new(rows: &'a PanelRows<'a>, samples: &'a Samples, name: &'a str) -> Self {
        Panel {
            name,
            rows: rows.of(name),
            samples,
        }
    }

    /// The units of a point: from the samples, or the row's mean as a
    /// single unit when the samples do not have it, or when the point has
    /// no mean (a unit without a value: samples.csv holds only the others,
    /// and no verdict may rest on them alone, so the claim FAILs).
    fn units(&self, series: &str, x: &str) -> Result<Vec<Unit>, String> {
        let y = self.y(series, x)?;
        let units = self.samples.get(self.name, series, x);
        Ok(if units.is_empty() || y.is_nan() {
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
        let coefficients: Vec<(f64, &[Unit])> = terms
            .iter()
            .zip(&units)
            .map(|((c, _, _), u)| (*c, u.as_slice()))
            .collect();
        let e = combine(&coefficients, self.samples.level);
        // Finite values whose combination is not (too large to add up):
        // no verdict rests on it, and the claim says so.
        let finite = units.iter().flatten().all(|u| u.value.is_finite());
        let bounded = e.ci.is_none_or(|(lo, hi)| lo.is_finite() && hi.is_finite());
        if finite && !(e.mean.is_finite() && bounded) {
            let points: Vec<String> = terms
                .iter()
                .map(|(_, s, x)| format!("{s} at {x}"))
                .collect();
            return Err(format!(
                "the comparison of {} in panel '{}' is not a finite number ({}): the values \
                 are too large to combine",
                points.join(", "),
                self.name,
                with_ci(&e)
            ));
        }
        Ok(e)
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
        let mut xs = xs_in_order(self.rows);
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
    crate::numfmt::fmt_short(v)
}

impl Claim {
    /// Evaluates the claim on `rows` and their `samples` (see the module
    /// documentation). Missing data is a FAIL that says what is missing.
    pub fn check(&self, rows: &[Row], samples: &Samples) -> Verdict {
        self.check_in(&PanelRows::new(rows), samples)
    }

    /// [`Claim::check`] on rows already grouped by panel.
    fn check_in(&self, rows: &PanelRows<'_>, samples: &Samples) -> Verdict {
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

    fn evaluate(
        &self,
        rows: &PanelRows<'_>,
        samples: &Samples,
    ) -> Result<(Outcome, String), String> {
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
                    // Every unit identical: equal, not "about the same".
                    if exactly_zero(&diff) {
                        return Ok((
                            judge(&signed, true),
                            format!(
                                "{} {} vs {} {} (equal: difference exactly 0 in every run)",
                                c.series,
                                short(a),
                                c.than,
                                short(b)
                            ),
                        ));
                    }
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
    let rows = PanelRows::new(rows);
    claims.iter().map(|c| c.check_in(&rows, samples)).collect()
}
