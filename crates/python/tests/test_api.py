"""The Python API: workloads, simulations, schedules, errors, experiments."""

import os
import shutil
import subprocess

import numpy as np
import pytest

import usched

LUBLIN = "lublin99:procs=128,jobs=3000,seed=5,load=0.8,estimates=f:3"


def test_a_trace_by_name_path_or_generator(root, kth, tmp_path):
    assert len(kth) == 28475
    assert kth.capacity == 100
    assert kth.sha256 == "fba36494c4e4257f72182e8b629ebb0bcb054b3b82851ef957445bd627adcc87"
    cols = usched.jobs(kth)
    assert set(cols) == {"id", "submit", "procs", "run_time", "estimate"}
    assert all(len(v) == len(kth) for v in cols.values())
    assert cols["submit"].dtype == np.int64
    # The same log by path.
    path = os.path.join(root, "traces", "KTH-SP2-1996-2.1-cln.swf.gz")
    by_path = usched.load(path)
    assert by_path.sha256 == kth.sha256
    assert np.array_equal(usched.jobs(by_path)["run_time"], cols["run_time"])
    gen = usched.load(LUBLIN)
    assert len(gen) == 3000 and gen.capacity == 128


def test_columns_make_a_dataframe(kth):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(usched.columns(usched.simulate(kth, "easy")))
    assert len(df) == len(kth)
    assert (df["end"] >= df["start"]).all()
    assert (df["wait"] == df["start"] - df["submit"]).all()
    assert (df["bsld"] >= 1).all()


def test_bad_input_names_the_file_line_and_field(tmp_path):
    bad = tmp_path / "bad.swf"
    bad.write_text("; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n2 x 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n")
    with pytest.raises(usched.UschedError) as e:
        usched.load(str(bad))
    text = str(e.value)
    assert "bad.swf:3" in text and "field 2" in text, text
    with pytest.raises(usched.UschedError, match="expected requested, actual"):
        usched.load(str(bad), estimate="exact")
    with pytest.raises(usched.UschedError):
        usched.simulate(usched.load(LUBLIN), "easiest")
    with pytest.raises(usched.UschedError, match="expected kill or continue"):
        usched.simulate(usched.load(LUBLIN), "easy", overrun="stop")
    good = tmp_path / "good.swf"
    good.write_text("; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n")
    with pytest.raises(ValueError, match=r"^procs is 0, expected 1 to 10000000$"):
        usched.load(str(good), procs=0)
    # A generated workload past the per-process cap is refused before any
    # work (it was generated, for hours), naming the cap and its variable.
    with pytest.raises(usched.UschedError, match=r"jobs is 1000000000000, above the cap of 2500000"):
        usched.load("lublin99:procs=16,jobs=1000000000000")
    with pytest.raises(usched.UschedError, match=r"procs is '4294967295', expected a whole number of processors from 1 to 10000000"):
        usched.load("lublin99:procs=4294967295,jobs=10")


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_results_equal_the_command_lines(root, policy):
    """`usched.simulate` prints what `cargo xtask simulate` prints."""
    cli = os.environ.get("USCHED_CLI") or shutil.which("usched-xtask")
    if not cli:
        candidate = os.path.join(root, "target", "debug", "xtask")
        cli = candidate if os.path.exists(candidate) else None
    if not cli:
        if os.environ.get("REQUIRE_CLI"):
            pytest.fail("the command line is required (REQUIRE_CLI) but was not found")
        pytest.skip("the command line binary is not built (cargo build -p xtask)")
    out = subprocess.run(
        [cli, "--root", root, "simulate", "--trace", "KTH-SP2-1996-2.1-cln", "--policy", policy],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    s = usched.simulate(usched.load("KTH-SP2-1996-2.1-cln", root=root), policy).stats()
    assert f"mean wait              {s['mean_wait']:.1f} s" in out
    assert f"mean bounded slowdown  {s['mean_bsld']:.2f} (10 s bound)" in out
    assert f"utilisation            {100 * s['utilization']:.1f} %" in out
    assert f"killed at estimate     {s['killed']}" in out


def test_every_knob_reaches_the_simulation():
    w = usched.load(LUBLIN)
    base = usched.simulate(w, "easy").stats()
    sjf = usched.simulate(w, "easy", order="shortest-estimate").stats()
    cont = usched.simulate(w, "easy", overrun="continue").stats()
    assert sjf["mean_wait"] != base["mean_wait"]
    assert cont["killed"] == 0
    assert usched.simulate(usched.load(LUBLIN, estimate="actual"), "easy").stats()["killed"] == 0


def easy(sim: usched.Stepper) -> None:
    """EASY through the stepping API: start what fits now in queue order;
    the first job that does not fit holds a reservation while the others
    are tried, then gives it back."""
    now, head, k = sim.now, None, 0
    while True:
        w = sim.waiting(k)
        if w is None:
            break
        if sim.earliest_start(w[3], w[4]) == now:
            sim.start(k)
            continue
        if head is None:
            sim.reserve_earliest(k)
            head = k
        k += 1
    if head is not None:
        sim.unreserve(head)


def test_a_python_scheduler_reproduces_easy():
    w = usched.load(LUBLIN)
    mine = usched.simulate_with(w, easy)
    theirs = usched.simulate(w, "easy")
    assert mine.policy == "python"
    a, b = usched.columns(mine), usched.columns(theirs)
    for name in ("start", "end", "status"):
        assert np.array_equal(a[name], b[name]), name


def test_an_invalid_python_schedule_is_refused():
    w = usched.load("lublin99:procs=8,jobs=50,seed=2")

    def reckless(sim):
        # Starts the head even when it does not fit: the core refuses.
        if sim.queue_len:
            sim.start(0)

    with pytest.raises(usched.UschedError, match="room|fit|processors"):
        usched.simulate_with(w, reckless)


def test_schedules_are_written_as_swf_and_jobs_csv(tmp_path):
    s = usched.simulate(usched.load(LUBLIN), "easy")
    swf, csv = tmp_path / "s.swf", tmp_path / "jobs.csv"
    s.write_swf(str(swf))
    s.write_jobs_csv(str(csv))
    back = usched.load(str(swf))
    assert len(back) == len(s)
    header = csv.read_text().splitlines()[0]
    assert header.startswith("job_id,")
    assert len(csv.read_text().splitlines()) == len(s) + 1


def test_an_experiment_from_toml_returns_its_tables(root):
    e = usched.reproduce("baseline/backfilling", root=root)
    assert e.id == "baseline/backfilling"
    assert set(e.data) == {"panel", "series", "x", "y", "ci_lo", "ci_hi", "runs"}
    assert "easy" in e.data["series"]
    assert e.summary.startswith("# baseline/backfilling")
    assert e.figure.startswith("<svg")
    # The same bytes the command line writes (golden list).
    import hashlib

    golden = open(os.path.join(root, ".ci", "golden.sha256")).read()
    digest = hashlib.sha256(e.files["data.csv"].encode()).hexdigest()
    assert f"{digest}  baseline/backfilling/data.csv" in golden


def test_unknown_ids_and_bad_configs_are_errors(root, tmp_path):
    with pytest.raises(usched.UschedError, match="unknown experiment"):
        usched.reproduce("nope/fig9", root=root)
    bad = tmp_path / "bad.toml"
    bad.write_text('version = 2\nid = "study/x"\ntitle = "x"\nkind = "backfilling"\nseed = 1\nrepetitions = 0\n')
    with pytest.raises(usched.UschedError):
        usched.run(str(bad), root=root)
    # Valid when read, but the transform leaves no jobs: the error names the
    # file, line and column of the transforms.
    empty = tmp_path / "empty.toml"
    empty.write_text(
        'version = 2\nid = "study/y"\ntitle = "y"\nkind = "backfilling"\nseed = 1\n'
        'series = ["fcfs"]\n[[workloads]]\nlabel = "g"\n'
        "lublin99 = { procs = 8, jobs = 20 }\n"
        "transforms = [{ drop_shorter_than = 1000000000 }]\n"
        '[sweep]\naxis = "workload"\nlabel = "w"\n[[panels]]\nid = "p"\nmetric = "mean_wait"\n'
    )
    with pytest.raises(usched.UschedError, match=r"empty\.toml:10:14: .*no jobs left"):
        usched.run(str(empty), root=root)


def test_the_default_environment_needs_no_repository_and_no_network(tmp_path):
    """Outside any checkout, with an empty cache and an unreachable
    mirror, the default workload (the log the package carries) loads."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("USCHED_ROOT", "TRACES_DIR", "TRACES_CACHE", "TRACES_MIRROR")
    }
    env["TRACES_CACHE"] = str(tmp_path / "cache")
    env["TRACES_MIRROR"] = f"file://{tmp_path}/no-mirror"
    code = (
        "import usched, gymnasium\n"
        "e = gymnasium.make('usched/BatchScheduling-v0')\n"
        "obs, info = e.reset(seed=0)\n"
        "print(obs.shape, len(usched.load('SDSC-SP2-1998-4.2-cln')))\n"
    )
    import sys

    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(1024,) 54044", out.stdout  # replayable jobs
    assert "download" not in out.stderr


def test_a_schedule_replaces_only_what_the_tool_wrote(tmp_path):
    s = usched.simulate(usched.load(LUBLIN), "easy")
    swf, csv = tmp_path / "s.swf", tmp_path / "jobs.csv"
    # A file of one's own under either name is kept, and the error says how to replace it.
    for path, write in [(swf, s.write_swf), (csv, s.write_jobs_csv)]:
        path.write_text("mine\n")
        with pytest.raises(usched.UschedError, match=r"exists .*pass force=True"):
            write(path)
        assert path.read_text() == "mine\n"
        write(path, force=True)
        assert path.read_text() != "mine\n"
    # A schedule the tool wrote is replaced without force; jobs.csv carries
    # no mark of the tool, so it needs force again.
    s.write_swf(swf)
    with pytest.raises(usched.UschedError, match="force=True"):
        s.write_jobs_csv(csv)
