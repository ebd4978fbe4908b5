# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled loop behind ``snakecube.search.first``: one search for a first solution.

It places whole segments depth first, like the counting kernel, but it is built for snakes
that turn at almost every cube (floppy snakes) in big targets, where a deep subtree can fail
only at its bottom. Every node checks, exactly (a subtree is cut only if it holds no
solution), with the free cells F and the head h as a graph:

1. **Dead ends** (always): a free cell with no way in; a second free cell with only one (the
   end); the end's colour (parity).
2. **Blocks** (``FIRST_BLOCKS``, Tarjan's algorithm from h): F must be connected to h; h
   must not separate F (the path leaves h once); a free cell v that separates F can only be
   passed once, so it splits F into the part walked before v and the part walked after,
   where the end lies; the part before must be walkable from h to v: its colours must
   alternate (counts and v's colour).
3. **Forced passages** (``FIRST_FORCED``): a free cell with exactly two ways on (not the
   end) must be passed through both. A cell with three forced edges, a head with two, or
   forced edges closing a cycle, cannot be. A passage straight through a cell needs a
   straight cube and one that turns a corner; there must be enough of each left in the snake.
4. **Straight runs** (``FIRST_RUNS``): every segment after the next one lies on a straight
   run of free cells as long as it is. For each length L >= 3, the segments of at least L
   cubes still to come must not outnumber the disjoint runs of L free cells along the lines
   of the target (summed over the three axes: an upper bound, since runs on different axes
   may cross).
5. **The tail** (``FIRST_TAIL``): once the end cell is known (a free cell with one way in),
   the last segments of the snake must fit backwards from it: up to TAIL of them are placed
   there, straight and turning as the snake does, on free cells.
6. **The sweep** (``FIRST_SWEEP``, ``set_window``): not a pruning but a restriction for some
   restarts: the placed cubes may reach at most ``width`` layers (along one direction) past
   the first layer that still has a free cell, so the snake fills the target as a sweep and
   leaves no pocket behind. It can cut every solution, so a finished sweep proves nothing.

``ArmsSearch`` (a subclass) searches *middle out*: from a pivot segment, placed first, two
arms grow to the snake's two ends, with the dead ends (1) counted for both heads, the fewest
ways order and the sweep; the other checks assume one head.

The flags are named in ``search.options``. Values are tried in an order given per level
(shuffled by the caller's seed, or fewest ways on first), so restarts explore different parts
of the tree. The state lives in the object; ``run(max_nodes)`` searches on until a solution,
the budget, or the end of the tree.
"""

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from snakecube.search import options as _flags

# The checks' flags, read from the one Python module that defines them.
cdef int32_t F_BLOCKS = _flags.FIRST_BLOCKS
cdef int32_t F_FORCED = _flags.FIRST_FORCED
cdef int32_t F_FEWEST_WAYS = _flags.FIRST_FEWEST_WAYS
cdef int32_t F_RUNS = _flags.FIRST_RUNS
cdef int32_t F_TAIL = _flags.FIRST_TAIL
cdef int32_t F_SWEEP = _flags.FIRST_SWEEP

cdef int32_t TAIL = _flags.TAIL_SEGMENTS  # segments fitted backwards from a known end (check 5)


cdef class FirstSearch:
    """Search for one placement of a snake (segment lengths) from a start cell."""

    cdef int32_t n, n_seg
    cdef int32_t[::1] nb          # n x 6 neighbours, -1 outside
    cdef int32_t[::1] colour      # 0 / 1
    cdef int32_t[::1] lengths     # per segment
    cdef int32_t[::1] straights_after  # straight cubes in segments k.. (inner cubes)
    cdef int32_t[::1] corners_after    # corner cubes from segment k's start on
    cdef unsigned char[::1] free
    cdef int32_t[::1] deg         # free neighbours of each cell
    cdef int32_t[::1] heads, dirs, nextd, endc
    cdef int32_t[::1] order       # per level: 6 directions in the order to try
    cdef int32_t level, end_colour
    cdef public int32_t deepest
    cdef public int64_t nodes
    cdef readonly bint found, finished
    cdef uint64_t seed
    cdef int32_t checks
    # scratch for the global checks
    cdef int32_t[::1] disc, low, parent, stack, it, size, ones, fcount, uf
    # straight runs: the lines of the target (cells in order, -1 between lines) and, per
    # level k and length L, the segments from k on with at least L cubes
    cdef int32_t[::1] lines, need
    cdef int32_t max_len
    # the window (FIRST_SWEEP): each cell's layer (set_layers), free cells and cells per layer
    cdef int32_t[::1] layer, lfree, lsize
    cdef int32_t n_layers, window
    # cells next to a head: near[c] == stamp (and near_b for a second head), set per check
    cdef int32_t[::1] near, near_b
    cdef int32_t stamp

    def __init__(self, nb, colour, lengths, int32_t start, int32_t end_colour,
                 uint64_t seed, int32_t checks, int32_t end=-1):
        cdef int32_t i, k, s, c
        self.nb = nb
        self.colour = colour
        self.lengths = lengths
        self.n = len(colour)
        self.n_seg = len(lengths)
        self.end_colour = end_colour
        self.seed = seed if seed else 0x9E3779B97F4A7C15
        self.checks = checks
        n, m = self.n, self.n_seg
        self.free = bytearray([1]) * n
        self.deg = _ints(n, 0)
        for i in range(n):
            for k in range(6):
                if self.nb[i * 6 + k] >= 0:
                    self.deg[i] += 1
        self.heads = _ints(m + 1, 0)
        self.dirs = _ints(m + 1, -1)
        self.nextd = _ints(m + 1, 0)
        self.endc = _ints(m + 1, -1)
        self.endc[0] = end
        self.order = _ints((m + 1) * 6, 0)
        self.straights_after = _ints(m + 1, 0)
        self.corners_after = _ints(m + 1, 0)
        s = c = 0
        for k in range(m - 1, -1, -1):
            s += self.lengths[k] - 2
            self.straights_after[k] = s
            self.corners_after[k] = c
            c += 1
        self.disc = _ints(n + 1, 0)
        self.low = _ints(n + 1, 0)
        self.parent = _ints(n + 1, 0)
        self.stack = _ints(n + 1, 0)
        self.it = _ints(n + 1, 0)
        self.size = _ints(n + 1, 0)
        self.ones = _ints(n + 1, 0)
        self.fcount = _ints(n + 1, 0)
        self.uf = _ints(n + 1, 0)
        self._lines(m)
        self.n_layers = 0
        self.window = 0
        self.layer = _ints(n, 0)
        self.lfree = _ints(n + 1, 0)
        self.lsize = _ints(n + 1, 0)
        self.near = _ints(n, 0)
        self.near_b = _ints(n, 0)
        self.stamp = 0
        self.level = 0
        self.deepest = 0
        self.heads[0] = start
        self._take(start)
        self.nodes = 0
        self.found = False
        self.finished = False
        self._shuffle(0)

    def _lines(self, int32_t m):
        """Lines along each axis (for check 4) and the long segments still to come."""
        cdef int32_t a, i, x, k, L
        cells = []
        for a in range(3):  # a line starts at each cell with no neighbour before it
            for i in range(self.n):
                if self.nb[i * 6 + 2 * a + 1] < 0:
                    x = i
                    while x >= 0:
                        cells.append(x)
                        x = self.nb[x * 6 + 2 * a]
                    cells.append(-1)
        self.lines = _ints(len(cells), -1)
        for i in range(len(cells)):
            self.lines[i] = cells[i]
        self.max_len = 2
        for k in range(m):
            if self.lengths[k] > self.max_len:
                self.max_len = self.lengths[k]
        self.need = _ints((m + 2) * (self.max_len + 1), 0)
        for k in range(m - 1, -1, -1):
            for L in range(self.max_len + 1):
                self.need[k * (self.max_len + 1) + L] = (
                    self.need[(k + 1) * (self.max_len + 1) + L] + (self.lengths[k] >= L))

    def set_window(self, int32_t direction, int32_t width):
        """Search only paths that fill the target as a sweep along ``direction`` (0..5): the
        layers of ``set_layers`` are the planes across that direction, numbered from the
        face the direction points away from."""
        cdef int32_t x, y, steps, back = direction ^ 1
        layers = []
        for x in range(self.n):
            steps, y = 0, self.nb[x * 6 + back]
            while y >= 0:
                steps += 1
                y = self.nb[y * 6 + back]
            layers.append(steps)
        self.set_layers(layers, width)

    def set_layers(self, layers, int32_t width):
        """Search only paths that fill the target as a sweep through ``layers`` (each cell's
        layer, numbered from 0; ``FIRST_SWEEP``): at every node, the farthest layer holding a
        placed cube is at most ``width`` layers past the nearest layer with a free cell. A
        restriction, not a pruning: it can cut every solution, so a finished search under it
        proves nothing."""
        cdef int32_t x
        if len(layers) != self.n or any(not 0 <= v < self.n for v in layers):
            raise ValueError(f"a layer number from 0 to {self.n - 1} for each of {self.n} cells")
        self.n_layers = max(layers) + 1
        for x in range(self.n_layers):
            self.lfree[x] = 0
            self.lsize[x] = 0
        for x in range(self.n):
            self.layer[x] = layers[x]
            self.lsize[self.layer[x]] += 1
            self.lfree[self.layer[x]] += self.free[x]
        self.window = width
        self.checks |= F_SWEEP

    # -- the state -----------------------------------------------------------------------------
    cdef inline void _take(self, int32_t x) noexcept nogil:
        cdef int32_t k, y
        self.free[x] = 0
        self.lfree[self.layer[x]] -= 1
        for k in range(6):
            y = self.nb[x * 6 + k]
            if y >= 0:
                self.deg[y] -= 1

    cdef inline void _give(self, int32_t x) noexcept nogil:
        cdef int32_t k, y
        self.free[x] = 1
        self.lfree[self.layer[x]] += 1
        for k in range(6):
            y = self.nb[x * 6 + k]
            if y >= 0:
                self.deg[y] += 1

    cdef inline uint64_t _rand(self) noexcept nogil:
        # xorshift64*
        self.seed ^= self.seed >> 12
        self.seed ^= self.seed << 25
        self.seed ^= self.seed >> 27
        return self.seed * <uint64_t>0x2545F4914F6CDD1DULL

    cdef void _shuffle(self, int32_t k) noexcept nogil:
        """The order of directions to try at level k (see ``_order``)."""
        if k > self.deepest:
            self.deepest = k
        self._order(k, self.heads[k], self.lengths[k] if k < self.n_seg else 2,
                    self.dirs[k - 1] >> 1 if k > 0 else -1)

    cdef void _order(self, int32_t k, int32_t head, int32_t length, int32_t axis) noexcept nogil:
        """The order of directions to try at level k, for a segment of ``length`` cubes from
        ``head``: a random permutation, then (with ``FIRST_FEWEST_WAYS``) a stable sort by the
        ways on from the segment's end, fewest first. Directions along ``axis`` (the segment
        before; -1 for none) are never tried, so they are not scored (a stable sort orders the
        others the same either way)."""
        cdef int32_t i, j, t, x, d
        cdef int32_t score[6]
        for i in range(6):
            self.order[k * 6 + i] = i
        for i in range(5, 0, -1):
            j = <int32_t>(self._rand() % (i + 1))
            t = self.order[k * 6 + i]
            self.order[k * 6 + i] = self.order[k * 6 + j]
            self.order[k * 6 + j] = t
        if not (self.checks & F_FEWEST_WAYS) or k >= self.n_seg:
            return
        for d in range(6):
            x = -1 if (d >> 1) == axis else self._reach(head, d, length)
            if x < 0:
                score[d] = 99
            else:  # the end's free neighbours, less the segment's own cell before it
                score[d] = self.deg[x] - 1
        for i in range(1, 6):  # insertion sort, stable
            t = self.order[k * 6 + i]
            j = i - 1
            while j >= 0 and score[self.order[k * 6 + j]] > score[t]:
                self.order[k * 6 + j + 1] = self.order[k * 6 + j]
                j -= 1
            self.order[k * 6 + j + 1] = t

    # -- the search ----------------------------------------------------------------------------
    def run(self, int64_t max_nodes):
        """Search on for at most ``max_nodes`` nodes; ``found`` or ``finished`` when done.
        After a solution, the next call searches on for the next one."""
        with nogil:
            self._run(max_nodes)

    def push(self, int32_t d):
        """Place the next segment in direction ``d`` without any check (a given prefix)."""
        cdef int32_t k = self.level, head = self.heads[k], x = head, i
        for i in range(self.lengths[k] - 1):
            x = self.nb[x * 6 + d]
            self._take(x)
        self.dirs[k] = d
        self.heads[k + 1] = x
        self.endc[k + 1] = -1
        self.nextd[k + 1] = 0
        self.level = k + 1
        self._shuffle(k + 1)

    def directions(self):
        """The placement found: one direction per segment."""
        return [self.dirs[k] for k in range(self.n_seg)]

    cdef void _run(self, int64_t max_nodes) noexcept nogil:
        cdef int64_t budget = self.nodes + max_nodes
        cdef int32_t k, d, i, x, head, axis, length, e, last, j
        cdef bint moved, ok
        if self.found:  # go on past the last solution found
            self.found = False
            k = self.n_seg - 1
            self.level = k
            self._undo(self.heads[k], self.dirs[k], self.lengths[k])
        while self.nodes < budget and not self.found and not self.finished:
            k = self.level
            if k == self.n_seg:  # Step 5: a whole placement
                self.found = True
                return
            head = self.heads[k]
            axis = self.dirs[k - 1] >> 1 if k > 0 else -1
            length = self.lengths[k]
            moved = False
            while True:
                # Step 1: the next direction in this level's order that turns and fits.
                d = self._next_direction(k, head, axis, length)
                if d < 0:
                    break
                # Step 2: place the segment.
                e = self._place(head, d, length)
                # Step 3: check the free cells (exact pruning).
                last = self._dead_ends(k, head, d, e)
                if last != -2 and k + 1 < self.n_seg and self.checks:
                    if ((self.checks & F_BLOCKS and not self._blocks(e, last))
                            or (self.checks & F_FORCED and not self._forced(k + 1, e, last))
                            or (self.checks & F_RUNS and not self._runs(k + 2))
                            or (self.checks & F_TAIL and last >= 0
                                and not self._tail(last, self.n_seg - 1, -1, k + 2, -1))
                            or (self.checks & F_SWEEP and not self._in_window())):
                        last = -2
                if last == -2:  # Step 4a: cut: take the segment back, try the next one
                    self._undo(head, d, length)
                    continue
                self.dirs[k] = d
                self.heads[k + 1] = e
                self.endc[k + 1] = last
                self.nextd[k + 1] = 0
                self.level = k + 1
                self._shuffle(k + 1)
                moved = True
                break
            if not moved:  # Step 4b: nothing fits here: step back
                if k == 0:
                    self.finished = True
                    return
                self.level = k - 1
                self._undo(self.heads[k - 1], self.dirs[k - 1], self.lengths[k - 1])

    cdef inline int32_t _reach(self, int32_t x, int32_t d, int32_t length) noexcept nogil:
        """The far end of a segment of ``length`` cubes from x in direction d, if every cell
        after x is free; else -1."""
        cdef int32_t i
        for i in range(length - 1):
            x = self.nb[x * 6 + d]
            if x < 0 or not self.free[x]:
                return -1
        return x

    cdef inline int32_t _next_direction(self, int32_t k, int32_t head, int32_t axis,
                                        int32_t length) noexcept nogil:
        """The next direction in level k's order that turns off ``axis`` and whose segment
        fits from ``head``; -1 when the level has none left."""
        cdef int32_t d
        while self.nextd[k] < 6:
            d = self.order[k * 6 + self.nextd[k]]
            self.nextd[k] += 1
            if (d >> 1) != axis and self._reach(head, d, length) >= 0:
                return d
        return -1

    cdef inline int32_t _place(self, int32_t head, int32_t d, int32_t length) noexcept nogil:
        """Take the segment's cells after ``head`` along d (a node); its far end."""
        cdef int32_t i, x = head
        for i in range(length - 1):
            x = self.nb[x * 6 + d]
            self._take(x)
        self.nodes += 1
        return x

    cdef void _undo(self, int32_t head, int32_t d, int32_t length) noexcept nogil:
        cdef int32_t i, x = head
        for i in range(length - 1):
            x = self.nb[x * 6 + d]
            self._give(x)

    cdef int32_t _dead_ends(self, int32_t k, int32_t old, int32_t d, int32_t e) noexcept nogil:
        """Free cells next to the new segment (or the old head) with no way in, or a second
        with one way in (the end): -2 to cut; else the end cell if known, or -1."""
        cdef int32_t last = self.endc[k], i, j, x, y, ways, length = self.lengths[k]
        if k + 1 == self.n_seg:
            return last
        if last >= 0 and not self.free[last]:
            last = -1
        self._new_stamp()
        self._mark_near(e, self.near)
        x = old
        for i in range(length):
            for j in range(6):
                y = self.nb[x * 6 + j]
                if y < 0 or not self.free[y]:
                    continue
                ways = self.deg[y] + (self.near[y] == self.stamp)
                if ways == 0:
                    return -2
                if ways == 1:
                    if last >= 0 and last != y:
                        return -2
                    if self.colour[y] != self.end_colour:
                        return -2
                    last = y
            if i + 1 < length:
                x = self.nb[x * 6 + d]
        return last

    cdef inline void _mark_near(self, int32_t h, int32_t[::1] near) noexcept nogil:
        """near[c] = stamp for the cells next to h (none if h < 0)."""
        cdef int32_t j, y
        if h < 0:
            return
        for j in range(6):
            y = self.nb[h * 6 + j]
            if y >= 0:
                near[y] = self.stamp

    cdef inline void _new_stamp(self) noexcept nogil:
        cdef int32_t x
        if self.stamp == 0x7FFFFFFF:  # wrapped: clear the old marks
            for x in range(self.n):
                self.near[x] = 0
                self.near_b[x] = 0
            self.stamp = 0
        self.stamp += 1

    cdef inline int32_t _touches(self, int32_t y, int32_t e) noexcept nogil:
        cdef int32_t j
        for j in range(6):
            if self.nb[y * 6 + j] == e:
                return 1
        return 0

    cdef bint _blocks(self, int32_t h, int32_t end) noexcept nogil:
        """Tarjan from the head over the free cells (see the module's docstring, check 2)."""
        cdef int32_t n = self.n, top = 0, v, w, j, visited = 0, root_children = 0
        cdef int32_t nfree = 0, i, before, ones_before, want_ones, c_h = self.colour[h]
        cdef int32_t t = 1, ones_total = c_h
        for i in range(n):
            self.disc[i] = 0
            self.fcount[i] = 0  # here: subtrees each cell separates
            if self.free[i]:
                nfree += 1
                ones_total += self.colour[i]
        # iterative DFS: stack of cells, it[] = next neighbour index to look at
        self.disc[h] = t
        self.low[h] = t
        self.parent[h] = -1
        self.size[h] = 1
        self.ones[h] = c_h
        self.it[h] = 0
        self.stack[0] = h
        top = 1
        while top:
            v = self.stack[top - 1]
            if self.it[v] < 6:
                w = self.nb[v * 6 + self.it[v]]
                self.it[v] += 1
                if w < 0 or not (self.free[w] or w == h):
                    continue
                if self.disc[w] == 0:
                    t += 1
                    self.disc[w] = t
                    self.low[w] = t
                    self.parent[w] = v
                    self.size[w] = 1
                    self.ones[w] = self.colour[w]
                    self.it[w] = 0
                    self.stack[top] = w
                    top += 1
                    visited += 1
                    if v == h:
                        root_children += 1
                elif w != self.parent[v] and self.disc[w] < self.low[v]:
                    self.low[v] = self.disc[w]
            else:
                top -= 1
                w = self.parent[v]
                if w < 0:
                    continue
                if self.low[v] < self.low[w]:
                    self.low[w] = self.low[v]
                self.size[w] += self.size[v]
                self.ones[w] += self.ones[v]
                if w != h and self.low[v] >= self.disc[w]:
                    # w separates v's subtree (the part after w) from the rest (before w);
                    # it is passed once, so it can separate one subtree only
                    self.fcount[w] += 1
                    if self.fcount[w] > 1:
                        return False
                    if end >= 0 and not self._inside(end, v):
                        return False
                    before = nfree + 1 - self.size[v]  # h .. w, w included
                    ones_before = ones_total - self.ones[v]
                    # a walk of `before` cells from h alternates colours, ending at w
                    if (c_h ^ ((before - 1) & 1)) != self.colour[w]:
                        return False
                    want_ones = (before + 1) // 2 if c_h else before // 2
                    if ones_before != want_ones:
                        return False
        if visited != nfree:
            return False  # a free cell the head cannot reach
        if root_children > 1:
            return False  # the head would split the free cells
        return True

    cdef inline bint _inside(self, int32_t x, int32_t root) noexcept nogil:
        """Is x in the DFS subtree of root (discovered while root was open)?"""
        return self.disc[x] >= self.disc[root] and self.disc[x] < self.disc[root] + self.size[root]

    cdef bint _forced(self, int32_t k, int32_t h, int32_t end) noexcept nogil:
        """Forced passages (check 3): cells with two ways on are passed through both."""
        cdef int32_t n = self.n, x, j, y, ways, straight = 0, corner = 0, d1, d2
        for x in range(n):
            self.fcount[x] = 0
            self.uf[x] = x
        for x in range(n):
            if not self._is_forced(x, h, end):
                continue
            d1 = d2 = -1
            for j in range(6):
                y = self.nb[x * 6 + j]
                if y < 0 or not (self.free[y] or y == h):
                    continue
                if d1 < 0:
                    d1 = j
                else:
                    d2 = j
                if y < x and self._is_forced(y, h, end):
                    continue  # this edge was added from y
                # the edge x-y is forced
                self.fcount[x] += 1
                self.fcount[y] += 1
                if self.fcount[y] > (1 if y == h or y == end else 2):
                    return False
                ways = self._find(y)
                if ways == self._find(x):
                    return False  # forced edges closing a cycle
                self.uf[ways] = self._find(x)
            if (d1 >> 1) == (d2 >> 1):
                straight += 1
            else:
                corner += 1
        if straight > self.straights_after[k] or corner > self.corners_after[k]:
            return False
        return True

    cdef bint _tail(self, int32_t c, int32_t j, int32_t axis, int32_t stop,
                    int32_t step) noexcept nogil:
        """Can segments j, j+step, ... (up to stop, at most TAIL of them) lie along a line from
        cell c away from it (not on ``axis``)? Step -1: from the last cube backwards (j the
        last segment); +1: from the first cube forwards (j = 0)."""
        cdef int32_t d, i, x, length
        cdef int32_t depth = self.n_seg - 1 - j if step < 0 else j
        cdef bint ok
        if (j - stop) * step > 0 or depth >= TAIL:
            return True
        length = self.lengths[j]
        for d in range(6):
            if (d >> 1) == axis:
                continue
            if self._reach(c, d, length) < 0:
                continue
            if j == stop or depth + 1 >= TAIL:
                return True
            self.free[c] = 0  # the segment's cells, but its last (the next one's first)
            x = c
            for i in range(length - 2):
                x = self.nb[x * 6 + d]
                self.free[x] = 0
            ok = self._tail(self.nb[x * 6 + d], j + step, d >> 1, stop, step)
            self.free[c] = 1
            x = c
            for i in range(length - 2):
                x = self.nb[x * 6 + d]
                self.free[x] = 1
            if ok:
                return True
        return False

    cdef bint _runs(self, int32_t k) noexcept nogil:
        """Straight runs (check 4) for the segments from k on."""
        cdef int32_t i, x, run = 0, L, width = self.max_len + 1
        cdef int32_t cap[64]
        if k >= self.n_seg or width > 64 or self.need[k * width + 3] == 0:
            return True
        for L in range(width):
            cap[L] = 0
        for i in range(self.lines.shape[0]):
            x = self.lines[i]
            if x >= 0 and self.free[x]:
                run += 1
                continue
            if run >= 3:
                for L in range(3, min(run, self.max_len) + 1):
                    cap[L] += run // L
            run = 0
        for L in range(3, width):
            if self.need[k * width + L] > cap[L]:
                return False
        return True

    cdef bint _in_window(self) noexcept nogil:
        """The sweep (``FIRST_SWEEP``): placed cubes reach at most ``window`` layers past the first
        layer with a free cell."""
        cdef int32_t lo = 0, hi = self.n_layers - 1
        while lo < self.n_layers and self.lfree[lo] == 0:
            lo += 1
        while hi >= 0 and self.lfree[hi] == self.lsize[hi]:
            hi -= 1
        return lo >= self.n_layers or hi - lo <= self.window

    cdef inline bint _is_forced(self, int32_t x, int32_t h, int32_t end) noexcept nogil:
        """A free cell with exactly two ways on that cannot be the end (it is not the end
        cell found, or, while none is, it has the wrong colour for the end)."""
        if not self.free[x] or x == end or (end < 0 and self.colour[x] == self.end_colour):
            return False
        return self.deg[x] + self._touches(x, h) == 2

    cdef inline int32_t _find(self, int32_t x) noexcept nogil:
        while self.uf[x] != x:
            self.uf[x] = self.uf[self.uf[x]]
            x = self.uf[x]
        return x


cdef class ArmsSearch(FirstSearch):
    """Search middle out: from a *pivot* segment of the snake, placed first, two arms grow
    to the snake's two ends: arm A forwards (segments pivot+1, pivot+2, ...), arm B
    backwards (pivot-1, pivot-2, ...). Long segments are the ones a depth-first search from
    an end cannot place late, when no free straight line is left for them; a pivot on a long
    segment places it first, and the arm to move is chosen at every level: the one whose next
    segment is longer, on a tie the one with fewer ways to place it, then the arms in turn.
    Every solution has this shape, so a finished search (without a sweep) proves that no
    solution puts the pivot's first cube on ``start``.

    Checks (exact): dead ends counted with both heads (a free cell with one way in is one of
    the snake's two ends, at most one per unfinished arm, with the colours the ends must
    have, and with ``FIRST_TAIL`` the end segments the arm has not placed yet must fit from
    it); ``FIRST_FEWEST_WAYS`` for the value order; the sweep of ``set_layers``. The costly
    checks of ``FirstSearch`` assume one head and are refused."""

    cdef int32_t pivot, colour_a, colour_b
    cdef int32_t[::1] arm, seg, head_a, head_b, axis_a, axis_b, done_a, done_b, endc2

    def __init__(self, nb, colour, lengths, int32_t pivot, int32_t start,
                 int32_t first_colour, uint64_t seed, int32_t checks):
        cdef int32_t m = len(lengths), cubes = 0, j
        if checks & ~(F_FEWEST_WAYS | F_SWEEP | F_TAIL):
            raise ValueError("the middle-out search checks dead ends, the tails, the fewest ways "
                             "order and sweeps only")
        if not 0 <= pivot < m:
            raise ValueError(f"pivot segment {pivot} is not one of the {m} segments")
        for j in range(pivot):
            cubes += lengths[j] - 1
        if colour[start] != first_colour ^ (cubes & 1):
            raise ValueError(f"cell {start} has the wrong colour for cube {cubes + 1}")
        FirstSearch.__init__(self, nb, colour, lengths, start, first_colour, seed, checks)
        cubes = 1
        for j in range(m):
            cubes += lengths[j] - 1
        self.pivot = pivot
        self.colour_b = first_colour  # cube 1, arm B's end
        self.colour_a = first_colour ^ ((cubes - 1) & 1)  # the last cube, arm A's end
        self.arm = _ints(m + 1, 0)
        self.seg = _ints(m + 1, 0)
        self.head_a = _ints(m + 1, start)
        self.head_b = _ints(m + 1, start)
        self.axis_a = _ints(m + 1, -1)
        self.axis_b = _ints(m + 1, -1)
        self.done_a = _ints(m + 1, 0)  # segments each arm has placed (A's counts the pivot)
        self.done_b = _ints(m + 1, 0)
        self.endc2 = _ints(m + 1, -1)
        self.seg[0] = pivot
        self._order(0, start, self.lengths[pivot], -1)

    def push(self, int32_t d):
        raise TypeError("ArmsSearch places no given prefix; use FirstSearch")

    def directions(self):
        """The placement found: one direction per segment, in snake order, each pointing from
        the segment's first cube (cube 1 first; see ``first_cell``)."""
        out = [0] * self.n_seg
        for t in range(self.n_seg):
            out[self.seg[t]] = self.dirs[t] ^ self.arm[t]  # arm B placed its segments backwards
        return out

    def first_cell(self):
        """The cell of cube 1 in the placement found."""
        dirs, x = self.directions(), self.heads[0]
        for j in range(self.pivot - 1, -1, -1):
            for _ in range(self.lengths[j] - 1):
                x = self.nb[x * 6 + (dirs[j] ^ 1)]
        return x

    cdef inline bint _open_a(self, int32_t t) noexcept nogil:
        return self.pivot + self.done_a[t] < self.n_seg

    cdef inline bint _open_b(self, int32_t t) noexcept nogil:
        return self.pivot - 1 - self.done_b[t] >= 0

    cdef int32_t _ways_for(self, int32_t head, int32_t axis, int32_t length) noexcept nogil:
        cdef int32_t d, w = 0
        for d in range(6):
            if (d >> 1) != axis and self._reach(head, d, length) >= 0:
                w += 1
        return w

    cdef void _choose(self, int32_t t) noexcept nogil:
        """Which arm moves at level t, and with which segment (see the class docstring)."""
        cdef int32_t la, lb, wa, wb, a
        if not self._open_a(t):
            a = 1
        elif not self._open_b(t):
            a = 0
        else:
            la = self.lengths[self.pivot + self.done_a[t]]
            lb = self.lengths[self.pivot - 1 - self.done_b[t]]
            if la != lb:
                a = 0 if la > lb else 1
            else:
                wa = self._ways_for(self.head_a[t], self.axis_a[t], la)
                wb = self._ways_for(self.head_b[t], self.axis_b[t], lb)
                a = (0 if wa < wb else 1) if wa != wb else t & 1
        self.arm[t] = a
        self.seg[t] = self.pivot + self.done_a[t] if a == 0 else self.pivot - 1 - self.done_b[t]

    cdef void _run(self, int64_t max_nodes) noexcept nogil:
        cdef int64_t budget = self.nodes + max_nodes
        cdef int32_t t, d, i, x, head, axis, length, e, a
        cdef bint moved
        if self.found:  # go on past the last solution found
            self.found = False
            t = self.n_seg - 1
            self.level = t
            self._undo(self._head(t), self.dirs[t], self.lengths[self.seg[t]])
        while self.nodes < budget and not self.found and not self.finished:
            t = self.level
            if t == self.n_seg:  # Step 5: a whole placement
                self.found = True
                return
            a = self.arm[t]
            head = self._head(t)
            axis = self.axis_a[t] if a == 0 else self.axis_b[t]
            length = self.lengths[self.seg[t]]
            moved = False
            while True:
                # Step 1: the next direction in this level's order that turns and fits.
                d = self._next_direction(t, head, axis, length)
                if d < 0:
                    break
                # Step 2: place the segment; the arms' state after it is level t + 1's.
                e = self._place(head, d, length)
                self.head_a[t + 1], self.axis_a[t + 1] = self.head_a[t], self.axis_a[t]
                self.head_b[t + 1], self.axis_b[t + 1] = self.head_b[t], self.axis_b[t]
                self.done_a[t + 1], self.done_b[t + 1] = self.done_a[t], self.done_b[t]
                if a == 0:
                    self.head_a[t + 1], self.axis_a[t + 1] = e, d >> 1
                    self.done_a[t + 1] += 1
                    if t == 0:  # the pivot: arm B leaves its first cube across its axis
                        self.axis_b[1] = d >> 1
                else:
                    self.head_b[t + 1], self.axis_b[t + 1] = e, d >> 1
                    self.done_b[t + 1] += 1
                # Step 3: check the free cells (exact pruning) and the window.
                if t + 1 < self.n_seg and (not self._arm_ends(t, head, d, length)
                        or (self.checks & F_SWEEP and not self._in_window())):
                    # Step 4a: cut: take the segment back, try the next direction
                    self._undo(head, d, length)
                    continue
                self.dirs[t] = d
                self.nextd[t + 1] = 0
                self.level = t + 1
                if t + 1 > self.deepest:
                    self.deepest = t + 1
                if t + 1 < self.n_seg:
                    self._choose(t + 1)
                    self._order(t + 1, self._head(t + 1), self.lengths[self.seg[t + 1]], -1)
                moved = True
                break
            if not moved:  # Step 4b: nothing fits here: step back
                if t == 0:
                    self.finished = True
                    return
                self.level = t - 1
                self._undo(self._head(t - 1), self.dirs[t - 1], self.lengths[self.seg[t - 1]])

    cdef inline int32_t _head(self, int32_t t) noexcept nogil:
        return self.head_a[t] if self.arm[t] == 0 else self.head_b[t]

    cdef bint _arm_ends(self, int32_t t, int32_t old, int32_t d, int32_t length) noexcept nogil:
        """Dead ends after level t's segment (from ``old`` along d): a free cell next to it (or
        to the old head) with no way in, counting the unfinished arms' heads, cuts; one with
        a single way in is an end of the snake: at most one per unfinished arm, each of an
        end's colour. Records the known ends for level t + 1."""
        cdef int32_t u = t + 1, c1 = self.endc[t], c2 = self.endc2[t], i, j, x, y, ways
        cdef int32_t ha = self.head_a[u] if self._open_a(u) else -1
        cdef int32_t hb = self.head_b[u] if self._open_b(u) else -1
        if c1 >= 0 and not self.free[c1]:
            c1 = -1
        if c2 >= 0 and not self.free[c2]:
            c2 = -1
        self._new_stamp()
        self._mark_near(ha, self.near)
        self._mark_near(hb, self.near_b)
        x = old
        for i in range(length):
            for j in range(6):
                y = self.nb[x * 6 + j]
                if y < 0 or not self.free[y]:
                    continue
                ways = self.deg[y] + (self.near[y] == self.stamp) + (self.near_b[y] == self.stamp)
                if ways == 0:
                    return False
                if ways == 1 and y != c1 and y != c2:
                    if c1 < 0:
                        c1 = y
                    elif c2 < 0:
                        c2 = y
                    else:
                        return False
            if i + 1 < length:
                x = self.nb[x * 6 + d]
        if c1 < 0:
            c1, c2 = c2, -1
        if not self._ends_fit(c1, c2, u):
            return False
        self.endc[u] = c1
        self.endc2[u] = c2
        return True

    cdef bint _ends_fit(self, int32_t c1, int32_t c2, int32_t u) noexcept nogil:
        """Can the known end cells c1, c2 (-1: none; c1 set first) be the ends of the arms
        still open at level u, by number, colour and (``FIRST_TAIL``) the end segments?"""
        if c1 < 0:
            return True
        if c2 < 0:
            return self._end_a(c1, u) or self._end_b(c1, u)
        return ((self._end_a(c1, u) and self._end_b(c2, u))
                or (self._end_b(c1, u) and self._end_a(c2, u)))

    cdef bint _end_a(self, int32_t c, int32_t u) noexcept nogil:
        """Can cell c be the last cube (arm A's end) at level u: arm A open, c of the last
        cube's colour, and (``FIRST_TAIL``) the last segments arm A has not reached fit back
        from c?"""
        if not self._open_a(u) or self.colour[c] != self.colour_a:
            return False
        return not (self.checks & F_TAIL) or self._tail(
            c, self.n_seg - 1, -1, self.pivot + self.done_a[u] + 1, -1)

    cdef bint _end_b(self, int32_t c, int32_t u) noexcept nogil:
        """Can cell c be cube 1 (arm B's end) at level u: as ``_end_a``, the first segments
        forwards from c."""
        if not self._open_b(u) or self.colour[c] != self.colour_b:
            return False
        return not (self.checks & F_TAIL) or self._tail(
            c, 0, -1, self.pivot - 2 - self.done_b[u], 1)


cdef object _ints(int32_t n, int32_t value):
    from array import array

    return array("i", [value]) * max(n, 1)
