//! The command line's exit statuses: 0 success (a FAILed claim is a
//! result), 1 an error (also a panic, and any failed experiment of a batch,
//! once all have run), 2 a usage error, 3 a claim that did not pass under
//! `--strict-claims`.

/// Exit status: success (a FAILed claim is a result, not an error).
pub const EXIT_OK: u8 = 0;
/// Exit status: an error (a trace, a configuration, a failed run).
pub const EXIT_ERROR: u8 = 1;
/// Exit status: a usage error (unknown command or flag, bad value): clap's.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: a claim did not pass under `--strict-claims`.
pub const EXIT_CLAIM_FAILED: u8 = 3;
