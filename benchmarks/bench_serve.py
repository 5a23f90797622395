"""The explainer's server (``python -m grader serve``): how fast a step comes,
and how it copes with many explanations at once.

    python benchmarks/bench_serve.py [--jobs N] [--grids N]

Starts the server on the loopback (one worker process by default: "on one
core") and prints:

* a step's answer for non-trial steps: from a position already explained (the
  page's case: it asks for the path first), and cold (the first request for
  a new position, which walks the path up to that step in a worker);
* a hint, and a move;
* ``--grids`` explanations of mixed grids sent at once (the SE-medium sample,
  the book's level-13 grid, a grid nesting trials, a malformed one), the wall
  time, and the latency of a trivial request (``/api/health``) meanwhile.

The issue's targets: a non-trial step under 100 ms; the trivial request
under 200 ms while 50 explanations run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import socket
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from web_helpers import DEPTH1, DEPTH2, EASY, Server  # noqa: E402


class Client:
    """One keep-alive connection with TCP_NODELAY, as a browser has it (else the
    body, written after the headers, waits for a delayed ACK: 40 ms)."""

    def __init__(self, url: str) -> None:
        u = urlsplit(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=600)
        self.conn.connect()
        assert self.conn.sock is not None
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def post(self, path: str, body: dict[str, object]) -> tuple[int, dict, float]:
        """(status, answer, server milliseconds)."""
        self.conn.request("POST", path, json.dumps(body).encode(),
                          {"content-type": "application/json"})
        r = self.conn.getresponse()
        data = json.loads(r.read())
        server = float((r.getheader("server-timing") or "dur=0").split("dur=")[1])
        return r.status, data, server

    def get(self, path: str) -> int:
        self.conn.request("GET", path)
        r = self.conn.getresponse()
        r.read()
        return r.status


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(len(xs) * 0.95))]
    return (f"median {statistics.median(xs) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  "
            f"max {xs[-1] * 1000:6.1f} ms  (n={len(xs)})")


def timed(c: Client, path: str, body: dict[str, object],
          server: list[float] | None = None) -> float:
    t0 = time.perf_counter()
    status, data, took = c.post(path, body)
    wall = time.perf_counter() - t0
    assert status == 200, data
    if server is not None:
        server.append(took / 1000)
    return wall


def grids(n: int) -> list[str]:
    lines = (ROOT / "puzzles" / "se-medium-500.txt").read_text().splitlines()
    plain = [ln.split()[0] for ln in lines if ln and not ln.startswith("#")]
    return plain[:n]


def steps(c: Client) -> None:
    cached, cold, inside = [], [], []
    for g in [EASY, DEPTH1, DEPTH2, *grids(12)]:
        _, e, _ = c.post("/api/explain", {"grid": g})
        for s in [s for s in e["steps"] if not s["trial"]][:8]:
            cached.append(timed(c, "/api/step", {"grid": g, "number": s["number"]}, inside))
    for g in grids(40)[12:]:  # positions the server has not seen: the path walked to step 1
        cold.append(timed(c, "/api/step", {"grid": g, "number": 1}))
    print(f"step, position explained before: {ms(cached)}")
    print(f"   of which in the server:        {ms(inside)}")
    print(f"step, cold (new position, step 1): {ms(cold)}")
    hints = [timed(c, "/api/hint", {"grid": DEPTH1, "after": k, "level": lvl})
             for k in range(0, 30, 3) for lvl in ("technique", "where", "full")]
    print(f"hint (all three levels):           {ms(hints)}")
    moves = [timed(c, "/api/moves", {"grid": EASY, "after": k, "move": "r1c3=2"})
             for k in range(0, 10)]
    print(f"move (the steps taken folded in):  {ms(moves)}")


def _ping(url: str, stop: object, out: object) -> None:
    """In a process of its own: /api/health every 50 ms until ``stop`` is set."""
    c = Client(url)
    while not stop.is_set():  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        c.get("/api/health")
        out.put(time.perf_counter() - t0)  # type: ignore[attr-defined]
        time.sleep(0.05)


def load(url: str, count: int) -> None:
    mixed = [*grids(count - 5), DEPTH1, DEPTH2, EASY, EASY, "1" + "." * 80][:count]

    def explain(g: str) -> int:
        return Client(url).post("/api/explain", {"grid": g})[0]

    ctx = mp.get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    pinger = ctx.Process(target=_ping, args=(url, stop, out))
    pinger.start()
    time.sleep(1.0)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(count) as pool:
        codes = list(pool.map(explain, mixed))
    wall = time.perf_counter() - t0
    stop.set()
    pinger.join()
    pings = []
    while not out.empty():
        pings.append(out.get())
    print(f"{count} explanations at once: {wall:.2f} s wall, answers "
          f"{ {k: codes.count(k) for k in sorted(set(codes))} }")
    print(f"/api/health meanwhile (another process): {ms(pings)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--grids", type=int, default=50, help="explanations at once (default 50)")
    args = ap.parse_args()
    with Server("--jobs", str(args.jobs)) as s:
        print(f"server: {s.url}, {args.jobs} worker(s)")
        steps(Client(s.url))
    with Server("--jobs", str(args.jobs)) as s:  # a fresh server: nothing known yet
        load(s.url, args.grids)


if __name__ == "__main__":
    main()
