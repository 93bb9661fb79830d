"""Joining a table like the card sites: *Take this seat* in the lobby (a new
secret link minted for the one who takes it), the table's short code and its
join page, its QR code, the network address ``serve --lan`` puts in its
links; through Starlette's test client and a real ``cardcore serve``."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import re
import socket
import threading
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from test_web import Client, drive, served, wait_for
from test_web_trust import Served

from cardcore.config import TableConfig
from cardcore.web import address
from cardcore.web import lobby as lobby_module
from cardcore.web.lobby import CODE_LENGTH, CODE_LETTERS, Lobby, SeatError
from cardcore.web.store import Store

starlette_testclient = pytest.importorskip("starlette.testclient")
ROOT = Path(__file__).parent.parent
THREE = {"game": "carrousel", "players": [{"kind": "human"}, {"kind": "human"}, {"kind": "greedy"}]}


def made(http: Any, body: dict[str, Any] = THREE) -> dict[str, Any]:
    r = http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def listed(http: Any, table_id: str) -> dict[str, Any]:
    (t,) = [t for t in http.get("/api/tables").json()["tables"] if t["id"] == table_id]
    return t


def take(http: Any, table_id: str, seat: Any, name: Any, **kw: Any) -> Any:
    return http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name}, **kw)


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def test_a_free_seat_is_taken_from_the_lobby_and_is_his_from_then_on(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        table = made(http)
        tid, first = table["id"], {s["seat"]: s["link"] for s in table["seats"]}
        seats = listed(http, tid)["seats"]
        assert [s["open"] for s in seats] == [True, True, False]  # the bot's seat is never open
        r = take(http, tid, 1, "  Bea   Ortiz ")
        assert r.status_code == 201, r.text
        got = r.json()
        assert got["seat"] == 1 and got["player"] == "Bea Ortiz" and got["link"].startswith("/seat/")
        assert got["link"] != first[1] and token_of(got["link"]) not in http.get("/api/tables").text
        seats = listed(http, tid)["seats"]
        assert [s["open"] for s in seats] == [True, False, False] and seats[1]["name"] == "Bea Ortiz"
        # the seat's first link (shown to the table's maker) is no longer the seat's
        assert http.get(first[1]).status_code == 404
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            old = Client(http, token_of(first[1]), inbox, stack)
            _, error = inbox.get(timeout=20)
            assert error["type"] == "error" and error["fatal"]
            old.closed.wait(20)
            bea = Client(http, token_of(got["link"]), inbox, stack)
            _, frame = wait_for(inbox, lambda c, f: c is bea)
            assert frame["you"] == 1 and frame["table"]["names"][1] == "Bea Ortiz"
            assert frame["table"]["code"] == listed(http, tid)["code"]
            assert frame["table"]["join"] == "/join/" + frame["table"]["code"]
            # taken already: nobody else gets it, whatever the name
            refused = [(1, "Cy", 409), (2, "Cy", 409), (7, "Cy", 409), ("x", "Cy", 409),
                       (0, "", 400), (0, "   ", 400), (0, 5, 400), (0, "bea ortiz", 400)]  # fmt: skip
            for seat, name, code in refused:
                r = take(http, tid, seat, name)
                assert r.status_code == code and "\n" not in r.json()["error"], (seat, name, r.json())
            assert take(http, "nope", 0, "Cy").status_code == 404
            r = http.post(f"/api/tables/{tid}/seats/0", content=json.dumps({"name": "Cy"}))
            assert r.status_code == 415  # JSON only, as every POST (a cross-site form cannot send it)
            r = http.post(
                f"/api/tables/{tid}/seats/0", content=b"{oops", headers={"content-type": "application/json"}
            )
            assert r.status_code == 400
            r = take(http, tid, 0, "Cy", headers={"origin": "http://evil.example"})
            assert r.status_code == 403 and listed(http, tid)["seats"][0]["open"]
            # seat 0 is claimed by its own link: opened once, it is no longer offered
            ana = Client(http, token_of(first[0]), inbox, stack)
            wait_for(inbox, lambda c, f: c is ana)
            assert not listed(http, tid)["seats"][0]["open"]
            assert take(http, tid, 0, "Cy").status_code == 409
            # and the two of them play: the name is the one everyone sees
            audit = lobby.sessions[tid].checker  # every frame checked for hidden cards
            for person in (ana, bea):  # a decision whose frame went by while waiting above
                f = person.last()
                if f["moves"]:
                    person.send({"type": "move", "decision": f["decision"], "index": 0})
            drive(inbox, audit, random.Random(1), lambda f: len(f["history"]) > 8)
            assert any(line["text"].startswith("Bea Ortiz:") for line in ana.last()["history"])


def test_two_people_pressing_take_at_once_one_gets_the_seat(tmp_path, registry):
    lobby = Lobby(registry, None, tmp_path / "logs")
    try:
        cfg = TableConfig.model_validate(THREE)
        session = lobby.open(cfg, "race")
        results: list[Any] = []
        barrier = threading.Barrier(12)

        def press(i: int) -> None:
            barrier.wait(10)
            try:
                results.append(lobby.take(session.id, 1, f"P{i}", client=f"10.0.0.{i}"))
            except SeatError as err:
                results.append(err)

        threads = [threading.Thread(target=press, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        won = [r for r in results if not isinstance(r, SeatError)]
        assert len(results) == 12 and len(won) == 1
        (_, token), name = won[0], session.table.names[1]
        assert lobby.find(token) == (session, 1) and re.fullmatch(r"P\d+", name)
    finally:
        lobby.close()


def test_one_address_takes_seats_at_a_bounded_pace(tmp_path, registry, monkeypatch):
    monkeypatch.setattr(lobby_module, "TAKE_BURST", 2)
    with served(tmp_path, registry) as (_, http):
        tables = [made(http) for _ in range(2)]
        codes = [take(http, t["id"], s, f"N{i}{s}").status_code for i, t in enumerate(tables) for s in (0, 1)]
        assert codes == [201, 201, 429, 429]
        assert "wait" in take(http, tables[1]["id"], 1, "Zed").json()["error"]
        assert listed(http, tables[1]["id"])["seats"][0]["open"]  # a refusal takes nothing


def test_no_lobby_seats_offers_none(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        lobby.lobby_seats = False
        table = made(http)
        assert not any(s["open"] for s in listed(http, table["id"])["seats"])
        assert take(http, table["id"], 0, "Cy").status_code == 409
        assert http.get(table["seats"][0]["link"]).status_code == 200
        lobby.lobby_seats = True
        assert not any(s["open"] for s in listed(http, table["id"])["seats"])  # made so: claimed
        opened = made(http)
        lobby.lobby_seats = False  # a server started again with --no-lobby-seats: none offered either
        assert not any(s["open"] for s in listed(http, opened["id"])["seats"])
        assert take(http, opened["id"], 0, "Cy").status_code == 409


def test_codes_are_short_unique_and_open_the_join_page(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        tables = [made(http, {"game": "paquet_voleur", "players": 2, "seed": 3}) for _ in range(5)]
        codes = [listed(http, t["id"])["code"] for t in tables]
        assert len(set(codes)) == 5  # the same seed, five codes: not derived from it
        assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_LETTERS) for c in codes)
        assert not set(CODE_LETTERS) & set("BGILOQSUVZ0125689")
        code, tid = codes[0], tables[0]["id"]
        for asked in (code, code.lower(), f"{code[:2]}-{code[2:]}"):
            r = http.get(f"/api/join/{asked}")
            assert r.status_code == 200 and r.json()["table"]["id"] == tid, asked
        data = http.get(f"/api/join/{code}").json()
        assert data["url"] == f"http://testserver/join/{code}"
        assert all(token_of(s["link"]) not in json.dumps(data) for s in tables[0]["seats"])
        page = http.get(f"/join/{code}")
        assert page.status_code == 200 and "join.js" in page.text
        for nope in ("AAAAA", "ÀÉ%20Z", "x" * 300, "%00"):
            assert (
                http.get(f"/join/{nope}").status_code == 404
                and http.get(f"/api/join/{nope}").status_code == 404
            )
        # read on this machine, the page names the server's network address (serve --lan)
        lobby.public_base = "http://192.168.1.20:8000"
        here = {"host": "127.0.0.1:8000"}
        assert (
            http.get(f"/api/join/{code}", headers=here).json()["url"]
            == f"http://192.168.1.20:8000/join/{code}"
        )
        assert http.get("/api/tables", headers=here).json()["base"] == "http://192.168.1.20:8000"
        assert http.get(f"/api/join/{code}").json()["url"] == f"http://testserver/join/{code}"
        for name in ("join.js", "seats.js", "share.js", "lobby.css", "join.html"):
            assert http.get(f"/static/{name}").status_code == 200, name


def qr_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules of a segno SVG, read back from its path (``M x y``,
    ``m dx dy``, ``h n``: a run of n dark modules), the border taken off."""
    root = ET.fromstring(svg)
    (path,) = [e for e in root.iter() if e.tag.endswith("path")]
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s+(-?[\d.]+))?", path.get("d", "").replace(" ", " ")):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for i in range(int(float(a))):
                dark.add((int(y - 0.5), int(x) + i))
            x += float(a)
    return dark


def test_the_qr_code_is_the_join_page_s_address(tmp_path, registry):
    segno = pytest.importorskip("segno")
    with served(tmp_path, registry) as (_, http):
        table = made(http)
        code = listed(http, table["id"])["code"]
        r = http.get(f"/api/tables/{table['id']}/qr.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert "default-src 'self'" in r.headers["content-security-policy"]
        url = f"http://testserver/join/{code}"
        matrix = segno.make(url, error="m", micro=False).matrix
        want = {(row, col) for row, line in enumerate(matrix) for col, v in enumerate(line) if v}
        got = {(row - 2, col - 2) for row, col in qr_modules(r.text)}  # border 2
        assert got == want
        other = segno.make(url + "X", error="m", micro=False).matrix
        assert got != {(row, col) for row, line in enumerate(other) for col, v in enumerate(line) if v}
        assert http.get("/api/tables/nope/qr.svg").status_code == 404


def test_taken_seats_names_and_codes_survive_a_restart(tmp_path, registry):
    db = tmp_path / "tables.db"
    store = Store(db)
    first = Lobby(registry, None, tmp_path / "logs", store=store)
    session = first.open(TableConfig.model_validate(THREE), "kept")
    tid, links = session.id, dict(session.links)
    _, token = first.take(tid, 1, "Bea", client="10.0.0.9")
    code = first.seating[tid].code
    assert first.claim(links[0]) == (session, 0)
    first.close()
    store.close()
    store = Store(db)
    again = Lobby(registry, None, tmp_path / "logs", store=store)
    try:
        (back,) = again.resume()
        assert back.id == tid and again.seating[tid].code == code and back.table.names[1] == "Bea"
        assert again.find(token) == (back, 1) and again.find(links[1]) is None
        assert again.find(links[0]) == (back, 0)
        assert again.open_seats(back) == []
        assert again.describe(back)["seats"][1]["name"] == "Bea" and back._info["code"] == code
    finally:
        again.close()
        store.close()


def test_a_table_stored_before_seats_were_claimed_keeps_them_its_links(tmp_path, registry):
    """A state file of an older server (no code, no claimed seats): resumed,
    each person's seat stays his link's (none is offered), and gets a code."""
    db = tmp_path / "tables.db"
    store = Store(db)
    first = Lobby(registry, None, tmp_path / "logs", store=store)
    session = first.open(TableConfig.model_validate(THREE), "old")
    first.close()
    (row,) = store.open_tables()
    data = {k: v for k, v in row[1].items() if k not in ("code", "claimed")}
    store.db.execute("UPDATE tables SET data = ? WHERE id = ?", (json.dumps(data), session.id))
    again = Lobby(registry, None, tmp_path / "logs", store=store)
    try:
        (back,) = again.resume()
        assert again.open_seats(back) == [] and len(again.seating[back.id].code) == CODE_LENGTH
        assert store.open_tables()[0][1]["code"] == again.seating[back.id].code
    finally:
        again.close()
        store.close()


# ---- the address --lan puts in the links -----------------------------------
def test_the_network_address_is_chosen_without_loopback():
    def fails() -> str:
        raise OSError("no route")

    def says(value: str) -> Any:
        return lambda: value

    choose = address.network_address
    assert choose([says("192.168.1.7"), says("10.0.0.2")]) == "192.168.1.7"
    assert choose([fails, says("10.0.0.2")]) == "10.0.0.2"
    assert choose([says("127.0.1.1"), says("169.254.3.3"), says("0.0.0.0"), says("::1")]) == "127.0.0.1"
    assert choose([fails, says("not an address")]) == address.FALLBACK == "127.0.0.1"
    assert choose([]) == "127.0.0.1"


def test_the_machine_s_own_address_is_one_of_its_own():
    found = address.network_address()
    assert found == "127.0.0.1" or address.usable(found)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((found, 0))  # an address of this machine (binding sends nothing)
    from cardcore.commands.serve import _link_host

    assert _link_host("0.0.0.0") == found and _link_host("127.0.0.1") == "127.0.0.1"


def test_the_lan_address_passes_the_host_and_origin_checks(tmp_path, registry):
    from cardcore.commands.serve import _link_host, _served_hosts
    from cardcore.web.app import create_app

    found = _link_host("0.0.0.0")
    hosts = _served_hosts("0.0.0.0", found)
    assert found in hosts and socket.gethostname() in hosts and "0.0.0.0" not in hosts
    lobby = Lobby(registry, None, tmp_path / "logs")
    try:
        with starlette_testclient.TestClient(
            create_app(lobby, hosts=_served_hosts("0.0.0.0", "192.0.2.7"))
        ) as http:
            mine = {"host": "192.0.2.7:8000", "origin": "http://192.0.2.7:8000"}
            assert http.get("/api/tables", headers=mine).status_code == 200
            made = http.post("/api/tables", json=THREE, headers=mine)
            assert made.status_code == 201
            r = http.post(f"/api/tables/{made.json()['id']}/seats/0", json={"name": "Cy"}, headers=mine)
            assert r.status_code == 201
            assert http.get("/api/tables", headers={"host": "192.0.2.8:8000"}).status_code == 403
    finally:
        lobby.close()


def test_serve_lan_refuses_another_host_in_one_line(tmp_path):
    code, out = run_cli("serve", "--lan", "--host", "10.1.2.3", "--port", "0", "--log-dir", str(tmp_path))
    assert code == 2 and "--lan" in out and len(out.strip().splitlines()) == 1, out
    code, out = run_cli("serve", "--help")
    assert "--lan" in out and "--no-lobby-seats" in out


def test_a_real_server_prints_the_join_link_and_gives_a_seat(tmp_path):
    import httpx2 as httpx
    from websockets.sync.client import connect

    srv = Served(tmp_path, "paquet_voleur", "--seat", "1=human")
    try:
        (join,) = [ln.split()[1] for ln in srv.lines if ln.startswith("join:")]
        assert join.startswith(srv.base + "/join/")
        code = join.rsplit("/", 1)[1]
        data = httpx.get(f"{srv.base}/api/join/{code}", timeout=20).json()
        assert data["url"] == join and [s["open"] for s in data["table"]["seats"]][:2] == [True, True]
        tid = data["table"]["id"]
        r = httpx.post(f"{srv.base}/api/tables/{tid}/seats/1", json={"name": "Bea"}, timeout=20)
        assert r.status_code == 201, r.text
        ws_url = srv.base.replace("http://", "ws://") + r.json()["link"].replace("/seat/", "/ws/")
        with connect(ws_url, open_timeout=20) as ws:
            frame = json.loads(ws.recv(timeout=20))
            assert frame["you"] == 1 and frame["table"]["names"][1] == "Bea"
        with connect(srv.ws(srv.seats[1]), open_timeout=20) as ws:  # the printed link of seat 1: gone
            assert json.loads(ws.recv(timeout=20))["fatal"] is True
        assert httpx.get(srv.seats[0], timeout=20).status_code == 200
    finally:
        code_, err = srv.stop()
    assert code_ == 0 and "Traceback" not in err, err


def test_a_match_with_seats_taken_from_the_lobby_replays(tmp_path, registry):
    from cardcore.log import replay

    with served(tmp_path, registry) as (lobby, http):
        table = made(http, {"game": "paquet_voleur", "players": [{"kind": "human"}] * 2})
        pairs = ((0, "Ana"), (1, "Bea"))
        links = [take(http, table["id"], seat, name).json()["link"] for seat, name in pairs]
        inbox: queue.Queue[Any] = queue.Queue()
        session = lobby.sessions[table["id"]]
        with contextlib.ExitStack() as stack:
            for link in links:
                Client(http, token_of(link), inbox, stack)
            drive(inbox, session.checker, random.Random(2), lambda f: f["status"]["phase"] == "match_over")
        session.stop()
        summary = replay(session.log_path, registry)
        assert summary.complete and summary.matches_ended == 1
        code, out = run_cli("replay", str(session.log_path), "--check")
        assert code == 0, out
