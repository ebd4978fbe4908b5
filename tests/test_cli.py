"""The command-line tool: output, JSON fields, exit codes, and one-line errors."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import FLOPPY_125, HANG, tool, wait_ready
from corpus import load_known
from snakecube.cli import main

KNOWN = {p["name"]: p for p in load_known()["puzzles"]}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_text(capsys):
    code, out, err = run(capsys, "solve", "standard")
    assert code == 0 and err == ""
    assert "placements               48" in out
    assert "distinct                 1" in out
    assert "1:+x 2:+y" in out
    assert "z=0" in out and "z=2" in out
    assert " 1  2  3" in out  # the first row of cube numbers


def test_solve_json_fields(capsys):
    code, out, _ = run(capsys, "solve", "seed-blue", "--json")
    data = json.loads(out)
    p = KNOWN["seed-blue"]
    assert code == 0
    for key in ("placements", "distinct", "distinct_up_to_reversal"):
        assert data[key] == p[key]
    assert data["complete"] is True and len(data["solutions"]) == 12
    cells = data["solutions"][0]["cells"]
    assert len(cells) == 27 and sorted(map(tuple, cells)) == sorted(
        (x, y, z) for x in range(3) for y in range(3) for z in range(3)
    )


def test_box_region_limits_and_letters(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "lengths:3,3,3,2,2", "--box", "3x3x1", "--json")
    assert code == 0 and json.loads(out)["placements"] == 8  # the spiral: 4 corners x 2 ways
    code, out, _ = run(capsys, "solve", "lengths:3,3,3,3", "--box", "3x3x1", "--json")
    assert code == 0 and json.loads(out)["placements"] == 0  # the fourth side runs into the first
    region = tmp_path / "plus.txt"
    region.write_text(".#.\n###\n.#.\n")
    code, out, err = run(capsys, "solve", "EE", "--region", str(region), "--json")
    assert code == 2 and "2 cubes but the region has 5 cells" in err
    code, out, _ = run(capsys, "solve", "lengths:2,3,2", "--region", str(region), "--json")
    assert code == 0 and json.loads(out)["placements"] == 0
    code, out, _ = run(capsys, "solve", "seed-blue", "--first", "--json")
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "limit"
    assert len(data["solutions"]) == 1
    code, out, _ = run(capsys, "solve", "seed-blue", "--limit", "4", "--letters")
    assert "XP" in out and "complete                 no" in out
    code, out, _ = run(capsys, "solve", "standard", "--start", "1,0,0", "--json")
    assert code == 0 and json.loads(out)["placements"] == 0
    code, out, _ = run(capsys, "solve", "seed-red", "--path", "0,0,0 1,0,0 2,0,0 2,1,0")
    assert code == 0 and "distinct                 1" in out
    code, out, _ = run(capsys, "solve", "standard", "--reverse", "--json")
    assert json.loads(out)["snake"]["turns"] == KNOWN["standard"]["turns"][::-1]


def test_seconds_limit(capsys):
    code, out, _ = run(
        capsys, "solve", "king", "--seconds", "0.2", "--json", "--engine", "reference"
    )
    data = json.loads(out)
    assert code == 0 and data["complete"] is False and data["stop_reason"] == "seconds"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "ESCQSE"], "'Q' at cube 4"),
        (["solve", "ESCSCSCSCCCCSCSCCCSCCSCCCS"], "26 cubes, which is not a cube number"),
        (["solve", "standard", "--box", "2x2x2"], "27 cubes but the 2x2x2 box has 8 cells"),
        (["solve", "lengths:3,1,3"], "segment 2 has length 1"),
        (["solve", ""], "empty snake"),
        (["solve", "lengths:3,three"], "item 2 'three' is not a whole number"),
        (["solve", "standard", "--box", "3x3"], "not AxBxC"),
        (["solve", "standard", "--limit", "x"], "--limit: 'x' is not a whole number"),
        (["solve", "standard", "--limit", "0"], "at least 1"),
        (["solve", "standard", "--seconds", "-1"], "must be positive"),
        (["solve", "standard", "--start", "1,2"], "--start: '1,2' is not x,y,z"),
        (["solve", "standard", "--region", "/nonexistent/r.txt"], "cannot read region file"),
        (["solve", "standard", "--path", "0,0,0 5,5,5"], "cell 2 [5, 5, 5] is not in"),
        (["solve", "standard", "--first", "--limit", "2"], "not allowed with argument"),
        (["convert", "nonsense-name"], "unknown snake"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_exit_2_one_line(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert words in err
    assert err.count("\n") <= 2 and "Traceback" not in err
    assert out == ""


def test_catalog_and_convert(capsys):
    code, out, _ = run(capsys, "catalog")
    assert code == 0
    for name, p in KNOWN.items():
        assert name in out and p["turns"] in out
    code, out, _ = run(capsys, "catalog", "--json")
    assert {e["name"] for e in json.loads(out)} >= set(KNOWN)
    code, out, _ = run(capsys, "convert", "standard", "--json")
    data = json.loads(out)
    assert data["lengths"] == "lengths:3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3"
    assert data["elbows"].startswith("elbows:3,5,7,9,10")
    code, out, _ = run(capsys, "convert", "001010101111010111011011100", "--to", "turns")
    assert out.strip() == KNOWN["standard"]["turns"]


def _cli(*args, stderr_override=None, session=False, ready=None):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if ready is not None:
        env["SNAKECUBE_READY_FILE"] = str(ready)
    return subprocess.Popen(
        [sys.executable, "-m", "snakecube", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr_override is None else stderr_override,
        text=True,
        env=env,
        start_new_session=session,  # its own process group, to kill with its workers
    )


def test_python_dash_m_runs():
    proc = _cli("solve", "mean-green", "--json")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert json.loads(out)["distinct"] == 1


def test_bad_input_from_a_real_process():
    proc = _cli("solve", "ESCXSE")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1


def _interrupted(*args, after: float) -> dict:
    """Run the tool, press Ctrl-C ``after`` seconds into its search; it must exit 130 with its
    JSON."""
    ready = Path(tempfile.mkdtemp()) / "ready"
    proc = _cli(*args, session=True, ready=ready)
    wait_ready(ready, proc, "busy")  # its search has begun (not only the working phase)
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # leave nothing running to slow the later tests
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["complete"] is False and data["stop_reason"] == "interrupted"
    return data


@pytest.mark.slow
def test_ctrl_c_prints_what_was_found_and_exits_130():
    _interrupted("solve", "king", "--json", "--engine", "reference", after=2.0)


def _hard_design() -> str:
    """A fully mixed random 5x5x5 design: its exhaustive search runs for a long time."""
    import random

    import snakecube as sc
    from snakecube.designs import design_of, random_path

    box = sc.Box(5, 5, 5)
    path = random_path(box, random.Random(0))
    return design_of([box.cells[c] for c in path]).format("lengths")


@pytest.mark.slow
def test_ctrl_c_stops_parallel_workers_and_keeps_results():
    args = ("solve", _hard_design(), "--box", "5x5x5", "--json", "--workers", "2")
    data = _interrupted(*args, after=3.0)
    assert data["workers"] == 2 and data["nodes"] > 0


@pytest.mark.slow
def test_progress_bar_on_a_terminal_only():
    import os
    import pty

    master, slave = pty.openpty()
    design = _hard_design()
    args = ("solve", design, "--box", "5x5x5", "--seconds", "2.5", "--json")
    proc = _cli(*args, stderr_override=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    shown = b"".join(chunks).decode(errors="replace")
    assert "searching" in shown and "unit" in shown
    quiet = _cli(*args)  # stderr is a pipe, not a terminal: no bar
    _, err = quiet.communicate(timeout=60)
    assert "searching" not in err


# -- issue 36: peers' notations, counting conventions, check, export ---------------------


def test_peer_notations_solve_and_say_their_reading(capsys):
    code, out, _ = run(capsys, "solve", "--", "--o-o-o-o-o-o-oo-o-oooo-oo-")
    assert code == 0 and "read as                  o/- per cube, o = corner" in out
    bits = "0,0,1,1,0,1,1,0,1,0,1,1,0,1,0,1,1,0,1,0,1,1,0,1,1,0,0"
    code, out, _ = run(capsys, "solve", bits, "--json")
    data = json.loads(out)
    assert code == 0 and data["placements"] > 0 and "1 = corner" in data["snake"]["reading"]
    code, out, _ = run(capsys, "solve", "2,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2", "--json")
    assert json.loads(out)["distinct"] == 1 and "steps" in json.loads(out)["snake"]["reading"]
    code, out, _ = run(capsys, "convert", "standard", "--json")
    forms = json.loads(out)
    for notation in ("dashes", "bitlist", "steplist"):
        code, again, _ = run(capsys, "convert", "--to", "turns", "--", forms[notation])
        assert again.strip() == forms["turns"]


def test_a_cube_count_that_does_not_fit_is_said_plainly(capsys, tmp_path):
    """The snake's cubes against the target's cells, for a region as for a box (it once said
    'the region of 17 cells (within 3x3x2) has 17 cells')."""
    region = tmp_path / "region.txt"
    region.write_text("###\n###\n###\n\n###\n##.\n###\n")  # 17 cells within 3x3x2
    ten = "lengths:2,2,2,2,2,2,2,2,2"
    code, _, err = run(capsys, "solve", ten, "--region", str(region))
    assert code == 2 and err == (
        "snakecube: error: the snake has 10 cubes but the region has 17 cells (within 3x3x2); "
        "a snake needs one cube for each cell\n"
    )
    code, _, err = run(capsys, "solve", ten, "--box", "3x3x2")
    assert code == 2 and err == (
        "snakecube: error: the snake has 10 cubes but the 3x3x2 box has 18 cells; "
        "a snake needs one cube for each cell\n"
    )
    for command in (["check", "standard", "+x +y"], ["export", "standard", "--format", "minizinc"]):
        code, _, err = run(capsys, *command, "--region", str(region))
        assert code == 2 and "27 cubes but the region has 17 cells (within 3x3x2);" in err
    # a region that fits says its cells once
    code, out, _ = run(capsys, "solve", "lengths:3,3,3,3,3,3,3,3", "--region", str(region))
    assert code == 0 and "target                   region of 17 cells (within 3x3x2), 2 " in out


def test_the_read_as_line_says_what_was_read(capsys):
    """Lengths with dashes, the way most people type a snake, read as segment lengths: the
    steps reading (44 cubes) could not fit, so it is not named."""
    code, out, _ = run(capsys, "solve", "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3")
    assert code == 0 and "\nread as                  segment lengths\n" in out
    # A close call: both ways round fill the 3x2x1 box, so the line says how to read the other.
    code, out, _ = run(capsys, "solve", "--box", "3x2x1", "--", "--o-o-")
    assert (
        code == 0
        and (
            "read as                  o/- per cube, o = corner; o/- per cube, - = corner would fit "
            "too: put dashes-inverted: in front to read it that way\n"
        )
        in out
    )


def test_king_b_conventions(capsys):
    king_b = "3,4,4,4,2,4,2,4,2,2,2,2,2,2,2,2,2,3,2,4,3,3,2,4,2,3,2,2,2,2,2,3,2,2,2,2,4,2,4"
    code, out, _ = run(capsys, "solve", king_b, "--json")
    assert code == 0
    d = json.loads(out)
    assert (d["placements"], d["distinct_up_to_rotations"], d["distinct"]) == (192, 8, 4)
    _, out, _ = run(capsys, "solve", king_b)
    assert "up to rotations          8" in out


def test_check_and_export(capsys):
    code, out, _ = run(capsys, "solve", "standard", "--json")
    dirs = " ".join(json.loads(out)["solutions"][0]["directions"])
    code, out, _ = run(capsys, "check", "standard", dirs)
    assert code == 0 and "distinct solution 1 of 1" in out
    wrong = dirs.rsplit(" ", 1)[0] + " +x"
    code, out, _ = run(capsys, "check", "standard", wrong, "--json")
    d = json.loads(out)
    assert code == 0 and not d["valid"] and d["failure"]["cube"] == 25
    code, _, err = run(capsys, "check", "standard", "START 0,0,0 MOVES: SIDEWAYS 2")
    assert code == 2 and err.count("\n") == 1 and "SIDEWAYS" in err
    code, out, _ = run(capsys, "export", "standard", "--symmetry-breaking")
    assert code == 0 and "value_precede_chain" in out
    code, _, err = run(capsys, "export", "standard", "--box", "2x3x4")
    assert code == 2 and "27 cubes" in err


def test_a_typed_snake_is_named_from_either_end(capsys):
    code, out, _ = run(capsys, "solve", "3-2-2-3-2-3-2-2-3-3-2-2-2-3-3-3-3")
    assert (
        code == 0 and "(this is seed-green: the catalog's standard, read from its other end)" in out
    )
    code, out, _ = run(capsys, "solve", "standard")
    assert code == 0 and "catalog's" not in out  # typed by its name: nothing to say
    code, out, _ = run(capsys, "catalog")
    assert out.count("\nseed-green") == 0 and "read from its other end: seed-green" in out


# -- issue 43: one search path for every command; work said before it runs ----------------

# 729 cubes for the 9x9x9 box, a corner at every odd cube up to 699: its last straight run is
# 31 cubes long, so it cannot fold; solve names that run at once, show and fold say so
ELBOWS_729 = "elbows:" + ",".join(map(str, range(3, 700, 2))) + "/729"


def _on_a_terminal(*args: str, until: tuple[str, ...] = ()) -> str:
    """What a command shows on a terminal (its stderr a pty) until it ends; with ``until``,
    until all those words have shown, and then a Ctrl-C ends it (a busy machine may take
    longer than a command's own time limit to draw its first bar)."""
    import pty

    master, slave = pty.openpty()
    proc = _cli(*args, stderr_override=slave)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + HANG
    while True:
        shown = b"".join(chunks).decode(errors="replace")
        if until and all(word in shown for word in until):
            proc.send_signal(signal.SIGINT)
            until = ()
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            if proc.poll() is not None or time.monotonic() > deadline:
                break
            continue
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=HANG)
    os.close(master)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "show", "fold", "rate"])
def test_every_command_proves_no_solutions_as_solve_does(command):
    """show and fold took solution K from a search from the first end, which ran for hours
    where solve, searching from the end its estimate picks, proved it at once."""
    code, out, err, _ = tool(command, ELBOWS_729)
    if command in ("show", "fold"):
        assert code == 2 and len(err.splitlines()) == 1
        assert "no solutions" in err and f"nothing to {command}" in err
    elif command == "rate":
        assert code == 0 and "unsolvable" in out and "complete    yes" in out
    else:
        # its last run of 31 cubes is named at once, before any search (first hour, round 2)
        assert code == 0 and "complete                 yes" in out
        assert "no solutions: segment 350 has 31 cubes: longer than any side" in out


@pytest.mark.slow
def test_show_rate_flat_and_designs_show_progress_on_a_terminal():
    shown = _on_a_terminal(
        "show", _hard_design(), "--box", "5x5x5", "--solution", "1000", "--seconds", "2.5"
    )
    assert "searching" in shown and "unit" in shown
    shown = _on_a_terminal("rate", _hard_design(), "--box", "5x5x5", "--seconds", "2.5")
    assert "searching" in shown and "unit" in shown
    shown = _on_a_terminal("flat", "king", "--seconds", "600", until=("laying flat", "found"))
    assert "laying flat" in shown and "found" in shown
    shown = _on_a_terminal("designs", "--box", "4x4x4", "--seconds", "2.5")
    assert "the census will take about" in shown and "years" in shown  # said first
    assert "census" in shown and "step" in shown  # then the bar, though no unit finishes


@pytest.mark.slow
def test_generate_shows_progress_on_a_terminal_and_stops_with_what_it_found():
    """Proving 3 designs of the 5x5x5 unique takes minutes: the bar shows while it works
    (read until it does), and Ctrl-C ends it in one line with what was found."""
    import pty

    master, slave = pty.openpty()
    proc = _cli(
        "generate",
        "--box",
        "5x5x5",
        "--unique",
        "--count",
        "3",
        "--workers",
        "1",
        stderr_override=slave,
        session=True,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + HANG
    while b"sample" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            seen += os.read(master, 4096)
    os.killpg(proc.pid, signal.SIGINT)
    proc.wait(timeout=HANG)
    try:
        while data := os.read(master, 4096):
            seen += data
    except OSError:
        pass
    os.close(master)
    text = seen.decode(errors="replace")
    assert "generating" in text and "sample" in text
    assert proc.returncode == 130 and "interrupted after" in text and "Traceback" not in text


# -- the first hour of a new user (issue 53) ---------------------------------------------------
DASHES = "--o-o-o-oooo-o-ooo-oo-ooo--"  # the standard snake, as convert writes it


def test_an_o_dash_snake_pastes_as_the_snake(capsys):
    """argparse takes a word starting with '-' for an option; the o/- form is read as the
    snake wherever it stands, and options around it still work."""
    code, out, err = run(capsys, "solve", DASHES, "--json")
    assert code == 0 and json.loads(out)["distinct"] == 1, err
    code, out, _ = run(capsys, "solve", "--first", DASHES, "--quiet")
    assert code == 0 and "read as                  o/- per cube, o = corner" in out
    code, out, _ = run(capsys, "convert", DASHES, "--to", "lengths")
    assert out.strip() == "lengths:3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3"
    code, out, _ = run(
        capsys, "check", DASHES, "+x +y -x +z +x -z +x -y -x +z +y -z +x +z -y +x +y"
    )
    assert code == 0 and "verdict    a solution" in out
    code, _, err = run(capsys, "solve", DASHES, "--bogus")
    assert code == 2 and "unrecognized arguments: --bogus" in err and "\x00" not in err


def test_rate_says_complete_as_solve_does(capsys):
    code, out, _ = run(capsys, "rate", "seed-red")
    assert code == 0 and "complete    yes\n" in out
    assert "stop_reason" not in out and "True" not in out and "None" not in out


def test_designs_help_names_no_snake(capsys):
    assert main(["designs", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "snake's cube" not in out and "this or --region is needed" in out


def test_the_catalog_note_nests_no_brackets(capsys):
    code, out, _ = run(capsys, "solve", "ESCCCCCCCCCSCCCCCCCSCSCCCCE")  # seed-orange
    assert code == 0
    first = out.splitlines()[0]
    assert first == "(this is the catalog's seed-orange, also called cubra-red)"
    assert "`" not in out


def test_catalog_spells_each_puzzle_as_solve_does(capsys):
    _, out, _ = run(capsys, "catalog")
    for name in ("seed-red", "king", "standard"):
        _, solved, _ = run(capsys, "solve", name, "--first", "--quiet")
        turns = solved.split("snake", 1)[1].split()[0]
        assert f"\n  {turns}" in out, name  # the line under the name starts with it
    assert "(published as SSCCCCCCSCCSCCCCCSCCSCCCCSS)" in out


@pytest.mark.heavy
def test_a_census_histogram_is_wrapped_and_bounded(capsys):
    code, out, _ = run(capsys, "designs", "--box", "2x3x4", "--quiet")
    lines = out.splitlines()
    assert code == 0 and max(map(len, lines)) <= 100
    at = next(i for i, line in enumerate(lines) if line.startswith("histogram"))
    rest = lines[at + 1 :]
    height = 1 + next((i for i, line in enumerate(rest) if not line.startswith(" ")), len(rest))
    assert height <= 4 and "more, up to 835 solutions (--json lists them all)" in out


def test_flat_of_the_king_is_forecast_and_refused(capsys):
    code, _, err = run(capsys, "flat", "king")
    assert code == 2 and "would take about 5 days" in err and "--seconds S" in err, err
    code, out, err = run(capsys, "flat", "king", "--seconds", "0.5")
    assert code == 0 and "will take about 5 days (estimated, at 150,000 segments a second" in err
    assert "the bar's time left follows this machine's speed" in err  # why the two may differ
    assert "--seconds 0.5 stops it" in err
    assert "complete               no (stopped at the time limit; counts are lower bounds)" in out


def test_flat_reports_progress_against_its_forecast():
    """The bar is told how many segments the count will place (Knuth's estimate), and the
    estimate is within a fifth of what the count placed."""
    from snakecube import Snake
    from snakecube.flat import flat

    seen: list[tuple[int, int]] = []
    flat(Snake.parse("seed-red"), progress=lambda done, total, found: seen.append((done, total)))
    placed, total = seen[-1]
    assert seen and total > 0 and abs(total - placed) < 0.2 * placed


def test_fold_says_its_quarter_turns_against_what_the_corners_need(capsys):
    code, out, _ = run(capsys, "fold", "standard")
    assert code == 0
    assert "quarter turns    7 (the fewest possible)" in out and "lower bound" not in out


@pytest.mark.slow
def test_fold_of_king_b_does_not_read_as_short_of_the_best(capsys):
    code, out, _ = run(capsys, "fold", "king-b")
    assert code == 0
    assert "quarter turns    17 (the corners' angles alone need 15)" in out


@pytest.mark.slow
def test_serve_open_without_a_display_says_so():
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    serve = [sys.executable, "-m", "snakecube", "serve", "--open", "--port", "0"]
    proc = subprocess.Popen(serve, stderr=subprocess.PIPE, env=env, start_new_session=True)
    said = b""
    try:
        deadline = time.monotonic() + HANG
        while b"serving the page" not in said and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)  # type: ignore[union-attr]
                if not chunk:
                    break
                said += chunk
    finally:  # what it said is all this test needs (stopping a server is test_web's)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HANG)
    first, _, rest = said.decode().partition("\n")
    assert "--open: there is no display here" in first and "open the address below" in first
    assert rest.startswith("snakecube: serving the page at http://127.0.0.1:"), said


@pytest.mark.slow
@pytest.mark.heavy
def test_generate_s_bar_counts_the_designs_asked_for():
    shown = _on_a_terminal("generate", "--box", "4x4x4", "--unique", "--count", "3", "--seed", "2")
    assert "/3 [" in shown and "samples drawn" in shown and "samples [" not in shown


@pytest.mark.parametrize("command", ["show", "fold"])
def test_out_that_cannot_be_written_is_refused_before_the_search_and_drawing(
    capsys, tmp_path, monkeypatch, command
):
    from snakecube import explain
    from snakecube.cli import showing

    def never(*args, **kwargs):
        raise AssertionError("searched or drew before checking --out")

    for name in ("save", "save_plan", "hanging"):
        monkeypatch.setattr(explain, name, never)
    monkeypatch.setattr(showing, "choose", never)
    missing = tmp_path / "no such folder" / "k.pdf"
    code, out, err = run(capsys, command, "king", "--out", str(missing))
    assert code == 2 and out == ""
    assert err == (
        f"snakecube: error: cannot write {str(missing)!r}: there is no folder "
        f"{str(missing.parent)!r}\n"
    )
    code, out, err = run(capsys, command, "king", "--out", str(tmp_path / "a\nb.pdf"))
    assert code == 2 and "a file name with a control character" in err and err.count("\n") == 1
    code, out, err = run(capsys, command, "king", "--out", "/proc/k.pdf")  # not writable
    assert code == 2 and err.count("\n") == 1 and "cannot write '/proc/k.pdf'" in err


def test_designs_csv_that_cannot_be_written_is_refused_before_the_census(capsys, tmp_path):
    missing = tmp_path / "none" / "d.csv"
    code, out, err = run(capsys, "designs", "--box", "3x3x3", "--csv", str(missing))
    assert code == 2 and out == "" and "there is no folder" in err and err.count("\n") == 1


def test_show_and_fold_out_print_the_same_kind_of_thing(capsys, tmp_path):
    """--out sends the answer to the file: standard output gets only the notes, standard
    error what is drawn and where it went (docs/design-cli.md, the command line)."""
    for command in ("show", "fold"):
        path = tmp_path / f"{command}.txt"
        code, out, err = run(
            capsys, command, "3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3", "--out", str(path)
        )
        assert code == 0 and path.read_text().strip()
        assert out == "(this is the catalog's standard, also called cubra-blue)\n"
        assert err.endswith(f"snakecube: wrote {str(path)!r}\n")


def test_every_error_starts_snakecube_error(capsys):
    """argparse's usage errors and snakecube's own say the same prefix; the help named is
    the command's."""
    for args, help_ in (
        (["solve"], "(see snakecube solve --help)"),
        (["solve", "king", "--secnds", "3"], "(see snakecube solve --help)"),
        (["solv", "king"], "(see snakecube --help)"),
        (["solve", "king", "--box", "3x3"], ""),
    ):
        code, _, err = run(capsys, *args)
        assert code == 2 and err.startswith("snakecube: error: ") and err.count("\n") == 1, err
        assert help_ in err


def test_a_target_decided_before_any_search_step_says_so(capsys):
    code, out, _ = run(capsys, "solve", "3,3,3,3", "--box", "3x3x1")
    assert code == 0 and "0 nodes" not in out
    assert "search                   none needed: placing the first segments every way" in out
    code, out, _ = run(capsys, "solve", "standard")
    assert " nodes in " in out


def test_json_names_the_reading_of_every_notation(capsys):
    for typed, reading in (
        ("standard", "read as a catalog name"),
        ("ESCSCSCSCCCCSCSCCCSCCSCCCSE", "read as a turn string (S, C, E)"),
        ("lengths:3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3", "read as segment lengths"),
    ):
        for command in ("solve", "check"):
            extra = (
                [" ".join(",".join(map(str, c)) for c in _standard_cells())]
                if command == "check"
                else []
            )
            code, out, _ = run(capsys, command, typed, *extra, "--json")
            assert code == 0 and json.loads(out)["snake"]["reading"] == reading, out


def _standard_cells():
    import snakecube as sc

    return next(sc.solutions("standard")).cells


def test_designs_interrupted_while_planning_says_so(capsys, monkeypatch):
    import snakecube.census as census_package
    from snakecube.census import runner

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(census_package, "census", stopped)
    code, out, err = run(capsys, "designs", "--box", "3x3x3")
    assert code == 130 and out == ""
    assert (
        err == "snakecube: interrupted while planning the census, before any design was counted\n"
    )
    monkeypatch.setattr(runner, "plan", stopped)
    code, out, err = run(capsys, "designs", "--box", "3x3x3", "--estimate")
    assert (
        code == 130 and err == "snakecube: interrupted while forecasting the census: no forecast\n"
    )


def test_library_errors_name_parameters_and_the_cli_its_options(capsys):
    import snakecube as sc
    from snakecube.census import census
    from snakecube.designs import design_of, serpentine

    with pytest.raises(sc.InputError) as refused:
        census(sc.Box(4, 4, 4))
    assert "--" not in str(refused.value) and "(seconds=)" in str(refused.value)
    with pytest.raises(sc.InputError) as refused:
        census(sc.Box(2, 2, 2), scheduler="tcp://127.0.0.1:9")
    assert "--" not in str(refused.value) and "(store=)" in str(refused.value)
    box = sc.Box(6, 6, 4)  # 144 cells: more than the beam's masks hold
    snake = design_of([box.cells[c] for c in serpentine(box)])
    with pytest.raises(sc.InputError) as refused:
        sc.solve(snake, box, strategy="beam", limit=1)
    assert "strategy='beam' needs" in str(refused.value) and "--" not in str(refused.value)
    code, _, err = run(capsys, "designs", "--box", "4x4x4")
    assert code == 2 and "give --seconds S to run part of it (with --store DIR" in err
    assert "--estimate for the forecast alone, or --scheduler ADDRESS" in err
    code, _, err = run(capsys, "designs", "--box", "2x2x2", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and "reach (--store)" in err
    lengths = ",".join(map(str, snake.lengths))
    code, _, err = run(
        capsys, "solve", f"lengths:{lengths}", "--box", "6x6x4", "--strategy", "beam", "--first"
    )
    assert code == 2 and "--strategy beam needs the compiled beam loop" in err, err


@pytest.mark.heavy  # the first-solution search of 125 cells needs the kernel
def test_a_count_that_stops_before_any_solution_points_to_first():
    code, out, err, _ = tool("solve", FLOPPY_125, "--seconds", "1")
    assert code == 0 and "no solutions found before stopping" in out, (out, err)
    assert (
        "'snakecube solve SNAKE --first' looks for one alone" in err and len(err.splitlines()) == 1
    )
    code, out, err, _ = tool("solve", FLOPPY_125, "--first", "--seconds", "20")
    assert code == 0 and "solution 1 of 1+" in out and "--first" not in err, (out, err)
