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
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The checker's name is also its module's, which would hide the function once the search had
# imported the module, so it comes with the package (the module imports collections.abc only).
from snakecube.verify import InvalidSolution, verify

if TYPE_CHECKING:
    from snakecube.errors import InputError
    from snakecube.search import count, solutions, solve
    from snakecube.shape import Box, Region
    from snakecube.snake import Snake
    from snakecube.solution import Result, Solution

__version__ = "0.1.0"

# The other public names are imported when first used (PEP 562), not with the package: the
# ``snakecube`` command imports this package before its entry point can take Ctrl-C
# (``snakecube.stop``), so importing it must take no time worth the name.
_HOMES = {
    "InputError": "snakecube.errors",
    "count": "snakecube.search",
    "solutions": "snakecube.search",
    "solve": "snakecube.search",
    "Box": "snakecube.shape",
    "Region": "snakecube.shape",
    "Snake": "snakecube.snake",
    "Result": "snakecube.solution",
    "Solution": "snakecube.solution",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'snakecube' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once: later uses find it as a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


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
