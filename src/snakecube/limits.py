"""What snakecube accepts: sizes and numbers, checked before anything is built.

Every limit is checked on the numbers alone (side lengths, cube counts, text lengths), so a
request far too big is refused in microseconds with a message naming the limit, instead of
building tables until memory runs out. The limits, and why:

=====================  ===========  =========================================================
limit                  value        why
=====================  ===========  =========================================================
``MAX_CUBES``          1000         a snake; also a target's cells for solve/show/rate/fold.
                                    Tables grow with cells x lengths; 10x10x10 is well past
                                    what any search finishes.
``MAX_SIDE``           1000         a box side or a region's extent along an axis
``MAX_TEXT``           20000        characters of a snake as text (1000 cubes need < 5000)
``MAX_REGION_BYTES``   1000000      a region file
``MAX_CENSUS_CELLS``   64           ``designs``: the path loop keeps a path in one word
``MAX_GENERATE_CELLS`` 125          ``generate``: up to 5x5x5 (random paths and checks)
``MAX_WORKERS``        4 x cores    processes: more only adds forking and memory
``MAX_NUMBER``         10**12       any other whole number (limits, seeds, counts)
=====================  ===========  =========================================================

Numbers are read from ASCII digits only: ``²``, ``₃`` or ``٣`` are not digits here.
Wrong *types* given to the Python API raise ``TypeError``; wrong *values* raise
:class:`~snakecube.errors.InputError`.
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections.abc import Sequence
from typing import BinaryIO

from snakecube.errors import InputError

MAX_CUBES = 1000
MAX_SIDE = 1000
MAX_TEXT = 20_000
MAX_REGION_BYTES = 1_000_000
MAX_CENSUS_CELLS = 64
MAX_GENERATE_CELLS = 125
MAX_NUMBER = 10**12


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_SIGNED = re.compile(r"[+-]?" + _DECIMAL, re.ASCII)
_UNSIGNED = re.compile(r"\+?" + _DECIMAL, re.ASCII)


def is_whole(text: str) -> bool:
    """A whole number in ASCII digits, with an optional sign: ``[+-]?[0-9]+``."""
    return _WHOLE.fullmatch(text) is not None


def cores() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most worker processes a command may ask for on this machine."""
    return 4 * cores()


# Control characters and line breaks, each written as its escape (\n, \x1b, \u2028).
_ESCAPES = {c: repr(chr(c))[1:-1] for c in (*range(32), 0x7F, 0x85, 0x2028, 0x2029)}


def one_line(text: str) -> str:
    """Text safe to print as one line: control characters escaped."""
    return text.translate(_ESCAPES)


def shorten(text: str, room: int = 60) -> str:
    """``repr(text)``, cut in the middle when long, so an echo stays one short line.

    >>> shorten("abc")
    "'abc'"
    >>> shorten("x" * 100, 20)
    "'xxxxxxxxxx...xxxxxx' (100 characters)"
    """
    if len(text) <= room:
        return repr(text)
    head, tail = text[: room // 2], text[-(room // 3) :]
    return f"{(head + '...' + tail)!r} ({len(text)} characters)"


def parse_whole(text: str, what: str, lo: int = 0, hi: int = MAX_NUMBER) -> int:
    """A whole number written in ASCII digits, between ``lo`` and ``hi``.

    >>> parse_whole("42", "--limit")
    42
    >>> parse_whole("²", "--limit")
    Traceback (most recent call last):
    snakecube.errors.InputError: --limit: '²' is not a whole number (digits 0-9)
    """
    raw = text.strip()
    if not is_whole(raw):
        raise InputError(f"{what}: {shorten(raw)} is not a whole number (digits 0-9)")
    if len(raw.lstrip("+-").lstrip("0")) > len(str(hi)) + 1:
        raise InputError(f"{what}: {shorten(raw)} is too large; at most {hi}")
    return whole(int(raw), what, lo, hi)


def whole(value: object, what: str, lo: int = 0, hi: int = MAX_NUMBER) -> int:
    """``value`` as an int in ``lo..hi``: TypeError for a non-integer, InputError out of range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a whole number (int), not {type(value).__name__}")
    if value < lo:
        raise InputError(f"{what}: {value} is too small; at least {lo}")
    if value > hi:
        raise InputError(f"{what}: {_big(value)} is too large; at most {hi}")
    return int(value)


def seconds(value: object, what: str = "the time limit") -> float:
    """A positive, finite number of seconds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number of seconds, not {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:
        raise InputError(f"{what}: {_big(value)} seconds is too large") from None
    if math.isnan(number) or number <= 0:
        raise InputError(f"{what} must be positive, not {value}")
    if math.isinf(number) or number > 1e9:
        raise InputError(f"{what}: {value} seconds is too large; at most 1e9")
    return number


def parse_seconds(text: str, what: str) -> float:
    """Seconds written as a decimal number in ASCII (``2``, ``0.5``, ``1e3``)."""
    raw = text.strip()
    if not _SIGNED.fullmatch(raw):
        raise InputError(f"{what}: {shorten(raw)} is not a number of seconds")
    if len(raw) > 40:
        raise InputError(f"{what}: {shorten(raw)} is too long for a number of seconds")
    return seconds(float(raw), what)


def parse_fraction(text: str, what: str, hi: float) -> float:
    """A decimal number in ASCII from 0 to ``hi`` (``1``, ``0.5``, ``2e-1``)."""
    raw = text.strip()
    if not _UNSIGNED.fullmatch(raw):
        raise InputError(f"{what}: {shorten(raw)} is not a number from 0 to {hi:g}")
    value = float(raw[:40])
    if len(raw) > 40 or not 0 <= value <= hi:
        raise InputError(f"{what}: {shorten(raw)} is not a number from 0 to {hi:g}")
    return value


def number(value: object, what: str, lo: float, hi: float) -> float:
    """A finite number from ``lo`` to ``hi`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number, not {type(value).__name__}")
    if not math.isfinite(value) or not lo <= value <= hi:
        raise InputError(f"{what}: {value!r} is not a number from {lo:g} to {hi:g}")
    return float(value)


def workers(value: object, what: str = "workers") -> int:
    """A number of worker processes: 1 up to :func:`max_workers`."""
    return whole(value, what, 1, max_workers())


def coord(value: object, what: str) -> tuple[int, int, int]:
    """Three whole numbers (x, y, z): TypeError for a non-sequence or non-ints."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise TypeError(
            f"{what} must be a sequence of 3 ints (x, y, z), not {type(value).__name__}"
        )
    if len(value) != 3:
        raise InputError(f"{what}: {_short_seq(value)} has {len(value)} coordinates; give 3")
    out = tuple(whole(v, f"{what} coordinate", -MAX_NUMBER, MAX_NUMBER) for v in value)
    return out  # type: ignore[return-value]


def box_sides(sides: Sequence[int], what: str = "box") -> tuple[int, int, int]:
    """Checked box sides: each 1..MAX_SIDE, and at most MAX_CUBES cells in all."""
    checked = tuple(whole(s, f"{what} side", 1, MAX_SIDE) for s in sides)
    volume = math.prod(checked)
    if volume > MAX_CUBES:
        raise InputError(
            f"{what} {'x'.join(map(str, checked))} has {volume} cells; "
            f"snakecube handles at most {MAX_CUBES}"
        )
    return checked  # type: ignore[return-value]


def cell_count(cells: int, what: str, most: int = MAX_CUBES, job: str = "") -> None:
    """Refuse a target or snake with more than ``most`` cells (``job`` names the command)."""
    if cells > most:
        for_job = f" for {job}" if job else ""
        raise InputError(f"{what} has {cells} cells; snakecube handles at most {most}{for_job}")


def _big(value: object) -> str:
    text = str(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text


def _short_seq(value: Sequence[object]) -> str:
    text = repr(tuple(value)) if len(value) < 8 else f"a sequence of {len(value)}"
    return text if len(text) < 80 else text[:77] + "..."


def _opened(path: str | os.PathLike[str]) -> BinaryIO:
    """The file at ``path`` for reading bytes; ``-``: standard input (left open after)."""
    if os.fspath(path) == "-":
        return open(0, "rb", closefd=False)
    return open(path, "rb")


def read_bounded(path: str | os.PathLike[str], most: int, seconds: float | None = None) -> bytes:
    """The first ``most`` + 1 bytes of the file at ``path`` (so a caller sees it is too long),
    read within ``seconds`` if given: a FIFO nobody writes to, or a hung network mount, would
    block a read for ever (a ``--region`` FIFO hung a command past its ``--seconds``). The
    read runs in a thread of its own; past ``seconds`` a TimeoutError, and the thread is left
    blocked (a daemon: it does not keep the process). OSError as ``open`` raises it. The
    path ``-`` is standard input, as for most tools (``check --file -``, ``--region -``)."""
    if seconds is None:
        with _opened(path) as f:
            return f.read(most + 1)
    got: list[bytes | BaseException] = []

    def read() -> None:
        try:
            with _opened(path) as f:
                got.append(f.read(most + 1))
        except BaseException as err:  # handed to the caller's thread
            got.append(err)

    reader = threading.Thread(target=read, name="snakecube-read", daemon=True)
    reader.start()
    reader.join(seconds)
    if not got:
        raise TimeoutError(
            f"reading it took longer than the time limit ({seconds:.3g} s): is it a pipe "
            "nobody writes to?"
        )
    if isinstance(got[0], BaseException):
        raise got[0]
    return got[0]
