"""The type stubs match the extension module, and the package type-checks."""

import pathlib
import subprocess
import sys

import pytest

import usched

PACKAGE = pathlib.Path(usched.__file__).resolve().parent


def test_stubs_match_the_extension_module():
    pytest.importorskip("mypy")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "usched._usched"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_package_type_checks_strictly():
    pytest.importorskip("mypy")
    assert (PACKAGE / "py.typed").exists()
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "-p", "usched"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
