"""Flat layouts on a table (seeds/004's flat): counts, compactness, limits and Ctrl-C."""

from __future__ import annotations

import json

import pytest

import snakecube as sc
from corpus import load_known
from snakecube.cli import main


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


@pytest.mark.pictures
def test_flat_command(tmp_path, capsys):
    assert main(["flat", "standard", "--json", "--out", str(tmp_path / "f.png")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["layouts"] == 22768 and data["bounding_box"] == [5, 7]
    assert (tmp_path / "f.png").stat().st_size > 10_000
    assert main(["flat", "standard", "--out", str(tmp_path / "f.bmp")]) == 2
