//! The workspace's command line (`cargo xtask ...`) and all file-system I/O
//! of experiments: finding and reading traces, reading configurations,
//! writing results atomically. The logic lives in the `experiments` crate.
//!
//! Commands: `list`, `reproduce <id>...`, `run <config.toml>`, `verify [id]...`,
//! `simulate --trace T --policy P`, `bench`. See `cargo xtask help`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};

pub mod bench;
pub mod catalog;
pub mod commands;
pub mod output;
pub mod simulate;
pub mod traces;

use traces::TraceSettings;

/// Everything a command needs from the environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The repository root.
    pub root: PathBuf,
    /// Where results go (`--out DIR`, default `<root>/results`).
    pub results: PathBuf,
    /// Where traces are found.
    pub traces: TraceSettings,
    /// Worker threads.
    pub threads: usize,
}

impl Settings {
    /// Settings for the repository this binary was built from, from the environment.
    pub fn from_env() -> Settings {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Settings {
            results: root.join("results"),
            traces: TraceSettings::from_env(&root),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            root,
        }
    }
}

const HELP: &str = "\
usage: cargo xtask <command> [options]

commands:
  list                          every experiment with its title and paper
  reproduce <id>... [--out DIR] [--strict-claims] [--threads N]
                                run experiments: <paper>/<figure>, a paper name,
                                a bare figure name (every paper's), or `all`
  run <config.toml> [--out DIR] [--strict-claims] [--threads N]
                                run your own configuration
  verify [id]... [--out DIR] [--doc FILE] [--strict-claims]
                                re-check claims from existing results and
                                regenerate docs/REPRODUCTION.md
  simulate --trace <name|path> --policy <fcfs|easy|easy-kN|easy-kinf|conservative>
           [--estimate requested|actual] [--schedule-out FILE.swf] [--lenient] [--seed N]
                                one simulation with its metrics
  bench [--runs N]              release-build speed and memory benchmarks

environment: TRACES_DIR (traces, searched first), TRACES_CACHE (download cache,
default traces/cache), TRACES_MIRROR (download base URL, default the Parallel
Workloads Archive).
exit status: 0 success (a FAILed claim is a result), 1 error,
2 a claim FAILed under --strict-claims.";

/// Parsed options: positional arguments and `--flag [value]` pairs.
#[derive(Debug, Default)]
pub struct Args {
    /// Positional arguments, in order.
    pub positional: Vec<String>,
    values: Vec<(String, String)>,
    switches: Vec<String>,
}

impl Args {
    /// Parses `args`; `valued` flags take a value, `switches` do not.
    pub fn parse(args: &[String], valued: &[&str], switches: &[&str]) -> Result<Args> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if valued.contains(&a.as_str()) {
                let Some(v) = it.next() else {
                    bail!("{a} needs a value")
                };
                out.values.push((a.clone(), v.clone()));
            } else if switches.contains(&a.as_str()) {
                out.switches.push(a.clone());
            } else if a.starts_with("--") {
                let mut known: Vec<&str> = valued.to_vec();
                known.extend(switches);
                bail!(
                    "unknown option {a}; this command takes: {}",
                    if known.is_empty() {
                        "no options".into()
                    } else {
                        known.join(", ")
                    }
                );
            } else {
                out.positional.push(a.clone());
            }
        }
        Ok(out)
    }

    /// The value of a valued flag (the last one given).
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }

    /// Whether a switch was given.
    pub fn has(&self, flag: &str) -> bool {
        self.switches.iter().any(|s| s == flag)
    }
}

/// Runs the command line `args` (without the program name).
pub fn main_with(args: &[String], mut settings: Settings) -> ExitCode {
    match dispatch(args, &mut settings) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn dispatch(args: &[String], settings: &mut Settings) -> Result<ExitCode> {
    let Some((command, rest)) = args.split_first() else {
        println!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    };
    let common = |settings: &mut Settings, a: &Args| -> Result<()> {
        if let Some(out) = a.value("--out") {
            settings.results = PathBuf::from(out);
        }
        if let Some(n) = a.value("--threads") {
            settings.threads = n.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                anyhow::anyhow!("--threads is '{n}', expected a positive integer")
            })?;
        }
        Ok(())
    };
    match command.as_str() {
        "list" => {
            Args::parse(rest, &[], &[])?;
            commands::list(settings)
        }
        "reproduce" | "run" => {
            let a = Args::parse(rest, &["--out", "--threads"], &["--strict-claims"])?;
            common(settings, &a)?;
            if a.positional.is_empty() {
                bail!(
                    "{command} needs at least one {}",
                    if command == "run" {
                        "configuration file"
                    } else {
                        "experiment id (or `all`)"
                    }
                );
            }
            if command == "run" {
                commands::run_configs(settings, &a.positional, a.has("--strict-claims"))
            } else {
                commands::reproduce(settings, &a.positional, a.has("--strict-claims"))
            }
        }
        "verify" => {
            let a = Args::parse(rest, &["--out", "--doc"], &["--strict-claims"])?;
            common(settings, &a)?;
            let doc = a.value("--doc").map_or_else(
                || settings.root.join("docs").join("REPRODUCTION.md"),
                PathBuf::from,
            );
            commands::verify(settings, &a.positional, &doc, a.has("--strict-claims"))
        }
        "simulate" => {
            let a = Args::parse(
                rest,
                &[
                    "--trace",
                    "--policy",
                    "--estimate",
                    "--schedule-out",
                    "--seed",
                ],
                &["--lenient"],
            )?;
            let opts = simulate::SimulateOptions {
                trace: a
                    .value("--trace")
                    .ok_or_else(|| anyhow::anyhow!("simulate needs --trace <name or path>"))?
                    .to_string(),
                policy: a
                    .value("--policy")
                    .ok_or_else(|| anyhow::anyhow!("simulate needs --policy <name>"))?
                    .parse()
                    .map_err(|e: String| anyhow::anyhow!(e))?,
                estimate: a.value("--estimate").unwrap_or("requested").to_string(),
                lenient: a.has("--lenient"),
                seed: a
                    .value("--seed")
                    .map_or(Ok(1), str::parse)
                    .map_err(|_| anyhow::anyhow!("--seed expects an unsigned integer"))?,
                schedule_out: a.value("--schedule-out").map(PathBuf::from),
                jobs_csv: None,
                gantt: None,
                timeline: None,
                window: None,
            };
            simulate::simulate(settings, &opts)
        }
        "bench" => {
            let a = Args::parse(rest, &["--runs"], &[])?;
            bench::bench(settings, &a)
        }
        "bench-child" => bench::child(rest),
        "help" | "--help" | "-h" => {
            println!("{HELP}");
            Ok(ExitCode::SUCCESS)
        }
        other => bail!("unknown command '{other}'\n\n{HELP}"),
    }
}
