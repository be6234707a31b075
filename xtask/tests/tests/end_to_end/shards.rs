//! Sharded runs and `merge`: any number of shards, in any order, merge to
//! the bytes of one run; missing and foreign cells are reported.

use super::command_line::{setup, text, xtask};
use super::*;
use crate::common::tree::tree;

fn ok(tmp: &TempDir, args: &[&str]) -> String {
    let out = xtask(tmp, args);
    assert!(
        out.status.success(),
        "{args:?}: {}\n{}",
        text(&out.stderr),
        text(&out.stdout)
    );
    text(&out.stderr)
}

#[test]
fn shards_in_any_order_merge_to_the_bytes_of_one_run() {
    let tmp = setup("shards-merge");
    ok(&tmp, &["run", "exp.toml", "--out", "local"]);
    let local = tree(&tmp.path().join("local"));
    assert_eq!(
        local.len(),
        6,
        "{:?}",
        local.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    // The tiny experiment has three cells: fewer, as many and more shards.
    for n in [1u32, 3, 5] {
        let cells = format!("cells-{n}");
        for i in (0..n).rev() {
            ok(
                &tmp,
                &[
                    "run",
                    "exp.toml",
                    "--shard",
                    &format!("{i}/{n}"),
                    "--cells",
                    &cells,
                ],
            );
        }
        let out = format!("merged-{n}");
        ok(&tmp, &["merge", &cells, "--out", &out]);
        assert_eq!(tree(&tmp.path().join(&out)), local, "{n} shards");
    }
    // Shards of different counts in one directory merge too.
    ok(
        &tmp,
        &["run", "exp.toml", "--shard", "0/2", "--cells", "cells-3"],
    );
    ok(&tmp, &["merge", "cells-3", "--out", "merged-mixed"]);
    assert_eq!(tree(&tmp.path().join("merged-mixed")), local);
}

#[test]
fn a_missing_shard_is_listed_and_rerunning_it_completes_the_merge() {
    let tmp = setup("shards-missing");
    ok(&tmp, &["run", "exp.toml", "--out", "local"]);
    for i in [0, 2] {
        ok(
            &tmp,
            &[
                "run",
                "exp.toml",
                "--shard",
                &format!("{i}/3"),
                "--cells",
                "cells",
            ],
        );
    }
    let out = xtask(&tmp, &["merge", "cells", "--out", "merged"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("1 of 3 cells were not measured"), "{err}");
    assert!(err.contains("cell 1 (shard 1/3): easy on tiny"), "{err}");
    assert!(err.contains("--shard 1/3 --cells cells"), "{err}");
    assert!(
        !err.contains("cell 0 ") && !err.contains("cell 2 "),
        "{err}"
    );
    assert!(!tmp.path().join("merged/test/tiny").exists());
    ok(
        &tmp,
        &["run", "exp.toml", "--shard", "1/3", "--cells", "cells"],
    );
    ok(&tmp, &["merge", "cells", "--out", "merged"]);
    assert_eq!(
        tree(&tmp.path().join("merged")),
        tree(&tmp.path().join("local"))
    );
}

#[test]
fn cells_of_a_configs_id_measured_with_another_configuration_are_not_merged() {
    let tmp = setup("shards-catalog-id");
    // Another configuration under the id of configs/baseline/backfilling.toml.
    let committed = crate::common::checkout().join("configs/baseline/backfilling.toml");
    let text_of = std::fs::read_to_string(&committed).unwrap();
    let title = text_of
        .lines()
        .find(|l| l.starts_with("title = "))
        .unwrap()
        .to_string();
    let forged = text_of.replacen(&title, "title = \"FORGED\"", 1);
    std::fs::write(tmp.path().join("forged.toml"), forged).unwrap();
    ok(
        &tmp,
        &["run", "forged.toml", "--shard", "0/1", "--cells", "cells"],
    );
    let out = xtask(&tmp, &["merge", "cells", "--out", "merged"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("were measured with another configuration than")
            && err.contains("configs/baseline/backfilling.toml"),
        "{err}"
    );
    assert!(!tmp.path().join("merged/baseline/backfilling").exists());
    // The committed file's own shards merge.
    ok(
        &tmp,
        &[
            "reproduce",
            "baseline/backfilling",
            "--shard",
            "0/1",
            "--cells",
            "good",
        ],
    );
    ok(&tmp, &["merge", "good", "--out", "merged"]);
    ok(&tmp, &["verify", "--out", "merged", "baseline/backfilling"]);
}

#[test]
fn cells_of_another_configuration_or_revision_are_refused() {
    let tmp = setup("shards-foreign");
    ok(
        &tmp,
        &["run", "exp.toml", "--shard", "0/2", "--cells", "cells"],
    );
    // The configuration changes between shards: the second shard refuses.
    let config = std::fs::read_to_string(tmp.path().join("exp.toml")).unwrap();
    std::fs::write(
        tmp.path().join("exp.toml"),
        config.replace("seed = 3", "seed = 4"),
    )
    .unwrap();
    let out = xtask(
        &tmp,
        &["run", "exp.toml", "--shard", "1/2", "--cells", "cells"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds cells of another configuration"),
        "{}",
        text(&out.stderr)
    );
    // Merge reads the configuration the shards ran with (the cells
    // directory's copy), not the changed file: the refused shard's cell is
    // missing.
    let out = xtask(&tmp, &["merge", "cells", "--out", "merged"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("were not measured") && !err.contains("another configuration"),
        "{err}"
    );
    // Cells of another code revision.
    std::fs::write(tmp.path().join("exp.toml"), &config).unwrap();
    ok(
        &tmp,
        &["run", "exp.toml", "--shard", "1/2", "--cells", "cells"],
    );
    let identity = tmp.path().join("cells/test/tiny/experiment.toml");
    let doc = std::fs::read_to_string(&identity).unwrap();
    let line = doc
        .lines()
        .find(|l| l.starts_with("git_revision"))
        .unwrap()
        .to_string();
    std::fs::write(
        &identity,
        doc.replace(&line, "git_revision = \"0123456789abcdef\""),
    )
    .unwrap();
    let out = xtask(&tmp, &["merge", "cells", "--out", "merged"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("another code revision (0123456789ab there"),
        "{err}"
    );
    assert!(!tmp.path().join("merged/test/tiny").exists());
    // A shard file that is not a cells file.
    std::fs::write(&identity, &doc).unwrap();
    std::fs::write(
        tmp.path().join("cells/test/tiny/shard-0-of-2.toml"),
        "format = 1\n",
    )
    .unwrap();
    let err = text(&xtask(&tmp, &["merge", "cells", "--out", "merged"]).stderr);
    assert!(err.contains("shard-0-of-2.toml: not a cells file"), "{err}");
}

#[test]
fn merge_reads_the_cells_copy_of_the_configuration_never_a_path_named_in_them() {
    let tmp = setup("shards-config-copy");
    ok(&tmp, &["run", "exp.toml", "--out", "local"]);
    for i in 0..2 {
        let shard = format!("{i}/2");
        ok(
            &tmp,
            &["run", "exp.toml", "--shard", &shard, "--cells", "cells"],
        );
    }
    // experiment.toml names another file: merge never reads it.
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, "root:x:0:0:SECRET-LINE\n").unwrap();
    let identity = tmp.path().join("cells/test/tiny/experiment.toml");
    let doc = std::fs::read_to_string(&identity).unwrap();
    let line = doc
        .lines()
        .find(|l| l.starts_with("config_path"))
        .unwrap()
        .to_string();
    let forged = format!("config_path = {:?}", secret.display().to_string());
    std::fs::write(&identity, doc.replace(&line, &forged)).unwrap();
    let err = ok(&tmp, &["merge", "cells", "--out", "merged"]);
    assert!(!err.contains("SECRET"), "{err}");
    assert_eq!(
        tree(&tmp.path().join("merged")),
        tree(&tmp.path().join("local"))
    );
    // A changed copy is refused by its recorded sha256, naming the copy.
    let copy = tmp.path().join("cells/test/tiny/config.toml");
    let resolved = std::fs::read_to_string(&copy).unwrap();
    std::fs::write(&copy, format!("{resolved}\n# changed\n")).unwrap();
    for (what, want) in [
        ("changed", "config.toml: sha256"),
        ("missing", "config.toml is missing"),
    ] {
        if what == "missing" {
            std::fs::remove_file(&copy).unwrap();
        }
        let out = xtask(&tmp, &["merge", "cells", "--out", "merged2"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(
            err.contains(want) && !err.contains("SECRET"),
            "{what}: {err}"
        );
        assert!(!err.contains("secret.txt"), "{what}: {err}");
    }
}

#[test]
fn bad_shards_and_directories_are_usage_errors() {
    let tmp = setup("shards-usage");
    for (args, want) in [
        (
            &["run", "exp.toml", "--shard", "3/3", "--cells", "c"][..],
            "shards are numbered 0 to 2",
        ),
        (
            &["run", "exp.toml", "--shard", "0/0", "--cells", "c"],
            "must be at least 1",
        ),
        (&["run", "exp.toml", "--shard", "1"], "is not I/N"),
        (&["run", "exp.toml", "--shard", "0/2"], "--cells"),
        (&["run", "exp.toml", "--cells", "c"], "--shard"),
        (
            &[
                "run", "exp.toml", "--shard", "0/2", "--cells", "c", "--out", "o",
            ],
            "cannot be used with",
        ),
        (
            &["slurm", "all", "--cells", "c", "--out", "o", "--time", "1h"],
            "not a Slurm time limit",
        ),
        (
            &[
                "slurm", "all", "--cells", "c", "--out", "o", "--shards", "0",
            ],
            "--shards",
        ),
    ] {
        let out = xtask(&tmp, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(want),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = xtask(&tmp, &["merge", "nowhere"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("nowhere is not a directory of cells"));
}

#[test]
fn slurm_dry_run_prints_the_scripts_without_slurm() {
    let tmp = setup("slurm-dry");
    let out = xtask(
        &tmp,
        &[
            "slurm",
            "baseline/backfilling",
            "--cells",
            "cells",
            "--out",
            "res",
            "--shards",
            "3",
            "--partition",
            "batch",
            "--time",
            "00:30:00",
            "--cpus-per-task",
            "2",
            "--sbatch-arg=--account=abc",
            "--dry-run",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for want in [
        "#SBATCH --array=0-2",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --partition=batch",
        "#SBATCH --time=00:30:00",
        "#SBATCH --account=abc",
        "reproduce --shard \"${SLURM_ARRAY_TASK_ID}/3\"",
        "-- baseline/backfilling\n",
        "/cells/slurm/logs/shards-%A_%a.log",
        "--dependency=afterok:<array job>",
        " merge --out ",
        "1 experiment(s), 6 cells, 3 shard(s)",
    ] {
        assert!(stdout.contains(want), "{want}:\n{stdout}");
    }
    assert!(
        !tmp.path().join("cells").exists(),
        "a dry run writes nothing"
    );
}

/// What the cells directory holds that the tool did not write is never
/// replaced, checked before any work; an edited measurement is refused
/// by `merge`; `--no-claims` belongs to `merge`; `slurm` keeps `--replace`.
#[test]
fn cells_directories_keep_what_the_tool_did_not_write() {
    let tmp = setup("shards-foreign");
    let fails = |args: &[&str], needle: &str| {
        let out = xtask(&tmp, args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = text(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    // The configuration being run, where the copy would go.
    let dir = tmp.path().join("c1/test/tiny");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config.toml");
    let mine = format!(
        "{}# mine\n",
        std::fs::read_to_string(tmp.path().join("exp.toml")).unwrap()
    );
    std::fs::write(&config, &mine).unwrap();
    std::fs::copy(tmp.path().join("tiny.swf"), dir.join("tiny.swf")).unwrap();
    fails(
        &[
            "run",
            "c1/test/tiny/config.toml",
            "--shard",
            "0/1",
            "--cells",
            "c1",
        ],
        "refusing to write over an input",
    );
    assert_eq!(std::fs::read_to_string(&config).unwrap(), mine);
    // A config.toml of one's own, and a shard file's name taken.
    fails(
        &["run", "exp.toml", "--shard", "0/1", "--cells", "c1"],
        "c1/test/tiny/config.toml exists and was not written by this tool",
    );
    let dir = tmp.path().join("c2/test/tiny");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("shard-0-of-1.toml"), "mine\n").unwrap();
    fails(
        &["run", "exp.toml", "--shard", "0/1", "--cells", "c2"],
        "shard-0-of-1.toml exists and was not written by this tool",
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("shard-0-of-1.toml")).unwrap(),
        "mine\n"
    );
    // The tool's own files it writes again; an edited value is refused.
    ok(
        &tmp,
        &["run", "exp.toml", "--shard", "0/1", "--cells", "c3"],
    );
    ok(
        &tmp,
        &["run", "exp.toml", "--shard", "0/1", "--cells", "c3"],
    );
    let shard = tmp.path().join("c3/test/tiny/shard-0-of-1.toml");
    let kept = std::fs::read_to_string(&shard).unwrap();
    let at = kept.find("[cell.run.values]").unwrap();
    let digit = at + kept[at..].find(|c: char| c.is_ascii_digit()).unwrap();
    let other = if kept.as_bytes()[digit] == b'7' {
        "8"
    } else {
        "7"
    };
    let edited = format!("{}{other}{}", &kept[..digit], &kept[digit + 1..]);
    std::fs::write(&shard, edited).unwrap();
    fails(
        &["merge", "c3", "--out", "m3"],
        "the file was changed after its shard wrote it",
    );
    std::fs::write(&shard, kept).unwrap();
    // --no-claims: refused beside --cells, taken by merge (the bytes of
    // an unsharded run --no-claims).
    fails(
        &[
            "run",
            "exp.toml",
            "--shard",
            "0/1",
            "--cells",
            "c3",
            "--no-claims",
        ],
        "cannot be used with '--no-claims'",
    );
    ok(&tmp, &["merge", "c3", "--out", "m3", "--no-claims"]);
    ok(&tmp, &["run", "exp.toml", "--out", "r3", "--no-claims"]);
    assert_eq!(tree(&tmp.path().join("m3")), tree(&tmp.path().join("r3")));
    // slurm: scripts of one's own are kept; --replace reaches the merge.
    let scripts = tmp.path().join("c4/slurm");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(scripts.join("shards.sbatch"), "mine\n").unwrap();
    let out = xtask(
        &tmp,
        &[
            "--replace",
            "slurm",
            "baseline/backfilling",
            "--cells",
            "c4",
            "--out",
            "res",
            "--dry-run",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(" --replace merge --out "),
        "{}",
        text(&out.stdout)
    );
    fails(
        &[
            "slurm",
            "baseline/backfilling",
            "--cells",
            "c4",
            "--out",
            "res",
        ],
        "shards.sbatch exists and was not written by `cargo xtask slurm`",
    );
    assert_eq!(
        std::fs::read_to_string(scripts.join("shards.sbatch")).unwrap(),
        "mine\n"
    );
}
