"""A random sample of the candidates a `--fold-into` run decided do not fold, from its store,
for the tests to search again (tests/test_census_several.py): docs/data/chess-board-rejected.csv.

    .venv/bin/python benchmarks/census_rejected.py --store DIR --count 200

``DIR`` is the store of ``snakecube designs --box 8x8x1 --max-segment 4 --fold-into 4x4x4
--store DIR``; the sample is drawn (seeded) from every slice decided so far. Each row: the
design's turns and segment lengths, as in docs/data/chess-board-snakes.csv.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

from bench import Parser

from snakecube.census.decide import NO, Decisions
from snakecube.census.result import snake_of_key

OUT = Path(__file__).resolve().parents[1] / "docs" / "data" / "chess-board-rejected.csv"


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    root = Path(args.store)
    manifest = json.loads((root / "manifest.json").read_text())
    searched = manifest["searched"]
    dec = Decisions(root / "searched" / searched["folder"], manifest["id"], 1)
    rejected: list[int] = []
    for p, s in sorted(dec.finished()):
        keys, outcomes = dec.read_done(p, s)
        rejected += keys[outcomes == NO].tolist()
    sample = sorted(random.Random(args.seed).sample(rejected, min(args.count, len(rejected))))
    n = len(searched["cells"])
    with OUT.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["turns", "segment_lengths"])
        for key in sample:
            snake = snake_of_key(key, n)
            out.writerow([snake.turns(), " ".join(map(str, snake.lengths))])
    print(f"{len(sample)} of {len(rejected)} rejected candidates -> {OUT}")


if __name__ == "__main__":
    main()
