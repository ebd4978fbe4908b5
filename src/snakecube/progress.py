"""A progress bar for long searches: shown on a terminal after about a second, else silent."""

from __future__ import annotations

import sys
from typing import Any


class _Bar:
    """A ``progress(done, units, found)`` callback drawing a tqdm bar on stderr."""

    def __init__(self, delay: float) -> None:
        self._delay = delay
        self._bar: Any = None

    def __call__(self, done: int, total: int, found: int) -> None:
        if self._bar is None:
            from tqdm import tqdm  # imported only when a search reports progress

            self._bar = tqdm(
                total=total,
                unit="unit",
                desc="searching",
                delay=self._delay,
                file=sys.stderr,
                leave=False,
                dynamic_ncols=True,
            )
        self._bar.set_postfix_str(f"{found} found", refresh=False)
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def progress_bar(delay: float = 1.0, stream: Any = None) -> _Bar | None:
    """A bar for the root plan's work units if ``stream`` (stderr) is a terminal, else None."""
    stream = sys.stderr if stream is None else stream
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        interactive = False
    return _Bar(delay) if interactive else None
