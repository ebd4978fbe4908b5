"""Nearby designs: when a snake does not fold, the designs one plausible typo away that do.

A person copying a snake from a box or a web page slips in a few typical ways; each is one
*edit* of the segment lengths, tried here from the most to the least likely:

1. two neighbouring lengths swapped (``3,2`` typed as ``2,3``);
2. a corner moved by one cube (``CS`` typed as ``SC``): one length one more, its neighbour
   one less;
3. one length mistyped (any other value that keeps the cube count right);
4. a corner typed as a straight, or a straight as a corner (two segments merged, or one
   split: the turn string has one wrong letter);
5. a length left out or typed twice (a segment removed or added).

The catalog's puzzles come first (:func:`catalog_typos`): a snake one typo away from a
published puzzle is most likely that puzzle mistyped, at every size, so it is named before
any other design, and it is known to fold.

Only candidates with the target's cube count and no segment longer than the target's
longest side are tried. Each is checked with node limits, so the answer is the same on
every machine: first whether it folds at all, then how many distinct solutions it has.
A time limit (``seconds``) bounds the whole look-up: past it, the designs found so far are
the answer (the command-line tool gives a hint a fixed small budget, so that a refusal stays
quick). A node budget for the whole look-up (``nodes``) with one ``engine`` gives the same
answer on every machine and in every Python: the web page asks for it so that the static
site (Pyodide) and the server suggest the same designs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from snakecube import catalog, limits
from snakecube.search import solve
from snakecube.search.inputs import as_snake, as_target
from snakecube.shape import Box, Region
from snakecube.snake import Snake
from snakecube.solution import Result
from snakecube.stop import StopReason

FIRST_NODES = 300_000  # nodes to decide whether a candidate folds
COUNT_NODES = 5_000_000  # nodes to count the solutions of one that does


@dataclass(frozen=True, slots=True)
class Nearby:
    """A design one typo away that folds, and how many distinct solutions it has."""

    snake: Snake
    edit: str
    distinct: int
    complete: bool  # False when ``distinct`` is a lower bound (the count hit its node limit)
    name: str = ""  # the catalog's name for the design, when it is a catalog puzzle

    def to_dict(self) -> dict[str, object]:
        """``{"segment_lengths", "edit", "distinct", "complete", "name"}``."""
        return {
            "segment_lengths": list(self.snake.lengths),
            "edit": self.edit,
            "distinct": self.distinct,
            "complete": self.complete,
            "name": self.name or None,
        }


@dataclass(frozen=True, slots=True)
class Typo:
    """A catalog puzzle one typo away from a snake: the design as typed (in the snake's
    direction), the edit that makes it, and its catalog entry."""

    snake: Snake
    edit: str
    entry: catalog.Entry
    reversed: bool  # the snake was typed from the entry's other end

    @property
    def name(self) -> str:
        """The catalog's name for the design in the direction typed: ``standard``, or
        ``seed-green`` for the standard read from its other end."""
        if self.reversed and self.entry.other_end:
            return self.entry.other_end[0][0]
        return self.entry.name

    def said(self) -> str:
        """'one typo from the catalog's king: segments 1 and 2 swapped (2,3 -> 3,2)'."""
        return f"one typo from {catalog.called(self.entry, self.reversed, False)}: {self.edit}"


def catalog_typos(snake: Snake | str, target: Region | str | None = None) -> list[Typo]:
    """The catalog's puzzles one typo away from ``snake`` (an edit of :func:`edits`), the
    most likely typo first; only those whose box is ``target`` (without one, any box)."""
    region = None if target is None else as_target(target)
    snake = as_snake(snake, region)
    if region is not None and not isinstance(region, Box):
        return []  # a region drawn by hand is no catalog puzzle's box
    by_size: dict[tuple[int, int], dict[tuple[int, ...], tuple[int, str]]] = {}
    found = []
    for entry in catalog.ENTRIES:
        if region is not None and sorted(region.dims) != sorted(entry.box):
            continue
        size = (entry.box[0] * entry.box[1] * entry.box[2], max(entry.box))
        if abs(snake.cubes - size[0]) >= max(*snake.lengths, size[1]):
            continue  # one typo changes the cube count by less than the longest segment
        if size not in by_size:  # every typo of the snake that makes a design of this size
            by_size[size] = {}
            for rank, (c, words) in enumerate(edits(snake, *size)):
                by_size[size].setdefault(c.lengths, (rank, words))
        lengths = Snake.from_turns(entry.turns).lengths
        for rev, typed in ((False, lengths), (True, lengths[::-1])):
            if typed in by_size[size]:
                rank, words = by_size[size][typed]
                found.append((rank, Typo(Snake(typed), words, entry, rev)))
                break
    return [t for _, t in sorted(found, key=lambda f: f[0])]


ITEM_NOTATIONS = ("steps", "runs")  # read so, the edits quote the items typed, not lengths


def written_as_typed(design: Snake, typed: Snake) -> str | None:
    """``design`` in the notation ``typed`` was read in, where the edits quote its items
    (steps, runs with each corner counted once), so that the design reads as the numbers
    the person typed; None otherwise (then its segment lengths are what the edits quote)."""
    return design.format(typed.notation) if typed.notation in ITEM_NOTATIONS else None


def edits(snake: Snake, cubes: int, longest: int) -> Iterator[tuple[Snake, str]]:
    """Candidate designs, most likely typo first, each once, with ``cubes`` cubes and no
    segment longer than ``longest``; the words quote the numbers as the snake was typed (a
    snake read as steps or as runs with each corner counted once says its items, not the
    segments' lengths)."""
    e = _Edits(snake, cubes, longest)
    yield from e.moved()
    yield from e.recounted()


class _Edits:
    """The typos :func:`edits` undoes, by kind, each design given once."""

    def __init__(self, snake: Snake, cubes: int, longest: int) -> None:
        self.snake, self.cubes, self.longest = snake, cubes, longest
        self.seen = {snake.lengths}
        self.ls = list(snake.lengths)
        typed = snake.notation in ITEM_NOTATIONS
        self.noun, self.nouns = ("item", "items") if typed else ("segment", "segments")

    def t(self, i: int, v: int) -> int:
        """Segment i's length v as the person typed it."""
        if self.snake.notation == "steps" or (self.snake.notation == "runs" and i > 0):
            return v - 1
        return v

    def out(self, new: list[int], words: str) -> Iterator[tuple[Snake, str]]:
        """``new`` with its words, if it is a design of the cube count not given before."""
        if (
            new
            and min(new) >= 2
            and max(new) <= self.longest
            and sum(new) - len(new) + 1 == self.cubes
            and tuple(new) not in self.seen
        ):
            self.seen.add(tuple(new))
            yield Snake(tuple(new)), words

    def moved(self) -> Iterator[tuple[Snake, str]]:
        """The typos that keep the cube count: neighbours swapped, a corner moved by one."""
        ls, t, n = self.ls, self.t, len(self.ls)
        for i in range(n - 1):  # 1. neighbours swapped
            new = [*ls[:i], ls[i + 1], ls[i], *ls[i + 2 :]]
            yield from self.out(
                new,
                f"{self.nouns} {i + 1} and {i + 2} swapped ({t(i, ls[i])},{t(i + 1, ls[i + 1])}"
                f" -> {t(i, ls[i + 1])},{t(i + 1, ls[i])})",
            )
        for i in range(n - 1):  # 2. a corner moved by one cube
            for d in (1, -1):
                new = [*ls[:i], ls[i] + d, ls[i + 1] - d, *ls[i + 2 :]]
                yield from self.out(
                    new,
                    f"the corner after {self.noun} {i + 1} moved by one cube "
                    f"({t(i, ls[i])},{t(i + 1, ls[i + 1])} -> {t(i, ls[i] + d)},"
                    f"{t(i + 1, ls[i + 1] - d)})",
                )

    def recounted(self) -> Iterator[tuple[Snake, str]]:
        """The typos that change the cube count, given back only where the target's count
        comes out: one length each (the count is sum - segments + 1), not every length up to
        the target's longest line (a 600-cube snake in 600x1x1 built 2 million lists)."""
        ls, t, n, noun = self.ls, self.t, len(self.ls), self.noun
        short = self.cubes - (sum(ls) - n + 1)  # cubes missing (less than 0: too many)
        for i in range(n):  # 3. one length mistyped
            v = ls[i] + short
            if v != ls[i] and 2 <= v <= self.longest:
                new = [*ls[:i], v, *ls[i + 1 :]]
                yield from self.out(new, f"{noun} {i + 1}: {t(i, ls[i])} -> {t(i, v)}")
        for i in range(n - 1):  # 4a. a corner typed as a straight: two segments merged back
            new = [*ls[:i], ls[i] + ls[i + 1] - 1, *ls[i + 2 :]]
            yield from self.out(
                new,
                f"{self.nouns} {i + 1} and {i + 2} ({t(i, ls[i])},{t(i + 1, ls[i + 1])}) are "
                f"one: {t(i, ls[i] + ls[i + 1] - 1)}",
            )
        for i in range(n):  # 4b. a straight typed as a corner: one segment split
            for a in range(2, ls[i]):
                new = [*ls[:i], a, ls[i] - a + 1, *ls[i + 1 :]]
                yield from self.out(
                    new,
                    f"{noun} {i + 1} ({t(i, ls[i])}) is two: {t(i, a)},{t(i + 1, ls[i] - a + 1)}",
                )
        v = short + 1  # 5a. a length left out: it adds v - 1 cubes
        article = "an" if noun == "item" else "a"
        for i in range(n + 1) if 2 <= v <= self.longest else ():
            new = [*ls[:i], v, *ls[i:]]
            yield from self.out(
                new,
                f"{article} {noun} of {t(i, v)} left out before {noun} {i + 1}"
                if i < n
                else f"a last {noun} of {t(i, v)} left out",
            )
        for i in range(n):  # 5b. a length typed twice (or one too many): it had ls[i] - 1
            if ls[i] - 1 == -short:
                new = [*ls[:i], *ls[i + 1 :]]
                yield from self.out(new, f"{noun} {i + 1} ({t(i, ls[i])}) is one too many")


def nearby(
    snake: Snake | str,
    target: Region | str | None = None,
    limit: int = 5,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    engine: str | None = None,
    known: bool = True,
) -> list[Nearby]:
    """Up to ``limit`` designs one typo away from ``snake`` that fold into ``target``
    (default: the cube whose volume is nearest the snake's cube count), found within
    ``seconds`` and ``nodes`` (both for the whole look-up) if given, searched by ``engine``
    (default: the fastest here). With ``known``, the catalog's puzzles come first
    (:func:`catalog_typos`), named, each listed even when the time or nodes run out before
    its count ends (it is known to fold: its count is then a lower bound)."""

    limit = limits.whole(limit, "limit", 1, 100)
    budget = limits.whole(nodes, "nodes", 1, 10**12) if nodes is not None else None
    deadline = None if seconds is None else time.monotonic() + limits.seconds(seconds)
    region = None if target is None else as_target(target)
    snake = as_snake(snake, region)
    if region is None:
        side = max(2, round(snake.cubes ** (1 / 3)))
        region = Box(side, side, side)
    longest = max(region.dims)
    found: list[Nearby] = []
    search = _Searches(region, engine, deadline, budget)
    for typo in catalog_typos(snake, region) if known else []:
        distinct, complete = 1, False  # a catalog puzzle folds: at least one solution
        if not search.out_of_time():
            count = search.run(typo.snake, COUNT_NODES)
            distinct, complete = max(count.distinct, 1), count.complete
        found.append(Nearby(typo.snake, typo.edit, distinct, complete, typo.name))
        if len(found) == limit:
            return found
    named = {n.snake.lengths for n in found}
    for candidate, words in edits(snake, region.volume, longest):
        if search.out_of_time():
            break
        if candidate.lengths in named or not search.run(candidate, FIRST_NODES, 1).solutions:
            continue
        count = search.run(candidate, COUNT_NODES)
        found.append(Nearby(candidate, words, max(count.distinct, 1), count.complete))
        if len(found) == limit:
            break
    return found


@dataclass
class _Searches:
    """The searches of one :func:`nearby` look-up, sharing its time limit and node budget."""

    region: Region
    engine: str | None
    deadline: float | None
    budget: int | None  # nodes left for the whole look-up, or None with no node limit

    def out_of_time(self) -> bool:
        return (self.deadline is not None and time.monotonic() >= self.deadline) or (
            self.budget == 0
        )

    def run(self, snake: Snake, nodes: int, limit: int | None = None) -> Result:
        """A search of ``snake`` (a count, or ``limit`` solutions) within ``nodes`` nodes and
        what is left of the look-up's time and nodes. With a node budget, depth first from
        the first end: the same order in every engine."""
        strategy, reverse = ("auto", None) if self.budget is None else ("depth-first", False)
        result = solve(
            snake,
            self.region,
            limit=limit,
            max_nodes=nodes if self.budget is None else min(nodes, self.budget),
            seconds=None if self.deadline is None else max(1e-3, self.deadline - time.monotonic()),
            workers=1,
            engine=self.engine,
            strategy=strategy,
            reverse=reverse,
        )
        if self.budget is not None:
            self.budget = max(0, self.budget - result.nodes)
        if result.stop_reason == StopReason.INTERRUPTED:
            raise KeyboardInterrupt
        return result
