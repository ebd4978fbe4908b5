"""``snakecube serve``: the page as a local web app on the compiled engine (Starlette).

Routes (every answer to bad input is HTTP 4xx with ``{"error": "<one line>"}``):

* ``GET /``: the page; ``GET /page.js``, ``/page.css``, ``/config.js``;
* ``GET /api/catalog``: the named puzzles;
* ``POST /api/solve`` ``{snake, box, region}``: checked at once (limits before any work,
  ``busy`` past the pool's queue), then server-sent events: ``progress`` and one ``result``;
  closing the connection (Stop, a closed tab) kills the search's process;
* ``POST /api/details``, ``/api/plan`` ``{snake, box, region, cells}``: the step viewer's
  scene and words, the fold plan;
* ``POST /api/download`` ``{..., form: pdf|gif|html}``: the sheet, the GIF, the viewer.

Nothing a request sends names a file: the server reads only its own package data.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
import threading
import webbrowser
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

import uvicorn
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from snakecube import limits
from snakecube.errors import InputError
from snakecube.search import kernel
from snakecube.web import answers
from snakecube.web.downloads import FORMS
from snakecube.web.jobs import Busy, JobError, Pool

MAX_BODY = limits.MAX_REGION_BYTES + 100_000  # a region file plus the rest of a request
STATIC = {
    "page.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}
EXTRA_SECONDS = 30  # a job may run this long past the search's own limit before it is killed


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": limits.shorten(message, 400)[1:-1] if "\n" in message
                         else message}, status_code=status)  # fmt: skip


def static_text(name: str) -> str:
    """A file of the page (package data)."""
    return resources.files("snakecube.web").joinpath("static", name).read_text("utf-8")


def _engine() -> str:
    return "compiled kernel" if kernel.AVAILABLE else "pure Python (the kernel is not built)"


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, refused past MAX_BODY bytes before it is read whole."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise _TooBig()
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise _TooBig()
    try:
        body = json.loads(data or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise InputError("the request is not JSON") from None
    if not isinstance(body, dict):
        raise InputError("the request must be a JSON object")
    for key in ("snake", "box", "region", "form"):
        if key in body and not isinstance(body[key], str):
            raise InputError(f"{key} must be text")
    return body


class _TooBig(Exception):
    pass


class _Answered(Exception):
    """A request answered before any work is reserved for it (``response``)."""

    def __init__(self, response: Response) -> None:
        self.response = response


def _fields(body: dict[str, Any]) -> tuple[str, str, str]:
    return str(body.get("snake", "")), str(body.get("box", "")), str(body.get("region", ""))


class Routes:
    """The app's routes, over one pool of search processes and one time limit."""

    def __init__(self, pool: Pool, max_seconds: float) -> None:
        self.pool, self.max_seconds = pool, max_seconds
        self.catalog = answers.catalog()
        self.engine = _engine()

    async def page(self, request: Request) -> Response:
        return Response(static_text("index.html"), media_type="text/html; charset=utf-8")

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name == "config.js":
            config = {"mode": "served", "engine": self.engine, "maxSeconds": self.max_seconds}
            text = f"window.SNAKECUBE_CONFIG = {json.dumps(config)};\n"
            return Response(text, media_type="text/javascript; charset=utf-8")
        if name not in STATIC:
            return _error(f"no such file: {limits.shorten(name)}", 404)
        return Response(static_text(name), media_type=STATIC[name])

    async def get_catalog(self, request: Request) -> Response:
        return JSONResponse(self.catalog)

    async def status(self, request: Request) -> Response:
        pool = self.pool
        return JSONResponse({"busy": pool.busy, "slots": pool.size, "queue": pool.queue,
                             "pids": pool.pids()})  # fmt: skip

    async def _admit(self, request: Request, kind: str) -> tuple[Any, ...]:
        """Step 1 of every job: the request read and checked (limits and syntax before any
        work), then a place in the pool reserved; else ``_Answered`` with the refusal."""
        try:
            body = await _body(request)
            snake, box, region = _fields(body)
            answers.check(snake, box, region)
            if kind == "solve":
                wrong = await run_in_threadpool(answers.mismatch, snake, box, region)
                if wrong is not None:  # bad input too: 400, with the designs that do fit
                    raise _Answered(JSONResponse(wrong, status_code=400))
                args: tuple[Any, ...] = (snake, box, region, self.max_seconds)
            else:
                args = (snake, box, region, _cells(body))
            if kind == "download":
                args = (*args, _form(body))
            self.pool.reserve()
        except _TooBig:
            raise _Answered(_error(f"the request is larger than {MAX_BODY} bytes", 413)) from None
        except InputError as err:
            raise _Answered(_error(str(err))) from None
        except Busy as err:
            raise _Answered(_error(str(err), 503)) from None
        return args

    async def _run(self, request: Request, kind: str) -> Any:
        """A job that answers at once (details, plan, download): admitted, then run."""
        args = await self._admit(request, kind)
        try:
            return await self.pool.run(kind, args, None, self.max_seconds + EXTRA_SECONDS)
        except InputError as err:
            raise _Answered(_error(str(err))) from None
        except JobError as err:
            raise _Answered(_error(f"internal error: {err}", 500)) from None

    async def solve(self, request: Request) -> Response:
        """Server-sent events: ``progress`` while the search runs, then one ``result``."""
        try:
            args = await self._admit(request, "solve")
        except _Answered as answered:
            return answered.response
        return EventSourceResponse(self._events(args), ping=10)

    async def _events(self, args: tuple[Any, ...]) -> AsyncIterator[dict[str, str]]:
        queue: asyncio.Queue[dict[str, str]] = asyncio.Queue()

        async def progress(p: dict[str, Any]) -> None:
            await queue.put({"event": "progress", "data": json.dumps(p)})

        job = asyncio.ensure_future(
            self.pool.run("solve", args, progress, self.max_seconds + EXTRA_SECONDS)
        )
        try:
            while not job.done() or not queue.empty():
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({job, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield getter.result()
                else:
                    getter.cancel()
            try:
                result = job.result()
            except InputError as err:
                result = {"error": str(err)}
            except JobError as err:
                result = {"error": f"internal error: {err}"}
            yield {"event": "result", "data": json.dumps(result)}
        finally:
            if not job.done():  # the client went away: end the search now
                job.cancel()

    async def details(self, request: Request) -> Response:
        try:
            return JSONResponse(await self._run(request, "details"))
        except _Answered as answered:
            return answered.response

    async def plan(self, request: Request) -> Response:
        try:
            return JSONResponse(await self._run(request, "plan"))
        except _Answered as answered:
            return answered.response

    async def download(self, request: Request) -> Response:
        try:
            data = await self._run(request, "download")
        except _Answered as answered:
            return answered.response
        return Response(data, media_type="application/octet-stream")


def _cells(body: dict[str, Any]) -> Any:
    cells = body.get("cells")
    if not isinstance(cells, list):
        raise InputError("cells: give the solution's cells as a list of [x, y, z]")
    return cells


def _form(body: dict[str, Any]) -> str:
    form = str(body.get("form", ""))
    if form not in FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(FORMS)}")
    return form


def create_app(workers: int | None = None, queue: int = 8, max_seconds: float = 60.0) -> Starlette:
    """The app: a pool of ``workers`` search processes (default: the cores) with ``queue``
    more requests waiting, and searches bounded by ``max_seconds``."""
    pool = Pool(workers or limits.cores(), queue)
    routes = Routes(pool, max_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
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
            Route("/api/download", routes.download, methods=["POST"]),
            Route("/{name:str}", routes.asset),
        ],
        lifespan=lifespan,
    )
    app.state.pool = pool
    return app


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
        sock.listen(128)  # from now on a browser waits for the page instead of being refused
    except OSError as err:
        sock.close()
        raise InputError(f"cannot serve on {host}:{port}: {err.strerror or err}") from None
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = False,
    workers: int | None = None,
    queue: int = 8,
    max_seconds: float = 60.0,
) -> None:
    """Run the app with uvicorn until Ctrl-C (or SIGTERM); say the address first."""
    sock = _listening(host, port)  # first: a bad address is one line, before any worker starts
    port = sock.getsockname()[1]  # the one chosen, for --port 0
    app = create_app(workers, queue, max_seconds)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"snakecube: serving the page at {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    if open_browser:
        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[sock])
