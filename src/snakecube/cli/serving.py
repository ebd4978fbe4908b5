"""serve and web: the web page, served or as a static site."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import webbrowser
from argparse import Namespace

from snakecube.cli.base import (
    EXIT_OK,
    Parser,
    add_workers,
    command,
    say,
    seconds_type,
    whole,
)
from snakecube.errors import InputError
from snakecube.web.site import build


def _serve_options(p: Parser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    where.add_argument(
        "--lan",
        action="store_true",
        help="for a phone on the same network: listen on this machine's network address, "
        "print its URL and a QR code",
    )
    p.add_argument("--port", type=whole(0, 65535), default=8765, help="port (default 8765)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    add_workers(p, "search processes (default: the cores)")
    p.add_argument(
        "--queue",
        type=whole(0, 1000),
        default=8,
        metavar="N",
        help="requests waiting for a process before 'busy' (default 8)",
    )
    p.add_argument(
        "--max-seconds",
        type=seconds_type,
        default=60.0,
        metavar="S",
        help="longest search; then marked incomplete (default 60)",
    )
    p.add_argument(
        "--memory",
        type=whole(64, 1 << 20),
        default=1024,
        metavar="MB",
        help="memory a search process may hold; a job past it is refused (default 1024)",
    )


@command("serve", _serve_options)
def serve_command(args: Namespace) -> int:
    """the web page as a local app: type the snake, see it fold (snakecube[web])

    example: snakecube serve --open; on a phone: snakecube serve --lan
    """
    missing = [
        m for m in ("starlette", "uvicorn", "sse_starlette") if importlib.util.find_spec(m) is None
    ]
    if missing:
        raise InputError(f"serve needs {', '.join(missing)}: pip install 'snakecube[web]'")

    from snakecube.web.server import serve  # starlette and uvicorn: the web extra

    opens = args.open
    if opens and (why := no_browser()):
        say(
            f"snakecube: --open: {why}, so no browser is opened; open the address below in a "
            "browser yourself"
        )
        opens = False
    # Ctrl-C or SIGTERM is how a server is stopped: nothing is lost, exit 0.
    with contextlib.suppress(KeyboardInterrupt):
        serve(
            args.host,
            args.port,
            opens,
            args.workers,
            args.queue,
            args.max_seconds,
            args.memory,
            lan=args.lan,
        )
    return EXIT_OK


def no_browser() -> str:
    """Why no browser can be opened on this machine, or '' when one can: on Linux and the
    BSDs a browser needs a display (an X or Wayland one; a text browser would fight the
    server for the terminal), and Python's webbrowser must know of one."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")) and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "there is no display here (DISPLAY and WAYLAND_DISPLAY are not set)"
    try:
        webbrowser.get()
    except webbrowser.Error:
        return "no web browser was found"
    return ""


def _web_options(p: Parser) -> None:
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write the site into")
    p.add_argument(
        "--gzip",
        action="store_true",
        help="also write a gzip copy (NAME.gz) of each larger file, for hosts that serve "
        "precompressed files",
    )


@command("web", _web_options)
def web_command(args: Namespace) -> int:
    """write the web page as a static site that solves in the browser (Pyodide)

    example: snakecube web --out site && python -m http.server -d site
    """
    out = build(args.out, compress=args.gzip)
    say(f"snakecube: wrote the static site to {str(out)!r}; try: python -m http.server -d {out}")
    return EXIT_OK
