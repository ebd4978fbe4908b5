"""Deciding a census's candidates in a target searched, before and after: the same slice of
candidates decided by the earlier per-design decision and by today's, interleaved design by
design in one process, in candidates per CPU second.

    .venv/bin/python benchmarks/census_decide.py --store BOARD --fold-into 4x4x4
    .venv/bin/python benchmarks/census_decide.py --store BOARD --fold-into 4x4x4 --slices 2

``BOARD`` is a finished census store (here the 8x8 board's, ``snakecube designs --box 8x8x1
--max-segment 4 --store BOARD``). The slice is the one the census's deciding runs first
(slice 0 of the first partitions, in its slice-major order), so it is a uniform sample.

* **before** (main up to issue 51): Knuth's estimate of the segment search's tree from each end
  (``search.estimate.end_sizes``, 8 ms a design), then a first-solution search of at most
  ``--nodes`` (10 million) nodes from the end it says is smaller, then from the other: a
  design neither end decides stays open;
* **after** (``census.decide.decide``): the end chosen by the compiled cell-level estimate
  (``first_end``, 0.4 ms), and no limit: rounds of growing node budgets until one end decides.

Both must agree wherever the earlier one decided. The results go to
benchmarks/results-census-decide.md (rewritten).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

from bench import Parser

from snakecube.census.decide import (
    FOLDS,
    NO,
    OPEN,
    TASK_CANDIDATES,
    decide,
    fitting,
    longest_line,
    slice_bits_for,
    slice_of,
)
from snakecube.census.result import snake_of_key
from snakecube.census.store import Store
from snakecube.census.units import path_units
from snakecube.search import solve
from snakecube.search.estimate import end_sizes
from snakecube.search.problem import Problem
from snakecube.shape import Box, Region
from snakecube.snake import Snake

RESULTS = Path(__file__).resolve().parent / "results-census-decide.md"


def decide_before(snake: Snake, region: Region, nodes: int) -> tuple[int, int]:
    """The per-design decision as main had it before issue 51 (census/decide.py there)."""
    first, last = end_sizes(Problem.build(snake, region))
    ends = (True, False) if last < first else (False, True)
    spent = 0
    for reverse in ends if not snake.is_palindrome else ends[:1]:
        r = solve(snake, region, limit=1, workers=1, max_nodes=nodes, reverse=reverse)
        spent += r.nodes
        if r.solutions:
            return FOLDS, spent
        if r.complete:
            return NO, spent
    return OPEN, spent


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, help="a finished census store (the candidates)")
    ap.add_argument("--fold-into", default="4x4x4", help="the target searched")
    ap.add_argument("--slices", type=int, default=1, help="about this many times 512 candidates")
    ap.add_argument("--nodes", type=int, default=10_000_000, help="before: the limit per end")
    args = ap.parse_args()
    man = json.loads((Path(args.store) / "manifest.json").read_text())
    board = Box.parse(man["target"].split()[0])
    cube = Box.parse(args.fold_into)
    st = Store.open(
        args.store, board, path_units(board, min_units=64), man["partitions"], man["max_segment"]
    )
    n, parts = board.volume, man["partitions"]
    bits = parts.bit_length() - 1
    longest = longest_line(cube)
    every = [st.read_part(p)[0] for p in range(parts)]
    total = sum(int(fitting(k, n, longest).sum()) for k in every)
    sbits = slice_bits_for(total, parts)
    keys: list[int] = []
    tasks = 0
    for p in range(parts):  # slice 0 of partition after partition: the first tasks
        k = every[p][fitting(every[p], n, longest)]
        keys += k[slice_of(k, bits, sbits) == 0].tolist()
        tasks += 1
        if len(keys) >= args.slices * TASK_CANDIDATES:
            break
    load = os.getloadavg()[0]
    cpu = {"before": 0.0, "after": 0.0}
    nodes = {"before": 0, "after": 0}
    out: dict[str, list[int]] = {"before": [], "after": []}
    worst = 0.0
    began = time.perf_counter()
    for i, key in enumerate(keys):
        snake = snake_of_key(key, n)
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        for which in order:
            t = time.process_time()
            if which == "before":
                o, used = decide_before(snake, cube, args.nodes)
            else:
                o, used = decide(snake, cube)
            dt = time.process_time() - t
            cpu[which] += dt
            nodes[which] += used
            out[which].append(o)
            if which == "after":
                worst = max(worst, dt)
        b, a = out["before"][-1], out["after"][-1]
        if b != OPEN and b != a:
            raise SystemExit(f"design {key}: before says {b}, after says {a}")
        if (i + 1) % 64 == 0:
            print(
                f"{i + 1}/{len(keys)} before {cpu['before']:.1f} s after {cpu['after']:.1f} s",
                flush=True,
            )
    wall = time.perf_counter() - began
    m = len(keys)
    rows = []
    for which in ("before", "after"):
        o = out[which]
        rate = m / cpu[which]
        rows.append(
            f"| {which} | {m} | {o.count(FOLDS)} | {o.count(NO)} | {o.count(OPEN)} | "
            f"{nodes[which] / m:,.0f} | {cpu[which]:.1f} | {rate:.1f} |"
        )
    speedup = cpu["before"] / cpu["after"]
    per = [cpu["after"] / m]
    text = (
        "# Deciding candidates in a searched target: before and after\n\n"
        f"`.venv/bin/python benchmarks/census_decide.py --store BOARD --fold-into {args.fold_into} "
        f"--slices {args.slices}`: the {m} candidates of the deciding's first {tasks} "
        f"tasks (slice 0 of partitions 0 to {tasks - 1}, of {1 << sbits} slices each; the "
        f"{board.describe()} census with segments of at most {man['max_segment']}), each "
        f"decided by both, alternating which goes first, in one process on the shared "
        f"2-core machine (load average {load:.1f} at the start, {wall:.0f} s wall).\n\n"
        "| decision | candidates | fold | do not | open | nodes a candidate | CPU s | "
        "candidates per CPU s |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
        + "\n".join(rows)
        + f"\n\nAfter / before: **{speedup:.2f}x** the candidates per CPU second; the "
        f"slowest candidate after took {worst:.2f} s (mean {statistics.fmean(per):.3f} s). "
        "Every candidate the earlier decision decided got the same answer.\n"
    )
    RESULTS.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
