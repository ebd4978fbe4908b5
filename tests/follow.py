"""Replay the turns a person made with the real, unnumbered chain: is the result the box?

A person following a fold plan records each step as they found it, by counting corners (a
corner is a cube where the chain bends), and which way they turned, as seen looking along
the chain into the corner from the held side::

    held:4 acw        the 4th corner from the end held, a quarter turn anticlockwise
    +4 acw            4 corners on from the corner turned last, towards the loose end
    -2 cw             2 corners back towards the end held
    loose:4 cw        the 4th corner from the loose end
    same cw           the corner turned last, again
    +2 acw half       a half turn (two quarter turns the same way)

This script lays the snake out flat as they did (the runs' directions from the held end, in
the plan's table words, or the plan's own start), turns the corner cube and everything
beyond it for each record, and replays every turn in ``tests/foldsim.py``, the independent
simulator, which checks every state. It shares no code with snakecube's planner or words: it
reads only the snake's run lengths.

    python tests/follow.py king-b --box 4x4x4 --plan plan.json "held:4 acw" "+4 acw" ...
    python tests/follow.py king-b --box 4x4x4 --held first --runs "towards you,to the right,..." \\
        --turns turns.txt

``plan.json`` is ``snakecube fold ... --json`` (only its start and held end are read);
``turns.txt`` has one record a line (``#`` starts a comment). It prints each turn's joint (the
cube numbers, to compare with the plan's brackets) and ends with ``the result is the box:
yes`` or ``no`` (exit code 0 or 1).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import foldsim

Cell = tuple[int, int, int]
WAYS = {
    "to the right": (1, 0, 0),
    "to the left": (-1, 0, 0),
    "away from you": (0, 1, 0),
    "towards you": (0, -1, 0),
    "up": (0, 0, 1),
    "down": (0, 0, -1),
}
CLOCKWISE = {"cw": 1, "clockwise": 1, "acw": -1, "ccw": -1, "anticlockwise": -1}
RECORD = re.compile(
    r"^\s*(?:(?P<end>held|loose):(?P<n>\d+)|(?P<sign>[+-])(?P<by>\d+)|(?P<same>same))\s+"
    r"(?P<way>cw|acw|ccw|clockwise|anticlockwise)(?:\s+(?P<half>half))?\s*$"
)


@dataclass(frozen=True)
class Record:
    """One turn as a person found and made it."""

    where: str  # "held", "loose", "on" (from the corner turned last), "same"
    count: int  # corners counted (for "on": + towards the loose end, - back)
    sign: int  # +1 clockwise, -1 anticlockwise, looking along the chain into the corner
    quarters: int = 1  # 2: a half turn

    @classmethod
    def parse(cls, text: str) -> Record:
        m = RECORD.match(text)
        if not m:
            raise ValueError(f"cannot read the turn {text!r} (like 'held:4 acw', '+2 cw half')")
        sign = CLOCKWISE[m["way"]]
        quarters = 2 if m["half"] else 1
        if m["end"]:
            return cls(m["end"], int(m["n"]), sign, quarters)
        if m["same"]:
            return cls("same", 0, sign, quarters)
        return cls("on", int(m["by"]) * (1 if m["sign"] == "+" else -1), sign, quarters)

    def __str__(self) -> str:
        where = {"held": f"held:{self.count}", "loose": f"loose:{self.count}", "same": "same"}
        said = where.get(self.where, f"{self.count:+d}")
        return f"{said} {'cw' if self.sign > 0 else 'acw'}" + (
            " half" if self.quarters == 2 else ""
        )


def corner_cubes(lengths: list[int]) -> list[int]:
    """The corner cubes, 1-based, from cube 1."""
    out, at = [], 1
    for m in lengths[:-1]:
        at += m - 1
        out.append(at)
    return out


def lay_out(lengths: list[int], held: str, ways: list[str]) -> list[Cell]:
    """The snake flat as a person lays it: from the held end, run by run, each the way
    given (table words), the held end at the origin; cells in the snake's own order."""
    runs = lengths if held == "first" else lengths[::-1]
    if len(ways) != len(runs):
        raise ValueError(f"{len(ways)} directions for {len(runs)} runs")
    cells = [(0, 0, 0)]
    for m, way in zip(runs, ways, strict=True):
        step = WAYS[way.strip()]
        for _ in range(m - 1):
            x, y, z = cells[-1]
            cells.append((x + step[0], y + step[1], z + step[2]))
    return cells if held == "first" else cells[::-1]


def joints(lengths: list[int], held: str, records: list[Record]) -> list[tuple[int, int, int]]:
    """Each record as the corner found (1-based cube, the snake's own numbering) and the
    simulator's move (joint, q) on the snake numbered from the held end: the corner cube and
    all beyond it turn about the line from the held cube next to it. Counting is the
    person's, from the held end, the loose end or the corner turned last."""
    n = sum(m - 1 for m in lengths) + 1
    corners = corner_cubes(lengths if held == "first" else lengths[::-1])  # from the held end
    out: list[tuple[int, int, int]] = []
    rank = -1  # the corner turned last, counted from the held end (0-based)
    for r in records:
        if r.where == "held":
            rank = r.count - 1
        elif r.where == "loose":
            rank = len(corners) - r.count
        elif r.where == "same":
            if rank < 0:
                raise ValueError("'same' with no corner turned before")
        else:
            if rank < 0:
                raise ValueError(f"'{r}' counts from the corner turned last, but none was")
            rank += r.count
        if not 0 <= rank < len(corners):
            raise ValueError(f"'{r}': there is no such corner (the snake has {len(corners)})")
        cube = corners[rank]  # from the held end: the joint before it turns cubes cube..
        for _ in range(r.quarters):
            out.append((cube if held == "first" else n + 1 - cube, cube - 1, r.sign))
    return out


def replay(
    lengths: list[int], held: str, start: list[Cell], records: list[Record]
) -> tuple[list[list[Cell]], list[tuple[int, int, int]]]:
    """Every state, from the start through each quarter turn, the held end still, checked
    by the simulator (AssertionError names the first broken rule); and the moves made, as
    (corner cube, joint, q) in the snake's own numbering (held at the last end, the joint
    between cubes j and j+1 whose turn is the same relative motion)."""
    first = held == "first"
    ls = lengths if first else lengths[::-1]
    corners = set(corner_cubes(ls))
    state = [tuple(c) for c in (start if first else start[::-1])]
    problems = foldsim.problems(state, corners)
    assert not problems, ("the start", problems)
    states = [state]
    moves = joints(lengths, held, records)
    for k, (_cube, joint, q) in enumerate(moves, 1):
        state = foldsim.move(state, joint, q)
        problems = foldsim.problems(state, corners)
        assert not problems, (f"after quarter turn {k}", problems)
        states.append(state)
    n = len(state)
    if not first:
        states = [s[::-1] for s in states]
        moves = [(cube, n - joint, q) for cube, joint, q in moves]
    return states, moves


def is_box(cells: list[Cell], dims: tuple[int, int, int]) -> bool:
    """The cells fill a box of these sides (any orientation, anywhere)."""
    lo = [min(c[a] for c in cells) for a in range(3)]
    sides = sorted(max(c[a] for c in cells) - lo[a] + 1 for a in range(3))
    return sides == sorted(dims) and len(set(cells)) == len(cells) == dims[0] * dims[1] * dims[2]


ORDINAL = r"(\d+)(?:st|nd|rd|th)"
FOUND = [  # what a step's words say, and the record it makes
    (re.compile(rf"the {ORDINAL} corner from the end you hold"), lambda m: ("held", int(m[1]))),
    (re.compile(rf"the {ORDINAL} corner from the loose end"), lambda m: ("loose", int(m[1]))),
    (
        re.compile(
            rf"the (?:{ORDINAL}|next) corner (on towards the loose end|back towards the end "
            r"you hold), from the corner you turned last"
        ),
        lambda m: ("on", (int(m[1]) if m[1] else 1) * (1 if m[2].startswith("on") else -1)),
    ),
    (re.compile(r"the same corner as in the step before"), lambda m: ("same", 0)),
]
TURN = re.compile(
    r"(a quarter turn|a half turn)(?: \(two quarter turns\))? (clockwise|anticlockwise)"
)
RUN = re.compile(r"^\s+run (\d+), (\d+) cubes: (.+?)(?: \(cubes [^)]*\))?$")


def read_words(lines: list[str]) -> tuple[str, list[str], list[Record]]:
    """What a person takes from a plan's words (``snakecube fold``'s text): the end held,
    the start's runs (their ways) and each step's record. Only the counting words are read,
    never the cube numbers in brackets."""
    held = "first"
    runs: list[str] = []
    records = []
    for line in lines:
        m = RUN.match(line)
        if m:
            runs.append(m[3])
            continue
        if line.startswith("Hold") and "[cube 1]" not in line:
            held = "last"
        if not line.startswith("Step "):
            continue
        text = line.split("[")[0]  # the brackets are only there to check
        found = next((f(m) for pat, f in FOUND if (m := pat.search(text))), None)
        turn = TURN.search(text)
        if found is None or turn is None:
            raise ValueError(f"cannot follow: {line[:80]!r}")
        quarters = 2 if turn[1] == "a half turn" else 1
        records.append(Record(found[0], found[1], CLOCKWISE[turn[2]], quarters))
    return held, runs, records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snake", help="the snake: a catalog name or run lengths (3-3-2-...)")
    ap.add_argument("--box", required=True, help="the box, like 4x4x4")
    ap.add_argument(
        "--plan", help="the plan's JSON (snakecube fold --json): its start and held end"
    )
    ap.add_argument("--held", choices=("first", "last"), help="the end held (without --plan)")
    ap.add_argument("--runs", help="the start: each run's way from the held end, comma separated")
    ap.add_argument("--turns", help="a file of turns, one a line")
    ap.add_argument("--words", help="follow a plan's words (snakecube fold --out plan.txt)")
    ap.add_argument("turn", nargs="*", help="turns, like 'held:4 acw' '+2 cw half'")
    args = ap.parse_intermixed_args(argv)
    from snakecube import Snake  # only to read the snake's run lengths

    lengths = list(Snake.parse(args.snake).lengths)
    dims = tuple(int(v) for v in args.box.lower().split("x"))
    lines = list(args.turn)
    if args.words:
        held, runs, said = read_words(Path(args.words).read_text().splitlines())
        args.held, args.runs = held, ",".join(runs)
        lines += [str(r) for r in said]
    if args.plan:
        data = json.loads(Path(args.plan).read_text())
        held, start = data["held"], [tuple(c) for c in data["start"]]
        lengths = list(Snake.parse(data["snake"]).lengths)
    else:
        if not (args.held and args.runs):
            ap.error("give --plan, or --held and --runs")
        held, start = args.held, lay_out(lengths, args.held, args.runs.split(","))
    if args.turns:
        lines += [ln.split("#")[0] for ln in Path(args.turns).read_text().splitlines()]
    records = [Record.parse(ln) for ln in lines if ln.strip()]
    try:
        states, moves = replay(lengths, held, start, records)
    except (AssertionError, ValueError) as err:
        print(f"stopped: {err}")
        print("the result is the box: no")
        return 1
    each = [r for r in records for _ in range(r.quarters)]
    for k, (said, (cube, joint, q)) in enumerate(zip(each, moves, strict=True), 1):
        print(
            f"quarter turn {k}: {said} -> the joint of cubes {joint} | {joint + 1} "
            f"(corner cube {cube}), {'clockwise' if q > 0 else 'anticlockwise'}"
        )
    ok = is_box(states[-1], dims)  # type: ignore[arg-type]
    print(f"the result is the box: {'yes' if ok else 'no'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
