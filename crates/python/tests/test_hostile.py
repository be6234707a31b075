"""Hostile and nonsensical input, class by class; every refusal a Python
exception naming the parameter, every sensible value (a numpy integer for
an int, a numpy float for a real number) taken as its Python twin.

1. An integer out of range names the parameter and the range accepted,
   in numbers (never a Rust type).
2. The stepping API refuses a value that cannot be meant: a queue
   position where no job waits, a time before now.
3. ``bool`` in the Gymnasium environments follows Gymnasium: ``True`` is
   an action ``Discrete.contains`` takes and a seed ``Env.reset`` takes,
   so the environments take them as 1; a numpy ``bool_`` is neither.
4. numpy scalars, NaN and infinities, huge integers, bad paths, actions of
   the wrong shape or dtype, steps after the end, bad ``options``.
"""

import math
import os

import gymnasium
import numpy as np
import pytest

import usched
from usched import _usched
from usched.envs import BatchSchedulingEnv as E
from usched.envs import BatchSchedulingVecEnv as V
from usched.envs import MarketAdmissionEnv as M

GEN = "lublin99:procs=64,jobs=300,seed=2,estimates=f:3"
U64 = "0 to 18446744073709551615"
U32 = "0 to 4294967295"
I64 = "-9223372036854775808 to 9223372036854775807"
RUST_TYPES = ("u8", "u16", "u32", "u64", "usize", "i32", "i64", "C long")


@pytest.fixture()
def stepper(small):
    s = usched.Stepper(small)
    while s.queue_len < 2:
        assert s.next_decision()
    return s


def _refused(exc, pattern, call):
    with pytest.raises(exc, match=pattern) as e:
        call()
    assert not any(f" {t})" in str(e.value) or f"a {t}" in str(e.value) for t in RUST_TYPES), e.value
    return e.value


# 1: integer ranges in numbers, naming the parameter.
@pytest.mark.parametrize(
    "call, pattern",
    [
        (lambda w: usched.load(GEN, seed=-1), rf"^seed is -1, expected {U64}$"),
        (lambda w: usched.load(GEN, seed=2**64), rf"^seed is {2**64}, expected {U64}$"),
        (lambda w: usched.load(GEN, procs=0), r"^procs is 0, expected 1 to 10000000$"),
        (lambda w: usched.load(GEN, procs=-3), r"^procs is -3, expected 1 to 10000000$"),
        (lambda w: usched.load(GEN, procs=2**40), rf"^procs is {2**40}, expected 1 to 10000000$"),
        (lambda w: _usched.BatchCore(w, window=8, episode=16).reset_env(seed=-1),
         rf"^seed is -1, expected {U64}$"),
        (lambda w: _usched.MarketCore(w, episode=16).reset(seed=2**64),
         rf"^seed is {2**64}, expected {U64}$"),
        (lambda w: _usched.BatchVec(_usched.BatchCore(w, window=8, episode=16), 2).reset(seed=-5),
         rf"^seed is -5, expected {U64}$"),
        (lambda w: usched.papers.pricing(w, "libra", seed=-1), rf"^seed is -1, expected {U64}$"),
        (lambda w: usched.papers.pricing(w, "libra", repetition=2**32),
         rf"^repetition is {2**32}, expected {U32}$"),
        (lambda w: usched.papers.utility("pu", repetition=-1), rf"^repetition is -1, expected {U32}$"),
    ],
)
def test_integer_ranges_are_named_in_numbers(actual, call, pattern):
    _refused(ValueError, pattern, lambda: call(actual))


def test_the_stepping_apis_numbers_are_named_in_numbers(stepper):
    _refused(ValueError, rf"^procs is -1, expected {U32}$", lambda: stepper.earliest_start(-1, 10))
    _refused(ValueError, rf"^at is {2**63}, expected {I64}$", lambda: stepper.reserve(0, 2**63))
    _refused(ValueError, rf"^at is -{2**70}, expected {I64}$", lambda: stepper.wake_at(-(2**70)))
    _refused(ValueError, rf"^position is -1, expected {U64}$", lambda: stepper.waiting(-1))


@pytest.mark.parametrize("value", [2**63, 2**70])
def test_paper_options_out_of_range_name_the_option(actual, value):
    _refused(ValueError, rf"^rating is {value}, expected {I64}$",
             lambda: usched.papers.pricing(actual, "libra", rating=value))
    _refused(ValueError, rf"^clusters\[1\] is {value}, expected {I64}$",
             lambda: usched.papers.provisioning(actual, clusters=(144, value)))
    _refused(ValueError, rf"^users is {value}, expected {I64}$",
             lambda: usched.papers.utility("pu", users=value))


@pytest.mark.parametrize(
    "kw, pattern",
    [
        # The kind's own reading of its [params] (serde's words).
        ({"rating": 1.5}, r"^rating is 1.5: invalid type: floating point `1.5`, expected a whole number of at least 0$"),
        ({"alpha": "x"}, r"^alpha is 'x': "),
        ({"spare": 3}, r"^spare is 3: "),
    ],
)
def test_paper_options_of_the_wrong_type_name_the_option(actual, kw, pattern):
    _refused(TypeError, pattern, lambda: usched.papers.pricing(actual, **kw))
    _refused(TypeError, r"^users is <object .*>, expected a number, a string, a bool or a list$",
             lambda: usched.papers.utility("pu", users=object()))


# 2: the stepping API refuses what cannot be meant, changing nothing.
def test_positions_where_no_job_waits_are_refused(stepper):
    n = stepper.queue_len
    before = (stepper.now, stepper.queue())
    last = rf"positions 0 to {n - 1}\)$"
    for p in [n, n + 7, -1, 2**64, 2**70]:
        for call in [
            lambda p: stepper.start(p),
            lambda p: stepper.reserve(p, stepper.now),
            lambda p: stepper.reserve_earliest(p),
            lambda p: stepper.unreserve(p),
        ]:
            e = _refused(usched.UschedError, rf"^position is {p}, but {n} jobs wait \({last}", lambda: call(p))
            assert isinstance(e, ValueError)
    assert (stepper.now, stepper.queue()) == before
    # `waiting` walks the queue: past its end is None, by design.
    assert stepper.waiting(n) is None and stepper.waiting(2**64 - 1) is None


def test_times_before_now_are_refused(stepper):
    now = stepper.now
    before = stepper.queue()
    for call in [lambda t: stepper.wake_at(t), lambda t: stepper.reserve(0, t)]:
        for t in [now - 1, -1, -(2**63)]:
            _refused(usched.UschedError, rf"^at is {t}, before now \({now}\); give a time from now on",
                     lambda: call(t))
    assert stepper.queue() == before
    # Now and later are taken (now asks for nothing more; beyond 2^52 s is never).
    for t in [now, now + 60, 2**62, 2**63 - 1, None]:
        stepper.wake_at(t)
    stepper.reserve(0, stepper.reserve_earliest(0))


def test_a_finished_simulation_refuses_every_call(small):
    s = usched.Stepper(small)
    s.next_decision()
    s.start(0)
    while s.next_decision():
        while s.queue_len and s.earliest_start(s.waiting(0)[3], s.waiting(0)[4]) == s.now:
            s.start(0)
    s.finish()
    for call in [s.next_decision, s.queue, lambda: s.start(0), lambda: s.wake_at(None),
                 lambda: s.reserve(0, 0), s.finish, lambda: s.now]:
        _refused(usched.UschedError, r"^the simulation was finished$", call)


# 3: bools as Gymnasium takes them.
def _envs(kth, actual):
    return [E(kth, window=8, episode=16), M(actual, episode=16)]


@pytest.mark.parametrize(
    "action", [True, False, np.True_, np.False_, np.int64(1), np.uint8(0), np.array(1),
               np.array(True), 1.0, np.float32(0), "1", None]
)
def test_step_takes_what_discrete_contains_takes(kth, actual, action):
    for env, twin in zip(_envs(kth, actual), _envs(kth, actual)):
        env.reset(seed=4)
        twin.reset(seed=4)
        if env.action_space.contains(action):
            a, b = env.step(action), twin.step(int(action))
            assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        else:
            _refused(TypeError, r"^action .* is not an integer of Discrete\(\d+\)", lambda: env.step(action))


@pytest.mark.parametrize("seed, same", [(True, 1), (False, 0), (np.int64(3), 3), (np.uint32(7), 7),
                                        (2**70, 2**70)])
def test_reset_takes_the_seeds_gymnasium_takes_and_numpy_integers(kth, actual, seed, same):
    for env, twin in zip(_envs(kth, actual), _envs(kth, actual)):
        a, b = env.reset(seed=seed), twin.reset(seed=same)
        assert np.array_equal(a[0], b[0]) and a[1].keys() == b[1].keys()
    v, w = V(2, trace=kth, window=8, episode=16), V(2, trace=kth, window=8, episode=16)
    assert np.array_equal(v.reset(seed=seed)[0], w.reset(seed=same)[0])


@pytest.mark.parametrize("seed, exc", [(np.True_, TypeError), (1.0, TypeError), ("3", TypeError),
                                       ([3], TypeError), (-1, ValueError), (np.int64(-2), ValueError)])
def test_reset_refuses_other_seeds_naming_seed(kth, actual, seed, exc):
    for env in _envs(kth, actual) + [V(2, trace=kth, window=8, episode=16)]:
        _refused(exc, r"^seed is .*, expected None or an int >= 0$", lambda: env.reset(seed=seed))


# 4: numpy scalars are numbers.
def test_numpy_scalars_are_taken_as_their_python_twins(small, stepper, root):
    assert usched.load(GEN, procs=np.int16(64)).facts() == usched.load(GEN, procs=64).facts()
    # `seed` (a stand-in's) on a trace found: taken, and nothing changes.
    kth = "KTH-SP2-1996-2.1-cln"
    assert usched.load(kth, seed=np.uint64(1), root=root).facts() == usched.load(kth, root=root).facts()
    now = stepper.now
    stepper.wake_at(np.int64(now + 5))
    stepper.reserve(np.int32(1), np.int64(stepper.reserve_earliest(np.uint8(1))))
    stepper.unreserve(np.int16(1))
    stepper.start(np.int64(0)) if stepper.earliest_start(*stepper.waiting(0)[3:5]) == now else None
    a = usched.columns(usched.simulate(small, "easy", bsld_bound=np.uint16(10)))
    assert (a["bsld"] == usched.columns(usched.simulate(small, "easy"))["bsld"]).all()


def test_numpy_numbers_in_the_papers_options(actual):
    a = usched.papers.pricing(actual, "libra+$", alpha=np.float32(1.0), rating=np.int64(168),
                              seed=np.uint8(1), repetition=np.int64(0))
    b = usched.papers.pricing(actual, "libra+$")
    assert a.summary == b.summary
    u = usched.papers.utility("pu", seed=np.int64(1))
    assert u.summary == usched.papers.utility("pu").summary


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_nan_and_infinities_are_refused_naming_the_option(kth, actual, value):
    for name in ["alpha", "beta", "weight", "arrival_delay", "high_urgency", "inaccuracy"]:
        _refused(usched.UschedError, rf"^{name} is ", lambda: M(actual, **{name: value}))
    _refused(usched.UschedError, r"^factors has ", lambda: M(actual, action="price", factors=[1.0, value]))
    for name in ["alpha", "arrival_delay", "high_urgency", "inaccuracy", "spread"]:
        _refused(usched.UschedError, rf"^{name} is ", lambda: usched.papers.pricing(actual, **{name: value}))


def test_file_parameters_take_what_open_takes_and_name_bad_paths(small, tmp_path):
    s = usched.simulate(small, "fcfs")
    # str, bytes and os.PathLike, as open() takes them.
    s.write_swf(tmp_path / "a.swf")
    s.write_jobs_csv(bytes(tmp_path / "a.csv"))
    assert len(usched.load(tmp_path / "a.swf")) == len(usched.load(bytes(tmp_path / "a.swf"))) == len(s)
    # No path holds a NUL character (open() refuses it too).
    nul = str(tmp_path / "x\0.swf")
    for name, call in [
        ("trace", lambda: usched.load(nul)),
        ("trace", lambda: usched.load(nul.encode())),
        ("root", lambda: usched.load(GEN, root=nul)),
        ("path", lambda: s.write_swf(nul)),
        ("path", lambda: s.write_jobs_csv(nul)),
        ("config", lambda: usched.run(nul)),
        ("root", lambda: usched.reproduce("baseline/backfilling", root=nul)),
    ]:
        _refused(ValueError, rf"^{name} is .*x\\x00\.swf'?, but a path cannot hold a NUL character$", call)
    assert not list(tmp_path.glob(".usched-staging*/*")), "nothing half-written"
    _refused(TypeError, r"^path is 3, expected a path \(a str, bytes or os.PathLike\)$", lambda: s.write_swf(3))
    # A name that is not UTF-8 (os.fsdecode(b"\xff")): the toolkit reads
    # and writes UTF-8 names only, and says so naming the parameter.
    odd = str(tmp_path / "\udcff.swf")
    for name, call in [("trace", lambda: usched.load(odd)), ("config", lambda: usched.run(odd)),
                       ("root", lambda: usched.load(GEN, root=odd)), ("path", lambda: s.write_swf(odd)),
                       ("path", lambda: s.write_jobs_csv(os.fsencode(odd)))]:
        _refused(usched.UschedError, rf"^{name} is .*, which is not UTF-8", call)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "a.swf"]


# Actions of the wrong shape or dtype, for each action space.
@pytest.mark.parametrize(
    "action", [0.0, np.float64(1.0), np.array([0, 1]), np.array([0.0]), np.array([True]),
               [[0], [0, 1]], object(), b"\x00"]
)
def test_misshapen_actions_are_type_errors_naming_the_action(kth, actual, action):
    for env in _envs(kth, actual):
        env.reset(seed=0)
        _refused(TypeError, r"^action .* is not an integer of Discrete", lambda: env.step(action))


@pytest.mark.parametrize(
    "actions, exc, pattern",
    [
        (np.zeros(2, np.float32), TypeError, r"^actions .* are not integers of Discrete\(8\)"),
        ([True, False], TypeError, r"^actions .* are not integers"),
        ([[0], [0, 1]], TypeError, r"^actions .* are not integers"),
        ("01", TypeError, r"^actions .* are not integers"),
        (np.zeros((2, 1), np.int64), ValueError, r"^actions have shape \(2, 1\), expected \(2,\)"),
        (np.int64(0), ValueError, r"^actions have shape \(\), expected \(2,\)"),
        (np.array([0, -1]), ValueError, r"^action -1 of environment 1 is outside Discrete\(8\)"),
    ],
)
def test_the_vector_env_refuses_bad_actions(kth, actions, exc, pattern):
    v = V(2, trace=kth, window=8, episode=16)
    v.reset(seed=0)
    _refused(exc, pattern, lambda: v.step(actions))
    v.step(np.array([0, np.int8(1)]))  # still usable


def test_step_after_the_end_without_reset_is_refused(kth, actual):
    for env in _envs(kth, actual):
        env.reset(seed=1)
        done = False
        while not done:
            _, _, done, _, _ = env.step(0)
        for _ in range(2):
            _refused(usched.UschedError, r"^the episode has ended: call reset$", lambda: env.step(0))
        env.reset()
        env.step(0)


@pytest.mark.parametrize(
    "options, exc, pattern",
    [
        ([("start", 3)], TypeError, r"^options is \[\('start', 3\)\], expected a dict or None$"),
        ({"start": 3, "seed": 1}, ValueError, r"^unknown reset options \['seed'\]"),
        ({1: 2}, ValueError, r"^unknown reset options \[1\], expected start"),
        ({"1": 2, None: 3}, ValueError, r"^unknown reset options \['1', None\]"),
        ({"start": "3"}, TypeError, r"^start is '3', expected an integer$"),
        ({"start": 3.0}, TypeError, r"^start is 3.0, expected an integer$"),
        ({"start": np.True_}, TypeError, r"^start is .*, expected an integer$"),
        ({"start": -1}, ValueError, rf"^start is -1, expected {U64}$"),
    ],
)
def test_bad_reset_options_name_the_option(kth, actual, options, exc, pattern):
    for env in _envs(kth, actual):
        _refused(exc, pattern, lambda: env.reset(seed=0, options=options))
    # The market's own option.
    m = M(actual, episode=16)
    _refused(ValueError, rf"^qos_seed is -1, expected {U64}$", lambda: m.reset(options={"qos_seed": -1}))
    _refused(TypeError, r"^qos_seed is 1.5, expected an integer$", lambda: m.reset(options={"qos_seed": 1.5}))
    m.reset(options={"qos_seed": np.uint64(2**64 - 1), "start": np.int32(3)})
    assert m._core.qos_seed == 2**64 - 1 and m._core.start == 3


# 5: a long name or value quoted in an error is shortened, as on the
# command line's stderr (a 100,000-character policy name made an exception
# of 100,000 characters).
@pytest.mark.parametrize(
    "call",
    [
        lambda w: usched.simulate(w, "x" * 100_000),
        lambda w: usched.load("y" * 100_000),
    ],
)
def test_long_values_in_errors_are_shortened(small, call):
    with pytest.raises(usched.UschedError) as e:
        call(small)
    message = str(e.value)
    assert len(message) < 2_000, message[:300]
    assert "characters left out]" in message, message


# 5b: a control character quoted in an error (an escape sequence in a
# trace's field or in a name given) is made visible, as the command line
# shows it: no raw ESC, CR or NUL reaches a terminal through a traceback.
def test_control_characters_in_errors_are_made_visible(small, tmp_path):
    bad = tmp_path / "esc.swf"
    bad.write_bytes(b"; MaxProcs: 8\n1 0 -1 10\x1b[31m 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n")
    calls = [
        lambda: usched.load(str(bad)),
        lambda: usched.simulate(small, "easy\x1b[2J\r"),
    ]
    for call in calls:
        with pytest.raises(usched.UschedError) as e:
            call()
        message = str(e.value)
        assert "\x1b" not in message and "\r" not in message, repr(message)
        assert "\\u{1b}" in message, message


# 6: a long Python value quoted in an error is shortened as a whole, its
# spaces and all (the repr of a long list or dict): every parameter that
# quotes what it was given, in the binding and in the package's own
# modules. An int past Python's limit on digits turned into text shows its
# size in bits instead of failing in the message.
HUGE_LIST = [0.5] * 100_000
HUGE_INT = 10**5000
CUT = "characters left out]…"
BIG = "<an int of 16610 bits>"
NEG = "<a negative int of 16610 bits>"


def _stepped(env):
    env.reset(seed=0)
    return env


@pytest.mark.parametrize(
    "call, exc, shown",
    [
        (lambda w, a: usched.load(GEN, procs=HUGE_LIST), TypeError, CUT),
        (lambda w, a: usched.simulate(w, bsld_bound=HUGE_LIST), TypeError, CUT),
        (lambda w, a: usched.simulate(w, bsld_bound=HUGE_INT), ValueError, BIG),
        (lambda w, a: usched.simulate(w, bsld_bound=-HUGE_INT), ValueError, NEG),
        (lambda w, a: E(w, window=HUGE_INT), ValueError, BIG),
        (lambda w, a: E(w, window=8, episode=16).reset(seed=HUGE_LIST), TypeError, CUT),
        (lambda w, a: E(w, window=8, episode=16).reset(seed=-HUGE_INT), ValueError, NEG),
        (lambda w, a: E(w, window=8, episode=16).reset(seed=0, options=HUGE_LIST), TypeError, CUT),
        (lambda w, a: E(w, window=8, episode=16).reset(seed=0, options={str(i): 0 for i in range(50_000)}),
         ValueError, CUT),
        (lambda w, a: _stepped(V(2, trace=w, window=8, episode=16)).step(HUGE_LIST), TypeError, CUT),
        (lambda w, a: M(a, episode=16, action="price", factors=[HUGE_LIST]), TypeError, CUT),
        (lambda w, a: M(a, episode=16, nodes=HUGE_INT), ValueError, BIG),
        (lambda w, a: M(a, episode=16, alpha=HUGE_LIST), TypeError, CUT),
        (lambda w, a: usched.papers.pricing(a, alpha=HUGE_LIST), TypeError, CUT),
        (lambda w, a: _stepped(E(w, window=8, episode=16)).step(HUGE_LIST), TypeError, CUT),
        (lambda w, a: _stepped(M(a, episode=16)).step(HUGE_INT), ValueError, BIG),
        (lambda w, a: _stepped(M(a, episode=16)).step(HUGE_LIST), TypeError, CUT),
    ],
)
def test_long_python_values_in_errors_are_shortened(small, actual, call, exc, shown):
    with pytest.raises(exc) as e:
        call(small, actual)
    message = str(e.value)
    assert len(message) < 2_000, message[:300]
    assert shown in message, message
