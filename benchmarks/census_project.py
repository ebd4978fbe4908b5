"""Project a census onto a cluster: Knuth's estimator of the Hamiltonian path count.

    python3 benchmarks/census_project.py --box 3x4x4 --probes 200000

A census enumerates every Hamiltonian path (up to symmetry), so its cost is its path count
times the cost of one path. This script estimates the directed path count of a box without
enumerating it: each probe walks from a random start cell, choosing uniformly among the
moves that do not strand a free cell, and scores the product of the numbers of choices if
it covers every cell (else 0). The mean score is an unbiased estimate of the count (Knuth,
"Estimating the efficiency of backtrack programs", 1975); the standard error is printed.
Boxes with a known count (3x3x3, 3x3x4, 4x4x4) show how far to trust it.

The projection lines use the throughput and tally size measured on the 3x3x4 census
(docs/census.md), which the script takes as arguments so a new measurement can replace them.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

import snakecube as sc


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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", required=True)
    ap.add_argument("--probes", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rate",
        type=float,
        default=2.26e6,
        help="directed paths per core-second of the census (3x3x4: 1.356e9 / 600)",
    )
    ap.add_argument(
        "--designs-per-class",
        type=float,
        default=0.103,
        help="designs per path class (3x3x4: 8,762,892 / 84,731,192)",
    )
    args = ap.parse_args()  # fmt: skip
    dims = tuple(int(t) for t in args.box.lower().split("x"))
    box = sc.Box(*dims)
    nb = [list(row) for row in box.neighbours]
    rng = random.Random(args.seed)
    scores = [probe(nb, box.volume, rng) for _ in range(args.probes)]
    mean = statistics.fmean(scores)
    err = statistics.stdev(scores) / math.sqrt(len(scores))
    hits = sum(1 for s in scores if s)
    g = len(box.symmetries)
    classes = mean / g
    designs = classes * args.designs_per_class
    print(
        f"box {args.box}: {box.volume} cells, {g} symmetries, {args.probes} probes "
        f"({hits} whole paths)"
    )
    print(f"directed paths   ~ {mean:.3e} +- {err:.1e} (one standard error)")
    print(f"path classes     ~ {classes:.3e}")
    print(f"core-hours       ~ {mean / args.rate / 3600:.3g} at {args.rate:.3g} paths/core-s")
    print(f"designs          ~ {designs:.3g} (at {args.designs_per_class} per class)")
    print(f"reduced tally    ~ {designs * 16 / 1e9:.3g} GB (16 bytes per design)")


if __name__ == "__main__":
    main()
