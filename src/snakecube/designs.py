"""Designs: snakes made from Hamiltonian paths.

A **design** is the snake a Hamiltonian path produces: its segment lengths. Random paths come
from the *backbite* Markov chain, which moves among the Hamiltonian paths of a region starting
from any one of them (for a box, a serpentine).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from snakecube import limits, pool, stop
from snakecube.errors import InputError
from snakecube.search import kernel, solve
from snakecube.search.engine import Engine
from snakecube.search.estimate import end_sizes
from snakecube.search.inputs import as_snake, as_target, compile_inputs, too_long
from snakecube.search.options import Progress, Prune
from snakecube.search.problem import Problem
from snakecube.search.reference import Reference
from snakecube.search.strategy import last_end_pays
from snakecube.shape import Box, CellIndex, Coord, Region
from snakecube.snake import End, Snake
from snakecube.solution import Result, Solution
from snakecube.stop import StopReason


def serpentine(box: Box) -> list[CellIndex]:
    """A Hamiltonian path of a box: rows back and forth, layers back and forth."""
    a, b, c = box.dims
    out: list[CellIndex] = []
    row = 0
    for z in range(c):
        for y in range(b) if z % 2 == 0 else reversed(range(b)):
            xs = range(a) if row % 2 == 0 else reversed(range(a))
            out.extend(box.index[(x, y, z)] for x in xs)
            row += 1
    return out


def backbite(
    region: Region,
    path: list[CellIndex],
    rng: random.Random,
    moves: int,
    straightness: float = 0.0,
) -> list[CellIndex]:
    """Apply ``moves`` random backbite moves to a Hamiltonian path of ``region``.

    A move picks an end and one of its neighbours in the region; if the neighbour is not the
    end's own predecessor, the path is cut after the neighbour and the loose piece reversed.
    With ``straightness`` b > 0, a move that adds d corners is kept only with probability
    exp(-b d) (a Metropolis chain), so the paths lean towards long straight runs.
    """
    path = list(path)
    nb = region.neighbours
    cells = region.cells
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        end = path[-1]
        options = [n for n in nb[end] if n >= 0]
        pick = options[rng.randrange(len(options))]
        if len(path) > 1 and pick == path[-2]:
            continue
        i = path.index(pick)
        if straightness > 0:
            d = _added_corners(cells, path, i)
            if d > 0 and rng.random() >= math.exp(-straightness * d):
                continue
        path[i + 1 :] = path[i + 1 :][::-1]
    return path


def _added_corners(cells: Sequence[Coord], path: list[CellIndex], i: int) -> int:
    """How many corners the backbite move joining path[-1] to path[i] adds: only path[i]
    (new next cube), the old end (now inside) and path[i + 1] (now the end) change."""

    def corner(a: int | None, b: int, c: int | None) -> int:
        if a is None or c is None:
            return 0
        pa, pb, pc = cells[a], cells[b], cells[c]
        return int(any(pa[k] + pc[k] != 2 * pb[k] for k in range(3)))

    def at(k: int) -> int | None:
        return path[k] if 0 <= k < len(path) else None

    m = len(path) - 1
    before = corner(at(i - 1), path[i], at(i + 1)) + corner(path[i], path[i + 1], at(i + 2))
    after = corner(at(i - 1), path[i], path[m]) + corner(path[i], path[m], at(m - 1))
    return after - before


def random_path(box: Box, rng: random.Random, moves: int | None = None) -> list[CellIndex]:
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
    """How hard a design is to fold (see :func:`rate`). When the search was stopped
    (``complete`` is False), ``difficulty`` is None and the counts are lower bounds."""

    snake: Snake
    region: Region
    difficulty: float | None  # None when the snake has no solution, or the search stopped
    distinct: int  # solutions up to the target's symmetries and reversal
    easier_end: End  # the end whose search visits fewer nodes
    tries: int  # placements tried from the easier end
    complete: bool = True
    stop_reason: StopReason | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "snake": self.snake.turns(),
            "target": self.region.describe(),
            "difficulty": None if self.difficulty is None else round(self.difficulty, 2),
            "scale": None if self.difficulty is None else scale_words(self.difficulty),
            "solutions": self.distinct,
            "easier_end": self.easier_end,
            "tries": self.tries,
            "complete": self.complete,
            "stop_reason": self.stop_reason,
        }


def rating_engine() -> Engine:
    """The engine every score is measured with: dead-end and parity pruning, compiled where
    possible. The pure-Python engine visits the same nodes, so scores never depend on it."""

    prune = Prune.DEAD_END | Prune.PARITY
    return kernel.Kernel(prune) if kernel.AVAILABLE else Reference(prune)


def rate(
    snake: Snake | str,
    target: Region | str | None = None,
    *,
    seconds: float | None = None,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> Rating:
    """The difficulty of a design: log2(1 + the segment placements that a systematic solver,
    one who backs up as soon as a segment leaves the target, overlaps, or leaves a cell that
    can no longer be reached, tries per distinct solution), folding from the easier end.
    It is 0 for designs the root plan alone folds, and never negative.

    A person folding by trial and error works the same way, one segment at a time; more
    tries per solution means more wrong turns before the cube closes. One more point means
    twice the work. The search has fixed pruning and one process, so the score is the same
    on every machine. Ctrl-C, or ``seconds`` running out, stops it: the rating is then
    incomplete and has no score. So does ``max_nodes``, a limit on each end's search (a
    node limit keeps the answer the same on every machine): the rating is then incomplete,
    with ``stop_reason`` "nodes", unless the other end is searched whole within it.

    Each end is searched whole, the one ``solve`` would pick first (``last_end_pays``: a
    design that cannot fold is proved so there, as ``solve`` proves it), then the other only
    as far as the first end's tries, since only fewer tries would change the answer.
    ``progress`` is ``solve``'s.
    """

    deadline = None if seconds is None else time.monotonic() + limits.seconds(seconds)
    if max_nodes is not None:
        limits.whole(max_nodes, "max_nodes", 1, 2**62)

    region = None if target is None else as_target(target)
    snake = as_snake(snake, region)
    region = as_target(target, snake) if region is None else region
    if too_long(snake, region):  # a run longer than any line of cells: no search needed
        return Rating(snake, region, None, 0, End.FIRST, 0)
    engine = rating_engine()
    order = [(End.FIRST, snake), (End.LAST, snake.reversed())]
    if last_end_pays(compile_inputs(snake, region)):
        order.reverse()
    ends: list[tuple[int, End, Result]] = []
    cut: tuple[End, Result] | None = None  # an end stopped at max_nodes
    for name, s in order:
        left = None if deadline is None else max(1e-3, deadline - time.monotonic())
        bound = max_nodes  # and no more than the other end's tries
        if ends:
            bound = max(1, ends[0][0]) if max_nodes is None else min(max_nodes, max(1, ends[0][0]))
        r = solve(
            s,
            region,
            engine=engine,
            workers=1,
            seconds=left,
            reverse=False,
            max_nodes=bound,
            progress=progress,
        )
        if r.stop_reason == StopReason.NODES:  # more tries than the other end, or than max_nodes
            if not ends and (cut is None or r.distinct > cut[1].distinct):
                cut = (name, r)
            continue
        if not r.complete:  # never a score from a partial search
            return _unrated(snake, region, name, r, r.stop_reason)
        ends.append((r.nodes, name, r))
    if not ends:  # both ends stopped at max_nodes: the counts are lower bounds
        assert cut is not None
        name, r = cut
        return _unrated(snake, region, name, r, StopReason.NODES)
    tries, end, best = min(ends, key=lambda e: (e[0], e[1]))
    score = None if best.distinct == 0 else math.log2(1 + tries / best.distinct)
    return Rating(snake, region, score, best.distinct_up_to_reversal, end, tries)


def _unrated(snake: Snake, region: Region, end: End, r: Result, stop: StopReason | None) -> Rating:
    """No rating: the search from ``end`` stopped before its count ended (its count a lower
    bound on the solutions)."""
    return Rating(
        snake,
        region,
        None,
        r.distinct_up_to_reversal,
        end,
        r.nodes,
        complete=False,
        stop_reason=stop,
    )


# -- generating new designs ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Generated:
    """A new design, the path it was made from (a solution, so it needs no search to prove
    it folds), and its rating. Made for several boxes (``also``), ``ratings`` and
    ``solutions`` hold one per box, the first box's first (``rating``, ``solution``)."""

    rating: Rating
    solution: Solution  # the design's own path
    ratings: tuple[Rating, ...] = ()
    solutions: tuple[Solution, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """``{"turns", "segment_lengths", "difficulty", "solutions", "cells"}``, of the first
        box; for several boxes also ``targets``: per box its ``target``, ``solutions``,
        ``difficulty`` and a solution's ``cells``."""
        d = self.rating
        out: dict[str, object] = {
            "turns": d.snake.turns(),
            "segment_lengths": list(d.snake.lengths),
            "difficulty": None if d.difficulty is None else round(d.difficulty, 2),
            "scale": None if d.difficulty is None else scale_words(d.difficulty),
            "solutions": d.distinct,
            "cells": [list(c) for c in self.solution.cells],
        }
        if len(self.ratings) > 1:
            out["targets"] = [
                {
                    "target": r.region.describe(),
                    "solutions": r.distinct,
                    "difficulty": None if r.difficulty is None else round(r.difficulty, 2),
                    "cells": [list(c) for c in sol.cells],
                }
                for r, sol in zip(self.ratings, self.solutions, strict=True)
            ]
        return out


def _stopped(result: Result) -> bool:
    """True when a search was cut short by a limit; Ctrl-C is passed on, never swallowed."""
    if result.stop_reason == StopReason.INTERRUPTED:
        raise KeyboardInterrupt
    return not result.complete


OUT_OF_TIME = "out of time"  # what a candidate check yields when the deadline came first


def _time_left(deadline: float | None) -> float | None:
    """The seconds left before ``deadline`` (a ``time.monotonic()``), None without one."""
    return None if deadline is None else deadline - time.monotonic()


def _check_candidate(
    job: tuple[tuple[Box, ...], Snake, tuple[CellIndex, ...], tuple[bool, ...], int, float | None],
) -> Iterator[Generated | str]:
    """One candidate, checked in a worker: yields the design if it qualifies (in every box:
    it folds, with one solution where ``unique`` says so), or OUT_OF_TIME if the deadline
    came before that was decided. The candidate is a path of the first box; the others are
    searched, from the end whose tree is estimated smaller."""

    boxes, snake, path, unique, max_nodes, deadline = job
    found = [Solution(snake, boxes[0], path)]
    for i, box in enumerate(boxes):
        if i == 0 and not unique[0]:
            continue  # the candidate's own path is its solution there
        # Two classes prove "not unique", or three for a palindrome (two may be one reversed).
        limit = (3 if snake.is_palindrome else 2) if unique[i] else 1
        left = _time_left(deadline)
        if left is not None and left <= 0:
            yield OUT_OF_TIME
            return
        check = _search(snake, box, limit, max_nodes, better_end=i > 0, seconds=left)
        if check.stop_reason == StopReason.INTERRUPTED:
            raise KeyboardInterrupt
        if check.stop_reason == StopReason.SECONDS:
            yield OUT_OF_TIME
            return
        if not check.solutions or (unique[i] and _stopped(check)):
            return  # no fold within the node limit; or a second one, or no proof there is none
        if unique[i] and check.distinct_up_to_reversal != 1:
            return
        if i > 0:
            found.append(check.solutions[0])
    ratings = []
    for box in boxes:
        left = _time_left(deadline)
        if left is not None and left <= 0:
            yield OUT_OF_TIME
            return
        rating = rate(snake, box, seconds=left, max_nodes=max_nodes)
        if rating.stop_reason == StopReason.INTERRUPTED:
            raise KeyboardInterrupt
        if rating.stop_reason == StopReason.SECONDS:
            yield OUT_OF_TIME
            return
        if not rating.complete:  # stopped at max_nodes: no difficulty; its own path folds
            rating = replace(rating, distinct=max(1, rating.distinct))
        ratings.append(rating)
    several = len(boxes) > 1
    yield Generated(
        ratings[0], found[0], tuple(ratings) if several else (), tuple(found) if several else ()
    )


def _search(
    snake: Snake,
    box: Box,
    limit: int,
    max_nodes: int,
    better_end: bool,
    seconds: float | None = None,
) -> Result:
    """Up to ``limit`` solutions of ``snake`` in ``box``, within ``max_nodes`` nodes (and
    ``seconds``); with
    ``better_end``, searched from the end with the smaller estimated tree (a search that
    must finish to prove a count is often far shorter from one end), and read from cube 1."""
    reverse = False
    if better_end and not snake.is_palindrome and box.volume > pool.SMALL_JOB_CELLS:
        first, last = end_sizes(Problem.build(snake, box))
        reverse = last < first
    result = solve(
        snake, box, limit=limit, workers=1, max_nodes=max_nodes, reverse=reverse, seconds=seconds
    )
    if not reverse:
        return result
    forwards = tuple(Solution(snake, box, tuple(reversed(s.path))) for s in result.solutions)
    return replace(result, snake=snake, solutions=forwards, reversed=False)


UNIQUE_STRAIGHTNESS = 1.0  # measured in docs/design-designs.md: unique 4x4x4 designs come faster
# Samples drawn per candidate at most: 8x8 paths with no segment over 4 cubes (to fit the
# 4x4x4 cube) are about 1 in 37 (docs/design-designs.md).
DRAWS_PER_ATTEMPT = 100


def generate(
    box: Box,
    count: int = 1,
    seed: int = 0,
    unique: bool | Sequence[int] = False,
    min_straights: int = 0,
    max_segment: int | None = None,
    max_nodes: int = 30_000_000,
    attempts: int | None = None,
    workers: int | None = None,
    straightness: float | None = None,
    also: Sequence[Box] = (),
    progress: Progress | None = None,
    seconds: float | None = None,
    min_difficulty: float | None = None,
) -> Iterator[Generated]:
    """Invent designs from random Hamiltonian paths of ``box``, reproducibly from ``seed``.

    Each candidate is the design of a well-mixed random path (so it has at least that
    solution). ``unique`` keeps only designs proven to have exactly one distinct solution up
    to symmetry and reversal; candidates whose check would take more than ``max_nodes``
    nodes are skipped (a node limit, unlike a time limit, keeps the output reproducible).
    Candidates are drawn in order from the seed and checked on all cores; results keep the
    candidates' order, so the output does not depend on the number of cores. Candidates
    are samples of one backbite chain, ``n**2`` moves apart after ``5 n**2`` moves to mix;
    at most ``attempts`` are drawn (default ``max(1000, 200 * count)``; for several boxes,
    ``attempts`` that fit them all, of at most ``DRAWS_PER_ATTEMPT`` times as many).
    ``straightness`` (default: UNIQUE_STRAIGHTNESS with ``unique``, else 0) leans the chain
    towards paths with long straight runs (see :func:`backbite`): their designs are more
    often unique, and quicker to prove so.

    ``also`` lists more boxes of the same size: a design must then fold into each of them
    as well (found by a search with the same node limit), and ``unique`` may be True (one
    solution in every box), False, or the positions of the boxes where it must be unique
    (0 for ``box``, 1 for ``also[0]``, ...). Candidates are then drawn from the box with the
    fewest pairs of touching cells (the flat one of 4x4x4 and 8x8x1: it has the fewer
    paths, so its designs fold elsewhere more often), with no segment longer than the
    shortest of the boxes' longest sides, and uniform paths (straightness 0) by default.

    Each design is rated (:func:`rate`) within ``max_nodes`` nodes per end; a rating that
    needs more (common in 5x5x5, where counting every solution may take days) is kept
    incomplete: no difficulty, and a lower bound on the solutions.

    ``seconds`` bounds the whole run, every phase (mixing the chain, drawing, checking,
    rating): when they run out, the generator ends after the designs found by then, the
    same first designs a longer run finds. Ctrl-C ends it with KeyboardInterrupt (the
    designs already yielded are the caller's).

    ``min_difficulty`` keeps only designs rated at least that hard (:func:`rate`; a rating
    stopped at its node limit does not count): hard designs are rare (about one unique
    4x4x4 design in six is rated 18 or more), so it draws that many more.

    ``progress(samples, most, found)`` is called for every sample of the chain drawn and
    while the workers check candidates (``most``: the samples that may be drawn); a progress
    with a ``work(done, total)`` method is told the designs found and asked for first.
    """

    if min_difficulty is not None:
        min_difficulty = limits.number(min_difficulty, "min_difficulty", 0.0, 100.0)
        if attempts is None:
            attempts = max(1000, 200 * count) * HARD_DRAWS
    count, attempts = _checked_options(
        box, count, seed, attempts, max_nodes, min_straights, max_segment, straightness
    )
    deadline = None if seconds is None else time.monotonic() + limits.seconds(seconds)
    drawn, marks, order, straightness, max_segment = _draw_order(
        box, also, unique, straightness, max_segment
    )
    rng = random.Random(seed)
    draws = DRAWS_PER_ATTEMPT if len(drawn) > 1 else 1
    tally = _Tally(progress, count, attempts * draws)
    tick = tally.tick

    chosen = _candidates(
        drawn[0],
        rng,
        attempts,
        straightness,
        min_straights,
        max_segment,
        draws,
        tick,
        deadline,
    )
    jobs = ((drawn, snake, path, marks, max_nodes, deadline) for snake, path in chosen)
    n = limits.cores() if workers is None else limits.workers(workers)
    found: Generator[Generated | str, None, None]
    if n <= 1 or box.volume <= pool.SMALL_JOB_CELLS:  # checking is quicker than forking
        found = (g for job in jobs for g in _check_candidate(job))
    else:
        found = _in_candidate_order(pool.run(_check_candidate, jobs, n), tick)
    try:
        for g in found:
            if isinstance(g, str):  # OUT_OF_TIME: this candidate was not decided in time
                return
            hard = g.rating.difficulty
            if min_difficulty is not None and (hard is None or hard < min_difficulty):
                continue
            tally.found += 1
            tick()
            yield g if order[0] == 0 else _in_order(g, order)
            if tally.found == count:
                return
    finally:
        found.close()  # the workers stop now, not when the generator is collected


@dataclass
class _Tally:
    """What :func:`generate` tells its ``progress``: the samples drawn and the designs found."""

    progress: Progress | None
    count: int  # the designs asked for
    most: int  # the samples that may be drawn
    samples: int = 0
    found: int = 0

    def tick(self, samples: int | None = None) -> None:
        if samples is not None:
            self.samples = samples
        if self.progress is not None:
            # The work is the designs asked for (the samples drawn bound it far above them):
            # a bar's time left then follows the designs found so far.
            report = getattr(self.progress, "work", None)
            if report is not None:
                report(self.found, self.count)
            self.progress(self.samples, self.most, self.found)


def _draw_order(
    box: Box,
    also: Sequence[Box],
    unique: bool | Sequence[int],
    straightness: float | None,
    max_segment: int | None,
) -> tuple[tuple[Box, ...], tuple[bool, ...], tuple[int, ...], float, int | None]:
    """The boxes in the order candidates are drawn and checked (the one with the fewest pairs
    of touching cells first: it has the fewest paths), whether each must be unique, that
    order as positions in ``(box, *also)``, and the straightness and longest segment the
    drawing uses."""
    boxes, flags = _checked_boxes(box, also, unique)
    if straightness is None:
        straightness = (UNIQUE_STRAIGHTNESS if len(boxes) == 1 else 0.0) if any(flags) else 0.0
    if len(boxes) > 1:
        fits = min(max(b.dims) for b in boxes)
        max_segment = fits if max_segment is None else min(max_segment, fits)
    k = min(range(len(boxes)), key=lambda i: (_adjacent_pairs(boxes[i]), i))
    order = (k, *(i for i in range(len(boxes)) if i != k))
    drawn = tuple(boxes[i] for i in order)
    marks = tuple(flags[i] for i in order)
    return drawn, marks, order, float(straightness), max_segment


HARD_DRAWS = 10  # with a minimum difficulty, this many times the attempts may be drawn

# The catalog's puzzles by difficulty (docs/difficulty.md; tests/test_designs.py checks these
# against their ratings): the scale a difficulty is said against.
SCALE = (
    ("the king", 20.73),
    ("King B", 16.37),
    ("seed-blue", 8.79),
    ("seed-red", 8.75),
    ("cubra-orange", 8.46),
    ("seed-orange", 8.17),
    ("the standard snake", 5.46),
    ("mean-green", 4.64),
)
NEAR = 0.5  # points: within this of a catalog puzzle, "about as hard as" it


def scale_words(difficulty: float) -> str:
    """A difficulty against the catalog's puzzles: 'about as hard as the king, 20.73',
    'between King B, 16.37, and the king, 20.73', 'harder than the king, 20.73'.

    >>> scale_words(20.29)
    'about as hard as the king, 20.73'
    >>> scale_words(18.0)
    'between King B, 16.37, and the king, 20.73'
    """
    name, best = min(SCALE, key=lambda e: abs(e[1] - difficulty))
    if abs(best - difficulty) <= NEAR:
        return f"about as hard as {name}, {best:.2f}"
    top, low = SCALE[0], SCALE[-1]
    if difficulty > top[1]:
        return f"harder than {top[0]}, {top[1]:.2f}"
    if difficulty < low[1]:
        return f"easier than {low[0]}, {low[1]:.2f}"
    above = min((e for e in SCALE if e[1] > difficulty), key=lambda e: e[1])
    below = max((e for e in SCALE if e[1] < difficulty), key=lambda e: e[1])
    return f"between {below[0]}, {below[1]:.2f}, and {above[0]}, {above[1]:.2f}"


def _adjacent_pairs(box: Box) -> int:
    """How many pairs of cells of ``box`` touch: fewer pairs, fewer Hamiltonian paths."""
    a, b, c = box.dims
    return (a - 1) * b * c + a * (b - 1) * c + a * b * (c - 1)


def _in_order(g: Generated, order: tuple[int, ...]) -> Generated:
    """``g`` with its ratings and solutions in the boxes' order as given."""
    back = sorted(range(len(order)), key=lambda j: order[j])
    ratings = tuple(g.ratings[j] for j in back)
    solutions = tuple(g.solutions[j] for j in back)
    return Generated(ratings[0], solutions[0], ratings, solutions)


def _checked_boxes(
    box: Box, also: Sequence[Box], unique: bool | Sequence[int]
) -> tuple[tuple[Box, ...], tuple[bool, ...]]:
    """The boxes (``box`` first) and, for each, whether its solution must be unique."""
    if isinstance(also, Box) or not isinstance(also, Sequence):
        raise TypeError("generate(also=...) needs a list of Boxes")
    boxes = (box, *also)
    for b in also:
        if not isinstance(b, Box):
            raise TypeError(f"generate() needs Boxes, not {type(b).__name__}")
        if b.volume != box.volume:
            raise InputError(
                f"the boxes must have equal size: the {box.describe()} has {box.volume} cells, "
                f"the {b.describe()} has {b.volume}"
            )
    if len({b.cells for b in boxes}) < len(boxes):
        raise InputError("a box is given twice")
    if isinstance(unique, bool):
        return boxes, (unique,) * len(boxes)
    marked = set()
    for i in unique:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(boxes):
            raise InputError(f"unique: {i!r} is not the position of one of the {len(boxes)} boxes")
        marked.add(i)
    return boxes, tuple(i in marked for i in range(len(boxes)))


def _checked_options(
    box: Box,
    count: int,
    seed: int,
    attempts: int | None,
    max_nodes: int,
    min_straights: int,
    max_segment: int | None,
    straightness: float | None,
) -> tuple[int, int]:
    """Check generate()'s options (TypeError, InputError); the count and the attempts."""
    if not isinstance(box, Box):
        raise TypeError(f"generate() needs a Box, not {type(box).__name__}")
    limits.cell_count(box.volume, f"the {box.describe()}", limits.MAX_GENERATE_CELLS, "generate")
    if box.volume < 2:
        raise InputError(f"the {box.describe()} has 1 cell; a snake needs at least 2 cubes")
    count = limits.whole(count, "count", 1)
    limits.whole(seed, "seed", 0, 2**64)
    attempts = max(1000, 200 * count) if attempts is None else limits.whole(attempts, "attempts", 1)
    limits.whole(max_nodes, "max_nodes", 1, 2**62)
    limits.whole(min_straights, "min_straights", 0)
    most = max_straights(box)
    if min_straights > most:
        raise InputError(
            f"min_straights {min_straights}: a snake that fills the {box.describe()} has at most "
            f"{most} straight cubes"
        )
    if max_segment is not None:
        limits.whole(max_segment, "max_segment", 2)
    if straightness is not None and (
        not isinstance(straightness, int | float) or not 0 <= straightness <= 10
    ):
        raise InputError(f"straightness {straightness!r}: give a number from 0 to 10")
    return count, attempts


def _candidates(
    box: Box,
    rng: random.Random,
    attempts: int,
    bias: float,
    min_straights: int,
    max_segment: int | None,
    draws: int = 1,
    tick: Callable[[int], None] | None = None,
    deadline: float | None = None,
) -> Iterator[tuple[Snake, tuple[CellIndex, ...]]]:
    """The designs of samples of one backbite chain (``n**2`` moves apart, after ``5 n**2`` to
    mix), each design once, that have the straights and segment lengths asked for. Of
    ``attempts`` samples; with ``draws`` > 1, of ``attempts`` samples that have them (a
    design met again counts), out of at most ``draws`` times as many in all. ``tick(k)`` is
    called with each sample's number. Nothing more is drawn once ``deadline`` is past."""
    seen: set[tuple[int, ...]] = set()
    path = serpentine(box)
    for _ in range(5):  # well mixed, in five steps, each ended by a look at the clock
        stop.poll()  # a Ctrl-C that Python dropped (in a finalizer) still stops
        if deadline is not None and time.monotonic() >= deadline:
            return
        path = backbite(box, path, rng, box.volume**2, bias)
    kept = 0
    for i in range(attempts * draws):
        stop.poll()
        if deadline is not None and time.monotonic() >= deadline:
            return
        if tick is not None:
            tick(i + 1)
        path = backbite(box, path, rng, box.volume**2, bias)  # the next sample
        snake = design_of([box.cells[c] for c in path])
        wanted = snake.cubes - 1 - snake.segments >= min_straights and (
            max_segment is None or max(snake.lengths) <= max_segment
        )
        key = min(snake.lengths, snake.lengths[::-1])
        if wanted and key not in seen:
            seen.add(key)
            yield snake, tuple(path)
        kept += wanted or draws == 1
        if kept == attempts:
            return


def _in_candidate_order(
    events: Iterator[Any], waiting_tick: Callable[[], None]
) -> Generator[Generated | str, None, None]:
    """The designs the workers found (and their OUT_OF_TIME), released in candidate order,
    so any core count gives the same designs; ``waiting_tick()`` is called while the
    workers have nothing new."""
    waiting: dict[int, list[Generated | str | None]] = {}
    released = 0
    for event in events:
        if event is None:
            waiting_tick()
            continue
        waiting.setdefault(event.job, []).append(None if event.done else event.value)
        while released in waiting and waiting[released][-1:] == [None]:
            yield from (g for g in waiting.pop(released)[:-1] if g is not None)
            released += 1


def max_straights(box: Box) -> int:
    """An upper bound on the straight cubes of a snake that fills ``box``: no straight run
    is longer than the box's longest side, so there are at least ceil((n - 1) / (side - 1))
    segments, and a corner between each two."""
    n, side = box.volume, max(box.dims)
    if n < 3 or side < 2:
        return 0
    segments = -(-(n - 1) // (side - 1))
    return n - 2 - (segments - 1)
