"""Stopping: Ctrl-C (and SIGTERM, SIGHUP) at any moment exits 130 with what was found, never
a traceback, never a score or total from a partial search; with --json the output is one
document whatever the moment.

Each test signals a process once it has said it is running (``SNAKECUBE_READY_FILE``, see
``snakecube.stop``), never after a fixed delay from its start: on a busy machine the start
itself can take longer than any delay."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

import snakecube as sc
from conftest import HANG, command, contract, spawn, wait_ready


def _interrupt(*args, after, env=None):
    """Ctrl-C ``after`` seconds into the command's long work (its first ``stop.poll``)."""
    ready = Path(tempfile.mkdtemp()) / "ready"
    proc = spawn(*args, env=env, ready=ready)
    wait_ready(ready, proc, "busy")
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert proc.returncode == 130, (proc.returncode, out, err)
    return out, err


def _harder_4x4x4() -> str:
    import random

    from snakecube.designs import design_of, random_path

    box = sc.Box(4, 4, 4)
    path = random_path(box, random.Random(1))
    return design_of([box.cells[c] for c in path]).format("lengths")


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_rate_gives_no_score():
    """Stopped in its search, the rating has its counts so far and no score."""
    out, _ = _interrupt("rate", _harder_4x4x4(), "--json", after=0.3)  # its search: 3-6 s
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"
    assert data["snake"] and data["difficulty"] is None and data["scale"] is None


@pytest.mark.slow
def test_ctrl_c_in_flat_exits_130():
    out, _ = _interrupt(
        "flat", "lengths:" + ",".join(["2"] * 60), "--json", "--seconds", "600", after=1.5
    )
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_generate_prints_what_it_found():
    out, _ = _interrupt(
        "generate", "--box", "4x4x4", "--unique", "--count", "50", "--json", after=4
    )
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"
    for row in data["designs"]:
        assert row["solutions"] == 1 and row["difficulty"] is not None


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_a_long_census_unit_stops_it(tmp_path):
    # A unit of 3x3x4 takes minutes; the stop must come from inside it (how quickly:
    # benchmarks/responsiveness.py). The manifest is written before the first unit starts.
    store = tmp_path / "s"
    proc = spawn("designs", "--box", "3x3x4", "--workers", "1", "--store", str(store))
    end = time.monotonic() + HANG
    while not (store / "manifest.json").exists() and time.monotonic() < end:
        time.sleep(0.01)
    time.sleep(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 130 and "Traceback" not in err
    assert "complete       no" in out and "--store" in out


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_parallel_census_workers_prints_no_traceback(tmp_path):
    """Stopped while its two workers count. The stop waits for the store's manifest, written
    once the census is planned and before its first unit starts: 2 s after the working phase
    began was, on a busy CI machine, still before the census (the least document came back)."""
    store = tmp_path / "s"
    proc = spawn("designs", "--box", "3x3x4", "--workers", "2", "--json", "--store", str(store))
    end = time.monotonic() + HANG
    while not (store / "manifest.json").exists() and time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 130 and "Traceback" not in err, err
    data = json.loads(out)
    assert data["complete"] is False and data["designs"] is None
    assert err.strip() == "" or err.count("\n") <= 1


def _hard_5x5x5() -> str:
    """A random 5x5x5 design whose depth-first search finds no first solution in minutes."""
    import random

    from snakecube.designs import design_of, random_path

    box = sc.Box(5, 5, 5)
    path = random_path(box, random.Random(0))
    return design_of([box.cells[c] for c in path]).format("lengths")


@pytest.mark.slow
def test_ctrl_c_in_show_exits_130():
    # --solution 1: the depth-first search's first, which it does not find in minutes (all
    # 2s in 3x3x7, used before, is now proved to have none at once)
    _interrupt("show", _hard_5x5x5(), "--box", "5x5x5", "--solution", "1", after=1.5)


# -- Ctrl-C, SIGTERM and SIGHUP at any moment -------------------------------------------------

STOPPABLE = [  # each runs for several seconds when left alone
    ("solve", "king", "--engine", "reference", "--json"),
    ("designs", "--box", "3x3x4", "--json"),
    ("flat", "king", "--json", "--seconds", "600"),
    ("generate", "--box", "5x5x5", "--count", "20", "--json"),
    ("solve", "king", "--engine", "reference"),
    ("designs", "--box", "2x4x4"),
]


def _stop_at(
    args: tuple[str, ...], after: float, sig: int, phase: str = "working"
) -> tuple[int, str, str]:
    """Run the installed command; send ``sig`` ``after`` seconds into ``phase``."""
    ready = Path(tempfile.mkdtemp()) / "ready"
    env = {**os.environ, "SNAKECUBE_READY_FILE": str(ready)}
    p = subprocess.Popen(
        [*command(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    wait_ready(ready, p, phase)
    time.sleep(after)
    p.send_signal(sig)
    out, err = p.communicate(timeout=HANG)
    return p.returncode, out, err


@pytest.mark.slow
def test_ctrl_c_at_any_moment_exits_130_without_a_traceback():
    # From the entry point's first instruction on (docs/cli.md): the command line's imports,
    # the reading of the snake, the search, the printing.
    rng = random.Random(37)
    for _ in range(20):
        args = rng.choice(STOPPABLE)
        code, out, err = _stop_at(args, rng.uniform(0.0, 0.2), signal.SIGINT, "starting")
        assert code == 130, (args, code, err[-1500:])
        contract(code, out, err, args)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_sigterm_and_sighup_stop_like_ctrl_c(sig):
    code, out, err = _stop_at(("flat", "king", "--json", "--seconds", "600"), 1.0, sig)
    assert code == 130, err
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"


@pytest.mark.slow
def test_an_interrupted_flat_json_is_one_document():
    for after in (0.3, 0.8, 1.5):
        code, out, err = _stop_at(
            ("flat", "king", "--json", "--seconds", "600"), after, signal.SIGINT
        )
        assert code == 130, err
        assert json.loads(out)["complete"] is False


# -- a Ctrl-C that Python dropped ---------------------------------------------------------------


@pytest.fixture
def dropped(monkeypatch) -> list[float]:
    """0.3 s into the test, the tool's stop flag goes up as a Ctrl-C that Python dropped
    leaves it (``stop.py``: the handler set ``stop.signalled``, and its KeyboardInterrupt went
    nowhere). The list holds when."""
    from snakecube import stop

    monkeypatch.setattr(stop, "signalled", False)
    at: list[float] = []

    def drop() -> None:
        at.append(time.monotonic())
        stop.signalled = True

    timer = threading.Timer(0.3, drop)
    timer.start()
    yield at
    timer.cancel()


def _at_once(at: list[float]) -> bool:
    """The work ended within a few seconds of the flag (its time limit is 30 s)."""
    return bool(at) and time.monotonic() - at[0] < 10


def _5x5x5() -> sc.Snake:
    """A 5x5x5 design that every first-solution strategy takes over 10 s to fold (measured),
    and whose count takes far longer."""
    from snakecube.designs import design_of, random_path

    box = sc.Box(5, 5, 5)
    return design_of([box.cells[c] for c in random_path(box, random.Random(1))])


COMPILED = pytest.mark.heavy  # these strategies run only in the compiled loops
LOOPS = [
    "flat",
    "count",
    "depth-first",
    "census",
    "generate",
    *(pytest.param(s, marks=COMPILED) for s in ("portfolio", "restarts", "beam")),
]


@pytest.mark.parametrize("loop", LOOPS)
def test_a_dropped_ctrl_c_stops_each_long_loop_at_once(dropped, loop):
    # Every long loop of the tool polls the flag (stop.poll); one that did not would run
    # here to its time limit, 30 s.
    from snakecube.designs import generate

    if loop == "generate":  # a generator: the stop comes out as KeyboardInterrupt (the CLI
        with pytest.raises(KeyboardInterrupt):  # prints what came before it)
            list(generate(sc.Box(5, 5, 5), count=50, workers=1, seconds=30))
        assert _at_once(dropped)
        return
    try:
        result = _run_loop(loop)
    except KeyboardInterrupt:  # (not let through: pytest would take it for its own Ctrl-C)
        pytest.fail("the stop came out of the call instead of an incomplete answer")
    assert result.stop_reason == "interrupted" and not result.complete
    assert _at_once(dropped)


def _run_loop(loop: str):
    from snakecube.census import census
    from snakecube.flat import flat

    box = sc.Box(5, 5, 5)
    if loop == "flat":
        return flat(sc.Snake.parse("king"), seconds=30)
    if loop == "census":
        return census(sc.Box(3, 3, 4), workers=1, seconds=30)
    limit = None if loop == "count" else 1
    strategy = "auto" if loop == "count" else loop
    return sc.solve(_5x5x5(), box, seconds=30, limit=limit, strategy=strategy, workers=1)


def test_a_ctrl_c_in_a_count_from_the_last_end_keeps_what_it_found(monkeypatch):
    # The count runs from the snake's last end when that end is the cheaper one, and the
    # solutions are told from the first end afterwards: a stop (the flag set, as the tool's
    # handler does, and KeyboardInterrupt) keeps them.
    from snakecube import stop
    from snakecube.designs import design_of, random_path

    box = sc.Box(4, 4, 4)  # a design whose count runs from its last end (0.25 s, 14 found)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(0))]).reversed()

    def ctrl_c(done: int, units: int, found: int) -> None:
        if found:
            monkeypatch.setattr(stop, "signalled", True)
            raise KeyboardInterrupt

    try:
        result = sc.solve(snake, box, workers=1, progress=ctrl_c)
    except KeyboardInterrupt:  # (not let through: pytest would take it for its own Ctrl-C)
        pytest.fail("the stop came out of solve(), and what was found with it")
    assert result.searched_from_last, "the design no longer counts from its last end"
    assert result.stop_reason == "interrupted" and result.distinct >= 1
    for solution in result.solutions:
        solution.verify()
