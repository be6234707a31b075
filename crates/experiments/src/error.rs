//! The framework's error of a run: why one simulation, or an experiment
//! made of them, could not run. Every layer above reports through it.

use std::fmt;
use std::ops::Range;

use profile::{SimError, Violation};

use crate::encode::{terminal, terminal_name};

/// Why an experiment could not run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The caller did not supply a trace the configuration names.
    MissingTrace {
        /// The name in the configuration.
        name: String,
    },
    /// Nothing is left of a workload after conversion and transforms.
    EmptyWorkload {
        /// The workload's label.
        label: String,
    },
    /// The simulator rejected its input.
    Simulation {
        /// The policy.
        policy: String,
        /// The simulator's error.
        error: SimError,
    },
    /// A simulated schedule broke the machine's rules (a bug in a scheduler).
    InvalidSchedule {
        /// The policy.
        policy: String,
        /// What `profile::validate` found.
        violation: Violation,
    },
    /// A kind-specific failure.
    Kind {
        /// What went wrong.
        message: String,
    },
    /// A value of the configuration is the cause: a kind's parameter that
    /// only fails at run time (a warm-up that leaves no jobs of the trace),
    /// a transform or a load factor that moves jobs out of range. `field`
    /// is the value's dotted path in the configuration file
    /// (`params.warmup`; a number indexes an array:
    /// `workloads.0.transforms.1`); `message` says what is wrong and names
    /// the field as the user wrote it. [`crate::run`] answers with
    /// [`RunError::Located`] (file, line, column) where the file holds the
    /// value, or the nearest table that does; a swept parameter points at
    /// the run's element of the sweep's values. Made with [`RunError::field`]; a kind of your own
    /// returns it the same way.
    Field {
        /// The dotted path: `params.warmup`, `workloads.0.transforms.1`.
        field: String,
        /// What is wrong and what to do.
        message: String,
    },
    /// A [`RunError::Field`] placed in the configuration file: the file,
    /// line and column of the value, the run it failed in, and the line.
    Located {
        /// The place and the message (which starts with the run, if any).
        error: ConfigError,
    },
    /// A point of the results (a mean, an interval end or a value behind
    /// it) that is not a finite number, though every measured value is
    /// (values too large to add up, a gain over a tiny reference): nothing
    /// non-finite is written.
    NotFinite {
        /// The panel's id, as in data.csv.
        panel: String,
        /// The series.
        series: String,
        /// The x value, as in data.csv.
        x: String,
        /// What is not finite.
        message: String,
    },
    /// An error inside one run, with the run's description.
    InRun {
        /// `easy on SDSC-SP2`, say.
        run: String,
        /// The error.
        error: Box<RunError>,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::MissingTrace { name } => write!(
                f,
                "trace '{}' was not supplied; resolve every trace the configuration names",
                terminal_name(name)
            ),
            RunError::EmptyWorkload { label } => {
                write!(
                    f,
                    "workload '{}' has no jobs left after conversion and transforms; check its trace and transforms",
                    terminal_name(label)
                )
            }
            RunError::Simulation { policy, error } => write!(f, "{policy}: {error}"),
            RunError::InvalidSchedule { policy, violation } => {
                write!(
                    f,
                    "{policy} produced an invalid schedule ({violation}); this is a scheduler bug, please report it"
                )
            }
            RunError::Kind { message } | RunError::Field { message, .. } => f.write_str(message),
            RunError::Located { error } => write!(f, "{error}"),
            RunError::NotFinite {
                panel,
                series,
                x,
                message,
            } => write!(
                f,
                "panel '{}', series '{}', x '{}': {message}; no result holds a number that is \
                 not finite, check the measurements",
                terminal_name(panel),
                terminal_name(series),
                terminal_name(x)
            ),
            RunError::InRun { run, error } => write!(f, "{}: {error}", terminal_name(run)),
        }
    }
}

impl RunError {
    /// A [`RunError::Field`]: the value at the dotted path `field` of the
    /// configuration (`params.warmup`) is the cause.
    ///
    /// ```
    /// use experiments::RunError;
    ///
    /// let e = RunError::field("params.warmup", "params.warmup = 90000 leaves no jobs");
    /// assert_eq!(e.to_string(), "params.warmup = 90000 leaves no jobs");
    /// ```
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> RunError {
        RunError::Field {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl std::error::Error for RunError {}

/// A configuration file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// Syntax errors, unknown keys, bad values and inconsistent references.
    Invalid {
        /// The file as given.
        file: String,
        /// 1-based line, when the problem has a place.
        line: Option<usize>,
        /// 1-based column.
        column: Option<usize>,
        /// What is wrong and what to do.
        message: String,
        /// The offending source line, if any.
        source_line: Option<String>,
    },
}

impl ConfigError {
    pub(crate) fn at(file: &str, text: &str, span: Option<Range<usize>>, message: String) -> Self {
        let place = span.map(|span| {
            let start = span.start.min(text.len());
            let before = &text[..start];
            let line = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = text[line_start..start].chars().count() + 1;
            let source_line = text[line_start..].lines().next().unwrap_or("").to_string();
            (line, column, source_line)
        });
        ConfigError::Invalid {
            file: file.to_string(),
            line: place.as_ref().map(|p| p.0),
            column: place.as_ref().map(|p| p.1),
            source_line: place.map(|p| p.2),
            message,
        }
    }

    /// The line the error points at, if any.
    pub fn line(&self) -> Option<usize> {
        match self {
            ConfigError::Invalid { line, .. } => *line,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ConfigError::Invalid {
            file,
            line,
            column,
            message,
            source_line,
        } = self;
        match (line, column) {
            (Some(l), Some(c)) => write!(f, "{}:{l}:{c}: {message}", terminal_name(file))?,
            _ => write!(f, "{}: {message}", terminal_name(file))?,
        }
        if let (Some(l), Some(c), Some(src)) = (line, column, source_line) {
            let (shown, caret) = snippet(src, *c);
            let gutter = " ".repeat(l.to_string().len());
            let pad = " ".repeat(caret);
            write!(f, "\n{gutter} |\n{l} | {shown}\n{gutter} | {pad}^")?;
        }
        Ok(())
    }
}

/// The most characters of a source line an error shows, around its column.
const SNIPPET_CHARS: usize = 120;

/// The part of `src` an error shows under its message, and the caret's
/// offset in it for the 1-based character `column`: at most
/// [`SNIPPET_CHARS`] characters around the column (`…` marking what is
/// cut), a tab as four spaces, and the characters unsafe for a
/// terminal in the visible notation (as [`terminal`] writes them), so the caret stays under its
/// character and a line of any length prints as one short line.
fn snippet(src: &str, column: usize) -> (String, usize) {
    let n = src.chars().count();
    let at = column.saturating_sub(1).min(n);
    let first = if n <= SNIPPET_CHARS {
        0
    } else {
        at.saturating_sub(SNIPPET_CHARS / 2).min(n - SNIPPET_CHARS)
    };
    let mut shown = String::new();
    let mut caret = 0;
    if first > 0 {
        shown.push('…');
        caret = 1;
    }
    for (i, ch) in src.chars().enumerate().skip(first).take(SNIPPET_CHARS) {
        let piece = match ch {
            '\t' => "    ".to_string(),
            _ => terminal(ch.encode_utf8(&mut [0; 4])),
        };
        if i < at {
            caret += piece.chars().count();
        }
        shown.push_str(&piece);
    }
    if first + SNIPPET_CHARS < n {
        shown.push('…');
    }
    (shown, caret)
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(line: &str, column: usize) -> String {
        let e = ConfigError::Invalid {
            file: "c.toml".into(),
            line: Some(7),
            column: Some(column),
            message: "bad".into(),
            source_line: Some(line.into()),
        };
        e.to_string()
    }

    #[test]
    fn a_short_line_is_shown_whole_with_the_caret_under_its_column() {
        assert_eq!(
            shown("id = 5", 6),
            "c.toml:7:6: bad\n  |\n7 | id = 5\n  |      ^"
        );
    }

    #[test]
    fn a_long_line_is_cut_around_its_column_whatever_its_length() {
        // A column past 65,535 once panicked (a format width out of range),
        // and the whole line was printed.
        for (len, column) in [(200, 1), (200, 150), (200, 201), (100_000, 70_000)] {
            let line: String = (0..len)
                .map(|i| if i + 1 == column { 'X' } else { 'a' })
                .collect();
            let text = shown(&line, column);
            let rows: Vec<&str> = text.lines().collect();
            assert!(
                rows[2].chars().count() <= SNIPPET_CHARS + 6,
                "{len} {column}"
            );
            let caret = rows[3].chars().count() - 1;
            let under = rows[2].chars().nth(caret);
            let want = if column > len { None } else { Some('X') };
            assert_eq!(under, want, "{len} {column}: {text}");
        }
    }

    #[test]
    fn tabs_and_control_characters_keep_the_caret_under_its_character() {
        let text = shown("\tk\u{1b}[2J = X", 10);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[2], "7 |     k\\u{1b}[2J = X");
        assert_eq!(rows[2].chars().nth(rows[3].chars().count() - 1), Some('X'));
    }
}
