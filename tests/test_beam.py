"""The beam member of the first-solution portfolio (search.first.BeamMember, _loops.Beam).

A beam never reports a wrong fold (the solution is checked here against an independent brute
force and by ``Solution.verify``), and its checks are exact: a beam wide enough never to drop
a fold is a breadth-first search of the whole tree, so it must find a fold exactly when the
brute force has one, and prove "no fold" otherwise.
"""

from __future__ import annotations

import random
from array import array
from collections import defaultdict

import pytest

import snakecube as sc
from bruteforce import box_cells, hamiltonian_paths, lengths_of
from snakecube.cli import main
from snakecube.designs import design_of, random_path
from snakecube.search import first, loops
from snakecube.search.problem import Problem

needs_beam = pytest.mark.skipif(first.beam._loops is None, reason="the compiled beam is not built")


def _paths(box: sc.Box) -> dict[tuple[int, ...], set[tuple[int, ...]]]:
    """Every Hamiltonian path of the box by brute force, by segment lengths (either way)."""
    index = {c: i for i, c in enumerate(box.cells)}
    by_lengths: dict[tuple[int, ...], set[tuple[int, ...]]] = defaultdict(set)
    for p in hamiltonian_paths(box_cells(*box.dims)):
        by_lengths[lengths_of(p)].add(tuple(index[c] for c in p))
    return by_lengths


def _beam(problem: Problem, width: int, score: int, seed: int, starts=None):
    """A beam from the first end, not run yet."""
    from snakecube.search import _loops  # type: ignore[attr-defined]

    member = first.beam.BeamMember(problem, seed)
    return _loops.Beam(
        problem.ncells,
        member.nb,
        member.colours,
        array("i", problem.lengths),
        array("i", starts if starts is not None else range(problem.ncells)),
        member.offsets,
        member.has,
        width,
        score,
        seed,
    )


def _run(problem: Problem, width: int, score: int, seed: int, starts=None):
    """One beam from the first end: (found cells or None, complete)."""
    beam = _beam(problem, width, score, seed, starts)
    while not beam.run(1000):
        pass
    if not beam.found:
        return None, bool(beam.complete)
    start, dirs = beam.solution
    cells = [start]
    for k, d in enumerate(dirs):
        for _ in range(problem.lengths[k] - 1):
            cells.append(problem.neighbours[cells[-1]][d])
    return tuple(cells), bool(beam.complete)


def _random_lengths(rng: random.Random, cells: int) -> tuple[int, ...]:
    """A random snake of ``cells`` cubes (most of them do not fold)."""
    out, left = [], cells - 1
    while left:
        step = min(left, rng.choice((1, 1, 1, 2, 2, 3)))
        out.append(step + 1)
        left -= step
    return tuple(out)


@needs_beam
@pytest.mark.parametrize("dims", [(2, 2, 3), (2, 2, 4), (2, 3, 3), (1, 3, 5)])
def test_an_uncut_beam_is_exact_against_brute_force(dims):
    box = sc.Box(*dims)
    by_lengths = _paths(box)
    rng = random.Random(sum(dims))
    designs = list(by_lengths)
    rng.shuffle(designs)
    snakes = designs[:25] + [_random_lengths(rng, box.volume) for _ in range(25)]
    folds = nones = 0
    for lengths in snakes:
        problem = Problem.build(sc.Snake(lengths), box)
        for score in (0, 1):
            cells, complete = _run(problem, 10**6, score, rng.randrange(1 << 32))
            assert complete  # never wider than its width: the whole tree
            solutions = by_lengths.get(lengths, set())
            if solutions:
                assert cells in solutions
                folds += 1
            else:
                assert cells is None
                nones += 1
    assert folds >= 40 and nones >= 10


@needs_beam
@pytest.mark.parametrize("width", [1, 2, 7])
def test_a_narrow_beam_reports_only_true_folds(width):
    box = sc.Box(2, 3, 3)
    by_lengths = _paths(box)
    found = dropped = 0
    for lengths in sorted(by_lengths)[:60]:
        problem = Problem.build(sc.Snake(lengths), box)
        cells, complete = _run(problem, width, width % 2, 5)
        if cells is not None:
            assert cells in by_lengths[lengths]
            found += 1
        else:  # every one of these snakes folds: a beam that died must say it dropped folds
            assert not complete
        dropped += not complete
    assert found > 0 and dropped > 0


def _levels(problem: Problem) -> list[int]:
    """How many folds (cells, head, last axis: the sign of the last segment does not change
    what can follow) pass the beam's three checks at each level, found here by brute force,
    in Python, from the checks as the module states them."""
    nb, n = problem.neighbours, problem.ncells
    colour = [sum(problem.region.cells[c]) & 1 for c in range(n)]

    def alive(occ: frozenset[int], head: int) -> bool:
        free = set(range(n)) - occ
        if not free:
            return True
        ways_in = {c: sum(1 for m in nb[c] if m in free) for c in free}
        near_head = {m for m in nb[head] if m >= 0}
        even = sum(1 for c in free if colour[c] == 0)
        if even != (len(free) // 2 if colour[head] == 0 else (len(free) + 1) // 2):
            return False  # 2: colours
        if len(free) > 1 and any(ways_in[c] == 0 and c not in near_head for c in free):
            return False  # 1: no way in
        ends = [c for c in free if ways_in[c] + (c in near_head) == 1]
        if len(ends) > 1 or not free & near_head:
            return False  # 1: two cells with one way in
        seen, todo = set(), list(free & near_head)
        while todo:  # 3: every free cell reached from the head
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo += [m for m in nb[c] if m in free]
        return seen == free

    def walk(occ: frozenset[int], head: int, d: int, length: int):
        cells = set(occ)
        for _ in range(length - 1):
            head = nb[head][d]
            if head < 0 or head in cells:
                return None
            cells.add(head)
        return frozenset(cells), head

    level: set[tuple[frozenset[int], int, int]] = set()  # (cells, head, last axis)
    for c in range(n):
        for d in range(6):
            child = walk(frozenset({c}), c, d, problem.lengths[0])
            if child and alive(*child):
                level.add((*child, d // 2))
    sizes = [len(level)]
    for length in problem.lengths[1:]:
        nxt = set()
        for occ, head, axis in level:
            for d in range(6):
                child = walk(occ, head, d, length) if d // 2 != axis else None
                if child and alive(*child):
                    nxt.add((*child, d // 2))
        level = nxt
        sizes.append(len(level))
        if not level:
            break
    return sizes


@needs_beam
@pytest.mark.parametrize("dims", [(2, 3, 3), (2, 2, 4), (1, 3, 5)])
def test_an_uncut_beam_keeps_exactly_the_folds_that_pass_its_checks(dims):
    """Level by level, an uncut beam holds as many folds as pass checks 1-3 by brute force
    (a check that is too weak or too strong anywhere changes some level's count)."""
    box = sc.Box(*dims)
    rng = random.Random(11)
    snakes = rng.sample(sorted(_paths(box)), 8) + [
        _random_lengths(rng, box.volume) for _ in range(8)
    ]
    for lengths in snakes:
        problem = Problem.build(sc.Snake(lengths), box)
        beam = _beam(problem, 10**6, 0, 1)
        sizes = []
        while True:
            done = beam.run(1)
            sizes.append(beam.ncur)
            if done:
                break
        assert sizes == _levels(problem)[: len(sizes)], lengths


@needs_beam
@pytest.mark.parametrize("dims", [(2, 3, 3), (2, 2, 4)])
def test_a_beam_is_complete_exactly_when_no_level_outgrows_its_width(dims):
    """Run level by level (run(1) places one segment), an uncut beam shows the most folds any
    level holds; a beam that wide is complete, and every narrower one is not (it drops one,
    inside a group of equal scores or at the edge of one)."""
    box = sc.Box(*dims)
    rng = random.Random(7)
    designs = sorted(_paths(box))
    checked = 0
    for lengths in rng.sample(designs, 12) + [_random_lengths(rng, box.volume) for _ in range(12)]:
        problem = Problem.build(sc.Snake(lengths), box)
        for score in (0, 1):
            beam = _beam(problem, 10**6, score, 3)
            most = 0
            while not beam.run(1):
                most = max(most, beam.ncur)
            most = max(most, beam.ncur)
            assert beam.complete
            if most < 2:
                continue
            widths = {1, 2, most - 1, most, *rng.sample(range(1, most + 1), min(most, 12))}
            for width in sorted(widths):
                narrow = _beam(problem, width, score, 3)
                while not narrow.run(1000):
                    pass
                assert bool(narrow.complete) is (width == most), (lengths, score, width)
            checked += 1
    assert checked >= 20


@needs_beam
def test_the_member_takes_both_ends_and_both_scores_each_round_and_doubles():
    problem = Problem.build(sc.Snake.parse("standard"), sc.Box(3, 3, 3))
    member = first.beam.BeamMember(problem, 3)
    rnd = len(first.beam.BEAM_ROUND)
    plans = [member.plan(k) for k in range(3 * rnd)]
    for r in range(3):
        got = plans[r * rnd : (r + 1) * rnd]
        assert {(end, score) for _, end, score, _ in got} == {(0, 0), (0, 1), (1, 0), (1, 1)}
        assert {w for w, *_ in got} == {first.beam.BEAM_BASE << r}
    assert len({seed for *_, seed in plans}) == len(plans)
    assert first.beam.beam_work(rnd, 10) == 2 * first.beam.beam_work(0, 10)
    assert first.beam.beam_width(10**6) == first.beam.BEAM_WIDEST  # memory stays bounded


@needs_beam
@pytest.mark.parametrize("seed", [1, 2])
def test_beams_fold_random_designs_from_either_end_as_typed(seed):
    box = sc.Box(3, 4, 4)
    path = random_path(box, random.Random(seed))
    snake = design_of([box.cells[c] for c in path])
    member = first.beam.BeamMember(Problem.build(snake, box), seed)
    ends = set()
    for k in range(2 * len(first.beam.BEAM_ROUND)):
        r = member.run(k)
        assert r is not None and r.index == k
        if r.cells is not None:
            sc.Solution(snake, box, r.cells).verify()  # told from cube 1 as typed
            ends.add(r.end)
    assert ends  # a 48-cube design folds within two rounds


@needs_beam
def test_beam_strategy_is_deterministic_across_workers():
    box = sc.Box(3, 5, 5)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(4))])
    one = sc.solve(snake, box, limit=1, strategy="beam", workers=1, seed=2)
    two = sc.solve(snake, box, limit=1, strategy="beam", workers=2, seed=2)
    assert one.engine == two.engine == "beam"
    assert one.solutions[0].cells == two.solutions[0].cells and one.nodes == two.nodes
    one.solutions[0].verify()


@needs_beam
def test_an_uncut_beam_proves_a_snake_does_not_fold():
    # the standard snake with its last two lengths swapped (issue 9's typo)
    r = sc.solve("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2", limit=1, strategy="beam")
    assert r.complete and r.distinct == 0


@needs_beam
def test_a_beam_refuses_a_width_its_child_indices_cannot_hold():
    # each child is sorted as one word, 40 hash bits over a 24-bit index: at most 4 children
    # a fold, so at most 2**22 folds
    problem = Problem.build(sc.Snake((3, 2, 3, 2, 3)), sc.Box(1, 3, 3))
    assert first.beam.BEAM_WIDEST <= loops.BEAM_MAX_WIDTH == 1 << 22
    with pytest.raises(ValueError, match="at most"):
        _beam(problem, (1 << 22) + 1, 0, 0)


def test_auto_adds_the_beam_only_where_it_fits():
    from snakecube.search.inputs import compile_inputs
    from snakecube.search.strategy import choose_members as _members

    # a 3 then 2s: not a bent snake (those get SAT beside the restarts: test_edges.py)
    small = compile_inputs(sc.Snake((3,) + (2,) * 97), sc.Box(4, 5, 5))
    big = compile_inputs(sc.Snake((3,) + (2,) * 141), sc.Box(4, 6, 6))
    got = _members("auto", small, 1, None)
    if first.restarts.AVAILABLE and first.beam._loops is not None:
        assert got == ("restarts", "depth-first", "beam")
    assert "beam" not in _members("auto", big, 1, None)
    assert not first.beam.beam_fits(big.problem)


def test_beam_strategy_refuses_what_it_cannot_do(capsys):
    assert main(["solve", "standard", "--strategy", "beam"]) == 2  # no --first
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "beam" in err
    snake = ",".join(["2"] * 143)
    assert main(["solve", snake, "--box", "4x6x6", "--first", "--strategy", "beam"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "beam" in err


@needs_beam
def test_depth_first_sits_out_where_even_its_better_end_is_hopeless(monkeypatch):
    box = sc.Box(3, 4, 4)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(6))])
    problem = Problem.build(snake, box)

    def runs(members):
        return [
            r for r in first.schedule.search(first.lineup(problem, members, 1), 1) if r is not None
        ]

    sizes = first.depth.end_sizes(problem)
    monkeypatch.setattr(first.depth, "DEPTH_HOPELESS", min(sizes) * 0.99)
    assert not any(isinstance(r, first.depth.Depth) for r in runs(("depth-first", "beam")))
    monkeypatch.setattr(first.depth, "DEPTH_HOPELESS", min(sizes) * 1.01)
    got = runs(("depth-first", "beam"))
    assert isinstance(got[0], first.depth.Depth)  # its first slice weighs less than the first beam
    # alone it always runs, hopeless or not
    monkeypatch.setattr(first.depth, "DEPTH_HOPELESS", 0.0)
    assert isinstance(runs(("depth-first",))[0], first.depth.Depth)
    # the end it takes is the one with the smaller estimate
    assert first.depth.DepthFirst(problem, (2.0, 1.0)).end == 1
    assert first.depth.DepthFirst(problem, (1.0, 2.0)).end == 0


@needs_beam
def test_beams_take_most_of_the_time_where_depth_first_sits_out(monkeypatch):
    """Restarts and beams without depth first (auto left it out as hopeless): a beam weighs
    BEAM_BIAS_HOPELESS times less, so fewer restarts come before each beam; the answer is
    still the same for any number of workers."""
    box = sc.Box(3, 5, 5)
    snake = design_of([box.cells[c] for c in random_path(box, random.Random(4))])
    problem = Problem.build(snake, box)

    def restarts_before_beam(members, k):
        seen = 0
        for r in first.schedule.search(first.lineup(problem, members, 2), 1):
            if isinstance(r, first.beam.Beamed) and r.index == k:
                return seen
            seen += isinstance(r, first.restarts.Restart)
        raise AssertionError("the search ended before that beam")

    monkeypatch.setattr(
        first.beam, "BEAM_BASE", 1500
    )  # small beams: none folds this design at once
    monkeypatch.setattr(first.depth, "DEPTH_HOPELESS", 0.0)  # depth first sits out
    biased = restarts_before_beam(("restarts", "depth-first", "beam"), 3)
    monkeypatch.setattr(first.beam, "BEAM_BIAS_HOPELESS", 1)  # as where depth first runs
    even = restarts_before_beam(("restarts", "depth-first", "beam"), 3)
    assert biased < even
    monkeypatch.setattr(first.beam, "BEAM_BIAS_HOPELESS", 4)
    one = sc.solve(snake, box, limit=1, workers=1, seed=2)
    two = sc.solve(snake, box, limit=1, workers=2, seed=2)
    assert one.engine == two.engine
    assert one.solutions[0].cells == two.solutions[0].cells and one.nodes == two.nodes
    one.solutions[0].verify()


@needs_beam
def test_the_result_names_the_members_that_ran(monkeypatch):
    box = sc.Box(4, 4, 5)
    snake = sc.Snake((2,) * 77 + (3,))  # no fold found within a few thousand nodes
    monkeypatch.setattr(first.depth, "DEPTH_HOPELESS", 0.0)
    r = sc.solve(snake, box, limit=1, workers=1, max_nodes=5_000)
    assert r.engine == "restarts+beam" and r.stop_reason == "nodes"
    monkeypatch.setattr(first.depth, "DEPTH_HOPELESS", 1e30)
    r = sc.solve(snake, box, limit=1, workers=1, max_nodes=5_000)
    assert r.engine == "restarts+depth-first+beam"
