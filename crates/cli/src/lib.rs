//! The workspace's command line as a library: `cargo xtask ...` is
//! [`main`], and a program of your own gets the same commands with one
//! call. It also holds all file-system work of experiments, for every front
//! end to share: finding the repository ([`root`]), reading configurations
//! ([`config`]), finding, downloading and reading traces ([`traces`],
//! [`files`]), writing results atomically ([`output`]). The logic lives in
//! the `experiments` crate.
//!
//! Commands: `list`, `describe [kind]`, `reproduce <id>...`, `run <config.toml>...`,
//! `verify [id]...`, `merge DIR`, `slurm <id>...`, `simulate --trace T
//! --policy P`, `bench`, `explore`; the command line is declared in
//! [`cli`] (`cargo xtask --help`, `cargo xtask <command> --help`). Exit
//! status ([`exit`]): 0 success, 1 error (also a panic, a repository root
//! that cannot be found, and any failed experiment of a batch, once all
//! have run), 2 usage error, 3 a claim did not pass under
//! `--strict-claims`, 141 stdout or stderr closed by its reader (the
//! command stops quietly).
//!
//! # The repository root
//!
//! Found at run time, never at compile time ([`root`]): `--root DIR`, else
//! `USCHED_ROOT`, else the first directory holding `Cargo.toml` and
//! `configs/` walking up from the current directory. `--help` and
//! `--version` need none, nor does `simulate` given a trace file's path;
//! every other command fails (exit status 1) with an error naming every
//! place it looked.
//!
//! # Layers
//!
//! Modules are in layers, bottom to top; a module uses only modules of the
//! layers below its own, never one of its own layer or above:
//!
//! 1. base: `exit`, `files`, `identity`, `isolate`, `progress`, `script`, `catalog`, `options`, `root`,
//!    `schedules`
//! 2. storage: `output`, `config`
//! 3. traces: `traces`
//! 4. settings: `settings`
//! 5. experiment: `experiment`, `cells`, `sensitivity`
//! 6. results: `results`
//! 7. batch: `batch`
//! 8. declarations: `cli`
//! 9. commands: `list`, `describe`, `reproduce`, `merge`, `verify`, `slurm`, `simulate`, `bench`, `explore`
//! 10. entry: `lib.rs` (the crate root: [`main`], [`main_with`], [`main_with_root`])
//!
//! No module imports a command module; only the crate root dispatches to
//! them.
//!
//! # Your own front end
//!
//! ```no_run
//! use std::process::ExitCode;
//!
//! fn main() -> ExitCode {
//!     // The repository is found at run time; the settings are built for it.
//!     let args: Vec<String> = std::env::args().skip(1).collect();
//!     usched_cli::main_with_root(&args, |root| {
//!         let mut settings = usched_cli::settings::Settings::new(root);
//!         settings.threads = 2;
//!         settings
//!     })
//! }
//! ```

#![deny(missing_docs)]

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches};
use experiments::Registry;

pub mod batch;
pub mod bench;
pub mod catalog;
pub mod cells;
pub mod cli;
pub mod config;
pub mod describe;
pub mod exit;
pub mod experiment;
pub mod explore;
pub mod files;
pub mod generate;
pub mod generated;
pub mod identity;
pub mod isolate;
pub mod list;
pub mod merge;
pub mod options;
pub mod output;
pub mod progress;
pub mod reproduce;
pub mod results;
pub mod root;
pub mod schedules;
pub mod script;
pub mod sensitivity;
pub mod settings;
pub mod simulate;
pub mod slurm;
pub mod traces;
pub mod verify;

use cli::{Cli, Command, RunFlags};
use exit::{EXIT_CLOSED_PIPE, EXIT_ERROR, EXIT_USAGE};
use progress::Verbosity;
use settings::Settings;

/// The whole command line for the kinds and policies of `registry`: runs
/// this process's command line (`std::env::args`) with [`Settings::new`]
/// for the repository root found at run time ([`root`]). `cargo xtask` is
/// `main(Registry::builtin())`; a user's binary passes its own registry:
///
/// ```no_run
/// # use usched_cli as cli;
/// use experiments::Registry;
///
/// fn main() -> std::process::ExitCode {
///     let registry = Registry::builtin().with_policy("fcfs-too", || profile::builtin::Fcfs);
///     cli::main(registry)
/// }
/// ```
pub fn main(registry: Registry) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    main_with_root(&args, |root| Settings::new(root).with_registry(registry))
}

/// Runs the command line `args` (without the program name) with the
/// settings `settings_for` makes for the repository root found at run time
/// (`--root`, `USCHED_ROOT`, or walking up from the current directory;
/// [`root::discover`]).
///
/// When no root is found, a command that needs none (`simulate` given a
/// trace file's path) runs with the settings made for the current
/// directory; every other command fails with an error naming every place
/// looked at (exit status 1).
pub fn main_with_root(args: &[String], settings_for: impl FnOnce(PathBuf) -> Settings) -> ExitCode {
    launch(args, |cli| match root::discover(cli.root.as_deref()) {
        Ok(root) => Ok(settings_for(root)),
        Err(e) if !needs_root(&cli.command) => {
            let cwd = std::env::current_dir().map_err(|_| e)?;
            Ok(settings_for(cwd))
        }
        Err(e) => Err(e.into()),
    })
}

/// Runs the command line `args` (without the program name) with
/// `settings`; `--root DIR` moves them to the repository at `DIR`
/// ([`Settings::rebased`]).
pub fn main_with(args: &[String], settings: Settings) -> ExitCode {
    launch(args, |cli| match &cli.root {
        Some(dir) => {
            let root = root::discover(Some(dir))?;
            Ok(settings.rebased(root))
        }
        None => Ok(settings),
    })
}

/// Whether `command` needs the repository root: all do but `describe`,
/// `generate`, and `simulate` given a trace file's path or a `lublin99:`
/// spec (a known trace's name is looked up in the repository's `traces/`).
pub fn needs_root(command: &Command) -> bool {
    match command {
        Command::Simulate(args) => {
            !traces::is_path(&args.trace) && !args.trace.starts_with(generated::PREFIX)
        }
        Command::Generate(_) => false,
        Command::Describe { .. } => false,
        _ => true,
    }
}

/// Parses `args`, makes the settings, runs the command: the exit status.
fn launch(args: &[String], settings: impl FnOnce(&Cli) -> Result<Settings>) -> ExitCode {
    exit::stop_quietly_on_closed_pipe();
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
            let text = e.render().to_string();
            if e.use_stderr() {
                eprint!("{}", experiments::encode::terminal_message(&text));
            } else {
                print!("{}", experiments::encode::terminal(&text));
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE));
        }
    };
    // A panic is an error like any other (exit status 1), never a crash.
    let run = || {
        let mut settings = settings(&cli)?;
        dispatch(cli, &mut settings)
    };
    match isolate::isolated(run) {
        Ok(code) => code,
        // Its reader is gone: nothing to tell, and stderr may be the pipe.
        Err(e) if exit::is_closed_pipe(&e) => ExitCode::from(EXIT_CLOSED_PIPE),
        Err(e) => {
            // Errors quote configurations and files: no raw control characters.
            eprintln!(
                "error: {}",
                experiments::encode::terminal_message(&format!("{e:#}"))
            );
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Applies `reproduce`'s and `run`'s flags to `settings`; `--strict-claims`.
fn run_flags(settings: &mut Settings, run: &RunFlags) -> bool {
    if let Some(out) = &run.out {
        settings.results.clone_from(out);
    }
    if let Some(n) = run.threads {
        settings.threads = n as usize;
    }
    settings.no_claims = run.no_claims;
    run.strict_claims
}

/// `run` given an experiment id of `configs/` where a file belongs (one
/// that does not exist): an error naming the command that takes the id.
fn refuse_ids_as_files(settings: &Settings, configs: &[PathBuf]) -> Result<()> {
    for file in configs.iter().filter(|f| !f.exists()) {
        let Some(entry) = settings.catalog().ok().and_then(|catalog| {
            catalog
                .into_iter()
                .find(|e| std::path::Path::new(&e.id) == file.as_path())
        }) else {
            continue;
        };
        anyhow::bail!(
            "{} is no file but the id of an experiment in configs/: `cargo xtask reproduce -- \
             {}` runs it (or `cargo xtask run -- {}`)",
            experiments::encode::terminal_path(file),
            script::quote(&entry.id),
            script::quote_path(&entry.path)
        );
    }
    Ok(())
}

/// Refuses the results folder of `reproduce` or `run`
/// ([`output::check_out_dir`]) unless the run writes cells (`--shard`).
fn out_dir(settings: &Settings, run: &RunFlags) -> Result<()> {
    if run.cells.is_some() {
        return Ok(());
    }
    output::check_out_dir(&settings.results, "--out", &settings.root)
}

/// Sets `results` to `out` if given.
fn results_in(settings: &mut Settings, out: Option<PathBuf>) {
    if let Some(out) = out {
        settings.results = out;
    }
}

fn dispatch(cli: Cli, settings: &mut Settings) -> Result<ExitCode> {
    settings.verbosity = Verbosity::from_counts(cli.quiet, cli.verbose);
    if cli.stand_in {
        settings.traces.no_stand_in = false;
    }
    settings.replace |= cli.replace;
    match cli.command {
        Command::List => list::list(settings),
        Command::Describe { kind, markdown } => {
            describe::describe(settings, kind.as_deref(), markdown)
        }
        Command::Reproduce {
            ids,
            sensitivity,
            run,
        } => {
            let strict = run_flags(settings, &run);
            out_dir(settings, &run)?;
            let jobs = settings.select(&ids, sensitivity)?;
            reproduce::run_jobs(settings, &jobs, &run, strict)
        }
        Command::Run {
            configs,
            schedules,
            run,
        } => {
            let strict = run_flags(settings, &run);
            out_dir(settings, &run)?;
            settings.schedules = schedules;
            refuse_ids_as_files(settings, &configs)?;
            let jobs: Vec<_> = configs.into_iter().map(|f| (f, None)).collect();
            reproduce::run_jobs(settings, &jobs, &run, strict)
        }
        Command::Merge {
            cells,
            out,
            strict_claims,
            no_claims,
        } => {
            results_in(settings, out);
            settings.no_claims = no_claims;
            merge::merge(settings, &cells, strict_claims)
        }
        Command::Slurm(args) => slurm::slurm(settings, &args),
        Command::Verify {
            ids,
            out,
            doc,
            strict_claims,
            force,
        } => {
            results_in(settings, out);
            output::check_out_dir(&settings.results, "--out", &settings.root)?;
            verify::verify(settings, &ids, doc.as_deref(), strict_claims, force)
        }
        Command::Simulate(args) => simulate::simulate(settings, &args.options()),
        Command::Generate(args) => {
            generate::generate(settings, &args.model(), &args.out, args.force)
        }
        Command::Bench {
            runs,
            ten_million,
            against,
        } => {
            let mut options = bench::BenchOptions::new(runs as usize, ten_million);
            options.against = against;
            bench::bench_with(settings, &options)
        }
        Command::Explore {
            seed,
            scale,
            cargo_args,
        } => explore::explore(settings, seed, scale, &cargo_args),
        Command::BenchChild { args } => bench::child(settings, &args),
    }
}

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
