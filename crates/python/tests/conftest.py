"""Shared fixtures: the repository root, its committed traces, and a small
generated workload (``GEN``) loaded both ways.

The tests read the committed logs in ``traces/`` (no network): they run
from the repository (``USCHED_ROOT`` or the current directory's ancestors).
"""

import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
DATA = HERE / "data"


@pytest.fixture(scope="session")
def root() -> str:
    return os.environ.get("USCHED_ROOT", str(ROOT))


@pytest.fixture(scope="session")
def sdsc(root):
    import usched

    return usched.load("SDSC-SP2-1998-4.2-cln", root=root)


@pytest.fixture(scope="session")
def kth(root):
    import usched

    return usched.load("KTH-SP2-1996-2.1-cln", root=root)


# A small generated workload: no trace needed, and quick to simulate.
GEN = "lublin99:procs=64,jobs=300,seed=2,estimates=f:3"


@pytest.fixture(scope="session")
def small():
    import usched

    return usched.load(GEN)


@pytest.fixture(scope="session")
def actual():
    import usched

    return usched.load(GEN, estimate="actual")
