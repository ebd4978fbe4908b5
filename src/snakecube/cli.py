"""The command-line tool: a thin layer over the public API.

Exit codes: 0 when the job ran (zero solutions is an answer, and so is a search stopped by
its time limit, marked incomplete); 2 for bad input, or a file that cannot be read or
written, with one line on stderr naming what is wrong and where; 130 after Ctrl-C (or SIGTERM
or SIGHUP, see ``snakecube.stop``), once what was found is printed, marked incomplete. Every
line on stderr is one line: user text in it is quoted with ``repr``. With ``--json`` the
standard output is always one JSON document, even when the command is stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from snakecube import catalog, limits, stop
from snakecube.errors import CubeCountError, InputError, SlowWarning
from snakecube.progress import progress_bar
from snakecube.shape import Box, Coord, Region
from snakecube.snake import NOTATIONS, Snake

EXIT_OK, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_BUG = 0, 2, 130, 1
# The nearby designs named when a snake's cube count does not fit the target: looked for
# within this time, and only in targets of up to HINT_CELLS cells (a bigger target's setup
# alone can take longer), so the refusal comes within half a second.
HINT_SECONDS, HINT_CELLS = 0.2, 216
EASIEST_OF = 8  # the solutions compared when --solution is not given to show and fold
EASIEST_HELP = (
    f"of the first {EASIEST_OF}, the easiest to fold: fewest quarter turns in its fold plan, "
    "then most swings clear of the cubes in place, then the first"
)
NEARBY_SECONDS = 5.0  # the nearby designs listed when a snake does not fold
SNAKE_HELP = (
    "the snake: a catalog name (standard, king, ...), lengths like 3-3-3-3-2-... or "
    "3,3,3,3,2,... (also as separate words: 3 3 3 3 2 ...), a turn string "
    "(ESCSCSCSCCCCSCSCCCSCCSCCCSE), a 0/1 string, steps:2,2,..., or elbows:3,5,7,..."
)


def _one_line(text: str) -> str:
    """Text safe to print as one line: control characters escaped."""
    return re.sub(r"[\x00-\x1f\x7f\u2028\u2029\x85]", lambda m: repr(m.group())[1:-1], text)


def _say(message: str) -> None:
    print(_one_line(message), file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line naming the problem, exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(
            EXIT_INPUT, _one_line(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n"
        )


def _whole(lo: int, hi: int = limits.MAX_NUMBER) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            return limits.parse_whole(text, "value", lo, hi)
        except InputError as err:
            raise argparse.ArgumentTypeError(str(err).removeprefix("value: ")) from None

    parse.__name__ = "whole number"
    return parse


def _seconds(text: str) -> float:
    try:
        return limits.parse_seconds(text, "value")
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("value: ")) from None


_seconds.__name__ = "seconds"


def _straightness(text: str) -> float:
    try:
        return limits.parse_fraction(text, "value", 10.0)
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("value: ")) from None


_straightness.__name__ = "straightness"


def _workers(text: str) -> int:
    return _whole(1, limits.max_workers())(text)


def _add_snake(p: argparse.ArgumentParser) -> None:
    p.add_argument("snake", nargs="+", metavar="SNAKE", help=SNAKE_HELP)


def _add_target(p: argparse.ArgumentParser, required: bool = False) -> None:
    where = p.add_mutually_exclusive_group(required=required)
    where.add_argument(
        "--box",
        metavar="AxBxC",
        help="target box, like 3x3x3 or 2x3x4"
        + ("" if required else " (default: the snake's cube)"),
    )
    where.add_argument("--region", metavar="FILE", help="target region: layers of # and .")


def _add_seconds(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seconds",
        type=_seconds,
        metavar="S",
        help="stop after S seconds, counted from the command's start (the answer is then "
        "marked incomplete)",
    )


def _left(args: argparse.Namespace) -> float | None:
    """What is left of ``--seconds``, counted from the command's start."""
    return stop.remaining(getattr(args, "seconds", None), args.started)


def _print_json(args: argparse.Namespace, data: object, indent: int | None = None) -> None:
    """Print one JSON document whole: a stop signal during the write waits for its end."""
    text = json.dumps(data, indent=indent) + "\n"
    with stop.deferred():
        sys.stdout.write(text)
        sys.stdout.flush()
        args.json_printed = True


def _snake_text(args: argparse.Namespace) -> str:
    return " ".join(args.snake)


def _target(args: argparse.Namespace) -> Region | None:
    """The target from --box or --region, or None for the snake's own cube."""
    if getattr(args, "box", None) is not None:
        return Box.parse(args.box)
    if getattr(args, "region", None) is not None:
        return Region.from_file(args.region)
    return None


def _parser() -> argparse.ArgumentParser:
    from snakecube import __version__

    p = _Parser(
        prog="snakecube",
        description="Fold snake-cube puzzles: solve, count, explain.",
        epilog="Example: snakecube solve standard    (see snakecube COMMAND --help)",
    )
    p.add_argument("--version", action="version", version=f"snakecube {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    s = sub.add_parser(
        "solve",
        help="fold a snake into a cube, box or region; count solutions",
        epilog="example: snakecube solve 3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3",
    )
    _add_snake(s)
    _add_target(s)
    many = s.add_mutually_exclusive_group()
    many.add_argument("--first", action="store_true", help="stop at the first solution")
    many.add_argument(
        "--limit", type=_whole(1), metavar="N", help="stop after N distinct solutions"
    )
    _add_seconds(s)
    s.add_argument("--start", metavar="X,Y,Z", help="fix the cell of the first cube (0-based)")
    s.add_argument("--path", metavar="CELLS", help="fix the first cells: 'x,y,z x,y,z ...'")
    ends = s.add_mutually_exclusive_group()
    ends.add_argument("--reverse", action="store_true", help="fold from the other end")
    ends.add_argument(
        "--end",
        choices=("auto", "first", "last"),
        default="auto",
        help="the end to search from (default auto: a complete count searches from the last "
        "end when its tree is estimated much smaller; the solutions are read from cube 1 "
        "either way). --reverse is --end last, with cube 1 the last cube",
    )
    s.add_argument(
        "--strategy",
        choices=("auto", "beam", "depth-first", "portfolio", "restarts", "sat"),
        default="auto",
        help="depth-first over the whole tree; for --first only: randomised restarts, beam "
        "searches, a SAT solver (snakecube[sat]) or a portfolio of restarts and SAT (default "
        "auto: for --first on targets of more than 64 cells, the restarts beside depth first "
        "from the end whose tree is estimated smaller and, in boxes of up to 128 cells, the "
        "beam searches; else depth first)",
    )
    s.add_argument(
        "--seed", type=_whole(0, 2**63), default=0, metavar="S",
        help="random seed of the restarts and beams (default 0)",
    )  # fmt: skip
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--letters", action="store_true", help="directions as XP/YN (seeds/000)")
    s.add_argument(
        "--engine",
        choices=("auto", "reference", "kernel"),
        default=None,
        help="search engine (default: auto, or $SNAKECUBE_ENGINE)",
    )
    s.add_argument(
        "--workers",
        type=_workers,
        metavar="N",
        help="processes to search with (default: all cores for big searches)",
    )
    s.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count on this Dask cluster (tcp://HOST:PORT; needs snakecube[cluster])",
    )
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument(
        "--show",
        action="store_true",
        help="print every text form: layers, directions, step-by-step turns",
    )

    w = sub.add_parser(
        "show",
        help="draw a solution: text, .png/.svg/.pdf sheet, .gif, .html",
        epilog="example: snakecube show standard --out sheet.pdf",
    )
    _add_snake(w)
    _add_target(w)
    w.add_argument(
        "--solution",
        type=_whole(1),
        default=None,
        metavar="K",
        help=f"which distinct solution, 1 = the first; default: {EASIEST_HELP}",
    )
    w.add_argument(
        "--out",
        metavar="FILE",
        help="file to write; its extension chooses the form (.txt .png .svg .pdf "
        ".gif .html); without it, text goes to standard output",
    )
    w.add_argument("--reverse", action="store_true", help="fold from the other end")
    _add_seconds(w)
    w.add_argument("--letters", action="store_true", help="directions as XP/YN (seeds/000)")
    w.add_argument(
        "--paper",
        choices=("a4", "letter"),
        default="a4",
        help="paper size of a PDF (or PNG, SVG) sheet (default a4)",
    )
    w.add_argument(
        "--words",
        choices=("table", "pilot"),
        default="table",
        help="directions fixed to the table (default) or relative to the last "
        "segment, as a pilot sees them",
    )

    o = sub.add_parser(
        "fold",
        help="a fold plan: quarter turns from the snake lying flat to a solution",
        epilog="example: snakecube fold standard --out plan.pdf",
    )
    _add_snake(o)
    _add_target(o)
    o.add_argument(
        "--solution",
        type=_whole(1),
        default=None,
        metavar="K",
        help=f"which distinct solution, 1 = the first; default: {EASIEST_HELP}",
    )
    o.add_argument(
        "--nodes",
        type=_whole(1),
        default=200_000,
        metavar="N",
        help="moves the planner tries per search before it gives up (default 200000)",
    )
    o.add_argument(
        "--from",
        dest="held",
        choices=("best", "first", "last"),
        default="best",
        help="the end you hold while folding (default: the easier one)",
    )
    _add_seconds(o)
    o.add_argument("--json", action="store_true", help="print the plan as one JSON object")
    o.add_argument(
        "--out",
        metavar="FILE",
        help="write the plan: .txt, .pdf/.png/.svg sheet, .gif, .html viewer",
    )
    o.add_argument("--paper", choices=("a4", "letter"), default="a4", help="sheet paper size")

    fc = sub.add_parser(
        "fold-census",
        help="how every solution of every design of a box folds (docs/fold.md)",
        epilog="example: snakecube fold-census --box 3x3x3 --csv fold-3x3x3.csv",
    )
    fc.add_argument("--box", metavar="AxBxC", required=True, help="the box (at most 27 cells)")
    fc.add_argument("--csv", metavar="FILE", required=True, help="write one row per solution end")
    fc.add_argument("--workers", type=_workers, metavar="N", help="processes (default: all)")
    fc.add_argument("--quiet", action="store_true", help="no progress bar")

    g = sub.add_parser(
        "designs",
        help="every design that folds into a box, with its solutions",
        epilog="example: snakecube designs --box 3x3x3 --csv designs.csv",
    )
    _add_target(g, required=True)
    g.add_argument("--json", action="store_true", help="print one JSON object")
    g.add_argument("--csv", metavar="FILE", help="write one row per design")
    g.add_argument(
        "--top",
        type=_whole(0, 1000),
        default=10,
        metavar="N",
        help="list the N designs with the most solutions (10)",
    )
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g.add_argument("--workers", type=_workers, metavar="N", help="processes (default: all cores)")
    g.add_argument(
        "--store",
        "--checkpoint",
        dest="store",
        metavar="DIR",
        help="keep the work in this directory; rerun with it to resume",
    )
    g.add_argument(
        "--partitions",
        type=_whole(1, 4096),
        metavar="P",
        help="split the designs into P partitions (a power of two)",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on this Dask cluster (tcp://HOST:PORT; needs --store on a directory every "
        "worker can reach, and snakecube[cluster])",
    )
    g.add_argument(
        "--difficulty",
        action="store_true",
        help="add each design's difficulty to the CSV (one search per design)",
    )

    n = sub.add_parser(
        "generate",
        help="invent new designs from random Hamiltonian paths",
        epilog="example: snakecube generate --box 4x4x4 --unique --count 3",
    )
    n.add_argument("--box", metavar="AxBxC", default="4x4x4", help="the box (default 4x4x4)")
    n.add_argument("--unique", action="store_true", help="only designs with one solution")
    n.add_argument(
        "--count", type=_whole(1, 10_000), default=1, metavar="N", help="how many (default 1)"
    )
    n.add_argument(
        "--seed", type=_whole(0, 2**64), default=0, metavar="S", help="random seed (default 0)"
    )
    n.add_argument(
        "--min-straights",
        type=_whole(0, limits.MAX_CUBES),
        default=0,
        metavar="K",
        help="at least K straight cubes",
    )
    n.add_argument(
        "--max-segment",
        type=_whole(2, limits.MAX_SIDE),
        metavar="L",
        help="no segment longer than L",
    )
    n.add_argument(
        "--straightness",
        type=_straightness,
        metavar="B",
        help="lean towards long straight runs: a corner is kept with odds exp(-B) "
        "(default: 1 with --unique, else 0)",
    )
    n.add_argument("--workers", type=_workers, metavar="N", help="processes (default: all cores)")
    n.add_argument("--show", action="store_true", help="print folding instructions for each")
    n.add_argument("--json", action="store_true", help="print one JSON object")

    r = sub.add_parser(
        "rate",
        help="how hard a design is to fold (higher is harder)",
        epilog="example: snakecube rate seed-red",
    )
    _add_snake(r)
    _add_target(r)
    _add_seconds(r)
    r.add_argument("--json", action="store_true", help="print one JSON object")

    f = sub.add_parser(
        "flat",
        help="lay a snake flat on a table: count layouts, most compact",
        epilog="example: snakecube flat standard --out flat.png",
    )
    _add_snake(f)
    f.add_argument("--json", action="store_true", help="print one JSON object")
    f.add_argument("--out", metavar="FILE", help="draw the most compact layouts (.png .svg .pdf)")
    _add_seconds(f)

    c = sub.add_parser("catalog", help="list the named puzzles with their sequences and sources")
    c.add_argument("--json", action="store_true", help="print JSON")

    v = sub.add_parser(
        "convert",
        help="write a snake in every notation (or one)",
        epilog="example: snakecube convert 3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3",
    )
    _add_snake(v)
    v.add_argument("--to", choices=NOTATIONS, help="only this notation")
    v.add_argument("--json", action="store_true", help="print JSON")

    ck = sub.add_parser(
        "check",
        help="check a solution from elsewhere: is it one, where it fails, which of ours it is",
        epilog="example: snakecube check standard 'START 0,0,0 MOVES: RIGHT 2, BACK 2, ...'",
    )
    ck.add_argument("snake", metavar="SNAKE", help=SNAKE_HELP + " (quoted, as one word)")
    ck.add_argument(
        "solution",
        nargs="*",
        metavar="SOLUTION",
        help="cells (x,y,z ...), one direction per step or segment (+x +y -x ...), or "
        "'START x,y,z MOVES: BACK 2, UP 3, ...'",
    )
    ck.add_argument("--file", metavar="FILE", help="read the solution from this file")
    _add_target(ck)
    ck.add_argument(
        "--axes", metavar="WORD=DIR,...", help="direction words, like RIGHT=+x,BACK=+y,UP=+z"
    )
    ck.add_argument("--start", metavar="X,Y,Z", help="the cell of cube 1, for directions")
    _add_seconds(ck)
    ck.add_argument("--json", action="store_true", help="print JSON")

    ex = sub.add_parser(
        "export",
        help="write the snake and target as a model for another solver (MiniZinc)",
        epilog="example: snakecube export standard --format minizinc --symmetry-breaking",
    )
    _add_snake(ex)
    _add_target(ex)
    ex.add_argument(
        "--format", choices=("minizinc",), default="minizinc", help="the model's language"
    )
    ex.add_argument(
        "--symmetry-breaking",
        nargs="?",
        const="auto",
        default="none",
        choices=("auto", "directions", "lex"),
        help="keep one placement per distinct solution: seeds/000's constraints on a cube "
        "(directions), lex-leader constraints on any target (lex); auto picks",
    )
    ex.add_argument(
        "--out", metavar="FILE", help="write the model to FILE (default: standard output)"
    )

    sv = sub.add_parser(
        "serve",
        help="the web page as a local app: type the snake, see it fold (snakecube[web])",
        epilog="example: snakecube serve --open",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    sv.add_argument("--port", type=_whole(0, 65535), default=8765, help="port (default 8765)")
    sv.add_argument("--open", action="store_true", help="open the page in a browser")
    sv.add_argument("--workers", type=_workers, metavar="N",
                    help="search processes (default: the cores)")  # fmt: skip
    sv.add_argument("--queue", type=_whole(0, 1000), default=8, metavar="N",
                    help="requests waiting for a process before 'busy' (default 8)")  # fmt: skip
    sv.add_argument("--max-seconds", type=_seconds, default=60.0, metavar="S",
                    help="longest search; then marked incomplete (default 60)")  # fmt: skip

    wb = sub.add_parser(
        "web",
        help="write the web page as a static site that solves in the browser (Pyodide)",
        epilog="example: snakecube web --out site && python -m http.server -d site",
    )
    wb.add_argument("--out", required=True, metavar="DIR", help="folder to write the site into")
    return p


def _coord(text: str, what: str) -> Coord:
    parts = [t for t in re.split(r"[,\s()\[\]]+", text) if t]
    if len(parts) != 3 or not all(re.fullmatch(r"-?[0-9]{1,9}", t, re.ASCII) for t in parts):
        raise InputError(f"{what}: {limits.shorten(text)} is not x,y,z (three whole numbers)")
    return int(parts[0]), int(parts[1]), int(parts[2])


def _path(text: str) -> list[Coord]:
    items = [t for t in re.split(r"[;\s]+", text.strip()) if t]
    if not items:
        raise InputError("--path: no cells given")
    if len(items) > limits.MAX_CUBES:
        raise InputError(f"--path: {len(items)} cells; at most {limits.MAX_CUBES}")
    return [_coord(t, f"--path item {i}") for i, t in enumerate(items, 1)]


def _cmd_solve(args: argparse.Namespace) -> int:
    from snakecube.explain.text import report
    from snakecube.search import solve

    target = _target(args)
    start = None if args.start is None else _coord(args.start, "--start")
    path = None if args.path is None else _path(args.path)
    bar = None if args.quiet else progress_bar()
    try:
        result = solve(
            _snake_text(args),
            target,
            start=start,
            path=path,
            reverse=True if args.reverse else {"auto": None, "first": False}.get(args.end, True),
            limit=1 if args.first else args.limit,
            seconds=_left(args),
            engine=args.engine,
            workers=args.workers,
            progress=bar,
            strategy=args.strategy,
            seed=args.seed,
            scheduler=args.scheduler,
        )
    except CubeCountError as err:  # often a typo: say which nearby designs fold
        raise InputError(f"{err}{_suggest(_snake_text(args), target, HINT_SECONDS)}") from None
    finally:
        if bar is not None:
            bar.close()
    typed = Snake.parse(_snake_text(args), None if target is None else target.volume)
    if typed.reading and typed == result.snake:  # a cached snake may have lost its reading
        import dataclasses

        result = dataclasses.replace(result, snake=typed)
    style = "letters" if args.letters else "signs"
    unsolvable = result.complete and not result.solutions and start is None and path is None
    near = []
    if unsolvable:
        from snakecube.nearby import nearby

        left = _left(args)
        budget = NEARBY_SECONDS if left is None else min(left, NEARBY_SECONDS)
        near = nearby(result.snake, result.region, seconds=budget)
    if args.json:
        data = result.to_dict()
        data["catalog"] = catalog.recognized(result.snake.turns(), _snake_text(args)) or None
        if unsolvable:
            data["nearby"] = [n.to_dict() for n in near]
        _print_json(args, data, indent=2)
        return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK
    said = catalog.recognized(result.snake.turns(), _snake_text(args))
    if said:
        print(f"({said})")
    print(report(result, style))
    if near:
        print("\nnearby designs that fold (one typo away):")
        for n in near:
            count = f"{n.distinct}{'' if n.complete else '+'}"
            plural = "s" if n.distinct != 1 else ""
            print(f"  lengths:{','.join(map(str, n.snake.lengths))}")
            print(f"      {n.edit}; {count} distinct solution{plural}")
    elif unsolvable:
        print("no design one typo away folds either")
    if args.show:
        from snakecube.explain.words import show

        for i, sol in enumerate(result.solutions, 1):
            print(f"\n=== solution {i}: every text form ===\n{show(sol, style)}")
    return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK


def _nth_solution(args: argparse.Namespace, verb: str) -> Any:
    """The --solution K'th distinct solution (in the order of ``search.solutions``), None when
    --seconds ran out first, or an InputError saying how many there are."""
    from snakecube.search import solve

    result = solve(
        _snake_text(args),
        _target(args),
        reverse=bool(getattr(args, "reverse", False)),
        limit=args.solution,
        seconds=_left(args),
        strategy="depth-first",
    )
    if result.stop_reason == "interrupted":
        raise KeyboardInterrupt
    if len(result.solutions) >= args.solution:
        return result.solutions[args.solution - 1]
    count = len(result.solutions)
    if not result.complete:
        _say(
            f"snakecube: stopped at the time limit ({args.seconds:g} s) with {count} of the "
            f"{args.solution} solution{'s' if args.solution != 1 else ''} needed found; "
            f"nothing to {verb}"
        )
        return None
    if count == 0:
        raise InputError(
            f"the snake has no solutions in this target, so there is nothing to {verb}"
        )
    raise InputError(
        f"--solution {args.solution}: the snake has only {count} distinct "
        f"solution{'s' if count != 1 else ''} in this target"
    )


def _chosen(args: argparse.Namespace, verb: str, end: str = "best") -> tuple[Any, Any]:
    """The solution to show or fold (--solution K, or the easiest to fold of the first
    EASIEST_OF) and its fold plan (None when --solution was given), or (None, None) when
    --seconds ran out. Says which was picked, and names a catalog puzzle typed otherwise."""
    from snakecube import catalog, fold
    from snakecube.search import solve

    said = catalog.recognized(Snake.parse(_snake_text(args)).turns(), _snake_text(args))
    if said and not getattr(args, "json", False):
        print(f"({said})")
    if args.solution is not None:
        return _nth_solution(args, verb), None
    result = solve(
        _snake_text(args),
        _target(args),
        reverse=bool(getattr(args, "reverse", False)),
        limit=EASIEST_OF,
        seconds=_left(args),
        strategy="depth-first",
    )
    if result.stop_reason == "interrupted":
        raise KeyboardInterrupt
    if not result.solutions:
        if not result.complete:
            _say(f"snakecube: stopped at the time limit with no solution found; nothing to {verb}")
            return None, None
        raise InputError(
            f"the snake has no solutions in this target, so there is nothing to {verb}"
        )
    nodes = getattr(args, "nodes", 200_000)
    if len(result.solutions) == 1:
        return result.solutions[0], fold.plan(result.solutions[0], end, nodes)
    k, p = fold.easiest(result.solutions, end, nodes)
    more = "" if result.complete else " or more"
    if not p.found:
        return result.solutions[k], p
    _say(
        f"snakecube: solution {k + 1} of {len(result.solutions)}{more}, {fold.EASIEST_RULE} "
        f"({p.quarter_turns} quarter turns, {p.sweep_clear} clear); --solution K picks another"
    )
    return result.solutions[k], p


def _cmd_fold(args: argparse.Namespace) -> int:
    from snakecube import explain, fold

    if args.out is not None:
        explain.form_of(args.out)
    found, p = _chosen(args, "fold", args.held)
    if found is None:
        if args.json:
            _print_json(args, {"complete": False, "stop_reason": "seconds", "plan": None})
        return EXIT_OK
    if p is None:
        p = fold.plan(found, args.held, args.nodes)
    if args.out is not None and p.found:
        explain.save_plan(p, args.out, paper=args.paper)
        _say(f"snakecube: wrote {args.out!r}")
    if args.json:
        _print_json(args, p.to_dict())
        return EXIT_OK
    if not p.found:  # the planner gave up: an answer, not an error
        print(f"{'snake':16} {p.solution.snake.turns()}")
        print(f"no fold plan: {p.reason}")
        return EXIT_OK
    order = "yes" if p.in_order else "no (see the last line)"
    print(f"{'snake':16} {p.solution.snake.turns()}")
    print(f"{'held end':16} {'cube 1' if p.held == 'first' else 'cube ' + str(len(p.end))}")
    print(f"{'quarter turns':16} {p.quarter_turns} (lower bound {p.lower_bound})")
    print(f"{'clear swings':16} {p.sweep_clear} of {len(p.moves)}")
    print(f"{'sheet order':16} {order}")
    print()
    print("\n".join(fold.steps_in_words(p)))
    return EXIT_OK


def _cmd_fold_census(args: argparse.Namespace) -> int:
    from snakecube.fold.census import run

    box = Box.parse(args.box)
    limits.cell_count(box.volume, f"the {box.describe()}", 27, "fold-census")
    bar = None if args.quiet else progress_bar(desc="fold census", unit="design", lines=60)
    try:
        n = run(box, args.csv, args.workers, bar)
    except KeyboardInterrupt:
        _say(
            "snakecube: interrupted: the fold census is incomplete; the finished designs are"
            f" kept in {args.csv + '.journal'!r}; run the same command again to go on"
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
    _say(f"snakecube: wrote {args.csv!r}: {n} solutions, each from both ends")
    from snakecube.fold.census import summarize

    print(summarize(args.csv))
    return EXIT_OK


def _suggest(text: str, target: Region | None, seconds: float) -> str:
    """'; nearby designs that fold: lengths:... (edit)', or '' if none does (or none is
    found within ``seconds``)."""
    from snakecube.nearby import nearby

    try:
        snake = Snake.parse(text, None if target is None else target.volume)
        if (snake.cubes if target is None else target.volume) > HINT_CELLS:
            return ""
        with warnings.catch_warnings():  # a refusal is one line: no note on the hint's speed
            warnings.simplefilter("ignore", SlowWarning)
            near = nearby(snake, target, 2, seconds=seconds)
    except InputError:
        return ""
    if not near:
        return ""
    return "; nearby designs that fold: " + "; ".join(
        f"lengths:{','.join(map(str, n.snake.lengths))} ({n.edit})" for n in near
    )


def _cmd_show(args: argparse.Namespace) -> int:
    from snakecube import explain

    if args.out is not None:
        explain.form_of(args.out)
    found, _plan = _chosen(args, "show")
    if found is None:
        return EXIT_OK
    style = "letters" if args.letters else "signs"
    if args.out is None:
        from snakecube.explain.words import show

        if args.reverse:
            print("(--reverse: cube 1 is the last cube of the snake as typed)")
        print(show(found, style, args.words))
        return EXIT_OK
    tails = None
    if explain.form_of(args.out) not in explain.TEXT_FORMS:  # the pictures show the fold plan
        found, tails = explain.hanging(found)
    explain.save(
        found,
        args.out,
        style=style,
        words=args.words,
        paper=args.paper,
        tails=tails,
        typed=_snake_text(args),
    )
    _say(f"snakecube: wrote {args.out!r}")
    return EXIT_OK


def _cmd_designs(args: argparse.Namespace) -> int:
    from snakecube.census import census

    target = _target(args)
    if target is None:
        raise InputError("designs needs --box AxBxC or --region FILE")
    bar = None if args.quiet else progress_bar(desc="census", unit="step", lines=60)
    try:
        result = census(
            target,
            progress=bar,
            workers=args.workers,
            store=args.store,
            partitions=args.partitions,
            scheduler=args.scheduler,
        )
    finally:
        if bar is not None:
            bar.close()
    with result:
        if args.csv and result.complete:
            try:
                result.write_csv(args.csv, difficulty=args.difficulty)
            except KeyboardInterrupt:
                _say(f"snakecube: interrupted: {args.csv!r} was not written")
                _print_census(result, args)
                return EXIT_INTERRUPTED
            _say(f"snakecube: wrote {args.csv!r}")
        _print_census(result, args)
    return EXIT_OK if result.complete else EXIT_INTERRUPTED


def _print_census(result: Any, args: argparse.Namespace) -> None:
    summary = result.to_dict(rows=args.top)
    if args.json:
        _print_json(args, summary, indent=2)
        return
    for key in (
        "target",
        "paths",
        "designs",
        "solutions",
        "unique",
        "max_solutions",
        "palindromes",
    ):
        value = summary[key]
        print(f"{key:14} {'(not tallied)' if value is None else value}")
    if result.complete:
        print("histogram      " + ", ".join(f"{k}: {v}" for k, v in summary["histogram"].items()))
        if summary["top"]:
            print(f"top {len(summary['top'])} by solutions:")
            for row in summary["top"]:
                print(f"  {row['solutions']:6}  {row['turns']}")
    else:
        u, p = summary["units"], summary["partitions"]
        where = f"--store {str(result.store)!r}" if result.store is not None else "--store DIR"
        print(
            f"complete       no: interrupted after {u[0]} of {u[1]} units and {p[0]} of "
            f"{p[1]} partitions; the counts are lower bounds. Rerun with {where} to resume"
        )


def _cmd_generate(args: argparse.Namespace) -> int:
    from snakecube.designs import generate
    from snakecube.explain.words import instructions

    rows: list[dict[str, Any]] = []
    interrupted = False
    try:
        for g in generate(
            Box.parse(args.box),
            count=args.count,
            seed=args.seed,
            unique=args.unique,
            min_straights=args.min_straights,
            max_segment=args.max_segment,
            straightness=args.straightness,
            workers=args.workers,
        ):
            rows.append(g.to_dict())
            if not args.json:
                d = rows[-1]
                print(
                    f"{len(rows)}. {d['turns']}  difficulty {d['difficulty']}, "
                    f"{d['solutions']} solution{'s' if d['solutions'] != 1 else ''}"
                )
                print(f"   lengths:{','.join(map(str, d['segment_lengths']))}")
                if args.show:
                    print(instructions(g.solution))
    except KeyboardInterrupt:
        interrupted = True
    complete = len(rows) == args.count
    if args.json:
        stop_reason = "interrupted" if interrupted else None
        _print_json(args, {"designs": rows, "complete": complete, "stop_reason": stop_reason})
    if interrupted:
        _say(f"snakecube: interrupted after {len(rows)} of {args.count} designs")
        return EXIT_INTERRUPTED
    if not complete:
        _say(f"snakecube: found {len(rows)} of {args.count} designs within the attempts")
    return EXIT_OK


def _cmd_rate(args: argparse.Namespace) -> int:
    from snakecube.designs import rate

    result = rate(_snake_text(args), _target(args), seconds=_left(args))
    data = result.to_dict()
    if args.json:
        _print_json(args, data)
    else:
        for key, value in data.items():
            if key == "difficulty" and value is None:
                value = "unsolvable" if result.complete else "unknown (the search was stopped)"
            print(f"{key:11} {value}")
    return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK


def _cmd_flat(args: argparse.Namespace) -> int:
    from pathlib import Path

    from snakecube.flat import flat

    if args.out is not None and Path(args.out).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError(f"--out {args.out!r}: use a .png, .svg or .pdf file")
    if args.out is not None:
        from snakecube.explain import need_pictures

        need_pictures()
    result = flat(Snake.parse(_snake_text(args)), seconds=_left(args))
    if args.out is not None and result.examples:
        from snakecube.explain import pictures
        from snakecube.output import write_file

        write_file(args.out, lambda p: pictures.flat_sheet(result, p))
        _say(f"snakecube: wrote {args.out!r}")
    data = result.to_dict()
    if args.json:
        _print_json(args, data)
    else:
        for key in ("snake", "layouts", "most_compact", "most_compact_distinct"):
            print(f"{key:22} {data[key]}")
        print(f"{'bounding_box':22} {result.bounding_box[0]}x{result.bounding_box[1]}")
        why = {"seconds": "stopped at the time limit", "interrupted": "interrupted"}
        done = (
            "yes"
            if result.complete
            else f"no ({why.get(result.stop_reason or '', '')}; counts are lower bounds)"
        )
        print(f"{'complete':22} {done}")
    return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK


def _cmd_catalog(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for e in catalog.ENTRIES:
        snake = Snake.from_turns(e.turns)
        rows.append(
            {
                "name": e.name,
                "aliases": list(e.aliases),
                "box": list(e.box),
                "turns": e.turns,
                "segment_lengths": list(snake.lengths),
                "source": e.source,
                "other_end": [
                    {"name": n, "turns": turns, "source": src} for n, turns, src in e.other_end
                ],
            }
        )
    if args.json:  # a merged name is listed too, as a pointer to its canonical entry
        refs = [
            {"name": o["name"], "same_design_as": r["name"], "from_other_end": True, **o}
            for r in rows
            for o in r["other_end"]
        ]
        _print_json(args, rows + refs, indent=2)
        return EXIT_OK
    for r in rows:
        aka = f" (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        print(f"{r['name']}{aka}: {'x'.join(map(str, r['box']))}")
        print(f"  {r['turns']}")
        print(f"  source: {r['source']}")
        for other in r["other_end"]:
            same = "the same design, read from its other end"
            print(f"  {same}: {other['name']} {other['turns']} ({other['source']})")
    return EXIT_OK


def _cmd_convert(args: argparse.Namespace) -> int:
    snake = Snake.parse(_snake_text(args))
    chosen = [args.to] if args.to else list(NOTATIONS)
    forms = {n: snake.format(n) for n in chosen}
    if args.json:
        _print_json(args, {**forms, "cubes": snake.cubes, "palindrome": snake.is_palindrome})
    elif args.to:
        print(forms[args.to])
    else:
        for n, text in forms.items():
            print(f"{n:8} {text}")
        print(f"{'cubes':8} {snake.cubes}")
        print(f"{'palindrome':8} {'yes' if snake.is_palindrome else 'no'}")
    return EXIT_OK


def _cmd_serve(args: argparse.Namespace) -> int:
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn", "sse_starlette", "plotly")
               if importlib.util.find_spec(m) is None]  # fmt: skip
    if missing:
        raise InputError(f"serve needs {', '.join(missing)}: pip install 'snakecube[web]'")
    from snakecube.web.server import serve

    serve(args.host, args.port, args.open, args.workers, args.queue, args.max_seconds)
    return EXIT_OK


def _cmd_web(args: argparse.Namespace) -> int:
    from snakecube.web.site import build

    out = build(args.out)
    _say(f"snakecube: wrote the static site to {str(out)!r}; try: python -m http.server -d {out}")
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    from snakecube.check import check

    if args.file is not None:
        if args.solution:
            raise InputError("give the solution as words or with --file, not both")
        from pathlib import Path

        try:
            with Path(args.file).open("rb") as f:
                data = f.read(limits.MAX_TEXT * 4 + 1)
            text = data.decode("utf-8")
        except OSError as err:
            raise InputError(f"cannot read {args.file!r}: {err.strerror or err}") from None
        except UnicodeDecodeError as err:
            raise InputError(f"{args.file!r} is not UTF-8 text (byte {err.start + 1})") from None
    else:
        text = " ".join(args.solution)
    start = None if args.start is None else _coord(args.start, "--start")
    verdict = check(
        args.snake, text, _target(args), axes=args.axes, start=start, seconds=_left(args)
    )
    if args.json:
        _print_json(args, verdict.to_dict(), indent=2)
    else:
        print(verdict.report())
    return EXIT_OK


def _cmd_export(args: argparse.Namespace) -> int:
    from snakecube.minizinc import model
    from snakecube.search import as_snake, as_target

    target = _target(args)
    snake = as_snake(_snake_text(args), target)
    region = as_target(target, snake) if target is None else target
    limits.cell_count(region.volume, f"the {region.describe()}")
    text = model(snake, region, args.symmetry_breaking)
    if args.out is None:
        sys.stdout.write(text)
        return EXIT_OK
    from snakecube.output import write_file

    write_file(args.out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "solve": _cmd_solve,
    "show": _cmd_show,
    "fold": _cmd_fold,
    "fold-census": _cmd_fold_census,
    "designs": _cmd_designs,
    "flat": _cmd_flat,
    "rate": _cmd_rate,
    "generate": _cmd_generate,
    "catalog": _cmd_catalog,
    "convert": _cmd_convert,
    "check": _cmd_check,
    "export": _cmd_export,
    "serve": _cmd_serve,
    "web": _cmd_web,
}


_WARNED: set[str] = set()


def _warning(message: Any, category: Any, *_args: Any, **_kwargs: Any) -> None:
    """A warning on one line, each message once (the nearby designs' searches would repeat
    the pure-Python engine's warning for every candidate)."""
    text = f"snakecube: warning: {message}"
    if text not in _WARNED:
        _WARNED.add(text)
        _say(text)


def main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run the tool; return the exit code. Time limits count from ``started`` (a
    ``time.monotonic()``; by default, now)."""
    began = time.monotonic() if started is None else started
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed
        return exit_.code if isinstance(exit_.code, int) else EXIT_INPUT
    args.started, args.json_printed = began, False
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = _warning
        _WARNED.clear()
        return _run(COMMANDS[args.command], args)


def _run(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return command(args)
    except KeyboardInterrupt:
        return _interrupted(args)
    except Exception as err:
        if stop.signalled:  # whatever a stop signal broke (an import, a read) is a stop
            return _interrupted(args)
        return _failed(err)


def _interrupted(args: argparse.Namespace) -> int:
    """Say the command was stopped; with --json, the output is still one JSON document."""
    if getattr(args, "json", False) and not args.json_printed:
        with contextlib.suppress(KeyboardInterrupt):
            _print_json(args, {"complete": False, "stop_reason": "interrupted"})
    _say("snakecube: interrupted")
    return EXIT_INTERRUPTED


def _failed(err: Exception) -> int:
    """Say what went wrong in one line; the exit code."""
    if isinstance(err, InputError):
        _say(f"snakecube: error: {err}")
        return EXIT_INPUT
    if isinstance(err, BrokenPipeError):
        # The reader went away (| head): nothing more to say, and nothing to flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    if isinstance(err, OSError):  # a full disk, a read-only folder, a missing permission
        where = f" {str(err.filename)!r}" if err.filename is not None else ""
        _say(f"snakecube: error: cannot use{where}: {err.strerror or err}")
        return EXIT_INPUT
    if isinstance(err, MemoryError):
        _say("snakecube: error: out of memory; try a smaller target or fewer --workers")
        return EXIT_INPUT
    if os.environ.get("SNAKECUBE_DEBUG"):
        raise err
    _say(
        f"snakecube: internal error: {type(err).__name__}: {err} (this is a bug; "
        "SNAKECUBE_DEBUG=1 shows where)"
    )
    return EXIT_BUG


def run() -> None:
    """The ``snakecube`` command (kept for scripts that name it here; see ``__main__``)."""
    from snakecube.__main__ import run as entry

    entry()
