"""Notations: each one reads back what it writes, and bad input names what and where."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snakecube import InputError, Snake
from snakecube.snake import NOTATIONS

STANDARD = "ESCSCSCSCCCCSCSCCCSCCSCCCSE"
STANDARD_LENGTHS = (3, 3, 3, 3, 2, 2, 2, 3, 3, 2, 2, 3, 2, 3, 2, 2, 3)

snakes = st.lists(st.integers(2, 6), min_size=1, max_size=40).map(lambda ls: Snake(tuple(ls)))


@given(snakes)
def test_every_notation_round_trips(snake):
    for n in NOTATIONS:
        assert Snake.parse(snake.format(n)) == snake, n


@given(snakes)
def test_reversal_and_palindromes(snake):
    assert snake.reversed().reversed() == snake
    assert snake.reversed().cubes == snake.cubes
    assert snake.is_palindrome == (snake.turns() == snake.turns()[::-1])


def test_standard_in_each_notation():
    s = Snake.parse(STANDARD)
    assert s.cubes == 27 and s.segments == 17
    assert s.bits() == "001010101111010111011011100"
    assert s.format("lengths") == "lengths:3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3"
    assert s.format("steps") == "steps:2,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2"
    assert s.format("elbows") == "elbows:3,5,7,9,10,11,12,14,16,17,18,20,21,23,24,25/27"


@pytest.mark.parametrize(
    "text",
    [
        STANDARD,
        STANDARD.lower(),
        "S" + STANDARD[1:-1] + "C",  # ends written S or C, as seeds/003 does
        "001010101111010111011011100",
        "lengths:3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3",
        "3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3",
        "[3 3 3 3 2 2 2 3 3 2 2 3 2 3 2 2 3]",
        "steps:2,2,2,2,1,1,1,2,2,1,1,2,1,2,1,1,2",
        "elbows:3,5,7,9,10,11,12,14,16,17,18,20,21,23,24,25",
        "elbows = [3 5 7 9 10 11 12 14 16 17 18 20 21 23 24 25]",
        "ELBOWS: 3,5,7,9,10,11,12,14,16,17,18,20,21,23,24,25/27",
        "standard",
        "Cubra-Blue",
    ],
)
def test_spellings_of_the_standard(text):
    assert Snake.parse(text) == Snake.parse(STANDARD)


def test_elbows_take_the_target_volume():
    assert Snake.parse("elbows:3", cubes=5).lengths == (3, 3)
    # Without a count, the smallest cube past the last corner, if the snake fits that cube:
    assert Snake.parse("elbows:2,3,4,5,6,7").lengths == (2,) * 7  # the 2x2x2 zig-zag
    with pytest.raises(InputError, match="give the count"):
        Snake.parse("elbows:3")  # as an 8-cube snake its last run would have 6 cubes
    standard = Snake.parse("standard")
    elbows = ",".join(map(str, standard.elbows()))
    with pytest.raises(InputError, match="last corner is cube 28"):
        Snake.parse(f"elbows:{elbows},28")  # a typo, not a 64-cube snake
    with pytest.raises(InputError, match=r"corner cubes are numbered 2\.\.26"):
        Snake.parse(f"elbows:{elbows},28", cubes=27)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty snake"),
        ("   ", "empty snake"),
        ("ESCXSE", "'X' at cube 4"),
        ("turns:ESCSEC", "E (end) at cube 5"),
        ("E", "at least 2 cubes"),
        ("lengths:3,1,3", "segment 2 has length 1"),
        ("3,0", "segment 2 has length 0"),
        ("lengths:3,x,3", "item 2 'x' is not a whole number"),
        ("lengths:", "no numbers"),
        ("steps:2,0", "item 2 is 0"),
        ("elbows:3,3/10", "item 2 is 3, not after 3"),
        ("elbows:3,12/10", "item 2 is 12"),
        ("elbows:3/x", "count after '/': 'x' is not a whole number"),
        ("bits:0120", "'2' at cube 3"),
        ("standrd", "did you mean 'standard'"),
        ("kingg", "did you mean 'king'"),
    ],
)
def test_bad_input_names_what_and_where(text, words):
    with pytest.raises(InputError) as err:
        Snake.parse(text, cubes=None)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_snake_needs_segments_of_two():
    with pytest.raises(InputError, match="segment 1 has length 1"):
        Snake((1, 3))
    with pytest.raises(InputError, match="at least one segment"):
        Snake(())


def test_repr_is_eval_able():
    s = Snake.parse(STANDARD)
    assert eval(repr(s), {"Snake": Snake}) == s


@pytest.mark.parametrize(
    ("text", "cubes", "lengths", "reading"),
    [
        ("--o-o-o-o-oooo-o-ooo-oo-ooo--", None, None, "o = corner"),
        ("oo-o-o-o----o-o---o--o---oo", None, STANDARD_LENGTHS, "- = corner"),  # o: a run of 5
        ("dashes:oo-o-o-o-o----o-o---o--o---oo", None, None, ""),
        ("[0,0,1,0,1,0,1,0,1,1,1,1,0,1,0,1,1,1,0,1,1,0,1,1,1,0,0]", None, None, "1 = corner"),
        (
            "3,3,3,3,2,2,2,3,3,2,2,3,2,3,2,2,3",
            None,
            STANDARD_LENGTHS,
            "segment lengths",
        ),
        ("2,2,2,2,2,2,2,2,2,2,2,2,2", None, (3,) * 13, "steps"),  # as lengths: 14 cubes
        ("2,2,2,2,2,2,2", 8, (2,) * 7, "segment lengths"),
        ("1,1,1,1,1,1,1", None, (2,) * 7, "steps"),  # 8 cubes; as bits 7
    ],
)
def test_ambiguous_text_is_read_by_the_rules(text, cubes, lengths, reading):
    s = Snake.parse(text, cubes)
    assert reading in s.reading
    if lengths is not None:
        assert s.lengths == lengths
    if reading:  # the other readings cannot fit: not a close call, so not named
        assert s.reading == f"read as {reading}" or ";" not in s.reading


def test_a_reading_says_what_was_read_and_names_another_only_in_a_close_call():
    # The way most people type a snake: lengths; as steps it would be 44 cubes, no question.
    assert Snake.parse("3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3").reading == "read as segment lengths"
    assert Snake.parse("--o-o-o-oooo-o-ooo-oo-ooo--").reading == "read as o/- per cube, o = corner"
    # Both ways round fill 6 cells: a close call, and the line says how to read it the other way.
    close = Snake.parse("--o-o-", 6)
    assert close.lengths == (3, 3, 2) and close.reading == (
        "read as o/- per cube, o = corner; o/- per cube, - = corner would fit too: "
        "put dashes-inverted: in front to read it that way"
    )
    assert Snake.parse("dashes-inverted:--o-o-") != close
    # The usual reading cannot fit and another can: that one is read, and only named.
    assert Snake.parse("2,2,2,2,2,2,2,2,2,2,2,2,2").reading == (
        "read as steps (segment lengths minus one)"
    )


def test_forcing_prefixes():
    bits = "001010101111010111011011100"
    assert Snake.parse("bits-inverted:" + bits) != Snake.parse(bits)
    assert Snake.parse("steps:3,3,3") == Snake.parse("lengths:4,4,4")
    assert Snake.parse("dashes-inverted:--o--") == Snake.parse("bits:11011")


@pytest.mark.parametrize(
    "text,blamed",
    [
        ("3 3 3 3 2 2 2 3 3 2 2 3 2 3 2 2 3.", "'.' at position 34 is not a digit or a separator"),
        ("3 3 3 3 2 2 2 3 3 2 2 3 2 3 2 2 e", "'e' at position 33 is not a digit or a separator"),
        ("3,3,3,x,2", "'x' at position 7 is not a digit or a separator"),
        ("--o-o-x--", "'x' at position 7 is not o or -"),
        ("kinx", "'k' at position 1 is not S, C or E"),  # letters: read as a name or turns
    ],
)
def test_a_stray_character_is_blamed_on_itself(text, blamed):
    """The notation the text is mostly written in decides what does not belong to it."""
    with pytest.raises(InputError) as err:
        Snake.parse(text)
    assert blamed in str(err.value)


@pytest.mark.parametrize(
    "text,key",
    [
        ("standard", "catalog"),
        ("ESCSE", "turns"),
        ("3-3-3", "lengths"),
        ("3,3,1", "steps"),
        ("steps:2,2", "steps"),
        ("elbows:3,5/6", "elbows"),
        ("001010101111010111011011100", "bits"),
        ("{0,0,1,0,0}", "bits"),
        ("--o-o-o-oooo-o-ooo-oo-ooo--", "dashes"),
        ("dashes-inverted:oo-o-", "dashes-inverted"),
    ],
)
def test_the_notation_read_is_a_key_beside_the_sentence(text, key):
    snake = Snake.parse(text)
    assert snake.notation == key
    assert Snake(snake.lengths).notation == ""  # built in code: no text was read
    assert snake == Snake(snake.lengths)  # neither takes part in equality
