"""What the page shows, as ``web.answers`` computes it for both ways of running the page
(the server's workers and Pyodide): page words, one message for one problem, the same
nearby designs on either engine, numbers on faces that show, the plan's pictures."""

from __future__ import annotations

import json

import pytest

from conftest import pure_python
from snakecube.web import answers

KING_TYPO = (  # the king with segment 6 typed 3 for 4: 63 cubes
    "3-2-3-2-2-3-2-3-2-3-2-3-2-2-2-2-2-2-2-2-3-3-2-2-2-2-2-3-4-2-2-2-4-2-3-2-2-2-2-2-2-2-2-2-4-2"
)


def test_one_message_in_page_words_and_the_same_designs_on_either_engine():
    """A typo of the king: one line with no command-line options, the king first, and the
    same designs from the pure-Python engine (what the static site runs) as here."""
    wrong = answers.mismatch(KING_TYPO)
    assert wrong is not None and "63 cubes" in wrong["error"] and "--" not in wrong["error"]
    assert wrong["nearby"][0]["name"] == "king"
    assert answers.cells(KING_TYPO) == 0  # no search: the static site warns of none
    assert answers.solve_answer(KING_TYPO) == wrong  # the static site's path: the same answer
    code = "import json; from snakecube.web import answers; "
    code += f"print(json.dumps(answers.mismatch({KING_TYPO!r})))"
    assert json.loads(pure_python(code)) == wrong


def _on_a_face(cell: list[int], point: list[float]) -> bool:
    """The point lies on the surface of the unit cube at ``cell``."""
    inside = all(cell[a] - 1e-6 <= point[a] <= cell[a] + 1 + 1e-6 for a in range(3))
    on = any(abs(point[a] - cell[a]) < 1e-6 or abs(point[a] - cell[a] - 1) < 1e-6 for a in range(3))
    return inside and on


def test_the_step_viewer_numbers_its_key_cubes_on_their_faces():
    r = answers.solve_answer("standard")
    d = answers.details("standard", "", r["solutions"][0]["cells"])["viewer"]
    cells = d["cells"]
    for s in d["steps"]:
        numbered = {n[0] for n in s["labels"]}
        key = set(range(s["first"], s["last"] + 1)) | ({s["pivot"]} - {-1})
        assert key <= numbered, s["number"]
        assert not numbered & set(s["cut"])
        for i, *point in s["labels"]:
            assert _on_a_face(cells[i], point), (s["number"], i)
    assert "Cube 1 is the end" in d["steps"][0]["title"]  # on the first picture, and the words


def test_the_plan_answer_is_the_sheets_pictures():
    r = answers.solve_answer("standard")
    p = answers.plan_answer("standard", "", r["solutions"][0]["cells"])
    assert p["start"]["camera"] == "seen from above"
    assert any("Hold in your left hand the end whose first runs" in w for w in p["start"]["rest"])
    assert len(p["start"]["runs"]) == 17 and p["done"].startswith("Done:")
    assert len(p["turns"]) == len(p["states"]) - 1  # a step each (a half turn is one)
    assert sum(t["quarters"] for t in p["turns"]) == p["quarter_turns"]
    assert p["hand_distance"] <= 1.5 * p["span"] and p["fewest_turns"] <= p["quarter_turns"]
    for k, t in enumerate(p["turns"], 1):
        assert [pic["inset"] for pic in t["overview"]] == [t["before"]["window"]] * 2
        assert len(t["overview"][0]["cubes"]) == len(p["states"][0])  # the whole snake
        before, after = t["before"], t["after"]
        assert before["window"] == after["window"] and before["eye"] == after["eye"]
        assert before["arc"] and after["arc"] is None and before["seam"]
        for pic, state in ((before, p["states"][k - 1]), (after, p["states"][k])):
            labels = {n[0]: n[1:4] for n in pic["labels"]}
            assert {t["hold"], t["turn"]} <= set(labels), k
            for i, point in labels.items():
                assert _on_a_face(state[i], point)
            assert all(c[1:4] == state[c[0]] for c in pic["cubes"])
        assert t["moving"][0] == t["turn"] and t["sign"] in (1, -1)
        # the words part by part, as fold.words says them, and the checks as data
        assert t["words"]["title"] == f"Step {k} of {len(p['turns'])}"
        assert t["text"].startswith(t["words"]["title"] + ": ") and t["checks"]
        assert t["words"]["if_not"].startswith("If not:")


def test_no_command_line_options_in_the_pages_messages():
    import pytest

    for snake, box in [
        ("elbows:3,5,7,9,11,13,15,17,19,21,23,24", ""),  # the count unclear: the CLI says --box
        ("3-3-3", ""),  # 7 cubes, not a cube number
        ("standard", "2x2x2"),
        ("3-3-x", ""),
    ]:
        try:
            wrong = answers.mismatch(snake, box)
            line = wrong["error"] if wrong else answers.solve_answer(snake, box).get("error", "")
        except answers.InputError as err:
            line = str(err)
        assert line and "--" not in line, (snake, line)
    with pytest.raises(answers.InputError, match="under Target"):
        answers.read_input("elbows:3,5,7,9,11,13,15,17,19,21,23,24")


def test_the_page_names_the_king_first_for_a_segment_left_out():
    from snakecube import Snake

    king = list(Snake.parse("king").lengths)
    left_out = "-".join(map(str, king[:7] + king[8:]))  # 62 cubes
    wrong = answers.solve_answer(left_out)
    assert wrong["nearby"][0]["name"] == "king"
    assert wrong["nearby"][0]["edit"] == "a segment of 3 left out before segment 8"


@pytest.mark.heavy
def test_the_page_says_a_swap_that_folds_is_one_typo_from_the_king():
    from snakecube import Snake

    king = list(Snake.parse("king").lengths)
    swapped = "-".join(map(str, [*king[:44], king[45], king[44]]))
    typo = answers.solve_answer(swapped, limit=1)["catalog_typo"]
    assert typo["name"] == "king" and typo["edit"] == "segments 45 and 46 swapped (2,4 -> 4,2)"
    assert answers.solve_answer("king", limit=1)["catalog_typo"] is None
