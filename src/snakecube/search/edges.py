"""The edge model: snakes whose corners follow the grid's colouring, as SAT over the target's
edges with lazy cuts (CaDiCaL through python-sat, an extra).

A path through the grid alternates the cells' colours ((x + y + z) mod 2), so cube ``i`` of
a fold sits on a cell of colour ``colour(first cell) ^ (i & 1)``. Two families of snakes make
whether a cube is a corner a function of its cell's colour alone:

* **bent**: every inner cube a corner (segments all of length 2): every cell a path passes
  through is a corner;
* **alternate**: corners on alternate cubes (inner segments of length 3, the end segments 2
  or 3): corners on the cells of one colour ``K``, straight through the other.

For these the cube numbers are not needed: a fold is a Hamiltonian path of the target's grid
graph that turns at every cell of the corner colour and goes straight through every other
inner cell. The model has one variable an edge of the grid (``edge(c, m)``) and one a cell
(``end(c)``: the path ends there); the clauses say

* every cell has an edge; an end has one; any other cell two, perpendicular at a corner
  cell and opposite at a straight one;
* exactly two ends: on the colour the region has more of (odd volume), or one of each;
* alternate snakes of even volume: a variable ``sigma`` says which colour is ``K`` (fixed when
  a symmetry of the target swaps the colours).

Those clauses allow a path plus closed cycles. Each model is checked: when its edges fall
apart into several pieces, a clause for each closed piece says that not all its edges are
used (a lazy cut: no fold has a cycle), and the solver goes on; the first model in one piece
is a path. UNSAT, with or without cuts, proves that the snake does not fold: every clause
holds for every fold. (Measured on bent snakes in 17 boxes of 343-900 cells: 15,612 conflicts
in all with these cycle clauses, 29,916 with a clause per piece that some edge leaves it,
14,764 with both; the cycle clauses were fewest in 12 of the 17.)

The model has about 4n variables and 30n clauses against the position model's n^2 / 2 and
more (``search.sat``): a bent 9x9x9 snake (729 cubes) folds in under a second, and the
boxes up to 7x7x7 that have none are proven so in under a second each
(docs/bent-snakes.md). The tests check it against the exhaustive kernel on every box of up to
36 cells, both ways (tests/test_edges.py), and every path it gives is verified like any other
solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from snakecube.search.plan import can_start, colour
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex
from snakecube.snake import Snake

Clause = list[int]


@dataclass(frozen=True, slots=True)
class Pattern:
    """Where a snake's corners are, when its cells' colours decide it: ``bent`` (every inner
    cube), or corners on the inner cubes ``i`` with ``i % 2 == parity`` (0-based)."""

    bent: bool
    parity: int

    def describe(self) -> str:
        """In words, for a result or a message."""
        if self.bent:
            return "every inner cube a corner"
        return f"corners on alternate cubes ({'even' if self.parity == 0 else 'odd'} cubes)"


def pattern(snake: Snake) -> Pattern | None:
    """The snake's pattern, if its corners follow the grid's colouring (at least one corner
    and one cube either side of it), else None."""
    lengths = snake.lengths
    if len(lengths) < 2:
        return None
    if all(n == 2 for n in lengths):
        return Pattern(True, 0)
    inner_ok = all(n == 3 for n in lengths[1:-1])
    if inner_ok and lengths[0] in (2, 3) and lengths[-1] in (2, 3):
        # the first corner is cube lengths[0] - 1: cube 1 (odd) or cube 2 (even)
        return Pattern(False, (lengths[0] - 1) & 1)
    return None


class EdgeModel:
    """The clauses of one problem's edge model, and how to read a fold from a model."""

    def __init__(self, problem: Problem, rule: Pattern) -> None:
        from pysat.card import CardEnc, EncType  # the sat extra

        region = problem.region
        n = problem.ncells
        nb = region.neighbours
        self.problem, self.rule = problem, rule
        self.clauses: list[Clause] = []
        add = self.clauses.append
        col = [colour(region, c) for c in range(n)]
        # incident[c][d]: the variable of the edge from c in direction d, 0 where there is none
        self.incident = [[0] * 6 for _ in range(n)]
        self.edges: list[tuple[CellIndex, CellIndex, int]] = []
        top = 0
        for c in range(n):
            for d in (0, 2, 4):
                m = nb[c][d]
                if m >= 0:
                    top += 1
                    self.edges.append((c, m, top))
                    self.incident[c][d] = self.incident[m][d ^ 1] = top
        self.end = list(range(top + 1, top + n + 1))
        top += n
        self.sigma = top + 1  # true: the corner colour K is 1 (alternate snakes only)
        top += 1
        # The start colours a fold can have; alternate: K is then start ^ parity.
        starts = sorted({col[c] for c in range(n) if can_start(region, c)})
        if not starts or n < 2:
            add([])  # no Hamiltonian path at all: the colour counts are out of balance
        one_colour = len(starts) == 1 or (len(starts) == 2 and _swaps_colours(problem))
        if not rule.bent and one_colour:
            k = starts[0] ^ rule.parity
            add([self.sigma] if k else [-self.sigma])
        for c in range(n):
            inc = self.incident[c]
            have = [e for e in inc if e]
            add(have)  # at least one edge
            for a, b in combinations(have, 2):
                add([-self.end[c], -a, -b])  # an end has one
            if rule.bent:
                self._corner(c, [])
            else:
                is_k = self.sigma if col[c] else -self.sigma  # c has the corner colour
                self._corner(c, [-is_k])
                self._straight(c, [is_k])
        # Exactly two ends, where the colours allow them.
        if n % 2:
            for c in range(n):
                if starts and col[c] != starts[0]:
                    add([-self.end[c]])
            groups = [self.end]
            bound = 2
        else:
            groups = [[self.end[c] for c in range(n) if col[c] == k] for k in (0, 1)]
            bound = 1
        for lits in groups:
            if not lits:
                continue
            card = CardEnc.equals(lits=lits, bound=bound, top_id=top, encoding=EncType.seqcounter)
            self.clauses.extend(card.clauses)
            top = max(top, card.nv)
        self.variables = top

    def _corner(self, c: CellIndex, guard: Clause) -> None:
        """Clauses (each with ``guard`` added) for a corner cell: no two opposite edges, no
        three, and a second edge on another axis unless the cell is an end."""
        add, inc = self.clauses.append, self.incident[c]
        for a in range(3):
            if inc[2 * a] and inc[2 * a + 1]:
                add([*guard, -inc[2 * a], -inc[2 * a + 1]])
        for t in combinations(range(6), 3):
            if len({d >> 1 for d in t}) == 3 and all(inc[d] for d in t):
                add([*guard, *(-inc[d] for d in t)])
        for d in range(6):
            if inc[d]:
                others = [inc[o] for o in range(6) if o >> 1 != d >> 1 and inc[o]]
                add([*guard, self.end[c], -inc[d], *others])

    def _straight(self, c: CellIndex, guard: Clause) -> None:
        """Clauses (each with ``guard`` added) for a straight cell: no two perpendicular
        edges, and the opposite edge unless the cell is an end."""
        add, inc = self.clauses.append, self.incident[c]
        for d, o in combinations(range(6), 2):
            if d >> 1 != o >> 1 and inc[d] and inc[o]:
                add([*guard, -inc[d], -inc[o]])
        for d in range(6):
            if inc[d]:
                opposite = [inc[d ^ 1]] if inc[d ^ 1] else []
                add([*guard, self.end[c], -inc[d], *opposite])

    def _adjacency(self, model: list[int]) -> list[list[CellIndex]]:
        """Each cell's neighbours along the edges a model uses."""
        true = {v for v in model if v > 0}
        adj: list[list[CellIndex]] = [[] for _ in range(self.problem.ncells)]
        for a, b, v in self.edges:
            if v in true:
                adj[a].append(b)
                adj[b].append(a)
        return adj

    def pieces(self, model: list[int]) -> list[list[CellIndex]]:
        """The cells of each connected piece of a model's edges."""
        n = self.problem.ncells
        adj = self._adjacency(model)
        seen = [False] * n
        out = []
        for c in range(n):
            if seen[c]:
                continue
            seen[c] = True
            piece, stack = [], [c]
            while stack:
                x = stack.pop()
                piece.append(x)
                for y in adj[x]:
                    if not seen[y]:
                        seen[y] = True
                        stack.append(y)
            out.append(piece)
        return out

    def cycles(self, pieces: list[list[CellIndex]], model: list[int]) -> list[Clause]:
        """For each closed piece of a model (a cycle: as many edges as cells), in order, the
        clause that not all its edges are used (no fold has a cycle); the open piece (the one
        with the ends) gets none."""
        true = {v for v in model if v > 0}
        piece_of = [0] * self.problem.ncells
        for i, piece in enumerate(pieces):
            for c in piece:
                piece_of[c] = i
        used: list[Clause] = [[] for _ in pieces]
        for a, _b, v in self.edges:
            if v in true:
                used[piece_of[a]].append(-v)
        return [u for u, piece in zip(used, pieces, strict=True) if len(u) == len(piece)]

    def placement(self, model: list[int]) -> tuple[CellIndex, ...]:
        """The cells in snake order of a model in one piece: from the end whose colour a
        fold's first cube has."""
        region, n = self.problem.region, self.problem.ncells
        true = {v for v in model if v > 0}
        adj = self._adjacency(model)
        ends = [c for c in range(n) if len(adj[c]) <= 1]
        if self.rule.bent:
            first = min(ends)
        else:
            k = 1 if self.sigma in true else 0
            first = min(c for c in ends if colour(region, c) == k ^ self.rule.parity)
        path, previous = [first], -1
        while len(path) < n:
            here = path[-1]
            step = next(m for m in adj[here] if m != previous)
            previous = here
            path.append(step)
        return tuple(path)


def _swaps_colours(problem: Problem) -> bool:
    """Does a symmetry of the target swap the two colours?"""
    region = problem.region
    return any(colour(region, p[0]) != colour(region, 0) for p in region.symmetries)
