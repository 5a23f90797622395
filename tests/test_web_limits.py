"""The server's limits against abandoned, idle and careless clients (issue 40),
on real sockets of the loopback: the work of a client that left is cancelled
(in the queue and in its worker), a request waits for a worker no longer than
``--queue-time``, idle and half-sent connections are closed, the Host header is
checked on the IPv6 loopback too, and ``--jobs`` is capped as ``grade -j`` is.

Every wait polls (a loaded 2-core machine is slow, never wrong), and every
bound is far from what the server takes: the failures these tests guard
against cost 30 s and more, or never end."""

from __future__ import annotations

import json
import os
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
from web_helpers import EASY, Server, needs_web, slow_grid

needs_web()
import httpx  # noqa: E402

from grader.bulk.capacity import plan_jobs, usable_cpus  # noqa: E402
from grader.web.app import host_name  # noqa: E402
from grader.web.options import ServeOptions, is_loopback, worker_count  # noqa: E402

T = TypeVar("T")


def until(check: Callable[[], T | None], seconds: float, every: float = 0.05) -> T:
    """The first true value of ``check()``, polled for at most ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"not within {seconds} s: {check.__doc__ or check}")
        time.sleep(every)


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def health(url: str) -> dict[str, Any]:
    with httpx.Client(base_url=url, timeout=30) as c:
        answer: dict[str, Any] = c.get("/api/health").json()
        return answer


def stderr_so_far(server: Server) -> str:
    """What the server wrote on standard error so far (read without waiting)."""
    assert server.proc is not None and server.proc.stderr is not None
    fd = server.proc.stderr.fileno()
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 1 << 20).decode(errors="replace")
    except BlockingIOError:
        return ""


def send(url: str, path: str, body: dict[str, Any]) -> socket.socket:
    """A client that sends a whole request and waits (closing the socket: it leaves)."""
    host, port = address(url)
    data = json.dumps(body).encode()
    sock = socket.create_connection((host, port), timeout=30)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {host if ':' not in host else f'[{host}]'}\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
                 .encode() + data)
    return sock


# -- 1. abandoned requests: their work is cancelled, the queue time is bounded ------
@pytest.fixture(scope="module")
def patient():
    """One worker, 30 s per request: a slow grid holds it 30 s unless cancelled."""
    with Server("--jobs", "1", "--time-limit", "30") as s:
        yield s


def test_the_work_of_clients_that_left_is_cancelled(patient) -> None:
    # three slow grids: one runs in the only worker, two wait; then every client leaves
    clients = [send(patient.url, "/api/explain", {"grid": slow_grid(k)}) for k in range(3)]

    def started() -> bool:
        """one job runs and two wait"""
        h = health(patient.url)
        return h.get("busy", 1) == 1 and h["waiting"] == 2

    until(started, 60)
    for c in clients:
        c.close()
    t0 = time.perf_counter()
    with httpx.Client(base_url=patient.url, timeout=60) as c:
        r = c.post("/api/grade", json={"grid": EASY})
    took = time.perf_counter() - t0
    assert r.status_code == 200 and r.json()["verdict"] == "ok", r.text
    # before: 30 s for the running grid, then 30 s for each waiting one
    assert took < 15, f"the easy grade took {took:.1f} s"

    def idle() -> dict[str, Any] | None:
        """the worker is free and nothing waits"""
        h = health(patient.url)
        return h if h["busy"] == 0 and h["waiting"] == 0 else None

    assert until(idle, 30)["cancelled"] >= 1


@pytest.fixture(scope="module")
def hurried():
    """One worker, 8 s per request, 1 s in the queue at most."""
    with Server("--jobs", "1", "--time-limit", "8", "--queue-time", "1") as s:
        yield s


def busy(url: str) -> Callable[[], bool]:
    def check() -> bool:
        """the worker is busy"""
        return bool(health(url).get("busy"))

    return check


def test_a_request_waits_for_a_worker_no_longer_than_the_queue_time(hurried) -> None:
    holder = send(hurried.url, "/api/explain", {"grid": slow_grid(6)})
    try:
        until(busy(hurried.url), 60)
        t0 = time.perf_counter()
        with httpx.Client(base_url=hurried.url, timeout=60) as c:
            r = c.post("/api/grade", json={"grid": EASY})
        took = time.perf_counter() - t0
        # before: no bound, the answer came once the slow grid was done (200)
        assert r.status_code == 503, r.text
        answer = r.json()
        assert answer["error"] == "queue-timeout"
        assert "--queue-time" in answer["detail"] and "--jobs" in answer["detail"]
        assert r.headers["retry-after"] == "1"
        assert took < 8, took  # the slow grid (8 s) was still running
        holder.settimeout(0)
        with pytest.raises(BlockingIOError):
            holder.recv(1)  # its answer has not come
    finally:
        holder.close()
    until(lambda: not busy(hurried.url)(), 30)


@pytest.mark.slow
def test_a_client_that_leaves_does_not_cancel_what_another_waits_for(hurried) -> None:
    grid = slow_grid(7)
    got: list[httpx.Response] = []

    def stay() -> None:
        with httpx.Client(base_url=hurried.url, timeout=120) as c:
            got.append(c.post("/api/explain", json={"grid": grid}))

    stayer = threading.Thread(target=stay)
    stayer.start()
    until(busy(hurried.url), 60)
    with pytest.raises(httpx.TimeoutException), \
            httpx.Client(base_url=hurried.url, timeout=0.5) as c:
        c.post("/api/explain", json={"grid": grid})  # the same work: shared, then left
    stayer.join(120)
    assert got and got[0].status_code == 504 and got[0].json()["error"] == "timeout"
    assert "--time-limit" in got[0].json()["detail"]


def test_a_job_is_cancelled_in_its_worker_which_goes_on() -> None:
    from grader.web.work import Query, Worker

    made: list[Worker] = []
    answers: list[tuple[Any, ...]] = []

    def work() -> None:  # the deadline interrupts the thread that made the worker
        made.append(Worker(None, 60.0))
        answers.append(made[0].answer("explain", (Query(slow_grid(3)), None), 7))
        answers.append(made[0].answer("grade", (Query(EASY),), 8))

    thread = threading.Thread(target=work)
    thread.start()
    worker = until(lambda: made[0] if made and made[0]._job == 7 else None, 60)
    assert not worker.cancel(6)  # not the job under way: nothing happens
    t0 = time.perf_counter()
    assert worker.cancel(7)
    thread.join(60)
    assert answers[0] == ("cancelled",)
    assert time.perf_counter() - t0 < 30  # at once, not at the 60 s deadline
    assert answers[1][0] == "ok" and answers[1][1]["verdict"] == "ok"
    assert not worker.cancel(8)  # done already


# -- 3. idle and half-sent connections are closed -----------------------------------
def test_idle_and_half_sent_connections_are_closed() -> None:
    head = b"POST /api/grade HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    kinds = {
        "idle": b"",
        "headers": head,
        "body": head + b"Content-Length: 100\r\n\r\n{\"grid\": ",
    }
    with Server("--idle-timeout", "1", "--read-timeout", "2") as s:
        host, port = address(s.url)
        socks: dict[tuple[str, int], socket.socket] = {}
        for kind, data in kinds.items():
            for i in range(10):
                sock = socket.create_connection((host, port), timeout=30)
                sock.sendall(data)
                socks[kind, i] = sock
        # slowloris: the headers a byte at a time, a byte every 0.2 s
        trickle = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
        for i in range(5):
            socks["trickle", i] = socket.create_connection((host, port), timeout=30)
        answers: dict[tuple[str, int], bytes] = {k: b"" for k in socks}
        sent = dict.fromkeys(socks, 0)
        for sock in socks.values():
            sock.setblocking(False)
        open_ = set(socks)
        t0 = time.monotonic()
        # a request sent slowly, but whole within the read timeout, is answered
        with socket.create_connection((host, port), timeout=30) as ok:
            ok.sendall(b"GET /api/health HTTP/1.1\r\n")
            time.sleep(0.3)
            ok.sendall(b"Host: 127.0.0.1\r\n\r\n")
            assert ok.recv(4096).startswith(b"HTTP/1.1 200")
        while open_ and time.monotonic() - t0 < 40:
            for key in list(open_):
                sock = socks[key]
                if key[0] == "trickle" and sent[key] < len(trickle):
                    try:
                        sock.send(trickle[sent[key]:sent[key] + 1])
                        sent[key] += 1
                    except OSError:
                        pass
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                answers[key] += data
                if not data:
                    open_.discard(key)
            time.sleep(0.2)
        took = time.monotonic() - t0
        for sock in socks.values():
            sock.close()
        # before: every one still open (uvicorn closes only idle keep-alive connections)
        assert not open_, f"{len(open_)} still open after {took:.0f} s: {sorted(open_)[:5]}"
        for key, answer in answers.items():
            if key[0] == "idle":
                assert answer == b""
            else:
                assert answer.startswith(b"HTTP/1.1 408"), (key, answer[:80])
                assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "read-timeout"
        assert max(sent.values()) < len(trickle)  # closed long before the end of its headers
        assert health(s.url)["ok"]


def test_more_connections_than_open_files_never_stop_the_server() -> None:
    # 200 open files: about 70 connections at once; 250 come at once (connecting
    # without waiting: a loaded machine is slow to accept), all idle
    with Server("--idle-timeout", "1", files=200) as s:
        host, port = address(s.url)
        socks = []
        try:
            for _ in range(250):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setblocking(False)
                sock.connect_ex((host, port))
                socks.append(sock)

            poller = select.poll()
            for sock in socks:
                poller.register(sock, select.POLLOUT)

            def settled() -> bool:
                """most connections are made (or refused)"""
                return len(poller.poll(0)) >= 100

            until(settled, 60)
            assert s.proc is not None and s.proc.poll() is None
        finally:
            for sock in socks:
                sock.close()

        def answers() -> bool:
            """the server answers again"""
            try:
                return bool(health(s.url)["ok"])
            except httpx.HTTPError:
                return False

        until(answers, 60)
        said = stderr_so_far(s)
        # before: "socket.accept() out of system resource ... Too many open files", and
        # no answer ever again
        assert "Too many open files" not in said, said[-800:]


# -- 2. the Host header on the IPv6 loopback; 4. --jobs capped -----------------------
def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


#: one worker more than the CPUs: the cap takes it off
ASKED = usable_cpus() + 1


@pytest.fixture(scope="module")
def v6():
    if not _ipv6_loopback():
        pytest.skip("no IPv6 loopback here")
    with Server("--host", "::1", "--jobs", str(ASKED)) as s:
        yield s


def test_the_host_is_checked_on_the_ipv6_loopback(v6) -> None:
    port = address(v6.url)[1]
    with httpx.Client(base_url=v6.url, timeout=60) as c:
        for host in ("evil.example", f"evil.example:{port}", "[::2]", "localhost.evil.example",
                     "127.0.0.1.evil.example", "[::1].evil.example", "[::1]:1.evil",
                     "localhost:evil"):
            r = c.get("/api/health", headers={"host": host})
            # before: 200, the trusted hosts held 127.0.0.1 and localhost only, unchecked on ::1
            assert r.status_code == 400, (host, r.text)
            assert r.json()["error"] == "bad-host"
        for host in ("[::1]", f"[::1]:{port}", "::1", "localhost", f"localhost:{port}",
                     "127.0.0.1"):
            assert c.get("/api/health", headers={"host": host}).status_code == 200, host


def test_serve_jobs_is_capped_as_grade_caps_it(v6) -> None:
    expected = plan_jobs(ASKED)[0]
    assert expected < ASKED
    # before: one worker per --jobs, whatever the CPUs
    assert health(v6.url)["workers"] == expected
    said = stderr_so_far(v6)
    assert f"serve: note: -j {ASKED}: {expected} worker" in said, said


@pytest.mark.parametrize("header, name", [
    ("[::1]:8000", "::1"), ("[::1]", "::1"), ("::1", "::1"), ("localhost:80", "localhost"),
    ("127.0.0.1", "127.0.0.1"), ("evil.example:8000", "evil.example"), ("[::1", "[::1"),
    ("[::1].evil.example", "[::1].evil.example"), ("[::1]:80x", "[::1]:80x"),
    ("localhost:x", "localhost:x"),
])
def test_the_name_of_a_host_header(header: str, name: str) -> None:
    assert host_name(header) == name


def test_what_is_the_loopback() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST", "0:0::1"):
        assert is_loopback(host), host
    for host in ("0.0.0.0", "::", "192.168.1.2", "evil.example", "", "localhost.evil", "::2"):
        assert not is_loopback(host), host


def test_jobs_are_capped_without_a_command() -> None:
    assert ServeOptions(jobs=10_000).workers == plan_jobs(10_000)[0] <= usable_cpus()
    assert ServeOptions().workers == worker_count(0) == min(4, plan_jobs(0)[0])
    assert ServeOptions().queue_limit == 30
    assert ServeOptions(time_limit=3, queue_time=0.5).queue_limit == 0.5
