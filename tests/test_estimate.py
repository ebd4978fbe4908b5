"""Which end to count from: Knuth's tree-size estimate, and counts searched from the last end."""

from __future__ import annotations

import random

import pytest

import snakecube as sc
from snakecube import search
from snakecube.designs import design_of, random_path
from snakecube.search import strategy
from snakecube.search.engine import Stats
from snakecube.search.estimate import tree_size
from snakecube.search.inputs import compile_inputs
from snakecube.search.options import DEFAULT_PRUNE
from snakecube.search.plan import make_plan
from snakecube.search.problem import Problem
from snakecube.search.reference import Reference

# A 4x4x5 design (benchmarks/run.py, HARD_445_SEED): 341 distinct solutions, 468 million
# nodes from this end; the same snake typed from its other end has a tree about 10^4 times
# bigger (docs/design.md, "Which end to count from").
DESIGN_445 = (
    "2,2,2,2,2,2,2,3,3,2,2,2,3,4,5,4,2,3,2,2,3,2,2,2,2,2,2,4,2,2,2,2,2,2,3,2,2,2,2,2,3,2,2,2,2,"
    "2,2,2,2,2,2,2,2,2,2,2,3,2,4,2"
)


def _random_design(box: sc.Box, seed: int) -> sc.Snake:
    return design_of([box.cells[c] for c in random_path(box, random.Random(seed))])


def _nodes(problem: Problem) -> int:
    """The nodes the reference visits over the estimator's units (min_units=1)."""
    engine, total = Reference(prune=DEFAULT_PRUNE), 0
    for unit in make_plan(problem).units:
        stats = Stats()
        for _ in engine.search(problem, unit, stats):
            pass
        total += stats.nodes
    return total


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_estimate_averages_to_the_node_count(seed):
    box = sc.Box(2, 3, 4)
    problem = Problem.build(_random_design(box, seed), box)
    exact = _nodes(problem)
    estimate = tree_size(problem, probes=20_000, seed=seed)
    assert exact > 50
    assert 0.85 * exact < estimate < 1.15 * exact, (estimate, exact)


def test_the_levels_add_up_to_the_estimate():
    """``levels`` is the same estimate split by the segment placed: one entry a segment,
    summing to the total, nothing past a level no walk reaches."""
    box = sc.Box(2, 3, 4)
    problem = Problem.build(_random_design(box, 1), box)
    levels: list[float] = []
    total = tree_size(problem, probes=2_000, seed=1, levels=levels)
    assert len(levels) == len(problem.lengths) and min(levels) >= 0 and levels[0] > 0
    assert sum(levels) == pytest.approx(total, rel=1e-9)
    assert total == tree_size(problem, probes=2_000, seed=1)  # the same walks without it


def test_the_estimate_is_deterministic():
    problem = Problem.build(sc.Snake.parse("king"), sc.Box(4, 4, 4))
    assert tree_size(problem, seed=3) == tree_size(problem, seed=3)


def test_the_end_with_the_smaller_tree_is_chosen():
    snake = sc.Snake.parse(DESIGN_445)
    assert not strategy.last_end_pays(compile_inputs(snake, "4x4x5"))
    assert strategy.last_end_pays(compile_inputs(snake.reversed(), "4x4x5"))
    # a fixed start, a palindrome or a small target keeps the given end
    assert not strategy.last_end_pays(compile_inputs(snake.reversed(), "4x4x5", start=(0, 0, 0)))
    assert not strategy.last_end_pays(compile_inputs("king", None))


@pytest.mark.parametrize("name", ["seed-orange", "seed-blue", "standard"])
def test_a_count_from_the_last_end_reads_the_same_solutions_forwards(name, monkeypatch):
    given = sc.solve(name, reverse=False)
    monkeypatch.setattr(search, "last_end_pays", lambda inputs: True)
    flipped = sc.solve(name)
    assert flipped.searched_from_last and not given.searched_from_last
    assert not flipped.reversed and flipped.snake == given.snake
    assert (flipped.placements, flipped.distinct, flipped.complete) == (
        given.placements,
        given.distinct,
        given.complete,
    )
    assert {s.canonical() for s in flipped.solutions} == {s.canonical() for s in given.solutions}
    for s in flipped.solutions:
        assert s.snake == given.snake
        s.verify()
        assert s.start_class == s.region.cell_kind(s.path[0])
    assert flipped.start_classes == given.start_classes
    assert flipped.to_dict()["searched_from_last"] is True


def test_a_limit_takes_the_better_end_too_but_a_probe_or_a_given_end_does_not(monkeypatch):
    monkeypatch.setattr(search, "last_end_pays", lambda inputs: True)
    limited = sc.solve("seed-orange", limit=3)  # what show and fold take solution K from
    assert limited.searched_from_last and len(limited.solutions) == 3
    for s in limited.solutions:  # read from cube 1, as typed
        s.verify()
        assert s.snake == sc.Snake.parse("seed-orange")
    assert not sc.solve("seed-orange", limit=3, max_nodes=10**6).searched_from_last
    assert not sc.solve("seed-orange", reverse=False).searched_from_last
    assert sc.solve("seed-orange", reverse=True).reversed


def test_the_cli_picks_the_end(capsys):
    from snakecube.cli import main

    assert main(["solve", "seed-orange", "--end", "last", "--quiet"]) == 0
    assert "cube 1 is the typed snake's last cube" in capsys.readouterr().out
    assert main(["solve", "seed-orange", "--end", "first", "--quiet"]) == 0
    assert "from the last end" not in capsys.readouterr().out


def test_each_engine_counts_from_the_last_end_as_the_reference_does(engine, monkeypatch):
    monkeypatch.setattr(search, "last_end_pays", lambda inputs: True)
    mine = [s.path for s in sc.solve("seed-blue", engine=engine).solutions]
    assert mine == [s.path for s in sc.solve("seed-blue", engine="reference").solutions]
    assert len(mine) == 12


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_random_design_finds_its_own_path_from_the_last_end(seed, monkeypatch):
    box = sc.Box(2, 3, 4)
    path = random_path(box, random.Random(seed))
    snake = design_of([box.cells[c] for c in path])
    monkeypatch.setattr(search, "last_end_pays", lambda inputs: True)
    result = sc.solve(snake, box)
    assert result.searched_from_last
    own = sc.Solution(snake, box, tuple(path)).canonical()
    assert own in {s.canonical() for s in result.solutions}
