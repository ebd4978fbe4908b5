"""What every command shares: the parser, the option groups, reading options, printing.

Commands register with :func:`command`, which keeps each subcommand's options (a function that
adds them) beside its handler; ``snakecube.cli`` builds the parser from the registry.
"""

from __future__ import annotations

import argparse
import difflib
import inspect
import json
import os
import re
import sys
import warnings
from argparse import ArgumentTypeError, Namespace
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn, TypeVar

from snakecube import catalog, limits, stop
from snakecube.errors import InputError, SlowWarning
from snakecube.limits import one_line
from snakecube.shape import Coord, Region, parse_target
from snakecube.snake import Snake

if TYPE_CHECKING:
    from snakecube.nearby import Nearby, Typo

EXIT_OK, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_BUG = 0, 2, 130, 1
SNAKE_HELP = (
    "the snake: a catalog name (standard, king, ...), lengths like 3-3-3-3-2-... or "
    "3,3,3,3,2,... (also as separate words: 3 3 3 3 2 ...), a turn string "
    "(ESCSCSCSCCCCSCSCCCSCCSCCCSE), a 0/1 string, steps:2,2,..., or elbows:3,5,7,..."
)


class Parser(argparse.ArgumentParser):
    """argparse's parser, with each usage error on one line (exit code 2) naming the near
    miss: ``solv`` (did you mean 'solve'?), ``--secnds``, ``--end lst``. Every error of the
    tool starts ``snakecube: error:``; the command's help is named at the end."""

    def error(self, message: str) -> NoReturn:
        message = message.replace("\x00", "")  # an o/- snake's shield (cli.shielded)
        tool = self.prog.split()[0]  # "snakecube", whichever command
        self.exit(
            2,
            one_line(f"{tool}: error: {message}{self._near_miss(message)} (see {self.prog} --help)")
            + "\n",
        )

    def _near_miss(self, message: str) -> str:
        """' (did you mean 'solve'?)' when the message names a word close to a valid one."""
        if found := re.match(r"unrecognized arguments: (-\S+)", message):
            word = found[1].partition("=")[0]
            names: Iterable[str] = (s for a in self._actions for s in a.option_strings)
        elif found := re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message):
            word, names = found[1], (c.strip(" '") for c in found[2].split(","))
        else:
            return ""
        return did_you_mean(word, names)


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """' (did you mean 'solve'?)' for a near miss among ``names``, else ''."""
    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: its name, the function that adds its options, its handler and help."""

    name: str
    options: Callable[[Parser], None]
    run: Callable[[Namespace], int]
    help: str
    epilog: str | None


COMMANDS: dict[str, Command] = {}


def command(
    name: str, options: Callable[[Parser], None]
) -> Callable[[Callable[[Namespace], int]], Callable[[Namespace], int]]:
    """Register the decorated handler as subcommand ``name``, with its options. Its
    docstring is its help: the first paragraph the line in ``snakecube --help``, the rest
    (an example) the end of ``snakecube NAME --help`` (taken as written: a ``%`` is not
    argparse's). Decided in the manner of click, so that a command's words stand beside its
    code; as with click, ``python -OO`` (which drops docstrings) drops these lines too.
    Rejected: ``help=`` and ``epilog=`` strings in each decorator (fifteen heads alike)."""

    def register(run: Callable[[Namespace], int]) -> Callable[[Namespace], int]:
        doc = inspect.cleandoc(run.__doc__ or "").replace("%", "%%")
        said, _, example = doc.partition("\n\n")
        COMMANDS[name] = Command(
            name, options, run, " ".join(said.split()), " ".join(example.split()) or None
        )
        return run

    return register


# What separates the numbers of a cell, and the cells of a path, as spaces.
_COORD_SPACES = str.maketrans(dict.fromkeys(",()[]", " "))


def say(message: str) -> None:
    print(one_line(message), file=sys.stderr)


T = TypeVar("T")


def option_type(name: str, read: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse ``type`` from a reader of ``limits`` (``read(text)``, raising InputError
    about "value"): its message becomes argparse's, and ``name`` is what argparse calls the
    value ("invalid seconds value")."""

    def parse(text: str) -> T:
        try:
            return read(text)
        except InputError as err:
            raise ArgumentTypeError(str(err).removeprefix("value: ")) from None

    parse.__name__ = name
    return parse


def whole(lo: int, hi: int = limits.MAX_NUMBER) -> Callable[[str], int]:
    return option_type("whole number", lambda text: limits.parse_whole(text, "value", lo, hi))


seconds_type = option_type("seconds", lambda text: limits.parse_seconds(text, "value"))
straightness_type = option_type(
    "straightness", lambda text: limits.parse_fraction(text, "value", 10.0)
)
difficulty_type = option_type(
    "difficulty", lambda text: limits.parse_fraction(text, "value", 100.0)
)


def workers_type(text: str) -> int:
    return whole(1, limits.max_workers())(text)


def add_snake(p: Parser) -> None:
    p.add_argument("snake", nargs="+", metavar="SNAKE", help=SNAKE_HELP)


def add_target(p: Parser, required: bool = False) -> None:
    where = p.add_mutually_exclusive_group(required=required)
    where.add_argument(
        "--box",
        metavar="AxBxC",
        help="target box, like 3x3x3 or 2x3x4"
        + ("" if required else " (default: the snake's cube)"),
    )
    where.add_argument("--region", metavar="FILE", help="target region: layers of # and .")


class _Target(argparse.Action):
    """--box or --region that may repeat: each adds a target, in the order given, to
    ``args.targets`` as (option, text)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        namespace.targets = [*(getattr(namespace, "targets", None) or []), (self.dest, values)]


def add_targets(p: Parser, pick: bool = False, snake: bool = True) -> None:
    """--box and --region, each of which may repeat (several targets, in the order given);
    with ``pick``, --target K chooses the one the command works on (default the first).
    Without a ``snake`` (designs), one of them must be given."""
    p.set_defaults(targets=None)
    p.add_argument(
        "--box",
        action=_Target,
        metavar="AxBxC",
        help="target box, like 3x3x3 or 2x3x4; may repeat, with --region too, for several "
        + (
            "targets (default: the snake's cube)"
            if snake
            else "targets (this or --region is needed)"
        ),
    )
    p.add_argument(
        "--region",
        action=_Target,
        metavar="FILE",
        help="target region: layers of # and .; may repeat",
    )
    if pick:
        p.add_argument(
            "--target",
            metavar="K",
            help="of several targets, the one to use: its number (1 = the first, the "
            "default) or its --box text",
        )


def targets_of(args: Namespace) -> list[Region]:
    """Every target given with --box and --region (see :func:`add_targets`), in order."""
    listed = getattr(args, "targets", None) or []
    return [
        parse_target(text, "--box") if kind == "box" else _region(args, text)
        for kind, text in listed
    ]


def _region(args: Namespace, path: str) -> Region:
    """The region in the file ``path``; ``-``, standard input, is read once and kept (a
    command may ask for its target more than once: make asks again for its fold)."""
    if path != "-":
        return Region.from_file(path, _left(args))
    kept = getattr(args, "stdin_region", None)
    if kept is None:
        kept = args.stdin_region = Region.from_file(path, _left(args))
    return kept


def _left(args: Namespace) -> float | None:
    """What is left of --seconds, for a command that has it (reading its files too)."""
    return seconds_left(args) if getattr(args, "seconds", None) is not None else None


def _picked(args: Namespace, listed: list[tuple[str, str]]) -> tuple[str, str]:
    """The target --target names among ``listed`` (the first without it)."""
    want = getattr(args, "target", None)
    if want is None:
        return listed[0]
    names = ", ".join(f"--{kind} {text}" for kind, text in listed)
    if want.strip().isdigit():
        k = int(want)
        if 1 <= k <= len(listed):
            return listed[k - 1]
        raise InputError(
            f"--target {limits.shorten(want)}: give 1 to {len(listed)}, one of the targets "
            f"({names})"
        )
    for kind, text in listed:
        if text == want.strip():
            return kind, text
    raise InputError(
        f"--target {limits.shorten(want)} is none of the targets ({names}); give its number "
        "or its --box text"
    )


# The options several commands take, each declared here once: its name, type and metavar;
# a command may say in its own help what it means there.
def add_seconds(
    p: Parser,
    help: str = "stop after S seconds, counted from the command's start (the answer is then "
    "marked incomplete)",
) -> None:
    p.add_argument("--seconds", type=seconds_type, metavar="S", help=help)


def add_held(
    p: Parser, help: str = "the end you hold while folding (default: the easier one)"
) -> None:
    """``--from best|first|last`` (``args.held``): the end a fold plan is held by."""
    p.add_argument(
        "--from", dest="held", choices=("best", "first", "last"), default="best", help=help
    )


def add_json(p: Parser, help: str = "print one JSON object") -> None:
    p.add_argument("--json", action="store_true", help=help)


def add_quiet(p: Parser) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def add_workers(p: Parser, help: str) -> None:
    p.add_argument("--workers", type=workers_type, metavar="N", help=help)


def add_scheduler(p: Parser, help: str) -> None:
    p.add_argument("--scheduler", metavar="ADDRESS", help=help)


def seconds_left(args: Namespace) -> float | None:
    """What is left of ``--seconds``, counted from the command's start."""
    return stop.remaining(getattr(args, "seconds", None), args.started)


def print_json(args: Namespace, data: object, indent: int | None = None) -> None:
    """Print one JSON document whole: a stop signal during the write waits for its end."""
    text = json.dumps(data, indent=indent) + "\n"
    with stop.deferred():
        sys.stdout.write(text)
        sys.stdout.flush()
        args.json_printed = True


def snake_text(args: Namespace) -> str:
    """The snake as typed: its words joined (``check`` takes it as one word)."""
    return args.snake if isinstance(args.snake, str) else " ".join(args.snake)


# The library names its parameters in messages (``target=``, ``strategy='beam'``), for Python
# callers; the command line says its options instead. Phrases first, then parameters.
_PHRASES = (
    ("give a target (target='AxBxC' or a Region)", "give --box AxBxC or --region FILE"),
    ("the target (target=)", "the target (--box)"),
    ("(limit=1)", "(--first)"),
    (  # census.runner.TOO_LONG_REMEDY
        "give a time limit (seconds=) to run part of it (with a store (store=), a rerun goes "
        "on), or a cluster (scheduler=)",
        "give --seconds S to run part of it (with --store DIR, a rerun goes on), --estimate "
        "for the forecast alone, or --scheduler ADDRESS for a cluster",
    ),
    (
        "a census on a cluster (scheduler=) needs a store every worker can reach (store=)",
        "a census on a cluster needs a store every worker can reach (--store)",
    ),
    ("a time limit (seconds=)", "a time limit (--seconds S)"),
)
_PARAMETERS = re.compile(r"\b(axes|scheduler|store|strategy|solution)=(?:'([^']*)'|([\w.-]+))?")


def cli_words(text: str) -> str:
    """A library message in the command line's words: its options, not the parameters.

    >>> cli_words("scheduler= runs depth-first searches; strategy='beam' runs on one machine")
    '--scheduler runs depth-first searches; --strategy beam runs on one machine'
    """
    for library, option in _PHRASES:
        text = text.replace(library, option)
    return _PARAMETERS.sub(
        lambda m: f"--{m[1]}" + (f" {m[2] if m[2] is not None else m[3]}" if m[2] or m[3] else ""),
        text,
    )


# The nearby designs named in a one-line error (a snake that does not fit or fold): looked
# for within HINT_SECONDS, and only in targets of up to HINT_CELLS cells (a bigger target's
# setup alone can take longer), so the refusal comes within half a second. The catalog's
# puzzles one typo away are named first, whatever the time.
HINT_SECONDS, HINT_CELLS = 0.2, 216
NEARBY_SECONDS = 5.0  # the nearby designs listed after an answer with no solutions


def catalog_typo(snake: Snake, target: Region | None = None) -> Typo | None:
    """The catalog puzzle one typo away from a snake that is none, the likeliest typo first."""
    if catalog.recognize(snake.turns()) is not None:
        return None
    from snakecube.nearby import catalog_typos  # the search, through nearby

    return next(iter(catalog_typos(snake, target)), None)


def catalog_note(snake: Snake, typed: str, target: Region | None = None) -> str:
    """What the catalog says of the snake, for a line of its own: 'this is the catalog's
    standard, ...', 'one typo from the catalog's king: segments 1 and 2 swapped (...)', or
    '' (typed by its name, or neither)."""
    typo = catalog_typo(snake, target)
    return catalog.recognized(snake.turns(), typed) if typo is None else typo.said()


def typo_hint(args: Namespace, seconds: float = HINT_SECONDS) -> str:
    """'; nearby designs that fold: king, from the catalog (segment 7: 3 -> 2); lengths:...
    (...)': what to add to the error of a snake that does not fit or fold its target, or ''
    (none found within ``seconds``, or the snake or target cannot be read)."""
    from snakecube.nearby import catalog_typos, nearby  # the search

    try:
        target = target_of(args)
        snake = Snake.parse(snake_text(args), None if target is None else target.volume)
        typos = catalog_typos(snake, target)[:2]
        parts = [f"{t.name}, from the catalog ({t.edit})" for t in typos]
        named = {t.snake.lengths for t in typos}
        if len(parts) < 2 and (snake.cubes if target is None else target.volume) <= HINT_CELLS:
            with warnings.catch_warnings():  # a refusal is one line: no note on the hint's speed
                warnings.simplefilter("ignore", SlowWarning)
                near = nearby(snake, target, 2 + len(named), seconds=seconds, known=False)
            parts += [
                f"{_written(n.snake, snake)} ({n.edit})"
                for n in near
                if n.snake.lengths not in named
            ]
    except InputError:
        return ""
    return "; nearby designs that fold: " + "; ".join(parts[:2]) if parts else ""


def nearby_designs(args: Namespace, snake: Snake, region: Region) -> list[Nearby]:
    """The designs one typo away that fold, looked for after an answer with no solutions,
    within NEARBY_SECONDS and what is left of --seconds."""
    from snakecube.nearby import nearby  # the search

    left = seconds_left(args)
    return nearby(
        snake, region, seconds=NEARBY_SECONDS if left is None else min(left, NEARBY_SECONDS)
    )


def _written(design: Snake, typed: Snake) -> str:
    """A nearby design as ``typed`` was written where the edits quote its items (steps,
    runs), else as lengths."""
    from snakecube.nearby import written_as_typed  # the search's module, loaded with it

    return written_as_typed(design, typed) or "lengths:" + ",".join(map(str, design.lengths))


def print_nearby(near: Sequence[Nearby], typed: Snake) -> None:
    """The designs one typo away that fold, after an answer with no solutions, each written
    as ``typed`` was where the edits quote its items (steps, runs), else as lengths."""
    if not near:
        print("no design one typo away folds either")
        return
    print("\nnearby designs that fold (one typo away):")
    for n in near:
        count = f"{n.distinct}{'' if n.complete else '+'}"
        plural = "s" if n.distinct != 1 else ""
        known = f"{n.name}, from the catalog: " if n.name else ""
        print(f"  {known}{_written(n.snake, typed)}")
        print(f"      {n.edit}; {count} distinct solution{plural}")


def target_of(args: Namespace) -> Region | None:
    """The target from --box or --region, or None for the snake's own cube. Of several
    (:func:`add_targets`), the one --target picks, else the first."""
    listed = getattr(args, "targets", None)
    if listed:
        kind, text = _picked(args, listed)
        return parse_target(text, "--box") if kind == "box" else _region(args, text)
    if getattr(args, "target", None) is not None:
        raise InputError("--target picks one of several targets: give them with --box or --region")
    if getattr(args, "box", None) is not None:
        return parse_target(args.box, "--box")
    if getattr(args, "region", None) is not None:
        return _region(args, args.region)
    return None


_CELL = re.compile(r"\s*(-?[0-9]{1,9})\s+(-?[0-9]{1,9})\s+(-?[0-9]{1,9})\s*")


def coord(text: str, what: str) -> Coord:
    found = _CELL.fullmatch(text.translate(_COORD_SPACES))
    if found is None:
        raise InputError(f"{what}: {limits.shorten(text)} is not x,y,z (three whole numbers)")
    return int(found[1]), int(found[2]), int(found[3])


def cells(text: str) -> list[Coord]:
    items = text.replace(";", " ").split()
    if not items:
        raise InputError("--path: no cells given")
    if len(items) > limits.MAX_CUBES:
        raise InputError(f"--path: {len(items)} cells; at most {limits.MAX_CUBES}")
    return [coord(t, f"--path item {i}") for i, t in enumerate(items, 1)]


# -- no output may be an input --------------------------------------------------------------------
OUTPUTS = ("out", "csv")  # the options that name a file (or folder) the command writes
INPUTS = ("region", "file")  # ... and those that name one it reads


def _same(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file (the same inode, or the same path)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(args: Namespace) -> None:
    """An InputError, before any work, when a file the command would write is one it reads
    (``show --region reg.txt --out reg.txt`` overwrote its own region) or lies in the census
    store it works on (``designs --csv STORE/manifest.json`` ruined the store)."""
    outputs = [str(v) for k in OUTPUTS if isinstance(v := getattr(args, k, None), str)]
    inputs = [str(v) for k in INPUTS if isinstance(v := getattr(args, k, None), str)]
    inputs += [text for kind, text in getattr(args, "targets", None) or [] if kind == "region"]
    store = getattr(args, "store", None)
    for out in outputs:
        for given in inputs:
            if _same(out, given):
                raise InputError(
                    f"{out!r} is both read and written by this command: write to another file"
                )
        if isinstance(store, str):
            folder = os.path.realpath(store)
            if os.path.realpath(out) == folder or os.path.realpath(out).startswith(folder + os.sep):
                raise InputError(
                    f"{out!r} is in the census store {store!r}, whose files only the census "
                    "writes: write to a file outside it"
                )
