"""What every command shares: the parser, the option groups, reading options, printing.

Commands register with :func:`command`, which keeps each subcommand's options (a function that
adds them) beside its handler; ``snakecube.cli`` builds the parser from the registry.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from argparse import ArgumentTypeError, Namespace
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NoReturn

from snakecube import limits, stop
from snakecube.errors import InputError
from snakecube.limits import one_line
from snakecube.shape import Box, Coord, Region

EXIT_OK, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_BUG = 0, 2, 130, 1
SNAKE_HELP = (
    "the snake: a catalog name (standard, king, ...), lengths like 3-3-3-3-2-... or "
    "3,3,3,3,2,... (also as separate words: 3 3 3 3 2 ...), a turn string "
    "(ESCSCSCSCCCCSCSCCCSCCSCCCSE), a 0/1 string, steps:2,2,..., or elbows:3,5,7,..."
)


class Parser(argparse.ArgumentParser):
    """argparse's parser, with each usage error on one line (exit code 2) naming the near
    miss: ``solv`` (did you mean 'solve'?), ``--secnds``, ``--end lst``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: error: {message}{self._near_miss(message)} "
                              f"(see {self.prog} --help)") + "\n")  # fmt: skip

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
    name: str,
    options: Callable[[Parser], None],
    *,
    help: str,
    epilog: str | None = None,
) -> Callable[[Callable[[Namespace], int]], Callable[[Namespace], int]]:
    """Register the decorated handler as subcommand ``name``, with its options."""

    def register(run: Callable[[Namespace], int]) -> Callable[[Namespace], int]:
        COMMANDS[name] = Command(name, options, run, help, epilog)
        return run

    return register


# What separates the numbers of a cell, and the cells of a path, as spaces.
_COORD_SPACES = str.maketrans(dict.fromkeys(",()[]", " "))


def say(message: str) -> None:
    print(one_line(message), file=sys.stderr)


def whole(lo: int, hi: int = limits.MAX_NUMBER) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            return limits.parse_whole(text, "value", lo, hi)
        except InputError as err:
            raise ArgumentTypeError(str(err).removeprefix("value: ")) from None

    parse.__name__ = "whole number"
    return parse


def seconds_type(text: str) -> float:
    try:
        return limits.parse_seconds(text, "value")
    except InputError as err:
        raise ArgumentTypeError(str(err).removeprefix("value: ")) from None


seconds_type.__name__ = "seconds"


def straightness_type(text: str) -> float:
    try:
        return limits.parse_fraction(text, "value", 10.0)
    except InputError as err:
        raise ArgumentTypeError(str(err).removeprefix("value: ")) from None


straightness_type.__name__ = "straightness"


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

    def __call__(self, parser: argparse.ArgumentParser, namespace: Namespace, values: object,
                 option_string: str | None = None) -> None:  # fmt: skip
        namespace.targets = [*(getattr(namespace, "targets", None) or []), (self.dest, values)]


def add_targets(p: Parser, pick: bool = False) -> None:
    """--box and --region, each of which may repeat (several targets, in the order given);
    with ``pick``, --target K chooses the one the command works on (default the first)."""
    p.set_defaults(targets=None)
    p.add_argument(
        "--box",
        action=_Target,
        metavar="AxBxC",
        help="target box, like 3x3x3 or 2x3x4; may repeat, with --region too, for several "
        "targets (default: the snake's cube)",
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
    return [Box.parse(text) if kind == "box" else Region.from_file(text) for kind, text in listed]


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


def add_seconds(p: Parser) -> None:
    p.add_argument(
        "--seconds",
        type=seconds_type,
        metavar="S",
        help="stop after S seconds, counted from the command's start (the answer is then "
        "marked incomplete)",
    )


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
    return " ".join(args.snake)


def target_of(args: Namespace) -> Region | None:
    """The target from --box or --region, or None for the snake's own cube. Of several
    (:func:`add_targets`), the one --target picks, else the first."""
    listed = getattr(args, "targets", None)
    if listed:
        kind, text = _picked(args, listed)
        return Box.parse(text) if kind == "box" else Region.from_file(text)
    if getattr(args, "target", None) is not None:
        raise InputError("--target picks one of several targets: give them with --box or --region")
    if getattr(args, "box", None) is not None:
        return Box.parse(args.box)
    if getattr(args, "region", None) is not None:
        return Region.from_file(args.region)
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
