"""The compiled kernel keeps the reference's contract: same placements, same order, any size;
every pruning setting and both loops agree; parallel runs equal single-process runs."""

from __future__ import annotations

import random

import pytest

import snakecube as sc
from conftest import prepare
from corpus import load_known
from snakecube.designs import design_of, random_path
from snakecube.search import first, kernel, options, reference
from snakecube.search.engine import Stats
from snakecube.search.options import ALL_PRUNE, DEAD_END, DEFAULT_PRUNE, PARITY, TAIL
from snakecube.search.plan import Unit, make_plan

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="the kernel extension is not built")

SMALL = [p for p in load_known()["puzzles"] if p["box"] == [3, 3, 3]]
# The loops of the kernel: the register loop (up to 128 cells) with its dead-end step on
# shifted masks (boxes) and one cell at a time, and the any-size array loop.
LOOPS = ({"shifted": True}, {"shifted": False}, {"multiword": True})


def _all(engine_search, problem, plan, **kw):
    out = []
    for u in plan.units:
        out += [x for x in engine_search(problem, u, **kw) if x is not None]
    return out


@pytest.mark.parametrize("puzzle", SMALL, ids=lambda p: p["name"])
def test_same_placements_in_the_same_order(puzzle):
    problem, plan = prepare(puzzle["turns"])
    want = _all(reference.search, problem, plan)
    for flags in range(ALL_PRUNE + 1):  # every combination of the pruning flags
        for loop in LOOPS:
            got = _all(kernel.search, problem, plan, flags=flags, min_free=0, **loop)
            assert got == want, (flags, loop)


def _nodes_and_placements(engine_search, problem, plan, **kw):
    stats = Stats()
    placements = _all(engine_search, problem, plan, stats=stats, **kw)
    return stats.nodes, placements


@pytest.mark.parametrize("flags", range(ALL_PRUNE + 1))
def test_reference_with_pruning_visits_the_kernels_nodes(flags):
    # Same nodes, not only the same placements: scores made from node counts must not depend
    # on the engine. Each loop for real, and the many-word loop forced on each: 3x3x3 (one
    # 64-bit word), a 1x8x9 design (72 cells: a 128-bit pair) and a 1x11x12 one (132 cells:
    # three words).
    rng = random.Random(2)
    targets: list[tuple[object, object]] = [("seed-orange", None), ("standard", None)]
    for dims in ((1, 8, 9), (1, 11, 12)):
        box = sc.Box(*dims)
        targets.append((design_of([box.cells[c] for c in random_path(box, rng, moves=30)]), box))
    for text, target in targets:
        problem, plan = prepare(text, target)
        want = _nodes_and_placements(reference.search, problem, plan, prune=flags, min_free=0)
        assert want[1], text
        for loop in LOOPS:
            got = _nodes_and_placements(
                kernel.search, problem, plan, flags=flags, min_free=0, **loop
            )
            assert got == want, (text, flags, loop)


def test_fully_mixed_design_past_one_word_visits_the_references_nodes():
    # A fully mixed random design of 70 cells (the 128-bit loop): the tail check runs at most
    # nodes there, and the loop reuses the fit it found at the node above (its witness), so a
    # wrong reuse would show as nodes the reference does not visit.
    box = sc.Box(2, 5, 7)
    path = random_path(box, random.Random(1))
    problem, plan = prepare(design_of([box.cells[c] for c in path]), box)
    want = _nodes_and_placements(reference.search, problem, plan, prune=DEFAULT_PRUNE)
    got = _nodes_and_placements(kernel.search, problem, plan, flags=DEFAULT_PRUNE)
    assert got == want and want[0] > 100_000 and want[1]


def test_the_tail_check_cuts_nodes_and_no_placement():
    # Once a cell can only hold the last cube, the last segments must fit back from it: on
    # the king that halves the nodes and keeps every placement, in order.
    problem, plan = prepare("king")
    base = DEAD_END | PARITY
    without = _nodes_and_placements(kernel.search, problem, plan, flags=base)
    with_tail = _nodes_and_placements(kernel.search, problem, plan, flags=base | TAIL)
    assert with_tail[1] == without[1] and without[1]
    assert with_tail[0] < 0.6 * without[0]
    assert base | TAIL == DEFAULT_PRUNE


def test_unreduced_search_from_every_cell():
    problem, _ = prepare("seed-orange")
    for cell in range(problem.ncells):
        unit = Unit(cell, (), 0)
        want = [x for x in reference.search(problem, unit) if x]
        assert [x for x in kernel.search(problem, unit) if x] == want


@pytest.mark.parametrize("seed", [1, 3, 4, 5])
def test_random_designs_beyond_one_word(seed):
    # Paths 30 backbite moves from a serpentine keep long straights, so these designs
    # (in 5x5x3 and 5x5x5 boxes) are solved completely in well under a second.
    rng = random.Random(seed)
    dims = rng.choice([(3, 4, 6), (5, 5, 3), (2, 6, 6), (3, 3, 8), (5, 5, 5)])
    box = sc.Box(*dims)
    assert box.volume > 64
    path = random_path(box, rng, moves=30)
    snake = design_of([box.cells[c] for c in path])
    whole = sc.solve(snake, box, engine="kernel")
    assert whole.complete and whole.distinct >= 1
    own = sc.Solution(snake, box, tuple(path)).canonical()
    assert own in {s.canonical() for s in whole.solutions}
    first = sc.solve(snake, box, engine="kernel", limit=1)
    assert whole.solutions[0].path == first.solutions[0].path
    for s in whole.solutions:
        s.verify()


def test_shifted_dead_end_step_only_where_every_neighbour_is_one_offset_away():
    # In a box the loop counts free neighbours by shifting masks; in a region whose cells are
    # not a box's numbering (the first 40 cells of a path through a 4x4x4 box) it must fall
    # back to one cell at a time, and still visit the reference's nodes.
    box = sc.Box(4, 4, 4)
    assert kernel.tables_for(prepare("king")[0]).shifts is not None
    path = random_path(box, random.Random(5))[:40]
    cells = [box.cells[c] for c in path]
    region = sc.Region(cells)
    problem, plan = prepare(design_of(cells), region)
    assert kernel.tables_for(problem).shifts is None
    want = _nodes_and_placements(reference.search, problem, plan, prune=DEFAULT_PRUNE)
    got = _nodes_and_placements(kernel.search, problem, plan, flags=DEFAULT_PRUNE)
    assert got == want and want[1]


def test_multiword_loop_equals_single_word_on_the_king_corner():
    problem, plan = prepare("king", start=(0, 0, 0))
    unit = plan.units[0]
    one = [x for x in kernel.search(problem, unit) if x]
    many = [x for x in kernel.search(problem, unit, multiword=True) if x]
    assert one == many and len(one) == 1


def test_slices_resume_exactly():
    problem, plan = prepare("seed-blue")
    want = _all(kernel.search, problem, plan)
    assert _all(kernel.search, problem, plan, max_nodes=7) == want


def test_parallel_equals_single_process():
    a = sc.solve("king", workers=1)
    b = sc.solve("king", workers=2)
    assert a.complete and b.complete
    assert [s.path for s in a.solutions] == [s.path for s in b.solutions]
    assert (a.placements, a.distinct) == (b.placements, b.distinct)
    assert b.workers == 2


def test_king_start_classes():
    # seeds/004: the king folds from a corner (king) and an edge cell (king_1), not king_2.
    r = sc.solve("king")
    by_kind = {c.kind: c.distinct for c in r.start_classes}
    assert by_kind == {"corner": 1, "edge": 3, "face": 0, "inside": 0}
    corner = sc.solve("king", start=(0, 0, 0))
    edge = sc.solve("king", start=(1, 0, 0))
    face = sc.solve("king", start=(0, 1, 1))
    assert (corner.distinct, edge.distinct, face.distinct) == (1, 3, 0)
    rev = sc.solve("king", reverse=True)
    assert rev.placements == r.placements


def test_environment_forces_the_reference(monkeypatch):
    monkeypatch.setenv("SNAKECUBE_ENGINE", "reference")
    assert sc.solve("standard").engine == "reference"
    monkeypatch.setenv("SNAKECUBE_ENGINE", "kernel")
    assert sc.solve("standard").engine == "kernel"
    monkeypatch.delenv("SNAKECUBE_ENGINE")
    assert sc.solve("standard").engine == "kernel"  # automatic: the kernel is built
    monkeypatch.setenv("SNAKECUBE_ENGINE", "turbo")
    with pytest.raises(sc.InputError, match="unknown engine 'turbo'"):
        sc.solve("standard")


def test_plan_splits_for_workers():
    problem, _ = prepare("king")
    plan = make_plan(problem, min_units=32)
    assert len(plan.units) >= 32
    assert len({(u.start, u.prefix) for u in plan.units}) == len(plan.units)


def test_the_c_loops_flags_are_the_options():
    # The C header (csrc/sc.h) repeats search.options' numbers; the wrappers export its values.
    assert kernel._loops is first.restarts._loops is first.beam._loops  # one module
    c_flags = kernel._loops.FLAGS  # type: ignore[union-attr]
    assert c_flags == {name: getattr(options, name) for name in c_flags}
    assert len(c_flags) == 11
