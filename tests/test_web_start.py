"""A table waits for its people (docs/WEB.md, "How a table is made, waits
and starts"; issue 48 items 3, 6): its maker's seat is his as he makes it in
the lobby (never offered), no bot moves until every person sat down (his
page connected) or the maker presses *Start* (the seats nobody took then go
to bots, and the table says so), the lobby names a table after its maker and
its game and a seat nobody took "free seat", and the name a person gives is
his seat's on every frame and in the log. Through Starlette's test client."""

from __future__ import annotations

import contextlib
import json
import queue
import time
from pathlib import Path
from typing import Any

import pytest
from test_web import WAIT, Client, served, wait_for

from cardcore.config import TableConfig
from cardcore.web.lobby import Lobby
from cardcore.web.store import Store

pytest.importorskip("starlette.testclient")
# two people and a bot: the maker sits at seat 0, seat 1 is free
TABLE = {
    "game": "carrousel",
    "players": [{"kind": "human"}, {"kind": "human"}, {"kind": "normal"}],
    "options": {"target": 15},
    "maker": "Ana",
}


def made(http: Any, body: dict[str, Any] = TABLE) -> dict[str, Any]:
    r = http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def listed(http: Any, table_id: str) -> dict[str, Any]:
    (t,) = [t for t in http.get("/api/tables").json()["tables"] if t["id"] == table_id]
    return t


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def test_the_maker_sits_and_the_lobby_names_the_table_and_its_free_seats(tmp_path, registry):
    with served(tmp_path, registry) as (_, http):
        table = made(http)
        you = table["you"]
        assert you["seat"] == 0 and you["name"] == "Ana" and you["link"].startswith("/seat/")
        assert table["name"] == "Ana's Carrousel (Karuzelė)"
        assert table["name_say"]["t"] == "{name}'s {game}" and table["name_say"]["a"]["name"] == "Ana"
        t = listed(http, table["id"])
        assert t["name_say"] == table["name_say"]
        assert [s["open"] for s in t["seats"]] == [False, True, False]  # his seat is never offered
        assert [s["name"] for s in t["seats"]] == ["Ana", "free seat", "Normal 3"]
        assert t["seats"][1]["name_say"] == {"t": "free seat", "d": "cardcore"}
        # he sits down when his page opens (as everyone): awaited until then
        assert t["start"] == {"begun": False, "host": 0, "awaited": [0, 1], "bots": [], "notices": []}
        # "Player 3 (seat 2)" is gone from the links too: a free seat says so
        assert [s["name"] for s in table["seats"]] == ["Ana", "free seat"]
        # no maker (a script, the CLI): named after the game; the first person to sit may start it
        other = made(http, {k: v for k, v in TABLE.items() if k != "maker"})
        assert other["name"] == "Carrousel (Karuzelė)" and "you" not in other
        assert [s["open"] for s in listed(http, other["id"])["seats"]] == [True, True, False]
        r = http.post("/api/tables", json={**TABLE, "maker": "   "})
        assert r.status_code == 400 and r.json()["error"].startswith("maker: type your name")
        # a name given to the table is its own
        assert made(http, {**TABLE, "name": "Friday"})["name"] == "Friday"
        # a table of games.yaml opened in the lobby: its maker sits there too (its named seat renamed)
        teams = made(http, {"table": "teams", "maker": "Bo"})
        assert teams["name"] == "teams" and teams["you"]["seat"] == 0 and teams["you"]["name"] == "Bo"


def test_no_move_until_every_person_sits_then_the_name_is_everywhere(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        table = made(http)
        session = lobby.sessions[table["id"]]
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            ana = Client(http, token_of(table["you"]["link"]), inbox, stack)
            _, first = wait_for(inbox, lambda c, f: c is ana)
            assert first["start"]["begun"] is False and first["start"]["awaited"] == [1]
            assert first["status"]["phase"] == "starting" and first["status"]["deal"] == 0
            time.sleep(0.5)  # the bot would have moved by now: it does not
            assert session.status.deal == 0 and not ana.last()["moves"] and not ana.last()["history"]
            assert session.waiting(0) is None and session.log is None  # no deal, no log line yet
            assert ana.last()["table"]["names"] == ["Ana", "free seat", "Normal 3"]
            r = http.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Bea"})
            assert r.status_code == 201, r.text
            _, f = wait_for(inbox, lambda c, f: c is ana and f["table"]["names"][1] == "Bea")
            assert not f["start"]["begun"] and f["start"]["awaited"] == [1]  # until her page opens
            Client(http, token_of(r.json()["link"]), inbox, stack)
            # the deal comes, and Bea's name with it, in both forms the pages read
            _, f = wait_for(inbox, lambda c, f: c is ana and f["status"]["phase"] == "playing")
            assert f["start"]["begun"] and f["start"]["awaited"] == []
            assert f["table"]["names"] == ["Ana", "Bea", "Normal 3"]
            assert f["table"]["name_says"][:2] == ["Ana", "Bea"] and f["seats"][1]["name"] == "Bea"
            assert listed(http, table["id"])["start"]["begun"]
        session.stop()
        (log,) = (tmp_path / "logs").glob("*.jsonl")
        assert log.name.startswith("Ana_s_Carrousel")
        head = json.loads(log.read_text().splitlines()[0])
        assert head["event"] == "table" and head["names"] == ["Ana", "Bea", "Normal 3"]


def test_start_is_the_maker_s_and_gives_the_empty_seats_to_bots(tmp_path, registry):
    body = {**TABLE, "players": [{"kind": "human"}] * 4}
    with served(tmp_path, registry) as (lobby, http):
        table = made(http, body)
        session = lobby.sessions[table["id"]]
        empty_link = next(s["link"] for s in table["seats"] if s["seat"] == 2)
        bea = http.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Bea"}).json()
        # Cy takes seat 3 but his page is not open yet: Start leaves it his (he is away)
        cy_link = http.post(f"/api/tables/{table['id']}/seats/3", json={"name": "Cy"}).json()["link"]
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            b = Client(http, token_of(bea["link"]), inbox, stack)
            watcher = Client(http, session.watch_link, inbox, stack)
            wait_for(inbox, lambda c, f: c is b)
            assert b.refused({"type": "start"}) == "only the one who made this table may start it"
            assert watcher.refused({"type": "start"}) == "a spectator's link cannot play"
            assert not session.room.begun and lobby.open_seats(session) == [2]
            assert session.empty_seats() == [0, 2, 3]
            a = Client(http, token_of(table["you"]["link"]), inbox, stack)
            wait_for(inbox, lambda c, f: c is a)
            a.send({"type": "start"})
            _, f = wait_for(inbox, lambda c, f: c is b and f["status"]["phase"] == "playing")
            assert f["start"]["bots"] == [2] and f["start"]["notices"] == [
                {"t": "Seat {n} is played by a bot ({level})", "d": "cardcore",
                 "a": {"n": 3, "level": {"t": "normal", "d": "cardcore", "c": "level"}}}
            ]  # fmt: skip
            seat = f["seats"][2]
            assert not seat["person"] and seat["kind"] == "normal" and seat["name"] == "Normal 3"
            cy = f["seats"][3]
            assert cy["person"] and cy["name"] == "Cy" and not cy["connected"] and not cy["covered"]
            c = Client(http, token_of(cy_link), inbox, stack)  # he comes: his seat, his moves
            assert any(h["text"] == "Seat 3 is played by a bot (normal)" for h in f["history"])
            assert lobby.open_seats(session) == [] and lobby.find(token_of(empty_link)) is None
            assert http.get(empty_link).status_code == 404  # a bot's seat now: its link opens nothing
            assert session.begin(0) is None and session.room.bot_seats == [2]  # started already: the same
            # the bot plays seat 2: the game goes past its turns
            deadline = time.monotonic() + WAIT
            while not any(h["seat"] == 2 for h in b.last()["history"]):
                assert time.monotonic() < deadline, 'the bot never played seat 2 ("Normal 3")'
                for person in (a, b, c):
                    last = person.last()
                    if last["moves"]:
                        person.send({"type": "move", "decision": last["decision"], "index": 0})
                time.sleep(0.05)


def test_a_maker_who_never_comes_does_not_hold_the_others_for_ever(tmp_path, registry):
    """The maker's seat away past the table's away limit: a person who sat
    down may press *Start*; the maker's seat stays his (away, coverable)."""
    with served(tmp_path, registry) as (lobby, http):
        lobby.away_limit = 1.0
        table = made(http)
        session = lobby.sessions[table["id"]]
        bea = http.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Bea"}).json()
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            b = Client(http, token_of(bea["link"]), inbox, stack)
            wait_for(inbox, lambda c, f: c is b)
            if not b.last()["seats"][0]["coverable"]:  # younger than the limit: the maker's to start
                assert b.refused({"type": "start"}) == "only the one who made this table may start it"
            wait_for(inbox, lambda c, f: c is b and f["seats"][0]["coverable"])
            b.send({"type": "start"})
            _, f = wait_for(inbox, lambda c, f: c is b and f["start"]["begun"])
            assert f["start"]["bots"] == [] and f["seats"][0]["person"] and f["seats"][0]["name"] == "Ana"
            assert session.room.begun and lobby.open_seats(session) == []


def test_a_table_the_server_opened_is_started_by_the_first_to_sit(tmp_path, registry):
    lobby = Lobby(registry, None, None)
    try:
        cfg = TableConfig.model_validate({k: v for k, v in TABLE.items() if k != "maker"})
        session = lobby.open(cfg, "cli")
        assert session.room.host is None and not session.room.begun
        lobby.claim(session.links[1])  # seat 1's link opened first: its holder may start it
        assert session.room.host == 1 and session.shown_name(1) == "Player 2"
        assert session.shown_name(0) == "free seat"
        assert session.begin(0) == "only the one who made this table may start it"
        assert session.begin(1) is None and session.room.begun and session.room.bot_seats == [0]
    finally:
        lobby.close()


def test_a_waiting_table_resumed_still_waits_and_keeps_its_names(tmp_path, registry):
    db = tmp_path / "tables.db"
    store = Store(db)
    first = Lobby(registry, None, tmp_path / "logs", store=store)
    session = first.open_data(TABLE, client="127.0.0.1")
    table_id, link, maker_link = session.id, session.links[1], session.links[0]
    first.close()
    store.close()
    store = Store(db)
    again = Lobby(registry, None, tmp_path / "logs", store=store)
    try:
        (back,) = again.resume()
        t = again.describe(back)
        assert t["name_say"]["t"] == "{name}'s {game}"  # said in each page's language still
        assert [s["open"] for s in t["seats"]] == [False, True, False] and t["seats"][1][
            "name"
        ] == "free seat"
        assert t["start"]["begun"] is False and t["start"]["host"] == 0
        time.sleep(0.3)
        assert back.status.deal == 0  # no bot moved
        assert again.claim(maker_link) is not None and not back.room.begun  # Ana's page opens
        assert again.claim(link) is not None  # the last person sits: it begins
        deadline = time.monotonic() + WAIT
        while back.status.deal < 1:
            assert time.monotonic() < deadline, "the resumed table never began"
            time.sleep(0.01)
        assert back.id == table_id and back.table.names[:2] == ["Ana", "Player 2"]
        log = Path(back.log_path) if back.log_path else None
        again.close()
        assert log is not None
        head = json.loads(log.read_text().splitlines()[0])
        assert head["event"] == "table" and head["names"] == ["Ana", "Player 2", "Normal 3"]
    finally:
        again.close()
        store.close()
