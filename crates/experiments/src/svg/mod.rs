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
//!
//! The figure and its layout (title, caption, banner, legend, panel grid)
//! live here; `axis` fits ranges and ticks, `lines` and `bars` draw the two
//! kinds of panel, and `text` measures, escapes and wraps text.

mod axis;
mod bars;
mod lines;
mod text;

pub(crate) use text::esc;

use std::fmt::Write as _;

use crate::csv::{PanelRows, Row};
use crate::figure::{Figure, PanelInfo};
use axis::y_axis;
use bars::{BarTicks, categories};
use lines::{dash, marker};
use text::{count, text, text_w, wrap};

/// Okabe–Ito colours (colour-blind safe), yellow left out for contrast.
const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
];
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
/// Height of each legend line.
const LEGEND_LINE_H: f64 = 22.0;
/// Height of each caption line.
const CAPTION_LINE_H: f64 = 17.0;
/// Height of each line of the notice banner.
const BANNER_LINE_H: f64 = 17.0;
/// Half the width of a whisker cap.
const CAP: f64 = 3.5;

/// Width of one legend entry: marker, name and gap.
fn legend_item_w(s: &str) -> f64 {
    34.0 + text_w(s, 13.0) + 16.0
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

impl Figure {
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
        let by_panel = PanelRows::new(rows);
        for (i, panel) in self.panels.iter().enumerate() {
            let ox = (i % COLUMNS) as f64 * PANEL_W;
            let oy = header + (i / COLUMNS) as f64 * panel_h;
            self.panel(&mut body, panel, by_panel.of(&panel.id), ox, oy, &ticks);
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
