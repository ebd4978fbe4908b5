"""An independent reader of ``snakecube fold --json``: it shares no code with snakecube.

It reads only the JSON's documented fields (docs/fold.md): ``snake`` (the turn string from
the first end), ``held``, ``table_start`` and per step ``joint``, ``quarter_turns``, ``find``
and ``checks``. It replays the steps with the held end still (foldsim's integer rotation
matrices), checks that each step's ``find`` counts to its joint and that each check holds,
then makes every usual slip at every step and says whether the step's checks (read at the
corner the person really turned) or a turn that runs into itself catch it. It walks the
``--went-wrong`` dialog's questions with answers read off a shape.

The table frame: x to the right, y away from the person, z up. A run points the way it
goes away from the held end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import foldsim

Cell = tuple[int, int, int]
WAYS = {
    (1, 0, 0): "right",
    (-1, 0, 0): "left",
    (0, 1, 0): "away",
    (0, -1, 0): "towards",
    (0, 0, 1): "up",
    (0, 0, -1): "down",
}
SIGNS = {  # the unit steps as solve prints directions (+x ...), written here on their own
    (1, 0, 0): "+x",
    (-1, 0, 0): "-x",
    (0, 1, 0): "+y",
    (0, -1, 0): "-y",
    (0, 0, 1): "+z",
    (0, 0, -1): "-z",
}
KINDS = ("meets", "run", "end")  # the keys that say a check's kind (a "run" has points or level)


def lengths_of(turns: str) -> list[int]:
    """Segment lengths from a turn string (E ends, S straight, C corner)."""
    out, run = [], 1
    for ch in turns[1:]:
        run += 1
        if ch in "CE":
            out.append(run)
            run = 1
    return out


class Snake:
    """A snake counted from its held end: corners (0-based cube numbers from cube 1, in the
    order met from the held end) and runs (cube numbers from their held side)."""

    def __init__(self, turns: str, held: str) -> None:
        lengths = lengths_of(turns)
        self.n = sum(m - 1 for m in lengths) + 1
        self.held = held
        runs, at = [], 0
        for m in lengths:
            runs.append(list(range(at, at + m)))
            at += m - 1
        if held == "last":
            runs = [r[::-1] for r in runs[::-1]]
        self.runs = runs
        self.corners = [r[-1] for r in runs[:-1]]
        self.held_cube = 0 if held == "first" else self.n - 1

    def corner_of_joint(self, joint: int) -> int:
        """The rank (0-based from the held end) of the corner a step at ``joint`` turns: the
        cube on the loose side of the joint."""
        cube = joint if self.held == "first" else joint - 1  # 0-based
        return self.corners.index(cube)

    def joint_of(self, rank: int) -> int:
        c = self.corners[rank]
        return c if self.held == "first" else c + 1

    def turn(self, cells: Sequence[Cell], rank: int, q: int) -> list[Cell] | None:
        """Corner ``rank`` and everything beyond it turned by q quarter turns about the line
        from its held-side neighbour into it, a quarter at a time; None when two cubes meet."""
        out = [tuple(c) for c in cells]
        c = self.corners[rank]
        for _ in range(abs(q)):
            if self.held == "first":
                out = foldsim.move(out, c, 1 if q > 0 else -1)
            else:
                out = foldsim.move(out[::-1], self.n - 1 - c, 1 if q > 0 else -1)[::-1]
            if len(set(out)) != len(out):
                return None
        return out

    def way(self, cells: Sequence[Cell], run: int) -> str:
        a, b = cells[self.runs[run][0]], cells[self.runs[run][1]]
        return WAYS[(b[0] - a[0], b[1] - a[1], b[2] - a[2])]

    def rank_of(self, at: dict, turned: int) -> int | None:
        if at is None:
            return turned
        n = at["corners"]
        rank = n - 1 if at["from"] == "held" else len(self.corners) - n
        return rank if 0 <= rank < len(self.corners) else None

    def found(self, find: dict, last: int | None) -> int | None:
        """The corner rank a find counts to (None: it names no corner)."""
        n = find["corners"]
        if find["from"] == "held":
            rank = n - 1
        elif find["from"] == "loose":
            rank = len(self.corners) - n
        else:
            if last is None:
                return None
            rank = last + (n if find["towards"] == "loose" else -n)
        return rank if 0 <= rank < len(self.corners) else None

    def holds(self, check: dict, cells: Sequence[Cell], turned: int) -> bool | None:
        """Does a check hold (None: a kind this reader does not know: skipped)?"""
        rank = self.rank_of(check.get("at"), turned)
        if rank is None:
            return False
        if "meets" in check:
            return [len(self.runs[rank]), len(self.runs[rank + 1])] == list(check["meets"])
        if "end" in check:
            if check["end"] == "loose":
                return self.way(cells, len(self.runs) - 1) == check["points"]
            a, b = cells[self.runs[0][1]], cells[self.runs[0][0]]
            return WAYS[(b[0] - a[0], b[1] - a[1], b[2] - a[2])] == check["points"]
        if "run" in check:
            j = rank + check["run"]
            if not 0 < j < len(self.runs):
                return False
            if "points" in check:
                return self.way(cells, j) == check["points"]
            if "level" in check:
                low = min(cells[i][2] for i in self.runs[j])
                return low - cells[self.held_cube][2] == check["level"]
        return None


@dataclass
class Replay:
    """A plan replayed: the state before each step and after the last, each step's corner."""

    snake: Snake
    states: list[list[Cell]]
    ranks: list[int]


def replay(plan: dict) -> Replay:
    """Replay ``fold --json`` from its table start; AssertionError names what is wrong."""
    snake = Snake(plan["snake"], plan["held"])
    corners = {c + 1 for c in snake.corners}
    state = [tuple(c) for c in plan["table_start"]]
    assert any(len({c[k] for c in state}) == 1 for k in range(3)), "the start is not flat"
    assert not foldsim.problems(state, corners), foldsim.problems(state, corners)
    states, ranks, last = [state], [], None
    for k, step in enumerate(plan["steps"], 1):
        rank = snake.corner_of_joint(step["joint"])
        assert snake.found(step["find"], last) == rank, f"step {k}: its find is not its joint"
        assert 1 <= len(step["checks"]) <= 3, f"step {k} has {len(step['checks'])} checks"
        after = snake.turn(state, rank, step["quarter_turns"])
        assert after is not None, f"step {k} runs into itself"
        assert not foldsim.problems(after, corners), (k, foldsim.problems(after, corners))
        for check in step["checks"]:
            assert snake.holds(check, after, rank) is not False, f"step {k}: {check} fails"
        state, last = after, rank
        states.append(state)
        ranks.append(rank)
    return Replay(snake, states, ranks)


def slips(rank: int, q: int, corners: int) -> list[tuple[str, int, int]]:
    """The usual slips (name, corner rank turned, quarter turns made) of turning corner
    ``rank`` by q: the other way, a half for a quarter, a quarter for a half, the corner 1
    or 2 before or after turned as said."""
    out = []
    if abs(q) == 1:
        out += [("the other way", rank, -q), ("a half for a quarter", rank, 2 * q)]
    else:
        out += [("a quarter for a half", rank, q // 2), ("a quarter, the other way", rank, -q // 2)]
    for d in (-2, -1, 1, 2):
        if 0 <= rank + d < corners:
            out.append((f"the corner {d:+d}", rank + d, q))
    return out


def caught(plan: dict, r: Replay | None = None) -> tuple[int, int, list]:
    """Slips caught at their own step, slips made, and the ones not caught: (step, slip)."""
    r = r or replay(plan)
    yes = total = 0
    missed = []
    for k, step in enumerate(plan["steps"]):
        before = r.states[k]
        for name, rank, q in slips(r.ranks[k], step["quarter_turns"], len(r.snake.corners)):
            total += 1
            after = r.snake.turn(before, rank, q)
            if after is None or any(r.snake.holds(c, after, rank) is False for c in step["checks"]):
                yes += 1
            else:
                missed.append((k + 1, name))
    return yes, total, missed


def answer(node: dict, snake: Snake, cells: Sequence[Cell]) -> dict:
    """Walk a ``--went-wrong`` dialog, answering each question from ``cells``; the verdict."""
    while "ask" in node:
        said = snake.holds(node["ask"], cells, -1)
        assert said is not None, f"a question of an unknown kind: {node['ask']}"
        node = node["yes"] if said else node["no"]
    return node["verdict"]


def record(find: dict, q: int) -> str:
    """A step's find and turn as ``tests/follow.py`` records it (a person's record)."""
    if find["from"] in ("held", "loose"):
        where = f"{find['from']}:{find['corners']}"
    elif find["corners"] == 0:
        where = "same"
    else:
        where = f"{'+' if find['towards'] == 'loose' else '-'}{find['corners']}"
    return f"{where} {'cw' if q > 0 else 'acw'}" + (" half" if abs(q) == 2 else "")


def as_read(plan: dict, r: Replay, cells: Sequence[Cell], start: int, last: int) -> tuple:
    """A person who slipped goes on from ``cells`` with step ``start`` (0-based) as its words
    say, counting from the corner they really turned (``last``): the state after it, the
    corner turned, and whether its checks (or the turn) catch the slip. (None, None, True)
    when its corner is not there."""
    step = plan["steps"][start]
    rank = r.snake.found(step["find"], last)
    if rank is None:
        return None, None, True
    after = r.snake.turn(cells, rank, step["quarter_turns"])
    if after is None:
        return None, rank, True
    seen = any(r.snake.holds(c, after, rank) is False for c in step["checks"])
    return after, rank, seen
