//! Generated workloads as SWF text and as sources: what `generate`
//! writes and what `simulate --trace lublin99:...` replays, the same bytes.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use experiments::Source;
use experiments::encode::terminal_name;
use sha2::{Digest, Sha256};
use swf_io::lublin99::Lublin99;

/// The SWF text of `model`: the reference program's header and the records.
/// Records the simulator could not replay (times past its range, from
/// arrivals rescaled to a tiny load, say) are an error naming the option.
pub fn swf_text(model: &Lublin99) -> Result<Vec<u8>> {
    let records = model.generate();
    model.check_records(&records)?;
    let mut out = Vec::new();
    swf_io::write_swf(&mut out, &model.header(), &records)
        .context("cannot write the generated workload")?;
    Ok(out)
}

/// The prefix of a generated workload in `simulate --trace`.
pub const PREFIX: &str = "lublin99:";

/// `simulate --trace lublin99:procs=128,jobs=10000,seed=1[,load=..]
/// [,arrival_rate=..][,estimates=..][,two_class=..]`: the workload as a
/// source read from its SWF text, so it replays exactly as the file
/// `generate` writes would. `None` if `trace` is not such a spec.
pub fn source(trace: &str) -> Option<Result<Source>> {
    let spec = trace.strip_prefix(PREFIX)?;
    Some((|| {
        // The spec's own message quotes it: one line, encoded whole.
        let refused =
            |message: &str| anyhow::anyhow!("{}: {}", terminal_name(trace), terminal_name(message));
        let model: Lublin99 = spec
            .parse()
            .map_err(|e: swf_io::lublin99::ParseSpecError| refused(&e.to_string()))?;
        // What the spec asks for is made in memory: the same caps as a
        // configuration's generated workloads, checked before any work
        // (the parse held `procs` to the largest machine).
        let jobs = model.max_jobs.map_or(0, |n| n as u64);
        crate::config::limits()?
            .within("generated_jobs", "jobs", jobs)
            .map_err(|e| refused(&e))?;
        let text = swf_text(&model)?;
        let sha = Sha256::digest(&text)
            .iter()
            .fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            });
        // The size is what the spec asked for, not a file's: no caps.
        let all = swf_io::Limits {
            max_records: u64::MAX,
            max_lines: u64::MAX,
            max_bytes: u64::MAX,
            ..swf_io::Limits::DEFAULT
        };
        let parsed = swf_io::SwfReader::with_limits(&text[..], trace, swf_io::Mode::Strict, all)?
            .into_trace()
            .context("cannot read the generated workload back")?;
        let note = model
            .estimates
            .is_none()
            .then(|| "no estimates: requested equals exact".to_string());
        Ok(Source::trace(trace.to_string(), sha, parsed, note))
    })())
}
