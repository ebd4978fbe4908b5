"""Designs: snakes made from Hamiltonian paths.

A **design** is the snake a Hamiltonian path produces: its segment lengths. Random paths come
from the *backbite* Markov chain, which moves among the Hamiltonian paths of a region starting
from any one of them (for a box, a serpentine).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from snakecube.errors import InputError
from snakecube.shape import Box, Cell, Coord, Region
from snakecube.snake import Snake


def serpentine(box: Box) -> list[Cell]:
    """A Hamiltonian path of a box: rows back and forth, layers back and forth."""
    a, b, c = box.dims
    out: list[Cell] = []
    row = 0
    for z in range(c):
        for y in range(b) if z % 2 == 0 else reversed(range(b)):
            xs = range(a) if row % 2 == 0 else reversed(range(a))
            out.extend(box.index[(x, y, z)] for x in xs)
            row += 1
    return out


def backbite(region: Region, path: list[Cell], rng: random.Random, moves: int) -> list[Cell]:
    """Apply ``moves`` random backbite moves to a Hamiltonian path of ``region``.

    A move picks an end and one of its neighbours in the region; if the neighbour is not the
    end's own predecessor, the path is cut after the neighbour and the loose piece reversed.
    """
    path = list(path)
    nb = region.neighbours
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        end = path[-1]
        options = [n for n in nb[end] if n >= 0]
        pick = options[rng.randrange(len(options))]
        if len(path) > 1 and pick == path[-2]:
            continue
        i = path.index(pick)
        path[i + 1 :] = path[i + 1 :][::-1]
    return path


def random_path(box: Box, rng: random.Random, moves: int | None = None) -> list[Cell]:
    """A random Hamiltonian path of ``box`` (backbite from a serpentine)."""
    n = box.volume
    return backbite(box, serpentine(box), rng, moves if moves is not None else 20 * n * n + 100)


def design_of(coords: Sequence[Coord]) -> Snake:
    """The snake that a path of cells (in order) folds: a corner wherever the path turns."""
    if len(coords) < 2:
        raise InputError("a path needs at least 2 cells to make a snake")
    steps = [tuple(b[i] - a[i] for i in range(3)) for a, b in itertools.pairwise(coords)]
    lengths, run = [], 2
    for prev, step in itertools.pairwise(steps):
        if step == prev:
            run += 1
        else:
            lengths.append(run)
            run = 2
    lengths.append(run)
    return Snake(tuple(lengths))


# -- census: every design of a box, from its Hamiltonian paths up to symmetry ----------------

Key = int  # a design as bits: bit i-1 set when cube i (1..n-2) is a corner


@dataclass(frozen=True, slots=True)
class DesignCount:
    """One design of a census: the snake, its distinct solutions (up to the box's
    symmetries and reversal), and whether it reads the same from both ends."""

    snake: Snake
    solutions: int
    palindrome: bool


@dataclass(frozen=True, slots=True)
class Census:
    """Every snake design that folds into a region, with its number of solutions."""

    region: Region
    paths: int  # directed Hamiltonian paths
    designs: tuple[DesignCount, ...]  # most solutions first, then by turn string
    complete: bool

    @property
    def solutions(self) -> int:
        """The sum of every design's distinct solutions."""
        return sum(d.solutions for d in self.designs)

    @property
    def unique(self) -> int:
        """Designs with exactly one solution."""
        return sum(1 for d in self.designs if d.solutions == 1)

    @property
    def histogram(self) -> dict[int, int]:
        """Number of designs for each number of solutions."""
        out: dict[int, int] = {}
        for d in self.designs:
            out[d.solutions] = out.get(d.solutions, 0) + 1
        return dict(sorted(out.items()))

    def to_dict(self, rows: int = 10) -> dict[str, object]:
        """A JSON-ready summary; ``rows`` designs with the most solutions are listed."""
        most = self.designs[0].solutions if self.designs else 0
        return {
            "target": self.region.describe(),
            "paths": self.paths,
            "designs": len(self.designs),
            "solutions": self.solutions,
            "unique": self.unique,
            "max_solutions": most,
            "most_solutions": [d.snake.turns() for d in self.designs if d.solutions == most][:rows],
            "palindromes": sum(1 for d in self.designs if d.palindrome),
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "complete": self.complete,
        }


def path_units(region: Region, min_units: int = 1) -> list[tuple[Cell, ...]]:
    """Path prefixes, one per orbit, whose stabilizer is trivial: every Hamiltonian path
    class under the region's symmetries extends exactly one of them. With ``min_units``,
    prefixes are extended further (every step, once no symmetry is left) until there are
    at least that many, for splitting the work."""
    from snakecube.search.plan import can_start

    nb = region.neighbours

    def expand(prefix: tuple[Cell, ...], stab: list[tuple[int, ...]], extra: int) -> None:
        if (len(stab) == 1 and extra == 0) or len(prefix) == region.volume:
            units.append(prefix)
            return
        seen: set[Cell] = set()
        for x in nb[prefix[-1]]:
            if x < 0 or x in prefix or x in seen:
                continue
            seen.update(g[x] for g in stab)
            expand((*prefix, x), [g for g in stab if g[x] == x], extra - (len(stab) == 1))

    extra = 0
    while True:
        units: list[tuple[Cell, ...]] = []
        for orbit in region.orbits():
            start = orbit[0]
            if can_start(region, start):
                expand((start,), [g for g in region.symmetries if g[start] == start], extra)
        if len(units) >= min_units or extra >= region.volume:
            return units
        extra += 1


def _paths_in_unit(region: Region, prefix: tuple[Cell, ...]) -> Iterator[tuple[list[Key], bytes]]:
    """Batches of (design keys, the paths' cells as n bytes each) of every Hamiltonian path
    extending ``prefix``."""
    from snakecube.search import _kernel

    n = region.volume
    nb = array("q", [x for row in region.neighbours for x in row])
    nbmask = array("Q", [sum(1 << x for x in row if x >= 0) for row in region.neighbours])
    path = array("q", [*prefix, *([0] * (n - len(prefix)))])
    dirs = array("q", [0] * (n + 1))
    for i in range(1, len(prefix)):
        dirs[i] = region.neighbours[prefix[i - 1]].index(prefix[i])
    nextd = array("q", [0] * (n + 1))
    meta = array("q", [len(prefix), 0])
    batch = 4096
    keys = array("q", [0] * batch)
    cells = array("b", [0] * (batch * n))
    occ = sum(1 << c for c in prefix)
    if len(prefix) == n:
        _, key = _key_of(region, prefix)
        yield [key], bytes(prefix)
        return
    while not meta[1]:
        got, _ = _kernel.hamiltonian_paths(
            nb, nbmask, path, len(prefix), occ, keys, cells, batch, nextd, dirs, 1 << 60, meta
        )
        occ = sum(1 << path[i] for i in range(meta[0]))
        yield keys[:got].tolist(), cells[: got * n].tobytes()


def _key_of(region: Region, path: Sequence[Cell]) -> tuple[Snake, Key]:
    snake = design_of([region.cells[c] for c in path])
    corners = snake.corner_cubes()
    return snake, sum(1 << (c - 1) for c in corners)


def _reverse_key(key: Key, n: int) -> Key:
    out = 0
    for i in range(n - 2):
        if key >> i & 1:
            out |= 1 << (n - 3 - i)
    return out


UnitResult = tuple[int, dict[Key, int], dict[Key, list[bytes]]]  # classes, counts, palindromic


def _census_unit(job: tuple[Region, tuple[Cell, ...]]) -> UnitResult:
    """The path classes under one prefix, grouped by design key."""
    region, prefix = job
    n = region.volume
    counts: Counter[Key] = Counter()
    palindromic: dict[Key, list[bytes]] = {}
    is_palindrome: dict[Key, bool] = {}
    classes = 0
    for keys, raw in _paths_in_unit(region, prefix):
        classes += len(keys)
        counts.update(keys)
        for i, key in enumerate(keys):
            pal = is_palindrome.get(key)
            if pal is None:
                pal = is_palindrome[key] = key == _reverse_key(key, n)
            if pal:
                palindromic.setdefault(key, []).append(raw[i * n : (i + 1) * n])
    return classes, dict(counts), palindromic


def _read_checkpoint(path: Path, header: dict[str, object]) -> dict[int, UnitResult]:
    """Finished units from a checkpoint file written by an earlier run of the same census."""
    done: dict[int, UnitResult] = {}
    if not path.exists():
        return done
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        first = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        first = None
    if first != header:
        raise InputError(
            f"checkpoint {str(path)!r} belongs to another census "
            f"(it is for {first.get('target') if isinstance(first, dict) else 'nothing'}); "
            "use another file"
        )
    for line in lines[1:]:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            break  # a line cut short when the run stopped: that unit is done again
        counts = {int(k): v for k, v in row["counts"].items()}
        pal = {int(k): [bytes.fromhex(h) for h in v] for k, v in row["pal"].items()}
        done[row["unit"]] = (row["classes"], counts, pal)
    return done


def census(
    region: Region,
    progress: Callable[[int, int, int], None] | None = None,
    workers: int | None = None,
    checkpoint: str | Path | None = None,
) -> Census:
    """Every design that folds into ``region`` (at most 64 cells), with its solutions.

    Hamiltonian paths are enumerated once per class under the region's symmetries (each
    class stands for |G| directed paths), grouped by the design they fold, and a design and
    its reverse are merged. A palindromic design's classes pair up under reversal, except
    those a symmetry maps onto their own reverse.

    The work units run on ``workers`` processes (default: all cores for regions of 24 cells
    or more). With ``checkpoint``, each finished unit is appended to that file, and a later
    run with the same file skips them: Ctrl-C loses only the units in progress, and the
    census is then marked incomplete.
    """
    from snakecube.search.parallel import cores

    if region.volume > 64:
        raise InputError(f"a census needs at most 64 cells; the {region.describe()} has more")
    n = region.volume
    if n < 2:
        raise InputError("a census needs at least 2 cells")
    n_workers = (cores() if n >= 24 else 1) if workers is None else max(1, workers)
    # The split depends on the region only, so a checkpoint resumes on any number of cores.
    units = path_units(region, min_units=64 if n >= 24 else 1)
    header = {"census": 1, "target": region.describe(), "cells": [list(c) for c in region.cells],
              "units": len(units)}  # fmt: skip
    path = None if checkpoint is None else Path(checkpoint)
    done = {} if path is None else _read_checkpoint(path, header)
    log = None
    if path is not None:
        try:
            log = path.open("a", encoding="utf-8")
            if not done:
                log.seek(0)
                log.truncate()
                log.write(json.dumps(header) + "\n")
        except OSError as err:
            raise InputError(f"cannot write checkpoint {str(path)!r}: {err.strerror}") from None
    todo = [i for i in range(len(units)) if i not in done]
    pool = None
    _FORKED["region"] = region
    if n_workers > 1 and len(todo) > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(n_workers)
        results = pool.imap_unordered(_census_one, [(i, units[i]) for i in todo], chunksize=4)
    else:
        results = map(_census_one, [(i, units[i]) for i in todo])
    complete = True
    try:
        for i, result in results:
            done[i] = result
            if log is not None:
                classes, counts, pal = result
                row = {"unit": i, "classes": classes, "counts": counts,
                       "pal": {k: [b.hex() for b in v] for k, v in pal.items()}}  # fmt: skip
                log.write(json.dumps(row) + "\n")
                log.flush()
            if progress is not None:
                progress(len(done), len(units), sum(r[0] for r in done.values()))
    except KeyboardInterrupt:
        complete = False
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if log is not None:
            log.close()
    complete = complete and len(done) == len(units)
    return _tally(region, done.values(), complete)


_FORKED: dict[str, Region] = {}  # the region, inherited by forked workers (not pickled)


def _census_one(job: tuple[int, tuple[Cell, ...]]) -> tuple[int, UnitResult]:
    i, prefix = job
    return i, _census_unit((_FORKED["region"], prefix))


def _tally(region: Region, results: Iterable[UnitResult], complete: bool) -> Census:
    """Merge unit results into designs with their solution counts."""
    n = region.volume
    counts: Counter[Key] = Counter()
    palindromic: dict[Key, list[bytes]] = {}
    classes = 0
    for c, unit_counts, pal in results:
        classes += c
        counts.update(unit_counts)
        for key, cells in pal.items():
            palindromic.setdefault(key, []).extend(cells)
    rows = []
    group = region.symmetries
    for key, c in counts.items():
        rev = _reverse_key(key, n)
        if rev < key:
            continue  # counted with its reverse
        bits = "0" + "".join("1" if key >> i & 1 else "0" for i in range(n - 2)) + "0"
        snake = Snake.from_bits(bits)
        if rev == key:
            fixed = 0
            for cells in palindromic[key]:
                forward = min(tuple(g[c] for c in cells) for g in group)
                backward = min(tuple(g[c] for c in reversed(cells)) for g in group)
                fixed += forward == backward
            rows.append(DesignCount(snake, (c + fixed) // 2, True))
        else:
            rows.append(DesignCount(snake, c, False))
    rows.sort(key=lambda d: (-d.solutions, d.snake.turns()))
    return Census(region, classes * len(group), tuple(rows), complete)


# -- flat layouts: the snake on an unbounded table -----------------------------------------

Point = tuple[int, int]
_SQUARE = (  # the 8 symmetries of the square, as maps of (x, y)
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (y, x), lambda x, y: (x, -y), lambda x, y: (-y, -x),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Flat:
    """The layouts of a snake on an unbounded table, first cube fixed at (0, 0)."""

    snake: Snake
    layouts: int  # every layout, any first direction
    most_compact: int  # layouts with the smallest bounding rectangle
    most_compact_distinct: int  # the same up to the 8 symmetries of the square
    bounding_box: tuple[int, int]  # that rectangle, short side first
    examples: tuple[tuple[Point, ...], ...]  # one most compact layout per distinct class
    complete: bool

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "snake": self.snake.turns(),
            "layouts": self.layouts,
            "most_compact": self.most_compact,
            "most_compact_distinct": self.most_compact_distinct,
            "bounding_box": list(self.bounding_box),
            "examples": [[list(p) for p in e] for e in self.examples],
            "complete": self.complete,
        }


def flat(snake: Snake, seconds: float | None = None) -> Flat:
    """Count the snake's flat layouts (seeds/004's ``flat``) and find the most compact.

    Compactness is the area of the bounding rectangle, then its longer side. Ctrl-C or the
    time limit stops the count and marks it incomplete.
    """
    import time

    deadline = None if seconds is None else time.monotonic() + seconds
    lengths = snake.lengths
    steps = ((1, 0), (0, 1), (-1, 0), (0, -1))
    cells: list[Point] = [(0, 0)]
    taken = {(0, 0)}
    best: tuple[int, int] | None = None
    best_layouts: list[tuple[Point, ...]] = []
    total = 0
    nodes = 0

    def place(k: int, axis: int) -> None:
        nonlocal total, best, nodes
        nodes += 1
        if deadline is not None and nodes % 4096 == 0 and time.monotonic() > deadline:
            raise TimeoutError
        if k == len(lengths):
            total += 1
            xs = [p[0] for p in cells]
            ys = [p[1] for p in cells]
            w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            score = (w * h, max(w, h))
            if best is None or score < best:
                best, best_layouts[:] = score, []
            if score == best:
                best_layouts.append(tuple(cells))
            return
        x, y = cells[-1]
        for d, (dx, dy) in enumerate(steps):
            if d % 2 == axis:
                continue
            new = [(x + dx * i, y + dy * i) for i in range(1, lengths[k])]
            if any(p in taken for p in new):
                continue
            cells.extend(new)
            taken.update(new)
            place(k + 1, d % 2)
            del cells[-len(new) :]
            taken.difference_update(new)

    complete = True
    try:
        place(0, -1)
    except (TimeoutError, KeyboardInterrupt):
        complete = False
    classes: dict[tuple[Point, ...], tuple[Point, ...]] = {}
    for layout in best_layouts:
        key = min(tuple(f(x, y) for x, y in layout) for f in _SQUARE)
        classes.setdefault(key, layout)
    box: tuple[int, int] = (0, 0)
    if best_layouts:
        xs = [p[0] for p in best_layouts[0]]
        ys = [p[1] for p in best_layouts[0]]
        box = tuple(sorted((max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)))  # type: ignore[assignment]
    examples = tuple(classes[k] for k in sorted(classes))
    return Flat(snake, total, len(best_layouts), len(classes), box, examples, complete)


# -- difficulty --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    """How hard a design is to fold (see :func:`rate`)."""

    snake: Snake
    region: Region
    difficulty: float | None  # None when the snake has no solution
    solutions: int  # distinct up to the target's symmetries and reversal
    easier_end: str  # "first" or "last"
    tries: int  # placements tried from the easier end

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "snake": self.snake.turns(),
            "target": self.region.describe(),
            "difficulty": None if self.difficulty is None else round(self.difficulty, 2),
            "solutions": self.solutions,
            "easier_end": self.easier_end,
            "tries": self.tries,
        }


def rate(snake: Snake | str, target: Region | str | None = None) -> Rating:
    """The difficulty of a design: log2(1 + the segment placements that a systematic solver,
    one who backs up as soon as a segment leaves the target, overlaps, or leaves a cell that
    can no longer be reached, tries per distinct solution), folding from the easier end.
    It is 0 for designs the root plan alone folds, and never negative.

    A person folding by trial and error works the same way, one segment at a time; more
    tries per solution means more wrong turns before the cube closes. One more point means
    twice the work. The search is the compiled kernel with dead-end and parity pruning, one
    process, so the score is the same on every machine.
    """
    from snakecube.search import as_target, kernel, solve

    if not kernel.AVAILABLE:
        raise InputError("rating needs the compiled kernel; reinstall with a C compiler")
    if isinstance(snake, str):
        region = None if target is None else as_target(target)
        snake = Snake.parse(snake, cubes=None if region is None else region.volume)
    region = as_target(target, snake)
    flags = str(kernel.DEAD_END | kernel.PARITY)
    import os

    saved = os.environ.get(kernel.FLAGS_ENV)
    os.environ[kernel.FLAGS_ENV] = flags
    try:
        ends = []
        for name, s in (("first", snake), ("last", snake.reversed())):
            r = solve(s, region, engine="kernel", workers=1)
            ends.append((r.nodes, name, r))
    finally:
        if saved is None:
            del os.environ[kernel.FLAGS_ENV]
        else:
            os.environ[kernel.FLAGS_ENV] = saved
    tries, end, best = min(ends, key=lambda e: (e[0], e[1]))
    solutions = best.distinct_up_to_reversal
    score = None if best.distinct == 0 else math.log2(1 + tries / best.distinct)
    return Rating(snake, region, score, solutions, end, tries)


# -- generating new designs ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Generated:
    """A new design, its distinct solutions (up to symmetry and reversal) and difficulty."""

    rating: Rating
    solution: object  # one Solution, for instructions

    def to_dict(self) -> dict[str, object]:
        """``{"turns", "segment_lengths", "difficulty", "solutions"}``."""
        d = self.rating
        return {
            "turns": d.snake.turns(),
            "segment_lengths": list(d.snake.lengths),
            "difficulty": None if d.difficulty is None else round(d.difficulty, 2),
            "solutions": d.solutions,
        }


def _check_candidate(job: tuple[Box, Snake, bool, int]) -> Generated | None:
    """One candidate, checked in a worker: the design if it qualifies, else None."""
    from snakecube.search import solve

    box, snake, unique, max_nodes = job
    # Two classes prove "not unique", or three for a palindrome (two may be one reversed).
    limit = (3 if snake.is_palindrome else 2) if unique else None
    check = solve(snake, box, limit=limit, workers=1, max_nodes=max_nodes)
    if not check.complete or (unique and check.distinct_up_to_reversal != 1):
        return None
    return Generated(rate(snake, box), check.solutions[0])


def generate(
    box: Box,
    count: int = 1,
    seed: int = 0,
    unique: bool = False,
    min_straights: int = 0,
    max_segment: int | None = None,
    max_nodes: int = 30_000_000,
    attempts: int = 10_000,
    workers: int | None = None,
) -> Iterator[Generated]:
    """Invent designs from random Hamiltonian paths of ``box``, reproducibly from ``seed``.

    Each candidate is the design of a well-mixed random path (so it has at least that
    solution). ``unique`` keeps only designs proven to have exactly one distinct solution up
    to symmetry and reversal; candidates whose check would take more than ``max_nodes``
    nodes are skipped (a node limit, unlike a time limit, keeps the output reproducible).
    Candidates are drawn in order from the seed and checked on all cores; results keep the
    candidates' order, so the output does not depend on the number of cores.
    """
    from snakecube.search.parallel import cores

    for name, value in (("count", count), ("attempts", attempts), ("max_nodes", max_nodes)):
        if value < 1:
            raise InputError(f"{name} must be at least 1, not {value}")
    if max_segment is not None and max_segment < 2:
        raise InputError(f"the longest segment must be at least 2, not {max_segment}")
    rng = random.Random(seed)

    def candidates() -> Iterator[tuple[Box, Snake, bool, int]]:
        seen: set[tuple[int, ...]] = set()
        for _ in range(attempts):
            path = random_path(box, rng, moves=5 * box.volume**2)  # well mixed, 4x quicker
            snake = design_of([box.cells[c] for c in path])
            key = min(snake.lengths, snake.lengths[::-1])
            if key in seen or snake.cubes - 1 - snake.segments < min_straights:
                continue
            if max_segment is not None and max(snake.lengths) > max_segment:
                continue
            seen.add(key)
            yield box, snake, unique, max_nodes

    n = cores() if workers is None else workers
    made = 0
    if n <= 1 or box.volume <= 27:  # small boxes: checking is quicker than forking
        results: Iterator[Generated | None] = map(_check_candidate, candidates())
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(n)
        results = pool.imap(_check_candidate, candidates(), chunksize=1)
    try:
        for found in results:
            if found is not None:
                yield found
                made += 1
                if made == count:
                    return
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
