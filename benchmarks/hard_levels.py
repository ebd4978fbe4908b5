"""Where a hard design's depth-first tree has its mass, level by level, from each end.

    .venv/bin/python benchmarks/hard_levels.py --set benchmarks/data/fresh-5x5x5-designs.json \
        --only 5x5x5-s302,5x5x5-s310 --probes 20000

For each design, Knuth's estimate (``search.estimate.tree_size``, the kernel's default
pruning) of the tree from its first end and from its last end, split by the segment placed:
the level with the most nodes, the share of the tree past the middle of the snake and in its
last 20 segments, and what a search that meets in the middle would cost at best: for every
split m, the tree of the first m segments from one end plus the tree of the other n - m from
the other, the smallest sum over m (the two halves still have to be joined; this is only the
cost of listing them). A table of tail completions can save at most the share in the last
segments; meeting in the middle saves nothing when the best split is no cheaper than the
smaller whole tree. Random walks, seeded: the same numbers on every machine.
"""

from __future__ import annotations

import json
import time
from itertools import accumulate
from pathlib import Path

from bench import Parser

import snakecube as sc
from snakecube.search.estimate import tree_size
from snakecube.search.problem import Problem

DATA = Path(__file__).resolve().parent / "data" / "fresh-5x5x5-designs.json"


def profile(problem: Problem, probes: int) -> list[float]:
    """The estimated nodes that place each segment (0-based), from the problem's first end."""
    levels: list[float] = []
    tree_size(problem, probes=probes, levels=levels)
    return levels


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default=str(DATA), help="a designs file of benchmarks/data")
    ap.add_argument("--only", default="", help="design names, comma-separated (default: all)")
    ap.add_argument("--probes", type=int, default=20_000, help="random walks per end")
    args = ap.parse_args()
    designs = json.loads(Path(args.set).read_text())["designs"]
    wanted = set(args.only.split(",")) if args.only else None
    print(
        "| design | segments | tree, first end | tree, last end | peak level (of the smaller) "
        "| past the middle | in the last 20 | meeting in the middle, at best |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for d in designs:
        if wanted is not None and d["name"] not in wanted:
            continue
        t0 = time.process_time()
        problem = Problem.build(sc.Snake.from_lengths(d["segment_lengths"]), sc.Box(*d["box"]))
        first, last = profile(problem, args.probes), profile(problem.reversed(), args.probes)
        n = len(first)
        cf, cl = [0.0, *accumulate(first)], [0.0, *accumulate(last)]
        meet = min(cf[m] + cl[n - m] for m in range(n + 1))
        small = first if cf[n] <= cl[n] else last
        total = sum(small)
        peak = max(range(n), key=small.__getitem__)
        print(
            f"| {d['name']} | {n} | {cf[n]:.2g} | {cl[n]:.2g} | {peak + 1} "
            f"| {sum(small[n // 2 :]) / total:.1%} | {sum(small[n - 20 :]) / total:.1%} "
            f"| {meet:.2g} |",
            flush=True,
        )
        print(f"<!-- {d['name']}: {time.process_time() - t0:.1f} CPU s -->", flush=True)


if __name__ == "__main__":
    main()
