"""The table server as a hostile user meets it (issue 20): no seed shown or
derivable while people play, Origin and Host checks, bounded queues and
budgets, tables that close, a watchdog, and tables that survive a restart."""

from __future__ import annotations

import contextlib
import json
import queue
import time
from pathlib import Path
from typing import Any

import pytest
from test_web import WAIT, Client, served, wait_for

from cardcore import seeds
from cardcore.table import Table

PEOPLE4 = {"game": "carrousel", "players": [{"kind": "human"}] * 4}  # nobody moves before a person


def search_seed(table: Table, first_view: dict[str, Any], bits: int) -> list[int]:
    """A spectator's attack: try every seed of ``bits`` bits, deal the first
    deal as the server would, and keep the seeds whose public view is the one
    the spectator was sent (the dealer, the face-up table cards, ...): most
    often one, now and then two (another seed may deal the same table)."""
    found = []
    for seed in range(2**bits):
        state = table.new_match(seed).start_deal()
        if table.spectate(state).to_json() == first_view:
            found.append(seed)
    return found


def first_frames(http: Any, made: dict[str, Any], stack: contextlib.ExitStack) -> list[dict[str, Any]]:
    """The first dealt frame of the spectator and of every seat."""
    inbox: queue.Queue[Any] = queue.Queue()
    tokens = [made["watch"].rsplit("/", 1)[1], *(s["link"].rsplit("/", 1)[1] for s in made["seats"])]
    clients = [Client(http, t, inbox, stack) for t in tokens]
    # each client's own frames (its reader thread keeps them): waiting on the shared inbox
    # for one client would drop another's first frame that came before it (seen on CI)
    deadline = time.monotonic() + WAIT
    out = []
    for c in clients:
        while not any(f["view"] is not None for f in c.frames):
            assert time.monotonic() < deadline, "a first frame never came"
            time.sleep(0.01)
        out.append(next(f for f in c.frames if f["view"] is not None))
    return out


def test_a_spectator_cannot_recover_the_seed_or_the_hands(tmp_path, registry, monkeypatch):
    """The search works: with the seed weakened to 16 bits, trying every seed
    against the spectator's first frame finds it, and with it every hand (the
    seat pages confirm them). With the real seed (``seeds.SEED_BITS`` = 128
    bits from ``secrets``) the same search over 2**16 seeds finds nothing, and
    passes by construction: a seed is one of 2**128, equally likely, so any
    search over k seeds finds it with probability k / 2**128 (this one:
    2**-112), and the whole space at this search's speed (2**16 seeds in about
    two seconds) would take some 10**26 years."""
    table = Table(registry.game("carrousel"), 4)
    monkeypatch.setattr(seeds, "SEED_BITS", 16)  # deliberately weak: the attack must succeed
    with served(tmp_path, registry) as (lobby, http), contextlib.ExitStack() as stack:
        made = http.post("/api/tables", json=PEOPLE4).json()
        watcher, *people = first_frames(http, made, stack)
        found = search_seed(table, watcher["view"], 16)
        seed = lobby.sessions[made["id"]].seed
        assert seed in found and len(found) <= 3  # the hands known, or nearly
        state = table.new_match(seed).start_deal()
        for frame in people:  # every hand, from what the spectator saw
            assert sorted(c.name for c in state.hands[frame["you"]]) == sorted(frame["view"]["hand"])
    monkeypatch.undo()
    assert seeds.SEED_BITS >= 128
    with served(tmp_path / "real", registry) as (lobby, http), contextlib.ExitStack() as stack:
        made = http.post("/api/tables", json=PEOPLE4).json()
        watcher, *_ = first_frames(http, made, stack)
        assert search_seed(table, watcher["view"], 16) == []
        assert lobby.sessions[made["id"]].seed_given is False


def test_nothing_names_the_seed_while_people_play(tmp_path, registry):
    """Not the log's name nor its lines (the header has no seed; the match's
    lines wait for its end), not a frame, not ``/api/*``, not the pages."""
    with served(tmp_path, registry) as (lobby, http), contextlib.ExitStack() as stack:
        made = http.post("/api/tables", json={"game": "paquet_voleur", "players": [{"kind": "human"}] * 2})
        assert made.status_code == 201
        session = lobby.sessions[made.json()["id"]]
        secret = str(session.seed)
        frames = first_frames(http, made.json(), stack)
        seen = [json.dumps(f) for f in frames]
        seen += [http.get(u).text for u in ("/api/tables", "/api/catalog", made.json()["watch"])]
        seen += [made.text, session.log_path.name, session.log_path.read_text()]
        assert all(secret not in text for text in seen)
        head = json.loads(session.log_path.read_text().splitlines()[0])
        assert head["event"] == "table" and head["seed"] is None
    # stopped: the match's lines are written, its seed with them, and it replays
    from cardcore.log import replay

    assert secret in session.log_path.read_text()
    assert replay(session.log_path, registry).matches == 1


def test_the_lobby_takes_a_seed_for_people_only_if_allowed(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        people = {"game": "paquet_voleur", "players": [{"kind": "human"}, {"kind": "greedy"}], "seed": 5}
        r = http.post("/api/tables", json=people)
        assert r.status_code == 400 and r.json()["error"].startswith("seed: a table with people")
        bots = {**people, "players": [{"kind": "greedy"}] * 2}
        assert http.post("/api/tables", json=bots).status_code == 201  # bots only: a show, reproducible
        lobby.allow_seeds = True
        r = http.post("/api/tables", json=people)
        assert r.status_code == 201 and lobby.sessions[r.json()["id"]].seed == 5


def test_each_match_of_a_table_gets_a_fresh_seed(tmp_path, registry):
    """Match 1's seed is in the log once it ended: match 2's must not follow from it."""
    from cardcore.seeds import match_seed
    from cardcore.web.session import TableSession

    table = Table(registry.game("paquet_voleur"), 2)
    fresh = TableSession(table, ["greedy", "greedy"], 99, name="t", seed_given=False)
    given = TableSession(table, ["greedy", "greedy"], 99, name="t", seed_given=True)
    assert fresh._match_seed(2) != match_seed(99, 1) and given._match_seed(2) == match_seed(99, 1)
    assert fresh._match_seed(1) == given._match_seed(1) == 99


def test_serve_says_a_given_seed_is_deterministic():
    from conftest import run_cli

    code, out = run_cli("serve", "--help")
    assert code == 0 and "--allow-seeds" in out and "deterministic" in out


def test_a_foreign_host_or_origin_is_refused_everywhere(tmp_path, registry):
    """DNS rebinding (``Host: evil.example``) and a page of another site
    (``Origin``) get a 403 on every route, the websocket refused before it
    opens; the server's own origin, and one allowed, pass."""
    from starlette.testclient import TestClient, WebSocketDisconnect

    from cardcore.web.app import create_app
    from cardcore.web.lobby import Lobby

    lobby = Lobby(registry, None, tmp_path / "logs")
    app = create_app(lobby, hosts=["testserver"], origins=["http://friends.lan:8000"])
    try:
        with TestClient(app) as http:
            made = http.post(
                "/api/tables", json={"game": "paquet_voleur", "players": [{"kind": "human"}] * 2}
            )
            assert made.status_code == 201
            seat, watch = made.json()["seats"][0]["link"], made.json()["watch"]
            token = seat.rsplit("/", 1)[1]
            routes = ["/", "/api/tables", "/api/catalog", seat, watch, "/static/table.js", "/nope"]
            for headers in ({"host": "evil.example"}, {"host": "127.0.0.1.evil.example:8000"},
                            {"origin": "http://evil.example"}, {"origin": "null"},
                            {"origin": "http://testserver.evil.example"}):  # fmt: skip
                for url in routes:
                    r = http.get(url, headers=headers)
                    assert r.status_code == 403 and ("not allowed" in r.text or "unknown host" in r.text), url
                r = http.post("/api/tables", json={"game": "paquet_voleur"}, headers=headers)
                assert r.status_code == 403
                with (
                    pytest.raises(WebSocketDisconnect),
                    http.websocket_connect(f"/ws/{token}", headers=headers),
                ):
                    pass
            assert len(lobby.sessions) == 1  # nothing opened
            for headers in ({}, {"origin": "http://testserver"}, {"host": "127.0.0.1:8000"},
                            {"host": "[::1]:8000", "origin": "http://[::1]:8000"},
                            {"host": "friends.lan:8000", "origin": "http://friends.lan:8000"}):  # fmt: skip
                page = http.get(seat, headers=headers)
                assert page.status_code == 200, headers
                with http.websocket_connect(f"/ws/{token}", headers=headers) as ws:
                    assert ws.receive_json()["type"] == "state"
            page = http.get(seat)
            csp = page.headers["content-security-policy"]
            assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
            assert (
                page.headers["referrer-policy"] == "no-referrer" and page.headers["x-frame-options"] == "DENY"
            )
    finally:
        lobby.close()


def test_a_table_is_opened_only_by_json(tmp_path, registry):
    """A cross-site form can post text/plain or a form without asking the
    browser first: such a POST opens nothing (415)."""
    with served(tmp_path, registry) as (lobby, http):
        body = json.dumps({"game": "paquet_voleur"})
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
            headers = {"content-type": kind} if kind else {}
            r = http.post("/api/tables", content=body, headers=headers)
            assert r.status_code == 415 and "application/json" in r.json()["error"], kind
        assert not lobby.sessions
        r = http.post(
            "/api/tables", content=body, headers={"content-type": "application/json; charset=utf-8"}
        )
        assert r.status_code == 201


# ---- bounded by design ------------------------------------------------------
TWO_PEOPLE = {"game": "paquet_voleur", "players": [{"kind": "human"}] * 2}


def test_the_lobby_cannot_be_filled_by_one_client(tmp_path, registry):
    """A loop posting tables gets ``CREATE_BURST`` of them, then 429s; the
    lobby keeps room for the others; a table's maker closes it with his
    token (nobody else can), and a closed table's links are gone."""
    from starlette.testclient import TestClient

    from cardcore.web import lobby as lobby_module
    from cardcore.web.app import create_app
    from cardcore.web.lobby import Lobby

    lobby = Lobby(registry, None, tmp_path / "logs")
    app = create_app(lobby, hosts=["testserver"])
    try:
        with (
            TestClient(app, client=("10.0.0.1", 1)) as greedy,
            TestClient(app, client=("10.0.0.2", 1)) as other,
        ):
            answers = [greedy.post("/api/tables", json=TWO_PEOPLE) for _ in range(100)]
            made = [r.json() for r in answers if r.status_code == 201]
            assert len(made) == lobby_module.CREATE_BURST < lobby.max_tables
            assert {r.status_code for r in answers} == {201, 429}
            assert "wait" in answers[-1].json()["error"]
            mine = other.post("/api/tables", json=TWO_PEOPLE)
            assert mine.status_code == 201  # room for everyone else
            victim = made[0]
            for who, body in (
                (other, {"owner": mine.json()["owner"]}),
                (greedy, {"owner": "guess"}),
                (greedy, {}),
            ):
                r = who.request("DELETE", f"/api/tables/{victim['id']}", json=body)
                assert r.status_code in (400, 404) and victim["id"] in lobby.sessions
            r = greedy.request(
                "DELETE", f"/api/tables/{victim['id']}", content=json.dumps({"owner": victim["owner"]})
            )
            assert r.status_code == 415  # not JSON: a cross-site form closes nothing
            r = greedy.request("DELETE", f"/api/tables/{victim['id']}", json={"owner": victim["owner"]})
            assert r.status_code == 200 and victim["id"] not in lobby.sessions
            assert greedy.get(victim["seats"][0]["link"]).status_code == 404
            assert victim["id"] not in greedy.get("/api/tables").text
            lobby.max_per_client = 2  # and an address's open tables are capped too
            r = other.post("/api/tables", json=TWO_PEOPLE)
            assert r.status_code == 201
            r = other.post("/api/tables", json=TWO_PEOPLE)
            assert r.status_code == 429 and "close one first" in r.json()["error"]
    finally:
        lobby.close()


def test_idle_and_finished_tables_leave_the_count(tmp_path, registry):
    """A table nobody is at, with no move for ``idle_expiry``, stops; a
    stopped table does not count, and goes after ``keep_ended``; a show of
    bots stops with its match."""
    import time

    with served(tmp_path, registry) as (lobby, http):
        lobby.idle_expiry, lobby.keep_ended = 0.3, 0.3
        people = http.post("/api/tables", json=TWO_PEOPLE).json()["id"]
        bots = http.post("/api/tables", json={"game": "paquet_voleur", "players": [{"kind": "random"}] * 2})
        bots_id = bots.json()["id"]
        deadline = time.monotonic() + 20
        while people in lobby.sessions or bots_id in lobby.sessions:
            assert time.monotonic() < deadline, {k: s.phase for k, s in lobby.sessions.items()}
            time.sleep(0.05)
        assert http.get("/api/tables").json()["tables"] == []


def test_a_table_whose_log_cannot_be_opened_is_not_left_starting(tmp_path, registry):
    from cardcore.web.session import TableSession

    class NoDisk(TableSession):
        def start(self) -> None:
            raise OSError(28, "No space left on device")

    with served(tmp_path, registry) as (lobby, http):
        lobby.session_class = NoDisk
        r = http.post("/api/tables", json=TWO_PEOPLE)
        assert (
            r.status_code == 400
            and "cannot open the table's log (No space left on device)" in r.json()["error"]
        )
        assert lobby.sessions == {} and http.get("/api/tables").json()["tables"] == []
        lobby.session_class = TableSession
        (tmp_path / "file").write_text("")
        lobby.log_dir = tmp_path / "file"  # a file where the folder should be
        r = http.post("/api/tables", json=TWO_PEOPLE)
        assert (
            r.status_code == 400 and "cannot make the log folder" in r.json()["error"] and not lobby.sessions
        )


def test_a_bot_from_the_lobby_is_clamped(tmp_path, registry):
    from cardcore.web.lobby import BOT_LIMITS, clamp_kind

    assert clamp_kind("ismcts:iterations=1000000000") == f"ismcts:iterations={BOT_LIMITS['iterations']}"
    assert clamp_kind("ismcts:ms=99999,rollout=greedy") == f"ismcts:ms={BOT_LIMITS['ms']},rollout=greedy"
    assert clamp_kind("ismcts:iterations=50") == "ismcts:iterations=50" and clamp_kind("greedy") == "greedy"
    with served(tmp_path, registry) as (lobby, http):
        body = {
            "game": "paquet_voleur",
            "players": [{"kind": "human"}, {"kind": "ismcts:iterations=1000000000"}],
        }
        r = http.post("/api/tables", json=body)
        assert r.status_code == 201
        assert lobby.sessions[r.json()["id"]].kinds[1] == f"ismcts:iterations={BOT_LIMITS['iterations']}"


def test_a_hint_flood_runs_one_search(tmp_path, registry):
    """50 hints for one decision (within a connection's message budget, past
    which it is closed: tests/test_web_floods.py): one search, no error frame
    for the rest, and the move that follows is taken."""
    from webcheck import AuditedSession

    from cardcore.web.desk import Desk

    class CountingDesk(Desk):
        def advise(self, *args: Any) -> None:
            Counting.searches += 1
            super().advise(*args)

    class Counting(AuditedSession):
        searches = 0
        desk_class = CountingDesk

    with served(tmp_path, registry, Counting) as (_, http), contextlib.ExitStack() as stack:
        r = http.post(
            "/api/tables",
            json={"game": "carrousel", "players": [{"kind": "human"}] + [{"kind": "greedy"}] * 3},
        )
        inbox: queue.Queue[Any] = queue.Queue()
        me = Client(http, r.json()["seats"][0]["link"].rsplit("/", 1)[1], inbox, stack)
        done: set[int] = set()
        for _ in range(200):  # the seed is random: a decision with one move is answered
            _, frame = wait_for(inbox, lambda c, f: bool(f["moves"]) and f["decision"] not in done)
            if len(frame["moves"]) > 1:
                break
            done.add(frame["decision"])
            me.send({"type": "move", "decision": frame["decision"], "index": 0})
        for _ in range(50):
            me.send({"type": "hint", "decision": frame["decision"]})
        me.send({"type": "move", "decision": frame["decision"], "index": 0})
        wait_for(inbox, lambda c, f: f["decision"] != frame["decision"])
        assert Counting.searches == 1 and me.errors == []


class Hang:
    """A purpose-built house rule that hangs at the third move (until the
    test lets it go, so that no thread outlives the test)."""

    from cardcore.hookspecs import hookimpl

    def __init__(self) -> None:
        import threading

        self.moves = 0
        self.release = threading.Event()

    @hookimpl(wrapper=True)
    def cardcore_apply_move(self, state, move):
        self.moves += 1
        if self.moves == 3:
            self.release.wait(60)
        return (yield)


def test_a_hanging_house_rule_stops_its_table_only(tmp_path, registry):
    """The watchdog stops the table past ``move_timeout`` with one line
    naming the plugin, its module and the hook; another table plays on; the
    thread, when it comes back, changes nothing."""
    from test_web import open_table

    from cardcore.game import HouseRuleSpec

    hang = Hang()
    with served(tmp_path, registry) as (lobby, http), contextlib.ExitStack() as stack:
        lobby.move_timeout = 1.0
        bad = Table(
            registry.game("paquet_voleur"),
            2,
            house_rules=[HouseRuleSpec("t.hang", "paquet_voleur", "", hang)],
        )
        stuck = lobby.start(bad, ["greedy", "greedy"], 1, "stuck")
        fine = open_table(lobby, "paquet_voleur", ["human", "greedy"], {})
        inbox: queue.Queue[Any] = queue.Queue()
        Client(http, stuck.watch_link, inbox, stack)
        _, frame = wait_for(inbox, lambda c, f: f["status"]["phase"] == "error")
        error = frame["status"]["error"]
        assert error == (
            "this table stopped: plugin t.hang (module test_web_trust), hook cardcore_apply_move "
            "ran past the move timeout (1 s)"
        )
        me = Client(http, fine.links[0], inbox, stack)
        for _ in range(3):  # the other table plays on
            _, frame = wait_for(inbox, lambda c, f: c is me and bool(f["moves"]))
            me.send({"type": "move", "decision": frame["decision"], "index": 0})
        version = stuck._version
        hang.release.set()
        stuck._thread.join(WAIT)
        assert not stuck._thread.is_alive() and stuck._version == version and stuck.phase == "error"
        assert http.get("/api/tables").status_code == 200


# ---- a real server (``cardcore serve`` in a subprocess, on 127.0.0.1) -------
RSS_BOUND_MB = 40  # what 20 never-reading clients may add to the server's memory


class Served:
    """``cardcore serve ARGS`` on a free port of 127.0.0.1: its links, and stopped at the end."""

    def __init__(self, tmp_path: Any, *args: str) -> None:
        import os
        import subprocess
        import sys

        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardcore.cli", "serve", *args, "--port", "0", "--bot-delay", "0",
             "--log-dir", str(tmp_path / "logs")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        )  # fmt: skip
        self.lines: list[str] = []
        while not self.lines or not self.lines[-1].startswith("Lobby:"):
            line = self.proc.stdout.readline()
            assert line, self.proc.stderr.read()
            self.lines.append(line.strip())
        self.seats = [ln.split()[-1] for ln in self.lines if "(seat " in ln]
        self.watch = next((ln.split()[-1] for ln in self.lines if ln.startswith("watch:")), "")
        self.base = self.lines[-1].split()[1].rstrip("/")
        import socket
        import time

        host, port = self.base.removeprefix("http://").rsplit(":", 1)
        deadline = time.monotonic() + WAIT
        while True:  # the links are printed as the server starts listening
            try:
                socket.create_connection((host, int(port)), timeout=WAIT).close()
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline, "the server did not listen"
                time.sleep(0.05)

    def ws(self, link: str) -> str:
        return link.replace("http://", "ws://").replace("/seat/", "/ws/").replace("/watch/", "/ws/")

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmRSS:"))) / 1024

    def stop(self, sig: int = 2) -> tuple[int, str]:
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=WAIT)
        return self.proc.returncode, err


def play(ws: Any, moves: int, answered: set[int] | None = None, until: Any = None) -> dict[str, Any]:
    """A person at ``ws`` plays ``moves`` moves (the first listed), pressing
    *Next deal* between deals; the frame after the last (with ``until``: the
    first frame after them that passes it). ``answered``: the decisions
    answered already (a frame sent before a move arrives after it)."""
    played, answered = 0, answered if answered is not None else set()
    for _ in range(100 * moves + 100):
        frame = json.loads(ws.recv(timeout=WAIT))
        if frame["type"] != "state":
            continue
        st = frame["status"]
        assert st["phase"] != "error", st["error"]
        waiting = bool(frame["moves"]) and frame["decision"] not in answered  # a decision for us
        if played == moves:
            if until(frame, answered) if until is not None else not waiting:
                return frame  # (never a decision left unanswered, unless ``until`` wants it)
            if waiting:
                moves += 1  # not the frame awaited: this decision is answered too
        if frame["moves"] and frame["decision"] not in answered:
            answered.add(frame["decision"])
            ws.send(json.dumps({"type": "move", "decision": frame["decision"], "index": 0}))
            played += 1
        elif st["phase"] == "deal_over" and frame["you"] not in st["ready"]:
            ws.send(json.dumps({"type": "next"}))
        elif st["phase"] == "match_over":
            ws.send(json.dumps({"type": "new_match"}))
    raise AssertionError("the moves were not played")


def test_never_reading_clients_and_a_hint_flood_leave_the_server_bounded(tmp_path):
    """20 spectators that never read while a person plays 200 moves, then
    50 hints for one decision (a connection's message budget closes it past
    60 at once): the server's memory grows by less than
    ``RSS_BOUND_MB``, the flood runs one search, and the next move is applied
    (its time is printed: about a hint's search, well under a second)."""
    import socket
    import time

    from websockets.sync.client import connect

    srv = Served(tmp_path, "carrousel", "--seat", "1=greedy")
    sleepers: list[socket.socket] = []
    try:
        host, port = srv.base.removeprefix("http://").rsplit(":", 1)
        token = srv.watch.rsplit("/", 1)[1]
        for _ in range(20):  # a websocket handshake, then never a byte read
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(WAIT)
            s.connect((host, int(port)))
            s.sendall(
                f"GET /ws/{token} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            sleepers.append(s)
        with connect(srv.ws(srv.seats[0]), open_timeout=WAIT) as ws:
            answered: set[int] = set()
            play(ws, 20, answered)
            before = srv.rss_mb()
            t0 = time.monotonic()
            play(ws, 200, answered)
            grown = srv.rss_mb() - before
            print(f"\n200 moves in {time.monotonic() - t0:.1f} s")
            assert grown < RSS_BOUND_MB, f"the server grew by {grown:.0f} MB"

            def worth_a_hint(f: dict[str, Any], answered: set[int]) -> bool:
                return len(f["moves"]) > 1 and f["decision"] not in answered

            frame = play(ws, 0, answered, until=worth_a_hint)
            for _ in range(50):
                ws.send(json.dumps({"type": "hint", "decision": frame["decision"]}))
            started = time.monotonic()
            ws.send(json.dumps({"type": "move", "decision": frame["decision"], "index": 0}))
            hints = errors = 0
            while True:
                got = json.loads(ws.recv(timeout=WAIT))
                errors += got["type"] == "error" and "hint" in got["error"]  # (not a stale "next")
                if got["type"] == "state" and got.get("hint"):
                    hints += 1
                if got["type"] == "state" and got["decision"] != frame["decision"]:
                    break
            took = time.monotonic() - started
            print(f"\nserver grew {grown:.1f} MB; the move after 50 hints was applied in {took:.2f} s")
            assert errors == 0 and hints <= 1
    finally:
        for s in sleepers:
            s.close()
        code, err = srv.stop()
    assert code == 0 and "Traceback" not in err, err


def test_two_hundred_spectators(tmp_path):
    """200 spectators on one table while its person plays 30 moves: each
    spectator is sent the state after the last move; the person's game goes on."""
    import asyncio
    import threading

    from websockets.asyncio.client import connect as aconnect
    from websockets.sync.client import connect

    srv = Served(tmp_path, "paquet_voleur")
    seen: dict[int, int] = {}
    stop = threading.Event()
    ready = threading.Event()

    async def watch(i: int) -> None:
        async with aconnect(srv.ws(srv.watch), open_timeout=WAIT, max_queue=None) as ws:
            if len(seen) == 199:
                ready.set()
            seen[i] = 0
            while not stop.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                seen[i] = max(seen[i], frame.get("seq", 0))

    async def crowd() -> None:
        await asyncio.gather(*(watch(i) for i in range(200)))

    thread = threading.Thread(target=asyncio.run, args=(crowd(),), daemon=True)
    thread.start()
    try:
        assert ready.wait(WAIT), f"{len(seen)} spectators connected"
        with connect(srv.ws(srv.seats[0]), open_timeout=WAIT) as ws:
            last = play(ws, 30)
            import time

            deadline = time.monotonic() + WAIT
            while min(seen.values()) < last["seq"]:
                assert time.monotonic() < deadline, sorted(seen.values())[:5]
                time.sleep(0.05)
    finally:
        stop.set()
        thread.join(WAIT)
        code, err = srv.stop()
    assert code == 0 and "Traceback" not in err, err


# ---- nothing lost -----------------------------------------------------------
def settle(conns: dict[int, Any], latest: dict[int, dict[str, Any]], done: Any) -> None:
    """Read every seat's frames until ``done(latest)``, then what is left."""
    import time

    deadline = time.monotonic() + WAIT
    while True:
        for s, ws in conns.items():
            try:
                frame = json.loads(ws.recv(timeout=0.02))
            except TimeoutError:
                continue
            if frame["type"] == "state":
                latest[s] = frame
        if len(latest) == len(conns) and done(latest):
            break
        assert time.monotonic() < deadline, "the table did not get there"
    for s, ws in conns.items():  # the frames sent with the last one
        while True:
            try:
                frame = json.loads(ws.recv(timeout=0.1))
            except TimeoutError:
                break
            if frame["type"] == "state":
                latest[s] = frame


def waiting(latest: dict[int, dict[str, Any]], old: dict[int, Any] | None = None) -> bool:
    """The table waits for a person: a new decision, or all between deals."""
    old = old or {}
    if any(f["moves"] and f["decision"] != old.get(s) for s, f in latest.items()):
        return True
    phases = {f["status"]["phase"] for f in latest.values()}
    return phases <= {"deal_over", "match_over"} and all(
        f["you"] not in f["status"]["ready"] for f in latest.values()
    )


def step(conns: dict[int, Any], latest: dict[int, dict[str, Any]], wait: bool = True) -> int | None:
    """The seat to move plays its first listed move (or both press *Next
    deal*); with ``wait`` until the table waits again. The seat that moved."""
    mover = next((s for s, f in latest.items() if f["moves"]), None)
    old = {s: f["decision"] for s, f in latest.items()}
    if mover is None:  # between deals (or after the match)
        phase = latest[0]["status"]["phase"]
        for ws in conns.values():
            ws.send(json.dumps({"type": "next" if phase == "deal_over" else "new_match"}))
    else:
        conns[mover].send(json.dumps({"type": "move", "decision": old[mover], "index": 0}))
    if wait:
        settle(conns, latest, lambda got: waiting(got, old))
    return mover


def connect_all(srv: Served, tokens: list[str]) -> tuple[dict[int, Any], dict[int, dict[str, Any]], Any]:
    from websockets.sync.client import connect

    stack = contextlib.ExitStack()
    url = srv.base.replace("http://", "ws://")
    conns = {
        i: stack.enter_context(connect(f"{url}/ws/{t}", open_timeout=WAIT)) for i, t in enumerate(tokens)
    }
    latest: dict[int, dict[str, Any]] = {}
    settle(conns, latest, waiting)
    return conns, latest, stack


def test_sigterm_and_kill_9_lose_no_move_and_the_same_links_play_on(tmp_path):
    """A two-person table over a real ``cardcore serve``: stopped by SIGTERM
    between moves, then killed (-9) just as a move is sent, at random points;
    started again each time over the same --log-dir: the same links play on,
    each person's view and this deal's history as they were (the move sent
    at the kill either played or not, never half), and the log replays."""
    import os
    import random
    import signal
    import time

    from conftest import run_cli

    rng = random.Random()
    srv = Served(tmp_path, "paquet_voleur", "--seat", "1=human")
    tokens = [link.rsplit("/", 1)[1] for link in srv.seats]
    db = tmp_path / "logs" / "tables.db"
    assert db.stat().st_mode & 0o777 == 0o600
    seen_moves = 0
    try:
        for round_ in range(4):
            conns, latest, stack = connect_all(srv, tokens)
            with stack:
                for _ in range(rng.randrange(3, 15)):
                    if step(conns, latest) is not None:
                        seen_moves += 1
                before = {s: (f["view"], f["history"]) for s, f in latest.items()}
                if round_ % 2 == 0:  # SIGTERM between moves: a clean stop, within 2 s
                    started = time.monotonic()
                    code, err = srv.stop(signal.SIGTERM)
                    took = time.monotonic() - started
                    assert code == 0 and "Traceback" not in err, err
                    print(f"\nSIGTERM: stopped in {took:.2f} s")
                    in_flight = None
                else:  # kill -9 as a move goes out
                    while not any(f["moves"] for f in latest.values()):  # a move, not Next deal
                        step(conns, latest)
                    before = {s: (f["view"], f["history"]) for s, f in latest.items()}
                    in_flight = step(conns, latest, wait=False)
                    time.sleep(rng.random() * 0.05)
                    os.kill(srv.proc.pid, signal.SIGKILL)
                    srv.proc.wait(WAIT)
            srv = Served(tmp_path, "--port", "0")
            assert sum("Resumed" in line for line in srv.lines) == 1, srv.lines
            conns, latest, stack = connect_all(srv, tokens)  # the same links
            with stack:
                for s, f in latest.items():
                    view, history = before[s]
                    if in_flight is None or (f["view"], f["history"]) == (view, history):
                        assert (f["view"], f["history"]) == (view, history), s
                    else:  # the move sent at the kill was applied: one line more, nothing else lost
                        assert f["history"][: len(history)] == history and len(f["history"]) > len(history)
                        seen_moves += s == 0
    finally:
        code, err = srv.stop(signal.SIGTERM)
    assert code == 0, err
    (log,) = (tmp_path / "logs").glob("*.jsonl")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0, out
    from cardcore.log import replay
    from cardcore.plugins import discover

    assert replay(log, discover()).moves >= seen_moves


HANG_RULE = """
import time
from cardcore import HouseRuleSpec, hookimpl

class Hang:
    moves = 0

    @hookimpl(wrapper=True)
    def cardcore_apply_move(self, state, move):
        Hang.moves += 1
        if Hang.moves == 5:
            time.sleep(120)
        return (yield)

@hookimpl
def cardcore_register_house_rules(register):
    register(HouseRuleSpec("hang_rule.pv", "paquet_voleur", "hangs", Hang()))
"""


def install(site: Path, name: str, source: str) -> None:
    """A house-rule package ``name`` laid out as pip installs it (module + dist-info)."""
    (site / f"{name}.py").write_text(source)
    dist = site / f"{name}-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[cardcore.house_rules]\n{name} = {name}\n")
    (dist / "top_level.txt").write_text(f"{name}\n")
    (dist / "RECORD").write_text(f"{name}.py,,\n")


def test_simulate_stops_a_hanging_rule_at_its_move_timeout(tmp_path):
    """``simulate --move-timeout``: one line naming the house rule, its module
    and package and the hook, exit code 1; without the rule it plays."""
    import os
    import subprocess
    import sys

    install(tmp_path, "hang_rule", HANG_RULE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    base = [sys.executable, "-m", "cardcore.cli", "simulate", "paquet_voleur", "--deals", "2", "--seed", "1"]
    done = subprocess.run(
        [*base, "--house-rule", "hang_rule.pv", "--move-timeout", "1"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    lines = [ln for ln in done.stderr.splitlines() if ln and not ln.startswith("warning: ")]
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0] == (
        "error: cardcore simulate: plugin hang_rule.pv (module hang_rule, package hang-rule), "
        "hook cardcore_apply_move ran past the move timeout (1 s)"
    )
    done = subprocess.run([*base, "--move-timeout", "1"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


GARBAGE_RULE = """
from cardcore import HouseRuleSpec, hookimpl

class Garbage:
    @hookimpl(wrapper=True)
    def cardcore_legal_moves(self, state):
        moves = yield  # each capture taking its own card too: the game cannot play it
        return [m._replace(takes=m.takes + (m.card,)) if m.card is not None else m for m in moves]

@hookimpl
def cardcore_register_house_rules(register):
    register(HouseRuleSpec("garbage_rule.pv", "paquet_voleur", "garbage moves", Garbage()))
"""


def test_a_house_rule_listing_garbage_moves_is_named_not_the_game(tmp_path):
    """The game's code chokes on a move a house rule listed: the fault is
    the house rule's (its name, module and package), not the game's package."""
    import os
    import subprocess
    import sys

    install(tmp_path, "garbage_rule", GARBAGE_RULE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    args = ["simulate", "paquet_voleur", "--deals", "2", "--seed", "1", "--house-rule", "garbage_rule.pv"]
    done = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", *args], env=env, capture_output=True, text=True, timeout=60
    )
    lines = [ln for ln in done.stderr.splitlines() if ln and not ln.startswith("warning: ")]
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert "house rule garbage_rule.pv (module garbage_rule, package garbage-rule) listed a move" in lines[0]
    assert "package cardcore" not in lines[0] and "cardcore_plugins" not in lines[0]


def test_a_deeply_nested_message_gets_an_error_frame(tmp_path, registry):
    """A 2,000-deep JSON array under 4 KB: an error frame, the connection kept."""
    with served(tmp_path, registry) as (_, http), contextlib.ExitStack() as stack:
        made = http.post("/api/tables", json=TWO_PEOPLE).json()
        inbox: queue.Queue[Any] = queue.Queue()
        me = Client(http, made["seats"][0]["link"].rsplit("/", 1)[1], inbox, stack)
        wait_for(inbox, lambda c, f: True)
        assert "not JSON" in me.refused("[" * 2000 + "]" * 2000)
        assert "unknown message type" in me.refused({"type": "dance"})  # still connected
