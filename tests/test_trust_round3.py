"""Trust and limits, round three (issue 62): each finding as a test, run against the old main
first and seen to fail there. (The server's findings are in test_web_bounds.py, the cluster's
in test_cluster_trust.py.)"""

from __future__ import annotations

from conftest import tool

REGION = "###\n###\n###\n\n###\n###\n###\n\n###\n###\n###\n"


def test_no_output_is_an_input_of_the_same_command(tmp_path):
    """`show --region reg.txt --out reg.txt` overwrote its own region, and `designs --csv
    STORE/manifest.json` ruined the store: both refused in one line, before any work, the
    files left as they were."""
    region = tmp_path / "reg.txt"
    region.write_text(REGION)
    code, _, err, _ = tool("show", "standard", "--region", str(region), "--out", str(region))
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "is both read and written by this command" in err
    assert region.read_text() == REGION
    store = tmp_path / "st"
    code, _, err, _ = tool("designs", "--box", "2x2x3", "--store", str(store))
    assert code == 0, err
    manifest = (store / "manifest.json").read_text()
    code, _, err, _ = tool(
        "designs", "--box", "2x2x3", "--store", str(store), "--csv", str(store / "manifest.json")
    )
    assert code == 2 and len(err.splitlines()) == 1 and "is in the census store" in err, err
    assert (store / "manifest.json").read_text() == manifest


def test_one_line_for_every_bad_input_said_after_a_notice(tmp_path):
    """A bad store path after a forecast, and a box too big for generate after its notice:
    one line each (before: the forecast or the notice, then the error)."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a store\n")
    for argv in (
        ["designs", "--box", "4x4x4", "--store", str(a_file), "--seconds", "1"],
        ["designs", "--box", "2x2x3", "--store", f"{a_file}/sub"],
        ["generate", "--box", "6", "--unique"],
    ):
        code, _, err, _ = tool(*argv)
        assert code == 2 and len(err.splitlines()) == 1, (argv, err)
