"""The papers from Python (usched.papers): each entry point against an
independent path.

* Its summary equals what the experiment pipeline (``usched.run`` of a
  configuration of the paper's kind, the path ``cargo xtask run`` takes)
  reports for the same setting, seed and repetition, exactly: the values
  of ``samples.csv`` are written in Rust's shortest round-trip form.
* The configuration's resolved ``[params]`` (``run.toml``) equal the
  options the Python call used: every key of the kind is an argument,
  and every default is the kind's (the paper's).
* Its tables agree with its summary (counts and sums recomputed from the
  rows, in the crate's order of summation, so equal to the last bit).
* The same seed gives the same arrays; another seed other draws.
* A bad option raises ``UschedError`` naming it.
"""

import inspect
import json

import numpy as np
import pytest

import usched
from usched import papers

try:  # Python 3.11+: the resolved [params] of run.toml are compared too
    import tomllib
except ImportError:  # pragma: no cover
    tomllib = None

KTH = "KTH-SP2-1996-2.1-cln"
DAS2 = "DAS2-fs1-2003-1"


# --- helpers ---------------------------------------------------------------


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(toml_value(x) for x in v) + "]"


def experiment(tmp_path, root, kind, series, workload, params, metrics, seed, repetitions):
    """Runs a configuration of `kind` through the pipeline (usched.run):
    returns {(metric, series, repetition, sample): value} from samples.csv
    (repetition and sample from 0) and the resolved [params] (None without
    tomllib)."""
    lines = [
        "version = 2",
        f'id = "python/{kind}"',
        'title = "the papers from Python"',
        f'kind = "{kind}"',
        f"seed = {seed}",
        f"repetitions = {repetitions}",
        f"series = {toml_value(series)}",
        "",
        "[[workloads]]",
        *(f"{k} = {toml_value(v)}" for k, v in workload.items()),
        "",
        "[sweep]",
        'axis = "workload"',
        'label = "workload"',
        "",
        "[params]",
        *(f"{k} = {toml_value(v)}" for k, v in params.items()),
    ]
    for m in metrics:
        lines += ["", "[[panels]]", f'id = "{m}"', f'metric = "{m}"']
    path = tmp_path / f"{kind}.toml"
    path.write_text("\n".join(lines) + "\n")
    e = usched.run(path, root=root)
    s = e.samples
    units = {
        (p, sr, int(r) - 1, int(i) - 1): v
        for p, sr, r, i, v in zip(
            s["panel"], s["series"], s["repetition"], s["sample"], s["value"]
        )
    }
    resolved = tomllib.loads(e.run_toml)["config"]["params"] if tomllib else None
    return units, resolved


def flat(table):
    out = {}
    for k, v in table.items():
        if isinstance(v, dict) and k != "admission":
            out.update(flat(v))
        else:
            out[k] = v
    return out


def assert_options_are_the_kinds(function, resolved, given, skip=()):
    """Every option of `function` is a key of the kind's resolved [params]
    and has its value there: the given value, else the function's default
    (which is then the kind's). Options absent from the resolved table are
    those whose default is None (an absent key)."""
    if resolved is None:
        return
    resolved = flat(resolved)
    options = {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in ("seed", "repetition")
    }
    for key in skip:
        resolved.pop(key, None)
    assert set(options) >= set(resolved), set(resolved) - set(options)
    for name, default in options.items():
        want = given.get(name, default)
        if want is None:
            assert name not in resolved, name
            continue
        got = resolved[name]
        if isinstance(want, (tuple, list)):
            want, got = list(want), list(got)
        assert got == want, (name, got, want)


def same_tables(a, b):
    assert a.tables.keys() == b.tables.keys()
    for name in a.tables:
        for col, x in a.tables[name].items():
            y = b.tables[name][col]
            assert x.dtype == y.dtype, (name, col)
            if x.dtype.kind == "f":
                assert np.array_equal(x, y, equal_nan=True), (name, col)
            else:
                assert np.array_equal(x, y), (name, col)
    assert a.summary.keys() == b.summary.keys()
    for k, x in a.summary.items():
        y = b.summary[k]
        assert x == y or (x != x and y != y), k


def mean(values):
    """The crate's mean: a sum in order, then one division."""
    values = list(values)
    return sum(values) / len(values)


@pytest.fixture(scope="module")
def kth_actual(root):
    return usched.load(KTH, estimate="actual", root=root)


@pytest.fixture(scope="module")
def das2(root):
    return usched.load(DAS2, estimate="actual", root=root)


def test_a_run_is_a_table_pandas_takes(kth_actual):
    pd = pytest.importorskip("pandas")
    r = papers.pricing(kth_actual, "libra+$")
    df = pd.DataFrame(r.jobs)
    assert len(df) == len(kth_actual) == r.summary["submitted"]
    assert df["id"].dtype == np.int64 and df["accepted"].dtype == bool
    assert df["cost"].dtype == np.float64 and r.jobs["reason"].dtype == object
    assert (df["reason"][~df["accepted"]] != "").all()
    assert repr(r).startswith("PaperRun('pricing', 'libra+$'")
    assert isinstance(r.summary["accepted"], int)


# --- pricing -----------------------------------------------------------------

PRICING_SERIES = ["libra+$", "libra", "edf-bf", "sjf-bf"]
PRICING_OPTIONS = dict(arrival_delay=1.0, beta=0.3, committed="window", spread=0.3)
PRICING_METRICS = [
    "qos",
    "profit",
    "accepted",
    "rejected_resources",
    "rejected_deadline",
    "rejected_budget",
    "late",
    "jobs",
]


def pricing_metrics(s):
    """The pricing kind's metrics from the summary, as the kind computes them."""
    n = max(s["submitted"], 1)
    pct = lambda c: 100.0 * c / n  # noqa: E731
    return {
        "qos": 100.0 * s["qos_satisfaction"],
        "profit": 100.0 * s["profitability"],
        "accepted": pct(s["accepted"]),
        "rejected_resources": pct(s["rejected_resources"]),
        "rejected_deadline": pct(s["rejected_deadline"]),
        "rejected_budget": pct(s["rejected_budget"]),
        "late": pct(s["late"]),
        "jobs": float(s["submitted"]),
    }


def test_pricing_equals_the_experiment(tmp_path, root, kth_actual):
    units, resolved = experiment(
        tmp_path,
        root,
        "pricing",
        PRICING_SERIES,
        {"label": "KTH", "trace": KTH, "estimate": "actual"},
        PRICING_OPTIONS,
        PRICING_METRICS,
        seed=7,
        repetitions=2,
    )
    assert_options_are_the_kinds(papers.pricing, resolved, PRICING_OPTIONS, skip=["policy"])
    for series in PRICING_SERIES:
        for rep in (0, 1):
            r = papers.pricing(kth_actual, series, seed=7, repetition=rep, **PRICING_OPTIONS)
            for metric, value in pricing_metrics(r.summary).items():
                assert units[(metric, series, rep, 0)] == value, (series, rep, metric)


@pytest.mark.parametrize("policy", ["libra+$", "libra", "edf-bf", "fcfs-bf", "libra+$-b1"])
def test_pricing_table_agrees_with_its_summary(kth_actual, policy):
    r = papers.pricing(kth_actual, policy, inaccuracy=20.0, seed=3)
    j, s = r.jobs, r.summary
    n = len(j["id"])
    assert s["submitted"] == n
    assert s["accepted"] == j["accepted"].sum()
    assert s["qos_met"] == j["met_qos"].sum()
    assert s["qos_satisfaction"] == j["met_qos"].sum() / n
    assert s["earned"] == sum(j["cost"][j["met_qos"]].tolist())
    assert s["budgets"] == sum(j["budget"].tolist())
    assert s["profitability"] == s["earned"] / s["budgets"]
    assert s["late"] == (j["accepted"] & ~j["met_deadline"]).sum()
    for reason in ("resources", "deadline", "budget"):
        assert s[f"rejected_{reason}"] == (j["reason"] == f"cannot_meet_{reason}").sum()
    assert s["accepted"] + s["rejected_resources"] + s["rejected_deadline"] + s["rejected_budget"] == n
    # Rows: accepted jobs have a start, a finish and a cost; the others none.
    acc = j["accepted"]
    assert not np.isnan(j["finish"][acc]).any() and np.isnan(j["finish"][~acc]).all()
    assert not np.isnan(j["cost"][acc]).any() and np.isnan(j["cost"][~acc]).all()
    assert (j["finish"][acc] >= j["start"][acc] + j["run_time"][acc]).all()
    # met_deadline is the finish by the deadline; met_qos adds the budget.
    due = j["submit"] + j["deadline"]
    assert np.array_equal(j["met_deadline"], acc & (j["finish"] <= due))
    assert np.array_equal(j["met_qos"], j["met_deadline"] & (j["cost"] <= j["budget"]))
    # The urgency classes: exactly 20% high urgency (Table I), with a
    # shorter deadline per second of work than the low ones on average.
    high = j["urgency"] == "high"
    assert high.sum() == round(0.2 * n)
    ratio = j["deadline"] / np.maximum(j["run_time"], 1)
    assert ratio[high].mean() < ratio[~high].mean()
    # 20% under-estimation.
    assert (j["estimate"] <= j["run_time"]).all()
    if policy.startswith("libra"):
        # Algorithm 1 never charges more than the budget.
        assert (j["cost"][acc] <= j["budget"][acc]).all()


def test_pricing_is_deterministic(kth_actual):
    a = papers.pricing(kth_actual, "libra+$", seed=11)
    same_tables(a, papers.pricing(kth_actual, "libra+$", seed=11))
    other = papers.pricing(kth_actual, "libra+$", seed=12)
    assert not np.array_equal(a.jobs["budget"], other.jobs["budget"])
    # A series that fixes beta is Libra+$ with that beta.
    fixed = papers.pricing(kth_actual, "libra+$-b0.3", seed=11)
    same_tables(fixed, papers.pricing(kth_actual, "libra+$", beta=0.3, seed=11))


@pytest.mark.parametrize(
    "options,named",
    [
        (dict(policy="libra$"), "policy"),
        (dict(spread=-1.0), "spread"),
        (dict(arrival_delay=0.0), "arrival_delay"),
        (dict(high_urgency=120.0), "high_urgency"),
        (dict(inaccuracy=100.0), "inaccuracy"),
        (dict(rating=0), "rating"),
        (dict(spare="lazy"), "spare"),
        (dict(spare="idle", late="zero"), "late"),
        (dict(committed="all"), "committed"),
        (dict(drop="never"), "drop"),
        (dict(alpha=float("nan")), "alpha"),
        (dict(budget_ratio=-1.0), "budget_ratio"),
    ],
)
def test_pricing_bad_options_are_named(kth_actual, options, named):
    with pytest.raises(usched.UschedError, match=rf"^{named}\b"):
        papers.pricing(kth_actual, **options)


# --- adaptive ----------------------------------------------------------------

ADAPTIVE_SERIES = ["mdf-preemptive-moldable", "fifo-rigid", "fifo-preemptive"]
ADAPTIVE_OPTIONS = dict(interval_days=30, load_increase=20.0, incentive=10.0)
ADAPTIVE_METRICS = ["profit", "response", "rejected", "utilisation", "requests", "split"]


def adaptive_metrics(iv, k):
    """The adaptive kind's metrics of interval `k`, as the kind computes them."""
    x = {name: col[k].item() for name, col in iv.items()}
    out = {
        "profit": x["profit"],
        "rejected": float(x["rejected"]),
        "requests": float(x["requests"]),
    }
    if x["accepted"]:
        out["response"] = x["response_sum"] / x["accepted"]
    if x["span"] > 0:
        out["utilisation"] = 100.0 * x["busy"] / x["span"]
    if x["preemptive_accepted"]:
        out["split"] = 100.0 * x["split"] / x["preemptive_accepted"]
    return out


def test_adaptive_equals_the_experiment(tmp_path, root, kth_actual):
    units, resolved = experiment(
        tmp_path,
        root,
        "adaptive",
        ADAPTIVE_SERIES,
        {"label": "KTH", "trace": KTH, "estimate": "actual"},
        ADAPTIVE_OPTIONS,
        ADAPTIVE_METRICS,
        seed=5,
        repetitions=1,
    )
    assert_options_are_the_kinds(
        papers.adaptive, resolved, ADAPTIVE_OPTIONS, skip=["policy", "preemptive", "moldable"]
    )
    for series in ADAPTIVE_SERIES:
        r = papers.adaptive(kth_actual, series, seed=5, **ADAPTIVE_OPTIONS)
        iv = r.tables["intervals"]
        n = len(iv["interval"])
        assert n == r.summary["intervals"] > 1
        seen = 0
        for k in range(n):
            for metric, value in adaptive_metrics(iv, k).items():
                assert units[(metric, series, 0, k)] == value, (series, k, metric)
                seen += 1
        # Every unit of the pipeline is one of ours.
        assert seen == sum(1 for key in units if key[1] == series)


@pytest.mark.parametrize("variant", ["mdf-preemptive-moldable", "fifo-moldable", "mdf-rigid"])
def test_adaptive_tables_agree_with_the_summary(kth_actual, variant):
    r = papers.adaptive(kth_actual, variant, seed=2)
    j, iv, s = r.jobs, r.tables["intervals"], r.summary
    assert s["requests"] == len(j["id"]) == len(kth_actual)
    for k in range(s["intervals"]):
        rows = j["interval"] == k
        acc = rows & j["accepted"]
        assert iv["requests"][k] == rows.sum()
        assert iv["accepted"][k] == acc.sum()
        assert iv["profit"][k] == sum(j["price"][acc].tolist())
        assert iv["response_sum"][k] == sum(j["response"][acc].tolist())
        assert iv["molded"][k] == (acc & j["moldable"] & j["molded"]).sum()
        assert iv["split"][k] == (acc & j["preemptive"] & j["split"]).sum()
        assert iv["busy"][k] == sum(j["proc_seconds"][acc].tolist())
    for name in ("profit", "response_sum", "busy", "modification_sum"):
        assert s[name] == sum(iv[name].tolist()), name
    for name in ("requests", "accepted", "rejected", "molded", "split", "span"):
        assert s[name] == iv[name].sum(), name
    assert s["response"] == s["response_sum"] / s["accepted"]
    # Every accepted request ends by its deadline, on at least R^min.
    acc = j["accepted"]
    assert (j["completion"][acc] <= (j["submit"] + j["deadline"])[acc]).all()
    assert np.array_equal(j["response"][acc], (j["completion"] - j["submit"])[acc])
    assert (j["price"][~acc] == 0).all() and (j["parts"][~acc] == 0).all()
    if variant.endswith("rigid"):
        assert (j["r_min"] == j["r_max"]).all() and not j["molded"].any()


def test_adaptive_is_deterministic(kth_actual):
    a = papers.adaptive(kth_actual, "mdf-preemptive-moldable", seed=4)
    same_tables(a, papers.adaptive(kth_actual, "mdf-preemptive-moldable", seed=4))
    b = papers.adaptive(kth_actual, "mdf-preemptive-moldable", seed=5)
    assert not np.array_equal(a.jobs["price_profile"], b.jobs["price_profile"])


@pytest.mark.parametrize(
    "options,named",
    [
        (dict(variant="mdf-flexible"), "variant"),
        (dict(interval_days=0), "interval_days"),
        (dict(incentive=150.0), "incentive"),
        (dict(load_increase=-100.0), "load_increase"),
        (dict(budget="soft"), "budget"),
        (dict(mdf_fallback="queue"), "mdf_fallback"),
        (dict(high_share=1.5), "high_share"),
        (dict(sp_percent=0), "sp_percent"),
        (dict(deadline_factor=0), "deadline_factor"),
        # Table 1's keys are `table1.<key>` in the kind; named as options here.
        (dict(sp_parts=0), "sp_parts"),
        (dict(max_discount=150.0), "max_discount"),
    ],
)
def test_adaptive_bad_options_are_named(kth_actual, options, named):
    with pytest.raises(usched.UschedError, match=rf"^{named}\b"):
        papers.adaptive(kth_actual, **options)


# --- provisioning ------------------------------------------------------------

PROVISIONING_OPTIONS = dict(
    clusters=[32, 16, 16],
    grid_months=[12, 12],
    warmup_days=7,
    deadline_share=0.3,
    interval_min=60.0,
    admission={"beta": 0.3, "budget_factor": 3.0},
)
PROVISIONING_SERIES = ["arcb+earliest-partial", "arebmf+earliest-ask", "areb+least-load"]
PROVISIONING_METRICS = [
    "messages",
    "violations",
    "violations_pct",
    "grid_bsld",
    "local_bsld",
    "grid_r",
    "local_r",
    "late_starts",
    "refusals",
    "rejected_pct",
    "held_pct",
    "grid_jobs",
    "local_jobs",
    "revenue",
]


def test_provisioning_equals_the_experiment(tmp_path, root, das2):
    units, resolved = experiment(
        tmp_path,
        root,
        "provisioning",
        PROVISIONING_SERIES,
        {"label": "DAS2", "trace": DAS2, "estimate": "actual"},
        PROVISIONING_OPTIONS,
        PROVISIONING_METRICS,
        seed=2008,
        repetitions=1,
    )
    given = dict(PROVISIONING_OPTIONS)
    del given["admission"]
    if resolved is not None:
        assert resolved.pop("admission") == {
            "policy": "libra+$",
            "alpha": 1.0,
            "beta": 0.3,
            "base_price": 1.0,
            "budget_factor": 3.0,
            "deadline_factor": 4.0,
        }
    assert_options_are_the_kinds(papers.provisioning, resolved, given, skip=["policy"])
    for series in PROVISIONING_SERIES:
        r = papers.provisioning(das2, series, seed=2008, **PROVISIONING_OPTIONS)
        for metric in PROVISIONING_METRICS:
            assert units[(metric, series, 0, 0)] == r.summary[metric], (series, metric)
    assert r.summary["revenue"] > 0


def test_provisioning_calendar_comes_from_the_trace_header(das2):
    # Unset (None, the default), the start is the header's UnixStartTime and
    # the year that start's, as the kind resolves them: DAS-2's header gives
    # 1041377305 (2003), so the run equals the one with the values given.
    opts = dict(clusters=[32, 16, 16], grid_months=[11, 12], seed=3)
    a = papers.provisioning(das2, "arcb+earliest-partial", **opts)
    b = papers.provisioning(
        das2, "arcb+earliest-partial", trace_start_unix=1041377305, trace_year=2003, **opts
    )
    same_tables(a, b)
    # A year given overrides the header's: 2002's months precede the trace.
    with pytest.raises(usched.UschedError, match="no grid job of"):
        papers.provisioning(das2, "arcb+earliest-partial", trace_year=2002, **opts)


def test_provisioning_tables_agree_with_the_summary(das2):
    r = papers.provisioning(
        das2, "arcb+earliest-partial", clusters=[32, 16, 16], grid_months=[11, 12],
        deadline_share=0.5, seed=3,
    )
    g, loc, s = r.jobs, r.tables["local"], r.summary
    m = g["measured"]
    ran = ~g["rejected"]
    assert s["grid_jobs"] == m.sum() > 0
    assert s["violations"] == g["violations"][m].sum()
    assert s["late_starts"] == g["late"][m].sum()
    assert s["refusals"] == g["refusals"][m].sum()
    assert s["rejected_pct"] == 100.0 * (m & g["rejected"]).sum() / m.sum()
    assert s["held_pct"] == 100.0 * (m & g["held"]).sum() / m.sum()
    assert s["grid_bsld"] == mean(g["bsld"][m & ran].tolist())
    assert s["grid_r"] == mean(g["r"][m & ~np.isnan(g["r"])].tolist())
    lm = loc["measured"]
    assert s["local_jobs"] == lm.sum()
    assert s["local_bsld"] == mean(loc["bsld"][lm].tolist())
    assert s["local_r"] == mean(loc["r"][lm].tolist())
    # Rows: a job that ran started after its submission and ran its run time.
    assert (g["start"][ran] >= g["submit"][ran]).all()
    assert np.array_equal(g["end"][ran] - g["start"][ran], g["run_time"][ran].astype(float))
    assert (loc["end"] - loc["start"] == loc["run_time"]).all()
    assert set(loc["cluster"].tolist()) == {0, 1, 2}
    # Half of the grid jobs that ran in the base run got a deadline.
    has = ~np.isnan(g["deadline"])
    assert 0.3 < has.mean() < 0.7
    assert (g["deadline"][has] >= g["submit"][has]).all()


def test_provisioning_is_deterministic_and_the_base_is_measured_against_itself(das2):
    opts = dict(clusters=[32, 16], grid_months=[12, 12], seed=9)
    a = papers.provisioning(das2, "arcb+earliest-ask", **opts)
    same_tables(a, papers.provisioning(das2, "arcb+earliest-ask", **opts))
    base = papers.provisioning(das2, "areb+least-load", **opts)
    assert base.summary["grid_r"] == 0.0 and base.summary["local_r"] == 0.0
    other = papers.provisioning(das2, "arcb+earliest-ask", **{**opts, "seed": 10})
    assert not np.array_equal(a.tables["local"]["submit"], other.tables["local"]["submit"])


@pytest.mark.parametrize(
    "options,named",
    [
        (dict(policy="arcb+nearest"), "policy"),
        (dict(base="arcb"), "base"),
        (dict(clusters=[32, 0]), "clusters"),
        (dict(procs_per_node=3), "procs_per_node"),
        (dict(local_max_job="cores"), "local_max_job"),
        (dict(grid_months=(12, 9)), "grid_months"),
        (dict(deadline_share=1.5), "deadline_share"),
        (dict(share_from="guess"), "share_from"),
        (dict(admission={"gamma": 1.0}), "admission"),
        (dict(admission={"beta": -1.0}), "admission.beta"),
        (dict(admission={"policy": "libra"}), "admission.policy"),
        # The kind's own ranges (one check, `Registry::check_params`): times
        # a run can hold, at most 500 clusters, a calendar year.
        (dict(report_every_s=2**41), "report_every_s"),
        (dict(bsld_bound=2**41), "bsld_bound"),
        (dict(warmup_days=10**8), "warmup_days"),
        (dict(training_from_days=10**8), "training_from_days"),
        (dict(interval_min=1e13), "interval_min"),
        (dict(clusters=[2] * 501), "clusters"),
        (dict(trace_year=0), "trace_year"),
        (dict(trace_utc_offset_s=2**20), "trace_utc_offset_s"),
        (dict(admission={"deadline_factor": 0.5}), "admission.deadline_factor"),
        (dict(horizon_s=0), "horizon_s"),
        (dict(reallocation_checks=20000), "reallocation_checks"),
    ],
)
def test_provisioning_bad_options_are_named(das2, options, named):
    with pytest.raises(usched.UschedError, match=rf"^{named}\b"):
        papers.provisioning(das2, **options)


@pytest.mark.parametrize(
    "options,named",
    [
        (dict(procs_per_node=1.5), "procs_per_node is 1.5: invalid type"),
        (dict(interval_min="2h"), "interval_min is '2h': invalid type"),
        (dict(clusters=[32, "a"]), "clusters is \\[32, 'a'\\]: invalid type"),
        (dict(track_allocations=1), "track_allocations is 1: invalid type"),
    ],
)
def test_provisioning_options_of_another_type_are_type_errors(das2, options, named):
    # The kind's own reading of its [params] (serde's words), as a TypeError.
    with pytest.raises(TypeError, match=rf"^{named}"):
        papers.provisioning(das2, **options)


@pytest.mark.parametrize(
    "call",
    [
        lambda w: papers.pricing(w, "libra", rating=2.5),
        lambda w: papers.pricing(w, "libra", spare=1),
        lambda w: papers.adaptive(w, sp_parts=2.5),
        lambda w: papers.adaptive(w, budget=3),
    ],
)
def test_pricing_and_adaptive_options_of_another_type_are_type_errors(das2, call):
    # Read by the kind, as provisioning's: a TypeError naming the option.
    with pytest.raises(TypeError, match=r"^(rating|spare|sp_parts|budget) is .*: invalid type"):
        call(das2)


def test_a_bad_series_name_is_named(das2):
    # Named by the front end before the kind sets the series' parameters.
    with pytest.raises(usched.UschedError, match=r"^variant: "):
        papers.adaptive(das2, "sjf-rigid")
    with pytest.raises(usched.UschedError, match=r"^policy: "):
        papers.pricing(das2, "libra+$-bx")


def test_provisioning_leaves_the_callers_options_alone(das2):
    from usched import _usched

    options = dict(clusters=[32, 16], grid_months=(11, 12))
    _usched.paper_provisioning(das2, "arcb+earliest-ask", options, seed=1, repetition=0)
    assert options == dict(clusters=[32, 16], grid_months=(11, 12))


# --- utility -----------------------------------------------------------------

UTILITY_OPTIONS = dict(users=12, jobs_per_user=6, max_ttl=2, mean_interarrival=60.0)
UTILITY_SERIES = ["pu", "bu", "mm"]
UTILITY_METRICS = [
    "success_ratio",
    "user_utility",
    "user_utility_eq3",
    "served_utility",
    "decided_utility",
    "submission_time",
    "execution_time",
    "load_balance",
    "forwards_per_job",
    "messages_per_job",
    "rejected",
    "expired",
]


def test_utility_equals_the_experiment(tmp_path, root):
    units, resolved = experiment(
        tmp_path,
        root,
        "utility",
        UTILITY_SERIES,
        {"label": "grid", "generated_by_kind": "the grid of 4.2"},
        UTILITY_OPTIONS,
        UTILITY_METRICS,
        seed=2013,
        repetitions=2,
    )
    assert_options_are_the_kinds(papers.utility, resolved, UTILITY_OPTIONS, skip=["scheduler"])
    for series in UTILITY_SERIES:
        for rep in (0, 1):
            r = papers.utility(series, seed=2013, repetition=rep, **UTILITY_OPTIONS)
            for metric in UTILITY_METRICS:
                assert units[(metric, series, rep, 0)] == r.summary[metric], (series, rep, metric)


@pytest.mark.parametrize("scheduler", ["pu", "bu", "mm"])
def test_utility_tables_agree_with_the_summary(scheduler):
    r = papers.utility(scheduler, users=20, jobs_per_user=10, max_ttl=1, seed=3)
    j, mach, s = r.jobs, r.tables["machines"], r.summary
    n = len(j["id"])
    assert n == 200
    users = sorted(set(j["user"].tolist()))
    assert s["users"] == len(users)
    done = j["status"] == "completed"
    per_user = [done[j["user"] == u].sum() / (j["user"] == u).sum() for u in users]
    assert s["success_ratio"] == mean(per_user)
    got = np.where(done, j["achieved_utility"], 0.0)
    assert s["user_utility"] == mean(sum(got[j["user"] == u].tolist()) / (j["user"] == u).sum() for u in users)
    assert s["rejected"] == (j["status"] == "no_acceptable_resource").sum()
    assert s["expired"] == (j["status"] == "ttl_expired").sum()
    assert s["forwards_per_job"] == j["forwards"].sum() / n
    assert (j["forwards"] <= 1).all()  # max_ttl
    # Rows: completed jobs ran on a resource, in order of time; failed ones nowhere.
    assert (j["resource_site"][done] >= 0).all() and (j["resource_site"][~done] == -1).all()
    assert (j["submit"][done] <= j["assigned"][done]).all()
    assert (j["assigned"][done] <= j["start"][done]).all()
    assert (j["start"][done] < j["end"][done]).all()
    assert mach["jobs"].sum() == done.sum()
    assert len(mach["site"]) == 4 * 20
    # A job assigned at its own site went to a resource of positive utility
    # (under mm: one that meets every requirement). A forwarded job is
    # assigned to its target if it still has room (AvailableRes), whatever
    # its utility there once the delay has passed.
    assert (j["decided_utility"][done & (j["forwards"] == 0)] > 0).all()


def test_utility_is_deterministic_and_every_scheduler_sees_the_same_grid():
    a = papers.utility("pu", users=10, jobs_per_user=5, seed=8)
    same_tables(a, papers.utility("pu", users=10, jobs_per_user=5, seed=8))
    b = papers.utility("mm", users=10, jobs_per_user=5, seed=8)
    for col in ("id", "user", "site", "submit"):
        assert np.array_equal(a.jobs[col], b.jobs[col])
    assert np.array_equal(a.tables["machines"]["cores"], b.tables["machines"]["cores"])
    c = papers.utility("pu", users=10, jobs_per_user=5, seed=9)
    assert not np.array_equal(a.jobs["submit"], c.jobs["submit"])


@pytest.mark.parametrize(
    "options,named",
    [
        (dict(scheduler="best"), "scheduler"),
        (dict(max_ttl=99), "max_ttl"),
        (dict(tie_break="random"), "tie_break"),
        (dict(load_trigger="below"), "load_trigger"),
        (dict(sites=0), "sites"),
        (dict(delays=[[0, 1], [1, 0]]), "delays"),
        (dict(l_max=-0.5), "l_max"),
        (dict(length=(5, 1)), "length"),
    ],
)
def test_utility_bad_options_are_named(options, named):
    with pytest.raises(usched.UschedError, match=rf"^{named}\b"):
        papers.utility(**options)
