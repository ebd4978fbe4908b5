"""The compiled kernel: the reference's contract, compiled from C, with exact pruning.

Same answers, same order, and with the same pruning the same nodes as ``reference.search`` (see
``engine`` for the contract and the pruning flags). The loop itself is C (``csrc/segment.c``),
compiled when the package is installed and wrapped by ``_loops.pyx``; in the static site, the
same C as WebAssembly (``search.loops``). The search state lives in arrays owned by Python, so
the loop runs in *slices* of at most ``SLICE`` nodes and resumes where it stopped: the caller
checks time, progress and Ctrl-C between slices. Occupancy is one machine word in a register
for regions of up to 64 cells, a 128-bit pair for up to 128 (4x5x5 and 5x5x5 boxes), and
``ceil(cells / 64)`` words in an array beyond, so any size works.

``snakecube.compiled`` says whether the loop is built; ``$SNAKECUBE_PUREPYTHON=1`` hides it, as
if it had not been built (the way msgpack tests its fallback): everything then runs on the
reference.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from functools import lru_cache

from snakecube import compiled
from snakecube.compiled import PURE_ENV  # noqa: F401 - its old home
from snakecube.search.engine import Engine, Placement, Stats
from snakecube.search.options import DEFAULT_PRUNE, MIN_FREE
from snakecube.search.plan import Unit, end_colour, replay
from snakecube.search.problem import Problem

_loops = compiled.extension("loops")  # None: not built, or hidden by $SNAKECUBE_PUREPYTHON
AVAILABLE = _loops is not None

NAME = "kernel"
SLICE = 2_000_000  # nodes per call of the loop: about 0.1-0.25 s on the king
# Past 128 cells the loop works on arrays of words, and a node costs more: a call of SLICE
# nodes took 1.2-1.6 s on the bent 729-cube snake (12 words, 2 cores at a load of 9), so a time
# limit or Ctrl-C waited that long. There a call has SLICE * 2 // words nodes (about 0.2 s).
BATCH = 64  # placements a call of the loop returns at most
_WORD = (1 << 64) - 1


class Kernel(Engine):
    """The compiled engine; by default with dead-end, parity and tail pruning."""

    name = NAME
    default_prune = DEFAULT_PRUNE

    def search(
        self, problem: Problem, unit: Unit, stats: Stats | None = None
    ) -> Iterator[Placement | None]:
        return search(problem, unit, stats, self.prune, self.min_free)

    def warm(self, problem: Problem) -> None:
        tables_for(problem)


class Tables:
    """The problem's ray tables as flat arrays of machine integers, built once per problem.

    Row ``(lidx[k] * cells + cell) * 6 + d`` holds segment k's ray from ``cell`` going ``d``:
    ``rend`` its end cell (-1 if it leaves the region), ``rmask`` the cells it adds and
    ``rhalo`` the neighbours of its start cell and of the cells it adds, ``words`` words each.
    """

    def __init__(self, problem: Problem) -> None:
        n = problem.ncells
        self.words = words = (n + 63) // 64
        lengths = sorted(set(problem.lengths))
        self.lidx = array("q", [lengths.index(x) for x in problem.lengths])
        nb = problem.neighbours
        neighbourhood = [sum(1 << x for x in around if x >= 0) for around in nb]
        rend, rmask, rhalo = [], [], []
        for length in lengths:
            table = problem.rays[length]
            for c in range(n):
                for d in range(6):
                    ray = table[c * 6 + d]
                    mask, end, halo = (0, -1, 0) if ray is None else (*ray, 0)
                    if ray is not None:
                        at = c
                        for _ in range(length):
                            halo |= neighbourhood[at]
                            at = nb[at][d]
                    rend.append(end)
                    rmask.extend(_split(mask, words))
                    rhalo.extend(_split(halo, words))
        self.rend = array("q", rend)
        self.rmask = array("Q", rmask)
        self.rhalo = array("Q", rhalo)
        self.nbmask = array("Q", [w for m in neighbourhood for w in _split(m, words)])
        odd = problem.region.odd_mask
        self.colours = array("Q", _split(odd, words))
        placed, after = 1, []
        for length in problem.lengths:
            placed += length - 1
            after.append(placed)
        self.placed_after = array("q", after)
        # In a box (cells numbered along x, then y, then z) a cell's neighbour in direction d
        # is the cell a fixed distance on: the loop can then shift masks (``set_shifts``).
        offsets = [{nb[c][d] - c for c in range(n) if nb[c][d] >= 0} for d in range(6)]
        self.shifts: tuple[array[int], array[int]] | None = None
        if words <= 2 and all(len(o) <= 1 for o in offsets):
            has = [sum(1 << c for c in range(n) if nb[c][d] >= 0) for d in range(6)]
            self.shifts = (
                array("q", [next(iter(o)) if o else 0 for o in offsets]),
                array("Q", [w for m in has for w in _split(m, words)]),
            )


def _split(mask: int, words: int) -> list[int]:
    return [(mask >> (64 * w)) & _WORD for w in range(words)]


@lru_cache(maxsize=8)  # problems hash by identity (``eq=False``): one entry per problem
def tables_for(problem: Problem) -> Tables:
    """The tables of ``problem``, cached for the last few problems."""
    return Tables(problem)


def search(
    problem: Problem,
    unit: Unit,
    stats: Stats | None = None,
    flags: int = DEFAULT_PRUNE,
    min_free: int = MIN_FREE,
    max_nodes: int | None = None,
    multiword: bool = False,
    shifted: bool = True,
) -> Iterator[Placement | None]:
    """Every placement under ``unit``, as the reference gives them (see its contract).

    ``max_nodes`` is the nodes of a call of the loop (a tick after each; default ``SLICE``,
    less past 128 cells). ``multiword`` runs the any-size (array) loop even for regions of up
    to 128 cells, and ``shifted=False`` the register loop's dead-end step one cell at a time
    even in a box (to test that the loops and steps agree).
    """
    if _loops is None:
        raise RuntimeError("the compiled kernel is not built; reinstall with a C compiler")
    state = replay(problem, unit.start, unit.prefix)
    if state is None:
        return
    occ_int, head, _axis = state
    k_all = len(problem.lengths)
    k0 = len(unit.prefix)
    if k0 == k_all:  # the unit is already a whole placement
        yield tuple(unit.prefix)
        return
    t = tables_for(problem)
    walk = _loops.SegmentSearch(
        t.lidx,
        t.rmask,
        t.rend,
        t.rhalo,
        t.nbmask,
        t.placed_after,
        t.colours,
        t.words,
        array("q", [*unit.prefix, *([0] * (k_all - k0))]),
        head,
        array("Q", _split(occ_int, t.words)),
        k0,
        flags,
        min_free,
        end_colour(problem.region, unit.start),
        BATCH,
        multiword,
    )
    if t.shifts is not None and shifted:
        walk.set_shifts(*t.shifts)
    if max_nodes is None:
        max_nodes = SLICE if t.words <= 2 else SLICE * 2 // t.words
    while True:
        n_out, nodes = walk.run(max_nodes)
        if stats is not None:
            stats.nodes += nodes
        yield from walk.placements(n_out)
        if walk.finished:
            return
        yield None
