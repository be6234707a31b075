//! The cells directory of sharded runs (`reproduce|run ... --shard I/N
//! --cells DIR`, read by `merge DIR`): its layout, the identity of each
//! experiment's cells, and reading the shard files back.
//!
//! A cells directory holds, per experiment, `<id>/experiment.toml` (what
//! the cells belong to: configuration, its hash, the code's revision, the
//! cell count; identical for every shard) and one
//! `<id>/shard-I-of-N.toml` per finished shard, written atomically when the
//! shard's last cell is done (format: `experiments::cells`). A killed shard
//! leaves no file, so merge lists its cells as missing. docs/SCALE-OUT.md
//! is the user's guide.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use experiments::encode::{terminal_name, terminal_path};
use experiments::{Experiment, Shard, ShardCells};
use serde::{Deserialize, Serialize};

use crate::{files, identity, output};

/// The file naming what an experiment's cells belong to.
pub const EXPERIMENT_FILE: &str = "experiment.toml";

/// The copy of the resolved configuration the cells were measured with:
/// what `merge` reads (never a path named inside the cells directory),
/// checked against [`Identity::config_sha256`].
pub const CONFIG_FILE: &str = "config.toml";

/// The `format` value of [`EXPERIMENT_FILE`].
const FORMAT: &str = "usched-cells-experiment";

/// What a directory of cells belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    format: String,
    version: u32,
    /// The experiment's id.
    pub experiment: String,
    /// The configuration as `run.toml` names it.
    pub config_file: String,
    /// Where to read it: its real path (symbolic links, `..` and `.`
    /// resolved), so one file given two ways is one configuration.
    pub config_path: PathBuf,
    /// SHA-256 of the resolved configuration.
    pub config_sha256: String,
    /// The code's revision.
    pub git_revision: String,
    /// Cells in the experiment.
    pub cells: usize,
}

impl Identity {
    /// The identity of `experiment` read from `path` (shown as `name`).
    pub fn of(experiment: &Experiment, path: &Path, name: &str) -> Identity {
        Identity {
            format: FORMAT.to_string(),
            version: experiments::CELLS_VERSION,
            experiment: experiment.id().to_string(),
            config_file: name.to_string(),
            config_path: std::fs::canonicalize(path)
                .or_else(|_| std::path::absolute(path))
                .unwrap_or_else(|_| path.to_path_buf()),
            config_sha256: experiment.config_sha256(),
            git_revision: identity::REVISION.to_string(),
            cells: experiments::cell_labels(experiment).len(),
        }
    }

    /// Reads an [`EXPERIMENT_FILE`], refusing another format or version.
    pub fn read(path: &Path) -> Result<Identity> {
        let text = files::read_to_string(path, files::SMALL_TOML)?;
        let id: Identity = toml::from_str(&text).map_err(|e| {
            anyhow!(
                "{}: not a cells experiment file: {}",
                terminal_path(path),
                e.message().trim()
            )
        })?;
        if id.format != FORMAT || id.version != experiments::CELLS_VERSION {
            bail!(
                "{}: cells format '{}' version {}; this build reads '{FORMAT}' version {}: \
                 re-run the shards with this build into a fresh --cells directory",
                terminal_path(path),
                id.format,
                id.version,
                experiments::CELLS_VERSION
            );
        }
        if !experiments::is_sha256_hex(&id.config_sha256) {
            bail!(
                "{}: config_sha256 is '{}', expected 64 lowercase hexadecimal digits (the \
                 sha256 of the configuration); re-run the shards into a fresh --cells directory",
                terminal_path(path),
                id.config_sha256.escape_debug()
            );
        }
        Ok(id)
    }

    /// What differs between `self` (wanted) and `other` (found), if anything.
    pub fn difference(&self, other: &Identity) -> Option<String> {
        if self.config_sha256 != other.config_sha256 {
            // The same file edited, or another file of the same id.
            let changed = if self.config_file == other.config_file {
                format!("{} was changed", terminal_name(&self.config_file))
            } else {
                format!(
                    "they are of {}, this run of {}",
                    terminal_name(&other.config_file),
                    terminal_name(&self.config_file)
                )
            };
            Some(format!(
                "another configuration (sha256 {} there, {} now; {changed})",
                short(&other.config_sha256),
                short(&self.config_sha256),
            ))
        } else if self.git_revision != other.git_revision {
            Some(format!(
                "another code revision ({} there, {} now)",
                short(&other.git_revision),
                short(&self.git_revision)
            ))
        } else if self.cells != other.cells {
            Some(format!(
                "another cell count (`cells` is {} there, this configuration has {})",
                other.cells, self.cells
            ))
        } else if self.config_path != other.config_path {
            Some(format!(
                "another run of the same configuration ({} there, {} now)",
                terminal_path(&other.config_path),
                terminal_path(&self.config_path)
            ))
        } else if self != other {
            Some(format!(
                "another run of the same configuration (`experiment` '{}' and `config_file` \
                 '{}' there, '{}' and '{}' now)",
                terminal_name(&other.experiment),
                terminal_name(&other.config_file),
                terminal_name(&self.experiment),
                terminal_name(&self.config_file)
            ))
        } else {
            None
        }
    }
}

/// The first 12 characters of a hash, as messages show it.
pub(crate) fn short(hash: &str) -> &str {
    hash.char_indices()
        .nth(12)
        .map_or(hash, |(i, _)| &hash[..i])
}

/// Writes (or checks) `<cells>/<id>/experiment.toml` and the copy of the
/// resolved configuration `<cells>/<id>/config.toml` (`experiment`'s, whose
/// identity is `identity`); returns the experiment's cells directory. A
/// directory holding cells of another configuration or revision is an
/// error: those cells cannot be merged with these.
///
/// Before any work, nothing there is replaced that the tool did not write:
/// the configuration run (`config`) is neither file, and a `config.toml`
/// without an `experiment.toml` beside it (a shard's interrupted write
/// leaves one) must be this copy already.
pub fn claim_dir(
    cells: &Path,
    identity: &Identity,
    experiment: &Experiment,
    config: &Path,
) -> Result<PathBuf> {
    let dir = cells.join(&identity.experiment);
    let file = dir.join(EXPERIMENT_FILE);
    let copy = dir.join(CONFIG_FILE);
    // Cells go into real directories below --cells, the id's own included.
    output::check_no_links_below(cells, &file)?;
    for target in [&copy, &file] {
        output::check_file_target(target, "--cells")?;
        output::refuse_input_file(target, "--cells", &[config])?;
    }
    if fs::symlink_metadata(&file).is_err()
        && fs::symlink_metadata(&copy).is_ok()
        && fs::read(&copy).ok().as_deref() != Some(experiment.resolved_toml().as_bytes())
    {
        return Err(not_ours(&copy));
    }
    if fs::symlink_metadata(&file).is_ok() {
        let found = Identity::read(&file)?;
        if let Some(why) = identity.difference(&found) {
            bail!(
                "{} holds cells of {why}; they cannot be merged with this run's. Use a fresh \
                 --cells directory, or delete {} to start over",
                terminal_path(&dir),
                terminal_path(&dir)
            );
        }
        if fs::symlink_metadata(&copy).is_err() {
            output::write_file(&copy, experiment.resolved_toml().as_bytes())?;
        }
        return Ok(dir);
    }
    // The copy first: an experiment.toml is never without its configuration.
    output::write_file(&copy, experiment.resolved_toml().as_bytes())?;
    let text = format!(
        "# What the cells in this directory belong to (docs/SCALE-OUT.md).\n{}",
        experiments::encode::toml_document(
            &toml::to_string(identity).context("cannot serialise the cells identity")?
        )
    );
    // Shards on several hosts may write this at once, with equal contents:
    // each stages its own copy and renames it into place (crate::output).
    output::write_file(&file, text.as_bytes())?;
    Ok(dir)
}

/// The configuration the cells in `dir` (described by `identity`) were
/// measured with: the copy the shards wrote there ([`CONFIG_FILE`]), its
/// sha256 checked against the one `experiment.toml` records before it is
/// parsed. Errors name that file; no other file is read.
pub fn read_config_copy(
    registry: &experiments::Registry,
    dir: &Path,
    identity: &Identity,
) -> Result<Experiment> {
    let copy = dir.join(CONFIG_FILE);
    if fs::symlink_metadata(&copy).is_err() {
        bail!(
            "{} is missing: the shards write the configuration they ran with there; re-run \
             them with this build into a fresh --cells directory",
            terminal_path(&copy)
        );
    }
    let text = files::read_to_string(&copy, files::CONFIG)?;
    let sha = experiments::sha256_hex(text.as_bytes());
    if sha != identity.config_sha256 {
        bail!(
            "{}: sha256 {} but {} records {}: the copy of the configuration was changed; \
             re-run the shards into a fresh --cells directory",
            terminal_path(&copy),
            short(&sha),
            terminal_path(&dir.join(EXPERIMENT_FILE)),
            short(&identity.config_sha256)
        );
    }
    let shown = copy.display().to_string();
    Ok(registry.parse_with(&text, &shown, &crate::config::limits()?)?)
}

/// The file of shard `shard` in an experiment's cells directory.
pub fn shard_file(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("shard-{}-of-{}.toml", shard.index, shard.count))
}

/// The error for a file in the cells directory the tool did not write.
fn not_ours(path: &Path) -> anyhow::Error {
    anyhow!(
        "--cells: {} exists and was not written by this tool; choose a fresh --cells \
         directory, or move the file away",
        terminal_path(path)
    )
}

/// Refuses, before any work, a shard file `shard` would write in the
/// experiment's cells directory `dir` where something else than a cells
/// file is (a regular file not starting as one, a link, a directory).
pub fn check_shard_target(dir: &Path, shard: Shard, config: &Path) -> Result<()> {
    let path = shard_file(dir, shard);
    output::check_file_target(&path, "--cells")?;
    output::refuse_input_file(&path, "--cells", &[config])?;
    // The format line is among the first; the file is never decompressed.
    let cells_file = |f: fs::File| {
        let mut head = Vec::new();
        f.take(4096).read_to_end(&mut head).is_ok()
            && String::from_utf8_lossy(&head)
                .lines()
                .any(|l| l.trim() == "format = \"usched-cells\"")
    };
    if fs::symlink_metadata(&path).is_ok() && !fs::File::open(&path).is_ok_and(cells_file) {
        return Err(not_ours(&path));
    }
    Ok(())
}

/// Every `experiment.toml` under `cells` (ids have a folder per `/`).
pub fn identities(cells: &Path) -> Result<Vec<(PathBuf, Identity)>> {
    fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<()> {
        let file = dir.join(EXPERIMENT_FILE);
        if fs::symlink_metadata(&file).is_ok() {
            out.push(file);
        }
        if depth == 0 {
            return Ok(());
        }
        let entries =
            fs::read_dir(dir).with_context(|| format!("cannot list {}", terminal_path(dir)))?;
        for entry in entries {
            let path = entry
                .with_context(|| format!("cannot list {}", terminal_path(dir)))?
                .path();
            if path.is_dir() {
                walk(&path, depth - 1, out)?;
            }
        }
        Ok(())
    }
    if !cells.is_dir() {
        bail!(
            "{} is not a directory of cells (run shards with --shard I/N --cells {} first)",
            terminal_path(cells),
            crate::script::quote_path(cells)
        );
    }
    let mut files = Vec::new();
    walk(cells, 4, &mut files)?;
    let mut out = files
        .into_iter()
        .map(|f| Identity::read(&f).map(|i| (f, i)))
        .collect::<Result<Vec<_>>>()?;
    out.sort_by(|a, b| a.1.experiment.cmp(&b.1.experiment).then(a.0.cmp(&b.0)));
    // One experiment, one directory: two would be merged into the same
    // results, the last one read winning.
    if let Some(pair) = out
        .windows(2)
        .find(|w| w[0].1.experiment == w[1].1.experiment)
    {
        bail!(
            "{} and {} both hold cells of {}; keep one directory per experiment (move or delete \
             the other), then merge again",
            terminal_path(&pair[0].0),
            terminal_path(&pair[1].0),
            pair[0].1.experiment
        );
    }
    Ok(out)
}

/// The shard files in an experiment's cells directory, parsed.
pub fn read_shards(dir: &Path) -> Result<Vec<ShardCells>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", terminal_path(dir)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".toml"))
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = files::read_to_string(f, files::CELLS)?;
            let part = ShardCells::parse(&text, &f.display().to_string())?;
            // A file holds the shard its name says: a copy under another
            // name would count its cells twice.
            if *f != shard_file(dir, part.shard) {
                bail!(
                    "{}: holds shard {} (it would be {}); rename or delete it, then merge again",
                    terminal_path(f),
                    part.shard,
                    terminal_path(&shard_file(dir, part.shard))
                );
            }
            Ok(part)
        })
        .collect()
}
