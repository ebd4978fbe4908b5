"""Named puzzles as data (``catalog.json``, beside this module): each with its turn string,
its usual target and where it was published.

The catalog holds sequences only. Answers (how many solutions) are computed, never stored here;
tests compare the computed answers with the published ones in ``tests/data/known.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Entry:
    """One published puzzle."""

    name: str
    turns: str
    box: tuple[int, int, int]
    source: str
    aliases: tuple[str, ...] = ()
    # the same design published from its other end: (name, turns as published, source)
    other_end: tuple[tuple[str, str, str], ...] = ()


def _entries() -> tuple[Entry, ...]:
    """The puzzles of ``catalog.json``, in its order."""
    data = json.loads(Path(__file__).with_name("catalog.json").read_text("utf-8"))
    return tuple(
        Entry(
            p["name"],
            p["turns"],
            (p["box"][0], p["box"][1], p["box"][2]),
            p["source"],
            tuple(p.get("aliases", ())),
            tuple((o["name"], o["turns"], o["source"]) for o in p.get("other_end", ())),
        )
        for p in data["puzzles"]
    )


ENTRIES: tuple[Entry, ...] = _entries()


def _inside(turns: str) -> str:
    """The turns of the cubes between the two ends: what makes the design (an end cube is
    written E or S by different sources)."""
    return turns.upper()[1:-1]


def _design_key(turns: str) -> str:
    """One spelling per design: the inner turns or their reverse, whichever sorts first."""
    inner = _inside(turns)
    return min(inner, inner[::-1])


def same_design() -> dict[str, list[Entry]]:
    """Entries that are the same design (equal turn strings, or one the other reversed),
    keyed by the canonical entry's name (the first listed); only groups of two or more."""
    groups: dict[str, list[Entry]] = {}
    for e in ENTRIES:
        groups.setdefault(_design_key(e.turns), []).append(e)
    return {g[0].name: g for g in groups.values() if len(g) > 1}


def recognize(turns: str) -> tuple[Entry, bool] | None:
    """The catalog entry with this design, and whether the snake is typed from the entry's
    other end; None when it is not in the catalog.

    >>> recognize("ESCSCSCSCCCCSCSCCCSCCSCCCSE")[0].name
    'standard'
    """
    inner = _inside(turns)
    for e in ENTRIES:
        if _inside(e.turns) == inner:
            return e, False
    for e in ENTRIES:
        if _inside(e.turns)[::-1] == inner:
            return e, True
    return None


def recognized(turns: str, typed: str = "") -> str:
    """'this is the catalog's standard, also called cubra-blue', or '' when the snake is not
    in the catalog (or was typed by that name).

    >>> recognized("ESCCCCCCCCCSCCCCCCCSCSCCCCS")
    "this is the catalog's seed-orange, also called cubra-red"
    """
    found = recognize(turns)
    if found is None:
        return ""
    entry, reversed_ = found
    named = find(typed) if typed else None
    if named is not None and _inside(named.turns) == _inside(turns):
        return ""  # typed by its name
    return f"this is {called(entry, reversed_)}"


def called(entry: Entry, reversed_: bool = False, aliases: bool = True) -> str:
    """How people call the catalog's ``entry`` (read from its other end with ``reversed_``):
    'the catalog's standard, also called cubra-blue' (without ``aliases``: 'the catalog's
    standard'), 'seed-green: the catalog's standard, read from its other end'. Plain words:
    a line may put it in brackets."""
    if _inside(entry.turns)[::-1] == _inside(entry.turns):
        reversed_ = False  # a palindrome reads the same from both ends
    if reversed_ and entry.other_end:
        names = " and ".join(n for n, _, _ in entry.other_end)
        return f"{names}: the catalog's {entry.name}, read from its other end"
    aka = f", also called {', '.join(entry.aliases)}" if entry.aliases and aliases else ""
    end = ", read from its other end" if reversed_ else ""
    return f"the catalog's {entry.name}{aka}{end}"


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


_BY_NAME = {
    **{_key(n): e for e in ENTRIES for n in (e.name, *e.aliases)},
    **{
        _key(n): Entry(e.name, turns, e.box, source)
        for e in ENTRIES
        for n, turns, source in e.other_end
    },
}


def find(name: str) -> Entry | None:
    """The entry called ``name`` (or one of its aliases), ignoring case; None if there is none."""
    return _BY_NAME.get(_key(name))


def names() -> list[str]:
    """Every name and alias the catalog answers to."""
    return sorted(_BY_NAME)
