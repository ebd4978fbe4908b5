# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The beam search behind ``snakecube.search.first``'s beam member: the C loop of
``csrc/beam.c`` (the same source the static site compiles to WebAssembly; its comment says
what a beam checks and keeps), wrapped for Python. ``snakecube.search.loops`` has the same
class for the WebAssembly module, and the checks of its arguments.
"""

from libc.stdint cimport INT32_MAX, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from snakecube.search import loops


cdef extern from "beam.h" nogil:
    ctypedef struct sc_beam:
        pass
    uint32_t sc_beam_bytes(int32_t n, int32_t n_seg, int32_t n_starts, int32_t width)
    sc_beam *sc_beam_init(void *block, int32_t n, const int32_t *nb, const int32_t *colour,
                          const int32_t *lengths, int32_t n_seg, const int32_t *starts,
                          int32_t n_starts, const int32_t *offsets, const uint64_t *has,
                          int32_t width, int32_t score_kind, uint32_t seed_lo,
                          uint32_t seed_hi)
    int32_t sc_beam_run(sc_beam *s, int32_t budget)
    int32_t sc_beam_done(const sc_beam *s)
    int32_t sc_beam_found(const sc_beam *s)
    int32_t sc_beam_complete(const sc_beam *s)
    double sc_beam_nodes(const sc_beam *s)
    int32_t sc_beam_level(const sc_beam *s)
    int32_t sc_beam_folds(const sc_beam *s)
    int32_t sc_beam_solution(const sc_beam *s, int32_t *dirs)


cdef class Beam:
    """One beam search of a snake (segment lengths) through a region (see ``csrc/beam.c``):
    ``run(budget)`` goes on until about ``budget`` more children are checked or the search is
    over (``done``: ``found``, with ``solution`` = (start cell, directions), or no fold left;
    ``complete`` if no level dropped a fold)."""

    cdef void *block
    cdef sc_beam *s
    cdef int32_t n_seg
    cdef public object solution

    def __cinit__(self, *args, **kwargs):
        self.block = NULL

    def __init__(self, int32_t n, const int32_t[::1] nb, const int32_t[::1] colour,
                 const int32_t[::1] lengths, const int32_t[::1] starts, offsets, has,
                 int64_t width, int32_t score_kind, uint64_t seed):
        cdef int32_t off[6]
        cdef uint64_t words[12]
        cdef int d
        loops.check_beam(n, lengths.shape[0], width)
        for d in range(6):
            off[d] = offsets[d]
        for d in range(12):
            words[d] = has[d]
        self.n_seg = lengths.shape[0]
        self.block = malloc(sc_beam_bytes(n, self.n_seg, starts.shape[0], width))
        if self.block == NULL:
            raise MemoryError("no memory for a beam this wide")
        self.s = sc_beam_init(self.block, n, &nb[0], &colour[0], &lengths[0], self.n_seg,
                              &starts[0], starts.shape[0], off, words, width, score_kind,
                              <uint32_t>seed, <uint32_t>(seed >> 32))
        self.solution = None

    def __dealloc__(self):
        free(self.block)

    def run(self, int64_t budget):
        """Go on level by level until about ``budget`` more children are checked, the last
        segment is placed (``found``) or no fold is left; ``done`` says the search is over."""
        cdef int32_t b = <int32_t>max(0, min(budget, INT32_MAX)), done
        cdef int32_t[::1] dirs
        with nogil:
            done = sc_beam_run(self.s, b)
        if sc_beam_found(self.s) and self.solution is None:
            dirs = loops.ints(self.n_seg)
            start = sc_beam_solution(self.s, &dirs[0])
            self.solution = (start, tuple(dirs[:self.n_seg]))
        return bool(done)

    @property
    def done(self):
        return bool(sc_beam_done(self.s))

    @property
    def found(self):
        return bool(sc_beam_found(self.s))

    @property
    def complete(self):
        return bool(sc_beam_complete(self.s))

    @property
    def nodes(self):
        return int(sc_beam_nodes(self.s))

    @property
    def level(self):
        return sc_beam_level(self.s)

    @property
    def ncur(self):
        """The folds in the beam now."""
        return sc_beam_folds(self.s)
