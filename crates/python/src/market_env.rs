//! The core of `usched/MarketAdmission-v0`: the agent is the market of Yeo
//! & Buyya's utility-driven cluster (the `pricing` crate). At each arriving
//! job it rejects the job or admits it, on Algorithm 1's terms at a price
//! factor of its choice; the cluster runs the admitted jobs time-shared
//! (Algorithm 2) and the episode's reward weighs Cluster Profitability
//! against Job QoS Satisfaction (eq. 8 and 7, `pricing::Metrics`).
//!
//! The agent's decision is an implementation of the crate's public
//! decision point, [`pricing::Admission`]: [`MarketAdmission`] defers to
//! [`pricing::admit`] (Algorithm 1) under the run's price function scaled
//! by the agent's factor, and a job Algorithm 1 cannot fit is rejected
//! whatever the agent says. The environment drives a
//! [`pricing::Cluster`] one [`Cluster::submit`] per step, so a run of the
//! agent that always admits at factor 1 is the crate's `run_policy` for
//! Libra or Libra+$ on the same jobs, outcome for outcome.
//!
//! An episode is `episode` consecutive jobs of the workload from a start
//! the seed draws (uniform over every start), given deadlines and budgets
//! as the `pricing` experiments give them: the window's arrivals scaled by
//! the arrival delay factor (`swf_io::scale_load`), then
//! [`QosWorkload::jobs`] with the episode's QoS seed (also drawn by the
//! seed, or given).

use std::sync::Arc;

use numpy::PyArray1;
use pricing::{
    Cluster, Decision, JobContext, LibraDollar, LibraStatic, MAX_NODES, Metrics, Policy, QosJob,
    QosWorkload, Rejection, RunConfig, RunStats, Series, Submission, Urgency, UrgencyModel, admit,
    run_policy,
};
use profile::Job;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::convert::{action_index, error, int, int_arg, stats_dict, strict_int};
use crate::market_options::{Numbers, factors_of};
use crate::market_rule::{MarketAdmission, Offer, Price, squash, unit, word};
use crate::workload::Workload;

/// The observation's features, in order (docs/PYTHON.md and envs.py say
/// what each is).
pub(crate) const FEATURE_NAMES: [&str; 18] = [
    "procs",
    "estimate",
    "deadline",
    "share",
    "budget",
    "urgency",
    "interarrival",
    "load",
    "idle",
    "in_time",
    "committed",
    "feasible",
    "cost_to_budget",
    "rate",
    "no_deadline",
    "no_budget",
    "progress",
    "accepted",
];

/// Numbers in an observation.
pub(crate) const FEATURES: usize = FEATURE_NAMES.len();

/// The largest `alpha`, `beta` or price factor: with run times within
/// 2^40 s and at most `MAX_NODES` nodes, costs stay far from overflow.
pub(crate) const MAX_COEFFICIENT: f64 = 1e6;

/// Inter-arrival times are normalised on a log scale up to one day.
const DAY: f64 = 86_400.0;

/// A loaded job's answer from Algorithm 1 at factor 1, and what the
/// observation shows of the nodes.
#[derive(Clone, Debug)]
struct Preview {
    decision: Decision,
    /// Mean share committed, fraction of idle nodes, fraction that can
    /// finish the job by its deadline, mean `committed / RESMax`.
    load: f64,
    idle: f64,
    in_time: f64,
    committed: f64,
}

/// The episode in progress.
#[derive(Clone, Debug)]
struct Episode {
    start: usize,
    qos_seed: u64,
    jobs: Vec<QosJob>,
    urgency: Vec<Urgency>,
    submissions: Vec<Submission>,
    /// `Σ B_i` over the episode, in job order (eq. 8's denominator).
    budgets: f64,
    cluster: Cluster<MarketAdmission>,
    /// Jobs decided so far; the next one arrives.
    next: usize,
    accepted: usize,
    preview: Option<Preview>,
    /// The shaped rewards handed out so far.
    shaped: f64,
    /// The potential of the last shaped reward.
    potential: f64,
}

/// The market environment's state; Python wraps it in a `gymnasium.Env`.
#[pyclass(module = "usched._usched")]
pub(crate) struct MarketCore {
    /// The workload's jobs, in submit order.
    jobs: Arc<Vec<Job>>,
    run: RunConfig,
    policy: Policy,
    price: Price,
    qos: QosWorkload,
    arrival_delay: f64,
    nodes: u32,
    episode_len: usize,
    weight: f64,
    /// The factors of actions 1, 2, ... (`[1.0]` in the admit mode).
    factors: Vec<f64>,
    price_mode: bool,
    shaping: bool,
    /// `ln(1 + the workload's longest run time)`.
    log_run: f64,
    rng: ChaCha8Rng,
    episode: Option<Episode>,
}

impl MarketCore {
    fn current(&self) -> Result<&Episode, String> {
        self.episode
            .as_ref()
            .ok_or_else(|| "no episode yet: call reset first".to_string())
    }

    /// The jobs of the episode starting at `start` with QoS seed `seed`:
    /// the window, its arrivals scaled by the arrival delay factor, and the
    /// deadlines and budgets of `QosWorkload::jobs`.
    fn episode_jobs(&self, start: usize, seed: u64) -> Result<(Vec<QosJob>, Vec<Urgency>), String> {
        let window = self.jobs[start..start + self.episode_len].to_vec();
        let scaled = swf_io::scale_load(window, 1.0 / self.arrival_delay)
            .map_err(|e| format!("arrival_delay = {:?}: {e}", self.arrival_delay))?;
        let jobs = self
            .qos
            .jobs(&scaled, seed)
            .map_err(|e| format!("the QoS model: {e}"))?;
        // The classes of the same draws (QosJob does not keep them).
        let urgency = self
            .qos
            .urgency
            .draw(scaled.len(), seed)
            .map_err(|e| format!("the QoS model: {e}"))?
            .into_iter()
            .map(|d| d.urgency)
            .collect();
        Ok((jobs, urgency))
    }

    /// Starts an episode (see `reset`).
    pub(crate) fn begin(
        &mut self,
        seed: Option<u64>,
        start: Option<usize>,
        qos_seed: Option<u64>,
    ) -> Result<(), String> {
        if let Some(seed) = seed {
            self.rng = ChaCha8Rng::seed_from_u64(seed);
        }
        let last = self.jobs.len() - self.episode_len;
        // Both are drawn whatever is given, so giving one never shifts the
        // other's stream.
        let (drawn_start, drawn_seed) = (self.rng.random_range(0..=last), self.rng.random::<u64>());
        let start = match start {
            Some(s) if s > last => {
                return Err(format!(
                    "start is {s}, but an episode of {} jobs must start at most at {last} \
                     (the workload has {} jobs)",
                    self.episode_len,
                    self.jobs.len()
                ));
            }
            Some(s) => s,
            None => drawn_start,
        };
        let qos_seed = qos_seed.unwrap_or(drawn_seed);
        let (jobs, urgency) = self.episode_jobs(start, qos_seed)?;
        let submissions: Vec<Submission> = jobs.iter().map(QosJob::submission).collect();
        let mut budgets = 0.0;
        for j in &jobs {
            budgets += j.budget;
        }
        let config = self.run.cluster(self.nodes).map_err(|e| e.to_string())?;
        let cluster = Cluster::with_admission(
            config,
            MarketAdmission {
                offer: Offer::Reject,
            },
        )
        .map_err(|e| e.to_string())?;
        self.episode = Some(Episode {
            start,
            qos_seed,
            jobs,
            urgency,
            submissions,
            budgets,
            cluster,
            next: 0,
            accepted: 0,
            preview: None,
            shaped: 0.0,
            potential: 0.0,
        });
        self.preview()
    }

    /// Runs the cluster to the next job's arrival and asks Algorithm 1
    /// about it (at factor 1), for the observation.
    fn preview(&mut self) -> Result<(), String> {
        let price = self.price;
        let Some(ep) = self.episode.as_mut() else {
            return Err("no episode yet: call reset first".into());
        };
        if ep.next >= ep.jobs.len() {
            ep.preview = None;
            return Ok(());
        }
        let s = &ep.submissions[ep.next];
        let loads = ep
            .cluster
            .snapshot(s.arrival, &s.spec)
            .map_err(|e| e.to_string())?;
        let context = JobContext::new(s.id, s.arrival, &s.spec);
        let decision = admit(&context, &loads, price.function()).map_err(|e| e.to_string())?;
        let n = loads.len().max(1) as f64;
        let (mut share, mut idle, mut in_time, mut committed) = (0.0, 0usize, 0usize, 0.0);
        for l in &loads {
            share += l.share;
            idle += usize::from(l.share <= 0.0);
            in_time += usize::from(l.meets_deadline(&s.spec));
            committed += unit(l.quote.committed as f64 / l.quote.res_max.max(1) as f64);
        }
        ep.preview = Some(Preview {
            decision,
            load: unit(share / n),
            idle: idle as f64 / n,
            in_time: in_time as f64 / n,
            committed: committed / n,
        });
        Ok(())
    }

    /// The observation of the current state: the arriving job, the
    /// cluster and Algorithm 1's answer (zeros once the episode is over).
    pub(crate) fn features(&self) -> [f32; FEATURES] {
        let mut f = [0f32; FEATURES];
        let Some(ep) = &self.episode else {
            return f;
        };
        let (Some(p), Some(job)) = (&ep.preview, ep.jobs.get(ep.next)) else {
            return f;
        };
        let re = job.estimate as f64;
        let d = job.deadline as f64;
        let base = self.run.base_price;
        let log_run = self.log_run.max(f64::MIN_POSITIVE);
        let mut v = [0f64; FEATURES];
        v[0] = unit(f64::from(job.procs) / f64::from(self.nodes));
        v[1] = unit(re.ln_1p() / log_run);
        v[2] = unit(d.ln_1p() / (log_run + 16f64.ln()));
        v[3] = unit(re / d);
        v[4] = squash(job.budget / (re * base));
        v[5] = f64::from(u8::from(ep.urgency[ep.next] == Urgency::High));
        v[6] = match ep.next.checked_sub(1) {
            Some(k) => unit(((job.submit - ep.jobs[k].submit) as f64).ln_1p() / DAY.ln_1p()),
            None => 0.0,
        };
        v[7] = p.load;
        v[8] = p.idle;
        v[9] = p.in_time;
        v[10] = p.committed;
        match &p.decision {
            Decision::Accept(a) => {
                v[11] = 1.0;
                v[12] = if job.budget > 0.0 {
                    unit(a.cost / job.budget)
                } else {
                    1.0
                };
                v[13] = squash(a.cost / (re * base));
            }
            Decision::Reject(r) => {
                v[12] = 1.0;
                let budget = matches!(r, Rejection::CannotMeetBudget { .. });
                v[14] = f64::from(u8::from(!budget));
                v[15] = f64::from(u8::from(budget));
            }
        }
        v[16] = ep.next as f64 / self.episode_len as f64;
        v[17] = if ep.next == 0 {
            0.0
        } else {
            ep.accepted as f64 / ep.next as f64
        };
        for (o, x) in f.iter_mut().zip(v) {
            *o = x as f32;
        }
        f
    }

    /// The observation, as a new numpy array.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(PyArray1::from_slice(py, &self.features()))
    }

    /// The episode's run so far as the crate's `time_shared_with` reports
    /// it: the metrics of the outcomes, rejections by reason, late jobs.
    fn stats(ep: &Episode) -> RunStats {
        let outcomes = ep.cluster.outcomes();
        let mut stats = RunStats {
            metrics: Metrics::of(&outcomes),
            ..RunStats::default()
        };
        for o in &outcomes {
            match o.decision.rejection() {
                Some(r) => stats.rejected.record(r),
                None => stats.late += usize::from(!o.met_deadline()),
            }
        }
        stats
    }

    /// The reward of a finished run: `w · profitability + (1 − w) · QoS
    /// satisfaction`.
    fn reward_of(&self, stats: &RunStats) -> Result<f64, String> {
        let m = &stats.metrics;
        let p = m.profitability().map_err(|e| e.to_string())?;
        Ok(self.weight * p + (1.0 - self.weight) * m.qos_satisfaction())
    }

    /// The shaping potential: the reward's terms over the jobs finished so
    /// far, against the whole episode's budgets and jobs.
    fn potential(&self, ep: &Episode) -> f64 {
        let (mut earned, mut met) = (0.0, 0usize);
        for o in ep.cluster.outcomes() {
            if o.met_qos() {
                met += 1;
                earned += o.cost().unwrap_or(0.0);
            }
        }
        let profit = if ep.budgets > 0.0 {
            earned / ep.budgets
        } else {
            0.0
        };
        self.weight * profit + (1.0 - self.weight) * met as f64 / ep.jobs.len() as f64
    }

    /// Decides the arriving job with `action`: the reward, whether the
    /// episode ended, the decision, Algorithm 1's answer at factor 1, the
    /// cost charged and the factor offered.
    pub(crate) fn act(&mut self, action: usize) -> Result<Outcome, String> {
        let actions = 1 + self.factors.len();
        if action >= actions {
            return Err(format!("action {action} is outside Discrete({actions})"));
        }
        let offer = match action {
            0 => Offer::Reject,
            k => Offer::Admit(self.factors[k - 1]),
        };
        let price = self.price;
        let Some(ep) = self.episode.as_mut() else {
            return Err("no episode yet: call reset first".into());
        };
        let Some(preview) = ep.preview.take() else {
            return Err("the episode has ended: call reset".into());
        };
        let s = &ep.submissions[ep.next];
        ep.cluster.admission_mut().offer = offer;
        let decision =
            match ep
                .cluster
                .submit(s.arrival, s.id, &s.spec, s.run_time, price.function())
            {
                Ok(d) => d,
                Err(e) => {
                    // The job is still undecided: the episode goes on.
                    ep.preview = Some(preview);
                    return Err(format!(
                        "action {action} (job {} of the episode): {e}",
                        ep.next
                    ));
                }
            };
        ep.next += 1;
        ep.accepted += usize::from(decision.allocation().is_some());
        let done = ep.next == ep.jobs.len();
        let out = Outcome {
            reward: 0.0,
            done,
            decision: word(&decision),
            algorithm1: word(&preview.decision),
            cost: decision.allocation().map(|a| a.cost),
            factor: match offer {
                Offer::Admit(f) => Some(f),
                Offer::Reject => None,
            },
        };
        let reward = if done {
            ep.cluster.run_to_completion().map_err(|e| e.to_string())?;
            let ep = self.episode.as_ref().ok_or("no episode")?;
            let total = self.reward_of(&Self::stats(ep))?;
            if self.shaping {
                total - ep.shaped
            } else {
                total
            }
        } else {
            self.preview()?;
            if self.shaping {
                let ep = self.episode.as_ref().ok_or("no episode")?;
                let phi = self.potential(ep);
                let r = phi - ep.potential;
                let ep = self.episode.as_mut().ok_or("no episode")?;
                ep.potential = phi;
                ep.shaped += r;
                r
            } else {
                0.0
            }
        };
        Ok(Outcome { reward, ..out })
    }
}

/// What one step did.
pub(crate) struct Outcome {
    reward: f64,
    done: bool,
    decision: String,
    algorithm1: String,
    cost: Option<f64>,
    factor: Option<f64>,
}

type Step<'py> = (
    Bound<'py, PyArray1<f32>>,
    f64,
    bool,
    String,
    String,
    Option<f64>,
    Option<f64>,
);

#[pymethods]
impl MarketCore {
    /// Pickling is refused with a `TypeError` that says what to pickle
    /// instead.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::convert::not_picklable(
            "MarketAdmissionEnv",
            crate::convert::PICKLE_THE_WORKLOAD,
        ))
    }

    #[new]
    #[pyo3(signature = (workload, *, episode = None, nodes = None, price = "libra+$", alpha = None, beta = None, weight = None, action = "admit", factors = None, arrival_delay = None, high_urgency = None, inaccuracy = None, shaping = false))]
    #[allow(clippy::too_many_arguments)] // keyword arguments in Python
    fn new(
        workload: &Workload,
        episode: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        price: &str,
        alpha: Option<&Bound<'_, PyAny>>,
        beta: Option<&Bound<'_, PyAny>>,
        weight: Option<&Bound<'_, PyAny>>,
        action: &str,
        factors: Option<&Bound<'_, PyAny>>,
        arrival_delay: Option<&Bound<'_, PyAny>>,
        high_urgency: Option<&Bound<'_, PyAny>>,
        inaccuracy: Option<&Bound<'_, PyAny>>,
        shaping: bool,
    ) -> PyResult<Self> {
        let policy = match price {
            "libra" => Policy::Libra,
            "libra+$" => Policy::LibraDollar { beta: None },
            other => {
                return Err(error(format!(
                    "price is '{other}', expected libra (Libra's static cost) or libra+$ \
                     (Libra+$, with alpha and beta)"
                )));
            }
        };
        let Numbers {
            alpha,
            beta,
            weight,
            arrival_delay,
            high_urgency,
            inaccuracy,
        } = Numbers::new([alpha, beta, weight, arrival_delay, high_urgency, inaccuracy])?;
        let (price_mode, factors) = factors_of(action, factors)?;
        let (nodes, text) = match nodes {
            Some(n) => strict_int("nodes", n)?,
            None => (
                Some(u64::from(workload.jobs.capacity)),
                workload.jobs.capacity.to_string(),
            ),
        };
        let Some(nodes) = nodes
            .filter(|&n| n >= 1 && n <= MAX_NODES as u64)
            .and_then(|n| u32::try_from(n).ok())
        else {
            return Err(error(format!("nodes is {text}, expected 1 to {MAX_NODES}")));
        };
        let jobs = &workload.jobs.jobs;
        let (episode, text) = match episode {
            Some(e) => strict_int("episode", e)?,
            None => (Some(256), "256".to_string()),
        };
        let Some(episode) = episode
            .and_then(|e| usize::try_from(e).ok())
            .filter(|&e| e >= 1 && e <= jobs.len())
        else {
            return Err(error(format!(
                "episode is {text}, expected 1 to the workload's {} jobs",
                jobs.len()
            )));
        };
        let run = RunConfig {
            alpha,
            beta,
            ..RunConfig::default()
        };
        // As `RunConfig::price` builds it (run_policy's price).
        let price = match policy {
            Policy::Libra => Price::Libra(LibraStatic {
                gamma: run.gamma,
                delta: run.delta,
            }),
            _ => Price::LibraDollar(LibraDollar {
                alpha: run.alpha,
                beta: run.beta,
            }),
        };
        let qos = QosWorkload {
            urgency: UrgencyModel {
                high_fraction: high_urgency / 100.0,
                ..UrgencyModel::TABLE_I
            },
            inaccuracy,
            base_price: run.base_price,
        };
        let longest = jobs.iter().map(|j| j.run_time.max(1)).max().unwrap_or(1);
        Ok(MarketCore {
            jobs: Arc::new(jobs.clone()),
            run,
            policy,
            price,
            qos,
            arrival_delay,
            nodes,
            episode_len: episode,
            weight,
            factors,
            price_mode,
            shaping,
            log_run: (longest as f64).ln_1p(),
            rng: ChaCha8Rng::seed_from_u64(0),
            episode: None,
        })
    }

    /// Starts an episode: `seed` reseeds the draws (else they go on),
    /// `start` names the first job (its index in the workload), `qos_seed`
    /// the seed of the deadlines and budgets. Returns the observation.
    #[pyo3(signature = (seed = None, start = None, qos_seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        start: Option<&Bound<'py, PyAny>>,
        qos_seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seed = seed.map(|s| int("seed", s)).transpose()?;
        let start = start
            .map(|s| int_arg("start", s, 0, u64::MAX))
            .transpose()?;
        let start = start.map(|s| usize::try_from(s).unwrap_or(usize::MAX));
        let qos_seed = qos_seed
            .map(|s| int_arg("qos_seed", s, 0, u64::MAX))
            .transpose()?;
        self.begin(seed, start, qos_seed).map_err(error)?;
        self.observe(py)
    }

    /// Decides the arriving job: 0 rejects, `k >= 1` admits at
    /// `factors[k - 1]`. Returns the next observation, the reward, whether
    /// the episode ended, the decision (`accept` or the rejection's
    /// reason), Algorithm 1's answer at factor 1, the cost charged (if
    /// accepted) and the factor offered (if any).
    ///
    /// The action is an int, a numpy integer or a one-element integer
    /// array, as the batch environment takes it (`TypeError` otherwise).
    fn step<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<Step<'py>> {
        let action = action_index(action, 1 + self.factors.len())?;
        let o = self.act(action).map_err(error)?;
        let obs = self.observe(py)?;
        Ok((
            obs,
            o.reward,
            o.done,
            o.decision,
            o.algorithm1,
            o.cost,
            o.factor,
        ))
    }

    /// The observation's feature names, in order.
    #[staticmethod]
    fn feature_names() -> Vec<&'static str> {
        FEATURE_NAMES.to_vec()
    }

    /// The price factors of actions 1, 2, ... (`[1.0]` in the admit mode).
    #[getter]
    fn factors(&self) -> Vec<f64> {
        self.factors.clone()
    }

    /// `admit` or `price`.
    #[getter]
    fn action(&self) -> &'static str {
        if self.price_mode { "price" } else { "admit" }
    }

    /// `libra` or `libra+$`.
    #[getter]
    fn price(&self) -> String {
        self.policy.to_string()
    }

    /// Nodes of the time-shared cluster (one processor each).
    #[getter]
    fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Jobs per episode.
    #[getter]
    fn episode(&self) -> usize {
        self.episode_len
    }

    /// The index of the episode's first job in the workload.
    #[getter]
    fn start(&self) -> PyResult<usize> {
        Ok(self.current().map_err(error)?.start)
    }

    /// The seed of the episode's deadlines and budgets.
    #[getter]
    fn qos_seed(&self) -> PyResult<u64> {
        Ok(self.current().map_err(error)?.qos_seed)
    }

    /// Jobs decided so far in the episode.
    #[getter]
    fn decided(&self) -> PyResult<usize> {
        Ok(self.current().map_err(error)?.next)
    }

    /// Jobs in the workload.
    fn __len__(&self) -> usize {
        self.jobs.len()
    }

    /// The episode's jobs as columns: `id`, `submit` (scaled by the
    /// arrival delay), `procs`, `run_time`, `estimate`, `deadline` (`D_i`,
    /// s), `budget` and `urgency` (`high` or `low`).
    fn jobs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let ep = self.current().map_err(error)?;
        let d = PyDict::new(py);
        let col = |f: fn(&QosJob) -> i64| ep.jobs.iter().map(f).collect::<Vec<i64>>();
        d.set_item("id", ep.jobs.iter().map(|j| j.id).collect::<Vec<_>>())?;
        d.set_item("submit", col(|j| j.submit.0))?;
        d.set_item("procs", ep.jobs.iter().map(|j| j.procs).collect::<Vec<_>>())?;
        d.set_item("run_time", col(|j| j.run_time))?;
        d.set_item("estimate", col(|j| j.estimate))?;
        d.set_item("deadline", col(|j| j.deadline))?;
        d.set_item(
            "budget",
            ep.jobs.iter().map(|j| j.budget).collect::<Vec<_>>(),
        )?;
        d.set_item(
            "urgency",
            ep.urgency
                .iter()
                .map(|u| match u {
                    Urgency::High => "high",
                    Urgency::Low => "low",
                })
                .collect::<Vec<_>>(),
        )?;
        Ok(d)
    }

    /// The episode's scores once it has ended (the `pricing` crate's
    /// `Metrics` and `RunStats` of the run): `qos_satisfaction`,
    /// `profitability`, `submitted`, `accepted`, `rejected`, `qos_met`,
    /// `earned`, `budgets`, `late` and the rejections by reason.
    fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let ep = self.current().map_err(error)?;
        if ep.next < ep.jobs.len() {
            return Err(error(format!(
                "the episode has not ended: {} of its {} jobs decided",
                ep.next,
                ep.jobs.len()
            )));
        }
        stats_dict(py, &Self::stats(ep))
    }

    /// What the `pricing` crate's `run_policy` gives for the episode's jobs
    /// on the same cluster and settings: `policy` is a series name
    /// (`libra`, `libra+$`, `libra+$-b<β>`, `fcfs-bf`, `sjf-bf`, `edf-bf`);
    /// by default the environment's price. The same keys as `score`.
    #[pyo3(signature = (policy = None))]
    fn reference<'py>(
        &self,
        py: Python<'py>,
        policy: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let policy = match policy {
            None => self.policy,
            Some(name) => name
                .parse::<Series>()
                .map_err(|e| error(format!("policy: {e}")))?
                .policy(),
        };
        let ep = self.current().map_err(error)?;
        let (run, nodes) = (self.run, self.nodes);
        let jobs = ep.jobs.clone();
        let stats = py
            .detach(move || run_policy(policy, &run, nodes, &jobs))
            .map_err(error)?;
        stats_dict(py, &stats)
    }
}
