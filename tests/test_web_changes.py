"""Change frames (docs/WEB.md, "Change frames"): after the first whole frame
a connection that asks for them (``?changes=1``) gets what changed; every
frame rebuilt from them (``webcheck.next_frame``, the page's ``frames.js``
written again) is the whole frame the server made, at every step."""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from webcheck import AuditedSession, next_frame, whole_frames

from cardcore.config import TableConfig
from cardcore.web import app as web_app
from cardcore.web.app import create_app
from cardcore.web.lobby import Lobby
from cardcore.web.publisher import Publisher

starlette_testclient = pytest.importorskip("starlette.testclient")
ROOT = Path(__file__).parent.parent
WAIT = 20  # seconds without a message: the test fails rather than hangs


class Recording(Publisher):
    """A publisher that keeps every whole frame it numbered, per (seat, number)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.published: dict[tuple[int | None, int], dict[str, Any]] = {}

    def publish(self, only: set[int | None] | None = None) -> None:
        super().publish(only)
        for seat in {s.seat for s in self.subs if only is None or s.seat in only}:
            n, frame, _ = self.last[seat]
            self.published.setdefault((seat, n), {**frame, "n": n, "history": list(self.history)})


class Recorded(AuditedSession):
    """A table that keeps every whole frame it numbered, per (seat, number)."""

    publisher_class = Recording

    @property
    def published(self) -> dict[tuple[int | None, int], dict[str, Any]]:
        return self.publisher.published  # type: ignore[attr-defined, no-any-return]


class Conn:
    """A websocket read by a thread: every message, in order, and each into ``inbox``."""

    def __init__(self, http: Any, url: str, inbox: queue.Queue[Any], stack: contextlib.ExitStack) -> None:
        self.ws = stack.enter_context(http.websocket_connect(url))
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.inbox = inbox
        self.frame: dict[str, Any] | None = None  # the whole frame held, rebuilt as the page does
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                text = self.ws.receive_text()
                self.texts.append(text)
                self.messages.append(json.loads(text))
                self.inbox.put((self, self.messages[-1]))
        self.inbox.put((self, {"type": "closed"}))

    def send(self, message: Any) -> None:
        self.ws.send_text(json.dumps(message))


@contextlib.contextmanager
def served(tmp_path: Path, registry: Any) -> Any:
    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.0)
    lobby.session_class = Recorded
    try:
        with starlette_testclient.TestClient(create_app(lobby, hosts=["testserver"])) as http:
            yield lobby, http
    finally:
        lobby.close()


def open_table(lobby: Lobby, game: str, kinds: list[str], options: dict[str, Any]) -> Any:
    cfg = TableConfig.model_validate(
        {"game": game, "players": [{"kind": k} for k in kinds], "options": options}
    )
    return lobby.open(cfg, game, 5)


def test_a_show_of_bots_rebuilt_from_changes_is_the_whole_frames(tmp_path, registry):
    """Two spectators of a table of bots, one asking for changes: every frame
    rebuilt from the changes is the whole frame the other was sent under the
    same number, and the changes are much smaller than the whole frames."""
    with served(tmp_path, registry) as (lobby, http):
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            lobby.bot_delay = 0.01  # the show lasts a few seconds: both spectators see it from its start
            session = open_table(lobby, "carrousel", ["greedy"] * 4, {"target": 30})
            plain = Conn(http, f"/ws/{session.watch_link}", inbox, stack)
            patched = Conn(http, f"/ws/{session.watch_link}?changes=1", inbox, stack)
            deadline = time.monotonic() + 60
            while not all(c.messages and c.messages[-1].get("status", {}).get("phase") == "stopped"
                          for c in (plain, patched)):  # fmt: skip
                assert time.monotonic() < deadline, "the show did not end"
                inbox.get(timeout=WAIT)
        assert {m["type"] for m in plain.messages} == {"state"}  # an old page: whole frames only
        kinds = [m["type"] for m in patched.messages]
        assert kinds[0] == "state" and kinds.count("change") > 40
        rebuilt = {f["n"]: f for f in whole_frames(patched.messages)}
        assert [f["n"] for f in whole_frames(patched.messages)] == sorted(rebuilt)  # numbered in order
        compared = 0
        for frame in plain.messages:
            if frame["n"] in rebuilt:
                assert rebuilt[frame["n"]] == frame, frame["n"]
                session.checker.check(rebuilt[frame["n"]])
                compared += 1
        assert compared > 40
        with session._cond:
            for n, frame in rebuilt.items():
                assert frame == session.published[(None, n)]
        whole = {m["n"]: len(t) for m, t in zip(plain.messages, plain.texts, strict=True)}
        change = {m["n"]: len(t) for m, t in zip(patched.messages, patched.texts, strict=True)}
        both = [n for n in change if n in whole and n != patched.messages[0]["n"]]
        assert sum(change[n] for n in both) < sum(whole[n] for n in both) / 3


def test_a_person_rebuilt_from_changes_at_every_step(tmp_path, registry):
    """A person (asking for changes) plays two deals against bots, with a
    spectator asking for changes: each frame rebuilt is the whole frame the
    server made for that seat under that number, and hides what it must; a
    new deal drops the last deal's history; a reconnection and a resync each
    start again from a whole frame."""
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "paquet_voleur", ["human", "greedy", "greedy"], {"deals": 3})
        inbox: queue.Queue[Any] = queue.Queue()
        rng = random.Random(4)
        with contextlib.ExitStack() as stack:
            watcher = Conn(http, f"/ws/{session.watch_link}?changes=1", inbox, stack)
            conns = [watcher]
            person: Conn | None = None
            answered: set[int] = set()
            reconnected = resynced = False
            deadline = time.monotonic() + 120
            cleared = 0
            with contextlib.ExitStack() as tab:
                person = Conn(http, f"/ws/{session.links[0]}?changes=1", inbox, tab)
                conns.append(person)
                while True:
                    assert time.monotonic() < deadline, "the deals were not played"
                    conn, m = inbox.get(timeout=WAIT)
                    assert m["type"] != "closed" or conn not in (person, watcher), "a connection closed"
                    if m["type"] not in ("state", "change"):
                        assert m["type"] != "error", m
                        continue
                    if m["type"] == "change" and m.get("history_drop") and "history_add" in m:
                        cleared += m["history_add"][0]["kind"] == "deal"
                    whole = next_frame(conn.frame, m)
                    assert whole is not None, (m.get("n"), m.get("base"), (conn.frame or {}).get("n"))
                    conn.frame = whole
                    with session._cond:  # held while a frame is published and recorded
                        assert whole == session.published[(whole["you"], whole["n"])]
                    session.checker.check(whole)
                    if conn is not person:
                        continue
                    st = whole["status"]
                    assert st["phase"] != "error", st["error"]
                    if st["deal"] == 3 or st["phase"] == "match_over":
                        break
                    if st["deal"] == 2 and not reconnected:  # a closed tab, opened again
                        reconnected = True
                        tab.close()
                        person = Conn(http, f"/ws/{session.links[0]}?changes=1", inbox, stack)
                        conns.append(person)
                        continue
                    if len(person.messages) > 30 and not resynced:  # the page asks for a whole frame
                        resynced = True
                        resync_conn, at = person, len(person.messages)
                        person.send({"type": "resync"})
                        continue
                    if whole["moves"] and whole["decision"] not in answered:
                        answered.add(whole["decision"])
                        move = rng.choice(whole["moves"])
                        person.send({"type": "move", "decision": whole["decision"], "index": move["index"]})
                    elif st["phase"] == "deal_over" and 0 not in st["ready"]:
                        person.send({"type": "next"})
        assert reconnected and resynced and cleared >= 1
        assert person.messages[0]["type"] == "state"  # the page opened again starts whole
        assert "state" in [m["type"] for m in resync_conn.messages[at:]]  # the resync's whole frame
        for conn in conns:
            assert conn.messages[0]["type"] == "state"
            assert sum(m["type"] == "change" for m in conn.messages) > 5


def test_a_slow_reader_of_changes_gets_one_whole_frame():
    """Past ``MAX_CHANGES`` changes waiting, the outbox drops them for one
    whole frame (asked of the table when the sender gets there); changes
    that come before it are dropped, the next after it are kept; a state
    frame still replaces one not sent."""

    async def run() -> list[tuple[str, str]]:
        out = web_app.Outbox()
        out.put("error", "e")
        for i in range(web_app.MAX_CHANGES + 5):
            out.put("change", f"c{i}")
        assert [k for k, _ in out.items] == ["error", web_app.RESYNC]
        got = [await out.get(), await out.get()]
        out.put("change", "late")  # made before the whole frame: held in it
        out.put("state", "s1")
        out.put("state", "s2")  # replaces s1, not sent yet
        out.put("change", "c-after")
        got += [await out.get(), await out.get()]
        assert not out.items and not out.overflow
        return got

    assert asyncio.run(run()) == [
        ("error", "e"),
        (web_app.RESYNC, ""),
        ("state", "s2"),
        ("change", "c-after"),
    ]


def crafted() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Whole frames in a row, each with the change message the server makes
    from the one before (``session.changes``): a view first null, keys
    changed and dropped, a history sliding past its cap, then cleared."""
    from cardcore.web.publisher import changes

    lines = [{"seat": i % 3, "text": f"line {i}", "kind": "move"} for i in range(12)]
    steps = [  # (view, history window start, end) over ``lines``
        (None, 0, 0),
        ({"hand": ["AS"], "table": []}, 0, 3),
        ({"hand": ["AS", "2H"], "table": [], "extra": 1}, 0, 5),
        ({"hand": ["2H"], "table": ["AS"]}, 2, 7),  # "extra" dropped; two lines past the cap
        ({"hand": ["2H"], "table": ["AS"]}, 9, 11),  # a new deal: all cleared, two new lines
        (None, 11, 12),
    ]
    out = []
    before = None
    for n, (view, start, end) in enumerate(steps, 1):
        frame = {"type": "state", "seq": n, "you": 0, "view": view, "status": {"deal": start}}
        now = (n, frame, (start, end))
        whole = {**frame, "n": n, "history": lines[start:end]}
        message = whole if before is None else changes(before, now, lines[start:end])
        out.append((message, whole))
        before = now
    return out


def test_changes_rebuild_crafted_frames():
    prev = None
    for message, whole in crafted():
        prev = next_frame(prev, message)
        assert prev == whole
    kinds = [set(m) for m, _ in crafted()]
    assert "view_drop" in kinds[3] and {"history_drop", "history_add"} <= kinds[3] and "status" in kinds[3]
    assert next_frame({"n": 7}, {"type": "change", "n": 9, "base": 8}) is None  # a missed base


@contextlib.contextmanager
def live_browser(lobby: Lobby) -> Any:
    """A real server over ``lobby`` on a free port of 127.0.0.1 (in a thread)
    and Chromium (Playwright): (its base URL, the browser); skipped where
    there is no Chromium, unless ``CARDCORE_REQUIRE_BROWSER`` is set."""
    import os
    import shutil
    import socket

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        assert not os.environ.get("CARDCORE_REQUIRE_BROWSER"), "no Chromium, and it is required"
        pytest.skip("no Chromium: apt-get install -y --no-upgrade chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="no Playwright (pip install playwright)")
    uvicorn = pytest.importorskip("uvicorn")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(create_app(lobby), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + WAIT
        while not srv.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--headless=new", "--no-sandbox"])
            try:
                yield f"http://127.0.0.1:{sock.getsockname()[1]}", browser
            finally:
                browser.close()
    finally:
        srv.should_exit = True
        thread.join(10)
        lobby.close()


@pytest.mark.browser
def test_the_page_rebuilds_the_same_frames(registry, tmp_path):
    """In Chromium: the page's ``frames.js`` rebuilds the crafted frames, and
    a spectator's page of a show of bots holds the last whole frame."""
    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.01)
    with live_browser(lobby) as (base, browser):
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        received: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda t: received.append(json.loads(t))))
        session = open_table(lobby, "carrousel", ["greedy"] * 4, {"target": 30})
        page.goto(f"{base}/watch/{session.watch_link}")
        rebuilt = page.evaluate(
            "(ms) => { let f = null; return ms.map((m) => (f = nextFrame(f, m))); }",
            [m for m, _ in crafted()],
        )
        assert rebuilt == [w for _, w in crafted()]
        page.wait_for_function("() => frame && frame.status.phase === 'stopped'", timeout=60_000)
        held = page.evaluate("() => frame")
        frames = whole_frames(received)
        # many steps came as changes (how many: when the page connected, a table of
        # bots beginning at once, and the machine's load, under which the
        # publisher sends fewer)
        assert held == frames[-1] and sum(m["type"] == "change" for m in received) > 10
        assert {k: v for k, v in held.items() if k != "n"} == session.frame(None)
        assert errors == []
