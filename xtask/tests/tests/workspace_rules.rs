//! The workspace's dependency rule, checked against `cargo metadata` so it
//! cannot rot silently (docs/ARCHITECTURE.md):
//!
//! * `profile` depends on no crate of ours;
//! * every other crate under `crates/` but `experiments` is a *leaf* (the
//!   policy crates and `swf-io`): it depends on no crate of ours but
//!   `profile`, so each is reusable alone and none knows its siblings;
//! * unless its manifest declares `[package.metadata.usched] role =
//!   "composition"` (`intergrid`): then it may use `profile` and leaves, and
//!   only `experiments` may use it;
//! * `experiments` may use all of them; `xtask` drives `experiments`;
//! * nothing depends on `xtask`, and only `xtask` on `experiments`.
//!
//! Crates are named by their directory, so the rule holds whatever the
//! packages are called on crates.io, and a new leaf needs no edit here. The
//! rule covers normal, build and dev dependencies alike. It also checks that
//! every library crate under `crates/` can be adopted alone (a description,
//! a license and a readme in its manifest, and the README file on disk), and
//! the size limits: no file under `crates/*/src/` over 800 lines, no kind
//! adapter (`crates/experiments/src/kinds/`) over 400.
//!
//! The JSON is read by the small parser at the bottom of this file, so the
//! test needs nothing beyond std.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Library crates with a fixed place in the rule; every other crate under
/// `crates/` is a leaf or (declared in its manifest) a composition.
const PROFILE: &str = "profile";
const EXPERIMENTS: &str = "experiments";
const XTASK: &str = "xtask";

/// Size limits, counted in whole lines (inline test modules included).
const MAX_SRC_LINES: usize = 800;
const MAX_KIND_LINES: usize = 400;

fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root");
    // `cargo metadata` reports canonical paths; compare like with like.
    std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf())
}

/// `path` relative to the workspace root, for short messages.
fn relative(path: &Path) -> String {
    let root = root();
    path.strip_prefix(&root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One workspace package, as far as these rules care.
#[derive(Debug)]
struct Package {
    /// The directory name (`crates/<name>` or `xtask`): the crate's name in
    /// these rules, whatever its package is called on crates.io.
    name: String,
    /// The package's name as published (`usched-<dir>`).
    package: String,
    /// `[package.metadata.usched] role`, if any (`"composition"`).
    role: Option<String>,
    manifest_dir: PathBuf,
    description: Option<String>,
    license: Option<String>,
    readme: Option<String>,
    is_lib: bool,
    /// `[features] serde`, if declared: what it enables.
    serde_feature: Option<Vec<String>>,
    /// Edges to workspace crates: (crate, kind).
    deps: Vec<(String, &'static str)>,
}

fn packages() -> &'static BTreeMap<String, Package> {
    static PACKAGES: OnceLock<BTreeMap<String, Package>> = OnceLock::new();
    PACKAGES.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .current_dir(root())
            .output()
            .expect("cannot run `cargo metadata`");
        assert!(
            out.status.success(),
            "`cargo metadata` failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("`cargo metadata` printed non-UTF-8");
        let json =
            json::parse(&text).unwrap_or_else(|e| panic!("cannot parse `cargo metadata`: {e}"));
        read_packages(&json)
    })
}

fn read_packages(json: &json::Value) -> BTreeMap<String, Package> {
    let list = json
        .get("packages")
        .and_then(json::Value::as_array)
        .expect("no `packages` array");
    let text =
        |v: &json::Value, key: &str| v.get(key).and_then(json::Value::as_str).map(str::to_owned);
    let dir_name = |dir: &Path| {
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    // First pass: where each workspace package lives, to recognise path dependencies.
    let mut by_dir = BTreeMap::new();
    for p in list {
        let manifest = text(p, "manifest_path").expect("package without a manifest_path");
        let dir = Path::new(&manifest)
            .parent()
            .expect("manifest_path has a parent")
            .to_path_buf();
        by_dir.insert(dir.clone(), dir_name(&dir));
    }
    let mut packages = BTreeMap::new();
    for p in list {
        let manifest = text(p, "manifest_path").unwrap_or_default();
        let manifest_dir = Path::new(&manifest)
            .parent()
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let name = dir_name(&manifest_dir);
        let role = p
            .get("metadata")
            .and_then(|m| m.get("usched"))
            .and_then(|m| m.get("role"))
            .and_then(json::Value::as_str)
            .map(str::to_owned);
        let is_lib = p
            .get("targets")
            .and_then(json::Value::as_array)
            .is_some_and(|targets| {
                targets.iter().any(|t| {
                    t.get("kind")
                        .and_then(json::Value::as_array)
                        .is_some_and(|k| k.iter().any(|k| k.as_str() == Some("lib")))
                })
            });
        let serde_feature = p
            .get("features")
            .and_then(|f| f.get("serde"))
            .and_then(json::Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .map(|i| i.as_str().unwrap_or_default().to_owned())
                    .collect()
            });
        let mut deps = Vec::new();
        for d in p
            .get("dependencies")
            .and_then(json::Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(path) = text(d, "path") else {
                continue;
            };
            let Some(target) = by_dir.get(Path::new(&path)) else {
                continue;
            };
            let kind = match d.get("kind").and_then(json::Value::as_str) {
                Some("dev") => "dev",
                Some("build") => "build",
                _ => "normal",
            };
            deps.push((target.clone(), kind));
        }
        packages.insert(
            name.clone(),
            Package {
                name,
                package: text(p, "name").unwrap_or_default(),
                role,
                manifest_dir,
                description: text(p, "description"),
                license: text(p, "license"),
                readme: text(p, "readme"),
                is_lib,
                serde_feature,
                deps,
            },
        );
    }
    packages
}

/// Fails with every offending edge named, if `allowed(from, to)` rejects any.
fn check_edges(froms: &[&str], rule: &str, allowed: impl Fn(&str, &str) -> bool) {
    let packages = packages();
    let mut bad = Vec::new();
    for from in froms {
        let Some(p) = packages.get(*from) else {
            bad.push(format!("crate `{from}` is missing from the workspace"));
            continue;
        };
        for (to, kind) in &p.deps {
            // A crate's dev-dependency on itself only turns on a feature for
            // its own tests (profile's `testing`): no edge between layers.
            if to == from && *kind == "dev" {
                continue;
            }
            if !allowed(from, to) {
                bad.push(format!("`{from}` -> `{to}` ({kind} dependency)"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "dependency rule broken: {rule}\n  {}",
        bad.join("\n  ")
    );
}

/// The crates under `crates/` other than `profile` and `experiments`, split
/// into leaves and compositions (by their manifest's declared role).
fn roles() -> (Vec<&'static str>, Vec<&'static str>) {
    let crates_dir = root().join("crates");
    let mut leaves = Vec::new();
    let mut compositions = Vec::new();
    for p in packages().values() {
        if !p.manifest_dir.starts_with(&crates_dir) || p.name == PROFILE || p.name == EXPERIMENTS {
            continue;
        }
        match p.role.as_deref() {
            Some("composition") => compositions.push(p.name.as_str()),
            Some(other) => panic!(
                "crate `{}` declares role `{other}`; the only role is `composition` (leaves declare none)",
                p.name
            ),
            None => leaves.push(p.name.as_str()),
        }
    }
    (leaves, compositions)
}

#[test]
fn profile_depends_on_no_crate_of_ours() {
    check_edges(
        &[PROFILE],
        "`profile` is the bottom layer and depends on no crate of ours",
        |_, _| false,
    );
}

#[test]
fn leaf_crates_depend_only_on_profile() {
    let (leaves, _) = roles();
    assert!(
        leaves.len() >= 6,
        "expected the six leaf crates, found {leaves:?}"
    );
    check_edges(
        &leaves,
        "leaf crates (policy crates and `swf-io`) may depend on `profile` only, never on each other; \
         a crate that composes leaves declares `[package.metadata.usched] role = \"composition\"`",
        |_, to| to == PROFILE,
    );
}

#[test]
fn composition_crates_compose_leaves_and_only_experiments_uses_them() {
    let (leaves, compositions) = roles();
    check_edges(
        &compositions,
        "a composition crate may depend on `profile` and leaf crates only",
        |_, to| to == PROFILE || leaves.contains(&to),
    );
    let names: Vec<&str> = packages().keys().map(String::as_str).collect();
    check_edges(
        &names,
        "only `experiments` uses a composition crate",
        |from, to| !compositions.contains(&to) || from == EXPERIMENTS,
    );
}

#[test]
fn experiments_uses_the_crates_below_it_and_xtask_drives_experiments() {
    check_edges(
        &[EXPERIMENTS],
        "`experiments` may not depend on `xtask`",
        |_, to| to != XTASK,
    );
    let xtask = packages()
        .get(XTASK)
        .expect("crate `xtask` is missing from the workspace");
    assert!(
        xtask
            .deps
            .iter()
            .any(|(to, kind)| to == EXPERIMENTS && *kind == "normal"),
        "dependency rule broken: `xtask` must depend on `experiments` (it drives it); found {:?}",
        xtask.deps
    );
}

#[test]
fn only_xtask_uses_experiments_and_nothing_uses_xtask() {
    let names: Vec<&str> = packages().keys().map(String::as_str).collect();
    check_edges(
        &names,
        "only `xtask` depends on `experiments`, and nothing depends on `xtask`",
        |from, to| to != XTASK && (to != EXPERIMENTS || from == XTASK),
    );
}

#[test]
fn every_crate_is_placed_in_the_rule() {
    let crates_dir = root().join("crates");
    let outside: Vec<&String> = packages()
        .values()
        .filter(|p| !p.manifest_dir.starts_with(&crates_dir) && p.name != XTASK)
        .map(|p| &p.name)
        .collect();
    assert!(
        outside.is_empty(),
        "workspace crates {outside:?} live outside crates/ and xtask/"
    );
    for name in [PROFILE, EXPERIMENTS, XTASK] {
        assert!(
            packages().contains_key(name),
            "crate `{name}` is missing from the workspace"
        );
    }
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn source_files_stay_small() {
    let crates_dir = root().join("crates");
    let kinds_dir = crates_dir.join("experiments/src/kinds");
    let mut files = Vec::new();
    for p in packages().values() {
        if p.manifest_dir.starts_with(&crates_dir) {
            rust_files(&p.manifest_dir.join("src"), &mut files);
        }
    }
    files.sort();
    assert!(files.len() > 20, "found only {} source files", files.len());
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let lines = text.lines().count();
        let limit = if file.starts_with(&kinds_dir) {
            MAX_KIND_LINES
        } else {
            MAX_SRC_LINES
        };
        if lines > limit {
            bad.push(format!("{}: {lines} lines (limit {limit})", relative(file)));
        }
    }
    assert!(
        bad.is_empty(),
        "files over the size limit (move tests to tests/, split by concern, or move domain \
         logic out of a kind adapter):\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn every_library_crate_can_be_adopted_alone() {
    let crates_dir = root().join("crates");
    let mut bad = Vec::new();
    let libraries: Vec<&Package> = packages()
        .values()
        .filter(|p| p.is_lib && p.manifest_dir.starts_with(&crates_dir))
        .collect();
    assert!(
        libraries.len() >= 9,
        "expected every crate but xtask under {}, found {:?}",
        crates_dir.display(),
        libraries.iter().map(|p| &p.name).collect::<Vec<_>>()
    );
    for p in libraries {
        let manifest = relative(&p.manifest_dir.join("Cargo.toml"));
        if p.description.as_deref().is_none_or(|d| d.trim().is_empty()) {
            bad.push(format!("`{}`: no `description` in {manifest}", p.name));
        }
        if p.license.as_deref().is_none_or(|l| l.trim().is_empty()) {
            bad.push(format!(
                "`{}`: no `license` in {manifest} (use `license.workspace = true`)",
                p.name
            ));
        }
        match &p.readme {
            None => bad.push(format!("`{}`: no `readme` in {manifest}", p.name)),
            Some(readme) if !p.manifest_dir.join(readme).is_file() => {
                bad.push(format!(
                    "`{}`: readme `{readme}` named in {manifest} does not exist",
                    p.name
                ));
            }
            Some(_) => {}
        }
    }
    assert!(
        bad.is_empty(),
        "library crates that cannot be adopted alone:\n  {}",
        bad.join("\n  ")
    );
}

/// Library crates that do not declare the `serde` feature yet, each with
/// the reason; the list only shrinks.
const SERDE_FEATURE_PENDING: &[(&str, &str)] = &[];

/// Every library crate under `crates/` but the `experiments` pipeline
/// (whose configs need serde always) offers `Serialize`/`Deserialize` one
/// way: an optional `serde` dependency behind a feature named `serde`
/// whose first entry is `dep:serde` (`serde = ["dep:serde", ...]`, the
/// rest enabling the same feature of the crates it builds on).
#[test]
fn every_library_crate_has_an_optional_serde_feature() {
    let crates_dir = root().join("crates");
    let mut bad = Vec::new();
    for p in packages().values() {
        if !p.is_lib || !p.manifest_dir.starts_with(&crates_dir) || p.name == EXPERIMENTS {
            continue;
        }
        let pending = SERDE_FEATURE_PENDING
            .iter()
            .any(|(name, _)| *name == p.name);
        let manifest = relative(&p.manifest_dir.join("Cargo.toml"));
        match (&p.serde_feature, pending) {
            (Some(f), _) if f.first().map(String::as_str) != Some("dep:serde") => bad.push(
                format!(
                    "`{}`: the `serde` feature in {manifest} is {f:?}; it must start with \"dep:serde\"",
                    p.name
                ),
            ),
            (Some(_), true) => bad.push(format!(
                "`{}` has its `serde` feature now: remove it from SERDE_FEATURE_PENDING",
                p.name
            )),
            (None, false) => bad.push(format!(
                "`{}`: no `serde` feature in {manifest}; declare \
                 `serde = {{ workspace = true, optional = true }}` under [dependencies] and \
                 `serde = [\"dep:serde\"]` under [features] (see crates/utility-match)",
                p.name
            )),
            _ => {}
        }
    }
    for (name, _) in SERDE_FEATURE_PENDING {
        if !packages().contains_key(*name) {
            bad.push(format!(
                "SERDE_FEATURE_PENDING names `{name}`, which is not in the workspace"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "library crates without the optional `serde` feature:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn every_crate_directory_has_a_readme() {
    let crates_dir = root().join("crates");
    let mut missing = Vec::new();
    let entries = std::fs::read_dir(&crates_dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", crates_dir.display()));
    for entry in entries {
        let dir = entry.expect("cannot read an entry of crates/").path();
        if dir.join("Cargo.toml").is_file() && !dir.join("README.md").is_file() {
            missing.push(relative(&dir.join("README.md")));
        }
    }
    assert!(
        missing.is_empty(),
        "crates without a README:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn the_json_reader_reads_what_cargo_writes() {
    let v = json::parse(
        r#" {"a": [1, -2.5e3, true, false, null], "s": "q\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#,
    )
    .unwrap();
    assert_eq!(
        v.get("s").and_then(json::Value::as_str),
        Some("q\"\\/\né😀")
    );
    assert_eq!(
        v.get("a").and_then(json::Value::as_array).map(Vec::len),
        Some(5)
    );
    assert!(v.get("o").is_some());
    assert!(v.get("missing").is_none());
    for bad in [
        "",
        "{",
        "[1,]",
        r#"{"a" 1}"#,
        r#""\x""#,
        "tru",
        "1 2",
        r#""\ud83d""#,
    ] {
        assert!(json::parse(bad).is_err(), "accepted {bad:?}");
    }
}

/// Just enough JSON for `cargo metadata`: RFC 8259 values, strings with
/// every escape; numbers are kept as text.
mod json {
    #[derive(Debug, PartialEq)]
    pub enum Value {
        Null,
        Bool(bool),
        Number(String),
        String(String),
        Array(Vec<Value>),
        Object(Vec<(String, Value)>),
    }

    impl Value {
        pub fn get(&self, key: &str) -> Option<&Value> {
            match self {
                Value::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        pub fn as_str(&self) -> Option<&str> {
            match self {
                Value::String(s) => Some(s),
                _ => None,
            }
        }

        pub fn as_array(&self) -> Option<&Vec<Value>> {
            match self {
                Value::Array(a) => Some(a),
                _ => None,
            }
        }
    }

    pub fn parse(text: &str) -> Result<Value, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.err("trailing characters"));
        }
        Ok(v)
    }

    struct Parser<'a> {
        s: &'a [u8],
        i: usize,
    }

    impl Parser<'_> {
        fn err(&self, what: &str) -> String {
            format!("byte {}: {what}", self.i)
        }

        fn ws(&mut self) {
            while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
        }

        fn peek(&self) -> Option<u8> {
            self.s.get(self.i).copied()
        }

        fn eat(&mut self, c: u8) -> Result<(), String> {
            self.ws();
            if self.peek() == Some(c) {
                self.i += 1;
                Ok(())
            } else {
                Err(self.err(&format!("expected '{}'", c as char)))
            }
        }

        fn literal(&mut self, word: &str, v: Value) -> Result<Value, String> {
            if self.s[self.i..].starts_with(word.as_bytes()) {
                self.i += word.len();
                Ok(v)
            } else {
                Err(self.err("unknown literal"))
            }
        }

        fn value(&mut self) -> Result<Value, String> {
            self.ws();
            match self.peek() {
                Some(b'{') => self.object(),
                Some(b'[') => self.array(),
                Some(b'"') => self.string().map(Value::String),
                Some(b't') => self.literal("true", Value::Bool(true)),
                Some(b'f') => self.literal("false", Value::Bool(false)),
                Some(b'n') => self.literal("null", Value::Null),
                Some(b'-' | b'0'..=b'9') => self.number(),
                _ => Err(self.err("expected a value")),
            }
        }

        fn object(&mut self) -> Result<Value, String> {
            self.eat(b'{')?;
            let mut fields = Vec::new();
            self.ws();
            if self.peek() == Some(b'}') {
                self.i += 1;
                return Ok(Value::Object(fields));
            }
            loop {
                self.ws();
                let key = self.string()?;
                self.eat(b':')?;
                fields.push((key, self.value()?));
                self.ws();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b'}') => {
                        self.i += 1;
                        return Ok(Value::Object(fields));
                    }
                    _ => return Err(self.err("expected ',' or '}'")),
                }
            }
        }

        fn array(&mut self) -> Result<Value, String> {
            self.eat(b'[')?;
            let mut items = Vec::new();
            self.ws();
            if self.peek() == Some(b']') {
                self.i += 1;
                return Ok(Value::Array(items));
            }
            loop {
                items.push(self.value()?);
                self.ws();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b']') => {
                        self.i += 1;
                        return Ok(Value::Array(items));
                    }
                    _ => return Err(self.err("expected ',' or ']'")),
                }
            }
        }

        fn number(&mut self) -> Result<Value, String> {
            let start = self.i;
            while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
            let text =
                std::str::from_utf8(&self.s[start..self.i]).map_err(|_| self.err("bad number"))?;
            text.parse::<f64>().map_err(|_| self.err("bad number"))?;
            Ok(Value::Number(text.to_owned()))
        }

        fn hex4(&mut self) -> Result<u32, String> {
            let digits = self
                .s
                .get(self.i..self.i + 4)
                .ok_or_else(|| self.err("short \\u escape"))?;
            let digits = std::str::from_utf8(digits).map_err(|_| self.err("bad \\u escape"))?;
            let n = u32::from_str_radix(digits, 16).map_err(|_| self.err("bad \\u escape"))?;
            self.i += 4;
            Ok(n)
        }

        fn string(&mut self) -> Result<String, String> {
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string"));
            }
            self.i += 1;
            let mut out = Vec::new();
            loop {
                let c = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                self.i += 1;
                match c {
                    b'"' => {
                        return String::from_utf8(out).map_err(|_| self.err("string is not UTF-8"));
                    }
                    b'\\' => {
                        let e = self.peek().ok_or_else(|| self.err("unterminated escape"))?;
                        self.i += 1;
                        let ch = match e {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'u' => {
                                let hi = self.hex4()?;
                                let code = if (0xD800..0xDC00).contains(&hi) {
                                    if !self.s[self.i..].starts_with(b"\\u") {
                                        return Err(self.err("lone surrogate"));
                                    }
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&lo) {
                                        return Err(self.err("bad low surrogate"));
                                    }
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                } else {
                                    hi
                                };
                                char::from_u32(code).ok_or_else(|| self.err("bad code point"))?
                            }
                            _ => return Err(self.err("unknown escape")),
                        };
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                    _ => out.push(c),
                }
            }
        }
    }
}

/// docs/REPRODUCTION.md (generated by `cargo xtask verify`) names a cause
/// for every claim that does not PASS, and counts the three verdicts.
#[test]
fn the_reproduction_document_gives_every_claim_that_does_not_pass_a_cause() {
    let doc = std::fs::read_to_string(root().join("docs/REPRODUCTION.md")).unwrap();
    assert!(
        doc.contains("All claims: "),
        "regenerate it with `cargo xtask verify`"
    );
    let blank: Vec<&str> = doc
        .lines()
        .filter(|l| l.starts_with('|') && l.contains("(none given)"))
        .collect();
    assert!(
        blank.is_empty(),
        "claims without a cause (give them `cause.paper`, `cause.data` or `cause.reading` in their \
         config, then `cargo xtask verify`):\n{}",
        blank.join("\n")
    );
}

/// The test gate is deterministic: every property suite of the workspace
/// takes its configuration from `profile::testing::proptest_config` (a fixed
/// seed unless `cargo xtask explore` asks for a fresh one), never from
/// proptest's defaults, whose seed is random.
#[test]
fn every_property_suite_runs_from_the_gate_seed() {
    let mut files = Vec::new();
    for p in packages().values() {
        rust_files(&p.manifest_dir, &mut files);
    }
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "target"));
    files.sort();
    let mut suites = 0;
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let name = relative(file);
        if name.ends_with("profile/src/testing.rs") || name.ends_with("tests/workspace_rules.rs") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for banned in ["ProptestConfig::", "TestRunner::default", "RngSeed::Random"] {
                if code.contains(banned) {
                    bad.push(format!("{}:{}: {banned}", relative(file), i + 1));
                }
            }
        }
        // Each `proptest! {` block's first item is the gate's configuration.
        let mut rest = text.as_str();
        while let Some(at) = rest.find("proptest! {") {
            let line = text[..text.len() - rest.len() + at].lines().count();
            rest = &rest[at + "proptest! {".len()..];
            suites += 1;
            let first = rest.trim_start();
            if !first.starts_with("#![proptest_config(")
                || !first
                    .lines()
                    .next()
                    .unwrap_or("")
                    .contains("testing::proptest_config(")
            {
                bad.push(format!(
                    "{}:{line}: a proptest! block without #![proptest_config(profile::testing::proptest_config(N))]",
                    relative(file)
                ));
            }
        }
    }
    assert!(suites >= 20, "found only {suites} property suites");
    assert!(
        bad.is_empty(),
        "property tests must run from the gate seed (profile::testing):\n  {}",
        bad.join("\n  ")
    );
}

/// Every library crate's README says how to depend on it, and every
/// dependency line a README shows for a crate of ours names the package as
/// it is published (`package = "usched-<dir>"`) and the crate's directory:
/// `name = { path = ... }` alone fails with "no matching package named".
#[test]
fn readme_dependency_lines_name_the_packages() {
    let crates_dir = root().join("crates");
    let ours: BTreeMap<String, String> = packages()
        .iter()
        .filter(|(_, p)| p.manifest_dir.starts_with(&crates_dir))
        .map(|(dir, p)| (dir.clone(), p.package.clone()))
        .collect();
    let mut bad = Vec::new();
    for (dir, package) in &ours {
        let readme = crates_dir.join(dir).join("README.md");
        let text = std::fs::read_to_string(&readme).unwrap_or_default();
        let mut own_line = false;
        let mut in_toml = false;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with("```") {
                in_toml = trimmed == "```toml";
                continue;
            }
            let Some((name, value)) = trimmed.split_once(" = {") else {
                continue;
            };
            if !in_toml || !ours.contains_key(name) {
                continue;
            }
            let want_package = format!("package = \"{}\"", ours[name]);
            let want_path = format!("crates/{name}\"");
            if !value.contains(&want_package) || !value.contains(&want_path) {
                bad.push(format!(
                    "{}:{}: `{trimmed}` must give {want_package} and a path ending in crates/{name}",
                    relative(&readme),
                    i + 1
                ));
            }
            own_line |= name == dir.as_str();
        }
        if dir != "experiments" && !own_line {
            bad.push(format!(
                "{}: no dependency line for {package} (```toml [dependencies] {dir} = {{ package = \"{package}\", path = ... }})",
                relative(&readme)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "README dependency lines:\n  {}",
        bad.join("\n  ")
    );
}

/// The client outside the workspace (xtask/tests/fixtures/outside-client)
/// proves that a user's policy needs only the public scheduler trait: its
/// EASY with shortest-job-first backfilling stays within 60 lines and uses
/// neither a built-in policy nor a pluggable queue order.
#[test]
fn the_outside_client_writes_its_policy_on_the_trait_alone() {
    let lib = root().join("xtask/tests/fixtures/outside-client/src/lib.rs");
    let text = std::fs::read_to_string(&lib).expect("the outside client's src/lib.rs");
    let lines = text.lines().count();
    assert!(
        lines <= 60,
        "{}: {lines} lines, more than 60",
        relative(&lib)
    );
    for word in ["builtin", "Policy", "QueueOrder", "simulate"] {
        assert!(
            !text.contains(word),
            "{} uses `{word}`: the client's policy must be written on the trait's view and Profile",
            relative(&lib)
        );
    }
    let manifest = root().join("xtask/tests/fixtures/outside-client/Cargo.toml");
    let toml = std::fs::read_to_string(&manifest).expect("its Cargo.toml");
    assert!(
        toml.lines().any(|l| l.trim() == "[workspace]"),
        "it is a workspace of its own"
    );
    assert!(
        root()
            .join("xtask/tests/fixtures/outside-client/Cargo.lock")
            .is_file(),
        "its lockfile is committed (CI builds it with --locked)"
    );
}

/// Examples are run from target/debug/examples/<name> (.ci/run), where one
/// crate's example would overwrite another's of the same name.
#[test]
fn example_names_are_unique_across_crates() {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for p in packages().values() {
        let Ok(entries) = std::fs::read_dir(p.manifest_dir.join("examples")) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".rs")
                && let Some(other) = seen.insert(stem.to_owned(), p.package.clone())
            {
                panic!("example `{stem}` is in both {other} and {}", p.package);
            }
        }
    }
    assert!(seen.contains_key("easy_sjf"), "found examples: {seen:?}");
}
