"""Reading snakes as people type them, and nearby designs when a typo makes one unsolvable."""

from __future__ import annotations

import json

import pytest

import snakecube as sc
from snakecube.cli import main
from snakecube.nearby import edits, nearby

STANDARD = "3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3"


@pytest.mark.parametrize(
    "text",
    [
        "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3",
        "3–3–3–3–2–2–2–3–3–2–2–3–2–3–2–2–3",  # en dashes
        "3—3—3—3—2—2—2—3—3—2—2—3—2—3—2—2—3",  # em dashes
        "3/3/3/3/2/2/2/3/3/2/2/3/2/3/2/2/3",
        "3 3 3 3 2 2 2 3 3 2 2 3 2 3 2 2 3",
        "[3, 3, 3, 3, 2, 2, 2, 3, 3, 2, 2, 3, 2, 3, 2, 2, 3]",
        "(3-3-3-3)-2,2,2 / 3 3 2-2 [3 2 3] 2-2-3",
        "lengths: 3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3",
    ],
)
def test_lengths_as_people_write_them(text):
    assert sc.Snake.parse(text) == sc.Snake.parse("standard")


def test_the_web_format_solves(capsys):
    assert main(["solve", "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["placements"], data["distinct"]) == (48, 1)
    assert main(["solve", *STANDARD.split(","), "--json"]) == 0  # separate arguments
    data = json.loads(capsys.readouterr().out)
    assert (data["placements"], data["distinct"]) == (48, 1)


def test_digits_run_together_get_a_hint(capsys):
    assert main(["solve", "33332223322323223"]) == 2
    err = capsys.readouterr().err
    assert "run together" in err and "lengths:3,3,3,3,2,2" in err and err.count("\n") == 1


def test_an_elbow_past_the_end_is_an_error():
    with pytest.raises(sc.InputError, match="last corner is cube 28"):
        sc.Snake.parse("elbows:3,5,7,9,10,11,12,14,16,17,18,20,21,23,24,25,28")


def test_the_standard_with_its_last_two_lengths_swapped(capsys):
    typo = "3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2"
    found = nearby(typo)
    assert found[0].snake == sc.Snake.parse("standard") and found[0].distinct == 1
    assert "swapped" in found[0].edit
    assert main(["solve", typo, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distinct"] == 0 and data["nearby"][0]["segment_lengths"] == [
        int(x) for x in STANDARD.split(",")
    ]
    assert {"segment_lengths", "edit", "distinct"} <= set(data["nearby"][0])
    assert main(["solve", typo]) == 0
    out = capsys.readouterr().out
    assert "nearby designs that fold" in out and f"lengths:{STANDARD}" in out


def test_a_wrong_cube_count_suggests_the_fix(capsys):
    missing = STANDARD[:-1] + "2"  # the last 3 typed as 2: 26 cubes
    assert main(["solve", missing]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "26 cubes" in err
    assert "nearby designs that fold: standard, from the catalog (segment 17: 2 -> 3)" in err


@pytest.mark.parametrize("name", ["standard", "seed-orange", "mean-green"])
def test_every_single_typo_of_a_catalog_snake_offers_it_back(name):
    """Make each typo of each kind, and check that the true design is among the nearby."""
    true = sc.Snake.parse(name)
    box = sc.Box(3, 3, 3)
    typos = [s for s, _ in edits(true, 27, 3)][:40]
    for typo in typos:
        if sc.solve(typo, box, limit=1).solutions:
            continue  # this typo folds anyway: nothing to suggest
        found = [n.snake for n in nearby(typo, box, limit=100)]
        assert true in found, typo


def test_nearby_results_fold_and_are_counted():
    for n in nearby("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,3,2", limit=10):
        r = sc.solve(n.snake, sc.Box(3, 3, 3))
        assert r.distinct == n.distinct and n.complete
        assert n.snake.cubes == 27 and max(n.snake.lengths) <= 3
