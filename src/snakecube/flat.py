"""Flat layouts: a snake on an unbounded table (seeds/004's ``flat``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from snakecube.snake import Snake

Point = tuple[int, int]
_SQUARE = (  # the 8 symmetries of the square, as maps of (x, y)
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (y, x), lambda x, y: (x, -y), lambda x, y: (-y, -x),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Flat:
    """The layouts of a snake on an unbounded table, first cube fixed at (0, 0)."""

    snake: Snake
    layouts: int  # every layout, any first direction
    most_compact: int  # layouts with the smallest bounding rectangle
    most_compact_distinct: int  # the same up to the 8 symmetries of the square
    bounding_box: tuple[int, int]  # that rectangle, short side first
    examples: tuple[tuple[Point, ...], ...]  # one most compact layout per distinct class
    complete: bool

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "snake": self.snake.turns(),
            "layouts": self.layouts,
            "most_compact": self.most_compact,
            "most_compact_distinct": self.most_compact_distinct,
            "bounding_box": list(self.bounding_box),
            "examples": [[list(p) for p in e] for e in self.examples],
            "complete": self.complete,
        }


def flat(snake: Snake, seconds: float | None = None) -> Flat:
    """Count the snake's flat layouts (seeds/004's ``flat``) and find the most compact.

    Compactness is the area of the bounding rectangle, then its longer side. Ctrl-C or the
    time limit stops the count and marks it incomplete.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    lengths = snake.lengths
    steps = ((1, 0), (0, 1), (-1, 0), (0, -1))
    cells: list[Point] = [(0, 0)]
    taken = {(0, 0)}
    best: tuple[int, int] | None = None
    best_layouts: list[tuple[Point, ...]] = []
    total = 0
    nodes = 0

    def place(k: int, axis: int) -> None:
        nonlocal total, best, nodes
        nodes += 1
        if deadline is not None and nodes % 4096 == 0 and time.monotonic() > deadline:
            raise TimeoutError
        if k == len(lengths):
            total += 1
            xs = [p[0] for p in cells]
            ys = [p[1] for p in cells]
            w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            score = (w * h, max(w, h))
            if best is None or score < best:
                best, best_layouts[:] = score, []
            if score == best:
                best_layouts.append(tuple(cells))
            return
        x, y = cells[-1]
        for d, (dx, dy) in enumerate(steps):
            if d % 2 == axis:
                continue
            new = [(x + dx * i, y + dy * i) for i in range(1, lengths[k])]
            if any(p in taken for p in new):
                continue
            cells.extend(new)
            taken.update(new)
            place(k + 1, d % 2)
            del cells[-len(new) :]
            taken.difference_update(new)

    complete = True
    try:
        place(0, -1)
    except (TimeoutError, KeyboardInterrupt):
        complete = False
    classes: dict[tuple[Point, ...], tuple[Point, ...]] = {}
    for layout in best_layouts:
        key = min(tuple(f(x, y) for x, y in layout) for f in _SQUARE)
        classes.setdefault(key, layout)
    box: tuple[int, int] = (0, 0)
    if best_layouts:
        xs = [p[0] for p in best_layouts[0]]
        ys = [p[1] for p in best_layouts[0]]
        box = tuple(sorted((max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)))  # type: ignore[assignment]
    examples = tuple(classes[k] for k in sorted(classes))
    return Flat(snake, total, len(best_layouts), len(classes), box, examples, complete)
