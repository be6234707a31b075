//! The command line, declared with clap's derive API: every subcommand,
//! flag and help text lives here, and nothing else parses arguments.
//!
//! `README.md` documents the same flags; a test
//! (`xtask/tests/tests/end_to_end.rs`, `readme_and_help_agree`) keeps the
//! two in agreement.

use std::path::PathBuf;

use experiments::encode::terminal_path;

use clap::{ArgAction, Args, Parser, Subcommand};
use experiments::Shard;
use profile::Policy;

use crate::options::{SimulateOptions, parse_estimate};
use crate::script::check_script_value;

/// The help heading of the flags every subcommand takes.
const GLOBAL: &str = "Global options";

const AFTER_HELP: &str = "\
Environment:
  USCHED_ROOT         the repository root, if --root is not given (else the first directory
                      holding Cargo.toml and configs/ from the current one up; needed by every
                      command but describe, generate, and simulate with a trace file's path
                      or a lublin99: spec)
  TRACES_DIR          directory searched first for traces (<name>.swf.gz or <name>.swf)
  TRACES_CACHE        download cache (default traces/cache)
  TRACES_MIRROR       download base URL: http(s):// or file:// (default the Parallel
                      Workloads Archive)
  TRACES_NO_STAND_IN  accepted; refusing stand-ins is the default (--stand-in asks for one)
  USCHED_MAX_<KEY>    raise a per-process cap: REPETITIONS (100), SWEEP_VALUES (100),
                      WORKLOADS (20), RUNS (5000), GENERATED_JOBS (2500000), PANELS
                      (500); per trace file: TRACE_RECORDS (10000000), TRACE_LINES (50000000),
                      TRACE_BYTES (4294967296: the file, and its text after decompression)

Exit status:
  0  success (a FAILed claim is a result)
  1  error
  2  usage error (unknown command or flag, bad value)
  3  a claim did not pass under --strict-claims";

/// Reproduces the figures of four utility-driven scheduling papers from TOML
/// configurations, and runs single simulations.
#[derive(Debug, Parser)]
#[command(
    name = "xtask",
    bin_name = "cargo xtask",
    about = "Reproduce the papers' figures from configs/, run your own experiments, simulate one trace",
    after_help = AFTER_HELP,
    disable_help_subcommand = true,
    arg_required_else_help = true,
    max_term_width = 100
)]
pub struct Cli {
    /// Less output: no progress, no informational lines (warnings and errors stay)
    #[arg(short, long, global = true, action = ArgAction::Count, help_heading = GLOBAL)]
    pub quiet: u8,
    /// More output: -v prints one line per finished run
    #[arg(short, long, global = true, action = ArgAction::Count, help_heading = GLOBAL)]
    pub verbose: u8,
    /// A missing trace is an error (the default; kept for scripts, as is
    /// TRACES_NO_STAND_IN=1)
    #[arg(long, global = true, help_heading = GLOBAL, conflicts_with = "stand_in")]
    pub no_stand_in: bool,
    /// Replace results in --out computed from another configuration or on
    /// other data (different config sha256 or trace checksums) instead of
    /// refusing to
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub replace: bool,
    /// Replace a trace found nowhere by a seeded Lublin99 stand-in of its
    /// machine size, announced loudly (per workload: `stand_in = true`)
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub stand_in: bool,
    /// The repository root (a directory holding Cargo.toml and configs/)
    /// [default: USCHED_ROOT, else found from the current directory up]
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Checks what clap cannot: two outputs of one command naming one file
    /// (the same path under other spellings, a symbolic link, a hard link)
    /// is a usage error.
    pub fn validated(self) -> Result<Cli, clap::Error> {
        if let Command::Simulate(args) = &self.command {
            let outputs: Vec<(&str, &PathBuf)> = [
                ("--schedule-out", &args.schedule_out),
                ("--jobs-csv", &args.jobs_csv),
                ("--gantt", &args.gantt),
                ("--timeline", &args.timeline),
            ]
            .into_iter()
            .filter_map(|(flag, p)| Some((flag, p.as_ref()?)))
            .collect();
            for (i, (a, pa)) in outputs.iter().enumerate() {
                if let Some((b, _)) = outputs[i + 1..].iter().find(|(_, pb)| same_output(pa, pb)) {
                    return Err(<Cli as clap::CommandFactory>::command().error(
                        clap::error::ErrorKind::ArgumentConflict,
                        format!(
                            "{a} and {b} name the same file {}; give each output its own path",
                            terminal_path(pa)
                        ),
                    ));
                }
            }
        }
        Ok(self)
    }
}

/// Whether two output paths name one file, existing or not.
fn same_output(a: &std::path::Path, b: &std::path::Path) -> bool {
    let normal = |p: &std::path::Path| {
        std::fs::canonicalize(p).ok().or_else(|| {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = std::fs::canonicalize(parent.unwrap_or(std::path::Path::new("."))).ok()?;
            Some(dir.join(p.file_name()?))
        })
    };
    let lexical = |p: &std::path::Path| std::path::absolute(p).ok();
    matches!((normal(a), normal(b)), (Some(x), Some(y)) if x == y)
        || matches!((lexical(a), lexical(b)), (Some(x), Some(y)) if x == y)
        || crate::output::same_file(a, b)
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Every experiment id with its title and paper
    List,
    /// Run experiments from configs/ and write their results
    #[command(
        long_about = "Run experiments from configs/ and write data.csv, figure.svg, summary.md and \
                      run.toml for each, printing every result table and claim verdict on stdout.\n\n\
                      An id is <paper>/<figure> (adaptive/fig4), a paper name (adaptive: all its \
                      figures), a bare figure name (fig4: that figure of every paper), or `all` \
                      (every paper's figures; configs/examples and sensitivity runs are selected \
                      only by their own names)."
    )]
    Reproduce {
        /// Experiment ids: PAPER/FIGURE, a paper, a bare figure name, or `all`
        #[arg(required = true, value_name = "ID")]
        ids: Vec<String>,
        /// Run the papers' sensitivity runs (`configs/<paper>/sensitivity/`) instead
        /// of their figures: `reproduce adaptive --sensitivity`, `reproduce all --sensitivity`
        #[arg(long)]
        sensitivity: bool,
        /// Where results go, threads, shards.
        #[command(flatten)]
        run: RunFlags,
    },
    /// Run configuration files of your own and write their results
    Run {
        /// Configuration files (TOML, `version = 2`)
        #[arg(required = true, value_name = "CONFIG.toml")]
        configs: Vec<PathBuf>,
        /// Also write every cell's per-job schedule, as SWF and Batsim jobs.csv, into
        /// `<out>/<id>/schedules/` (kinds that simulate one machine: backfilling)
        #[arg(long, conflicts_with = "shard")]
        schedules: bool,
        /// Where results go, threads, shards.
        #[command(flatten)]
        run: RunFlags,
    },
    /// Re-check claims of existing results; regenerate docs/REPRODUCTION.md
    #[command(
        long_about = "Re-check the claims of existing results (no simulation) and write the \
                      reproduction document.\n\n\
                      The document (docs/REPRODUCTION.md, or --doc FILE) is regenerated only when \
                      results exist for every paper figure; with partial results it is left \
                      unchanged and the partial document is written to <out>/REPRODUCTION.md \
                      instead (this is not an error)."
    )]
    Verify {
        /// Experiment ids whose verdicts to print (default: every result present)
        #[arg(value_name = "ID")]
        ids: Vec<String>,
        /// Results directory to read [default: results]
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The document to regenerate [default: docs/REPRODUCTION.md]
        #[arg(long, value_name = "FILE")]
        doc: Option<PathBuf>,
        /// Exit with status 3 if a claim does not pass
        #[arg(long)]
        strict_claims: bool,
        /// Replace --doc FILE, or a figure beside it, even if this tool did not write it
        #[arg(long)]
        force: bool,
    },
    /// Assemble results from the cells of sharded runs (--shard I/N --cells DIR)
    #[command(
        long_about = "Assemble data.csv, figure.svg, summary.md and run.toml for every experiment \
                      in a cells directory written by `reproduce|run ... --shard I/N --cells DIR` \
                      (or by the jobs of `slurm`). The results are byte-identical to running the \
                      same experiments in one process, whatever the number of shards.\n\n\
                      An experiment with cells missing gets nothing written; the error lists the \
                      missing cells and the shards to re-run. Cells of another configuration or \
                      code revision are refused. See docs/SCALE-OUT.md."
    )]
    Merge {
        /// The cells directory
        #[arg(value_name = "DIR")]
        cells: PathBuf,
        /// Results directory [default: results]
        #[arg(long, value_name = "OUT")]
        out: Option<PathBuf>,
        /// Exit with status 3 if a claim does not pass
        #[arg(long)]
        strict_claims: bool,
        /// Leave the claims unchecked: no verdicts, no claims section in summary.md
        #[arg(long, conflicts_with = "strict_claims")]
        no_claims: bool,
    },
    /// Run experiments as a Slurm job array of shards and a dependent merge job
    Slurm(SlurmArgs),
    /// One trace, one policy: print the usual metrics, optionally write the schedule
    Simulate(SimulateArgs),
    /// Write a seeded synthetic workload as SWF (lublin99), with a load or arrival rate and an estimate model
    Generate(GenerateArgs),
    /// Release-build speed and memory benchmarks (medians of fresh processes)
    Bench {
        /// Runs per case
        #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        /// Add the 10,000,000-job Lublin99 runs to the scaling series
        #[arg(long)]
        ten_million: bool,
        /// Also measure another xtask binary side by side (runs alternate):
        /// both medians, current / baseline and a verdict per case
        #[arg(long, value_name = "PATH")]
        against: Option<PathBuf>,
    },
    /// The configuration schema: every kind's parameters, series and metrics, the common keys
    #[command(
        long_about = "Print the configuration schema, generated from the code: each kind's \
                      parameters (type, default, unit), series names and metrics (with units), \
                      and the common keys (workloads and transforms, sweep, panels, claims with \
                      every predicate and an example). With KIND, that kind only. \
                      `--markdown` prints the text of configs/README.md."
    )]
    Describe {
        /// A kind (`backfilling`, `pricing`, ...) [default: everything]
        #[arg(value_name = "KIND")]
        kind: Option<String>,
        /// Markdown (configs/README.md is `describe --markdown`)
        #[arg(long)]
        markdown: bool,
    },
    /// Run the property suites with a fresh seed and many more cases (not part of the gate)
    #[command(
        long_about = "Run the workspace's tests with every property suite on a fresh seed and \
                      SCALE times its cases. The gate (the README's test command, as CI runs it) always runs \
                      the same cases from a fixed seed; this is how new cases are explored. A \
                      failure is shrunk and written by proptest to the suite's \
                      `proptest-regressions/` file: fix the class of inputs it stands for and \
                      commit that file, so the gate replays the case from then on.\n\n\
                      Arguments after `--` go to `cargo test` (a package: `-- -p usched-pricing`; \
                      a test filter: `-- -p usched-pricing extremes`)."
    )]
    Explore {
        /// The seed [default: a fresh one, printed first]
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Multiply every suite's case count by K (1 to 1000)
        #[arg(long, value_name = "K", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
        scale: u32,
        /// Arguments for `cargo test`, after `--`
        #[arg(last = true, value_name = "CARGO_TEST_ARGS")]
        cargo_args: Vec<String>,
    },
    /// One benchmark measurement (started by `bench`)
    #[command(name = "bench-child", hide = true)]
    BenchChild {
        /// The case and its arguments
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Flags shared by `reproduce` and `run`.
#[derive(Debug, Args)]
pub struct RunFlags {
    /// Results directory [default: results]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Exit with status 3 if a claim does not pass
    #[arg(long)]
    pub strict_claims: bool,
    /// Leave the claims unchecked: no verdicts, no claims section in summary.md
    #[arg(long, conflicts_with = "strict_claims")]
    pub no_claims: bool,
    /// Worker threads, at most 4096 [default: the number of CPUs]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
    /// Run only shard I of N of every experiment's cells (0 <= I < N), writing
    /// their measurements to --cells; `merge` assembles the results
    #[arg(long, value_name = "I/N", requires = "cells", value_parser = shard)]
    pub shard: Option<Shard>,
    /// Where --shard writes its cells (one folder per experiment); the
    /// claims are checked when `merge` writes the results, so its
    /// --no-claims and --strict-claims say what to do with them
    #[arg(long, value_name = "DIR", requires = "shard", conflicts_with_all = ["out", "strict_claims", "no_claims"])]
    pub cells: Option<PathBuf>,
    /// Also write one CSV of every experiment this invocation ran: data.csv's
    /// rows with an `experiment` column first
    #[arg(long, value_name = "FILE", conflicts_with = "cells")]
    pub combined: Option<PathBuf>,
    /// Replace an existing --combined FILE even if this tool did not write it
    #[arg(long, requires = "combined")]
    pub force: bool,
}

/// `cargo xtask slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// Experiment ids, as for `reproduce`
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    /// Select the papers' sensitivity runs, as `reproduce --sensitivity` does
    #[arg(long)]
    pub sensitivity: bool,
    /// The cells directory, on a file system every node shares
    #[arg(long, value_name = "DIR", value_parser = script_path)]
    pub cells: PathBuf,
    /// Where the merge job writes the results
    #[arg(long, value_name = "OUT", value_parser = script_path)]
    pub out: PathBuf,
    /// Array tasks, one shard each
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub shards: u32,
    /// Slurm partition for every job [default: the cluster's default]
    #[arg(long, value_name = "P", value_parser = partition)]
    pub partition: Option<String>,
    /// Time limit of each job: M, M:S, H:M:S, D-H, D-H:M or D-H:M:S (e.g. 01:00:00)
    #[arg(long, value_name = "HH:MM:SS", value_parser = slurm_time)]
    pub time: Option<String>,
    /// CPUs per array task (the shard's worker threads)
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub cpus_per_task: u32,
    /// An extra `#SBATCH` option for every job (repeatable), one sbatch argument, e.g.
    /// --sbatch-arg=--account=abc
    #[arg(long, value_name = "ARG", allow_hyphen_values = true, value_parser = sbatch_arg)]
    pub sbatch_arg: Vec<String>,
    /// Print the job scripts; submit nothing (needs no Slurm)
    #[arg(long)]
    pub dry_run: bool,
    /// The xtask binary the jobs run [default: a copy of this one, in DIR/slurm/]
    #[arg(long, value_name = "PATH", value_parser = script_path)]
    pub binary: Option<PathBuf>,
}

/// Parses `--shard I/N`.
fn shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

/// Checks a Slurm time limit, strictly in one of Slurm's formats: `M`,
/// `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` (seconds and minutes after
/// the first field below 60, hours after days below 24), at most
/// [`MAX_SLURM_MINUTES`] in all.
pub fn slurm_time(s: &str) -> Result<String, String> {
    let bad = |why: &str| {
        format!(
            "'{}' is not a Slurm time limit ({why}); use M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, \
             e.g. 01:00:00",
            s.escape_debug()
        )
    };
    let number = |f: &str| -> Result<u64, String> {
        if f.is_empty() || f.len() > 9 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(&format!("'{}' is not a number", f.escape_debug())));
        }
        f.parse::<u64>().map_err(|_| bad("a field is too long"))
    };
    let below = |v: u64, max: u64, what: &str| {
        if v < max {
            Ok(v)
        } else {
            Err(bad(&format!("{what} {v} is not below {max}")))
        }
    };
    let seconds = match s.split_once('-') {
        Some((d, rest)) => {
            let days = number(d)?;
            let fields: Vec<&str> = rest.split(':').collect();
            if fields.len() > 3 {
                return Err(bad("too many fields"));
            }
            let h = below(number(fields[0])?, 24, "hours")?;
            let m = match fields.get(1) {
                Some(f) => below(number(f)?, 60, "minutes")?,
                None => 0,
            };
            let sec = match fields.get(2) {
                Some(f) => below(number(f)?, 60, "seconds")?,
                None => 0,
            };
            ((days * 24 + h) * 60 + m) * 60 + sec
        }
        None => {
            let fields: Vec<&str> = s.split(':').collect();
            match fields[..] {
                [m] => number(m)? * 60,
                [m, sec] => number(m)? * 60 + below(number(sec)?, 60, "seconds")?,
                [h, m, sec] => {
                    (number(h)? * 60 + below(number(m)?, 60, "minutes")?) * 60
                        + below(number(sec)?, 60, "seconds")?
                }
                _ => return Err(bad("too many fields")),
            }
        }
    };
    if seconds.div_ceil(60) > MAX_SLURM_MINUTES {
        return Err(bad(&format!(
            "above Slurm's largest limit of {MAX_SLURM_MINUTES} minutes"
        )));
    }
    Ok(s.to_string())
}

/// The largest time limit Slurm represents, in minutes (a 32-bit count
/// whose largest value means "infinite").
pub const MAX_SLURM_MINUTES: u64 = u32::MAX as u64 - 1;

/// Checks `--partition`: Slurm partition names (letters, digits, `_`, `.`,
/// `-`, not first), several separated by commas.
fn partition(s: &str) -> Result<String, String> {
    let name_ok = |n: &str| {
        !n.is_empty()
            && !n.starts_with('-')
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    };
    if s.split(',').all(name_ok) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "'{}' is not a Slurm partition name (letters, digits, '_', '.' and '-', not first; \
             several separated by commas)",
            s.escape_debug()
        ))
    }
}

/// Checks `--sbatch-arg`: an option (it starts with `-`) on one line.
fn sbatch_arg(s: &str) -> Result<String, String> {
    check_script_value("--sbatch-arg", s)?;
    if !s.starts_with('-') {
        return Err(format!(
            "'{s}' is not an sbatch option; give one starting with '-', e.g. --sbatch-arg=--account=abc"
        ));
    }
    Ok(s.to_string())
}

/// Checks a path that goes into a job script: UTF-8, on one line.
fn script_path(s: &str) -> Result<PathBuf, String> {
    check_script_value("the path", s)?;
    if s.is_empty() {
        return Err("the path is empty".to_string());
    }
    Ok(PathBuf::from(s))
}

/// `cargo xtask generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The workload model
    #[arg(value_name = "MODEL", value_parser = ["lublin99"])]
    pub model: String,
    /// Machine size in processors
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(swf_io::MAX_PROCS)))]
    pub procs: u32,
    /// Number of jobs
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: u64,
    /// Rescale arrivals to this offered load (sum of run time x size / (procs x span)) [default: the model's]
    #[arg(long, value_name = "L", value_parser = positive, conflicts_with = "arrival_rate")]
    pub load: Option<f64>,
    /// Rescale arrivals to this many jobs per hour [default: the model's]
    #[arg(long, value_name = "R", value_parser = positive)]
    pub arrival_rate: Option<f64>,
    /// The seed of every random stream
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Requested times: none (requested equals exact), f:F (Mu'alem-Feitelson f-model) or modal:F (rounded up to round values)
    #[arg(long, value_name = "MODEL", default_value = "none", value_parser = clap::value_parser!(swf_io::lublin99::Estimates))]
    pub estimates: swf_io::lublin99::Estimates,
    /// The single-class (typeless) model instead of batch and interactive classes
    #[arg(long)]
    pub typeless: bool,
    /// The SWF file to write
    #[arg(long, value_name = "FILE.swf")]
    pub out: PathBuf,
    /// Replace --out even if `generate` did not write it
    #[arg(long)]
    pub force: bool,
}

impl GenerateArgs {
    /// The generator these flags describe.
    pub fn model(&self) -> swf_io::lublin99::Lublin99 {
        use swf_io::lublin99::{Arrivals, Lublin99};
        Lublin99 {
            procs: self.procs,
            duration: i64::MAX,
            max_jobs: usize::try_from(self.jobs).ok(),
            seed: self.seed,
            two_class: !self.typeless,
            arrivals: match (self.load, self.arrival_rate) {
                (Some(l), _) => Arrivals::Load(l),
                (None, Some(r)) => Arrivals::Rate(r),
                (None, None) => Arrivals::Model,
            },
            estimates: self.estimates,
        }
    }
}

/// A finite number above 0.
fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("'{s}' is not a finite number above 0")),
    }
}

/// `cargo xtask simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// A known trace name (found like an experiment's), a path to a .swf or .swf.gz file, or a
    /// generated workload: `lublin99:procs=128,jobs=10000,seed=1[,load=L|arrival_rate=R][,estimates=f:3]`
    #[arg(long, value_name = "NAME|PATH|lublin99:SPEC")]
    pub trace: String,
    /// fcfs, easy, easy-kN (EASY protecting the first N waiting jobs), easy-kinf or conservative
    #[arg(long, value_name = "POLICY", value_parser = clap::value_parser!(Policy))]
    pub policy: Policy,
    /// The run-time estimate the scheduler sees: requested, actual or under-estimate:F
    #[arg(long, value_name = "ESTIMATE", default_value = "requested", value_parser = estimate)]
    pub estimate: String,
    /// Skip (and count) malformed trace lines instead of failing
    #[arg(long)]
    pub lenient: bool,
    /// Machine size in processors, for a trace whose header gives none or to replace it
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(swf_io::MAX_PROCS)))]
    pub procs: Option<u32>,
    /// Seed of a stand-in workload
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Write the simulated schedule as SWF (every input field kept)
    #[arg(long, value_name = "FILE.swf")]
    pub schedule_out: Option<PathBuf>,
    /// Write the simulated schedule as Batsim's jobs.csv, with processor allocations
    #[arg(long, value_name = "FILE.csv")]
    pub jobs_csv: Option<PathBuf>,
    /// Write a Gantt chart (processors by time, one rectangle per job) as SVG
    #[arg(long, value_name = "FILE.svg")]
    pub gantt: Option<PathBuf>,
    /// Write utilisation and queue length over time as SVG
    #[arg(long, value_name = "FILE.svg")]
    pub timeline: Option<PathBuf>,
    /// Restrict the pictures to [START, END) seconds on the trace's submit-time scale
    #[arg(long, value_name = "START:END", value_parser = window)]
    pub window: Option<(i64, i64)>,
    /// Replace existing output files even if this tool did not write them (a jobs.csv
    /// always needs it: its format carries no mark of the tool)
    #[arg(long)]
    pub force: bool,
}

impl SimulateArgs {
    /// The options `simulate` runs from.
    pub fn options(self) -> SimulateOptions {
        SimulateOptions {
            trace: self.trace,
            policy: self.policy,
            estimate: self.estimate,
            lenient: self.lenient,
            procs: self.procs,
            seed: self.seed,
            schedule_out: self.schedule_out,
            jobs_csv: self.jobs_csv,
            gantt: self.gantt,
            timeline: self.timeline,
            window: self.window,
            force: self.force,
        }
    }
}

/// Checks an `--estimate` value, keeping it as written.
fn estimate(s: &str) -> Result<String, String> {
    parse_estimate(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// The largest `--window` bound, seconds: the latest a simulated schedule
/// reaches (`profile::Time::LATEST`, 2^52), where every float coordinate is
/// exact.
pub const WINDOW_LIMIT: i64 = 1 << 52;

/// Parses `START:END` (integer seconds, START < END, both within ±[`WINDOW_LIMIT`]).
pub fn window(s: &str) -> Result<(i64, i64), String> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("'{s}' is not START:END (integer seconds, e.g. 0:86400)"))?;
    let num = |v: &str, what: &str| {
        v.trim().parse::<i64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                format!(
                    "{what} {} is outside the simulated time range [-2^52, 2^52] seconds",
                    v.trim()
                )
            }
            _ => format!("{what} '{v}' is not an integer number of seconds"),
        })
    };
    let (start, end) = (num(a, "START")?, num(b, "END")?);
    for (what, v) in [("START", start), ("END", end)] {
        if v.unsigned_abs() > WINDOW_LIMIT.unsigned_abs() {
            return Err(format!(
                "{what} {v} is outside the simulated time range [-2^52, 2^52] seconds"
            ));
        }
    }
    if start >= end {
        return Err(format!("START {start} must be less than END {end}"));
    }
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;
    use crate::exit::EXIT_USAGE;

    #[test]
    fn the_declaration_is_consistent() {
        Cli::command().debug_assert();
    }

    /// `--help` names every cap `USCHED_MAX_<KEY>` raises (it had left
    /// out `PANELS`).
    #[test]
    fn the_help_names_every_cap() {
        let help = AFTER_HELP.split_whitespace().collect::<Vec<_>>().join(" ");
        for key in experiments::Limits::KEYS {
            let key = key.to_uppercase();
            assert!(help.contains(&format!("{key} (")), "{key} not in --help");
        }
    }

    fn check_window(s: &str, expected: Result<(i64, i64), &str>) {
        match (window(s), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{s}"),
            (Err(e), Err(want)) => assert!(e.contains(want), "{s}: {e}"),
            (got, want) => panic!("{s}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn windows() {
        check_window("0:86400", Ok((0, 86400)));
        check_window("-10:10", Ok((-10, 10)));
        check_window(" 5 : 6 ", Ok((5, 6)));
        check_window("10:10", Err("must be less than END"));
        check_window("10", Err("is not START:END"));
        check_window("a:10", Err("START 'a'"));
        check_window("1:2.5", Err("END '2.5'"));
        // Past i64 is out of range, not "not an integer".
        check_window(
            "0: 99999999999999999999",
            Err("END 99999999999999999999 is outside the simulated time range"),
        );
        check_window(
            "-99999999999999999999:0",
            Err("START -99999999999999999999 is outside"),
        );
        check_window("0:4503599627370497", Err("END 4503599627370497 is outside"));
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("xtask").chain(args.iter().copied()))
    }

    #[test]
    fn flags_take_equals_and_globals_go_anywhere() {
        let cli = parse(&["reproduce", "fig4", "--out=/tmp/x", "-vv", "--threads=2"]).unwrap();
        assert_eq!(cli.verbose, 2);
        let Command::Reproduce { ids, run, .. } = cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(ids, ["fig4"]);
        assert_eq!(run.out, Some(PathBuf::from("/tmp/x")));
        assert_eq!(run.threads, Some(2));
        let cli = parse(&["-q", "--no-stand-in", "list"]).unwrap();
        assert!(cli.quiet == 1 && cli.no_stand_in);
    }

    #[test]
    fn simulate_fills_its_options() {
        let cli = parse(&[
            "simulate",
            "--trace=KTH-SP2-1996-2.1-cln",
            "--policy",
            "easy-k3",
            "--window",
            "100:200",
            "--gantt",
            "g.svg",
            "--jobs-csv",
            "jobs.csv",
        ])
        .unwrap();
        let Command::Simulate(args) = cli.command else {
            panic!("{cli:?}")
        };
        let o = args.options();
        assert_eq!(o.policy, Policy::Easy { reservations: 3 });
        assert_eq!(o.window, Some((100, 200)));
        assert_eq!(o.estimate, "requested");
        assert_eq!(o.seed, 1);
        assert_eq!(o.gantt, Some(PathBuf::from("g.svg")));
        assert_eq!(o.jobs_csv, Some(PathBuf::from("jobs.csv")));
        assert!(o.schedule_out.is_none() && o.timeline.is_none() && !o.lenient);
    }

    #[test]
    fn usage_errors_are_clap_errors() {
        for args in [
            &["reproduse", "fig4"][..],
            &["reproduce"],
            &["run", "x.toml", "--threads", "0"],
            &["simulate", "--trace", "t", "--policy", "sjf"],
            &[
                "simulate",
                "--trace",
                "t",
                "--policy",
                "easy",
                "--estimate",
                "guess",
            ],
            &[
                "simulate", "--trace", "t", "--policy", "easy", "--window", "5:1",
            ],
            &["bench", "--runs", "0"],
        ] {
            let e = parse(args).unwrap_err();
            assert_eq!(e.exit_code(), i32::from(EXIT_USAGE), "{args:?}: {e}");
        }
    }
}
