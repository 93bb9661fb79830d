"""Numbers are finite and bounded everywhere a bot kind is read (issue 46,
item 2): ``ismcts:ms=nan`` never ended a search, so NaN, infinities,
negatives and budgets past ``ismcts.MAX_ITERATIONS``/``MAX_MS`` are refused in
one line naming the option, at the CLI (exit 2), in ``games.yaml``
(``validate``) and in the lobby (400); and whatever its options say, a search
ends at its ceiling, or as soon as the watchdog gives up on its thread."""

from __future__ import annotations

import random
import threading
import time

import pytest
from conftest import run_cli

from cardcore.decision import Decision
from cardcore.errors import TableError
from cardcore.runner import make_player
from cardcore.table import Table

BAD = [
    ("ismcts:ms=nan", "ms=nan is not a finite number"),
    ("ismcts:iterations=nan", "iterations=nan is not a finite number"),
    ("hard:iterations=nan", "iterations=nan is not a finite number"),
    ("ismcts:ms=inf", "ms=inf is not a finite number"),
    ("ismcts:ms=-inf", "ms=-inf is not a finite number"),
    ("ismcts:ms=1e400", "ms=1e400 is not a finite number"),
    ("ismcts:iterations=-5", "iterations=-5 is below zero"),
    ("ismcts:c=-0.5", "c=-0.5 is below zero"),
    ("ismcts:iterations=1e12", "iterations=1000000000000.0 is not a number from 0 to 1,000,000"),
    ("hard:iterations=1e9", "iterations=1000000000 is not a number from 0 to 1,000,000"),
    ("ismcts:ms=99999999", "ms=99999999 is not a number from 0 to 60,000"),
    ("ismcts:pool=1e10", "pool=10000000000.0 is not a number from 0 to 1,000,000"),
]


@pytest.mark.parametrize("spec,said", BAD)
def test_the_cli_refuses_them_in_one_line(spec, said):
    code, out = run_cli("simulate", "carrousel", "--players", "2", "--seat", f"0={spec}", "--deals", "1")
    assert code == 2 and said in out and len(out.strip().splitlines()) == 1, out
    assert "Traceback" not in out


def test_play_refuses_them_too():
    code, out = run_cli("play", "carrousel", "--players", "2", "--seat", "1=ismcts:ms=nan", input="q\n")
    assert code == 2 and "ms=nan is not a finite number" in out


def test_validate_names_the_table_and_the_seat(tmp_path):
    f = tmp_path / "games.yaml"
    f.write_text(
        "tables:\n  t:\n    game: carrousel\n    players:\n"
        "      - {kind: human}\n      - {kind: 'ismcts:ms=nan'}\n",
        encoding="utf-8",
    )
    code, out = run_cli("validate", str(f))
    assert code == 2 and "players.1.kind" in out and "ms=nan is not a finite number" in out


def test_the_lobby_answers_400(registry, tmp_path):
    from starlette.testclient import TestClient

    from cardcore.web.app import create_app
    from cardcore.web.lobby import Lobby

    lobby = Lobby(registry, None, tmp_path / "logs")
    app = create_app(lobby, hosts=["testserver"])
    try:
        with TestClient(app) as http:
            for spec, said in BAD[:8]:
                r = http.post(
                    "/api/tables",
                    json={"game": "carrousel", "players": [{"kind": "human"}, {"kind": spec}]},
                )
                assert r.status_code == 400 and said in r.json()["error"], (spec, r.text)
            assert not lobby.sessions  # nothing opened, no thread started
    finally:
        lobby.close()


def _long_search(registry):
    """A Canasta search asked for a million iterations, and its decision."""
    table = Table(registry.game("canasta"), 2)
    match = table.new_match(5)
    state = match.start_deal()
    while len(table.legal_moves(state)) < 2:
        state = table.apply(state, table.legal_moves(state)[0])
    seat = state.to_act
    bot = make_player(table, "ismcts:iterations=1000000", seat, random.Random(1))
    moves = tuple(table.legal_moves(state))
    return bot, table.observe(state, seat), moves, Decision(table, match, state, seat, 1, 0)


def test_a_search_ends_at_its_ceiling_whatever_its_options(registry, monkeypatch):
    from cardcore import ismcts

    monkeypatch.setattr(ismcts, "CEILING_SECONDS", 0.3)
    bot, observation, moves, decision = _long_search(registry)
    start = time.monotonic()
    assert bot.choose(observation, moves, decision) in moves
    assert time.monotonic() - start < 5 and 0 < bot.last_iterations < 1_000_000


def test_a_search_the_watchdog_gave_up_on_ends(registry):
    """``cardcore serve`` leaves a thread it gave up on behind; its search
    reads the stop flag (``watchdog.given_up``) and ends, so the thread does."""
    from cardcore.watchdog import WATCHDOG, Busy, given_up

    bot, observation, moves, decision = _long_search(registry)
    busy = Busy(0.3)
    fired = threading.Event()
    done: list[float] = []

    def game_thread() -> None:
        busy.busy()
        bot.choose(observation, moves, decision)
        stopped = given_up()  # until the loop says it ended
        WATCHDOG.forget(busy)
        if stopped and not given_up():
            done.append(time.monotonic())

    WATCHDOG.watch(busy, fired.set)
    thread = threading.Thread(target=game_thread, daemon=True)
    thread.start()
    assert fired.wait(10)
    thread.join(10)
    assert not thread.is_alive() and done
    assert bot.last_iterations < 1_000_000


def test_make_player_refuses_them_for_every_kind_that_takes_a_budget(registry):
    table = Table(registry.game("paquet_voleur"), 2)
    for spec, said in BAD:
        with pytest.raises(TableError, match=said.replace("(", r"\(").replace(".", r"\.")):
            make_player(table, spec, 0, random.Random(0))
