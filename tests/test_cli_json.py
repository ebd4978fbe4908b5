"""Every command's --json: one document, and its enum-valued fields (stop reasons, ends,
strategies) among their enum's values, written as the plain strings they always were."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from snakecube.cli import main
from snakecube.search.strategy import Strategy
from snakecube.snake import End
from snakecube.stop import StopReason

DIRS = "+x +y -x +z +x -z +x -y -x +z +y -z +x +z -y +x +y"  # the standard's solution

# A field's name -> the values it may take (None: "not stopped", "no plan"...).
ENUM_FIELDS: dict[str, set[str | None]] = {
    "stop_reason": {*StopReason, None},
    "easier_end": {*End, None},
    "held": {*End, None},
    "strategy": {*Strategy, None},
}

# Each command that takes --json, on cheap inputs; some stop early on purpose.
COMMANDS = [
    ["solve", "standard"],
    ["solve", "seed-blue", "--limit", "1"],  # stops at the solution limit
    ["solve", "seed-blue", "--seconds", "0.001"],  # complete, or stopped at the time limit
    ["solve", "standard", "--end", "last"],
    ["fold", "standard"],
    ["fold", "standard", "--from", "last"],
    ["designs", "--box", "2x2x2"],
    ["designs", "--box", "2x2x2", "--box", "4x2x1"],
    ["designs", "--box", "2x2x3", "--fold-into", "6x2x1"],
    ["generate", "--box", "2x2x3", "--count", "1", "--seed", "1"],
    ["rate", "standard"],
    ["flat", "3,3,3"],
    ["catalog"],
    ["convert", "standard"],
    ["check", "standard", DIRS],
]


def _fields(doc: object) -> Iterator[tuple[str, object]]:
    """Every (key, value) of a JSON document, at any depth."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield key, value
            yield from _fields(value)
    elif isinstance(doc, list):
        for item in doc:
            yield from _fields(item)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_every_commands_json_parses_with_enum_values(capsys, args):
    code = main([*args, "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    doc = json.loads(out)  # one document, nothing else on stdout
    seen = [(k, v) for k, v in _fields(doc) if k in ENUM_FIELDS]
    for key, value in seen:
        assert value in ENUM_FIELDS[key], (key, value)
        assert value is None or type(value) is str  # read back as the plain string
    if args[0] in ("solve", "designs", "rate", "flat", "generate"):
        assert "stop_reason" in doc
    if "--limit" in args:
        assert doc["stop_reason"] == "limit" and not doc["complete"]
    if args[0] == "rate":
        assert doc["easier_end"] in ("first", "last")
    if "--from" in args:
        assert doc["held"] == "last"


def test_enum_members_write_their_plain_strings():
    # A StrEnum member is written as its value: JSON output is what it was with strings.
    for enum in (StopReason, End, Strategy):
        for member in enum:
            assert json.dumps({"k": member}) == json.dumps({"k": member.value})
            assert f"{member}" == member.value == str(member)
