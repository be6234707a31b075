//! Messages for a human: errors, warnings and progress lines on stderr,
//! and the Python package's exceptions. A name or value quoted from a
//! user's file or call can be of any length, so a long one is shortened
//! to its two ends, and a list of a user's names to its first
//! [`LIST_SHOWN`] items; what goes to stdout or into a file keeps every
//! character.

use std::fmt::Write as _;

use super::terminal;

/// Unbroken runs of more characters than this in a message for a human
/// ([`terminal_message`]) are shortened.
pub const MESSAGE_RUN_LIMIT: usize = 300;

/// A message for a human on a terminal (an error, a warning, a progress
/// line on stderr): [`terminal`], then [`shorten_runs`]. What goes to
/// stdout or into a file (a report, a table) is written in full.
///
/// ```
/// use experiments::encode::terminal_message;
///
/// let long = "x".repeat(1000);
/// let shown = terminal_message(&format!("unknown series '{long}'\nnext line"));
/// assert!(shown.starts_with("unknown series 'xxx"));
/// assert!(shown.contains("[842 characters left out]"));
/// assert!(shown.ends_with("xxx'\nnext line"));
/// assert_eq!(terminal_message("short 'name'\tand\u{1b}"), "short 'name'\tand\\u{1b}");
/// ```
pub fn terminal_message(s: &str) -> String {
    shorten_runs(&terminal(s))
}

/// A message for a human with every run of more than
/// [`MESSAGE_RUN_LIMIT`] characters without white space (a name or value
/// quoted from a user's file: a 100,000-character series name made a
/// 100,000-character error) shortened to its first 120 and last 40
/// characters around a note of how many were left out; everything else as
/// it is. The Python package's exceptions go through it too.
///
/// ```
/// use experiments::encode::shorten_runs;
///
/// assert_eq!(shorten_runs("a\u{7} b"), "a\u{7} b");
/// let long = format!("'{}'", "é".repeat(400));
/// assert_eq!(shorten_runs(&long).chars().count(), 160 + "…[242 characters left out]…".chars().count());
/// ```
pub fn shorten_runs(s: &str) -> String {
    let long = s
        .split(char::is_whitespace)
        .any(|run| run.len() > MESSAGE_RUN_LIMIT && run.chars().count() > MESSAGE_RUN_LIMIT);
    if !long {
        return s.to_string();
    }
    let mut out = String::with_capacity(1024);
    let mut run = String::new();
    for c in s.chars() {
        if c.is_whitespace() {
            out.push_str(&shorten(&run));
            run.clear();
            out.push(c);
        } else {
            run.push(c);
        }
    }
    out.push_str(&shorten(&run));
    out
}

/// One value quoted in a message for a human, shortened as a whole, white
/// space and all, as [`shorten_runs`] shortens a run: past
/// [`MESSAGE_RUN_LIMIT`] characters, its first 120 and last 40 around a
/// note of how many were left out. For a value whose text may hold
/// spaces (a Python `repr` of a long list or dict), which
/// [`shorten_runs`] would keep whole.
///
/// ```
/// use experiments::encode::shorten;
///
/// assert_eq!(shorten("[1, 2, 3]"), "[1, 2, 3]");
/// let list = format!("[{}]", vec!["0"; 1000].join(", "));
/// let shown = shorten(&list);
/// assert!(shown.starts_with("[0, 0, ") && shown.ends_with(", 0, 0]"));
/// assert!(shown.contains("…[2840 characters left out]…"));
/// ```
pub fn shorten(s: &str) -> String {
    if s.len() <= MESSAGE_RUN_LIMIT {
        return s.to_string();
    }
    let n = s.chars().count();
    if n <= MESSAGE_RUN_LIMIT {
        return s.to_string();
    }
    let (head, tail) = (120, 40);
    let mut out: String = s.chars().take(head).collect();
    let _ = write!(out, "…[{} characters left out]…", n - head - tail);
    out.extend(s.chars().skip(n - tail));
    out
}

/// Items a message lists before it says how many more there are
/// ([`list_shown`]).
pub const LIST_SHOWN: usize = 20;

/// The items of a list a message quotes (the panels a claim may name, the
/// x values of a sweep), joined by ", ": past [`LIST_SHOWN`], the first
/// ones and how many more there are. A study may have 20,000 panels; an
/// error naming them all would be 20,000 names long.
///
/// ```
/// use experiments::encode::list_shown;
///
/// assert_eq!(list_shown(&["a", "b"]), "a, b");
/// let ids: Vec<String> = (0..100).map(|i| format!("p{i}")).collect();
/// let shown = list_shown(&ids);
/// assert!(shown.starts_with("p0, p1, ") && shown.ends_with("p19, and 80 more"));
/// ```
pub fn list_shown<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().take(LIST_SHOWN).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(item.as_ref());
    }
    if items.len() > LIST_SHOWN {
        let _ = write!(out, ", and {} more", items.len() - LIST_SHOWN);
    }
    out
}
