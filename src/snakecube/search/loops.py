"""The compiled search loops' Python side, shared by both ways of running them: the checks of
their arguments, and the WebAssembly module's classes.

The loops are C (``csrc/segment.c``, ``first.c``, ``beam.c``). The native package wraps them
with Cython (``_kernel.pyx``, ``_first.pyx``, ``_beam.pyx``); in the static site they run as
WebAssembly (``snakecube.wasm``), wrapped here by classes with the same names, arguments and
answers: ``SegmentSearch``, ``FirstSearch``, ``ArmsSearch`` and ``Beam``. ``compiled`` gives
this module where the Cython ones are not built and a WebAssembly runtime is there.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from snakecube import wasm
from snakecube.search.options import FIRST_FEWEST_WAYS, FIRST_SWEEP, FIRST_TAIL

INT32_MAX = 2**31 - 1
BEAM_MAX_WIDTH = 1 << 22  # csrc/beam.h: a child's index fits beside its hash bits
BEAM_MAX_CELLS = 128  # the beam's masks are 128 bits


# -- the checks, for both bindings -----------------------------------------------------------
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
    colour: Sequence[int],
    lengths: Sequence[int],
    pivot: int,
    start: int,
    first_colour: int,
    checks: int,
) -> None:
    """Refuse a middle-out search (``ArmsSearch``) that cannot be made."""
    if checks & ~(FIRST_FEWEST_WAYS | FIRST_SWEEP | FIRST_TAIL):
        raise ValueError("the middle-out search checks dead ends, the tails, the fewest ways "
                         "order and sweeps only")  # fmt: skip
    m = len(lengths)
    if not 0 <= pivot < m:
        raise ValueError(f"pivot segment {pivot} is not one of the {m} segments")
    cubes = sum(lengths[j] - 1 for j in range(pivot))
    if colour[start] != first_colour ^ (cubes & 1):
        raise ValueError(f"cell {start} has the wrong colour for cube {cubes + 1}")


def check_beam(n: int, segments: int, width: int) -> None:
    """Refuse a beam that cannot be made."""
    if n > BEAM_MAX_CELLS:
        raise ValueError(f"the beam needs a target of at most {BEAM_MAX_CELLS} cells")
    if width < 1:
        raise ValueError("the beam's width must be at least 1")
    if width > BEAM_MAX_WIDTH:
        raise ValueError(f"the beam's width must be at most {BEAM_MAX_WIDTH}")
    if segments > BEAM_MAX_CELLS + 1:
        raise ValueError(f"the beam needs at most {BEAM_MAX_CELLS + 1} segments")


# -- the WebAssembly classes ------------------------------------------------------------------
def _runtime() -> wasm.Runtime:
    runtime = wasm.runtime()
    if runtime is None:
        raise RuntimeError("no WebAssembly module is loaded")
    return runtime


def _bytes(values: Any, code: str) -> bytes:
    """Integers as the machine integers of ``array`` type ``code`` (little-endian)."""
    return (values if isinstance(values, array) and values.typecode == code
            else array(code, values)).tobytes()  # fmt: skip


def _halves(seed: int) -> tuple[int, int]:
    """A 64-bit seed as two 32-bit halves, each an int32 as the module's calls take them."""
    lo, hi = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    return lo - (1 << 32) if lo >> 31 else lo, hi - (1 << 32) if hi >> 31 else hi


class SegmentSearch:
    """``_kernel.SegmentSearch`` in the WebAssembly module: the same arguments and answers.
    The tables are copied into the module's memory with the search."""

    def __init__(
        self, lidx: Any, rmask: Any, rend: Any, rhalo: Any, nbmask: Any, placed_after: Any,
        colours: Any, words: int, dirs: Any, head: int, occ: Any, base: int, flags: int,
        min_free: int, end_colour: int, max_out: int, multiword: bool,
    ) -> None:  # fmt: skip
        rt = self._rt = _runtime()
        self.n_seg = len(lidx)
        self._tables, at = wasm.put(
            rt, _bytes(lidx, "q"), _bytes(rmask, "Q"), _bytes(rend, "q"), _bytes(rhalo, "Q"),
            _bytes(nbmask, "Q"), _bytes(placed_after, "q"), _bytes(colours, "Q"),
            _bytes(dirs, "q"), _bytes(occ, "Q"),
        )  # fmt: skip
        self._block = wasm.Block(rt, rt.call("sc_segment_bytes", self.n_seg, words, max_out))
        self._s = rt.call(
            "sc_segment_init", self._block.address, *at[:7], self.n_seg, len(nbmask) // words,
            words, at[7], head, at[8], base, flags, min_free, end_colour, max_out,
            int(multiword),
        )  # fmt: skip
        self._out = rt.call("sc_segment_out", self._s) & 0xFFFFFFFF

    def set_shifts(self, shifts: Sequence[int], has: Any) -> None:
        block, (a, b) = wasm.put(self._rt, _bytes(shifts, "i"), _bytes(has, "Q"))
        self._rt.call("sc_segment_set_shifts", self._s, a, b)
        block.free()

    def run(self, max_nodes: int) -> tuple[int, int]:
        found = self._rt.call("sc_segment_run", self._s, max(0, min(max_nodes, INT32_MAX)))
        return int(found), int(self._rt.call("sc_segment_nodes", self._s))

    def placements(self, n: int) -> list[tuple[int, ...]]:
        if n <= 0:
            return []
        out = array("q")
        out.frombytes(self._rt.read(self._out, 8 * n * self.n_seg))
        m = self.n_seg
        return [tuple(out[i * m : (i + 1) * m]) for i in range(n)]

    @property
    def finished(self) -> bool:
        return bool(self._rt.call("sc_segment_finished", self._s))


class FirstSearch:
    """``_first.FirstSearch`` in the WebAssembly module: the same arguments and answers."""

    def __init__(
        self, nb: Any, colour: Any, lengths: Any, start: int, end_colour: int, seed: int,
        checks: int, end: int = -1,
    ) -> None:  # fmt: skip
        self._make(nb, colour, lengths)
        self._s = self._rt.call(
            "sc_first_init", self._block.address, *self._inputs, self.n, self.n_seg, start,
            end_colour, *_halves(seed), checks, end,
        )  # fmt: skip
        self._given.free()

    def _make(self, nb: Any, colour: Any, lengths: Any) -> None:
        rt = self._rt = _runtime()
        self.n, self.n_seg = len(colour), len(lengths)
        self._given, self._inputs = wasm.put(
            rt, _bytes(nb, "i"), _bytes(colour, "i"), _bytes(lengths, "i")
        )
        size = rt.call("sc_first_bytes", self.n, self.n_seg, longest(lengths))
        self._block = wasm.Block(rt, size)

    def set_window(self, direction: int, width: int) -> None:
        self._rt.call("sc_first_set_window", self._s, direction, width)

    def set_layers(self, layers: Sequence[int], width: int) -> None:
        block, (at,) = wasm.put(self._rt, layers_of(layers, self.n).tobytes())
        self._rt.call("sc_first_set_layers", self._s, at, width)
        block.free()

    def run(self, max_nodes: int) -> None:
        budget = max(0, min(max_nodes, INT32_MAX))
        self._rt.call("sc_first_run", self._s, budget)  # goes past a solution found before
        max_nodes -= budget
        while max_nodes > 0 and not self.found and not self.finished:
            budget = min(max_nodes, INT32_MAX)
            self._rt.call("sc_first_run", self._s, budget)
            max_nodes -= budget

    def push(self, d: int) -> None:
        self._rt.call("sc_first_push", self._s, d)

    def directions(self) -> list[int]:
        block = wasm.Block(self._rt, 4 * self.n_seg)
        self._rt.call("sc_first_directions", self._s, block.address)
        out = array("i")
        out.frombytes(self._rt.read(block.address, 4 * self.n_seg))
        block.free()
        return list(out)

    def first_cell(self) -> int:
        return int(self._rt.call("sc_first_first_cell", self._s))

    @property
    def found(self) -> bool:
        return bool(self._rt.call("sc_first_found", self._s))

    @property
    def finished(self) -> bool:
        return bool(self._rt.call("sc_first_finished", self._s))

    @property
    def nodes(self) -> int:
        return int(self._rt.call("sc_first_nodes", self._s))

    @property
    def deepest(self) -> int:
        return int(self._rt.call("sc_first_deepest", self._s))


class ArmsSearch(FirstSearch):
    """``_first.ArmsSearch`` in the WebAssembly module: the same arguments and answers."""

    def __init__(
        self, nb: Any, colour: Any, lengths: Any, pivot: int, start: int, first_colour: int,
        seed: int, checks: int,
    ) -> None:  # fmt: skip
        check_arms(colour, lengths, pivot, start, first_colour, checks)
        self._make(nb, colour, lengths)
        self._s = self._rt.call(
            "sc_arms_init", self._block.address, *self._inputs, self.n, self.n_seg, pivot,
            start, first_colour, *_halves(seed), checks,
        )  # fmt: skip
        self._given.free()

    def push(self, d: int) -> None:
        raise TypeError("ArmsSearch places no given prefix; use FirstSearch")


class Beam:
    """``_beam.Beam`` in the WebAssembly module: the same arguments and answers."""

    def __init__(
        self, n: int, nb: Any, colour: Any, lengths: Any, starts: Any, offsets: Sequence[int],
        has: Sequence[int], width: int, score_kind: int, seed: int,
    ) -> None:  # fmt: skip
        check_beam(n, len(lengths), width)
        rt = self._rt = _runtime()
        self.n_seg = len(lengths)
        given, at = wasm.put(
            rt, _bytes(nb, "i"), _bytes(colour, "i"), _bytes(lengths, "i"), _bytes(starts, "i"),
            _bytes(offsets, "i"), _bytes(has, "Q"),
        )  # fmt: skip
        size = rt.call("sc_beam_bytes", n, self.n_seg, len(starts), width)
        self._block = wasm.Block(rt, size)
        self._s = rt.call(
            "sc_beam_init", self._block.address, n, at[0], at[1], at[2], self.n_seg, at[3],
            len(starts), at[4], at[5], width, score_kind, *_halves(seed),
        )  # fmt: skip
        given.free()
        self.solution: tuple[int, tuple[int, ...]] | None = None

    def run(self, budget: int) -> bool:
        done = bool(self._rt.call("sc_beam_run", self._s, max(0, min(budget, INT32_MAX))))
        if self.found and self.solution is None:
            block = wasm.Block(self._rt, 4 * self.n_seg)
            start = int(self._rt.call("sc_beam_solution", self._s, block.address))
            dirs = array("i")
            dirs.frombytes(self._rt.read(block.address, 4 * self.n_seg))
            block.free()
            self.solution = (start, tuple(dirs))
        return done

    @property
    def done(self) -> bool:
        return bool(self._rt.call("sc_beam_done", self._s))

    @property
    def found(self) -> bool:
        return bool(self._rt.call("sc_beam_found", self._s))

    @property
    def complete(self) -> bool:
        return bool(self._rt.call("sc_beam_complete", self._s))

    @property
    def nodes(self) -> int:
        return int(self._rt.call("sc_beam_nodes", self._s))

    @property
    def level(self) -> int:
        return int(self._rt.call("sc_beam_level", self._s))

    @property
    def ncur(self) -> int:
        return int(self._rt.call("sc_beam_folds", self._s))
