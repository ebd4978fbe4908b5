"""Targets: the symmetry group is computed from the cells, and region files are read strictly."""

from __future__ import annotations

import pytest

from snakecube import Box, InputError, Region


@pytest.mark.parametrize(
    ("dims", "order"),
    [
        ((3, 3, 3), 48),
        ((4, 4, 4), 48),
        ((2, 3, 4), 8),
        ((2, 2, 3), 16),
        ((3, 3, 1), 8),
        ((2, 3, 1), 4),
        ((1, 1, 5), 2),
        ((1, 1, 1), 1),
        ((2, 2, 2), 48),
    ],
)
def test_symmetry_group_orders(dims, order):
    box = Box(*dims)
    assert len(box.symmetries) == order
    ident = tuple(range(box.volume))
    assert box.symmetries[0] == ident
    group = set(box.symmetries)
    for g in box.symmetries:  # closed under composition: a group
        for h in box.symmetries:
            assert tuple(g[h[c]] for c in ident) in group


def test_region_symmetry_from_cells():
    l_shape = Region.parse("##\n#.")
    assert len(l_shape.symmetries) == 2  # the mirror through the diagonal
    plus = Region.parse(".#.\n###\n.#.")
    assert len(plus.symmetries) == 8
    skew = Region.parse("##.\n.##")
    assert len(skew.symmetries) == 2  # a half turn (flat)
    tower = Region.parse("##\n##\n\n#.\n..")
    assert len(tower.symmetries) == 2


def test_cell_kinds_of_a_cube():
    box = Box(4, 4, 4)
    sizes = {}
    for orbit in box.orbits():
        sizes[box.cell_kind(orbit[0])] = sizes.get(box.cell_kind(orbit[0]), 0) + len(orbit)
    assert sizes == {"corner": 8, "edge": 24, "face": 24, "inside": 8}
    flat = Box(3, 3, 1)
    assert {flat.cell_kind(o[0]) for o in flat.orbits()} == {"corner", "edge", "inside"}


def test_region_text_round_trip():
    text = "##.\n###\n\n#..\n###\n"
    r = Region.parse(text)
    assert r.volume == 9 and r.dims == (3, 2, 2)
    assert Region.parse(r.to_text()) == r
    assert Region.parse(Box(2, 3, 2).to_text()) == Box(2, 3, 2)


def test_region_comments_and_bad_characters(tmp_path):
    assert Region.parse("; a comment\n##\n").volume == 2
    with pytest.raises(InputError, match="line 2, column 3: 'x'"):
        Region.parse("##\n##x")
    with pytest.raises(InputError, match="no '#' cells"):
        Region.parse("..\n..")
    with pytest.raises(InputError, match="cannot read region file"):
        Region.from_file(tmp_path / "missing.txt")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2x3", "not AxBxC"),
        ("2x0x3", "side 2: 0 is too small; at least 1"),
        ("2xax3", "side 2: 'a' is not a whole number"),
        ("", "not AxBxC"),
        ("4300", "side 1: 4300 is too large"),
        ("1000x1000x1000", "has 1000000000 cells; snakecube handles at most 1000"),
        ("2x²x3", "side 2: '²' is not a whole number"),
    ],
)
def test_bad_boxes(text, words):
    with pytest.raises(InputError, match=words):
        Box.parse(text)


def test_box_spellings():
    assert Box.parse("2x3x4") == Box.parse("2,3,4") == Box.parse("2×3×4") == Box(2, 3, 4)
    assert Box.parse("3") == Box(3, 3, 3)
    with pytest.raises(InputError, match="not a cube number"):
        Box.cube(26)


# -- a target named in text: one registry (issue 63) -----------------------------------------
def test_a_target_is_read_in_one_place():
    from snakecube.shape import parse_target

    assert parse_target("2x3x4") == Box(2, 3, 4)
    assert parse_target(" box:3 ") == Box(3, 3, 3)
    with pytest.raises(InputError, match=r"--box: 'ring' is not a kind of target \(AxBxC, or box:"):
        parse_target("ring:3x4", "--box")


def test_a_new_kind_of_target_is_one_entry_and_reaches_every_face(monkeypatch, capsys):
    """A kind registered in shape.TARGET_KINDS alone (here ``row:N``, N cells in a line) is
    taken by the library, the page's answers and the command line, with no other change."""
    import snakecube as sc
    from snakecube import shape
    from snakecube.cli import main
    from snakecube.web import answers

    monkeypatch.setitem(shape.TARGET_KINDS, "row", lambda text, where: Box(int(text), 1, 1))
    assert sc.solve("lengths:5", "row:5").distinct == 1
    assert answers.solve_answer("lengths:5", "row:5")["distinct"] == 1
    assert main(["solve", "lengths:5", "--box", "row:5", "--json"]) == 0
    assert '"distinct": 1' in capsys.readouterr().out


def test_a_cylinder_of_cells():
    """cyl:RxH: the cells of a 2R x 2R square whose centres lie within R of its centre, in H
    layers; its designs' counts agree with brute force over its Hamiltonian paths."""
    import bruteforce
    import snakecube as sc
    from snakecube.shape import Cylinder, parse_target

    assert set(parse_target("cyl:1x3").cells) == set(Box(2, 2, 3).cells)
    ring = parse_target("cyl:2x1")
    assert ring.volume == 12 and (0, 0, 0) not in ring.cellset and (1, 0, 0) in ring.cellset
    assert parse_target("CYL: 3 x 2").volume == 2 * 32 and isinstance(ring, Cylinder)
    for bad in ("cyl:2", "cyl:0x2", "cyl:2x0", "cyl:axb"):
        with pytest.raises(InputError, match="cyl"):
            parse_target(bad, "--box")
    designs = bruteforce.solutions_by_design_of(list(parse_target("cyl:2x1").cells))
    assert len(designs) == 2  # the ring of 12 cells: all corners, or one straight
    for design, distinct in designs.items():
        snake = "lengths:" + ",".join(map(str, design))
        assert sc.solve(snake, "cyl:2x1").distinct_up_to_reversal == distinct, design
