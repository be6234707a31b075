"""usched's BatchScheduling-v0 and SchedGym's HPCEnv, side by side in one
sitting and in the same loop (docs/PERFORMANCE.md gives the setup).

Both environments are made by ``gymnasium.make`` with its default wrappers
(SchedGym's ``HPCEnv``, a gym 0.21 environment, behind a five-line
Gymnasium adapter), on the same trace with the same settings (SchedGym's
defaults: 128 rows of 8 features, 256-job episodes; backfilling off, then
on). The loop is the same for both: actions drawn with numpy among the valid
rows (uniform numbers drawn in advance, scaled by the number of rows that
hold a job), a fresh observation at every step, and a reset whenever an
episode ends, counted in the time. Reported per environment:

- steps/s: the whole loop (steps, action choice and resets);
- step calls/s: the time inside ``env.step`` alone (a second pass);
- resets/s: ``env.reset()`` in a loop;
- for usched, the vector environment (``gymnasium.make_vec``, 64 and 256
  copies, one and two threads) with the same action rule, and the Rust
  side alone (the same loop with 1,024 copies on one thread, so the Python
  boundary is crossed once per 1,024 decisions).

Usage:
    python side_by_side.py --schedgym DIR [--trace FILE] [--seconds S]

DIR is a checkout of https://github.com/DIR-LAB/deep-batch-scheduler (its
``HPCSimPickJobs.py``); FILE defaults to its ``data/lublin_256.swf``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
import types
from typing import Any, Callable, Dict, Optional, Tuple

# Neither environment calls BLAS; idle BLAS worker threads (numpy's, or
# scipy's, which SchedGym imports) would only compete for the cores the
# vector environment's threads use.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import usched  # noqa: F401  (registers usched/BatchScheduling-v0)

DRAWS = 1 << 20  # uniform numbers drawn in advance, reused cyclically


class SchedGymEnv(gymnasium.Env):  # type: ignore[type-arg]
    """SchedGym's ``HPCEnv`` behind Gymnasium's API (reset's seed reseeds
    its generator; the terminal observation, ``None`` in SchedGym, is
    zeros)."""

    def __init__(self, directory: str, trace: str, backfill: bool) -> None:
        sys.path.insert(0, directory)
        if "tensorflow" not in sys.modules:
            # HPCSimPickJobs imports tensorflow for its training code only.
            sys.modules["tensorflow"] = types.ModuleType("tensorflow")
        from HPCSimPickJobs import HPCEnv  # type: ignore[import-not-found]

        with contextlib.redirect_stdout(io.StringIO()):
            self.env = HPCEnv(backfil=backfill)
            self.env.my_init(workload_file=trace)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (1024,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(128)
        self._zeros = np.zeros(1024, np.float32)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.env.seed(seed)
        obs, _ = self.env.reset()
        return obs, {}

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        obs, reward, done, *_ = self.env.step(int(action))
        return (self._zeros.copy() if obs is None else obs), float(reward), done, False, {}


def loop(env: gymnasium.Env, valid: Callable[[], int], seconds: float, timed: bool) -> Dict[str, float]:
    """Steps with random valid actions for about `seconds`, resetting at
    each episode's end; `timed` also sums the time inside `step`."""
    u = np.random.default_rng(0).random(DRAWS)
    obs, info = env.reset(seed=0)
    steps = episodes = 0
    inside = 0.0
    clock = time.perf_counter
    t0 = clock()
    while True:
        a = int(u[steps % DRAWS] * valid())
        if timed:
            ts = clock()
            obs, r, term, trunc, info = env.step(a)
            inside += clock() - ts
        else:
            obs, r, term, trunc, info = env.step(a)
        steps += 1
        if term or trunc:
            episodes += 1
            obs, info = env.reset()
            if clock() - t0 > seconds:
                break
    wall = clock() - t0
    return {"steps": steps, "episodes": episodes, "wall": wall, "inside": inside}


def resets(env: gymnasium.Env, seconds: float) -> float:
    env.reset(seed=1)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.reset()
        n += 1
    return n / (time.perf_counter() - t0)


def single(name: str, env: gymnasium.Env, valid: Callable[[], int], seconds: float) -> Dict[str, float]:
    a = loop(env, valid, seconds, timed=False)
    b = loop(env, valid, seconds, timed=True)
    out = {
        "steps/s": a["steps"] / a["wall"],
        "step calls/s": b["steps"] / b["inside"],
        "resets/s": resets(env, seconds / 2),
        "episodes/s": a["episodes"] / a["wall"],
        "steps/episode": a["steps"] / max(a["episodes"], 1),
    }
    print(f"{name}: " + ", ".join(f"{k} {v:,.1f}" for k, v in out.items()), flush=True)
    return out


def vector(trace: str, backfill: bool, num_envs: int, threads: int, seconds: float) -> float:
    v = gymnasium.make_vec(
        "usched/BatchScheduling-v0", num_envs=num_envs, threads=threads, trace=trace, backfill=backfill
    )
    u = np.random.default_rng(0).random((DRAWS // num_envs, num_envs))
    obs, info = v.reset(seed=0)
    steps, k = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        counts = info["action_mask"].sum(axis=1)
        a = (u[k % len(u)] * counts).astype(np.int64)
        obs, r, term, trunc, info = v.step(a)
        steps += num_envs
        k += 1
    return steps / (time.perf_counter() - t0)


def rust_side(trace: str, backfill: bool, seconds: float) -> float:
    """Decisions per second of the Rust core: the vector loop with 1,024
    copies on one thread, so the Python boundary is crossed once per 1,024
    decisions."""
    return vector(trace, backfill, 1024, 1, seconds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--schedgym", required=True, help="a checkout of DIR-LAB/deep-batch-scheduler")
    p.add_argument("--trace", help="an SWF file (default: its data/lublin_256.swf)")
    p.add_argument("--seconds", type=float, default=10.0, help="per measurement (default 10)")
    args = p.parse_args()
    trace = os.path.abspath(args.trace or os.path.join(args.schedgym, "data", "lublin_256.swf"))
    if not os.path.exists(trace):
        p.error(f"no trace at {trace} (pass --trace)")
    print(f"trace {trace}, {os.cpu_count()} CPUs, {args.seconds:g} s per measurement", flush=True)
    gymnasium.register(id="schedgym/HPCEnv-v0", entry_point=SchedGymEnv)
    for backfill in (False, True):
        print(f"-- backfilling {'on' if backfill else 'off'}", flush=True)
        sg = gymnasium.make("schedgym/HPCEnv-v0", directory=args.schedgym, trace=trace, backfill=backfill)
        inner = sg.unwrapped.env  # type: ignore[attr-defined]
        theirs = single("SchedGym HPCEnv", sg, lambda: len(inner.visible_jobs), args.seconds)
        us = gymnasium.make("usched/BatchScheduling-v0", trace=trace, backfill=backfill)
        core = us.unwrapped._core  # type: ignore[attr-defined]
        ours = single("usched", us, lambda: core.valid, args.seconds)
        for k in ("steps/s", "step calls/s", "resets/s", "episodes/s"):
            print(f"   {k}: {ours[k] / theirs[k]:,.1f}x", flush=True)
        for copies, threads in ((64, 1), (64, 2), (256, 1), (256, 2)):
            s = vector(trace, backfill, copies, threads, args.seconds)
            print(
                f"usched vector x{copies}, {threads} thread(s): steps/s {s:,.0f} "
                f"({s / theirs['steps/s']:,.1f}x SchedGym's steps/s)",
                flush=True,
            )
        r = rust_side(trace, backfill, args.seconds)
        print(f"usched Rust side: decisions/s {r:,.0f}", flush=True)


if __name__ == "__main__":
    main()
