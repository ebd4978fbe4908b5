"""The census of several targets (``snakecube designs --box A --box B``): against brute force
over every Hamiltonian path of each target, against the one-target censuses, and the search
in a target whose census is out of reach (``--fold-into``); its store resumes and refuses."""

from __future__ import annotations

import csv
import functools
import json
import random
import shutil
from pathlib import Path

import pytest

import snakecube as sc
from bruteforce import box_cells, folds, solutions_by_design_of
from snakecube.census import census
from snakecube.census import decide as deciding
from snakecube.census.decide import FOLDS, NO, OPEN, decide, first_end, fitting, longest_line
from snakecube.census.several import joint_census
from snakecube.verify import violations

# Flat shapes with cut corners, and a 2x3x3 with two cells cut: so the triples below have
# designs in common (no triple of boxes of 8 to 18 cells has one).
SHAPES = {
    "3x6-2": "######\n######\n.####.\n",
    "4x5-4": ".###.\n#####\n#####\n.###.\n",
    "3x3x2-2": "###\n###\n###\n\n###\n###\n#..\n",
    "2x3x3-2": "##\n##\n##\n\n##\n##\n##\n\n##\n##\n..\n",
}


def _target(name: str) -> sc.Region:
    if name in SHAPES:
        return sc.Region.parse(SHAPES[name])
    return sc.Box(*map(int, name.split("x")))


@functools.cache
def _brute(name: str) -> dict:
    """Design -> distinct solutions, from every Hamiltonian path (tests/bruteforce.py)."""
    return solutions_by_design_of(list(_target(name).cells))


def common_designs(names) -> dict:
    """Design -> its solutions in each target, for those in every target, by brute force."""
    each = [_brute(n) for n in names]
    return {k: tuple(d[k] for d in each) for k in set.intersection(*(set(d) for d in each))}


CASES = [
    ("2x2x2", "2x4x1"),  # 8 cells
    ("2x2x3", "2x6x1"),  # 12
    ("2x2x3", "3x4x1"),
    ("2x2x4", "4x4x1"),  # 16
    ("2x2x4", "2x8x1"),
    ("2x2x3", "3x4x1", "2x6x1"),  # a triple of boxes: none in common
    ("2x2x4", "2x8x1", "3x3x2-2"),  # triples with designs in common
    ("2x2x4", "3x6-2", "2x3x3-2"),
    ("4x4x1", "4x5-4", "3x3x2-2"),
]
SLOW_CASES = [
    ("2x3x3", "3x6x1"),  # 18
    ("2x3x3", "2x9x1"),
    ("2x3x3", "3x6x1", "2x9x1"),  # 0
]


def _check(names):
    want = common_designs(names)
    with joint_census([_target(n) for n in names]) as got:
        assert got.complete and got.exact
        mine = {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs}
        assert mine == want
        assert got.design_count == len(want)
        for i in range(len(names)):
            assert got.solution_counts[i] == sum(v[i] for v in want.values())
            assert got.unique[i] == sum(1 for v in want.values() if v[i] == 1)
            assert sum(got.histograms[i].values()) == len(want)
        assert got.unique_in_all == sum(1 for v in want.values() if set(v) == {1})
        assert got.palindromes == sum(1 for k in want if k == k[::-1])
        assert [c.design_count for c in got.alone] == [len(_brute(n)) for n in names]


@pytest.mark.parametrize("names", CASES, ids="+".join)
def test_several_targets_equal_brute_force(names):
    _check(names)


@pytest.mark.slow
@pytest.mark.parametrize("names", SLOW_CASES, ids="+".join)
def test_several_targets_of_18_cells_equal_brute_force(names):
    _check(names)


def test_a_triple_with_no_design_in_common_says_0(cli):
    code, out, _ = cli(
        "designs", "--box", "2x2x3", "--box", "3x4x1", "--box", "2x6x1", "--quiet", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["designs"] == 0 and data["complete"] and data["top"] == []
    assert [a["designs"] for a in data["alone"]] == [17, 18, 10]


@pytest.mark.slow
def test_2x3x4_and_4x6x1_share_the_designs_of_their_two_censuses(cli, tmp_path):
    """The issue's measurement: the two one-target CSVs, each design read in its smaller
    direction, intersected; the census of both must list exactly those, with both counts."""
    each = []
    for box in ("2x3x4", "4x6x1"):
        path = tmp_path / f"{box}.csv"
        assert cli("designs", "--box", box, "--csv", str(path), "--quiet")[0] == 0
        with path.open() as f:
            each.append(
                {_smaller(r["segment_lengths"]): int(r["solutions"]) for r in csv.DictReader(f)}
            )
    both = tmp_path / "both.csv"
    code, out, _ = cli(
        "designs", "--box", "2x3x4", "--box", "4x6x1", "--csv", str(both), "--quiet", "--json"
    )
    assert code == 0
    data = json.loads(out)
    with both.open() as f:
        rows = list(csv.DictReader(f))
    mine = {
        _smaller(r["segment_lengths"]): (int(r["solutions_2x3x4"]), int(r["solutions_4x6x1"]))
        for r in rows
    }
    want = {k: (v, each[1][k]) for k, v in each[0].items() if k in each[1]}
    assert mine == want and data["designs"] == len(want) == len(rows)
    # Independent of both censuses: a sample folded by the brute force's own placement search.
    for key in sorted(want)[:: max(1, len(want) // 6)]:
        assert folds(key, box_cells(4, 6, 1)) == want[key][1]


def _smaller(lengths: str) -> tuple[int, ...]:
    t = tuple(map(int, lengths.split()))
    return min(t, t[::-1])


def test_the_text_answer_names_the_targets_and_the_share(cli):
    code, out, _ = cli("designs", "--box", "2x2x4", "--box", "4x4x1", "--quiet", "--top", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "targets        2x2x4 box, 4x4x1 box"
    assert lines[1] == (
        "designs        11 fold into every target (11.3 % of the 2x2x4 box's 97, 28.9 % of "
        "the 4x4x1 box's 38)"
    )
    assert lines[4].split() == ["per", "target", "2x2x4", "4x4x1"]
    assert lines[6].split() == ["designs", "alone", "97", "38"]
    assert "top 3 by solutions:" in out


def test_targets_of_another_size_or_twice_are_refused(refused):
    refused("designs", "--box", "2x2x3", "--box", "2x2x4", words="equal size")
    refused("designs", "--box", "2x2x3", "--box", "2x2x3", words="given twice")
    refused("designs", "--box", "2x2x3", "--box", "2x6x1", "--difficulty", words="one --box")
    refused("designs", "--box", "2x2x3", "--nodes", "5", words="--fold-into")


# -- the store -----------------------------------------------------------------------------


def test_the_store_resumes_and_holds_each_targets_census(tmp_path, cli):
    store = tmp_path / "both"
    args = (
        "designs",
        "--box",
        "2x2x4",
        "--box",
        "4x4x1",
        "--store",
        str(store),
        "--quiet",
        "--json",
        "--partitions",
        "4",
    )
    first = json.loads(cli(*args)[1])
    assert sorted(p.name for p in (store / "targets").iterdir()) == ["2x2x4", "4x4x1"]
    parts = sorted((store / "parts").iterdir())
    assert parts
    parts[0].unlink()  # a partition to redo
    again = json.loads(cli(*args)[1])
    assert again == first and again["designs"] == 11
    # A target's folder is a one-target census store: the census reads it as its own.
    alone = json.loads(
        cli(
            "designs",
            "--box",
            "4x4x1",
            "--store",
            str(store / "targets" / "4x4x1"),
            "--partitions",
            "4",
            "--quiet",
            "--json",
        )[1]
    )
    assert alone["designs"] == first["alone"][1]["designs"] == 38


def test_the_store_refuses_other_targets_and_a_one_target_store(tmp_path, cli, refused):
    store = tmp_path / "s"
    assert (
        cli("designs", "--box", "2x2x3", "--box", "2x6x1", "--store", str(store), "--quiet")[0] == 0
    )
    refused(
        "designs",
        "--box",
        "2x6x1",
        "--box",
        "2x2x3",
        "--store",
        str(store),
        words="belongs to another census of several targets",
    )
    one = tmp_path / "one"
    assert cli("designs", "--box", "2x2x3", "--store", str(one), "--quiet")[0] == 0
    refused(
        "designs",
        "--box",
        "2x2x3",
        "--box",
        "2x6x1",
        "--store",
        str(one),
        words="census store of one target",
    )


def test_the_store_refuses_an_edited_partition(tmp_path, cli, refused):
    store = tmp_path / "s"
    args = ("designs", "--box", "2x2x4", "--box", "4x4x1", "--store", str(store), "--quiet")
    assert cli(*args)[0] == 0
    part = sorted((store / "parts").iterdir())[0]
    data = bytearray(part.read_bytes())
    data[-1] ^= 1
    part.write_bytes(bytes(data))
    refused(*args, "--csv", str(tmp_path / "x.csv"), words="does not match its checksum")


# -- a target decided by search -------------------------------------------------------------


def test_longest_line_and_fitting_designs():
    assert longest_line(sc.Box(4, 4, 4)) == 4 and longest_line(sc.Box(8, 8, 1)) == 8
    assert longest_line(_target("4x5-4")) == 5
    import numpy as np

    designs = census(sc.Box(2, 2, 4)).designs
    keys = []
    for d in designs:  # the census's key: bit i-1 set where cube i turns
        bits = d.snake.bits()[1:-1]
        keys.append(min(int(bits[::-1], 2), int(bits, 2)))
    fit = fitting(np.array(keys, np.uint64), 16, 3)
    assert [bool(f) for f in fit] == [max(d.snake.lengths) <= 3 for d in designs]


@pytest.mark.parametrize(
    "counted,searched", [("4x4x1", "2x2x4"), ("2x2x3", "2x6x1"), ("4x5-4", "2x2x4")]
)
def test_a_search_in_one_more_target_equals_its_census(counted, searched):
    want = common_designs([counted, searched])
    with joint_census([_target(counted)], fold_into=_target(searched)) as got:
        assert got.complete and got.exact and got.searched.open == 0
        found = {min(d.snake.lengths, d.snake.lengths[::-1]): d.distinct for d in got.designs}
        assert found == {k: v[:1] for k, v in want.items()}
        assert got.design_count == got.searched.folds == len(want)
        assert got.searched.decided == got.searched.candidates


def test_a_search_stopped_early_is_a_lower_bound_with_an_estimate(tmp_path):
    """The census counted, the search stopped at its time limit before its slices were
    done, then resumed to the end. (``seconds`` stops any phase: so that the search is the
    one stopped, the counted census is taken from a finished store.)"""
    store = tmp_path / "s"
    exact = joint_census([sc.Box(2, 3, 3)], fold_into=sc.Box(3, 6, 1), store=store)
    assert exact.exact
    shutil.copytree(store, tmp_path / "t")
    shutil.rmtree(tmp_path / "t" / "searched")
    with joint_census(
        [sc.Box(2, 3, 3)], fold_into=sc.Box(3, 6, 1), store=tmp_path / "t", seconds=1e-9
    ) as early:
        s = early.searched
        assert not early.complete and early.stop_reason == "seconds" and not early.exact
        assert s is not None and (s.tasks[0] < s.tasks[1] or s.candidates is None)
        assert early.design_count <= exact.design_count
    with joint_census(
        [sc.Box(2, 3, 3)], fold_into=sc.Box(3, 6, 1), store=tmp_path / "u", seconds=1e-9
    ) as counting:
        assert counting.stop_reason == "seconds" and counting.searched is None
    again = joint_census([sc.Box(2, 3, 3)], fold_into=sc.Box(3, 6, 1), store=tmp_path / "t")
    assert again.exact and again.design_count == exact.design_count


@pytest.mark.parametrize("counted,searched", [("4x4x1", "2x2x4"), ("2x2x4", "2x8x1")])
def test_decide_agrees_with_a_plain_placement_search(counted, searched, monkeypatch):
    """Every design of ``counted`` asked of ``searched``: FOLDS exactly when the brute force
    of tests/bruteforce.py (every placement, no census or search code) places it, with the
    rounds' first budget cut to 1 node (so most designs take several growing rounds); with a
    node limit, a design the limit leaves OPEN, and the others right."""
    import random

    region, cells = _target(searched), list(_target(searched).cells)
    rng = random.Random(7)
    both = sorted(common_designs([counted, searched]))
    alone = sorted(set(_brute(counted)) - set(both))
    lengths = rng.sample(both, min(20, len(both))) + rng.sample(alone, 20)
    monkeypatch.setattr(deciding, "ROUND_NODES", 1)
    seen = set()
    for design in lengths:
        snake = sc.Snake.from_lengths(design)
        want = FOLDS if folds(design, cells) else NO
        outcome, spent = decide(snake, region)
        assert outcome == want and spent >= 0
        assert isinstance(first_end(snake, region), bool)
        assert decide(snake, region, nodes=3)[0] in (want, OPEN)
        seen.add(want)
    assert seen == {FOLDS, NO}  # both answers were asked for


def test_fold_into_on_the_command_line(cli, tmp_path):
    out_csv = tmp_path / "found.csv"
    code, out, _ = cli(
        "designs",
        "--box",
        "4x4x1",
        "--fold-into",
        "2x2x4",
        "--quiet",
        "--json",
        "--csv",
        str(out_csv),
    )
    data = json.loads(out)
    assert code == 0 and data["designs"] == 11 and data["exact"]
    assert data["targets"] == ["4x4x1 box", "2x2x4 box"]
    assert data["searched"]["folds"] == 11 and data["searched"]["open"] == 0
    with out_csv.open() as f:
        assert len(list(csv.DictReader(f))) == 11


DATA = Path(__file__).resolve().parents[1] / "docs" / "data"


def _drawn(name: str, k: int) -> list[dict[str, str]]:
    with (DATA / name).open() as f:
        rows = list(csv.DictReader(f))
    return random.Random(len(rows)).sample(rows, k)


def test_the_chess_board_snakes_fold_into_both_and_the_rejected_into_the_board_only():
    """docs/data: designs listed as folding into the 4x4x4 and the 8x8 board get a solution
    in each, checked by the independent verifier; candidates the deciding rejected (a
    sample drawn by benchmarks/census_rejected.py) fit the board, and a complete search
    (every solution, not the deciding's first-solution rounds) finds none in the cube."""
    cube, board = sc.Box(4, 4, 4), sc.Box(8, 8, 1)
    for name, in_cube in (("chess-board-snakes.csv", True), ("chess-board-rejected.csv", False)):
        for row in _drawn(name, 3):
            snake = sc.Snake.from_turns(row["turns"])
            assert " ".join(map(str, snake.lengths)) == row["segment_lengths"]
            assert max(snake.lengths) <= 4
            for box in (cube, board) if in_cube else (board,):
                (sol,) = sc.solve(snake, box, limit=1, workers=1).solutions
                assert violations(snake.lengths, box.cells, sol.cells) == []
            if not in_cube:
                r = sc.solve(snake, cube, workers=1)
                assert r.complete and not r.solutions
