"""Without the compiled kernel (no C compiler at install, or SNAKECUBE_PUREPYTHON=1) every
command still answers, on the pure-Python engine, with the same answers."""

from __future__ import annotations

import json

import pytest

from conftest import spawn
from snakecube.search import kernel


@pytest.mark.slow
def test_without_the_kernel_everything_still_answers():
    pure = {"SNAKECUBE_PUREPYTHON": "1"}
    proc = spawn("solve", "seed-blue", "--json", env=pure)
    out, err = proc.communicate(timeout=120)
    data = json.loads(out)
    assert proc.returncode == 0 and err == ""
    assert (data["placements"], data["distinct"], data["engine"]) == (576, 12, "reference")
    proc = spawn("solve", "king", "--first", "--json", env=pure)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and json.loads(out)["distinct"] == 1
    assert err.count("\n") == 1 and "warning" in err and "compiled kernel is not built" in err
    proc = spawn("designs", "--box", "2x2x3", "--json", env=pure)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and json.loads(out)["designs"] == 17
    proc = spawn("rate", "standard", "--json", env=pure)
    out, _ = proc.communicate(timeout=120)
    pure_score = json.loads(out)["difficulty"]
    proc = spawn("solve", "standard", "--engine", "kernel", env=pure)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "not built" in err
    if kernel.AVAILABLE:
        from snakecube.designs import rate

        assert round(rate("standard").difficulty, 2) == pure_score
