"""The planner: quarter turns that fold a flat snake into a given solution, every state valid.

A plan changes dihedrals (see ``fold.model``): each move is one quarter turn of one corner.
The start lies flat: every dihedral after the first corner is 0 or 2, in the plane of the
first two segments (the first corner is never turned: its angle only says where the plane
is). For a corner whose dihedral in the solution is even, the start takes that value; an odd
one (1 or 3) needs one quarter turn from either flat value. So the fewest quarter turns from
the best flat start is the number of odd corners: the **lower bound**. Often no such start
exists: with the solution's even corners, every flat snake crosses itself. The quarter turns
to the nearest flat state that does not cross itself (``Flats``) are a stronger bound, the
**fewest bound**, which the searches aim at.

The search runs backwards, from the solution to a flat state, and the plan is that path read
forwards. ``best_plan`` is a portfolio: strictly in order (``in_order``: each corner once,
the tail flat until its turn, a plan a person makes without ever touching the tail); else an
iterative-deepening A* whose heuristic is the distance to the nearest flat state that does
not cross itself (``guided``), so the first plan found has the fewest quarter turns, with
corners turned out of the way and back where they must be; then a few greedy descents guided
the same way (``guided_dive``), for a plan of as few turns in a more natural order. Moves
are tried in the order a person makes them: corners laid flat before corners turned out of
the plane, the swing clear, segments placed one by one from the held end (read backwards:
the last corner laid flat first), the tail out of the target.

The search keeps one configuration and turns only the part after the corner, checking it
against a map of occupied cells, so a step costs about the tail's length. ``with_extra`` is
the same IDA* with the corners still odd as its heuristic: the reference of the fold
census's compiled twin (``fold._turns``).

A plan from the last end is made for the reversed snake and written back in the model's
numbering (moves turn cubes i+1..n): the same relative motions, hence the same states up to
a rigid motion, with the start found by undoing the moves from the solution.
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import ParamSpec, TypeVar

from snakecube import limits, stop
from snakecube.fold.model import (
    Vec,
    apply_move,
    build,
    corners_of,
    dihedrals_of,
    directions_of,
    swing_is_clear,
)

NODES = 300_000  # moves tried per search, before it gives up
ORDERS = ("walk", "fewest")  # what a plan is chosen for: see ``best_plan``
WALK_LIMIT = 1.5  # the hand distance aimed at, as a multiple of the plan's span
WALK_EXTRA = 2  # a walking plan may take this many quarter turns more than the fewest found
WALK_SHARE = 10  # each walking search gets 1/10 of the nodes of the others
# a walking search stops at a hand distance this close to the least any plan can have (the
# stretch from the first odd corner to the last)
WALK_GOOD = 1.1


# The planner's searches recurse a level a segment at most (Flats.reach, the guided and in
# order searches), and a snake may have 1,000 cubes, all corners: more than Python's default
# 1,000 levels (RecursionError on the 1,000-cube bent snake). Python 3.11 keeps a call
# from Python to Python off the C stack, so room for more costs nothing; it is made for the
# search's duration (``_deep``). Rejected: each search as a loop with its own stack (four
# searches rewritten for one limit).
DEPTH = limits.MAX_CUBES + 200
P = ParamSpec("P")
T = TypeVar("T")


def _deep(search: Callable[P, T]) -> Callable[P, T]:
    """``search`` with room for ``DEPTH`` levels of recursion while it runs."""

    @functools.wraps(search)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        was = sys.getrecursionlimit()
        sys.setrecursionlimit(max(was, DEPTH))
        try:
            return search(*args, **kwargs)
        finally:
            sys.setrecursionlimit(was)

    return run


CLOCK = 1023  # a search looks at the clock (``stop.late``) once in this many nodes + 1 (a mask)


class PlanBudgetExceeded(Exception):
    """The fold planner's search used its node budget (``Folder.limit``): not the search's
    limits (:class:`snakecube.search.options.Budget`), an exception the planner catches."""


class PlanOutOfTime(PlanBudgetExceeded):
    """The time limit of the enclosing ``stop.within`` passed (looked at every ``CLOCK`` + 1
    nodes, and before each member of :func:`best_plan`), which marks what it returns
    (``RawPlan.late``). Rejected: a deadline argument through every search of the planner
    and of ``fold.plans`` (a dozen signatures, and the cached free search's key, for one
    number that only the command line sets)."""


def counted(nodes: int, budget: int) -> int:
    """One node more of a planner's search (``nodes`` so far): PlanBudgetExceeded past
    ``budget``, PlanOutOfTime once the time limit has passed (looked at every ``CLOCK`` + 1
    nodes)."""
    nodes += 1
    if nodes > budget:
        raise PlanBudgetExceeded
    if not nodes & CLOCK and stop.late():
        raise PlanOutOfTime
    return nodes


@dataclass(frozen=True, slots=True)
class RawPlan:
    """A plan in the frame it was searched in: the start's dihedrals and the moves, each a
    (corner number s >= 1, quarter turns +1 or -1), in the order they are made."""

    start: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]
    in_order: bool
    fewest: int = 0  # the fewest quarter turns of the plans the search found (0: not said)
    late: bool = False  # the time limit cut a search short (the best found by then)


GAP = (0, 1, 2, 1)  # quarter turns between two dihedrals, by their difference mod 4
SKIP = 0.5  # a guided dive passes over each move with this probability
WINDOW = 10  # the most corners a remembered dead end of ``Flats`` depends on


class Flats:
    """How far a dihedral state is from the nearest flat state that does not cross itself:
    the planner's heuristic, a lower bound on the quarter turns of any plan from that state
    (a plan ends flat, and each corner needs at least the quarter turns between its two
    values: one for an odd corner, two for an even one set to the other flat value).

    Flat states lie in the plane of the first two segments: each corner s >= 1 is 0 (segment
    s+1 goes the way segment s-1 went: a stair) or 2 (it comes back: a U), so the segments
    alternate between the first segment's axis and the second's, each going one way or the
    other. ``reach`` lays the snake along in a grid of cells, one corner at a time, the
    cheaper value first; a branch ends when a segment lands on a cube laid before, or when
    the turns left cannot pay one for each odd corner still to come.

    Dead ends are remembered (nogoods). Segment t landing on segment h's cube depends only
    on the snake's shape from h to t, which is set by the corners strictly between them (up
    to a reflection, which keeps a crossing a crossing). So a corner whose every branch
    failed failed because of its last few corners' values only: remembered by those values
    (at most ``WINDOW`` of them), for good when no branch was cut by the turns left, else for
    this state and at most this many turns left. Most crossings of a snake in the plane are
    between segments a few corners apart, so the search learns them once instead of at every
    place they recur (King B: about 100 corners tried per state, where the plain search
    needed 10,000 to 37,000; some random 4x4x4 solutions several million).
    """

    def __init__(self, lengths: Sequence[int]) -> None:
        self.steps = [n - 1 for n in lengths]
        # the grid: no cube gets further from cube 1, along x or y, than its segments reach
        reach_x, reach_y = sum(self.steps[0::2]) + 1, sum(self.steps[1::2]) + 1
        self.width = 2 * reach_y + 1  # cell (x, y) is x * width + y, past the origin
        self.origin = reach_x * self.width + reach_y
        self.grid = [-1] * ((2 * reach_x + 1) * self.width)  # the segment on each cell, or -1
        self.dead: dict[tuple[int, tuple[int, ...]], bool] = {}  # the nogoods kept for good
        self.nodes = 0  # corners tried, for the caller's budget
        self.limit = 1 << 62  # PlanBudgetExceeded past this many nodes

    def _lay_start(self) -> list[int]:
        """Segments 0 and 1 laid on the grid (along +x, then +y, as every flat state starts):
        their cells, the corner between them and the end of segment 1 last."""
        laid = [self.origin]
        cell = self.origin
        self.grid[cell] = 0
        for k, step in ((0, self.width), (1, 1)):
            for _ in range(self.steps[k]):
                cell += step
                self.grid[cell] = k
                laid.append(cell)
        return laid

    def reach(self, state: Sequence[int], turns: int) -> tuple[int, ...] | None:
        """A flat state that does not cross itself at most ``turns`` quarter turns from
        ``state`` (dihedrals, entry 0 unused), or None. PlanBudgetExceeded past ``limit``
        nodes."""
        m = len(self.steps)
        if m < 3:  # no corner can turn: the state is flat
            return tuple(state)
        steps, grid, width, dead = self.steps, self.grid, self.width, self.dead
        odd_after = _odd_after(state, m)
        if odd_after[1] > turns:
            return None
        vals = [0] * (m - 1)  # the flat values chosen so far
        tight: dict[tuple[int, tuple[int, ...]], int] = {}  # dead ends for this state only
        sign = [1, 1]  # the way the last segment along each axis went
        laid = self._lay_start()
        cell = laid[-1]

        def dfs(s: int, cell: int, left: int) -> tuple[bool, int, bool]:
            """Lay segments s+1.. (segment s ends at ``cell``). Returns whether it worked,
            and if not: the oldest segment landed on (the dead end depends on the corners
            after it) and whether a branch was cut by the turns left."""
            self.nodes = counted(self.nodes, self.limit)
            if s == m - 1:
                return True, 0, False
            for w in range(min(WINDOW, s - 1) + 1):
                key = (s, tuple(vals[s - w : s]))
                if key in dead:
                    return False, s - w - 1, False
                if tight.get(key, -1) >= left:
                    return False, s - w - 1, True
            v = state[s]
            axis = (s + 1) & 1
            before = sign[axis]
            step = width if axis == 0 else 1
            oldest, cut = s, False
            for flat, cost in ((0, 1), (2, 1)) if v & 1 else ((v, 0), (2 - v, 2)):
                if cost + odd_after[s + 1] > left:
                    cut = True
                    continue
                way = before if flat == 0 else -before
                d = step * way
                at, hit, mine = cell, -1, []
                for _ in range(steps[s + 1]):
                    at += d
                    hit = grid[at]
                    if hit >= 0:
                        break
                    grid[at] = s + 1
                    mine.append(at)
                if hit < 0:
                    vals[s] = flat
                    sign[axis] = way
                    ok, hit, below = dfs(s + 1, at, left - cost)
                    sign[axis] = before
                    cut = cut or below
                else:
                    ok = False
                for c in mine:
                    grid[c] = -1
                if ok:
                    return True, 0, False
                oldest = min(oldest, hit)
            w = s - 1 - oldest  # the dead end depends on corners oldest+1 .. s-1
            if w <= WINDOW:
                key = (s, tuple(vals[s - w : s]))
                if not cut:
                    dead[key] = True
                elif tight.get(key, -1) < left:
                    tight[key] = left
            return False, oldest, cut

        try:
            ok = dfs(1, cell, turns)[0]
        finally:
            for c in laid:
                grid[c] = -1
        return (state[0], *vals[1:]) if ok else None


class Folder:
    """Searches plans for one snake (segment lengths) and one solution (its cells)."""

    def __init__(self, lengths: Sequence[int], end: Sequence[Vec], target: set[Vec]) -> None:
        self.lengths = tuple(lengths)
        self.end = [(c[0], c[1], c[2]) for c in end]
        self.target = target
        self.goal = tuple(dihedrals_of(self.end, self.lengths))
        d = directions_of(self.end, self.lengths)
        self.first = d[0]
        self.second = d[1] if len(d) > 1 else d[0]
        self.corners = corners_of(self.lengths)
        self.nodes = 0
        self.budget = NODES  # the nodes a search may use (``nodes`` counts them)
        self.floor: int | None = None  # no cube may go below this z (the table), if set
        self._flats: Flats | None = None  # made on first use
        self._near: dict[tuple[int, ...], tuple[int, ...]] = {}  # a state: a flat in reach
        self._far: dict[tuple[int, ...], int] = {}  # a state: most turns known too few
        self.bounded = False  # did the last guided search rule out a move by its bound?

    def joints(self, p: RawPlan) -> list[int]:
        """The joints ``p`` turns, in order: each the cube number of its corner."""
        return [self.corners[s] for s, _ in p.moves]

    def cells(self, dihedrals: Sequence[int]) -> list[Vec]:
        """The configuration with these dihedrals."""
        return build(self.lengths, self.end[0], self.first, self.second, dihedrals)

    # -- the live configuration -------------------------------------------------------------
    def _reset(self) -> None:
        self.live = list(self.end)
        self.occupied = {c: i for i, c in enumerate(self.live)}
        self.state = list(self.goal)

    def _turned(self, s: int, q: int) -> list[Vec] | None:
        """The cells after corner s once it is turned by q, or None if one would land on a
        cube before the corner; nothing changes."""
        cells, occupied = self.live, self.occupied
        c = self.corners[s]
        o = cells[c - 1]
        nxt = cells[c]
        # Step: the quarter turn about the segment's axis a (``model.rotate``, inlined): in
        # the plane (u, w) square to it, (x, y) -> (-y, x), (-x, -y) or (y, -x).
        a = 0 if nxt[0] != o[0] else 1 if nxt[1] != o[1] else 2
        turns = (q if nxt[a] > o[a] else -q) % 4
        if turns == 0:
            return list(cells[c + 1 :])
        u, w = (a + 1) % 3, (a + 2) % 3
        moved = []
        for i in range(c + 1, len(cells)):
            p = cells[i]
            x, y = p[u] - o[u], p[w] - o[w]
            x, y = (-y, x) if turns == 1 else (-x, -y) if turns == 2 else (y, -x)
            new = [0, 0, 0]
            new[a], new[u], new[w] = p[a], o[u] + x, o[w] + y
            t = (new[0], new[1], new[2])
            hit = occupied.get(t)
            if hit is not None and hit <= c:
                return None
            if self.floor is not None and t[2] < self.floor:
                return None
            moved.append(t)
        return moved

    def _turn(self, s: int, q: int) -> bool:
        """Turn corner s by q in the live configuration; False (nothing changed) if the part
        after the corner would land on a cube before it."""
        moved = self._turned(s, q)
        if moved is None:
            return False
        cells, occupied = self.live, self.occupied
        c = self.corners[s]
        for i in range(c + 1, len(cells)):
            del occupied[cells[i]]
        for k, new in enumerate(moved, c + 1):
            cells[k] = new
            occupied[new] = k
        self.state[s] = (self.state[s] + q) % 4
        return True

    def _moves(
        self, monotone: bool, clear_only: bool, budget: int
    ) -> list[tuple[tuple[bool, bool, int, int], int, int]]:
        """Valid backward moves (corner, q) from the live state, most natural first: a
        corner flattened (not turned away from flat), the swing clear, higher corners first
        (forwards: segments placed in order), fewer tail cubes inside the target."""
        goal, state, corners = self.goal, self.state, self.corners
        out = []
        for s in range(len(goal) - 1, 0, -1):
            if monotone and state[s] % 2 == 0:
                continue
            for d in (1, -1):
                self.nodes = counted(self.nodes, budget)
                moved = self._turned(s, d)
                if moved is None:
                    continue
                after = self.live[: corners[s] + 1] + moved
                clear = swing_is_clear(after, corners[s], -d)  # forwards: by -d
                tail = sum(1 for p in moved if p in self.target)
                if clear_only and not clear:
                    continue
                worse = state[s] % 2 == 0  # it is flat now: this turn must be undone
                out.append(((worse, not clear, -s, tail), s, d))
        out.sort()
        return out

    def _natural(
        self, clear_only: bool, keep: Callable[[int, int], bool]
    ) -> Iterator[tuple[int, int]]:
        """The valid backward moves (corner, q) that ``keep`` keeps, in the order of
        ``_moves``, each made only when asked for: a search that takes the first move or two
        of a state measures one or two swings, not all of them, and measures none of a move
        it would not keep. The live state must be as it was at each step."""
        state, corners, live, target = self.state, self.corners, self.live, self.target
        for worse in (False, True):  # corners laid flat first, then turned out of the plane
            unclear = []
            for s in range(len(state) - 1, 0, -1):
                if (state[s] % 2 == 0) is not worse:
                    continue
                here = []
                for d in (1, -1):
                    self.nodes = counted(self.nodes, self.budget)
                    moved = self._turned(s, d)
                    if moved is not None and keep(s, d):
                        here.append((sum(1 for p in moved if p in target), d, moved))
                here.sort(key=lambda m: m[:2])  # as ``_moves``: fewer tail cubes inside, then q
                for _tail, d, moved in here:
                    if swing_is_clear(live[: corners[s] + 1] + moved, corners[s], -d):
                        yield s, d
                    elif not clear_only:
                        unclear.append((s, d))
            yield from unclear

    def _h(self) -> int:
        return sum(v % 2 for v in self.state[1:])

    def _plan(self, path: list[tuple[int, int]]) -> RawPlan:
        """The live flat state and the backward path, as a forward plan."""
        moves = tuple(reversed(path))
        order = [s for s, _ in moves]
        in_order = order == sorted(order) and len(set(order)) == len(order)
        return RawPlan(tuple(self.state), moves, in_order)

    # -- searches ----------------------------------------------------------------------------
    def in_order(self, budget: int = NODES, clear_only: bool = False) -> RawPlan | None:
        """A plan that places segments strictly in order from the held end (the tail flat
        until its turn), or None. PlanBudgetExceeded when out of nodes."""
        self._reset()
        odd = [s for s in range(len(self.goal) - 1, 0, -1) if self.goal[s] % 2]
        path: list[tuple[int, int]] = []

        def dfs(k: int) -> bool:
            if k == len(odd):
                return True
            s = odd[k]
            options = []
            for d in (1, -1):
                self.nodes = counted(self.nodes, budget)
                if self._turn(s, d):
                    clear = swing_is_clear(self.live, self.corners[s], -d)
                    tail = sum(1 for p in self.live[self.corners[s] + 1 :] if p in self.target)
                    self._turn(s, -d)
                    if clear or not clear_only:
                        options.append((not clear, tail, d))
            for _c, _t, d in sorted(options):
                self._turn(s, d)
                path.append((s, -d))
                if dfs(k + 1):
                    return True
                path.pop()
                self._turn(s, -d)
            return False

        return self._plan(path) if dfs(0) else None

    # -- the nearest flat state, and the searches it guides ------------------------------------
    def _reachable(self, key: tuple[int, ...], turns: int, hint: tuple[int, ...] | None) -> bool:
        """Is a flat state that does not cross itself at most ``turns`` quarter turns from the
        dihedral state ``key`` (``Flats.reach``)? Remembered per state: a flat found (tried
        again first: ``hint``, the flat found for the state before, usually still is one)
        and the most turns known too few."""
        if sum(v & 1 for v in key) > turns:  # each odd corner needs a turn of its own
            return False
        flat = self._near.get(key, hint)
        if (
            flat is not None
            and sum(GAP[(a - b) & 3] for a, b in zip(key, flat, strict=True)) <= turns
        ):
            self._near[key] = flat
            return True
        if self._far.get(key, -1) >= turns:
            return False
        if self._flats is None:
            self._flats = Flats(self.lengths)
        flats = self._flats
        flats.nodes, flats.limit = self.nodes, self.budget
        flat = flats.reach(key, turns)
        self.nodes = flats.nodes
        if flat is None:
            self._far[key] = turns
            return False
        self._near[key] = flat
        return True

    @_deep
    def fewest_bound(self, budget: int = NODES) -> int:
        """The quarter turns from the solution to the nearest flat state that does not cross
        itself: no plan has fewer (``Flats``). PlanBudgetExceeded when out of nodes."""
        self.budget = budget
        goal = tuple(self.goal)
        turns = sum(v & 1 for v in goal[1:])
        while not self._reachable(goal, turns, None):  # the flat staircase is always one
            turns += 2
        return turns

    def _after(self, s: int, d: int) -> tuple[int, ...]:
        """The dihedral state after corner s is turned by d (the live state is kept)."""
        state = self.state
        return (*state[:s], (state[s] + d) & 3, *state[s + 1 :])

    def guided(self, budget: int = NODES, clear_only: bool = False) -> RawPlan | None:
        """The plan with the fewest quarter turns: iterative-deepening A* whose heuristic is
        the distance to the nearest flat state that does not cross itself (``Flats``), with a
        table of states already seen; corners may be turned out of the way and back. The
        bound starts at ``fewest_bound`` and rises by two while some move went past it. Moves
        are taken in the natural order (``_moves``), and the distance is asked only of the
        move about to be made: it is the costly part, and the first move in reach usually
        leads to a plan. None when there is no plan (no move was cut by the bound);
        PlanBudgetExceeded when out of nodes."""
        fewest = self.fewest_bound(budget)  # sets self.budget
        self._reset()
        seen: dict[tuple[int, ...], int] = {}
        path: list[tuple[int, int]] = []

        def dfs(g: int, bound: int) -> bool:
            if self._h() == 0:
                return True
            hint = self._near.get(tuple(self.state))

            def keep(s: int, d: int) -> bool:
                key = self._after(s, d)
                if seen.get(key, 1 << 30) <= g + 1:
                    return False
                if not self._reachable(key, bound - g - 1, hint):
                    self.bounded = True  # a move the bound ruled out
                    return False
                return True

            for s, d in self._natural(clear_only, keep):
                seen[self._after(s, d)] = g + 1
                self._turn(s, d)
                path.append((s, -d))
                if dfs(g + 1, bound):
                    return True
                path.pop()
                self._turn(s, -d)
            return False

        bound = fewest
        while True:
            seen.clear()
            seen[tuple(self.state)] = 0
            self.bounded = False
            if dfs(0, bound):
                return self._plan(path)
            if not self.bounded:  # every state within reach was seen: there is no plan
                return None
            bound += 2

    def guided_dive(
        self, rng: random.Random, turns: int, clear_only: bool = False, budget: int = NODES
    ) -> RawPlan | None:
        """One descent, no backtracking, to a plan of at most ``turns`` quarter turns: at each
        step, of the valid moves after which a flat state is still in reach, taken in the
        natural order (clear swings, higher corners first), each is passed over with
        probability ``SKIP``; the first not passed over is made (the first of all when every
        one is). None when it gets stuck."""
        self.budget = budget
        self._reset()
        path: list[tuple[int, int]] = []
        while self._h():
            left = turns - len(path) - 1
            hint = self._near.get(tuple(self.state))

            def keep(s: int, d: int, left: int = left, hint: tuple[int, ...] | None = hint) -> bool:
                return self._reachable(self._after(s, d), left, hint)

            first = move = None
            for m in self._natural(clear_only, keep):
                first = first or m
                if rng.random() >= SKIP:
                    move = m
                    break
            move = move or first
            if move is None:
                return None
            self._turn(*move)
            path.append((move[0], -move[1]))
        return self._plan(path)

    def walk(
        self, turns: int, budget: int = NODES, bound: int = 1 << 30, clear_only: bool = False
    ) -> RawPlan | None:
        """A plan of at most ``turns`` quarter turns whose hand distance (``hand_distance``:
        how far along the chain the hand moves from each joint turned to the next) is the
        shortest found, below ``bound``; None when none is found. PlanBudgetExceeded when out
        of nodes before one is found (a plan found first is kept: the search is anytime).

        Depth first with branch and bound on the hand distance, backwards from the solution
        as the other searches (the distance is the same read either way). A move's cost is
        its distance along the chain from the move before; the bound below a state is the
        walk that visits every corner still odd, from the last corner turned (each odd corner
        needs a turn, and a walk along a line visits an interval at best by going to its
        nearer end first). A move is kept only when a flat state stays within the turns left
        (``Flats``, as the guided search). Children are tried by their cost plus the bound
        after them, so the first descent already walks; limited discrepancy search (pass k
        allows k choices other than the first along a path, counted by their rank) then
        mends the early choices first, where plain backtracking would mend the last ones.
        Each pass remembers the states it has seen with their distance, turns and the
        discrepancy left, and skips one seen no worse. The search ends when a pass has cut
        nothing by its discrepancy (then no better plan exists) or when a plan meets the
        bound of the solution itself."""
        self.budget = budget
        self.nodes = 0
        return _Walk(self, turns, bound, clear_only).run()

    def with_extra(
        self, budget: int = NODES, clear_only: bool = False, extra: int = 6
    ) -> RawPlan | None:
        """The plan with the fewest quarter turns, up to ``extra`` over the lower bound
        (iterative-deepening A*: corners may be turned out of the way and back)."""
        self._reset()
        seen: dict[tuple[int, ...], int] = {}
        path: list[tuple[int, int]] = []

        def dfs(g: int, bound: int) -> int:
            rest = self._h()
            if g + rest > bound:
                return g + rest
            if rest == 0:
                return -1
            least = 1 << 30
            for _key, s, d in self._moves(False, clear_only, budget):
                self._turn(s, d)
                key = tuple(self.state)
                if seen.get(key, 1 << 30) > g + 1:
                    seen[key] = g + 1
                    path.append((s, -d))
                    t = dfs(g + 1, bound)
                    if t < 0:
                        return t
                    path.pop()
                    least = min(least, t)
                self._turn(s, -d)
            return least

        lower = self._h()
        bound = lower
        while bound <= lower + extra:
            seen.clear()
            seen[tuple(self.state)] = 0
            t = dfs(0, bound)
            if t < 0:
                return self._plan(path)
            if t >= 1 << 30:
                return None
            bound = t
        return None


def hand_distance(joints: Sequence[int]) -> int:
    """How far along the chain the hand moves through a plan: the sum over its moves of the
    distance, in cubes, from each joint turned to the one before (0 for a half turn).

    >>> hand_distance([19, 28, 31, 31, 20])
    23
    """
    return sum(abs(b - a) for a, b in itertools.pairwise(joints))


def span(joints: Sequence[int]) -> int:
    """The stretch of the chain a plan's joints cover, in cubes: the highest joint turned
    minus the lowest (a plan that walks along the chain moves the hand about this far)."""
    return max(joints) - min(joints) if joints else 0


def disorder(raw: RawPlan) -> int:
    """How many moves come out of order: their corner is below one turned before."""
    top, count = 0, 0
    for s, _ in raw.moves:
        if s < top:
            count += 1
        top = max(top, s)
    return count


def walk_key(joints: Sequence[int]) -> tuple[float, int, int]:
    """How well a plan walks along the chain, smaller is better: its hand distance as a
    multiple of its span, counted only above ``WALK_LIMIT``, then its quarter turns, then
    its hand distance."""
    ratio = hand_distance(joints) / max(1, span(joints))
    return (max(ratio, WALK_LIMIT), len(joints), hand_distance(joints))


@_deep
def best_plan(
    lengths: Sequence[int],
    end: Sequence[Vec],
    target: set[Vec],
    nodes: int = NODES,
    clear_only: bool = False,
    seed: int = 0,
    dives: int = 16,
    enough: int = 4,
    floor: int | None = None,
    order: str = "walk",
) -> RawPlan | None:
    """The best plan found within the budget. A portfolio, deterministic for a seed:
    strictly in order; else the guided IDA* (the fewest quarter turns), then up to
    ``dives`` guided descents of as many turns, until ``enough`` plans are found; each
    member has ``nodes``. With ``order`` "fewest", the best is the fewest quarter turns,
    then fewest moves out of order, then most clear swings. With "walk" (the default), the
    walking search (``Folder.walk``, a tenth of the nodes) then looks for a plan of as few
    turns whose hand distance is shorter, and, when the best is still above ``WALK_LIMIT``
    times its span, for one of ``WALK_EXTRA`` turns more; the best is then by ``walk_key``,
    then fewest out of order, then most clear swings. Raises PlanBudgetExceeded when nothing
    was found and some search was cut short (PlanOutOfTime when the time limit cut one);
    a plan found while the time limit cut a search is marked ``late``. With ``floor``, no
    state may put a cube below that z (the table top)."""
    folder = Folder(lengths, end, target)
    folder.floor = floor
    cut = late = False
    found: list[RawPlan] = []

    def attempt(run: Callable[[], RawPlan | None]) -> None:
        nonlocal cut, late
        if stop.late():  # the time limit (stop.within): keep what was found
            cut = late = True
            return
        folder.nodes = 0
        try:
            plan = run()
        except PlanBudgetExceeded as stopped:
            cut, late = True, late or isinstance(stopped, PlanOutOfTime)
            return
        if plan is not None:
            found.append(plan)
            late = late or plan.late

    attempt(lambda: folder.in_order(nodes, clear_only))
    if not found:
        attempt(lambda: folder.guided(nodes, clear_only))
    if found and not found[0].in_order:
        turns = len(found[0].moves)
        rng = random.Random(seed)
        for _ in range(dives):
            if len(found) >= enough:
                break
            attempt(lambda: folder.guided_dive(rng, turns, clear_only, nodes))
    if not found:
        if late:
            raise PlanOutOfTime
        if cut:
            raise PlanBudgetExceeded
        return None
    if order == "walk" and not found[0].in_order:  # in order walks already: one way along
        share = max(1, nodes // WALK_SHARE)
        fewest = min(len(p.moves) for p in found)
        for turns in range(fewest, fewest + WALK_EXTRA + 1, 2):  # the parity is fixed
            best = min(found, key=lambda p: walk_key(folder.joints(p)))
            if turns > fewest and walk_key(folder.joints(best))[0] <= WALK_LIMIT:
                break
            bound = hand_distance(folder.joints(best))
            attempt(functools.partial(folder.walk, turns, share, bound, clear_only))
    best = min(found, key=functools.partial(_quality, folder, order))
    return replace(best, fewest=min(len(p.moves) for p in found), late=late)


def _quality(folder: Folder, order: str, p: RawPlan) -> tuple[object, ...]:
    """:func:`best_plan`'s order of plans, the best first: with ``order`` "walk" by
    ``walk_key``, else by quarter turns; then the fewest moves out of order, then the most
    clear swings."""
    moves = [(folder.corners[s], q) for s, q in p.moves]
    states = states_of(folder.lengths, folder.cells(p.start), moves)
    clear = sum(swing_is_clear(states[k], j, q) for k, (j, q) in enumerate(moves))
    first = walk_key(folder.joints(p)) if order == "walk" else (len(p.moves),)
    return (*first, disorder(p), -clear)


def distance(a: int, b: int) -> int:
    """Quarter turns between two dihedrals (0, 1 or 2)."""
    d = (a - b) % 4
    return min(d, 4 - d)


def states_of(
    lengths: Sequence[int], start: Sequence[Vec], moves: Sequence[tuple[int, int]]
) -> list[list[Vec]]:
    """Every configuration of a plan in the model's moves: the start, then after each move."""
    out = [list(start)]
    for joint, q in moves:
        out.append(apply_move(out[-1], joint, q))
    return out


class _Walk:
    """One :meth:`Folder.walk`: its passes of limited discrepancy, the shortest hand distance
    found so far and its plan, and the turns already known to be free."""

    def __init__(self, planner: Folder, turns: int, bound: int, clear_only: bool) -> None:
        self.p = planner
        self.turns = turns
        self.clear_only = clear_only
        self.best_walked = bound  # the shortest hand distance found
        self.best_plan: RawPlan | None = None  # and its plan
        self.valid: dict[tuple[tuple[int, ...], int, int], bool] = {}
        root = [planner.corners[t] for t in range(1, len(planner.goal)) if planner.goal[t] & 1]
        self.enough = WALK_GOOD * (root[-1] - root[0]) if root else 0
        self.path: list[tuple[int, int]] = []
        self.seen: dict[tuple[tuple[int, ...], int], tuple[int, int, int]] = {}
        self.whole = True  # nothing cut by the discrepancies allowed in this pass

    def run(self) -> RawPlan | None:
        k = 0
        try:
            while not self.descend(k):
                k += 1
        except PlanBudgetExceeded as stopped:
            if self.best_plan is None:
                raise
            if isinstance(stopped, PlanOutOfTime):  # the best found by then
                return replace(self.best_plan, late=True)
        return self.best_plan

    def free(self, state: tuple[int, ...], s: int, d: int) -> bool:
        """Can corner s of the live state turn by d (and swing clear, if asked)?
        Remembered: each pass goes down the paths of the passes before."""
        known = self.valid.get((state, s, d))
        if known is None:
            p = self.p
            moved = p._turned(s, d)
            known = moved is not None and (
                not self.clear_only
                or swing_is_clear(p.live[: p.corners[s] + 1] + moved, p.corners[s], -d)
            )
            self.valid[(state, s, d)] = known
        return known

    def descend(self, k: int) -> bool:
        """One pass with at most k discrepancies: True when nothing was cut by k."""
        self.p._reset()
        self.path, self.seen, self.whole = [], {}, True
        self.dfs(0, 0, 0, k)
        return self.whole or self.best_walked <= self.enough

    def options(self, odd: list[int], last: int, walked: int) -> list[tuple[int, bool, int, int]]:
        """The corners worth turning next, best first: (the step along the chain to it plus
        the walk still needed after it, whether it is even, the step, the corner)."""
        state, corners = self.p.state, self.p.corners
        lo, hi = odd[0], odd[-1]
        here = corners[last] if last else -1
        out = []
        for s in range(1, len(self.p.goal)):
            p = corners[s]
            step = 0 if here < 0 else abs(p - here)
            if state[s] & 1:  # s made even: the odd corners without it
                rest = odd if lo < p < hi else [q for q in odd if q != p]
                ends = (rest[0], rest[-1]) if rest else None
            else:
                ends = (min(lo, p), max(hi, p))
            h = 0 if ends is None else ends[1] - ends[0] + min(abs(p - ends[0]), abs(p - ends[1]))
            if walked + step + h < self.best_walked:
                out.append((step + h, state[s] % 2 == 0, step, s))
        out.sort()
        return out

    def dfs(self, g: int, walked: int, last: int, spare: int) -> None:
        p = self.p
        state = p.state
        odd = [p.corners[t] for t in range(1, len(p.goal)) if state[t] & 1]
        if not odd:
            if walked < self.best_walked:
                self.best_walked, self.best_plan = walked, p._plan(self.path)
            return
        key = (tuple(state), last)
        was = self.seen.get(key)
        if was is not None and was[0] <= walked and was[1] <= g and was[2] >= spare:
            return
        self.seen[key] = (walked, g, spare)
        hint = p._near.get(key[0])
        rank = 0
        for _f, _worse, step, s in self.options(odd, last, walked):
            for d in (1, -1):
                if rank > spare:
                    self.whole = False
                    return
                p.nodes = counted(p.nodes, p.budget)
                if not self.free(key[0], s, d):
                    continue
                if not p._reachable(p._after(s, d), self.turns - g - 1, hint):
                    continue
                p._turn(s, d)
                self.path.append((s, -d))
                self.dfs(g + 1, walked + step, s, spare - rank)
                self.path.pop()
                p._turn(s, -d)
                rank += 1


def _odd_after(state: Sequence[int], m: int) -> list[int]:
    """The odd corners of ``state`` from each corner on (``m`` segments): the turns a flat
    state still needs at least."""
    odd_after = [0] * (m + 1)
    for s in range(m - 2, 0, -1):
        odd_after[s] = odd_after[s + 1] + (state[s] & 1)
    return odd_after
