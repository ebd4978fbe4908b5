"""Estimate a census without listing its designs: designs and unique designs by sampling.

    .venv/bin/python benchmarks/census_estimate.py --box 3x3x4 --samples 2000 --classes 84731192
    .venv/bin/python benchmarks/census_estimate.py --box 4x4x4 --samples 300 \
        --paths 55493434415544000

A census lists every design, which stops being possible at about 3x4x4 (docs/census.md, "On
paper"). Its totals can still be estimated. Every class of Hamiltonian paths under the box's
symmetries holds exactly |G| directed paths, so a uniformly random directed path is a
uniformly random class. For the design d of a class, let C(d) be the number of classes whose
design is d read from either end (``solve``: twice its distinct solutions, or once for a
palindrome). Then

    designs        = sum over classes of 1 / C(d)
    unique designs = sum over classes of [d has one solution] / C(d)

so ``classes x mean(1 / C)`` over random classes estimates the designs, with a standard error
from the sample. The random paths come from a backbite chain that picks one of the six
directions at an end (off the box: no move), whose moves are symmetric, so its stationary
distribution is uniform; a sample is kept every ``--thin`` moves after ``--burn`` moves.
Each sampled design is counted exhaustively by ``snakecube.solve``. With ``--paths`` (or
``--classes``) known, the estimate is of the designs alone; 3x3x4, whose census is exact,
shows how far to trust it.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time

from bench import Parser

import snakecube as sc
from snakecube.designs import design_of, serpentine


def uniform_backbite(box: sc.Box, path: list[int], rng: random.Random, moves: int) -> list[int]:
    """``moves`` backbite moves, each an end and one of six directions chosen uniformly."""
    nb = box.neighbours
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        pick = nb[path[-1]][rng.randrange(6)]
        if pick < 0 or pick == path[-2]:
            continue
        i = path.index(pick)
        path[i + 1 :] = path[i + 1 :][::-1]
    return path


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", required=True)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--paths", type=float, help="directed Hamiltonian paths of the box, if known")
    ap.add_argument("--classes", type=float, help="path classes, if known")
    ap.add_argument("--burn", type=int, help="moves before the first sample (default 20 n^2)")
    ap.add_argument("--thin", type=int, help="moves between samples (default 2 n^2)")
    args = ap.parse_args()
    box = sc.Box(*(int(t) for t in args.box.lower().split("x")))
    n, g = box.volume, len(box.symmetries)
    classes = args.classes or (args.paths / g if args.paths else None)
    rng = random.Random(args.seed)
    path = uniform_backbite(box, serpentine(box), rng, args.burn or 20 * n * n)
    inv, uniq, sols = [], [], []
    began = time.perf_counter()
    try:
        for k in range(args.samples):
            path = uniform_backbite(box, path, rng, args.thin or 2 * n * n)
            snake = design_of([box.cells[c] for c in path])
            r = sc.solve(snake, box, workers=1)
            if r.stop_reason == "interrupted":
                raise KeyboardInterrupt
            if not r.complete or r.distinct < 1:
                raise SystemExit(f"sample {k}: the count of {snake.format('lengths')} stopped")
            c = r.distinct * (1 if snake.is_palindrome else 2)
            inv.append(1 / c)
            uniq.append((r.distinct_up_to_reversal == 1) / c)
            sols.append(r.distinct_up_to_reversal)
            if (k + 1) % 10 == 0:
                print(f"{k + 1} samples, {time.perf_counter() - began:.0f} s", file=sys.stderr)
    except KeyboardInterrupt:  # report the samples taken so far
        print(f"interrupted after {len(inv)} samples", file=sys.stderr)
        if len(inv) < 2:
            raise SystemExit(130) from None
    seconds = time.perf_counter() - began

    def line(name: str, xs: list[float]) -> str:
        m = statistics.fmean(xs)
        se = statistics.stdev(xs) / math.sqrt(len(xs))
        scaled = f" -> {m * classes:.4g} +- {se * classes:.2g}" if classes else ""
        return f"{name:16s} per class {m:.5f} +- {se:.5f}{scaled}"

    print(f"box {args.box}: {n} cells, {g} symmetries, {len(inv)} samples in {seconds:.0f} s")
    if classes:
        print(f"path classes     {classes:.6g}")
    print(line("designs", inv))
    print(line("unique designs", uniq))
    print(f"solutions of the sampled designs: median {statistics.median(sols)}, max {max(sols)}")


if __name__ == "__main__":
    main()
