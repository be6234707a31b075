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

use std::fmt::Write as _;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::csv::{Row, fmt_num};

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
    check: Spanned<Check>,
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

/// The outcome of checking one claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The paper's words.
    pub text: String,
    /// The paper's number, if given.
    pub paper_value: Option<String>,
    /// Our numbers, in words.
    pub ours: String,
    /// Whether the predicate holds.
    pub pass: bool,
    /// The claim's explanation of a FAIL, if it gives one.
    pub explanation: Option<String>,
}

impl Verdict {
    /// `PASS` or `FAIL`.
    pub fn label(&self) -> &'static str {
        if self.pass { "PASS" } else { "FAIL" }
    }
}

/// Rows of one panel, looked up by series and x.
struct Panel<'a> {
    name: &'a str,
    rows: Vec<&'a Row>,
}

impl<'a> Panel<'a> {
    fn new(rows: &'a [Row], name: &'a str) -> Self {
        Panel {
            name,
            rows: rows.iter().filter(|r| r.panel == name).collect(),
        }
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
        test: impl Fn(&str) -> Result<(bool, String), String>,
    ) -> Result<(bool, String), String> {
        let xs = match at {
            Some(k) => vec![k.key()],
            None => self.xs().into_iter().map(str::to_string).collect(),
        };
        if xs.is_empty() {
            return Err(format!("panel '{}' has no rows", self.name));
        }
        let mut pass = true;
        let mut parts = Vec::new();
        for x in &xs {
            let (ok, text) = test(x)?;
            pass &= ok;
            parts.push(format!("{text} at {x}"));
        }
        Ok((pass, parts.join("; ")))
    }
}

fn short(v: f64) -> String {
    crate::report::fmt_short(v)
}

impl Claim {
    /// Evaluates the claim on `rows`. Missing data is a FAIL that says what is missing.
    pub fn check(&self, rows: &[Row]) -> Verdict {
        let (pass, ours) = match self.evaluate(rows) {
            Ok(r) => r,
            Err(missing) => (false, missing),
        };
        Verdict {
            text: self.text.clone(),
            paper_value: self.paper_value.clone(),
            ours,
            pass,
            explanation: self.explanation.clone(),
        }
    }

    fn evaluate(&self, rows: &[Row]) -> Result<(bool, String), String> {
        match self.check.get_ref() {
            Check::Above(c) | Check::Below(c) => {
                let above = matches!(self.check.get_ref(), Check::Above(_));
                let p = Panel::new(rows, &c.panel);
                p.each_x(&c.at, |x| {
                    let (a, b) = (p.y(&c.series, x)?, p.y(&c.than, x)?);
                    let ok = if above {
                        a > b + c.margin
                    } else {
                        a < b - c.margin
                    };
                    Ok((
                        ok,
                        format!("{} {} vs {} {}", c.series, short(a), c.than, short(b)),
                    ))
                })
            }
            Check::Within(w) => {
                let p = Panel::new(rows, &w.panel);
                p.each_x(&w.at, |x| {
                    let v = p.y(&w.series, x)?;
                    Ok((
                        (w.lo..=w.hi).contains(&v),
                        format!("{} {}", w.series, short(v)),
                    ))
                })
            }
            Check::Ratio(r) => {
                let p = Panel::new(rows, &r.panel);
                p.each_x(&r.at, |x| {
                    let (a, b) = (p.y(&r.series, x)?, p.y(&r.than, x)?);
                    let ratio = a / b;
                    let ok = b != 0.0 && (r.lo..=r.hi).contains(&ratio);
                    Ok((
                        ok,
                        format!("{}/{} = {}", r.series, r.than, fmt_ratio(ratio)),
                    ))
                })
            }
            Check::Monotone(m) => {
                let p = Panel::new(rows, &m.panel);
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
                let ok = ys.windows(2).all(|w| match (m.direction, m.strict) {
                    (Direction::Increasing, true) => w[1] > w[0],
                    (Direction::Increasing, false) => w[1] >= w[0],
                    (Direction::Decreasing, true) => w[1] < w[0],
                    (Direction::Decreasing, false) => w[1] <= w[0],
                });
                let trend: Vec<String> = ys.iter().map(|v| short(*v)).collect();
                Ok((ok, format!("{}: {}", m.series, trend.join(" → "))))
            }
            Check::Ordering(o) => {
                let p = Panel::new(rows, &o.panel);
                p.each_x(&o.at, |x| {
                    let ys = o
                        .highest_first
                        .iter()
                        .map(|s| p.y(s, x))
                        .collect::<Result<Vec<f64>, String>>()?;
                    let ok = ys.windows(2).all(|w| w[0] > w[1]);
                    let mut text = String::new();
                    for (i, (s, y)) in o.highest_first.iter().zip(&ys).enumerate() {
                        let sep = match i {
                            0 => "",
                            _ if ys[i - 1] > *y => " > ",
                            _ => " ≤ ",
                        };
                        let _ = write!(text, "{sep}{s} {}", short(*y));
                    }
                    Ok((ok, text))
                })
            }
            Check::Rise(r) => {
                let p = Panel::new(rows, &r.panel);
                let (from, to) = (r.from.key(), r.to.key());
                let (a, b) = (p.y(&r.series, &from)?, p.y(&r.series, &to)?);
                let change = b - a;
                let sign = if change >= 0.0 { "+" } else { "" };
                Ok((
                    (r.lo..=r.hi).contains(&change),
                    format!(
                        "{} {} at {from} → {} at {to} ({sign}{})",
                        r.series,
                        short(a),
                        short(b),
                        short(change)
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

/// Checks every claim of an experiment against rows.
pub fn check_claims(claims: &[Claim], rows: &[Row]) -> Vec<Verdict> {
    claims.iter().map(|c| c.check(rows)).collect()
}
