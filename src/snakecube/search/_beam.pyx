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
    int32_t sc_beam_check(int32_t n, const int32_t *nb, const int32_t *colour,
                          const int32_t *lengths, int32_t n_seg, const int32_t *starts,
                          int32_t n_starts, const int32_t *offsets, const uint64_t *has)
    size_t sc_beam_bytes(int32_t n, int32_t n_seg, int32_t n_starts, int32_t width)
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
        self.s = NULL

    def __init__(self, n, const int32_t[::1] nb, const int32_t[::1] colour,
                 const int32_t[::1] lengths, const int32_t[::1] starts, offsets, has,
                 width, score_kind, seed):
        cdef int32_t off[6]
        cdef uint64_t words[12]
        cdef int d
        loops.check_beam(n, nb.shape[0], colour.shape[0], lengths.shape[0], starts.shape[0],
                         len(offsets), len(has), width, score_kind)
        cdef uint64_t seed64 = loops.number("seed", seed, 0, 2**64 - 1)
        for d in range(6):
            off[d] = loops.number("an offset", offsets[d], -INT32_MAX, INT32_MAX)
        for d in range(12):
            words[d] = loops.number("a word of has", has[d], 0, 2**64 - 1)
        self.n_seg = lengths.shape[0]
        loops.refuse(sc_beam_check(n, &nb[0], &colour[0], &lengths[0], self.n_seg, &starts[0],
                                   starts.shape[0], off, words), loops.BEAM_ARRAYS)
        self.block = malloc(loops.block_size(sc_beam_bytes(n, self.n_seg, starts.shape[0],
                                                           width)))
        if self.block == NULL:
            raise MemoryError("no memory for a beam this wide")
        self.s = sc_beam_init(self.block, n, &nb[0], &colour[0], &lengths[0], self.n_seg,
                              &starts[0], starts.shape[0], off, words, width, score_kind,
                              <uint32_t>seed64, <uint32_t>(seed64 >> 32))
        self.solution = None

    cdef sc_beam *_made(self) except NULL:
        """The beam, once made (a class's ``__new__`` alone makes none)."""
        if self.s == NULL:
            raise ValueError("the beam was not made: call the class with its arguments")
        return self.s

    def __dealloc__(self):
        free(self.block)

    def run(self, budget):
        """Go on level by level until about ``budget`` more children are checked, the last
        segment is placed (``found``) or no fold is left; ``done`` says the search is over."""
        cdef sc_beam *st = self._made()
        cdef int64_t wanted = loops.number("budget", budget, -2**63, 2**63 - 1)
        cdef int32_t b = <int32_t>max(0, min(wanted, INT32_MAX)), done
        cdef int32_t[::1] dirs
        with nogil:
            done = sc_beam_run(st, b)
        if sc_beam_found(st) and self.solution is None:
            dirs = loops.ints(self.n_seg)
            start = sc_beam_solution(st, &dirs[0])
            self.solution = (start, tuple(dirs[:self.n_seg]))
        return bool(done)

    @property
    def done(self):
        return bool(sc_beam_done(self._made()))

    @property
    def found(self):
        return bool(sc_beam_found(self._made()))

    @property
    def complete(self):
        return bool(sc_beam_complete(self._made()))

    @property
    def nodes(self):
        return int(sc_beam_nodes(self._made()))

    @property
    def level(self):
        return sc_beam_level(self._made())

    @property
    def ncur(self):
        """The folds in the beam now."""
        return sc_beam_folds(self._made())
