//! Runs shared between the experiments of one batch.
//!
//! Experiments repeat each other's simulations: the adaptive figures 4, 5,
//! 6, 8 and 9 sweep the same series over the same loads and only measure
//! different things. A run is a function of its kind, its canonical
//! parameters, its prepared workloads (configuration entry, the checksum
//! of the trace text, load, seed), its repetition's seed and the run it is
//! measured against, and of nothing else; runs with equal keys therefore
//! give the same samples bit for bit, and the second can take the first's.
//!
//! A [`RunCache`] learns up front which runs the batch will ask for
//! ([`RunCache::register`], once per experiment, or
//! [`RunCache::register_shard`] for the cells of one shard) and keeps a run's samples
//! only while a registered experiment still needs them, so memory holds
//! the shared runs alone and each only until its last use.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use crate::error::RunError;
use crate::experiment::Experiment;
use crate::graph::{Layout, Shard};
use crate::kind::RunSamples;
use crate::workload::Traces;

/// Runs shared between the experiments of one batch; pass it in
/// [`RunOptions::cache`](crate::RunOptions::cache) to every experiment
/// registered with it.
///
/// An experiment that was not registered still runs correctly, it only
/// shares nothing. Results never depend on the cache: a run it answers is
/// the same run, keyed by everything the run reads.
#[derive(Default)]
pub struct RunCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Key → uses announced by `register` and not made yet.
    pending: HashMap<String, usize>,
    /// Key → samples, while uses are pending.
    kept: HashMap<String, RunSamples>,
    /// Runs answered from `kept`.
    shared: usize,
}

impl RunCache {
    /// An empty cache.
    pub fn new() -> Self {
        RunCache::default()
    }

    /// Announces the runs `experiment` will make on `traces` (the traces it
    /// will be run with). Fails as the experiment's run would if a trace is
    /// missing.
    pub fn register(&self, experiment: &Experiment, traces: &Traces) -> Result<(), RunError> {
        self.register_cells(experiment, traces, &|_| true)
    }

    /// Announces the runs of the cells of `experiment` that `shard` owns:
    /// what [`run_shard`](crate::run_shard) will make.
    pub fn register_shard(
        &self,
        experiment: &Experiment,
        traces: &Traces,
        shard: Shard,
    ) -> Result<(), RunError> {
        self.register_cells(experiment, traces, &|c| shard.owns(c))
    }

    fn register_cells(
        &self,
        experiment: &Experiment,
        traces: &Traces,
        selected: &dyn Fn(usize) -> bool,
    ) -> Result<(), RunError> {
        let layout = Layout::new(experiment);
        let keys = layout.run_keys(traces)?;
        let mut inner = self.lock();
        for (c, nodes) in layout.cells.iter().enumerate() {
            if selected(c) {
                for &n in nodes {
                    *inner.pending.entry(keys[n].clone()).or_default() += 1;
                }
            }
        }
        Ok(())
    }

    /// Runs answered without simulating so far.
    pub fn shared(&self) -> usize {
        self.lock().shared
    }

    /// Samples kept at the moment (for tests: 0 once every registered
    /// experiment has run).
    pub fn kept(&self) -> usize {
        self.lock().kept.len()
    }

    /// The samples of run `key` if an earlier experiment made it; counts
    /// the use.
    pub(crate) fn take(&self, key: &str) -> Option<RunSamples> {
        let mut inner = self.lock();
        let outcome = inner.kept.get(key).cloned()?;
        inner.shared += 1;
        inner.used(key);
        Some(outcome)
    }

    /// Records that run `key` was simulated, giving `outcome`; keeps it if
    /// a registered use of it is still to come.
    pub(crate) fn keep(&self, key: &str, outcome: &RunSamples) {
        let mut inner = self.lock();
        if inner.used(key) {
            inner.kept.insert(key.to_string(), outcome.clone());
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Inner {
    /// Counts one use of `key`; whether uses are still pending (if not,
    /// its samples are dropped).
    fn used(&mut self, key: &str) -> bool {
        let Some(n) = self.pending.get_mut(key) else {
            return false;
        };
        *n -= 1;
        if *n == 0 {
            self.pending.remove(key);
            self.kept.remove(key);
            return false;
        }
        true
    }
}
