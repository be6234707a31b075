//! Reading configurations: the caps on them ([`limits`], from
//! `USCHED_MAX_<KEY>`), a configuration file, and the configuration a
//! results directory's `run.toml` records.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use experiments::encode::terminal_name;
use experiments::{Experiment, Limits, Registry, RunToml};

use crate::files;

/// Reads and parses a configuration against `registry` under the caps of
/// [`limits`]; errors name the file, line and column.
pub fn read_config(registry: &Registry, path: &Path, shown: &str) -> Result<Experiment> {
    let limits = limits()?;
    // Its errors name the path, and the line and column of a byte that is
    // not UTF-8.
    let text = files::read_to_string(path, files::CONFIG)?;
    Ok(registry.parse_with(&text, shown, &limits)?)
}

/// The cap the environment variable `var` sets, if set: a positive integer.
fn env_cap(var: &str) -> Result<Option<u64>> {
    let Some(value) = std::env::var_os(var) else {
        return Ok(None);
    };
    value
        .to_str()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|v| *v > 0)
        .map(Some)
        .ok_or_else(|| {
            anyhow!(
                "{var} is '{}', expected a positive integer",
                terminal_name(&value.to_string_lossy())
            )
        })
}

/// The caps on a configuration: the defaults of [`Limits`], each
/// overridden by `USCHED_MAX_<KEY>` if set (`USCHED_MAX_RUNS=20000`).
pub fn limits() -> Result<Limits> {
    let mut limits = Limits::default();
    for key in Limits::KEYS {
        let var = format!("USCHED_MAX_{}", key.to_uppercase());
        if let Some(value) = env_cap(&var)? {
            limits.set(key, value).map_err(|e| anyhow!("{var}: {e}"))?;
        }
    }
    Ok(limits)
}

/// The reader's caps on one trace file: [`swf_io::Limits`]'s defaults,
/// `max_records`, `max_lines` and `max_bytes` overridden by
/// `USCHED_MAX_TRACE_RECORDS`, `USCHED_MAX_TRACE_LINES` and
/// `USCHED_MAX_TRACE_BYTES` if set.
pub fn trace_limits() -> Result<swf_io::Limits> {
    let mut limits = swf_io::Limits::DEFAULT;
    for (key, field) in [
        ("RECORDS", &mut limits.max_records),
        ("LINES", &mut limits.max_lines),
        ("BYTES", &mut limits.max_bytes),
    ] {
        if let Some(value) = env_cap(&format!("USCHED_MAX_TRACE_{key}"))? {
            *field = value;
        }
    }
    Ok(limits)
}

/// The hint added to a reader's error that passed one of
/// [`trace_limits`]' caps: the variable that raises it.
pub fn trace_limit_hint(error: &swf_io::SwfError) -> Option<String> {
    match error {
        swf_io::SwfError::TooLarge { what, .. } => Some(format!(
            "raise it with USCHED_MAX_TRACE_{}=N",
            what.to_uppercase()
        )),
        _ => None,
    }
}

/// The configuration the `run.toml` of results directory `dir` records
/// (its `[config]` table, parsed once by the caller as `run_toml`), for
/// results of a file outside configs/.
pub fn recorded_config(registry: &Registry, run_toml: &RunToml, dir: &Path) -> Result<Experiment> {
    let config = run_toml.config().context("has no [config] table")?;
    let path = dir.join("run.toml");
    let shown = format!("{} [config]", path.display());
    Ok(registry.parse_with(&config.to_string(), &shown, &limits()?)?)
}
