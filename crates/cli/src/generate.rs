//! `cargo xtask generate lublin99`: a seeded Lublin99 workload written as
//! SWF, with the offered load or arrival rate and the estimate model asked
//! for (the text is [`crate::generated`]'s, which `simulate --trace
//! lublin99:...` replays).

use crate::exit::say;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use experiments::encode::terminal_path;
use swf_io::lublin99::Lublin99;

use crate::generated::swf_text;
use crate::output;
use crate::progress::Verbosity;
use crate::settings::Settings;

/// Runs the command: writes `model` to `out` (atomically), refusing to
/// replace a file the tool did not write unless `force`.
pub fn generate(
    settings: &Settings,
    model: &Lublin99,
    out: &Path,
    force: bool,
) -> Result<ExitCode> {
    output::check_name_lengths(out, "--out")?;
    output::check_file_target(out, "--out")?;
    output::check_replace(out, "--out", output::Made::Workload, force)?;
    // The cap `simulate --trace lublin99:...` and configurations have
    // (USCHED_MAX_GENERATED_JOBS), before any work.
    let jobs = model.max_jobs.map_or(0, |n| n as u64);
    crate::config::limits()?
        .within("generated_jobs", "--jobs", jobs)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // A name ending in .gz gets gzip.
    let text = crate::files::gzip_if_named(out, swf_text(model)?)?;
    output::write_output(out, &text, "--out", output::Made::Workload, force)?;
    if settings.verbosity == Verbosity::Quiet {
        // -q: the file is the result; no informational line.
        return Ok(ExitCode::SUCCESS);
    }
    let jobs = model.generate();
    let mut line = format!(
        "wrote {} ({}, {}, seed {}",
        terminal_path(out),
        crate::progress::count(jobs.len() as u64, "job"),
        crate::progress::count(model.procs, "proc"),
        model.seed
    );
    let _ = write!(line, ", estimates {})", model.estimates);
    say!("{}", experiments::encode::terminal(&line));
    if model.estimates.is_none() {
        say!(
            "note: no estimates: requested equals exact (give --estimates f:3 or modal:3 for an estimate model)"
        );
    }
    Ok(ExitCode::SUCCESS)
}
