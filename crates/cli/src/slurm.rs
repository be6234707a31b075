//! `cargo xtask slurm`: experiments as a Slurm job array of shards and a
//! merge job that runs once every shard succeeded.
//!
//! Everything lands under the cells directory, which every node must see
//! (a shared file system): `slurm/xtask` (a copy of the binary, so a
//! rebuild cannot change a queued job), `slurm/shards.sbatch`,
//! `slurm/merge.sbatch` and `slurm/logs/` (`shards-<array job>_<task>.log`,
//! `merge-<job>.log`). docs/SCALE-OUT.md is the user's guide.

use crate::exit::say;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, anyhow, bail};
use experiments::Shard;
use experiments::encode::terminal_path;

use crate::cells::{Identity, check_shard_target, claim_dir};
use crate::cli::SlurmArgs;
use crate::config::read_config;
use crate::progress::Verbosity;
use crate::script::{check_script_value, quote, quote_path, sbatch_path, sbatch_word};
use crate::settings::Settings;

fn path_str(p: &Path) -> String {
    quote_path(p)
}

/// The paths a submission uses.
struct Layout {
    cells: PathBuf,
    out: PathBuf,
    dir: PathBuf,
    logs: PathBuf,
    binary: PathBuf,
}

/// The two job scripts: the array of shards and the merge.
fn scripts(
    settings: &Settings,
    args: &SlurmArgs,
    ids: &[String],
    l: &Layout,
) -> Result<(String, String)> {
    // The command line checked its values; these come from elsewhere too.
    let paths = [
        ("the repository path", &settings.root),
        ("--cells", &l.cells),
        ("--out", &l.out),
        ("--binary", &l.binary),
    ];
    for (what, p) in paths {
        let Some(text) = p.to_str() else {
            bail!(
                "{what} {} is not UTF-8; job scripts need UTF-8 paths",
                terminal_path(p)
            );
        };
        check_script_value(what, text).map_err(|e| anyhow!(e))?;
    }
    for id in ids {
        check_script_value("an experiment id", id).map_err(|e| anyhow!(e))?;
    }
    let mut common = String::new();
    if let Some(p) = &args.partition {
        common += &format!("#SBATCH --partition={p}\n");
    }
    if let Some(t) = &args.time {
        common += &format!("#SBATCH --time={t}\n");
    }
    // Each --sbatch-arg is one argument, whatever it holds.
    for a in &args.sbatch_arg {
        common += &format!("#SBATCH {}\n", sbatch_word(a));
    }
    let mut globals = String::new();
    if !settings.traces.no_stand_in {
        globals += " --stand-in";
    }
    if settings.verbosity == Verbosity::Quiet {
        globals += " --quiet";
    }
    let ids: Vec<String> = ids.iter().map(|i| quote(i)).collect();
    let n = args.shards;
    let shards = format!(
        "#!/bin/bash\n\
         {SHARDS_HEADING} array task I runs shard I of {n}.\n\
         #SBATCH --job-name=usched-shards\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --output={logs}\n\
         {common}\
         set -euo pipefail\n\
         cd {root}\n\
         exec {bin} --root {root}{globals} reproduce --shard \"${{SLURM_ARRAY_TASK_ID}}/{n}\" \\\n    \
         --cells {cells} --threads \"${{SLURM_CPUS_PER_TASK:-{cpus}}}\" -- {ids}\n",
        last = n - 1,
        cpus = args.cpus_per_task,
        logs = sbatch_log(&l.logs, "shards-%A_%a.log")?,
        root = path_str(&settings.root),
        bin = path_str(&l.binary),
        ids = ids.join(" "),
        cells = path_str(&l.cells),
    );
    let merge = format!(
        "#!/bin/bash\n\
         {MERGE_HEADING} runs once every shard succeeded.\n\
         #SBATCH --job-name=usched-merge\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --output={logs}\n\
         {common}\
         set -euo pipefail\n\
         cd {root}\n\
         exec {bin} --root {root}{globals}{replace} merge --out {out} -- {cells}\n",
        logs = sbatch_log(&l.logs, "merge-%j.log")?,
        // The merge replaces results of another configuration only if asked.
        replace = if settings.replace { " --replace" } else { "" },
        root = path_str(&settings.root),
        bin = path_str(&l.binary),
        cells = path_str(&l.cells),
        out = path_str(&l.out),
    );
    Ok((shards, merge))
}

/// The second line of the shards' script, what marks it as this command's.
const SHARDS_HEADING: &str = "# Shards of `cargo xtask slurm` (docs/SCALE-OUT.md):";
/// The same for the merge's script.
const MERGE_HEADING: &str = "# Merge of `cargo xtask slurm` (docs/SCALE-OUT.md):";

/// `--output` of an `#SBATCH` line: the log folder (escaped for Slurm's
/// patterns) joined with `pattern` (meant as a pattern).
fn sbatch_log(logs: &Path, pattern: &str) -> Result<String> {
    let dir = sbatch_path(&logs.display().to_string())
        .map_err(|e| anyhow!("the log folder of --cells, {e}"))?;
    Ok(match dir.strip_suffix('"') {
        Some(open) => format!("{open}/{pattern}\""),
        None => format!("{dir}/{pattern}"),
    })
}

/// Runs a Slurm client command; its stdout, or an error with its stderr.
fn client(program: &str, args: &[&str]) -> Result<String> {
    let output = Command::new(program).args(args).output().map_err(|e| {
        anyhow!(
            "cannot run {program} ({e}): Slurm's client commands must be on PATH \
             (use --dry-run to see the job scripts without Slurm)"
        )
    })?;
    if !output.status.success() {
        bail!(
            "{program} {} failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Checks that `partition` exists (`sinfo`), for an error that names it.
fn check_partition(partition: &str) -> Result<()> {
    let listed = client("sinfo", &["--noheader", "--format=%R"])?;
    let names: Vec<&str> = listed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if !names.contains(&partition) {
        bail!(
            "partition '{partition}' does not exist on this cluster (sinfo lists: {}); pass one \
             of those to --partition, or leave it out for the default",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
    }
    Ok(())
}

/// The job id `sbatch --parsable` printed (`ID` or `ID;CLUSTER`).
fn job_id(stdout: &str) -> Result<String> {
    let id = stdout.trim().split(';').next().unwrap_or("").trim();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch printed '{}', not a job id", stdout.trim());
    }
    Ok(id.to_string())
}

/// `cargo xtask slurm`.
pub fn slurm(settings: &Settings, args: &SlurmArgs) -> Result<ExitCode> {
    let jobs = settings.select(&args.ids, args.sensitivity)?;
    // The scripts name every experiment by its full id.
    let ids: Vec<String> = jobs.iter().filter_map(|(_, id)| id.clone()).collect();
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    crate::output::refuse_nested(&args.out, "--out", &args.cells, "--cells")?;
    crate::output::check_out_dir(&args.out, "--out", &settings.root)?;
    let cells = absolute(&args.cells);
    let dir = cells.join("slurm");
    let layout = Layout {
        out: absolute(&args.out),
        logs: dir.join("logs"),
        binary: match &args.binary {
            Some(b) => {
                match fs::metadata(b) {
                    Ok(m) if m.is_file() => {}
                    Ok(_) => bail!(
                        "--binary {} is not a regular file; give the path of an xtask binary",
                        terminal_path(b)
                    ),
                    Err(_) => bail!("--binary {}: no such file", terminal_path(b)),
                }
                absolute(b)
            }
            None => dir.join("xtask"),
        },
        dir,
        cells,
    };
    // Every configuration must parse before anything is queued.
    let mut identities = Vec::new();
    let mut total = 0;
    for (path, _) in &jobs {
        let name = settings.shown(path);
        let experiment = read_config(&settings.registry, path, &name)?;
        let identity = Identity::of(&experiment, path, &name);
        total += identity.cells;
        identities.push((identity, experiment));
    }
    let (shards, merge) = scripts(settings, args, &ids, &layout)?;
    let summary = format!(
        "{} experiment(s), {total} cells, {} shard(s)",
        ids.len(),
        args.shards
    );
    if args.dry_run {
        say!("# {summary}; dry run: nothing written or submitted");
        say!(
            "# {}\n{shards}",
            terminal_path(&layout.dir.join("shards.sbatch"))
        );
        say!(
            "# {} (submitted with --dependency=afterok:<array job> --kill-on-invalid-dep=yes)\n{merge}",
            terminal_path(&layout.dir.join("merge.sbatch"))
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(p) = &args.partition {
        check_partition(p)?;
    }
    for ((identity, experiment), (path, _)) in identities.iter().zip(&jobs) {
        let dir = claim_dir(&layout.cells, identity, experiment, path)?;
        for index in 0..args.shards {
            check_shard_target(
                &dir,
                Shard::new(index, args.shards).map_err(|e| anyhow!(e))?,
                path,
            )?;
        }
    }
    // `<cells>/slurm` and its `logs` are real folders, never links to
    // elsewhere (the jobs run the binary copied there, and Slurm writes
    // the logs there).
    crate::output::check_no_links_below(&layout.cells, &layout.logs.join("log"))?;
    // The scripts and the binary's copy replace only what this command
    // wrote there before: scripts with its heading, and a binary beside them.
    let shards_file = layout.dir.join("shards.sbatch");
    let merge_file = layout.dir.join("merge.sbatch");
    let ours = |path: &Path, heading: &str| {
        fs::read(path).is_ok_and(|b| b.starts_with(format!("#!/bin/bash\n{heading}").as_bytes()))
    };
    let scripts_ours = ours(&shards_file, SHARDS_HEADING) && ours(&merge_file, MERGE_HEADING);
    for (path, mine) in [
        (&shards_file, ours(&shards_file, SHARDS_HEADING)),
        (&merge_file, ours(&merge_file, MERGE_HEADING)),
        (&layout.binary, args.binary.is_some() || scripts_ours),
    ] {
        crate::output::check_file_target(path, "--cells")?;
        if !mine && fs::symlink_metadata(path).is_ok() {
            bail!(
                "{} exists and was not written by `cargo xtask slurm`; choose another --cells \
                 directory, or move the file away",
                terminal_path(path)
            );
        }
    }
    fs::create_dir_all(&layout.logs)
        .with_context(|| format!("cannot create {}", terminal_path(&layout.logs)))?;
    if args.binary.is_none() {
        let me = std::env::current_exe().context("cannot find this program's binary")?;
        crate::output::write_file_with(&layout.binary, |tmp| {
            fs::copy(&me, tmp).map(|_| ()).with_context(|| {
                format!(
                    "cannot copy {} to {}",
                    terminal_path(&me),
                    terminal_path(&layout.binary)
                )
            })
        })?;
    }
    crate::output::write_file(&shards_file, shards.as_bytes())?;
    crate::output::write_file(&merge_file, merge.as_bytes())?;
    let array = job_id(
        &client(
            "sbatch",
            &["--parsable", &shards_file.display().to_string()],
        )
        .context("sbatch refused the job array")?,
    )?;
    let merge_job = job_id(
        &client(
            "sbatch",
            &[
                "--parsable",
                &format!("--dependency=afterok:{array}"),
                "--kill-on-invalid-dep=yes",
                &merge_file.display().to_string(),
            ],
        )
        .with_context(|| {
            format!("sbatch refused the merge job (the array {array} is queued: scancel {array})")
        })?,
    )?;
    say!("{summary}");
    say!(
        "submitted job array {array} (tasks 0-{}, one shard each) and merge job {merge_job} \
         (runs when every task succeeded)",
        args.shards - 1
    );
    say!("follow:  squeue -j {array},{merge_job}    sacct -j {array},{merge_job}");
    say!("logs:    {}/", terminal_path(&layout.logs));
    say!(
        "results: {}/ once job {merge_job} completes",
        terminal_path(&layout.out)
    );
    // Commands to paste: values quoted, positional ones after `--`.
    let quoted: Vec<String> = ids.iter().map(|i| quote(i)).collect();
    say!(
        "if a task fails, the merge job is cancelled: re-run its shard (I), then merge:\n  \
         cargo xtask reproduce --shard I/{} --cells {} -- {}\n  \
         cargo xtask{} merge --out {} -- {}",
        args.shards,
        quote_path(&layout.cells),
        quoted.join(" "),
        if settings.replace { " --replace" } else { "" },
        quote_path(&layout.out),
        quote_path(&layout.cells)
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting() {
        assert_eq!(quote("adaptive/fig4"), "adaptive/fig4");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("$HOME"), "'$HOME'");
        assert_eq!(sbatch_path("/a/%A/b").unwrap(), "/a/%%A/b");
        assert_eq!(sbatch_path("/a b/\"c\"").unwrap(), r#""/a b/\"c\"""#);
        assert_eq!(
            sbatch_log(Path::new("/x y/%j"), "m-%j.log").unwrap(),
            "\"/x y/%%j/m-%j.log\""
        );
        // Slurm turns a pattern with a backslash off and drops the
        // backslashes: the logs would go elsewhere.
        let e = sbatch_log(Path::new("/a\\b/cells/slurm/logs"), "m-%j.log").unwrap_err();
        assert!(e.to_string().contains("backslash"), "{e}");
    }

    #[test]
    fn job_ids() {
        assert_eq!(job_id("123\n").unwrap(), "123");
        assert_eq!(job_id("77;cluster\n").unwrap(), "77");
        assert!(job_id("Submitted batch job 5").is_err());
        assert!(job_id("").is_err());
    }
}
