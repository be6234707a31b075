//! The command line's exit statuses: 0 success (a FAILed claim is a
//! result), 1 an error (also a panic, and any failed experiment of a batch,
//! once all have run), 2 a usage error, 3 a claim that did not pass under
//! `--strict-claims`, 141 stdout or stderr was closed by its reader (`xtask
//! ... | head -1`): the command stops quietly, as a tool killed by SIGPIPE
//! would ([`stop_quietly_on_closed_pipe`]).

/// Exit status: success (a FAILed claim is a result, not an error).
pub const EXIT_OK: u8 = 0;
/// Exit status: an error (a trace, a configuration, a failed run).
pub const EXIT_ERROR: u8 = 1;
/// Exit status: a usage error (unknown command or flag, bad value): clap's.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: a claim did not pass under `--strict-claims`.
pub const EXIT_CLAIM_FAILED: u8 = 3;
/// Exit status: stdout or stderr was closed by its reader (a pipe into
/// `head`): the command stopped quietly, as a tool killed by SIGPIPE would
/// (128 + 13, what a shell reports for one).
pub const EXIT_CLOSED_PIPE: u8 = 141;

/// Makes every write to a closed stdout or stderr stop the process quietly
/// with [`EXIT_CLOSED_PIPE`], from any thread: `println!`, `eprintln!` and
/// the progress reporter panic on a broken pipe ("failed printing to
/// stdout"); this panic hook exits before the panic is printed or turned
/// into an error (which would itself be printed to a closed stderr). Other
/// panics go to the hook installed before. Installed once per process by
/// the command line's entry points.
pub fn stop_quietly_on_closed_pipe() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("");
            if is_closed_pipe_message(message) {
                std::process::exit(i32::from(EXIT_CLOSED_PIPE));
            }
            previous(info);
        }));
    });
}

/// Whether a panic's message is the standard library's for a print to a
/// closed pipe ("failed printing to stdout: Broken pipe (os error 32)").
pub fn is_closed_pipe_message(message: &str) -> bool {
    message.starts_with("failed printing to std")
        && (message.contains("Broken pipe") || message.contains("os error 32"))
}

/// Whether `error` is, or was caused by, a write to a closed pipe: such an
/// error is not reported (stderr may be the closed pipe) but ends the
/// command with [`EXIT_CLOSED_PIPE`].
pub fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `println!` for the command line: the line goes through
/// [`experiments::encode::terminal`], since lines quote paths, trace names
/// and configuration text, and a control character in one (an escape
/// sequence in a file name) must not reach the terminal raw. Every line a
/// command prints goes through this or [`say_err`] (a tidy test keeps it so).
macro_rules! say {
    () => {
        println!()
    };
    ($($arg:tt)*) => {
        println!("{}", experiments::encode::terminal(&format!($($arg)*)))
    };
}
pub(crate) use say;

/// [`say`] for stderr (`eprintln!`), or for the sink a front end set with
/// [`send_messages_to`].
macro_rules! say_err {
    () => {
        $crate::exit::message_line("")
    };
    ($($arg:tt)*) => {
        $crate::exit::message_line(&experiments::encode::terminal_message(&format!($($arg)*)))
    };
}

/// Where the lines for a human on stderr go (warnings, notes, a download's
/// progress, a stand-in's banner), if not to stderr: set once per process
/// by a front end that has a channel of its own for them (the Python
/// package makes them Python warnings, which a notebook shows and
/// `warnings` filters, where the process's stderr is out of sight).
static MESSAGE_SINK: std::sync::OnceLock<fn(&str)> = std::sync::OnceLock::new();

/// Sends every later line the toolkit writes for a human on stderr
/// (warnings, notes) to `sink` instead, from any thread; `false` (and
/// nothing changed) if a sink was set before.
pub fn send_messages_to(sink: fn(&str)) -> bool {
    MESSAGE_SINK.set(sink).is_ok()
}

/// Writes one line for a human: to the sink of [`send_messages_to`], else
/// to stderr.
pub fn message_line(line: &str) {
    match MESSAGE_SINK.get() {
        Some(sink) => sink(line),
        None => eprintln!("{line}"),
    }
}

pub(crate) use say_err;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_pipe_messages_are_recognised_and_others_are_not() {
        assert!(is_closed_pipe_message(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(is_closed_pipe_message(
            "failed printing to stderr: Broken pipe (os error 32)"
        ));
        assert!(!is_closed_pipe_message(
            "failed printing to stdout: No space left on device"
        ));
        assert!(!is_closed_pipe_message("index out of bounds"));
        let pipe = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            .context("writing data.csv");
        assert!(is_closed_pipe(&pipe));
        assert!(!is_closed_pipe(&anyhow::anyhow!("Broken pipe")));
    }
}
