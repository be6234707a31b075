"""Values taken as given or refused naming them: ids that every output
holds, one rule for jobs of run time 0 whatever made the workload, no
queue order that runs as another, the utility paper's options checked as
the other papers' are, and the Stepper and the vector environment at
their ends."""

import numpy as np
import pytest

import usched
from usched import UschedError, papers
from usched.envs import BatchSchedulingEnv, BatchSchedulingVecEnv


def test_an_id_is_an_swf_job_number(tmp_path):
    big = 2**63 - 1
    w = usched.from_columns([0, 1], [1, 1], [5, 5], capacity=4, id=np.array([big, 0], dtype=np.uint64))
    s = usched.simulate(w, "fcfs")
    # Every output holds it as given: the columns and a written SWF file.
    assert usched.jobs(w)["id"].tolist() == [big, 0]
    assert usched.columns(s)["id"].tolist() == [big, 0]
    s.write_swf(tmp_path / "s.swf")
    assert usched.jobs(usched.load(tmp_path / "s.swf"))["id"].tolist() == [big, 0]
    for ids, pattern in [
        (np.array([2**63, 0], dtype=np.uint64), r"id\[0\] is 9223372036854775808, outside 0 to 9223372036854775807"),
        ([0, -1], r"id\[1\] is -1, outside 0 to 9223372036854775807"),
        ([10**20, 1], r"id\[0\] is 100000000000000000000, outside"),
    ]:
        with pytest.raises(ValueError, match=pattern):
            usched.from_columns([0, 1], [1, 1], [5, 5], capacity=4, id=ids)
    with pytest.raises(TypeError, match=r"procs holds bool values, expected whole numbers .*processors are counted"):
        usched.from_columns([0], [True], [1], capacity=4)


def test_a_run_time_of_0_is_dropped_whatever_made_the_workload(tmp_path):
    submit = list(range(1, 13))
    run = [0 if k % 2 else 5 for k in submit]
    path = tmp_path / "zero.swf"
    with open(path, "w") as f:
        f.write("; MaxProcs: 4\n")
        for k, r in zip(submit, run):
            f.write(f"{k} {k} 0 {r} 1 -1 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n")
    seen = []
    for w in [usched.load(path), usched.from_columns(submit, [1] * 12, run, [100] * 12, capacity=4)]:
        env = BatchSchedulingEnv(w, window=4, episode=1)
        env.reset(options={"start": 1})
        seen.append(env.visible_jobs().tolist())
    assert seen[0] == seen[1]
    with pytest.raises(UschedError, match=r"has 0 jobs the environment can use"):
        BatchSchedulingEnv(usched.from_columns([0, 1, 2, 3], [1] * 4, [0] * 4, capacity=4), episode=1)


def test_no_queue_order_runs_as_another():
    w = usched.load("lublin99:procs=16,jobs=50,seed=1")
    for call in [
        lambda: usched.simulate(w, "easy", order="earliest-deadline"),
        lambda: usched.Stepper(w, order="earliest-deadline"),
    ]:
        with pytest.raises(UschedError, match=r"earliest-deadline.*expected arrival or shortest-estimate"):
            call()
    with pytest.raises(UschedError, match=r"unknown queue order 'sjf', expected arrival or shortest-estimate"):
        usched.simulate(w, "easy", order="sjf")


def test_the_utility_papers_options_are_checked_as_the_others_are():
    for option, value in [("sites", True), ("max_options", 2.0), ("max_ttl", "1"), ("l_max", True)]:
        with pytest.raises(TypeError, match=rf"^{option} is "):
            papers.utility(**{option: value})
    with pytest.raises(TypeError, match=r"weights\[0\] is np.True_, expected a number"):
        papers.utility(weights=[np.True_] * 4)
    # A string is one value, never a sequence of its characters.
    with pytest.raises(TypeError, match=r"os is 'Linux', expected a sequence"):
        papers.utility(os="Linux")
    with pytest.raises(TypeError, match=r"os is None, expected a sequence"):
        papers.utility(os=None)
    for option in ["memory", "exec_times", "arch"]:
        with pytest.raises(UschedError, match=rf"^{option} is \[-1, 2\]: holds -1, expected positive"):
            papers.utility(**{option: [-1, 2]})


def test_a_wrong_argument_is_named():
    w = usched.load("lublin99:procs=16,jobs=50,seed=1")
    for call, pattern in [
        (lambda: usched.load(None), r"trace is None, expected a path"),
        (lambda: usched.run(None), r"config is None, expected a path"),
        (lambda: usched.columns(None), r"schedule is None, expected a usched.Schedule"),
        (lambda: usched.jobs(3), r"workload is 3, expected a usched.Workload"),
    ]:
        with pytest.raises(TypeError, match=pattern):
            call()
    with pytest.raises(ValueError, match=r"path is empty, expected a path"):
        usched.simulate(w).write_swf("")
    with pytest.raises(ValueError, match=r"num_envs is 0, expected 1 to \d+ \(at most"):
        BatchSchedulingVecEnv(0, trace=w, episode=8)
    # The window as the core read it.
    assert BatchSchedulingEnv(w, episode=8, window=5).window == 5


def test_finish_names_a_job_left_waiting_and_keeps_the_stepper():
    w = usched.load("lublin99:procs=16,jobs=20,seed=1")
    st = usched.Stepper(w)
    assert st.next_decision()
    with pytest.raises(UschedError, match=r"was never started: finish\(\) runs the rest .* before finish\(\)"):
        st.finish()
    # Still at the end, saying so again; nothing else was lost.
    with pytest.raises(UschedError, match=r"was never started"):
        st.finish()
    assert st.next_decision() is False


def test_closing_the_vector_environment_stops_it():
    w = usched.load("lublin99:procs=16,jobs=50,seed=1")
    vec = BatchSchedulingVecEnv(4, trace=w, episode=8, threads=2)
    vec.reset(seed=1)
    vec.step(np.zeros(4, dtype=np.int64))
    vec.close()
    vec.close()
    for call in [lambda: vec.reset(seed=1), lambda: vec.step(np.zeros(4, dtype=np.int64))]:
        with pytest.raises(UschedError, match=r"the vector environment is closed"):
            call()


def test_no_order_or_mask_is_taken_silently():
    w = usched.load("lublin99:procs=16,jobs=50,seed=1")
    from usched.envs import MarketAdmissionEnv

    for factors in [{1.0: 0, 2.0: 0}, {1.0, 2.0}, frozenset([1.0])]:
        with pytest.raises(TypeError, match=r"factors is .*, expected a sequence of real numbers"):
            MarketAdmissionEnv(w, action="price", factors=factors)
    masked = np.ma.masked_array([0, 1, 2], mask=[False, True, False])
    with pytest.raises(TypeError, match=r"submit is a masked array"):
        usched.from_columns(masked, [1, 1, 1], [5, 5, 5], capacity=4)
