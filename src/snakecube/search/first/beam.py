"""The beam member: beam searches of doubling widths (``_loops.Beam``).

The ``beam`` member (``BeamMember``, ``_loops.Beam``) grows a whole population of partial
folds a segment at a time and keeps the ``width`` most compact (fewest faces between placed
and free cells): it does not commit to one early choice, which is where restarts and depth
first lose themselves on fully mixed 4x5x5 and 5x5x5 designs (docs/design-first.md, "The beam
member"). Its beams double in width every round of ``BEAM_ROUND`` (both ends, two scores).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass

from snakecube import compiled
from snakecube.search.first.member import Run, Setting
from snakecube.search.first.restarts import _loop_arrays, _starts
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex

_loops = compiled.extension("loops")


@dataclass(frozen=True, slots=True)
class Beamed:
    """What one beam search of the beam member did: ``cells`` (snake order) if it found a
    solution; ``decided`` if that settles the question (a solution, or a beam that never
    dropped a fold and died: a breadth-first search of the whole tree, so no fold)."""

    index: int
    nodes: int  # children made and checked
    decided: bool
    cells: tuple[CellIndex, ...] | None
    width: int
    end: int
    score: int
    level: int  # the segments placed (0-based) when it stopped

    @property
    def engine(self) -> str:
        """The member that ran: the name a result reports."""
        return "beam"


BEAM_BASE = 25_000  # the width of the first round's beams; each round doubles it, up to
# BEAM_WIDEST: about 370 MB a beam allocated (two 64-byte folds a place, four 56-byte
# children a fold; 290 MB at its peak on 5x5x5-s7, measured). The loop itself takes up to
# loops.BEAM_MAX_WIDTH (2^22); this is the portfolio's choice, for memory.
BEAM_WIDEST = 1 << 20
# The beams of one round, in order: (end, score kind), the score kind as in csrc/beam.h
# (0 compact, 1 also the walls)
BEAM_ROUND: tuple[tuple[int, int], ...] = ((0, 0), (1, 1), (1, 0), (0, 1))
# On the portfolio's scale of work, this many folds of a beam at one level weigh one restart
# node, so that beams and restarts advance side by side (measured, one core, the loop with
# its radix sort: the beams' nominal fold-levels against restart nodes a second, ratios
# 1.31-2.41 on 4x4x5 to 5x5x5 designs, median about 2); a beam's place on the scale is its
# nominal size, width x segments / BEAM_FOLDS_PER_NODE, known before it runs.
BEAM_FOLDS_PER_NODE = 2
# Where depth first sits out (``who_runs``: even its better end's tree is hopeless) and the
# restarts and beams run side by side, the restarts, depth-first searches too, have found no
# solution the beams did not find sooner (docs/design-first.md, the beam searches): beams weigh
# this many times less there and take most of the time.
BEAM_BIAS_HOPELESS = 4
BEAM_CHUNK = 1_000_000  # children per call of the loop, between checks of the time limit
BEAM_CELLS = 128  # the loop's masks are 128 bits


def beam_width(k: int) -> int:
    """The width of beam ``k`` (0-based) of the beam member: it doubles each round, up to
    ``BEAM_WIDEST`` (later rounds are new seeds at that width)."""
    return min(BEAM_BASE << min(k // len(BEAM_ROUND), 40), BEAM_WIDEST)


def beam_work(k: int, segments: int, bias: int = 1) -> int:
    """Beam ``k``'s nominal size on the portfolio's scale of work (``bias`` times lighter)."""
    return beam_width(k) * segments // (BEAM_FOLDS_PER_NODE * bias)


def _shifts(problem: Problem) -> tuple[list[int], list[int]] | None:
    """Per direction, the one offset from a cell to its neighbour and the two 64-bit words
    of the mask of cells that have one; None if some direction has no single offset."""
    nb, n = problem.neighbours, problem.ncells
    offsets, words = [], []
    for d in range(6):
        found = {nb[c][d] - c for c in range(n) if nb[c][d] >= 0}
        if len(found) > 1:
            return None
        offsets.append(found.pop() if found else 0)
        has = sum(1 << c for c in range(n) if nb[c][d] >= 0)
        words += [has & ((1 << 64) - 1), has >> 64]
    return offsets, words


def beam_fits(problem: Problem) -> bool:
    """Can the beam member search this problem (compiled, at most 128 cells, a box-like
    numbering with one offset per direction)?"""
    return _loops is not None and problem.ncells <= BEAM_CELLS and _shifts(problem) is not None


class BeamMember:
    """The beam member: beam searches (``_loops.Beam``) of doubling widths, each round every
    (end, score kind) of ``BEAM_ROUND``, each beam with its own seed. Beam ``k`` is fully fixed
    by ``k`` and the seed (docs/design-first.md, "The beam member")."""

    # The member's side (``first.member.Member``): beam k is run k.
    name = "beam"
    persistent = False

    def __init__(self, problem: Problem, seed: int = 0, bias: int = 1) -> None:
        """``bias``: beams weigh this many times less on the scale of work (``beam_work``)."""
        shifts = _shifts(problem)
        if _loops is None or problem.ncells > BEAM_CELLS or shifts is None:
            raise RuntimeError("the beam member needs the compiled loop and a box of <= 128 cells")
        self.problem: Problem = problem
        self.seed: int = seed
        self.nb, self.colours = _loop_arrays(problem.region)
        self.starts = array("i", _starts(problem.region))
        self.offsets, self.has = shifts
        self.bias = bias
        self._ends: list[int] = []  # place() of the beams so far

    @staticmethod
    def why_not(problem: Problem) -> str | None:
        """Why this member cannot run here, or None when it can."""
        if beam_fits(problem):
            return None
        return (
            f"strategy='beam' needs the compiled beam loop and a box of at most {BEAM_CELLS} cells"
        )

    @classmethod
    def make(cls, problem: Problem, setting: Setting) -> BeamMember:
        """The beams of ``problem`` with the lineup's seed and weight."""
        return cls(problem, setting.seed, setting.bias)

    def place(self, n: int) -> int:
        """Where beam ``n`` ends on the portfolio's scale of work: the beams' work up to it."""
        segments = len(self.problem.lengths)
        while len(self._ends) <= n:
            k = len(self._ends)
            self._ends.append((self._ends[-1] if k else 0) + beam_work(k, segments, self.bias))
        return self._ends[n]

    def settles(self, run: Run) -> bool:
        """A solution, or a beam that dropped nothing and died, ends the search."""
        assert isinstance(run, Beamed)
        return run.decided

    def close(self) -> None:
        """Nothing to release."""

    def plan(self, k: int) -> tuple[int, int, int, int]:
        """Beam ``k``'s width, end, score kind and seed."""
        end, score = BEAM_ROUND[k % len(BEAM_ROUND)]
        mixed = (self.seed * 0xD1B54A32D192ED03 + (k + 1) * 0x9E3779B97F4A7C15) % (1 << 64)
        return beam_width(k), end, score, mixed

    def run(self, k: int, stop: Callable[[], bool] | None = None) -> Beamed | None:
        """Run beam ``k`` to its end (None if ``stop()`` said so between chunks)."""
        assert _loops is not None
        width, end, score, seed = self.plan(k)
        lengths = self.problem.lengths[::-1] if end else self.problem.lengths
        beam = _loops.Beam(
            self.problem.ncells,
            self.nb,
            self.colours,
            array("i", lengths),
            self.starts,
            self.offsets,
            self.has,
            width,
            score,
            seed,
        )
        while not beam.run(BEAM_CHUNK):
            if stop is not None and stop():
                return None
        cells = None
        if beam.found:
            searched = self.problem.reversed() if end else self.problem
            path = searched.path(*beam.solution)
            cells = tuple(path[::-1] if end else path)
        decided = bool(beam.found) or bool(beam.complete)
        return Beamed(k, beam.nodes, decided, cells, width, end, score, beam.level)
