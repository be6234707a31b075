"""Hostile input: sizes, huge integers, wrong types and misuse raise
Python exceptions that name the argument, never abort the interpreter or
raise a Rust panic (``PanicException``, a ``BaseException``)."""

import gymnasium
import numpy as np
import pytest

import usched
from usched.envs import BatchSchedulingEnv as E
from usched.envs import BatchSchedulingVecEnv as V
from usched.envs import MarketAdmissionEnv as M


KTH = "KTH-SP2-1996-2.1-cln"


@pytest.fixture(scope="module")
def market(kth):
    return usched.load(KTH, estimate="actual")


# 1 and 2: sizes are bounded, huge integers never panic.
@pytest.mark.parametrize("window", [0, 65537, 2**31, 2**45, 2**61, 2**63, 2**64 - 1, 2**70])
def test_window_out_of_range_is_a_value_error_naming_it(kth, window):
    with pytest.raises(ValueError, match=rf"window is {window}, expected 1 to 65536"):
        E(kth, window=window)


@pytest.mark.parametrize("episode", [0, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 2**80])
def test_episode_out_of_range_is_a_value_error_naming_it(kth, episode):
    with pytest.raises(ValueError, match=rf"episode is {episode}, expected 1 to"):
        E(kth, episode=episode)


@pytest.mark.parametrize("num_envs", [0, 10**6, 2**40, 2**63, 2**64])
def test_num_envs_out_of_range_is_a_value_error_naming_it(kth, num_envs):
    with pytest.raises(ValueError, match=rf"num_envs is {num_envs}, expected 1 to"):
        V(num_envs, trace=kth)


@pytest.mark.parametrize("threads", [0, 257, 2**64])
def test_threads_out_of_range_is_a_value_error(kth, threads):
    with pytest.raises(ValueError, match=rf"threads is {threads}, expected 1 to 256"):
        V(2, trace=kth, threads=threads)


@pytest.mark.parametrize("start", [2**63, 2**64 - 100, 2**64 - 1])
def test_a_huge_start_is_an_error_not_a_panic(kth, start):
    e = E(kth)
    with pytest.raises(usched.UschedError, match=rf"start is {start}, but an episode"):
        e.reset(seed=0, options={"start": start})
    with pytest.raises(ValueError, match=r"start is"):
        e.reset(seed=0, options={"start": 2**64})
    with pytest.raises(ValueError, match=r"start is -1"):
        e.reset(seed=0, options={"start": -1})


def test_huge_actions_are_value_errors_with_the_value(kth):
    e = E(kth)
    e.reset(seed=0)
    for a in [2**63, 2**64, 10**30, np.uint64(2**64 - 1), np.array(2**63, dtype=np.uint64)]:
        with pytest.raises(ValueError, match=rf"action {int(a)} is outside Discrete\(128\)"):
            e.step(a)
    v = V(4, trace=kth)
    v.reset(seed=0)
    with pytest.raises(ValueError, match=rf"action {2**63} of environment 3 is outside"):
        v.step(np.array([0, 0, 0, 2**63], dtype=np.uint64))


def _swf(path, edit=None):
    """A 100-job SWF log for a 64-processor machine (deterministic; no
    archive log is committed), job ``n`` replaced by ``edit(n)`` if given."""
    lines = ["; MaxProcs: 64", "; MaxNodes: 64"]
    for n in range(1, 101):
        run = 600 + (n * 1237) % 4000
        procs = 1 + (n * 7) % 32
        fields = [n, 70 * n, 0, run, procs, -1, -1, procs, 2 * run, -1, 1, 1, 1, -1, -1, -1, -1, -1]
        lines.append(" ".join(str(f) for f in (edit(n, fields) if edit else fields)))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _set(job, **fields):
    """An edit for :func:`_swf`: job ``job``'s SWF fields by index."""
    def edit(n, f):
        if n == job:
            for i, v in fields.items():
                f[int(i[1:])] = v
        return f
    return edit


# 3: the environment applies load's checks: the same records are dropped.
def test_the_env_drops_the_records_load_drops(tmp_path):
    # Job 51 runs (and asks for) i64::MAX seconds on the whole machine.
    w = usched.load(_swf(tmp_path / "long.swf", _set(51, f3=2**63 - 1, f8=2**63 - 1, f4=64, f7=64)))
    assert w.facts()["unreplayable"] == 1
    e = E(w, window=8, episode=16)
    assert len(e._core) == len(w)
    e.reset(seed=0, options={"start": 45})
    done = False
    while not done:
        _, r, done, _, _ = e.step(0)
    # Not a wrapped end that lets every job run at once.
    assert np.isfinite(r) and r <= -1.0
    assert 0 < e._core.now < 2**40


def test_a_record_load_drops_as_too_wide_is_not_refused(tmp_path):
    w = usched.load(_swf(tmp_path / "wide.swf", _set(51, f4=2**32, f7=2**32)))
    assert w.facts()["too_wide"] + w.facts()["unreplayable"] >= 1
    e = E(w, window=8, episode=16)
    assert len(e._core) == len(w)
    e.reset(seed=0)


def test_the_machine_size_from_procs_is_used(kth):
    w = usched.load(KTH, procs=8)
    e = E(w, window=8, episode=16)
    e.reset(seed=0)
    assert all(procs <= 8 for _, _, procs, _ in e._core.visible_jobs())


def test_the_env_follows_the_workloads_estimate():
    a = usched.load("lublin99:procs=64,jobs=300,seed=2,estimates=f:3", estimate="actual")
    r = usched.load("lublin99:procs=64,jobs=300,seed=2,estimates=f:3")
    ea, er, ex = E(a, window=8, episode=16), E(r, window=8, episode=16), E(r, window=8, episode=16, estimate="actual")
    oa = ea.reset(seed=1)[0]
    assert not np.array_equal(oa, er.reset(seed=1)[0])
    assert np.array_equal(oa, ex.reset(seed=1)[0])
    with pytest.raises(ValueError, match=r"estimate is 'requested', but the workload was loaded with estimate='actual'"):
        E(a, window=8, episode=16, estimate="requested")


# 4: no steps outside an episode.
def test_the_batch_env_refuses_steps_outside_an_episode(kth):
    e = E(kth, episode=8)
    with pytest.raises(usched.UschedError, match="no episode yet: call reset first"):
        e.step(0)
    e.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, _ = e.step(0)
    with pytest.raises(usched.UschedError, match="the episode has ended: call reset"):
        e.step(0)
    e.reset(seed=1)
    e.step(0)
    v = V(2, trace=kth, episode=8)
    with pytest.raises(usched.UschedError, match="no episode yet: call reset first"):
        v.step(np.zeros(2, np.int64))


# 6: the market env's options that would overflow costs.
@pytest.mark.parametrize("kw, name", [
    ({"action": "price", "factors": [1.0, 1e308]}, "factors"),
    ({"alpha": 1e308}, "alpha"),
    ({"beta": 1e308}, "beta"),
])
def test_market_options_that_overflow_are_refused_at_construction(market, kw, name):
    with pytest.raises(usched.UschedError, match=rf"{name} (has|is) 1e308"):
        M(market, **kw)


# 7: strict types.
@pytest.mark.parametrize("start", [3.7, "5", True, None.__class__])
def test_reset_start_must_be_an_integer(kth, market, start):
    for e in (E(kth), M(market)):
        with pytest.raises(TypeError, match=r"start is"):
            e.reset(seed=0, options={"start": start})


def test_strict_types_in_options(kth, market):
    with pytest.raises(TypeError, match=r"episode is True"):
        E(kth, episode=True)
    with pytest.raises(TypeError, match=r"window is 8.0"):
        E(kth, window=8.0)
    with pytest.raises(TypeError, match=r"num_envs is True"):
        V(True, trace=kth)
    with pytest.raises(TypeError, match=r"qos_seed is 1.5"):
        M(market).reset(seed=0, options={"qos_seed": 1.5})
    with pytest.raises(TypeError, match=r"factors is '12'"):
        M(market, action="price", factors="12")
    with pytest.raises(TypeError, match=r"factors\[0\] is True"):
        M(market, action="price", factors=[True])
    for name in ["alpha", "beta", "weight"]:
        with pytest.raises(TypeError, match=rf"{name} is True"):
            M(market, **{name: True})
    for name in ["episode", "nodes"]:
        with pytest.raises(TypeError, match=rf"{name} is True"):
            M(market, **{name: True})
    # numpy integers are integers.
    E(kth, window=np.int64(8), episode=np.int32(16)).reset(seed=0, options={"start": np.int64(20)})


def test_unknown_reset_options_are_refused_by_every_env(kth, market):
    for e in (E(kth), M(market)):
        with pytest.raises(ValueError, match=r"unknown reset options \['strat'\]"):
            e.reset(seed=0, options={"strat": 5})
    v = V(2, trace=kth)
    with pytest.raises(ValueError, match=r"unknown reset options \['start'\]"):
        v.reset(seed=0, options={"start": 5})


# 10, 11, 12.
def test_estimate_errors_name_the_argument(kth):
    with pytest.raises(usched.UschedError, match=r"^estimate is 'bogus'"):
        usched.load(KTH, estimate="bogus")


@pytest.mark.parametrize("bound", [-1, -10])
def test_negative_bsld_bound_is_refused(kth, bound):
    with pytest.raises(ValueError, match=rf"bsld_bound is {bound}"):
        usched.simulate(kth, "easy", bsld_bound=bound)
    with pytest.raises(ValueError, match=rf"bsld_bound is {bound}"):
        usched.Stepper(kth, bsld_bound=bound)
    with pytest.raises(ValueError, match=rf"bsld_bound is {bound}"):
        E(kth, bsld_bound=bound)


@pytest.mark.parametrize("shape", [(2, 2), (4, 1), (1, 4)])
def test_the_vector_env_refuses_misshapen_actions(kth, shape):
    v = V(4, trace=kth)
    v.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions have shape"):
        v.step(np.zeros(shape, np.int64))


# 5: a reservation at the end of time is refused.
def test_a_reservation_near_the_end_of_time_is_refused():
    s = usched.Stepper(usched.load("lublin99:procs=64,jobs=300,seed=2,estimates=f:3"))
    s.next_decision()
    with pytest.raises(usched.UschedError):
        s.reserve(0, 2**63 - 1)


def test_load_refuses_bools_for_integers():
    with pytest.raises(TypeError, match=r"procs is True"):
        usched.load(KTH, procs=True)


# A root that is no repository is an error naming the argument, never
# ignored (the trace would be looked for elsewhere without a word).
def test_a_root_that_is_no_repository_is_an_error(tmp_path):
    with pytest.raises(usched.UschedError, match=r"^root is .*not a repository root"):
        usched.load(KTH, root=str(tmp_path))
    with pytest.raises(usched.UschedError, match=r"^root is .*not a repository root"):
        usched.reproduce("baseline/backfilling", root=str(tmp_path))
