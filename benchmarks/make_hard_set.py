"""Make the benchmark set of hard (floppy) designs: benchmarks/data/hard-designs.json.

    .venv/bin/python benchmarks/make_hard_set.py                    # the set: seeds 1-6
    .venv/bin/python benchmarks/make_hard_set.py --seeds 7-26 \
        --out benchmarks/data/wider-designs.json
    .venv/bin/python benchmarks/make_hard_set.py --seeds 101-120 --mix 200 --boxes 5x5x5 \
        --out benchmarks/data/mixed200-designs.json
    .venv/bin/python benchmarks/make_hard_set.py --seeds 27-46 --boxes 4x5x5 \
        --out benchmarks/data/more-4x5x5-designs.json
    .venv/bin/python benchmarks/make_hard_set.py --seeds 201-208 \
        --boxes 3x4x5,2x5x5,4x4x4,3x3x5,2x4x5,3x4x4,2x3x5,3x3x4 \
        --out benchmarks/data/smaller-boxes-designs.json
    python benchmarks/make_hard_set.py --seeds 301-320 --boxes 5x5x5 \
        --out benchmarks/data/fresh-5x5x5-designs.json

Each design is the snake of a uniformly mixed random Hamiltonian path (20 n^2 backbite moves
from a serpentine, n the number of cells; ``--mix`` sets the 20), one per seed in each of
4x4x5, 3x5x5, 4x5x5 and 5x5x5. The path is kept: it proves the design folds, and the solver
never sees it. The wider set (seeds 7-26) stands in for designs the solver was not tuned on
(no parameter was set on them); the mixed200 set (ten times the moves) was made after the
search it measures. The last two, made after every parameter was set, check the margin on more
4x5x5 designs and on every other box shape of 24-60 cells; the fresh 5x5x5 set (seeds 301-320)
was made for issue 50, to measure before and after its change in one run.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from bench import Parser

import snakecube as sc
from snakecube.designs import design_of, random_path

BOXES = [(4, 4, 5), (3, 5, 5), (4, 5, 5), (5, 5, 5)]
OUT = Path(__file__).resolve().parent / "data" / "hard-designs.json"


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-6", help="first-last seed (default 1-6)")
    ap.add_argument("--mix", type=int, default=20, help="backbite moves per n^2 (default 20)")
    ap.add_argument("--boxes", default=",".join("x".join(map(str, b)) for b in BOXES))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    rows = []
    for spec in args.boxes.split(","):
        dims = tuple(int(x) for x in spec.split("x"))
        box = sc.Box(*dims)
        for seed in range(first, last + 1):
            moves = args.mix * box.volume**2 + 100  # as random_path's default for --mix 20
            path = random_path(box, random.Random(seed), moves)
            cells = [box.cells[c] for c in path]
            snake = design_of(cells)
            rows.append(
                {
                    "name": f"{'x'.join(map(str, dims))}-s{seed}",
                    "box": list(dims),
                    "seed": seed,
                    "segment_lengths": list(snake.lengths),
                    "straights": snake.cubes - 1 - snake.segments,
                    "path": [list(c) for c in cells],
                }
            )
    about = __doc__.strip().splitlines()[0]
    if (args.seeds, args.mix) != ("1-6", 20):
        about = f"{args.boxes}, seeds {args.seeds}, {args.mix} n^2 backbite moves"
    args.out.write_text(json.dumps({"about": about, "designs": rows}))
    for r in rows:
        print(r["name"], len(r["segment_lengths"]), "segments,", r["straights"], "straights")


if __name__ == "__main__":
    main()
