//! The NaN class (issue #19): every public function of the policy crates
//! `pricing`, `adaptive-requests` and `utility-match` that returns a float
//! returns a finite one, or refuses its input with a typed error naming the
//! field. Each such function has a property test over hostile inputs in its
//! crate's `tests/tests/finite.rs`; this test keeps the list of them
//! complete.
//!
//! The rule, read from the source with no parser beyond std:
//!
//! * a *float-returning function* is a `pub fn` (or `pub const fn`) item
//!   anywhere under the crate's `src/`, outside `#[cfg(test)]` modules,
//!   whose return type (the text after the `->` that follows its
//!   parameters) mentions `f64` or `f32` as a word: `f64`, `Option<f64>`,
//!   `Result<(f64, f64), E>`, `Vec<f64>`, `[(&str, f64); 12]`, `&(Want,
//!   f64)` all count, signatures over several lines too. `pub(crate)` and
//!   private functions do not count; a `pub fn` in a private module does,
//!   whether or not `lib.rs` re-exports it. A method declared in a `pub
//!   trait` counts too, as `Trait::method` (what the trait promises, every
//!   implementation must keep);
//! * [`COVERED`] lists each of them as (crate, file under `src/`, name,
//!   test), and the test must exist as `fn <test>(` in the crate's
//!   `tests/tests/finite.rs`, named `finite_...`.
//!
//! A new float-returning function without an entry fails here, and so does
//! an entry whose function or test has gone: add the property test (finite,
//! or a typed error naming the field, on NaN, the infinities, `f64::MAX`,
//! subnormals, `-0.0` and the edges of the integer types), then the entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crates under the rule (directories under `crates/`).
const CRATES: &[&str] = &["pricing", "adaptive-requests", "utility-match"];

/// Every float-returning public function, with the property test that
/// covers it: (crate, file under `src/`, function, test in
/// `tests/tests/finite.rs`).
const COVERED: &[(&str, &str, &str, &str)] = &[
    ("pricing", "cluster.rs", "cost", "finite_outcome_cost"),
    ("pricing", "control.rs", "partition", "finite_partition"),
    ("pricing", "control.rs", "rates", "finite_rates"),
    (
        "pricing",
        "price.rs",
        "libra_static_cost",
        "finite_libra_static_cost",
    ),
    (
        "pricing",
        "price.rs",
        "utilisation_rate",
        "finite_utilisation_rate",
    ),
    (
        "pricing",
        "price.rs",
        "libra_dollar_rate",
        "finite_libra_dollar_rate",
    ),
    (
        "pricing",
        "price.rs",
        "PriceFunction::cost",
        "finite_price_function_cost",
    ),
    ("pricing", "qos.rs", "means", "finite_means"),
    (
        "pricing",
        "qos.rs",
        "qos_satisfaction",
        "finite_qos_satisfaction",
    ),
    ("pricing", "qos.rs", "profitability", "finite_profitability"),
    ("pricing", "run.rs", "percent", "finite_percent"),
    ("pricing", "series.rs", "beta", "finite_beta"),
    ("adaptive-requests", "price.rs", "rate", "finite_rate"),
    (
        "adaptive-requests",
        "price.rs",
        "max_discount",
        "finite_max_discount",
    ),
    (
        "adaptive-requests",
        "price.rs",
        "incentive",
        "finite_incentive",
    ),
    (
        "adaptive-requests",
        "price.rs",
        "full_price",
        "finite_full_price",
    ),
    ("adaptive-requests", "price.rs", "price", "finite_price"),
    ("adaptive-requests", "req.rs", "budget", "finite_budget"),
    ("adaptive-requests", "sched.rs", "charge", "finite_charge"),
    (
        "adaptive-requests",
        "req.rs",
        "price_profile",
        "finite_price_profile",
    ),
    (
        "adaptive-requests",
        "stats.rs",
        "response",
        "finite_response",
    ),
    (
        "utility-match",
        "machine.rs",
        "occupation",
        "finite_occupation",
    ),
    ("utility-match", "machine.rs", "load", "finite_load"),
    (
        "utility-match",
        "metrics.rs",
        "load_balance",
        "finite_load_balance",
    ),
    ("utility-match", "metrics.rs", "named", "finite_named"),
    ("utility-match", "metrics.rs", "get", "finite_get"),
    ("utility-match", "model.rs", "options", "finite_options"),
    ("utility-match", "model.rs", "weight", "finite_weight"),
    ("utility-match", "model.rs", "preferred", "finite_preferred"),
    (
        "utility-match",
        "scenario.rs",
        "draw_utility",
        "finite_draw_utility",
    ),
    (
        "utility-match",
        "scheduler.rs",
        "utility_of",
        "finite_utility_of",
    ),
    (
        "utility-match",
        "utility.rs",
        "UtilityFunction::utility",
        "finite_utility",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `text` with comments, string and character literals blanked (newlines
/// kept), so that braces and keywords are only code's.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !ident(b.get(i.wrapping_sub(1)))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && char_literal_len(&b[i..]).is_some() {
            let n = char_literal_len(&b[i..]).unwrap_or(1);
            out.extend(std::iter::repeat_n(' ', n));
            i += n;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// The length of a character literal at the start of `b` (`'x'`, `'\n'`,
/// `'\u{7f}'`), or `None` for a lifetime.
fn char_literal_len(b: &[char]) -> Option<usize> {
    match b.get(1)? {
        '\\' => {
            let end = b.iter().skip(2).position(|&c| c == '\'')?;
            Some(end + 3)
        }
        _ if b.get(2) == Some(&'\'') => Some(3),
        _ => None,
    }
}

/// The index just past the block that opens at the first `{` at or after
/// `from` (matching braces), or the end of `code`.
fn block_end(code: &[char], from: usize) -> usize {
    let Some(open) = code[from..].iter().position(|&c| c == '{') else {
        return code.len();
    };
    let mut depth = 0usize;
    for (k, &c) in code.iter().enumerate().skip(from + open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// `code` with every `#[cfg(test)]` item (the unit-test modules) blanked.
fn without_test_items(code: &str) -> String {
    let mut b: Vec<char> = code.chars().collect();
    let pat: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + pat.len() <= b.len() {
        if b[i..i + pat.len()] == pat[..] {
            // The item ends at its block or, for `use` and the like, at `;`.
            let semi = b[i..].iter().position(|&c| c == ';').map(|p| i + p);
            let brace = b[i..].iter().position(|&c| c == '{').map(|p| i + p);
            let end = match (semi, brace) {
                (Some(s), Some(o)) if s < o => s + 1,
                (_, Some(_)) => block_end(&b, i),
                (Some(s), None) => s + 1,
                (None, None) => b.len(),
            };
            for c in &mut b[i..end] {
                if *c != '\n' {
                    *c = ' ';
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    b.into_iter().collect()
}

/// Where the word `word` first occurs in `text` (not inside a longer
/// identifier).
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(k, _)| k).find(|&k| {
        let before = text[..k].chars().next_back();
        let after = text[k + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Whether the word `word` occurs in `text`.
fn has_word(text: &str, word: &str) -> bool {
    find_word(text, word).is_some()
}

/// The return type of the function whose name ends at `at` in `code`: the
/// text after the parameters' `->`, up to the body, `;` or `where`; `None`
/// without one.
fn return_type(code: &[char], at: usize) -> Option<String> {
    let mut i = at;
    // Generics, then the parameters.
    let mut angle = 0i32;
    while i < code.len() {
        match code[i] {
            '<' => angle += 1,
            '>' => angle -= 1,
            '(' if angle == 0 => break,
            _ => {}
        }
        i += 1;
    }
    let mut depth = 0i32;
    while i < code.len() {
        match code[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    i += 1;
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let rest: String = code[i..].iter().take(2000).collect();
    let end = rest.find(['{', ';']).unwrap_or(rest.len());
    let sig = &rest[..end];
    let sig = match find_word(sig, "where") {
        Some(w) => &sig[..w],
        None => sig,
    };
    let arrow = sig.find("->")?;
    Some(
        sig[arrow + 2..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The identifier starting at `i` in `code`, and the index past it.
fn identifier(code: &[char], mut i: usize) -> (String, usize) {
    while code.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    let start = i;
    while code
        .get(i)
        .is_some_and(|c| c.is_alphanumeric() || *c == '_')
    {
        i += 1;
    }
    (code[start..i].iter().collect(), i)
}

/// Whether `code` has the keyword sequence `words` (separated by white
/// space) starting at `i`, not preceded by an identifier character.
fn keywords_at(code: &[char], i: usize, words: &[&str]) -> Option<usize> {
    if i > 0 && ident(code.get(i - 1)) {
        return None;
    }
    let mut j = i;
    for (n, w) in words.iter().enumerate() {
        if n > 0 {
            let before = j;
            while code.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            if j == before {
                return None;
            }
        }
        let w: Vec<char> = w.chars().collect();
        if code.get(j..j + w.len()) != Some(&w[..]) {
            return None;
        }
        j += w.len();
    }
    (!ident(code.get(j))).then_some(j)
}

/// The float-returning functions of one file: `name` or `Trait::method`.
fn float_functions(text: &str) -> Vec<String> {
    let code: Vec<char> = without_test_items(&code_only(text)).chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let item = keywords_at(&code, i, &["pub", "fn"])
            .or_else(|| keywords_at(&code, i, &["pub", "const", "fn"]));
        if let Some(j) = item {
            let (name, after) = identifier(&code, j);
            if return_type(&code, after).is_some_and(|r| has_word(&r, "f64") || has_word(&r, "f32"))
            {
                found.push(name);
            }
            i = after;
            continue;
        }
        if let Some(j) = keywords_at(&code, i, &["pub", "trait"]) {
            let (trait_name, after) = identifier(&code, j);
            let end = block_end(&code, after);
            let mut k = after;
            while k < end {
                if let Some(m) = keywords_at(&code, k, &["fn"]) {
                    let (name, past) = identifier(&code, m);
                    if return_type(&code, past)
                        .is_some_and(|r| has_word(&r, "f64") || has_word(&r, "f32"))
                    {
                        found.push(format!("{trait_name}::{name}"));
                    }
                    k = past;
                } else {
                    k += 1;
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

/// (crate, file under `src/`, function) of every float-returning public
/// function of the crates under the rule.
fn scanned() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for krate in CRATES {
        let src = root().join("crates").join(krate).join("src");
        for path in rust_files(&src) {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file = path
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            for name in float_functions(&text) {
                out.push((krate.to_string(), file.clone(), name));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_float_returning_function_has_a_finite_test() {
    let scanned = scanned();
    let mut listed: Vec<(String, String, String)> = COVERED
        .iter()
        .map(|&(c, f, n, _)| (c.to_string(), f.to_string(), n.to_string()))
        .collect();
    listed.sort();
    let missing: Vec<_> = scanned.iter().filter(|s| !listed.contains(s)).collect();
    let stale: Vec<_> = listed.iter().filter(|l| !scanned.contains(l)).collect();
    assert!(
        missing.is_empty(),
        "public functions returning a float with no entry in COVERED (xtask/tests/tests/float_api.rs); \
         add a `finite_<name>` property test to the crate's tests/tests/finite.rs (finite, or a \
         typed error naming the field, on hostile inputs) and list it: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "COVERED lists functions that no longer return a float (or are gone); remove them: \
         {stale:?}"
    );
    let mut counts: BTreeMap<&(String, String, String), usize> = BTreeMap::new();
    for s in &scanned {
        *counts.entry(s).or_default() += 1;
    }
    let twice: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        twice.is_empty(),
        "two float-returning functions share a name in one file; give each its own entry by \
         renaming one: {twice:?}"
    );
}

#[test]
fn every_listed_test_exists() {
    for &(krate, _, function, test) in COVERED {
        assert!(
            test.starts_with("finite_"),
            "{krate}: the test of {function} is {test}, expected a name starting finite_"
        );
        let path = root()
            .join("crates")
            .join(krate)
            .join("tests/tests/finite.rs");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let code = code_only(&text);
        assert!(
            code.contains(&format!("fn {test}(")),
            "{krate}: {function} is covered by {test}, which {} does not define",
            path.display()
        );
    }
}

/// The scanner on the shapes the rule names.
#[test]
fn the_scanner_reads_signatures() {
    let text = r#"
/// pub fn in_a_doc_comment() -> f64 {}
pub fn plain() -> f64 { 0.0 }
pub const fn constant() -> f32 { 0.0 }
pub fn multi_line<T: Into<u8>>(
    a: T,
    b: (f64, f64),
) -> Result<(f64, f64), Error>
where
    T: Copy,
{
    todo!()
}
pub fn argument_only(x: f64) -> u8 { let s = "-> f64 {"; 0 }
pub fn array(&self) -> [(&'static str, f64); 2] { [] }
pub fn no_return(x: f64) {}
pub fn f64_in_name() -> Vec<f64x> { vec![] }
pub(crate) fn crate_only() -> f64 { 0.0 }
fn private() -> f64 { 0.0 }
pub trait Price {
    /// The cost.
    fn cost(&self, q: &Q) -> Result<f64, E>;
    fn name(&self) -> &str;
}
trait Hidden {
    fn hidden(&self) -> f64;
}
#[cfg(test)]
mod tests {
    pub fn in_tests() -> f64 { 0.0 }
}
pub fn after_tests() -> Option<f64> { None }
"#;
    assert_eq!(
        float_functions(text),
        [
            "plain",
            "constant",
            "multi_line",
            "array",
            "Price::cost",
            "after_tests"
        ]
    );
}
