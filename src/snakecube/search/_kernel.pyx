# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The counting kernel behind ``snakecube.search.kernel``: the C loop of ``csrc/segment.c``
(the same source the static site compiles to WebAssembly), wrapped for Python.

Each search keeps its state in one block (as msgpack's ``Unpacker`` keeps its own), so a
caller makes it once and calls ``run(max_nodes)`` in slices, checking time, progress and
Ctrl-C in between; ``placements(n)`` reads the placements a run found.
``snakecube.search.loops`` has the same class for the WebAssembly module.
"""

from libc.stdint cimport INT32_MAX, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from snakecube.search import loops


cdef extern from "segment.h" nogil:
    enum:
        SC_DEAD_END
        SC_CONNECTED
        SC_PARITY
        SC_TAIL
        SC_TAIL_SEGMENTS
    ctypedef struct sc_segment:
        pass
    int32_t sc_segment_check(const int64_t *lidx, const uint64_t *rmask, const int64_t *rend,
                             const uint64_t *rhalo, const uint64_t *nbmask,
                             const uint64_t *colours, int32_t n_seg, int32_t n_cells,
                             int32_t words, int32_t n_lengths, const int64_t *dirs,
                             int32_t base, const uint64_t *occ)
    int32_t sc_segment_check_shifts(const int32_t *shifts, const uint64_t *has,
                                    int32_t n_cells, int32_t words)
    size_t sc_segment_bytes(int32_t n_seg, int32_t words, int32_t max_out)
    sc_segment *sc_segment_init(
        void *block, const int64_t *lidx, const uint64_t *rmask, const int64_t *rend,
        const uint64_t *rhalo, const uint64_t *nbmask, const int64_t *placed_after,
        const uint64_t *colours, int32_t n_seg, int32_t n_cells, int32_t words,
        const int64_t *dirs, int32_t head, const uint64_t *occ, int32_t base, int32_t flags,
        int32_t min_free, int32_t end_colour, int32_t max_out, int32_t multiword)
    void sc_segment_set_shifts(sc_segment *s, const int32_t *shifts, const uint64_t *has)
    int32_t sc_segment_run(sc_segment *s, int32_t max_nodes)
    int32_t sc_segment_nodes(const sc_segment *s)
    int32_t sc_segment_finished(const sc_segment *s)
    const int64_t *sc_segment_out(const sc_segment *s)

# The C source's flag values, which must be ``search.options``'s (tests/test_kernel.py).
FLAGS = {"DEAD_END": SC_DEAD_END, "CONNECTED": SC_CONNECTED, "PARITY": SC_PARITY,
         "TAIL": SC_TAIL, "TAIL_SEGMENTS": SC_TAIL_SEGMENTS}


cdef class SegmentSearch:
    """The search of one work unit, resumable: ``run(max_nodes)`` returns (placements found,
    nodes) and ``placements(n)`` the first n of them (one direction per segment);
    ``finished`` says when the unit is exhausted. The tables are shared, not copied."""

    cdef void *block
    cdef sc_segment *s
    cdef int32_t n_seg, n_cells, words, max_out
    cdef object tables

    def __cinit__(self):
        self.block = NULL
        self.s = NULL

    def __init__(
        self, const int64_t[::1] lidx, const uint64_t[::1] rmask, const int64_t[::1] rend,
        const uint64_t[::1] rhalo, const uint64_t[::1] nbmask,
        const int64_t[::1] placed_after, const uint64_t[::1] colours, words,
        const int64_t[::1] dirs, head, const uint64_t[::1] occ, base, flags, min_free,
        end_colour, max_out, bint multiword,
    ):
        cdef int32_t n_lengths = loops.check_segment(
            lidx.shape[0], rmask.shape[0], rend.shape[0], rhalo.shape[0], nbmask.shape[0],
            placed_after.shape[0], colours.shape[0], words, dirs.shape[0], head, occ.shape[0],
            base, flags, min_free, end_colour, max_out)
        self.n_seg, self.words, self.max_out = lidx.shape[0], words, max_out
        self.n_cells = nbmask.shape[0] // self.words
        loops.refuse(sc_segment_check(&lidx[0], &rmask[0], &rend[0], &rhalo[0], &nbmask[0],
                                      &colours[0], self.n_seg, self.n_cells, self.words,
                                      n_lengths, &dirs[0], base, &occ[0]),
                     loops.SEGMENT_ARRAYS)
        self.tables = (lidx, rmask, rend, rhalo, nbmask, placed_after, colours)  # kept alive
        self.block = malloc(loops.block_size(sc_segment_bytes(self.n_seg, self.words, max_out)))
        if self.block == NULL:
            raise MemoryError("no memory for the search")
        self.s = sc_segment_init(
            self.block, &lidx[0], &rmask[0], &rend[0], &rhalo[0], &nbmask[0],
            &placed_after[0], &colours[0], self.n_seg, self.n_cells, self.words,
            &dirs[0], head, &occ[0], base, flags, min_free, end_colour, max_out, multiword)

    cdef sc_segment *_made(self) except NULL:
        """The search, once made (a class's ``__new__`` alone makes none)."""
        if self.s == NULL:
            raise ValueError("the search was not made: call the class with its arguments")
        return self.s

    def __dealloc__(self):
        free(self.block)

    def set_shifts(self, shifts, const uint64_t[::1] has):
        """Cell c's neighbour in direction d is c + shifts[d] wherever it has one (row d of
        ``has``): true of a box, where the register loop then shifts whole masks."""
        cdef int32_t offsets[6]
        cdef int d
        cdef sc_segment *st = self._made()
        loops.check_shifts(len(shifts), has.shape[0], self.words)
        for d in range(6):
            offsets[d] = loops.number("a shift", shifts[d], -INT32_MAX, INT32_MAX)
        loops.refuse(sc_segment_check_shifts(offsets, &has[0], self.n_cells, self.words),
                     loops.SHIFTS_ARRAYS)
        sc_segment_set_shifts(st, offsets, &has[0])

    def run(self, nodes):
        """Search on for at most ``nodes`` nodes: (placements found, nodes)."""
        cdef sc_segment *st = self._made()
        cdef int64_t max_nodes = loops.number("nodes", nodes, -2**63, 2**63 - 1)
        cdef int32_t budget = <int32_t>max(0, min(max_nodes, INT32_MAX)), found
        with nogil:
            found = sc_segment_run(st, budget)
        return found, sc_segment_nodes(st)

    def placements(self, n):
        """The first ``n`` placements of the last run, as tuples."""
        cdef sc_segment *st = self._made()
        cdef const int64_t *out = sc_segment_out(st)
        cdef int32_t i, j, count = loops.number("n", n, 0, self.max_out)
        return [tuple([out[i * self.n_seg + j] for j in range(self.n_seg)])
                for i in range(count)]

    @property
    def finished(self):
        return bool(sc_segment_finished(self._made()))
