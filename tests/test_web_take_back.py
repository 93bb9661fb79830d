"""Take back at a web table (``{"type": "take_back"}``): a person alone
against bots goes back to his previous decision of the deal, past his own
forced moves, as the terminal's ``u`` does (``players.Undoable``): the same
decision comes back with the same hand and the same view, the cards he cannot
see dealt again (``tests/test_take_back.py``); the take back is
journaled, and a table resumed after a restart takes it back again. A table
of several people has none."""

from __future__ import annotations

import contextlib
import queue
from typing import Any

import pytest
from conftest import run_cli
from test_web import Client, open_table, served, wait_for

from cardcore.config import TableConfig
from cardcore.web.store import Store


def next_decision(inbox: queue.Queue[Any], client: Any, seen: set[int]) -> dict[str, Any]:
    """The next frame that asks ``client`` a decision it was not asked yet."""
    _, frame = wait_for(inbox, lambda c, m: c is client and bool(m["moves"]) and m["decision"] not in seen)
    seen.add(frame["decision"])
    return frame


def play_and_take_back(inbox: queue.Queue[Any], me: Any, times: int) -> list[dict[str, Any]]:
    """Play the last move listed at each decision; whenever the frame offers
    *take back*, take back (``times`` times): the decision that comes back is
    his last one with a choice in this deal, the same view and moves. The
    frames taken back to."""
    seen: set[int] = set()
    frame = next_decision(inbox, me, seen)
    assert frame["take_back"] is False  # nothing before his first decision
    earlier: list[dict[str, Any]] = []  # his decisions of this deal with a choice
    back_at: list[dict[str, Any]] = []
    for _ in range(200):
        if earlier and earlier[-1]["status"]["deal"] != frame["status"]["deal"]:
            earlier = []  # a new deal: no way back into the last one
        assert frame["take_back"] == bool(earlier), (frame["take_back"], len(earlier))
        if frame["take_back"]:
            before = earlier.pop()
            me.send({"type": "take_back", "decision": frame["decision"]})
            frame = next_decision(inbox, me, seen)
            assert frame["view"] == before["view"]  # the same hand, the same table
            assert [m["text"] for m in frame["moves"]] == [m["text"] for m in before["moves"]]
            assert frame["history"][-2]["text"].endswith("takes a move back")
            # what he cannot see there is dealt again: what he saw since tells him nothing
            assert frame["history"][-1]["text"].endswith("cannot see are dealt again")
            back_at.append(frame)
            if len(back_at) == times:
                return back_at
        if len(frame["moves"]) > 1:
            earlier.append(frame)
        me.send({"type": "move", "decision": frame["decision"], "index": len(frame["moves"]) - 1})
        frame = next_decision(inbox, me, seen)
    raise AssertionError("no take back offered")


@pytest.mark.parametrize(
    "game,kinds,options",
    [
        ("carrousel", ["human", "greedy"], {"target": 15}),
        ("canasta", ["human", "greedy"], {}),
        ("paquet_voleur", ["human", "greedy", "greedy"], {}),
    ],
)
def test_take_back_brings_the_same_decision_back(tmp_path, registry, game, kinds, options):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, game, kinds, options, seed=3)
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            me = Client(http, session.links[0], inbox, stack)
            play_and_take_back(inbox, me, 3)
            assert me.errors == []
            for f in me.frames:
                session.checker.check(f)  # nothing hidden shown, before or after a take back
        session.stop()
    code, out = run_cli("replay", str(session.log_path), "--check")  # the log holds no move taken back
    assert code == 0, out


def test_several_people_have_no_take_back(tmp_path, registry):
    with served(tmp_path, registry) as (lobby, http):
        session = open_table(lobby, "carrousel", ["human", "human"], {"target": 15}, seed=3)
        inbox: queue.Queue[Any] = queue.Queue()
        with contextlib.ExitStack() as stack:
            Client(http, session.links[0], inbox, stack)
            Client(http, session.links[1], inbox, stack)
            seen: dict[int, set[int]] = {0: set(), 1: set()}
            for _ in range(4):
                client, frame = wait_for(
                    inbox, lambda c, m: bool(m["moves"]) and m["decision"] not in seen[m["you"]]
                )
                seen[frame["you"]].add(frame["decision"])
                assert frame["take_back"] is False
                error = client.refused({"type": "take_back", "decision": frame["decision"]})
                assert "against bots only" in error
                client.send({"type": "move", "decision": frame["decision"], "index": 0})
        session.stop()


def test_a_resumed_table_takes_back_again(tmp_path, registry):
    """The take back is in the journal: after a restart the table is played
    again to the same decision, with the same view."""
    from test_web_away import Conn
    from test_web_away import served as served_with_store

    db = tmp_path / "tables.db"
    store = Store(db)
    cfg = {"game": "carrousel", "players": [{"kind": "human"}, {"kind": "greedy"}], "options": {"target": 15}}
    inbox: queue.Queue[Any] = queue.Queue()
    with served_with_store(tmp_path, registry, store) as (lobby, http):
        session = lobby.open(TableConfig.model_validate(cfg), "kept", seed=4)
        link, table_id = session.links[0], session.id
        with contextlib.ExitStack() as stack:
            me = Conn(http, link, inbox, stack)
            last = play_and_take_back(inbox, me, 2)[-1]
    assert any(e["t"] == "take_back" for e in store.journal(table_id))
    store.close()
    store = Store(db)
    inbox = queue.Queue()
    with served_with_store(tmp_path, registry, store) as (lobby, http):
        (back,) = lobby.resume()
        with contextlib.ExitStack() as stack:
            Conn(http, link, inbox, stack)
            _, m = wait_for(inbox, lambda c, f: bool(f["moves"]))
            assert back.id == table_id
            assert m["view"] == last["view"]
            assert [x["text"] for x in m["moves"]] == [x["text"] for x in last["moves"]]
    store.close()
