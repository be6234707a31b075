//! `figure.svg`, written by hand: the experiment's title, a caption that
//! says what the whiskers are (confidence level and how many runs or
//! samples each point averages), a banner when a stand-in workload replaced
//! a trace, a shared legend, then one sub-plot per panel (up to three per
//! row) with axis labels, units and "nice" ticks.
//!
//! A numeric x axis gives lines; each series has its own colour, marker
//! shape and dash pattern, and the series are dodged a few pixels apart, so
//! coincident series stay visible. A categorical x axis gives grouped bars
//! with one tick label per category; with a single category the bars are
//! labelled by series and the category goes into the caption. Axis ranges
//! are fitted to the data (bars always include zero); value labels on bars
//! sit clear of the whisker ends and are left out where they would collide.
//!
//! The output depends only on its input: coordinates are printed with one
//! decimal and nothing else (no dates, no random ids) goes in.

use std::fmt::Write as _;

use serde::Serialize;

use crate::config::Experiment;
use crate::csv::Row;
use crate::workload::WorkloadFacts;

/// How an experiment's figure is drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// Title line (the experiment's title).
    pub title: String,
    /// x-axis label with unit.
    pub x_label: String,
    /// Grouped bars (categorical x) instead of lines.
    pub categorical: bool,
    /// Legend entries in order (colours, markers and dashes follow this order).
    pub series: Vec<String>,
    /// Sub-plots in order.
    pub panels: Vec<PanelInfo>,
    /// Confidence level of the whiskers: 0.95 or 0.90.
    pub confidence: f64,
    /// Independent runs (repetitions) per point; a run may give several
    /// samples, which the caption then counts instead.
    pub repetitions: u32,
    /// A warning drawn as a banner across the figure, e.g. that a stand-in
    /// workload replaced a missing trace.
    pub notice: Option<String>,
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
/// Line dash patterns, in turn: with the colour and the marker they tell
/// series apart where lines coincide.
const DASHES: [&str; 4] = ["", "7 3", "2 2.5", "9 3 2 3"];
/// Marker shapes (five outlines, each filled and hollow).
const MARKERS: usize = 10;
const PANEL_W: f64 = 420.0;
/// Margins of the plot area inside a panel.
const PLOT_LEFT: f64 = 74.0;
const PLOT_RIGHT: f64 = 18.0;
const PLOT_TOP: f64 = 34.0;
/// Height of the plot area.
const PLOT_H: f64 = 222.0;
/// Room under the plot area for one line of tick labels and the x label.
const PLOT_BOTTOM: f64 = 64.0;
const COLUMNS: usize = 3;
const FONT: &str = "Helvetica, Arial, sans-serif";
/// Rough width of one character at 12 px, for layout.
const CHAR_W: f64 = 6.8;
/// Height of each legend line.
const LEGEND_LINE_H: f64 = 22.0;
/// Height of each caption line.
const CAPTION_LINE_H: f64 = 17.0;
/// Height of each line of the notice banner.
const BANNER_LINE_H: f64 = 17.0;
/// Angle of tick labels too long to sit level (degrees, clockwise up).
const ROTATE: f64 = 35.0;
/// Padding of a fitted axis beyond the data, as a fraction of the data range.
const PAD: f64 = 0.05;
/// Padding on the value-label side of bars.
const LABEL_PAD: f64 = 0.09;
/// Horizontal distance between series at one x, in pixels (at most).
const DODGE: f64 = 4.0;
/// Half the width of a whisker cap.
const CAP: f64 = 3.5;
/// Value labels are drawn on bars at least this wide.
const LABEL_MIN_BAR: f64 = 26.0;

/// Width of one legend entry: marker, name and gap.
fn legend_item_w(s: &str) -> f64 {
    34.0 + text_w(s, 13.0) + 16.0
}

/// Rough width of `s` at `size` px.
fn text_w(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * CHAR_W * size / 12.0
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The smallest round step (1, 2 or 5 times a power of ten) that cuts
/// `range` into at most six intervals.
fn nice_step(range: f64) -> f64 {
    let raw = range / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag)
}

/// A linear axis fitted to data in `[lo, hi]`: the range plus `pad_lo` and
/// `pad_hi` (fractions of the range) on either side, widened to the next
/// round tick only when that tick is near (within 0.3 of a step) and on the
/// same side of zero as the data. Returns the axis ends and the round ticks
/// (three to seven) between them.
fn fit(lo: f64, hi: f64, pad_lo: f64, pad_hi: f64) -> (f64, f64, Vec<f64>) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        let d = lo.abs() * 0.1;
        (lo - d, hi + d)
    };
    let span = hi - lo;
    let (mut d0, mut d1) = (lo - pad_lo * span, hi + pad_hi * span);
    let step = nice_step(d1 - d0);
    // The tolerance keeps 0.6 / 0.2 = 2.9999999999999996 from moving a tick.
    let below = (d0 / step + 1e-9).floor() * step;
    if d0 - below <= 0.3 * step && !(lo >= 0.0 && below < 0.0) {
        d0 = below;
    }
    let above = (d1 / step - 1e-9).ceil() * step;
    if above - d1 <= 0.3 * step && !(hi <= 0.0 && above > 0.0) {
        d1 = above;
    }
    let first = (d0 / step - 1e-9).ceil() as i64;
    let last = (d1 / step + 1e-9).floor() as i64;
    let ticks = (first..=last).map(|i| i as f64 * step).collect();
    (d0, d1, ticks)
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
            if t.abs() < step * div * 1e-9 {
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

/// The y scale of a panel and its labelled ticks: by decades when `log`
/// (and some value is positive), else linear and fitted to the values;
/// `bars` include zero and leave room for value labels.
fn y_axis(
    values: &[f64],
    log: bool,
    bars: bool,
    bottom: f64,
    top: f64,
) -> (Scale, Vec<(f64, String)>) {
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
    let mut lo = values.iter().fold(f64::INFINITY, |m, v| m.min(*v));
    let mut hi = values.iter().fold(f64::NEG_INFINITY, |m, v| m.max(*v));
    let (pad_lo, pad_hi) = if bars {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
        let side = |away: bool| if away { LABEL_PAD } else { 0.0 };
        (side(lo < 0.0), side(hi > 0.0))
    } else {
        (PAD, PAD)
    };
    let (d0, d1, t) = fit(lo, hi, pad_lo, pad_hi);
    let scale = Scale {
        d0,
        d1,
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

/// An axis-aligned box in pixels, for collision checks.
#[derive(Clone, Copy, Debug)]
struct Box2 {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Box2 {
    fn overlaps(&self, o: &Box2) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// Marker `shape` (any index; shapes repeat after [`MARKERS`]) at `(x, y)`.
fn marker(out: &mut String, shape: usize, x: f64, y: f64, color: &str) {
    let shape = shape % MARKERS;
    let paint = if shape < MARKERS / 2 {
        format!(r#"fill="{color}""#)
    } else {
        format!(r#"fill="white" stroke="{color}" stroke-width="1.8""#)
    };
    let _ = match shape % 5 {
        0 => writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" {paint}/>"#),
        1 => writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="7" height="7" {paint}/>"#,
            x - 3.5,
            y - 3.5
        ),
        2 => writeln!(
            out,
            r#"<path d="M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z" {paint}/>"#,
            y - 5.0,
            x + 4.5,
            y + 3.5,
            x - 4.5,
            y + 3.5
        ),
        3 => writeln!(
            out,
            r#"<path d="M{x:.1},{:.1} L{:.1},{y:.1} L{x:.1},{:.1} L{:.1},{y:.1} Z" {paint}/>"#,
            y - 5.0,
            x + 5.0,
            y + 5.0,
            x - 5.0
        ),
        _ => writeln!(
            out,
            r#"<path d="M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z" {paint}/>"#,
            y + 5.0,
            x + 4.5,
            y - 3.5,
            x - 4.5,
            y - 3.5
        ),
    };
}

/// ` stroke-dasharray="…"` of series `i`, or nothing for a solid line.
fn dash(i: usize) -> String {
    match DASHES[i % DASHES.len()] {
        "" => String::new(),
        d => format!(r#" stroke-dasharray="{d}""#),
    }
}

fn text(out: &mut String, x: f64, y: f64, size: u32, anchor: &str, extra: &str, s: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}"{extra}>{}</text>"#,
        esc(s)
    );
}

/// A vertical whisker from `lo` to `hi` (pixels) with caps; returns its box.
fn whisker(out: &mut String, x: f64, lo: f64, hi: f64, color: &str) -> Box2 {
    let _ = writeln!(
        out,
        r#"<path d="M{x:.1},{lo:.1} L{x:.1},{hi:.1} M{:.1},{lo:.1} L{:.1},{lo:.1} M{:.1},{hi:.1} L{:.1},{hi:.1}" stroke="{color}" stroke-width="1.2" fill="none"/>"#,
        x - CAP,
        x + CAP,
        x - CAP,
        x + CAP
    );
    Box2 {
        x0: x - CAP,
        y0: lo.min(hi) - 1.0,
        x1: x + CAP,
        y1: lo.max(hi) + 1.0,
    }
}

/// The categories of a bar chart, in order of first appearance.
fn categories<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Vec<&'a str> {
    let mut cats: Vec<&str> = Vec::new();
    for r in rows {
        if !cats.contains(&r.x.as_str()) {
            cats.push(&r.x);
        }
    }
    cats
}

/// Tick labels under a bar chart and whether they are rotated; the room
/// they need below the axis beyond one level line.
struct BarTicks {
    rotate: bool,
    extra: f64,
}

/// `n` as a word for small counts ("one run"), else digits.
fn count(n: u32, what: &str) -> String {
    match n {
        1 => format!("one {what}"),
        n => format!("{n} {what}s"),
    }
}

impl Figure {
    /// The figure an experiment's panels and sweep describe; `workloads`
    /// (the facts of the run) mark a figure drawn from a stand-in workload.
    pub(crate) fn of(experiment: &Experiment, workloads: &[WorkloadFacts]) -> Figure {
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
            title: spec.title.clone(),
            x_label: spec.sweep.label.clone(),
            categorical: experiment.is_categorical(),
            series: experiment.series(),
            panels,
            confidence: spec.confidence.unwrap_or(0.95),
            repetitions: spec.repetitions,
            notice: stand_in_notice(workloads),
        }
    }

    /// The caption lines: the only category of a bar chart (its bars are
    /// the series), then what the whiskers show.
    fn caption(&self, rows: &[Row]) -> Vec<String> {
        let mut lines = Vec::new();
        let cats = categories(rows);
        if self.categorical && cats.len() == 1 {
            lines.push(format!("workload: {}", cats[0]));
        }
        let with_ci: Vec<u32> = rows
            .iter()
            .filter(|r| r.ci.is_some())
            .map(|r| r.runs)
            .collect();
        let (lo, hi) = with_ci
            .iter()
            .fold((u32::MAX, 0), |(a, b), n| (a.min(*n), b.max(*n)));
        if with_ci.is_empty() {
            if !rows.is_empty() {
                lines.push("one run per point: no whiskers".into());
            }
        } else {
            let level = (100.0 * self.confidence).round();
            let n = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}–{hi}")
            };
            let over = if lo == hi && hi == self.repetitions {
                format!("{n} runs")
            } else {
                format!("{n} samples ({} per point)", count(self.repetitions, "run"))
            };
            lines.push(format!(
                "whiskers: {level}% confidence interval of the mean over {over}"
            ));
        }
        lines
    }

    /// How the tick labels of a bar chart sit: level, or rotated (with the
    /// extra room they need) when one is wider than its slot.
    fn bar_ticks(&self, rows: &[Row]) -> BarTicks {
        let cats = categories(rows);
        let plot_w = PANEL_W - PLOT_LEFT - PLOT_RIGHT;
        let (labels, slot): (Vec<&str>, f64) = if cats.len() == 1 {
            let n = self.series.len().max(1) as f64;
            (
                self.series.iter().map(String::as_str).collect(),
                plot_w * 0.8 / n,
            )
        } else {
            (cats.clone(), plot_w / cats.len().max(1) as f64)
        };
        let widest = labels.iter().map(|l| text_w(l, 11.0)).fold(0.0, f64::max);
        let rotate = widest > slot * 0.95;
        let extra = if rotate {
            let a = ROTATE.to_radians();
            (widest * a.sin() + 11.0 * a.cos() - 20.0).clamp(0.0, 140.0)
        } else {
            0.0
        };
        BarTicks { rotate, extra }
    }

    /// Renders the rows of data.csv as an SVG document.
    pub fn render(&self, rows: &[Row]) -> String {
        let columns = self.panels.len().clamp(1, COLUMNS);
        let grid_rows = self.panels.len().div_ceil(COLUMNS).max(1);
        let width = columns as f64 * PANEL_W;
        let ticks = if self.categorical {
            self.bar_ticks(rows)
        } else {
            BarTicks {
                rotate: false,
                extra: 0.0,
            }
        };
        let panel_h = PLOT_TOP + PLOT_H + PLOT_BOTTOM + ticks.extra;
        let mut body = String::new();
        // Long lines wrap at word boundaries (bold glyphs average about
        // 0.6 em, italic ones 0.55 em).
        let mut y = 6.0;
        for line in wrap(&self.title, width - 24.0, 16.0, 0.6) {
            y += 20.0;
            text(
                &mut body,
                width / 2.0,
                y,
                16,
                "middle",
                r#" font-weight="bold""#,
                &line,
            );
        }
        y += 4.0;
        for line in self
            .caption(rows)
            .iter()
            .flat_map(|c| wrap(c, width - 24.0, 12.0, 0.55))
        {
            y += CAPTION_LINE_H;
            text(
                &mut body,
                width / 2.0,
                y,
                12,
                "middle",
                r##" fill="#444" font-style="italic""##,
                &line,
            );
        }
        if let Some(notice) = &self.notice {
            let lines = wrap(notice, width - 32.0, 13.0, 0.62);
            let h = 9.0 + BANNER_LINE_H * lines.len() as f64;
            y += 8.0;
            let _ = writeln!(
                body,
                r##"<rect x="8" y="{y:.1}" width="{:.1}" height="{h:.1}" fill="#fde4e1" stroke="#b00020" stroke-width="1.5"/>"##,
                width - 16.0
            );
            for (i, line) in lines.iter().enumerate() {
                text(
                    &mut body,
                    width / 2.0,
                    y + BANNER_LINE_H * (i + 1) as f64,
                    13,
                    "middle",
                    r##" font-weight="bold" fill="#b00020""##,
                    line,
                );
            }
            y += h;
        }
        let legend = self.legend_lines(width);
        for items in &legend {
            y += LEGEND_LINE_H;
            self.legend_line(&mut body, width, items, y);
        }
        let header = y + 20.0;
        for (i, panel) in self.panels.iter().enumerate() {
            let ox = (i % COLUMNS) as f64 * PANEL_W;
            let oy = header + (i / COLUMNS) as f64 * panel_h;
            let mine: Vec<&Row> = rows.iter().filter(|r| r.panel == panel.id).collect();
            self.panel(&mut body, panel, &mine, ox, oy, &ticks);
        }
        let height = header + grid_rows as f64 * panel_h + 8.0;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{FONT}">"#
        );
        let _ = writeln!(out, "<title>{}</title>", esc(&self.title));
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        out.push_str(&body);
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
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{color}" stroke-width="2"{}/>"#,
                    y - 4.0,
                    x + 28.0,
                    y - 4.0,
                    dash(i)
                );
                marker(out, i, x + 14.0, y - 4.0, color);
            }
            text(out, x + 34.0, y, 13, "start", "", s);
            x += legend_item_w(s);
        }
    }

    fn panel(
        &self,
        out: &mut String,
        info: &PanelInfo,
        rows: &[&Row],
        ox: f64,
        oy: f64,
        ticks: &BarTicks,
    ) {
        let area = Area {
            left: ox + PLOT_LEFT,
            right: ox + PANEL_W - PLOT_RIGHT,
            top: oy + PLOT_TOP,
            bottom: oy + PLOT_TOP + PLOT_H,
        };
        // Centred over the plot if it fits there, else over the panel, in
        // a smaller font if need be (bold glyphs: about 0.64 em).
        let (cx, size) = title_place(&info.title, ox, &area);
        text(
            out,
            cx,
            oy + 20.0,
            size,
            "middle",
            r#" font-weight="bold""#,
            &info.title,
        );
        let cy = (area.top + area.bottom) / 2.0;
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
            (area.left + area.right) / 2.0,
            area.bottom + PLOT_BOTTOM - 14.0 + ticks.extra,
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
                (area.left + area.right) / 2.0,
                cy,
                13,
                "middle",
                r##" fill="#666""##,
                "no data",
            );
            return;
        }
        let (ys, yt) = y_axis(&finite, info.log_y, self.categorical, area.bottom, area.top);
        for (t, label) in &yt {
            let y = ys.at(*t);
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e0e0e0"/>"##,
                area.left, area.right
            );
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#333"/>"##,
                area.left - 4.0,
                area.left
            );
            text(out, area.left - 7.0, y + 4.0, 11, "end", "", label);
        }
        if self.categorical {
            self.bars(out, rows, ys, &area, ticks.rotate);
        } else {
            self.lines(out, rows, ys, &area);
        }
        let _ = writeln!(
            out,
            r##"<path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1}" stroke="#333" fill="none"/>"##,
            area.left, area.top, area.left, area.bottom, area.right, area.bottom
        );
    }

    fn bars(&self, out: &mut String, rows: &[&Row], ys: Scale, area: &Area, rotate: bool) {
        let cats = categories(rows.iter().copied());
        let single = cats.len() == 1;
        let group = area.width() / cats.len().max(1) as f64;
        let n = self.series.len().max(1) as f64;
        let bar = group * 0.8 / n;
        let zero = ys.base();
        let mut obstacles: Vec<Box2> = Vec::new();
        // (text, x, the end it goes beyond, above it) of each value label.
        let mut labels: Vec<(String, f64, f64, bool)> = Vec::new();
        for (ci, cat) in cats.iter().enumerate() {
            let gx = area.left + ci as f64 * group;
            for (si, s) in self.series.iter().enumerate() {
                let x = gx + group * 0.1 + si as f64 * bar;
                let cx = x + bar * 0.46;
                if single {
                    Self::category_tick(out, cx, area.bottom, s, rotate);
                }
                let Some(r) = rows.iter().find(|r| r.x == *cat && &r.series == s) else {
                    continue;
                };
                if !r.y.is_finite() {
                    continue;
                }
                let color = PALETTE[si % PALETTE.len()];
                let (y0, y1) = (ys.at(r.y).min(zero), ys.at(r.y).max(zero));
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="{color}"/>"#,
                    bar * 0.92,
                    y1 - y0
                );
                obstacles.push(Box2 {
                    x0: x,
                    y0,
                    x1: x + bar * 0.92,
                    y1,
                });
                // The label goes beyond whichever end is farther from zero:
                // the bar's or the whisker's.
                let up = ys.log || r.y >= 0.0;
                let mut end = ys.at(r.y);
                if let Some((lo, hi)) = r.ci {
                    let (lo, hi) = (ys.at(lo), ys.at(hi));
                    obstacles.push(whisker(out, cx, lo, hi, "#333"));
                    end = if up { end.min(hi) } else { end.max(lo) };
                }
                if bar >= LABEL_MIN_BAR {
                    labels.push((crate::report::fmt_short(r.y), cx, end, up));
                }
            }
            if !single {
                Self::category_tick(out, gx + group / 2.0, area.bottom, cat, rotate);
            }
        }
        if ys.d0 < 0.0 && ys.d1 > 0.0 && !ys.log {
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{zero:.1}" x2="{:.1}" y2="{zero:.1}" stroke="#333"/>"##,
                area.left, area.right
            );
        }
        for (s, cx, end, up) in labels {
            // 10 px digits: about 7.5 px above the baseline; 6 px clear of
            // the bar's or whisker's end.
            let baseline = if up { end - 6.0 } else { end + 6.0 + 7.5 };
            let w = text_w(&s, 10.0);
            let b = Box2 {
                x0: cx - w / 2.0 - 1.0,
                y0: baseline - 8.0,
                x1: cx + w / 2.0 + 1.0,
                y1: baseline + 1.0,
            };
            let inside = b.y0 >= area.top - 6.0 && b.y1 <= area.bottom - 1.0;
            if inside && !obstacles.iter().any(|o| o.overlaps(&b)) {
                text(out, cx, baseline, 10, "middle", r##" fill="#333""##, &s);
                obstacles.push(b);
            }
        }
    }

    /// A tick and its label under a bar or a group of bars.
    fn category_tick(out: &mut String, cx: f64, bottom: f64, label: &str, rotate: bool) {
        let _ = writeln!(
            out,
            r##"<line x1="{cx:.1}" y1="{bottom:.1}" x2="{cx:.1}" y2="{:.1}" stroke="#333"/>"##,
            bottom + 4.0
        );
        if rotate {
            let (x, y) = (cx + 3.0, bottom + 14.0);
            text(
                out,
                x,
                y,
                11,
                "end",
                &format!(r#" transform="rotate(-{ROTATE} {x:.1} {y:.1})""#),
                label,
            );
        } else {
            text(out, cx, bottom + 17.0, 11, "middle", "", label);
        }
    }

    fn lines(&self, out: &mut String, rows: &[&Row], ys: Scale, area: &Area) {
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
        let (d0, d1, xt) = if xv.is_empty() {
            fit(0.0, 1.0, 0.0, 0.0)
        } else {
            fit(x_lo, x_hi, 0.0, 0.0)
        };
        let xs = Scale {
            d0,
            d1,
            p0: area.left + 14.0,
            p1: area.right - 14.0,
            log: false,
        };
        for (t, label) in xt.iter().zip(tick_labels(&xt)) {
            let x = xs.at(*t);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#333"/>"##,
                area.bottom,
                area.bottom + 4.0
            );
            text(out, x, area.bottom + 17.0, 11, "middle", "", &label);
        }
        // Series at one x move apart by up to DODGE px (less where the
        // points are close), centred on the true x.
        let mut px: Vec<f64> = xv.iter().map(|v| xs.at(*v)).collect();
        px.sort_by(f64::total_cmp);
        px.dedup_by(|a, b| (*a - *b).abs() < 0.05);
        let gap = px
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(area.width(), f64::min);
        let n = self.series.len();
        let step = DODGE.min(0.6 * gap / n.max(1) as f64);
        let series: Vec<Vec<(f64, &Row)>> = self
            .series
            .iter()
            .map(|s| {
                let mut pts: Vec<(f64, &Row)> = rows
                    .iter()
                    .filter(|r| &r.series == s && r.y.is_finite())
                    .filter_map(|r| r.x.parse::<f64>().ok().map(|x| (x, *r)))
                    .collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                pts
            })
            .collect();
        let dodge = |si: usize| (si as f64 - (n as f64 - 1.0) / 2.0) * step;
        // Lines first, then whiskers and markers, so no line hides a marker.
        for (si, pts) in series.iter().enumerate() {
            let path: Vec<String> = pts
                .iter()
                .map(|(x, r)| format!("{:.1},{:.1}", xs.at(*x) + dodge(si), ys.at(r.y)))
                .collect();
            if path.len() > 1 {
                let _ = writeln!(
                    out,
                    r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{}/>"#,
                    path.join(" "),
                    PALETTE[si % PALETTE.len()],
                    dash(si)
                );
            }
        }
        for (si, pts) in series.iter().enumerate() {
            let color = PALETTE[si % PALETTE.len()];
            for (x, r) in pts {
                let px = xs.at(*x) + dodge(si);
                if let Some((lo, hi)) = r.ci {
                    whisker(out, px, ys.at(lo), ys.at(hi), color);
                }
                marker(out, si, px, ys.at(r.y), color);
            }
        }
    }
}

/// The plot area of a panel, in pixels.
struct Area {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl Area {
    fn width(&self) -> f64 {
        self.right - self.left
    }
}

/// Where a panel's title goes (its centre) and its font size: 14 px over
/// the plot area, else over the whole panel, shrinking down to 10 px.
fn title_place(title: &str, ox: f64, area: &Area) -> (f64, u32) {
    let w = |size: f64| title.chars().count() as f64 * size * 0.64;
    let centre = (area.left + area.right) / 2.0;
    if w(14.0) <= 2.0 * (ox + PANEL_W - centre) - 8.0 {
        return (centre, 14);
    }
    let room = PANEL_W - 16.0;
    let size = (14.0 * room / w(14.0)).floor().clamp(10.0, 14.0);
    (ox + PANEL_W / 2.0, size as u32)
}

/// `s` in lines of at most `width` px at `size` px (glyphs averaging `em`
/// of the size), broken between words; a longer word keeps a line alone.
fn wrap(s: &str, width: f64, size: f64, em: f64) -> Vec<String> {
    let fits = |t: &str| t.chars().count() as f64 * size * em <= width;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        if line.is_empty() {
            line = word.to_string();
        } else if fits(&format!("{line} {word}")) {
            line = format!("{line} {word}");
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The banner text when a stand-in replaced a trace: which workloads.
fn stand_in_notice(workloads: &[WorkloadFacts]) -> Option<String> {
    let mut labels: Vec<&str> = Vec::new();
    for w in workloads.iter().filter(|w| w.stand_in) {
        if !labels.contains(&w.label.as_str()) {
            labels.push(&w.label);
        }
    }
    (!labels.is_empty()).then(|| {
        format!(
            "STAND-IN WORKLOAD: not comparable to the paper ({} replaced by a synthetic workload)",
            labels.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        // The axis ends at the data unless a tick is near.
        assert_eq!(
            fit(0.0, 9.3, 0.0, 0.0),
            (0.0, 9.3, vec![0.0, 2.0, 4.0, 6.0, 8.0])
        );
        assert_eq!(fit(0.0, 9.5, 0.0, 0.0).1, 10.0);
        let unit = fit(0.0, 1.0, 0.0, 0.0).2;
        assert_eq!(unit, vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]);
        assert_eq!(
            tick_labels(&unit),
            vec!["0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        assert_eq!(
            tick_labels(&fit(0.0, 25000.0, 0.0, 0.0).2),
            vec!["0", "5k", "10k", "15k", "20k", "25k"]
        );
        assert_eq!(
            tick_labels(&fit(0.0, 1.6e6, 0.0, 0.0).2),
            vec!["0", "0.5M", "1.0M", "1.5M"]
        );
        let labels: Vec<String> = (-2..=7).map(decade_label).collect();
        assert_eq!(
            labels,
            [
                "0.01", "0.1", "1", "10", "100", "1000", "10k", "100k", "1M", "10M"
            ]
        );
        // A single value gets a range around it; zero gets [0, 1].
        let (d0, d1, _) = fit(5.0, 5.0, 0.0, 0.0);
        assert!(d0 < 5.0 && d1 > 5.0, "{d0} {d1}");
        assert_eq!(fit(0.0, 0.0, 0.0, 0.0).2, unit);
        assert_eq!(fit(0.6, 1.2, 0.0, 0.0).2.first(), Some(&0.6000000000000001));
        // Labels of ticks that cross zero by a rounding error say 0.
        assert_eq!(tick_labels(&[-0.1, 1e-17, 0.1]), vec!["-0.1", "0", "0.1"]);
    }

    /// The fitted axis: ends (lo, hi) and ticks of data in [lo, hi].
    fn check_fit(lo: f64, hi: f64, bars: bool, ends: (f64, f64), ticks: &[f64]) {
        let (scale, t) = y_axis(&[lo, hi], false, bars, 100.0, 0.0);
        let got: Vec<f64> = t.iter().map(|(v, _)| *v).collect();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6 * (1.0 + b.abs());
        assert!(
            close(scale.d0, ends.0) && close(scale.d1, ends.1),
            "[{lo}, {hi}] bars={bars}: axis [{}, {}], expected {ends:?}",
            scale.d0,
            scale.d1
        );
        assert_eq!(got.len(), ticks.len(), "{got:?}");
        for (g, w) in got.iter().zip(ticks) {
            assert!(close(*g, *w), "{got:?} != {ticks:?}");
        }
    }

    #[test]
    fn axis_ranges_fit_the_data() {
        // Bars of a ratio whose lowest whisker dips to -1.5: the axis stops
        // just below it instead of running to -10, and shows no negative tick.
        check_fit(
            -1.5,
            38.2,
            true,
            (-5.073, 41.773),
            &[0.0, 10.0, 20.0, 30.0, 40.0],
        );
        // Positive bars start at zero and get room above for value labels.
        check_fit(
            1.0,
            9.4,
            true,
            (0.0, 10.246),
            &[0.0, 2.0, 4.0, 6.0, 8.0, 10.0],
        );
        // Lines fit the data, without zero: profit between 35k and 51k.
        check_fit(
            35_000.0,
            51_000.0,
            false,
            (34_200.0, 51_800.0),
            &[35e3, 40e3, 45e3, 50e3],
        );
        // Non-negative lines that touch zero pad below it, but no tick is negative.
        let (scale, t) = y_axis(&[0.0, 22.5], false, false, 100.0, 0.0);
        assert!(scale.d0 < 0.0 && scale.d0 > -2.0, "{}", scale.d0);
        assert!(t.iter().all(|(v, _)| *v >= 0.0), "{t:?}");
        // All-negative bars end at zero.
        check_fit(
            -8.0,
            -2.0,
            true,
            (-8.72, 0.0),
            &[-8.0, -6.0, -4.0, -2.0, 0.0],
        );
    }

    fn row(panel: &str, series: &str, x: &str, y: f64, ci: Option<(f64, f64)>, runs: u32) -> Row {
        Row {
            panel: panel.into(),
            series: series.into(),
            x: x.into(),
            y,
            ci,
            runs,
        }
    }

    fn figure(categorical: bool, series: &[&str]) -> Figure {
        Figure {
            title: "Profit gain according to cluster load".into(),
            x_label: "policy".into(),
            categorical,
            series: series.iter().map(|s| s.to_string()).collect(),
            panels: vec![PanelInfo {
                id: "p".into(),
                title: "(a) Grid jobs".into(),
                y_label: "average R".into(),
                log_y: false,
            }],
            confidence: 0.95,
            repetitions: 10,
            notice: None,
        }
    }

    /// The text of every `<text>` element, in order.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text ")
            .skip(1)
            .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.to_string()))
            .collect()
    }

    #[test]
    fn long_lines_wrap_between_words() {
        let check = |s: &str, width: f64, expected: &[&str]| {
            assert_eq!(wrap(s, width, 10.0, 0.5), expected, "{s} in {width} px");
        };
        check("", 100.0, &[""]);
        check("one two three", 100.0, &["one two three"]);
        // 5 px a character: "one two" is 35 px.
        check("one two three", 35.0, &["one two", "three"]);
        check("one two three", 20.0, &["one", "two", "three"]);
        check("extraordinary a", 20.0, &["extraordinary", "a"]);
    }

    #[test]
    fn caption_says_what_the_whiskers_are() {
        let check = |fig: &Figure, rows: &[Row], expected: &[&str]| {
            assert_eq!(fig.caption(rows), expected);
            // Drawn in italics under the title, wrapped to the width.
            let svg = fig.render(rows);
            let drawn: Vec<String> = svg
                .lines()
                .filter(|l| l.contains("font-style=\"italic\""))
                .flat_map(texts)
                .collect();
            assert_eq!(drawn.join(" "), esc(&expected.join(" ")));
        };
        let fig = figure(false, &["a", "b"]);
        let ten = [
            row("p", "a", "1", 1.0, Some((0.5, 1.5)), 10),
            row("p", "b", "1", 2.0, Some((1.5, 2.5)), 10),
        ];
        check(
            &fig,
            &ten,
            &["whiskers: 95% confidence interval of the mean over 10 runs"],
        );
        let adaptive = Figure {
            confidence: 0.90,
            repetitions: 1,
            ..fig.clone()
        };
        let samples = [row("p", "a", "1", 1.0, Some((0.5, 1.5)), 41)];
        check(
            &adaptive,
            &samples,
            &["whiskers: 90% confidence interval of the mean over 41 samples (one run per point)"],
        );
        // One run per point: no whiskers, and the caption says so.
        let single = [row("p", "a", "1", 1.0, None, 1)];
        check(&fig, &single, &["one run per point: no whiskers"]);
        assert!(!fig.render(&single).contains("stroke-width=\"1.2\""));
        // A bar chart with one category names it in the caption.
        let bars = figure(true, &["a", "b"]);
        let one_cat = [
            row("p", "a", "DAS-2, slots every 2 h", 1.0, Some((0.5, 1.5)), 5),
            row("p", "b", "DAS-2, slots every 2 h", 2.0, Some((1.5, 2.5)), 5),
        ];
        let five = Figure {
            repetitions: 5,
            ..bars
        };
        check(
            &five,
            &one_cat,
            &[
                "workload: DAS-2, slots every 2 h",
                "whiskers: 95% confidence interval of the mean over 5 runs",
            ],
        );
    }

    #[test]
    fn bar_charts_have_one_tick_label_per_category() {
        let fig = figure(true, &["fcfs", "easy", "conservative"]);
        let mut rows = Vec::new();
        for (x, base) in [("SDSC-SP2", 10.0), ("KTH-SP2", 20.0)] {
            for (i, s) in fig.series.iter().enumerate() {
                rows.push(row("p", s, x, base + i as f64, None, 1));
            }
        }
        let svg = fig.render(&rows);
        let t = texts(&svg);
        for cat in ["SDSC-SP2", "KTH-SP2"] {
            assert_eq!(t.iter().filter(|s| *s == cat).count(), 1, "{cat}: {t:?}");
        }
        // Legend entries only: the bars are not labelled by series.
        assert_eq!(t.iter().filter(|s| *s == "easy").count(), 1);
        // A single category: one label per bar, by series, plus the legend.
        let single: Vec<Row> = rows.iter().filter(|r| r.x == "KTH-SP2").cloned().collect();
        let t = texts(&fig.render(&single));
        for s in &fig.series {
            assert_eq!(t.iter().filter(|x| *x == s).count(), 2, "{s}: {t:?}");
        }
        assert!(!t.iter().any(|x| x == "KTH-SP2"), "{t:?}");
        assert!(t.iter().any(|x| x == "workload: KTH-SP2"), "{t:?}");
        // Long series names under narrow bars are rotated, and the figure
        // grows to hold them.
        let long = figure(
            true,
            &[
                "arcb+least-load",
                "arcbm+least-load",
                "arebm+least-load",
                "arcbm+earliest-partial",
            ],
        );
        let rows: Vec<Row> = long
            .series
            .iter()
            .map(|s| row("p", s, "DAS-2", 1.0, None, 1))
            .collect();
        let svg = long.render(&rows);
        assert!(svg.contains("rotate(-35"), "{svg}");
        let height = |svg: &str| -> f64 {
            let h = svg.split("height=\"").nth(1).unwrap();
            h[..h.find('"').unwrap()].parse().unwrap()
        };
        assert!(height(&svg) > height(&fig.render(&single)));
    }

    #[test]
    fn series_have_distinct_markers_and_dashes() {
        let names: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
        let mut shapes: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let mut out = String::new();
                marker(&mut out, i, 0.0, 0.0, "#000");
                out
            })
            .collect();
        shapes.sort();
        shapes.dedup();
        assert_eq!(shapes.len(), 8, "{shapes:?}");
        // Coincident series (the same values) are dodged apart and drawn
        // with different dash patterns.
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let fig = figure(false, &refs);
        let rows: Vec<Row> = names
            .iter()
            .flat_map(|s| ["0", "50"].map(|x| row("p", s, x, 5.0, Some((4.0, 6.0)), 10)))
            .collect();
        let svg = fig.render(&rows);
        let lines: Vec<&str> = svg.lines().filter(|l| l.starts_with("<polyline")).collect();
        assert_eq!(lines.len(), 8);
        let mut points: Vec<&str> = lines.iter().map(|l| l.split('"').nth(1).unwrap()).collect();
        points.sort();
        points.dedup();
        assert_eq!(
            points.len(),
            8,
            "coincident lines are not dodged: {points:?}"
        );
        let dashed = lines
            .iter()
            .filter(|l| l.contains("stroke-dasharray"))
            .count();
        assert_eq!(dashed, 6);
    }

    #[test]
    fn value_labels_stay_clear_of_whisker_caps() {
        let fig = figure(true, &["a", "b"]);
        let rows = [
            row("p", "a", "c", 10.0, Some((5.0, 15.0)), 10),
            row("p", "b", "c", -2.0, Some((-6.0, 2.0)), 10),
        ];
        let svg = fig.render(&rows);
        // Every value label's baseline is at least 6 px beyond the whisker
        // end on its side.
        let caps: Vec<f64> = svg
            .lines()
            .filter(|l| l.contains(r#"stroke-width="1.2""#))
            .flat_map(|l| {
                let d = l.split("d=\"").nth(1).unwrap();
                let d = &d[..d.find('"').unwrap()];
                d.split(['M', 'L', ' '])
                    .filter_map(|p| p.split_once(',').map(|(_, y)| y.parse::<f64>().unwrap()))
                    .collect::<Vec<f64>>()
            })
            .collect();
        let labels: Vec<f64> = svg
            .lines()
            .filter(|l| l.starts_with("<text") && l.contains(r#"font-size="10""#))
            .map(|l| {
                let y = l.split("y=\"").nth(1).unwrap();
                y[..y.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(labels.len(), 2, "{svg}");
        for y in labels {
            for c in &caps {
                assert!(
                    y <= c - 6.0 || y - 7.5 >= c + 5.9,
                    "label at {y} sits on a cap at {c}"
                );
            }
        }
    }

    #[test]
    fn stand_in_is_a_banner_and_titles_carry_no_ids() {
        let mut fig = figure(false, &["a"]);
        let rows = [row("p", "a", "1", 1.0, None, 1)];
        assert!(!fig.render(&rows).contains("STAND-IN"));
        fig.notice = Some("STAND-IN WORKLOAD: not comparable to the paper".into());
        let svg = fig.render(&rows);
        assert!(
            texts(&svg)
                .iter()
                .any(|t| t.starts_with("STAND-IN WORKLOAD"))
        );
        assert!(svg.contains(r##"stroke="#b00020""##));
        assert_eq!(
            texts(&svg)[0],
            "Profit gain according to cluster load",
            "the title is the experiment's title"
        );
    }
}
