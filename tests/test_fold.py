"""Fold plans, replayed by an independent simulator (tests/foldsim.py): every state valid,
the start flat, the end the solution; hand-computed moves; words a person can follow."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bruteforce
import foldsim
import follow
import snakecube as sc
from corpus import load_known
from snakecube import fold
from snakecube.cli import main
from snakecube.designs import design_of, random_path
from snakecube.fold import choice
from snakecube.solution import Solution

CORPUS = [p["name"] for p in load_known()["puzzles"]]


def _check(plan: fold.FoldPlan) -> list:
    data = plan.to_dict()
    lengths = list(plan.solution.snake.lengths)
    states = foldsim.replay(data, lengths, set(plan.solution.region.cells))
    assert data["quarter_turns"] >= data["lower_bound"] >= 0
    assert data["sweep_clear"] == sum(m["sweep_clear"] for m in data["moves"])
    for k, m in enumerate(data["moves"]):  # the swing, sampled along the arc
        assert (
            foldsim.ball_sweep_clear(states[k], m["joint"], m["quarter_turns"]) == m["sweep_clear"]
        ), k
    return states


@pytest.mark.parametrize("name", CORPUS)
def test_every_corpus_puzzle_gets_a_valid_plan(name):
    sol = next(sc.solutions(name))
    plan = fold.plan(sol)
    _check(plan)
    # the fewest turns found need no extra turns; the walking plan at most WALK_EXTRA more
    assert plan.fewest == plan.lower_bound
    assert plan.quarter_turns <= plan.fewest + fold.planner.WALK_EXTRA
    fewest = fold.plan(sol, order="fewest")
    _check(fewest)
    assert fewest.quarter_turns == fewest.lower_bound and fewest.order == "fewest"


@pytest.mark.parametrize("end", ["first", "last"])
def test_both_ends(end):
    plan = fold.plan(next(sc.solutions("seed-orange")), end)
    assert plan.held == end
    _check(plan)


def test_the_model_by_hand():
    # cubes 1-2 go +x, 2-3 +y, 3-4 +x: a flat staircase
    cells = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)]
    # joint 2: turn cubes 3..4 about the line from cube 2 to cube 3 (+y), a quarter turn
    # right-handed: about +y, x goes to -z. Cube 3 is on the line; cube 4, one step +x from
    # the line at cube 3, goes one step -z.
    assert foldsim.move(cells, 2, 1) == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, -1)]
    assert fold.model.apply_move(cells, 2, 1) == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, -1)]
    assert fold.model.apply_move(cells, 2, -1) == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
    # joint 1: cubes 2..4 about the line from cube 1 to cube 2 (+x): about +x, y goes to +z
    assert foldsim.move(cells, 1, 1) == [(0, 0, 0), (1, 0, 0), (1, 0, 1), (2, 0, 1)]
    assert fold.model.apply_move(cells, 1, 1) == foldsim.move(cells, 1, 1)
    # dihedrals: segment 3 (+x) is segment 1 (+x) turned 0 quarter turns about segment 2
    assert fold.model.dihedrals_of(cells, [2, 2, 2]) == [0, 0]
    after = fold.model.apply_move(cells, 2, 1)
    assert fold.model.dihedrals_of(after, [2, 2, 2]) == [0, 1]


def test_swings_by_hand():
    # An L of three cubes in a 2x2 square; the fourth corner is taken by a still cube.
    still = [(1, 1, 0), (0, 1, 0), (0, 0, 0), (1, 0, 0)]  # cubes 1..4
    # joint 2: cube 4 swings about the line from cube 2 (0,1,0) to cube 3 (0,0,0), the y
    # axis: from (1,0,0) towards (0,0,1) or (0,0,-1), in the plane y = 0, where only cube 3
    # (on the line) stays: clear both ways.
    assert fold.model.swing_is_clear(still, 2, 1) and fold.model.swing_is_clear(still, 2, -1)
    assert foldsim.ball_sweep_clear(still, 2, 1) and foldsim.ball_sweep_clear(still, 2, -1)
    # A cube at (1, 0, 1) lies on the way of cube 4 turning towards +z (its arc passes at
    # distance 1 - 0.71 from it), but not the other way.
    blocked = [(1, 0, 1), (1, 1, 1), (1, 1, 0), (0, 1, 0), (0, 0, 0), (1, 0, 0)]
    joint = 5  # cubes 5 (0,0,0) and 6 (1,0,0); the line from cube 4 to cube 5 is -y
    # cube 6 at (1,0,0) turns about -y through (0,0,0): right-handed about -y takes x to +z
    assert fold.model.apply_move(blocked, joint - 1, 1)[-1] == (0, 0, 1)
    assert not fold.model.swing_is_clear(blocked, joint - 1, 1)
    assert not foldsim.ball_sweep_clear(blocked, joint - 1, 1)
    assert fold.model.swing_is_clear(blocked, joint - 1, -1)
    assert foldsim.ball_sweep_clear(blocked, joint - 1, -1)


KING_B = "lengths:3,4,4,4,2,4,2,4,2,2,2,2,2,2,2,2,2,3,2,4,3,3,2,4,2,3,2,2,2,2,2,3,2,2,2,2,4,2,4"


def _follow(plan: fold.FoldPlan) -> None:
    """A person with an unnumbered chain follows the words alone (tests/follow.py: the runs
    laid out from the held end, each joint found by counting corners, turned the way said):
    every turn replayed by the simulator folds the snake into the plan's end, up to where the
    table is; the corner each count finds is the plan's joint, and the numbers in brackets,
    there to check by, name it."""
    text = fold.steps_in_words(fold.guide(plan))
    lengths = list(plan.solution.snake.lengths)
    held, runs, records = follow.read_words(text)
    assert held == plan.held
    start = follow.lay_out(lengths, held, runs)
    states, moves = follow.replay(lengths, held, start, records)
    assert [(j, q) for _cube, j, q in moves] == list(plan.moves)
    brackets = [
        tuple(map(int, m)) for m in re.findall(r"\[cubes (\d+) \| (\d+)\]", "\n".join(text))
    ]
    # the held side first, then the corner cube, whichever end is held
    held_first = plan.held == "first"
    assert brackets == [(j, j + 1) if held_first else (j + 1, j) for j, _q, _k in plan.steps()]
    n = len(plan.end)
    anchor = 0 if held == "first" else n - 1
    last = states[-1]
    shift = [plan.end[anchor][k] - last[anchor][k] for k in range(3)]
    assert [tuple(c[k] + shift[k] for k in range(3)) for c in last] == list(plan.end)
    for mine, theirs in zip(states, plan.frames, strict=True):  # the held end kept still
        assert [tuple(c[k] + shift[k] for k in range(3)) for c in mine] == list(theirs)


@pytest.mark.parametrize("name", ["standard", "seed-red", "seed-blue", "mean-green", "king"])
def test_a_person_follows_the_words(name):
    plan = fold.plan(next(sc.solutions(name)))
    _follow(plan)
    text = "\n".join(fold.steps_in_words(fold.guide(plan)))
    # no jargon; the hands are said in their own terms, not as ranges of cube numbers
    assert "in order" not in text and "it passes" not in text and "corners are" not in text
    assert "hold cubes" not in text and not re.search(r"Step \d+:[^\n]*cubes \d+-\d+", text)
    # the flat start is described segment by segment, and lies on the table (z constant)
    assert len({c[2] for c in plan.frames[0]}) == 1


@pytest.mark.parametrize("end", ["first", "last"])
def test_a_person_follows_the_words_of_king_b(end):
    sol = next(sc.solutions(KING_B, sc.Box(4, 4, 4)))
    plan = fold.plan(sol, end)
    assert plan.found and plan.held == end
    _check(plan)
    _follow(plan)


def test_the_table_is_said():
    plan = fold.plan(next(sc.solutions("king")))
    words = fold.steps_in_words(fold.guide(plan))
    k = fold.below_table(plan)
    floor = min(c[2] for c in plan.frames[0])
    if k:  # the words lift the snake before the first step that goes below the table
        assert any(c[2] < floor for c in plan.frames[k])
        assert not any(c[2] < floor for f in plan.frames[:k] for c in f)
        step = max(s for s, (_j, _q, first) in enumerate(plan.steps(), 1) if first < k)
        assert any(f"Before step {step}, lift the snake" in w for w in words)
        # and the step itself says it first, where a person needs it, and no other step
        said = [w for w in words if w.startswith("Step ") and "lift the snake" in w]
        assert said and said[0].startswith(f"Step {step}: first lift the snake"), said
        assert len(said) == 1
        assert fold.guide(plan).start.lift_before == step
    else:
        assert all(c[2] >= floor for f in plan.frames for c in f)
        assert any("stays on the table" in w for w in words)


def test_a_plan_not_found_is_an_answer(capsys):
    plan = fold.plan(next(sc.solutions("king")), nodes=10)
    assert not plan.found and not plan.complete
    assert plan.reason.startswith("no plan found within")
    assert plan.to_dict()["complete"] is False and plan.moves == ()
    assert main(["fold", "king", "--solution", "1", "--nodes", "10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complete"] is False and "no plan found within" in data["reason"]
    assert main(["fold", "king", "--solution", "1", "--nodes", "10"]) == 0
    assert "no plan found within" in capsys.readouterr().out


def test_the_time_limit_stops_the_planner_with_what_it_found(monkeypatch):
    """The planner looks at the clock (``stop.late``) before each member and every 1,024
    nodes; cut there, the answer is the best plan found by then, whole and valid, marked
    incomplete, or none. The clock is replaced by a count of its looks, so the test does not
    depend on the machine's speed."""
    from snakecube import stop
    from snakecube.fold import plans

    sol = next(sc.solutions("king"))
    lengths, cells = list(sol.snake.lengths), set(sol.region.cells)
    whole = fold.plan(sol)
    assert whole.complete and whole.stop_reason is None
    kinds = set()
    for looks in (0, 3, 10, 30, 100):
        seen = [0]

        def late(seen=seen, looks=looks) -> bool:
            seen[0] += 1
            return seen[0] > looks

        plans._free.cache_clear()  # a plan kept from an earlier call would not search
        monkeypatch.setattr(stop, "late", late)
        p = fold.plan(sol)
        monkeypatch.undo()
        assert not p.complete and p.stop_reason == "seconds", looks
        data = p.to_dict()
        assert data["stop_reason"] == "seconds" and data["complete"] is False
        if p.found:
            kinds.add("found")
            assert p.reason.startswith("the time limit came before")
            foldsim.replay(data, lengths, cells)  # whole and valid (an independent simulator)
            assert p.quarter_turns >= whole.lower_bound
        else:
            kinds.add("none")
            assert p.reason == "no plan found before the time limit" and p.moves == ()
    assert kinds == {"found", "none"}  # the cut came both before and after a first plan
    plans._free.cache_clear()
    monkeypatch.setattr(stop, "late", lambda: False)  # every search ends: not marked late
    assert fold.plan(sol).stop_reason is None


def _late_within_a_limit(monkeypatch) -> None:
    """As if every time limit (``stop.within``) had passed the moment it was set: work
    outside one, or under ``within(None)``, is never late."""
    from snakecube import stop
    from snakecube.fold import plans

    plans._free.cache_clear()
    monkeypatch.setattr(stop, "late", lambda: stop._DEADLINE.get() is not None)


def test_fold_show_check_and_make_plan_within_their_time_limit(monkeypatch, capsys, tmp_path):
    """The commands that plan a fold do it inside their --seconds (``stop.within``): with
    every limit passed at once, fold has no plan, and says to give more time; without
    --seconds it has one."""
    _late_within_a_limit(monkeypatch)
    assert main(["fold", "standard", "--json", "--seconds", "100"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["found"] is False and data["stop_reason"] == "seconds"
    never = tmp_path / "never.pdf"
    assert main(["fold", "standard", "--seconds", "100", "--out", str(never)]) == 0
    out = capsys.readouterr().out
    assert "before the time limit; give more time (--seconds S); " in out and not never.exists()
    assert main(["check", "standard", "held:3 cw", "--seconds", "100"]) == 0
    assert "no fold plan to compare with" in capsys.readouterr().out
    assert main(["fold", "standard", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["found"] is True and data["complete"] is True and data["stop_reason"] is None


def test_the_default_solution_is_the_same_whatever_the_time_limit(monkeypatch):
    """The default (the easiest of the first 8 to fold) compares bounds that are searched
    outside the time limit: a bound cut short would be a weaker one, and could pick another
    solution."""
    from snakecube import stop
    from snakecube.fold.choice import default_of

    box = sc.Box(5, 5, 5)
    sols = []
    for seed in range(16, 24):  # eight random folds of the box, each its own design's; with
        # their bounds cut short at once, the second would be picked, not the fourth
        path = random_path(box, random.Random(seed))
        snake = design_of([box.cells[c] for c in path])
        sols.append(Solution(snake, box, tuple(path)))
    free = default_of(sols)
    _late_within_a_limit(monkeypatch)
    with stop.within(100):
        assert default_of(sols) == free


def test_the_easiest_solution_to_fold():
    # the rule: the fewest quarter turns a plan needs (the nearest flat state that does not
    # cross itself), then the first; the plan is that solution's own
    sols = list(sc.solutions(KING_B, sc.Box(4, 4, 4)))
    bounds = [fold.fewest_bound(s) for s in sols]
    k, plan = fold.easiest(sols)
    assert (k, bounds) == fold.easiest_index(sols) and k == bounds.index(min(bounds)) == 2
    assert plan == fold.plan(sols[k]) and plan.fewest == bounds[k] <= plan.quarter_turns


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), dims=st.sampled_from([(3, 3, 3), (2, 3, 4), (2, 2, 3)]))
def test_random_designs_get_valid_plans(seed, dims):
    box = sc.Box(*dims)
    path = random_path(box, random.Random(seed))
    sol = sc.Solution(design_of([box.cells[c] for c in path]), box, tuple(path))
    plan = fold.plan(sol)
    _check(plan)
    assert plan.quarter_turns >= fold.fewest_bound(sol) >= plan.lower_bound


def _random_solution(dims: tuple[int, int, int], seed: int) -> sc.Solution:
    box = sc.Box(*dims)
    path = random_path(box, random.Random(seed))
    return sc.Solution(design_of([box.cells[c] for c in path]), box, tuple(path))


def test_a_plan_past_the_first_budget_is_found(monkeypatch):
    # Found by the hypothesis test above (seed 6280944 in 2x3x4, 16 segments): no plan meets
    # the lower bound from either end; its plan turns corners out of the way and back. With
    # half the nodes its search needs, plan() finds it by searching once more with RETRY
    # times the nodes; without that second search it gives up.
    sol = _random_solution((2, 3, 4), 6280944)
    lengths, cells = sol.snake.lengths, list(sol.cells)
    folder = fold.planner.Folder(lengths, cells, set(cells))
    assert folder.in_order() is None and folder.guided() is not None
    half = folder.nodes // 2
    plan = fold.plan(sol, "first", nodes=half, orient=False, table=False)
    _check(plan)
    assert plan.quarter_turns > plan.lower_bound
    monkeypatch.setattr(fold.plans, "RETRY", 1)
    fold.plans._free.cache_clear()
    plan = fold.plan(sol, "first", nodes=half, orient=False, table=False)
    assert not plan.found and not plan.complete


def _dihedrals(cells: list, lengths: list[int]) -> list[int]:
    """Each corner's quarter turns (0 for the first), right-handed about its incoming
    segment, from the segment before to the segment after: with the simulator's matrices."""
    ends = [0]
    for n in lengths:
        ends.append(ends[-1] + n - 1)
    way = [tuple(cells[a + 1][k] - cells[a][k] for k in range(3)) for a in ends[:-1]]
    out = [0]
    for s in range(1, len(lengths) - 1):
        for q in range(4):
            m = foldsim._matrix(way[s], q)
            if (
                tuple(sum(m[r][k] * way[s - 1][k] for k in range(3)) for r in range(3))
                == way[s + 1]
            ):
                out.append(q)
    return out


def _flats_by_brute_force(lengths: list[int], cells: list) -> set[tuple[int, ...]]:
    """Every flat state of the snake that does not cross itself, as its dihedrals: each
    corner after the first of the solution turned to 0 or 2 by the simulator, every way."""
    goal = _dihedrals(cells, lengths)
    joints = [sum(n - 1 for n in lengths[: s + 1]) for s in range(len(lengths) - 1)]
    out = set()

    def lay(s: int, state: list, values: tuple[int, ...]) -> None:
        if s == len(lengths) - 1:
            assert any(len({c[k] for c in state}) == 1 for k in range(3))  # in one plane
            if len(set(state)) == len(state):
                out.add((goal[0], *values))
            return
        for v in (0, 2):
            turned = state
            for _ in range((v - goal[s]) % 4):
                turned = foldsim.move(turned, joints[s], 1)
            lay(s + 1, turned, (*values, v))

    lay(1, list(cells), ())
    return out


@pytest.mark.parametrize(
    ("dims", "seed", "designs", "states"),
    [
        ((2, 2, 3), 1, 4, 10),
        ((2, 3, 3), 2, 4, 10),
        ((2, 2, 4), 3, 4, 10),
        pytest.param((2, 3, 3), 1, 20, 30, marks=pytest.mark.slow),
    ],
)
def test_the_nearest_flat_state_by_brute_force(dims, seed, designs, states):
    # Flats.reach against every flat state, for solutions and for random dihedral states
    # asked of one Flats (its dead ends are kept from one state to the next)
    def gap(a: int, b: int) -> int:
        return min((a - b) % 4, (b - a) % 4)

    rng = random.Random(seed)
    for _ in range(designs):
        sol = _random_solution(dims, rng.randrange(10**6))
        lengths, cells = list(sol.snake.lengths), list(sol.cells)
        valid = _flats_by_brute_force(lengths, cells)
        flats = fold.planner.Flats(lengths)
        goal = tuple(_dihedrals(cells, lengths))
        asked = [goal] + [(goal[0], *(rng.randrange(4) for _ in goal[1:])) for _ in range(states)]
        for state in asked:
            nearest = min(sum(gap(a, b) for a, b in zip(state, f, strict=True)) for f in valid)
            witness = flats.reach(state, nearest)
            assert witness in valid
            assert sum(gap(a, b) for a, b in zip(state, witness, strict=True)) <= nearest
            assert flats.reach(state, nearest - 1) is None
        folder = fold.planner.Folder(lengths, cells, set(cells))
        assert folder.fewest_bound() == min(
            sum(gap(a, b) for a, b in zip(goal, f, strict=True)) for f in valid
        )


def test_the_guided_search_finds_the_fewest_turns():
    # against with_extra: the same IDA* with the plain heuristic (the corners still odd)
    rng = random.Random(7)
    extra = 0
    for dims in [(2, 2, 3)] * 10 + [(2, 3, 3)] * 30:
        sol = _random_solution(dims, rng.randrange(10**6))
        for lengths, cells in (
            (sol.snake.lengths, list(sol.cells)),
            (sol.snake.lengths[::-1], list(sol.cells)[::-1]),
        ):
            guided = fold.planner.Folder(lengths, cells, set(cells))
            plain = fold.planner.Folder(lengths, cells, set(cells))
            got, want = guided.guided(10**6), plain.with_extra(10**6, extra=20)
            assert got is not None and want is not None
            lower = sum(v % 2 for v in plain.goal[1:])
            assert len(got.moves) == len(want.moves) >= guided.fewest_bound() >= lower
            extra = max(extra, len(got.moves) - lower)
            moves = [{"joint": guided.corners[s], "quarter_turns": q} for s, q in got.moves]
            data = {
                "start": guided.cells(got.start),
                "moves": moves,
                "end": cells,
                "quarter_turns": len(moves),
            }
            foldsim.replay(data, list(lengths), set(cells))
    assert extra > 0  # some needed corners turned out of the way and back


def test_the_king():
    plan = fold.plan(next(sc.solutions("king")))
    _check(plan)
    assert plan.fewest == plan.lower_bound
    assert plan.quarter_turns <= plan.fewest + fold.planner.WALK_EXTRA
    assert plan.hand_distance <= fold.planner.WALK_LIMIT * plan.span


@pytest.mark.slow
@pytest.mark.parametrize("k", range(4))
def test_every_solution_of_king_b_gets_a_replayed_plan(k):
    sol = list(sc.solutions(KING_B, sc.Box(4, 4, 4)))[k]
    plan = fold.plan(sol)
    assert plan.found
    _check(plan)


def test_fold_command(capsys, tmp_path):
    assert main(["fold", "standard", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("start", "moves", "end", "quarter_turns", "lower_bound", "sweep_clear"):
        assert key in data
    assert main(["fold", "seed-red", "--from", "last"]) == 0
    out = capsys.readouterr().out
    assert "held end         cube 27" in out and "Step 1: " in out
    # held at the last end, the brackets still name the held side first: [cubes 7 | 6]
    assert re.search(r"Step 1: [^\n]*\[cubes (\d+) \| (\d+)\]", out)
    held, corner = map(int, re.search(r"\[cubes (\d+) \| (\d+)\]", out).groups())
    assert held == corner + 1
    assert main(["fold", "standard", "--solution", "2"]) == 2
    assert main(["fold", "lengths:3,3,3,3", "--box", "3x3x1"]) == 2
    assert main(["fold", "standard", "--out", str(tmp_path / "p.txt")]) == 0
    assert (tmp_path / "p.txt").read_text().startswith("Start: lay the snake flat")


@pytest.mark.pictures
def test_plan_pictures(tmp_path):
    from snakecube import explain
    from snakecube.explain import pictures, scene

    plan = fold.plan(next(sc.solutions("standard")))
    panels = scene.fold_panels(plan)
    assert len(panels) == len(plan.moves) + 1
    for panel, cells in zip(panels, plan.frames, strict=True):
        assert panel.cells == tuple(cells)
    figs = pictures.plan_figures(plan)
    assert len(figs) >= 2
    for fig in figs:
        pictures.plt.close(fig)
    explain.save_plan(plan, tmp_path / "p.pdf")
    explain.save_plan(plan, tmp_path / "p.html")
    assert (tmp_path / "p.pdf").read_bytes()[:5] == b"%PDF-"
    assert "snakecube-viewer" in (tmp_path / "p.html").read_text()


@pytest.mark.parametrize("name", ["standard", "seed-orange"])
def test_where_the_tail_hangs_in_the_instructions(name):
    from snakecube import explain
    from snakecube.explain import scene

    shown, tails = explain.hanging(next(sc.solutions(name)))
    assert shown == scene.display(shown)  # the pictures' orientation
    steps = scene.steps(shown)
    assert len(tails) == len(steps)
    for step, tail in zip(steps, tails, strict=True):
        placed = shown.cells[: step.last + 1]
        assert len(tail) == len(shown.cells) - step.last - 1
        assert not set(tail) & set(placed)  # the tail never sits in a placed cube
        if tail:  # and it hangs from the last placed cube
            assert math.dist(tail[0], placed[-1]) == 1
    panels = scene.panels(shown, tails)
    assert all(len(p.tail) <= len(t) for p, t in zip(panels, tails, strict=True))


def test_catalog_recognizes_a_design_from_either_end():
    from snakecube import catalog

    typed = "3-2-2-3-2-3-2-2-3-3-2-2-2-3-3-3-3"
    turns = sc.Snake.parse(typed).turns()
    entry, other_end = catalog.recognize(turns)
    assert entry.name == "standard" and other_end
    assert "read from its other end" in catalog.recognized(turns, typed)
    assert catalog.recognized(sc.Snake.parse("standard").turns(), "standard") == ""
    assert catalog.recognize(sc.Snake.parse("king").turns())[0].name == "king"
    # one entry per design: no two entries are the same design, from either end
    assert catalog.same_design() == {}
    # the merged name still reads the design from its own end
    assert sc.Snake.parse("seed-green").lengths == tuple(
        reversed(sc.Snake.parse("standard").lengths)
    )


@pytest.mark.parametrize("name", ["standard", "seed-red", "seed-blue", "seed-orange", "king"])
def test_the_plan_stays_on_the_table_when_that_costs_no_turn(name):
    plan = fold.plan(next(sc.solutions(name)))
    assert fold.problems(plan) == []
    words = fold.table_words(fold.guide(plan))
    if fold.below_table(plan):  # lifted only when staying on the table costs turns or walk
        limit = fold.planner.WALK_LIMIT
        walk = max(limit, plan.hand_distance / plan.span)
        assert (
            plan.table_turns is None
            or plan.table_turns > plan.quarter_turns
            or max(limit, plan.table_walk) > walk
        )
        assert "lift the snake" in words and "(" in words
    else:
        assert "stays on the table" in words and "was chosen" in words


def test_one_rule_picks_the_solution_everywhere(capsys):
    # the command line, the page's answer and the sheets' header all take fold.choice's
    from snakecube.fold import choice
    from snakecube.web import answers

    picked = choice.choose("king-b", planned=False)
    assert picked.index == 2 and picked.default == 2 and picked.plan is None
    page = answers.solve_answer("king-b")
    assert page["fold"]["default"] == 2 and page["fold"]["fewest_turns"] == [18, 19, 17, 18]
    assert main(["fold", "king-b", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["end"] == fold.plan(picked.solution).to_dict()["end"]
    asked = choice.choose("king-b", solution=2, planned=False)
    assert asked.index == 1 and asked.default == 2
    assert "solution 2, asked for" in asked.picked() and "is solution 3" in asked.picked()


def _walk_by_brute_force(lengths: list[int], cells: list, turns: int) -> int | None:
    """The shortest hand distance of any plan of at most ``turns`` quarter turns, by trying
    every sequence of quarter turns backwards from the solution with the simulator (every
    state valid) to the first flat state: no code shared with the planner."""
    import functools

    corners = set()
    at = 1
    for m in lengths[:-1]:
        at += m - 1
        corners.add(at)
    joints = sorted(c - 1 for c in corners)[1:]  # the first corner never turns

    starts = [0]
    for m in lengths[:-1]:
        starts.append(starts[-1] + m - 1)

    def out_of_plane(state: tuple) -> int:
        """Corners whose next run leaves the plane of the two runs before: each needs a
        quarter turn of its own before the snake lies flat."""
        way = [tuple(state[a + 1][k] - state[a][k] for k in range(3)) for a in starts]
        return sum(
            way[s + 1] not in (way[s - 1], tuple(-v for v in way[s - 1]))
            for s in range(1, len(way) - 1)
        )

    @functools.cache
    def best(state: tuple, last: int, left: int) -> float:
        if any(len({c[k] for c in state}) == 1 for k in range(3)):
            return 0
        if out_of_plane(state) > left:
            return math.inf
        out = math.inf
        for j in joints:
            for q in (1, -1):
                after = tuple(foldsim.move(list(state), j, q))
                if foldsim.problems(list(after), corners):
                    continue
                step = abs(j - last) if last >= 0 else 0
                out = min(out, step + best(after, j, left - 1))
        return out

    found = best(tuple(tuple(c) for c in cells), -1, turns)
    return None if found == math.inf else int(found)


def test_the_walking_search_finds_the_shortest_walk(monkeypatch):
    # Folder.walk, run to the end (no early stop), against every plan of as many turns
    monkeypatch.setattr(fold.planner, "WALK_GOOD", 1.0)
    rng = random.Random(11)
    shorter = 0
    for dims, more in [((2, 2, 3), 2)] * 2 + [((2, 2, 3), 0)] * 4 + [((2, 3, 3), 0)] * 3:
        sol = _random_solution(dims, rng.randrange(10**6))
        lengths, cells = list(sol.snake.lengths), list(sol.cells)
        folder = fold.planner.Folder(lengths, cells, set(cells))
        fewest = folder.guided(10**6)
        assert fewest is not None
        for turns in range(len(fewest.moves), len(fewest.moves) + more + 1, 2):
            walker = fold.planner.Folder(lengths, cells, set(cells))
            got = walker.walk(turns, 10**7)
            want = _walk_by_brute_force(lengths, cells, turns)
            assert got is not None and want is not None
            joints = [walker.corners[s] for s, _ in got.moves]
            assert fold.planner.hand_distance(joints) == want, (dims, turns)
            assert len(got.moves) <= turns
            moves = [
                {"joint": j, "quarter_turns": q}
                for j, (_s, q) in zip(joints, got.moves, strict=True)
            ]
            data = {
                "start": walker.cells(got.start),
                "moves": moves,
                "end": cells,
                "quarter_turns": len(moves),
            }
            foldsim.replay(data, lengths, set(cells))
            shorter += want < fold.planner.hand_distance(
                [folder.corners[s] for s, _ in fewest.moves]
            )
    assert shorter > 0  # the fewest turns' own order is not always the shortest walk


@pytest.mark.heavy
def test_a_snake_depth_first_cannot_start_is_shown_from_the_first_solution_search(
    monkeypatch, capsys
):
    """show and fold pick from the depth-first search's first solutions; where that search
    finds none in ``PROBE_NODES`` (a random 5x5x5 design found none in 20 s), the
    first-solution search's (solve --first) is shown and planned, and one line says so. The
    probe is made small here (the search looks at its nodes after each piece of work: this
    design's first piece, 2,240 nodes, has no solution)."""
    from snakecube.fold import choice as choosing

    box = sc.Box(4, 4, 4)
    path = random_path(box, random.Random(5))
    snake = design_of([box.cells[c] for c in path]).format("lengths")
    monkeypatch.setattr(choosing, "PROBE_NODES", 1000)
    c = choosing.choose(snake, box)
    assert c.searched and c.solution is not None and c.found == 1 and not c.complete
    assert sorted(c.solution.cells) == sorted(box.cells)
    assert c.plan is not None and c.plan.found
    data = c.plan.to_dict()
    foldsim.replay(data, list(c.solution.snake.lengths), set(box.cells))
    assert "found none in 1,000 nodes" in c.why()
    assert main(["fold", snake, "--box", "4x4x4"]) == 0
    captured = capsys.readouterr()
    assert "the first solution the first-solution search found" in captured.err
    assert "--solution K" not in captured.err and "Step 1:" in captured.out
    monkeypatch.setattr(choosing, "PROBE_NODES", 10**9)  # more than the design needs
    assert not choosing.choose(snake, box).searched


@pytest.mark.parametrize("where", ["default", "asked"])
def test_ctrl_c_in_the_planner_keeps_the_solution(cli, monkeypatch, where):
    """Ctrl-C while the planner searches, for the default solution (planned while it is
    chosen) or one asked for: fold answers the solution it was planning for (its cells,
    where a plan would end), no plan, and exit 130; not the least JSON document. Elsewhere
    (check's plan to compare with) Ctrl-C still stops the command."""

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(choice, "plan", stopped)
    monkeypatch.setattr(fold, "plan", stopped)
    asked = ["--solution", "1"] if where == "asked" else []
    code, out, err = cli("fold", "standard", "--json", *asked)
    answer = json.loads(out)
    assert code == 130 and err.endswith("snakecube: interrupted\n"), err
    assert (answer["found"], answer["stop_reason"]) == (False, "interrupted"), answer
    cells = tuple(tuple(c) for c in answer["end"])
    assert sorted(cells) == bruteforce.box_cells(3, 3, 3)
    standard = sc.Snake.parse("standard").lengths
    assert bruteforce.lengths_of(cells) in (standard, standard[::-1])
    code, out, err = cli("fold", "standard", *asked)
    assert code == 130 and "no fold plan: interrupted (Ctrl-C)" in out and "1:" in out, out
    with pytest.raises(KeyboardInterrupt):
        choice.choose("standard", planned=True)
