"""The restarts search for first solutions (search.first and its compiled loop).

The compiled loop's pruning must be exact: run to the end of its tree (going on after each
solution), it must list exactly the paths that an independent brute force finds from the
same start cell with the same segment lengths, whatever checks and random order it uses.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

import snakecube as sc
from bruteforce import box_cells, hamiltonian_paths, lengths_of
from snakecube.cli import main
from snakecube.designs import design_of, random_path
from snakecube.search import estimate, first
from snakecube.search import options as flags
from snakecube.search.engine import Stats
from snakecube.search.plan import make_plan
from snakecube.search.problem import Problem

needs_first = pytest.mark.skipif(
    not first.restarts.AVAILABLE, reason="the compiled search is not built"
)


def test_luby_sequence():
    assert [first.restarts.luby(i) for i in range(1, 16)] == [
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        8,
    ]
    with pytest.raises(ValueError):
        first.restarts.luby(0)


def _paths_by_design(box: sc.Box) -> dict[tuple[tuple[int, ...], int], set[tuple[int, ...]]]:
    """Every Hamiltonian path of the box by brute force, by (segment lengths, start cell)."""
    index = {c: i for i, c in enumerate(box.cells)}
    by_design: dict[tuple[tuple[int, ...], int], set[tuple[int, ...]]] = defaultdict(set)
    for p in hamiltonian_paths(box_cells(*box.dims)):
        by_design[lengths_of(p), index[p[0]]].add(tuple(index[c] for c in p))
    return by_design


def _every_path(box, lengths, start, seed, checks, sweep=None) -> set[tuple[int, ...]]:
    """Run the compiled search to the end of its tree, going on after each solution."""
    from array import array

    from snakecube.search import _loops  # type: ignore[attr-defined]
    from snakecube.search.plan import end_colour

    nb = array("i", [y for row in box.neighbours for y in row])
    colours = array("i", [sum(c) & 1 for c in box.cells])
    search = _loops.FirstSearch(
        nb, colours, array("i", lengths), start, end_colour(box, start), seed, checks
    )
    if sweep is not None:  # (direction, width) or (a layer per cell, width)
        (search.set_window if isinstance(sweep[0], int) else search.set_layers)(*sweep)
    return _drain(search, box, lengths, lambda: start)


def _drain(search, box, lengths, first_cell) -> set[tuple[int, ...]]:
    """Every placement a compiled search lists, run to the end of its tree (going on after
    each solution), as cell paths from ``first_cell()`` (asked after each solution)."""
    got = set()
    while True:
        search.run(10**9)
        if search.found:
            cells = [first_cell()]
            for k, d in enumerate(search.directions()):
                for _ in range(lengths[k] - 1):
                    cells.append(box.neighbours[cells[-1]][d])
            got.add(tuple(cells))
        elif search.finished:
            return got


@needs_first
@pytest.mark.parametrize("dims", [(2, 2, 3), (2, 2, 4), (2, 3, 3)])
def test_exhaustive_run_lists_exactly_the_brute_force_paths(dims):
    box = sc.Box(*dims)
    by_design = _paths_by_design(box)
    rng = random.Random(7)
    for lengths, start in rng.sample(sorted(by_design), 40):
        for checks in (0, 1, 2, first.restarts.CHECKS, 7, 8, 16, 31):
            got = _every_path(box, lengths, start, rng.randrange(1, 2**63), checks)
            assert got == by_design[lengths, start], (dims, lengths, start, checks)


def _along(box, direction) -> list[int]:
    """Each cell's layer across ``direction``, from the face it points away from."""
    axis, n = direction >> 1, box.dims[direction >> 1]
    return [c[axis] if direction % 2 == 0 else n - 1 - c[axis] for c in box.cells]


def _from_corner(box, corner) -> list[int]:
    """Each cell's layer as its distance from one corner (diagonal planes)."""
    far = [(n - 1) * ((corner >> i) & 1) for i, n in enumerate(box.dims)]
    return [sum(abs(c[i] - far[i]) for i in range(3)) for c in box.cells]


def _in_sweep(path, lengths, box, layer, width) -> bool:
    """Independent of the kernel: after each segment, do the placed cubes stay within
    ``width`` layers of the first layer with a free cell?"""
    at = 0
    for length in lengths:
        at += length - 1
        placed = path[: at + 1]
        free = set(range(box.volume)) - set(placed)
        if free and max(layer[c] for c in placed) - min(layer[c] for c in free) > width:
            return False
    return True


@needs_first
@pytest.mark.parametrize("dims", [(2, 2, 3), (2, 3, 3), (1, 3, 4)])
@pytest.mark.parametrize("layering", ["across a direction", "from a corner"])
def test_a_sweep_lists_exactly_the_brute_force_paths_within_its_window(dims, layering):
    box = sc.Box(*dims)
    by_design = _paths_by_design(box)
    rng = random.Random(11)
    cut = 0
    for lengths, start in rng.sample(sorted(by_design), min(30, len(by_design))):
        for _ in range(3):
            width = rng.randrange(3)
            if layering == "from a corner":
                layer = _from_corner(box, rng.randrange(8))
                sweep: tuple = (layer, width)
            else:
                direction = rng.randrange(6)
                layer, sweep = _along(box, direction), (direction, width)
            paths = by_design[lengths, start]
            expected = {p for p in paths if _in_sweep(p, lengths, box, layer, width)}
            cut += len(paths) - len(expected)
            got = _every_path(box, lengths, start, 5, 7, sweep)
            assert got == expected, (dims, lengths, start, sweep)
    assert cut > 0  # the window did cut some paths


@needs_first
def test_set_layers_refuses_a_wrong_layering():
    from array import array

    from snakecube.search import _loops  # type: ignore[attr-defined]

    box = sc.Box(2, 2, 3)
    nb = array("i", [y for row in box.neighbours for y in row])
    search = _loops.FirstSearch(nb, array("i", [0] * 12), array("i", [12]), 0, 1, 1, 0)
    for wrong in ([0] * 11, [0] * 11 + [12], [-1] + [0] * 11):
        with pytest.raises(ValueError, match="layer number"):
            search.set_layers(wrong, 1)


@needs_first
@pytest.mark.heavy
def test_restarts_fold_random_designs_and_verify():
    rng = random.Random(3)
    for dims in [(3, 3, 4), (3, 4, 4), (4, 4, 4), (3, 3, 5)]:
        box = sc.Box(*dims)
        path = random_path(box, rng)
        snake = design_of([box.cells[c] for c in path])
        r = sc.solve(snake, box, limit=1, strategy="restarts", workers=1)
        assert r.distinct == 1 and r.engine == "restarts" and r.stop_reason == "limit"
        r.solutions[0].verify()


@needs_first
def test_restarts_are_deterministic_across_workers():
    box = sc.Box(3, 3, 4)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(11))])
    one = sc.solve(snake, box, limit=1, strategy="restarts", workers=1, seed=5)
    two = sc.solve(snake, box, limit=1, strategy="restarts", workers=2, seed=5)
    assert one.solutions[0].cells == two.solutions[0].cells
    assert one.nodes == two.nodes


@needs_first
def test_restarts_prove_an_unfoldable_snake_has_no_solution():
    # the standard snake with its last two lengths swapped (issue 9's typo)
    r = sc.solve("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2", limit=1, strategy="restarts")
    assert r.complete and r.distinct == 0


def test_restarts_refuse_what_they_cannot_do(capsys):
    assert main(["solve", "standard", "--strategy", "restarts", "--start", "0,0,0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "restarts" in err
    assert main(["solve", "standard", "--strategy", "restarts"]) == 2  # no --first


@pytest.mark.heavy
def test_auto_runs_depth_first_beside_the_restarts():
    # A near-serpentine 5x5x5 design (long straights) folds at once depth first, and the
    # zig-zag (every cube a corner) only by the restarts: auto must get both quickly.
    box = sc.Box(5, 5, 5)
    rng = random.Random(5)
    easy = design_of([box.cells[c] for c in random_path(box, rng, moves=30)])
    r = sc.solve(easy, box, limit=1, max_nodes=60_000_000)
    assert r.distinct == 1 and r.stop_reason == "limit"
    zz = sc.solve(sc.Snake((2,) * 124), box, limit=1, max_nodes=60_000_000)
    assert zz.distinct == 1 and zz.engine == "restarts"


def _depth_slices(problem: Problem) -> list[first.depth.Depth]:
    return list(first.depth.DepthFirst(problem).slices_of())


def test_depth_first_member_searches_the_whole_tree_in_slices(monkeypatch):
    # The standard snake with its last two lengths swapped does not fold: the member's slices
    # must add up to the engine's whole tree from its end, and say so at the end.
    monkeypatch.setattr(first.depth, "DEPTH_SLICE", 5)
    snake = sc.Snake.parse("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2")
    member = first.depth.DepthFirst(Problem.build(snake, sc.Box(3, 3, 3)))
    slices = list(member.slices_of())
    problem = member.problem
    stats = Stats()
    for unit in make_plan(problem).units:
        assert not [p for p in member.engine.search(problem, unit, stats) if p is not None]
    assert sum(s.nodes for s in slices) == stats.nodes > 20
    assert [s.index for s in slices] == list(range(len(slices))) and len(slices) >= 2
    assert all(s.nodes >= 5 for s in slices[:-1])
    assert [s.decided for s in slices] == [False] * (len(slices) - 1) + [True]
    assert all(s.cells is None for s in slices)
    r = sc.solve(snake, sc.Box(3, 3, 3), limit=1, strategy="depth-first")
    assert r.complete and r.distinct == 0


@pytest.mark.parametrize("seed", [2, 4, 7])
def test_depth_first_member_folds_from_the_smaller_end(seed):
    # Whichever end it searches from, its solution is told from cube 1 as typed, and it is
    # the first one a depth-first search from that end finds.
    box = sc.Box(3, 3, 4)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(seed))])
    problem = Problem.build(snake, box)
    member = first.depth.DepthFirst(problem)
    walks = first.depth.DEPTH_PROBES
    backwards = Problem.build(snake.reversed(), box)
    ends = [estimate.tree_size(problem, walks), estimate.tree_size(backwards, walks)]
    assert member.end == (1 if ends[1] < ends[0] else 0)
    *_, last = _depth_slices(problem)
    assert last.decided and last.cells is not None
    sc.Solution(snake, box, last.cells).verify()
    alone = sc.solve(
        snake, box, limit=1, strategy="depth-first", workers=1, reverse=bool(member.end)
    )
    cells = alone.solutions[0].path
    assert last.cells == (cells[::-1] if member.end else cells)


@needs_first
def test_auto_is_deterministic_across_workers():
    # 3x5x5 designs: some fall to depth first, some to the restarts first
    box = sc.Box(3, 5, 5)
    engines = set()
    for s in (4, 6):
        snake = design_of([box.cells[c] for c in random_path(box, random.Random(s))])
        one = sc.solve(snake, box, limit=1, workers=1, seed=s)
        two = sc.solve(snake, box, limit=1, workers=2, seed=s)
        assert one.solutions[0].cells == two.solutions[0].cells
        assert (one.nodes, one.engine) == (two.nodes, two.engine)
        engines.add(one.engine)
        one.solutions[0].verify()
    assert engines == {"restarts", "kernel"}  # both compiled, or neither


def test_portfolio_members_are_checked():
    problem = Problem.build(sc.Snake.parse("standard"), sc.Box(3, 3, 3))
    with pytest.raises(ValueError, match="members"):
        first.lineup(problem, ("restarts", "guess"))
    with pytest.raises(ValueError, match="members"):
        first.lineup(problem, ())


needs_portfolio = pytest.mark.skipif(
    not (first.restarts.AVAILABLE and first.sat.available()),
    reason="needs the compiled search and python-sat",
)


@needs_portfolio
def test_portfolio_is_deterministic_across_workers():
    box = sc.Box(3, 3, 4)
    for s in (2, 9):
        snake = design_of([box.cells[c] for c in random_path(box, random.Random(s))])
        one = sc.solve(snake, box, limit=1, strategy="portfolio", workers=1, seed=s)
        two = sc.solve(snake, box, limit=1, strategy="portfolio", workers=2, seed=s)
        assert one.solutions[0].cells == two.solutions[0].cells
        assert (one.nodes, one.engine) == (two.nodes, two.engine)
        assert one.engine in ("restarts", "sat")
        one.solutions[0].verify()


@needs_portfolio
@pytest.mark.parametrize("strategy", ["sat", "portfolio"])
def test_sat_proves_an_unfoldable_snake_has_no_solution(strategy):
    r = sc.solve("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2", limit=1, strategy=strategy, workers=2)
    assert r.complete and r.distinct == 0


@needs_portfolio
def test_sat_member_alone_finds_a_verified_solution():
    box = sc.Box(3, 4, 4)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(8))])
    r = sc.solve(snake, box, limit=1, strategy="sat", workers=2)
    assert r.distinct == 1 and r.engine == "sat" and r.nodes > 0
    r.solutions[0].verify()


@pytest.mark.parametrize("dims", [(3, 3, 3), (2, 3, 4), (4, 4, 5)])
def test_sweep_starts_are_one_per_symmetry_class(dims):
    from snakecube.search.plan import can_start

    box = sc.Box(*dims)
    nb = box.neighbours
    classes = first.restarts._sweep_starts(box, can_start)

    def images(d, c):
        return {(nb[p[c]].index(p[nb[c][d]]), p[c]) for p in box.symmetries}

    valid = {
        (d, c)
        for d in range(6)
        for c in range(box.volume)
        if nb[c][d ^ 1] < 0 and nb[c][d] >= 0 and can_start(box, c)
    }
    covered = [images(d, c) for d, c in classes]
    assert set().union(*covered) == valid
    assert sum(len(s) for s in covered) == len(valid)  # disjoint: one per class


@needs_first
@pytest.mark.parametrize("dims", [(3, 3, 3), (4, 4, 5)])
def test_restarts_take_every_kind_end_and_start_in_turn(dims):
    box = sc.Box(*dims)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(3))])
    portfolio = first.restarts.Portfolio(Problem.build(snake, box), seed=5)
    size = len(first.restarts.ROUND)
    assert portfolio.kinds() == first.restarts.ROUND  # a box has layers, long segments, their cells
    pivot_cells = {(m, c) for m in portfolio.pivots for c in portfolio.pivot_starts[m]}
    pivot_pairs = {(m, c, d) for m in portfolio.pivots for d, c in portfolio.pivot_sweeps[m]}
    rounds = 2 * max(len(portfolio.starts), len(portfolio.sweeps), len(pivot_pairs))
    seen: dict[first.restarts.Kind, list[tuple[int, int, int | None, int | None]]] = defaultdict(
        list
    )
    for i in range(rounds * size):
        end, start, seed, budget, sweep, pivot = portfolio.plan(i)
        assert seed != 0 and budget == first.restarts.budget_of(i)
        assert budget == first.restarts.BASE * first.restarts.luby(
            i // size + 1
        )  # one Luby term per round
        kind = first.restarts.ROUND[i % size]
        assert (sweep is None) == (kind.width is None)
        assert (pivot is None) == (not kind.middle)
        direction = None
        if sweep is not None:
            direction, width = sweep
            assert width == kind.width
        seen[kind].append((end, start, direction, pivot))
    assert set(seen) == set(first.restarts.ROUND)
    free = {(e, s, None, None) for e in (0, 1) for s in portfolio.starts}
    sweeps = {(e, c, d, None) for e in (0, 1) for d, c in portfolio.sweeps}
    for kind, runs in seen.items():
        if kind.middle:  # the pivots in turn, every cell of each
            pivots = [m for _, _, _, m in runs]
            assert pivots[: len(portfolio.pivots)] == portfolio.pivots
            if kind.width is None:
                assert {(m, c) for _, c, _, m in runs} == pivot_cells
            else:
                assert {(m, c, d) for _, c, d, m in runs} == pivot_pairs
            continue
        assert [e for e, _, _, _ in runs[:4]] == [0, 1, 0, 1]  # the ends in turn
        assert set(runs) == (free if kind.width is None else sweeps), kind  # every start


def test_pivots_are_the_long_segments_but_the_first():
    assert first.restarts.pivots_of((4, 2, 3, 4, 2, 5, 2)) == [3, 5]
    assert first.restarts.pivots_of((5, 2, 3, 2, 3)) == [
        2,
        4,
    ]  # none of 4 past the first: the longest
    assert first.restarts.pivots_of((2, 2, 2)) == [1, 2]
    assert first.restarts.pivots_of((3,)) == []


# every combination of the middle-out search's checks (the sweep is tested on its own)
ARM_CHECKS = (0, flags.FIRST_FEWEST_WAYS, flags.FIRST_TAIL, first.restarts.ARMS_CHECKS)


def _every_arm_path(
    box, lengths, pivot, start, first_colour, seed, sweep=None, checks=first.restarts.ARMS_CHECKS
):
    """Run the middle-out search to the end of its tree, going on after each solution."""
    from array import array

    from snakecube.search import _loops  # type: ignore[attr-defined]

    nb = array("i", [y for row in box.neighbours for y in row])
    colours = array("i", [sum(c) & 1 for c in box.cells])
    search = _loops.ArmsSearch(
        nb, colours, array("i", lengths), pivot, start, first_colour, seed, checks
    )
    if sweep is not None:
        search.set_window(*sweep)
    return _drain(search, box, lengths, search.first_cell)


@needs_first
@pytest.mark.parametrize("dims", [(2, 2, 3), (2, 3, 3), (1, 3, 5), (1, 5, 5)])
def test_middle_out_lists_exactly_the_brute_force_paths_through_its_pivot(dims):
    """For every pivot segment and cell: exactly the brute-force paths whose pivot segment
    starts on that cell; with a sweep, only such paths (odd and even volumes)."""
    box = sc.Box(*dims)
    colours = [sum(c) & 1 for c in box.cells]
    index = {c: i for i, c in enumerate(box.cells)}
    by_lengths: dict[tuple[int, ...], set[tuple[int, ...]]] = defaultdict(set)
    for p in hamiltonian_paths(box_cells(*box.dims)):
        by_lengths[lengths_of(p)].add(tuple(index[c] for c in p))
    rng = random.Random(13)
    found = cut = 0
    for lengths in rng.sample(sorted(by_lengths), min(12, len(by_lengths))):
        for pivot in range(len(lengths)):
            cube = sum(length - 1 for length in lengths[:pivot])
            for start in range(box.volume):
                for first_colour in (0, 1):
                    if colours[start] != first_colour ^ (cube & 1):
                        continue
                    expected = {
                        p
                        for p in by_lengths[lengths]
                        if p[cube] == start and colours[p[0]] == first_colour
                    }
                    seed = rng.randrange(1, 2**63)
                    checks = rng.choice(ARM_CHECKS)
                    got = _every_arm_path(
                        box, lengths, pivot, start, first_colour, seed, checks=checks
                    )
                    assert got == expected, (dims, lengths, pivot, start, checks)
                    found += len(got)
                    sweep = (rng.randrange(6), rng.randrange(2))
                    within = _every_arm_path(box, lengths, pivot, start, first_colour, seed, sweep)
                    assert within <= expected
                    cut += len(expected) - len(within)
    assert found > 0 and cut > 0


@needs_first
def test_middle_out_refuses_what_it_cannot_do():
    from array import array

    from snakecube.search import _loops  # type: ignore[attr-defined]

    box = sc.Box(2, 2, 3)
    nb = array("i", [y for row in box.neighbours for y in row])
    colours = array("i", [sum(c) & 1 for c in box.cells])
    lengths = array("i", [3, 2, 3, 2, 3, 2, 2])
    for checks in (first.restarts.ALL_CHECKS, flags.FIRST_RUNS):  # blocks, forced passages, runs
        with pytest.raises(ValueError, match="checks"):
            _loops.ArmsSearch(nb, colours, lengths, 1, 2, 0, 1, checks)
    with pytest.raises(ValueError, match="pivot"):
        _loops.ArmsSearch(nb, colours, lengths, 7, 2, 0, 1, first.restarts.ARMS_CHECKS)
    # pivot 1 starts at cube 3, which has cube 1's colour: not the other one
    with pytest.raises(ValueError, match="colour"):
        _loops.ArmsSearch(nb, colours, lengths, 1, 0, colours[0] ^ 1, 1, first.restarts.ARMS_CHECKS)
    search = _loops.ArmsSearch(
        nb, colours, lengths, 1, 0, colours[0], 1, first.restarts.ARMS_CHECKS
    )
    with pytest.raises(TypeError):
        search.push(0)


@needs_first
def test_a_round_without_pivots_falls_back_to_restarts_from_an_end():
    straight = first.restarts.Portfolio(Problem.build(sc.Snake.from_lengths([3]), sc.Box(1, 1, 3)))
    assert straight.pivots == []  # one segment: nothing to pivot on
    assert all(not kind.middle for kind in straight.kinds())
    r = straight.restart(0)
    assert r.cells is not None and r.pivot is None
    with pytest.raises(ValueError, match="round"):
        first.restarts.Portfolio(straight.problem, kinds=first.restarts.ROUND[:3])


def test_each_member_is_made_by_its_name_and_says_whether_it_can_run():
    problem = Problem.build(sc.Snake.parse("standard"), sc.Box(3, 3, 3))
    assert set(first.KINDS) == set(first.schedule.MEMBERS)
    for name, kind in first.KINDS.items():
        assert kind.name == name
        reason = first.why_not(name, problem)
        assert reason is None or (isinstance(reason, str) and reason)
    assert first.why_not("depth-first", problem) is None
    made = first.lineup(problem, ("depth-first",))
    assert [m.name for m in made] == ["depth-first"] and made[0].persistent
