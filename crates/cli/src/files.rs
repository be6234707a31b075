//! Reading user-supplied files: every configuration, trace, cells file and
//! results file `cargo xtask` reads goes through here.
//!
//! The rules, for every read:
//!
//! - the path must name a regular file, after following symbolic links (a
//!   link to a regular file is fine); a FIFO, a device, a socket or a
//!   directory is an error naming the path ("not a regular file"), and so
//!   is a missing file ("does not exist");
//! - the type is checked before the file is opened, and again on the
//!   opened handle (opened non-blocking, so a FIFO swapped in between the
//!   two is never waited on);
//! - at most the file's [`Cap`] is read: a larger file is an error naming
//!   the cap, whatever its size claims (a file that grows while it is read
//!   is stopped too). Decompressed gzip streams are capped the same way.
//!
//! The caps (see [`CONFIG`] and its siblings) are far above anything this
//! project writes or reads; they exist so that a wrong path cannot exhaust
//! memory or disk.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use experiments::encode::terminal_path;

/// How much of one kind of file may be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// Bytes.
    pub bytes: u64,
    /// The kind of file, as error messages name it ("configuration files").
    pub what: &'static str,
    /// What to do about a larger file.
    pub hint: &'static str,
}

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

/// Experiment configurations (the largest in `configs/` is under 8 KiB).
pub const CONFIG: Cap = Cap {
    bytes: 4 * MIB,
    what: "configuration files",
    hint: "a configuration is a few kilobytes: check the path",
};
/// A shard's cells file (`shard-I-of-N.toml`; about 0.4 KiB per run, so
/// some 75,000 runs per shard). Parsing takes up to about 35 times the
/// file's size in memory, so this also bounds a merge's memory (~1.1 GiB).
pub const CELLS: Cap = Cap {
    bytes: 32 * MIB,
    what: "cells files",
    hint: "split the runs over more shards (a larger N in --shard I/N)",
};
/// A cells directory's `experiment.toml` (a dozen lines).
pub const SMALL_TOML: Cap = Cap {
    bytes: MIB,
    what: "experiment.toml files",
    hint: "check the path; the tool writes these files with a few lines",
};
/// Results files read back (`data.csv`, `samples.csv`, `run.toml`,
/// `figure.svg`; `samples.csv` takes about 1 KiB per run).
pub const RESULTS: Cap = Cap {
    bytes: 256 * MIB,
    what: "results files",
    hint: "check the path, or re-run the experiment to rewrite its results",
};
/// A trace file as stored (`.swf` or `.swf.gz`), capped at the reader's
/// byte cap `max_bytes` ([`swf_io::Limits::max_bytes`], 4 GiB unless
/// `USCHED_MAX_TRACE_BYTES` sets it; see `config::trace_limits`): a file
/// larger than that could not be read whole anyway, and one setting governs
/// a trace's size. The largest log of the Parallel Workloads Archive is well
/// under 1 GiB uncompressed.
pub fn trace_file(max_bytes: u64) -> Cap {
    Cap {
        bytes: max_bytes,
        what: "trace files",
        hint: "give a smaller trace, or raise it with USCHED_MAX_TRACE_BYTES=N",
    }
}

/// The SWF text of a compressed trace, after decompression, capped like
/// the file ([`trace_file`]).
pub fn trace_text(max_bytes: u64) -> Cap {
    Cap {
        bytes: max_bytes,
        what: "decompressed traces",
        hint: "check the file, or raise it with USCHED_MAX_TRACE_BYTES=N",
    }
}

/// The kind of a file that is not regular, for messages.
fn kind(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

/// What a path that is not a regular file is, for messages: `None` for a
/// regular file or a missing path.
pub fn not_regular(meta: &Metadata) -> Option<&'static str> {
    (!meta.is_file()).then(|| kind(meta))
}

fn check(path: &Path, meta: &Metadata, cap: Cap) -> Result<()> {
    if let Some(k) = not_regular(meta) {
        bail!(
            "{} is not a regular file ({k}); give the path of a regular file",
            terminal_path(path)
        );
    }
    if meta.len() > cap.bytes {
        bail!("{}", too_large(path, cap));
    }
    Ok(())
}

fn too_large(path: &Path, cap: Cap) -> String {
    format!(
        "{} is larger than the {} cap for {}; {}",
        terminal_path(path),
        human(cap.bytes),
        cap.what,
        cap.hint
    )
}

/// `64 MiB`, `4 GiB`, or bytes.
pub fn human(bytes: u64) -> String {
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Opens `path` for reading under the rules of the module docs; the
/// reader stops with an error past `cap`.
pub fn open(path: &Path, cap: Cap) -> Result<Capped<File>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            bail!("{} does not exist", terminal_path(path))
        }
        Err(e) => bail!("cannot read {}: {e}", terminal_path(path)),
    };
    check(path, &meta, cap)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: opening a FIFO swapped in after the check never blocks.
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", terminal_path(path)))?;
    let meta = file
        .metadata()
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", terminal_path(path)))?;
    check(path, &meta, cap)?;
    Ok(Capped::new(file, path, cap))
}

/// The whole of `path`, at most `cap` bytes of it.
pub fn read(path: &Path, cap: Cap) -> Result<Vec<u8>> {
    let mut reader = open(path, cap)?;
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", terminal_path(path)))?;
    Ok(bytes)
}

/// The whole of `path` as UTF-8 text, at most `cap` bytes of it.
pub fn read_to_string(path: &Path, cap: Cap) -> Result<String> {
    let bytes = read(path, cap)?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        anyhow::anyhow!(
            "{}:{}: not UTF-8 text ({}); save it as UTF-8",
            terminal_path(path),
            text_position(bytes, at),
            bad_bytes(bytes, at, e.utf8_error().error_len()),
        )
    })
}

/// `line:column` (both from 1, the column in characters) of byte `at` of
/// `bytes`, valid UTF-8 before it.
fn text_position(bytes: &[u8], at: usize) -> String {
    let before = &bytes[..at];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    // Valid UTF-8 up to `at`: count the characters, not their bytes.
    let column = std::str::from_utf8(&before[line_start..]).map_or(0, |s| s.chars().count()) + 1;
    format!("{line}:{column}")
}

/// The offending bytes at `at`, in hexadecimal (`byte 0xff`, `bytes 0xe2 0x82`,
/// or a sequence cut off by the end of the file).
fn bad_bytes(bytes: &[u8], at: usize, len: Option<usize>) -> String {
    let shown = &bytes[at..(at + len.unwrap_or(bytes.len() - at)).min(bytes.len())];
    let hex: Vec<String> = shown.iter().map(|b| format!("0x{b:02x}")).collect();
    match (len, hex.len()) {
        (None, _) => format!("the file ends inside a character: {}", hex.join(" ")),
        (Some(_), 1) => format!("byte {}", hex[0]),
        _ => format!("bytes {}", hex.join(" ")),
    }
}

/// [`read_to_string`], with a missing file as `None`.
pub fn read_if_exists(path: &Path, cap: Cap) -> Result<Option<String>> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        _ => read_to_string(path, cap).map(Some),
    }
}

/// Whether `path` is a regular file (after following symbolic links).
pub fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// A reader that fails once more than its cap has been read.
#[derive(Debug)]
pub struct Capped<R> {
    inner: R,
    left: u64,
    path: PathBuf,
    cap: Cap,
}

impl<R: Read> Capped<R> {
    /// `inner`, read from `path`, capped at `cap`.
    pub fn new(inner: R, path: &Path, cap: Cap) -> Capped<R> {
        Capped {
            inner,
            left: cap.bytes,
            path: path.to_path_buf(),
            cap,
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        // One byte beyond the cap tells a file of exactly the cap from a larger one.
        let want = buf
            .len()
            .min(usize::try_from(self.left + 1).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(io::Error::other(too_large(&self.path, self.cap)));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// `bytes` as the file `path` holds them: gzip-compressed when its name
/// ends in `.gz` (any case; no name or time in the gzip header, so the
/// same bytes every time), else as they are.
pub fn gzip_if_named(path: &std::path::Path, bytes: Vec<u8>) -> std::io::Result<Vec<u8>> {
    use std::io::Write as _;
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
    {
        return Ok(bytes);
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&bytes)?;
    gz.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_read_exactly_the_cap() {
        let cap = Cap {
            bytes: 4,
            what: "test files",
            hint: "use a smaller one",
        };
        let path = Path::new("x");
        let mut ok = Vec::new();
        Capped::new(&b"abcd"[..], path, cap)
            .read_to_end(&mut ok)
            .unwrap();
        assert_eq!(ok, b"abcd");
        let e = Capped::new(&b"abcde"[..], path, cap)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "x is larger than the 4 bytes cap for test files; use a smaller one"
        );
        assert_eq!(human(64 * MIB), "64 MiB");
        assert_eq!(human(4 * GIB), "4 GiB");
    }
}
