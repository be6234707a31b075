//! The layer tidy check: within a crate, each top-level module belongs to a
//! layer, and a module uses only modules of its own layer or below.
//!
//! [`check_layers`] reads every `.rs` file under a crate's `src/`, maps each
//! file to its top-level module (`foo.rs`, `foo/mod.rs` and `foo/bar.rs`
//! belong to `foo`; `lib.rs` and `main.rs` are the crate root, above every
//! layer) and collects every reference to a sibling module, in code only
//! (comments, doc comments and string literals are blanked first):
//!
//! * `crate::x` anywhere: in `use crate::x::...`, grouped
//!   `use crate::{x, y::z}` (nested groups and several lines too), and full
//!   paths in expressions and types (`$crate::x` in macros as well);
//! * `super::x` where `super` is the crate root (from `foo.rs`, or from
//!   `foo/bar.rs` with `super::super::x`; inline `mod m { ... }` blocks count
//!   as a level, so `use super::*` in `foo.rs`'s tests stays in `foo`);
//! * `crate::Name` where `lib.rs` re-exports `Name` from module `x`
//!   (`pub use x::Name`): a use of `x` through the root;
//! * `mod x;` and `use`/`pub use` in `lib.rs`, collected but never a
//!   violation: the root may reference everything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One reference from a file to a top-level module of the same crate.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reference {
    /// The file, relative to `src/`, with `/` separators.
    file: String,
    /// 1-based line of the reference.
    line: usize,
    /// The file's top-level module; empty for the crate root.
    from: String,
    /// The module referenced.
    to: String,
    /// As written: `crate::run`, `super::run`, `crate::RunError`, `mod run`.
    written: String,
}

/// Checks the modules under `src_dir` against `layers` (layer name and its
/// top-level modules, bottom to top); returns one readable line per
/// violation, unplaced module or unreadable file, empty when all is well.
fn check_layers(src_dir: &Path, layers: &[(&str, &[&str])]) -> Vec<String> {
    let krate = src_dir
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| src_dir.display().to_string());
    let mut bad = Vec::new();
    let mut place: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for (i, (layer, modules)) in layers.iter().enumerate() {
        for module in *modules {
            if let Some((_, other)) = place.insert(module, (i, layer)) {
                bad.push(format!(
                    "{krate}: module {module} is in two layers, {other} and {layer}"
                ));
            }
        }
    }
    let (modules, references) = match scan(src_dir) {
        Ok(found) => found,
        Err(e) => {
            bad.push(format!("{krate}: {e}"));
            return bad;
        }
    };
    for (module, file) in &modules {
        if !place.contains_key(module.as_str()) {
            bad.push(format!(
                "{krate}: module {module} ({file}) is in no layer: place it in the layer table"
            ));
        }
    }
    for module in place.keys() {
        if !modules.contains_key(*module) {
            bad.push(format!(
                "{krate}: the layer table names module {module}, which is not under {}",
                src_dir.display()
            ));
        }
    }
    for r in &references {
        let (Some(&(from, from_layer)), Some(&(to, to_layer))) =
            (place.get(r.from.as_str()), place.get(r.to.as_str()))
        else {
            // The crate root, or a module already reported as unplaced.
            continue;
        };
        if to > from {
            let via = if r.written.ends_with(&format!("::{}", r.to)) {
                String::new()
            } else {
                format!(", a re-export of {}", r.to)
            };
            bad.push(format!(
                "{krate}: {}:{} uses {}{via} ({to_layer}) from {} ({from_layer})",
                r.file, r.line, r.written, r.from
            ));
        }
    }
    bad
}

/// The top-level modules under `src_dir` (each with a file of it, for
/// messages) and every reference between them.
type Scan = (BTreeMap<String, String>, Vec<Reference>);

fn scan(src_dir: &Path) -> Result<Scan, String> {
    let mut files = Vec::new();
    rust_files(src_dir, &mut files)?;
    files.sort();
    let mut sources = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let rel: Vec<String> = path
            .strip_prefix(src_dir)
            .unwrap_or(path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        sources.push((rel, blank_comments_and_strings(&text)));
    }
    let mut modules = BTreeMap::new();
    for (rel, _) in &sources {
        let path = module_path(rel);
        if let Some(top) = path.first() {
            modules.entry(top.clone()).or_insert_with(|| rel.join("/"));
        }
    }
    // Names the root re-exports from a module: `pub use run::{RunError}`.
    let mut reexports = BTreeMap::new();
    for (rel, code) in &sources {
        if module_path(rel).is_empty() {
            let tokens = tokenize(code);
            for (name, module) in root_reexports(&tokens) {
                if modules.contains_key(&module) && !modules.contains_key(&name) {
                    reexports.insert(name, module);
                }
            }
        }
    }
    let mut references = Vec::new();
    for (rel, code) in &sources {
        let file = rel.join("/");
        let path = module_path(rel);
        let tokens = tokenize(code);
        for (line, name, written) in file_references(&tokens, &path) {
            let to = if modules.contains_key(&name) {
                name
            } else if let Some(module) = reexports.get(&name) {
                module.clone()
            } else {
                continue;
            };
            let from = path.first().cloned().unwrap_or_default();
            if from != to {
                references.push(Reference {
                    file: file.clone(),
                    line,
                    from,
                    to,
                    written,
                });
            }
        }
    }
    Ok((modules, references))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The module a file defines, from its path under `src/`: `lib.rs`,
/// `main.rs` and `bin/...` are crate roots (`[]`), `foo.rs` and
/// `foo/mod.rs` are `[foo]`, `foo/bar.rs` is `[foo, bar]`.
fn module_path(rel: &[String]) -> Vec<String> {
    match rel {
        [only] if only == "lib.rs" || only == "main.rs" => Vec::new(),
        [first, ..] if first == "bin" => Vec::new(),
        _ => {
            let mut path: Vec<String> = rel
                .iter()
                .map(|c| c.strip_suffix(".rs").unwrap_or(c).to_owned())
                .collect();
            if path.last().is_some_and(|l| l == "mod") {
                path.pop();
            }
            path
        }
    }
}

/// `text` with every comment and string or character literal replaced by
/// spaces, newlines kept, so code positions and line numbers stay.
fn blank_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let blank = |out: &mut Vec<char>, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.extend([' ', ' ']);
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.extend([' ', ' ']);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && (i == 0 || !ident(chars[i - 1]) || raw_prefix(&chars, i))
            && matches!(next, Some('"' | '#'))
            && raw_string_hashes(&chars, i + 1).is_some()
        {
            // r"..." or r#"..."#: no escapes, ends at `"` and as many `#`.
            let hashes = raw_string_hashes(&chars, i + 1).unwrap_or(0);
            let start = i;
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..].iter().take_while(|&&h| h == '#').count() >= hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            for &c in &chars[start..i.min(chars.len())] {
                blank(&mut out, c);
            }
        } else if c == '"' {
            blank(&mut out, c);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    blank(&mut out, c);
                }
                i += 1;
            }
            if i < chars.len() {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{1F600}'.
            let start = i;
            i += 3;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            for &c in &chars[start..i.min(chars.len())] {
                blank(&mut out, c);
            }
        } else if c == '\'' && next.is_some() && chars.get(i + 2) == Some(&'\'') {
            // A character literal ('"', '{'); a lifetime never closes so soon.
            out.extend([' ', ' ', ' ']);
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// Whether the `r` at `i` follows a `b` or `c` prefix (`br"..."`).
fn raw_prefix(chars: &[char], i: usize) -> bool {
    i >= 1
        && matches!(chars[i - 1], 'b' | 'c')
        && (i == 1 || !(chars[i - 2].is_alphanumeric() || chars[i - 2] == '_'))
}

/// After an `r` at `at - 1`: the number of `#` before the opening `"`, if a
/// raw string starts here (`r#ident` is a raw identifier instead).
fn raw_string_hashes(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at..].iter().take_while(|&&c| c == '#').count();
    (chars.get(at + hashes) == Some(&'"')).then_some(hashes)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// Identifiers, `::` and single punctuation, each with its 1-based line.
fn tokenize(code: &str) -> Vec<(usize, Token)> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `r#name` is the identifier `name`.
            if word == "r" && chars.get(i) == Some(&'#') {
                i += 1;
                continue;
            }
            tokens.push((line, Token::Ident(word)));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push((line, Token::PathSep));
            i += 2;
        } else {
            tokens.push((line, Token::Punct(c)));
            i += 1;
        }
    }
    tokens
}

fn is_ident(tokens: &[(usize, Token)], i: usize, word: &str) -> bool {
    matches!(tokens.get(i), Some((_, Token::Ident(w))) if w == word)
}

fn is(tokens: &[(usize, Token)], i: usize, token: &Token) -> bool {
    tokens.get(i).is_some_and(|(_, t)| t == token)
}

/// The first segment of each path a use tree starting at `i` names: one for
/// `x::...`, one per element for `{x, y::z, w::{a, b}}`; `self`, `super`,
/// `crate` and globs name none.
fn tree_heads(tokens: &[(usize, Token)], i: usize) -> Vec<(usize, String)> {
    match tokens.get(i) {
        Some((line, Token::Ident(w))) if !matches!(w.as_str(), "self" | "super" | "crate") => {
            vec![(*line, w.clone())]
        }
        Some((_, Token::Punct('{'))) => {
            let mut heads = Vec::new();
            let mut depth = 0;
            let mut at_element = true;
            for (line, token) in &tokens[i..] {
                match token {
                    Token::Punct('{') => {
                        depth += 1;
                        at_element = depth == 1;
                        continue;
                    }
                    Token::Punct('}') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Token::Punct(',') if depth == 1 => {
                        at_element = true;
                        continue;
                    }
                    Token::Ident(w)
                        if at_element
                            && depth == 1
                            && !matches!(w.as_str(), "self" | "super" | "crate") =>
                    {
                        heads.push((*line, w.clone()));
                    }
                    _ => {}
                }
                at_element = false;
            }
            heads
        }
        _ => Vec::new(),
    }
}

/// Every `crate::x` and root-resolving `super::x` in a file whose module is
/// `path` (`[]` for the root), as (line, first segment, as written); in a
/// root file also its `mod x` and `use x::...` items.
fn file_references(tokens: &[(usize, Token)], path: &[String]) -> Vec<(usize, String, String)> {
    let mut refs = Vec::new();
    // Inline modules open at the current point: `mod tests {`.
    let mut braces: Vec<bool> = Vec::new();
    let depth = |braces: &[bool]| path.len() + braces.iter().filter(|m| **m).count();
    let mut i = 0;
    while i < tokens.len() {
        let (line, token) = &tokens[i];
        match token {
            Token::Punct('{') => {
                let inline_module = i >= 2
                    && is_ident(tokens, i - 2, "mod")
                    && matches!(tokens[i - 1].1, Token::Ident(_));
                braces.push(inline_module);
            }
            Token::Punct('}') => {
                braces.pop();
            }
            Token::Ident(w) if w == "crate" && is(tokens, i + 1, &Token::PathSep) => {
                for (line, head) in tree_heads(tokens, i + 2) {
                    refs.push((line, head.clone(), format!("crate::{head}")));
                }
            }
            Token::Ident(w)
                if w == "super"
                    && is(tokens, i + 1, &Token::PathSep)
                    && !(i >= 1 && is(tokens, i - 1, &Token::PathSep)) =>
            {
                let mut ups = 1;
                let mut j = i + 2;
                while is_ident(tokens, j, "super") && is(tokens, j + 1, &Token::PathSep) {
                    ups += 1;
                    j += 2;
                }
                if ups == depth(&braces) {
                    let prefix = "super::".repeat(ups);
                    for (line, head) in tree_heads(tokens, j) {
                        refs.push((line, head.clone(), format!("{prefix}{head}")));
                    }
                }
                i = j;
                continue;
            }
            Token::Ident(w) if w == "mod" && depth(&braces) == 0 => {
                if let Some((_, Token::Ident(name))) = tokens.get(i + 1)
                    && is(tokens, i + 2, &Token::Punct(';'))
                {
                    refs.push((*line, name.clone(), format!("mod {name}")));
                }
            }
            Token::Ident(w) if w == "use" && depth(&braces) == 0 => {
                let start = if is(tokens, i + 1, &Token::PathSep) {
                    i + 2
                } else {
                    i + 1
                };
                for (line, head) in tree_heads(tokens, start) {
                    refs.push((line, head.clone(), format!("use {head}")));
                }
            }
            _ => {}
        }
        i += 1;
    }
    refs
}

/// The names a root file's `use` items bring in from a module, as (name,
/// module): `pub use run::{RunError, replay as r}` gives `RunError` and `r`
/// from `run`. Globs are not followed.
fn root_reexports(tokens: &[(usize, Token)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !is_ident(tokens, i, "use") {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while (is_ident(tokens, j, "crate") || is_ident(tokens, j, "self"))
            && is(tokens, j + 1, &Token::PathSep)
        {
            j += 2;
        }
        let end = (j..tokens.len())
            .find(|&k| is(tokens, k, &Token::Punct(';')))
            .unwrap_or(tokens.len());
        leaves(&tokens[j..end], None, &mut out);
        i = end;
    }
    out
}

/// The names a use tree binds, each with the tree's first segment.
fn leaves(tree: &[(usize, Token)], head: Option<&str>, out: &mut Vec<(String, String)>) {
    // Split at top-level commas when inside a group.
    let mut k = 0;
    let mut path: Vec<String> = Vec::new();
    while k < tree.len() {
        match &tree[k].1 {
            Token::Ident(w) if w == "as" => {
                if let (Some((_, Token::Ident(alias))), Some(first)) = (
                    tree.get(k + 1),
                    head.map(str::to_owned).or(path.first().cloned()),
                ) {
                    out.push((alias.clone(), first));
                }
                return;
            }
            Token::Ident(w) => path.push(w.clone()),
            Token::Punct('{') => {
                let first = head.map(str::to_owned).or(path.first().cloned());
                let mut depth = 0;
                let mut start = k + 1;
                for (m, (_, token)) in tree.iter().enumerate().skip(k) {
                    match token {
                        Token::Punct('{') => depth += 1,
                        Token::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                leaves(&tree[start..m], first.as_deref(), out);
                                return;
                            }
                        }
                        Token::Punct(',') if depth == 1 => {
                            leaves(&tree[start..m], first.as_deref(), out);
                            start = m + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            _ => {}
        }
        k += 1;
    }
    let first = head.map(str::to_owned).or(path.first().cloned());
    if let (Some(name), Some(first)) = (path.last(), first)
        && (head.is_some() || path.len() > 1)
        && name != "self"
    {
        out.push((name.clone(), first));
    }
}

/// The experiments crate's layers, bottom to top.
///
/// The framework's layers, bottom to top (docs/ARCHITECTURE.md, "The
/// framework's layers"): a new module is placed here, or this test fails.
const EXPERIMENTS_LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "encode", "error", "par", "stats", "seed", "numfmt", "digest",
        ],
    ),
    (
        "schema",
        &[
            "config",
            "transform",
            "claim",
            "schema_doc",
            "workload_checks",
        ],
    ),
    ("workloads", &["workload"]),
    ("kind", &["kind", "registry", "domain"]),
    ("paper kinds", &["kinds"]),
    (
        "plan",
        &[
            "experiment",
            "limits",
            "plan",
            "sweep",
            "graph",
            "figure",
            "locate",
        ],
    ),
    ("execution", &["run", "cache"]),
    (
        "aggregation",
        &["samples", "csv", "claims", "check", "results", "cells"],
    ),
    (
        "rendering",
        &["svg", "schedule_svg", "report", "describe", "written"],
    ),
];

/// The command line's layers, bottom to top (`crates/cli/src/lib.rs`).
const CLI_LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "exit",
            "files",
            "identity",
            "isolate",
            "progress",
            "script",
            "catalog",
            "options",
            "root",
            "schedules",
        ],
    ),
    ("storage", &["output", "config"]),
    ("traces", &["traces", "generated"]),
    ("settings", &["settings"]),
    ("experiment", &["experiment", "cells", "sensitivity"]),
    ("results", &["results"]),
    ("batch", &["batch"]),
    ("declarations", &["cli"]),
    (
        "commands",
        &[
            "list",
            "describe",
            "reproduce",
            "merge",
            "verify",
            "slurm",
            "simulate",
            "generate",
            "bench",
            "explore",
        ],
    ),
];

fn assert_layers(krate: &str, layers: &[(&str, &[&str])]) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src");
    let bad = check_layers(&src, layers);
    assert!(
        bad.is_empty(),
        "{krate}: imports that run up the layer order:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn experiments_layers_run_one_way() {
    assert_layers("crates/experiments", EXPERIMENTS_LAYERS);
}

#[test]
fn cli_layers_run_one_way() {
    assert_layers("crates/cli", CLI_LAYERS);
}

/// The commands sit on top: no module of the command line imports one.
#[test]
fn no_module_imports_a_command() {
    let commands = CLI_LAYERS.last().unwrap().1;
    // Everything but the commands, as one layer under a layer of commands
    // that are each alone: a command importing another is an upward use.
    let mut layers: Vec<(&str, &[&str])> = CLI_LAYERS[..CLI_LAYERS.len() - 1].to_vec();
    let singles: Vec<[&str; 1]> = commands.iter().map(|c| [*c]).collect();
    for (i, one) in singles.iter().enumerate() {
        layers.push((commands[i], one.as_slice()));
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/cli/src");
    let bad: Vec<String> = check_layers(&src, &layers)
        .into_iter()
        .filter(|v| commands.iter().any(|c| v.contains(&format!("crate::{c}"))))
        .collect();
    assert!(
        bad.is_empty(),
        "a command imported:\n  {}",
        bad.join("\n  ")
    );
}

/// Synthetic crates written to a fresh temporary directory.
mod synthetic {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::{check_layers, scan};

    /// A `src/` directory with `files` (path, text), removed on drop.
    struct Crate {
        dir: PathBuf,
    }

    impl Crate {
        fn new(files: &[(&str, &str)]) -> Crate {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "usched-layers-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            for (path, text) in files {
                let path = dir.join("demo/src").join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Crate { dir }
        }

        fn src(&self) -> PathBuf {
            self.dir.join("demo/src")
        }
    }

    impl Drop for Crate {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    const LAYERS: &[(&str, &[&str])] = &[
        ("base", &["low", "other"]),
        ("middle", &["mid"]),
        ("top", &["high"]),
    ];

    /// The references `mid.rs` (with `text`) makes, as written, with lines.
    fn refs_of(file: &str, text: &str) -> Vec<(usize, String, String)> {
        let krate = Crate::new(&[
            ("lib.rs", "mod low;\nmod other;\nmod mid;\nmod high;\n"),
            ("low.rs", ""),
            ("other.rs", ""),
            ("high.rs", ""),
            ("mid.rs", ""),
            (file, text),
        ]);
        let (_, refs) = scan(&krate.src()).unwrap();
        refs.into_iter()
            .filter(|r| r.file == file)
            .map(|r| (r.line, r.to, r.written))
            .collect()
    }

    fn check(files: &[(&str, &str)]) -> Vec<String> {
        let krate = Crate::new(files);
        check_layers(&krate.src(), LAYERS)
    }

    fn r(line: usize, to: &str, written: &str) -> (usize, String, String) {
        (line, to.to_owned(), written.to_owned())
    }

    #[test]
    fn every_reference_form_is_found() {
        assert_eq!(
            refs_of("mid.rs", "use crate::high::X;\n"),
            [r(1, "high", "crate::high")]
        );
        assert_eq!(
            refs_of(
                "mid.rs",
                "use crate::{\n    low,\n    high::{a, b::{c}},\n    self,\n};\n"
            ),
            [r(2, "low", "crate::low"), r(3, "high", "crate::high")]
        );
        assert_eq!(
            refs_of(
                "mid.rs",
                "fn f() -> u8 {\n    crate::high::g(crate::low::H)\n}\n"
            ),
            [r(2, "high", "crate::high"), r(2, "low", "crate::low")]
        );
        assert_eq!(
            refs_of(
                "mid.rs",
                "macro_rules! m { () => { $crate::high::f() }; }\n"
            ),
            [r(1, "high", "crate::high")]
        );
        // `super` from `mid.rs` is the root; from `mid/part.rs` it is `mid`.
        assert_eq!(
            refs_of("mid.rs", "use super::high;\nuse super::{low, other::Y};\n"),
            [
                r(1, "high", "super::high"),
                r(2, "low", "super::low"),
                r(2, "other", "super::other")
            ]
        );
        assert_eq!(refs_of("mid/part.rs", "use super::high;\n"), []);
        assert_eq!(
            refs_of("mid/part.rs", "use super::super::high;\n"),
            [r(1, "high", "super::super::high")]
        );
        assert_eq!(
            refs_of("mid/mod.rs", "use super::high;\n"),
            [r(1, "high", "super::high")]
        );
        // An inline module is a level: its `super` is the file's module.
        assert_eq!(
            refs_of(
                "mid.rs",
                "#[cfg(test)]\nmod tests {\n    use super::high;\n    use super::super::low;\n}\n"
            ),
            [r(4, "low", "super::super::low")]
        );
        // Visibility and `extern crate` are no references.
        assert_eq!(
            refs_of("mid.rs", "pub(crate) fn f() {}\npub(super) fn g() {}\n"),
            []
        );
    }

    #[test]
    fn the_root_collects_mod_and_use_items_and_re_exports_resolve() {
        let krate = Crate::new(&[
            (
                "lib.rs",
                "mod low;\nmod high;\npub use high::{Thing, other as Renamed};\npub use crate::low::Base;\n",
            ),
            ("low.rs", "pub fn f() { let _ = crate::Thing; }\n"),
            (
                "high.rs",
                "pub struct Thing;\npub fn other() { let _ = crate::Base; }\n",
            ),
        ]);
        let (modules, refs) = scan(&krate.src()).unwrap();
        assert_eq!(modules.keys().collect::<Vec<_>>(), ["high", "low"]);
        let written: Vec<(&str, &str, &str)> = refs
            .iter()
            .map(|r| (r.file.as_str(), r.to.as_str(), r.written.as_str()))
            .collect();
        assert_eq!(
            written,
            [
                ("high.rs", "low", "crate::Base"),
                ("lib.rs", "low", "mod low"),
                ("lib.rs", "high", "mod high"),
                ("lib.rs", "high", "use high"),
                ("lib.rs", "low", "crate::low"),
                ("low.rs", "high", "crate::Thing"),
            ]
        );
        let bad = check_layers(&krate.src(), &[("base", &["low"]), ("top", &["high"])]);
        assert_eq!(
            bad,
            ["demo: low.rs:1 uses crate::Thing, a re-export of high (top) from low (base)"]
        );
    }

    #[test]
    fn comments_and_strings_are_no_references() {
        let text = r####"//! See crate::high for more.
/// Calls `crate::high::f`.
// use crate::high;
/* use crate::high; /* nested */ crate::high */
fn f() -> &'static str {
    let _c = '"';
    let _q = '\'';
    let _s = "crate::high \" crate::high";
    let _r = r#"crate::high "quoted" "#;
    let _b = br"crate::high";
    "use super::high"
}
fn g<'a>(x: &'a str) -> &'a str { let _ = crate::low::X; x }
"####;
        assert_eq!(refs_of("mid.rs", text), [r(13, "low", "crate::low")]);
    }

    #[test]
    fn a_reference_up_the_order_is_named_and_same_or_lower_pass() {
        let bad = check(&[
            ("lib.rs", "pub use high::H;\nmod low;\n"),
            ("low.rs", "use crate::other::O;\n"),
            ("other.rs", "\n\nfn f() { crate::mid::g(); }\n"),
            ("mid/mod.rs", "mod part;\nuse crate::low::L;\n"),
            ("mid/part.rs", "use super::super::high;\n"),
            ("high.rs", "use crate::{low, mid, other};\n"),
        ]);
        assert_eq!(
            bad,
            [
                "demo: mid/part.rs:1 uses super::super::high (top) from mid (middle)",
                "demo: other.rs:3 uses crate::mid (middle) from other (base)",
            ]
        );
    }

    #[test]
    fn every_module_is_placed_and_the_table_names_only_modules() {
        let bad = check(&[
            ("lib.rs", ""),
            ("low.rs", ""),
            ("mid.rs", ""),
            ("high.rs", ""),
            ("new/mod.rs", "use crate::high;\n"),
        ]);
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert_eq!(
            bad[0],
            "demo: module new (new/mod.rs) is in no layer: place it in the layer table"
        );
        assert!(
            bad[1].starts_with("demo: the layer table names module other, which is not under ")
                && bad[1].ends_with("demo/src"),
            "{}",
            bad[1]
        );
        let twice = check_layers(
            Path::new("/nonexistent/demo/src"),
            &[("a", &["x"]), ("b", &["x"])],
        );
        assert_eq!(twice[0], "demo: module x is in two layers, a and b");
        assert!(twice[1].starts_with("demo: cannot list /nonexistent/demo/src"));
    }
}
