//! `cargo xtask`: see `xtask::main_with`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    xtask::main_with(&args, xtask::Settings::from_env())
}
