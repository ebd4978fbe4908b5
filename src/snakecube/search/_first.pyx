# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The first-solution search behind the restarts (``snakecube.search.first.restarts``): the C
loop of ``csrc/first.c`` (the same source the static site compiles to WebAssembly; its
comment says what each check does), wrapped for Python.

``FirstSearch`` searches from an end of the snake, ``ArmsSearch`` middle out from a pivot
segment. Values are tried in an order given per level (shuffled by the caller's seed, or
fewest ways on first), so restarts explore different parts of the tree. ``run(max_nodes)``
searches on until a solution, the budget, or the end of the tree. ``snakecube.search.loops``
has the same classes for the WebAssembly module, and the checks of their arguments.
"""

from libc.stdint cimport INT32_MAX, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from snakecube.search import loops


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

# The C source's flag values, which must be ``search.options``'s (tests/test_first.py).
FLAGS = {"FIRST_BLOCKS": SC_FIRST_BLOCKS, "FIRST_FORCED": SC_FIRST_FORCED,
         "FIRST_FEWEST_WAYS": SC_FIRST_FEWEST_WAYS, "FIRST_RUNS": SC_FIRST_RUNS,
         "FIRST_TAIL": SC_FIRST_TAIL, "FIRST_SWEEP": SC_FIRST_SWEEP}


cdef class FirstSearch:
    """Search for one placement of a snake (segment lengths) from a start cell."""

    cdef void *block
    cdef sc_first *s
    cdef int32_t n, n_seg

    def __cinit__(self, *args, **kwargs):
        self.block = NULL

    def __init__(self, const int32_t[::1] nb, const int32_t[::1] colour,
                 const int32_t[::1] lengths, start, end_colour, seed, checks, end=-1):
        loops.check_first(nb.shape[0], colour.shape[0], lengths.shape[0], start, end_colour,
                          checks, end)
        cdef uint64_t seed64 = self._allocate(nb, colour, lengths, seed)
        self.s = sc_first_init(self.block, &nb[0], &colour[0], &lengths[0], self.n, self.n_seg,
                               start, end_colour, <uint32_t>seed64, <uint32_t>(seed64 >> 32),
                               checks, end)

    cdef uint64_t _allocate(self, const int32_t[::1] nb, const int32_t[::1] colour,
                            const int32_t[::1] lengths, seed) except? 0:
        """Check the arrays' values and the seed, then allocate the search's block; the seed."""
        cdef uint64_t seed64 = loops.number("seed", seed, 0, 2**64 - 1)
        self.n, self.n_seg = colour.shape[0], lengths.shape[0]
        loops.refuse(sc_first_check(&nb[0], &colour[0], &lengths[0], self.n, self.n_seg),
                     loops.FIRST_ARRAYS)
        self.block = malloc(loops.block_size(sc_first_bytes(self.n, self.n_seg,
                                                            loops.longest(lengths))))
        if self.block == NULL:
            raise MemoryError("no memory for the search")
        return seed64

    cdef sc_first *_made(self) except NULL:
        """The search, once made (a class's ``__new__`` alone makes none)."""
        if self.s == NULL:
            raise ValueError("the search was not made: call the class with its arguments")
        return self.s

    def __dealloc__(self):
        free(self.block)

    def set_window(self, direction, width):
        """Search only paths that fill the target as a sweep along ``direction`` (0..5): the
        layers of ``set_layers`` are the planes across that direction, numbered from the face
        the direction points away from."""
        sc_first_set_window(self._made(), loops.number("direction", direction, 0, 5),
                            loops.number("width", width, 0, INT32_MAX))

    def set_layers(self, layers, width):
        """Search only paths that fill the target as a sweep through ``layers`` (each cell's
        layer, numbered from 0; ``FIRST_SWEEP``): at every node, the farthest layer holding a
        placed cube is at most ``width`` layers past the nearest layer with a free cell. A
        restriction, not a pruning: it can cut every solution, so a finished search under it
        proves nothing."""
        cdef const int32_t[::1] checked = loops.layers_of(layers, self.n)
        sc_first_set_layers(self._made(), &checked[0],
                            loops.number("width", width, 0, INT32_MAX))

    def run(self, nodes):
        """Search on for at most ``nodes`` nodes; ``found`` or ``finished`` when done.
        After a solution, the next call searches on for the next one."""
        cdef sc_first *st = self._made()
        cdef int64_t max_nodes = loops.number("nodes", nodes, -2**63, 2**63 - 1)
        cdef int32_t budget = <int32_t>max(0, min(max_nodes, INT32_MAX))
        with nogil:  # the first call goes past a solution found before, if any
            sc_first_run(st, budget)
        max_nodes -= budget
        while max_nodes > 0 and not sc_first_found(st) and not sc_first_finished(st):
            budget = <int32_t>min(max_nodes, INT32_MAX)
            with nogil:
                sc_first_run(st, budget)
            max_nodes -= budget

    def push(self, d):
        """Place the next segment in direction ``d`` (a given prefix), checked only to lie on
        free cells of the target (else ValueError, and nothing is placed)."""
        if not sc_first_push(self._made(), loops.number("d", d, 0, 5)):
            raise ValueError(f"the next segment does not lie on free cells in direction {d}")

    def directions(self):
        """The placement found: one direction per segment."""
        cdef int32_t[::1] out = loops.ints(self.n_seg)
        sc_first_directions(self._made(), &out[0])
        return list(out[:self.n_seg])

    def first_cell(self):
        """The cell of cube 1 in the placement found."""
        return sc_first_first_cell(self._made())

    @property
    def found(self):
        return bool(sc_first_found(self._made()))

    @property
    def finished(self):
        return bool(sc_first_finished(self._made()))

    @property
    def nodes(self):
        return int(sc_first_nodes(self._made()))

    @property
    def deepest(self):
        return sc_first_deepest(self._made())


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
        loops.check_arms(nb.shape[0], colour, lengths, pivot, start, first_colour, checks)
        cdef uint64_t seed64 = self._allocate(nb, colour, lengths, seed)
        self.s = sc_arms_init(self.block, &nb[0], &colour[0], &lengths[0], self.n, self.n_seg,
                              pivot, start, first_colour, <uint32_t>seed64,
                              <uint32_t>(seed64 >> 32), checks)

    def push(self, d):
        raise TypeError("ArmsSearch places no given prefix; use FirstSearch")
