//! The core of `usched/BatchScheduling-v0`: pick-a-job scheduling on a
//! window of a trace, with SchedGym's dynamics so that results compare
//! (docs/PYTHON.md, "The scheduling environment", says what each step does
//! and where we differ on purpose).
//!
//! The trace is read as SchedGym reads it: processors are the larger of
//! the allocated and requested counts, a missing requested time is the run
//! time, a missing run time is 10 s and a run time of 0 drops the job,
//! jobs in job-number order. An episode is `episode` consecutive jobs from
//! a start the seed draws (uniform in `[episode, n − episode − 2]`). The
//! agent sees up to `window` waiting jobs, `FEATURES` numbers each, and
//! picks one; if it does not fit, time runs event by event (arrivals of
//! the episode's jobs first, then ends) until it does — with backfilling
//! on, waiting jobs that fit now and would end by their estimates before
//! the picked job's reservation start meanwhile, in submit order. An
//! action on an empty row skips up to 360 s. When nothing waits, time runs
//! to the next arrival and one job is admitted. The episode ends when
//! every job of the window has started.

use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::convert::{action_index, error, int, int_arg, int_in, value_error};
use swf_io::Estimate;

use crate::env_jobs::{EnvJob, MAX_WAIT, TOP, norm, ranked, schedgym_jobs, sort_stably};
use crate::workload::Workload;

/// Numbers per visible job.
pub(crate) const FEATURES: usize = 8;
/// An empty row (SchedGym's padding).
const PADDING: [f32; FEATURES] = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];

/// SchedGym's skip: an action on an empty row moves time this far at most.
const SKIP: i64 = 360;

/// The most rows (`window`) an observation may have: 65 536 rows of
/// `FEATURES` float32 are 2 MiB per observation.
pub(crate) const MAX_WINDOW: usize = 65_536;

/// Where the episode is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No `reset` yet.
    Fresh,
    /// Jobs are left to start.
    Running,
    /// Every job of the window has started: `reset` starts the next.
    Ended,
}

/// What the reward measures at the episode's end (or per step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reward {
    /// Minus the mean bounded slowdown (SchedGym's default).
    Bsld,
    /// Minus the mean wait (s).
    Wait,
    /// Minus the mean turnaround (s).
    Turnaround,
    /// Utilisation of the machine over the episode (0 to 1).
    Utilization,
}

/// The scheduling environment's state; Python wraps it in a
/// `gymnasium.Env`.
#[pyclass(module = "usched._usched")]
#[derive(Clone)]
pub(crate) struct BatchCore {
    jobs: std::sync::Arc<Vec<EnvJob>>,
    capacity: u32,
    window: usize,
    episode: usize,
    backfill: bool,
    reward: Reward,
    shaping: bool,
    bound: i64,
    rng: ChaCha8Rng,
    // The episode.
    phase: Phase,
    start: usize,
    end: usize,
    next: usize,
    now: i64,
    free: u32,
    /// Waiting jobs (indices), in the order SchedGym's list holds them.
    queue: Vec<usize>,
    /// Running jobs (indices), in the order SchedGym's list holds them.
    running: Vec<usize>,
    /// Start times of the window's jobs.
    started: Vec<Option<i64>>,
    /// The episode's score so far, each job's term added as it starts.
    total: f64,
    /// The visible jobs of the last observation.
    visible: Vec<usize>,
    /// Scratch for choosing them: the shortest jobs, and which of the
    /// window's jobs are already visible.
    shortest: Vec<usize>,
    seen: Vec<bool>,
    /// Sum of the per-step rewards handed out (shaping).
    shaped: f64,
    /// Scratch for the observation and the mask, the waiting jobs
    /// (backfilling) and the running jobs' estimated ends (reservations):
    /// a decision allocates nothing.
    obs: Vec<f32>,
    mask: Vec<i8>,
    scratch: Vec<usize>,
    ends: Vec<(i64, u32)>,
    /// Scratch for sorting the queue (see [`sort_stably`]).
    keys: Vec<u64>,
    copy: Vec<usize>,
}

impl BatchCore {
    fn fits(&self, j: usize) -> bool {
        self.jobs[j].procs <= self.free
    }

    fn end_of(&self, r: usize) -> i64 {
        // Run times are within `load`'s limits, so this cannot overflow;
        // saturating keeps a wrong order impossible all the same.
        self.started[r - self.start]
            .unwrap_or(self.now)
            .saturating_add(self.jobs[r].run)
    }

    /// Starts waiting job `j` now.
    fn start_job(&mut self, j: usize) {
        let job = self.jobs[j];
        self.free -= job.procs;
        self.started[j - self.start] = Some(self.now);
        // Kept in order of actual end, a new job after those ending at the
        // same time: the order SchedGym's stable sorts give its list.
        let end = self.now.saturating_add(job.run);
        let at = self.running.partition_point(|&r| self.end_of(r) <= end);
        self.running.insert(at, j);
        if let Some(p) = self.queue.iter().position(|&q| q == j) {
            self.queue.remove(p);
        }
        self.total += self.term(j, self.now) / self.episode as f64;
    }

    /// Job `j`'s term of the score, started at `at`.
    fn term(&self, j: usize, at: i64) -> f64 {
        let job = self.jobs[j];
        let wait = at - job.submit;
        match self.reward {
            Reward::Bsld => {
                let r = (wait + job.run) as f64 / job.run.max(self.bound) as f64;
                -r.max(1.0)
            }
            Reward::Wait => -(wait as f64),
            Reward::Turnaround => -((wait + job.run) as f64),
            // Utilisation is computed at the end.
            Reward::Utilization => 0.0,
        }
    }

    /// The earliest actual end among the running jobs (kept in that order).
    fn next_release(&self) -> Option<i64> {
        self.running.first().map(|&r| self.end_of(r))
    }

    /// One event: the next arrival of the window if it comes no later than
    /// the next end, else that end.
    fn advance(&mut self) {
        let release = self.next_release();
        let arrival = (self.next < self.end).then(|| self.jobs[self.next].submit);
        let arrives_first = match (arrival, release) {
            (Some(a), Some(r)) => a <= r,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if let (true, Some(a)) = (arrives_first, arrival) {
            self.now = self.now.max(a);
            self.queue.push(self.next);
            self.next += 1;
        } else if let Some(r) = release {
            self.now = self.now.max(r);
            let j = self.running.remove(0);
            self.free += self.jobs[j].procs;
        }
    }

    /// Runs time until job `j` fits, backfilling meanwhile if asked.
    fn wait_for(&mut self, j: usize) {
        if self.fits(j) {
            return;
        }
        // The reservation of `j`, computed once.
        let shadow = self.backfill.then(|| self.shadow(j));
        while !self.fits(j) {
            if let Some(shadow) = shadow {
                self.sort_queue_by_submit();
                let mut waiting = std::mem::take(&mut self.scratch);
                waiting.clear();
                waiting.extend_from_slice(&self.queue);
                for &q in &waiting {
                    if self.fits(q) && self.now.saturating_add(self.jobs[q].request) < shadow {
                        self.start_job(q);
                    }
                }
                self.scratch = waiting;
            }
            if self.running.is_empty() && self.next >= self.end {
                break;
            }
            self.advance();
        }
    }

    /// Job `j`'s reservation: when enough processors come free if the
    /// running jobs end at their estimates.
    fn shadow(&mut self, j: usize) -> i64 {
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        ends.extend(self.running.iter().map(|&r| {
            (
                self.started[r - self.start]
                    .unwrap_or(self.now)
                    .saturating_add(self.jobs[r].request),
                self.jobs[r].procs,
            )
        }));
        // Stable among equal ends, without the stable sort's buffer.
        ends.sort_unstable_by_key(|&(t, p)| (t, p));
        let mut free = self.free;
        let mut at = self.now;
        for &(t, p) in &ends {
            free += p;
            at = t;
            if free >= self.jobs[j].procs {
                break;
            }
        }
        self.ends = ends;
        at
    }

    fn sort_queue_by_submit(&mut self) {
        let jobs = &self.jobs;
        if !self.queue.is_sorted_by_key(|&q| jobs[q].ranks[0]) {
            sort_stably(&mut self.queue, &mut self.keys, &mut self.copy, |q| {
                jobs[q].ranks[0]
            });
        }
    }

    /// Brings one job into the queue if none waits: `false` once the
    /// episode has no job left to start.
    fn fill(&mut self) -> bool {
        if !self.queue.is_empty() {
            return true;
        }
        if self.next >= self.end {
            return false;
        }
        loop {
            let release = self.next_release();
            let a = self.jobs[self.next].submit;
            match release {
                Some(r) if a > r => {
                    self.now = self.now.max(r);
                    let j = self.running.remove(0);
                    self.free += self.jobs[j].procs;
                }
                _ => {
                    self.now = self.now.max(a);
                    self.queue.push(self.next);
                    self.next += 1;
                    return true;
                }
            }
        }
    }

    /// An action on an empty row: time moves up to `SKIP` seconds, or by
    /// one event if one comes sooner.
    fn skip(&mut self) {
        let release = self.next_release();
        if self.next >= self.end && release.is_none() {
            return;
        }
        let t = self.now.saturating_add(SKIP);
        // SchedGym reads the next job's submit time even past the window.
        let arrival = self.jobs.get(self.next).map_or(i64::MAX, |j| j.submit);
        if t < arrival.min(release.unwrap_or(i64::MAX)) {
            self.now = t;
        } else {
            self.advance();
        }
    }

    /// Which jobs are visible, in row order (SchedGym's rule: the queue in
    /// submit order, or past `window` jobs an interleave of the shortest
    /// and the smallest).
    fn choose_visible(&mut self) {
        self.sort_queue_by_submit();
        self.visible.clear();
        if self.queue.len() <= self.window {
            self.visible.extend_from_slice(&self.queue);
            return;
        }
        // SchedGym sorts the queue (stably) by F1, then F2, then the SJF key
        // (requested time, submit): one stable sort by the SJF key, ties by
        // F2, then by F1, gives the same order.
        let jobs = &self.jobs;
        sort_stably(&mut self.queue, &mut self.keys, &mut self.copy, |q| {
            jobs[q].ranks[1]
        });
        self.shortest.clear();
        self.shortest.extend_from_slice(&self.queue[..self.window]);
        // Then by (processors, submit), which leaves the queue in that order.
        sort_stably(&mut self.queue, &mut self.keys, &mut self.copy, |q| {
            jobs[q].ranks[2]
        });
        let mut i = 0;
        while self.visible.len() < self.window {
            for q in [self.shortest[i], self.queue[i]] {
                let seen = &mut self.seen[q - self.start];
                if self.visible.len() < self.window && !*seen {
                    *seen = true;
                    self.visible.push(q);
                }
            }
            i += 1;
        }
        for &q in &self.visible {
            self.seen[q - self.start] = false;
        }
    }

    /// Writes the observation (`window × FEATURES` values) and the action
    /// mask (one flag per row) of the current state.
    pub(crate) fn write_obs(&mut self, obs: &mut [f32], mask: &mut [i8]) {
        self.choose_visible();
        let rows = self.visible.len();
        for (out, &j) in obs.chunks_exact_mut(FEATURES).zip(&self.visible) {
            let job = &self.jobs[j];
            out[0] = norm((self.now - job.submit) as f64, MAX_WAIT) as f32;
            out[1..7].copy_from_slice(&job.fixed);
            out[7] = if job.procs <= self.free {
                TOP as f32
            } else {
                1e-5
            };
        }
        mask[..rows].fill(1);
        mask[rows..].fill(0);
        for out in obs[rows * FEATURES..].chunks_exact_mut(FEATURES) {
            out.copy_from_slice(&PADDING);
        }
    }

    /// The observation and the action mask, as new numpy arrays (copied
    /// from the core's scratch rows, which nothing else sees).
    fn observe<'py>(&mut self, py: Python<'py>) -> Observed<'py> {
        let mut obs = std::mem::take(&mut self.obs);
        let mut mask = std::mem::take(&mut self.mask);
        self.write_obs(&mut obs, &mut mask);
        let out = (
            PyArray1::from_slice(py, &obs),
            PyArray1::from_slice(py, &mask),
        );
        self.obs = obs;
        self.mask = mask;
        out
    }

    /// Starts an episode (see `reset`).
    pub(crate) fn begin(&mut self, seed: Option<u64>, start: Option<u64>) -> Result<(), String> {
        if let Some(seed) = seed {
            self.rng = ChaCha8Rng::seed_from_u64(seed);
        }
        // The constructor checked `jobs.len() >= 2 * episode + 2`.
        let (low, high) = (self.episode, self.jobs.len() - self.episode - 2);
        let start = match start {
            Some(s)
                if usize::try_from(s)
                    .ok()
                    .and_then(|s| s.checked_add(self.episode))
                    .is_none_or(|end| end >= self.jobs.len()) =>
            {
                return Err(format!(
                    "start is {s}, but an episode of {} jobs must start below {}",
                    self.episode,
                    self.jobs.len() - self.episode
                ));
            }
            // Checked above: `s` is an index.
            Some(s) => s as usize,
            None => self.rng.random_range(low..=high),
        };
        self.phase = Phase::Running;
        self.start = start;
        self.end = start + self.episode;
        self.next = start + 1;
        self.now = self.jobs[start].submit;
        self.free = self.capacity;
        self.queue.clear();
        self.queue.push(start);
        self.running.clear();
        self.started.iter_mut().for_each(|s| *s = None);
        self.total = 0.0;
        self.shaped = 0.0;
        Ok(())
    }

    /// Acts on row `action` (see `step`): the reward and whether the
    /// episode ended.
    pub(crate) fn act(&mut self, action: usize) -> Result<(f64, bool), String> {
        if action >= self.window {
            return Err(format!(
                "action {action} is outside the {} rows",
                self.window
            ));
        }
        match self.phase {
            Phase::Fresh => return Err("no episode yet: call reset first".into()),
            Phase::Ended => return Err("the episode has ended: call reset".into()),
            Phase::Running => {}
        }
        let before = self.score();
        let done = match self.visible.get(action).copied() {
            Some(j) => {
                self.wait_for(j);
                self.start_job(j);
                !self.fill()
            }
            None => {
                self.skip();
                false
            }
        };
        if done {
            self.phase = Phase::Ended;
        }
        let reward = if done {
            let total = self.score();
            if self.shaping {
                total - self.shaped
            } else {
                total
            }
        } else if self.shaping {
            let r = self.score() - before;
            self.shaped += r;
            r
        } else {
            0.0
        };
        Ok((reward, done))
    }

    /// Rows the observation has.
    pub(crate) fn window(&self) -> usize {
        self.window
    }

    /// Jobs per episode.
    pub(crate) fn episode_len(&self) -> usize {
        self.episode
    }

    /// The episode's score so far: the sum of the started jobs' terms (in
    /// start order), or the utilisation.
    fn score(&self) -> f64 {
        if self.reward != Reward::Utilization {
            return self.total;
        }
        let first = self.jobs[self.start].submit;
        let (mut busy, mut last) = (0f64, first);
        for (k, s) in self.started.iter().enumerate() {
            if let Some(s) = s {
                let job = self.jobs[self.start + k];
                busy += job.run as f64 * f64::from(job.procs);
                last = last.max(s.saturating_add(job.run));
            }
        }
        if last > first {
            busy / (f64::from(self.capacity) * (last - first) as f64)
        } else {
            0.0
        }
    }
}

/// A new observation and action mask.
type Observed<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// Gymnasium's step: observation, reward, terminated, truncated, info.
type EnvStep<'py> = (
    Bound<'py, PyArray1<f32>>,
    f64,
    bool,
    bool,
    Bound<'py, PyDict>,
);

#[pymethods]
impl BatchCore {
    /// Pickling is refused with a `TypeError` that says what to pickle
    /// instead.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::convert::not_picklable(
            "BatchSchedulingEnv",
            crate::convert::PICKLE_THE_WORKLOAD,
        ))
    }

    #[new]
    #[pyo3(signature = (workload, *, window = None, episode = None, backfill = false, reward = "bsld", shaping = false, bsld_bound = None, estimate = None))]
    #[allow(clippy::too_many_arguments)] // keyword arguments in Python
    fn new(
        workload: &Workload,
        window: Option<&Bound<'_, PyAny>>,
        episode: Option<&Bound<'_, PyAny>>,
        backfill: bool,
        reward: &str,
        shaping: bool,
        bsld_bound: Option<&Bound<'_, PyAny>>,
        estimate: Option<&str>,
    ) -> PyResult<Self> {
        let window = match window {
            Some(w) => int_arg("window", w, 1, MAX_WINDOW as u64)? as usize,
            None => 128,
        };
        let bound = match bsld_bound {
            // 0 (or 1): plain slowdown, no bound.
            Some(b) => int_arg("bsld_bound", b, 0, profile::MAX_DURATION as u64)? as i64,
            None => 10,
        };
        // What the agent sees and backfilling trusts: the trace's requested
        // times (SchedGym's), or the run times. Unless given, as the
        // workload was loaded.
        let loaded = match workload.estimate {
            Estimate::Requested => Some(false),
            Estimate::Actual => Some(true),
            _ => None,
        };
        let exact = match (estimate, loaded) {
            // `load`'s default is no choice to override; `actual` is.
            (Some("requested"), Some(true)) => {
                return Err(value_error(
                    "estimate is 'requested', but the workload was loaded with \
                     estimate='actual'; give estimate='actual' or leave it out",
                ));
            }
            (Some("requested"), _) => false,
            (Some("actual"), _) => true,
            (None, Some(exact)) => exact,
            (None, None) => {
                return Err(value_error(
                    "the workload was loaded with an under-estimate; this environment takes \
                     estimate='requested' or 'actual': load it with one of those",
                ));
            }
            (Some(other), _) => {
                return Err(error(format!(
                    "estimate is '{other}', expected requested or actual"
                )));
            }
        };
        let reward = match reward {
            "bsld" => Reward::Bsld,
            "wait" => Reward::Wait,
            "turnaround" => Reward::Turnaround,
            "utilization" => Reward::Utilization,
            other => {
                return Err(error(format!(
                    "reward is '{other}', expected bsld, wait, turnaround or utilization"
                )));
            }
        };
        let capacity = workload.jobs.capacity;
        let (jobs, max) = match &workload.records {
            // Read as SchedGym reads them, with `load`'s range checks and
            // its machine (see `schedgym_jobs`).
            Some(records) => {
                let (jobs, max) = schedgym_jobs(records, capacity);
                (jobs.into_iter().map(|(_, j)| j).collect::<Vec<_>>(), max)
            }
            // No records (a stand-in, a Lublin99 workload, columns): its
            // jobs, with no extras, a run time of 0 dropped as from a trace.
            None => {
                let jobs: Vec<EnvJob> = workload
                    .jobs
                    .jobs
                    .iter()
                    .filter(|j| j.run_time > 0)
                    .map(|j| EnvJob {
                        submit: j.submit.0,
                        run: j.run_time,
                        request: j.estimate,
                        procs: j.procs,
                        extra: [-1; 4],
                        f1: 0.0,
                        f2: 0.0,
                        fixed: [0.0; 6],
                        ranks: [0; 3],
                    })
                    .collect();
                let max_run = jobs.iter().map(|j| j.run).max().unwrap_or(1) as f64;
                (jobs, [max_run, 0.0, 0.0, 0.0, 0.0])
            }
        };
        let mut jobs = jobs;
        if exact {
            jobs.iter_mut().for_each(|j| j.request = j.run);
        }
        let jobs = ranked(
            jobs.into_iter()
                .map(|j| j.scored().fixed_features(&max, capacity))
                .collect(),
        );
        // SchedGym's range of starts, [episode, n − episode − 2], needs
        // n >= 2·episode + 2.
        let most = jobs.len().saturating_sub(2) / 2;
        if most == 0 {
            return Err(error(format!(
                "the workload has {} jobs the environment can use (SchedGym drops jobs with a \
                 run time of 0); an episode needs at least 4",
                jobs.len()
            )));
        }
        let episode = match episode {
            Some(e) => int_in(
                "episode",
                e,
                1,
                most as u64,
                &format!(
                    " (the workload has {} jobs; episodes of E jobs need 2E + 2)",
                    jobs.len()
                ),
            )? as usize,
            None if most >= 256 => 256,
            None => {
                return Err(error(format!(
                    "the workload has {} jobs; episodes of 256 need at least 514 (give a smaller \
                     episode)",
                    jobs.len()
                )));
            }
        };
        Ok(BatchCore {
            capacity,
            window,
            episode,
            backfill,
            reward,
            shaping,
            bound,
            rng: ChaCha8Rng::seed_from_u64(0),
            phase: Phase::Fresh,
            start: 0,
            end: 0,
            next: 0,
            now: 0,
            free: capacity,
            queue: Vec::with_capacity(episode),
            running: Vec::with_capacity(episode),
            started: vec![None; episode],
            total: 0.0,
            visible: Vec::with_capacity(window),
            shortest: Vec::with_capacity(window),
            seen: vec![false; episode],
            shaped: 0.0,
            obs: vec![0.0; window * FEATURES],
            mask: vec![0; window],
            scratch: Vec::with_capacity(episode),
            ends: Vec::with_capacity(episode),
            keys: Vec::with_capacity(episode),
            copy: Vec::with_capacity(episode),
            jobs: std::sync::Arc::new(jobs),
        })
    }

    /// Gymnasium's `step` in one call: acts on row `action` (an empty row
    /// skips) and returns the observation and action mask as fresh numpy
    /// arrays, the reward, whether the episode ended, `False` (never
    /// truncated) and the info dict (`action_mask`, `skipped`). An action
    /// outside the rows raises `ValueError`.
    fn step_env<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<EnvStep<'py>> {
        let a = action_index(action, self.window)?;
        let skipped = a >= self.visible.len();
        let (reward, done) = self.act(a).map_err(error)?;
        let (obs, mask) = self.observe(py);
        let info = PyDict::new(py);
        info.set_item(intern!(py, "action_mask"), mask)?;
        info.set_item(intern!(py, "skipped"), skipped)?;
        Ok((obs, reward, done, false, info))
    }

    /// Gymnasium's `reset` after the seeding: starts an episode (`seed`
    /// reseeds the draws, else they go on; `start` names the first job, its
    /// index in the job list) and returns the observation and the action mask as numpy
    /// arrays.
    #[pyo3(signature = (seed = None, start = None))]
    fn reset_env<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        start: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Observed<'py>> {
        let seed = seed.map(|s| int("seed", s)).transpose()?;
        let start = start
            .map(|s| int_arg("start", s, 0, u64::MAX))
            .transpose()?;
        self.begin(seed, start).map_err(error)?;
        Ok(self.observe(py))
    }

    /// Rows an observation has (the action space's size).
    #[getter]
    #[pyo3(name = "window")]
    fn window_rows(&self) -> usize {
        self.window
    }

    /// Rows of the last observation that hold a job (the valid actions
    /// are `0..valid`).
    #[getter]
    fn valid(&self) -> usize {
        self.visible.len()
    }

    /// Jobs per episode.
    #[getter]
    fn episode(&self) -> usize {
        self.episode
    }

    /// The index of the episode's first job.
    #[getter]
    fn start(&self) -> usize {
        self.start
    }

    /// The current time (s).
    #[getter]
    fn now(&self) -> i64 {
        self.now
    }

    /// Jobs waiting.
    #[getter]
    fn waiting(&self) -> usize {
        self.queue.len()
    }

    /// Jobs in the environment's job list.
    fn __len__(&self) -> usize {
        self.jobs.len()
    }

    /// The visible jobs' `(submit, request, procs, run)`, for heuristic
    /// agents (SJF and F1 read them).
    fn visible_jobs(&self) -> Vec<(i64, i64, u32, i64)> {
        self.visible
            .iter()
            .map(|&j| {
                let job = self.jobs[j];
                (job.submit, job.request, job.procs, job.run)
            })
            .collect()
    }

    /// The episode's score so far (minus the mean bounded slowdown of the
    /// jobs started, over the episode's length, with the default reward).
    fn score_now(&self) -> f64 {
        self.score()
    }
}
