//! `figure.svg`, written by hand: one sub-plot per panel (up to three per
//! row), a shared legend, axis labels with units, "nice" ticks, lines with
//! markers for a numeric x axis, grouped bars for a categorical one, and
//! confidence-interval whiskers (95% unless the config sets `confidence`) where a point has several runs.
//!
//! The output depends only on its input: coordinates are printed with one
//! decimal and nothing else (no dates, no random ids) goes in.

use std::fmt::Write as _;

use serde::Serialize;

use crate::config::Experiment;
use crate::csv::Row;

/// How an experiment's figure is drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// Title line.
    pub title: String,
    /// x-axis label with unit.
    pub x_label: String,
    /// Grouped bars (categorical x) instead of lines.
    pub categorical: bool,
    /// Legend entries in order (colours follow this order).
    pub series: Vec<String>,
    /// Sub-plots in order.
    pub panels: Vec<PanelInfo>,
}

/// One sub-plot's labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PanelInfo {
    /// Panel id (the `panel` column of data.csv).
    pub id: String,
    /// Sub-plot title.
    pub title: String,
    /// y-axis label with unit.
    pub y_label: String,
    /// Logarithmic y axis.
    pub log_y: bool,
}

/// Okabe–Ito colours (colour-blind safe), yellow left out for contrast.
const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
];
const PANEL_W: f64 = 420.0;
const PANEL_H: f64 = 320.0;
const HEADER_H: f64 = 72.0;
const COLUMNS: usize = 3;
const FONT: &str = "Helvetica, Arial, sans-serif";
/// Rough width of one character at 12 px, for layout.
const CHAR_W: f64 = 6.8;
/// Height of each extra legend line.
const LEGEND_LINE_H: f64 = 22.0;

/// Width of one legend entry: marker, name and gap.
fn legend_item_w(s: &str) -> f64 {
    34.0 + s.chars().count() as f64 * CHAR_W + 16.0
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Evenly spaced round tick values covering `[lo, hi]`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (lo, hi) = match (hi > lo, lo == 0.0) {
        (true, _) => (lo, hi),
        (false, true) => (0.0, 1.0),
        (false, false) => (lo - 1.0, lo + 1.0),
    };
    let raw = (hi - lo) / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag);
    // The tolerance keeps 0.6 / 0.2 = 2.9999999999999996 from adding a tick.
    let first = (lo / step + 1e-9).floor() as i64;
    let last = (hi / step - 1e-9).ceil() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Tick labels with as many decimals as the step needs, and k/M suffixes.
fn tick_labels(ticks: &[f64]) -> Vec<String> {
    let max = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    let (div, suffix) = if max >= 1e6 {
        (1e6, "M")
    } else if max >= 1e4 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let step = if ticks.len() > 1 {
        (ticks[1] - ticks[0]) / div
    } else {
        1.0
    };
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    ticks
        .iter()
        .map(|t| {
            if *t == 0.0 {
                "0".into()
            } else {
                format!("{:.decimals$}{suffix}", t / div)
            }
        })
        .collect()
}

/// A power of ten as a label: 0.01, 1, 100, 10k, 1M.
fn decade_label(k: i32) -> String {
    match k {
        k if k >= 6 => format!("{}M", 10f64.powi(k - 6)),
        k if k >= 4 => format!("{}k", 10f64.powi(k - 3)),
        k if k >= 0 => format!("{}", 10f64.powi(k)),
        k => format!("{:.*}", (-k) as usize, 10f64.powi(k)),
    }
}

/// The y scale of a panel and its labelled ticks: linear from 0, or by decades.
fn y_axis(values: &[f64], log: bool, bottom: f64, top: f64) -> (Scale, Vec<(f64, String)>) {
    if log {
        let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
        let lo = positive.iter().fold(f64::INFINITY, |m, v| m.min(*v));
        let hi = positive.iter().fold(f64::NEG_INFINITY, |m, v| m.max(*v));
        if lo.is_finite() {
            let (k0, mut k1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
            if k1 == k0 {
                k1 += 1;
            }
            let scale = Scale {
                d0: f64::from(k0),
                d1: f64::from(k1),
                p0: bottom,
                p1: top,
                log: true,
            };
            return (
                scale,
                (k0..=k1)
                    .map(|k| (10f64.powi(k), decade_label(k)))
                    .collect(),
            );
        }
    }
    let lo = values.iter().fold(0.0f64, |m, v| m.min(*v));
    let hi = values.iter().fold(0.0f64, |m, v| m.max(*v));
    let t = ticks(lo, hi);
    let scale = Scale {
        d0: t[0],
        d1: t[t.len() - 1],
        p0: bottom,
        p1: top,
        log: false,
    };
    (scale, t.iter().copied().zip(tick_labels(&t)).collect())
}

/// A linear map from data to pixels.
#[derive(Clone, Copy)]
struct Scale {
    d0: f64,
    d1: f64,
    p0: f64,
    p1: f64,
    /// `d0` and `d1` are decades; values at or below zero sit on the axis.
    log: bool,
}

impl Scale {
    fn at(&self, v: f64) -> f64 {
        let v = if self.log {
            if v > 0.0 {
                v.log10().max(self.d0)
            } else {
                self.d0
            }
        } else {
            v
        };
        self.p0 + (v - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)
    }

    /// Where bars start: zero, or the bottom of a log axis.
    fn base(&self) -> f64 {
        if self.log { self.p0 } else { self.at(0.0) }
    }
}

fn marker(out: &mut String, shape: usize, x: f64, y: f64, color: &str) {
    let _ = match shape % 5 {
        0 => writeln!(
            out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{color}"/>"#
        ),
        1 => writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="7" height="7" fill="{color}"/>"#,
            x - 3.5,
            y - 3.5
        ),
        2 => writeln!(
            out,
            r#"<path d="M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z" fill="{color}"/>"#,
            y - 5.0,
            x + 4.5,
            y + 3.5,
            x - 4.5,
            y + 3.5
        ),
        3 => writeln!(
            out,
            r#"<path d="M{x:.1},{:.1} L{:.1},{y:.1} L{x:.1},{:.1} L{:.1},{y:.1} Z" fill="{color}"/>"#,
            y - 5.0,
            x + 5.0,
            y + 5.0,
            x - 5.0
        ),
        _ => writeln!(
            out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="white" stroke="{color}" stroke-width="2"/>"#
        ),
    };
}

fn text(out: &mut String, x: f64, y: f64, size: u32, anchor: &str, extra: &str, s: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}"{extra}>{}</text>"#,
        esc(s)
    );
}

fn whisker(out: &mut String, x: f64, lo: f64, hi: f64, color: &str) {
    let _ = writeln!(
        out,
        r#"<path d="M{x:.1},{lo:.1} L{x:.1},{hi:.1} M{:.1},{lo:.1} L{:.1},{lo:.1} M{:.1},{hi:.1} L{:.1},{hi:.1}" stroke="{color}" stroke-width="1.2" fill="none"/>"#,
        x - 4.0,
        x + 4.0,
        x - 4.0,
        x + 4.0
    );
}

impl Figure {
    /// The figure an experiment's panels and sweep describe.
    pub(crate) fn of(experiment: &Experiment) -> Figure {
        let spec = &experiment.spec;
        let metrics = (experiment.kind.metrics)();
        let panels = spec
            .panels
            .iter()
            .map(|p| {
                let m = metrics.iter().find(|m| m.name == p.metric.get_ref());
                PanelInfo {
                    id: p.id.clone(),
                    title: p
                        .title
                        .clone()
                        .or_else(|| {
                            let title = m.map(|m| m.title.to_string())?;
                            Some(match p.reference() {
                                None => title,
                                Some((r, reduction)) => {
                                    let what = if reduction { "reduction" } else { "gain" };
                                    let of = match r.get_ref() {
                                        crate::config::ReferenceSpec::Series(s) => s.clone(),
                                        crate::config::ReferenceSpec::Params { params } => {
                                            params.to_string().trim().replace('\n', ", ")
                                        }
                                    };
                                    format!("{title}: {what} over {of} (%)")
                                }
                            })
                        })
                        .unwrap_or_default(),
                    y_label: p
                        .y_label
                        .clone()
                        .or_else(|| m.map(|m| m.y_label.to_string()))
                        .unwrap_or_default(),
                    log_y: p.log_y,
                }
            })
            .collect();
        Figure {
            title: format!("{}: {}", spec.id.get_ref(), spec.title),
            x_label: spec.sweep.label.clone(),
            categorical: experiment.is_categorical(),
            series: experiment.series(),
            panels,
        }
    }

    /// Renders the rows of data.csv as an SVG document.
    pub fn render(&self, rows: &[Row]) -> String {
        let columns = self.panels.len().clamp(1, COLUMNS);
        let grid_rows = self.panels.len().div_ceil(COLUMNS).max(1);
        let width = columns as f64 * PANEL_W;
        // A legend too wide for one line wraps; the panels move down.
        let header = HEADER_H + (self.legend_lines(width).len() - 1) as f64 * LEGEND_LINE_H;
        let height = header + grid_rows as f64 * PANEL_H + 8.0;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{FONT}">"#
        );
        let _ = writeln!(out, "<title>{}</title>", esc(&self.title));
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        // A long title shrinks to fit the width (bold glyphs average about
        // 0.6 em), down to 10 px.
        let chars = self.title.chars().count().max(1) as f64;
        let title_size = ((width - 24.0) / (chars * 0.6)).floor().clamp(10.0, 16.0) as u32;
        text(
            &mut out,
            width / 2.0,
            26.0,
            title_size,
            "middle",
            r#" font-weight="bold""#,
            &self.title,
        );
        self.legend(&mut out, width);
        for (i, panel) in self.panels.iter().enumerate() {
            let ox = (i % COLUMNS) as f64 * PANEL_W;
            let oy = header + (i / COLUMNS) as f64 * PANEL_H;
            let mine: Vec<&Row> = rows.iter().filter(|r| r.panel == panel.id).collect();
            self.panel(&mut out, panel, &mine, ox, oy);
        }
        out.push_str("</svg>\n");
        out
    }

    /// The legend entries on each line: one line when they fit in `width`,
    /// else as many lines as needed, filled in order.
    fn legend_lines(&self, width: f64) -> Vec<Vec<usize>> {
        let mut lines: Vec<Vec<usize>> = vec![Vec::new()];
        let mut used = 0.0;
        for (i, s) in self.series.iter().enumerate() {
            let w = legend_item_w(s);
            if used + w > width - 16.0 && !lines[lines.len() - 1].is_empty() {
                lines.push(Vec::new());
                used = 0.0;
            }
            used += w;
            let last = lines.len() - 1;
            lines[last].push(i);
        }
        lines
    }

    fn legend(&self, out: &mut String, width: f64) {
        for (line, items) in self.legend_lines(width).iter().enumerate() {
            self.legend_line(out, width, items, 52.0 + line as f64 * LEGEND_LINE_H);
        }
    }

    fn legend_line(&self, out: &mut String, width: f64, items: &[usize], y: f64) {
        let total: f64 = items.iter().map(|&i| legend_item_w(&self.series[i])).sum();
        let mut x = ((width - total) / 2.0).max(8.0);
        for &i in items {
            let s = &self.series[i];
            let color = PALETTE[i % PALETTE.len()];
            if self.categorical {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.1}" y="{:.1}" width="24" height="12" fill="{color}"/>"#,
                    y - 10.0
                );
            } else {
                let _ = writeln!(
                    out,
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{color}" stroke-width="2"/>"#,
                    y - 4.0,
                    x + 24.0,
                    y - 4.0
                );
                marker(out, i, x + 12.0, y - 4.0, color);
            }
            text(out, x + 30.0, y, 13, "start", "", s);
            x += legend_item_w(s);
        }
    }

    fn panel(&self, out: &mut String, info: &PanelInfo, rows: &[&Row], ox: f64, oy: f64) {
        let (left, right, top, bottom) = (
            ox + 74.0,
            ox + PANEL_W - 18.0,
            oy + 34.0,
            oy + PANEL_H - 64.0,
        );
        text(
            out,
            (left + right) / 2.0,
            oy + 20.0,
            14,
            "middle",
            r#" font-weight="bold""#,
            &info.title,
        );
        let cy = (top + bottom) / 2.0;
        text(
            out,
            ox + 16.0,
            cy,
            12,
            "middle",
            &format!(r#" transform="rotate(-90 {:.1} {cy:.1})""#, ox + 16.0),
            &info.y_label,
        );
        text(
            out,
            (left + right) / 2.0,
            oy + PANEL_H - 14.0,
            12,
            "middle",
            "",
            &self.x_label,
        );
        let finite: Vec<f64> = rows
            .iter()
            .flat_map(|r| [Some(r.y), r.ci.map(|c| c.0), r.ci.map(|c| c.1)])
            .flatten()
            .filter(|v| v.is_finite())
            .collect();
        if finite.is_empty() {
            text(
                out,
                (left + right) / 2.0,
                cy,
                13,
                "middle",
                r##" fill="#666""##,
                "no data",
            );
            return;
        }
        let (ys, yt) = y_axis(&finite, info.log_y, bottom, top);
        for (t, label) in &yt {
            let y = ys.at(*t);
            let _ = writeln!(
                out,
                r##"<line x1="{left:.1}" y1="{y:.1}" x2="{right:.1}" y2="{y:.1}" stroke="#e0e0e0"/>"##
            );
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{left:.1}" y2="{y:.1}" stroke="#333"/>"##,
                left - 4.0
            );
            text(out, left - 7.0, y + 4.0, 11, "end", "", label);
        }
        if self.categorical {
            self.bars(out, rows, ys, left, right, bottom);
        } else {
            self.lines(out, rows, ys, left, right, bottom);
        }
        let _ = writeln!(
            out,
            r##"<path d="M{left:.1},{top:.1} L{left:.1},{bottom:.1} L{right:.1},{bottom:.1}" stroke="#333" fill="none"/>"##
        );
    }

    fn bars(&self, out: &mut String, rows: &[&Row], ys: Scale, left: f64, right: f64, bottom: f64) {
        let mut cats: Vec<&str> = Vec::new();
        for r in rows {
            if !cats.contains(&r.x.as_str()) {
                cats.push(&r.x);
            }
        }
        let group = (right - left) / cats.len() as f64;
        let n = self.series.len().max(1) as f64;
        let bar = group * 0.8 / n;
        let zero = ys.base();
        let rotate = cats
            .iter()
            .any(|c| c.chars().count() as f64 * CHAR_W > group * 0.95);
        for (ci, cat) in cats.iter().enumerate() {
            let gx = left + ci as f64 * group;
            for (si, s) in self.series.iter().enumerate() {
                let Some(r) = rows.iter().find(|r| r.x == *cat && &r.series == s) else {
                    continue;
                };
                if !r.y.is_finite() {
                    continue;
                }
                let color = PALETTE[si % PALETTE.len()];
                let x = gx + group * 0.1 + si as f64 * bar;
                let (y0, y1) = (ys.at(r.y).min(zero), ys.at(r.y).max(zero));
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="{color}"/>"#,
                    bar * 0.92,
                    y1 - y0
                );
                let mut label_y = ys.at(r.y);
                if let Some((lo, hi)) = r.ci {
                    whisker(out, x + bar * 0.46, ys.at(lo), ys.at(hi), "#333");
                    label_y = label_y.min(ys.at(hi));
                }
                if bar >= 26.0 {
                    text(
                        out,
                        x + bar * 0.46,
                        label_y - 4.0,
                        10,
                        "middle",
                        r##" fill="#333""##,
                        &crate::report::fmt_short(r.y),
                    );
                }
            }
            let cx = gx + group / 2.0;
            if rotate {
                let y = bottom + 14.0;
                text(
                    out,
                    cx,
                    y,
                    12,
                    "end",
                    &format!(r#" transform="rotate(-25 {cx:.1} {y:.1})""#),
                    cat,
                );
            } else {
                text(out, cx, bottom + 17.0, 12, "middle", "", cat);
            }
        }
    }

    fn lines(
        &self,
        out: &mut String,
        rows: &[&Row],
        ys: Scale,
        left: f64,
        right: f64,
        bottom: f64,
    ) {
        let xv: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.x.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .collect();
        let (x_lo, x_hi) = xv
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        let xt = if xv.is_empty() {
            vec![0.0, 1.0]
        } else {
            ticks(x_lo, x_hi)
        };
        let xs = Scale {
            d0: xt[0],
            d1: xt[xt.len() - 1],
            p0: left + 14.0,
            p1: right - 14.0,
            log: false,
        };
        for (t, label) in xt.iter().zip(tick_labels(&xt)) {
            let x = xs.at(*t);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{bottom:.1}" x2="{x:.1}" y2="{:.1}" stroke="#333"/>"##,
                bottom + 4.0
            );
            text(out, x, bottom + 17.0, 11, "middle", "", &label);
        }
        for (si, s) in self.series.iter().enumerate() {
            let color = PALETTE[si % PALETTE.len()];
            let mut pts: Vec<(f64, &Row)> = rows
                .iter()
                .filter(|r| &r.series == s && r.y.is_finite())
                .filter_map(|r| r.x.parse::<f64>().ok().map(|x| (x, *r)))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let path: Vec<String> = pts
                .iter()
                .map(|(x, r)| format!("{:.1},{:.1}", xs.at(*x), ys.at(r.y)))
                .collect();
            if path.len() > 1 {
                let _ = writeln!(
                    out,
                    r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
                    path.join(" ")
                );
            }
            for (x, r) in &pts {
                if let Some((lo, hi)) = r.ci {
                    whisker(out, xs.at(*x), ys.at(lo), ys.at(hi), color);
                }
                marker(out, si, xs.at(*x), ys.at(r.y), color);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 9.3), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            ticks(0.0, 1.0),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(
            tick_labels(&ticks(0.0, 1.0)),
            vec!["0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        assert_eq!(
            tick_labels(&ticks(0.0, 25000.0)),
            vec!["0", "5k", "10k", "15k", "20k", "25k"]
        );
        assert_eq!(
            tick_labels(&ticks(0.0, 1.6e6)),
            vec!["0", "0.5M", "1.0M", "1.5M", "2.0M"]
        );
        let labels: Vec<String> = (-2..=7).map(decade_label).collect();
        assert_eq!(
            labels,
            [
                "0.01", "0.1", "1", "10", "100", "1000", "10k", "100k", "1M", "10M"
            ]
        );
        assert_eq!(ticks(5.0, 5.0).first(), Some(&4.0));
        assert_eq!(
            ticks(0.0, 0.0),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(ticks(0.6, 1.2).first(), Some(&0.6000000000000001));
    }
}
