"""One server per store (docs/WEB.md, "Nothing lost" and "When things go
wrong"): a second server over the same store is refused before it opens it,
a server whose port is taken touches no store, a broken row or a broken file
is said in one line (the other tables resume; a broken file is left as it
is), and a store that cannot save stops the table in words and keeps it."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from test_web_away import Conn, served

from cardcore.config import TableConfig
from cardcore.web.lobby import Lobby
from cardcore.web.store import Store

pytest.importorskip("starlette.testclient")
ROOT = Path(__file__).parent.parent
WAIT = 20  # seconds without a line or a frame: the test fails rather than hangs
TWO = {"game": "paquet_voleur", "players": [{"kind": "human"}, {"kind": "greedy"}], "options": {"deals": 3}}


# ---- servers in processes of their own (127.0.0.1, killed at the end) ------
class Server:
    """``cardcore serve`` in a process: its output read by a thread, so that a
    test waits for a line with a deadline rather than for ever."""

    def __init__(self, log_dir: Path, *args: str, port: int = 0) -> None:
        command = [sys.executable, "-m", "cardcore.cli", "serve", *args, "--host", "127.0.0.1"]
        command += ["--port", str(port), "--log-dir", str(log_dir), "--bot-delay", "0"]
        self.proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            cwd=log_dir.parent,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.out: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def started(self) -> list[str]:
        """The lines printed up to the lobby's (the server listens then)."""
        while not self.out or not self.out[-1].startswith("Lobby:"):
            line = self.lines.get(timeout=WAIT)
            assert line is not None, self.stop()
            self.out.append(line)
        return self.out

    @property
    def base(self) -> str:
        return self.started()[-1].split()[1].rstrip("/")

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def stop(self) -> str:
        """SIGINT (as Ctrl-C), then SIGKILL if it does not stop: its stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        assert self.proc.stderr is not None
        return self.proc.stderr.read()


@contextlib.contextmanager
def running(log_dir: Path, *args: str) -> Iterator[Server]:
    server = Server(log_dir, *args)
    try:
        server.started()
        yield server
    finally:
        server.stop()


def refused(log_dir: Path, port: int = 0) -> subprocess.CompletedProcess[str]:
    """A second ``cardcore serve`` run to its end (it is to be refused)."""
    command = [sys.executable, "-m", "cardcore.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.run(
        [*command, "--log-dir", str(log_dir), "--bot-delay", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=log_dir.parent,
    )


def play(ws_url: str, moves: int) -> int:
    """Play ``moves`` moves of the link's seat (the first legal one each time,
    *Next deal* when asked); each is applied (a later decision is shown) before
    the next is sent. The moves played."""
    from websockets.sync.client import connect

    played = 0
    sent: int | None = None
    deadline = time.monotonic() + 60
    with connect(ws_url) as ws:
        while played < moves:
            assert time.monotonic() < deadline, "the game did not get there"
            frame = json.loads(ws.recv(timeout=WAIT))
            if frame["type"] != "state":
                continue
            status = frame["status"]
            assert status["phase"] != "error", status["error"]
            if frame["moves"] and frame["decision"] != sent:
                if sent is not None:
                    played += 1  # the earlier one was applied: this is a later decision
                    if played == moves:
                        break
                sent = frame["decision"]
                ws.send(json.dumps({"type": "move", "decision": sent, "index": frame["moves"][0]["index"]}))
            elif status["phase"] == "deal_over" and frame["you"] not in status["ready"]:
                ws.send(json.dumps({"type": "next"}))
    return played


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def journal_moves(db: Path, seat: int) -> int:
    store = Store(db)
    try:
        (table_id,) = [i for i, _ in store.open_tables()]
        return sum(e["t"] == "move" and e["seat"] == seat for e in store.journal(table_id))
    finally:
        store.close()


# ---- one server per store ------------------------------------------------------
def test_a_second_server_over_the_same_store_is_refused_and_nothing_is_lost(tmp_path):
    logs = tmp_path / "logs"
    first = Server(logs, "paquet_voleur", "--seed", "7")
    try:
        lines = first.started()
        (seat,) = [ln.split()[-1] for ln in lines if "(seat " in ln]
        ws_url = seat.replace("http://", "ws://").replace("/seat/", "/ws/")
        played = play(ws_url, 3)
        second = refused(logs)
        said = second.stderr.strip()
        assert second.returncode == 2, second.stderr
        assert len(said.splitlines()) == 1 and "Traceback" not in said, said
        assert str(logs) in said and f"pid {first.proc.pid}" in said, said
        assert "Resumed" not in second.stdout and "Lobby" not in second.stdout
        played += play(ws_url, 2)  # the first server's table goes on, its links the same
    finally:
        err = first.stop()
    assert first.proc.returncode == 0 and "Traceback" not in err and "IntegrityError" not in err, err
    assert journal_moves(logs / "tables.db", 0) == played  # every move kept, once
    (log,) = logs.glob("*.jsonl")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0, out
    again = Server(logs, port=first.port)  # the lock went with the first: the table resumes, same links
    try:
        assert any(line.startswith("Resumed") for line in again.started())
        assert play(ws_url, 1) == 1
    finally:
        err = again.stop()
    assert again.proc.returncode == 0, err
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0, out


def test_a_server_whose_port_is_taken_is_refused_before_it_opens_its_store(tmp_path, registry):
    kept = tmp_path / "kept"
    store = Store(kept / "tables.db")  # a store holding a table, as a stopped server leaves it
    lobby = Lobby(registry, None, kept, store=store)
    lobby.open(TableConfig.model_validate(TWO), "kept")
    lobby.close()
    store.close()
    before = files(kept)
    assert "tables.db" in before and any(name.endswith(".jsonl") for name in before)
    with running(tmp_path / "logs") as first:
        second = refused(kept, first.port)
    said = second.stderr.strip()
    assert second.returncode == 2, second.stderr
    assert said == f"error: port {first.port} is taken on 127.0.0.1 (another server listens there); " + (
        f"try --port {first.port + 1}"
    ), said
    assert "Resumed" not in second.stdout
    assert files(kept) == before  # no lock taken, no row written, the table's log not written anew


# ---- a broken row, a broken file -----------------------------------------------
def seated(lobby: Lobby, session: Any) -> Any:
    """``session`` with its people seated (each link's first connection): it
    begins (a table waits for its people), its first deal dealt and journaled."""
    for token in list(session.links.values()):
        lobby.claim(token)
    deadline = time.monotonic() + WAIT
    while session.status.match < 1:
        assert time.monotonic() < deadline, "the table never began"
        time.sleep(0.01)
    return session


def test_a_broken_row_is_said_and_left_out_and_the_other_tables_resume(tmp_path, registry, capsys):
    db = tmp_path / "tables.db"
    store = Store(db)
    first = Lobby(registry, None, tmp_path / "logs", store=store)
    kept, broken, unread = (
        seated(first, first.open(TableConfig.model_validate(TWO), n)) for n in ("kept", "broken", "unread")
    )
    first.close()
    store.db.execute("UPDATE tables SET data = '{oops' WHERE id = ?", (broken.id,))
    store.db.execute("UPDATE journal SET data = 'nope' WHERE table_id = ? AND n = 0", (unread.id,))
    store.close()
    capsys.readouterr()
    store = Store(db)
    again = Lobby(registry, None, tmp_path / "logs", store=store)
    try:
        (back,) = again.resume()
        assert back.id == kept.id and again.find(kept.watch_link) == (back, None)
        said = capsys.readouterr().err.splitlines()
        assert len(said) == 2, said
        assert broken.id in said[0] and "not JSON" in said[0] and "left as it is" in said[0]
        assert unread.id in said[1] and "entry 0" in said[1] and "left as it is" in said[1]
        rows = dict(store.db.execute("SELECT id, data FROM tables WHERE closed = 0").fetchall())
        assert rows[broken.id] == "{oops" and unread.id in rows  # left as they are, not closed
    finally:
        again.close()
        store.close()


@pytest.mark.parametrize("offset", [0, 4096], ids=["header", "page 2"])
def test_a_store_with_random_bytes_in_it_is_refused_in_one_line_and_left_as_it_is(tmp_path, registry, offset):
    logs = tmp_path / "logs"
    store = Store(logs / "tables.db")
    lobby = Lobby(registry, None, logs, store=store)
    for name in ("one", "two"):
        lobby.open(TableConfig.model_validate(TWO), name)
    lobby.close()
    store.close()
    db = logs / "tables.db"
    data = bytearray(db.read_bytes())
    assert len(data) > offset + 4096
    data[offset : offset + 4096] = random.Random(46).randbytes(4096)
    db.write_bytes(bytes(data))
    code, out = run_cli("serve", "--port", "0", "--log-dir", str(logs))
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert f"{db}: the server's state is broken" in out and "left as it is" in out, out
    assert db.read_bytes() == bytes(data)  # nothing written to it


# ---- a store that cannot save ----------------------------------------------------
def full(*args: Any, **kwargs: Any) -> None:
    raise sqlite3.OperationalError("database or disk is full")


def test_a_store_that_cannot_save_stops_the_table_in_words_and_keeps_it(tmp_path, registry, monkeypatch):
    db = tmp_path / "tables.db"
    store = Store(db)
    inbox: queue.Queue[Any] = queue.Queue()
    with served(tmp_path, registry, store) as (lobby, http):
        with monkeypatch.context() as patch:  # a table made while the disk is full: refused in words
            patch.setattr(Store, "add_table", full)
            made = http.post("/api/tables", json=TWO)
            assert made.status_code == 400 and "the disk is full" in made.json()["error"], made.text
            assert "OperationalError" not in made.text and not lobby.sessions
        session = lobby.open(TableConfig.model_validate(TWO), "full")
        link, table_id = session.links[0], session.id
        with monkeypatch.context() as patch:  # a seat taken while the disk is full: not taken
            patch.setattr(Store, "update_table", full)
            taken = http.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
            assert taken.status_code == 400 and "the disk is full" in taken.json()["error"], taken.text
            assert lobby.open_seats(session) == [0] and lobby.find(link) == (session, 0)
        with contextlib.ExitStack() as stack:
            me = Conn(http, link, inbox, stack)
            frame = wait(inbox, lambda f: bool(f["moves"]))
            me.send({"type": "move", "decision": frame["decision"], "index": frame["moves"][0]["index"]})
            frame = wait(inbox, lambda f: bool(f["moves"]) and f["decision"] != frame["decision"])
            saved = [e for e in store.journal(table_id) if e["t"] == "move"]
            with monkeypatch.context() as patch:
                patch.setattr(Store, "append", full)
                me.send({"type": "move", "decision": frame["decision"], "index": frame["moves"][0]["index"]})
                stopped = wait(inbox, lambda f: f["status"]["phase"] == "error")
            error = stopped["status"]["error"]
            assert "the disk is full" in error and "goes on from its last saved move" in error, error
            assert "OperationalError" not in error and stopped["status"]["error_say"]["t"].startswith(
                "this table stopped: {why}; it is kept"
            )
        closed = store.db.execute("SELECT closed FROM tables WHERE id = ?", (table_id,)).fetchone()
        assert closed == (0,)  # kept: not forgotten
        assert [e for e in store.journal(table_id) if e["t"] == "move"] == saved
    store.close()
    store = Store(db)
    inbox = queue.Queue()
    with served(tmp_path, registry, store) as (lobby, http):
        (back,) = lobby.resume()
        assert back.id == table_id
        with contextlib.ExitStack() as stack:
            me = Conn(http, link, inbox, stack)  # the same link, at the move that was not saved
            frame = wait(inbox, lambda f: bool(f["moves"]))
            assert frame["status"]["phase"] == "playing"
            me.send({"type": "move", "decision": frame["decision"], "index": frame["moves"][0]["index"]})
            wait(inbox, lambda f: f["decision"] != frame["decision"])
        log = back.log_path
    assert len([e for e in store.journal(table_id) if e["t"] == "move"]) > len(saved)
    store.close()
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0, out


def wait(inbox: queue.Queue[Any], until: Any) -> dict[str, Any]:
    """The next state frame that passes ``until`` (an error frame fails unless awaited)."""
    deadline = time.monotonic() + WAIT
    while True:
        assert time.monotonic() < deadline, "no such frame came"
        _, m = inbox.get(timeout=WAIT)
        if m["type"] != "state":
            continue
        if until(m):
            return m
        assert m["status"]["phase"] != "error", m["status"]["error"]
