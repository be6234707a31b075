"""AccaSim and this project's `xtask simulate`, whole process, side by side
(docs/PERFORMANCE.md gives the setup, the results and the differences).

For each trace: converts it to the SWF AccaSim 1.1.3 accepts, writes the
system file AccaSim needs, then runs both simulators on that same converted
file, FCFS and EASY, alternating them, `--runs` times each, every run a fresh
process under ``/usr/bin/time -v``. Prints one Markdown table of medians
(wall, CPU user+sys, peak RSS) and, as a sanity check, each simulator's mean
wait and mean bounded slowdown, then compares the two schedules job by job.

What the preparation does (each step is needed for AccaSim to run at all,
or to give both simulators the same jobs):

- a virtual environment (``--venv``, created if absent) with ``accasim``
  from PyPI (``--accasim-version``, default 1.1.3);
- on Python 3.10 and newer, ``from collections import Mapping`` in the
  installed ``accasim/utils/misc.py`` is rewritten to ``from
  collections.abc import Mapping`` (the copy in the venv only, every time:
  the rewrite is idempotent);
- the trace, converted: records without a positive size, with a negative
  submit or run time, or wider than the machine are dropped; the size
  (field 5 if positive, else field 8, as `xtask simulate` reads it) is
  written to both fields 5 and 8; the requested time (field 9) is kept if
  positive, else the run time stands in (as `xtask simulate` does); the run
  time is cut to the requested time (this project kills a job at its
  estimate, AccaSim lets it run on; with the cut neither happens); a run
  time of 0 becomes 1 s (AccaSim keeps a zero-length job's processors busy
  past its end, delaying the jobs behind it); memory fields 7 and 10
  become -1 (AccaSim would turn them into a memory request,
  and a zero one divides by zero); header lines are kept (MaxProcs gives
  `xtask simulate` the machine size);
- a system file with one resource, ``core``: MaxProcs nodes of one core.

Usage (from the repository root, after ``cargo build --release -p xtask``):

    python3 crates/python/bench/accasim_side_by_side.py \\
        --xtask target/release/xtask --runs 3 \\
        traces/KTH-SP2-1996-2.1-cln.swf.gz traces/SDSC-SP2-1998-4.2-cln.swf.gz

Standard library only (any python3 >= 3.9); AccaSim runs in the venv.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Tuple

POLICIES = ("fcfs", "easy")
BOUND = 10  # seconds: the bounded slowdown's threshold, as `xtask simulate`'s


# --- preparation ----------------------------------------------------------------------------


def venv_python(venv: str, version: str) -> str:
    """The venv's python, the venv made and AccaSim installed if needed."""
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    have = subprocess.run(
        [py, "-c", "import importlib.metadata as m; print(m.version('accasim'))"],
        capture_output=True,
        text=True,
    )
    if have.returncode != 0 or have.stdout.strip() != version:
        subprocess.run([py, "-m", "pip", "install", "-q", f"accasim=={version}"], check=True)
    return py


def patch_accasim(py: str) -> str:
    """Rewrites ``from collections import Mapping`` in the installed copy;
    returns the package directory."""
    pkg = subprocess.run(
        [py, "-c", "import importlib.util as u; print(u.find_spec('accasim').submodule_search_locations[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for root, _, files in os.walk(pkg):
        for f in files:
            if not f.endswith(".py"):
                continue
            p = os.path.join(root, f)
            with open(p, encoding="utf-8") as fh:
                src = fh.read()
            new = re.sub(r"^from collections import Mapping$", "from collections.abc import Mapping", src, flags=re.M)
            if new != src:
                with open(p, "w", encoding="utf-8") as fh:
                    fh.write(new)
    return pkg


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def convert(src: str, dst: str) -> Tuple[int, int, int, int, int]:
    """Writes the converted trace; returns (machine size, jobs kept, records
    dropped, run times cut to the request, zero run times made 1 s)."""
    opener = gzip.open if src.endswith(".gz") else open
    header: List[str] = []
    rows: List[List[int]] = []
    max_procs = max_nodes = None
    with opener(src, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith(";"):
                header.append(s)
                m = re.match(r";\s*Max(Procs|Nodes):\s*(-?\d+)", s)
                if m and m.group(1) == "Procs":
                    max_procs = int(m.group(2))
                elif m:
                    max_nodes = int(m.group(2))
                continue
            rows.append([int(float(x)) for x in s.split()[:18]])
    size = next((n for n in (max_procs, max_nodes) if n and n > 0), None)
    if size is None:
        raise SystemExit(f"{src}: no MaxProcs or MaxNodes in the header")
    kept, dropped, cut, zero = [], 0, 0, 0
    for r in rows:
        procs = r[4] if r[4] >= 1 else r[7]
        if procs < 1 or r[1] < 0 or r[3] < 0 or procs > size:
            dropped += 1
            continue
        est = r[8] if r[8] >= 1 else r[3]
        est = max(est, 1)
        run = r[3]
        if run > est:
            run, cut = est, cut + 1
        if run == 0:
            run, zero = 1, zero + 1
        r = list(r)
        r[3], r[4], r[7], r[8] = run, procs, procs, est
        r[6] = r[9] = -1
        r[5] = -1
        kept.append(r)
    with open(dst, "w", encoding="utf-8") as f:
        for h in header:
            f.write(h + "\n")
        f.write("; Converted by crates/python/bench/accasim_side_by_side.py (docs/PERFORMANCE.md)\n")
        for r in kept:
            f.write(" ".join(str(v) for v in r) + "\n")
    return size, len(kept), dropped, cut, zero


def system_file(path: str, name: str, procs: int) -> None:
    """AccaSim's system configuration: `procs` nodes of one core, no memory."""
    config = {
        "system_name": name,
        "start_time": 0,
        "equivalence": {"processor": {"core": 1}},
        "groups": {"sp": {"core": 1}},
        "resources": {"sp": procs},
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


# --- AccaSim's side (runs inside the venv) ------------------------------------------------


def accasim_run(swf: str, system: str, policy: str, out: str, waits: str) -> None:
    """One AccaSim simulation; prints `jobs mean_wait mean_bounded_slowdown`
    (slowdown bounded at BOUND s, as `xtask simulate` reports it) and, if
    `waits` is not "-", writes `id wait` per job to that file."""
    from accasim.base.allocator_class import FirstFit
    from accasim.base.scheduler_class import EASYBackfilling, FirstInFirstOut
    from accasim.base.simulator_class import Simulator

    allocator = FirstFit()
    dispatcher = EASYBackfilling(allocator) if policy == "easy" else FirstInFirstOut(allocator)
    sim = Simulator(
        swf,
        system,
        dispatcher,
        RESULTS_FOLDER_PATH=out,
        scheduling_output=False,
        pprint_output=False,
        statistics_output=False,
        show_statistics=False,
    )
    done: List[Tuple[str, int, int]] = []
    finish = sim.mapper.finish_event

    def finish_and_record(e):  # type: ignore[no-untyped-def]
        finish(e)
        done.append((e.id, e.waiting_time, e.running_time))

    sim.mapper.finish_event = finish_and_record
    sim.start_simulation()
    n = len(done)
    wait = sum(w for _, w, _ in done) / n
    bsld = sum(max((w + r) / max(r, BOUND), 1.0) for _, w, r in done) / n
    print(f"{n} {wait:.6f} {bsld:.6f}")
    if waits != "-":
        with open(waits, "w", encoding="utf-8") as f:
            for i, w, _ in done:
                f.write(f"{i} {w}\n")


# --- measurement ----------------------------------------------------------------------------


def measure(cmd: List[str]) -> Tuple[Dict[str, float], str]:
    """One fresh process under /usr/bin/time -v: wall (s), CPU user+sys (s)
    and peak RSS (MB, time's "Maximum resident set size"), and its stdout.
    The CPU time is the children's rusage before and after (microseconds;
    time -v prints hundredths), the same accounting time -v reports."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tv:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-v", "-o", tv.name] + cmd, capture_output=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr.decode()[-2000:]}")
        text = tv.read()
    m = re.search(r"^\s*Maximum resident set size \(kbytes\): (\d+)$", text, re.M)
    if not m:
        raise SystemExit("no 'Maximum resident set size' in /usr/bin/time -v's output")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss": int(m.group(1)) / 1024.0}, p.stdout.decode()


def ours_stats(out: str) -> Tuple[int, float, float]:
    """(jobs, mean wait, mean bounded slowdown) from `xtask simulate`'s report."""

    def value(pattern: str) -> str:
        m = re.search(pattern, out, re.M)
        if not m:
            raise SystemExit(f"no match for {pattern!r} in xtask simulate's output:\n{out}")
        return m.group(1)

    return (
        int(value(r"^jobs simulated\s+(\d+)")),
        float(value(r"^mean wait\s+([\d.]+) s")),
        float(value(r"^mean bounded slowdown\s+([\d.]+)")),
    )


def swf_waits(path: str) -> Dict[str, int]:
    """Job id -> wait (field 3) of an SWF schedule."""
    waits = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(";") or not line.strip():
                continue
            x = line.split()
            waits[x[0]] = int(x[2])
    return waits


def compare(xtask: str, py: str, me: str, swf: str, system: str, policy: str, out: str) -> str:
    """Job by job, one untimed run of each: how many jobs wait exactly as
    long in both schedules, and the mean absolute difference."""
    ours_file = os.path.join(out, "ours.swf")
    theirs_file = os.path.join(out, "accasim.waits")
    for f in (ours_file, theirs_file):
        if os.path.exists(f):
            os.remove(f)
    subprocess.run([xtask, "-q", "simulate", "--trace", swf, "--policy", policy, "--schedule-out", ours_file],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([py, me, "--accasim-run", swf, system, policy, out, theirs_file], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ours = swf_waits(ours_file)
    theirs = {}
    with open(theirs_file, encoding="utf-8") as f:
        for line in f:
            i, w = line.split()
            theirs[i] = int(w)
    common = ours.keys() & theirs.keys()
    same = sum(ours[i] == theirs[i] for i in common)
    diff = sum(abs(ours[i] - theirs[i]) for i in common) / max(len(common), 1)
    return f"{same:,} of {len(common):,} jobs wait the same; mean |difference| {diff:,.0f} s"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("traces", nargs="*", help="SWF traces (.swf or .swf.gz)")
    p.add_argument("--xtask", default="target/release/xtask", help="a release build of xtask")
    p.add_argument("--venv", default="/tmp/accasim-venv", help="AccaSim's venv (made if absent)")
    p.add_argument("--accasim-version", default="1.1.3")
    p.add_argument("--work", default="/tmp/accasim-side-by-side", help="converted traces and outputs")
    p.add_argument("--runs", type=int, default=5, help="fresh processes per cell (medians)")
    p.add_argument("--policies", default="fcfs,easy")
    p.add_argument("--no-compare", action="store_true", help="skip the job-by-job comparison")
    p.add_argument("--accasim-run", nargs=5, metavar=("SWF", "SYSTEM", "POLICY", "OUT", "WAITS"),
                   help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.accasim_run:
        accasim_run(*args.accasim_run)
        return
    if not args.traces:
        p.error("give at least one trace")
    policies = [x for x in args.policies.split(",") if x]
    for x in policies:
        if x not in POLICIES:
            p.error(f"unknown policy {x} (fcfs, easy)")
    os.makedirs(args.work, exist_ok=True)
    py = venv_python(args.venv, args.accasim_version)
    patch_accasim(py)
    xtask = os.path.abspath(args.xtask)
    me = os.path.abspath(__file__)
    print(f"host: {os.cpu_count()} CPUs; load before: {os.getloadavg()[0]:.2f} (1-min)", flush=True)
    rows: List[str] = []
    notes: List[str] = []
    for trace in args.traces:
        name = os.path.basename(trace).removesuffix(".gz").removesuffix(".swf")
        swf = os.path.join(args.work, f"{name}.accasim.swf")
        procs, kept, dropped, cut, zero = convert(trace, swf)
        system = os.path.join(args.work, f"{name}.system.json")
        system_file(system, name, procs)
        print(
            f"{name}: sha256 {sha256(trace)}; converted {swf} sha256 {sha256(swf)}; "
            f"{procs} processors, {kept} jobs ({dropped} records dropped, {cut} run times cut to the request, "
            f"{zero} zero run times made 1 s)",
            flush=True,
        )
        for policy in policies:
            out = os.path.join(args.work, f"{name}.{policy}.out")
            os.makedirs(out, exist_ok=True)
            ours_cmd = [xtask, "-q", "simulate", "--trace", swf, "--policy", policy]
            theirs_cmd = [py, me, "--accasim-run", swf, system, policy, out, "-"]
            m: Dict[str, List[Dict[str, float]]] = {"ours": [], "accasim": []}
            ours_out = theirs_out = ""
            for _ in range(args.runs):
                r, ours_out = measure(ours_cmd)
                m["ours"].append(r)
                r, theirs_out = measure(theirs_cmd)
                m["accasim"].append(r)
            oj, ow, ob = ours_stats(ours_out)
            aj, aw, ab = theirs_out.split()[-3:]
            med = {k: {f: statistics.median(x[f] for x in v) for f in ("wall", "cpu", "rss")} for k, v in m.items()}
            o, a = med["ours"], med["accasim"]
            rows.append(
                f"| {name} | {policy} | {kept:,} | {o['wall']:.3f} | {o['cpu']:.3f} | {o['rss']:.0f} "
                f"| {a['wall']:.2f} | {a['cpu']:.2f} | {a['rss']:.0f} "
                f"| {a['wall'] / o['wall']:,.0f}x | {a['cpu'] / o['cpu']:,.0f}x "
                f"| {ow:,.0f} / {float(aw):,.0f} | {ob:,.2f} / {float(ab):,.2f} |"
            )
            print(rows[-1], f"(jobs: ours {oj}, AccaSim {aj})", flush=True)
            if not args.no_compare:
                notes.append(f"- {name}, {policy}: " + compare(xtask, py, me, swf, system, policy, out))
                print(notes[-1], flush=True)
    print(f"load after: {os.getloadavg()[0]:.2f} (1-min)\n")
    print(
        "| trace | policy | jobs | ours wall s | ours CPU s | ours peak MB | AccaSim wall s | AccaSim CPU s "
        f"| AccaSim peak MB | wall ratio | CPU ratio | mean wait s (ours / AccaSim) "
        f"| mean bounded slowdown, {BOUND} s (ours / AccaSim) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        print(r)
    if notes:
        print("\nJob by job (one more run of each, untimed):\n")
        print("\n".join(notes))


if __name__ == "__main__":
    main()
