"""Faults in the fold census (issue 37): a journal of another census or a damaged one is
refused, an interrupted search is never counted, Ctrl-C exits 130 with whatever the worker
count, and a file that cannot be written is one line, exit 2.

The right totals are from the issue: 1,085 solutions for the 2x3x3 box, 267 for 2x2x4.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

import snakecube.census
import snakecube.search
from snakecube.errors import InputError
from snakecube.fold import survey
from snakecube.shape import Box

TOTALS = {"2x3x3": 1085, "2x2x4": 267}


def _sha(entry: dict) -> str:
    """The journal's checksum, as its format says: SHA-256 of the canonical JSON."""
    body = {k: v for k, v in entry.items() if k != "sha"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _signed(entry: dict) -> bytes:
    return (json.dumps({**entry, "sha": _sha(entry)}) + "\n").encode()


def _stopped(box: str, out: Path, designs: int) -> Path:
    """A journal of ``box`` with ``designs`` finished designs: the run is interrupted (as
    Ctrl-C does) as soon as they are journalled."""

    def stop(done: int, total: int, found: int) -> None:
        if done >= designs:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        survey.run(Box.parse(box), out, workers=1, progress=stop)
    assert not out.exists()
    return Path(f"{out}.journal")


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> Callable[[str], bytes]:
    """The CSV of an uninterrupted run of a box (made once, when first asked for)."""
    root = tmp_path_factory.mktemp("clean")

    @functools.cache
    def csv(box: str) -> bytes:
        out = root / f"{box}.csv"
        assert survey.run(Box.parse(box), out, workers=1) == TOTALS[box]
        return out.read_bytes()

    return csv


def _cli(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "snakecube", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,  # its own process group, to press Ctrl-C on it and its workers
    )


def _fold_census(box: str, csv: Path, *more: str) -> tuple[int, str, str]:
    proc = _cli("fold-census", "--box", box, "--csv", str(csv), "--quiet", *more, cwd=csv.parent)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    assert "Traceback" not in err
    return proc.returncode, out, err


def _refused(box: str, csv: Path, *words: str) -> str:
    """The run exits 2 with one line naming the journal, and leaves it and the CSV as
    they were."""
    journal = Path(f"{csv}.journal")
    before = journal.read_bytes()
    code, out, err = _fold_census(box, csv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert repr(str(journal)) in err
    for word in words:
        assert word in err
    assert journal.read_bytes() == before and not csv.exists()
    return err


# A journal of another census, or one made by hand --------------------------------------------


@pytest.mark.slow
def test_the_journal_of_another_box_is_refused(tmp_path):
    # Issue 37: an interrupted 1x3x6 run, then 2x3x3 with the same CSV, gave 1,064 solutions.
    csv = tmp_path / "m.csv"
    journal = _stopped("1x3x6", csv, 30)
    assert len(journal.read_bytes().splitlines()) == 31  # the header and 30 designs
    _refused("2x3x3", csv, "another fold census", "1x3x6")


def test_the_journal_of_other_options_is_refused(tmp_path, monkeypatch):
    csv = tmp_path / "m.csv"
    _stopped("2x2x3", csv, 3)
    monkeypatch.setattr(survey, "NODES", survey.NODES // 2)
    with pytest.raises(InputError, match=r"another fold census \(nodes"):
        survey.run(Box.parse("2x2x3"), csv, workers=1)


@pytest.mark.slow
def test_a_hand_made_one_line_journal_is_refused(tmp_path):
    # Issue 37: a one-line journal made --box 2x2x4 report 215 solutions instead of 267.
    csv = tmp_path / "m.csv"
    journal = Path(f"{csv}.journal")
    rows = [{"design": "ECCCSCCCCCSCSCCE", "solution": 1, "end": "first"}]
    journal.write_text(json.dumps({"design": "ECCCSCCCCCSCSCCE", "rows": rows}) + "\n")
    _refused("2x2x4", csv, "not the header of a fold-census journal")


# Damaged journals -----------------------------------------------------------------------------


def _lines(journal: Path) -> list[bytes]:
    return journal.read_bytes().splitlines(keepends=True)


def _damage_garbage(journal: Path) -> None:
    lines = _lines(journal)
    journal.write_bytes(b"".join(lines[:2]) + bytes(range(256)) + b"\n" + b"".join(lines[2:]))


def _damage_shape(journal: Path) -> None:  # JSON, checksummed, but not a record
    lines = _lines(journal)
    journal.write_bytes(b"".join(lines[:2]) + _signed({"design": [1, 2]}) + b"".join(lines[2:]))


def _damage_checksum(journal: Path) -> None:  # one number changed
    lines = _lines(journal)
    entry = json.loads(lines[2])
    entry["rows"][0]["lower_bound"] += 2
    lines[2] = (json.dumps(entry) + "\n").encode()
    journal.write_bytes(b"".join(lines))


def _damage_torn_middle(journal: Path) -> None:
    lines = _lines(journal)
    lines[1] = lines[1][: len(lines[1]) // 2]
    journal.write_bytes(b"".join(lines))


def _damage_few_rows(journal: Path) -> None:  # checksummed, but a solution is missing
    lines = _lines(journal)
    entry = json.loads(lines[-1])
    del entry["sha"]
    entry["rows"] = entry["rows"][:-2]
    journal.write_bytes(b"".join(lines[:-1]) + _signed(entry))


def _damage_alien_design(journal: Path) -> None:  # checksummed, a design of another box
    design = "ECCCCCCCCCCSCSSSSE"  # of the 1x3x6 box, one solution
    rows = [
        {
            "design": design,
            "solution": 1,
            "end": end,
            "lower_bound": 0,
            "in_order": 1,
            "turns": 0,
            "extra": 0,
            "clear_turns": 0,
            "clear_extra": 0,
        }
        for end in ("first", "last")
    ]
    with journal.open("ab") as f:
        f.write(_signed({"design": design, "rows": rows}))


def _damage_twice(journal: Path) -> None:
    lines = _lines(journal)
    journal.write_bytes(b"".join(lines) + lines[1])


DAMAGE = {
    "garbage bytes": (_damage_garbage, "line 3: not a line of JSON"),
    "JSON of the wrong shape": (_damage_shape, "line 3: not a design's record"),
    "a bad checksum": (_damage_checksum, "line 3: bad checksum"),
    "a line torn in the middle": (_damage_torn_middle, "line 2: not a line of JSON"),
    "rows that do not match the design": (_damage_few_rows, "solutions (2 rows each)"),
    "a design of another box": (_damage_alien_design, "is not a design of the 2x2x4 box"),
    "a design recorded twice": (_damage_twice, "recorded twice"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_journal_is_refused(tmp_path, damage):
    csv = tmp_path / "m.csv"
    journal = _stopped("2x2x4", csv, 5)
    spoil, message = DAMAGE[damage]
    spoil(journal)
    before = journal.read_bytes()
    with pytest.raises(InputError, match="cannot resume from") as err:
        survey.run(Box.parse("2x2x4"), csv, workers=1)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert journal.read_bytes() == before and not csv.exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    "damage",
    ["garbage bytes", "JSON of the wrong shape", "a bad checksum", "a line torn in the middle"],
)
def test_a_damaged_journal_is_one_line_and_exit_2(tmp_path, damage):
    csv = tmp_path / "m.csv"
    spoil, message = DAMAGE[damage]
    spoil(_stopped("2x2x4", csv, 5))
    _refused("2x2x4", csv, message, "damaged")


def test_a_journal_that_is_not_a_file_is_refused(tmp_path):
    csv = tmp_path / "m.csv"
    os.mkfifo(f"{csv}.journal")  # reading it would wait for a writer for ever
    with pytest.raises(InputError, match="not a regular file"):
        survey.run(Box.parse("2x2x3"), csv, workers=1)


@pytest.mark.slow
def test_a_torn_last_line_is_what_a_kill_leaves_and_is_done_again(tmp_path, clean):
    csv = tmp_path / "m.csv"
    journal = _stopped("2x2x4", csv, 20)
    lines = _lines(journal)
    journal.write_bytes(b"".join(lines) + lines[-1][:100])  # killed while writing a line
    code, _, err = _fold_census("2x2x4", csv)
    assert code == 0, err
    assert f"{TOTALS['2x2x4']} solutions" in err
    assert csv.read_bytes() == clean("2x2x4") and not journal.exists()


def test_a_torn_header_is_a_journal_with_nothing_in_it(tmp_path, clean):
    csv = tmp_path / "m.csv"
    journal = _stopped("2x2x4", csv, 1)
    journal.write_bytes(journal.read_bytes()[:50])
    assert survey.run(Box.parse("2x2x4"), csv, workers=1) == TOTALS["2x2x4"]
    assert csv.read_bytes() == clean("2x2x4")


# Stopped searches are not counted -------------------------------------------------------------


def _search_stops(monkeypatch, reason: str, at: int) -> None:
    """The ``at``-th search stops early, for ``reason``, with all but one solution."""
    real = snakecube.search.solve
    calls = []

    def solve(*args, **kwargs):
        found = real(*args, **kwargs)
        calls.append(1)
        if len(calls) != at:
            return found
        return replace(found, solutions=found.solutions[:-1], complete=False, stop_reason=reason)

    monkeypatch.setattr(survey, "solve", solve)


def test_ctrl_c_in_a_search_is_an_interrupt_not_fewer_solutions(tmp_path, monkeypatch, clean):
    # Issue 37: --workers 1, a KeyboardInterrupt inside solve() gave 1,072 instead of 1,085.
    csv = tmp_path / "m.csv"
    _search_stops(monkeypatch, "interrupted", 7)
    with pytest.raises(KeyboardInterrupt):
        survey.run(Box.parse("2x2x4"), csv, workers=1)
    assert not csv.exists()
    assert len(_lines(Path(f"{csv}.journal"))) == 7  # the header and the 6 designs finished
    monkeypatch.undo()
    assert survey.run(Box.parse("2x2x4"), csv, workers=1) == TOTALS["2x2x4"]
    assert csv.read_bytes() == clean("2x2x4")


def test_a_search_stopped_by_a_limit_is_not_counted(tmp_path, monkeypatch):
    csv = tmp_path / "m.csv"
    _search_stops(monkeypatch, "nodes", 2)
    with pytest.raises(RuntimeError, match="stopped early"):
        survey.run(Box.parse("2x2x3"), csv, workers=1)
    assert not csv.exists() and len(_lines(Path(f"{csv}.journal"))) == 2


def test_ctrl_c_in_the_census_of_designs_is_an_interrupt(tmp_path, monkeypatch):
    real = snakecube.census.census

    def press_ctrl_c(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(survey, "census", lambda box: real(box, progress=press_ctrl_c))
    with pytest.raises(KeyboardInterrupt):
        survey.run(Box.parse("2x2x3"), tmp_path / "m.csv", workers=1)
    assert not (tmp_path / "m.csv").exists()


# Ctrl-C in a real process ---------------------------------------------------------------------


def _press_ctrl_c(csv: Path, workers: str) -> tuple[int, str]:
    """Run the 2x3x3 fold census; press Ctrl-C (on its process group, as a terminal does)
    once it has journalled a design. Returns its exit code and stderr."""
    journal = Path(f"{csv}.journal")
    proc = _cli(
        "fold-census",
        "--box",
        "2x3x3",
        "--csv",
        str(csv),
        "--quiet",
        "--workers",
        workers,
        cwd=csv.parent,
    )
    try:
        while proc.poll() is None:
            if journal.exists() and journal.read_bytes().count(b"\n") >= 2:
                os.killpg(proc.pid, signal.SIGINT)
                break
            time.sleep(0.002)
        _, err = proc.communicate(timeout=60)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, err


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_exits_130_and_the_rerun_finishes_exactly(tmp_path, clean, workers):
    csv = tmp_path / "m.csv"
    for _ in range(3):  # the whole run takes about a second: it may finish before the press
        code, err = _press_ctrl_c(csv, workers)
        if code != 0:
            break
        csv.unlink()
    assert code == 130, err
    assert "Traceback" not in err and len(err.splitlines()) == 1 and "interrupted" in err
    journal = Path(f"{csv}.journal")
    assert not csv.exists() and journal.read_bytes().count(b"\n") >= 2
    code, _, err = _fold_census("2x3x3", csv, "--workers", workers)
    assert code == 0, err
    assert f"{TOTALS['2x3x3']} solutions" in err
    assert csv.read_bytes() == clean("2x3x3") and not journal.exists()


# Files that cannot be written -----------------------------------------------------------------


@pytest.mark.slow
def test_a_read_only_directory_is_one_line_and_exit_2(small_disk):
    csv = small_disk("ro", "ro") / "m.csv"
    code, _, err = _fold_census("2x2x3", csv, "--workers", "1")
    assert code == 2 and len(err.splitlines()) == 1, err
    # The output is checked before any work: the CSV's own name, not its journal's.
    assert f"cannot write {str(csv)!r}" in err and "Read-only" in err
    assert not list(csv.parent.iterdir())


@pytest.mark.slow
def test_a_full_disk_under_the_journal_is_one_line_and_exit_2(small_disk):
    csv = small_disk("full") / "m.csv"  # the 2x3x3 journal needs about 300 KB
    code, _, err = _fold_census("2x3x3", csv, "--workers", "1")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"cannot write {str(csv) + '.journal'!r}: No space left on device" in err
    assert not csv.exists()


@pytest.mark.slow
def test_a_full_disk_under_the_csv_is_one_line_and_exit_2(tmp_path, small_disk):
    # Every design journalled, then the disk is full: the CSV cannot be written.
    whole = _stopped("2x2x3", tmp_path / "m.csv", 17)
    disk = small_disk("full")
    csv = disk / "m.csv"
    shutil.copy(whole, f"{csv}.journal")
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        with pytest.raises(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    code, _, err = _fold_census("2x2x3", csv, "--workers", "1")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"cannot write {str(csv)!r}: No space left on device" in err
    assert not csv.exists() and Path(f"{csv}.journal").read_bytes() == whole.read_bytes()


def test_a_journal_that_cannot_be_written_is_an_input_error(tmp_path, monkeypatch):
    # A full disk seen on a write or a flush of the journal, wherever the test runs.
    real_open = Path.open

    class Full:
        def __init__(self, f) -> None:
            self.f, self.lines = f, 0

        def write(self, data: bytes) -> int:
            self.lines += 1
            if self.lines > 3:
                raise OSError(28, "No space left on device")
            return self.f.write(data)

        def flush(self) -> None:
            self.f.flush()

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self.f.close()

    def open_(path: Path, mode: str = "r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        return Full(f) if path.name.endswith(".journal") and "b" in mode and "r" not in mode else f

    monkeypatch.setattr(Path, "open", open_)
    csv = tmp_path / "m.csv"
    with pytest.raises(InputError, match=r"cannot write .*m\.csv\.journal': No space left"):
        survey.run(Box.parse("2x2x3"), csv, workers=1)
    assert not csv.exists()
