//! Tests against a real single-node Slurm cluster ([`cluster::Cluster`]).
//!
//! Each test starts its own cluster (about a second) and is skipped, with a
//! `skipped: Slurm not installed ...` line, where `slurmctld`, `slurmd` or
//! `munged` is missing or the process is not root; with `REQUIRE_SLURM=1`
//! (CI, after `apt-get install slurm-wlm munge`) that is a failure instead.
//! Run with `cargo test -p xtask --test tests -- slurm:: --nocapture` to see the
//! timings and Slurm's messages.

mod cluster;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::tree::tree;
use cluster::Cluster;

/// Longer than any job of these tests may take, queueing included.
const JOB_TIMEOUT: Duration = Duration::from_secs(120);

/// Starts a cluster; `None` when the test is skipped (already reported).
fn start() -> Option<Cluster> {
    let started = Instant::now();
    let cluster = Cluster::start().unwrap_or_else(|e| panic!("{e}"))?;
    eprintln!(
        "slurm: node idle {:.1} s after start, in {}",
        started.elapsed().as_secs_f64(),
        cluster.dir().display()
    );
    Some(cluster)
}

#[test]
fn a_single_node_slurm_runs_an_array_and_a_dependent_job() {
    let Some(cluster) = start() else { return };
    let dir = cluster.dir();

    let sinfo = cluster
        .command("sinfo")
        .args(["-h", "-o", "%P %D %c"])
        .output()
        .unwrap();
    assert!(sinfo.status.success(), "{sinfo:?}");
    assert_eq!(
        String::from_utf8_lossy(&sinfo.stdout).trim(),
        format!("{}* 1 {}", cluster.partition(), cluster.cpus()),
        "one default partition with one node of every CPU"
    );

    let submitted = Instant::now();
    let output = format!("--output={}/%A_%a.out", dir.display());
    let array = cluster
        .submit(&[
            "--array=0-3",
            &output,
            "--wrap",
            "echo $SLURM_ARRAY_TASK_ID > task_$SLURM_ARRAY_TASK_ID.txt",
        ])
        .unwrap();
    let after = format!("--dependency=afterok:{array}");
    let combine = cluster
        .submit(&[
            &after,
            "--output=combine.out",
            "--wrap",
            "cat task_0.txt task_1.txt task_2.txt task_3.txt > all.txt",
        ])
        .unwrap();
    let state = cluster.wait_job(combine, JOB_TIMEOUT).unwrap();
    eprintln!(
        "slurm: array of 4 and its dependent job ended {:.1} s after submission",
        submitted.elapsed().as_secs_f64()
    );
    assert_eq!(state, "COMPLETED", "{}", cluster.logs());
    assert_eq!(cluster.wait_job(array, JOB_TIMEOUT).unwrap(), "COMPLETED");
    let all = std::fs::read_to_string(dir.join("all.txt")).unwrap();
    assert_eq!(all, "0\n1\n2\n3\n", "the tasks' ids, in order");
    for task in 0..4 {
        let log = dir.join(format!("{array}_{task}.out"));
        assert!(log.is_file(), "{} missing", log.display());
    }

    let refused = cluster
        .submit(&["--partition", "nosuch", "--wrap", "true"])
        .unwrap_err();
    eprintln!("slurm: sbatch --partition nosuch says:\n{refused}");
    assert!(refused.contains("nosuch"), "{refused}");
}

/// Runs this test binary's cluster test alone with Slurm hidden (an empty
/// search path) and `REQUIRE_SLURM` as given.
fn run_hidden(require: Option<&str>) -> (bool, String) {
    let nowhere = std::env::temp_dir().join(format!("usched-no-slurm-{}", std::process::id()));
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        "slurm::a_single_node_slurm_runs_an_array_and_a_dependent_job",
        "--nocapture",
    ])
    .env("USCHED_SLURM_PATH", Path::new(&nowhere))
    .env_remove("REQUIRE_SLURM");
    if let Some(value) = require {
        cmd.env("REQUIRE_SLURM", value);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn a_missing_slurm_is_a_skip_unless_required() {
    let (passed, text) = run_hidden(None);
    assert!(passed, "{text}");
    assert!(
        text.contains("skipped: Slurm not installed (apt-get install slurm-wlm munge)"),
        "{text}"
    );
    let (passed, text) = run_hidden(Some("1"));
    assert!(!passed, "{text}");
    assert!(
        text.contains("REQUIRE_SLURM is set, but Slurm not installed"),
        "{text}"
    );
    let (passed, _) = run_hidden(Some("0"));
    assert!(passed, "REQUIRE_SLURM=0 does not require Slurm");
}

/// The job ids `cargo xtask slurm` printed: (array, merge).
fn submitted_jobs(stdout: &str) -> (u64, u64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("submitted job array "))
        .unwrap_or_else(|| panic!("no job ids in:\n{stdout}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    // "submitted job array A (tasks 0-N, one shard each) and merge job M ..."
    (numbers[0], numbers[3])
}

/// The experiments of the Slurm test: the baseline and one paper figure.
const IDS: [&str; 2] = ["baseline/backfilling", "utility/fig3"];

#[test]
fn experiments_sharded_on_slurm_merge_to_the_bytes_of_a_local_run() {
    let Some(cluster) = start() else { return };
    let dir = cluster.dir();
    let xtask = env!("CARGO_BIN_EXE_xtask");

    let local = dir.join("local");
    let out = Command::new(xtask)
        .args(["-q", "reproduce"])
        .args(IDS)
        .arg("--out")
        .arg(&local)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // An unknown partition is refused before anything is queued.
    let cells = dir.join("cells");
    let merged = dir.join("merged");
    let out = cluster
        .command(xtask)
        .args(["slurm", IDS[0], "--partition", "nosuch", "--cells"])
        .arg(&cells)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("partition 'nosuch' does not exist on this cluster (sinfo lists: debug)"),
        "{err}"
    );
    assert!(
        !cells.exists(),
        "nothing is written for a refused submission"
    );

    let started = Instant::now();
    let out = cluster
        .command(xtask)
        .arg("slurm")
        .args(IDS)
        .args([
            "--shards",
            "3",
            "--partition",
            cluster.partition(),
            "--cells",
        ])
        .arg(&cells)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (array, merge) = submitted_jobs(&stdout);
    let timeout = Duration::from_secs(600);
    let state = cluster.wait_job(merge, timeout).unwrap();
    eprintln!(
        "slurm: {} through 3 shards and a merge in {:.1} s",
        IDS.join(" + "),
        started.elapsed().as_secs_f64()
    );
    let logs = cells.join("slurm/logs");
    let log = |name: String| std::fs::read_to_string(logs.join(&name)).unwrap_or(name);
    assert_eq!(
        state,
        "COMPLETED",
        "merge job: {}\n{}",
        log(format!("merge-{merge}.log")),
        cluster.logs()
    );
    assert_eq!(cluster.wait_job(array, timeout).unwrap(), "COMPLETED");
    for task in 0..3 {
        let name = format!("shards-{array}_{task}.log");
        assert!(logs.join(&name).is_file(), "{name} missing");
        for id in IDS {
            let shard = cells.join(id).join(format!("shard-{task}-of-3.toml"));
            assert!(shard.is_file(), "{} missing", shard.display());
        }
    }
    let (want, got) = (tree(&local), tree(&merged));
    assert_eq!(
        want.iter().map(|f| &f.0).collect::<Vec<_>>(),
        got.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for ((name, a), (_, b)) in want.iter().zip(&got) {
        assert!(a == b, "{name} differs between the local and the Slurm run");
    }
}

#[test]
fn hostile_paths_reach_slurm_intact() {
    let Some(cluster) = start() else { return };
    let dir = cluster.dir();
    let xtask = env!("CARGO_BIN_EXE_xtask");
    // Every character that could break a job script or a Slurm pattern.
    let base = dir.join("a b;%A_%j %% \"q\" it's $(touch PWNED) `x` #h ü");
    std::fs::create_dir_all(&base).unwrap();
    let (cells, merged) = (base.join("cells"), base.join("out"));
    let out = cluster
        .command(xtask)
        .args(["slurm", IDS[0], "--shards", "2", "--time", "0-00:10"])
        .arg("--sbatch-arg=--comment=a;b $(touch PWNED) #x")
        .arg("--cells")
        .arg(&cells)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (array, merge) = submitted_jobs(&stdout);
    let timeout = Duration::from_secs(600);
    let state = cluster.wait_job(merge, timeout).unwrap();
    let logs = cells.join("slurm/logs");
    assert_eq!(
        state,
        "COMPLETED",
        "{:?}\n{}",
        std::fs::read_dir(&logs).map(|d| d.count()),
        cluster.logs()
    );
    // The logs are where the literal path says, the patterns expanded.
    let mut names: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            format!("merge-{merge}.log"),
            format!("shards-{array}_0.log"),
            format!("shards-{array}_1.log"),
        ]
    );
    assert!(merged.join(IDS[0]).join("data.csv").is_file());
    assert!(!dir.join("PWNED").exists() && !base.join("PWNED").exists());
    // The --sbatch-arg reached sbatch as one argument.
    let shown = cluster
        .command("scontrol")
        .args(["show", "job", &merge.to_string()])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("Comment=a;b $(touch PWNED) #x"), "{shown}");
}
