"""The fold plan as data (fold --json), read by tests/plancheck.py, which shares no code with
snakecube: every step's find counts to its joint, every check holds, a step has 1 to 3
checks, and the usual slips are caught at their own step; the --went-wrong dialog, walked
with answers read off a slipped shape, names the step, and its undo turns and the plan from
there replay to the box in tests/follow.py."""

from __future__ import annotations

import itertools
import json
import random

import pytest

import follow
import plancheck
import snakecube as sc
from snakecube import Box, Solution, fold
from snakecube.cli import main
from snakecube.designs import design_of, random_path
from snakecube.fold import words as fold_words

NAMED = ["standard", "seed-blue", "mean-green", "king", "king-b"]
CAUGHT = 0.98  # the share of slips the checks must catch at their own step


def fold_json(capsys, *args: str) -> dict:
    assert main(["fold", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def random_design(seed: int) -> tuple[str, Solution]:
    """A random 4x4x4 design from a random Hamiltonian path, and that path as a solution."""
    box = Box(4, 4, 4)
    path = random_path(box, random.Random(seed))
    snake = design_of([box.cells[i] for i in path])
    return "-".join(map(str, snake.lengths)), Solution(snake, box, tuple(path))


def _held_out(plan: dict) -> None:
    """What every plan must hold: replayed, found, checked, slips caught."""
    r = plancheck.replay(plan)
    assert [list(c) for c in r.states[-1]] == plan["end"], "the plan does not end in the box"
    yes, total, missed = plancheck.caught(plan, r)
    assert total > 0 and yes / total >= CAUGHT, (yes, total, missed)
    # the words say the slips the checks cannot tell
    for k, step in enumerate(plan["steps"], 1):
        assert ("Careful:" in step["words"]) == bool(step["uncaught"]), k


@pytest.mark.parametrize("name", NAMED)
def test_named_plans_replay_and_catch_slips(capsys, name):
    _held_out(fold_json(capsys, name))


@pytest.mark.parametrize("seed", [101, 202])
def test_random_4x4x4_plans_replay_and_catch_slips(capsys, seed):
    text, _ = random_design(seed)
    _held_out(fold_json(capsys, text, "--box", "4x4x4"))


def test_the_last_end_held(capsys):
    plan = fold_json(capsys, "seed-orange", "--from", "last")
    assert plan["held"] == "last"
    _held_out(plan)


def test_the_json_reads_back():
    g = fold.guide(fold.plan(next(sc.solutions("seed-blue"))))
    for step in g.steps:
        for c in step.checks:
            assert fold.Check.from_dict(c.to_dict()) == c
        assert fold.Find.from_dict(step.find.to_dict()) == step.find


def _records(plan: dict, upto: int) -> list[str]:
    return [plancheck.record(s["find"], s["quarter_turns"]) for s in plan["steps"][:upto]]


def _turns(node: dict) -> list[str]:
    """A verdict's undo turns and the step made again, as a person records them."""
    out = []
    for u in node["undo"]:
        q = u["quarter_turns"]
        out.append(
            f"{u['from']}:{u['corners']} {'cw' if q > 0 else 'acw'}"
            + (" half" if abs(q) == 2 else "")
        )
    return out


def _walk_back(plan: dict, g: fold.Guide, made: list[str], cells, k: int) -> dict:
    """The dialog at step k walked with answers read off ``cells``; then its undo turns, the
    step it names made again from an end and the plan from there, after the turns ``made``,
    replayed in tests/follow.py: the box. Returns the verdict."""
    snake = plancheck.Snake(plan["snake"], plan["held"])
    tree = fold_words.dialog_dict(fold.dialog(g, k))
    verdict = plancheck.answer(tree, snake, cells)
    again = verdict["then"]["step"]
    steps = plan["steps"]
    turns = [*made, *_turns(verdict)]
    if again is not None and again <= len(steps):
        q = steps[again - 1]["quarter_turns"]
        turns.append(plancheck.record(verdict["then"]["find"], q))
        turns += [plancheck.record(s["find"], s["quarter_turns"]) for s in steps[again:]]
    lengths = plancheck.lengths_of(plan["snake"])
    start = [tuple(c) for c in plan["table_start"]]
    records = [follow.Record.parse(t) for t in turns]
    states, _ = follow.replay(lengths, plan["held"], start, records)
    dims = tuple(
        max(c[a] for c in plan["end"]) - min(c[a] for c in plan["end"]) + 1 for a in range(3)
    )
    assert follow.is_box(states[-1], dims), (k, turns)
    return verdict


@pytest.mark.parametrize("name", ["standard", "seed-blue", "king-b"])
def test_the_way_back_from_every_slip(capsys, name):
    """Every slip at every step: the dialog at its own step, and (when the person went on
    to the next step as its words say and it did not match there) at the next step, names
    the step and leads back to the box."""
    plan = fold_json(capsys, name)
    g = fold.guide(fold.plan(fold.choice.choose(name).solution))
    assert [s.joint for s in g.steps] == [s["joint"] for s in plan["steps"]]
    r = plancheck.replay(plan)
    named = later = 0
    steps = plan["steps"]
    for k, step in enumerate(steps):
        for _name, rank, q in plancheck.slips(
            r.ranks[k], step["quarter_turns"], len(r.snake.corners)
        ):
            slipped = r.snake.turn(r.states[k], rank, q)
            if slipped is None:
                continue  # it cannot be made: the person sees so at once
            wrong = f"held:{rank + 1} {'cw' if q > 0 else 'acw'}" + (" half" if abs(q) == 2 else "")
            made = [*_records(plan, k), wrong]
            verdict = _walk_back(plan, g, made, slipped, k + 1)
            assert verdict["step"] == k + 1, (k + 1, _name, verdict)
            named += 1
            if k + 1 < len(steps):
                after, _turned, seen = plancheck.as_read(plan, r, slipped, k + 1, rank)
                if after is not None and seen:  # went on; noticed at the next step
                    record = plancheck.record(steps[k + 1]["find"], steps[k + 1]["quarter_turns"])
                    verdict = _walk_back(plan, g, [*made, record], after, k + 2)
                    later += 1
                    assert verdict["step"] in (k + 1, k + 2), verdict
    assert named > 0 and later > 0


def test_went_wrong_json_is_the_dialog(capsys):
    plan = fold_json(capsys, "standard", "--went-wrong", "3")
    d = plan["went_wrong"]
    assert d["step"] == 3
    node, depth = d["dialog"], 0
    while "ask" in node:
        assert node["words"].endswith("?")
        node, depth = node["no"], depth + 1
    assert "verdict" in node and node["verdict"]["words"]
    assert 1 <= depth <= 8


def test_went_wrong_asks_on_standard_input(monkeypatch, capsys):
    """The dialog on the command line: a slip at step 2 (the other way) of the standard
    snake, answered from its shape; the verdict names step 2 and counts from an end."""
    g = fold.guide(fold.plan(fold.choice.choose("standard").solution))
    s = g.steps[1]
    slipped = g.chain.outcome(s.before, s.rank, -s.quarter_turns)
    node = fold.dialog(g, 2)
    answers = []
    while isinstance(node, fold.Ask):
        yes = g.chain.holds(node.check, slipped, -1)
        answers.append("y" if yes else "n")
        node = node.yes if yes else node.no
    lines = iter(["maybe", *answers])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["fold", "standard", "--went-wrong", "2"]) == 0
    out = capsys.readouterr().out
    assert "please answer y or n" in out
    assert "Step 2 went wrong: you turned it the other way." in out
    assert "corner from the end you hold" in out or "corner from the loose end" in out


def test_went_wrong_out_of_range_is_bad_input(capsys):
    assert main(["fold", "standard", "--went-wrong", "99"]) == 2
    assert "--went-wrong 99: the plan has steps 1 to" in capsys.readouterr().err


@pytest.mark.pictures
def test_one_word_changes_everywhere(monkeypatch, capsys, tmp_path):
    """The step's word is said in one place (fold.words.STEP): changed there, it changes in
    the command line's words, the PDF sheet's text, the page's answer (which page.js shows
    as it comes) and the offline viewer."""
    monkeypatch.setattr(fold_words, "STEP", "Turn")
    assert main(["fold", "standard"]) == 0
    out = capsys.readouterr().out
    assert "Turn 1: the 3rd corner" in out and "\nStep " not in out
    plan = fold.plan(fold.choice.choose("standard").solution)
    from snakecube.explain import pictures

    texts = [
        t.get_text()
        for fig in pictures.plan_figures(plan)
        for t in [*fig.texts, *(x for ax in fig.axes for x in ax.texts)]
    ]
    assert any(t.startswith("Turn 1:") for t in texts) and not any("Step 1" in t for t in texts)
    from snakecube.web import answers

    cells = [list(c) for c in plan.solution.cells]
    page = answers.plan_answer("standard", "", cells)
    assert page["turns"][0]["words"]["title"] == "Turn 1 of 7"
    assert page["turns"][0]["text"].startswith("Turn 1 of 7:")
    details = answers.details("standard", "", cells)
    assert details["viewer"]["steps"][0]["title"].startswith("Turn 1 of 17:")
    from snakecube.explain import viewer

    html = viewer.plan_html(plan)
    assert "Turn 1 of 7:" in html and "Step 1 of" not in html


def test_check_speaks_in_turns(capsys):
    """check takes the turns a person made (as a fold plan's steps) and says where they
    depart from the plan, in corners counted from an end, with the undo turns."""
    g = fold.guide(fold.plan(fold.choice.choose("seed-blue").solution))
    made = [plancheck.record(s.find.to_dict(), s.quarter_turns) for s in g.steps]
    assert main(["check", "seed-blue", ", ".join(made)]) == 0
    assert "follow the plan to its end: the snake is folded" in capsys.readouterr().out
    s = g.steps[3]
    made[3] = f"held:{s.rank + 2} {'cw' if s.quarter_turns > 0 else 'acw'}"  # one corner on
    assert main(["check", "seed-blue", ", ".join(made[:4]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["plan"]
    assert data["departs_at_step"] == 4
    assert data["your_turn"] == {
        "from": "held",
        "corners": s.rank + 2,
        "quarter_turns": s.quarter_turns,
    }
    assert data["undo"] == [
        {"from": "held", "corners": s.rank + 2, "quarter_turns": -s.quarter_turns}
    ]
    assert main(["check", "seed-blue", ", ".join(made[:4])]) == 0
    out = capsys.readouterr().out
    assert "depart from the plan at step 4" in out and "one too far" in out
    assert main(["check", "seed-blue", "held:3 sideways"]) == 2
    assert "turn 1: cannot read 'held:3 sideways'" in capsys.readouterr().err


def test_check_a_finished_wrong_shape_names_the_step(capsys):
    """A finished shape typed as directions that is not a solution: check names the step
    where it departs from the plan and the corner counted from an end, not only a cube."""
    g = fold.guide(fold.plan(fold.choice.choose("standard").solution))
    cells = g.start.cells
    for k, s in enumerate(g.steps):  # the plan, with step 2 turned the other way
        q = -s.quarter_turns if k == 1 else s.quarter_turns
        cells = g.chain.outcome(cells, s.rank, q) or cells
    steps = [tuple(b[i] - a[i] for i in range(3)) for a, b in itertools.pairwise(cells)]
    names = plancheck.SIGNS
    text = " ".join(names[v] for v in steps)
    assert main(["check", "standard", text]) == 0
    out = capsys.readouterr().out
    assert "not a solution" in out
    assert "departs from the plan at step 2" in out and "corner from" in out
