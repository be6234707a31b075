"""usched/BatchScheduling-v0: Gymnasium's checker, determinism, fresh
arrays, the options, and conformance with SchedGym's own numbers."""

import json
import pathlib

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import usched
from usched.envs import BatchSchedulingEnv, f1, sjf

DATA = pathlib.Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="module")
def env(sdsc):
    return BatchSchedulingEnv(sdsc)


def test_registered_on_import_with_schedgyms_defaults(root):
    e = gymnasium.make("usched/BatchScheduling-v0", root=root)
    assert e.observation_space.shape == (128 * 8,)
    assert e.observation_space.dtype == np.float32
    assert e.action_space == gymnasium.spaces.Discrete(128)
    obs, info = e.reset(seed=3)
    assert obs.shape == (1024,) and info["action_mask"].shape == (128,)


def test_gymnasiums_checker_passes(sdsc):
    check_env(BatchSchedulingEnv(sdsc), skip_render_check=True)
    check_env(BatchSchedulingEnv(sdsc, backfill=True, reward="wait", shaping=True), skip_render_check=True)


def episode(e, seed, pick):
    obs, info = e.reset(seed=seed)
    trace = [obs.copy()]
    done, total, steps = False, 0.0, 0
    while not done:
        obs, r, done, trunc, info = e.step(pick(e, info))
        trace.append(obs.copy())
        total += r
        steps += 1
    return trace, total, steps


def first_valid(e, info):
    return int(np.flatnonzero(info["action_mask"])[0])


def test_the_same_seed_gives_the_same_episode(sdsc):
    a, ta, na = episode(BatchSchedulingEnv(sdsc), 11, first_valid)
    b, tb, nb = episode(BatchSchedulingEnv(sdsc), 11, first_valid)
    assert (ta, na) == (tb, nb)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c, tc, _ = episode(BatchSchedulingEnv(sdsc), 12, first_valid)
    assert tc != ta


def test_observations_are_fresh_arrays(env):
    o1, _ = env.reset(seed=1)
    kept = o1.copy()
    o2, *_ = env.step(0)
    assert not np.shares_memory(o1, o2)
    assert np.array_equal(o1, kept), "an old observation was overwritten"
    o1[:] = -1  # writing into one never changes the next
    o3, *_ = env.step(0)
    assert (o3 >= 0).all()


def test_the_mask_marks_the_rows_with_jobs_and_empty_rows_skip(env):
    obs, info = env.reset(seed=2, options={"start": 1000})
    mask = info["action_mask"]
    rows = obs.reshape(128, 8)
    assert mask.sum() >= 1
    for i in np.flatnonzero(mask == 0):
        assert list(rows[i]) == [0, 1, 1, 1, 1, 1, 1, 0]
    empty = int(np.flatnonzero(mask == 0)[0])
    before = env.unwrapped._core.now
    obs, r, done, trunc, info = env.step(empty)
    assert info["skipped"] and r == 0 and not done
    assert 0 < env.unwrapped._core.now - before <= 360


@pytest.mark.parametrize("backfill", [False, True])
def test_a_random_masked_agent_finishes_256_job_episodes(sdsc, backfill):
    e = BatchSchedulingEnv(sdsc, backfill=backfill)
    rng = np.random.default_rng(0)
    _, total, steps = episode(
        e, 5, lambda e, info: int(rng.choice(np.flatnonzero(info["action_mask"])))
    )
    assert total <= -1.0  # minus a mean bounded slowdown
    assert steps == 256 if not backfill else steps <= 256


def test_the_options(sdsc):
    small = BatchSchedulingEnv(sdsc, window=16, episode=32, reward="turnaround", shaping=True)
    assert small.observation_space.shape == (16 * 8,)
    obs, info = small.reset(seed=4)
    rewards, done = [], False
    while not done:
        obs, r, done, _, info = small.step(first_valid(small, info))
        rewards.append(r)
    # Shaped rewards sum to the episode's score.
    assert np.isclose(sum(rewards), small.unwrapped._core.score_now())
    util = BatchSchedulingEnv(sdsc, reward="utilization", episode=64)
    _, total, _ = episode(util, 4, first_valid)
    assert 0 < total <= 1
    with pytest.raises(usched.UschedError, match="reward"):
        BatchSchedulingEnv(sdsc, reward="profit")
    # Exact estimates change what backfilling may start.
    totals = []
    for estimate in ("requested", "actual"):
        e = BatchSchedulingEnv(sdsc, backfill=True, estimate=estimate)
        totals.append(episode(e, 9, first_valid)[1])
    assert totals[0] != totals[1]
    with pytest.raises(usched.UschedError, match="estimate"):
        BatchSchedulingEnv(sdsc, estimate="under-estimate:0.2")
    lublin = BatchSchedulingEnv("lublin99:procs=256,jobs=2000,seed=3")
    assert lublin.reset(seed=0)[0].shape == (1024,)


CONFORMANCE = json.loads((DATA / "schedgym_sdsc_sp2.json").read_text())


def test_conformance_data_is_for_our_trace(sdsc):
    assert CONFORMANCE["trace_sha256"] == sdsc.sha256
    assert len(CONFORMANCE["cases"]) >= 80


@pytest.mark.parametrize("backfill", [False, True])
def test_sjf_and_f1_give_schedgyms_mean_bounded_slowdown(sdsc, backfill):
    """Each window of SchedGym's own reset, driven by its SJF and F1
    heuristics, ends with SchedGym's reward (recorded by running SchedGym;
    numbers only)."""
    e = BatchSchedulingEnv(sdsc, backfill=backfill)
    cases = [c for c in CONFORMANCE["cases"] if c["backfill"] == backfill]
    assert len(cases) >= 40
    for c in cases:
        pick = sjf if c["heuristic"] == "sjf" else f1
        e.reset(seed=0, options={"start": c["start"]})
        done = False
        while not done:
            _, r, done, _, _ = e.step(pick(e))
        assert -r == pytest.approx(c["mean_bsld"], rel=1e-9, abs=0), c


def test_the_vector_environment(root):
    """make_vec gives the Rust vector environment; NEXT_STEP autoreset; the
    same seed gives the same steps on any thread count."""
    v = gymnasium.make_vec("usched/BatchScheduling-v0", num_envs=4, root=root)
    assert type(v).__name__ == "BatchSchedulingVecEnv"
    assert v.observation_space.shape == (4, 1024)
    assert v.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP

    def run(threads):
        e = gymnasium.make_vec("usched/BatchScheduling-v0", num_envs=4, threads=threads, root=root)
        obs, info = e.reset(seed=3)
        out, ended = [], 0
        for _ in range(700):
            acts = np.argmax(info["action_mask"], axis=1)
            obs, r, term, trunc, info = e.step(acts)
            out.append((obs.copy(), r.copy(), term.copy()))
            ended += int(term.sum())
        return out, ended

    a, ended = run(1)
    b, _ = run(2)
    assert ended >= 4, "episodes ended and were reset"
    for (oa, ra, ta), (ob, rb, tb) in zip(a, b):
        assert np.array_equal(oa, ob) and np.array_equal(ra, rb) and np.array_equal(ta, tb)


def test_each_copy_of_the_vector_steps_as_a_single_environment(sdsc):
    """Copy i of a vector reset with seed s is the single core reset with
    s + i: the same observations, masks and rewards, bit for bit, through
    episode ends (NEXT_STEP: the step after an end resets the copy)."""
    n, rng = 3, np.random.default_rng(5)
    singles = [usched._usched.BatchCore(sdsc, window=16, episode=40) for _ in range(n)]
    vec = usched._usched.BatchVec(singles[0], n, threads=2)
    assert vec.threads == 2 and len(vec) == n
    obs, mask = vec.reset(seed=10)
    ended = [False] * n
    for i, c in enumerate(singles):
        o, m = c.reset_env(seed=10 + i)
        assert np.array_equal(obs[i], o) and np.array_equal(mask[i], m)
    episodes = 0
    for _ in range(300):
        acts = (rng.random(n) * np.maximum(mask.sum(axis=1), 1)).astype(np.int64)
        obs, rewards, term, trunc, info = vec.step(acts)
        mask = info["action_mask"]
        assert not trunc.any()
        for i, c in enumerate(singles):
            if ended[i]:
                o, m = c.reset_env()
                r, d = 0.0, False
            else:
                o, r, d, _, inf = c.step_env(int(acts[i]))
                m = inf["action_mask"]
            assert np.array_equal(obs[i], o) and np.array_equal(mask[i], m)
            assert rewards[i] == r and term[i] == d
            ended[i] = d
            episodes += d
    assert episodes >= n


def test_every_thread_asked_for_steps_copies(sdsc):
    """Copies are split in min(threads, num_envs) parts that differ by at
    most one copy (5 copies on 4 threads: 2, 1, 1, 1, not 2, 2, 1 on 3),
    with the same steps bit for bit on any count."""
    core = usched._usched.BatchCore(sdsc, window=16, episode=40)
    n, rng = 5, np.random.default_rng(7)
    acts = [rng.integers(0, 4, n).astype(np.int64) for _ in range(120)]

    def run(threads):
        vec = usched._usched.BatchVec(core, n, threads=threads)
        out = [vec.reset(seed=4)]
        for a in acts:
            mask = out[-1][1] if len(out) == 1 else out[-1][4]["action_mask"]
            a = np.minimum(a, np.maximum(mask.sum(axis=1) - 1, 0))
            out.append(vec.step(a))
        return vec.threads, out

    base_threads, base = run(1)
    assert base_threads == 1
    for threads, used in [(2, 2), (3, 3), (4, 4), (5, 5), (9, 5)]:
        got_threads, got = run(threads)
        assert got_threads == used, (threads, got_threads)
        for x, y in zip(base, got):
            for u, v in zip(x, y):
                if isinstance(u, dict):
                    assert np.array_equal(u["action_mask"], v["action_mask"])
                else:
                    assert np.array_equal(u, v)


def test_bad_actions_raise_and_name_the_copy(sdsc, root):
    v = gymnasium.make_vec("usched/BatchScheduling-v0", num_envs=2, root=root)
    v.reset(seed=0)
    with pytest.raises(ValueError, match="action 128 of environment 1 is outside Discrete"):
        v.step(np.array([0, 128]))
    with pytest.raises(ValueError, match="action -1 of environment 0"):
        v.step(np.array([-1, 0]))
    with pytest.raises(ValueError):
        v.step(np.array([0, 0, 0]))
    with pytest.raises(ValueError, match="threads is 0, expected 1 to 256"):
        gymnasium.make_vec("usched/BatchScheduling-v0", num_envs=2, threads=0, root=root)
    e = BatchSchedulingEnv(sdsc)
    e.reset(seed=0)
    with pytest.raises(ValueError, match="action 128 is outside Discrete"):
        e.step(128)
    assert e.step(np.int64(0))[0].shape == (1024,)  # numpy integers are actions
    assert e.step(np.array(0))[0].shape == (1024,)  # as is what predict returns
    assert e.step(np.array([0], dtype=np.uint8))[0].shape == (1024,)
    # Floats are refused, as Discrete.contains refuses them, never truncated.
    for bad in [1.5, 1.0, np.float32(2.0), np.array([0.5]), np.array([0, 1]), "1", None]:
        with pytest.raises(TypeError, match="is not an integer of Discrete"):
            e.step(bad)
    with pytest.raises(TypeError, match="are not integers of Discrete"):
        v.step(np.array([0.5, 1.0]))


def test_a_subclass_keeps_its_own_step(sdsc):
    """The Rust step is bound on the instance only when `step` is not
    overridden."""

    class Counting(BatchSchedulingEnv):
        calls = 0

        def step(self, action):
            Counting.calls += 1
            return super().step(action)

    e = gymnasium.make("usched/BatchScheduling-v0", trace=sdsc)
    assert e.unwrapped.step == e.unwrapped._core.step_env
    c = Counting(sdsc)
    c.reset(seed=0)
    c.step(0)
    assert Counting.calls == 1
