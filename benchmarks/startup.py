"""How long the command takes to start: whole processes against a bare interpreter start.

    .venv/bin/python benchmarks/startup.py   # 21 runs each, rewrites benchmarks/results-startup.md
    .venv/bin/python benchmarks/startup.py --runs 51 --out -

Run it with the interpreter snakecube is installed in: the command and the bare start both
use it.

Each job runs as a whole process, as a person runs it, interleaved with ``python -c pass`` on
the same interpreter so both see the same load; the table gives medians and the ratio. It also
lists the heavy modules each command imports (none should be there for a one-process solve).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-startup.md"
JOBS = [["solve", "standard"], ["solve", "standard", "--json"], ["convert", "standard"],
        ["catalog"], ["solve", "king"]]  # fmt: skip
HEAVY = ("numpy", "matplotlib", "plotly", "distributed", "dask", "multiprocessing", "starlette",
         "tqdm", "pysat")  # fmt: skip


def _command() -> list[str]:
    exe = shutil.which("snakecube", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "snakecube"]


# As a person's shell runs it: byte code cached (a developer's PYTHONDONTWRITEBYTECODE would
# make every start compile every module again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _seconds(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=ENV)  # fmt: skip
    return time.perf_counter() - began


def _heavy(job: list[str]) -> list[str]:
    """The heavy modules the command imports (from ``python -X importtime``)."""
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "snakecube", *job],
                       capture_output=True, text=True, check=False, env=ENV)  # fmt: skip
    names = {line.rsplit("|", 1)[-1].strip() for line in p.stderr.splitlines() if "|" in line}
    return sorted(h for h in HEAVY if h in names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each job (default 21)")
    parser.add_argument("--out", default=str(RESULTS), help="results file, or - to print only")
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    tool = _command()
    rows = []
    for job in JOBS:
        base, mine = [], []
        first = subprocess.run([*tool, *job], capture_output=True, text=True, check=False, env=ENV)
        if first.returncode != 0:  # timing a failure would give a meaningless table
            said = first.stderr.strip()[-200:]
            raise SystemExit(
                f"snakecube {' '.join(job)} failed under {sys.executable} (exit "
                f"{first.returncode}): {said}; run this script with the interpreter snakecube "
                "is installed in"
            )
        for _ in range(args.runs):  # interleaved: both see the same load
            base.append(_seconds(bare))
            mine.append(_seconds([*tool, *job]))
        b, m = statistics.median(base), statistics.median(mine)
        heavy = ", ".join(_heavy(job)) or "none"
        rows.append(f"| `snakecube {' '.join(job)}` | {m * 1000:.0f} ms | {b * 1000:.0f} ms "
                    f"| {m / b:.1f}x | {heavy} |")  # fmt: skip
    load = os.getloadavg()[0]
    lines = [
        "# Start-up: whole processes against `python -c pass`",
        "",
        f"`python3 benchmarks/startup.py --runs {args.runs}`, {time.strftime('%Y-%m-%d')}, "
        f"{os.cpu_count()} cores, load average {load:.1f}; medians, interleaved runs.",
        "",
        "| job | snakecube | bare interpreter | ratio | heavy modules imported |",
        "|---|---:|---:|---:|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
