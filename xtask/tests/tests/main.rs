//! The integration tests of `cargo xtask` and of the `usched-cli` library (`cli::`)
//! it is, with the workspace's rules, as one test binary: `cargo test -p
//! xtask --test tests`, one module with `cargo test -p xtask --test tests --
//! slurm::`.

mod closed_pipes;
mod common;
mod end_to_end;
mod float_api;
mod hostile_files;
mod layers;
mod out_dirs;
mod root;
mod schedules;
mod slurm;
mod studies;
mod traces;
mod user_files;
mod workspace_rules;
