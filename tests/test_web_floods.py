"""Floods cost the flooder, not the other tables (issue 46): a connection's
message budget, resync and "why not?" that cost one frame and one answer,
bounded inboxes, an address's search CPU, the lobby counted by network
prefix, idle expiry that counts people, names compared as they look, the
catalog cached, the Host checked, and a new match shown in one step."""

from __future__ import annotations

import contextlib
import json
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_web import ROOT, WAIT, Client, served, wait_for
from webcheck import AuditedSession

from cardcore.web.app import FLOODED, MESSAGE_BURST, create_app, split_host
from cardcore.web.lobby import Lobby

TWO_PEOPLE = {"game": "paquet_voleur", "players": [{"kind": "human"}] * 2}
ONE_PERSON = {"game": "carrousel", "players": [{"kind": "human"}] + [{"kind": "greedy"}] * 3}
P95_BOUND_MS = 100.0  # the neighbour table's move time under a flood (p95)
RSS_BOUND_MB = 30.0  # what a flood may add to the server's memory


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def decision_of(inbox: queue.Queue[Any], who: Any) -> dict[str, Any]:
    """``who``'s first frame at a decision of more than one move (answering the others)."""
    done: set[int] = set()
    for _ in range(200):
        _, frame = wait_for(inbox, lambda c, f: c is who and bool(f["moves"]) and f["decision"] not in done)
        if len(frame["moves"]) > 1 and frame["view"]["hand"]:
            return frame
        done.add(frame["decision"])
        who.send({"type": "move", "decision": frame["decision"], "index": 0})
    raise AssertionError("no decision of several moves")


# ---- a real server: the neighbour's move time under a flood ------------------
def test_a_flood_from_one_connection_leaves_the_neighbour_table_fast(tmp_path):
    """A resync flood on a table's watch link, then a "why not?" flood from
    its person, each from one connection that reconnects whenever it is
    closed (``benchmarks/web_flood.py``'s phases, smaller): the table next to
    it keeps a p95 move time under ``P95_BOUND_MS`` and the server's memory
    grows by less than ``RSS_BOUND_MB``; the flooder is closed with
    ``FLOODED``."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import web_flood
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rows = web_flood.run(ROOT, moves=30, seconds=40.0, phases=["quiet", "resync", "why"])
    print()
    web_flood.show("this", rows, as_json=False)
    quiet, *floods = rows
    for row in floods:
        assert row["moves"] == 30, row
        assert row["p95_ms"] < P95_BOUND_MS, row
        assert row["rss_peak_mb"] - quiet["rss_start_mb"] < RSS_BOUND_MB, row
        assert row["flood_closes"].get(str(FLOODED), 0) >= 1, row  # the budget closed it
        assert row["flood_sent"] > MESSAGE_BURST, row


# ---- the message budget ------------------------------------------------------
def test_the_message_budget_closes_a_flooding_connection(tmp_path, registry):
    """Past ``MESSAGE_BURST`` messages at once, a connection gets one error
    (fatal) and the close code ``FLOODED``; its address's next websocket is
    refused before the handshake; another address's connection to the same
    table is answered as before, and moves taken cost it nothing."""
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    lobby = Lobby(registry, None, tmp_path / "logs")
    lobby.session_class = AuditedSession
    app = create_app(lobby, hosts=["testserver"])
    try:
        with (
            TestClient(app, client=("10.0.0.1", 1)) as flooder,
            TestClient(app, client=("10.0.0.2", 1)) as other,
            contextlib.ExitStack() as stack,
        ):
            made = flooder.post("/api/tables", json=ONE_PERSON).json()
            ws = stack.enter_context(flooder.websocket_connect(f"/ws/{token(made['watch'])}"))
            assert ws.receive_json()["type"] == "state"
            for _ in range(MESSAGE_BURST + 20):
                ws.send_text(json.dumps({"type": "resync"}))
            errors = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(1000):
                    message = ws.receive_json()
                    if message["type"] == "error":
                        errors.append(message)
            assert closed.value.code == FLOODED
            assert len(errors) == 1 and errors[0]["fatal"] and "too many messages" in errors[0]["error"]
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                flooder.websocket_connect(f"/ws/{token(made['watch'])}"),
            ):
                pass
            assert refused.value.code == FLOODED
            inbox: queue.Queue[Any] = queue.Queue()
            me = Client(other, token(made["seats"][0]["link"]), inbox, stack)
            answered: set[int] = set()
            asked_again = False
            deadline = time.monotonic() + WAIT
            while len(answered) <= MESSAGE_BURST + 10:  # more moves than the budget: none counted
                assert time.monotonic() < deadline, len(answered)
                _, frame = wait_for(inbox, lambda c, f: c is me)
                st = frame["status"]
                if frame["moves"] and frame["decision"] not in answered:
                    answered.add(frame["decision"])
                    me.send({"type": "move", "decision": frame["decision"], "index": 0})
                elif st["phase"] == "deal_over" and 0 not in st["ready"]:
                    me.send({"type": "next"})
                elif st["phase"] == "match_over" and not asked_again:
                    asked_again = True  # a short match: play another (decisions go on numbering)
                    me.send({"type": "new_match"})
                elif st["phase"] != "match_over":
                    asked_again = False
            played = len(answered)
            assert played > MESSAGE_BURST and not me.closed.is_set() and me.errors == []
    finally:
        lobby.close()


def test_a_resync_flood_rebuilds_no_other_frame(tmp_path, registry):
    """Resyncs from a spectator build no seat's frame, encode the whole
    frame once per frame number, and send at most one whole frame per frame
    taken (the outbox holds one)."""

    class Counting(AuditedSession):
        built: list[int | None] = []
        encoded = 0

        def frame(self, seat: int | None) -> dict[str, Any]:
            type(self).built.append(seat)
            return super().frame(seat)

    from cardcore.web import publisher as publisher_module

    real_dumps = publisher_module._dumps

    def dumps(data: Any) -> str:
        Counting.encoded += data.get("type") == "state"
        return real_dumps(data)

    publisher_module._dumps = dumps  # type: ignore[assignment]
    try:
        with served(tmp_path, registry, Counting) as (_, http), contextlib.ExitStack() as stack:
            made = http.post("/api/tables", json=ONE_PERSON).json()
            inbox: queue.Queue[Any] = queue.Queue()
            me = Client(http, token(made["seats"][0]["link"]), inbox, stack)
            decision_of(inbox, me)  # the table waits for him: nothing changes from here
            watcher = Client(http, token(made["watch"]), inbox, stack)
            wait_for(inbox, lambda c, f: c is watcher)
            time.sleep(0.2)
            Counting.built.clear()
            Counting.encoded = 0
            frames = len(watcher.frames)
            for _ in range(MESSAGE_BURST - 5):
                watcher.send({"type": "resync"})
            assert watcher.refused({"type": "dance"})  # every resync before it was read
            time.sleep(0.2)
            assert set(Counting.built) <= {None}, Counting.built  # no seat's frame built
            assert Counting.encoded <= 1  # the spectators' whole frame, encoded once
            assert 1 <= len(watcher.frames) - frames <= MESSAGE_BURST - 5
            assert watcher.frames[-1]["n"] == watcher.frames[frames - 1]["n"]  # the same frame
    finally:
        publisher_module._dumps = real_dumps  # type: ignore[assignment]


# ---- "why not?": answered once per card and decision, a bounded inbox --------
@contextlib.contextmanager
def served_with_budget(tmp_path: Path, registry: Any, session_class: Any, budget: tuple[float, float]) -> Any:
    """``served``, each connection with that message budget (a test that sends more than one page would)."""
    from starlette.testclient import TestClient

    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.0)
    lobby.session_class = session_class
    try:
        with TestClient(create_app(lobby, hosts=["testserver"], budget=budget)) as http:
            yield lobby, http
    finally:
        lobby.close()


def test_why_is_answered_once_per_card_and_decision(tmp_path, registry):
    """The same "why not?" asked many times is explained once; asked again
    after another card, the frame shows the first answer again, from the
    cache; the inbox holds at most ``MAX_INBOX`` requests (an error past it)."""
    from cardcore.web import desk as desk_module

    class CountingDesk(desk_module.Desk):
        def why_not(self, decision: int, card: Any, *rest: Any) -> None:
            Counting.hold.wait(WAIT)
            Counting.explained.append(card.name)
            super().why_not(decision, card, *rest)

    class Counting(AuditedSession):
        explained: list[str] = []
        hold = threading.Event()
        desk_class = CountingDesk

    Counting.hold.set()
    big = (1000.0, 1000.0)
    with (
        served_with_budget(tmp_path, registry, Counting, big) as (_, http),
        contextlib.ExitStack() as stack,
    ):
        made = http.post("/api/tables", json=ONE_PERSON).json()
        inbox: queue.Queue[Any] = queue.Queue()
        me = Client(http, token(made["seats"][0]["link"]), inbox, stack)
        frame = decision_of(inbox, me)
        d = frame["decision"]
        first, second = frame["view"]["hand"][:2]
        for _ in range(40):
            me.send({"type": "why", "decision": d, "card": first})
        wait_for(inbox, lambda c, f: (f.get("why") or {}).get("card") == first)
        me.send({"type": "why", "decision": d, "card": second})
        wait_for(inbox, lambda c, f: (f.get("why") or {}).get("card") == second)
        me.send({"type": "why", "decision": d, "card": first})
        wait_for(inbox, lambda c, f: (f.get("why") or {}).get("card") == first)
        assert Counting.explained == [first, second] and me.errors == []
        # the game thread busy: the cards asked wait, at most MAX_INBOX of them
        Counting.hold.clear()
        names = [f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                 for s in "CDHS"]  # fmt: skip
        names = [n for n in names if n not in (first, second)]
        errors = []
        for name in names[: desk_module.MAX_INBOX + 3]:
            me.send({"type": "why", "decision": d, "card": name})
        deadline = time.monotonic() + WAIT
        while len(me.errors) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        errors = list(me.errors)
        Counting.hold.set()
        assert len(errors) == 2 and all("too many requests waiting" in e for e in errors), errors


# ---- the search CPU of an address ---------------------------------------------
def test_an_address_past_its_search_time_gets_no_hint(tmp_path, registry):
    """A hint spends its asker's search CPU; past the budget, the next hint is
    refused in one line saying how long to wait; another address still gets
    its hint; a bot of a table made in the lobby by that address waits."""
    from starlette.testclient import TestClient

    from cardcore.web.limits import SearchBudget

    lobby = Lobby(registry, None, tmp_path / "logs")
    lobby.session_class = AuditedSession
    lobby.search_budget = SearchBudget(per_minute=0.6, burst=0.001)  # a hint's search: far past it
    app = create_app(lobby, hosts=["testserver"])
    try:
        with (
            TestClient(app, client=("10.0.0.1", 1)) as greedy,
            TestClient(app, client=("10.9.0.1", 1)) as other,
            TestClient(app, client=("10.7.0.1", 1)) as maker,
            contextlib.ExitStack() as stack,
        ):
            made = maker.post("/api/tables", json=ONE_PERSON).json()  # its bots spend 10.7.0.1's
            inbox: queue.Queue[Any] = queue.Queue()
            me = Client(greedy, token(made["seats"][0]["link"]), inbox, stack)
            frame = decision_of(inbox, me)
            me.send({"type": "hint", "decision": frame["decision"]})
            wait_for(inbox, lambda c, f: c is me and bool(f.get("hint")))
            me.send({"type": "move", "decision": frame["decision"], "index": 0})
            frame = decision_of(inbox, me)
            error = me.refused({"type": "hint", "decision": frame["decision"]})
            assert error.startswith("hints: your address has used its search time for now; wait ")
            made2 = other.post("/api/tables", json=ONE_PERSON).json()
            you = Client(other, token(made2["seats"][0]["link"]), inbox, stack)
            frame = decision_of(inbox, you)
            you.send({"type": "hint", "decision": frame["decision"]})
            wait_for(inbox, lambda c, f: c is you and bool(f.get("hint")))
            assert you.errors == []
            # a lobby table's bots spend its maker's budget: 10.0.0.1's bots wait now
            bots = greedy.post(
                "/api/tables", json={"game": "paquet_voleur", "players": [{"kind": "greedy"}] * 2}
            ).json()
            session = lobby.sessions[bots["id"]]
            time.sleep(0.5)
            assert session._version <= 1, session._version  # dealt, not one bot move
    finally:
        lobby.close()


# ---- the lobby ----------------------------------------------------------------
def test_many_addresses_of_one_prefix_cannot_fill_the_lobby(tmp_path, registry):
    """127.0.0.1 … 127.0.0.40 are one /24: they make ``PREFIX_CREATE_BURST``
    tables at once between them, at most ``max_per_prefix`` open, then 429;
    an address of another prefix still makes its own."""
    from starlette.testclient import TestClient

    from cardcore.web import lobby as lobby_module

    lobby = Lobby(registry, None, tmp_path / "logs")
    app = create_app(lobby, hosts=["testserver"])
    try:
        answers = []
        for i in range(1, 41):
            with TestClient(app, client=(f"127.0.0.{i}", 1)) as http:
                for _ in range(3):
                    answers.append(http.post("/api/tables", json=TWO_PEOPLE))
        made = [r for r in answers if r.status_code == 201]
        assert len(made) == lobby_module.PREFIX_CREATE_BURST < lobby.max_tables
        assert {r.status_code for r in answers} == {201, 429}
        assert "wait" in answers[-1].json()["error"]
        with TestClient(app, client=("10.1.2.3", 1)) as elsewhere:
            assert elsewhere.post("/api/tables", json=TWO_PEOPLE).status_code == 201
        # open tables, counted by prefix too
        lobby.max_per_prefix = len(made)
        lobby._credit.clear()
        with TestClient(app, client=("127.0.0.77", 1)) as http:
            r = http.post("/api/tables", json=TWO_PEOPLE)
            assert r.status_code == 429 and "from your network" in r.json()["error"]
    finally:
        lobby.close()


def test_a_stopped_table_counts_until_its_thread_ends(tmp_path, registry):
    """A table whose game thread runs on after it stopped (a runaway search)
    counts against its maker's address until the thread has ended, even
    once it is gone from the list."""
    from starlette.testclient import TestClient

    from cardcore.web.session import TableSession

    release = threading.Event()

    class Runaway(TableSession):
        def _run(self) -> None:
            release.wait(WAIT)  # deaf to stop: a search that runs on

    lobby = Lobby(registry, None, tmp_path / "logs")
    lobby.session_class = Runaway
    lobby.max_per_client = 1
    app = create_app(lobby, hosts=["testserver"])
    try:
        with TestClient(app, client=("10.0.0.5", 1)) as http:
            made = http.post("/api/tables", json=TWO_PEOPLE).json()
            session = lobby.sessions[made["id"]]
            session.join(0.0)  # given up on: stopped, its thread left running
            assert session.ended is not None and session.running()
            r = http.post("/api/tables", json=TWO_PEOPLE)
            assert r.status_code == 429 and "close one first" in r.json()["error"]
            lobby.keep_ended = 0.0
            lobby.reap()  # gone from the list: still counted
            assert made["id"] not in lobby.sessions
            r = http.post("/api/tables", json=TWO_PEOPLE)
            assert r.status_code == 429
            release.set()
            session._thread.join(WAIT)
            lobby.session_class = TableSession
            assert http.post("/api/tables", json=TWO_PEOPLE).status_code == 201
    finally:
        release.set()
        lobby.close()


def test_idle_expiry_counts_people_not_spectators(tmp_path, registry):
    """A spectator keeps no table alive: a table whose person left, watched
    all along, closes after ``idle_expiry``; a table none of whose people
    ever came closes after ``unclaimed_expiry`` (sooner); one whose person is
    here stays.

    Each table's stop is timed from what its clock counts from, not from when
    the test got to its loop (a loaded machine may take a while to connect the
    spectators), and each person comes right after his table is made (the
    unclaimed expiry runs from then: a person who came later than it would
    find his table closed, as he should)."""
    with served(tmp_path, registry) as (lobby, http), contextlib.ExitStack() as stack:
        lobby.idle_expiry, lobby.unclaimed_expiry, lobby.keep_ended = 1.5, 0.5, 60.0
        before = time.monotonic()  # the left table's clock: his coming and his leaving, both after this
        left = http.post("/api/tables", json=TWO_PEOPLE).json()
        with http.websocket_connect(f"/ws/{token(left['seats'][0]['link'])}") as ws:
            ws.receive_json()
        inbox: queue.Queue[Any] = queue.Queue()
        here = http.post("/api/tables", json=TWO_PEOPLE).json()
        Client(http, token(here["seats"][0]["link"]), inbox, stack)
        nobody = http.post("/api/tables", json=TWO_PEOPLE).json()
        made_by = time.monotonic()  # nobody's table was made before this
        for made in (left, nobody):
            Client(http, token(made["watch"]), inbox, stack)  # watched all along
        started = time.monotonic()
        gone: dict[str, float] = {}  # when each table stopped (``ended``, the server's clock)
        while len(gone) < 2 and time.monotonic() - started < WAIT:
            for made in (left, nobody, here):
                ended = lobby.sessions[made["id"]].ended
                if made["id"] not in gone and ended is not None:
                    gone[made["id"]] = ended
            time.sleep(0.02)
        assert set(gone) == {left["id"], nobody["id"]}, gone
        # nobody's table within its 0.5 s and the sweep's delays, well before the idle 1.5 s;
        # the one its person left, no sooner than 1.5 s after he left
        assert gone[nobody["id"]] - made_by < 1.3, (gone, made_by)
        assert gone[left["id"]] - before >= 1.5, (gone, before)
        assert lobby.sessions[here["id"]].ended is None


def test_names_that_look_alike_are_refused(tmp_path, registry):
    """*Take this seat* with a name that looks like another seat's: "Ρlayer 1"
    (a Greek Rho), "Ｐlayer 1" (full width), "Player\u200b 1" (an invisible
    space), "PLAYER 1": refused in one line; "Player 3" is taken."""
    from cardcore.web.limits import fold_name

    assert fold_name("Ρlayer 1") == fold_name("Player 1") == fold_name("ＰＬＡＹＥＲ １")
    assert fold_name("Аnn") == fold_name("ann") != fold_name("Anna")  # a Cyrillic A
    with served(tmp_path, registry) as (_, http):
        # its maker sits at seat 0 as "Player 1" (a free seat's name is no one's)
        made = http.post("/api/tables", json={**TWO_PEOPLE, "maker": "Player 1"}).json()
        url = f"/api/tables/{made['id']}/seats/1"
        for name in ("Ρlayer 1", "Ｐlayer 1", "Player\u200b 1", "PLAYER 1"):
            r = http.post(url, json={"name": name})
            assert r.status_code == 400, name
            assert r.json()["error"].startswith("name: someone at this table is called"), name
        r = http.post(url, json={"name": "Player 3"})
        assert r.status_code == 201 and r.json()["player"] == "Player 3"


def test_the_catalog_is_read_again_only_when_games_yaml_changes(tmp_path, registry, monkeypatch):
    from starlette.testclient import TestClient

    from cardcore.web import lobby as lobby_module

    config = tmp_path / "games.yaml"
    config.write_text("tables:\n  one:\n    game: paquet_voleur\n")
    reads = []
    real = lobby_module.load_config

    def counted(path: Path) -> Any:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(lobby_module, "load_config", counted)
    lobby = Lobby(registry, config, tmp_path / "logs")
    try:
        with TestClient(create_app(lobby, hosts=["testserver"])) as http:
            first = [http.get("/api/catalog").json() for _ in range(5)]
            assert len(reads) == 1 and all(c == first[0] for c in first)
            assert [t["name"] for t in first[0]["tables"]] == ["one"]
            config.write_text("tables:\n  one:\n    game: paquet_voleur\n  two:\n    game: carrousel\n")
            second = http.get("/api/catalog").json()
            assert len(reads) == 2 and [t["name"] for t in second["tables"]] == ["one", "two"]
            http.get("/api/catalog")
            assert len(reads) == 2
    finally:
        lobby.close()


# ---- the Host, the CSP, a crowded connection ----------------------------------
def test_the_host_is_checked_whole_and_the_csp_is_built_from_it(tmp_path, registry):
    """A Host whose port is not digits, or with anything after it, is refused
    (403): nothing of it reaches the CSP, which names the checked host."""
    from starlette.testclient import TestClient

    assert split_host("[::1]:8000") == ("::1", "8000") and split_host("LocalHost") == ("localhost", "")
    for bad in ("127.0.0.1:80x", "127.0.0.1:1; script-src *", "localhost:", "127.0.0.1:99999",
                "a b", "[::1", "[::1]x", "::1", "127.0.0.1:8000:1"):  # fmt: skip
        assert split_host(bad) is None, bad
    lobby = Lobby(registry, None, tmp_path / "logs")
    try:
        with TestClient(create_app(lobby, hosts=["testserver"])) as http:
            for host in ("127.0.0.1:1; script-src *", "127.0.0.1:8000 'unsafe-eval'", "localhost:80x"):
                r = http.get("/", headers={"host": host})
                assert r.status_code == 403, host
                assert "script-src *" not in r.headers.get("content-security-policy", "")
            r = http.get("/", headers={"host": "127.0.0.1:8000"})
            csp = r.headers["content-security-policy"]
            assert r.status_code == 200
            assert "connect-src 'self' ws://127.0.0.1:8000 wss://127.0.0.1:8000;" in csp
            r = http.get("/", headers={"host": "[::1]:8000"})
            assert "ws://[::1]:8000 " in r.headers["content-security-policy"]
    finally:
        lobby.close()


def test_a_crowded_connection_claims_nothing(tmp_path, registry):
    """A websocket refused because its address has too many open (4029)
    leaves the seat open: the lobby still offers it."""
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    lobby = Lobby(registry, None, tmp_path / "logs")
    try:
        with TestClient(create_app(lobby, hosts=["testserver"], max_connections=1)) as http:
            made = http.post("/api/tables", json=TWO_PEOPLE).json()
            with http.websocket_connect(f"/ws/{token(made['watch'])}") as watch:
                watch.receive_json()
                with http.websocket_connect(f"/ws/{token(made['seats'][0]['link'])}") as ws:
                    message = ws.receive_json()
                    assert message["type"] == "error" and message["fatal"]
                    with pytest.raises(WebSocketDisconnect) as closed:
                        ws.receive_json()
                    assert closed.value.code == 4029
            seats = http.get(f"/api/join/{made['code']}").json()["table"]["seats"]
            assert seats[0]["open"] and seats[1]["open"]
    finally:
        lobby.close()


# ---- a new match: number, phase and history in one step ------------------------
def test_a_new_match_frame_is_consistent(tmp_path, registry):
    """Every frame of match 2 starts its history with "Match 2" (never the
    last match's lines under the new number), including one built at the
    moment the game thread begins the new match."""

    class Snapshots(AuditedSession):
        taken: list[dict[str, Any]] = []

        def _match_seed(self, number: int) -> int:
            if number > 1:  # the game thread, between the matches: what a frame shows now
                type(self).taken.append(self.frame(None))
            return super()._match_seed(number)

    with served(tmp_path, registry, Snapshots) as (_, http), contextlib.ExitStack() as stack:
        body = {"game": "paquet_voleur", "players": [{"kind": "human"}, {"kind": "greedy"}],
                "options": {"deals": 1}}  # fmt: skip
        made = http.post("/api/tables", json=body).json()
        inbox: queue.Queue[Any] = queue.Queue()
        me = Client(http, token(made["seats"][0]["link"]), inbox, stack)
        answered: set[int] = set()
        for _ in range(2000):
            _, frame = wait_for(inbox, lambda c, f: True)
            st = frame["status"]
            if st["match"] == 2 and st["phase"] == "playing":
                break
            if frame["moves"] and frame["decision"] not in answered:
                answered.add(frame["decision"])
                me.send({"type": "move", "decision": frame["decision"], "index": 0})
            elif st["phase"] == "match_over" and not answered & {-1}:
                answered.add(-1)
                me.send({"type": "new_match"})
        time.sleep(0.1)
        frames = [*me.frames, *Snapshots.taken]
        assert Snapshots.taken and any(f["status"]["match"] == 2 for f in me.frames)
        for f in frames:
            st = f["status"]
            if st["match"] == 2:
                assert st["phase"] != "match_over" or st["deal"] >= 1
                assert f["history"] and f["history"][0]["text"] == "Match 2", f["history"][:2]
            if st["match"] == 1 and st["phase"] == "match_over":
                assert st["winners"] is not None


def test_a_name_taken_at_a_seat_is_on_every_page(tmp_path, registry):
    """Issue 48, item 3: a person who takes an unnamed seat is called by his
    name in the frames every page reads (``name_says``, which the seat plate,
    the score line, the results and the away notice show), not by the
    placeholder ("Player 1") that ``names`` alone used to replace."""
    with served(tmp_path, registry) as (_, http):
        made = http.post("/api/tables", json=TWO_PEOPLE).json()
        taken = http.post(f"/api/tables/{made['id']}/seats/1", json={"name": "Ana"})
        assert taken.status_code == 201
        for link in (made["watch"], made["seats"][0]["link"], taken.json()["link"]):
            with http.websocket_connect(f"/ws/{token(link)}") as ws:
                frame = ws.receive_json()
                assert frame["type"] == "state"
                info = frame["table"]
                assert info["names"][1] == "Ana" and info["name_says"][1] == "Ana", info["name_says"]
