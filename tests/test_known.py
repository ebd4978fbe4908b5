"""Published answers (tests/data/known.json): every 3x3x3 puzzle, in every notation."""

from __future__ import annotations

import itertools

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


def _fact(known, words: str) -> str:
    return next(f["value"] for f in known["facts"] if words in f["fact"])


def test_zig_zag_snakes_as_stan_wagon_reports(known):
    """Problem of the Week 1206: no zig-zag Hamiltonian path of the 3x3x3 cube (proved here
    by a complete search), and one of the 4x4x4 cube (found here, and verified)."""
    assert _fact(known, "the 3x3x3 cube that turns at every cube").startswith("none exists")
    r3 = sc.solve(sc.Snake((2,) * 26), sc.Box(3, 3, 3))
    assert r3.complete and r3.distinct == 0
    assert _fact(known, "zig-zag Hamiltonian path of the 4x4x4 cube").startswith("exists")
    r4 = sc.solve(sc.Snake((2,) * 63), sc.Box(4, 4, 4), limit=1)
    assert r4.distinct == 1
    sc.verify((2,) * 63, sc.Box(4, 4, 4).cells, r4.solutions[0].cells)


def _is_zig_zag(cells, side: int) -> bool:
    """Independent check: every cell of the cube once, unit steps, every turn 90 degrees."""
    cells = [tuple(c) for c in cells]
    if sorted(cells) != sorted(
        (x, y, z) for x in range(side) for y in range(side) for z in range(side)
    ):
        return False
    steps = [tuple(b[i] - a[i] for i in range(3)) for a, b in itertools.pairwise(cells)]
    if any(sorted(map(abs, s)) != [0, 0, 1] for s in steps):
        return False
    return all(
        sum(p * q for p, q in zip(s, t, strict=True)) == 0 for s, t in itertools.pairwise(steps)
    )


def test_the_committed_5x5x5_zig_zag_path():
    import json
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "zigzag-5x5x5.md").read_text()
    cells = json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))
    assert len(cells) == 125 and _is_zig_zag(cells, 5)
    assert not _is_zig_zag(cells[:62] + cells[62:][::-1], 5)  # the check can fail


@pytest.mark.heavy
def test_the_5x5x5_zig_zag_is_found_again():
    r = sc.solve(sc.Snake((2,) * 124), sc.Box(5, 5, 5), limit=1, seed=0, max_nodes=50_000_000)
    assert r.distinct == 1
    assert _is_zig_zag(r.solutions[0].cells, 5)
