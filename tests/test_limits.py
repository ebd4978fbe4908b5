"""Limits that hold, tried on real processes: outputs written only where they were named,
refusals that come at once, time limits honoured from the first instruction, Ctrl-C (and
SIGTERM, SIGHUP) at any moment, and a fuzzer over every subcommand under a wall-clock and
memory cap.

The contract of every run: exit 0, 2 (with exactly one line on stderr) or 130; never a
traceback; with ``--json``, standard output is one JSON document whatever happened.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXE = shutil.which("snakecube", path=str(Path(sys.executable).parent))
MEMORY = 3 << 30  # bytes of address space a fuzzed process may take
CPU = 60  # seconds of CPU a fuzzed process may take


def _caps() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU, CPU))


def tool(*args: str, cwd: Path | None = None, timeout: float = 60) -> tuple[int, str, str, float]:
    """Run the installed command (or ``python -m snakecube``): exit code, stdout, stderr and
    seconds taken."""
    cmd = [EXE] if EXE else [sys.executable, "-m", "snakecube"]
    began = time.monotonic()
    p = subprocess.run(
        [*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, preexec_fn=_caps
    )
    return p.returncode, p.stdout, p.stderr, time.monotonic() - began


def assert_contract(code: int, out: str, err: str, args: tuple[str, ...] | list[str]) -> None:
    assert code in (0, 2, 130), (code, args, err[-2000:])
    assert "Traceback" not in err and "internal error" not in err, (args, err[-2000:])
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (args, err)
    if "--json" in args and code in (0, 130):
        json.loads(out)  # one document, even when stopped


# -- writing only what was named ------------------------------------------------------------


def test_a_symlink_to_standard_output_is_written_through(tmp_path):
    link = tmp_path / "out.csv"
    link.symlink_to("/proc/self/fd/1")
    code, out, err, _ = tool("designs", "--box", "2x2x2", "--csv", str(link), "--quiet")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    assert out.startswith("turns,segment_lengths,solutions,palindrome\n")


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    code, _, err, _ = tool("designs", "--box", "2x2x2", "--csv", str(fifo), "--quiet")
    got = reader.communicate(timeout=30)[0]
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got.splitlines()[0] == "turns,segment_lengths,solutions,palindrome"


def test_a_character_device_is_written_in_place(tmp_path):
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a second /dev/null
    except (PermissionError, OSError) as err:
        pytest.skip(f"cannot make a device node here: {err}")
    code, _, err, _ = tool("designs", "--box", "2x2x2", "--csv", str(node), "--quiet")
    assert code == 0, err
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_link_to_a_file_keeps_the_link_and_the_mode(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    real.chmod(0o640)
    (tmp_path / "link.csv").symlink_to("real.csv")
    code, _, err, _ = tool("designs", "--box", "2x2x2", "--csv", str(tmp_path / "link.csv"))
    assert code == 0, err
    assert (tmp_path / "link.csv").is_symlink()
    assert real.read_text().startswith("turns,")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_a_directory_is_refused_in_one_line(tmp_path):
    code, _, err, _ = tool("designs", "--box", "2x2x2", "--csv", str(tmp_path), "--quiet")
    assert code == 2 and "is a directory" in err and len(err.splitlines()) == 1
    assert tmp_path.is_dir()


# -- limits from the first instruction ------------------------------------------------------

TEN = "lengths:" + ",".join(["10"] * 111)  # 1000 cubes in segments of 10: a 10x10x10
ELBOWS = "elbows:" + ",".join(map(str, range(2, 1000))) + "/1000"  # 999 corners


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("solve", TEN, "--seconds", "3", "--quiet"),
        ("solve", TEN, "--seconds", "3", "--quiet", "--json"),
        ("show", ELBOWS, "--seconds", "3"),
        ("fold", ELBOWS, "--seconds", "3"),
        ("rate", ELBOWS, "--seconds", "3"),
    ],
    ids=["solve", "solve-json", "show", "fold", "rate"],
)
def test_seconds_are_honoured_from_the_start(args):
    code, out, err, took = tool(*args)
    assert_contract(code, out, err, args)
    assert code == 0
    assert took < 3 + 2, took  # the limit, and a margin for a loaded machine


@pytest.mark.parametrize("box", ["1000x1x1", "10x10x10", "4x4x4", "2x2x7"])
def test_a_size_mismatch_is_refused_at_once(box):
    code, _, err, took = tool("solve", "standard", "--box", box)
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "27 cubes" in err and "cells" in err
    assert took < 2, took


def test_a_mismatch_still_names_a_nearby_design_when_there_is_one():
    # lengths 3,3,3,3,2,... with one 3 typed as 4: 28 cubes for the 27 cells of the cube
    code, _, err, _ = tool("solve", "4-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3", "--box", "3x3x3")
    assert code == 2 and "nearby designs that fold: lengths:3,3,3,3,2" in err, err


# -- Ctrl-C, SIGTERM and SIGHUP at any moment -------------------------------------------------

STOPPABLE = [  # each runs for several seconds when left alone
    ("solve", "king", "--engine", "reference", "--json"),
    ("designs", "--box", "3x3x4", "--json"),
    ("flat", "king", "--json"),
    ("generate", "--box", "5x5x5", "--count", "20", "--json"),
    ("solve", "king", "--engine", "reference"),
    ("designs", "--box", "2x4x4"),
]


def _stop_at(args: tuple[str, ...], after: float, sig: int) -> tuple[int, str, str]:
    cmd = [EXE] if EXE else [sys.executable, "-m", "snakecube"]
    p = subprocess.Popen([*cmd, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err


@pytest.mark.slow
def test_ctrl_c_at_any_moment_exits_130_without_a_traceback():
    rng = random.Random(37)
    for _ in range(20):
        args = rng.choice(STOPPABLE)
        code, out, err = _stop_at(args, rng.uniform(0.01, 0.2), signal.SIGINT)
        assert code == 130, (args, code, err[-1500:])
        assert_contract(code, out, err, args)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_sigterm_and_sighup_stop_like_ctrl_c(sig):
    code, out, err = _stop_at(("flat", "king", "--json"), 1.0, sig)
    assert code == 130, err
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"


@pytest.mark.slow
def test_an_interrupted_flat_json_is_one_document():
    for after in (0.3, 0.8, 1.5):
        code, out, err = _stop_at(("flat", "king", "--json"), after, signal.SIGINT)
        assert code == 130, err
        assert json.loads(out)["complete"] is False


# -- a fuzzer over every subcommand ---------------------------------------------------------

SNAKES = ["standard", "king", "seed-blue", "3-3-3", "2-2-2-2-2-2-2", TEN, "x", "", "0", "S" * 30]
TARGETS = ["3x3x3", "2x2x2", "1x1x27", "4x4x4", "1000x1x1", "0x3x3", "2x3", "axbxc", "5x5x5"]
NUMBERS = ["0", "1", "2", "3", "-1", "1e3", "nan", "inf", "9" * 30, "²", "0.5", "", "4096"]
OPTIONS: dict[str, dict[str, list[str] | None]] = {
    "solve": {"--box": TARGETS, "--first": None, "--limit": NUMBERS, "--seconds": NUMBERS,
              "--json": None, "--end": ["auto", "first", "last", "x"], "--workers": NUMBERS,
              "--start": ["0,0,0", "9,9,9", "a"], "--strategy": ["auto", "beam", "sat"]},
    "show": {"--box": TARGETS, "--solution": NUMBERS, "--seconds": NUMBERS,
             "--words": ["table", "pilot"], "--reverse": None},
    "fold": {"--box": TARGETS, "--solution": NUMBERS, "--seconds": NUMBERS, "--json": None,
             "--from": ["best", "first", "last"]},
    "rate": {"--box": TARGETS, "--seconds": NUMBERS, "--json": None},
    "flat": {"--seconds": NUMBERS, "--json": None},
    "convert": {"--to": ["lengths", "turns", "bits", "x"], "--json": None},
    "designs": {"--box": TARGETS, "--partitions": NUMBERS, "--workers": NUMBERS,
                "--top": NUMBERS, "--json": None},
    "generate": {"--box": TARGETS, "--count": NUMBERS, "--seed": NUMBERS, "--json": None,
                 "--max-segment": NUMBERS},
    "catalog": {"--json": None},
}  # fmt: skip
WITH_SNAKE = {"solve", "show", "fold", "rate", "flat", "convert"}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    if command in WITH_SNAKE:
        argv.append(draw(st.sampled_from(SNAKES)))
    table = OPTIONS[command]
    for option in draw(st.lists(st.sampled_from(sorted(table)), max_size=4, unique=True)):
        values = table[option]
        argv += [option] if values is None else [option, draw(st.sampled_from(values))]
    return argv


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=command_lines(), stop_after=st.sampled_from([None, 0.05, 0.5, 2.0]))
def test_every_subcommand_keeps_the_contract(argv, stop_after):
    """Each run is a real process with a memory and CPU cap; a watchdog presses Ctrl-C at
    ``stop_after`` seconds (or after 8 s), and the run must end within 20 s of that."""
    cmd = [EXE] if EXE else [sys.executable, "-m", "snakecube"]
    p = subprocess.Popen(
        [*cmd, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_caps,
    )  # fmt: skip
    try:
        out, err = p.communicate(timeout=8 if stop_after is None else stop_after)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
    assert_contract(p.returncode, out, err, argv)
