"""The pruning flags and first-search checks (``search.options``) against the C header; the
named states' plain strings at the API's edge."""

import re
from pathlib import Path

import pytest

import snakecube as sc
from snakecube import fold
from snakecube.errors import InputError
from snakecube.search import options
from snakecube.search.options import Check, Prune
from snakecube.search.strategy import Strategy, check_strategy
from snakecube.solution import Style

HEADER = Path(options.__file__).parent.parent / "csrc" / "sc.h"


def _defines(prefix: str) -> dict[str, int]:
    """The header's ``#define SC_<prefix>NAME <number>`` lines, as {NAME: number}."""
    text = HEADER.read_text(encoding="utf-8")
    found = re.findall(rf"^#define SC_{prefix}(\w+)\s+(\d+)\b", text, re.MULTILINE)
    return {name: int(value) for name, value in found}


def test_the_flags_are_the_headers_defines():
    first = _defines("FIRST_")
    prune = {k: v for k, v in _defines("").items() if not k.startswith("FIRST_")}
    assert prune.pop("TAIL_SEGMENTS") == options.TAIL_SEGMENTS  # a count, not a flag
    assert prune == {member.name: member.value for member in Prune}
    assert first == {member.name: member.value for member in Check}
    # each flag is one bit, and the module's names are the members
    assert all(m.value.bit_count() == 1 for m in (*Prune, *Check))
    assert options.DEFAULT_PRUNE == Prune.DEAD_END | Prune.PARITY | Prune.TAIL
    assert options.FIRST_SWEEP is Check.SWEEP and options.TAIL is Prune.TAIL


def test_the_api_takes_plain_names_and_refuses_unknown_ones():
    solution = sc.solve("standard").solutions[0]
    assert solution.direction_names("letters") == solution.direction_names(Style.LETTERS)
    assert solution.direction_names()[0] in ("+x", "-x", "+y", "-y", "+z", "-z")
    assert check_strategy("depth-first") is Strategy.DEPTH_FIRST
    assert fold.plan(solution, "last").held == "last"
    for call in (
        lambda: solution.direction_names("arrows"),
        lambda: check_strategy("breadth-first"),
        lambda: fold.plan(solution, "middle"),
        lambda: sc.solve("standard", strategy="fastest"),
    ):
        with pytest.raises(InputError) as err:
            call()
        assert "<" not in str(err.value)  # a name, never an enum's repr


def test_the_strategies_and_the_portfolio_come_from_the_member_registry():
    """search.members is the one list of first-solution members: the strategies of one member,
    the portfolio, auto's lists, the order of acceptance and the classes all follow it."""
    from snakecube.search import first, members, strategy
    from snakecube.search.first import schedule

    assert {s.value for s in Strategy} == {"auto", "depth-first", "portfolio", *members.ALONE}
    assert set(strategy.FIRST_STRATEGIES[Strategy.PORTFOLIO]) == set(members.PORTFOLIO)
    assert schedule.MEMBERS == members.NAMES == tuple(first.KINDS)
    for m in members.MEMBERS:
        assert first.KINDS[m.name].name == m.name, m  # each class says the name it is under
    assert set(strategy.AUTO_MEMBERS) | set(strategy.PATTERN_MEMBERS) <= set(members.NAMES)
