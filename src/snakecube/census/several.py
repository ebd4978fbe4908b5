"""The census of several targets, run and answered: every design that folds into each of
them, with its solutions in each (``joint_census``, ``JointCensus``).

Each target is counted by its own census, in its own store inside the joint store; the
designs they share are intersected partition by partition (``joint``); and one more target
whose census is out of reach may be asked design by design by a search (``decide``).

Decided: the census of one target (``runner.census``, ``Census``) stays the primitive, and
this module is built on it (``run_census`` per target, ``alone`` holds each one's ``Census``;
the answers share their store handling, ``result.Kept``). Rejected: one driver and one result
class, a census of one target being the joint census of a list of one. Its store would
move under ``targets/NAME`` beside a joint manifest, so a store made before could not be
resumed, and every one-target answer (``rows``, the CSV, the JSON, a design's solutions as
a number, not a tuple of one) would change shape for its users. What one driver would
share is shared already: a joint run with one counted target takes that census's store as
it is, with no intersection (``_Run.counted``).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from snakecube import limits, stop
from snakecube.census.decide import FOLDS, Decisions, Searched, TaskInfo, run_search
from snakecube.census.forecast import Forecast
from snakecube.census.joint import (
    JointPart,
    JointStore,
    intersect_partition,
    searched_spec,
    target_name,
)
from snakecube.census.reduce import TOP
from snakecube.census.result import (
    CHECK_EVERY,
    Census,
    Kept,
    Progress,
    snake_of_key,
    turns_order,
)
from snakecube.census.runner import (
    check_forecast,
    checked,
    checked_segment,
    default_units,
    map_jobs,
    plan,
    run_census,
    workplace,
)
from snakecube.census.store import census_id
from snakecube.census.units import path_units
from snakecube.errors import InputError
from snakecube.output import write_file
from snakecube.shape import Box, Region
from snakecube.snake import Snake
from snakecube.stop import StopReason


@dataclass(frozen=True, slots=True)
class JointDesign:
    """A design that folds into every target: the snake, its distinct solutions in each
    counted target (up to that target's symmetries and reversal), and whether it is a
    palindrome."""

    snake: Snake
    distinct: tuple[int, ...]
    palindrome: bool


@dataclass(frozen=True, slots=True)
class JointTally:
    """A joint census's totals, as its run finds them (``JointCensus`` adds the targets and
    the store)."""

    alone: tuple[Census, ...]
    design_count: int | None  # designs that fold into every target
    solution_counts: tuple[int, ...] | None  # per counted target: the sum of their solutions
    unique: tuple[int, ...] | None  # per counted target: those with one solution there
    unique_in_all: int | None  # those with one solution in every counted target
    max_solutions: tuple[int, ...] | None  # per counted target
    palindromes: int | None
    histograms: tuple[dict[int, int], ...]  # per counted target
    top: tuple[JointDesign, ...]  # most solutions in all counted targets, then by turns
    complete: bool
    stop_reason: StopReason | None
    partitions: tuple[int, int]  # (compared, in all)
    searched: Searched | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JointCensus(JointTally, Kept):
    """Every design that folds into every one of several targets of equal size, with its
    distinct solutions in each counted target (up to its symmetries and reversal).

    ``alone`` holds each counted target's own census, so a reader sees what share of each
    target's designs fold into all. ``searched`` describes the target decided by search
    (``fold_into``), if any: then ``design_count`` is the designs proven to fold so far, a
    lower bound until every candidate is decided (``exact``). When the run was stopped
    (``complete`` False) the statistics are None, or cover the work finished so far (lower
    bounds). ``store`` is where the work is kept (None for a temporary store).
    """

    regions: tuple[Region, ...]  # the counted targets
    store: Path | None
    _store: JointStore | None = field(default=None, repr=False, compare=False)
    _cleanup: Any = field(default=None, repr=False, compare=False)

    @property
    def exact(self) -> bool:
        """Whether ``design_count`` is the exact number (every candidate decided)."""
        return self.complete and (self.searched is None or self.searched.open == 0)

    @property
    def targets(self) -> tuple[Region, ...]:
        """Every target: the counted ones, then the searched one."""
        extra = () if self.searched is None else (self.searched.target,)
        return self.regions + extra

    def rows(self) -> Iterator[JointDesign]:
        """Every design found in all targets, partition by partition, in key order (with a
        searched target: those proven to fold so far, whether or not the run finished)."""
        st = self._store
        if st is None or (not self.complete and self.searched is None):
            raise InputError("the census is incomplete: rerun it with the same store to finish")
        n = self.regions[0].volume
        for key, counts in _found(st, self.searched, len(self.regions), n):
            snake = snake_of_key(key, n)
            yield JointDesign(snake, counts, snake.is_palindrome)

    @property
    def designs(self) -> tuple[JointDesign, ...]:
        """Every common design, most solutions in all targets first, then by turn string
        (held in memory: use :meth:`rows` for millions)."""
        if (self.design_count or 0) > 5_000_000:
            raise InputError(f"{self.design_count} designs are too many to hold; use rows()")
        return tuple(sorted(self.rows(), key=lambda d: (-sum(d.distinct), d.snake.turns())))

    def columns(self) -> list[str]:
        """A short name per counted target: ``2x3x4`` for a box, ``region2`` else."""
        return [
            target_name(r) if isinstance(r, Box) else f"region{i}"
            for i, r in enumerate(self.regions, 1)
        ]

    def write_csv(self, path: str | Path) -> None:
        """Write one row per common design (turns, segment lengths, solutions in each
        counted target, palindrome) to ``path``, atomically, in the order of :meth:`rows`."""
        names = ",".join(f"solutions_{c}" for c in self.columns())

        def write(tmp: Path) -> None:
            with tmp.open("w", newline="", encoding="utf-8") as f:
                f.write(f"turns,segment_lengths,{names},palindrome\n")
                for k, d in enumerate(self.rows()):
                    if k % CHECK_EVERY == 0:
                        stop.on_time()  # a time limit (stop.within) ends the writing
                    lengths = " ".join(map(str, d.snake.lengths))
                    counts = ",".join(map(str, d.distinct))
                    f.write(f"{d.snake.turns()},{lengths},{counts},{int(d.palindrome)}\n")

        write_file(path, write)

    def to_dict(self, rows: int = 10) -> dict[str, object]:
        """A JSON-ready summary: ``designs`` counts the designs that fold into every
        target; the per-target fields are lists in the counted targets' order; ``alone``
        holds each counted target's own census summary, ``searched`` the search's."""

        def listed(values: tuple[int, ...] | None) -> list[int] | None:
            return None if values is None else list(values)

        return {
            "targets": [r.describe() for r in self.targets],
            "designs": self.design_count,
            "exact": self.exact,
            "solutions": listed(self.solution_counts),
            "unique": listed(self.unique),
            "unique_in_all": self.unique_in_all,
            "max_solutions": listed(self.max_solutions),
            "palindromes": self.palindromes,
            "histograms": [{str(k): v for k, v in h.items()} for h in self.histograms],
            "top": [
                {
                    "turns": d.snake.turns(),
                    "segment_lengths": list(d.snake.lengths),
                    "solutions": list(d.distinct),
                }
                for d in self.top[:rows]
            ],
            "alone": [c.to_dict(rows=0) for c in self.alone],
            "searched": None if self.searched is None else self.searched.to_dict(),
            "complete": self.complete,
            "stop_reason": self.stop_reason,
            "partitions": list(self.partitions),
            "store": None if self.store is None else str(self.store),
        }


def _found(
    st: JointStore, searched: Searched | None, k: int, n: int
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(key, solutions per counted target) of every design found in all targets."""
    if searched is None:
        for p in sorted(st.finished_parts()):
            keys, table = st.read_part(p)
            for i, key in enumerate(keys.tolist()):
                yield key, tuple(int(x) for x in table[:, i])
        return
    dec = Decisions(st.searched_root(), st.id, k)
    for p, s in sorted(dec.finished()):
        keys, outcomes = dec.read_done(p, s)
        folds = keys[outcomes == FOLDS]
        if not len(folds):
            continue
        ckeys, table = dec.read_candidates(p)
        at = np.searchsorted(ckeys, folds)
        for i, key in zip(at.tolist(), folds.tolist(), strict=True):
            yield key, tuple(int(x) for x in table[:, i])


def joint_census(
    regions: Sequence[Region],
    progress: Progress | None = None,
    workers: int | None = None,
    store: str | Path | None = None,
    partitions: int | None = None,
    scheduler: str | None = None,
    fold_into: Region | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    max_segment: int | None = None,
    on_forecast: Callable[[Forecast], None] | None = None,
) -> JointCensus:
    """Every design that folds into every one of ``regions`` (of equal size), with its
    solutions in each: each target's census, then their intersection, partition by
    partition. The options are :func:`snakecube.census.census`'s, for every target;
    ``store`` holds each target's own store (``targets/NAME``) beside the intersection, so
    a stop loses only the work in progress and a rerun with the same store finishes.

    ``fold_into``, a target whose census is out of reach, keeps the designs that also fold
    into it, decided one by one by first-solution searches of at most ``nodes`` nodes per
    end (``snakecube.census.decide``); then one counted target is enough. ``seconds`` stops
    the whole run after that long (the store keeps what is finished; stopped while deciding,
    the answer is a lower bound, with an estimate of the rest from the decided share, a
    uniform sample). ``max_segment`` limits every counted census to the designs with no
    segment longer than that (as for one target).

    As for one target, the counted censuses' work is forecast first: over
    ``forecast.LONGEST`` without ``seconds`` or ``scheduler``, it is refused (InputError)
    before anything is written; ``on_forecast`` is told the forecast of their sum."""
    regions = _checked_targets(regions, fold_into)
    max_segment = checked_segment(max_segment)
    checks = [checked(r, progress, workers, store, partitions, scheduler) for r in regions]
    n_workers, p = checks[0]
    budget = None if fold_into is None else _nodes(nodes)
    deadline = None if seconds is None else time.monotonic() + limits.seconds(seconds)
    n = regions[0].volume
    units = [path_units(r, min_units=default_units(n)) for r in regions]
    ids = [census_id(r, u, p, max_segment) for r, u in zip(regions, units, strict=True)]
    left = _forecast(regions, n_workers, store, p, max_segment)
    if left is not None:
        check_forecast(*left, seconds, scheduler, on_forecast)
    with workplace(store, scheduler) as (root, temp, client):
        jst = JointStore.open(root, regions, ids, p, searched_spec(fold_into, budget or 0))
        run = _Run(jst, regions, units, progress, n_workers, client, max_segment, deadline)
        result = run.counted()
        if fold_into is not None and result.complete:
            result = run.searched(result, fold_into, budget or 0, deadline)
    found = {f.name: getattr(result, f.name) for f in fields(JointTally)}
    return JointCensus(
        **found,
        regions=tuple(regions),
        store=None if store is None else root,
        _store=jst,
        _cleanup=temp,
    )


def _forecast(
    regions: list[Region],
    workers: int,
    store: str | Path | None,
    partitions: int,
    max_segment: int | None,
) -> tuple[Region, Forecast] | None:
    """The work left in the counted targets' censuses, summed (None for regions of up to 27
    cells, as for one target), with the target that has the most of it."""
    parts = []
    for r in regions:
        own = None if store is None else Path(store) / "targets" / target_name(r)
        left = plan(r, workers, own, partitions, max_segment=max_segment)[1]
        if left is not None:
            parts.append((r, left))
    if not parts:
        return None
    total = functools.reduce(Forecast.plus, (f for _, f in parts))
    return max(parts, key=lambda rf: rf[1].cpu_seconds)[0], total


def _nodes(nodes: int | None) -> int:
    """The node limit per end (0: none)."""
    return 0 if nodes is None else limits.whole(nodes, "nodes", 1, 2**62)


def _checked_targets(regions: Sequence[Region], fold_into: Region | None) -> list[Region]:
    if isinstance(regions, Region) or not isinstance(regions, Sequence):
        raise TypeError("joint_census() needs a list of Regions or Boxes")
    regions = list(regions)
    for r in [*regions, fold_into]:
        if r is not None and not isinstance(r, Region):
            raise TypeError(f"joint_census() needs Regions or Boxes, not {type(r).__name__}")
    if len(regions) < (1 if fold_into is not None else 2):
        raise InputError("a census of several targets needs at least two targets")
    every = [*regions, *([] if fold_into is None else [fold_into])]
    first = every[0]
    for r in every[1:]:
        if r.volume != first.volume:
            raise InputError(
                f"the targets must have equal size: the {first.describe()} has {first.volume} "
                f"cells, the {r.describe()} has {r.volume}"
            )
    seen: set[tuple[Any, ...]] = set()
    for r in every:
        if r.cells in seen:
            raise InputError(f"the {r.describe()} is given twice")
        seen.add(r.cells)
    return regions


class _Run:
    """The phases of a joint census: each target's census, their intersection, and the
    search in one more target; each phase resumes from the store."""

    def __init__(
        self,
        jst: JointStore,
        regions: list[Region],
        units: list[list[tuple[int, ...]]],
        progress: Progress | None,
        workers: int,
        client: Any,
        max_segment: int | None,
        deadline: float | None = None,
    ) -> None:
        self.jst, self.regions, self.units = jst, regions, units
        self.max_segment, self.deadline = max_segment, deadline
        self.progress, self.workers, self.client = progress, workers, client
        p = jst.partitions
        self.steps = sum(len(u) + p for u in units) + (p if len(regions) > 1 else 0)
        self.alone: list[Census] = []
        self.filled: list[int] = []

    def _tick(self, done: int, steps: int, found: int) -> None:
        if self.progress is not None:
            self.progress(done, steps, found)

    def _map(self, job: Callable[[int], Iterator[Any]], todo: list[int], kind: str) -> Any:
        return map_jobs(job, todo, f"snakecube-{self.jst.id}-{kind}", self.workers, self.client)

    def counted(self) -> JointTally:
        """Each target's census, then (for two or more) their intersection."""
        jst, p = self.jst, self.jst.partitions
        offset = 0
        for i, region in enumerate(self.regions):

            def tick(done: int, _steps: int, found: int, at: int = offset) -> None:
                self._tick(at + done, self.steps, found)

            one = run_census(
                region,
                jst.target_root(i),
                self.units[i],
                p,
                tick,
                self.workers,
                self.client,
                self.max_segment,
                self.deadline,
            )
            self.alone.append(one)
            offset += len(self.units[i]) + p
            if not one.complete:
                return _partial(self.alone, (0, p), one.stop_reason or StopReason.INTERRUPTED)
        singles = [c._store for c in self.alone]
        if len(singles) == 1:
            self.filled = singles[0].filled_parts()
            info = self.alone[0]
            designs, unique = info.design_count or 0, info.unique or 0  # complete: known
            one_stats = _Stats(
                designs,
                [info.solution_count or 0],
                [unique],
                unique,
                info.palindromes or 0,
                [info.histogram],
                [],
            )
            return _summary(self.alone, [one_stats], (p, p), None, self.regions[0].volume)
        parts = jst.finished_parts()
        needed = set.intersection(*(set(st.filled_parts()) for st in singles))
        todo = sorted(needed - set(parts))
        n = self.regions[0].volume
        empty = p - len(needed)  # a partition with no design in some target: nothing to do
        stop = None

        def job(q: int) -> Iterator[JointPart]:
            yield intersect_partition(jst, singles, q, n)

        try:
            for part in self._map(job, todo, "joint"):
                parts[part.partition] = part
                found = sum(i.designs for i in parts.values())
                self._tick(offset + empty + len(parts), self.steps, found)
        except KeyboardInterrupt:
            stop = StopReason.INTERRUPTED
        self.filled = sorted(parts)
        stats = [_Stats.of(i, i.designs) for i in parts.values()]
        return _summary(self.alone, stats, (empty + len(parts), p), stop, n)

    def searched(
        self, counted: JointTally, region: Region, nodes: int, deadline: float | None
    ) -> JointTally:
        """The counted targets' common designs decided in ``region`` by search."""
        jst, k = self.jst, len(self.regions)
        n = region.volume
        if k == 1:
            single = self.alone[0]._store

            def source(p: int) -> tuple[Any, Any]:
                keys, sols = single.read_part(p)
                return keys, sols.reshape(1, -1)
        else:
            source = jst.read_part
        dec = Decisions(jst.searched_root(), jst.id, k)

        def tick(done: int, steps: int, found: int) -> None:
            self._tick(done, steps, found)

        summary, done, stop = run_search(
            dec, region, self.filled, source, n, jst.bits, nodes, self._map, deadline, tick
        )
        stats = [_Stats.of(t, t.folds) for t in done]
        result = _summary(self.alone, stats, counted.partitions, stop, n)
        complete = stop is None and summary.tasks[0] == summary.tasks[1]
        why = None if complete else (stop or StopReason.INTERRUPTED)
        return replace(result, searched=summary, complete=complete, stop_reason=why)


@dataclass(frozen=True, slots=True)
class _Stats:
    """The common designs' statistics of one partition, or of one decided slice."""

    designs: int
    solutions: list[int]  # per counted target
    unique: list[int]  # per counted target
    unique_in_all: int
    palindromes: int
    histograms: list[dict[int, int]]  # per counted target
    top: list[tuple[int, list[int]]]  # (key, solutions per counted target)

    @classmethod
    def of(cls, info: JointPart | TaskInfo, designs: int) -> _Stats:
        return cls(
            designs,
            info.solutions,
            info.unique,
            info.unique_in_all,
            info.palindromes,
            info.histograms,
            info.top,
        )


def _partial(alone: list[Census], partitions: tuple[int, int], stop: StopReason) -> JointTally:
    return JointTally(
        tuple(alone), None, None, None, None, None, None, (), (), False, stop, partitions
    )


def _summary(
    alone: list[Census],
    parts: list[_Stats],
    partitions: tuple[int, int],
    stop: StopReason | None,
    n: int,
) -> JointTally:
    """The totals of the statistics of several partitions (or slices)."""
    k = len(alone)
    histograms: list[dict[int, int]] = [{} for _ in range(k)]
    for info in parts:
        for i, h in enumerate(info.histograms):
            for s, v in h.items():
                histograms[i][s] = histograms[i].get(s, 0) + v
    best = sorted(
        (t for info in parts for t in info.top),
        key=lambda t: (-sum(t[1]), -turns_order(t[0], n)),
    )[:TOP]
    top = tuple(
        JointDesign(snake_of_key(key, n), tuple(s), snake_of_key(key, n).is_palindrome)
        for key, s in best
    )
    complete = stop is None and partitions[0] == partitions[1]
    return JointTally(
        alone=tuple(alone),
        design_count=sum(i.designs for i in parts),
        solution_counts=tuple(sum(i.solutions[t] for i in parts) for t in range(k)),
        unique=tuple(sum(i.unique[t] for i in parts) for t in range(k)),
        unique_in_all=sum(i.unique_in_all for i in parts),
        max_solutions=tuple(max(h, default=0) for h in histograms),
        palindromes=sum(i.palindromes for i in parts),
        histograms=tuple(dict(sorted(h.items())) for h in histograms),
        top=top,
        complete=complete,
        stop_reason=None if complete else (stop or StopReason.INTERRUPTED),
        partitions=partitions,
    )
