"""Solution (one folded snake) and Result (the answer to a solve: counts plus solutions)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from snakecube.errors import InputError
from snakecube.shape import DIRECTION_LETTERS, DIRECTION_NAMES, VECTORS, CellIndex, Coord, Region
from snakecube.snake import Snake, reading_words
from snakecube.stop import StopReason
from snakecube.symmetry import Counts, rotation_counts, rotations
from snakecube.verify import verify as _verify


class Style(enum.StrEnum):
    """How segment directions are written: ``+x``/``-y`` (signs) or ``XP``/``YN`` (letters)."""

    SIGNS = "signs"
    LETTERS = "letters"

    @classmethod
    def named(cls, style: str) -> Style:
        """The style called ``style``; InputError names an unknown one."""
        if style not in cls._value2member_map_:
            names = ", ".join(s.value for s in cls)
            raise InputError(f"unknown style {style!r}; use one of {names}")
        return cls(style)


@dataclass(frozen=True, slots=True)
class Solution:
    """A snake folded into a region: ``path[i]`` is the cell of cube i (0-based, snake order)."""

    snake: Snake
    region: Region
    path: tuple[CellIndex, ...]
    start_class: str = field(default="", compare=False)

    @property
    def cells(self) -> tuple[Coord, ...]:
        """The 0-based (x, y, z) of each cube, in snake order."""
        return tuple(self.region.cells[c] for c in self.path)

    @property
    def directions(self) -> tuple[int, ...]:
        """The direction (0..5 for +x, -x, +y, -y, +z, -z) of each segment."""
        coords, out, first = self.cells, [], 0
        for n in self.snake.lengths:
            a, b = coords[first], coords[first + 1]
            out.append(VECTORS.index((b[0] - a[0], b[1] - a[1], b[2] - a[2])))
            first += n - 1
        return tuple(out)

    def direction_names(self, style: str = Style.SIGNS) -> list[str]:
        """Segment directions as ``+x``/``-y`` (style ``signs``) or ``XP``/``YN`` (``letters``)."""
        names = DIRECTION_LETTERS if Style.named(style) == Style.LETTERS else DIRECTION_NAMES
        return [names[d] for d in self.directions]

    def canonical(self, reversal: bool = False) -> tuple[CellIndex, ...]:
        """The smallest image of the path under the region's symmetries (and reversal).

        Two solutions are the same up to symmetry exactly when their canonical forms are equal.
        """
        paths = [self.path, self.path[::-1]] if reversal else [self.path]
        pickers = [itemgetter(*p) for p in paths]
        return min(pick(g) for g in self.region.symmetries for pick in pickers)

    def verify(self) -> bool:
        """Check the solution with the independent verifier: True when it is one; when it is
        not, InvalidSolution is raised, naming the rule broken and where (never False).

        >>> from snakecube import solve
        >>> solve("standard").solutions[0].verify()
        True
        """
        _verify(self.snake.lengths, self.region.cellset, self.cells)
        return True

    # The notebook hooks import the renderers, which sit above this module, when called (as
    # python-chess's ``_repr_svg_`` does).
    def _repr_png_(self) -> bytes:
        """A picture in notebooks (matplotlib)."""
        from snakecube.explain import pictures

        return pictures.png_bytes(self)

    def _repr_html_(self) -> str:
        """The interactive viewer in notebooks (a canvas script)."""
        from snakecube.explain import viewer

        return viewer.html(self, full=False)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "cells": [list(c) for c in self.cells],
            "directions": self.direction_names(),
            "start_class": self.start_class,
        }

    def __repr__(self) -> str:
        """One line: the snake, the target and the cell of cube 1 (``str()`` has the rest).

        >>> from snakecube import solve
        >>> solve("standard").solutions[0]
        <Solution ESCSCSCSCCCCSCSCCCSCCSCCCSE in 3x3x3 box from [0, 0, 0]>
        """
        where = f"{self.region.describe()} from {list(self.cells[0])}"
        return f"<Solution {_short(self.snake)} in {where}>"

    def __str__(self) -> str:
        """The snake and target, then each segment's direction and each cube's cell."""
        dirs = " ".join(f"{i}:{d}" for i, d in enumerate(self.direction_names(), 1))
        cells = " ".join(",".join(map(str, c)) for c in self.cells)
        head = f"{self.snake.turns()} in the {self.region.describe()}"
        return f"{head}\ndirections {dirs}\ncells {cells}"


def _short(snake: Snake, most: int = 64) -> str:
    """The snake's turn string, its middle cut when longer than ``most`` letters."""
    turns = snake.turns()
    if len(turns) <= most:
        return turns
    return f"{turns[:16]}...{turns[-16:]} ({snake.cubes} cubes)"


# Why a search stopped before its end (``Result.stop_reason`` and the like), for people.
STOP_WORDS: dict[StopReason, str] = {
    StopReason.LIMIT: "stopped at the solution limit",
    StopReason.SECONDS: "stopped at the time limit",
    StopReason.INTERRUPTED: "interrupted",
    StopReason.NODES: "stopped at the node limit",
}


def complete_words(complete: bool, stop_reason: StopReason | None, note: str = "") -> str:
    """'yes', or 'no (stopped at the time limit)': whether a search ran to its end, as every
    command prints it; ``note`` is added to a 'no'.

    >>> complete_words(True, None), complete_words(False, "seconds", "counts are lower bounds")
    ('yes', 'no (stopped at the time limit; counts are lower bounds)')
    """
    if complete:
        return "yes"
    why = "stopped" if stop_reason is None else STOP_WORDS[stop_reason]
    return f"no ({why}{'; ' + note if note else ''})"


@dataclass(frozen=True, slots=True)
class StartClassCount:
    """How many solutions start in one orbit of start cells."""

    kind: str
    cell: Coord
    size: int
    distinct: int
    placements: int


@dataclass(frozen=True, slots=True)
class Result:
    """The answer to one solve.

    * ``placements``: directed placements of the snake (read from its first cube), every
      rotation and reflection counted (with a fixed start or path: those that begin with it);
    * ``distinct``: placements up to the region's symmetries (rotations and reflections);
    * ``distinct_up_to_rotations``: placements up to rotations only (what a person holding
      the cube can tell apart: no one can turn a folded cube into its mirror image);
    * ``distinct_up_to_reversal``: also treating the snake read from its other end as the
      same puzzle (differs from ``distinct`` only for palindromes);
    * ``distinct_up_to_rotations_and_reversal``: rotations, and reading from the other end;
    * ``solutions``: one representative per distinct class, in a deterministic order;
    * ``complete``: whether the search ran to the end; if not, the counts are lower bounds
      and ``stop_reason`` says why: ``limit`` (solutions), ``seconds``, ``nodes`` (the
      node limit) or ``interrupted`` (Ctrl-C).
    """

    snake: Snake
    region: Region
    solutions: tuple[Solution, ...]
    placements: int
    distinct: int
    distinct_up_to_reversal: int
    complete: bool
    stop_reason: StopReason | None
    symmetry_count: int  # the order of the target's symmetry group
    start_classes: tuple[StartClassCount, ...]
    fixed: bool
    engine: str
    workers: int
    nodes: int
    seconds: float
    reversed: bool = False  # folded from the other end: cube 1 is the typed snake's last cube
    searched_from_last: bool = False  # the search ran from the last end (its tree was smaller);
    # the solutions are still read from cube 1
    rotation_classes: Counts | None = field(default=None, compare=False, repr=False)
    # the counts up to rotations, as the search made them (within its time limit); else
    # they are made from the solutions when asked for

    def __repr__(self) -> str:
        """One line: the snake, the target and the counts (``str()`` or ``summary()`` says
        more).

        >>> from snakecube import solve
        >>> solve("seed-blue")
        <Result ECCCCSCSCCCCCCCCCCCSCSCCCCE in 3x3x3 box: 12 distinct, 576 placements, complete>
        """
        why = "stopped" if self.stop_reason is None else STOP_WORDS[self.stop_reason]
        done = "complete" if self.complete else f"incomplete: {why}"
        return (
            f"<Result {_short(self.snake)} in {self.region.describe()}: {self.distinct} distinct, "
            f"{self.placements} placements, {done}>"
        )

    def __str__(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """The counts in a few lines, for people (``snakecube solve`` prints more)."""
        counts = self._rotation_counts()
        lower = "" if self.complete else " (at least)"
        return "\n".join(
            [
                f"{self.snake.turns()} in the {self.region.describe()}",
                f"placements {self.placements}{lower}",
                f"distinct   {self.distinct}{lower} up to rotations and reflections, "
                f"{counts.up_to_rotations}{lower} up to rotations, "
                f"{self.distinct_up_to_reversal}{lower} also up to reversal",
                f"complete   {complete_words(self.complete, self.stop_reason)}",
                f"solutions  {len(self.solutions)} listed",
            ]
        )

    def _rotation_counts(self) -> Counts:
        if self.rotation_classes is not None:
            return self.rotation_classes
        multiplier = self.placements // self.distinct if self.distinct else 1
        paths = [s.path for s in self.solutions]
        return rotation_counts(self.region, paths, multiplier, self.snake.is_palindrome)

    @property
    def distinct_up_to_rotations(self) -> int:
        """Placements up to rotations only: each distinct class is one or two of these."""
        return self._rotation_counts().up_to_rotations

    @property
    def distinct_up_to_rotations_and_reversal(self) -> int:
        """Placements up to rotations and reading the snake from its other end."""
        return self._rotation_counts().up_to_rotations_and_reversal

    @property
    def rotation_count(self) -> int:
        """The order of the target's rotation group (as cell permutations)."""
        return len(rotations(self.region))

    def to_dict(self, solutions: int | None = None) -> dict[str, Any]:
        """A JSON-ready description (what ``snakecube solve --json`` prints), with the first
        ``solutions`` solutions only if given (a count of 100,000 solutions converts each)."""
        counts = self._rotation_counts()
        return {
            "snake": {
                "reading": reading_words(self.snake),
                "notation": self.snake.notation,
                "turns": self.snake.turns(),
                "segment_lengths": list(self.snake.lengths),
                "cubes": self.snake.cubes,
                "palindrome": self.snake.is_palindrome,
            },
            "target": {
                "description": self.region.describe(),
                "dims": list(self.region.dims),
                "cells": self.region.volume,
            },
            "symmetries": self.symmetry_count,
            "rotations": self.rotation_count,
            "fixed_start": self.fixed,
            "reversed": self.reversed,
            "searched_from_last": self.searched_from_last,
            "placements": self.placements,
            "distinct": self.distinct,
            "distinct_up_to_reversal": self.distinct_up_to_reversal,
            "distinct_up_to_rotations": counts.up_to_rotations,
            "distinct_up_to_rotations_and_reversal": counts.up_to_rotations_and_reversal,
            "complete": self.complete,
            "stop_reason": self.stop_reason,
            "start_classes": [
                {
                    "kind": s.kind,
                    "cell": list(s.cell),
                    "size": s.size,
                    "distinct": s.distinct,
                    "placements": s.placements,
                }
                for s in self.start_classes
            ],
            "solutions": [s.to_dict() for s in self.solutions[:solutions]],
            "engine": self.engine,
            "workers": self.workers,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
