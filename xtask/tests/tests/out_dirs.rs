//! Output folders: every command that takes `--out` refuses one that holds
//! files the tool did not make (the source tree, its configs/, a folder of
//! one's own), and a bare `verify` over studies of one's own only checks
//! them and writes no papers' document.

use std::process::Output;

use crate::common::checkout;
use crate::common::spawn::{offline_xtask, output};
use crate::common::tempdir::TempDir;

/// A small study of one's own: EASY on a small Lublin99 workload.
const STUDY: &str = r#"version = 2
id = "study/small"
title = "A small study"
kind = "backfilling"
seed = 7
series = ["easy"]

[[workloads]]
label = "Lublin99"
lublin99 = { procs = 32, jobs = 200 }

[sweep]
axis = "workload"
label = "workload"

[[panels]]
id = "wait"
metric = "mean_wait"
"#;

fn run(tmp: &TempDir, args: &[&str]) -> Output {
    output(offline_xtask(tmp.path()).args(args)).unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Every command that takes `--out`, with `out` as its output folder.
fn commands(out: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        s(&["run", "study.toml", "--out", out, "-q"]),
        s(&["reproduce", "baseline/backfilling", "--out", out, "-q"]),
        s(&["verify", "--out", out]),
        s(&["merge", "cells", "--out", out]),
        s(&[
            "slurm",
            "baseline/backfilling",
            "--cells",
            "cells",
            "--out",
            out,
        ]),
    ]
}

/// Every command refuses `out`, saying `needle`, and leaves it as it was.
fn refused(tmp: &TempDir, out: &str, needle: &str) {
    let before = crate::common::tree::tree(&tmp.path().join(out));
    for args in commands(out) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(tmp, &args);
        let stderr = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: wanted {needle:?} in {stderr}"
        );
        assert_eq!(
            crate::common::tree::tree(&tmp.path().join(out)),
            before,
            "{args:?}"
        );
    }
}

#[test]
fn an_output_folder_holding_files_of_others_is_refused_by_every_command() {
    let tmp = TempDir::new("out-dirs-foreign");
    std::fs::write(tmp.path().join("study.toml"), STUDY).unwrap();
    std::fs::create_dir_all(tmp.path().join("cells")).unwrap();
    // A file of one's own at the top of the folder.
    std::fs::create_dir_all(tmp.path().join("mine")).unwrap();
    std::fs::write(tmp.path().join("mine/notes.txt"), "mine").unwrap();
    refused(
        &tmp,
        "mine",
        "--out mine holds mine/notes.txt, which cargo xtask did not write; an output folder \
         holds only what the tool makes (results folders <group>/<name>/, its REPRODUCTION.md, \
         files it marks as its own, .usched-staging), so nothing else is ever replaced: move that \
         away or choose another --out",
    );
    // And one level down, in what would be a group folder.
    std::fs::create_dir_all(tmp.path().join("src/study")).unwrap();
    std::fs::write(tmp.path().join("src/study/lib.rs"), "//").unwrap();
    refused(
        &tmp,
        "src",
        "--out src holds src/study/lib.rs, which cargo xtask did not write",
    );
    // The source tree, its configs/ and a new folder inside configs/.
    let root = checkout();
    for (out, needle) in [
        (root.clone(), "is the source tree's root".to_string()),
        (
            root.join("configs"),
            "is the source tree's configs/".to_string(),
        ),
        (
            root.join("configs/examples"),
            format!("is inside {}", root.join("configs").display()),
        ),
    ] {
        let out = out.to_str().unwrap();
        for args in commands(out) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run(&tmp, &args);
            let stderr = text(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(
                stderr.contains(&needle),
                "{args:?}: wanted {needle:?} in {stderr}"
            );
        }
    }
    assert!(!root.join("study").exists() && !root.join("configs/study").exists());
    // What the tool made is fine: results, then a second run beside them.
    let o = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn a_bare_verify_over_studies_of_ones_own_checks_them_and_writes_no_papers_document() {
    let tmp = TempDir::new("out-dirs-verify");
    std::fs::write(tmp.path().join("study.toml"), STUDY).unwrap();
    let o = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&tmp, &["verify", "--out", "res"]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        text(&o.stdout).contains("study/small:"),
        "{}",
        text(&o.stdout)
    );
    assert!(
        stderr.contains(
            "res holds results of studies of your own only (checked above) and none of the \
             papers' experiments, so no reproduction document was written"
        ),
        "{stderr}"
    );
    assert!(!tmp.path().join("res/REPRODUCTION.md").exists());
    // A folder with no results at all is an error saying so.
    std::fs::create_dir_all(tmp.path().join("empty")).unwrap();
    let o = run(&tmp, &["verify", "--out", "empty"]);
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "empty holds no results: neither of the papers' experiments nor of studies of your own"
        ),
        "{stderr}"
    );
    assert!(!tmp.path().join("empty/REPRODUCTION.md").exists());
}

#[test]
fn slurm_writes_its_scripts_and_logs_through_no_link() {
    let tmp = TempDir::new("out-dirs-slurm-links");
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    // `<cells>/slurm` a link, then `<cells>/slurm/logs` a link.
    for (cells, link) in [("c1", "c1/slurm"), ("c2", "c2/slurm/logs")] {
        let link = tmp.path().join(link);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        let o = run(
            &tmp,
            &[
                "slurm",
                "baseline/backfilling",
                "--cells",
                cells,
                "--out",
                "out",
            ],
        );
        let stderr = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{cells}: {stderr}");
        assert!(
            stderr.contains("is a symbolic link; results are written only into real directories"),
            "{cells}: {stderr}"
        );
        assert_eq!(
            std::fs::read_dir(&elsewhere).unwrap().count(),
            0,
            "{cells}: something was written through the link"
        );
    }
}

#[test]
fn a_file_the_tool_wrote_into_a_group_folder_does_not_block_the_tree() {
    let tmp = TempDir::new("out-dirs-group-files");
    let ok = |args: &[&str]| {
        let o = run(&tmp, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
    };
    ok(&["reproduce", "baseline/backfilling", "--out", "o", "-q"]);
    // A picture written beside the results folder: allowed when written,
    // so the tree holding it stays the tool's.
    ok(&[
        "simulate",
        "--trace",
        "lublin99:procs=32,jobs=50,seed=1",
        "--policy",
        "easy",
        "--gantt",
        "o/baseline/g.svg",
        "-q",
    ]);
    ok(&["reproduce", "baseline/backfilling", "--out", "o", "-q"]);
    ok(&["verify", "--out", "o", "baseline/backfilling"]);
    assert!(tmp.path().join("o/baseline/g.svg").is_file());
    // A file of one's own there still is not.
    std::fs::write(tmp.path().join("o/baseline/notes.txt"), "mine").unwrap();
    let o = run(
        &tmp,
        &["reproduce", "baseline/backfilling", "--out", "o", "-q"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("o/baseline/notes.txt, which cargo xtask did not write"),
        "{}",
        text(&o.stderr)
    );
}
