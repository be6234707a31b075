//! Running the children: the binaries measured, one child process per run,
//! the other binary's runs alternating with this one's (`--against`).

use crate::exit::say_err;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, anyhow, bail};

use super::{Measure, medians};

/// A binary whose `bench-child` cases are measured.
#[derive(Debug, Clone)]
pub(super) struct Program {
    path: PathBuf,
    /// Passed as `--root` (and the child's directory); `None` for a
    /// baseline, which may predate `--root` and finds its root as it does.
    root: Option<PathBuf>,
}

impl Program {
    /// The binary this session built, for the repository at `root`.
    pub(super) fn current(path: PathBuf, root: &Path) -> Program {
        Program {
            path,
            root: Some(root.to_path_buf()),
        }
    }

    /// Another `xtask` binary (`--against`), run with no options but the
    /// case's: an older binary finds its repository where it was built, a
    /// newer one from the current directory up.
    pub(super) fn baseline(path: PathBuf) -> Program {
        Program { path, root: None }
    }

    /// The binary's path.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    fn command(&self, case: &[&str]) -> Command {
        let mut cmd = Command::new(&self.path);
        if let Some(root) = &self.root {
            cmd.arg("--root").arg(root).current_dir(root);
        }
        cmd.arg("bench-child").args(case);
        cmd
    }
}

/// The baseline's side of a case measured side by side.
#[derive(Debug, Clone)]
pub(super) enum Baseline {
    /// Its medians.
    Measured(Measure),
    /// It could not run the case: why (the child's message).
    Cannot(String),
    /// The case is no binary's (the same program for both).
    NotApplicable,
}

/// One case measured side by side: the baseline's side and this binary's
/// medians.
#[derive(Debug, Clone)]
pub(super) struct Pair {
    pub name: String,
    pub baseline: Baseline,
    pub current: Measure,
}

/// Measures every case of `cargo xtask bench` in fresh processes.
pub(super) struct Runner {
    current: Program,
    baseline: Option<Program>,
    runs: usize,
    /// With a baseline: every case measured, in order.
    pairs: Vec<Pair>,
}

impl Runner {
    pub(super) fn new(current: Program, baseline: Option<Program>, runs: usize) -> Runner {
        Runner {
            current,
            baseline,
            runs,
            pairs: Vec::new(),
        }
    }

    /// The runs per case.
    pub(super) fn runs(&self) -> usize {
        self.runs
    }

    /// The binary under test.
    pub(super) fn current(&self) -> &Program {
        &self.current
    }

    /// The cases measured side by side, in order (empty without a
    /// baseline).
    pub(super) fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The medians of `runs` runs of one `bench-child` case; with a
    /// baseline, its runs alternate with this binary's (baseline first),
    /// and a case the baseline cannot run is recorded as such.
    pub(super) fn measure(&mut self, name: &str, case: &[&str]) -> Result<Measure> {
        let mut mine = Vec::new();
        let mut theirs: std::result::Result<Vec<Measure>, String> = Ok(Vec::new());
        for i in 0..self.runs {
            if let (Some(b), Ok(all)) = (&self.baseline, &mut theirs) {
                match run_child(b.command(case), case) {
                    Ok(m) => {
                        say_err!(
                            "[{}/{}] {name} (baseline): {:.3} s",
                            i + 1,
                            self.runs,
                            m.seconds
                        );
                        all.push(m);
                    }
                    Err(e) => {
                        let why = format!("{e:#}");
                        say_err!("{name}: the baseline cannot run it: {why}");
                        theirs = Err(why);
                    }
                }
            }
            let m = run_child(self.current.command(case), case)?;
            say_err!("[{}/{}] {name}: {:.3} s", i + 1, self.runs, m.seconds);
            mine.push(m);
        }
        let current = medians(&mine);
        if self.baseline.is_some() {
            self.pairs.push(Pair {
                name: name.to_string(),
                baseline: match theirs {
                    Ok(all) => Baseline::Measured(medians(&all)),
                    Err(why) => Baseline::Cannot(why),
                },
                current,
            });
        }
        Ok(current)
    }

    /// The medians of `runs` runs of a child that is not a `bench-child`
    /// case (the same for any binary): a baseline's row says so.
    pub(super) fn measure_command(
        &mut self,
        name: &str,
        command: impl Fn() -> Command,
    ) -> Result<Measure> {
        let mut mine = Vec::new();
        for i in 0..self.runs {
            let m = run_child(command(), &[name])?;
            say_err!("[{}/{}] {name}: {:.3} s", i + 1, self.runs, m.seconds);
            mine.push(m);
        }
        let current = medians(&mine);
        if self.baseline.is_some() {
            self.pairs.push(Pair {
                name: name.to_string(),
                baseline: Baseline::NotApplicable,
                current,
            });
        }
        Ok(current)
    }

    /// FCFS, EASY and conservative on the trace at `path`, in rows `names`.
    pub(super) fn policies(
        &mut self,
        names: [&str; 3],
        label: &str,
        path: &str,
    ) -> Result<[Measure; 3]> {
        let mut out = [Measure::default(); 3];
        for ((m, policy), name) in out
            .iter_mut()
            .zip(["fcfs", "easy", "conservative"])
            .zip(names)
        {
            *m = self.measure(name, &["sim", policy, path, label])?;
        }
        Ok(out)
    }
}

/// Runs one child and reads its `seconds=... count=... peak_kb=...`.
fn run_child(mut cmd: Command, case: &[&str]) -> Result<Measure> {
    let out = cmd.output().with_context(|| {
        format!(
            "cannot start the benchmark child {}",
            experiments::encode::terminal_name(&cmd.get_program().to_string_lossy())
        )
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        // The child's own message first: a baseline's row shows its first line.
        let err = String::from_utf8_lossy(&out.stderr);
        let said = format!("{}\n{}", err.trim(), text.trim());
        bail!("{} (benchmark child {case:?} failed)", said.trim());
    }
    let field = |k: &str| -> Result<f64> {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(k).and_then(|v| v.strip_prefix('=')))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow!("benchmark child printed '{}', missing {k}", text.trim()))
    };
    Ok(Measure {
        seconds: field("seconds")?,
        count: field("count")?,
        peak_mb: field("peak_kb")? / 1024.0,
    })
}
