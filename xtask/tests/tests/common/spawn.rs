//! Starting child processes without holding other tests' locks.
//!
//! A child holds a copy of every open file of the test process from its
//! start until it execs, an flock'ed owner file included. A test that drops
//! a writer's lock (an interrupted writer) and expects the next run to find
//! it free must therefore not overlap another test thread's spawn: it holds
//! [`no_spawns`] for its body, and every spawn of this test binary goes
//! through [`output`] or [`status`], which wait for it.

use std::cell::Cell;
use std::io;
use std::path::Path;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

static SPAWNS: RwLock<()> = RwLock::new(());

thread_local! {
    /// Whether this thread holds [`no_spawns`] (its own spawns go ahead).
    static EXCLUSIVE: Cell<bool> = const { Cell::new(false) };
}

/// Held by a test whose lock files must be free once it drops them.
pub struct NoSpawns {
    _guard: RwLockWriteGuard<'static, ()>,
}

impl Drop for NoSpawns {
    fn drop(&mut self) {
        EXCLUSIVE.with(|e| e.set(false));
    }
}

/// No other thread of this test binary starts a process until the result is dropped.
pub fn no_spawns() -> NoSpawns {
    let guard = SPAWNS.write().unwrap_or_else(PoisonError::into_inner);
    EXCLUSIVE.with(|e| e.set(true));
    NoSpawns { _guard: guard }
}

fn spawning() -> Option<RwLockReadGuard<'static, ()>> {
    (!EXCLUSIVE.with(Cell::get)).then(|| SPAWNS.read().unwrap_or_else(PoisonError::into_inner))
}

/// `cmd.output()`, started outside any test's [`no_spawns`].
pub fn output(cmd: &mut Command) -> io::Result<Output> {
    let guard = spawning();
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    drop(guard);
    child?.wait_with_output()
}

/// `cmd.spawn()`, started outside any test's [`no_spawns`]: the caller
/// handles the child's pipes and waits for it.
#[allow(dead_code)] // not every binary that includes this file needs it
pub fn spawn(cmd: &mut Command) -> io::Result<std::process::Child> {
    let guard = spawning();
    let child = cmd.spawn();
    drop(guard);
    child
}

/// `cmd.status()`, started outside any test's [`no_spawns`].
#[allow(dead_code)] // not every binary that includes this file needs it
pub fn status(cmd: &mut Command) -> io::Result<ExitStatus> {
    let guard = spawning();
    let child = cmd.spawn();
    drop(guard);
    child?.wait()
}

/// The xtask binary run in `dir` for this checkout (`USCHED_ROOT`).
pub fn xtask_in(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xtask"));
    cmd.current_dir(dir).env("USCHED_ROOT", super::checkout());
    cmd
}

/// The xtask binary, offline, run in `dir` for this checkout, with traces
/// looked up in `dir` only (its cache in `dir/cache`, a mirror that does
/// not exist).
pub fn offline_xtask(dir: &Path) -> Command {
    let mut cmd = xtask_in(dir);
    cmd.env("TRACES_DIR", dir)
        .env("TRACES_CACHE", dir.join("cache"))
        .env(
            "TRACES_MIRROR",
            format!("file://{}", dir.join("no-mirror").display()),
        );
    cmd
}
