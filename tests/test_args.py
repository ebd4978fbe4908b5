"""snakecube.cli.args reads command lines as argparse does, checked against argparse itself
on the real commands' options, and says what is wrong in one line."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakecube.cli import COMMANDS, args, parser
from snakecube.cli.base import ArgumentTypeError


class _Argparse(argparse.ArgumentParser):
    """argparse, reporting an error as an exception (not an exit)."""

    def error(self, message: str):  # type: ignore[override]
        raise ValueError(message)


def _theirs(name: str) -> argparse.ArgumentParser:
    p = _Argparse(prog=f"snakecube {name}")
    COMMANDS[name].options(p)  # type: ignore[arg-type]  # the same declarations
    return p


def _read(p, words):
    """('ok', values) or ('error', message), quietly."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            values = p.parse_args(words)
        except (SystemExit, ValueError, ArgumentTypeError) as e:
            return ("error", str(e) + err.getvalue())
    return ("ok", {k: v for k, v in vars(values).items() if k != "command"})


def _ours(name: str) -> args.Parser:
    p = args.Parser(prog=f"snakecube {name}")
    COMMANDS[name].options(p)
    return p


# Words each command may see: options with good and bad values, after the positional words
# (argparse refuses positional words after options; that difference is deliberate).
VALUES = ["3x3x3", "2x2", "5", "0", "x", "auto", "last", "lex", "1,0,0", "0.5", "a.csv"]
PICK = st.sampled_from


def _options(name: str) -> list[str]:
    return [f for a in _ours(name).arguments if not a.positional for f in a.flags]


@st.composite
def command_lines(draw, name: str):
    words = draw(st.lists(PICK(["standard", "3", "ESCSE", "0,0,0"]), min_size=0, max_size=3))
    for _ in range(draw(st.integers(0, 4))):
        flag = draw(PICK(_options(name)))
        if flag.startswith("--") and draw(st.booleans()):
            flag = flag[: draw(st.integers(3, len(flag)))]  # a prefix, maybe ambiguous
        words.append(flag)
        if draw(st.integers(0, 3)):
            value = draw(PICK(VALUES))
            words += [value] if draw(st.booleans()) else [words.pop() + "=" + value]
    return words


@pytest.mark.parametrize("name", ["solve", "show", "fold", "designs", "check", "export", "flat"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_agrees_with_argparse(name, data):
    words = data.draw(command_lines(name))
    mine, theirs = _read(_ours(name), words), _read(_theirs(name), words)
    said = theirs[1] if theirs[0] == "error" else ""
    late = said.partition("unrecognized arguments: ")[2].split()
    if late and not any(w.startswith("-") for w in late):
        # Deliberate: positional words may come after options (argparse refuses them).
        assert mine[0] == "error" or all(w in str(mine[1]) for w in late), (words, mine)
        return
    assert mine[0] == theirs[0], (words, mine, theirs)
    if mine[0] == "ok":
        assert mine[1] == theirs[1], words


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["frobnicate"], "argument COMMAND: invalid choice: 'frobnicate' (choose from"),
        (["solve", "standard", "--first", "--limit", "2"],
         "argument --limit: not allowed with argument --first"),
        (["solve", "standard", "--limit"], "argument --limit: expected one argument"),
        (["solve", "standard", "--limit", "x"], "argument --limit: 'x' is not a whole number"),
        (["solve", "standard", "--end", "middle"], "argument --end: invalid choice: 'middle'"),
        (["solve", "standard", "--s", "5"], "ambiguous option: --s could match --seconds"),
        (["solve", "standard", "--frob"], "unrecognized arguments: --frob"),
        (["solve", "standard", "--json=yes"], "argument --json: ignored explicit argument"),
        (["solve"], "the following arguments are required: SNAKE"),
        (["designs"], "one of the arguments --box --region is required"),
        (["web"], "the following arguments are required: --out"),
        (["check", "standard", "--box", "3x3x3", "extra", "-y"], "unrecognized arguments: -y"),
        (["web", "--out", "-h"], "argument --out: expected one argument"),
        (["serve", "--h", "0.0.0.0"], "ambiguous option: --h could match --help, --host"),
        (["solve", "standard", "--help=yes"], "argument -h/--help: ignored explicit argument"),
        (["--version=1"], "argument --version: ignored explicit argument"),
        (["solv", "standard"], "invalid choice: 'solv' (did you mean 'solve'?)"),
        (["solve", "standard", "--secnds", "4"], "--secnds (did you mean '--seconds'?)"),
        (["solve", "standard", "--end", "lst"], "invalid choice: 'lst' (did you mean 'last'?)"),
    ],
)  # fmt: skip
def test_usage_errors_are_one_line_exit_2(capsys, words, said):
    with pytest.raises(SystemExit) as stop:
        parser(words[0] if words[0] in COMMANDS else None).parse_args(words)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and said in err and err.count("\n") == 1, err
    assert err.startswith("snakecube") and err.rstrip().endswith("--help)")


def test_values_prefixes_and_separators():
    p = parser("solve")
    v = p.parse_args(["solve", "3", "3", "--sec=2.5", "--start", "-1,0,0", "--", "--odd"])
    assert v.command == "solve" and v.snake == ["3", "3", "--odd"]
    assert v.seconds == 2.5 and v.start == "-1,0,0" and v.end == "auto" and v.json is False
    e = parser("export").parse_args(["export", "standard", "--symmetry-breaking"])
    assert e.symmetry_breaking == "auto"
    c = parser("check").parse_args(["check", "standard", "0,0,0", "1,0,0"])
    assert c.snake == "standard" and c.solution == ["0,0,0", "1,0,0"]
    d = parser("designs").parse_args(["designs", "--box", "2x2x2", "--checkpoint", "x"])
    assert d.checkpoint == "x"
    # A quoted word with a space is a value, even when it starts with '-' (as in argparse).
    c = parser("check").parse_args(["check", "standard", "-x +y +x"])
    assert c.solution == ["-x +y +x"]
    assert parser("solve").parse_args(["solve", "x", "--region", "-"]).region == "-"


def test_help_by_prefix_and_into_a_closed_pipe(capsys):
    with pytest.raises(SystemExit) as stop:
        parser("solve").parse_args(["solve", "--h"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("usage: snakecube solve")
    for words in (["solve", "-h"], ["--version"]):
        proc = subprocess.run([sys.executable, "-m", "snakecube", *words], capture_output=True,
                              text=True, env={**os.environ, "COLUMNS": "200"})  # fmt: skip
        assert proc.returncode == 0 and proc.stderr == ""
    closed = subprocess.run(f"{sys.executable} -m snakecube solve -h | (exec 0<&-; true)",
                            shell=True, capture_output=True, text=True)  # fmt: skip
    assert closed.returncode == 0 and closed.stderr == ""


def test_help_fits_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    wide = parser("solve").commands["solve"].format_help()
    monkeypatch.setenv("COLUMNS", "60")
    narrow = parser("solve").commands["solve"].format_help()
    assert max(map(len, wide.splitlines())) > 100 and len(narrow.splitlines()) > len(
        wide.splitlines()
    )


def test_help_lists_every_option_but_hidden_ones(capsys):
    for name, command in COMMANDS.items():
        with pytest.raises(SystemExit) as stop:
            parser(name).parse_args([name, "--help"])
        text = capsys.readouterr().out
        assert stop.value.code == 0 and text.startswith(f"usage: snakecube {name} ")
        for a in _ours(name).arguments:
            shown = a.flags[0] if not a.positional else (a.metavar or a.dest)
            assert (shown in text) == (a.help != args.SUPPRESS), (name, shown)
        assert command.help in " ".join(text.split())
    with pytest.raises(SystemExit):
        parser().parse_args(["--help"])
    text = capsys.readouterr().out
    assert all(name in text for name in COMMANDS) and "--version" in text
