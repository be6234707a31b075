//! Pictures of one simulated schedule, written by hand as SVG: a Gantt
//! chart (processor ids by time, one rectangle per job and allocated
//! interval) and a timeline (utilisation and queue length over time), the
//! two views evalys, Batsim and AccaSim draw.
//!
//! Times are on the trace's own submit-time scale (seconds from its
//! start). The output depends only on the input; coordinates carry two
//! decimals.

use crate::svg::esc;
use std::fmt::Write as _;

use profile::{Job, Outcome, ProcSet, Status};

const WIDTH: f64 = 1200.0;
const LEFT: f64 = 78.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 66.0;
const BOTTOM: f64 = 58.0;
const FONT: &str = "Helvetica, Arial, sans-serif";
/// Job fills (Okabe–Ito without vermilion, which marks killed jobs, and
/// black): colours only tell neighbouring jobs apart.
const FILLS: [&str; 6] = [
    "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#999999",
];
const KILLED: &str = "#D55E00";
/// Narrower jobs are drawn this wide, so short jobs stay visible.
const MIN_RECT_W: f64 = 1.0;
const DAY: i64 = 86_400;

/// One simulated schedule, as the Gantt chart and the timeline need it.
///
/// `outcomes[i]` belongs to `jobs[i]` (as `profile::simulate` returns
/// them). A window is `(start, end)` in seconds, half-open.
#[derive(Debug, Clone, Copy)]
pub struct ScheduleView<'a> {
    /// Title line (trace and policy, say).
    pub title: &'a str,
    /// Machine size in processors.
    pub capacity: u32,
    /// The jobs.
    pub jobs: &'a [Job],
    /// Their outcomes.
    pub outcomes: &'a [Outcome],
}

/// Whether outcome `o` ran inside `[t0, t1)`: its run overlaps the window,
/// or (zero seconds long) it started inside it.
fn runs_in(o: &Outcome, (t0, t1): (i64, i64)) -> bool {
    o.status != Status::Dropped
        && if o.end > o.start {
            o.start.0 < t1 && o.end.0 > t0
        } else {
            o.start.0 >= t0 && o.start.0 < t1
        }
}

impl ScheduleView<'_> {
    /// The whole schedule: first submission to last end (`(0, 1)` if empty).
    pub fn span(&self) -> (i64, i64) {
        let t0 = self.jobs.iter().map(|j| j.submit.0).min().unwrap_or(0);
        let t1 = self.outcomes.iter().map(|o| o.end.0).max().unwrap_or(t0);
        (t0, t1.max(t0.saturating_add(1)))
    }

    /// Jobs that ran (at least partly) in `window`: those the Gantt chart draws.
    pub fn jobs_in(&self, window: (i64, i64)) -> usize {
        self.outcomes.iter().filter(|o| runs_in(o, window)).count()
    }

    /// The Gantt chart of `window`: processor ids (0 at the bottom) by
    /// time, one `<rect>` per job and interval of its `allocation`
    /// (`allocation[i]` belongs to `jobs[i]`, from [`profile::first_fit`]),
    /// clipped to the window and at least 1 px wide. Each
    /// rectangle carries `data-job`, `data-start`, `data-end` (seconds) and
    /// `data-procs` (its interval); the root carries `data-window` (`t0
    /// t1`) and `data-plot` (`left top right bottom` in px) so tools and
    /// tests can check positions. Killed jobs have a vermilion outline.
    pub fn gantt_svg(&self, allocation: &[ProcSet], window: (i64, i64)) -> String {
        let window = proper(window);
        let plot_h = (f64::from(self.capacity) * 4.0).clamp(240.0, 800.0);
        let frame = Frame::new(window, TOP, plot_h);
        let inside = self.jobs_in(window);
        let mut out = String::new();
        frame.open(
            &mut out,
            self.title,
            &format!(
                "Gantt chart: {} · {inside} jobs ran in it · colours tell neighbouring jobs apart, \
                 a vermilion outline marks a job killed at its estimate",
                frame.describe()
            ),
        );
        let cap = f64::from(self.capacity.max(1));
        let y_at = |p: f64| frame.bottom - p / cap * plot_h;
        let ticks = nice_ticks(cap);
        for &t in ticks.iter().filter(|&&t| t < cap) {
            // Tick at the middle of processor row t.
            let y = y_at(t + 0.5);
            let _ = writeln!(
                out,
                r##"<line x1="{:.2}" y1="{y:.2}" x2="{LEFT:.2}" y2="{y:.2}" stroke="#333"/>"##,
                LEFT - 4.0
            );
            text(&mut out, LEFT - 7.0, y + 4.0, 11, "end", "", &fmt_tick(t));
        }
        frame.y_title(
            &mut out,
            &format!("processor id (0 to {})", self.capacity.saturating_sub(1)),
        );
        for (i, (job, o)) in self.jobs.iter().zip(self.outcomes).enumerate() {
            if !runs_in(o, window) {
                continue;
            }
            let Some(set) = allocation.get(i) else {
                continue;
            };
            let x0 = frame.x_at(o.start.0.max(window.0));
            let x1 = frame.x_at(o.end.0.min(window.1));
            let w = (x1 - x0).max(MIN_RECT_W);
            let fill = FILLS[i % FILLS.len()];
            let stroke = if o.status == Status::Killed {
                format!(r#" stroke="{KILLED}" stroke-width="1""#)
            } else {
                r##" stroke="#fff" stroke-width="0.3""##.to_string()
            };
            for &(a, b) in set.intervals() {
                let y = y_at(f64::from(b) + 1.0);
                let h = f64::from(b - a + 1) / cap * plot_h;
                let procs = if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                };
                let _ = writeln!(
                    out,
                    r#"<rect data-job="{id}" data-start="{s}" data-end="{e}" data-procs="{procs}" x="{x0:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{fill}" fill-opacity="0.9"{stroke}><title>job {id}: {n} processors ({set}), submitted {sub} s, ran {s} to {e} s, waited {wait} s</title></rect>"#,
                    id = job.id,
                    s = o.start.0,
                    e = o.end.0,
                    n = job.procs,
                    sub = job.submit.0,
                    wait = o.start.0.saturating_sub(job.submit.0),
                );
            }
        }
        frame.close(&mut out);
        out
    }

    /// Utilisation (busy processors over the machine, %) and queue length
    /// (jobs submitted and not yet started) over `window`, as two stacked
    /// panels on one time axis. Each pixel column shows the time-weighted
    /// mean over its span as a line and the minimum to maximum as a band,
    /// so changes faster than a pixel are not lost.
    pub fn timeline_svg(&self, window: (i64, i64)) -> String {
        let window = proper(window);
        let span = window.1.saturating_sub(window.0);
        const PANEL_H: f64 = 230.0;
        const GAP: f64 = 46.0;
        // Room for the first panel's title under the subtitle.
        let frame = Frame::new(window, TOP + 22.0, 2.0 * PANEL_H + GAP);
        let columns = usize::try_from(span.min(frame.right as i64 - LEFT as i64))
            .unwrap_or(1)
            .max(1);
        let mut busy = Vec::new();
        let mut queue = Vec::new();
        for (job, o) in self.jobs.iter().zip(self.outcomes) {
            if o.status != Status::Dropped && o.end > o.start {
                busy.push((o.start.0, i64::from(job.procs)));
                busy.push((o.end.0, -i64::from(job.procs)));
            }
            if o.start > job.submit {
                queue.push((job.submit.0, 1));
                queue.push((o.start.0, -1));
            }
        }
        let busy = buckets(&steps(busy), window, columns);
        let queue = buckets(&steps(queue), window, columns);
        let cap = f64::from(self.capacity.max(1));
        let mean_of = |b: &[Bucket]| {
            let total: f64 = b.iter().map(|b| b.mean * (b.t1 as f64 - b.t0 as f64)).sum();
            total / span as f64
        };
        let mut out = String::new();
        frame.open(
            &mut out,
            self.title,
            &format!(
                "Timeline: {} · line: mean per pixel column ({} s), band: minimum to maximum",
                frame.describe(),
                span / columns as i64
            ),
        );
        let panels = [
            (
                format!(
                    "utilisation (% of {} processors busy), mean {:.1} %",
                    self.capacity,
                    100.0 * mean_of(&busy) / cap
                ),
                "utilisation (%)",
                busy.iter()
                    .map(|b| Bucket {
                        mean: 100.0 * b.mean / cap,
                        lo: 100.0 * b.lo / cap,
                        hi: 100.0 * b.hi / cap,
                        ..*b
                    })
                    .collect::<Vec<_>>(),
                100.0,
                "#0072B2",
            ),
            (
                format!("queue length (jobs waiting), mean {:.1}", mean_of(&queue)),
                "queue length (jobs)",
                queue.clone(),
                queue.iter().fold(1.0f64, |m, b| m.max(b.hi)),
                "#D55E00",
            ),
        ];
        for (k, (title, y_label, data, top, colour)) in panels.iter().enumerate() {
            let bottom = frame.top + PANEL_H * (k as f64 + 1.0) + GAP * k as f64;
            let ticks = nice_ticks(*top);
            let y_max = ticks.last().copied().unwrap_or(*top).max(*top);
            let y_at = |v: f64| bottom - v / y_max * PANEL_H;
            text(
                &mut out,
                LEFT,
                bottom - PANEL_H - 8.0,
                13,
                "start",
                r#" font-weight="bold""#,
                title,
            );
            let _ = writeln!(
                out,
                r##"<rect x="{LEFT:.2}" y="{:.2}" width="{:.2}" height="{PANEL_H:.2}" fill="none" stroke="#333"/>"##,
                bottom - PANEL_H,
                frame.right - LEFT
            );
            for &t in &ticks {
                let y = y_at(t);
                let _ = writeln!(
                    out,
                    r##"<line x1="{:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" stroke="#ddd"/>"##,
                    LEFT, frame.right
                );
                text(&mut out, LEFT - 7.0, y + 4.0, 11, "end", "", &fmt_tick(t));
            }
            let mid = bottom - PANEL_H / 2.0;
            let _ = writeln!(
                out,
                r#"<text x="18" y="{mid:.2}" font-size="12" text-anchor="middle" transform="rotate(-90 18 {mid:.2})">{}</text>"#,
                esc(y_label)
            );
            let mut band = String::new();
            let mut line = String::new();
            for b in data {
                let (x0, x1) = (frame.x_at(b.t0), frame.x_at(b.t1));
                let _ = write!(
                    line,
                    "{x0:.2},{:.2} {x1:.2},{:.2} ",
                    y_at(b.mean),
                    y_at(b.mean)
                );
                let _ = write!(band, "{x0:.2},{:.2} {x1:.2},{:.2} ", y_at(b.hi), y_at(b.hi));
            }
            for b in data.iter().rev() {
                let (x0, x1) = (frame.x_at(b.t0), frame.x_at(b.t1));
                let _ = write!(band, "{x1:.2},{:.2} {x0:.2},{:.2} ", y_at(b.lo), y_at(b.lo));
            }
            let _ = writeln!(
                out,
                r#"<polygon points="{}" fill="{colour}" fill-opacity="0.25" stroke="none"/>"#,
                band.trim_end()
            );
            let _ = writeln!(
                out,
                r#"<polyline data-series="{}" points="{}" fill="none" stroke="{colour}" stroke-width="1.2"/>"#,
                if k == 0 { "utilisation" } else { "queue" },
                line.trim_end()
            );
        }
        frame.close(&mut out);
        out
    }
}

/// A window with `end > start`.
fn proper((t0, t1): (i64, i64)) -> (i64, i64) {
    let t0 = t0.min(i64::MAX - 1);
    (t0, t1.max(t0 + 1))
}

/// The page: title, a time axis along the bottom of a plot area of
/// `plot_h` px, and the grid of the time ticks.
struct Frame {
    window: (i64, i64),
    top: f64,
    bottom: f64,
    right: f64,
    height: f64,
}

impl Frame {
    fn new(window: (i64, i64), top: f64, plot_h: f64) -> Frame {
        Frame {
            window,
            top,
            bottom: top + plot_h,
            right: WIDTH - RIGHT,
            height: top + plot_h + BOTTOM,
        }
    }

    fn x_at(&self, t: i64) -> f64 {
        let (t0, t1) = self.window;
        LEFT + (t as f64 - t0 as f64) / (t1 as f64 - t0 as f64) * (self.right - LEFT)
    }

    /// "days 100.0 to 107.0 of the trace (8640000 to 9244800 s)".
    fn describe(&self) -> String {
        let (t0, t1) = self.window;
        format!(
            "days {:.1} to {:.1} of the trace ({t0} to {t1} s)",
            t0 as f64 / DAY as f64,
            t1 as f64 / DAY as f64
        )
    }

    fn open(&self, out: &mut String, title: &str, subtitle: &str) {
        let (t0, t1) = self.window;
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0}" height="{h:.0}" viewBox="0 0 {WIDTH:.0} {h:.0}" font-family="{FONT}" data-window="{t0} {t1}" data-plot="{LEFT:.2} {top:.2} {right:.2} {bottom:.2}">"#,
            h = self.height,
            top = self.top,
            right = self.right,
            bottom = self.bottom,
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        text(
            out,
            LEFT,
            24.0,
            16,
            "start",
            r#" font-weight="bold""#,
            title,
        );
        text(out, LEFT, 44.0, 12, "start", r##" fill="#444""##, subtitle);
        let (step, unit, name) = time_step(t1.saturating_sub(t0));
        let first = t0.div_euclid(step) + i64::from(t0.rem_euclid(step) != 0);
        let mut k = first;
        while let Some(t) = k.checked_mul(step).filter(|&t| t <= t1) {
            let x = self.x_at(t);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.2}" y1="{:.2}" x2="{x:.2}" y2="{:.2}" stroke="#ddd"/>"##,
                self.top, self.bottom
            );
            let _ = writeln!(
                out,
                r##"<line x1="{x:.2}" y1="{b:.2}" x2="{x:.2}" y2="{:.2}" stroke="#333"/>"##,
                self.bottom + 4.0,
                b = self.bottom
            );
            text(
                out,
                x,
                self.bottom + 17.0,
                11,
                "middle",
                "",
                &(t / unit).to_string(),
            );
            let Some(next) = k.checked_add(1) else { break };
            k = next;
        }
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT:.2}" y1="{b:.2}" x2="{r:.2}" y2="{b:.2}" stroke="#333"/>"##,
            b = self.bottom,
            r = self.right
        );
        text(
            out,
            (LEFT + self.right) / 2.0,
            self.bottom + 40.0,
            12,
            "middle",
            "",
            &format!("time since the start of the trace ({name})"),
        );
    }

    fn y_title(&self, out: &mut String, label: &str) {
        let mid = (self.top + self.bottom) / 2.0;
        let _ = writeln!(
            out,
            r#"<text x="18" y="{mid:.2}" font-size="12" text-anchor="middle" transform="rotate(-90 18 {mid:.2})">{}</text>"#,
            esc(label)
        );
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT:.2}" y1="{:.2}" x2="{LEFT:.2}" y2="{:.2}" stroke="#333"/>"##,
            self.top, self.bottom
        );
    }

    fn close(&self, out: &mut String) {
        out.push_str("</svg>\n");
    }
}

/// A round time step giving about 6 to 12 ticks over `span` seconds, with
/// the unit its labels count in (the step is a whole number of them).
fn time_step(span: i64) -> (i64, i64, &'static str) {
    const STEPS: [i64; 26] = [
        1,
        2,
        5,
        10,
        15,
        30,
        60,
        120,
        300,
        600,
        900,
        1800,
        3600,
        7200,
        10_800,
        21_600,
        43_200,
        DAY,
        2 * DAY,
        7 * DAY,
        14 * DAY,
        30 * DAY,
        60 * DAY,
        100 * DAY,
        200 * DAY,
        500 * DAY,
    ];
    let step = STEPS
        .iter()
        .copied()
        .find(|&s| span / s <= 12)
        .unwrap_or_else(|| (span / (12 * 1000 * DAY) + 1) * 1000 * DAY);
    let (unit, name) = match step {
        s if s >= DAY => (DAY, "days"),
        s if s >= 3600 => (3600, "hours"),
        s if s >= 60 => (60, "minutes"),
        _ => (1, "s"),
    };
    (step, unit, name)
}

/// Round ticks from 0 to at least `top`, about eight (steps of 1, 2 or 5
/// times a power of ten, at least 1).
fn nice_ticks(top: f64) -> Vec<f64> {
    let top = if top > 0.0 { top } else { 1.0 };
    let raw = top / 8.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| (m * mag).max(1.0))
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag);
    let n = (top / step - 1e-9).ceil() as i64;
    (0..=n).map(|i| i as f64 * step).collect()
}

fn fmt_tick(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// A step function from `(time, delta)` pairs: `(time, value from then on)`,
/// one entry per distinct time, ascending.
fn steps(mut deltas: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    deltas.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(deltas.len());
    let mut value = 0;
    for (t, d) in deltas {
        value += d;
        match out.last_mut() {
            Some(last) if last.0 == t => last.1 = value,
            _ => out.push((t, value)),
        }
    }
    out
}

/// A step function summarised over `[t0, t1)`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bucket {
    t0: i64,
    t1: i64,
    mean: f64,
    lo: f64,
    hi: f64,
}

/// `window` cut into `n` equal buckets (whole seconds), each with the
/// time-weighted mean, minimum and maximum of the step function `steps`
/// (0 before its first step).
fn buckets(steps: &[(i64, i64)], (t0, t1): (i64, i64), n: usize) -> Vec<Bucket> {
    let span = i128::from(t1) - i128::from(t0);
    let edge = |k: usize| (i128::from(t0) + span * k as i128 / n as i128) as i64;
    let mut i = 0;
    let mut v = 0i64;
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let (b0, b1) = (edge(k), edge(k + 1));
        while i < steps.len() && steps[i].0 <= b0 {
            v = steps[i].1;
            i += 1;
        }
        let (mut lo, mut hi, mut area, mut t) = (v, v, 0i128, b0);
        while i < steps.len() && steps[i].0 < b1 {
            area += i128::from(v) * (i128::from(steps[i].0) - i128::from(t));
            t = steps[i].0;
            v = steps[i].1;
            lo = lo.min(v);
            hi = hi.max(v);
            i += 1;
        }
        area += i128::from(v) * (i128::from(b1) - i128::from(t));
        let mean = if b1 > b0 {
            area as f64 / (b1 as f64 - b0 as f64)
        } else {
            v as f64
        };
        out.push(Bucket {
            t0: b0,
            t1: b1,
            mean,
            lo: lo as f64,
            hi: hi as f64,
        });
    }
    out
}

fn text(out: &mut String, x: f64, y: f64, size: u32, anchor: &str, extra: &str, s: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.2}" y="{y:.2}" font-size="{size}" text-anchor="{anchor}"{extra}>{}</text>"#,
        esc(s)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile::Time;

    #[test]
    fn buckets_average_a_step_function() {
        // 0 until 10, 4 from 10 to 15, 2 from 15 on.
        let s = steps(vec![(10, 4), (15, -2)]);
        assert_eq!(s, [(10, 4), (15, 2)]);
        let b = buckets(&s, (0, 20), 2);
        assert_eq!(
            (b[0].t0, b[0].t1, b[0].mean, b[0].lo, b[0].hi),
            (0, 10, 0.0, 0.0, 0.0)
        );
        assert_eq!((b[1].mean, b[1].lo, b[1].hi), (3.0, 2.0, 4.0));
        // A step exactly at a bucket edge belongs to the later bucket only.
        let b = buckets(&s, (0, 20), 4);
        assert_eq!((b[1].lo, b[1].hi), (0.0, 0.0));
        assert_eq!((b[2].t0, b[2].lo, b[2].hi, b[2].mean), (10, 4.0, 4.0, 4.0));
        assert_eq!((b[3].lo, b[3].hi, b[3].mean), (2.0, 2.0, 2.0));
    }

    #[test]
    fn time_steps_are_round() {
        assert_eq!(time_step(7 * DAY), (DAY, DAY, "days"));
        assert_eq!(time_step(6 * 3600), (1800, 60, "minutes"));
        assert_eq!(time_step(100), (10, 1, "s"));
        assert_eq!(time_step(2 * 365 * DAY), (60 * DAY, DAY, "days"));
        let (step, unit, _) = time_step(i64::MAX);
        assert_eq!((step % (1000 * DAY), unit), (0, DAY));
        assert_eq!(nice_ticks(128.0).len(), 8);
        assert_eq!(nice_ticks(128.0)[1], 20.0);
        assert_eq!(nice_ticks(3.0), [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(nice_ticks(100.0), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
    }

    #[test]
    fn gantt_draws_each_interval_of_each_job_in_the_window() {
        let jobs = [
            Job::new(1, Time(0), 2, 10, 10),
            Job::new(2, Time(0), 3, 100, 100),
            Job::new(3, Time(5), 2, 5, 9),
            Job::new(4, Time(200), 1, 5, 5),
        ];
        let outs = [
            Outcome {
                id: 1,
                start: Time(0),
                end: Time(10),
                status: Status::Completed,
            },
            Outcome {
                id: 2,
                start: Time(0),
                end: Time(100),
                status: Status::Completed,
            },
            Outcome {
                id: 3,
                start: Time(10),
                end: Time(15),
                status: Status::Killed,
            },
            Outcome {
                id: 4,
                start: Time(200),
                end: Time(205),
                status: Status::Completed,
            },
        ];
        let alloc = profile::first_fit(6, &jobs, &outs).unwrap();
        let view = ScheduleView {
            title: "t",
            capacity: 6,
            jobs: &jobs,
            outcomes: &outs,
        };
        assert_eq!(view.span(), (0, 205));
        assert_eq!(view.jobs_in((12, 150)), 2);
        let svg = view.gantt_svg(&alloc, (12, 150));
        assert_eq!(svg.matches("<rect data-job=\"2\"").count(), 1);
        assert_eq!(svg.matches("<rect data-job=\"3\"").count(), 1);
        assert_eq!(svg.matches("<rect data-job=").count(), 2);
        // Job 3 is clipped to the window's start and outlined as killed.
        let job3 = svg.lines().find(|l| l.contains("data-job=\"3\"")).unwrap();
        assert!(job3.contains(&format!("x=\"{LEFT:.2}\"")), "{job3}");
        assert!(job3.contains(KILLED), "{job3}");
        assert!(svg.contains(r#"data-window="12 150""#));
        let timeline = view.timeline_svg(view.span());
        assert!(timeline.contains(r#"data-series="utilisation""#));
        assert!(timeline.contains(r#"data-series="queue""#));
        // Extreme windows draw without panicking.
        for w in [(i64::MIN, i64::MAX), (i64::MAX, i64::MIN), (5, 5)] {
            assert!(view.gantt_svg(&alloc, w).ends_with("</svg>\n"));
            assert!(view.timeline_svg(w).ends_with("</svg>\n"));
        }
    }
}
