"""Designs: snakes made from Hamiltonian paths.

A **design** is the snake a Hamiltonian path produces: its segment lengths. Random paths come
from the *backbite* Markov chain, which moves among the Hamiltonian paths of a region starting
from any one of them (for a box, a serpentine).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from snakecube.errors import InputError
from snakecube.shape import Box, Cell, Coord, Region
from snakecube.snake import Snake


def serpentine(box: Box) -> list[Cell]:
    """A Hamiltonian path of a box: rows back and forth, layers back and forth."""
    a, b, c = box.dims
    out: list[Cell] = []
    row = 0
    for z in range(c):
        for y in range(b) if z % 2 == 0 else reversed(range(b)):
            xs = range(a) if row % 2 == 0 else reversed(range(a))
            out.extend(box.index[(x, y, z)] for x in xs)
            row += 1
    return out


def backbite(region: Region, path: list[Cell], rng: random.Random, moves: int) -> list[Cell]:
    """Apply ``moves`` random backbite moves to a Hamiltonian path of ``region``.

    A move picks an end and one of its neighbours in the region; if the neighbour is not the
    end's own predecessor, the path is cut after the neighbour and the loose piece reversed.
    """
    path = list(path)
    nb = region.neighbours
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        end = path[-1]
        options = [n for n in nb[end] if n >= 0]
        pick = options[rng.randrange(len(options))]
        if len(path) > 1 and pick == path[-2]:
            continue
        i = path.index(pick)
        path[i + 1 :] = path[i + 1 :][::-1]
    return path


def random_path(box: Box, rng: random.Random, moves: int | None = None) -> list[Cell]:
    """A random Hamiltonian path of ``box`` (backbite from a serpentine)."""
    n = box.volume
    return backbite(box, serpentine(box), rng, moves if moves is not None else 20 * n * n + 100)


def design_of(coords: Sequence[Coord]) -> Snake:
    """The snake that a path of cells (in order) folds: a corner wherever the path turns."""
    if len(coords) < 2:
        raise InputError("a path needs at least 2 cells to make a snake")
    steps = [tuple(b[i] - a[i] for i in range(3)) for a, b in itertools.pairwise(coords)]
    lengths, run = [], 2
    for prev, step in itertools.pairwise(steps):
        if step == prev:
            run += 1
        else:
            lengths.append(run)
            run = 2
    lengths.append(run)
    return Snake(tuple(lengths))
