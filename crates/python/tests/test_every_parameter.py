"""Every parameter of every public call, given each hostile value of a
fixed list: the call either takes it or raises a Python ``Exception`` (a
Rust panic is ``PanicException``, a ``BaseException`` only) whose message
stays short. The parameters are read from the signatures, so a parameter
added later is covered without a test of its own; the values are fixed, so
the gate is the same on every run."""

import inspect
import math

import numpy as np
import pytest

import usched
from usched import papers
from usched.envs import BatchSchedulingEnv as E
from usched.envs import BatchSchedulingVecEnv as V
from usched.envs import MarketAdmissionEnv as M

GEN = "lublin99:procs=64,jobs=300,seed=2,estimates=f:3"
LONG = 2_000

# One of each class: out-of-range and huge integers (past 64 bits and past
# Python's limit on digits turned into text), bools, special floats, long
# and odd strings, bytes, containers of a wrong or huge kind, and objects
# numpy or Python cannot read as numbers.
HOSTILE = [
    None,
    True,
    np.True_,
    -1,
    np.int64(-1),
    2**64,
    -(2**64),
    10**5000,
    -(10**5000),
    -0.0,
    1.5,
    math.nan,
    math.inf,
    -math.inf,
    np.float32("nan"),
    1e308,
    "",
    "x" * 100_000,
    "a\0b",
    "\u202e",
    b"\xff",
    [],
    [0.5] * 100_000,
    {"k": 1},
    np.array([[1, 2]]),
    object(),
]


def _ids(values):
    return [f"{type(v).__name__}{i}" for i, v in enumerate(values)]


def _params(f, skip=()):
    """The parameters of `f` a caller names (not self, *args, **kwargs)."""
    return [
        p.name
        for p in inspect.signature(f).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in ("self", *skip)
    ]


def _calls(small, actual):
    """(name, call taking the hostile keyword, parameter names)."""
    e = dict(window=8, episode=16)
    return [
        ("load", lambda **k: usched.load(**{"trace": GEN, **k}), _params(usched.load)),
        ("simulate", lambda **k: usched.simulate(**{"workload": small, **k}), _params(usched.simulate)),
        ("Stepper", lambda **k: usched.Stepper(**{"workload": small, **k}), ["order", "overrun", "bsld_bound"]),
        ("BatchSchedulingEnv", lambda **k: E(**{"trace": small, **e, **k}), _params(E.__init__)),
        ("BatchSchedulingVecEnv", lambda **k: V(**{"num_envs": 2, "trace": small, **e, **k}),
         _params(V.__init__)),
        ("MarketAdmissionEnv", lambda **k: M(**{"trace": actual, "episode": 16, **k}), _params(M.__init__)),
        ("E.reset", lambda **k: E(small, **e).reset(**k), _params(E.reset)),
        ("M.reset", lambda **k: M(actual, episode=16).reset(**k), _params(M.reset)),
        ("V.reset", lambda **k: V(2, trace=small, **e).reset(**k), _params(V.reset)),
        ("E.step", lambda **k: _reset(E(small, **e)).step(**k), _params(E.step)),
        ("M.step", lambda **k: _reset(M(actual, episode=16)).step(**k), _params(M.step)),
        ("V.step", lambda **k: _reset(V(2, trace=small, **e)).step(**k), _params(V.step)),
        ("papers.pricing", lambda **k: papers.pricing(**{"workload": actual, **k}), _params(papers.pricing)),
        ("papers.adaptive", lambda **k: papers.adaptive(**{"workload": actual, **k}), _params(papers.adaptive)),
        ("papers.provisioning", lambda **k: papers.provisioning(**{
            "workload": actual, "trace_start_unix": 0, "clusters": [8, 8], "grid_months": (1, 1), **k}),
         _params(papers.provisioning)),
        ("papers.utility", lambda **k: papers.utility(**{"users": 4, "jobs_per_user": 2, **k}),
         _params(papers.utility)),
    ] + [
        (f"Stepper.{method}", _on_stepper(small, method, base), _params(getattr(usched.Stepper, method)))
        for method, base in STEPPER_METHODS
    ]


# The stepping API's methods that take arguments, each with valid values
# for the others.
STEPPER_METHODS = [
    ("waiting", {"position": 0}),
    ("earliest_start", {"procs": 1, "duration": 60}),
    ("start", {"position": 0}),
    ("reserve", {"position": 0, "at": 10**6}),
    ("reserve_earliest", {"position": 0}),
    ("unreserve", {"position": 0}),
    ("wake_at", {"at": 10**6}),
]


def _on_stepper(workload, method, base):
    def call(**k):
        s = usched.Stepper(workload)
        while s.queue_len < 2:
            assert s.next_decision()
        return getattr(s, method)(**{**base, **k})

    return call


def _reset(env):
    env.reset(seed=0)
    return env


CALLS = [name for name, _, _ in _calls(None, None)]


@pytest.mark.parametrize("name", CALLS)
def test_every_parameter_takes_or_refuses_each_hostile_value_with_a_short_exception(small, actual, name):
    (call, params) = next((c, p) for n, c, p in _calls(small, actual) if n == name)
    assert params, name
    bad = []
    for param in params:
        for i, value in enumerate(HOSTILE):
            try:
                call(**{param: value})
            except Exception as e:  # the refusal this test wants
                message = str(e)
                if len(message) > LONG or not message:
                    bad.append(f"{param}={_ids([value])[0]}: {len(message)} characters: {message[:200]}")
            except BaseException as e:  # noqa: BLE001 (a PanicException is one)
                bad.append(f"{param}={_ids(HOSTILE)[i]}: {type(e).__name__}: {str(e)[:200]}")
    assert not bad, f"{name}:\n" + "\n".join(bad)
