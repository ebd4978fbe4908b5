"""The compiled search loops' Python side, shared by both ways of running them: the checks of
their arguments, and the WebAssembly module's classes.

The loops are C (``csrc/segment.c``, ``first.c``, ``beam.c``). The native package wraps them
with Cython (one module, ``_loops.pyx``); in the static site they run as
WebAssembly (``snakecube.wasm``), wrapped here by classes with the same names, arguments and
answers: ``SegmentSearch``, ``FirstSearch``, ``ArmsSearch`` and ``Beam``. ``compiled`` gives
this module where the Cython ones are not built and a WebAssembly runtime is there.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from snakecube import wasm
from snakecube.search.options import (
    ALL_PRUNE,
    FIRST_BLOCKS,
    FIRST_FEWEST_WAYS,
    FIRST_FORCED,
    FIRST_RUNS,
    FIRST_SWEEP,
    FIRST_TAIL,
)

INT32_MAX = 2**31 - 1
BEAM_MAX_WIDTH = 1 << 22  # csrc/beam.h: a child's index fits beside its hash bits
BEAM_MAX_CELLS = 128  # the beam's masks are 128 bits
FIRST_CHECKS = FIRST_BLOCKS | FIRST_FORCED | FIRST_FEWEST_WAYS | FIRST_RUNS | FIRST_TAIL
FIRST_CHECKS |= FIRST_SWEEP

# The arrays whose values the C checks read (``sc_*_check``), in the order of their codes.
FIRST_ARRAYS = ("nb", "colour", "lengths")
SEGMENT_ARRAYS = ("lidx", "rmask", "rend", "rhalo", "nbmask", "colours", "dirs", "occ")
SHIFTS_ARRAYS = ("shifts", "has")
BEAM_ARRAYS = ("nb", "colour", "lengths", "starts", "offsets", "has")


# -- the checks, for both bindings -----------------------------------------------------------
# Nothing a Python caller passes can make a loop read or write outside its arrays: the
# lengths and numbers are checked here, the values inside the arrays by the C loops' own
# checks (``sc_first_check`` and the others, one pass each), and each answers ValueError.
def number(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high``, or ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, not {type(value).__name__}")
    if value > high:
        raise ValueError(f"{name} must be at most {high}, not {value}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, not {value}")
    return value


def refuse(code: int, names: tuple[str, ...]) -> None:
    """Raise ValueError for a C check's answer (0: sound; k: the k-th of ``names``)."""
    if code:
        raise ValueError(f"{names[code - 1]} holds a value out of range")


def made_once(search: object) -> None:
    """Each search is made once (the Cython classes' rule too): an ``__init__`` called again
    would replace the state under a run that holds it, so it is refused."""
    if hasattr(search, "_s"):
        raise ValueError("the search is made already: make a new one")


def block_size(size: int) -> int:
    """A ``*_bytes`` answer, refused when the search would need more than can be addressed."""
    size &= 0xFFFFFFFFFFFFFFFF  # an unsigned size, whatever width it came back in
    if size == 0:
        raise MemoryError("the search needs more memory than this process can address")
    return size


def check_first(
    nb: int, n: int, n_seg: int, start: object, end_colour: object, checks: object, end: object
) -> None:
    """Refuse a search from an end (``FirstSearch``) that cannot be made: ``nb``, ``n`` and
    ``n_seg`` are the lengths of its neighbours, colours and segment lengths."""
    number("the number of cells", n, 1, INT32_MAX // 6)
    if nb != 6 * n:
        raise ValueError(f"nb must hold 6 neighbours for each of the {n} cells, not {nb} values")
    number("the number of segments", n_seg, 1, INT32_MAX // 8)
    number("start", start, 0, n - 1)
    number("end", end, -1, n - 1)
    number("end_colour", end_colour, -1, 1)
    # (the masks as ints: ~ of an IntFlag keeps only its own members, so it would pass all)
    if number("checks", checks, 0, INT32_MAX) & ~int(FIRST_CHECKS):
        raise ValueError(f"checks holds flags that are not FIRST_* flags ({checks})")


def check_segment(
    lidx: int,
    rmask: int,
    rend: int,
    rhalo: int,
    nbmask: int,
    placed_after: int,
    colours: int,
    words: object,
    dirs: int,
    head: object,
    occ: int,
    base: object,
    flags: object,
    min_free: object,
    end_colour: object,
    max_out: object,
) -> int:
    """Refuse a unit's search (``SegmentSearch``) that cannot be made, from its arrays'
    lengths and its numbers; the number of segment lengths its tables hold."""
    words = number("words", words, 1, INT32_MAX // 64)
    n_cells, left = divmod(nbmask, words)
    if n_cells < 1 or left or (n_cells + 63) // 64 != words:
        raise ValueError(f"nbmask must hold one mask of {words} words for each cell")
    n_seg = number("the number of segments", lidx, 1, INT32_MAX // 8)
    n_lengths, left = divmod(rend, 6 * n_cells)
    if n_lengths < 1 or left:
        raise ValueError(f"rend must hold 6 rays from each of the {n_cells} cells per length")
    for name, size in (("rmask", rmask), ("rhalo", rhalo)):
        if size != rend * words:
            raise ValueError(f"{name} must hold one mask of {words} words for each ray")
    if placed_after < n_seg:
        raise ValueError(f"placed_after must hold a number for each of the {n_seg} segments")
    if colours < words or occ < words:
        raise ValueError(f"{'colours' if colours < words else 'occ'} must hold {words} words")
    if dirs < n_seg:
        raise ValueError(f"dirs must hold a direction for each of the {n_seg} segments")
    number("head", head, 0, n_cells - 1)
    number("base", base, 0, n_seg - 1)
    if number("flags", flags, 0, INT32_MAX) & ~int(ALL_PRUNE):
        raise ValueError(f"flags holds flags that are not pruning flags ({flags})")
    number("min_free", min_free, -INT32_MAX, INT32_MAX)
    number("end_colour", end_colour, -1, 1)
    number("max_out", max_out, 1, INT32_MAX // max(n_seg, 1))
    return n_lengths


def check_shifts(shifts: int, has: int, words: int) -> None:
    """Refuse ``set_shifts`` arguments of the wrong lengths."""
    if shifts != 6 or has != 6 * words:
        raise ValueError(f"set_shifts needs 6 shifts and 6 masks of {words} words")


def ints(n: int) -> array[int]:
    """A new array of n (at least one) zero int32s."""
    return array("i", [0]) * max(n, 1)


def longest(lengths: Sequence[int]) -> int:
    """The longest segment's cubes, at least 2 (what the search's block is sized for)."""
    return max(2, *lengths) if len(lengths) else 2


def layers_of(layers: Sequence[int], n: int) -> array[int]:
    """``layers`` as int32s, after checking that there is a layer from 0 to n-1 per cell."""
    if len(layers) != n or any(not 0 <= v < n for v in layers):
        raise ValueError(f"a layer number from 0 to {n - 1} for each of {n} cells")
    return array("i", layers)


def check_arms(
    nb: int,
    colour: Sequence[int],
    lengths: Sequence[int],
    pivot: object,
    start: object,
    first_colour: object,
    checks: object,
) -> None:
    """Refuse a middle-out search (``ArmsSearch``) that cannot be made (``nb`` the length of
    its neighbours)."""
    check_first(nb, len(colour), len(lengths), start, 0, 0, -1)
    if number("checks", checks, 0, INT32_MAX) & ~int(FIRST_FEWEST_WAYS | FIRST_SWEEP | FIRST_TAIL):
        raise ValueError(
            "the middle-out search checks dead ends, the tails, the fewest ways "
            "order and sweeps only"
        )
    m = len(lengths)
    at = number("pivot", pivot, -INT32_MAX, INT32_MAX)
    if not 0 <= at < m:
        raise ValueError(f"pivot segment {pivot} is not one of the {m} segments")
    cubes = sum(lengths[j] - 1 for j in range(at))
    cell = number("start", start, 0, len(colour) - 1)
    if colour[cell] != number("first_colour", first_colour, 0, 1) ^ (cubes & 1):
        raise ValueError(f"cell {start} has the wrong colour for cube {cubes + 1}")


def check_beam(
    n: object,
    nb: int,
    colour: int,
    segments: int,
    starts: int,
    offsets: int,
    has: int,
    width: object,
    score_kind: object,
) -> None:
    """Refuse a beam that cannot be made (the arrays given by their lengths)."""
    n = number("the number of cells", n, 1, BEAM_MAX_CELLS)
    if nb != 6 * n or colour != n:
        raise ValueError(f"nb and colour must hold 6 neighbours and a colour for each of {n} cells")
    number("the number of segments", segments, 1, BEAM_MAX_CELLS + 1)
    number("the number of start cells", starts, 1, n)
    if offsets != 6 or has != 12:
        raise ValueError("the beam needs 6 offsets and 6 masks of 2 words")
    number("the beam's width", width, 1, BEAM_MAX_WIDTH)
    number("score_kind", score_kind, 0, 1)


# -- the WebAssembly classes ------------------------------------------------------------------
def _runtime() -> wasm.Runtime:
    runtime = wasm.runtime()
    if runtime is None:
        raise RuntimeError("no WebAssembly module is loaded")
    return runtime


def _bytes(values: Any, code: str) -> bytes:
    """Integers as the machine integers of ``array`` type ``code`` (little-endian)."""
    return (
        values if isinstance(values, array) and values.typecode == code else array(code, values)
    ).tobytes()


def _halves(seed: int) -> tuple[int, int]:
    """A 64-bit seed as two 32-bit halves, each an int32 as the module's calls take them."""
    lo, hi = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    return lo - (1 << 32) if lo >> 31 else lo, hi - (1 << 32) if hi >> 31 else hi


T = TypeVar("T", int, bool)


class _Ask(Generic[T]):
    """A property that asks the module about a search: ``kind(call(search))``, the search
    being the instance's ``_s`` on its runtime ``_rt`` (the mirror of a Cython property)."""

    def __init__(self, call: str, kind: Callable[[Any], T]) -> None:
        self.call: str = call
        self.kind: Callable[[Any], T] = kind

    def __get__(self, search: Any, owner: Any = None) -> T:
        return self.kind(search._rt.call(self.call, search._s))


class SegmentSearch:
    """``_loops.SegmentSearch`` in the WebAssembly module: the same arguments and answers.
    The tables are copied into the module's memory with the search."""

    def __init__(
        self,
        lidx: Any,
        rmask: Any,
        rend: Any,
        rhalo: Any,
        nbmask: Any,
        placed_after: Any,
        colours: Any,
        words: int,
        dirs: Any,
        head: int,
        occ: Any,
        base: int,
        flags: int,
        min_free: int,
        end_colour: int,
        max_out: int,
        multiword: bool,
    ) -> None:
        made_once(self)
        n_lengths = check_segment(
            len(lidx),
            len(rmask),
            len(rend),
            len(rhalo),
            len(nbmask),
            len(placed_after),
            len(colours),
            words,
            len(dirs),
            head,
            len(occ),
            base,
            flags,
            min_free,
            end_colour,
            max_out,
        )
        rt = self._rt = _runtime()
        self.n_seg, self.words, self.max_out = len(lidx), words, max_out
        self.n_cells = len(nbmask) // words
        self._tables, at = wasm.put(
            rt,
            _bytes(lidx, "q"),
            _bytes(rmask, "Q"),
            _bytes(rend, "q"),
            _bytes(rhalo, "Q"),
            _bytes(nbmask, "Q"),
            _bytes(placed_after, "q"),
            _bytes(colours, "Q"),
            _bytes(dirs, "q"),
            _bytes(occ, "Q"),
        )
        refuse(
            rt.call(
                "sc_segment_check",
                *at[:5],
                at[6],
                self.n_seg,
                self.n_cells,
                words,
                n_lengths,
                at[7],
                base,
                at[8],
            ),
            SEGMENT_ARRAYS,
        )
        size = block_size(rt.call("sc_segment_bytes", self.n_seg, words, max_out) & 0xFFFFFFFF)
        self._block = wasm.Block(rt, size)
        self._s = rt.call(
            "sc_segment_init",
            self._block.address,
            *at[:7],
            self.n_seg,
            self.n_cells,
            words,
            at[7],
            head,
            at[8],
            base,
            flags,
            min_free,
            end_colour,
            max_out,
            int(multiword),
        )
        self._out = rt.call("sc_segment_out", self._s) & 0xFFFFFFFF

    def set_shifts(self, shifts: Sequence[int], has: Any) -> None:
        check_shifts(len(shifts), len(has), self.words)
        offsets = [number("a shift", v, -INT32_MAX, INT32_MAX) for v in shifts]
        block, (a, b) = wasm.put(self._rt, _bytes(offsets, "i"), _bytes(has, "Q"))
        try:
            refuse(
                self._rt.call("sc_segment_check_shifts", a, b, self.n_cells, self.words),
                SHIFTS_ARRAYS,
            )
            self._rt.call("sc_segment_set_shifts", self._s, a, b)
        finally:
            block.free()

    def run(self, max_nodes: int) -> tuple[int, int]:
        budget = max(0, min(number("nodes", max_nodes, -(2**63), 2**63 - 1), INT32_MAX))
        found = self._rt.call("sc_segment_run", self._s, budget)
        return int(found), int(self._rt.call("sc_segment_nodes", self._s))

    def placements(self, n: int) -> list[tuple[int, ...]]:
        if number("n", n, 0, self.max_out) == 0:
            return []
        out = array("q")
        out.frombytes(self._rt.read(self._out, 8 * n * self.n_seg))
        m = self.n_seg
        return [tuple(out[i * m : (i + 1) * m]) for i in range(n)]

    finished = _Ask("sc_segment_finished", bool)


class FirstSearch:
    """``_loops.FirstSearch`` in the WebAssembly module: the same arguments and answers."""

    def __init__(
        self,
        nb: Any,
        colour: Any,
        lengths: Any,
        start: int,
        end_colour: int,
        seed: int,
        checks: int,
        end: int = -1,
    ) -> None:
        made_once(self)
        check_first(len(nb), len(colour), len(lengths), start, end_colour, checks, end)
        number("seed", seed, 0, 2**64 - 1)
        self._make(
            "sc_first_init", nb, colour, lengths, start, end_colour, *_halves(seed), checks, end
        )

    def _make(self, init: str, nb: Any, colour: Any, lengths: Any, *rest: int) -> None:
        """Copy the tables in, check them, and make the search in its block with ``init``
        (``sc_first_init`` or ``sc_arms_init``, ``rest`` its arguments after the tables)."""
        rt = self._rt = _runtime()
        self.n, self.n_seg = len(colour), len(lengths)
        given, inputs = wasm.put(rt, _bytes(nb, "i"), _bytes(colour, "i"), _bytes(lengths, "i"))
        try:
            refuse(rt.call("sc_first_check", *inputs, self.n, self.n_seg), FIRST_ARRAYS)
            size = rt.call("sc_first_bytes", self.n, self.n_seg, longest(lengths))
            self._block = wasm.Block(rt, block_size(size & 0xFFFFFFFF))
            self._s = rt.call(init, self._block.address, *inputs, self.n, self.n_seg, *rest)
        finally:
            given.free()

    def set_window(self, direction: int, width: int) -> None:
        number("direction", direction, 0, 5)
        number("width", width, 0, INT32_MAX)
        self._rt.call("sc_first_set_window", self._s, direction, width)

    def set_layers(self, layers: Sequence[int], width: int) -> None:
        checked = layers_of(layers, self.n).tobytes()
        number("width", width, 0, INT32_MAX)
        block, (at,) = wasm.put(self._rt, checked)
        self._rt.call("sc_first_set_layers", self._s, at, width)
        block.free()

    def run(self, max_nodes: int) -> None:
        max_nodes = number("nodes", max_nodes, -(2**63), 2**63 - 1)
        budget = max(0, min(max_nodes, INT32_MAX))
        self._rt.call("sc_first_run", self._s, budget)  # goes past a solution found before
        max_nodes -= budget
        while max_nodes > 0 and not self.found and not self.finished:
            budget = min(max_nodes, INT32_MAX)
            self._rt.call("sc_first_run", self._s, budget)
            max_nodes -= budget

    def push(self, d: int) -> None:
        if not self._rt.call("sc_first_push", self._s, number("d", d, 0, 5)):
            raise ValueError(f"the next segment does not lie on free cells in direction {d}")

    def directions(self) -> list[int]:
        block = wasm.Block(self._rt, 4 * self.n_seg)
        self._rt.call("sc_first_directions", self._s, block.address)
        out = array("i")
        out.frombytes(self._rt.read(block.address, 4 * self.n_seg))
        block.free()
        return list(out)

    def first_cell(self) -> int:
        return int(self._rt.call("sc_first_first_cell", self._s))

    found = _Ask("sc_first_found", bool)
    finished = _Ask("sc_first_finished", bool)
    nodes = _Ask("sc_first_nodes", int)
    deepest = _Ask("sc_first_deepest", int)


class ArmsSearch(FirstSearch):
    """``_loops.ArmsSearch`` in the WebAssembly module: the same arguments and answers."""

    def __init__(
        self,
        nb: Any,
        colour: Any,
        lengths: Any,
        pivot: int,
        start: int,
        first_colour: int,
        seed: int,
        checks: int,
    ) -> None:
        made_once(self)
        check_arms(len(nb), colour, lengths, pivot, start, first_colour, checks)
        number("seed", seed, 0, 2**64 - 1)
        self._make(
            "sc_arms_init", nb, colour, lengths, pivot, start, first_colour, *_halves(seed), checks
        )

    def push(self, d: int) -> None:
        raise TypeError("ArmsSearch places no given prefix; use FirstSearch")


class Beam:
    """``_loops.Beam`` in the WebAssembly module: the same arguments and answers."""

    def __init__(
        self,
        n: int,
        nb: Any,
        colour: Any,
        lengths: Any,
        starts: Any,
        offsets: Sequence[int],
        has: Sequence[int],
        width: int,
        score_kind: int,
        seed: int,
    ) -> None:
        made_once(self)
        check_beam(
            n,
            len(nb),
            len(colour),
            len(lengths),
            len(starts),
            len(offsets),
            len(has),
            width,
            score_kind,
        )
        number("seed", seed, 0, 2**64 - 1)
        offsets = [number("an offset", v, -INT32_MAX, INT32_MAX) for v in offsets]
        has = [number("a word of has", v, 0, 2**64 - 1) for v in has]
        rt = self._rt = _runtime()
        self.n_seg = len(lengths)
        given, at = wasm.put(
            rt,
            _bytes(nb, "i"),
            _bytes(colour, "i"),
            _bytes(lengths, "i"),
            _bytes(starts, "i"),
            _bytes(offsets, "i"),
            _bytes(has, "Q"),
        )
        # the arrays as sc_beam_check and sc_beam_init take them, after n
        arrays = (at[0], at[1], at[2], self.n_seg, at[3], len(starts), at[4], at[5])
        try:
            refuse(rt.call("sc_beam_check", n, *arrays), BEAM_ARRAYS)
            size = rt.call("sc_beam_bytes", n, self.n_seg, len(starts), width)
            self._block = wasm.Block(rt, block_size(size & 0xFFFFFFFF))
            self._s = rt.call(
                "sc_beam_init", self._block.address, n, *arrays, width, score_kind, *_halves(seed)
            )
        finally:
            given.free()
        self.solution: tuple[int, tuple[int, ...]] | None = None

    def run(self, budget: int) -> bool:
        budget = number("budget", budget, -(2**63), 2**63 - 1)
        done = bool(self._rt.call("sc_beam_run", self._s, max(0, min(budget, INT32_MAX))))
        if self.found and self.solution is None:
            block = wasm.Block(self._rt, 4 * self.n_seg)
            start = int(self._rt.call("sc_beam_solution", self._s, block.address))
            dirs = array("i")
            dirs.frombytes(self._rt.read(block.address, 4 * self.n_seg))
            block.free()
            self.solution = (start, tuple(dirs))
        return done

    done = _Ask("sc_beam_done", bool)
    found = _Ask("sc_beam_found", bool)
    complete = _Ask("sc_beam_complete", bool)
    nodes = _Ask("sc_beam_nodes", int)
    level = _Ask("sc_beam_level", int)
    ncur = _Ask("sc_beam_folds", int)
