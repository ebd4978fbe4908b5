"""The census's one loop over finished work: each piece taken as it finishes, until there is
none left, the time limit comes, or Ctrl-C; what finished before a stop is kept, because
``take`` has kept it. The census's units and reduces (``census.runner``) and the decider's
listings and slices (``census.decide``) all finish through it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from snakecube import stop
from snakecube.stop import StopReason

T = TypeVar("T")


class OutOfTime(Exception):
    """The time limit came: raised by whatever waits for work (between slices, between a
    cluster's events), and taken by :func:`collect` as a stop."""


def collect(
    finished: Iterable[T], take: Callable[[T], None], deadline: float | None = None
) -> StopReason | None:
    """Give each piece of ``finished`` to ``take``; why it stopped early (``SECONDS`` when
    ``deadline``, a ``time.monotonic()``, passed after a piece or :class:`OutOfTime` was
    raised while waiting; ``INTERRUPTED`` on Ctrl-C), or None when every piece came.

    >>> kept = []
    >>> collect([1, 2, 3], kept.append), kept
    (None, [1, 2, 3])
    >>> collect(iter([1, 2]), kept.append, deadline=0.0), kept[3:]
    (<StopReason.SECONDS: 'seconds'>, [1])
    """
    try:
        for piece in finished:
            take(piece)
            stop.poll()  # a Ctrl-C that Python dropped (in a finalizer) still stops
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime
    except KeyboardInterrupt:
        return StopReason.INTERRUPTED
    except OutOfTime:
        return StopReason.SECONDS
    return None
