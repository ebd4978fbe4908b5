"""The census of designs: against OEIS, against brute force, and against the solver."""

from __future__ import annotations

import csv
import json
import random

import pytest

import snakecube as sc
from bruteforce import box_cells as cells_of_box
from bruteforce import canonical, census_of
from corpus import load_known
from snakecube.census import census
from snakecube.cli import main

A193346 = next(f["value"] for f in load_known()["facts"] if "A193346" in f["source"])


def _brute(dims):
    """design (the smaller of it and its reverse) -> distinct solutions up to symmetry and
    reversal, and the number of directed paths, from every path of the box."""
    by_design, maps = census_of(cells_of_box(*dims))
    out, paths = {}, 0
    for lengths, (n, classes) in by_design.items():
        paths += n
        key = min(lengths, lengths[::-1])
        if lengths == lengths[::-1]:
            out[key] = len({min(c, canonical(c[::-1], maps)) for c in classes})
        else:
            out[key] = len(classes)
    return out, paths


@pytest.mark.parametrize(
    "dims", [(2, 2, 2), (2, 2, 3), (3, 3, 1), (2, 4, 1), (3, 4, 1), (2, 2, 4), (2, 3, 3)]
)
def test_census_equals_brute_force(dims):
    want, paths = _brute(dims)
    got = census(sc.Box(*dims))
    assert got.paths == paths
    mine = {min(d.snake.lengths, d.snake.lengths[::-1]): d.solutions for d in got.designs}
    assert mine == want
    assert got.solutions == sum(want.values())
    assert got.unique == sum(1 for v in want.values() if v == 1)


def test_3x3x3_paths_are_oeis_a193346():
    got = census(sc.Box(3, 3, 3))
    assert got.paths == A193346 == 4960608
    assert got.complete and got.unique > 0
    names = {d.snake.turns(): d.solutions for d in got.designs}
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
        assert r.distinct_up_to_reversal == d.solutions, d.snake.turns()
        assert d.palindrome == d.snake.is_palindrome


def test_designs_command(tmp_path, capsys):
    out_csv = tmp_path / "d.csv"
    assert main(["designs", "--box", "2x3x3", "--json", "--csv", str(out_csv), "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    for field in ("paths", "designs", "solutions", "unique", "max_solutions", "palindromes",
                  "histogram"):  # fmt: skip
        assert field in data
    assert data["paths"] == 33760
    assert sum(data["histogram"].values()) == data["designs"]
    with out_csv.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == data["designs"]
    assert {"turns", "segment_lengths", "solutions"} <= set(rows[0])
    assert sum(int(r["solutions"]) for r in rows) == data["solutions"]
    assert main(["designs", "--box", "5x5x5"]) == 2


def test_flat_standard_as_seeds_004_counts():
    from snakecube.flat import flat

    layouts = next(f["value"] for f in load_known()["facts"] if "planar layouts" in f["fact"])
    compact = next(f["value"] for f in load_known()["facts"] if "most compact" in f["fact"])
    got = flat(sc.Snake.parse("standard"))
    assert got.complete
    assert (got.layouts, got.most_compact) == (layouts, compact) == (22768, 16)
    assert got.most_compact_distinct == 2 and got.bounding_box == (5, 7)
    rev = flat(sc.Snake.parse("standard").reversed())  # seeds/004 lists it from the other end
    assert (rev.layouts, rev.most_compact) == (got.layouts, got.most_compact)
    for layout in got.examples:  # each example really is a layout of the snake, flat
        cells = [(x, y, 0) for x, y in layout]
        region = sc.Region(cells)
        assert (
            sc.verify(
                got.snake.lengths,
                region.cells,
                [
                    (x - min(p[0] for p in layout), y - min(p[1] for p in layout), 0)
                    for x, y in layout
                ],
            )
            is None
        )


def test_flat_small_snakes_by_hand():
    from snakecube.flat import flat

    assert flat(sc.Snake((3,))).layouts == 4  # a straight 3: four ways to point
    assert flat(sc.Snake((2, 2))).layouts == 8  # an L: 4 first directions x 2 turns
    u = flat(sc.Snake((2, 2, 2)))  # a U or a Z after each L
    assert u.layouts == 16 and u.most_compact == 8 and u.bounding_box == (2, 2)


def test_flat_command(tmp_path, capsys):
    assert main(["flat", "standard", "--json", "--out", str(tmp_path / "f.png")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["layouts"] == 22768 and data["bounding_box"] == [5, 7]
    assert (tmp_path / "f.png").stat().st_size > 10_000
    assert main(["flat", "standard", "--out", str(tmp_path / "f.bmp")]) == 2


def test_rate_ranks_the_catalog_as_documented(capsys):
    import re
    from pathlib import Path

    from snakecube import catalog
    from snakecube.designs import rate

    doc = (Path(__file__).resolve().parents[1] / "docs" / "difficulty.md").read_text()
    documented = re.findall(r"^\| \d+ \| ([\w-]+) \| ([\d.]+) \|", doc, re.M)
    scores = {e.name: rate(e.name) for e in catalog.ENTRIES}
    computed = sorted(scores, key=lambda n: (-scores[n].difficulty, n))
    assert [name for name, _ in documented] == computed
    for name, value in documented:
        assert f"{scores[name].difficulty:.2f}" == value
    assert rate("standard").difficulty == scores["standard"].difficulty  # stable
    assert main(["rate", "king", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["difficulty"] > 20 and data["solutions"] == 4
    assert rate("lengths:3,3,3,3", "3x3x1").difficulty is None  # no solution
    tiny = census(sc.Box(2, 2, 3))
    assert all(rate(d.snake, sc.Box(2, 2, 3)).difficulty >= 0 for d in tiny.designs)


def test_generate_unique_designs_confirmed_independently(capsys):
    from snakecube.designs import generate

    box = sc.Box(3, 3, 3)
    made = [g.rating.snake for g in generate(box, count=4, seed=11, unique=True)]
    assert len(made) == 4 and len(set(made)) == 4
    for snake in made:  # an independent run: the pure-Python reference, no limits
        r = sc.solve(snake, box, engine="reference")
        assert r.complete and r.distinct_up_to_reversal == 1
    again = [g.rating.snake for g in generate(box, count=4, seed=11, unique=True)]
    assert again == made  # reproducible from the seed
    args = ["generate", "--box", "3x3x3", "--count", "3", "--seed", "4", "--min-straights",
            "8", "--max-segment", "3", "--json"]  # fmt: skip
    assert main(args) == 0
    rows = json.loads(capsys.readouterr().out)["designs"]
    assert len(rows) == 3
    for row in rows:
        snake = sc.Snake(tuple(row["segment_lengths"]))
        assert snake.turns() == row["turns"] and max(snake.lengths) <= 3
        assert snake.cubes - 1 - snake.segments >= 8 and row["difficulty"] > 0
    assert main(["generate", "--box", "3x3x3", "--count", "0"]) == 2


def test_census_parallel_and_resumable(tmp_path):
    box = sc.Box(3, 3, 3)
    whole = census(box, workers=1)
    assert census(box, workers=2).designs == whole.designs
    checkpoint = tmp_path / "census.jsonl"
    calls = []

    def stop_after_three(done, total, found):
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C in the middle

    part = census(box, workers=1, checkpoint=checkpoint, progress=stop_after_three)
    assert not part.complete and part.paths < whole.paths
    lines = checkpoint.read_text().splitlines()
    assert len(lines) == 1 + 3  # the header and the three finished units
    resumed = census(
        box, workers=2, checkpoint=checkpoint, progress=lambda d, t, f: calls.append(d)
    )
    assert resumed.complete and resumed.designs == whole.designs
    assert resumed.paths == whole.paths == A193346
    assert min(calls[3:]) > 3  # the finished units were not done again
    with checkpoint.open("a") as f:
        f.write('{"unit": 5, "classes"')  # a line cut short by a crash: that unit is redone
    assert census(box, workers=1, checkpoint=checkpoint).designs == whole.designs
    other = tmp_path / "other.jsonl"
    census(sc.Box(2, 2, 3), checkpoint=other)
    with pytest.raises(sc.InputError, match="belongs to another census"):
        census(box, checkpoint=other)
