"""The root plan: symmetry reduction at the root, and the split into independent work units.

A **placement** is a start cell plus one direction per segment. The symmetry group G of the
region acts freely on placements (a symmetry that fixes a whole path fixes every cell). So
if we fix a prefix p (start cell, first directions) whose pointwise stabilizer in G is trivial,
each G-class of placements contains exactly one placement that begins with a *representative*
of p's orbit. The plan walks the first segments, keeping one choice per orbit of the current
stabilizer, until the stabilizer is trivial: each leaf is a work unit, and every solution found
under a unit is one distinct class. No symmetric copy is ever enumerated.

Start cells whose colour (x + y + z mod 2) the region cannot supply often enough for an
alternating path are skipped (see ``can_start``): that is a theorem, not a search.

The walk has a budget (``PLAN_UNITS`` units, ``PLAN_STEPS`` steps, and the caller's
deadline): for some snakes the stabilizer stays non-trivial for many levels (a bent snake
from the centre of an odd box can run along a mirror plane for dozens of segments, and the
prefixes double at each). Where the budget runs out, the prefixes not yet split become units
as they are, each with its stabilizer H (``Unit.fixers``); every class then has ``len(H)``
placements under that unit, and ``Plan.keeps`` keeps the one whose cells are smallest, so
the counts stay exact.

With a fixed start or prefix P, the same walk starts from P under Stab(P), so each found
solution is one class of placements that begin with P, and stands for ``len(Stab(P))``
placements that begin with P.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from snakecube.errors import InputError
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex, Coord, Direction, Permutation, Region


@dataclass(frozen=True, slots=True)
class Unit:
    """A subtree of the search: a start cell and the directions of the first segments."""

    start: CellIndex
    prefix: tuple[Direction, ...]
    start_class: int  # index into Plan.start_classes
    # The symmetries (indices into the region's group) other than the identity that fix the
    # prefix's cells: empty unless the plan's budget ran out before the stabilizer was trivial.
    fixers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StartClass:
    """An orbit of start cells under the region's symmetries."""

    kind: str
    cell: CellIndex  # the representative, the orbit's smallest cell
    size: int


@dataclass(frozen=True, slots=True)
class Plan:
    """Work units in a fixed order, and how to turn what they find into counts."""

    units: tuple[Unit, ...]
    start_classes: tuple[StartClass, ...]
    multiplier: int  # placements each found solution stands for
    fixed: bool  # True when the user fixed a start cell or prefix
    complete: bool = True  # every unit's stabilizer is trivial (the budget did not run out)

    def keeps(self, problem: Problem, unit: int, cells: Sequence[CellIndex]) -> bool:
        """Is this placement (its cells, found under unit number ``unit``) the one its class
        counts? Always, unless the unit has ``fixers``: then only the smallest of its images."""
        fixers = self.units[unit].fixers
        if not fixers:
            return True
        group = problem.region.symmetries
        here = tuple(cells)
        return all(here < tuple(group[g][c] for c in here) for g in fixers)


# The plan's budget: past either, the prefixes not yet split become units as they are (with
# their stabilizers). Measured on the 729-cell bent snake: 20,000 units took
# 0.4 s; an ordinary snake's plan has a few hundred units at most (the king asked for 256 units
# for a cluster: 534), and a 64-core machine asks for 1,024.
PLAN_UNITS = 4_096
PLAN_STEPS = 50_000
_PLANS: dict[tuple[Problem, CellIndex | None, tuple[Direction, ...], int], Plan] = {}
_CACHED = 64  # plans kept (the oldest is dropped first)


def make_plan(
    problem: Problem,
    start: CellIndex | None = None,
    prefix: tuple[Direction, ...] = (),
    min_units: int = 1,
    deadline: float | None = None,
) -> Plan:
    """Plan the search; ``min_units`` asks for at least that many units where possible.
    ``deadline`` (``time.monotonic()``) ends the walk early, like the budget (the plan is then
    still exact, but coarser: see the module's docstring).

    Plans are immutable and cached (unless a deadline cut one short): planning the same
    problem again costs nothing.
    """
    key = (problem, start, prefix, min_units)
    if key in _PLANS:
        return _PLANS[key]
    plan, cut_by_time = _make_plan(problem, start, prefix, min_units, deadline)
    if not cut_by_time:
        if len(_PLANS) >= _CACHED:
            del _PLANS[next(iter(_PLANS))]
        _PLANS[key] = plan
    return plan


def _make_plan(
    problem: Problem,
    start: CellIndex | None,
    prefix: tuple[Direction, ...],
    min_units: int,
    deadline: float | None,
) -> tuple[Plan, bool]:
    """The plan, and whether the deadline cut its walk short."""
    region = problem.region
    group = region.symmetries
    if start is None:
        orbits = region.orbits(group)
        roots: list[tuple[CellIndex, tuple[Direction, ...], int]]
        roots = [(orbit[0], (), i) for i, orbit in enumerate(orbits)]
        classes = tuple(StartClass(region.cell_kind(o[0]), o[0], len(o)) for o in orbits)
        multiplier, fixed = len(group), False
    else:
        orbit = next(o for o in region.orbits(group) if start in o)
        classes = (StartClass(region.cell_kind(start), start, len(orbit)),)
        roots = [(start, prefix, 0)]
        fits = replay(problem, start, prefix) is not None
        multiplier = len(_stabilizer(group, problem.path(start, prefix))) if fits else 1
        fixed = True

    roots = [r for r in roots if can_start(region, r[0])]
    extra = 0
    while True:
        walk = _Walk(problem, group, deadline)
        units: list[Unit] = []
        for cell, dirs, cls in roots:
            walk.expand(cell, dirs, cls, extra, units)
        spent = walk.spent()
        if spent or len(units) >= min_units or extra >= len(problem.lengths) or not units:
            break
        extra += 1
    complete = not any(u.fixers for u in units)
    return Plan(tuple(units), classes, multiplier, fixed, complete), spent == "time"


def colour(region: Region, cell: CellIndex) -> int:
    """The cell's colour in the grid's chessboard colouring: (x + y + z) mod 2."""
    return sum(region.cells[cell]) & 1


def can_start(region: Region, cell: CellIndex) -> bool:
    """Parity: a Hamiltonian path of n cells alternates colours, so it has ceil(n/2) cells of
    its start's colour. A start cell whose colour the region cannot supply that often starts
    no Hamiltonian path."""
    n, ones = region.volume, region.odd_cells
    have = ones if colour(region, cell) else n - ones
    return have == (n + 1) // 2


def end_colour(region: Region, start: CellIndex) -> int:
    """The colour of the last cell of a Hamiltonian path from ``start``."""
    return colour(region, start) ^ ((region.volume - 1) & 1)


def replay(
    problem: Problem, start: CellIndex, dirs: tuple[Direction, ...]
) -> tuple[int, CellIndex, int] | None:
    """The search state (occupied mask, head cell, last axis) after placing ``dirs`` from
    ``start``, or None if a segment leaves the region, overlaps, or does not turn."""
    occ, head, axis = 1 << start, start, -1
    for k, d in enumerate(dirs):
        ray = problem.ray(k, head, d)
        if ray is None or occ & ray[0] or d >> 1 == axis:
            return None
        occ, head, axis = occ | ray[0], ray[1], d >> 1
    return occ, head, axis


def _stabilizer(group: Sequence[Permutation], cells: Sequence[CellIndex]) -> list[Permutation]:
    """The elements of ``group`` that fix every cell of ``cells``."""
    if not cells:
        return list(group)
    pick, want = itemgetter(*cells), tuple(cells) if len(cells) > 1 else cells[0]
    return [g for g in group if pick(g) == want]


class _Walk:
    """The walk over the first segments that makes the units, within the plan's budget."""

    def __init__(
        self, problem: Problem, group: Sequence[Permutation], deadline: float | None
    ) -> None:
        self.problem, self.group, self.deadline = problem, group, deadline
        self.steps = self.units = 0
        self.out_of: str | None = None  # "units", "steps" or "time", once the budget ran out

    def spent(self) -> str | None:
        """What ran out, if anything: "units", "steps" or "time"."""
        return self.out_of

    def late(self) -> bool:
        """Is it past the deadline?"""
        return self.deadline is not None and time.monotonic() > self.deadline

    def _charge(self) -> bool:
        """Count one step; is the budget still there?"""
        self.steps += 1
        if self.out_of is None:
            if self.units >= PLAN_UNITS:
                self.out_of = "units"
            elif self.steps >= PLAN_STEPS:
                self.out_of = "steps"
            elif self.deadline is not None and self.steps % 256 == 0 and self.late():
                self.out_of = "time"
        return self.out_of is None

    def expand(
        self,
        start: CellIndex,
        dirs: tuple[Direction, ...],
        cls: int,
        extra: int,
        out: list[Unit],
    ) -> None:
        """Walk segment choices from (start, dirs), one per orbit, until the stabilizer is
        trivial, then ``extra`` more levels; append the leaves to ``out`` in depth-first
        order. Past the budget, the prefixes still to split are leaves as they are."""
        problem, group = self.problem, self.group
        state = replay(problem, start, dirs)
        if state is None:
            return
        ids = tuple(range(len(group)))
        first = [i for i in ids if pick(group[i], problem.path(start, dirs))]
        # The stack holds (dirs, state, stabilizer as group indices, extra), last out first.
        stack = [(dirs, state, tuple(first), extra)]
        n_seg = len(problem.lengths)
        while stack:
            dirs, (occ, head, axis), stab, more = stack.pop()
            k = len(dirs)
            trivial = len(stab) == 1
            if (trivial and more == 0) or k == n_seg or not self._charge():
                fixers = tuple(g for g in stab if g != 0) if not trivial else ()
                out.append(Unit(start, dirs, cls, fixers))
                self.units += 1
                continue
            nb = problem.neighbours[head]
            seen: set[Direction] = set()
            children = []
            for d in range(6):
                if d in seen or d >> 1 == axis:
                    continue
                ray = problem.ray(k, head, d)
                if ray is None or occ & ray[0]:
                    continue
                # The orbit of d under the stabilizer: each g fixes head, so it maps the
                # segment's first step nb[d] to the first step of the image segment.
                seen.update(nb.index(group[g][nb[d]]) for g in stab)
                cells = _segment_cells(problem, head, d, problem.lengths[k])
                kept = tuple(g for g in stab if pick(group[g], cells))
                state = (occ | ray[0], ray[1], d >> 1)
                children.append(((*dirs, d), state, kept, more - trivial))
            stack.extend(reversed(children))


def pick(g: Permutation, cells: Sequence[CellIndex]) -> bool:
    """Does the symmetry ``g`` fix every cell of ``cells``?"""
    return all(g[c] == c for c in cells)


def _segment_cells(problem: Problem, head: CellIndex, d: Direction, length: int) -> list[int]:
    """The cells a segment of ``length`` cubes adds from ``head`` going ``d``."""
    nb, cells, at = problem.neighbours, [], head
    for _ in range(length - 1):
        at = nb[at][d]
        cells.append(at)
    return cells


def prefix_from_path(
    problem: Problem, coords: Sequence[Coord]
) -> tuple[CellIndex, tuple[Direction, ...]]:
    """Turn the first cells of a path into a start cell and the directions they fix.

    Checks that the cells are in the region, distinct, unit steps apart, and turn exactly at
    the snake's corner cubes.
    """
    region, snake = problem.region, problem.snake
    if not coords:
        raise InputError("the fixed path is empty; give at least the first cell")
    if len(coords) > snake.cubes:
        raise InputError(
            f"the fixed path has {len(coords)} cells but the snake has only {snake.cubes} cubes"
        )
    cells = []
    for i, coord in enumerate(coords, 1):
        c = (coord[0], coord[1], coord[2])
        if c not in region.index:
            raise InputError(f"fixed path: cell {i} {list(c)} is not in the {region.describe()}")
        cells.append(region.index[c])
    if len(set(cells)) != len(cells):
        raise InputError("fixed path: it visits a cell twice")
    steps = []
    for i in range(1, len(cells)):
        try:
            steps.append(problem.neighbours[cells[i - 1]].index(cells[i]))
        except ValueError:
            raise InputError(
                f"fixed path: cells {i} and {i + 1} ({list(coords[i - 1])} and {list(coords[i])}) "
                "are not neighbours"
            ) from None
    corners = set(snake.corner_cubes())
    for i in range(1, len(steps)):
        turns = steps[i] != steps[i - 1]
        if turns and i not in corners:
            raise InputError(f"fixed path: it turns at cube {i + 1}, which is straight")
        if not turns and i in corners:
            raise InputError(f"fixed path: it goes straight through cube {i + 1}, a corner")
    dirs = []
    first = 0
    for length in problem.lengths:
        if first + 1 < len(cells):
            dirs.append(steps[first])
        first += length - 1
    return cells[0], tuple(dirs)
