"""The code is ruff- and mypy-clean (the dev extra installs both, beside the interpreter that
runs the tests, so they are found there even when the environment is not activated)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = str(Path(sys.executable).parent)


def _tool(name: str) -> str | None:
    return shutil.which(name, path=BIN) or shutil.which(name)


@pytest.mark.skipif(_tool("ruff") is None, reason="ruff is not installed (pip install -e '.[dev]')")
def test_ruff_clean():
    ruff = _tool("ruff")
    for args in (["check"], ["format", "--check"]):
        proc = subprocess.run([ruff, *args, "src", "tests", "benchmarks"], cwd=ROOT,
                              capture_output=True, text=True)  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(_tool("mypy") is None, reason="mypy is not installed (pip install -e '.[dev]')")
def test_mypy_clean():
    proc = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_core_does_not_import_plotting_or_cli():
    code = (
        "import sys, snakecube; snakecube.solve('standard'); "
        "bad = [m for m in ('matplotlib', 'plotly', 'snakecube.cli', 'numba') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_tests_need_nothing_outside_the_repository():
    import corpus

    assert corpus.KNOWN_PATH.is_relative_to(ROOT) and corpus.KNOWN_PATH.exists()
    outside = re.compile(r"parents\[2\]|\.\./shared|\"shared\" /")
    for path in ROOT.joinpath("tests").glob("*.py"):
        if path.name != Path(__file__).name:
            assert not outside.search(path.read_text()), path.name
