"""A progress bar for long searches: shown on a terminal within a second, else silent."""

from __future__ import annotations

import shutil
import sys
import time
from typing import Any


class _Bar:
    """A ``progress(done, units, found)`` callback drawing a tqdm bar on stderr, with
    ``found`` after it as '12 found' (or '12 ' + ``tally``).

    Nothing is drawn during the first ``delay`` seconds (from ``began``, a
    ``time.monotonic()`` such as the command's start, else from the first call), so quick
    searches stay silent; then the bar is redrawn at most every ``interval`` seconds, even
    while no unit finishes.
    """

    def __init__(
        self,
        delay: float,
        interval: float = 0.2,
        desc: str = "searching",
        unit: str = "unit",
        began: float | None = None,
        tally: str = "found",
    ) -> None:
        self._desc, self._unit, self._tally = desc, unit, tally
        self._delay = delay
        self._interval = interval
        self._began: float | None = began  # None: the first call
        self._drawn = 0.0
        self._bar: Any = None

    def __call__(self, done: int, total: int, found: int) -> None:
        now = time.monotonic()
        if self._began is None:
            self._began = now
        if now - self._began < self._delay or now - self._drawn < self._interval:
            return
        if self._bar is None:
            from tqdm import tqdm  # imported only when a search runs long enough to show it

            size = shutil.get_terminal_size((80, 24))  # a new pty may report 0 x 0
            self._bar = tqdm(
                total=total or None,  # 0: unknown (restarts)
                unit=self._unit,
                desc=self._desc,
                file=sys.stderr,
                leave=False,
                ncols=size.columns or 80,
                nrows=size.lines or 24,
                mininterval=0,
            )
        self._bar.n = done
        self._bar.set_postfix_str(f"{found} {self._tally}", refresh=False)
        self._bar.refresh()
        self._drawn = now

    def clear(self) -> None:
        """Take the bar off the terminal until the next call (before printing lines)."""
        if self._bar is not None:
            self._bar.clear()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class _Lines:
    """A ``progress(done, units, found)`` callback for a log file: one line every
    ``interval`` seconds, for work long enough to be run in the background."""

    def __init__(self, interval: float, stream: Any, desc: str, unit: str, tally: str) -> None:
        self._interval, self._stream, self._desc, self._unit = interval, stream, desc, unit
        self._tally = tally
        self._began = self._drawn = time.monotonic()

    def __call__(self, done: int, total: int, found: int) -> None:
        now = time.monotonic()
        if now - self._drawn < self._interval:
            return
        self._drawn = now
        of = f"/{total}" if total else ""
        print(
            f"{self._desc}: {done}{of} {self._unit}s, {found} {self._tally}, "
            f"{now - self._began:.0f} s",
            file=self._stream,
            flush=True,
        )

    def clear(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(
    delay: float = 0.5,
    stream: Any = None,
    desc: str = "searching",
    unit: str = "unit",
    lines: float | None = None,
    began: float | None = None,
    tally: str = "found",
) -> _Bar | _Lines | None:
    """A bar for work units if ``stream`` (stderr) is a terminal, drawn from ``delay``
    seconds after ``began`` (the command's start; default: the first progress); else, if
    ``lines`` is given, a line of progress every ``lines`` seconds; else None. ``tally``
    names what the callback's third number counts."""
    stream = sys.stderr if stream is None else stream
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        interactive = False
    if interactive:
        return _Bar(delay, desc=desc, unit=unit, began=began, tally=tally)
    return None if lines is None else _Lines(lines, stream, desc, unit, tally)
