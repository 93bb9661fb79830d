"""The browser table's server (``cardcore serve``), through Starlette's test
client: whole deals of every game over websockets with two people and bots,
every frame checked for hidden cards, and bad input of every kind."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMES, largest_table, run_cli
from webcheck import Audit, AuditedSession

from cardcore.log import replay
from cardcore.web.app import create_app
from cardcore.web.lobby import Lobby
from cardcore.web.session import TableSession

starlette_testclient = pytest.importorskip("starlette.testclient")
ROOT = Path(__file__).parent.parent
WAIT = 20  # seconds without a frame: the test fails rather than hangs


class Client:
    """A person's browser, as the test drives it: a websocket whose frames
    a thread reads into one queue shared by all the test's clients."""

    def __init__(self, http: Any, token: str, inbox: queue.Queue[Any], stack: contextlib.ExitStack) -> None:
        self.ws = stack.enter_context(http.websocket_connect(f"/ws/{token}"))
        self.token = token
        self.inbox = inbox
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while True:
                message = self.ws.receive_json()
                if message["type"] == "state":
                    self.frames.append(message)
                else:
                    self.errors.append(message["error"])
                self.inbox.put((self, message))
        except Exception:
            self.closed.set()
            self.inbox.put((self, {"type": "closed"}))

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def refused(self, message: Any, timeout: float = WAIT) -> str:
        """Send ``message``; the error it gets back."""
        deadline = time.monotonic() + timeout
        n = len(self.errors)
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        else:
            self.send(message)
        while len(self.errors) == n:
            assert time.monotonic() < deadline, "no error came back"
            time.sleep(0.01)
        return self.errors[-1]

    def last(self) -> dict[str, Any]:
        return self.frames[-1]


def wait_for(
    clients_inbox: queue.Queue[Any], test: Any, timeout: float = WAIT
) -> tuple[Client, dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the awaited frame never came"
        client, message = clients_inbox.get(timeout=left)
        if message["type"] == "state" and test(client, message):
            return client, message


@contextlib.contextmanager
def served(tmp_path: Path, registry: Any, session_class: type[TableSession] = AuditedSession) -> Any:
    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.0)
    lobby.session_class = session_class
    try:
        with starlette_testclient.TestClient(create_app(lobby, hosts=["testserver"])) as http:
            yield lobby, http
    finally:
        lobby.close()


def open_table(
    lobby: Lobby, game: str, kinds: list[str], options: dict[str, Any], seed: int = 7
) -> TableSession:
    from cardcore.config import TableConfig

    cfg = TableConfig.model_validate(
        {"game": game, "players": [{"kind": k} for k in kinds], "options": options}
    )
    return lobby.open(cfg, game, seed)


def drive(
    inbox: queue.Queue[Any],
    audit: Audit | None,
    rng: random.Random,
    done: Any,
    limit: int = 20_000,
) -> int:
    """Answer every decision the people are asked (a random legal move) and
    every deal's end, checking each frame received, until ``done(frame)``."""
    answered: set[tuple[str, int]] = set()
    for n in range(limit):
        client, message = inbox.get(timeout=WAIT)
        if message["type"] != "state":
            assert message["type"] != "closed", "a connection closed"
            continue
        if audit is not None:
            audit.check(message)
        if done(message):
            return n
        st = message["status"]
        assert st["phase"] != "error", st["error"]
        if message["moves"] and (client.token, message["decision"]) not in answered:
            answered.add((client.token, message["decision"]))
            move = rng.choice(message["moves"])
            client.send({"type": "move", "decision": message["decision"], "index": move["index"]})
        elif st["phase"] == "deal_over" and message["you"] not in st["ready"]:
            client.send({"type": "next"})
    raise AssertionError("the game did not get there")


# every installed game: these three tuned to keep the run short, any other at
# its largest example table with people at seats 0 and 2 (or 1) and greedy bots
TUNED = {
    "carrousel": ("carrousel", ["human", "human", "greedy", "random"], {"target": 30}),
    "canasta": ("canasta", ["human", "greedy", "human", "greedy"], {}),
    "paquet_voleur": ("paquet_voleur", ["human", "greedy", "human"], {"deals": 2}),
}


def _table(game: str) -> tuple[str, list[str], dict[str, Any]]:
    players, options = largest_table(game)
    kinds = ["human", "greedy", "human", "greedy"][:players] if players > 2 else ["human", "human"]
    return TUNED.get(game) or (game, kinds + ["greedy"] * (players - len(kinds)), options)


TABLES = [_table(g) for g in GAMES]


@pytest.mark.parametrize("game,kinds,options", TABLES, ids=[t[0] for t in TABLES])
def test_two_people_and_bots_play_whole_deals(tmp_path, registry, game, kinds, options):
    """Two people over websockets and two bots (Paquet voleur: one) play two
    whole deals; no frame a seat receives names a card of another hand or of
    the stock; the log replays."""
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, game, kinds, options)
        audit = session.checker
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            people = [Client(http, session.links[s], inbox, stack) for s in session.people]
            watcher = Client(http, session.watch_link, inbox, stack)
            drive(
                inbox,
                audit,
                random.Random(1),
                lambda f: f["status"]["deal"] == 3 or f["status"]["phase"] == "match_over",
            )
            for client in [*people, watcher]:
                for frame in client.frames:
                    audit.check(frame)
                    if frame["view"] is not None:  # None: before the first deal
                        assert (frame["view"]["hand"] is None) == (frame["you"] is None)
            assert all(f["moves"] == [] for f in watcher.frames)
            assert any(f["moves"] for f in people[0].frames) and any(f["moves"] for f in people[1].frames)
            assert {f["you"] for f in people[0].frames} == {session.people[0]}
    summary = replay(session.log_path, registry)
    assert summary.deals >= 2 if session.phase != "match_over" else summary.deals >= 1
    assert summary.moves > 0


class LeakySession(AuditedSession):
    """A purpose-built leaky server: each person's view also shows the hand
    of the seat to his left."""

    def _refresh(self, state: Any) -> None:
        super()._refresh(state)
        with self._cond:
            for seat in self.people:
                left = (seat + 1) % self.table.players
                self._views[seat] = {**self._views[seat], "neighbour": [c.name for c in state.hands[left]]}


@pytest.mark.parametrize("game", ["carrousel", "canasta"])
def test_a_leaky_server_fails_the_check(tmp_path, registry, game):
    with served(tmp_path, registry, LeakySession) as (lobby, http):
        session = open_table(lobby, game, ["human", "greedy", "human", "greedy"], {})
        audit = session.checker
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            for s in session.people:
                Client(http, session.links[s], inbox, stack)
            with pytest.raises(AssertionError, match="was sent"):
                drive(inbox, audit, random.Random(1), lambda f: f["status"]["deal"] == 2)


def test_a_match_ends_a_new_one_starts_and_the_log_replays(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "paquet_voleur", ["human", "human", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            a, _ = (Client(http, session.links[s], inbox, stack) for s in session.people)
            drive(inbox, session.checker, random.Random(2), lambda f: f["status"]["phase"] == "match_over")
            _, over = wait_for(inbox, lambda c, f: f["status"]["winners"] is not None)
            assert over["status"]["result"]["sides"] and over["status"]["winners"]
            a.send({"type": "new_match"})
            wait_for(inbox, lambda c, f: f["status"]["match"] == 2 and f["status"]["phase"] == "playing")
    code, out = run_cli("replay", str(session.log_path), "--check")
    assert code == 0, out
    assert replay(session.log_path, registry).matches_ended == 1


def test_bad_messages_change_nothing(tmp_path, registry):
    """Malformed JSON, a binary frame, an unknown type, a move not in the
    list, a stale decision, a move out of turn, a spectator's move: each an
    error to that connection; the decision waiting stays as it was."""
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "carrousel", ["human", "human", "greedy", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            clients = {s: Client(http, session.links[s], inbox, stack) for s in session.people}
            watcher = Client(http, session.watch_link, inbox, stack)
            mover, frame = wait_for(inbox, lambda c, f: bool(f["moves"]))
            other = next(c for c in clients.values() if c is not mover)
            tries = [
                (mover, "{not json", "not JSON"),
                (mover, "[1, 2]", "expected a JSON object"),
                (mover, {"type": "dance"}, "unknown message type 'dance'"),
                (mover, {"type": "move", "decision": frame["decision"], "index": 999}, "no move '999'"),
                (mover, {"type": "move", "decision": frame["decision"], "index": "1"}, "no move '1'"),
                (mover, {"type": "move", "decision": frame["decision"] - 1, "index": 0}, "earlier decision"),
                (mover, {"type": "next"}, "the deal is not over"),
                (mover, {"type": "new_match"}, "the match is not over"),
                (mover, "x" * 5000, "too long"),
                (other, {"type": "move", "decision": frame["decision"], "index": 0}, "not your turn"),
                (watcher, {"type": "move", "decision": frame["decision"], "index": 0}, "spectator"),
                (mover, b"\x00\x01", "send text"),
            ]
            for client, message, error in tries:
                assert error in client.refused(message), message
            assert session.waiting(next(s for s, c in clients.items() if c is mover)) == frame["decision"]
            mover.send({"type": "move", "decision": frame["decision"], "index": 0})
            wait_for(inbox, lambda c, f: c is mover and f["decision"] != frame["decision"])


def test_unknown_links_are_refused(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "paquet_voleur", ["human", "greedy"], {})
        for url in (
            "/seat/nope",
            "/watch/nope",
            f"/watch/{session.links[0]}",
            f"/seat/{session.watch_link}",
            "/x",
        ):
            page = http.get(url)
            assert page.status_code == 404 and "No such" in page.text, url
        assert http.get(f"/seat/{session.links[0]}").status_code == 200
        with http.websocket_connect("/ws/nope") as ws:
            assert ws.receive_json() == {
                "type": "error",
                "error": "unknown link: no such seat or table",
                "say": {"t": "unknown link: no such seat or table", "d": "cardcore"},  # the same as data
                "fatal": True,
            }
            with pytest.raises(starlette_testclient.WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404


def test_a_second_window_takes_the_seat(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "paquet_voleur", ["human", "greedy", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            first = Client(http, session.links[0], inbox, stack)
            wait_for(inbox, lambda c, f: c is first and bool(f["moves"]))
            second = Client(http, session.links[0], inbox, stack)
            _, frame = wait_for(inbox, lambda c, f: c is second and bool(f["moves"]))
            assert first.closed.wait(WAIT)
            assert "another window" in first.errors[-1]
            second.send({"type": "move", "decision": frame["decision"], "index": 0})
            wait_for(inbox, lambda c, f: c is second and f["decision"] != frame["decision"])


def test_a_closed_tab_is_waited_for_and_gets_its_view_back(tmp_path, registry):
    """A person closes his tab when it is his turn: the bots do not move on;
    the other person sees him away; his link brings back the same decision."""
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "carrousel", ["human", "greedy", "human", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            a = Client(http, session.links[0], inbox, stack)
            with contextlib.ExitStack() as tab:
                b = Client(http, session.links[2], inbox, tab)
                mover, frame = wait_for(inbox, lambda c, f: bool(f["moves"]))
                if mover is a:  # play until it is b's turn
                    a.send({"type": "move", "decision": frame["decision"], "index": 0})
                    mover, frame = wait_for(inbox, lambda c, f: c is b and bool(f["moves"]))
                seen = frame["view"]
            _, away = wait_for(inbox, lambda c, f: c is a and not f["seats"][2]["connected"])
            time.sleep(0.3)
            assert session.waiting(2) == frame["decision"]  # the game waits for him
            assert a.last()["view"] == away["view"]
            back = Client(http, session.links[2], inbox, stack)
            _, again = wait_for(inbox, lambda c, f: c is back)
            assert again["decision"] == frame["decision"] and again["view"] == seen
            assert again["moves"] == frame["moves"]
            back.send({"type": "move", "decision": frame["decision"], "index": 0})
            wait_for(inbox, lambda c, f: c is back and f["decision"] != frame["decision"])


def test_the_lobby_opens_tables_and_validates_them(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        catalog = http.get("/api/catalog").json()
        assert {g["name"] for g in catalog["games"]} >= {"carrousel", "canasta", "paquet_voleur"}
        assert all("human" in g["kinds"] and "greedy" in g["kinds"] for g in catalog["games"])
        assert "karuzele" in {t["name"] for t in catalog["tables"]}
        bad = [
            ({"game": "carousel", "players": 2}, "did you mean 'carrousel'"),
            ({"game": "carrousel", "players": 9}, "players"),
            ({"game": "carrousel", "options": {"deck": 53}}, "deck"),
            ({"game": "carrousel", "players": [{"kind": "human"}, {"kind": "wizard"}]}, "players.1.kind"),
            ({"game": "carrousel", "colour": "red"}, "colour: unknown field"),
            ({"game": "carrousel", "house_rules": ["canasta.hoyle_upcard"]}, "canasta.hoyle_upcard"),
            ({"table": "nope"}, "no table 'nope'"),
            ([1, 2], "expected a JSON object"),
        ]
        for body, error in bad:
            r = http.post("/api/tables", json=body)
            assert r.status_code == 400 and error in r.json()["error"], (body, r.json())
            assert "\n" not in r.json()["error"]
        r = http.post("/api/tables", content=b"{oops", headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == "expected a JSON object"
        made = http.post("/api/tables", json={"table": "karuzele"})
        assert made.status_code == 201
        links = made.json()
        assert [s["seat"] for s in links["seats"]] == [0] and links["seats"][0]["name"] == "You"
        made = http.post(
            "/api/tables",
            json={"game": "canasta", "players": [{"kind": "human"}, {"kind": "human"}], "name": "duel"},
        )
        assert made.status_code == 201 and len(made.json()["seats"]) == 2
        listed = http.get("/api/tables").text
        assert "duel" in listed and "karuzele" in listed
        for session in lobby.sessions.values():  # the lobby shows no seat's secret link
            assert all(token not in listed for token in session.links.values())
        assert http.get("/").status_code == 200 and "Open a table" in http.get("/").text
        assert http.get("/static/table.js").status_code == 200


def test_serve_prints_links_serves_and_stops_keeping_the_log(tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore.cli", "serve", "paquet_voleur", "--seat", "1=human", "--port", "0",
         "--log-dir", str(tmp_path / "logs"), "--bot-delay", "0", "--seed", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        lines = []
        while not lines or not lines[-1].startswith("Lobby:"):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line.strip())
        seats = [ln.split()[-1] for ln in lines if "(seat " in ln]
        assert len(seats) == 2 and all("/seat/" in s for s in seats)
        import httpx2 as httpx
        from websockets.sync.client import connect

        assert httpx.get(seats[0]).status_code == 200
        assert httpx.get(lines[-1].split()[1]).status_code == 200
        ws_url = seats[0].replace("http://", "ws://").replace("/seat/", "/ws/")
        with connect(ws_url) as ws:  # bad input to a real server: errors, and no traceback
            assert json.loads(ws.recv(timeout=WAIT))["type"] == "state"
            # the first person to sit at a table the server opened starts it: seat 1 goes to a bot
            ws.send('{"type": "start"}')
            while not (frame := json.loads(ws.recv(timeout=WAIT))).get("start", {}).get("begun"):
                assert frame["type"] in ("state", "change"), frame
            for bad in ("{oops", '{"type": "move", "decision": 0, "index": 99}', b"\x00"):
                ws.send(bad)
                while (reply := json.loads(ws.recv(timeout=WAIT)))["type"] == "state":
                    pass
                assert reply["type"] == "error"
        with connect(ws_url.rsplit("/", 1)[0] + "/nope") as ws:
            assert json.loads(ws.recv(timeout=WAIT))["fatal"] is True
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Server stopped" in out
    (log,) = (tmp_path / "logs").glob("*.jsonl")
    events = [json.loads(line)["event"] for line in log.read_text().splitlines()]
    assert events[0] == "table" and "deal_start" in events  # the match in progress is kept


def test_serve_refuses_bad_arguments_in_one_line(tmp_path):
    for args, error in [
        (["serve", "carousel"], "did you mean 'carrousel'"),
        (["serve", "carrousel", "--seat", "1=wizard"], "wizard"),
        (["serve", "--table", "nope"], "no table 'nope'"),
        (["serve", "--players", "3"], "go with GAME"),
        (["serve", "canasta", "--table", "karuzele"], "not both"),
        (["serve", "--host", "256.1.1.1", "--port", "0"], "cannot listen on 256.1.1.1"),
    ]:
        code, out = run_cli(*args, "--config", str(ROOT / "games.yaml"), "--log-dir", str(tmp_path))
        assert code == 2 and error in out and len(out.strip().splitlines()) == 1, (args, out)


def test_a_hint_names_the_move_the_search_bot_would_play(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "carrousel", ["human", "greedy", "greedy", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            me = Client(http, session.links[0], inbox, stack)
            _, frame = wait_for(inbox, lambda c, f: len(f["moves"]) > 1)
            assert "for your decision" in me.refused({"type": "hint", "decision": frame["decision"] + 1})
            me.send({"type": "hint", "decision": frame["decision"]})
            _, hinted = wait_for(inbox, lambda c, f: f["hint"] is not None)
            session.checker.check(hinted)
            hint = hinted["hint"]
            assert hint["decision"] == frame["decision"] and hinted["moves"] == frame["moves"]
            # plain words, from what the search found: no bot name, no count of deals
            assert hint["text"].startswith("I would play " + frame["moves"][hint["index"]]["text"])
            assert "ismcts" not in hint["text"] and "deals)" not in hint["text"]
            assert hint["estimates"] and hint["estimates"][0]["index"] == hint["index"]
            assert all(e["text"] == frame["moves"][e["index"]]["text"] for e in hint["estimates"])
            me.send({"type": "move", "decision": frame["decision"], "index": hint["index"]})
            _, after = wait_for(inbox, lambda c, f: f["decision"] != frame["decision"])
            assert after["hint"] is None


class Broken:
    """A purpose-built broken house rule: the third move raises."""

    def __init__(self) -> None:
        self.moves = 0

    from cardcore.hookspecs import hookimpl

    @hookimpl(wrapper=True)
    def cardcore_apply_move(self, state, move):
        self.moves += 1
        if self.moves == 3:
            raise RuntimeError("boom")
        return (yield)


def test_a_broken_rule_stops_its_table_only(tmp_path, registry):
    from cardcore.game import HouseRuleSpec
    from cardcore.table import Table

    with served(tmp_path, registry) as (lobby, http):
        bad = Table(
            registry.game("paquet_voleur"),
            2,
            house_rules=[HouseRuleSpec("t.broken", "paquet_voleur", "", Broken())],
        )
        broken = lobby.start(bad, ["greedy", "greedy"], 1, "broken")
        fine = open_table(lobby, "paquet_voleur", ["human", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            Client(http, broken.watch_link, inbox, stack)
            _, frame = wait_for(inbox, lambda c, f: f["status"]["phase"] == "error")
            assert frame["status"]["error"] == "this table stopped: RuntimeError: boom"
            me = Client(http, fine.links[0], inbox, stack)
            _, frame = wait_for(inbox, lambda c, f: c is me and bool(f["moves"]))
            me.send({"type": "move", "decision": frame["decision"], "index": 0})
            wait_for(inbox, lambda c, f: c is me and f["decision"] != frame["decision"])
        assert http.get("/api/tables").status_code == 200


def test_a_table_of_bots_stops_when_the_server_does(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        lobby.bot_delay = 0.05  # slow enough to be stopped mid-match
        session = open_table(lobby, "canasta", ["greedy"] * 4, {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            Client(http, session.watch_link, inbox, stack)
            wait_for(inbox, lambda c, f: len(f["history"]) > 3)
        session.stop()
        assert session._thread is not None and not session._thread.is_alive()
        assert session.phase == "stopped"
    summary = replay(session.log_path, registry)
    assert summary.moves > 0 and not summary.complete


def _same_rank_other(frame: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """A listed discard and another card of its rank in the hand, if any."""
    for m in frame["moves"]:
        if m["kind"] == "discard" and m["card"][-1] in "CDHS":
            others = [c for c in frame["view"]["hand"] if c != m["card"] and c[:-1] == m["card"][:-1]]
            if others:
                return m, others[0]
    return None


def test_the_card_picked_is_the_one_laid(tmp_path, registry):
    """N8a: Canasta lists one discard per rank; a person who picks another
    card of that rank (``cards``) lays it, and the log replays."""
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "canasta", ["human", "greedy"], {}, seed=11)
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            me = Client(http, session.links[0], inbox, stack)
            seen, laid, deal = None, None, 0

            def wanted(c: Any, f: dict[str, Any]) -> bool:  # a new decision, or a deal to go on from
                st = f["status"]
                return (bool(f["moves"]) and f["decision"] != seen) or (
                    st["phase"] == "deal_over" and st["deal"] != deal
                )

            for _ in range(400):  # until a discard can name another card than the one listed
                _, frame = wait_for(inbox, wanted)
                assert frame["table"]["suits_matter"] is False
                if frame["status"]["phase"] == "deal_over":
                    deal = frame["status"]["deal"]
                    me.send({"type": "next"})
                    continue
                seen = frame["decision"]
                found = _same_rank_other(frame)
                move = {"type": "move", "decision": seen}
                if found is None:
                    first = next(
                        (m for m in frame["moves"] if m["kind"] in ("draw", "discard")), frame["moves"][0]
                    )
                    me.send({**move, "index": first["index"]})
                    continue
                listed, laid = found
                assert "cards:" in me.refused({**move, "index": listed["index"], "cards": [1]})
                me.send({**move, "index": listed["index"], "cards": [laid]})
                break
            assert laid is not None, "no discard with a card of the same rank in 400 frames"
            wait_for(inbox, lambda c, f: any(f"discard {laid}" in str(h) for h in f["history"]))
    code, out = run_cli("replay", str(session.log_path), "--check")
    assert code == 0, out


@pytest.mark.parametrize("game", GAMES)
def test_why_not_a_card_gives_the_games_reason(tmp_path, registry, game):
    """The browser's *why not?*: a card of the hand that plays no move gets the
    game's reason (``cardcore_explain_illegal``), in plain words for the person
    and with the ruling ids for the detail; a card that plays gets its move."""
    from cardcore.render import plain

    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, game, ["human", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            me = Client(http, session.links[0], inbox, stack)
            rng = random.Random(3)
            for _ in range(400):  # decisions, until one where a card of the hand plays no move
                _, frame = wait_for(inbox, lambda c, f: f["moves"] or f["status"]["phase"] == "deal_over")
                if frame["status"]["phase"] == "deal_over":
                    me.send({"type": "next"})
                    continue
                listed = " ".join(m["text"] for m in frame["moves"])
                idle = [c for c in frame["view"]["hand"] if c not in listed]
                rank = {c[:-1] for c in frame["view"]["hand"] if c in listed} if game == "canasta" else set()
                idle = [c for c in idle if c[:-1] not in rank]  # Canasta lists one move per rank (N8a)
                if idle:
                    break
                pick = rng.randrange(len(frame["moves"]))
                me.send({"type": "move", "decision": frame["decision"], "index": pick})
            else:
                pytest.fail("no decision with a card that plays no move")
            assert "names no card" in me.refused({"type": "why", "decision": frame["decision"], "card": "ZZ"})
            me.send({"type": "why", "decision": frame["decision"], "card": idle[0]})
            _, answered = wait_for(inbox, lambda c, f: f["why"] is not None)
            why = answered["why"]
            assert why["card"] == idle[0] and why["decision"] == frame["decision"]
            assert why["rule"], f"{game}: no reason for {idle[0]} (moves: {listed})"
            assert why["text"] == plain(why["rule"]) and why["text"]
            played = frame["moves"][0]
            some = next((c for c in frame["view"]["hand"] if c in played["text"]), None)
            if some is not None:  # a card that plays: its move named
                me.send({"type": "why", "decision": frame["decision"], "card": some})
                _, again = wait_for(inbox, lambda c, f: f["why"] is not None and f["why"]["card"] == some)
                assert again["why"]["text"].startswith(f"{some} can be played now")
            session.checker.check(answered)


def test_the_score_sheet_lists_each_deal(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "paquet_voleur", ["human", "random"], {"deals": 3})
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            me = Client(http, session.links[0], inbox, stack)
            rng = random.Random(5)
            sheets = []
            for _ in range(2000):
                _, frame = wait_for(inbox, lambda c, f: f["moves"] or f["status"]["phase"] == "deal_over")
                if frame["status"]["phase"] == "deal_over":
                    if frame["status"]["deal"] > len(sheets):  # a deal's end (not a frame after "next")
                        sheets.append(frame["status"]["sheet"])
                    if len(sheets) == 2:
                        break
                    me.send({"type": "next"})
                    continue
                pick = rng.randrange(len(frame["moves"]))
                me.send({"type": "move", "decision": frame["decision"], "index": pick})
            assert [d["deal"] for d in sheets[0]] == [1] and [d["deal"] for d in sheets[1]] == [1, 2]
            assert sheets[1][0] == sheets[0][0]
            totals = [sum(d["points"][i] for d in sheets[1]) for i in range(2)]
            assert totals == frame["status"]["scores"]
