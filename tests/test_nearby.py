"""Reading snakes as people type them, and nearby designs when a typo makes one unsolvable."""

from __future__ import annotations

import itertools
import json

import pytest

import snakecube as sc
from snakecube import catalog
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


# -- the catalog's puzzles first, at every size, in every command (issue 53) ------------------
KING = [int(n) for n in sc.Snake.parse("king").format("lengths")[8:].split(",")]


def _typed(lengths: list[int]) -> str:
    return ",".join(map(str, lengths))


EXTRA_CUBE = _typed([*KING[:6], 3, *KING[7:]])  # segment 7 typed 3 for 2: 65 cubes
LEFT_OUT = _typed([*KING[:7], *KING[8:]])  # segment 8 left out: 62 cubes
SWAPPED = _typed([*KING[:44], KING[45], KING[44]])  # the last two swapped: folds too
NO_FOLD = _typed([KING[1], KING[0], *KING[2:]])  # the first two swapped: folds not


@pytest.mark.parametrize("command", ["solve", "show", "fold", "check", "rate", "export"])
def test_a_king_with_a_cube_too_many_leads_back_to_the_king(command, capsys):
    args = [command, EXTRA_CUBE] + (["+x"] if command == "check" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "65 cubes" in err
    assert "nearby designs that fold: king, from the catalog (segment 7: 3 -> 2)" in err, err


def test_a_king_with_a_segment_left_out_leads_back_to_the_king(capsys):
    assert main(["solve", LEFT_OUT]) == 2
    err = capsys.readouterr().err
    assert "fold: king, from the catalog (a segment of 3 left out before segment 8)" in err
    found = nearby(LEFT_OUT, "4x4x4", limit=1, seconds=0.5)  # named even if its count stops
    assert found[0].name == "king" and found[0].snake == sc.Snake.parse("king")


SAID = "(one typo from the catalog's king: segments 45 and 46 swapped (2,4 -> 4,2))"


def test_a_swap_that_folds_is_said_to_be_one_swap_from_the_king(capsys):
    for command in (["check", SWAPPED, "+x " * 46], ["flat", SWAPPED, "--seconds", "0.2"]):
        main(command)
        assert capsys.readouterr().out.splitlines()[0] == SAID, command


@pytest.mark.heavy
def test_solve_of_a_swap_that_folds_says_it_is_one_swap_from_the_king(capsys):
    assert main(["solve", SWAPPED, "--first", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == SAID
    assert main(["solve", SWAPPED, "--first", "--json"]) == 0
    typo = json.loads(capsys.readouterr().out)["catalog_typo"]
    assert typo["name"] == "king" and typo["segment_lengths"] == KING


@pytest.mark.heavy
@pytest.mark.parametrize("command", ["show", "fold"])
def test_a_king_that_does_not_fold_names_the_king_in_show_and_fold(command, capsys):
    assert main([command, NO_FOLD]) == 2
    err = capsys.readouterr().err
    assert f"nothing to {command}; nearby designs that fold: king, from the catalog" in err


@pytest.mark.parametrize("name", [e.name for e in catalog.ENTRIES])
def test_every_typo_of_every_catalog_puzzle_names_it_first(name):
    """Each kind of typo of each catalog puzzle, at every size, typed from either end: the
    puzzle is the first catalog design named (found without a search)."""
    from snakecube.nearby import catalog_typos

    true = sc.Snake.parse(name)
    side = max(catalog.find(name).box)
    for typed in (true, true.reversed()):
        for cubes in (true.cubes - 1, true.cubes, true.cubes + 1):
            for typo, _ in itertools.islice(edits(typed, cubes, side + 1), 0, None, 7):
                if catalog.recognize(typo.turns()) is not None:
                    continue  # a typo that makes another catalog puzzle
                found = catalog_typos(typo)
                assert found and found[0].entry.name == name, (name, typo)
                assert sorted(found[0].snake.lengths) == sorted(typed.lengths)
