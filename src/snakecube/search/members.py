"""The first-solution members, by name: one registry, from which the portfolio's order, the
strategies of one member, what ``auto`` runs and the classes that run are all derived.

An entry names its class as ``module:Class`` (as packaging's entry points do), imported only
when a member runs: choosing the members costs a search no import (``search.strategy`` asks
here; ``search.first`` imports the classes).

Decided: ``search.strategy.Strategy`` stays a ``StrEnum`` written out, because its names are
part of the typed API (``Strategy.SAT``) that mypy checks, and an enum built from this table
would be opaque to it; ``tests/test_options.py`` holds the enum to this table. Rejected: the
members registering themselves on import (a decorator), which would make the list depend on
what happened to be imported.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Entry:
    """One first-solution member."""

    name: str
    where: str  # "module:Class", the class that runs it (``search.first.member.MemberType``)
    alone: bool  # also a strategy of its own (strategy=NAME)
    portfolio: bool  # run by strategy=portfolio
    auto: bool  # run by auto for a first solution of a big target
    patterned: bool  # run by auto for a snake whose corners follow the grid's colouring

    def load(self) -> Any:
        """The member's class."""
        module, _, name = self.where.partition(":")
        return getattr(importlib.import_module(module), name)


# In the order runs are accepted on a tie (``search.first.schedule``).
MEMBERS = (
    Entry("restarts", "snakecube.search.first.restarts:Portfolio", True, True, True, True),
    Entry("sat", "snakecube.search.sat:SatMember", True, True, False, True),
    Entry("depth-first", "snakecube.search.first.depth:DepthFirst", False, False, True, False),
    Entry("beam", "snakecube.search.first.beam:BeamMember", True, False, True, False),
)
NAMES = tuple(m.name for m in MEMBERS)
AUTO = tuple(m.name for m in MEMBERS if m.auto)
PATTERNED = tuple(m.name for m in MEMBERS if m.patterned)
PORTFOLIO = tuple(m.name for m in MEMBERS if m.portfolio)
ALONE = tuple(m.name for m in MEMBERS if m.alone)
