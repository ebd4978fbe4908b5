"""Designs: snakes made from Hamiltonian paths.

A **design** is the snake a Hamiltonian path produces: its segment lengths. Random paths come
from the *backbite* Markov chain, which moves among the Hamiltonian paths of a region starting
from any one of them (for a box, a serpentine).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

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
