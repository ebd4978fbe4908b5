"""How fast and how well ``snakecube fold`` plans: every catalog puzzle (King B is ``king-b``),
and a seeded set of random 4x4x4 designs.

    python3 benchmarks/fold.py              # the full run; rewrites benchmarks/results-fold.md
    python3 benchmarks/fold.py --random 5   # a quick look; only prints

For each catalog puzzle, one whole process runs ``snakecube fold NAME --json``
(the planner picks the solution and end easiest to fold among the first 8 solutions), one at
a time, timed by the wall clock: what a person waits. Its plan is replayed by the tests'
independent simulator (``tests/foldsim.py``). For each random design (a random Hamiltonian
path of the 4x4x4 box, ``designs.random_path`` seeded 0, 1, ...), ``fold.plan`` plans that
path's solution in this process: found or "none within the budget", time, quarter turns
against the lower bound (one per corner out of the plane), and clear swings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
import foldsim  # noqa: E402
import snakecube as sc  # noqa: E402
from snakecube import catalog, fold  # noqa: E402
from snakecube.designs import design_of, random_path  # noqa: E402

RESULTS = HERE / "results-fold.md"
SNAKECUBE = str(Path(sys.executable).with_name("snakecube"))


def _replayed(data: dict, snake: str, box: sc.Box) -> bool:
    lengths = list(sc.Snake.parse(snake, box.volume).lengths)
    if data["snake"] != sc.Snake.parse(snake, box.volume).turns():  # typed from the other end
        lengths = lengths[::-1]
    foldsim.replay(data, lengths, set(box.cells))
    return True


def whole_command(name: str, text: str, box: sc.Box) -> dict:
    """One ``snakecube fold`` process: wall time and the plan's figures."""
    t = time.perf_counter()
    out = subprocess.run(
        [SNAKECUBE, "fold", text, "--box", "x".join(map(str, box.dims)), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - t
    data = json.loads(out.stdout)
    row = {"name": name, "box": box.describe(), "seconds": seconds, "exit": out.returncode}
    row |= {
        k: data.get(k)
        for k in ("found", "quarter_turns", "lower_bound", "sweep_clear", "lift_before_step")
    }
    row["moves"] = len(data.get("moves", []))
    row["replayed"] = bool(data.get("found")) and _replayed(data, text, box)
    row["note"] = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ""
    return row


def random_row(seed: int) -> dict:
    box = sc.Box(4, 4, 4)
    path = random_path(box, random.Random(seed))
    sol = sc.Solution(design_of([box.cells[c] for c in path]), box, tuple(path))
    t = time.perf_counter()
    p = fold.plan(sol)
    seconds = time.perf_counter() - t
    replayed = False
    if p.found:
        foldsim.replay(p.to_dict(), list(p.solution.snake.lengths), set(box.cells))
        replayed = True
    return {
        "seed": seed,
        "seconds": seconds,
        "found": p.found,
        "quarter_turns": p.quarter_turns,
        "lower_bound": p.lower_bound,
        "sweep_clear": p.sweep_clear,
        "moves": len(p.moves),
        "replayed": replayed,
        "reason": p.reason,
        "lift_before_step": fold.below_table(p) if p.found else None,
    }


def _table(r: dict) -> str:
    """'stays' or 'lifted before step k'."""
    k = r.get("lift_before_step")
    return "" if k is None else "stays" if k == 0 else f"lifted before step {k}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=20, help="random 4x4x4 designs (default 20)")
    ap.add_argument("--out", help="write the results here (default: only a full run writes)")
    args = ap.parse_args()
    lines = [
        "# fold: plans for the catalog (King B is king-b) and random 4x4x4 designs",
        "",
        f"`python3 benchmarks/fold.py` on {os.cpu_count()} cores (shared), "
        f"{time.strftime('%Y-%m-%d')}. Whole `snakecube fold NAME --json` processes, "
        "wall clock; every plan replayed by `tests/foldsim.py`.",
        "",
        "| puzzle | box | seconds | plan | quarter turns (lower bound) | clear swings | table |",
        "|---|---|---:|---|---:|---:|---|",
    ]
    named = [(e.name, e.name, sc.Box(*e.box)) for e in catalog.ENTRIES]
    for name, text, box in named:
        r = whole_command(name, text, box)
        plan = "replayed" if r["replayed"] else f"none (exit {r['exit']})"
        lines.append(
            f"| {name} | {box.describe()} | {r['seconds']:.1f} | {plan} | "
            f"{r['quarter_turns']} ({r['lower_bound']}) | {r['sweep_clear']} of {r['moves']} | "
            f"{_table(r)} |"
        )
        print(lines[-1], flush=True)
    rows = [random_row(seed) for seed in range(args.random)]
    found = [r for r in rows if r["found"]]
    lines += [
        "",
        f"Random 4x4x4 designs (random Hamiltonian paths, seeds 0-{args.random - 1}), "
        "`fold.plan` of the path's solution in one process:",
        "",
        "| seed | seconds | plan | quarter turns (lower bound) | clear swings | table |",
        "|---:|---:|---|---:|---:|---|",
    ]
    for r in rows:
        plan = "replayed" if r["replayed"] else r["reason"]
        lines.append(
            f"| {r['seed']} | {r['seconds']:.1f} | {plan} | {r['quarter_turns']} "
            f"({r['lower_bound']}) | {r['sweep_clear']} of {r['moves']} | {_table(r)} |"
        )
        print(lines[-1], flush=True)
    extra = sum(r["quarter_turns"] - r["lower_bound"] for r in found)
    worst = max((r["seconds"] for r in rows), default=0.0)
    stays = sum(1 for r in found if r["lift_before_step"] == 0)
    lines += [
        "",
        f"Plans found: {len(found)} of {len(rows)} ({100 * len(found) / max(1, len(rows)):.0f}%); "
        f"extra quarter turns over the lower bound: {extra} in all; slowest {worst:.1f} s; "
        f"{stays} of {len(found)} stay on the table.",
    ]
    text = "\n".join(lines) + "\n"
    print(lines[-1])
    out = args.out or (RESULTS if args.random == 20 else None)
    if out:
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
