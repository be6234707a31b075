"""usched/MarketAdmission-v0: Gymnasium's checker, the Libra and Libra+$
agents equal to the pricing crate's run_policy exactly, the jobs equal to
a pricing experiment's, the two action spaces, the reward, determinism and
the options' errors."""

import math
import os
import tempfile

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import usched
from usched.envs import MARKET_FACTORS, MARKET_FEATURES, MarketAdmissionEnv, libra, libra_dollar

KEYS = (
    "qos_satisfaction",
    "profitability",
    "submitted",
    "accepted",
    "rejected",
    "qos_met",
    "earned",
    "budgets",
    "late",
    "rejected_resources",
    "rejected_deadline",
    "rejected_budget",
    "rejected_custom",
)


def play(env, agent, seed=None, options=None):
    """One episode: the observations, rewards and infos."""
    obs, info = env.reset(seed=seed, options=options)
    observations, rewards, infos = [obs.copy()], [], []
    done = False
    while not done:
        obs, r, done, truncated, info = env.step(agent(env))
        assert not truncated
        observations.append(obs.copy())
        rewards.append(r)
        infos.append(info)
    return observations, rewards, infos


def test_registered_on_import(root):
    e = gymnasium.make("usched/MarketAdmission-v0", trace="KTH-SP2-1996-2.1-cln", root=root)
    assert e.observation_space == gymnasium.spaces.Box(0.0, 1.0, (18,), np.float32)
    assert e.action_space == gymnasium.spaces.Discrete(2)
    assert len(MARKET_FEATURES) == 18 and MARKET_FEATURES[11] == "feasible"
    obs, info = e.reset(seed=3)
    assert obs.shape == (18,) and obs.dtype == np.float32
    assert set(info) == {"start", "qos_seed"}
    p = gymnasium.make(
        "usched/MarketAdmission-v0", trace="KTH-SP2-1996-2.1-cln", root=root, action="price"
    )
    assert p.action_space == gymnasium.spaces.Discrete(1 + len(MARKET_FACTORS))
    assert p.unwrapped.factors == MARKET_FACTORS  # the Rust side's default
    assert p.unwrapped.admit_action == 1 + MARKET_FACTORS.index(1.0)


def test_gymnasiums_checker_passes(kth):
    check_env(MarketAdmissionEnv(kth).unwrapped, skip_render_check=True)
    check_env(
        MarketAdmissionEnv(kth, price="libra", action="price", shaping=True, episode=64).unwrapped,
        skip_render_check=True,
    )


# The exact equality of the Libra and Libra+$ agents with the crate.
CASES = [
    (trace, price, seed, {})
    for trace in ("kth", "sdsc")
    for price in ("libra", "libra+$")
    for seed in (0, 1, 2, 3)
] + [
    # Heavy load on a smaller cluster: many rejections of every kind.
    ("kth", "libra+$", 5, {"episode": 500, "arrival_delay": 0.1, "nodes": 64}),
    ("sdsc", "libra", 6, {"episode": 500, "arrival_delay": 0.1, "nodes": 64}),
    # Under-estimates: accepted jobs finish late.
    ("sdsc", "libra+$", 7, {"inaccuracy": 40.0, "arrival_delay": 0.25}),
    ("kth", "libra", 8, {"inaccuracy": 40.0, "high_urgency": 60.0}),
    # Libra+$ with other factors, and the price mode at factor 1.
    ("kth", "libra+$", 9, {"alpha": 0.5, "beta": 1.0}),
    ("sdsc", "libra+$", 10, {"action": "price"}),
]


@pytest.mark.parametrize("trace,price,seed,options", CASES)
def test_libra_agents_score_exactly_what_run_policy_gives(request, trace, price, seed, options):
    env = MarketAdmissionEnv(request.getfixturevalue(trace), price=price, **options)
    agent = libra if price == "libra" else libra_dollar
    _, rewards, infos = play(env, agent, seed=seed)
    score, ref = env.score(), env.reference()
    assert set(score) == set(KEYS)
    for k in KEYS:
        assert score[k] == ref[k], (k, score[k], ref[k])
    assert score["submitted"] == len(infos) == env.unwrapped._core.episode
    assert score["accepted"] == sum(i["decision"] == "accept" for i in infos)
    assert score["rejected"] == len(infos) - score["accepted"] > 0
    assert score["rejected_custom"] == 0
    # Admitting at factor 1 is Algorithm 1's answer.
    assert all(i["decision"] == i["algorithm1"] for i in infos)
    assert all(i["overruled"] == (i["decision"] != "accept") for i in infos)
    w = 0.5
    assert rewards[-1] == w * ref["profitability"] + (1 - w) * ref["qos_satisfaction"]
    assert all(r == 0 for r in rewards[:-1])
    if options.get("nodes") == 64:
        assert score["rejected_deadline"] > 0 and score["rejected_budget"] > 0
    if options.get("inaccuracy"):
        assert score["late"] > 0
    # And the reference names another policy on the same jobs.
    if options.get("beta") == 1.0:
        other = MarketAdmissionEnv(request.getfixturevalue(trace), alpha=0.5)
        other.reset(seed=seed)
        assert other.reference("libra+$-b1") == ref


def splitmix(z):
    m = (1 << 64) - 1
    z = (z + 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def derive_seed(base, name):
    """experiments::derive_seed."""
    x = base ^ 0x9E3779B97F4A7C15
    for b in name.encode():
        x = splitmix(x ^ b)
    return splitmix(x)


def test_the_episodes_jobs_are_a_pricing_experiments(kth, root):
    """A pricing experiment on the window's jobs (job_ids) at the same
    arrival delay draws the same deadlines and budgets from its repetition's
    pricing/qos stream: its samples equal the environment's."""
    seed, delay = 7, 0.25
    qos_seed = derive_seed(derive_seed(seed, "repetition/0"), "pricing/qos")
    results = {}
    for price, agent in (("libra", libra), ("libra+$", libra_dollar)):
        env = MarketAdmissionEnv(kth, price=price, episode=300, arrival_delay=delay)
        _, _, _ = play(env, agent, seed=0, options={"start": 1000, "qos_seed": qos_seed})
        assert env.unwrapped._core.qos_seed == qos_seed
        results[price] = env.score()
        ids = env.jobs()["id"]
    config = f"""version = 2
id = "examples/market-window"
title = "The market environment's window as a pricing experiment"
kind = "pricing"
seed = {seed}
repetitions = 1
series = ["libra", "libra+$"]

[[workloads]]
label = "KTH-SP2"
trace = "KTH-SP2-1996-2.1-cln"
estimate = "actual"
transforms = [{{ job_ids = [{ids[0]}, {ids[-1]}] }}]

[sweep]
axis = "arrival_delay"
values = [{delay}]
label = "arrival delay factor"

[[panels]]
id = "qos"
metric = "qos"

[[panels]]
id = "profit"
metric = "profit"

[[panels]]
id = "jobs"
metric = "jobs"
"""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "window.toml")
        with open(path, "w") as f:
            f.write(config)
        e = usched.run(path, root=root)
    s = e.samples
    got = {(p, n): v for p, n, v in zip(s["panel"], s["series"], s["value"])}
    for price, score in results.items():
        assert got[("jobs", price)] == 300
        assert got[("qos", price)] == 100 * score["qos_satisfaction"]
        assert got[("profit", price)] == 100 * score["profitability"]


def test_the_same_seed_gives_the_same_episode(kth):
    def run(seed):
        env = MarketAdmissionEnv(kth, action="price", shaping=True, episode=128)
        rng = np.random.default_rng(seed)
        return play(env, lambda e: int(rng.integers(0, e.action_space.n)), seed=seed)

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x, y) for x, y in zip(a[0], b[0]))
    assert a[1] == b[1] and a[2] == b[2]
    assert a[1] != c[1]
    # Later resets draw new episodes, reproducibly.
    env = MarketAdmissionEnv(kth)
    starts = [env.reset(seed=5)[1]["start"], env.reset()[1]["start"]]
    assert starts[0] != starts[1]
    assert [env.reset(seed=5)[1]["start"], env.reset()[1]["start"]] == starts


def test_the_observation_shows_the_arriving_job_and_algorithm_1(kth):
    env = MarketAdmissionEnv(kth, price="libra", episode=200, arrival_delay=0.1, nodes=64)
    obs, _ = env.reset(seed=4)
    jobs = env.jobs()
    f = {n: i for i, n in enumerate(MARKET_FEATURES)}
    done, k, seen = False, 0, set()
    while not done:
        assert ((0 <= obs) & (obs <= 1)).all()
        assert obs[f["procs"]] == np.float32(min(1.0, jobs["procs"][k] / 64))
        assert obs[f["urgency"]] == (jobs["urgency"][k] == "high")
        assert obs[f["progress"]] == np.float32(k / 200)
        feasible = obs[f["feasible"]] == 1
        obs, r, done, _, info = env.step(1)
        seen.add(info["algorithm1"])
        assert feasible == (info["algorithm1"] == "accept")
        if feasible:
            # C / B of Libra's static cost: RE + RE / D (gamma = delta = 1).
            re, d, b = jobs["estimate"][k], jobs["deadline"][k], jobs["budget"][k]
            assert info["cost"] == re + re / d
        k += 1
    assert {"accept", "cannot_meet_deadline", "cannot_meet_budget"} <= seen
    assert not obs.any(), "the observation after the last job is zeros"


def test_the_price_mode_scales_the_quoted_cost(kth):
    """Under Libra's static cost (the same on every node) a job offered at
    factor f is accepted exactly when Algorithm 1 fits it in time and
    f * C stays within its budget; it is charged f * C."""
    env = MarketAdmissionEnv(kth, price="libra", action="price", factors=[0.5, 1.0, 2.0, 6.0])
    assert env.action_space.n == 5 and env.admit_action == 2
    rng = np.random.default_rng(1)
    env.reset(seed=2)
    jobs = env.jobs()
    done, k, counts = False, 0, {"accept": 0, "cannot_meet_budget": 0}
    while not done:
        a = int(rng.integers(1, 5))
        _, _, done, _, info = env.step(a)
        factor = env.factors[a - 1]
        assert info["factor"] == factor
        re, d, b = jobs["estimate"][k], jobs["deadline"][k], jobs["budget"][k]
        cost = (re + re / d) * factor
        if info["algorithm1"] == "cannot_meet_deadline":
            assert info["decision"] == "cannot_meet_deadline" and info["overruled"]
        elif cost <= b:
            assert info["decision"] == "accept" and info["cost"] == cost
        else:
            assert info["decision"] == "cannot_meet_budget" and info["cost"] is None
        counts[info["decision"]] = counts.get(info["decision"], 0) + 1
        k += 1
    assert counts["accept"] > 0 and counts["cannot_meet_budget"] > 0
    # Over-pricing turns jobs away that Libra takes: fewer accepted.
    assert env.score()["accepted"] < env.reference("libra")["accepted"]


def test_rejecting_everything(kth):
    env = MarketAdmissionEnv(kth, episode=100, arrival_delay=0.1, nodes=32)
    _, rewards, infos = play(env, lambda e: 0, seed=3)
    s = env.score()
    assert s["accepted"] == 0 and s["qos_met"] == 0 and rewards[-1] == 0
    assert s["rejected_custom"] == sum(i["algorithm1"] == "accept" for i in infos) > 0
    # A job Algorithm 1 cannot fit keeps Algorithm 1's reason.
    for i in infos:
        want = "agent_rejected" if i["algorithm1"] == "accept" else i["algorithm1"]
        assert i["decision"] == want and not i["overruled"] and i["factor"] is None
    assert s["rejected"] == 100


def test_the_reward_weighs_profitability_against_qos(kth):
    def final(**kw):
        env = MarketAdmissionEnv(kth, episode=128, **kw)
        _, rewards, _ = play(env, libra_dollar, seed=21)
        return rewards, env.score()

    (r1, s), (r0, _) = final(weight=1.0), final(weight=0.0)
    assert r1[-1] == s["profitability"] and r0[-1] == s["qos_satisfaction"]
    shaped, _ = final(weight=0.3, shaping=True)
    plain, _ = final(weight=0.3)
    assert sum(shaped) == pytest.approx(plain[-1], rel=1e-12)
    assert sum(1 for r in shaped[:-1] if r > 0) > 10, "shaped rewards come as jobs finish"
    assert all(r >= 0 for r in shaped[:-1])


def test_bad_options_raise_clear_errors(kth):
    bad = [
        ({"price": "edf-bf"}, "price is 'edf-bf'"),
        ({"action": "bid"}, "action is 'bid'"),
        ({"weight": 1.5}, "weight is 1.5"),
        ({"beta": -1.0}, "beta is -1"),
        ({"alpha": math.nan}, "alpha is NaN"),
        ({"factors": [1.0]}, "factors are the price mode's"),
        ({"action": "price", "factors": []}, "factors is empty"),
        ({"action": "price", "factors": [1.0, 0.0]}, "factors has 0"),
        ({"arrival_delay": 0.0}, "arrival_delay is 0"),
        ({"high_urgency": 150.0}, "high_urgency is 150"),
        ({"inaccuracy": 100.0}, "inaccuracy is 100"),
        ({"nodes": 0}, "nodes is 0"),
        ({"episode": 0}, "episode is 0"),
        ({"episode": 10**7}, "episode is 10000000"),
    ]
    for options, message in bad:
        with pytest.raises(usched.UschedError, match=message.replace("(", r"\(")):
            MarketAdmissionEnv(kth, **options)
    env = MarketAdmissionEnv(kth, episode=16)
    with pytest.raises(usched.UschedError, match="call reset first"):
        env.reference()
    with pytest.raises(usched.UschedError, match="start is"):
        env.reset(options={"start": len(kth)})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"begin": 3})
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"outside Discrete\(2\)"):
        env.step(2)
    with pytest.raises(ValueError, match=r"action -1 is outside Discrete\(2\)"):
        env.step(-1)
    # A float is no action (Discrete.contains refuses it), never truncated.
    for bad in [0.5, 1.0, np.array([0.0]), np.array([0, 1]), "1"]:
        with pytest.raises(TypeError, match=r"is not an integer of Discrete\(2\)"):
            env.step(bad)
    with pytest.raises(usched.UschedError, match="has not ended"):
        env.score()
    with pytest.raises(usched.UschedError, match="policy"):
        env.reference("libra-$")
    with pytest.raises(ValueError, match="price='libra'"):
        libra(env)
    no_one = MarketAdmissionEnv(kth, action="price", factors=[2.0])
    with pytest.raises(ValueError, match="lack"):
        libra_dollar(no_one)
    for _ in range(16):
        env.step(1)
    with pytest.raises(usched.UschedError, match="ended"):
        env.step(1)
