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

    s.add_argument(
        "--show",
        action="store_true",
        help="print every text form: layers, directions, step-by-step turns",
    )

    w = sub.add_parser("show", help="draw a solution: text, .png/.svg/.pdf sheet, .gif, .html")
    w.add_argument("snake")
    place = w.add_mutually_exclusive_group()
    place.add_argument("--box", metavar="AxBxC", help="target box (default: the snake's cube)")
    place.add_argument("--region", metavar="FILE", help="target region: layers of # and .")
    w.add_argument(
        "--solution",
        type=int,
        default=1,
        metavar="K",
        help="which distinct solution, 1 = the first (default)",
    )
    w.add_argument(
        "--out",
        metavar="FILE",
        help="file to write; its extension chooses the form (.txt .png .svg .pdf "
        ".gif .html); without it, text goes to standard output",
    )
    w.add_argument("--reverse", action="store_true", help="fold from the other end")
    w.add_argument("--letters", action="store_true", help="directions as XP/YN (seeds/000)")
    w.add_argument(
        "--max-steps",
        type=int,
        metavar="N",
        help="at most N steps on a sheet or animation (segments are grouped)",
    )

    g = sub.add_parser("designs", help="every design that folds into a box, with its solutions")
    g.add_argument("--box", metavar="AxBxC", required=True, help="the box (at most 64 cells)")
    g.add_argument("--json", action="store_true", help="print one JSON object")
    g.add_argument("--csv", metavar="FILE", help="write one row per design")
    g.add_argument("--top", type=int, default=10, metavar="N", help="designs to list (10)")
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g.add_argument("--workers", type=int, metavar="N", help="processes (default: all cores)")
    g.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="record finished work units here; rerun with it to resume",
    )
    g.add_argument(
        "--difficulty",
        action="store_true",
        help="add each design's difficulty to the CSV (one search per design)",
    )

    n = sub.add_parser("generate", help="invent new designs from random Hamiltonian paths")
    n.add_argument("--box", metavar="AxBxC", default="4x4x4", help="the box (default 4x4x4)")
    n.add_argument("--unique", action="store_true", help="only designs with one solution")
    n.add_argument("--count", type=int, default=1, metavar="N", help="how many (default 1)")
    n.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    n.add_argument(
        "--min-straights", type=int, default=0, metavar="K", help="at least K straight cubes"
    )
    n.add_argument("--max-segment", type=int, metavar="L", help="no segment longer than L")
    n.add_argument("--show", action="store_true", help="print folding instructions for each")
    n.add_argument("--json", action="store_true", help="print one JSON object")

    r = sub.add_parser("rate", help="how hard a design is to fold (higher is harder)")
    r.add_argument("snake")
    where_r = r.add_mutually_exclusive_group()
    where_r.add_argument("--box", metavar="AxBxC", help="target box (default: the snake's cube)")
    where_r.add_argument("--region", metavar="FILE", help="target region: layers of # and .")
    r.add_argument("--json", action="store_true", help="print one JSON object")

    f = sub.add_parser("flat", help="lay a snake flat on a table: count layouts, most compact")
    f.add_argument("snake")
    f.add_argument("--json", action="store_true", help="print one JSON object")
    f.add_argument("--out", metavar="FILE", help="draw the most compact layouts (.png .svg .pdf)")
    f.add_argument("--seconds", type=float, metavar="S", help="stop counting after S seconds")

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
    style = "letters" if args.letters else "signs"
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(report(result, style))
    if args.show and not args.json:
        from snakecube.explain.text import show

        for i, sol in enumerate(result.solutions, 1):
            print(f"\n=== solution {i}: every text form ===\n{show(sol, style)}")
    return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK


FORMS = (".txt", ".png", ".svg", ".pdf", ".gif", ".html")


def _cmd_show(args: argparse.Namespace) -> int:
    from pathlib import Path

    from snakecube.explain.text import show
    from snakecube.search import solutions

    out = None if args.out is None else Path(args.out)
    if out is not None and out.suffix.lower() not in FORMS:
        raise InputError(
            f"--out {args.out}: unknown extension {out.suffix or '(none)'!r}; "
            f"use one of {' '.join(FORMS)}"
        )
    if args.solution < 1:
        raise InputError(f"--solution {args.solution}: solutions are numbered from 1")
    if args.max_steps is not None and args.max_steps < 1:
        raise InputError(f"--max-steps {args.max_steps}: give at least 1")
    found = None
    for i, sol in enumerate(solutions(args.snake, _target(args), reverse=args.reverse), 1):
        if i == args.solution:
            found = sol
            break
    if found is None:
        raise InputError(
            f"--solution {args.solution}: the snake has fewer distinct solutions in this target"
        )
    style = "letters" if args.letters else "signs"
    if out is not None and out.suffix.lower() != ".txt":
        _need_pictures()
    if out is None or out.suffix.lower() == ".txt":
        text = show(found, style)
        if out is None:
            print(text)
        else:
            _write(out, lambda p: p.write_text(text + "\n", encoding="utf-8"))
    elif out.suffix.lower() == ".html":
        from snakecube.explain import viewer

        _write(out, lambda p: viewer.save(found, p))
    else:
        from snakecube.explain import pictures

        _write(out, lambda p: pictures.save(found, p, args.max_steps))
    if out is not None:
        print(f"wrote {out}", file=sys.stderr)
    return EXIT_OK


def _need_pictures() -> None:
    import importlib.util

    missing = [m for m in ("matplotlib", "plotly") if importlib.util.find_spec(m) is None]
    if missing:
        raise InputError(f"pictures need {' and '.join(missing)}: pip install 'snakecube[show]'")


def _write(path: Any, write: Any) -> None:
    """Write through a temporary file, so an interrupted run never leaves half a file."""
    tmp = path.with_name(path.name + ".part" + path.suffix)
    try:
        write(tmp)
        tmp.replace(path)
    except OSError as err:
        raise InputError(f"cannot write {str(path)!r}: {err.strerror or err}") from None
    finally:
        if tmp.exists():
            tmp.unlink()


def _cmd_designs(args: argparse.Namespace) -> int:
    from snakecube.census import census

    bar = None if args.quiet else progress_bar()
    try:
        result = census(
            Box.parse(args.box), progress=bar, workers=args.workers, checkpoint=args.checkpoint
        )
    finally:
        if bar is not None:
            bar.close()
    if args.csv:
        from pathlib import Path

        from snakecube.designs import rate

        box = Box.parse(args.box)
        scores = {}
        if args.difficulty:
            for d in result.designs:
                score = rate(d.snake, box).difficulty
                scores[d.snake] = "" if score is None else f"{score:.2f}"

        def write(path: Any) -> None:
            with path.open("w", newline="", encoding="utf-8") as f:
                extra = ",difficulty" if args.difficulty else ""
                f.write(f"turns,segment_lengths,solutions,palindrome{extra}\n")
                for d in result.designs:
                    lengths = " ".join(map(str, d.snake.lengths))
                    more = f",{scores[d.snake]}" if args.difficulty else ""
                    f.write(
                        f"{d.snake.turns()},{lengths},{d.solutions},{int(d.palindrome)}{more}\n"
                    )

        _write(Path(args.csv), write)
    summary = result.to_dict(rows=args.top)
    status = EXIT_OK if result.complete else EXIT_INTERRUPTED
    if args.json:
        print(json.dumps(summary, indent=2))
        return status
    for key in ("target", "paths", "designs", "solutions", "unique", "max_solutions",
                "palindromes"):  # fmt: skip
        print(f"{key:14} {summary[key]}")
    print("histogram      " + ", ".join(f"{k}: {v}" for k, v in summary["histogram"].items()))
    print(f"most solutions ({summary['max_solutions']}):")
    for turns in summary["most_solutions"]:
        print(f"  {turns}")
    if not result.complete:
        print("complete       no: interrupted; rerun with the same --checkpoint to resume")
    return status


def _cmd_generate(args: argparse.Namespace) -> int:
    from snakecube.designs import generate
    from snakecube.explain.text import instructions

    made = generate(
        Box.parse(args.box), count=args.count, seed=args.seed, unique=args.unique,
        min_straights=args.min_straights, max_segment=args.max_segment,
    )  # fmt: skip
    rows = []
    for i, g in enumerate(made, 1):
        rows.append(g.to_dict())
        if not args.json:
            d = rows[-1]
            print(f"{i}. {d['turns']}  difficulty {d['difficulty']}, "
                  f"{d['solutions']} solution{'s' if d['solutions'] != 1 else ''}")  # fmt: skip
            print(f"   lengths:{','.join(map(str, d['segment_lengths']))}")
            if args.show:
                print(instructions(g.solution))  # type: ignore[arg-type]
    if args.json:
        print(json.dumps({"designs": rows}))
    if len(rows) < args.count:
        print(f"snakecube: found {len(rows)} of {args.count} designs", file=sys.stderr)
    return EXIT_OK


def _cmd_rate(args: argparse.Namespace) -> int:
    from snakecube.designs import rate

    result = rate(args.snake, _target(args))
    data = result.to_dict()
    if args.json:
        print(json.dumps(data))
    else:
        for key, value in data.items():
            print(f"{key:11} {'unsolvable' if value is None else value}")
    return EXIT_OK


def _cmd_flat(args: argparse.Namespace) -> int:
    from pathlib import Path

    from snakecube.flat import flat

    if args.seconds is not None and args.seconds <= 0:
        raise InputError(f"--seconds {args.seconds}: the time limit must be positive")
    out = None if args.out is None else Path(args.out)
    if out is not None and out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError(f"--out {args.out}: use a .png, .svg or .pdf file")
    result = flat(Snake.parse(args.snake), seconds=args.seconds)
    if out is not None:
        _need_pictures()
        from snakecube.explain import pictures

        _write(out, lambda p: pictures.flat_sheet(result, p))
        print(f"wrote {out}", file=sys.stderr)
    data = result.to_dict()
    if args.json:
        print(json.dumps(data))
    else:
        for key in ("snake", "layouts", "most_compact", "most_compact_distinct"):
            print(f"{key:22} {data[key]}")
        print(f"{'bounding_box':22} {result.bounding_box[0]}x{result.bounding_box[1]}")
        print(f"{'complete':22} {'yes' if result.complete else 'no (stopped early)'}")
    return EXIT_OK


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
    command = {
        "solve": _cmd_solve,
        "show": _cmd_show,
        "designs": _cmd_designs,
        "flat": _cmd_flat,
        "rate": _cmd_rate,
        "generate": _cmd_generate,
        "catalog": _cmd_catalog,
        "convert": _cmd_convert,
    }
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
