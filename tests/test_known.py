"""Published answers (tests/data/known.json): every 3x3x3 puzzle, in every notation."""

from __future__ import annotations

import pytest

import snakecube as sc
from corpus import load_known
from snakecube.search import kernel
from snakecube.snake import NOTATIONS

KNOWN = load_known()["puzzles"]
SMALL = [p for p in KNOWN if p["box"] == [3, 3, 3]]
BIG = [p for p in KNOWN if p["box"] != [3, 3, 3]]


def _check(result, puzzle):
    assert result.complete
    assert result.placements == puzzle["placements"]
    assert result.distinct == puzzle["distinct"]
    assert result.distinct_up_to_reversal == puzzle["distinct_up_to_reversal"]
    assert len(result.solutions) == puzzle["distinct"]
    for s in result.solutions:
        s.verify()


@pytest.mark.parametrize("puzzle", SMALL, ids=lambda p: p["name"])
@pytest.mark.parametrize("notation", NOTATIONS)
def test_small_puzzles_in_every_notation(puzzle, notation, engine):
    text = sc.Snake.parse(puzzle["turns"]).format(notation)
    box = sc.Box(*puzzle["box"])
    _check(sc.solve(text, box, engine=engine), puzzle)


@pytest.mark.parametrize("puzzle", SMALL, ids=lambda p: p["name"])
def test_small_puzzles_by_name_and_default_target(puzzle):
    for name in [puzzle["name"], *puzzle.get("aliases", [])]:
        _check(sc.solve(name), puzzle)


def test_published_notations_agree(known):
    for p in known["puzzles"]:
        snake = sc.Snake.parse(p["turns"])
        if "segment_lengths" in p:
            assert list(snake.lengths) == p["segment_lengths"]
        if "elbows_1_based" in p:
            assert list(snake.elbows()) == p["elbows_1_based"]
            elbows = "elbows = [" + " ".join(map(str, p["elbows_1_based"])) + "]"
            assert sc.Snake.parse(elbows) == snake  # seeds/002's own spelling


def test_catalog_covers_the_corpus(known):
    from snakecube import catalog

    for p in known["puzzles"]:
        entry = catalog.find(p["name"])
        assert entry is not None, p["name"]
        assert sc.Snake.parse(entry.turns) == sc.Snake.parse(p["turns"])
        assert list(entry.box) == p["box"]
        for alias in p.get("aliases", []):
            assert catalog.find(alias) is entry


@pytest.mark.skipif(not kernel.AVAILABLE, reason="the compiled kernel is not built here")
@pytest.mark.parametrize("puzzle", BIG, ids=lambda p: p["name"])
def test_big_puzzles(puzzle):
    # The reference takes many minutes on the king; the kernel gives the same answers
    # (tests/test_kernel.py) in about a second.
    for name in [puzzle["name"], *puzzle.get("aliases", [])]:
        _check(sc.solve(name, engine="kernel"), puzzle)
