"""Fold plans: quarter turns a person can perform, from the snake lying flat to a solution.

seeds/004 left this open: the dangling tail can hit cubes already placed. :func:`plan` finds
moves such that every state on the way is valid, with the fewest quarter turns, placing
segments in order from one end where it can, and preferring swings that pass clear of the
placed cubes. :func:`guide` turns a plan into what a person follows: each step's corner
counted on the chain, its turn, the checks to see after it and what to do if one fails;
:func:`dialog` is the way back from a slip noticed later.

The modules, in the order data flows through them: ``model`` (configurations, moves, swings:
the exact model), ``planner`` (the search over dihedral states), ``plans`` (a plan for a
solution from either end, and the easiest solution to fold), ``guide`` (the plan as a person
follows it, as data), ``wrong`` (the questions that find a slip), ``words`` (the guide in
words), ``choice`` (which solution a command shows or folds) and ``survey`` (the fold census
of every solution of every design of a box).
"""

from snakecube.fold.guide import Check, Find, Guide, GuideStep, Slip, guide
from snakecube.fold.plans import (
    EASIEST_RULE,
    ENDS,
    FoldPlan,
    below_table,
    easiest,
    easiest_index,
    fewest_bound,
    hanging_tails,
    lower_bound,
    orientation,
    plan,
    plan_interrupted,
    problems,
    rank,
)
from snakecube.fold.words import (
    order_words,
    start_words,
    step_words,
    steps_in_words,
    table_words,
)
from snakecube.fold.wrong import Ask, Verdict, dialog
from snakecube.snake import which_end

__all__ = [
    "EASIEST_RULE",
    "ENDS",
    "Ask",
    "Check",
    "Find",
    "FoldPlan",
    "Guide",
    "GuideStep",
    "Slip",
    "Verdict",
    "below_table",
    "dialog",
    "easiest",
    "easiest_index",
    "fewest_bound",
    "guide",
    "hanging_tails",
    "lower_bound",
    "order_words",
    "orientation",
    "plan",
    "plan_interrupted",
    "problems",
    "rank",
    "start_words",
    "step_words",
    "steps_in_words",
    "table_words",
    "which_end",
]
