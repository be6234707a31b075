//! The workspace's rules, checked against `cargo metadata` (read by the
//! `cargo_metadata` crate) so they cannot rot silently
//! (docs/ARCHITECTURE.md).
//!
//! **Crate roles.** Every workspace package has one role, given in [`ROLES`]
//! (the one table to edit when a crate is added), and may depend only on
//! crates of a strictly lower role:
//!
//! | role | crates | may depend on (of ours) |
//! | --- | --- | --- |
//! | profile | `profile` | nothing |
//! | leaf | the policy crates, `swf-io` | `profile` |
//! | composition | `intergrid` (gateway + partitions-forecast + pricing) | `profile`, leaves |
//! | framework | `experiments` | everything above this row |
//! | front-end library | `usched-cli` | the framework and below |
//! | front end | `xtask` (binaries), `usched-python` (the Python package's extension module) | front-end libraries and below |
//!
//! Nothing depends on a front end; leaves never know their siblings. The
//! front-end libraries are the only crates that touch the file system
//! (docs/ARCHITECTURE.md; not checked here). The rule covers normal, build
//! and dev dependencies alike.
//!
//! It also checks that every library crate under `crates/` can be adopted
//! alone (a description, a license and a readme in its manifest, and the
//! README file on disk), the size limits (no file under `crates/*/src/` over
//! 800 lines, no kind adapter (`crates/experiments/src/kinds/`) over 400),
//! and one test layout: each crate's integration tests are one binary,
//! `tests/tests/main.rs` with a module per area.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cargo_metadata::{DependencyKind, MetadataCommand, TargetKind};

/// A crate's place in the dependency rule, bottom to top: a crate may depend
/// only on crates of a strictly lower role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    /// `profile`: the shared vocabulary and the simulation core.
    Profile,
    /// A reusable crate on `profile` alone (a policy crate, `swf-io`).
    Leaf,
    /// Joins leaves a paper combines (`intergrid`).
    Composition,
    /// The experiment framework (`experiments`).
    Framework,
    /// What every front end shares: commands, trace lookup, downloads,
    /// result directories; the only crates that touch the file system.
    FrontEndLibrary,
    /// A binary (`xtask`); nothing depends on it.
    FrontEnd,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Profile => "profile",
            Role::Leaf => "leaf",
            Role::Composition => "composition",
            Role::Framework => "framework",
            Role::FrontEndLibrary => "front-end library",
            Role::FrontEnd => "front end",
        }
    }

    /// What a crate of this role may depend on, in words.
    fn may_use(self) -> &'static str {
        match self {
            Role::Profile => "no crate of ours",
            Role::Leaf => "`profile` only, never a sibling leaf",
            Role::Composition => "`profile` and leaf crates",
            Role::Framework => "profile, leaf and composition crates",
            Role::FrontEndLibrary => "the framework and below, never another front-end library",
            Role::FrontEnd => "front-end libraries and below; nothing depends on a front end",
        }
    }
}

/// Every workspace package (as published) and its role: the one table of
/// the dependency rule. A package missing here fails
/// `every_crate_is_placed_in_the_rule`, so a new crate gets placed.
const ROLES: &[(&str, Role)] = &[
    ("usched-profile", Role::Profile),
    ("usched-swf-io", Role::Leaf),
    ("usched-pricing", Role::Leaf),
    ("usched-adaptive-requests", Role::Leaf),
    ("usched-partitions-forecast", Role::Leaf),
    ("usched-gateway", Role::Leaf),
    ("usched-utility-match", Role::Leaf),
    ("usched-intergrid", Role::Composition),
    ("usched-experiments", Role::Framework),
    ("usched-cli", Role::FrontEndLibrary),
    ("usched-python", Role::FrontEnd),
    ("xtask", Role::FrontEnd),
];

/// Entries of [`ROLES`] that may be absent from the workspace, each with
/// why; any other entry must name a workspace package. Such a package, once
/// present, is checked like every other (its entry here may then go).
const PLANNED: &[(&str, &str)] = &[];

/// Integration-test binaries other than `tests/tests/main.rs`, each with the
/// reason it cannot be a module of that one binary: (package, path relative
/// to the crate, reason).
const OWN_TEST_BINARIES: &[(&str, &str, &str)] = &[(
    "usched-profile",
    "tests/alloc.rs",
    "installs dhat's #[global_allocator] to count allocations, which would \
     replace the allocator of every other test in the binary",
)];

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
    /// The directory name (`crates/<name>` or `xtask`), which is also the
    /// library's name in code (`use profile::...`).
    name: String,
    /// The package's name as published (`usched-<dir>`).
    package: String,
    /// `[package.metadata.usched] role`, if the manifest declares one.
    declared_role: Option<String>,
    manifest_dir: PathBuf,
    description: Option<String>,
    license: Option<String>,
    readme: Option<String>,
    is_lib: bool,
    /// The sources of its integration-test targets (`[[test]]`, declared or
    /// inferred by Cargo).
    test_targets: Vec<PathBuf>,
    /// `[features] serde`, if declared: what it enables.
    serde_feature: Option<Vec<String>>,
    /// Edges to workspace crates: (package as published, kind).
    deps: Vec<(String, &'static str)>,
}

impl Package {
    /// Its role in [`ROLES`], if placed there.
    fn role(&self) -> Option<Role> {
        role_of(&self.package)
    }
}

fn role_of(package: &str) -> Option<Role> {
    ROLES
        .iter()
        .find(|(name, _)| *name == package)
        .map(|(_, role)| *role)
}

/// The workspace's packages by directory name.
fn packages() -> &'static BTreeMap<String, Package> {
    static PACKAGES: OnceLock<BTreeMap<String, Package>> = OnceLock::new();
    PACKAGES.get_or_init(|| {
        let metadata = MetadataCommand::new()
            .cargo_path(env!("CARGO"))
            .current_dir(root())
            .no_deps()
            .exec()
            .unwrap_or_else(|e| panic!("cannot read `cargo metadata`: {e}"));
        let ours: Vec<String> = metadata
            .packages
            .iter()
            .map(|p| p.name.to_string())
            .collect();
        let mut packages = BTreeMap::new();
        for p in &metadata.packages {
            let manifest_dir = p
                .manifest_path
                .parent()
                .expect("manifest_path has a parent")
                .as_std_path()
                .to_path_buf();
            let name = manifest_dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let declared_role = p
                .metadata
                .pointer("/usched/role")
                .and_then(|r| r.as_str())
                .map(str::to_owned);
            let deps = p
                .dependencies
                .iter()
                // Path dependencies on workspace members are ours.
                .filter(|d| d.path.is_some() && ours.contains(&d.name))
                .map(|d| {
                    let kind = match d.kind {
                        DependencyKind::Development => "dev",
                        DependencyKind::Build => "build",
                        _ => "normal",
                    };
                    (d.name.clone(), kind)
                })
                .collect();
            packages.insert(
                name.clone(),
                Package {
                    name,
                    package: p.name.to_string(),
                    declared_role,
                    manifest_dir,
                    description: p.description.clone(),
                    license: p.license.clone(),
                    readme: p.readme.as_ref().map(ToString::to_string),
                    is_lib: p.targets.iter().any(|t| t.is_kind(TargetKind::Lib)),
                    test_targets: p
                        .targets
                        .iter()
                        .filter(|t| t.is_kind(TargetKind::Test))
                        .map(|t| t.src_path.as_std_path().to_path_buf())
                        .collect(),
                    serde_feature: p.features.get("serde").cloned(),
                    deps,
                },
            );
        }
        packages
    })
}

/// The workspace packages of `role`, by directory name.
fn with_role(role: Role) -> Vec<&'static Package> {
    packages()
        .values()
        .filter(|p| p.role() == Some(role))
        .collect()
}

/// Fails with every offending edge named, if a crate of `role` depends on a
/// crate of ours that is not of a strictly lower role.
fn check_role(role: Role) {
    let mut bad = Vec::new();
    for p in with_role(role) {
        for (to, kind) in &p.deps {
            // A crate's dev-dependency on itself only turns on a feature for
            // its own tests (profile's `testing`): no edge between roles.
            if *to == p.package && *kind == "dev" {
                continue;
            }
            match role_of(to) {
                Some(below) if below < role => {}
                Some(other) => bad.push(format!(
                    "`{}` ({}) -> `{to}` ({}), a {kind} dependency",
                    p.package,
                    role.name(),
                    other.name()
                )),
                None => bad.push(format!(
                    "`{}` -> `{to}`, which has no role in ROLES",
                    p.package
                )),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "dependency rule broken: a {} crate may depend on {}\n  {}",
        role.name(),
        role.may_use(),
        bad.join("\n  ")
    );
}

#[test]
fn profile_depends_on_no_crate_of_ours() {
    assert_eq!(with_role(Role::Profile).len(), 1, "one `profile` crate");
    check_role(Role::Profile);
}

#[test]
fn leaf_crates_depend_only_on_profile() {
    let leaves = with_role(Role::Leaf);
    assert!(
        leaves.len() >= 6,
        "expected the six leaf crates, found {:?}",
        leaves.iter().map(|p| &p.package).collect::<Vec<_>>()
    );
    check_role(Role::Leaf);
}

#[test]
fn composition_crates_compose_profile_and_leaves() {
    assert!(
        !with_role(Role::Composition).is_empty(),
        "`intergrid` composes gateway, partitions-forecast and pricing"
    );
    check_role(Role::Composition);
}

#[test]
fn the_framework_uses_only_the_crates_below_it() {
    assert_eq!(
        with_role(Role::Framework).len(),
        1,
        "one framework crate (`experiments`)"
    );
    check_role(Role::Framework);
}

#[test]
fn front_end_libraries_use_the_framework_and_below() {
    // None before xtask's library moves to crates/cli; the rule holds either way.
    check_role(Role::FrontEndLibrary);
}

/// Front ends sit on top: they drive the framework (directly or through a
/// front-end library) and nothing depends on them.
#[test]
fn front_ends_drive_the_framework_and_nothing_uses_a_front_end() {
    check_role(Role::FrontEnd);
    let front_ends = with_role(Role::FrontEnd);
    assert!(!front_ends.is_empty(), "`xtask` is a front end");
    let by_package: BTreeMap<&str, &Package> = packages()
        .values()
        .map(|p| (p.package.as_str(), p))
        .collect();
    for front_end in front_ends {
        // Normal dependencies reached from the front end, transitively.
        let mut seen = vec![front_end.package.as_str()];
        let mut todo = vec![front_end];
        while let Some(p) = todo.pop() {
            for (to, kind) in &p.deps {
                if *kind == "normal" && !seen.contains(&to.as_str()) {
                    seen.push(to);
                    todo.extend(by_package.get(to.as_str()));
                }
            }
        }
        assert!(
            seen.iter().any(|p| role_of(p) == Some(Role::Framework)),
            "`{}` must drive the framework (a normal dependency on it or on a front-end \
             library); it reaches only {seen:?}",
            front_end.package
        );
    }
}

#[test]
fn every_crate_is_placed_in_the_rule() {
    let crates_dir = root().join("crates");
    let mut bad = Vec::new();
    for p in packages().values() {
        match p.role() {
            None => bad.push(format!(
                "`{}` ({}) has no role: add it to ROLES in {}",
                p.package,
                relative(&p.manifest_dir),
                file!()
            )),
            Some(Role::FrontEnd) => {}
            Some(_) if !p.manifest_dir.starts_with(&crates_dir) => bad.push(format!(
                "`{}` lives in {}: every crate but a front end lives under crates/",
                p.package,
                relative(&p.manifest_dir)
            )),
            Some(_) => {}
        }
        // A role a manifest declares (`intergrid`'s) agrees with the table.
        if let Some(declared) = &p.declared_role {
            let role = p.role().map(Role::name);
            if role != Some(declared.as_str()) {
                bad.push(format!(
                    "`{}` declares `[package.metadata.usched] role = \"{declared}\"`, ROLES says {role:?}",
                    p.package
                ));
            }
        }
    }
    for (name, _) in ROLES {
        let present = packages().values().any(|p| p.package == *name);
        let planned = PLANNED.iter().any(|(planned, _)| planned == name);
        if !present && !planned {
            bad.push(format!(
                "ROLES names `{name}`, which is not in the workspace (remove it, or list it in PLANNED with why)"
            ));
        }
    }
    for (name, _) in PLANNED {
        if role_of(name).is_none() {
            bad.push(format!(
                "PLANNED names `{name}`, which has no role in ROLES"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "crates not placed in the dependency rule:\n  {}",
        bad.join("\n  ")
    );
}

/// Every crate's integration tests are one binary, `tests/tests/main.rs`
/// with a module per area (one build, one link, shared helpers as modules);
/// a second binary needs a reason in [`OWN_TEST_BINARIES`].
#[test]
fn every_crate_uses_one_test_layout() {
    let mut bad = Vec::new();
    let mut exempt_seen = Vec::new();
    for p in packages().values() {
        let main = p.manifest_dir.join("tests/tests/main.rs");
        // Cargo's test targets, and top-level `tests/*.rs` files that are none
        // (`autotests = false`, or not built at all).
        let mut binaries = p.test_targets.clone();
        if let Ok(entries) = std::fs::read_dir(p.manifest_dir.join("tests")) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "rs") && !binaries.contains(&path) {
                    binaries.push(path);
                }
            }
        }
        binaries.sort();
        for binary in binaries {
            if binary == main {
                continue;
            }
            let rel = binary
                .strip_prefix(&p.manifest_dir)
                .unwrap_or(&binary)
                .to_string_lossy()
                .into_owned();
            if OWN_TEST_BINARIES
                .iter()
                .any(|(package, path, _)| *package == p.package && *path == rel)
            {
                exempt_seen.push((p.package.clone(), rel));
                continue;
            }
            bad.push(format!(
                "{}: a test binary of its own; make it a module of {} (or list it in \
                 OWN_TEST_BINARIES with the reason it cannot be one)",
                relative(&binary),
                relative(&main)
            ));
        }
    }
    for (package, path, _) in OWN_TEST_BINARIES {
        if !exempt_seen
            .iter()
            .any(|(p, rel)| p == package && rel == path)
        {
            bad.push(format!(
                "OWN_TEST_BINARIES lists {package}'s {path}, which is not there: remove the entry"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "integration tests outside the one layout (tests/tests/main.rs with modules):\n  {}",
        bad.join("\n  ")
    );
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

/// The lines of Rust code (comments cut) under `dir` that use any of
/// `markers`, as "file:line: text", in files whose path does not end with
/// one of `allowed`. Fails if `dir` holds no Rust file, so a moved
/// directory cannot pass unread.
fn code_lines_using(dir: &Path, allowed: &[&str], markers: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no Rust files under {}", dir.display());
    let mut found = Vec::new();
    for file in &files {
        let name = relative(file);
        if allowed.iter().any(|a| name.ends_with(a)) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if markers.iter().any(|m| code.contains(m)) {
                found.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

/// The command line prints through `say!` and `say_err!` (`cli::exit`),
/// which encode control characters for the terminal: printed lines quote
/// paths, trace names and configuration text. The only raw printing is in
/// those macros, the progress reporter, the entry point and `describe`,
/// each of which encodes its text itself.
#[test]
fn the_command_line_prints_only_through_its_encoding_macros() {
    let src = root().join("crates/cli/src");
    let allowed = [
        "crates/cli/src/exit.rs",
        "crates/cli/src/progress.rs",
        "crates/cli/src/lib.rs",
        "crates/cli/src/describe.rs",
    ];
    let raw = code_lines_using(&src, &allowed, &["println!(", "print!("]);
    assert!(
        raw.is_empty(),
        "print with say! or say_err! (cli::exit), which encode for the terminal:\n{}",
        raw.join("\n")
    );
}

/// The `.display()` calls in `crates/cli/src` that put no path into a
/// message: (file, the code that holds the call, why it is not a message).
/// A message quotes a path with `experiments::encode::terminal_path`.
const DISPLAY_NOT_IN_MESSAGES: &[(&str, &str, &str)] = &[
    // Job scripts have their own encodings; sbatch takes arguments, not text.
    (
        "slurm.rs",
        "sbatch_path(&logs.display()",
        "an #SBATCH line, its own encoding",
    ),
    (
        "slurm.rs",
        "&shards_file.display()",
        "an argument of sbatch",
    ),
    ("slurm.rs", "&merge_file.display()", "an argument of sbatch"),
    (
        "bench/mod.rs",
        "path.display().to_string()",
        "an argument of the benchmark child",
    ),
    (
        "bench/mod.rs",
        "&p.display().to_string()",
        "an argument of the benchmark child",
    ),
    // Names recorded in results (run.toml, cells) stay as given.
    (
        "settings.rs",
        ".display()",
        "Settings::shown: the config name run.toml records",
    ),
    (
        "traces.rs",
        "|| path.display().to_string()",
        "the trace file name results record",
    ),
    // Names handed to a parser whose errors encode them themselves.
    (
        "traces.rs",
        "path.display().to_string(),",
        "swf-io's source name (SwfError)",
    ),
    (
        "config.rs",
        "path.display()",
        "the config parser's file name (ConfigError)",
    ),
    (
        "cells.rs",
        "copy.display()",
        "the config parser's file name (ConfigError)",
    ),
    (
        "cells.rs",
        "&f.display()",
        "the cells parser's file name (CellsError)",
    ),
];

/// A line feed in a path the command line quotes (`--trace`, `--out`, a
/// config path) would start a line of its own in the message, a fake
/// `error:` line: `say!` keeps line feeds, for messages of several lines.
/// So messages quote paths with `encode::terminal_path`, never
/// `.display()`, except where [`DISPLAY_NOT_IN_MESSAGES`] says why.
#[test]
fn the_command_line_quotes_paths_through_the_name_encoding() {
    let src = root().join("crates/cli/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut used = vec![false; DISPLAY_NOT_IN_MESSAGES.len()];
    let mut raw = Vec::new();
    for file in &files {
        let name = relative(file);
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if !code.contains(".display()") {
                continue;
            }
            let allowed = DISPLAY_NOT_IN_MESSAGES.iter().position(|(f, c, _)| {
                name.ends_with(&format!("crates/cli/src/{f}")) && code.contains(c)
            });
            match allowed {
                Some(k) => used[k] = true,
                None => raw.push(format!("{name}:{}: {}", i + 1, line.trim())),
            }
        }
    }
    assert!(
        raw.is_empty(),
        "quote a path in a message with experiments::encode::terminal_path (a line feed in \
         it would fake a line), or add the use to DISPLAY_NOT_IN_MESSAGES with its reason:\n{}",
        raw.join("\n")
    );
    let stale: Vec<_> = DISPLAY_NOT_IN_MESSAGES
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|((f, c, _), _)| format!("{f}: {c}"))
        .collect();
    assert!(
        stale.is_empty(),
        "allowed but not found, remove:\n{}",
        stale.join("\n")
    );
}

/// The Python package's exceptions quote what a caller gave, and a
/// caller can give anything: a list of a million items, an `int` of
/// 5,000 digits. So the binding builds every exception in
/// `crates/python/src/convert.rs` (`error`, `type_error`, `value_error`,
/// `runtime_error`, which shorten long runs) and quotes a value with
/// `convert::shown` (its `repr`, shortened as a whole), never `.repr()`;
/// the package's Python modules quote one with `_usched.shown`, never
/// `!r`, except in a `__repr__`.
#[test]
fn the_python_package_builds_its_exceptions_and_quotes_values_in_one_place() {
    let crate_dir = root().join("crates/python");
    let mut raw = code_lines_using(
        &crate_dir.join("src"),
        &["crates/python/src/convert.rs"],
        &["new_err(", ".repr()"],
    );
    let package = crate_dir.join("python/usched");
    let mut modules: Vec<_> = std::fs::read_dir(&package)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    modules.sort();
    assert!(
        !modules.is_empty(),
        "no modules under {}",
        package.display()
    );
    for file in &modules {
        let name = relative(file);
        let text = std::fs::read_to_string(file).unwrap();
        let mut function = "";
        for (i, line) in text.lines().enumerate() {
            if let Some(rest) = line.trim_start().strip_prefix("def ") {
                function = rest.split('(').next().unwrap_or_default();
            }
            let code = line.split('#').next().unwrap_or_default();
            if code.contains("!r}") && function != "__repr__" {
                raw.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        raw.is_empty(),
        "build exceptions in crates/python/src/convert.rs and quote a value with \
         convert::shown (Rust) or _usched.shown (Python), which shorten a long one:\n{}",
        raw.join("\n")
    );
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

/// Every library crate below the framework (`profile`, leaves, compositions;
/// the framework's configs need serde always, and the front-end libraries
/// read them) offers `Serialize`/`Deserialize` one
/// way: an optional `serde` dependency behind a feature named `serde`
/// whose first entry is `dep:serde` (`serde = ["dep:serde", ...]`, the
/// rest enabling the same feature of the crates it builds on).
#[test]
fn every_library_crate_has_an_optional_serde_feature() {
    let crates_dir = root().join("crates");
    let mut bad = Vec::new();
    for p in packages().values() {
        let below_the_framework = p.role().is_some_and(|r| r < Role::Framework);
        if !p.is_lib || !p.manifest_dir.starts_with(&crates_dir) || !below_the_framework {
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
        // A crate that is never published (the Python package, installed
        // with pip) has no dependency line to show.
        let manifest =
            std::fs::read_to_string(crates_dir.join(dir).join("Cargo.toml")).unwrap_or_default();
        let unpublished = manifest.lines().any(|l| l.trim() == "publish = false");
        let mut own_line = unpublished;
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

/// The user's study outside the workspace (xtask/tests/fixtures/user-study)
/// proves that the whole command line is a library: its `main.rs` is at most
/// 10 lines of code calling `cli::main` with its registry, and it is a
/// workspace of its own with its lockfile committed, run by CI.
#[test]
fn the_user_study_gets_the_whole_command_line_from_a_short_main() {
    let dir = root().join("xtask/tests/fixtures/user-study");
    let main = std::fs::read_to_string(dir.join("src/main.rs")).expect("its src/main.rs");
    let code: Vec<&str> = main
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    assert!(
        code.len() <= 10,
        "src/main.rs has {} lines of code",
        code.len()
    );
    assert!(main.contains("cli::main("), "src/main.rs calls cli::main");
    let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("its Cargo.toml");
    assert!(toml.lines().any(|l| l.trim() == "[workspace]"));
    assert!(
        dir.join("Cargo.lock").is_file(),
        "its lockfile is committed"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(ci.contains("outside user-study"), ".ci/run tests it");
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
