"""Several targets on the command line: solve answers for each in turn and says which the
snake folds into; check, show and fold take one of them (--target); generate makes designs
unique in several boxes."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

import snakecube as sc
from snakecube.designs import generate

ROOT = Path(__file__).resolve().parents[1]
BOTH = "ECCCCCCCCCSSCCCCCCCCCCSE"  # folds into the 2x3x4 box and the 4x6x1 box
ZIGZAG = "E" + "C" * 22 + "E"  # folds into the 2x3x4 box, not flat: a staircase


def _without_times(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("search ")]


def test_solve_answers_for_each_target_as_for_one(cli):
    code, out, _ = cli("solve", BOTH, "--box", "2x3x4", "--box", "4x6x1", "--quiet")
    assert code == 0
    sections = out.split("=== target ")[1:]
    assert [s.splitlines()[0] for s in sections] == [
        "1 of 2: 2x3x4 box ===",
        "2 of 2: 4x6x1 box ===",
    ]
    for section, box in zip(sections, ("2x3x4", "4x6x1"), strict=True):
        alone = cli("solve", BOTH, "--box", box, "--quiet")[1]
        body = section.split("===\n", 1)[1].rstrip("\n").split("\n\nfolds into")[0]
        assert _without_times(body) == _without_times(alone.rstrip("\n"))
    assert out.rstrip().splitlines()[-1] == (
        "folds into the 2x3x4 box and the 4x6x1 box (2 of 2 targets)"
    )


def test_solve_says_which_targets_it_does_not_fold_into(cli):
    code, out, _ = cli(
        "solve", ZIGZAG, "--box", "4x6x1", "--box", "2x3x4", "--box", "3x8x1", "--first", "--quiet"
    )
    assert code == 0
    assert out.rstrip().splitlines()[-1] == (
        "folds into the 2x3x4 box (1 of 3 targets; not into the 4x6x1 box and the 3x8x1 box)"
    )


def test_solve_json_has_a_result_per_target(cli, tmp_path):
    region = _flat(tmp_path)
    # The same cells as a box first: the region file's answer still names a region (a cache
    # of problems once gave it the box's name, only when a test before it had solved the box).
    cli("solve", BOTH, "--box", "4x6x1", "--json", "--quiet")
    code, out, _ = cli("solve", BOTH, "--box", "2x3x4", "--region", region, "--json", "--quiet")
    data = json.loads(out)
    assert code == 0 and data["complete"] is True
    named = ["2x3x4 box", "region of 24 cells (within 4x6x1)"]
    assert [r["target"]["description"] for r in data["results"]] == named
    assert data["folds_into"] == named
    one = json.loads(cli("solve", BOTH, "--box", "2x3x4", "--json", "--quiet")[1])
    mine = data["results"][0]
    for key in ("placements", "distinct", "distinct_up_to_reversal", "solutions", "complete"):
        assert mine[key] == one[key], key


def _flat(folder, text: str = "####\n" * 6) -> str:
    path = folder / "flat.txt"
    path.write_text(text)
    return str(path)


def test_solve_keeps_the_order_of_boxes_and_regions(cli, tmp_path):
    notch = _flat(tmp_path, "#####\n" * 4 + "####.\n")  # 24 cells: a 4x5 board and 4 more
    _, out, _ = cli("solve", BOTH, "--region", notch, "--box", "2x3x4", "--json", "--quiet")
    data = json.loads(out)
    assert [r["target"]["description"] for r in data["results"]] == [
        "region of 24 cells (within 5x5x1)",
        "2x3x4 box",
    ]


def test_solve_stopped_says_so_and_the_last_line_leaves_the_rest_open(cli):
    floppy = "E" + "C" * 62 + "E"  # its counts in these boxes take hours
    code, out, _ = cli(
        "solve",
        floppy,
        "--box",
        "4x4x4",
        "--box",
        "2x4x8",
        "--seconds",
        "0.5",
        "--quiet",
        "--workers",
        "1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["complete"] is False and data["stop_reason"] == "seconds"
    assert [r["complete"] for r in data["results"]] == [False, False]


def test_the_last_line_names_what_folds_what_does_not_and_what_is_open():
    from types import SimpleNamespace

    from snakecube.cli.solving import folds_line

    boxes = [sc.Box(4, 4, 4), sc.Box(8, 8, 1), sc.Box(2, 4, 8), sc.Box(1, 8, 8)]
    results = [
        SimpleNamespace(region=boxes[0], solutions=(1,), complete=False),  # found, stopped
        SimpleNamespace(region=boxes[1], solutions=(), complete=True),  # none: proven
        SimpleNamespace(region=boxes[2], solutions=(), complete=False),  # none before the stop
    ]
    assert folds_line(results, boxes) == (
        "folds into the 4x4x4 box (1 of 4 targets; not into the 8x8x1 box; unknown, the "
        "search stopped first: the 2x4x8 box and the 1x8x8 box)"
    )
    assert folds_line(results[1:2], boxes[1:2]) == (
        "folds into none of the targets (0 of 1 target; not into the 8x8x1 box)"
    )


def test_solve_refuses_targets_of_another_size(refused):
    refused("solve", BOTH, "--box", "2x3x4", "--box", "3x3x3", words="equal size")


def test_check_show_and_fold_take_the_target_asked_for(cli, refused):
    flat = "0,0,0 0,1,0 1,1,0 1,0,0 2,0,0 2,1,0 3,1,0 3,0,0"
    code, out, _ = cli(
        "check", "ECCCCCCE", flat, "--box", "2x2x2", "--box", "4x2x1", "--target", "2"
    )
    assert code == 0 and "verdict    a solution of ECCCCCCE in the 4x2x1 box" in out
    code, out, _ = cli("check", "ECCCCCCE", flat, "--box", "2x2x2", "--box", "4x2x1")
    assert code == 0 and "outside the 2x2x2 box" in out  # the first target by default
    code, out, _ = cli("show", BOTH, "--box", "2x3x4", "--box", "4x6x1", "--target", "4x6x1")
    assert code == 0 and "(6 wide, 4 deep, 1 high)" in out
    code, out, _ = cli("fold", BOTH, "--box", "2x3x4", "--box", "4x6x1", "--target", "1", "--json")
    assert code == 0 and json.loads(out)["found"]
    refused("show", BOTH, "--box", "2x3x4", "--box", "4x6x1", "--target", "3", words="give 1 to 2")
    refused("show", BOTH, "--box", "2x3x4", "--target", "3x3x3", words="none of the targets")
    refused("show", "standard", "--target", "2", words="--target picks one of several")


# -- generate -------------------------------------------------------------------------------


def test_generate_makes_designs_unique_in_every_box():
    boxes = [sc.Box(2, 3, 4), sc.Box(4, 6, 1)]
    made = list(generate(boxes[0], count=3, seed=1, unique=True, also=boxes[1:]))
    assert len(made) == 3
    for g in made:
        for box, rating in zip(boxes, g.ratings, strict=True):
            r = sc.solve(g.rating.snake, box)  # an exhaustive count, independent of generate
            assert r.complete and r.distinct_up_to_reversal == rating.distinct == 1
        assert len({g.rating.snake.lengths for g in made}) == 3


def test_generate_marks_only_the_targets_asked_for_unique():
    boxes = [sc.Box(2, 3, 4), sc.Box(4, 6, 1)]
    made = list(generate(boxes[0], count=2, seed=3, unique=[1], also=boxes[1:]))
    for g in made:
        counts = [sc.solve(g.rating.snake, b).distinct_up_to_reversal for b in boxes]
        assert counts[1] == 1 and counts[0] >= 1 and [r.distinct for r in g.ratings] == counts


def test_generate_on_the_command_line(cli, refused):
    code, out, _ = cli(
        *shlex.split("generate --box 2x3x4 --box 4x6x1 --unique --count 2 --json --seed 5")
    )
    data = json.loads(out)
    assert code == 0 and data["complete"] and len(data["designs"]) == 2
    for d in data["designs"]:
        assert [t["target"] for t in d["targets"]] == ["2x3x4 box", "4x6x1 box"]
        assert [t["solutions"] for t in d["targets"]] == [1, 1]
        for t in d["targets"]:  # each carries a solution, checked independently
            box = sc.Box.parse(t["target"].split()[0])
            sc.verify(d["segment_lengths"], box.cells, t["cells"])
    code, out, _ = cli(
        "generate", "--box", "2x3x4", "--box", "4x6x1", "--unique", "4x6x1", "--seed", "5"
    )
    assert code == 0 and "4x6x1: 1 solution" in out
    refused("generate", "--box", "2x3x4", "--box", "3x3x3", words="equal size")
    refused(
        *shlex.split("generate --box 2x3x4 --box 4x6x1 --unique 3x8x1"), words="none of the boxes"
    )


@pytest.mark.slow
def test_generate_the_chess_board_snake_cube():
    """Malloy's puzzle: 64 cubes that fold into the 4x4x4 cube and the 8x8 board, each in
    exactly one way, proven by a complete count in both. The design is the one docs/census.md
    shows `generate --box 4x4x4 --box 8x8x1 --unique --seed 4` print (test_docs runs that
    command and compares its output), counted again here by `solve`."""
    text = (ROOT / "docs" / "census.md").read_text(encoding="utf-8")
    example = text.split("$ snakecube generate --box 4x4x4 --box 8x8x1 --unique --seed 4\n")[1]
    snake = sc.Snake.parse(example.splitlines()[1].strip())  # the lengths:... line
    assert snake.cubes == 64 and max(snake.lengths) <= 4
    for box in (sc.Box(4, 4, 4), sc.Box(8, 8, 1)):
        answer = sc.solve(snake, box)
        assert answer.complete and answer.distinct_up_to_reversal == 1


def test_a_census_of_several_targets_says_what_it_will_take(cli, tmp_path):
    """As for one target: forecast first, refused past a day with what to do instead, and
    nothing written; --seconds runs part of it and keeps the store."""
    store = tmp_path / "store"
    code, _, err = cli("designs", "--box", "4x4x4", "--box", "8x8x1", "--store", str(store))
    assert code == 2 and len(err.splitlines()) == 1
    assert "years on" in err and "--seconds" in err and not store.exists()
    code, out, err = cli(
        "designs", "--box", "4x4x4", "--box", "8x8x1", "--store", str(store), "--seconds", "1"
    )
    assert code == 0 and "the census will take about" in err and "complete       no" in out
    assert (store / "manifest.json").is_file()
