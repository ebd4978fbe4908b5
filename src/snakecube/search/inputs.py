"""The search's inputs: a snake and a target as people give them, parsed and compiled once.

The snake is parsed and the choice of end applied here, once; whatever runs later reads the
compiled ``Problem`` (and ``Problem.reversed()`` for the other end), never the text again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from snakecube import limits
from snakecube.errors import InputError
from snakecube.search.plan import prefix_from_path
from snakecube.search.problem import Problem
from snakecube.shape import Box, Coord, Region, parse_target
from snakecube.snake import Snake

Target = Region | str | tuple[int, int, int] | None


def as_target(target: Target, snake: Snake | None = None) -> Region:
    """A Region from a Region, an ``AxBxC`` string, a 3-tuple, or None (the snake's cube)."""
    if isinstance(target, Region):
        return target
    if target is None:
        if snake is None:
            raise InputError("no target given")
        return Box.cube(snake.cubes)
    if isinstance(target, str):
        return parse_target(target, where="target")
    if isinstance(target, tuple | list):
        if len(target) != 3:
            raise InputError(f"a box has 3 sides, not {len(target)}")
        return Box(*target)
    raise TypeError(
        f"the target must be a Region, 'AxBxC' or (a, b, c), not {type(target).__name__}"
    )


def too_long(snake: Snake, region: Region) -> str:
    """Why ``snake`` cannot fold into ``region`` at a glance: its first segment longer than
    any straight line of cells there ("segment 29 has 5 cubes: longer than any side of the
    4x4x4 box"), quoting the number as it was typed; "" when there is none.

    >>> too_long(Snake.parse("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,5"), Box(3, 3, 3))
    'segment 16 has 5 cubes: longer than any side of the 3x3x3 box'
    """
    longest = region.longest_line
    for i, n in enumerate(snake.lengths):
        if n > longest:
            typed = n - 1 if snake.notation == "steps" or (snake.notation == "runs" and i) else n
            said = "" if typed == n else f" (typed as {typed})"
            where = (
                f"any side of the {region.describe()}"
                if isinstance(region, Box)
                else f"any straight line of cells in the region ({longest})"
            )
            return f"segment {i + 1}{said} has {n} cubes: longer than {where}"
    return ""


def as_snake(snake: Snake | str, region: Region | None = None) -> Snake:
    """A Snake from a Snake or text (``region``'s volume counts elbows without ``/N``)."""
    if isinstance(snake, Snake):
        return snake
    if isinstance(snake, str):
        return Snake.parse(snake, cubes=None if region is None else region.volume)
    raise TypeError(f"the snake must be a Snake or text (str), not {type(snake).__name__}")


@dataclass(frozen=True, slots=True)
class Inputs:
    """Parsed and compiled inputs: the problem, and the fixed start and prefix, if any."""

    problem: Problem
    start: int | None
    prefix: tuple[int, ...]

    @property
    def free(self) -> bool:
        """No fixed start or path: the search may start anywhere, from either end."""
        return self.start is None and not self.prefix

    def reversed(self) -> Inputs:
        """The same search from the snake's other end (only without a fixed start or path)."""
        if not self.free:
            raise ValueError("a fixed start or path belongs to one end of the snake")
        return Inputs(self.problem.reversed(), None, ())


def compile_inputs(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
) -> Inputs:
    """Parse the snake and the target, compile them, and turn a fixed start/path into cells."""
    region = None if target is None else as_target(target)
    snake = as_snake(snake, region)
    if reverse:
        snake = snake.reversed()
    region = as_target(target, snake) if region is None else region
    limits.cell_count(region.volume, f"the {region.describe()}")
    fixed = None if start is None else [limits.coord(start, "the fixed start")]
    if path is not None:
        if isinstance(path, str | bytes) or not isinstance(path, Sequence):
            raise TypeError(
                f"the fixed path must be a sequence of cells, not {type(path).__name__}"
            )
        if len(path) > limits.MAX_CUBES:
            raise InputError(f"the fixed path has {len(path)} cells; at most {limits.MAX_CUBES}")
        cells = [limits.coord(c, f"fixed path: cell {i}") for i, c in enumerate(path, 1)]
        if fixed is not None and cells and cells[0] != fixed[0]:
            raise InputError("the fixed start and the first cell of the fixed path differ")
        fixed = cells
    problem = Problem.build(snake, region)
    if fixed is None:
        return Inputs(problem, None, ())
    cell, dirs = prefix_from_path(problem, fixed)
    return Inputs(problem, cell, dirs)
