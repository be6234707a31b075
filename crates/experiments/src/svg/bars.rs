//! Bar panels (categorical x): grouped bars, one tick label per category
//! (or per bar when there is one category), rotated when too wide, and
//! value labels placed clear of bars and whisker ends.

use std::fmt::Write as _;

use super::axis::Scale;
use super::text::{text, text_w};
use super::{Area, Box2, Figure, PALETTE, PANEL_W, PLOT_LEFT, PLOT_RIGHT, whisker};
use crate::csv::Row;

/// Angle of tick labels too long to sit level (degrees, clockwise up).
const ROTATE: f64 = 35.0;
/// Value labels are drawn on bars at least this wide.
const LABEL_MIN_BAR: f64 = 26.0;

/// The categories of a bar chart, in order of first appearance.
pub(super) fn categories<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Vec<&'a str> {
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
pub(super) struct BarTicks {
    pub(super) rotate: bool,
    pub(super) extra: f64,
}

impl Figure {
    /// How the tick labels of a bar chart sit: level, or rotated (with the
    /// extra room they need) when one is wider than its slot.
    pub(super) fn bar_ticks(&self, rows: &[Row]) -> BarTicks {
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

    pub(super) fn bars(
        &self,
        out: &mut String,
        rows: &[&Row],
        ys: Scale,
        area: &Area,
        rotate: bool,
    ) {
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
                    labels.push((crate::numfmt::fmt_short(r.y), cx, end, up));
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
    pub(super) fn category_tick(out: &mut String, cx: f64, bottom: f64, label: &str, rotate: bool) {
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
}
