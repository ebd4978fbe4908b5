"""What a puzzle owner, a designer and a researcher tripped on in their first hour: runs
with each corner counted once, a run too long for the box named first, hard designs on
request with the catalog as their scale."""

from __future__ import annotations

import json
import time

import pytest

import snakecube as sc
from snakecube import Snake
from snakecube.cli import main, parse
from snakecube.cli.base import typo_hint
from snakecube.designs import SCALE, rate, scale_words
from snakecube.search.inputs import too_long

STANDARD_RUNS = "3 2 2 2 1 1 1 2 2 1 1 2 1 2 1 1 2"


def test_runs_with_each_corner_counted_once(capsys):
    """The first run whole, then each run's new cubes: 27 cubes, the standard snake, said
    so and named; the steps reading (28 cubes) is not taken."""
    snake = Snake.parse(STANDARD_RUNS)
    assert snake == Snake.parse("standard") and snake.notation == "runs"
    assert snake.reading.startswith("read as runs with each corner counted once")
    assert "3, then 2, 2, 2, 1, ..." in snake.reading
    assert Snake.parse("runs:" + STANDARD_RUNS.replace(" ", ",")) == snake
    assert Snake.parse(snake.format("runs")) == snake
    assert main(["solve", STANDARD_RUNS]) == 0
    out = capsys.readouterr().out
    assert "(this is the catalog's standard" in out and "runs with each corner" in out
    # plain lengths still read as lengths, and steps as steps, where those fit
    assert Snake.parse("3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3").notation == "lengths"
    assert Snake.parse("2,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2").notation == "steps"


def test_nearby_quotes_the_numbers_as_typed(capsys):
    """A typo in runs: the suggestion speaks of items as typed, not of segment lengths."""
    assert main(["solve", "3 2 2 2 1 1 1 2 2 1 1 2 1 2 1 2 1"]) == 0
    out = capsys.readouterr().out
    assert "one typo from the catalog's standard: items 16 and 17 swapped (2,1 -> 1,2)" in out


def test_a_nearby_design_is_written_as_the_snake_was_typed(capsys):
    """Typed as runs, the design one typo away is written as runs too, so that it reads as
    the numbers typed (before: as lengths, "lengths:3,3,3,3,...", numbers never typed); typed
    as lengths, as lengths. The page's links are written the same way."""
    from snakecube.web import answers

    runs = "3 2 2 2 1 1 2 1 2 1 1 2 1 2 1 1 2"  # the standard's runs, items 7 and 8 swapped
    assert main(["solve", runs]) == 0
    out = capsys.readouterr().out
    assert "  standard, from the catalog: runs:3,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2\n" in out
    assert "items 7 and 8 swapped (2,1 -> 1,2)" in out
    assert sc.Snake.parse("runs:3,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2") == sc.Snake.parse("standard")
    lengths = "3-3-3-3-2-2-3-2-3-2-2-3-2-3-2-2-3"  # the same typo, typed as lengths
    assert main(["solve", lengths]) == 0
    assert "  standard, from the catalog: lengths:3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3\n" in (
        capsys.readouterr().out
    )
    said = answers.solve_answer(runs)
    assert said["nearby"][0]["text"] == "runs:3,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2"
    steps = "2,2,2,2,1,1,2,1,2,1,1,2,1,2,1,1,2"  # steps, no prefix: the same swap
    assert main(["solve", steps]) == 0
    out = capsys.readouterr().out
    assert "  standard, from the catalog: steps:2,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2\n" in out
    assert sc.Snake.parse("steps:2,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2") == sc.Snake.parse("standard")
    # the error line of a snake that does not fit: its suggestions are written so too (what
    # the look-up finds in its 0.2 s; all of it, with time enough, from typo_hint itself)
    short = "runs:3,2,2,2,1,1,1,2,2,1,1,2,1,2,1,2"
    assert main(["solve", short]) == 2
    err = capsys.readouterr().err
    assert "standard, from the catalog (an item of 1 left out before item 15)" in err
    assert "lengths:" not in err
    hint = typo_hint(parse(["solve", short]), seconds=60)
    assert "; runs:3,2,1,2,2,1,1,1,2,2,1,1,2,1,2,1,2 (an item of 1 left out before item 3)" in hint


def test_a_run_too_long_is_named_first(capsys):
    """A 64-cube snake with a run of 5 in the 4x4x4 box: the segment named at once, as the
    answer, with no search and no look-up of nearby designs."""
    lengths = [3] + [2] * 27 + [5] + [2] * 30
    text = "-".join(map(str, lengths))
    began = time.monotonic()
    assert main(["solve", text, "--box", "4x4x4"]) == 0
    assert time.monotonic() - began < 2
    out = capsys.readouterr().out
    assert "no solutions: segment 29 has 5 cubes: longer than any side of the 4x4x4 box" in out
    assert "nearby" not in out
    assert main(["solve", text, "--box", "4x4x4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["distinct"], data["complete"]) == (0, True) and "segment 29" in data["impossible"]
    region = sc.Region.parse("####\n#...\n")
    assert region.longest_line == 4
    assert too_long(Snake((5, 2)), sc.Region([(x, 0, 0) for x in range(6)])) == ""
    assert "any straight line of cells in the region (4)" in too_long(Snake((5,)), region)


def test_rate_show_and_fold_name_the_run_too_long_too(capsys):
    """The same snake in rate (before: "difficulty unsolvable", "scale None"), show and fold
    (before: "no solutions ... nothing to show", no reason)."""
    text = "-".join(map(str, [3] + [2] * 27 + [5] + [2] * 30))
    assert main(["rate", text, "--box", "4x4x4"]) == 0
    out = capsys.readouterr().out
    assert "unsolvable: segment 29 has 5 cubes: longer than any side" in out
    assert "None" not in out
    for command in ("show", "fold"):
        assert main([command, text, "--box", "4x4x4"]) == 2
        err = capsys.readouterr().err
        assert "(segment 29 has 5 cubes: longer than any side of the 4x4x4 box)" in err, err


def test_the_scale_is_the_catalogs_ratings():
    """The scale a difficulty is said against is the catalog's own ratings."""
    named = {"the king": "king", "King B": "king-b", "the standard snake": "standard"}
    for name, score in SCALE:
        rated = rate(named.get(name, name))
        assert round(rated.difficulty, 2) == score, name
    assert scale_words(20.5) == "about as hard as the king, 20.73"
    assert scale_words(25).startswith("harder than the king")
    assert scale_words(1).startswith("easier than mean-green")


@pytest.mark.slow
@pytest.mark.heavy
def test_hard_designs_on_request(capsys):
    assert (
        main(
            [
                "generate",
                "--box",
                "4x4x4",
                "--unique",
                "--count",
                "2",
                "--min-difficulty",
                "18",
                "--seed",
                "2",
                "--json",
            ]
        )
        == 0
    )
    designs = json.loads(capsys.readouterr().out)["designs"]
    assert len(designs) == 2 and all(d["difficulty"] >= 18 for d in designs)
    assert all("the king" in d["scale"] for d in designs)
    assert main(["generate", "--box", "3x3x3", "--count", "6", "--hardest", "2"]) == 0
    out = capsys.readouterr().out
    scores = [
        float(line.split("difficulty ")[1].split(" ")[0])
        for line in out.splitlines()
        if "difficulty" in line
    ]
    assert len(scores) == 2 and scores[0] >= scores[1]


def test_the_census_face_for_a_notebook(capsys, tmp_path):
    """`estimate(Box(3, 3, 4))` runs nothing and prints nothing; its str() is one line with
    a time, and its parts add up to its CPU time; `census(..., progress=True)` draws a bar
    (tqdm's) of the forecast work, and a store keeps what was done."""
    from snakecube.census import census, estimate

    f = estimate(sc.Box(3, 3, 4))
    said = str(f)
    assert capsys.readouterr() == ("", "")
    assert "\n" not in said and said.startswith("about ") and " on " in said, said
    assert f.seconds > 0 and abs(sum(f.phases().values()) - f.cpu_seconds) < 1e-6 * f.cpu_seconds
    with census(sc.Box(2, 2, 7), progress=True, store=tmp_path / "s") as c:
        assert c.complete and c.design_count > 0
    assert "census of the 2x2x7 box" in capsys.readouterr().err
    assert (tmp_path / "s" / "manifest.json").exists()
