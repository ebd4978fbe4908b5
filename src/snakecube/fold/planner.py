"""The planner: quarter turns that fold a flat snake into a given solution, every state valid.

A plan changes dihedrals (see ``fold.model``): each move is one quarter turn of one corner.
The start lies flat: every dihedral after the first corner is 0 or 2, in the plane of the
first two segments (the first corner is never turned: its angle only says where the plane
is). For a corner whose dihedral in the solution is even, the start takes that value; an odd
one (1 or 3) needs one quarter turn from either flat value. So the fewest quarter turns from
the best flat start is the number of odd corners: the **lower bound**.

The search runs backwards, from the solution to a flat state, and the plan is that path read
forwards. It is an iterative-deepening A* (cost: quarter turns; heuristic: corners still
odd, which never overestimates), so the first plan found has the fewest quarter turns; the
bound rises by two when no plan meets it (a corner turned out of the way and back). Moves
are tried in the order a person makes them: segments placed one by one from the held end
(read backwards: the last corner laid flat first), the swing clear, the tail out of the
target. ``in_order_only`` allows only that order (each corner once, the tail flat until its
turn): a plan a person can make without ever touching the tail.

The search keeps one configuration and turns only the part after the corner, checking it
against a map of occupied cells, so a step costs about the tail's length.

A plan from the last end is made for the reversed snake and written back in the model's
numbering (moves turn cubes i+1..n): the same relative motions, hence the same states up to
a rigid motion, with the start found by undoing the moves from the solution.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


class Budget(Exception):
    """The search used its node budget."""


@dataclass(frozen=True, slots=True)
class RawPlan:
    """A plan in the frame it was searched in: the start's dihedrals and the moves, each a
    (corner number s >= 1, quarter turns +1 or -1), in the order they are made."""

    start: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]
    in_order: bool

    def _ordered(self) -> RawPlan:
        """The same plan, ``in_order`` set from its moves."""
        order = [s for s, _ in self.moves]
        return RawPlan(
            self.start, self.moves, order == sorted(order) and len(set(order)) == len(order)
        )


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
        self.floor: int | None = None  # no cube may go below this z (the table), if set

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
                self.nodes += 1
                if self.nodes > budget:
                    raise Budget
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
        until its turn), or None. Budget when out of nodes."""
        self._reset()
        odd = [s for s in range(len(self.goal) - 1, 0, -1) if self.goal[s] % 2]
        path: list[tuple[int, int]] = []

        def dfs(k: int) -> bool:
            if k == len(odd):
                return True
            s = odd[k]
            options = []
            for d in (1, -1):
                self.nodes += 1
                if self.nodes > budget:
                    raise Budget
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

    def monotone(
        self, budget: int = NODES, clear_only: bool = False, rng: random.Random | None = None
    ) -> RawPlan | None:
        """A plan meeting the lower bound (each odd corner turned once, any order), depth
        first with a table of states already seen; moves in the natural order, or shuffled
        (within equal naturalness) by ``rng``. None when there is none; Budget."""
        self._reset()
        seen: set[tuple[int, ...]] = set()
        path: list[tuple[int, int]] = []

        def dfs() -> bool:
            if self._h() == 0:
                return True
            moves = self._moves(True, clear_only, budget)
            if rng is not None:
                rng.shuffle(moves)
                moves.sort(key=lambda mv: mv[0][:2])  # shuffled within clear / not clear
            for _key, s, d in moves:
                self._turn(s, d)
                key = tuple(self.state)
                if key not in seen:
                    seen.add(key)
                    path.append((s, -d))
                    if dfs():
                        return True
                    path.pop()
                self._turn(s, -d)
            return False

        return self._plan(path) if dfs() else None

    def dive(
        self, rng: random.Random, clear_only: bool = False, budget: int = NODES
    ) -> RawPlan | None:
        """One greedy descent over monotone moves, no backtracking: at each step a valid
        move drawn with a strong bias to the natural order (clear swings, higher corners
        first). None when it gets stuck."""
        self._reset()
        path: list[tuple[int, int]] = []
        while self._h():
            moves = self._moves(True, clear_only, budget)
            if not moves:
                return None
            _key, s, d = moves[int(len(moves) * rng.random() ** 3)]
            self._turn(s, d)
            path.append((s, -d))
        return self._plan(path)

    def best_first(self, budget: int = NODES, weight: float = 3.0) -> RawPlan | None:
        """A plan found by weighted best-first search backwards from the solution (priority:
        turns so far + ``weight`` x corners still odd; fewer tail cubes inside the target on
        a tie); corners may be turned out of the way and back. Not the fewest turns, but it
        finds plans where the depth-first members drown: long snakes whose flat start with
        the solution's even corners crosses itself (King B). None when there is none."""
        goal = tuple(self.goal)
        parent: dict[tuple[int, ...], tuple[tuple[int, ...], int, int] | None] = {goal: None}
        best_g = {goal: 0}
        heap = [(weight * sum(v % 2 for v in goal[1:]), 0, 0, goal)]
        while heap:
            _prio, _inside, g, state = heapq.heappop(heap)
            if best_g[state] < g:
                continue
            if not any(v % 2 for v in state[1:]):  # flat: read the path back to the solution
                flat, path = state, []
                while (step := parent[state]) is not None:
                    state, s, d = step
                    path.append((s, -d))
                self.live = self.cells(flat)
                self.state = list(flat)
                return RawPlan(flat, tuple(path), False)._ordered()
            self.live = self.cells(state)
            self.occupied = {c: i for i, c in enumerate(self.live)}
            for s in range(len(state) - 1, 0, -1):
                for d in (1, -1):
                    self.nodes += 1
                    if self.nodes > budget:
                        raise Budget
                    moved = self._turned(s, d)
                    if moved is None:
                        continue
                    nxt = list(state)
                    nxt[s] = (nxt[s] + d) % 4
                    key = tuple(nxt)
                    if best_g.get(key, 1 << 30) <= g + 1:
                        continue
                    best_g[key] = g + 1
                    parent[key] = (state, s, d)
                    inside = sum(1 for p in moved if p in self.target)
                    odd = sum(v % 2 for v in key[1:])
                    heapq.heappush(heap, (g + 1 + weight * odd, inside, g + 1, key))
        return None

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


def disorder(raw: RawPlan) -> int:
    """How many moves come out of order: their corner is below one turned before."""
    top, count = 0, 0
    for s, _ in raw.moves:
        if s < top:
            count += 1
        top = max(top, s)
    return count


def best_plan(
    lengths: Sequence[int],
    end: Sequence[Vec],
    target: set[Vec],
    nodes: int = NODES,
    clear_only: bool = False,
    seed: int = 0,
    dives: int = 200,
    enough: int = 4,
    floor: int | None = None,
) -> RawPlan | None:
    """The best plan found within the budget: fewest quarter turns, then fewest moves out of
    order, then most clear swings. A portfolio, deterministic for a seed: strictly in order;
    depth first over monotone moves in the natural order (a small budget); then up to
    ``dives`` greedy descents biased to the natural order, until ``enough`` plans are found;
    and if none meets the lower bound, corners turned out of the way and back. Raises Budget
    when nothing was found and some search was cut short. With ``floor``, no state may put
    a cube below that z (the table top)."""
    folder = Folder(lengths, end, target)
    folder.floor = floor
    cut = False
    found: list[RawPlan] = []

    def attempt(run: Callable[[], RawPlan | None]) -> None:
        nonlocal cut
        folder.nodes = 0
        try:
            plan = run()
        except Budget:
            cut = True
            return
        if plan is not None:
            found.append(plan)

    attempt(lambda: folder.in_order(nodes, clear_only))
    if not found:
        attempt(lambda: folder.monotone(nodes // 10, clear_only))
        rng = random.Random(seed)
        for _ in range(dives):
            if len(found) >= enough:
                break
            attempt(lambda: folder.dive(rng, clear_only, nodes))
    if not found:
        attempt(lambda: folder.best_first(nodes))
    if not found:
        attempt(lambda: folder.with_extra(nodes, clear_only))
    if not found:
        if cut:
            raise Budget
        return None

    def quality(p: RawPlan) -> tuple[int, int, int]:
        moves = [(folder.corners[s], q) for s, q in p.moves]
        states = states_of(lengths, folder.cells(p.start), moves)
        clear = sum(swing_is_clear(states[k], j, q) for k, (j, q) in enumerate(moves))
        return (len(p.moves), disorder(p), -clear)

    return min(found, key=quality)


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
