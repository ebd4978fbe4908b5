"""Flat layouts: a snake on an unbounded table (seeds/004's ``flat``).

The count walks every layout, so its time grows about 2.6-fold with each segment: the
standard snake's 17 segments take a fraction of a second, the king's 46 would take longer
than the universe has existed. What a count will take is said before it starts
(:func:`forecast`: Knuth's estimate of the layouts' tree, as for the census), and a count
forecast to take more than ``LONGEST`` seconds is refused unless given a time limit.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from snakecube import limits
from snakecube import stop as stop_signal
from snakecube.errors import InputError
from snakecube.snake import Snake
from snakecube.stop import StopReason

Point = tuple[int, int]
# the 8 symmetries of the square, as maps of (x, y)
_SQUARE: tuple[Callable[[int, int], Point], ...] = (
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (y, x),
    lambda x, y: (x, -y),
    lambda x, y: (-y, -x),
)


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
    stop_reason: StopReason | None = None  # "seconds" or StopReason.INTERRUPTED when not complete

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


PROBES = 400  # random walks down the layouts' tree per forecast
NODES_PER_SECOND = 1.5e5  # segments the count places in a second (measured: see forecast())
LONGEST = 3600.0  # a count forecast to take longer is refused unless given a time limit
_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


@dataclass(frozen=True, slots=True)
class Forecast:
    """What a count of flat layouts will take: the segments it places (``nodes``, Knuth's
    estimate of the layouts' tree, with one standard ``error``), and the seconds that is."""

    nodes: float
    error: float

    @property
    def seconds(self) -> float:
        """Seconds at the measured rate (one process)."""
        return self.nodes / NODES_PER_SECOND

    def too_long(self) -> bool:
        """Over ``LONGEST``: refused without a time limit."""
        return self.seconds > LONGEST


def forecast(snake: Snake, seed: int = 0, deadline: float | None = None) -> Forecast:
    """Knuth's estimate (1975) of the segments the count places: ``PROBES`` random walks
    down the same tree, each adding up, level by level, the product of the choices above
    it; their mean is the tree's size without bias. Deterministic (its own seeded
    generator), unless the walks are cut short at ``deadline`` (a ``time.monotonic()``).
    NODES_PER_SECOND was measured with the count itself, placed segments against seconds,
    on snakes of 17 to 23 segments (1.1e5 to 1.4e5 a second at a load of 8; the forecasts
    were within 8 % of the segments placed)."""
    lengths = snake.lengths
    rng = random.Random(seed)
    walks: list[float] = []
    for _ in range(PROBES):
        stop_signal.poll()  # a Ctrl-C that Python dropped (in a finalizer) still stops
        if deadline is not None and walks and time.monotonic() > deadline:
            break
        taken, head, axis = {(0, 0)}, (0, 0), -1
        weight, total = 1.0, 0.0
        for n in lengths:
            # Step 1: the children here: each direction off the last one's axis whose cubes
            # land on free cells.
            children = []
            for d, (dx, dy) in enumerate(_STEPS):
                if d % 2 == axis:
                    continue
                new = [(head[0] + dx * i, head[1] + dy * i) for i in range(1, n)]
                if taken.isdisjoint(new):
                    children.append((d, new))
            if not children:
                break
            # Step 2: count this level's nodes, then go down one child at random.
            weight *= len(children)
            total += weight
            d, new = rng.choice(children)
            taken.update(new)
            head, axis = new[-1], d % 2
        walks.append(total)
    mean = statistics.fmean(walks)
    error = statistics.stdev(walks) / math.sqrt(len(walks)) if len(walks) > 1 else 0.0
    return Forecast(mean, error)


# One loop with an explicit stack (no recursion limit for long snakes); its state (cells,
# directions, next tries) would otherwise travel between functions.
def flat(
    snake: Snake,
    seconds: float | None = None,
    progress: Callable[[int, int, int], object] | None = None,
    on_forecast: Callable[[Forecast], object] | None = None,
) -> Flat:
    """Count the snake's flat layouts (seeds/004's ``flat``) and find the most compact.

    Compactness is the area of the bounding rectangle, then its longer side. Ctrl-C or the
    time limit stops the count and marks it incomplete (``stop_reason`` says which). The
    count's :func:`forecast` is given to ``on_forecast`` first; one over ``LONGEST`` seconds
    raises InputError unless ``seconds`` is given. ``progress(placed, forecast, layouts)``
    is called every 4096 segments placed, against the forecast's estimate of all of them.
    The search keeps its own stack, so snakes of any length work.
    """
    if not isinstance(snake, Snake):
        raise TypeError(f"flat() needs a Snake, not {type(snake).__name__}")
    try:
        deadline, estimate = _planned(snake, seconds, on_forecast)
    except KeyboardInterrupt:  # stopped in the forecast: an answer too, with nothing counted
        return _result(snake, 0, [], StopReason.INTERRUPTED)
    lengths = snake.lengths
    n_seg = len(lengths)
    steps = ((1, 0), (0, 1), (-1, 0), (0, -1))
    cells: list[Point] = [(0, 0)]
    taken = {(0, 0)}
    best: tuple[int, int] | None = None
    best_layouts: list[tuple[Point, ...]] = []
    total = nodes = placed = 0
    stop: StopReason | None = None
    # The stack: the direction each placed segment took, and the next one to try at k.
    dirs: list[int] = []
    nextd = [0] * (n_seg + 1)
    try:
        while True:
            k = len(dirs)
            if k == n_seg:  # a whole layout
                total += 1
                w, h = _extent(cells)
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
                stop_signal.poll()  # a Ctrl-C that Python dropped (in a finalizer) still stops
                if deadline is not None and time.monotonic() > deadline:
                    stop = StopReason.SECONDS
                    break
                if progress is not None:
                    progress(placed, max(estimate, placed), total)
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
                placed += 1
                continue
            if not dirs:
                break
            _undo(cells, taken, lengths[k - 1] - 1)
            dirs.pop()
    except KeyboardInterrupt:
        stop = StopReason.INTERRUPTED
    return _result(snake, total, best_layouts, stop)


def _planned(
    snake: Snake, seconds: float | None, on_forecast: Callable[[Forecast], object] | None
) -> tuple[float | None, int]:
    """The count's deadline and its forecast of the segments to place, the forecast given to
    ``on_forecast``; InputError for a count too long to run without a time limit."""
    if seconds is not None:
        seconds = limits.seconds(seconds)
    deadline = None if seconds is None else time.monotonic() + seconds
    ahead = forecast(snake, deadline=deadline)
    if on_forecast is not None:
        on_forecast(ahead)
    if seconds is None and ahead.too_long():
        raise InputError(
            f"laying this snake flat every way would take {describe(ahead)} (about "
            f"{ahead.nodes:.1e} segments to place, estimated); at most {duration(LONGEST)} is "
            "run unasked: give a time limit (seconds=) to count part of it"
        )
    return deadline, max(1, round(min(ahead.nodes, 2**62)))


def _extent(cells: Sequence[Point]) -> tuple[int, int]:
    """The width and height of the rectangle around ``cells``."""
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _result(
    snake: Snake, total: int, best_layouts: list[tuple[Point, ...]], stop: StopReason | None
) -> Flat:
    """The count's answer: the most compact layouts, one per class under the square's
    symmetries, in a fixed order."""
    classes: dict[tuple[Point, ...], tuple[Point, ...]] = {}
    for layout in best_layouts:
        key = min(tuple(f(x, y) for x, y in layout) for f in _SQUARE)
        classes.setdefault(key, layout)
    w, h = _extent(best_layouts[0]) if best_layouts else (0, 0)
    box = (min(w, h), max(w, h))
    examples = tuple(classes[k] for k in sorted(classes))
    return Flat(snake, total, len(best_layouts), len(classes), box, examples, stop is None, stop)


def describe(ahead: Forecast) -> str:
    """'about 3 minutes', 'about 1.2e+13 years': a forecast's time for people."""
    return f"about {duration(ahead.seconds)}"


def duration(seconds: float) -> str:
    """A duration in the unit a person would use (the census's words), or in years past a
    float's reach."""
    from snakecube.census.forecast import duration as said  # numpy, through the census

    return said(seconds) if seconds < 1e300 else "longer than any computer will run"


def _undo(cells: list[Point], taken: set[Point], n: int) -> None:
    """Take the last segment's n new cubes off the table."""
    taken.difference_update(cells[-n:])
    del cells[-n:]
