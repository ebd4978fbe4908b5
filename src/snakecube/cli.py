"""The command-line tool: a thin layer over the public API.

Exit codes: 0 when the search ran (zero solutions is an answer), 2 for bad input (one line on
stderr naming what is wrong), 130 after Ctrl-C (what was found is printed, marked incomplete).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any

from snakecube import catalog
from snakecube.errors import InputError
from snakecube.progress import progress_bar
from snakecube.search import ENGINES, solve
from snakecube.shape import Box, Coord, Region
from snakecube.snake import NOTATIONS, Snake

EXIT_OK, EXIT_INPUT, EXIT_INTERRUPTED = 0, 2, 130


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line naming the problem, exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="snakecube", description="Fold snake-cube puzzles: solve, count, explain.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("solve", help="fold a snake into a cube, box or region; count solutions")
    s.add_argument(
        "snake",
        help="turn string, 0/1 string, lengths:..., steps:..., elbows:... or a catalog name",
    )
    where = s.add_mutually_exclusive_group()
    where.add_argument("--box", metavar="AxBxC", help="target box (default: the snake's cube)")
    where.add_argument("--region", metavar="FILE", help="target region: layers of # and .")
    many = s.add_mutually_exclusive_group()
    many.add_argument("--first", action="store_true", help="stop at the first solution")
    many.add_argument("--limit", type=int, metavar="N", help="stop after N distinct solutions")
    s.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    s.add_argument("--start", metavar="X,Y,Z", help="fix the cell of the first cube (0-based)")
    s.add_argument("--path", metavar="CELLS", help="fix the first cells: 'x,y,z x,y,z ...'")
    s.add_argument("--reverse", action="store_true", help="fold from the other end")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--letters", action="store_true", help="directions as XP/YN (seeds/000)")
    s.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="search engine (default: auto, or $SNAKECUBE_ENGINE)",
    )
    s.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes to search with (default: all cores for big searches)",
    )
    s.add_argument("--quiet", action="store_true", help="no progress bar")

    c = sub.add_parser("catalog", help="list the named puzzles with their sequences and sources")
    c.add_argument("--json", action="store_true", help="print JSON")

    v = sub.add_parser("convert", help="write a snake in every notation (or one)")
    v.add_argument("snake")
    v.add_argument("--to", choices=NOTATIONS, help="only this notation")
    v.add_argument("--json", action="store_true", help="print JSON")
    return p


def _coord(text: str, what: str) -> Coord:
    parts = [t for t in re.split(r"[,\s()\[\]]+", text) if t]
    if len(parts) != 3 or not all(re.fullmatch(r"-?\d+", t) for t in parts):
        raise InputError(f"{what}: {text!r} is not x,y,z (three whole numbers)")
    return int(parts[0]), int(parts[1]), int(parts[2])


def _path(text: str) -> list[Coord]:
    items = [t for t in re.split(r"[;\s]+", text.strip()) if t]
    if not items:
        raise InputError("--path: no cells given")
    return [_coord(t, f"--path item {i}") for i, t in enumerate(items, 1)]


def _target(args: argparse.Namespace) -> Region | None:
    if args.box is not None:
        return Box.parse(args.box)
    if args.region is not None:
        return Region.from_file(args.region)
    return None


def _cmd_solve(args: argparse.Namespace) -> int:
    from snakecube.explain.text import report

    target = _target(args)
    limit = 1 if args.first else args.limit
    bar = None if args.quiet else progress_bar()
    try:
        result = solve(
            args.snake,
            target,
            start=None if args.start is None else _coord(args.start, "--start"),
            path=None if args.path is None else _path(args.path),
            reverse=args.reverse,
            limit=limit,
            seconds=args.seconds,
            engine=args.engine,
            workers=args.workers,
            progress=bar,
        )
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(report(result, "letters" if args.letters else "signs"))
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
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    for r in rows:
        aka = f" (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        print(f"{r['name']}{aka}: {'x'.join(map(str, r['box']))}")
        print(f"  {r['turns']}")
        print(f"  source: {r['source']}")
    return EXIT_OK


def _cmd_convert(args: argparse.Namespace) -> int:
    snake = Snake.parse(args.snake)
    chosen = [args.to] if args.to else list(NOTATIONS)
    forms = {n: snake.format(n) for n in chosen}
    if args.json:
        print(json.dumps({**forms, "cubes": snake.cubes, "palindrome": snake.is_palindrome}))
    elif args.to:
        print(forms[args.to])
    else:
        for n, text in forms.items():
            print(f"{n:8} {text}")
        print(f"{'cubes':8} {snake.cubes}")
        print(f"{'palindrome':8} {'yes' if snake.is_palindrome else 'no'}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool; return the exit code."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error already printed
        return stop.code if isinstance(stop.code, int) else EXIT_INPUT
    command = {"solve": _cmd_solve, "catalog": _cmd_catalog, "convert": _cmd_convert}
    try:
        return command[args.command](args)
    except InputError as err:
        print(f"snakecube: error: {err}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("snakecube: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (| head); nothing more to say
        return EXIT_OK


def run() -> None:
    """Entry point for ``python -m snakecube`` and the ``snakecube`` script."""
    sys.exit(main())
