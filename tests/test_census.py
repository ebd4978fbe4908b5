"""The census of designs: against OEIS, brute force and the solver; its store survives stops,
and refuses damaged, edited or foreign files with one line naming the file."""

from __future__ import annotations

import csv
import json
import random
import time

import pytest

import snakecube as sc
from bruteforce import solutions_by_design
from corpus import load_known
from snakecube.census import census, path_units
from snakecube.cli import main

A193346 = next(f["value"] for f in load_known()["facts"] if "A193346" in f["source"])


def _brute(dims):
    return solutions_by_design(*dims)


@pytest.mark.parametrize(
    "dims", [(2, 2, 2), (2, 2, 3), (3, 3, 1), (2, 4, 1), (3, 4, 1), (2, 2, 4), (2, 3, 3)]
)
def test_census_equals_brute_force(dims):
    want, paths = _brute(dims)
    got = census(sc.Box(*dims))
    assert got.complete and got.paths == paths
    mine = {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs}
    assert mine == want
    assert got.design_count == len(want)
    assert got.solution_count == sum(want.values())
    assert got.unique == sum(1 for v in want.values() if v == 1)
    assert got.max_solutions == max(want.values())
    assert got.palindromes == sum(1 for k in want if k == k[::-1])
    assert sum(got.histogram.values()) == len(want)
    assert got.top[0].distinct == got.max_solutions


@pytest.mark.parametrize("partitions", [1, 4])
def test_partitions_do_not_change_the_answer(partitions):
    want, _ = _brute((2, 3, 3))
    got = census(sc.Box(2, 3, 3), partitions=partitions)
    assert {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs} == want


@pytest.mark.heavy
def test_3x3x3_paths_are_oeis_a193346():
    got = census(sc.Box(3, 3, 3))
    assert got.paths == A193346 == 4960608
    assert got.complete and got.unique > 0
    names = {d.snake.turns(): d.distinct for d in got.designs}
    for p in load_known()["puzzles"]:  # every corpus 3x3x3 puzzle is a design with its count
        if p["box"] == [3, 3, 3]:
            snake = sc.Snake.parse(p["turns"])
            count = names.get(snake.turns(), names.get(snake.reversed().turns()))
            assert count == p["distinct_up_to_reversal"], p["name"]


def test_census_agrees_with_solve_on_a_sample():
    got = census(sc.Box(2, 3, 4))
    rng = random.Random(7)
    for d in rng.sample(got.designs, 40):
        r = sc.solve(d.snake, sc.Box(2, 3, 4))
        assert r.distinct_up_to_reversal == d.distinct, d.snake.turns()
        assert d.palindrome == d.snake.is_palindrome
    assert got.solution_count * 2 >= got.paths // len(sc.Box(2, 3, 4).symmetries)


def test_designs_command(tmp_path, capsys):
    out_csv = tmp_path / "d.csv"
    assert main(["designs", "--box", "2x3x3", "--json", "--csv", str(out_csv), "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    for field in (
        "paths",
        "designs",
        "solutions",
        "unique",
        "max_solutions",
        "palindromes",
        "histogram",
        "top",
    ):
        assert field in data
    assert data["paths"] == 33760 and data["complete"] is True
    assert sum(data["histogram"].values()) == data["designs"]
    assert len(data["top"]) == 10  # --top: the ten designs with the most solutions
    sols = [row["solutions"] for row in data["top"]]
    assert sols == sorted(sols, reverse=True) and sols[0] == data["max_solutions"]
    with out_csv.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == data["designs"]
    assert {"turns", "segment_lengths", "solutions"} <= set(rows[0])
    assert sum(int(r["solutions"]) for r in rows) == data["solutions"]
    assert main(["designs", "--box", "5x5x5"]) == 2
    assert main(["designs", "--box", "1000x1000x1000"]) == 2
    assert "at most 64" in capsys.readouterr().err


def test_store_resumes_and_skips_finished_units(tmp_path):
    box = sc.Box(2, 2, 4)
    whole = census(box, workers=1)
    store = tmp_path / "store"

    def stop_after_three(done, total, found):  # called as units finish, and in between
        if done == 3:
            raise KeyboardInterrupt  # Ctrl-C in the middle

    part = census(box, workers=1, store=store, progress=stop_after_three)
    assert not part.complete and part.stop_reason == "interrupted"
    assert part.paths < whole.paths and part.design_count is None
    assert len(list((store / "units").glob("u*.bin"))) == 3
    calls: list[int] = []
    resumed = census(box, workers=2, store=store, progress=lambda d, t, f: calls.append(d))
    assert resumed.complete and resumed.designs == whole.designs
    assert resumed.paths == whole.paths
    assert min(calls) == 3  # the finished units were not done again
    again = census(box, store=store)  # everything is in the store: nothing is redone
    assert again.designs == whole.designs


@pytest.mark.heavy
def test_store_in_parallel_3x3x3(tmp_path):
    whole = census(sc.Box(3, 3, 3), workers=2, store=tmp_path / "s")
    assert whole.paths == A193346 and whole.design_count == 11487


def _store(tmp_path, dims=(2, 2, 4)):
    root = tmp_path / "store"
    census(sc.Box(*dims), store=root)
    return root


def _refused(capsys, root, dims="2x2x4"):
    code = main(["designs", "--box", dims, "--store", str(root), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_store_refuses_another_box(tmp_path, capsys):
    root = _store(tmp_path)
    assert "belongs to another census" in _refused(capsys, root, "2x2x3")


def test_store_refuses_an_edited_count(tmp_path, capsys):
    root = _store(tmp_path)
    unit = sorted((root / "units").iterdir())[-1]
    data = bytearray(unit.read_bytes())
    data[-20] ^= 1  # one bit of a count or key
    unit.write_bytes(bytes(data))
    for part in (root / "parts").iterdir():
        part.unlink()  # so that the units are read again
    err = _refused(capsys, root)
    assert unit.name in err and "checksum" in err


def test_store_refuses_an_edited_header(tmp_path, capsys):
    root = _store(tmp_path)
    unit = sorted((root / "units").iterdir())[0]
    unit.write_bytes(unit.read_bytes().replace(b'"classes":', b'"classes":9', 1))
    assert "checksum" in _refused(capsys, root)


def test_store_refuses_units_out_of_range(tmp_path, capsys):
    root = _store(tmp_path)
    first = sorted((root / "units").iterdir())[0]
    (root / "units" / "u999999.bin").write_bytes(first.read_bytes())
    err = _refused(capsys, root)
    assert "u999999.bin" in err and "units 0.." in err


@pytest.mark.parametrize(
    "junk",
    [
        b"",
        b"\x00" * 100,
        b"SNKUNIT2\xff\xff\xff\xff",
        b"SNKUNIT2\x05\x00\x00\x00{}",
        bytes(range(256)) * 4,
    ],
)
def test_store_refuses_junk_unit_files(tmp_path, capsys, junk):
    root = _store(tmp_path)
    (root / "units" / "u000000.bin").write_bytes(junk)
    assert "u000000.bin" in _refused(capsys, root)


@pytest.mark.parametrize(
    "manifest",
    [
        b"",
        b"\x89PNG junk",
        b'{"format": "snakecube-census"}',
        b"[1, 2]",
        b'{"a": 1,\n "b": }',
        b'{"format": "snakecube-census", "version": 2, "target": "x", "cells": [], "units": 1, '
        b'"partitions": 3, "id": "x"}',
    ],
)
def test_store_refuses_a_malformed_manifest(tmp_path, capsys, manifest):
    root = _store(tmp_path)
    (root / "manifest.json").write_bytes(manifest)
    err = _refused(capsys, root)
    assert "manifest.json" in err
    if b"\n" in manifest:
        assert "line 2" in err


def test_store_must_be_a_store(tmp_path, capsys):
    a_file = tmp_path / "old-checkpoint.jsonl"
    a_file.write_text('{"census": 1}\n')
    assert "not a directory" in _refused(capsys, a_file)
    other = tmp_path / "full"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert "not a census store" in _refused(capsys, other)
    assert "not a directory" in _refused(capsys, "/dev/zero")
    assert main(["designs", "--box", "2x2x2", "--store", str(tmp_path / "new"), "--quiet"]) == 0


def test_ctrl_c_during_the_reduce_keeps_finished_partitions(tmp_path):
    box = sc.Box(2, 3, 3)
    whole = census(box)
    root = tmp_path / "s"
    seen = []

    def stop_in_reduce(done, total, found):
        seen.append(done)
        if done == total - 1 and total - 1 > 0 and len(seen) > 1:
            raise KeyboardInterrupt

    part = census(box, store=root, partitions=4, progress=stop_in_reduce)
    assert not part.complete and part.partitions[0] < 4
    assert part.design_count is not None and part.design_count <= whole.design_count
    finished = census(box, store=root, partitions=4)
    assert finished.complete and finished.designs == whole.designs


def test_a_sample_is_drawn_from_the_designs_with_their_counts():
    with census(sc.Box(2, 3, 4)) as got:
        every = {d.snake.lengths: d.distinct for d in got.designs}
        first = got.sample(500, seed=3)
        assert first == got.sample(500, seed=3)  # the same for the same seed
        assert first != got.sample(500, seed=4)
        assert 350 < len(first) < 650  # 500 of 13,901 expected
        assert all(every[d.snake.lengths] == d.distinct for d in first)
        assert len({d.snake.lengths for d in first}) == len(first)
        with pytest.raises(sc.InputError):
            got.sample(-1)


@pytest.mark.parametrize(
    "dims,longest", [((3, 4, 1), 3), ((4, 4, 1), 3), ((2, 2, 4), 3), ((3, 6, 1), 4), ((2, 3, 3), 2)]
)
def test_a_census_of_short_segments_is_the_brute_force_ones(dims, longest):
    """--max-segment: only the designs with no segment longer, each with all its solutions."""
    want, _ = _brute(dims)
    with census(sc.Box(*dims), max_segment=longest) as got:
        mine = {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs}
        assert got.complete and got.max_segment == longest
    assert mine == {k: v for k, v in want.items() if max(k) <= longest}


# -- issue 43: a census says what it will take, and refuses what it cannot finish --------


@pytest.mark.parametrize("dims", [(2, 3, 3), (2, 2, 5), (1, 4, 5)])
def test_the_forecast_is_near_the_counted_tree(dims):
    """Knuth's estimate of the path loop's tree against the nodes the loop counts."""
    from snakecube.census.forecast import forecast
    from snakecube.census.units import tally_unit

    box = sc.Box(*dims)
    units = path_units(box)
    counted = sum(tally_unit(box, i, u).nodes for i, u in enumerate(units))
    assert 0.8 < forecast(box, units, 1).nodes / counted < 1.25


def test_designs_of_4x4x4_are_refused_at_once_with_the_forecast(capsys, tmp_path):
    store = tmp_path / "store"
    assert main(["designs", "--box", "4x4x4", "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "years on" in err
    assert "--seconds" in err and "--estimate" in err and "--scheduler" in err
    assert not store.exists()  # refused before anything is written
    assert main(["designs", "--box", "4x4x4", "--estimate", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["refused_without_seconds"] and data["seconds"] > 365 * 86400
    assert "years on" in data["time"] and data["units"] == len(path_units(sc.Box(4, 4, 4), 64))
    assert data["partitions"] == 256
    assert main(["designs", "--box", "2x3x4", "--estimate"]) == 0
    out = capsys.readouterr().out
    assert "time           about" in out and "refused" not in out
    units = len(path_units(sc.Box(2, 3, 4), 64))  # the bar's steps: the units, then 16 partitions
    assert f"{units}; then 16 partitions to reduce (the bar counts both: {units + 16} steps)" in out


def test_an_estimate_checks_the_census_options_first(capsys):
    """--estimate of a box over the census's 64 cells, or with partitions that are not a
    power of two, is refused in one line as the census itself is (it was an internal error,
    an OverflowError in the units' tables, seconds later)."""
    for box in ("4x4x5", "10x10x1"):
        assert main(["designs", "--box", box, "--estimate"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "at most 64 for a census" in err, err
    assert main(["designs", "--box", "2x3x4", "--estimate", "--partitions", "3"]) == 2
    assert "power of two" in capsys.readouterr().err


def test_a_census_with_a_time_limit_stops_and_keeps_its_store(tmp_path):
    box = sc.Box(4, 4, 4)
    with pytest.raises(sc.InputError, match="years"):
        census(box, workers=1)
    part = census(box, workers=1, store=tmp_path / "s", seconds=0.5)
    assert not part.complete and part.stop_reason == "seconds" and part.design_count is None
    assert (tmp_path / "s" / "manifest.json").is_file()


def test_the_forecast_sees_the_load_now_not_a_minute_ago(monkeypatch):
    """The load a forecast allows for is the smaller of the load average (a minute behind:
    right after another census it said 2 on an idle machine) and the processes running
    now, besides the forecast's own."""
    import subprocess
    import sys

    from snakecube.census import forecast

    monkeypatch.setattr(forecast.os, "getloadavg", lambda: (2.2, 2.0, 1.5))
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        time.sleep(0.3)
        seen = forecast._load()
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert 1.0 <= seen <= 2.2, seen  # the two spinning processes, whatever else runs
    monkeypatch.setattr(forecast, "_running_now", lambda: 0.0)
    assert forecast._load() == 0.0  # the load average's 2.2 is past: nothing runs now
    monkeypatch.setattr(forecast, "_running_now", lambda: 5.0)
    assert forecast._load() == 2.2  # a burst now that the minute did not see: the smaller
