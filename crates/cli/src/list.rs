//! `cargo xtask list`: every experiment id with its title and paper.

use crate::exit::say;
use std::process::ExitCode;

use anyhow::Result;

use crate::config::read_config;
use crate::progress::one_line;
use crate::settings::Settings;

/// `cargo xtask list`.
pub fn list(settings: &Settings) -> Result<ExitCode> {
    let entries = settings.catalog()?;
    let width = entries.iter().map(|e| e.id.len()).max().unwrap_or(0);
    for e in &entries {
        match read_config(&settings.registry, &e.path, &settings.shown(&e.path)) {
            Ok(x) => {
                let line = format!(
                    "{:width$}  {}  [{}]",
                    e.id,
                    x.title(),
                    x.paper().unwrap_or("own study")
                );
                say!("{}", one_line(&line));
            }
            Err(err) => {
                let line = format!("{:width$}  (invalid configuration: {err:#})", e.id);
                say!("{}", one_line(&line));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
