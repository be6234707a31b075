"""Both environments inside Gymnasium's own vector environments, through
several automatic resets: every value an environment puts in ``info``
must fit the array Gymnasium gathers it into (the market environment's
QoS seed, a Python int past 2**63, overflowed the int64 array of
``SyncVectorEnv`` and ``AsyncVectorEnv`` at the first reset)."""

import gymnasium
import numpy as np
import pytest

import usched.envs  # noqa: F401  (registers the ids)
from usched.envs import BatchSchedulingEnv, MarketAdmissionEnv

GEN = "lublin99:procs=64,jobs=400,seed=2,estimates=f:3"


def _make(cls):
    return lambda: cls(GEN, episode=16)


@pytest.mark.parametrize("cls", [BatchSchedulingEnv, MarketAdmissionEnv])
@pytest.mark.parametrize("mode", [gymnasium.vector.SyncVectorEnv, gymnasium.vector.AsyncVectorEnv])
def test_gymnasiums_vector_envs_run_through_autoresets(cls, mode):
    vec = mode([_make(cls) for _ in range(2)])
    try:
        _, info = vec.reset(seed=3)
        if cls is MarketAdmissionEnv:
            assert info["qos_seed"].dtype == np.uint64
            single = cls(GEN, episode=16)
            _, one = single.reset(seed=3)
            assert isinstance(one["qos_seed"], np.uint64)
            # The seed given back reproduces the episode.
            _, again = single.reset(options={"qos_seed": one["qos_seed"], "start": one["start"]})
            assert again["qos_seed"] == one["qos_seed"]
        space = vec.single_action_space
        space.seed(5)
        ends = 0
        for _ in range(80):
            # The batch environment's first slot is always a waiting job
            # (a masked action schedules nothing); the market takes any.
            if cls is BatchSchedulingEnv:
                actions = np.zeros(2, dtype=np.int64)
            else:
                actions = np.array([space.sample() for _ in range(2)])
            _, reward, terminated, truncated, info = vec.step(actions)
            assert reward.shape == (2,)
            ends += int(terminated.sum() + truncated.sum())
        assert ends >= 4, "several episodes ended and were reset"
    finally:
        vec.close()


def test_make_vec_takes_the_registered_ids():
    for env_id in ["usched/BatchScheduling-v0", "usched/MarketAdmission-v0"]:
        vec = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", trace=GEN, episode=16)
        try:
            vec.reset(seed=1)
            for _ in range(40):
                vec.step(np.zeros(2, dtype=np.int64))
        finally:
            vec.close()


@pytest.mark.filterwarnings("ignore:.*render_mode='ansi' that is not in the possible")
@pytest.mark.parametrize("env_id", ["usched/BatchScheduling-v0", "usched/MarketAdmission-v0"])
def test_render_mode_none_is_taken_and_a_mode_is_refused_by_name(env_id):
    env = gymnasium.make(env_id, trace=GEN, episode=16, render_mode=None)
    assert env.unwrapped.render_mode is None
    with pytest.raises(ValueError, match=r"^render_mode is 'ansi', but this environment renders nothing"):
        gymnasium.make(env_id, trace=GEN, episode=16, render_mode="ansi")


@pytest.mark.parametrize("env_id", ["usched/BatchScheduling-v0", "usched/MarketAdmission-v0"])
def test_gymnasiums_wrappers_take_the_environments(env_id):
    from gymnasium.wrappers import NormalizeObservation, RecordEpisodeStatistics, TimeLimit

    env = RecordEpisodeStatistics(
        NormalizeObservation(TimeLimit(gymnasium.make(env_id, trace=GEN, episode=16), 10))
    )
    env.reset(seed=1)
    episodes = []
    for _ in range(30):
        _, _, terminated, truncated, info = env.step(0)
        if terminated or truncated:
            episodes.append(info["episode"]["l"])
            env.reset()
    assert episodes and all(1 <= n <= 10 for n in episodes), episodes
