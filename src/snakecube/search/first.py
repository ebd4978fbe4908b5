"""The first-solution portfolio for floppy big snakes: randomised restarts, and a SAT solver.

Exhaustive depth-first search (``kernel``) answers "how many?"; for "is there one?" on a big
target it can spend its whole budget under one bad early choice. Here each *restart* is a
fresh search (``_first.FirstSearch``) from one start cell (one per symmetry orbit whose
colour allows a start), from one end of the snake, with its own random order of directions
(fewest ways on first, ties broken at random) and a node budget: ``BASE`` times a term of
the Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), one term per round (below). Restart ``i`` is
fully fixed by ``i`` and the seed, so the answer depends only on the inputs and the seed,
never on timing or the number of workers: with several workers, the solution kept is the
one of the lowest restart that found one, and it is accepted only when every lower restart
has finished.

Some restarts are *sweeps* (``flags.FIRST_SWEEP``): a sweep starts on a cell of the first
layer along some direction and may not place a cube more than 1, 2 or 3 layers past the first
layer with a free cell, so it fills the target layer by layer and leaves no pockets behind,
which is where free restarts lose themselves on the biggest designs (docs/design.md,
"Sweeps"). Some are *middle out* (``_first.ArmsSearch``): they place a long segment first (a
pivot) and grow the snake from it towards both ends, the longer next segment first, because
a search from an end fails where a long segment comes late and no straight line is left free
for it (docs/design.md, "Middle out"). The restarts come in rounds of ``ROUND``: in each,
every kind of restart once, all with the same budget, so the long runs of the Luby sequence
go to every kind.

The restarts check only dead ends, the end's colour and, from an end, the tail (the last
segments fit back from a known end cell), and try the fewest ways on first (``CHECKS``;
middle out ``ARMS_CHECKS``): the blocks and forced passages cut nodes but cost ten times the
time per node, and at equal time the cheap restarts find more (docs/design.md, "Cheap
restarts").

A free restart whose search space is used up (``finished``) proves that no solution starts at
its cell from its end; when that holds for every start cell of one end, the snake does not
fold. A sweep proves nothing.

The ``beam`` member (``BeamMember``, ``_beam.Beam``) grows a whole population of partial
folds a segment at a time and keeps the ``width`` most compact (fewest faces between placed
and free cells): it does not commit to one early choice, which is where restarts and depth
first lose themselves on fully mixed 4x5x5 and 5x5x5 designs (docs/design.md, "The beam
member"). Its beams double in width every round of ``BEAM_ROUND`` (both ends, two scores).

The ``sat`` member (``search.sat``: CaDiCaL through python-sat) learns a clause
from every dead end instead of forgetting it at the next restart; it finds first solutions of
designs the restarts do not, and proves unfoldable snakes unfoldable. ``search`` runs the
members side by side and accepts their runs in one fixed order (see there).

This is a pure heuristic layer over exact pruning; every solution is verified by
``Solution.verify`` like any other.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from itertools import accumulate, chain, count
from typing import NamedTuple

from snakecube import compiled
from snakecube.search import sat
from snakecube.search.engine import Engine, Stats
from snakecube.search.flags import (
    DEFAULT_PRUNE,
    FIRST_BLOCKS,
    FIRST_FEWEST_WAYS,
    FIRST_FORCED,
    FIRST_TAIL,
)
from snakecube.search.plan import Unit, can_start, colour, end_colour, make_plan
from snakecube.search.problem import Problem
from snakecube.search.sat import Slice
from snakecube.shape import CellIndex, Region

_first = compiled.extension("first")
_beam = compiled.extension("beam")
AVAILABLE = _first is not None

BASE = 20_000  # nodes of the shortest restart


class Kind(NamedTuple):
    """A kind of restart: from an end of the snake or ``middle`` out (``ArmsSearch``, from a
    pivot on a long segment), free (``width`` None) or a sweep ``width`` layers wide."""

    middle: bool
    width: int | None


# The kinds of restart in one round, in order.
ROUND: tuple[Kind, ...] = (
    Kind(False, None), Kind(False, 2), Kind(True, None), Kind(False, 1),
    Kind(False, None), Kind(True, 2), Kind(True, None), Kind(False, 3),
)  # fmt: skip
PIVOT_LENGTH = 4  # middle-out restarts pivot on the segments at least this long (else the longest)
# What the restarts check, besides dead ends and colours (always): from an end, the tail (the
# last segments fit back from a known end cell) and the fewest-ways order; middle out, the
# order only (its tail check, FIRST_TAIL there too, halved its restarts a second: measured).
CHECKS = FIRST_FEWEST_WAYS | FIRST_TAIL
ARMS_CHECKS = FIRST_FEWEST_WAYS
ALL_CHECKS = FIRST_BLOCKS | FIRST_FORCED | FIRST_FEWEST_WAYS


def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    if i < 1:
        raise ValueError("Luby terms are numbered from 1")
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


Sweep = tuple[int, int]  # (direction, width) of a restart that fills the target as a sweep


@dataclass(frozen=True, slots=True)
class Restart:
    """What one restart did: ``cells`` (snake order) if it found a solution."""

    index: int
    end: int  # 0: from the first end; 1: from the last
    start: CellIndex
    nodes: int
    finished: bool  # its whole search space used up (never said of a sweep)
    cells: tuple[CellIndex, ...] | None
    sweep: Sweep | None = None
    pivot: int | None = None  # the segment a middle-out restart started from (``start``)


class Portfolio:
    """The restarts of one problem (see the module's docstring)."""

    def __init__(
        self, problem: Problem, seed: int = 0, base: int = BASE, kinds: tuple[Kind, ...] = ROUND
    ) -> None:
        if _first is None:
            raise RuntimeError("the compiled first-solution search is not built")
        region = problem.region
        self.problem: Problem = problem
        self.seed: int = seed
        self.base: int = base
        if len(kinds) != len(ROUND):  # the budgets are one Luby term per round of ROUND's size
            raise ValueError(f"a round of {len(ROUND)} kinds of restart, not {len(kinds)}")
        self.round: tuple[Kind, ...] = kinds
        self.nb, self.colours = _loop_arrays(region)
        orbits = region.orbits(region.symmetries)
        self.starts: list[CellIndex] = _starts(region)
        self.sweeps: list[tuple[int, CellIndex]] = _sweep_starts(region, can_start)
        # middle out: per pivot segment, its first cube's cells (one per symmetry orbit) and
        # (direction, cell) pairs on a first layer (one per class), where it fits
        lengths = problem.lengths
        self.pivots: list[int] = pivots_of(lengths)
        self.pivot_starts: dict[int, list[CellIndex]] = {}
        self.pivot_sweeps: dict[int, list[tuple[int, CellIndex]]] = {}
        for m in self.pivots:
            cube = sum(length - 1 for length in lengths[:m])

            def ok(region: Region, c: CellIndex, m: int = m, cube: int = cube) -> bool:
                return _can_hold(region, c, cube, lengths[m])

            self.pivot_starts[m] = [o[0] for o in orbits if ok(region, o[0])]
            self.pivot_sweeps[m] = _sweep_starts(region, ok)

    def kinds(self) -> tuple[Kind, ...]:
        """The round (``ROUND`` unless given), less what this problem cannot do: with no layer
        to sweep from (or no cell for a pivot), such restarts are free ones (from an end)."""
        out = []
        for kind in self.round:
            if kind.middle and not self._pivots_for(kind):
                kind = Kind(False, kind.width)
            if not kind.middle and kind.width is not None and not self.sweeps:
                kind = Kind(False, None)
            out.append(kind)
        return tuple(out)

    def _pivots_for(self, kind: Kind) -> list[int]:
        """The pivots with a cell to start a middle-out restart of this kind from."""
        cells = self.pivot_starts if kind.width is None else self.pivot_sweeps
        return [m for m in self.pivots if cells[m]]

    def plan(self, i: int) -> tuple[int, CellIndex, int, int, Sweep | None, int | None]:
        """Restart ``i`` (0-based): its end, start cell, random seed, node budget, sweep and
        pivot (None: from an end).

        Restart ``i`` is kind ``kinds()[i % len(ROUND)]`` of round ``i // len(ROUND)``. The
        restarts of one kind from an end take the ends in turn, and the start cells (free
        restarts: one per symmetry orbit; sweeps: a first-layer (direction, cell) pair per
        symmetry class) in turn after both ends. Middle-out restarts take the pivots in
        turn, and each pivot's cells in turn."""
        mixed = (self.seed * 0x9E3779B97F4A7C15 + (i + 1) * 0xBF58476D1CE4E5B9) % (1 << 64)
        r, at = divmod(i, len(ROUND))
        kinds = self.kinds()
        kind = kinds[at]
        q = r * kinds.count(kind) + kinds[:at].count(kind)  # this kind's restarts before i
        budget = budget_of(i, self.base)
        if kind.middle:
            usable = self._pivots_for(kind)
            pivot, turn = usable[q % len(usable)], q // len(usable)
            if kind.width is None:
                cells = self.pivot_starts[pivot]
                return 0, cells[turn % len(cells)], mixed or 1, budget, None, pivot
            pairs = self.pivot_sweeps[pivot]
            direction, start = pairs[turn % len(pairs)]
            return 0, start, mixed or 1, budget, (direction, kind.width), pivot
        end, turn = q % 2, q // 2
        if kind.width is None:
            start = self.starts[turn % len(self.starts)] if self.starts else 0
            return end, start, mixed or 1, budget, None, None
        direction, start = self.sweeps[turn % len(self.sweeps)]
        return end, start, mixed or 1, budget, (direction, kind.width), None

    def restart(self, i: int) -> Restart:
        """Run restart ``i`` to its budget."""
        assert _first is not None
        end, start, seed, budget, sweep, pivot = self.plan(i)
        lengths = self.problem.lengths[::-1] if end else self.problem.lengths
        region = self.problem.region
        if pivot is None:
            search = _first.FirstSearch(
                self.nb, self.colours, array("i", lengths), start, end_colour(region, start),
                seed, CHECKS,
            )  # fmt: skip
        else:
            cube = sum(length - 1 for length in lengths[:pivot])
            search = _first.ArmsSearch(
                self.nb, self.colours, array("i", lengths), pivot, start,
                colour(region, start) ^ (cube & 1), seed, ARMS_CHECKS,
            )  # fmt: skip
        if sweep is not None:
            search.set_window(*sweep)
        search.run(budget)
        cells = None
        if search.found:
            path = [start if pivot is None else search.first_cell()]
            for k, d in enumerate(search.directions()):
                for _ in range(lengths[k] - 1):
                    path.append(region.neighbours[path[-1]][d])
            cells = tuple(path[::-1] if end else path)
        finished = bool(search.finished) and sweep is None  # a sweep proves nothing
        return Restart(i, end, start, search.nodes, finished, cells, sweep, pivot)

    def proves_none(self, finished: set[tuple[int, CellIndex]]) -> bool:
        """Do the used-up restarts cover every start cell of one end?"""
        if not self.starts:
            return True
        return any(all((e, s) in finished for s in self.starts) for e in (0, 1))


def _loop_arrays(region: Region) -> tuple[array[int], array[int]]:
    """The compiled loops' view of a region: neighbours (6 a cell, -1 outside) and colours."""
    nb = array("i", [y for row in region.neighbours for y in row])
    return nb, array("i", [colour(region, c) for c in range(region.volume)])


def _starts(region: Region) -> list[CellIndex]:
    """One start cell per symmetry orbit, of the cells whose colour allows a start."""
    return [o[0] for o in region.orbits(region.symmetries) if can_start(region, o[0])]


def budget_of(i: int, base: int = BASE) -> int:
    """The node budget of restart ``i``: ``base`` times the Luby term of its round."""
    return base * luby(i // len(ROUND) + 1)


def pivots_of(lengths: tuple[int, ...]) -> list[int]:
    """The segments a middle-out restart pivots on: those of at least ``PIVOT_LENGTH`` cubes
    but the first (a pivot there is a search from the end), else the longest of them."""
    inner = range(1, len(lengths))
    if not inner:
        return []
    longest = max(lengths[j] for j in inner)
    return [j for j in inner if lengths[j] >= min(PIVOT_LENGTH, longest)]


def _can_hold(region: Region, cell: CellIndex, cube: int, length: int) -> bool:
    """Can cube ``cube`` (0-based) of a Hamiltonian path be on ``cell`` (parity: cube 0's
    colour must be one the region has ceil(n/2) of), as the first of a straight segment of
    ``length`` cubes in some direction?"""
    n, nb, ones = region.volume, region.neighbours, region.odd_cells
    first = colour(region, cell) ^ (cube & 1)
    if (ones if first else n - ones) != (n + 1) // 2:
        return False
    for d in range(6):
        x = cell
        for _ in range(length - 1):
            x = nb[x][d] if x >= 0 else -1
        if x >= 0:
            return True
    return False


def _sweep_starts(
    region: Region, ok: Callable[[Region, CellIndex], bool]
) -> list[tuple[int, CellIndex]]:
    """(direction, cell) for the sweeps: every cell of the first layer along a direction
    where ``ok`` (the cell can start the search), one pair per class under the region's
    symmetries, in a fixed order."""
    nb = region.neighbours
    pairs = {
        (d, c)
        for d in range(6)
        for c in range(region.volume)
        if nb[c][d ^ 1] < 0 and nb[c][d] >= 0 and ok(region, c)
    }
    classes = []
    while pairs:
        d, c = min(pairs)
        classes.append((d, c))
        for perm in region.symmetries:
            # the image of direction d at c: the direction from perm[c] to perm[c + d]
            image = (nb[perm[c]].index(perm[nb[c][d]]), perm[c])
            pairs.discard(image)
    return classes


@dataclass(frozen=True, slots=True)
class Depth:
    """What one slice of the depth-first member did: ``cells`` (snake order) if it found a
    solution; ``decided`` if its search is over (a solution, or the whole tree searched: then
    the snake does not fold)."""

    index: int
    nodes: int  # in this slice
    decided: bool
    cells: tuple[CellIndex, ...] | None
    engine: str  # the engine that searched: kernel, or reference where it is not built


DEPTH_SLICE = 2_000_000  # nodes of the depth-first member per slice (at least)
# On the portfolio's scale of work, a slice of the depth-first member weighs this many restart
# nodes: its nodes cost about a fifth and a half of a restart's (measured on 66-125 cells,
# whole processes, one core, 2026-11-24, after the shifted dead-end step: 25.8-33.3 million a
# second against 4.6-5.6, ratios 5.1-6.5, median 5.55; 4.75 on 2026-11-23), so with two
# workers the two members advance side by side and neither's solution waits long for the
# other's turn.
DEPTH_SLICE_WORK = DEPTH_SLICE * 2 // 11
# Knuth walks per end to choose the end: with 64 the choice flipped between seeds on 4x4x5-s6
# (1e8 against 1e10 nodes), with 1024 it held (0.1-0.2 s per end on 5x5x5, in the member's
# own worker).
DEPTH_PROBES = 1024


# Depth first sits out beside other members when even its better end's tree is estimated past
# this many nodes (about ten hours at 26 million a second): its core goes to the others.
# Measured: 4x5x5 designs 7e9-2e10 from the better end (found at 0.5-3.2e9 nodes), fully mixed
# 5x5x5 designs 4e12-3e15, none found (docs/design.md, "The beam member").
DEPTH_HOPELESS = 1e12


_SIZES: dict[int, tuple[Problem, tuple[float, float]]] = {}


def end_sizes(problem: Problem) -> tuple[float, float]:
    """Knuth estimates of the depth-first tree from the first end and from the last (the
    last problem's are kept: the solver asks once to name its members, once to run them)."""
    from snakecube.search.estimate import tree_size

    hit = _SIZES.get(id(problem))
    if hit is not None and hit[0] is problem:
        return hit[1]
    first_end = tree_size(problem, DEPTH_PROBES)
    sizes = (first_end, first_end)
    if not problem.snake.is_palindrome:
        other = Problem.build(problem.snake.reversed(), problem.region)
        sizes = (first_end, tree_size(other, DEPTH_PROBES))
    _SIZES.clear()
    _SIZES[id(problem)] = (problem, sizes)
    return sizes


def who_runs(
    problem: Problem, members: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[float, float] | None]:
    """The members that run, and the ends' estimates if depth first was asked beside others:
    it sits out when even its better end's tree is past ``DEPTH_HOPELESS`` nodes."""
    if "depth-first" not in members or len(members) == 1:
        return members, None
    sizes = end_sizes(problem)
    if min(sizes) > DEPTH_HOPELESS:
        return tuple(m for m in members if m != "depth-first"), sizes
    return members, sizes


class DepthFirst:
    """The exhaustive depth-first search (the kernel, default pruning, the plan's units in
    order) from the end of the snake whose tree is estimated smaller (``search.estimate``),
    in slices of at least ``DEPTH_SLICE`` nodes. On floppy designs of up to about 100 cubes
    the two ends' trees differ a hundredfold and more, and from the small end a whole count
    takes seconds (docs/design.md, "Depth first from the better end")."""

    def __init__(self, problem: Problem, sizes: tuple[float, float] | None = None) -> None:
        from snakecube.search import kernel
        from snakecube.search.reference import Reference

        self.end = 0
        self.problem = problem
        first_end, last_end = end_sizes(problem) if sizes is None else sizes
        if last_end < first_end:
            self.end = 1
            self.problem = Problem.build(problem.snake.reversed(), problem.region)
        self.engine: Engine = kernel.Kernel() if kernel.AVAILABLE else Reference(DEFAULT_PRUNE)

    def slices_of(self) -> Generator[Depth, None, None]:
        """Slices until the search is decided."""
        problem = self.problem
        plan = make_plan(problem)
        stats = Stats()
        name = self.engine.name
        index, sent = 0, 0
        for unit in plan.units:
            for dirs in chain(self.engine.search(problem, unit, stats), [None]):
                if dirs is not None:
                    yield Depth(index, stats.nodes - sent, True, self._cells(unit, dirs), name)
                    return
                # Step: a tick (or the unit's end) past the slice's end closes the slice.
                if stats.nodes >= (index + 1) * DEPTH_SLICE:
                    yield Depth(index, stats.nodes - sent, False, None, name)
                    index, sent = index + 1, stats.nodes
        yield Depth(index, stats.nodes - sent, True, None, name)

    def _cells(self, unit: Unit, dirs: tuple[int, ...]) -> tuple[CellIndex, ...]:
        """The cells of a placement, in the order of the snake as given."""
        region, lengths = self.problem.region, self.problem.lengths
        path = [unit.start]
        for k, d in enumerate(dirs):
            for _ in range(lengths[k] - 1):
                path.append(region.neighbours[path[-1]][d])
        return tuple(path[::-1] if self.end else path)


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


BEAM_BASE = 25_000  # the width of the first round's beams; each round doubles it, up to
# about 370 MB a beam allocated (two 64-byte folds a place, four 56-byte children a fold);
# 290 MB at its peak on 5x5x5-s7 (measured, eleventh run)
BEAM_MAX_WIDTH = 1 << 20
# The beams of one round, in order: (end, score kind) (``_beam``: 0 compact, 1 also the walls)
BEAM_ROUND: tuple[tuple[int, int], ...] = ((0, 0), (1, 1), (1, 0), (0, 1))
# On the portfolio's scale of work, this many folds of a beam at one level weigh one restart
# node, so that beams and restarts advance side by side (measured, one core, the tenth run of
# 2026-11-24, the loop with its radix sort: the beams' nominal fold-levels against restart
# nodes a second, ratios 1.31-2.41 on 4x4x5 to 5x5x5 designs, median about 2; 0.88-1.61 in the
# ninth run's loop, when one fold-level weighed one node); a beam's place on the scale is its
# nominal size, width x segments / BEAM_FOLDS_PER_NODE, known before it runs.
BEAM_FOLDS_PER_NODE = 2
# Where depth first sits out (``who_runs``: even its better end's tree is hopeless) and the
# restarts and beams run side by side, the restarts, depth-first searches too, have found no
# solution the beams did not find sooner (docs/design.md, "Tenth run"): beams weigh this many
# times less there and take most of the time.
BEAM_BIAS_HOPELESS = 4
BEAM_CHUNK = 1_000_000  # children per call of the loop, between checks of the time limit
BEAM_CELLS = 128  # the loop's masks are 128 bits


def beam_width(k: int) -> int:
    """The width of beam ``k`` (0-based) of the beam member: it doubles each round, up to
    ``BEAM_MAX_WIDTH`` (later rounds are new seeds at that width)."""
    return min(BEAM_BASE << min(k // len(BEAM_ROUND), 40), BEAM_MAX_WIDTH)


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
    return _beam is not None and problem.ncells <= BEAM_CELLS and _shifts(problem) is not None


class BeamMember:
    """The beam member: beam searches (``_beam.Beam``) of doubling widths, each round every
    (end, score kind) of ``BEAM_ROUND``, each beam with its own seed. Beam ``k`` is fully fixed
    by ``k`` and the seed (docs/design.md, "The beam member")."""

    def __init__(self, problem: Problem, seed: int = 0) -> None:
        shifts = _shifts(problem)
        if _beam is None or problem.ncells > BEAM_CELLS or shifts is None:
            raise RuntimeError("the beam member needs the compiled loop and a box of <= 128 cells")
        self.problem: Problem = problem
        self.seed: int = seed
        self.nb, self.colours = _loop_arrays(problem.region)
        self.starts = array("i", _starts(problem.region))
        self.offsets, self.has = shifts

    def plan(self, k: int) -> tuple[int, int, int, int]:
        """Beam ``k``'s width, end, score kind and seed."""
        end, score = BEAM_ROUND[k % len(BEAM_ROUND)]
        mixed = (self.seed * 0xD1B54A32D192ED03 + (k + 1) * 0x9E3779B97F4A7C15) % (1 << 64)
        return beam_width(k), end, score, mixed

    def run(self, k: int, stop: Callable[[], bool] | None = None) -> Beamed | None:
        """Run beam ``k`` to its end (None if ``stop()`` said so between chunks)."""
        assert _beam is not None
        width, end, score, seed = self.plan(k)
        lengths = self.problem.lengths[::-1] if end else self.problem.lengths
        beam = _beam.Beam(
            self.problem.ncells, self.nb, self.colours, array("i", lengths), self.starts,
            self.offsets, self.has, width, score, seed,
        )  # fmt: skip
        while not beam.run(BEAM_CHUNK):
            if stop is not None and stop():
                return None
        cells = None
        if beam.found:
            searched = self.problem
            if end:
                searched = Problem.build(searched.snake.reversed(), searched.region)
            path = searched.path(*beam.solution)
            cells = tuple(path[::-1] if end else path)
        decided = bool(beam.found) or bool(beam.complete)
        return Beamed(k, beam.nodes, decided, cells, width, end, score, beam.level)


MEMBERS = ("restarts", "sat", "depth-first", "beam")
Run = Restart | Slice | Depth | Beamed


def search(
    problem: Problem,
    seed: int = 0,
    workers: int = 1,
    stop: Callable[[int], bool] | None = None,
    members: tuple[str, ...] = ("restarts",),
) -> Generator[Run | None, None, None]:
    """The members' runs in a fixed order (each one as it is accepted), and ``None`` now and
    then while workers run, until one finds a solution or there is proof that none exists.

    ``members`` are ``restarts`` (the randomised searches above), ``sat`` (CaDiCaL on
    ``search.sat``'s encoding, in slices of ``sat.SLICE`` conflicts), ``depth-first``
    (``DepthFirst``, in slices of ``DEPTH_SLICE`` nodes) and ``beam`` (``BeamMember``). Each
    run has a place on one scale of work: restart ``i`` ends at the sum of the budgets up to
    ``i``, SAT slice ``k`` at ``(k + 1) * SLICE * NODES_PER_CONFLICT``, depth-first slice
    ``k`` at ``(k + 1) * DEPTH_SLICE_WORK`` divided by the number of numbered members
    (restarts, beams) that share the other cores, beam ``k`` at the sum of ``beam_work`` up to
    ``k``; runs are accepted in that order (on a tie restarts, then SAT, then depth first,
    then beams), whatever the number of workers and however fast each one runs, so the
    answer depends only on the inputs and the seed. With several workers the SAT solver and
    the depth-first search each have one to themselves, and the restarts and beams share the
    rest in the order they are accepted (with too few workers for that, everything runs in
    this process). ``stop(work)`` is asked between
    runs; ``work`` is the runs' nodes (a conflict counts ``NODES_PER_CONFLICT``); True ends
    the search.
    """
    unknown = set(members) - set(MEMBERS)
    if unknown or not members:
        raise ValueError(f"unknown portfolio members {sorted(unknown)}; expected {MEMBERS}")
    members, sizes = who_runs(problem, members)
    use_restarts = "restarts" in members
    portfolio = Portfolio(problem, seed) if use_restarts else None
    beams = BeamMember(problem, seed) if "beam" in members else None
    segments = len(problem.lengths)
    finished: set[tuple[int, CellIndex]] = set()
    work = 0

    def accept(r: Run) -> bool:
        nonlocal work
        work += r.nodes
        if not isinstance(r, Restart):
            return r.decided
        if r.finished and r.cells is None and r.pivot is None:
            finished.add((r.end, r.start))
        assert portfolio is not None
        return r.cells is not None or portfolio.proves_none(finished)

    used = [m for m in MEMBERS if m in members]
    persistent = [m for m in ("sat", "depth-first") if m in members]  # a worker each
    indexed = [m for m in ("restarts", "beam") if m in members]  # runs numbered 0, 1, ...
    # Depth first has a core to itself while the numbered members share one: its slices
    # weigh their share, so that all advance side by side and no solution waits long.
    depth_work = DEPTH_SLICE_WORK // max(1, len(indexed))
    # Restarts and beams without depth first: auto left it out as hopeless (``who_runs``, here
    # or in the caller), so the beams take most of the time.
    hopeless = {"restarts", "beam"} <= set(members) and "depth-first" not in members
    bias = BEAM_BIAS_HOPELESS if hopeless else 1

    def order() -> Iterator[tuple[str, int]]:
        """The runs in the order they are accepted: (member, its run number)."""
        ends = accumulate(budget_of(i) for i in count())
        runs = {"restarts": 0, "sat": 0, "depth-first": 0, "beam": 0}
        restart_end = next(ends)
        beam_end = beam_work(0, segments, bias)
        while True:
            at = {
                "restarts": restart_end,
                "sat": (runs["sat"] + 1) * sat.SLICE * sat.NODES_PER_CONFLICT,
                "depth-first": (runs["depth-first"] + 1) * depth_work,
                "beam": beam_end,
            }
            member = min(used, key=at.__getitem__)  # the first on a tie
            yield member, runs[member]
            runs[member] += 1
            if member == "restarts":
                restart_end = next(ends)
            elif member == "beam":
                beam_end += beam_work(runs["beam"], segments, bias)

    def stopped() -> bool:
        return bool(stop and stop(work))

    if workers <= 1 or (indexed and workers <= len(persistent)):
        yield from _in_process(problem, portfolio, beams, sizes, order(), accept, stopped)
        return

    from snakecube import pool

    def job(item: str | tuple[str, int]) -> Iterator[Run]:
        if item == "sat":
            solver = sat.SatSearch(problem)
            try:
                yield from solver.slices_of()
            finally:
                solver.close()
        elif isinstance(item, str):
            yield from DepthFirst(problem, sizes).slices_of()
        elif item[0] == "restarts":
            assert portfolio is not None
            yield portfolio.restart(item[1])
        else:
            assert beams is not None
            beamed = beams.run(item[1])
            assert beamed is not None
            yield beamed

    # The numbered runs go to the workers in the order they are accepted.
    numbered = ((m, n) for m, n in order() if m in indexed) if indexed else iter(())
    items: Iterator[str | tuple[str, int]] = chain(persistent, numbered)
    numbered_done: dict[tuple[str, int], Run] = {}
    streams: dict[str, deque[Run]] = {"sat": deque(), "depth-first": deque()}
    runs = order()
    member, n = next(runs)
    # The SAT and depth-first jobs run until decided: hand out no job ahead of a free worker.
    events = pool.run(job, items, workers, lookahead=workers if persistent else None)

    def ready() -> bool:
        return (member, n) in numbered_done if member in indexed else bool(streams[member])

    try:
        for event in events:
            if event is not None and not event.done:
                value = event.value
                if isinstance(value, Restart):
                    numbered_done["restarts", value.index] = value
                elif isinstance(value, Beamed):
                    numbered_done["beam", value.index] = value
                else:
                    streams["sat" if isinstance(value, Slice) else "depth-first"].append(value)
            # accept in the fixed order: deterministic
            while ready():
                if member in indexed:
                    got = numbered_done.pop((member, n))
                else:
                    got = streams[member].popleft()
                yield got
                if accept(got):
                    return
                member, n = next(runs)
            yield None
            if stopped():
                return
    finally:
        events.close()


def _in_process(
    problem: Problem,
    portfolio: Portfolio | None,
    beams: BeamMember | None,
    sizes: tuple[float, float] | None,
    order: Iterator[tuple[str, int]],
    accept: Callable[[Run], bool],
    stopped: Callable[[], bool],
) -> Generator[Run | None, None, None]:
    """``search`` with one worker: the members' runs in turn, in this process. The SAT solver
    is made at its first run, so a snake the restarts fold at once does not pay for its
    encoding; the depth-first search too (its ends' estimates, ``sizes``, are made before,
    to decide whether it runs at all)."""
    solver: sat.SatSearch | None = None
    depth: Generator[Depth, None, None] | None = None
    try:
        for member, n in order:
            if stopped():
                return
            run: Run
            if member == "restarts":
                assert portfolio is not None
                run = portfolio.restart(n)
            elif member == "beam":
                assert beams is not None
                beamed = beams.run(n, stopped)
                if beamed is None:
                    return
                run = beamed
            elif member == "sat":
                solver = solver or sat.SatSearch(problem)
                run = solver.run()
            else:
                depth = depth or DepthFirst(problem, sizes).slices_of()
                run = next(depth)
            yield run
            if accept(run):
                return
            yield None
    finally:
        if solver is not None:
            solver.close()
        if depth is not None:
            depth.close()
