"""The table server as a hostile user meets it (issue 20): no seed shown or
derivable while people play, Origin and Host checks, bounded queues and
budgets, tables that close, a watchdog, and tables that survive a restart."""

from __future__ import annotations

import contextlib
import json
import queue
from typing import Any

import pytest
from test_web import Client, served, wait_for

from cardcore import seeds
from cardcore.table import Table

PEOPLE4 = {"game": "carrousel", "players": [{"kind": "human"}] * 4}  # nobody moves before a person


def search_seed(table: Table, first_view: dict[str, Any], bits: int) -> int | None:
    """A spectator's attack: try every seed of ``bits`` bits, deal the first
    deal as the server would, and keep the seed whose public view is the one
    the spectator was sent (the dealer, the face-up table cards, ...)."""
    for seed in range(2**bits):
        state = table.new_match(seed).start_deal()
        if table.spectate(state).to_json() == first_view:
            return seed
    return None


def first_frames(http: Any, made: dict[str, Any], stack: contextlib.ExitStack) -> list[dict[str, Any]]:
    """The first dealt frame of the spectator and of every seat."""
    inbox: queue.Queue[Any] = queue.Queue()
    tokens = [made["watch"].rsplit("/", 1)[1], *(s["link"].rsplit("/", 1)[1] for s in made["seats"])]
    clients = [Client(http, t, inbox, stack) for t in tokens]
    out = []
    for c in clients:
        _, frame = wait_for(inbox, lambda got, f, c=c: got is c and f["view"] is not None)
        out.append(frame)
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
        seed = search_seed(table, watcher["view"], 16)
        assert seed is not None and seed == lobby.sessions[made["id"]].seed
        state = table.new_match(seed).start_deal()
        for frame in people:  # every hand, from what the spectator saw
            assert sorted(c.name for c in state.hands[frame["you"]]) == sorted(frame["view"]["hand"])
    monkeypatch.undo()
    assert seeds.SEED_BITS >= 128
    with served(tmp_path / "real", registry) as (lobby, http), contextlib.ExitStack() as stack:
        made = http.post("/api/tables", json=PEOPLE4).json()
        watcher, *_ = first_frames(http, made, stack)
        assert search_seed(table, watcher["view"], 16) is None
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
    from cardcore.simulate import match_seed
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
