//! The experiments of the repository: `configs/<paper>/<figure>.toml`, and
//! how command-line ids select them.
//!
//! The papers are the folders of `configs/`; nothing lists them by hand.
//! `configs/examples/` and folders named `sensitivity*` hold experiments
//! that are not a paper's figures: `all`, a bare figure name and the
//! figure-4 job skip them, a full id or a paper-style folder name selects them.
//! A paper's sensitivity runs, `configs/<paper>/sensitivity/<name>.toml`
//! (id `<paper>/sensitivity/<name>`), are selected by `--sensitivity` with
//! the paper's name (or `all`), or by their full id.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use experiments::encode::{terminal_name, terminal_path};

/// Whether the folder `configs/<name>/` holds a paper's figures.
pub fn is_paper(name: &str) -> bool {
    name != "examples" && !name.starts_with("sensitivity")
}

/// One configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `<paper>/<figure>`.
    pub id: String,
    /// The file.
    pub path: PathBuf,
}

impl Entry {
    fn paper(&self) -> &str {
        self.id.split('/').next().unwrap_or("")
    }

    /// Whether this is a paper's figure (not an example or a sensitivity run).
    pub fn is_figure(&self) -> bool {
        is_paper(self.paper()) && !self.is_sensitivity()
    }

    /// Whether this is a paper's sensitivity run (`<paper>/sensitivity/<name>`).
    pub fn is_sensitivity(&self) -> bool {
        self.id.split('/').nth(1) == Some("sensitivity") && self.id.split('/').count() == 3
    }

    /// The paper (the first part of the id).
    pub fn paper_name(&self) -> &str {
        self.paper()
    }

    fn figure(&self) -> &str {
        self.id.split('/').nth(1).unwrap_or("")
    }
}

/// Every `configs/<paper>/<figure>.toml` and
/// `configs/<paper>/sensitivity/<name>.toml`, sorted by id.
pub fn scan(configs: &Path) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    if !configs.is_dir() {
        return Ok(out);
    }
    let read = |dir: &Path| {
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", terminal_path(dir)))
    };
    let tomls = |dir: &Path, prefix: &str, out: &mut Vec<Entry>| -> Result<()> {
        for file in read(dir)? {
            let path = file
                .with_context(|| format!("cannot list {}", terminal_path(dir)))?
                .path();
            if path.extension().is_some_and(|e| e == "toml")
                && let Some(f) = path.file_stem()
            {
                out.push(Entry {
                    id: format!("{prefix}/{}", f.to_string_lossy()),
                    path,
                });
            }
        }
        Ok(())
    };
    for paper in read(configs)? {
        let paper = paper
            .with_context(|| format!("cannot list {}", terminal_path(configs)))?
            .path();
        let Some(name) = paper.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        if !paper.is_dir() {
            continue;
        }
        tomls(&paper, &name, &mut out)?;
        let sensitivity = paper.join("sensitivity");
        if is_paper(&name) && sensitivity.is_dir() {
            tomls(&sensitivity, &format!("{name}/sensitivity"), &mut out)?;
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// The entries `ids` select: `all`, a paper name, `<paper>/<figure>`, or a
/// bare figure name (that figure of every paper). With `sensitivity`, `all`
/// and a paper name select the sensitivity runs instead of the figures.
/// Order follows the catalog.
pub fn select<'a>(
    ids: &[String],
    catalog: &'a [Entry],
    sensitivity: bool,
) -> Result<Vec<&'a Entry>> {
    let mut chosen = vec![false; catalog.len()];
    for id in ids {
        let hit: Vec<usize> = catalog
            .iter()
            .enumerate()
            .filter(|(_, e)| match id.as_str() {
                "all" if sensitivity => e.is_sensitivity(),
                "all" => e.is_figure(),
                i if i.contains('/') => e.id == i,
                i if sensitivity => e.is_sensitivity() && e.paper() == i,
                i if catalog.iter().any(|c| c.paper() == i) => {
                    e.paper() == i && !e.is_sensitivity()
                }
                i => e.is_figure() && e.figure() == i,
            })
            .map(|(n, _)| n)
            .collect();
        if hit.is_empty() && sensitivity {
            let papers: Vec<&str> = catalog
                .iter()
                .filter(|e| e.is_sensitivity())
                .map(Entry::paper)
                .collect();
            bail!(
                "no sensitivity runs for '{}' (configs/<paper>/sensitivity/); papers with some: {}",
                terminal_name(id),
                if papers.is_empty() {
                    "none".to_string()
                } else {
                    let mut p = papers;
                    p.dedup();
                    p.join(", ")
                }
            );
        }
        if hit.is_empty() && id.ends_with(".toml") {
            bail!(
                "'{}' is a configuration file, not an experiment id: `cargo xtask run -- {}` \
                 runs it",
                terminal_name(id),
                crate::script::quote(id)
            );
        }
        if hit.is_empty() {
            let valid: Vec<&str> = catalog.iter().map(|e| e.id.as_str()).collect();
            let mut papers: Vec<&str> = catalog.iter().map(Entry::paper).collect();
            papers.dedup();
            bail!(
                "unknown experiment '{}'; valid ids: {} (or a paper: {}; a bare figure name; or all)",
                terminal_name(id),
                if valid.is_empty() {
                    "none (configs/ is empty)".to_string()
                } else {
                    valid.join(", ")
                },
                papers.join(", ")
            );
        }
        for n in hit {
            chosen[n] = true;
        }
    }
    Ok(catalog
        .iter()
        .zip(chosen)
        .filter(|(_, c)| *c)
        .map(|(e, _)| e)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(ids: &[&str], expected: Result<&[&str], &str>) {
        let catalog: Vec<Entry> = [
            "adaptive/fig3",
            "adaptive/fig4",
            "baseline/backfilling",
            "examples/fig3",
            "pricing/fig3",
            "pricing/sensitivity/window",
            "sensitivity-beta/fig3",
        ]
        .iter()
        .map(|id| Entry {
            id: id.to_string(),
            path: PathBuf::from(id),
        })
        .collect();
        let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
        let sensitivity = ids.iter().any(|i| i == "--sensitivity");
        let ids: Vec<String> = ids.into_iter().filter(|i| i != "--sensitivity").collect();
        match (select(&ids, &catalog, sensitivity), expected) {
            (Ok(got), Ok(want)) => {
                assert_eq!(got.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), want)
            }
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
            (got, want) => panic!("{ids:?}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn selection() {
        check(
            &["all"],
            Ok(&[
                "adaptive/fig3",
                "adaptive/fig4",
                "baseline/backfilling",
                "pricing/fig3",
            ]),
        );
        check(&["fig3"], Ok(&["adaptive/fig3", "pricing/fig3"]));
        check(&["adaptive"], Ok(&["adaptive/fig3", "adaptive/fig4"]));
        check(
            &["pricing/fig3", "baseline/backfilling"],
            Ok(&["baseline/backfilling", "pricing/fig3"]),
        );
        check(
            &["fig3", "adaptive/fig3"],
            Ok(&["adaptive/fig3", "pricing/fig3"]),
        );
        check(&["examples"], Ok(&["examples/fig3"]));
        check(&["sensitivity-beta/fig3"], Ok(&["sensitivity-beta/fig3"]));
        check(&["utility"], Err("unknown experiment 'utility'"));
        check(
            &["fig9"],
            Err("unknown experiment 'fig9'; valid ids: adaptive/fig3, adaptive/fig4"),
        );
        check(&["baseline/fig1"], Err("unknown experiment"));
        // A file where an id belongs: the command that takes it.
        check(
            &["my study.toml"],
            Err(
                "'my study.toml' is a configuration file, not an experiment id: `cargo xtask run -- 'my study.toml'` runs it",
            ),
        );
        check(&["pricing"], Ok(&["pricing/fig3"]));
        check(
            &["pricing", "--sensitivity"],
            Ok(&["pricing/sensitivity/window"]),
        );
        check(
            &["all", "--sensitivity"],
            Ok(&["pricing/sensitivity/window"]),
        );
        check(
            &["pricing/sensitivity/window"],
            Ok(&["pricing/sensitivity/window"]),
        );
        check(
            &["adaptive", "--sensitivity"],
            Err("papers with some: pricing"),
        );
    }
}
