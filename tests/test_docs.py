"""The documentation's examples are what the program prints.

Every line that starts with ``$ snakecube`` inside a fenced code block of README.md or
docs/*.md is an example. It runs as a real process (the installed ``snakecube`` command) in an
empty temporary directory, so files it writes with ``--out`` or ``> FILE`` land there. The
command is split as a shell would split it (shlex: quotes, and a trailing ``# comment``
dropped); ``> FILE`` sends standard output to FILE.

Every example must exit 0. Its expected output is the lines after it in the same block, up to
the next line starting with ``$ `` or the end of the block; with none, standard output is not
compared, but a file it names with ``--out`` or ``>`` must exist and not be empty. Standard
output is compared with the expected lines one by one, with trailing spaces and trailing blank
lines ignored, and these rules:

* a time may differ: a number followed by `` s`` or `` ms`` matches any other;
* on the ``search`` line (``search  43 nodes in 0.004 s (kernel engine, 1 process)``) the
  node count must match, and the engine and number of processes in brackets may differ;
* a line that is ``...`` (alone, indented or not) matches any number of lines, none included;
* a line ending in `` ...`` matches any line that starts with the text before the `` ...``.

Anything else must match exactly. docs/cli.md says the same in its opening paragraph.
"""

from __future__ import annotations

import difflib
import re
import shlex
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from conftest import HANG, command

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROMPT = "$ snakecube"
# Forms that write a picture need the show extra (matplotlib).
PICTURES = (".pdf", ".png", ".svg", ".gif")


@dataclass(frozen=True)
class Example:
    page: Path
    line: int  # 1-based, of the ``$ snakecube`` line
    text: str  # the command as written, without the ``$ ``
    expected: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def examples(pages: list[Path] = PAGES) -> list[Example]:
    """Every ``$ snakecube`` line inside a fenced block of ``pages``, with its output lines."""
    return [
        Example(page, line, text, tuple(output))
        for page in pages
        for line, text, output in _blocks(page.read_text(encoding="utf-8"))
    ]


def _blocks(markdown: str) -> list[tuple[int, str, list[str]]]:
    """(line number, command, output lines) of each ``$ snakecube`` line in a fenced block."""
    found: list[tuple[int, str, list[str]]] = []
    fence = ""  # the open fence's marker; "" outside a block
    current: tuple[int, str, list[str]] | None = None
    for number, line in enumerate(markdown.splitlines(), 1):
        marker = re.match(r"\s*(```+|~~~+)", line)
        if marker and (not fence or marker.group(1).startswith(fence)):
            current = None
            fence = "" if fence else marker.group(1)
        elif fence and line.startswith("$ "):
            current = (number, line[2:], []) if line.startswith(PROMPT) else None
            if current is not None:
                found.append(current)
        elif current is not None:
            current[2].append(line)
    return found


def split(text: str) -> tuple[list[str], str | None]:
    """The arguments after ``snakecube``, and the file after ``>`` if there is one."""
    words = shlex.split(text, comments=True)
    assert words[0] == "snakecube", text
    words = words[1:]
    if ">" in words:
        at = words.index(">")
        assert at == len(words) - 2, f"'>' must be followed by one file name: {text}"
        return words[:at], words[at + 1]
    return words, None


_TIME = re.compile(r"(?<![\w.])\d+(?:\.\d+)? m?s\b")
_ENGINE = re.compile(r"\([\w-]+ engine, \d+ process(?:es)?\)$")


def normal(line: str) -> str:
    """A line as it is compared: trailing spaces off, any time written as ``<time>``, and on
    the search line the engine and process count as ``(<engine>)``."""
    line = _TIME.sub("<time>", line.rstrip())
    if line.startswith("search "):
        line = _ENGINE.sub("(<engine>)", line)
    return line


def _trimmed(lines: list[str] | tuple[str, ...]) -> list[str]:
    out = [normal(x) for x in lines]
    while out and not out[-1]:
        out.pop()
    return out


def matches(expected: list[str] | tuple[str, ...], actual: list[str]) -> bool:
    """Whether ``actual`` lines are what the ``expected`` lines of the docs allow."""
    want, got = _trimmed(expected), _trimmed(actual)

    @cache
    def fit(i: int, j: int) -> bool:
        while i < len(want):
            line = want[i]
            if line.strip() == "...":  # any number of lines
                return any(fit(i + 1, k) for k in range(j, len(got) + 1))
            if j == len(got):
                return False
            if line.endswith(" ..."):
                if not got[j].startswith(line[:-4]):
                    return False
            elif got[j] != line:
                return False
            i, j = i + 1, j + 1
        return j == len(got)

    return fit(0, 0)


# -- the rules themselves (fast) ---------------------------------------------------------------


def test_the_comparison_rules():
    out = ["snake  ESCE", "search  43 nodes in 0.004 s (kernel engine, 1 process)", "a", "b"]
    assert matches(["snake  ESCE", "search  43 nodes in 0.026 s (kernel engine, 2 processes)",
                    "a", "b"], out)  # fmt: skip
    assert matches(["snake ...", "...", "b"], out)
    assert matches(["...", "search ...", "...", "a", "b", "..."], out)
    assert matches(["snake  ESCE", "...", "", ""], [*out, ""])  # trailing blank lines
    assert matches(["took 12 ms, then 3.5 s"], ["took 0.9 s, then 4 ms"])
    assert not matches(["snake  ESCE", "search  44 nodes in 0.004 s ...", "..."], out)
    assert not matches(["snake  ESCE", "..."], ["snake  ESCS", *out[1:]])  # one line changed
    assert not matches(["snake ...", "a", "b"], out)  # '... ' at the end is one line only
    assert not matches(["snake  ESCE"], out)  # nothing may follow without '...'
    assert not matches(["...", "c"], out)
    assert not matches(["17 segments"], ["17 s"])  # a unit must stand alone
    assert matches([], [])


def test_examples_are_found_in_fenced_blocks_only(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "$ snakecube catalog   # outside a block: not an example\n"
        "```text\n$ snakecube solve standard  # counts\nsnake ...\n...\n"
        "$ minizinc x.mzn\n1 solution\n$ snakecube convert 'a b'\n```\n"
        "```sh\nsnakecube serve\n```\n"
    )
    found = examples([page])
    assert [(e.line, e.text, e.expected) for e in found] == [
        (3, "snakecube solve standard  # counts", ("snake ...", "...")),
        (8, "snakecube convert 'a b'", ()),
    ]
    assert split(found[0].text) == (["solve", "standard"], None)
    assert split("snakecube export standard --format minizinc > s.mzn  # model") == (
        ["export", "standard", "--format", "minizinc"],
        "s.mzn",
    )


def test_every_example_line_is_run():
    """A ``$ snakecube`` line outside a fence would not be run: there are none, and the
    examples are all there."""
    lines = [
        (page, n)
        for page in PAGES
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith(PROMPT)
    ]
    assert sorted((e.page, e.line) for e in examples()) == sorted(lines)
    assert len(lines) >= 14


# -- the examples (real processes) -------------------------------------------------------------


def _marks(example: Example) -> list[pytest.MarkDecorator]:
    args, _ = split(example.text)
    marks = [pytest.mark.slow, pytest.mark.heavy]  # outputs show the compiled kernel's run
    if any(a.endswith(PICTURES) for a in args):
        marks.append(pytest.mark.pictures)
    return marks


@pytest.mark.parametrize(
    "example",
    [pytest.param(e, id=e.where, marks=_marks(e)) for e in examples()],
)
def test_example(example: Example, tmp_path: Path):
    args, into = split(example.text)
    stdout = (tmp_path / into).open("w") if into else subprocess.PIPE
    try:
        done = subprocess.run([*command(), *args], cwd=tmp_path, stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=HANG)  # fmt: skip
    finally:
        if into:
            stdout.close()  # type: ignore[union-attr]
    shown = f"{example.where}: $ {example.text}"
    assert done.returncode == 0, f"{shown}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    written = [into] if into else []
    written += [args[k + 1] for k, a in enumerate(args[:-1]) if a == "--out"]
    for name in written:
        path = tmp_path / name
        assert path.is_file() and path.stat().st_size > 0, f"{shown}: wrote no {name}"
    if not example.expected:
        return
    assert into is None, f"{shown}: output lines after a '> FILE' example"
    actual = done.stdout.splitlines()
    if not matches(example.expected, actual):
        diff = difflib.unified_diff(_trimmed(example.expected), _trimmed(actual),
                                    "the docs", "the program", lineterm="")  # fmt: skip
        pytest.fail(f"{shown}\n" + "\n".join(diff), pytrace=False)
