"""Bad calls of every compiled class, run in a child process by tests/test_boundary.py.

``python boundary.py CLASS [MODULE.wasm]`` makes CLASS (from the native extension, or with a
module path, from ``search.loops`` on that WebAssembly module run by Node) with sound
arguments, then tries each bad call of its list and prints one JSON object: each case's name
and what it raised (``"ValueError: ..."``), or ``"accepted"``. A case that crashes the loop
kills the child with a signal, which the parent sees in the exit code.
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

import snakecube as sc
from snakecube import compiled, wasm
from snakecube.search import kernel, loops
from snakecube.search.first import beam as beam_member
from snakecube.search.first import restarts
from snakecube.search.options import DEFAULT_PRUNE, FIRST_FEWEST_WAYS
from snakecube.search.plan import end_colour
from snakecube.search.problem import Problem

BIG = 10**6
HUGE = 2**40  # past any int32
SNAKE = sc.Snake.parse("standard")
BOX = sc.Box(3, 3, 3)

Case = tuple[str, Callable[[], object]]


def _swap(values: Any, i: int, value: int, code: str) -> array[int]:
    out = array(code, values)
    out[i] = value
    return out


def _again(search: Any, args: dict[str, Any]) -> Any:
    """``search`` made again with sound ``args``: refused (it would free the state under a
    run that holds it)."""
    search.__init__(*args.values())
    return search.run(5)


def first_cases(mod: Any) -> list[Case]:
    nb, colours = restarts._loop_arrays(BOX)
    lengths = array("i", SNAKE.lengths)
    ec = end_colour(BOX, 0)

    first_sound = {
        "nb": nb,
        "colour": colours,
        "lengths": lengths,
        "start": 0,
        "end_colour": ec,
        "seed": 1,
        "checks": 0,
        "end": -1,
    }

    def make(**kw: Any) -> Any:
        return mod.FirstSearch(*{**first_sound, **kw}.values())

    arms = {"nb": nb, "colour": colours, "lengths": lengths, "pivot": 1, "start": 0}
    arms |= {"first_colour": colours[0], "seed": 1, "checks": FIRST_FEWEST_WAYS}

    def pushed(d: int, times: int = 1) -> Any:
        search = make()
        for _ in range(times):
            search.push(d)
        return search

    return [
        ("start past the cells", lambda: make(start=BIG)),
        ("start negative", lambda: make(start=-1)),
        ("start past int32", lambda: make(start=HUGE)),
        ("end past the cells", lambda: make(end=BIG)),
        ("end_colour 5", lambda: make(end_colour=5)),
        ("unknown checks", lambda: make(checks=1 << 20)),
        ("negative seed", lambda: make(seed=-1)),
        ("one-element nb", lambda: make(nb=array("i", [0]))),
        ("empty nb", lambda: make(nb=array("i"))),
        ("nb value past the cells", lambda: make(nb=_swap(nb, 3, BIG, "i"))),
        ("nb value below -1", lambda: make(nb=_swap(nb, 3, -BIG, "i"))),
        ("short colour", lambda: make(colour=array("i", [0]))),
        ("colour 7", lambda: make(colour=_swap(colours, 0, 7, "i"))),
        ("length 1", lambda: make(lengths=_swap(lengths, 0, 1, "i"))),
        ("length past the cells", lambda: make(lengths=_swap(lengths, 0, BIG, "i"))),
        ("no segments", lambda: make(lengths=array("i"))),
        ("push a huge direction", lambda: make().push(BIG)),
        ("push a negative direction", lambda: make().push(-1)),
        ("push out of the box", lambda: make().push(1)),  # -x from the corner (0, 0, 0)
        ("push out of the box later", lambda: pushed(0, 2)),  # +x twice: the second leaves
        ("window direction 9", lambda: make().set_window(9, 1)),
        ("window width -1", lambda: make().set_window(0, -1)),
        ("short layers", lambda: make().set_layers([0], 1)),
        ("layer past the cells", lambda: make().set_layers([BIG] * 27, 1)),
        ("a huge node budget", lambda: make().run(10**30)),
        ("not made", lambda: mod.FirstSearch.__new__(mod.FirstSearch).run(5)),
        ("made again", lambda: _again(make(), first_sound)),
        (
            "arms: pivot past the segments",
            lambda: mod.ArmsSearch(nb, colours, lengths, BIG, 0, 0, 1, FIRST_FEWEST_WAYS),
        ),
        (
            "arms: start past the cells",
            lambda: mod.ArmsSearch(nb, colours, lengths, 1, BIG, 0, 1, FIRST_FEWEST_WAYS),
        ),
        (
            "arms: one-element nb",
            lambda: mod.ArmsSearch(
                array("i", [0]), colours, lengths, 1, 0, 0, 1, FIRST_FEWEST_WAYS
            ),
        ),
        (
            "arms: first colour 4",
            lambda: mod.ArmsSearch(nb, colours, lengths, 1, 0, 4, 1, FIRST_FEWEST_WAYS),
        ),
        ("arms: made again", lambda: _again(mod.ArmsSearch(*arms.values()), arms)),
    ]


def segment_cases(mod: Any) -> list[Case]:
    problem = Problem.build(SNAKE, BOX)
    t = kernel.Tables(problem)
    n_seg = len(problem.lengths)
    sound = {
        "lidx": t.lidx,
        "rmask": t.rmask,
        "rend": t.rend,
        "rhalo": t.rhalo,
        "nbmask": t.nbmask,
        "placed_after": t.placed_after,
        "colours": t.colours,
        "words": t.words,
        "dirs": array("q", [0] * n_seg),
        "head": 0,
        "occ": array("Q", [1]),
        "base": 0,
        "flags": DEFAULT_PRUNE,
        "min_free": 40,
        "end_colour": end_colour(BOX, 0),
        "max_out": 64,
        "multiword": False,
    }

    def make(**kw: Any) -> Any:
        return mod.SegmentSearch(*{**sound, **kw}.values())

    return [
        ("head past the cells", lambda: make(head=10**7)),
        ("head past int32", lambda: make(head=HUGE)),
        ("one-element dirs", lambda: make(dirs=array("q", [0]))),
        ("prefix direction 9", lambda: make(dirs=array("q", [9] * n_seg), base=2)),
        ("base past the segments", lambda: make(base=BIG)),
        ("words 0", lambda: make(words=0)),
        ("words 5", lambda: make(words=5)),
        ("short nbmask", lambda: make(nbmask=array("Q", [0]))),
        (
            "nbmask with a cell past the region",
            lambda: make(nbmask=_swap(t.nbmask, 0, 1 << 40, "Q")),
        ),
        ("lidx past the lengths", lambda: make(lidx=_swap(t.lidx, 0, 99, "q"))),
        ("rend past the cells", lambda: make(rend=_swap(t.rend, 5, BIG, "q"))),
        ("short rmask", lambda: make(rmask=array("Q", [0]))),
        ("rhalo with a cell past the region", lambda: make(rhalo=_swap(t.rhalo, 0, 1 << 63, "Q"))),
        ("short placed_after", lambda: make(placed_after=array("q", [0]))),
        ("short occ", lambda: make(occ=array("Q"))),
        ("max_out 0", lambda: make(max_out=0)),
        ("unknown flags", lambda: make(flags=1 << 20)),
        ("end colour 3", lambda: make(end_colour=3)),
        ("a shift past the cells", lambda: make().set_shifts([BIG] * 6, array("Q", [0] * 6))),
        ("short has", lambda: make().set_shifts([1] * 6, array("Q", [0]))),
        (
            "has with a cell past the region",
            lambda: make().set_shifts([1] * 6, array("Q", [1 << 60] * 6)),
        ),
        ("more placements than kept", lambda: make().placements(BIG)),
        ("a huge node budget", lambda: make().run(10**30)),
        ("not made", lambda: mod.SegmentSearch.__new__(mod.SegmentSearch).run(5)),
        ("made again", lambda: _again(make(), sound)),
    ]


def beam_cases(mod: Any) -> list[Case]:
    problem = Problem.build(SNAKE, BOX)
    nb, colours = restarts._loop_arrays(BOX)
    shifts = beam_member._shifts(problem)
    assert shifts is not None
    offsets, has = shifts
    sound = {
        "n": 27,
        "nb": nb,
        "colour": colours,
        "lengths": array("i", SNAKE.lengths),
        "starts": array("i", [0]),
        "offsets": offsets,
        "has": has,
        "width": 8,
        "score_kind": 0,
        "seed": 1,
    }

    def make(**kw: Any) -> Any:
        return mod.Beam(*{**sound, **kw}.values())

    return [
        ("more cells than a beam holds", lambda: make(n=BIG)),
        ("n not the cells", lambda: make(n=20)),
        ("one-element nb", lambda: make(nb=array("i", [0]))),
        ("nb value past the cells", lambda: make(nb=_swap(nb, 0, BIG, "i"))),
        ("start past the cells", lambda: make(starts=array("i", [BIG]))),
        ("no starts", lambda: make(starts=array("i"))),
        ("two offsets", lambda: make(offsets=[1, 2])),
        ("an offset past the cells", lambda: make(offsets=[BIG] * 6)),
        ("three words of has", lambda: make(has=[0, 0, 0])),
        ("has with a cell past the region", lambda: make(has=[1 << 63] * 12)),
        ("width 0", lambda: make(width=0)),
        ("width past the widest", lambda: make(width=10**9)),
        ("score kind 7", lambda: make(score_kind=7)),
        ("length 1", lambda: make(lengths=array("i", [1] * 17))),
        ("negative seed", lambda: make(seed=-1)),
        ("a huge budget", lambda: make().run(10**30)),
        ("not made", lambda: mod.Beam.__new__(mod.Beam).run(5)),
        ("made again", lambda: _again(make(), sound)),
    ]


def paths_cases(mod: Any) -> list[Case]:
    import numpy as np

    from snakecube.census.units import _tables

    region = sc.Box(2, 2, 3)
    n = region.volume
    nb, nbmask, ring, syms = (
        np.array(t, dtype=dt)
        for t, dt in zip(_tables(region), (np.int64, np.uint64, np.uint64, np.int64), strict=True)
    )
    zeros = np.zeros(n + 1, np.int64)
    sound = {
        "nb": nb,
        "nbmask": nbmask,
        "ring": ring,
        "syms": syms,
        "path": zeros.copy(),
        "dirs": zeros.copy(),
        "run": zeros.copy(),
        "maxrun": n,
        "base": 1,
        "keys": np.zeros(8, np.uint64),
        "fixed": np.zeros(8, np.uint8),
    }

    def make(**kw: Any) -> Any:
        return mod.PathKeys(*{**sound, **kw}.values())

    def path_with(value: int) -> Any:
        path = zeros.copy()
        path[0] = value
        return path

    return [
        ("one-element nb", lambda: make(nb=nb[:1].copy())),
        ("nb value past the cells", lambda: make(nb=np.full(6 * n, BIG, np.int64))),
        ("base 0", lambda: make(base=0)),
        ("base past the cells", lambda: make(base=BIG)),
        ("a prefix cell past the region", lambda: make(path=path_with(BIG))),
        ("short path", lambda: make(path=zeros[:2].copy())),
        ("no keys", lambda: make(keys=np.zeros(0, np.uint64))),
        ("fewer flags than keys", lambda: make(fixed=np.zeros(1, np.uint8))),
        ("65 cells", lambda: make(nbmask=np.zeros(65, np.uint64))),
        ("syms past the cells", lambda: make(syms=np.full(n, BIG, np.int64))),
        ("ring with a cell past the region", lambda: make(ring=np.full(n, 1 << 40, np.uint64))),
        ("not made", lambda: mod.PathKeys.__new__(mod.PathKeys).run(5)),
    ]


def turns_cases(mod: Any) -> list[Case]:
    solution = sc.solve("standard").solutions[0]
    cells = [tuple(c) for c in solution.cells]
    lengths = list(SNAKE.lengths)
    goal = [0] * (len(lengths) - 1)
    far = [(x, y, z + 500) for x, y, z in cells]  # far from the origin: fine, it is moved
    return [
        ("a segment of 1 cube", lambda: mod.TurnSearch([1, *lengths[1:]], cells, goal)),
        ("too few cells", lambda: mod.TurnSearch(lengths, cells[:5], goal)),
        (
            "cells not neighbours",
            lambda: mod.TurnSearch(lengths, cells[::-1][:1] + cells[1:], goal),
        ),
        ("a short goal", lambda: mod.TurnSearch(lengths, cells, goal[:2])),
        ("a goal state 7", lambda: mod.TurnSearch(lengths, cells, [7] * len(goal))),
        ("34 segments", lambda: mod.TurnSearch([2] * 34, [(i, 0, 0) for i in range(35)], [0] * 33)),
        (
            "far from the origin, then a bad goal",
            lambda: (
                mod.TurnSearch(lengths, far, goal).min_turns(False, 0, 1000),
                mod.TurnSearch(lengths, far, [9] * len(goal)),
            ),
        ),
        ("not made", lambda: mod.TurnSearch.__new__(mod.TurnSearch).min_turns(False, 0, 10)),
    ]


CASES = {
    "FirstSearch": ("loops", first_cases),
    "SegmentSearch": ("loops", segment_cases),
    "Beam": ("loops", beam_cases),
    "PathKeys": ("paths", paths_cases),
    "TurnSearch": ("turns", turns_cases),
}


def main(argv: list[str]) -> None:
    name, module = argv[0], (Path(argv[1]) if len(argv) > 1 else None)
    extension, cases = CASES[name]
    if module is None:
        mod = compiled.extension(extension)
    else:
        from wasmnode import NodeRuntime

        wasm.install(NodeRuntime(module))
        mod = loops
    results = {}
    for case, call in cases(mod):
        try:
            call()
        except Exception as err:
            results[case] = f"{type(err).__name__}: {err}"
        else:
            results[case] = "accepted"
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
