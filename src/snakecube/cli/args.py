"""Reading the command line: the part of argparse's interface the commands use.

``Parser.add_argument`` takes argparse's keywords (``action="store_true"``, ``type``,
``choices``, ``default``, ``nargs`` of ``"?"``, ``"*"`` or ``"+"``, ``const``, ``required``,
``dest``, ``metavar``, ``help``), and ``add_mutually_exclusive_group`` works as argparse's
does; options may be shortened to any unambiguous prefix and written ``--opt=value``, and
``--`` ends the options. Help and usage errors read as argparse's, and an error is one line
with exit code 2. Two differences, both on purpose: positional words may also come after
options (``solve 3 3 --json 3``), and an option's value may start with '-' when it is not an
option (``--start -1,0,0``).

argparse is not used because it costs every start of the command about 8 ms, more than the
whole solve of a 3x3x3 puzzle: it imports ``re`` and ``gettext``, looks up a translation
for every help string, and makes a formatter for every option (docs/design.md, "Start-up").
tests/test_args.py checks this parser against argparse on the same options.
"""

from __future__ import annotations

import os
import sys

from snakecube.limits import one_line

TYPE_CHECKING = False  # typing's, without importing typing (it loads re: 7 ms)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any, NoReturn

__all__ = ["SUPPRESS", "ArgumentTypeError", "Namespace", "Parser"]

SUPPRESS = "==SUPPRESS=="  # help=SUPPRESS: an option that works but is not listed
_HELP = "show this help message and exit"


class ArgumentTypeError(Exception):
    """Raised by an option's ``type`` function: the value is wrong, and this says why."""


class Namespace:
    """The values read: one attribute per option and positional argument."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    # For type checkers: the attributes are made at run time, one per argument.
    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        self.__dict__[name] = value

    def __contains__(self, name: str) -> bool:
        return name in self.__dict__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Namespace) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return "Namespace(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"


class _Argument:
    """One option (``--box``) or positional argument (``snake``)."""

    __slots__ = ("action", "choices", "const", "default", "dest", "flags", "group", "help",
                 "metavar", "nargs", "required", "type", "version")  # fmt: skip

    def __init__(self, flags: tuple[str, ...], **how: Any) -> None:
        self.flags = flags
        self.action: str = how.pop("action", "store")
        self.nargs: str | None = how.pop("nargs", None)
        default_dest = flags[0].lstrip("-").replace("-", "_")
        self.dest: str = how.pop("dest", None) or default_dest
        self.type: Callable[[str], Any] | None = how.pop("type", None)
        self.choices: Sequence[str] | None = how.pop("choices", None)
        self.const: Any = how.pop("const", None)
        flag = self.action == "store_true"
        self.default: Any = how.pop("default", False if flag else None)
        self.required: bool = how.pop("required", False)
        self.metavar: str | None = how.pop("metavar", None)
        self.help: str | None = how.pop("help", None)
        self.version: str | None = how.pop("version", None)
        self.group: _Group | None = None
        if how:
            raise TypeError(f"add_argument: unknown keyword {sorted(how)[0]!r}")

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")

    @property
    def takes_value(self) -> bool:
        return self.action == "store"

    def name(self) -> str:
        """How errors name it: '--box', or the positional's metavar."""
        return "/".join(self.flags) if not self.positional else self.metavar or self.dest

    def value_name(self) -> str:
        if self.metavar is not None:
            return self.metavar
        if self.choices is not None:
            return "{" + ",".join(self.choices) + "}"
        return self.dest.upper()

    def usage(self) -> str:
        """Its part of the usage line: '--box AxBxC', 'SNAKE [SNAKE ...]'."""
        v = self.value_name()
        if self.positional:
            return {"+": f"{v} [{v} ...]", "*": f"[{v} ...]", "?": f"[{v}]"}.get(
                self.nargs or "", v
            )
        if not self.takes_value:
            return self.flags[0]
        return f"{self.flags[0]} [{v}]" if self.nargs == "?" else f"{self.flags[0]} {v}"


class _Group:
    """Mutually exclusive options: at most one of them (exactly one if ``required``)."""

    def __init__(self, parser: Parser, required: bool) -> None:
        self.parser, self.required, self.members = parser, required, list[_Argument]()

    def add_argument(self, *flags: str, **how: Any) -> None:
        one = self.parser._add(flags, how)
        one.group = self
        self.members.append(one)


class Parser:
    """A command's arguments; with :meth:`add_subparsers`, a tool's commands."""

    def __init__(self, prog: str, description: str | None = None, epilog: str | None = None,
                 help: str | None = None) -> None:  # fmt: skip
        self.prog, self.description, self.epilog, self.summary = prog, description, epilog, help
        self.arguments: list[_Argument] = []
        self.groups: list[_Group] = []
        self.commands: dict[str, Parser] = {}
        self.command_dest = "command"
        self.command_metavar = "COMMAND"
        self.add_argument("-h", "--help", action="help", help=_HELP)

    # -- declaring ---------------------------------------------------------------------------

    def add_argument(self, *flags: str, **how: Any) -> None:
        self._add(flags, how)

    def _add(self, flags: tuple[str, ...], how: dict[str, Any]) -> _Argument:
        one = _Argument(flags, **how)
        if one.action not in ("store", "store_true", "version", "help"):
            raise TypeError(f"add_argument: unknown action {one.action!r}")
        self.arguments.append(one)
        return one

    def add_mutually_exclusive_group(self, required: bool = False) -> _Group:
        group = _Group(self, required)
        self.groups.append(group)
        return group

    def add_subparsers(self, dest: str = "command", metavar: str = "COMMAND") -> Parser:
        """Commands are added with :meth:`add_parser` on the returned object (this parser)."""
        self.command_dest, self.command_metavar = dest, metavar
        return self

    def add_parser(self, name: str, help: str | None = None, epilog: str | None = None) -> Parser:
        one = Parser(f"{self.prog} {name}", description=help, epilog=epilog, help=help)
        self.commands[name] = one
        return one

    # -- reading -----------------------------------------------------------------------------

    def parse_args(self, words: Sequence[str] | None = None) -> Namespace:
        """The values of ``words`` (default: ``sys.argv[1:]``); on bad usage, one line on
        stderr and ``SystemExit(2)``; ``--help`` and ``--version`` exit 0."""
        words = list(sys.argv[1:] if words is None else words)
        values = Namespace()
        self._parse(words, values)
        return values

    # Long by design: one pass over the words, each either an option (with its value) or a
    # positional word, then the checks on what was seen, in argparse's order.
    def _parse(self, words: list[str], values: Namespace) -> None:
        for a in self.arguments:
            if a.action in ("store", "store_true"):
                setattr(values, a.dest, a.default)
        if self.commands:
            setattr(values, self.command_dest, None)
        seen: dict[_Group, _Argument] = {}
        given: set[_Argument] = set()
        positional: list[str] = []
        i, only_positional = 0, False
        while i < len(words):
            word = words[i]
            i += 1
            if only_positional or not word.startswith("-") or _value_like(word, self, alone=True):
                if self.commands and not positional:
                    self._run_command(word, words[i:], values)
                    return
                positional.append(word)
                continue
            if word == "--":
                only_positional = True
                continue
            flag, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
            one = self._option(flag)
            if one.action in ("help", "version", "store_true") and eq:
                self.error(f"argument {one.name()}: ignored explicit argument {attached!r}")
            if one.action == "help":
                _out(self.format_help())
                raise SystemExit(0)
            if one.group is not None:
                other = seen.setdefault(one.group, one)
                if other is not one:
                    self.error(f"argument {one.name()}: not allowed with argument {other.name()}")
            given.add(one)
            if one.action == "version":
                _out(f"{one.version}\n")
                raise SystemExit(0)
            if one.action == "store_true":
                setattr(values, one.dest, True)
                continue
            if eq:
                text = attached
            elif i < len(words) and (not words[i].startswith("-") or _value_like(words[i], self)):
                text, i = words[i], i + 1
            elif one.nargs == "?":
                setattr(values, one.dest, one.const)
                continue
            else:
                self.error(f"argument {one.name()}: expected one argument")
            setattr(values, one.dest, self._convert(one, text))
        self._positionals(positional, values, given)
        missing = [a.name() for a in self.arguments if a.required and a not in given]
        if missing:
            self.error(f"the following arguments are required: {', '.join(missing)}")
        for group in self.groups:
            if group.required and group not in seen:
                names = " ".join(a.name() for a in group.members if a.help != SUPPRESS)
                self.error(f"one of the arguments {names} is required")

    def _run_command(self, name: str, rest: list[str], values: Namespace) -> None:
        one = self.commands.get(name)
        if one is None:
            choices = ", ".join(map(repr, self.commands))
            self.error(f"argument {self.command_metavar}: invalid choice: {name!r}"
                       f"{_near(name, self.commands)} (choose from {choices})")  # fmt: skip
        setattr(values, self.command_dest, name)
        one._parse(rest, values)

    def _option(self, flag: str, quiet: bool = False) -> Any:
        """The option ``flag`` names, exactly or as an unambiguous prefix of one."""
        options = [a for a in self.arguments if not a.positional]
        exact = [a for a in options if flag in a.flags]
        if exact:
            return exact[0]
        if flag.startswith("--") and len(flag) > 2:
            near = [a for a in options if any(f.startswith(flag) for f in a.flags)]
            if len(near) == 1:
                return near[0]
            if len(near) > 1 and not quiet:
                could = ", ".join(f for a in near for f in a.flags if f.startswith(flag))
                self.error(f"ambiguous option: {flag} could match {could}")
        if quiet:
            return None
        flags = [f for a in options for f in a.flags if a.help != SUPPRESS]
        self.error(f"unrecognized arguments: {flag}{_near(flag, flags)}")

    def _convert(self, one: _Argument, text: str) -> Any:
        value: Any = text
        if one.type is not None:
            try:
                value = one.type(text)
            except ArgumentTypeError as err:
                self.error(f"argument {one.name()}: {err}")
            except (TypeError, ValueError):
                kind = getattr(one.type, "__name__", "value")
                self.error(f"argument {one.name()}: invalid {kind} value: {text!r}")
        if one.choices is not None and value not in one.choices:
            choices = ", ".join(map(repr, one.choices))
            near = _near(str(value), one.choices)
            self.error(f"argument {one.name()}: invalid choice: {value!r}{near} "
                       f"(choose from {choices})")  # fmt: skip
        return value

    def _positionals(self, words: list[str], values: Namespace, given: set[_Argument]) -> None:
        """Hand the positional words out in order: one each, the rest to a ``+`` or ``*``."""
        wanted = [a for a in self.arguments if a.positional]
        need = sum(1 for a in wanted if a.nargs in (None, "+"))
        for k, a in enumerate(wanted):
            later = sum(1 for b in wanted[k + 1 :] if b.nargs in (None, "+"))
            if a.nargs in ("+", "*"):
                take = max(len(words) - later, 0)
                if a.nargs == "+" and take == 0:
                    break
                setattr(values, a.dest, [self._convert(a, w) for w in words[:take]])
            elif a.nargs == "?":
                take = 1 if len(words) > later else 0
                if take:
                    setattr(values, a.dest, self._convert(a, words[0]))
            elif words:
                take = 1
                setattr(values, a.dest, self._convert(a, words[0]))
            else:
                break
            words, need = words[take:], need - (a.nargs in (None, "+"))
            given.add(a)
        if need > 0:
            missing = [a.name() for a in wanted if a not in given and a.nargs in (None, "+")]
            self.error(f"the following arguments are required: {', '.join(missing)}")
        if words:
            self.error(f"unrecognized arguments: {' '.join(words)}")

    # -- saying ------------------------------------------------------------------------------

    def error(self, message: str) -> NoReturn:
        """A usage error: one line on stderr, exit code 2."""
        text = f"{self.prog}: error: {message} (see {self.prog} --help)"
        sys.stderr.write(one_line(text) + "\n")
        raise SystemExit(2)

    def print_help(self) -> None:
        _out(self.format_help())

    def format_help(self) -> str:
        """Usage, description, the arguments and their help, then the epilog."""
        import textwrap  # only for help: it loads re

        width = _width()
        shown = [a for a in self.arguments if a.help != SUPPRESS]
        out = [*_usage(f"usage: {self.prog} ", self._usage_parts(shown), width), ""]
        if self.description:
            out += [textwrap.fill(self.description, width), ""]
        rows: list[tuple[str, str]] = []
        if self.commands:
            out.append("commands:")
            rows = [(name, c.summary or "") for name, c in self.commands.items()]
            out += [*_table(rows, width), ""]
        if any(a.positional for a in shown):
            out.append("positional arguments:")
            out += [*_table([(a.value_name(), a.help or "") for a in shown if a.positional],
                            width), ""]  # fmt: skip
        out.append("options:")
        rows = []
        for a in shown:
            if not a.positional:
                show = a.usage() if a.takes_value else ", ".join(a.flags)
                rows.append((show, a.help or ""))
        out += [*_table(rows, width), ""]
        if self.epilog:
            out += [textwrap.fill(self.epilog, width), ""]
        return "\n".join(out)

    def _usage_parts(self, shown: list[_Argument]) -> list[str]:
        parts, done = [], set[_Group]()
        for a in shown:
            if a.positional:
                continue
            if a.group is None:
                parts.append(a.usage() if a.required else f"[{a.usage()}]")
            elif a.group not in done:
                done.add(a.group)
                inner = " | ".join(m.usage() for m in a.group.members if m.help != SUPPRESS)
                parts.append(f"({inner})" if a.group.required else f"[{inner}]")
        parts += [a.usage() for a in shown if a.positional]
        if self.commands:
            parts.append(f"{self.command_metavar} ...")
        return parts


def _near(word: str, names: Iterable[str]) -> str:
    """' (did you mean 'solve'?)' for a near miss, else ''."""
    import difflib  # only for a mistake

    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _negative(word: str) -> bool:
    """A negative number (-3, -0.5), which is a value, not an option."""
    body = word[1:]
    return body.replace(".", "", 1).isdigit() and body.isascii()


def _value_like(word: str, parser: Parser, alone: bool = False) -> bool:
    """Is a word that starts with '-' a value, not an option? A negative number, '-', or
    (as argparse has it) a word with a space that names no option; also, after an option
    that takes a value, any single-dash word that is not an option (-1,0,0)."""
    if _negative(word) or word == "-":
        return True
    if word == "--" or parser._option(word.partition("=")[0], quiet=True) is not None:
        return False
    return " " in word or (not alone and not word.startswith("--"))


def _out(text: str) -> None:
    """Help or the version on standard output; a reader that went away (| head) is fine."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _width() -> int:
    """The terminal's width, read without importing shutil."""
    try:
        return max(40, int(os.environ["COLUMNS"]) - 2)
    except (KeyError, ValueError):
        pass
    try:
        return max(40, os.get_terminal_size().columns - 2)
    except OSError:  # not a terminal
        return 78


def _usage(lead: str, parts: list[str], width: int) -> list[str]:
    """The usage line, wrapped between its parts (never inside '[--limit N]')."""
    lines, line = [], lead
    for part in parts:
        if len(line) + len(part) > width and line.strip() != lead.strip():
            lines.append(line.rstrip())
            line = " " * len(lead)
        line += part + " "
    return [*lines, line.rstrip()]


def _table(rows: list[tuple[str, str]], width: int, column: int = 24) -> list[str]:
    """Names in a column of 24 characters, and their help wrapped beside them."""
    import textwrap

    out = []
    for name, text in rows:
        lead = f"  {name}"
        body = textwrap.wrap(text, max(20, width - column)) or [""]
        if len(lead) + 2 > column:
            out.append(lead)
            lead = ""
        out.append(f"{lead:<{column}}{body[0]}".rstrip())
        out += [" " * column + line for line in body[1:]]
    return out
