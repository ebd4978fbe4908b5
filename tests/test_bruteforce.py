"""Brute force on tiny boxes: every design that their Hamiltonian paths produce is solved, and
the solver's counts and classes equal those of an independent enumeration of all paths."""

from __future__ import annotations

import pytest

import snakecube as sc
from bruteforce import box_cells, census

BOXES = [
    (2, 2, 2),
    (2, 2, 3),
    (3, 3, 1),
    (2, 4, 1),
    (3, 4, 1),
    (4, 4, 1),
    (1, 1, 5),
    (2, 2, 4),
    (2, 3, 3),
]


@pytest.mark.parametrize("dims", BOXES, ids=lambda d: "x".join(map(str, d)))
def test_every_design_of_a_tiny_box(dims, engine):
    by_design, maps = census(*dims)
    box = sc.Box(*dims)
    assert len(box.symmetries) == len(maps)
    assert len(box.cells) == len(box_cells(*dims))
    for lengths, (n_paths, classes) in by_design.items():
        result = sc.solve(sc.Snake(lengths), box, engine=engine)
        assert result.complete
        assert result.placements == n_paths, lengths
        assert result.distinct == len(classes), lengths
        found = {min(tuple(m[p] for p in s.cells) for m in maps) for s in result.solutions}
        assert found == classes, lengths


def _compositions(total: int, parts: range):
    """Every tuple of numbers from ``parts`` that adds up to ``total``."""
    if total == 0:
        yield ()
    for p in parts:
        if p <= total:
            for rest in _compositions(total - p, parts):
                yield (p, *rest)


@pytest.mark.parametrize(
    "dims", [(2, 2, 3), (3, 3, 1), (2, 4, 1)], ids=lambda d: "x".join(map(str, d))
)
def test_every_snake_that_could_fit_a_tiny_box(dims, engine):
    """All snakes with the box's cube count and segments no longer than its longest side:
    the ones no Hamiltonian path makes must have no solutions, the rest exactly the paths'."""
    by_design, _ = census(*dims)
    box = sc.Box(*dims)
    steps = range(1, max(dims))  # segment length minus one
    snakes = [sc.Snake.from_steps(s) for s in _compositions(box.volume - 1, steps)]
    assert len(snakes) > len(by_design)
    for snake in snakes:
        expected = by_design[snake.lengths][0] if snake.lengths in by_design else 0
        assert sc.solve(snake, box, engine=engine).placements == expected, snake.lengths
