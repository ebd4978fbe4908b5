"""The census's path loop, before and after a change: CPU time of whole censuses.

    .venv/bin/python benchmarks/census_speed.py --before ../main/.venv/bin/python
    .venv/bin/python benchmarks/census_speed.py --before OLD --box 6x6x1 --rounds 5

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
import statistics
import subprocess
import sys
from pathlib import Path

from bench import Parser

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-census-speed.md"
BOXES = ["3x3x3", "6x6x1", "4x7x1", "2x3x5", "2x4x4"]


def census(python: str, box: str, nice: int) -> tuple[float, dict]:
    """(CPU seconds, the JSON answer) of one census as a whole process."""
    before = os.times()
    out = subprocess.run(
        ["nice", "-n", str(nice), python, "-m", "snakecube", "designs", "--box", box,
         "--workers", "1", "--json", "--quiet", "--top", "0"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, json.loads(out.stdout)


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the Python of the older build")
    ap.add_argument("--box", action="append", help=f"a box (default: {', '.join(BOXES)})")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--nice", type=int, default=19)
    args = ap.parse_args()
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
        "# The census's path loop: before and after\n\n"
        f"`.venv/bin/python benchmarks/census_speed.py --before OLD` ({args.rounds} rounds, whole "
        f"processes, one worker, nice {args.nice}): median CPU seconds of `snakecube designs "
        "--box X`, both builds interleaved on the shared 2-core machine; both must find the "
        "same paths, designs and solutions.\n\n"
    )
    RESULTS.write_text(head + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
