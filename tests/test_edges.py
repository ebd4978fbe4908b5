"""The edge model (search.edges): snakes whose corners follow the grid's colouring.

Its answers are checked by code that shares nothing with it: the brute force of
tests/bruteforce.py (every Hamiltonian path of a tiny box, from plain coordinates) and the
exhaustive kernel. A "none" from the model is a proof only if the model is exact, so the
tests ask for exactness: its paths are the brute force's, one model each.
"""

from __future__ import annotations

import itertools

import pytest

import snakecube as sc
from bruteforce import box_cells, hamiltonian_paths, lengths_of
from snakecube.search import edges, sat
from snakecube.search.problem import Problem

pytestmark = pytest.mark.skipif(not sat.available(), reason="python-sat is not installed")


def bent(n: int) -> sc.Snake:
    """Every inner cube a corner."""
    return sc.Snake((2,) * (n - 1))


def alternate(n: int, parity: int) -> sc.Snake | None:
    """Corners on the inner cubes i (0-based) with i % 2 == parity; None if n is too short."""
    points = [0, *(i for i in range(1, n - 1) if i % 2 == parity), n - 1]
    if len(points) < 3:
        return None
    return sc.Snake(tuple(b - a + 1 for a, b in itertools.pairwise(points)))


def boxes(most: int) -> list[tuple[int, int, int]]:
    """Every box a <= b <= c of 3 to ``most`` cells."""
    return [
        (a, b, c)
        for a in range(1, 7)
        for b in range(a, 13)
        for c in range(b, 37)
        if 3 <= a * b * c <= most
    ]


def snakes(n: int) -> list[sc.Snake]:
    out = [bent(n)]
    for parity in (0, 1):
        s = alternate(n, parity)
        if s is not None and s not in out:
            out.append(s)
    return out


def test_pattern_reads_the_snake():
    assert edges.pattern(sc.Snake((2, 2, 2))) == edges.Pattern(True, 0)
    assert edges.pattern(sc.Snake((3, 3, 3))) == edges.Pattern(False, 0)
    assert edges.pattern(sc.Snake((2, 3, 3, 2))) == edges.Pattern(False, 1)
    assert edges.pattern(sc.Snake((3, 2))) == edges.Pattern(False, 0)
    assert edges.pattern(sc.Snake((2, 3))) == edges.Pattern(False, 1)
    for lengths in [(3,), (2,), (3, 3, 4), (4, 3, 3), (3, 2, 3), (2, 2, 3), (3, 3, 2, 3)]:
        assert edges.pattern(sc.Snake(lengths)) is None, lengths
    # the pattern is the corners' place, so a snake and its reverse agree on it up to parity
    for n in range(4, 12):
        for s in snakes(n):
            rule = edges.pattern(s)
            assert rule is not None
            corners = set(s.corner_cubes())
            inner = set(range(1, n - 1))
            want = inner if rule.bent else {i for i in inner if i % 2 == rule.parity}
            assert corners == want


def all_models(problem: Problem) -> set[tuple[int, ...]]:
    """Every path of the edge model (cuts added as the member adds them), one per model."""
    from pysat.solvers import Solver

    rule = edges.pattern(problem.snake)
    assert rule is not None
    model = edges.EdgeModel(problem, rule)
    found: set[tuple[int, ...]] = set()
    with Solver(name=sat.SOLVER, bootstrap_with=model.clauses) as s:
        while s.solve():
            m = s.get_model()
            pieces = model.pieces(m)
            if len(pieces) > 1:
                closed = model.cycles(pieces, m)
                assert len(closed) == len(pieces) - 1  # one path, the rest cycles
                for clause in closed:
                    s.add_clause(clause)
                continue
            cells = model.placement(m)
            assert cells not in found
            found.add(cells)
            s.add_clause([-v for v in m if v > 0 and v <= len(model.edges)])  # block these edges
    return found


@pytest.mark.parametrize("dims", [(2, 2, 3), (2, 3, 3), (1, 3, 4), (2, 2, 4), (1, 1, 3)])
def test_models_are_exactly_the_brute_force_paths(dims):
    box = sc.Box(*dims)
    paths = hamiltonian_paths(box_cells(*dims))
    for snake in snakes(box.volume):
        want = {p for p in paths if lengths_of(p) == snake.lengths}
        # one model an undirected path: the brute force's paths, each read from the end the
        # model starts from
        undirected = {min(p, p[::-1]) for p in want}
        got = {
            tuple(box.cells[c] for c in cells) for cells in all_models(Problem.build(snake, box))
        }
        assert {min(p, p[::-1]) for p in got} == undirected, (dims, snake.lengths)
        assert got <= want  # each in the snake's own order
        assert len(got) == len(undirected)


@pytest.mark.parametrize("dims", boxes(36))
def test_agrees_with_the_exhaustive_kernel(dims):
    """Every box of up to 36 cells: the member finds a fold exactly when depth first does,
    and what it finds is a fold."""
    box = sc.Box(*dims)
    for snake in snakes(box.volume):
        search = sat.SatSearch(Problem.build(snake, box))
        last = list(search.slices_of())[-1]
        search.close()
        kernel = sc.solve(snake, box, limit=1, strategy="depth-first", workers=1)
        assert kernel.complete or kernel.distinct == 1
        assert (last.cells is not None) == (kernel.distinct > 0), (dims, snake.lengths)
        if last.cells is not None:
            sc.Solution(snake, box, last.cells, box.cell_kind(last.cells[0])).verify()


def test_regions_other_than_boxes():
    # an L of 2x2x2 less one cell, 7 cells: a bent snake cannot fill it (the kernel agrees)
    region = sc.Region([c for c in sc.Box(2, 2, 2).cells if c != (1, 1, 1)])
    for snake in snakes(7):
        search = sat.SatSearch(Problem.build(snake, region))
        last = list(search.slices_of())[-1]
        kernel = sc.solve(snake, region, strategy="depth-first")
        assert (last.cells is not None) == (kernel.distinct > 0)


# -- in the tool: the member beside the restarts, proofs of none ----------------------------


def test_auto_runs_sat_beside_the_restarts_for_these_snakes():
    from snakecube.search.first import restarts
    from snakecube.search.inputs import compile_inputs
    from snakecube.search.strategy import choose_members

    inputs = compile_inputs(bent(75), sc.Box(3, 5, 5))
    want = ("restarts", "sat") if restarts.AVAILABLE else ("sat",)
    assert choose_members("auto", inputs, 1, None) == want
    assert choose_members("auto", inputs, None, None) == ()  # a count: depth first
    small = compile_inputs(bent(18), sc.Box(2, 3, 3))
    assert choose_members("auto", small, 1, None) == ()  # 27 cells and fewer: depth first


@pytest.mark.parametrize("limit", [1, None])
def test_a_bent_snake_that_cannot_fold_is_proven_so(limit):
    """3x3x7 (the issue's case: depth first gave no answer in 30 s): complete, no solutions,
    from the first-solution portfolio and from a count alike."""
    r = sc.solve(bent(63), sc.Box(3, 3, 7), limit=limit)
    assert r.complete and r.distinct == 0 and r.stop_reason is None
    assert "sat" in r.engine


def test_a_count_of_a_snake_that_folds_goes_on_to_depth_first():
    r = sc.solve(bent(36), sc.Box(3, 3, 4), seconds=0.5, workers=1)
    assert r.engine in ("kernel", "reference") and (r.distinct > 0 or not r.complete)


def test_without_python_sat_the_tool_says_so_and_searches_on(monkeypatch):
    from snakecube.errors import SlowWarning
    from snakecube.search.inputs import compile_inputs
    from snakecube.search.strategy import AUTO_MEMBERS, choose_members, proof_first

    monkeypatch.setattr(sat, "available", lambda: False)
    big = compile_inputs(bent(125), sc.Box(5, 5, 5))
    with pytest.warns(SlowWarning, match="python-sat"):
        members = choose_members("auto", big, 1, None)
    assert "sat" not in members and set(members) <= set(AUTO_MEMBERS)
    small = compile_inputs(bent(63), sc.Box(3, 3, 7))
    with pytest.warns(SlowWarning, match="python-sat"):
        assert choose_members("auto", small, 1, None) == ()  # depth first, as before
    assert not proof_first("auto", small, None, None)
