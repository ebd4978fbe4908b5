"""Snake: the chain of cubes, as segment lengths, with a parse/format pair for every notation.

Vocabulary (used the same way everywhere in snakecube):

* **cube**: one small cube of the chain, numbered 1..n from the first end in text, 0..n-1 in code.
* **straight** cube: the cord leaves through the face opposite the one it entered.
* **corner** cube: the cord leaves through an adjacent face; the chain turns 90 degrees there.
* **end** cube: the first or the last cube.
* **segment**: a maximal straight run of cubes. Its **length** counts its cubes, the corner
  cubes at both ends included, so each corner is counted in the two segments it joins.

Notations read by :meth:`Snake.parse` and written by :meth:`Snake.format`:

========== ===================================== =======================================
notation   example (the standard 3x3x3 snake)    meaning
========== ===================================== =======================================
turns      ``ESCSCSCSCCCCSCSCCCSCCSCCCSE``       a letter a cube: S straight, C corner,
                                                 E end (ends may be written S or C)
bits       ``001010101111010111011011100``       a digit a cube: 1 corner, 0 otherwise
lengths    ``lengths:3,3,3,3,2,2,2,3,...``       cubes in each segment; a plain comma
                                                 list means lengths too
steps      ``steps:2,2,2,2,1,1,1,2,...``         lengths minus one
elbows     ``elbows:3,5,7,9,10,.../27``          1-based numbers of the corner cubes;
                                                 ``/27`` gives the cube count, else the
                                                 target's volume is used
dashes     ``--o-o-o-oooo-o-ooo-oo-ooo--``       a symbol a cube: o corner, - straight
                                                 or end (the published 3x3x3 analyses)
bitlist    ``{0,0,1,0,1,...}``                   bits with commas (and brackets or
                                                 braces), as Go and C solvers print them
steplist   ``2,2,2,2,1,1,1,2,...``               steps without the prefix (web solvers)
runs       ``runs:3,2,2,2,1,1,1,2,...``          the first run whole, then each run's new
                                                 cubes (a corner counted once: 27 in all)
========== ===================================== =======================================

Ambiguous text is read by documented rules (:func:`Snake.parse`, docs/conventions.md): a
two-symbol string (``o``/``-`` or ``0``/``1``) could have either symbol as the corner, and a
list of numbers could be segment lengths, steps or a 0/1 list. The usual reading is taken
unless it cannot fold into its target (wrong cube count, or a straight run longer than the
cube's side) and another one can. :attr:`Snake.notation` names the notation the text was
read in, as a key (``"lengths"``, ``"steps"``, ``"turns"``, ...), and :attr:`Snake.reading`
says it in a sentence for people when the text could mean more than one snake; a prefix
(``lengths:``, ``steps:``, ``bits:``, ``bits-inverted:``, ``dashes:``,
``dashes-inverted:``) forces one.
"""

from __future__ import annotations

import difflib
import enum
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from snakecube import catalog, limits
from snakecube.errors import InputError
from snakecube.limits import shorten


class End(enum.StrEnum):
    """One end of the snake: ``first`` is cube 1's, ``last`` cube n's."""

    FIRST = "first"
    LAST = "last"


def reading_words(snake: Snake) -> str:
    """How the snake's text was read, for people: :attr:`Snake.reading` where it could be
    read several ways, else 'read as' its notation ('read as a catalog name'); '' for a
    snake made from lengths in code.

    >>> reading_words(Snake.parse("standard"))
    'read as a catalog name'
    """
    if snake.reading:
        return snake.reading
    return f"read as {NOTATION_WORDS[snake.notation]}" if snake.notation in NOTATION_WORDS else ""


@dataclass(frozen=True, slots=True)
class Snake:
    """A snake, stored as the lengths of its straight segments (each at least 2).

    >>> s = Snake.parse("ESCSCE")
    >>> s.lengths, s.cubes
    ((3, 3, 2), 6)
    >>> s.format("elbows")
    'elbows:3,5/6'
    """

    lengths: tuple[int, ...]
    # How the text was read when it could mean more than one snake ("" otherwise): one
    # line for people naming the reading used, and in a close call (another reading would
    # fit the target too) the prefix that reads it the other way.
    reading: str = field(default="", compare=False, repr=False)
    # The notation the text was read in, as a key for programs: one of NOTATION_KEYS
    # ("catalog" for a catalog name), or "" for a snake built from lengths in code.
    notation: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.lengths, str | bytes):
            raise TypeError("Snake() takes segment lengths (ints); use Snake.parse() for text")
        try:
            lengths = tuple(self.lengths)
        except TypeError:
            raise TypeError(
                f"Snake() takes a sequence of segment lengths, not {type(self.lengths).__name__}"
            ) from None
        object.__setattr__(self, "lengths", lengths)
        if not lengths:
            raise InputError("a snake needs at least one segment")
        for i, n in enumerate(lengths, 1):
            if not isinstance(n, int) or isinstance(n, bool):
                raise TypeError(f"segment {i}: length {n!r} is not a whole number (int)")
            if n < 2:
                raise InputError(f"segment {i} has length {n}; every segment has at least 2 cubes")
        cubes = sum(lengths) - (len(lengths) - 1)
        if cubes > limits.MAX_CUBES:
            raise InputError(
                f"the snake has {cubes if cubes < 10**30 else 'a huge number of'} cubes; "
                f"snakecube handles at most {limits.MAX_CUBES}"
            )

    # -- what a snake is -------------------------------------------------------------------
    @property
    def cubes(self) -> int:
        """The number of cubes: each corner is shared by two segments."""
        return sum(self.lengths) - (len(self.lengths) - 1)

    @property
    def segments(self) -> int:
        """The number of straight segments."""
        return len(self.lengths)

    def corner_cubes(self) -> tuple[int, ...]:
        """0-based numbers of the corner cubes, in order."""
        out, at = [], 0
        for n in self.lengths[:-1]:
            at += n - 1
            out.append(at)
        return tuple(out)

    def reversed(self) -> Snake:
        """The same chain read from its other end."""
        return Snake(self.lengths[::-1])

    @property
    def is_palindrome(self) -> bool:
        """True when the snake reads the same from both ends."""
        return self.lengths == self.lengths[::-1]

    # -- constructors, one per notation ---------------------------------------------------
    @classmethod
    def from_turns(cls, text: str) -> Snake:
        """Read a turn string: S straight, C corner, E end; ends may be S or C; any case."""
        _check_text(text, "turn string")
        letters = "".join(text.split()).upper()
        if not letters:
            raise InputError("empty turn string")
        for i, ch in enumerate(letters, 1):
            if ch not in "SCE":
                raise InputError(
                    f"turn string: {ch!r} at cube {i} is not S (straight), C (corner) or E (end)"
                )
            if ch == "E" and 1 < i < len(letters):
                raise InputError(f"turn string: E (end) at cube {i}, which is not an end")
        if len(letters) < 2:
            raise InputError("turn string: a snake needs at least 2 cubes")
        return cls._from_corner_flags([ch == "C" for ch in letters[1:-1]], "turns")

    @classmethod
    def from_bits(cls, text: str, corner: str = "1") -> Snake:
        """Read a 0/1 string, 1 = corner (``corner="0"``: 0 = corner); the end digits are
        ignored. Commas, spaces, brackets and braces between digits are allowed."""
        _check_text(text, "0/1 string")
        digits = "".join(text.translate(_BIT_SPACES).split())
        notation = "bits" if corner == "1" else "bits-inverted"
        return cls._from_symbols(digits, "0/1 string", {"0": "0", "1": "1"}, corner, notation)

    @classmethod
    def from_dashes(cls, text: str, corner: str = "o") -> Snake:
        """Read an o/- string: o = corner, - = straight or end (``corner="-"``: the other way
        round); the end symbols are ignored; any case."""
        _check_text(text, "o/- string")
        symbols = "".join(text.split()).lower().translate(_DASHES)
        notation = "dashes" if corner == "o" else "dashes-inverted"
        return cls._from_symbols(
            symbols, "o/- string", {"o": "o (corner)", "-": "-"}, corner, notation
        )

    @classmethod
    def from_lengths(cls, lengths: Iterable[int]) -> Snake:
        """Build from segment lengths (cubes per straight run, corners counted twice)."""
        return cls(tuple(lengths), notation="lengths")

    @classmethod
    def from_steps(cls, steps: Iterable[int]) -> Snake:
        """Build from segment steps (lengths minus one)."""
        steps = tuple(steps)
        for i, n in enumerate(steps, 1):
            limits.whole(n, f"steps: item {i}", -limits.MAX_NUMBER, limits.MAX_NUMBER)
            if n < 1:
                raise InputError(f"steps: item {i} is {n}; every segment has at least 1 step")
        return cls(tuple(n + 1 for n in steps), notation="steps")

    @classmethod
    def from_runs(cls, runs: Iterable[int]) -> Snake:
        """Build from runs with each corner counted once: the first run whole, then the new
        cubes of each run after it (a corner cube counts in the run before it only).

        >>> Snake.from_runs([3, 2, 2, 2, 1, 1, 1, 2, 2, 1, 1, 2, 1, 2, 1, 1, 2]).cubes
        27
        """
        runs = tuple(runs)
        for i, n in enumerate(runs, 1):
            limits.whole(n, f"runs: item {i}", -limits.MAX_NUMBER, limits.MAX_NUMBER)
            if n < (2 if i == 1 else 1):
                least = "the first run has at least 2 cubes" if i == 1 else "a run adds at least 1"
                raise InputError(f"runs: item {i} is {n}; {least}")
        if not runs:
            raise InputError("runs: no numbers given")
        return cls((runs[0], *(n + 1 for n in runs[1:])), notation="runs")

    @classmethod
    def from_elbows(cls, elbows: Sequence[int], cubes: int) -> Snake:
        """Build from the 1-based numbers of the corner cubes and the total cube count."""
        limits.whole(cubes, "elbows: the cube count", -limits.MAX_NUMBER, limits.MAX_NUMBER)
        if cubes > limits.MAX_CUBES:
            raise InputError(
                f"elbows: a snake of {cubes} cubes; snakecube handles at most {limits.MAX_CUBES}"
            )
        if cubes < 2:
            raise InputError(f"elbows: a snake needs at least 2 cubes, not {cubes}")
        previous = 1
        for i, e in enumerate(elbows, 1):
            limits.whole(e, f"elbows: item {i}", -limits.MAX_NUMBER, limits.MAX_NUMBER)
            if not 1 < e < cubes:
                raise InputError(
                    f"elbows: item {i} is {e}; corner cubes are numbered 2..{cubes - 1}"
                )
            if e <= previous:
                raise InputError(
                    f"elbows: item {i} is {e}, not after {previous}; give them in increasing order"
                )
            previous = e
        points = [1, *elbows, cubes]
        return cls(tuple(b - a + 1 for a, b in itertools.pairwise(points)), notation="elbows")

    @classmethod
    def _from_symbols(
        cls, symbols: str, what: str, allowed: dict[str, str], corner: str, notation: str
    ) -> Snake:
        """A snake from one symbol a cube (``corner`` marks a corner; the ends' symbols are
        ignored), each checked against ``allowed`` (symbol: how the message names it)."""
        for i, ch in enumerate(symbols, 1):
            if ch not in allowed:
                named = " or ".join(allowed.values())
                raise InputError(f"{what}: {ch!r} at cube {i} is not {named}")
        if len(symbols) < 2:
            raise InputError(f"{what}: a snake needs at least 2 cubes")
        return cls._from_corner_flags([ch == corner for ch in symbols[1:-1]], notation)

    @classmethod
    def _from_corner_flags(cls, inner: Sequence[bool], notation: str) -> Snake:
        lengths, run = [], 2
        for is_corner in inner:
            if is_corner:
                lengths.append(run)
                run = 2
            else:
                run += 1
        lengths.append(run)
        return cls(tuple(lengths), notation=notation)

    # -- parse / format -------------------------------------------------------------------
    # Every notation is tried in a fixed order, one short block each; the order is the rule that
    # decides between readings.
    @classmethod
    def parse(cls, text: str, cubes: int | None = None) -> Snake:
        """Read a snake in any notation, or by catalog name.

        ``cubes`` is the cube count to use for ``elbows:`` without ``/N`` (the target's volume).

        >>> Snake.parse("lengths:3,2,3") == Snake.parse("3,2,3") == Snake.parse("ESCCSE")
        True
        """
        if not isinstance(text, str):
            raise TypeError(f"a snake is given as text (str), not {type(text).__name__}")
        _check_text(text, "snake")
        raw = text.strip()
        if not raw:
            raise InputError(
                "empty snake: give a turn string (ESCSE...), a 0/1 string, "
                "lengths:3,2,..., steps:2,1,..., elbows:3,5,... or a catalog name"
            )
        prefixed = _prefixed(raw)
        if prefixed is not None:
            kind, body = prefixed
            read = NOTATION_TABLE[kind].read
            assert read is not None  # _prefixed names only notations with a prefix
            return read(body, cubes)

        entry = catalog.find(raw)
        if entry is not None:
            return cls(cls.from_turns(entry.turns).lengths, notation="catalog")

        plain = raw.translate(_DASHES)
        if re.fullmatch(r"[oO\s-]+", plain) and len("".join(plain.split())) >= 2:
            return _choose(["dashes", "dashes-inverted"], plain, cubes)
        if re.fullmatch(r"[01\s]+", raw):
            return _choose(["bits", "bits-inverted"], raw, cubes)
        if re.fullmatch(r"[\[{(]?\s*[01](\s*[,;]\s*[01])+\s*[\]})]?", raw):
            ones = all(ch != "0" for ch in raw if ch in "01")
            return _choose(["bits", "bits-inverted", *(["steps"] if ones else [])], raw, cubes)
        if re.fullmatch(r"\{[0-9\s,;]*\}", raw):  # braces: a C/Go initializer of numbers
            plain = raw[1:-1]
        if re.fullmatch(r"[0-9\s,;/\[\]()+-]+", plain, re.ASCII) and re.search("[0-9]", plain):
            if re.fullmatch(r"[0-9]{3,}", plain, re.ASCII):
                raise InputError(
                    f"{shorten(raw)} looks like segment lengths run together; separate them "
                    f"({','.join(plain[:6])},...) or write lengths:{','.join(plain[:6])},..."
                )
            numbers = _numbers("lengths", plain)
            runs = ["runs"] if len(numbers) > 1 and numbers[0] >= 2 else []
            if all(n >= 2 for n in numbers):
                return _choose(["lengths", "steps", *runs], plain, cubes)
            if all(n >= 1 for n in numbers):
                if runs:
                    return _choose(["steps", *runs], plain, cubes, "an item is 1")
                snake = cls.from_steps(numbers)
                return cls(
                    snake.lengths,
                    f"read as {READINGS['steps']}: an item is 1, and a segment has at least "
                    "2 cubes",
                    "steps",
                )
            return cls.from_lengths(numbers)
        letters = "".join(raw.split())
        mostly_turns = sum(ch in "SCEsce" for ch in letters) >= 0.75 * len(letters)
        if re.fullmatch(r"[SCEsce\s]+", raw) or (len(letters) >= 4 and mostly_turns):
            return cls.from_turns(raw)

        close = difflib.get_close_matches(raw.lower(), catalog.names(), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise InputError(f"unknown snake {shorten(raw)}: not a catalog name{hint}, {_stray(raw)}")

    @classmethod
    def _parse_elbows(cls, body: str, cubes: int | None) -> Snake:
        total: int | None = None
        if "/" in body:
            body, _, count = body.rpartition("/")
            total = limits.parse_whole(count, "elbows: the cube count after '/'")
        numbers = _numbers("elbows", body, allow_empty=True)
        if total is None:
            total = cubes
        if total is not None:
            return cls.from_elbows(numbers, total)
        # No count: the smallest cube number past the last corner, if the snake then fits
        # that cube (no straight run longer than its side); else the count must be given.
        last = max(numbers, default=1)
        side = 1
        while side**3 <= last:
            side += 1
        snake = cls.from_elbows(numbers, side**3)
        if max(snake.lengths) > side:
            raise InputError(
                f"elbows: the last corner is cube {last}, so the cube count is unclear: as a "
                f"{side}x{side}x{side} snake its last straight run would have "
                f"{snake.lengths[-1]} cubes; give the count (elbows:...,{last}/N) or the "
                "target (target=)"
            )
        return snake

    def turns(self, ends: str = "E") -> str:
        """The turn string; ``ends`` is the letter written for the two end cubes."""
        flags = self._corner_flags()
        return ends + "".join("C" if f else "S" for f in flags) + ends

    def bits(self) -> str:
        """The 0/1 string, 1 = corner, ends written 0."""
        return "0" + "".join("1" if f else "0" for f in self._corner_flags()) + "0"

    def steps(self) -> tuple[int, ...]:
        """Segment lengths minus one."""
        return tuple(n - 1 for n in self.lengths)

    def elbows(self) -> tuple[int, ...]:
        """1-based numbers of the corner cubes."""
        return tuple(c + 1 for c in self.corner_cubes())

    def format(self, notation: str = "turns") -> str:
        """Write the snake in one notation of :data:`NOTATIONS`; :meth:`parse` reads the
        result back."""
        entry = NOTATION_TABLE.get(notation) if isinstance(notation, str) else None
        if entry is None or entry.write is None:
            raise InputError(
                f"unknown notation {notation!r}; expected one of {', '.join(NOTATIONS)}"
            )
        return entry.write(self)

    def _plain_or_prefixed(self, text: str, prefix: str) -> str:
        """``text`` as it is when :meth:`parse` reads it back as this snake, else with the
        prefix that forces its reading."""
        try:
            if Snake.parse(text) == self:
                return text
        except InputError:
            pass
        return f"{prefix}:{text}"

    def _corner_flags(self) -> list[bool]:
        corners = set(self.corner_cubes())
        return [i in corners for i in range(1, self.cubes - 1)]

    def __str__(self) -> str:
        return self.turns()

    def __repr__(self) -> str:
        return f"Snake.parse({self.turns()!r})"


# Separators in number lists: commas, semicolons, spaces, slashes, brackets, and dashes
# between digits (3-3-3-2, with hyphens, en or em dashes: the common web format).
_SEPARATORS = r"[\s,;/\[\]()]+|(?<=[0-9\])])-+(?=[0-9])"
_BIT_SPACES = str.maketrans(dict.fromkeys(",;[]{}()", " "))
_DASH = "\u2013\u2014\u2212\u2010"  # en and em dashes, minus, hyphen: read as '-'
_DASHES = str.maketrans(dict.fromkeys(_DASH, "-"))
_TO_DASHES = str.maketrans({"0": "-", "1": "o"})


def _read(kind: str, text: str) -> Snake:
    """The snake ``text`` is under one reading (a key of :data:`READINGS`)."""
    read = NOTATION_TABLE[kind].read
    assert read is not None
    return read(text, None)


def _lengths(kind: str) -> Callable[[str, int | None], Snake]:
    """The reader of a list of numbers: ``kind``'s numbers made into a snake."""
    make = {"lengths": Snake.from_lengths, "steps": Snake.from_steps, "runs": Snake.from_runs}
    return lambda text, cubes: make[kind](_numbers(kind, text))


# -- the notations ---------------------------------------------------------------------------
# One table, in the manner of python-chess's variants: a notation is one entry here (its name,
# the words for people, its reader after a 'name:' prefix, its writer) plus the read and write
# functions it names. parse's prefixes, format, convert --to, the readings that ambiguous text
# is tried under and the words that say which was used all derive from it.
# Decided: reading text *without* a prefix stays one ordered rule in Snake.parse, not a
# 'sniff' per entry. The readings compete (a list of numbers is lengths, steps or runs; a 0/1
# string has either symbol as the corner) and the order between them is the rule people are
# told (docs/conventions.md); per-entry sniffers would hide that order in the table's order.
@dataclass(frozen=True, slots=True)
class Notation:
    """One way of writing a snake."""

    name: str
    words: str  # for people: "read as <words>"
    # The reader of the text after 'name:' (and of ambiguous text under this reading), with
    # the target's cube count where the notation needs it; None where no prefix reads it.
    read: Callable[[str, int | None], Snake] | None
    write: Callable[[Snake], str] | None  # None: read only
    reading: bool = False  # one of the readings ambiguous text may be taken in


Reader = Callable[[str, int | None], Snake]
Writer = Callable[[Snake], str]


def _marked(read: Callable[[str, str], Snake], corner: str) -> Reader:
    """The reader of one mark per cube, ``corner`` the corner's."""
    return lambda text, cubes: read(text, corner)


def _listed(name: str, numbers: Callable[[Snake], Iterable[int]]) -> Writer:
    """The writer of ``name:`` and the snake's ``numbers``, with commas."""
    return lambda s: f"{name}:" + ",".join(map(str, numbers(s)))


def _plain(prefix: str, text: Callable[[Snake], str]) -> Writer:
    """The writer of ``text`` as it is where that reads back as the snake, else prefixed."""
    return lambda s: s._plain_or_prefixed(text(s), prefix)


def _runs(s: Snake) -> tuple[int, ...]:
    return (s.lengths[0], *s.steps()[1:])


_NOTATIONS = (
    Notation("turns", "a turn string (S, C, E)", lambda t, c: Snake.from_turns(t), Snake.turns),
    Notation(
        "bits",
        "0/1 per cube, 1 = corner",
        _marked(Snake.from_bits, "1"),
        _plain("bits", Snake.bits),
        reading=True,
    ),
    Notation(
        "lengths",
        "segment lengths",
        _lengths("lengths"),
        _listed("lengths", lambda s: s.lengths),
        reading=True,
    ),
    Notation(
        "steps",
        "steps (segment lengths minus one)",
        _lengths("steps"),
        _listed("steps", Snake.steps),
        reading=True,
    ),
    Notation(
        "elbows",
        "elbows (the corners' cube numbers)",
        lambda t, c: Snake._parse_elbows(t, c),
        lambda s: _listed("elbows", Snake.elbows)(s) + f"/{s.cubes}",
    ),
    Notation(
        "dashes",
        "o/- per cube, o = corner",
        _marked(Snake.from_dashes, "o"),
        _plain("dashes", lambda s: s.bits().translate(_TO_DASHES)),
        reading=True,
    ),
    Notation(
        "bitlist",
        "0/1 per cube with commas",
        None,
        _plain("bits", lambda s: "{" + ",".join(s.bits()) + "}"),
    ),
    Notation(
        "steplist",
        "steps without a prefix",
        None,
        _plain("steps", lambda s: ",".join(map(str, s.steps()))),
    ),
    Notation(
        "runs",
        "runs with each corner counted once (the first run whole, then the new cubes of each)",
        _lengths("runs"),
        _listed("runs", _runs),
        reading=True,
    ),
    Notation(
        "bits-inverted",
        "0/1 per cube, 0 = corner",
        _marked(Snake.from_bits, "0"),
        None,
        reading=True,
    ),
    Notation(
        "dashes-inverted",
        "o/- per cube, - = corner",
        _marked(Snake.from_dashes, "-"),
        None,
        reading=True,
    ),
    Notation("catalog", "a catalog name", None, None),
)
NOTATION_TABLE: dict[str, Notation] = {n.name: n for n in _NOTATIONS}
# What format and convert --to write, in this order.
NOTATIONS = tuple(n.name for n in NOTATION_TABLE.values() if n.write is not None)
# What Snake.notation may be: the notations a text is read in (bitlist and steplist are read
# as bits and steps; "catalog" is a catalog name).
NOTATION_KEYS = tuple(
    n.name for n in NOTATION_TABLE.values() if n.name not in ("bitlist", "steplist")
)
# The prefixes ('lengths:', 'steps=', any case) and what each reading means.
_PREFIXES = frozenset(n.name for n in NOTATION_TABLE.values() if n.read is not None)
READINGS = {n.name: n.words for n in NOTATION_TABLE.values() if n.reading}
NOTATION_WORDS = {n.name: n.words for n in NOTATION_TABLE.values()}


def cube_side(cells: int) -> int | None:
    """n when ``cells`` is n**3 for some n >= 2, else None."""
    n = round(cells ** (1 / 3))
    return next((k for k in (n - 1, n, n + 1) if k >= 2 and k**3 == cells), None)


def fits(snake: Snake, cubes: int | None = None) -> str:
    """Why ``snake`` cannot fold into a target of ``cubes`` cells ("" when nothing rules it
    out): the cube count must match (without a target, be a cube number n**3), and in an
    n x n x n cube no straight segment can be longer than n."""
    if cubes is not None and snake.cubes != cubes:
        return f"{snake.cubes} cubes, not the target's {cubes}"
    side = cube_side(snake.cubes if cubes is None else cubes)
    if side is None:
        return "" if cubes is not None else f"{snake.cubes} cubes, not a cube number"
    if max(snake.lengths) > side:
        return f"a straight run of {max(snake.lengths)} cubes, longer than the cube's side {side}"
    return ""


def _choose(kinds: Sequence[str], text: str, cubes: int | None, why: str = "") -> Snake:
    """The snake under the reading of ``kinds`` that gives a catalog puzzle, else the first
    that can fold into its target (the first reading when none can), with
    :attr:`Snake.reading` saying which (and ``why``, when given), and naming another reading
    that would fit too."""
    readings: list[tuple[str, Snake | None, str]] = []
    for kind in kinds:
        try:
            snake = _read(kind, text)
        except InputError as err:
            if kind == kinds[0] and len(kinds) == 1:
                raise
            readings.append((kind, None, str(err)))
            continue
        readings.append((kind, snake, fits(snake, cubes)))
    chosen = next(
        (r for r in readings if r[1] is not None and catalog.recognize(r[1].turns()) is not None),
        None,
    )
    if chosen is None:
        chosen = next((r for r in readings if r[1] is not None and not r[2]), None)
    if chosen is None:
        chosen = next((r for r in readings if r[1] is not None), None)
    if chosen is None:  # no reading works: the usual one's error
        _read(kinds[0], text)
        raise AssertionError("unreachable")  # pragma: no cover
    kind, picked, fit = chosen
    assert picked is not None
    # Another reading is named only in a close call: when it would fit the target too, so the
    # text may have meant it. One that cannot fit is no question, and saying why is noise.
    close = [k for k, other, why in readings if k != kind and other is not None and not why]
    note = f"read as {READINGS[kind]}"
    if kind == "runs":
        note += f": {_runs_words(text)}"
    elif why:
        note += f": {why}, and a segment has at least 2 cubes"
    if close and not fit:
        note += (
            f"; {' or '.join(READINGS[k] for k in close)} would fit too: "
            f"put {' or '.join(f'{k}:' for k in close)} in front to read it that way"
        )
    return Snake(picked.lengths, note, kind)


def _runs_words(text: str) -> str:
    """'3, then 2, 2, 2, ...': runs as typed, the first whole and the others new cubes."""
    numbers = _numbers("runs", text)
    rest = ", ".join(map(str, numbers[1:5])) + (", ..." if len(numbers) > 5 else "")
    return f"{numbers[0]}, then {rest}"


# The notations unreadable text is judged against, most specific first: (what it is, what a
# character of it may be, its characters); whitespace belongs to every one.
_ALPHABETS = (
    ("a list of numbers", "a digit or a separator", frozenset("0123456789,;/[](){}+-" + _DASH)),
    ("an o/- string", "o or -", frozenset("oO-" + _DASH)),
    ("a turn string", "S, C or E", frozenset("SCEsce")),
)


def _stray(raw: str) -> str:
    """'and not a list of numbers ('.' at position 34 is not a digit or a separator)': the
    notation ``raw`` is mostly written in (digits for numbers, o and - for an o/- string,
    else a turn string), and its first character that does not belong there."""
    shown = [ch for ch in raw if not ch.isspace()]

    def share(chars: frozenset[str]) -> float:
        return sum(ch in chars for ch in shown) / max(1, len(shown))

    marks = [ch for ch in shown if ch.isalnum() or ch not in _ALPHABETS[0][2]]  # no separators
    if sum(ch.isdigit() for ch in marks) >= len(marks) / 2:
        what, may, chars = _ALPHABETS[0]
    elif "o" in raw.lower() and share(_ALPHABETS[1][2]) >= 0.5:
        what, may, chars = _ALPHABETS[1]
    else:
        what, may, chars = _ALPHABETS[2]
    at = next((i for i, ch in enumerate(raw, 1) if ch not in chars and not ch.isspace()), 1)
    return f"and not {what} ({raw[at - 1]!r} at position {at} is not {may})"


def _numbers(kind: str, body: str, allow_empty: bool = False) -> list[int]:
    """Split a list of whole numbers written with commas, spaces, slashes, dashes or brackets.

    >>> _numbers("lengths", "[3-3–3, 2 / 2]")
    [3, 3, 3, 2, 2]
    """

    items = [t for t in re.split(_SEPARATORS, body.translate(_DASHES)) if t]
    if not items and not allow_empty:
        raise InputError(f"{kind}: no numbers given")
    out = []
    for i, tok in enumerate(items, 1):
        if not limits.is_whole(tok):
            raise InputError(f"{kind}: item {i} {shorten(tok)} is not a whole number (digits 0-9)")
        out.append(limits.parse_whole(tok, f"{kind}: item {i}", -limits.MAX_NUMBER))
    return out


def _prefixed(raw: str) -> tuple[str, str] | None:
    """(notation, the rest) when ``raw`` starts with a notation's prefix, like 'lengths:'
    (ASCII letters only: 'ſteps:' with a long s is not 'steps:')."""
    name, sep, body = raw.partition(":")
    if not sep or "=" in name:
        name, sep, body = raw.partition("=")
    kind = name.strip()
    if not sep or not kind.isascii() or kind.lower() not in _PREFIXES:
        return None
    return kind.lower(), body.lstrip()


def _check_text(text: object, what: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"a {what} is given as text (str), not {type(text).__name__}")
    if len(text) > limits.MAX_TEXT:
        raise InputError(
            f"the {what} is {len(text)} characters long; at most {limits.MAX_TEXT} are read"
        )


def end_runs(lengths: Sequence[int]) -> tuple[str, str, int] | None:
    """The fewest segment lengths, counted from each end, that tell the two ends apart, as a
    person says them, and how many; None when the snake reads the same from both ends.

    >>> end_runs((3, 3, 2, 3))
    ('3 and 3', '3 and 2', 2)
    """
    a, b = tuple(lengths), tuple(lengths)[::-1]
    if a == b:
        return None
    k = next(i for i in range(len(a)) if a[i] != b[i]) + 1

    def said(ls: Sequence[int]) -> str:
        words = [str(v) for v in ls[:k]]
        return words[0] if k == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    return said(a), said(b), k


def which_end(snake: Snake) -> str:
    """Which end of the snake in hand is cube 1, told by the lengths a person counts from it
    (the fewest segments that tell the two ends apart).

    >>> which_end(Snake((3, 3, 2, 3))).split(" (")[0]
    'Cube 1 is the end whose first segments are 3 and 3 cubes long'
    >>> which_end(Snake((3, 3, 2, 3))).split(" (")[1]
    'from the other end: 3 and 2; a corner cube counts in both its segments).'
    >>> which_end(Snake((3, 2, 3)))
    'The snake reads the same from both ends: either end is cube 1.'
    """
    told = end_words(snake.lengths, "segment")
    if told is None:
        return "The snake reads the same from both ends: either end is cube 1."
    return f"Cube 1 is the end {told}."


def end_words(lengths: Sequence[int], unit: str) -> str | None:
    """'whose first ``unit``s are 3 and 3 cubes long (from the other end: 3 and 2; ...)': the
    end the lengths start from, told apart from the other (:func:`end_runs`); None when the
    snake reads the same from both ends."""
    told = end_runs(lengths)
    if told is None:
        return None
    mine, other, k = told
    first = f"{unit} is" if k == 1 else f"{unit}s are"
    return (
        f"whose first {first} {mine} cubes long (from the other end: {other}; a corner cube "
        f"counts in both its {unit}s)"
    )
