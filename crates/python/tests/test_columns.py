"""``usched.from_columns``: a workload of one's own jobs, given as columns
(lists, numpy arrays, pandas Series), checked as a trace's jobs are and
then a ``Workload`` like any other."""

import pickle

import numpy as np
import pytest

import usched
from usched import UschedError
from usched.envs import BatchSchedulingEnv, MarketAdmissionEnv


def _own(w):
    """``w``'s jobs given back as columns."""
    j = usched.jobs(w)
    return usched.from_columns(
        j["submit"], j["procs"], j["run_time"], j["estimate"], capacity=w.capacity, id=j["id"], name="mine"
    )


def test_a_traces_jobs_given_as_columns_schedule_as_the_trace(kth):
    mine = _own(kth)
    assert len(mine) == len(kth) and mine.capacity == kth.capacity and mine.name == "mine"
    for policy in ["fcfs", "easy", "conservative"]:
        a = usched.columns(usched.simulate(kth, policy))
        b = usched.columns(usched.simulate(mine, policy))
        for k in ["id", "start", "end", "status"]:
            assert np.array_equal(a[k], b[k]), (policy, k)


def test_pandas_columns_and_defaults():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"submit": [30, 0, 30, 10], "procs": [1, 2, 3, 4], "run_time": [5, 0, 7, 9]})
    w = usched.from_columns(df["submit"], df["procs"], df["run_time"], capacity=4)
    j = usched.jobs(w)
    # Ids 1, 2, ... in the order given; taken in submit order, ties kept.
    assert j["id"].tolist() == [2, 4, 1, 3]
    assert j["submit"].tolist() == [0, 10, 30, 30]
    # Without estimates: the run times, at least 1 s.
    assert j["estimate"].tolist() == [1, 9, 5, 7]
    facts = w.facts()
    assert facts["no_estimate"] == 4 and facts["jobs"] == 4 and not facts["stand_in"]
    assert usched.simulate(w, "easy").stats()["completed"] == 4


def test_own_jobs_reach_both_environments_and_pickle(small):
    mine = _own(small)
    for cls in [BatchSchedulingEnv, MarketAdmissionEnv]:
        env = cls(mine, episode=16)
        obs, _ = env.reset(seed=2)
        assert np.isfinite(obs).all()
        env.step(0)
    back = pickle.loads(pickle.dumps(mine))
    assert usched.jobs(back)["id"].tolist() == usched.jobs(mine)["id"].tolist()


GOOD = dict(submit=[0, 5, 3], procs=[2, 4, 1], run_time=[10, 20, 0])


@pytest.mark.parametrize(
    "change, exc, pattern",
    [
        (dict(procs=[2, 5, 1]), UschedError, r"at position 1, job 2 has 5 processors, outside 1 to the machine's 4"),
        (dict(procs=[-1, 1, 1]), UschedError, r"at position 0, job 1 has -1 processors"),
        (dict(estimate=[0, 1, 1]), UschedError, r"at position 0, job 1: estimate is 0 s"),
        (dict(run_time=[1, -2, 1]), UschedError, r"at position 1, job 2: run_time is -2 s"),
        (dict(submit=[2**62, 0, 0]), UschedError, r"at position 0, job 1: submit is 4611686018427387904 s"),
        (dict(id=[7, 8, 7]), UschedError, r"the jobs at positions 0 and 2 both have id 7"),
        (dict(run_time=[1, 2]), UschedError, r"run_time has 2 values and submit 3"),
        (dict(id=[1, 2]), UschedError, r"id has 2 values and submit 3"),
        (dict(submit=[0.5, 1, 2]), TypeError, r"submit holds float64 values, expected whole numbers"),
        (dict(procs=[True, False, True]), TypeError, r"procs holds bool values"),
        (dict(run_time=["1", "2", "3"]), TypeError, r"run_time holds <U1 values"),
        (dict(submit=[[0], [1], [2]]), ValueError, r"submit has shape \(3, 1\), expected one value per job"),
        (dict(id=[-1, 2, 3]), ValueError, r"id\[0\] is -1, outside 0 to 9223372036854775807"),
        (dict(submit=np.array([2**63, 0, 0], dtype=np.uint64)), ValueError, r"submit\[0\] is 9223372036854775808"),
        (dict(name="a\x1bb"), UschedError, r"name: .*U\+001B"),
        (dict(capacity=0), ValueError, r"capacity is 0, expected 1 to"),
        (dict(capacity=True), TypeError, r"capacity"),
    ],
)
def test_bad_columns_are_named(change, exc, pattern):
    args = dict(GOOD, capacity=4)
    args.update(change)
    with pytest.raises(exc, match=pattern):
        usched.from_columns(**args)


def test_no_jobs_is_a_workload_of_none():
    w = usched.from_columns([], [], [], capacity=8)
    assert len(w) == 0
    assert usched.simulate(w, "easy").stats()["jobs"] == 0
