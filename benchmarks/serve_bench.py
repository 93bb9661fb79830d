"""The table server under load: K tables of one scripted person and bots.

    python benchmarks/serve_bench.py                       # K = 1, 10, 50, 200
    python benchmarks/serve_bench.py --tables 50 --moves 40
    PYTHONPATH=/path/to/other/checkout python benchmarks/serve_bench.py   # another version

For each K a real ``cardcore serve`` (a subprocess on 127.0.0.1, ``--bot-delay
0``) opens K Carrousel tables (``--table bench``, a person at seat 0 and three
greedy bots); one asyncio client per table plays the person: at each of his
decisions he sends the first listed move at once (Next deal / New match when
asked). Reported per K:

- move-frame latency: from sending a move to receiving the frame that shows
  it played (wall time, p50 and p95, milliseconds);
- server CPU per person move (user + system time of the server process, from
  ``/proc``, over the measured moves; each person move also lets the three
  bots move);
- errors (a connection lost, an error frame, a timeout).

The clients ask for change frames (``?changes=1``, docs/WEB.md) and rebuild
each whole frame as the page does; ``--whole-frames`` asks for whole frames
only (an older server sends those anyway).

A benchmark, not a test: numbers go in closing notes. The machine is shared:
run it when it is quiet, and compare runs made the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CONFIG = """tables:
  bench:
    game: carrousel
    players:
      - {kind: human}
      - {kind: greedy}
      - {kind: greedy}
      - {kind: greedy}
"""
TIMEOUT = 60.0  # seconds without a frame: that table counts an error and stops
RECEIVED = [0]  # characters the clients received while measured
QUERY = ["?changes=1"]  # what the clients ask for ("": whole frames, --whole-frames)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(k: int, where: Path) -> tuple[subprocess.Popen[str], list[str]]:
    (where / "games.yaml").write_text(CONFIG)
    args = [sys.executable, "-m", "cardcore.cli", "serve", "--config", str(where / "games.yaml")]
    args += ["--table", "bench"] * k
    args += ["--port", "0", "--bot-delay", "0", "--log-dir", str(where / "logs")]
    if k > 64:  # the default limit (an older server has no --max-tables: it cannot serve so many)
        args += ["--max-tables", str(k)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=where, env=env
    )
    assert proc.stdout is not None
    seats = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"the server stopped: {proc.stderr.read() if proc.stderr else ''}")
        if "(seat " in line:
            seats.append(line.split()[-1].replace("http://", "ws://").replace("/seat/", "/ws/"))
        if line.startswith("Lobby:"):
            return proc, seats
    raise SystemExit("the server did not start")


def next_frame(prev: dict[str, Any] | None, m: dict[str, Any]) -> dict[str, Any] | None:
    """The whole frame a message brings (the page's ``frames.js``)."""
    if m["type"] == "state":
        return m
    if m["type"] != "change" or prev is None or prev.get("n") != m["base"]:
        return None
    skip = {"type", "base", "view", "view_drop", "history_drop", "history_add"}
    f = {**prev, **{k: v for k, v in m.items() if k not in skip}}
    if "view" in m:
        f["view"] = None if m["view"] is None else {**(prev["view"] or {}), **m["view"]}
    for k in m.get("view_drop", []):
        f["view"].pop(k, None)
    if "history_drop" in m or "history_add" in m:
        f["history"] = prev["history"][m.get("history_drop", 0) :] + m.get("history_add", [])
    return f


async def person(url: str, moves: int, out: list[float], errors: list[str], started: asyncio.Event) -> None:
    import socket
    from urllib.parse import urlsplit

    from websockets.asyncio.client import connect

    where = urlsplit(url)
    for _ in range(100):  # the server prints its links just before it listens
        try:
            sock = socket.create_connection((where.hostname, where.port), timeout=TIMEOUT)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as a browser does
            sock.setblocking(False)
            ws = await connect(url, sock=sock, open_timeout=TIMEOUT, max_size=None)
            break
        except OSError:
            await asyncio.sleep(0.05)
    else:
        errors.append("cannot connect")
        return
    async with ws:
        await started.wait()
        answered: set[int] = set()
        sent_at: float | None = None
        seq_sent = -1
        played = 0
        held: dict[str, Any] | None = None
        try:
            while played < moves:
                text = await asyncio.wait_for(ws.recv(), TIMEOUT)
                if started.is_set():
                    RECEIVED[0] += len(text)
                message = json.loads(text)
                if message["type"] not in ("state", "change"):
                    if "not over" not in message.get("error", ""):  # a Next pressed twice: harmless
                        errors.append(message.get("error", "?"))
                    continue
                frame = next_frame(held, message)
                if frame is None:
                    errors.append(f"change {message.get('n')} on base {message.get('base')}: not held")
                    return
                held = frame
                if sent_at is not None and frame["seq"] > seq_sent:
                    out.append(time.perf_counter() - sent_at)
                    sent_at = None
                    played += 1
                st = frame["status"]
                if st["phase"] == "error":
                    errors.append(st["error"])
                    return
                if frame["moves"] and frame["decision"] not in answered and sent_at is None:
                    answered.add(frame["decision"])
                    seq_sent = frame["seq"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "decision": frame["decision"], "index": 0}))
                elif st["phase"] == "deal_over" and frame["you"] not in st["ready"]:
                    await ws.send(json.dumps({"type": "next"}))
                elif st["phase"] == "match_over":
                    await ws.send(json.dumps({"type": "new_match"}))
        except (TimeoutError, OSError, Exception) as err:  # a benchmark reports, it does not stop
            errors.append(f"{type(err).__name__}: {err}"[:120])


async def run_clients(seats: list[str], moves: int, pid: int) -> tuple[list[float], list[str], float, float]:
    out: list[float] = []
    errors: list[str] = []
    started = asyncio.Event()
    tasks = [asyncio.create_task(person(u + QUERY[0], moves, out, errors, started)) for u in seats]
    await asyncio.sleep(1.0)  # every connection open and its first frame sent
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    RECEIVED[0] = 0
    started.set()
    await asyncio.gather(*tasks)
    return out, errors, cpu_seconds(pid) - cpu0, time.perf_counter() - t0


def measure(k: int, moves: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, seats = start_server(k, Path(tmp))
        try:
            lat, errors, cpu, wall = asyncio.run(run_clients(seats, moves, proc.pid))
        finally:
            proc.send_signal(2)
            try:
                proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat.sort()
    pct = (lambda q: 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]) if lat else (lambda q: float("nan"))
    return {
        "tables": k,
        "moves": len(lat),
        "p50_ms": round(pct(0.50), 1),
        "p95_ms": round(pct(0.95), 1),
        "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
        "server_cpu_ms_per_move": round(1000 * cpu / max(1, len(lat)), 2),
        "server_cpu_share": round(cpu / wall, 2),
        "wall_s": round(wall, 1),
        "kb_received_per_move": round(RECEIVED[0] / 1000 / max(1, len(lat)), 1),
        "errors": len(errors),
        "first_errors": errors[:3],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 10, 50, 200])
    ap.add_argument("--moves", type=int, default=30, help="person moves per table")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--whole-frames", action="store_true", help="ask for whole frames only (no changes)")
    args = ap.parse_args()
    if args.whole_frames:
        QUERY[0] = ""
    import cardcore

    print(f"cardcore from {Path(cardcore.__file__).parent}", file=sys.stderr)
    for k in args.tables:
        row = measure(k, args.moves)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"K={k:>3}: {row['moves']} moves, latency p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms; "
                f"server CPU {row['server_cpu_ms_per_move']} ms per move ({row['server_cpu_share']:.0%} "
                f"of a core); {row['kb_received_per_move']} kB received per move; "
                f"{row['errors']} errors {row['first_errors'] or ''}",
                flush=True,
            )


if __name__ == "__main__":
    main()
