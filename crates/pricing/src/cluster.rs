//! A time-shared cluster run by the economy-based RMS: jobs arrive, are
//! admitted or rejected by Algorithm 1, and execute on their nodes under the
//! job control of Algorithm 2 until they finish.
//!
//! Each node has one processor. A job with `PROC_i` processors runs one task
//! on each of `PROC_i` distinct nodes, starting at its arrival (there is no
//! queue: a time-shared node takes every admitted job at once); the job
//! finishes when its last task does. Each task's progress is tracked per
//! node (`clockCPU_ij`).
//!
//! Time is integer seconds; processor time is `f64` seconds. Between events
//! a node's rates are constant. A node's partitions and rates are recomputed
//! whenever its set of tasks changes, a task finishes, uses up its estimate,
//! or reaches its deadline; events fall on the first whole second at or after
//! the exact instant. At one instant, node events are handled before
//! arrivals.
//!
//! Limits: a cluster has at most [`MAX_NODES`](crate::MAX_NODES) nodes; arrivals lie in
//! `[-Time::LIMIT, Time::LIMIT]` (±2^40 s), run times, estimates and
//! deadlines in `[1, MAX_DURATION]` (2^40 s), also once translated to the
//! slowest node; a job that would still run at [`Time::LATEST`] (2^52 s)
//! stops the cluster with [`PricingError::BeyondLatest`]. Every event lies
//! strictly after the previous one of its node and no later than
//! `Time::LATEST`, so a run always ends.

use std::any::Any;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use profile::{MAX_DURATION, Time};

use crate::admission::{Admission, Decision, LibraAdmission, NodeLoad, check_allocation};
use crate::config::{ClusterConfig, Committed};
use crate::context::JobContext;
use crate::control::{Late, WORK_EPS, capped, partition_left, spread_into};
use crate::error::{PricingError, amount, in_domain};
use crate::price::{PriceFunction, Quote};
use crate::spec::JobSpec;

/// A job to replay: its submission and what it really needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Submission {
    /// Caller's identifier, echoed in the outcome.
    pub id: u64,
    /// `AT_i`.
    pub arrival: Time,
    /// The user's specification.
    pub spec: JobSpec,
    /// The actual run time on a reference node (`RE_i` may under-estimate
    /// it), in seconds.
    pub run_time: i64,
}

/// What happened to one job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobOutcome {
    /// The job's identifier.
    pub id: u64,
    /// `AT_i`.
    pub arrival: Time,
    /// `DT_i = AT_i + D_i`.
    pub deadline: Time,
    /// `B_i`.
    pub budget: f64,
    /// Accepted (with nodes and cost) or rejected (with the reason).
    pub decision: Decision,
    /// `FT_i`, once the job has finished.
    pub finish: Option<Time>,
}

impl JobOutcome {
    /// `C_i`, if the job was accepted.
    pub fn cost(&self) -> Option<f64> {
        self.decision.allocation().map(|a| a.cost)
    }

    /// `FT_i <= DT_i`.
    pub fn met_deadline(&self) -> bool {
        self.finish.is_some_and(|f| f <= self.deadline)
    }

    /// Accepted, finished by its deadline and charged within its budget:
    /// counted in `n_QoS` (eq. 7).
    pub fn met_qos(&self) -> bool {
        self.met_deadline() && self.cost().is_some_and(|c| c <= self.budget)
    }
}

/// A task as [`Cluster::node`] shows it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TaskView {
    /// The job's identifier.
    pub job: u64,
    /// `RE_ij`, seconds of processor time.
    pub estimate: f64,
    /// The processor time the task really needs.
    pub work: f64,
    /// `clockCPU_ij`, as of the node's last update.
    pub cpu_done: f64,
    /// The partition of the last recomputation (Algorithm 2).
    pub partition: f64,
    /// The rate the node serves it at since then.
    pub rate: f64,
}

#[derive(Clone, Debug)]
struct Task {
    job: usize,
    /// The job's absolute deadline `AT_i + D_i`, copied from its record:
    /// the hot loops over a node's tasks then read nothing else.
    deadline: Time,
    estimate: f64,
    work: f64,
    cpu: f64,
    partition: f64,
    rate: f64,
}

#[derive(Clone, Debug)]
struct Node {
    last: Time,
    version: u64,
    tasks: Vec<Task>,
    free_memory: u64,
    free_disk: u64,
}

#[derive(Clone, Debug)]
struct Record {
    outcome: JobOutcome,
    memory: u64,
    disk: u64,
    tasks_left: usize,
}

/// The state of a time-shared cluster under the economy-based RMS, admitting
/// jobs with the rule `A` (Libra's Algorithm 1 unless
/// [`Cluster::with_admission`] gives another).
///
/// ```
/// use pricing::{Cluster, ClusterConfig, JobSpec, LibraDollar};
/// use profile::Time;
///
/// let mut cluster = Cluster::new(ClusterConfig::homogeneous(2, 168, 1.0))?;
/// let price = LibraDollar { alpha: 1.0, beta: 0.1 };
/// // One hour of work on both nodes, due within two hours, budget $5000.
/// let d = cluster.submit(Time(0), 1, &JobSpec::new(3600, 2, 7200, 5000.0), 3600, &price)?;
/// assert!(d.allocation().is_some());
/// cluster.run_to_completion()?;
/// let out = &cluster.outcomes()[0];
/// assert!(out.met_qos());
/// // Alone on its nodes it gets the whole processor: done after one hour.
/// assert_eq!(out.finish, Some(Time(3600)));
/// # Ok::<(), pricing::PricingError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Cluster<A = LibraAdmission> {
    config: ClusterConfig,
    admission: A,
    nodes: Vec<Node>,
    jobs: Vec<Record>,
    /// Node events `(time, node, version)`; an event whose version is not
    /// its node's current one was superseded by a recomputation. At most one
    /// event per node is current, so the order is total and deterministic.
    events: BinaryHeap<Reverse<(Time, usize, u64)>>,
    now: Time,
    /// The lowest node rating: run times are longest there.
    slowest: u32,
    /// The job that would run past `Time::LATEST`, once one has: the
    /// cluster stops.
    beyond: Option<u64>,
    /// Buffers for a node's partitions and rates in `recompute`.
    scratch: (Vec<f64>, Vec<f64>),
    /// The ids submitted so far, each with its position in the order
    /// submitted: an outcome is its job's by id.
    ids: HashMap<u64, usize>,
}

impl Cluster {
    /// An idle cluster at time 0, admitting with Libra's Algorithm 1
    /// ([`LibraAdmission`]).
    pub fn new(config: ClusterConfig) -> Result<Cluster, PricingError> {
        Cluster::with_admission(config, LibraAdmission)
    }
}

impl<A> Cluster<A> {
    /// An idle cluster at time 0 whose jobs are admitted by `admission`
    /// (a `&mut` to a rule, or a `Box<dyn Admission>`, serve too); see
    /// [`Admission`] for an example.
    pub fn with_admission(config: ClusterConfig, admission: A) -> Result<Cluster<A>, PricingError> {
        config.check()?;
        let slowest = config.nodes.iter().map(|n| n.rating).min().unwrap_or(1);
        let nodes = config
            .nodes
            .iter()
            .map(|n| Node {
                last: Time::ZERO,
                version: 0,
                tasks: Vec::new(),
                free_memory: n.memory_mb,
                free_disk: n.disk_mb,
            })
            .collect();
        Ok(Cluster {
            config,
            admission,
            nodes,
            jobs: Vec::new(),
            ids: HashMap::new(),
            events: BinaryHeap::new(),
            now: Time(i64::MIN),
            slowest,
            beyond: None,
            scratch: (Vec::new(), Vec::new()),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    /// The admission rule.
    pub fn admission(&self) -> &A {
        &self.admission
    }

    /// The admission rule, to change its settings between jobs.
    pub fn admission_mut(&mut self) -> &mut A {
        &mut self.admission
    }

    /// The time of the last event or arrival handled.
    pub fn now(&self) -> Time {
        self.now
    }

    /// Job `id` arrives at `arrival` (`AT_i`) with specification `job`; it
    /// really needs `run_time` seconds on a reference node. The cluster first
    /// runs up to `arrival`, then its [`Admission`] rule decides with `price`
    /// (Algorithm 1 by default); an accepted job starts at once on its nodes.
    ///
    /// Errors: an invalid specification ([`JobSpec::check`]), an id
    /// submitted before ([`PricingError::DuplicateId`]), an arrival
    /// outside `[-Time::LIMIT, Time::LIMIT]` or before the clock, a run time
    /// outside `[0, MAX_DURATION]`, an estimate or run time longer than
    /// `MAX_DURATION` on the slowest node, or a cluster stopped at
    /// `Time::LATEST` ([`PricingError::BeyondLatest`]), the admission rule's
    /// error, or an allocation of the rule's the cluster cannot run
    /// ([`PricingError::InvalidAllocation`]).
    pub fn submit<X: Any>(
        &mut self,
        arrival: Time,
        id: u64,
        job: &JobSpec<X>,
        run_time: i64,
        price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError>
    where
        A: Admission,
    {
        job.check()?;
        amount("run time", run_time, 0, "a number of seconds >= 0")?;
        let limit = Time::LIMIT.secs();
        in_domain(Some(id), "arrival", arrival.secs(), -limit, limit)?;
        in_domain(Some(id), "run time", run_time, 0, MAX_DURATION)?;
        for (name, secs) in [
            (
                "runtime estimate on the slowest node",
                job.job_details.runtime_estimate,
            ),
            ("run time on the slowest node", run_time),
        ] {
            let slowest = self.config.on_rating(secs, self.slowest);
            in_domain(Some(id), name, slowest, 0, MAX_DURATION)?;
        }
        if let Some(&first) = self.ids.get(&id) {
            return Err(PricingError::DuplicateId {
                id,
                first,
                second: self.ids.len(),
            });
        }
        if arrival < self.now {
            return Err(PricingError::ArrivalInPast {
                id,
                arrival: arrival.0,
                now: self.now.0,
            });
        }
        let loads = self.snapshot(arrival, job)?;
        let context = JobContext::new(id, arrival, job);
        let decision = self.admission.admit(&context, &loads, price)?;
        if let Decision::Accept(a) = &decision {
            check_allocation(
                id,
                &job.resource_requirements,
                job.qos_constraints.budget,
                &loads,
                a,
            )?;
        }
        self.ids.insert(id, self.ids.len());
        let index = self.jobs.len();
        let relative = job.qos_constraints.deadline;
        let r = &job.resource_requirements;
        self.jobs.push(Record {
            outcome: JobOutcome {
                id,
                arrival,
                deadline: arrival.saturating_add(relative),
                budget: job.qos_constraints.budget,
                decision: decision.clone(),
                finish: None,
            },
            memory: r.memory_mb,
            disk: r.disk_mb,
            tasks_left: r.processors as usize,
        });
        if let Decision::Accept(a) = &decision {
            for &j in &a.nodes {
                let estimate = self.config.on_node(job.job_details.runtime_estimate, j) as f64;
                let work = self.config.on_node(run_time, j) as f64;
                let node = &mut self.nodes[j];
                node.free_memory = node.free_memory.saturating_sub(r.memory_mb);
                node.free_disk = node.free_disk.saturating_sub(r.disk_mb);
                node.tasks.push(Task {
                    job: index,
                    deadline: arrival.saturating_add(relative),
                    estimate,
                    work,
                    cpu: 0.0,
                    partition: 0.0,
                    rate: 0.0,
                });
                self.recompute(j);
            }
        }
        Ok(decision)
    }

    /// Runs the cluster up to `at` (in `[-Time::LIMIT, Time::LIMIT]`) and
    /// returns what Algorithm 1 would see for `job` on every node then,
    /// without submitting it: a quote.
    pub fn snapshot<X>(
        &mut self,
        at: Time,
        job: &JobSpec<X>,
    ) -> Result<Vec<NodeLoad>, PricingError> {
        let limit = Time::LIMIT.secs();
        in_domain(None, "quote time", at.secs(), -limit, limit)?;
        if at < self.now {
            return Err(PricingError::BeforeClock {
                at: at.0,
                now: self.now.0,
            });
        }
        self.advance(at)?;
        let now = self.now;
        let d = job.qos_constraints.deadline;
        let late = self.config.control.late;
        let rule = self.config.committed;
        let mut out = Vec::with_capacity(self.nodes.len());
        // `RE_ij` depends on the node's rating only: computed once per run
        // of nodes with equal ratings (all of them on a homogeneous cluster).
        let estimate = job.job_details.runtime_estimate;
        let mut on_rating: Option<(u32, i64)> = None;
        for j in 0..self.nodes.len() {
            let (share, committed) = self.progress_and_load(j, now, d, late, rule);
            let node = &self.nodes[j];
            let spec = &self.config.nodes[j];
            let runtime_estimate = match on_rating {
                Some((rating, secs)) if rating == spec.rating => secs,
                _ => {
                    let secs = self.config.on_rating(estimate, spec.rating);
                    on_rating = Some((spec.rating, secs));
                    secs
                }
            };
            out.push(NodeLoad {
                node: j,
                memory_mb: spec.memory_mb,
                disk_mb: spec.disk_mb,
                free_memory_mb: node.free_memory,
                free_disk_mb: node.free_disk,
                share,
                quote: Quote {
                    runtime_estimate,
                    deadline: d,
                    base_price: spec.base_price,
                    res_max: d,
                    committed: ceil_i64(committed - WORK_EPS).max(0),
                },
            });
        }
        Ok(out)
    }

    /// [`Cluster::progress`] to `now`, then the node's load for a job with
    /// relative deadline `d`: the sum of its tasks' partitions, and their
    /// committed processor-seconds under `rule`. One pass over the tasks,
    /// each brought up to date and then counted, in task order: the same
    /// numbers as the two passes.
    fn progress_and_load(
        &mut self,
        j: usize,
        now: Time,
        d: i64,
        late: Late,
        rule: Committed,
    ) -> (f64, f64) {
        let node = &mut self.nodes[j];
        let dt = if node.tasks.is_empty() {
            0.0
        } else {
            (now - node.last).max(0) as f64
        };
        node.last = if node.tasks.is_empty() {
            now
        } else {
            node.last.max(now)
        };
        // One loop per rule (the rule does not change along the tasks).
        let tasks = &mut node.tasks;
        match rule {
            Committed::Window => load(tasks, dt, now, late, |_, p, left| {
                p * (if left > 0 { left.min(d) } else { d }) as f64
            }),
            Committed::Remaining => load(tasks, dt, now, late, |t, _, _| {
                (t.estimate - t.cpu).max(0.0)
            }),
            Committed::Estimate => load(tasks, dt, now, late, |t, _, _| t.estimate),
        }
    }

    /// Brings node `j`'s processor-time counters up to `t`.
    fn progress(&mut self, j: usize, t: Time) {
        let node = &mut self.nodes[j];
        if node.tasks.is_empty() {
            node.last = t;
            return;
        }
        let dt = (t - node.last).max(0) as f64;
        if dt > 0.0 {
            for task in &mut node.tasks {
                task.cpu = capped(task.cpu + task.rate * dt, task.work);
            }
        }
        node.last = node.last.max(t);
    }

    /// Algorithm 2 on node `j` now: new partitions and rates, and the node's
    /// next event.
    fn recompute(&mut self, j: usize) {
        let now = self.now;
        let late = self.config.control.late;
        let node = &mut self.nodes[j];
        // The buffers are the cluster's, reused from call to call.
        let (mut partitions, mut rates) = std::mem::take(&mut self.scratch);
        partitions.clear();
        partitions.extend(
            node.tasks
                .iter()
                .map(|t| partition_left(t.estimate, t.cpu, t.deadline - now, late)),
        );
        spread_into(&partitions, self.config.control.spare, &mut rates);
        node.version += 1;
        // The soonest event: (seconds from now, the job whose task it is).
        let mut next: Option<(i64, usize)> = None;
        let mut sooner = |dt: i64, job: usize| {
            if next.is_none_or(|(n, _)| dt < n) {
                next = Some((dt, job));
            }
        };
        // A float cast saturates, so a tiny rate gives i64::MAX, not a wrap.
        let soonest = |sooner: &mut dyn FnMut(i64, usize), secs: f64, job: usize| {
            sooner(ceil_i64(secs - WORK_EPS).max(1), job);
        };
        for ((task, &p), &r) in node.tasks.iter_mut().zip(&partitions).zip(&rates) {
            task.partition = p;
            task.rate = r;
            if r > 0.0 {
                soonest(&mut sooner, (task.work - task.cpu) / r, task.job);
                if task.cpu < task.estimate - WORK_EPS {
                    soonest(&mut sooner, (task.estimate - task.cpu) / r, task.job);
                }
            }
            let due = task.deadline - now;
            if due > 0 {
                // What `soonest` makes of a whole number of seconds below
                // 2^42 (deadlines within ±2^41 s, `now` after the earliest
                // arrival): `due − WORK_EPS` lies in `(due − 1, due]`, so its
                // ceiling is `due` itself.
                debug_assert_eq!(ceil_i64(due as f64 - WORK_EPS).max(1), due);
                sooner(due, task.job);
            }
        }
        self.scratch = (partitions, rates);
        if let Some((dt, job)) = next {
            // Strictly later than now, and never past the end of time.
            match now.checked_add(dt).filter(|&t| t <= Time::LATEST) {
                Some(t) => self.events.push(Reverse((t, j, node.version))),
                None => {
                    let id = self.jobs[job].outcome.id;
                    self.beyond.get_or_insert(id);
                }
            }
        }
    }

    /// Handles node `j`'s event now: finished tasks leave, the rest are
    /// re-partitioned.
    fn node_event(&mut self, j: usize) {
        let now = self.now;
        self.progress(j, now);
        let node = &mut self.nodes[j];
        let mut k = 0;
        while k < node.tasks.len() {
            let t = &node.tasks[k];
            if t.cpu < t.work - WORK_EPS {
                k += 1;
                continue;
            }
            let t = node.tasks.remove(k);
            let rec = &mut self.jobs[t.job];
            node.free_memory = node.free_memory.saturating_add(rec.memory);
            node.free_disk = node.free_disk.saturating_add(rec.disk);
            rec.tasks_left -= 1;
            if rec.tasks_left == 0 {
                rec.outcome.finish = Some(now);
            }
        }
        self.recompute(j);
    }

    /// The time of the next pending event, if any (superseded events are
    /// discarded on the way); `None` once the cluster has stopped at
    /// `Time::LATEST`.
    pub fn next_event(&mut self) -> Option<Time> {
        if self.beyond.is_some() {
            return None;
        }
        while let Some(&Reverse((t, j, version))) = self.events.peek() {
            if self.nodes[j].version == version {
                return Some(t);
            }
            self.events.pop();
        }
        None
    }

    /// Handles the next pending event and returns its time; `None` when
    /// nothing is left to do, or once the cluster has stopped because a job
    /// would run past `Time::LATEST` (see [`Cluster::beyond_latest`]).
    ///
    /// Each call handles one node event. A node's events come strictly
    /// later than its previous one and no later than `Time::LATEST`, and in
    /// practice a few per task (its arrival, estimate used up, deadline,
    /// finish), so stepping until `None` always ends.
    pub fn step(&mut self) -> Option<Time> {
        if self.beyond.is_some() {
            return None;
        }
        while let Some(Reverse((t, j, version))) = self.events.pop() {
            if self.nodes[j].version != version {
                continue;
            }
            self.now = self.now.max(t);
            self.node_event(j);
            return Some(t);
        }
        None
    }

    /// Runs every event up to and including `to`, and sets the clock to `to`.
    ///
    /// Fails with [`PricingError::BeyondLatest`] if a job would run past
    /// `Time::LATEST`; the cluster stays stopped.
    pub fn advance(&mut self, to: Time) -> Result<(), PricingError> {
        while self.next_event().is_some_and(|t| t <= to) {
            self.step();
        }
        self.latest()?;
        self.now = self.now.max(to);
        Ok(())
    }

    /// Runs until every accepted job has finished.
    ///
    /// Fails with [`PricingError::BeyondLatest`] if a job would run past
    /// `Time::LATEST`.
    pub fn run_to_completion(&mut self) -> Result<(), PricingError> {
        while self.step().is_some() {}
        self.latest()
    }

    /// The job that would have run past `Time::LATEST` (2^52 s), if one
    /// has: the cluster has stopped there.
    pub fn beyond_latest(&self) -> Option<u64> {
        self.beyond
    }

    fn latest(&self) -> Result<(), PricingError> {
        match self.beyond {
            Some(job) => Err(PricingError::BeyondLatest { job }),
            None => Ok(()),
        }
    }

    /// Node `j`'s executing tasks, as of its last update.
    ///
    /// # Panics
    ///
    /// If `j` is not a node index.
    pub fn node(&self, j: usize) -> Vec<TaskView> {
        self.nodes[j]
            .tasks
            .iter()
            .map(|t| TaskView {
                job: self.jobs[t.job].outcome.id,
                estimate: t.estimate,
                work: t.work,
                cpu_done: t.cpu,
                partition: t.partition,
                rate: t.rate,
            })
            .collect()
    }

    /// One outcome per submitted job, in submission order.
    pub fn outcomes(&self) -> Vec<JobOutcome> {
        self.jobs.iter().map(|r| r.outcome.clone()).collect()
    }
}

/// Replays `jobs` (in non-decreasing arrival order) on a cluster built from
/// `config`, admitting with Algorithm 1 and `price`, and runs until every
/// accepted job has finished. One outcome per job, in input order.
pub fn simulate(
    config: &ClusterConfig,
    jobs: &[Submission],
    price: &dyn PriceFunction,
) -> Result<Vec<JobOutcome>, PricingError> {
    simulate_with(config, jobs, price, LibraAdmission)
}

/// [`simulate`] with the admission rule `admission` instead of Algorithm 1.
pub fn simulate_with<A: Admission>(
    config: &ClusterConfig,
    jobs: &[Submission],
    price: &dyn PriceFunction,
    admission: A,
) -> Result<Vec<JobOutcome>, PricingError> {
    let mut cluster = Cluster::with_admission(config.clone(), admission)?;
    for s in jobs {
        cluster.submit(s.arrival, s.id, &s.spec, s.run_time, price)?;
    }
    cluster.run_to_completion()?;
    Ok(cluster.outcomes())
}

/// The loop of [`Cluster::progress_and_load`] over a node's tasks, with
/// `committed(task, partition, seconds to its deadline)` the task's
/// committed processor-seconds: each task brought `dt` seconds forward,
/// then its partition and committed time added, in task order.
///
/// Not inlined: inside the snapshot's loop over the nodes the compiler
/// kept the two sums on the stack, and every task waited on a store and a
/// load; here they stay in registers.
#[inline(never)]
fn load(
    tasks: &mut [Task],
    dt: f64,
    now: Time,
    late: Late,
    committed: impl Fn(&Task, f64, i64) -> f64,
) -> (f64, f64) {
    let (mut share, mut sum) = (0.0, 0.0);
    for t in tasks {
        if dt > 0.0 {
            t.cpu = capped(t.cpu + t.rate * dt, t.work);
        }
        // `D_i − (now − AT_i)`, exactly: arrivals and deadlines lie within
        // ±2^41 s and `now` within ±2^52 s, so nothing overflows.
        let left = t.deadline.0.wrapping_sub(now.0);
        let p = partition_left(t.estimate, t.cpu, left, late);
        share += p;
        sum += committed(t, p, left);
    }
    (share, sum)
}

/// `x.ceil() as i64` (saturating, NaN to 0) without the `ceil` library
/// call, which the default x86-64 target cannot inline: the same number
/// for every `x`.
fn ceil_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) < x {
        t.saturating_add(1)
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::ceil_i64;

    #[test]
    fn ceil_i64_is_ceil_then_cast() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            2.5,
            -2.5,
            1e-300,
            -1e-300,
            4_503_599_627_370_495.5,
            9.2e18,
            9.3e18,
            -9.3e18,
            2f64.powi(63),
            -(2f64.powi(63)),
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::EPSILON,
            1.0 - f64::EPSILON,
        ];
        // And a sweep of ordinary values on and around integers.
        xs.extend((-2000..2000).map(|i| f64::from(i) * 0.37 - 1e-9));
        xs.extend((-2000..2000).map(f64::from));
        for x in xs {
            assert_eq!(ceil_i64(x), x.ceil() as i64, "{x}");
        }
    }
}
