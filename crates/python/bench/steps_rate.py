"""Environment steps per second of ``usched/BatchScheduling-v0``: the
Python row of ``cargo xtask bench`` (one child process per run).

The environment is made by ``gymnasium.make`` with its default wrappers and
its defaults (128 rows, 256-job episodes, no backfilling) on the trace
given; then a fixed number of steps with random valid actions (uniform
numbers from numpy's generator seeded 0, drawn in advance, scaled by the
number of rows that hold a job), resetting whenever an episode ends. Only
the loop is timed (steps, action choice and resets), not the import, the
trace's loading or the first reset. Prints what every child of the bench
prints: ``seconds=... count=... peak_kb=...`` (count: the steps; peak_kb:
the process's ``VmHWM``).

Usage:
    python steps_rate.py TRACE STEPS
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import usched  # noqa: E402,F401  (registers usched/BatchScheduling-v0)


def peak_kb() -> float:
    """The process's peak resident memory in kB (``VmHWM``)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return float(line.split()[1])
    return float("nan")


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("Usage:")[1].strip())
    trace, steps = sys.argv[1], int(sys.argv[2])
    env = gymnasium.make("usched/BatchScheduling-v0", trace=trace)
    core = env.unwrapped._core  # type: ignore[attr-defined]
    u = np.random.default_rng(0).random(steps).tolist()
    env.reset(seed=0)
    step, reset = env.step, env.reset
    t0 = time.perf_counter()
    for x in u:
        _, _, term, trunc, _ = step(int(x * core.valid))
        if term or trunc:
            reset()
    seconds = time.perf_counter() - t0
    print(f"seconds={seconds} count={steps} peak_kb={peak_kb()}")


if __name__ == "__main__":
    main()
