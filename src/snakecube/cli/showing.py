"""show, fold, fold-census and flat: how a solution folds, for a person with the chain in
hand."""

from __future__ import annotations

import contextlib
from argparse import Namespace
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from snakecube import explain, fold, limits, stop
from snakecube.cli.base import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    Parser,
    add_held,
    add_json,
    add_quiet,
    add_seconds,
    add_snake,
    add_targets,
    add_workers,
    catalog_note,
    command,
    print_json,
    say,
    seconds_left,
    snake_text,
    target_of,
    whole,
)
from snakecube.errors import InputError
from snakecube.explain import need_pictures
from snakecube.explain.prose import show
from snakecube.explain.text import directions
from snakecube.flat import NODES_PER_SECOND, Forecast, describe, flat
from snakecube.fold import words as fold_words
from snakecube.fold.choice import EASIEST_HELP, choose
from snakecube.fold.words import dialog_dict, with_words
from snakecube.output import check_writable, write_file
from snakecube.progress import progress_bar
from snakecube.shape import parse_box
from snakecube.snake import End, Snake
from snakecube.solution import Style, complete_words
from snakecube.stop import StopReason

SAY_AFTER = 10.0  # seconds: a flat count forecast to take longer is announced before it starts


def _add_which(p: Parser) -> None:
    """The snake, the target (of several: --target K) and which solution: what show and
    fold both take."""
    add_snake(p)
    add_targets(p, pick=True)
    p.add_argument(
        "--solution",
        type=whole(1),
        default=None,
        metavar="K",
        help=f"which distinct solution, 1 = the first; default: {EASIEST_HELP}",
    )


def _show_options(p: Parser) -> None:
    _add_which(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        help="file to write; its extension chooses the form (.txt .png .svg .pdf "
        ".gif .html); without it, text goes to standard output",
    )
    p.add_argument("--reverse", action="store_true", help="fold from the other end")
    add_seconds(p)
    p.add_argument("--letters", action="store_true", help="directions as XP/YN (seeds/000)")
    p.add_argument(
        "--paper",
        choices=("a4", "letter"),
        default="a4",
        help="paper size of a PDF (or PNG, SVG) sheet (default a4)",
    )
    p.add_argument(
        "--words",
        choices=("table", "pilot"),
        default="table",
        help="directions fixed to the table (default) or relative to the last "
        "segment, as a pilot sees them",
    )


@command("show", _show_options)
def show_command(args: Namespace) -> int:
    """draw a solution: text, .png/.svg/.pdf sheet, .gif, .html

    example: snakecube show standard --out sheet.pdf
    """
    choice = _chosen(args, "show")
    found = choice.solution
    if found is None:
        return EXIT_OK
    style = Style.LETTERS if args.letters else Style.SIGNS
    if args.out is None:
        if args.reverse:
            print("(--reverse: cube 1 is the last cube of the snake as typed)")
        print(show(found, style, args.words))
        return EXIT_OK
    tails = None
    _say_drawing(args.out)
    with _drawing(args):
        if explain.form_of(args.out) not in explain.TEXT_FORMS:  # the pictures show the plan
            found, tails = explain.hanging(found)
        explain.save(
            found,
            args.out,
            style=style,
            words=args.words,
            paper=args.paper,
            tails=tails,
            typed=_typed(args, choice),
        )
        say(f"snakecube: wrote {args.out!r}")
    return EXIT_OK


@contextlib.contextmanager
def _drawing(args: Namespace) -> Iterator[None]:
    """Drawing --out within --seconds (counted from the command's start, as the search's):
    stopped by it, nothing is written, and one line says so (an answer, exit 0, as a search
    stopped by its limit is)."""
    try:
        with stop.within(args.seconds, args.started):
            yield
    except stop.OutOfTime:
        say(
            f"snakecube: stopped drawing at the time limit (--seconds {args.seconds:g}): "
            f"{args.out!r} not written; give more time (--seconds S) to draw it"
        )


def _chosen(
    args: Namespace, verb: str, end: str = "best", order: str = "walk", out: bool = True
) -> Any:
    """The solution to show or fold (``fold.choice.choose``): says which was picked and why,
    names a catalog puzzle typed otherwise, and says when the time limit came first. --out
    is checked first, before the search (unless ``out`` is False: the caller checks it)."""
    if out:
        _check_out(args.out)
    target = target_of(args)
    typed = Snake.parse(snake_text(args), None if target is None else target.volume)
    said = catalog_note(typed, snake_text(args), target)
    if said and not getattr(args, "json", False):
        print(f"({said})")
    bar = progress_bar(began=args.started)  # solve's bar: the same search, the same progress
    try:
        with stop.within(getattr(args, "seconds", None), args.started):  # the planner's too
            choice = choose(
                snake_text(args),
                target,
                solution=args.solution,
                end=end,
                nodes=getattr(args, "nodes", 200_000),
                reverse=bool(getattr(args, "reverse", False)),
                seconds=seconds_left(args),
                verb=verb,
                progress=bar,
                order=order,
                planned=verb == "fold",
                keep=verb == "fold",
            )
    finally:
        if bar is not None:
            bar.close()
    if choice.solution is None:
        wanted = args.solution or 1
        plural = "s" if wanted != 1 else ""
        say(
            f"snakecube: stopped at the time limit ({args.seconds:g} s) with {choice.found} of "
            f"the {wanted} solution{plural} needed found; nothing to {verb}"
        )
    elif choice.why():
        pick = "" if choice.searched else "; --solution K picks another"
        say(f"snakecube: {choice.why()}{pick}")
    elif choice.picked():
        say(f"snakecube: {choice.picked('asked for with --solution')}")
    return choice


def _typed(args: Namespace, choice: Any) -> str:
    """The snake as typed, for a sheet's header, with a note when the solution is not the
    default: the sheet says so too."""
    note = choice.picked("asked for with --solution")
    return snake_text(args) + (f"  ({note})" if note else "")


def _fold_options(p: Parser) -> None:
    _add_which(p)
    p.add_argument(
        "--nodes",
        type=whole(1),
        default=200_000,
        metavar="N",
        help="moves the planner tries per search before it gives up (default 200000)",
    )
    add_held(p)
    add_seconds(p)
    p.add_argument(
        "--fewest",
        action="store_true",
        help="plan the fewest quarter turns instead of turns that walk along the chain",
    )
    add_json(p, "print the plan as one JSON object (docs/fold.md says each field)")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write the plan: .txt, .pdf/.png/.svg sheet, .gif, .html viewer (with "
        "--went-wrong: the questions' pictures, .pdf/.png/.svg)",
    )
    p.add_argument(
        "--went-wrong",
        type=whole(1),
        default=None,
        metavar="K",
        help="something does not match at step K: a few yes/no questions about what you see "
        "find the step that went wrong and the turns that undo it (answers y or n on standard "
        "input; with --json, every question and where each answer leads)",
    )
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="sheet paper size")


@command("fold", _fold_options)
def fold_command(args: Namespace) -> int:
    """a fold plan: quarter turns from the snake lying flat to a solution

    example: snakecube fold standard --out plan.pdf
    """
    order = "fewest" if args.fewest else "walk"
    choice = _chosen(args, "fold", args.held, order)
    found, p = choice.solution, choice.plan
    if found is None:
        if args.json:
            print_json(args, {"complete": False, "stop_reason": StopReason.SECONDS, "plan": None})
        return EXIT_OK
    if p is not None and p.stop_reason == StopReason.INTERRUPTED:
        return _plan_interrupted(args, p)
    if p is None:
        try:
            with stop.within(args.seconds, args.started):
                p = fold.plan(found, args.held, args.nodes, order=order)
        except KeyboardInterrupt:  # the solution found is kept: the answer says it
            return _plan_interrupted(args, fold.plan_interrupted(found, args.held, order))
    late = p.stop_reason == StopReason.SECONDS
    if p.found and late:
        say(
            f"snakecube: the planner stopped at the time limit (--seconds {args.seconds:g}): "
            "this is the best plan it found by then; more time may find one that walks less "
            "along the chain or turns fewer times"
        )
    if args.went_wrong is not None:
        return _went_wrong(args, p)
    if args.out is not None and p.found:
        _say_drawing(args.out)
        with _drawing(args):
            explain.save_plan(p, args.out, paper=args.paper, typed=_typed(args, choice))
            say(f"snakecube: wrote {args.out!r}")
    if args.json:
        print_json(args, with_words(fold.guide(p)) if p.found else p.to_dict())
        return EXIT_OK
    if not p.found:  # the planner gave up: an answer, not an error
        print(f"{'snake':16} {p.solution.snake.turns()}")
        more = "; give more time (--seconds S)" if late else ""
        unwritten = f"; {args.out!r} not written" if args.out is not None else ""
        print(f"no fold plan: {p.reason}{more}{unwritten}")
        return EXIT_OK
    if args.out is not None:  # the plan went to the file, as show's answer does
        return EXIT_OK
    print(f"{'snake':16} {p.solution.snake.turns()}")
    print(f"{'held end':16} {'cube 1' if p.held == End.FIRST else 'cube ' + str(len(p.end))}")
    print(f"{'quarter turns':16} {p.quarter_turns} ({_bound(p.quarter_turns, p.lower_bound)})")
    print(f"{'fewest found':16} {p.fewest} (a plan that walks along the chain may take 2 more)")
    print(f"{'steps':16} {len(p.steps())} (two quarter turns of a joint in a row: one step)")
    print(
        f"{'hand distance':16} {p.hand_distance} cubes along the chain, "
        f"{p.hand_distance / max(1, p.span):.2f} x the {p.span} its joints span"
    )
    print(f"{'clear swings':16} {p.sweep_clear} of {len(p.moves)}")
    g = fold.guide(p)
    caught, tried = g.caught
    print(
        f"{'slips caught':16} {caught} of {tried} at their own step (the other way, a half "
        "turn for a quarter or back, the corner 1 or 2 before or after)"
    )
    print()
    print("\n".join(fold.steps_in_words(g)))
    return EXIT_OK


def _plan_interrupted(args: Namespace, p: fold.FoldPlan) -> int:
    """fold's answer when Ctrl-C stopped the planner: the solution it was planning for (in
    the plan's JSON, ``end``; as text, its directions), no plan, exit 130."""
    if args.json:
        print_json(args, p.to_dict())
    else:
        print(f"{'snake':16} {p.solution.snake.turns()}")
        print(f"{'solution':16} {directions(p.solution)}")
        print(f"no fold plan: {p.reason}")
    say("snakecube: interrupted" + (f"; {args.out!r} not written" if args.out else ""))
    return EXIT_INTERRUPTED


def _went_wrong(args: Namespace, p: fold.FoldPlan) -> int:
    """fold --went-wrong K: the questions, asked one at a time on standard input (or all of
    them, with where each answer leads, with --json), then the verdict."""
    if not p.found:
        raise InputError(f"--went-wrong {args.went_wrong}: there is no plan ({p.reason})")
    g = fold.guide(p)
    k = args.went_wrong
    if k > len(g.steps):
        raise InputError(f"--went-wrong {k}: the plan has steps 1 to {len(g.steps)}")
    tree = fold.dialog(g, k)
    if args.out is not None:
        _say_drawing(args.out)
        with _drawing(args):  # under --seconds, as every drawing
            explain.save_dialog(p, k, tree, args.out, paper=args.paper, typed=snake_text(args))
            say(f"snakecube: wrote {args.out!r}")
    if args.json:
        data = with_words(g)
        data["went_wrong"] = {"step": k, "dialog": dialog_dict(tree)}
        print_json(args, data)
        return EXIT_OK
    print(
        f"Something doesn't match at step {k}? Answer each question with y or n, looking at "
        "your snake as it is now (do not turn anything yet)."
    )
    if args.out is None:
        print("(--out questions.pdf draws a picture of each question)")
    asks, _verdicts = fold_words.numbered(tree)
    node, asked = tree, 0
    while isinstance(node, fold.Ask):
        asked += 1
        number = next(k for k, a in enumerate(asks, 1) if a is node)
        where = f" (question {number} in {args.out})" if args.out else ""
        question = fold_words.question_words(node.check)
        answer = _ask(f"{asked}. {question}{where} [y/n] ")
        if answer is None:
            print("\nstopped before the answer: no more input")
            return EXIT_OK
        node = node.yes if answer else node.no
    print("\n".join(fold_words.undo_words(node)))
    return EXIT_OK


def _ask(prompt: str) -> bool | None:
    """A yes or no from standard input (asked again until it is one); None at its end."""
    while True:
        try:
            line = input(prompt)
        except EOFError:
            return None
        said = line.strip().lower()
        if said in ("y", "yes"):
            return True
        if said in ("n", "no"):
            return False
        print("please answer y or n")


def _check_out(out: str | None) -> None:
    """--out: an InputError now, before any search or drawing, if snakecube cannot write
    it (an unknown extension, no such folder, a folder not writable)."""
    if out is not None:
        explain.form_of(out)
        check_writable(out)


def _say_drawing(out: str) -> None:
    """One line on stderr before a drawing that may take seconds (a sheet, an animation)."""
    form = explain.form_of(out)
    if form not in explain.TEXT_FORMS:
        what = {".pdf": "the PDF sheet", ".gif": "the animation", ".html": "the viewer"}
        say(f"snakecube: drawing {what.get(form, 'the sheet')} into {out!r}")


def _bound(turns: int, bound: int) -> str:
    """What the corners' angles say of a plan's quarter turns: the fewest possible when it
    takes no more than they need, else how many they alone need (not the best a plan can
    do: a start lying flat may need a corner turned twice)."""
    return "the fewest possible" if turns <= bound else f"the corners' angles alone need {bound}"


def _fold_census_options(p: Parser) -> None:
    p.add_argument("--box", metavar="AxBxC", required=True, help="the box (at most 27 cells)")
    p.add_argument("--csv", metavar="FILE", required=True, help="write one row per solution end")
    add_workers(p, "processes (default: all)")
    add_quiet(p)


@command("fold-census", _fold_census_options)
def fold_census_command(args: Namespace) -> int:
    """how every solution of every design of a box folds (docs/fold.md)

    example: snakecube fold-census --box 3x3x3 --csv fold-3x3x3.csv
    """
    from snakecube.fold.survey import run, summarize  # numpy, through the census

    box = parse_box(args.box, "--box")
    limits.cell_count(box.volume, f"the {box.describe()}", 27, "fold-census")
    check_writable(args.csv)
    bar = (
        None
        if args.quiet
        else progress_bar(desc="fold census", unit="design", lines=60, began=args.started)
    )
    try:
        n = run(box, args.csv, args.workers, bar)
    except KeyboardInterrupt:
        say(
            "snakecube: interrupted: the fold census is incomplete; the finished designs are"
            f" kept in {args.csv + '.journal'!r}; run the same command again to go on"
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
    say(f"snakecube: wrote {args.csv!r}: {n} solutions, each from both ends")

    print(summarize(args.csv))
    return EXIT_OK


def _flat_options(p: Parser) -> None:
    add_snake(p)
    add_json(p)
    p.add_argument("--out", metavar="FILE", help="draw the most compact layouts (.png .svg .pdf)")
    add_seconds(p)


@command("flat", _flat_options)
def flat_command(args: Namespace) -> int:
    """lay a snake flat on a table: count layouts, most compact

    example: snakecube flat standard --out flat.png
    """
    if args.out is not None and Path(args.out).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError(f"--out {args.out!r}: use a .png, .svg or .pdf file")
    if args.out is not None:
        need_pictures()
        check_writable(args.out)
    snake = Snake.parse(snake_text(args))
    said = catalog_note(snake, snake_text(args))
    if said and not args.json:
        print(f"({said})")
    bar = progress_bar(desc="laying flat", unit="segment", began=args.started)

    def ahead(forecast: Forecast) -> None:
        """Say a count forecast to take a while, before it starts."""
        if forecast.seconds < SAY_AFTER or (forecast.too_long() and args.seconds is None):
            return  # quick; or refused, which the error says
        stops = f"; --seconds {args.seconds:g} stops it first" if args.seconds is not None else ""
        say(
            f"snakecube: laying it flat every way will take {describe(forecast)} (estimated, "
            f"at {NODES_PER_SECOND:,.0f} segments a second, a quiet core's speed: the bar's "
            f"time left follows this machine's speed as it goes){stops}; Ctrl-C stops it, "
            "keeping what was found"
        )

    try:
        result = flat(snake, seconds=seconds_left(args), progress=bar, on_forecast=ahead)
    finally:
        if bar is not None:
            bar.close()
    if args.out is not None and result.examples:
        from snakecube.explain import pictures  # matplotlib: the show extra

        say(f"snakecube: drawing the most compact layouts into {args.out!r}")
        with _drawing(args):
            write_file(args.out, lambda p: pictures.flat_sheet(result, p))
            say(f"snakecube: wrote {args.out!r}")
    data = result.to_dict()
    if args.json:
        print_json(args, data)
    else:
        for key in ("snake", "layouts", "most_compact", "most_compact_distinct"):
            print(f"{key:22} {data[key]}")
        print(f"{'bounding_box':22} {result.bounding_box[0]}x{result.bounding_box[1]}")
        done = complete_words(result.complete, result.stop_reason, "counts are lower bounds")
        print(f"{'complete':22} {done}")
    return EXIT_INTERRUPTED if result.stop_reason == StopReason.INTERRUPTED else EXIT_OK
