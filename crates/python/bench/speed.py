"""The scheduling environment's speed, in the loop used to time SchedGym's
`HPCEnv` (docs/PYTHON.md): `gymnasium.make` with its default wrappers,
actions drawn with numpy from the valid rows, episodes until done, resets
counted apart; then the vector environment.

Usage: python speed.py TRACE [episodes]   (TRACE: e.g. SchedGym's lublin_256.swf)
"""

import sys
import time

import gymnasium
import numpy as np

import usched  # noqa: F401  (registers the environments)


def run(trace: str, backfill: bool, episodes: int) -> None:
    env = gymnasium.make("usched/BatchScheduling-v0", trace=trace, backfill=backfill)
    env.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(episodes):
        env.reset()
    t_reset = time.perf_counter() - t0
    rng = np.random.RandomState(0)
    steps, t_step = 0, 0.0
    t0 = time.perf_counter()
    for _ in range(episodes):
        obs, info = env.reset()
        done = False
        while not done:
            a = int(rng.randint(int(info["action_mask"].sum())))  # valid rows are 0..n-1
            ts = time.perf_counter()
            obs, r, done, trunc, info = env.step(a)
            t_step += time.perf_counter() - ts
            steps += 1
    t_ep = time.perf_counter() - t0
    print(
        f"single, backfill={backfill}: steps/s={steps / t_step:.0f} ({steps} steps, {t_step:.2f} s inside step), "
        f"resets/s={episodes / t_reset:.1f}, episodes/s={episodes / t_ep:.2f}, steps/episode={steps / episodes:.1f}",
        flush=True,
    )


def run_vec(trace: str, backfill: bool, num_envs: int, seconds: float) -> None:
    v = gymnasium.make_vec(
        "usched/BatchScheduling-v0", num_envs=num_envs, trace=trace, backfill=backfill
    )
    obs, info = v.reset(seed=0)
    rng = np.random.RandomState(0)
    steps, t_step = 0, 0.0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        valid = info["action_mask"].sum(axis=1)
        a = (rng.random_sample(num_envs) * np.maximum(valid, 1)).astype(np.int64)
        ts = time.perf_counter()
        obs, r, term, trunc, info = v.step(a)
        t_step += time.perf_counter() - ts
        steps += num_envs
    print(
        f"vector x{num_envs}, backfill={backfill}: steps/s={steps / t_step:.0f} inside step, "
        f"{steps / (time.perf_counter() - t0):.0f} with action choice",
        flush=True,
    )


if __name__ == "__main__":
    trace = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for bf in (False, True):
        run(trace, bf, n)
    for bf in (False, True):
        run_vec(trace, bf, 64, 3.0)
