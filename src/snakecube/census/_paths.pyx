# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The census's compiled loop behind ``snakecube.census.units``: every Hamiltonian path under
a prefix, as canonical design keys (``PathKeys``), for regions of at most 64 cells.

It keeps its state in one object (as msgpack's ``Unpacker`` does): the caller makes it once
and calls ``run(max_nodes)`` in slices, checking time, progress and Ctrl-C in between.
"""

from array import array

from libc.stdint cimport int64_t, uint64_t


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline uint64_t _flood(
    const uint64_t[::1] nbmask, uint64_t reach, uint64_t area
) noexcept nogil:
    """The cells of ``area`` joined to ``reach`` through ``area``, and ``reach`` (as
    ``snakecube.shape.flood``)."""
    cdef uint64_t todo = reach, m
    cdef int64_t i
    while todo:
        i = __builtin_ctzll(todo)
        todo &= todo - 1
        m = nbmask[i] & area & ~reach
        reach |= m
        todo |= m
    return reach


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
    cdef bint made

    def __init__(
        self, const int64_t[::1] nb, const uint64_t[::1] nbmask, const uint64_t[::1] ring,
        const int64_t[::1] syms, int64_t[::1] path, int64_t[::1] dirs, int64_t[::1] run,
        int64_t maxrun, int64_t base, uint64_t[::1] keys, unsigned char[::1] fixed,
    ):
        cdef int64_t i
        cdef int64_t n = nbmask.shape[0]
        _check(nb, nbmask, ring, syms, path, dirs, run, base, keys, fixed)
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
        self.made = True

    def run(self, int64_t max_nodes):
        """Walk on for at most ``max_nodes`` steps: (paths written to keys, nodes)."""
        if not self.made:
            raise ValueError("the walk was not made: call the class with its arguments")
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
        cdef uint64_t one = 1, free, cand, m, key, rkey, reach, area
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
                        # from one free neighbour, in x's ring
                        reach = _flood(nbmask, cand & (~cand + one), ring[x] & ~occ)
                        if cand & ~reach:  # not joined nearby: every free cell decides
                            area = ~occ & full
                            if _flood(nbmask, reach, area) != area:
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


cdef _check(const int64_t[::1] nb, const uint64_t[::1] nbmask, const uint64_t[::1] ring,
            const int64_t[::1] syms, int64_t[::1] path, int64_t[::1] dirs, int64_t[::1] run,
            int64_t base, uint64_t[::1] keys, unsigned char[::1] fixed):
    """ValueError unless the walk's arrays fit its ``n`` cells (``nbmask``: 1 to 64): nothing
    the loop reads or writes is then outside them."""
    cdef int64_t n = nbmask.shape[0], i
    cdef uint64_t outside = 0 if n == 64 else ~(((<uint64_t>1) << n) - 1)
    if not 1 <= n <= 64:
        raise ValueError("the census's loop walks regions of 1 to 64 cells")
    if nb.shape[0] != 6 * n or ring.shape[0] != n or syms.shape[0] % n:
        raise ValueError(f"nb, ring and syms must hold 6, 1 and |G| entries for each of {n} cells")
    if path.shape[0] < n or dirs.shape[0] < n or run.shape[0] < n:
        raise ValueError(f"path, dirs and run must hold an entry for each of the {n} cells")
    if not 1 <= base <= n:
        raise ValueError(f"the prefix must hold 1 to {n} cells, not {base}")
    if keys.shape[0] < 1 or fixed.shape[0] < keys.shape[0]:
        raise ValueError("keys must hold at least one key, and fixed a flag for each")
    for i in range(6 * n):
        if not -1 <= nb[i] < n:
            raise ValueError("nb holds a value out of range")
    for i in range(n):
        if (nbmask[i] | ring[i]) & outside:
            raise ValueError("nbmask or ring holds a cell out of range")
    for i in range(syms.shape[0]):
        if not 0 <= syms[i] < n:
            raise ValueError("syms holds a value out of range")
    for i in range(base):
        if not 0 <= path[i] < n:
            raise ValueError("path holds a value out of range")


cdef inline uint64_t _xorshift(uint64_t* state) noexcept nogil:
    cdef uint64_t x = state[0]
    x ^= x << 13
    x ^= x >> 7
    x ^= x << 17
    state[0] = x
    return x


def tree_estimate(
    const int64_t[::1] nb, const uint64_t[::1] nbmask, const int64_t[::1] colour,
    const int64_t[::1] starts, const int64_t[::1] offsets, uint64_t design, int64_t probes,
    uint64_t seed,
):
    """Knuth's estimate of the size of the tree of one design's paths, read from its first
    cube (``design``: bit i-1 set when cube i turns), in a region of at most 64 cells:
    ``probes`` random walks, each from a random prefix (``starts`` cut at ``offsets``: one
    per class of the region's symmetries), stepping as the design turns, with the dead-end
    cut and the last cube's colour (a cell left with a single way in must be the last cube,
    of the colour the path ends on, and the only such cell). The estimate of a cell-level
    walk, for comparing a design's two ends, not for predicting a search's nodes."""
    cdef int64_t n = nbmask.shape[0], units = offsets.shape[0] - 1
    cdef int64_t p, u, a, b, i, d, level, head, x, lastd, k, c, dead, end, lastc
    cdef int64_t kids[6]
    cdef int64_t kend[6]
    cdef uint64_t one = 1, occ, free, cand, m, state = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
    cdef double weight, total = 0.0
    cdef bint ok, turn
    cdef uint64_t outside = 0 if n == 64 else ~(((<uint64_t>1) << n) - 1)
    if not 1 <= n <= 64:
        raise ValueError("tree_estimate walks regions of 1 to 64 cells")
    if nb.shape[0] != 6 * n or colour.shape[0] != n:
        raise ValueError(f"nb and colour must hold 6 and 1 entries for each of {n} cells")
    for i in range(6 * n):
        if not -1 <= nb[i] < n:
            raise ValueError("nb holds a value out of range")
    for i in range(n):
        if nbmask[i] & outside:
            raise ValueError("nbmask holds a cell out of range")
    for i in range(starts.shape[0]):
        if not 0 <= starts[i] < n:
            raise ValueError("starts holds a value out of range")
    for i in range(units + 1 if units >= 0 else 0):
        if not 0 <= offsets[i] <= starts.shape[0] or (i and offsets[i] < offsets[i - 1]):
            raise ValueError("offsets must rise from 0 to the length of starts")
    if units < 1 or probes < 1:
        return 0.0
    with nogil:
        for p in range(probes):
            u = <int64_t>(_xorshift(&state) % <uint64_t>units)
            a, b = offsets[u], offsets[u + 1]
            occ = 0
            ok = True
            lastd = -1
            for i in range(b - a):  # Step 1: the prefix must turn as the design does
                occ |= one << starts[a + i]
                if i >= 1:
                    for d in range(6):
                        if nb[starts[a + i - 1] * 6 + d] == starts[a + i]:
                            k = d
                    if i >= 2 and ((k != lastd) != ((design >> (i - 2)) & one)):
                        ok = False
                    lastd = k
            if not ok:
                continue
            head = starts[b - 1]
            lastc = colour[starts[a]] ^ ((n - 1) & 1)
            level = b - a
            weight = units
            end = -1
            while level < n:
                # Step 2: the steps the design allows here (nodes), and those that pass the
                # cuts (children).
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
                    free = ~occ
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
                # Step 3: on to one child at random.
                weight *= c
                i = <int64_t>(_xorshift(&state) % <uint64_t>c)
                lastd = kids[i]
                end = kend[i]
                head = nb[head * 6 + lastd]
                occ |= one << head
                level += 1
    return total / probes
