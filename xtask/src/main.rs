//! `cargo xtask`: the workspace's command line, [`cli::main`].

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main(experiments::Registry::builtin())
}
