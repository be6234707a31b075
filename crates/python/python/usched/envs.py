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
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _usched

FEATURES = 8
_INT64 = np.dtype("<i8")
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
    backfilling trusts),
    ``bsld_bound`` (10 s).
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
        estimate: str = "requested",
        bsld_bound: int = 10,
        root: Optional[str] = None,
    ) -> None:
        super().__init__()
        if isinstance(trace, _usched.Workload):
            workload = trace
        else:
            workload = _usched.load(trace, root=root)
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
        self.window = window
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
        super().reset(seed=seed)
        # The episode's start comes from the environment's own generator,
        # so `seed` reproduces it and later resets draw new windows.
        start = None
        if options and "start" in options:
            start = int(options["start"])
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
        self.num_envs = num_envs
        self._vec = _usched.BatchVec(single._core, num_envs, threads=threads)
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
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        base = int(self._rng.integers(0, 2**62))
        obs, mask = self._vec.reset(seed=base)
        return obs, {"action_mask": mask}

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        a = np.ascontiguousarray(actions, dtype=_INT64)
        if a.shape != (self.num_envs,):
            a = a.reshape(self.num_envs)
        return self._vec.step(a)


def register_all() -> None:
    """Registers the environments with Gymnasium (on import)."""
    if "usched/BatchScheduling-v0" not in gymnasium.registry:
        gymnasium.register(
            id="usched/BatchScheduling-v0",
            entry_point="usched.envs:BatchSchedulingEnv",
            vector_entry_point="usched.envs:BatchSchedulingVecEnv",
        )
