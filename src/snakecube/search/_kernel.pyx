# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled search loop behind ``snakecube.search.kernel``.

Each search keeps its tables and its state in one object (as msgpack's ``Unpacker`` does), so
a caller makes it once and calls ``run(max_nodes)`` in slices, checking time, progress and
Ctrl-C in between:

* ``SegmentSearch``: the segment-placing search of one work unit (the reference's contract).
  Two loops with the same steps, order and state: one mask of occupancy kept in registers
  (``_run_mask``, written once for a 64-bit word, regions of at most 64 cells, and for a
  128-bit pair of words, at most 128 cells), and an array of words for any size.

Tables are flat. Row ``r = (lidx[k] * cells + head) * 6 + d`` is segment k's ray from
``head`` in direction d: ``rend[r]`` its end cell (-1 when it leaves the region), ``rmask`` the
cells it adds, ``rhalo`` the neighbours of its start cell and of the cells it adds, each
``words`` words.
"""

from array import array

from libc.stdint cimport int64_t, uint64_t

from snakecube.search import options as _flags

# The pruning flags, read from the one Python module that defines them.
cdef int64_t F_DEAD_END = _flags.DEAD_END
cdef int64_t F_CONNECTED = _flags.CONNECTED
cdef int64_t F_PARITY = _flags.PARITY
cdef int64_t F_TAIL = _flags.TAIL
cdef int64_t TAIL = _flags.TAIL_SEGMENTS


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
    # The two masks the register loop is written for. Cython must see two different types to
    # make two versions of a fused function; C sees a 64-bit word and GCC's 128-bit integer.
    ctypedef unsigned long mask64 "uint64_t"
    ctypedef unsigned long long mask128 "unsigned __int128"


ctypedef fused mask_t:
    mask64
    mask128


cdef inline mask_t _load(const uint64_t[::1] table, int64_t row, mask_t kind) noexcept nogil:
    """Row ``row`` of a table of one word (mask64) or two words (mask128) a row."""
    if mask_t is mask64:
        return table[row]
    else:
        return (<mask128>table[2 * row + 1] << 64) | table[2 * row]


cdef inline int64_t _low_bit(mask_t m) noexcept nogil:
    """The index of the lowest set bit of a non-zero mask."""
    if mask_t is mask64:
        return __builtin_ctzll(m)
    else:
        if <uint64_t>m:
            return __builtin_ctzll(<uint64_t>m)
        return 64 + __builtin_ctzll(<uint64_t>(m >> 64))


cdef inline mask_t _shift(mask_t m, int64_t s) noexcept nogil:
    """Bit c of the result is bit c + s of ``m`` (zero where that is out of the mask)."""
    if s >= 0:
        return m >> s
    return m << (-s)


cdef inline bint _is_set(const uint64_t[::1] words, int64_t c) noexcept nogil:
    return (words[c >> 6] >> (c & 63)) & 1


def array_of(int64_t n, int64_t value):
    """A new int64 array of n copies of ``value``."""
    return array("q", [value]) * max(n, 1)


def words_of(int64_t n):
    """A new array of n zero words."""
    return array("Q", [0]) * max(n, 1)


cdef inline void _store(uint64_t[::1] table, int64_t row, mask_t m) noexcept nogil:
    """Write row ``row`` of a table of one word (mask64) or two words (mask128) a row."""
    if mask_t is mask64:
        table[row] = m
    else:
        table[2 * row] = <uint64_t>m
        table[2 * row + 1] = <uint64_t>(m >> 64)


cdef bint _tail_fits(const int64_t[::1] lidx, const int64_t[::1] rend,
                     const uint64_t[::1] rmask, int64_t n_cells, int64_t n_seg, mask_t taken,
                     int64_t c, int64_t j, int64_t axis, int64_t stop,
                     mask_t* fit) noexcept nogil:
    """Can segments j, j-1, ... (down to ``stop``, at most TAIL of them) lie backwards from
    cell c on cells not in ``taken`` (c is), the first off ``axis``? One mask in registers.
    When they can, ``fit[0]`` is ``taken`` with the cells of the placement found."""
    cdef int64_t d, r, row
    cdef mask_t ray
    if j < stop or n_seg - 1 - j >= TAIL:
        fit[0] = taken
        return True
    row = (lidx[j] * n_cells + c) * 6
    # Step 1: each direction off the axis whose ray stays in the region on free cells.
    for d in range(6):
        r = row + d
        if (d >> 1) == axis or rend[r] < 0:
            continue
        ray = _load(rmask, r, taken)
        if taken & ray:
            continue
        # Step 2: the segment before it, from the ray's far end.
        if _tail_fits(lidx, rend, rmask, n_cells, n_seg, taken | ray, rend[r], j - 1,
                      d >> 1, stop, fit):
            return True
    return False


cdef bint _tail_fits_words(const int64_t[::1] lidx, const int64_t[::1] rend,
                           const uint64_t[::1] rmask, int64_t n_cells, int64_t n_seg,
                           int64_t W, uint64_t[::1] taken, int64_t t, int64_t c, int64_t j,
                           int64_t axis, int64_t stop) noexcept nogil:
    """``_tail_fits`` with W words a mask: the cells taken at depth t are ``taken[t * W:]``
    (TAIL + 1 rows of scratch)."""
    cdef int64_t d, r, row, w
    cdef uint64_t clash
    if j < stop or n_seg - 1 - j >= TAIL:
        return True
    row = (lidx[j] * n_cells + c) * 6
    for d in range(6):
        r = row + d
        if (d >> 1) == axis or rend[r] < 0:
            continue
        clash = 0
        for w in range(W):
            clash |= taken[t * W + w] & rmask[r * W + w]
        if clash:
            continue
        for w in range(W):
            taken[(t + 1) * W + w] = taken[t * W + w] | rmask[r * W + w]
        if _tail_fits_words(lidx, rend, rmask, n_cells, n_seg, W, taken, t + 1, rend[r],
                            j - 1, d >> 1, stop):
            return True
    return False


cdef class SegmentSearch:
    """The search of one work unit, resumable: ``run(max_nodes)`` writes the placements it
    finds (one direction per segment) to ``out`` and returns (placements written, nodes);
    ``finished`` says when the unit is exhausted."""

    cdef const int64_t[::1] lidx, rend, placed_after
    cdef const uint64_t[::1] rmask, rhalo, nbmask, colours
    cdef int64_t[::1] dirs, nextd, heads, endc
    cdef public int64_t[::1] out
    cdef uint64_t[::1] occ, reach, frontier, taken, witness
    cdef int64_t n_seg, n_cells, words, level, base, flags, min_free, end_colour, max_out
    cdef readonly bint finished
    cdef bint multiword, shifted
    cdef int64_t shifts[6]
    cdef const uint64_t[::1] has

    def __init__(
        self, const int64_t[::1] lidx, const uint64_t[::1] rmask, const int64_t[::1] rend,
        const uint64_t[::1] rhalo, const uint64_t[::1] nbmask,
        const int64_t[::1] placed_after, const uint64_t[::1] colours, int64_t words,
        int64_t[::1] dirs, int64_t head, uint64_t[::1] occ, int64_t base, int64_t flags,
        int64_t min_free, int64_t end_colour, int64_t[::1] out, int64_t max_out,
        bint multiword,
    ):
        self.lidx, self.rmask, self.rend, self.rhalo = lidx, rmask, rend, rhalo
        self.nbmask, self.placed_after, self.colours = nbmask, placed_after, colours
        self.n_seg = lidx.shape[0]
        self.words = words
        self.n_cells = nbmask.shape[0] // words
        self.dirs = dirs
        self.nextd = array_of(self.n_seg + 1, 0)
        self.heads = array_of(self.n_seg + 1, 0)
        self.endc = array_of(self.n_seg + 1, -1)
        self.heads[base] = head
        self.occ = occ
        self.reach = words_of(words)
        self.frontier = words_of(words)
        self.taken = words_of((TAIL + 1) * words)
        self.witness = words_of((self.n_seg + 1) * words)
        self.level = self.base = base
        self.flags, self.min_free, self.end_colour = flags, min_free, end_colour
        self.out, self.max_out = out, max_out
        self.multiword = multiword or words > 2
        self.finished = False
        self.shifted = False

    def set_shifts(self, const int64_t[::1] shifts, const uint64_t[::1] has):
        """Cell c's neighbour in direction d is c + shifts[d] wherever it has one (row d of
        ``has``, ``words`` words): true of a box. The register loop then counts the free
        neighbours of every cell at once, by shifting the mask of free cells (the same
        answer as one cell at a time, cheaper)."""
        cdef int64_t d
        for d in range(6):
            self.shifts[d] = shifts[d]
        self.has = has
        self.shifted = True

    def run(self, int64_t max_nodes):
        """Search on for at most ``max_nodes`` nodes: (placements written to out, nodes)."""
        if self.finished:
            return 0, 0
        if self.multiword:
            return self._run_words(max_nodes)
        if self.words == 1:
            return _run_mask[mask64](self, max_nodes, 0)
        return _run_mask[mask128](self, max_nodes, 0)

    cdef tuple _run_words(self, int64_t max_nodes):
        """The same loop with W words a mask: ``rmask``, ``rhalo`` and ``nbmask`` hold W words
        per row; ``reach`` and ``frontier`` are W scratch words."""

        cdef const int64_t[::1] lidx = self.lidx, rend = self.rend, placed_after = self.placed_after
        cdef const uint64_t[::1] rmask = self.rmask, rhalo = self.rhalo, nbmask = self.nbmask
        cdef const uint64_t[::1] colours = self.colours
        cdef int64_t[::1] dirs = self.dirs, nextd = self.nextd, heads = self.heads, endc = self.endc
        cdef int64_t[::1] out = self.out
        cdef uint64_t[::1] occ = self.occ, reach = self.reach, frontier = self.frontier
        cdef uint64_t[::1] taken = self.taken
        cdef int64_t n_seg = self.n_seg, W = self.words, n_cells = self.n_cells
        cdef int64_t flags = self.flags, min_free = self.min_free, end_colour = self.end_colour
        cdef int64_t max_out = self.max_out
        cdef uint64_t one = 1
        cdef int64_t level = self.level
        cdef int64_t base = self.base
        cdef bint finished = False
        cdef int64_t n_out = 0, nodes = 0
        cdef int64_t k, row, r, axis, d, e, last, x, i, w, w2, ways, count
        cdef uint64_t cand, m, clash, bits, new
        cdef bint ok, moved, more, growing
        cdef bint parity = flags & F_PARITY
        with nogil:
            while nodes < max_nodes:
                if level == n_seg:
                    for i in range(n_seg):
                        out[n_out * n_seg + i] = dirs[i]
                    n_out += 1
                    level -= 1
                    r = (lidx[level] * n_cells + heads[level]) * 6 + dirs[level]
                    for w in range(W):
                        occ[w] ^= rmask[r * W + w]
                    if n_out == max_out:
                        break
                    continue
                k = level
                row = (lidx[k] * n_cells + heads[k]) * 6
                axis = dirs[k - 1] >> 1 if k > 0 else -1
                more = k + 1 < n_seg
                moved = False
                d = nextd[k]
                while d < 6:
                    r = row + d
                    e = rend[r]
                    if (d >> 1) == axis or e < 0:
                        d += 1
                        continue
                    clash = 0
                    for w in range(W):
                        clash |= occ[w] & rmask[r * W + w]
                    if clash:
                        d += 1
                        continue
                    for w in range(W):
                        occ[w] |= rmask[r * W + w]
                    nodes += 1
                    ok = True
                    last = endc[k]
                    if flags & F_DEAD_END and more:
                        for w in range(W):
                            cand = rhalo[r * W + w] & ~occ[w]
                            while cand and ok:
                                x = (w << 6) + __builtin_ctzll(cand)
                                cand &= cand - one
                                ways = (nbmask[x * W + (e >> 6)] >> (e & 63)) & 1
                                for w2 in range(W):
                                    m = nbmask[x * W + w2] & ~occ[w2]
                                    if m:
                                        ways += 1 if m & (m - one) == 0 else 2
                                if ways == 0:
                                    ok = False
                                elif ways == 1:
                                    if last >= 0 and last != x and not _is_set(occ, last):
                                        ok = False
                                    if parity and <int64_t>_is_set(colours, x) != end_colour:
                                        ok = False
                                    last = x
                            if not ok:
                                break
                    if (ok and flags & F_TAIL and last >= 0 and k + 2 < n_seg
                            and not _is_set(occ, last)):
                        for w in range(W):
                            taken[w] = occ[w]
                        taken[last >> 6] |= one << (last & 63)
                        ok = _tail_fits_words(lidx, rend, rmask, n_cells, n_seg, W, taken, 0,
                                              last, n_seg - 1, -1, k + 2)
                    if ok and flags & F_CONNECTED and more and n_cells - placed_after[k] >= min_free:
                        count = 0
                        for w in range(W):
                            reach[w] = nbmask[e * W + w] & ~occ[w]
                            frontier[w] = reach[w]
                            count += __builtin_popcountll(reach[w])
                        growing = True
                        while growing:
                            growing = False
                            for w in range(W):
                                bits = frontier[w]
                                frontier[w] = 0
                                while bits:
                                    x = (w << 6) + __builtin_ctzll(bits)
                                    bits &= bits - one
                                    for w2 in range(W):
                                        new = nbmask[x * W + w2] & ~occ[w2] & ~reach[w2]
                                        if new:
                                            reach[w2] |= new
                                            frontier[w2] |= new
                                            count += __builtin_popcountll(new)
                                            growing = True
                        if count != n_cells - placed_after[k]:
                            ok = False
                    if not ok:
                        for w in range(W):
                            occ[w] ^= rmask[r * W + w]
                        d += 1
                        continue
                    dirs[k] = d
                    nextd[k] = d + 1
                    heads[k + 1] = e
                    endc[k + 1] = last
                    nextd[k + 1] = 0
                    level = k + 1
                    moved = True
                    break
                if not moved:
                    nextd[k] = 6
                    if level == base:
                        finished = True
                        break
                    level -= 1
                    r = (lidx[level] * n_cells + heads[level]) * 6 + dirs[level]
                    for w in range(W):
                        occ[w] ^= rmask[r * W + w]
        self.level = level
        self.finished = finished
        return n_out, nodes


cdef tuple _run_mask(SegmentSearch self, int64_t max_nodes, mask_t kind):
    """``SegmentSearch.run`` with the occupancy in registers: one word (``mask64``, regions of
    at most 64 cells) or a pair (``mask128``, at most 128); tables of one or two words a row."""
    cdef const int64_t[::1] lidx = self.lidx, rend = self.rend, placed_after = self.placed_after
    cdef const uint64_t[::1] rmask = self.rmask, rhalo = self.rhalo, nbmask = self.nbmask
    cdef uint64_t[::1] witness = self.witness
    cdef int64_t[::1] dirs = self.dirs, nextd = self.nextd, heads = self.heads, endc = self.endc
    cdef int64_t[::1] out = self.out
    cdef int64_t n_seg = self.n_seg, n_cells = self.n_cells, flags = self.flags
    cdef int64_t min_free = self.min_free, end_colour = self.end_colour, max_out = self.max_out
    cdef mask_t one = 1
    cdef mask_t colour = _load(self.colours, 0, one)
    cdef bint parity = flags & F_PARITY
    cdef mask_t cells_mask = (one << n_cells) - one if n_cells < 8 * sizeof(mask_t) else ~(one - one)
    cdef mask_t occ = _load(self.occ, 0, one)
    cdef int64_t level = self.level
    cdef int64_t base = self.base
    cdef bint finished = False
    cdef int64_t n_out = 0, nodes = 0
    cdef int64_t k, row, r, axis, d, e, last, x, i
    cdef mask_t ray, cand, m, free, reach, frontier, grow, fit, a1, a2, t
    cdef bint ok, moved, more
    cdef bint shifted = self.shifted
    cdef mask_t has[6]  # in a box: the cells with a neighbour in direction j, and the
    cdef int64_t shift[6]  # distance to it (set_shifts)
    cdef int64_t j
    for j in range(6):
        has[j] = _load(self.has, j, one) if shifted else 0
        shift[j] = self.shifts[j]
    with nogil:
        while nodes < max_nodes:
            if level == n_seg:  # a complete placement: report it, then step back
                for i in range(n_seg):
                    out[n_out * n_seg + i] = dirs[i]
                n_out += 1
                level -= 1
                occ ^= _load(rmask, (lidx[level] * n_cells + heads[level]) * 6 + dirs[level], one)
                if n_out == max_out:
                    break
                continue
            # Step 1: try the next direction at this level.
            k = level
            row = (lidx[k] * n_cells + heads[k]) * 6
            axis = dirs[k - 1] >> 1 if k > 0 else -1
            more = k + 1 < n_seg
            moved = False
            d = nextd[k]
            while d < 6:
                r = row + d
                e = rend[r]
                if (d >> 1) == axis or e < 0:
                    d += 1
                    continue
                ray = _load(rmask, r, one)
                if occ & ray:
                    d += 1
                    continue
                # Step 2: place the segment.
                occ |= ray
                nodes += 1
                ok = True
                last = endc[k]
                # Step 3: dead ends. Only free cells in the ray's halo can have lost a free
                # neighbour. One way in (counting the new head) means: the last cube.
                if flags & F_DEAD_END and more and shifted:
                    # Step 3 in a box: every cell's free neighbours counted up to two at
                    # once (a1: at least one, a2: at least two), six shifts of the free mask.
                    free = ~occ | (one << e)
                    cand = _load(rhalo, r, one) & ~occ
                    a1 = a2 = 0
                    for j in range(6):
                        t = has[j] & _shift(free, shift[j])
                        a2 |= a1 & t
                        a1 |= t
                    m = cand & ~a2  # no way in, or one
                    if m:
                        if (m & ~a1) or (m & (m - one)):
                            ok = False  # a cell with no way in, or two with one each
                        else:
                            x = _low_bit(m)
                            if last >= 0 and last != x and not (occ >> last) & one:
                                ok = False
                            elif parity and <int64_t>((colour >> x) & one) != end_colour:
                                ok = False  # the last cube's colour is fixed by parity
                            else:
                                last = x
                elif flags & F_DEAD_END and more:
                    free = ~occ | (one << e)
                    cand = _load(rhalo, r, one) & ~occ
                    while cand:
                        x = _low_bit(cand)
                        cand &= cand - one
                        m = _load(nbmask, x, one) & free
                        if m == 0:
                            ok = False
                            break
                        if m & (m - one) == 0:
                            if last >= 0 and last != x and not (occ >> last) & one:
                                ok = False
                                break
                            if parity and <int64_t>((colour >> x) & one) != end_colour:
                                ok = False  # the last cube's colour is fixed by parity
                                break
                            last = x
                # Step 3b: the last segments fit backwards from the last cube, if known. The
                # cells of the fit found at the node above (its witness) are reused while the
                # last cube stays and the new segment misses them: the same answer, cheaper.
                fit = 0
                if (ok and flags & F_TAIL and last >= 0 and k + 2 < n_seg
                        and not (occ >> last) & one):
                    fit = _load(witness, k, one)
                    if not fit or last != endc[k] or fit & ray:
                        fit = 0
                        ok = _tail_fits(lidx, rend, rmask, n_cells, n_seg, occ | (one << last),
                                        last, n_seg - 1, -1, k + 2, &fit)
                        fit &= ~(occ | (one << last))
                # Step 4: the free cells stay connected to the head (flood fill), while at
                # least min_free cells are free.
                if ok and flags & F_CONNECTED and more and n_cells - placed_after[k] >= min_free:
                    free = ~occ & cells_mask
                    reach = _load(nbmask, e, one) & free
                    frontier = reach
                    while frontier:
                        grow = 0
                        # Step 4a: one ring further out (in a box: six shifts of the ring).
                        if shifted:
                            for j in range(6):
                                grow |= has[j] & _shift(frontier, shift[j])
                            frontier = 0
                        while frontier:
                            x = _low_bit(frontier)
                            frontier &= frontier - one
                            grow |= _load(nbmask, x, one)
                        frontier = grow & free & ~reach
                        reach |= frontier
                    if reach != free:
                        ok = False
                if not ok:
                    occ ^= ray
                    d += 1
                    continue
                dirs[k] = d
                nextd[k] = d + 1
                heads[k + 1] = e
                endc[k + 1] = last
                _store(witness, k + 1, fit)
                nextd[k + 1] = 0
                level = k + 1
                moved = True
                break
            if not moved:  # Step 5: no direction left here: step back.
                nextd[k] = 6
                if level == base:
                    finished = True
                    break
                level -= 1
                occ ^= _load(rmask, (lidx[level] * n_cells + heads[level]) * 6 + dirs[level], one)
    self.level = level
    self.occ[0] = <uint64_t>occ
    if mask_t is mask128:
        self.occ[1] = <uint64_t>(occ >> 64)
    self.finished = finished
    return n_out, nodes
