"""Designs in two boxes at once: every pair of boxes of equal cells, up to 40 cells.

    .venv/bin/python benchmarks/census_pairs.py --store /tmp/pairs   # every pair up to 40 cells
    .venv/bin/python benchmarks/census_pairs.py --store /tmp/pairs --max-cells 24

Each box's census runs once, as a whole process (``snakecube designs --box X --store
STORE/single/X --json``, timed); each pair then runs as a whole process too
(``snakecube designs --box A --box B --store STORE/pairs/A+B --json``) with the two boxes'
stores linked into its store, so it times the intersection alone. A pair's time from
scratch is the sum of the three. A box's census is kept in STORE, with its time, so a rerun
only measures what is missing. Boxes in one straight line (1x1xN) are left out: a line
folds the straight snake only, which no other box folds. Flat boxes are written AxBx1.

Writes the table to ``benchmarks/results-census-pairs.md`` (rewritten) and prints it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import Parser

import snakecube as sc
from snakecube.census.joint import JointStore, target_name
from snakecube.census.runner import default_partitions, default_units
from snakecube.census.store import census_id
from snakecube.census.units import path_units

RESULTS = Path(__file__).resolve().parent / "results-census-pairs.md"


def boxes_of(cells: int) -> list[tuple[int, int, int]]:
    """The boxes of ``cells`` cells up to rotation, flat ones as AxBx1 after the solid ones,
    lines left out."""
    out = []
    for a in range(1, cells + 1):
        for b in range(a, cells + 1):
            c, rest = divmod(cells, a * b)
            if rest or c < b or (a, b) == (1, 1):
                continue
            out.append((b, c, 1) if a == 1 else (a, b, c))
    return sorted(out, key=lambda d: (d[2] == 1, d))  # solid boxes first, then flat ones


def name(dims: tuple[int, int, int]) -> str:
    return "x".join(map(str, dims))


def run(args: list[str], nice: int) -> tuple[dict, float, float]:
    """(the JSON answer, wall seconds, CPU seconds of the process and its workers)."""
    before = os.times()
    t0 = time.perf_counter()
    out = subprocess.run(
        ["nice", "-n", str(nice), sys.executable, "-m", "snakecube", *args, "--json", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - t0
    after = os.times()
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return json.loads(out.stdout), wall, cpu


def single(store: Path, dims: tuple[int, int, int], nice: int) -> dict:
    """A box's census, run once and kept with its times."""
    root = store / "single" / name(dims)
    done = root / "answer.json"
    if done.exists():
        return json.loads(done.read_text())
    data, wall, cpu = run(["designs", "--box", name(dims), "--store", str(root)], nice)
    data["wall"], data["cpu"] = wall, cpu
    done.write_text(json.dumps(data))
    return data


def pair(store: Path, a: tuple[int, int, int], b: tuple[int, int, int], nice: int) -> dict:
    """The designs in both boxes, the two censuses linked in from ``store/single``."""
    root = store / "pairs" / f"{name(a)}+{name(b)}"
    done = root / "answer.json"
    if done.exists():
        return json.loads(done.read_text())
    regions = [sc.Box(*a), sc.Box(*b)]
    n = regions[0].volume
    p = default_partitions(n)
    ids = [census_id(r, path_units(r, min_units=default_units(n)), p) for r in regions]
    JointStore.open(root, regions, ids, p)
    for r in regions:
        link = root / "targets" / target_name(r)
        if not link.exists():
            link.symlink_to(store / "single" / target_name(r))
    data, wall, cpu = run(
        ["designs", "--box", name(a), "--box", name(b), "--store", str(root)], nice
    )
    data["wall"], data["cpu"] = wall, cpu
    done.write_text(json.dumps(data))
    return data


def seconds(s: float) -> str:
    return f"{s:.1f} s" if s < 60 else f"{s / 60:.0f} min" if s < 5400 else f"{s / 3600:.1f} h"


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, type=Path, help="where the censuses are kept")
    ap.add_argument("--max-cells", type=int, default=40)
    ap.add_argument("--nice", type=int, default=19, help="niceness of the runs (19)")
    args = ap.parse_args()
    rows = [
        "| boxes | cells | designs of the first | of the second | in both | unique in both "
        "| censuses, CPU | intersection, CPU | from scratch, CPU | wall |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for cells in range(2, args.max_cells + 1):
        boxes = boxes_of(cells)
        singles = {d: single(args.store, d, args.nice) for d in boxes}
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                both = pair(args.store, a, b, args.nice)
                first, second = singles[a], singles[b]
                cpu = first["cpu"] + second["cpu"] + both["cpu"]
                wall = first["wall"] + second["wall"] + both["wall"]
                rows.append(
                    f"| {name(a)} + {name(b)} | {cells} | {first['designs']:,} | "
                    f"{second['designs']:,} | **{both['designs']:,}** | "
                    f"{both['unique_in_all']:,} | {seconds(first['cpu'])} + "
                    f"{seconds(second['cpu'])} | {seconds(both['cpu'])} | {seconds(cpu)} | "
                    f"{seconds(wall)} |"
                )
                print(rows[-1], flush=True)
    head = (
        "# Designs in two boxes at once\n\n"
        "`.venv/bin/python benchmarks/census_pairs.py --store DIR`: every pair of boxes of "
        "equal cells "
        f"up to {args.max_cells}, lines left out. 'in both': designs (up to reversal) that "
        "fold into both boxes; 'unique in both': those with one solution in each. Times are "
        "CPU seconds (user + system, every process) of whole processes: each box's census, "
        "the intersection of the two, and their sum; and the wall time of the three. They "
        f"ran at nice {args.nice} on the shared 2-core machine, so the wall times are upper "
        "bounds; a census uses both cores, so on a quiet machine its wall time is about half "
        "its CPU time for the big boxes.\n\n"
    )
    RESULTS.write_text(head + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
