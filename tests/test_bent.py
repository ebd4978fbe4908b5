"""Bent snakes and corners on alternate cubes: the table of docs/bent-snakes.md re-checked by
code that shares nothing with what made it, and the limits on the biggest bent snake the tool
accepts (729 cubes in 9x9x9).

The table's rows: each "yes" path is checked by ``snakecube.verify`` (plain coordinates and
segment lengths); each "no" of a small box by the brute force of tests/bruteforce.py or the
exhaustive kernel. The limits: ``--seconds 5`` ends the whole command within 6 s with under
500 MB, and Ctrl-C ends it within a second, whatever it is doing.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import snakecube as sc
from bruteforce import box_cells, hamiltonian_paths, lengths_of
from conftest import HANG, spawn, wait_ready
from snakecube.verify import violations

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data" / "bent-snakes.json"
PAGE = ROOT / "docs" / "bent-snakes.md"
KINDS = ("bent", "odd", "even")


def snake_lengths(kind: str, n: int) -> tuple[int, ...] | None:
    """The row's snake, written out here from its definition (not from benchmarks/bent.py)."""
    if kind == "bent":
        corners = list(range(1, n - 1))
    else:  # corners on the 1-based cubes 3, 5, 7, ... (odd) or 2, 4, 6, ... (even)
        corners = [i for i in range(1, n - 1) if i % 2 == (0 if kind == "odd" else 1)]
    if n < 3 or not corners:
        return None
    points = [0, *corners, n - 1]
    return tuple(b - a + 1 for a, b in itertools.pairwise(points))


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return json.loads(DATA.read_text())["boxes"]


def test_every_box_up_to_7_is_answered_and_the_page_says_the_same(rows):
    want = [(a, b, c) for a in range(1, 8) for b in range(a, 8) for c in range(b, 8)]
    assert [tuple(r["box"]) for r in rows] == [d for d in want if d[0] * d[1] * d[2] >= 3]
    page = PAGE.read_text()
    for r in rows:
        name = "x".join(map(str, r["box"]))
        line = next(x for x in page.splitlines() if x.startswith(f"| {name} |"))
        words = re.findall(r"\*\*yes\*\*|\bno\b|—", line)
        said = [None if w == "—" else w != "no" for w in words]
        assert said == [None if r[k] is None else r[k]["folds"] for k in KINDS], line
        for k in KINDS:
            assert (r[k] is None) == (snake_lengths(k, r["cubes"]) is None), (name, k)


def test_a_sample_of_the_paths_are_folds(rows):
    folds = [(r, k) for r in rows for k in KINDS if r[k] is not None and r[k]["folds"]]
    rng = random.Random(50)
    sample = [*rng.sample(folds, min(12, len(folds))), folds[-1]]  # and the biggest box
    for r, k in sample:
        a, b, c = r["box"]
        lengths = snake_lengths(k, r["cubes"])
        assert lengths is not None
        path = [tuple(p) for p in r[k]["path"]]
        assert violations(lengths, box_cells(a, b, c), path) == [], (r["box"], k)


def test_a_sample_of_the_noes_are_right(rows):
    """Small boxes by brute force (every Hamiltonian path), the others of up to 36 cells by
    the exhaustive kernel (depth first, no SAT)."""
    noes = [(r, k) for r in rows for k in KINDS if r[k] is not None and not r[k]["folds"]]
    assert noes
    brute = [(r, k) for r, k in noes if r["cubes"] <= 16]
    for r, k in brute:
        lengths = snake_lengths(k, r["cubes"])
        paths = hamiltonian_paths(box_cells(*r["box"]))
        assert all(lengths_of(p) != lengths for p in paths), (r["box"], k)
    rng = random.Random(5)
    middle = [(r, k) for r, k in noes if 16 < r["cubes"] <= 36]
    for r, k in rng.sample(middle, min(6, len(middle))):
        snake = sc.Snake(snake_lengths(k, r["cubes"]))
        result = sc.solve(snake, sc.Box(*r["box"]), strategy="depth-first", workers=1)
        assert result.complete and result.distinct == 0, (r["box"], k)


# -- the biggest bent snake: 729 cubes in 9x9x9 ---------------------------------------------

BENT_729 = "lengths:" + ",".join(["2"] * 728)


def _needs(mode: list[str]) -> None:
    """The restarts are compiled (not under SNAKECUBE_PUREPYTHON=1): skip a mode that asks them."""
    from snakecube.search.first import restarts

    if "restarts" in mode and not restarts.AVAILABLE:
        pytest.skip("the compiled restarts are not built")


def _peak_run(*args: str) -> tuple[int, str, float, int]:
    """Run the tool under a fresh parent that reports its descendants' peak memory: (exit code,
    stdout, seconds, the largest process's peak resident set in bytes)."""
    watcher = (
        "import resource, subprocess, sys, time\n"
        "t = time.monotonic()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "dt = time.monotonic() - t\n"
        "kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(p.returncode, dt, kb)\n"
        "sys.stdout.write(p.stdout)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", watcher, sys.executable, "-m", "snakecube", *args],
        capture_output=True,
        text=True,
        timeout=HANG,
    ).stdout
    head, _, body = out.partition("\n")
    code, seconds, kb = head.split()
    return int(code), body, float(seconds), int(kb) * 1024


@pytest.mark.slow
@pytest.mark.parametrize("mode", [["--first"], [], ["--first", "--strategy", "restarts"]])
def test_seconds_5_ends_the_729_cube_bent_snake_within_6_seconds(mode):
    _needs(mode)
    code, out, seconds, peak = _peak_run(
        "solve", BENT_729, "--box", "9x9x9", "--seconds", "5", "--json", "--quiet", *mode
    )
    assert code == 0, out
    assert seconds < 6, seconds
    assert peak < 500 << 20, peak
    data = json.loads(out)
    if data["solutions"]:  # the edge model's path (auto, with python-sat): a fold
        lengths = [2] * 728
        assert violations(lengths, box_cells(9, 9, 9), data["solutions"][0]["cells"]) == []
    else:
        assert data["complete"] is False and data["stop_reason"] == "seconds"


@pytest.mark.slow
@pytest.mark.parametrize("mode", [[], ["--first", "--strategy", "restarts"], ["--workers", "1"]])
def test_ctrl_c_ends_the_729_cube_bent_snake_within_a_second(mode, tmp_path):
    """Signalled as soon as the tool is working (the ready file), then a second later: each
    time it exits 130 within a second, keeping the answer one JSON document."""
    _needs(mode)
    for after in (0.0, 1.0):
        ready = tmp_path / f"ready-{after}"
        proc = spawn(
            "solve",
            BENT_729,
            "--box",
            "9x9x9",
            "--json",
            "--quiet",
            *mode,
            ready=ready,
            env={"PYTHONUNBUFFERED": "1"},
        )
        wait_ready(ready, proc)
        time.sleep(after)
        signalled = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=HANG)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        took = time.monotonic() - signalled
        assert proc.returncode == 130, (proc.returncode, err[-500:])
        assert "Traceback" not in err and "internal error" not in err, err[-500:]
        assert json.loads(out)["complete"] is False
        assert took < 1.0, (mode, after, took)


def test_the_kernel_ticks_often_past_128_cells():
    """A tick (a chance to stop) every SLICE * 2 // words nodes where the loop works on arrays:
    on 729 cells a call of SLICE nodes took over a second."""
    from snakecube.search import kernel
    from snakecube.search.engine import Stats
    from snakecube.search.plan import make_plan
    from snakecube.search.problem import Problem

    if not kernel.AVAILABLE:
        pytest.skip("the compiled kernel is not built")
    problem = Problem.build(sc.Snake((2,) * 728), sc.Box(9, 9, 9))
    stats = Stats()
    walk = kernel.search(problem, make_plan(problem).units[0], stats)
    assert next(walk) is None  # a tick: this unit has no early solution
    words = (729 + 63) // 64
    assert 0 < stats.nodes <= kernel.SLICE * 2 // words + 64
    walk.close()
