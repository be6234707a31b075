"""Workloads and schedules pickle (and copy), so that Gymnasium's
``AsyncVectorEnv`` and ``multiprocessing`` can carry a loaded workload to
their workers; a state read back is checked as a file is, so a damaged or
forged one is a ``UschedError`` saying what is wrong. A simulation in
progress (a ``Stepper``, an environment) refuses, saying what to pickle
instead."""

import copy
import hashlib
import pickle
import struct

import gymnasium
import numpy as np
import pytest

import usched
from usched import UschedError
from usched.envs import BatchSchedulingEnv, BatchSchedulingVecEnv, MarketAdmissionEnv

TINY = "lublin99:procs=16,jobs=12,seed=5"


def _same_workload(a, b):
    assert (a.name, a.capacity, len(a), a.sha256) == (b.name, b.capacity, len(b), b.sha256)
    assert a.facts() == b.facts()
    ca, cb = a.columns(), b.columns()
    assert ca.keys() == cb.keys()
    for k in ca:
        assert list(ca[k]) == list(cb[k]), k


@pytest.fixture(scope="module")
def stand_in(root, tmp_path_factory, monkeypatch_module):
    # A trace that is not committed, with nowhere to find it: a stand-in
    # (a workload without records).
    empty = tmp_path_factory.mktemp("nothing")
    monkeypatch_module.setenv("TRACES_MIRROR", empty.as_uri())
    monkeypatch_module.setenv("TRACES_CACHE", str(empty))
    monkeypatch_module.delenv("TRACES_DIR", raising=False)
    with pytest.warns(UserWarning):
        w = usched.load("CTC-SP2-1996-3.1-cln", stand_in=True, root=root)
    assert w.facts()["stand_in"]
    return w


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def test_workloads_of_every_source_round_trip(sdsc, small, actual, stand_in):
    under = usched.load(TINY, estimate="under-estimate:0.25")
    for w in [sdsc, small, actual, stand_in, under]:
        back = pickle.loads(pickle.dumps(w))
        _same_workload(w, back)
        for c in [copy.copy(w), copy.deepcopy(w)]:
            _same_workload(w, c)
        # The same simulation, the same environment.
        assert usched.simulate(back, "conservative").stats() == usched.simulate(w, "conservative").stats()
        # (The environments take no under-estimated workload.)
        for cls in [BatchSchedulingEnv, MarketAdmissionEnv][: 0 if w is under else 2]:
            one, two = cls(w, episode=8), cls(back, episode=8)
            o1, _ = one.reset(seed=4)
            o2, _ = two.reset(seed=4)
            assert np.array_equal(o1, o2)


def test_schedules_round_trip(small):
    for policy in ["fcfs", "easy", "conservative"]:
        s = usched.simulate(small, policy, bsld_bound=30)
        back = pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
        assert back.policy == policy and back.stats() == s.stats()
        assert {k: list(v) for k, v in back.columns().items()} == {
            k: list(v) for k, v in s.columns().items()
        }


def test_a_loaded_workload_reaches_async_vector_env_workers(small):
    def make():
        return BatchSchedulingEnv(small, episode=16)

    ours = gymnasium.vector.SyncVectorEnv([make, make])
    theirs = gymnasium.vector.AsyncVectorEnv([make, make])
    try:
        a, _ = ours.reset(seed=9)
        b, _ = theirs.reset(seed=9)
        assert np.array_equal(a, b)
        for _ in range(20):
            actions = np.zeros(2, dtype=np.int64)
            a, ra, *_ = ours.step(actions)
            b, rb, *_ = theirs.step(actions)
            assert np.array_equal(a, b) and np.array_equal(ra, rb)
    finally:
        ours.close()
        theirs.close()


def test_simulations_in_progress_refuse_saying_what_to_pickle(small):
    live = [
        BatchSchedulingEnv(small, episode=8),
        MarketAdmissionEnv(small, episode=8),
        BatchSchedulingVecEnv(2, trace=TINY, episode=4),
        usched.Stepper(small),
    ]
    for obj in live:
        with pytest.raises(TypeError, match=r"cannot be pickled: .*pickle its Workload"):
            pickle.dumps(obj)


# The layout `state.rs` writes, enough to forge a field.
MAGIC = b"usched Workload 2\n"
# The SHA-256 (hex) of everything before it ends a state.
SUM = 64


def _sealed(fields):
    """A state of `fields` (magic line and fields), with its checksum: a
    forger's state, which only the fields' own checks can refuse."""
    return bytes(fields) + hashlib.sha256(bytes(fields)).hexdigest().encode()


def _fields(state):
    return state[:-SUM]


def _jobs_at(state):
    """Offset of the first job, the capacity's offset and the job count."""
    at = len(MAGIC)
    (n,) = struct.unpack_from("<Q", state, at)
    at += 8 + n
    capacity_at = at
    at += 8
    at += 1 + (8 if state[at] == 1 else 0)
    (count,) = struct.unpack_from("<Q", state, at)
    return at + 8, capacity_at, count


def _forged(state, job, field, value):
    """`state` with one field of job `job` (no deadlines) set to `value`."""
    first, _, _ = _jobs_at(state)
    offset = {"id": 0, "submit": 8, "procs": 16, "estimate": 24, "run_time": 32}[field]
    out = bytearray(_fields(state))
    struct.pack_into("<q" if field != "id" else "<Q", out, first + 41 * job + offset, value)
    return _sealed(out)


def _restore(state):
    return usched.Workload._from_state(state)


def test_forged_fields_are_named():
    w = usched.load(TINY)
    func, (state,) = w.__reduce__()
    assert func(state).facts() == w.facts()
    cases = [
        (_forged(state, 3, "procs", 17), r"at position 3, job \d+ has 17 processors, outside 1 to the machine's 16"),
        (_forged(state, 3, "procs", 0), r"at position 3, job \d+ has 0 processors"),
        (_forged(state, 3, "submit", -(2**62)), r"at position 3, job \d+: submit is -4611686018427387904 s"),
        (_forged(state, 3, "estimate", 0), r"at position 3, job \d+: estimate"),
        (_forged(state, 3, "run_time", -5), r"at position 3, job \d+: run"),
        (_forged(state, 5, "submit", 0), r"at position 5, job \d+ is submitted at 0, before job \d+ at position 4"),
        (_forged(_forged(state, 2, "id", 7), 6, "id", 7), r"the jobs at positions 2 and 6 both have id 7"),
        (_forged(state, 2, "id", 2**63), r"at position 2, job id 9223372036854775808 is above 9223372036854775807"),
    ]
    _, capacity_at, _ = _jobs_at(state)
    wide = bytearray(_fields(state))
    struct.pack_into("<Q", wide, capacity_at, 2**40)
    cases.append((_sealed(wide), r"the machine has 1099511627776 processors"))
    small = bytearray(_fields(state))
    struct.pack_into("<Q", small, capacity_at, 8)
    cases.append((_sealed(small), r"processors, outside 1 to the machine's 8|the facts say"))
    for forged, pattern in cases:
        with pytest.raises(UschedError, match="the pickled Workload cannot be restored: " + pattern):
            _restore(forged)


def test_other_bytes_are_told_apart():
    w = usched.load(TINY)
    s = usched.simulate(w, "easy")
    _, (ws,) = w.__reduce__()
    _, (ss,) = s.__reduce__()
    cases = [
        (b"", r"not the state of a Workload"),
        (b"hello", r"not the state of a Workload"),
        (ss, r"the state of a Schedule, not of a Workload"),
        (b"usched Workload 7\n" + ws[len(MAGIC):], r"format 7, and this version of usched \(.*\) reads format 2"),
        (_sealed(_fields(ws) + b"\0"), r"1 bytes follow the Workload's last field"),
        (ws + b"\0", r"its checksum does not match its contents"),
    ]
    for state, pattern in cases:
        with pytest.raises(UschedError, match=pattern):
            _restore(state)
    with pytest.raises(UschedError, match=r"the state of a Workload, not of a Schedule"):
        usched.Schedule._from_state(ws)
    for wrong in ["text", 3, None, bytearray(ws)]:
        with pytest.raises(TypeError, match=r"the state of a Workload is bytes"):
            _restore(wrong)


def test_every_truncation_and_byte_flip_is_an_error_or_a_sound_workload():
    w = usched.load(TINY)
    _, (state,) = w.__reduce__()
    for n in range(len(state)):
        with pytest.raises(UschedError, match="the pickled Workload cannot be restored"):
            _restore(state[:n])
    # A flipped byte anywhere, and one bit of each field: refused, whether
    # or not the field still reads as a valid one (the checksum).
    for i in range(len(state)):
        for mask in [0xFF, 0x01]:
            flipped = bytearray(state)
            flipped[i] ^= mask
            with pytest.raises(UschedError, match="the pickled Workload cannot be restored"):
                _restore(bytes(flipped))
    # A forger's state, sealed: what its checks take back is a workload
    # every policy runs on.
    sound = 0
    fields = _fields(state)
    for i in range(len(MAGIC), len(fields)):
        flipped = bytearray(fields)
        flipped[i] ^= 0xFF
        try:
            back = _restore(_sealed(flipped))
        except UschedError:
            continue
        sound += 1
        for policy in ["fcfs", "conservative"]:
            usched.simulate(back, policy)
    assert sound < len(fields)


def test_a_forged_schedule_is_checked_as_every_schedule_is(small):
    s = usched.simulate(small, "fcfs")
    _, (state,) = s.__reduce__()
    # The last outcome (id, start, end, status) sits before the policy's
    # text and the bound; starting it at 0 puts it before its submission
    # or over the machine.
    fields = _fields(state)
    tail = 8 + len("fcfs") + 8
    at = len(fields) - tail - 25
    forged = bytearray(fields)
    struct.pack_into("<q", forged, at + 8, -(2**39))
    with pytest.raises(UschedError, match=r"the pickled Schedule cannot be restored: the schedule is invalid"):
        usched.Schedule._from_state(_sealed(forged))
    status = bytearray(fields)
    status[at + 24] = 9
    with pytest.raises(UschedError, match=r"the outcome at position \d+ has status 9"):
        usched.Schedule._from_state(_sealed(status))
    bound = bytearray(fields)
    struct.pack_into("<q", bound, len(fields) - 8, -1)
    with pytest.raises(UschedError, match=r"bound is -1"):
        usched.Schedule._from_state(_sealed(bound))
