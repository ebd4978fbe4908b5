"""Where the hard designs are hard: node-budget probes of the first-solution search.

    .venv/bin/python benchmarks/hard_probe.py --design 5x5x5-s2 --given 0,0.2,0.3,0.4,0.6
    .venv/bin/python benchmarks/hard_probe.py --design 4x4x5-s1 --checks 7,15 --runs 300 \
        --budget 20000

``--given``: each fraction f gives the search the first f of the segments as they lie in
the design's own path (benchmarks/data/hard-designs.json), then runs ``--runs`` searches
from there with different random orders, ``--budget`` nodes each, and counts how many find
a solution. It shows at what depth the search stops being able to recover.

``--checks``: the restarts of ``search.first`` (their start cells, ends and seeds), each
``--budget`` nodes, with these pruning flags (1 blocks, 2 forced passages, 4 fewest ways
first, 8 straight runs), to measure whether a check pays. Node budgets, not seconds: the
counts are the same on every machine.
"""

from __future__ import annotations

import json
import time
from array import array
from pathlib import Path

from bench import Parser

import snakecube as sc
from snakecube.search import _loops  # type: ignore[attr-defined]
from snakecube.search.first.restarts import ALL_CHECKS, Portfolio
from snakecube.search.plan import end_colour
from snakecube.search.problem import Problem

DATA = Path(__file__).resolve().parent / "data" / "hard-designs.json"


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--design", required=True, help="a name in hard-designs.json")
    ap.add_argument("--given", default="", help="fractions of the true path to give")
    ap.add_argument("--checks", default="", help="pruning flag sets to compare")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--budget", type=int, default=100_000)
    args = ap.parse_args()
    d = next(d for d in json.loads(DATA.read_text())["designs"] if d["name"] == args.design)
    box = sc.Box(*d["box"])
    lengths = d["segment_lengths"]
    cells = [box.index[tuple(c)] for c in d["path"]]
    portfolio = Portfolio(Problem.build(sc.Snake.from_lengths(lengths), box))
    nb = box.neighbours
    at, dirs = 0, []
    for n in lengths:  # the direction of each segment in the design's own path
        dirs.append(nb[cells[at]].index(cells[at + 1]))
        at += n - 1

    def run(lens: list[int], start: int, seed: int, checks: int, given: int) -> tuple[bool, int]:
        s = _loops.FirstSearch(
            portfolio.nb,
            portfolio.colours,
            array("i", lens),
            start,
            end_colour(box, start),
            seed,
            checks,
        )
        for k in range(given):
            s.push(dirs[k])
        s.run(args.budget)
        return bool(s.found), s.nodes

    print(f"{args.design}: {len(lengths)} segments, {args.runs} runs of {args.budget} nodes")
    for f in [float(t) for t in args.given.split(",") if t]:
        k = int(f * len(lengths))
        t0 = time.perf_counter()
        found = sum(run(lengths, cells[0], 1 + r, ALL_CHECKS, k)[0] for r in range(args.runs))
        print(
            f"given {k:3d} of {len(lengths)} segments: found {found:3d} of {args.runs}"
            f"  ({time.perf_counter() - t0:.1f} s)"
        )
    for checks in [int(t) for t in args.checks.split(",") if t]:
        t0 = time.perf_counter()
        found = 0
        for r in range(args.runs):
            end, start, seed, _, _ = portfolio.plan(r)
            found += run(lengths[::-1] if end else lengths, start, seed, checks, 0)[0]
        print(
            f"checks {checks:2d}: found {found:3d} of {args.runs}"
            f"  ({time.perf_counter() - t0:.1f} s)"
        )


if __name__ == "__main__":
    main()
