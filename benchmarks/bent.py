"""Bent snakes and corners on alternate cubes: which boxes up to 7x7x7 have a fold.

    .venv/bin/python benchmarks/bent.py            # every box a <= b <= c <= 7 (a few minutes)
    .venv/bin/python benchmarks/bent.py --most 5   # boxes up to 5x5x5, printed only

For every box a <= b <= c <= MOST (from 1x1x2), three snakes of its volume n:

* **bent**: every inner cube a corner (``lengths:2,2,...,2``), Wagon's Problem of the Week 1206;
* **corners on cubes 3, 5, 7, ...** (1-based: ``lengths:3,3,...``, the last 2 or 3);
* **corners on cubes 2, 4, 6, ...** (``lengths:2,3,3,...``): for even n, the snake above read
  from its other end.

Each is solved as ``snakecube solve SNAKE --box AxBxC --first --json`` would, through the
library (``snakecube.solve(snake, box, limit=1)``, all cores), and its time is the search's
(``Result.seconds``). A "yes" comes with its path, verified by ``Solution.verify`` (code that
shares nothing with the search) and kept in ``docs/data/bent-snakes.json``; a "no" is a
complete search (on boxes past 27 cells the edge model's SAT proof, ``search.edges``;
below that depth first). A row that is neither stops the script: the table has no unknowns.

With the default ``--most 7`` it rewrites ``docs/bent-snakes.md`` (from the text below the
table there, kept) and ``docs/data/bent-snakes.json``; ``tests/test_bent.py`` re-checks a
sample of their rows with the independent checker and the brute force.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from pathlib import Path

from bench import Parser

import snakecube as sc

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "bent-snakes.md"
DATA = ROOT / "docs" / "data" / "bent-snakes.json"
MARK = "<!-- the table ends here; bent.py keeps what follows -->"
KINDS = ("bent", "odd", "even")  # corners on every inner cube / cubes 3,5,... / cubes 2,4,...


def snake_of(kind: str, n: int) -> sc.Snake | None:
    """The snake of ``n`` cubes of this kind, or None when n is too short to have a corner."""
    if n < 3:
        return None
    # 0-based numbers of the corner cubes
    corners = range(1, n - 1) if kind == "bent" else range(2 if kind == "odd" else 1, n - 1, 2)
    points = [0, *corners, n - 1]
    if len(points) < 3:
        return None
    return sc.Snake(tuple(b - a + 1 for a, b in itertools.pairwise(points)))


def boxes(most: int) -> list[tuple[int, int, int]]:
    """Every box a <= b <= c <= most of at least 3 cells."""
    out = [
        (a, b, c)
        for a in range(1, most + 1)
        for b in range(a, most + 1)
        for c in range(b, most + 1)
    ]
    return [d for d in out if d[0] * d[1] * d[2] >= 3]


def decide(snake: sc.Snake, box: sc.Box) -> dict:
    """One snake in one box: found (with the path) or proven none, and the time."""
    result = sc.solve(snake, box, limit=1)
    if result.solutions:
        sol = result.solutions[0]
        sol.verify()
        return {
            "folds": True,
            "seconds": result.seconds,
            "engine": result.engine,
            "path": [list(c) for c in sol.cells],
        }
    if not result.complete:
        raise SystemExit(f"{box.describe()}, {snake.format('lengths')[:40]}...: no answer")
    return {"folds": False, "seconds": result.seconds, "engine": result.engine}


def cell(row: dict | None) -> str:
    """A table cell: yes / no with the seconds, or a dash where the snake has no corner."""
    if row is None:
        return "—"
    word = "**yes**" if row["folds"] else "no"
    return f"{word} ({row['seconds']:.2f} s)"


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--most", type=int, default=7, help="the longest side (default 7)")
    args = ap.parse_args()
    began = time.monotonic()
    rows = []
    lines = [
        "| box | cubes | bent | corners on cubes 3, 5, 7, ... | corners on cubes 2, 4, 6, ... |",
        "|---|---:|---|---|---|",
    ]
    for dims in boxes(args.most):
        box = sc.Box(*dims)
        n = box.volume
        row: dict = {"box": list(dims), "cubes": n}
        for kind in KINDS:
            snake = snake_of(kind, n)
            row[kind] = None if snake is None else decide(snake, box)
        rows.append(row)
        line = (
            f"| {'x'.join(map(str, dims))} | {n} | {cell(row['bent'])} | {cell(row['odd'])} "
            f"| {cell(row['even'])} |"
        )
        lines.append(line)
        print(line, flush=True)
    spent = time.monotonic() - began
    yes = {k: sum(1 for r in rows if r[k] and r[k]["folds"]) for k in KINDS}
    summary = (
        f"{len(rows)} boxes in {spent:.0f} s ({os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d')}): a bent path in {yes['bent']}, corners on cubes "
        f"3, 5, 7, ... in {yes['odd']}, on cubes 2, 4, 6, ... in {yes['even']}."
    )
    print(summary)
    if args.most != 7:
        return
    DATA.parent.mkdir(parents=True, exist_ok=True)
    tmp = DATA.with_name(f".{DATA.name}.tmp")
    tmp.write_text(json.dumps({"about": __doc__.splitlines()[0], "boxes": rows}) + "\n")
    os.replace(tmp, DATA)
    kept = PAGE.read_text().split(MARK, 1) if PAGE.exists() else ["", ""]
    head = kept[0].split("<!-- the table starts here -->", 1)[0]
    command = ".venv/bin/python benchmarks/bent.py"
    page = (
        f"{head}<!-- the table starts here -->\n\n`{command}`: {summary}\n\n"
        + "\n".join(lines)
        + f"\n\n{MARK}{kept[1] if len(kept) > 1 else ''}"
    )
    tmp = PAGE.with_name(f".{PAGE.name}.tmp")
    tmp.write_text(page)
    os.replace(tmp, PAGE)
    print(f"wrote {PAGE.relative_to(ROOT)} and {DATA.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
