"""The census against brute force on boxes of 19 to 27 cells (the suite stops at 18).

    python3 benchmarks/census_brute.py                 # every box below
    python3 benchmarks/census_brute.py --box 2x3x4

Every directed Hamiltonian path is listed by the independent code of ``tests/bruteforce.py``
(plain Python, no pruning), grouped by design and by symmetry class, and compared with
``snakecube.census``: paths, every design's count, designs, solutions, unique, maximum and
palindromes. Prints one line per box.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import snakecube as sc
from bruteforce import solutions_by_design
from snakecube.census import census

BOXES = ["1x4x5", "2x2x5", "1x3x7", "1x2x11", "1x4x6", "2x2x6", "2x3x4", "1x5x5", "1x3x9"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", action="append", help="a box (default: the list above)")
    args = ap.parse_args()
    bad = 0
    for text in args.box or BOXES:
        dims = tuple(int(t) for t in text.split("x"))
        t0 = time.perf_counter()
        want, paths = solutions_by_design(*dims)
        brute = time.perf_counter() - t0
        got = census(sc.Box(*dims), workers=1)
        mine = {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs}
        ok = (
            got.complete
            and got.paths == paths
            and mine == want
            and got.design_count == len(want)
            and got.solution_count == sum(want.values())
            and got.unique == sum(1 for v in want.values() if v == 1)
            and got.max_solutions == max(want.values())
            and got.palindromes == sum(1 for k in want if k == k[::-1])
        )
        bad += not ok
        print(f"{text:7s} {dims[0] * dims[1] * dims[2]:3d} cells  paths {paths:>10,}  designs "
              f"{len(want):>8,}  solutions {sum(want.values()):>9,}  brute force {brute:6.1f} s"
              f"  {'AGREE' if ok else 'DISAGREE'}", flush=True)  # fmt: skip
        got.close()
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
