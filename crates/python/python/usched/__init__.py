"""usched: utility-driven cluster and grid scheduling research from Python.

The Rust core (``usched._usched``) reads traces, simulates and runs
experiments; this layer gives its columns as numpy arrays (a dict of
equal-length arrays, which ``pandas.DataFrame`` takes directly) and
registers the Gymnasium environments.

    >>> import usched
    >>> w = usched.load("KTH-SP2-1996-2.1-cln")            # doctest: +SKIP
    >>> s = usched.simulate(w, "easy")                      # doctest: +SKIP
    >>> s.stats()["mean_bsld"]                              # doctest: +SKIP
"""

from __future__ import annotations

import csv
import io
import os
from typing import Any, Callable, Dict, List, Optional, Union

import numpy as np

from . import _usched
from ._usched import Schedule, Stepper, UschedError, Workload, __version__
from . import papers  # the papers' runs as tables (usched.papers.pricing, ...)

__all__ = [
    "Experiment",
    "Schedule",
    "Stepper",
    "UschedError",
    "Workload",
    "__version__",
    "columns",
    "from_columns",
    "jobs",
    "load",
    "papers",
    "reproduce",
    "run",
    "simulate",
    "simulate_with",
]

Columns = Dict[str, np.ndarray]

# Column types: integers stay integers, so pandas keeps them exact.
_INT_COLUMNS = ("id", "submit", "procs", "run_time", "estimate", "start", "end", "wait")


def _arrays(d: Dict[str, List[object]]) -> Columns:
    out: Columns = {}
    for name, values in d.items():
        if name in _INT_COLUMNS:
            out[name] = np.asarray(values, dtype=np.int64)
        elif name == "bsld":
            out[name] = np.asarray(values, dtype=np.float64)
        else:
            out[name] = np.asarray(values, dtype=object)
    return out


def load(
    trace: Union[str, "os.PathLike[str]"],
    *,
    estimate: str = "requested",
    lenient: bool = False,
    procs: Optional[int] = None,
    root: Optional[str] = None,
    stand_in: bool = False,
    seed: Optional[int] = None,
) -> Workload:
    """Reads a workload.

    ``trace`` is a Parallel Workloads Archive name (``"SDSC-SP2-1998-4.2-cln"``,
    looked up in ``TRACES_DIR``, the repository's ``traces/``, the cache, then
    downloaded), a path to a ``.swf`` or ``.swf.gz`` file, or a generated
    workload ``"lublin99:procs=128,jobs=10000,seed=1[,load=0.8][,estimates=f:3]"``.
    ``estimate`` is ``"requested"``, ``"actual"`` or ``"under-estimate:F"``.
    ``seed`` seeds the stand-in of a trace found nowhere (``stand_in``;
    default 1); a generated workload takes its seed in the spec, and
    ``seed=`` with one is a ``ValueError``.
    Raises :class:`UschedError` naming the file, line and field of bad input;
    ``procs`` or ``seed`` given as a ``bool`` is a ``TypeError``.
    """
    return _usched.load(
        trace,
        estimate=estimate,
        lenient=lenient,
        procs=procs,
        root=root,
        stand_in=stand_in,
        seed=seed,
    )


def _whole_numbers(
    name: str, values: Any, dtype: Any, low: Optional[int] = None
) -> "np.ndarray[Any, Any]":
    """``values`` (a list, a numpy array, a pandas Series) as a
    one-dimensional array of ``dtype`` (int64 or uint64), or an error naming
    the column: a float, a bool or anything but whole numbers is a
    ``TypeError`` (never rounded or read as 0/1), a value out of the
    dtype's range (or below ``low``) a ``ValueError`` naming its position."""
    if isinstance(values, np.ma.MaskedArray):
        # asarray would drop the mask and use the hidden values.
        raise TypeError(f"{name} is a masked array; fill or drop its masked values first")
    a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"{name} has shape {a.shape}, expected one value per job")
    if a.size == 0:
        return np.zeros(0, dtype=dtype)
    # Python ints too large for any numpy integer come as objects: they are
    # whole numbers, out of range (below).
    big = a.dtype.kind == "O" and all(type(v) is int for v in a.tolist())
    if a.dtype.kind not in "iu" and not big:
        what = {"procs": "processors are counted", "id": "ids are whole numbers"}.get(
            name, "times are in whole seconds"
        )
        raise TypeError(
            f"{name} holds {a.dtype} values, expected whole numbers (an integer dtype); {what}"
        )
    info = np.iinfo(dtype)
    least = info.min if low is None else max(low, info.min)
    if big or least > info.min or not np.can_cast(a.dtype, dtype, casting="safe"):
        # Compared as Python ints: no dtype wraps a value it cannot hold.
        for i, v in enumerate(a.tolist()):
            if not least <= v <= info.max:
                raise ValueError(f"{name}[{i}] is {v}, outside {least} to {info.max}")
    return np.ascontiguousarray(a, dtype=dtype)


def from_columns(
    submit: Any,
    procs: Any,
    run_time: Any,
    estimate: Any = None,
    *,
    capacity: int,
    id: Any = None,
    name: str = "columns",
) -> Workload:
    """A workload of one's own jobs, given as columns (lists, numpy arrays or
    pandas Series of whole numbers, one value per job): submit times and run
    times in seconds, processors, and the user's estimates (``None``: the
    run times, at least 1 s), on a machine of ``capacity`` processors. Ids
    default to 1, 2, ... in the order given. Each job is checked as
    :func:`load` checks a trace's (an error names the position and the job),
    and the jobs are taken in submit order (equal submit times keep the
    order given). The result is a :class:`Workload` like any other: simulate
    it, step it, give it to either environment, pickle it.
    """
    sub = _whole_numbers("submit", submit, np.int64)
    if id is None:
        ids = np.arange(1, sub.size + 1, dtype=np.uint64)
    else:
        # An SWF job number: 0 to the largest int64, so every id column
        # (int64) and a written SWF file hold it as given.
        ids = _whole_numbers("id", id, np.int64, low=0).astype(np.uint64)
    return Workload._from_columns(
        id=ids,
        submit=sub,
        procs=_whole_numbers("procs", procs, np.int64),
        run_time=_whole_numbers("run_time", run_time, np.int64),
        estimate=None if estimate is None else _whole_numbers("estimate", estimate, np.int64),
        capacity=capacity,
        name=name,
    )


def jobs(workload: Workload) -> Columns:
    """The workload's jobs as columns: id, submit, procs, run_time, estimate."""
    if not isinstance(workload, Workload):
        raise TypeError(f"workload is {_usched.shown(workload)}, expected a usched.Workload")
    return _arrays(workload.columns())


def columns(schedule: Schedule) -> Columns:
    """A schedule's per-job outcomes as columns: the job's, then start, end,
    wait, bsld (bounded slowdown) and status."""
    if not isinstance(schedule, Schedule):
        raise TypeError(f"schedule is {_usched.shown(schedule)}, expected a usched.Schedule")
    return _arrays(schedule.columns())


def simulate(
    workload: Workload,
    policy: str = "easy",
    *,
    order: str = "arrival",
    overrun: str = "kill",
    bsld_bound: int = 10,
) -> Schedule:
    """Simulates a built-in policy: ``fcfs``, ``easy``, ``easy-kN``,
    ``easy-kinf`` or ``conservative``; ``order`` is the queue order
    (``arrival``, ``shortest-estimate``, ...), ``overrun`` ``kill`` or
    ``continue`` (what happens to a job at its estimate)."""
    return _usched.simulate(
        workload, policy, order=order, overrun=overrun, bsld_bound=bsld_bound
    )


def simulate_with(
    workload: Workload,
    scheduler: Callable[[Stepper], None],
    *,
    order: str = "arrival",
    overrun: str = "kill",
    bsld_bound: int = 10,
) -> Schedule:
    """Simulates ``workload`` with ``scheduler``, a Python function called at
    every decision (after each submission, termination, expired prediction or
    wake-up) with the :class:`Stepper`: it reads ``queue()``, ``running()``,
    ``free`` and ``now`` and calls ``start(position)`` (or ``reserve``,
    ``wake_at``). The schedule is checked by the same ``validate`` as the
    built-in policies'; an invalid one raises :class:`UschedError`."""
    sim = Stepper(workload, order=order, overrun=overrun, bsld_bound=bsld_bound)
    while sim.next_decision():
        scheduler(sim)
    return sim.finish()


class Experiment:
    """The outputs of one experiment: ``data`` (data.csv as columns),
    ``samples`` (samples.csv as columns), ``summary`` (Markdown),
    ``figure`` (SVG) and ``run_toml``."""

    def __init__(self, id: str, files: Dict[str, str]) -> None:
        self.id = id
        self.files = files
        self.data: Dict[str, List[object]] = _csv(files.get("data.csv", ""))
        self.samples: Dict[str, List[object]] = _csv(files.get("samples.csv", ""))
        self.summary: str = files.get("summary.md", "")
        self.figure: str = files.get("figure.svg", "")
        self.run_toml: str = files.get("run.toml", "")

    def __repr__(self) -> str:
        rows = len(next(iter(self.data.values()), []))
        return f"Experiment({self.id!r}, {rows} rows)"


def _csv(text: str) -> Dict[str, List[object]]:
    """CSV text as columns: numbers where every value of a column parses."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return {}
    header, body = rows[0], rows[1:]
    out: Dict[str, List[object]] = {}
    for i, name in enumerate(header):
        values = [r[i] if i < len(r) else "" for r in body]
        out[name] = _numbers(values)
    return out


def _numbers(values: List[str]) -> List[object]:
    # A column is numeric when every non-empty value is; empty cells
    # (no interval) become NaN there.
    try:
        return [float(v) if v != "" else float("nan") for v in values]
    except ValueError:
        return list(values)


def run(
    config: Union[str, "os.PathLike[str]"],
    *,
    threads: Optional[int] = None,
    root: Optional[str] = None,
    stand_in: bool = False,
) -> Experiment:
    """Runs a configuration file as ``cargo xtask run`` does (nothing is
    written to disk) and returns its outputs."""
    id, files = _usched.run_config(
        config, threads=threads, root=root, stand_in=stand_in
    )
    return Experiment(id, dict(files))


def reproduce(
    id: str,
    *,
    threads: Optional[int] = None,
    root: Optional[str] = None,
) -> Experiment:
    """Runs a committed paper configuration by id (``"pricing/fig4"``)."""
    return run(_usched.config_of(id, root=root), threads=threads, root=root)


from . import envs as _envs  # noqa: E402  (registers the environments)

_envs.register_all()
