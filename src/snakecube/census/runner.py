"""Running a census: the units and the partitions' reduces on local processes or a Dask
cluster, resumed from the store, stopped and cleaned up (see ``snakecube.census``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from snakecube import limits, pool, stop
from snakecube.census.collect import OutOfTime, collect
from snakecube.census.forecast import LONGEST, Forecast, duration, forecast
from snakecube.census.reduce import TOP, empty_partition, reduce_partition
from snakecube.census.result import (
    Census,
    DesignCount,
    Progress,
    Tally,
    snake_of_key,
    turns_order,
)
from snakecube.census.store import PartInfo, Store, UnitInfo
from snakecube.census.units import Prefix, path_units, tally_unit
from snakecube.errors import InputError
from snakecube.shape import Region
from snakecube.stop import StopReason


def default_partitions(cells: int) -> int:
    """Partitions for a region: one for small censuses, more as the design count grows."""
    return 1 if cells <= 20 else 16 if cells <= 32 else 256


def default_units(cells: int) -> int:
    """At least this many work units: enough to share out and to stop and resume."""
    return 64 if cells >= 24 else 1


TEMP_PREFIX = "snakecube-census-"


def _remove_orphans(folder: Path) -> None:
    """Remove the temporary stores of snakecube processes that no longer run (killed with
    SIGKILL, or by the OOM killer, before they could clean up)."""
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(TEMP_PREFIX)]
    except OSError:
        return
    for name in names:
        pid = name[len(TEMP_PREFIX) :].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running (or another process has the pid now): left alone
        except ProcessLookupError:
            pass
        except OSError:  # not ours to signal: alive
            continue
        shutil.rmtree(folder / name, ignore_errors=True)


def workers_for(region: Region, workers: int | None) -> int:
    """The processes a census of ``region`` runs on: ``workers`` (checked), else all cores
    for regions of more than 27 cells, else one."""
    if workers is not None:
        return limits.workers(workers)
    return limits.cores() if region.volume > pool.SMALL_JOB_CELLS else 1


def checked(
    region: Region,
    progress: Progress | None,
    workers: int | None,
    store: str | Path | None,
    partitions: int | None,
    scheduler: str | None,
) -> tuple[int, int]:
    """Check census()'s options (TypeError, InputError); the workers and the partitions."""
    if not isinstance(region, Region):
        raise TypeError(f"census() needs a Region or Box, not {type(region).__name__}")
    n = region.volume
    limits.cell_count(n, f"the {region.describe()}", limits.MAX_CENSUS_CELLS, "a census")
    if n < 2:
        raise InputError("a census needs at least 2 cells")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")

    n_workers = workers_for(region, workers)
    p = (
        default_partitions(n)
        if partitions is None
        else limits.whole(partitions, "partitions", 1, 4096)
    )
    if p & (p - 1):
        raise InputError(f"partitions must be a power of two, not {p}")
    if scheduler is not None and store is None:
        raise InputError(
            "a census on a cluster (scheduler=) needs a store every worker can reach (store=)"
        )
    return n_workers, p


def census(
    region: Region,
    progress: Progress | bool | None = None,
    workers: int | None = None,
    store: str | Path | None = None,
    partitions: int | None = None,
    scheduler: str | None = None,
    max_segment: int | None = None,
    seconds: float | None = None,
    on_forecast: Callable[[Forecast], None] | None = None,
) -> Census:
    """Every design that folds into ``region`` (at most 64 cells), with its solutions.

    ``workers`` processes run the units (default: all cores for regions of more than 27
    cells). ``store`` keeps the work in
    that directory: Ctrl-C loses only the units in progress, and a rerun with the same
    store finishes the census. Without it a temporary directory is used.

    ``scheduler`` (a Dask scheduler's address) runs the units and partitions as tasks on
    that cluster instead of local processes (``snakecube.cluster``); then ``store`` is needed,
    and must be a directory every worker can reach.

    ``max_segment`` counts only the designs with no segment longer than that many cubes
    (every path with a longer straight run is cut where it starts): far less work when only
    those are wanted, as the designs of the 8x8 board that might fit the 4x4x4 cube.

    ``seconds`` stops the census then, like Ctrl-C (``stop_reason`` "seconds"; the store
    keeps the finished units). Without it, a census whose work left is forecast
    (:func:`estimate`) to take over ``forecast.LONGEST`` on these workers is refused with the
    forecast (InputError), before anything is written; on a cluster there is no bound (the
    forecast counts every path, so with ``max_segment`` it is an upper bound).
    ``on_forecast(forecast)`` is called with it before the work starts (regions of more
    than 27 cells), so a person can be told at once what the census will take.

    ``progress=True`` shows a bar (tqdm's, a widget in a notebook) of the forecast work done
    and left, from the start; else ``progress(done, units, found)`` is called as units
    finish. To stop a census: Ctrl-C (in a notebook, the interrupt button) ends the units in
    progress and the census returns what it has, marked: ``complete`` False, ``stop_reason``
    "interrupted", the counts None until every unit is done (Ctrl-C while it is still being
    planned raises KeyboardInterrupt); with a ``store``, the finished units are kept and
    running it again goes on from there. ``seconds`` stops it the same way ("seconds").
    """
    if progress is True:
        from snakecube.progress import notebook_bar

        bar = notebook_bar(desc=f"census of the {region.describe()}", unit="unit")
        try:
            return census(
                region,
                bar,
                workers,
                store,
                partitions,
                scheduler,
                max_segment,
                seconds,
                on_forecast,
            )
        finally:
            bar.close()
    if progress is False:
        progress = None
    n_workers, p = checked(region, progress, workers, store, partitions, scheduler)
    max_segment = checked_segment(max_segment)
    deadline = None
    if seconds is not None:
        seconds = limits.seconds(seconds)
        deadline = time.monotonic() + seconds  # the forecast's time is the census's too
    # with a time limit the forecast only informs: it takes at most a quarter of the limit
    quarter = None if seconds is None else time.monotonic() + seconds / 4
    units, left = plan(region, n_workers, store, p, max_segment=max_segment, deadline=quarter)
    if left is not None:
        check_forecast(region, left, seconds, scheduler, on_forecast)
    with workplace(store, scheduler, remaining(deadline)) as (root, temp, client):
        result = run_census(
            region, root, units, p, progress, n_workers, client, max_segment, deadline, left
        )
    return replace(result, store=None if store is None else root, _cleanup=temp)


def estimate(
    region: Region,
    workers: int | None = None,
    store: str | Path | None = None,
    partitions: int | None = None,
    max_segment: int | None = None,
) -> Forecast:
    """What the census of ``region`` will take (``designs --estimate``), without running it
    and printing nothing: a :class:`~snakecube.census.forecast.Forecast`, whose ``str()`` is
    one line ("about 8 minutes on 2 cores ..."), ``seconds`` the wall time and ``phases()``
    the CPU seconds of each phase. With ``store``, only the work not finished there.

    >>> from snakecube import Box
    >>> str(estimate(Box(2, 2, 3), workers=1)).startswith("about ")
    True
    """
    n_workers, p = checked(region, None, workers, store, partitions, None)
    _units, left = plan(
        region, n_workers, store, p, always=True, max_segment=checked_segment(max_segment)
    )
    assert left is not None  # always
    return left


def check_forecast(
    region: Region,
    left: Forecast,
    seconds: float | None,
    scheduler: str | None,
    on_forecast: Callable[[Forecast], None] | None,
) -> None:
    """Refuse work forecast to take too long (InputError naming ``region``, the target with
    the most of it) unless it has a time limit or a cluster; else tell ``on_forecast``."""
    if seconds is None and scheduler is None and left.too_long():
        raise InputError(too_long(region, left))
    if on_forecast is not None:
        on_forecast(left)


@contextlib.contextmanager
def workplace(
    store: str | Path | None, scheduler: str | None, seconds: float | None = None
) -> Iterator[tuple[Path, tempfile.TemporaryDirectory[str] | None, Any]]:
    """Where a census works: its store's folder (a temporary one without ``store``, kept
    for the answer, removed if the work fails), the temporary directory or None, and a client
    of the Dask ``scheduler`` (None without one), closed at the end."""
    temp = temporary_store() if store is None else None
    root = Path(temp.name if temp is not None else store)  # type: ignore[arg-type]
    client = None
    try:
        if scheduler is not None:  # first: a bad address leaves no new store behind
            client = connect(scheduler, seconds)
        yield root, temp, client
    except BaseException:
        if temp is not None:
            temp.cleanup()
        raise
    finally:
        if client is not None:
            client.close()


def connect(scheduler: str, seconds: float | None = None) -> Any:
    """A client of the Dask scheduler at ``scheduler`` (InputError if none answers within
    ``seconds``, or the cluster's own wait)."""
    from snakecube.cluster import connect  # the cluster extra, only with --scheduler

    return connect(scheduler, seconds)


def checked_segment(max_segment: int | None) -> int | None:
    """``max_segment``, checked: None or a whole number of at least 2 cubes."""
    if max_segment is None:
        return None
    return limits.whole(max_segment, "max_segment", 2, limits.MAX_CENSUS_CELLS)


def temporary_store() -> tempfile.TemporaryDirectory[str]:
    """A temporary directory for a census without a store. Its name holds this process's
    pid, so one a killed process left is removed next time."""
    _remove_orphans(Path(tempfile.gettempdir()))
    return tempfile.TemporaryDirectory(
        prefix=f"{TEMP_PREFIX}{os.getpid()}-", ignore_cleanup_errors=True
    )


def run_census(
    region: Region,
    root: Path,
    units: list[tuple[int, ...]],
    partitions: int,
    progress: Progress | None,
    workers: int,
    client: Any = None,
    max_segment: int | None = None,
    deadline: float | None = None,
    left: Forecast | None = None,
) -> Census:
    """The census of ``region`` in the store at ``root``: the units and reduces still to do,
    run here or on ``client``'s cluster until ``deadline`` (a ``time.monotonic()``), and the
    answer read from the store. ``left`` (the forecast of the units not finished in the
    store, in their order) lets ``progress.work`` follow the work, if the progress has it."""
    st = Store.open(root, region, units, partitions, max_segment)
    result = _Runner(st, region, units, progress, workers, client, deadline, left).run()
    return Census.of(result, region, root, st, max_segment)


def remaining(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (a ``time.monotonic()``), at least a millisecond."""
    return None if deadline is None else max(1e-3, deadline - time.monotonic())


def plan(
    region: Region,
    workers: int,
    store: str | Path | None = None,
    partitions: int | None = None,
    always: bool = False,
    max_segment: int | None = None,
    deadline: float | None = None,
) -> tuple[list[Prefix], Forecast | None]:
    """The census's units, and the forecast of the work left on ``workers`` processes: all
    the units, or those not finished yet in an existing ``store`` (a rerun goes on from
    there; it is only read). Regions of up to 27 cells get no forecast unless ``always``:
    the largest, 3x3x3, is counted in about a second."""
    units = path_units(region, min_units=default_units(region.volume))
    if region.volume <= pool.SMALL_JOB_CELLS and not always:
        return units, None
    todo = units
    parts = partitions or default_partitions(region.volume)
    if store is not None and (Path(store) / "manifest.json").is_file():
        done = Store.open(store, region, units, parts, max_segment).finished_units()
        todo = [u for i, u in enumerate(units) if i not in done]
    left = forecast(
        region,
        todo,
        workers,
        max_segment=max_segment,
        partitions=parts,
        every=len(units),
        deadline=deadline,
    )
    return units, left


# What to do instead of a census refused as too long, in the library's words (its
# parameters; the command line says its options: cli.base._PHRASES).
TOO_LONG_REMEDY = (
    "give a time limit (seconds=) to run part of it (with a store (store=), a rerun goes "
    "on), or a cluster (scheduler=)"
)


def too_long(region: Region, left: Forecast) -> str:
    """The one line refusing a census forecast to take too long, with what to do instead."""
    return (
        f"the census of the {region.describe()} would take {left.describe()} "
        f"({left.nodes:.1e} steps of path search, estimated); snakecube runs at most "
        f"{duration(LONGEST)} of census unasked: {TOO_LONG_REMEDY}; docs/census.md estimates "
        "what cannot be listed"
    )


class _Runner:
    """Runs the units, then the reduce, locally or on a cluster; stops cleanly on Ctrl-C."""

    def __init__(
        self,
        st: Store,
        region: Region,
        units: list[tuple[int, ...]],
        progress: Progress | None,
        workers: int,
        client: Any = None,
        deadline: float | None = None,
        left: Forecast | None = None,
    ) -> None:
        self.st, self.region, self.units = st, region, units
        self.progress, self.workers, self.client = progress, workers, client
        self.deadline = deadline
        self.steps = len(units) + st.partitions
        self._last = (0, 0)
        self.work = _Work(left, st.finished_units(), len(units)) if left is not None else None

    def _tick(self, done: int, found: int) -> None:
        self._last = (done, found)
        if self.progress is None:
            return
        report = getattr(self.progress, "work", None)
        if self.work is not None and report is not None:
            report(*self.work.progress())
        self.progress(done, self.steps, found)

    def _waiting(self) -> None:
        """Called while no step finishes (every slice, or every poll of the workers): the
        time limit is checked, and the progress redrawn (so a bar shows from the start); a
        Ctrl-C that Python dropped (in a finalizer) stops it too."""
        stop.poll()
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime
        self._tick(*self._last)

    def run(self) -> Tally:
        st = self.st
        done_units = st.finished_units()
        todo = [i for i in range(len(self.units)) if i not in done_units]
        self._tick(len(done_units), sum(u.classes for u in done_units.values()))

        def unit_done(info: UnitInfo) -> None:
            done_units[info.unit] = info
            if self.work is not None:
                self.work.unit(info)
            self._tick(len(done_units), sum(u.classes for u in done_units.values()))

        stop = collect(self._map_units(todo), unit_done)
        if self.client is not None:  # the totals from the store's checked files, not from
            done_units = st.finished_units()  # what the cluster's workers said
        group = len(self.region.symmetries)
        paths = sum(u.classes for u in done_units.values()) * group
        if stop or len(done_units) < len(self.units):
            return _partial(
                paths,
                (len(done_units), len(self.units)),
                (0, st.partitions),
                stop or StopReason.INTERRUPTED,
            )
        parts = st.finished_parts()
        filled = st.filled_parts()
        parts.update((p, empty_partition(p)) for p in set(range(st.partitions)) - set(filled))
        todo_parts = [p for p in filled if p not in parts]
        found = paths // group
        if self.work is not None:
            self.work.reducing(len(todo_parts))

        def reduced(part: PartInfo) -> None:
            parts[part.partition] = part
            if self.work is not None:
                self.work.reduced()
            self._tick(len(self.units) + len(parts), found)

        stop = collect(self._map_parts(todo_parts), reduced)
        if self.client is not None:  # as for the units: what the store holds, checked
            parts = st.finished_parts()
            parts.update((p, empty_partition(p)) for p in set(range(st.partitions)) - set(filled))
        return _summary(
            self.region, paths, list(parts.values()), len(self.units), st.partitions, stop
        )

    def _map_units(self, todo: list[int]) -> Iterator[UnitInfo]:
        st, region, units = self.st, self.region, self.units

        def job(i: int) -> Iterator[UnitInfo]:
            done = st.finished_unit(i)  # by a task that was run again (its worker died)
            yield done or st.write_unit(tally_unit(region, i, units[i], st.max_segment))

        if self.client is None and (self.workers <= 1 or len(todo) <= 1):
            for i in todo:  # here, checking time and progress after every slice
                yield st.write_unit(
                    tally_unit(region, i, units[i], st.max_segment, on_slice=self._waiting)
                )
            return
        yield from map_jobs(
            job, todo, f"snakecube-{st.id}-unit", self.workers, self.client, self._waiting
        )

    def _map_parts(self, todo: list[int]) -> Iterator[PartInfo]:
        st = self.st
        everyone = list(range(len(self.units)))

        def job(p: int) -> Iterator[PartInfo]:
            yield reduce_partition(st, p, everyone)

        yield from map_jobs(
            job, todo, f"snakecube-{st.id}-partition", self.workers, self.client, self._waiting
        )


class _Work:
    """A census's progress in forecast CPU seconds: the units finished in this run at their
    measured work, those left at their forecast, and the reduce's share of its forecast.

    Decided: a rerun from a store starts its bar at 0 %, the share of this run's work, and
    says the steps finished before beside it ("15/1129 steps"). Its time left is tqdm's,
    from the work done since the start; counting the units finished before as done would
    make that rate, and the time left, wrong. Rejected: the share of the whole census."""

    def __init__(self, left: Forecast, finished: dict[int, UnitInfo], units: int) -> None:
        self.left = left
        todo = [i for i in range(units) if i not in finished]
        per_unit = left.unit_seconds
        if len(per_unit) != len(todo):  # finished elsewhere since: the forecast, shared out
            whole = left.phases()["path_search"] + left.phases()["solution_counting"]
            per_unit = (whole / max(1, len(todo)),) * len(todo)
        self.estimate = dict(zip(todo, per_unit, strict=True))  # units still to do
        self.done = 0.0
        self.reduce = left.phases()["reduce"]
        self.parts = (0, 0)  # reduced in this run, to reduce in this run

    def unit(self, info: UnitInfo) -> None:
        self.estimate.pop(info.unit, None)
        self.done += self.left.unit_work(info.nodes, info.classes)

    def reducing(self, parts: int) -> None:
        self.parts = (0, parts)

    def reduced(self) -> None:
        self.parts = (self.parts[0] + 1, self.parts[1])

    def progress(self) -> tuple[float, float]:
        """(forecast CPU seconds done, in all): done plus what is left."""
        reduced = self.reduce * self.parts[0] / self.parts[1] if self.parts[1] else 0.0
        return self.done + reduced, self.done + sum(self.estimate.values()) + self.reduce


def map_jobs(
    job: Callable[[int], Iterator[Any]],
    todo: list[int],
    name: str,
    workers: int,
    client: Any = None,
    waiting: Callable[[], None] | None = None,
) -> Iterator[Any]:
    """What ``job(i)`` yields for each ``i`` of ``todo``, as the jobs finish: in this
    process, in ``workers`` forked processes, or as Dask tasks named ``name-i`` on
    ``client``'s cluster. ``waiting()`` is called while the workers have nothing new (it
    may raise to stop them). A Ctrl-C that Python dropped (in a finalizer) stops them too, at
    the next wait or job."""

    def polled() -> None:
        stop.poll()
        if waiting is not None:
            waiting()

    if client is not None:
        from snakecube.cluster import map_tasks  # the cluster extra

        yield from map_tasks(client, job, todo, name, polled)
        return
    if workers <= 1 or len(todo) <= 1:
        for i in todo:
            stop.poll()
            yield from job(i)
        return
    events = pool.run(job, todo, min(workers, len(todo)), lookahead=workers)
    with contextlib.closing(events):
        for event in events:
            if event is None:
                polled()
            elif not event.done:
                yield event.value


def _partial(paths: int, units: tuple[int, int], parts: tuple[int, int], stop: StopReason) -> Tally:
    return Tally(paths, None, None, None, None, None, {}, (), False, stop, units, parts)


def _summary(
    region: Region,
    paths: int,
    parts: list[PartInfo],
    units: int,
    partitions: int,
    stop: StopReason | None,
) -> Tally:
    n = region.volume
    histogram: dict[int, int] = {}
    for info in parts:
        for k, v in info.histogram.items():
            histogram[k] = histogram.get(k, 0) + v
    best = sorted(
        (t for info in parts for t in info.top), key=lambda t: (-t[1], -turns_order(t[0], n))
    )[:TOP]
    top = tuple(
        DesignCount(snake_of_key(k, n), s, snake_of_key(k, n).is_palindrome) for k, s in best
    )
    complete = stop is None and len(parts) == partitions
    return Tally(
        paths=paths,
        design_count=sum(i.designs for i in parts),
        solution_count=sum(i.solutions for i in parts),
        unique=sum(i.unique for i in parts),
        max_solutions=max(histogram, default=0),
        palindromes=sum(i.palindromes for i in parts),
        histogram=dict(sorted(histogram.items())),
        top=top,
        complete=complete,
        stop_reason=None if complete else (stop or StopReason.INTERRUPTED),
        units=(units, units),
        partitions=(len(parts), partitions),
    )
