"""Project a census onto a cluster: Knuth's estimator of the Hamiltonian path count.

    .venv/bin/python benchmarks/census_project.py --box 3x4x4 --probes 200000

A census enumerates every Hamiltonian path (up to symmetry), so its cost is its path count
times the cost of one path. This script estimates the directed path count of a box without
enumerating it: each probe walks from a random start cell, choosing uniformly among the
moves that do not strand a free cell, and scores the product of the numbers of choices if
it covers every cell (else 0). The mean score is an unbiased estimate of the count (Knuth,
"Estimating the efficiency of backtrack programs", 1975); the standard error is printed.
Boxes with a known count (3x3x3, 3x3x4, 4x4x4) show how far to trust it.

The projection uses the throughput, unit-file bytes and designs per path class measured
on the 2x4x5 census (docs/census.md), as defaults that a new measurement can replace.
"""

from __future__ import annotations

import math
import random
import statistics

from bench import Parser

import snakecube as sc

# measured on the 2x4x5 census, 2026-11-22 (docs/census.md)
RATE = 1.71e5  # path classes per core-second, tally and reduce included (670.8M / 3,924 s)
UNIT_BYTES = 7.33  # bytes of unit files per path class (4.92 GB / 670.8M)
DESIGNS_PER_CLASS = 0.126  # 84,794,735 / 670,801,262


def probe(nb: list[list[int]], n: int, rng: random.Random) -> int:
    """One random walk: the product of the choices if it is a whole path, else 0."""
    h = rng.randrange(n)
    free = [True] * n
    free[h] = False
    deg = [sum(1 for y in row if y >= 0) for row in nb]
    for y in nb[h]:
        if y >= 0:
            deg[y] -= 1
    weight, left = n, n - 1
    while left:
        moves = []
        for x in nb[h]:
            if x < 0 or not free[x]:
                continue
            # exact cut: after the move to x, a free neighbour of the old head with no way
            # in at all (not next to x, no free neighbour) can never be reached
            ok = True
            for y in nb[h]:
                if y >= 0 and free[y] and y != x and deg[y] - (x in nb[y]) == 0 and x not in nb[y]:
                    ok = False
                    break
            if ok:
                moves.append(x)
        if not moves:
            return 0
        weight *= len(moves)
        x = rng.choice(moves)
        free[x] = False
        for y in nb[x]:
            if y >= 0:
                deg[y] -= 1
        h = x
        left -= 1
    return weight


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", required=True)
    ap.add_argument("--probes", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--paths", type=float, help="the directed path count, if known (no probes)")
    ap.add_argument("--rate", type=float, default=RATE, help="path classes per core-second")
    ap.add_argument(
        "--unit-bytes", type=float, default=UNIT_BYTES, help="bytes of unit files per path class"
    )
    ap.add_argument("--designs-per-class", type=float, default=DESIGNS_PER_CLASS)
    ap.add_argument("--workers", default="100,1000", help="cluster sizes K to project onto")
    args = ap.parse_args()
    dims = tuple(int(t) for t in args.box.lower().split("x"))
    box = sc.Box(*dims)
    g = len(box.symmetries)
    if args.paths:
        paths, err = args.paths, 0.0
        print(f"box {args.box}: {box.volume} cells, {g} symmetries, {paths:.6g} directed paths")
    else:
        nb = [list(row) for row in box.neighbours]
        rng = random.Random(args.seed)
        scores = [probe(nb, box.volume, rng) for _ in range(args.probes)]
        paths = statistics.fmean(scores)
        err = statistics.stdev(scores) / math.sqrt(len(scores))
        hits = sum(1 for s in scores if s)
        print(
            f"box {args.box}: {box.volume} cells, {g} symmetries, {args.probes} probes "
            f"({hits} whole paths)"
        )
        print(f"directed paths   ~ {paths:.3e} +- {err:.1e} (one standard error)")
    classes = paths / g
    core_hours = classes / args.rate / 3600
    designs = classes * args.designs_per_class
    print(f"path classes     ~ {classes:.3e}")
    print(f"core-hours       ~ {core_hours:.3g} (at {args.rate:.3g} classes a core-second)")
    print(
        f"unit files       ~ {classes * args.unit_bytes / 1e9:.3g} GB written, as much read "
        f"by the reduce (network to the shared store)"
    )
    print(f"designs          ~ {designs:.3g}; reduced store {designs * 16 / 1e9:.3g} GB")
    for k in (int(t) for t in args.workers.split(",")):
        print(f"on {k:5d} workers ~ {core_hours / k:.3g} hours")


if __name__ == "__main__":
    main()
