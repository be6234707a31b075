//! Finding the repository root at run time (`cli::root`): a copy of
//! the binary, as `slurm` makes, finds the checkout it runs in; outside one
//! it fails naming every place it looked; `--root` and `USCHED_ROOT` win
//! over the walk, `--root` over `USCHED_ROOT`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::checkout;
use crate::common::tempdir::TempDir;
use crate::end_to_end::write_tiny_trace;

/// A copy of the built xtask binary in `dir` (nothing ties it to the build).
fn copied_binary(dir: &Path) -> PathBuf {
    let copy = dir.join("bin").join("xtask");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_xtask"), &copy).unwrap();
    copy
}

/// `binary args...` run in `cwd` with no `USCHED_ROOT` but `env`'s.
fn run(binary: &Path, cwd: &Path, env: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(binary);
    cmd.args(args).current_dir(cwd).env_remove("USCHED_ROOT");
    if let Some(root) = env {
        cmd.env("USCHED_ROOT", root);
    }
    crate::common::spawn::output(&mut cmd).unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Whether `list` printed this checkout's catalog.
fn listed_checkout(out: &Output) -> bool {
    out.status.success() && text(&out.stdout).contains("baseline/backfilling")
}

/// A repository root of one experiment of its own (`fake/only`).
fn fake_root(tmp: &TempDir) -> PathBuf {
    let root = tmp.path().join("fake");
    std::fs::create_dir_all(root.join("configs/fake")).unwrap();
    std::fs::write(root.join("Cargo.toml"), "[workspace]\n").unwrap();
    let config = std::fs::read_to_string(checkout().join("configs/baseline/backfilling.toml"))
        .unwrap()
        .replace("id = \"baseline/backfilling\"", "id = \"fake/only\"");
    std::fs::write(root.join("configs/fake/only.toml"), config).unwrap();
    root
}

#[test]
fn a_copied_binary_finds_the_checkout_it_runs_in() {
    let tmp = TempDir::new("root-copy-inside");
    let copy = copied_binary(tmp.path());
    for cwd in [
        checkout(),
        checkout().join("docs"),
        checkout().join("configs/baseline"),
    ] {
        let out = run(&copy, &cwd, None, &["list"]);
        assert!(
            listed_checkout(&out),
            "{}: {}",
            cwd.display(),
            text(&out.stderr)
        );
    }
}

#[test]
fn outside_a_checkout_the_error_names_where_it_looked() {
    let tmp = TempDir::new("root-copy-outside");
    let copy = copied_binary(tmp.path());
    let empty = tmp.path().join("empty").join("deeper");
    std::fs::create_dir_all(&empty).unwrap();
    for args in [&["list"][..], &["reproduce", "fig4"], &["verify"]] {
        let out = run(&copy, &empty, None, args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot find the repository root"),
            "{stderr}"
        );
        // Every directory walked, from the current one up to `/`, and the
        // two places not given.
        let mut dirs: Vec<&Path> = empty.ancestors().collect();
        dirs.truncate(3);
        for dir in dirs.iter().chain([&Path::new("/")]) {
            assert!(
                stderr
                    .lines()
                    .any(|l| l.trim() == dir.display().to_string()),
                "{} not named:\n{stderr}",
                dir.display()
            );
        }
        assert!(stderr.contains("--root: not given") && stderr.contains("USCHED_ROOT: not set"));
        assert!(
            stderr.contains("give --root DIR or USCHED_ROOT=DIR"),
            "{stderr}"
        );
    }
    // What needs no root still works there.
    for args in [&["--help"][..], &["--version"], &["list", "--help"]] {
        let out = run(&copy, &empty, None, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
    write_tiny_trace(&empty.join("tiny.swf"), 50);
    let out = run(
        &copy,
        &empty,
        None,
        &["simulate", "--trace", "tiny.swf", "--policy", "easy"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A known trace's name is looked up in the repository: that needs one.
    let out = run(
        &copy,
        &empty,
        None,
        &[
            "simulate",
            "--trace",
            "KTH-SP2-1996-2.1-cln",
            "--policy",
            "easy",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot find the repository root"));
}

#[test]
fn root_flag_and_environment_win() {
    let tmp = TempDir::new("root-flag-env");
    let copy = copied_binary(tmp.path());
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let root = checkout();
    let root_arg = root.to_str().unwrap();
    // From outside a checkout: either names it.
    assert!(listed_checkout(&run(&copy, &empty, Some(&root), &["list"])));
    assert!(listed_checkout(&run(
        &copy,
        &empty,
        None,
        &["--root", root_arg, "list"]
    )));
    assert!(listed_checkout(&run(
        &copy,
        &empty,
        None,
        &["list", "--root", root_arg]
    )));
    // From inside this checkout, another root named wins over the walk.
    let fake = fake_root(&tmp);
    let fake_arg = fake.to_str().unwrap();
    for out in [
        run(&copy, &root, Some(&fake), &["list"]),
        run(&copy, &root, None, &["--root", fake_arg, "list"]),
        // --root wins over USCHED_ROOT.
        run(&copy, &root, Some(&root), &["--root", fake_arg, "list"]),
    ] {
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            stdout.starts_with("fake/only") && !stdout.contains("baseline/"),
            "{stdout}"
        );
    }
    assert!(listed_checkout(&run(
        &copy,
        &root,
        Some(&fake),
        &["--root", root_arg, "list"]
    )));
    // A relative --root is taken from the current directory.
    let out = run(&copy, tmp.path(), None, &["--root", "fake", "list"]);
    assert!(
        text(&out.stdout).starts_with("fake/only"),
        "{}",
        text(&out.stderr)
    );
    // A root named that is none is an error naming it, never replaced by the walk.
    for (env, args, named) in [
        (Some(empty.as_path()), &["list"][..], "USCHED_ROOT is"),
        (None, &["--root", "empty", "list"], "--root is"),
    ] {
        let out = run(&copy, tmp.path(), env, args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("{named} {}", empty.display()))
                && stderr.contains("no Cargo.toml"),
            "{stderr}"
        );
        let inside = run(&copy, &root, env.or(Some(&empty)), args);
        assert_eq!(inside.status.code(), Some(1), "{}", text(&inside.stderr));
    }
}

#[test]
fn slurm_job_scripts_give_the_copied_binary_the_root() {
    let tmp = TempDir::new("root-slurm");
    let root = checkout();
    let cells = tmp.path().join("cells");
    let out = run(
        Path::new(env!("CARGO_BIN_EXE_xtask")),
        tmp.path(),
        Some(&root),
        &[
            "slurm",
            "baseline/backfilling",
            "--dry-run",
            "--cells",
            cells.to_str().unwrap(),
            "--out",
            tmp.path().join("out").to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let exec: Vec<&str> = stdout.lines().filter(|l| l.starts_with("exec ")).collect();
    assert_eq!(exec.len(), 2, "{stdout}");
    for line in exec {
        assert!(
            line.contains(&format!(" --root {} ", root.display())),
            "{line}"
        );
    }
}
