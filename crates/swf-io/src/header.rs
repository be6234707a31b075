//! The SWF header: `; Keyword: value` comment lines at the top of a file.

use std::io::{self, Write};

/// The header comments of an SWF file.
///
/// [`lines`](Self::lines) keeps every header comment in file order and is
/// what [`write_swf`](crate::write_swf) writes back; the other fields are
/// the typed values of the well-known keywords, parsed from those lines.
///
/// Parsing rules:
/// * the keyword is trimmed, so padded headers (`;  Installation: ...`, as
///   in DAS2) parse; keywords match case-insensitively;
/// * a `#` at the start of a value or after a blank starts a comment that
///   typed fields ignore (`TimeZoneString: Europe/Amsterdam  # CET`);
/// * a numeric keyword's value is a whole integer, optionally followed
///   by a blank and a note that does not start like a number, so
///   `MaxNodes: 338 (batch partition; 512 total)` gives 338, and `-1` or an
///   empty value gives `None`; anything else (`8.9`, `8e1`, `0x10`,
///   `8abc`, `8 16`) is unusable, never read by its prefix;
/// * when a keyword repeats, the first usable value wins; every `Note:`
///   value goes to [`notes`](Self::notes);
/// * a comment line without a `Keyword:` (free text, a continuation line, a
///   bare `;`) is kept in `lines` with an empty keyword and its trimmed
///   text as value, so the header round-trips.
///
/// When writing, typed fields win over `lines`: a line whose value
/// disagrees with its typed field is written with the typed value instead,
/// and typed fields no line mentions are written first. Typed string values
/// therefore should not contain `#` or line breaks (line breaks are written
/// as blanks).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SwfHeader {
    /// `Version:` the SWF format version, e.g. `2.2`.
    pub version: Option<String>,
    /// `Computer:` the machine type, e.g. `IBM SP2`.
    pub computer: Option<String>,
    /// `Installation:` the site.
    pub installation: Option<String>,
    /// `MaxJobs:` number of jobs in the original log.
    pub max_jobs: Option<u64>,
    /// `MaxRecords:` number of data lines in the file.
    pub max_records: Option<u64>,
    /// `MaxNodes:` machine size in nodes (the integer before any note).
    pub max_nodes: Option<u64>,
    /// `MaxProcs:` machine size in processors (the integer before any note).
    pub max_procs: Option<u64>,
    /// `UnixStartTime:` the epoch second that submit time 0 corresponds to.
    pub unix_start_time: Option<i64>,
    /// `TimeZoneString:` e.g. `US/Pacific`.
    pub time_zone_string: Option<String>,
    /// Every `Note:` value, in file order.
    pub notes: Vec<String>,
    /// Every header comment as `(keyword, value)` in file order, keyword
    /// trimmed; comment lines without a keyword have keyword `""`.
    pub lines: Vec<(String, String)>,
}

/// The keywords with a typed field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Version,
    Computer,
    Installation,
    MaxJobs,
    MaxRecords,
    MaxNodes,
    MaxProcs,
    UnixStartTime,
    TimeZoneString,
}

impl Key {
    /// Whether the keyword's value is a number (a count, a size, a time).
    fn is_numeric(self) -> bool {
        !matches!(
            self,
            Key::Version | Key::Computer | Key::Installation | Key::TimeZoneString
        )
    }
}

const KEYS: [(Key, &str); 9] = [
    (Key::Version, "Version"),
    (Key::Computer, "Computer"),
    (Key::Installation, "Installation"),
    (Key::MaxJobs, "MaxJobs"),
    (Key::MaxRecords, "MaxRecords"),
    (Key::MaxNodes, "MaxNodes"),
    (Key::MaxProcs, "MaxProcs"),
    (Key::UnixStartTime, "UnixStartTime"),
    (Key::TimeZoneString, "TimeZoneString"),
];

fn key_of(keyword: &str) -> Option<Key> {
    KEYS.iter()
        .find(|(_, name)| name.eq_ignore_ascii_case(keyword))
        .map(|&(k, _)| k)
}

/// The keyword and value of the text after a comment line's `;`, both
/// trimmed; the keyword is empty for free text.
fn keyword_and_value(content: &str) -> (&str, &str) {
    let content = content.trim();
    match content.split_once(':') {
        // `http://...` on a continuation line is a URL, not a keyword.
        Some((k, v)) if is_keyword(k.trim()) && !v.starts_with("//") => (k.trim(), v.trim()),
        _ => ("", content),
    }
}

fn is_note(keyword: &str) -> bool {
    keyword.eq_ignore_ascii_case("Note")
}

/// The value without a trailing `# comment`, trimmed.
fn strip_comment(value: &str) -> &str {
    let bytes = value.as_bytes();
    let cut = bytes
        .iter()
        .enumerate()
        .find(|&(i, &c)| c == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()))
        .map_or(value.len(), |(i, _)| i);
    value[..cut].trim()
}

/// Why a header value is unusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ValueError {
    /// It is not a whole integer, optionally followed by a note.
    NotANumber,
    /// It is an integer outside the keyword's range (given as text).
    OutOfRange(&'static str),
    /// A numeric keyword an earlier line already set to another value
    /// (given); the first stays.
    Conflict(String),
}

/// The accepted range of `MaxProcs` and `MaxNodes`, as text for messages.
const MACHINE_RANGE: &str = "0 to 10000000, or -1 for unknown";
const COUNT_RANGE: &str = "0 to 18446744073709551615, or -1 for unknown";
const START_RANGE: &str = "an integer that fits in 64 bits";

/// The integer a numeric header value gives (after comment stripping):
/// the value's first blank-separated token, which must be a whole integer
/// (`[+-]digits`), optionally followed by a blank and a note that does not
/// start like a number (`338 (batch partition; 512 total)`, `32 nodes`).
/// `-1` and an empty value are `None`. A token that is not a whole
/// integer (`8.9`, `8e1`, `0x10`, `8abc`) or a second number (`8 16`) is
/// [`ValueError::NotANumber`]: reading a prefix would misread the machine
/// silently. Digits beyond `i128` are out of `range`.
fn header_int(value: &str, range: &'static str) -> Result<Option<i128>, ValueError> {
    let v = strip_comment(value);
    if v.is_empty() {
        return Ok(None);
    }
    let (token, note) = v
        .split_once(|c: char| c.is_ascii_whitespace())
        .map_or((v, ""), |(t, n)| (t, n.trim_start()));
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(ValueError::NotANumber);
    }
    let unsigned_note = note.strip_prefix(['+', '-', '.']).unwrap_or(note);
    if unsigned_note.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(ValueError::NotANumber);
    }
    let n: i128 = token.parse().map_err(|_| ValueError::OutOfRange(range))?;
    Ok(if n == -1 { None } else { Some(n) })
}

/// The typed value a header value stands for, rendered as it would be
/// written; an error for an unusable numeric value. `MaxProcs` and
/// `MaxNodes` accept 0 to [`MAX_PROCS`](crate::MAX_PROCS) (0 reads as
/// "unknown" in [`SwfHeader::machine_size`]).
fn normalize(key: Key, value: &str) -> Result<Option<String>, ValueError> {
    match key {
        Key::Version | Key::Computer | Key::Installation | Key::TimeZoneString => {
            let v = strip_comment(value);
            Ok((!v.is_empty()).then(|| v.to_owned()))
        }
        Key::UnixStartTime => match header_int(value, START_RANGE)? {
            Some(n) => Ok(Some(
                i64::try_from(n)
                    .map_err(|_| ValueError::OutOfRange(START_RANGE))?
                    .to_string(),
            )),
            None => Ok(None),
        },
        Key::MaxJobs | Key::MaxRecords => match header_int(value, COUNT_RANGE)? {
            Some(n) => Ok(Some(
                u64::try_from(n)
                    .map_err(|_| ValueError::OutOfRange(COUNT_RANGE))?
                    .to_string(),
            )),
            None => Ok(None),
        },
        Key::MaxNodes | Key::MaxProcs => match header_int(value, MACHINE_RANGE)? {
            Some(n) if (0..=i128::from(crate::MAX_PROCS)).contains(&n) => Ok(Some(n.to_string())),
            Some(_) => Err(ValueError::OutOfRange(MACHINE_RANGE)),
            None => Ok(None),
        },
    }
}

fn sanitize(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

impl SwfHeader {
    /// The typed value of `key`, rendered as it would be written.
    fn get(&self, key: Key) -> Option<String> {
        match key {
            Key::Version => self.version.as_deref().map(sanitize),
            Key::Computer => self.computer.as_deref().map(sanitize),
            Key::Installation => self.installation.as_deref().map(sanitize),
            Key::TimeZoneString => self.time_zone_string.as_deref().map(sanitize),
            Key::MaxJobs => self.max_jobs.map(|n| n.to_string()),
            Key::MaxRecords => self.max_records.map(|n| n.to_string()),
            Key::MaxNodes => self.max_nodes.map(|n| n.to_string()),
            Key::MaxProcs => self.max_procs.map(|n| n.to_string()),
            Key::UnixStartTime => self.unix_start_time.map(|n| n.to_string()),
        }
    }

    /// Sets the typed field of `key` from a normalized value.
    fn set(&mut self, key: Key, v: String) {
        let num = || v.parse::<i64>().ok();
        let unsigned = || v.parse::<u64>().ok();
        match key {
            Key::Version => self.version = Some(v),
            Key::Computer => self.computer = Some(v),
            Key::Installation => self.installation = Some(v),
            Key::TimeZoneString => self.time_zone_string = Some(v),
            Key::MaxJobs => self.max_jobs = unsigned(),
            Key::MaxRecords => self.max_records = unsigned(),
            Key::MaxNodes => self.max_nodes = unsigned(),
            Key::MaxProcs => self.max_procs = unsigned(),
            Key::UnixStartTime => self.unix_start_time = num(),
        }
    }

    /// Appends a header line and updates the typed fields as the reader
    /// does. Use an empty keyword for a free-text comment line.
    ///
    /// Returns `false` if the keyword carries a number and the value is
    /// not a whole integer (optionally followed by a note) or is out of the keyword's range (`MaxProcs` and
    /// `MaxNodes`: 0 to [`MAX_PROCS`](crate::MAX_PROCS); the line is kept,
    /// the typed field stays unset), or if an earlier line gave the same
    /// numeric keyword another value (the line is kept, the first value
    /// stays).
    pub fn push_line(&mut self, keyword: &str, value: &str) -> bool {
        self.push(keyword, value).is_ok()
    }

    /// [`push_line`](Self::push_line) with the reason a value is unusable.
    fn push(&mut self, keyword: &str, value: &str) -> Result<(), ValueError> {
        let keyword = keyword.trim();
        let value = value.trim();
        let mut result = Ok(());
        if let Some(key) = key_of(keyword) {
            match (normalize(key, value), self.get(key)) {
                (Ok(Some(v)), None) => self.set(key, v),
                // Two numbers for one quantity (`MaxProcs: 128`, then
                // `MaxProcs: 64`): which one the log meant is unknown.
                // A machine size of 0 is "unknown", as -1 is: a known one
                // before or after it is no conflict, and is kept.
                (Ok(Some(v)), Some(first))
                    if matches!(key, Key::MaxNodes | Key::MaxProcs)
                        && (first == "0" || v == "0") =>
                {
                    if first == "0" {
                        self.set(key, v);
                    }
                }
                (Ok(Some(v)), Some(first)) if key.is_numeric() && v != first => {
                    result = Err(ValueError::Conflict(first));
                }
                (Ok(_), _) => {}
                (Err(e), _) => result = Err(e),
            }
        } else if is_note(keyword) {
            self.notes.push(value.to_owned());
        }
        self.lines.push((keyword.to_owned(), value.to_owned()));
        result
    }

    /// The typed value `keyword` has now, as it would be written (`None`
    /// for free text, or a keyword no usable line has set).
    pub(crate) fn typed_value(&self, keyword: &str) -> Option<String> {
        key_of(keyword.trim()).and_then(|k| self.get(k))
    }

    /// The numeric keyword (`MaxProcs`, ...) the text after the `;` of a
    /// comment line gives a value to, as written, if any: such a line after
    /// the first record would be a header line the reader ignores.
    pub(crate) fn numeric_keyword(content: &str) -> Option<&str> {
        let (k, _) = keyword_and_value(content);
        key_of(k).is_some_and(Key::is_numeric).then_some(k)
    }

    /// Parses the text after the `;` of a header comment line. Returns the
    /// keyword (empty for free text) and whether a numeric value was usable.
    pub(crate) fn push_comment(&mut self, content: &str) -> (String, Result<(), ValueError>) {
        let (keyword, value) = keyword_and_value(content);
        let result = self.push(keyword, value);
        (keyword.to_owned(), result)
    }

    /// The machine size in processors the header gives: `MaxProcs` if it
    /// is at least 1, else `MaxNodes` if it is at least 1, else `None`
    /// (missing, -1 or 0: the caller must give the size). A value above
    /// [`MAX_PROCS`](crate::MAX_PROCS) (only possible in a header built
    /// by hand; the reader refuses one) is `None` too, never clamped.
    ///
    /// ```
    /// use swf_io::SwfHeader;
    ///
    /// let mut h = SwfHeader::default();
    /// assert_eq!(h.machine_size(), None);
    /// h.push_line("MaxProcs", "0");
    /// h.push_line("MaxNodes", "338 (batch partition)");
    /// assert_eq!(h.machine_size(), Some(338));
    /// ```
    pub fn machine_size(&self) -> Option<u32> {
        let usable = |n: Option<u64>| {
            n.filter(|&n| n >= 1)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n <= crate::MAX_PROCS)
        };
        usable(self.max_procs).or_else(|| usable(self.max_nodes))
    }

    /// Why this header would not read back as written, if it would not: a
    /// typed value the reader takes differently or refuses (`MaxProcs`
    /// above [`MAX_PROCS`](crate::MAX_PROCS), an empty `Version`, a value
    /// with a `#` comment or a line break), or a line the reader would
    /// parse into another keyword and value (free text that looks like
    /// `Keyword: value`, a keyword with a blank or a colon, padding) or
    /// refuse as too long ([`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES)).
    /// Each line is read back exactly as the reader reads it.
    pub(crate) fn unwritable(&self) -> Option<String> {
        for &(key, name) in &KEYS {
            let Some(value) = self.get(key) else { continue };
            // A text keyword's typed field (`None` for a numeric one).
            let typed_line = self.typed_string(key);
            let back = normalize(key, &value);
            if typed_line.is_some_and(|t| t != value) || back != Ok(Some(value.clone())) {
                let back = match back {
                    Ok(Some(v)) => format!("as {v:?}"),
                    Ok(None) => "as no value".to_string(),
                    Err(_) => {
                        "as unusable (out of the reader's range, or not a number)".to_string()
                    }
                };
                return Some(format!(
                    "the typed {name} {} would read back {back}",
                    quoted(&value)
                ));
            }
        }
        for (i, (k, v)) in self.lines.iter().enumerate() {
            let mut written = Vec::new();
            let _ = put(&mut written, &sanitize(k), &sanitize(v));
            let written = String::from_utf8_lossy(&written);
            let content = written.trim_end_matches('\n');
            if content.len() > crate::MAX_LINE_BYTES {
                return Some(format!(
                    "header line {} is {} bytes, more than the reader takes ({})",
                    i + 1,
                    content.len(),
                    crate::MAX_LINE_BYTES
                ));
            }
            let mut scratch = SwfHeader::default();
            let _ = scratch.push_comment(content.strip_prefix(';').unwrap_or(content));
            let back = scratch.lines.pop().unwrap_or_default();
            if (back.0.as_str(), back.1.as_str()) != (k.as_str(), v.as_str()) {
                return Some(format!(
                    "header line {} (keyword {}, value {}) would read back as keyword {}, value {}",
                    i + 1,
                    quoted(k),
                    quoted(v),
                    quoted(&back.0),
                    quoted(&back.1)
                ));
            }
        }
        // The lines as written, read in order as the strict reader reads
        // them: an unusable number (`MaxProcs: many`, read leniently) or
        // a second value for one quantity is refused there.
        let mut written = Vec::new();
        let _ = self.write(&mut written);
        let mut scratch = SwfHeader::default();
        for (i, line) in String::from_utf8_lossy(&written).lines().enumerate() {
            let content = line.strip_prefix(';').unwrap_or(line);
            if let (keyword, Err(problem)) = scratch.push_comment(content) {
                let why = match problem {
                    ValueError::NotANumber => "is not a number".to_string(),
                    ValueError::OutOfRange(expected) => format!("is out of range ({expected})"),
                    ValueError::Conflict(first) => {
                        format!("conflicts with the {keyword} {first} of a line before it")
                    }
                };
                return Some(format!(
                    "header line {} ({}) would be refused by the strict reader: its {keyword} {why}",
                    i + 1,
                    quoted(content.trim())
                ));
            }
        }
        None
    }

    /// The header without the numeric keyword lines the strict reader
    /// would refuse: a value that is not a number or is out of range, and
    /// a second value for a quantity an earlier line gave (what a lenient
    /// read keeps and skips). Each is returned as `(keyword, value)`; the
    /// typed fields are as before.
    pub fn without_unusable_lines(&self) -> (SwfHeader, Vec<(String, String)>) {
        let mut kept = self.clone();
        kept.lines.clear();
        let mut scratch = SwfHeader::default();
        let mut dropped = Vec::new();
        for (k, v) in &self.lines {
            if scratch.push(k, v).is_err() {
                dropped.push((k.clone(), v.clone()));
            } else {
                kept.lines.push((k.clone(), v.clone()));
            }
        }
        (kept, dropped)
    }

    /// A typed string field as given (before line breaks are replaced).
    fn typed_string(&self, key: Key) -> Option<String> {
        match key {
            Key::Version => self.version.clone(),
            Key::Computer => self.computer.clone(),
            Key::Installation => self.installation.clone(),
            Key::TimeZoneString => self.time_zone_string.clone(),
            _ => None,
        }
    }

    /// Writes the header comment lines (see the type's docs for the rules).
    pub(crate) fn write<W: Write>(&self, w: &mut W) -> io::Result<()> {
        let lines: Vec<(String, String)> = self
            .lines
            .iter()
            .map(|(k, v)| (sanitize(k), sanitize(v)))
            .collect();
        // Per typed keyword: the line that defines its value when read (the
        // first usable one), and whether that agrees with the typed field.
        let plan = KEYS.map(|(key, name)| {
            let defining = lines.iter().enumerate().find_map(|(i, (k, v))| {
                (key_of(k) == Some(key))
                    .then(|| normalize(key, v).ok().flatten().map(|n| (i, n)))
                    .flatten()
            });
            let want = self.get(key);
            let consistent = defining.as_ref().map(|(_, n)| n) == want.as_ref();
            (key, name, defining.map(|(i, _)| i), want, consistent)
        });
        let line_notes = lines
            .iter()
            .filter(|(k, _)| is_note(k))
            .map(|(_, v)| v.as_str());
        let notes_match = line_notes.eq(self
            .notes
            .iter()
            .map(|n| sanitize(n))
            .collect::<Vec<_>>()
            .iter()
            .map(|n| n.trim()));
        // Typed fields that no line defines come first.
        for (_, name, defining, want, _) in &plan {
            if let (None, Some(want)) = (defining, want) {
                put(w, name, want)?;
            }
        }
        for (i, (k, v)) in lines.iter().enumerate() {
            if let Some(key) = key_of(k) {
                let Some((_, _, defining, want, consistent)) = plan.iter().find(|p| p.0 == key)
                else {
                    continue;
                };
                if *consistent {
                    put(w, k, v)?;
                } else if let Some(want) = want {
                    // Replace the defining line's value; the others are
                    // unusable or shadowed, as before.
                    put(w, k, if *defining == Some(i) { want } else { v })?;
                } else if normalize(key, v).ok().flatten().is_none() {
                    // The typed field was cleared: drop every usable line.
                    put(w, k, v)?;
                }
            } else if !is_note(k) || notes_match {
                put(w, k, v)?;
            }
        }
        if !notes_match {
            for note in &self.notes {
                put(w, "Note", &sanitize(note))?;
            }
        }
        Ok(())
    }
}

/// Whether `k` (trimmed) looks like a header keyword: one word of letters,
/// digits, `_` or `-`.
fn is_keyword(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
}

/// A text in a message: quoted, escaped, cut to 40 characters.
fn quoted(text: &str) -> String {
    format!("{:?}", crate::error::excerpt(text.as_bytes()))
}

/// Writes one header line.
fn put<W: Write>(w: &mut W, keyword: &str, value: &str) -> io::Result<()> {
    let value = value.trim();
    match (keyword.is_empty(), value.is_empty()) {
        (true, true) => writeln!(w, ";"),
        (true, false) => writeln!(w, "; {value}"),
        (false, true) => writeln!(w, "; {keyword}:"),
        (false, false) => writeln!(w, "; {keyword}: {value}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(text: &str) -> SwfHeader {
        let mut h = SwfHeader::default();
        for line in text.lines() {
            let content = line.trim_start().strip_prefix(';').unwrap();
            let _ = h.push_comment(content);
        }
        h
    }

    #[test]
    fn padded_keywords_comments_and_notes_in_values() {
        let h = header(
            ";  Installation: DAS2 - Leiden University (fs1)\n\
             ;TimeZoneString: Europe/Amsterdam  # CET (Central European Time; UTC+1)\n\
             ;      MaxNodes: 338 (batch partition; 512 total)\n\
             ;      MaxProcs: 64\n\
             ;   group of the San Diego Supercomputer Center (SDSC), which is the\n\
             ;              http://www.cs.huji.ac.il/labs/parallel/workload/\n\
             ;\n\
             ; Note: first\n\
             ; Note: second # not a comment for notes",
        );
        assert_eq!(
            h.installation.as_deref(),
            Some("DAS2 - Leiden University (fs1)")
        );
        assert_eq!(h.time_zone_string.as_deref(), Some("Europe/Amsterdam"));
        assert_eq!(h.max_nodes, Some(338));
        assert_eq!(h.max_procs, Some(64));
        assert_eq!(h.notes, vec!["first", "second # not a comment for notes"]);
        assert_eq!(
            h.lines[0],
            (
                "Installation".into(),
                "DAS2 - Leiden University (fs1)".into()
            )
        );
        assert_eq!(h.lines[4].0, "");
        assert_eq!(
            h.lines[5],
            (
                String::new(),
                "http://www.cs.huji.ac.il/labs/parallel/workload/".into()
            )
        );
        assert_eq!(h.lines[6], (String::new(), String::new()));
    }

    #[test]
    fn numbers() {
        let int = |v| header_int(v, COUNT_RANGE);
        assert_eq!(int("893466664"), Ok(Some(893466664)));
        assert_eq!(int(" 32 (dual CPU)"), Ok(Some(32)));
        assert_eq!(int("3600   # DEPRECATED"), Ok(Some(3600)));
        assert_eq!(int("-1"), Ok(None));
        assert_eq!(int(""), Ok(None));
        assert_eq!(int("unknown"), Err(ValueError::NotANumber));
        assert_eq!(int("+7"), Ok(Some(7)));
        assert_eq!(int("64 processors"), Ok(Some(64)));
        assert_eq!(int("64 - batch only"), Ok(Some(64)));
        assert_eq!(int("64\t(dual CPU)"), Ok(Some(64)));
        // Never a prefix: each of these would otherwise read as 8 (or be
        // taken for a missing value and fall back to another keyword).
        for bad in [
            "8.9", "8e1", "8E1", "0x10", "8abc", "8,5", "8_000", "8 16", "8 -16", "8 .5", "8 +1",
            "-", "+", "--1", "+-1", "1-", "(8)", "# 8",
        ] {
            let got = int(bad);
            let expected = if bad == "# 8" {
                Ok(None) // all comment: an empty value
            } else {
                Err(ValueError::NotANumber)
            };
            assert_eq!(got, expected, "{bad:?}");
        }
        assert_eq!(
            int(&"9".repeat(60)),
            Err(ValueError::OutOfRange(COUNT_RANGE))
        );
        let machine = Err(ValueError::OutOfRange(MACHINE_RANGE));
        assert_eq!(normalize(Key::MaxProcs, "-5"), machine);
        assert_eq!(normalize(Key::MaxProcs, "4294967295"), machine);
        assert_eq!(normalize(Key::MaxNodes, "10000001"), machine);
        assert_eq!(
            normalize(Key::MaxProcs, "10000000"),
            Ok(Some("10000000".into()))
        );
        assert_eq!(normalize(Key::MaxProcs, "0"), Ok(Some("0".into())));
        assert!(MACHINE_RANGE.contains(&format!("to {},", crate::MAX_PROCS)));
        assert_eq!(
            normalize(Key::MaxJobs, "18446744073709551615"),
            Ok(Some(u64::MAX.to_string()))
        );
        assert_eq!(
            normalize(Key::MaxJobs, "18446744073709551616"),
            Err(ValueError::OutOfRange(COUNT_RANGE))
        );
        assert_eq!(
            normalize(Key::UnixStartTime, "-893466664"),
            Ok(Some("-893466664".into()))
        );
        let mut h = SwfHeader::default();
        assert!(!h.push_line("MaxProcs", "many"));
        assert!(h.push_line("MaxProcs", "12"));
        assert_eq!(h.max_procs, Some(12));
        // Another value is a contradiction: refused, the first stays.
        assert!(!h.push_line("MaxProcs", "13"));
        assert_eq!(h.max_procs, Some(12), "the first usable value wins");
        assert!(h.push_line("MaxProcs", "12 (again)"));
    }

    #[test]
    fn typed_fields_win_when_writing() {
        let mut h = header("; Computer: IBM SP2\n; MaxRecords: 10\n; Note: a\n; Information: x");
        h.max_records = Some(3);
        h.max_procs = Some(128);
        h.notes.push("b".into());
        let mut out = Vec::new();
        h.write(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "; MaxProcs: 128\n; Computer: IBM SP2\n; MaxRecords: 3\n; Information: x\n; Note: a\n; Note: b\n"
        );
    }
}
