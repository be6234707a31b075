//! Text written into another format, encoded at the boundary: one function
//! family per output format, and every writer of the pipeline goes through
//! it.
//!
//! Whatever comes from a configuration or a file (titles, paper names,
//! series, workload labels, claim text, notes, error messages quoting them)
//! is *user text*: it may hold anything a TOML string can. Each function
//! here turns user text into a piece of its format that cannot change the
//! structure around it:
//!
//! - [`markdown`]: for `summary.md`, `docs/REPRODUCTION.md` and the report
//!   on stdout. Line breaks (LF, CR, TAB) become a space, so user text never
//!   starts a line of its own; `|`, `\`, `*`, `_`, `~` are
//!   backslash-escaped, and so is a `]` before `(` (no inline link or
//!   image); `<`, `>`, `&` become HTML entities (no HTML, no autolink); a
//!   leading `#`, `[`, list marker (`- `, `+ `, `1. `) or `-`/`=` run is
//!   escaped so the text cannot open a heading, a list, a thematic break, a
//!   setext underline or a link reference definition. Brackets alone stay
//!   (`[1.0, 2.0]` is text), and so does a balanced code span
//!   (`` `mean_bsld` ``) unless it holds `<`, `>`, `\`, `|` or `](` (a `|`
//!   needs `\|` in a table, which shows the backslash anywhere else); a
//!   lone backtick is escaped. [`markdown_code`] makes a code span for a
//!   table cell, [`markdown_code_outside_table`] one for a heading or a
//!   paragraph.
//! - [`xml`]: text and attribute values of the SVG figures: `& < > " '` as
//!   entities, characters XML 1.0 forbids (controls other than TAB, LF and
//!   CR; U+FFFE, U+FFFF) made visible, so the document stays well-formed.
//! - [`csv_field`] and [`csv_text`]: RFC 4180 fields; a field holding `,`
//!   `"` CR or LF is quoted. [`csv_text`] is for text columns (panel,
//!   series, names): a field that a spreadsheet would run as a formula
//!   (first character `=`, `+`, `-`, `@`, TAB or CR) gets a `'` prefix
//!   inside quotes, the OWASP rule; [`csv_text_decode`] undoes it after
//!   parsing. Numeric columns never go through [`csv_text`]: `-2.5` stays a
//!   number.
//! - [`terminal`]: user text printed on stdout or stderr. Line feeds and
//!   tabs stay; every other control character goes.
//! - [`terminal_name`] and [`terminal_path`]: one name (a path, a trace
//!   name, a label, an id) quoted inside a message: every control character,
//!   line feeds and tabs included, is made visible, so a name never starts
//!   a line of its own (a fake `error:` line) even in a message that
//!   [`terminal`] prints with its line feeds.
//! - [`file_name`]: user text as one portable file name (no directory part,
//!   never hidden, at most [`FILE_NAME_MAX`] bytes).
//! - [`toml_document`]: a whole TOML document the tool writes (`run.toml`,
//!   cells files, the results marker), its strings' unsafe characters
//!   written as TOML escapes (`\u202E`), so it reads back to the same values.
//!
//! Names (series, panel ids, workload labels, string x values) are data
//! that must read back exactly, so they hold none of what any of these
//! writes other than as itself ([`is_escaped`]): [`check_name`] refuses
//! such a name where the configuration is read.
//!
//! In every format, the characters that are never safe to write raw are
//! made visible as `\u{..}` (lower-case hex, Rust's notation): C0 controls
//! (except the ones a format allows), DEL, C1 controls, and the Unicode
//! bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
//! U+2066–U+2069) that reorder how text around them is displayed ("Trojan
//! Source"). [`is_unsafe`] names them.
//!
//! ```
//! use experiments::encode;
//!
//! assert_eq!(encode::markdown("# a | b\nc"), r"\# a \| b c");
//! assert_eq!(encode::xml("</text><script>"), "&lt;/text&gt;&lt;script&gt;");
//! assert_eq!(encode::csv_text("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
//! assert_eq!(encode::csv_field("-2.5"), "-2.5");
//! assert_eq!(encode::terminal("\u{1b}[31mred"), "\\u{1b}[31mred");
//! assert_eq!(encode::terminal_name("a\nerror: b"), "a\\u{a}error: b");
//! ```

use std::fmt::Write as _;

mod message;
mod toml_doc;
pub use message::{
    LIST_SHOWN, MESSAGE_RUN_LIMIT, list_shown, shorten, shorten_runs, terminal_message,
};
pub use toml_doc::toml_document;

/// Whether `c` is a bidirectional formatting control, which reorders the
/// display of the text around it.
fn is_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// Whether `c` is never written raw into any output: a control character
/// (C0, DEL, C1) other than TAB, LF and CR, or a bidirectional control.
/// TAB, LF and CR are each format's decision.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || is_bidi(c)
}

/// Whether some encoder of this module writes `c` other than as itself
/// (in the visible notation `\u{..}`, or as a space): every control
/// character (C0 with TAB, LF and CR, DEL, C1), the bidirectional
/// controls, and U+FFFE and U+FFFF (not XML characters). The one
/// predicate behind [`check_name`], [`terminal_name`] and [`xml`], so what
/// a name may hold and what the outputs write as it is cannot drift apart.
pub fn is_escaped(c: char) -> bool {
    c.is_control() || is_bidi(c) || matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// Whether `c` shows as nothing, or as a blank other than the space
/// U+0020, so that a name holding it looks like one without it or with a
/// plain space: Unicode's default-ignorable code points (soft hyphen,
/// zero-width spaces and joiners, word joiners and invisible operators,
/// variation selectors, the byte order mark, tags, fillers) and the
/// other spaces and separators (no-break and typographic spaces, the line
/// and paragraph separators). Names hold none ([`check_name`]); free text
/// (a title, a claim) may.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00a0}'
            | '\u{00ad}'
            | '\u{034f}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{1680}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{2000}'..='\u{200d}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'..='\u{206f}'
            | '\u{3000}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Checks text that a configuration gives as a *name*: a series, a panel
/// id, a workload label, a string x value; anything that becomes a field of
/// `data.csv`, a label of `figure.svg`, a cell of `summary.md` or a part
/// of an id, and must read back exactly as written. A name is not empty
/// and holds no [`is_escaped`] character: every output writes it as it
/// is, so it round-trips, and two distinct names stay distinct everywhere;
/// nor an [`is_invisible`] one, so they also look distinct.
/// The error says what is wrong, for a message that names the field.
///
/// ```
/// use experiments::encode::check_name;
///
/// assert!(check_name("easy@KTH-SP2 (é)").is_ok());
/// assert!(check_name("a\u{202e}b").unwrap_err().contains("U+202E"));
/// assert!(check_name("a\tb").is_err());
/// assert!(check_name("a\u{200b}b").unwrap_err().contains("U+200B"));
/// assert!(check_name("a\u{a0}b").is_err());
/// assert!(check_name("").is_err());
/// ```
pub fn check_name(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Err("is empty; give it a name".into());
    }
    if let Some((i, c)) = s.chars().enumerate().find(|(_, c)| is_invisible(*c)) {
        return Err(format!(
            "holds U+{:04X} (an invisible character, or a blank other than a plain space) at \
             character {}, so two names that differ by it look the same in every output; \
             remove it, or write a plain space",
            u32::from(c),
            i + 1
        ));
    }
    match s.chars().enumerate().find(|(_, c)| is_escaped(*c)) {
        Some((i, c)) => {
            let what = if is_bidi(c) {
                "a bidirectional control"
            } else if c.is_control() {
                "a control character"
            } else {
                "not a character of XML"
            };
            Err(format!(
                "holds U+{:04X} ({what}) at character {}, which some output (data.csv, \
                 figure.svg, summary.md, a message) writes escaped (`{}`) or replaced, so the \
                 name would not read back as written; a name holds no control or \
                 bidirectional characters: remove it",
                u32::from(c),
                i + 1,
                terminal_name(&c.to_string())
            ))
        }
        None => Ok(()),
    }
}

/// Appends `c` in the visible notation `\u{1b}`.
fn push_visible(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// The longest name [`file_name`] returns, in bytes (with room for an
/// extension such as `.jobs.csv` under the usual 255-byte limit).
pub const FILE_NAME_MAX: usize = 160;

/// User text as one file name, the same on every file system: ASCII
/// letters, digits, `-` and `.` stay, a space becomes `_`, and every other
/// byte of the UTF-8 text (`_` and `%` too) is written `%XX` (upper-case
/// hex), as is a leading `.`; so distinct texts give distinct names and
/// none holds `/`, is hidden or is `..`. A name longer than
/// [`FILE_NAME_MAX`] bytes is cut and ends in `~` and the first 16 hex
/// digits of the text's SHA-256, which keeps it distinct. Empty text is `%`.
///
/// ```
/// use experiments::encode::file_name;
///
/// assert_eq!(file_name("easy on KTH-SP2 at load = 0.8"), "easy_on_KTH-SP2_at_load_%3D_0.8");
/// assert_eq!(file_name("../x_y"), "%2E.%2Fx%5Fy");
/// ```
pub fn file_name(s: &str) -> String {
    if s.is_empty() {
        return "%".to_string();
    }
    let mut out = String::with_capacity(s.len());
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'.' if i == 0 => out.push_str("%2E"),
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' => out.push(char::from(b)),
            b' ' => out.push('_'),
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    if out.len() > FILE_NAME_MAX {
        let digest = crate::digest::sha256_hex(s.as_bytes());
        out.truncate(FILE_NAME_MAX - 17);
        out.push('~');
        out.push_str(&digest[..16]);
    }
    out
}

/// User text as inline Markdown (see the module documentation): safe in a
/// paragraph, a heading, a list item or a table cell, and never more than
/// one line.
pub fn markdown(s: &str) -> String {
    markdown_with(s, true)
}

/// Text the tool composes around names (a claim's value, `easy 92.8 vs
/// fcfs 1123 at SDSC`) as inline Markdown: [`markdown`], but a backtick is
/// always a backtick, so two names that hold one do not pair into a code
/// span across the text between them.
pub fn markdown_plain(s: &str) -> String {
    markdown_with(s, false)
}

fn markdown_with(s: &str, code_spans: bool) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    let marker = block_marker(&chars);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if Some(i) == marker {
            out.push('\\');
            out.push(c);
            i += 1;
            continue;
        }
        if c == '`' {
            let n = chars[i..].iter().take_while(|&&k| k == '`').count();
            match code_span_end(&chars, i + n, n).filter(|_| code_spans) {
                Some(close) => {
                    // A code span shows its content literally.
                    out.extend(&chars[i..i + n]);
                    for &k in &chars[i + n..close] {
                        match k {
                            '\n' | '\r' | '\t' => out.push(' '),
                            k if is_unsafe(k) => push_visible(&mut out, k),
                            k => out.push(k),
                        }
                    }
                    out.extend(&chars[close..close + n]);
                    i = close + n;
                }
                None => {
                    for _ in 0..n {
                        out.push_str("\\`");
                    }
                    i += n;
                }
            }
            continue;
        }
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            ']' if chars.get(i + 1) == Some(&'(') => out.push_str("\\]"),
            '\\' | '*' | '_' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c if is_unsafe(c) => push_visible(&mut out, c),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// Where a block marker at the start of `chars` is (the character to
/// escape): `#` or `[` (a heading, a link reference definition); `+`, `-`
/// or `=` not followed by a letter or digit (a list item, a thematic break,
/// a setext underline; `-2.5` and `-cmd` stay as they are); the `.` or `)`
/// of a list number followed by a space (`1. x`, not `0.25`).
fn block_marker(chars: &[char]) -> Option<usize> {
    let plain_after = |j: usize| chars.get(j).is_none_or(|c| !c.is_alphanumeric());
    match chars.first() {
        Some('#' | '[') => Some(0),
        Some('+' | '-' | '=') if plain_after(1) => Some(0),
        Some(c) if c.is_ascii_digit() => {
            let d = chars.iter().take_while(|c| c.is_ascii_digit()).count();
            let dot = matches!(chars.get(d), Some('.' | ')'));
            (dot && chars.get(d + 1).is_none_or(|c| c.is_whitespace())).then_some(d)
        }
        _ => None,
    }
}

/// The start of the run of exactly `n` backticks that closes a code span
/// opened before `from`, if its content holds no `<`, `>`, `\` or `](`
/// (so no HTML tag or link can begin inside it and end outside).
fn code_span_end(chars: &[char], from: usize, n: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '`' {
            let m = chars[j..].iter().take_while(|&&k| k == '`').count();
            if m == n {
                let content = &chars[from..j];
                // A backslash inside is literal, so `\|` would end a table
                // cell, and a `|` needs `\|` in a table but shows the
                // backslash anywhere else: such content is escaped as text.
                let unsafe_inside = content.iter().any(|c| matches!(c, '<' | '>' | '\\' | '|'))
                    || content.windows(2).any(|w| w == [']', '(']);
                return (!unsafe_inside).then_some(j);
            }
            j += m;
        } else {
            j += 1;
        }
    }
    None
}

/// User text as a Markdown code span for a table cell, backticks
/// included: fenced with more backticks than the longest run inside, on one
/// line, unsafe characters made visible (`` `mean_bsld` ``), and `|`
/// written `\|`, which a table shows as `|` even inside a code span.
pub fn markdown_code(s: &str) -> String {
    code_span(s, true)
}

/// [`markdown_code`] for a heading or a paragraph: `|` stays `|`, since
/// outside a table a backslash in a code span is shown as it is.
pub fn markdown_code_outside_table(s: &str) -> String {
    code_span(s, false)
}

fn code_span(s: &str, in_table: bool) -> String {
    let mut text = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' => text.push(' '),
            c if is_unsafe(c) => push_visible(&mut text, c),
            c => text.push(c),
        }
    }
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || text.is_empty() {
        " "
    } else {
        ""
    };
    // A `|` would end a table cell even inside a code span.
    let text = if in_table {
        text.replace('|', "\\|")
    } else {
        text
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A path or URL as a Markdown link destination: every byte outside
/// `A-Z a-z 0-9 - . _ ~ /` percent-encoded, so it cannot end the link,
/// name a scheme (`javascript:`) or hold a space or line break.
pub fn markdown_url(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// User text as XML 1.0 character data or an attribute value (either
/// quote): always well-formed.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if is_escaped(c) => push_visible(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// One RFC 4180 field: quoted (with `"` doubled) when it holds `,`, `"`,
/// CR or LF; unsafe characters made visible. For numbers, and for text
/// that cannot start with a formula character; user text goes through
/// [`csv_text`].
pub fn csv_field(s: &str) -> String {
    let clean = visible_unsafe(s);
    if clean.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", clean.replace('"', "\"\""))
    } else {
        clean
    }
}

/// Whether a spreadsheet would read text starting with `c` as a formula.
fn formula_start(c: char) -> bool {
    matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r')
}

/// Whether `s` (text, after any `'` already there) gets the `'` prefix.
fn neutralised(s: &str) -> bool {
    s.trim_start_matches('\'')
        .chars()
        .next()
        .is_some_and(formula_start)
}

/// A text field of a CSV file: [`csv_field`], and a field a spreadsheet
/// would run as a formula gets a `'` prefix inside quotes. The prefix is
/// also added before text that already starts with `'`s followed by a
/// formula character, so [`csv_text_decode`] restores any text exactly.
pub fn csv_text(s: &str) -> String {
    let clean = visible_unsafe(s);
    if neutralised(&clean) {
        format!("\"'{}\"", clean.replace('"', "\"\""))
    } else {
        csv_field(&clean)
    }
}

/// The text [`csv_text`] encoded, from the parsed (unquoted) field: the
/// `'` prefix removed.
pub fn csv_text_decode(field: &str) -> &str {
    match field.strip_prefix('\'') {
        Some(rest) if neutralised(rest) => rest,
        _ => field,
    }
}

/// User text for a terminal: line feeds and tabs stay (a multi-line error
/// message keeps its lines); CR, ESC, BEL, every other control character
/// and the bidirectional controls are made visible.
pub fn terminal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\r' || is_unsafe(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// One name inside a message for a terminal (a path, a trace name, a
/// label, an id): every control character, LF, CR and TAB included, and
/// the bidirectional controls are made visible, so the name stays on the
/// line it was put on, and a backslash is doubled, so a name that holds
/// the text `\u{a}` never reads like one holding a line feed; everything
/// else is unchanged. [`terminal`], which keeps the message's own line
/// feeds, leaves the result as it is.
///
/// ```
/// use experiments::encode::terminal_name;
///
/// assert_eq!(terminal_name("x\nerror: fake.swf"), r"x\u{a}error: fake.swf");
/// assert_eq!(terminal_name("KTH-SP2 (é)\t"), r"KTH-SP2 (é)\u{9}");
/// assert_eq!(terminal_name(r"x\u{a}y"), r"x\\u{a}y");
/// ```
pub fn terminal_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_escaped(c) {
            push_visible(&mut out, c);
        } else if c == '\\' {
            out.push_str("\\\\");
        } else {
            out.push(c);
        }
    }
    out
}

/// A path as one name inside a message for a terminal: [`terminal_name`]
/// of its text (bytes that are not UTF-8 shown as U+FFFD, as
/// [`Path::display`](std::path::Path::display) shows them).
///
/// ```
/// use std::path::Path;
/// use experiments::encode::terminal_path;
///
/// assert_eq!(terminal_path(Path::new("traces/a\rb.swf")), r"traces/a\u{d}b.swf");
/// ```
pub fn terminal_path(p: &std::path::Path) -> String {
    terminal_name(&p.to_string_lossy())
}

/// `s` with the [`is_unsafe`] characters made visible.
fn visible_unsafe(s: &str) -> String {
    if !s.chars().any(is_unsafe) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_distinct() {
        check(
            file_name,
            &[
                ("easy on KTH-SP2", "easy_on_KTH-SP2"),
                ("a_b", "a%5Fb"),
                ("a b", "a_b"),
                ("..", "%2E."),
                ("x/y\\z", "x%2Fy%5Cz"),
                ("", "%"),
                ("é", "%C3%A9"),
                ("100%", "100%25"),
            ],
        );
        let long = "x".repeat(400);
        let a = file_name(&long);
        let b = file_name(&format!("{long}y"));
        assert_eq!(a.len(), FILE_NAME_MAX);
        assert_ne!(a, b);
    }

    fn check(f: fn(&str) -> String, cases: &[(&str, &str)]) {
        for (input, expected) in cases {
            assert_eq!(f(input), *expected, "{input:?}");
        }
    }

    #[test]
    fn markdown_cases() {
        check(
            markdown,
            &[
                ("plain text, 12(6)", "plain text, 12(6)"),
                ("a\nb\r\nc", "a b  c"),
                ("# h", r"\# h"),
                ("a # b", "a # b"),
                ("- x", r"\- x"),
                ("---", r"\---"),
                ("-2.5 and -cmd", "-2.5 and -cmd"),
                ("12. x", r"12\. x"),
                ("0.25", "0.25"),
                ("12 x", "12 x"),
                ("see `a_b|c` and `x", r"see \`a\_b\|c` and `x"),
                ("see `a_b` and `c`", r"see `a_b` and `c`"),
                ("`<b>` ``a`b``", r"\`&lt;b&gt;` ``a`b\`\`"),
                ("`a\\|b`", r"\`a\\\|b\`"),
                ("| a |", r"\| a \|"),
                ("<script>&", "&lt;script&gt;&amp;"),
                (
                    "[x](y) *b* _i_ `c` ~s~ \\",
                    r"\[x\](y) \*b\* \_i\_ `c` \~s\~ \\",
                ),
                ("a [1, 2] ![i](j)", r"a [1, 2] ![i\](j)"),
                ("\u{1b}[31m\u{7}\u{202e}\0", r"\u{1b}[31m\u{7}\u{202e}\u{0}"),
                ("é日本", "é日本"),
            ],
        );
    }

    #[test]
    fn markdown_code_and_url_cases() {
        check(
            markdown_code,
            &[
                ("mean_bsld", "`mean_bsld`"),
                ("a`b", "``a`b``"),
                ("`", "`` ` ``"),
                ("a|b\n", "`a\\|b `"),
            ],
        );
        check(
            markdown_code_outside_table,
            &[("a|b", "`a|b`"), ("a`|", "``a`|``")],
        );
        check(
            markdown_url,
            &[
                ("../results/a/b/figure.svg", "../results/a/b/figure.svg"),
                ("javascript:x(1) y", "javascript%3Ax%281%29%20y"),
                ("é", "%C3%A9"),
            ],
        );
    }

    #[test]
    fn xml_cases() {
        check(
            xml,
            &[
                ("a'b\"c", "a&#39;b&quot;c"),
                ("]]></text>", "]]&gt;&lt;/text&gt;"),
                ("\t\n\r", "\t\n\r"),
                (
                    "\u{0}\u{1b}\u{7f}\u{85}\u{fffe}\u{2066}",
                    r"\u{0}\u{1b}\u{7f}\u{85}\u{fffe}\u{2066}",
                ),
            ],
        );
    }

    #[test]
    fn csv_cases() {
        check(
            csv_field,
            &[
                ("-2.5", "-2.5"),
                ("a,b", "\"a,b\""),
                ("a\"b", "\"a\"\"b\""),
                ("a\nb", "\"a\nb\""),
                ("\u{1b}", r"\u{1b}"),
            ],
        );
        check(
            csv_text,
            &[
                ("easy", "easy"),
                ("=1+1", "\"'=1+1\""),
                ("+1", "\"'+1\""),
                ("-cmd", "\"'-cmd\""),
                ("@SUM(A1)", "\"'@SUM(A1)\""),
                ("\tx", "\"'\tx\""),
                ("\rx", "\"'\rx\""),
                ("'=x", "\"''=x\""),
                ("'x", "'x"),
            ],
        );
        for s in ["=x", "'=x", "''=x", "'x", "x", "-", "'"] {
            let encoded = csv_text(s);
            let unquoted = encoded
                .strip_prefix('"')
                .and_then(|e| e.strip_suffix('"'))
                .unwrap_or(&encoded);
            assert_eq!(csv_text_decode(unquoted), s, "{s:?}");
        }
    }

    #[test]
    fn terminal_cases() {
        check(
            terminal,
            &[
                ("line 1\n\tline 2", "line 1\n\tline 2"),
                ("a\rb", r"a\u{d}b"),
                ("\u{1b}]0;title\u{7}", r"\u{1b}]0;title\u{7}"),
                ("\u{9b}31m", r"\u{9b}31m"),
                ("\u{202e}abc", r"\u{202e}abc"),
            ],
        );
    }

    #[test]
    fn terminal_name_cases() {
        check(
            terminal_name,
            &[
                ("traces/KTH-SP2.swf.gz", "traces/KTH-SP2.swf.gz"),
                ("x\nerror: faked.swf", r"x\u{a}error: faked.swf"),
                ("a\r\nb\tc", r"a\u{d}\u{a}b\u{9}c"),
                (
                    "\u{1b}[31m\u{7}\u{0}\u{7f}\u{85}",
                    r"\u{1b}[31m\u{7}\u{0}\u{7f}\u{85}",
                ),
                ("\u{2067}abc\u{200e}", r"\u{2067}abc\u{200e}"),
                // A backslash is doubled: the text `\u{a}` is not a line feed.
                ("é 日本 \\ 'q' \"d\"", "é 日本 \\\\ 'q' \"d\""),
                (r"x\u{a}y", r"x\\u{a}y"),
                ("", ""),
            ],
        );
        // Nothing is left for the message encoding to change.
        for s in ["a\nb", "\u{1b}\t\r", "\u{202e}"] {
            let name = terminal_name(s);
            assert_eq!(terminal(&name), name, "{s:?}");
            assert!(!name.contains(['\n', '\r', '\t']), "{s:?}");
        }
    }

    /// The name predicate and the encoders agree on every character: what
    /// [`check_name`] accepts, every writer writes as itself (up to its
    /// format's own quoting), and what it refuses, some writer would not.
    #[test]
    fn names_hold_exactly_what_every_encoder_writes_as_itself() {
        let shown_escaped = |out: &str| out.contains("\\u{");
        for c in (0..=0x10_ffff_u32).filter_map(char::from_u32) {
            let s = c.to_string();
            let outputs = [
                csv_text(&s),
                csv_field(&s),
                xml(&s),
                markdown(&s),
                markdown_code(&s),
                terminal(&s),
                terminal_name(&s),
            ];
            let any_escaped =
                outputs.iter().any(|o| shown_escaped(o)) || (markdown(&s) == " " && c != ' ');
            if c == '\\' {
                // A backslash is itself everywhere; Markdown and messages
                // double it (reversibly).
                assert!(check_name(&s).is_ok());
                continue;
            }
            // Refused: what some output escapes, and what shows as
            // nothing or as another blank (written as itself, but two names
            // differing by it would look alike).
            assert_eq!(
                check_name(&s).is_err(),
                any_escaped || is_invisible(c),
                "{c:?}"
            );
            assert_eq!(is_escaped(c), any_escaped, "{c:?}");
        }
    }

    #[test]
    fn terminal_paths_are_their_names() {
        use std::path::Path;

        assert_eq!(
            terminal_path(Path::new("out/x\nerror: y")),
            r"out/x\u{a}error: y"
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let not_utf8 = Path::new(std::ffi::OsStr::from_bytes(b"a\xffb\n"));
            assert_eq!(terminal_path(not_utf8), "a\u{fffd}b\\u{a}");
        }
    }
}
