"""How long the command takes to start: whole processes against a bare interpreter start.

    .venv/bin/python benchmarks/startup.py   # 11 runs each, rewrites benchmarks/results-startup.md
    .venv/bin/python benchmarks/startup.py --runs 51 --out -
    .venv/bin/python benchmarks/startup.py --before ../old/.venv/bin/python   # two builds

Run it with the interpreter snakecube is installed in: the command and the bare start both
use it.

Each job runs as a whole process, as a person runs it, interleaved with ``python -c pass`` on
the same interpreter so both see the same load; the table gives medians and the ratio. With
``--before PYTHON`` the command installed beside another interpreter (an older build) runs in
the same rounds, so a change is measured before and after in one run. It also lists the heavy
modules each command imports (none should be there for a one-process solve).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import Parser

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-startup.md"
JOBS = [
    ["solve", "standard"],
    ["solve", "standard", "--json"],
    ["convert", "standard"],
    ["catalog"],
    ["solve", "king"],
]
HEAVY = (
    "numpy",
    "matplotlib",
    "plotly",
    "distributed",
    "dask",
    "multiprocessing",
    "starlette",
    "uvicorn",
    "tqdm",
    "pysat",
)


def _command(python: str = sys.executable) -> list[str]:
    exe = shutil.which("snakecube", path=str(Path(python).parent))
    return [exe] if exe else [python, "-m", "snakecube"]


# As a person's shell runs it: byte code cached (a developer's PYTHONDONTWRITEBYTECODE would
# make every start compile every module again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _seconds(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    return time.perf_counter() - began


def _heavy(job: list[str]) -> list[str]:
    """The heavy modules the command imports (from ``python -X importtime``)."""
    p = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "snakecube", *job],
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    names = {line.rsplit("|", 1)[-1].strip() for line in p.stderr.splitlines() if "|" in line}
    return sorted(h for h in HEAVY if h in names)


def _check(tool: list[str], job: list[str], name: str) -> None:
    """Timing a failure would give a meaningless table."""
    first = subprocess.run([*tool, *job], capture_output=True, text=True, check=False, env=ENV)
    if first.returncode != 0:
        said = first.stderr.strip()[-200:]
        raise SystemExit(
            f"snakecube {' '.join(job)} ({name}, {tool[0]}) failed (exit {first.returncode}): "
            f"{said}; run this script with the interpreter snakecube is installed in"
        )


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each job (default 11)")
    parser.add_argument("--out", default=str(RESULTS), help="results file, or - to print only")
    parser.add_argument(
        "--before", metavar="PYTHON", help="also time the snakecube beside this interpreter"
    )
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    tools = {"this build": _command()}
    if args.before:
        tools = {"before": _command(args.before), **tools}
    rows = []
    for job in JOBS:
        for name, tool in tools.items():
            _check(tool, job, name)
        base: list[float] = []
        times: dict[str, list[float]] = {name: [] for name in tools}
        for _ in range(args.runs):  # interleaved: all see the same load
            base.append(_seconds(bare))
            for name, tool in tools.items():
                times[name].append(_seconds([*tool, *job]))
        b = statistics.median(base)
        heavy = ", ".join(_heavy(job)) or "none"
        cells = " | ".join(
            f"{statistics.median(t) * 1000:.0f} ms ({statistics.median(t) / b:.1f}x)"
            for t in times.values()
        )
        rows.append(f"| `snakecube {' '.join(job)}` | {cells} | {b * 1000:.0f} ms | {heavy} |")
    load = os.getloadavg()[0]
    lines = [
        "# Start-up: whole processes against `python -c pass`",
        "",
        f"`.venv/bin/python benchmarks/startup.py --runs {args.runs}"
        f"{' --before ' + args.before if args.before else ''}`, {time.strftime('%Y-%m-%d')}, "
        f"{os.cpu_count()} cores, load average {load:.1f}; medians, interleaved runs.",
        "",
        "| job | " + " | ".join(f"{n} (ratio)" for n in tools) + " | bare interpreter "
        "| heavy modules imported |",
        "|---|" + "---:|" * len(tools) + "---:|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
