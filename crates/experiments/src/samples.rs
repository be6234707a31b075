//! The values behind each plotted point, and the intervals claims are
//! judged by.
//!
//! A point of `data.csv` is the mean of its *units*: one value per
//! (repetition, sample) pair, a sample being one of the independent units a
//! run measures itself (the intervals of a split trace, say; most kinds
//! have one per run). `samples.csv` keeps every unit, so a claim that
//! compares two series is judged on their paired differences (same
//! repetition, same sample: the same random draws and the same slice of the
//! workload), and `cargo xtask verify` can judge it again from the files.
//!
//! `samples.csv` has the header `panel,series,x,repetition,sample,value`
//! (repetition and sample from 1) and values in Rust's shortest round-trip
//! form, so a verdict computed from the file equals the run's.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::csv::CsvError;
use crate::encode;
use crate::stats::{mean_ci_at, t_quantile};

/// The exact header line of `samples.csv`.
pub const SAMPLES_HEADER: &str = "panel,series,x,repetition,sample,value";

/// One unit of a point: its value in one sample of one repetition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// Repetition, from 0.
    pub repetition: u32,
    /// Sample within the repetition's run, from 0.
    pub sample: u32,
    /// The metric's value.
    pub value: f64,
}

/// Every unit of every point, in the order of `data.csv`, at the
/// experiment's confidence level.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// The confidence level of intervals (0.95 or 0.90).
    pub level: f64,
    points: Vec<((String, String, String), Vec<Unit>)>,
    index: BTreeMap<(String, String, String), usize>,
}

impl Default for Samples {
    fn default() -> Self {
        Samples::new(0.95)
    }
}

impl Samples {
    /// No points yet.
    pub fn new(level: f64) -> Self {
        Samples {
            level,
            points: Vec::new(),
            index: BTreeMap::new(),
        }
    }

    /// Adds `unit` to the point (`panel`, `series`, `x`).
    pub fn push(&mut self, panel: &str, series: &str, x: &str, unit: Unit) {
        let key = (panel.to_string(), series.to_string(), x.to_string());
        let i = *self.index.entry(key.clone()).or_insert_with(|| {
            self.points.push((key, Vec::new()));
            self.points.len() - 1
        });
        self.points[i].1.push(unit);
    }

    /// The units of a point (none if it is unknown).
    pub fn get(&self, panel: &str, series: &str, x: &str) -> &[Unit] {
        self.index
            .get(&(panel.to_string(), series.to_string(), x.to_string()))
            .map_or(&[], |&i| self.points[i].1.as_slice())
    }

    /// Every point with its units, in the order of `data.csv`.
    pub(crate) fn points(&self) -> impl Iterator<Item = (&(String, String, String), &[Unit])> {
        self.points.iter().map(|(k, u)| (k, u.as_slice()))
    }

    /// Whether there are no units at all (results written before
    /// `samples.csv` existed).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The most units any point has.
    pub fn max_units(&self) -> usize {
        self.points.iter().map(|p| p.1.len()).max().unwrap_or(0)
    }

    /// Repetitions and samples per repetition at most, over all points.
    pub fn shape(&self) -> (u32, u32) {
        let units = self.points.iter().flat_map(|p| &p.1);
        let reps = units.clone().map(|u| u.repetition + 1).max().unwrap_or(0);
        let samples = units.map(|u| u.sample + 1).max().unwrap_or(0);
        (reps, samples)
    }

    /// Renders `samples.csv`.
    pub fn csv(&self) -> String {
        let mut out = String::from(SAMPLES_HEADER);
        out.push('\n');
        for ((panel, series, x), units) in &self.points {
            for u in units {
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{}",
                    encode::csv_text(panel),
                    encode::csv_text(series),
                    crate::csv::x_field(x),
                    u.repetition + 1,
                    u.sample + 1,
                    u.value
                );
            }
        }
        out
    }

    /// Reads `samples.csv` (as written by [`Samples::csv`]).
    pub fn parse(text: &str, level: f64) -> Result<Samples, CsvError> {
        match text.lines().next() {
            Some(h) if h.trim_end() == SAMPLES_HEADER => {}
            other => {
                return Err(CsvError::Line {
                    line: 1,
                    message: format!(
                        "expected header '{SAMPLES_HEADER}', found '{}'",
                        encode::terminal(other.unwrap_or(""))
                    ),
                });
            }
        }
        let mut samples = Samples::new(level);
        for (line, fields) in crate::csv::records(text)?.into_iter().skip(1) {
            let err = |message: String| CsvError::Line { line, message };
            let [panel, series, x, rep, sample, value] = fields.as_slice() else {
                return Err(err(format!("expected 6 fields, found {}", fields.len())));
            };
            let index = |name: &str, v: &str| {
                v.parse::<u32>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .map(|n| n - 1)
                    .ok_or_else(|| {
                        err(format!(
                            "{name} '{}' is not a positive integer",
                            encode::terminal(v)
                        ))
                    })
            };
            let unit = Unit {
                repetition: index("repetition", rep)?,
                sample: index("sample", sample)?,
                value: value.parse().map_err(|_| {
                    err(format!(
                        "value '{}' is not a number",
                        encode::terminal(value)
                    ))
                })?,
            };
            samples.push(
                encode::csv_text_decode(panel),
                encode::csv_text_decode(series),
                encode::csv_text_decode(x),
                unit,
            );
        }
        Ok(samples)
    }
}

/// An estimate of a linear combination of points' means, with its
/// confidence interval when there is more than one unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Estimate {
    pub mean: f64,
    pub ci: Option<(f64, f64)>,
    /// Units the interval rests on (pairs, when paired).
    pub n: usize,
    /// Whether the units were paired by (repetition, sample).
    pub paired: bool,
}

impl Estimate {
    /// The estimate minus `offset`.
    pub fn shift(self, offset: f64) -> Estimate {
        Estimate {
            mean: self.mean - offset,
            ci: self.ci.map(|(lo, hi)| (lo - offset, hi - offset)),
            ..self
        }
    }
}

/// `Σ cᵢ · mean(unitsᵢ)` with its interval at `level`: over the paired
/// combinations `Σ cᵢ · xᵢ(r, s)` when every term has the same two or more
/// (repetition, sample) keys, else from the terms' own variances (a
/// conservative Welch interval, with the smallest term's degrees of
/// freedom). With one unit per term there is no interval.
pub(crate) fn combine(terms: &[(f64, &[Unit])], level: f64) -> Estimate {
    let keys = |u: &[Unit]| -> Vec<(u32, u32)> {
        let mut k: Vec<(u32, u32)> = u.iter().map(|u| (u.repetition, u.sample)).collect();
        k.sort_unstable();
        k
    };
    let first = terms.first().map(|t| keys(t.1)).unwrap_or_default();
    let paired = first.len() >= 2
        && terms.iter().all(|t| keys(t.1) == first)
        && first.windows(2).all(|w| w[0] != w[1]);
    if paired {
        let lookup: Vec<BTreeMap<(u32, u32), f64>> = terms
            .iter()
            .map(|t| {
                t.1.iter()
                    .map(|u| ((u.repetition, u.sample), u.value))
                    .collect()
            })
            .collect();
        let values: Vec<f64> = first
            .iter()
            .map(|k| terms.iter().zip(&lookup).map(|((c, _), l)| c * l[k]).sum())
            .collect();
        let (mean, ci) = mean_ci_at(&values, level);
        return Estimate {
            mean,
            ci,
            n: values.len(),
            paired: true,
        };
    }
    let mut mean = 0.0;
    let mut var = 0.0;
    let mut n_min = usize::MAX;
    for (c, units) in terms {
        let values: Vec<f64> = units.iter().map(|u| u.value).collect();
        let n = values.len();
        let m = values.iter().sum::<f64>() / n.max(1) as f64;
        mean += c * m;
        n_min = n_min.min(n);
        if n >= 2 {
            let s2 = values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1) as f64;
            var += c * c * s2 / n as f64;
        }
    }
    let ci = (n_min >= 2 && n_min != usize::MAX).then(|| {
        let half = t_quantile(n_min - 1, level) * var.sqrt();
        (mean - half, mean + half)
    });
    Estimate {
        mean,
        ci,
        n: if n_min == usize::MAX { 0 } else { n_min },
        paired: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(values: &[f64]) -> Vec<Unit> {
        values
            .iter()
            .enumerate()
            .map(|(i, &value)| Unit {
                repetition: i as u32,
                sample: 0,
                value,
            })
            .collect()
    }

    #[test]
    fn paired_differences_remove_the_shared_variation() {
        // Two series that move together run by run, 1 apart.
        let a = units(&[10.0, 20.0, 30.0, 40.0]);
        let b = units(&[9.0, 19.2, 28.8, 39.0]);
        let e = combine(&[(1.0, &a), (-1.0, &b)], 0.95);
        assert!(e.paired && e.n == 4);
        assert!((e.mean - 1.0).abs() < 1e-12);
        let (lo, hi) = e.ci.unwrap();
        assert!(lo > 0.0 && hi < 2.0, "{lo} {hi}");
        // Unpaired (different repetitions), the same means straddle 0.
        let mut c = b.clone();
        for u in &mut c {
            u.repetition += 10;
        }
        let e = combine(&[(1.0, &a), (-1.0, &c)], 0.95);
        assert!(!e.paired);
        let (lo, hi) = e.ci.unwrap();
        assert!(lo < 0.0 && hi > 0.0, "{lo} {hi}");
    }

    #[test]
    fn welch_interval_uses_the_t_quantile_of_the_smaller_term() {
        let a = units(&[1.0, 2.0, 3.0]);
        let mut b = units(&[0.0, 0.0, 0.0, 0.0, 0.0]);
        for u in &mut b {
            u.repetition += 100;
        }
        let e = combine(&[(1.0, &a), (-1.0, &b)], 0.95);
        // Variance of a's mean: 1/3; t(2) = 4.303.
        let (lo, hi) = e.ci.unwrap();
        assert!(
            (hi - 2.0 - 4.303 * (1.0f64 / 3.0).sqrt()).abs() < 1e-9,
            "{hi}"
        );
        assert!((2.0 - lo - (hi - 2.0)).abs() < 1e-12);
    }

    #[test]
    fn a_single_unit_has_no_interval() {
        let a = units(&[5.0]);
        let e = combine(&[(1.0, &a)], 0.95);
        assert_eq!((e.mean, e.ci, e.n), (5.0, None, 1));
    }

    #[test]
    fn samples_csv_round_trips() {
        let mut s = Samples::new(0.9);
        s.push(
            "p",
            "a,b",
            "1",
            Unit {
                repetition: 0,
                sample: 2,
                value: 0.1 + 0.2,
            },
        );
        s.push(
            "p",
            "c",
            "x",
            Unit {
                repetition: 3,
                sample: 0,
                value: -1e-300,
            },
        );
        let text = s.csv();
        assert!(text.starts_with(
            "panel,series,x,repetition,sample,value\np,\"a,b\",1,1,3,0.30000000000000004\n"
        ));
        assert_eq!(Samples::parse(&text, 0.9).unwrap(), s);
        let e = Samples::parse("panel,series,x,repetition,sample,value\np,a,1,0,1,2\n", 0.9);
        assert!(e.unwrap_err().to_string().contains("repetition '0'"));
    }
}
