"""The compiled loops as WebAssembly (the static site's ``kernel.wasm``), run by Node through
the same Python classes the browser uses (``search.loops``): the same counts and solutions as
the reference engine on random designs, the same runs as the native build of the same C, and
a module that says which sources it was built from.

Skips, saying why, where clang and wasm-ld (which build the module) or Node are missing;
.ci/run installs them.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import snakecube as sc
from snakecube import compiled, wasm
from snakecube.designs import design_of, random_path
from snakecube.search import first, kernel, loops, reference
from snakecube.search.engine import Stats
from snakecube.search.first import beam as beam_member
from snakecube.search.first import restarts
from snakecube.search.options import ALL_PRUNE, DEFAULT_PRUNE, FIRST_RUNS, FIRST_TAIL
from snakecube.search.plan import Unit, end_colour, make_plan
from snakecube.search.problem import Problem
from snakecube.search.reference import Reference
from snakecube.web import site
from wasmnode import NodeRuntime, node

pytestmark = [
    pytest.mark.skipif(
        not (kernel.AVAILABLE and first.restarts.AVAILABLE),
        reason="the native loops are not built (the WebAssembly ones are compared with them)",
    ),
]
NATIVE = {"kernel": kernel._loops, "first": restarts._loops, "beam": beam_member._loops}


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wasm") / site.KERNEL
    why = site.compile_kernel(out)
    if why is not None:
        pytest.skip(why)
    return out


@pytest.fixture(scope="module")
def runtime(module: Path) -> Iterator[NodeRuntime]:
    if node() is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs; .ci/run has it)")
    rt = NodeRuntime(module)
    wasm.install(rt)
    try:
        yield rt
    finally:
        wasm.install(None)
        rt.close()


@pytest.fixture
def in_wasm(runtime: NodeRuntime, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's modules use the WebAssembly loops, as in the static site."""
    monkeypatch.setattr(kernel, "_loops", loops)
    monkeypatch.setattr(restarts, "_loops", loops)
    monkeypatch.setattr(beam_member, "_loops", loops)


def _design(dims: tuple[int, int, int], seed: int, moves: int | None) -> tuple[sc.Snake, sc.Box]:
    box = sc.Box(*dims)
    path = random_path(box, random.Random(seed), moves=moves)
    return design_of([box.cells[c] for c in path]), box


# Boxes up to 4x4x4, and flat ones.
BOXES = [
    (2, 2, 2),
    (2, 2, 3),
    (2, 3, 3),
    (3, 3, 3),
    (2, 3, 4),
    (3, 3, 4),
    (2, 4, 4),
    (3, 4, 4),
    (4, 4, 4),
    (1, 4, 4),
    (1, 4, 6),
    (1, 5, 6),
    (1, 6, 8),
    (1, 7, 9),
]
designs = st.builds(
    _design,
    st.sampled_from(BOXES),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 3, 10, 30]),
)


# Each design's solve makes hundreds of calls of the loops, each some 17 round trips to Node:
# 8 designs here (the same 8 each run: the suite's hypothesis profile is derandomized); every
# flag and loop on three fixed designs below.
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(design=designs)
def test_counts_and_solutions_are_the_references(
    design: tuple[sc.Snake, sc.Box], runtime: NodeRuntime
) -> None:
    snake, box = design
    native = sc.solve(snake, box, workers=1, engine="kernel")
    assume(native.nodes <= 10_000)  # the reference engine's time, not the module's
    want = sc.solve(snake, box, workers=1, engine="reference")  # no pruning: the definition
    pruned = sc.solve(snake, box, workers=1, engine=Reference(prune=DEFAULT_PRUNE))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(kernel, "_loops", loops)
        got = sc.solve(snake, box, workers=1, engine="kernel")
    assert got.complete and want.complete
    counts = (got.placements, got.distinct, got.distinct_up_to_reversal)
    assert counts == (want.placements, want.distinct, want.distinct_up_to_reversal)
    assert [s.path for s in got.solutions] == [s.path for s in want.solutions]
    assert got.nodes == pruned.nodes == native.nodes  # the same pruning visits the same nodes


def _placements(search, problem: Problem, **kw: object) -> tuple[list[tuple[int, ...]], int]:
    stats = Stats()
    out: list[tuple[int, ...]] = []
    for unit in make_plan(problem).units:
        out += [x for x in search(problem, unit, stats, **kw) if x is not None]
    return out, stats.nodes


def test_every_flag_and_loop_as_the_reference_on_27_72_and_132_cells(in_wasm: None) -> None:
    # One word (3x3x3), a 128-bit pair (72 cells) and three words (132 cells): the same
    # placements and nodes as the reference with the same pruning, in each loop.
    targets = [(sc.Snake.parse("standard"), sc.Box(3, 3, 3))]
    targets += [_design(dims, 2, 30) for dims in ((1, 8, 9), (1, 11, 12))]
    for snake, box in targets:
        problem = Problem.build(snake, box)
        for flags in range(ALL_PRUNE + 1):
            want = _placements(reference.search, problem, prune=flags, min_free=0)
            assert want[0], box
            for loop in ({"shifted": True}, {"shifted": False}, {"multiword": True}):
                got = _placements(kernel.search, problem, flags=flags, min_free=0, **loop)
                assert got == want, (box, flags, loop)


def test_big_counts_in_slices_as_native(in_wasm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The king (64 cells) and a 5x5x5 design (the 128-bit loop), in slices of odd sizes: the
    # same placements and nodes as the native build of the same C.
    for snake, box in [(sc.Snake.parse("king"), sc.Box(4, 4, 4)), _design((5, 5, 5), 5, 30)]:
        problem = Problem.build(snake, box)
        got = _placements(kernel.search, problem, max_nodes=77_777)
        monkeypatch.setattr(kernel, "_loops", NATIVE["kernel"])
        assert got == _placements(kernel.search, problem, max_nodes=77_777) and got[0]
        monkeypatch.setattr(kernel, "_loops", loops)


def _every_start(problem: Problem, make) -> set[tuple[int, ...]]:
    """Every path a first-solution search lists, run to the end of its tree from every cell
    it can start on (going on after each solution)."""
    found = set()
    for cell in range(problem.ncells):
        try:
            search = make(cell)
        except ValueError:  # a middle-out search refuses a cell of the wrong colour
            continue
        while True:
            search.run(10**9)
            if not search.found:
                break
            path = [search.first_cell()]
            for k, d in enumerate(search.directions()):
                for _ in range(problem.lengths[k] - 1):
                    path.append(problem.neighbours[path[-1]][d])
            found.add(tuple(path))
        assert search.finished
    return found


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    dims=st.sampled_from([(2, 2, 2), (2, 2, 3), (2, 3, 3), (3, 3, 3), (1, 4, 5), (2, 3, 4)]),
    seed=st.integers(0, 2**32 - 1),
    order=st.integers(1, 2**64 - 1),
)
def test_first_solution_searches_list_every_placement(
    dims: tuple[int, int, int], seed: int, order: int, runtime: NodeRuntime
) -> None:
    snake, box = _design(dims, seed, None)
    problem = Problem.build(snake, box)
    want = set()
    for cell in range(problem.ncells):  # every placement from every cell, by the reference
        for dirs in reference.search(problem, Unit(cell, (), 0)):
            if dirs is not None:
                want.add(tuple(problem.path(cell, dirs)))
    nb, colours = restarts._loop_arrays(box)
    lengths = array("i", problem.lengths)
    pivot = restarts.pivots_of(problem.lengths)[0]
    cubes = sum(n - 1 for n in problem.lengths[:pivot])
    for mod in (loops, NATIVE["first"]):
        from_end = _every_start(
            problem,
            lambda c, m=mod: m.FirstSearch(
                nb,
                colours,
                lengths,
                c,
                end_colour(box, c),
                order,
                restarts.ALL_CHECKS | FIRST_TAIL | FIRST_RUNS,
            ),
        )
        middle_out = _every_start(
            problem,
            lambda c, m=mod: m.ArmsSearch(
                nb,
                colours,
                lengths,
                pivot,
                c,
                colours[c] ^ (cubes & 1),
                order,
                restarts.ARMS_CHECKS | FIRST_TAIL,
            ),
        )
        assert from_end == want and middle_out == want, mod.__name__


def test_restarts_and_beams_run_as_native(in_wasm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same C in both builds: the same nodes, ends and solutions, run by run, on designs
    # that use every kind of restart (sweeps, middle out) and both ends of a beam.
    designs = [_design((4, 4, 5), 3, None), _design((5, 5, 5), 0, None)]
    for snake, box in designs:
        problem = Problem.build(snake, box)
        runs = {}
        for name in ("wasm", "native"):
            if name == "native":
                monkeypatch.setattr(restarts, "_loops", NATIVE["first"])
                monkeypatch.setattr(beam_member, "_loops", NATIVE["beam"])
            portfolio = first.restarts.Portfolio(problem, seed=7, base=2_000)
            beams = first.beam.BeamMember(problem, seed=7)
            runs[name] = (
                [portfolio.restart(i) for i in range(16)],
                [_small_beam(beams, k) for k in range(4)],
            )
        assert runs["wasm"] == runs["native"]
        monkeypatch.setattr(restarts, "_loops", loops)
        monkeypatch.setattr(beam_member, "_loops", loops)


def _small_beam(member: first.beam.BeamMember, k: int) -> tuple[object, ...]:
    _width, end, score, seed = member.plan(k)
    problem = member.problem
    lengths = problem.lengths[::-1] if end else problem.lengths
    b = beam_member._loops.Beam(
        problem.ncells,
        member.nb,
        member.colours,
        array("i", lengths),
        member.starts,
        member.offsets,
        member.has,
        300 + 100 * k,
        score,
        seed,
    )
    steps = []
    while not b.run(5_000):
        steps.append((b.nodes, b.level, b.ncur))
    return tuple(steps), b.found, b.complete, b.nodes, b.level, b.solution


def test_a_site_builds_its_module_from_the_sources_it_records(
    module: Path, runtime: NodeRuntime, tmp_path: Path
) -> None:
    again = tmp_path / "again.wasm"
    assert site.compile_kernel(again) is None
    assert again.read_bytes() == module.read_bytes()  # deterministic: a rebuild compares
    address = runtime.call("sc_source_hash") & 0xFFFFFFFF
    assert runtime.read(address, 64).decode() == site.source_hash()


def test_the_module_allocates_and_frees_blocks(runtime: NodeRuntime) -> None:
    rng = random.Random(4)
    live: dict[int, bytes] = {}
    for _ in range(300):
        if live and rng.random() < 0.45:
            address = rng.choice(sorted(live))
            assert runtime.read(address, len(live[address])) == live.pop(address)  # intact
            runtime.call("sc_free", address)
        else:
            data = rng.randbytes(rng.choice([1, 16, 100, 5000, 70_000]))
            address = runtime.call("sc_alloc", len(data)) & 0xFFFFFFFF
            assert address % 16 == 0 and address
            runtime.write(address, data)
            live[address] = data
    for address, data in live.items():
        assert runtime.read(address, len(data)) == data
        runtime.call("sc_free", address)
    a = runtime.call("sc_alloc", 1 << 20)
    runtime.call("sc_free", a)
    b = runtime.call("sc_alloc", 1 << 20)
    assert 0 < b <= a  # freed memory is reused (merged chunks may fit it lower down)
    runtime.call("sc_free", b)


def test_the_classes_refuse_what_the_native_ones_refuse(runtime: NodeRuntime) -> None:
    box = sc.Box(2, 2, 3)
    nb, colours = restarts._loop_arrays(box)
    lengths = array("i", [3, 2, 3, 2, 2, 2, 2])
    for mod in (loops, NATIVE["first"]):
        with pytest.raises(ValueError, match="pivot segment 9"):
            mod.ArmsSearch(nb, colours, lengths, 9, 0, 0, 1, restarts.ARMS_CHECKS)
        search = mod.FirstSearch(nb, colours, lengths, 0, end_colour(box, 0), 1, 0)
        with pytest.raises(ValueError, match="a layer number"):
            search.set_layers([0] * 11, 1)
        with pytest.raises(TypeError):
            mod.ArmsSearch(nb, colours, lengths, 1, 1, colours[1], 1, 0).push(0)


def test_an_end_colour_of_minus_one_lets_no_cell_be_the_end(runtime: NodeRuntime) -> None:
    """From an end, ``end_colour`` -1 means no cell may be the snake's last (a colour is 0 or
    1), in the dead-end test as in the forced passages: the standard snake's tree then holds
    no placement, while its true end colour finds one (a reviewer found -1 read as "any")."""
    box = sc.Box(3, 3, 3)
    nb, colours = restarts._loop_arrays(box)
    lengths = array("i", sc.Snake.parse("standard").lengths)
    for mod in (loops, NATIVE["first"]):
        for colour, found in ((end_colour(box, 0), True), (-1, False)):
            search = mod.FirstSearch(nb, colours, lengths, 0, colour, 1, 0)
            search.run(10**6)
            assert (search.found, search.finished or search.found) == (found, True), mod.__name__


def test_compiled_uses_the_module_only_where_no_extension_is_built(runtime: NodeRuntime) -> None:
    assert compiled.extension("loops") is NATIVE["kernel"]  # built here: the extension
    assert set(compiled.IN_WASM) <= set(compiled.EXTENSIONS)
    assert wasm.runtime() is runtime
