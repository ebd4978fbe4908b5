"""Make the benchmark set of hard (floppy) designs: benchmarks/data/hard-designs.json.

    python benchmarks/make_hard_set.py

Each design is the snake of a uniformly mixed random Hamiltonian path (20 n^2 backbite moves
from a serpentine, n the number of cells), six per box in 4x4x5, 3x5x5, 4x5x5 and 5x5x5,
from seeds 1..6. The path is kept: it proves the design folds, and the solver never sees it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import snakecube as sc
from snakecube.designs import design_of, random_path

BOXES = [(4, 4, 5), (3, 5, 5), (4, 5, 5), (5, 5, 5)]
OUT = Path(__file__).resolve().parent / "data" / "hard-designs.json"


def main() -> None:
    rows = []
    for dims in BOXES:
        box = sc.Box(*dims)
        for seed in range(1, 7):
            path = random_path(box, random.Random(seed))
            cells = [box.cells[c] for c in path]
            snake = design_of(cells)
            rows.append({
                "name": f"{'x'.join(map(str, dims))}-s{seed}",
                "box": list(dims),
                "seed": seed,
                "segment_lengths": list(snake.lengths),
                "straights": snake.cubes - 1 - snake.segments,
                "path": [list(c) for c in cells],
            })  # fmt: skip
    OUT.write_text(json.dumps({"about": __doc__.strip().splitlines()[0], "designs": rows}))
    for r in rows:
        print(r["name"], len(r["segment_lengths"]), "segments,", r["straights"], "straights")


if __name__ == "__main__":
    main()
