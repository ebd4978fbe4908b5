"""Gecode (Debian's minizinc) on snakecube's MiniZinc model, beside snakecube's own search.

Run: .venv/bin/python benchmarks/minizinc.py   (rewrites benchmarks/results-minizinc.md)

For each puzzle: the time for minizinc to list every placement (no symmetry breaking) and
every distinct solution (with it), including its own start-up and flattening, and the time
for snakecube's complete count (one process, the engine `auto` picks). Wall-clock seconds,
one run each.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Parser

from snakecube import Snake
from snakecube.minizinc import model
from snakecube.search import solve
from snakecube.shape import Box

PUZZLES = [
    ("standard", "3x3x3"),
    ("seed-red", "3x3x3"),
    ("seed-blue", "3x3x3"),
    ("seed-orange", "3x3x3"),
    ("mean-green", "3x3x3"),
    ("lengths:2,2,4,3,4,2,3,4,3,3,2,2,2", "2x3x4"),
]


def gecode(text: str) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.mzn"
        path.write_text(text)
        began = time.perf_counter()
        done = subprocess.run(
            ["minizinc", "--solver", "gecode", "--all-solutions", str(path)],
            capture_output=True,
            text=True,
            check=True,
            timeout=3600,
        )
        seconds = time.perf_counter() - began
    return done.stdout.count("cells = "), seconds


def main() -> None:
    Parser(description=__doc__.splitlines()[0]).parse_args()
    if shutil.which("minizinc") is None:
        sys.exit("minizinc is not installed (Debian: apt-get install minizinc)")
    version = subprocess.run(["minizinc", "--version"], capture_output=True, text=True).stdout
    rows = []
    for name, box in PUZZLES:
        snake = Snake.parse(name)
        region = Box.parse(box)
        began = time.perf_counter()
        r = solve(snake, region, workers=1)
        ours = time.perf_counter() - began
        n_all, t_all = gecode(model(snake, region))
        n_one, t_one = gecode(model(snake, region, "auto"))
        assert (n_all, n_one) == (r.placements, r.distinct), (name, n_all, n_one)
        rows.append(
            f"| {name[:40]} | {box} | {r.placements} | {t_all:.2f} | {r.distinct} | {t_one:.2f} "
            f"| {ours:.3f} ({r.engine}) |"
        )
        print(rows[-1], flush=True)
    out = Path(__file__).with_name("results-minizinc.md")
    out.write_text(
        "# Gecode on snakecube's MiniZinc model, beside snakecube\n\n"
        f"`.venv/bin/python benchmarks/minizinc.py` on {platform.machine()} "
        f"({platform.python_version()}), {version.splitlines()[0]}, Gecode from Debian. "
        "Wall-clock seconds, minizinc's start-up and flattening included.\n\n"
        "| puzzle | target | placements | Gecode, all placements (s) | distinct | "
        "Gecode, symmetry breaking (s) | snakecube count (s) |\n|---|---|---|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
