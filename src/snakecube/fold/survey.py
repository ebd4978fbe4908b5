"""The fold census (``snakecube fold-census``): for every design of a box and every one of
its solutions, how it folds.

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
resumes where it was; the CSV is written, whole, at the end. The journal's first line names
its census (box, designs, planner, budgets, format and version) and every line carries a
checksum: a journal of another census, or a damaged one, is refused with an InputError and
nothing in it is counted; a last line torn by a kill is cut off and its design done again.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from snakecube import __version__, compiled, limits, pool
from snakecube.census import census
from snakecube.errors import InputError
from snakecube.fold.planner import Folder, PlanBudgetExceeded
from snakecube.output import write_file
from snakecube.search import solve
from snakecube.shape import Box, Region
from snakecube.snake import Snake
from snakecube.stop import StopReason

NODES = 200_000  # per search by the Python planner
COMPILED_NODES = 20_000_000  # per search by the compiled twin (about 10 s)
EXTRA = 6
FIELDS = (
    "design",
    "solution",
    "end",
    "lower_bound",
    "in_order",
    "turns",
    "extra",
    "clear_turns",
    "clear_extra",
)


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
    except PlanBudgetExceeded:
        return None, False


def _twin() -> Any:
    """The compiled twin's ``TurnSearch``, or None where it is not built or not wanted
    (``snakecube.compiled``)."""

    loop = compiled.extension("turns")
    return None if loop is None else loop.TurnSearch


def fewest_turns(folder: Folder, clear_only: bool, compiled: bool = True) -> int | None:
    """The fewest quarter turns of any plan (every swing clear if ``clear_only``), at most
    EXTRA over the lower bound; None if there is none or the budget ran out first."""
    twin = _twin() if compiled else None
    if twin is not None and len(folder.lengths) <= 33:
        found = twin(folder.lengths, folder.end, folder.goal).min_turns(
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
    """One cell list per solution, distinct up to the box's symmetries and reversal.

    Raises KeyboardInterrupt if the search was interrupted, and RuntimeError if it stopped
    early for any other reason: a partial list is never returned.
    """

    found = solve(snake, box, workers=1)
    if not found.complete:
        if found.stop_reason == StopReason.INTERRUPTED:
            raise KeyboardInterrupt
        raise RuntimeError(
            f"the search for design {snake.turns()} stopped early ({found.stop_reason})"
        )
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
        for end, ls, cs in (
            ("first", snake.lengths, list(cells)),
            ("last", snake.lengths[::-1], list(cells)[::-1]),
        ):
            r = study(ls, cs)
            rows.append(
                {
                    "design": snake.turns(),
                    "solution": k,
                    "end": end,
                    "lower_bound": r.lower_bound,
                    "in_order": "" if r.in_order is None else int(r.in_order),
                    "turns": "" if r.turns is None else r.turns,
                    "extra": "" if r.turns is None else r.turns - r.lower_bound,
                    "clear_turns": "" if r.clear_turns is None else r.clear_turns,
                    "clear_extra": "" if r.clear_turns is None else r.clear_turns - r.lower_bound,
                }
            )
    yield rows


# The journal (``FILE.journal``), JSON lines:
#   line 1: {"fold_census": JOURNAL_FORMAT, "box": "2x3x3", ...identity(), "sha": ...}
#   then one line per finished design: {"design": turns, "rows": [row, ...], "sha": ...}
# ``sha`` is the start of the SHA-256 of the line's other fields as canonical JSON. A line
# torn by a stop mid-write can only be the last, without its newline: it is cut off and its
# design done again. Anything else that is not as written here refuses the journal.
JOURNAL_FORMAT = 1


def _checksum(entry: dict[str, object]) -> str:
    body = {k: v for k, v in entry.items() if k != "sha"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def _line(entry: dict[str, object]) -> bytes:
    """One journal line for ``entry``, with its checksum and newline."""
    return (json.dumps({**entry, "sha": _checksum(entry)}) + "\n").encode("ascii")


def identity(box: Box, designs: dict[str, int]) -> dict[str, object]:
    """What makes one fold census's rows: the box, its designs, and how the rows are found.

    ``designs`` maps each design (turn string) to its number of distinct solutions.
    """

    listed = "".join(f"{d} {n}\n" for d, n in sorted(designs.items()))
    return {
        "fold_census": JOURNAL_FORMAT,
        "snakecube": __version__,
        "box": "x".join(str(v) for v in box.dims),
        "designs": len(designs),
        "designs_sha": hashlib.sha256(listed.encode("ascii")).hexdigest()[:16],
        "planner": "python" if _twin() is None else "compiled",
        "nodes": NODES,
        "compiled_nodes": COMPILED_NODES,
        "extra": EXTRA,
    }


def _check_rows(design: str, rows: object, solutions: int) -> str | None:
    """What is wrong with ``rows`` as the rows of ``design`` (None if nothing)."""
    if not isinstance(rows, list) or len(rows) != 2 * solutions:
        size = len(rows) if isinstance(rows, list) else "not a list of"
        return f"{size} rows for design {design}, which has {solutions} solutions (2 rows each)"
    for i, row in enumerate(rows):
        want = {"design": design, "solution": i // 2 + 1, "end": ("first", "last")[i % 2]}
        if not isinstance(row, dict) or tuple(row) != FIELDS:
            return f"row {i + 1} of design {design} does not have the fields {','.join(FIELDS)}"
        if any(row[k] != v for k, v in want.items()):
            return (
                f"row {i + 1} of design {design} is not solution {want['solution']}, "
                f"{want['end']} end"
            )
        lower = row["lower_bound"]
        if type(lower) is not int or lower < 0 or row["in_order"] not in ("", 0, 1):
            return f"row {i + 1} of design {design}: bad lower_bound or in_order"
        for turns, extra in (("turns", "extra"), ("clear_turns", "clear_extra")):
            t, e = row[turns], row[extra]
            if (t, e) == ("", ""):
                continue
            if type(t) is not int or type(e) is not int or e != t - lower or not 0 <= e <= EXTRA:
                return f"row {i + 1} of design {design}: bad {turns} or {extra}"
        if row["in_order"] == 1 and row["turns"] != lower:
            return f"row {i + 1} of design {design}: in order, yet turns is not the lower bound"
    return None


def _journal(
    path: Path, ident: dict[str, object], designs: dict[str, int]
) -> tuple[dict[str, list[dict[str, object]]], int]:
    """The designs an earlier run of this census finished, and the length of the journal's
    whole lines (0 if there is none). Raises InputError, and counts nothing, if the journal
    is of another census or damaged."""
    name = repr(str(path))
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise InputError(f"cannot resume from {name}: not a regular file")
        with path.open("rb") as f:
            data = f.read()
    except FileNotFoundError:
        return {}, 0
    except OSError as err:
        raise InputError(f"cannot read {name}: {err.strerror or err}") from None

    def refused(n: int, what: str) -> InputError:
        return InputError(f"cannot resume from {name}: line {n}: {what}")

    whole = data[: data.rfind(b"\n") + 1]  # what follows the last newline is a torn tail
    done: dict[str, list[dict[str, object]]] = {}
    for n, raw in enumerate(whole.splitlines(), 1):
        damaged = "; the journal is damaged (remove it to start again)"
        try:
            entry = json.loads(raw.decode("ascii"))
            sha = _checksum(entry) if isinstance(entry, dict) else None
        except (ValueError, RecursionError):
            raise refused(n, "not a line of JSON" + damaged) from None
        if n == 1 and (sha is None or "fold_census" not in entry):
            raise refused(1, "not the header of a fold-census journal (remove it to start again)")
        if sha is None or entry.get("sha") != sha:
            raise refused(n, "bad checksum" + damaged)
        if n == 1:
            for key, ours in ident.items():
                if entry.get(key) != ours:
                    raise refused(
                        1,
                        f"the journal of another fold census ({key} "
                        f"{entry.get(key)!r}, here {ours!r}); remove it, or write "
                        "the CSV elsewhere",
                    )
            continue
        design = entry.get("design")
        if set(entry) != {"design", "rows", "sha"} or not isinstance(design, str):
            raise refused(n, "not a design's record" + damaged)
        if design not in designs:
            raise refused(
                n, f"{limits.shorten(design)} is not a design of the {ident['box']} box" + damaged
            )
        if design in done:
            raise refused(n, f"design {design} is recorded twice" + damaged)
        wrong = _check_rows(design, entry["rows"], designs[design])
        if wrong is not None:
            raise refused(n, wrong + damaged)
        done[design] = entry["rows"]
    return done, len(whole)


def run(
    box: Box,
    out: str | Path,
    workers: int | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> int:
    """Study every solution of every design of ``box``; write the rows to ``out`` (CSV);
    return the number of solutions studied.

    Finished designs go to ``out.journal`` as they come, and a rerun after a stop skips
    them; the journal is removed when the CSV is written. A journal of another census, or
    a damaged one, raises InputError before anything is done, as does a file that cannot
    be written. Ctrl-C raises KeyboardInterrupt, the journal keeping what finished.
    """

    designs, solutions = _designs_of(box)
    n = limits.cores() if workers is None else limits.workers(workers)
    journal = Path(f"{out}.journal")
    ident = identity(box, solutions)
    rows, whole = _journal(journal, ident, solutions)
    todo = [i for i, d in enumerate(designs) if d.turns() not in rows]
    log = _open_journal(journal, ident, whole)

    def job(i: int) -> Iterator[list[dict[str, object]]]:
        yield from _design_rows(designs[i], box)

    events = (
        pool.run(job, todo, n)
        if n > 1
        else (  # event.job: a position in todo
            pool.Event(k, r, False) for k, i in enumerate(todo) for r in job(i)
        )
    )
    try:
        with log:
            found = sum(len(v) for v in rows.values()) // 2
            for event in events:
                if event is None or event.done:
                    continue
                design = designs[todo[event.job]].turns()
                if len(event.value) != 2 * solutions[design]:
                    raise RuntimeError(
                        f"design {design}: {len(event.value) // 2} solutions studied, "
                        f"the census has {solutions[design]}"
                    )
                rows[design] = event.value
                log.write(_line({"design": design, "rows": event.value}))
                log.flush()
                found += len(event.value) // 2
                if progress is not None:
                    progress(len(rows), len(designs), found)
    except OSError as err:
        raise _cannot_write(journal, err) from None
    finally:
        events.close()
    _write_csv(out, designs, rows)
    try:
        journal.unlink()
    except OSError as err:
        raise InputError(
            f"wrote {str(out)!r}, but cannot remove {str(journal)!r}: {err.strerror or err}"
        ) from None
    return sum(len(rows[d.turns()]) for d in designs) // 2


def _designs_of(box: Box) -> tuple[list[Snake], dict[str, int]]:
    """The box's designs in turn-string order, and each one's distinct solutions, from a
    complete census (Ctrl-C in it raises KeyboardInterrupt)."""

    with census(box) as c:
        if not c.complete:
            if c.stop_reason == StopReason.INTERRUPTED:
                raise KeyboardInterrupt
            raise RuntimeError(f"the census of the {box.describe()} stopped ({c.stop_reason})")
        found = sorted(c.rows(), key=lambda d: d.snake.turns())
    return [d.snake for d in found], {d.snake.turns(): d.distinct for d in found}


def _cannot_write(journal: Path, err: OSError) -> InputError:
    return InputError(f"cannot write {str(journal)!r}: {err.strerror or err}")


def _open_journal(journal: Path, ident: dict[str, object], whole: int) -> BinaryIO:
    """The journal, open to append: a new one starts with the census's identity; an old one
    loses a line torn by a stop mid-write (the bytes after ``whole``)."""
    try:
        if whole:
            os.truncate(journal, whole)
            return journal.open("ab")
        log = journal.open("wb")
        log.write(_line(ident))
        log.flush()
        return log
    except OSError as err:
        raise _cannot_write(journal, err) from None


def _write_csv(
    out: str | Path, designs: list[Snake], rows: dict[str, list[dict[str, object]]]
) -> None:
    """The CSV, whole, once every design has its rows."""

    missing = [d.turns() for d in designs if d.turns() not in rows]
    if missing:
        raise RuntimeError(f"{len(missing)} designs were not studied, {missing[0]} first")

    def write(tmp: Path) -> None:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, FIELDS)
            w.writeheader()
            for d in designs:
                w.writerows(rows[d.turns()])

    write_file(out, write)


def summarize(path: str | Path) -> str:
    """The census's tables, in markdown, from its CSV."""
    with Path(path).open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_solution: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
    for r in rows:
        by_solution.setdefault((r["design"], r["solution"]), {})[r["end"]] = r
    n = len(by_solution)
    order = {
        "from the first end": 0,
        "from the last end": 0,
        "from either end": 0,
        "from neither end": 0,
        "unknown": 0,
    }
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
        ckey = (
            f"yes, {min(clear_known)} extra quarter turns"
            if clear_known
            else "no plan within 6 extra (or cut short)"
        )
        clear[ckey] = clear.get(ckey, 0) + 1

    def table(title: str, counts: dict[str, int], total: int) -> list[str]:
        out = [f"| {title} | solutions | share |", "|---|---:|---:|"]
        for k, v in counts.items():
            out.append(f"| {k} | {v:,} | {100 * v / total:.1f}% |")
        return out

    lines = [f"{n:,} solutions of {len(designs):,} designs, each planned from both ends.", ""]
    lines += table("a plan placing segments strictly in order exists", order, n)
    lines += [
        "",
        *table("extra quarter turns of the best plan (either end)", dict(sorted(extra.items())), n),
    ]
    lines += ["", *table("a plan with every swing clear", dict(sorted(clear.items())), n)]
    every = sum(1 for v in designs.values() if all(v))
    some = sum(1 for v in designs.values() if any(v))
    lines += [
        "",
        f"Designs all of whose solutions have an in-order plan from some end: "
        f"{every:,} of {len(designs):,}; designs with at least one: {some:,}.",
    ]
    return "\n".join(lines)
