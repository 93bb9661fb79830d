"""Engine-wide guarantees: hidden information, hooks, switches, notation."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcore.cards import RANKS, SUITS, Card, CardError, card, parse_card
from cardcore.hookspecs import DiscoverySpec, TableSpec
from cardcore.plugins import discover
from cardcore.runner import make_players
from cardcore.table import Table

ROOT = Path(__file__).parent.parent


def _cards_in(value) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, dict):
        return [c for v in value.values() for c in _cards_in(v)]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _cards_in(v)]
    if isinstance(value, str):
        return []
    return []


def _names_in(value) -> str:
    if isinstance(value, dict):
        return " ".join(_names_in(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return " ".join(_names_in(v) for v in value)
    return str(value)


@pytest.mark.parametrize(
    "game,players", [("paquet_voleur", 3), ("carrousel", 4), ("canasta", 4), ("canasta", 3)]
)
def test_observation_hides_other_hands_and_the_stock(registry, game, players):
    """A seat sees its own hand, never another's, nor the stock (hidden information)."""
    t = Table.from_names(registry, game, players)
    bots = make_players(t, ["random"] * players, 1)
    m = t.new_match(3)
    s = m.start_deal()
    for _ in range(60):
        if t.is_deal_over(s):
            break
        for seat in range(players):
            obs = t.observe(s, seat)
            assert sorted(c.sort_key for c in obs.hand) == sorted(c.sort_key for c in s.hands[seat])
            hidden = {id(c) for i, h in enumerate(s.hands) if i != seat for c in h}
            hidden |= {id(c) for c in s.stock}
            assert not any(id(c) in hidden for c in _cards_in(obs.public))
            # nor by name, when rendered as text: no other seat's hand is listed
            text = _names_in(obs.public)
            for i, h in enumerate(s.hands):
                if i != seat and len(h) >= 3:
                    assert " ".join(c.name for c in h) not in text
        moves = t.legal_moves(s)
        t.apply(s, bots[s.to_act].choose(None, moves), moves)


def test_every_hook_is_documented():
    arch = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    for spec in (DiscoverySpec, TableSpec):
        for name, fn in inspect.getmembers(spec, inspect.isfunction):
            if name.startswith("cardcore_"):
                assert f"`{name}(" in arch, f"{name} missing from docs/ARCHITECTURE.md"
                assert fn.__doc__ and "Called" in fn.__doc__, f"{name} docstring must say who calls it"


def test_every_game_hook_is_documented(registry):
    arch = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    for g in registry.games.values():
        for spec in g.hookspecs:
            for name, fn in inspect.getmembers(spec, inspect.isfunction):
                assert f"`{name}(" in arch, f"{name} missing from docs/ARCHITECTURE.md"
                assert fn.__doc__ and "Called" in fn.__doc__


def test_hook_misspelled_in_a_house_rule_is_rejected(registry):
    from cardcore.game import HouseRuleSpec
    from cardcore.hookspecs import hookimpl

    class Bad:
        @hookimpl
        def cardcore_legal_movez(self, state):
            return []

    spec = HouseRuleSpec("bad", "paquet_voleur", "", Bad())
    with pytest.raises(Exception, match="legal_movez"):
        Table(registry.games["paquet_voleur"], 3, None, [spec])


def test_disable_plugins_switch():
    env_run = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "games", "--json"],
        env={"CARDCORE_DISABLE_PLUGINS": "canasta", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"canasta"' not in env_run.stdout and '"carrousel"' in env_run.stdout


def test_trace_hooks_switch():
    out = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "simulate", "paquet_voleur", "--deals", "1", "--seed", "1"],
        env={"CARDCORE_TRACE_HOOKS": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "cardcore_legal_moves" in out.stderr


# ---- card notation ----------------------------------------------------------------------
@given(st.sampled_from(RANKS), st.sampled_from(SUITS))
def test_card_text_round_trips(rank, suit):
    c = card(rank + suit)
    assert parse_card(str(c)) is c
    assert parse_card(str(c).lower()) is c


def test_card_notation_variants():
    assert parse_card("TD") is card("10D")
    assert parse_card("t♦") is card("10D")
    assert parse_card("q♠") is card("QS")
    assert parse_card("joker20") is card("JOKER20")
    for bad in ("1Z", "", "11H", "ZZ", "10"):
        with pytest.raises(CardError):
            parse_card(bad)
    with pytest.raises(CardError):
        parse_card("BROOM", specials={"JOKER"})


def test_copies_stay_distinct(registry):
    t = Table.from_names(registry, "canasta", 4)
    kh = [c for c in t.deck if c.name == "KH"]
    assert len(kh) == 2 and kh[0] is not kh[1] and kh[0] != kh[1]


def test_registry_is_not_global():
    a, b = discover(), discover()
    assert a is not b and a.games.keys() == b.games.keys()
    assert discover(use_entry_points=False).games == {}


@pytest.mark.parametrize("game,players", [("paquet_voleur", 4), ("carrousel", 2), ("canasta", 3)])
def test_same_seed_same_game_across_processes(game, players):
    """Object ids and hash seeds differ between processes; the games must not."""
    import json
    import os

    outs = []
    for hashseed in ("1", "2"):
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "cardcore.cli",
                "simulate",
                game,
                "--players",
                str(players),
                "--bot",
                "greedy",
                "--seat",
                "0=random",
                "--deals",
                "12",
                "--seed",
                "5",
                "--json",
            ],
            env={**os.environ, "PYTHONHASHSEED": hashseed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        data = json.loads(out)
        data.pop("seconds")
        outs.append(data)
    assert outs[0] == outs[1]


def test_a_game_missing_a_required_hook_is_refused(registry):
    """Table checks every required hook when it is built: one line naming the game and the hook."""
    import dataclasses

    from cardcore.errors import TableError

    pv = registry.game("paquet_voleur")
    plugin_class = type(pv.plugin(Table(pv, 2)))
    for missing in ("cardcore_observe", "cardcore_state_cards"):
        broken_class = type("Broken", (plugin_class,), {missing: None})
        broken = dataclasses.replace(pv, name="broken", plugin=broken_class)
        with pytest.raises(TableError, match=f"broken: the game does not implement the hook {missing}"):
            Table(broken, 2)


def test_a_game_missing_its_own_hook_is_refused(registry):
    import dataclasses

    from cardcore.errors import TableError

    ca = registry.game("carrousel")
    plugin_class = type(ca.plugin(Table(ca, 2)))
    broken_class = type("Broken", (plugin_class,), {"carrousel_may_trail": None})
    with pytest.raises(TableError, match="carrousel_may_trail"):
        Table(dataclasses.replace(ca, plugin=broken_class), 2)
