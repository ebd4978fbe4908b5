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

Anything else must match exactly. A line ``^C`` is Ctrl-C: SIGINT is sent once standard
output has the lines above it; the command must then exit 130, and the lines below it are
the last lines it printed (standard output, then standard error), with any number in them
free to differ (how far a stopped command got depends on the machine). docs/cli.md says the
same in its opening paragraph.
"""

from __future__ import annotations

import difflib
import re
import shlex
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from conftest import HANG, command, stop_groups

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
    assert matches(
        ["snake  ESCE", "search  43 nodes in 0.026 s (kernel engine, 2 processes)", "a", "b"], out
    )
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
    if CTRL_C in example.expected:
        _interrupted(example, args, tmp_path)
        return
    stdout = (tmp_path / into).open("w") if into else subprocess.PIPE
    try:
        done = subprocess.run(
            [*command(), *args],
            cwd=tmp_path,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=HANG,
        )
    finally:
        if into:
            stdout.close()  # type: ignore[union-attr]
    shown = f"{example.where}: $ {example.text}"
    assert done.returncode == 0, f"{shown}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    written = [into] if into else []
    written += [args[k + 1] for k, a in enumerate(args[:-1]) if a == "--out"]
    for name in written:
        path = tmp_path / name
        if name.endswith("/"):  # a folder of files (make --out DIR/)
            files = list(path.iterdir()) if path.is_dir() else []
            assert files and all(f.stat().st_size > 0 for f in files), f"{shown}: wrote no {name}"
            continue
        assert path.is_file() and path.stat().st_size > 0, f"{shown}: wrote no {name}"
    if not example.expected:
        return
    assert into is None, f"{shown}: output lines after a '> FILE' example"
    actual = done.stdout.splitlines()
    if not matches(example.expected, actual):
        diff = difflib.unified_diff(
            _trimmed(example.expected), _trimmed(actual), "the docs", "the program", lineterm=""
        )
        pytest.fail(f"{shown}\n" + "\n".join(diff), pytrace=False)


CTRL_C = "^C"


def _interrupted(example: Example, args: list[str], tmp_path: Path) -> None:
    """An example with a ``^C`` line: SIGINT once the lines above it are printed; exit 130,
    and the lines below it end what was printed, numbers aside."""
    import os
    import signal

    at = example.expected.index(CTRL_C)
    before, after = example.expected[:at], example.expected[at + 1 :]
    shown = f"{example.where}: $ {example.text}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # lines as a terminal shows them
    proc = subprocess.Popen(
        [*command(), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + HANG
    while not matches(before, lines) and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
    assert matches(before, lines), f"{shown}: printed {lines} before it ended"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 130, f"{shown}\nexit {proc.returncode}\n{err[-2000:]}"
    printed = _trimmed([*lines, *out.splitlines(), *err.splitlines()])
    last = printed[len(printed) - len(after) :]
    digits = re.compile(r"\d+")
    assert [digits.sub("N", x) for x in last] == [digits.sub("N", x) for x in _trimmed(after)], (
        f"{shown}\nends with {last}"
    )


# -- the benchmark commands as the docs write them (real processes) ---------------------------

BENCHMARK = re.compile(r"\.venv/bin/python\s+(benchmarks/\w+\.py)([^#]*)")


def benchmark_commands(pages: list[Path] = PAGES) -> list[tuple[str, tuple[str, ...]]]:
    """Every ``.venv/bin/python benchmarks/X.py ARGS`` of ``pages``: in code blocks, a line's
    command up to a ``#`` comment; in the text, an inline code span (which may wrap)."""
    found: set[tuple[str, tuple[str, ...]]] = set()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        fenced = re.compile(r"^(```+|~~~+)[^\n]*\n(.*?)^\1", re.S | re.M)
        # a line ending in a backslash goes on in the next, as in a shell
        blocks = [m[2].replace("\\\n", " ") for m in fenced.finditer(text)]
        lines = [line for block in blocks for line in block.splitlines()]
        spans = [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", fenced.sub("", text))]
        for snippet in lines + spans:
            for m in BENCHMARK.finditer(snippet):
                found.add((m[1], tuple(shlex.split(m[2]))))
    return sorted(found)


def test_no_benchmark_command_needs_the_environment_activated():
    """``python3 benchmarks/...`` finds no snakecube outside the virtual environment: every
    command the docs give runs the environment's interpreter, and there are such commands."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        bare = re.search(r"(?<![/\w.])python3?\s+benchmarks/\w+\.py", text)
        assert bare is None, f"{page.relative_to(ROOT)}: {bare[0] if bare else ''}"
    scripts = {s for s, _ in benchmark_commands()}
    assert {"benchmarks/run.py", "benchmarks/hard.py", "benchmarks/web.py"} <= scripts


@pytest.mark.slow
@pytest.mark.parametrize(
    "script,args", [pytest.param(s, a, id=" ".join([s, *a])) for s, a in benchmark_commands()]
)
def test_a_benchmark_command_runs_as_the_docs_write_it(script: str, args: tuple[str, ...]):
    """Run with ``--dry-run`` (benchmarks/bench.py): the interpreter finds snakecube and what
    the benchmark measures with, and every option is one the script takes; nothing is
    measured. The docs' interpreter, ``.venv/bin/python``, where there is one (CI installs
    elsewhere: then this test's own)."""
    venv = ROOT / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    done = subprocess.run(
        [python, script, *args, "--dry-run"], cwd=ROOT, capture_output=True, text=True, timeout=HANG
    )
    assert done.returncode == 0, f"{script} {' '.join(args)}\n{done.stderr[-2000:]}"
    assert "nothing measured (--dry-run)" in done.stdout


# -- the local Dask cluster of docs/cli.md (real processes) -----------------------------------


def dask_recipe() -> list[list[str]]:
    """The lines of docs/cli.md's cluster on one machine, as words (without the ``&``)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
    block = next(b for b in blocks if "dask scheduler" in b)
    return [shlex.split(line.strip().removesuffix("&")) for line in block.splitlines() if line]


@pytest.mark.slow
def test_the_local_dask_cluster_runs_as_the_docs_write_it(tmp_path: Path):
    """A real ``dask scheduler`` and ``dask worker`` started as the recipe says (on a free
    port, in place of its 8786), then its ``snakecube designs`` line, whose census is the
    one the docs give; both processes and their children are stopped at the end."""
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    scheduler, worker, census = dask_recipe()
    assert scheduler[1:2] == ["scheduler"] and worker[1:2] == ["worker"], dask_recipe()
    assert census[1:3] == ["designs", "--box"] and "--scheduler" in census
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    venv = ROOT / ".venv" / "bin"
    here = venv if venv.exists() else Path(sys.executable).parent

    def local(words: list[str]) -> list[str]:
        """The words with the free port, the environment's programs found as the docs say."""
        exe = here / Path(words[0]).name
        return [str(exe), *(w.replace("8786", str(port)) for w in words[1:])]

    started = []
    try:
        for words, log in ((scheduler, "scheduler.log"), (worker, "worker.log")):
            with (tmp_path / log).open("w") as out:
                started.append(
                    subprocess.Popen(
                        local(words),
                        cwd=tmp_path,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
            if words is scheduler:  # the census needs the scheduler listening
                deadline = time.monotonic() + HANG
                while not _listening(port):
                    assert time.monotonic() < deadline, (tmp_path / log).read_text()[-2000:]
                    time.sleep(0.2)
        done = subprocess.run(
            local(census), cwd=tmp_path, capture_output=True, text=True, timeout=10 * HANG
        )
    finally:
        stop_groups(started)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "designs        13901" in done.stdout.splitlines()  # as the docs say, and docs/census.md
    assert (tmp_path / census[census.index("--store") + 1]).is_dir()


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


# -- figures the docs give ---------------------------------------------------------------------


def test_the_region_example_is_the_block_its_comment_says():
    """docs/cli.md's region: its comment names the box it lies in, as the tool says it."""
    from snakecube import Region

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text[text.index("## Regions") :]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None
    said = re.search(r"a (\d+x\d+x\d+) block", block[1])
    assert said is not None and f"within {said[1]}" in Region.parse(block[1]).describe()


def test_the_design_gives_the_scheduler_s_deadline_the_code_has():
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    from snakecube.cluster import CONNECT_SECONDS

    text = " ".join((ROOT / "docs" / "design-census.md").read_text(encoding="utf-8").split())
    said = re.search(r"An unreachable scheduler is one line too, after (\d+) s", text)
    assert said is not None and int(said[1]) == CONNECT_SECONDS


_PAGES = re.compile(rb"/Type\s*/Page[^s]")


@pytest.mark.slow
@pytest.mark.pictures
def test_the_dry_run_s_pages_and_sizes_are_what_the_commands_make(tmp_path: Path):
    """docs/dry-run.md gives, beside each command, the pages of the PDF it writes or the
    size of its file: the commands are run and their files measured."""
    pytest.importorskip("matplotlib", reason="the show extra is not installed")
    text = (ROOT / "docs" / "dry-run.md").read_text(encoding="utf-8")
    block = re.search(r"^```sh\n(.*?)^```", text, re.S | re.M)
    assert block is not None
    claims = 0
    for line in block[1].splitlines():
        if not line.startswith("snakecube "):
            continue
        words, _, note = line.partition("#")
        args = shlex.split(words)[1:]
        done = subprocess.run(
            [*command(), *args], cwd=tmp_path, capture_output=True, text=True, timeout=HANG * 3
        )
        assert done.returncode == 0, (line, done.stderr[-2000:])
        written = tmp_path / args[args.index("--out") + 1]
        if pages := re.match(r"\s*(\d+) pages", note):
            got = len(_PAGES.findall(written.read_bytes()))
            assert got == int(pages[1]), f"{line}: {got} pages"
            claims += 1
        if size := re.match(r"\s*(\d+) kB", note):
            got_kb = written.stat().st_size / 1000
            assert abs(got_kb - int(size[1])) <= 0.1 * int(size[1]), f"{line}: {got_kb:.0f} kB"
            claims += 1
    assert claims >= 5


def test_the_readme_says_how_long_the_tests_take():
    """A new user learns before running it how long the suite takes, and that a fast loop
    exists (and its command)."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert re.search(r"The whole suite takes about [\d½]+ minutes", text)
    assert re.search(r"the fast loop [^.]* takes about [\d½]+ minutes", text)
    assert re.search(r'-m pytest (-n auto )?-m "not slow and not pictures and not browser"', text)
