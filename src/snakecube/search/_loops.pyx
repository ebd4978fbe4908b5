# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled loops, wrapped for Python: the C of ``csrc/segment.c`` (the counting kernel
behind ``snakecube.search.kernel``), ``csrc/first.c`` (the restarts of
``snakecube.search.first.restarts``) and ``csrc/beam.c`` (the beam member,
``snakecube.search.first.beam``). Their comments say what each loop checks.

``SegmentSearch`` searches one work unit depth first; ``FirstSearch`` searches for a first
solution from an end of the snake, ``ArmsSearch`` middle out from a pivot segment; ``Beam``
grows a population of partial folds. Each keeps its state in one block (as msgpack's
``Unpacker`` keeps its own), so a caller makes it once and calls ``run`` in slices, checking
time, progress and Ctrl-C in between.

Decided: one extension module for the three loops, as the static site has one WebAssembly
module compiled from the same C (``snakecube.search.loops`` has the same classes for it, and
the checks of their arguments). What every class shares is written once here (``_Loop``: the
block, its allocation and release, the "not made" check, and an object made once;
``_slice``: a node budget cut to what one C call takes). Rejected: a module per loop
(``_kernel``, ``_first``, ``_beam``, until 2026-12): each copied the same block handling over its own struct type, and loading them one
by one saved nothing measurable (``python -X importtime``: the one module's own import takes
about 30 microseconds, as one of the three did; its shared library is 2.2 MB, the three's
4.5 MB, each with its own copy of Cython's runtime).
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


cdef extern from "first.h" nogil:
    enum:
        SC_FIRST_BLOCKS
        SC_FIRST_FORCED
        SC_FIRST_FEWEST_WAYS
        SC_FIRST_RUNS
        SC_FIRST_TAIL
        SC_FIRST_SWEEP
    ctypedef struct sc_first:
        pass
    int32_t sc_first_check(const int32_t *nb, const int32_t *colour, const int32_t *lengths,
                           int32_t n, int32_t n_seg)
    size_t sc_first_bytes(int32_t n, int32_t n_seg, int32_t max_len)
    sc_first *sc_first_init(void *block, const int32_t *nb, const int32_t *colour,
                            const int32_t *lengths, int32_t n, int32_t n_seg, int32_t start,
                            int32_t end_colour, uint32_t seed_lo, uint32_t seed_hi,
                            int32_t checks, int32_t end)
    sc_first *sc_arms_init(void *block, const int32_t *nb, const int32_t *colour,
                           const int32_t *lengths, int32_t n, int32_t n_seg, int32_t pivot,
                           int32_t start, int32_t first_colour, uint32_t seed_lo,
                           uint32_t seed_hi, int32_t checks)
    void sc_first_set_layers(sc_first *s, const int32_t *layers, int32_t width)
    void sc_first_set_window(sc_first *s, int32_t direction, int32_t width)
    int32_t sc_first_push(sc_first *s, int32_t d)
    void sc_first_run(sc_first *s, int32_t max_nodes)
    int32_t sc_first_found(const sc_first *s)
    int32_t sc_first_finished(const sc_first *s)
    double sc_first_nodes(const sc_first *s)
    int32_t sc_first_deepest(const sc_first *s)
    void sc_first_directions(const sc_first *s, int32_t *out)
    int32_t sc_first_first_cell(const sc_first *s)


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


# The C sources' flag values, which must be ``search.options``'s (tests/test_kernel.py).
FLAGS = {"DEAD_END": SC_DEAD_END, "CONNECTED": SC_CONNECTED, "PARITY": SC_PARITY,
         "TAIL": SC_TAIL, "TAIL_SEGMENTS": SC_TAIL_SEGMENTS,
         "FIRST_BLOCKS": SC_FIRST_BLOCKS, "FIRST_FORCED": SC_FIRST_FORCED,
         "FIRST_FEWEST_WAYS": SC_FIRST_FEWEST_WAYS, "FIRST_RUNS": SC_FIRST_RUNS,
         "FIRST_TAIL": SC_FIRST_TAIL, "FIRST_SWEEP": SC_FIRST_SWEEP}


cdef int64_t _nodes(name, value) except? -1:
    """A node budget as given (any int64), checked."""
    return loops.number(name, value, -2**63, 2**63 - 1)


cdef inline int32_t _slice(int64_t wanted) noexcept nogil:
    """As much of ``wanted`` nodes as one call of a C loop takes (an int32), none below 0."""
    return <int32_t>max(0, min(wanted, INT32_MAX))


cdef class _Loop:
    """What each loop's class holds: the loop's state (``state``, its C struct) in one block of
    memory, allocated by ``__init__`` and freed with the object."""

    cdef void *block
    cdef void *state

    def __cinit__(self, *args, **kwargs):
        self.block = NULL
        self.state = NULL

    def __dealloc__(self):
        free(self.block)

    cdef _once(self):
        """Each object is made once: every ``__init__`` starts here. Making it again would free
        the state under a call that holds it (a run in another thread, without the GIL, or
        one whose argument's Python code calls ``__init__``), so it is refused."""
        if self.block != NULL:
            raise ValueError("the search is made already: make a new one")

    cdef _allocate(self, size_t size, what):
        """Allocate the block: ``size`` bytes, checked by ``loops.block_size``."""
        self.block = malloc(loops.block_size(size))
        if self.block == NULL:
            raise MemoryError(f"no memory for {what}")

    cdef void *_made(self) except NULL:
        """The loop's state, once made (a class's ``__new__`` alone makes none)."""
        if self.state == NULL:
            raise ValueError("the search was not made: call the class with its arguments")
        return self.state


cdef class SegmentSearch(_Loop):
    """The search of one work unit, resumable: ``run(max_nodes)`` returns (placements found,
    nodes) and ``placements(n)`` the first n of them (one direction per segment);
    ``finished`` says when the unit is exhausted. The tables are shared, not copied."""

    cdef int32_t n_seg, n_cells, words, max_out
    cdef object tables

    def __init__(
        self, const int64_t[::1] lidx, const uint64_t[::1] rmask, const int64_t[::1] rend,
        const uint64_t[::1] rhalo, const uint64_t[::1] nbmask,
        const int64_t[::1] placed_after, const uint64_t[::1] colours, words,
        const int64_t[::1] dirs, head, const uint64_t[::1] occ, base, flags, min_free,
        end_colour, max_out, bint multiword,
    ):
        self._once()
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
        self._allocate(sc_segment_bytes(self.n_seg, self.words, max_out), "the search")
        self.state = sc_segment_init(
            self.block, &lidx[0], &rmask[0], &rend[0], &rhalo[0], &nbmask[0],
            &placed_after[0], &colours[0], self.n_seg, self.n_cells, self.words,
            &dirs[0], head, &occ[0], base, flags, min_free, end_colour, max_out, multiword)

    def set_shifts(self, shifts, const uint64_t[::1] has):
        """Cell c's neighbour in direction d is c + shifts[d] wherever it has one (row d of
        ``has``): true of a box, where the register loop then shifts whole masks."""
        cdef int32_t offsets[6]
        cdef int d
        cdef sc_segment *st = <sc_segment *>self._made()
        loops.check_shifts(len(shifts), has.shape[0], self.words)
        for d in range(6):
            offsets[d] = loops.number("a shift", shifts[d], -INT32_MAX, INT32_MAX)
        loops.refuse(sc_segment_check_shifts(offsets, &has[0], self.n_cells, self.words),
                     loops.SHIFTS_ARRAYS)
        sc_segment_set_shifts(st, offsets, &has[0])

    def run(self, nodes):
        """Search on for at most ``nodes`` nodes: (placements found, nodes)."""
        cdef sc_segment *st = <sc_segment *>self._made()
        cdef int32_t budget = _slice(_nodes("nodes", nodes)), found
        with nogil:
            found = sc_segment_run(st, budget)
        return found, sc_segment_nodes(st)

    def placements(self, n):
        """The first ``n`` placements of the last run, as tuples."""
        cdef const int64_t *out = sc_segment_out(<sc_segment *>self._made())
        cdef int32_t i, j, count = loops.number("n", n, 0, self.max_out)
        return [tuple([out[i * self.n_seg + j] for j in range(self.n_seg)])
                for i in range(count)]

    @property
    def finished(self):
        return bool(sc_segment_finished(<sc_segment *>self._made()))


cdef class FirstSearch(_Loop):
    """Search for one placement of a snake (segment lengths) from a start cell."""

    cdef int32_t n, n_seg

    def __init__(self, const int32_t[::1] nb, const int32_t[::1] colour,
                 const int32_t[::1] lengths, start, end_colour, seed, checks, end=-1):
        self._once()
        loops.check_first(nb.shape[0], colour.shape[0], lengths.shape[0], start, end_colour,
                          checks, end)
        cdef uint64_t seed64 = self._arrays(nb, colour, lengths, seed)
        self.state = sc_first_init(self.block, &nb[0], &colour[0], &lengths[0], self.n,
                                   self.n_seg, start, end_colour, <uint32_t>seed64,
                                   <uint32_t>(seed64 >> 32), checks, end)

    cdef uint64_t _arrays(self, const int32_t[::1] nb, const int32_t[::1] colour,
                          const int32_t[::1] lengths, seed) except? 0:
        """Check the arrays' values and the seed, then allocate the search's block; the seed."""
        cdef uint64_t seed64 = loops.number("seed", seed, 0, 2**64 - 1)
        self.n, self.n_seg = colour.shape[0], lengths.shape[0]
        loops.refuse(sc_first_check(&nb[0], &colour[0], &lengths[0], self.n, self.n_seg),
                     loops.FIRST_ARRAYS)
        self._allocate(sc_first_bytes(self.n, self.n_seg, loops.longest(lengths)), "the search")
        return seed64

    cdef sc_first *_first(self) except NULL:
        return <sc_first *>self._made()

    def set_window(self, direction, width):
        """Search only paths that fill the target as a sweep along ``direction`` (0..5): the
        layers of ``set_layers`` are the planes across that direction, numbered from the face
        the direction points away from."""
        sc_first_set_window(self._first(), loops.number("direction", direction, 0, 5),
                            loops.number("width", width, 0, INT32_MAX))

    def set_layers(self, layers, width):
        """Search only paths that fill the target as a sweep through ``layers`` (each cell's
        layer, numbered from 0; ``FIRST_SWEEP``): at every node, the farthest layer holding a
        placed cube is at most ``width`` layers past the nearest layer with a free cell. A
        restriction, not a pruning: it can cut every solution, so a finished search under it
        proves nothing."""
        cdef const int32_t[::1] checked = loops.layers_of(layers, self.n)
        sc_first_set_layers(self._first(), &checked[0],
                            loops.number("width", width, 0, INT32_MAX))

    def run(self, nodes):
        """Search on for at most ``nodes`` nodes; ``found`` or ``finished`` when done.
        After a solution, the next call searches on for the next one."""
        cdef sc_first *st = self._first()
        cdef int64_t max_nodes = _nodes("nodes", nodes)
        cdef int32_t budget = _slice(max_nodes)
        with nogil:  # the first call goes past a solution found before, if any
            sc_first_run(st, budget)
        max_nodes -= budget
        while max_nodes > 0 and not sc_first_found(st) and not sc_first_finished(st):
            budget = _slice(max_nodes)
            with nogil:
                sc_first_run(st, budget)
            max_nodes -= budget

    def push(self, d):
        """Place the next segment in direction ``d`` (a given prefix), checked only to lie on
        free cells of the target (else ValueError, and nothing is placed)."""
        if not sc_first_push(self._first(), loops.number("d", d, 0, 5)):
            raise ValueError(f"the next segment does not lie on free cells in direction {d}")

    def directions(self):
        """The placement found: one direction per segment."""
        cdef int32_t[::1] out = loops.ints(self.n_seg)
        sc_first_directions(self._first(), &out[0])
        return list(out[:self.n_seg])

    def first_cell(self):
        """The cell of cube 1 in the placement found."""
        return sc_first_first_cell(self._first())

    @property
    def found(self):
        return bool(sc_first_found(self._first()))

    @property
    def finished(self):
        return bool(sc_first_finished(self._first()))

    @property
    def nodes(self):
        return int(sc_first_nodes(self._first()))

    @property
    def deepest(self):
        return sc_first_deepest(self._first())


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

    def __init__(self, const int32_t[::1] nb, const int32_t[::1] colour,
                 const int32_t[::1] lengths, pivot, start, first_colour, seed, checks):
        self._once()
        loops.check_arms(nb.shape[0], colour, lengths, pivot, start, first_colour, checks)
        cdef uint64_t seed64 = self._arrays(nb, colour, lengths, seed)
        self.state = sc_arms_init(self.block, &nb[0], &colour[0], &lengths[0], self.n,
                                  self.n_seg, pivot, start, first_colour, <uint32_t>seed64,
                                  <uint32_t>(seed64 >> 32), checks)

    def push(self, d):
        raise TypeError("ArmsSearch places no given prefix; use FirstSearch")


cdef class Beam(_Loop):
    """One beam search of a snake (segment lengths) through a region (see ``csrc/beam.c``):
    ``run(budget)`` goes on until about ``budget`` more children are checked or the search is
    over (``done``: ``found``, with ``solution`` = (start cell, directions), or no fold left;
    ``complete`` if no level dropped a fold)."""

    cdef int32_t n_seg
    cdef public object solution

    def __init__(self, n, const int32_t[::1] nb, const int32_t[::1] colour,
                 const int32_t[::1] lengths, const int32_t[::1] starts, offsets, has,
                 width, score_kind, seed):
        cdef int32_t off[6]
        cdef uint64_t words[12]
        cdef int d
        self._once()
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
        self._allocate(sc_beam_bytes(n, self.n_seg, starts.shape[0], width), "a beam this wide")
        self.state = sc_beam_init(self.block, n, &nb[0], &colour[0], &lengths[0], self.n_seg,
                                  &starts[0], starts.shape[0], off, words, width, score_kind,
                                  <uint32_t>seed64, <uint32_t>(seed64 >> 32))
        self.solution = None

    cdef sc_beam *_beam(self) except NULL:
        return <sc_beam *>self._made()

    def run(self, budget):
        """Go on level by level until about ``budget`` more children are checked, the last
        segment is placed (``found``) or no fold is left; ``done`` says the search is over."""
        cdef sc_beam *st = self._beam()
        cdef int32_t b = _slice(_nodes("budget", budget)), done
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
        return bool(sc_beam_done(self._beam()))

    @property
    def found(self):
        return bool(sc_beam_found(self._beam()))

    @property
    def complete(self):
        return bool(sc_beam_complete(self._beam()))

    @property
    def nodes(self):
        return int(sc_beam_nodes(self._beam()))

    @property
    def level(self):
        return sc_beam_level(self._beam())

    @property
    def ncur(self):
        """The folds in the beam now."""
        return sc_beam_folds(self._beam())
