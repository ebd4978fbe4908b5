"""The command-line tool: a thin layer over the public API.

Exit codes: 0 when the job ran (zero solutions is an answer, and so is a search stopped by
its time limit, marked incomplete); 2 for bad input, or a file that cannot be read or
written, with one line on stderr naming what is wrong and where; 130 after Ctrl-C (or SIGTERM
or SIGHUP, see ``snakecube.stop``), once what was found is printed, marked incomplete. Every
line on stderr is one line: user text in it is quoted with ``repr``. With ``--json`` the
standard output is always one JSON document, even when the command is stopped.

Each subcommand lives with its options in one of ``solving``, ``showing``, ``designing``,
``making`` and ``serving``; ``base`` holds what they share. This module builds the parser
from them, runs a command, and turns what went wrong into one line and an exit code.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
import time
import warnings
from argparse import Namespace
from collections.abc import Sequence
from typing import Any

from snakecube import __version__, stop
from snakecube.cli.base import (
    COMMANDS,
    EXIT_BUG,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Command,
    Parser,
    check_outputs,
    cli_words,
    did_you_mean,
    print_json,
    say,
    typo_hint,
)
from snakecube.errors import CubeCountError, InputError, NoSolutionError
from snakecube.stop import StopReason

__all__ = ["COMMANDS", "main", "parser"]
# Each command's module, in the order of `snakecube --help`. A run imports only the module of
# its command: importing all four cost every start about 25 ms (measured on `solve standard`).
HOMES = {
    "solve": "solving",
    "show": "showing",
    "fold": "showing",
    "fold-census": "showing",
    "designs": "designing",
    "generate": "designing",
    "rate": "designing",
    "flat": "showing",
    "catalog": "solving",
    "convert": "solving",
    "check": "solving",
    "export": "solving",
    "make": "making",
    "serve": "serving",
    "web": "serving",
}
ORDER = tuple(HOMES)


def load(name: str) -> Command:
    """The registered command ``name``, its module imported."""
    importlib.import_module(f"snakecube.cli.{HOMES[name]}")
    return COMMANDS[name]


def parser() -> tuple[Parser, dict[str, Parser]]:
    """The whole command line: the top-level parser, and each subcommand's own parser."""
    for name in ORDER:
        load(name)
    return _parser(ORDER)


def _parser(names: Sequence[str]) -> tuple[Parser, dict[str, Parser]]:
    """The top-level parser, and the parsers of the commands ``names`` (already loaded)."""
    top = Parser(
        prog="snakecube",
        description="Fold snake-cube puzzles: solve, count, explain.",
        epilog="Example: snakecube solve standard    (see snakecube COMMAND --help)",
    )
    top.add_argument("--version", action="version", version=f"snakecube {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    commands = {}
    for name in names:
        c = COMMANDS[name]
        commands[name] = sub.add_parser(name, help=c.help, epilog=c.epilog)
        c.options(commands[name])
    return top, commands


def parse(words: Sequence[str]) -> Namespace:
    """Read a command line. The subcommand's own words are read with argparse's
    ``parse_intermixed_args``, so the snake's words may come before or after options
    (``solve 3 3 --json 3``); argparse reads a top level with subcommands only in order."""
    at = next((i for i, w in enumerate(words) if not w.startswith("-")), len(words))
    if at < len(words) and words[at] in HOMES:
        name = words[at]
        top, commands = _parser([load(name).name])
    else:
        top, commands = parser()
    args = top.parse_args(words[:at])  # --help, --version, or nothing but options
    if at == len(words):
        return args
    if words[at] not in HOMES:
        word = words[at]
        top.error(f"argument COMMAND: invalid choice: {word!r}{did_you_mean(word, ORDER)}")
    one = commands[name]
    rest = shielded(words[at + 1 :], one)
    # parse_intermixed_args loses the words after "--" before Python 3.12.8 (gh-125355).
    args = (one.parse_args if "--" in rest else one.parse_intermixed_args)(rest, namespace=args)
    args.command = name
    return unshielded(args)


# A snake in the o/- form (--o-o-o-oooo-..., as the published 3x3x3 analyses and `convert`
# write it) starts with '-', which argparse reads as an option. Such a word goes through
# argparse behind SHIELD and is put back after (docs/design-cli.md, "Command line"): a word of
# dashes and o's with at least one o, which is no option nor the start of one.
SHIELD = "\x00"
_DASH_SNAKE = re.compile("-[-oO\u2010\u2013\u2014\u2212]*")


def shielded(words: Sequence[str], parser: Parser) -> list[str]:
    """``words`` with each o/- snake behind SHIELD, so that argparse reads it as a word."""
    options = [s for a in parser._actions for s in a.option_strings]
    return [
        SHIELD + w
        if _DASH_SNAKE.fullmatch(w)
        and "o" in w.lower()
        and not any(o.startswith(w) for o in options)
        else w
        for w in words
    ]


def unshielded(args: Namespace) -> Namespace:
    """``args`` with the words :func:`shielded` hid put back."""
    for key, value in vars(args).items():
        if isinstance(value, str):
            setattr(args, key, value.removeprefix(SHIELD))
        elif isinstance(value, list):
            setattr(args, key, [v.removeprefix(SHIELD) if isinstance(v, str) else v for v in value])
    return args


_WARNED: set[str] = set()


def _warning(message: Any, category: Any, *_args: Any, **_kwargs: Any) -> None:
    """A warning on one line, each message once (the nearby designs' searches would repeat
    the pure-Python engine's warning for every candidate)."""
    text = f"snakecube: warning: {message}"
    if text not in _WARNED:
        _WARNED.add(text)
        say(text)


def main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run the tool; return the exit code. Time limits count from ``started`` (a
    ``time.monotonic()``; by default, now)."""
    began = time.monotonic() if started is None else started
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parse(words)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed
        return exit_.code if isinstance(exit_.code, int) else EXIT_INPUT
    except BrokenPipeError:  # help printed into a pipe that was closed (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    args.started, args.json_printed = began, False
    if args.command is None:
        parser()[0].print_help()
        return EXIT_OK
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ResourceWarning)  # for developers: a file closed late
        warnings.showwarning = _warning
        _WARNED.clear()
        return _run(COMMANDS[args.command], args)


def _run(command: Command, args: Namespace) -> int:
    try:
        check_outputs(args)
        return command.run(args)
    except KeyboardInterrupt:
        return _interrupted(args)
    except (CubeCountError, NoSolutionError) as err:  # often a typo: say what folds nearby
        try:
            hint = typo_hint(args) if hasattr(args, "snake") else ""
        except KeyboardInterrupt:
            return _interrupted(args)
        return _failed(InputError(f"{err}{hint}"))
    except Exception as err:
        if stop.signalled:  # whatever a stop signal broke (an import, a read) is a stop
            return _interrupted(args)
        return _failed(err)


def _interrupted(args: Namespace) -> int:
    """Say the command was stopped; with --json, the output is still one JSON document."""
    if getattr(args, "json", False) and not args.json_printed:
        with contextlib.suppress(KeyboardInterrupt):
            print_json(args, {"complete": False, "stop_reason": StopReason.INTERRUPTED})
    say("snakecube: interrupted")
    return EXIT_INTERRUPTED


def _failed(err: Exception) -> int:
    """Say what went wrong in one line; the exit code."""
    if isinstance(err, InputError):
        say(f"snakecube: error: {cli_words(str(err))}")
        return EXIT_INPUT
    if isinstance(err, BrokenPipeError):
        # The reader went away (| head): nothing more to say, and nothing to flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    if isinstance(err, OSError):  # a full disk, a read-only folder, a missing permission
        where = f" {str(err.filename)!r}" if err.filename is not None else ""
        say(f"snakecube: error: cannot use{where}: {err.strerror or err}")
        return EXIT_INPUT
    if isinstance(err, MemoryError):
        say("snakecube: error: out of memory; try a smaller target or fewer --workers")
        return EXIT_INPUT
    if os.environ.get("SNAKECUBE_DEBUG"):
        raise err
    say(
        f"snakecube: internal error: {type(err).__name__}: {err} (this is a bug; "
        "SNAKECUBE_DEBUG=1 shows where)"
    )
    return EXIT_BUG
