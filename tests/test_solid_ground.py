"""Solid ground: every case of the solid-ground issue, as a regression test.

Bad input answers at once, on one line, with exit code 2; sizes are checked before anything
is built; numbers are ASCII; nothing recurses; the API raises InputError or TypeError only;
output files survive long names; Ctrl-C exits 130 with what was found, never a partial score.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import snakecube as sc
from snakecube.cli import main
from snakecube.search import kernel

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *args, words="", seconds=1.0):
    """The command answers exit 2 at once, with one line naming the problem."""
    began = time.monotonic()
    code, out, err = run(capsys, *args)
    took = time.monotonic() - began
    assert code == 2, (args, code, out, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert words in err, err
    assert took < seconds, (args, took)
    return err


# -- a bare clone ---------------------------------------------------------------------------
def test_tests_need_nothing_outside_the_repository():
    import corpus

    assert corpus.KNOWN_PATH.is_relative_to(ROOT) and corpus.KNOWN_PATH.exists()
    outside = re.compile(r"parents\[2\]|\.\./shared|\"shared\" /")
    for path in ROOT.joinpath("tests").glob("*.py"):
        if path.name != Path(__file__).name:
            assert not outside.search(path.read_text()), path.name


# -- sizes are checked before anything is built ------------------------------------------------
ELBOWS = "3,5,7,9,10,11,12,14,16,17,18,20,21,23,24,25"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "standard", "--box", "1000x1000x1000"], "at most 1000"),
        (["solve", "standard", "--box", "4300"], "4300 is too large"),
        (["designs", "--box", "1000x1000x1000"], "at most 1000"),
        (["designs", "--box", "5x5x5"], "at most 64"),
        (["generate", "--box", "60x60x60"], "at most 1000"),
        (["generate", "--box", "6x6x6"], "at most 125 for generate"),
        (["solve", "elbows:999999999999999999999999999999"], "too large"),
        (["solve", f"elbows:{ELBOWS}elbows:{ELBOWS}"], "elbows:"),
        (["solve", f"elbows:{ELBOWS},2533,3,3"], "elbows:"),
        (["solve", "lengths:1000000000"], "1000000000 cubes; snakecube handles at most 1000"),
        (["convert", "lengths:99999999999"], "at most 1000"),
        (["convert", "9" * 5000], "run together"),
        (["solve", "lengths:" + "9" * 5000], "too large"),
    ],
)
def test_sizes_are_refused_at_once(capsys, args, words):
    refused(capsys, *args, words=words)


def test_a_two_million_cell_region_is_refused_at_once(capsys, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(("#" * 2000 + "\n") * 1000)
    refused(capsys, "solve", "standard", "--region", str(big), words="larger than")
    many = tmp_path / "many.txt"
    many.write_text(("#" * 100 + "\n") * 20)
    refused(capsys, "solve", "standard", "--region", str(many), words="at most 1000")
    refused(capsys, "solve", "standard", "--region", str(tmp_path), words="cannot read")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe##")
    refused(capsys, "solve", "standard", "--region", str(binary), words="not UTF-8")


# -- numbers -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "lengths:3,²"], "'²' is not a whole number"),
        (["solve", "lengths:3,₃"], "'₃' is not a whole number"),
        (["solve", "lengths:3,🄊"], "is not a whole number"),
        (["solve", "3,3,٣"], "not a catalog name"),
        (["solve", "standard", "--box", "³"], "not a whole number"),
        (["solve", "standard", "--limit", "²"], "not a whole number"),
        (["solve", "standard", "--limit", "9" * 400], "too large"),
        (["solve", "standard", "--seconds", "nan"], "not a number of seconds"),
        (["solve", "standard", "--seconds", "inf"], "not a number of seconds"),
        (["solve", "standard", "--seconds", "1e400"], "too large"),
        (["solve", "standard", "--seconds", "0"], "must be positive"),
        (["solve", "standard", "--start", "1,²,0"], "not x,y,z"),
        (["solve", "standard", "--start", "99999999999999999999,0,0"], "not x,y,z"),
        (["solve", "elbows:3,5/²"], "not a whole number"),
        (["flat", "standard", "--seconds", "nan"], "not a number of seconds"),
        (["generate", "--seed", "-1"], "too small"),
        (["generate", "--count", "10" * 30], "too large"),
        (["show", "standard", "--solution", "9" * 50], "too large"),
    ],
)
def test_numbers_are_ascii_and_in_range(capsys, args, words):
    refused(capsys, *args, words=words)


# -- no recursion limits ---------------------------------------------------------------------
def test_flat_with_994_segments(capsys):
    code, out, err = run(capsys, "flat", "lengths:" + ",".join(["2"] * 994), "--seconds", "0.5")
    assert code == 0 and "no (stopped at the time limit" in out, err


def test_reference_engine_with_995_segments():
    snake = sc.Snake((2,) * 995)  # a zig-zag: a width-2 serpentine turns at every cube
    r = sc.solve(snake, sc.Box(2, 498, 1), engine="reference", limit=1, seconds=20)
    assert r.distinct == 1
    r.solutions[0].verify()


# -- the API: InputError for bad values, TypeError for wrong types --------------------------
@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: sc.solve("standard", start=(0, 0, 0), path=[]), sc.InputError, "empty"),
        (lambda: sc.Region([(0, 0)]), sc.InputError, "2 coordinates"),
        (lambda: sc.solve(123), TypeError, "Snake or text"),
        (lambda: sc.solve("standard", (3, 3)), sc.InputError, "3 sides"),
        (lambda: sc.solve("standard", 27), TypeError, "target"),
        (lambda: sc.solve("standard", limit="3"), TypeError, "whole number"),
        (lambda: sc.solve("standard", limit=True), TypeError, "whole number"),
        (lambda: sc.solve("standard", seconds=float("nan")), sc.InputError, "positive"),
        (lambda: sc.solve("standard", seconds="1"), TypeError, "seconds"),
        (lambda: sc.solve("standard", workers=0), sc.InputError, "too small"),
        (lambda: sc.solve("standard", workers=10**6), sc.InputError, "too large"),
        (lambda: sc.solve("standard", start=(0, 0)), sc.InputError, "3"),
        (lambda: sc.solve("standard", start="0,0,0"), TypeError, "sequence"),
        (lambda: sc.solve("standard", path=[(0, 0, 0), None]), TypeError, "sequence"),
        (lambda: sc.solve("standard", path=5), TypeError, "sequence"),
        (lambda: sc.solve("standard", engine=3), TypeError, "engine"),
        (lambda: sc.solve("standard", engine="turbo"), sc.InputError, "unknown engine"),
        (lambda: sc.solve("standard", progress=5), TypeError, "callable"),
        (lambda: sc.Snake("333"), TypeError, "Snake.parse"),
        (lambda: sc.Snake([3, 2.5]), TypeError, "whole number"),
        (lambda: sc.Snake(5), TypeError, "sequence"),
        (lambda: sc.Snake([]), sc.InputError, "at least one segment"),
        (lambda: sc.Snake.parse(None), TypeError, "text"),
        (lambda: sc.Snake.parse(b"standard"), TypeError, "text"),
        (lambda: sc.Box(3, 3, "3"), TypeError, "whole number"),
        (lambda: sc.Box(3, 3, 0), sc.InputError, "too small"),
        (lambda: sc.Box.parse(333), TypeError, "text"),
        (lambda: sc.Region(5), TypeError, "iterable"),
        (lambda: sc.Region("###"), TypeError, "Region.parse"),
        (lambda: sc.Region([]), sc.InputError, "no cells"),
        (lambda: sc.Region([(0, 0, "a")]), TypeError, "whole number"),
        (lambda: sc.Region.parse(5), TypeError, "text"),
        (lambda: sc.count(123), TypeError, "Snake or text"),
        (lambda: next(sc.solutions("standard", start=(9, 9, 9))), sc.InputError, "not in"),
    ],
)
def test_api_errors(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_api_errors_of_the_workbench():
    from snakecube.census import census
    from snakecube.designs import generate, rate
    from snakecube.flat import flat

    with pytest.raises(TypeError):
        census("3x3x3")
    with pytest.raises(sc.InputError):
        census(sc.Box(3, 3, 3), workers=0)
    with pytest.raises(TypeError):
        next(generate("3x3x3"))
    with pytest.raises(TypeError):
        next(generate(sc.Box(3, 3, 3), count="2"))
    with pytest.raises(TypeError):
        rate(5)
    with pytest.raises(TypeError):
        flat("standard")
    with pytest.raises(sc.InputError):
        flat(sc.Snake.parse("standard"), seconds=-1)


# -- output files --------------------------------------------------------------------------
def test_a_long_legal_file_name(capsys, tmp_path):
    name = tmp_path / ("s" * 246 + ".txt")  # 250 characters: legal on every file system here
    code, _, err = run(capsys, "show", "standard", "--out", str(name))
    assert code == 0, err
    assert "Step 17:" in name.read_text()
    assert [p.name for p in tmp_path.iterdir()] == [name.name]  # no temporary file left


def test_a_too_long_file_name_is_one_clean_line(capsys, tmp_path):
    name = tmp_path / ("s" * 300 + ".txt")
    refused(capsys, "show", "standard", "--out", str(name), words="cannot write")
    assert list(tmp_path.iterdir()) == []


def test_user_text_on_stderr_stays_one_line(capsys, tmp_path):
    odd = tmp_path / "a\nb.txt"
    refused(capsys, "solve", "standard", "--region", str(odd), words="cannot read")
    refused(capsys, "solve", "ESC\nQSE", words="'Q'")
    refused(capsys, "show", "standard", "--out", str(tmp_path / "x\ny" / "z.txt"))
    refused(capsys, "solve", "standard", "--box", "3\nx3xQ")
    refused(capsys, "frobnicate\nsecond-line")
    refused(capsys, "solve", "standard", "--bogus\nflag")


# -- small ones ----------------------------------------------------------------------------
def test_small_ones(capsys):
    refused(capsys, "generate", "--box", "1x1x1", words="1 cell")
    refused(capsys, "generate", "--box", "3x3x3", "--min-straights", "14", words="at most 13")
    refused(capsys, "designs", "--box", "2x2x2", "--workers", "0", words="too small")
    refused(capsys, "designs", "--box", "2x2x2", "--workers", "999", words="too large")
    refused(capsys, "solve", "ſteps:2,2,2", words="not a catalog name")
    err = refused(capsys, "solve", "ESCSCQ" * 20_000, words="characters long")
    assert len(err) < 200
    err = refused(capsys, "solve", "ESCSCQ" * 3000, words="'Q'")
    assert len(err) < 300


def test_an_unlikely_min_straights_answers_quickly(capsys):
    began = time.monotonic()
    code, _, err = run(capsys, "generate", "--box", "3x3x3", "--min-straights", "12")
    assert code == 0 and "found 0 of 1" in err
    assert time.monotonic() - began < 10


# -- the pure-Python fallback --------------------------------------------------------------
def _cli(*args, env=None, **kw):
    full = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "snakecube", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=full,
        **kw,
    )


@pytest.mark.slow
def test_without_the_kernel_everything_still_answers():
    pure = {"SNAKECUBE_PUREPYTHON": "1"}
    proc = _cli("solve", "seed-blue", "--json", env=pure)
    out, err = proc.communicate(timeout=120)
    data = json.loads(out)
    assert proc.returncode == 0 and err == ""
    assert (data["placements"], data["distinct"], data["engine"]) == (576, 12, "reference")
    proc = _cli("solve", "king", "--first", "--json", env=pure)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and json.loads(out)["distinct"] == 1
    assert err.count("\n") == 1 and "warning" in err and "compiled kernel is not built" in err
    proc = _cli("designs", "--box", "2x2x3", "--json", env=pure)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and json.loads(out)["designs"] == 17
    proc = _cli("rate", "standard", "--json", env=pure)
    out, _ = proc.communicate(timeout=120)
    pure_score = json.loads(out)["difficulty"]
    proc = _cli("solve", "standard", "--engine", "kernel", env=pure)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "not built" in err
    if kernel.AVAILABLE:
        from snakecube.designs import rate

        assert round(rate("standard").difficulty, 2) == pure_score


# -- Ctrl-C: exit 130, what was found, never a score from a partial search --------------------
def _interrupt(*args, after, env=None):
    proc = _cli(*args, env=env)
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert proc.returncode == 130, (proc.returncode, out, err)
    return out, err


def _harder_4x4x4() -> str:
    import random

    from snakecube.designs import design_of, random_path

    box = sc.Box(4, 4, 4)
    path = random_path(box, random.Random(1))
    return design_of([box.cells[c] for c in path]).format("lengths")


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_rate_gives_no_score():
    out, _ = _interrupt("rate", _harder_4x4x4(), "--json", after=1.5)
    data = json.loads(out)
    assert data["complete"] is False and data["difficulty"] is None


@pytest.mark.slow
def test_ctrl_c_in_flat_exits_130():
    out, _ = _interrupt("flat", "lengths:" + ",".join(["2"] * 60), "--json", after=1.5)
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_generate_prints_what_it_found():
    out, _ = _interrupt(
        "generate", "--box", "4x4x4", "--unique", "--count", "50", "--json", after=4
    )
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"
    for row in data["designs"]:
        assert row["solutions"] == 1 and row["difficulty"] is not None


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_a_long_census_unit_answers_within_a_second(tmp_path):
    proc = _cli("designs", "--box", "3x3x4", "--workers", "1", "--store", str(tmp_path / "s"))
    time.sleep(2)
    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - began < 1.5
    assert proc.returncode == 130 and "Traceback" not in err
    assert "complete       no" in out and "--store" in out


@pytest.mark.slow
@pytest.mark.heavy
def test_ctrl_c_in_parallel_census_workers_prints_no_traceback(tmp_path):
    out, err = _interrupt("designs", "--box", "3x3x4", "--workers", "2", "--json", after=2)
    data = json.loads(out)
    assert data["complete"] is False and data["designs"] is None
    assert err.strip() == "" or err.count("\n") <= 1


@pytest.mark.slow
def test_ctrl_c_in_show_exits_130():
    _interrupt("show", "lengths:" + ",".join(["2"] * 62), "--box", "3x3x7", after=1.5)
