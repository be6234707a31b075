//! Running an experiment: the grid of independent cells (x × series ×
//! repetition), executed in parallel, aggregated into plotted points.
//!
//! Work is spread over threads ([`crate::par`]); results are stored by cell
//! index, so the output never depends on which thread finished first.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::cache::RunCache;
use crate::claims::{Verdict, check_claims};
use crate::csv::Row;
use crate::error::RunError;
use crate::experiment::Experiment;
use crate::kind::{Input, Resolved, RunSamples, gain};
use crate::par::try_par_map;
use crate::plan::Resolution;
use crate::samples::{Samples, Unit};
use crate::seed::derive_seed;
use crate::stats::{mean_ci_at, trimmed};
use crate::svg::Figure;
use crate::workload::{Origin, Source, Traces, Workload, WorkloadFacts, prepare};

/// A finished cell, for progress reports.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    /// Cells finished so far, this one included.
    pub done: usize,
    /// Cells in the experiment.
    pub total: usize,
    /// `easy on SDSC-SP2`, say.
    pub cell: &'a str,
    /// Wall time of this cell in seconds.
    pub seconds: f64,
}

/// How to run: threads and an optional progress callback.
#[derive(Clone, Copy)]
pub struct RunOptions<'a> {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Called after every cell, from the worker that ran it.
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

/// Everything an experiment produced.
#[derive(Debug, Clone)]
pub struct Results {
    /// The plotted points, in panel, x, series order.
    pub rows: Vec<Row>,
    /// The units behind every point (`samples.csv`).
    pub samples: Samples,
    /// One verdict per claim.
    pub verdicts: Vec<Verdict>,
    /// One entry per workload (first x and repetition).
    pub workloads: Vec<WorkloadFacts>,
    /// The derived seed of each repetition.
    pub seeds: Vec<u64>,
    /// How the figure is drawn.
    pub figure: Figure,
    /// What the kind says about its workloads, for the summary.
    pub notes: Vec<String>,
}

/// A point on the x axis and the workloads its cells see.
struct Point {
    x: String,
    load: Option<f64>,
    workloads: Vec<usize>,
}

/// Which prepared workload a cell uses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    workload: usize,
    point: usize,
    rep: u32,
}

/// One simulation to run: a resolved parameter set at one point and
/// repetition, with the node whose samples it is measured against.
struct Node<'a> {
    point: usize,
    rep: u32,
    params: &'a dyn Resolved,
    /// The parameters' canonical text.
    identity: &'a str,
    reference: Option<usize>,
    label: String,
}

/// The simulations of an experiment, each once: runs with equal
/// parameters, workloads and references are one node.
#[derive(Default)]
struct Graph<'a> {
    nodes: Vec<Node<'a>>,
    index: BTreeMap<(usize, u32, &'a str, Option<usize>), usize>,
}

impl<'a> Graph<'a> {
    /// The node of `params` at (`point`, `rep`); `wpoint` identifies the
    /// point's workloads (points with the same workloads share runs).
    fn node(
        &mut self,
        point: usize,
        wpoint: usize,
        rep: u32,
        r: &'a Resolution,
        reference: Option<usize>,
        label: impl FnOnce() -> String,
    ) -> usize {
        let key = (wpoint, rep, r.key.as_str(), reference);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.nodes.push(Node {
            point,
            rep,
            params: r.params.as_ref(),
            identity: r.key.as_str(),
            reference,
            label: label(),
        });
        self.index.insert(key, self.nodes.len() - 1);
        self.nodes.len() - 1
    }
}

/// What every run of an experiment measured: for each run (graph node),
/// the value of each metric (by name) in each of its samples. This is all
/// aggregation needs; see [`crate::cells`] for its file format.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Measured {
    /// Node index → metric name → one value per sample.
    pub runs: BTreeMap<usize, BTreeMap<String, Vec<Option<f64>>>>,
    /// One entry per workload (first x and repetition).
    pub workloads: Vec<WorkloadFacts>,
    /// What the kind says about its workloads.
    pub notes: Vec<String>,
}

/// The runs of an experiment, grouped into cells, before anything runs:
/// what [`run`] executes in one process and a shard executes in part.
///
/// A cell is a run together with the runs it is measured against by its
/// kind (its [`Kind::reference`](crate::kind::Kind::reference)), so every
/// cell runs on its own; cells are numbered in the order the pipeline
/// creates their runs, which depends on the configuration only.
pub(crate) struct Layout<'e> {
    experiment: &'e Experiment,
    points: Vec<Point>,
    load_axis: bool,
    seeds: Vec<u64>,
    graph: Graph<'e>,
    /// `[point][series][rep]`.
    cell_nodes: Vec<Vec<Vec<usize>>>,
    /// `[panel][point][series][rep]`.
    panel_nodes: Vec<Vec<Vec<Vec<usize>>>>,
    /// Cell index → its nodes, in creation order.
    pub cells: Vec<Vec<usize>>,
}

impl<'e> Layout<'e> {
    /// Lays out every run of `experiment`.
    pub fn new(experiment: &'e Experiment) -> Self {
        let spec = &experiment.spec;
        let plan = &experiment.plan;
        let series = experiment.series();
        let axis = spec.sweep.axis.get_ref().as_str();
        let load_axis = axis == "load";
        let xs = experiment.x_values();
        let points: Vec<Point> = if experiment.is_categorical() {
            (0..spec.workloads.len())
                .map(|i| Point {
                    x: xs[i].clone(),
                    load: None,
                    workloads: vec![i],
                })
                .collect()
        } else {
            let values = spec.sweep.values.as_ref().map(|v| v.get_ref().as_slice());
            xs.iter()
                .zip(values.unwrap_or_default())
                .map(|(x, v)| Point {
                    x: x.clone(),
                    load: if load_axis {
                        v.as_float().or(v.as_integer().map(|i| i as f64))
                    } else {
                        None
                    },
                    workloads: (0..spec.workloads.len()).collect(),
                })
                .collect()
        };
        // Points that see the same workloads share runs of equal parameters.
        let wpoint = |p: usize| {
            if experiment.is_categorical() || load_axis {
                p
            } else {
                0
            }
        };
        let seeds: Vec<u64> = (0..spec.repetitions)
            .map(|r| experiment.repetition_seed(r))
            .collect();

        // The runs: every cell, the runs kinds measure cells against, and the
        // runs relative panels compare with, each once.
        let label = |what: &str, pi: usize, rep: u32| {
            let p = &points[pi];
            let on: Vec<&str> = p
                .workloads
                .iter()
                .map(|&wi| spec.workloads[wi].label.get_ref().as_str())
                .collect();
            let mut label = format!("{what} on {}", on.join(" + "));
            if !experiment.is_categorical() {
                label += &format!(" at {axis} = {}", p.x);
            }
            if spec.repetitions > 1 {
                label += &format!(" (repetition {})", rep + 1);
            }
            label
        };
        let mut graph = Graph::default();
        let mut cell_nodes = vec![vec![Vec::new(); series.len()]; points.len()];
        for (pi, row) in plan.cells.iter().enumerate() {
            for (si, cell) in row.iter().enumerate() {
                for rep in 0..spec.repetitions {
                    let reference = plan.kind_refs[pi][si].as_ref().map(|r| {
                        graph.node(pi, wpoint(pi), rep, r, None, || {
                            label(&format!("reference of {}", series[si]), pi, rep)
                        })
                    });
                    let n = graph.node(pi, wpoint(pi), rep, cell, reference, || {
                        label(&series[si], pi, rep)
                    });
                    cell_nodes[pi][si].push(n);
                }
            }
        }
        let mut panel_nodes = Vec::new();
        for (qi, by_point) in plan.panel_refs.iter().enumerate() {
            let mut out = vec![vec![Vec::new(); series.len()]; by_point.len()];
            for (pi, row) in by_point.iter().enumerate() {
                for (si, r) in row.iter().enumerate() {
                    let Some(r) = r else { continue };
                    for rep in 0..spec.repetitions {
                        let n = graph.node(pi, wpoint(pi), rep, r, None, || {
                            label(
                                &format!("{} reference of {}", spec.panels[qi].id, series[si]),
                                pi,
                                rep,
                            )
                        });
                        out[pi][si].push(n);
                    }
                }
            }
            panel_nodes.push(out);
        }
        let cells = group_by_reference(&graph.nodes);
        Layout {
            experiment,
            points,
            load_axis,
            seeds,
            graph,
            cell_nodes,
            panel_nodes,
            cells,
        }
    }

    /// The x value of each point, in order.
    pub fn xs(&self) -> impl Iterator<Item = &str> {
        self.points.iter().map(|p| p.x.as_str())
    }

    /// Describes cell `c`: its first run's label, and how many runs share it.
    /// A number out of range (from a file) is described as such, never a
    /// panic.
    pub fn cell_label(&self, c: usize) -> String {
        let Some(&first) = self.cells.get(c).and_then(|nodes| nodes.first()) else {
            return format!("cell {c} (not a cell of this configuration)");
        };
        let first = &self.graph.nodes[first].label;
        match self.cells[c].len() {
            1 => first.clone(),
            n => format!("{first} (+{} run(s) sharing its reference)", n - 1),
        }
    }

    /// The labels of the runs of cell `c`.
    /// None for a number out of range.
    pub fn run_labels(&self, c: usize) -> impl Iterator<Item = (usize, &str)> {
        self.cells
            .get(c)
            .into_iter()
            .flatten()
            .map(|&n| (n, self.graph.nodes[n].label.as_str()))
    }

    /// Whether workload `wi` is generated anew for every repetition.
    fn generated(&self, wi: usize) -> bool {
        let w = &self.experiment.spec.workloads[wi];
        w.trace.is_none() && w.lublin99.is_some()
    }

    /// The prepared workload a run at (`point`, `rep`) uses for `workload`.
    fn key(&self, workload: usize, point: usize, rep: u32) -> Key {
        Key {
            workload,
            point: if self.load_axis { point } else { 0 },
            rep: if self.generated(workload) { rep } else { 0 },
        }
    }

    /// What each workload of the experiment is made from.
    fn inputs<'t>(&'t self, traces: &'t Traces) -> Result<Vec<Origin<'t>>, RunError> {
        let spec = &self.experiment.spec;
        spec.workloads
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
                &format!("workload/{}", spec.workloads[k.workload].label.get_ref()),
            ),
        }
    }

    /// What determines the prepared workload `k`: its configuration entry,
    /// what it is read from (a trace by the checksum of its text), the load
    /// it is scaled to and its seed.
    fn workload_identity(&self, k: Key, inputs: &[Origin<'_>]) -> String {
        let w = &self.experiment.spec.workloads[k.workload];
        let source = match &inputs[k.workload] {
            Origin::Read(Source::Trace { sha256, .. }) => format!("trace {sha256}"),
            Origin::Read(Source::StandIn { known }) => format!("stand-in {}", known.name),
            Origin::Generated { .. } => "generated".to_string(),
            Origin::ByKind(text) => format!("generated by the kind: {text}"),
        };
        let entry = toml::to_string(w).unwrap_or_else(|e| format!("unserialisable entry: {e}"));
        let load = self.points[k.point].load.map(f64::to_bits);
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
            for &wi in &self.points[node.point].workloads {
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

    /// Runs the cells `selected` says yes to and measures them: every
    /// metric of every run, plus the workload facts and notes (which every
    /// selection computes, so any part of a sharded run carries them).
    pub fn simulate(
        &self,
        traces: &Traces,
        options: &RunOptions<'_>,
        selected: &dyn Fn(usize) -> bool,
    ) -> Result<Measured, RunError> {
        let spec = &self.experiment.spec;
        let inputs = self.inputs(traces)?;

        let nodes = &self.graph.nodes;
        let todo_nodes: Vec<usize> = (0..self.cells.len())
            .filter(|&c| selected(c))
            .flat_map(|c| self.cells[c].iter().copied())
            .collect();

        // Prepared workloads: the ones the selected runs use, and the first
        // of each workload (point and repetition order) for the facts.
        let mut keys: Vec<Key> = Vec::new();
        for (pi, p) in self.points.iter().enumerate() {
            for &wi in &p.workloads {
                for rep in 0..spec.repetitions {
                    keys.push(self.key(wi, pi, rep));
                }
            }
        }
        keys.sort();
        keys.dedup();
        let firsts: Vec<Key> = (0..spec.workloads.len())
            .filter_map(|wi| keys.iter().find(|k| k.workload == wi).copied())
            .collect();
        let mut needed: Vec<Key> = firsts.clone();
        for &n in &todo_nodes {
            let node = &nodes[n];
            for &wi in &self.points[node.point].workloads {
                needed.push(self.key(wi, node.point, node.rep));
            }
        }
        needed.sort();
        needed.dedup();
        let prepared = try_par_map(&needed, options.threads, |k| {
            let w = &spec.workloads[k.workload];
            let seed = self.workload_seed(*k, &inputs);
            prepare(w, &inputs[k.workload], self.points[k.point].load, seed)
                .map(|(w, f)| (Arc::new(w), f))
        })?;
        let prepared: BTreeMap<Key, (Arc<Workload>, WorkloadFacts)> =
            needed.iter().copied().zip(prepared).collect();
        let workloads: Vec<WorkloadFacts> = firsts.iter().map(|k| prepared[k].1.clone()).collect();
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
                let p = &self.points[node.point];
                let ws: Vec<Arc<Workload>> = p
                    .workloads
                    .iter()
                    .map(|&wi| prepared[&self.key(wi, node.point, node.rep)].0.clone())
                    .collect();
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
                        let r = node.params.run(&input, reference);
                        if let (Some((cache, key)), Ok(outcome)) = (shared, &r) {
                            cache.keep(key, outcome);
                        }
                        r.map_err(|e| RunError::InCell {
                            cell: node.label.clone(),
                            error: Box::new(e),
                        })
                    }
                };
                if let Some(progress) = options.progress {
                    let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(&Progress {
                        done,
                        total,
                        cell: &node.label,
                        seconds: start.elapsed().as_secs_f64(),
                    });
                }
                r
            })?;
            outcomes.extend(todo.into_iter().zip(out));
        }
        let metrics = (self.experiment.kind.metrics)();
        let runs = outcomes
            .iter()
            .map(|(&n, outcome)| {
                let values = metrics
                    .iter()
                    .enumerate()
                    .map(|(m, info)| (info.name.to_string(), nodes[n].params.values(outcome, m)))
                    .collect();
                (n, values)
            })
            .collect();
        Ok(Measured {
            runs,
            workloads,
            notes,
        })
    }

    /// Aggregates measurements into the experiment's results: panel × x ×
    /// series over repetitions, relative panels against their reference
    /// runs, claims checked. Every cell must have been measured.
    pub fn assemble(&self, measured: Measured) -> Results {
        let experiment = self.experiment;
        let spec = &experiment.spec;
        let series = experiment.series();
        let nodes = &self.graph.nodes;
        let value_of = |n: usize, metric: &str| -> Vec<Option<f64>> {
            debug_assert!(measured.runs.contains_key(&n), "run {n} was not measured");
            measured
                .runs
                .get(&n)
                .and_then(|m| m.get(metric))
                .cloned()
                .unwrap_or_default()
        };
        let metrics = (experiment.kind.metrics)();
        let mut rows = Vec::new();
        let mut samples = Samples::new(spec.confidence.unwrap_or(0.95));
        for (qi, panel) in spec.panels.iter().enumerate() {
            let metric = metrics
                .iter()
                .find(|m| m.name == panel.metric.get_ref())
                .unwrap_or(&metrics[0])
                .name;
            let relative = panel.reference().map(|(_, reduction)| reduction);
            for (pi, p) in self.points.iter().enumerate() {
                for (si, s) in series.iter().enumerate() {
                    let mut ys = Vec::new();
                    for rep in 0..spec.repetitions as usize {
                        let n = self.cell_nodes[pi][si][rep];
                        let values = value_of(n, metric);
                        let values: Vec<(u32, f64)> = match relative {
                            None => values
                                .into_iter()
                                .enumerate()
                                .filter_map(|(i, v)| Some((i as u32, v?)))
                                .collect(),
                            Some(reduction) => {
                                let r = self.panel_nodes[qi][pi][si][rep];
                                let base = value_of(r, metric);
                                values
                                    .iter()
                                    .zip(&base)
                                    .enumerate()
                                    .filter_map(|(i, (v, b))| Some((i as u32, gain((*v)?, (*b)?)?)))
                                    .map(|(i, g)| (i, if reduction { -g } else { g }))
                                    .collect()
                            }
                        };
                        for (sample, value) in trimmed(values, spec.trim) {
                            if !value.is_nan() {
                                let unit = Unit {
                                    repetition: rep as u32,
                                    sample,
                                    value,
                                };
                                samples.push(&panel.id, s, &p.x, unit);
                            }
                            ys.push(value);
                        }
                    }
                    let (y, ci) = mean_ci_at(&ys, spec.confidence.unwrap_or(0.95));
                    rows.push(Row {
                        panel: panel.id.clone(),
                        series: s.clone(),
                        x: p.x.clone(),
                        y,
                        ci,
                        runs: u32::try_from(ys.len()).unwrap_or(u32::MAX),
                    });
                }
            }
        }
        debug_assert!(nodes.len() >= measured.runs.len());
        let verdicts = check_claims(&spec.claims, &rows, &samples);
        let figure = Figure::of(experiment, &measured.workloads);
        Results {
            rows,
            samples,
            verdicts,
            workloads: measured.workloads,
            seeds: self.seeds.clone(),
            figure,
            notes: measured.notes,
        }
    }
}

/// Groups nodes into cells: a node and the node it is measured against
/// belong to one cell (connected components of the reference edges),
/// numbered by their first node.
fn group_by_reference(nodes: &[Node<'_>]) -> Vec<Vec<usize>> {
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..nodes.len()).collect();
    for (i, node) in nodes.iter().enumerate() {
        if let Some(r) = node.reference {
            let (a, b) = (find(&mut parent, i), find(&mut parent, r));
            // The smaller index is the root, so a cell is named by its first node.
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut index_of_root: BTreeMap<usize, usize> = BTreeMap::new();
    let mut cells: Vec<Vec<usize>> = Vec::new();
    for i in 0..nodes.len() {
        let root = find(&mut parent, i);
        let c = *index_of_root.entry(root).or_insert_with(|| {
            cells.push(Vec::new());
            cells.len() - 1
        });
        cells[c].push(i);
    }
    cells
}

/// Runs `experiment` on the supplied traces.
pub fn run(
    experiment: &Experiment,
    traces: &Traces,
    options: &RunOptions<'_>,
) -> Result<Results, RunError> {
    let layout = Layout::new(experiment);
    let measured = layout.simulate(traces, options, &|_| true)?;
    Ok(layout.assemble(measured))
}
