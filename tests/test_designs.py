"""Designs: difficulty ratings and generated designs, checked independently."""

from __future__ import annotations

import json

import pytest

import snakecube as sc
from snakecube.census import census
from snakecube.cli import main


@pytest.mark.heavy
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
    args = [
        "generate",
        "--box",
        "3x3x3",
        "--count",
        "3",
        "--seed",
        "4",
        "--min-straights",
        "8",
        "--max-segment",
        "3",
        "--json",
    ]
    assert main(args) == 0
    rows = json.loads(capsys.readouterr().out)["designs"]
    assert len(rows) == 3
    for row in rows:
        snake = sc.Snake(tuple(row["segment_lengths"]))
        assert snake.turns() == row["turns"] and max(snake.lengths) <= 3
        assert snake.cubes - 1 - snake.segments >= 8 and row["difficulty"] > 0
    assert main(["generate", "--box", "3x3x3", "--count", "0"]) == 2


def test_rate_is_the_same_on_the_pure_python_engine():
    from snakecube.designs import rate
    from snakecube.search import kernel
    from snakecube.search.options import DEAD_END, PARITY
    from snakecube.search.reference import Reference

    # The reference with the kernel's pruning visits the same nodes, so the score is the
    # same where the kernel could not be compiled.
    for name in ("standard", "seed-blue", "seed-orange"):
        box = sc.Box(3, 3, 3)
        for s in (sc.Snake.parse(name), sc.Snake.parse(name).reversed()):
            pure = sc.solve(s, box, engine=Reference(DEAD_END | PARITY), workers=1)
            if kernel.AVAILABLE:
                fast = sc.solve(s, box, engine=kernel.Kernel(DEAD_END | PARITY), workers=1)
                assert pure.nodes == fast.nodes
        assert rate(name).complete


def test_rate_never_scores_a_partial_search(monkeypatch):
    from snakecube import designs
    from snakecube.search import solve

    def interrupted(*args, **kwargs):
        def stop(done, total, found):
            raise KeyboardInterrupt

        return solve(*args, **{**kwargs, "progress": stop})

    monkeypatch.setattr("snakecube.designs.solve", interrupted)
    r = designs.rate("seed-blue")
    assert not r.complete and r.stop_reason == "interrupted" and r.difficulty is None


def test_generated_designs_keep_their_own_path():
    from snakecube.designs import generate

    box = sc.Box(2, 3, 4)
    for g in generate(box, count=3, seed=5):
        sol = g.solution
        sol.verify()
        assert sol.snake == g.rating.snake and sol.region == box


def test_generate_refuses_impossible_requests_at_once():

    from snakecube.designs import generate, max_straights

    box = sc.Box(3, 3, 3)
    with pytest.raises(sc.InputError, match="at most 13 straight cubes"):
        next(generate(box, min_straights=14))
    with pytest.raises(sc.InputError, match="1 cell"):
        next(generate(sc.Box(1, 1, 1)))
    with pytest.raises(sc.InputError, match="at most 125 for generate"):
        next(generate(sc.Box(6, 6, 6)))
    # The bound holds for every design of the box (census of 3x3x3 designs).
    assert max_straights(box) >= 13


def test_straightness_counts_corners_locally_and_leans_to_long_runs():
    import random

    from snakecube.designs import _added_corners, backbite, design_of, random_path

    box = sc.Box.parse("4x4x4")
    rng = random.Random(3)
    path = random_path(box, rng, moves=500)

    def corners(p):
        return design_of([box.cells[c] for c in p]).segments - 1

    for _ in range(2000):  # the local count equals the whole path's change, every move
        if rng.random() < 0.5:
            path.reverse()
        pick = rng.choice([n for n in box.neighbours[path[-1]] if n >= 0])
        if pick == path[-2]:
            continue
        i = path.index(pick)
        moved = path[: i + 1] + path[i + 1 :][::-1]
        assert corners(moved) - corners(path) == _added_corners(box.cells, path, i)
        path = moved

    def mean_segments(b: float) -> float:
        r = random.Random(4)
        p = backbite(box, random_path(box, r, moves=0), r, 20_000, b)
        total = 0
        for _ in range(20):
            p = backbite(box, p, r, 4096, b)
            total += design_of([box.cells[c] for c in p]).segments
        return total / 20

    assert mean_segments(2.0) < mean_segments(1.0) - 3 < mean_segments(0.0) - 6


def test_generate_straightness_is_checked(capsys):
    assert main(["generate", "--box", "3x3x3", "--straightness", "11"]) == 2
    assert "straightness" in capsys.readouterr().err
    from snakecube.designs import generate

    with pytest.raises(sc.InputError):
        next(generate(sc.Box.parse("3x3x3"), straightness=-1))


def test_rate_stops_at_max_nodes_without_a_score():
    from snakecube.designs import rate

    whole = rate("standard")
    cut = rate("standard", max_nodes=3)
    assert not cut.complete and cut.stop_reason == "nodes" and cut.difficulty is None
    assert rate("standard", max_nodes=10**9) == whole  # a limit it stays within changes nothing


def test_generate_in_5x5x5_ends_with_a_design_whose_count_is_out_of_reach():
    """Counting every solution of a random 5x5x5 design may take days: the rating stops at
    the node limit and the design comes, marked unrated, with its own path as a solution."""
    from snakecube.designs import generate

    box = sc.Box(5, 5, 5)
    g = next(generate(box, max_nodes=2000, workers=1))
    assert not g.rating.complete and g.rating.difficulty is None and g.rating.distinct >= 1
    assert g.to_dict()["difficulty"] is None and g.to_dict()["solutions"] >= 1
    g.solution.verify()
    assert g.rating.snake == sc.Snake.parse(",".join(map(str, g.rating.snake.lengths)))


def test_generate_seconds_ends_it_with_the_first_designs_of_a_longer_run():
    import time

    from snakecube.designs import generate

    box = sc.Box(4, 4, 4)
    began = time.monotonic()
    found = [g.rating.snake for g in generate(box, count=500, unique=True, seconds=1.5, workers=1)]
    assert time.monotonic() - began < 1.5 + 5  # the margin is for a busy machine
    assert len(found) < 500
    # What a machine finds in 1.5 s depends on its speed (none, in pure Python on a busy one):
    # whatever it found is exactly what a run asked for that many designs finds.
    if found:
        again = [g.rating.snake for g in generate(box, count=len(found), unique=True, workers=1)]
        assert again == found


def test_generate_command_stops_at_its_time_limit_with_exit_0(capsys):
    assert main(["generate", "--box", "5x5x5", "--unique", "--seconds", "1", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["complete"] is False and data["stop_reason"] == "seconds"
    assert "stopped at the time limit, 1 s" in captured.err
