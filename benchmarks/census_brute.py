"""The census against brute force on boxes of 19 to 27 cells (the suite stops at 18).

    .venv/bin/python benchmarks/census_brute.py                 # every box below
    .venv/bin/python benchmarks/census_brute.py --box 2x3x4
    .venv/bin/python benchmarks/census_brute.py --box 3x3x3 --tally
    .venv/bin/python benchmarks/census_brute.py --joint --box 2x3x4 --box 4x6x1 --tally

Every directed Hamiltonian path is listed by the independent code of ``tests/bruteforce.py``
(plain Python, no pruning), grouped by design and by symmetry class, and compared with
``snakecube.census``: paths, every design's count, designs, solutions, unique, maximum and
palindromes. Prints one line per box.

``--tally`` is for boxes whose paths are too many to canonicalise one by one (3x3x3: 4.96
million paths, 48 symmetries). It walks every directed path with a plain bitmask
depth-first search written here and counts directed paths per design. No symmetry other than
the identity fixes a directed Hamiltonian path (it would fix every cell), so each class has
exactly |G| paths: a design's classes are its directed paths / |G|, and only the paths of
palindromic designs are checked for a symmetry mapping them onto their own reverse.

``--joint`` compares the census of several targets (``snakecube designs --box A --box B``)
with the brute force of each box, intersected: the designs in every box, each with its
solutions in each, and the totals.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bench import Parser

import snakecube as sc
from bruteforce import solutions_by_design
from snakecube.census import census
from snakecube.census.several import joint_census

BOXES = [  # every box of 19 to 27 cells but 3x3x3 (too slow here: use --tally)
    *(f"1x1x{n}" for n in range(19, 28)),
    "1x2x10",
    "1x2x11",
    "1x2x12",
    "1x2x13",
    "1x3x7",
    "1x3x8",
    "1x3x9",
    "1x4x5",
    "1x4x6",
    "1x5x5",
    "2x2x5",
    "2x2x6",
    "2x3x4",
]


def tally(dims: tuple[int, ...]) -> tuple[dict[tuple[int, ...], int], int]:
    """design (the smaller of it and its reverse) -> solutions, and the number of paths,
    by the direct count described in the module's docstring."""
    a, b, c = dims
    cells = [(x, y, z) for z in range(c) for y in range(b) for x in range(a)]
    where = {p: i for i, p in enumerate(cells)}
    n = len(cells)
    steps = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    nbrs = [
        [(where.get((x + dx, y + dy, z + dz)), k) for k, (dx, dy, dz) in enumerate(steps)]
        for (x, y, z) in cells
    ]
    nbrs = [[(j, k) for j, k in row if j is not None] for row in nbrs]
    perms = []
    for order in itertools.permutations(range(3)):
        size = [dims[i] for i in order]
        if size != list(dims):
            continue
        for flips in itertools.product((0, 1), repeat=3):
            m = []
            for p in cells:
                q = [p[i] for i in order]
                m.append(where[tuple(size[i] - 1 - q[i] if flips[i] else q[i] for i in range(3))])
            if m not in perms:  # flipping a side of one cell moves nothing
                perms.append(m)
    ident = list(range(n))
    paths_by: dict[tuple[int, ...], int] = {}
    self_reverse: dict[tuple[int, ...], int] = {}
    path = [0] * n
    dirs = [0] * n
    full = (1 << n) - 1

    def record() -> None:
        lengths, run = [], 2
        for i in range(2, n):
            if dirs[i] == dirs[i - 1]:
                run += 1
            else:
                lengths.append(run)
                run = 2
        lengths.append(run)
        t = tuple(lengths)
        key = min(t, t[::-1])
        paths_by[key] = paths_by.get(key, 0) + 1
        if t == t[::-1]:
            back = path[::-1]
            if any(all(m[path[i]] == back[i] for i in range(n)) for m in perms if m != ident):
                self_reverse[key] = self_reverse.get(key, 0) + 1

    def walk(i: int, used: int) -> None:
        if used == full:
            record()
            return
        for j, k in nbrs[path[i - 1]]:
            if not used >> j & 1:
                path[i] = j
                dirs[i] = k
                walk(i + 1, used | 1 << j)

    for s in range(n):
        path[0] = s
        walk(1, 1 << s)
    g = len(perms)
    out = {}
    for key, p in paths_by.items():
        classes = p // g  # directed classes of the design read from either end
        out[key] = (classes + self_reverse.get(key, 0) // g) // 2
    return out, sum(paths_by.values())


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", action="append", help="a box (default: the list above)")
    ap.add_argument("--tally", action="store_true", help="count by design directly")
    ap.add_argument("--joint", action="store_true", help="the designs in every --box at once")
    args = ap.parse_args()
    if args.joint:
        raise SystemExit(joint(args.box or [], args.tally))
    bad = 0
    for text in args.box or BOXES:
        dims = tuple(int(t) for t in text.split("x"))
        t0 = time.perf_counter()
        want, paths = tally(dims) if args.tally else solutions_by_design(*dims)
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
        print(
            f"{text:7s} {dims[0] * dims[1] * dims[2]:3d} cells  paths {paths:>10,}  designs "
            f"{len(want):>8,}  solutions {sum(want.values()):>9,}  brute force {brute:6.1f} s"
            f"  {'AGREE' if ok else 'DISAGREE'}",
            flush=True,
        )
        got.close()
    raise SystemExit(1 if bad else 0)


def joint(texts: list[str], by_tally: bool) -> int:
    """Brute force of each box, intersected, against the census of them all; exit code."""
    boxes = [tuple(int(t) for t in text.split("x")) for text in texts]
    t0 = time.perf_counter()
    each = [(tally(d) if by_tally else solutions_by_design(*d))[0] for d in boxes]
    brute = time.perf_counter() - t0
    keys = set.intersection(*(set(d) for d in each))
    want = {k: tuple(d[k] for d in each) for k in keys}
    with joint_census([sc.Box(*d) for d in boxes], workers=1) as got:
        mine = {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs}
        ok = (
            got.complete
            and mine == want
            and got.design_count == len(want)
            and [c.design_count for c in got.alone] == [len(d) for d in each]
            and list(got.solution_counts or ())
            == [sum(v[i] for v in want.values()) for i in range(len(boxes))]
            and got.unique_in_all == sum(1 for v in want.values() if set(v) == {1})
        )
    print(
        f"{' + '.join(texts)}: {len(want):,} designs in all (alone: "
        f"{', '.join(f'{len(d):,}' for d in each)}), brute force {brute:.1f} s  "
        f"{'AGREE' if ok else 'DISAGREE'}",
        flush=True,
    )
    return 0 if ok else 1


if __name__ == "__main__":
    main()
