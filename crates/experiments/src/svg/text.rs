//! Text: rough widths for layout, XML escaping (`crate::encode::xml`), `<text>` elements, word
//! wrapping and small counts in words.

use std::fmt::Write as _;

/// Rough width of one character at 12 px, for layout.
const CHAR_W: f64 = 6.8;

/// Rough width of `s` at `size` px.
pub(super) fn text_w(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * CHAR_W * size / 12.0
}

pub(crate) use crate::encode::xml as esc;

pub(super) fn text(
    out: &mut String,
    x: f64,
    y: f64,
    size: u32,
    anchor: &str,
    extra: &str,
    s: &str,
) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}"{extra}>{}</text>"#,
        esc(s)
    );
}

/// `s` in lines of at most `width` px at `size` px (glyphs averaging `em`
/// of the size), broken between words; a longer word keeps a line alone.
pub(super) fn wrap(s: &str, width: f64, size: f64, em: f64) -> Vec<String> {
    let fits = |t: &str| t.chars().count() as f64 * size * em <= width;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        if line.is_empty() {
            line = word.to_string();
        } else if fits(&format!("{line} {word}")) {
            line = format!("{line} {word}");
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `n` as a word for small counts ("one run"), else digits.
pub(super) fn count(n: u32, what: &str) -> String {
    match n {
        1 => format!("one {what}"),
        n => format!("{n} {what}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_between_words() {
        let check = |s: &str, width: f64, expected: &[&str]| {
            assert_eq!(wrap(s, width, 10.0, 0.5), expected, "{s} in {width} px");
        };
        check("", 100.0, &[""]);
        check("one two three", 100.0, &["one two three"]);
        // 5 px a character: "one two" is 35 px.
        check("one two three", 35.0, &["one two", "three"]);
        check("one two three", 20.0, &["one", "two", "three"]);
        check("extraordinary a", 20.0, &["extraordinary", "a"]);
    }
}
