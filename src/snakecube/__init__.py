"""snakecube: read a snake-cube puzzle in any notation, fold it into any target, count exactly.

>>> import snakecube
>>> r = snakecube.solve("seed-blue")
>>> r.placements, r.distinct, r.distinct_up_to_reversal
(576, 12, 6)

Coordinates are 0-based ``(x, y, z)`` everywhere. The public vocabulary:

* :class:`Snake`: the chain, as segment lengths, with parse/format for every notation;
* :class:`Box`, :class:`Region`: the target and its symmetry group;
* :class:`Solution`: one folded snake; :class:`Result`: counts plus solutions;
* :func:`solve`, :func:`solutions`, :func:`count`: the search; :func:`verify`: the checker.

The names are loaded on first use, so ``import snakecube`` (and the command's start) costs
next to nothing until one is needed.
"""

from __future__ import annotations

import sys

# The ``snakecube`` command (or ``python -m snakecube``) takes over the stop signals before
# anything else is imported, so Ctrl-C at any moment exits 130 with no traceback
# (``snakecube.stop``). A program that imports snakecube keeps its own signal handling.
_argv = getattr(sys, "argv", None) or [""]  # embedded interpreters may have none
if _argv[0].rpartition("/")[2] == "snakecube" or getattr(sys, "orig_argv", [])[1:3] == [
    "-m",
    "snakecube",
]:
    from snakecube import stop

    stop.starting()

import importlib  # noqa: E402 - after the stop signals

# Loaded now, not on first use: the module and the function share the name ``verify``, and
# a later import of the module would otherwise put the module in the function's place.
from snakecube.verify import InvalidSolution, verify  # noqa: E402

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (6 ms) at the start
if TYPE_CHECKING:
    from typing import Any

    from snakecube.errors import InputError
    from snakecube.search import count, solutions, solve
    from snakecube.shape import Box, Region
    from snakecube.snake import Snake
    from snakecube.solution import Result, Solution

_HOMES = {
    "Box": "snakecube.shape",
    "InputError": "snakecube.errors",
    "Region": "snakecube.shape",
    "Result": "snakecube.solution",
    "Snake": "snakecube.snake",
    "Solution": "snakecube.solution",
    "count": "snakecube.search",
    "solutions": "snakecube.search",
    "solve": "snakecube.search",
}
__all__ = [
    "Box",
    "InputError",
    "InvalidSolution",
    "Region",
    "Result",
    "Snake",
    "Solution",
    "count",
    "solutions",
    "solve",
    "verify",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'snakecube' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
