"""Every Python block of docs/PYTHON.md runs (the README's too)."""

import os
import pathlib
import re

import pytest


def blocks(path):
    text = pathlib.Path(path).read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def docs(root):
    return [
        (name, i, code)
        for name in ("docs/PYTHON.md", "README.md")
        for i, code in enumerate(blocks(os.path.join(root, name)))
    ]


ROOT = os.environ.get(
    "USCHED_ROOT", str(pathlib.Path(__file__).resolve().parent.parent.parent.parent)
)


@pytest.mark.parametrize("name,index,code", docs(ROOT))
def test_the_documents_python_runs(name, index, code, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)  # traces by name resolve through the repository
    exec(compile(code, f"{name}[{index}]", "exec"), {"__name__": "__doc__"})
