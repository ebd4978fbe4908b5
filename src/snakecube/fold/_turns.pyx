# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of ``Folder.with_extra`` for the fold census: the fewest quarter turns.

Same model, same moves, same search (iterative-deepening A* backwards from the solution,
heuristic: corners still odd; a table of the best depth each state was reached at), but the
live configuration is in C arrays with an occupancy grid, and moves are not ranked for
naturalness (the census wants the minimum, not a plan a person likes). Tests check that it
agrees with the Python planner.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport atan2, cos, sqrt
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t

cdef double HALF_PI = 1.5707963267948966
cdef int32_t NOT_FOUND = 1 << 30
cdef int32_t CUT = -2


cdef class TurnSearch:
    """Fewest quarter turns from a flat start to one solution (cells in snake order)."""

    cdef int32_t n, n_seg, grid, off
    cdef int32_t[::1] x, y, z, tx, ty, tz
    cdef int32_t[::1] corner     # 0-based cube of corner s (s = 0 .. n_seg - 2)
    cdef int32_t[::1] state
    cdef int16_t[::1] occ        # grid cell -> cube index + 1, 0 if empty
    cdef int32_t odd, found
    cdef uint64_t key            # the state, two bits per corner
    cdef bint clear_only
    cdef int64_t budget
    cdef public int64_t nodes
    cdef dict seen
    cdef bint made

    def __init__(self, lengths, cells, goal):
        lengths, cells, goal = _checked(lengths, cells, goal)
        self.n = len(cells)
        self.n_seg = len(lengths)
        self.off = self.n + 2
        self.grid = 2 * self.off + 1
        # Cube 1 never moves and each cube is one step from the last, so with cube 1 at the
        # origin every cube stays within n - 1 of it: inside the grid, whatever it turns.
        self.x = _ints([c[0] - cells[0][0] for c in cells])
        self.y = _ints([c[1] - cells[0][1] for c in cells])
        self.z = _ints([c[2] - cells[0][2] for c in cells])
        self.tx = _ints([0] * self.n)
        self.ty = _ints([0] * self.n)
        self.tz = _ints([0] * self.n)
        corners, at = [], 0
        for k in list(lengths)[: len(lengths) - 1]:
            at += k - 1
            corners.append(at)
        self.corner = _ints(corners or [0])
        self.state = _ints(list(goal) or [0])
        import array

        self.occ = array.array("h", bytes(2 * self.grid ** 3))
        cdef int32_t i
        for i in range(self.n):
            self.occ[self._cell(self.x[i], self.y[i], self.z[i])] = i + 1
        self.odd = 0
        self.key = 0
        for i in range(1, self.n_seg - 1):
            self.odd += self.state[i] % 2
            self.key |= (<uint64_t>self.state[i]) << (2 * i)
        self.nodes = 0
        self.made = True

    cdef inline int64_t _cell(self, int32_t a, int32_t b, int32_t c):
        return ((<int64_t>(a + self.off) * self.grid) + (b + self.off)) * self.grid + c + self.off

    cdef bint _turn(self, int32_t s, int32_t q):
        """Turn corner s by q; False (nothing changed) if the part after it would land on a
        cube before it."""
        cdef int32_t c = self.corner[s]
        cdef int32_t ox = self.x[c - 1], oy = self.y[c - 1], oz = self.z[c - 1]
        cdef int32_t ax = self.x[c] - ox, ay = self.y[c] - oy, az = self.z[c] - oz
        cdef int32_t a = 0 if ax != 0 else (1 if ay != 0 else 2)
        cdef int32_t sign = ax + ay + az
        cdef int32_t qq = ((q if sign > 0 else -q) % 4 + 4) % 4
        cdef int32_t i, v0, v1, v2, u, w, nu, nw, hit
        cdef int32_t[3] v
        for i in range(c + 1, self.n):
            v[0] = self.x[i] - ox
            v[1] = self.y[i] - oy
            v[2] = self.z[i] - oz
            u = v[(a + 1) % 3]
            w = v[(a + 2) % 3]
            if qq == 1:
                nu, nw = -w, u
            elif qq == 2:
                nu, nw = -u, -w
            else:
                nu, nw = w, -u
            v[(a + 1) % 3] = nu
            v[(a + 2) % 3] = nw
            v0, v1, v2 = v[0] + ox, v[1] + oy, v[2] + oz
            hit = self.occ[self._cell(v0, v1, v2)]
            if hit != 0 and hit - 1 <= c:
                return False
            self.tx[i], self.ty[i], self.tz[i] = v0, v1, v2
        for i in range(c + 1, self.n):
            self.occ[self._cell(self.x[i], self.y[i], self.z[i])] = 0
        for i in range(c + 1, self.n):
            self.x[i], self.y[i], self.z[i] = self.tx[i], self.ty[i], self.tz[i]
            self.occ[self._cell(self.x[i], self.y[i], self.z[i])] = i + 1
        self.odd -= self.state[s] % 2
        self.key ^= (<uint64_t>self.state[s]) << (2 * s)
        self.state[s] = ((self.state[s] + q) % 4 + 4) % 4
        self.odd += self.state[s] % 2
        self.key ^= (<uint64_t>self.state[s]) << (2 * s)
        return True

    cdef bint _clear(self, int32_t s, int32_t q):
        """``model.swing_is_clear`` for the quarter turn q at corner s (balls of diameter 1)."""
        cdef int32_t c = self.corner[s]
        cdef int32_t[3] o, ax, p, t
        o[0], o[1], o[2] = self.x[c - 1], self.y[c - 1], self.z[c - 1]
        ax[0], ax[1], ax[2] = self.x[c] - o[0], self.y[c] - o[1], self.z[c] - o[2]
        cdef int32_t a = 0 if ax[0] != 0 else (1 if ax[1] != 0 else 2)
        cdef int32_t u = (a + 1) % 3, w = (a + 2) % 3
        cdef int32_t turn = q * ax[a]
        cdef int32_t i, j, px, py, sx, sy
        cdef double r, r2, rho2, phi, best
        for i in range(c + 1, self.n):
            p[0], p[1], p[2] = self.x[i] - o[0], self.y[i] - o[1], self.z[i] - o[2]
            px, py = p[u], p[w]
            r2 = px * px + py * py
            if r2 == 0:
                continue
            r = sqrt(r2)
            for j in range(c + 1):
                t[0], t[1], t[2] = self.x[j] - o[0], self.y[j] - o[1], self.z[j] - o[2]
                if t[a] != p[a]:
                    continue
                sx, sy = t[u], t[w]
                rho2 = sx * sx + sy * sy
                if rho2 <= (r - 1) * (r - 1) or rho2 >= (r + 1) * (r + 1):
                    continue
                phi = atan2(turn * (px * sy - py * sx), px * sx + py * sy)
                if 0.0 <= phi <= HALF_PI:
                    best = 1.0
                else:
                    best = max(cos(phi), cos(phi - HALF_PI))
                if rho2 + r2 - 2 * sqrt(rho2) * r * best < 1 - 1e-9:
                    return False
        return True

    cdef int32_t _dfs(self, int32_t g, int32_t bound):
        if g + self.odd > bound:
            return g + self.odd
        if self.odd == 0:
            self.found = g
            return -1
        cdef int32_t least = NOT_FOUND, s, d, t
        cdef object key
        for s in range(self.n_seg - 2, 0, -1):
            if self.state[s] % 2 == 0 and g + 2 + self.odd > bound:
                # turning a flat corner out of the way would overshoot the bound: its f is
                # known without turning (an invalid turn only makes this a lower estimate)
                if g + 2 + self.odd < least:
                    least = g + 2 + self.odd
                continue
            for d in (1, -1):
                self.nodes += 1
                if self.nodes > self.budget:
                    return CUT
                if self.nodes & 0xFFFF == 0:
                    PyErr_CheckSignals()  # Ctrl-C raises here, within a millisecond or so
                if not self._turn(s, d):
                    continue
                if self.clear_only and not self._clear(s, -d):
                    self._turn(s, -d)
                    continue
                key = self.key
                if self.seen.get(key, NOT_FOUND) > g + 1:
                    self.seen[key] = g + 1
                    t = self._dfs(g + 1, bound)
                    if t == -1 or t == CUT:
                        self._turn(s, -d)
                        return t
                    if t < least:
                        least = t
                self._turn(s, -d)
        return least

    def min_turns(self, bint clear_only, int extra, long long budget):
        """The fewest quarter turns of a plan (every swing clear if ``clear_only``), at most
        ``extra`` over the lower bound: an int, None if there is none, or -1 if the node
        budget ran out first."""
        if not self.made:
            raise ValueError("the search was not made: call the class with its arguments")
        self.clear_only = clear_only
        self.budget = budget
        self.nodes = 0
        cdef int32_t lower = self.odd, bound = self.odd, t
        while bound <= lower + extra:
            self.seen = {self.key: 0}
            t = self._dfs(0, bound)
            if t == -1:
                return self.found
            if t == CUT:
                return -1
            if t >= NOT_FOUND:
                return None
            bound = t
        return None


def _checked(lengths, cells, goal):
    """The arguments as lists, or ValueError: 1 to 33 segments of at least 2 cubes, their
    cubes' cells (at most 30000), each a step from the last, and a state 0..3 per corner."""
    lengths = [int(k) for k in lengths]
    if not 1 <= len(lengths) <= 33 or min(lengths) < 2:
        raise ValueError("1 to 33 segments, each of at least 2 cubes")
    n = sum(k - 1 for k in lengths) + 1
    cells = [tuple(int(v) for v in c) for c in cells]
    if len(cells) != n or n > 30000 or any(len(c) != 3 for c in cells):
        raise ValueError(f"one (x, y, z) cell for each of the {n} cubes (at most 30000)")
    for i in range(1, n):
        if sum(abs(a - b) for a, b in zip(cells[i], cells[i - 1])) != 1:
            raise ValueError(f"cubes {i} and {i + 1} are not on neighbouring cells")
    goal = [int(v) for v in goal]
    if len(goal) != len(lengths) - 1 or any(not 0 <= v <= 3 for v in goal):
        raise ValueError(f"a state from 0 to 3 for each of the {len(lengths) - 1} corners")
    return lengths, cells, goal


def _ints(values):
    import array

    return array.array("i", values)
