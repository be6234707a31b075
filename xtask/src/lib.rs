//! The workspace's command line (`cargo xtask ...`) and all file-system I/O
//! of experiments: finding and reading traces, reading configurations,
//! writing results atomically. The logic lives in the `experiments` crate.
//!
//! Commands: `list`, `reproduce <id>...`, `run <config.toml>...`,
//! `verify [id]...`, `simulate --trace T --policy P`, `bench`; the command
//! line is declared in [`cli`] (`cargo xtask --help`, `cargo xtask <command>
//! --help`). Exit status: 0 success, 1 error (also a panic, and any failed
//! experiment of a batch, once all have run), 2 usage error, 3 a claim did
//! not pass under `--strict-claims` (see [`cli::EXIT_CLAIM_FAILED`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches};

pub mod bench;
pub mod catalog;
pub mod cli;
pub mod commands;
pub mod explore;
pub mod files;
pub mod identity;
pub mod output;
pub mod progress;
pub mod sensitivity;
pub mod shards;
pub mod simulate;
pub mod slurm;
pub mod traces;

use cli::{Cli, Command};
use progress::Verbosity;
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
    /// How much to print on stderr (`-q`, `-v`).
    pub verbosity: Verbosity,
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
            verbosity: Verbosity::Normal,
            root,
        }
    }
}

/// Runs the command line `args` (without the program name).
pub fn main_with(args: &[String], mut settings: Settings) -> ExitCode {
    let command = Cli::command().version(identity::VERSION);
    let argv = std::iter::once("xtask".to_string()).chain(args.iter().cloned());
    let parsed = command
        .try_get_matches_from(argv)
        .and_then(|m| Cli::from_arg_matches(&m))
        .and_then(Cli::validated);
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version print to stdout and exit 0; usage errors exit 2.
            // clap quotes the argument at fault: plain text, with the
            // control characters of the user's value escaped, never raw.
            let shown = experiments::encode::terminal(&e.render().to_string());
            if e.use_stderr() {
                eprint!("{shown}");
            } else {
                print!("{shown}");
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(cli::EXIT_USAGE));
        }
    };
    // A panic is an error like any other (exit status 1), never a crash.
    match commands::isolated(|| dispatch(cli, &mut settings)) {
        Ok(code) => code,
        Err(e) => {
            // Errors quote configurations and files: no raw control characters.
            eprintln!(
                "error: {}",
                experiments::encode::terminal(&format!("{e:#}"))
            );
            ExitCode::from(cli::EXIT_ERROR)
        }
    }
}

/// `reproduce` and `run`: the experiments whole, or one shard of each.
fn run_jobs(
    settings: &Settings,
    jobs: &[(std::path::PathBuf, Option<String>)],
    run: &cli::RunFlags,
    strict: bool,
) -> Result<ExitCode> {
    match (run.shard, &run.cells) {
        (Some(shard), Some(cells)) => shards::run_shards(settings, jobs, shard, cells),
        _ => commands::run_all(settings, jobs, strict),
    }
}

fn dispatch(cli: Cli, settings: &mut Settings) -> Result<ExitCode> {
    settings.verbosity = Verbosity::from_counts(cli.quiet, cli.verbose);
    if cli.no_stand_in {
        settings.traces.no_stand_in = true;
    }
    let run_flags = |settings: &mut Settings, run: &cli::RunFlags| {
        if let Some(out) = &run.out {
            settings.results.clone_from(out);
        }
        if let Some(n) = run.threads {
            settings.threads = n as usize;
        }
        run.strict_claims
    };
    match cli.command {
        Command::List => commands::list(settings),
        Command::Reproduce {
            ids,
            sensitivity,
            run,
        } => {
            let strict = run_flags(settings, &run);
            let jobs = commands::select(settings, &ids, sensitivity)?;
            run_jobs(settings, &jobs, &run, strict)
        }
        Command::Run { configs, run } => {
            let strict = run_flags(settings, &run);
            let jobs: Vec<_> = configs.into_iter().map(|f| (f, None)).collect();
            run_jobs(settings, &jobs, &run, strict)
        }
        Command::Merge {
            cells,
            out,
            strict_claims,
        } => {
            if let Some(out) = out {
                settings.results = out;
            }
            shards::merge(settings, &cells, strict_claims)
        }
        Command::Slurm(args) => slurm::slurm(settings, &args),
        Command::Verify {
            ids,
            out,
            doc,
            strict_claims,
        } => {
            if let Some(out) = out {
                settings.results = out;
            }
            commands::verify(settings, &ids, doc.as_deref(), strict_claims)
        }
        Command::Simulate(args) => simulate::simulate(settings, &args.options()),
        Command::Bench { runs, ten_million } => bench::bench(settings, runs as usize, ten_million),
        Command::Explore {
            seed,
            scale,
            cargo_args,
        } => explore::explore(settings, seed, scale, &cargo_args),
        Command::BenchChild { args } => bench::child(settings, &args),
    }
}
