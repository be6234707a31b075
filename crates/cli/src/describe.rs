//! `cargo xtask describe [KIND] [--markdown]`: the configuration schema,
//! generated from the code ([`experiments::describe`]);
//! `configs/README.md` is `describe --markdown`.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use experiments::DescribeStyle;

use crate::settings::Settings;

/// `cargo xtask describe`: the schema of the settings' registry, or of one
/// of its kinds, as text or Markdown, on stdout.
pub fn describe(settings: &Settings, kind: Option<&str>, markdown: bool) -> Result<ExitCode> {
    let style = if markdown {
        DescribeStyle::Markdown
    } else {
        DescribeStyle::Text
    };
    let text = experiments::describe(&settings.registry, kind, style).map_err(|e| anyhow!(e))?;
    print!("{}", experiments::encode::terminal(&text));
    Ok(ExitCode::SUCCESS)
}
