//! The vector form of the scheduling environment: `num_envs` copies of
//! [`BatchCore`] stepped in one call, optionally on several threads, their
//! observations and masks written into one buffer each. Autoreset is
//! Gymnasium's "next step" mode: a copy whose episode ended is reset by the
//! next call to `step`, which ignores its action and returns its first
//! observation with reward 0.

use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::batch_env::{BatchCore, FEATURES};
use crate::convert::error;

/// `num_envs` scheduling environments stepped together.
#[pyclass(module = "usched._usched")]
pub(crate) struct BatchVec {
    envs: Vec<BatchCore>,
    /// Whether copy `i` ended at the last step (it resets at the next).
    ended: Vec<bool>,
    threads: usize,
}

/// What one copy returns from a step.
type Outcome = Result<(f64, bool), String>;

impl BatchVec {
    fn obs_len(&self) -> usize {
        self.envs.first().map_or(0, |e| e.window() * FEATURES * 4)
    }

    fn rows(&self) -> usize {
        self.envs.first().map_or(0, BatchCore::window)
    }

    /// Runs `f` on every copy with its slices of the observation and mask
    /// buffers, on up to `threads` threads (copies split in contiguous
    /// chunks, so the result does not depend on the thread count).
    fn each<F>(&mut self, obs: &mut [u8], mask: &mut [u8], f: F) -> Vec<Outcome>
    where
        F: Fn(usize, &mut BatchCore, &mut bool, &mut [u8], &mut [u8]) -> Outcome + Sync,
    {
        let (olen, mlen) = (self.obs_len(), self.rows());
        let n = self.envs.len();
        let threads = self.threads.clamp(1, n.max(1));
        let per = n.div_ceil(threads);
        let mut out: Vec<Outcome> = vec![Ok((0.0, false)); n];
        std::thread::scope(|scope| {
            let chunks = self
                .envs
                .chunks_mut(per)
                .zip(self.ended.chunks_mut(per))
                .zip(obs.chunks_mut(per * olen))
                .zip(mask.chunks_mut(per * mlen))
                .zip(out.chunks_mut(per))
                .enumerate();
            for (c, ((((envs, ended), obs), mask), out)) in chunks {
                let f = &f;
                let mut run = move || {
                    for (k, (((env, ended), obs), mask)) in envs
                        .iter_mut()
                        .zip(ended.iter_mut())
                        .zip(obs.chunks_mut(olen))
                        .zip(mask.chunks_mut(mlen))
                        .enumerate()
                    {
                        out[k] = f(c * per + k, env, ended, obs, mask);
                    }
                };
                if threads == 1 {
                    run();
                } else {
                    scope.spawn(run);
                }
            }
        });
        out
    }
}

type VecStep<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Vec<f64>,
    Vec<bool>,
);

#[pymethods]
impl BatchVec {
    /// `num_envs` copies of `core` (they share its job list), stepped on up
    /// to `threads` threads.
    #[new]
    #[pyo3(signature = (core, num_envs, *, threads = 1))]
    fn new(core: &BatchCore, num_envs: usize, threads: usize) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(error("num_envs must be at least 1"));
        }
        Ok(BatchVec {
            envs: vec![core.clone(); num_envs],
            ended: vec![false; num_envs],
            threads: threads.max(1),
        })
    }

    /// Copies.
    fn __len__(&self) -> usize {
        self.envs.len()
    }

    /// Starts an episode in every copy; copy `i` is seeded `seed + i`.
    /// Returns the observations (`num_envs × window × 8` little-endian
    /// f32) and the masks (`num_envs × window` bytes).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        let mut obs = vec![0u8; self.envs.len() * self.obs_len()];
        let mut mask = vec![0u8; self.envs.len() * self.rows()];
        let out = py.detach(|| {
            self.each(&mut obs, &mut mask, |i, env, ended, o, m| {
                env.begin(seed.map(|s| s.wrapping_add(i as u64)), None)?;
                *ended = false;
                env.write_obs(o, m);
                Ok((0.0, false))
            })
        });
        for r in out {
            r.map_err(error)?;
        }
        Ok((PyByteArray::new(py, &obs), PyByteArray::new(py, &mask)))
    }

    /// Steps every copy with its action; a copy that ended at the last
    /// step is reset instead. Returns observations, masks, rewards and
    /// which copies ended.
    fn step<'py>(&mut self, py: Python<'py>, actions: Vec<usize>) -> PyResult<VecStep<'py>> {
        if actions.len() != self.envs.len() {
            return Err(error(format!(
                "{} actions for {} environments",
                actions.len(),
                self.envs.len()
            )));
        }
        let mut obs = vec![0u8; self.envs.len() * self.obs_len()];
        let mut mask = vec![0u8; self.envs.len() * self.rows()];
        let out = py.detach(|| {
            self.each(&mut obs, &mut mask, |i, env, ended, o, m| {
                let result = if *ended {
                    env.begin(None, None)?;
                    *ended = false;
                    (0.0, false)
                } else {
                    let (r, done) = env.act(actions[i])?;
                    *ended = done;
                    (r, done)
                };
                env.write_obs(o, m);
                Ok(result)
            })
        });
        let mut rewards = Vec::with_capacity(out.len());
        let mut done = Vec::with_capacity(out.len());
        for r in out {
            let (reward, d) = r.map_err(error)?;
            rewards.push(reward);
            done.push(d);
        }
        Ok((
            PyByteArray::new(py, &obs),
            PyByteArray::new(py, &mask),
            rewards,
            done,
        ))
    }
}
