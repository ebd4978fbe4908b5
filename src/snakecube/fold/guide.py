"""A fold plan as a person follows it, as data: :func:`guide` turns a :class:`FoldPlan` into a
:class:`Guide`, and every form renders that one structure: the words (``fold.words``),
``fold --json``, the sheets, the GIF, the viewer and the page. No form reads another's text.

Vocabulary (docs/fold.md says the same for ``fold --json``), in the **table frame** (x to the
right, y away from the person, z up), the held end kept still:

* a **corner** is a cube where the chain bends (in every state); an end cube is not a corner.
  Inside, corners are ranked from the held end, 0-based; words and JSON count from 1.
* a **run** is a straight stretch of the chain: run j (0-based from the held end) lies
  between corner j - 1 and corner j; a corner cube counts in both its runs. A run
  **points** the way it goes away from the held end.
* a step **turns** a corner: the corner cube and everything beyond it (away from the held
  end) turn by ``quarter_turns`` (+-1, +-2), right-handed about the direction from the held
  side into the corner: clockwise, as the person sees it looking along the chain into the
  corner. The joint of that turn (cubes k and k+1, numbered from the first end) is the one
  before the corner cube, seen from the held end.
* a step is **found** (:class:`Find`) by counting corners from the held end, the loose end or
  the corner turned at the step before ("last").
* a **check** (:class:`Check`) is a statement a person can see: the runs that meet at the
  corner, where a run or the loose end points after the turn, how high a run lies.
* a **slip** (:class:`Slip`) is one of the usual mistakes: the other way, a half turn for a
  quarter or a quarter for a half, the corner one or two before or after the right one,
  turned as said. Each step's checks are chosen (:func:`choose_checks`) so that they tell
  the right result from every slip they can; a person who slipped reads the checks at the
  corner they turned. A slip no three checks can tell is said (``GuideStep.uncaught``).

Decision: the checks are the fewest that catch the most slips, the cheapest to read on a
tie (the runs at the corner and the run just turned first, then the loose end, runs further
on, heights, and last a run counted from an end). Rejected: always the runs at the corner and
the run just turned (today's words: they miss a slip in 0-7 % of the steps of the catalog's
plans); every check that holds (a person reads three at most).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self

from snakecube.errors import InputError
from snakecube.fold.model import Vec, apply_move, is_valid, near_swing
from snakecube.fold.plans import FoldPlan, below_table
from snakecube.limits import shorten
from snakecube.snake import End, end_runs
from snakecube.vector import WAYS

ORIGINS = ("held", "loose", "last")  # where a count of corners starts
JUMP = 2  # corners: a step further back than this, against the way the plan walks, is a jump


# -- the vocabulary --------------------------------------------------------------------------
class _Flat:
    """A record of numbers and words (fields of type ``int`` or ``str`` only), written in
    ``fold --json`` under its fields' names (``KEYS`` renames some) and read back from there."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # each record is a dataclass
    KEYS: ClassVar[dict[str, str]] = {}

    def to_dict(self) -> dict[str, Any]:
        return {self.KEYS.get(f.name, f.name): getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        kinds = {"int": int, "str": str}
        return cls(*(kinds[str(f.type)](d[cls.KEYS.get(f.name, f.name)]) for f in fields(cls)))


@dataclass(frozen=True, slots=True)
class At(_Flat):
    """A corner counted from an end: the ``corners``-th from the ``origin`` end ("held" or
    "loose"), counting from 1."""

    KEYS: ClassVar[dict[str, str]] = {"origin": "from"}
    origin: str
    corners: int


@dataclass(frozen=True, slots=True)
class Find(_Flat):
    """How a person finds a step's corner: the ``corners``-th corner from the held end, the
    loose end, or the corner turned at the step before ("last": that corner is 0), counting
    ``towards`` the loose end or the held end."""

    KEYS: ClassVar[dict[str, str]] = {"origin": "from"}
    origin: str
    corners: int
    towards: str


@dataclass(frozen=True, slots=True)
class Check:
    """One statement a person can see (docs/fold.md has each kind's exact meaning):

    * ``meets``: at the corner, a run of ``meets[0]`` cubes (the held side) meets one of
      ``meets[1]``;
    * ``points``: after the turn, the ``run``-th run beyond the corner (1: the run that
      starts there) points ``points``;
    * ``end``: after the turn, the run at that end ("loose" or "held") points ``points``,
      towards its end;
    * ``level``: after the turn, the lowest cube of the ``run``-th run beyond the corner is
      ``level`` cubes above the held end's cube (below when negative).

    The corner is the one the person turned, or ``at`` (a corner counted from an end)."""

    kind: str
    run: int = 0
    meets: tuple[int, int] = (0, 0)
    end: str = ""
    points: str = ""
    level: int = 0
    at: At | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any]
        if self.kind == "meets":
            out = {"meets": list(self.meets)}
        elif self.kind == "points":
            out = {"run": self.run, "points": self.points}
        elif self.kind == "end":
            out = {"end": self.end, "points": self.points}
        else:
            out = {"run": self.run, "level": self.level}
        if self.at is not None:
            out["at"] = self.at.to_dict()
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Check:
        at = At.from_dict(d["at"]) if "at" in d else None
        if "meets" in d:
            a, b = d["meets"]
            return cls("meets", meets=(int(a), int(b)), at=at)
        if "end" in d:
            return cls("end", end=str(d["end"]), points=str(d["points"]), at=at)
        if "level" in d:
            return cls("level", run=int(d["run"]), level=int(d["level"]), at=at)
        return cls("points", run=int(d["run"]), points=str(d["points"]), at=at)


SLIPS = ("other_way", "half_for_quarter", "quarter_for_half", "corner")


@dataclass(frozen=True, slots=True)
class Slip(_Flat):
    """A usual slip at a step: ``kind`` one of SLIPS; ``corners``, for "corner", how far the
    corner turned is from the right one (+ towards the loose end, - towards the held end);
    ``quarter_turns``, the turn made."""

    KEYS: ClassVar[dict[str, str]] = {"kind": "slip"}
    kind: str
    corners: int
    quarter_turns: int


def slips_of(rank: int, q: int, corners: int) -> list[Slip]:
    """The usual slips of turning corner ``rank`` (of ``corners``) by ``q``: the other way,
    a half turn for a quarter, a quarter (either way) for a half, and the corner 1 or 2
    before or after, turned as said."""
    out = (
        [Slip("other_way", 0, -q), Slip("half_for_quarter", 0, 2 * q)]
        if abs(q) == 1
        else [Slip("quarter_for_half", 0, q // 2), Slip("quarter_for_half", 0, -q // 2)]
    )
    out += [Slip("corner", d, q) for d in (-2, -1, 1, 2) if 0 <= rank + d < corners]
    return out


# -- the chain as a person counts it ------------------------------------------------------------
class Chain:
    """A snake's corners and runs counted from the held end, and the turns a person makes.

    Cells are 0-based in the snake's own order (cube 1 first), whichever end is held."""

    def __init__(self, lengths: Sequence[int], held: End) -> None:
        self.lengths = tuple(lengths)
        self.held = End(held)
        self.n = sum(m - 1 for m in lengths) + 1
        bends, runs, at = [], [], 0
        for m in lengths:
            runs.append(tuple(range(at, at + m)))
            at += m - 1
            bends.append(at)
        bends.pop()
        if self.held == End.LAST:
            bends, runs = bends[::-1], [r[::-1] for r in runs[::-1]]
        self.corners: tuple[int, ...] = tuple(bends)  # cube indices, from the held end
        self.runs: tuple[tuple[int, ...], ...] = tuple(runs)  # each from its held side
        self.held_cube = 0 if self.held == End.FIRST else self.n - 1
        self.loose_cube = self.n - 1 - self.held_cube

    @property
    def count(self) -> int:
        """How many corners the snake has."""
        return len(self.corners)

    def rank(self, at: At) -> int:
        """The corner ``at`` names, 0-based from the held end (may be out of range)."""
        return at.corners - 1 if at.origin == "held" else self.count - at.corners

    def at(self, rank: int) -> At:
        """Corner ``rank`` counted from the nearer end (the held end on a tie)."""
        if rank + 1 <= self.count - rank:
            return At("held", rank + 1)
        return At("loose", self.count - rank)

    def found(self, find: Find, last: int) -> int:
        """The corner a person finds by ``find`` (0-based from the held end; may be out of
        range), ``last`` being the corner they turned at the step before."""
        if find.origin == "held":
            return find.corners - 1
        if find.origin == "loose":
            return self.count - find.corners
        return last + (find.corners if find.towards == "loose" else -find.corners)

    def find(self, rank: int, last: int | None) -> Find:
        """How a person finds corner ``rank``: counted from the corner turned last, the held
        end or the loose end, whichever is fewest (in that order on a tie)."""
        counts = [(rank + 1, "held"), (self.count - rank, "loose")]
        if last is not None:
            counts.insert(0, (abs(rank - last), "last"))
        n, origin = min(counts, key=lambda c: c[0])
        if origin == "held":
            return Find("held", n, "loose")
        if origin == "loose":
            return Find("loose", n, "held")
        assert last is not None
        return Find("last", n, "loose" if rank >= last else "held")

    def from_end(self, rank: int) -> Find:
        """Corner ``rank`` found from the nearer end."""
        at = self.at(rank)
        return Find(at.origin, at.corners, "loose" if at.origin == "held" else "held")

    def cube(self, rank: int) -> int:
        """The corner's cube, 1-based from cube 1."""
        return self.corners[rank] + 1

    def joint(self, rank: int) -> int:
        """The joint a turn of corner ``rank`` turns (between cubes joint and joint+1, from
        cube 1): the one before the corner cube, seen from the held end."""
        c = self.corners[rank]
        return c if self.held == End.FIRST else c + 1

    def rank_of_joint(self, joint: int) -> int:
        c = joint if self.held == End.FIRST else joint - 1
        return self.corners.index(c)

    def turn(self, cells: Sequence[Vec], rank: int, q: int) -> tuple[Vec, ...]:
        """``cells`` after corner ``rank`` and all beyond it turn by ``q`` quarter turns,
        right-handed about the direction from the held side into the corner, the held end
        still."""
        c = self.corners[rank]
        if self.held == End.FIRST:
            return tuple(apply_move(cells, c, q))
        return tuple(apply_move(cells[::-1], self.n - 1 - c, q))[::-1]

    def outcome(self, cells: Sequence[Vec], rank: int, q: int) -> tuple[Vec, ...] | None:
        """The state after that turn made a quarter at a time, or None when it runs into
        itself on the way."""
        out = tuple(cells)
        for _ in range(abs(q)):
            out = self.turn(out, rank, 1 if q > 0 else -1)
            if not is_valid(out):
                return None
        return out

    def way(self, cells: Sequence[Vec], run: int) -> Vec:
        """The way run ``run`` (0-based from the held end) points, away from the held end."""
        a, b = cells[self.runs[run][0]], cells[self.runs[run][1]]
        return (b[0] - a[0], b[1] - a[1], b[2] - a[2])

    def holds(self, check: Check, cells: Sequence[Vec], turned: int) -> bool:
        """Does ``check`` hold on ``cells``, the person having turned corner ``turned``?"""
        if check.kind == "end":
            if check.end == "loose":
                return WAYS[self.way(cells, len(self.runs) - 1)] == check.points
            v = self.way(cells, 0)
            return WAYS[(-v[0], -v[1], -v[2])] == check.points
        rank = turned if check.at is None else self.rank(check.at)
        if not 0 <= rank < self.count:
            return False
        if check.kind == "meets":
            return (len(self.runs[rank]), len(self.runs[rank + 1])) == check.meets
        j = rank + check.run
        if not 0 < j < len(self.runs):
            return False
        if check.kind == "points":
            return WAYS[self.way(cells, j)] == check.points
        low = min(cells[i][2] for i in self.runs[j])
        return low - cells[self.held_cube][2] == check.level

    def points(self, cells: Sequence[Vec], rank: int, run: int = 1, at: bool = False) -> Check:
        """The check that the ``run``-th run beyond corner ``rank`` points as it does in
        ``cells`` (the corner counted from an end when ``at``)."""
        way = WAYS[self.way(cells, rank + run)]
        return Check("points", run=run, points=way, at=self.at(rank) if at else None)


# -- choosing a step's checks ---------------------------------------------------------------------
MOST_CHECKS = 3


def candidates(chain: Chain, after: Sequence[Vec], rank: int) -> list[tuple[Check, int]]:
    """The checks that hold after turning corner ``rank`` (``after``), each with what it
    costs a person to read (lower first)."""
    out: list[tuple[Check, int]] = [
        (Check("meets", meets=(len(chain.runs[rank]), len(chain.runs[rank + 1]))), 1)
    ]
    beyond = len(chain.runs) - 1 - rank  # runs beyond the corner
    for r in range(1, min(beyond, 3) + 1):
        out.append((chain.points(after, rank, r), r))
    for r in range(1, min(beyond, 2) + 1):
        low = min(after[i][2] for i in chain.runs[rank + r])
        out.append((Check("level", run=r, level=low - after[chain.held_cube][2]), r + 1))
    if beyond > 1:
        way = WAYS[chain.way(after, len(chain.runs) - 1)]
        out.append((Check("end", end="loose", points=way), 2))
    for d in (0, -1, 1, -2, 2):  # a run counted from an end: it does not move with a slip
        k = rank + d
        if 0 <= k < chain.count:
            out.append((chain.points(after, k, 1, at=True), 4 + abs(d)))
    return out


@dataclass(frozen=True, slots=True)
class Checked:
    """A step's checks and the slips they cannot tell from the right result (nor does the
    slip run the snake into itself)."""

    checks: tuple[Check, ...]
    uncaught: tuple[Slip, ...]
    slips: int  # how many slips were tried


def choose_checks(chain: Chain, before: Sequence[Vec], rank: int, q: int) -> Checked:
    """The 1 to MOST_CHECKS checks of turning corner ``rank`` by ``q`` from ``before`` that
    tell the right result from the most slips (:func:`slips_of`), read at the corner the
    person turned; the cheapest on a tie. At least one says what the person sees after the
    turn (the runs at the corner are seen before it)."""
    after = chain.outcome(before, rank, q)
    if after is None:
        raise ValueError("the plan's own turn runs into itself")
    slips = slips_of(rank, q, chain.count)
    results = []
    for s in slips:
        k = rank + s.corners
        results.append((k, chain.outcome(before, k, s.quarter_turns)))
    ran_into = sum(1 << i for i, (_k, cells) in enumerate(results) if cells is None)
    pool = []
    for check, cost in candidates(chain, after, rank):
        caught = 0
        for i, (k, cells) in enumerate(results):
            if cells is not None and not chain.holds(check, cells, k):
                caught |= 1 << i
        pool.append((check, cost, caught))
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for size in range(1, MOST_CHECKS + 1):
        for combo in itertools.combinations(range(len(pool)), size):
            if all(pool[i][0].kind == "meets" for i in combo):
                continue  # at least one check says what the person sees after the turn
            caught = ran_into
            for i in combo:
                caught |= pool[i][2]
            key = (-bin(caught).count("1"), sum(pool[i][1] for i in combo))
            if best is None or key < best[0]:
                best = (key, combo)
    assert best is not None
    combo = best[1]
    caught = ran_into
    for i in combo:
        caught |= pool[i][2]
    checks = tuple(pool[i][0] for i in combo)
    uncaught = tuple(s for i, s in enumerate(slips) if not caught >> i & 1)
    return Checked(checks, uncaught, len(slips))


# -- the guide --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Jump:
    """A step that goes back along the chain more than JUMP corners against the way the plan
    walks, and why: ``reason`` "made_way" (its corner was turned at step ``step`` so that
    the snake could pass), "runs_into" (turned when the hand passed it, before step
    ``passed``, the snake would have run into itself then, or at step ``step``) or
    "no_walk" (no walk of as few quarter turns turns it when the hand passes it)."""

    back: int
    towards: str  # "held" or "loose"
    reason: str
    passed: int = 0
    step: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "back": self.back,
            "towards": self.towards,
            "reason": self.reason,
            "passed": self.passed or None,
            "step": self.step or None,
        }


@dataclass(frozen=True, slots=True)
class GuideStep:
    """One step as a person makes it (numbers 1-based; cubes numbered from cube 1)."""

    number: int
    joint: int
    quarter_turns: int
    first_move: int  # the plan's first move of this step (1-based)
    rank: int  # the corner, 0-based from the held end
    corner: int  # the corner cube
    hold: int  # the cube held at the joint (the held side's neighbour of the corner)
    find: Find
    runs: tuple[int, int]  # the runs that meet at the corner, the held side first
    look: str  # the way the person looks along the chain into the corner
    turned: tuple[int, str] | None  # the run turned: its cubes and where it points after
    checks: tuple[Check, ...]
    uncaught: tuple[Slip, ...]
    slips: int  # the slips tried
    recount: Find  # where to count again from, after undoing a slip: an end
    counted_from: int  # the cube the count starts at: an end, or the corner turned last
    lift: bool  # the snake is lifted off the table first
    jump: Jump | None
    close: tuple[int, ...]  # cubes in place the swing passes within a cube's width of
    before: tuple[Vec, ...]  # the table frame, the held end still
    after: tuple[Vec, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "joint": self.joint,
            "quarter_turns": self.quarter_turns,
            "first_move": self.first_move,
            "corner": self.corner,
            "find": self.find.to_dict(),
            "checks": [c.to_dict() for c in self.checks],
            "uncaught": [s.to_dict() for s in self.uncaught],
            "slips_tried": self.slips,
            "if_not": {"undo": "same_corner_back", "count_again": self.recount.to_dict()},
            "lift": self.lift,
            "jump": None if self.jump is None else self.jump.to_dict(),
            "close": list(self.close),
        }


@dataclass(frozen=True, slots=True)
class StartRun:
    """A run of the flat start: its number from the held end, cubes, way (from the held
    end) and end cubes (1-based, the held side first)."""

    number: int
    cubes: int
    points: str
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Start:
    """How the snake lies at the start, flat on the table, and which end to hold."""

    cells: tuple[Vec, ...]  # the table frame, cube 1 first
    runs: tuple[StartRun, ...]
    held: End
    held_cube: int  # 1-based
    told: tuple[str, str, int] | None  # the runs that tell the held end: snake.end_runs
    lift_before: int  # the step before which the snake is lifted off the table; 0: never
    table_turns: int | None  # the fewest quarter turns found staying on the table
    table_walk: float | None  # ... and how far the hand moves then (x its span)


@dataclass(frozen=True)
class Guide:
    """A fold plan as a person follows it: the plan, its start and its steps."""

    plan: FoldPlan
    chain: Chain
    start: Start
    steps: tuple[GuideStep, ...]
    walks_out: bool = True  # the steps go from the held end outwards
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def caught(self) -> tuple[int, int]:
        """Slips caught at their own step, and slips tried, over every step."""
        tried = sum(s.slips for s in self.steps)
        return tried - sum(len(s.uncaught) for s in self.steps), tried

    def to_dict(self) -> dict[str, Any]:
        """``fold --json``: the plan's fields (``FoldPlan.to_dict``), the start in the table
        frame and each step's find, checks and what to do if they fail (docs/fold.md)."""
        out = self.plan.to_dict()
        out["table_start"] = [list(c) for c in self.start.cells]
        out["start_runs"] = [
            {"run": r.number, "cubes": r.cubes, "points": r.points, "cubes_from": [r.first, r.last]}
            for r in self.start.runs
        ]
        caught, tried = self.caught
        out["slips"] = {"tried": tried, "caught": caught}
        out["steps"] = [s.to_dict() for s in self.steps]
        return out


def _frames(p: FoldPlan) -> tuple[tuple[Vec, ...], ...]:
    return p.frames or tuple(tuple(s) for s in p.states())


@functools.lru_cache(maxsize=8)
def guide(p: FoldPlan) -> Guide:
    """The plan ``p`` (found) as a person follows it (kept for the process: every form of a
    plan asks for it)."""
    if not p.found:
        raise ValueError("no plan: nothing to guide")
    chain = Chain(p.solution.snake.lengths, p.held)
    frames = _frames(p)
    lifted = below_table(p)
    lift_step = _step_of(p, lifted - 1) + 1 if lifted else 0
    raw = p.steps()
    ranks = [chain.rank_of_joint(j) for j, _q, _k in raw]
    walks_out = len(ranks) < 2 or ranks[-1] >= ranks[0]
    steps = []
    for k, (joint, q, first) in enumerate(raw):
        rank = ranks[k]
        before, after = frames[first], frames[first + abs(q)]
        mine = chain.outcome(before, rank, q)
        if mine != tuple(after):
            raise AssertionError(f"step {k + 1}: the turn does not give the plan's state")
        last = ranks[k - 1] if k else None
        find = chain.find(rank, last)
        c = chain.corners[rank]
        hold = c - 1 if chain.held == End.FIRST else c + 1
        look = tuple(before[c][i] - before[hold][i] for i in range(3))
        beyond = len(chain.runs) - 1 - rank
        turned = (len(chain.runs[rank + 1]), WAYS[chain.way(after, rank + 1)]) if beyond else None
        checked = choose_checks(chain, before, rank, q)
        origin = (
            chain.held_cube
            if find.origin == "held"
            else chain.loose_cube
            if find.origin == "loose"
            else chain.corners[ranks[k - 1]]
        )
        steps.append(
            GuideStep(
                number=k + 1,
                joint=joint,
                quarter_turns=q,
                first_move=first + 1,
                rank=rank,
                corner=c + 1,
                hold=hold + 1,
                find=find,
                runs=(len(chain.runs[rank]), len(chain.runs[rank + 1])),
                look=WAYS[(look[0], look[1], look[2])],
                turned=turned,
                checks=checked.checks,
                uncaught=checked.uncaught,
                slips=checked.slips,
                recount=chain.from_end(rank),
                counted_from=origin + 1,
                lift=lift_step == k + 1,
                jump=_jump(p, chain, ranks, k, walks_out, frames),
                close=tuple(_close(p, frames, joint, q, first)),
                before=tuple(before),
                after=tuple(after),
            )
        )
    return Guide(p, chain, _start(p, chain, frames, lift_step), tuple(steps), walks_out)


def _start(p: FoldPlan, chain: Chain, frames: Sequence[Sequence[Vec]], lift: int) -> Start:
    first = frames[0]
    runs = []
    for k, run in enumerate(chain.runs):
        runs.append(StartRun(k + 1, len(run), WAYS[chain.way(first, k)], run[0] + 1, run[-1] + 1))
    lengths = p.solution.snake.lengths
    told = end_runs(lengths if p.held == End.FIRST else lengths[::-1])
    return Start(
        cells=tuple(first),
        runs=tuple(runs),
        held=p.held,
        held_cube=chain.held_cube + 1,
        told=told,
        lift_before=lift,
        table_turns=p.table_turns,
        table_walk=p.table_walk,
    )


def _step_of(p: FoldPlan, move: int) -> int:
    """The step (0-based) that makes move ``move`` (0-based)."""
    return max(k for k, (_j, _q, first) in enumerate(p.steps()) if first <= move)


def _close(
    p: FoldPlan, frames: Sequence[Sequence[Vec]], joint: int, q: int, first: int
) -> list[int]:
    """The cubes (1-based) already in place that the step's turning cubes pass within a
    cube's width of (the model's still side when the first end is held, its moving side when
    the last end is: the same relative motion)."""
    out: set[int] = set()
    for k in range(abs(q)):
        for s, m in near_swing(frames[first + k], joint, 1 if q > 0 else -1):
            out.add((s if p.held == End.FIRST else m) + 1)
    return sorted(out)


def _jump(
    p: FoldPlan,
    chain: Chain,
    ranks: Sequence[int],
    step: int,
    out: bool,
    frames: Sequence[Sequence[Vec]],
) -> Jump | None:
    """A step that goes back along the chain more than JUMP corners against the way the plan
    walks, and why (see :class:`Jump`); None for any other step."""
    if step == 0:
        return None
    back = ranks[step - 1] - ranks[step] if out else ranks[step] - ranks[step - 1]
    if back <= JUMP:
        return None
    steps = p.steps()
    joint, q, first = steps[step]
    towards = "held" if out else "loose"
    before = [k for k in range(step) if steps[k][0] == joint]
    if before:
        return Jump(back, towards, "made_way", step=before[-1] + 1)
    passed = next(
        k for k in range(step) if (ranks[k] > ranks[step] if out else ranks[k] < ranks[step])
    )
    start = steps[passed][2]
    state = apply_move(frames[start], joint, 1 if q > 0 else -1)
    if not is_valid(state):
        return Jump(back, towards, "runs_into", passed=passed + 1)
    for k in range(start, first):
        state = apply_move(state, *p.moves[k])
        if not is_valid(state):
            return Jump(back, towards, "runs_into", passed=passed + 1, step=_step_of(p, k) + 1)
    return Jump(back, towards, "no_walk", passed=passed + 1)


# -- turns as a person records them ---------------------------------------------------------------
TURN_RECORD = re.compile(
    r"(?:(?P<end>held|loose):(?P<n>\d+)|(?P<sign>[+-])(?P<by>\d+)|(?P<same>same))\s+"
    r"(?P<way>cw|acw|ccw|clockwise|anticlockwise)(?:\s+(?P<half>half))?",
    re.IGNORECASE,
)
CLOCK = {"cw": 1, "clockwise": 1, "acw": -1, "ccw": -1, "anticlockwise": -1}


def turn_text(find: Find, q: int) -> str:
    """A turn as a person records it: 'held:4 acw', '+2 cw', 'loose:3 cw half', 'same acw'
    (corners counted from the end held, from the loose end, on or back from the corner
    turned last; clockwise looking along the chain into the corner)."""
    if find.origin in ("held", "loose"):
        where = f"{find.origin}:{find.corners}"
    elif find.corners == 0:
        where = "same"
    else:
        where = f"{'+' if find.towards == 'loose' else '-'}{find.corners}"
    return f"{where} {'cw' if q > 0 else 'acw'}" + (" half" if abs(q) == 2 else "")


TURNS_START = re.compile(r"\s*(?:(?:held|loose)\s*:\s*\d|same\b|[+-]\d+\s)", re.IGNORECASE)


def is_turns(text: str) -> bool:
    """Does ``text`` start as turns a person recorded (:func:`turn_text`): 'held:4',
    'loose:2', 'same' or '+2 ...'? (Directions start with a letter or a sign and a letter.)"""
    return TURNS_START.match(text) is not None


def parse_turns(text: str) -> list[tuple[Find, int]]:
    """Turns as a person records them (:func:`turn_text`), separated by commas, semicolons
    or new lines: each a find and quarter turns. InputError names the turn that does not
    read and where it is."""
    out = []
    for k, part in enumerate(re.split(r"[,;\n]+", text), 1):
        said = part.strip()
        if not said:
            continue
        m = TURN_RECORD.fullmatch(said)
        if m is None:
            raise InputError(
                f"turn {k}: cannot read {shorten(said)}; write a turn like 'held:4 acw', "
                "'+2 cw', 'loose:3 cw half' or 'same acw'"
            )
        q = CLOCK[m["way"].lower()] * (2 if m["half"] else 1)
        if m["end"]:
            origin = m["end"].lower()
            n = int(m["n"])
            if n < 1:
                raise InputError(f"turn {k}: {said!r}: corners are counted from 1")
            out.append((Find(origin, n, "loose" if origin == "held" else "held"), q))
        elif m["same"]:
            out.append((Find("last", 0, "loose"), q))
        else:
            out.append((Find("last", int(m["by"]), "loose" if m["sign"] == "+" else "held"), q))
    if not out:
        raise InputError("no turns: write them like 'held:4 acw, +2 cw, loose:3 cw half'")
    return out
