//! Line panels (numeric x): a colour, marker shape and dash pattern per
//! series, whiskers, and the series dodged a few pixels apart at each x so
//! coincident series stay visible.

use std::fmt::Write as _;

use super::axis::{Scale, fit, log_x_axis, tick_labels};
use super::text::text;
use super::{Area, Figure, PALETTE, whisker};
use crate::csv::Row;

/// Line dash patterns, in turn: with the colour and the marker they tell
/// series apart where lines coincide.
const DASHES: [&str; 4] = ["", "7 3", "2 2.5", "9 3 2 3"];
/// Marker shapes (five outlines, each filled and hollow).
const MARKERS: usize = 10;
/// Horizontal distance between series at one x, in pixels (at most).
const DODGE: f64 = 4.0;

/// Marker `shape` (any index; shapes repeat after [`MARKERS`]) at `(x, y)`.
pub(super) fn marker(out: &mut String, shape: usize, x: f64, y: f64, color: &str) {
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
pub(super) fn dash(i: usize) -> String {
    match DASHES[i % DASHES.len()] {
        "" => String::new(),
        d => format!(r#" stroke-dasharray="{d}""#),
    }
}

impl Figure {
    pub(super) fn lines(&self, out: &mut String, rows: &[&Row], ys: Scale, area: &Area) {
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
        let (d0, d1, ticks) = if self.log_x {
            log_x_axis(&xv)
        } else {
            let (d0, d1, xt) = if xv.is_empty() {
                fit(0.0, 1.0, 0.0, 0.0)
            } else {
                fit(x_lo, x_hi, 0.0, 0.0)
            };
            let labels = tick_labels(&xt);
            (d0, d1, xt.into_iter().zip(labels).collect())
        };
        let xs = Scale {
            d0,
            d1,
            p0: area.left + 14.0,
            p1: area.right - 14.0,
            log: self.log_x,
        };
        for (t, label) in &ticks {
            let x = xs.at(*t);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#333"/>"##,
                area.bottom,
                area.bottom + 4.0
            );
            text(out, x, area.bottom + 17.0, 11, "middle", "", label);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_have_distinct_markers() {
        let mut shapes: Vec<String> = (0..8)
            .map(|i| {
                let mut out = String::new();
                marker(&mut out, i, 0.0, 0.0, "#000");
                out
            })
            .collect();
        shapes.sort();
        shapes.dedup();
        assert_eq!(shapes.len(), 8, "{shapes:?}");
    }
}
