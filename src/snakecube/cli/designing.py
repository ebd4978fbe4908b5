"""designs, generate and rate: for designers of puzzles."""

from __future__ import annotations

import functools
import textwrap
import time
import warnings
from argparse import SUPPRESS, Namespace
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from snakecube import limits, stop
from snakecube.cli.base import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    Parser,
    add_json,
    add_quiet,
    add_scheduler,
    add_seconds,
    add_snake,
    add_target,
    add_targets,
    add_workers,
    catalog_note,
    command,
    difficulty_type,
    nearby_designs,
    print_json,
    print_nearby,
    say,
    seconds_left,
    snake_text,
    straightness_type,
    target_of,
    targets_of,
    whole,
)
from snakecube.designs import generate, rate, scale_words
from snakecube.errors import InputError
from snakecube.explain.prose import instructions
from snakecube.output import check_writable
from snakecube.progress import progress_bar
from snakecube.search.inputs import too_long
from snakecube.shape import Box, Region, parse_box, parse_target
from snakecube.solution import STOP_WORDS, complete_words
from snakecube.stop import StopReason

if TYPE_CHECKING:
    from snakecube.census.decide import Searched
    from snakecube.census.forecast import Forecast
    from snakecube.census.result import Census
    from snakecube.census.several import JointCensus

# A census of one target or of several: ``_counted`` runs and prints either.
Counted = TypeVar("Counted", "Census", "JointCensus")


def _print_census(result: Census, args: Namespace) -> None:
    summary: dict[str, Any] = result.to_dict(rows=args.top)  # the JSON document
    if args.json:
        print_json(args, summary, indent=2)
        return
    for key in (
        "target",
        "max_segment",
        "paths",
        "designs",
        "solutions",
        "unique",
        "max_solutions",
        "palindromes",
    ):
        if key not in summary:
            continue  # max_segment: only when the census was limited
        value = summary[key]
        print(f"{key:14} {'(not tallied)' if value is None else value}")
    if result.complete:
        print(histogram("histogram      ", summary["histogram"]))
        if summary["top"]:
            print(f"top {len(summary['top'])} by solutions:")
            for row in summary["top"]:
                print(f"  {row['solutions']:6}  {row['turns']}")
    else:
        u, p = summary["units"], summary["partitions"]
        where = f"--store {str(result.store)!r}" if result.store is not None else "--store DIR"
        why = STOP_WORDS[result.stop_reason or StopReason.INTERRUPTED]
        print(
            f"complete       no: {why} after {u[0]} of {u[1]} units and {p[0]} of "
            f"{p[1]} partitions; the counts are lower bounds. Rerun with {where} to resume"
        )
        forecast = getattr(args, "forecast", None)
        if u[0] == 0 and result.stop_reason == StopReason.SECONDS and forecast is not None:
            # a rerun with the same short limit would keep nothing either (a fresh user's four
            # 3 s runs of 3x3x4 kept 0 of 873 units)
            longest = max(forecast.unit_seconds, default=0.0)
            print(
                f"{'':15}no unit ended in time, and a unit's work is kept only when it ends "
                f"(this census's take up to {longest:.2g} s of CPU each, by the forecast, "
                "after the set-up): a rerun with the same limit would keep nothing either; "
                "give it more time"
            )


HISTOGRAM_WIDTH, HISTOGRAM_LINES = 100, 4  # a histogram's lines: their width, how many


def histogram(label: str, counts: dict[Any, int]) -> str:
    """'histogram      1: 3658, 2: 2704, ...': how many designs have each number of solutions,
    wrapped under its label at HISTOGRAM_WIDTH, in at most HISTOGRAM_LINES lines (the rest
    said in a count; --json and --csv have them all).

    >>> text = histogram("h: ", {k: 1 for k in range(1, 200)})
    >>> len(text.splitlines()), text.endswith("more, up to 199 solutions (--json lists them all)")
    (4, True)
    """
    items = [f"{k}:\xa0{v}" for k, v in counts.items()]  # a number and its count stay together

    def wrapped(text: str) -> list[str]:
        return textwrap.wrap(text, HISTOGRAM_WIDTH - len(label), break_on_hyphens=False)

    lines, kept = wrapped(", ".join(items)), len(items)
    while len(lines) > HISTOGRAM_LINES:
        kept -= 1
        rest = f"and {len(items) - kept} more, up to {list(counts)[-1]} solutions"
        rest += " (--json lists them all)"
        lines = wrapped(", ".join([*items[:kept], rest]))
    indent = " " * len(label)
    return "\n".join(
        (label if i == 0 else indent) + line.replace("\xa0", " ") for i, line in enumerate(lines)
    )


def _store(args: Namespace) -> str | None:
    """--store, or the deprecated --checkpoint with a warning."""
    store: str | None = args.store
    checkpoint: str | None = args.checkpoint
    if checkpoint is None:
        return store
    if store is not None:
        raise InputError("--checkpoint is the old name of --store: give one of them")

    warnings.warn(
        "--checkpoint is now --store; the old name will go", DeprecationWarning, stacklevel=1
    )
    return checkpoint


def _designs_options(p: Parser) -> None:
    add_targets(p, snake=False)
    add_json(p)
    p.add_argument("--csv", metavar="FILE", help="write one row per design")
    p.add_argument(
        "--top",
        type=whole(0, 1000),
        default=10,
        metavar="N",
        help="list the N designs with the most solutions (10)",
    )
    add_quiet(p)
    add_workers(p, "processes (default: all cores)")
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
    add_scheduler(
        p,
        "run on this Dask cluster (tcp://HOST:PORT; needs --store on a directory every worker "
        "can reach, and snakecube[cluster])",
    )
    p.add_argument(
        "--difficulty",
        action="store_true",
        help="add each design's difficulty to the CSV (one search per design)",
    )
    p.add_argument(
        "--max-segment",
        type=whole(2, 64),
        metavar="L",
        help="count only the designs with no segment longer than L cubes (far faster)",
    )
    p.add_argument(
        "--fold-into",
        metavar="AxBxC",
        help="keep the designs that also fold into this box, decided by a search of each "
        "(for a box whose own census is out of reach, as 4x4x4 beside --box 8x8x1)",
    )
    p.add_argument(
        "--nodes",
        type=whole(1),
        metavar="N",
        help="with --fold-into: nodes per design and end before it is left open (default: "
        "no limit, every design decided)",
    )
    add_seconds(p)
    p.add_argument(
        "--estimate",
        action="store_true",
        help="only say what the census would take (a forecast in a fraction of a second)",
    )


@command("designs", _designs_options)
def designs_command(args: Namespace) -> int:
    """every design that folds into a box, with its solutions

    example: snakecube designs --box 3x3x3 --csv designs.csv; the designs that fold into two
    boxes: snakecube designs --box 2x3x4 --box 4x6x1
    """
    from snakecube.census import census  # numpy: loaded by the commands that count designs

    targets = targets_of(args)
    if not targets:
        raise InputError("designs needs --box AxBxC or --region FILE")
    if args.csv is not None:
        check_writable(args.csv)  # before the census, not after it
    if (store := _store(args)) is not None:
        from snakecube.census.store import check_root

        check_root(Path(store))  # before the forecast: a bad path is the one line said
    if len(targets) > 1 or args.fold_into is not None:
        return _designs_of_several(args, targets)
    if args.nodes is not None:
        raise InputError("--nodes limits the search of --fold-into BOX: give it")
    target = targets[0]
    if args.estimate:
        return _estimate(target, args)
    return _counted(
        args,
        lambda bar: census(target, max_segment=args.max_segment, **_census_options(args, bar)),
        lambda result: result.complete,
        lambda result: result.write_csv(args.csv, difficulty=args.difficulty),
        _print_census,
    )


def _census_options(args: Namespace, bar: Any) -> dict[str, Any]:
    """The options every census takes from the command line, with its progress bar."""
    return {
        "progress": bar,
        "workers": args.workers,
        "store": _store(args),
        "partitions": args.partitions,
        "scheduler": args.scheduler,
        "seconds": seconds_left(args),
        "on_forecast": functools.partial(_forecast_seen, args),
    }


def _forecast_seen(args: Namespace, forecast: Forecast) -> None:
    """Keep the census's forecast for its answer (``args.forecast``), and say it when it is
    long (not with --quiet, nor on a cluster, whose speed it does not know)."""
    args.forecast = forecast
    if not (args.quiet or args.scheduler):
        _say_forecast(forecast)


def _counted(
    args: Namespace,
    count: Callable[[Any], Counted],
    listed: Callable[[Counted], bool],
    write: Callable[[Counted], None],
    show: Callable[[Counted, Namespace], None],
) -> int:
    """Run ``count(bar)`` under a progress bar, write the CSV where its designs are
    ``listed``, and ``show`` the answer; exit 130 when it was interrupted."""
    bar = (
        None
        if args.quiet
        else progress_bar(desc="census", unit="step", lines=60, began=args.started)
    )
    try:
        result = count(bar)
    except KeyboardInterrupt:  # before the count began: while planning and forecasting it
        if args.json:
            raise  # the tool's one JSON document says it
        say(
            f"snakecube: interrupted while planning the census, before any design was "
            f"counted{'; the --store is kept' if _store(args) else ''}"
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
    with result:
        if args.csv and listed(result):
            try:
                with stop.within(args.seconds, args.started):  # a whole store's rows: long
                    write(result)
            except KeyboardInterrupt:
                say(f"snakecube: interrupted: {args.csv!r} was not written")
                show(result, args)
                return EXIT_INTERRUPTED
            except stop.OutOfTime:
                say(
                    f"snakecube: stopped writing at the time limit (--seconds "
                    f"{args.seconds:g}): {args.csv!r} not written; give more time "
                    "(--seconds S) to write it"
                )
            else:
                say(f"snakecube: wrote {args.csv!r}")
        elif args.csv:  # a census stopped before its end: its designs are not all known
            say(
                f"snakecube: {args.csv!r} not written: the census stopped before its end, so "
                "its designs are not all known"
                + ("; the same --store resumes it" if _store(args) else "")
            )
        show(result, args)
    return EXIT_INTERRUPTED if result.stop_reason == StopReason.INTERRUPTED else EXIT_OK


SAY_AFTER = 10.0  # seconds: a census forecast to take longer is announced before it starts


def _say_forecast(forecast: Forecast) -> None:
    if forecast.seconds >= SAY_AFTER:
        say(
            f"snakecube: the census will take {forecast.describe()} (estimated); Ctrl-C "
            "stops it, and with --store DIR a rerun goes on from there"
        )


def _estimate(target: Region, args: Namespace) -> int:
    """designs --estimate: the forecast of the census, without running it."""
    from snakecube.census import runner  # numpy, through the census
    from snakecube.census.forecast import LONGEST, duration

    workers, partitions = runner.checked(target, None, args.workers, None, args.partitions, None)
    try:
        units, left = runner.plan(
            target,
            workers,
            _store(args),
            partitions,
            always=True,
            max_segment=args.max_segment,
        )
    except KeyboardInterrupt:
        if args.json:
            raise  # the tool's one JSON document says it
        say("snakecube: interrupted while forecasting the census: no forecast")
        return EXIT_INTERRUPTED
    assert left is not None  # always=True
    data = {
        "target": target.describe(),
        **left.to_dict(),
        "partitions": partitions,
        "refused_without_seconds": left.too_long(),
    }
    if args.json:
        print_json(args, data, indent=2)
        return EXIT_OK
    error = f" (+- {left.error / left.nodes:.0%})" if left.nodes else ""
    print(f"{'target':14} {data['target']}")
    print(
        f"{'units':14} {len(units)}"
        + (f", {left.units} left" if left.units < len(units) else "")
        + f"; then {partitions} partitions to reduce (the bar counts both: "
        f"{len(units) + partitions} steps)"
    )
    print(f"{'search steps':14} {left.nodes:.2g}{error} (Knuth's estimate)")
    print(f"{'path classes':14} {left.paths:.2g} (Knuth's estimate)")
    cpu, parts = left.parts().removeprefix("CPU time ").split(": ", 1)
    print(f"{'CPU time':14} {cpu} ({parts}; this machine's speed, measured now)")
    print(f"{'time':14} {left.describe()}")
    if left.too_long():
        print(f"{'refused':14} without --seconds: over {duration(LONGEST)}")
    return EXIT_OK


def _designs_of_several(args: Namespace, targets: list[Region]) -> int:
    """designs with several targets: the designs that fold into every one of them."""
    from snakecube.census.several import joint_census  # numpy, as for one target

    if args.difficulty:
        raise InputError("--difficulty rates the designs of one target: give one --box")
    if args.estimate:
        raise InputError("--estimate forecasts the census of one target: give one --box")
    fold_into = None if args.fold_into is None else parse_target(args.fold_into, "--fold-into")
    if fold_into is None and args.nodes is not None:
        raise InputError("--nodes limits the search of --fold-into BOX: give it")
    return _counted(
        args,
        lambda bar: joint_census(
            targets,
            fold_into=fold_into,
            nodes=args.nodes,
            max_segment=args.max_segment,
            **_census_options(args, bar),
        ),
        lambda result: (
            result.complete
            or (result.searched is not None and result.searched.candidates is not None)
        ),
        lambda result: result.write_csv(args.csv),
        _print_joint,
    )


def _print_joint(result: JointCensus, args: Namespace) -> None:
    """A census of several targets as text: what they share first, then a column per
    counted target, and what the search in one more target found."""
    summary: dict[str, Any] = result.to_dict(rows=args.top)  # the JSON document
    if args.json:
        print_json(args, summary, indent=2)
        return
    names = result.columns()
    alone = summary["alone"]
    searched = result.searched
    described = [r.describe() for r in result.regions]
    also = [] if searched is None else [f"{searched.target.describe()} (by search)"]
    print(f"{'targets':15}{', '.join(described + also)}")
    limited = result.alone[0].max_segment if result.alone else None
    if limited is not None:
        print(f"{'max_segment':15}{limited} (only the designs with no longer segment counted)")
    if summary["designs"] is None:
        done = sum(1 for a in alone if a["complete"])
        print(
            f"complete       no: interrupted with {done} of {len(alone)} targets counted and "
            f"{result.partitions[0]} of {result.partitions[1]} partitions compared. Rerun "
            f"with {_where(result)} to resume"
        )
        return
    every = "fold into every target"
    if result.exact:
        shares = ", ".join(
            f"{100 * summary['designs'] / a['designs']:.3g} % of the {d}'s {a['designs']}"
            for d, a in zip(described, alone, strict=True)
            if a["designs"]
        )
        print(f"{'designs':15}{summary['designs']} {every}" + (f" ({shares})" if shares else ""))
    else:
        print(f"{'designs':15}at least {summary['designs']} {every}")
    if searched is not None:
        _print_searched(searched, described)
    print(
        f"{'unique in all':15}{summary['unique_in_all']} (one solution in every "
        f"{'counted ' if searched is not None else ''}target)"
    )
    print(f"{'palindromes':15}{summary['palindromes']}")
    width = max(10, *(len(n) + 2 for n in names))

    def row(label: str, values: list[Any]) -> None:
        print(f"  {label:16}" + "".join(f"{'-' if v is None else v:>{width}}" for v in values))

    print(f"{'per target':18}" + "".join(f"{n:>{width}}" for n in names))
    row("paths", [a["paths"] for a in alone])
    row("designs alone", [a["designs"] for a in alone])
    row("solutions", summary["solutions"])
    row("unique", summary["unique"])
    row("max_solutions", summary["max_solutions"])
    for n, h in zip(names, summary["histograms"], strict=True):
        print(histogram(f"  histogram {n}: ", h))
    if summary["top"]:
        print(f"top {len(summary['top'])} by solutions:")
        print("  " + "".join(f"{n:>{width}}" for n in names) + "  turns")
        for t in summary["top"]:
            print("  " + "".join(f"{s:>{width}}" for s in t["solutions"]) + f"  {t['turns']}")
    if not result.complete:
        why = STOP_WORDS[result.stop_reason or StopReason.INTERRUPTED]
        print(f"complete       no: {why}; rerun with {_where(result)} to go on")


def _print_searched(searched: Searched, described: list[str]) -> None:
    """What the search in the extra target decided, and the estimate of the rest."""
    of = " and the ".join(described)
    how = (
        f"of at most {searched.nodes} nodes from each end"
        if searched.nodes
        else "from each end, without a node limit"
    )
    print(
        f"{'searched':15}each design of the {of} with no segment longer than "
        f"{searched.longest} cubes, by first-solution searches {how}"
    )
    if searched.candidates is None:
        print(f"{'candidates':15}not all listed yet")
        return
    share = 100 * searched.decided / searched.candidates if searched.candidates else 100
    rate = "" if searched.rate is None else f"; {searched.rate:.1f} per core-second"
    print(f"{'candidates':15}{searched.candidates}")
    limit = " at the node limit" if searched.nodes else ""
    print(
        f"{'decided':15}{searched.decided} ({share:.3g} %, {searched.tasks[0]} of "
        f"{searched.tasks[1]} slices): {searched.folds} fold, {searched.no} do not, "
        f"{searched.open} open{limit}{rate}"
    )
    if searched.estimate is not None and searched.decided < searched.candidates:
        print(
            f"{'estimate':15}{searched.estimate:.0f} +- {searched.error:.0f} fold (the share "
            f"that folds among the decided, a uniform sample, times the candidates)"
        )


def _where(result: Census | JointCensus) -> str:
    return f"--store {str(result.store)!r}" if result.store is not None else "--store DIR"


def _generate_options(p: Parser) -> None:
    p.add_argument(
        "--box",
        metavar="AxBxC",
        action="append",
        help="the box (default 4x4x4); repeat it for designs that fold into every box, drawn "
        "from the first",
    )
    p.add_argument(
        "--unique",
        nargs="?",
        const="",
        metavar="BOX,...",
        help="only designs with one solution (in every box; or only in the boxes named, as "
        "given to --box, or their numbers: --unique 8x8x1)",
    )
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
    add_workers(p, "processes (default: all cores)")
    p.add_argument(
        "--min-difficulty",
        type=difficulty_type,
        default=None,
        metavar="D",
        help="only designs rated at least this hard (the king is 20.73, King B 16.37: "
        "docs/difficulty.md)",
    )
    p.add_argument(
        "--hardest",
        type=whole(1, 10_000),
        default=None,
        metavar="N",
        help="of the --count designs found, print the N hardest, hardest first",
    )
    p.add_argument("--show", action="store_true", help="print folding instructions for each")
    add_json(p)
    add_seconds(
        p,
        "stop after S seconds, counted from the command's start, keeping the designs found "
        f"(default {GENERATE_SECONDS:g})",
    )


# generate's default time limit: a plain command ends (a 5x5x5 design may take many minutes
# to prove unique), with the designs found by then, and says so at the start where that may
# matter (a box of more than SAY_LIMIT_CELLS cells, with --unique); --seconds gives more.
GENERATE_SECONDS, SAY_LIMIT_CELLS = 600.0, 64


def _generate_boxes(args: Namespace) -> tuple[list[str], list[Box], bool | list[int]]:
    """generate's boxes as typed and read (4x4x4 unless given), each checked, and the boxes
    --unique asks for; without --seconds, the default limit, said at the start where proving
    a design unique may take minutes."""
    texts = args.box or ["4x4x4"]
    boxes = [parse_box(t, "--box") for t in texts]
    for box in boxes:  # before the notice below: a box too big is the one line said
        limits.cell_count(
            box.volume, f"the {box.describe()}", limits.MAX_GENERATE_CELLS, "generate"
        )
    unique = _unique_in(args.unique, texts)
    if args.seconds is None:
        args.seconds = GENERATE_SECONDS
        if unique and boxes[0].volume > SAY_LIMIT_CELLS and not args.json:
            say(
                f"snakecube: proving a {texts[0]} design unique may take minutes; "
                f"generate stops after {GENERATE_SECONDS:g} s with the designs found (--seconds "
                "S to change that); Ctrl-C stops it too"
            )
    return texts, boxes, unique


@command("generate", _generate_options)
def generate_command(args: Namespace) -> int:
    """invent new designs from random Hamiltonian paths

    example: snakecube generate --box 4x4x4 --unique --count 3; in two shapes: snakecube
    generate --box 4x4x4 --box 8x8x1 --unique
    """
    texts, boxes, unique = _generate_boxes(args)
    rows: list[dict[str, Any]] = []
    made: list[Any] = []
    interrupted = False
    # The bar counts the designs found against those asked for; the samples of the chain
    # drawn, which may be many more than are needed, come after it.
    drawn = progress_bar(
        desc="generating", unit="design", began=args.started, tally="samples drawn"
    )
    bar = None if drawn is None else _Designs(drawn, args.count)
    try:
        for g in generate(
            boxes[0],
            count=args.count,
            seed=args.seed,
            unique=unique,
            min_straights=args.min_straights,
            max_segment=args.max_segment,
            straightness=args.straightness,
            workers=args.workers,
            also=boxes[1:],
            progress=bar,
            seconds=seconds_left(args),
            min_difficulty=args.min_difficulty,
        ):
            rows.append(g.to_dict())
            made.append(g)
            if bar is not None:
                bar.clear()  # the design's lines, then the bar again below them
            if not args.json and args.hardest is None:
                _print_design(args, texts, len(rows), g)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    complete = len(rows) == args.count
    spent = time.monotonic() - args.started
    if args.hardest is not None:  # the hardest first; a rating stopped at its limit last
        order = sorted(range(len(made)), key=lambda k: -_difficulty(made[k]))[: args.hardest]
        rows = [rows[k] for k in order]
        if not args.json:
            for n, k in enumerate(order, 1):
                _print_design(args, texts, n, made[k])
    timed_out = not complete and not interrupted and spent >= args.seconds
    if args.json:
        stop_reason = (
            StopReason.INTERRUPTED if interrupted else StopReason.SECONDS if timed_out else None
        )
        print_json(args, {"designs": rows, "complete": complete, "stop_reason": stop_reason})
    found = f"{len(rows)} of {args.count} design{'s' if args.count != 1 else ''}"
    if interrupted:
        kept = "; the designs above are kept" if rows and not args.json else ""
        say(f"snakecube: interrupted after {found}{kept}")
        return EXIT_INTERRUPTED
    if timed_out:
        default = " (the default)" if args.seconds == GENERATE_SECONDS else ""  # as typed too
        say(
            f"snakecube: stopped at the time limit, {args.seconds:g} s{default}, with {found}; "
            "give --seconds S for longer"
        )
    elif not complete:
        say(f"snakecube: found {found} within the attempts")
    return EXIT_OK


def _difficulty(g: Any) -> float:
    return g.rating.difficulty if g.rating.complete else -1.0


def _print_design(args: Namespace, texts: list[str], n: int, g: Any) -> None:
    """One design found: its turn string and rating, its lengths, its rating in each box."""
    d = g.to_dict()
    print(f"{n}. {d['turns']}  {_rated(g.rating)}" if len(texts) == 1 else f"{n}. {d['turns']}")
    print(f"   lengths:{','.join(map(str, d['segment_lengths']))}")
    for text, r in zip(texts, g.ratings, strict=False):
        print(f"   {text}: {_rated(r, solutions_first=True)}")
    if args.show:
        for sol in g.solutions or (g.solution,):
            print(instructions(sol))


def _rated(r: Any, solutions_first: bool = False) -> str:
    """'difficulty 7.2 (between ... ), 1 solution' (or the other way round), or for a rating
    stopped at its node limit 'difficulty unknown (...), at least 3 solutions'."""
    plural = "s" if r.distinct != 1 else ""
    if r.complete:
        solutions = f"{r.distinct} solution{plural}"
        difficulty = f"difficulty {round(r.difficulty, 2)} ({scale_words(r.difficulty)})"
    else:
        solutions = f"at least {r.distinct} solution{plural}"
        difficulty = "difficulty unknown (counting every solution takes too many nodes)"
    return f"{solutions}, {difficulty}" if solutions_first else f"{difficulty}, {solutions}"


class _Designs:
    """generate's progress as the designs found out of those asked for (``generate`` calls
    ``progress(samples, most, found)``)."""

    def __init__(self, bar: Any, count: int) -> None:
        self.bar, self.count = bar, count

    def __call__(self, samples: int, most: int, found: int) -> None:
        self.bar(found, self.count, samples)

    def clear(self) -> None:
        self.bar.clear()

    def close(self) -> None:
        self.bar.close()


def _unique_in(value: str | None, texts: list[str]) -> bool | list[int]:
    """--unique: False without it, True alone, else the positions of the boxes it names
    (as typed to --box, or 1-based numbers)."""
    if value is None:
        return False
    if not value.strip():
        return True
    marked = []
    for word in value.split(","):
        word = word.strip()
        if word.isdigit() and 1 <= int(word) <= len(texts):
            marked.append(int(word) - 1)
        elif word in texts:
            marked.append(texts.index(word))
        else:
            raise InputError(
                f"--unique {limits.shorten(word)} is none of the boxes ({', '.join(texts)}); "
                "name them as given to --box, or by number"
            )
    return marked


def _rate_options(p: Parser) -> None:
    add_snake(p)
    add_target(p)
    add_seconds(p)
    add_json(p)


@command("rate", _rate_options)
def rate_command(args: Namespace) -> int:
    """how hard a design is to fold (higher is harder)

    example: snakecube rate seed-red
    """
    target = target_of(args)
    bar = progress_bar(began=args.started)  # solve's bar: the same searches, the same progress
    try:
        result = rate(snake_text(args), target, seconds=seconds_left(args), progress=bar)
    finally:
        if bar is not None:
            bar.close()
    data = result.to_dict()
    if args.json:
        print_json(args, data)
        return EXIT_INTERRUPTED if result.stop_reason == StopReason.INTERRUPTED else EXIT_OK
    said = catalog_note(result.snake, snake_text(args), target)
    if said:
        print(f"({said})")
    why = too_long(result.snake, result.region) if result.complete else ""
    for key, value in data.items():
        if key == "difficulty" and value is None:
            value = "unsolvable" if result.complete else "unknown (the search was stopped)"
            value += f": {why}" if why else ""
        if key == "scale" and value is None:
            continue  # no difficulty, nothing to compare
        if key == "complete":  # as solve says it, with the reason it stopped
            value = complete_words(result.complete, result.stop_reason)
        if key != "stop_reason":
            print(f"{key:11} {value}")
    if result.complete and not result.distinct and not why:  # a run too long: said above
        print_nearby(nearby_designs(args, result.snake, result.region), result.snake)
    return EXIT_INTERRUPTED if result.stop_reason == StopReason.INTERRUPTED else EXIT_OK
