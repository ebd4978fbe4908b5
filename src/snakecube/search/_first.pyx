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
    uint32_t sc_first_bytes(int32_t n, int32_t n_seg, int32_t max_len)
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
    void sc_first_push(sc_first *s, int32_t d)
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
                 const int32_t[::1] lengths, int32_t start, int32_t end_colour,
                 uint64_t seed, int32_t checks, int32_t end=-1):
        self._allocate(colour.shape[0], lengths)
        self.s = sc_first_init(self.block, &nb[0], &colour[0], &lengths[0], self.n, self.n_seg,
                               start, end_colour, <uint32_t>seed, <uint32_t>(seed >> 32),
                               checks, end)

    cdef _allocate(self, int32_t n, const int32_t[::1] lengths):
        self.n, self.n_seg = n, lengths.shape[0]
        self.block = malloc(sc_first_bytes(n, self.n_seg, loops.longest(lengths)))
        if self.block == NULL:
            raise MemoryError("no memory for the search")

    def __dealloc__(self):
        free(self.block)

    def set_window(self, int32_t direction, int32_t width):
        """Search only paths that fill the target as a sweep along ``direction`` (0..5): the
        layers of ``set_layers`` are the planes across that direction, numbered from the face
        the direction points away from."""
        sc_first_set_window(self.s, direction, width)

    def set_layers(self, layers, int32_t width):
        """Search only paths that fill the target as a sweep through ``layers`` (each cell's
        layer, numbered from 0; ``FIRST_SWEEP``): at every node, the farthest layer holding a
        placed cube is at most ``width`` layers past the nearest layer with a free cell. A
        restriction, not a pruning: it can cut every solution, so a finished search under it
        proves nothing."""
        cdef const int32_t[::1] checked = loops.layers_of(layers, self.n)
        sc_first_set_layers(self.s, &checked[0], width)

    def run(self, int64_t max_nodes):
        """Search on for at most ``max_nodes`` nodes; ``found`` or ``finished`` when done.
        After a solution, the next call searches on for the next one."""
        cdef int32_t budget = <int32_t>max(0, min(max_nodes, INT32_MAX))
        with nogil:  # the first call goes past a solution found before, if any
            sc_first_run(self.s, budget)
        max_nodes -= budget
        while max_nodes > 0 and not sc_first_found(self.s) and not sc_first_finished(self.s):
            budget = <int32_t>min(max_nodes, INT32_MAX)
            with nogil:
                sc_first_run(self.s, budget)
            max_nodes -= budget

    def push(self, int32_t d):
        """Place the next segment in direction ``d`` without any check (a given prefix)."""
        sc_first_push(self.s, d)

    def directions(self):
        """The placement found: one direction per segment."""
        cdef int32_t[::1] out = loops.ints(self.n_seg)
        sc_first_directions(self.s, &out[0])
        return list(out[:self.n_seg])

    def first_cell(self):
        """The cell of cube 1 in the placement found."""
        return sc_first_first_cell(self.s)

    @property
    def found(self):
        return bool(sc_first_found(self.s))

    @property
    def finished(self):
        return bool(sc_first_finished(self.s))

    @property
    def nodes(self):
        return int(sc_first_nodes(self.s))

    @property
    def deepest(self):
        return sc_first_deepest(self.s)


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
                 const int32_t[::1] lengths, int32_t pivot, int32_t start,
                 int32_t first_colour, uint64_t seed, int32_t checks):
        loops.check_arms(colour, lengths, pivot, start, first_colour, checks)
        self._allocate(colour.shape[0], lengths)
        self.s = sc_arms_init(self.block, &nb[0], &colour[0], &lengths[0], self.n, self.n_seg,
                              pivot, start, first_colour, <uint32_t>seed,
                              <uint32_t>(seed >> 32), checks)

    def push(self, int32_t d):
        raise TypeError("ArmsSearch places no given prefix; use FirstSearch")
