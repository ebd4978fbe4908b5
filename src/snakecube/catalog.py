"""Named puzzles as data: each with its turn string, its usual target and where it was published.

The catalog holds sequences only. Answers (how many solutions) are computed, never stored here;
tests compare the computed answers with the published ones in ``tests/data/known.json``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entry:
    """One published puzzle."""

    name: str
    turns: str
    box: tuple[int, int, int]
    source: str
    aliases: tuple[str, ...] = ()


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "standard",
        "ESCSCSCSCCCCSCSCCCSCCSCCCSE",
        (3, 3, 3),
        "the common wooden 3x3x3 snake; seeds/000 (MiniZinc), seeds/002 (elbows), "
        "seeds/004 ('standard', listed from the other end)",
        ("cubra-blue",),
    ),
    Entry(
        "seed-red",
        "SSCCCCCCSCCSCCCCCSCCSCCCCSS",
        (3, 3, 3),
        "seeds/003: the red puzzle",
    ),
    Entry(
        "seed-blue",
        "SCCCCSCSCCCCCCCCCCCSCSCCCCS",
        (3, 3, 3),
        "seeds/003: the blue puzzle (a palindrome)",
        ("cubra-purple",),
    ),
    Entry(
        "seed-green",
        "SSCCCSCCSCCCSCSCCCCSCSCSCSS",
        (3, 3, 3),
        "seeds/003: the green puzzle",
    ),
    Entry(
        "seed-orange",
        "SSCCCCCCCCCSCCCCCCCSCSCCCCS",
        (3, 3, 3),
        "seeds/003: the orange puzzle",
        ("cubra-red",),
    ),
    Entry(
        "mean-green",
        "ESCSCSCCSCSCSCCCCSCCSCCSCSE",
        (3, 3, 3),
        "seeds/004 names it (16 sections); the Creative Crafthouse 'Mean Green' / Cubra Green",
        ("cubra-green",),
    ),
    Entry(
        "cubra-orange",
        "ESCSCCCCSCCCCCCCCSCCCSCCCSE",
        (3, 3, 3),
        "the published Cubra Orange sequence",
    ),
    Entry(
        "king",
        "CSCCSCCCSSCCSCCSCCSCCCCCCCCCSCSCCCCCCSCSSCCCCSSCCSCCCCCCCCCCSSCC",
        (4, 4, 4),
        "the 4x4x4 'king snake': seeds/003 (brown), seeds/004 (king, 46 sections)",
        ("seed-brown", "king-a"),
    ),
)


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


_BY_NAME = {_key(n): e for e in ENTRIES for n in (e.name, *e.aliases)}


def find(name: str) -> Entry | None:
    """The entry called ``name`` (or one of its aliases), ignoring case; None if there is none."""
    return _BY_NAME.get(_key(name))


def names() -> list[str]:
    """Every name and alias the catalog answers to."""
    return sorted(_BY_NAME)
