"""Records: frozen value classes with slots, written as dataclasses are.

    @record
    class Segment:
        start: int
        length: int = 2
        note: str = field(default="", compare=False)

gives ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` over the fields, refuses
assignment after ``__init__`` (``__post_init__`` may still set fields through
``object.__setattr__``), pickles, and has ``replace(record, **changes)``, also reached as
``copy.replace`` from Python 3.13. That is the part of :mod:`dataclasses` snakecube uses.
Importing ``dataclasses`` loads ``inspect``, ``re`` and ``enum``: 11 ms at every start of the
command, more than the whole solve of a 3x3x3 puzzle (docs/design.md, "Start-up").
tests/test_records.py checks these records against dataclasses.

Type checkers read ``record`` as a dataclass (PEP 681's ``dataclass_transform``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from typing_extensions import dataclass_transform

    T = TypeVar("T")
else:

    def dataclass_transform(**_kwargs):
        return lambda decorated: decorated


__all__ = ["FrozenRecordError", "field", "fields", "record", "replace"]


class FrozenRecordError(AttributeError):
    """Assigning to a field of a record (as ``dataclasses.FrozenInstanceError`` is)."""


_MISSING: Any = object()


class Field:
    """How one field of a record behaves: what ``field()`` returns."""

    __slots__ = ("compare", "default", "default_factory", "name", "repr")

    def __init__(
        self, default: Any, default_factory: Callable[[], Any] | None, repr: bool, compare: bool
    ) -> None:
        self.name = ""
        self.default, self.default_factory = default, default_factory
        self.repr, self.compare = repr, compare


def field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] | None = None,
    repr: bool = True,
    compare: bool = True,
) -> Any:
    """A field's default (a value, or a function called for each record), and whether it is
    shown by ``repr`` and counted by ``==`` and ``hash``."""
    if default is not _MISSING and default_factory is not None:
        raise ValueError("field() takes a default or a default_factory, not both")
    return Field(default, default_factory, repr, compare)


def fields(item: Any) -> tuple[Field, ...]:
    """The fields of a record (or of its class), in order."""
    try:
        return item.__record_fields__
    except AttributeError:
        raise TypeError(f"{item!r} is not a record") from None


def replace(item: T, **changes: Any) -> T:
    """A copy of a record with some fields changed (``__post_init__`` runs again)."""
    values = {f.name: getattr(item, f.name) for f in fields(item)}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(item).__name__} has no field {sorted(unknown)[0]!r}")
    return type(item)(**(values | changes))


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` a record: a new class with slots, one per annotated field (a ``ClassVar``
    annotation is not a field). Methods the class defines itself are kept."""
    own = cls.__dict__
    if any(hasattr(base, "__record_fields__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__name__}: a record cannot extend another record")
    table = []
    for name, annotation in own.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        value = own.get(name, _MISSING)
        one = value if isinstance(value, Field) else Field(value, None, True, True)
        if isinstance(one.default, list | dict | set):
            raise ValueError(f"{cls.__name__}.{name}: a mutable default; use default_factory")
        one.name = name
        table.append(one)
    names = tuple(f.name for f in table)
    namespace = {k: v for k, v in own.items() if k not in (*names, "__dict__", "__weakref__")}
    namespace |= {"__slots__": names, "__match_args__": names, "__record_fields__": tuple(table)}
    for name, method in _methods(cls.__qualname__, table, "__post_init__" in own).items():
        if namespace.get(name) is None:  # a class's own method wins (a __hash__ of None is
            namespace[name] = method  # Python's mark of a class that defines only __eq__)
    meta: Any = type(cls)
    new = meta(cls.__name__, cls.__bases__, namespace)
    new.__qualname__ = cls.__qualname__
    return new


def _rebuild(cls: type[T], values: tuple[Any, ...]) -> T:
    """A record from pickle or copy: its fields set as they were, without running
    ``__init__`` or ``__post_init__`` again (as for a dataclass)."""
    item = object.__new__(cls)
    for f, value in zip(fields(cls), values, strict=True):
        object.__setattr__(item, f.name, value)
    return item


# Long by design: the source of every method, in one place, so it reads as the class would.
def _methods(name: str, table: list[Field], post_init: bool) -> dict[str, Any]:
    """The record's methods, compiled from source once per class (as dataclasses does: a
    generated ``__init__`` is as fast as a hand-written one)."""
    scope: dict[str, Any] = {"_MISSING": _MISSING, "_set": object.__setattr__,
                             "_Frozen": FrozenRecordError, "_replace": replace,
                             "_rebuild": _rebuild}  # fmt: skip
    params, body, defaults = [], [], False
    for f in table:
        value = f.name
        if f.default_factory is not None:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            value = f"_factory_{f.name}() if {f.name} is _MISSING else {f.name}"
        elif f.default is not _MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif defaults:
            raise TypeError(f"{name}: field {f.name!r} without a default follows one with it")
        else:
            params.append(f.name)
        defaults = defaults or f.default_factory is not None or f.default is not _MISSING
        body.append(f"_set(self, {f.name!r}, {value})")
    if post_init:
        body.append("self.__post_init__()")

    def values(which: list[str]) -> str:
        return "(" + "".join(f"self.{n}, " for n in which) + ")"

    compared = values([f.name for f in table if f.compare])
    shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in table if f.repr)
    lines = [
        f"def __init__(self, {', '.join(params)}):",
        *(f"    {line}" for line in body or ["pass"]),
        "def __repr__(self):",
        f"    return f'{{type(self).__qualname__}}({shown})'",
        "def __eq__(self, other):",
        "    if other.__class__ is not self.__class__:",
        "        return NotImplemented",
        f"    return {compared} == {compared.replace('self.', 'other.')}",
        "def __hash__(self):",
        f"    return hash({compared})",
        "def __setattr__(self, name, value):",
        "    raise _Frozen(f'cannot assign to field {name!r}')",
        "def __delattr__(self, name):",
        "    raise _Frozen(f'cannot delete field {name!r}')",
        "def __replace__(self, **changes):",
        "    return _replace(self, **changes)",
        "def __reduce__(self):",
        f"    return (_rebuild, (self.__class__, {values([f.name for f in table])}))",
    ]
    exec("\n".join(lines), scope)
    names = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__",
             "__replace__", "__reduce__")  # fmt: skip
    return {k: scope[k] for k in names}
