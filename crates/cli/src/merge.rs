//! `cargo xtask merge DIR`: the results of sharded runs, assembled from
//! their cells directory ([`crate::cells`]), byte-identical to one run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use experiments::encode::terminal_path;
use experiments::{MergeError, RunOptions, Shard, ShardCells};

use crate::batch::run_batch;
use crate::cells::{EXPERIMENT_FILE, Identity, identities, read_config_copy, read_shards, short};
use crate::config::read_config;
use crate::experiment::{provenance, resolve_traces};
use crate::output;
use crate::results::write_results;
use crate::script::{quote, quote_path};
use crate::settings::Settings;

/// How to run the shards that own `missing` cells again.
fn missing_report(
    settings: &Settings,
    identity: &Identity,
    cells_dir: &Path,
    parts: &[ShardCells],
    missing: &[(usize, String)],
    total: usize,
) -> String {
    let counts: BTreeSet<u32> = parts.iter().map(|p| p.shard.count).collect();
    let count = (counts.len() == 1).then(|| *counts.first().unwrap_or(&1));
    let mut out = format!(
        "{} of {total} cells were not measured{}:",
        missing.len(),
        if parts.is_empty() {
            " (no shard of this experiment finished)"
        } else {
            ""
        }
    );
    let mut shards = BTreeSet::new();
    for (cell, label) in missing {
        match count {
            Some(n) => {
                let s = Shard::of(*cell, n);
                shards.insert(s);
                out += &format!("\n  cell {cell} (shard {s}): {label}");
            }
            None => out += &format!("\n  cell {cell}: {label}"),
        }
    }
    let in_catalog = settings
        .catalog()
        .map(|entries| entries.iter().any(|e| e.id == identity.experiment))
        .unwrap_or(false);
    // Commands to paste: every value quoted for the shell (the id and the
    // configuration's path come from the cells directory, which anyone
    // may have written), positional values after `--`.
    let (command, target) = if in_catalog {
        ("reproduce", quote(&identity.experiment))
    } else {
        ("run", quote_path(&identity.config_path))
    };
    let cells = quote_path(cells_dir);
    let line =
        |shard: &str| format!("cargo xtask {command} --shard {shard} --cells {cells} -- {target}");
    if shards.is_empty() {
        out += &format!("\nrun every shard, then merge again: {}", line("I/N"));
    } else {
        out += "\nre-run the missing shard(s), then merge again:";
        for s in shards {
            out += &format!("\n  {}", line(&s.to_string()));
        }
    }
    out
}

/// `cargo xtask merge DIR`: assembles the results of every experiment in
/// the cells directory `cells` into the results directory.
pub fn merge(settings: &Settings, cells: &Path, strict: bool) -> Result<ExitCode> {
    output::refuse_nested(&settings.results, "--out", cells, "the cells directory")?;
    output::check_out_dir(&settings.results, "--out", &settings.root)?;
    let found = identities(cells)?;
    if found.is_empty() {
        bail!(
            "no sharded experiments in {} (each has <id>/{EXPERIMENT_FILE}, written by \
             `reproduce --shard I/N --cells {}`)",
            terminal_path(cells),
            quote_path(cells)
        );
    }
    let jobs: Vec<(PathBuf, Option<String>)> = found
        .iter()
        .map(|(_, i)| (i.config_path.clone(), Some(i.experiment.clone())))
        .collect();
    // An id of configs/ names its file there: results written under it are
    // of that configuration (verify checks them against it).
    let catalog = settings.catalog().unwrap_or_default();
    run_batch(settings, &jobs, strict, |report, index, _, _| {
        let start = Instant::now();
        let (file, identity) = &found[index];
        let dir = file.parent().unwrap_or(cells);
        // The configuration the shards ran with, from the cells directory
        // (checked against its recorded sha256), never from a path named
        // in it.
        let experiment = read_config_copy(&settings.registry, dir, identity)
            .with_context(|| format!("{}: cannot read its configuration", identity.experiment))?;
        report.start(index, experiment.id(), experiment.title(), 1);
        let now = Identity::of(&experiment, &identity.config_path, &identity.config_file);
        if let Some(why) = now.difference(identity) {
            bail!(
                "{}: the cells in {} are of {why}; re-run the shards with this configuration and \
                 code, or merge with the ones they ran with",
                identity.experiment,
                terminal_path(dir)
            );
        }
        if let Some(entry) = catalog.iter().find(|e| e.id == identity.experiment) {
            let committed = read_config(
                &settings.registry,
                &entry.path,
                &settings.shown(&entry.path),
            )?;
            let (there, here) = (&identity.config_sha256, committed.config_sha256());
            if *there != here {
                bail!(
                    "{}: the cells in {} were measured with another configuration than {} \
                     (sha256 {} there, {} now); results under an id of configs/ are of its \
                     file: re-run the shards with it, or give the configuration the shards ran \
                     with another id and `run` it",
                    identity.experiment,
                    terminal_path(dir),
                    terminal_path(&entry.path),
                    short(there),
                    short(&here)
                );
            }
        }
        let parts = read_shards(dir)?;
        let provenance = provenance(&identity.config_file);
        // The traces, found as the shards found them (relative to the
        // configuration's place), to check the shards' account of the
        // workloads.
        let traces = resolve_traces(
            settings,
            Some(report),
            &experiment,
            &identity.config_path,
            &mut Vec::new(),
        )?;
        let options = RunOptions {
            threads: settings.threads,
            ..RunOptions::default()
        };
        match experiments::merge(&experiment, &traces, &options, &provenance, &parts) {
            Ok(results) => {
                let results = if settings.no_claims {
                    results.without_claims()
                } else {
                    results
                };
                let out = settings.results.join(experiment.id());
                let inputs = [identity.config_path.as_path(), dir];
                output::refuse_input_dir(&out, &inputs)
                    .with_context(|| identity.experiment.clone())?;
                write_results(settings, report, &experiment, &results, &provenance, start)
            }
            Err(MergeError::Missing {
                cells: missing,
                total,
            }) => Err(anyhow!(
                "{}: nothing written; {}",
                identity.experiment,
                missing_report(settings, identity, cells, &parts, &missing, total)
            )),
            Err(e) => Err(anyhow!("{}: {e}", identity.experiment)),
        }
    })
}
