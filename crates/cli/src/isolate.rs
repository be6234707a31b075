//! Panic isolation: one experiment's bug is that experiment's error, never
//! a crash of the batch or of the command line.

use anyhow::{Result, anyhow};

/// Runs `f`, turning a panic into an error, so one experiment's bug does
/// not stop the others (the panic's message and place were printed on
/// stderr when it happened).
pub fn isolated<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Err(anyhow!(
                "internal error (a panic: {message}); this is a bug, please report it with the \
                 input that caused it"
            ))
        }
    }
}
