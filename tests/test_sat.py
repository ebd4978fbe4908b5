"""The SAT member of the first-solution portfolio (search.sat).

The encoding must be exact: for a design of a small box, its models must be exactly the
placements an independent brute force finds (every directed Hamiltonian path with those
segment lengths), one model each; a design with no such path must have no model.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

import snakecube as sc
from bruteforce import box_cells, hamiltonian_paths, lengths_of
from snakecube.designs import design_of, random_path
from snakecube.search import sat
from snakecube.search.problem import Problem

pytestmark = pytest.mark.skipif(not sat.available(), reason="python-sat is not installed")


def models(problem: Problem, fix_colour: bool) -> set[tuple[int, ...]]:
    from pysat.solvers import Solver

    enc = sat.Encoding(problem, fix_colour=fix_colour)
    out: set[tuple[int, ...]] = set()
    with Solver(name=sat.SOLVER, bootstrap_with=enc.clauses) as s:
        while s.solve():
            cells = enc.placement(s.get_model())
            assert cells not in out
            out.add(cells)
            s.add_clause(enc.block(cells))
    return out


@pytest.mark.parametrize("dims", [(2, 2, 3), (1, 3, 5), (2, 3, 3)])
def test_models_are_exactly_the_brute_force_paths(dims):
    box = sc.Box(*dims)
    index = {c: i for i, c in enumerate(box.cells)}
    by_design: dict[tuple[int, ...], set[tuple[int, ...]]] = defaultdict(set)
    for p in hamiltonian_paths(box_cells(*dims)):
        by_design[lengths_of(p)].add(tuple(index[c] for c in p))
    rng = random.Random(11)
    designs = sorted(by_design)
    for lengths in rng.sample(designs, min(25, len(designs))):
        problem = Problem.build(sc.Snake(lengths), box)
        expected = by_design[lengths]
        assert models(problem, fix_colour=False) == expected, (dims, lengths)
        # with the colour fixed (a symmetry swaps the colours of boxes with an even side):
        fixed = models(problem, fix_colour=True)
        starts = {sum(box.cells[p[0]]) & 1 for p in expected}
        if len(starts) == 2:
            assert fixed == {p for p in expected if sum(box.cells[p[0]]) % 2 == 0}
        else:
            assert fixed == expected


def test_a_snake_that_does_not_fold_has_no_model():
    # the standard 3x3x3 snake with its last two lengths swapped (issue 9's typo)
    snake = sc.Snake.parse("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2")
    problem = Problem.build(snake, sc.Box(3, 3, 3))
    search = sat.SatSearch(problem)
    last = list(search.slices_of(1_000))[-1]
    assert last.decided and last.cells is None


def test_slices_find_a_verified_placement_of_a_random_design():
    box = sc.Box(3, 3, 4)
    path = random_path(box, random.Random(4))
    snake = design_of([box.cells[c] for c in path])
    search = sat.SatSearch(Problem.build(snake, box))
    slices = list(search.slices_of(20))
    assert [s.index for s in slices] == list(range(len(slices)))
    assert all(not s.decided for s in slices[:-1])
    cells = slices[-1].cells
    assert cells is not None
    sc.Solution(snake, box, cells, box.cell_kind(cells[0])).verify()
