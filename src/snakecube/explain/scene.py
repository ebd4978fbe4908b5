"""What the pictures show, decided without any plotting library: steps, colours, viewpoints.

A **step** places one segment, or a few consecutive segments for long snakes, so that a sheet
has at most ``max_steps`` panels. Cubes alternate dark and light, as wooden puzzles do; the
cubes a step adds are highlighted. Each step is drawn from the two corner viewpoints (of the
eight) that see most of the new cubes' faces, so placed cubes hide as little as possible.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from snakecube.explain.text import relative_turns
from snakecube.shape import Coord
from snakecube.solution import Solution

DARK, LIGHT, NEW, GHOST = "#7a4a22", "#f0d9b0", "#1f9bde", "#bbbbbb"
SEGMENT_COLOURS = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip

# The eight corner viewpoints: the signs of the direction from the object to the eye.
VIEWS: tuple[Coord, ...] = tuple((x, y, z) for x, y, z in itertools.product((1, -1), repeat=3))


@dataclass(frozen=True, slots=True)
class Step:
    """One panel: the segments it places and the cubes (0-based, snake order) it adds."""

    number: int
    segments: tuple[int, ...]  # 0-based segment numbers
    first: int  # 0-based number of the first new cube
    last: int  # 0-based number of the last cube placed so far
    words: str  # what to do, for people


def steps(solution: Solution, max_steps: int = 24) -> list[Step]:
    """The assembly steps: one segment each, grouped when there are more than ``max_steps``."""
    lengths = solution.snake.lengths
    per = max(1, math.ceil(len(lengths) / max_steps))
    turns = relative_turns(solution)
    ends, at = [], 0
    for n in lengths:
        ends.append((at, at + n - 1))
        at += n - 1
    out: list[Step] = []
    for i in range(0, len(lengths), per):
        group = tuple(range(i, min(i + per, len(lengths))))
        first = 0 if i == 0 else ends[i][0] + 1
        last = ends[group[-1]][1]
        words = ", ".join(
            "start" if turns[k] == "start" else f"{turns[k]} at {ends[k][0] + 1}" for k in group
        )
        label = f"cubes {first + 1}-{last + 1}" if last > first else f"cube {last + 1}"
        out.append(Step(len(out) + 1, group, first, last, f"{words}: {label}"))
    return out


def cube_colour(i: int) -> str:
    """Cube i (0-based) alternates dark and light, starting dark."""
    return DARK if i % 2 == 0 else LIGHT


def best_views(placed: set[Coord], new: list[Coord], count: int = 2) -> list[Coord]:
    """The ``count`` corner viewpoints that see the most faces of the new cubes.

    From a viewpoint with signs (sx, sy, sz) a cube shows three faces, those towards the eye;
    a face is hidden when the neighbouring cell on that side holds a placed cube.
    """
    scored = []
    for view in VIEWS:
        seen = 0
        for x, y, z in new:
            for axis in range(3):
                step = [0, 0, 0]
                step[axis] = view[axis]
                if (x + step[0], y + step[1], z + step[2]) not in placed:
                    seen += 1
        scored.append((-seen, VIEWS.index(view), view))
    scored.sort()
    first = scored[0][2]
    # The second view: the best among those looking from a different side of the first.
    rest = [s for s in scored[1:] if sum(a != b for a, b in zip(s[2], first, strict=True)) >= 2]
    return [first, *[s[2] for s in rest[: count - 1]]]


def angles(view: Coord, elevation: float = 28.0) -> tuple[float, float]:
    """(elevation, azimuth) in degrees for a corner viewpoint, as matplotlib wants them."""
    sx, sy, sz = view
    azimuth = math.degrees(math.atan2(sy, sx))
    return (elevation if sz > 0 else -elevation, azimuth)
