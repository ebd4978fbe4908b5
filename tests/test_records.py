"""snakecube.records behaves as dataclasses(frozen=True, slots=True) does, checked against
dataclasses itself on the same class bodies."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snakecube import records


def _pair():
    """The same class body as a record and as a frozen, slotted dataclass."""

    def body(field):
        class Point:
            kind: ClassVar[str] = "point"
            x: int
            y: float = 0.5
            tags: tuple[str, ...] = field(default_factory=tuple)
            note: str = field(default="", compare=False, repr=False)

            def norm(self) -> float:
                return abs(self.x) + abs(self.y)

        return Point

    return (records.record(body(records.field)),
            dataclasses.dataclass(frozen=True, slots=True)(body(dataclasses.field)))  # fmt: skip


Mine, Theirs = _pair()
numbers = st.sampled_from([0.5, 1.0, float("nan")])
tags = st.lists(st.sampled_from("ab"), max_size=2).map(tuple)
values = st.tuples(st.integers(-5, 5), numbers, tags, st.text(max_size=2))


@given(values, values)
def test_init_repr_eq_hash_agree_with_dataclasses(a, b):
    m1, m2, t1, t2 = Mine(*a), Mine(*b), Theirs(*a), Theirs(*b)
    assert repr(m1) == repr(t1)
    assert (m1 == m2) == (t1 == t2)
    assert (m1 == m1) == (t1 == t1)  # a NaN field: equal to itself, as tuples are
    if m1 == m2:
        assert hash(m1) == hash(m2)
    assert m1.norm() == t1.norm() or m1.norm() != m1.norm()


def test_defaults_classvar_slots_and_match_args():
    m = Mine(1)
    assert (m.x, m.y, m.tags, m.note) == (1, 0.5, (), "")
    assert Mine.kind == "point" and "kind" not in Mine.__slots__
    assert Mine.__match_args__ == Theirs.__match_args__ == ("x", "y", "tags", "note")
    assert not hasattr(m, "__dict__")
    assert [f.name for f in records.fields(m)] == ["x", "y", "tags", "note"]
    match m:
        case Mine(1, y):
            assert y == 0.5
        case _:
            pytest.fail("a record matches by position")


def test_frozen_but_post_init_may_normalize():
    m = Mine(1)
    with pytest.raises(AttributeError, match="cannot assign"):
        m.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot delete"):
        del m.x  # type: ignore[misc]

    @records.record
    class Sorted:
        items: tuple[int, ...]

        def __post_init__(self) -> None:
            object.__setattr__(self, "items", tuple(sorted(self.items)))

    assert Sorted((3, 1, 2)).items == (1, 2, 3)
    assert records.replace(Sorted((1,)), items=(5, 4)).items == (4, 5)


@records.record
class Stored:  # at module level, so pickle can find it
    x: int
    y: float = 0.5
    note: str = records.field(default="", compare=False)


@records.record
class Counted:  # __post_init__ runs once per record made, not again by pickle or copy
    x: int
    runs: list[int] = records.field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        self.runs.append(1)


def test_pickle_copy_and_replace():
    c = Counted(1)
    for again in (pickle.loads(pickle.dumps(c)), copy.copy(c), copy.deepcopy(c)):
        assert again == c and again.runs == [1]
    m = Stored(3, 1.0, "kept")
    for again in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
        assert again == m and again.note == "kept"
    changed = records.replace(m, x=4)
    assert (changed.x, changed.y, changed.note) == (4, 1.0, "kept") and m.x == 3
    assert records.replace(Mine(1), x=2).tags == ()
    with pytest.raises(TypeError, match="no field 'z'"):
        records.replace(m, z=1)
    if sys.version_info >= (3, 13):
        assert copy.replace(m, y=2.0).y == 2.0  # type: ignore[attr-defined]


def test_own_methods_win_and_order_is_checked():
    @records.record
    class Same:
        x: int

        __eq__ = object.__eq__
        __hash__ = object.__hash__

    a = Same(1)
    assert a != Same(1) and a == a and len({a, Same(1)}) == 2
    with pytest.raises(TypeError, match="without a default follows"):

        @records.record
        class Bad:
            x: int = 1
            y: int

    with pytest.raises(ValueError, match="not both"):
        records.field(default=1, default_factory=list)
    with pytest.raises(ValueError, match="mutable default"):

        @records.record
        class Shared:
            items: list[int] = []  # noqa: RUF012 - the mistake under test

    with pytest.raises(TypeError, match="cannot extend"):

        @records.record
        class More(Stored):
            z: int = 0

    with pytest.raises(TypeError, match="not a record"):
        records.fields(object())


def test_a_class_that_defines_eq_still_hashes_by_fields():
    @records.record
    class Loose:
        x: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Loose) and self.x % 2 == other.x % 2

    assert Loose(1) == Loose(3) and hash(Loose(1)) == hash(Loose(1))
