"""The way back: a person at step K sees something that does not match. :func:`dialog` asks a
few yes/no questions about what they see, each a check (``guide.Check``) counted from an end,
and names the step that went wrong and the turns that undo it.

The shapes a person can hold at step K (:func:`guesses`): the plan's own, before or after
step K's turn; or a usual slip (``guide.slips_of``) at step K, K-1 or K-2, followed by the
steps after it made as their words say. A step found from the corner turned last is then
counted from the corner the person really turned, so a miscount moves every such count after
it; a step they cannot make (its corner is not there, or the turn runs into itself) stops
them. The questions split those shapes, the most evenly first, the fewest corners to count
on a tie; a question never counts from a turned corner, since that count may have moved.
Each answer leads to another question or to a verdict (:class:`Verdict`): the step that went
wrong and how, and the turns that undo it, each counted from an end, back to the state
before that step. Of guesses with one shape, the verdict names the plan's own state first,
then the latest slip, then the one with the fewest turns to undo.

Decision: a tree of questions, worked out at once, so that the page, the command line and a
test walk the same answers (``fold --json --went-wrong K``). Rejected: one question about
every run (dozens for a king); asking the person which steps they made (they may not know:
a miscount looks like a step made right).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from snakecube.errors import InputError
from snakecube.fold.guide import At, Chain, Check, Find, Guide, Slip, slips_of
from snakecube.fold.model import Vec, dihedrals_of
from snakecube.vector import WAYS

WINDOW = 3  # a slip is looked for at step K and the WINDOW - 1 steps before it
Shape = tuple[Vec, ...]


@dataclass(frozen=True, slots=True)
class Guess:
    """A shape the person may hold: the step that went wrong (1-based; 0: none did) and its
    slip, the turns made since the state before that step (corner rank, quarter turns), and
    how many of the plan's steps the person thinks they have made."""

    step: int
    slip: Slip | None
    made: tuple[tuple[int, int], ...]
    done: int
    cells: Shape


@dataclass(frozen=True, slots=True)
class Undo:
    """One turn back: the corner counted from an end, turned ``quarter_turns``."""

    at: At
    quarter_turns: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.at.to_dict(), "quarter_turns": self.quarter_turns}


@dataclass(frozen=True, slots=True)
class Verdict:
    """What went wrong: ``step`` (1-based; 0 when the shape is the plan's own after ``done``
    steps) with ``slip``; the turns that undo it, back to the state before ``step``; then
    the step to make next (``again``), its corner counted from an end."""

    step: int
    slip: Slip | None
    done: int
    undo: tuple[Undo, ...]
    again: int
    find: Find | None
    cells: Shape

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": {
                "step": self.step or None,
                "slip": None if self.slip is None else self.slip.to_dict(),
                "done": self.done,
                "undo": [u.to_dict() for u in self.undo],
                "then": {
                    "step": self.again,
                    "find": None if self.find is None else self.find.to_dict(),
                },
            }
        }


@dataclass(frozen=True, slots=True)
class Ask:
    """A question: does ``check`` hold on what the person sees? ``example`` is a shape for
    which it does (what the question's picture shows)."""

    check: Check
    yes: Node
    no: Node
    example: Shape

    def to_dict(self) -> dict[str, Any]:
        return {"ask": self.check.to_dict(), "yes": self.yes.to_dict(), "no": self.no.to_dict()}


Node = Ask | Verdict


def _made(chain: Chain, g: Guide, cells: Shape, start: int, stop: int, last: int) -> list[Any]:
    """The person makes steps ``start``..``stop`` (0-based) from ``cells`` as their words
    say, ``last`` the corner they turned just before: each (cells, turn) after a step they
    could make, stopping at one they cannot."""
    out = []
    for k in range(start, stop + 1):
        s = g.steps[k]
        rank = chain.found(s.find, last)
        if not 0 <= rank < chain.count:
            break
        after = chain.outcome(cells, rank, s.quarter_turns)
        if after is None:
            break
        cells, last = after, rank
        out.append((cells, (rank, s.quarter_turns)))
    return out


def guesses(g: Guide, k: int) -> list[Guess]:
    """The shapes a person may hold at step ``k`` (1-based), the likeliest first."""
    chain = g.chain
    steps = g.steps
    out = [
        Guess(0, None, (), k - 1, steps[k - 1].before),
        Guess(0, None, (), k, steps[k - 1].after),
    ]
    for i in range(k - 1, max(0, k - WINDOW) - 1, -1):  # 0-based, the latest first
        s = steps[i]
        for slip in slips_of(s.rank, s.quarter_turns, chain.count):
            rank = s.rank + slip.corners
            cells = chain.outcome(s.before, rank, slip.quarter_turns)
            if cells is None:
                continue  # it cannot be made: the person stops at it
            turn = (rank, slip.quarter_turns)
            if i == k - 1:
                out.append(Guess(i + 1, slip, (turn,), k, cells))
                continue
            then = _made(chain, g, cells, i + 1, k - 1, rank)
            made = [turn]
            for n, (after, t) in enumerate(then):  # n + 1 steps made after the slip
                made.append(t)
                done = i + 2 + n
                if done >= k - 1:
                    out.append(Guess(i + 1, slip, tuple(made), done, after))
            if i + 1 >= k - 1:  # stopped right after the slip: at step k, before its turn
                out.append(Guess(i + 1, slip, (turn,), i + 1, cells))
    return out


def _questions(chain: Chain, shapes: Sequence[Shape]) -> list[tuple[Check, float]]:
    """The questions that tell some of ``shapes`` apart, each with what it costs a person to
    answer: the run after a corner counted from an end (or the loose end's run), pointing
    one way."""
    out: list[tuple[Check, float]] = []
    last = len(chain.runs) - 1
    seen = {WAYS[chain.way(c, last)] for c in shapes}
    if len(seen) > 1:
        out += [(Check("end", end="loose", points=w), 0.5) for w in sorted(seen)]
    for rank in range(chain.count):
        seen = {WAYS[chain.way(c, rank + 1)] for c in shapes}
        if len(seen) > 1:
            at = chain.at(rank)
            out += [
                (Check("points", run=1, points=w, at=at), float(at.corners)) for w in sorted(seen)
            ]
    return out


def _verdict(chain: Chain, g: Guide, guess: Guess) -> Verdict:
    if guess.slip is None:
        again = guess.done + 1
        find = chain.from_end(g.steps[again - 1].rank) if again <= len(g.steps) else None
        return Verdict(0, None, guess.done, (), again, find, guess.cells)
    undo = tuple(Undo(chain.at(rank), -q) for rank, q in reversed(guess.made))
    find = chain.from_end(g.steps[guess.step - 1].rank)
    return Verdict(guess.step, guess.slip, guess.done, undo, guess.step, find, guess.cells)


def likelihood(guess: Guess, k: int) -> float:
    """How likely a guess is at step ``k``, roughly: a slip at step k is what its checks
    catch; one at an earlier step got past its own checks (they catch nearly all), and a
    person who made no slip rarely asks."""
    if guess.slip is None:
        return 0.5
    return 1.0 if guess.step == k else 0.3 ** (k - guess.step)


def _tree(chain: Chain, g: Guide, groups: list[list[Guess]], k: int) -> Node:
    """Questions that split ``groups`` (guesses of one shape each, the likeliest first),
    the likeliest guesses in as few questions as may be: each question splits their
    likelihood (:func:`likelihood`) the most evenly, the fewest corners to count on a tie."""
    if len(groups) == 1:
        return _verdict(chain, g, groups[0][0])
    shapes = [grp[0].cells for grp in groups]
    weights = [sum(likelihood(h, k) for h in grp) for grp in groups]
    total = sum(weights)
    best: tuple[tuple[float, float], Check, list[int]] | None = None
    for check, cost in _questions(chain, shapes):
        yes = [i for i, c in enumerate(shapes) if chain.holds(check, c, -1)]
        if not 0 < len(yes) < len(shapes):
            continue
        heavy = sum(weights[i] for i in yes)
        key = (-round(min(heavy, total - heavy), 6), cost)
        if best is None or key < best[0]:
            best = (key, check, yes)
    if best is None:  # no question tells them apart: the likeliest
        return _verdict(chain, g, groups[0][0])
    _key, check, yes = best
    chosen = set(yes)
    yes_groups = [grp for i, grp in enumerate(groups) if i in chosen]
    no_groups = [grp for i, grp in enumerate(groups) if i not in chosen]
    return Ask(
        check,
        _tree(chain, g, yes_groups, k),
        _tree(chain, g, no_groups, k),
        yes_groups[0][0].cells,
    )


def dialog(g: Guide, k: int) -> Node:
    """The questions to ask a person at step ``k`` (1-based) who sees something that does
    not match, and the verdicts their answers lead to."""
    if not 1 <= k <= len(g.steps):
        raise ValueError(f"step {k}: the plan has steps 1 to {len(g.steps)}")
    groups: dict[Shape, list[Guess]] = {}
    for guess in guesses(g, k):
        groups.setdefault(guess.cells, []).append(guess)
    ordered = []
    for grp in groups.values():
        plan_first = sorted(grp, key=lambda h: (h.slip is not None, -h.step, len(h.made)))
        ordered.append(plan_first)
    return _tree(g.chain, g, ordered, k)


def walk(node: Node, answers: Sequence[bool]) -> tuple[Node, int]:
    """Where ``answers`` (yes True) lead from ``node``, and how many were used."""
    used = 0
    while isinstance(node, Ask) and used < len(answers):
        node = node.yes if answers[used] else node.no
        used += 1
    return node, used


def depth(node: Node) -> int:
    """The most questions on the way to a verdict."""
    if isinstance(node, Verdict):
        return 0
    return 1 + max(depth(node.yes), depth(node.no))


# -- a shape against the plan: snakecube check ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class Departure:
    """Where a person's turns (or shape) first depart from the plan: ``step`` (1-based; 0:
    they do not), the plan's turn there and theirs (corner rank, quarter turns; None: not
    made or not known), the turns that follow the plan (``followed``, quarter turns), the
    turn that ran into itself (1-based; 0: none), the turns that undo theirs back to the
    state before ``step``, and the corners (ranks) whose angle differs from the plan's end."""

    step: int
    plan: tuple[int, int] | None
    made: tuple[int, int] | None
    followed: int
    ran_into: int
    undo: tuple[Undo, ...]
    cells: Shape
    differ: tuple[int, ...]
    done: bool

    def to_dict(self, chain: Chain) -> dict[str, Any]:
        def turn(t: tuple[int, int] | None) -> dict[str, Any] | None:
            return None if t is None else {**chain.at(t[0]).to_dict(), "quarter_turns": t[1]}

        return {
            "departs_at_step": self.step or None,
            "plan_turn": turn(self.plan),
            "your_turn": turn(self.made),
            "ran_into_itself_at_turn": self.ran_into or None,
            "undo": [u.to_dict() for u in self.undo],
            "corners_that_differ": [chain.at(r).to_dict() for r in self.differ],
            "folded": self.done,
        }


def _quarters(turns: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Turns as quarter turns: (corner, +-1) each."""
    return [(r, 1 if q > 0 else -1) for r, q in turns for _ in range(abs(q))]


def follow(g: Guide, turns: Sequence[tuple[Find, int]]) -> Departure:
    """A person's turns (``guide.parse_turns``) made from the plan's start, held at its end,
    against the plan's steps: where they first depart (compared quarter turn by quarter
    turn, so two quarter turns recorded apart are a half turn). InputError for a turn whose
    corner is not there."""
    chain = g.chain
    cells = g.start.cells
    made: list[tuple[int, int]] = []
    last: int | None = None
    ran_into = 0
    tried: tuple[int, int] | None = None  # the turn that ran into itself
    for k, (find, q) in enumerate(turns, 1):
        if find.origin == "last" and last is None:
            raise InputError(f"turn {k} counts from the corner turned last, but none was")
        rank = chain.found(find, last if last is not None else 0)
        if not 0 <= rank < chain.count:
            raise InputError(
                f"turn {k}: there is no such corner (the snake has {chain.count} corners)"
            )
        after = chain.outcome(cells, rank, q)
        if after is None:
            ran_into = k
            tried = (rank, q)
            break
        cells, last = after, rank
        made.append((rank, q))
    plan = [(s.rank, s.quarter_turns) for s in g.steps]
    mine, theirs = _quarters(made), _quarters(plan)
    same = 0
    while same < min(len(mine), len(theirs)) and mine[same] == theirs[same]:
        same += 1
    done = cells == g.steps[-1].after if g.steps else False
    differ = _differ(g, cells)
    if same == len(theirs) or (same == len(mine) and not ran_into):
        return Departure(0, None, None, same, ran_into, (), cells, differ, done)
    # the plan's step of the first quarter turn that differs, and the turn of theirs there
    step = next(k for k in range(len(plan)) if len(_quarters(plan[: k + 1])) > same)
    at = 0
    for t in made:
        at += abs(t[1])
        if at > same:
            yours: tuple[int, int] | None = t
            break
    else:
        yours = tried
    back = mine[len(_quarters(plan[:step])) :]
    undo = tuple(Undo(chain.at(r), -q) for r, q in reversed(back))
    return Departure(step + 1, plan[step], yours, same, ran_into, undo, cells, differ, done)


def _differ(g: Guide, cells: Shape) -> tuple[int, ...]:
    """The corners (ranks from the held end) whose angle in ``cells`` is not the plan's
    end's. A turn of corner s (from cube 1) moves the segments after it about segment s,
    changing the dihedral of corner s; held at the last end, a turn of corner s moves those
    before it about segment s + 1, changing the dihedral of corner s + 1. The corner next to
    the held end turns the snake as a whole: it has no angle of its own."""
    chain = g.chain
    end = g.steps[-1].after if g.steps else g.start.cells
    if len(cells) != len(end):  # a shape given in part: no angles to compare
        return ()
    try:
        mine, theirs = dihedrals_of(cells, chain.lengths), dihedrals_of(end, chain.lengths)
    except ValueError:  # a corner that does not turn 90 degrees: no angles to compare
        return ()
    out = []
    for rank in range(chain.count):
        s = rank if chain.held == "first" else chain.count - rank
        if 0 < s < len(mine) and mine[s] != theirs[s]:
            out.append(rank)
    return tuple(out)


def departure(g: Guide, cells: Shape) -> Departure | None:
    """Where a shape (cells in the snake's order) departs from the plan: the first step
    whose corner's angle is not the one the plan leaves it at; None when its angles cannot
    be compared (a shape given in part, or a corner that does not turn 90 degrees)."""
    if len(cells) != len(g.start.cells):
        return None
    try:
        dihedrals_of(cells, g.chain.lengths)
    except ValueError:
        return None
    differ = _differ(g, cells)
    wrong = set(differ)
    for k, s in enumerate(g.steps):
        last_turn = all(t.rank != s.rank for t in g.steps[k + 1 :])
        if s.rank in wrong and last_turn:
            return Departure(k + 1, (s.rank, s.quarter_turns), None, 0, 0, (), cells, differ, False)
    return Departure(0, None, None, 0, 0, (), cells, differ, not differ)
