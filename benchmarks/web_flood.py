"""One connection floods a table; how does the table next to it fare?

    python benchmarks/web_flood.py                      # this checkout
    python benchmarks/web_flood.py --compare 9566618    # that revision first (a git worktree), then this one
    python benchmarks/web_flood.py --moves 60 --json    # more moves; one JSON line per phase

A real ``cardcore serve`` (a subprocess on 127.0.0.1, ``--bot-delay 0``)
opens two Carrousel tables of one person and three greedy bots: the
*neighbour*, whose person (this script) plays ``--moves`` moves per phase,
each timed from sending it to the frame that shows it played; and the
*target*, where a flooder (a subprocess of its own, so that it takes no CPU
from the timing) sends as fast as it can, reconnecting whenever it is
closed. Phases:

- ``quiet``: nobody floods;
- ``resync``: ``{"type": "resync"}`` on the target's public watch link;
- ``why``: ``{"type": "why"}`` for each card of the hand in turn, from the
  target's person's link, at his decision.

Reported per phase: the neighbour's move time (p50, p95, max, milliseconds),
the server's RSS (MB: at the start of the phase and its peak, sampled every
50 ms), the messages the flooder sent and how many times it was closed (and
with which codes). Loopback only; each phase ends by itself (``--moves``, at
most ``--seconds``).

A benchmark, not a test (``tests/test_web_floods.py`` runs the same phases
with bounds): numbers go in closing notes. The machine is shared: compare
runs made the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIG = """tables:
  neighbour:
    game: carrousel
    players: [{kind: human}, {kind: greedy}, {kind: greedy}, {kind: greedy}]
  target:
    game: carrousel
    players: [{kind: human}, {kind: greedy}, {kind: greedy}, {kind: greedy}]
"""
WAIT = 30.0  # seconds without a frame: the run stops with an error
SOURCES = {"resync": "127.0.0.2", "why": "127.0.0.3"}  # the flooders' loopback addresses


class Server:
    """``cardcore serve`` of ``checkout`` (its code on PYTHONPATH) with the two tables."""

    def __init__(self, where: Path, checkout: Path = ROOT) -> None:
        (where / "games.yaml").write_text(CONFIG)
        args = [sys.executable, "-m", "cardcore.cli", "serve", "--config", str(where / "games.yaml")]
        args += ["--table", "neighbour", "--table", "target", "--port", "0", "--bot-delay", "0"]
        args += ["--log-dir", str(where / "logs")]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(checkout)}
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=where, env=env
        )
        assert self.proc.stdout is not None
        tables: list[dict[str, str]] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline().strip()
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise SystemExit(f"the server stopped: {err}")
            if ": table " in line:
                tables.append({})
            elif "(seat " in line:
                tables[-1]["seat"] = ws_url(line.split()[-1])
            elif line.startswith("watch:"):
                tables[-1]["watch"] = ws_url(line.split()[-1])
            elif line.startswith("Lobby:"):
                self.neighbour, self.target = tables
                break
        else:
            raise SystemExit("the server did not start")
        self.wait_listening()

    def wait_listening(self) -> None:
        import socket
        from urllib.parse import urlsplit

        where = urlsplit(self.neighbour["seat"])
        for _ in range(400):
            try:
                socket.create_connection((where.hostname, where.port), timeout=WAIT).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not listen")

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmRSS:"))) / 1024

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()


def ws_url(link: str) -> str:
    return link.replace("http://", "ws://").replace("/seat/", "/ws/").replace("/watch/", "/ws/")


class Neighbour:
    """The neighbour table's person: plays the first listed move, timed."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(connect(url, open_timeout=WAIT, max_size=None))
        self.answered: set[int] = set()
        self.frame: dict[str, Any] | None = None

    def _next_state(self) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=WAIT))
            if message["type"] == "state":
                self.frame = message
                return message

    def _decision(self) -> dict[str, Any]:
        """The next frame where he is to move (pressing Next deal / New match on the way)."""
        frame = self.frame or self._next_state()
        while True:
            st = frame["status"]
            if st["phase"] == "error":
                raise SystemExit(f"the neighbour table stopped: {st['error']}")
            if frame["moves"] and frame["decision"] not in self.answered:
                return frame
            if st["phase"] == "deal_over" and frame["you"] not in st["ready"]:
                self.ws.send(json.dumps({"type": "next"}))
            elif st["phase"] == "match_over":
                self.ws.send(json.dumps({"type": "new_match"}))
            frame = self._next_state()

    def moves(self, n: int, seconds: float) -> list[float]:
        """Play up to ``n`` moves (at most ``seconds``): the time of each, from
        sending it to the frame that shows it played."""
        times: list[float] = []
        deadline = time.monotonic() + seconds
        while len(times) < n and time.monotonic() < deadline:
            frame = self._decision()
            self.answered.add(frame["decision"])
            seq = frame["seq"]
            sent = time.perf_counter()
            self.ws.send(json.dumps({"type": "move", "decision": frame["decision"], "index": 0}))
            while True:
                got = self._next_state()
                if got["seq"] > seq:
                    times.append(time.perf_counter() - sent)
                    break
        return times

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


def flooder(url: str, kind: str, seconds: float, source: str) -> None:
    """The flooder's process: send ``kind`` messages as fast as it can for
    ``seconds`` from the loopback address ``source``, reconnecting when
    closed; prints one JSON line at the end: ``{"sent", "closes": {code: times}}``."""
    import socket
    from urllib.parse import urlsplit

    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    where = urlsplit(url)

    def dial() -> socket.socket:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect((where.hostname, where.port))
        return sock

    sent = 0
    closes: dict[str, int] = {}
    stop = time.monotonic() + seconds
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while time.monotonic() < stop:
            try:
                with connect(url, sock=dial(), open_timeout=WAIT, max_size=None) as ws:
                    messages = [json.dumps({"type": "resync"})]
                    if kind == "why":
                        frame: dict[str, Any] = {}
                        while not frame.get("moves"):  # his decision, and his hand
                            got = json.loads(ws.recv(timeout=WAIT))
                            frame = got if got["type"] == "state" else frame
                        hand = frame["view"]["hand"]
                        d = frame["decision"]
                        messages = [json.dumps({"type": "why", "decision": d, "card": c}) for c in hand]
                    i = 0
                    while time.monotonic() < stop:
                        ws.send(messages[i % len(messages)])
                        sent += 1
                        i += 1
            except ConnectionClosed as closed:
                code = str(closed.rcvd.code if closed.rcvd is not None else "none")
                closes[code] = closes.get(code, 0) + 1
            except InvalidStatus as refused:  # refused before the handshake
                code = f"http {refused.response.status_code}"
                closes[code] = closes.get(code, 0) + 1
            except (OSError, TimeoutError):
                closes["error"] = closes.get("error", 0) + 1
                time.sleep(0.05)
    finally:
        print(json.dumps({"sent": sent, "closes": closes}), flush=True)


def phase(server: Server, person: Neighbour, kind: str, moves: int, seconds: float) -> dict[str, Any]:
    """One phase: the neighbour's moves while ``kind`` floods (``quiet``: nothing)."""
    peak = [server.rss_mb()]
    start_rss = peak[0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            with contextlib.suppress(OSError, StopIteration):
                peak[0] = max(peak[0], server.rss_mb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    flood = None
    if kind != "quiet":
        url = server.target["watch"] if kind == "resync" else server.target["seat"]
        source = SOURCES[kind]  # an address of its own: another's penalty is not its
        flood = subprocess.Popen(
            [sys.executable, __file__, "--flooder", url, kind, str(seconds), source],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        time.sleep(1.0)  # the flood under way
    try:
        times = person.moves(moves, seconds)
    finally:
        report: dict[str, Any] = {"sent": 0, "closes": {}}
        if flood is not None:
            flood.send_signal(signal.SIGTERM)
            out, _ = flood.communicate(timeout=WAIT)
            lines = [ln for ln in out.splitlines() if ln.startswith("{")]
            report = json.loads(lines[-1]) if lines else report
        done.set()
        sampler.join()
    ms = sorted(t * 1000 for t in times)
    return {
        "phase": kind,
        "moves": len(ms),
        "p50_ms": round(statistics.median(ms), 1) if ms else None,
        "p95_ms": round(ms[max(0, int(len(ms) * 0.95 + 0.5) - 1)], 1) if ms else None,
        "max_ms": round(ms[-1], 1) if ms else None,
        "rss_start_mb": round(start_rss, 1),
        "rss_peak_mb": round(peak[0], 1),
        "flood_sent": report["sent"],
        "flood_closes": report["closes"],
    }


def run(checkout: Path, moves: int, seconds: float, phases: list[str]) -> list[dict[str, Any]]:
    """Every phase over one server of ``checkout``."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), checkout)
        person = Neighbour(server.neighbour["seat"])
        try:
            person.moves(10, seconds)  # warm up: imports, the first deal
            return [phase(server, person, kind, moves, seconds) for kind in phases]
        finally:
            person.close()
            server.stop()


def show(label: str, rows: list[dict[str, Any]], as_json: bool) -> None:
    for row in rows:
        if as_json:
            print(json.dumps({"version": label, **row}))
            continue
        closes = ", ".join(f"{k}×{v}" for k, v in row["flood_closes"].items()) or "-"
        print(
            f"{label:>10} {row['phase']:>7}: neighbour move p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms,"
            f" max {row['max_ms']} ms ({row['moves']} moves); RSS {row['rss_start_mb']} → peak"
            f" {row['rss_peak_mb']} MB; flood sent {row['flood_sent']}, closed {closes}"
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--flooder":
        flooder(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="neighbour moves timed per phase")
    parser.add_argument("--seconds", type=float, default=60.0, help="a phase's longest")
    parser.add_argument("--phases", default="quiet,resync,why")
    parser.add_argument("--compare", metavar="REV", help="run that git revision first (a temporary worktree)")
    parser.add_argument("--json", action="store_true", help="one JSON line per phase")
    args = parser.parse_args()
    phases = args.phases.split(",")
    if args.compare:
        with tempfile.TemporaryDirectory() as tmp:
            other = Path(tmp) / "before"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(other), args.compare],
                check=True,
            )
            try:
                show(args.compare, run(other, args.moves, args.seconds, phases), args.json)
            finally:
                remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)]
                subprocess.run(remove, check=False)
    show("this", run(ROOT, args.moves, args.seconds, phases), args.json)


if __name__ == "__main__":
    main()
