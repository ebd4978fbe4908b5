"""designs, generate and rate: for designers of puzzles."""

from __future__ import annotations

import warnings
from argparse import SUPPRESS, Namespace
from typing import TYPE_CHECKING, Any

from snakecube import limits
from snakecube.cli.base import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    Parser,
    add_seconds,
    add_snake,
    add_target,
    command,
    print_json,
    say,
    seconds_left,
    snake_text,
    straightness_type,
    target_of,
    whole,
    workers_type,
)
from snakecube.designs import generate, rate
from snakecube.errors import InputError
from snakecube.explain.words import instructions
from snakecube.progress import progress_bar
from snakecube.shape import Box, Region

if TYPE_CHECKING:
    from snakecube.census.forecast import Forecast


def _print_census(result: Any, args: Namespace) -> None:
    summary = result.to_dict(rows=args.top)
    if args.json:
        print_json(args, summary, indent=2)
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
        why = "stopped at the time limit" if result.stop_reason == "seconds" else "interrupted"
        print(
            f"complete       no: {why} after {u[0]} of {u[1]} units and {p[0]} of "
            f"{p[1]} partitions; the counts are lower bounds. Rerun with {where} to resume"
        )


def _store(args: Namespace) -> str | None:
    """--store, or the deprecated --checkpoint with a warning."""
    if args.checkpoint is None:
        return args.store
    if args.store is not None:
        raise InputError("--checkpoint is the old name of --store: give one of them")

    warnings.warn("--checkpoint is now --store; the old name will go", DeprecationWarning,
                  stacklevel=1)  # fmt: skip
    return args.checkpoint


def _designs_options(p: Parser) -> None:
    add_target(p, required=True)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", metavar="FILE", help="write one row per design")
    p.add_argument(
        "--top",
        type=whole(0, 1000),
        default=10,
        metavar="N",
        help="list the N designs with the most solutions (10)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--workers", type=workers_type, metavar="N", help="processes (default: all cores)"
    )
    p.add_argument(
        "--store",
        metavar="DIR",
        help="keep the work in this directory; rerun with it to resume",
    )
    p.add_argument(  # the old name, kept for scripts that use it
        "--checkpoint", dest="checkpoint", metavar="DIR", help=SUPPRESS
    )
    p.add_argument(
        "--partitions",
        type=whole(1, 4096),
        metavar="P",
        help="split the designs into P partitions (a power of two)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on this Dask cluster (tcp://HOST:PORT; needs --store on a directory every "
        "worker can reach, and snakecube[cluster])",
    )
    p.add_argument(
        "--difficulty",
        action="store_true",
        help="add each design's difficulty to the CSV (one search per design)",
    )
    add_seconds(p)
    p.add_argument(
        "--estimate",
        action="store_true",
        help="only say what the census would take (a forecast in a fraction of a second)",
    )


@command(
    "designs",
    _designs_options,
    help="every design that folds into a box, with its solutions",
    epilog="example: snakecube designs --box 3x3x3 --csv designs.csv",
)
def designs_command(args: Namespace) -> int:
    from snakecube.census import census  # numpy: loaded by the commands that count designs

    target = target_of(args)
    if target is None:
        raise InputError("designs needs --box AxBxC or --region FILE")
    if args.estimate:
        return _estimate(target, args)
    bar = (
        None
        if args.quiet
        else progress_bar(desc="census", unit="step", lines=60, began=args.started)
    )
    try:
        result = census(
            target,
            progress=bar,
            workers=args.workers,
            store=_store(args),
            partitions=args.partitions,
            scheduler=args.scheduler,
            seconds=seconds_left(args),
            on_forecast=None if args.quiet or args.scheduler else _say_forecast,
        )
    finally:
        if bar is not None:
            bar.close()
    with result:
        if args.csv and result.complete:
            try:
                result.write_csv(args.csv, difficulty=args.difficulty)
            except KeyboardInterrupt:
                say(f"snakecube: interrupted: {args.csv!r} was not written")
                _print_census(result, args)
                return EXIT_INTERRUPTED
            say(f"snakecube: wrote {args.csv!r}")
        _print_census(result, args)
    return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK


SAY_AFTER = 10.0  # seconds: a census forecast to take longer is announced before it starts


def _say_forecast(forecast: Forecast) -> None:
    if forecast.seconds >= SAY_AFTER:
        say(f"snakecube: the census will take {forecast.describe()} (estimated); Ctrl-C "
            "stops it, and with --store DIR a rerun goes on from there")  # fmt: skip


def _estimate(target: Region, args: Namespace) -> int:
    """designs --estimate: the forecast of the census, without running it."""
    from snakecube.census import runner  # numpy, through the census
    from snakecube.census.forecast import LONGEST, duration

    workers = runner.workers_for(target, args.workers)
    units, left = runner.plan(target, workers, _store(args), args.partitions, always=True)
    assert left is not None  # always=True
    data = {"target": target.describe(), **left.to_dict(),
            "refused_without_seconds": left.too_long()}  # fmt: skip
    if args.json:
        print_json(args, data, indent=2)
        return EXIT_OK
    error = f" (+- {left.error / left.nodes:.0%})" if left.nodes else ""
    print(f"{'target':14} {data['target']}")
    print(
        f"{'units':14} {len(units)}" + (f", {left.units} left" if left.units < len(units) else "")
    )
    print(f"{'search steps':14} {left.nodes:.2g}{error} (Knuth's estimate)")
    print(f"{'time':14} {left.describe()}")
    if left.too_long():
        print(f"{'refused':14} without --seconds: over {duration(LONGEST)}")
    return EXIT_OK


def _generate_options(p: Parser) -> None:
    p.add_argument("--box", metavar="AxBxC", default="4x4x4", help="the box (default 4x4x4)")
    p.add_argument("--unique", action="store_true", help="only designs with one solution")
    p.add_argument(
        "--count", type=whole(1, 10_000), default=1, metavar="N", help="how many (default 1)"
    )
    p.add_argument(
        "--seed", type=whole(0, 2**64), default=0, metavar="S", help="random seed (default 0)"
    )
    p.add_argument(
        "--min-straights",
        type=whole(0, limits.MAX_CUBES),
        default=0,
        metavar="K",
        help="at least K straight cubes",
    )
    p.add_argument(
        "--max-segment",
        type=whole(2, limits.MAX_SIDE),
        metavar="L",
        help="no segment longer than L",
    )
    p.add_argument(
        "--straightness",
        type=straightness_type,
        metavar="B",
        help="lean towards long straight runs: a corner is kept with odds exp(-B) "
        "(default: 1 with --unique, else 0)",
    )
    p.add_argument(
        "--workers", type=workers_type, metavar="N", help="processes (default: all cores)"
    )
    p.add_argument("--show", action="store_true", help="print folding instructions for each")
    p.add_argument("--json", action="store_true", help="print one JSON object")


@command(
    "generate",
    _generate_options,
    help="invent new designs from random Hamiltonian paths",
    epilog="example: snakecube generate --box 4x4x4 --unique --count 3",
)
def generate_command(args: Namespace) -> int:

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
        print_json(args, {"designs": rows, "complete": complete, "stop_reason": stop_reason})
    if interrupted:
        say(f"snakecube: interrupted after {len(rows)} of {args.count} designs")
        return EXIT_INTERRUPTED
    if not complete:
        say(f"snakecube: found {len(rows)} of {args.count} designs within the attempts")
    return EXIT_OK


def _rate_options(p: Parser) -> None:
    add_snake(p)
    add_target(p)
    add_seconds(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


@command(
    "rate",
    _rate_options,
    help="how hard a design is to fold (higher is harder)",
    epilog="example: snakecube rate seed-red",
)
def rate_command(args: Namespace) -> int:

    bar = progress_bar(began=args.started)  # solve's bar: the same searches, the same progress
    try:
        result = rate(snake_text(args), target_of(args), seconds=seconds_left(args), progress=bar)
    finally:
        if bar is not None:
            bar.close()
    data = result.to_dict()
    if args.json:
        print_json(args, data)
    else:
        for key, value in data.items():
            if key == "difficulty" and value is None:
                value = "unsolvable" if result.complete else "unknown (the search was stopped)"
            print(f"{key:11} {value}")
    return EXIT_INTERRUPTED if result.stop_reason == "interrupted" else EXIT_OK
