"""How quickly the tool answers where a person waits: refusals, time limits, Ctrl-C.

    .venv/bin/python benchmarks/responsiveness.py            # rewrites results-responsiveness.md
    .venv/bin/python benchmarks/responsiveness.py --runs 5 --out -

The test suite checks that each of these happens (exit 2 with one line, a search stopped at
its limit, Ctrl-C kept what was found) with bounds that only catch a hang; how long each takes
is measured here, as whole processes of the installed command (byte code cached), median of
``--runs``. Each row has the goal the docs promise, and says whether this run met it.
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench import Parser

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-responsiveness.md"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
TEN = "lengths:" + ",".join(["10"] * 111)  # 1000 cubes: a 10x10x10, hours of search
CORNERS = "elbows:" + ",".join(map(str, range(2, 1000))) + "/1000"
# 9x9x9, a corner at every odd cube to 699: its last straight run (31 cubes) cannot fit
ELBOWS_729 = "elbows:" + ",".join(map(str, range(3, 700, 2))) + "/729"


def _command() -> list[str]:
    exe = shutil.which("snakecube", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "snakecube"]


def _run(*args: str) -> float:
    """Seconds a whole run of the command takes."""
    began = time.perf_counter()
    subprocess.run([*_command(), *args], capture_output=True, env=ENV, check=False)
    return time.perf_counter() - began


def _stopped(args: list[str], ready_when: Callable[[Path], bool], wait: float) -> float:
    """Seconds from Ctrl-C to the process's end: the signal comes ``wait`` seconds after
    ``ready_when(folder)`` holds (the folder is the run's working directory)."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        env = {**ENV, "SNAKECUBE_READY_FILE": str(where / "ready")}
        proc = subprocess.Popen(
            [*_command(), *args],
            cwd=where,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while not ready_when(where) and proc.poll() is None:
            time.sleep(0.01)
        time.sleep(wait)
        began = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        proc.wait(120)
        return time.perf_counter() - began


def _first_bar(args: list[str], word: str) -> float:
    """Seconds from the start of a command, its stderr a terminal, to its first progress bar
    (``word`` on the screen)."""
    import pty  # Unix only, like the terminal it stands for

    master, slave = pty.openpty()
    began = time.perf_counter()
    proc = subprocess.Popen([*_command(), *args], env=ENV, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen, shown = None, b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        shown += data
        if seen is None and word.encode() in shown:
            seen = time.perf_counter() - began
    proc.wait(60)
    os.close(master)
    return float("inf") if seen is None else seen


def _hard() -> str:
    """A fully mixed random 5x5x5 design (tests/test_cli.py's): its search runs long."""
    import random

    import snakecube as sc
    from snakecube.designs import design_of, random_path

    box = sc.Box(5, 5, 5)
    path = random_path(box, random.Random(0))
    return design_of([box.cells[c] for c in path]).format("lengths")


HARD = _hard()


def _working(folder: Path) -> bool:
    ready = folder / "ready"
    return ready.exists() and "working" in ready.read_text().split()


# (what, goal in seconds, how to measure one run)
JOBS: list[tuple[str, float, Callable[[], float]]] = [
    (
        "`solve standard --box 10x10x10` refused (cube count)",
        1.0,
        lambda: _run("solve", "standard", "--box", "10x10x10"),
    ),
    (
        "`solve standard --box 4x4x4` refused, with nearby designs",
        1.0,
        lambda: _run("solve", "standard", "--box", "4x4x4"),
    ),
    (
        "`solve 3,3,...,2,3,2` (two lengths swapped): nearby designs listed",
        2.0,
        lambda: _run("solve", "3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2"),
    ),
    (
        "`generate --box 3x3x3 --min-straights 14` refused",
        1.0,
        lambda: _run("generate", "--box", "3x3x3", "--min-straights", "14"),
    ),
    (
        "`generate --box 3x3x3 --min-straights 12` gives up",
        10.0,
        lambda: _run("generate", "--box", "3x3x3", "--min-straights", "12"),
    ),
    (
        "`solve <10x10x10> --seconds 3`, whole run",
        5.0,
        lambda: _run("solve", TEN, "--seconds", "3", "--quiet"),
    ),
    (
        "`show <999 corners> --seconds 3`, whole run",
        5.0,
        lambda: _run("show", CORNERS, "--seconds", "3"),
    ),
    (
        "`fold <999 corners> --seconds 3`, whole run",
        5.0,
        lambda: _run("fold", CORNERS, "--seconds", "3"),
    ),
    (
        "`rate <999 corners> --seconds 3`, whole run",
        5.0,
        lambda: _run("rate", CORNERS, "--seconds", "3"),
    ),
    (
        "`solve <729-cube elbows>` says no solutions",
        2.0,
        lambda: _run("solve", ELBOWS_729, "--quiet"),
    ),
    ("`show <729-cube elbows>` says no solutions", 2.0, lambda: _run("show", ELBOWS_729)),
    ("`fold <729-cube elbows>` says no solutions", 2.0, lambda: _run("fold", ELBOWS_729)),
    ("`rate <729-cube elbows>` says unsolvable", 2.0, lambda: _run("rate", ELBOWS_729)),
    (
        "`designs --box 4x4x4` refused with its forecast",
        2.0,
        lambda: _run("designs", "--box", "4x4x4"),
    ),
    (
        "`designs --box 4x4x4 --estimate`",
        2.0,
        lambda: _run("designs", "--box", "4x4x4", "--estimate"),
    ),
    (
        "`designs --box 4x4x4 --seconds 3` on a terminal: the first bar drawn",
        1.0,
        lambda: _first_bar(["designs", "--box", "4x4x4", "--seconds", "3"], "census"),
    ),
    (
        "`show <5x5x5 design> --solution 1000` on a terminal: the first bar drawn",
        1.0,
        lambda: _first_bar(
            ["show", HARD, "--box", "5x5x5", "--solution", "1000", "--seconds", "3"], "searching"
        ),
    ),
    (
        "Ctrl-C in `solve king --engine reference`, to exit",
        1.0,
        lambda: _stopped(["solve", "king", "--engine", "reference"], _working, 1.0),
    ),
    (
        "Ctrl-C inside a census unit of 3x3x4, to exit",
        1.5,
        lambda: _stopped(
            ["designs", "--box", "3x3x4", "--workers", "1", "--store", "s"],
            lambda f: (f / "s" / "manifest.json").exists(),
            1.0,
        ),
    ),
]


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each job (default 3)")
    parser.add_argument("--out", default=str(RESULTS), help="results file, or - to print only")
    args = parser.parse_args()
    rows = []
    for what, goal, measure in JOBS:
        seconds = statistics.median(measure() for _ in range(args.runs))
        met = "yes" if seconds <= goal else "**no**"
        rows.append(f"| {what} | {seconds:.2f} | {goal:g} | {met} |")
        print(rows[-1], flush=True)
    lines = [
        "# Responsiveness: refusals, time limits and Ctrl-C, in seconds",
        "",
        f"`.venv/bin/python benchmarks/responsiveness.py --runs {args.runs}`, "
        f"{time.strftime('%Y-%m-%d')}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; medians of whole "
        "processes.",
        "",
        "| what | seconds | goal | met |",
        "|---|---:|---:|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
