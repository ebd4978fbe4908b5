"""solve, check, convert, catalog and export: reading a snake, counting its solutions, and
speaking other programs' languages."""

from __future__ import annotations

import shlex
import sys
from argparse import Namespace
from dataclasses import replace
from typing import Any

from snakecube import catalog, fold, limits, stop
from snakecube.check import check
from snakecube.cli.base import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    SNAKE_HELP,
    Parser,
    add_held,
    add_json,
    add_quiet,
    add_scheduler,
    add_seconds,
    add_snake,
    add_target,
    add_targets,
    add_workers,
    catalog_note,
    catalog_typo,
    cells,
    cli_words,
    command,
    coord,
    nearby_designs,
    print_json,
    print_nearby,
    say,
    seconds_left,
    snake_text,
    target_of,
    targets_of,
    whole,
)
from snakecube.errors import InputError
from snakecube.explain.prose import show
from snakecube.explain.text import report
from snakecube.fold import words as fold_words
from snakecube.fold import wrong
from snakecube.fold.choice import choose
from snakecube.fold.guide import is_turns, parse_turns
from snakecube.minizinc import model
from snakecube.output import write_file
from snakecube.progress import progress_bar
from snakecube.search import solve
from snakecube.search.inputs import as_snake, as_target, too_long
from snakecube.shape import Region
from snakecube.snake import NOTATIONS, Snake
from snakecube.solution import Result, Style
from snakecube.stop import StopReason


def _solve_options(p: Parser) -> None:
    add_snake(p)
    add_targets(p)
    many = p.add_mutually_exclusive_group()
    many.add_argument("--first", action="store_true", help="stop at the first solution")
    many.add_argument("--limit", type=whole(1), metavar="N", help="stop after N distinct solutions")
    add_seconds(p)
    p.add_argument("--start", metavar="X,Y,Z", help="fix the cell of the first cube (0-based)")
    p.add_argument("--path", metavar="CELLS", help="fix the first cells: 'x,y,z x,y,z ...'")
    ends = p.add_mutually_exclusive_group()
    ends.add_argument(
        "--reverse", action="store_true", help="short for --end last: fold from the other end"
    )
    ends.add_argument(
        "--end",
        choices=("auto", "first", "last"),
        default="auto",
        help="the end to search from (default auto: a complete count searches from the last "
        "end when its tree is estimated much smaller; the solutions are read from cube 1 "
        "either way). --reverse is --end last, with cube 1 the last cube",
    )
    p.add_argument(
        "--strategy",
        choices=("auto", "beam", "depth-first", "portfolio", "restarts", "sat"),
        default="auto",
        help="depth-first over the whole tree; for --first only: randomised restarts, beam "
        "searches, a SAT solver (snakecube[sat]) or a portfolio of restarts and SAT (default "
        "auto: for --first on targets of more than 64 cells, the restarts beside depth first "
        "from the end whose tree is estimated smaller and, in boxes of up to 128 cells, the "
        "beam searches; for snakes that turn at every cube or at every second one, the "
        "restarts beside SAT, which also proves it when such a snake does not fold; else "
        "depth first)",
    )
    p.add_argument(
        "--seed",
        type=whole(0, 2**63),
        default=0,
        metavar="S",
        help="random seed of the restarts and beams (default 0)",
    )
    add_json(p)
    p.add_argument("--letters", action="store_true", help="directions as XP/YN (seeds/000)")
    p.add_argument(
        "--engine",
        choices=("auto", "reference", "kernel"),
        default=None,
        help="search engine (default: auto, or $SNAKECUBE_ENGINE)",
    )
    add_workers(p, "processes to search with (default: all cores for big searches)")
    add_scheduler(p, "count on this Dask cluster (tcp://HOST:PORT; needs snakecube[cluster])")
    add_quiet(p)
    p.add_argument(
        "--show",
        action="store_true",
        help="print every text form: layers, directions, step-by-step turns",
    )


# solve --json lists at most LISTED solutions, and at most LISTED_CELLS cells in all, unless
# --limit says how many (the counts stay whole): the 10x10x10 serpentine's 5 s of search
# printed 88 MB of JSON, for seconds past its time limit (issue 62). Rejected: streaming them
# (one JSON document is the contract).
LISTED, LISTED_CELLS = 1000, 100_000


@command("solve", _solve_options)
def solve_command(args: Namespace) -> int:
    """fold a snake into a cube, box or region; count solutions

    example: snakecube solve 3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3; with several targets:
    snakecube solve SNAKE --box 4x4x4 --box 8x8x1
    """
    targets = targets_of(args)
    if len(targets) > 1:
        return _solve_several(args, targets)
    target = targets[0] if targets else None
    if args.start is None and args.path is None and _too_long(args, target):
        return EXIT_OK
    result = _solved(args, target, began=args.started)
    style = Style.LETTERS if args.letters else Style.SIGNS
    unsolvable = result.complete and not result.solutions and args.start is None
    unsolvable = unsolvable and args.path is None
    near = nearby_designs(args, result.snake, result.region) if unsolvable else []
    if args.json:
        cells = result.region.volume
        listed = max(1, min(LISTED, LISTED_CELLS // cells)) if args.limit is None else args.limit
        data = result.to_dict(solutions=listed)
        data["solutions_listed"] = len(data["solutions"])
        if len(result.solutions) > listed:
            data["solutions_note"] = (
                f"the first {listed} of the {len(result.solutions)} solutions found are listed "
                "(the counts are whole); --limit N lists N"
            )
        data["catalog"] = catalog.recognized(result.snake.turns(), snake_text(args)) or None
        data["catalog_typo"] = _typo_dict(result.snake, target)
        if unsolvable:
            data["nearby"] = [n.to_dict() for n in near]
        print_json(args, data, indent=2)
        return EXIT_INTERRUPTED if result.stop_reason == StopReason.INTERRUPTED else EXIT_OK
    said = catalog_note(result.snake, snake_text(args), target)
    if said:
        print(f"({said})")
    print(report(result, style))
    if unsolvable:
        print_nearby(near, result.snake)
    if not result.complete and not result.solutions and not args.first and args.limit is None:
        say(
            "snakecube: the count stopped before it met a solution; 'snakecube solve SNAKE "
            "--first' looks for one alone (on a big floppy snake often in a second, where a "
            "count meets none in minutes)"
        )
    if args.show:
        for i, sol in enumerate(result.solutions, 1):
            print(f"\n=== solution {i}: every text form ===\n{show(sol, style)}")
    return EXIT_INTERRUPTED if result.stop_reason == StopReason.INTERRUPTED else EXIT_OK


def _too_long(args: Namespace, target: Region | None) -> bool:
    """A segment longer than any straight line of the target: said at once, as the answer
    (no solutions, proven), before any search or look-up of nearby designs."""
    snake = Snake.parse(snake_text(args), None if target is None else target.volume)
    region = as_target(target, snake)
    why = too_long(snake, region)
    if not why or snake.cubes != region.volume:
        return False
    if args.json:
        print_json(
            args,
            {
                "snake": snake.turns(),
                "segment_lengths": list(snake.lengths),
                "target": region.describe(),
                "placements": 0,
                "distinct": 0,
                "complete": True,
                "impossible": why,
            },
            indent=2,
        )
        return True
    said = catalog_note(snake, snake_text(args), target)
    if said:
        print(f"({said})")
    print(f"{'snake':24} {snake.turns()}  ({snake.cubes} cubes, {len(snake.lengths)} segments)")
    if snake.reading:
        print(f"{'read as':24} {snake.reading.removeprefix('read as ')}")
    print(f"{'target':24} {region.describe()}")
    print(f"{'placements':24} 0")
    print(f"{'distinct':24} 0")
    print(f"{'complete':24} yes")
    print(f"no solutions: {why}")
    return True


def _solve_several(args: Namespace, targets: list[Region]) -> int:
    """solve with several targets: each answered in turn, as for one, then a last line (or
    ``folds_into`` in JSON) saying which of them the snake folds into."""
    for t in targets[1:]:
        if t.volume != targets[0].volume:
            raise InputError(
                f"the targets must have equal size: the {targets[0].describe()} has "
                f"{targets[0].volume} cells, the {t.describe()} has {t.volume}"
            )
    results = []
    for target in targets:
        result = _solved(args, target, desc=target.describe())
        results.append(result)
        if result.stop_reason == StopReason.INTERRUPTED:
            break
    stopped = results[-1].stop_reason == StopReason.INTERRUPTED
    said = catalog_note(results[0].snake, snake_text(args), targets[0])
    folds = [r.region.describe() for r in results if r.solutions]
    if args.json:
        data: dict[str, Any] = {
            "catalog": catalog.recognized(results[0].snake.turns(), snake_text(args)) or None,
            "catalog_typo": _typo_dict(results[0].snake, targets[0]),
            "results": [r.to_dict() for r in results],
            "folds_into": folds,
            "complete": len(results) == len(targets) and all(r.complete for r in results),
            "stop_reason": next((r.stop_reason for r in results if r.stop_reason), None),
        }
        print_json(args, data, indent=2)
        return EXIT_INTERRUPTED if stopped else EXIT_OK
    style = Style.LETTERS if args.letters else Style.SIGNS
    if said:
        print(f"({said})")
    for i, result in enumerate(results, 1):
        if i > 1:
            print()
        print(f"=== target {i} of {len(targets)}: {result.region.describe()} ===")
        print(report(result, style))
        if args.show:
            for k, sol in enumerate(result.solutions, 1):
                print(f"\n=== solution {k}: every text form ===\n{show(sol, style)}")
    print()
    print(folds_line(results, targets))
    return EXIT_INTERRUPTED if stopped else EXIT_OK


def _solved(args: Namespace, target: Region | None, **bar_options: Any) -> Result:
    """One search with every search option of the command line (the one place that turns
    them into :func:`solve`'s parameters), under a progress bar unless --quiet; the result
    with the snake as typed."""
    bar = None if args.quiet else progress_bar(**bar_options)
    try:
        result = solve(
            snake_text(args),
            target,
            start=None if args.start is None else coord(args.start, "--start"),
            path=None if args.path is None else cells(args.path),
            reverse=True if args.reverse else {"auto": None, "first": False}.get(args.end, True),
            limit=1 if args.first else args.limit,
            seconds=seconds_left(args),
            engine=args.engine,
            workers=args.workers,
            progress=bar,
            strategy=args.strategy,
            seed=args.seed,
            scheduler=args.scheduler,
        )
    finally:
        if bar is not None:
            bar.close()
    return _as_typed(args, result, target)


def _as_typed(args: Namespace, result: Result, target: Region | None) -> Result:
    """``result`` with the snake as typed: a cached result's snake may have lost how its text
    was read (``Snake.reading`` and ``Snake.notation``)."""
    typed = Snake.parse(snake_text(args), None if target is None else target.volume)
    return replace(result, snake=typed) if typed == result.snake else result


def _typo_dict(snake: Snake, target: Region | None) -> dict[str, Any] | None:
    """The catalog puzzle one typo away, for --json: its name, the edit and its lengths."""
    typo = catalog_typo(snake, target)
    if typo is None:
        return None
    return {"name": typo.name, "edit": typo.edit, "segment_lengths": list(typo.snake.lengths)}


def folds_line(results: list[Any], targets: list[Region]) -> str:
    """'folds into the 4x4x4 box and the 8x8x1 box (2 of 2 targets)', naming the targets
    it does not fold into and those a stopped search left open."""
    folds = [r.region.describe() for r in results if r.solutions]
    no = [r.region.describe() for r in results if r.complete and not r.solutions]
    open_ = [r.region.describe() for r in results if not r.complete and not r.solutions]
    open_ += [t.describe() for t in targets[len(results) :]]
    line = "folds into " + (_and(folds) if folds else "none of the targets")
    line += f" ({len(folds)} of {len(targets)} target{'s' if len(targets) != 1 else ''}"
    if no:
        line += f"; not into {_and(no)}"
    if open_:
        line += f"; unknown, the search stopped first: {_and(open_)}"
    return line + ")"


def _and(names: list[str]) -> str:
    """'the 4x4x4 box', 'the 4x4x4 box and the 8x8x1 box', 'the A, the B and the C'."""
    named = [f"the {n}" for n in names]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _check_options(p: Parser) -> None:
    p.add_argument("snake", metavar="SNAKE", help=SNAKE_HELP + " (quoted, as one word)")
    p.add_argument(
        "solution",
        nargs="*",
        metavar="SOLUTION",
        help="cells (x,y,z ...), one direction per step or segment ('+x +y -x ...': quoted "
        "as one word, since -x alone reads as an option), or "
        "'START x,y,z MOVES: BACK 2, UP 3, ...'",
    )
    p.add_argument(
        "--file", metavar="FILE", help="read the solution from this file (-: standard input)"
    )
    add_targets(p, pick=True)
    p.add_argument(
        "--axes", metavar="WORD=DIR,...", help="direction words, like RIGHT=+x,BACK=+y,UP=+z"
    )
    p.add_argument("--start", metavar="X,Y,Z", help="the cell of cube 1, for directions")
    p.add_argument(
        "--solution",
        dest="plan_solution",
        type=whole(1),
        default=None,
        metavar="K",
        help="the fold plan to compare with is solution K's (default: the one snakecube fold "
        "plans)",
    )
    add_held(p, "the end held in the fold plan compared with (default: fold's)")
    add_seconds(p)
    add_json(p, "print JSON")


@command("check", _check_options)
def check_command(args: Namespace) -> int:
    """check a solution from elsewhere: is it one, where it fails, which of ours it is

    example: snakecube check standard 'START 0,0,0 MOVES: RIGHT 2, BACK 2, ...'
    """
    if args.file is not None:
        if args.solution:
            raise InputError("give the solution as words or with --file, not both")
        if args.file == "-" and ("region", "-") in (args.targets or ()):
            raise InputError("--file - and --region - both read standard input: name a file")

        try:
            data = limits.read_bounded(args.file, limits.MAX_TEXT * 4, seconds_left(args))
            text = data.decode("utf-8")
        except TimeoutError as err:
            raise InputError(f"cannot read {args.file!r}: {err}") from None
        except OSError as err:
            raise InputError(f"cannot read {args.file!r}: {err.strerror or err}") from None
        except UnicodeDecodeError as err:
            raise InputError(f"{args.file!r} is not UTF-8 text (byte {err.start + 1})") from None
    else:
        text = " ".join(args.solution)
    start = None if args.start is None else coord(args.start, "--start")
    target = target_of(args)
    if is_turns(text):  # the turns a person made, as a fold plan's steps: against the plan
        return _check_turns(args, text, target)
    verdict = check(
        args.snake, text, target, axes=args.axes, start=start, seconds=seconds_left(args)
    )
    whole = len(verdict.cells) == verdict.snake.cubes
    guide = None if verdict.valid or not whole else _plan_of(args, target)
    away = None if guide is None else wrong.departure(guide, verdict.cells)
    departed = None if guide is None or away is None else (guide, away)
    if args.json:
        answer = {**verdict.to_dict(), "catalog_typo": _typo_dict(verdict.snake, target)}
        if departed is not None:
            answer["plan"] = departed[1].to_dict(departed[0].chain)
        print_json(args, answer, indent=2)
        return EXIT_OK
    said = catalog_note(verdict.snake, args.snake, target)
    if said:
        print(f"({said})")
    print(cli_words(verdict.report()))
    if departed is not None:
        asked = ["snakecube", "fold", args.snake]
        asked += [] if args.plan_solution is None else ["--solution", str(args.plan_solution)]
        asked += [] if args.held == "best" else ["--from", args.held]
        lines = fold_words.departure_words(departed[0], departed[1], False, shlex.join(asked))
        _print_plan_lines(lines)
    return EXIT_OK


def _plan_of(args: Namespace, target: Region | None) -> fold.Guide | None:
    """The fold plan a shape is compared with: ``fold``'s (or solution K's, held at
    --from); None when the time limit or the planner's budget comes first. A plan the time
    limit cut short is not ``fold``'s (with more time it may differ), so it is None too."""
    with stop.within(args.seconds, args.started):  # the planner's searches, too
        choice = choose(
            snake_text(args),
            target,
            solution=args.plan_solution,
            end=args.held,
            seconds=seconds_left(args),
            verb="check",
            planned=True,
        )
        if choice.solution is None:
            return None
        p = choice.plan or fold.plan(choice.solution, args.held)
    return fold.guide(p) if p.found and p.stop_reason is None else None


def _print_plan_lines(lines: list[str]) -> None:
    print(f"{'plan':10} {lines[0]}")
    for line in lines[1:]:
        print(f"{'':10} {line}")


def _check_turns(args: Namespace, text: str, target: Region | None) -> int:
    """check SNAKE 'held:3 cw, +4 acw, ...': a person's turns against the fold plan."""
    turns = parse_turns(text)
    g = _plan_of(args, target)
    if g is None:
        print("no fold plan to compare with (the time limit or the planner's budget came first)")
        return EXIT_OK
    d = wrong.follow(g, turns)
    said = (
        f"fold turns, {len(turns)}, from the plan's flat start, held at the {g.start.held} end "
        f"(corners counted as a person counts them; clockwise looking along the chain into the "
        f"corner)"
    )
    if args.json:
        print_json(
            args,
            {"read_as": said, "snake": g.plan.solution.snake.turns(), "plan": d.to_dict(g.chain)},
            indent=2,
        )
        return EXIT_OK
    print(f"{'read as':10} {said}")
    _print_plan_lines(fold_words.departure_words(g, d, turns=True))
    return EXIT_OK


def _convert_options(p: Parser) -> None:
    add_snake(p)
    p.add_argument("--to", choices=NOTATIONS, help="only this notation")
    add_json(p, "print JSON")


@command("convert", _convert_options)
def convert_command(args: Namespace) -> int:
    """write a snake in every notation (or one)

    example: snakecube convert 3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3
    """
    snake = Snake.parse(snake_text(args))
    chosen = [args.to] if args.to else list(NOTATIONS)
    forms = {n: snake.format(n) for n in chosen}
    if args.json:
        print_json(args, {**forms, "cubes": snake.cubes, "palindrome": snake.is_palindrome})
    elif args.to:
        print(forms[args.to])
    else:
        for n, text in forms.items():
            print(f"{n:8} {text}")
        print(f"{'cubes':8} {snake.cubes}")
        print(f"{'palindrome':8} {'yes' if snake.is_palindrome else 'no'}")
    return EXIT_OK


def _catalog_options(p: Parser) -> None:
    add_json(p, "print JSON")


@command("catalog", _catalog_options)
def catalog_command(args: Namespace) -> int:
    """list the named puzzles with their sequences and sources"""
    rows: list[dict[str, Any]] = []
    for e in catalog.ENTRIES:
        snake = Snake.from_turns(e.turns)
        rows.append(
            {
                "name": e.name,
                "aliases": list(e.aliases),
                "box": list(e.box),
                "turns": snake.turns(),  # as solve writes it: E at both ends
                "published_turns": e.turns,
                "segment_lengths": list(snake.lengths),
                "source": e.source,
                "other_end": [
                    {
                        "name": n,
                        "turns": Snake.from_turns(t).turns(),
                        "published_turns": t,
                        "source": src,
                    }
                    for n, t, src in e.other_end
                ],
            }
        )
    if args.json:  # a merged name is listed too, as a pointer to its canonical entry
        refs = [
            {"name": o["name"], "same_design_as": r["name"], "from_other_end": True, **o}
            for r in rows
            for o in r["other_end"]
        ]
        print_json(args, rows + refs, indent=2)
        return EXIT_OK
    for r in rows:
        aka = f" (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        print(f"{r['name']}{aka}: {'x'.join(map(str, r['box']))}")
        print(f"  {r['turns']}{_published(r)}")
        print(f"  source: {r['source']}")
        for other in r["other_end"]:
            same = "the same design, read from its other end"
            print(
                f"  {same}: {other['name']} {other['turns']}{_published(other)}; "
                f"source: {other['source']}"
            )
    print(
        "\nseeds/000 to seeds/004: the published solvers snakecube started from "
        '(docs/conventions.md, "Sources: the seeds")'
    )
    return EXIT_OK


def _published(row: dict[str, Any]) -> str:
    """'  (published as SSCC...SS)' when the source spells the ends otherwise, else ''."""
    if row["published_turns"] == row["turns"]:
        return ""
    return f"  (published as {row['published_turns']})"


def _export_options(p: Parser) -> None:
    add_snake(p)
    add_target(p)
    p.add_argument(
        "--format", choices=("minizinc",), default="minizinc", help="the model's language"
    )
    p.add_argument(
        "--symmetry-breaking",
        nargs="?",
        const="auto",
        default="none",
        choices=("auto", "directions", "lex"),
        help="keep one placement per distinct solution: seeds/000's constraints on a cube "
        "(directions), lex-leader constraints on any target (lex); auto picks",
    )
    p.add_argument(
        "--out", metavar="FILE", help="write the model to FILE (default: standard output)"
    )


@command("export", _export_options)
def export_command(args: Namespace) -> int:
    """write the snake and target as a model for another solver (MiniZinc)

    example: snakecube export standard --format minizinc --symmetry-breaking
    """
    target = target_of(args)
    snake = as_snake(snake_text(args), target)
    region = as_target(target, snake) if target is None else target
    limits.cell_count(region.volume, f"the {region.describe()}")
    text = model(snake, region, args.symmetry_breaking)
    if args.out is None:
        sys.stdout.write(text)
        return EXIT_OK

    write_file(args.out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return EXIT_OK
