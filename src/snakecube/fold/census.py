"""The fold census: for every design of a box and every one of its solutions, how it folds.

For each solution (distinct up to the box's symmetries and reversal) and each end it can be
held by, it records, in the model of ``fold.model``:

* ``lower_bound``: the quarter turns from the best flat start (its odd corners);
* ``in_order``: whether a plan places segments strictly in order from that end, the tail
  lying flat until its turn (then it meets the lower bound);
* ``turns``: the fewest quarter turns of any plan (any order, corners turned out of the way
  and back allowed), by iterative-deepening A*; None if there is none within 6 extra;
* ``clear_turns``: the same among plans whose every swing is clear; None if none.

Run it with ``snakecube fold-census --box 3x3x3 --csv FILE`` (all cores). The fewest quarter
turns come from the compiled twin of the planner's search (``fold._turns``, checked against
it in the tests), or from the planner itself where the extension is not built (then the
3x3x3 census takes a day). Each search has a node budget; a result cut short is recorded as
unknown. Finished designs are journalled beside the CSV (``FILE.journal``), so a stopped run
resumes where it was; the CSV is written, whole, at the end.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from snakecube.fold.planner import Budget, Folder
from snakecube.shape import Box, Region
from snakecube.snake import Snake

NODES = 200_000  # per search by the Python planner
COMPILED_NODES = 20_000_000  # per search by the compiled twin (about 10 s)
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


def fewest_turns(folder: Folder, clear_only: bool, compiled: bool = True) -> int | None:
    """The fewest quarter turns of any plan (every swing clear if ``clear_only``), at most
    EXTRA over the lower bound; None if there is none or the budget ran out first."""
    from snakecube.search.kernel import PURE_ENV

    if compiled and os.environ.get(PURE_ENV, "").strip() in ("", "0"):
        try:
            from snakecube.fold._turns import TurnSearch  # type: ignore[import-not-found]
        except ImportError:
            compiled = False
    else:
        compiled = False
    if compiled and len(folder.lengths) <= 33:
        found = TurnSearch(folder.lengths, folder.end, folder.goal).min_turns(
            clear_only, EXTRA, COMPILED_NODES
        )
        return None if found is None or found < 0 else int(found)
    folder.nodes = 0
    plan, done = _try(lambda: folder.with_extra(NODES, clear_only=clear_only, extra=EXTRA))
    return len(plan.moves) if plan is not None and done else None  # type: ignore[attr-defined]


def study(
    lengths: tuple[int, ...], cells: list[tuple[int, int, int]], compiled: bool = True
) -> EndResult:
    """The fold facts of one solution held at its first end (cells in snake order)."""
    folder = Folder(lengths, cells, set(cells))
    lower = sum(v % 2 for v in folder.goal[1:])
    plan, done = _try(lambda: folder.in_order(NODES))
    in_order = (plan is not None) if done else None
    turns = lower if plan is not None else fewest_turns(folder, False, compiled)
    folder.nodes = 0
    clear, _ = _try(lambda: folder.in_order(NODES, clear_only=True))
    clear_turns = lower if clear is not None else fewest_turns(folder, True, compiled)
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


def _journal(path: Path) -> dict[str, list[dict[str, object]]]:
    """The designs finished by an earlier run (a torn last line is ignored)."""
    done: dict[str, list[dict[str, object]]] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return done
    except OSError as err:
        from snakecube.errors import InputError

        raise InputError(f"cannot read {str(path)!r}: {err.strerror or err}") from None
    for line in text.splitlines():
        try:
            entry = json.loads(line)
            done[str(entry["design"])] = list(entry["rows"])
        except (ValueError, KeyError, TypeError):
            continue
    return done


def run(box: Box, out: str | Path, workers: int | None = None,
        progress: Callable[[int, int, int], None] | None = None) -> int:  # fmt: skip
    """Study every solution of every design of ``box``; write the rows to ``out`` (CSV);
    return the number of solutions studied. Finished designs go to ``out.journal`` as they
    come, and a rerun after a stop skips them; the journal is removed when the CSV is
    written."""
    from snakecube import limits, pool
    from snakecube.census import census
    from snakecube.output import write_file

    with census(box) as c:
        designs = sorted((d.snake for d in c.rows()), key=lambda s: s.turns())
    n = limits.cores() if workers is None else limits.workers(workers)
    journal = Path(f"{out}.journal")
    rows = _journal(journal)
    todo = [i for i, d in enumerate(designs) if d.turns() not in rows]

    def job(i: int) -> Iterator[list[dict[str, object]]]:
        yield from _design_rows(designs[i], box)

    events = pool.run(job, todo, n) if n > 1 else (  # event.job: a position in todo
        pool.Event(k, r, False) for k, i in enumerate(todo) for r in job(i))  # fmt: skip
    try:
        log = journal.open("a", encoding="utf-8")
    except OSError as err:
        from snakecube.errors import InputError

        raise InputError(f"cannot write {str(journal)!r}: {err.strerror or err}") from None
    with log:
        found = sum(len(v) for v in rows.values()) // 2
        for event in events:
            if event is None or event.done:
                continue
            design = designs[todo[event.job]].turns()
            rows[design] = event.value
            log.write(json.dumps({"design": design, "rows": event.value}) + "\n")
            log.flush()
            found += len(event.value) // 2
            if progress is not None:
                progress(len(rows), len(designs), found)

    def write(tmp: Path) -> None:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, FIELDS)
            w.writeheader()
            for d in designs:
                w.writerows(rows[d.turns()])

    write_file(out, write)
    os.unlink(journal)
    return sum(len(rows[d.turns()]) for d in designs) // 2


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
