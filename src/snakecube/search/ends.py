"""Which end of the snake to search from, decided once per search.

The same snake searched from its other end has the same solutions (each read backwards) but
a different tree, and the two can differ a thousandfold (``search.estimate``). A count with
no fixed start or path, and no end asked for, runs from the last end when Knuth's estimate
of that tree is ``AUTO_END_RATIO`` times smaller; the first-solution members choose their
own end (``first.depth``) from the same estimates.
"""

from __future__ import annotations

from snakecube.search.estimate import tree_size
from snakecube.search.inputs import Inputs
from snakecube.search.strategy import SMALL

AUTO_END_NODES = 10_000_000  # estimated nodes from the first end above which the last is tried
AUTO_END_RATIO = 4  # the last end is taken when its tree is estimated this many times smaller


def last_end_pays(inputs: Inputs) -> bool:
    """Is the tree from the snake's last end estimated much smaller (docs/design.md)?"""
    problem = inputs.problem
    if not inputs.free or problem.snake.is_palindrome:
        return False
    if problem.ncells <= SMALL:  # small trees: the estimate would cost more than it saves
        return False

    forwards = tree_size(problem)
    if forwards < AUTO_END_NODES:
        return False
    return tree_size(problem.reversed()) * AUTO_END_RATIO < forwards
