//! The vector form of the scheduling environment: `num_envs` copies of
//! [`BatchCore`] stepped in one call, optionally on a pool of worker
//! threads kept for the environment's life, their observations and masks
//! written straight into the numpy arrays handed to Python. Autoreset is
//! Gymnasium's "next step" mode: a copy whose episode ended is reset by the
//! next call to `step`, which ignores its action and returns its first
//! observation with reward 0.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::batch_env::{BatchCore, FEATURES};
use crate::convert::error;

/// `num_envs` scheduling environments stepped together.
#[pyclass(module = "usched._usched")]
pub(crate) struct BatchVec {
    envs: Vec<BatchCore>,
    /// Whether copy `i` ended at the last step (it resets at the next).
    ended: Vec<bool>,
    /// The worker threads (none: the copies step on the calling thread).
    pool: Option<rayon::ThreadPool>,
}

/// What one copy returns from a step: its reward and whether it ended.
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

impl BatchVec {
    fn rows(&self) -> usize {
        self.envs.first().map_or(0, BatchCore::window)
    }

    /// Runs `f` on every copy with its rows of the observation and mask
    /// arrays and its outcome: split in `threads` contiguous parts, the
    /// first on the calling thread and the others on the pool's workers
    /// (each copy's result depends on nothing but the copy, whatever the
    /// threads).
    fn each<F>(&mut self, obs: &mut [f32], mask: &mut [i8], out: &mut [Outcome], f: F)
    where
        F: Fn(usize, &mut BatchCore, &mut bool, &mut [f32], &mut [i8]) -> Outcome + Sync,
    {
        let (olen, mlen) = (self.rows() * FEATURES, self.rows());
        let n = self.envs.len();
        let threads = self.threads().min(n);
        let per = n.div_ceil(threads);
        let f = &f;
        let run = move |first: usize,
                        envs: &mut [BatchCore],
                        ended: &mut [bool],
                        obs: &mut [f32],
                        mask: &mut [i8],
                        out: &mut [Outcome]| {
            let all = envs
                .iter_mut()
                .zip(ended.iter_mut())
                .zip(obs.chunks_mut(olen))
                .zip(mask.chunks_mut(mlen))
                .zip(out.iter_mut())
                .enumerate();
            for (k, ((((env, ended), o), m), out)) in all {
                *out = f(first + k, env, ended, o, m);
            }
        };
        let mut parts = self
            .envs
            .chunks_mut(per)
            .zip(self.ended.chunks_mut(per))
            .zip(obs.chunks_mut(per * olen))
            .zip(mask.chunks_mut(per * mlen))
            .zip(out.chunks_mut(per))
            .enumerate();
        let Some((_, ((((e, d), o), m), r))) = parts.next() else {
            return;
        };
        match &self.pool {
            Some(pool) => pool.in_place_scope(|scope| {
                for (c, ((((e, d), o), m), r)) in parts {
                    scope.spawn(move |_| run(c * per, e, d, o, m, r));
                }
                run(0, e, d, o, m, r);
            }),
            None => run(0, e, d, o, m, r),
        }
    }

    /// Runs `f` on every copy (see [`BatchVec::each`]) with the GIL
    /// released, writing straight into new observation and mask arrays;
    /// returns them and the outcomes.
    fn arrays<'py, F>(&mut self, py: Python<'py>, f: F) -> PyResult<(Observed<'py>, Vec<Outcome>)>
    where
        F: Fn(usize, &mut BatchCore, &mut bool, &mut [f32], &mut [i8]) -> Outcome + Sync + Send,
    {
        let (n, rows) = (self.envs.len(), self.rows());
        let obs = PyArray2::<f32>::zeros(py, [n, rows * FEATURES], false);
        let mask = PyArray2::<i8>::zeros(py, [n, rows], false);
        let mut out: Vec<Outcome> = vec![Ok((0.0, false)); n];
        {
            let mut o = obs.readwrite();
            let mut m = mask.readwrite();
            let (o, m) = (o.as_slice_mut()?, m.as_slice_mut()?);
            // The new arrays are ours alone until returned.
            py.detach(|| self.each(o, m, &mut out, f));
        }
        Ok(((obs, mask), out))
    }
}

#[pymethods]
impl BatchVec {
    /// `num_envs` copies of `core` (they share its job list), stepped on
    /// `threads` worker threads (1: on the calling thread).
    #[new]
    #[pyo3(signature = (core, num_envs, *, threads = 1))]
    fn new(core: &BatchCore, num_envs: usize, threads: usize) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(error("num_envs must be at least 1"));
        }
        if threads == 0 {
            return Err(error("threads must be at least 1"));
        }
        // The calling thread steps one part itself; the workers the rest.
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .thread_name(|i| format!("usched-vec-{i}"))
                .build()
                .map_err(|e| error(format!("cannot start {threads} threads: {e}")))?;
            Some(pool)
        } else {
            None
        };
        Ok(BatchVec {
            envs: vec![core.clone(); num_envs],
            ended: vec![false; num_envs],
            pool,
        })
    }

    /// Copies.
    fn __len__(&self) -> usize {
        self.envs.len()
    }

    /// Worker threads (1: the calling thread).
    #[getter]
    fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or(1, |p| p.current_num_threads() + 1)
    }

    /// Starts an episode in every copy; copy `i` is seeded `seed + i`.
    /// Returns the observations (`num_envs × window·8` float32) and the
    /// masks (`num_envs × window` int8).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Observed<'py>> {
        let (observed, out) = self.arrays(py, |i, env, ended, o, m| {
            env.begin(seed.map(|s| s.wrapping_add(i as u64)), None)?;
            *ended = false;
            env.write_obs(o, m);
            Ok((0.0, false))
        })?;
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
        let (n, window) = (self.envs.len(), self.rows());
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(error(format!(
                "{} actions for {n} environments",
                actions.len()
            )));
        }
        for (i, &a) in actions.iter().enumerate() {
            if usize::try_from(a).map_or(true, |a| a >= window) {
                return Err(PyValueError::new_err(format!(
                    "action {a} of environment {i} is outside Discrete({window})"
                )));
            }
        }
        let ((obs, mask), out) = self.arrays(py, |i, env, ended, o, m| {
            let result = if *ended {
                env.begin(None, None)?;
                *ended = false;
                (0.0, false)
            } else {
                let (r, done) = env.act(actions[i] as usize)?;
                *ended = done;
                (r, done)
            };
            env.write_obs(o, m);
            Ok(result)
        })?;
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
