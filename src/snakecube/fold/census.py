"""The fold census: for every design of a box and every one of its solutions, how it folds.

For each solution (distinct up to the box's symmetries and reversal) and each end it can be
held by, it records, in the model of ``fold.model``:

* ``lower_bound``: the quarter turns from the best flat start (its odd corners);
* ``in_order``: whether a plan places segments strictly in order from that end, the tail
  lying flat until its turn (then it meets the lower bound);
* ``turns``: the fewest quarter turns of any plan (any order, corners turned out of the way
  and back allowed), by iterative-deepening A*; None if there is none within 6 extra;
* ``clear_turns``: the same among plans whose every swing is clear; None if none.

Run it with ``snakecube fold-census --box 3x3x3 --csv FILE`` (all cores; about a quarter of
an hour on two). Each search has a node budget; a result cut short is recorded as unknown.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from snakecube.fold.planner import Budget, Folder
from snakecube.shape import Box, Region
from snakecube.snake import Snake

NODES = 200_000
EXTRA = 6
FIELDS = (
    "design", "solution", "end", "lower_bound", "in_order", "turns", "extra", "clear_turns",
    "clear_extra",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class EndResult:
    """How one solution folds from one end (None: not found within the budget)."""

    lower_bound: int
    in_order: bool | None
    turns: int | None
    clear_turns: int | None


def _try(run: Callable[[], object]) -> tuple[object, bool]:
    try:
        return run(), True
    except Budget:
        return None, False


def study(lengths: tuple[int, ...], cells: list[tuple[int, int, int]]) -> EndResult:
    """The fold facts of one solution held at its first end (cells in snake order)."""
    target = set(cells)
    folder = Folder(lengths, cells, target)
    lower = sum(v % 2 for v in folder.goal[1:])
    plan, done = _try(lambda: folder.in_order(NODES))
    in_order = (plan is not None) if done else None
    folder.nodes = 0
    if plan is not None:
        turns: int | None = lower
    else:
        best, done = _try(lambda: folder.with_extra(NODES, extra=EXTRA))
        turns = len(best.moves) if best is not None else None  # type: ignore[attr-defined]
        if not done:
            turns = None
    folder.nodes = 0
    clear, done = _try(lambda: folder.with_extra(NODES, clear_only=True, extra=EXTRA))
    clear_turns = len(clear.moves) if clear is not None and done else None  # type: ignore[attr-defined]
    return EndResult(lower, in_order, turns, clear_turns)


def solutions_of(snake: Snake, box: Region) -> list[tuple[tuple[int, int, int], ...]]:
    """One cell list per solution, distinct up to the box's symmetries and reversal."""
    from snakecube.search import solve

    found = solve(snake, box, workers=1)
    if not snake.is_palindrome:
        return [s.cells for s in found.solutions]
    seen, out = set(), []
    for s in found.solutions:
        key = s.canonical(reversal=True)
        if key not in seen:
            seen.add(key)
            out.append(s.cells)
    return out


def _design_rows(snake: Snake, box: Region) -> Iterator[list[dict[str, object]]]:
    rows = []
    for k, cells in enumerate(solutions_of(snake, box), 1):
        for end, ls, cs in (("first", snake.lengths, list(cells)),
                            ("last", snake.lengths[::-1], list(cells)[::-1])):  # fmt: skip
            r = study(ls, cs)
            rows.append({
                "design": snake.turns(), "solution": k, "end": end,
                "lower_bound": r.lower_bound,
                "in_order": "" if r.in_order is None else int(r.in_order),
                "turns": "" if r.turns is None else r.turns,
                "extra": "" if r.turns is None else r.turns - r.lower_bound,
                "clear_turns": "" if r.clear_turns is None else r.clear_turns,
                "clear_extra": "" if r.clear_turns is None else r.clear_turns - r.lower_bound,
            })  # fmt: skip
    yield rows


def run(box: Box, out: str | Path, workers: int | None = None,
        progress: Callable[[int, int, int], None] | None = None) -> int:  # fmt: skip
    """Study every solution of every design of ``box``; write the rows to ``out`` (CSV);
    return the number of solutions studied."""
    from snakecube import limits, pool
    from snakecube.census import census
    from snakecube.output import write_file

    with census(box) as c:
        designs = sorted((d.snake for d in c.rows()), key=lambda s: s.turns())
    n = limits.cores() if workers is None else limits.workers(workers)
    rows: dict[int, list[dict[str, object]]] = {}

    def job(i: int) -> Iterator[list[dict[str, object]]]:
        yield from _design_rows(designs[i], box)

    events = pool.run(job, range(len(designs)), n) if n > 1 else (
        pool.Event(i, r, False) for i in range(len(designs)) for r in job(i))  # fmt: skip
    for event in events:
        if event is None or event.done:
            continue
        rows[event.job] = event.value
        if progress is not None:
            progress(len(rows), len(designs), sum(len(v) for v in rows.values()) // 2)

    def write(tmp: Path) -> None:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, FIELDS)
            w.writeheader()
            for i in range(len(designs)):
                w.writerows(rows[i])

    write_file(out, write)
    return sum(len(v) for v in rows.values()) // 2


def summarize(path: str | Path) -> str:
    """The census's tables, in markdown, from its CSV."""
    with Path(path).open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_solution: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
    for r in rows:
        by_solution.setdefault((r["design"], r["solution"]), {})[r["end"]] = r
    n = len(by_solution)
    order = {"from the first end": 0, "from the last end": 0, "from either end": 0,
             "from neither end": 0, "unknown": 0}  # fmt: skip
    extra: dict[str, int] = {}
    clear: dict[str, int] = {}
    designs: dict[str, list[bool]] = {}
    for (design, _), ends in by_solution.items():
        first, last = ends["first"]["in_order"], ends["last"]["in_order"]
        if "" in (first, last) and "1" not in (first, last):
            order["unknown"] += 1
        elif first == "1" and last == "1":
            order["from either end"] += 1
        elif first == "1":
            order["from the first end"] += 1
        elif last == "1":
            order["from the last end"] += 1
        else:
            order["from neither end"] += 1
        designs.setdefault(design, []).append("1" in (first, last))
        known = [int(e["extra"]) for e in ends.values() if e["extra"] != ""]
        key = str(min(known)) if known else "none within 6 (or cut short)"
        extra[key] = extra.get(key, 0) + 1
        clear_known = [int(e["clear_extra"]) for e in ends.values() if e["clear_extra"] != ""]
        ckey = (f"yes, {min(clear_known)} extra quarter turns" if clear_known
                else "no plan within 6 extra (or cut short)")  # fmt: skip
        clear[ckey] = clear.get(ckey, 0) + 1

    def table(title: str, counts: dict[str, int], total: int) -> list[str]:
        out = [f"| {title} | solutions | share |", "|---|---:|---:|"]
        for k, v in counts.items():
            out.append(f"| {k} | {v:,} | {100 * v / total:.1f}% |")
        return out

    lines = [f"{n:,} solutions of {len(designs):,} designs, each planned from both ends.", ""]
    lines += table("a plan placing segments strictly in order exists", order, n)
    lines += ["", *table("extra quarter turns of the best plan (either end)",
                          dict(sorted(extra.items())), n)]  # fmt: skip
    lines += ["", *table("a plan with every swing clear", dict(sorted(clear.items())), n)]
    every = sum(1 for v in designs.values() if all(v))
    some = sum(1 for v in designs.values() if any(v))
    lines += ["", f"Designs all of whose solutions have an in-order plan from some end: "
              f"{every:,} of {len(designs):,}; designs with at least one: {some:,}."]  # fmt: skip
    return "\n".join(lines)
