"""Gymnasium environments.

``usched/BatchScheduling-v0``: pick-a-job batch scheduling on an SWF trace
or a Lublin99 workload, with SchedGym's defaults so results compare: 128
visible jobs of 8 normalised features (a flat ``Box`` of 1024 float32),
``Discrete(128)``, 256-job episodes drawn by the seed, and at the episode's
end a reward of minus the mean bounded slowdown (10 s bound); no
backfilling. ``info["action_mask"]`` marks the rows that hold a job; an
action on an empty row is SchedGym's skip (time moves up to 360 s, nothing
starts, reward 0, ``info["skipped"]``); agents mask it, as SchedGym's do.
Observations are fresh arrays at every step.

``usched/MarketAdmission-v0``: the agent is the market of Yeo & Buyya's
utility-driven cluster (the ``pricing`` crate, Libra and Libra+$). Each step
is one arriving job of a window of a trace, given a deadline and a budget by
the paper's urgency classes; the agent rejects it or admits it, and the
time-shared cluster runs what it admits. See :class:`MarketAdmissionEnv`
for the observation, the two action spaces and the reward.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import operator

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _usched

FEATURES = 8
_INT64 = np.dtype("<i8")


def _seed(seed: Any) -> Optional[int]:
    """``reset``'s seed as Gymnasium's ``Env.reset`` takes it: ``None`` or a
    Python ``int`` >= 0 (of any size; a ``bool`` is an ``int`` there, as in
    Python, and seeds as 0 or 1), and also a numpy integer, taken as the
    same ``int``. Anything else is a ``TypeError`` naming ``seed``, a
    negative seed a ``ValueError``."""
    if seed is None:
        return None
    if not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed is {_usched.shown(seed)}, expected None or an int >= 0")
    value = operator.index(seed)
    if value < 0:
        raise ValueError(f"seed is {_usched.shown(value)}, expected None or an int >= 0")
    return value


def _render_mode(render_mode: Any) -> None:
    """The ``render_mode`` Gymnasium's ``make`` passes on: the environments
    render nothing (``metadata["render_modes"]`` is empty), so only ``None``
    is taken; a mode asked for is refused naming the parameter, not taken
    and ignored."""
    if render_mode is not None:
        raise ValueError(
            f"render_mode is {_usched.shown(render_mode)}, but this environment renders "
            "nothing (metadata['render_modes'] is []); give None"
        )


def _options(options: Optional[Dict[str, Any]], known: Tuple[str, ...]) -> Dict[str, Any]:
    """``reset``'s options, refusing keys the environment does not take."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"options is {_usched.shown(options)}, expected a dict or None")
    # Keys as given (``1`` is not ``'1'``), in a stable order of any types.
    unknown = sorted((k for k in options if k not in known), key=repr)
    if unknown:
        expected = " and ".join(known) if known else "none"
        raise ValueError(f"unknown reset options {_usched.shown(unknown)}, expected {expected}")
    return dict(options)


DEFAULT_TRACE = "SDSC-SP2-1998-4.2-cln"


class BatchSchedulingEnv(gymnasium.Env):
    """Pick-a-job batch scheduling (see the module's documentation).

    Options: ``trace`` (a trace name, path or ``lublin99:...`` spec, or a
    loaded :class:`usched.Workload`), ``window`` (visible jobs, 128),
    ``episode`` (jobs per episode, 256), ``backfill`` (EASY-like backfilling
    while the picked job waits, False), ``reward`` (``bsld``, ``wait``,
    ``turnaround`` or ``utilization``), ``shaping`` (per-step rewards that
    sum to the episode's), ``estimate`` (``requested``: the trace's requested
    times, SchedGym's; ``actual``: the run times; what the agent sees and
    backfilling trusts; by default as the workload was loaded),
    ``bsld_bound`` (10 s; 0 or 1: no bound).

    ``window`` is 1 to 65536; ``episode`` is 1 to ``(n - 2) // 2`` for a
    workload of ``n`` usable jobs. Integer options refuse ``bool``, floats
    and strings (``TypeError``) and out-of-range values (``ValueError``),
    naming the option. The jobs are those :func:`usched.load` kept (same
    checks), read as SchedGym reads them. ``step`` before ``reset``, or
    after the episode ended, raises ``UschedError``.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        trace: Union[str, "_usched.Workload"] = DEFAULT_TRACE,
        *,
        window: int = 128,
        episode: int = 256,
        backfill: bool = False,
        reward: str = "bsld",
        shaping: bool = False,
        estimate: Optional[str] = None,
        bsld_bound: int = 10,
        root: Optional[str] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        _render_mode(render_mode)
        self.render_mode = None
        if isinstance(trace, _usched.Workload):
            workload = trace
        else:
            workload = _usched.load(
                trace, root=root, estimate="requested" if estimate is None else estimate
            )
        self.workload = workload
        self._core = _usched.BatchCore(
            workload,
            window=window,
            episode=episode,
            backfill=backfill,
            reward=reward,
            shaping=shaping,
            bsld_bound=bsld_bound,
            estimate=estimate,
        )
        # As the core read it (an int in range, or its default).
        self.window = window = self._core.window
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=(window * FEATURES,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(window)
        if type(self).step is BatchSchedulingEnv.step:
            # The whole step is one Rust call: bound on the instance, the
            # wrappers' `env.step(a)` reaches it with no Python frame in
            # between. A subclass that overrides `step` keeps its own.
            self.__dict__["step"] = self._core.step_env

    def reset(
        self,
        *,
        seed: Optional[int] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=_seed(seed))
        # The episode's start comes from the environment's own generator,
        # so `seed` reproduces it and later resets draw new windows.
        start = _options(options, ("start",)).get("start")
        draw = int(self.np_random.integers(0, 2**63 - 1))
        obs, mask = self._core.reset_env(seed=draw, start=start)
        return obs, {"action_mask": mask, "start": self._core.start}

    def step(
        self, action: Any
    ) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Acts on row ``action``: starts its job (time runs until it fits),
        or on an empty row skips (time moves up to 360 s or to the next
        event, nothing starts, reward 0, ``info["skipped"]``). Returns
        fresh arrays; an action outside the rows raises ``ValueError``."""
        return self._core.step_env(action)

    def action_masks(self) -> np.ndarray:
        """The valid actions (for maskable-policy libraries)."""
        return np.arange(self.window) < self._core.valid

    def visible_jobs(self) -> np.ndarray:
        """The visible jobs as rows ``(submit, request, procs, run)``."""
        return np.asarray(self._core.visible_jobs(), dtype=np.int64).reshape(-1, 4)


def sjf(env: gymnasium.Env) -> int:
    """SchedGym's SJF: the visible job with the shortest requested time
    (ties: the earliest submitted, then the first row)."""
    jobs = env.unwrapped.visible_jobs()  # type: ignore[attr-defined]
    keys = [(int(r), int(s)) for s, r, _, _ in jobs]
    return min(range(len(keys)), key=keys.__getitem__)


def f1(env: gymnasium.Env) -> int:
    """SchedGym's F1 score, lowest first (ties: the first row):
    log10(request) * procs + 870 * log10(submit), 0.1 for values <= 0."""
    jobs = env.unwrapped.visible_jobs()  # type: ignore[attr-defined]
    submit = np.where(jobs[:, 0] > 0, jobs[:, 0], 0.1).astype(float)
    request = np.where(jobs[:, 1] > 0, jobs[:, 1], 0.1).astype(float)
    score = np.log10(request) * jobs[:, 2] + 870.0 * np.log10(submit)
    return int(np.argmin(score))


class BatchSchedulingVecEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` copies of :class:`BatchSchedulingEnv` stepped together in
    Rust (one call per step for all copies, on up to ``threads`` threads).

    Autoreset is Gymnasium's ``NEXT_STEP`` mode: a copy whose episode ended
    is reset by the next ``step`` (its action ignored, reward 0). Copy ``i``
    of a ``reset(seed=s)`` draws its windows from seed ``base + i``, ``base``
    drawn from ``s``. ``infos["action_mask"]`` is ``(num_envs, window)``.
    The other keyword arguments are :class:`BatchSchedulingEnv`'s.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, *, threads: int = 1, **kwargs: Any) -> None:
        single = BatchSchedulingEnv(**kwargs)
        self._vec = _usched.BatchVec(single._core, num_envs, threads=threads)
        # Checked by the core: an int in range.
        self.num_envs = num_envs = operator.index(num_envs)
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(
            single.observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(single.action_space, num_envs)
        self.window = single.window
        self._np_random_seed: Optional[int] = None

    def reset(
        self,
        *,
        seed: Optional[int] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        # Copies draw their own windows: no option names one.
        _options(options, ())
        seed = _seed(seed)
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        base = int(self._rng.integers(0, 2**62))
        obs, mask = self._vec.reset(seed=base)
        return obs, {"action_mask": mask}

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        try:
            a = np.asarray(actions)
        except (TypeError, ValueError):
            a = np.asarray(None)  # ragged or unconvertible: refused below
        if a.dtype.kind not in "iu":
            raise TypeError(
                f"actions {_usched.shown(actions)} are not integers of Discrete({self.window}) "
                "(give an integer array, one action per copy)"
            )
        if a.shape != (self.num_envs,):
            raise ValueError(
                f"actions have shape {a.shape}, expected ({self.num_envs},): one action per copy"
            )
        if a.dtype.kind == "u":
            big = np.flatnonzero(a >= self.window)
            if big.size:
                i = int(big[0])
                raise ValueError(
                    f"action {int(a[i])} of environment {i} is outside Discrete({self.window})"
                )
        a = np.ascontiguousarray(a, dtype=_INT64)
        return self._vec.step(a)

    def close_extras(self, **kwargs: Any) -> None:
        # Gymnasium's `close` (once): the worker threads stop and are joined
        # now, not when the object is collected; later calls raise.
        self._vec.close()


MARKET_FEATURES: Tuple[str, ...] = tuple(_usched.MarketCore.feature_names())
# The price mode's factors unless given (actions 1, 2, ...; action 0 rejects).
MARKET_FACTORS: Tuple[float, ...] = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)


class MarketAdmissionEnv(gymnasium.Env):
    """The utility-driven cluster's market (``usched/MarketAdmission-v0``).

    An episode is ``episode`` consecutive jobs of the workload, from a start
    the seed draws (uniform over every start; ``options={"start": i}`` names
    it). The jobs get deadlines and budgets as the ``pricing`` experiments
    give them: the window's arrivals are scaled by ``arrival_delay``, then
    ``pricing::QosWorkload::jobs`` draws the urgency classes, deadlines and
    budgets (Table I, ``high_urgency`` percent high urgency, ``inaccuracy``
    percent under-estimation) from the episode's QoS seed, drawn by the seed
    too (``info["qos_seed"]``, a ``numpy.uint64``, so that Gymnasium's vector
    environments can gather it; ``options={"qos_seed": s}`` gives it). The
    cluster is the one ``pricing::run_policy`` uses: ``nodes``
    single-processor nodes (default: the trace's processors), Table I's
    settings, and the price ``"libra"`` (Libra's static cost, γ = δ = 1) or
    ``"libra+$"`` (Libra+$, ``alpha`` and ``beta``).

    Each step decides the arriving job:

    * ``action="admit"``: ``Discrete(2)``. 0 rejects the job, 1 admits it on
      the allocation Algorithm 1 (Libra's admission, ``pricing::admit``)
      chooses, at its cost.
    * ``action="price"``: ``Discrete(1 + len(factors))``. 0 rejects, ``k``
      offers the job at ``factors[k - 1]`` times the run's price:
      Algorithm 1 decides under the scaled price, so the job is accepted
      only if the scaled cost stays within its budget (default factors
      ``MARKET_FACTORS``; a factor of 1 is the admit mode's action 1).

    A job Algorithm 1 cannot fit (no ``PROC_i`` nodes can finish it by its
    deadline, or none within its budget) is rejected whatever the agent
    says: ``info["algorithm1"]`` is Algorithm 1's answer at factor 1
    (``accept`` or its reason), ``info["decision"]`` what happened
    (``accept``, ``cannot_meet_deadline``, ``cannot_meet_budget``,
    ``agent_rejected``, ...), ``info["overruled"]`` is true when the agent
    admitted and the job was rejected; ``info["cost"]`` is the cost charged
    (None if rejected), ``info["factor"]`` the factor offered.

    The observation is a ``Box`` of ``len(MARKET_FEATURES)`` float32 in
    [0, 1] (``RE`` the estimate, ``D`` the relative deadline, ``B`` the
    budget, ``PBase`` the base price, ``C`` Algorithm 1's cost at factor 1):

    ==================  ==========================================================
    ``procs``           ``PROC_i / nodes``
    ``estimate``        ``ln(1 + RE) / ln(1 + the workload's longest run time)``
    ``deadline``        ``ln(1 + D) / ln(16 · (1 + the longest run time))``
    ``share``           ``RE / D``: the processor share it needs on each node
    ``budget``          ``x / (1 + x)`` with ``x = B / (RE · PBase)``
    ``urgency``         1 for a high-urgency job, 0 for a low-urgency one
    ``interarrival``    ``ln(1 + seconds since the previous job) / ln(1 + 86400)``
    ``load``            mean processor share committed on the nodes
    ``idle``            fraction of nodes with no share committed
    ``in_time``         fraction of nodes that can finish the job by its deadline
    ``committed``       mean of ``committed / RESMax`` (eq. 6) over the nodes
    ``feasible``        1 if Algorithm 1 accepts the job at factor 1
    ``cost_to_budget``  ``C / B`` (1 if Algorithm 1 rejects)
    ``rate``            ``x / (1 + x)`` with ``x = C / (RE · PBase)`` (0 if rejected)
    ``no_deadline``     1 if Algorithm 1 rejects: cannot meet deadline (or resources)
    ``no_budget``       1 if Algorithm 1 rejects: cannot meet budget
    ``progress``        jobs decided / ``episode``
    ``accepted``        jobs accepted / jobs decided (0 at the first)
    ==================  ==========================================================

    Values are clamped into [0, 1]. The observation after the last job is
    all zeros.

    Reward: at the episode's end (after the cluster has run every admitted
    job to completion), ``weight * profitability + (1 - weight) *
    qos_satisfaction`` with the ``pricing`` crate's Cluster Profitability
    (eq. 8) and Job QoS Satisfaction (eq. 7); 0 before. With
    ``shaping=True`` each step instead returns the change of that sum over
    the jobs finished so far (against the whole episode's budgets and job
    count), the last step the rest: the rewards sum to the episode's (up to
    rounding). ``score()`` gives the episode's numbers once it has ended;
    ``reference(policy)`` what ``pricing::run_policy`` gives on the same
    jobs (``libra``, ``libra+$``, ``libra+$-b<β>`` or a backfilling
    baseline); the agents :func:`libra` and :func:`libra_dollar` score
    exactly the crate's Libra and Libra+$.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        trace: Union[str, "_usched.Workload"] = DEFAULT_TRACE,
        *,
        episode: int = 256,
        nodes: Optional[int] = None,
        price: str = "libra+$",
        alpha: float = 1.0,
        beta: float = 0.1,
        weight: float = 0.5,
        action: str = "admit",
        factors: Optional[Sequence[float]] = None,
        arrival_delay: float = 0.5,
        high_urgency: float = 20.0,
        inaccuracy: float = 0.0,
        shaping: bool = False,
        root: Optional[str] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        _render_mode(render_mode)
        self.render_mode = None
        if isinstance(trace, _usched.Workload):
            workload = trace
        else:
            workload = _usched.load(trace, estimate="actual", root=root)
        self.workload = workload
        self._core = _usched.MarketCore(
            workload,
            episode=episode,
            nodes=nodes,
            price=price,
            alpha=alpha,
            beta=beta,
            weight=weight,
            action=action,
            factors=factors,
            arrival_delay=arrival_delay,
            high_urgency=high_urgency,
            inaccuracy=inaccuracy,
            shaping=shaping,
        )
        self.factors: Tuple[float, ...] = tuple(self._core.factors)
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=(len(MARKET_FEATURES),), dtype=np.float32
        )
        self.action_space = spaces.Discrete(1 + len(self.factors))

    @property
    def price(self) -> str:
        """``libra`` or ``libra+$``."""
        return self._core.price

    @property
    def admit_action(self) -> Optional[int]:
        """The action that admits at factor 1 (Algorithm 1's own answer), or
        None if the price mode's factors lack 1."""
        return 1 + self.factors.index(1.0) if 1.0 in self.factors else None

    def reset(
        self,
        *,
        seed: Optional[int] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=_seed(seed))
        options = _options(options, ("start", "qos_seed"))
        start = options.get("start")
        qos_seed = options.get("qos_seed")
        # Start and QoS seed come from the environment's own generator, so
        # `seed` reproduces them and later resets draw new episodes.
        draw = int(self.np_random.integers(0, 2**63 - 1))
        obs = self._core.reset(
            seed=draw,
            start=start,
            qos_seed=qos_seed,
        )
        # The QoS seed is a 64-bit unsigned integer: as a numpy uint64,
        # Gymnasium's vector environments gather it into a uint64 array (a
        # Python int past 2**63 overflowed their int64 one).
        return obs, {"start": self._core.start, "qos_seed": np.uint64(self._core.qos_seed)}

    def step(
        self, action: Any
    ) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        # The core takes the action as the batch environment's does.
        obs, reward, done, decision, algorithm1, cost, factor = self._core.step(action)
        info = {
            "decision": decision,
            "algorithm1": algorithm1,
            "overruled": factor is not None and decision != "accept",
            "cost": cost,
            "factor": factor,
        }
        return obs, reward, done, False, info

    def score(self) -> Dict[str, float]:
        """The ended episode's numbers: ``qos_satisfaction``, ``profitability``,
        ``submitted``, ``accepted``, ``rejected``, ``qos_met``, ``earned``,
        ``budgets``, ``late`` and ``rejected_<reason>``."""
        return dict(self._core.score())

    def reference(self, policy: Optional[str] = None) -> Dict[str, float]:
        """What ``pricing::run_policy`` gives for this episode's jobs on the
        same cluster: ``policy`` is a series name (``libra``, ``libra+$``,
        ``libra+$-b<β>``, ``fcfs-bf``, ``sjf-bf``, ``edf-bf``), by default the
        environment's price. The keys of :meth:`score`."""
        return dict(self._core.reference(policy))

    def jobs(self) -> Dict[str, np.ndarray]:
        """The episode's jobs as columns: ``id``, ``submit`` (scaled),
        ``procs``, ``run_time``, ``estimate``, ``deadline``, ``budget``,
        ``urgency``."""
        return {k: np.asarray(v) for k, v in self._core.jobs().items()}


def _admit_at_one(env: gymnasium.Env, price: str, name: str) -> int:
    e = env.unwrapped
    if not isinstance(e, MarketAdmissionEnv):
        raise TypeError(f"{name} acts on usched/MarketAdmission-v0, not {_usched.shown(type(e))}")
    if e.price != price:
        raise ValueError(
            f"{name} is the policy of price={_usched.shown(price)}; "
            f"this environment has price={_usched.shown(e.price)}"
        )
    a = e.admit_action
    if a is None:
        factors = _usched.shown(e.factors)
        raise ValueError(f"{name} admits at factor 1, which the factors {factors} lack")
    return a


def libra(env: gymnasium.Env) -> int:
    """Libra: always admit at factor 1, i.e. Algorithm 1's decision under
    Libra's static cost (for ``price="libra"``)."""
    return _admit_at_one(env, "libra", "libra")


def libra_dollar(env: gymnasium.Env) -> int:
    """Libra+$: always admit at factor 1, i.e. Algorithm 1's decision under
    the Libra+$ price (for ``price="libra+$"``)."""
    return _admit_at_one(env, "libra+$", "libra_dollar")


def register_all() -> None:
    """Registers the environments with Gymnasium (on import)."""
    if "usched/BatchScheduling-v0" not in gymnasium.registry:
        gymnasium.register(
            id="usched/BatchScheduling-v0",
            entry_point="usched.envs:BatchSchedulingEnv",
            vector_entry_point="usched.envs:BatchSchedulingVecEnv",
        )
    if "usched/MarketAdmission-v0" not in gymnasium.registry:
        gymnasium.register(
            id="usched/MarketAdmission-v0",
            entry_point="usched.envs:MarketAdmissionEnv",
        )
