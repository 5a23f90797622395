"""The server's HTTP protocol: uvicorn's h11 protocol with the timeouts it
lacks, so that no client holds a connection (an open file) for long.

uvicorn closes a keep-alive connection that stays idle after an answer
(``timeout_keep_alive``), but not one that never sends a request, nor one that
sends a request slowly or in part (a "slowloris" client: headers a byte at a
time, or a body shorter than its ``Content-Length``).  Here:

* **idle**: a connection without a request in progress is closed after
  ``idle_timeout`` seconds, from its opening as from its last answer;
* **half-sent**: a request must be all there (its headers and its body)
  ``read_timeout`` seconds after its first byte; past that the answer is
  408 (JSON, as the API's errors) when none was started, and the connection
  is closed.  The time counts from the first byte, not between bytes: a
  client sending a byte now and then gains nothing;
* **too many**: past ``max_connections`` open at once (derived from the limit
  of open files), a new connection is closed at once, so that the server
  always has files left for its answers and its workers.  (asyncio accepts
  up to the listening backlog at once before any protocol sees them: the
  server keeps it under :data:`RESERVED_FILES`, see
  :data:`grader.web.server.ACCEPT_BURST`.)

While a request is worked on (all of it read, its answer not yet sent) no
timer runs: the queue and work limits of the pool bound that time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: The states of the client's side while a request is not all there yet.
READING = (h11.IDLE, h11.SEND_BODY)
#: Open files kept for the server itself (its workers' pipes, its modules,
#: the files of the page) under the limit of open files.
RESERVED_FILES = 128


def connection_cap() -> int:
    """How many connections may be open at once: the limit of open files
    (``RLIMIT_NOFILE``) less :data:`RESERVED_FILES`, at least 16."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):  # pragma: no cover - every POSIX system has it
        return 1000
    if soft == resource.RLIM_INFINITY:
        return 1 << 16
    return max(16, soft - RESERVED_FILES)


def timeout_answer(seconds: float) -> bytes:
    """The raw 408 answer to a request not sent in time."""
    body = json.dumps({"error": "read-timeout",
                       "detail": f"the request was not all sent within {seconds:g} s "
                                 f"(the server's read timeout); the connection is closed"}
                      ).encode()
    head = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n")
    return head + body


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with an idle timeout from the opening of a
    connection, a read timeout for a whole request, and a cap on the
    connections open at once (see the module).  The class attributes are set
    by :func:`protocol` for a server."""

    idle_timeout: float = 5.0
    read_timeout: float = 10.0
    max_connections: int = 1000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.idle_timeout  # type: ignore[assignment]
        self._read_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.max_connections:
            transport.abort()  # not counted: connection_lost finds nothing to discard
            return
        super().connection_made(transport)
        # a connection that sends nothing is idle from the start
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_read_timer()
        if self.transport is None:  # refused in connection_made
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._read_timer is None and self.conn.their_state in READING:
            self._read_timer = self.loop.call_later(self.read_timeout, self._read_timed_out)
        super().data_received(data)
        if self.conn.their_state not in READING:
            self._stop_read_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # a pipelined request, its headers read at once, may still lack its body
        if (self._read_timer is None and not self.transport.is_closing()
                and self.conn.their_state is h11.SEND_BODY):
            self._read_timer = self.loop.call_later(self.read_timeout, self._read_timed_out)

    def _stop_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _read_timed_out(self) -> None:
        self._read_timer = None
        if self.transport.is_closing() or self.conn.their_state not in READING:
            return
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # nothing answered yet
            with contextlib.suppress(Exception):
                self.transport.write(timeout_answer(self.read_timeout))
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the application's reads end
            self.cycle.message_event.set()
        self._unset_keepalive_if_required()
        self.transport.close()


def protocol(idle_timeout: float, read_timeout: float,
             max_connections: int | None = None) -> type[H11Protocol]:
    """The protocol class of a server: :class:`TimedH11Protocol` with its limits."""
    return type("ServerProtocol", (TimedH11Protocol,),
                {"idle_timeout": idle_timeout, "read_timeout": read_timeout,
                 "max_connections": max_connections or connection_cap()})
