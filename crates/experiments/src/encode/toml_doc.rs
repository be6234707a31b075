//! TOML documents as the tool writes them (`run.toml`, cells files, the
//! results marker): no [`is_unsafe`] character raw, the values unchanged.

use std::fmt::Write as _;

use super::{is_unsafe, push_visible};

/// A TOML document (as the `toml` crate writes it, or any valid one) with
/// every [`is_unsafe`] character (a control other than TAB, LF and CR; a
/// bidirectional control) inside a string written as the escape
/// `\uXXXX`, so it parses to the same keys and values and shows none raw.
/// A literal string (`'...'`, which has no escapes) holding one is written
/// as a basic string instead; in a comment, one is made visible (`\u{202e}`).
/// A document without one is returned as it is, byte for byte.
///
/// ```
/// use experiments::encode::toml_document;
///
/// assert_eq!(toml_document("a = \"x\u{202e}y\"\n"), "a = \"x\\u202Ey\"\n");
/// assert_eq!(toml_document("a = 'x\"\u{85}'\n"), "a = \"x\\\"\\u0085\"\n");
/// assert_eq!(toml_document("a = 'plain'\n"), "a = 'plain'\n");
/// ```
pub fn toml_document(doc: &str) -> String {
    if !doc.chars().any(is_unsafe) {
        return doc.to_string();
    }
    let chars: Vec<char> = doc.chars().collect();
    let mut out = String::with_capacity(doc.len() + 32);
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    push_raw_or_visible(&mut out, chars[i]);
                    i += 1;
                }
            }
            '"' => i = basic(&chars, i, &mut out),
            '\'' => i = literal(&chars, i, &mut out),
            c => {
                // Outside strings a valid document holds none; made
                // visible all the same.
                push_raw_or_visible(&mut out, c);
                i += 1;
            }
        }
    }
    out
}

fn push_raw_or_visible(out: &mut String, c: char) {
    if is_unsafe(c) {
        push_visible(out, c);
    } else {
        out.push(c);
    }
}

/// `c` as a TOML escape (every [`is_unsafe`] character is in the BMP).
fn push_escape(out: &mut String, c: char) {
    let _ = write!(out, "\\u{:04X}", u32::from(c));
}

/// The length of the opening delimiter at `i`: 3 for `"""` or `'''`, else 1.
fn opening(chars: &[char], i: usize, quote: char) -> usize {
    if chars[i..].starts_with(&[quote; 3]) {
        3
    } else {
        1
    }
}

/// The number of `quote`s from `i` on.
fn run_of(chars: &[char], i: usize, quote: char) -> usize {
    chars[i..].iter().take_while(|&&c| c == quote).count()
}

/// Copies the basic string (single- or multi-line) that opens at `start`,
/// its unsafe characters escaped; the index after its closing delimiter.
fn basic(chars: &[char], start: usize, out: &mut String) -> usize {
    let n = opening(chars, start, '"');
    out.extend(&chars[start..start + n]);
    let mut i = start + n;
    while i < chars.len() {
        match chars[i] {
            // An escape (or a multi-line string's line-ending backslash)
            // and the character after it, which is never unsafe.
            '\\' => {
                out.extend(&chars[i..(i + 2).min(chars.len())]);
                i += 2;
            }
            '"' => {
                let run = if n == 1 { 1 } else { run_of(chars, i, '"') };
                out.extend(&chars[i..i + run]);
                i += run;
                // A run of three or more closes a multi-line string (up to
                // two quotes before the closing three are content).
                if n == 1 || run >= 3 {
                    return i;
                }
            }
            c if is_unsafe(c) => {
                push_escape(out, c);
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    i
}

/// Copies the literal string (single- or multi-line) that opens at
/// `start`, or writes it as the basic string of the same value when it
/// holds an unsafe character; the index after its closing delimiter.
fn literal(chars: &[char], start: usize, out: &mut String) -> usize {
    let n = opening(chars, start, '\'');
    let from = start + n;
    let mut end = from;
    while end < chars.len() {
        if chars[end] == '\'' {
            let run = if n == 1 { 1 } else { run_of(chars, end, '\'') };
            if n == 1 {
                break;
            }
            if run >= 3 {
                end += run - 3;
                break;
            }
            end += run;
        } else {
            end += 1;
        }
    }
    let close = (end + n).min(chars.len());
    let content = &chars[from..end];
    if !content.iter().any(|&c| is_unsafe(c)) {
        out.extend(&chars[start..close]);
        return close;
    }
    let quotes = if n == 1 { "\"" } else { "\"\"\"" };
    out.push_str(quotes);
    for &c in content {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if is_unsafe(c) => push_escape(out, c),
            c => out.push(c),
        }
    }
    out.push_str(quotes);
    close
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every hostile text, as a value and as a key, written by the `toml`
    /// crate in whatever string style it picks, reads back the same after
    /// [`toml_document`], with no unsafe character left.
    #[test]
    fn documents_keep_their_values_and_lose_unsafe_characters() {
        let texts = [
            "plain",
            "x\u{202e}y",
            "a\"b\u{202e}",
            "back\\slash\u{85}",
            "it's\u{61c}",
            "multi\nline\u{2066}",
            "multi\n\"q\"\u{200e}\\",
            "multi\n'''\"\"\"\u{2069}",
            "\u{1b}[31m\u{7f}\u{9b}",
            "tab\there\u{202a}",
            "\"\"\u{200f}\"\"",
            "''\u{202d}''",
        ];
        let mut table = toml::Table::new();
        let mut nested = toml::Table::new();
        for (i, t) in texts.iter().enumerate() {
            table.insert(format!("k{i}"), toml::Value::String((*t).to_string()));
            nested.insert((*t).to_string(), toml::Value::String(format!("v{i}")));
        }
        table.insert(
            "list".into(),
            toml::Value::Array(texts.iter().map(|t| toml::Value::from(*t)).collect()),
        );
        table.insert("nested".into(), toml::Value::Table(nested));
        let written = toml::to_string(&table).unwrap();
        assert!(
            written.chars().any(is_unsafe),
            "the test writes unsafe text"
        );
        let encoded = toml_document(&written);
        assert!(!encoded.chars().any(is_unsafe), "{encoded}");
        let read: toml::Table = toml::from_str(&encoded).unwrap();
        assert_eq!(read, table, "{encoded}");
    }

    #[test]
    fn hand_written_documents() {
        let check = |doc: &str, expected: &str| {
            let out = toml_document(doc);
            assert_eq!(out, expected, "{doc:?}");
            let a: toml::Table = toml::from_str(doc).unwrap();
            let b: toml::Table = toml::from_str(&out).unwrap();
            assert_eq!(a, b, "{doc:?}");
        };
        check("a = 1 # note\n", "a = 1 # note\n");
        check("a = 1 # n\u{202e}\n", "a = 1 # n\\u{202e}\n");
        check("'k\u{85}' = 'v'\n", "\"k\\u0085\" = 'v'\n");
        check("a = \"\\\"\u{202e}\"\n", "a = \"\\\"\\u202E\"\n");
        check(
            "a = '''\nx\\\"\u{2066}'''\n",
            "a = \"\"\"\nx\\\\\\\"\\u2066\"\"\"\n",
        );
        check(
            "a = \"\"\"x\u{200e}\"\"\"\"\"\n",
            "a = \"\"\"x\\u200E\"\"\"\"\"\n",
        );
        check("a = '''x''''' # \u{61c}\n", "a = '''x''''' # \\u{61c}\n");
    }
}
