# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled loop behind ``snakecube.search.first``'s beam member: a beam search.

Depth-first searches and restarts commit to one early choice at a time and can spend their
whole budget under a wrong one. A beam search places the snake one segment a level for a
whole *population* of partial folds at once: every fold of the beam is extended by each of
its (up to four) turns, each child is checked exactly, and the ``width`` best children by a
score (below) make the next level's beam. It reaches the last segment, or runs out of
children. It is a heuristic (the width cuts folds that may lead to solutions) except when
no level ever had more children than ``width``: then it was a breadth-first search of the
whole tree, and dying proves that the snake does not fold (``complete``).

Every child is checked, exactly (a child is dropped only if it leads to no solution):

1. **Dead ends**: a free cell with no way in (no free neighbour, not next to the head),
   unless it is the last cell; a second free cell with only one way in (one is the end).
2. **Colours**: the free cells are the rest of the path, which alternates colours from the
   cell after the head: their colour counts are fixed.
3. **Connected**: every free cell is reached from the head through free cells. This check
   costs the most, so it is made last, in ``_select``, and only for the children the beam
   reaches in its order (the same beam as checking every child first).

The **score** (lower is better) is twice the number of faces between a placed and a free
cell (the fold keeps to few, large walls: a compact placed part and a compact free part);
score kind 1 adds the number of free faces on the target's walls (the fold keeps to the
walls). Ties are broken by a hash of the fold and the seed, so each seed gives its own beam.
Folds reached twice (the same cells, head and last axis) are kept once.

Occupancy is GCC's 128-bit integer; the target must have at most 128 cells and a fixed
offset per direction between neighbouring cells (a box, cells numbered along x, then y,
then z: ``kernel.Tables.shifts``), so that a whole mask's neighbours are six shifts.
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    void __builtin_prefetch(const void *) nogil
    ctypedef unsigned long long mask128 "unsigned __int128"


ctypedef struct State:
    mask128 occ
    uint64_t path[4]   # 2 bits per segment from the second: which of the four turns
    int32_t head       # the last cell placed
    int32_t dir        # the last segment's direction
    int32_t start
    int32_t first      # the first segment's direction


ctypedef struct Child:  # its key (score in the high bits, then a hash) is in Beam.keys
    mask128 occ
    int32_t parent     # index into the beam (or the start cell, at the first level)
    int32_t head
    int32_t dir


cdef inline int _pc(mask128 m) noexcept nogil:
    return __builtin_popcountll(<uint64_t>m) + __builtin_popcountll(<uint64_t>(m >> 64))


cdef inline uint64_t _mix(uint64_t h) noexcept nogil:
    h ^= h >> 31
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    h *= 0x94D049BB133111EBULL
    h ^= h >> 32
    return h


cdef int64_t SCORE_OFFSET = 1 << 20   # keeps the key's score bits non-negative
cdef int64_t MAX_SCORE = 4096         # above any score: 128 cells, 6 faces, 3 points a face
cdef enum:
    HASH_BITS = 40                    # a key's hash bits, below its score
    INDEX_BITS = 64 - HASH_BITS       # a child's index beside its hash bits, in a sorted word
    RADIX_BITS = 10                   # the radix sort's digit, in bits
    RADIX = 1 << RADIX_BITS
cdef uint64_t INDEX_MASK = (<uint64_t>1 << INDEX_BITS) - 1


cdef class Beam:
    """One beam search of a snake (segment lengths) through a region (see the module)."""

    cdef int32_t n, n_seg, score_kind
    cdef int64_t width
    cdef int32_t[::1] nb, lengths, starts
    cdef int64_t off[6]
    cdef mask128 has[6]
    cdef mask128 all_cells, even
    cdef uint64_t seed
    cdef State *cur
    cdef State *nxt
    cdef Child *kids
    cdef uint64_t *order      # children grouped by score, each a word: (hash << INDEX_BITS) | index
    cdef uint64_t *spare      # the radix sort's second buffer
    cdef uint64_t *keys       # the children's keys
    cdef int64_t *counts      # children per score (scores are below MAX_SCORE)
    cdef int64_t cap_kids
    cdef readonly int64_t ncur         # folds in the beam now
    cdef public int32_t level          # segments 0..level are placed in every fold of the beam
    cdef public int64_t nodes          # children made and checked
    cdef readonly bint done, found, complete
    cdef public object solution        # (start cell, directions) once found

    def __cinit__(self):
        self.cur = NULL
        self.nxt = NULL
        self.kids = NULL
        self.order = NULL
        self.spare = NULL
        self.keys = NULL
        self.counts = NULL

    def __init__(self, int32_t n, int32_t[::1] nb, int32_t[::1] colour, int32_t[::1] lengths,
                 int32_t[::1] starts, offsets, has, int64_t width, int32_t score_kind,
                 uint64_t seed):
        cdef int32_t c, d
        if n > 128:
            raise ValueError("the beam needs a target of at most 128 cells")
        if width < 1:
            raise ValueError("the beam's width must be at least 1")
        if width > (1 << (INDEX_BITS - 2)):
            raise ValueError(f"the beam's width must be at most {1 << (INDEX_BITS - 2)}")
        if lengths.shape[0] > 129:
            raise ValueError("the beam needs at most 129 segments")
        self.n, self.nb, self.lengths, self.starts = n, nb, lengths, starts
        self.n_seg = lengths.shape[0]
        self.width, self.score_kind = width, score_kind
        self.seed = _mix(seed + 0x9E3779B97F4A7C15ULL)
        self.all_cells, self.even = 0, 0
        for c in range(n):
            self.all_cells |= (<mask128>1) << c
            if colour[c] == 0:
                self.even |= (<mask128>1) << c
        for d in range(6):
            self.off[d] = offsets[d]
            self.has[d] = (<mask128>has[2 * d + 1] << 64) | <mask128>has[2 * d]
        self.cap_kids = max(4 * width, 6 * <int64_t>n)
        self.cur = <State *>malloc(width * sizeof(State))
        self.nxt = <State *>malloc(width * sizeof(State))
        self.kids = <Child *>malloc(self.cap_kids * sizeof(Child))
        self.order = <uint64_t *>malloc(self.cap_kids * sizeof(uint64_t))
        self.spare = <uint64_t *>malloc(self.cap_kids * sizeof(uint64_t))
        self.keys = <uint64_t *>malloc(self.cap_kids * sizeof(uint64_t))
        self.counts = <int64_t *>malloc((MAX_SCORE + 1) * sizeof(int64_t))
        if (self.cur == NULL or self.nxt == NULL or self.kids == NULL or self.order == NULL
                or self.spare == NULL or self.keys == NULL or self.counts == NULL):
            raise MemoryError("no memory for a beam this wide")
        self.ncur, self.level, self.nodes = 0, -1, 0
        self.done, self.found, self.complete = False, False, True
        self.solution = None

    def __dealloc__(self):
        free(self.cur)
        free(self.nxt)
        free(self.kids)
        free(self.order)
        free(self.spare)
        free(self.keys)
        free(self.counts)

    cdef inline mask128 _near(self, mask128 m, int d) noexcept nogil:
        """The cells whose neighbour in direction d is in m."""
        cdef int64_t o = self.off[d]
        if o > 0:
            return (m >> o) & self.has[d]
        return (m << (-o)) & self.has[d]

    cdef mask128 _grow(self, mask128 reach, mask128 within, mask128 goal) noexcept nogil:
        """``reach`` grown a ring at a time through the cells ``within``, until it holds
        ``goal`` or grows no more."""
        cdef mask128 prev = 0, grown
        cdef int d
        while reach != prev and (goal & ~reach):
            # Step: one ring more, the neighbours of what is reached, inside ``within``.
            prev = reach
            grown = reach
            for d in range(6):
                grown |= self._near(reach, d)
            reach = grown & within
        return reach

    cdef bint _connected(self, mask128 occ, int32_t head) noexcept nogil:
        """Check 3: every free cell is reached from the head through free cells."""
        cdef mask128 fr = self.all_cells & ~occ, reach = 0
        cdef int d, hd
        for d in range(6):
            hd = self.nb[head * 6 + d]
            if hd >= 0:
                reach |= (<mask128>1) << hd
        return (self._grow(reach & fr, fr, fr) & fr) == fr

    cdef bint _connected_child(self, Child *k) noexcept nogil:
        """Check 3 for a child of a fold of the beam. The parent's free cells and its head were
        joined; the child's free cells and head lose the parent's head and the new segment's
        cells before the child's head. They stay joined if the cells next to those are joined
        by cells near them (any path through them goes round). If that local test fails,
        the whole free part is grown (``_connected``)."""
        cdef mask128 head = (<mask128>1) << k.head, gone, avail, near1, local, front
        cdef State *p
        cdef int d
        if self.level < 0:
            return self._connected(k.occ, k.head)
        p = &self.cur[k.parent]
        gone = ((k.occ & ~p.occ) | ((<mask128>1) << p.head)) & ~head
        avail = (self.all_cells & ~k.occ) | head
        # Step: the cells next to those gone, and the cells at most two steps from them.
        near1 = gone
        for d in range(6):
            near1 |= self._near(gone, d)
        local = near1
        for d in range(6):
            local |= self._near(near1, d)
        front = near1 & avail
        # Step: grow from the child's head through the cells near by.
        if (front & ~self._grow(head, local & avail, front)) == 0:
            return True
        return self._connected(k.occ, k.head)

    cdef int64_t _score(self, mask128 occ, int32_t head) noexcept nogil:
        """-1 if checks 1 and 2 show that no solution goes on from this fold, else its score.
        Check 3 (``_connected``) is left to ``_select``, for the children the beam reaches."""
        cdef mask128 fr = self.all_cells & ~occ
        cdef int64_t left = _pc(fr)
        cdef int d, hd
        cdef mask128 s, a = 0, b = 0, near_head = 0
        cdef int64_t even_free, want, faces = 0
        if left == 0:
            return 0
        # Step 2: colours. The cell after the head has the other colour; the rest alternate.
        even_free = _pc(fr & self.even)
        if (self.even >> head) & 1:
            want = left // 2
        else:
            want = (left + 1) // 2
        if even_free != want:
            return -1
        # Step 1: dead ends, counting free neighbours on shifted masks (a: >= 1, b: >= 2).
        for d in range(6):
            hd = self.nb[head * 6 + d]
            if hd >= 0:
                near_head |= (<mask128>1) << hd
            s = self._near(fr, d)
            b |= a & s
            a |= s
        if (fr & ~a & ~near_head) and left > 1:
            return -1
        s = (fr & a & ~b & ~near_head) | (fr & ~a & near_head)  # one way in: the end
        if s & (s - 1):
            return -1
        if (fr & near_head) == 0:
            return -1
        # The score: faces between placed and free cells, twice, and (kind 1) free wall faces.
        for d in range(6):
            faces += 2 * _pc(self._near(occ, d) & fr)
            if self.score_kind == 1:
                faces += _pc(fr & ~self.has[d])
        return faces

    cdef inline void _add(self, int64_t *nk, mask128 occ, int32_t head, int32_t d,
                          int32_t parent) noexcept nogil:
        """Check a child and keep it with its key."""
        cdef int64_t sc
        cdef uint64_t h
        cdef Child *k
        self.nodes += 1
        sc = self._score(occ, head)
        if sc < 0:
            return
        h = _mix((<uint64_t>occ) ^ self.seed)
        h = _mix(h ^ <uint64_t>(occ >> 64) ^ (<uint64_t>(head * 3 + d // 2) << 48))
        k = &self.kids[nk[0]]
        self.keys[nk[0]] = (<uint64_t>(sc + SCORE_OFFSET) << HASH_BITS) | (h >> (64 - HASH_BITS))
        k.occ, k.parent, k.head, k.dir = occ, parent, head, d
        nk[0] += 1

    cdef int64_t _first_level(self) noexcept nogil:
        """Children of the first segment: from every start cell, in every direction."""
        cdef int64_t nk = 0
        cdef int32_t i, c, d, j, h
        cdef mask128 occ
        for i in range(self.starts.shape[0]):
            c = self.starts[i]
            for d in range(6):
                # Step: the first segment from start cell c, going d, if it stays inside.
                h, occ = c, (<mask128>1) << c
                for j in range(1, self.lengths[0]):
                    h = self.nb[h * 6 + d]
                    if h < 0:
                        break
                    occ |= (<mask128>1) << h
                if h < 0:
                    continue
                self._add(&nk, occ, h, d, c)
        return nk

    cdef int64_t _expand(self) noexcept nogil:
        """Children of the beam's folds: the next segment, each of four turns."""
        cdef int64_t nk = 0, i
        cdef int32_t length = self.lengths[self.level + 1], d, j, h
        cdef mask128 occ, one
        cdef State *s
        for i in range(self.ncur):
            s = &self.cur[i]
            for d in range(6):
                # Step: a turn (never along the last segment's axis) onto free cells only.
                if d // 2 == s.dir // 2:
                    continue
                h, occ = s.head, s.occ
                for j in range(1, length):
                    h = self.nb[h * 6 + d]
                    if h < 0:
                        break
                    one = (<mask128>1) << h
                    if occ & one:
                        h = -1
                        break
                    occ |= one
                if h < 0:
                    continue
                self._add(&nk, occ, h, d, <int32_t>i)
        return nk

    cdef void _sort_group(self, int64_t start, int64_t end) noexcept nogil:
        """The words ``order[start:end]`` (one score's children, in the order made) in rising
        order: by hash, then by index, that is by key, then by the order made. A stable radix
        sort on the hash bits, or insertion for a small group."""
        cdef int64_t i, j, n = end - start
        cdef int64_t pos[RADIX + 1]
        cdef uint64_t *a = &self.order[start]
        cdef uint64_t *b = self.spare
        cdef uint64_t *swap = NULL
        cdef uint64_t x
        cdef int shift, digit
        if n < 64:
            for i in range(1, n):
                # Step: insert word a[i] after every smaller word.
                x = a[i]
                j = i - 1
                while j >= 0 and a[j] > x:
                    a[j + 1] = a[j]
                    j -= 1
                a[j + 1] = x
            return
        shift = INDEX_BITS
        while shift < 64:
            # Step: one stable counting pass on the next RADIX_BITS bits of the hash.
            for digit in range(RADIX + 1):
                pos[digit] = 0
            for i in range(n):
                pos[((a[i] >> shift) & (RADIX - 1)) + 1] += 1
            for digit in range(RADIX):
                pos[digit + 1] += pos[digit]
            for i in range(n):
                digit = (a[i] >> shift) & (RADIX - 1)
                b[pos[digit]] = a[i]
                pos[digit] += 1
            swap = a
            a = b
            b = swap
            shift += RADIX_BITS
        if a != &self.order[start]:  # an odd number of passes left the result in the spare
            for i in range(n):
                self.order[start + i] = a[i]

    cdef void _select(self, int64_t nk) noexcept nogil:
        """The ``width`` best children, each fold once, become the beam: in the order of
        (key, order made), leaving out those whose free cells are split (check 3, made here
        and only for the children the beam reaches). Children are grouped by score first (a
        counting sort), and only the groups the beam reaches are sorted."""
        cdef int64_t i, g, m = 0, at, start, end, sc, top = 0
        cdef int32_t rel, axis
        cdef Child *k
        cdef Child *last = NULL
        cdef uint64_t last_hash = 0, hash_bits
        cdef State *t
        cdef State *p
        cdef State *swap
        cdef bint full = False
        # Step: count the children per score, and where each score's group starts.
        for sc in range(MAX_SCORE + 1):
            self.counts[sc] = 0
        for i in range(nk):
            sc = <int64_t>(self.keys[i] >> HASH_BITS) - SCORE_OFFSET
            self.counts[sc] += 1
            if sc > top:
                top = sc
        at = 0
        for sc in range(top + 1):
            g = self.counts[sc]
            self.counts[sc] = at
            at += g
        for i in range(nk):
            # Step: child i's word (its hash bits over its index) into its score's group.
            sc = <int64_t>(self.keys[i] >> HASH_BITS) - SCORE_OFFSET
            self.order[self.counts[sc]] = (self.keys[i] << INDEX_BITS) | <uint64_t>i
            self.counts[sc] += 1
        # Step: the groups best first, each sorted by key; a fold seen just before is skipped,
        # and so is a fold whose free cells are split.
        start = 0
        for sc in range(top + 1):
            end = self.counts[sc]
            if end == start:
                continue
            if full:
                # Step: a beam that is full is complete only if no connected fold is left out.
                for i in range(start, nk):
                    k = &self.kids[self.order[i] & INDEX_MASK]
                    if self._connected_child(k):
                        self.complete = False
                        break
                break
            self._sort_group(start, end)
            last = NULL
            for i in range(start, end):
                # Step: fetch ahead the children (and their parents) the beam reads next.
                if i + 16 < end:
                    __builtin_prefetch(&self.kids[self.order[i + 16] & INDEX_MASK])
                if i + 8 < end and self.level >= 0:
                    __builtin_prefetch(&self.cur[self.kids[self.order[i + 8] & INDEX_MASK].parent])
                k = &self.kids[self.order[i] & INDEX_MASK]
                hash_bits = self.order[i] >> INDEX_BITS  # the score is the group's
                if (last != NULL and hash_bits == last_hash and k.occ == last.occ
                        and k.head == last.head):
                    continue
                last, last_hash = k, hash_bits
                if not self._connected_child(k):
                    continue
                if m == self.width:
                    self.complete = False
                    full = True
                    break
                t = &self.nxt[m]
                t.occ, t.head, t.dir = k.occ, k.head, k.dir
                if self.level < 0:
                    t.start, t.first = k.parent, k.dir
                    t.path[0] = t.path[1] = t.path[2] = t.path[3] = 0
                else:
                    p = &self.cur[k.parent]
                    t.start, t.first = p.start, p.first
                    t.path[0], t.path[1], t.path[2], t.path[3] = (
                        p.path[0], p.path[1], p.path[2], p.path[3])
                    axis = p.dir // 2
                    rel = k.dir - 2 * (k.dir // 2 > axis)
                    at = 2 * self.level  # segment level + 1 is stored at bits 2 * level
                    t.path[at // 64] |= (<uint64_t>rel) << (at % 64)
                m += 1
            if full:
                break
            if m == self.width:
                full = True
            start = end
        swap = self.cur
        self.cur = self.nxt
        self.nxt = swap
        self.ncur = m
        self.level += 1

    def run(self, int64_t budget):
        """Go on level by level until about ``budget`` more children are checked, the last
        segment is placed (``found``) or no fold is left; ``done`` says the search is over."""
        cdef int64_t nk, until = self.nodes + budget
        if self.done:
            return True
        with nogil:
            while self.nodes < until:
                # Step: one level: make and check the children, keep the best.
                nk = self._first_level() if self.level < 0 else self._expand()
                self._select(nk)
                if self.ncur == 0:
                    self.done = True
                    break
                if self.level == self.n_seg - 1:
                    self.done = self.found = True
                    break
        if self.found:
            self.solution = self._decode(0)
        return self.done

    cdef object _decode(self, int64_t i):
        """(start cell, the directions of the segments) of fold i of the beam."""
        cdef State *s = &self.cur[i]
        cdef int32_t k, rel, d = s.first, at
        out = [d]
        for k in range(1, self.n_seg):
            # Step: segment k's turn, two bits, read against the segment before's axis.
            at = 2 * (k - 1)
            rel = (s.path[at // 64] >> (at % 64)) & 3
            d = rel + 2 * (rel // 2 >= d // 2)
            out.append(d)
        return s.start, tuple(out)
