# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The census's compiled loop behind ``snakecube.census.units``: every Hamiltonian path under
a prefix, as canonical design keys (``PathKeys``), for regions of at most 64 cells.

It keeps its state in one object (as msgpack's ``Unpacker`` does): the caller makes it once
and calls ``run(max_nodes)`` in slices, checking time, progress and Ctrl-C in between.
"""

from array import array

from libc.stdint cimport int32_t, int64_t, uint64_t


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef class PathKeys:
    """Every Hamiltonian path that extends a prefix, for regions of at most 64 cells,
    resumable: ``run(max_nodes)`` writes up to ``len(keys)`` paths and returns (paths
    written, nodes); ``finished`` says when the prefix is exhausted.

    For each path it writes the *canonical design key* to ``keys``: the smaller of the
    path's key and its reverse's, where a key has bit i-1 set when the path turns at cube i
    (the inner cubes i = 1..n-2). For a palindromic design it writes to ``fixed`` whether a
    symmetry of the region (rows of ``syms``, |G| x n) maps the path onto its own reverse.
    A free cell with no way in (free neighbours plus the head) cuts the branch, as does a
    second cell with only one; so do free cells split in two pieces by the new head: a flood
    fill in the head's ring (``ring``: the cells that touch it, edges and corners too) joins
    its free neighbours, and only when it cannot does a flood fill of every free cell decide.
    With ``maxrun`` below n, a path never goes more than ``maxrun`` steps in one direction
    (the designs with no segment longer than ``maxrun + 1`` cubes); ``run`` holds, per
    step, how many steps in a row went that way.
    """

    cdef const int64_t[::1] nb, syms
    cdef const uint64_t[::1] nbmask, ring
    cdef int64_t[::1] path, dirs, nextd, runs
    cdef public uint64_t[::1] keys
    cdef public unsigned char[::1] fixed
    cdef int64_t base, level, maxrun
    cdef uint64_t occ, full
    cdef readonly bint finished

    def __init__(
        self, const int64_t[::1] nb, const uint64_t[::1] nbmask, const uint64_t[::1] ring,
        const int64_t[::1] syms, int64_t[::1] path, int64_t[::1] dirs, int64_t[::1] run,
        int64_t maxrun, int64_t base, uint64_t[::1] keys, unsigned char[::1] fixed,
    ):
        cdef int64_t i
        cdef int64_t n = nbmask.shape[0]
        self.nb, self.nbmask, self.ring, self.syms = nb, nbmask, ring, syms
        self.full = ~(<uint64_t>0) if n == 64 else ((<uint64_t>1) << n) - 1
        self.path, self.dirs, self.runs, self.maxrun = path, dirs, run, maxrun
        self.nextd = array("q", [0]) * (nbmask.shape[0] + 1)
        self.keys, self.fixed = keys, fixed
        self.base = self.level = base
        self.occ = 0
        for i in range(base):
            self.occ |= (<uint64_t>1) << path[i]
        self.finished = False

    def run(self, int64_t max_nodes):
        """Walk on for at most ``max_nodes`` steps: (paths written to keys, nodes)."""
        if self.finished:
            return 0, 0
        return self._run(max_nodes)

    cdef tuple _run(self, int64_t max_nodes):

        cdef const int64_t[::1] nb = self.nb, syms = self.syms
        cdef const uint64_t[::1] nbmask = self.nbmask, ring = self.ring
        cdef int64_t[::1] path = self.path, dirs = self.dirs, nextd = self.nextd, run = self.runs
        cdef int64_t maxrun = self.maxrun, r
        cdef uint64_t[::1] keys = self.keys
        cdef unsigned char[::1] fixed = self.fixed
        cdef int64_t n = nbmask.shape[0], base = self.base, max_out = keys.shape[0]
        cdef int64_t n_syms = syms.shape[0] // n
        cdef int64_t level = self.level
        cdef uint64_t occ = self.occ, full = self.full
        cdef bint finished = False
        cdef int64_t n_out = 0, nodes = 0, d, x, head, i, dead, g, j
        cdef uint64_t one = 1, free, cand, m, key, rkey, reach, todo, area
        cdef bint moved, same
        with nogil:
            while nodes < max_nodes:
                if level == n:  # Step 4: a whole path: its design key, reversed key, symmetry
                    key = 0
                    rkey = 0
                    for i in range(1, n - 1):
                        if dirs[i + 1] != dirs[i]:
                            key |= one << (i - 1)
                            rkey |= one << (n - 2 - i)
                    fixed[n_out] = 0
                    if key == rkey:
                        for g in range(n_syms):
                            same = True
                            for j in range(n):
                                if syms[g * n + path[j]] != path[n - 1 - j]:
                                    same = False
                                    break
                            if same:
                                fixed[n_out] = 1
                                break
                    keys[n_out] = key if key < rkey else rkey
                    n_out += 1
                    level -= 1
                    occ ^= one << path[level]
                    if n_out == max_out:
                        break
                    continue
                # Step 1: the next free neighbour of the head.
                head = path[level - 1]
                moved = False
                d = nextd[level]
                while d < 6:
                    x = nb[head * 6 + d]
                    d += 1
                    if x < 0 or (occ >> x) & one:
                        continue
                    r = run[level - 1] + 1 if level > 1 and dirs[level - 1] == d - 1 else 1
                    if r > maxrun:  # a segment longer than asked for
                        continue
                    # Step 2: step onto it.
                    occ |= one << x
                    nodes += 1
                    # Step 3: dead ends: the free neighbours of the old head lost a way in.
                    dead = 0
                    free = ~occ | (one << x)
                    cand = nbmask[head] & ~occ
                    while cand:
                        i = __builtin_ctzll(cand)
                        cand &= cand - one
                        m = nbmask[i] & free
                        if m == 0 or (m & (m - one)) == 0:
                            dead += 1 if m else 2
                    if dead > 1 and level + 1 < n:
                        occ ^= one << x
                        continue
                    # Step 3b: split: two free neighbours of x that no free cell joins.
                    cand = nbmask[x] & ~occ
                    if level + 2 < n and cand & (cand - one):
                        reach = cand & (~cand + one)  # from one free neighbour, in x's ring
                        todo = reach
                        area = ring[x] & ~occ
                        while todo:
                            i = __builtin_ctzll(todo)
                            todo &= todo - one
                            m = nbmask[i] & area & ~reach
                            reach |= m
                            todo |= m
                        if cand & ~reach:  # not joined nearby: every free cell decides
                            area = ~occ & full
                            todo = reach
                            while todo:
                                i = __builtin_ctzll(todo)
                                todo &= todo - one
                                m = nbmask[i] & area & ~reach
                                reach |= m
                                todo |= m
                            if reach != area:
                                occ ^= one << x
                                continue
                    nextd[level] = d
                    dirs[level] = d - 1
                    run[level] = r
                    path[level] = x
                    level += 1
                    nextd[level] = 0
                    moved = True
                    break
                if not moved:  # Step 5: no way on: step back.
                    nextd[level] = 6
                    if level == base:
                        finished = True
                        break
                    level -= 1
                    occ ^= one << path[level]
        self.level = level
        self.occ = occ
        self.finished = finished
        return n_out, nodes


cdef class GuidedPaths:
    """The Hamiltonian paths that extend a prefix and whose design is in a table, for regions
    of at most 64 cells, resumable as ``PathKeys``: which designs of the table have a path.

    ``table`` holds design keys in *path order*, sorted: cube i's turn (i = 1..n-2, from the
    prefix's first cell) at bit n-2-i, so the designs that begin with one turn string are a
    range of the table, and a step narrows the range by a binary search on one bit. A step
    whose turn string no design begins with is not taken. ``alive`` (a Fenwick tree over the
    table, one per design not found yet) drops the found designs: a step whose range holds
    none of them is not taken either, so each design's paths after its first cost nothing.
    ``found`` marks them, and ``run`` writes the table index of each new one to ``out``.
    The dead-end and split cuts are ``PathKeys``'s, with two more: a cell left with a single
    way in must be the path's last cube, so it must have the last cube's colour (the colours
    of a path alternate) and be the only such cell (``ends``, per level).
    """

    cdef const int64_t[::1] nb, colour
    cdef const uint64_t[::1] nbmask, ring, table
    cdef unsigned char[::1] found
    cdef int32_t[::1] alive
    cdef int64_t[::1] path, dirs, nextd, lo, hi, ends
    cdef public int64_t[::1] out
    cdef int64_t base, level, lastc
    cdef uint64_t occ, full
    cdef readonly bint finished

    def __init__(
        self, const int64_t[::1] nb, const uint64_t[::1] nbmask, const uint64_t[::1] ring,
        const int64_t[::1] colour, const uint64_t[::1] table, unsigned char[::1] found,
        int32_t[::1] alive, int64_t[::1] path, int64_t base, int64_t[::1] out,
    ):
        cdef int64_t i, d, n = nbmask.shape[0], a, b
        cdef int64_t[::1] dirs
        self.nb, self.nbmask, self.ring, self.table = nb, nbmask, ring, table
        self.colour = colour
        self.found, self.alive, self.out = found, alive, out
        self.full = ~(<uint64_t>0) if n == 64 else ((<uint64_t>1) << n) - 1
        self.path = path
        self.dirs = dirs = array("q", [0]) * (n + 1)
        self.nextd = array("q", [0]) * (n + 1)
        self.lo = array("q", [0]) * (n + 1)
        self.hi = array("q", [0]) * (n + 1)
        self.ends = array("q", [-1]) * (n + 1)
        self.base = self.level = base
        self.occ = 0
        for i in range(base):
            self.occ |= (<uint64_t>1) << path[i]
        a, b = 0, table.shape[0]
        for i in range(1, base):  # the prefix's own turns narrow the table
            for d in range(6):
                if nb[path[i - 1] * 6 + d] == path[i]:
                    dirs[i] = d
            if i >= 2:
                a, b = _narrow(table, a, b, n - 1 - i, dirs[i] != dirs[i - 1])
        self.lo[base], self.hi[base] = a, b
        self.finished = a >= b or base < 1
        self.lastc = colour[path[0]] ^ ((n - 1) & 1) if base >= 1 else 0

    def run(self, int64_t max_nodes):
        """Walk on for at most ``max_nodes`` steps: (designs found, written to out; nodes)."""
        if self.finished:
            return 0, 0
        return self._run(max_nodes)

    cdef tuple _run(self, int64_t max_nodes):
        cdef const int64_t[::1] nb = self.nb, colour = self.colour
        cdef const uint64_t[::1] nbmask = self.nbmask, ring = self.ring, table = self.table
        cdef unsigned char[::1] found = self.found
        cdef int32_t[::1] alive = self.alive
        cdef int64_t[::1] path = self.path, dirs = self.dirs, nextd = self.nextd
        cdef int64_t[::1] lo = self.lo, hi = self.hi, out = self.out, ends = self.ends
        cdef int64_t lastc = self.lastc, end
        cdef int64_t n = nbmask.shape[0], base = self.base, max_out = out.shape[0]
        cdef int64_t size = table.shape[0]
        cdef int64_t level = self.level
        cdef uint64_t occ = self.occ, full = self.full
        cdef bint finished = False
        cdef int64_t n_out = 0, nodes = 0, d, x, head, i, dead, a, b, k
        cdef uint64_t one = 1, free, cand, m, reach, todo, area
        cdef bint moved
        with nogil:
            while nodes < max_nodes:
                if level == n:  # Step 4: a whole path: its design is found
                    a = lo[level]
                    if not found[a]:
                        found[a] = 1
                        k = a + 1
                        while k <= size:  # the Fenwick tree: one design fewer alive
                            alive[k - 1] -= 1
                            k += k & (-k)
                        out[n_out] = a
                        n_out += 1
                    level -= 1
                    occ ^= one << path[level]
                    if n_out == max_out:
                        break
                    continue
                # Step 1: the next free neighbour of the head whose turn some design has.
                head = path[level - 1]
                moved = False
                d = nextd[level]
                while d < 6:
                    x = nb[head * 6 + d]
                    d += 1
                    if x < 0 or (occ >> x) & one:
                        continue
                    a, b = lo[level], hi[level]
                    if level >= 2:
                        a, b = _narrow(table, a, b, n - 1 - level, dirs[level - 1] != d - 1)
                        if a >= b:
                            continue
                    # Step 2: step onto it.
                    occ |= one << x
                    nodes += 1
                    end = ends[level]
                    if end == x and level + 1 < n:  # the cell that must be last, too soon
                        occ ^= one << x
                        continue
                    # Step 3: dead ends: the free neighbours of the old head lost a way in. A
                    # cell with no way in is dead; one with a single way in must be the last
                    # cube: of the last cube's colour, and the only such cell.
                    dead = 0
                    free = ~occ | (one << x)
                    cand = nbmask[head] & ~occ
                    while cand:
                        i = __builtin_ctzll(cand)
                        cand &= cand - one
                        m = nbmask[i] & free
                        if m == 0:
                            dead += 2
                        elif (m & (m - one)) == 0:
                            if colour[i] != lastc or (end >= 0 and end != i):
                                dead += 2
                            end = i
                    if dead > 1 and level + 1 < n:
                        occ ^= one << x
                        continue
                    # Step 3b: split: two free neighbours of x that no free cell joins.
                    cand = nbmask[x] & ~occ
                    if level + 2 < n and cand & (cand - one):
                        reach = cand & (~cand + one)
                        todo = reach
                        area = ring[x] & ~occ
                        while todo:
                            i = __builtin_ctzll(todo)
                            todo &= todo - one
                            m = nbmask[i] & area & ~reach
                            reach |= m
                            todo |= m
                        if cand & ~reach:
                            area = ~occ & full
                            todo = reach
                            while todo:
                                i = __builtin_ctzll(todo)
                                todo &= todo - one
                                m = nbmask[i] & area & ~reach
                                reach |= m
                                todo |= m
                            if reach != area:
                                occ ^= one << x
                                continue
                    # Step 3c: no design of the range is left to find.
                    if _alive(alive, a, b) == 0:
                        occ ^= one << x
                        continue
                    nextd[level] = d
                    dirs[level] = d - 1
                    path[level] = x
                    level += 1
                    lo[level], hi[level] = a, b
                    ends[level] = end
                    nextd[level] = 0
                    moved = True
                    break
                if not moved:  # Step 5: no way on: step back.
                    nextd[level] = 6
                    if level == base:
                        finished = True
                        break
                    level -= 1
                    occ ^= one << path[level]
        self.level = level
        self.occ = occ
        self.finished = finished
        return n_out, nodes


cdef inline (int64_t, int64_t) _narrow(
    const uint64_t[::1] table, int64_t a, int64_t b, int64_t bit, bint turn
) noexcept nogil:
    """The part of the range [a, b) of ``table`` (keys equal above ``bit``) whose ``bit`` is
    ``turn``: a binary search for the first key with the bit set."""
    cdef int64_t lo = a, hi = b, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if (table[mid] >> bit) & 1:
            hi = mid
        else:
            lo = mid + 1
    return (lo, b) if turn else (a, lo)


cdef inline int64_t _alive(const int32_t[::1] alive, int64_t a, int64_t b) noexcept nogil:
    """How many designs of the range [a, b) are not found yet (Fenwick prefix sums)."""
    cdef int64_t total = 0, k = b
    while k > 0:
        total += alive[k - 1]
        k -= k & (-k)
    k = a
    while k > 0:
        total -= alive[k - 1]
        k -= k & (-k)
    return total


cdef class DesignFit:
    """Whether designs fold into a region of at most 64 cells: for each design, a depth-first
    search of its Hamiltonian paths from a set of prefixes (one per class of the region's
    symmetries), with the path loop's dead-end and split cuts, the parity of the cube that
    must be last, and a table of dead states shared by every design searched.

    A state is (occupied cells, head, the last step's direction, the design's turns still to
    make): whether a path completes from it depends on nothing else, so once every way on from
    a state is tried in vain, meeting it again (by another route, or in another design with
    the same end) is cut at once. The table keeps states with ``low`` to ``high`` free cells,
    one per slot (the newest wins), compared whole, so a cut is never a guess.
    """

    cdef readonly const int64_t[::1] nb, colour, starts, offsets
    cdef readonly const uint64_t[::1] nbmask, ring
    cdef uint64_t[::1] tt_occ, tt_aux
    cdef int64_t tt_shift, low, high
    cdef int64_t[::1] path, dirs, nextd, ends
    cdef public int64_t hits, stores
    cdef public int64_t[::1] profile

    def __init__(
        self, const int64_t[::1] nb, const uint64_t[::1] nbmask, const uint64_t[::1] ring,
        const int64_t[::1] colour, const int64_t[::1] starts, const int64_t[::1] offsets,
        int64_t table_bits, int64_t low, int64_t high,
    ):
        cdef int64_t n = nbmask.shape[0]
        self.nb, self.nbmask, self.ring, self.colour = nb, nbmask, ring, colour
        self.starts, self.offsets = starts, offsets
        self.tt_occ = array("Q", [0]) * (1 << table_bits)
        self.tt_aux = array("Q", [0]) * (1 << table_bits)
        self.tt_shift = 64 - table_bits
        self.low, self.high = low, high
        self.path = array("q", [0]) * (n + 1)
        self.dirs = array("q", [0]) * (n + 1)
        self.nextd = array("q", [0]) * (n + 1)
        self.ends = array("q", [0]) * (n + 1)
        self.hits = self.stores = 0
        self.profile = array("q", [0]) * (n + 1)

    def search(self, uint64_t design, int64_t max_nodes):
        """(1 if ``design`` (bit i-1: cube i turns) has a path, 0 if not, 2 if ``max_nodes``
        ran out first; nodes walked)."""
        cdef int64_t nodes = 0, u, got
        for u in range(self.offsets.shape[0] - 1):
            got = self._unit(design, u, max_nodes, &nodes)
            if got != 0:
                return got, nodes
        return 0, nodes

    cdef int64_t _unit(self, uint64_t design, int64_t u, int64_t max_nodes, int64_t* spent) noexcept:
        cdef const int64_t[::1] nb = self.nb, colour = self.colour
        cdef const uint64_t[::1] nbmask = self.nbmask, ring = self.ring
        cdef uint64_t[::1] tt_occ = self.tt_occ, tt_aux = self.tt_aux
        cdef int64_t[::1] path = self.path, dirs = self.dirs, nextd = self.nextd, ends = self.ends
        cdef int64_t n = nbmask.shape[0], shift = self.tt_shift, low = self.low, high = self.high
        cdef int64_t a = self.offsets[u], b = self.offsets[u + 1], base = b - a
        cdef int64_t level, d, x, head, i, dead, lastc, end, k, nodes = spent[0], slot
        cdef uint64_t one = 1, occ = 0, free, cand, m, reach, todo, area, aux
        cdef uint64_t full = ~(<uint64_t>0) if n == 64 else ((<uint64_t>1) << n) - 1
        cdef bint moved, turn
        for i in range(base):
            path[i] = self.starts[a + i]
            occ |= one << path[i]
            if i >= 1:
                for d in range(6):
                    if nb[path[i - 1] * 6 + d] == path[i]:
                        dirs[i] = d
                if i >= 2 and ((dirs[i] != dirs[i - 1]) != ((design >> (i - 2)) & one)):
                    return 0  # the prefix turns where the design does not
        lastc = colour[path[0]] ^ ((n - 1) & 1)
        level = base
        nextd[level] = 0
        ends[level] = -1
        with nogil:
            while True:
                if level == n:
                    spent[0] = nodes
                    return 1
                if nodes >= max_nodes:
                    spent[0] = nodes
                    return 2
                head = path[level - 1]
                moved = False
                d = nextd[level]
                turn = (design >> (level - 2)) & one if level >= 2 else True
                while d < 6:
                    x = nb[head * 6 + d]
                    d += 1
                    if x < 0 or (occ >> x) & one:
                        continue
                    if level >= 2:
                        if turn:
                            if ((d - 1) >> 1) == (dirs[level - 1] >> 1):
                                continue
                        elif d - 1 != dirs[level - 1]:
                            continue
                    occ |= one << x
                    nodes += 1
                    self.profile[level] += 1
                    # Dead ends: the free neighbours of the old head that lost a way in; one
                    # with a single way in must be the last cube: of the last cube's colour,
                    # and the only one.
                    dead = 0
                    end = ends[level]
                    if end == x and level + 1 < n:  # the last cube, reached too soon
                        occ ^= one << x
                        continue
                    free = ~occ | (one << x)
                    cand = nbmask[head] & ~occ
                    while cand:
                        i = __builtin_ctzll(cand)
                        cand &= cand - one
                        m = nbmask[i] & free
                        if m == 0:
                            dead += 2
                        elif (m & (m - one)) == 0:
                            if colour[i] != lastc or (end >= 0 and end != i):
                                dead += 2
                            end = i
                    if dead > 1 and level + 1 < n:
                        occ ^= one << x
                        continue
                    cand = nbmask[x] & ~occ
                    if level + 2 < n and cand & (cand - one):
                        reach = cand & (~cand + one)
                        todo = reach
                        area = ring[x] & ~occ
                        while todo:
                            i = __builtin_ctzll(todo)
                            todo &= todo - one
                            m = nbmask[i] & area & ~reach
                            reach |= m
                            todo |= m
                        if cand & ~reach:
                            area = ~occ & full
                            todo = reach
                            while todo:
                                i = __builtin_ctzll(todo)
                                todo &= todo - one
                                m = nbmask[i] & area & ~reach
                                reach |= m
                                todo |= m
                            if reach != area:
                                occ ^= one << x
                                continue
                    # A state already known dead.
                    k = n - level - 1  # free cells after the step
                    if low <= k <= high:
                        aux = ((design >> (level - 1)) << 9) | <uint64_t>(x << 3) | <uint64_t>(d - 1)
                        slot = <int64_t>(((occ * <uint64_t>0x9E3779B97F4A7C15) ^ (aux * <uint64_t>0xC2B2AE3D27D4EB4F)) >> shift)
                        if tt_occ[slot] == occ and tt_aux[slot] == aux:
                            self.hits += 1
                            occ ^= one << x
                            continue
                    nextd[level] = d
                    dirs[level] = d - 1
                    path[level] = x
                    level += 1
                    nextd[level] = 0
                    ends[level] = end
                    moved = True
                    break
                if not moved:  # no way on: this state is dead
                    k = n - level
                    if low <= k <= high and level >= 2:
                        aux = ((design >> (level - 2)) << 9) | <uint64_t>(head << 3) | <uint64_t>dirs[level - 1]
                        slot = <int64_t>(((occ * <uint64_t>0x9E3779B97F4A7C15) ^ (aux * <uint64_t>0xC2B2AE3D27D4EB4F)) >> shift)
                        tt_occ[slot] = occ
                        tt_aux[slot] = aux
                        self.stores += 1
                    if level == base:
                        spent[0] = nodes
                        return 0
                    level -= 1
                    occ ^= one << path[level]


cdef inline uint64_t _xorshift(uint64_t* state) noexcept nogil:
    cdef uint64_t x = state[0]
    x ^= x << 13
    x ^= x >> 7
    x ^= x << 17
    state[0] = x
    return x


def tree_estimate(DesignFit fit, uint64_t design, int64_t probes, uint64_t seed, int64_t depth):
    """Knuth's estimate of the nodes ``fit.search(design)`` walks down to ``depth`` cells:
    ``probes`` random walks from random prefixes, with its cuts but no table."""
    cdef const int64_t[::1] nb = fit.nb, colour = fit.colour
    cdef const uint64_t[::1] nbmask = fit.nbmask
    cdef int64_t n = nbmask.shape[0], units = fit.offsets.shape[0] - 1
    cdef int64_t p, u, a, b, i, d, level, head, x, lastd, k, c, dead, end, lastc
    cdef int64_t kids[6]
    cdef int64_t kend[6]
    cdef uint64_t one = 1, occ, free, cand, m, state = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
    cdef double weight, total = 0.0
    cdef bint ok, turn
    for p in range(probes):
        u = <int64_t>(_xorshift(&state) % <uint64_t>units)
        a, b = fit.offsets[u], fit.offsets[u + 1]
        occ = 0
        ok = True
        lastd = -1
        for i in range(b - a):
            occ |= one << fit.starts[a + i]
            if i >= 1:
                for d in range(6):
                    if nb[fit.starts[a + i - 1] * 6 + d] == fit.starts[a + i]:
                        k = d
                if i >= 2 and ((k != lastd) != ((design >> (i - 2)) & one)):
                    ok = False
                lastd = k
        if not ok:
            continue
        head = fit.starts[b - 1]
        lastc = colour[fit.starts[a]] ^ ((n - 1) & 1)
        level = b - a
        weight = units
        end = -1
        while level < n and level < depth:
            turn = (design >> (level - 2)) & one if level >= 2 else True
            c = 0
            for d in range(6):
                x = nb[head * 6 + d]
                if x < 0 or (occ >> x) & one:
                    continue
                if level >= 2:
                    if turn:
                        if (d >> 1) == (lastd >> 1):
                            continue
                    elif d != lastd:
                        continue
                total += weight
                if end == x and level + 1 < n:
                    continue
                dead = 0
                k = end
                free = ~(occ | (one << x)) | (one << x)
                cand = nbmask[head] & ~(occ | (one << x))
                while cand:
                    i = __builtin_ctzll(cand)
                    cand &= cand - one
                    m = nbmask[i] & free
                    if m == 0:
                        dead += 2
                    elif (m & (m - one)) == 0:
                        if colour[i] != lastc or (k >= 0 and k != i):
                            dead += 2
                        k = i
                if dead > 1 and level + 1 < n:
                    continue
                kids[c] = d
                kend[c] = k
                c += 1
            if c == 0:
                break
            weight *= c
            i = <int64_t>(_xorshift(&state) % <uint64_t>c)
            lastd = kids[i]
            end = kend[i]
            head = nb[head * 6 + lastd]
            occ |= one << head
            level += 1
    return total / probes


def guided_estimate(
    const int64_t[::1] nb, const uint64_t[::1] nbmask, const uint64_t[::1] ring,
    const int64_t[::1] colour, const uint64_t[::1] table, const int64_t[::1] starts,
    const int64_t[::1] offsets, double[::1] walks, uint64_t seed,
):
    """Knuth's estimate of the nodes ``GuidedPaths`` walks over every unit (``starts`` cut
    at ``offsets``), before any design is found: one random walk per entry of ``walks``,
    each writing its estimate there."""
    cdef int64_t n = nbmask.shape[0], units = offsets.shape[0] - 1
    cdef int64_t p, u, a, b, i, d, level, head, x, lastd, k, c, dead, end, lastc, lo, hi
    cdef int64_t kids[6]
    cdef int64_t kend[6]
    cdef int64_t klo[6]
    cdef int64_t khi[6]
    cdef uint64_t one = 1, occ, free, cand, m, reach, todo, area
    cdef uint64_t full = ~(<uint64_t>0) if n == 64 else ((<uint64_t>1) << n) - 1
    cdef uint64_t state = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
    cdef double weight, total
    cdef bint ok
    with nogil:
        for p in range(walks.shape[0]):
            total = 0.0
            u = <int64_t>(_xorshift(&state) % <uint64_t>units)
            a, b = offsets[u], offsets[u + 1]
            occ = 0
            ok = True
            lastd = -1
            lo, hi = 0, table.shape[0]
            for i in range(b - a):
                occ |= one << starts[a + i]
                if i >= 1:
                    for d in range(6):
                        if nb[starts[a + i - 1] * 6 + d] == starts[a + i]:
                            k = d
                    if i >= 2:
                        lo, hi = _narrow(table, lo, hi, n - 1 - i, k != lastd)
                    lastd = k
            if lo >= hi:
                walks[p] = 0.0
                continue
            head = starts[b - 1]
            lastc = colour[starts[a]] ^ ((n - 1) & 1)
            level = b - a
            weight = units
            end = -1
            while level < n:
                c = 0
                for d in range(6):
                    x = nb[head * 6 + d]
                    if x < 0 or (occ >> x) & one:
                        continue
                    a, b = lo, hi
                    if level >= 2:
                        a, b = _narrow(table, lo, hi, n - 1 - level, d != lastd)
                        if a >= b:
                            continue
                    total += weight
                    if end == x and level + 1 < n:
                        continue
                    occ |= one << x
                    dead = 0
                    k = end
                    free = ~occ | (one << x)
                    cand = nbmask[head] & ~occ
                    while cand:
                        i = __builtin_ctzll(cand)
                        cand &= cand - one
                        m = nbmask[i] & free
                        if m == 0:
                            dead += 2
                        elif (m & (m - one)) == 0:
                            if colour[i] != lastc or (k >= 0 and k != i):
                                dead += 2
                            k = i
                    if dead > 1 and level + 1 < n:
                        occ ^= one << x
                        continue
                    cand = nbmask[x] & ~occ
                    if level + 2 < n and cand & (cand - one):
                        reach = cand & (~cand + one)
                        area = ~occ & full
                        todo = reach
                        while todo:
                            i = __builtin_ctzll(todo)
                            todo &= todo - one
                            m = nbmask[i] & area & ~reach
                            reach |= m
                            todo |= m
                        if reach != area:
                            occ ^= one << x
                            continue
                    occ ^= one << x
                    kids[c], kend[c], klo[c], khi[c] = d, k, a, b
                    c += 1
                if c == 0:
                    break
                weight *= c
                i = <int64_t>(_xorshift(&state) % <uint64_t>c)
                lastd, end, lo, hi = kids[i], kend[i], klo[i], khi[i]
                head = nb[head * 6 + lastd]
                occ |= one << head
                level += 1
            walks[p] = total
