"""The restarts member: randomised searches with node budgets (``_loops.FirstSearch``,
``_loops.ArmsSearch``).

Exhaustive depth-first search (``kernel``) answers "how many?"; for "is there one?" on a big
target it can spend its whole budget under one bad early choice. Here each *restart* is a
fresh search (``_loops.FirstSearch``) from one start cell (one per symmetry orbit whose
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
which is where free restarts lose themselves on the biggest designs (docs/design-first.md,
"Sweeps"). Some are *middle out* (``_loops.ArmsSearch``): they place a long segment first (a
pivot) and grow the snake from it towards both ends, the longer next segment first, because
a search from an end fails where a long segment comes late and no straight line is left free
for it (docs/design-first.md, "Middle out"). The restarts come in rounds of ``ROUND``: in each,
every kind of restart once, all with the same budget, so the long runs of the Luby sequence
go to every kind.

The restarts check only dead ends, the end's colour and, from an end, the tail (the last
segments fit back from a known end cell), and try the fewest ways on first (``CHECKS``;
middle out ``ARMS_CHECKS``): the blocks and forced passages cut nodes but cost ten times the
time per node, and at equal time the cheap restarts find more (docs/design-first.md, "Cheap
restarts").

A free restart whose search space is used up (``finished``) proves that no solution starts at
its cell from its end; when that holds for every start cell of one end, the snake does not
fold. A sweep proves nothing.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from snakecube import compiled
from snakecube.search.first.member import Run, Setting
from snakecube.search.options import (
    FIRST_BLOCKS,
    FIRST_FEWEST_WAYS,
    FIRST_FORCED,
    FIRST_TAIL,
)
from snakecube.search.plan import can_start, colour, end_colour
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex, Region

_loops = compiled.extension("loops")
AVAILABLE = _loops is not None

BASE = 20_000  # nodes of the shortest restart


class Kind(NamedTuple):
    """A kind of restart: from an end of the snake or ``middle`` out (``ArmsSearch``, from a
    pivot on a long segment), free (``width`` None) or a sweep ``width`` layers wide."""

    middle: bool
    width: int | None


# The kinds of restart in one round, in order.
ROUND: tuple[Kind, ...] = (
    Kind(False, None),
    Kind(False, 2),
    Kind(True, None),
    Kind(False, 1),
    Kind(False, None),
    Kind(True, 2),
    Kind(True, None),
    Kind(False, 3),
)
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

    @property
    def engine(self) -> str:
        """The member that ran: the name a result reports."""
        return "restarts"


class Portfolio:
    """The restarts of one problem (see the module's docstring): the restarts member."""

    def __init__(
        self, problem: Problem, seed: int = 0, base: int = BASE, kinds: tuple[Kind, ...] = ROUND
    ) -> None:
        if _loops is None:
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
        # Where a pivot may start depends only on its first cube's parity and its length:
        # worked out once for each (a bent snake of 729 cubes has 728 pivots and one pair).
        done: dict[tuple[int, int], tuple[list[CellIndex], list[tuple[int, CellIndex]]]] = {}
        cube = 0
        for m, length in enumerate(lengths):
            if m in self.pivots:
                key = (cube & 1, length)
                if key not in done:

                    def ok(region: Region, c: CellIndex, cube: int = cube, n: int = length) -> bool:
                        return _can_hold(region, c, cube, n)

                    done[key] = (
                        [o[0] for o in orbits if ok(region, o[0])],
                        _sweep_starts(region, ok),
                    )
                self.pivot_starts[m], self.pivot_sweeps[m] = done[key]
            cube += length - 1
        self._ends: list[int] = []  # place() of the restarts so far
        self._finished: set[tuple[int, CellIndex]] = set()  # (end, start) proved empty

    # The member's side (``first.member.Member``): restart n is run n.
    name = "restarts"
    persistent = False

    @staticmethod
    def why_not(problem: Problem) -> str | None:
        """Why this member cannot run here, or None when it can."""
        if _loops is None:
            return "the compiled restarts search is not built here; reinstall with a C compiler"
        return None

    @classmethod
    def make(cls, problem: Problem, setting: Setting) -> Portfolio:
        """The restarts of ``problem`` with the lineup's seed."""
        return cls(problem, setting.seed)

    def place(self, n: int) -> int:
        """Where restart ``n`` ends on the portfolio's scale of work: the budgets up to it."""
        while len(self._ends) <= n:
            self._ends.append((self._ends[-1] if self._ends else 0) + budget_of(len(self._ends)))
        return self._ends[n]

    def run(self, n: int, stop: Callable[[], bool] | None = None) -> Restart:
        """Restart ``n`` (a restart is short: ``stop`` is not asked during it)."""
        return self.restart(n)

    def settles(self, run: Run) -> bool:
        """Does this accepted restart end the search: a solution, or the last proof needed?"""
        assert isinstance(run, Restart)
        if run.finished and run.cells is None and run.pivot is None:
            self._finished.add((run.end, run.start))
        return run.cells is not None or self.proves_none(self._finished)

    def close(self) -> None:
        """Nothing to release."""

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
        assert _loops is not None
        end, start, seed, budget, sweep, pivot = self.plan(i)
        lengths = self.problem.lengths[::-1] if end else self.problem.lengths
        region = self.problem.region
        if pivot is None:
            search = _loops.FirstSearch(
                self.nb,
                self.colours,
                array("i", lengths),
                start,
                end_colour(region, start),
                seed,
                CHECKS,
            )
        else:
            cube = sum(length - 1 for length in lengths[:pivot])
            search = _loops.ArmsSearch(
                self.nb,
                self.colours,
                array("i", lengths),
                pivot,
                start,
                colour(region, start) ^ (cube & 1),
                seed,
                ARMS_CHECKS,
            )
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
