"""What one connection to ``snakecube serve`` may hold: uvicorn's HTTP/1.1 protocol with a
deadline for each request's headers, a cap on connections for each client and in all, an
answer to a request whose client half-closed, and one JSON line for every refusal.

* **Headers**: ``HEADER_SECONDS`` from the connection, or from the last answer on it, to a
  whole request line and headers. uvicorn has no such setting (its keep-alive timer starts
  only after an answer, and every byte restarts it), so a client sending its headers slowly,
  or nothing, held its connection for ever. The timer is cancelled when the connection
  closes, so a closed connection (and what it had buffered) is freed at once.
* **Caps**: at most ``CLIENT_CONNECTIONS`` connections from one address and ``CONNECTIONS``
  in all, fewer where the process may open fewer files (``fitted_caps``): ``FILES_KEPT`` are
  kept for the workers' pipes and the rest, and ``BACKLOG`` for the connections the event
  loop accepts at once before any is looked at, so a flood of connections never leaves the
  server without a file descriptor to accept with (asyncio then logs the failure for every
  connection waiting, and retries ever more often), or to start a worker with. A new
  connection past a cap takes the place of the oldest connection of that
  address (or, past the global cap, of the address holding the most) that has no request in
  progress: idle, or still sending its headers. If every one of them is answering a request,
  the new connection is refused (503, one line). So slow or half-open connections from one
  address cannot take every place, and cannot keep out a request that is sent whole.
* **Half-closed**: a client that sends its request whole and then closes its side
  (``shutdown(SHUT_WR)``, as ``nc -N`` does) gets its answer, then the connection closes; a
  half-close before a whole request closes the connection at once. The server cannot tell
  a half-close from a client that left (a closed tab, Stop), whose job must end at once: it
  sends ``102 Processing`` (which every HTTP/1.1 client reads past), and a client that has
  really gone answers it with a reset, which ends the connection, and its job, within
  ``PROBE_SECONDS`` (a stream's own events do the same).
* **Refusals**: an unreadable request (uvicorn's 400) and a refused connection are one JSON
  line, like every other answer of the server. A request with both Content-Length and
  Transfer-Encoding is unreadable too (one 400, then the connection closes: nothing after
  it runs), as RFC 9112 allows a server to treat it; rejected: reading it by
  Transfer-Encoding as h11 does (a proxy in front that reads Content-Length would pass a
  second request hidden in the body).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # from the connection (or the last answer on it) to a request's headers
CONNECTIONS = 256  # connections in all
CLIENT_CONNECTIONS = 32  # connections from one address: below CONNECTIONS
FILES_KEPT = 64  # file descriptors kept for the rest (workers' pipes, the forkserver, logs)
BACKLOG = 64  # connections waiting to be accepted, and accepted at once (uvicorn's backlog)
PROBE_SECONDS = 0.2  # after a half-close: how often to look whether the client has gone
PHRASES = {400: "Bad Request", 503: "Service Unavailable"}


def refusal(status: int, message: str) -> bytes:
    """A whole HTTP answer of one JSON line that closes the connection (what the app's own
    one-line errors look like)."""
    body = json.dumps({"error": message}, ensure_ascii=False, separators=(",", ":")).encode()
    head = (
        f"HTTP/1.1 {status} {PHRASES[status]}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\ncache-control: no-store\r\n"
        "x-content-type-options: nosniff\r\n\r\n"
    )
    return head.encode() + body


def fitted_caps() -> tuple[int, int]:
    """The caps on connections (in all, from one address) for this process's limit on open
    files."""
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    total = CONNECTIONS
    if files != resource.RLIM_INFINITY:
        total = max(8, min(CONNECTIONS, files - FILES_KEPT - 2 * BACKLOG))
    return total, max(2, min(CLIENT_CONNECTIONS, total // 2))


class Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the deadline, the caps, the half-close and the
    one-line refusals of this module (``caps``: in all, from one address)."""

    caps = (CONNECTIONS, CLIENT_CONNECTIONS)
    _due: asyncio.TimerHandle | None = None
    _probe: asyncio.TimerHandle | None = None
    opened = 0.0

    def connection_made(self, transport: Any) -> None:
        self.opened = time.monotonic()
        super().connection_made(transport)
        if self._room():
            self._headers_due()
        self.conn.next_event = self._checked(self.conn.next_event)  # type: ignore[method-assign]

    _why = ""  # what was wrong with the request refused with 400

    def _checked(self, next_event: Any) -> Any:
        """h11's reader, with a request that gives both Content-Length and
        Transfer-Encoding refused (h11 reads it by Transfer-Encoding; a proxy in front may
        read it by Content-Length, and a second request hidden in its body would then run):
        uvicorn answers h11's RemoteProtocolError with a 400, and the connection closes."""

        def checked() -> Any:
            event = next_event()
            if isinstance(event, h11.Request):
                names = {name.lower() for name, _ in event.headers}
                if b"content-length" in names and b"transfer-encoding" in names:
                    self._why = "a request may give Content-Length or Transfer-Encoding, not both"
                    raise h11.RemoteProtocolError(self._why, 400)
            return event

        return checked

    @property
    def host(self) -> str:
        return self.client[0] if self.client else ""

    def _waiting(self) -> bool:
        """No request in progress: idle, or still sending its headers."""
        return (self.cycle is None or self.cycle.response_complete) and (
            not self.transport.is_closing()
        )

    def _room(self) -> bool:
        """Make room for this connection under the caps (closing another one that waits), or
        refuse it: whether it stays."""
        others = [
            p
            for p in self.connections
            if p is not self and isinstance(p, Protocol) and not p.transport.is_closing()
        ]
        mine = [p for p in others if p.host == self.host]
        total, each = self.caps
        if len(mine) >= each:
            crowd = mine
        elif len(others) >= total:
            by_host: dict[str, list[Protocol]] = {}
            for p in others:
                by_host.setdefault(p.host, []).append(p)
            crowd = max(by_host.values(), key=len)
        else:
            return True
        waiting = [p for p in crowd if p._waiting()]
        if waiting:
            min(waiting, key=lambda p: p.opened).transport.close()
            return True
        self.transport.write(refusal(503, "busy: too many connections; try again in a moment"))
        self.transport.close()
        return False

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._headers_due()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._due, self._probe):  # else they keep this protocol, and its
            if timer is not None:  # buffers, alive
                timer.cancel()
        self._due = self._probe = None
        super().connection_lost(exc)

    def _headers_due(self) -> None:
        if self._due is not None:
            self._due.cancel()
        if not self.transport.is_closing():
            self._due = self.loop.call_later(HEADER_SECONDS, self._late, self.cycle)

    def _late(self, waiting: Any) -> None:
        self._due = None
        if self.cycle is waiting and not self.transport.is_closing():  # no new request since
            self.transport.close()

    def eof_received(self) -> bool | None:  # type: ignore[override]
        """The client has sent all it will send: a request it sent whole is answered, and
        the connection closes after the answer; otherwise it closes now."""
        cycle = self.cycle
        if cycle is None or cycle.response_complete or cycle.more_body:
            return None  # asyncio closes the transport
        cycle.keep_alive = False
        if not cycle.response_started:  # bytes for a client that has gone to refuse
            with contextlib.suppress(h11.LocalProtocolError):
                self.transport.write(
                    self.conn.send(
                        h11.InformationalResponse(status_code=102, headers=[], reason=b"Processing")
                    )
                )
        self._probe = self.loop.call_later(PROBE_SECONDS, self._gone)
        return True  # keep it open to write the answer

    def _gone(self) -> None:
        """After a half-close, until the answer is out: a client that has gone refused the
        last bytes sent (a reset, seen as the socket's error): end the connection, and so
        its job."""
        self._probe = None
        if self.transport.is_closing() or self.cycle is None or self.cycle.response_complete:
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self.transport.abort()
            return
        self._probe = self.loop.call_later(PROBE_SECONDS, self._gone)

    def send_400_response(self, msg: str) -> None:
        why = self._why or "not an HTTP/1.1 request this server can read"
        self.transport.write(refusal(400, why))
        self.transport.close()
