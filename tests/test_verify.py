"""The independent verifier accepts real solutions and rejects corrupted ones."""

from __future__ import annotations

import pytest

import snakecube as sc
from snakecube.verify import InvalidSolution, verify, violations


@pytest.fixture(scope="module")
def standard():
    return next(sc.solutions("standard"))


def _cells(sol):
    return [list(c) for c in sol.cells]


def test_accepts_a_solution(standard):
    assert violations(standard.snake.lengths, standard.region.cells, standard.cells) == []
    standard.verify()


def test_rejects_a_swapped_pair(standard):
    cells = _cells(standard)
    cells[5], cells[6] = cells[6], cells[5]
    with pytest.raises(InvalidSolution, match=r"not neighbours|turns|corner|straight"):
        verify(standard.snake.lengths, standard.region.cells, cells)


def test_rejects_every_adjacent_swap(standard):
    for i in range(len(standard.cells) - 1):
        cells = _cells(standard)
        cells[i], cells[i + 1] = cells[i + 1], cells[i]
        assert violations(standard.snake.lengths, standard.region.cells, cells), i


def test_rejects_a_skipped_turn(standard):
    # Declare one corner cube straight: merge two segments' lengths.
    lengths = list(standard.snake.lengths)
    merged = [lengths[0] + lengths[1] - 1, *lengths[2:]]
    found = violations(merged, standard.region.cells, standard.cells)
    assert any("turns there" in f for f in found)


def test_rejects_a_turn_at_a_straight_cube(standard):
    # Declare a straight cube a corner: split a segment of length 3 into 2 + 2.
    lengths = list(standard.snake.lengths)
    k = lengths.index(3)
    split = [*lengths[:k], 2, 2, *lengths[k + 1 :]]
    found = violations(split, standard.region.cells, standard.cells)
    assert any("goes straight" in f for f in found)


def test_rejects_a_cell_outside(standard):
    cells = _cells(standard)
    cells[-1] = [cells[-1][0], cells[-1][1], 3]
    with pytest.raises(InvalidSolution, match="outside the target"):
        verify(standard.snake.lengths, standard.region.cells, cells)


def test_rejects_a_repeated_cell(standard):
    cells = _cells(standard)
    cells[10] = cells[3]
    with pytest.raises(InvalidSolution, match="already"):
        verify(standard.snake.lengths, standard.region.cells, cells)


def test_rejects_wrong_length(standard):
    with pytest.raises(InvalidSolution, match="cells but the snake"):
        verify(standard.snake.lengths, standard.region.cells, _cells(standard)[:-1])


def test_rejects_a_jump(standard):
    cells = _cells(standard)
    cells = [*cells[:4], *cells[5:], cells[4]]  # cube 5 moved to the end
    assert violations(standard.snake.lengths, standard.region.cells, cells)


def test_solution_object_verify_catches_corruption(standard):
    path = list(standard.path)
    path[0], path[1] = path[1], path[0]
    bad = sc.Solution(standard.snake, standard.region, tuple(path))
    with pytest.raises(InvalidSolution):
        bad.verify()
