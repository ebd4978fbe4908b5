"""The census's speed: the path loop before and after a change, and the forecast against
the census it forecasts, in CPU time of whole processes.

    .venv/bin/python benchmarks/census_speed.py --before ../main/.venv/bin/python
    .venv/bin/python benchmarks/census_speed.py --before OLD --box 6x6x1 --rounds 5
    .venv/bin/python benchmarks/census_speed.py --forecast
    .venv/bin/python benchmarks/census_speed.py --forecast --box 2x3x6 --box 8x8x1:4

``--forecast`` also records each box's forecast and census (wall and CPU seconds, the load,
the date and the machine) in ``benchmarks/data/census-times.json``, and the forecasts alone
of 3x4x4 and 4x4x4: every census time the docs give is that file's (tests/test_doc_times.py
holds them to it, and each measurement within 2x of its forecast).

Each census runs as a whole process with one worker (``snakecube designs --box X --workers
1 --json --quiet``), the build installed beside ``--before`` and this one in turn, round after
round, so both see the same load; the table gives the median CPU time (user + system) of
each, their ratio, and checks that both found the same paths and designs. CPU time, not wall
time: the machine is shared, and CPU time moves far less with the load. Rewrites
``benchmarks/results-census-speed.md``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Parser

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-census-speed.md"
BOXES = ["3x3x3", "6x6x1", "4x7x1", "2x3x5", "2x4x4"]


def census(python: str, box: str, nice: int) -> tuple[float, dict]:
    """(CPU seconds, the JSON answer) of one census as a whole process."""
    before = os.times()
    out = subprocess.run(
        [
            "nice",
            "-n",
            str(nice),
            python,
            "-m",
            "snakecube",
            "designs",
            "--box",
            box,
            "--workers",
            "1",
            "--json",
            "--quiet",
            "--top",
            "0",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, json.loads(out.stdout)


# the census table of docs/census.md, box by box, and one box with a longest segment
FORECAST_BOXES = ["2x3x4", "3x3x3", "2x3x5", "2x4x4", "8x8x1:4", "2x3x6", "3x3x4", "2x4x5"]
ONLY_FORECAST = ["3x4x4", "4x4x4"]  # too long to run: their forecasts alone are recorded
TIMES = ROOT / "benchmarks" / "data" / "census-times.json"  # what the docs' times quote
LOOP_HEAD = "# The census's path loop: before and after"
FORECAST_HEAD = "# The forecast against the census"


def box_args(box: str) -> list[str]:
    """``--box AxBxC`` and, for ``AxBxC:L``, ``--max-segment L``."""
    dims, _, longest = box.partition(":")
    return ["--box", dims, *(["--max-segment", longest] if longest else [])]


def estimate(box: str) -> dict:
    """``designs --estimate --json`` of ``box`` on 2 workers."""
    est = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakecube",
            "designs",
            *box_args(box),
            "--workers",
            "2",
            "--estimate",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(est.stdout)


def machine() -> dict:
    """The machine a measurement was made on: its processor and cores."""
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "unknown",
    )
    return {"processor": model, "cores": os.cpu_count()}


def forecast_row(box: str) -> tuple[str, dict]:
    """A table row: the forecast and the census of ``box``, both on 2 workers; and the
    record of both for ``TIMES``."""
    forecast = estimate(box)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="census-speed-") as tmp:
        before, began = os.times(), time.perf_counter()
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "snakecube",
                "designs",
                *box_args(box),
                "--workers",
                "2",
                "--json",
                "--quiet",
                "--top",
                "0",
                "--store",
                str(Path(tmp) / "store"),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        wall, after = time.perf_counter() - began, os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    data = json.loads(out.stdout)
    phases = forecast["phases"]
    shares = ", ".join(f"{k.replace('_', ' ')} {v:.3g}" for k, v in phases.items())
    ratio = cpu / forecast["cpu_seconds"]
    name = box.replace(":", " max-segment ")
    row = (
        f"| {name} | {data['designs']:,} | {forecast['cpu_seconds']:.3g} ({shares}) | "
        f"{cpu:.3g} | {wall:.3g} | {load:.1f} | {ratio:.2f} |"
    )
    record = {
        "designs": data["designs"],
        "complete": data["complete"],
        "forecast": {k: forecast[k] for k in ("cpu_seconds", "seconds", "load", "phases")},
        "cpu_seconds": round(cpu, 2),
        "seconds": round(wall, 2),
        "load": round(load, 2),
    }
    return row, record


def record_times(box: str, record: dict) -> None:
    """Add ``box``'s record to ``TIMES`` (dated, with the machine), keeping the others."""
    old = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    old.setdefault(
        "about",
        "benchmarks/census_speed.py --forecast: whole processes on 2 "
        "workers; seconds are wall clock, cpu_seconds user + system of the census's "
        "processes, load the 1-minute load average before the census",
    )
    old.setdefault("boxes", {})[box] = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": machine(),
        **record,
    }
    TIMES.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the Python of the older build")
    ap.add_argument("--forecast", action="store_true", help="the forecast against the census")
    ap.add_argument("--box", action="append", help=f"a box (default: {', '.join(BOXES)})")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--nice", type=int, default=19)
    args = ap.parse_args()
    if args.forecast:
        rows = [
            "| box | designs | forecast, CPU s (phases) | census, CPU s | wall s | load | "
            "measured / forecast |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for box in args.box or ONLY_FORECAST:
            if box in ONLY_FORECAST:
                f = estimate(box)
                kept = {k: f[k] for k in ("cpu_seconds", "seconds", "load", "phases")}
                record_times(box, {"forecast": kept})
        for box in [b for b in args.box or FORECAST_BOXES if b not in ONLY_FORECAST]:
            row, record = forecast_row(box)  # the files rewritten after each box
            record_times(box, record)
            rows.append(row)
            print(row, flush=True)
            table = (
                f"{FORECAST_HEAD}\n\n`.venv/bin/python benchmarks/census_speed.py "
                f"{shlex.join(sys.argv[1:])}`: "
                "each box's `designs --estimate --workers 2` (CPU seconds per phase: path search, "
                "solution counting, reduce, at the speed a short calibration measures) and then "
                "its census on 2 workers, box after box in one run on the shared 2-core "
                "machine; CPU time of the census's processes (user + system), the load "
                "average (1 min) before it.\n\n" + "\n".join(rows) + "\n"
            )
            write_section(FORECAST_HEAD, table)
        return
    if not args.before:
        raise SystemExit("give --before PYTHON (an older build) or --forecast")
    rows = [
        "| box | paths | designs | before, CPU s | after, CPU s | after / before |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for box in args.box or BOXES:
        times: dict[str, list[float]] = {"before": [], "after": []}
        answers = {}
        for _ in range(args.rounds):
            for which, python in (("before", args.before), ("after", sys.executable)):
                cpu, data = census(python, box, args.nice)
                times[which].append(cpu)
                answers[which] = (data["paths"], data["designs"], data["solutions"])
        if answers["before"] != answers["after"]:
            raise SystemExit(f"{box}: the builds disagree: {answers}")
        b, a = statistics.median(times["before"]), statistics.median(times["after"])
        paths, designs, _ = answers["after"]
        rows.append(f"| {box} | {paths:,} | {designs:,} | {b:.2f} | {a:.2f} | {a / b:.3f} |")
        print(rows[-1], flush=True)
    head = (
        f"{LOOP_HEAD}\n\n"
        f"`.venv/bin/python benchmarks/census_speed.py --before OLD` ({args.rounds} rounds, "
        "whole "
        f"processes, one worker, nice {args.nice}): median CPU seconds of `snakecube designs "
        "--box X`, both builds interleaved on the shared 2-core machine; both must find the "
        "same paths, designs and solutions.\n\n"
    )
    write_section(LOOP_HEAD, head + "\n".join(rows) + "\n")


def write_section(head: str, text: str) -> None:
    """Rewrite the section of the results file that starts with ``head``, keeping the rest."""
    old = RESULTS.read_text() if RESULTS.exists() else ""
    sections = [s for s in re.split(r"(?m)^(?=# )", old) if s.strip()]
    kept = [s.rstrip() + "\n" for s in sections if not s.startswith(head)]
    order = [LOOP_HEAD, FORECAST_HEAD]
    every = sorted(
        [*kept, text],
        key=lambda s: next((i for i, h in enumerate(order) if s.startswith(h)), len(order)),
    )
    RESULTS.write_text("\n".join(every))


if __name__ == "__main__":
    main()
