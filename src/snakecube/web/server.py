"""``snakecube serve``: the page as a local web app on the compiled engine (Starlette).

Routes (every answer to bad input is HTTP 4xx with ``{"error": "<one line>"}``):

* ``GET /``: the page (its settings inline, allowed by the page's Content-Security-Policy);
  ``GET /page.js``, ``/page.css``, ``/scene.js`` (the drawing the offline viewer shares);
* ``GET /api/catalog``: the named puzzles; ``GET /api/status``: the pool's places and workers;
* ``POST /api/solve`` ``{snake, target, first_if_big}``: checked at once (limits before any
  work, ``busy`` past the pool's queue), then server-sent events: ``progress`` and one
  ``result``; with ``first_if_big: true``, a target of more than ``answers.SMALL_ON_SERVER``
  cells is answered with its first solution (``stop_reason`` "limit"), and the page then asks
  again without it for the count; every answer's ``too_big`` names the downloads this
  server would refuse for its solutions (too many cubes to draw), each with its one line;
  a cube count that does not fit is a 400 with the nearby designs that do (looked for in a
  place of the pool, within ``answers.NEARBY_NODES``);
* ``POST /api/details``, ``/api/plan`` ``{snake, target, cells}``: the step viewer's
  scene and words, the fold plan; ``/api/wrong`` ``{..., step}``: the fold plan's
  "Something doesn't match?" questions at that step;
* ``POST /api/download`` ``{..., form: pdf|gif|html}``: the sheet, the GIF, the viewer.
* ``POST /api/make`` ``{..., form: 3mf|sheet.pdf, size, cord, colours}``: the "Make it"
  panel's 3MF file (a ZIP of plates when one does not hold the pieces) or workshop sheet.

Every job belongs to its request: a client that leaves (Stop, a closed tab) ends its job, and
its process, at once. Only this machine's pages drive the server: Host names other than the
ones it was started for get 400, a POST from another site's page (its ``Origin``, scheme,
host and port) or not sent as JSON is refused (403, 415) before it is read, and no answer
may be framed or read by another site's page (``X-Frame-Options``, ``Content-Security-Policy``
with ``frame-ancestors 'none'``, ``Cross-Origin-Resource-Policy``). Every error, the server's
own (404, 405, a wrong Host) too, is one JSON line, but for a page asked for with a Host
name it does not answer: a short page saying how to reach it (``serve --lan``, ``--host``).
Nothing a request sends names a file: the server reads only its own package data. What one
connection may hold is ``snakecube.web.connections``'s.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import html
import json
import logging
import math
import multiprocessing.util
import os
import shutil
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from importlib import resources
from types import FrameType
from typing import Any

import anyio
import uvicorn
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from snakecube import limits
from snakecube.errors import InputError
from snakecube.explain import viewer
from snakecube.make.pieces import Settings
from snakecube.search import kernel
from snakecube.web import answers
from snakecube.web.connections import BACKLOG, Protocol, fitted_caps
from snakecube.web.downloads import FORMS, MAKE_FORMS
from snakecube.web.jobs import (
    MEMORY_MB,
    STOP_SIGNALS,
    STOPPING,
    Busy,
    JobError,
    Place,
    Pool,
    Stopping,
    TooLong,
)

MAX_BODY = limits.MAX_REGION_BYTES + 100_000  # a region file plus the rest of a request
MAX_NESTING = 8  # lists and objects inside one another in a request (the page sends 3)
STATIC = {
    "page.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
    "scene.js": "text/javascript; charset=utf-8",  # the viewer's too: explain/scene.js
}
EXTRA_SECONDS = 30  # a job may run this long past the search's own limit before it is killed
NEARBY_JOB_SECONDS = 20  # the nearby look-up (a node budget, about 0.1-1 s) is killed past this
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")  # Host names always accepted
# What a connection may take (uvicorn's own settings; connections.py for headers and caps):
BODY_SECONDS = 10.0  # for a request's body to arrive
KEEP_ALIVE_SECONDS = 5  # an idle connection is closed after this (uvicorn's timeout_keep_alive)
GRACE_SECONDS = 2  # shutdown: responses in flight get this long (timeout_graceful_shutdown)
DEBUG_ENV = "SNAKECUBE_DEBUG"  # set to 1: an internal error logs its traceback
LOG_SECONDS = 1.0  # at most one log line of a kind this often (clients cause most of them)
CONFIG_TAG = '<script src="config.js"></script>'  # in index.html: the static site's settings
# Every answer: no other site may frame it or read it, or guess its type; none is cached.
HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
# The page's sources: its own files, its inline settings (by hash), SVG and blob downloads.
POLICY = (
    "default-src 'none'; script-src 'self' {config}; style-src 'self'; "
    "img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

log = logging.getLogger("uvicorn.error")


def _error(message: str, status: int = 400, close: bool = False) -> JSONResponse:
    """The one-line answer; ``close``: the connection ends after it (its body was not read
    whole, so it cannot carry another request)."""
    return JSONResponse(
        {"error": limits.shorten(message, 400)[1:-1] if "\n" in message else message},
        status_code=status,
        headers={"Connection": "close"} if close else None,
    )


def static_text(name: str) -> str:
    """A file of the page (package data)."""
    if name == "scene.js":
        return viewer.scene_script()
    return resources.files("snakecube.web").joinpath("static", name).read_text("utf-8")


def _engine() -> str:
    return "compiled kernel" if kernel.AVAILABLE else "pure Python (the kernel is not built)"


class _Answered(Exception):
    """A request answered before any work is reserved for it (``response``)."""

    def __init__(self, response: Response) -> None:
        self.response = response


class _Gone(Exception):
    """The client left: nothing to answer."""


def _same_site(request: Request) -> None:
    """Refuse a POST that another site's page sent (403) or that is not JSON (415): a page
    from elsewhere can send a form or text/plain without asking first, but not JSON."""
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "").lower()
        if origin.lower() != f"http://{host}" or not host:  # scheme, host and port
            raise _Answered(
                _error(
                    f"refused a request from another site's page ({limits.shorten(origin)})", 403
                )
            )
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise _Answered(_error("send the request as JSON (Content-Type: application/json)", 415))


def _nesting(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (counted up to MAX_NESTING + 1)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_NESTING:
                break
            inside = item.values() if isinstance(item, dict) else item
            stack.extend((x, depth + 1) for x in inside)
    return deepest


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object: from this machine's page, refused past MAX_BODY bytes before
    it is read whole, and past BODY_SECONDS; a client that leaves mid-body raises _Gone."""
    _same_site(request)
    size = request.headers.get("content-length")
    too_big = _Answered(_error(f"the request is larger than {MAX_BODY} bytes", 413, True))
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise too_big
    data = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise too_big
    except TimeoutError:
        late = f"the request took over {BODY_SECONDS:g} s to arrive"
        raise _Answered(_error(late, 408, True)) from None
    except ClientDisconnect:
        raise _Gone from None
    deep = InputError(f"the request nests lists or objects more than {MAX_NESTING} deep")
    try:
        body = json.loads(data or b"{}", parse_constant=_not_finite, parse_float=_finite)
    except RecursionError:  # json's own guard against a stack overflow
        raise deep from None
    except InputError:  # a number that is not finite
        raise
    except (ValueError, UnicodeDecodeError):
        raise InputError("the request is not JSON") from None
    if _nesting(body) > MAX_NESTING:
        raise deep
    if not isinstance(body, dict):
        raise InputError("the request must be a JSON object")
    for key in ("snake", "target", "form"):
        if key in body and not isinstance(body[key], str):
            raise InputError(f"{key} must be text")
    return body


def _not_finite(text: str) -> float:
    raise InputError(f"the request has {text}; numbers must be finite")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise InputError(f"the request has {limits.shorten(text)}, too big a number")
    return number


async def _left(request: Request) -> None:
    """Return when the client has gone (its body read, the next message is the disconnect)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _address(request: Request) -> str:
    """The client's address: whose share of the pool a job takes (``jobs.Pool``)."""
    return request.client.host if request.client else ""


def _fields(body: dict[str, Any]) -> tuple[str, str]:
    return str(body.get("snake", "")), str(body.get("target", ""))


Handler = Callable[[Any, Request], Awaitable[Response]]


def _one_line(handler: Handler) -> Handler:
    """A route that answers every failure in one line: its own refusals, a client that left
    (nothing logged), and any other exception (500, one line in the log; the traceback too
    with SNAKECUBE_DEBUG=1)."""

    @functools.wraps(handler)
    async def route(self: Any, request: Request) -> Response:
        try:
            return await handler(self, request)
        except _Answered as answered:
            return answered.response
        except _Gone:
            return Response(status_code=400)  # never sent: the client has gone
        except InputError as err:
            return _error(str(err))
        except (Busy, Stopping, TooLong) as err:
            return _error(str(err), 503)
        except JobError as err:
            return _error(f"internal error: {err}", 500)
        except Exception as err:
            debug = os.environ.get(DEBUG_ENV) == "1"
            log.error(
                "internal error in %s: %s: %s",
                request.url.path,
                type(err).__name__,
                " ".join(str(err).split())[:300],
                exc_info=debug,
            )
            return _error(f"internal error: {type(err).__name__}", 500)

    return route


class _Stream(EventSourceResponse):
    """The solve's events; the place reserved for the search is given back however the
    response ends (if the search never started, it is not left counted)."""

    def __init__(self, place: Place, events: AsyncIterator[dict[str, str]], stop: Any) -> None:
        super().__init__(events, ping=10, shutdown_event=stop, shutdown_grace_period=1.0)
        self.place = place

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.place.release()


async def _settle(*tasks: asyncio.Future[Any]) -> None:
    """Cancel ``tasks`` and wait until they have ended (shielded: also while the caller is
    being cancelled), so none is left pending."""
    for t in tasks:
        t.cancel()
    with anyio.CancelScope(shield=True):
        await asyncio.wait(tasks)


class Routes:
    """The app's routes, over one pool of search processes and one time limit."""

    def __init__(self, pool: Pool, max_seconds: float) -> None:
        self.pool, self.max_seconds = pool, max_seconds
        self.catalog = answers.catalog()
        self.engine = _engine()
        # The settings inline, not a config.js another site's page could load and read.
        config = {"mode": "served", "engine": self.engine, "maxSeconds": self.max_seconds}
        script = f"window.SNAKECUBE_CONFIG = {json.dumps(config)};".replace("<", "\\u003c")
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        self.html = static_text("index.html").replace(CONFIG_TAG, f"<script>{script}</script>")
        self.policy = POLICY.format(config=f"'sha256-{digest}'")

    @_one_line
    async def page(self, request: Request) -> Response:
        return Response(
            self.html,
            media_type="text/html; charset=utf-8",
            headers={"content-security-policy": self.policy},
        )

    @_one_line
    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return _error(f"no such file: {limits.shorten(name)}", 404)
        return Response(static_text(name), media_type=STATIC[name])

    @_one_line
    async def get_catalog(self, request: Request) -> Response:
        return JSONResponse(self.catalog)

    @_one_line
    async def status(self, request: Request) -> Response:
        pool = self.pool
        return JSONResponse(
            {
                "busy": pool.busy,
                "slots": pool.size,
                "processes": pool.processes,
                "queue": pool.queue,
                "pids": pool.pids(),
                "restarts": dict(pool.restarts),
                "problem": pool.problem,
                "stopping": pool.stopping,
            }
        )

    async def _read(self, request: Request, kind: str) -> tuple[Any, ...]:
        """Step 1 of every job: the request read and checked (limits and syntax before any
        work): the job's arguments."""
        body = await _body(request)
        snake, target = _fields(body)
        answers.read_input(snake, target)
        if kind == "solve":
            first = body.get("first_if_big", False)
            if not isinstance(first, bool):
                raise InputError("first_if_big must be true or false")
            return (snake, target, self.max_seconds, first)
        args = (snake, target, _cells(body))
        if kind == "wrong":
            return (*args, _step(body))
        if kind == "make":
            return (*args, *_make_fields(body))
        return (*args, _form(body)) if kind == "download" else args

    async def _job(
        self, request: Request, place: Place, kind: str, args: tuple[Any, ...], seconds: float
    ) -> Any:
        """Run a job on its place while watching the client: if the client leaves first,
        the job (and its process) ends at once and _Gone is raised."""
        job = asyncio.ensure_future(self.pool.run(place, kind, args, None, seconds))
        gone = asyncio.ensure_future(_left(request))
        try:
            await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await _settle(job, gone)
            place.release()  # if the job was cancelled before it started (else done already)
        if job.cancelled():
            raise _Gone
        return job.result()

    async def _answer(self, request: Request, kind: str, args: tuple[Any, ...] = ()) -> Any:
        """A job that answers at once (details, plan, download): read (unless ``args`` are
        given), reserved, run."""
        args = args or await self._read(request, kind)
        place = self.pool.reserve(_address(request))
        return await self._job(request, place, kind, args, self.max_seconds + EXTRA_SECONDS)

    @_one_line
    async def solve(self, request: Request) -> Response:
        """Server-sent events: ``progress`` while the search runs, then one ``result``."""
        args = await self._read(request, "solve")
        if answers.mismatch(*args[:2], nearby=False) is not None:  # bad input: 400, with
            # the designs that do fit, looked for in the pool
            place = self.pool.reserve(_address(request))
            wrong = await self._job(request, place, "mismatch", args[:2], NEARBY_JOB_SECONDS)
            return JSONResponse(wrong, status_code=400)
        place = self.pool.reserve(_address(request))
        stop = anyio.Event()  # set by sse-starlette when the server stops
        return _Stream(place, self._events(place, args, stop), stop)

    async def _events(
        self, place: Place, args: tuple[Any, ...], stop: anyio.Event
    ) -> AsyncIterator[dict[str, str]]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        seconds = self.max_seconds + EXTRA_SECONDS
        job = asyncio.ensure_future(self.pool.run(place, "solve", args, queue.put, seconds))
        stopping = asyncio.ensure_future(stop.wait())
        for task in (job, stopping):
            task.add_done_callback(lambda _: queue.put_nowait(None))
        try:
            while (progress := await queue.get()) is not None:
                yield {"event": "progress", "data": json.dumps(progress)}
            result: dict[str, Any] = {"error": STOPPING}
            if job.done() and not job.cancelled():
                try:
                    result = job.result()
                except (InputError, Stopping, Busy, TooLong) as err:
                    result = {"error": str(err)}
                except JobError as err:
                    result = {"error": f"internal error: {err}"}
            yield {"event": "result", "data": json.dumps(result)}
        finally:  # the end, the client gone or the server stopping: the search ends now
            await _settle(job, stopping)

    @_one_line
    async def details(self, request: Request) -> Response:
        return JSONResponse(await self._answer(request, "details"))

    @_one_line
    async def plan(self, request: Request) -> Response:
        return JSONResponse(await self._answer(request, "plan"))

    @_one_line
    async def wrong(self, request: Request) -> Response:
        return JSONResponse(await self._answer(request, "wrong"))

    @_one_line
    async def make(self, request: Request) -> Response:
        """The "Make it" panel: the pieces' 3MF file or the workshop sheet."""
        data, name, media = await self._answer(request, "make")
        return Response(
            data,
            media_type=media,
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    @_one_line
    async def download(self, request: Request) -> Response:
        args = await self._read(request, "download")
        data, form = await self._answer(request, "download", args), args[-1]
        return Response(
            data,
            media_type=FORMS[form],
            headers={"content-disposition": f'attachment; filename="snakecube.{form}"'},
        )


def _cells(body: dict[str, Any]) -> Any:
    cells = body.get("cells")
    if not isinstance(cells, list):
        raise InputError("cells: give the solution's cells as a list of [x, y, z]")
    return cells


def _step(body: dict[str, Any]) -> int:
    step = body.get("step")
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= limits.MAX_CUBES:
        raise InputError("step: give the plan's step as a whole number from 1")
    return step


def _make_fields(body: dict[str, Any]) -> tuple[str, float, float, str]:
    """The "Make it" panel's form, cube size and cord (mm) and colours, checked."""
    form = str(body.get("form", ""))
    if form not in MAKE_FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(MAKE_FORMS)}")
    numbers = []
    for name, default in (("size", 20.0), ("cord", 2.5)):
        value = body.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(f"{name}: give a number of mm")
        numbers.append(float(value))
    colours = str(body.get("colours", "alternate"))
    Settings(numbers[0], numbers[1], colours)  # a bad one: one line, before any work
    return form, numbers[0], numbers[1], colours


def _form(body: dict[str, Any]) -> str:
    form = str(body.get("form", ""))
    if form not in FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(FORMS)}")
    return form


def allowed_hosts(host: str = "127.0.0.1") -> list[str]:
    """The Host names the server answers: this machine's, and the ``--host`` it was given."""
    given = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return list(dict.fromkeys([*LOCAL_HOSTS, given.lower()]))


class _Guard:
    """Around the app: a request with another Host name is refused (400, one line; Starlette's
    TrustedHostMiddleware answers in plain text), and every answer gets ``HEADERS``."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        self.app, self.hosts = app, set(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                extra = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers + [h for h in extra if h[0] not in have]}
            await send(message)

        host = Headers(scope=scope).get("host", "").lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name not in self.hosts:
            names = ", ".join(sorted(self.hosts))
            shown = limits.shorten(host) if host else "none"
            said = (
                f"this server answers only the Host names {names}, not {shown}: to reach it "
                "from another device, start it with snakecube serve --lan (or --host ADDRESS, "
                "the address others use)"
            )
            api = str(scope.get("path", "")).startswith("/api/")
            answer = _error(said) if api else _wrong_host_page(sorted(self.hosts), shown)
            await answer(scope, receive, guarded)
            return
        await self.app(scope, receive, guarded)


def _wrong_host_page(names: list[str], asked: str) -> Response:
    """A short page for a browser that asked for a Host name this server does not answer
    (a phone, say, given the machine's address): how to reach it instead."""
    listed = ", ".join(html.escape(n) for n in names)
    body = (
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport "
        'content="width=device-width, initial-scale=1"><title>snakecube: another address</title>'
        "<body style='font:16px/1.45 system-ui,sans-serif;max-width:36em;margin:1em'>"
        "<h1 style='font-size:20px'>snakecube does not answer at this address</h1>"
        f"<p>This server answers only {listed}; this page was asked for as "
        f"<code>{html.escape(asked)}</code>.</p>"
        "<p>To open the page on a phone on the same network, start the server with "
        "<code>snakecube serve --lan</code>, then open the address it prints (or scan its QR "
        "code). Or give the address others use: <code>snakecube serve --host ADDRESS</code>."
        "</p></body></html>"
    )
    return Response(body, status_code=400, media_type="text/html; charset=utf-8")


async def _http_error(request: Request, err: Exception) -> Response:
    """Starlette's own refusals (no such route, a method it does not take), in one line."""
    status = err.status_code if isinstance(err, HTTPException) else 500
    path = limits.shorten(request.url.path)
    if status == 404:
        return _error(f"no such page: {path}", 404)
    if status == 405:
        return _error(f"{request.method} is not allowed on {path}", 405)
    return _error(f"{getattr(err, 'detail', '') or 'refused'}", status)


def create_app(
    workers: int | None = None,
    queue: int = 8,
    max_seconds: float = 60.0,
    host: str = "127.0.0.1",
    memory: int = MEMORY_MB,
) -> Starlette:
    """The app: a pool of ``workers`` search processes (default: the cores) of at most
    ``memory`` MB each with ``queue`` more requests waiting, and searches bounded by
    ``max_seconds``, answering the Host names of :func:`allowed_hosts`."""
    pool = Pool(workers or limits.cores(), queue, max_seconds, memory)
    routes = Routes(pool, max_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        try:
            yield
        finally:
            pool.close()

    app = Starlette(
        routes=[
            Route("/", routes.page),
            Route("/api/catalog", routes.get_catalog),
            Route("/api/status", routes.status),
            Route("/api/solve", routes.solve, methods=["POST"]),
            Route("/api/details", routes.details, methods=["POST"]),
            Route("/api/plan", routes.plan, methods=["POST"]),
            Route("/api/wrong", routes.wrong, methods=["POST"]),
            Route("/api/download", routes.download, methods=["POST"]),
            Route("/api/make", routes.make, methods=["POST"]),
            Route("/{name:str}", routes.asset),
        ],
        middleware=[Middleware(_Guard, hosts=allowed_hosts(host))],
        exception_handlers={HTTPException: _http_error},
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # its redirects name the Host: /page.js/ is a 404
    app.state.pool = pool
    return app


class _Quiet(logging.Filter):
    """At most one log line of a kind (its logger and message) every ``LOG_SECONDS``: most
    come from clients (an unreadable request, a WebSocket asked for, the file descriptors
    running out under a flood of connections), and a client must not fill the log. The next
    line of a kind says how many were left out."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        when, skipped = self.last.get(key, (-LOG_SECONDS, 0))
        if now - when < LOG_SECONDS:
            self.last[key] = (when, skipped + 1)
            return False
        self.last[key] = (now, 0)
        if skipped:
            record.msg = f"{record.msg} (and {skipped} more like it, not shown)"
        return True


def _loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """An error the event loop met outside any request (like no file descriptor left to
    accept a connection with): one line, the traceback too with SNAKECUBE_DEBUG=1."""
    err = context.get("exception")
    what = context.get("message", "an error in the event loop")
    if err is not None:
        what = f"{what}: {type(err).__name__}: {' '.join(str(err).split())[:200]}"
    log.error("%s", what, exc_info=err if os.environ.get(DEBUG_ENV) == "1" else None)


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    quiet = _Quiet()
    loggers = [logging.getLogger(n) for n in ("uvicorn.error", "uvicorn.access", "asyncio")]
    for logger in loggers:
        logger.addFilter(quiet)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeFilter(quiet)


class _Server(uvicorn.Server):
    """uvicorn's server, which first ends every job when it stops, so each client gets its
    answer ("the server is stopping") before the connections are closed; SIGHUP (a closed
    terminal) stops it as SIGTERM and Ctrl-C do, and a second signal changes nothing (the
    stop is quick: every job ends at once)."""

    def __init__(self, config: uvicorn.Config, pool: Pool) -> None:
        super().__init__(config)
        self.pool = pool

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(_loop_error)
        await super().serve(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        with _stop_signals(self.handle_exit):
            yield

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.should_exit = True  # not raised again after the stop: nothing is left to stop

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.pool.stop()
        await super().shutdown(sockets)


def lan_address() -> str:
    """This machine's address on its network (the one its traffic leaves by), for a phone
    on the same network; InputError when it has none but loopback.

    Step: a UDP socket "connected" to a documentation address (RFC 5737: nothing is sent)
    names the interface the machine would use; else the addresses of its host name."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        found.append(s.getsockname()[0])
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    for address in found:
        if address and not address.startswith("127.") and address != "0.0.0.0":
            return address
    raise InputError(
        "--lan: this machine has no network address but 127.0.0.1 (is it on a network?); "
        "give --host ADDRESS to listen on another"
    )


def qr_text(url: str) -> str:
    """A QR code of ``url`` for the terminal (segno: the web extra), or '' without it."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno comes with the web extra
        return ""
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n")


def _listening(host: str, port: int) -> Any:
    """A socket bound to ``host``:``port``, or an InputError saying why it cannot be."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as err:
        raise InputError(f"--host {host!r}: {getattr(err, 'strerror', None) or err}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(BACKLOG)  # from now on a browser waits for the page instead of being refused
    except OSError as err:
        sock.close()
        raise InputError(f"cannot serve on {host}:{port}: {err.strerror or err}") from None
    return sock


@contextlib.contextmanager
def _stop_signals(handler: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """The stop signals go to ``handler`` inside the block, and to their handlers before it
    after it."""
    before = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in before.items():
            signal.signal(sig, old)


def _noted(sig: int, frame: FrameType | None) -> None:
    """While the server runs and cleans up, a stop signal only stops uvicorn (whose handler
    replaces this one meanwhile): none raises KeyboardInterrupt into the clean-up."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = False,
    workers: int | None = None,
    queue: int = 8,
    max_seconds: float = 60.0,
    memory: int = MEMORY_MB,
    lan: bool = False,
) -> None:
    """Run the app with uvicorn until Ctrl-C, SIGTERM or SIGHUP; say the address first.
    ``lan``: listen on this machine's address on its network (:func:`lan_address`) instead
    of ``host``, and print its URL and a QR code of it on stdout, for a phone."""
    if lan:
        host = lan_address()
    sock = _listening(host, port)  # first: a bad address is one line, before any worker starts
    port = sock.getsockname()[1]  # the one chosen, for --port 0
    app = create_app(workers, queue, max_seconds, host, memory)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if lan:  # for a phone: the address at once on stdout, and its QR code
        print(f"On your phone (on the same network), open {url}", flush=True)
        print(qr_text(url), flush=True)
    print(f"snakecube: serving the page at {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    if open_browser:
        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    Protocol.caps = fitted_caps()
    config = uvicorn.Config(
        app,
        log_level="warning",
        http=Protocol,  # connections.py: header deadline, connection caps (no limit_concurrency)
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=GRACE_SECONDS,
        backlog=BACKLOG,
        proxy_headers=False,  # nothing stands between the browser and this server
    )
    with _stop_signals(_noted), _quiet_logs():
        try:
            _Server(config, app.state.pool).run(sockets=[sock])
        finally:
            app.state.pool.close()  # also when uvicorn was stopped before its lifespan ended
            # The forkserver's folder (pymp-*, its socket): multiprocessing removes it at
            # interpreter exit, which the command skips (snakecube.stop ends with os._exit).
            shutil.rmtree(multiprocessing.util.get_temp_dir(), ignore_errors=True)
