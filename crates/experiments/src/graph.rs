//! The run graph: every run of an experiment once (runs with equal
//! parameters, workloads and references are one), grouped into cells
//! (x × series × repetition, with the runs each is measured against), all
//! laid out from the configuration before anything runs.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::config::Facet;
use crate::experiment::Experiment;
use crate::kind::Resolved;
use crate::plan::Resolution;

/// A point on the x axis and the workloads its cells see.
pub(crate) struct Point {
    pub(crate) x: String,
    /// Indices in `[[workloads]]`.
    pub(crate) workloads: Vec<usize>,
    /// The point of the plan (the sweep value) this point is.
    pub(crate) plan: usize,
    /// The facet (see [`Experiment::facets`]) whose panels this point
    /// belongs to.
    pub(crate) facet: Option<usize>,
}

/// Which prepared workload a cell uses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Key {
    pub(crate) workload: usize,
    /// The plan point whose load it is scaled to (0 when no point scales
    /// the load).
    pub(crate) point: usize,
    pub(crate) rep: u32,
}

/// One simulation to run: a resolved parameter set at one point and
/// repetition, with the node whose samples it is measured against.
pub(crate) struct Node<'a> {
    pub(crate) point: usize,
    /// The workloads it runs on: indices in the plan's `variants`.
    pub(crate) workloads: Vec<usize>,
    pub(crate) rep: u32,
    pub(crate) params: &'a dyn Resolved,
    /// The parameters' canonical text.
    pub(crate) identity: &'a str,
    pub(crate) reference: Option<usize>,
    pub(crate) label: String,
    /// The entry of the document's `series` list whose values it runs
    /// (the first, when several series' runs are this one), if any: a
    /// kind's or a panel's reference has none.
    pub(crate) series: Option<usize>,
}

/// What makes two runs one: how the point prepares its workloads, the
/// workloads, the repetition, the parameters' text and the reference.
pub(crate) type NodeKey<'a> = (usize, Vec<usize>, u32, &'a str, Option<usize>);

/// The simulations of an experiment, each once: runs with equal
/// parameters, workloads and references are one node.
#[derive(Default)]
pub(crate) struct Graph<'a> {
    pub(crate) nodes: Vec<Node<'a>>,
    pub(crate) index: BTreeMap<NodeKey<'a>, usize>,
}

impl<'a> Graph<'a> {
    /// The node of `params` at (`point`, `rep`) on `workloads`; `wpoint`
    /// identifies how the point prepares them (points that prepare the same
    /// workloads share runs).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn node(
        &mut self,
        point: usize,
        wpoint: usize,
        workloads: Vec<usize>,
        rep: u32,
        r: &'a Resolution,
        reference: Option<usize>,
        series: Option<usize>,
        label: impl FnOnce() -> String,
    ) -> usize {
        let key = (wpoint, workloads, rep, r.key.as_str(), reference);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.nodes.push(Node {
            point,
            workloads: key.1.clone(),
            rep,
            params: r.params.as_ref(),
            identity: r.key.as_str(),
            reference,
            label: label(),
            series,
        });
        self.index.insert(key, self.nodes.len() - 1);
        self.nodes.len() - 1
    }
}

/// The runs of an experiment, grouped into cells, before anything runs:
/// what [`run`] executes in one process and a shard executes in part.
///
/// A cell is a run together with the runs it is measured against by its
/// kind (its [`Kind::reference`](crate::kind::Kind::reference)), so every
/// cell runs on its own; cells are numbered in the order the pipeline
/// creates their runs, which depends on the configuration only.
pub(crate) struct Layout<'e> {
    pub(crate) experiment: &'e Experiment,
    pub(crate) points: Vec<Point>,
    /// Whether the sweep scales the load (workloads prepared per point).
    pub(crate) scales_load: bool,
    pub(crate) seeds: Vec<u64>,
    pub(crate) graph: Graph<'e>,
    /// `[point][series][rep]`.
    pub(crate) cell_nodes: Vec<Vec<Vec<usize>>>,
    /// `[panel][point][series][rep]`.
    pub(crate) panel_nodes: Vec<Vec<Vec<Vec<usize>>>>,
    /// Cell index → its nodes, in creation order.
    pub cells: Vec<Vec<usize>>,
}

impl<'e> Layout<'e> {
    /// Lays out every run of `experiment`.
    pub(crate) fn new(experiment: &'e Experiment) -> Self {
        let spec = &experiment.spec;
        let plan = &experiment.plan;
        let series = experiment.series();
        let scales_load = crate::sweep::sets_load(experiment);
        let xs = experiment.x_values();
        let panels = spec.sweep.workloads.as_ref().map(|f| *f.get_ref()) == Some(Facet::Panels);
        // Each facet (workload and grid value its panels show) runs the
        // points of its grid value on its workload.
        let points: Vec<Point> = experiment
            .facets()
            .into_iter()
            .flat_map(|facet| {
                let (workload, grid) = experiment.facet_parts(facet);
                plan.points
                    .iter()
                    .enumerate()
                    .filter(move |(_, p)| grid.is_none() || p.grid == grid)
                    .map(move |(pp, p)| (pp, p, workload, facet))
            })
            .map(|(pp, p, workload, facet)| Point {
                x: xs[p.x].clone(),
                workloads: if experiment.is_categorical() {
                    vec![p.x]
                } else {
                    match workload {
                        Some(w) if panels => vec![w],
                        _ => (0..spec.workloads.len()).collect(),
                    }
                },
                plan: pp,
                facet,
            })
            .collect();
        // Points that prepare workloads alike share runs of equal
        // parameters on the same workloads.
        let wpoint = |p: usize| {
            if experiment.is_categorical() || scales_load {
                points[p].plan
            } else {
                0
            }
        };
        // The workloads (variants) series `si` runs on at point `pi`.
        let on = |pi: usize, si: usize| -> Vec<usize> {
            let only = plan.series[si].only;
            points[pi]
                .workloads
                .iter()
                .filter(|&&w| only.is_none_or(|o| o == w))
                .map(|&w| plan.point_variants[points[pi].plan][si][w])
                .collect()
        };
        let seeds: Vec<u64> = (0..spec.repetitions)
            .map(|r| experiment.repetition_seed(r))
            .collect();

        // The runs: every cell, the runs kinds measure cells against, and the
        // runs relative panels compare with, each once.
        let label = |what: &str, pi: usize, si: usize, rep: u32| {
            run_label(experiment, &points[pi], &on(pi, si), what, rep)
        };
        let mut graph = Graph::default();
        let mut cell_nodes = vec![vec![Vec::new(); series.len()]; points.len()];
        for pi in 0..points.len() {
            let pp = points[pi].plan;
            for (si, cell) in plan.cells[pp].iter().enumerate() {
                for rep in 0..spec.repetitions {
                    let reference = plan.kind_refs[pp][si].as_ref().map(|r| {
                        graph.node(pi, wpoint(pi), on(pi, si), rep, r, None, None, || {
                            label(&format!("reference of {}", series[si]), pi, si, rep)
                        })
                    });
                    let entry = Some(plan.series[si].entry);
                    let n = graph.node(
                        pi,
                        wpoint(pi),
                        on(pi, si),
                        rep,
                        cell,
                        reference,
                        entry,
                        || label(&series[si], pi, si, rep),
                    );
                    cell_nodes[pi][si].push(n);
                }
            }
        }
        let mut panel_nodes = Vec::new();
        for (qi, by_point) in plan.panel_refs.iter().enumerate() {
            let mut out = vec![vec![Vec::new(); series.len()]; points.len()];
            for pi in 0..points.len() {
                let Some(row) = by_point.get(points[pi].plan) else {
                    continue;
                };
                for (si, r) in row.iter().enumerate() {
                    let Some(r) = r else { continue };
                    for rep in 0..spec.repetitions {
                        let n = graph.node(pi, wpoint(pi), on(pi, si), rep, r, None, None, || {
                            label(
                                &format!("{} reference of {}", spec.panels[qi].id, series[si]),
                                pi,
                                si,
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
            scales_load,
            seeds,
            graph,
            cell_nodes,
            panel_nodes,
            cells,
        }
    }

    /// Describes cell `c`: its first run's label, and how many runs share it.
    /// A number out of range (from a file) is described as such, never a
    /// panic.
    pub(crate) fn cell_label(&self, c: usize) -> String {
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
    pub(crate) fn run_labels(&self, c: usize) -> impl Iterator<Item = (usize, &str)> {
        self.cells
            .get(c)
            .into_iter()
            .flatten()
            .map(|&n| (n, self.graph.nodes[n].label.as_str()))
    }

    /// Whether workload variant `wi` is generated anew for every repetition.
    pub(crate) fn generated(&self, wi: usize) -> bool {
        let w = &self.experiment.plan.variants[wi];
        w.trace.is_none() && w.lublin99.is_some()
    }

    /// The prepared workload a run at (`point`, `rep`) uses for `workload`
    /// (a variant).
    pub(crate) fn key(&self, workload: usize, point: usize, rep: u32) -> Key {
        Key {
            workload,
            point: if self.scales_load {
                self.points[point].plan
            } else {
                0
            },
            rep: if self.generated(workload) { rep } else { 0 },
        }
    }
}

/// A run's description: `what` (a series, say) on the point's workloads, at
/// its x on a numeric axis, with its repetition when there are several.
/// `workloads` are the run's (indices in the plan's variants).
pub(crate) fn run_label(
    experiment: &Experiment,
    point: &Point,
    workloads: &[usize],
    what: &str,
    rep: u32,
) -> String {
    let spec = &experiment.spec;
    let on: Vec<&str> = workloads
        .iter()
        .map(|&wi| experiment.plan.variants[wi].label.get_ref().as_str())
        .collect();
    let mut label = format!("{what} on {}", on.join(" + "));
    label += &experiment.plan.points[point.plan].at;
    if spec.repetitions > 1 {
        label += &format!(" (repetition {})", rep + 1);
    }
    label
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

/// Shard `index` of `count`: the cells whose number is `index` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// From 0 to `count - 1`.
    pub index: u32,
    /// At least 1.
    pub count: u32,
}

impl Shard {
    /// The whole experiment as one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`, if `index < count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 {
            return Err(format!(
                "shard {index}/{count}: the number of shards must be at least 1"
            ));
        }
        if index >= count {
            return Err(format!(
                "shard {index}/{count}: shards are numbered 0 to {} (I/N with I < N)",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard runs cell `cell`.
    pub fn owns(&self, cell: usize) -> bool {
        cell % self.count as usize == self.index as usize
    }

    /// The shard of `count` that runs cell `cell`.
    pub fn of(cell: usize, count: u32) -> Shard {
        Shard {
            index: (cell % count.max(1) as usize) as u32,
            count: count.max(1),
        }
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`, e.g. `0/3`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not I/N (shard I of N, e.g. 0/3)"))?;
        let num = |v: &str, what: &str| {
            v.trim().parse::<u32>().map_err(|_| {
                if v.trim().parse::<u128>().is_ok() {
                    format!("'{s}': {what} '{v}' is too large (at most {})", u32::MAX)
                } else {
                    format!("'{s}': {what} '{v}' is not a non-negative integer")
                }
            })
        };
        Shard::new(num(i, "I")?, num(n, "N")?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
