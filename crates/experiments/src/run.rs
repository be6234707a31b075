//! Executing an experiment's runs: the workloads prepared, every run of
//! the graph (`crate::graph`) simulated in parallel, each metric's values
//! read off its samples.
//!
//! Work is spread over threads ([`crate::par`]); results are stored by cell
//! index, so the output never depends on which thread finished first.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::cache::RunCache;
use crate::domain::Domain;
use crate::error::RunError;
use crate::experiment::Experiment;
use crate::graph::{Key, Layout, run_label};
use crate::kind::RunSamples;
use crate::kind::{Input, MetricInfo, Schedule};
use crate::par::try_par_map;
use crate::seed::derive_seed;
use crate::workload::{Origin, Source, Traces, Workload, WorkloadFacts, prepare};

/// A finished run, for progress reports.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    /// Runs finished so far, this one included.
    pub done: usize,
    /// Runs to simulate (in this process: a shard's, less shared ones).
    pub total: usize,
    /// `easy on SDSC-SP2`, say.
    pub run: &'a str,
    /// Wall time of this run in seconds.
    pub seconds: f64,
}

/// How to run: threads and an optional progress callback.
#[derive(Clone, Copy)]
pub struct RunOptions<'a> {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Called after every run, from the worker that ran it.
    pub progress: Option<&'a (dyn Fn(&Progress<'_>) + Sync)>,
    /// Runs shared with other experiments of the same batch: a run already
    /// simulated for one of them is not simulated again. `None`: every run
    /// is simulated.
    pub cache: Option<&'a RunCache>,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            progress: None,
            cache: None,
        }
    }
}

/// Prepared workloads by what determines them.
type Prepared = BTreeMap<Key, (Arc<Workload>, WorkloadFacts)>;

/// The per-job schedule of one cell's run, for `run --schedules`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RunSchedule {
    /// The run's description (`easy on KTH-SP2 at load = 0.8`), unique in
    /// the experiment.
    pub run: String,
    /// The series.
    pub series: String,
    /// The x value.
    pub x: String,
    /// The repetition, from 0.
    pub repetition: u32,
    /// The label of the workload (or workloads, joined by ` + `) simulated.
    pub workload: String,
    /// The schedule; cells whose runs are one simulation share it.
    pub schedule: Arc<Schedule>,
}

/// Simulates again every cell's run of `experiment` whose kind gives a
/// per-job schedule ([`Kind::schedule`](crate::Kind::schedule)) and
/// returns the schedules in cell order (x, series, repetition); a kind
/// without one gives none. Runs shared by several cells are simulated once.
/// A schedule that `profile::validate` refuses (an outcome missing or of
/// another job, a start before submission, more processors busy than the
/// machine has) is [`RunError::InvalidSchedule`], naming the run.
pub fn schedules(
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
) -> Result<Vec<RunSchedule>, RunError> {
    Layout::new(experiment).schedules(traces, options)
}

/// What every run of an experiment measured: for each run (graph node),
/// the value of each metric (by name) in each of its samples. This is all
/// aggregation needs; see [`crate::cells`] for its file format.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Measured {
    /// Node index → metric name → one value per sample.
    pub runs: BTreeMap<usize, BTreeMap<String, Vec<Option<f64>>>>,
    /// One entry per workload the runs read (see `Results::workloads`).
    pub workloads: Vec<WorkloadFacts>,
    /// What the kind says about its workloads.
    pub notes: Vec<String>,
}

impl Layout<'_> {
    /// What each workload of the experiment is made from.
    pub(crate) fn inputs<'t>(&'t self, traces: &'t Traces) -> Result<Vec<Origin<'t>>, RunError> {
        let variants = &self.experiment.plan.variants;
        variants
            .iter()
            .map(|w| match (&w.trace, &w.lublin99) {
                (Some(name), _) => traces
                    .get(name)
                    .map(Origin::Read)
                    .ok_or(RunError::MissingTrace { name: name.clone() }),
                (None, Some(g)) => Ok(Origin::Generated {
                    procs: g.procs,
                    jobs: g.jobs,
                    two_class: g.two_class,
                    arrivals: g.arrivals().map_err(|message| {
                        let at = self.experiment.workload_field(w.label.get_ref());
                        let message = format!("workload '{}': {message}", w.label.get_ref());
                        self.experiment.locate(
                            RunError::field(format!("{at}.lublin99"), message),
                            None,
                            None,
                            None,
                        )
                    })?,
                    estimates: g.estimates,
                }),
                (None, None) => match &w.generated_by_kind {
                    Some(text) => Ok(Origin::ByKind(text)),
                    None => Err(RunError::Kind {
                        message: format!("workload '{}' has no source", w.label.get_ref()),
                    }),
                },
            })
            .collect::<Result<Vec<Origin<'_>>, RunError>>()
    }

    /// The seed the prepared workload `k` is drawn with.
    fn workload_seed(&self, k: Key, inputs: &[Origin<'_>]) -> u64 {
        let spec = &self.experiment.spec;
        match inputs[k.workload] {
            Origin::Read(Source::StandIn { known }) => {
                derive_seed(spec.seed, &format!("stand-in/{}", known.name))
            }
            _ => derive_seed(
                self.seeds[k.rep as usize],
                &format!(
                    "workload/{}",
                    self.experiment.plan.variants[k.workload].label.get_ref()
                ),
            ),
        }
    }

    /// What determines the prepared workload `k`: its configuration entry,
    /// what it is read from (a trace by the checksum of its text), the load
    /// it is scaled to and its seed.
    fn workload_identity(&self, k: Key, inputs: &[Origin<'_>]) -> String {
        let w = &self.experiment.plan.variants[k.workload];
        let source = match &inputs[k.workload] {
            Origin::Read(Source::Trace { sha256, .. }) => format!("trace {sha256}"),
            Origin::Read(Source::StandIn { known }) => format!("stand-in {}", known.name),
            Origin::Generated { .. } => "generated".to_string(),
            Origin::ByKind(text) => format!("generated by the kind: {text}"),
        };
        let entry = toml::to_string(w).unwrap_or_else(|e| format!("unserialisable entry: {e}"));
        let load = self.experiment.plan.points[k.point].load.map(f64::to_bits);
        let seed = self.workload_seed(k, inputs);
        format!("{entry}\n{source}\nload {load:?}\nseed {seed}\n")
    }

    /// A key per run (graph node): equal keys, runs that give the same
    /// samples bit for bit. A run is a function of its kind, its canonical
    /// parameters, its prepared workloads, its repetition's seed and the run
    /// it is measured against, so the key is the SHA-256 of all of these.
    pub(crate) fn run_keys(&self, traces: &Traces) -> Result<Vec<String>, RunError> {
        let inputs = self.inputs(traces)?;
        let mut keys: Vec<String> = Vec::with_capacity(self.graph.nodes.len());
        for node in &self.graph.nodes {
            let mut text = format!(
                "kind {}\n{}\nseed {}\n",
                self.experiment.kind.name, node.identity, self.seeds[node.rep as usize]
            );
            for &wi in &node.workloads {
                text += &self.workload_identity(self.key(wi, node.point, node.rep), &inputs);
            }
            // A reference is created before the runs measured against it.
            if let Some(r) = node.reference {
                text += &format!("measured against {}\n", keys[r]);
            }
            keys.push(crate::digest::sha256_hex(text.as_bytes()));
        }
        Ok(keys)
    }

    /// The prepared workloads the runs read, one per variant and, for a
    /// variant drawn anew for each repetition, per repetition (each its
    /// first in point order), in the order of the plan's variants: the
    /// workloads whose facts `run.toml` and a summary show. A
    /// `[[workloads]]` entry every run reads through a variant (a swept
    /// trace, say) is not among them.
    fn read_keys(&self) -> Vec<Key> {
        let mut keys: Vec<Key> = self
            .graph
            .nodes
            .iter()
            .flat_map(|n| n.workloads.iter().map(|&w| self.key(w, n.point, n.rep)))
            .collect();
        // Point before repetition, so each (variant, repetition) keeps its
        // first point.
        keys.sort_by_key(|k| (k.workload, k.rep, k.point));
        keys.dedup_by_key(|k| (k.workload, k.rep));
        keys
    }

    /// The `[[workloads]]` entry (its index) variant `vi` is made from.
    fn origin(&self, vi: usize) -> usize {
        let label = self.experiment.plan.variants[vi].label.get_ref();
        self.experiment
            .spec
            .workloads
            .iter()
            .position(|w| w.label.get_ref() == label)
            .unwrap_or(vi)
    }

    /// What variant `vi` changes in its `[[workloads]]` entry, if it is not
    /// the entry itself.
    fn variant_changes(&self, vi: usize) -> Option<String> {
        let spec = &self.experiment.spec;
        if vi < spec.workloads.len() {
            return None;
        }
        crate::sweep::variant_changes(
            &spec.workloads[self.origin(vi)],
            &self.experiment.plan.variants[vi],
        )
    }

    /// For each `[[workloads]]` entry, the first prepared workload of it
    /// the runs read (point, then repetition, then variant order), which
    /// the kind's notes describe; for an entry no run reads, the entry at
    /// the first point.
    fn first_keys(&self, read: &[Key]) -> Vec<Key> {
        (0..self.experiment.spec.workloads.len())
            .map(|wi| {
                read.iter()
                    .filter(|k| self.origin(k.workload) == wi)
                    .min_by_key(|k| (k.point, k.rep, k.workload))
                    .copied()
                    .unwrap_or_else(|| self.key(wi, 0, 0))
            })
            .collect()
    }

    /// The prepared workloads run `node` sees.
    fn node_keys(&self, node: usize) -> impl Iterator<Item = Key> + '_ {
        let node = &self.graph.nodes[node];
        node.workloads
            .iter()
            .map(|&wi| self.key(wi, node.point, node.rep))
    }

    /// Prepares the workloads `needed` (each once), in parallel.
    fn prepare(
        &self,
        inputs: &[Origin<'_>],
        mut needed: Vec<Key>,
        threads: usize,
    ) -> Result<Prepared, RunError> {
        needed.sort();
        needed.dedup();
        let prepared = try_par_map(&needed, threads, |k| {
            let w = &self.experiment.plan.variants[k.workload];
            let seed = self.workload_seed(*k, inputs);
            let point = &self.experiment.plan.points[k.point];
            let at = self.experiment.workload_field(w.label.get_ref());
            prepare(w, &at, &inputs[k.workload], point.load, seed)
                .map(|(w, f)| (Arc::new(w), f))
                .map_err(|e| self.experiment.locate(e, Some(point), None, None))
        })?;
        Ok(needed.into_iter().zip(prepared).collect())
    }

    /// `error` of run `node`, with the run's name, placed in the
    /// configuration file where a value of it is the cause
    /// ([`Experiment::locate`]).
    pub(crate) fn in_run(&self, error: RunError, node: usize) -> RunError {
        let node = &self.graph.nodes[node];
        let point = &self.experiment.plan.points[node.point];
        self.experiment
            .locate(error, Some(point), Some(&node.label), node.series)
    }

    /// The input of run `node`.
    fn node_workloads(&self, node: usize, prepared: &Prepared) -> Vec<Arc<Workload>> {
        self.node_keys(node)
            .map(|k| prepared[&k].0.clone())
            .collect()
    }

    /// The per-job schedule of every run of every cell ([`schedules`]).
    fn schedules(
        &self,
        traces: &Traces,
        options: &RunOptions<'_>,
    ) -> Result<Vec<RunSchedule>, RunError> {
        let inputs = self.inputs(traces)?;
        let series = self.experiment.series();
        // (point, series, repetition, node) of every cell's own run.
        let mut runs: Vec<(usize, usize, u32, usize)> = Vec::new();
        for (pi, row) in self.cell_nodes.iter().enumerate() {
            for (si, reps) in row.iter().enumerate() {
                for (rep, &n) in reps.iter().enumerate() {
                    runs.push((pi, si, rep as u32, n));
                }
            }
        }
        let mut nodes: Vec<usize> = runs.iter().map(|r| r.3).collect();
        nodes.sort_unstable();
        nodes.dedup();
        let needed = nodes.iter().flat_map(|&n| self.node_keys(n)).collect();
        let prepared = self.prepare(&inputs, needed, options.threads)?;
        let done = AtomicUsize::new(0);
        let schedules = try_par_map(&nodes, options.threads, |&n| {
            let start = Instant::now();
            let node = &self.graph.nodes[n];
            let ws = self.node_workloads(n, &prepared);
            let input = Input::new(
                &ws,
                self.seeds[node.rep as usize],
                &self.experiment.policies,
            );
            let schedule = node
                .params
                .schedule(&input)
                .map_err(|e| self.in_run(e, n))?;
            // A kind's schedule is checked as a simulated one is: one
            // outcome per job, capacity never exceeded, no start before
            // submission, every job run its run time or killed.
            if let Some(s) = &schedule {
                profile::validate(s.capacity, &s.jobs, &s.outcomes).map_err(|violation| {
                    let policy = s.policy.clone();
                    self.in_run(RunError::InvalidSchedule { policy, violation }, n)
                })?;
            }
            if let Some(progress) = options.progress {
                let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                progress(&Progress {
                    done,
                    total: nodes.len(),
                    run: &node.label,
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
            let on: Vec<String> = ws.iter().map(|w| w.label.clone()).collect();
            Ok(schedule.map(|s| (Arc::new(s), on.join(" + "))))
        })?;
        let by_node: BTreeMap<usize, _> = nodes.into_iter().zip(schedules).collect();
        Ok(runs
            .into_iter()
            .filter_map(|(pi, si, rep, n)| {
                let (schedule, workload) = by_node[&n].clone()?;
                Some(RunSchedule {
                    run: run_label(
                        self.experiment,
                        &self.points[pi],
                        &self.graph.nodes[n].workloads,
                        &series[si],
                        rep,
                    ),
                    series: series[si].clone(),
                    x: self.points[pi].x.clone(),
                    repetition: rep,
                    workload,
                    schedule,
                })
            })
            .collect())
    }

    /// Runs the cells `selected` says yes to and measures them: every
    /// metric of every run, plus the workload facts and notes (which every
    /// selection computes, so any part of a sharded run carries them).
    pub(crate) fn simulate(
        &self,
        traces: &Traces,
        options: &RunOptions<'_>,
        selected: &dyn Fn(usize) -> bool,
    ) -> Result<Measured, RunError> {
        let inputs = self.inputs(traces)?;

        let nodes = &self.graph.nodes;
        let todo_nodes: Vec<usize> = (0..self.cells.len())
            .filter(|&c| selected(c))
            .flat_map(|c| self.cells[c].iter().copied())
            .collect();

        // Prepared workloads: the ones the selected runs use, the first of
        // each variant any run reads (point and repetition order) for the
        // facts, and the first of each entry for the kind's notes.
        let read = self.read_keys();
        let firsts = self.first_keys(&read);
        let mut needed: Vec<Key> = firsts.clone();
        needed.extend(read.iter().copied());
        needed.extend(todo_nodes.iter().flat_map(|&n| self.node_keys(n)));
        let prepared = self.prepare(&inputs, needed, options.threads)?;
        let workloads: Vec<WorkloadFacts> = read
            .iter()
            .map(|k| WorkloadFacts {
                variant: self.variant_changes(k.workload),
                repetition: (self.generated(k.workload) && self.seeds.len() > 1)
                    .then_some(k.rep + 1),
                ..prepared[k].1.clone()
            })
            .collect();
        let first: Vec<Arc<Workload>> = firsts.iter().map(|k| prepared[k].0.clone()).collect();
        let notes = self.experiment.plan.base.notes(&first);

        let keys = match options.cache {
            Some(_) => self.run_keys(traces)?,
            None => Vec::new(),
        };
        // Runs without a reference first, then the runs that need one.
        let total = todo_nodes.len();
        let done = AtomicUsize::new(0);
        let mut outcomes: BTreeMap<usize, RunSamples> = BTreeMap::new();
        for phase in [false, true] {
            let todo: Vec<usize> = todo_nodes
                .iter()
                .copied()
                .filter(|&i| nodes[i].reference.is_some() == phase)
                .collect();
            let finished = &outcomes;
            let out = try_par_map(&todo, options.threads, |&i| {
                let start = Instant::now();
                let node = &nodes[i];
                let ws = self.node_workloads(i, &prepared);
                let input = Input::new(
                    &ws,
                    self.seeds[node.rep as usize],
                    &self.experiment.policies,
                );
                let reference = node.reference.and_then(|r| finished.get(&r));
                let shared = options.cache.zip(keys.get(i));
                let r = match shared.and_then(|(cache, key)| cache.take(key)) {
                    Some(outcome) => Ok(outcome),
                    None => {
                        // A kind's panic is its run's error, named as the
                        // run's other errors are.
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            node.params.run(&input, reference)
                        }))
                        .unwrap_or_else(|panic| {
                            let what = panic
                                .downcast_ref::<&str>()
                                .map(|s| (*s).to_owned())
                                .or_else(|| panic.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "a panic without a message".to_owned());
                            Err(RunError::Kind {
                                message: format!(
                                    "the kind's run panicked ({}); this is a bug in the kind",
                                    crate::encode::terminal(&what)
                                ),
                            })
                        });
                        if let (Some((cache, key)), Ok(outcome)) = (shared, &r) {
                            cache.keep(key, outcome);
                        }
                        r.map_err(|e| self.in_run(e, i))
                    }
                };
                if let Some(progress) = options.progress {
                    let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(&Progress {
                        done,
                        total,
                        run: &node.label,
                        seconds: start.elapsed().as_secs_f64(),
                    });
                }
                r
            })?;
            outcomes.extend(todo.into_iter().zip(out));
        }
        let metrics = (self.experiment.kind.metrics)();
        let kind = &self.experiment.kind;
        let runs = outcomes
            .iter()
            .map(|(&n, outcome)| {
                let values: BTreeMap<String, Vec<Option<f64>>> = metrics
                    .iter()
                    .enumerate()
                    .map(|(m, info)| (info.name.to_string(), nodes[n].params.values(outcome, m)))
                    .collect();
                match out_of_domain(kind.name, &metrics, kind.at_most, &values) {
                    Some(message) => Err(self.in_run(RunError::Kind { message }, n)),
                    None => Ok((n, values)),
                }
            })
            .collect::<Result<_, RunError>>()?;
        Ok(Measured {
            runs,
            workloads,
            notes,
        })
    }
}

/// What is wrong with the values a kind's run measured (`values`: metric
/// name → one value per sample), the checks `merge` makes of a shard made
/// at the boundary where a kind's numbers enter: each value in its
/// metric's [`Domain`] (a NaN stands for a sample without a value, as a
/// `None` does, and is let through) and no count above the count it is
/// part of ([`Kind::AT_MOST`](crate::Kind::AT_MOST)). The message names the
/// kind, the metric, the sample and the value.
fn out_of_domain(
    kind: &str,
    metrics: &[MetricInfo],
    at_most: &[(&str, &str)],
    values: &BTreeMap<String, Vec<Option<f64>>>,
) -> Option<String> {
    let kind = crate::encode::terminal_name(kind);
    for m in metrics {
        let domain = Domain::of(m);
        let measured = values.get(m.name).map_or(&[][..], Vec::as_slice);
        for (i, v) in measured.iter().enumerate() {
            if let Some(v) = v.filter(|v| !v.is_nan() && !domain.contains(*v)) {
                return Some(format!(
                    "kind '{kind}' measured metric '{}' = {v} in sample {}, which is not {domain} \
                     (the domain its y label '{}' implies); this is a bug in the kind",
                    crate::encode::terminal_name(m.name),
                    i + 1,
                    crate::encode::terminal_name(m.y_label),
                ));
            }
        }
    }
    for (a, b) in at_most {
        let (Some(xa), Some(xb)) = (values.get(*a), values.get(*b)) else {
            continue;
        };
        for (i, (va, vb)) in xa.iter().zip(xb).enumerate() {
            if let (Some(va), Some(vb)) = (va, vb)
                && va > vb
            {
                return Some(format!(
                    "kind '{kind}' measured metric '{a}' = {va} in sample {}, more than metric \
                     '{b}' ({vb}), which counts a whole it is part of; this is a bug in the kind",
                    i + 1
                ));
            }
        }
    }
    None
}
