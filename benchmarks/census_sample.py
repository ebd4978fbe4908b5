"""Check a finished census against the solver: a random sample of its designs, plus every
design among the census's top ones with at least ``--most`` solutions, each solved
exhaustively by ``snakecube.solve``.

    .venv/bin/python benchmarks/census_sample.py --box 3x3x4 --store census-3x3x4

The census store must hold a finished census of that box (``snakecube designs --box ...
--store DIR``). Prints one line per design and the number of mismatches (exit 1 if any).
"""

from __future__ import annotations

import sys
import time

from bench import Parser

import snakecube as sc
from snakecube.census import census


def main() -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--sample", type=int, default=40, help="designs drawn at random (40)")
    ap.add_argument("--most", type=int, default=2000, help="also every design with this many")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    box = sc.Box.parse(args.box)
    began = time.perf_counter()
    with census(box, store=args.store) as c:
        chosen = c.sample(args.sample, args.seed)
        chosen += [d for d in c.top if d.distinct >= args.most and d not in chosen]
        picked = [(d.snake.format("lengths"), d.distinct) for d in chosen]
    bad = 0
    for text, n in picked:
        r = sc.solve(text, box)
        ok = r.complete and r.distinct_up_to_reversal == n
        bad += not ok
        print(
            f"{text}  census {n}  solve {r.distinct_up_to_reversal}  {'OK' if ok else 'MISMATCH'}"
        )
    print(f"{len(picked)} designs, {bad} mismatches, {time.perf_counter() - began:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
