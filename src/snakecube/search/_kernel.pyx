# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled search loop behind ``snakecube.search.kernel`` (see that module for the contract).

Two loops with the same steps, the same order and the same resumable state: ``run_word`` for
regions of at most 64 cells, whose occupancy is one machine word kept in a register, and
``run_words`` for any size, whose occupancy is an array of words.

Tables are flat. Row ``r = (lidx[k] * cells + head) * 6 + d`` is segment k's ray from
``head`` in direction d: ``rend[r]`` its end cell (-1 when it leaves the region), ``rmask`` the
cells it adds, ``rhalo`` the neighbours of its start cell and of the cells it adds.
``meta = [level, base level, finished]``. Both return (solutions written to out, nodes).
"""

from libc.stdint cimport int64_t, uint64_t

from snakecube.search import flags as _flags

# The pruning flags, read from the one Python module that defines them.
cdef int64_t F_DEAD_END = _flags.DEAD_END
cdef int64_t F_CONNECTED = _flags.CONNECTED
cdef int64_t F_PARITY = _flags.PARITY


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


def run_word(
    const int64_t[::1] lidx, const uint64_t[::1] rmask, const int64_t[::1] rend,
    const uint64_t[::1] rhalo, const uint64_t[::1] nbmask, const int64_t[::1] placed_after,
    int64_t[::1] dirs, int64_t[::1] nextd, int64_t[::1] heads, int64_t[::1] endc,
    uint64_t[::1] occ_io, int64_t[::1] meta,
    int64_t flags, int64_t min_free, int64_t max_nodes, int64_t[::1] out, int64_t max_out,
    const uint64_t[::1] colours, int64_t end_colour,
):
    cdef int64_t n_seg = lidx.shape[0]
    cdef int64_t n_cells = nbmask.shape[0]
    cdef uint64_t colour = colours[0]
    cdef bint parity = flags & F_PARITY
    cdef uint64_t one = 1
    cdef uint64_t cells_mask = (one << n_cells) - one if n_cells < 64 else ~<uint64_t>0
    cdef uint64_t occ = occ_io[0]
    cdef int64_t level = meta[0]
    cdef int64_t base = meta[1]
    cdef int64_t n_out = 0, nodes = 0
    cdef int64_t k, row, r, axis, d, e, last, x, i
    cdef uint64_t cand, m, free, reach, frontier, grow
    cdef bint ok, moved, more
    with nogil:
        while nodes < max_nodes:
            if level == n_seg:  # a complete placement: report it, then step back
                for i in range(n_seg):
                    out[n_out * n_seg + i] = dirs[i]
                n_out += 1
                level -= 1
                occ ^= rmask[(lidx[level] * n_cells + heads[level]) * 6 + dirs[level]]
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
                if (d >> 1) == axis or e < 0 or occ & rmask[r]:
                    d += 1
                    continue
                # Step 2: place the segment.
                occ |= rmask[r]
                nodes += 1
                ok = True
                last = endc[k]
                # Step 3: dead ends. Only free cells in the ray's halo can have lost a free
                # neighbour. One way in (counting the new head) means: the last cube.
                if flags & F_DEAD_END and more:
                    free = ~occ | (one << e)
                    cand = rhalo[r] & ~occ
                    while cand:
                        x = __builtin_ctzll(cand)
                        cand &= cand - one
                        m = nbmask[x] & free
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
                # Step 4: the free cells stay connected to the head (flood fill), while at
                # least min_free cells are free.
                if ok and flags & F_CONNECTED and more and n_cells - placed_after[k] >= min_free:
                    free = ~occ & cells_mask
                    reach = nbmask[e] & free
                    frontier = reach
                    while frontier:
                        grow = 0
                        while frontier:
                            x = __builtin_ctzll(frontier)
                            frontier &= frontier - one
                            grow |= nbmask[x]
                        frontier = grow & free & ~reach
                        reach |= frontier
                    if reach != free:
                        ok = False
                if not ok:
                    occ ^= rmask[r]
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
            if not moved:  # Step 5: no direction left here: step back.
                nextd[k] = 6
                if level == base:
                    meta[2] = 1
                    break
                level -= 1
                occ ^= rmask[(lidx[level] * n_cells + heads[level]) * 6 + dirs[level]]
    meta[0] = level
    occ_io[0] = occ
    return n_out, nodes


cdef inline bint _is_set(const uint64_t[::1] words, int64_t c) noexcept nogil:
    return (words[c >> 6] >> (c & 63)) & 1


def run_words(
    const int64_t[::1] lidx, const uint64_t[::1] rmask, const int64_t[::1] rend,
    const uint64_t[::1] rhalo, const uint64_t[::1] nbmask, const int64_t[::1] placed_after,
    int64_t[::1] dirs, int64_t[::1] nextd, int64_t[::1] heads, int64_t[::1] endc,
    uint64_t[::1] occ, int64_t[::1] meta,
    int64_t flags, int64_t min_free, int64_t max_nodes, int64_t[::1] out, int64_t max_out,
    const uint64_t[::1] colours, int64_t end_colour,
    uint64_t[::1] reach, uint64_t[::1] frontier,
):
    """The same loop with ``W = occ.shape[0]`` words a mask: ``rmask``, ``rhalo`` and
    ``nbmask`` hold W words per row; ``reach`` and ``frontier`` are W scratch words."""
    cdef int64_t n_seg = lidx.shape[0]
    cdef int64_t W = occ.shape[0]
    cdef int64_t n_cells = nbmask.shape[0] // W
    cdef uint64_t one = 1
    cdef int64_t level = meta[0]
    cdef int64_t base = meta[1]
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
                    meta[2] = 1
                    break
                level -= 1
                r = (lidx[level] * n_cells + heads[level]) * 6 + dirs[level]
                for w in range(W):
                    occ[w] ^= rmask[r * W + w]
    meta[0] = level
    return n_out, nodes


def path_keys(
    const int64_t[::1] nb, const uint64_t[::1] nbmask, const int64_t[::1] syms,
    int64_t[::1] path, int64_t[::1] dirs, int64_t[::1] nextd, int64_t base, uint64_t occ,
    uint64_t[::1] keys, unsigned char[::1] fixed, int64_t max_out, int64_t max_nodes,
    int64_t[::1] meta,
):
    """Every Hamiltonian path that extends ``path[:base]``, for regions of at most 64 cells,
    resumable like ``run_word``: ``meta = [current depth, finished]``, and ``occ`` is the
    occupancy at ``meta[0]``. Returns (paths written, nodes, occupancy).

    For each path it writes the *canonical design key* to ``keys``: the smaller of the
    path's key and its reverse's, where a key has bit i-1 set when the path turns at cube i
    (the inner cubes i = 1..n-2). For a palindromic design it writes to ``fixed`` whether a
    symmetry of the region (rows of ``syms``, |G| x n) maps the path onto its own reverse.
    A free cell with no way in (free neighbours plus the head) cuts the branch, as does a
    second cell with only one.
    """
    cdef int64_t n = nbmask.shape[0]
    cdef int64_t n_syms = syms.shape[0] // n
    cdef int64_t level = meta[0]
    cdef int64_t n_out = 0, nodes = 0, d, x, head, i, dead, g, j
    cdef uint64_t one = 1, free, cand, m, key, rkey
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
                nextd[level] = d
                dirs[level] = d - 1
                path[level] = x
                level += 1
                nextd[level] = 0
                moved = True
                break
            if not moved:  # Step 5: no way on: step back.
                nextd[level] = 6
                if level == base:
                    meta[1] = 1
                    break
                level -= 1
                occ ^= one << path[level]
    meta[0] = level
    return n_out, nodes, occ
