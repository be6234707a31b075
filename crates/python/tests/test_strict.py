"""Numbers are numbers, threads are checked, errors are ValueErrors.

* A ``bool`` (Python's or numpy's) where an integer or a real number is
  expected is a ``TypeError`` naming the parameter, everywhere: the
  simulation calls, the stepping API (per decision), the papers, the
  environments' options, ``load`` and ``run``.
* A ``Stepper`` used from a thread other than the one that created it
  raises ``RuntimeError``, never PyO3's panic.
* ``UschedError`` is a ``ValueError``.
"""

import threading

import gymnasium
import numpy as np
import pytest

import usched
from usched import _usched

GEN = "lublin99:procs=64,jobs=300,seed=2,estimates=f:3"
BOOLS = [True, False, np.True_, np.False_]


@pytest.fixture()
def stepper(small):
    s = usched.Stepper(small)
    assert s.next_decision()
    return s


# 1: bools refused, naming the parameter.
@pytest.mark.parametrize("flag", BOOLS)
def test_bsld_bound_refuses_bools(small, flag):
    with pytest.raises(TypeError, match=r"^bsld_bound is .*expected an integer"):
        usched.simulate(small, "easy", bsld_bound=flag)
    with pytest.raises(TypeError, match=r"^bsld_bound is .*expected an integer"):
        usched.Stepper(small, bsld_bound=flag)
    with pytest.raises(TypeError, match=r"^bsld_bound is .*expected an integer"):
        usched.simulate_with(small, lambda sim: None, bsld_bound=flag)


@pytest.mark.parametrize("flag", BOOLS)
@pytest.mark.parametrize(
    "call, name",
    [
        (lambda s, b: s.start(b), "position"),
        (lambda s, b: s.waiting(b), "position"),
        (lambda s, b: s.reserve(b, 10), "position"),
        (lambda s, b: s.reserve(0, b), "at"),
        (lambda s, b: s.reserve_earliest(b), "position"),
        (lambda s, b: s.unreserve(b), "position"),
        (lambda s, b: s.wake_at(b), "at"),
        (lambda s, b: s.earliest_start(b, 10), "procs"),
        (lambda s, b: s.earliest_start(1, b), "duration"),
    ],
)
def test_the_stepping_api_refuses_bools(stepper, call, name, flag):
    with pytest.raises(TypeError, match=rf"^{name} is .*expected an integer"):
        call(stepper, flag)


def test_the_stepping_api_refuses_floats_and_strings_and_bounds_values(stepper):
    with pytest.raises(TypeError, match=r"^position is 0.0, expected an integer"):
        stepper.start(0.0)
    with pytest.raises(TypeError, match=r"^position is '0', expected an integer"):
        stepper.waiting("0")
    with pytest.raises(ValueError, match=r"^position is -1, but (one job waits|\d+ jobs wait)"):
        stepper.start(-1)
    with pytest.raises(ValueError, match=r"^duration is -10, expected 0 to"):
        stepper.earliest_start(1, -10)
    # numpy integers are integers, and give what Python integers give.
    assert stepper.waiting(np.int64(0)) == stepper.waiting(0)
    assert stepper.earliest_start(np.uint8(1), np.int32(5)) == stepper.earliest_start(1, 5)


def test_numpy_bound_gives_the_same_schedule(small):
    a = usched.columns(usched.simulate(small, "easy", bsld_bound=np.int64(10)))
    b = usched.columns(usched.simulate(small, "easy"))
    assert all((a[k] == b[k]).all() for k in a)


@pytest.mark.parametrize("flag", [True, np.True_])
def test_the_papers_refuse_bools_for_numbers(small, flag):
    for kw, name in [
        ({"seed": flag}, "seed"),
        ({"repetition": flag}, "repetition"),
        ({"alpha": flag}, "alpha"),
        ({"rating": flag}, "rating"),
    ]:
        with pytest.raises(TypeError, match=rf"^{name} is "):
            usched.papers.pricing(small, "libra", **kw)
    with pytest.raises(TypeError, match=r"^sp_parts is "):
        usched.papers.adaptive(small, sp_parts=flag)
    with pytest.raises(TypeError, match=r"^clusters\[1\] is "):
        usched.papers.provisioning(small, clusters=(144, flag))
    with pytest.raises(TypeError, match=r"^seed is "):
        usched.papers.utility("pu", seed=flag)
    with pytest.raises(TypeError, match=r"^repetition is "):
        usched.papers.utility("pu", repetition=flag)


def test_boolean_options_of_the_papers_still_take_bools():
    # Refused for its value's range, not its type: the flag passed.
    with pytest.raises(usched.UschedError, match=r"interval_days"):
        usched.papers.adaptive(usched.load(GEN), interval_days=0, sp_mold_each=False)


@pytest.mark.parametrize("flag", [True, np.True_])
def test_load_and_run_refuse_bools(flag):
    for name in ["procs", "seed"]:
        with pytest.raises(TypeError, match=rf"^{name} is "):
            usched.load(GEN, **{name: flag})
        with pytest.raises(TypeError, match=rf"^{name} is "):
            _usched.load(GEN, **{name: flag})
    with pytest.raises(TypeError, match=r"^threads is "):
        usched.run("no-such.toml", threads=flag)
    with pytest.raises(ValueError, match=r"^threads is 0, expected 1 to"):
        usched.run("no-such.toml", threads=0)


def test_make_vec_refuses_bool_threads(kth):
    with pytest.raises(TypeError, match=r"^threads is True"):
        gymnasium.make_vec("usched/BatchScheduling-v0", num_envs=2, threads=True, trace=kth)


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"alpha": True}, "alpha"),
        ({"weight": np.True_}, "weight"),
        ({"arrival_delay": True}, "arrival_delay"),
        ({"high_urgency": np.False_}, "high_urgency"),
        ({"inaccuracy": False}, "inaccuracy"),
        ({"beta": "0.1"}, "beta"),
        ({"action": "price", "factors": [1.0, np.True_]}, r"factors\[1\]"),
        ({"action": "price", "factors": b"12"}, "factors"),
        ({"action": "price", "factors": 3}, "factors"),
    ],
)
def test_the_market_core_refuses_non_numbers(kw, name):
    w = usched.load(GEN, estimate="actual")
    with pytest.raises(TypeError, match=rf"^{name} is "):
        _usched.MarketCore(w, **kw)


def test_the_market_core_takes_numpy_numbers():
    w = usched.load(GEN, estimate="actual")
    core = _usched.MarketCore(
        w, episode=16, alpha=np.float32(1.0), weight=np.float64(0.5), action="price",
        factors=np.array([0.5, 1.0, 2.0]),
    )
    assert list(core.factors) == [0.5, 1.0, 2.0]


@pytest.mark.parametrize("flag", [True, np.True_])
def test_the_cores_reset_refuses_bool_seeds(kth, flag):
    batch = _usched.BatchCore(kth, window=8, episode=16)
    with pytest.raises(TypeError, match=r"^seed is "):
        batch.reset_env(seed=flag)
    with pytest.raises(TypeError, match=r"^seed is "):
        _usched.BatchVec(batch, 2).reset(seed=flag)
    market = _usched.MarketCore(usched.load(GEN, estimate="actual"), episode=16)
    with pytest.raises(TypeError, match=r"^seed is "):
        market.reset(seed=flag)


# 2: a Stepper stays on its thread.
def _in_thread(f):
    out = {}

    def run():
        try:
            out["value"] = f()
        except BaseException as e:  # noqa: BLE001 (a PanicException is one)
            out["error"] = e

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out


@pytest.mark.parametrize(
    "use",
    [
        lambda s: s.now,
        lambda s: s.queue(),
        lambda s: s.next_decision(),
        lambda s: s.start(0),
        lambda s: s.finish(),
    ],
)
def test_a_stepper_used_from_another_thread_raises_runtime_error(small, use):
    s = usched.Stepper(small)
    assert s.next_decision()
    before = (s.now, s.queue())
    out = _in_thread(lambda: use(s))
    assert isinstance(out.get("error"), RuntimeError), out
    assert "Stepper belongs to the thread that created it" in str(out["error"])
    # Untouched, and still usable on its own thread.
    assert (s.now, s.queue()) == before
    s.start(0)


def test_steppers_made_on_threads_run_there_and_match(small):
    def easy(sim):
        k = 0
        while (w := sim.waiting(k)) is not None:
            if sim.earliest_start(w[3], w[4]) == sim.now:
                sim.start(k)
            else:
                k += 1

    want = usched.columns(usched.simulate_with(small, easy))["start"]
    outs = [_in_thread(lambda: usched.columns(usched.simulate_with(small, easy))["start"])
            for _ in range(3)]
    assert all((o["value"] == want).all() for o in outs)


def test_a_stepper_made_on_another_thread_is_dropped_here_without_harm(small):
    out = _in_thread(lambda: usched.Stepper(small))
    s = out["value"]
    with pytest.raises(RuntimeError, match="belongs to the thread that created it"):
        s.next_decision()
    assert s.capacity == 64  # the machine, not the simulation: any thread
    del s


# 3: UschedError is a ValueError.
def test_uschederror_is_a_value_error(small):
    assert issubclass(usched.UschedError, ValueError)
    with pytest.raises(ValueError):
        usched.load(GEN, estimate="bogus")
    with pytest.raises(usched.UschedError):
        usched.load(GEN, estimate="bogus")
    # The environments' range errors, one kind or the other, are ValueErrors.
    from usched.envs import BatchSchedulingEnv, MarketAdmissionEnv

    with pytest.raises(ValueError, match="window is 0"):
        BatchSchedulingEnv(small, window=0)
    with pytest.raises(ValueError, match="weight is 2"):
        MarketAdmissionEnv(usched.load(GEN, estimate="actual"), weight=2.0)
