"""Flat layouts: a snake on an unbounded table (seeds/004's ``flat``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from snakecube import limits
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
    stop_reason: str | None = None  # "seconds" or "interrupted" when not complete

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
            "stop_reason": self.stop_reason,
        }


# One loop with an explicit stack (no recursion limit for long snakes); its state (cells,
# directions, next tries) would otherwise travel between functions.
def flat(
    snake: Snake,
    seconds: float | None = None,
    progress: Callable[[int, int, int], object] | None = None,
) -> Flat:
    """Count the snake's flat layouts (seeds/004's ``flat``) and find the most compact.

    Compactness is the area of the bounding rectangle, then its longer side. Ctrl-C or the
    time limit stops the count and marks it incomplete (``stop_reason`` says which).
    ``progress(nodes, 0, layouts)`` is called every 4096 segments placed (the total is not
    known). The search keeps its own stack, so snakes of any length work.
    """
    if not isinstance(snake, Snake):
        raise TypeError(f"flat() needs a Snake, not {type(snake).__name__}")
    if seconds is not None:
        seconds = limits.seconds(seconds)
    deadline = None if seconds is None else time.monotonic() + seconds
    lengths = snake.lengths
    n_seg = len(lengths)
    steps = ((1, 0), (0, 1), (-1, 0), (0, -1))
    cells: list[Point] = [(0, 0)]
    taken = {(0, 0)}
    best: tuple[int, int] | None = None
    best_layouts: list[tuple[Point, ...]] = []
    total = nodes = 0
    stop: str | None = None
    # The stack: the direction each placed segment took, and the next one to try at k.
    dirs: list[int] = []
    nextd = [0] * (n_seg + 1)
    try:
        while True:
            k = len(dirs)
            if k == n_seg:  # a whole layout
                total += 1
                xs = [p[0] for p in cells]
                ys = [p[1] for p in cells]
                w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
                score = (w * h, max(w, h))
                if best is None or score < best:
                    best, best_layouts = score, []
                if score == best:
                    best_layouts.append(tuple(cells))
                _undo(cells, taken, lengths[k - 1] - 1)
                dirs.pop()
                continue
            nodes += 1
            if nodes % 4096 == 0:
                if deadline is not None and time.monotonic() > deadline:
                    stop = "seconds"
                    break
                if progress is not None:
                    progress(nodes, 0, total)
            axis = dirs[-1] % 2 if dirs else -1
            x, y = cells[-1]
            d = nextd[k]
            while d < 4:
                if d % 2 != axis:
                    dx, dy = steps[d]
                    new = [(x + dx * i, y + dy * i) for i in range(1, lengths[k])]
                    if not taken.intersection(new):
                        cells.extend(new)
                        taken.update(new)
                        break
                d += 1
            if d < 4:
                nextd[k], nextd[k + 1] = d + 1, 0
                dirs.append(d)
                continue
            if not dirs:
                break
            _undo(cells, taken, lengths[k - 1] - 1)
            dirs.pop()
    except KeyboardInterrupt:
        stop = "interrupted"
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
    return Flat(snake, total, len(best_layouts), len(classes), box, examples, stop is None, stop)


def _undo(cells: list[Point], taken: set[Point], n: int) -> None:
    """Take the last segment's n new cubes off the table."""
    taken.difference_update(cells[-n:])
    del cells[-n:]
