"""Problem: a Snake and a Region compiled to ints and bitmasks, the form every engine reads."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from snakecube.errors import CubeCountError
from snakecube.shape import CellIndex, Direction, Region, wrong_count
from snakecube.snake import Snake

Ray = tuple[int, CellIndex]  # (mask of the cells a segment adds, the cell where it ends)


@dataclass(frozen=True, slots=True)
class Problem:
    """Everything a search needs, as plain ints.

    ``rays[length][cell * 6 + direction]`` is the segment of that length starting at
    ``cell`` (which is already placed) going ``direction``: the bitmask of the
    ``length - 1`` cells it adds and the cell it ends on, or None if it leaves the region.
    """

    snake: Snake
    region: Region
    lengths: tuple[int, ...]
    ncells: int
    neighbours: tuple[tuple[CellIndex, ...], ...]
    rays: dict[int, tuple[Ray | None, ...]]

    # One problem per snake and region (``build`` caches them): equal only to itself.
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    @classmethod
    def build(cls, snake: Snake, region: Region) -> Problem:
        """Compile; the snake's cube count must equal the region's cell count.

        Problems are immutable, so the same snake and region give the same object (cached).
        """
        return _build(snake, region)

    @classmethod
    def _compile(cls, snake: Snake, region: Region) -> Problem:
        if snake.cubes != region.volume:
            raise CubeCountError(wrong_count(snake.cubes, region))
        nb = region.neighbours
        rays: dict[int, tuple[Ray | None, ...]] = {}
        for length in sorted(set(snake.lengths)):
            table: list[Ray | None] = []
            for cell in range(region.volume):
                for d in range(6):
                    mask, at = 0, cell
                    for _ in range(length - 1):
                        at = nb[at][d]
                        if at < 0:
                            break
                        mask |= 1 << at
                    table.append(None if at < 0 else (mask, at))
            rays[length] = tuple(table)
        return cls(snake, region, snake.lengths, region.volume, nb, rays)

    def reversed(self) -> Problem:
        """The same target and the snake read from its other end: the one place the search
        builds it (cached like every problem)."""
        return _build(self.snake.reversed(), self.region)

    def ray(self, k: int, cell: CellIndex, d: Direction) -> Ray | None:
        """The ray of segment ``k`` (0-based) from ``cell`` in direction ``d``."""
        return self.rays[self.lengths[k]][cell * 6 + d]

    def path(self, start: CellIndex, directions: tuple[Direction, ...]) -> list[CellIndex]:
        """The cells, in snake order, of the segments with these directions from ``start``."""
        out = [start]
        for k, d in enumerate(directions):
            for _ in range(self.lengths[k] - 1):
                out.append(self.neighbours[out[-1]][d])
        return out


# typed: a Region with a box's cells equals that Box, but the answer names its target as given
# ('region of 24 cells', not '4x6x1 box'), so each keeps its own problem.
@lru_cache(maxsize=32, typed=True)
def _build(snake: Snake, region: Region) -> Problem:
    return Problem._compile(snake, region)
