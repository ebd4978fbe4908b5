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

__version__ = "0.1.0"

from snakecube.errors import InputError
from snakecube.search import count, solutions, solve
from snakecube.shape import Box, Region
from snakecube.snake import Snake
from snakecube.solution import Result, Solution
from snakecube.verify import InvalidSolution, verify

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
