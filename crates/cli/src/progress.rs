//! What a batch of experiments tells the user while it runs, on stderr.
//!
//! On a terminal: one progress bar (indicatif) for the batch, naming the
//! experiment (`[3/19] adaptive/fig4`), its runs done out of its total, the
//! elapsed time and an estimate of the time left. When stderr is not a
//! terminal (a CI log, a file): a plain line every [`LINE_EVERY`] seconds
//! and when an experiment's runs are all done. `-v` prints one line per
//! finished run instead; `-q` prints neither, only warnings and errors. The
//! Markdown report on stdout is not this module's business.
//!
//! Totals are per experiment: an experiment's runs are known only once its
//! workloads are resolved inside `experiments::run`.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use experiments::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Seconds between two plain progress lines.
pub const LINE_EVERY: f64 = 10.0;

/// How much to say, from `-q` and `-v` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Verbosity {
    /// `-q`: warnings and errors only.
    Quiet,
    /// Progress and informational lines.
    #[default]
    Normal,
    /// Also one line per finished run.
    Verbose,
}

impl Verbosity {
    /// The level `-v` given `verbose` times and `-q` given `quiet` times make.
    pub fn from_counts(quiet: u8, verbose: u8) -> Verbosity {
        match i16::from(verbose) - i16::from(quiet) {
            n if n < 0 => Verbosity::Quiet,
            0 => Verbosity::Normal,
            _ => Verbosity::Verbose,
        }
    }
}

/// The plain-line state of the experiment running now.
#[derive(Debug)]
struct Lines {
    /// When the experiment started.
    start: Instant,
    /// When the last line was printed.
    last: Instant,
}

/// Progress of a batch of experiments (see the module docs).
pub struct Reporter {
    verbosity: Verbosity,
    /// Experiments in the batch.
    count: usize,
    /// The bar, on a terminal only.
    bar: Option<ProgressBar>,
    /// Whether the bar shows counts yet (after the experiment's first run).
    counting: AtomicBool,
    /// `[k/N] id` of the experiment running now.
    current: Mutex<String>,
    lines: Mutex<Lines>,
}

fn preparing_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {prefix}: {msg} ({elapsed})")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

fn running_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} {prefix} [{wide_bar}] {pos}/{len} runs, {elapsed}, ETA {eta}",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl Reporter {
    /// A reporter for `count` experiments; a bar only if stderr is a terminal.
    pub fn new(verbosity: Verbosity, count: usize) -> Reporter {
        let terminal = std::io::stderr().is_terminal();
        Reporter::with_bar(verbosity, count, terminal)
    }

    fn with_bar(verbosity: Verbosity, count: usize, bar: bool) -> Reporter {
        let bar = (bar && verbosity > Verbosity::Quiet).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(preparing_style());
            bar
        });
        let now = Instant::now();
        Reporter {
            verbosity,
            count,
            bar,
            counting: AtomicBool::new(false),
            current: Mutex::new(String::new()),
            lines: Mutex::new(Lines {
                start: now,
                last: now,
            }),
        }
    }

    /// Prints an informational line (not under `-q`).
    pub fn info(&self, line: &str) {
        if self.verbosity > Verbosity::Quiet {
            self.warn(line);
        }
    }

    /// Prints a warning or an error (always).
    pub fn warn(&self, line: &str) {
        // Lines quote ids, titles, labels and file names: no raw controls.
        let line = experiments::encode::terminal_message(line);
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Runs `f` with the bar hidden, for code that prints on its own
    /// (trace resolution's warnings, the report on stdout).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Experiment `index` (from 0) of the batch starts.
    pub fn start(&self, index: usize, id: &str, title: &str, threads: usize) {
        let tag = format!("[{}/{}] {}", index + 1, self.count, one_line(id));
        let threads = match threads {
            1 => "1 thread".to_string(),
            n => format!("{n} threads"),
        };
        self.info(&format!("{tag}: {} ({threads})", one_line(title)));
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = tag.clone();
        let now = Instant::now();
        *self.lines.lock().unwrap_or_else(|e| e.into_inner()) = Lines {
            start: now,
            last: now,
        };
        self.counting.store(false, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.reset_elapsed();
            bar.reset_eta();
            bar.unset_length();
            bar.set_position(0);
            bar.set_style(preparing_style());
            bar.set_message("preparing workloads");
            bar.set_prefix(tag);
            // Ticks keep the spinner and the elapsed time moving while
            // nothing finishes (the first draw waits for a named experiment).
            bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// One run of the current experiment finished (the callback of
    /// `experiments::RunOptions::progress`; called from worker threads).
    pub fn run(&self, p: &Progress<'_>) {
        if self.verbosity == Verbosity::Quiet {
            return;
        }
        let tag = self
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let id = tag.split_once("] ").map_or(tag.as_str(), |(_, id)| id);
        if self.verbosity >= Verbosity::Verbose {
            self.warn(&format!(
                "[{}/{}] {id}: {} ... {:.1} s",
                p.done,
                p.total,
                one_line(p.run),
                p.seconds
            ));
        }
        if let Some(bar) = &self.bar {
            if !self.counting.swap(true, Ordering::Relaxed) {
                bar.set_style(running_style());
                bar.reset_eta();
            }
            bar.set_length(p.total as u64);
            bar.set_position(bar.position().max(p.done as u64));
            return;
        }
        if self.verbosity >= Verbosity::Verbose {
            return;
        }
        let line = {
            let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            let due = now.duration_since(lines.last).as_secs_f64() >= LINE_EVERY;
            if !(due || p.done == p.total) {
                return;
            }
            lines.last = now;
            plain_line(
                &tag,
                p.done,
                p.total,
                now.duration_since(lines.start).as_secs_f64(),
            )
        };
        eprintln!("{line}");
    }

    /// The batch is over: the bar goes away.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        self.finish();
    }
}

/// User text for a one-line message: line breaks become spaces, control
/// characters are made visible ([`experiments::encode::terminal`]).
pub fn one_line(s: &str) -> String {
    experiments::encode::terminal(&s.replace(['\n', '\r'], " "))
}

/// `[3/19] adaptive/fig4: 40/120 runs (33%), 12.3 s, about 25 s left`.
pub fn plain_line(tag: &str, done: usize, total: usize, elapsed: f64) -> String {
    let total = total.max(1);
    let left = if done >= total {
        "done".to_string()
    } else if done == 0 {
        "time left unknown".to_string()
    } else {
        let left = elapsed / done as f64 * (total - done) as f64;
        format!("about {} left", human(left))
    };
    format!(
        "{tag}: {done}/{total} runs ({}%), {} elapsed, {left}",
        done * 100 / total,
        human(elapsed)
    )
}

/// `1 job`, `2 jobs`: a count with its noun, singular for one.
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n: u64 = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `12.3 s`, `4 min 05 s`, `1 h 02 min`.
pub fn human(seconds: f64) -> String {
    let s = seconds.max(0.0);
    if s < 60.0 {
        return format!("{s:.1} s");
    }
    let whole = s.round() as u64;
    if whole < 3600 {
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        format!("{} h {:02} min", whole / 3600, whole % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbosity_levels() {
        for (q, v, want) in [
            (0, 0, Verbosity::Normal),
            (1, 0, Verbosity::Quiet),
            (2, 0, Verbosity::Quiet),
            (0, 1, Verbosity::Verbose),
            (0, 3, Verbosity::Verbose),
            (1, 1, Verbosity::Normal),
        ] {
            assert_eq!(Verbosity::from_counts(q, v), want, "-q x{q} -v x{v}");
        }
    }

    #[test]
    fn plain_lines() {
        assert_eq!(
            plain_line("[3/19] adaptive/fig4", 40, 120, 12.34),
            "[3/19] adaptive/fig4: 40/120 runs (33%), 12.3 s elapsed, about 24.7 s left"
        );
        assert_eq!(
            plain_line("[1/1] x", 3, 3, 75.0),
            "[1/1] x: 3/3 runs (100%), 1 min 15 s elapsed, done"
        );
        assert_eq!(
            plain_line("[1/1] x", 0, 0, 0.0),
            "[1/1] x: 0/1 runs (0%), 0.0 s elapsed, time left unknown"
        );
        assert_eq!(human(3725.0), "1 h 02 min");
        assert_eq!(human(-1.0), "0.0 s");
    }

    #[test]
    fn without_a_terminal_there_is_no_bar() {
        let r = Reporter::with_bar(Verbosity::Normal, 2, false);
        assert!(r.bar.is_none());
        let r = Reporter::with_bar(Verbosity::Quiet, 2, true);
        assert!(r.bar.is_none(), "-q draws no bar, even on a terminal");
        let r = Reporter::with_bar(Verbosity::Normal, 2, true);
        r.start(1, "a/b", "title", 2);
        r.run(&Progress {
            done: 1,
            total: 4,
            run: "easy on X",
            seconds: 0.5,
        });
        let bar = r.bar.as_ref().unwrap();
        assert_eq!((bar.position(), bar.length()), (1, Some(4)));
        assert_eq!(bar.prefix(), "[2/2] a/b");
    }
}
