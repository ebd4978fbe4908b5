"""Work units on an existing Dask cluster (``dask.distributed``): the census and exhaustive
``solve`` counts.

The census's units and reduce tasks are plain functions of an index that write their result
to the store (atomically: write, then rename) and return a small summary. Here they run as
Dask tasks, a batch of indices each; the store must be a directory every worker can reach.
Dask reruns the tasks of a worker that dies (its half-written files are temporary names,
never read), and a client that dies loses nothing finished: the same command with the same
store resumes from it.

The job (the function of an index, with the plan it holds: the region, the units, the open
store) is pickled once by the client and unpickled once per worker process (``_JOBS``, keyed
by its digest), so what a worker sets up (the store's checked headers, the region's tables)
serves every task it runs, as in a forked local worker. Batches shrink as the work runs out
(``batches``): few scheduler round trips, and the last tasks are short.

A ``solve`` unit (one part of the plan's search tree) returns its placements and nodes; the
caller sorts them by unit, so the answer is the same as in one process.

``distributed`` is imported only here, and this module only when a scheduler address is
given, so one machine needs no Dask (install ``snakecube[cluster]`` to use it).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import os
import pickle
import queue
import socket
import struct
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from snakecube import limits
from snakecube.errors import InputError

try:
    import msgpack  # Dask's own wire format
    from distributed import Client, Security
    from distributed.comm import connect as open_comm
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend
    from distributed.core import send_recv
    from distributed.protocol.pickle import dumps as pickled  # cloudpickle where pickle fails
except ImportError:
    raise InputError(
        "scheduler= needs dask.distributed: pip install 'snakecube[cluster]'"
    ) from None

CONNECT_SECONDS = 3  # to reach the scheduler and hear it answer; a live one answers in ms
RETRIES = 3  # reruns of a task whose worker died, on top of Dask's own
SHARE = 4  # a batch takes at most 1 / (SHARE x threads) of the work left (guided schedule)
BATCH = 16  # and at most this many items, so that progress shows through a long run
POLL = 0.2  # seconds between calls of ``waiting`` while no task ends
JOBS_KEPT = 4  # jobs a worker process keeps unpickled (one census runs two: units, reduces)
EXAMPLE = "tcp://10.0.0.1:8786"


def connect(address: str, seconds: float | None = None) -> Any:
    """A ``distributed.Client`` for the scheduler at ``address``; InputError if the address
    is malformed, names a transport that is not installed, or no Dask scheduler answers
    there within ``CONNECT_SECONDS`` (or if Dask is not installed).

    The scheduler is asked who it is first, on a connection of our own with a deadline:
    a ``Client`` that fails to start waits twice its timeout when it is closed (or
    collected), and one that reaches something other than a scheduler may wait for ever.
    No LocalCluster is ever started: an address is required. ``seconds`` (what is left of a
    time limit) shortens the wait below ``CONNECT_SECONDS``.

    **Trust.** The scheduler and its workers run code as you: a census or a count sends
    them its work as pickles and they send results back, which the client reads. So connect
    only to a cluster you run or trust, over a network you trust, or with TLS
    (``tls://HOST:PORT``, certificates set in Dask's own configuration: ``distributed.comm
    .tls`` or the ``DASK_DISTRIBUTED__COMM__TLS__*`` variables; docs/cli.md). The first
    exchange, which asks what answers at the address, reads the answer as data only
    (:func:`_raw_probe`), so a stranger at a mistyped address cannot run code here."""
    address = check_address(address)
    wait = CONNECT_SECONDS if seconds is None else max(0.05, min(CONNECT_SECONDS, seconds))
    security = Security() if address.startswith("tls://") else None
    problem = _probe(address, wait, security)
    if problem is not None:
        raise InputError(f"cannot reach the Dask scheduler {limits.shorten(address)}: {problem}")
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False, security=security)
    except (OSError, TimeoutError, ValueError) as err:
        message = " ".join(str(err).split())
        raise InputError(
            f"cannot reach the Dask scheduler {limits.shorten(address)}: {message}"
        ) from None


def check_address(address: str) -> str:
    """``address`` without surrounding blanks, if it is a scheduler address Dask can use
    here (SCHEME://HOST:PORT, or HOST:PORT for tcp); else InputError saying what is wrong."""

    if not isinstance(address, str) or not address.strip():
        raise InputError(f"scheduler: give an address such as {EXAMPLE}")
    text = address.strip()
    shown = limits.shorten(text)
    try:
        scheme, location = parse_address(text, strict=False)
        backend = get_backend(scheme)
    except ValueError:
        scheme = text.partition("://")[0] if "://" in text else text
        raise InputError(
            f"scheduler {shown}: unknown transport {limits.shorten(scheme)}; give an "
            f"address such as {EXAMPLE}"
        ) from None
    try:
        backend.get_connector()
    except Exception:  # a transport registered by Dask whose library is missing (ucx)
        raise InputError(
            f"scheduler {shown}: the {scheme}:// transport is not installed here; "
            f"give an address such as {EXAMPLE}"
        ) from None
    if scheme == "inproc":  # a scheduler in this very process: inproc://HOST/PID/N
        if location.count("/") != 2:
            raise InputError(f"scheduler {shown}: not inproc://HOST/PID/N")
    else:
        try:
            _host, port = parse_host_port(location)
        except (ValueError, TypeError):
            port = -1
        if not 0 < port < 65536:
            raise InputError(f"scheduler {shown}: not HOST:PORT; give an address such as {EXAMPLE}")
    return text


PROBE_BYTES = 1 << 20  # the most a scheduler's answer to "who are you" may take
PROBE_FRAMES = 64  # ... in at most this many frames


def _frames(sock: socket.socket, deadline: float) -> list[bytes]:
    """One Dask message's frames from ``sock`` (its TCP framing: the bytes that follow, the
    frame count and each frame's length), read within ``deadline``; ValueError, before any
    buffer is made, when the peer announces more than PROBE_BYTES or PROBE_FRAMES: a
    stranger's number never sizes an allocation."""

    def exactly(n: int) -> bytes:
        if n > PROBE_BYTES:
            raise ValueError(f"it announced {n:,} bytes; a scheduler's answer is small")
        out = bytearray()
        while len(out) < n:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(min(n - len(out), 65536))
            if not chunk:
                raise ValueError("it closed the connection")
            out += chunk
        return bytes(out)

    (first,) = struct.unpack("Q", exactly(8))
    head = exactly(first)
    if len(head) < 8:
        raise ValueError("its message has no frames")
    (count,) = struct.unpack_from("Q", head)
    if not 0 < count <= PROBE_FRAMES or len(head) < 8 * (1 + count):
        raise ValueError(f"its message has {count:,} frames")
    lengths = struct.unpack_from(f"{count}Q", head, 8)
    if sum(lengths) > PROBE_BYTES:
        raise ValueError(f"it announced {sum(lengths):,} bytes; a scheduler's answer is small")
    body = head[8 * (1 + count) :]
    body += exactly(max(0, sum(lengths) - len(body)))
    out, at = [], 0
    for n in lengths:
        out.append(body[at : at + n])
        at += n
    return out


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    """One message in Dask's TCP framing, msgpack only (what we send is our own data)."""
    frame = msgpack.dumps(message, use_bin_type=True)
    prelude = struct.pack("QQ", 1, len(frame))
    sock.sendall(struct.pack("Q", len(prelude) + len(frame)) + prelude + frame)


def _read(sock: socket.socket, deadline: float) -> Any:
    """A message's first frame as msgpack data only: nothing in it is unpickled or run (a
    pickled part stays a byte string)."""
    frames = _frames(sock, deadline)
    return msgpack.loads(frames[0], raw=False, strict_map_key=False, use_list=False)


def _raw_probe(address: str, seconds: float, security: Any = None) -> str | None:
    """Why no Dask scheduler answers at a tcp:// or tls:// ``address`` within ``seconds``,
    or None if one does: Dask's handshake and an "identity" request on a socket of our own,
    every answer read with :func:`_frames` (bounded) and decoded as msgpack only. Decision:
    the probe reads what a stranger sends as data, never as code; Dask's own comm unpickles
    the reply (a fake scheduler ran a command that way) and sizes its buffers from the
    peer's numbers. Rejected: ``comm.connect(deserialize=False)`` (its framing still
    allocates what the peer announces)."""
    scheme, location = parse_address(address, strict=False)
    host, port = parse_host_port(location)
    deadline = time.monotonic() + seconds
    try:
        raw = socket.create_connection((host, port), timeout=seconds)
    except OSError as err:
        return err.strerror or str(err)
    try:
        sock = raw
        if scheme == "tls":
            context = _tls_context(security)
            if context is None:
                return "a tls:// scheduler needs --tls-ca and --tls-cert (docs/cli.md)"
            sock = context.wrap_socket(raw, server_hostname=host)
        try:
            hello = {
                "compression": None,
                "python": tuple(sys.version_info)[:3],
                "pickle-protocol": pickle.HIGHEST_PROTOCOL,
            }
            _send(sock, hello)
            _read(sock, deadline)  # its handshake
            _send(sock, {"op": "identity", "reply": True})
            reply = _read(sock, deadline)
        except (OSError, ValueError, struct.error, msgpack.exceptions.ExtraData) as err:
            if isinstance(err, TimeoutError | socket.timeout):
                return f"no answer within {seconds:g} s"
            return f"what answers there is not a Dask scheduler ({err})"
        except Exception as err:
            return f"what answers there is not a Dask scheduler ({type(err).__name__})"
        if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
            return "what answers there is not a Dask scheduler"
        return None
    finally:
        with contextlib.suppress(OSError):
            raw.close()


def _tls_context(security: Any) -> Any:
    """The client's SSL context from a ``distributed.Security`` (None without one)."""
    if security is None:
        return None
    return security.get_connection_args("client").get("ssl_context")


def _probe(address: str, seconds: float, security: Any = None) -> str | None:
    """Why no Dask scheduler answers at ``address`` within ``seconds``, or None if one
    does: tcp:// and tls:// by :func:`_raw_probe` (what the peer sends is read as data
    only); inproc:// (a scheduler in this very process) by Dask's own comm, in its own event
    loop in a thread, so it works under a running loop too."""
    scheme = parse_address(address, strict=False)[0]
    if scheme in ("tcp", "tls"):
        return _raw_probe(address, seconds, security)

    outcome: list[str | None] = []

    async def ask() -> str | None:

        comm = await open_comm(address, timeout=seconds)
        try:
            reply = await send_recv(comm, op="identity")
        finally:
            comm.abort()
        if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
            return "what answers there is not a Dask scheduler"
        return None

    def run() -> None:
        try:
            outcome.append(asyncio.run(asyncio.wait_for(ask(), seconds)))
        except TimeoutError:
            outcome.append(f"no answer within {seconds:g} s")
        except Exception as err:  # refused, unreachable, unknown host, not Dask's protocol
            outcome.append(" ".join(str(err).split()) or type(err).__name__)

    thread = threading.Thread(target=run, name="snakecube-probe-scheduler", daemon=True)
    thread.start()
    thread.join(seconds + 1)
    return outcome[0] if outcome else f"no answer within {seconds:g} s"


# Per worker process: the jobs of the tasks it ran, unpickled once (digest -> job).
_JOBS: OrderedDict[str, Callable[[int], Iterator[Any]]] = OrderedDict()


def _job(digest: str, data: bytes) -> Callable[[int], Iterator[Any]]:
    """The job pickled as ``data``: unpickled on this worker's first task of it only."""
    job = _JOBS.get(digest)
    if job is None:
        job = pickle.loads(data)
        _JOBS[digest] = job
        while len(_JOBS) > JOBS_KEPT:
            _JOBS.popitem(last=False)
    else:
        _JOBS.move_to_end(digest)
    return job


def _run_batch(digest: str, data: bytes, items: list[int]) -> list[Any]:
    with _roomy_malloc():
        job = _job(digest, data)
        return [value for i in items for value in job(i)]


# glibc's mallopt parameters (<malloc.h>) and the values a batch runs with: freed memory is
# kept for reuse (up to 64 MiB) and arrays of up to 32 MiB come from the heap: where glibc's
# own adaptive thresholds go (it stops adapting once either is set).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
ROOMY = {M_TRIM_THRESHOLD: 64 << 20, M_MMAP_THRESHOLD: 32 << 20}
GLIBC_THRESHOLD = 128 << 10  # glibc's default for both, fixed once either is set
_MALLOC_LOCK = threading.Lock()
_MALLOC_USERS = [0]  # batches running in this process with roomy settings


def _settings() -> tuple[Any, dict[int, int]] | None:
    """glibc, and the malloc thresholds this process runs with, if they are fixed by the
    environment (a Dask nanny sets ``MALLOC_TRIM_THRESHOLD_``, which also fixes the mmap
    threshold at glibc's default); None elsewhere (glibc then adapts its thresholds itself,
    and other C libraries are left alone)."""
    trim, mmap = os.environ.get("MALLOC_TRIM_THRESHOLD_"), os.environ.get("MALLOC_MMAP_THRESHOLD_")
    if (trim is None and mmap is None) or not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        if not hasattr(libc, "gnu_get_libc_version"):  # not glibc: its own malloc
            return None
        before = {
            M_TRIM_THRESHOLD: int(trim if trim is not None else GLIBC_THRESHOLD),
            M_MMAP_THRESHOLD: int(mmap if mmap is not None else GLIBC_THRESHOLD),
        }
    except (OSError, ValueError):
        return None
    return libc, before


@contextlib.contextmanager
def _roomy_malloc() -> Iterator[None]:
    """While a batch runs: glibc keeps freed memory and serves big arrays from its heap;
    after the last batch, the worker's own settings are back and the memory is returned.

    A Dask nanny starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536`` (memory goes
    back to the system at once). That also fixes glibc's mmap threshold at 128 KiB, so
    every array the census allocates and frees (MBs, per slice of a unit and per unit of a
    reduce) is mapped afresh and page-faulted in: in a worker, 6 times the page faults and
    6 % more CPU for units, 90 times and 8 % more for reduces (docs/design-census.md)."""
    found = _settings()
    if found is None:
        yield
        return
    libc, before = found
    with _MALLOC_LOCK:
        _MALLOC_USERS[0] += 1
        if _MALLOC_USERS[0] == 1:
            for param, value in ROOMY.items():
                libc.mallopt(param, value)
    try:
        yield
    finally:
        with _MALLOC_LOCK:
            _MALLOC_USERS[0] -= 1
            if _MALLOC_USERS[0] == 0:
                for param, value in before.items():
                    libc.mallopt(param, value)
                libc.malloc_trim(0)


def batches(todo: list[int], threads: int) -> list[list[int]]:
    """``todo`` cut into consecutive batches of at most ``BATCH`` items, each at most 1 /
    (SHARE x ``threads``) of what is left when it starts (a guided schedule): few tasks
    while there is much to do, one item at a time at the end, so that every thread
    finishes at about the same time.

    >>> [len(b) for b in batches(list(range(40)), 2)]
    [5, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    out, at = [], 0
    while at < len(todo):
        size = max(1, min(BATCH, (len(todo) - at) // (SHARE * max(1, threads))))
        out.append(todo[at : at + size])
        at += size
    return out


def map_tasks(
    client: Any,
    job: Callable[[int], Iterator[Any]],
    todo: list[int],
    name: str,
    waiting: Callable[[], None] | None = None,
) -> Iterator[Any]:
    """Run ``job(i)`` for each ``i`` of ``todo`` as Dask tasks, in batches; yield their
    values as the tasks finish. ``waiting()`` is called every ``POLL`` seconds while none
    ends (it may raise to stop). Ctrl-C, or any exception, cancels the tasks still waiting
    (finished ones stay in the store)."""

    if not todo:
        return
    data = pickled(job)  # once: every task carries these bytes, not a new pickle
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    threads = sum(client.nthreads().values())
    futures = []
    for items in batches(todo, threads):
        tag = hashlib.blake2b(repr(items).encode(), digest_size=6).hexdigest()
        key = f"{name}-{items[0]}-{len(items)}-{tag}"
        futures.append(
            client.submit(_run_batch, digest, data, items, key=key, pure=False, retries=RETRIES)
        )
    ended: queue.Queue[Any] = queue.Queue()  # filled by the client's thread as tasks end
    for future in futures:
        future.add_done_callback(ended.put)
    try:
        for _ in futures:
            while True:
                try:
                    future = ended.get(timeout=POLL)
                    break
                except queue.Empty:
                    if waiting is not None:
                        waiting()
            yield from future.result()
    finally:
        client.cancel([f for f in futures if not f.done()])
