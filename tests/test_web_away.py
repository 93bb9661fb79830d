"""Absent players (docs/WEB.md, "Away"): a person's seat away past the
table's limit can be handed to a bot by another person at the table, and
his link takes it back; the journal keeps it, so a resumed table is the same."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from test_web_changes import live_browser
from webcheck import AuditedSession

from cardcore.config import TableConfig
from cardcore.web.app import create_app
from cardcore.web.lobby import Lobby
from cardcore.web.store import Store

starlette_testclient = pytest.importorskip("starlette.testclient")
ROOT = Path(__file__).parent.parent
WAIT = 20  # seconds without a frame: the test fails rather than hangs
LIMIT = 0.3  # the tests' away limit, in seconds (the server's default is 180)


class Conn:
    """A websocket (whole frames) read by a thread into a queue shared by the test's connections."""

    def __init__(self, http: Any, token: str, inbox: queue.Queue[Any], stack: contextlib.ExitStack) -> None:
        self.ws = stack.enter_context(http.websocket_connect(f"/ws/{token}"))
        self.inbox = inbox
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                m = self.ws.receive_json()
                (self.frames if m["type"] == "state" else self.errors).append(
                    m if m["type"] == "state" else m["error"]
                )
                self.inbox.put((self, m))
        self.inbox.put((self, {"type": "closed"}))

    def send(self, message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def refused(self, message: Any) -> str:
        n = len(self.errors)
        self.send(message)
        deadline = time.monotonic() + WAIT
        while len(self.errors) == n:
            assert time.monotonic() < deadline, "no error came back"
            time.sleep(0.01)
        return self.errors[-1]


@contextlib.contextmanager
def served(tmp_path: Path, registry: Any, store: Store | None = None) -> Any:
    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.0, store=store)
    lobby.session_class = AuditedSession
    lobby.away_limit = LIMIT
    try:
        with starlette_testclient.TestClient(create_app(lobby, hosts=["testserver"])) as http:
            yield lobby, http
    finally:
        lobby.close()


def open_table(lobby: Lobby, kinds: list[str], options: dict[str, Any]) -> Any:
    cfg = TableConfig.model_validate(
        {"game": "paquet_voleur", "players": [{"kind": k} for k in kinds], "options": options}
    )
    session = lobby.open(cfg, "away", 3)
    for token in list(session.links.values()):  # every person took his seat: the table begins
        lobby.claim(token)  # (a table waits for its people); none of them has his page open yet
    return session


def drive(conn: Conn, rng: random.Random, until: Any, answered: set[int]) -> dict[str, Any]:
    """Play ``conn``'s seat (random moves, Next deal) until a frame passes ``until``."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game did not get there"
        who, m = conn.inbox.get(timeout=WAIT)
        if who is not conn or m["type"] != "state":
            continue
        st = m["status"]
        assert st["phase"] != "error", st["error"]
        if m["moves"] and m["decision"] not in answered:  # answered even when it is the frame awaited:
            answered.add(m["decision"])  # the same frame does not come again
            conn.send({"type": "move", "decision": m["decision"], "index": rng.choice(m["moves"])["index"]})
        elif st["phase"] == "deal_over" and m["you"] not in st["ready"]:
            conn.send({"type": "next"})
        if until(m):
            return m


def test_an_absent_person_is_played_by_a_bot_and_takes_his_seat_back(tmp_path, registry):
    """B took his seat but never opens the table: A may not hand B's seat to a bot before the limit, then
    may; the bot plays B's moves and the deal's end does not wait for B; B's
    link takes the seat back, and B's next decision is his own again."""
    with served(tmp_path, registry) as (lobby, http):
        # a longer limit here: the refusal below must reach the server before the limit
        # passes (at 0.3 s a loaded machine let it pass: the seat was handed over, no refusal)
        lobby.away_limit = 2.0
        session = open_table(lobby, ["human", "human", "greedy"], {"deals": 3})
        a_seat, b_seat = session.people
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            a = Conn(http, session.links[a_seat], inbox, stack)
            watcher = Conn(http, session.watch_link, inbox, stack)
            answered: set[int] = set()
            rng = random.Random(1)
            first = drive(a, rng, lambda f: True, answered)
            b = first["seats"][b_seat]
            assert not b["connected"] and not b["covered"] and b["away_since"] is not None
            if not b["coverable"]:  # the table is younger than the limit
                assert "away less than" in a.refused({"type": "cover", "seat": b_seat})
            assert "another person" in a.refused({"type": "cover", "seat": a_seat})
            assert "another person" in a.refused({"type": "cover", "seat": 2})  # a bot's seat
            assert "another person" in a.refused({"type": "cover", "seat": "1"})
            assert "spectator" in watcher.refused({"type": "cover", "seat": b_seat})
            drive(
                a, rng, lambda f: f["seats"][b_seat]["coverable"], answered
            )  # a frame when the limit passes
            a.send({"type": "cover", "seat": b_seat})
            drive(a, rng, lambda f: f["seats"][b_seat]["covered"], answered)
            # the bot plays for B: two deals go by with B's moves, and the deal's end waits for A only
            over = drive(
                a, rng, lambda f: f["status"]["deal"] == 2 and f["status"]["phase"] == "playing", answered
            )
            assert over["seats"][b_seat]["covered"]
            assert any(line["seat"] == b_seat for f in a.frames for line in f["history"])
            assert not session.connected(b_seat)
            b_conn = Conn(http, session.links[b_seat], inbox, stack)  # his link: the seat is his again
            back = drive(a, rng, lambda f: not f["seats"][b_seat]["covered"], answered)
            assert back["seats"][b_seat]["connected"] and back["seats"][b_seat]["away_since"] is None
            deadline = time.monotonic() + WAIT
            nexts: set[tuple[int, int]] = set()
            while not any(f["moves"] for f in b_conn.frames):  # B is asked, no bot plays for him
                assert time.monotonic() < deadline, "B was never asked to move"
                with contextlib.suppress(queue.Empty):
                    inbox.get(timeout=0.05)
                for conn in (a, b_conn):  # each plays from the last frame it got
                    m = conn.frames[-1] if conn.frames else None
                    if m is None:
                        continue
                    st = m["status"]
                    if conn is a and m["moves"] and m["decision"] not in answered:
                        answered.add(m["decision"])
                        a.send({"type": "move", "decision": m["decision"], "index": 0})
                    elif st["phase"] == "deal_over" and (m["you"], st["deal"]) not in nexts:
                        nexts.add((m["you"], st["deal"]))
                        conn.send({"type": "next"})
            asked = next(f for f in b_conn.frames if f["moves"])
            time.sleep(0.2)
            assert session.waiting(b_seat) == asked["decision"]  # waiting for him
            for f in [*a.frames, *watcher.frames, *b_conn.frames]:
                session.checker.check(f)


def test_a_seat_handed_to_a_bot_stays_so_after_a_restart(tmp_path, registry):
    """The journal records the hand-over: a resumed table still has the bot
    playing for B (the same links), until B's link takes it back; the log replays."""
    store = Store(tmp_path / "tables.db")
    with served(tmp_path, registry, store) as (lobby, http):
        session = open_table(lobby, ["human", "human", "greedy"], {"deals": 5})
        a_seat, b_seat = session.people
        links = dict(session.links)
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            a = Conn(http, links[a_seat], inbox, stack)
            answered: set[int] = set()
            rng = random.Random(2)
            drive(a, rng, lambda f: f["seats"][b_seat]["coverable"], answered)
            a.send({"type": "cover", "seat": b_seat})
            drive(a, rng, lambda f: f["seats"][b_seat]["covered"] and len(f["history"]) > 4, answered)
        table_id = session.id
    store.close()
    assert [e["t"] for e in Store(tmp_path / "tables.db").journal(table_id)].count("cover") == 1
    store = Store(tmp_path / "tables.db")
    with served(tmp_path, registry, store) as (lobby, http):
        (again,) = lobby.resume()
        assert again.id == table_id
        inbox = queue.Queue()
        with contextlib.ExitStack() as stack:
            a = Conn(http, links[a_seat], inbox, stack)
            answered = set()
            rng = random.Random(3)
            f = drive(a, rng, lambda f: f["seq"] > 0, answered)
            assert f["seats"][b_seat]["covered"] and not f["seats"][b_seat]["connected"]
            moves_before = sum(line["seat"] == b_seat for line in f["history"])
            later = drive(
                a,
                rng,
                lambda f: sum(line["seat"] == b_seat for line in f["history"]) > moves_before,
                answered,
            )  # the bot goes on playing for B
            assert later["seats"][b_seat]["covered"]
            Conn(http, links[b_seat], inbox, stack)
            drive(a, rng, lambda f: not f["seats"][b_seat]["covered"], answered)
        log = again.log_path
    store.close()
    kinds = [e["t"] for e in Store(tmp_path / "tables.db").journal(table_id)]
    assert kinds.count("cover") == kinds.count("uncover") == 1 and kinds.index("cover") < kinds.index(
        "uncover"
    )
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0, out


@pytest.mark.browser
def test_the_page_offers_to_hand_an_absent_seat_to_a_bot(tmp_path, registry):
    """In Chromium: A's page shows "Let a bot play for Player 2" once B is
    away past the limit; clicking it hands the seat to a bot, and the page says so."""
    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.0)
    lobby.away_limit = LIMIT
    with live_browser(lobby) as (base, browser):
        session = open_table(lobby, ["human", "human", "greedy"], {"deals": 3})
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(f"{base}/seat/{session.links[session.people[0]]}")
        button = page.locator("#away button.cover")
        button.wait_for(timeout=WAIT * 1000)
        assert button.inner_text() == "Let a bot play for Player 2"
        button.click()
        page.wait_for_selector("#away .away-note", timeout=WAIT * 1000)
        assert "A bot plays for Player 2" in page.inner_text("#away")
        assert session.summary()["seats"][session.people[1]]["covered"]
        assert errors == []
