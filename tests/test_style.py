"""The layers' rules that a linter cannot see. ruff and mypy themselves run as their own step of
CI (.ci/run, and the README's line for them), not inside the suite."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
