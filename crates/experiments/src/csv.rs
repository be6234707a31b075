//! `data.csv`: one row per plotted point, with deterministic number formatting.
//!
//! The header is exactly `panel,series,x,y,ci_lo,ci_hi,runs`. The CI columns
//! are empty when a point has a single run. Numbers are printed with six
//! significant digits and no trailing zeros, so the same results always give
//! the same bytes and the file stays readable.
//!
//! Text columns (panel, series, a categorical x) are encoded by
//! [`encode::csv_text`]: RFC 4180 quoting, and a `'` before text a
//! spreadsheet would run as a formula; [`parse_csv`] removes it again.

use std::fmt;

use crate::encode;
use crate::numfmt::{fmt_exact, fmt_num};

/// The exact header line of `data.csv`.
pub const CSV_HEADER: &str = "panel,series,x,y,ci_lo,ci_hi,runs";

/// One plotted point.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Panel id.
    pub panel: String,
    /// Series (legend entry).
    pub series: String,
    /// x value: a category, or a number formatted as the sweep's values are
    /// ([`fmt_exact`](crate::numfmt::fmt_exact), integers exact).
    pub x: String,
    /// Mean over the runs.
    pub y: f64,
    /// Confidence interval of the mean (95% unless the config sets `confidence`), when there are several runs.
    pub ci: Option<(f64, f64)>,
    /// Number of units behind the point: its runs' samples (one per run
    /// for most kinds), those without a value included.
    pub runs: u32,
}

/// The x column: a number as a sweep's value is written (an integer, or
/// [`fmt_exact`]'s text) stays a number; anything else is text (a
/// category) and is encoded as such.
pub(crate) fn x_field(x: &str) -> String {
    let number = x
        .parse::<f64>()
        .is_ok_and(|v| v.is_finite() && fmt_exact(v) == x)
        || x.parse::<i64>().is_ok_and(|i| i.to_string() == x);
    if number {
        encode::csv_field(x)
    } else {
        encode::csv_text(x)
    }
}

/// Rows grouped by panel, each panel's in the order given: one pass over
/// the rows, then a lookup per panel. Summary tables, figure sub-plots and
/// claims read a panel's rows this way; a scan per panel made a study of
/// 20,000 panels quadratic.
pub(crate) struct PanelRows<'a> {
    groups: std::collections::HashMap<&'a str, Vec<&'a Row>>,
}

impl<'a> PanelRows<'a> {
    pub(crate) fn new(rows: &'a [Row]) -> Self {
        let mut groups: std::collections::HashMap<&str, Vec<&Row>> =
            std::collections::HashMap::new();
        for r in rows {
            groups.entry(r.panel.as_str()).or_default().push(r);
        }
        PanelRows { groups }
    }

    /// The rows of panel `id`, none if it has none.
    pub(crate) fn of(&self, id: &str) -> &[&'a Row] {
        self.groups.get(id).map_or(&[], Vec::as_slice)
    }
}

/// The x values of `rows` (one panel's), each once, in the order first met.
pub(crate) fn xs_in_order<'a>(rows: &[&'a Row]) -> Vec<&'a str> {
    let mut seen = std::collections::HashSet::new();
    rows.iter()
        .map(|r| r.x.as_str())
        .filter(|x| seen.insert(*x))
        .collect()
}

/// Renders rows as `data.csv`.
pub fn write_csv(rows: &[Row]) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for r in rows {
        let (lo, hi) = r.ci.map_or((String::new(), String::new()), |(lo, hi)| {
            (fmt_num(lo), fmt_num(hi))
        });
        let line = [
            encode::csv_text(&r.panel),
            encode::csv_text(&r.series),
            x_field(&r.x),
            fmt_num(r.y),
            lo,
            hi,
            r.runs.to_string(),
        ];
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// A `data.csv` that cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CsvError {
    /// The first line is not [`CSV_HEADER`].
    Header {
        /// What was found.
        found: String,
    },
    /// A data line is malformed.
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CsvError::Header { found } => {
                write!(
                    f,
                    "line 1: header is '{found}', expected '{CSV_HEADER}'; regenerate the results"
                )
            }
            CsvError::Line { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for CsvError {}

/// Splits CSV text into records of fields (RFC 4180: a quoted field may
/// hold `,`, `""` and line breaks); each record with the 1-based line it
/// starts on. Empty lines are skipped; LF and CRLF both end a record.
pub(crate) fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, CsvError> {
    let mut out = Vec::new();
    let mut fields = Vec::new();
    let mut cur = String::new();
    let (mut line, mut start) = (1, 1);
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if cur.is_empty() => {
                quoted = true;
                any = true;
            }
            (false, ',') => {
                fields.push(std::mem::take(&mut cur));
                any = true;
            }
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                if any || !cur.is_empty() {
                    fields.push(std::mem::take(&mut cur));
                    out.push((start, std::mem::take(&mut fields)));
                }
                any = false;
                line += 1;
                start = line;
            }
            (_, c) => {
                if c == '\n' {
                    line += 1;
                }
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(CsvError::Line {
            line: start,
            message: "unterminated quoted field".into(),
        });
    }
    if any || !cur.is_empty() {
        fields.push(cur);
        out.push((start, fields));
    }
    Ok(out)
}

/// Parses `data.csv` text back into rows.
pub fn parse_csv(text: &str) -> Result<Vec<Row>, CsvError> {
    let header = text.lines().next().unwrap_or("");
    if header.trim_end_matches('\r') != CSV_HEADER {
        return Err(CsvError::Header {
            found: encode::terminal(header),
        });
    }
    let mut rows = Vec::new();
    for (n, f) in records(text)?.into_iter().skip(1) {
        let err = |message: String| CsvError::Line { line: n, message };
        if f.len() != 7 {
            return Err(err(format!("{} fields, expected 7", f.len())));
        }
        let num = |name: &str, s: &str| {
            s.parse::<f64>().map_err(|_| {
                err(format!(
                    "{name} is '{}', expected a number",
                    encode::terminal(s)
                ))
            })
        };
        let ci = match (f[4].as_str(), f[5].as_str()) {
            ("", "") => None,
            (lo, hi) => Some((num("ci_lo", lo)?, num("ci_hi", hi)?)),
        };
        let runs = f[6].parse::<u32>().map_err(|_| {
            err(format!(
                "runs is '{}', expected an integer",
                encode::terminal(&f[6])
            ))
        })?;
        rows.push(Row {
            panel: encode::csv_text_decode(&f[0]).to_string(),
            series: encode::csv_text_decode(&f[1]).to_string(),
            x: encode::csv_text_decode(&f[2]).to_string(),
            y: num("y", &f[3])?,
            ci,
            runs,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        for (v, s) in [
            (0.0, "0"),
            (-0.0, "0"),
            (3.0, "3"),
            (12345.678, "12345.7"),
            (0.5, "0.5"),
            (1.0 / 3.0, "0.333333"),
            (0.00123456789, "0.00123457"),
            (-2.5, "-2.5"),
            (1e20, "100000000000000000000"),
        ] {
            assert_eq!(fmt_num(v), s, "{v}");
        }
    }

    #[test]
    fn quoting_round_trips() {
        let rows = vec![Row {
            panel: "p".into(),
            series: "a, \"b\"".into(),
            x: "x".into(),
            y: 1.5,
            ci: Some((1.0, 2.0)),
            runs: 3,
        }];
        assert_eq!(parse_csv(&write_csv(&rows)).unwrap(), rows);
    }
}
