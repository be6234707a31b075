//! A real single-node Slurm cluster for tests: a private `munged`,
//! `slurmctld` and `slurmd`, all living in one fresh temporary directory.
//!
//! ```ignore
//! let Some(cluster) = Cluster::start().unwrap_or_else(|e| panic!("{e}")) else {
//!     return; // Slurm is not installed: the skip line is printed already
//! };
//! let id = cluster.submit(&["--wrap", "true"]).unwrap();
//! assert_eq!(cluster.wait_job(id, Duration::from_secs(60)).unwrap(), "COMPLETED");
//! ```
//!
//! * **Detection.** The programs ([`DAEMONS`], [`CLIENTS`]) are looked up in
//!   `/usr/sbin`, `/usr/bin`, `/usr/local/sbin`, `/usr/local/bin` and `PATH`,
//!   or only in the directories of `USCHED_SLURM_PATH` (`:`-separated) when
//!   that is set. When one is missing, or the test does not run as root,
//!   [`Cluster::start`] prints a `skipped: ...` line and returns `Ok(None)`,
//!   unless `REQUIRE_SLURM` is set (to anything but `0`): then it is an error.
//! * **Isolation.** `munged` runs as the `munge` user with its own key,
//!   socket, pid, seed and log files in the directory, and `slurm.conf` names
//!   that socket (`AuthInfo=socket=...`), so a system `munged` or Slurm is
//!   never used. The controller and node ports are free ports picked at
//!   start. Commands made by [`Cluster::command`] see no `SLURM_*`,
//!   `SBATCH_*`, ... variable of the caller, only `SLURM_CONF`.
//! * **Lifetime.** Dropping the [`Cluster`] cancels the jobs left, stops the
//!   three daemons by their process ids (SIGTERM, then SIGKILL after 10 s)
//!   and removes the directory, unless the thread is panicking (a failed
//!   test), the start failed or `USCHED_SLURM_KEEP` is set: then the
//!   directory is kept and its path printed, so the logs can be read. Clusters of one test binary run one at
//!   a time (a process-wide lock), so parallel tests cannot race for ports.
//! * **Job states.** There is no accounting storage (so no `sacct`); states
//!   come from `scontrol show job`, which keeps ended jobs for
//!   [`MIN_JOB_AGE`] seconds.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Read as _;
use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The daemons the harness starts.
pub const DAEMONS: [&str; 3] = ["slurmctld", "slurmd", "munged"];
/// The other programs it runs (`runuser` starts `munged` as `munge`).
pub const CLIENTS: [&str; 6] = [
    "sbatch", "squeue", "scontrol", "sinfo", "scancel", "runuser",
];
/// Seconds `slurmctld` keeps an ended job, so `scontrol show job` still
/// reports its final state.
pub const MIN_JOB_AGE: u32 = 600;
/// The partition every job goes to unless told otherwise.
const PARTITION: &str = "debug";
/// How long the node may take to become idle after the daemons start.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a daemon may take to exit after SIGTERM (and jobs to cancel).
const STOP_TIMEOUT: Duration = Duration::from_secs(10);
/// Pause between two polls of `sinfo`, `scontrol` or a process.
const POLL_EVERY: Duration = Duration::from_millis(200);
/// Lines of each log quoted in an error.
const LOG_TAIL: usize = 25;
/// Slurm job states after which a job never runs again.
const TERMINAL: [&str; 9] = [
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "PREEMPTED",
    "BOOT_FAIL",
    "DEADLINE",
    "OUT_OF_MEMORY",
];

/// One cluster at a time per test process.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
/// Tells apart the directories of successive clusters of one process.
static SEQUENCE: AtomicU32 = AtomicU32::new(0);

/// Absolute paths of the programs the harness runs, by name.
#[derive(Debug, Clone)]
pub struct Programs(BTreeMap<&'static str, PathBuf>);

/// Finds every program of [`DAEMONS`] and [`CLIENTS`] in `dirs` (first
/// match wins), or returns the names of those found nowhere.
pub fn find_programs(dirs: &[PathBuf]) -> Result<Programs, Vec<&'static str>> {
    let mut found = BTreeMap::new();
    let mut missing = Vec::new();
    for name in DAEMONS.into_iter().chain(CLIENTS) {
        let hit = dirs.iter().map(|d| d.join(name)).find(|p| is_executable(p));
        match hit {
            Some(path) => {
                found.insert(name, path);
            }
            None => missing.push(name),
        }
    }
    if missing.is_empty() {
        Ok(Programs(found))
    } else {
        Err(missing)
    }
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The directories searched: `USCHED_SLURM_PATH` alone when set, else the
/// usual system directories and `PATH`.
fn search_dirs() -> Vec<PathBuf> {
    if let Some(dirs) = std::env::var_os("USCHED_SLURM_PATH") {
        return std::env::split_paths(&dirs).collect();
    }
    let mut dirs: Vec<PathBuf> = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]
        .into_iter()
        .map(PathBuf::from)
        .collect();
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs
}

/// Whether `REQUIRE_SLURM` turns a skip into a failure.
fn slurm_required() -> bool {
    std::env::var("REQUIRE_SLURM").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Whether this process runs as root (the owner of `/proc/self`).
fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A running single-node cluster; see the module docs.
pub struct Cluster {
    dir: PathBuf,
    programs: Programs,
    cpus: usize,
    slurmctld: Option<Child>,
    slurmd: Option<Child>,
    munged: Option<u32>,
    keep: bool,
    _one_at_a_time: MutexGuard<'static, ()>,
}

impl Cluster {
    /// Starts a cluster and waits until its node is idle. `Ok(None)` when
    /// Slurm is not installed or the process is not root (a `skipped: ...`
    /// line is printed), unless `REQUIRE_SLURM` is set; `Err` carries the
    /// tail of the daemons' logs and the kept directory.
    pub fn start() -> Result<Option<Cluster>, String> {
        let skip = |why: String| {
            if slurm_required() {
                Err(format!("REQUIRE_SLURM is set, but {why}"))
            } else {
                eprintln!("skipped: {why}");
                Ok(None)
            }
        };
        let dirs = search_dirs();
        let programs = match find_programs(&dirs) {
            Ok(programs) => programs,
            Err(missing) => {
                let dirs = std::env::join_paths(&dirs).unwrap_or_default();
                return skip(format!(
                    "Slurm not installed (apt-get install slurm-wlm munge): no {} in {}",
                    missing.join(", "),
                    dirs.to_string_lossy()
                ));
            }
        };
        if !is_root() {
            return skip("the Slurm harness runs slurmd and munged, so it must run as root".into());
        }
        let guard = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        let dir = std::env::temp_dir().join(format!(
            "usched-slurm-{}-{}",
            std::process::id(),
            SEQUENCE.fetch_add(1, Ordering::Relaxed)
        ));
        let mut cluster = Cluster {
            dir,
            programs,
            cpus: std::thread::available_parallelism().map_or(1, usize::from),
            slurmctld: None,
            slurmd: None,
            munged: None,
            keep: false,
            _one_at_a_time: guard,
        };
        match cluster.boot() {
            Ok(()) => Ok(Some(cluster)),
            Err(e) => {
                cluster.keep = true;
                let logs = cluster.logs();
                Err(format!(
                    "the Slurm cluster did not start: {e}\n{logs}files kept in {}",
                    cluster.dir.display()
                ))
            }
        }
    }

    /// The cluster's directory: `slurm.conf`, logs, and the working
    /// directory of every [`Cluster::command`] (so of jobs submitted without
    /// `--chdir`). Tests may write their files here.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The default (and only) partition.
    pub fn partition(&self) -> &str {
        PARTITION
    }

    /// CPUs of the single node (what `nproc` says).
    pub fn cpus(&self) -> usize {
        self.cpus
    }

    /// A command running the Slurm program `program` (`sbatch`, `squeue`,
    /// ...) against this cluster: `SLURM_CONF` set, the caller's other
    /// Slurm variables removed, working directory [`Cluster::dir`].
    pub fn command(&self, program: &str) -> Command {
        let path = self.programs.0.get(program).cloned();
        let mut cmd = Command::new(path.unwrap_or_else(|| PathBuf::from(program)));
        for (key, _) in std::env::vars_os() {
            let key_text = key.to_string_lossy();
            let slurm = ["SLURM_", "SBATCH_", "SALLOC_", "SRUN_", "SQUEUE_", "SINFO_"]
                .iter()
                .any(|prefix| key_text.starts_with(prefix));
            if slurm {
                cmd.env_remove(&key);
            }
        }
        // xtask runs here, outside the checkout: it finds it through
        // USCHED_ROOT (and its job scripts pass it on as --root).
        cmd.env("SLURM_CONF", self.dir.join("slurm.conf"))
            .env("USCHED_ROOT", crate::common::checkout())
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        cmd
    }

    /// Runs `sbatch --parsable ARGS` and returns the job id, or `sbatch`'s
    /// error output (trimmed) when it refuses the job.
    pub fn submit(&self, args: &[&str]) -> Result<u64, String> {
        let out = run(self.command("sbatch").arg("--parsable").args(args))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        // `--parsable` prints "ID" or "ID;CLUSTER".
        let id = stdout.trim().split(';').next().unwrap_or_default();
        id.parse()
            .map_err(|_| format!("sbatch printed {:?}, expected a job id", stdout.trim()))
    }

    /// Waits until job `id` (every task, for an array) has ended and returns
    /// its state: `COMPLETED` when every task completed, else the first other
    /// final state (`FAILED`, `CANCELLED`, `TIMEOUT`, ...). `Err` on timeout
    /// (with the logs), or when `slurmctld` does not know the job.
    pub fn wait_job(&self, id: u64, timeout: Duration) -> Result<String, String> {
        let mut last = String::from("nothing yet");
        let ended = poll(timeout, || {
            let out = match run(self
                .command("scontrol")
                .args(["-o", "show", "job"])
                .arg(id.to_string()))
            {
                Ok(out) => out,
                Err(e) => return Some(Err(e)),
            };
            if out.status.success() {
                let states = job_states(&String::from_utf8_lossy(&out.stdout));
                last = states.join(",");
                return final_state(&states).map(Ok);
            }
            let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
            if err.contains("Invalid job id") {
                return Some(Err(format!(
                    "slurmctld does not know job {id}: never submitted, or purged \
                     {MIN_JOB_AGE} s after it ended ({err})"
                )));
            }
            last = err;
            None
        });
        ended.unwrap_or_else(|| {
            Err(format!(
                "job {id} did not end within {timeout:?} (last seen: {last})\n{}",
                self.logs()
            ))
        })
    }

    /// The last lines of the daemons' logs, for error messages.
    pub fn logs(&self) -> String {
        let mut text = String::new();
        for (log, stderr) in [
            ("log/slurmctld.log", "log/slurmctld.stderr"),
            ("log/slurmd.log", "log/slurmd.stderr"),
            ("munge/munged.log", "log/munged.stderr"),
        ] {
            // A daemon that died before opening its log wrote to stderr only.
            let Some((path, tail)) = [log, stderr].iter().find_map(|file| {
                let path = self.dir.join(file);
                tail(&path, LOG_TAIL).map(|t| (path, t))
            }) else {
                continue;
            };
            let _ = writeln!(
                text,
                "--- {} (last {LOG_TAIL} lines) ---\n{tail}",
                path.display()
            );
        }
        text
    }

    fn program(&self, name: &str) -> &Path {
        &self.programs.0[name]
    }

    /// Creates the directory, starts `munged`, writes `slurm.conf`, starts
    /// both Slurm daemons and waits until the node is idle.
    fn boot(&mut self) -> Result<(), String> {
        // A directory left by an earlier process with the same pid holds
        // stale pid files and state: start from nothing.
        if self.dir.exists() {
            fs::remove_dir_all(&self.dir).map_err(|e| io_error("remove", &self.dir, e))?;
        }
        for sub in ["munge", "state", "spool", "log"] {
            let path = self.dir.join(sub);
            fs::create_dir_all(&path).map_err(|e| io_error("create", &path, e))?;
        }
        self.start_munged()?;
        let host = short_hostname()?;
        let (ctld_port, node_port) = free_ports()?;
        let plugstack = self.dir.join("plugstack.conf");
        write(&plugstack, "")?;
        let conf = slurm_conf(&self.dir, &host, self.cpus, ctld_port, node_port);
        write(&self.dir.join("slurm.conf"), &conf)?;
        self.slurmctld = Some(self.spawn_daemon("slurmctld")?);
        self.slurmd = Some(self.spawn_daemon("slurmd")?);
        self.wait_idle()
    }

    /// Starts `munged` as the `munge` user with a fresh key; it forks once
    /// its socket is ready, and its pid is read from its pid file.
    fn start_munged(&mut self) -> Result<(), String> {
        let munge = self.dir.join("munge");
        let key = munge.join("munge.key");
        let mut secret = [0u8; 128];
        fs::File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut secret))
            .map_err(|e| io_error("read", Path::new("/dev/urandom"), e))?;
        fs::write(&key, secret).map_err(|e| io_error("write", &key, e))?;
        fs::set_permissions(&key, fs::Permissions::from_mode(0o600))
            .map_err(|e| io_error("chmod", &key, e))?;
        let chown = run(Command::new("chown")
            .args(["-R", "munge:munge"])
            .arg(&munge))?;
        if !chown.status.success() {
            return Err(format!(
                "chown -R munge:munge {} failed (is there a munge user?): {}",
                munge.display(),
                String::from_utf8_lossy(&chown.stderr).trim()
            ));
        }
        let pid_file = munge.join("munged.pid");
        let mut cmd = Command::new(self.program("runuser"));
        cmd.args(["-u", "munge", "--"])
            .arg(self.program("munged"))
            .arg(format!("--socket={}", munge.join("munge.socket").display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--pid-file={}", pid_file.display()))
            .arg(format!("--log-file={}", munge.join("munged.log").display()))
            .arg(format!(
                "--seed-file={}",
                munge.join("munged.seed").display()
            ))
            .stdin(Stdio::null());
        let out = run(&mut cmd)?;
        let stderr = self.dir.join("log/munged.stderr");
        write(&stderr, &String::from_utf8_lossy(&out.stderr))?;
        if !out.status.success() {
            return Err(format!("munged exited with {}", out.status));
        }
        let text = fs::read_to_string(&pid_file).map_err(|e| io_error("read", &pid_file, e))?;
        let pid = text.trim().parse().map_err(|_| {
            format!(
                "{} holds {:?}, expected a process id",
                pid_file.display(),
                text.trim()
            )
        })?;
        self.munged = Some(pid);
        Ok(())
    }

    /// Starts a Slurm daemon in the foreground (`-D`), so the child is the
    /// daemon; its output goes to `log/NAME.stderr`.
    fn spawn_daemon(&self, name: &str) -> Result<Child, String> {
        let path = self.dir.join(format!("log/{name}.stderr"));
        let file = fs::File::create(&path).map_err(|e| io_error("create", &path, e))?;
        let file2 = file.try_clone().map_err(|e| io_error("reopen", &path, e))?;
        self.command(name)
            .arg("-D")
            .arg("-f")
            .arg(self.dir.join("slurm.conf"))
            .stdout(file)
            .stderr(file2)
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))
    }

    /// Polls `sinfo` until the node is idle; fails early if a daemon exits.
    fn wait_idle(&mut self) -> Result<(), String> {
        let mut last = String::from("nothing yet");
        let outcome = poll(START_TIMEOUT, || {
            for (name, child) in [
                ("slurmctld", &mut self.slurmctld),
                ("slurmd", &mut self.slurmd),
            ] {
                if let Some(Ok(Some(status))) = child.as_mut().map(Child::try_wait) {
                    child.take();
                    return Some(Err(format!("{name} exited with {status}")));
                }
            }
            let out = match run(self.command("sinfo").args(["-h", "-o", "%T"])) {
                Ok(out) => out,
                Err(e) => return Some(Err(e)),
            };
            let text = String::from_utf8_lossy(if out.status.success() {
                &out.stdout
            } else {
                &out.stderr
            });
            last = text.trim().to_string();
            (out.status.success() && last == "idle").then_some(Ok(()))
        });
        outcome.unwrap_or_else(|| {
            Err(format!(
                "the node was not idle after {START_TIMEOUT:?} (sinfo -h -o %T says {last:?})"
            ))
        })
    }

    /// Cancels the jobs left, then stops the daemons (see the module docs).
    fn stop(&mut self) {
        if self.slurmctld.is_some() {
            self.cancel_all();
        }
        for child in [self.slurmd.take(), self.slurmctld.take()]
            .into_iter()
            .flatten()
        {
            stop_child(child);
        }
        if let Some(pid) = self.munged.take() {
            stop_pid(pid, "munged");
        }
    }

    /// Cancels every pending or running job and waits (bounded) until
    /// `squeue` lists none, so no job step outlives the cluster.
    fn cancel_all(&self) {
        let listed = || {
            run(self.command("squeue").args(["-h", "-o", "%A"]))
                .ok()
                .filter(|out| out.status.success())
                .map(|out| {
                    String::from_utf8_lossy(&out.stdout)
                        .split_whitespace()
                        .map(String::from)
                        .collect::<Vec<_>>()
                })
        };
        let Some(ids) = listed().filter(|ids| !ids.is_empty()) else {
            return;
        };
        let _ = run(self.command("scancel").args(&ids));
        let _ = poll(STOP_TIMEOUT, || {
            listed().is_none_or(|ids| ids.is_empty()).then_some(())
        });
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
        let asked = std::env::var_os("USCHED_SLURM_KEEP").is_some_and(|v| !v.is_empty());
        if self.keep || asked || std::thread::panicking() {
            eprintln!("slurm cluster files kept in {}", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// The `slurm.conf` of a one-node cluster living in `dir`.
fn slurm_conf(dir: &Path, host: &str, cpus: usize, ctld_port: u16, node_port: u16) -> String {
    let d = dir.display();
    format!(
        "\
# Written by the usched test harness (xtask/tests/tests/slurm/cluster.rs).
ClusterName=usched-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={node_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# Schedule batch jobs at once, not up to 3 s later (the default delay).
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge={MIN_JOB_AGE}
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
PlugStackConfig={d}/plugstack.conf
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName={PARTITION} Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"
    )
}

/// The `JobState=` of each record of `scontrol -o show job` (one line per
/// array task).
fn job_states(scontrol: &str) -> Vec<String> {
    scontrol
        .lines()
        .filter_map(|line| {
            line.split_whitespace()
                .find_map(|field| field.strip_prefix("JobState="))
                .map(String::from)
        })
        .collect()
}

/// The state of a job made of tasks in `states`, once all have ended:
/// `COMPLETED` if all completed, else the first other state.
fn final_state(states: &[String]) -> Option<String> {
    let ended = !states.is_empty() && states.iter().all(|s| TERMINAL.contains(&s.as_str()));
    ended.then(|| {
        let other = states.iter().find(|s| *s != "COMPLETED");
        other.unwrap_or(&states[0]).clone()
    })
}

/// Calls `probe` every [`POLL_EVERY`] until it returns `Some`, or `None`
/// once `timeout` has passed.
fn poll<T>(timeout: Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(done) = probe() {
            return Some(done);
        }
        if start.elapsed() >= timeout {
            return None;
        }
        std::thread::sleep(POLL_EVERY);
    }
}

/// SIGTERM, up to [`STOP_TIMEOUT`] to exit, then SIGKILL.
fn stop_child(mut child: Child) {
    signal("TERM", child.id());
    let exited = poll(STOP_TIMEOUT, || child.try_wait().ok().flatten());
    if exited.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Like [`stop_child`] for a process that is not our child (`munged`
/// forked away), checking its name first in case the pid was reused.
fn stop_pid(pid: u32, name: &str) {
    let comm = fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
    if comm.trim() != name {
        return;
    }
    signal("TERM", pid);
    if poll(STOP_TIMEOUT, || (!is_alive(pid)).then_some(())).is_none() {
        signal("KILL", pid);
    }
}

/// Whether `pid` is a live process (an unreaped zombie counts as dead).
fn is_alive(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which is in parentheses.
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !state.is_some_and(|s| s.starts_with('Z'))
    })
}

fn signal(name: &str, pid: u32) {
    let _ = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .stderr(Stdio::null())
        .status();
}

/// Runs `cmd` to completion, capturing its output.
fn run(cmd: &mut Command) -> Result<Output, String> {
    cmd.output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| io_error("write", path, e))
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> String {
    format!("cannot {what} {}: {e}", path.display())
}

/// The last `n` lines of a non-empty file.
fn tail(path: &Path, n: usize) -> Option<String> {
    let text = fs::read_to_string(path)
        .ok()
        .filter(|t| !t.trim().is_empty())?;
    let lines: Vec<&str> = text.lines().collect();
    Some(lines[lines.len().saturating_sub(n)..].join("\n"))
}

/// The host name `slurmd` uses to find its node: up to the first dot.
fn short_hostname() -> Result<String, String> {
    let path = Path::new("/proc/sys/kernel/hostname");
    let text = fs::read_to_string(path).map_err(|e| io_error("read", path, e))?;
    let host = text.trim().split('.').next().unwrap_or_default();
    if host.is_empty() {
        return Err("the host name is empty".into());
    }
    Ok(host.to_string())
}

/// Two distinct free TCP ports (both held while picked).
fn free_ports() -> Result<(u16, u16), String> {
    let bind = || {
        TcpListener::bind("0.0.0.0:0")
            .and_then(|l| Ok((l.local_addr()?.port(), l)))
            .map_err(|e| format!("cannot find a free port: {e}"))
    };
    let (a, _held_a) = bind()?;
    let (b, _held_b) = bind()?;
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_missing_from_the_search_path_are_named() {
        let bogus = std::env::temp_dir().join(format!("usched-no-slurm-{}", std::process::id()));
        let missing = find_programs(std::slice::from_ref(&bogus)).unwrap_err();
        let all: Vec<&str> = DAEMONS.into_iter().chain(CLIENTS).collect();
        assert_eq!(missing, all);
    }

    #[test]
    fn programs_are_found_in_the_first_directory_that_has_them() {
        let root = std::env::temp_dir().join(format!("usched-fake-slurm-{}", std::process::id()));
        let (first, second) = (root.join("a"), root.join("b"));
        fs::create_dir_all(&first).unwrap();
        fs::create_dir_all(&second).unwrap();
        for name in DAEMONS.into_iter().chain(CLIENTS) {
            for dir in [&first, &second] {
                fs::write(dir.join(name), "#!/bin/sh\n").unwrap();
                fs::set_permissions(dir.join(name), fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
        // Not executable in the first directory: skipped there.
        fs::set_permissions(first.join("munged"), fs::Permissions::from_mode(0o644)).unwrap();
        let programs = find_programs(&[first.clone(), second.clone()]).unwrap();
        assert_eq!(programs.0["slurmctld"], first.join("slurmctld"));
        assert_eq!(programs.0["munged"], second.join("munged"));
        fs::remove_file(second.join("sinfo")).unwrap();
        fs::remove_file(first.join("sinfo")).unwrap();
        assert_eq!(find_programs(&[first, second]).unwrap_err(), ["sinfo"]);
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_job_ends_when_every_task_has_ended() {
        let check = |states: &[&str], expected: Option<&str>| {
            let states: Vec<String> = states.iter().map(|s| s.to_string()).collect();
            assert_eq!(final_state(&states).as_deref(), expected, "{states:?}");
        };
        check(&[], None);
        check(&["PENDING"], None);
        check(&["COMPLETED", "RUNNING"], None);
        check(&["COMPLETED", "COMPLETING"], None);
        check(&["COMPLETED"], Some("COMPLETED"));
        check(&["COMPLETED", "COMPLETED"], Some("COMPLETED"));
        check(&["COMPLETED", "FAILED", "CANCELLED"], Some("FAILED"));
        check(&["TIMEOUT"], Some("TIMEOUT"));
    }

    #[test]
    fn job_states_are_read_from_each_record() {
        let text = "JobId=3 ArrayJobId=1 ArrayTaskId=0 JobName=wrap JobState=COMPLETED Reason=None\n\
                    JobId=1 ArrayJobId=1 ArrayTaskId=3 JobName=wrap JobState=RUNNING Reason=None\n";
        assert_eq!(job_states(text), ["COMPLETED", "RUNNING"]);
        assert!(job_states("").is_empty());
    }

    #[test]
    fn the_config_points_every_path_into_the_directory() {
        let conf = slurm_conf(Path::new("/tmp/x"), "node", 2, 7001, 7002);
        for line in [
            "AuthInfo=socket=/tmp/x/munge/munge.socket",
            "SlurmctldHost=node(127.0.0.1)",
            "SlurmctldPort=7001",
            "SlurmdPort=7002",
            "NodeName=node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN",
            "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
        ] {
            assert!(
                conf.lines().any(|l| l == line),
                "{line} missing from\n{conf}"
            );
        }
        for line in conf.lines().filter(|l| {
            ["File=", "Dir=", "Location=", "Config="]
                .iter()
                .any(|k| l.contains(k))
        }) {
            assert!(
                line.contains("=/tmp/x/"),
                "{line} points outside the directory"
            );
        }
    }
}
