//! The vector form of the scheduling environment: `num_envs` copies of
//! [`BatchCore`] stepped in one call, optionally split in parts over
//! worker threads kept for the environment's life, their observations and
//! masks written into the numpy arrays handed to Python. Autoreset is
//! Gymnasium's "next step" mode: a copy whose episode ended is reset by the
//! next call to `step`, which ignores its action and returns its first
//! observation with reward 0.
//!
//! A worker owns its part of the copies and its own output rows; between
//! calls it spins briefly, then yields, then sleeps, so a training loop's
//! back-to-back calls do not pay for waking a sleeping thread (tens of
//! microseconds on a virtual machine: as much as stepping 30 copies).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::batch_env::{BatchCore, FEATURES};
use crate::convert::{error, int, int_arg, int_in, value_error};

/// The most copies a vector environment may have.
pub(crate) const MAX_NUM_ENVS: u64 = 65_536;
/// The most `num_envs × (episode + window)`: what the copies' buffers and
/// the returned rows grow with (about 100 bytes each).
pub(crate) const MAX_VEC_SIZE: u64 = 1 << 24;
/// The most threads a vector environment may step its copies on.
pub(crate) const MAX_THREADS: u64 = 256;

/// What one copy returns from a call: its reward and whether it ended.
type Outcome = Result<(f64, bool), String>;

/// New observations (`num_envs × window·FEATURES`) and masks.
type Observed<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>);

/// Gymnasium's vector step: observations, rewards, terminations,
/// truncations and the info dict.
type VecStep<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

/// What a call does to every copy.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// Start an episode, copy `i` seeded `seed + i` (or the draws going on).
    Reset(Option<u64>),
    /// Act on each copy's action (a copy that ended is reset instead).
    Step,
}

/// Contiguous copies, from copy `first` on, with their actions and output
/// rows.
struct Part {
    first: usize,
    envs: Vec<BatchCore>,
    /// Whether each copy ended at the last step (it resets at the next).
    ended: Vec<bool>,
    actions: Vec<usize>,
    obs: Vec<f32>,
    mask: Vec<i8>,
    out: Vec<Outcome>,
}

impl Part {
    fn new(first: usize, envs: Vec<BatchCore>, window: usize) -> Part {
        let n = envs.len();
        Part {
            first,
            ended: vec![false; n],
            actions: vec![0; n],
            obs: vec![0.0; n * window * FEATURES],
            mask: vec![0; n * window],
            out: vec![Ok((0.0, false)); n],
            envs,
        }
    }

    /// Does `task` to every copy, writing into `obs` and `mask` (this
    /// part's rows) and `out`.
    fn run(&mut self, task: Task, obs: &mut [f32], mask: &mut [i8], out: &mut [Outcome]) {
        let window = self.envs.first().map_or(0, BatchCore::window);
        let all = self
            .envs
            .iter_mut()
            .zip(self.ended.iter_mut())
            .zip(&self.actions)
            .zip(obs.chunks_mut(window * FEATURES))
            .zip(mask.chunks_mut(window))
            .zip(out.iter_mut())
            .enumerate();
        for (k, (((((env, ended), &action), o), m), out)) in all {
            *out = (|| {
                let result = match task {
                    Task::Reset(seed) => {
                        env.begin(seed.map(|s| s.wrapping_add((self.first + k) as u64)), None)?;
                        *ended = false;
                        (0.0, false)
                    }
                    Task::Step if *ended => {
                        env.begin(None, None)?;
                        *ended = false;
                        (0.0, false)
                    }
                    Task::Step => {
                        let (r, done) = env.act(action)?;
                        *ended = done;
                        (r, done)
                    }
                };
                env.write_obs(o, m);
                Ok(result)
            })();
        }
    }

    /// [`Part::run`] into the part's own rows (a worker's).
    fn run_own(&mut self, task: Task) {
        let (mut obs, mut mask, mut out) = (
            std::mem::take(&mut self.obs),
            std::mem::take(&mut self.mask),
            std::mem::take(&mut self.out),
        );
        self.run(task, &mut obs, &mut mask, &mut out);
        (self.obs, self.mask, self.out) = (obs, mask, out);
    }
}

/// What the calling thread and a worker share.
struct Shared {
    part: Mutex<Part>,
    task: Mutex<Task>,
    /// Calls handed out and calls finished (equal: the worker is idle).
    go: AtomicU64,
    done: AtomicU64,
    stop: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A worker never panics holding a lock; if one did, its data is still
    // whole (each copy is written as a unit).
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A worker thread and its part.
struct Worker {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    fn start(part: Part, name: String) -> Result<Worker, String> {
        let shared = Arc::new(Shared {
            part: Mutex::new(part),
            task: Mutex::new(Task::Step),
            go: AtomicU64::new(0),
            done: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        let s = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name(name)
            .spawn(move || work(&s))
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        Ok(Worker {
            shared,
            handle: Some(handle),
        })
    }

    /// Waits, spinning, until the worker has done every call handed out.
    fn wait(&self) -> Result<(), String> {
        let goal = self.shared.go.load(Ordering::Acquire);
        let mut spins = 0u32;
        while self.shared.done.load(Ordering::Acquire) != goal {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(4096)
                && self.handle.as_ref().is_none_or(JoinHandle::is_finished)
            {
                return Err("a worker thread of the vector environment stopped".into());
            }
            std::hint::spin_loop();
        }
        Ok(())
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        if let Some(handle) = self.handle.take() {
            handle.thread().unpark();
            let _ = handle.join();
        }
    }
}

/// A worker's loop: waits for a call (spinning, then yielding, then
/// sleeping a millisecond at a time), does it, reports it done.
fn work(shared: &Shared) {
    let mut seen = 0;
    loop {
        let mut idle = 0u32;
        loop {
            if shared.stop.load(Ordering::Acquire) {
                return;
            }
            let go = shared.go.load(Ordering::Acquire);
            if go != seen {
                seen = go;
                break;
            }
            idle = idle.saturating_add(1);
            if idle < 50_000 {
                std::hint::spin_loop();
            } else if idle < 60_000 {
                std::thread::yield_now();
            } else {
                std::thread::park_timeout(Duration::from_millis(1));
            }
        }
        let task = *lock(&shared.task);
        lock(&shared.part).run_own(task);
        shared.done.store(seen, Ordering::Release);
    }
}

/// `num_envs` scheduling environments stepped together.
#[pyclass(module = "usched._usched")]
pub(crate) struct BatchVec {
    /// The calling thread's part (the first copies).
    own: Part,
    /// The other parts, one per worker thread.
    workers: Vec<Worker>,
    num_envs: usize,
    window: usize,
    /// Whether `reset` has been called.
    started: bool,
    /// Whether `close` has been called: the workers are stopped and every
    /// call but `close` is refused.
    closed: bool,
}

impl BatchVec {
    /// Refuses a call after `close`.
    fn open(&self) -> PyResult<()> {
        if self.closed {
            return Err(error(
                "the vector environment is closed (its worker threads are stopped); make a new one",
            ));
        }
        Ok(())
    }

    /// Does `task` to every copy: the workers' parts handed out, the
    /// calling thread's done meanwhile (with the GIL released), then the
    /// workers' rows copied in. Returns the observations, the masks and
    /// the outcomes.
    fn call<'py>(
        &mut self,
        py: Python<'py>,
        task: Task,
    ) -> PyResult<(Observed<'py>, Vec<Outcome>)> {
        let (n, window) = (self.num_envs, self.window);
        let obs = PyArray2::<f32>::zeros(py, [n, window * FEATURES], false);
        let mask = PyArray2::<i8>::zeros(py, [n, window], false);
        let mut out: Vec<Outcome> = vec![Ok((0.0, false)); n];
        {
            let mut o = obs.readwrite();
            let mut m = mask.readwrite();
            let (o, m) = (o.as_slice_mut()?, m.as_slice_mut()?);
            let (own, workers) = (&mut self.own, &self.workers);
            py.detach(|| -> Result<(), String> {
                for w in workers {
                    *lock(&w.shared.task) = task;
                    w.shared.go.fetch_add(1, Ordering::AcqRel);
                    if let Some(h) = &w.handle {
                        h.thread().unpark();
                    }
                }
                let k = own.envs.len();
                own.run(
                    task,
                    &mut o[..k * window * FEATURES],
                    &mut m[..k * window],
                    &mut out[..k],
                );
                for w in workers {
                    w.wait()?;
                    let p = lock(&w.shared.part);
                    let (from, len) = (p.first, p.envs.len());
                    o[from * window * FEATURES..(from + len) * window * FEATURES]
                        .copy_from_slice(&p.obs);
                    m[from * window..(from + len) * window].copy_from_slice(&p.mask);
                    out[from..from + len].clone_from_slice(&p.out);
                }
                Ok(())
            })
            .map_err(error)?;
        }
        Ok(((obs, mask), out))
    }
}

#[pymethods]
impl BatchVec {
    /// Pickling is refused with a `TypeError` that says what to pickle
    /// instead.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::convert::not_picklable(
            "BatchSchedulingVecEnv",
            crate::convert::PICKLE_THE_WORKLOAD,
        ))
    }

    /// `num_envs` copies of `core` (they share its job list), split in
    /// `min(threads, num_envs)` contiguous parts of sizes differing by at
    /// most one: the calling thread steps the first, a worker thread kept
    /// for the environment's life each other one.
    #[new]
    #[pyo3(signature = (core, num_envs, *, threads = None))]
    fn new(
        core: &BatchCore,
        num_envs: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let window = core.window();
        // Each copy holds its episode's and its window's scratch; the
        // calls return `num_envs × window` rows.
        let per_copy = (core.episode_len() + window) as u64;
        let most = (MAX_VEC_SIZE / per_copy).clamp(1, MAX_NUM_ENVS);
        let num_envs = int_in(
            "num_envs",
            num_envs,
            1,
            most,
            &format!(
                " (at most {MAX_NUM_ENVS} copies, and num_envs × (episode + window) at most \
                 {MAX_VEC_SIZE})"
            ),
        )? as usize;
        let threads = match threads {
            Some(t) => int_arg("threads", t, 1, MAX_THREADS)? as usize,
            None => 1,
        };
        // `min(threads, num_envs)` parts whose sizes differ by at most one
        // (the first `extra` one larger), so every thread asked for steps
        // copies, up to one thread per copy.
        let count = threads.min(num_envs);
        let (base, extra) = (num_envs / count, num_envs % count);
        let mut parts = (0..count).map(|i| {
            let first = i * base + i.min(extra);
            let len = base + usize::from(i < extra);
            Part::new(first, vec![core.clone(); len], window)
        });
        let own = parts.next().expect("at least one copy");
        let workers = parts
            .enumerate()
            .map(|(i, p)| Worker::start(p, format!("usched-vec-{}", i + 1)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(error)?;
        Ok(BatchVec {
            own,
            workers,
            num_envs,
            window,
            started: false,
            closed: false,
        })
    }

    /// Stops the worker threads (joined before it returns) and ends the
    /// environment: every later call but `close` is refused. Gymnasium's
    /// `close` calls it; closing twice is fine.
    fn close(&mut self) {
        self.closed = true;
        // Dropping a worker stops and joins its thread.
        self.workers.clear();
    }

    /// Copies.
    fn __len__(&self) -> usize {
        self.num_envs
    }

    /// Threads stepping the copies (1: the calling thread alone).
    #[getter]
    fn threads(&self) -> usize {
        1 + self.workers.len()
    }

    /// Starts an episode in every copy; copy `i` is seeded `seed + i`.
    /// Returns the observations (`num_envs × window·8` float32) and the
    /// masks (`num_envs × window` int8).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Observed<'py>> {
        self.open()?;
        let seed = seed.map(|s| int("seed", s)).transpose()?;
        self.started = true;
        let (observed, out) = self.call(py, Task::Reset(seed))?;
        for r in out {
            r.map_err(error)?;
        }
        Ok(observed)
    }

    /// Gymnasium's vector `step` (`actions`: one int64 per copy). A copy
    /// that ended at the last step is reset instead. Returns the
    /// observations, rewards, terminations, truncations and the info dict
    /// (`action_mask`). An action outside the rows raises `ValueError`
    /// naming the copy.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<VecStep<'py>> {
        self.open()?;
        let (n, window) = (self.num_envs, self.window);
        if !self.started {
            return Err(error("no episode yet: call reset first"));
        }
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(error(format!(
                "{} actions for {n} environments",
                actions.len()
            )));
        }
        for (i, &a) in actions.iter().enumerate() {
            if usize::try_from(a).map_or(true, |a| a >= window) {
                return Err(value_error(format!(
                    "action {a} of environment {i} is outside Discrete({window})"
                )));
            }
        }
        // Checked above: every action is a row index.
        let act = |i: usize| actions[i] as usize;
        for (k, a) in self.own.actions.iter_mut().enumerate() {
            *a = act(k);
        }
        for w in &self.workers {
            let mut p = lock(&w.shared.part);
            let first = p.first;
            for (k, a) in p.actions.iter_mut().enumerate() {
                *a = act(first + k);
            }
        }
        let ((obs, mask), out) = self.call(py, Task::Step)?;
        let mut rewards = Vec::with_capacity(n);
        let mut done = Vec::with_capacity(n);
        for r in out {
            let (reward, d) = r.map_err(error)?;
            rewards.push(reward);
            done.push(d);
        }
        let info = PyDict::new(py);
        info.set_item(intern!(py, "action_mask"), mask)?;
        Ok((
            obs,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, done),
            PyArray1::zeros(py, n, false),
            info,
        ))
    }
}
